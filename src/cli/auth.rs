//! Arguments of `auth`: what RBAC lets the caller do.

use clap::{Args, Subcommand};

use super::help;
use crate::output::format::WhoamiFormat;

/// `auth` subcommands: SelfSubjectAccessReviews through the same gate the verbs use.
#[derive(Debug, Subcommand)]
pub enum AuthCommand {
    /// Check whether an action is allowed: prints `yes` or `no[ - REASON]`; exit 0 yes, 3 no.
    #[command(name = "can-i", after_help = help::CAN_I_HELP)]
    CanI(CanIArgs),
    /// A table of plugin.yaml resources × the RBAC verbs of the plugin's verbs for the caller.
    #[command(after_help = help::MATRIX_HELP)]
    Matrix(MatrixArgs),
    /// Who the API server says you are (SelfSubjectReview), as `kubectl auth whoami`.
    #[command(after_help = help::WHOAMI_HELP)]
    Whoami(WhoamiArgs),
}

/// Arguments of `auth whoami`.
#[derive(Debug, Args)]
pub struct WhoamiArgs {
    /// Output format: json or yaml (default: an ATTRIBUTE/VALUE table).
    #[arg(short = 'o', long)]
    pub output: Option<WhoamiFormat>,
}

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
