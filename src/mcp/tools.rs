//! The tools' inputs, their JSON Schemas (schemars, from these types) and the command line
//! each one runs (pure).
//!
//! A tool is the guarded command a person runs, named by its arguments: [`Tool::command`]
//! turns an input into that command's argv, every flag as `--flag=value` and every
//! positional after `--`, so a value can never be read as a flag (`name: "--all"`). Bodies
//! (a patch, a manifest) go on the child's stdin, never on argv: argv is visible in `ps` and
//! one argument is capped at 128 KiB by Linux (`MAX_ARG_STRLEN`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

mod mutating;

pub use mutating::{
    ApplyInput, Change, DeleteInput, MetaInput, PatchInput, PatchKind, RollbackInput, ScaleInput,
    UndeleteInput,
};

/// The largest body (a patch or a manifest) a tool takes, in bytes: kube-apiserver's default
/// `--max-request-body-bytes` (3 MiB, k8s.io/apiserver `MaxRequestBodyBytes`).
pub const MAX_BODY_BYTES: usize = 3 * 1024 * 1024;

/// The longest single string argument other than a body, in characters: longer than any
/// Kubernetes name (253), selector or reason a person types.
pub const MAX_TEXT_CHARS: usize = 4096;

/// The command a tool call runs: its argv (after the global flags) and what goes on stdin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Command {
    /// The arguments after the binary and the global flags, e.g. `["get", "--output=json",
    /// "--", "configmaps", "c1"]`.
    pub args: Vec<String>,
    /// The body on stdin (`--patch-file=/dev/stdin`, `apply -f -`), if any.
    pub stdin: Option<String>,
}

/// The object a mutating tool changes, read before its preview and again before it is
/// confirmed (a changed `resourceVersion` in between is a conflict).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Target {
    /// TYPE as `get` takes it (kind, plural or short name).
    #[serde(rename = "type")]
    pub type_name: String,
    /// The object's name.
    pub name: String,
    /// Its namespace, when the call named one.
    pub namespace: Option<String>,
}

impl Target {
    /// The object `type_name`/`name` in the scope's namespace.
    pub fn of(type_name: &str, name: &str, scope: &Scope) -> Target {
        Target {
            type_name: type_name.to_string(),
            name: name.to_string(),
            namespace: scope.namespace.clone(),
        }
    }
}

/// Why a tool's arguments are refused before anything runs (exit 2, kind `invalid`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BadArguments(pub String);

/// Where a call runs: the namespace (default: the server's `--namespace`, else the
/// context's) and the context, one of those the server was started with.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scope {
    /// Namespace; default: the server's --namespace, else the context's namespace.
    #[serde(default)]
    pub namespace: Option<String>,
    /// The kubeconfig context, one of those the server was started with (--context or
    /// --contexts); default: the first of them. Another context is refused.
    #[serde(default)]
    pub context: Option<String>,
}

/// `get`: read objects as JSON.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetInput {
    /// Resource type: kind, plural or short name, optionally with its group
    /// (`pods`, `deployments.apps`, `cm`, `widgets.example.com`).
    #[serde(rename = "type")]
    pub type_name: String,
    /// One object's name; omit to list.
    #[serde(default)]
    pub name: Option<String>,
    /// List in every namespace (ignored with a name).
    #[serde(default)]
    pub all_namespaces: bool,
    /// Label selector, e.g. `app=web,tier!=db`.
    #[serde(default)]
    pub selector: Option<String>,
    /// Where.
    #[serde(flatten)]
    pub scope: Scope,
}

/// `can_i`: whether RBAC lets the server's user do a verb (a SelfSubjectAccessReview).
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CanIInput {
    /// The verb: get, list, watch, create, update, patch, delete, deletecollection, or any.
    pub verb: String,
    /// Resource type (`pods`, `deployments.apps`) or TYPE/NAME.
    pub resource: String,
    /// One object's name.
    #[serde(default)]
    pub name: Option<String>,
    /// A subresource (`status`, `scale`, `log`).
    #[serde(default)]
    pub subresource: Option<String>,
    /// Where.
    #[serde(flatten)]
    pub scope: Scope,
}

/// `changelog_list`: the change log's entries on this workstation, newest last.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChangelogListInput {
    /// Only entries newer than this: a duration (`1h`, `30m`) or an RFC 3339 time.
    #[serde(default)]
    pub since: Option<String>,
    /// Only entries for this object: NAME, TYPE/NAME or NAMESPACE/NAME.
    #[serde(default)]
    pub object: Option<String>,
    /// Only the entries of one invocation (a tool call's `session`).
    #[serde(default)]
    pub session: Option<String>,
    /// Only entries of this operation (patch, delete, apply, scale, label, annotate, rollback, undelete, …).
    #[serde(default)]
    pub operation: Option<String>,
    /// Only entries made through this client: `mcp` for every agent, or `mcp:NAME/VERSION`.
    #[serde(default)]
    pub actor: Option<String>,
}

/// `changelog_show`: one change-log entry, whole.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChangelogShowInput {
    /// The entry id (from changelog_list or a mutating tool's result).
    pub id: String,
}

/// `drift`: objects changed since the change log last changed them.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DriftInput {
    /// Only objects of this type.
    #[serde(default, rename = "type")]
    pub type_name: Option<String>,
    /// Only these objects of the type.
    #[serde(default)]
    pub names: Vec<String>,
    /// Objects in every namespace.
    #[serde(default)]
    pub all_namespaces: bool,
    /// Where.
    #[serde(flatten)]
    pub scope: Scope,
}

