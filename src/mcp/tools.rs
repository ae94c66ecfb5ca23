//! The tools' inputs, their JSON Schemas (schemars, from these types) and the command line
//! each one runs (pure).
//!
//! A tool is the guarded command a person runs, named by its arguments: [`Tool::command`]
//! turns an input into that command's argv, every flag as `--flag=value` and every
//! positional after `--`, so a value can never be read as a flag (`name: "--all"`). Bodies
//! (a patch, a manifest) go on the child's stdin, never on argv: argv is visible in `ps` and
//! one argument is capped at 128 KiB by Linux (`MAX_ARG_STRLEN`).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

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
    pub type_name: String,
    /// The object's name.
    pub name: String,
    /// Its namespace, when the call named one.
    pub namespace: Option<String>,
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

/// What every mutating tool takes besides its own arguments.
#[derive(Debug, Clone, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Change {
    /// Why the change is made: journaled with it and required where a protected context
    /// says so.
    #[serde(default)]
    pub reason: Option<String>,
    /// The confirmation token of this change's preview. Omit it to preview (nothing
    /// changes); pass it, with the same other arguments, to make the previewed change.
    #[serde(default)]
    pub confirm: Option<String>,
}

/// A patch type, as `kubectl patch --type`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum PatchKind {
    /// JSON merge patch (RFC 7386).
    #[default]
    Merge,
    /// Strategic merge patch (built-in types only).
    Strategic,
    /// JSON patch (RFC 6902): a list of operations.
    Json,
}

/// `patch`: change fields of one object.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PatchInput {
    /// Resource type (`deployments.apps`, `configmaps`).
    #[serde(rename = "type")]
    pub type_name: String,
    /// The object's name.
    pub name: String,
    /// The patch: an object for merge/strategic, a list of operations for json.
    pub patch: Value,
    /// merge (default), strategic or json.
    #[serde(default)]
    pub patch_type: PatchKind,
    /// A subresource to patch (`status`, `scale`).
    #[serde(default)]
    pub subresource: Option<String>,
    /// Where.
    #[serde(flatten)]
    pub scope: Scope,
    /// Reason and confirmation.
    #[serde(flatten)]
    pub change: Change,
}

/// `delete`: delete one object (its whole state is journaled first; `undelete` restores it).
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeleteInput {
    /// Resource type.
    #[serde(rename = "type")]
    pub type_name: String,
    /// The object's name.
    pub name: String,
    /// Where.
    #[serde(flatten)]
    pub scope: Scope,
    /// Reason and confirmation.
    #[serde(flatten)]
    pub change: Change,
}

/// `apply`: server-side apply one manifest.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ApplyInput {
    /// The manifest, YAML or JSON: one object with apiVersion, kind and metadata.name.
    pub manifest: String,
    /// Where.
    #[serde(flatten)]
    pub scope: Scope,
    /// Reason and confirmation.
    #[serde(flatten)]
    pub change: Change,
}

/// `scale`: set the replicas of one object through its scale subresource.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScaleInput {
    /// Resource type (`deployments.apps`, `statefulsets.apps`).
    #[serde(rename = "type")]
    pub type_name: String,
    /// The object's name.
    pub name: String,
    /// The new number of replicas.
    pub replicas: u32,
    /// Where.
    #[serde(flatten)]
    pub scope: Scope,
    /// Reason and confirmation.
    #[serde(flatten)]
    pub change: Change,
}

/// `label` and `annotate`: set or remove labels or annotations of one object.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MetaInput {
    /// Resource type.
    #[serde(rename = "type")]
    pub type_name: String,
    /// The object's name.
    pub name: String,
    /// Keys to set, with their values.
    #[serde(default)]
    pub set: BTreeMap<String, String>,
    /// Keys to remove.
    #[serde(default)]
    pub remove: Vec<String>,
    /// Replace a key that already has another value (otherwise that is refused).
    #[serde(default)]
    pub overwrite: bool,
    /// Where.
    #[serde(flatten)]
    pub scope: Scope,
    /// Reason and confirmation.
    #[serde(flatten)]
    pub change: Change,
}

/// `rollback`: undo a journaled change (one entry, or every change of one tool call).
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RollbackInput {
    /// The change-log entry id to undo.
    #[serde(default)]
    pub entry: Option<String>,
    /// Or: undo every change of this session (a mutating tool's result names it).
    #[serde(default)]
    pub session: Option<String>,
    /// The context, one of the server's; default: the first.
    #[serde(default)]
    pub context: Option<String>,
    /// Reason and confirmation.
    #[serde(flatten)]
    pub change: Change,
}

/// `undelete`: create a deleted object again from its journaled state.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UndeleteInput {
    /// The delete entry to undo; or give type and name for the object's latest delete.
    #[serde(default)]
    pub entry: Option<String>,
    /// Resource type (with name, instead of entry).
    #[serde(default, rename = "type")]
    pub type_name: Option<String>,
    /// The object's name (with type).
    #[serde(default)]
    pub name: Option<String>,
    /// Where.
    #[serde(flatten)]
    pub scope: Scope,
    /// Reason and confirmation.
    #[serde(flatten)]
    pub change: Change,
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

