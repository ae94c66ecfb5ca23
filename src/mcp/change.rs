//! A mutating tool's two calls: the preview (a server-side dry run and a diff, a one-time
//! token) and the confirmation (the token redeemed, the object checked unchanged, a person
//! asked where `protect:` holds, the change made and journaled).

use std::time::Instant;

use rmcp::RoleServer;
use rmcp::model::CallToolResult;
use rmcp::service::RequestContext;
use serde::Deserialize;
use serde_json::{Value, json};

use super::answer::{self, Kind, ToolError};
use super::run::Caller;
use super::server::{Change, Server, failed, invalid};
use super::tools::{Command, GetInput, Scope, Target};

/// How a person was asked about a protected change.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Asked {
    /// No rule holds (or only `block`): nobody is asked; the command decides.
    NoRule,
    /// A rule holds and the client cannot ask a person (no elicitation, or a protocol
    /// revision without server requests): the command refuses headless.
    CannotAsk,
    /// The person declined or dismissed the question: the command refuses headless.
    Declined,
    /// The person typed a name: the flags that answer the rule (the command checks them).
    Answered(Vec<String>),
}

/// What a person types to confirm a change in a protected context (MCP elicitation).
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct Confirmation {
    /// Type the context's name to make this change there.
    pub context: String,
}
rmcp::elicit_safe!(Confirmation);

impl Server {
    /// Previews or confirms `c`.
    pub(super) async fn change(
        &self,
        c: Change<'_>,
        ctx: &RequestContext<RoleServer>,
    ) -> CallToolResult {
        let context = match self.context(c.context) {
            Ok(x) => x.map(str::to_string),
            Err(e) => return failed(e),
        };
        let caller = Self::caller(ctx);
        match c.confirm {
            None => self.preview(&c, context.as_deref(), &caller).await,
            Some(token) => self.confirmed(&c, token, context, &caller, ctx).await,
        }
    }

    /// The object as it is now: `Ok(None)` when it does not exist.
    async fn read_target(
        &self,
        t: &Target,
        context: Option<&str>,
        caller: &Caller,
    ) -> Result<Option<Value>, ToolError> {
        let get = GetInput {
            type_name: t.type_name.clone(),
            name: Some(t.name.clone()),
            all_namespaces: false,
            selector: None,
            scope: Scope {
                namespace: t.namespace.clone(),
                context: None,
            },
        };
        let cmd = get
            .command()
            .map_err(|e| ToolError::new(Kind::Invalid, e.0))?;
        let ran = self.exec(&cmd, context, &[], caller).await?;
        match ran.code {
            0 => Ok(serde_json::from_str(&ran.stdout).ok()),
            4 => Ok(None),
            _ => Err(ToolError::of(&ran)),
        }
    }

    async fn preview(
        &self,
        c: &Change<'_>,
        context: Option<&str>,
        caller: &Caller,
    ) -> CallToolResult {
        let cmd = match (c.command)(None) {
            Ok(x) => x,
            Err(e) => return invalid(e),
        };
        let before = match &c.target {
            Some(t) => match self.read_target(t, context, caller).await {
                Ok(b) => b,
                Err(e) => return failed(e),
            },
            None => None,
        };
        let mut extra = vec!["--dry-run=server".to_string()];
        if c.prints_object {
            extra.push("--output=json".into());
        }
        let ran = match self.exec(&cmd, context, &extra, caller).await {
            Ok(r) => r,
            Err(e) => return failed(e),
        };
        if ran.code != 0 {
            return failed(ToolError::of(&ran));
        }
        let out = match answer::output(&ran) {
            Ok(o) => o,
            Err(e) => return failed(e),
        };
        // The dry run is journaled with the object before and as it would be after (both
        // redacted): the diff of every verb comes from there, whatever the verb prints.
        let journal = self.journal(context, caller).await;
        let diffs: Vec<Value> = journal
            .iter()
            .map(|e| {
                let after = if c.verb == "delete" {
                    None
                } else {
                    e.get("after")
                };
                answer::diff(e.get("before").filter(|b| !b.is_null()), after)
            })
            .collect();
        let diff = match diffs.as_slice() {
            [one] => one.clone(),
            _ => json!(
                journal
                    .iter()
                    .zip(&diffs)
                    .map(|(e, d)| json!({"object": summary(e), "diff": d}))
                    .collect::<Vec<_>>()
            ),
        };
        let dry_run = answer::redact_secrets(out);
        let rv = before
            .as_ref()
            .and_then(|b| b.pointer("/metadata/resourceVersion"))
            .and_then(Value::as_str)
            .map(str::to_string);
        let (token, ttl) = {
            let mut tokens = self.tokens.lock().unwrap_or_else(|p| p.into_inner());
            let token = tokens.issue(
                c.tool,
                &c.arguments,
                context.map(str::to_string),
                rv.clone(),
                Instant::now(),
            );
            (token, tokens.ttl().as_secs())
        };
        CallToolResult::structured(json!({
            "preview": {
                "context": context,
                "object": c.target,
                "resourceVersion": rv,
                "diff": diff,
                "dryRun": dry_run,
                "warnings": answer::warnings(&ran.stderr),
            },
            "confirm": token,
            "expiresInSeconds": ttl,
            "next": format!("Nothing has changed yet. To make this change, call `{}` again with the same arguments and \"confirm\": \"{token}\" within {ttl}s.", c.tool),
        }))
    }

