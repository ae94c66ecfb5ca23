//! Command-line definitions (clap), the low level of the two-stage flag handling.
//!
//! These types mirror argv and do no I/O; [`crate::settings::Settings::resolve`] turns
//! them into the immutable settings the verbs use, and [`crate::settings::load_template_files`]
//! reads the template files `-o` names. kubectl passes everything after the
//! plugin name to the plugin, so every global flag is `global = true` and accepted
//! anywhere (`kubectl myops -n x get pods` and `kubectl myops get pods -n x`).
//!
//! The root parser is here; each command group's arguments are in their own file, the value
//! parsers in `values`, the help texts in [`help`], and running clap over argv in `parse`.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

mod apply;
mod auth;
mod change;
mod crds;
mod delete;
mod edit;
mod get;
pub mod help;
mod local;
mod mcp;
mod mirror;
mod parse;
mod policies;
mod protect;
mod rollout;
mod scale;
mod values;

pub use crate::cluster::params::{DryRun, PatchType};
pub use crate::output::format::{
    DriftFormat, ListFormat, LogFormat, MAX_TEMPLATE_FILE_BYTES, MetricsFormat, ObjectFormat,
    OutputFormat, TemplateFormat, WhoamiFormat,
};
pub use apply::ApplyArgs;
pub use auth::{AuthCommand, CanIArgs, MatrixArgs, WhoamiArgs};
pub use change::{ChangelogCommand, Decision, PatchArgs, ResultFilter, RollbackArgs};
pub use crds::{CrdsCommand, CrdsListArgs, CrdsSyncArgs, CrdsWatchArgs};
pub use delete::{Cascade, DeleteArgs, UndeleteArgs};
pub use edit::{EditArgs, EditFormat};
pub use get::{DriftArgs, GetArgs};
pub use help::COMPLETION_HELP;
pub use local::{BIN, ConfigCommand, MetricsCommand, Shell};
pub use mcp::McpArgs;
pub use mirror::{MirrorCommand, PruneDryRun};
pub use parse::{one_line_usage_error, output_value_error};
pub use policies::{
    PoliciesApplyArgs, PoliciesCommand, PoliciesExportArgs, PoliciesFormat, PoliciesVerifyArgs,
};
pub use protect::{ProtectCommand, ProtectFormat, ProtectLiftArgs, ProtectStatusArgs};
pub use rollout::{
    RolloutCommand, RolloutHistoryArgs, RolloutRestartArgs, RolloutStatusArgs, RolloutUndoArgs,
};
pub use scale::{LabelArgs, ScaleArgs};
pub use values::{
    DEFAULT_FIELD_MANAGER, DRY_RUN_BARE, DryRunFlag, DryRunParser, FieldManagerParser, FormatParser,
};

/// `kubectl myops`: the guarded kubectl.
#[derive(Debug, Parser)]
#[command(
    name = "kubectl-myops",
    bin_name = "kubectl-myops",
    version,
    about = "The guarded kubectl: get behind a plugin.yaml boundary and a SelfSubjectAccessReview, with metrics",
    after_help = help::ROOT_HELP
)]
pub struct Cli {
    /// Flags shared by every command.
    #[command(flatten)]
    pub global: GlobalArgs,
    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
    /// The command path clap matched (`patch`, `crds watch`, `changelog show`), never its
    /// arguments or flag values; set by [`help::try_parse`] from the matched subcommands and
    /// sent on every request as `Kubectl-Command: kubectl myops <path>` (KEP-859).
    #[arg(skip)]
    pub command_path: Option<String>,
}

