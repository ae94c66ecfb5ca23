//! plugin.yaml: lookup, strict parsing, validation and JSON Schema (ARCHITECTURE §3).
//!
//! Why it is built this way:
//! - YAML is read by `serde-saphyr` with duplicate keys as errors: YAML requires unique keys, and
//!   a second `verbs:` silently replacing the first would change the plugin's boundary unseen.
//! - Every error names `file:line:column`, so a user can jump to the mistake; serde-saphyr's own
//!   messages are reworded into "what is wrong: what to do" (see `diagnose`).
//! - Rules the types cannot express (non-empty lists, a label-safe name, the URL scheme, timeout
//!   bounds) are checked after parsing. Their locations come from a second, lenient pass over the
//!   same text that records spans ([`serde_saphyr::Spanned`]), so flow and block style both point
//!   at the offending value.

pub mod model;
mod paths;

use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_saphyr::{DuplicateKeyPolicy, Error as YamlError, MessageFormatter, Spanned};

use crate::exit::ExitStatus;

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
    let parse_error = |(line, column, message)| ConfigError::Parse {
        path: origin.to_path_buf(),
        line,
        column,
        message,
    };
    if is_blank(text) {
        return Err(parse_error((1, 1, EMPTY_MESSAGE.to_string())));
    }
    let config: PluginConfig = serde_saphyr::from_str_with_options(text, yaml_options())
        .map_err(|e| parse_error(diagnose(&e, text)))?;
    validate(&config, text).map_err(|(line, column, message)| ConfigError::Invalid {
        path: origin.to_path_buf(),
        line,
        column,
        message: one_line(&message),
    })?;
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
        Err(e) => {
            let valid = String::from_utf8_lossy(&e.as_bytes()[..e.utf8_error().valid_up_to()]);
            let (line, column) = end_position(&valid);
            Err(ConfigError::Parse {
                path: path.to_path_buf(),
                line,
                column,
                message: "the file is not UTF-8 text: save it as UTF-8".to_string(),
            })
        }
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

/// Turns a serde-saphyr error into `(line, column, message)`, the message saying what to do.
fn diagnose(err: &YamlError, text: &str) -> (u64, u64, String) {
    let mut err = err.without_snippet();
    let at = err.location().filter(|l| l.line() > 0);
    if let YamlError::AliasError { error, .. } = err {
        // Reported where the alias is used, described as the original error.
        err = error.without_snippet();
    }
    let (mut line, mut column) = at.map_or((1, 1), |l| (l.line(), l.column().max(1)));
    let key = key_before(text, line, column);
    let for_key = key
        .as_ref()
        .map_or(String::new(), |k| format!(" for `{k}`"));
    let message = match err {
        YamlError::SerdeUnknownField {
            field, expected, ..
        } => format!(
            "unknown key `{field}`: remove it or fix its spelling (allowed here: {})",
            expected.join(", ")
        ),
        YamlError::SerdeUnknownVariant {
            variant, expected, ..
        } => {
            let what = if expected.contains(&MetricFamily::OpsTotal.name()) {
                "metric"
            } else if expected.contains(&Verb::Get.as_str()) {
                "verb"
            } else if expected.contains(&"namespace") {
                "scope"
            } else {
                "value"
            };
            format!(
                "unknown {what} `{variant}`: use one of {}",
                expected.join(", ")
            )
        }
        YamlError::DuplicateMappingKey { key, .. } => format!(
            "duplicate key `{}`: a key may appear only once in a mapping; keep one of them",
            key.as_deref().unwrap_or("?")
        ),
        YamlError::Unexpected {
            expected: "mapping start",
            ..
        } if key.is_none() => {
            "plugin.yaml must be a mapping with the keys name, verbs, resources, scopes, not a \
             list or a single value"
                .to_string()
        }
        YamlError::Unexpected { expected, .. } => {
            let wanted = match *expected {
                "sequence start" => "a list such as [a, b]",
                "mapping start" => "a mapping of `key: value` lines",
                "string scalar" => "a single text value",
                other => other,
            };
            format!("wrong type{for_key}: expected {wanted}")
        }
        YamlError::SerdeInvalidType {
            unexpected,
            expected,
            ..
        } => {
            format!("wrong type{for_key}: expected {expected}, found {unexpected}")
        }
        YamlError::SerdeInvalidValue {
            unexpected,
            expected,
            ..
        } => {
            format!("invalid value{for_key}: expected {expected}, found {unexpected}")
        }
        YamlError::SerdeMissingField { field, .. } => format!(
            "missing required key `{field}`: add it (`kubectl myops config schema` lists all keys)"
        ),
        YamlError::NullIntoString { .. } => {
            format!("missing value{for_key}: write a value after the colon")
        }
        YamlError::MultipleDocuments { .. } => {
            "plugin.yaml must hold one YAML document: remove the `---` line and what follows"
                .to_string()
        }
        YamlError::Eof { .. } => {
            "the file ends inside a value: close the open [, { or quote".to_string()
        }
        YamlError::Message { msg, .. } => match &key {
            Some(k) => format!("`{k}`: {msg}"),
            None => msg.clone(),
        },
        other => {
            let msg = serde_saphyr::DefaultMessageFormatter.format_message(other);
            if !msg.contains("tab") {
                format!("invalid YAML: {msg}")
            } else {
                if let Some(found) = first_indent_tab(text, line) {
                    (line, column) = found;
                }
                "a tab is used for indentation; YAML indents only with spaces: replace the tab \
                 with spaces"
                    .to_string()
            }
        }
    };
    (line, column, one_line(&message))
}