    async fn confirmed(
        &self,
        c: &Change<'_>,
        token: &str,
        context: Option<String>,
        caller: &Caller,
        ctx: &RequestContext<RoleServer>,
    ) -> CallToolResult {
        let pending = {
            let mut tokens = self.tokens.lock().unwrap_or_else(|p| p.into_inner());
            tokens.redeem(token, c.tool, &c.arguments, Instant::now())
        };
        let pending = match pending {
            Ok(p) => p,
            Err(e) => return failed(ToolError::new(Kind::Invalid, e.to_string())),
        };
        if pending.context != context {
            return failed(ToolError::new(
                Kind::Invalid,
                "the confirmation token was issued for another context; preview this one first",
            ));
        }
        if let (Some(t), Some(rv)) = (&c.target, &pending.resource_version) {
            match self.read_target(t, context.as_deref(), caller).await {
                Ok(now) => {
                    let now_rv = now
                        .as_ref()
                        .and_then(|o| o.pointer("/metadata/resourceVersion"))
                        .and_then(Value::as_str);
                    if now_rv != Some(rv.as_str()) {
                        return failed(ToolError::new(
                            Kind::Conflict,
                            format!(
                                "{}/{} changed since its preview (resourceVersion {rv}, now {}); nothing was sent — preview the change again",
                                t.type_name,
                                t.name,
                                now_rv.unwrap_or("deleted")
                            ),
                        ));
                    }
                }
                Err(e) => return failed(e),
            }
        }
        let cmd = match (c.command)(pending.resource_version.as_deref()) {
            Ok(x) => x,
            Err(e) => return invalid(e),
        };
        let asked = match self
            .protection(c, &cmd, context.as_deref(), caller, ctx)
            .await
        {
            Ok(a) => a,
            Err(e) => return failed(e),
        };
        let mut extra = match &asked {
            Asked::Answered(flags) => flags.clone(),
            _ => Vec::new(),
        };
        if c.prints_object {
            extra.push("--output=json".into());
        }
        let ran = match self.exec(&cmd, context.as_deref(), &extra, caller).await {
            Ok(r) => r,
            Err(e) => return failed(e),
        };
        let entries: Vec<Value> = self
            .journal(context.as_deref(), caller)
            .await
            .iter()
            .map(summary)
            .collect();
        let undo = format!("kubectl myops rollback --session {}", caller.session);
        if ran.code != 0 {
            let mut e = ToolError::of(&ran);
            match (e.kind, &asked) {
                (Kind::Protected, Asked::Declined) => {
                    e.message = format!("the person declined the {} in a protected context; nothing was sent (the refusal is journaled)", c.verb);
                }
                (Kind::Protected, _) => e.message.push_str(
                    " — through MCP only a person answers a protect: rule, by elicitation, which this client does not offer; a person makes this change with kubectl myops",
                ),
                _ => {}
            }
            return CallToolResult::structured_error(json!({
                "error": e,
                "session": caller.session,
                "entries": entries,
            }));
        }
        let out = answer::output(&ran).unwrap_or(Value::Null);
        CallToolResult::structured(json!({
            "done": true,
            "result": answer::redact_secrets(out),
            "warnings": answer::warnings(&ran.stderr),
            "session": caller.session,
            "entries": entries,
            "rollback": undo,
            "next": format!("The change is made and journaled. To undo it, a person runs `{undo}` (or call the `rollback` tool with \"session\": \"{}\").", caller.session),
        }))
    }

