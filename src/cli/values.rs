//! clap value parsers that build their own errors, so a bad value is echoed escaped and
//! capped: `--field-manager`, `--dry-run` and `-o`.

use super::parse::output_value_error;
use crate::cluster::params::DryRun;
use crate::output::format::{ObjectFormat, OutputFormat};

/// The default `--field-manager` of `patch` and `rollback`.
pub const DEFAULT_FIELD_MANAGER: &str = "kubectl-myops";

/// Parses `--field-manager`: empty means [`DEFAULT_FIELD_MANAGER`] (an empty flag is no flag,
/// as elsewhere); otherwise the API server's rule ([`crate::base::validate::check_field_manager`]:
/// at most 128 bytes, printable) is checked before any request, so a field manager the server
/// would refuse fails before the object is read, not at the server after it.
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
        crate::base::validate::check_field_manager(v).map_err(fail)?;
        Ok(v.to_string())
    }
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
                crate::base::echo::capped(other, 100)
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

/// clap's parser of `-o` for `get` (`GET = true`: [`OutputFormat::parse`]) and `patch`
/// ([`ObjectFormat::parse`]); it offers the plain format names to completion and builds its
/// own error, so a bad template is echoed escaped and capped (exit 2).
#[derive(Debug, Clone, Copy)]
pub struct FormatParser<const GET: bool>;

/// Builds the clap usage error for a bad `-o` value ([`output_value_error`]).
fn format_error(cmd: &clap::Command, value: &str, reason: &str) -> clap::Error {
    clap::Error::raw(
        clap::error::ErrorKind::ValueValidation,
        format!("{}\n", output_value_error(value, reason)),
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
