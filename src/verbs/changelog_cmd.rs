//! `changelog list` and `changelog show ID`: reading the change log (docs/changelog.md).
//!
//! The log is write-ahead (see [`crate::changelog`]): an id has an intent record
//! (`result: "pending"`) and, once the request returned, an outcome record. Both commands
//! read [`changelog::latest`], so every id appears once, as its last record; an id whose last
//! record is still the intent is shown as `outcome unknown` rather than `pending`, because
//! nothing is pending any more: the command stopped, and whether the change was made can only
//! be learnt from the object.
//!
//! A bad line never makes the log unreadable: lines that are not valid entries are
//! skipped with one `warning:` line saying how many, and `changelog list --invalid` lists them
//! by line number and reason (never their content). Every cell and echoed id is escaped and
//! capped ([`crate::base::echo::capped`]): the log is a file anyone with the account can edit.
//!
//! Readable history: `changelog list` filters by user (the global `--user`,
//! matched against the user the API server saw), context (the global `--context`),
//! operation, result, session, time and object, and prints the entries as json or yaml
//! (`-o`); `changelog diff ID` shows one change field by field ([`change_diff`]);
//! `changelog why OBJECT FIELD` lists the changes that touched a field ([`why`]).
//!
//! Both read every retained file ([`changelog::retention`]); a bad line of a
//! rotated file is listed as `changelog.jsonl.N:LINE`. `changelog verify` checks the hash
//! chain ([`verify`]). `list` and `verify` stream the log line by line in bounded memory
//! (`listing`, [`changelog::verify_log`]); the others read it whole.

mod anchor;
mod change_diff;
mod cluster;
mod error;
mod filter;
mod listing;
mod mirror;
mod reconcile;
mod table;
mod verify;
mod why;

pub use error::HistoryError;

pub use crate::changelog::skipped_warning;
pub use filter::{EMPTY_SESSION, ListFilter, matches_object, select, since};
pub use table::{
    OUTCOME_UNKNOWN, ambiguous_warning, invalid_table, list_table, no_outcome_warning, op_name,
};

use crate::base::echo::capped as display_capped;
use crate::changelog::{self, Entry};
use crate::cli::{ChangelogCommand, ListFormat};
use crate::output::{Printer, to_json, to_yaml};
use crate::settings::Settings;
use crate::verbs::VerbError;

