//! `rollback ID`: restore the fields a journaled change touched, from its before-state.
//!
//! The JSON patch is built from the difference between the object now and the entry's
//! `before` (labels, annotations and everything outside `metadata`/`status`), and is guarded
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

/// The content of an object that a rollback restores (pure): `metadata.labels`,
/// `metadata.annotations` and every top-level field but `metadata` and `status`
/// (status belongs to controllers; the rest of metadata to the server). For a Secret,
/// `data`/`stringData` are left out: the change log never holds their values.
pub fn content(object: &Value) -> Value {
    let mut out = serde_json::Map::new();
    let secret = object.get("kind").and_then(Value::as_str) == Some("Secret");
    if let Some(o) = object.as_object() {
        for (k, v) in o {
            let skip = matches!(k.as_str(), "metadata" | "status" | "apiVersion" | "kind")
                || (secret && matches!(k.as_str(), "data" | "stringData"));
            if !skip {
                out.insert(k.clone(), v.clone());
            }
        }
    }
    let mut meta = serde_json::Map::new();
    for k in ["labels", "annotations"] {
        if let Some(v) = object.pointer(&format!("/metadata/{k}")) {
            meta.insert(k.into(), v.clone());
        }
    }
    out.insert("metadata".into(), Value::Object(meta));
    Value::Object(out)
}

/// The rollback patch (pure): a `test` of the resourceVersion (unless `force`) followed by
/// the RFC 6902 operations that turn the current content into the before content. Empty
/// operations (apart from the test) mean there is nothing to roll back.
pub fn rollback_ops(current: &Value, before: &Value, rv_after: Option<&str>, force: bool) -> Vec<Value> {
    let mut ops: Vec<Value> = Vec::new();
    if !force && let Some(rv) = rv_after {
        ops.push(json!({"op": "test", "path": "/metadata/resourceVersion", "value": rv}));
    }
    let (now, then) = (content(current), content(before));
    // Missing maps in the current object must exist before keys can be added below them.
    for k in ["labels", "annotations"] {
        if now.pointer(&format!("/metadata/{k}")).is_none() && then.pointer(&format!("/metadata/{k}")).is_some() {
            ops.push(json!({"op": "add", "path": format!("/metadata/{k}"), "value": {}}));
        }
    }
    let mut base = now.clone();
    for op in &ops {
        if op["op"] == "add" {
            let _ = json_patch::patch(&mut base, &[serde_json::from_value(op.clone()).expect("built above")]);
        }
    }
    for op in json_patch::diff(&base, &then).0 {
        ops.push(serde_json::to_value(op).unwrap_or(Value::Null));
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
    let ops = rollback_ops(&current, &before, entry.resource_version_after.as_deref(), args.force);
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
    fn rollback_ops_restore_spec_and_labels_guarded_by_the_resource_version() {
        let before = json!({"kind": "Deployment", "metadata": {"name": "web", "resourceVersion": "10", "labels": {"app": "web"}},
            "spec": {"replicas": 2, "paused": true}, "status": {"replicas": 2}});
        let current = json!({"kind": "Deployment", "metadata": {"name": "web", "resourceVersion": "11", "labels": {"app": "web", "tier": "x"}},
            "spec": {"replicas": 5}, "status": {"replicas": 5}});
        let ops = rollback_ops(&current, &before, Some("11"), false);
        assert_eq!(ops[0], json!({"op": "test", "path": "/metadata/resourceVersion", "value": "11"}));
        let mut restored = current.clone();
        json_patch::patch(&mut restored, &serde_json::from_value::<json_patch::Patch>(Value::Array(ops.clone())).unwrap()).unwrap();
        assert_eq!(restored["spec"], before["spec"]);
        assert_eq!(restored["metadata"]["labels"], before["metadata"]["labels"]);
        assert_eq!(restored["status"], current["status"], "status is not rolled back");
        let forced = rollback_ops(&current, &before, Some("11"), true);
        assert!(forced.iter().all(|o| o["op"] != "test"));
    }

    #[test]
    fn secret_data_is_never_restored_from_the_redacted_log() {
        let before = json!({"kind": "Secret", "metadata": {"labels": {"a": "1"}}, "data": {"k": "<redacted>"}});
        let current = json!({"kind": "Secret", "metadata": {"labels": {"a": "2"}}, "data": {"k": "c2VjcmV0"}});
        let ops = rollback_ops(&current, &before, None, true);
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
