//! Command-line definitions (clap), the low level of the two-stage flag handling.
//!
//! These types mirror argv and do no I/O; [`crate::settings::Settings::resolve`] turns
//! them into the immutable settings the verbs use. kubectl passes everything after the
//! plugin name to the plugin, so every global flag is `global = true` and accepted
//! anywhere (`kubectl myops -n x get pods` and `kubectl myops get pods -n x`).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

pub mod help;

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
    /// can-i, auth matrix, crds sync. See README "Fleet".
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

/// The default `--field-manager` of `patch` and `rollback`.
pub const DEFAULT_FIELD_MANAGER: &str = "kubectl-myops";

/// Parses `--field-manager`: empty means [`DEFAULT_FIELD_MANAGER`] (an empty flag is no flag,
/// as elsewhere); otherwise the API server's rule ([`crate::validate::check_field_manager`]:
/// at most 128 bytes, printable) is checked before any request (issue 10, class 6: a
/// 200-character field manager used to fail only at the server, after the object was read).
/// The error is built here, not by clap, so the value is echoed escaped and capped.
#[derive(Debug, Clone, Copy)]
pub struct FieldManagerParser;

impl clap::builder::TypedValueParser for FieldManagerParser {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        let fail = |msg: String| {
            clap::Error::raw(clap::error::ErrorKind::ValueValidation, format!("{msg}\n"))
                .with_cmd(cmd)
        };
        let Some(v) = value.to_str() else {
            return Err(fail(
                "--field-manager is not valid UTF-8; the API server accepts printable text of at most 128 bytes".into(),
            ));
        };
        if v.is_empty() {
            return Ok(DEFAULT_FIELD_MANAGER.to_string());
        }
        crate::validate::check_field_manager(v).map_err(fail)?;
        Ok(v.to_string())
    }
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Display one or many resources, after a SelfSubjectAccessReview.
    #[command(after_help = GET_EXAMPLES)]
    Get(GetArgs),
    /// Update fields of one object, after a SelfSubjectAccessReview; every attempt is journaled.
    #[command(after_help = PATCH_EXAMPLES)]
    Patch(PatchArgs),
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
    /// Print the plugin version, git commit and the kube-rs / Kubernetes API versions it targets.
    #[command(after_help = help::VERSION_HELP)]
    Version,
    /// Print a shell completion script for kubectl-myops (bash, zsh, fish or powershell).
    #[command(after_help = COMPLETION_HELP)]
    Completion {
        /// The shell.
        #[arg(value_enum)]
        shell: Shell,
    },
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

const PATCH_EXAMPLES: &str = "A field-path policy of plugin.yaml (`policies:`) that denies a field the patch would change
refuses it (exit 3, nothing sent). With a rule on the object the patch is first sent as a
server-side dry run and the change it shows is judged; the dry run and the real patch both carry
the before-state's resourceVersion, so a write in between is a 409 (exit 5).

Examples:
  # Scale a deployment with a strategic merge patch (the default, as in kubectl)
  kubectl myops patch deployment web -p '{\"spec\":{\"replicas\":3}}'

  # A custom resource needs a merge or JSON patch; show the change first
  kubectl myops patch backupjob/nightly --type merge -p 'spec: {retentionDays: 30}' --dry-run=server

  # A JSON patch (RFC 6902) with a test that guards it
  kubectl myops patch deploy web --type json -p '[{\"op\":\"test\",\"path\":\"/spec/replicas\",\"value\":3},{\"op\":\"replace\",\"path\":\"/spec/replicas\",\"value\":4}]'

  # The status subresource, from a file
  kubectl myops patch bj nightly --type merge --subresource status --patch-file status.yaml";

/// Patch types (kubectl's names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PatchType {
    /// Strategic merge patch (built-in types only).
    Strategic,
    /// JSON merge patch (RFC 7386).
    Merge,
    /// JSON patch (RFC 6902).
    Json,
}

/// `--dry-run` values (kubectl's names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DryRun {
    /// Really change the object.
    None,
    /// The server computes and validates the change, and stores nothing.
    Server,
    /// Computed locally from the current object (merge and json patches only).
    Client,
}

/// What a bare `--dry-run` stands for: pflag's `NoOptDefVal` of kubectl's flag
/// (`k8s.io/kubectl/pkg/cmd/util/helpers.go` `AddDryRunFlag`), which kubectl reads as
/// `client` with a deprecation warning.
pub const DRY_RUN_BARE: &str = "unchanged";

