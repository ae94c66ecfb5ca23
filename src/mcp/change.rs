//! A mutating tool's two calls: the preview (a server-side dry run and a diff, a one-time
//! token) and the confirmation (the token redeemed, the object checked unchanged, a person
//! asked where `protect:` holds, the change made and journaled).

use std::time::Instant;

use rmcp::RoleServer;
use rmcp::model::{CallToolResponse, CallToolResult};
use rmcp::service::RequestContext;
use serde_json::{Value, json};

use super::answer::{self, Kind, ToolError};
use super::ask;
use super::confirm::Facts;
use super::question::{self, Asked, Retry};
use super::run::Caller;
use super::server::{Change, Server, failed, invalid};
use super::tools::{Command, GetInput, Scope, Target};

impl Server {
    /// Previews or confirms `c`; `retry` is what a confirmation that asked a person
    /// (`InputRequiredResult`) carries back.
    pub(super) async fn change(
        &self,
        c: Change<'_>,
        retry: Retry,
        ctx: &RequestContext<RoleServer>,
    ) -> CallToolResponse {
        let context = match self.context(c.context) {
            Ok(x) => x.map(str::to_string),
            Err(e) => return failed(e).into(),
        };
        let caller = Self::caller(ctx);
        match c.confirm {
            None => self.preview(&c, context.as_deref(), &caller).await.into(),
            Some(token) => {
                self.confirmed(&c, token, &retry, context, &caller, ctx)
                    .await
            }
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
        if let Err(e) = secret_patch(c, before.as_ref()) {
            return failed(e);
        }
        let ran = match self
            .exec(&cmd, context, &["--dry-run=server".to_string()], caller)
            .await
        {
            Ok(r) => r,
            Err(e) => return failed(e),
        };
        if ran.code != 0 {
            return failed(ToolError::of(&ran));
        }
        // The dry run is journaled with the object before and as it would be after, both
        // redacted as the change log redacts (a Secret value copied elsewhere included): the
        // diff and the object shown come from there, never from the command's own output.
        let journal = self.journal(context, caller).await;
        let after = |e: &Value| {
            if c.verb == "delete" {
                None
            } else {
                e.get("after").filter(|a| !a.is_null()).cloned()
            }
        };
        let diffs: Vec<Value> = journal
            .iter()
            .map(|e| answer::diff(e.get("before").filter(|b| !b.is_null()), after(e).as_ref()))
            .collect();
        let (diff, dry_run) = match journal.as_slice() {
            [one] => (diffs[0].clone(), after(one).unwrap_or(Value::Null)),
            _ => (
                json!(
                    journal
                        .iter()
                        .zip(&diffs)
                        .map(|(e, d)| json!({"object": summary(e), "diff": d}))
                        .collect::<Vec<_>>()
                ),
                Value::Null,
            ),
        };
        let rv = before
            .as_ref()
            .and_then(|b| b.pointer("/metadata/resourceVersion"))
            .and_then(Value::as_str)
            .map(str::to_string);
        let facts = Facts {
            context: context.map(str::to_string),
            resource_version: rv.clone(),
            judged: ask::judged(&journal),
            description: describe(c.verb, &journal, &diffs),
        };
        let (token, ttl) = {
            let mut tokens = self.tokens.lock().unwrap_or_else(|p| p.into_inner());
            let token = tokens.issue(c.tool, &c.arguments, facts, Instant::now());
            (token, tokens.ttl().as_secs())
        };
        CallToolResult::structured(json!({
            "preview": {
                "context": context,
                "object": c.target,
                "resourceVersion": rv,
                "diff": diff,
                "dryRun": dry_run,
                "output": ran.stdout,
                "warnings": answer::warnings(&ran.stderr),
            },
            "confirm": token,
            "expiresInSeconds": ttl,
            "next": format!("Nothing has changed yet. To make this change, call `{}` again with the same arguments and \"confirm\": \"{token}\" within {ttl}s.", c.tool),
        }))
    }

    /// Makes the previewed change `token` confirms — or, on a revision that asks a person by
    /// `InputRequiredResult`, asks first and makes it when the call comes back with the
    /// answer and the question's handle (`retry`), after the same checks again.
    async fn confirmed(
        &self,
        c: &Change<'_>,
        token: &str,
        retry: &Retry,
        context: Option<String>,
        caller: &Caller,
        ctx: &RequestContext<RoleServer>,
    ) -> CallToolResponse {
        let pending = match &retry.state {
            None => {
                let mut tokens = self.tokens.lock().unwrap_or_else(|p| p.into_inner());
                tokens
                    .redeem(token, c.tool, &c.arguments, Instant::now())
                    .map_err(|e| ToolError::new(Kind::Invalid, e.to_string()))
            }
            Some(state) => self.take_question(c, state),
        };
        let facts = match pending {
            Ok(p) => p.facts,
            Err(e) => return failed(e).into(),
        };
        self.confirmed_facts(c, facts, retry, context, caller, ctx)
            .await
    }

    /// [`Server::confirmed`] once the token (or the question's handle) gave the preview's
    /// `facts`: the context and object checked, the person asked, the change made.
    async fn confirmed_facts(
        &self,
        c: &Change<'_>,
        facts: Facts,
        retry: &Retry,
        context: Option<String>,
        caller: &Caller,
        ctx: &RequestContext<RoleServer>,
    ) -> CallToolResponse {
        if facts.context != context {
            return failed(ToolError::new(
                Kind::Invalid,
                "the confirmation token was issued for another context; preview this one first",
            ))
            .into();
        }
        if let Err(e) = self.unchanged(c, &facts, context.as_deref(), caller).await {
            return failed(e).into();
        }
        let cmd = match (c.command)(facts.resource_version.as_deref()) {
            Ok(x) => x,
            Err(e) => return invalid(e).into(),
        };
        let asked = match (&retry.state, context.as_deref()) {
            // Only a client on revision 2026-07-28 that can ask a person brings an answer.
            (Some(_), Some(name)) if ask::can_ask(ctx) && ask::asks_by_retry(ctx) => {
                retry.answer(name)
            }
            (Some(_), _) => Asked::CannotAsk,
            (None, _) => match self
                .protection(c, &cmd, &facts, context.as_deref(), caller, ctx)
                .await
            {
                Ok(a) => a,
                Err(e) => return failed(e).into(),
            },
        };
        if let Asked::Later(text) = asked {
            let state = self.hold_question(c, facts);
            return question::input_required(text, state).into();
        }
        // A person asked in the middle of this call took their time: the object is read
        // again, so what they allowed is still what is sent.
        if retry.state.is_none()
            && matches!(asked, Asked::Answered(_))
            && let Err(e) = self.unchanged(c, &facts, context.as_deref(), caller).await
        {
            return failed(e).into();
        }
        let extra = match &asked {
            Asked::Answered(flags) => flags.clone(),
            _ => Vec::new(),
        };
        let ran = match self.exec(&cmd, context.as_deref(), &extra, caller).await {
            Ok(r) => r,
            Err(e) => return failed(e).into(),
        };
        let journal = self.journal(context.as_deref(), caller).await;
        let entries: Vec<Value> = journal.iter().map(summary).collect();
        let undo = format!("kubectl myops rollback --session {}", caller.session);
        if ran.code != 0 {
            let mut e = ToolError::of(&ran);
            match (e.kind, &asked) {
                (Kind::Protected, Asked::Answered(_)) if e.message.contains("--confirm-context names") => {
                    e.message = if context.as_deref().is_some_and(|x| x.contains(',')) {
                        format!("the context's name holds a comma, which --confirm-context reads as a list of names, so no answer through MCP confirms it; the {} was refused and nothing was sent (the refusal is journaled) — a person makes this change with kubectl myops", c.verb)
                    } else {
                        format!("the name the person typed is not the context's name; the {} was refused and nothing was sent (the refusal is journaled)", c.verb)
                    };
                }
                (Kind::Protected, _) if e.message.contains("which requires a reason") => e.message.push_str(
                    " — through MCP, preview the change again with the `reason` argument (a token confirms exactly the previewed arguments)",
                ),
                (Kind::Protected, Asked::Declined) => {
                    e.message = format!("the person declined the {} in a protected context; nothing was sent (the refusal is journaled)", c.verb);
                }
                (Kind::Protected, Asked::Unanswered) if e.message.contains("no terminal to ask on") => {
                    e.message = format!("the client came back without the person's answer to the question (or not in time); the {} was refused and nothing was sent (the refusal is journaled) — preview it again", c.verb);
                }
                (Kind::Protected, Asked::CannotAsk) if e.message.contains("no terminal to ask on") => e.message.push_str(
                    " — through MCP only a person answers a protect: rule, by elicitation, which this client does not offer; a person makes this change with kubectl myops",
                ),
                _ => {}
            }
            return CallToolResult::structured_error(json!({
                "error": e,
                "session": caller.session,
                "entries": entries,
            }))
            .into();
        }
        let after = match journal.as_slice() {
            [one] => one.get("after").cloned().unwrap_or(Value::Null),
            _ => Value::Null,
        };
        CallToolResult::structured(json!({
            "done": true,
            "result": ran.stdout,
            "after": after,
            "warnings": answer::warnings(&ran.stderr),
            "session": caller.session,
            "entries": entries,
            "rollback": undo,
            "next": format!("The change is made and journaled. To undo it, a person runs `{undo}` (or call the `rollback` tool with \"session\": \"{}\").", caller.session),
        }))
        .into()
    }

    /// Checks that `c`'s object is as its preview read it (`facts`).
    ///
    /// # Errors
    /// A `conflict` [`ToolError`] when its resourceVersion differs, or it was created or
    /// deleted since; the read's own error when it cannot be read.
    async fn unchanged(
        &self,
        c: &Change<'_>,
        facts: &Facts,
        context: Option<&str>,
        caller: &Caller,
    ) -> Result<(), ToolError> {
        let Some(t) = &c.target else {
            return Ok(());
        };
        let now = self.read_target(t, context, caller).await?;
        let now_rv = now
            .as_ref()
            .and_then(|o| o.pointer("/metadata/resourceVersion"))
            .and_then(Value::as_str);
        if now_rv == facts.resource_version.as_deref() {
            return Ok(());
        }
        Err(ToolError::new(
            Kind::Conflict,
            format!(
                "{}/{} changed since its preview ({}, now {}); nothing was sent — preview the change again",
                t.type_name,
                t.name,
                facts
                    .resource_version
                    .as_deref()
                    .map_or("it did not exist".to_string(), |rv| format!(
                        "resourceVersion {rv}"
                    )),
                now_rv.map_or("deleted".to_string(), |rv| format!("resourceVersion {rv}"))
            ),
        ))
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

/// What a change does in one line, for the person asked to confirm it (pure): the verb, each
/// object and its namespace, and the paths its diff touches (at most five), e.g.
/// `patch ConfigMap shop/web-config (replace /data/log-level)`.
fn describe(verb: &str, journal: &[Value], diffs: &[Value]) -> String {
    let objects: Vec<String> = journal
        .iter()
        .zip(diffs)
        .map(|(e, d)| {
            let field = |k: &str| e.get(k).and_then(Value::as_str).unwrap_or("");
            let ns = e
                .get("namespace")
                .and_then(Value::as_str)
                .map(|n| format!("{n}/"))
                .unwrap_or_default();
            let ops: Vec<String> = d
                .as_array()
                .map(|ops| {
                    ops.iter()
                        .take(5)
                        .map(|o| {
                            let path = o.get("path").and_then(Value::as_str).unwrap_or("");
                            let op = o.get("op").and_then(Value::as_str).unwrap_or("");
                            if path.is_empty() {
                                format!("{op} the whole object")
                            } else {
                                format!("{op} {path}")
                            }
                        })
                        .collect()
                })
                .unwrap_or_default();
            let more = d.as_array().map_or(0, Vec::len).saturating_sub(5);
            let tail = if more > 0 {
                format!(", {more} more")
            } else {
                String::new()
            };
            crate::base::echo::capped(
                &format!(
                    "{} {ns}{} ({}{tail})",
                    field("kind"),
                    field("name"),
                    ops.join(", ")
                ),
                300,
            )
        })
        .collect();
    format!("{verb} {}", objects.join("; "))
}

/// Refuses a JSON patch of a Secret that would show the agent a value it may not read (pure):
/// a `copy` or `move` from `data`/`stringData` to anywhere else (an annotation is shown), or a
/// `test` of a value (its answer tells whether a guess is right).
///
/// # Errors
/// A `denied` [`ToolError`] naming the operation.
fn secret_patch(c: &Change<'_>, before: Option<&Value>) -> Result<(), ToolError> {
    let is_secret = before.and_then(|b| b.get("kind")).and_then(Value::as_str) == Some("Secret");
    let ops = c.arguments.get("patch").and_then(Value::as_array);
    let (true, "patch", Some(ops)) = (is_secret, c.tool, ops) else {
        return Ok(());
    };
    let secret = |p: Option<&Value>| {
        p.and_then(Value::as_str).is_some_and(|p| {
            p == "/data"
                || p == "/stringData"
                || p.starts_with("/data/")
                || p.starts_with("/stringData/")
        })
    };
    for (n, op) in ops.iter().enumerate() {
        let kind = op.get("op").and_then(Value::as_str).unwrap_or("");
        let leaks = match kind {
            "copy" | "move" => secret(op.get("from")) && !secret(op.get("path")),
            "test" => secret(op.get("path")),
            _ => false,
        };
        if leaks {
            return Err(ToolError::new(
                Kind::Denied,
                format!(
                    "operation {n} (`{kind}`) of this JSON patch would show a Secret value to the agent ({}); an agent may write Secret values, never read them — a person makes this change with kubectl myops",
                    if kind == "test" {
                        "its answer says whether the value matches"
                    } else {
                        "it copies the value out of data/stringData"
                    }
                ),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_question_names_the_verb_the_object_and_the_paths_it_changes() {
        let journal = [json!({"kind": "ConfigMap", "namespace": "shop", "name": "web"})];
        let diffs =
            [json!([{"op": "replace", "path": "/data/a"}, {"op": "add", "path": "/data/b"}])];
        assert_eq!(
            describe("patch", &journal, &diffs),
            "patch ConfigMap shop/web (replace /data/a, add /data/b)"
        );
        let whole = [json!([{"op": "remove", "path": ""}])];
        assert_eq!(
            describe("delete", &journal, &whole),
            "delete ConfigMap shop/web (remove the whole object)"
        );
    }

    #[test]
    fn a_json_patch_that_reads_a_secret_value_is_refused_and_one_that_writes_it_is_not() {
        let input = json!({});
        let change = crate::mcp::tools::Change::default();
        let with = |patch: Value| {
            let mut c = Change::of("patch", &input, None, &change, Box::new(|_| unreachable!()));
            c.arguments = json!({"patch": patch});
            c
        };
        let secret = json!({"kind": "Secret"});
        let copy =
            with(json!([{"op": "copy", "from": "/data/t", "path": "/metadata/annotations/x"}]));
        assert_eq!(
            secret_patch(&copy, Some(&secret)).unwrap_err().kind,
            Kind::Denied
        );
        let test = with(json!([{"op": "test", "path": "/stringData/t", "value": "guess"}]));
        assert!(secret_patch(&test, Some(&secret)).is_err());
        let write = with(json!([{"op": "replace", "path": "/data/t", "value": "bmV3"}]));
        assert!(secret_patch(&write, Some(&secret)).is_ok());
        let within = with(json!([{"op": "copy", "from": "/data/t", "path": "/data/u"}]));
        assert!(secret_patch(&within, Some(&secret)).is_ok());
        assert!(secret_patch(&copy, Some(&json!({"kind": "ConfigMap"}))).is_ok());
    }
}
