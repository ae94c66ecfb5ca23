//! Arguments of the commands that read objects: `get` and `drift`.

use clap::Args;

use super::values::FormatParser;
use crate::output::format::{DriftFormat, OutputFormat};

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