    /// The change-log entries of `caller`'s session, whole (redacted as the journal is).
    async fn journal(&self, context: Option<&str>, caller: &Caller) -> Vec<Value> {
        let cmd = Command {
            args: vec![
                "changelog".into(),
                "list".into(),
                "--output=json".into(),
                format!("--session={}", caller.session),
            ],
            stdin: None,
        };
        let Ok(ran) = self.exec(&cmd, context, &[], caller).await else {
            return Vec::new();
        };
        serde_json::from_str(&ran.stdout).unwrap_or_default()
    }

    /// How a person answered plugin.yaml `protect:` for this change: where a rule (other
    /// than `block`) holds in the context and namespace, the person is asked through MCP
    /// elicitation to type the context's name, and the answer becomes
    /// `--yes --confirm-context=NAME` (the command checks the name itself). Without an
    /// answer — no rule, a client that cannot ask, a person who declines — the command runs
    /// without one: where a rule holds it refuses headless, as it refuses a script without a
    /// terminal, and journals the refusal.
    async fn protection(
        &self,
        c: &Change<'_>,
        cmd: &Command,
        context: Option<&str>,
        caller: &Caller,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<Asked, ToolError> {
        if ctx.peer.supported_elicitation_modes().is_empty() {
            return Ok(Asked::CannotAsk);
        }
        let ns = cmd
            .args
            .iter()
            .find_map(|a| a.strip_prefix("--namespace="))
            .map(str::to_string);
        let mut args = vec![
            "protect".to_string(),
            "status".into(),
            "--output=json".into(),
        ];
        args.extend(ns.map(|n| format!("--namespace={n}")));
        let status = self
            .exec(&Command { args, stdin: None }, context, &[], caller)
            .await?;
        let status: Value = serde_json::from_str(&status.stdout).unwrap_or(Value::Null);
        let holds: Vec<String> = status
            .get("rules")
            .and_then(Value::as_array)
            .map(|rules| {
                rules
                    .iter()
                    .filter(|r| r.get("inNamespace") == Some(&Value::Bool(true)))
                    .filter(|r| r.get("mode").and_then(Value::as_str) != Some("block"))
                    .filter(|r| match r.get("verbs").and_then(Value::as_array) {
                        Some(v) if !v.is_empty() => v.iter().any(|x| x.as_str() == Some(c.verb)),
                        _ => true,
                    })
                    .map(|r| {
                        r.get("message")
                            .and_then(Value::as_str)
                            .unwrap_or("protected")
                            .to_string()
                    })
                    .collect()
            })
            .unwrap_or_default();
        if holds.is_empty() {
            return Ok(Asked::NoRule);
        }
        let Some(context) = context else {
            return Ok(Asked::CannotAsk);
        };
        let question = format!(
            "An agent asks to {} in the protected context \"{context}\" ({}). Type the context's name to allow this one change.",
            c.verb,
            holds.join("; ")
        );
        use rmcp::service::ElicitationError;
        Ok(match ctx.peer.elicit::<Confirmation>(question).await {
            Ok(Some(answer)) => Asked::Answered(vec![
                "--yes".into(),
                format!("--confirm-context={}", answer.context),
            ]),
            Ok(None) | Err(ElicitationError::UserDeclined | ElicitationError::UserCancelled) => {
                Asked::Declined
            }
            Err(_) => Asked::CannotAsk,
        })
    }
}

/// An entry as a result names it (pure): id, operation, object and result.
fn summary(e: &Value) -> Value {
    json!({
        "id": e.get("id"),
        "operation": e.get("operation"),
        "kind": e.get("kind"),
        "namespace": e.get("namespace"),
        "name": e.get("name"),
        "result": e.get("result"),
    })
}
