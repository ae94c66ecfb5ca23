//! kubectl's kuberc credential plugin policy (kubectl 1.35+): which exec credential plugins
//! the user allows to run.
//!
//! Sources, kubectl v0.36.3 / client-go v0.36.3:
//! - where the file is: `pkg/kuberc/kuberc.go` `LoadKuberc` — `--kuberc PATH`, else
//!   `$KUBERC`, else `~/.kube/kuberc`; `KUBERC=off` disables it (and is an error together
//!   with `--kuberc`); a missing default file is silently no file, a missing explicit one an
//!   error;
//! - what is read: `pkg/kuberc/marshal.go` `decodePreference` — the first YAML document of
//!   kind `Preference` in group `kubectl.config.k8s.io`; `pkg/config/v1beta1/types.go`
//!   `credentialPluginPolicy` (`AllowAll` default, `DenyAll`, `Allowlist`) and
//!   `credentialPluginAllowlist` (entries `{command: …}`, or the deprecated `{name: …}`;
//!   both with different values is an error, `conversion.go`);
//! - validation and matching: `client-go/plugin/pkg/client/auth/exec/exec.go`
//!   `ValidatePluginPolicy`, `updateCommandAndCheckAllowlistLocked`, `checkAllowlistLocked`.
//!
//! Everything else in the file (`aliases`, `defaults`) is ignored without error: this tool
//! has no aliases. Intended differences, on the safe side: a kuberc that exists but cannot
//! be read or parsed is an error (kubectl warns and runs every plugin), and a
//! `v1alpha1` document naming a credential policy is an error (kubectl's lenient decoding
//! drops the field, so the policy silently does nothing).

use std::path::{Path, PathBuf};

use serde_json::Value;

/// The largest kuberc read (bytes): a preferences file is a few KiB.
pub const MAX_KUBERC_BYTES: u64 = 1024 * 1024;

/// The group of kuberc's `Preference` kind.
const GROUP: &str = "kubectl.config.k8s.io";

/// Which kuberc to read, as kubectl's `LoadKuberc` chooses it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum KubercSource {
    /// No kuberc: `KUBERC=off`, or no home directory to find the default in.
    #[default]
    Off,
    /// `~/.kube/kuberc`: a missing file is no file.
    Default(PathBuf),
    /// `--kuberc PATH` or `$KUBERC`: the file must exist.
    Explicit(PathBuf),
}

/// kubectl's credential plugin policy (`credentialPluginPolicy`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum PluginPolicy {
    /// Every plugin may run (the default, and an empty value).
    #[default]
    AllowAll,
    /// No plugin may run.
    DenyAll,
    /// Only plugins matching an entry (a command name looked up in `PATH`, or a path).
    Allowlist(Vec<String>),
    /// The default kuberc exists but gave no preferences (unreadable, not YAML, no
    /// `Preference`), or a `Preference` spells a policy field in another case: the command
    /// goes on as in kubectl, but no credential plugin runs — a policy that could not be read
    /// is never taken for `AllowAll`. Holds why (one clause).
    Unknown(String),
}

/// The policy in effect and the file it came from (`None`: no kuberc, [`PluginPolicy::AllowAll`]).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Policy {
    /// The rule.
    pub policy: PluginPolicy,
    /// The kuberc file it was read from.
    pub file: Option<PathBuf>,
    /// `warning: kuberc: no preferences loaded from …` when the default kuberc exists but
    /// gives no preferences ([`load`]); the caller prints it and goes on.
    pub warning: Option<String>,
}

