//! How objects are printed (apart from how they are fetched): kubectl's `-o json|yaml|name`
//! forms of objects and lists, the empty-list message, and the one-line result and field diff
//! of a patch or rollback (`k8s.io/kubectl/pkg/cmd/patch/patch.go`, `pkg/cmd/get/get.go`).

use serde_json::{Map, Value};

use super::jsonpath::{JsonPathError, PrintOptions};
use super::{OutputError, Printer, to_json, to_yaml};
use crate::cli::{DryRun, ObjectFormat, TemplateFormat};
use crate::cluster::ResolvedType;

/// kubectl's message for an empty list (printed on stderr; exit 0).
pub fn no_resources(namespace: Option<&str>) -> String {
    match namespace {
        Some(ns) => format!("No resources found in {ns} namespace."),
        None => "No resources found".to_string(),
    }
}

/// Wraps items in a `v1 List`, as kubectl does for collections.
pub fn list_of(items: Vec<Value>) -> Value {
    serde_json::json!({"apiVersion": "v1", "items": items, "kind": "List", "metadata": {"resourceVersion": ""}})
}

/// Puts `apiVersion` and `kind` first in an object (list items from the server omit them
/// for built-in types; kubectl adds them back) and drops `metadata.managedFields`, as
/// kubectl does unless `--show-managed-fields`.
pub fn with_type_meta(item: Value, t: &ResolvedType) -> Value {
    with_type_meta_keeping(item, t, false)
}

/// [`with_type_meta`], keeping `metadata.managedFields` when `keep_managed_fields`: kubectl
/// strips them only for `-o json|yaml` (`k8s.io/kubectl/pkg/cmd/get/get.go`, the
/// `--show-managed-fields` printer wrapper); its JSONPath and custom-columns printers see
/// them.
pub fn with_type_meta_keeping(item: Value, t: &ResolvedType, keep_managed_fields: bool) -> Value {
    let Value::Object(mut rest) = item else {
        return item;
    };
    if !keep_managed_fields && let Some(Value::Object(meta)) = rest.get_mut("metadata") {
        meta.remove("managedFields");
    }
    let mut m = Map::new();
    m.insert(
        "apiVersion".into(),
        Value::String(t.api.api_version.clone()),
    );
    m.insert("kind".into(), Value::String(t.api.kind.clone()));
    for (k, v) in rest {
        if k != "apiVersion" && k != "kind" {
            m.insert(k, v);
        }
    }
    Value::Object(m)
}

/// `doc` (one object, or a `List`) printed with a template format, as kubectl prints it:
/// a JSONPath template applied once to the whole document (no newline added), or custom
/// columns with one row per list item (`k8s.io/cli-runtime/pkg/printers/jsonpath.go`,
/// `k8s.io/kubectl/pkg/cmd/get/customcolumn.go`). `no_headers` drops the custom-columns
/// header; `allow_missing_keys` is `--allow-missing-template-keys` (custom columns always
/// allow them, as kubectl).
///
/// # Errors
/// [`JsonPathError::Execute`] when the template does not fit the document (an index out of
/// bounds, a missing key when not allowed): kubectl's exit 1.
pub fn render_template(
    f: &TemplateFormat,
    doc: &Value,
    no_headers: bool,
    allow_missing_keys: bool,
) -> Result<String, JsonPathError> {
    match f {
        TemplateFormat::JsonPath { template, as_json } => template.render(
            doc,
            PrintOptions {
                allow_missing_keys,
                as_json: *as_json,
            },
        ),
        TemplateFormat::CustomColumns(columns) => {
            super::custom_columns::render(doc, columns, no_headers)
        }
    }
}

/// The one-line result, as kubectl prints it.
pub fn result_line(display: &str, verb: &str, changed: bool, dry_run: DryRun) -> String {
    let mut line = format!("{display} {verb}");
    if !changed {
        line.push_str(" (no change)");
    }
    match dry_run {
        DryRun::None => {}
        DryRun::Server => line.push_str(" (server dry run)"),
        DryRun::Client => line.push_str(" (dry run)"),
    }
    line
}

/// Prints the result of a patch or rollback on the object `display` (`kind.group/name`) of
/// type `t`: the object (`-o`) or kubectl's result line, then the field diff (Secret values
/// redacted) when asked or for a dry run.
///
/// # Errors
/// [`OutputError`] when stdout cannot be written or the object cannot be encoded.
#[allow(clippy::too_many_arguments)]
pub fn print_result(
    p: &mut Printer<'_>,
    t: &ResolvedType,
    display: &str,
    verb: &str,
    before: Option<&Value>,
    after: &Value,
    dry_run: DryRun,
    diff: bool,
    output: Option<ObjectFormat>,
) -> Result<(), OutputError> {
    let rv = |o: Option<&Value>| {
        o.and_then(|o| o.pointer("/metadata/resourceVersion"))
            .cloned()
    };
    let changed = match before {
        Some(b) => {
            !crate::diff::operations(b, after).is_empty()
                || (dry_run == DryRun::None && rv(Some(b)) != rv(Some(after)))
        }
        None => true,
    };
    match output {
        Some(ObjectFormat::Json) => p.out(&to_json(&with_type_meta(after.clone(), t))?)?,
        Some(ObjectFormat::Yaml) => p.out(&to_yaml(&with_type_meta(after.clone(), t))?)?,
        Some(ObjectFormat::Name) => p.out(&format!("{display}\n"))?,
        Some(ObjectFormat::Template(f)) => p.out(
            &render_template(&f, &with_type_meta(after.clone(), t), false, true)
                .map_err(|e| OutputError::Encode(e.to_string()))?,
        )?,
        None => p.out(&format!(
            "{}\n",
            result_line(display, verb, changed, dry_run)
        ))?,
    }
    if (diff || dry_run != DryRun::None)
        && let Some(b) = before
    {
        // Secret values are hidden, their changes shown (diffing redacted copies hid them).
        for line in crate::diff::render_for(&t.api.kind, b, after) {
            p.out(&format!("  {line}\n"))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_items_get_type_meta_first() {
        let t = ResolvedType {
            api: kube::discovery::ApiResource {
                group: "apps".into(),
                version: "v1".into(),
                api_version: "apps/v1".into(),
                kind: "Deployment".into(),
                plural: "deployments".into(),
            },
            namespaced: true,
            singular: "deployment".into(),
            short_names: vec![],
            categories: vec![],
            verbs: vec![],
            preferred: true,
        };
        let v = with_type_meta(
            serde_json::json!({"metadata": {"name": "x"}, "spec": {}}),
            &t,
        );
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["apiVersion", "kind", "metadata", "spec"]);
        assert_eq!(
            no_resources(Some("a")),
            "No resources found in a namespace."
        );
    }

    #[test]
    fn result_lines_match_kubectl() {
        assert_eq!(
            result_line("deployment.apps/web", "patched", true, DryRun::None),
            "deployment.apps/web patched"
        );
        assert_eq!(
            result_line("pod/a", "patched", false, DryRun::None),
            "pod/a patched (no change)"
        );
        assert_eq!(
            result_line("pod/a", "patched", true, DryRun::Server),
            "pod/a patched (server dry run)"
        );
    }
}
