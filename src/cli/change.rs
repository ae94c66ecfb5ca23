//! Arguments of the commands that change objects (`patch`, `rollback`) and read the change
//! log (`changelog`).

use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};

use super::help;
use super::values::{
    DEFAULT_FIELD_MANAGER, DRY_RUN_BARE, DryRunFlag, DryRunParser, FieldManagerParser, FormatParser,
};
use crate::cluster::params::PatchType;
use crate::output::format::{ListFormat, ObjectFormat};

/// Arguments of `patch`.
#[derive(Debug, Clone, Args)]
pub struct PatchArgs {
    /// TYPE NAME or TYPE/NAME.
    #[arg(required = true, num_args = 1..=2, value_name = "TYPE[/NAME]")]
    pub args: Vec<String>,
    /// Patch type.
    #[arg(long = "type", value_enum, default_value = "strategic")]
    pub patch_type: PatchType,
    /// The patch, as JSON or YAML.
    #[arg(short = 'p', long, conflicts_with = "patch_file")]
    pub patch: Option<String>,
    /// A file holding the patch (JSON or YAML).
    #[arg(long, value_name = "PATH")]
    pub patch_file: Option<PathBuf>,
    /// Dry run: none (default), server, or client; a bare --dry-run is client (deprecated,
    /// as in kubectl).
    #[arg(long, default_value = "none", num_args = 0..=1, default_missing_value = DRY_RUN_BARE, require_equals = true, value_parser = DryRunParser)]
    pub dry_run: DryRunFlag,
    /// Patch a subresource (status or scale).
    #[arg(long)]
    pub subresource: Option<String>,
    /// Field manager recorded by the server (at most 128 bytes, printable; empty = the default).
    #[arg(long, default_value = DEFAULT_FIELD_MANAGER, value_parser = FieldManagerParser)]
    pub field_manager: String,
    /// Show the change by field path (always on with --dry-run).
    #[arg(long)]
    pub diff: bool,
    /// Print the patched object instead of the one-line result: json, yaml, name,
    /// jsonpath=TEMPLATE, jsonpath-file=PATH or jsonpath-as-json=TEMPLATE.
    #[arg(short = 'o', long, value_parser = FormatParser::<false>)]
    pub output: Option<ObjectFormat>,
    /// With --contexts/--all-contexts: how many contexts the first (canary) wave patches;
    /// the rest follow only if every one of them succeeded.
    /// (default 1)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub canary: Option<u16>,
}

/// Arguments of `rollback`.
#[derive(Debug, Args)]
pub struct RollbackArgs {
    /// The change-log entry id (`changelog list`): this workstation's, or a teammate's from
    /// the cluster mirror (`changelog list --from-cluster`; plugin.yaml `changelog.mirror`).
    #[arg(required_unless_present = "session", conflicts_with = "session")]
    pub id: Option<String>,
    /// Roll back every change of one invocation (the `session` of its change-log entries,
    /// e.g. a patch fanned out over several contexts), each in the context it was made in,
    /// newest first, with the same conflict rules as `rollback ID`.
    #[arg(long, value_name = "SESSION")]
    pub session: Option<String>,
    /// Restore even if someone changed the object since (skips the resourceVersion guard),
    /// or a reconciler (Flux, Argo CD, Helm, kapp, kubectl apply) manages it; the owner is
    /// recorded in the rollback's change-log entry.
    #[arg(long)]
    pub force: bool,
    /// Dry run: none (default), server, or client; shows the diff. A bare --dry-run is
    /// client (deprecated, as in kubectl).
    #[arg(long, default_value = "none", num_args = 0..=1, default_missing_value = DRY_RUN_BARE, require_equals = true, value_parser = DryRunParser)]
    pub dry_run: DryRunFlag,
    /// Field manager recorded by the server (at most 128 bytes, printable; empty = the default).
    #[arg(long, default_value = DEFAULT_FIELD_MANAGER, value_parser = FieldManagerParser)]
    pub field_manager: String,
}