/// Why the kuberc cannot be used, or why it refuses a credential plugin.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KubercError {
    /// `KUBERC=off` together with `--kuberc` (kubectl refuses this too).
    #[error(
        "disabling kuberc via KUBERC=off and passing the --kuberc flag are mutually exclusive; unset KUBERC or drop --kuberc"
    )]
    OffAndFlag,
    /// The file cannot be read.
    #[error(
        "kuberc {path}: {problem}; fix the file, point --kuberc/KUBERC elsewhere, or set KUBERC=off"
    )]
    Read {
        /// The file.
        path: String,
        /// Why.
        problem: String,
    },
    /// The file is not YAML, has no usable `Preference`, or its policy is invalid.
    #[error("kuberc {path}: {problem}")]
    Invalid {
        /// The file.
        path: String,
        /// What is wrong, and what to do.
        problem: String,
    },
    /// The policy does not let the kubeconfig user's credential plugin run; it was not run.
    #[error(
        "the credential plugin {program} of the kubeconfig user was not run: {reason} in {file}; allow it there (credentialPluginAllowlist) or use another user"
    )]
    Denied {
        /// The plugin's command as the kubeconfig names it (escaped).
        program: String,
        /// Why, e.g. `credentialPluginPolicy is DenyAll`.
        reason: String,
        /// The kuberc file.
        file: String,
    },
    /// The default kuberc gave no policy (see the warning before) and the kubeconfig user runs a
    /// credential plugin: it was not run.
    #[error(
        "the credential plugin {program} of the kubeconfig user was not run: the credential plugin policy of the kuberc {file} could not be read ({problem}), so which plugins it allows is unknown; fix the file, or set KUBERC=off to run credential plugins without a policy"
    )]
    PolicyUnknown {
        /// The plugin's command as the kubeconfig names it (escaped).
        program: String,
        /// Why no preferences were loaded.
        problem: String,
        /// The kuberc file.
        file: String,
    },
}

/// Chooses the kuberc as kubectl's `LoadKuberc` does (pure): `flag` (`--kuberc`), else
/// `$KUBERC` (`env`), else `~/.kube/kuberc` under `home`; `KUBERC=off` disables it.
///
/// # Errors
/// [`KubercError::OffAndFlag`] for `KUBERC=off` with `--kuberc`.
pub fn locate(
    flag: Option<&Path>,
    env: Option<&str>,
    home: Option<&Path>,
) -> Result<KubercSource, KubercError> {
    let flag = flag.filter(|p| !p.as_os_str().is_empty());
    let env = env.filter(|e| !e.is_empty());
    if env == Some("off") {
        return match flag {
            Some(_) => Err(KubercError::OffAndFlag),
            None => Ok(KubercSource::Off),
        };
    }
    if let Some(f) = flag {
        return Ok(KubercSource::Explicit(f.to_path_buf()));
    }
    if let Some(e) = env {
        return Ok(KubercSource::Explicit(PathBuf::from(e)));
    }
    Ok(home.map_or(KubercSource::Off, |h| {
        KubercSource::Default(h.join(".kube").join("kuberc"))
    }))
}

/// The policy of `source`, read once per process ([`read_policy`]) and handed to every later
/// caller: the contexts of a fan-out each connect, and an explicit kuberc may be a FIFO
/// (`--kuberc <(…)`) that gives its text only once — read again, it would be empty, and an
/// empty kuberc allows every plugin. The file does not change meaning within one command,
/// as in kubectl, which reads it once at start.
///
/// # Errors
/// As [`read_policy`] (the same error to every caller).
pub fn load(source: &KubercSource, deadline: std::time::Duration) -> Result<Policy, KubercError> {
    type Loaded = Vec<(KubercSource, Result<Policy, KubercError>)>;
    static LOADED: std::sync::Mutex<Loaded> = std::sync::Mutex::new(Vec::new());
    // Held while the first caller reads, so concurrent contexts wait for that one read.
    let mut loaded = LOADED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, read)) = loaded.iter().find(|(s, _)| s == source) {
        return read.clone();
    }
    let read = read_policy(source, deadline);
    loaded.push((source.clone(), read.clone()));
    read
}