/// A `--dry-run` value read as kubectl 1.36's `GetDryRunStrategy`
/// (`k8s.io/kubectl@v0.36.3/pkg/cmd/util/helpers.go`): the strategy, and the deprecation
/// warning kubectl prints for a bare flag or a Go boolean.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DryRunFlag {
    /// The strategy.
    pub strategy: DryRun,
    /// kubectl's deprecation warning (without klog's prefix), for bare `--dry-run` and the
    /// boolean values.
    pub warning: Option<String>,
}

impl DryRunFlag {
    /// Parses a `--dry-run` value: Go's `strconv.ParseBool` values first (`1 t T TRUE true
    /// True` → client, `0 f F FALSE false False` → none, each with kubectl's deprecation
    /// warning), then [`DRY_RUN_BARE`] (client, warned), `client`, `server`, `none`.
    ///
    /// # Errors
    /// kubectl's sentence `Invalid dry-run value (V). Must be "none", "server", or
    /// "client".`, the value escaped and capped, then this tool's one-line usage tail
    /// (`; usage: --dry-run[=none|server|client]`) — a usage error, exit 2.
    pub fn parse(v: &str) -> Result<DryRunFlag, String> {
        let warned = |strategy: DryRun, warning: String| DryRunFlag {
            strategy,
            warning: Some(warning),
        };
        let boolean = |to: &str| {
            format!(
                "--dry-run={v} is deprecated (boolean value) and can be replaced with --dry-run={to}."
            )
        };
        let plain = |strategy: DryRun| DryRunFlag {
            strategy,
            warning: None,
        };
        match v {
            "1" | "t" | "T" | "TRUE" | "true" | "True" => {
                Ok(warned(DryRun::Client, boolean("client")))
            }
            "0" | "f" | "F" | "FALSE" | "false" | "False" => {
                Ok(warned(DryRun::None, boolean("none")))
            }
            DRY_RUN_BARE => Ok(warned(
                DryRun::Client,
                "--dry-run is deprecated and can be replaced with --dry-run=client.".into(),
            )),
            "client" => Ok(plain(DryRun::Client)),
            "server" => Ok(plain(DryRun::Server)),
            "none" => Ok(plain(DryRun::None)),
            other => Err(format!(
                "Invalid dry-run value ({}). Must be \"none\", \"server\", or \"client\".; usage: --dry-run[=none|server|client]",
                crate::echo::capped(other, 100)
            )),
        }
    }
}

/// clap's parser of `--dry-run` ([`DryRunFlag::parse`]); it offers `none`, `server` and
/// `client` to completion.
#[derive(Debug, Clone, Copy)]
pub struct DryRunParser;

impl clap::builder::TypedValueParser for DryRunParser {
    type Value = DryRunFlag;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<DryRunFlag, clap::Error> {
        let v = value.to_string_lossy();
        DryRunFlag::parse(&v).map_err(|msg| {
            clap::Error::raw(clap::error::ErrorKind::ValueValidation, format!("{msg}\n"))
                .with_cmd(cmd)
        })
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            [
                ("none", "Really change the object"),
                (
                    "server",
                    "The server computes and validates the change, and stores nothing",
                ),
                ("client", "Computed locally from the current object"),
            ]
            .into_iter()
            .map(|(n, h)| clap::builder::PossibleValue::new(n).help(h)),
        ))
    }
}

impl Command {
    /// kubectl's deprecation warning for this command's `--dry-run` value, if any: printed
    /// once by [`crate::app::run`] as a `warning:` line, never by the verbs.
    pub fn dry_run_warning(&self) -> Option<&str> {
        match self {
            Command::Patch(a) => a.dry_run.warning.as_deref(),
            Command::Rollback(a) => a.dry_run.warning.as_deref(),
            _ => None,
        }
    }
}

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

/// Object output formats of `patch` and `rollback`.
#[derive(Debug, Clone, PartialEq)]
pub enum ObjectFormat {
    /// JSON.
    Json,
    /// YAML.
    Yaml,
    /// KYAML (kubectl 1.34+, KEP-5295).
    KYaml,
    /// `kind.group/name`.
    Name,
    /// A JSONPath template (never custom columns: kubectl patch has no such printer).
    Template(TemplateFormat),
}

