//! `rollout restart|undo|history|status` for Deployments, StatefulSets and DaemonSets, as
//! kubectl 1.36 does them (`k8s.io/kubectl/pkg/cmd/rollout/`,
//! `k8s.io/kubectl/pkg/polymorphichelpers/`), on the guarded path:
//!
//! - `restart` and `undo` are patches of the object journaled as operation `rollout`
//!   ([`crate::guard::Session::patch`]): the plugin.yaml verb `rollout`, a
//!   SelfSubjectAccessReview for `patch` (and for `undo` one for `list` of the revisions:
//!   `replicasets` or `controllerrevisions`), field policies judged on a server-side dry run,
//!   the write-ahead journal, the reconciler warning, and `rollback ID` as the inverse;
//! - `history` and `status` only read: reviews for `get` and `list` of the revisions
//!   (history), `list` and `watch` of the object by name (status).
//!
//! Objects are named as `TYPE NAME…` or `TYPE/NAME…`; `-l` selection is not offered. A type
//! that has no rollout is refused before anything is sent (exit 2), in kubectl's words.

mod describe;
mod history;
mod restart;
pub mod revisions;
mod status;
mod undo;

use kube::api::ListParams;
use kube::core::Request;
use serde_json::Value;

use crate::cli::RolloutCommand;
use crate::exit::ExitStatus;
use crate::guard::authz::AccessRequest;
use crate::guard::{Grant, ObjectRef, Session, Target, parse_targets};
use crate::output::Printer;
use crate::settings::Settings;
use crate::verbs::{Outcome, VerbError};
use revisions::{Revision, Workload};

/// Runs one `rollout` subcommand.
///
/// Errors in the [`Outcome`]: usage (2: bad arguments, a type without a rollout, no history,
/// a revision that does not exist), denied (3: plugin.yaml, RBAC, a field policy), not found
/// (4), conflict (5), failures (1: a status past its deadline or `--timeout`).
pub async fn run(s: &Settings, cmd: &RolloutCommand, p: &mut Printer<'_>) -> Outcome {
    match cmd {
        RolloutCommand::Restart(a) => restart::run(s, a, p).await,
        RolloutCommand::Undo(a) => undo::run(s, a, p).await,
        RolloutCommand::History(a) => history::run(s, a, p).await,
        RolloutCommand::Status(a) => status::run(s, a, p).await,
    }
}

/// The objects named by `args` (`TYPE NAME…`, `TYPE/NAME…`), in order (pure).
///
/// # Errors
/// [`VerbError::Usage`]: a TYPE without names (selection by `-l` or `--all` is not offered).
fn named(args: &[String]) -> Result<Vec<(String, String)>, VerbError> {
    let targets: Vec<Target> = parse_targets(args).map_err(VerbError::Usage)?;
    let mut out = Vec::new();
    for t in targets {
        if t.names.is_empty() {
            return Err(VerbError::Usage(format!(
                "name the objects: TYPE NAME… or TYPE/NAME… (rollout does not select by label; e.g. `{} web`)",
                crate::base::echo::bare(&t.type_name)
            )));
        }
        out.extend(t.names.into_iter().map(|n| (t.type_name.clone(), n)));
    }
    Ok(out)
}

/// Resolves one named object and its workload kind; a type without a rollout is refused
/// with `refusal(group_kind)` (kubectl's sentence for the subcommand), nothing sent.
///
/// # Errors
/// Resolution errors, and the refusal as [`VerbError::Usage`].
async fn workload(
    session: &Session<'_>,
    type_name: &str,
    name: &str,
    refusal: impl Fn(&ObjectRef) -> String,
) -> Result<(ObjectRef, Workload), VerbError> {
    let obj = session.object(type_name, name, None).await?;
    match Workload::of(&obj.t) {
        Some(w) => Ok((obj, w)),
        None => Err(VerbError::Usage(refusal(&obj))),
    }
}

/// The `list` review of `w`'s revisions in `obj`'s namespace.
fn revisions_review(obj: &ObjectRef, w: Workload) -> AccessRequest {
    let plural = match w {
        Workload::Deployment => "replicasets",
        Workload::StatefulSet | Workload::DaemonSet => "controllerrevisions",
    };
    AccessRequest {
        verb: "list".into(),
        group: "apps".into(),
        resource: plural.into(),
        subresource: None,
        namespace: obj.namespace.clone(),
        name: None,
    }
}

/// Adds the `list` review of `w`'s revisions to `grant`.
///
/// # Errors
/// The refusal (exit 3) naming the user and the resource, or a review that cannot be made.
async fn allow_revisions(
    session: &Session<'_>,
    grant: &mut Grant,
    obj: &ObjectRef,
    w: Workload,
) -> Result<(), VerbError> {
    let review = revisions_review(obj, w);
    if session.extend_if_allowed(grant, review.clone()).await? {
        return Ok(());
    }
    let reason = match session.decide(&review).await? {
        Err(r) => r,
        Ok(()) => crate::guard::session::NO_RULE_REASON.to_string(),
    };
    Err(session.denial(&review, reason).await.into())
}

/// The revisions of `workload` (its current state), listed with its selector in its
/// namespace under `grant` (which holds the `list` review) and kept when it controls them.
///
/// # Errors
/// Discovery and the list's API errors.
async fn list_revisions(
    session: &Session<'_>,
    grant: &Grant,
    obj: &ObjectRef,
    w: Workload,
    workload: &Value,
) -> Result<Vec<Revision>, VerbError> {
    let t = session.resolve(w.history_type()).await?;
    let url =
        <kube::api::DynamicObject as kube::Resource>::url_path(&t.api, obj.namespace.as_deref());
    let selector = revisions::selector_string(workload);
    let lp = ListParams {
        label_selector: (!selector.is_empty()).then_some(selector),
        ..ListParams::default()
    };
    let req = Request::new(&url)
        .list(&lp)
        .map_err(|e| VerbError::Usage(format!("the list of the revisions cannot be built: {e}")))?;
    let list: Value = session.send(grant, req).await?;
    let items = match list.get("items") {
        Some(Value::Array(a)) => a.clone(),
        _ => Vec::new(),
    };
    Ok(revisions::owned_revisions(w, workload, items))
}

/// The failures of a command over several objects (kubectl's `ContinueOnError`): every
/// failure but the most severe is printed as it happens; the most severe is the command's
/// (printed by the app).
#[derive(Default)]
struct Failures(Option<VerbError>);

impl Failures {
    /// Takes one object's failure.
    fn push(&mut self, e: VerbError, p: &mut Printer<'_>) {
        // The later of two equally severe failures is kept, so they print in the order they
        // happened (the kept one last, by the app).
        let keep_new = self.0.as_ref().is_none_or(|w| {
            ExitStatus::most_severe([w.exit_status(), e.exit_status()]) == e.exit_status()
        });
        let shown = if keep_new { self.0.replace(e) } else { Some(e) };
        if let Some(shown) = shown {
            report(&shown, p);
        }
    }

    /// The command's outcome on `resource`.
    fn outcome(self, resource: Option<String>) -> Outcome {
        Outcome {
            resource,
            result: self.0.map_or(Ok(()), Err),
        }
    }
}

/// Prints one object's failure as the app prints the last one.
fn report(e: &VerbError, p: &mut Printer<'_>) {
    match e {
        VerbError::Api(crate::cluster::ApiError::Server { .. }) => p.err_line(&e.to_string()),
        _ => p.err_line(&format!("error: {e}")),
    }
}
