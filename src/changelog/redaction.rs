//! Redaction of what the change log stores: a Secret's `data`/`stringData` values never
//! reach a record — not in the before- or after-state, not in the patch — and the
//! `last-applied-configuration` annotation, which holds a copy of them, is dropped. Pure.

use serde_json::Value;

/// Replaces the values of a Secret's `data` and `stringData` with `"<redacted>"` (keys kept,
/// so the entry still says which keys existed). Other kinds are returned unchanged.
pub fn redact(mut object: Value) -> Value {
    if object.get("kind").and_then(Value::as_str) == Some("Secret") {
        for field in ["data", "stringData"] {
            if let Some(Value::Object(m)) = object.get_mut(field) {
                for v in m.values_mut() {
                    *v = Value::String("<redacted>".into());
                }
            }
        }
        if let Some(Value::Object(ann)) = object.pointer_mut("/metadata/annotations") {
            ann.remove("kubectl.kubernetes.io/last-applied-configuration");
        }
    }
    object
}

/// [`redact`] for an object of `kind` that may lack its `kind` field (objects read through
/// a typed or dynamic API often do): the field is set first, so a Secret is always recognised.
pub fn redact_as(kind: &str, mut object: Value) -> Value {
    if let Some(o) = object.as_object_mut() {
        o.entry("kind")
            .or_insert_with(|| Value::String(kind.into()));
    }
    redact(object)
}

/// The marker of a Secret value in an after-state that differs from the before-state (or is
/// new): the value itself is never stored, the fact that it changed is ([`redact_after`]).
pub const REDACTED_CHANGED: &str = "<redacted> (changed)";

/// [`redact_as`] for an after-state, pairwise with the (unredacted) before-state: a Secret's
/// `data`/`stringData` value reads `<redacted>` when it equals the before value and
/// [`REDACTED_CHANGED`] when it differs or is new — kubectl diff's masking rule (its
/// `Masker`), so `changelog diff` can say `*** (before) → *** (after)` without a value.
pub fn redact_after(kind: &str, before: Option<&Value>, after: Value) -> Value {
    let mut changed: Vec<(&str, String)> = Vec::new();
    for field in ["data", "stringData"] {
        if let Some(Value::Object(m)) = after.get(field) {
            for (k, v) in m {
                if before.and_then(|b| b.get(field)).and_then(|d| d.get(k)) != Some(v) {
                    changed.push((field, k.clone()));
                }
            }
        }
    }
    let mut out = redact_as(kind, after);
    if out.get("kind").and_then(Value::as_str) == Some("Secret") {
        for (field, k) in changed {
            if let Some(v) = out.get_mut(field).and_then(|d| d.get_mut(&k)) {
                *v = Value::String(REDACTED_CHANGED.into());
            }
        }
    }
    out
}

/// The `last-applied-configuration` annotation as a JSON Pointer: `kubectl apply` keeps the
/// applied object in it, a Secret's values included.
const LAST_APPLIED_POINTER: &str =
    "/metadata/annotations/kubectl.kubernetes.io~1last-applied-configuration";

/// Redacts a patch body aimed at a Secret: `data`/`stringData` values of a merge or
/// strategic patch, and the `value` of JSON-patch operations under `/data` or `/stringData`,
/// of the `last-applied-configuration` annotation, or that write the whole object (path
/// `""`), its metadata or its annotations (redacted as [`redact`] redacts an object).
/// Patches for other kinds are returned unchanged.
pub fn redact_patch(kind: &str, patch: Value) -> Value {
    if kind != "Secret" {
        return patch;
    }
    match patch {
        Value::Array(ops) => Value::Array(ops.into_iter().map(redact_json_patch_op).collect()),
        Value::Object(mut m) => {
            m.insert("kind".into(), Value::String("Secret".into()));
            let mut v = redact(Value::Object(m));
            if let Some(o) = v.as_object_mut() {
                o.remove("kind");
            }
            v
        }
        other => other,
    }
}