impl ObjectFormat {
    /// Parses a `patch -o` value (kubectl's names; `table` and `wide` are `get`'s only).
    ///
    /// # Errors
    /// A sentence naming the accepted formats (clap reports it, exit 2).
    pub fn parse(s: &str) -> Result<ObjectFormat, String> {
        let patch_formats = "unable to match a printer suitable for this output format; use json, yaml, kyaml, name, jsonpath=…, jsonpath-file=… or jsonpath-as-json=…";
        let parsed = OutputFormat::parse(s).map_err(|e| {
            if e.starts_with("unable to match") {
                patch_formats.to_string()
            } else {
                e
            }
        })?;
        match parsed {
            OutputFormat::Json => Ok(ObjectFormat::Json),
            OutputFormat::Yaml => Ok(ObjectFormat::Yaml),
            OutputFormat::Name => Ok(ObjectFormat::Name),
            OutputFormat::KYaml => Ok(ObjectFormat::KYaml),
            OutputFormat::Template(t @ TemplateFormat::JsonPath { .. }) => {
                Ok(ObjectFormat::Template(t))
            }
            // kubectl patch has no custom-columns printer either.
            OutputFormat::Table | OutputFormat::Wide | OutputFormat::Template(_) => {
                Err(patch_formats.to_string())
            }
        }
    }
}

/// The largest template file `-o jsonpath-file=` / `custom-columns-file=` reads (1 MiB): a
/// template is a few lines; `/dev/zero` or a log file given by mistake must not be read
/// whole.
pub const MAX_TEMPLATE_FILE_BYTES: u64 = 1 << 20;

fn read_template_file(path: &str) -> Result<String, String> {
    use std::io::Read;
    let mut buf = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_TEMPLATE_FILE_BYTES + 1).read_to_end(&mut buf))
        .map_err(|e| {
            format!("error reading {path}: {e}; give the path of a readable template file")
        })?;
    if buf.len() as u64 > MAX_TEMPLATE_FILE_BYTES {
        return Err(format!(
            "{path} is larger than {MAX_TEMPLATE_FILE_BYTES} bytes; a template file holds the template only"
        ));
    }
    String::from_utf8(buf)
        .map_err(|_| format!("{path} is not UTF-8 text; save the template as UTF-8"))
}

/// clap's parser of `-o` for `get` (`GET = true`: [`OutputFormat::parse`]) and `patch`
/// ([`ObjectFormat::parse`]); it offers the plain format names to completion and builds its
/// own error, so a bad template is echoed escaped and capped (exit 2).
#[derive(Debug, Clone, Copy)]
pub struct FormatParser<const GET: bool>;

/// Builds the clap usage error for a bad `-o` value, worded as clap's own (`invalid value
/// 'V' for '--output <OUTPUT>': REASON`), the value escaped and capped.
fn format_error(cmd: &clap::Command, value: &str, reason: &str) -> clap::Error {
    clap::Error::raw(
        clap::error::ErrorKind::ValueValidation,
        format!(
            "{}\n",
            crate::echo::capped(
                &format!(
                    "invalid value '{}' for '--output <OUTPUT>': {reason}",
                    crate::echo::capped(value, 100)
                ),
                2000
            )
        ),
    )
    .with_cmd(cmd)
}

fn format_str<'v>(cmd: &clap::Command, value: &'v std::ffi::OsStr) -> Result<&'v str, clap::Error> {
    value.to_str().ok_or_else(|| {
        format_error(
            cmd,
            &value.to_string_lossy(),
            "not valid UTF-8; give a format name such as json, or jsonpath=TEMPLATE",
        )
    })
}

/// A `-o` name offered to completion, with its help.
fn format_value(name: &'static str, help: &'static str) -> clap::builder::PossibleValue {
    clap::builder::PossibleValue::new(name).help(help)
}

impl clap::builder::TypedValueParser for FormatParser<true> {
    type Value = OutputFormat;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<OutputFormat, clap::Error> {
        let v = format_str(cmd, value)?;
        OutputFormat::parse(v).map_err(|e| format_error(cmd, v, &e))
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            [
                format_value(
                    "table",
                    "Server-side Table, printer columns with priority 0",
                ),
                format_value("wide", "Server-side Table with every printer column"),
                format_value("json", "JSON (a `List` for collections)"),
                format_value("yaml", "YAML (a `List` for collections)"),
                format_value("kyaml", "KYAML, kubectl 1.34+ (a `List` for collections)"),
                format_value("name", "`kind.group/name` per object"),
            ]
            .into_iter(),
        ))
    }
}

