//! Why a rollback is refused or incomplete: [`RollbackError`] for one entry,
//! [`SessionRollbackError`] for `rollback --session`.

use crate::exit::ExitStatus;
use crate::verbs::VerbError;

/// Why a rollback is refused before any request.
#[derive(Debug, thiserror::Error)]
pub enum RollbackError {
    /// No entry has this id.
    #[error("no change-log entry {0}; see `kubectl myops changelog list`")]
    NoEntry(String),
    /// No retained file has this id, and it is older than the oldest record kept: rotation
    /// deleted it ([`crate::changelog::retention::rotated_away`] words the sentence).
    #[error("{0}")]
    RotatedAway(String),
    /// The entry cannot be rolled back exactly (failed, dry run, no before-state, Secret
    /// values, …).
    #[error("entry {id} cannot be rolled back: {why}")]
    NotRestorable {
        /// The entry id.
        id: String,
        /// Why.
        why: String,
    },
    /// Someone changed the object since the entry.
    #[error(
        "{object} changed since entry {id} (resourceVersion {then} → {now}), last by {writer}; re-check it, then use --force to restore anyway"
    )]
    Changed {
        /// The object.
        object: String,
        /// The entry id.
        id: String,
        /// resourceVersion after the entry.
        then: String,
        /// resourceVersion now.
        now: String,
        /// The last writer from managedFields.
        writer: String,
    },
    /// The entry has no outcome record and the object's touched fields no longer hold their
    /// before-state: the change may have been made (or someone else changed them).
    #[error(
        "entry {id}: outcome unknown (no outcome record, or its answer was lost), and {object} no longer holds its before-state in the fields the change touched; `kubectl myops changelog reconcile {id}` records whether the change was made (then it rolls back as usual), or check the object and use --force to restore them"
    )]
    OutcomeUnknown {
        /// The object.
        object: String,
        /// The entry id.
        id: String,
    },
    /// The object the entry changed no longer exists (the server answered 404), so there is
    /// nothing to put the fields back into; the inverse of a patch never recreates an object.
    #[error(
        "{object} no longer exists (the server answered NotFound), so entry {id} cannot be rolled back; its before-state is in `kubectl myops changelog show {id}` if the object must be recreated"
    )]
    Gone {
        /// The object.
        object: String,
        /// The entry id.
        id: String,
    },
    /// The object of the entry was deleted and another one created under its name (the
    /// uid differs): rolling back would write old values into an object the entry never
    /// touched, so even `--force` does not.
    #[error(
        "{object} of entry {id} no longer exists: the object there now is another one (uid {now}, the entry's was {then}), so nothing was sent; its before-state is in `kubectl myops changelog show {id}`"
    )]
    Replaced {
        /// The object.
        object: String,
        /// The entry id.
        id: String,
        /// The entry's uid.
        then: String,
        /// The live object's uid.
        now: String,
    },
}

/// Why `rollback --session` did not restore every change of a session.
#[derive(Debug, thiserror::Error)]
pub enum SessionRollbackError {
    /// No change-log record carries this session id.
    #[error(
        "no change-log entries of session {0}; a fanned-out patch prints its session id, and `kubectl myops changelog show ID` shows an entry's (`session`)"
    )]
    NoSession(String),
    /// Some changes were not rolled back (each already reported on stderr with its context).
    #[error(
        "{failed} of {total} change(s) of session {session} were not rolled back (each is named above; {done} rolled back or already as before) — fix what the lines above say and run `kubectl myops rollback --session {session}` again (changes already undone are skipped; --force restores over later writers)"
    )]
    Incomplete {
        /// The session id.
        session: String,
        /// How many entries were not rolled back.
        failed: usize,
        /// How many entries the session had that changed something.
        total: usize,
        /// How many were rolled back now or already held their earlier values.
        done: usize,
        /// The most severe exit status among the failures ([`ExitStatus::most_severe`]).
        status: ExitStatus,
    },
}

impl SessionRollbackError {
    /// 4 for an unknown session; otherwise the most severe status of the failed entries.
    pub fn exit_status(&self) -> ExitStatus {
        match self {
            SessionRollbackError::NoSession(_) => ExitStatus::NotFound,
            SessionRollbackError::Incomplete { status, .. } => *status,
        }
    }
}

impl RollbackError {
    /// `e`, or — when it is [`RollbackError::NoEntry`] and rotation deleted the entry's file
    /// ([`crate::changelog::retention::rotated_away`]) — [`RollbackError::RotatedAway`]
    /// saying so (still exit 4: the entry is not found, and the sentence says why).
    pub fn or_rotated_away(e: VerbError, home: &std::path::Path, id: &str) -> VerbError {
        match e {
            VerbError::Rollback(b) if matches!(*b, RollbackError::NoEntry(_)) => {
                match crate::changelog::retention::rotated_away(home, id) {
                    Some(why) => RollbackError::RotatedAway(why).into(),
                    None => VerbError::Rollback(b),
                }
            }
            other => other,
        }
    }

    /// 4 for an unknown id or a deleted object, 2 for an entry that cannot be restored, 5 for
    /// a changed object.
    pub fn exit_status(&self) -> ExitStatus {
        match self {
            RollbackError::NoEntry(_)
            | RollbackError::RotatedAway(_)
            | RollbackError::Gone { .. }
            | RollbackError::Replaced { .. } => ExitStatus::NotFound,
            RollbackError::NotRestorable { .. } => ExitStatus::Usage,
            RollbackError::Changed { .. } | RollbackError::OutcomeUnknown { .. } => {
                ExitStatus::Conflict
            }
        }
    }
}
