//! A structured diff of two objects by field path (`spec.replicas: 2 → 3`), computed with
//! the json-patch crate's RFC 6902 diff (not by hand) and rendered for people.
//!
//! Server bookkeeping (`metadata.resourceVersion`, `managedFields`, `generation`) is left
//! out: it changes on every write and says nothing about the change itself.
//!
//! A Secret's values are never shown, but their changes are ([`render_for`]): the diff is
//! computed on the real objects and the values are hidden when rendered. Diffing two
//! redacted copies instead would show `<redacted>` = `<redacted>` — a changed password
//! reported as no change (issue 10).

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
    render_ops(before, after, |_| false)
}

/// [`render`] for an object of `kind`: for a Secret, the values of `data`, `stringData` and
/// the `last-applied-configuration` annotation are hidden (`data.password: changed (value
/// hidden)`, `+ data.token (value hidden)`), while which keys changed still shows. Other
/// kinds render as [`render`].
pub fn render_for(kind: &str, before: &Value, after: &Value) -> Vec<String> {
    let secret = kind == "Secret"
        || before.get("kind").and_then(Value::as_str) == Some("Secret")
        || after.get("kind").and_then(Value::as_str) == Some("Secret");
    if secret {
        render_ops(before, after, secret_content)
    } else {
        render(before, after)
    }
}

/// Whether a pointer into a Secret reaches (or contains) a value the change log and the
/// output never show.
fn secret_content(path: &str) -> bool {
    path.is_empty()
        || path == "/data"
        || path.starts_with("/data/")
        || path == "/stringData"
        || path.starts_with("/stringData/")
        || path == "/metadata"
        || path == "/metadata/annotations"
        || path
            .starts_with("/metadata/annotations/kubectl.kubernetes.io~1last-applied-configuration")
}

fn render_ops(before: &Value, after: &Value, hidden: impl Fn(&str) -> bool) -> Vec<String> {
    operations(before, after)
        .iter()
        .map(|op| match op {
            PatchOperation::Replace(o) if hidden(o.path.as_str()) => {
                format!(
                    "{}: changed (value hidden)",
                    dotted(o.path.as_str(), before)
                )
            }
            PatchOperation::Add(o) if hidden(o.path.as_str()) => {
                format!("+ {} (value hidden)", dotted(o.path.as_str(), after))
            }
            PatchOperation::Remove(o) if hidden(o.path.as_str()) => {
                format!("- {} (value hidden)", dotted(o.path.as_str(), before))
            }
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
            // diff() emits only add, remove and replace; a move or copy would carry no value.
            other if hidden(path_of(other)) => {
                format!("{} changed (value hidden)", dotted(path_of(other), before))
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
    fn a_changed_secret_value_shows_as_changed_without_its_value() {
        let before = json!({"kind": "Secret", "metadata": {"labels": {"a": "1"}},
            "data": {"password": "b2xkLXB3", "gone": "eA=="}});
        let after = json!({"kind": "Secret", "metadata": {"labels": {"a": "2"}},
            "data": {"password": "bmV3LXB3", "token": "dG9r"}});
        let mut lines = render_for("Secret", &before, &after);
        lines.sort();
        assert_eq!(
            lines,
            [
                "+ data.token (value hidden)",
                "- data.gone (value hidden)",
                "data.password: changed (value hidden)",
                "metadata.labels.a: \"1\" → \"2\"",
            ]
        );
        let added = render_for("Secret", &json!({"kind": "Secret"}), &after);
        assert!(
            added
                .iter()
                .all(|l| !l.contains("bmV3") && !l.contains("dG9r")),
            "{added:?}"
        );
        let cm = json!({"kind": "ConfigMap", "data": {"k": "v"}});
        assert_eq!(
            render_for(
                "ConfigMap",
                &cm,
                &json!({"kind": "ConfigMap", "data": {"k": "w"}})
            ),
            ["data.k: \"v\" → \"w\""]
        );
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
