//! The `kubernetes.io/change-cause` annotation of a workload written from `--reason` when
//! plugin.yaml says `changeCause: true` (pure).
//!
//! `kubectl rollout history` prints a workload's `kubernetes.io/change-cause` annotation as
//! CHANGE-CAUSE (kubectl `pkg/polymorphichelpers/history.go`; the Deployment and DaemonSet
//! controllers copy it to the ReplicaSet or ControllerRevision of the revision). kubectl's
//! `--record` wrote the command line there and was deprecated without a replacement
//! (kubernetes/kubernetes#40422), leaving people to write it by hand; here the change's
//! reason is written in the same request that makes the change, so the revision and its cause
//! cannot drift apart.
//!
//! Which changes carry it ([`with_change_cause`]): a merge or strategic-merge patch of the
//! object itself and a server-side apply, of a Deployment, StatefulSet, DaemonSet, ReplicaSet
//! (apps/v1) or ReplicationController (core v1). Not:
//! - a JSON patch (RFC 6902): its `add` of `/metadata/annotations/kubernetes.io~1change-cause`
//!   fails when the object has no annotations map (RFC 6902 section 4.1: the parent must
//!   exist), and adding the map first would replace an existing one; the object is not known
//!   here, so the patch is sent as written;
//! - a patch of a subresource (`scale`, `status`): it cannot write metadata;
//! - a patch that writes the annotation itself, or sets `metadata` or `metadata.annotations`
//!   to something other than an object (a merge patch's `null` deletes them): the patch says
//!   what the user wants there, and it is sent as written;
//! - a create (undelete) or a delete: the object's journaled state is what is restored.
//!
//! A server-side apply that carries the annotation makes the field manager own it, so a later
//! apply of the same manager without `--reason` removes it again — the cause then names the
//! latest change that gave one, as `kubectl rollout history` expects.

use serde_json::{Map, Value};

use super::Change;
use crate::cli::PatchType;

/// The annotation (kubectl `pkg/polymorphichelpers/history.go`, `ChangeCauseAnnotation`).
pub const CHANGE_CAUSE: &str = "kubernetes.io/change-cause";

/// The kinds whose revisions `kubectl rollout history` lists with their change cause, and
/// the ReplicaSet and ReplicationController it reads them from.
pub const WORKLOAD_KINDS: [&str; 5] = [
    "Deployment",
    "StatefulSet",
    "DaemonSet",
    "ReplicaSet",
    "ReplicationController",
];

/// `change` of an object of `kind` with `reason` written as its
/// [`CHANGE_CAUSE`] annotation, or `None` when the change does not carry it (see the module
/// doc: not a workload, a JSON patch, a subresource, a patch that writes the annotation or
/// replaces the annotations, a create or delete, an empty reason).
pub fn with_change_cause(change: &Change, kind: &str, reason: &str) -> Option<Change> {
    if reason.is_empty() || !WORKLOAD_KINDS.contains(&kind) {
        return None;
    }
    match change {
        Change::Patch {
            patch_type: patch_type @ (PatchType::Merge | PatchType::Strategic),
            body,
            subresource: None,
        } => Some(Change::Patch {
            patch_type: *patch_type,
            body: annotated(body, reason)?,
            subresource: None,
        }),
        Change::Apply {
            body,
            field_manager,
            force,
            origin,
        } => Some(Change::Apply {
            body: annotated(body, reason)?,
            field_manager: field_manager.clone(),
            force: *force,
            origin: origin.clone(),
        }),
        Change::Patch { .. } | Change::Create { .. } | Change::Delete { .. } => None,
    }
}

/// `body` (an object) with `metadata.annotations[CHANGE_CAUSE] = reason`, the maps made when
/// absent; `None` when `body`, its `metadata` or its `annotations` is not an object, or the
/// annotation is already there.
fn annotated(body: &Value, reason: &str) -> Option<Value> {
    let mut out = body.clone();
    let root = out.as_object_mut()?;
    let metadata = root
        .entry("metadata")
        .or_insert_with(|| Value::Object(Map::new()))
        .as_object_mut()?;
    let annotations = metadata
        .entry("annotations")
        .or_insert_with(|| Value::Object(Map::new()))
        .as_object_mut()?;
    if annotations.contains_key(CHANGE_CAUSE) {
        return None;
    }
    annotations.insert(CHANGE_CAUSE.to_string(), Value::String(reason.to_string()));
    Some(out)
}

#[cfg(test)]
mod tests;