/// One JSON-patch operation of a patch aimed at a Secret, its `value` redacted when it can
/// hold the Secret's values ([`redact_patch`]).
fn redact_json_patch_op(mut op: Value) -> Value {
    let path = op
        .get("path")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let Some(v) = op.get_mut("value") else {
        return op;
    };
    if path.starts_with("/data") || path.starts_with("/stringData") || path == LAST_APPLIED_POINTER
    {
        *v = Value::String("<redacted>".into());
    } else if path.is_empty() || path == "/metadata" || path == "/metadata/annotations" {
        // The whole object, its metadata or its annotations: redacted as an object would be
        // (values kept out, last-applied dropped).
        let mut doc = v.take();
        if let Some(rest) = path.strip_prefix("/metadata") {
            doc = match rest {
                "" => serde_json::json!({"metadata": doc}),
                _ => serde_json::json!({"metadata": {"annotations": doc}}),
            };
        }
        let mut red = redact_as("Secret", doc);
        *v = match path.as_str() {
            "" => red,
            "/metadata" => red["metadata"].take(),
            _ => red["metadata"]["annotations"].take(),
        };
    }
    op
}

/// The keys of a Secret's `data`/`stringData` a journaled patch touched (pure), from its
/// touched JSON pointers (`/data/password`, `/stringData/token`, or the whole `/data`): `None`
/// when the entry is not about a Secret or touched no Secret content. `Some` with an empty
/// list means the whole map was replaced. The `last-applied-configuration` annotation of a
/// Secret (it holds the values too, and is redacted) counts as Secret content.
///
/// The change log never stores Secret values ([`redact`]), so such a change cannot be
/// rolled back from it; the decision and its reasons are in docs/changelog.md.
pub fn secret_data_keys(kind: &str, touched: &[String]) -> Option<Vec<String>> {
    if kind != "Secret" {
        return None;
    }
    let mut keys = Vec::new();
    let mut any = false;
    for p in touched {
        let unescape = |t: &str| t.replace("~1", "/").replace("~0", "~");
        let mut parts = p.split('/').skip(1);
        match (parts.next(), parts.next()) {
            (Some("data" | "stringData"), Some(key)) => {
                any = true;
                let key = unescape(key);
                if !keys.contains(&key) {
                    keys.push(key);
                }
            }
            // The whole map, or the whole object (a JSON-patch path "" or "/").
            (Some("data" | "stringData"), None) | (None, _) | (Some(""), None) => any = true,
            (Some("metadata"), Some("annotations")) => {
                let rest: Vec<&str> = parts.collect();
                if rest.is_empty() || rest[0] == "kubectl.kubernetes.io~1last-applied-configuration"
                {
                    any = true;
                }
            }
            (Some("metadata"), None) => any = true,
            _ => {}
        }
    }
    any.then_some(keys)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn secret_values_are_redacted_and_other_kinds_untouched() {
        let s = serde_json::json!({"kind": "Secret", "data": {"password": "aHVudGVyMg=="}, "stringData": {"token": "t0k3n"}});
        let r = redact(s);
        assert_eq!(r["data"]["password"], "<redacted>");
        assert_eq!(r["stringData"]["token"], "<redacted>");
        assert!(!r.to_string().contains("aHVudGVyMg") && !r.to_string().contains("t0k3n"));
        let cm = serde_json::json!({"kind": "ConfigMap", "data": {"a": "b"}});
        assert_eq!(redact(cm.clone()), cm);
    }

    #[test]
    fn secret_patches_are_redacted_in_every_patch_form() {
        let merge = serde_json::json!({"data": {"password": "aHVudGVyMg=="}, "metadata": {"labels": {"a": "b"}}});
        let r = redact_patch("Secret", merge);
        assert_eq!(
            r,
            serde_json::json!({"data": {"password": "<redacted>"}, "metadata": {"labels": {"a": "b"}}})
        );
        let ops = serde_json::json!([{"op": "replace", "path": "/data/password", "value": "aHVudGVyMg=="},
            {"op": "add", "path": "/metadata/labels/x", "value": "y"}]);
        let r = redact_patch("Secret", ops);
        assert_eq!(r[0]["value"], "<redacted>");
        assert_eq!(r[1]["value"], "y");
        let cm = serde_json::json!({"data": {"a": "b"}});
        assert_eq!(redact_patch("ConfigMap", cm.clone()), cm);
    }

    #[test]
    fn a_json_patch_writing_the_whole_secret_or_its_last_applied_annotation_is_journaled_without_values()
     {
        // Not only ops under /data and /stringData carry values: one replacing the whole
        // document (path ""), its metadata or its annotations, and the last-applied annotation
        // (a copy of the data) do too. A short stringData value is below the scrubber's
        // minimum length, so redaction is what keeps it out of the journal.
        let ops = serde_json::json!([
            {"op": "replace", "path": "", "value": {"apiVersion": "v1", "kind": "Secret",
                "metadata": {"name": "db", "annotations": {"kubectl.kubernetes.io/last-applied-configuration": "{\"data\":{\"pin\":\"OTg3\"}}", "team": "a"}},
                "stringData": {"pin": "987"}}},
            {"op": "add", "path": "/metadata/annotations/kubectl.kubernetes.io~1last-applied-configuration", "value": "{\"stringData\":{\"pin\":\"987\"}}"},
            {"op": "add", "path": "/metadata/annotations", "value": {"kubectl.kubernetes.io/last-applied-configuration": "987", "team": "b"}},
            {"op": "replace", "path": "/metadata", "value": {"name": "db", "annotations": {"kubectl.kubernetes.io/last-applied-configuration": "987"}}},
        ]);
        let r = redact_patch("Secret", ops);
        assert!(!r.to_string().contains("987"), "{r}");
        assert!(!r.to_string().contains("OTg3"), "{r}");
        assert_eq!(r[0]["value"]["stringData"]["pin"], "<redacted>");
        assert_eq!(r[0]["value"]["metadata"]["annotations"]["team"], "a");
        assert_eq!(r[1]["value"], "<redacted>");
        assert_eq!(r[2]["value"], serde_json::json!({"team": "b"}));
        assert_eq!(
            r[3]["value"],
            serde_json::json!({"name": "db", "annotations": {}})
        );
    }

    #[test]
    fn secret_data_keys_name_what_a_rollback_cannot_restore() {
        let t = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            secret_data_keys(
                "Secret",
                &t(&["/data/b", "/metadata/labels/x", "/stringData/a~1b"])
            ),
            Some(t(&["b", "a/b"]))
        );
        assert_eq!(secret_data_keys("Secret", &t(&["/data"])), Some(Vec::new()));
        assert_eq!(secret_data_keys("Secret", &t(&[""])), Some(Vec::new()));
        assert_eq!(
            secret_data_keys(
                "Secret",
                &t(&["/metadata/annotations/kubectl.kubernetes.io~1last-applied-configuration"])
            ),
            Some(Vec::new())
        );
        assert_eq!(
            secret_data_keys("Secret", &t(&["/metadata/labels/x"])),
            None
        );
        assert_eq!(secret_data_keys("ConfigMap", &t(&["/data/b"])), None);
    }

    #[test]
    fn the_journaled_after_state_marks_changed_secret_values_without_holding_them() {
        let before = json!({"kind": "Secret", "data": {"same": "c2FtZQ==", "pw": "b2xk"}});
        let after = json!({"kind": "Secret", "data": {"same": "c2FtZQ==", "pw": "bmV3", "new": "eA=="},
            "metadata": {"annotations": {"kubectl.kubernetes.io/last-applied-configuration": "{}"}}});
        let r = redact_after("Secret", Some(&before), after);
        assert_eq!(
            r,
            json!({"kind": "Secret", "data": {"same": "<redacted>", "pw": "<redacted> (changed)", "new": "<redacted> (changed)"},
                "metadata": {"annotations": {}}})
        );
        let cm = json!({"kind": "ConfigMap", "data": {"k": "v"}});
        assert_eq!(redact_after("ConfigMap", None, cm.clone()), cm);
    }
}
