//! `scale`: kubectl's scale on the mutation model (docs/changing.md).
//!
//! Order: kubectl's argument rules (`k8s.io/kubectl/pkg/cmd/scale/scale.go` `Validate`, the
//! shared selection [`crate::guard::selection`]) → session (plugin.yaml verb `scale`, the
//! change log proven writable) → every TYPE checked for a `scale` subresource in discovery
//! (before any request but discovery) → the objects (a `list` review for `-l`/`--all`) → per
//! object: the boundary and the `patch` review of `<resource>/scale`, the read (the
//! before-state), the preconditions checked on it, then a merge patch `{"spec":{"replicas":
//! N}}` of the `scale` subresource through [`Session::patch`] (field policies, write-ahead
//! journal, operation `scale`) → kubectl's line → with `--timeout`, until the status has the
//! replicas.
//!
//! kubectl sends the same merge patch of the subresource without a precondition
//! (`k8s.io/kubectl/pkg/scale/scale.go` `ScaleSimple`); with one it reads the Scale (`get`
//! on `scale`) and replaces it (`update` on `scale`). Here every scale is the one patch, with
//! the precondition checked on the object read and sent as its `metadata.resourceVersion`,
//! so a change in between is a 409 Conflict: one request shape, one review (`patch` on the
//! `scale` subresource), one inverse.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::changelog::Operation;
use crate::cli::{DryRun, PatchType, ScaleArgs};
use crate::config::Verb;
use crate::guard::{
    GuardError, ObjectRef, PatchRequest, ReconcilerPolicy, SelectArgs, Selection, Session,
};
use crate::output::Printer;
use crate::settings::Settings;
use crate::verbs::{Outcome, VerbError};

/// How often `--timeout` reads the object again while it waits for the replicas: kubectl's
/// scaler polls once a second (`scale.go`, `NewRetryParams(1*time.Second, o.Timeout)`).
pub const WAIT_POLL: Duration = Duration::from_secs(1);

/// The arguments after kubectl's rules (pure).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prepared {
    /// What is selected.
    pub selection: Selection,
    /// The replicas to set.
    pub replicas: i32,
    /// `--current-replicas`, when given (not -1).
    pub current: Option<i64>,
    /// `--timeout`, when not zero.
    pub timeout: Option<Duration>,
}

/// The selecting arguments of `scale` (kubectl's scale has no `-A` and no field selector).
fn select_args(a: &ScaleArgs) -> SelectArgs<'_> {
    SelectArgs {
        args: &a.args,
        selector: a.selector.as_deref(),
        field_selector: None,
        all: a.all,
        all_selects: false,
        all_namespaces: false,
    }
}

/// Applies kubectl's rules (pure): the replicas 0 or more (kubectl's message) and at most
/// 2³¹−1 (`autoscaling/v1` `ScaleSpec.replicas` is an int32: the server could not store
/// more), `--current-replicas` -1 or more, `--timeout` a duration, then the selection.
///
/// # Errors
/// The usage message.
pub fn prepare(a: &ScaleArgs) -> Result<Prepared, String> {
    if a.replicas < 0 {
        return Err(
            "The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0"
                .into(),
        );
    }
    let replicas = i32::try_from(a.replicas).map_err(|_| {
        format!(
            "--replicas={}: the replicas of a scale are a 32-bit number (autoscaling/v1 ScaleSpec), at most {}",
            a.replicas,
            i32::MAX
        )
    })?;
    if a.current_replicas < -1 {
        return Err("The --current-replicas must specify an integer of -1 or greater".into());
    }
    let timeout = crate::config::duration_string::parse_go(&a.timeout)
        .map_err(|e| format!("invalid --timeout: {e}"))?;
    let selection = crate::guard::selection(&select_args(a))?;
    Ok(Prepared {
        selection,
        replicas,
        current: (a.current_replicas != -1).then_some(a.current_replicas),
        timeout: (!timeout.is_zero()).then_some(timeout),
    })
}

