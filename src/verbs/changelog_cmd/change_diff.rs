//! `changelog diff ID`: one journaled change as a field-level diff, before → after.
//!
//! Where each side comes from is always printed on the second line ([`source_line`]):
//! - before: the before-state journaled with the intent (read just before the request);
//! - after: the after-state journaled with the outcome (the server's answer, or
//!   for a dry run the object it would have been) — no request at all. An entry written
//!   before after-states were journaled has none: then the live object is read (`get`, in
//!   the entry's context, through the guarded path) and compared by resourceVersion. The
//!   same resourceVersion as the outcome's `resourceVersionAfter` means nobody wrote since:
//!   it *is* the after-state. Otherwise the diff is before → now and the line says so; it
//!   never passes off today's object as the change. (Re-applying the journaled patch to
//!   the before-state was rejected: exact only for JSON and merge patches — a strategic
//!   merge needs the server's schema — and blind to defaulting and admission.)
//!
//! Secret values: the change log stores none; the journaled after-state marks the values
//! that differ from the before-state ([`crate::changelog::redact_after`]), and the diff
//! shows them with kubectl diff's tokens: `"*** (before)" → "*** (after)"`. For an older
//! Secret entry read live, a changed value cannot be told from an unchanged one; the
//! output says so, and the live values are masked before anything is compared.

use serde_json::Value;

use super::table::op_name;
use crate::changelog::{self, Entry, object_of};
use crate::config::Verb;
use crate::guard::Session;
use crate::history::{self, live::Live};
use crate::output::Printer;
use crate::rules::diff;
use crate::settings::Settings;
use crate::verbs::{HistoryError, RollbackError, VerbError};

/// Where the after side of a diff came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AfterSource {
    /// Journaled with the outcome.
    Journal,
    /// Read from the cluster; its resourceVersion is still the one the change produced.
    LiveUnchanged {
        /// The resourceVersion.
        rv: String,
    },
    /// Read from the cluster; the object changed since (or the outcome is unknown).
    LiveNow {
        /// resourceVersion after the change, if journaled.
        then: Option<String>,
        /// resourceVersion now.
        now: String,
    },
}

/// The first line (pure): `entry ID: OPERATION OBJECT by USER at TIME (RESULT)`.
pub fn header(e: &Entry) -> String {
    let result = if e.outcome_unknown() {
        "outcome unknown".to_string()
    } else {
        e.result.clone()
    };
    let dry = if e.dry_run { " (dry run)" } else { "" };
    crate::base::echo::capped(
        &format!(
            "entry {}: {}{dry} {} by {} at {} ({result})",
            e.id,
            op_name(e),
            object_of(e),
            e.user,
            e.timestamp
        ),
        1000,
    )
}

/// The second line (pure): where before and after come from.
pub fn source_line(e: &Entry, source: &AfterSource) -> String {
    let before = "before: journaled with the change";
    let after = match source {
        AfterSource::Journal if e.dry_run => {
            "after: journaled with the outcome (a dry run: what the object would have been; nothing was changed)"
                .to_string()
        }
        AfterSource::Journal => format!(
            "after: journaled with the outcome (resourceVersion {})",
            e.resource_version_after
                .as_deref()
                .unwrap_or("not recorded")
        ),
        AfterSource::LiveUnchanged { rv } => format!(
            "after: not journaled (an entry older than after-states); read from the cluster now — resourceVersion {rv} is still the one this change produced"
        ),
        AfterSource::LiveNow { then, now } => match then {
            Some(then) if !e.outcome_unknown() => format!(
                "after: not journaled (an entry older than after-states), and the object changed since (resourceVersion {then} after this change, {now} now): showing before → now"
            ),
            _ => format!(
                "after: not journaled (the outcome is unknown); read from the cluster now (resourceVersion {now}): showing before → now"
            ),
        },
    };
    format!("{before}; {after}")
}

