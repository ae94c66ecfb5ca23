//! A structured diff of two objects by field path (`spec.replicas: 2 → 3`), computed with
//! the json-patch crate's RFC 6902 diff (not by hand) and rendered for people.
//!
//! Server bookkeeping (`metadata.resourceVersion`, `managedFields`, `generation`) is left
//! out: it changes on every write and says nothing about the change itself.
//!
//! A Secret's values are never shown, but their changes are ([`render_for`]): the values are
//! masked pairwise with kubectl diff's tokens before the diff is computed
//! ([`mask_secret_pair`]) — `***` where a value is the same on both sides (or only on one),
//! `*** (before)` and `*** (after)` where it differs. Masking each side alone would show
//! `***` = `***` — a changed password reported as no change. The change log's pairwise
//! markers (`redact_after` of the change log) mask the same way.

use json_patch::PatchOperation;
use serde_json::Value;

/// Paths (JSON pointers) that are bookkeeping, not content.
const IGNORED: &[&str] = &[
    "/metadata/resourceVersion",
    "/metadata/managedFields",
    "/metadata/generation",
];

/// The changes that turn `before` into `after` as RFC 6902 operations, bookkeeping left
/// out. Each operation's path names the field it changes: an `add` or `replace` a field of
/// `after`, a `remove` a field of `before` — so these are a list of changed fields, not a
/// patch to apply in order.
///
/// The json-patch crate's diff writes the items cut from the end of a list as a sequence
/// of removes that are each applied to the result of the one before (`[a, b, c]` → `[a]`
/// is `remove /1`, `remove /1`); read as field paths, that names `b` twice and never `c`,
/// so a field policy on `c` would not see it go, and `changelog diff` and `drift` would
/// show `b` twice. `tail_removes_by_index` rewrites them to the items' own indexes
/// (`remove /1`, `remove /2`).
pub fn operations(before: &Value, after: &Value) -> Vec<PatchOperation> {
    let mut ops = json_patch::diff(before, after).0;
    tail_removes_by_index(before, &mut ops);
    ops.into_iter()
        .filter(|op| {
            let p = path_of(op);
            !IGNORED
                .iter()
                .any(|i| p == *i || p.starts_with(&format!("{i}/")))
        })
        .collect()
}

/// Rewrites the removes of list items in `ops` (the crate's diff of `before`) from
/// sequential-patch paths to the removed items' indexes in `before`: the diff cuts a list's
/// tail only, with every remove at the same path (the new length), so the k-th remove
/// under one list is the item at that index plus k.
fn tail_removes_by_index(before: &Value, ops: &mut [PatchOperation]) {
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for op in ops.iter_mut() {
        let PatchOperation::Remove(r) = op else {
            continue;
        };
        let path = r.path.as_str().to_string();
        let Some((parent, last)) = path.rsplit_once('/') else {
            continue;
        };
        let (Some(Value::Array(_)), Ok(index)) = (before.pointer(parent), last.parse::<usize>())
        else {
            continue;
        };
        let k = seen.entry(path.clone()).or_insert(0);
        if *k > 0
            && let Ok(p) =
                json_patch::jsonptr::PointerBuf::parse(format!("{parent}/{}", index + *k))
        {
            r.path = p;
        }
        *k += 1;
    }
}

/// The JSON pointer an operation is about (`/spec/replicas`).
pub fn path_of(op: &PatchOperation) -> &str {
    match op {
        PatchOperation::Add(o) => o.path.as_str(),
        PatchOperation::Remove(o) => o.path.as_str(),
        PatchOperation::Replace(o) => o.path.as_str(),
        PatchOperation::Move(o) => o.path.as_str(),
        PatchOperation::Copy(o) => o.path.as_str(),
        PatchOperation::Test(o) => o.path.as_str(),
    }
}

/// Whether a change that touched `touched` (JSON pointers) touched `field` (pure): the same
/// field, a field under it (`why .data` lists a change of `.data.key`), or a field above it
/// (a change that replaced `.data` whole touched `.data.key` too).
pub fn touches(touched: &[String], field: &str) -> bool {
    touched.iter().any(|p| {
        p == field
            || field.starts_with(&format!("{p}/"))
            || p.starts_with(&format!("{field}/"))
            || p.is_empty()
    })
}

