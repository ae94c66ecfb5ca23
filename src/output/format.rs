//! The output formats the command line chooses (`-o` and `--log-format`), and the pure
//! parsing of `-o` values into them. A template given inline is parsed here; a template file
//! (`jsonpath-file=`, `custom-columns-file=`) is only named here and read by
//! [`crate::settings::load_template_files`] before any verb runs.

use clap::ValueEnum;

use super::custom_columns::{self, Column};
use super::jsonpath::Template;

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

/// The template output formats. A bad template is a usage error (exit 2) before any
/// request — `patch` never applies a change it then cannot print
/// (`k8s.io/cli-runtime/pkg/genericclioptions/jsonpath_flags.go`,
/// `k8s.io/kubectl/pkg/cmd/get/customcolumn_flags.go`).
#[derive(Debug, Clone, PartialEq)]
pub enum TemplateFormat {
    /// `jsonpath=`, `jsonpath-file=` or (`as_json`) `jsonpath-as-json=`.
    JsonPath {
        /// The template.
        template: Template,
        /// Print each action's results as an indented JSON array.
        as_json: bool,
    },
    /// `custom-columns=` or `custom-columns-file=`.
    CustomColumns(Vec<Column>),
    /// `jsonpath-file=PATH` or `custom-columns-file=PATH` as parsed, before the file is read:
    /// [`crate::settings::load_template_files`] replaces it with the template the file holds
    /// before any verb runs, so a verb never prints with it.
    File(TemplateFile),
}

/// A template file named by `-o`, not read yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TemplateFile {
    /// What the file holds.
    pub kind: TemplateFileKind,
    /// The path, as given.
    pub path: String,
    /// The whole `-o` value (`jsonpath-file=PATH`), for error messages.
    pub flag: String,
}

/// What a [`TemplateFile`] holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TemplateFileKind {
    /// A JSONPath template (`jsonpath-file=`).
    JsonPath,
    /// Custom columns: a line of headers, a line of specs (`custom-columns-file=`).
    CustomColumns,
}

/// The largest template file `-o jsonpath-file=` / `custom-columns-file=` reads (1 MiB): a
/// template is a few lines; `/dev/zero` or a log file given by mistake must not be read
/// whole.
pub const MAX_TEMPLATE_FILE_BYTES: u64 = 1 << 20;

impl TemplateFile {
    /// The template the file's `text` holds.
    ///
    /// # Errors
    /// The template parser's sentence (a usage error, exit 2).
    pub fn parse(&self, text: &str) -> Result<TemplateFormat, String> {
        match self.kind {
            TemplateFileKind::JsonPath => Ok(TemplateFormat::JsonPath {
                template: Template::parse(text).map_err(|e| e.to_string())?,
                as_json: false,
            }),
            TemplateFileKind::CustomColumns => Ok(TemplateFormat::CustomColumns(
                custom_columns::parse_file(text).map_err(|e| e.to_string())?,
            )),
        }
    }
}

