//! Reading journaled changes field by field (issue 15 part 3), pure: which fields a journaled
//! patch touched ([`touched_paths`], shared by `rollback` and `changelog why`), how a user
//! names a field ([`field_pointer`]) and whether a change touched it ([`touches`]).
//!
//! Below `verbs/` so that `rollback` and `changelog` share it without importing each other;
//! [`live`] is its one I/O edge, the guarded read of a journaled object (`changelog diff`,
//! `drift`).

pub mod live;

use std::collections::HashMap;

use serde_json::Value;

use crate::changelog::{Entry, Operation};

/// The fields a journaled patch touched ([`crate::guard::change::touched_paths`]: the
/// mutation model owns it, a patch's inverse restores them).
pub use crate::guard::change::paths::{escape, touched_paths};

/// The fields entry `e` touched ([`touched_paths`] of its journaled patch).
pub fn touched_by(e: &Entry) -> Vec<String> {
    touched_paths(
        e.patch_type.as_deref().unwrap_or(""),
        e.patch.as_ref().unwrap_or(&Value::Null),
    )
}

/// Whether a change that touched `touched` touched `field` ([`crate::diff::touches`]; it
/// lives with the structured diff, which filters by it).
pub use crate::diff::touches;

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
                    crate::echo::quoted(text)
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

/// The entries whose records the hash chain contradicts, with the first reason for each
/// (pure). A record of the id that does not match its `hash` was edited after it was
/// written; one without `hash` although records before it have one was inserted, or its
/// hash stripped to pass as older than the chain. When a record's `prev` is not the hash of
/// the valid record before it, both are contradicted: the earlier one may have been edited
/// with its hash recomputed, or the later one inserted. (`changelog.head` is not consulted:
/// records removed from the end contradict no remaining entry, and whoever recomputes a hash
/// can rewrite the head too.) `rollback` refuses such an entry before anything is sent: its
/// before-state is what would be written to the cluster, and an edited one must not be
/// (issue 15; found by helper H rolling an edited before-state into a ConfigMap). Breaks
/// that touch no record of the entry — a line torn by a crash, records removed from the end
/// — are `changelog verify`'s to report and do not block it. `files` is
/// [`crate::changelog::read_files`]'s, oldest first.
pub fn contradicted(files: &[(String, Vec<u8>)]) -> HashMap<String, String> {
    use crate::changelog::{chain, judge, lines};
    fn flag(out: &mut HashMap<String, String>, id: &str, why: String) {
        out.entry(id.to_string()).or_insert(why);
    }
    let mut out: HashMap<String, String> = HashMap::new();
    // The last valid hashed record: its hash (the next one's `prev`), id and place.
    let mut last: Option<(String, String, String)> = None;
    for (name, bytes) in files {
        for (line, raw, unterminated) in lines(bytes) {
            let Ok(entry) = judge(raw, unterminated) else {
                continue; // the writer chains over a bad line, so does this
            };
            let Ok(map) = serde_json::from_slice::<serde_json::Map<String, Value>>(raw) else {
                continue;
            };
            let at = format!("{name} line {line}");
            let Some(hash) = map.get("hash").and_then(Value::as_str).map(str::to_string) else {
                if last.is_some() {
                    let why = format!(
                        "its record at {at} has no hash although records before it do: it was inserted or its hash removed"
                    );
                    flag(&mut out, &entry.id, why);
                }
                continue;
            };
            if chain::hash_of(&map) != hash {
                let why = format!(
                    "its record at {at} does not match its hash: it was edited after it was written"
                );
                flag(&mut out, &entry.id, why);
            }
            if let Some((prev, prev_id, prev_at)) = &last
                && map.get("prev").and_then(Value::as_str) != Some(prev.as_str())
            {
                let why = format!(
                    "its record at {at} does not chain to the one at {prev_at}: it was inserted or moved, or that one edited"
                );
                flag(&mut out, &entry.id, why);
                let why = format!(
                    "the record after its record at {prev_at} does not chain to it: it was edited (its hash recomputed), or a record inserted after it"
                );
                flag(&mut out, prev_id, why);
            }
            last = Some((hash, entry.id, at));
        }
    }
    out
}

/// What the live object says about an intent without an outcome record (issue 17,
/// [`reconcile`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The patch is in effect: every field it touched holds the patch's value, which differs
    /// from the before-state. The sentence says what was compared.
    Applied(String),
    /// The patch is not in effect: the object was not written since the intent's read, or
    /// every field the patch touched still holds its before-state.
    NotApplied(String),
    /// The live object cannot tell (the sentence says why); nothing is recorded.
    Undecidable(String),
}

