//! `rollback ID`: run the inverse of a journaled change ([`crate::guard::change::inverse`]).
//!
//! - A patch (or a rollback's restoring patch) is undone by a JSON patch that restores, from
//!   the entry's `before`, only the fields the journaled patch touched (so a `--force`
//!   rollback leaves others' later changes alone), guarded by a `test` of
//!   `metadata.resourceVersion` against the entry's `resourceVersionAfter`: if someone
//!   changed the object since, the rollback is refused (exit 5) naming who, from
//!   managedFields, unless `--force` ([`restore`]).
//! - A CRD apply that changed an existing CRD is undone the same way, restoring its `/spec`,
//!   labels and annotations; one that created the CRD by deleting it, on the precondition of
//!   the resourceVersion it left (or, when only status writes came after, the one read
//!   just now) ([`recreate`]).
//! - A CRD prune (or a rollback that deleted) is undone by creating the before-state again;
//!   the custom resources deleted with a CRD are not in the change log, which the output
//!   says. A rollback that re-created an object is undone by deleting it, on the
//!   precondition of its uid.
//!
//! Every inverse is authorized and journaled by the guarded path ([`crate::guard`]) as a
//! `rollback` entry; an entry whose outcome is unknown is judged by the live object, never
//! assumed to have succeeded.
//!
//! A rollback never reports a success that did not happen. It refuses, with exit 2 and
//! before any request, an entry it cannot honestly undo: a change to a Secret's
//! `data`/`stringData` (the change log never stores Secret values, so they cannot be put
//! back — restore them from your secret store; a Secret change that touched only labels or
//! annotations rolls back normally), a change to fields a rollback does not write (`status`,
//! server-owned metadata), a value the change log stored masked (it looked like a
//! credential), an id whose records name different objects (an edited log), or a record
//! without a patch. Nothing is half-applied: a refused rollback sends nothing at all. After
//! the patch, the answer is checked: a field the server did not put back is an error, not
//! "rolled back".
//!
//! An object owned by a reconciler (Flux, Argo CD, Helm, kapp, `kubectl apply`:
//! [`crate::rules::reconciler`]) is not rolled back: the owner would revert it at its next sync,
//! so the rollback is refused with exit 5 naming the owner, unless `--force` — the same flag
//! that overrides the resourceVersion guard, since both say "I know the object is not only
//! mine". A forced rollback journals the owner in its entry (`reconciler`). The check is
//! made by the guarded path on the live object, last, right before the patch is sent.
//!
//! `rollback --session` runs on the fleet layer (`crate::fleet::rollback`), with the pure
//! plan of [`plan`].

pub mod entry;
pub mod errors;
pub mod plan;
pub mod recreate;
pub mod restore;
pub mod undo;

pub use crate::guard::change::restore::{
    holds_before, last_writer, rollback_ops, unrestorable_changes,
};
pub use entry::{find_entry, judge, roll_back_entry};
pub use errors::{RollbackError, SessionRollbackError};
pub use plan::{ContextChanges, EMPTY_SESSION, SessionPlan, plan_session};
pub use undo::Run;

use crate::changelog::{self, Entry};
use crate::cli::RollbackArgs;
use crate::guard::Session;
use crate::history;
use crate::output::Printer;
use crate::settings::Settings;
use crate::verbs::{Outcome, VerbError};