/// Runs `scale`.
///
/// Errors in the [`Outcome`]: usage (2: bad flags, a type without a `scale` subresource),
/// denied (3: plugin.yaml, RBAC, a field policy), not found (4), conflict (5: a precondition
/// that does not hold, or the object changed after it was read), any other failure (1).
/// With several objects every one is tried; the exit status is the last failure's.
pub async fn run(s: &Settings, a: &ScaleArgs, p: &mut Printer<'_>) -> Outcome {
    let prepared = match prepare(a) {
        Ok(x) => x,
        Err(e) => return Outcome::early(VerbError::Usage(e)),
    };
    let session = match Session::open(s, p, Verb::Scale).await {
        Ok(x) => x,
        Err(e) => return Outcome::early(e),
    };
    if let Err(e) = check_scalable(&session, &prepared.selection).await {
        return Outcome::early(e);
    }
    let objects = match session
        .gather(Verb::Scale, &prepared.selection, &select_args(a))
        .await
    {
        Ok(o) => o,
        Err(e) => return Outcome::early(e),
    };
    let resource = objects.first().map(|o| o.t.group_resource());
    if objects.is_empty() {
        return Outcome {
            resource,
            result: Err(VerbError::io("no objects passed to scale")),
        };
    }
    if a.resource_version.is_some() && objects.len() > 1 {
        return Outcome {
            resource,
            result: Err(VerbError::Usage(
                "cannot use --resource-version with multiple resources".into(),
            )),
        };
    }
    let mut last: Option<VerbError> = None;
    for obj in &objects {
        match scale_one(&session, obj, a, &prepared, p).await {
            Ok(()) => {}
            Err(e) => {
                if let Some(prev) = last.replace(e) {
                    report(&prev, p);
                }
            }
        }
    }
    Outcome {
        resource,
        result: last.map_or(Ok(()), Err),
    }
}

/// Prints a failure of one object as the app prints the last one.
fn report(e: &VerbError, p: &mut Printer<'_>) {
    match e {
        VerbError::Api(_) => p.err_line(&e.to_string()),
        _ => p.err_line(&format!("error: {e}")),
    }
}

/// Refuses, before any request but discovery, a TYPE whose discovery lists no `scale`
/// subresource: the patch of `<resource>/scale` could only be answered 404.
async fn check_scalable(session: &Session<'_>, selection: &Selection) -> Result<(), VerbError> {
    let types: Vec<&str> = match selection {
        Selection::Named(t) => t.iter().map(|t| t.type_name.as_str()).collect(),
        Selection::Selected(t) => t.iter().map(String::as_str).collect(),
    };
    for ty in types {
        let t = session.resolve(ty).await?;
        if !t.has_subresource("scale") {
            return Err(VerbError::Usage(format!(
                "{} has no scale subresource, so it cannot be scaled (scalable: deployments, replicasets, statefulsets, replicationcontrollers, and custom resources whose CRD enables the scale subresource)",
                t.group_resource()
            )));
        }
    }
    Ok(())
}

/// kubectl's line for one scaled object (pure): `deployment.apps/web scaled`, with
/// ` (dry run)` or ` (server dry run)`; with `-o name`, `deployment.apps/web`
/// (cli-runtime's `NamePrinter` with operation `scaled`).
pub fn line(display: &str, dry_run: DryRun, name_only: bool) -> String {
    if name_only {
        return format!("{display}\n");
    }
    let dry = match dry_run {
        DryRun::None => "",
        DryRun::Client => " (dry run)",
        DryRun::Server => " (server dry run)",
    };
    format!("{display} scaled{dry}\n")
}

/// The replicas the before-state holds (`spec.replicas`; a missing field is the API's
/// default, 1).
fn replicas_of(before: &Value) -> i64 {
    before
        .pointer("/spec/replicas")
        .and_then(Value::as_i64)
        .unwrap_or(1)
}