impl PatchInput {
    /// `patch --type=T --patch-file=/dev/stdin TYPE NAME`, the patch on stdin; `rv` (the
    /// previewed resourceVersion) is added as a precondition the server checks: a `test`
    /// operation first in a JSON patch, `metadata.resourceVersion` in a merge or strategic
    /// one (the optimistic concurrency of the API conventions).
    pub fn command(&self, rv: Option<&str>) -> Result<Command, BadArguments> {
        let patch = match (self.patch_type, &self.patch, rv) {
            (PatchKind::Json, Value::Array(ops), Some(rv)) => {
                let mut all = vec![
                    serde_json::json!({"op": "test", "path": "/metadata/resourceVersion", "value": rv}),
                ];
                all.extend(ops.iter().cloned());
                Value::Array(all)
            }
            (PatchKind::Merge | PatchKind::Strategic, Value::Object(o), Some(rv))
                if self.subresource.is_none() =>
            {
                let mut o = o.clone();
                let meta = o
                    .entry("metadata")
                    .or_insert_with(|| Value::Object(Default::default()));
                if let Value::Object(m) = meta {
                    m.insert("resourceVersion".into(), Value::String(rv.into()));
                }
                Value::Object(o)
            }
            (_, p, _) => p.clone(),
        };
        let kind = match self.patch_type {
            PatchKind::Merge => "merge",
            PatchKind::Strategic => "strategic",
            PatchKind::Json => "json",
        };
        let mut args = vec![
            "patch".to_string(),
            format!("--type={kind}"),
            "--patch-file=/dev/stdin".into(),
        ];
        scoped(&mut args, &self.scope)?;
        reasoned(&mut args, &self.change)?;
        if let Some(s) = &self.subresource {
            args.push(flag("subresource", "subresource", s)?);
        }
        Ok(Command {
            args: positionals(args, &[("type", &self.type_name), ("name", &self.name)])?,
            stdin: Some(body("patch", patch.to_string())?),
        })
    }
}

impl DeleteInput {
    /// `delete TYPE NAME` (the guarded delete sends the uid and resourceVersion it read as
    /// preconditions).
    pub fn command(&self) -> Result<Command, BadArguments> {
        let mut args = vec!["delete".to_string()];
        scoped(&mut args, &self.scope)?;
        reasoned(&mut args, &self.change)?;
        Ok(Command {
            args: positionals(args, &[("type", &self.type_name), ("name", &self.name)])?,
            stdin: None,
        })
    }
}

impl ApplyInput {
    /// `apply --filename=-`, the manifest on stdin.
    pub fn command(&self) -> Result<Command, BadArguments> {
        let mut args = vec!["apply".to_string(), "--filename=-".into()];
        scoped(&mut args, &self.scope)?;
        reasoned(&mut args, &self.change)?;
        Ok(Command {
            args,
            stdin: Some(body("manifest", self.manifest.clone())?),
        })
    }

    /// The object the manifest names (pure): TYPE as `Kind.version.group` (kubectl's
    /// fully qualified form), name and namespace.
    ///
    /// # Errors
    /// [`BadArguments`] when the manifest is not one object with apiVersion, kind and
    /// metadata.name.
    pub fn target(&self) -> Result<Target, BadArguments> {
        sized("manifest", &self.manifest)?;
        let v: Value = serde_saphyr::from_str(&self.manifest).map_err(|e| {
            BadArguments(format!(
                "`manifest` is neither JSON nor YAML: {}",
                crate::base::echo::capped(&e.to_string(), 200)
            ))
        })?;
        let field = |p: &str| v.pointer(p).and_then(Value::as_str).map(str::to_string);
        let (Some(api_version), Some(kind), Some(name)) = (
            field("/apiVersion"),
            field("/kind"),
            field("/metadata/name"),
        ) else {
            return Err(BadArguments(
                "`manifest` is one object with apiVersion, kind and metadata.name".into(),
            ));
        };
        let type_name = match api_version.split_once('/') {
            Some((group, version)) => format!("{kind}.{version}.{group}"),
            None => kind,
        };
        Ok(Target {
            type_name,
            name,
            namespace: field("/metadata/namespace").or_else(|| self.scope.namespace.clone()),
        })
    }
}

impl ScaleInput {
    /// `scale --replicas=N [--resource-version=RV] TYPE NAME`.
    pub fn command(&self, rv: Option<&str>) -> Result<Command, BadArguments> {
        let mut args = vec!["scale".to_string(), format!("--replicas={}", self.replicas)];
        if let Some(rv) = rv {
            args.push(flag("resource-version", "resourceVersion", rv)?);
        }
        scoped(&mut args, &self.scope)?;
        reasoned(&mut args, &self.change)?;
        Ok(Command {
            args: positionals(args, &[("type", &self.type_name), ("name", &self.name)])?,
            stdin: None,
        })
    }
}

