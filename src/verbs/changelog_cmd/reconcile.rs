//! `changelog reconcile [ID]`: finds the real outcome of an intent whose outcome
//! record is missing — the process was killed between the two, so `changelog list` shows
//! `outcome unknown` — by reading the live object (in the entry's context, through the
//! guarded path) and judging it against the intent's before-state and patch
//! ([`history::reconcile`], pure). A decided outcome is appended as the entry's outcome
//! record (`success` or `not applied`, with `reconciled` saying what was seen), chained like
//! every record; an undecidable one is reported and left unknown. Nothing is sent to the
//! object: nothing is rolled back or retried on a guess.
//!
//! An entry the live object cannot decide stays unknown (exit 5 on every run) until a person
//! records the outcome: `changelog reconcile ID --outcome applied|not-applied` appends the same
//! outcome record, `reconciled` saying it was decided by hand and by whom (the user the API
//! server sees for this invocation, as records carry). The object is not read for it: a
//! person's word says whether our patch landed, not that the object as it is now is what it
//! left, so such a record has no `after` and no `resourceVersionAfter` — a rollback of an
//! entry decided `applied` by hand therefore finds the object changed since and asks for
//! `--force` after the person has looked.

use serde_json::Value;

use crate::changelog::{self, Entry, object_of};
use crate::cli::Decision;
use crate::guard::{Purpose, Session};
use crate::history::live::Live;
use crate::history::{self, Verdict};
use crate::output::Printer;
use crate::settings::Settings;
use crate::verbs::{HistoryError, RollbackError, VerbError};

/// The `result` of a reconciled outcome record whose patch was not applied.
pub const NOT_APPLIED: &str = "not applied";