impl clap::builder::TypedValueParser for FormatParser<false> {
    type Value = ObjectFormat;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<ObjectFormat, clap::Error> {
        let v = format_str(cmd, value)?;
        ObjectFormat::parse(v).map_err(|e| format_error(cmd, v, &e))
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            [
                format_value("json", "JSON"),
                format_value("yaml", "YAML"),
                format_value("kyaml", "KYAML, kubectl 1.34+"),
                format_value("name", "`kind.group/name`"),
            ]
            .into_iter(),
        ))
    }
}

/// The template output formats, parsed (and their `…-file=` read) while the flags are
/// parsed, so a bad template is a usage error (exit 2) before any request — `patch` never
/// applies a change it then cannot print
/// (`k8s.io/cli-runtime/pkg/genericclioptions/jsonpath_flags.go`,
/// `k8s.io/kubectl/pkg/cmd/get/customcolumn_flags.go`).
#[derive(Debug, Clone, PartialEq)]
pub enum TemplateFormat {
    /// `jsonpath=`, `jsonpath-file=` or (`as_json`) `jsonpath-as-json=`.
    JsonPath {
        /// The template.
        template: crate::output::jsonpath::Template,
        /// Print each action's results as an indented JSON array.
        as_json: bool,
    },
    /// `custom-columns=` or `custom-columns-file=`.
    CustomColumns(Vec<crate::output::custom_columns::Column>),
}

/// Arguments of `rollback`.
#[derive(Debug, Args)]
pub struct RollbackArgs {
    /// The change-log entry id (`changelog list`).
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

/// Arguments of `drift`.
#[derive(Debug, Clone, Args)]
pub struct DriftArgs {
    /// Only objects of this type (kind, plural or short name, as `get` takes it).
    #[arg(value_name = "TYPE")]
    pub type_name: Option<String>,
    /// Only these objects of TYPE.
    #[arg(value_name = "NAME", requires = "type_name")]
    pub names: Vec<String>,
    /// Objects in every namespace (each is still read by name in its own namespace), not
    /// only the current one and cluster-scoped ones.
    #[arg(short = 'A', long)]
    pub all_namespaces: bool,
    /// Output format: `json` prints the whole report, unchanged objects included.
    #[arg(short = 'o', long, value_enum)]
    pub output: Option<DriftFormat>,
}

/// `drift -o` formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DriftFormat {
    /// One JSON document (`kind: DriftReport`, schema in the README).
    Json,
}

/// `changelog` subcommands.
#[derive(Debug, Subcommand)]
pub enum ChangelogCommand {
    /// One line per entry: id, time, user, operation, object, result.
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
        #[arg(long, value_name = "OPERATION", value_parser = ["patch", "rollback", "crd-apply", "crd-prune"])]
        operation: Option<String>,
        /// Only entries with this result: success, failure (denied or an error) or unknown
        /// (an intent without an outcome; `pending` means the same).
        #[arg(long, value_enum, value_name = "RESULT")]
        result: Option<ResultFilter>,
        /// Print the entries (the last record of every id) as json (an array) or yaml instead
        /// of a table.
        #[arg(short = 'o', long, value_enum, value_name = "FORMAT")]
        output: Option<ListFormat>,
        /// List the lines that are not valid entries (torn, not UTF-8, not JSON) instead: line number and reason.
        #[arg(long, conflicts_with_all = ["since", "object", "session", "operation", "result", "output"])]
        invalid: bool,
    },
    /// One change as a field-level diff, before → after (Secret values masked).
    #[command(after_help = help::CHANGELOG_DIFF_HELP)]
    Diff {
        /// The entry id.
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
        /// The entry id.
        id: String,
    },
    /// Check the hash chain across the retained files: exit 0 when it holds, 1 naming the first break.
    #[command(after_help = help::CHANGELOG_VERIFY_HELP)]
    Verify,
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

/// `changelog list -o` formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ListFormat {
    /// A JSON array of entries.
    Json,
    /// A YAML list of entries.
    Yaml,
}

/// Output formats of `get` (kubectl's names).
#[derive(Debug, Clone, PartialEq)]
pub enum OutputFormat {
    /// Server-side Table, printer columns with priority 0.
    Table,
    /// Server-side Table with every printer column.
    Wide,
    /// JSON (a `List` for collections).
    Json,
    /// YAML (a `List` for collections).
    Yaml,
    /// KYAML (kubectl 1.34+, KEP-5295), a `List` for collections.
    KYaml,
    /// `kind.group/name` per object.
    Name,
    /// A JSONPath template or custom columns.
    Template(TemplateFormat),
}