/// Global flags: kubectl's connection flags (same names and meaning) and our own.
#[derive(Debug, Args, Clone, Default)]
pub struct GlobalArgs {
    /// Path to the kubeconfig file (overrides KUBECONFIG).
    #[arg(long, global = true, value_name = "PATH", value_parser = path_or_empty())]
    pub kubeconfig: Option<PathBuf>,
    /// The kubeconfig context to use.
    #[arg(long, global = true)]
    pub context: Option<String>,
    /// Run in each of these kubeconfig contexts and merge the results (comma-separated; an
    /// entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth
    /// can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart,
    /// rollout undo. See docs/fleet.md.
    #[arg(long, global = true, value_name = "LIST", value_delimiter = ',', conflicts_with_all = ["context", "all_contexts"])]
    pub contexts: Vec<String>,
    /// Run in every context of the kubeconfig and merge the results (as --contexts).
    #[arg(long, global = true, conflicts_with = "context")]
    pub all_contexts: bool,
    /// With --contexts/--all-contexts: how many contexts are worked on at once (default 32).
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub max_parallel: Option<u16>,
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
    /// Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s`
    /// (0 = the defaults: 32s per request, as kubectl's discovery).
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
    #[arg(long, global = true, value_name = "PATH", value_parser = path_or_empty())]
    pub certificate_authority: Option<PathBuf>,
    /// Path to a client certificate file for TLS (replaces the kubeconfig user's).
    #[arg(long, global = true, value_name = "PATH", value_parser = path_or_empty())]
    pub client_certificate: Option<PathBuf>,
    /// Path to a client key file for TLS (replaces the kubeconfig user's).
    #[arg(long, global = true, value_name = "PATH", value_parser = path_or_empty())]
    pub client_key: Option<PathBuf>,
    /// Server name to use for server certificate validation (default: the server URL's host).
    #[arg(long, global = true, value_name = "NAME")]
    pub tls_server_name: Option<String>,
    /// User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values).
    #[arg(long = "as-user-extra", global = true, value_name = "KEY=VALUE")]
    pub as_user_extra: Vec<String>,
    /// Username for basic authentication to the API server.
    #[arg(long, global = true)]
    pub username: Option<String>,
    /// Password for basic authentication to the API server.
    #[arg(long, global = true, hide_env_values = true)]
    pub password: Option<String>,
    /// Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy
    /// is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it.
    #[arg(long, global = true, value_name = "PATH", value_parser = path_or_empty())]
    pub kuberc: Option<PathBuf>,
    /// In a context plugin.yaml `protect:` marks `confirm`: go on without asking (the
    /// answer a script gives; a `block` rule is never overridden). See docs/protection.md.
    #[arg(long, global = true)]
    pub yes: bool,
    /// In a context plugin.yaml `protect:` marks `type-name`: go on without asking when NAME
    /// is the context's name (with --contexts: every protected context, comma-separated).
    #[arg(long, global = true, value_name = "NAME", value_delimiter = ',')]
    pub confirm_context: Vec<String>,
    /// Why this change is made: journaled with it, sent to the API server as the
    /// `Myops-Reason` header, shown by `changelog list|show|why`; required where a plugin.yaml
    /// `protect:` rule says `requireReason`.
    #[arg(long, global = true, value_name = "TEXT")]
    pub reason: Option<String>,
    /// plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml,
    /// next to the executable, built-in).
    #[arg(long, global = true, value_name = "PATH", value_parser = path_or_empty())]
    pub config: Option<PathBuf>,
    /// Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY).
    #[arg(long, global = true, value_name = "URL")]
    pub pushgateway: Option<String>,
    /// Log level, as kubectl's `-v N` / `--v=N` (klog levels 0–10): above 0, the request
    /// trace and debug lines go to stderr; `-v` alone is level 1.
    #[arg(
        short = 'v',
        long = "v",
        visible_alias = "verbose",
        global = true,
        value_name = "LEVEL",
        num_args = 0..=1,
        default_value = "0",
        default_missing_value = "1",
        value_parser = clap::value_parser!(u8).range(0..=10)
    )]
    pub verbose: u8,
}