/// Decides from `live` (the object read now) whether the patch of `entry` — an intent whose
/// outcome is unknown, with its before-state and patch — was applied (pure). Never guesses:
///
/// - a different uid (deleted and created again), no before-state, or only Secret data
///   touched (its values are never journaled): [`Verdict::Undecidable`];
/// - the resourceVersion is the before-state's: nobody wrote since the intent's read, so
///   the patch was not applied ([`Verdict::NotApplied`]) — a patch the server accepted
///   always moves it unless it changed nothing, and then nothing is in effect either;
/// - a CRD apply or prune (or a record without a merge, JSON or strategic patch) whose
///   resourceVersion moved: undecidable — the intent holds only the file a CRD came from,
///   not the fields the apply sets;
/// - otherwise the touched fields decide ([`touched_paths`]): all hold the values the patch
///   gives them (computed locally: RFC 7386 for merge, RFC 6902 for json, the patch's scalar
///   leaves for strategic — lists of a strategic merge patch are not computed) and these
///   differ from the before-state: applied; all hold the before-state and the patch would
///   change some: not applied (someone else wrote other fields); anything else — a patch
///   that changes nothing it touches, fields holding neither value — is undecidable.
pub fn reconcile(entry: &Entry, live: &Value) -> Verdict {
    let undecidable = |why: &str| Verdict::Undecidable(why.to_string());
    let Some(before) = &entry.before else {
        return undecidable(
            "its intent holds no before-state, so there is nothing to compare the live object with",
        );
    };
    let uid = |v: &Value| {
        v.pointer("/metadata/uid")
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    let rv = |v: &Value| {
        v.pointer("/metadata/resourceVersion")
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    if let (Some(then), Some(now)) = (entry.uid.clone().or_else(|| uid(before)), uid(live))
        && then != now
    {
        return Verdict::Undecidable(format!(
            "the object there now is another one (uid {now}, the intent's was {then})"
        ));
    }
    if let (Some(then), Some(now)) = (rv(before), rv(live))
        && then == now
    {
        return Verdict::NotApplied(format!(
            "the live object still has the resourceVersion {now} read before the change, so nothing was written since"
        ));
    }
    let patch_type = entry.patch_type.as_deref().unwrap_or("");
    let patch = match (&entry.patch, entry.operation, patch_type) {
        (Some(p), Operation::Patch | Operation::Rollback, "merge" | "json" | "strategic") => p,
        _ => {
            return Verdict::Undecidable(format!(
                "its resourceVersion moved, and a {} journals no patch whose fields could be compared (a CRD apply records only the file it came from)",
                match entry.operation {
                    Operation::CrdApply => "CRD apply",
                    Operation::CrdPrune => "CRD prune",
                    Operation::Patch | Operation::Rollback => "change without a patch",
                }
            ));
        }
    };
    let secret = entry.kind == "Secret";
    let paths: Vec<String> = touched_paths(patch_type, patch)
        .into_iter()
        .filter(|p| {
            !(secret && (p.starts_with("/data") || p.starts_with("/stringData")))
                && !p.starts_with("/metadata/resourceVersion")
        })
        .collect();
    if paths.is_empty() {
        return undecidable(
            "the fields the patch touched cannot be compared (Secret values are never journaled) and the resourceVersion moved",
        );
    }
    // The value each touched field would hold after the patch: Some(None) = absent,
    // None = not computable here.
    let expected: Vec<Option<Option<Value>>> = match patch_type {
        "merge" | "json" => {
            let mut doc = before.clone();
            let applied = if patch_type == "merge" {
                json_patch::merge(&mut doc, patch);
                true
            } else {
                serde_json::from_value::<json_patch::Patch>(patch.clone())
                    .ok()
                    .is_some_and(|ops| json_patch::patch(&mut doc, &ops).is_ok())
            };
            paths
                .iter()
                .map(|p| applied.then(|| doc.pointer(p).cloned()))
                .collect()
        }
        _ => paths
            .iter()
            .map(|p| match patch.pointer(p) {
                Some(Value::Null) => Some(None),
                Some(v) if !v.is_array() && !v.is_object() => Some(Some(v.clone())),
                _ => None,
            })
            .collect(),
    };
    let at_before = paths.iter().all(|p| live.pointer(p) == before.pointer(p));
    let known: Vec<(&String, &Option<Value>)> = paths
        .iter()
        .zip(&expected)
        .filter_map(|(p, e)| e.as_ref().map(|e| (p, e)))
        .collect();
    let at_after = !known.is_empty() && known.iter().all(|(p, e)| live.pointer(p) == e.as_ref());
    let changes = known.iter().any(|(p, e)| before.pointer(p) != e.as_ref());
    let fields = paths
        .iter()
        .map(|p| crate::diff::dotted(p, live))
        .collect::<Vec<_>>()
        .join(", ");
    let now = rv(live).unwrap_or_else(|| "?".into());
    match (at_after && changes, at_before && changes) {
        (true, false) => Verdict::Applied(format!(
            "the live object (resourceVersion {now}) holds the patch's values in {fields}"
        )),
        (false, true) => Verdict::NotApplied(format!(
            "the live object (resourceVersion {now}) still holds the before-state in {fields}, which the patch would change"
        )),
        _ if !changes && !known.is_empty() => undecidable(
            "the patch would leave the fields it touches as they were, so the live object cannot show whether it was applied",
        ),
        _ => Verdict::Undecidable(format!(
            "the live object (resourceVersion {now}) holds neither the before-state nor the patch's values in {fields} (someone else changed them, or the patch cannot be computed here)"
        )),
    }
}

/// The TYPE that resolves exactly the journaled type of `e` (`Kind.version.group`, or the
/// kind alone for the core group).
pub fn type_name(e: &Entry) -> String {
    match e.api_version.split_once('/') {
        Some((group, version)) => format!("{}.{version}.{group}", e.kind),
        None => e.kind.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// An intent (outcome unknown) of a merge patch `patch` on a ConfigMap `before`.
    fn intent(patch_type: &str, patch: Value, before: Value) -> Entry {
        let e: Entry = serde_json::from_value(json!({
            "id": "1", "timestamp": "2026-12-02T00:00:00Z", "plugin": "myops", "user": "admin",
            "context": null, "server": "https://x", "apiVersion": "v1", "kind": "ConfigMap",
            "namespace": "ns", "name": "web", "uid": "u1", "operation": "patch",
            "patchType": patch_type, "patch": patch, "dryRun": false, "before": before,
            "resourceVersionAfter": null, "result": "pending", "durationSeconds": 0.0
        }))
        .unwrap();
        assert!(e.outcome_unknown());
        e
    }

    fn cm(rv: &str, data: Value) -> Value {
        json!({"kind": "ConfigMap", "metadata": {"name": "web", "uid": "u1", "resourceVersion": rv}, "data": data})
    }

    #[test]
    fn an_unknown_outcome_is_decided_by_the_live_object_and_never_guessed() {
        let before = cm("10", json!({"k": "v0", "other": "x"}));
        let e = intent("merge", json!({"data": {"k": "v1"}}), before.clone());
        // Nothing written since the intent's read.
        assert!(
            matches!(reconcile(&e, &before), Verdict::NotApplied(w) if w.contains("resourceVersion 10"))
        );
        // The patch's value, resourceVersion moved.
        assert_eq!(
            reconcile(&e, &cm("11", json!({"k": "v1", "other": "x"}))),
            Verdict::Applied(
                "the live object (resourceVersion 11) holds the patch's values in data.k".into()
            )
        );
        // Someone else wrote another field; ours still holds the before-state.
        assert!(
            matches!(reconcile(&e, &cm("12", json!({"k": "v0", "other": "y"}))), Verdict::NotApplied(w) if w.contains("still holds the before-state in data.k"))
        );
        // Someone else wrote our field: neither value.
        assert!(
            matches!(reconcile(&e, &cm("13", json!({"k": "theirs"}))), Verdict::Undecidable(w) if w.contains("holds neither"))
        );
        // Deleted and created again.
        let mut other = cm("14", json!({"k": "v1"}));
        other["metadata"]["uid"] = json!("u2");
        assert!(
            matches!(reconcile(&e, &other), Verdict::Undecidable(w) if w.contains("another one (uid u2"))
        );
        // A patch that changes nothing it touches cannot be told apart.
        let noop = intent("merge", json!({"data": {"k": "v0"}}), before.clone());
        assert!(
            matches!(reconcile(&noop, &cm("15", json!({"k": "v0"}))), Verdict::Undecidable(w) if w.contains("leave the fields"))
        );
        // A removal (merge null, json remove) reads as applied when the key is gone.
        let del = intent("merge", json!({"data": {"other": null}}), before.clone());
        assert!(matches!(
            reconcile(&del, &cm("16", json!({"k": "v0"}))),
            Verdict::Applied(_)
        ));
        let json_del = intent(
            "json",
            json!([{"op": "remove", "path": "/data/other"}]),
            before.clone(),
        );
        assert!(matches!(
            reconcile(&json_del, &cm("16", json!({"k": "v0"}))),
            Verdict::Applied(_)
        ));
        assert!(matches!(
            reconcile(
                &json_del,
                &cm("17", json!({"k": "v0", "other": "x", "n": "1"}))
            ),
            Verdict::NotApplied(_)
        ));
        // Strategic: scalar leaves are compared; a list alone cannot be computed here.
        let sm = intent("strategic", json!({"data": {"k": "v1"}}), before.clone());
        assert!(matches!(
            reconcile(&sm, &cm("18", json!({"k": "v1"}))),
            Verdict::Applied(_)
        ));
        let list = intent(
            "strategic",
            json!({"spec": {"containers": [{"name": "a"}]}}),
            before.clone(),
        );
        assert!(matches!(
            reconcile(&list, &cm("19", json!({}))),
            Verdict::Undecidable(_)
        ));
        // A CRD apply journals `appliedFrom`, not the fields it sets: its note is never taken
        // for a field that should be on the object (it read as "not applied").
        let mut crd = intent(
            "apply",
            json!({"appliedFrom": "crds/w.yaml:1"}),
            before.clone(),
        );
        crd.operation = Operation::CrdApply;
        assert!(
            matches!(reconcile(&crd, &cm("20", json!({"k": "v0"}))), Verdict::Undecidable(w) if w.contains("CRD apply")),
        );
        assert!(matches!(reconcile(&crd, &before), Verdict::NotApplied(_)));
        // No before-state: nothing to compare.
        let mut blind = e.clone();
        blind.before = None;
        assert!(matches!(
            reconcile(&blind, &before),
            Verdict::Undecidable(_)
        ));
    }

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
    fn records_the_chain_contradicts_are_named_by_entry() {
        use crate::changelog::chain::{GENESIS, seal};
        let record = |id: &str, color: &str| {
            json!({"id": id, "session": "s", "timestamp": "2026-12-02T08:00:00Z",
                "plugin": "myops", "user": "admin", "context": "admin", "server": "https://h",
                "apiVersion": "v1", "kind": "ConfigMap", "namespace": "ns", "name": "c",
                "uid": null, "operation": "patch", "patchType": "merge",
                "patch": {"data": {"color": "green"}}, "dryRun": false,
                "before": {"data": {"color": color}}, "resourceVersionAfter": "7",
                "result": "success", "durationSeconds": 0.0})
        };
        let mut prev = GENESIS.to_string();
        let mut lines = Vec::new();
        for id in ["a", "b", "c"] {
            let (line, hash) = seal(record(id, "blue"), &prev).unwrap();
            lines.push(String::from_utf8(line).unwrap());
            prev = hash;
        }
        let log = |lines: &[String]| {
            vec![(
                "changelog.jsonl".to_string(),
                (lines.join("\n") + "\n").into_bytes(),
            )]
        };
        assert!(
            crate::changelog::judge(lines[0].as_bytes(), false).is_ok(),
            "a valid record"
        );
        assert!(contradicted(&log(&lines)).is_empty(), "an intact chain");
        // A torn line between records contradicts no entry.
        let mut torn = lines.clone();
        torn.insert(1, "{\"id\":\"x".into());
        assert!(contradicted(&log(&torn)).is_empty());
        // b edited: b does not match its hash.
        let mut edited = lines.clone();
        edited[1] = edited[1].replace("\"blue\"", "\"evil\"");
        let found = contradicted(&log(&edited));
        assert_eq!(found.keys().collect::<Vec<_>>(), ["b"]);
        assert!(found["b"].contains("line 2 does not match its hash"));
        // b edited and resealed: c no longer chains to it, so both are named.
        let mut resealed = lines.clone();
        let prev_a: Value = serde_json::from_str(&lines[0]).unwrap();
        resealed[1] = String::from_utf8(
            seal(record("b", "evil"), prev_a["hash"].as_str().unwrap())
                .unwrap()
                .0,
        )
        .unwrap();
        let mut ids: Vec<String> = contradicted(&log(&resealed)).into_keys().collect();
        ids.sort();
        assert_eq!(ids, ["b", "c"]);
        // b's hash stripped to pass as older than the chain.
        let mut stripped = lines.clone();
        let mut b: serde_json::Map<String, Value> = serde_json::from_str(&lines[1]).unwrap();
        b.remove("hash");
        b.remove("prev");
        stripped[1] = Value::Object(b).to_string();
        assert!(
            contradicted(&log(&stripped))["b"]
                .contains("has no hash although records before it do")
        );
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
