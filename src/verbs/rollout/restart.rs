//! `rollout restart`: kubectl's strategic merge patch of the pod template annotation
//! `kubectl.kubernetes.io/restartedAt` (`objectrestarter.go`, `rollout_restart.go`), sent by
//! [`Session::patch`] as operation `rollout`: reviewed as `patch`, field policies judged,
//! journaled with its before-state, undone by `rollback ID`.

use super::revisions::{self, Workload};
use super::{Failures, named, workload};
use crate::changelog::Operation;
use crate::cli::{DryRun, PatchType, RolloutRestartArgs};
use crate::config::Verb;
use crate::guard::{ObjectRef, PatchRequest, ReconcilerPolicy, Session};
use crate::output::Printer;
use crate::rules::reconciler::ReconcilerKind;
use crate::settings::Settings;
use crate::verbs::{Outcome, VerbError};

/// Restarts every named object (a failure is printed and the next one tried).
pub async fn run(s: &Settings, a: &RolloutRestartArgs, p: &mut Printer<'_>) -> Outcome {
    let objects = match named(&a.args) {
        Ok(o) => o,
        Err(e) => return Outcome::early(e),
    };
    let session = match Session::open(s, p, Verb::Rollout).await {
        Ok(x) => x,
        Err(e) => return Outcome::early(e),
    };
    // One time for every object, as kubectl computes it once per object within the second.
    let at = revisions::now_rfc3339();
    let body = revisions::restart_patch(&at);
    let mut failures = Failures::default();
    let mut resource = None;
    for (type_name, name) in &objects {
        let r = restart_one(&session, type_name, name, a, &body, &at, &mut resource, p).await;
        if let Err(e) = r {
            failures.push(e, p);
        }
    }
    failures.outcome(resource)
}

/// kubectl's refusal of a type that has no rollout (`objectrestarter.go`).
fn not_restartable(o: &ObjectRef) -> String {
    format!(
        "{} {:?} restarting is not supported",
        o.t.group_resource(),
        o.name
    )
}

#[allow(clippy::too_many_arguments)]
async fn restart_one(
    session: &Session<'_>,
    type_name: &str,
    name: &str,
    a: &RolloutRestartArgs,
    body: &serde_json::Value,
    at: &str,
    resource: &mut Option<String>,
    p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    let (obj, w) = workload(session, type_name, name, not_restartable).await?;
    resource.get_or_insert_with(|| obj.t.group_resource());
    let req = PatchRequest {
        operation: Operation::Rollout,
        patch_type: PatchType::Strategic,
        body,
        dry_run: DryRun::None,
        subresource: None,
        field_manager: &a.field_manager,
        reconciler: ReconcilerPolicy::Warn,
    };
    let mut grant = session
        .authorize_change(&obj, &req.as_change(), req.intent(&obj, None))
        .await?;
    let before = session
        .before_state(&mut grant, &obj, req.intent(&obj, None))
        .await?;
    if let Some(b) = &before
        && let Some(why) = revisions::restart_refusal(w, b, at)
    {
        // Refused before the request, as kubectl refuses it: journaled as an attempt.
        let intent = session.intent(req.intent(&obj, Some(b))).await;
        session
            .journal_complete(intent, format!("refused: {why}"))
            .await?;
        return Err(VerbError::Usage(
            if w == Workload::Deployment && why.starts_with("can't") {
                format!("{} {:?} {why}", obj.t.group_resource(), obj.name)
            } else {
                format!("failed to create patch for {}: {why}", obj.name)
            },
        ));
    }
    let patched = session.patch(&grant, &obj, &req, before.as_ref()).await?;
    // An owner that will revert the restart: one line, the restart went on. `kubectl apply`
    // is not one: its three-way merge removes only what its last-applied configuration held,
    // and the restart annotation is never there.
    if let Some(owner) = patched
        .reconciler
        .as_ref()
        .filter(|o| o.kind != ReconcilerKind::KubectlApply)
    {
        p.err_line(&owner.patch_warning(&obj.display()));
    }
    match a.output.as_deref() {
        Some(_) => p.out(&format!("{}\n", obj.display()))?,
        None => p.out(&format!("{} restarted\n", obj.display()))?,
    }
    Ok(())
}
