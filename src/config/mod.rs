//! plugin.yaml: lookup, strict parsing, validation and JSON Schema (docs/configuration.md).
//!
//! Why it is built this way:
//! - YAML is read by `serde-saphyr` with duplicate keys as errors: YAML requires unique keys, and
//!   a second `verbs:` silently replacing the first would change the plugin's boundary unseen.
//! - Every error names `file:line:column`, so a user can jump to the mistake; serde-saphyr's own
//!   messages are reworded into "what is wrong: what to do".
//! - The file is read only if it is a regular file of at most [`MAX_BYTES`] that only its owner
//!   can write ([`load`]): a FIFO must not hang the tool, and a boundary anyone can change is no
//!   boundary.
//! - Every value echoed in an error is escaped and capped ([`crate::base::echo`]), so a 5 MB `name:`
//!   or an escape sequence in a value never reaches the terminal whole.
//! - Rules the types cannot express (non-empty lists, a label-safe name, the URL scheme, timeout
//!   bounds) are checked after parsing. Their locations come from a second, lenient pass over the
//!   same text that records spans ([`serde_saphyr::Spanned`]), so flow and block style both point
//!   at the offending value.
//!
//! Files: `mod.rs` (what a valid plugin.yaml is: parse and load), `rules.rs` (the rules checked
//! after parsing), `pushgateway.rs` (the rules of the `pushgateway:` block, the base-URL rule
//! shared with the flag and the environment), `diagnose.rs` (turning a failure into a located
//! message that says what to do), `model.rs` (the types), `paths.rs` (the lookup order),
//! `tests.rs`.

mod diagnose;
pub mod model;
mod options;
mod paths;
mod pushgateway;
mod rules;

use std::path::{Path, PathBuf};

use serde_saphyr::DuplicateKeyPolicy;

use crate::base::fsutil::{self, Unreadable};
use crate::exit::ExitStatus;

pub use model::*;
pub use paths::{ConfigSource, expand_tilde, load_source, locate};
pub use pushgateway::base_url_problem;

/// The repository's plugin.yaml, compiled in as the last step of the lookup order.
const BUILTIN_TEXT: &str = include_str!("../../plugin.yaml");

/// The message for a file with no content (only blanks, comments or `---`).
const EMPTY_MESSAGE: &str = "plugin.yaml is empty: it must define name, verbs, resources, scopes";

/// Largest plugin.yaml read, in bytes (1 MiB). A real one is well under 1 KiB; the cap only
/// keeps a wrong path (a log, a disk image) or a hostile file from being read whole.
pub const MAX_BYTES: u64 = 1024 * 1024;

/// Longest `name`, in characters: the name is the `plugin` label on every metric and is held
/// to an RFC 1123 DNS label, like Kubernetes label values (at most 63 characters,
/// apimachinery `validation.IsDNS1123Label`).
pub const MAX_NAME_CHARS: usize = 63;

/// Longest entry of `resources`, in characters: `plural.group` is a DNS subdomain (at most
/// 253 characters, apimachinery `validation.IsDNS1123Subdomain`).
pub const MAX_RESOURCE_CHARS: usize = 253;

/// An error loading or validating plugin.yaml. Always exit code 2 (docs/design.md, "Exit codes").
///
/// `Display` is one line: `<file>:<line>:<column>: <message>` for [`ConfigError::Parse`] and
/// [`ConfigError::Invalid`] (line 1, column 1 when no better place is known), and
/// `<file>: <message>` for [`ConfigError::Read`] and [`ConfigError::Writable`]. The message says
/// what to do.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read: missing, a dangling link, not a regular file (a directory, a
    /// FIFO, a device), larger than [`MAX_BYTES`], no permission.
    #[error("{}: cannot read plugin.yaml: {source}", path.display())]
    Read {
        /// The file that was asked for.
        path: PathBuf,
        /// What is wrong with it and what to do.
        #[source]
        source: Unreadable,
    },
    /// The file is group- or world-writable: anyone in that group (or anyone) could widen the
    /// plugin's boundary, so it is refused as the CRD directory is and as ssh refuses such key
    /// files.
    #[error(
        "{}: refusing plugin.yaml: it is group- or world-writable (mode {mode:o}), so others could change what this plugin may do as you; run `chmod go-w {}`",
        path.display(),
        path.display()
    )]
    Writable {
        /// The file (as found; the mode is that of the file a link resolves to).
        path: PathBuf,
        /// Its permission bits.
        mode: u32,
    },
    /// The text is not a well-formed plugin.yaml: YAML syntax, an unknown key, a wrong type, a
    /// duplicate key, an unknown verb/scope/metric, an empty file or text that is not UTF-8.
    #[error("{}:{line}:{column}: {message}", path.display())]
    Parse {
        /// The file (or origin) of the text.
        path: PathBuf,
        /// 1-based line.
        line: u64,
        /// 1-based column, in characters.
        column: u64,
        /// What is wrong and what to do.
        message: String,
    },
    /// The file parses but breaks a rule of docs/configuration.md (empty list, bad name, bad URL or timeout).
    #[error("{}:{line}:{column}: {message}", path.display())]
    Invalid {
        /// The file (or origin) of the text.
        path: PathBuf,
        /// 1-based line.
        line: u64,
        /// 1-based column, in characters.
        column: u64,
        /// What is wrong and what to do.
        message: String,
    },
}

