//! Arguments of `edit`.

use clap::{Args, ValueEnum};

use super::values::{DEFAULT_FIELD_MANAGER, FieldManagerParser};

/// Arguments of `edit`.
#[derive(Debug, Args)]
pub struct EditArgs {
    /// TYPE NAME or TYPE/NAME: exactly one object.
    #[arg(required = true, num_args = 1..=2, value_name = "TYPE[/NAME]")]
    pub args: Vec<String>,
    /// The format the editor shows (yaml by default, with kubectl's header comment; json
    /// without one); given, the edited object is also printed in it instead of
    /// `TYPE/NAME edited`, as kubectl does.
    #[arg(short = 'o', long, value_enum)]
    pub output: Option<EditFormat>,
    /// Print the patch sent (`Patch: {...}`), as kubectl's --output-patch.
    #[arg(long)]
    pub output_patch: bool,
    /// Field manager recorded by the server (at most 128 bytes, printable; empty = the default).
    #[arg(long, default_value = DEFAULT_FIELD_MANAGER, value_parser = FieldManagerParser)]
    pub field_manager: String,
}

/// The format of the file the editor opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EditFormat {
    /// YAML under kubectl's header comment.
    Yaml,
    /// JSON, without a header (a comment is not JSON).
    Json,
}

/// `edit --help` examples and notes.
pub const EDIT_HELP: &str = "\
Examples:
  # Edit the config map c1 in the editor of KUBE_EDITOR, EDITOR or vi
  kubectl myops edit configmap c1

  # Edit a deployment as JSON
  KUBE_EDITOR=nano kubectl myops edit deployment/web -o json

The change is sent as a patch pinned to the resourceVersion read (a write in between is a
conflict, exit 5), judged by the field policies of plugin.yaml, journaled as operation
`edit` and undone with `kubectl myops rollback ID`. Not with --contexts: one editor session
edits one object in one cluster.";
