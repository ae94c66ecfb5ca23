//! plugin.yaml: lookup, strict parsing, validation and JSON Schema (ARCHITECTURE §3).
//!
//! Why it is built this way:
//! - YAML is read by `serde-saphyr` with duplicate keys as errors: YAML requires unique keys, and
//!   a second `verbs:` silently replacing the first would change the plugin's boundary unseen.
//! - Every error names `file:line:column`, so a user can jump to the mistake; serde-saphyr's own
//!   messages are reworded into "what is wrong: what to do".
//! - Rules the types cannot express (non-empty lists, a label-safe name, the URL scheme, timeout
//!   bounds) are checked after parsing. Their locations come from a second, lenient pass over the
//!   same text that records spans ([`serde_saphyr::Spanned`]), so flow and block style both point
//!   at the offending value.
//!
//! Files: `mod.rs` (what a valid plugin.yaml is: parse, load, the rules), `diagnose.rs` (turning
//! a failure into a located message that says what to do), `model.rs` (the types), `paths.rs`
//! (the lookup order).

mod diagnose;
pub mod model;
mod paths;

use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_saphyr::DuplicateKeyPolicy;

use crate::exit::ExitStatus;
use diagnose::Field;

pub use model::*;
pub use paths::{ConfigSource, expand_tilde, load_source, locate};

/// The repository's plugin.yaml, compiled in as the last step of the lookup order.
const BUILTIN_TEXT: &str = include_str!("../../plugin.yaml");

/// The message for a file with no content (only blanks, comments or `---`).
const EMPTY_MESSAGE: &str = "plugin.yaml is empty: it must define name, verbs, resources, scopes";

/// Longest accepted `pushgateway.timeout`: a push must never hold up a command for long (§6).
const MAX_PUSH_TIMEOUT: Duration = Duration::from_secs(60);

/// An error loading or validating plugin.yaml. Always exit code 2 (ARCHITECTURE §2).
///
/// `Display` is one line: `<file>:<line>:<column>: <message>` for [`ConfigError::Parse`] and
/// [`ConfigError::Invalid`] (line 1, column 1 when no better place is known), and
/// `<file>: <message>` for [`ConfigError::Read`]. The message says what to do.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read (missing, a directory, no permission).
    #[error(
        "{}: cannot read plugin.yaml: {source}; fix the path (--config or $MYOPS_CONFIG) or the \
         file's permissions",
        path.display()
    )]
    Read {
        /// The file that was asked for.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: io::Error,
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
    /// The file parses but breaks a rule of §3 (empty list, bad name, bad URL or timeout).
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
    /// The exit status for any configuration error: [`ExitStatus::Usage`] (2, ARCHITECTURE §2).
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
/// [`ConfigError::Invalid`] for the rules of §3 checked after parsing.
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
    if let Some((field, message)) = first_problem(&config) {
        return Err(diagnose::rule_error(field, &message, text, origin));
    }
    Ok(config)
}

