//! Arguments of the commands that change one part of objects on the mutation model: `scale`
//! (kubectl's forms and flags, `kubectl scale --help`), `label` and `annotate` (one struct:
//! kubectl's two commands take the same flags).

use clap::Args;

use super::values::{
    DEFAULT_FIELD_MANAGER, DRY_RUN_BARE, DryRunFlag, DryRunParser, FieldManagerParser,
};

/// Arguments of `scale`.
#[derive(Debug, Clone, Args)]
pub struct ScaleArgs {
    /// TYPE NAME…, TYPE/NAME…, or TYPE with -l or --all.
    #[arg(required = true, value_name = "TYPE[/NAME]")]
    pub args: Vec<String>,
    /// The new desired number of replicas (0 or more).
    #[arg(
        long,
        required = true,
        allow_negative_numbers = true,
        value_name = "COUNT"
    )]
    pub replicas: i64,
    /// Precondition: the current size must be this (-1, the default: no condition).
    #[arg(long, default_value_t = -1, allow_negative_numbers = true, value_name = "COUNT")]
    pub current_replicas: i64,
    /// Precondition: the object's resourceVersion must be this (one object only).
    #[arg(long, value_name = "VERSION")]
    pub resource_version: Option<String>,
    /// Label selector, e.g. `app=web,tier!=cache`.
    #[arg(short = 'l', long)]
    pub selector: Option<String>,
    /// Scale every object of TYPE in the namespace.
    #[arg(long)]
    pub all: bool,
    /// How long to wait until the object has the new number of replicas (status): seconds
    /// or a Go duration; 0 (the default) does not wait.
    #[arg(long, default_value = "0s", value_name = "DURATION")]
    pub timeout: String,
    /// Dry run: none (default), server, or client; a bare --dry-run is client (deprecated,
    /// as in kubectl).
    #[arg(long, default_value = "none", num_args = 0..=1, default_missing_value = DRY_RUN_BARE, require_equals = true, value_parser = DryRunParser)]
    pub dry_run: DryRunFlag,
    /// `name`: print `TYPE.GROUP/NAME` of each scaled object instead of the sentence.
    #[arg(short = 'o', long, value_parser = ["name"])]
    pub output: Option<String>,
    /// Field manager recorded by the server (at most 128 bytes, printable; empty = the default).
    #[arg(long, default_value = DEFAULT_FIELD_MANAGER, value_parser = FieldManagerParser)]
    pub field_manager: String,
    /// With --contexts/--all-contexts: how many contexts the first (canary) wave scales in;
    /// the rest follow only if every one of them succeeded. (default 1)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub canary: Option<u16>,
}

/// Arguments of `label` and `annotate`.
#[derive(Debug, Clone, Args)]
pub struct LabelArgs {
    /// TYPE NAME… or TYPE/NAME… (or TYPE with -l or --all), then KEY=VALUE to set and KEY- to
    /// remove.
    #[arg(required = true, value_name = "TYPE[/NAME] KEY=VALUE|KEY-")]
    pub args: Vec<String>,
    /// Allow changing a key that already has another value (otherwise refused).
    #[arg(long)]
    pub overwrite: bool,
    /// Print the keys and values of each object (after the changes given, which are not sent).
    #[arg(long)]
    pub list: bool,
    /// Precondition: the object's resourceVersion must be this (one object only).
    #[arg(long, value_name = "VERSION")]
    pub resource_version: Option<String>,
    /// Label selector, e.g. `app=web,tier!=cache`.
    #[arg(short = 'l', long)]
    pub selector: Option<String>,
    /// Field selector, e.g. `metadata.name=web`.
    #[arg(long)]
    pub field_selector: Option<String>,
    /// Every object of TYPE in the namespace (or across namespaces with -A).
    #[arg(long)]
    pub all: bool,
    /// With -l, --field-selector or --all: across all namespaces (needs scope `cluster`).
    #[arg(short = 'A', long)]
    pub all_namespaces: bool,
    /// Dry run: none (default), server, or client; a bare --dry-run is client (deprecated,
    /// as in kubectl).
    #[arg(long, default_value = "none", num_args = 0..=1, default_missing_value = DRY_RUN_BARE, require_equals = true, value_parser = DryRunParser)]
    pub dry_run: DryRunFlag,
    /// `name`: print `TYPE.GROUP/NAME` of each object instead of the sentence.
    #[arg(short = 'o', long, value_parser = ["name"])]
    pub output: Option<String>,
    /// Field manager recorded by the server (at most 128 bytes, printable; empty = the default).
    #[arg(long, default_value = DEFAULT_FIELD_MANAGER, value_parser = FieldManagerParser)]
    pub field_manager: String,
    /// With --contexts/--all-contexts: how many contexts the first (canary) wave changes;
    /// the rest follow only if every one of them succeeded. (default 1)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub canary: Option<u16>,
}

/// `scale --help`: the guarantee and examples.
pub const SCALE_HELP: &str =
    "The replicas are set through the scale subresource (a merge patch of <type>/scale, reviewed
as patch on that subresource), after the object's state is journaled; `rollback ID` puts the
old number back. --current-replicas and --resource-version are checked against the object
read and sent as its resourceVersion, so a change in between is a conflict (exit 5).

Examples:
  kubectl myops scale deployment web --replicas=3
  kubectl myops scale deploy/web deploy/api --replicas=0 --dry-run=server
  kubectl myops scale deployment web --current-replicas=2 --replicas=3
  kubectl myops scale deployments -l app=web --replicas=1";

/// `label --help`: the guarantee and examples.
pub const LABEL_HELP: &str =
    "Each object's labels are changed by a merge patch of metadata.labels, after its state is
journaled; `rollback ID` restores the keys the change touched. Keys and values the API
server would refuse are refused before anything is sent, in its words.

Examples:
  kubectl myops label configmap web tier=frontend
  kubectl myops label configmap web tier=backend --overwrite
  kubectl myops label configmap web tier-
  kubectl myops label configmaps -l app=web team=payments --dry-run=server
  kubectl myops label configmap web --list";

/// `annotate --help`: the guarantee and examples.
pub const ANNOTATE_HELP: &str =
    "Each object's annotations are changed by a merge patch of metadata.annotations, after its
state is journaled; `rollback ID` restores the keys the change touched. Keys the API server
would refuse, and annotations over its 256 KiB total, are refused before anything is sent.

Examples:
  kubectl myops annotate configmap web description='the web tier'
  kubectl myops annotate configmap web description='new text' --overwrite
  kubectl myops annotate configmap web description-
  kubectl myops annotate configmap web --list";
