//! Arguments of the commands that work on local files and the Pushgateway, never the API
//! server: `config`, `metrics`, `completion`.

use std::path::PathBuf;

use clap::{Subcommand, ValueEnum};

use super::help;
use crate::output::format::MetricsFormat;

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