impl OutputFormat {
    /// Parses a `get -o` value as kubectl names them: `FORMAT` or `FORMAT=ARG` (the first
    /// `=` splits, so a template may contain `=`).
    ///
    /// # Errors
    /// kubectl's sentence for a template format without its template, a pointer to
    /// jsonpath for Go templates (not supported), and the list of formats for anything else
    /// (clap reports it, exit 2).
    pub fn parse(s: &str) -> Result<OutputFormat, String> {
        let (name, arg) = match s.split_once('=') {
            Some((n, a)) => (n, Some(a)),
            None => (s, None),
        };
        let text = |file: bool| -> Result<String, String> {
            match arg {
                Some(a) if !a.is_empty() && file => read_template_file(a),
                Some(a) if !a.is_empty() => Ok(a.to_string()),
                _ if name.starts_with("custom-columns") => Err(
                    "custom-columns format specified but no custom columns given; pass -o custom-columns=HEADER:PATH[,HEADER:PATH…]"
                        .to_string(),
                ),
                _ => Err(format!(
                    "template format specified but no template given; pass -o {name}=TEMPLATE"
                )),
            }
        };
        let jsonpath = |file: bool, as_json: bool| -> Result<OutputFormat, String> {
            let template = crate::output::jsonpath::Template::parse(&text(file)?)
                .map_err(|e| e.to_string())?;
            Ok(OutputFormat::Template(TemplateFormat::JsonPath {
                template,
                as_json,
            }))
        };
        let columns = |file: bool| -> Result<OutputFormat, String> {
            let t = text(file)?;
            let cols = if file {
                crate::output::custom_columns::parse_file(&t)
            } else {
                crate::output::custom_columns::parse_spec(&t)
            };
            Ok(OutputFormat::Template(TemplateFormat::CustomColumns(
                cols.map_err(|e| e.to_string())?,
            )))
        };
        match (name, arg) {
            ("table", None) => Ok(OutputFormat::Table),
            ("wide", None) => Ok(OutputFormat::Wide),
            ("json", None) => Ok(OutputFormat::Json),
            ("yaml", None) => Ok(OutputFormat::Yaml),
            ("kyaml", None) => Ok(OutputFormat::KYaml),
            ("name", None) => Ok(OutputFormat::Name),
            ("jsonpath", _) => jsonpath(false, false),
            ("jsonpath-file", _) => jsonpath(true, false),
            ("jsonpath-as-json", _) => jsonpath(false, true),
            ("custom-columns", _) => columns(false),
            ("custom-columns-file", _) => columns(true),
            ("go-template" | "go-template-file" | "template" | "templatefile", _) => Err(format!(
                "output format {name:?} (Go templates) is not supported; use -o jsonpath=TEMPLATE (kubectl's JSONPath: https://kubernetes.io/docs/reference/kubectl/jsonpath/)"
            )),
            _ => Err(
                "unable to match a printer suitable for this output format; use table, wide, json, yaml, kyaml, name, jsonpath=…, jsonpath-file=…, jsonpath-as-json=…, custom-columns=… or custom-columns-file=…"
                    .to_string(),
            ),
        }
    }
}

/// Arguments of `get`.
#[derive(Debug, Clone, Args)]
pub struct GetArgs {
    /// TYPE, TYPE NAME…, or TYPE/NAME… (TYPE: plural, singular, kind, short name, plural.group).
    #[arg(required = true, value_name = "TYPE[/NAME]")]
    pub args: Vec<String>,
    /// Output format: table, wide, json, yaml, kyaml, name, jsonpath=TEMPLATE, jsonpath-file=PATH,
    /// jsonpath-as-json=TEMPLATE, custom-columns=HEADER:PATH[,…] or custom-columns-file=PATH.
    #[arg(short = 'o', long, default_value = "table", value_parser = FormatParser::<true>)]
    pub output: OutputFormat,
    /// With a jsonpath output: a key missing from an object prints nothing instead of
    /// failing (kubectl's default, true).
    #[arg(long, default_value_t = true, num_args = 0..=1, default_missing_value = "true", require_equals = true, action = clap::ArgAction::Set)]
    pub allow_missing_template_keys: bool,
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
    /// Label keys shown as columns of the table (repeatable, or comma-separated), as
    /// kubectl's `-L`: the header is the key's last `/` segment upper-cased.
    #[arg(short = 'L', long = "label-columns", value_delimiter = ',')]
    pub label_columns: Vec<String>,
    /// Prefix names with `kind.group/` in the table's NAME column.
    #[arg(long)]
    pub show_kind: bool,
    /// Keep `metadata.managedFields` in `-o json|yaml` (dropped by default, as kubectl).
    #[arg(long)]
    pub show_managed_fields: bool,
    /// Sort the objects by a JSONPath expression, e.g. `.metadata.name` or
    /// `{.status.startTime}` (numbers numerically, strings in natural order, objects
    /// without the field first).
    #[arg(long, value_name = "JSONPATH")]
    pub sort_by: Option<String>,
    /// After listing/getting the requested object, watch for changes.
    #[arg(short = 'w', long)]
    pub watch: bool,
    /// Watch for changes to the requested object(s), without listing/getting first.
    #[arg(long)]
    pub watch_only: bool,
    /// Output watch event objects when --watch or --watch-only is used. Existing objects are
    /// output as initial ADDED events.
    #[arg(long)]
    pub output_watch_events: bool,
}

