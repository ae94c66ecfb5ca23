//! What `apply` accepts of one manifest document (pure): an object with `apiVersion`, `kind`
//! and `metadata.name` (a `List` is its items), never a client-side apply's
//! `kubectl.kubernetes.io/last-applied-configuration`. Messages quote nothing of the document
//! but escaped, capped names.

use serde_json::Value;

use crate::base::echo;
use crate::crds::documents::Document;

/// The annotation `kubectl apply` (client-side) keeps the applied configuration in
/// (k8s.io/kubectl `pkg/util/apply.go`, `LastAppliedConfigAnnotation`).
pub const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// What the checks learned of one object of a manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Head {
    /// Where its document starts.
    pub line: u64,
    /// Where its document starts.
    pub column: u64,
    /// `apiVersion`.
    pub api_version: String,
    /// `kind`.
    pub kind: String,
    /// `metadata.name`.
    pub name: String,
    /// `metadata.namespace`, if written.
    pub namespace: Option<String>,
}

/// A CustomResourceDefinition of the manifests: what it will serve once Established.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Defines {
    /// `spec.group`.
    pub group: String,
    /// `spec.names.kind`.
    pub kind: String,
    /// The served version names.
    pub versions: Vec<String>,
}

impl Defines {
    /// Whether the CRD serves `api_version` `kind` (`group/version`).
    pub fn serves(&self, api_version: &str, kind: &str) -> bool {
        api_version
            .split_once('/')
            .is_some_and(|(g, v)| g == self.group && self.versions.iter().any(|x| x == v))
            && kind == self.kind
    }
}

/// The objects of one document: itself, or the items of a `List` (`kind: List`, or any
/// `…List` with `items`, as kubectl reads them), each located at the document.
pub fn objects(doc: Document) -> Vec<Document> {
    let is_list = doc
        .value
        .get("kind")
        .and_then(Value::as_str)
        .is_some_and(|k| k.ends_with("List"))
        && doc.value.get("items").is_some_and(Value::is_array);
    if !is_list {
        return vec![doc];
    }
    let (line, column) = (doc.line, doc.column);
    match doc.value {
        Value::Object(mut m) => match m.remove("items") {
            Some(Value::Array(items)) => items
                .into_iter()
                .map(|value| Document {
                    line,
                    column,
                    value,
                })
                .collect(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// Checks one object (pure).
///
/// # Errors
/// What is wrong and what to do, for `file:line:column: …`.
pub fn check(doc: &Document) -> Result<Head, String> {
    let v = &doc.value;
    if !v.is_object() {
        return Err(
            "the document is not an object; write a mapping with apiVersion, kind and metadata"
                .into(),
        );
    }
    let text = |p: &str| v.pointer(p).and_then(Value::as_str).unwrap_or("");
    let (api_version, kind, name) = (text("/apiVersion"), text("/kind"), text("/metadata/name"));
    if api_version.is_empty() || kind.is_empty() {
        return Err(
            "the object has no apiVersion or no kind; every object to apply names both".into(),
        );
    }
    if name.is_empty() {
        return Err(if v.pointer("/metadata/generateName").is_some() {
            format!(
                "the {} has metadata.generateName but no metadata.name; a server-side apply names the object it applies, so give metadata.name",
                echo::bare(kind)
            )
        } else {
            format!("the {} has no metadata.name; give it one", echo::bare(kind))
        });
    }
    crate::guard::check_names(&[name.to_string()])?;
    let namespace = v
        .pointer("/metadata/namespace")
        .and_then(Value::as_str)
        .filter(|n| !n.is_empty())
        .map(str::to_string);
    if let Some(ns) = &namespace {
        crate::base::validate::check_namespace(ns)?;
    }
    if v.pointer("/metadata/annotations")
        .and_then(Value::as_object)
        .is_some_and(|a| a.contains_key(LAST_APPLIED))
    {
        return Err(format!(
            "{} {} carries the {LAST_APPLIED} annotation of a client-side kubectl apply; kubectl myops applies server-side only (the server records who owns each field, so a change can be journaled and undone), and a server-side apply would leave that annotation stale — remove it from the manifest",
            echo::bare(kind),
            echo::quoted(name)
        ));
    }
    Ok(Head {
        line: doc.line,
        column: doc.column,
        api_version: api_version.to_string(),
        kind: kind.to_string(),
        name: name.to_string(),
        namespace,
    })
}

/// What a CustomResourceDefinition object defines, if `v` is one (pure).
pub fn defines(v: &Value) -> Option<Defines> {
    let text = |p: &str| {
        v.pointer(p)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    if text("/kind") != "CustomResourceDefinition"
        || !text("/apiVersion").starts_with("apiextensions.k8s.io/")
    {
        return None;
    }
    let versions = v
        .pointer("/spec/versions")
        .and_then(Value::as_array)
        .map(|vs| {
            vs.iter()
                .filter(|x| x.get("served").and_then(Value::as_bool).unwrap_or(false))
                .filter_map(|x| x.get("name").and_then(Value::as_str).map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    Some(Defines {
        group: text("/spec/group"),
        kind: text("/spec/names/kind"),
        versions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn doc(value: Value) -> Document {
        Document {
            line: 3,
            column: 1,
            value,
        }
    }

    #[test]
    fn an_object_needs_api_version_kind_and_a_name() {
        let ok = check(&doc(json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "c1", "namespace": "ns"}})))
        .unwrap();
        assert_eq!(
            (
                ok.kind.as_str(),
                ok.name.as_str(),
                ok.namespace.as_deref(),
                ok.line
            ),
            ("ConfigMap", "c1", Some("ns"), 3)
        );
        assert!(
            check(&doc(json!([1])))
                .unwrap_err()
                .contains("not an object")
        );
        assert!(
            check(&doc(json!({"kind": "ConfigMap"})))
                .unwrap_err()
                .contains("no apiVersion")
        );
        let e = check(&doc(json!({"apiVersion": "v1", "kind": "Pod",
            "metadata": {"generateName": "p-"}})))
        .unwrap_err();
        assert!(e.contains("generateName but no metadata.name"), "{e}");
        let e = check(&doc(json!({"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "a/b"}})))
        .unwrap_err();
        assert!(!e.is_empty());
    }

    #[test]
    fn a_client_side_apply_annotation_is_refused_saying_why() {
        let e = check(&doc(json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "c1", "annotations": {LAST_APPLIED: "{}"}}})))
        .unwrap_err();
        assert!(e.contains("client-side kubectl apply"), "{e}");
        assert!(e.contains("server-side only"), "{e}");
    }

    #[test]
    fn a_list_is_its_items_and_a_crd_says_what_it_serves() {
        let items = objects(doc(json!({"apiVersion": "v1", "kind": "List", "items": [
            {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}},
            {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "b"}}]})));
        assert_eq!(items.len(), 2);
        assert_eq!(items[1].value["metadata"]["name"], "b");
        assert_eq!(objects(doc(json!({"kind": "ConfigMapList"}))).len(), 1);
        let d = defines(&json!({"apiVersion": "apiextensions.k8s.io/v1",
            "kind": "CustomResourceDefinition", "spec": {"group": "example.com",
            "names": {"kind": "Widget"}, "versions": [{"name": "v1", "served": true},
            {"name": "v2", "served": false}]}}))
        .unwrap();
        assert!(d.serves("example.com/v1", "Widget"));
        assert!(!d.serves("example.com/v2", "Widget"));
        assert!(!d.serves("example.com/v1", "Gadget"));
        assert_eq!(defines(&json!({"kind": "ConfigMap"})), None);
    }
}
