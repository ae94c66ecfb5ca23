//! The guarded path: the one layer below `verbs/` through which every command reaches the
//! cluster (docs/design.md, "The guarded path"). A verb cannot forget a guarantee because it
//! has no other way to send a request:
//!
//! - [`authz`]: the pure half of the gate — the plugin.yaml boundary and the shape of a
//!   SelfSubjectAccessReview question;
//! - [`target`]: `TYPE [NAME…]` / `TYPE/NAME…` parsed, names checked so the request sent is
//!   the one reviewed (pure); [`select`]: the objects names, `-l` or `--all` select, listed
//!   under a `list` review (one implementation for every verb that selects);
//! - [`Session`]: one per invocation, opened for a [`Purpose`] (the plugin.yaml verb that
//!   binds the command, checked first). Opening it proves the change log writable for a
//!   mutating command (before anything is sent), builds the client with the session id
//!   (`Kubectl-Session`, User-Agent) and bounded credential plugins, and — when impersonation
//!   is in effect — verifies with a SelfSubjectReview that the server applied it;
//!   it resolves TYPE through aggregated discovery, checks the plugin.yaml boundary and asks a
//!   SelfSubjectAccessReview, handing out a [`Grant`] naming what was reviewed, from which
//!   every later request is built;
//! - [`change`]: the mutation model (pure) — every kind of change (patch, delete, create,
//!   apply), with its reviews, its plugin.yaml verb, its journal records, its request and its
//!   inverse;
//! - [`protect`]: plugin.yaml protected contexts and namespaces — every mutating request is
//!   admitted there first (preview, question, refusal, lift), so no verb can forget it;
//! - [`deadline`]: every request bounded (discovery and reviews by kubectl's 32 s default,
//!   each call by `--request-timeout`);
//! - [`identity`]: requested vs observed identity (pure);
//! - [`mutation`]: write-ahead journaling — an intent record fsynced before the request, the
//!   complete outcome record after it — for patches, rollbacks, CRD applies and prunes;
//! - [`crd_apply`] and [`crd_batch`]: CRD registration on the same path, and the one batch
//!   function (plan → check access → apply → wait → record) of `crds sync` and `crds watch`;
//! - [`election`] (pure) and [`lease`]: leader election on a Lease for
//!   `crds watch --leader-elect`, and the [`lease::Fence`] every CRD apply and prune checks;
//! - [`probe`]: the server-side dry runs `policies verify` asks admission with (unjournaled,
//!   gated as the change they are);
//! - [`team`]: the cluster mirror's reader (paged `ChangeRecord` lists) for the team's view
//!   and `changelog verify --against-cluster`;
//! - [`watch`] and [`outage`]: the `get -w` stream, and the one backoff with which the
//!   long-running commands wait out a server that stops answering.
//!
//! `base`, `rules`, `config`, `changelog`, `crds`, `cluster`, `output`, `metrics`, `cli` and
//! `settings` are below this layer; `history`, `completions`, `verbs` and `fleet` are above it
//! (docs/design.md, "Layers").

pub mod authz;
pub mod change;
pub mod crd_apply;
pub mod crd_batch;
pub mod deadline;
pub mod delete;
pub mod election;
pub mod events;
pub mod identity;
pub mod lease;
pub mod mutation;
pub mod outage;
pub mod probe;
pub mod protect;
pub mod select;
pub mod session;
pub mod target;
pub mod team;
pub mod trail;
pub mod watch;

pub use change::{Change, Inverse};
pub use crd_apply::{AppliedCrd, Applier, ApplyError, FIELD_MANAGER, crd_type};
pub use crd_batch::{BatchSink, Event, Notice, Stages, run_batch, run_batch_into};
pub use deadline::Deadlines;
pub use identity::{IdentityError, Observed};
pub use mutation::lifecycle::Sent;
pub use mutation::{Applied, ApplyRequest, ObjectRef, PatchRequest, Patched, ReconcilerPolicy};
pub use select::{SelectArgs, Selection, selection};
pub use session::{Grant, Mode, Moved, Purpose, Session};
pub use target::{Target, check_names, parse_target, parse_targets};

use crate::changelog::ChangelogError;
use crate::cluster::{ApiError, ClusterError, ResolveError};
use crate::exit::ExitStatus;
use crate::guard::authz::GateError;

