//! Deciding an unknown outcome from the live object ([`reconcile`], pure): whether the patch
//! of an intent without an outcome record is in effect, never guessing.

use serde_json::Value;

use super::fields::touched_paths;
use crate::changelog::{Entry, Operation};

/// What the live object says about an intent without an outcome record ([`reconcile`]).
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
    /// A delete that the server accepted, whose object finalizers still hold: the same uid,
    /// with `metadata.deletionTimestamp` set (recorded as [`crate::changelog::DELETING`]).
    Deleting(String),
}

/// Decides a delete intent without an outcome from what is there now (pure): `live` is the
/// object read under the journaled name, `None` when the server answers 404.
///
/// The DELETE carries the read's uid and resourceVersion as preconditions, so: nothing there,
/// or another object (another uid) — the journaled one is gone, the delete was applied; the
/// same uid with a `deletionTimestamp` — applied, finalizers still hold it
/// ([`Verdict::Deleting`]); the same uid without one — the server never deleted it (a
/// delete it accepted always sets the timestamp or removes the object), not applied.
pub fn reconcile_delete(entry: &Entry, live: Option<&Value>) -> Verdict {
    let then = entry
        .uid
        .clone()
        .or_else(|| entry.before.as_ref().and_then(uid_of));
    let Some(live) = live else {
        return Verdict::Applied("the object no longer exists".into());
    };
    let now = uid_of(live);
    match (&then, &now) {
        (Some(t), Some(n)) if t != n => {
            return Verdict::Applied(format!(
                "the object there now is another one (uid {n}, the deleted one's was {t})"
            ));
        }
        (None, _) | (_, None) => {
            return Verdict::Undecidable(
                "the intent or the live object has no uid to tell whether it is the one deleted"
                    .into(),
            );
        }
        _ => {}
    }
    if let Some(ts) = live
        .pointer("/metadata/deletionTimestamp")
        .and_then(Value::as_str)
    {
        let held: Vec<&str> = live
            .pointer("/metadata/finalizers")
            .and_then(Value::as_array)
            .map(|f| f.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        return Verdict::Deleting(format!(
            "the object is being deleted since {ts}, held by the finalizers {}",
            held.join(", ")
        ));
    }
    Verdict::NotApplied(
        "the object is still there, with the same uid and no deletionTimestamp".into(),
    )
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
    if entry.operation == Operation::Delete {
        return reconcile_delete(entry, Some(live));
    }
    let Some(before) = &entry.before else {
        return Verdict::Undecidable(
            "its intent holds no before-state, so there is nothing to compare the live object with"
                .into(),
        );
    };
    if let Some(verdict) = by_identity(entry, before, live) {
        return verdict;
    }
    let (patch_type, patch) = match comparable_patch(entry) {
        Ok(p) => p,
        Err(verdict) => return verdict,
    };
    let paths = comparable_paths(entry, patch_type, patch);
    if paths.is_empty() {
        return Verdict::Undecidable(
            "the fields the patch touched cannot be compared (Secret values are never journaled) and the resourceVersion moved"
                .into(),
        );
    }
    let expected = expected_values(patch_type, patch, before, &paths);
    by_fields(before, live, &paths, &expected)
}

/// An object's `metadata.uid`.
fn uid_of(v: &Value) -> Option<String> {
    v.pointer("/metadata/uid")
        .and_then(Value::as_str)
        .map(str::to_string)
}

/// An object's `metadata.resourceVersion`.
fn rv_of(v: &Value) -> Option<String> {
    v.pointer("/metadata/resourceVersion")
        .and_then(Value::as_str)
        .map(str::to_string)
}

/// The verdict the object's identity and resourceVersion give before any field is compared:
/// another object under the name is undecidable; an unmoved resourceVersion means nothing
/// was written since the intent's read. `None` when the fields must decide.
fn by_identity(entry: &Entry, before: &Value, live: &Value) -> Option<Verdict> {
    if let (Some(then), Some(now)) = (entry.uid.clone().or_else(|| uid_of(before)), uid_of(live))
        && then != now
    {
        return Some(Verdict::Undecidable(format!(
            "the object there now is another one (uid {now}, the intent's was {then})"
        )));
    }
    if let (Some(then), Some(now)) = (rv_of(before), rv_of(live))
        && then == now
    {
        return Some(Verdict::NotApplied(format!(
            "the live object still has the resourceVersion {now} read before the change, so nothing was written since"
        )));
    }
    None
}

/// The type and body of the journaled patch when its fields can be compared (a merge, JSON
/// or strategic patch of a `patch` or `rollback`); otherwise the undecidable verdict.
fn comparable_patch(entry: &Entry) -> Result<(&str, &Value), Verdict> {
    let patch_type = entry.patch_type.as_deref().unwrap_or("");
    match (&entry.patch, entry.operation, patch_type) {
        (
            Some(p),
            Operation::Patch
            | Operation::Rollback
            | Operation::Scale
            | Operation::Label
            | Operation::Annotate
            | Operation::Edit
            | Operation::Rollout,
            "merge" | "json" | "strategic",
        ) => Ok((patch_type, p)),
        _ => Err(Verdict::Undecidable(format!(
            "its resourceVersion moved, and a {} journals no patch whose fields could be compared (a CRD apply records only the file it came from)",
            match entry.operation {
                Operation::CrdApply => "CRD apply",
                Operation::CrdPrune => "CRD prune",
                Operation::Delete => "delete",
                Operation::Undelete => "undelete",
                Operation::Apply => "server-side apply",
                _ => "change without a patch",
            }
        ))),
    }
}

/// The fields the patch touched that the live object can show ([`touched_paths`]): not a
/// Secret's values (never journaled) and not the resourceVersion.
fn comparable_paths(entry: &Entry, patch_type: &str, patch: &Value) -> Vec<String> {
    let secret = entry.kind == "Secret";
    touched_paths(patch_type, patch)
        .into_iter()
        .filter(|p| {
            !(secret && (p.starts_with("/data") || p.starts_with("/stringData")))
                && !p.starts_with("/metadata/resourceVersion")
        })
        .collect()
}

/// The value each of `paths` would hold after the patch, computed locally (RFC 7386 for
/// merge, RFC 6902 for json, the patch's scalar leaves for strategic): `Some(None)` for an
/// absent field, `None` where it cannot be computed here (a strategic list, a JSON patch
/// that does not apply).
fn expected_values(
    patch_type: &str,
    patch: &Value,
    before: &Value,
    paths: &[String],
) -> Vec<Option<Option<Value>>> {
    match patch_type {
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
    }
}

/// The verdict the touched fields give: all at the `expected` values, which differ from the
/// before-state, is applied; all at the before-state, which the patch would change, is not
/// applied; anything else is undecidable.
fn by_fields(
    before: &Value,
    live: &Value,
    paths: &[String],
    expected: &[Option<Option<Value>>],
) -> Verdict {
    let at_before = paths.iter().all(|p| live.pointer(p) == before.pointer(p));
    let known: Vec<(&String, &Option<Value>)> = paths
        .iter()
        .zip(expected)
        .filter_map(|(p, e)| e.as_ref().map(|e| (p, e)))
        .collect();
    let at_after = !known.is_empty() && known.iter().all(|(p, e)| live.pointer(p) == e.as_ref());
    let changes = known.iter().any(|(p, e)| before.pointer(p) != e.as_ref());
    let fields = paths
        .iter()
        .map(|p| crate::rules::diff::dotted(p, live))
        .collect::<Vec<_>>()
        .join(", ");
    let now = rv_of(live).unwrap_or_else(|| "?".into());
    match (at_after && changes, at_before && changes) {
        (true, false) => Verdict::Applied(format!(
            "the live object (resourceVersion {now}) holds the patch's values in {fields}"
        )),
        (false, true) => Verdict::NotApplied(format!(
            "the live object (resourceVersion {now}) still holds the before-state in {fields}, which the patch would change"
        )),
        _ if !changes && !known.is_empty() => Verdict::Undecidable(
            "the patch would leave the fields it touches as they were, so the live object cannot show whether it was applied"
                .into(),
        ),
        _ => Verdict::Undecidable(format!(
            "the live object (resourceVersion {now}) holds neither the before-state nor the patch's values in {fields} (someone else changed them, or the patch cannot be computed here)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

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
    fn a_delete_is_decided_by_the_uid_and_the_deletion_timestamp() {
        let before = json!({"metadata": {"uid": "u1", "resourceVersion": "5"}});
        let e = Entry {
            operation: Operation::Delete,
            uid: Some("u1".into()),
            ..intent(
                "delete",
                json!({"preconditions": {"uid": "u1"}}),
                before.clone(),
            )
        };
        assert!(matches!(reconcile_delete(&e, None), Verdict::Applied(_)));
        let other = json!({"metadata": {"uid": "u2", "resourceVersion": "9"}});
        assert!(matches!(reconcile(&e, &other), Verdict::Applied(_)));
        let going = json!({"metadata": {"uid": "u1", "resourceVersion": "6",
            "deletionTimestamp": "2026-12-03T00:00:00Z", "finalizers": ["x.io/f"]}});
        match reconcile(&e, &going) {
            Verdict::Deleting(why) => assert!(why.contains("x.io/f"), "{why}"),
            v => panic!("{v:?}"),
        }
        assert!(matches!(reconcile(&e, &before), Verdict::NotApplied(_)));
        let written = json!({"metadata": {"uid": "u1", "resourceVersion": "7"}});
        assert!(matches!(reconcile(&e, &written), Verdict::NotApplied(_)));
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
}
