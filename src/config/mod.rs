//! plugin.yaml: lookup, strict parsing, validation and JSON Schema (ARCHITECTURE §3).
//!
//! Why it is built this way:
//! - YAML is read by `serde-saphyr` with duplicate keys as errors: YAML requires unique keys, and
//!   a second `verbs:` silently replacing the first would change the plugin's boundary unseen.
//! - Every error names `file:line:column`, so a user can jump to the mistake; serde-saphyr's own
//!   messages are reworded into "what is wrong: what to do".
//! - The file is read only if it is a regular file of at most [`MAX_BYTES`] that only its owner
//!   can write ([`load`]): a FIFO must not hang the tool, and a boundary anyone can change is no
//!   boundary (issue 10, classes 3 and 4).
//! - Every value echoed in an error is escaped and capped ([`crate::echo`]), so a 5 MB `name:`
//!   or an escape sequence in a value never reaches the terminal whole (issue 10, class 7).
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

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_saphyr::DuplicateKeyPolicy;

use crate::echo;
use crate::exit::ExitStatus;
use crate::fsutil::{self, Unreadable};
use diagnose::Field;

pub use model::*;
pub use paths::{ConfigSource, expand_tilde, load_source, locate};

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

/// Longest accepted `pushgateway.timeout`: a push must never hold up a command for long (§6).
const MAX_PUSH_TIMEOUT: Duration = Duration::from_secs(60);

