//! The change log: one JSON object per line in `$MYOPS_HOME/changelog.jsonl`, appended under
//! an exclusive lock and fsynced, so concurrent processes never interleave lines and a crash
//! never loses an acknowledged record. The record format is in docs/design.md, "File
//! formats"; the commands that read it in docs/changelog.md.
//!
//! Write-ahead: a mutation is journaled *before* its request is sent. [`Journal::open`]
//! proves the log can be opened for appending and locked (otherwise the mutation is refused
//! and nothing is sent); an intent record (`result: "pending"`) is appended and fsynced
//! before the request; the outcome is appended after it as a *complete* record with the same
//! id — every intent field plus `result`, `resourceVersionAfter` and `durationSeconds` — so
//! the last record of an id stands alone (`jq` users need not join lines). An id whose last
//! record is still `pending` reads as "outcome unknown" ([`Entry::outcome_unknown`]): the
//! process died between the two, and nobody may assume the request succeeded. Every record
//! this build writes carries `formatVersion` ([`FORMAT_VERSION`]); a record without it is
//! version 1 and reads, verifies and rolls back the same.
//!
//! Entries are built by pure functions ([`Entry`], [`redact`], [`latest`]); [`Journal`] is the
//! only writer. Secret `data`/`stringData` values are replaced before anything is written: a
//! credential never reaches the log — which is also why a rollback can never put a Secret's
//! values back (`rollback` refuses such an entry rather than pretend, see
//! [`secret_data_keys`]).
//!
//! Integrity: the log is a 0600 regular file in a 0700 MYOPS_HOME (an existing log that
//! others may read is tightened to 0600 when it is opened; a home that others may enter
//! earns a warning, [`home_warning`]); every append starts on a fresh line, so a line torn by
//! a crash mid-append never swallows the next record; and reading never fails on a bad line:
//! [`parse`] splits the bytes on `\n` and judges every line on its own — not UTF-8, not
//! JSON, torn, the wrong shape — counting and skipping the bad ones ([`InvalidLine`]).
//! Anything at the log's path that is not a regular file (a directory, a FIFO, a socket, a
//! dangling symbolic link) is refused before it is opened, so nothing ever blocks on it.
//!
//! Tamper evidence and retention: every record appended carries `prev` and `hash`, a SHA-256
//! chain over the records' canonical form ([`chain`], [`canonical`]), with the chain's ends
//! in `changelog.head`; the log is rotated to `changelog.jsonl.1` … by size and age
//! ([`retention`]), the chain running on across files, and readers read every retained
//! file, oldest first.
//!
//! One concern per file: the record ([`Entry`], `model.rs`), redaction (`redaction.rs`), the
//! line parser (`parse.rs`), the checks of MYOPS_HOME and the log's path (`checks.rs`),
//! reading (`read.rs`; line by line, `stream.rs`, and without the object states, `lean.rs`) and the writer ([`Journal`], `journal.rs`).

pub mod canonical;
pub mod chain;
mod checks;
mod error;
mod journal;
mod lean;
pub mod mirror;
mod model;
pub mod outbox;
mod parse;
mod read;
mod redaction;
pub mod retention;
pub mod stream;

pub use checks::{home_warning, path};
pub use error::ChangelogError;
pub use journal::Journal;
pub(crate) use lean::judge_lean;
#[cfg(test)]
pub(crate) use model::sample_entry;
pub use model::{
    DELETING, Entry, FORMAT_VERSION, LOST, MYOPS_API_VERSION, Operation, PENDING, PROTECTION_LIFT,
    SNAPSHOT, SUCCESS, ambiguous, latest, new_id, new_session_id, now_rfc3339, object_of,
};
pub use parse::{InvalidLine, parse};
pub(crate) use parse::{judge, lines};
pub use read::{read_all, read_files, skipped_warning, verify_log};
pub use redaction::{
    REDACTED_CHANGED, redact, redact_after, redact_as, redact_patch, secret_data_keys,
};
pub use retention::Retention;

/// The file in MYOPS_HOME that holds this change log's journal id (the `myops.io/journal`
/// label of its mirrored records).
pub const JOURNAL_ID_FILE: &str = "journal-id";

/// This MYOPS_HOME's journal id for a reader: `None` when `MYOPS_HOME/journal-id` does not
/// exist (nothing was mirrored from this home yet; the mirror's writer creates the file with
/// its first record). The one rule the writer uses too: [`outbox::existing_id`].
///
/// # Errors
/// [`ChangelogError::JournalId`] when the file holds something that is not a journal id;
/// [`ChangelogError::Read`] when it cannot be read.
pub fn journal_id(home: &std::path::Path) -> Result<Option<String>, ChangelogError> {
    outbox::existing_id(home)
}
