//! Why `changelog diff`, `changelog why` and `changelog reconcile` cannot answer
//! ([`HistoryError`]), beside the verb that reports it.

use crate::exit::ExitStatus;

/// Why `changelog diff` or `changelog why` cannot answer.
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    /// The entry holds no before-state (the object did not exist yet — a CRD's first apply —
    /// or reading it was forbidden).
    #[error(
        "entry {id} has no before-state (the object did not exist yet, or could not be read, when the change was made), so there is nothing to compare; `kubectl myops changelog show {id}` shows its patch"
    )]
    NoBefore {
        /// The entry id.
        id: String,
    },
    /// No after-state journaled, and the object no longer exists.
    #[error(
        "entry {id} has no after-state journaled (it is older than after-states) and {object} no longer exists, so what it changed to is unknown; `kubectl myops changelog show {id}` shows its patch"
    )]
    Gone {
        /// The entry id.
        id: String,
        /// The object.
        object: String,
    },
    /// No after-state journaled, and reading the object is forbidden.
    #[error(
        "entry {id} has no after-state journaled and {object} cannot be read now (forbidden); `kubectl myops changelog show {id}` shows its patch"
    )]
    Unreadable {
        /// The entry id.
        id: String,
        /// The object.
        object: String,
    },
    /// No after-state journaled, and the entry's context now points at another server.
    #[error(
        "entry {id} has no after-state journaled and its context now points at {now}, not {then} where the change was made; nothing was read — point the context back at that server"
    )]
    Moved {
        /// The entry id.
        id: String,
        /// The server the context points at now.
        now: String,
        /// The server of the entry.
        then: String,
    },
    /// `changelog why`: the field path is neither form (the message says how to write it).
    #[error("{0}")]
    BadField(String),
    /// `changelog reconcile`: the live object could not decide `n` entries (each named on
    /// stderr with why); their outcome stays unknown until a person records it (`--outcome`).
    #[error(
        "the outcome of {n} entry(ies) is still unknown (first: {first}); check the objects named above by hand, then record what you find with `kubectl myops changelog reconcile ID --outcome applied|not-applied` — nothing was rolled back or retried"
    )]
    Undecided {
        /// How many entries stayed undecided.
        n: usize,
        /// The first of them.
        first: String,
    },
    /// `changelog reconcile --outcome` without an entry id: a decision by hand is about one entry.
    #[error(
        "--outcome records the outcome you decided for one entry: name it (`kubectl myops changelog reconcile ID --outcome applied|not-applied`)"
    )]
    DecidedWithoutId,
    /// `changelog reconcile ID --outcome applied` for a dry run, which never changes the object.
    #[error(
        "entry {id} is a dry run, which never changes the object, so it cannot be recorded as applied; `kubectl myops changelog reconcile {id}` records it as not applied"
    )]
    DryRunApplied {
        /// The entry id.
        id: String,
    },
}

impl HistoryError {
    /// 4 when the object is gone, 3 when it cannot be read, 5 when `changelog reconcile`
    /// could not decide (like a rollback of an unknown outcome), 2 otherwise (the entry or
    /// the field path cannot be answered).
    pub fn exit_status(&self) -> ExitStatus {
        match self {
            HistoryError::Gone { .. } => ExitStatus::NotFound,
            HistoryError::Unreadable { .. } => ExitStatus::Denied,
            HistoryError::Undecided { .. } => ExitStatus::Conflict,
            HistoryError::NoBefore { .. }
            | HistoryError::Moved { .. }
            | HistoryError::BadField(_)
            | HistoryError::DecidedWithoutId
            | HistoryError::DryRunApplied { .. } => ExitStatus::Usage,
        }
    }
}
