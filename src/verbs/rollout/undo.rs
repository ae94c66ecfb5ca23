//! `rollout undo [--to-revision N]`: the revision found among the Deployment's ReplicaSets or
//! the StatefulSet's / DaemonSet's ControllerRevisions and sent as kubectl's `rollback.go`
//! sends it, by [`Session::patch`] as operation `rollout`. Reviews: `patch` of the object,
//! `get` of it (the before-state the revisions are chosen from) and `list` of its revisions.
//! The journal keeps the before-state, so `rollback ID` undoes the undo.

use serde_json::Value;

use super::revisions::{self, UndoPlan, Workload};
use super::{Failures, allow_revisions, describe, list_revisions, named, workload};
use crate::changelog::Operation;
use crate::cli::{DryRun, PatchType, RolloutUndoArgs};
use crate::config::Verb;
use crate::guard::{ObjectRef, PatchRequest, ReconcilerPolicy, Session};
use crate::output::Printer;
use crate::output::objects::result_line;
use crate::rules::reconciler::{LAST_APPLIED, ReconcilerKind};
use crate::settings::Settings;
use crate::verbs::{Outcome, VerbError};

/// Rolls every named object back (a failure is printed and the next one tried).
pub async fn run(s: &Settings, a: &RolloutUndoArgs, p: &mut Printer<'_>) -> Outcome {
    let objects = match named(&a.args) {
        Ok(o) => o,
        Err(e) => return Outcome::early(e),
    };
    let session = match Session::open(s, p, Verb::Rollout).await {
        Ok(x) => x,
        Err(e) => return Outcome::early(e),
    };
    let mut failures = Failures::default();
    let mut resource = None;
    for (type_name, name) in &objects {
        if let Err(e) = undo_one(&session, type_name, name, a, &mut resource, p).await {
            failures.push(e, p);
        }
    }
    failures.outcome(resource)
}

/// kubectl's refusal of a type that has no rollout (`rollback.go`, `RollbackerFor`).
fn no_rollbacker(o: &ObjectRef) -> String {
    revisions::no_implementation(&o.t, "rollbacker", "rollbacker")
}

/// kubectl's warning before undoing an object `kubectl apply` manages
/// (`rollout_undo.go`, `warningRollbackApplyManagedResource`).
fn apply_warning(o: &ObjectRef) -> String {
    format!(
        "Warning: resource {}/{} was previously managed with 'kubectl apply'. Rolling back will not update the {LAST_APPLIED} annotation, which may cause unexpected behavior on future 'kubectl apply' operations. Consider using 'kubectl apply' with your previous configuration file instead.",
        o.t.api.plural, o.name
    )
}

async fn undo_one(
    session: &Session<'_>,
    type_name: &str,
    name: &str,
    a: &RolloutUndoArgs,
    resource: &mut Option<String>,
    p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    let (obj, w) = workload(session, type_name, name, no_rollbacker).await?;
    resource.get_or_insert_with(|| obj.t.group_resource());
    // The patch is known once the revisions are read; a refusal before that journals the
    // attempt without it.
    let none = Value::Array(Vec::new());
    let mut req = PatchRequest {
        operation: Operation::Rollout,
        patch_type: PatchType::Json,
        body: &none,
        dry_run: a.dry_run.strategy,
        subresource: None,
        field_manager: &a.field_manager,
        reconciler: ReconcilerPolicy::Warn,
    };
    let mut grant = session
        .authorize_change(&obj, &req.as_change(), req.intent(&obj, None))
        .await?;
    let before = session
        .before_state(&mut grant, &obj, req.intent(&obj, None))
        .await?
        .ok_or_else(|| {
            VerbError::Usage(format!(
                "reading {} is forbidden, and rollout undo chooses the revision from its current state; ask a cluster admin for get on it",
                obj.display()
            ))
        })?;
    if let Err(e) = allow_revisions(session, &mut grant, &obj, w).await {
        let intent = session.intent(req.intent(&obj, Some(&before))).await;
        session.journal_complete(intent, "denied".into()).await?;
        return Err(e);
    }
    let annotated = |k: &str| {
        before
            .pointer("/metadata/annotations")
            .and_then(|m| m.get(k))
            .is_some()
    };
    if annotated(LAST_APPLIED) {
        p.err_line(&apply_warning(&obj));
    }
    let revs = list_revisions(session, &grant, &obj, w, &before).await?;
    let client = a.dry_run.strategy == DryRun::Client;
    let plan = match revisions::undo_plan(w, &before, &revs, a.to_revision, client) {
        Ok(plan) => plan,
        Err(why) => {
            // Refused as kubectl refuses it, before the request: journaled as an attempt.
            let intent = session.intent(req.intent(&obj, Some(&before))).await;
            session
                .journal_complete(intent, format!("refused: {why}"))
                .await?;
            return Err(VerbError::Usage(why));
        }
    };
    let (patch_type, body, template) = match plan {
        UndoPlan::Skipped(why) => {
            return print_line(p, &obj, &why, a);
        }
        UndoPlan::Patch {
            patch_type,
            body,
            template,
        } => (patch_type, body, template),
    };
    if client {
        // kubectl's client dry run prints the template it would roll back to; nothing is
        // sent, the attempt is journaled as a dry run.
        let text = describe::pod_template(&template);
        let what = match w {
            Workload::Deployment => text,
            Workload::StatefulSet | Workload::DaemonSet => format!("will roll back to {text}"),
        };
        req.patch_type = patch_type;
        req.body = &body;
        let intent = session.intent(req.intent(&obj, Some(&before))).await;
        session
            .journal_complete(intent, crate::changelog::SUCCESS.to_string())
            .await?;
        return print_line(p, &obj, &what, a);
    }
    req.patch_type = patch_type;
    req.body = &body;
    let patched = session.patch(&grant, &obj, &req, Some(&before)).await?;
    // kubectl's own warning covers an object `kubectl apply` manages; other owners get ours.
    if let Some(owner) = patched
        .reconciler
        .as_ref()
        .filter(|o| o.kind != ReconcilerKind::KubectlApply)
    {
        p.err_line(&owner.patch_warning(&obj.display()));
    }
    print_line(p, &obj, "rolled back", a)
}

/// kubectl's line: `deployment.apps/web rolled back` (with the dry-run suffix), or the name.
fn print_line(
    p: &mut Printer<'_>,
    obj: &ObjectRef,
    what: &str,
    a: &RolloutUndoArgs,
) -> Result<(), VerbError> {
    let line = match a.output.as_deref() {
        Some(_) => obj.display(),
        None => result_line(&obj.display(), what, true, a.dry_run.strategy),
    };
    p.out(&format!("{line}\n"))?;
    Ok(())
}