/// One line per changed field: `spec.replicas: 2 → 3`, `+ metadata.labels.tier: "web"`,
/// `- spec.paused (was true)`. Empty when nothing but bookkeeping changed.
pub fn render(before: &Value, after: &Value) -> Vec<String> {
    render_ops(before, after, |_| true)
}

/// [`render_for`] limited to the changes at the field `pointer` (a JSON pointer), under it,
/// or of a field above it that holds it (`changelog why`).
pub fn render_field(kind: &str, before: &Value, after: &Value, pointer: &str) -> Vec<String> {
    let keep = |path: &str| touches(&[path.to_string()], pointer);
    if is_secret(kind, before, after) {
        let (b, a) = mask_secret_pair(before, after);
        render_ops(&b, &a, keep)
    } else {
        render_ops(before, after, keep)
    }
}

/// [`render`] for an object of `kind`: a Secret's values (`data`, `stringData` and the
/// `last-applied-configuration` annotation, which holds them too) are masked pairwise first
/// ([`mask_secret_pair`]): `data.password: "*** (before)" → "*** (after)"`,
/// `+ data.token: "***"`, `- data.gone (was "***")` — which keys changed still shows. Other
/// kinds render as [`render`].
pub fn render_for(kind: &str, before: &Value, after: &Value) -> Vec<String> {
    if is_secret(kind, before, after) {
        let (b, a) = mask_secret_pair(before, after);
        render(&b, &a)
    } else {
        render(before, after)
    }
}

/// Whether the pair is about a Secret (`kind`, or either object's `kind` field).
pub fn is_secret(kind: &str, before: &Value, after: &Value) -> bool {
    kind == "Secret"
        || before.get("kind").and_then(Value::as_str) == Some("Secret")
        || after.get("kind").and_then(Value::as_str) == Some("Secret")
}

/// kubectl diff's mask for a value the same on both sides, or on one side only.
pub const MASK: &str = "***";
/// kubectl diff's mask for the before side of a value that changed.
pub const MASK_BEFORE: &str = "*** (before)";
/// kubectl diff's mask for the after side of a value that changed.
pub const MASK_AFTER: &str = "*** (after)";

/// A Secret pair with its values masked the way `kubectl diff` does (k8s.io/kubectl
/// pkg/cmd/diff `Masker`, tokens `***`, `*** (before)`, `*** (after)`), pure: a key on both
/// sides with different values becomes `*** (before)` / `*** (after)`, every other value
/// `***`. kubectl masks `data` only; here `stringData` and the
/// `kubectl.kubernetes.io/last-applied-configuration` annotation (it holds the values too)
/// are masked by the same rule.
pub fn mask_secret_pair(before: &Value, after: &Value) -> (Value, Value) {
    let (mut b, mut a) = (before.clone(), after.clone());
    let annotation = format!(
        "/metadata/annotations/{}",
        crate::rules::reconciler::LAST_APPLIED.replace('/', "~1")
    );
    for map in ["/data", "/stringData"] {
        let keys: Vec<String> = [&b, &a]
            .iter()
            .filter_map(|o| o.pointer(map).and_then(Value::as_object))
            .flat_map(|m| m.keys().cloned())
            .collect();
        for k in keys {
            let path = format!("{map}/{}", k.replace('~', "~0").replace('/', "~1"));
            mask_one(&mut b, &mut a, &path);
        }
    }
    mask_one(&mut b, &mut a, &annotation);
    (b, a)
}

/// Masks the value at `path` on both sides by kubectl's rule.
fn mask_one(b: &mut Value, a: &mut Value, path: &str) {
    let differ = match (b.pointer(path), a.pointer(path)) {
        (Some(x), Some(y)) => x != y,
        _ => false,
    };
    let (tb, ta) = if differ {
        (MASK_BEFORE, MASK_AFTER)
    } else {
        (MASK, MASK)
    };
    for (doc, token) in [(b, tb), (a, ta)] {
        if let Some(v) = doc.pointer_mut(path) {
            *v = Value::String(token.into());
        }
    }
}

