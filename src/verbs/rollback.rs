//! `rollback ID`: restore the fields a journaled change touched, from its before-state.
//!
//! The JSON patch restores, from the entry's `before`, only the fields the journaled patch
//! touched (so a `--force` rollback leaves others' later changes alone), and is guarded
//! by a `test` of `metadata.resourceVersion` against the entry's `resourceVersionAfter`: if
//! someone changed the object since, the rollback is refused (exit 5) naming who, from
//! managedFields, unless `--force`. It is authorized and journaled like any patch, by the
//! guarded path ([`crate::guard`]); an entry whose outcome is unknown is judged by the live
//! object, never assumed to have succeeded.

use serde_json::{Value, json};

use crate::changelog::{self, Entry, Operation};
use crate::cli::{PatchType, RollbackArgs};
use crate::guard::{Mode, ObjectRef, PatchRequest, Session};
use crate::output::Printer;
use crate::output::objects::print_result;
use crate::settings::Settings;
use crate::verbs::{Outcome, RollbackError, VerbError};

/// The fields a journaled patch touched, as JSON pointers (pure): the `path` (and `from`)
/// of each JSON-patch operation; for merge and strategic patches, each leaf of the patch
/// object (a scalar, a list, or `null`), or the whole object at a level that carries a
/// strategic-merge directive (`$patch`, `$setElementOrder/…`).
pub fn touched_paths(patch_type: &str, patch: &Value) -> Vec<String> {
    fn walk(prefix: &str, v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Object(m) if !m.is_empty() && !m.keys().any(|k| k.starts_with('$')) => {
                for (k, child) in m {
                    walk(
                        &format!("{prefix}/{}", k.replace('~', "~0").replace('/', "~1")),
                        child,
                        out,
                    );
                }
            }
            _ if !prefix.is_empty() => out.push(prefix.to_string()),
            _ => {}
        }
    }
    let mut out = Vec::new();
    match (patch_type, patch) {
        ("json", Value::Array(ops)) => {
            for op in ops.iter().filter(|o| o["op"] != "test") {
                for key in ["path", "from"] {
                    if let Some(p) = op.get(key).and_then(Value::as_str) {
                        out.push(p.to_string());
                    }
                }
            }
        }
        (_, v) => walk("", v, &mut out),
    }
    out.sort();
    out.dedup();
    out
}

/// Whether a rollback may write `path`: not server-owned metadata (only labels and
/// annotations), not `status` (it belongs to controllers), and — for a Secret — not
/// `data`/`stringData`, whose values the change log never holds.
fn restorable(path: &str, secret: bool) -> bool {
    let top = path.split('/').nth(1).unwrap_or("");
    match top {
        "metadata" => {
            path.starts_with("/metadata/labels") || path.starts_with("/metadata/annotations")
        }
        "status" | "apiVersion" | "kind" | "" => false,
        "data" | "stringData" => !secret,
        _ => true,
    }
}

/// The rollback patch (pure): a `test` of the resourceVersion (unless `force`), then, for
/// each field the change touched, the operation that puts back its value from `before`
/// (`add`/`replace`, or `remove` when it did not exist). Fields the change did not touch —
/// including what others changed since — are left alone.
pub fn rollback_ops(
    current: &Value,
    before: &Value,
    touched: &[String],
    rv_after: Option<&str>,
    force: bool,
) -> Vec<Value> {
    let mut ops: Vec<Value> = Vec::new();
    if !force && let Some(rv) = rv_after {
        ops.push(json!({"op": "test", "path": "/metadata/resourceVersion", "value": rv}));
    }
    let secret = before.get("kind").and_then(Value::as_str) == Some("Secret");
    let mut doc = current.clone();
    let apply = |doc: &mut Value, op: Value, ops: &mut Vec<Value>| {
        if let Ok(p) = serde_json::from_value::<json_patch::PatchOperation>(op.clone())
            && json_patch::patch(doc, &[p]).is_ok()
        {
            ops.push(op);
        }
    };
    for path in touched.iter().filter(|p| restorable(p, secret)) {
        match (before.pointer(path), doc.pointer(path).cloned()) {
            (Some(b), Some(c)) if *b != c => apply(
                &mut doc,
                json!({"op": "replace", "path": path, "value": b}),
                &mut ops,
            ),
            (Some(b), None) => {
                // Create missing parent objects first (e.g. metadata.labels on an object without labels).
                let parts: Vec<&str> = path.split('/').collect();
                for i in 2..parts.len() {
                    let parent = parts[..i].join("/");
                    if doc.pointer(&parent).is_none() {
                        apply(
                            &mut doc,
                            json!({"op": "add", "path": parent, "value": {}}),
                            &mut ops,
                        );
                    }
                }
                apply(
                    &mut doc,
                    json!({"op": "add", "path": path, "value": b}),
                    &mut ops,
                );
            }
            (None, Some(_)) => apply(&mut doc, json!({"op": "remove", "path": path}), &mut ops),
            _ => {}
        }
    }
    ops
}