/// Runs `rollback ID` through the guarded path (plugin.yaml verb `patch` and a journal
/// proven writable first, then the inverse's reviews, the inverse journaled write-ahead as
/// `rollback`). An entry whose outcome is unknown (an intent without an outcome record) is
/// never assumed to have succeeded: the live object decides.
///
/// Errors in the [`Outcome`]: [`RollbackError`] (4, 2, 5), refusals (3), API errors.
pub async fn run(s: &Settings, args: &RollbackArgs, p: &mut Printer<'_>) -> Outcome {
    let entries = match read_journal(s, p, |_| args.id.iter().cloned().collect()) {
        Ok(x) => x,
        Err(e) => return Outcome::early(e),
    };
    let Some(id) = &args.id else {
        return Outcome::early(VerbError::Usage(
            "rollback needs an entry ID or --session SESSION; see `kubectl myops changelog list`"
                .into(),
        ));
    };
    // Not in the local log: a teammate's entry from the cluster mirror, rolled back (and
    // journaled) as ours; a mirrored record with problems is never acted on.
    let entries = match history::team::with_mirrored(s, p, entries, id).await {
        Ok((_, Some(origin))) if !origin.problems.is_empty() => {
            return Outcome::early(RollbackError::NotRestorable {
                id: crate::base::echo::capped(id, 64),
                why: format!(
                    "its record in the cluster mirror (changerecord {}) cannot be trusted: {}; nothing was sent",
                    origin.name,
                    origin.problem()
                ),
            });
        }
        Ok((entries, _)) => entries,
        Err(e) => return Outcome::early(e),
    };
    let entry = match find_entry(&entries, id) {
        Ok(e) => e,
        Err(e) => return Outcome::early(RollbackError::or_rotated_away(e, &s.home, id)),
    };
    // In the current context (or --context), which must still point at the server the entry
    // was made on: an inverse sent to another cluster would create or change an object there.
    // A delete entry is undone by an undelete, which plugin.yaml verb `delete` bounds.
    let verb = crate::guard::change::plugin_verb(match entry.operation {
        changelog::Operation::Delete => changelog::Operation::Undelete,
        _ => changelog::Operation::Rollback,
    });
    let session = match Session::open_for_entry(s, p, verb, None, &entry.server).await {
        Ok((x, None)) => x,
        Ok((_, Some(moved))) => {
            return Outcome::early(RollbackError::NotRestorable {
                id: entry.id.clone(),
                why: format!(
                    "it was made on {}, but the context points at {}; nothing was sent — roll it back with --context naming a context of that server",
                    crate::base::echo::capped(&moved.then, 200),
                    crate::base::echo::capped(&moved.now, 200)
                ),
            });
        }
        Err(e) => return Outcome::early(e),
    };
    let (resource, result) = roll_back_entry(&session, &entry, args, false, p).await;
    Outcome { resource, result }
}

/// The change log's entries, for rolling back the ids `ids_of` picks from them: a warning
/// for the lines that are no entries, and a refusal when the hash chain contradicts one of
/// those ids (its before-state cannot be trusted).
///
/// # Errors
/// The change log cannot be read (exit 1); [`RollbackError::NotRestorable`] (exit 2,
/// nothing sent) for a contradicted entry.
pub fn read_journal(
    s: &Settings,
    p: &mut Printer<'_>,
    ids_of: impl FnOnce(&[Entry]) -> Vec<String>,
) -> Result<Vec<Entry>, VerbError> {
    let (entries, invalid) = changelog::read_all(&s.home).map_err(VerbError::io)?;
    if !invalid.is_empty() {
        p.err_line(&format!(
            "warning: {} line(s) of {} are not valid change-log entries and were skipped; `kubectl myops changelog list --invalid` lists them",
            invalid.len(),
            changelog::path(&s.home).display()
        ));
    }
    let contradicted = match changelog::read_files(&s.home) {
        Ok((files, _)) => history::contradicted(&files),
        Err(e) => return Err(VerbError::io(e)),
    };
    let ids = ids_of(&entries);
    if let Some((id, why)) = ids
        .iter()
        .find_map(|id| contradicted.get(id.as_str()).map(|why| (id, why)))
    {
        return Err(RollbackError::NotRestorable {
            id: crate::base::echo::capped(id, 64),
            why: format!(
                "the change log's hash chain contradicts it — {why}; its before-state cannot be trusted, so nothing was sent (`kubectl myops changelog verify` reports every break; restore by hand if needed)"
            ),
        }
        .into());
    }
    Ok(entries)
}

#[cfg(test)]
mod tests;
