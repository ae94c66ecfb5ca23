//! Command-line definitions (clap), the low level of the two-stage flag handling.
//!
//! These types mirror argv and do no I/O; [`crate::settings::Settings::resolve`] turns
//! them into the immutable settings the verbs use. kubectl passes everything after the
//! plugin name to the plugin, so every global flag is `global = true` and accepted
//! anywhere (`kubectl myops -n x get pods` and `kubectl myops get pods -n x`).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// `kubectl myops`: the guarded kubectl.
#[derive(Debug, Parser)]
#[command(
    name = "kubectl-myops",
    bin_name = "kubectl-myops",
    version,
    about = "The guarded kubectl: get behind a plugin.yaml boundary and a SelfSubjectAccessReview, with metrics",
    after_help = "Exit codes: 0 ok, 1 runtime failure, 2 usage/config error, 3 denied, 4 not found, 5 conflict."
)]
pub struct Cli {
    /// Flags shared by every command.
    #[command(flatten)]
    pub global: GlobalArgs,
    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// Global flags: kubectl's connection flags (same names and meaning) and our own.
#[derive(Debug, Args, Clone, Default)]
pub struct GlobalArgs {
    /// Path to the kubeconfig file (overrides KUBECONFIG).
    #[arg(long, global = true, value_name = "PATH")]
    pub kubeconfig: Option<PathBuf>,
    /// The kubeconfig context to use.
    #[arg(long, global = true)]
    pub context: Option<String>,
    /// The kubeconfig cluster to use.
    #[arg(long, global = true)]
    pub cluster: Option<String>,
    /// The kubeconfig user to use.
    #[arg(long, global = true)]
    pub user: Option<String>,
    /// Namespace for this request (default: the context's namespace, else `default`).
    #[arg(short = 'n', long, global = true)]
    pub namespace: Option<String>,
    /// User to impersonate.
    #[arg(long = "as", global = true, value_name = "USER")]
    pub as_user: Option<String>,
    /// Group to impersonate (repeatable).
    #[arg(long = "as-group", global = true, value_name = "GROUP")]
    pub as_group: Vec<String>,
    /// UID to impersonate.
    #[arg(long = "as-uid", global = true, value_name = "UID")]
    pub as_uid: Option<String>,
    /// Time to wait for one server request, e.g. `5s`, `500ms` (0 = no limit).
    #[arg(long, global = true, value_name = "DURATION")]
    pub request_timeout: Option<String>,
    /// The address of the Kubernetes API server.
    #[arg(short = 's', long, global = true)]
    pub server: Option<String>,
    /// Bearer token for authentication to the API server.
    #[arg(long, global = true, hide_env_values = true)]
    pub token: Option<String>,
    /// Do not verify the server's certificate (insecure).
    #[arg(long, global = true)]
    pub insecure_skip_tls_verify: bool,
    /// Path to a CA certificate file for the API server.
    #[arg(long, global = true, value_name = "PATH")]
    pub certificate_authority: Option<PathBuf>,
    /// plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml,
    /// next to the executable, built-in).
    #[arg(long, global = true, value_name = "PATH")]
    pub config: Option<PathBuf>,
    /// Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY).
    #[arg(long, global = true, value_name = "URL")]
    pub pushgateway: Option<String>,
    /// More detail on stderr (repeatable).
    #[arg(short = 'v', long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Display one or many resources, after a SelfSubjectAccessReview.
    #[command(after_help = GET_EXAMPLES)]
    Get(GetArgs),
    /// Register CustomResourceDefinitions from a directory on the cluster.
    #[command(subcommand)]
    Crds(CrdsCommand),
    /// The local cumulative metric totals: show, push now, reset.
    #[command(subcommand)]
    Metrics(MetricsCommand),
    /// Inspect and check plugin.yaml.
    #[command(subcommand)]
    Config(ConfigCommand),
    /// Print the plugin version, git commit and the kube-rs / Kubernetes API versions it targets.
    Version,
}

const GET_EXAMPLES: &str = "Examples:
  # List pods in the current namespace as a table (server-side columns)
  kubectl myops get pods

  # One deployment as YAML, in namespace web
  kubectl myops get deployment/frontend -n web -o yaml

  # Custom resources by short name, filtered by label
  kubectl myops get bj -l team=storage

  # Names only, across all namespaces (plugin.yaml needs scope `cluster`)
  kubectl myops get pods -A -o name";

/// Output formats of `get` (kubectl's names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// Server-side Table, printer columns with priority 0.
    Table,
    /// Server-side Table with every printer column.
    Wide,
    /// JSON (a `List` for collections).
    Json,
    /// YAML (a `List` for collections).
    Yaml,
    /// `kind.group/name` per object.
    Name,
}