/// `changelog` subcommands.
#[derive(Debug, Subcommand)]
pub enum ChangelogCommand {
    /// One line per entry: id, time, user, operation, object, result (and the reason, when a
    /// listed entry has one).
    #[command(after_help = help::CHANGELOG_LIST_HELP)]
    List {
        /// Only entries newer than this: a duration (`1h`, `30m`) or an RFC 3339 time.
        #[arg(long)]
        since: Option<String>,
        /// Only entries for this object: NAME, TYPE/NAME or NAMESPACE/NAME (kind or plural, any case).
        #[arg(long)]
        object: Option<String>,
        /// Only the entries of one invocation (its session id, as `rollback --session` takes).
        #[arg(long, value_name = "SESSION")]
        session: Option<String>,
        /// Only entries of this operation.
        #[arg(long, value_name = "OPERATION", value_parser = ["patch", "rollback", "crd-apply", "crd-prune", "delete", "undelete", "apply", "scale", "label", "annotate", "edit", "rollout", "protect-lift", "protect-end"])]
        operation: Option<String>,
        /// Only entries with this result: success, failure (denied or an error) or unknown
        /// (an intent without an outcome; `pending` means the same).
        #[arg(long, value_enum, value_name = "RESULT")]
        result: Option<ResultFilter>,
        /// Only entries made through this client: `mcp` for every agent (`kubectl myops mcp`),
        /// `mcp:NAME` for one client, `mcp:NAME/VERSION` for one version of it.
        #[arg(long, value_name = "ACTOR")]
        actor: Option<String>,
        /// Print the entries (the last record of every id) as json (an array) or yaml instead
        /// of a table.
        #[arg(short = 'o', long, value_enum, value_name = "FORMAT")]
        output: Option<ListFormat>,
        /// List the lines that are not valid entries (torn, not UTF-8, not JSON) instead: line number and reason.
        #[arg(long, conflicts_with_all = ["since", "object", "session", "operation", "result", "actor", "output", "from_cluster"])]
        invalid: bool,
        /// List everyone's entries from the cluster mirror (plugin.yaml `changelog.mirror`)
        /// instead of this workstation's log; USER is who created the record, as the API
        /// server saw it (docs/team.md). Not `--cluster`: that is kubectl's global flag
        /// naming the kubeconfig cluster.
        #[arg(long)]
        from_cluster: bool,
        /// With --from-cluster: only the records USER created, as the API server saw it
        /// (`spec.createdBy`). Not `--user`: that is kubectl's global flag choosing the
        /// kubeconfig user the command authenticates as.
        #[arg(long, value_name = "USER", requires = "from_cluster")]
        by: Option<String>,
        /// With --from-cluster: print only the newest N entries.
        #[arg(long, value_name = "N", requires = "from_cluster")]
        limit: Option<usize>,
        /// With --from-cluster: only entries of this TYPE (kind or plural, any case) [and NAME].
        #[arg(value_name = "TYPE [NAME]", num_args = 0..=2, requires = "from_cluster")]
        target: Vec<String>,
    },
    /// One change as a field-level diff, before → after (Secret values masked).
    #[command(after_help = help::CHANGELOG_DIFF_HELP)]
    Diff {
        /// The entry id: this workstation's, or a teammate's from the cluster mirror
        /// (plugin.yaml `changelog.mirror`).
        id: String,
    },
    /// Which journaled changes touched a field of an object, newest first.
    #[command(after_help = help::CHANGELOG_WHY_HELP)]
    Why {
        /// The object: NAME, TYPE/NAME, NAMESPACE/NAME or TYPE/NAMESPACE/NAME (as the
        /// OBJECT column of `changelog list`).
        object: String,
        /// The field: a dotted path (`.data.key`, `spec.replicas`,
        /// `spec.containers[0].image`, `metadata.labels["app.kubernetes.io/name"]`) or a JSON
        /// Pointer (`/spec/replicas`).
        field: String,
    },
    /// One entry, as pretty JSON.
    #[command(after_help = help::CHANGELOG_SHOW_HELP)]
    Show {
        /// The entry id: this workstation's, or a teammate's from the cluster mirror
        /// (plugin.yaml `changelog.mirror`).
        id: String,
    },
    /// Check the hash chain across the retained files: exit 0 when it holds, 1 naming the first break.
    #[command(after_help = help::CHANGELOG_VERIFY_HELP)]
    Verify {
        /// Also check this workstation's records in the cluster mirror: each must still be in
        /// the local log with the same hash, and unedited (exit 1 naming each one that is not).
        #[arg(long)]
        against_cluster: bool,
    },
    /// Find the real outcome of entries whose outcome is unknown (an intent without an
    /// outcome record) by reading the live object, and record it; never rolls back or retries.
    #[command(after_help = help::CHANGELOG_RECONCILE_HELP)]
    Reconcile {
        /// The entry id; without it, every entry whose outcome is unknown.
        id: Option<String>,
        /// Record the outcome you decided (after checking the object) for entry ID, which the
        /// live object could not decide; the object is not read. Only with an ID.
        #[arg(long = "outcome", value_enum, value_name = "OUTCOME", requires = "id")]
        decided: Option<Decision>,
    },
    /// The cluster mirror of the change log: send the queue, prune old records.
    #[command(subcommand, after_help = super::mirror::MIRROR_HELP)]
    Mirror(super::mirror::MirrorCommand),
}

/// `changelog reconcile --outcome` values: the outcome a person decided for an entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Decision {
    /// The patch was applied: recorded as `success`.
    Applied,
    /// The patch was not applied: recorded as `not applied`.
    NotApplied,
}

/// `changelog list --result` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ResultFilter {
    /// The change was made.
    Success,
    /// Refused (denied) or failed: changed nothing.
    Failure,
    /// An intent without an outcome record: may or may not have been made.
    #[value(alias = "pending")]
    Unknown,
}