/// Why the guarded path refused or failed, each variant with its documented exit code.
#[derive(Debug, thiserror::Error)]
pub enum GuardError {
    /// Bad arguments (target syntax, a patch the server or the local computation rejects).
    #[error("{0}")]
    Usage(String),
    /// No usable kubeconfig/client.
    #[error(transparent)]
    Cluster(#[from] ClusterError),
    /// TYPE did not resolve.
    #[error(transparent)]
    Resolve(#[from] ResolveError),
    /// Refused by plugin.yaml or RBAC, or the review could not be made.
    #[error(transparent)]
    Gate(#[from] GateError),
    /// A request failed or timed out.
    #[error(transparent)]
    Api(#[from] ApiError),
    /// Impersonation was refused, or asked for but not applied by the server. Boxed: the
    /// refusal's five strings would make every guard result large.
    #[error(transparent)]
    Identity(Box<IdentityError>),
    /// The change log cannot be written, so the mutation was refused before any request.
    #[error("{0}; nothing was sent to the cluster")]
    Journal(#[source] ChangelogError),
    /// The live object is owned by a reconciler that will revert the change, and the
    /// request asked to refuse then ([`mutation::ReconcilerPolicy::Refuse`], a rollback
    /// without `--force`); nothing was sent.
    #[error(
        "{object} is managed by {} ({}), which will revert a rollback {}; make the change in {} instead, or pass --force to roll back anyway (nothing was sent)",
        owner.owner(), owner.marker, owner.reverts_when(), owner.source_of_truth()
    )]
    Reconciled {
        /// The object (`configmap/web`).
        object: String,
        /// Its owner.
        owner: crate::rules::reconciler::Reconciler,
    },
    /// A field-path policy of plugin.yaml ([`crate::rules::policy`]) forbids a change the
    /// patch would make, as the server-side dry run of the same patch showed; nothing was
    /// sent for real.
    #[error(
        "denied by plugin.yaml {rule}: the {change} would change {paths} of {object}: {message} (nothing was sent)"
    )]
    Policy {
        /// `patch` or `rollback`.
        change: &'static str,
        /// The object (`secret/db`).
        object: String,
        /// `policies[0] (secrets)`.
        rule: String,
        /// The denied paths (JSON Pointers, escaped for the terminal), never values.
        paths: String,
        /// The rule's message (escaped for the terminal).
        message: String,
    },
    /// A rule of plugin.yaml `policies:` with `delete: deny` covers the object, so a change
    /// that deletes it is refused ([`crate::rules::policy::forbids_delete`]); nothing was
    /// sent.
    #[error(
        "denied by plugin.yaml {rule}: the {change} would delete {object}, and the rule forbids deleting it: {message} (nothing was sent)"
    )]
    PolicyDelete {
        /// `delete`, `rollback` (an undo that deletes), or `change`.
        change: &'static str,
        /// The object (`configmap/web`).
        object: String,
        /// `policies[0] (configmaps)`.
        rule: String,
        /// The rule's message (escaped for the terminal).
        message: String,
    },
    /// A field-path policy applies to the object, but what the patch would change cannot be
    /// known (the before-state cannot be read, or a scale patch on a custom resource), so
    /// the patch is refused rather than guessed about; nothing was sent.
    #[error(
        "denied by plugin.yaml {rule}: it applies to {object}, but the fields the {change} would change cannot be checked: {why} (nothing was sent)"
    )]
    PolicyUnchecked {
        /// `patch` or `rollback`.
        change: &'static str,
        /// The object (`secret/db`).
        object: String,
        /// `policies[0] (secrets)`.
        rule: String,
        /// Why, and what to do.
        why: String,
    },
    /// The request was sent, but its outcome could not be journaled (the intent is there and
    /// reads as "outcome unknown").
    #[error(
        "the change was sent but its outcome could not be journaled: {0}; the change log shows the attempt as outcome unknown — once the log can be written, `kubectl myops changelog reconcile` reads the object and records what happened"
    )]
    Unjournaled(#[source] ChangelogError),
    /// A plugin.yaml `protect:` rule holds and was not answered yes (docs/protection.md);
    /// nothing was sent.
    #[error(transparent)]
    Protected(#[from] protect::ProtectError),
    /// The cluster mirror cannot be read ([`team`]).
    #[error(transparent)]
    Mirror(#[from] team::MirrorError),
}

impl From<IdentityError> for GuardError {
    fn from(e: IdentityError) -> GuardError {
        GuardError::Identity(Box::new(e))
    }
}

impl GuardError {
    /// The documented exit code (docs/design.md, "Exit codes").
    pub fn exit_status(&self) -> ExitStatus {
        match self {
            GuardError::Usage(_) => ExitStatus::Usage,
            GuardError::Cluster(e) => e.exit_status(),
            GuardError::Resolve(e) => e.exit_status(),
            GuardError::Gate(e) => e.exit_status(),
            GuardError::Api(e) => e.exit_status(),
            GuardError::Identity(_) => ExitStatus::Denied,
            GuardError::Reconciled { .. } => ExitStatus::Conflict,
            GuardError::Policy { .. }
            | GuardError::PolicyUnchecked { .. }
            | GuardError::PolicyDelete { .. } => ExitStatus::Denied,
            GuardError::Journal(_) | GuardError::Unjournaled(_) => ExitStatus::Failure,
            GuardError::Protected(_) => ExitStatus::Denied,
            GuardError::Mirror(e) => e.exit_status(),
        }
    }
}