/// An error loading or validating plugin.yaml. Always exit code 2 (ARCHITECTURE §2).
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
    /// files (issue 10, class 4).
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
    let (bytes, mode) =
        fsutil::read_regular_with_mode(path, MAX_BYTES).map_err(|e| ConfigError::Read {
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
            "`name` {} is not a valid label value: use only a-z, 0-9 and '-'",
            echo::quoted(&c.name)
        );
        return Some((Field::Name, msg));
    }
    let name_chars = c.name.chars().count();
    if name_chars > MAX_NAME_CHARS {
        let msg = format!(
            "`name` is {name_chars} characters long: use at most {MAX_NAME_CHARS} (an RFC 1123 label, like a Kubernetes label value)"
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
            "resource {} must be a plural or plural.group of lowercase letters, digits and '-', \
             e.g. deployments or widgets.example.com",
            echo::quoted(&c.resources[i])
        );
        return Some((Field::Resource(i), msg));
    }
    if let Some(i) = c
        .resources
        .iter()
        .position(|r| r.chars().count() > MAX_RESOURCE_CHARS)
    {
        let msg = format!(
            "resource {} is {} characters long: use at most {MAX_RESOURCE_CHARS} (a DNS subdomain)",
            echo::quoted(&c.resources[i]),
            c.resources[i].chars().count()
        );
        return Some((Field::Resource(i), msg));
    }
    if c.scopes.is_empty() {
        return Some((
            Field::Scopes,
            "`scopes` is empty: list namespace, cluster or both".into(),
        ));
    }
    if let Some(problem) = policy_problem(c) {
        return Some(problem);
    }
    let pg = c.pushgateway.as_ref()?;
    if let Some(msg) = crate::metrics::base_url_problem("pushgateway.url", &pg.url) {
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

/// Whether `s` is a Kubernetes API version (`v1`, `v2beta3`, `v1alpha1`: "API versioning",
/// kubernetes.io/docs/reference/using-api/#api-versioning), which is never an API group.
fn is_api_version(s: &str) -> bool {
    let Some(rest) = s.strip_prefix('v') else {
        return false;
    };
    let digits_end = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    if digits_end == 0 || rest.starts_with('0') {
        return false;
    }
    match &rest[digits_end..] {
        "" => true,
        tail => ["alpha", "beta"].iter().any(|pre| {
            tail.strip_prefix(pre).is_some_and(|n| {
                !n.is_empty() && !n.starts_with('0') && n.chars().all(|c| c.is_ascii_digit())
            })
        }),
    }
}

/// The first rule of `policies` (issue 16) that `c` breaks: a resource that is not `*`,
/// `plural` or `plural.group`; a namespace glob that is not a namespace name with `*`s; no
/// `deny` paths; a path [`crate::policy::parse_pattern`] refuses; an empty message.
fn policy_problem(c: &PluginConfig) -> Option<(Field, String)> {
    use diagnose::PolicyPart;
    let label = |ch: char| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '-';
    for (i, r) in c.policies.iter().enumerate() {
        let at = |part| Field::Policy(i, part);
        let bad_resource = r.resource != "*"
            && (r.resource.chars().count() > MAX_RESOURCE_CHARS
                || r.resource.split('.').any(|p| {
                    p.is_empty() || !p.chars().all(label) || p.starts_with('-') || p.ends_with('-')
                }));
        if bad_resource {
            let msg = format!(
                "policies[{i}].resource {} must be *, a plural or a plural.group of lowercase letters, digits and '-', e.g. secrets or widgets.example.com",
                echo::quoted(&r.resource)
            );
            return Some((at(PolicyPart::Resource), msg));
        }
        // kubectl's `resource.version.group` (`deployments.v1.apps`) or `secrets.v1` would
        // read as a group named after a version, which no API serves: the rule would never
        // apply, and a field policy that never applies fails open.
        // (`widgets.v1.example.com` may be a CRD's group, `v1.example.com`: not refused.)
        if let Some((plural, group)) = r.resource.split_once('.')
            && let Some(version) = group.split('.').next().filter(|v| is_api_version(v))
            && let rest = group.split_once('.').map(|(_, g)| g)
            && rest.is_none_or(crate::policy::builtin_group)
        {
            let msg = format!(
                "policies[{i}].resource {} names API version {version}, and a rule names a type without its version: write {}",
                echo::quoted(&r.resource),
                match rest {
                    Some(g) => format!("{plural}.{g}"),
                    None => format!("{plural} (core and well-known groups) or {plural}.GROUP"),
                }
            );
            return Some((at(PolicyPart::Resource), msg));
        }
        if let Some(j) = r.namespaces.iter().position(|g| {
            g.is_empty() || g.len() > MAX_NAME_CHARS || !g.chars().all(|ch| label(ch) || ch == '*')
        }) {
            let msg = format!(
                "policies[{i}].namespaces: {} is not a namespace glob: use lowercase letters, digits, '-' and * (any run of characters), e.g. team-*",
                echo::quoted(&r.namespaces[j])
            );
            return Some((at(PolicyPart::Namespace(j)), msg));
        }
        if r.deny.is_empty() {
            let msg = format!(
                "policies[{i}].deny is empty: list the JSON Pointer paths that may not change, e.g. [\"/data/*\"]"
            );
            return Some((at(PolicyPart::Deny(None)), msg));
        }
        for (list, name, part) in [
            (
                &r.deny,
                "deny",
                PolicyPart::Deny as fn(Option<usize>) -> PolicyPart,
            ),
            (&r.allow, "allow", PolicyPart::Allow),
        ] {
            for (j, p) in list.iter().enumerate() {
                if let Err(e) = crate::policy::parse_pattern(p) {
                    return Some((at(part(Some(j))), format!("policies[{i}].{name}[{j}]: {e}")));
                }
            }
        }
        if r.message.trim().is_empty() {
            let msg = format!(
                "policies[{i}].message is empty: say why the fields may not change and where to change them instead"
            );
            return Some((at(PolicyPart::Message), msg));
        }
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
            ConfigError::Read { .. } | ConfigError::Writable { .. } => {
                unreachable!("parse never reads")
            }
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

    #[cfg(unix)]
    #[test]
    fn group_or_world_writable_plugin_yaml_is_refused_naming_mode_and_chmod() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("plugin.yaml");
        std::fs::write(&p, BASE).unwrap();
        let link = dir.path().join("link.yaml");
        std::os::unix::fs::symlink(&p, &link).unwrap();
        for mode in [0o600, 0o644, 0o400] {
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode)).unwrap();
            assert_eq!(load(&p).unwrap().name, "myops");
        }
        for mode in [0o664, 0o646, 0o666, 0o620] {
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode)).unwrap();
            for file in [&p, &link] {
                let e = load(file).unwrap_err();
                assert!(matches!(e, ConfigError::Writable { .. }));
                assert_eq!(e.exit_status(), ExitStatus::Usage);
                assert_eq!(
                    e.to_string(),
                    format!(
                        "{}: refusing plugin.yaml: it is group- or world-writable (mode {mode:o}), so others could change what this plugin may do as you; run `chmod go-w {}`",
                        file.display(),
                        file.display()
                    )
                );
            }
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_or_oversize_plugin_yaml_is_a_read_error_not_a_hang() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo.yaml");
        assert!(
            std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success()
        );
        assert_eq!(
            load(&fifo).unwrap_err().to_string(),
            format!(
                "{}: cannot read plugin.yaml: it is a FIFO (named pipe), not a regular file; replace it with a regular file",
                fifo.display()
            )
        );
        let big = dir.path().join("big.yaml");
        std::fs::write(&big, format!("name: {}\n", "n".repeat(5 * 1024 * 1024))).unwrap();
        let shown = load(&big).unwrap_err().to_string();
        assert!(
            shown.contains("it is too large: 5242887 bytes, over the 1048576-byte limit"),
            "{shown}"
        );
        assert!(shown.len() < 400, "{shown}");
    }

    #[test]
    fn a_huge_name_is_echoed_capped_and_escaped() {
        let long = format!("N{}", "n".repeat(900_000));
        let (_, line, column, m) = fail(&BASE.replace("myops", &long));
        assert_eq!((line, column), (1, 7));
        assert_eq!(
            m,
            format!(
                "`name` \"N{}…\" (900001 characters) is not a valid label value: use only a-z, 0-9 and '-'",
                "n".repeat(63)
            )
        );
        let (_, _, _, m) = fail(&BASE.replace("myops", &"n".repeat(64)));
        assert_eq!(
            m,
            "`name` is 64 characters long: use at most 63 (an RFC 1123 label, like a Kubernetes label value)"
        );
        let (_, _, _, m) = fail(&BASE.replace("myops", "\"my\\e[2Jops\""));
        assert_eq!(
            m,
            "`name` \"my\\u{1b}[2Jops\" is not a valid label value: use only a-z, 0-9 and '-'"
        );
    }

    #[test]
    fn a_password_in_the_pushgateway_url_is_refused_and_never_echoed() {
        for url in [
            "http://bot:s3cretPW@pg:9091",
            "https://s3cretPW@pg",
            "http://bot:s3cretPW@pg/x?y@z",
        ] {
            let (kind, line, column, m) = fail(&PG.replace("http://x", url));
            assert_eq!((kind, line, column), ("invalid", 6, 8));
            assert!(m.starts_with("pushgateway.url must not hold a user name or password"));
            assert!(!m.contains("s3cretPW"), "{m}");
        }
        let (_, _, _, m) = fail(&PG.replace("http://x", "ftp://bot:s3cretPW@pg"));
        assert!(
            m.starts_with("pushgateway.url \"ftp://pg\" must start with http://"),
            "{m}"
        );
        assert_eq!(
            crate::redact::url_without_userinfo("http://a:b@h:1/p@q"),
            "http://h:1/p@q"
        );
        assert_eq!(
            crate::redact::url_without_userinfo("no scheme@x"),
            "no scheme@x"
        );
        assert!(parse(&PG.replace("http://x", "http://pg/path@v1"), Path::new("p")).is_ok());
    }

    #[test]
    fn yaml_bombs_and_deep_nesting_stop_at_the_first_value_of_the_wrong_type() {
        // The strict model stops reading at the first alias into a list that should be text:
        // an exponential expansion is never built.
        let levels: String = (b'b'..=b'i')
            .map(|c| {
                let prev = (c - 1) as char;
                let c = c as char;
                format!("{c}: &{c} [{}]\n", vec![format!("*{prev}"); 9].join(","))
            })
            .collect();
        let laughs = format!("name: x\nverbs: [get]\nresources: &a [lol,lol,lol]\n{levels}");
        let start = std::time::Instant::now();
        let (_, line, _, m) = fail(&laughs);
        assert_eq!(
            (line, m.as_str()),
            (
                4,
                "unknown key `b`: remove it or fix its spelling (allowed here: name, verbs, resources, scopes, metrics, crdDir, pushgateway, changelog, policies)"
            )
        );
        let bomb = format!("{levels}name: *i\n").replace("*a", "[lol]");
        let (_, _, _, m) = fail(&bomb);
        assert!(m.starts_with("unknown key `b`"), "{m}");
        let deep = format!(
            "name: x\nverbs: {}{}\n",
            "[".repeat(10_000),
            "]".repeat(10_000)
        );
        let (_, _, _, m) = fail(&deep);
        assert!(
            m.starts_with("unknown verb")
                || m.contains("wrong type")
                || m.starts_with("invalid YAML"),
            "{m}"
        );
        assert!(start.elapsed() < std::time::Duration::from_secs(5));
        let (_, _, _, m) = fail(&PG.replace("http://x", "\"http://x\\e[2J y\""));
        assert_eq!(
            m,
            "pushgateway.url \"http://x\\u{1b}[2J y\" must not contain spaces or control characters"
        );
    }

    #[test]
    fn schema_names_the_keys_and_denies_unknown_ones() {
        let s = schema_json();
        for key in [
            "\"crdDir\"",
            "\"pushgateway\"",
            "\"basicAuth\"",
            "\"passwordFile\"",
            "\"policies\"",
            "\"deny\"",
            "\"namespaces\"",
        ] {
            assert!(s.contains(key), "{key} missing from {s}");
        }
        let v: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert_eq!(v["additionalProperties"], serde_json::Value::Bool(false));
        assert!(s.lines().count() > 10, "pretty-printed");
    }
}
