//! `changelog reconcile [ID]` (issue 17): finds the real outcome of an intent whose outcome
//! record is missing — the process was killed between the two, so `changelog list` shows
//! `outcome unknown` — by reading the live object (in the entry's context, through the
//! guarded path) and judging it against the intent's before-state and patch
//! ([`history::reconcile`], pure). A decided outcome is appended as the entry's outcome
//! record (`success` or `not applied`, with `reconciled` saying what was seen), chained like
//! every record; an undecidable one is reported and left unknown. Nothing is sent to the
//! object: nothing is rolled back or retried on a guess.

use serde_json::Value;

use crate::changelog::{self, Entry, object_of};
use crate::guard::{Mode, Session};
use crate::history::live::Live;
use crate::history::{self, Verdict};
use crate::output::Printer;
use crate::settings::Settings;
use crate::verbs::{HistoryError, RollbackError, VerbError};

/// The `result` of a reconciled outcome record whose patch was not applied.
pub const NOT_APPLIED: &str = "not applied";

/// Runs `changelog reconcile`: entry `id`, or every entry whose outcome is unknown.
///
/// # Errors
/// An unknown id (exit 4); [`HistoryError::Undecided`] (exit 5) when the live object could
/// not decide some entry (each named on stderr, left unknown); a journal that cannot be
/// written (exit 1); session errors (kubeconfig, …).
pub async fn run(
    s: &Settings,
    entries: Vec<Entry>,
    id: Option<&str>,
    p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    let latest = changelog::latest(entries);
    let targets: Vec<Entry> = match id {
        Some(id) => {
            let e = latest
                .into_iter()
                .find(|e| e.id == id)
                .ok_or_else(|| RollbackError::NoEntry(crate::echo::capped(id, 64)))?;
            if !e.outcome_unknown() {
                p.out(&format!(
                    "{}: nothing to reconcile (its outcome is recorded: {})\n",
                    e.id,
                    crate::echo::capped(&e.result, 200)
                ))?;
                return Ok(());
            }
            vec![e]
        }
        None => latest.into_iter().filter(Entry::outcome_unknown).collect(),
    };
    if targets.is_empty() {
        p.err_line("No change-log entries with an unknown outcome.");
        return Ok(());
    }
    let mut undecided = Vec::new();
    for e in &targets {
        if let Some(why) = reconcile_one(s, e, p).await? {
            p.err_line(&format!(
                    "{}: outcome still unknown — {why}; check {} by hand (nothing was recorded or sent)",
                    e.id,
                    crate::echo::capped(&object_of(e), 200)
                ));
            undecided.push(e.id.clone());
        }
    }
    if undecided.is_empty() {
        return Ok(());
    }
    Err(HistoryError::Undecided {
        n: undecided.len(),
        first: undecided[0].clone(),
    }
    .into())
}

/// Reconciles one entry: appends its outcome and prints it, or returns why it could not be
/// decided.
async fn reconcile_one(
    s: &Settings,
    e: &Entry,
    p: &mut Printer<'_>,
) -> Result<Option<String>, VerbError> {
    let mut cs = s.clone();
    if e.context.is_some() {
        cs.kube.context = e.context.clone();
    }
    let session = Session::open(&cs, p, Mode::Mutate).await?;
    let (verdict, live) = if e.dry_run {
        let why = "a dry run never changes the object".to_string();
        (Verdict::NotApplied(why), Value::Null)
    } else if session.server() != e.server {
        return Ok(Some(format!(
            "its context now points at {}, not {} where the change was made, so the object was not read",
            session.server(),
            e.server
        )));
    } else {
        match history::live::read_journaled(&session, e).await?.1 {
            Live::Found(live) => (history::reconcile(e, &live), live),
            Live::Forbidden => return Ok(Some("reading the object is forbidden".into())),
            Live::Gone => {
                return Ok(Some(
                    "the object no longer exists, so whether the patch was applied before it was deleted cannot be seen".into(),
                ));
            }
        }
    };
    let (record, said) = match verdict {
        Verdict::Undecidable(why) => return Ok(Some(why)),
        Verdict::Applied(why) => {
            let rv = live
                .pointer("/metadata/resourceVersion")
                .and_then(Value::as_str)
                .map(str::to_string);
            let mut r = e.with_outcome("success".into(), rv, e.duration_seconds);
            r.after = Some(changelog::redact_after(&e.kind, e.before.as_ref(), live));
            (reconciled(r, &why), format!("applied — {why}"))
        }
        Verdict::NotApplied(why) => {
            let r = e.with_outcome(NOT_APPLIED.into(), None, e.duration_seconds);
            (reconciled(r, &why), format!("not applied — {why}"))
        }
    };
    session.journal_reconciled(&record)?;
    p.out(&format!("{}: {said}; outcome recorded\n", e.id))?;
    Ok(None)
}

/// `record` marked as reconciled now, for `why`.
fn reconciled(mut record: Entry, why: &str) -> Entry {
    record.reconciled = Some(format!("{}: {why}", changelog::now_rfc3339()));
    record
}
