//! Error translation for plugin.yaml: what went wrong, where (`file:line:column`) and what to
//! do, as a [`ConfigError`].
//!
//! Why a module of its own: `mod.rs` says what a valid plugin.yaml is (parse, load, the rules in
//! `rules.rs`); this file only explains a failure to the user, mostly with text heuristics. Kept apart,
//! each reads on its own, and the heuristics can change without touching what is accepted.
//! - serde-saphyr errors ([`yaml_error`]) are reworded into "what is wrong: what to do". The key a
//!   bad value belongs to is read back from the text before the reported column ([`key_before`])
//!   so the message can name it, and a tab error is moved onto the tab itself.
//! - A broken rule ([`rule_error`]) has no place of its own: the typed config keeps none. It is
//!   found with a second, lenient parse of the same text that records spans ([`Spanned`]), so
//!   flow and block style both point at the offending value.
//! - Text that is not UTF-8 ([`not_utf8`]) is placed just after the last valid character.
//! - Every message has its control characters escaped ([`one_line`]), so an error is one line,
//!   and every piece of the user's text in it (a key, a value, a verb) is escaped and capped by
//!   [`crate::base::echo`], then the whole message is capped at [`MAX_MESSAGE_CHARS`]: a 5 MB value is
//!   never echoed whole.

use std::path::Path;
use std::string::FromUtf8Error;

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_saphyr::{Error as YamlError, Location, MessageFormatter, Spanned};

use super::{ConfigError, MetricFamily, Verb, yaml_options};
use crate::base::echo;

/// Longest message, in characters, after the pieces quoted from the file were capped: a last
/// guard for text a library formats on its own (serde's `Unexpected`, a scanner message).
pub(super) const MAX_MESSAGE_CHARS: usize = 400;

/// [`ConfigError::Parse`] for what serde-saphyr rejected in `text` (from `origin`).
pub(super) fn yaml_error(err: &YamlError, text: &str, origin: &Path) -> ConfigError {
    let (line, column, message) = diagnose(err, text);
    ConfigError::Parse {
        path: origin.to_path_buf(),
        line,
        column,
        message,
    }
}

/// [`ConfigError::Parse`] for a file that is not UTF-8, located at the first bad byte (the
/// line and column just after the last valid character).
pub(super) fn not_utf8(err: &FromUtf8Error, path: &Path) -> ConfigError {
    let valid = String::from_utf8_lossy(&err.as_bytes()[..err.utf8_error().valid_up_to()]);
    let (line, column) = end_position(&valid);
    ConfigError::Parse {
        path: path.to_path_buf(),
        line,
        column,
        message: "the file is not UTF-8 text: save it as UTF-8".to_string(),
    }
}

/// [`ConfigError::Invalid`] for a rule of plugin.yaml (docs/configuration.md) that `field` breaks, `message` saying what to do;
/// placed at the value in `text` (line 1, column 1 if it cannot be found).
pub(super) fn rule_error(field: Field, message: &str, text: &str, origin: &Path) -> ConfigError {
    let (line, column) = locate(field, text);
    ConfigError::Invalid {
        path: origin.to_path_buf(),
        line,
        column,
        message: one_line(message),
    }
}

/// The 1-based line and column of `at`; line 1, column 1 when it is unknown or line 0.
fn line_column(at: Option<Location>) -> (u64, u64) {
    at.filter(|l| l.line() > 0)
        .map_or((1, 1), |l| (l.line(), l.column().max(1)))
}

