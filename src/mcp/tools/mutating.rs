//! The mutating tools' inputs and the commands they run (pure); every one is previewed,
//! then confirmed ([`crate::mcp`]).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{
    BadArguments, Command, Scope, Target, body, flag, positionals, reasoned, scoped, sized,
};

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
        let mut docs: Vec<Value> = serde_saphyr::from_multiple(&self.manifest).map_err(|e| {
            BadArguments(format!(
                "`manifest` is neither JSON nor YAML: {}",
                crate::base::echo::capped(&e.to_string(), 200)
            ))
        })?;
        if docs.len() > 1 {
            return Err(BadArguments(format!(
                "`manifest` holds {} YAML documents; `apply` takes one object — call it once per object",
                docs.len()
            )));
        }
        let v = docs.pop().unwrap_or(Value::Null);
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