/// Reads the policy from `source`. An explicit file (`--kuberc`, `$KUBERC`) is a file the
/// user named: read with [`crate::base::fsutil::read_named`], so `--kuberc <(…)` works (its
/// writer done within `deadline`); the
/// default `~/.kube/kuberc` through [`crate::base::fsutil::read_regular`] (a FIFO or a huge file
/// there is refused, not read).
///
/// As kubectl 1.36 (`kubectl/pkg/kuberc`, `LoadKuberc`'s callers): a default file that is
/// missing is no kuberc; one that cannot be read, is not YAML or has no `Preference` document
/// loads no preferences and the command goes on, with [`Policy::warning`] saying so (`sudo -u`
/// keeps a HOME that is not the user's own) — but with [`PluginPolicy::Unknown`], so a credential
/// plugin does not run (kubectl would run it: a policy that cannot be read is not `AllowAll`
/// here); an explicit file with any of these is an error. An
/// invalid credential plugin policy in a `Preference` is an error from either file.
///
/// # Errors
/// [`KubercError::Read`] for an explicit file that cannot be read; [`KubercError::Invalid`]
/// for an explicit file that gives no preferences, or an invalid policy in any file.
fn read_policy(
    source: &KubercSource,
    deadline: std::time::Duration,
) -> Result<Policy, KubercError> {
    let (path, explicit) = match source {
        KubercSource::Off => return Ok(Policy::default()),
        KubercSource::Default(p) => (p, false),
        KubercSource::Explicit(p) => (p, true),
    };
    let shown = path.display().to_string();
    let none_loaded = |problem: &str| Policy {
        policy: PluginPolicy::Unknown(problem.to_string()),
        file: Some(path.clone()),
        warning: Some(format!(
            "warning: kuberc: no preferences loaded from {shown}: {problem}"
        )),
    };
    let read = if explicit {
        crate::base::fsutil::read_named(path, MAX_KUBERC_BYTES, deadline).map(|(bytes, _)| bytes)
    } else {
        crate::base::fsutil::read_regular(path, MAX_KUBERC_BYTES)
    };
    let bytes = match read {
        Ok(b) => b,
        Err(e) => {
            let io: std::io::Error = e.into();
            return match (explicit, io.kind()) {
                (false, std::io::ErrorKind::NotFound) => Ok(Policy::default()),
                (false, _) => Ok(none_loaded(&io.to_string())),
                (true, _) => Err(KubercError::Read {
                    path: shown,
                    problem: io.to_string(),
                }),
            };
        }
    };
    let parsed = String::from_utf8(bytes)
        .map_err(|_| ParseError::NoPreferences("not UTF-8 text; save it as UTF-8 YAML".into()))
        .and_then(|text| parse(&text));
    match parsed {
        Ok(policy) => Ok(Policy {
            warning: match &policy {
                PluginPolicy::Unknown(why) => Some(format!("warning: kuberc {shown}: {why}")),
                _ => None,
            },
            policy,
            file: Some(path.clone()),
        }),
        Err(ParseError::NoPreferences(problem)) if !explicit => Ok(none_loaded(&problem)),
        Err(e) => Err(KubercError::Invalid {
            path: shown,
            problem: e.to_string(),
        }),
    }
}

/// Why kuberc text gives no credential plugin policy; displays as one sentence (without the
/// file name) saying what is wrong and what to do.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// Not UTF-8, not YAML, or no `Preference` document: no preferences are loaded (kubectl
    /// only warns about this in the default file).
    #[error("{0}")]
    NoPreferences(String),
    /// A `Preference` whose credential plugin policy is invalid: an error in any file.
    #[error("{0}")]
    Policy(String),
}

/// Parses kuberc text (pure): the first document of kind `Preference` in group
/// `kubectl.config.k8s.io`, its credential plugin policy validated as client-go's
/// `ValidatePluginPolicy`; other documents and other keys are ignored. An empty file is
/// [`PluginPolicy::AllowAll`].
///
/// # Errors
/// [`ParseError`]: no preferences in the text, or an invalid policy.
pub fn parse(text: &str) -> Result<PluginPolicy, ParseError> {
    let docs: Vec<Value> = serde_saphyr::from_multiple(text).map_err(|e| {
        ParseError::NoPreferences(format!(
            "not valid YAML ({}); fix the file or set KUBERC=off",
            e.to_string().lines().next().unwrap_or("").trim()
        ))
    })?;
    let mut attempted = 0;
    for doc in docs.iter().filter(|d| !d.is_null()) {
        attempted += 1;
        let api_version = doc.get("apiVersion").and_then(Value::as_str).unwrap_or("");
        let kind = doc.get("kind").and_then(Value::as_str).unwrap_or("");
        let (group, version) = api_version.split_once('/').unwrap_or(("", api_version));
        if group != GROUP || kind != "Preference" {
            continue;
        }
        return policy_of(doc, version).map_err(ParseError::Policy);
    }
    if attempted > 0 {
        return Err(ParseError::NoPreferences(format!(
            "no valid preferences found: no document has apiVersion {GROUP}/v1beta1 and kind Preference; fix the file or set KUBERC=off"
        )));
    }
    Ok(PluginPolicy::AllowAll)
}

