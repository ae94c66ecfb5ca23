//! One module per command, each exposing one `run` function (uv/kubectl style).
//!
//! A verb gets the immutable [`Settings`], its own arguments and a [`Printer`]; it returns
//! `Ok` or a [`VerbError`] that knows its exit code and its metric `status` label.

pub mod auth;
pub mod changelog_cmd;
pub mod config_cmd;
pub mod crds_list;
pub mod crds_sync;
pub mod crds_watch;
pub mod get;
pub mod metrics_cmd;
pub mod patch;
pub mod rollback;
pub mod version;

use crate::authz::GateError;
use crate::cluster::{ApiError, ClusterError, ResolveError};
use crate::config::ConfigError;
use crate::crds::{ApplyError, LoadError, RegistryError};
use crate::exit::ExitStatus;
use crate::metrics::Status;
use crate::output::OutputError;

/// Any failure of a verb, as one sentence for stderr.
#[derive(Debug, thiserror::Error)]
pub enum VerbError {
    /// plugin.yaml is invalid.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// No usable kubeconfig/client.
    #[error(transparent)]
    Cluster(#[from] ClusterError),
    /// TYPE did not resolve.
    #[error(transparent)]
    Resolve(#[from] ResolveError),
    /// Refused by plugin.yaml or RBAC.
    #[error(transparent)]
    Gate(#[from] GateError),
    /// The API request failed.
    #[error(transparent)]
    Api(#[from] ApiError),
    /// The CRD registry could not be read or written.
    #[error(transparent)]
    Registry(#[from] RegistryError),
    /// Writing the output failed.
    #[error(transparent)]
    Output(#[from] OutputError),
    /// One or more CRD files are invalid (each already reported on stderr).
    #[error("{} CRD file(s) could not be loaded; fix them and sync again (first: {})", .0.len(), .0.first().map(|e| e.to_string()).unwrap_or_default())]
    CrdFiles(Vec<LoadError>),
    /// A CRD could not be registered (already reported per CRD on stderr for `crds sync`).
    #[error(transparent)]
    Apply(#[from] ApplyError),
    /// A rollback refused before any request.
    #[error(transparent)]
    Rollback(#[from] crate::verbs::rollback::RollbackError),
    /// Bad arguments that clap cannot express.
    #[error("{0}")]
    Usage(String),
    /// Local I/O (a directory that cannot be read).
    #[error("{0}")]
    Io(String),
}

impl VerbError {
    /// The documented exit code (ARCHITECTURE §2).
    pub fn exit_status(&self) -> ExitStatus {
        match self {
            VerbError::Config(e) => e.exit_status(),
            VerbError::Cluster(e) => e.exit_status(),
            VerbError::Resolve(e) => e.exit_status(),
            VerbError::Gate(e) => e.exit_status(),
            VerbError::Api(e) => e.exit_status(),
            VerbError::Apply(e) => e.exit_status(),
            VerbError::Rollback(e) => e.exit_status(),
            VerbError::Registry(_) | VerbError::Io(_) => ExitStatus::Failure,
            VerbError::Output(e) => e.exit_status(),
            VerbError::CrdFiles(_) | VerbError::Usage(_) => ExitStatus::Usage,
        }
    }

    /// The metric `status` label for this failure.
    pub fn metric_status(&self) -> Status {
        status_for(self.exit_status())
    }
}

/// Maps an exit status to the metric `status` label (ARCHITECTURE §6).
pub fn status_for(e: ExitStatus) -> Status {
    match e {
        ExitStatus::Success => Status::Success,
        ExitStatus::Denied => Status::Denied,
        ExitStatus::NotFound => Status::NotFound,
        ExitStatus::Conflict => Status::Conflict,
        ExitStatus::Usage => Status::Invalid,
        ExitStatus::Failure => Status::Error,
    }
}
