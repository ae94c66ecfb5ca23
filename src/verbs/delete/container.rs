//! The delete of a namespace or a CRD: the objects that go with it are listed, previewed on
//! stderr, bounded by plugin.yaml `changelog.snapshotLimit` and journaled first as snapshot
//! records whose parent is the container's own delete entry.

use serde_json::Value;

use super::dependents::Root;
use crate::changelog;
use crate::cli::{DeleteArgs, DryRun};
use crate::guard::Change;
use crate::guard::delete::contents::Contents;
use crate::guard::{Grant, GuardError, ObjectRef, Sent, Session};
use crate::output::Printer;

/// Whether `obj` is a container whose delete takes other objects with it.
pub fn is_container(obj: &ObjectRef) -> bool {
    let a = &obj.t.api;
    (a.group.is_empty() && a.kind == "Namespace")
        || (a.group == "apiextensions.k8s.io" && a.kind == "CustomResourceDefinition")
}

/// The preview of what goes with `obj` (pure).
pub fn preview(obj: &ObjectRef, c: &Contents) -> Vec<String> {
    let mut out = vec![format!(
        "{} holds {} objects, journaled before it is deleted:",
        obj.display(),
        c.objects.len()
    )];
    for (kind, n) in c.counts() {
        out.push(format!("  {kind}: {n}"));
    }
    if c.events > 0 {
        out.push(format!("  events: {} (not journaled)", c.events));
    }
    for t in &c.not_listable {
        out.push(format!("  {t}: not listable, not journaled"));
    }
    out
}

/// Deletes the container `obj` (`sent.before` as read): lists what goes with it, previews it,
/// refuses above the snapshot limit (unless `--unrecoverable`), journals the snapshots, then
/// sends its own delete under the id they name.
///
/// # Errors
/// [`GuardError::Usage`] above the limit (nothing sent), list and journal errors, the
/// DELETE's.
pub async fn delete(
    session: &Session<'_>,
    grant: &Grant,
    obj: &ObjectRef,
    sent: Sent<'_>,
    a: &DeleteArgs,
    p: &mut Printer<'_>,
) -> Result<Value, GuardError> {
    let contents = if obj.t.api.kind == "Namespace" {
        session.contents_of_namespace(&obj.name).await?
    } else {
        session
            .contents_of_crd(sent.before.unwrap_or(&Value::Null))
            .await?
    };
    for line in preview(obj, &contents) {
        p.err_line(&line);
    }
    // A namespace's objects all go with it. A CRD's custom resources may own objects in their
    // namespaces, which the garbage collector deletes after them whatever `--cascade` says of
    // the CRD: the apiextensions finalizer deletes the custom resources with the default
    // (background) propagation (`DeleteCollection` without options in
    // `apiextensions-apiserver/pkg/controller/finalizer/crd_finalizer.go`).
    if obj.t.api.kind == "CustomResourceDefinition" {
        let roots: Vec<Root> = contents.objects.iter().map(Root::of_value).collect();
        let cascade = crate::cli::Cascade::Background;
        for line in super::dependents::preview(session, &roots, cascade).await {
            p.err_line(&line);
        }
    }
    let size = contents.size();
    let limit = session.settings().plugin.changelog.snapshot_limit;
    if size > limit && !a.unrecoverable {
        return Err(GuardError::Usage(format!(
            "the objects of {} are {size} bytes serialized, above plugin.yaml changelog.snapshotLimit ({}, {limit} bytes); raise the limit, or pass --unrecoverable to delete them without journaling them (they cannot be undeleted); nothing was sent",
            obj.display(),
            crate::config::model::byte_size::format(limit)
        )));
    }
    let unrecoverable = a.unrecoverable && size > limit;
    let id = changelog::new_id();
    let dry = a.dry_run.strategy != DryRun::None;
    // A delete protection refuses anyway journals no snapshots: one record, nothing sent.
    session
        .refuse_early(sent.change.intent(sent.operation, obj, dry, sent.before))
        .await?;
    if !unrecoverable {
        session.journal_snapshots(&id, &contents, dry).await?;
    }
    let change = match sent.change {
        Change::Delete {
            uid,
            resource_version,
            propagation,
            grace_period,
            ..
        } => Change::Delete {
            uid: uid.clone(),
            resource_version: resource_version.clone(),
            propagation: propagation.clone(),
            grace_period: *grace_period,
            unrecoverable,
        },
        other => other.clone(),
    };
    let sent = Sent {
        change: &change,
        id: Some(&id),
        ..sent
    };
    session.send_change(grant, obj, sent).await
}
