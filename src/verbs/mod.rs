//! One module per command, each exposing one `run` function (uv/kubectl style).
//!
//! A verb gets the immutable `Settings`, its own arguments and a `Printer`; it parses its
//! own arguments, calls the guarded path ([`crate::guard`]) — the only way to reach the
//! cluster — and formats the result. Verbs that the metrics count return an [`Outcome`]
//! (the resource they acted on and how they ended); others return `Ok` or a [`VerbError`]
//! that knows its exit code. No verb file imports another.

pub mod apply;
pub mod auth;
pub mod changelog_cmd;
pub mod config_cmd;
pub mod crds_list;
pub mod crds_sync;
pub mod crds_watch;
pub mod delete;
pub mod drift;
pub mod edit;
pub mod get;
pub mod label;
pub mod metrics_cmd;
pub mod patch;
pub mod policies;
pub mod protect;
pub mod rollback;
pub mod rollout;
pub mod scale;
pub mod undelete;
pub mod version;

pub use changelog_cmd::HistoryError;
pub use rollback::{RollbackError, SessionRollbackError};

use crate::cluster::{ApiError, ClusterError, ResolveError};
use crate::config::ConfigError;
use crate::crds::{LoadError, RegistryError};
use crate::exit::ExitStatus;
use crate::guard::authz::GateError;
use crate::guard::{ApplyError, GuardError};
use crate::metrics::Status;
use crate::output::OutputError;

/// What a counted verb did: the resource it acted on (`plural.group`, once TYPE resolved;
/// the metric `resource` label) and how it ended. Returned by value: the metrics labels come
/// from it, not from out-parameters.
#[derive(Debug)]
pub struct Outcome {
    /// `plural.group` of the resource acted on, `None` when the command failed before TYPE
    /// resolved.
    pub resource: Option<String>,
    /// How it ended.
    pub result: Result<(), VerbError>,
}

impl Outcome {
    /// A command that failed before it knew its resource.
    pub fn early(e: impl Into<VerbError>) -> Outcome {
        Outcome {
            resource: None,
            result: Err(e.into()),
        }
    }

    /// A command on `resource` that ended with `result`.
    pub fn on(resource: String, result: Result<(), VerbError>) -> Outcome {
        Outcome {
            resource: Some(resource),
            result,
        }
    }
}

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
    Gate(Box<GateError>),
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
    Apply(Box<ApplyError>),
    /// A rollback refused before any request.
    #[error(transparent)]
    Rollback(Box<RollbackError>),
    /// `changelog diff`/`why` cannot answer.
    #[error(transparent)]
    History(Box<HistoryError>),
    /// `rollback --session` did not restore every change.
    #[error(transparent)]
    SessionRollback(Box<SessionRollbackError>),
    /// An undelete refused or incomplete.
    #[error(transparent)]
    Undelete(Box<crate::history::undelete::UndeleteError>),
    /// The guarded path refused (impersonation not applied, journal not writable).
    #[error(transparent)]
    Guard(Box<GuardError>),
    /// A conflict in kubectl's words, exit 5: a precondition the command line set does not
    /// hold (`scale --current-replicas`, `--resource-version`; nothing was sent), or a
    /// server-side apply's field conflict with other managers (the fields and their
    /// managers, then what to do).
    #[error("{0}")]
    Conflict(String),
    /// A change the API server would refuse as invalid, refused before it is sent: the
    /// server's own sentence (`The ConfigMap "c1" is invalid: …`), printed bare as kubectl
    /// prints the server's answer; exit 2.
    #[error("{0}")]
    Invalid(String),
    /// Bad arguments that clap cannot express.
    #[error("{0}")]
    Usage(String),
    /// Local I/O failed (the change log, the CRD directory, the metrics state, a signal
    /// handler). The message is the cause's own sentence; the cause stays typed as the source
    /// (a plain sentence when there is no typed cause). Build it with [`VerbError::io`].
    #[error(transparent)]
    Io(Box<dyn std::error::Error + Send + Sync>),
    /// `changelog verify` found the hash chain broken (the sentence names the first break).
    #[error("{0}")]
    ChainBroken(String),
    /// `protect status|lift|end` refused or failed.
    #[error(transparent)]
    Protect(Box<protect::ProtectError>),
}

impl VerbError {
    /// The stderr line of this failure, as kubectl prints it: the API server's own sentence
    /// and a change the server would refuse as invalid bare, every other failure after
    /// `error: `. The app prints a command's last failure with it, and a verb that works on
    /// several objects prints each earlier failure with it, so every line reads the same.
    pub fn line(&self) -> String {
        match self {
            VerbError::Api(crate::cluster::ApiError::Server { .. }) | VerbError::Invalid(_) => {
                self.to_string()
            }
            _ => format!("error: {self}"),
        }
    }