/// The mapping key whose value starts at `line`:`column` (`verbs: 5` → `verbs`), looking at the
/// same line or, for a value on its own line, the previous non-blank line.
fn key_before(text: &str, line: u64, column: u64) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let idx = usize::try_from(line).ok()?.checked_sub(1)?;
    let skip = usize::try_from(column.saturating_sub(1)).ok()?;
    let current = lines.get(idx)?;
    let prefix: String = current.chars().take(skip).collect();
    // An empty value is reported at the colon itself (`name:` → column 5), hence `skip + 1`.
    let with_colon: String = current.chars().take(skip + 1).collect();
    if let Some(k) = trailing_key(&prefix).or_else(|| trailing_key(&with_colon)) {
        return Some(k);
    }
    if !prefix
        .trim_start()
        .trim_start_matches('-')
        .trim()
        .is_empty()
    {
        return None;
    }
    let previous = lines[..idx]
        .iter()
        .map(|l| strip_comment(l))
        .rev()
        .find(|l| !l.trim().is_empty());
    previous.and_then(trailing_key)
}

/// `"  timeout:"` → `timeout`.
fn trailing_key(s: &str) -> Option<String> {
    let s = s.trim_end().strip_suffix(':')?;
    let start = s
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_alphanumeric() || *c == '_' || *c == '-')
        .last()
        .map(|(i, _)| i)?;
    Some(s[start..].to_string())
}

/// The line without a trailing `# comment` (approximate: ignores quoting).
fn strip_comment(l: &str) -> &str {
    if l.trim_start().starts_with('#') {
        ""
    } else {
        l.find(" #").map_or(l, |i| &l[..i])
    }
}

/// The first tab in the leading whitespace of a non-blank line at or after `from_line`.
/// serde-saphyr reports some tab errors at the start of the previous value; this points at the tab.
fn first_indent_tab(text: &str, from_line: u64) -> Option<(u64, u64)> {
    (1u64..)
        .zip(text.lines())
        .skip_while(|(n, _)| *n < from_line)
        .find_map(|(n, l)| {
            let indent: String = l.chars().take_while(|c| c.is_whitespace()).collect();
            let tab = indent.chars().position(|c| c == '\t')?;
            (indent.len() < l.len()).then_some((n, tab as u64 + 1))
        })
}

/// The 1-based line and column just after `text`.
fn end_position(text: &str) -> (u64, u64) {
    let line = text.matches('\n').count() as u64 + 1;
    let column = text.rsplit('\n').next().map_or(0, |l| l.chars().count()) as u64 + 1;
    (line, column)
}

