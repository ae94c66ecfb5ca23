//! `protect status|lift DURATION|end`: which plugin.yaml `protect:` rules hold for the
//! current context and server, and a lift of them that expires (docs/protection.md).
//!
//! A lift is this user's local state — `MYOPS_HOME/protect/lifts.json`, mode 0600, replaced
//! atomically under its lock ([`crate::guard::protect::lifts`]) — and a journaled change-log
//! entry (operations `protect-lift` and `protect-end`, kind `ProtectionLift`, apiVersion
//! `myops/v1`, name the context, namespace the lifted one, `reason` the `--reason`). Its id is
//! the entry's id, so the questions and records the lift answers name the entry that granted
//! it. The entry is written ahead: its intent (`pending`) before the file, its outcome after
//! it, as every journaled change.
//!
//! Why no plugin.yaml verb bounds `protect`: it sends no request to the cluster, so there is
//! nothing for the boundary or RBAC to allow — every change made while a lift is in force is
//! still bounded by plugin.yaml and reviewed by the API server. What a lift may do is bounded
//! where protection is declared: by `maxLift` (the longest lift), by `block` (never lifted:
//! exit 3), and by the guarded path judging every stored lift against today's rules and
//! clock ([`crate::rules::protect::Lift::in_force`]). A plugin.yaml that wants no lift at all
//! says `mode: block`.
//!
//! The context and server are the kubeconfig's, resolved as every command resolves them
//! (`--context`, `--kubeconfig`, `-s`): the session is opened, which builds the client but
//! sends nothing, except the SelfSubjectReview that names the user of a journaled lift.
//!
//! Exit codes: an unparsable, negative, zero or huge DURATION, a DURATION longer than the
//! rules' `maxLift`, a context no rule holds for (nothing to lift), a lift without `--reason`
//! where a rule it lifts has `requireReason` (the lift stands in for the questions that rule
//! asks, so it gives the reason they would need) are usage errors (2): the command line asks
//! for what plugin.yaml does not offer; a context where only `block` rules
//! hold is denied (3), as every change there is; `end` with no lift to end is not found (4).

mod change;
mod plan;
mod status;

pub use plan::{
    Judged, NoLift, holding, judge, lift_limit, reasons_required, with_lift, without_lifts,
};

use crate::cli::ProtectCommand;
use crate::exit::ExitStatus;
use crate::output::Printer;
use crate::settings::Settings;
use crate::verbs::VerbError;

/// Why `protect` refused or failed (each one sentence saying what to do).
#[derive(Debug, thiserror::Error)]
pub enum ProtectError {
    /// DURATION does not parse, or is 0, negative or over 30 days (the parser's sentence).
    #[error("{0}")]
    Duration(String),
    /// DURATION is longer than the rules allow.
    #[error(
        "a lift of {asked} is longer than the {max} the protect: rules of context {context} allow (their shortest maxLift); lift for {max} or less"
    )]
    TooLong {
        /// DURATION as given, normalised.
        asked: String,
        /// The longest allowed.
        max: String,
        /// The context.
        context: String,
    },
    /// No rule holds for the context (and namespace).
    #[error(
        "no plugin.yaml protect: rule holds for context {context}{ns} (server {server}), so there is nothing to lift; `kubectl myops protect status` shows the rules"
    )]
    NothingToLift {
        /// The context.
        context: String,
        /// ` namespace X`, or empty.
        ns: String,
        /// The server.
        server: String,
    },
    /// Only `block` rules hold, or a `block` rule of every verb holds in the whole scope.
    #[error(
        "protection of context {context}{ns} is block ({rules}), and a lift cannot lift block: changes there are refused whatever the flags; change plugin.yaml to allow them"
    )]
    OnlyBlock {
        /// The context.
        context: String,
        /// ` namespace X`, or empty.
        ns: String,
        /// The block rules as `protect[N]` (0-based, as every protection message names them), comma-separated.
        rules: String,
    },
    /// A rule that the lift would lift requires a reason, and `--reason` was not given.
    #[error(
        "{rules} of context {context}{ns} requires a reason, so a lift there needs one too; give --reason TEXT"
    )]
    ReasonRequired {
        /// The context.
        context: String,
        /// ` namespace X`, or empty.
        ns: String,
        /// Those rules as `protect[N]`, comma-separated.
        rules: String,
    },
    /// A lift is of a kubeconfig context, and there is none (in-cluster or `--server` alone).
    #[error(
        "protect lift and end need a kubeconfig context (a lift is of a context), and none is in use; name one with --context"
    )]
    NoContext,
    /// `end` found no lift to end.
    #[error(
        "no lift is in force for context {context}{ns}; `kubectl myops protect status` shows the lifts"
    )]
    NoLift {
        /// The context.
        context: String,
        /// ` namespace X`, or empty.
        ns: String,
    },
    /// The lifts file could not be written or locked.
    #[error("cannot write {path}: {source}; nothing was lifted or ended (check MYOPS_HOME)")]
    Lifts {
        /// The file.
        path: String,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
}

impl ProtectError {
    /// The documented exit code (see the module doc).
    pub fn exit_status(&self) -> ExitStatus {
        match self {
            ProtectError::Duration(_)
            | ProtectError::TooLong { .. }
            | ProtectError::NothingToLift { .. }
            | ProtectError::ReasonRequired { .. }
            | ProtectError::NoContext => ExitStatus::Usage,
            ProtectError::OnlyBlock { .. } => ExitStatus::Denied,
            ProtectError::NoLift { .. } => ExitStatus::NotFound,
            ProtectError::Lifts { .. } => ExitStatus::Failure,
        }
    }
}

impl From<ProtectError> for VerbError {
    fn from(e: ProtectError) -> VerbError {
        VerbError::Protect(Box::new(e))
    }
}

/// ` namespace NS` for messages, or nothing for the whole context.
fn in_namespace(namespace: Option<&str>) -> String {
    namespace
        .map(|ns| format!(" namespace {}", crate::base::echo::capped(ns, 64)))
        .unwrap_or_default()
}

/// Runs a `protect` subcommand.
///
/// # Errors
/// [`ProtectError`] (see the module doc for the exit codes), the session's errors
/// (configuration 2, an unwritable change log 1), output errors.
pub async fn run(s: &Settings, cmd: &ProtectCommand, p: &mut Printer<'_>) -> Result<(), VerbError> {
    match cmd {
        ProtectCommand::Status(args) => status::run(s, args.output, p).await,
        ProtectCommand::Lift(args) => change::lift(s, &args.duration, p).await,
        ProtectCommand::End => change::end(s, p).await,
    }
}