/// Who changed the object since `since` (an RFC 3339 time), from managedFields: the newest
/// entry at or after it (`manager (operation) at time`), preferring another manager than ours
/// on a tie. Writes through some subresources (e.g. `scale`) leave no managedFields entry;
/// then it says so rather than guess.
pub fn last_writer(object: &Value, since: &str, ours: &str) -> String {
    let since = &since[..since.len().min(19)];
    let time = |m: &Value| {
        m.get("time")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    object
        .pointer("/metadata/managedFields")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|m| time(m)[..time(m).len().min(19)] >= *since)
        .max_by_key(|m| {
            (
                time(m),
                m.get("manager").and_then(Value::as_str) != Some(ours),
            )
        })
        .map(|m| {
            format!(
                "{} ({}) at {}",
                m.get("manager").and_then(Value::as_str).unwrap_or("?"),
                m.get("operation").and_then(Value::as_str).unwrap_or("?"),
                time(m)
            )
        })
        .unwrap_or_else(|| {
            "a writer that managedFields does not record (such as a scale subresource update)"
                .into()
        })
}

/// Whether every restorable field the change touched still holds its before value in
/// `current` (pure): then the change is not (or no longer) in effect.
pub fn holds_before(current: &Value, before: &Value, touched: &[String]) -> bool {
    let secret = before.get("kind").and_then(Value::as_str) == Some("Secret");
    touched
        .iter()
        .filter(|p| restorable(p, secret))
        .all(|p| current.pointer(p) == before.pointer(p))
}

/// Runs `rollback` through the guarded path (journal proven writable first, boundary and
/// SelfSubjectAccessReview for `patch`, the JSON patch journaled write-ahead as `rollback`).
/// An entry whose outcome is unknown (an intent without an outcome record) is never assumed
/// to have succeeded: the live object decides.
///
/// Errors in the [`Outcome`]: [`RollbackError`] (4, 2, 5), refusals (3), API errors.
pub async fn run(s: &Settings, args: &RollbackArgs, p: &mut Printer<'_>) -> Outcome {
    let entry = match find_entry(s, &args.id) {
        Ok(e) => e,
        Err(e) => return Outcome::early(e),
    };
    let session = match Session::open(s, p, Mode::Mutate).await {
        Ok(x) => x,
        Err(e) => return Outcome::early(e),
    };
    // `Kind.version.group` resolves exactly the journaled type; a core kind alone resolves to core.
    let type_name = match entry.api_version.split_once('/') {
        Some((group, version)) => format!("{}.{version}.{group}", entry.kind),
        None => entry.kind.clone(),
    };
    let obj = match session
        .object(&type_name, &entry.name, entry.namespace.clone())
        .await
    {
        Ok(o) => o,
        Err(e) => return Outcome::early(e),
    };
    let result = roll_back(&session, &obj, &entry, args, p).await;
    Outcome::on(obj.t.group_resource(), result)
}

