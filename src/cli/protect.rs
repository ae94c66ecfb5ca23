//! Arguments of `protect`: which plugin.yaml `protect:` rules hold here, and a lift of them
//! that expires.

use clap::{Args, Subcommand, ValueEnum};

/// `protect` subcommands.
#[derive(Debug, Subcommand)]
pub enum ProtectCommand {
    /// Which plugin.yaml `protect:` rules hold for the current context and server, and any
    /// lift of them in force.
    #[command(after_help = STATUS_HELP)]
    Status(ProtectStatusArgs),
    /// Lift the protection of the current context (or only of `-n NAMESPACE`) for DURATION:
    /// its changes need no confirmation until then (never a `block` rule).
    #[command(after_help = LIFT_HELP)]
    Lift(ProtectLiftArgs),
    /// End the lifts of the current context (or only the lift of `-n NAMESPACE`).
    #[command(after_help = END_HELP)]
    End,
}

/// Output formats of `protect status`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ProtectFormat {
    /// Tables.
    Table,
    /// JSON: the context, server, rules, lifts in force and lifts ignored.
    Json,
}

/// Arguments of `protect status`.
#[derive(Debug, Args)]
pub struct ProtectStatusArgs {
    /// Output format.
    #[arg(short = 'o', long, value_enum, default_value = "table")]
    pub output: ProtectFormat,
}

/// Arguments of `protect lift`.
#[derive(Debug, Args)]
pub struct ProtectLiftArgs {
    /// How long: `15m`, `1h`, `1h30m`, `90s` — more than 0 and at most the shortest
    /// `maxLift` of the rules that hold (default 1h each).
    #[arg(value_name = "DURATION")]
    pub duration: String,
}

/// `protect` help.
pub const PROTECT_HELP: &str =
    "plugin.yaml `protect:` rules mark contexts and namespaces where a change needs a
deliberate yes; a lift of them expires by itself and never lifts a `block` rule.

Examples:
  # What holds here, then a lift for a task, then its end
  kubectl myops protect status
  kubectl myops protect lift 15m --reason 'incident 4711'
  kubectl myops protect end";

/// `protect status` help.
const STATUS_HELP: &str =
    "Nothing is sent to the API server: the context and server come from the kubeconfig.

Examples:
  # What holds in the current context, and in another
  kubectl myops protect status
  kubectl myops protect status --context prod -o json";

/// `protect lift` help.
const LIFT_HELP: &str =
    "The lift is stored in MYOPS_HOME/protect/lifts.json (mode 0600) and journaled in the
change log (operation protect-lift); it replaces an earlier lift of the same context and
namespace. A duration longer than the rules' maxLift is refused (exit 2); a `block` rule
cannot be lifted (exit 3).

Examples:
  # Changes in the current context need no confirmation for 15 minutes
  kubectl myops protect lift 15m --reason 'incident 4711: scale the web tier'
  # Only namespace shop of context prod
  kubectl myops protect lift 30m --context prod -n shop";

/// `protect end` help.
const END_HELP: &str =
    "Journaled in the change log (operation protect-end). Without -n every lift of the context
ends; with -n only the lift of that namespace. Exit 4 when there is none.

Examples:
  kubectl myops protect end
  kubectl myops protect end -n shop";