/// `crds` subcommands.
#[derive(Debug, Subcommand)]
pub enum CrdsCommand {
    /// Server-side apply every CRD in DIR once and wait until each is Established and served.
    #[command(after_help = help::CRDS_SYNC_HELP)]
    Sync(CrdsSyncArgs),
    /// Hot-load: register every CRD in DIR, then follow the directory until SIGINT/SIGTERM.
    #[command(after_help = WATCH_HELP)]
    Watch(CrdsWatchArgs),
    /// What the directory holds and what the cluster has, side by side.
    #[command(after_help = help::CRDS_LIST_HELP)]
    List(CrdsListArgs),
}

const WATCH_HELP: &str =
    "Files: *.yaml and *.yml, one or more apiextensions.k8s.io/v1 CRDs each. A new or changed
file is applied with server-side apply (field manager kubectl-myops) and usable by `get` as
soon as it is reported registered. A bad file is reported and skipped; the others stay.

Removing a file unregisters its CRDs locally; they stay on the cluster. With --prune they are
deleted from the cluster — but only CRDs this tool applied. DELETING A CRD DELETES EVERY CUSTOM
RESOURCE OF IT, cluster-wide, at once.

Examples:
  # Follow the default directory (plugin.yaml crdDir, else ~/.kube/plugins/crds)
  kubectl myops crds watch

  # Follow ./crds, machine-readable log lines
  kubectl myops crds watch ./crds --log-format json

  # Three replicas on one directory: only the Lease holder applies, the others stand by;
  # Prometheus scrapes each on :9100 (/metrics, /healthz, /readyz)
  kubectl myops crds watch /etc/crds --leader-elect --lease-namespace crd-loader --metrics-addr :9100";

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
    /// Run as one of several replicas: only the holder of a coordination.k8s.io/v1 Lease
    /// applies; the others watch the directory and take over when the Lease expires
    /// (client-go leader election).
    #[arg(long)]
    pub leader_elect: bool,
    /// Namespace of the Lease (default: the namespace in effect — -n, else the context's;
    /// in a pod, its service account's).
    #[arg(long, requires = "leader_elect", value_name = "NAMESPACE")]
    pub lease_namespace: Option<String>,
    /// Name of the Lease.
    #[arg(
        long,
        requires = "leader_elect",
        default_value = "kubectl-myops-crd-loader",
        value_name = "NAME"
    )]
    pub lease_name: String,
    /// How long followers wait without seeing the Lease renewed before taking over (whole
    /// seconds; client-go's default).
    #[arg(
        long,
        requires = "leader_elect",
        default_value = "15s",
        value_name = "DURATION"
    )]
    pub lease_duration: String,
    /// How long the leader keeps trying to renew before it stops applying (client-go's
    /// default).
    #[arg(
        long,
        requires = "leader_elect",
        default_value = "10s",
        value_name = "DURATION"
    )]
    pub renew_deadline: String,
    /// Time between two attempts to acquire or renew the Lease (client-go's default).
    #[arg(
        long,
        requires = "leader_elect",
        default_value = "2s",
        value_name = "DURATION"
    )]
    pub retry_period: String,
    /// Serve /metrics, /healthz and /readyz on HOST:PORT (e.g. :9100 or 127.0.0.1:0); the
    /// totals are then scraped, not pushed to the Pushgateway.
    #[arg(long, value_name = "HOST:PORT")]
    pub metrics_addr: Option<String>,
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
    #[command(after_help = help::CONFIG_SCHEMA_HELP)]
    Schema,
    /// Check a plugin.yaml (default: the one the lookup order finds) and print what it allows.
    #[command(after_help = help::CONFIG_VALIDATE_HELP)]
    Validate {
        /// The file to check.
        path: Option<PathBuf>,
    },
}

