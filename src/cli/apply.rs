//! Arguments of `apply` (kubectl's flags, `kubectl apply --help`, always server-side).

use std::path::PathBuf;

use clap::Args;

use super::values::{
    DEFAULT_FIELD_MANAGER, DRY_RUN_BARE, DryRunFlag, DryRunParser, FieldManagerParser,
};

/// Arguments of `apply`.
#[derive(Debug, Clone, Args)]
pub struct ApplyArgs {
    /// A manifest file (YAML or JSON, several documents allowed), a directory of them
    /// (*.yaml, *.yml, *.json), or `-` for stdin; repeatable.
    #[arg(short = 'f', long = "filename", required = true, value_name = "FILE|DIR|-", value_hint = clap::ValueHint::AnyPath)]
    pub filenames: Vec<PathBuf>,
    /// Read the directories given with -f recursively.
    #[arg(short = 'R', long)]
    pub recursive: bool,
    /// Always true: every apply is a server-side apply. `--server-side=false` (a client-side
    /// apply) is refused.
    #[arg(long, default_value_t = true, num_args = 0..=1, default_missing_value = "true", require_equals = true, action = clap::ArgAction::Set)]
    pub server_side: bool,
    /// Take over fields that other managers own; only when plugin.yaml sets
    /// `apply.forceConflicts: true`.
    #[arg(long)]
    pub force_conflicts: bool,
    /// Field manager recorded by the server (at most 128 bytes, printable; empty = the default).
    #[arg(long, default_value = DEFAULT_FIELD_MANAGER, value_parser = FieldManagerParser)]
    pub field_manager: String,
    /// Dry run: none (default) or server; client is refused, as kubectl refuses it with
    /// --server-side (a client cannot compute what the server would merge).
    #[arg(long, default_value = "none", num_args = 0..=1, default_missing_value = DRY_RUN_BARE, require_equals = true, value_parser = DryRunParser)]
    pub dry_run: DryRunFlag,
    /// `name`: print `TYPE.GROUP/NAME` of each applied object instead of the sentence.
    #[arg(short = 'o', long, value_parser = ["name"])]
    pub output: Option<String>,
    /// Not supported: pruning deletes every object of a label or apply set that the files no
    /// longer hold, which no single journaled change describes; refused (exit 2).
    #[arg(long)]
    pub prune: bool,
    /// With --contexts/--all-contexts: how many contexts the first (canary) wave applies in;
    /// the rest follow only if every one of them succeeded. (default 1)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub canary: Option<u16>,
}

/// `apply` help: what is refused and why, the reviews, examples.
pub const APPLY_HELP: &str = "Every apply is a server-side apply (PATCH application/apply-patch+yaml) with field manager
kubectl-myops, reviewed (create and patch, get for the before-state), judged by plugin.yaml field
policies through a server-side dry run, and journaled per object: `rollback ID` deletes an object
the apply created (only that uid) or restores the fields it changed.

A file with a bad document (invalid YAML, no kind or name, a kind the server does not serve, the
kubectl.kubernetes.io/last-applied-configuration annotation of a client-side apply) is refused
whole, with file:line:column, before anything in it is sent. A CustomResourceDefinition and its
custom resources may share a file when the CRD comes first: it is waited for until Established
and served. Conflicts with other field managers are exit 5, naming the fields and managers.

Examples:
  # Apply one manifest, then show what the change log recorded
  kubectl myops apply -f web.yaml
  kubectl myops changelog list --operation apply

  # Everything under a directory, previewed by the server first
  kubectl myops apply -f manifests/ -R --dry-run=server

  # From stdin
  kubectl create configmap c1 --from-literal=a=1 --dry-run=client -o yaml | kubectl myops apply -f -";
