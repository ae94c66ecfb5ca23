//! Errors of the state file (`MetricsError`).
//!
//! Every message says what to do; a corrupt or foreign-version file names its path and the
//! two ways out (`metrics reset` or deleting the file).

use std::io;
use std::path::PathBuf;

use super::state_format::STATE_VERSION;
use crate::exit::ExitStatus;

/// Errors reading or writing the state file.
#[derive(Debug, thiserror::Error)]
pub enum MetricsError {
    /// MYOPS_HOME did not exist and could not be created.
    #[error("cannot create the metrics directory {}: {source}; check MYOPS_HOME and its permissions", path.display())]
    CreateHome {
        /// The directory.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: io::Error,
    },
    /// MYOPS_HOME exists but is not a directory: a file, a FIFO, a dangling symbolic link.
    #[error(
        "MYOPS_HOME {} is {what}, not a directory; point MYOPS_HOME at a directory (default ~/.kube/myops) or move that away",
        path.display()
    )]
    NotADirectory {
        /// The MYOPS_HOME path.
        path: PathBuf,
        /// What it is instead, with its article (`a regular file`, `a FIFO (named pipe)`).
        what: String,
    },
    /// The lock file could not be opened or locked.
    #[error("cannot lock {}: {source}; check the permissions of MYOPS_HOME", path.display())]
    Lock {
        /// The lock file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: io::Error,
    },
    /// The state file exists but could not be read.
    #[error("cannot read the metrics state {}: {source}; check its permissions", path.display())]
    Read {
        /// The state file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: io::Error,
    },
    /// The state file is not valid JSON of the expected shape.
    #[error(
        "the metrics state file {} is corrupt ({reason}); run `kubectl myops metrics reset` or delete the file",
        path.display()
    )]
    Corrupt {
        /// The state file.
        path: PathBuf,
        /// What the parser rejected.
        reason: String,
    },
    /// The state file was written by a build with another format version.
    #[error(
        "the metrics state file {} has format version {found}, this build reads version {STATE_VERSION}; run `kubectl myops metrics reset` or delete the file",
        path.display()
    )]
    UnsupportedVersion {
        /// The state file.
        path: PathBuf,
        /// The version found in the file.
        found: u64,
    },
    /// Writing, syncing or renaming the new state failed; the previous state is intact.
    #[error("cannot write the metrics state {}: {source}; check free space and permissions (the previous totals are intact)", path.display())]
    Write {
        /// The file being written.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: io::Error,
    },
}

impl MetricsError {
    /// The exit status when a `metrics` command fails with this error: always 1, a runtime
    /// failure — the local state could not be used, as when the change log under the same
    /// MYOPS_HOME cannot be (docs/changelog.md makes that exit 1); exit 2 is kept for what the
    /// command line and plugin.yaml say.
    pub fn exit_status(&self) -> ExitStatus {
        ExitStatus::Failure
    }
}
