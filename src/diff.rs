//! A structured diff of two objects by field path (`spec.replicas: 2 → 3`), computed with
//! the json-patch crate's RFC 6902 diff (not by hand) and rendered for people.
//!
//! Server bookkeeping (`metadata.resourceVersion`, `managedFields`, `generation`) is left
//! out: it changes on every write and says nothing about the change itself.

use json_patch::PatchOperation;
use serde_json::Value;

/// Paths (JSON pointers) that are bookkeeping, not content.
const IGNORED: &[&str] = &[
    "/metadata/resourceVersion",
    "/metadata/managedFields",
    "/metadata/generation",
];

/// The RFC 6902 operations that turn `before` into `after`, bookkeeping left out.
pub fn operations(before: &Value, after: &Value) -> Vec<PatchOperation> {
    json_patch::diff(before, after)
        .0
        .into_iter()
        .filter(|op| {
            let p = path_of(op);
            !IGNORED
                .iter()
                .any(|i| p == *i || p.starts_with(&format!("{i}/")))
        })
        .collect()
}

fn path_of(op: &PatchOperation) -> &str {
    match op {
        PatchOperation::Add(o) => o.path.as_str(),
        PatchOperation::Remove(o) => o.path.as_str(),
        PatchOperation::Replace(o) => o.path.as_str(),
        PatchOperation::Move(o) => o.path.as_str(),
        PatchOperation::Copy(o) => o.path.as_str(),
        PatchOperation::Test(o) => o.path.as_str(),
    }
}

/// One line per changed field: `spec.replicas: 2 → 3`, `+ metadata.labels.tier: "web"`,
/// `- spec.paused (was true)`. Empty when nothing but bookkeeping changed.
pub fn render(before: &Value, after: &Value) -> Vec<String> {
    operations(before, after)
        .iter()
        .map(|op| match op {
            PatchOperation::Replace(o) => {
                let old = before
                    .pointer(o.path.as_str())
                    .map(short)
                    .unwrap_or_default();
                format!(
                    "{}: {old} → {}",
                    dotted(o.path.as_str(), before),
                    short(&o.value)
                )
            }
            PatchOperation::Add(o) => {
                format!("+ {}: {}", dotted(o.path.as_str(), after), short(&o.value))
            }
            PatchOperation::Remove(o) => {
                let old = before
                    .pointer(o.path.as_str())
                    .map(short)
                    .unwrap_or_default();
                format!("- {} (was {old})", dotted(o.path.as_str(), before))
            }
            other => other.to_string(),
        })
        .collect()
}

/// `/spec/containers/0/image` → `spec.containers[0].image` (array indexes by looking at `doc`).
pub fn dotted(pointer: &str, doc: &Value) -> String {
    let mut out = String::new();
    let mut cur = Some(doc);
    for raw in pointer.split('/').skip(1) {
        let token = raw.replace("~1", "/").replace("~0", "~");
        match cur {
            Some(Value::Array(a)) => {
                out.push_str(&format!("[{token}]"));
                cur = token.parse::<usize>().ok().and_then(|i| a.get(i));
            }
            other => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(&token);
                cur = other.and_then(|v| v.get(&token));
            }
        }
    }
    out
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 80 {
        format!("{}…", s.chars().take(79).collect::<String>())
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn changes_read_as_field_paths_and_bookkeeping_is_left_out() {
        let before = json!({"metadata": {"resourceVersion": "1", "labels": {"app": "web"}},
            "spec": {"replicas": 2, "paused": true, "template": {"spec": {"containers": [{"image": "web:1"}]}}}});
        let after = json!({"metadata": {"resourceVersion": "2", "labels": {"app": "web", "tier": "front"}},
            "spec": {"replicas": 3, "template": {"spec": {"containers": [{"image": "web:2"}]}}}});
        let mut lines = render(&before, &after);
        lines.sort();
        assert_eq!(
            lines,
            [
                "+ metadata.labels.tier: \"front\"",
                "- spec.paused (was true)",
                "spec.replicas: 2 → 3",
                "spec.template.spec.containers[0].image: \"web:1\" → \"web:2\"",
            ]
        );
        assert!(render(&before, &before).is_empty());
    }

    #[test]
    fn escaped_pointer_tokens_are_unescaped() {
        let doc = json!({"metadata": {"annotations": {"example.com/owner": "a"}}});
        assert_eq!(
            dotted("/metadata/annotations/example.com~1owner", &doc),
            "metadata.annotations.example.com/owner"
        );
    }
}
