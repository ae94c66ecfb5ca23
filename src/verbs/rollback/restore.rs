//! The inverse of a patch (and of a CRD apply to an existing CRD): the fields the change
//! touched put back from its before-state, by a JSON patch guarded by a `test` of the
//! resourceVersion the change left — refused when someone changed the object since (unless
//! `--force`), when the live object is another one (a new uid), when a touched field is one
//! a rollback does not write, and judged by the live object when the outcome is unknown.

use serde_json::Value;

use super::undo::Run;
use crate::changelog::Operation;
use crate::cli::PatchType;
use crate::guard::change::restore::{
    holds_after, holds_before, listed, restorable, rollback_ops, secret_kind, unrestorable_changes,
};
use crate::guard::{Grant, PatchRequest, ReconcilerPolicy};
use crate::output::Printer;
use crate::output::objects::print_result;
use crate::verbs::{RollbackError, VerbError};

/// What a restore puts back.
pub struct Restore<'a> {
    /// The object before the change.
    pub before: &'a Value,
    /// The fields the change touched.
    pub touched: &'a [String],
    /// The resourceVersion the change left, if journaled.
    pub rv_after: Option<&'a str>,
}

/// The restore of `r` on `run`'s object (see the module doc); `rerun` as in
/// [`super::roll_back_entry`].
///
/// # Errors
/// [`RollbackError`] (exit 4, 2, 5), refusals (3), API errors.
pub async fn restore(
    run: &Run<'_>,
    r: &Restore<'_>,
    rerun: bool,
    p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    let mut attempt = 1;
    loop {
        match restore_once(run, r, rerun, p).await? {
            Sent::Done => return Ok(()),
            Sent::Raced(now) if attempt == RESTORE_ATTEMPTS => {
                return Err(run.changed(&now, r.before).into());
            }
            Sent::Raced(_) => attempt += 1,
        }
    }
}

/// How often a restore is tried when a write between its read and its patch left every
/// touched field as the change left it (a Deployment's controller writes its status and
/// revision annotation right after a change): the write does not refuse the rollback, so the
/// restore reads again and tests the new resourceVersion, as client-go's `RetryOnConflict`
/// retries an update on a conflict.
pub const RESTORE_ATTEMPTS: u32 = 3;

/// What one try of a restore came to.
enum Sent {
    /// Restored, refused with nothing to do, or nothing to roll back (printed).
    Done,
    /// A write that kept every touched field as the change left it came between the read
    /// and the patch (the object as read after it): try again.
    Raced(Value),
}

/// One try of [`restore`].
async fn restore_once(
    run: &Run<'_>,
    r: &Restore<'_>,
    rerun: bool,
    p: &mut Printer<'_>,
) -> Result<Sent, VerbError> {
    let (session, obj, entry, args) = (run.session, run.obj, run.entry, run.args);
    // The request is built before it is authorized, so a refusal journals exactly it.
    let placeholder = Value::Array(Vec::new());
    let mut req = PatchRequest {
        operation: Operation::Rollback,
        patch_type: PatchType::Json,
        body: &placeholder,
        dry_run: args.dry_run.strategy,
        subresource: None,
        field_manager: &args.field_manager,
        // A reconciler would revert the restore at its next sync: refused unless --force
        // (checked on the live object by the guarded path, journaled when forced).
        reconciler: if args.force {
            ReconcilerPolicy::Force
        } else {
            ReconcilerPolicy::Refuse
        },
    };
    let mut grant = session
        .authorize_change(obj, &req.as_change(), req.intent(obj, None))
        .await?;
    let current = run
        .live(&mut grant, req.intent(obj, None))
        .await?
        .ok_or_else(|| RollbackError::NotRestorable {
            id: entry.id.clone(),
            why: "the object cannot be read now (forbidden)".into(),
        })?;
    run.same_object(&current, entry.uid.as_deref())?;
    // Fields a rollback cannot write that the change did alter: restoring only the rest
    // would be reported as a rollback that did not happen.
    let blocked = unrestorable_changes(&current, r.before, r.touched);
    if !blocked.is_empty() {
        return Err(RollbackError::NotRestorable {
            id: entry.id.clone(),
            why: format!(
                "it changed {}, which a rollback does not write (status belongs to the object's controllers, metadata other than labels and annotations to the server); nothing was sent",
                listed(&blocked, 10)
            ),
        }
        .into());
    }
    let Some(rv_test) = guard_version(run, r, &current, rerun, p)? else {
        return Ok(Sent::Done);
    };
    let ops = rollback_ops(&current, r.before, r.touched, rv_test, args.force).map_err(|failed| {
        RollbackError::NotRestorable {
            id: entry.id.clone(),
            why: format!(
                "{} cannot be put back into {} (the change log stored a masked value, or the object's shape changed); restore by hand — nothing was sent",
                listed(&failed, 10),
                obj.display()
            ),
        }
    })?;
    if ops.iter().all(|o| o["op"] == "test") {
        p.out(&format!("{}: nothing to roll back (the fields entry {} changed already hold their earlier values)\n", obj.display(), entry.id))?;
        return Ok(Sent::Done);
    }
    let body = Value::Array(ops);
    req.body = &body;
    #[cfg(debug_assertions)]
    crate::guard::mutation::test_hold("before-restore");
    send_restore(run, r, &grant, &req, &current, rv_test, p).await
}