/// The patch body (pure): the replicas, and the resourceVersion the object must still
/// have when a precondition was asked for.
pub fn body(replicas: i32, resource_version: Option<&str>) -> Value {
    let mut b = json!({"spec": {"replicas": replicas}});
    if let Some(rv) = resource_version {
        b["metadata"] = json!({"resourceVersion": rv});
    }
    b
}

/// The preconditions checked on the object read (pure), in kubectl's words
/// (`pkg/scale/scale.go` `PreconditionError`): the resourceVersion to pin the patch to, or
/// why the scale does not happen.
///
/// # Errors
/// [`VerbError::Conflict`] (exit 5) for a precondition that does not hold; usage (2) when it
/// cannot be checked because the object cannot be read.
pub fn preconditions(
    a: &ScaleArgs,
    current: Option<i64>,
    before: Option<&Value>,
) -> Result<Option<String>, VerbError> {
    let rv_now = before
        .and_then(|b| b.pointer("/metadata/resourceVersion"))
        .and_then(Value::as_str);
    if let Some(want) = current {
        let Some(b) = before else {
            return Err(VerbError::Usage(
                "--current-replicas needs the object's current size, and reading it is forbidden; ask for get on it (nothing was sent)".into(),
            ));
        };
        let was = replicas_of(b);
        if was != want {
            return Err(VerbError::Conflict(format!(
                "Expected replicas to be {want}, was {was}"
            )));
        }
    }
    if let Some(want) = &a.resource_version {
        if let Some(was) = rv_now
            && was != want
        {
            return Err(VerbError::Conflict(format!(
                "Expected resource version to be {}, was {was}",
                crate::base::echo::bare(want)
            )));
        }
        return Ok(Some(want.clone()));
    }
    Ok(current.and(rv_now.map(str::to_string)))
}

/// Scales one object: reviews, the read, the preconditions, the journaled patch of its
/// `scale` subresource, the line, then the wait.
async fn scale_one(
    session: &Session<'_>,
    obj: &ObjectRef,
    a: &ScaleArgs,
    prepared: &Prepared,
    p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    let probe_body = body(prepared.replicas, None);
    let probe = request(a, &probe_body);
    let mut grant = session
        .authorize_change(obj, &probe.as_change(), probe.intent(obj, None))
        .await?;
    let before = session
        .before_state(&mut grant, obj, probe.intent(obj, None))
        .await?;
    let pinned = preconditions(a, prepared.current, before.as_ref())?;
    let sent = body(prepared.replicas, pinned.as_deref());
    let req = request(a, &sent);
    let patched = session.patch(&grant, obj, &req, before.as_ref()).await?;
    if let Some(owner) = &patched.reconciler {
        p.err_line(&owner.patch_warning(&obj.display()));
    }
    p.out(&line(
        &obj.display(),
        a.dry_run.strategy,
        a.output.is_some(),
    ))?;
    if let Some(timeout) = prepared.timeout
        && a.dry_run.strategy == DryRun::None
    {
        wait_replicas(session, &grant, obj, prepared.replicas, timeout).await?;
    }
    Ok(())
}

/// The patch request of a scale with `body`.
fn request<'a>(a: &'a ScaleArgs, body: &'a Value) -> PatchRequest<'a> {
    PatchRequest {
        operation: Operation::Scale,
        patch_type: PatchType::Merge,
        body,
        dry_run: a.dry_run.strategy,
        subresource: Some("scale"),
        field_manager: &a.field_manager,
        reconciler: ReconcilerPolicy::Warn,
    }
}