/// `metrics` subcommands.
#[derive(Debug, Subcommand)]
pub enum MetricsCommand {
    /// Print the local totals (MYOPS_HOME/metrics-state.json).
    #[command(after_help = help::METRICS_SHOW_HELP)]
    Show {
        /// Output format.
        #[arg(short = 'o', long, value_enum, default_value = "table")]
        output: MetricsFormat,
    },
    /// Push the local totals to the Pushgateway now.
    #[command(after_help = help::METRICS_PUSH_HELP)]
    Push,
    /// Delete the local totals and this MYOPS_HOME's group on the Pushgateway (asks unless --yes).
    #[command(after_help = help::METRICS_RESET_HELP)]
    Reset {
        /// Do not ask.
        #[arg(long)]
        yes: bool,
    },
    /// Delete this MYOPS_HOME's group on the Pushgateway; keep the local totals.
    #[command(after_help = help::METRICS_DELETE_HELP)]
    Delete,
}

/// Output formats of `metrics show`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MetricsFormat {
    /// A table.
    Table,
    /// JSON.
    Json,
}

/// `auth` subcommands: SelfSubjectAccessReviews through the same gate the verbs use.
#[derive(Debug, Subcommand)]
pub enum AuthCommand {
    /// Check whether an action is allowed: prints `yes` or `no[ - REASON]`; exit 0 yes, 3 no.
    #[command(name = "can-i", after_help = CAN_I_HELP)]
    CanI(CanIArgs),
    /// A table of plugin.yaml resources × the RBAC verbs of the plugin's verbs for the caller.
    #[command(after_help = MATRIX_HELP)]
    Matrix(MatrixArgs),
    /// Who the API server says you are (SelfSubjectReview), as `kubectl auth whoami`.
    #[command(after_help = help::WHOAMI_HELP)]
    Whoami(WhoamiArgs),
}

/// Output formats of `auth whoami` (kubectl's table, or the review object).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum WhoamiFormat {
    /// The SelfSubjectReview as JSON (kubectl's field order, 4-space indent).
    Json,
    /// The SelfSubjectReview as YAML (sorted keys, as kubectl).
    Yaml,
}

/// Arguments of `auth whoami`.
#[derive(Debug, Args)]
pub struct WhoamiArgs {
    /// Output format: json or yaml (default: an ATTRIBUTE/VALUE table).
    #[arg(short = 'o', long)]
    pub output: Option<WhoamiFormat>,
}

const CAN_I_HELP: &str =
    "VERB is an RBAC verb (get, list, watch, create, update, patch, delete, …). TYPE resolves
like `get` (an unknown TYPE is exit 2); a TYPE outside the core group is named as
plural.group on stderr. `impersonate users|groups|uids|userextras[/KEY]` asks about
impersonation (users and groups in the core group, uids and userextras in
authentication.k8s.io), never a custom resource of that name. A NONRESOURCEURL starts with
`/` (`can-i get /healthz`). A review that could not be made is exit 1, never a `no`.
`--list` prints the caller's rules in the namespace (SelfSubjectRulesReview) that plugin.yaml
lets this plugin use; one stderr line says when rules were hidden. The answer is RBAC's alone, as kubectl's; when RBAC
says yes but plugin.yaml would refuse the plugin verb behind it (get for get/list/watch, patch
for patch), the line says `yes (outside plugin.yaml: …)`. A cluster-scoped TYPE is asked at
cluster scope.

Examples:
  # Can I list pods in namespace web?
  kubectl myops auth can-i list pods -n web

  # Can bob patch the deployment frontend? (needs impersonation rights)
  kubectl myops auth can-i patch deployment/frontend --as bob

  # The scale subresource, anywhere; exit code only
  kubectl myops auth can-i patch deployments --subresource scale -A -q

  # May I impersonate the user bob? May I read /healthz? What may I do here?
  kubectl myops auth can-i impersonate users/bob
  kubectl myops auth can-i get /healthz
  kubectl myops auth can-i --list -n web";

const MATRIX_HELP: &str =
    "Rows: plugin.yaml `resources` (and CRDs registered by `crds sync`); `?` when the
server does not serve the type. Columns: get, list, watch for the plugin verb get; patch for
patch; POLICIES (only when plugin.yaml has `policies:`) names the field-path policy rules on
the type, e.g. policies[0,2], or `-`; BOUNDARY is `ok` or why plugin.yaml refuses the row.

