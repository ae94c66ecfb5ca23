//! The inverses that create or delete a whole object: a deleted object (a CRD prune, a
//! rollback that deleted) is created again from its before-state; a created one (a CRD
//! apply that created the CRD, a rollback that re-created an object) is deleted, on the
//! precondition that it is still the object the entry made.

use serde_json::Value;

use super::undo::Run;
use crate::changelog::Operation;
use crate::cli::DryRun;
use crate::guard::change::Change;
use crate::guard::change::restore::written_since;
use crate::guard::{GuardError, Sent};
use crate::history::undelete::{Undo, read_log};
use crate::output::Printer;
use crate::output::objects::result_line;
use crate::verbs::{RollbackError, VerbError};

/// Creates the entry's object again through the one piece of code that re-creates
/// ([`crate::history::undelete`]): a `delete` entry is undeleted (journaled as `undelete`,
/// `… undeleted (ID)`, a namespace's or CRD's objects after it); a CRD prune or a rollback
/// that deleted is rolled back (`… rolled back (ID): created again from its before-state`).
/// A CRD's custom resources deleted by a prune are not in the change log, which a note on
/// stderr says.
///
/// # Errors
/// Refusals (2, 3, 5: the object exists again, its namespace is Terminating), the server's
/// answer, journal errors.
pub async fn create_again(run: &Run<'_>, p: &mut Printer<'_>) -> Result<(), VerbError> {
    let (session, obj, entry, args) = (run.session, run.obj, run.entry, run.args);
    let log = read_log(&session.settings().home).map_err(VerbError::io)?;
    let undo = Undo {
        session,
        entries: &log.entries,
        latest: &log.latest,
        contradicted: &log.contradicted,
        dry_run: args.dry_run.strategy,
        field_manager: &args.field_manager,
        force: args.force,
    };
    undo.undelete(entry, p).await?;
    if obj.t.api.kind == "CustomResourceDefinition" && entry.operation != Operation::Delete {
        p.err_line(&format!(
            "note: the custom resources of {} were deleted with it; the change log does not hold them, so they are not restored",
            crate::base::echo::capped(&obj.name, 253)
        ));
    }
    Ok(())
}

/// Refuses (exit 5, nothing sent) to create or delete an object a reconciler owns — it would
/// put it back or take it away again at its next sync — unless `--force`, as a restore does
/// ([`crate::rules::reconciler::detect`] on the object to create, or the live one to delete).
///
/// # Errors
/// [`GuardError::Reconciled`].
fn refuse_owned(run: &Run<'_>, object: &Value) -> Result<(), VerbError> {
    match crate::rules::reconciler::detect(object) {
        Some(owner) if !run.args.force => Err(GuardError::Reconciled {
            object: run.obj.display(),
            owner,
        }
        .into()),
        _ => Ok(()),
    }
}

/// Deletes the object the entry created, on the preconditions `uid` (the created object's)
/// and `rv_after` (the resourceVersion the entry left) — or, when only status writes (or
/// our own) came after it, the resourceVersion read just now; printing
/// `… rolled back (ID): deleted`.
///
/// # Errors
/// [`RollbackError::Gone`] (4), [`RollbackError::Replaced`] (4), [`RollbackError::Changed`]
/// (5, unless `--force`), refusals (3), the server's answer, journal errors.
pub async fn delete_created(
    run: &Run<'_>,
    uid: Option<&str>,
    rv_after: Option<&str>,
    p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    let (session, obj, entry, args) = (run.session, run.obj, run.entry, run.args);
    let dry_run = args.dry_run.strategy;
    let asked = Change::Delete {
        uid: uid.map(str::to_string),
        resource_version: rv_after.map(str::to_string),
        propagation: None,
        grace_period: None,
        unrecoverable: false,
    };
    let intent = || asked.intent(Operation::Rollback, obj, dry_run != DryRun::None, None);
    let mut grant = session.authorize_change(obj, &asked, intent()).await?;
    let current =
        run.live(&mut grant, intent())
            .await?
            .ok_or_else(|| RollbackError::NotRestorable {
                id: entry.id.clone(),
                why: "the object cannot be read now (forbidden)".into(),
            })?;
    run.same_object(&current, uid)?;
    let rv_now = current
        .pointer("/metadata/resourceVersion")
        .and_then(Value::as_str);
    refuse_owned(run, &current)?;
    // A resourceVersion that moved since the entry is taken as it is now only for the object
    // the entry created (its uid matched above) that only status writes or our own changed:
    // without the uid, another object of the same name could stand there now.
    let resource_version = if rv_now == rv_after || uid.is_some() && rv_after.is_none() {
        rv_after
    } else if args.force
        || uid.is_some() && !written_since(&current, &entry.timestamp, &args.field_manager)
    {
        rv_now
    } else {
        return Err(run.changed(&current, &Value::Null).into());
    };
    let change = Change::Delete {
        uid: uid.map(str::to_string),
        resource_version: resource_version.map(str::to_string),
        propagation: None,
        grace_period: None,
        unrecoverable: false,
    };
    let sent = Sent {
        operation: Operation::Rollback,
        change: &change,
        before: Some(&current),
        dry_run,
        field_manager: &args.field_manager,
        id: None,
    };
    session.send_change(&grant, obj, sent).await?;
    let line = result_line(
        &obj.display(),
        &format!("rolled back ({}): deleted", entry.id),
        true,
        dry_run,
    );
    p.out(&format!("{line}\n"))?;
    // A deleted CRD no longer widens the plugin.yaml boundary (the registry lists what this
    // tool registered and the cluster still serves).
    if obj.t.api.kind == "CustomResourceDefinition"
        && dry_run == DryRun::None
        && let Err(e) =
            crate::crds::Registry::remove(&session.settings().home, std::slice::from_ref(&obj.name))
    {
        p.err_line(&format!("warning: {e}"));
    }
    Ok(())
}