/// `--timeout`: reads the object every [`WAIT_POLL`] until its status has the replicas
/// asked for (`status.replicas` equal to `spec.replicas` and to `replicas`), or someone set
/// another size since (kubectl's `scaleHasDesiredReplicas` stops then too).
///
/// # Errors
/// kubectl's `timed out waiting for "NAME" to be synced` (exit 1); a read that fails; a
/// read the grant does not cover (the object cannot be read: usage, nothing to wait on).
async fn wait_replicas(
    session: &Session<'_>,
    grant: &crate::guard::Grant,
    obj: &ObjectRef,
    replicas: i32,
    timeout: Duration,
) -> Result<(), VerbError> {
    let deadline = Instant::now() + timeout;
    loop {
        let Some(now) = session.read(grant, obj).await.map_err(GuardError::from)? else {
            return Err(VerbError::Usage(format!(
                "--timeout waits by reading {}, and reading it is forbidden; ask for get on it",
                obj.display()
            )));
        };
        let spec = now.pointer("/spec/replicas").and_then(Value::as_i64);
        let status = now
            .pointer("/status/replicas")
            .and_then(Value::as_i64)
            .unwrap_or(0);
        if spec != Some(i64::from(replicas)) || status == i64::from(replicas) {
            return Ok(());
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(VerbError::io(format!(
                "timed out waiting for \"{}\" to be synced",
                obj.name
            )));
        }
        tokio::time::sleep(WAIT_POLL.min(left)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &[&str]) -> ScaleArgs {
        let mut argv = vec!["kubectl-myops", "scale"];
        argv.extend_from_slice(line);
        match <crate::cli::Cli as clap::Parser>::try_parse_from(argv)
            .unwrap()
            .command
        {
            crate::cli::Command::Scale(a) => a,
            _ => unreachable!(),
        }
    }

    #[test]
    fn replicas_negative_or_beyond_int32_are_refused_in_kubectls_words() {
        assert_eq!(
            prepare(&args(&["deploy", "w", "--replicas=-1"])).unwrap_err(),
            "The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0"
        );
        let e = prepare(&args(&["deploy", "w", "--replicas=2147483648"])).unwrap_err();
        assert!(e.contains("at most 2147483647"), "{e}");
        assert_eq!(
            prepare(&args(&[
                "deploy",
                "w",
                "--replicas=1",
                "--current-replicas=-2"
            ]))
            .unwrap_err(),
            "The --current-replicas must specify an integer of -1 or greater"
        );
        let ok = prepare(&args(&[
            "deploy/w",
            "--replicas=2147483647",
            "--timeout=2s",
        ]))
        .unwrap();
        assert_eq!(ok.replicas, i32::MAX);
        assert_eq!(ok.timeout, Some(Duration::from_secs(2)));
        assert!(ok.selection.single());
    }

    #[test]
    fn preconditions_are_kubectls_and_pin_the_resource_version() {
        let before = json!({"metadata": {"resourceVersion": "7"}, "spec": {"replicas": 2}});
        let a = args(&["deploy", "w", "--replicas=3"]);
        assert_eq!(preconditions(&a, None, Some(&before)).unwrap(), None);
        assert_eq!(
            preconditions(&a, Some(2), Some(&before)).unwrap(),
            Some("7".into())
        );
        let e = preconditions(&a, Some(3), Some(&before)).unwrap_err();
        assert_eq!(e.to_string(), "Expected replicas to be 3, was 2");
        assert_eq!(e.exit_status(), crate::exit::ExitStatus::Conflict);
        let a = args(&["deploy", "w", "--replicas=3", "--resource-version=6"]);
        assert_eq!(
            preconditions(&a, None, Some(&before))
                .unwrap_err()
                .to_string(),
            "Expected resource version to be 6, was 7"
        );
        assert_eq!(body(3, Some("7"))["metadata"]["resourceVersion"], "7");
        assert_eq!(body(0, None), json!({"spec": {"replicas": 0}}));
    }

    #[test]
    fn lines_are_kubectls() {
        assert_eq!(
            line("deployment.apps/web", DryRun::None, false),
            "deployment.apps/web scaled\n"
        );
        assert_eq!(
            line("deployment.apps/web", DryRun::Server, false),
            "deployment.apps/web scaled (server dry run)\n"
        );
        assert_eq!(
            line("deployment.apps/web", DryRun::Client, true),
            "deployment.apps/web\n"
        );
    }
}
