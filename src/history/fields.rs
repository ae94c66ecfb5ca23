//! Fields of a journaled change (pure): which fields a journaled patch touched
//! ([`touched_paths`]) and how a user names a field ([`field_pointer`]).

use serde_json::Value;

use crate::changelog::Entry;

/// The fields a journaled patch touched, and one JSON-pointer reference token: the mutation
/// model owns them ([`crate::guard::change::paths`]), since a patch's inverse restores exactly
/// those fields.
pub use crate::guard::change::paths::{escape, touched_paths};

/// The fields entry `e` touched ([`touched_paths`] of its journaled patch).
pub fn touched_by(e: &Entry) -> Vec<String> {
    touched_paths(
        e.patch_type.as_deref().unwrap_or(""),
        e.patch.as_ref().unwrap_or(&Value::Null),
    )
}

/// The JSON pointer for a field written by a user (pure). Two forms:
/// - a JSON Pointer (RFC 6901), starting with `/`: `/data/key`, `/spec/replicas`,
///   `/metadata/labels/app.kubernetes.io~1name`;
/// - a dotted path as kubectl's JSONPath and `changelog diff` print it, with or without the
///   leading dot: `.data.key`, `spec.replicas`, `spec.template.spec.containers[0].image`;
///   a key holding dots or slashes in brackets (`metadata.labels["app.kubernetes.io/name"]`,
///   single quotes too) or with its dots escaped (`metadata.labels.app\.kubernetes\.io/name`).
///
/// # Errors
/// Why the text is not a field path (empty, an unclosed bracket, an empty segment, a `~` in
/// a JSON Pointer that is not `~0` or `~1`).
pub fn field_pointer(text: &str) -> Result<String, String> {
    if text.starts_with('/') {
        // RFC 6901 §3: `~` is only ever `~0` or `~1`; anything else is not a pointer (and
        // would otherwise match nothing, read as "no change touched it").
        let mut rest = text;
        while let Some(i) = rest.find('~') {
            rest = &rest[i + 1..];
            if !(rest.starts_with('0') || rest.starts_with('1')) {
                return Err(format!(
                    "the JSON Pointer {} has a ~ that is not ~0 (for ~) or ~1 (for /); write it as /metadata/labels/app.kubernetes.io~1name",
                    crate::base::echo::quoted(text)
                ));
            }
        }
        return Ok(text.to_string());
    }
    let body = text.strip_prefix('.').unwrap_or(text);
    if body.is_empty() {
        return Err("the field path is empty; write it as .spec.replicas or /spec/replicas".into());
    }
    let mut tokens: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut chars = body.chars().peekable();
    // Whether the current segment was closed by a bracket (then a `.` or `[` must follow).
    let mut closed = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'.') => {
                cur.push('.');
                chars.next();
            }
            '.' => {
                if cur.is_empty() && !closed {
                    return Err(format!(
                        "the field path {text:?} has an empty segment; write it as .spec.replicas or /spec/replicas"
                    ));
                }
                if !closed {
                    tokens.push(std::mem::take(&mut cur));
                }
                closed = false;
            }
            '[' => {
                if !cur.is_empty() {
                    tokens.push(std::mem::take(&mut cur));
                }
                let mut inner = String::new();
                let mut ended = false;
                for c in chars.by_ref() {
                    if c == ']' {
                        ended = true;
                        break;
                    }
                    inner.push(c);
                }
                if !ended {
                    return Err(format!(
                        "the field path {text:?} has a [ without its ]; write a key with dots as [\"app.kubernetes.io/name\"]"
                    ));
                }
                let key = inner
                    .strip_prefix('"')
                    .and_then(|k| k.strip_suffix('"'))
                    .or_else(|| inner.strip_prefix('\'').and_then(|k| k.strip_suffix('\'')))
                    .unwrap_or(&inner);
                tokens.push(key.to_string());
                closed = true;
            }
            c => {
                if closed {
                    return Err(format!(
                        "the field path {text:?} needs a . after a ]; write it as .spec.containers[0].image"
                    ));
                }
                cur.push(c);
            }
        }
    }
    if !closed {
        if cur.is_empty() {
            return Err(format!(
                "the field path {text:?} ends with a dot; write it as .spec.replicas or /spec/replicas"
            ));
        }
        tokens.push(cur);
    }
    Ok(tokens.iter().map(|t| format!("/{}", escape(t))).collect())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::rules::diff::touches;

    #[test]
    fn touched_paths_come_from_the_journaled_patch() {
        let merge = json!({"spec": {"replicas": 4, "template": {"spec": {"containers": [{"name": "web", "image": "x"}]}}}, "metadata": {"labels": {"a~b/c": "1"}}});
        assert_eq!(
            touched_paths("merge", &merge),
            [
                "/metadata/labels/a~0b~1c",
                "/spec/replicas",
                "/spec/template/spec/containers"
            ]
        );
        let sm = json!({"spec": {"template": {"spec": {"$setElementOrder/containers": [{"name": "a"}], "containers": [{"name": "a", "image": "y"}]}}}});
        assert_eq!(touched_paths("strategic", &sm), ["/spec/template/spec"]);
        let ops = json!([{"op": "test", "path": "/spec/replicas", "value": 1}, {"op": "move", "from": "/spec/a", "path": "/spec/b"}]);
        assert_eq!(touched_paths("json", &ops), ["/spec/a", "/spec/b"]);
    }

    #[test]
    fn field_paths_read_as_pointers_in_both_forms() {
        for (text, pointer) in [
            ("/data/key", "/data/key"),
            (".data.key", "/data/key"),
            ("spec.replicas", "/spec/replicas"),
            (
                "spec.template.spec.containers[0].image",
                "/spec/template/spec/containers/0/image",
            ),
            (
                "metadata.labels[\"app.kubernetes.io/name\"]",
                "/metadata/labels/app.kubernetes.io~1name",
            ),
            (".metadata.labels['a.b'].x", "/metadata/labels/a.b/x"),
            (
                "metadata.labels.app\\.kubernetes\\.io/name",
                "/metadata/labels/app.kubernetes.io~1name",
            ),
        ] {
            assert_eq!(field_pointer(text).as_deref(), Ok(pointer), "{text}");
        }
        for bad in [
            "",
            ".",
            "spec..replicas",
            "spec.",
            "a[0",
            "a[0]b",
            "/~2",
            "/a~",
        ] {
            assert!(field_pointer(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_change_touches_the_field_its_parents_and_its_children() {
        let t = vec!["/data/a".to_string(), "/spec/replicas".to_string()];
        assert!(touches(&t, "/data/a"));
        assert!(touches(&t, "/data"), "a child changed");
        assert!(!touches(&t, "/data/ab"), "not a prefix of a token");
        assert!(!touches(&t, "/data/b"));
        assert!(touches(&["/data".to_string()], "/data/b"), "replaced whole");
        assert!(touches(&["".to_string()], "/data/b"), "the whole object");
    }
}
