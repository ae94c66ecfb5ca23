//! `delete`: kubectl's delete on the guarded path (docs/delete.md).
//!
//! Order: kubectl's argument rules ([`args::select`]) → session (plugin.yaml verb `delete`,
//! the change log proven writable) → for a selector or `--all`, the `list` review and the
//! list → a preview on stderr when more than one object goes (stdout stays kubectl's) → per
//! object: the boundary and the `delete` review, the read (the before-state), then
//! `Change::Delete` with the uid and resourceVersion read as preconditions between its intent
//! and outcome records → kubectl's line → with `--wait`, until every object is gone.

pub mod args;
pub mod container;
pub mod dependents;

use crate::changelog::Operation;
use crate::cli::{DeleteArgs, DryRun};
use crate::config::Verb;
use crate::guard::delete::{Gone, identity};
use crate::guard::{Change, GuardError, ObjectRef, Sent, Session};
use crate::output::Printer;
use crate::settings::Settings;
use crate::verbs::{Outcome, VerbError};

/// How many objects of one type the preview names before it counts them.
pub const PREVIEW_NAMES: usize = 20;

/// Runs `delete`.
///
/// Errors in the [`Outcome`]: usage (2), denied (3), not found (4, unless
/// `--ignore-not-found`), conflict (5: the object changed after it was read), a wait that
/// timed out or any other failure (1). With several objects every one is tried; the exit
/// status is the last failure's.
pub async fn run(s: &Settings, a: &DeleteArgs, p: &mut Printer<'_>) -> Outcome {
    let selection = match args::select(a) {
        Ok(x) => x,
        Err(e) => return Outcome::early(VerbError::Usage(e)),
    };
    let timeout = match args::timeout(&a.timeout) {
        Ok(t) => t,
        Err(e) => return Outcome::early(VerbError::Usage(e)),
    };
    let session = match Session::open(s, p, Verb::Delete).await {
        Ok(x) => x,
        Err(e) => return Outcome::early(e),
    };
    let objects = match session
        .gather(Verb::Delete, &selection, &args::select_args(a))
        .await
    {
        Ok(o) => o,
        Err(e) => return Outcome::early(e),
    };
    let resource = objects.first().map(|o| o.t.group_resource());
    if objects.is_empty() {
        let r = p.out("No resources found\n").map_err(VerbError::from);
        return Outcome {
            resource,
            result: r,
        };
    }
    // In a protected scope the whole preview comes before the question, even for one object.
    let protected = a.dry_run.strategy == DryRun::None
        && objects
            .iter()
            .any(|o| session.protects(Operation::Delete, o));
    if objects.len() > 1 || protected {
        preview(&objects, p);
        let roots: Vec<dependents::Root> = objects.iter().map(dependents::Root::of_ref).collect();
        for line in dependents::preview(&session, &roots, a.cascade).await {
            p.err_line(&line);
        }
    }
    let result = delete_all(&session, &objects, a, timeout, p).await;
    Outcome { resource, result }
}

/// The preview on stderr: the objects by name, a count per type above [`PREVIEW_NAMES`].
fn preview(objects: &[ObjectRef], p: &mut Printer<'_>) {
    p.err_line(&format!("about to delete {} objects:", objects.len()));
    let mut types: Vec<String> = Vec::new();
    for o in objects {
        if !types.contains(&o.t.name_prefix()) {
            types.push(o.t.name_prefix());
        }
    }
    for t in types {
        let of: Vec<&ObjectRef> = objects.iter().filter(|o| o.t.name_prefix() == t).collect();
        if of.len() > PREVIEW_NAMES {
            p.err_line(&format!("  {t}: {} objects", of.len()));
            continue;
        }
        for o in of {
            let place = o
                .namespace
                .as_ref()
                .map(|n| format!(" (namespace {n})"))
                .unwrap_or_default();
            p.err_line(&format!("  {}{place}", o.display()));
        }
    }
}

