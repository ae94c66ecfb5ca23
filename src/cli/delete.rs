//! Arguments of the commands that delete objects and create them again: `delete` (kubectl's
//! forms and flags, `kubectl delete --help`) and `undelete`.

use clap::{Args, ValueEnum};

use super::values::{
    DEFAULT_FIELD_MANAGER, DRY_RUN_BARE, DryRunFlag, DryRunParser, FieldManagerParser,
};

/// Arguments of `delete`.
#[derive(Debug, Clone, Args)]
pub struct DeleteArgs {
    /// TYPE NAME…, TYPE/NAME…, or TYPE with -l, --field-selector or --all.
    #[arg(required = true, value_name = "TYPE[/NAME]")]
    pub args: Vec<String>,
    /// Label selector, e.g. `app=web,tier!=cache`.
    #[arg(short = 'l', long)]
    pub selector: Option<String>,
    /// Field selector, e.g. `metadata.name=web`.
    #[arg(long)]
    pub field_selector: Option<String>,
    /// Delete every object of TYPE in the namespace (or across namespaces with -A).
    #[arg(long)]
    pub all: bool,
    /// With -l, --field-selector or --all: across all namespaces (needs scope `cluster`).
    #[arg(short = 'A', long)]
    pub all_namespaces: bool,
    /// How dependents are deleted: background (default), foreground or orphan (the
    /// `propagationPolicy` of the DELETE).
    #[arg(long, value_enum, default_value = "background", num_args = 0..=1, default_missing_value = "background", require_equals = true)]
    pub cascade: Cascade,
    /// Seconds the object is given to terminate gracefully (-1: the type's default; 0 only
    /// with --force in kubectl, here as 1 with --now).
    #[arg(long, default_value_t = -1, allow_negative_numbers = true)]
    pub grace_period: i64,
    /// Signal the object to terminate at once (grace period 1).
    #[arg(long)]
    pub now: bool,
    /// Wait until the objects are gone (finalizers cleared) before returning (default true).
    #[arg(long, default_value_t = true, num_args = 0..=1, default_missing_value = "true", require_equals = true, action = clap::ArgAction::Set)]
    pub wait: bool,
    /// How long --wait waits: seconds or a Go duration (0s: as kubectl, a week).
    #[arg(long, default_value = "0s", value_name = "DURATION")]
    pub timeout: String,
    /// Dry run: none (default), server (the preview, nothing deleted), or client; a bare
    /// --dry-run is client (deprecated, as in kubectl).
    #[arg(long, default_value = "none", num_args = 0..=1, default_missing_value = DRY_RUN_BARE, require_equals = true, value_parser = DryRunParser)]
    pub dry_run: DryRunFlag,
    /// A named object that does not exist is not an error (exit 0).
    #[arg(long)]
    pub ignore_not_found: bool,
    /// `name`: print `TYPE.GROUP/NAME` of each deleted object instead of the sentence.
    #[arg(short = 'o', long, value_parser = ["name"])]
    pub output: Option<String>,
    /// Delete a namespace or CRD whose objects exceed plugin.yaml `changelog.snapshotLimit`
    /// without journaling them: they cannot be undeleted.
    #[arg(long)]
    pub unrecoverable: bool,
    /// With --contexts/--all-contexts: how many contexts the first (canary) wave deletes in;
    /// the rest follow only if every one of them succeeded. (default 1)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub canary: Option<u16>,
}

/// `--cascade` values: the DELETE's `propagationPolicy`
/// (<https://kubernetes.io/docs/concepts/architecture/garbage-collection/#cascading-deletion>).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Cascade {
    /// Delete the object now; the garbage collector deletes its dependents after.
    Background,
    /// Delete the dependents first; the object goes after them.
    Foreground,
    /// Leave the dependents, without their owner reference.
    Orphan,
}

/// Arguments of `undelete`.
#[derive(Debug, Clone, Args)]
pub struct UndeleteArgs {
    /// TYPE NAME or TYPE/NAME: the latest delete entry of that object.
    #[arg(num_args = 1..=2, value_name = "TYPE[/NAME]", required_unless_present = "entry", conflicts_with = "entry")]
    pub args: Vec<String>,
    /// The delete entry to undo (`changelog list --operation delete`).
    #[arg(long, value_name = "ID")]
    pub entry: Option<String>,
    /// Create it even if a reconciler (Flux, Argo CD, Helm, kapp) manages it.
    #[arg(long)]
    pub force: bool,
    /// Dry run: none (default), server, or client. A bare --dry-run is client (deprecated,
    /// as in kubectl).
    #[arg(long, default_value = "none", num_args = 0..=1, default_missing_value = DRY_RUN_BARE, require_equals = true, value_parser = DryRunParser)]
    pub dry_run: DryRunFlag,
    /// Field manager recorded by the server (at most 128 bytes, printable; empty = the default).
    #[arg(long, default_value = DEFAULT_FIELD_MANAGER, value_parser = FieldManagerParser)]
    pub field_manager: String,
}

/// `delete --help` examples and the guarantee.
pub const DELETE_HELP: &str =
    "Before anything is deleted, each object's whole state is journaled (Secret values
redacted) and the DELETE carries preconditions on its uid and resourceVersion: a change
made in between is a conflict (exit 5), not a silent loss. A delete of several objects,
of a namespace or of a CRD prints a preview first; --dry-run=server prints only the preview.

Examples:
  kubectl myops delete configmap web-config
  kubectl myops delete deploy/web svc/web
  kubectl myops delete configmaps -l app=web --dry-run=server
  kubectl myops delete namespace staging
  kubectl myops undelete configmap web-config";

/// `undelete --help` examples.
pub const UNDELETE_HELP: &str =
    "Creates the object again from the before-state of its latest delete entry (server-set
fields dropped; owner references kept only when the owner still exists); a namespace or a
CRD comes back with the objects journaled with it. The undelete is journaled too: its
rollback deletes what it created.

Examples:
  kubectl myops undelete configmap web-config
  kubectl myops undelete --entry 18c2f9a1b2c-3f1a-0
  kubectl myops rollback 18c2f9a1b2c-3f1a-0   # the same, for a delete entry";