/// Reads and parses plugin.yaml at `path`.
///
/// # Errors
/// [`ConfigError::Read`] when the file cannot be read; [`ConfigError::Parse`] when it is not
/// UTF-8 (located at the first bad byte); otherwise as [`parse`].
pub fn load(path: &Path) -> Result<PluginConfig, ConfigError> {
    let bytes = std::fs::read(path).map_err(|source| ConfigError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    match String::from_utf8(bytes) {
        Ok(text) => parse(&text, path),
        Err(e) => Err(diagnose::not_utf8(&e, path)),
    }
}

/// The built-in default: the repository's plugin.yaml compiled into the binary, used when no file
/// is found by [`locate`] (ARCHITECTURE §3).
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
/// prints it (ARCHITECTURE §3). Unknown keys show as `"additionalProperties": false`.
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

/// The first rule of §3 that `c` breaks, with a message saying what to do; the rules types
/// cannot express, checked after parsing ([`diagnose::rule_error`] places the failure).
fn first_problem(c: &PluginConfig) -> Option<(Field, String)> {
    let label = |ch: char| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '-';
    // `plural` or `plural.group`: dot-separated lowercase RFC 1123 labels.
    let bad_resource = |r: &String| {
        r.split('.').any(|part| {
            part.is_empty()
                || !part.chars().all(label)
                || part.starts_with('-')
                || part.ends_with('-')
        })
    };
    if c.name.is_empty() {
        return Some((
            Field::Name,
            "`name` is empty: set it to the plugin name, e.g. myops".into(),
        ));
    }
    if !c.name.chars().all(label) {
        let msg = format!(
            "`name` {:?} is not a valid label value: use only a-z, 0-9 and '-'",
            c.name
        );
        return Some((Field::Name, msg));
    }
    if c.verbs.is_empty() {
        return Some((
            Field::Verbs,
            "`verbs` is empty: list at least one of get, patch".into(),
        ));
    }
    if c.resources.is_empty() {
        let msg =
            "`resources` is empty: list the resource types this plugin may touch, e.g. [pods]";
        return Some((Field::Resources, msg.into()));
    }
    if let Some(i) = c.resources.iter().position(bad_resource) {
        let msg = format!(
            "resource {:?} must be a plural or plural.group of lowercase letters, digits and '-', \
             e.g. deployments or widgets.example.com",
            c.resources[i]
        );
        return Some((Field::Resource(i), msg));
    }
    if c.scopes.is_empty() {
        return Some((
            Field::Scopes,
            "`scopes` is empty: list namespace, cluster or both".into(),
        ));
    }
    let pg = c.pushgateway.as_ref()?;
    let host = pg
        .url
        .strip_prefix("http://")
        .or_else(|| pg.url.strip_prefix("https://"));
    if host.is_none_or(str::is_empty) {
        let msg = format!(
            "pushgateway.url {:?} must start with http:// or https://, e.g. http://127.0.0.1:9091",
            pg.url
        );
        return Some((Field::Url, msg));
    }
    // An empty `instance` is allowed (it is sent as `instance@base64/=`); the job is required.
    if pg.job.is_empty() {
        let msg = "pushgateway.job must not be empty: the Pushgateway needs a job name for the \
                   grouping key (default kubectl-myops)";
        return Some((Field::Url, msg.into()));
    }
    if pg.timeout.is_zero() || pg.timeout > MAX_PUSH_TIMEOUT {
        let msg = format!(
            "pushgateway.timeout {:?} must be more than 0 and at most 60s, so a push never holds \
             up a command",
            pg.timeout
        );
        return Some((Field::Timeout, msg));
    }
    None
}

#[cfg(test)]
mod tests {
    //! What a good file and the built-in one give, the schema, and the empty and non-UTF-8 cases
    //! of parse and load. The helpers and sample texts are shared with `diagnose.rs`, whose tests
    //! check each other message, its place, and that odd input is an error, never a panic.

    use super::*;

    pub(super) const BASE: &str =
        "name: myops\nverbs: [get]\nresources: [pods]\nscopes: [namespace]\n";
    pub(super) const PG: &str = "name: myops\nverbs: [get]\nresources: [pods]\nscopes: [namespace]\n\
                      pushgateway:\n  url: http://x\n";

    /// Parses `text`, which must fail, and returns (variant, line, column, message).
    pub(super) fn fail(text: &str) -> (&'static str, u64, u64, String) {
        let err = parse(text, Path::new("p.yaml")).expect_err(text);
        assert_eq!(err.exit_status(), ExitStatus::Usage);
        let shown = err.to_string();
        assert!(!shown.contains('\n'), "one line: {shown:?}");
        let (kind, line, column, message) = match err {
            ConfigError::Parse {
                line,
                column,
                message,
                ..
            } => ("parse", line, column, message),
            ConfigError::Invalid {
                line,
                column,
                message,
                ..
            } => ("invalid", line, column, message),
            ConfigError::Read { .. } => unreachable!("parse never reads"),
        };
        assert_eq!(shown, format!("p.yaml:{line}:{column}: {message}"));
        (kind, line, column, message)
    }

    pub(super) fn check(cases: &[(String, u64, u64, &str)], kind: &str) {
        for (text, line, column, needle) in cases {
            let (k, l, c, m) = fail(text);
            assert_eq!((k, l, c), (kind, *line, *column), "{text:?}: {m}");
            assert!(m.contains(needle), "{text:?}: {m:?} lacks {needle:?}");
        }
    }

    #[test]
    fn empty_file_says_what_to_define() {
        for text in ["", "   \n", "# nothing yet\n\n", "---\n", "\u{feff}"] {
            let (kind, line, column, message) = fail(text);
            assert_eq!(
                (kind, line, column, message.as_str()),
                ("parse", 1, 1, EMPTY_MESSAGE)
            );
        }
    }

    #[test]
    fn good_file_values() {
        let text = "name: team-a\nverbs: [get]\nresources: [pods, widgets.example.com]\n\
                    scopes: [namespace, cluster]\nmetrics: [ops_total, crd_loads_total]\n\
                    crdDir: ~/crds\npushgateway:\n  url: https://pg:9091\n  instance: ci\n\
                    \x20 timeout: 500ms\n  basicAuth: {username: bot, passwordFile: /run/pw}\n";
        let c = parse(text, Path::new("p.yaml")).unwrap();
        assert_eq!(c.name, "team-a");
        assert_eq!(c.verbs, vec![Verb::Get]);
        assert_eq!(c.resources, vec!["pods", "widgets.example.com"]);
        assert_eq!(c.scopes, vec![Scope::Namespace, Scope::Cluster]);
        assert_eq!(
            c.metrics,
            vec![MetricFamily::OpsTotal, MetricFamily::CrdLoadsTotal]
        );
        assert_eq!(c.crd_dir, Some(PathBuf::from("~/crds")));
        let pg = c.pushgateway.unwrap();
        assert_eq!(
            (pg.url.as_str(), pg.job.as_str()),
            ("https://pg:9091", "kubectl-myops")
        );
        assert_eq!(
            (pg.instance.as_deref(), pg.timeout),
            (Some("ci"), Duration::from_millis(500))
        );
        let auth = pg.basic_auth.unwrap();
        assert_eq!(
            (auth.username.as_str(), auth.password_file),
            ("bot", PathBuf::from("/run/pw"))
        );
        let minimal = parse(BASE, Path::new("p.yaml")).unwrap();
        assert_eq!(
            (minimal.metrics.len(), minimal.crd_dir, minimal.pushgateway),
            (0, None, None)
        );
    }

    #[test]
    fn builtin_parses_and_equals_repository_file() {
        let b = builtin();
        let repo = load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("plugin.yaml")).unwrap();
        assert_eq!(b, repo);
        assert_eq!((b.name.as_str(), b.metrics.len()), ("myops", 5));
        assert_eq!(b.verbs, vec![Verb::Get, Verb::Patch]);
        assert_eq!(b.scopes, vec![Scope::Namespace, Scope::Cluster]);
        assert!(b.resources.iter().any(|r| r == "customresourcedefinitions"));
        assert_eq!(b.crd_dir, Some(PathBuf::from("~/.kube/plugins/crds")));
        // No Pushgateway by default: metrics stay local until a URL is configured.
        assert_eq!(b.pushgateway, None);
    }

    #[test]
    fn load_reports_non_utf8_at_the_bad_byte() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("plugin.yaml");
        std::fs::write(&p, b"name: my\nverbs: [g\xffet]\n").unwrap();
        let want = format!(
            "{}:2:10: the file is not UTF-8 text: save it as UTF-8",
            p.display()
        );
        assert_eq!(load(&p).unwrap_err().to_string(), want);
    }

    #[test]
    fn schema_names_the_keys_and_denies_unknown_ones() {
        let s = schema_json();
        for key in [
            "\"crdDir\"",
            "\"pushgateway\"",
            "\"basicAuth\"",
            "\"passwordFile\"",
        ] {
            assert!(s.contains(key), "{key} missing from {s}");
        }
        let v: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert_eq!(v["additionalProperties"], serde_json::Value::Bool(false));
        assert!(s.lines().count() > 10, "pretty-printed");
    }
}
