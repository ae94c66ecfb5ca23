//! How objects are printed (apart from how they are fetched): kubectl's `-o json|yaml|name`
//! forms of objects and lists, the empty-list message, and the one-line result and field diff
//! of a patch or rollback (`k8s.io/kubectl/pkg/cmd/patch/patch.go`, `pkg/cmd/get/get.go`).

use serde_json::{Map, Value};

pub use super::json::{go_json_float, kubectl_json, sort_keys};

use super::format::{ObjectFormat, TemplateFormat};
use super::jsonpath::{JsonPathError, PrintOptions};
use super::{OutputError, Printer};
use crate::cluster::{DryRun, ResolvedType};

/// kubectl's message for an empty list (printed on stderr; exit 0).
pub fn no_resources(namespace: Option<&str>) -> String {
    match namespace {
        Some(ns) => format!("No resources found in {ns} namespace."),
        None => "No resources found".to_string(),
    }
}

/// `-o yaml` as kubectl prints it (`k8s.io/cli-runtime/pkg/printers/yaml.go` through
/// sigs.k8s.io/yaml): go-yaml v2's key order and scalar styles, see [`super::goyaml`].
///
/// # Errors
/// None today (the encoder is total); kept fallible like [`kubectl_json`].
pub fn kubectl_yaml(v: &Value) -> Result<String, OutputError> {
    Ok(super::goyaml::to_string(v))
}

/// The format of a [`ListWriter`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListFormat {
    /// `-o json`.
    Json,
    /// `-o yaml`.
    Yaml,
}

/// Prints a `v1 List` one item at a time (a 10,000-object `get -o json` keeps one page in
/// memory, not the whole response): the text of [`ListWriter::item`]s and
/// [`ListWriter::finish`], concatenated, is byte for byte what [`kubectl_json`] or
/// [`kubectl_yaml`] print for [`list_of`] of the same items — kubectl's key order puts
/// `items` between `apiVersion` and `kind`, so the items can go out as they come.
#[derive(Debug)]
pub struct ListWriter {
    format: ListFormat,
    count: usize,
}

impl ListWriter {
    /// A writer that has printed nothing yet.
    pub fn new(format: ListFormat) -> Self {
        ListWriter { format, count: 0 }
    }

    /// The text for one more item (the list's opening lines before the first).
    ///
    /// # Errors
    /// [`OutputError::Encode`] when the item cannot be encoded.
    pub fn item(&mut self, item: &Value) -> Result<String, OutputError> {
        let first = self.count == 0;
        self.count += 1;
        Ok(match self.format {
            ListFormat::Json => {
                let text = kubectl_json(item)?;
                let mut out = String::with_capacity(text.len() + text.len() / 4 + 64);
                out.push_str(if first {
                    "{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n"
                } else {
                    ",\n"
                });
                for (i, line) in text.trim_end_matches('\n').split('\n').enumerate() {
                    if i > 0 {
                        out.push('\n');
                    }
                    out.push_str("        ");
                    out.push_str(line);
                }
                out
            }
            ListFormat::Yaml => {
                let text = super::goyaml::sequence_item(item);
                if first {
                    format!("apiVersion: v1\nitems:\n{text}")
                } else {
                    text
                }
            }
        })
    }

    /// The list's closing lines (the whole empty list when no item was printed).
    pub fn finish(self) -> String {
        match (self.format, self.count) {
            (ListFormat::Json, 0) => "{\n    \"apiVersion\": \"v1\",\n    \"items\": [],\n    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n".into(),
            (ListFormat::Json, _) => "\n    ],\n    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n".into(),
            (ListFormat::Yaml, 0) => "apiVersion: v1\nitems: []\nkind: List\nmetadata:\n  resourceVersion: \"\"\n".into(),
            (ListFormat::Yaml, _) => "kind: List\nmetadata:\n  resourceVersion: \"\"\n".into(),
        }
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
/// bounds, a missing key when not allowed): kubectl's exit 1; also for a
/// [`TemplateFormat::File`] not read yet.
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
        // Settings read every template file before a verb runs; a file not read has no
        // template to apply.
        TemplateFormat::File(file) => Err(JsonPathError::Execute {
            template: file.flag.clone(),
            reason: "the template file was not read".into(),
        }),
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
/// redacted) when asked or for a dry run — on stdout after the result line, on stderr with
/// `-o` (stdout then holds only what kubectl prints).
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
            !crate::rules::diff::operations(b, after).is_empty()
                || (dry_run == DryRun::None && rv(Some(b)) != rv(Some(after)))
        }
        None => true,
    };
    let to_stderr = output.is_some();
    match output {
        Some(ObjectFormat::Json) => p.out(&kubectl_json(&with_type_meta(after.clone(), t))?)?,
        Some(ObjectFormat::Yaml) => p.out(&kubectl_yaml(&with_type_meta(after.clone(), t))?)?,
        Some(ObjectFormat::KYaml) => p.out(&crate::output::kyaml::to_string(&sort_keys(
            with_type_meta(after.clone(), t),
        )))?,
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
        // Secret values are hidden, their changes shown (diffing redacted copies would hide them).
        // With -o, stdout is the object alone, byte for byte as kubectl prints it (a script
        // pipes it on), so the diff goes to stderr.
        for line in crate::rules::diff::render_for(&t.api.kind, b, after) {
            if to_stderr {
                p.err_line(&format!("  {line}"));
            } else {
                p.out(&format!("  {line}\n"))?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_streamed_list_is_byte_for_byte_the_whole_list() {
        let long: Vec<String> = (0..40).map(|i| format!("word{i}")).collect();
        let long = long.join(" ");
        let items = [
            serde_json::json!({"apiVersion": "v1", "kind": "ConfigMap",
                "metadata": {"name": "a", "labels": {"x": "y"}},
                "data": {"multi": "line1\n\nline3\n", "lead": " x\ny", "html": "<a&b>", "yes": "yes",
                    "long": long, "empty": "", "num": "0123", "nested": "- a\n- b"}}),
            serde_json::json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "b"},
                "spec": {"containers": [{"name": "c", "args": ["--x", "", "two\nlines"]}], "n": 1.5, "z": null, "t": true,
                    "empty": {}, "list": []}}),
        ];
        for n in 0..=items.len() {
            let some: Vec<Value> = items[..n].to_vec();
            for (format, whole) in [
                (
                    ListFormat::Json,
                    kubectl_json(&list_of(some.clone())).unwrap(),
                ),
                (
                    ListFormat::Yaml,
                    kubectl_yaml(&list_of(some.clone())).unwrap(),
                ),
            ] {
                let mut w = ListWriter::new(format);
                let mut streamed = String::new();
                for i in &some {
                    streamed.push_str(&w.item(i).unwrap());
                }
                streamed.push_str(&w.finish());
                assert_eq!(streamed, whole, "{format:?} with {n} items");
            }
        }
    }

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
            subresources: Vec::new(),
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
    fn json_escapes_html_characters_and_prints_floats_as_go() {
        let v = serde_json::json!({"b": "<a&b>", "a": [1.0, 1.5, 1e-7, 1e21, 0.000001, -2.5e22]});
        assert_eq!(
            kubectl_json(&v).unwrap(),
            "{\n    \"a\": [\n        1,\n        1.5,\n        1e-7,\n        1e+21,\n        0.000001,\n        -2.5e+22\n    ],\n    \"b\": \"\\u003ca\\u0026b\\u003e\"\n}\n"
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
