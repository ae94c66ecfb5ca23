//! The inverse of a journaled change (pure), computed from its record alone — what
//! `rollback ID` runs:
//! - a patch (or a rollback's restoring patch) is undone by putting back, from the
//!   before-state, the fields it touched ([`Inverse::Restore`]);
//! - a delete (a CRD prune, a rollback that deleted) by creating the before-state again
//!   ([`Inverse::Create`]);
//! - a create (a rollback that re-created) by a delete conditional on the created object's
//!   uid, else its resourceVersion ([`Inverse::Delete`]);
//! - a CRD apply that created the CRD by a delete conditional on the resourceVersion after
//!   it; one that changed an existing CRD by restoring its `/spec`, labels and annotations;
//! - an `apply` that created the object by a delete conditional on the created uid and the
//!   resourceVersion after it; one that changed an existing object by restoring exactly the
//!   fields that differ between its journaled before- and after-state
//!   ([`applied_changes`]), as a patch's inverse restores the fields the patch touched.
//!
//! An inverse that cannot be exact is refused here, before anything is sent, saying why: the
//! change log never stores Secret values; a value it stored masked; no before-state; a dry
//! run or a failed attempt; a record without a patch or without the created object's
//! identity.

use serde_json::Value;

use super::restore::{listed, masked};
use super::{CREATE, DELETE, snapshot, touched_paths};
use crate::changelog::{self, Entry, Operation};

/// The fields a CRD apply's inverse restores on a CRD that existed before it: what a CRD
/// file defines (the server owns the rest of the metadata, controllers the status).
pub const APPLIED_FIELDS: &[&str] = &["/metadata/annotations", "/metadata/labels", "/spec"];

/// What undoes a journaled change.
#[derive(Debug, Clone, PartialEq)]
pub enum Inverse {
    /// Put back the `touched` fields of `before` (a JSON patch computed against the live
    /// object, [`super::restore::rollback_ops`]), guarded by a `test` of `rv_after`.
    Restore {
        /// The object before the change (redacted as journaled).
        before: Value,
        /// The fields the change touched (JSON pointers).
        touched: Vec<String>,
        /// The resourceVersion the change left, if journaled.
        rv_after: Option<String>,
    },
    /// Create the object again from this snapshot ([`snapshot`] of the before-state).
    Create {
        /// The object to create.
        object: Value,
    },
    /// Delete the object the change created, on these preconditions.
    Delete {
        /// The created object's uid, when journaled.
        uid: Option<String>,
        /// The resourceVersion the change left, when journaled.
        rv_after: Option<String>,
    },
}

/// What a journaled record says was done to the object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Done {
    Patched,
    Applied,
    ServerApplied,
    Deleted,
    Created,
}

fn done_by(e: &Entry) -> Done {
    match (e.operation, e.patch_type.as_deref()) {
        (Operation::CrdApply, _) => Done::Applied,
        (Operation::Apply, _) => Done::ServerApplied,
        (Operation::CrdPrune | Operation::Delete, _) => Done::Deleted,
        (Operation::Undelete, _) => Done::Created,
        (Operation::Rollback, Some(DELETE)) => Done::Deleted,
        (Operation::Rollback, Some(CREATE)) => Done::Created,
        _ => Done::Patched,
    }
}

/// The inverse of entry `e` (its last record), or why it cannot be exact (pure; the caller
/// says `entry ID cannot be rolled back: {why}`, exit 2, nothing sent).
///
/// # Errors
/// The reason, in the words `rollback` prints.
pub fn inverse_of(e: &Entry) -> Result<Inverse, String> {
    match e.operation {
        Operation::ProtectLift => {
            return Err(
                "a lift is not a change to the cluster; end it with `kubectl myops protect end`"
                    .into(),
            );
        }
        Operation::ProtectEnd => {
            return Err("the end of a lift is not a change to the cluster; lift again with `kubectl myops protect lift DURATION`".into());
        }
        _ => {}
    }
    if e.dry_run || !(e.succeeded() || e.result == changelog::SNAPSHOT || e.outcome_unknown()) {
        return Err("it changed nothing (a dry run or a failed attempt)".into());
    }
    check_identity(e)?;
    match done_by(e) {
        Done::Patched => restore_patch(e),
        Done::Applied => match &e.before {
            Some(before) => Ok(Inverse::Restore {
                before: before.clone(),
                touched: APPLIED_FIELDS.iter().map(|p| p.to_string()).collect(),
                rv_after: e.resource_version_after.clone(),
            }),
            None => match &e.resource_version_after {
                Some(rv) => Ok(Inverse::Delete {
                    uid: created_uid(e),
                    rv_after: Some(rv.clone()),
                }),
                None => Err("it created the object, and its record holds no resourceVersion after the change to make the delete conditional on (its outcome is unknown); check the object and delete it by hand if it must go (nothing was sent)".into()),
            },
        },
        Done::ServerApplied => server_applied(e),
        Done::Deleted => create_again(e),
        Done::Created => {
            let uid = created_uid(e);
            if uid.is_none() && e.resource_version_after.is_none() {
                return Err("it created the object, and its record holds neither the uid nor the resourceVersion of what it created (its outcome is unknown), so which object to delete is not known; check the object and delete it by hand if it must go (nothing was sent)".into());
            }
            Ok(Inverse::Delete {
                uid,
                rv_after: e.resource_version_after.clone(),
            })
        }
    }
}