/// A path flag that may be given as an empty string, which [`crate::settings::Settings::resolve`]
/// then treats as not given, as kubectl does (`--kubeconfig ''`); clap's own `PathBuf` parser
/// refuses empty values.
fn path_or_empty() -> impl clap::builder::TypedValueParser<Value = PathBuf> {
    use clap::builder::TypedValueParser;
    clap::builder::OsStringValueParser::new().map(PathBuf::from)
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Display one or many resources, after a SelfSubjectAccessReview.
    #[command(after_help = help::GET_EXAMPLES)]
    Get(GetArgs),
    /// Update fields of one object, after a SelfSubjectAccessReview; every attempt is journaled.
    #[command(after_help = help::PATCH_EXAMPLES)]
    Patch(PatchArgs),
    /// Server-side apply manifests (files, directories, stdin); each object's change is
    /// journaled, so `rollback` can undo it.
    #[command(after_help = apply::APPLY_HELP)]
    Apply(ApplyArgs),
    /// Delete objects, after a SelfSubjectAccessReview; each object's whole state is
    /// journaled first, so `undelete` can create it again.
    #[command(after_help = delete::DELETE_HELP)]
    Delete(DeleteArgs),
    /// Edit one object in your editor; the change is sent as a patch, journaled, reversible.
    #[command(after_help = edit::EDIT_HELP)]
    Edit(EditArgs),
    /// Set a new size for objects through their scale subresource; each change is journaled
    /// and can be rolled back.
    #[command(after_help = scale::SCALE_HELP)]
    Scale(ScaleArgs),
    /// Update the labels of objects; each change is journaled and can be rolled back.
    #[command(after_help = scale::LABEL_HELP)]
    Label(LabelArgs),
    /// Update the annotations of objects; each change is journaled and can be rolled back.
    #[command(after_help = scale::ANNOTATE_HELP)]
    Annotate(LabelArgs),
    /// Manage the rollout of Deployments, StatefulSets and DaemonSets: restart, undo (both
    /// journaled and reversible), history, status.
    #[command(subcommand, after_help = rollout::ROLLOUT_HELP)]
    Rollout(RolloutCommand),
    /// Create a deleted object again from its journaled before-state.
    #[command(after_help = delete::UNDELETE_HELP)]
    Undelete(UndeleteArgs),
    /// Undo a journaled change: restore the fields it touched from its before-state.
    #[command(after_help = help::ROLLBACK_HELP)]
    Rollback(RollbackArgs),
    /// Objects changed since the change log last changed them: the fields and who owns them now.
    #[command(after_help = help::DRIFT_HELP)]
    Drift(DriftArgs),
    /// The change log of every mutation attempt.
    #[command(subcommand, after_help = help::CHANGELOG_HELP)]
    Changelog(ChangelogCommand),
    /// Register CustomResourceDefinitions from a directory on the cluster.
    #[command(subcommand, after_help = help::CRDS_HELP)]
    Crds(CrdsCommand),
    /// The local cumulative metric totals: show, push now, reset.
    #[command(subcommand, after_help = help::METRICS_HELP)]
    Metrics(MetricsCommand),
    /// Inspect and check plugin.yaml.
    #[command(subcommand, after_help = help::CONFIG_HELP)]
    Config(ConfigCommand),
    /// What RBAC lets the caller do: `can-i VERB TYPE [NAME]`, `can-i --list`, `matrix`, `whoami`.
    #[command(subcommand, after_help = help::AUTH_HELP)]
    Auth(AuthCommand),
    /// Protected contexts: which plugin.yaml `protect:` rules hold here, and a lift of them
    /// that expires (`status`, `lift DURATION`, `end`).
    #[command(subcommand, after_help = protect::PROTECT_HELP)]
    Protect(ProtectCommand),
    /// plugin.yaml `policies:` as ValidatingAdmissionPolicies the API server enforces for
    /// every client: `export`, `apply`, `verify`.
    #[command(subcommand, after_help = policies::POLICIES_HELP)]
    Policies(PoliciesCommand),
    /// Serve the guarded commands to an agent as a Model Context Protocol (MCP) server over
    /// stdio: reads, and mutations previewed then confirmed, each journaled.
    #[command(after_help = mcp::MCP_HELP)]
    Mcp(McpArgs),
    /// Print the plugin version, git commit and the kube-rs / Kubernetes API versions it targets.
    #[command(after_help = help::VERSION_HELP)]
    Version,
    /// Print a shell completion script for kubectl-myops (bash, zsh, fish or powershell).
    #[command(after_help = help::COMPLETION_HELP)]
    Completion {
        /// The shell.
        #[arg(value_enum)]
        shell: Shell,
    },
}

impl Command {
    /// kubectl's deprecation warning for this command's `--dry-run` value, if any: printed
    /// once by [`crate::app::run`] as a `warning:` line, never by the verbs.
    pub fn dry_run_warning(&self) -> Option<&str> {
        match self {
            Command::Patch(a) => a.dry_run.warning.as_deref(),
            Command::Rollback(a) => a.dry_run.warning.as_deref(),
            Command::Delete(a) => a.dry_run.warning.as_deref(),
            Command::Apply(a) => a.dry_run.warning.as_deref(),
            Command::Undelete(a) => a.dry_run.warning.as_deref(),
            Command::Scale(a) => a.dry_run.warning.as_deref(),
            Command::Label(a) | Command::Annotate(a) => a.dry_run.warning.as_deref(),
            Command::Rollout(RolloutCommand::Undo(a)) => a.dry_run.warning.as_deref(),
            _ => None,
        }
    }
}
