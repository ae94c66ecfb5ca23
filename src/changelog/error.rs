//! Why the change log could not be written or read.

use std::path::{Path, PathBuf};

/// Why the change log could not be written or read. Each reads as one sentence naming the
/// path, the cause and what to do; writing and reading failures say which they are (a
/// read error is never reported as "cannot write").
#[derive(Debug, thiserror::Error)]
pub enum ChangelogError {
    /// Appending (or proving that records can be appended) failed; the mutation is refused.
    #[error("cannot write the change log {path}: {why}")]
    Write {
        /// The log file.
        path: PathBuf,
        /// The cause and what to do.
        why: String,
    },
    /// Reading the log failed as a whole (single bad lines never do: see `changelog::parse`).
    #[error("cannot read the change log {path}: {why}")]
    Read {
        /// The log file.
        path: PathBuf,
        /// The cause and what to do.
        why: String,
    },
    /// The cluster mirror's queue (`MYOPS_HOME/mirror-queue.jsonl`) cannot be used.
    #[error("cannot use the mirror queue {path}: {why}")]
    Queue {
        /// The queue file.
        path: PathBuf,
        /// The cause and what to do.
        why: String,
    },
    /// `MYOPS_HOME/journal-id` holds something that is not a journal id (16 lowercase hex
    /// digits). It is never replaced: a new id would orphan every record mirrored under the
    /// old one, which `changelog verify --against-cluster` then no longer checks.
    #[error(
        "{path} is not a journal id; restore it from a backup or remove it to start a new journal (records mirrored under the old id are then no longer checked by verify)"
    )]
    JournalId {
        /// The journal id file.
        path: PathBuf,
    },
}

impl ChangelogError {
    /// A write failure from an I/O error, with the usual advice.
    pub(super) fn write(path: &Path, e: &std::io::Error) -> ChangelogError {
        ChangelogError::Write {
            path: path.to_path_buf(),
            why: format!("{e}; check MYOPS_HOME's owner, permissions and free space"),
        }
    }

    /// A read failure from an I/O error, with the usual advice.
    pub(super) fn read(path: &Path, e: &std::io::Error) -> ChangelogError {
        ChangelogError::Read {
            path: path.to_path_buf(),
            why: format!("{e}; check the file's owner and permissions"),
        }
    }

    /// The log file the error is about.
    pub fn path(&self) -> &Path {
        match self {
            ChangelogError::Write { path, .. }
            | ChangelogError::Read { path, .. }
            | ChangelogError::Queue { path, .. }
            | ChangelogError::JournalId { path } => path,
        }
    }
}
