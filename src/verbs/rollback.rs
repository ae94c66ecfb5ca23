//! `rollback ID`: restore the fields a journaled change touched, from its before-state.
//!
//! The JSON patch restores, from the entry's `before`, only the fields the journaled patch
//! touched (so a `--force` rollback leaves others' later changes alone), and is guarded
//! by a `test` of `metadata.resourceVersion` against the entry's `resourceVersionAfter`: if
//! someone changed the object since, the rollback is refused (exit 5) naming who, from
//! managedFields, unless `--force`. It is authorized and journaled like any patch.

use std::time::Instant;

use serde_json::{Value, json};

use crate::authz::Gate;
use crate::changelog::{self, Operation};
use crate::cli::{DryRun, PatchType, RollbackArgs};
use crate::exit::ExitStatus;
use crate::output::Printer;
use crate::settings::Settings;
use crate::verbs::VerbError;
use crate::verbs::patch::{Target, print_result, read_before, resolve, send};

/// The fields a journaled patch touched, as JSON pointers (pure): the `path` (and `from`)
/// of each JSON-patch operation; for merge and strategic patches, each leaf of the patch
/// object (a scalar, a list, or `null`), or the whole object at a level that carries a
/// strategic-merge directive (`$patch`, `$setElementOrder/…`).
pub fn touched_paths(patch_type: &str, patch: &Value) -> Vec<String> {
    fn walk(prefix: &str, v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Object(m) if !m.is_empty() && !m.keys().any(|k| k.starts_with('$')) => {
                for (k, child) in m {
                    walk(&format!("{prefix}/{}", k.replace('~', "~0").replace('/', "~1")), child, out);
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
        "metadata" => path.starts_with("/metadata/labels") || path.starts_with("/metadata/annotations"),
        "status" | "apiVersion" | "kind" | "" => false,
        "data" | "stringData" => !secret,
        _ => true,
    }
}

/// The rollback patch (pure): a `test` of the resourceVersion (unless `force`), then, for
/// each field the change touched, the operation that puts back its value from `before`
/// (`add`/`replace`, or `remove` when it did not exist). Fields the change did not touch —
/// including what others changed since — are left alone.
pub fn rollback_ops(current: &Value, before: &Value, touched: &[String], rv_after: Option<&str>, force: bool) -> Vec<Value> {
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
            (Some(b), Some(c)) if *b != c => apply(&mut doc, json!({"op": "replace", "path": path, "value": b}), &mut ops),
            (Some(b), None) => {
                // Create missing parent objects first (e.g. metadata.labels on an object without labels).
                let parts: Vec<&str> = path.split('/').collect();
                for i in 2..parts.len() {
                    let parent = parts[..i].join("/");
                    if doc.pointer(&parent).is_none() {
                        apply(&mut doc, json!({"op": "add", "path": parent, "value": {}}), &mut ops);
                    }
                }
                apply(&mut doc, json!({"op": "add", "path": path, "value": b}), &mut ops);
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
    let time = |m: &Value| m.get("time").and_then(Value::as_str).unwrap_or("").to_string();
    object
        .pointer("/metadata/managedFields")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|m| time(m)[..time(m).len().min(19)] >= *since)
        .max_by_key(|m| (time(m), m.get("manager").and_then(Value::as_str) != Some(ours)))
        .map(|m| {
            format!(
                "{} ({}) at {}",
                m.get("manager").and_then(Value::as_str).unwrap_or("?"),
                m.get("operation").and_then(Value::as_str).unwrap_or("?"),
                time(m)
            )
        })
        .unwrap_or_else(|| "a writer that managedFields does not record (such as a scale subresource update)".into())
}

/// Why a rollback is refused before any request.
#[derive(Debug, thiserror::Error)]
pub enum RollbackError {
    /// No entry has this id.
    #[error("no change-log entry {0}; see `kubectl myops changelog list`")]
    NoEntry(String),
    /// The entry cannot be rolled back (failed, dry run, no before-state, not a patch).
    #[error("entry {id} cannot be rolled back: {why}")]
    NotRestorable {
        /// The entry id.
        id: String,
        /// Why.
        why: String,
    },
    /// Someone changed the object since the entry.
    #[error("{object} changed since entry {id} (resourceVersion {then} → {now}), last by {writer}; re-check it, then use --force to restore anyway")]
    Changed {
        /// The object.
        object: String,
        /// The entry id.
        id: String,
        /// resourceVersion after the entry.
        then: String,
        /// resourceVersion now.
        now: String,
        /// The last writer from managedFields.
        writer: String,
    },
}

impl RollbackError {
    /// 4 for an unknown id, 2 for an entry that cannot be restored, 5 for a changed object.
    pub fn exit_status(&self) -> ExitStatus {
        match self {
            RollbackError::NoEntry(_) => ExitStatus::NotFound,
            RollbackError::NotRestorable { .. } => ExitStatus::Usage,
            RollbackError::Changed { .. } => ExitStatus::Conflict,
        }
    }
}

/// Runs `rollback`.
///
/// # Errors
/// [`RollbackError`] (4, 2, 5), gate denials (3), API errors.
pub async fn run(s: &Settings, args: &RollbackArgs, p: &mut Printer<'_>, resource_label: &mut Option<String>) -> Result<(), VerbError> {
    let started = Instant::now();
    let (entries, _) = changelog::read_all(&s.home).map_err(|e| VerbError::Io(e.to_string()))?;
    let entry = entries.into_iter().find(|e| e.id == args.id).ok_or_else(|| RollbackError::NoEntry(args.id.clone()))?;
    let refuse = |why: &str| RollbackError::NotRestorable { id: entry.id.clone(), why: why.into() };
    if !matches!(entry.operation, Operation::Patch | Operation::Rollback) {
        return Err(refuse("only patch and rollback entries can be rolled back (re-sync the CRD file instead)").into());
    }
    if entry.dry_run || entry.result != "success" {
        return Err(refuse("it changed nothing (a dry run or a failed attempt)").into());
    }
    let Some(before) = entry.before.clone() else {
        return Err(refuse("it has no before-state (reading the object was forbidden)").into());
    };
    // `Kind.version.group` resolves exactly the journaled type; a core kind alone resolves to core.
    let type_name = match entry.api_version.split_once('/') {
        Some((group, version)) => format!("{}.{version}.{group}", entry.kind),
        None => entry.kind.clone(),
    };
    let mut target: Target = resolve(s, &type_name, &entry.name, resource_label).await?;
    if target.t.namespaced {
        target.namespace = entry.namespace.clone();
    }
    let gate = Gate::new(&target.cluster);
    let user = gate.whoami().await;
    let dry = args.dry_run != DryRun::None;
    gate.check(&target.access("patch", None)).await?;
    let current = read_before(&target).await?.ok_or_else(|| refuse("the object cannot be read now (forbidden)"))?;
    let rv_now = current.pointer("/metadata/resourceVersion").and_then(Value::as_str).unwrap_or("").to_string();
    let rv_then = entry.resource_version_after.clone().unwrap_or_default();
    if !args.force && rv_now != rv_then {
        return Err(RollbackError::Changed { object: target.display(), id: entry.id.clone(), then: rv_then, now: rv_now, writer: last_writer(&current, &entry.timestamp, &args.field_manager) }.into());
    }
    let touched = touched_paths(entry.patch_type.as_deref().unwrap_or(""), entry.patch.as_ref().unwrap_or(&Value::Null));
    let ops = rollback_ops(&current, &before, &touched, entry.resource_version_after.as_deref(), args.force);
    if ops.iter().all(|o| o["op"] == "test") {
        p.out(&format!("{}: nothing to roll back (the fields entry {} changed already hold their earlier values)\n", target.display(), entry.id))?;
        return Ok(());
    }
    let body = Value::Array(ops);
    let journal = |after: Option<&Value>, result: String| {
        let e = target.entry(s, &user, Operation::Rollback, "json", &body, dry, Some(&current), after, result, started);
        changelog::append(&s.home, &e).map_err(|e| VerbError::Io(e.to_string()))
    };
    match send(&target, PatchType::Json, &body, args.dry_run, None, &args.field_manager, Some(&current)).await {
        Ok(after) => {
            journal(Some(&after), "success".into())?;
            print_result(p, &target, &format!("rolled back ({})", entry.id), Some(&current), &after, args.dry_run, true, None)
        }
        Err(e) => {
            journal(None, e.to_string())?;
            // A failed resourceVersion test means someone wrote between our read and the patch.
            let raced = matches!(&e, VerbError::Api(crate::cluster::ApiError::Server { code: 422 | 409, message, .. }) if message.contains("test"));
            if raced {
                let now = read_before(&target).await.ok().flatten().unwrap_or(Value::Null);
                return Err(RollbackError::Changed {
                    object: target.display(),
                    id: entry.id.clone(),
                    then: entry.resource_version_after.clone().unwrap_or_default(),
                    now: now.pointer("/metadata/resourceVersion").and_then(Value::as_str).unwrap_or("?").to_string(),
                    writer: last_writer(&now, &entry.timestamp, &args.field_manager),
                }
                .into());
            }
            Err(e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn touched_paths_come_from_the_journaled_patch() {
        let merge = json!({"spec": {"replicas": 4, "template": {"spec": {"containers": [{"name": "web", "image": "x"}]}}}, "metadata": {"labels": {"a~b/c": "1"}}});
        assert_eq!(touched_paths("merge", &merge), ["/metadata/labels/a~0b~1c", "/spec/replicas", "/spec/template/spec/containers"]);
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
        let touched = touched_paths("merge", &json!({"spec": {"replicas": 4, "paused": true}, "metadata": {"labels": {"tier": "x"}}}));
        let ops = rollback_ops(&current, &before, &touched, Some("11"), false);
        assert_eq!(ops[0], json!({"op": "test", "path": "/metadata/resourceVersion", "value": "11"}));
        let mut restored = current.clone();
        json_patch::patch(&mut restored, &serde_json::from_value::<json_patch::Patch>(Value::Array(ops[1..].to_vec())).unwrap()).unwrap();
        assert_eq!(restored["spec"], before["spec"]);
        assert_eq!(restored["metadata"]["labels"], json!({}));
        assert_eq!(restored["metadata"]["annotations"], json!({"owner": "b"}), "others' changes stay");
        assert_eq!(restored["status"], current["status"], "status is not rolled back");
        assert!(rollback_ops(&current, &before, &touched, Some("11"), true).iter().all(|o| o["op"] != "test"));
    }

    #[test]
    fn a_label_added_to_an_object_without_labels_creates_the_map() {
        let before = json!({"kind": "ConfigMap", "metadata": {"labels": {"a": "1"}}});
        let current = json!({"kind": "ConfigMap", "metadata": {}});
        let ops = rollback_ops(&current, &before, &["/metadata/labels/a".to_string()], None, true);
        assert_eq!(ops, vec![json!({"op": "add", "path": "/metadata/labels", "value": {}}), json!({"op": "add", "path": "/metadata/labels/a", "value": "1"})]);
    }

    #[test]
    fn secret_data_is_never_restored_from_the_redacted_log() {
        let before = json!({"kind": "Secret", "metadata": {"labels": {"a": "1"}}, "data": {"k": "<redacted>"}});
        let current = json!({"kind": "Secret", "metadata": {"labels": {"a": "2"}}, "data": {"k": "c2VjcmV0"}});
        let touched = vec!["/data/k".to_string(), "/metadata/labels/a".to_string()];
        let ops = rollback_ops(&current, &before, &touched, None, true);
        assert_eq!(ops, vec![json!({"op": "replace", "path": "/metadata/labels/a", "value": "1"})]);
    }

    #[test]
    fn last_writer_names_the_newest_managed_fields_entry() {
        let o = json!({"metadata": {"managedFields": [
            {"manager": "kubectl-myops", "operation": "Update", "time": "2026-11-30T08:00:00Z"},
            {"manager": "kubectl-edit", "operation": "Update", "time": "2026-11-30T09:00:00Z"}]}});
        assert_eq!(last_writer(&o, "2026-11-30T07:00:00.123Z", "kubectl-myops"), "kubectl-edit (Update) at 2026-11-30T09:00:00Z");
        assert!(last_writer(&o, "2026-11-30T09:30:00Z", "kubectl-myops").starts_with("a writer that managedFields does not record"));
    }
}