/// The credential plugin policy of one `Preference` document of `version`.
fn policy_of(doc: &Value, version: &str) -> Result<PluginPolicy, String> {
    // A policy field spelled in another case is no field to kubectl, which warns and lets every
    // plugin run; here the policy the user meant is unknown, so no plugin runs (and a warning
    // says why on every command).
    let misspelled = doc.as_object().and_then(|o| {
        o.keys().find(|k| {
            ["credentialPluginPolicy", "credentialPluginAllowlist"]
                .iter()
                .any(|f| k.eq_ignore_ascii_case(f) && k.as_str() != *f)
        })
    });
    if let Some(key) = misspelled {
        return Ok(PluginPolicy::Unknown(format!(
            "{} is not a kuberc field (field names are case-sensitive: credentialPluginPolicy, credentialPluginAllowlist), so the credential plugin policy it means is not read",
            crate::base::echo::quoted(key)
        )));
    }
    let policy = doc.get("credentialPluginPolicy");
    let list = doc.get("credentialPluginAllowlist");
    if version != "v1beta1" && (policy.is_some() || list.is_some()) {
        return Err(format!(
            "credentialPluginPolicy and credentialPluginAllowlist exist only in apiVersion {GROUP}/v1beta1 (this document is {version}, where kubectl ignores them); change the apiVersion"
        ));
    }
    let policy = match policy {
        None | Some(Value::Null) => "",
        Some(Value::String(s)) => s.as_str(),
        Some(_) => {
            return Err(
                "credentialPluginPolicy must be one of AllowAll, DenyAll or Allowlist".into(),
            );
        }
    };
    let entries = match list {
        None | Some(Value::Null) => None,
        Some(Value::Array(items)) => Some(
            items
                .iter()
                .enumerate()
                .map(|(i, item)| allowlist_entry(i + 1, item))
                .collect::<Result<Vec<String>, String>>()?,
        ),
        Some(_) => {
            return Err(
                "credentialPluginAllowlist must be a list of entries such as `- command: my-plugin`"
                    .into(),
            );
        }
    };
    match (policy, entries) {
        ("" | "AllowAll", None) => Ok(PluginPolicy::AllowAll),
        ("DenyAll", None) => Ok(PluginPolicy::DenyAll),
        ("" | "AllowAll" | "DenyAll", Some(_)) => Err(format!(
            "misconfigured credential plugin allowlist: plugin policy is {policy:?} but credentialPluginAllowlist is set; set credentialPluginPolicy: Allowlist or remove the list"
        )),
        ("Allowlist", None) => Err(
            "credential plugin policy set to \"Allowlist\", but credentialPluginAllowlist is unspecified; add the allowed plugins (check the field's spelling)".into(),
        ),
        ("Allowlist", Some(e)) if e.is_empty() => Err(
            "credential plugin policy set to \"Allowlist\", but the allowlist is empty; use the \"DenyAll\" policy instead".into(),
        ),
        ("Allowlist", Some(e)) => Ok(PluginPolicy::Allowlist(e)),
        (other, _) => Err(format!(
            "unknown credential plugin policy {}; use AllowAll, DenyAll or Allowlist",
            crate::base::echo::quoted(other)
        )),
    }
}

/// One allowlist entry (`command`, or the deprecated `name`), validated as client-go does:
/// non-empty and already in `filepath.Clean` form.
fn allowlist_entry(n: usize, item: &Value) -> Result<String, String> {
    let field = |k: &str| match item.get(k) {
        None | Some(Value::Null) => Ok(String::new()),
        Some(Value::String(s)) => Ok(s.clone()),
        Some(_) => Err(format!(
            "credentialPluginAllowlist entry #{n}: {k} must be a string"
        )),
    };
    if !item.is_object() {
        return Err(format!(
            "credentialPluginAllowlist entry #{n} must be a map such as `command: my-plugin`"
        ));
    }
    let (command, name) = (field("command")?, field("name")?);
    let entry = match (command.is_empty(), name.is_empty()) {
        (false, false) if command != name => {
            return Err(format!(
                "credentialPluginAllowlist entry #{n}: both name and command were supplied with different values; name is deprecated, use command"
            ));
        }
        (false, _) => command,
        (true, false) => name,
        (true, true) => {
            return Err(format!(
                "misconfigured credential plugin allowlist: empty allowlist entry #{n}; give `command: NAME-OR-PATH`"
            ));
        }
    };
    let cleaned = clean(&entry);
    if cleaned != entry {
        return Err(format!(
            "credentialPluginAllowlist entry #{n}: non-normalized file path {} (write {})",
            crate::base::echo::quoted(&entry),
            crate::base::echo::quoted(&cleaned)
        ));
    }
    Ok(entry)
}