impl ConfigError {
    /// The exit status for any configuration error: [`ExitStatus::Usage`] (2, docs/design.md, "Exit codes").
    pub fn exit_status(&self) -> ExitStatus {
        ExitStatus::Usage
    }
}

/// Parses and validates plugin.yaml text; `origin` only names the file in error messages.
///
/// A leading byte-order mark is ignored. Only one YAML document is accepted.
///
/// # Errors
/// [`ConfigError::Parse`] for anything serde-saphyr rejects (syntax, tabs used for indentation,
/// unknown or duplicate keys, wrong types, unknown verbs/scopes/metrics) and for an empty file;
/// [`ConfigError::Invalid`] for the rules of docs/configuration.md checked after parsing.
///
/// # Example
/// ```
/// use std::path::Path;
/// let err = myops::config::parse("name: x\nverbs: 5\n", Path::new("p")).unwrap_err();
/// assert_eq!(err.to_string(), "p:2:8: wrong type for `verbs`: expected a list such as [a, b]");
/// ```
pub fn parse(text: &str, origin: &Path) -> Result<PluginConfig, ConfigError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if is_blank(text) {
        return Err(ConfigError::Parse {
            path: origin.to_path_buf(),
            line: 1,
            column: 1,
            message: EMPTY_MESSAGE.to_string(),
        });
    }
    let config: PluginConfig = serde_saphyr::from_str_with_options(text, yaml_options())
        .map_err(|e| diagnose::yaml_error(&e, text, origin))?;
    if let Some((field, message)) = rules::first_problem(&config) {
        return Err(diagnose::rule_error(field, &message, text, origin));
    }
    Ok(config)
}

/// Reads and parses plugin.yaml at `path`, wherever it was found (every source of
/// [`locate`] comes through here).
///
/// Read with [`fsutil::read_regular_with_mode`]: only a regular file (after resolving links) of
/// at most [`MAX_BYTES`], never blocking on a FIFO or device.
///
/// # Errors
/// [`ConfigError::Read`] when the file cannot be read or is not a regular file of at most
/// [`MAX_BYTES`]; [`ConfigError::Writable`] when it is group- or world-writable;
/// [`ConfigError::Parse`] when it is not UTF-8 (located at the first bad byte); otherwise as
/// [`parse`].
pub fn load(path: &Path) -> Result<PluginConfig, ConfigError> {
    checked(fsutil::read_regular_with_mode(path, MAX_BYTES), path)
}

/// [`load`] for a plugin.yaml the user named (`--config`, `$MYOPS_CONFIG`, `config validate
/// PATH`): read with [`fsutil::read_named`], so a FIFO such as `--config <(…)` is read once
/// (its writer done within `deadline`) instead of refused.
///
/// # Errors
/// As [`load`], and [`ConfigError::Read`] when a FIFO's writer does not finish in time.
pub fn load_named(path: &Path, deadline: std::time::Duration) -> Result<PluginConfig, ConfigError> {
    checked(fsutil::read_named(path, MAX_BYTES, deadline), path)
}

/// The plugin.yaml in `read` (the bytes and mode of `path`), once its mode lets only its
/// owner write it.
fn checked(
    read: Result<(Vec<u8>, u32), fsutil::ReadError>,
    path: &Path,
) -> Result<PluginConfig, ConfigError> {
    let (bytes, mode) = read.map_err(|e| ConfigError::Read {
        path: path.to_path_buf(),
        source: e.problem,
    })?;
    if mode & 0o022 != 0 {
        return Err(ConfigError::Writable {
            path: path.to_path_buf(),
            mode,
        });
    }
    match String::from_utf8(bytes) {
        Ok(text) => parse(&text, path),
        Err(e) => Err(diagnose::not_utf8(&e, path)),
    }
}

/// The built-in default: the repository's plugin.yaml compiled into the binary, used when no file
/// is found by [`locate`] (docs/configuration.md).
///
/// # Panics
/// Never in a released binary: the unit test `builtin_parses_and_equals_repository_file` proves
/// the compiled-in text is valid.
pub fn builtin() -> PluginConfig {
    parse(BUILTIN_TEXT, Path::new("<built-in plugin.yaml>")).expect(
        "the built-in plugin.yaml is valid (unit test builtin_parses_and_equals_repository_file)",
    )
}

/// The JSON Schema of plugin.yaml (schemars, draft 2020-12), pretty-printed; `config schema`
/// prints it (docs/configuration.md). Unknown keys show as `"additionalProperties": false`.
pub fn schema_json() -> String {
    // `{:#}` on a serde_json::Value pretty-prints and cannot fail, unlike to_string_pretty.
    format!("{:#}", schemars::schema_for!(PluginConfig).as_value())
}

/// The serde-saphyr options: duplicate keys are errors (already the default, stated so a
/// dependency update cannot silently change it), and no multi-line source snippets.
fn yaml_options() -> serde_saphyr::Options {
    serde_saphyr::options! {
        duplicate_keys: DuplicateKeyPolicy::Error,
        with_snippet: false,
    }
}

/// True when the text has no content: blank lines, comments and document markers only.
fn is_blank(text: &str) -> bool {
    text.lines().all(|l| {
        let t = l.trim();
        t.is_empty() || t.starts_with('#') || t == "---" || t == "..." || t.starts_with("--- #")
    })
}

#[cfg(test)]
mod tests;