/// Runs `changelog reconcile`: entry `id`, or every entry whose outcome is unknown; with
/// `decided` (`--outcome`, only with an id) records that outcome for the entry without reading
/// the object.
///
/// # Errors
/// An unknown id (exit 4); [`HistoryError::Undecided`] (exit 5) when the live object could
/// not decide some entry (each named on stderr, left unknown); `--outcome` without an id, or
/// `--outcome applied` for a dry run (exit 2); a journal that cannot be written (exit 1);
/// session errors (kubeconfig, …).
pub async fn run(
    s: &Settings,
    entries: Vec<Entry>,
    id: Option<&str>,
    decided: Option<Decision>,
    p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    if decided.is_some() && id.is_none() {
        return Err(HistoryError::DecidedWithoutId.into());
    }
    let latest = changelog::latest(entries);
    let targets: Vec<Entry> = match id {
        Some(id) => {
            let e = latest
                .into_iter()
                .find(|e| e.id == id)
                .ok_or_else(|| RollbackError::NoEntry(crate::base::echo::capped(id, 64)))?;
            if !e.outcome_unknown() {
                p.out(&format!(
                    "{}: nothing to reconcile (its outcome is recorded: {})\n",
                    e.id,
                    crate::base::echo::capped(&e.result, 200)
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
    if let (Some(decision), [e]) = (decided, targets.as_slice()) {
        return by_hand(s, e, decision, p).await;
    }
    let mut undecided = Vec::new();
    for e in &targets {
        if let Some(why) = reconcile_one(s, e, p).await? {
            p.err_line(&format!(
                "{}: outcome still unknown — {why}; check {} by hand (nothing was recorded or sent), then record it: `kubectl myops changelog reconcile {} --outcome applied|not-applied`",
                e.id,
                crate::base::echo::capped(&object_of(e), 200),
                e.id
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
    // A lift and its end are MYOPS_HOME state: there is no object to read.
    if e.operation.is_protection() {
        return Ok(Some(
            "it is a lift of protection, not a change to the cluster; `kubectl myops protect status` shows whether a lift is in force".into(),
        ));
    }
    let (session, moved) =
        Session::open_for_entry(s, p, Purpose::Record, e.context.as_deref(), &e.server).await?;
    let (verdict, live) = if e.dry_run {
        let why = "a dry run never changes the object".to_string();
        (Verdict::NotApplied(why), Value::Null)
    } else if let Some(m) = moved {
        return Ok(Some(format!(
            "its context now points at {}, not {} where the change was made, so the object was not read",
            m.now, m.then
        )));
    } else {
        match history::live::read_journaled(&session, e).await?.1 {
            Live::Found(live) => (history::reconcile(e, &live), live),
            Live::Forbidden => return Ok(Some("reading the object is forbidden".into())),
            Live::Gone if e.operation == changelog::Operation::Delete => {
                (history::reconcile_delete(e, None), Value::Null)
            }
            Live::Gone => {
                return Ok(Some(
                    "the object no longer exists, so whether the patch was applied before it was deleted cannot be seen".into(),
                ));
            }
        }
    };
    let now = changelog::now_rfc3339();
    let (record, said) = match verdict {
        Verdict::Undecidable(why) => return Ok(Some(why)),
        Verdict::Applied(why) => (
            outcome_record(e, Decision::Applied, Some(live), &format!("{now}: {why}")),
            format!("applied — {why}"),
        ),
        Verdict::Deleting(why) => {
            let mut r = e.with_outcome(changelog::DELETING.into(), None, e.duration_seconds);
            r.reconciled = Some(format!("{now}: {why}"));
            (r, format!("deleting — {why}"))
        }
        Verdict::NotApplied(why) => (
            outcome_record(e, Decision::NotApplied, None, &format!("{now}: {why}")),
            format!("not applied — {why}"),
        ),
    };
    session.journal_reconciled(&record).await?;
    p.out(&format!("{}: {said}; outcome recorded\n", e.id))?;
    Ok(None)
}

/// Records the outcome a person `decided` for `e` (`--outcome`): the user the API server sees for
/// this invocation is named in `reconciled`; the object is not read.
async fn by_hand(
    s: &Settings,
    e: &Entry,
    decided: Decision,
    p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    if e.dry_run && decided == Decision::Applied {
        return Err(HistoryError::DryRunApplied { id: e.id.clone() }.into());
    }
    let session = Session::open(s, p, Purpose::Record).await?;
    let user = session.user().await;
    let why = by_hand_why(&user);
    let record = outcome_record(
        e,
        decided,
        None,
        &format!("{}: {why}", changelog::now_rfc3339()),
    );
    session.journal_reconciled(&record).await?;
    let said = match decided {
        Decision::Applied => "applied",
        Decision::NotApplied => NOT_APPLIED,
    };
    p.out(&format!("{}: {said} — {why}; outcome recorded\n", e.id))?;
    Ok(())
}

/// What `reconciled` says of an outcome decided by hand by `user` (pure).
fn by_hand_why(user: &str) -> String {
    format!(
        "decided by hand by {} (changelog reconcile --outcome); the object was not read",
        crate::base::echo::capped(user, 200)
    )
}

/// The outcome record of intent `e` (pure): its fields with the result — `success` for
/// [`Decision::Applied`], [`NOT_APPLIED`] otherwise — and `reconciled`. `live` (the object
/// read, for an applied patch the live object decided) becomes `after` (redacted pairwise
/// with the before-state) and its resourceVersion `resourceVersionAfter`; without it both
/// stay absent (a decision by hand, or not applied).
fn outcome_record(e: &Entry, decided: Decision, live: Option<Value>, reconciled: &str) -> Entry {
    let mut r = match decided {
        Decision::Applied => {
            let rv = live
                .as_ref()
                .and_then(|l| l.pointer("/metadata/resourceVersion"))
                .and_then(Value::as_str)
                .map(str::to_string);
            let mut r = e.with_outcome("success".into(), rv, e.duration_seconds);
            r.after = live.map(|l| changelog::redact_after(&e.kind, e.before.as_ref(), l));
            r
        }
        Decision::NotApplied => e.with_outcome(NOT_APPLIED.into(), None, e.duration_seconds),
    };
    r.reconciled = Some(reconciled.to_string());
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// An intent (outcome unknown) of a merge patch of ConfigMap shop/web.
    fn pending() -> Entry {
        Entry {
            patch_type: Some("merge".into()),
            patch: Some(json!({"data": {"k": "v1"}})),
            before: Some(json!({"metadata": {"resourceVersion": "10"}, "data": {"k": "v0"}})),
            result: changelog::PENDING.into(),
            ..crate::verbs::changelog_cmd::tests::entry("ConfigMap", Some("shop"), "web")
        }
    }

    #[test]
    fn an_undecidable_entry_decided_applied_by_hand_is_a_success_without_an_after_state() {
        let e = pending();
        let why = format!("2026-12-02T16:00:00Z: {}", by_hand_why("alice"));
        let r = outcome_record(&e, Decision::Applied, None, &why);
        assert_eq!(r.result, "success");
        assert!(!r.outcome_unknown());
        assert_eq!(r.resource_version_after, None);
        assert_eq!(r.after, None);
        assert_eq!(
            r.reconciled.as_deref(),
            Some(
                "2026-12-02T16:00:00Z: decided by hand by alice (changelog reconcile --outcome); the object was not read"
            )
        );
        // Every intent field is carried over unchanged (the user is still who made the change).
        assert_eq!(
            Entry {
                result: e.result.clone(),
                reconciled: None,
                reason: None,
                protection: None,
                ..r
            },
            e
        );
    }

    #[test]
    fn an_undecidable_entry_decided_not_applied_by_hand_is_not_applied() {
        let e = pending();
        let r = outcome_record(&e, Decision::NotApplied, None, "t: by hand");
        assert_eq!(r.result, NOT_APPLIED);
        assert_eq!((r.after, r.resource_version_after), (None, None));
        assert_eq!(r.reconciled.as_deref(), Some("t: by hand"));
    }

    #[test]
    fn an_entry_the_live_object_decided_applied_carries_it_as_after_state() {
        let live = json!({"kind": "ConfigMap", "metadata": {"resourceVersion": "11"}, "data": {"k": "v1"}});
        let r = outcome_record(&pending(), Decision::Applied, Some(live.clone()), "t: seen");
        assert_eq!(r.resource_version_after.as_deref(), Some("11"));
        assert_eq!(r.after, Some(live));
    }

    #[test]
    fn a_user_name_is_capped_in_the_record() {
        let long = "u".repeat(5000);
        assert!(by_hand_why(&long).len() < 400);
    }
}