/// Arguments of `get`.
#[derive(Debug, Args)]
pub struct GetArgs {
    /// TYPE, TYPE NAME…, or TYPE/NAME… (TYPE: plural, singular, kind, short name, plural.group).
    #[arg(required = true, value_name = "TYPE[/NAME]")]
    pub args: Vec<String>,
    /// Output format.
    #[arg(short = 'o', long, value_enum, default_value = "table")]
    pub output: OutputFormat,
    /// Label selector, e.g. `app=web,tier!=cache`.
    #[arg(short = 'l', long)]
    pub selector: Option<String>,
    /// Field selector, e.g. `status.phase=Running`.
    #[arg(long)]
    pub field_selector: Option<String>,
    /// List across all namespaces (needs scope `cluster` in plugin.yaml).
    #[arg(short = 'A', long)]
    pub all_namespaces: bool,
    /// Objects per list page (0 = no paging).
    #[arg(long, default_value_t = 500)]
    pub chunk_size: u32,
    /// Omit the table header.
    #[arg(long)]
    pub no_headers: bool,
    /// Add a LABELS column to the table.
    #[arg(long)]
    pub show_labels: bool,
    /// A missing named object is not an error (exit 0).
    #[arg(long)]
    pub ignore_not_found: bool,
}

/// `crds` subcommands.
#[derive(Debug, Subcommand)]
pub enum CrdsCommand {
    /// Server-side apply every CRD in DIR once and wait until each is Established and served.
    Sync(CrdsSyncArgs),
    /// Hot-load: register every CRD in DIR, then follow the directory until SIGINT/SIGTERM.
    #[command(after_help = WATCH_HELP)]
    Watch(CrdsWatchArgs),
    /// What the directory holds and what the cluster has, side by side.
    List(CrdsListArgs),
}

const WATCH_HELP: &str = "Files: *.yaml and *.yml, one or more apiextensions.k8s.io/v1 CRDs each. A new or changed
file is applied with server-side apply (field manager kubectl-myops) and usable by `get` as
soon as it is reported registered. A bad file is reported and skipped; the others stay.

Removing a file unregisters its CRDs locally; they stay on the cluster. With --prune they are
deleted from the cluster — but only CRDs this tool applied. DELETING A CRD DELETES EVERY CUSTOM
RESOURCE OF IT, cluster-wide, at once.

Examples:
  # Follow the default directory (plugin.yaml crdDir, else ~/.kube/plugins/crds)
  kubectl myops crds watch

  # Follow ./crds, machine-readable log lines
  kubectl myops crds watch ./crds --log-format json";

/// Log line format of `crds watch`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// One human-readable line per event and outcome.
    Text,
    /// One JSON object per line.
    Json,
}

/// Arguments of `crds watch`.
#[derive(Debug, Args)]
pub struct CrdsWatchArgs {
    /// Directory of CRD YAML files (default: plugin.yaml crdDir, else ~/.kube/plugins/crds).
    pub dir: Option<PathBuf>,
    /// Delete a CRD from the cluster when its file is removed (only CRDs this tool applied;
    /// deleting a CRD deletes all its custom resources).
    #[arg(long)]
    pub prune: bool,
    /// Take over fields another field manager owns instead of reporting the conflict.
    #[arg(long)]
    pub force_conflicts: bool,
    /// How long to wait for each CRD to become Established and discoverable.
    #[arg(long, default_value = "30s", value_name = "DURATION")]
    pub timeout: String,
    /// Log line format.
    #[arg(long, value_enum, default_value = "text")]
    pub log_format: LogFormat,
}

/// Arguments of `crds list`.
#[derive(Debug, Args)]
pub struct CrdsListArgs {
    /// Directory of CRD YAML files (default: plugin.yaml crdDir, else ~/.kube/plugins/crds).
    pub dir: Option<PathBuf>,
}

/// Arguments of `crds sync`.
#[derive(Debug, Args)]
pub struct CrdsSyncArgs {
    /// Directory of CRD YAML files (default: plugin.yaml crdDir, else ~/.kube/plugins/crds).
    pub dir: Option<PathBuf>,
    /// How long to wait for each CRD to become Established and discoverable.
    #[arg(long, default_value = "30s", value_name = "DURATION")]
    pub timeout: String,
}

/// `config` subcommands.
#[derive(Debug, Subcommand)]
pub enum ConfigCommand {
    /// Print the JSON Schema of plugin.yaml.
    Schema,
    /// Check a plugin.yaml (default: the one the lookup order finds) and print what it allows.
    Validate {
        /// The file to check.
        path: Option<PathBuf>,
    },
}

/// `metrics` subcommands.
#[derive(Debug, Subcommand)]
pub enum MetricsCommand {
    /// Print the local totals (MYOPS_HOME/metrics-state.json).
    Show {
        /// Output format.
        #[arg(short = 'o', long, value_enum, default_value = "table")]
        output: MetricsFormat,
    },
    /// Push the local totals to the Pushgateway now.
    Push,
    /// Delete the local totals (asks unless --yes).
    Reset {
        /// Do not ask.
        #[arg(long)]
        yes: bool,
    },
}

/// Output formats of `metrics show`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MetricsFormat {
    /// A table.
    Table,
    /// JSON.
    Json,
}
