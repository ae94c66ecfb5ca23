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
            ChangelogError::Write { path, .. } | ChangelogError::Read { path, .. } => path,
        }
    }
}