/// The resourceVersion the restore `test`s — `Some(None)` for none (`--force`, or an
/// outcome unknown that `--force` restores over), `None` when there is nothing to do (the
/// fields already hold their earlier values; said on stdout).
///
/// # Errors
/// [`RollbackError::Changed`] (exit 5) when someone changed the object since the entry,
/// [`RollbackError::OutcomeUnknown`] (exit 5) when the entry has no outcome record and the
/// object no longer holds the before-state.
fn guard_version<'r>(
    run: &Run<'_>,
    r: &Restore<'r>,
    current: &'r Value,
    rerun: bool,
    p: &mut Printer<'_>,
) -> Result<Option<Option<&'r str>>, VerbError> {
    let (obj, entry, args) = (run.obj, run.entry, run.args);
    // An intent without an outcome: the request may or may not have been applied. The live
    // object decides; nothing is restored on a guess.
    if rerun && !entry.outcome_unknown() && holds_before(current, r.before, r.touched) {
        p.out(&format!("{}: nothing to roll back (the fields entry {} changed already hold their earlier values)\n", obj.display(), entry.id))?;
        return Ok(None);
    }
    if entry.outcome_unknown() {
        if holds_before(current, r.before, r.touched) {
            p.out(&format!("{}: nothing to roll back (the outcome of entry {} is unknown, and the fields it would change still hold their earlier values)\n", obj.display(), entry.id))?;
            return Ok(None);
        }
        if !args.force {
            return Err(RollbackError::OutcomeUnknown {
                object: obj.display(),
                id: entry.id.clone(),
            }
            .into());
        }
        return Ok(Some(None));
    }
    let rv_now = current
        .pointer("/metadata/resourceVersion")
        .and_then(Value::as_str)
        .unwrap_or("");
    if args.force || Some(rv_now) == r.rv_after {
        return Ok(Some(r.rv_after));
    }
    // Writes since that left every touched field as the change left it (a Deployment's
    // revision annotation and status, written by its controller right after a patch) are
    // kept: the restore tests the resourceVersion read just now instead.
    match &entry.after {
        Some(after) if holds_after(current, after, r.touched) => Ok(Some(Some(rv_now))),
        _ => Err(run.changed(current, r.before).into()),
    }
}

/// Sends the restoring patch `req` and checks the answer: every field put back must read as
/// its before-state, else the rollback is an error, not "rolled back".
async fn send_restore(
    run: &Run<'_>,
    r: &Restore<'_>,
    grant: &Grant,
    req: &PatchRequest<'_>,
    current: &Value,
    rv_test: Option<&str>,
    p: &mut Printer<'_>,
) -> Result<Sent, VerbError> {
    let (session, obj, entry, args) = (run.session, run.obj, run.entry, run.args);
    match session.patch(grant, obj, req, Some(current)).await {
        Ok(patched) => {
            let after = patched.after;
            // Never report a restore that did not happen: every field put back must read
            // as its before-state in the server's answer.
            let missed: Vec<String> = r
                .touched
                .iter()
                .filter(|p| restorable(p, secret_kind(r.before)))
                .filter(|p| after.pointer(p) != r.before.pointer(p))
                .map(|p| crate::rules::diff::dotted(p, r.before))
                .collect();
            if !missed.is_empty() {
                return Err(VerbError::io(format!(
                    "{} was patched by the rollback of entry {}, but the server's answer does not hold the earlier value of {}; check the object before trying again",
                    obj.display(),
                    entry.id,
                    listed(&missed, 10)
                )));
            }
            print_result(
                p,
                &obj.t,
                &obj.display(),
                &format!("rolled back ({})", entry.id),
                Some(current),
                &after,
                args.dry_run.strategy,
                true,
                None,
            )?;
            Ok(Sent::Done)
        }
        Err(e) => {
            // A failed resourceVersion test means someone wrote between our read and the
            // patch: a write that left every touched field as the change left it is tried
            // again ([`RESTORE_ATTEMPTS`]), any other refuses the rollback.
            if rv_test.is_some()
                && let Ok(Some(now)) = session.read(grant, obj).await
                && now.pointer("/metadata/resourceVersion")
                    != current.pointer("/metadata/resourceVersion")
            {
                let kept = entry
                    .after
                    .as_ref()
                    .is_some_and(|after| holds_after(&now, after, r.touched));
                if kept {
                    return Ok(Sent::Raced(now));
                }
                return Err(run.changed(&now, r.before).into());
            }
            Err(e.into())
        }
    }
}