/// The object a CRD apply or prune changes: a CustomResourceDefinition, and nothing else.
const CRD_KIND: &str = "CustomResourceDefinition";

/// Refuses a record whose parts name different objects (pure): a `crd-apply` or `crd-prune`
/// of anything but a CustomResourceDefinition, or a before-state of another apiVersion, kind,
/// namespace or name than the record. Only an edited change log holds one, and its inverse
/// would write or delete an object the record does not name.
fn check_identity(e: &Entry) -> Result<(), String> {
    let edited = |what: String| {
        format!(
            "{what}, so the change log was edited; check `kubectl myops changelog show {}` and restore by hand (nothing was sent)",
            crate::base::echo::capped(&e.id, 64)
        )
    };
    if matches!(e.operation, Operation::CrdApply | Operation::CrdPrune)
        && (e.kind != CRD_KIND || !e.api_version.starts_with("apiextensions.k8s.io/"))
    {
        return Err(edited(format!(
            "its record is a CRD {} of a {} {}, not of an apiextensions.k8s.io CustomResourceDefinition",
            if e.operation == Operation::CrdApply {
                "apply"
            } else {
                "prune"
            },
            crate::base::echo::capped(&e.api_version, 64),
            crate::base::echo::capped(&e.kind, 64)
        )));
    }
    let Some(before) = &e.before else {
        return Ok(());
    };
    let text = |p: &str| before.pointer(p).and_then(Value::as_str);
    let differs = |p: &str, want: Option<&str>| text(p).is_some_and(|v| Some(v) != want);
    if !before.is_object()
        || differs("/kind", Some(&e.kind))
        || differs("/apiVersion", Some(&e.api_version))
        || differs("/metadata/name", Some(&e.name))
        || differs("/metadata/namespace", e.namespace.as_deref())
    {
        return Err(edited(format!(
            "its before-state is not the object its record names ({})",
            crate::base::echo::capped(&changelog::object_of(e), 200)
        )));
    }
    Ok(())
}

/// The uid of the object entry `e` created, from its after-state (none in records that kept
/// no after-state).
fn created_uid(e: &Entry) -> Option<String> {
    e.after
        .as_ref()
        .and_then(|a| a.pointer("/metadata/uid"))
        .and_then(Value::as_str)
        .map(str::to_string)
}

/// The inverse of an `apply`: a delete of what it created (its uid, conditional on the
/// resourceVersion it left), or a restore of the fields it changed.
fn server_applied(e: &Entry) -> Result<Inverse, String> {
    let Some(before) = &e.before else {
        let uid = created_uid(e);
        return match (&uid, &e.resource_version_after) {
            (Some(_), Some(_)) => Ok(Inverse::Delete {
                uid,
                rv_after: e.resource_version_after.clone(),
            }),
            _ => Err("it created the object, and its record holds no uid or resourceVersion of what it created (its outcome is unknown), so which object to delete is not known; check the object and delete it by hand if it must go (nothing was sent)".into()),
        };
    };
    let Some(after) = &e.after else {
        return Err("its record holds no after-state (its outcome is unknown), so which fields the apply changed is not known; check the object and restore it by hand (nothing was sent)".into());
    };
    let touched = applied_changes(before, after);
    if let Some(keys) = changelog::secret_data_keys(&e.kind, &touched) {
        return Err(secret_values(e, &keys));
    }
    Ok(Inverse::Restore {
        before: before.clone(),
        touched,
        rv_after: e.resource_version_after.clone(),
    })
}

/// The fields an apply changed (pure): the paths where `before` and `after` differ, server
/// bookkeeping left out ([`crate::rules::diff::operations`]), a change inside a list named by
/// the whole list ([`whole_list`]), without `status` (controllers
/// write it, an apply of the main resource never does) and without metadata other than
/// labels and annotations (the server's).
pub fn applied_changes(before: &Value, after: &Value) -> Vec<String> {
    let mut paths: Vec<String> = crate::rules::diff::operations(before, after)
        .iter()
        .map(|op| whole_list(before, after, crate::rules::diff::path_of(op)))
        .filter(|p| {
            let top = p.split('/').nth(1).unwrap_or("");
            match top {
                "status" => false,
                "metadata" => {
                    p.starts_with("/metadata/labels") || p.starts_with("/metadata/annotations")
                }
                _ => true,
            }
        })
        .collect();
    paths.sort();
    paths.dedup();
    paths
}