impl OutputFormat {
    /// Parses a `get -o` value as kubectl names them: `FORMAT` or `FORMAT=ARG` (the first
    /// `=` splits, so a template may contain `=`). A template file is named, not read
    /// ([`TemplateFormat::File`]).
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
        let text = || template_text(name, arg);
        let file = |kind: TemplateFileKind| -> Result<OutputFormat, String> {
            Ok(OutputFormat::Template(TemplateFormat::File(TemplateFile {
                kind,
                path: text()?.to_string(),
                flag: s.to_string(),
            })))
        };
        let jsonpath = |as_json: bool| -> Result<OutputFormat, String> {
            let template = Template::parse(text()?).map_err(|e| e.to_string())?;
            Ok(OutputFormat::Template(TemplateFormat::JsonPath {
                template,
                as_json,
            }))
        };
        match (name, arg) {
            ("table", None) => Ok(OutputFormat::Table),
            ("wide", None) => Ok(OutputFormat::Wide),
            ("json", None) => Ok(OutputFormat::Json),
            ("yaml", None) => Ok(OutputFormat::Yaml),
            ("kyaml", None) => Ok(OutputFormat::KYaml),
            ("name", None) => Ok(OutputFormat::Name),
            ("jsonpath", _) => jsonpath(false),
            ("jsonpath-file", _) => file(TemplateFileKind::JsonPath),
            ("jsonpath-as-json", _) => jsonpath(true),
            ("custom-columns", _) => Ok(OutputFormat::Template(TemplateFormat::CustomColumns(
                custom_columns::parse_spec(text()?).map_err(|e| e.to_string())?,
            ))),
            ("custom-columns-file", _) => file(TemplateFileKind::CustomColumns),
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

/// The template (or file path) of a template format `name=arg`.
///
/// # Errors
/// kubectl's sentence when it is missing or empty.
fn template_text<'a>(name: &str, arg: Option<&'a str>) -> Result<&'a str, String> {
    match arg {
        Some(a) if !a.is_empty() => Ok(a),
        _ if name.starts_with("custom-columns") => Err(
            "custom-columns format specified but no custom columns given; pass -o custom-columns=HEADER:PATH[,HEADER:PATH…]"
                .to_string(),
        ),
        _ => Err(format!(
            "template format specified but no template given; pass -o {name}=TEMPLATE"
        )),
    }
}

/// What `patch -o` accepts, said when it is given anything else.
const PATCH_FORMATS: &str = "unable to match a printer suitable for this output format; use json, yaml, kyaml, name, jsonpath=…, jsonpath-file=… or jsonpath-as-json=…";

impl ObjectFormat {
    /// Parses a `patch -o` value (kubectl's names; `table` and `wide` are `get`'s only).
    ///
    /// # Errors
    /// A sentence naming the accepted formats (clap reports it, exit 2).
    pub fn parse(s: &str) -> Result<ObjectFormat, String> {
        let parsed = OutputFormat::parse(s).map_err(|e| {
            if e.starts_with("unable to match") {
                PATCH_FORMATS.to_string()
            } else {
                e
            }
        })?;
        match parsed {
            OutputFormat::Json => Ok(ObjectFormat::Json),
            OutputFormat::Yaml => Ok(ObjectFormat::Yaml),
            OutputFormat::Name => Ok(ObjectFormat::Name),
            OutputFormat::KYaml => Ok(ObjectFormat::KYaml),
            OutputFormat::Template(t) => ObjectFormat::template(t),
            OutputFormat::Table | OutputFormat::Wide => Err(PATCH_FORMATS.to_string()),
        }
    }

    /// `t` as a `patch -o` format: a JSONPath template, or a template file not read yet
    /// (what the file holds decides once it is read, so an unreadable file is reported as
    /// such whatever its kind).
    ///
    /// # Errors
    /// The sentence naming the accepted formats for custom columns: kubectl patch has no
    /// custom-columns printer.
    pub fn template(t: TemplateFormat) -> Result<ObjectFormat, String> {
        match t {
            TemplateFormat::CustomColumns(_) => Err(PATCH_FORMATS.to_string()),
            t => Ok(ObjectFormat::Template(t)),
        }
    }
}

/// `drift -o` formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DriftFormat {
    /// One JSON document (`kind: DriftReport`, schema in docs/policies.md).
    Json,
}

/// `changelog list -o` formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ListFormat {
    /// A JSON array of entries.
    Json,
    /// A YAML list of entries.
    Yaml,
}

/// Log line format of `crds watch`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// One human-readable line per event and outcome.
    Text,
    /// One JSON object per line.
    Json,
}

/// Output formats of `metrics show`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MetricsFormat {
    /// A table.
    Table,
    /// JSON.
    Json,
}

/// Output formats of `auth whoami` (kubectl's table, or the review object).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum WhoamiFormat {
    /// The SelfSubjectReview as JSON (kubectl's field order, 4-space indent).
    Json,
    /// The SelfSubjectReview as YAML (sorted keys, as kubectl).
    Yaml,
}