/// Checks one text argument (pure): at most [`MAX_TEXT_CHARS`] characters, no NUL (argv
/// cannot carry it).
///
/// # Errors
/// [`BadArguments`] naming the argument.
pub fn text<'a>(what: &str, value: &'a str) -> Result<&'a str, BadArguments> {
    if value.chars().count() > MAX_TEXT_CHARS {
        return Err(BadArguments(format!(
            "`{what}` is longer than {MAX_TEXT_CHARS} characters; no Kubernetes name, selector or reason is that long"
        )));
    }
    if value.contains('\0') {
        return Err(BadArguments(format!(
            "`{what}` holds a NUL character, which no Kubernetes name or flag value holds"
        )));
    }
    Ok(value)
}

/// `--flag=value` for a checked `value` (pure).
fn flag(name: &str, what: &str, value: &str) -> Result<String, BadArguments> {
    Ok(format!("--{name}={}", text(what, value)?))
}

/// Pushes `--namespace=NS` when the scope names one.
fn scoped(args: &mut Vec<String>, scope: &Scope) -> Result<(), BadArguments> {
    if let Some(ns) = &scope.namespace {
        args.push(flag("namespace", "namespace", ns)?);
    }
    Ok(())
}

/// Pushes `--reason=TEXT` when the change gives one.
fn reasoned(args: &mut Vec<String>, change: &Change) -> Result<(), BadArguments> {
    if let Some(r) = &change.reason {
        args.push(flag("reason", "reason", r)?);
    }
    Ok(())
}

/// Ends `args` with `--` and the checked positionals.
fn positionals(
    mut args: Vec<String>,
    values: &[(&str, &str)],
) -> Result<Vec<String>, BadArguments> {
    args.push("--".into());
    for (what, v) in values {
        args.push(text(what, v)?.to_string());
    }
    Ok(args)
}

/// Checks a body's size (pure): at most [`MAX_BODY_BYTES`].
fn sized(what: &str, text: &str) -> Result<(), BadArguments> {
    if text.len() > MAX_BODY_BYTES {
        return Err(BadArguments(format!(
            "`{what}` is {} bytes, more than the API server accepts in one request ({MAX_BODY_BYTES} bytes)",
            text.len()
        )));
    }
    Ok(())
}

/// A body for stdin (pure): at most [`MAX_BODY_BYTES`].
fn body(what: &str, text: String) -> Result<String, BadArguments> {
    sized(what, &text)?;
    Ok(text)
}

impl GetInput {
    /// `get … --output=json`.
    pub fn command(&self) -> Result<Command, BadArguments> {
        let mut args = vec!["get".to_string(), "--output=json".into()];
        scoped(&mut args, &self.scope)?;
        if self.all_namespaces && self.name.is_none() {
            args.push("--all-namespaces".into());
        }
        if let Some(l) = &self.selector {
            args.push(flag("selector", "selector", l)?);
        }
        let mut pos = vec![("type", self.type_name.as_str())];
        if let Some(n) = &self.name {
            pos.push(("name", n));
        }
        Ok(Command {
            args: positionals(args, &pos)?,
            stdin: None,
        })
    }
}

impl CanIInput {
    /// `auth can-i VERB RESOURCE [NAME]`.
    pub fn command(&self) -> Result<Command, BadArguments> {
        let mut args = vec!["auth".to_string(), "can-i".into()];
        scoped(&mut args, &self.scope)?;
        if let Some(s) = &self.subresource {
            args.push(flag("subresource", "subresource", s)?);
        }
        let mut pos = vec![("verb", self.verb.as_str()), ("resource", &self.resource)];
        if let Some(n) = &self.name {
            pos.push(("name", n));
        }
        Ok(Command {
            args: positionals(args, &pos)?,
            stdin: None,
        })
    }
}

impl ChangelogListInput {
    /// `changelog list --output=json …`.
    pub fn command(&self) -> Result<Command, BadArguments> {
        let mut args = vec![
            "changelog".to_string(),
            "list".into(),
            "--output=json".into(),
        ];
        for (name, v) in [
            ("since", &self.since),
            ("object", &self.object),
            ("session", &self.session),
            ("operation", &self.operation),
            ("actor", &self.actor),
        ] {
            if let Some(v) = v {
                args.push(flag(name, name, v)?);
            }
        }
        Ok(Command { args, stdin: None })
    }
}

impl ChangelogShowInput {
    /// `changelog show ID`.
    pub fn command(&self) -> Result<Command, BadArguments> {
        let args = vec!["changelog".to_string(), "show".into()];
        Ok(Command {
            args: positionals(args, &[("id", &self.id)])?,
            stdin: None,
        })
    }
}

impl DriftInput {
    /// `drift --output=json [TYPE [NAME…]]`.
    pub fn command(&self) -> Result<Command, BadArguments> {
        let mut args = vec!["drift".to_string(), "--output=json".into()];
        scoped(&mut args, &self.scope)?;
        if self.all_namespaces {
            args.push("--all-namespaces".into());
        }
        if self.type_name.is_none() && !self.names.is_empty() {
            return Err(BadArguments("`names` needs a `type`".into()));
        }
        let mut pos: Vec<(&str, &str)> = Vec::new();
        if let Some(t) = &self.type_name {
            pos.push(("type", t));
        }
        pos.extend(self.names.iter().map(|n| ("names", n.as_str())));
        Ok(Command {
            args: positionals(args, &pos)?,
            stdin: None,
        })
    }
}

#[cfg(test)]
mod tests;