/// Deletes every object, then waits for them; a failure is printed and the next object tried.
async fn delete_all(
    session: &Session<'_>,
    objects: &[ObjectRef],
    a: &DeleteArgs,
    timeout: std::time::Duration,
    p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    let mut last: Option<VerbError> = None;
    let mut deleted: Vec<(&ObjectRef, Option<String>)> = Vec::new();
    let fail = |e: VerbError, p: &mut Printer<'_>, last: &mut Option<VerbError>| {
        if let Some(prev) = last.take() {
            p.err_line(&prev.line());
        }
        *last = Some(e);
    };
    for obj in objects {
        match delete_one(session, obj, a, p).await {
            Ok(None) => {}
            Ok(Some(uid)) => {
                let line = args::line(
                    &obj.t.name_prefix(),
                    &obj.name,
                    obj.namespace.as_deref(),
                    a.dry_run.strategy,
                    a.output.is_some(),
                );
                if let Err(e) = p.out(&line) {
                    return Err(e.into());
                }
                deleted.push((obj, uid));
            }
            Err(e) => fail(e.into(), p, &mut last),
        }
    }
    if a.wait && a.dry_run.strategy == DryRun::None {
        for (obj, uid) in deleted {
            match session.wait_gone(obj, uid.as_deref(), timeout).await {
                Ok(Gone::Yes) => {}
                Ok(Gone::TimedOut { finalizers }) => {
                    fail(timed_out(obj, &finalizers), p, &mut last)
                }
                Err(e) => fail(e.into(), p, &mut last),
            }
        }
    }
    last.map_or(Ok(()), Err)
}

/// kubectl's timeout message, naming the finalizers that still hold the object.
fn timed_out(obj: &ObjectRef, finalizers: &[String]) -> VerbError {
    let held = if finalizers.is_empty() {
        String::new()
    } else {
        format!(
            " (finalizers still present: {})",
            finalizers
                .iter()
                .map(|f| crate::base::echo::bare(f))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    VerbError::Io(
        format!(
            "timed out waiting for the condition on {}/{}{held}",
            obj.t.api.plural, obj.name
        )
        .into(),
    )
}

/// Deletes one object: reviews, the read, then the DELETE with the read's uid and
/// resourceVersion as preconditions. `Ok(None)`: not found and `--ignore-not-found`;
/// `Ok(Some(uid))`: deleted (or dry-run), with the uid read.
async fn delete_one(
    session: &Session<'_>,
    obj: &ObjectRef,
    a: &DeleteArgs,
    p: &mut Printer<'_>,
) -> Result<Option<Option<String>>, GuardError> {
    let dry = a.dry_run.strategy != DryRun::None;
    let probe = Change::Delete {
        uid: None,
        resource_version: None,
        propagation: Some(args::propagation(a.cascade)),
        grace_period: args::grace_period(a),
        unrecoverable: false,
    };
    let mut grant = session
        .authorize_change(obj, &probe, probe.intent(Operation::Delete, obj, dry, None))
        .await?;
    // Under --ignore-not-found a missing object is no attempt: kubectl says nothing of it, and
    // nothing is journaled.
    let intent = probe.intent(Operation::Delete, obj, dry, None);
    let read = if a.ignore_not_found {
        session
            .before_state_if_present(&mut grant, obj, intent)
            .await
    } else {
        session.before_state(&mut grant, obj, intent).await
    };
    let before = match read {
        Ok(Some(b)) => b,
        Ok(None) => {
            return Err(GuardError::Usage(format!(
                "{} cannot be read, so its state cannot be journaled before the delete; ask for get on {} (nothing was sent)",
                obj.display(),
                obj.t.group_resource()
            )));
        }
        Err(GuardError::Api(crate::cluster::ApiError::Server { code: 404, .. }))
            if a.ignore_not_found =>
        {
            return Ok(None);
        }
        Err(e) => return Err(e),
    };
    let (uid, resource_version) = identity(&before);
    #[cfg(debug_assertions)]
    crate::guard::mutation::test_hold("before-delete");
    let change = Change::Delete {
        uid: uid.clone(),
        resource_version,
        propagation: Some(args::propagation(a.cascade)),
        grace_period: args::grace_period(a),
        unrecoverable: false,
    };
    let sent = Sent {
        operation: Operation::Delete,
        change: &change,
        before: Some(&before),
        dry_run: a.dry_run.strategy,
        field_manager: crate::cli::DEFAULT_FIELD_MANAGER,
        id: None,
    };
    let answer = if container::is_container(obj) {
        container::delete(session, &grant, obj, sent, a, p).await
    } else {
        session.send_change(&grant, obj, sent).await
    };
    match answer {
        Ok(_) => Ok(Some(uid)),
        Err(GuardError::Api(crate::cluster::ApiError::Server { code: 404, .. }))
            if a.ignore_not_found =>
        {
            Ok(None)
        }
        Err(e) => Err(e),
    }
}