fn render_ops(before: &Value, after: &Value, keep: impl Fn(&str) -> bool) -> Vec<String> {
    changes(before, after)
        .into_iter()
        .filter(|(path, _)| keep(path))
        .map(|(_, line)| line)
        .collect()
}

/// Each changed field as its JSON pointer and its [`render`] line (pure), bookkeeping left
/// out: `("/spec/replicas", "spec.replicas: 2 → 3")`. `drift` keys its report by the pointer.
pub fn changes(before: &Value, after: &Value) -> Vec<(String, String)> {
    operations(before, after)
        .iter()
        .map(|op| (path_of(op).to_string(), line_of(op, before, after)))
        .collect()
}

/// The [`render`] line of one operation that turns `before` into `after`.
fn line_of(op: &PatchOperation, before: &Value, after: &Value) -> String {
    match op {
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
        other => other.to_string(),
    }
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

/// A value as JSON for one line: at most 80 characters (longer ones end with `…`).
pub fn short(v: &Value) -> String {
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
                "+ data.token: \"***\"",
                "- data.gone (was \"***\")",
                "data.password: \"*** (before)\" → \"*** (after)\"",
                "metadata.labels.a: \"1\" → \"2\"",
            ]
        );
        // The change log's pairwise markers read the same way.
        let journaled = render_for(
            "Secret",
            &json!({"kind": "Secret", "data": {"same": "<redacted>", "pw": "<redacted>"}}),
            // The change log's marker of a changed value (its `REDACTED_CHANGED`).
            &json!({"kind": "Secret", "data": {"same": "<redacted>", "pw": "<redacted> (changed)"}}),
        );
        assert_eq!(journaled, ["data.pw: \"*** (before)\" → \"*** (after)\""]);
        let applied = render_for(
            "Secret",
            &json!({"kind": "Secret", "metadata": {"annotations": {"kubectl.kubernetes.io/last-applied-configuration": "{\"data\":{\"pw\":\"b2xk\"}}"}}}),
            &json!({"kind": "Secret", "metadata": {"annotations": {"kubectl.kubernetes.io/last-applied-configuration": "{\"data\":{\"pw\":\"bmV3\"}}"}}}),
        );
        assert_eq!(
            applied,
            [
                "metadata.annotations.kubectl.kubernetes.io/last-applied-configuration: \"*** (before)\" → \"*** (after)\""
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
    fn items_cut_from_the_end_of_a_list_are_each_named_not_the_first_twice() {
        // The crate's diff names [a, b, c] → [a] `remove /1` twice (a patch applied in
        // order); read as fields, that would show b twice and c never.
        let before = json!({"spec": {"containers": [{"name": "a"}, {"name": "b"}, {"name": "c"}]}});
        let after = json!({"spec": {"containers": [{"name": "a"}]}});
        assert_eq!(
            render(&before, &after),
            [
                "- spec.containers[1] (was {\"name\":\"b\"})",
                "- spec.containers[2] (was {\"name\":\"c\"})",
            ]
        );
        // Nested lists, and a list that only grows or changes in place, keep their paths.
        let nested = json!({"a": [[1, 2, 3], [4, 5]], "b": {"1": 1, "2": 2}});
        let cut = json!({"a": [[1], [4]], "b": {}});
        let paths: Vec<String> = operations(&nested, &cut)
            .iter()
            .map(|op| path_of(op).to_string())
            .collect();
        assert_eq!(paths, ["/a/0/1", "/a/0/2", "/a/1/1", "/b/1", "/b/2"]);
        let grown: Vec<String> = operations(&cut, &nested)
            .iter()
            .map(|op| path_of(op).to_string())
            .collect();
        assert_eq!(grown, ["/a/0/1", "/a/0/2", "/a/1/1", "/b/1", "/b/2"]);
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