impl MetaInput {
    /// `label|annotate [--overwrite] [--resource-version=RV] TYPE NAME KEY=VALUE… KEY-…`.
    pub fn command(&self, verb: &str, rv: Option<&str>) -> Result<Command, BadArguments> {
        if self.set.is_empty() && self.remove.is_empty() {
            return Err(BadArguments(
                "give at least one key in `set` or `remove`".into(),
            ));
        }
        let mut args = vec![verb.to_string()];
        if self.overwrite {
            args.push("--overwrite".into());
        }
        if let Some(rv) = rv {
            args.push(flag("resource-version", "resourceVersion", rv)?);
        }
        scoped(&mut args, &self.scope)?;
        reasoned(&mut args, &self.change)?;
        let pairs: Vec<String> = self
            .set
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .chain(self.remove.iter().map(|k| format!("{k}-")))
            .collect();
        let mut pos = vec![("type", self.type_name.as_str()), ("name", &self.name)];
        pos.extend(pairs.iter().map(|p| ("set", p.as_str())));
        Ok(Command {
            args: positionals(args, &pos)?,
            stdin: None,
        })
    }
}

impl RollbackInput {
    /// `rollback ID` or `rollback --session=ID`.
    pub fn command(&self) -> Result<Command, BadArguments> {
        let mut args = vec!["rollback".to_string()];
        reasoned(&mut args, &self.change)?;
        match (&self.entry, &self.session) {
            (Some(id), None) => Ok(Command {
                args: positionals(args, &[("entry", id)])?,
                stdin: None,
            }),
            (None, Some(s)) => {
                args.push(flag("session", "session", s)?);
                Ok(Command { args, stdin: None })
            }
            _ => Err(BadArguments(
                "give exactly one of `entry` and `session`".into(),
            )),
        }
    }
}

impl UndeleteInput {
    /// `undelete --entry=ID` or `undelete TYPE NAME`.
    pub fn command(&self) -> Result<Command, BadArguments> {
        let mut args = vec!["undelete".to_string()];
        scoped(&mut args, &self.scope)?;
        reasoned(&mut args, &self.change)?;
        match (&self.entry, &self.type_name, &self.name) {
            (Some(id), None, None) => {
                args.push(flag("entry", "entry", id)?);
                Ok(Command { args, stdin: None })
            }
            (None, Some(t), Some(n)) => Ok(Command {
                args: positionals(args, &[("type", t), ("name", n)])?,
                stdin: None,
            }),
            _ => Err(BadArguments(
                "give either `entry`, or `type` and `name`".into(),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_that_looks_like_a_flag_stays_a_positional() {
        let g = GetInput {
            type_name: "configmaps".into(),
            name: Some("--all-namespaces".into()),
            all_namespaces: false,
            selector: None,
            scope: Scope::default(),
        };
        assert_eq!(
            g.command().unwrap().args,
            [
                "get",
                "--output=json",
                "--",
                "configmaps",
                "--all-namespaces"
            ]
        );
    }

    #[test]
    fn a_previewed_resource_version_becomes_the_patchs_precondition() {
        let mut p = PatchInput {
            type_name: "configmaps".into(),
            name: "c1".into(),
            patch: serde_json::json!({"data": {"k": "v"}}),
            patch_type: PatchKind::Merge,
            subresource: None,
            scope: Scope::default(),
            change: Change::default(),
        };
        let c = p.command(Some("42")).unwrap();
        assert_eq!(
            serde_json::from_str::<Value>(c.stdin.as_deref().unwrap()).unwrap(),
            serde_json::json!({"data": {"k": "v"}, "metadata": {"resourceVersion": "42"}})
        );
        p.patch_type = PatchKind::Json;
        p.patch = serde_json::json!([{"op": "remove", "path": "/data/k"}]);
        let c = p.command(Some("42")).unwrap();
        assert_eq!(
            serde_json::from_str::<Value>(c.stdin.as_deref().unwrap()).unwrap()[0],
            serde_json::json!({"op": "test", "path": "/metadata/resourceVersion", "value": "42"})
        );
        assert!(c.args.contains(&"--type=json".to_string()));
    }

    #[test]
    fn a_nul_or_an_endless_name_is_refused_before_anything_runs() {
        assert!(text("name", "a\0b").is_err());
        assert!(text("name", &"x".repeat(MAX_TEXT_CHARS + 1)).is_err());
        assert_eq!(text("name", "web").unwrap(), "web");
    }

    #[test]
    fn an_apply_targets_the_manifests_object_by_its_full_type() {
        let a = ApplyInput {
            manifest:
                "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\n"
                    .into(),
            scope: Scope::default(),
            change: Change::default(),
        };
        assert_eq!(
            a.target().unwrap(),
            Target {
                type_name: "Deployment.v1.apps".into(),
                name: "web".into(),
                namespace: Some("shop".into())
            }
        );
    }
}