/// Runs a `changelog` subcommand. A MYOPS_HOME open to other users earns one `warning:`
/// line ([`changelog::home_warning`]); lines that are not valid entries one more.
///
/// # Errors
/// [`VerbError::Io`] when the log cannot be read as a whole (MYOPS_HOME not a directory, the
/// log not a regular file, permissions) — a read error, exit 1; [`VerbError::Usage`] for a bad
/// filter; an unknown id is not found (exit 4).
pub async fn run(
    s: &Settings,
    cmd: &ChangelogCommand,
    p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    if let Some(w) = changelog::home_warning(&s.home) {
        p.err_line(&w);
    }
    match cmd {
        ChangelogCommand::Verify {
            against_cluster: false,
        } => return verify::run(s, p),
        ChangelogCommand::Verify {
            against_cluster: true,
        } => return verify_with_mirror(s, p).await,
        ChangelogCommand::List {
            from_cluster: true, ..
        } => return cluster::run(s, cmd, p).await,
        _ => {}
    }
    if let ChangelogCommand::Mirror(m) = cmd {
        return mirror::run(s, m, p).await;
    }
    // The local list streams the log in bounded memory ([`listing`]).
    if let Some(args) = listing::args_of(cmd) {
        return listing::run(s, &args, p);
    }
    let (entries, invalid) = changelog::read_all(&s.home).map_err(VerbError::io)?;
    let listing_invalid = matches!(cmd, ChangelogCommand::List { invalid: true, .. });
    if !invalid.is_empty() && !listing_invalid {
        p.err_line(&skipped_warning(invalid.len(), &changelog::path(&s.home)));
    }
    // A teammate's entry: not in the local log, read from the cluster mirror (the one
    // second source of `show`, `diff` and `rollback`, [`crate::history::team`]).
    let entries = match cmd {
        ChangelogCommand::Show { id } => {
            crate::history::team::with_mirrored(s, p, entries, id)
                .await?
                .0
        }
        // A teammate's context is a name in their kubeconfig: the live read of `diff` uses
        // the current context (which must point at the entry's server), as `rollback` does.
        ChangelogCommand::Diff { id } => {
            let (mut entries, origin) =
                crate::history::team::with_mirrored(s, p, entries, id).await?;
            if origin.is_some() {
                entries
                    .iter_mut()
                    .filter(|e| &e.id == id)
                    .for_each(|e| e.context = None);
            }
            entries
        }
        _ => entries,
    };
    match cmd {
        ChangelogCommand::Show { id } => {
            let records: Vec<&Entry> = entries.iter().filter(|e| &e.id == id).collect();
            let e = records.last().ok_or_else(|| {
                crate::verbs::RollbackError::or_rotated_away(
                    crate::verbs::RollbackError::NoEntry(display_capped(id, 64)).into(),
                    &s.home,
                    id,
                )
            })?;
            p.out(&to_json(e)?)?;
            if changelog::ambiguous(&records) {
                p.err_line(&ambiguous_warning(e, records.len()));
            } else if e.outcome_unknown() {
                p.err_line(&no_outcome_warning(e));
            }
        }
        ChangelogCommand::List { invalid: true, .. } => {
            if invalid.is_empty() {
                p.err_line("No invalid lines.");
                return Ok(());
            }
            p.out(&invalid_table(&invalid).render(false))?;
        }
        ChangelogCommand::List {
            since: since_arg,
            object,
            session,
            operation,
            result,
            actor,
            output,
            ..
        } => {
            let cutoff = filter::cutoff_of(since_arg.as_deref(), session.as_deref())?;
            // `--context NAME` lists the changes made in that context only (a fan-out's
            // entries otherwise look alike when the user names match); `--user NAME` those
            // made by that user.
            let filter = ListFilter {
                cutoff,
                object: object.as_deref(),
                session: session.as_deref(),
                context: s.kube.context.as_deref(),
                user: s.kube.user.as_deref(),
                operation: operation.as_deref(),
                result: *result,
                actor: actor.as_deref(),
            };
            let selected = select(entries, &filter);
            match output {
                Some(ListFormat::Json) => p.out(&to_json(&selected)?)?,
                Some(ListFormat::Yaml) => p.out(&to_yaml(&selected)?)?,
                None => {
                    let t = list_table(&selected);
                    if t.is_empty() {
                        p.err_line("No change-log entries.");
                        return Ok(());
                    }
                    p.out(&t.render(false))?;
                }
            }
        }
        ChangelogCommand::Diff { id } => change_diff::run(s, &entries, id, p)
            .await
            .map_err(|e| crate::verbs::RollbackError::or_rotated_away(e, &s.home, id))?,
        ChangelogCommand::Why { object, field } => why::run(&entries, object, field, p)?,
        ChangelogCommand::Reconcile { id, decided } => {
            reconcile::run(s, entries, id.as_deref(), *decided, p).await?;
        }
        // Answered before the log was read for listing, above.
        ChangelogCommand::Verify { .. } | ChangelogCommand::Mirror(_) => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests;

/// `changelog verify --against-cluster`: the local chain checked first, then the mirror —
/// also, not instead (a record edited after its mirror copy was pruned breaks only the
/// chain); both are reported, each exit 1.
///
/// # Errors
/// As `verify` and `anchor`.
async fn verify_with_mirror(s: &Settings, p: &mut Printer<'_>) -> Result<(), VerbError> {
    let local = verify::run(s, p);
    let anchored = anchor::run(s, p).await;
    match (local, anchored) {
        (Err(l), Err(a)) => {
            p.err_line(&format!("error: {l}"));
            Err(a)
        }
        (Err(l), Ok(())) => Err(l),
        (Ok(()), r) => r,
    }
}