/// Runs `changelog diff ID` over the log's `entries`.
///
/// # Errors
/// An unknown id (exit 4); [`HistoryError`]: no before-state (2), the object gone (4), the
/// context now on another server (2); the live read's own errors (denied 3, …).
pub async fn run(
    s: &Settings,
    entries: &[Entry],
    id: &str,
    p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    let e = entries
        .iter()
        .rfind(|e| e.id == id)
        .ok_or_else(|| RollbackError::NoEntry(crate::base::echo::capped(id, 64)))?;
    p.out(&format!("{}\n", header(e)))?;
    if !(e.result == "success" || e.outcome_unknown()) {
        p.out("it changed nothing (a refused or failed attempt)\n")?;
        return Ok(());
    }
    // A lift of protection changed MYOPS_HOME, not an object: its patch says what it did.
    if e.operation.is_protection() {
        p.out(&format!(
            "it changed no object of the cluster (a lift of protection or its end): {}\n",
            e.patch.as_ref().map(|v| v.to_string()).unwrap_or_default()
        ))?;
        return Ok(());
    }
    let Some(before) = &e.before else {
        return Err(HistoryError::NoBefore { id: e.id.clone() }.into());
    };
    let (after, source) = match &e.after {
        Some(a) => (a.clone(), AfterSource::Journal),
        None => live_after(s, e, p).await?,
    };
    p.out(&format!("{}\n", source_line(e, &source)))?;
    if e.after.is_none() && diff::is_secret(&e.kind, before, &after) {
        p.out("note: Secret values are not journaled and this entry has no after-state, so a changed value cannot be told from an unchanged one; added and removed keys are shown\n")?;
    }
    let lines = diff::render_for(&e.kind, before, &after);
    if lines.is_empty() {
        p.out("  (no change)\n")?;
    }
    for l in lines {
        p.out(&format!("  {}\n", crate::base::echo::capped(&l, 2000)))?;
    }
    Ok(())
}

/// Reads the entry's object from the cluster (its context; `get` through the guarded path),
/// redacted as the journal would hold it, and says how it relates to the change.
async fn live_after(
    s: &Settings,
    e: &Entry,
    p: &mut Printer<'_>,
) -> Result<(Value, AfterSource), VerbError> {
    let (session, moved) =
        Session::open_for_entry(s, p, Verb::Get, e.context.as_deref(), &e.server).await?;
    if let Some(m) = moved {
        return Err(HistoryError::Moved {
            id: e.id.clone(),
            now: m.now,
            then: m.then,
        }
        .into());
    }
    let (obj, live) = history::live::read_journaled(&session, e).await?;
    let live = match live {
        Live::Found(v) => v,
        Live::Forbidden => {
            return Err(HistoryError::Unreadable {
                id: e.id.clone(),
                object: obj.display(),
            }
            .into());
        }
        Live::Gone => {
            return Err(HistoryError::Gone {
                id: e.id.clone(),
                object: obj.display(),
            }
            .into());
        }
    };
    let now = live
        .pointer("/metadata/resourceVersion")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let source = match &e.resource_version_after {
        Some(rv) if *rv == now && !e.outcome_unknown() => AfterSource::LiveUnchanged { rv: now },
        then => AfterSource::LiveNow {
            then: then.clone(),
            now,
        },
    };
    Ok((changelog::redact_as(&e.kind, live), source))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry() -> Entry {
        Entry {
            id: "18f-1-0".into(),
            timestamp: "2026-12-02T07:00:00Z".into(),
            resource_version_after: Some("42".into()),
            ..crate::verbs::changelog_cmd::tests::entry("ConfigMap", Some("shop"), "web")
        }
    }

    #[test]
    fn the_source_of_each_side_is_always_said() {
        let e = entry();
        assert_eq!(
            header(&e),
            "entry 18f-1-0: patch configmap/shop/web by admin at 2026-12-02T07:00:00Z (success)"
        );
        assert_eq!(
            source_line(&e, &AfterSource::Journal),
            "before: journaled with the change; after: journaled with the outcome (resourceVersion 42)"
        );
        assert!(
            source_line(&e, &AfterSource::LiveUnchanged { rv: "42".into() })
                .ends_with("resourceVersion 42 is still the one this change produced")
        );
        assert!(
            source_line(
                &e,
                &AfterSource::LiveNow {
                    then: Some("42".into()),
                    now: "50".into()
                }
            )
            .ends_with("the object changed since (resourceVersion 42 after this change, 50 now): showing before → now")
        );
        let unknown = Entry {
            result: changelog::PENDING.into(),
            resource_version_after: None,
            ..entry()
        };
        assert!(header(&unknown).ends_with("(outcome unknown)"));
        assert!(
            source_line(
                &unknown,
                &AfterSource::LiveNow {
                    then: None,
                    now: "50".into()
                }
            )
            .contains("not journaled (the outcome is unknown)")
        );
    }
}