/// Turns a serde-saphyr error into `(line, column, message)`, the message saying what to do.
fn diagnose(err: &YamlError, text: &str) -> (u64, u64, String) {
    let mut err = err.without_snippet();
    let at = err.location();
    if let YamlError::AliasError { error, .. } = err {
        // Reported where the alias is used, described as the original error.
        err = error.without_snippet();
    }
    let (mut line, mut column) = line_column(at);
    let key = key_before(text, line, column);
    let key = key.map(|k| echo::bare(&k));
    let for_key = key
        .as_ref()
        .map_or(String::new(), |k| format!(" for `{k}`"));
    let message = match err {
        YamlError::SerdeUnknownField {
            field, expected, ..
        } => format!(
            "unknown key `{}`: remove it or fix its spelling (allowed here: {})",
            echo::bare(field),
            expected.join(", ")
        ),
        YamlError::SerdeUnknownVariant {
            variant, expected, ..
        } => {
            let what = if expected.contains(&MetricFamily::OpsTotal.name()) {
                "metric"
            } else if expected.contains(&Verb::Get.as_str()) || expected.contains(&"rollback") {
                "verb"
            } else if expected.contains(&"namespace") {
                "scope"
            } else {
                "value"
            };
            format!(
                "unknown {what} `{}`: use one of {}",
                echo::bare(variant),
                expected.join(", ")
            )
        }
        YamlError::DuplicateMappingKey { key, .. } => format!(
            "duplicate key `{}`: a key may appear only once in a mapping; keep one of them",
            key.as_deref().map_or_else(|| "?".to_string(), echo::bare)
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
            format!(
                "wrong type{for_key}: expected {expected}, found {}",
                echo::bare(unexpected)
            )
        }
        YamlError::SerdeInvalidValue {
            unexpected,
            expected,
            ..
        } => {
            format!(
                "invalid value{for_key}: expected {expected}, found {}",
                echo::bare(unexpected)
            )
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
            if msg.contains("invalid boolean") {
                format!("invalid value{for_key}: expected true or false")
            } else if !msg.contains("tab") {
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

/// Escapes control characters so a message stays on one line, and cuts it after
/// [`MAX_MESSAGE_CHARS`] characters.
fn one_line(s: &str) -> String {
    crate::base::echo::capped(s, MAX_MESSAGE_CHARS)
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
    #[serde(default)]
    policies: Vec<Spanned<PolicySpans>>,
    #[serde(default)]
    protect: Vec<Spanned<ProtectSpans>>,
    #[serde(default)]
    changelog: Option<ChangelogSpans>,
}

/// Where `changelog.mirror.namespace` is.
#[derive(Deserialize)]
struct ChangelogSpans {
    #[serde(default)]
    mirror: Option<MirrorSpans>,
}

/// Where the values of `changelog.mirror` are.
#[derive(Deserialize)]
struct MirrorSpans {
    namespace: Spanned<IgnoredAny>,
}

/// A list of values and where each one is.
type SpannedList = Option<Spanned<Vec<Spanned<IgnoredAny>>>>;

/// Where the validated values of one `protect` rule are.
#[derive(Deserialize)]
struct ProtectSpans {
    #[serde(default)]
    contexts: SpannedList,
    #[serde(default)]
    servers: SpannedList,
    #[serde(default)]
    namespaces: SpannedList,
    #[serde(default)]
    verbs: Option<Spanned<IgnoredAny>>,
    #[serde(default)]
    message: Option<Spanned<IgnoredAny>>,
}

/// The part of a `protect` rule a rule of plugin.yaml is about.
#[derive(Clone, Copy)]
pub(super) enum ProtectPart {
    /// Where the rule holds: its `contexts` list, else the rule itself.
    Where,
    /// The entry of `contexts` at this index.
    Context(usize),
    /// The entry of `servers` at this index.
    Server(usize),
    /// The entry of `namespaces` at this index, or the list.
    Namespaces(Option<usize>),
    Verbs,
    Message,
}

/// Where the validated values of one `policies` rule are.
#[derive(Deserialize)]
struct PolicySpans {
    #[serde(default)]
    resource: Option<Spanned<IgnoredAny>>,
    #[serde(default)]
    namespaces: SpannedList,
    #[serde(default)]
    deny: SpannedList,
    #[serde(default)]
    allow: SpannedList,
    #[serde(default)]
    message: Option<Spanned<IgnoredAny>>,
}

/// The part of a `policies` rule a rule of plugin.yaml is about.
#[derive(Clone, Copy)]
pub(super) enum PolicyPart {
    Resource,
    /// The entry of `namespaces` at this index.
    Namespace(usize),
    /// The entry of `deny` at this index, or the list.
    Deny(Option<usize>),
    /// The entry of `allow` at this index, or the list.
    Allow(Option<usize>),
    Message,
}

/// Where the validated pushgateway values are.
#[derive(Deserialize)]
struct PushgatewaySpans {
    url: Spanned<IgnoredAny>,
    #[serde(default)]
    timeout: Option<Spanned<IgnoredAny>>,
}

/// A value that a rule of plugin.yaml is about, to find its place in the text.
pub(super) enum Field {
    Name,
    Verbs,
    Resources,
    /// The entry of `resources` at this index.
    Resource(usize),
    Scopes,
    Url,
    Timeout,
    /// A part of the `policies` rule at this index.
    Policy(usize, PolicyPart),
    /// A part of the `protect` rule at this index.
    Protect(usize, ProtectPart),
    /// `changelog.mirror.namespace`.
    MirrorNamespace,
}

/// Where the value that `field` names starts in `text`, found with a second, lenient parse that
/// records spans (line 1, column 1 if that parse fails or the value is absent).
fn locate(field: Field, text: &str) -> (u64, u64) {
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
        Field::Policy(i, part) => spans
            .as_ref()
            .and_then(|s| s.policies.get(i))
            .and_then(|rule| {
                let r = &rule.value;
                match part {
                    PolicyPart::Resource => r.resource.as_ref().map(|v| v.referenced),
                    PolicyPart::Namespace(j) => item(&r.namespaces, Some(j)),
                    PolicyPart::Deny(j) => item(&r.deny, j),
                    PolicyPart::Allow(j) => item(&r.allow, j),
                    PolicyPart::Message => r.message.as_ref().map(|v| v.referenced),
                }
                .or(Some(rule.referenced))
            }),
        Field::Protect(i, part) => spans
            .as_ref()
            .and_then(|s| s.protect.get(i))
            .and_then(|rule| {
                let r = &rule.value;
                match part {
                    ProtectPart::Where => {
                        item(&r.contexts, None).or_else(|| item(&r.servers, None))
                    }
                    ProtectPart::Context(j) => item(&r.contexts, Some(j)),
                    ProtectPart::Server(j) => item(&r.servers, Some(j)),
                    ProtectPart::Namespaces(j) => item(&r.namespaces, j),
                    ProtectPart::Verbs => r.verbs.as_ref().map(|v| v.referenced),
                    ProtectPart::Message => r.message.as_ref().map(|v| v.referenced),
                }
                .or(Some(rule.referenced))
            }),
        Field::MirrorNamespace => spans
            .as_ref()
            .and_then(|s| s.changelog.as_ref())
            .and_then(|c| c.mirror.as_ref())
            .map(|m| m.namespace.referenced),
    };
    line_column(loc)
}

/// Where entry `j` of a spanned list is, or the list itself when `j` is `None` or past its
/// end; `None` when the list is absent.
fn item(list: &SpannedList, j: Option<usize>) -> Option<Location> {
    list.as_ref().map(|l| match j.and_then(|j| l.value.get(j)) {
        Some(v) => v.referenced,
        None => l.referenced,
    })
}

#[cfg(test)]
#[path = "diagnose_tests.rs"]
mod tests;