/// Go's `filepath.Clean` on Unix (pure, lexical): collapses `//`, removes `.` elements and
/// `dir/..` pairs, drops a trailing `/`; empty is `.`.
pub fn clean(path: &str) -> String {
    let rooted = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => match parts.last() {
                Some(&p) if p != ".." => {
                    parts.pop();
                }
                _ if rooted => {}
                _ => parts.push(".."),
            },
            p => parts.push(p),
        }
    }
    let body = parts.join("/");
    match (rooted, body.is_empty()) {
        (true, _) => format!("/{body}"),
        (false, true) => ".".into(),
        (false, false) => body,
    }
}

/// Go's `exec.LookPath` on Unix: a name with a `/` is itself if it is an executable file;
/// otherwise the first `DIR/name` over `path_env` that is one. A relative result (an empty
/// or relative `PATH` entry) is refused, as Go ≥ 1.19 does (`exec.ErrDot`).
fn look_path(name: &str, path_env: &str) -> Option<String> {
    use std::os::unix::fs::PermissionsExt;
    let executable = |p: &Path| {
        std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if name.contains('/') {
        return executable(Path::new(name)).then(|| name.to_string());
    }
    path_env
        .split(':')
        .filter(|d| d.starts_with('/'))
        .map(|d| format!("{d}/{name}"))
        .find(|c| executable(Path::new(c)))
}

/// Checks that `command` (the kubeconfig user's `exec.command`) may run under `policy`, as
/// client-go's `updateCommandAndCheckAllowlistLocked`: `DenyAll` refuses every plugin;
/// `Allowlist` accepts the command when an entry equals it verbatim (after
/// `filepath.Clean`), or equals the path `PATH` resolves it to, or resolves (through
/// `PATH`, when the entry has no `/`) to that same path. `path_env` is `$PATH`.
///
/// # Errors
/// [`KubercError::Denied`] naming the plugin, the reason and the kuberc file.
pub fn check_plugin(policy: &Policy, command: &str, path_env: &str) -> Result<(), KubercError> {
    let deny = |reason: String| KubercError::Denied {
        program: crate::base::echo::quoted(command),
        reason,
        file: policy
            .file
            .as_ref()
            .map_or_else(|| "the kuberc".into(), |f| f.display().to_string()),
    };
    let list = match &policy.policy {
        PluginPolicy::AllowAll => return Ok(()),
        PluginPolicy::DenyAll => return Err(deny("credentialPluginPolicy is DenyAll".into())),
        PluginPolicy::Unknown(problem) => {
            return Err(KubercError::PolicyUnknown {
                program: crate::base::echo::quoted(command),
                problem: problem.clone(),
                file: policy
                    .file
                    .as_ref()
                    .map_or_else(|| "the kuberc".into(), |f| f.display().to_string()),
            });
        }
        PluginPolicy::Allowlist(list) => list,
    };
    let cmd = clean(command);
    if list.contains(&cmd) {
        return Ok(());
    }
    // exec.Command resolves a bare name through PATH; LookPath is then applied to the result.
    let cmd_path = if cmd.contains('/') {
        cmd.clone()
    } else {
        look_path(&cmd, path_env).unwrap_or_else(|| cmd.clone())
    };
    if list.contains(&cmd_path) {
        return Ok(());
    }
    let Some(resolved) = look_path(&cmd_path, path_env) else {
        return Err(deny(
            "it is not an executable in PATH or at that path, so the credentialPluginAllowlist cannot match it".into(),
        ));
    };
    if list.contains(&resolved) {
        return Ok(());
    }
    let base = |p: &str| p.rsplit('/').next().unwrap_or(p).to_string();
    let hint = base(&cmd_path);
    let matched = list
        .iter()
        .filter(|e| base(e) == hint)
        .any(|e| look_path(e, path_env).as_deref() == Some(resolved.as_str()));
    if matched {
        Ok(())
    } else {
        Err(deny(format!(
            "{} is not in the credentialPluginAllowlist",
            crate::base::echo::quoted(&resolved)
        )))
    }
}

#[cfg(test)]
mod tests;