/// The last record of entry `id`, if it can be rolled back at all (pure apart from reading the log).
fn find_entry(s: &Settings, id: &str) -> Result<Entry, VerbError> {
    let (entries, _) = changelog::read_all(&s.home).map_err(|e| VerbError::Io(e.to_string()))?;
    let entry = changelog::latest(entries)
        .into_iter()
        .find(|e| e.id == id)
        .ok_or_else(|| RollbackError::NoEntry(id.to_string()))?;
    let refuse = |why: &str| RollbackError::NotRestorable {
        id: entry.id.clone(),
        why: why.into(),
    };
    if !matches!(entry.operation, Operation::Patch | Operation::Rollback) {
        return Err(refuse(
            "only patch and rollback entries can be rolled back (re-sync the CRD file instead)",
        )
        .into());
    }
    if entry.dry_run || !(entry.result == "success" || entry.outcome_unknown()) {
        return Err(refuse("it changed nothing (a dry run or a failed attempt)").into());
    }
    if entry.before.is_none() {
        return Err(refuse("it has no before-state (reading the object was forbidden)").into());
    }
    Ok(entry)
}

async fn roll_back(
    session: &Session<'_>,
    obj: &ObjectRef,
    entry: &Entry,
    args: &RollbackArgs,
    p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    let before = entry.before.clone().unwrap_or(Value::Null);
    let touched = touched_paths(
        entry.patch_type.as_deref().unwrap_or(""),
        entry.patch.as_ref().unwrap_or(&Value::Null),
    );
    let changed = |current: &Value, writer_since: &str| RollbackError::Changed {
        object: obj.display(),
        id: entry.id.clone(),
        then: entry.resource_version_after.clone().unwrap_or_default(),
        now: current
            .pointer("/metadata/resourceVersion")
            .and_then(Value::as_str)
            .unwrap_or("?")
            .to_string(),
        writer: last_writer(current, writer_since, &args.field_manager),
    };
    // The request is built before it is authorized, so a refusal journals exactly it.
    let placeholder = Value::Array(Vec::new());
    let mut req = PatchRequest {
        operation: Operation::Rollback,
        patch_type: PatchType::Json,
        body: &placeholder,
        dry_run: args.dry_run,
        subresource: None,
        field_manager: &args.field_manager,
    };
    let grant = session
        .authorize_change(obj, None, req.intent(obj, None))
        .await?;
    let current = session
        .read(&grant, obj)
        .await?
        .ok_or_else(|| RollbackError::NotRestorable {
            id: entry.id.clone(),
            why: "the object cannot be read now (forbidden)".into(),
        })?;
    // An intent without an outcome: the request may or may not have been applied. The live
    // object decides; nothing is restored on a guess.
    let mut rv_test = entry.resource_version_after.as_deref();
    if entry.outcome_unknown() {
        if holds_before(&current, &before, &touched) {
            p.out(&format!("{}: nothing to roll back (entry {} has no outcome record, and the fields it would change still hold their earlier values)\n", obj.display(), entry.id))?;
            return Ok(());
        }
        if !args.force {
            return Err(RollbackError::OutcomeUnknown {
                object: obj.display(),
                id: entry.id.clone(),
            }
            .into());
        }
        rv_test = None;
    } else {
        let rv_now = current
            .pointer("/metadata/resourceVersion")
            .and_then(Value::as_str)
            .unwrap_or("");
        if !args.force && Some(rv_now) != rv_test {
            return Err(changed(&current, &entry.timestamp).into());
        }
    }
    let ops = rollback_ops(&current, &before, &touched, rv_test, args.force);
    if ops.iter().all(|o| o["op"] == "test") {
        p.out(&format!("{}: nothing to roll back (the fields entry {} changed already hold their earlier values)\n", obj.display(), entry.id))?;
        return Ok(());
    }
    let body = Value::Array(ops);
    req.body = &body;
    match session.patch(&grant, obj, &req, Some(&current)).await {
        Ok(after) => {
            print_result(
                p,
                &obj.t,
                &obj.display(),
                &format!("rolled back ({})", entry.id),
                Some(&current),
                &after,
                args.dry_run,
                true,
                None,
            )?;
            Ok(())
        }
        Err(e) => {
            // A failed resourceVersion test means someone wrote between our read and the patch.
            if rv_test.is_some()
                && let Ok(Some(now)) = session.read(&grant, obj).await
                && now.pointer("/metadata/resourceVersion")
                    != current.pointer("/metadata/resourceVersion")
            {
                return Err(changed(&now, &entry.timestamp).into());
            }
            Err(e.into())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn rollback_ops_restore_only_the_touched_fields_guarded_by_the_resource_version() {
        let before = json!({"kind": "Deployment", "metadata": {"name": "web", "resourceVersion": "10"},
            "spec": {"replicas": 2}, "status": {"replicas": 2}});
        // The change set replicas 4, paused true and a label; someone else later added an annotation.
        let current = json!({"kind": "Deployment", "metadata": {"name": "web", "resourceVersion": "12", "labels": {"tier": "x"}, "annotations": {"owner": "b"}},
            "spec": {"replicas": 4, "paused": true}, "status": {"replicas": 4}});
        let touched = touched_paths(
            "merge",
            &json!({"spec": {"replicas": 4, "paused": true}, "metadata": {"labels": {"tier": "x"}}}),
        );
        let ops = rollback_ops(&current, &before, &touched, Some("11"), false);
        assert_eq!(
            ops[0],
            json!({"op": "test", "path": "/metadata/resourceVersion", "value": "11"})
        );
        let mut restored = current.clone();
        json_patch::patch(
            &mut restored,
            &serde_json::from_value::<json_patch::Patch>(Value::Array(ops[1..].to_vec())).unwrap(),
        )
        .unwrap();
        assert_eq!(restored["spec"], before["spec"]);
        assert_eq!(restored["metadata"]["labels"], json!({}));
        assert_eq!(
            restored["metadata"]["annotations"],
            json!({"owner": "b"}),
            "others' changes stay"
        );
        assert_eq!(
            restored["status"], current["status"],
            "status is not rolled back"
        );
        assert!(
            rollback_ops(&current, &before, &touched, Some("11"), true)
                .iter()
                .all(|o| o["op"] != "test")
        );
    }

    #[test]
    fn a_label_added_to_an_object_without_labels_creates_the_map() {
        let before = json!({"kind": "ConfigMap", "metadata": {"labels": {"a": "1"}}});
        let current = json!({"kind": "ConfigMap", "metadata": {}});
        let ops = rollback_ops(
            &current,
            &before,
            &["/metadata/labels/a".to_string()],
            None,
            true,
        );
        assert_eq!(
            ops,
            vec![
                json!({"op": "add", "path": "/metadata/labels", "value": {}}),
                json!({"op": "add", "path": "/metadata/labels/a", "value": "1"})
            ]
        );
    }

    #[test]
    fn secret_data_is_never_restored_from_the_redacted_log() {
        let before = json!({"kind": "Secret", "metadata": {"labels": {"a": "1"}}, "data": {"k": "<redacted>"}});
        let current = json!({"kind": "Secret", "metadata": {"labels": {"a": "2"}}, "data": {"k": "c2VjcmV0"}});
        let touched = vec!["/data/k".to_string(), "/metadata/labels/a".to_string()];
        let ops = rollback_ops(&current, &before, &touched, None, true);
        assert_eq!(
            ops,
            vec![json!({"op": "replace", "path": "/metadata/labels/a", "value": "1"})]
        );
    }

    #[test]
    fn last_writer_names_the_newest_managed_fields_entry() {
        let o = json!({"metadata": {"managedFields": [
            {"manager": "kubectl-myops", "operation": "Update", "time": "2026-11-30T08:00:00Z"},
            {"manager": "kubectl-edit", "operation": "Update", "time": "2026-11-30T09:00:00Z"}]}});
        assert_eq!(
            last_writer(&o, "2026-11-30T07:00:00.123Z", "kubectl-myops"),
            "kubectl-edit (Update) at 2026-11-30T09:00:00Z"
        );
        assert!(
            last_writer(&o, "2026-11-30T09:30:00Z", "kubectl-myops")
                .starts_with("a writer that managedFields does not record")
        );
    }
}