Examples:
  # What may I do in namespace web?
  kubectl myops auth matrix -n web

  # What may bob do cluster-wide?
  kubectl myops auth matrix -A --as bob";

/// Arguments of `auth can-i`.
#[derive(Debug, Args)]
pub struct CanIArgs {
    /// The RBAC verb: get, list, watch, create, update, patch, delete, impersonate, …
    #[arg(required_unless_present = "list")]
    pub verb: Option<String>,
    /// TYPE or TYPE/NAME (plural, singular, kind, short name, plural.group), or a
    /// NONRESOURCEURL starting with `/`.
    #[arg(value_name = "TYPE[/NAME]|URL", required_unless_present = "list")]
    pub resource: Option<String>,
    /// The object name (or give TYPE/NAME).
    pub name: Option<String>,
    /// Ask for all namespaces (cluster-wide).
    #[arg(short = 'A', long)]
    pub all_namespaces: bool,
    /// No output, only the exit code.
    #[arg(short = 'q', long)]
    pub quiet: bool,
    /// A subresource, e.g. `status`, `scale`, `log`.
    #[arg(long)]
    pub subresource: Option<String>,
    /// Print the rules you have in the namespace that plugin.yaml lets this plugin use.
    #[arg(long, conflicts_with_all = ["verb", "resource", "name", "all_namespaces", "quiet", "subresource"])]
    pub list: bool,
    /// With --list: omit the table header (without --list: a usage error, as kubectl).
    #[arg(long)]
    pub no_headers: bool,
}

/// Arguments of `auth matrix`.
#[derive(Debug, Args)]
pub struct MatrixArgs {
    /// Ask for all namespaces (cluster-wide).
    #[arg(short = 'A', long)]
    pub all_namespaces: bool,
    /// Omit the table header.
    #[arg(long)]
    pub no_headers: bool,
}

/// The shells `completion` generates scripts for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Shell {
    /// bash (needs the bash-completion package).
    Bash,
    /// zsh.
    Zsh,
    /// fish.
    Fish,
    /// PowerShell.
    Powershell,
}

impl Shell {
    /// The clap_complete generator for this shell.
    pub fn generator(self) -> clap_complete::Shell {
        match self {
            Shell::Bash => clap_complete::Shell::Bash,
            Shell::Zsh => clap_complete::Shell::Zsh,
            Shell::Fish => clap_complete::Shell::Fish,
            Shell::Powershell => clap_complete::Shell::PowerShell,
        }
    }

    /// Every shell, in the order of the `completion` argument.
    pub fn all() -> [Shell; 4] {
        [Shell::Bash, Shell::Zsh, Shell::Fish, Shell::Powershell]
    }

    /// The conventional file name of the script (`kubectl-myops.bash`, `_kubectl-myops`,
    /// `kubectl-myops.fish`, `_kubectl-myops.ps1`), as kept in `completions/`.
    pub fn file_name(self) -> String {
        use clap_complete::Generator;
        self.generator().file_name(BIN)
    }
}

/// The command the scripts complete.
pub const BIN: &str = "kubectl-myops";

/// Help for `completion`: where each script goes, and the kubectl helper.
pub const COMPLETION_HELP: &str = "Loading the script:
  bash        source <(kubectl-myops completion bash)      # e.g. in ~/.bashrc
  zsh         kubectl-myops completion zsh > \"${fpath[1]}/_kubectl-myops\"
  fish        kubectl-myops completion fish > ~/.config/fish/completions/kubectl-myops.fish
  powershell  kubectl-myops completion powershell | Out-String | Invoke-Expression

These complete `kubectl-myops …`. For `kubectl myops …`, kubectl's own completion (`kubectl
completion bash`, …) runs `kubectl_complete-myops` from PATH, which completes subcommands,
flags, -o values, contexts, namespaces, resource types and object names (asking the cluster
for at most 1s, env MYOPS_COMPLETION_TIMEOUT). krew links only kubectl-myops; link the helper
next to it once (again after `kubectl krew upgrade myops`):
  d=\"${KREW_ROOT:-$HOME/.krew}/bin\"
  ln -sf \"$(dirname \"$(readlink -f \"$d/kubectl-myops\")\")/kubectl_complete-myops\" \"$d/\"

Examples:
  # Load bash completion for kubectl-myops in this shell
  source <(kubectl-myops completion bash)

  # Install zsh completion
  kubectl-myops completion zsh > \"${fpath[1]}/_kubectl-myops\"";