    /// The documented exit code (docs/design.md, "Exit codes").
    pub fn exit_status(&self) -> ExitStatus {
        match self {
            VerbError::Config(e) => e.exit_status(),
            VerbError::Cluster(e) => e.exit_status(),
            VerbError::Resolve(e) => e.exit_status(),
            VerbError::Gate(e) => e.exit_status(),
            VerbError::Api(e) => e.exit_status(),
            VerbError::Apply(e) => e.exit_status(),
            VerbError::Rollback(e) => e.exit_status(),
            VerbError::History(e) => e.exit_status(),
            VerbError::SessionRollback(e) => e.exit_status(),
            VerbError::Undelete(e) => e.exit_status(),
            VerbError::Guard(e) => e.exit_status(),
            VerbError::Registry(_) | VerbError::Io(_) | VerbError::ChainBroken(_) => {
                ExitStatus::Failure
            }
            VerbError::Output(e) => e.exit_status(),
            VerbError::CrdFiles(_) | VerbError::Usage(_) | VerbError::Invalid(_) => {
                ExitStatus::Usage
            }
            VerbError::Conflict(_) => ExitStatus::Conflict,
            VerbError::Protect(e) => e.exit_status(),
        }
    }

    /// A local I/O failure from its typed cause, or from a sentence (`String`, `&str`).
    pub fn io(cause: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> VerbError {
        VerbError::Io(cause.into())
    }

    /// Keeps in `slot` the more severe of the failure there and `e` (the earlier one on a
    /// tie: [`ExitStatus::most_severe`]), and returns the other, for the caller to print now;
    /// `None` when `slot` was empty. A verb that goes on after a failed object returns the
    /// worst failure at the end.
    pub fn keep_worse(slot: &mut Option<VerbError>, e: VerbError) -> Option<VerbError> {
        let Some(prev) = slot.take() else {
            *slot = Some(e);
            return None;
        };
        let worse = ExitStatus::most_severe([prev.exit_status(), e.exit_status()])
            == e.exit_status()
            && prev.exit_status() != e.exit_status();
        let (keep, print) = if worse { (e, prev) } else { (prev, e) };
        *slot = Some(keep);
        Some(print)
    }

    /// The metric `status` label for this failure.
    pub fn metric_status(&self) -> Status {
        Status::for_exit(self.exit_status())
    }
}

/// The guarded path's errors keep their own variants where verbs already had one (so a
/// server error still prints bare, as kubectl prints it).
impl From<GuardError> for VerbError {
    fn from(e: GuardError) -> VerbError {
        match e {
            GuardError::Usage(m) => VerbError::Usage(m),
            GuardError::Cluster(e) => VerbError::Cluster(e),
            GuardError::Resolve(e) => VerbError::Resolve(e),
            GuardError::Gate(e) => VerbError::Gate(Box::new(e)),
            GuardError::Api(e) => VerbError::Api(e),
            other => VerbError::Guard(Box::new(other)),
        }
    }
}

// The large errors are boxed (clippy `result_large_err`: every `Result<_, VerbError>` moves
// the error by value); these keep `?` working on the unboxed values.
impl From<GateError> for VerbError {
    fn from(e: GateError) -> VerbError {
        VerbError::Gate(Box::new(e))
    }
}

impl From<ApplyError> for VerbError {
    fn from(e: ApplyError) -> VerbError {
        VerbError::Apply(Box::new(e))
    }
}

impl From<SessionRollbackError> for VerbError {
    fn from(e: SessionRollbackError) -> VerbError {
        VerbError::SessionRollback(Box::new(e))
    }
}

impl From<RollbackError> for VerbError {
    fn from(e: RollbackError) -> VerbError {
        VerbError::Rollback(Box::new(e))
    }
}

/// The guarded path's and the output's errors keep their own variants (a server error
/// prints bare, as kubectl prints it).
impl From<crate::history::undelete::UndeleteError> for VerbError {
    fn from(e: crate::history::undelete::UndeleteError) -> VerbError {
        use crate::history::undelete::UndeleteError;
        match e {
            UndeleteError::Guard(g) => g.into(),
            UndeleteError::Output(o) => VerbError::Output(o),
            other => VerbError::Undelete(Box::new(other)),
        }
    }
}

impl From<HistoryError> for VerbError {
    fn from(e: HistoryError) -> VerbError {
        VerbError::History(Box::new(e))
    }
}