/// `path` cut at the first list it passes through in `before` or `after` (pure): an item
/// added to or removed from a list shifts the indexes of the items after it, so restoring
/// item by item would write the wrong items; the whole list is restored instead.
fn whole_list(before: &Value, after: &Value, path: &str) -> String {
    let mut prefix = String::new();
    for token in path.split('/').skip(1) {
        let is_list = |doc: &Value| {
            let at = if prefix.is_empty() {
                Some(doc)
            } else {
                doc.pointer(&prefix)
            };
            at.is_some_and(Value::is_array)
        };
        if !prefix.is_empty() && (is_list(before) || is_list(after)) {
            return prefix;
        }
        prefix.push('/');
        prefix.push_str(token);
    }
    prefix
}

/// The inverse of a patch: restore the touched fields from the before-state.
fn restore_patch(e: &Entry) -> Result<Inverse, String> {
    let Some(before) = &e.before else {
        return Err("it has no before-state (reading the object was forbidden)".into());
    };
    let mut touched = touched_paths(
        e.patch_type.as_deref().unwrap_or(""),
        e.patch.as_ref().unwrap_or(&Value::Null),
    );
    if e.operation == Operation::Rollout {
        touched = replaced_annotations(before, e.patch.as_ref(), touched);
    }
    if touched.is_empty() {
        return Err("its record holds no patch, so which fields it changed is not known".into());
    }
    if let Some(keys) = changelog::secret_data_keys(&e.kind, &touched) {
        return Err(secret_values(e, &keys));
    }
    Ok(Inverse::Restore {
        before: before.clone(),
        touched,
        rv_after: e.resource_version_after.clone(),
    })
}

/// The fields a `rollout undo` of a Deployment changed in its annotations (pure): kubectl's
/// patch replaces `/metadata/annotations` whole (`rollback.go`, `getDeploymentPatch`), keeping
/// the Deployment's own revision annotations, which its controller rewrites right after. The
/// inverse restores each annotation the patch changed — one whose value in the patch differs
/// from the before-state — and leaves the others to their writers, so the controller's new
/// revision number does not count as a change made since.
fn replaced_annotations(
    before: &Value,
    patch: Option<&Value>,
    touched: Vec<String>,
) -> Vec<String> {
    const WHOLE: &str = "/metadata/annotations";
    let replaced = patch
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .find(|op| op["op"] == "replace" && op["path"] == WHOLE)
        .and_then(|op| op.get("value"))
        .and_then(Value::as_object);
    let Some(after) = replaced else {
        return touched;
    };
    let empty = serde_json::Map::new();
    let was = before
        .pointer(WHOLE)
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let mut out: Vec<String> = touched.into_iter().filter(|p| p != WHOLE).collect();
    for key in was.keys().chain(after.keys()) {
        if was.get(key) != after.get(key) {
            out.push(format!("{WHOLE}/{}", super::paths::escape(key)));
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The inverse of a delete: create the before-state again.
fn create_again(e: &Entry) -> Result<Inverse, String> {
    let Some(before) = &e.before else {
        return Err("it has no before-state (reading the object was forbidden)".into());
    };
    let object = snapshot(before);
    let data: Vec<String> = ["data", "stringData"]
        .iter()
        .filter_map(|f| object.get(*f).and_then(Value::as_object).map(|m| (f, m)))
        .flat_map(|(f, m)| {
            m.keys()
                .map(move |k| format!("/{f}/{}", super::paths::escape(k)))
        })
        .collect();
    if let Some(keys) = changelog::secret_data_keys(&e.kind, &data).filter(|k| !k.is_empty()) {
        return Err(secret_values(e, &keys));
    }
    if masked(&object) {
        return Err(format!(
            "its before-state holds values the change log stored masked (they looked like credentials), so {} cannot be created again as it was; restore it by hand (nothing was sent)",
            crate::base::echo::capped(&changelog::object_of(e), 200)
        ));
    }
    let named = |p: &str| object.pointer(p).and_then(Value::as_str).is_some();
    if !(named("/apiVersion") && named("/kind") && named("/metadata/name"))
        || e.namespace.is_some() && !named("/metadata/namespace")
    {
        return Err(format!(
            "its before-state does not name its apiVersion, kind, name and namespace, so what to create again is not known; restore {} by hand (nothing was sent)",
            crate::base::echo::capped(&changelog::object_of(e), 200)
        ));
    }
    Ok(Inverse::Create { object })
}

/// The refusal of a change to a Secret's values, which the change log never stores.
fn secret_values(e: &Entry, keys: &[String]) -> String {
    let what = if keys.is_empty() {
        "the data".to_string()
    } else {
        format!("the data keys {}", listed(keys, 10))
    };
    format!(
        "the change log never stores Secret values, so {what} of {} cannot be restored; restore them from your secret store (nothing was sent)",
        crate::base::echo::capped(&changelog::object_of(e), 200)
    )
}
