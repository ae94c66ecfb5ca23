//! How a mutation's request ended, as the journal records it (pure): the one judgement of a
//! failed request — failed, or outcome unknown — for every verb ([`settle`]).

use super::Recorded;
use crate::changelog::{self, Entry};
use crate::cluster::ApiError;
use crate::guard::GuardError;

/// The `result` of the outcome record of a request that failed with `e` (pure):
/// `outcome unknown: ERROR` ([`changelog::LOST`]) when the answer was lost after the request
/// may have reached the server ([`ApiError::may_have_applied`]) and it was no dry run (a dry run
/// changes nothing either way), so the entry reads as outcome unknown for every verb
/// (`changelog reconcile`, `rollback` and `undelete` decide it from the live object);
/// otherwise the error itself ([`outcome_text`]).
pub(crate) fn failed_outcome(e: &ApiError, dry_run: bool) -> String {
    if !dry_run && e.may_have_applied() {
        return format!("{}: {}", changelog::LOST, outcome_text(e));
    }
    outcome_text(e)
}

/// The complete record of `intent` whose request ended in `result`, and what the caller
/// gets back (pure) — the one place a mutation's outcome is judged, for
/// [`Session::journaled_with`] and [`Session::apply_batch`] alike: an answer is the record
/// `recorded` makes of it (with the answer's `Audit-Id`); a failure is [`failed_outcome`],
/// and one that may have been carried out ([`ApiError::may_have_applied`]: the answer was
/// lost or could not be read after the request was sent) is returned as [`ApiError::Lost`]
/// naming the entry, without an `Audit-Id` (whatever was captured came before it). So no
/// verb can journal such an attempt as failed, which `rollback` and `drift` would skip as
/// "changed nothing".
pub(crate) fn settle<T>(
    intent: &Entry,
    result: Result<T, GuardError>,
    recorded: impl FnOnce(&T) -> Recorded,
    elapsed: f64,
    audit_id: Option<String>,
) -> (Entry, Result<T, GuardError>) {
    let (text, rv, after, lost) = match &result {
        Ok(v) => {
            let r = recorded(v);
            let text = r.result.unwrap_or_else(|| changelog::SUCCESS.to_string());
            (text, r.resource_version, r.after, false)
        }
        Err(GuardError::Api(e)) => (
            failed_outcome(e, intent.dry_run),
            None,
            None,
            !intent.dry_run && e.may_have_applied(),
        ),
        Err(e) => (e.to_string(), None, None, false),
    };
    let mut record = intent.with_outcome(text, rv, elapsed);
    record.after = after;
    record.audit_id = audit_id.filter(|_| !lost);
    let result = match result {
        Err(GuardError::Api(e)) if lost => Err(GuardError::Api(ApiError::Lost {
            entry: record.id.clone(),
            source: Box::new(e),
        })),
        other => other,
    };
    (record, result)
}

/// The error as the one-line `result` of a record (the Status message when the server answered).
pub(crate) fn outcome_text(e: &ApiError) -> String {
    match e {
        ApiError::Server {
            code,
            reason,
            message,
        } => format!("{reason} ({code}): {message}"),
        other => other.to_string(),
    }
}