/// Escapes control characters so a message stays on one line.
fn one_line(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_control() {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out
}

/// Where the validated values are in the text; read leniently (unknown keys ignored), since the
/// strict parse has already succeeded.
#[derive(Deserialize)]
struct Spans {
    name: Spanned<IgnoredAny>,
    verbs: Spanned<IgnoredAny>,
    resources: Spanned<Vec<Spanned<IgnoredAny>>>,
    scopes: Spanned<IgnoredAny>,
    #[serde(default)]
    pushgateway: Option<PushgatewaySpans>,
}

/// Where the validated pushgateway values are.
#[derive(Deserialize)]
struct PushgatewaySpans {
    url: Spanned<IgnoredAny>,
    #[serde(default)]
    timeout: Option<Spanned<IgnoredAny>>,
}

/// A value that a rule of §3 is about, to find its place in the text.
enum Field {
    Name,
    Verbs,
    Resources,
    Resource(usize),
    Scopes,
    Url,
    Timeout,
}

/// Checks the rules of §3 that types cannot express; the first failure as (line, column, message),
/// located with a second, lenient parse that records spans (line 1, column 1 if that fails).
fn validate(c: &PluginConfig, text: &str) -> Result<(), (u64, u64, String)> {
    let Some((field, message)) = first_problem(c) else {
        return Ok(());
    };
    let spans: Option<Spans> = serde_saphyr::from_str_with_options(text, yaml_options()).ok();
    let pg = spans.as_ref().and_then(|s| s.pushgateway.as_ref());
    let loc = match field {
        Field::Name => spans.as_ref().map(|s| s.name.referenced),
        Field::Verbs => spans.as_ref().map(|s| s.verbs.referenced),
        Field::Resources => spans.as_ref().map(|s| s.resources.referenced),
        Field::Resource(i) => spans
            .as_ref()
            .and_then(|s| s.resources.value.get(i))
            .map(|r| r.referenced),
        Field::Scopes => spans.as_ref().map(|s| s.scopes.referenced),
        Field::Url => pg.map(|p| p.url.referenced),
        Field::Timeout => pg.and_then(|p| p.timeout.as_ref()).map(|t| t.referenced),
    };
    let (line, column) = loc
        .filter(|l| l.line() > 0)
        .map_or((1, 1), |l| (l.line(), l.column().max(1)));
    Err((line, column, message))
}

/// The first rule of §3 that `c` breaks, with a message saying what to do.
fn first_problem(c: &PluginConfig) -> Option<(Field, String)> {
    let label = |ch: char| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '-';
    let bad_resource =
        |r: &String| r.is_empty() || r.chars().any(|ch| ch.is_whitespace() || ch.is_uppercase());
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
            "resource {:?} must be lowercase with no spaces, e.g. deployments or \
             widgets.example.com",
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
    use super::*;

    const BASE: &str = "name: myops\nverbs: [get]\nresources: [pods]\nscopes: [namespace]\n";
    const PG: &str = "name: myops\nverbs: [get]\nresources: [pods]\nscopes: [namespace]\n\
                      pushgateway:\n  url: http://x\n";

    /// Parses `text`, which must fail, and returns (variant, line, column, message).
    fn fail(text: &str) -> (&'static str, u64, u64, String) {
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

    fn check(cases: &[(String, u64, u64, &str)], kind: &str) {
        for (text, line, column, needle) in cases {
            let (k, l, c, m) = fail(text);
            assert_eq!((k, l, c), (kind, *line, *column), "{text:?}: {m}");
            assert!(m.contains(needle), "{text:?}: {m:?} lacks {needle:?}");
        }
    }

    #[test]
    fn parse_errors_have_exact_locations() {
        let known = "use one of ops_total, ops_errors_total, ops_duration_seconds, \
                     crd_loads_total, crd_load_duration_seconds";
        #[rustfmt::skip]
        let cases: &[(String, u64, u64, &str)] = &[
            (format!("{BASE}bogus: 1\n"), 5, 1, "unknown key `bogus`: remove it or fix its spelling (allowed here: name,"),
            (format!("{PG}  bad: 1\n"), 7, 3, "unknown key `bad`"),
            ("name: myops\nverbs: 5\nresources: [pods]\nscopes: [namespace]\n".into(), 2, 8, "wrong type for `verbs`: expected a list"),
            ("name: [a]\n".into(), 1, 7, "wrong type for `name`: expected a single text value"),
            (format!("{BASE}pushgateway: 5\n"), 5, 14, "wrong type for `pushgateway`: expected a mapping"),
            (format!("{BASE}pushgateway:\n\turl: http://x\n"), 6, 1, "a tab is used for indentation"),
            (format!("{PG}\ttimeout: 1s\n"), 7, 1, "replace the tab with spaces"),
            (format!("{BASE}name: other\n"), 5, 1, "duplicate key `name`"),
            (format!("{PG}  url: http://b\n"), 7, 3, "duplicate key `url`"),
            (format!("{BASE}metrics: [ops_total, ops_totl]\n"), 5, 22, &format!("unknown metric `ops_totl`: {known}")),
            (format!("{BASE}metrics:\n  - ops_total\n  - nope\n"), 7, 5, "unknown metric `nope`"),
            ("name: myops\nverbs: [get, delete]\nresources: [pods]\nscopes: [namespace]\n".into(), 2, 14, "unknown verb `delete`: use one of get, patch"),
            ("name: myops\nverbs: [get]\nresources: [pods]\nscopes: [world]\n".into(), 4, 10, "unknown scope `world`: use one of namespace, cluster"),
            (format!("{PG}  timeout: soon\n"), 7, 12, "`timeout`: invalid duration \"soon\""),
            ("name:\nverbs: [get]\nresources: [pods]\nscopes: [namespace]\n".into(), 1, 5, "missing value for `name`"),
            ("name: myops\nverbs: [get]\nresources: [pods]\n".into(), 3, 1, "missing required key `scopes`"),
            (format!("{BASE}---\n{BASE}"), 6, 1, "one YAML document"),
            ("[]".into(), 1, 1, "must be a mapping"),
            ("null".into(), 1, 1, "must be a mapping"),
        ];
        check(cases, "parse");
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
    fn semantic_errors_point_at_the_value() {
        let res =
            |r: &str| format!("name: myops\nverbs: [get]\nresources:{r}\nscopes: [namespace]\n");
        #[rustfmt::skip]
        let cases: &[(String, u64, u64, &str)] = &[
            (BASE.replace("myops", "My_Ops"), 1, 7, "`name` \"My_Ops\" is not a valid label value: use only a-z, 0-9 and '-'"),
            (BASE.replace("myops", "\"\""), 1, 7, "`name` is empty"),
            (BASE.replace("[get]", "[]"), 2, 8, "`verbs` is empty"),
            (res(" []"), 3, 12, "`resources` is empty"),
            (res(" [pods, Deployments]"), 3, 19, "resource \"Deployments\" must be lowercase"),
            (res("\n  - pods\n  - \"con figmaps\""), 5, 5, "no spaces"),
            (BASE.replace("[namespace]", "[]"), 4, 9, "`scopes` is empty"),
            (PG.replace("http://x", "ftp://x"), 6, 8, "must start with http:// or https://"),
            (format!("{BASE}pushgateway: {{url: \"http://\"}}\n"), 5, 20, "must start with http://"),
            (format!("{PG}  timeout: 0s\n"), 7, 12, "pushgateway.timeout 0ns must be more than 0 and at most 60s"),
            (format!("{PG}  timeout: 61s\n"), 7, 12, "pushgateway.timeout 61s must be"),
        ];
        check(cases, "invalid");
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
        let pg = b.pushgateway.unwrap();
        assert_eq!(
            (pg.url.as_str(), pg.timeout),
            ("http://127.0.0.1:9091", Duration::from_secs(1))
        );
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

    #[test]
    fn odd_inputs_are_errors_not_panics() {
        let deep = "[".repeat(10_000);
        let big = format!("{BASE}pushgateway: {{url: http://x, timeout: 1e300h}}");
        let negative = format!("{BASE}pushgateway: {{url: http://x, timeout: -1s}}");
        #[rustfmt::skip]
        let odd = [
            "---", "[]", "null", "~", "name: [", "name: {", "\"", "- a\n- b", "\u{feff}\u{feff}",
            "\u{0}\u{1}\u{7f}\u{ff}x", "&a [*a]", "name: *nope", "? [a]\n: b", "!!binary AAAA",
            "%YAML 1.2\n---\n", "<<: {name: x}", "name: !!int x", "{{{{{{{{", &deep, &big,
            &negative,
        ];
        for text in odd {
            fail(text);
        }
        let garbage: Vec<u8> = (0..=255u8)
            .cycle()
            .take(2048)
            .map(|b| b.wrapping_mul(37))
            .collect();
        fail(&String::from_utf8_lossy(&garbage));
        // Every prefix of a good file: Ok or Err, never a panic.
        for end in (0..=BUILTIN_TEXT.len()).filter(|i| BUILTIN_TEXT.is_char_boundary(*i)) {
            let _ = parse(&BUILTIN_TEXT[..end], Path::new("p.yaml"));
        }
    }
}
