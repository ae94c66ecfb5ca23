//! Asking a person about a change where plugin.yaml `protect:` holds, through MCP
//! elicitation: as a request from the server in the middle of the tool call (protocol
//! revisions up to 2025-11-25), or as the call's `InputRequiredResult`, which the client
//! answers by calling again with the person's answer and the `requestState` it was given
//! (revision 2026-07-28, SEP-2322 "multi round-trip requests"; [`super::question`]).

use std::time::Instant;

use rmcp::RoleServer;
use rmcp::model::ProtocolVersion;
use rmcp::service::RequestContext;
use serde_json::Value;

use super::answer::{Kind, ToolError};
use super::confirm::{Facts, Pending};
use super::question::{Asked, Confirmation};
use super::run::Caller;
use super::server::{Change, Server};
use super::tools::Command;

/// A `protect:` rule that holds for a change, as `protect status -o json` shows it.
struct Holding {
    /// Its `message` (`protected` when it has none).
    message: String,
    /// Its `requireReason`.
    needs_reason: bool,
}

/// Whether the call's protocol revision asks through `InputRequiredResult` (2026-07-28 and
/// later have no requests from the server in the middle of a call).
fn asks_by_retry(ctx: &RequestContext<RoleServer>) -> bool {
    ctx.protocol_version()
        .is_some_and(|v| v.as_str() >= ProtocolVersion::V_2026_07_28.as_str())
}

/// Whether the client says it can ask a person a form question (its capabilities of this
/// call, or of the handshake on earlier revisions; no `form`/`url` named means form).
fn can_ask(ctx: &RequestContext<RoleServer>) -> bool {
    ctx.client_capabilities()
        .and_then(|c| c.elicitation)
        .is_some_and(|e| e.form.is_some() || e.url.is_none())
}

impl Server {
    /// How a person answers plugin.yaml `protect:` for this change: where a rule (other
    /// than `block`) holds in the context and namespace, the person is asked through MCP
    /// elicitation to type the context's name, and the answer becomes
    /// `--confirm-context=NAME` (the command checks the name itself). Without an
    /// answer — no rule, a client that cannot ask, a person who declines — the command runs
    /// without one: where a rule holds it refuses headless, as it refuses a script without a
    /// terminal, and journals the refusal.
    ///
    /// # Errors
    /// A [`ToolError`] when `protect status` cannot run.
    pub(super) async fn protection(
        &self,
        c: &Change<'_>,
        cmd: &Command,
        facts: &Facts,
        context: Option<&str>,
        caller: &Caller,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<Asked, ToolError> {
        if !can_ask(ctx) {
            return Ok(Asked::CannotAsk);
        }
        // The namespace the call names, else the one its dry run's entry named (a
        // rollback's or undelete's object), else the server's default (added by `exec`).
        let ns = cmd
            .args
            .iter()
            .find_map(|a| a.strip_prefix("--namespace="))
            .map(str::to_string)
            .or_else(|| facts.namespace.clone());
        let holds = self.rules_holding(c.verb, ns, context, caller).await?;
        // A rule that needs a reason the call lacks refuses the change whatever a person
        // answers: the command says so, and nobody is asked in vain.
        let reason = c.arguments.get("reason").is_some_and(|r| !r.is_null());
        if holds.is_empty() || holds.iter().any(|h| h.needs_reason && !reason) {
            return Ok(Asked::NoRule);
        }
        let holds: Vec<&str> = holds.iter().map(|h| h.message.as_str()).collect();
        let Some(context) = context else {
            return Ok(Asked::CannotAsk);
        };
        let question = format!(
            "An agent asks to {} in the protected context \"{context}\" ({}). Type the context's name to allow this one change.",
            facts.description,
            holds.join("; ")
        );
        if asks_by_retry(ctx) {
            return Ok(Asked::Later(question));
        }
        use rmcp::service::ElicitationError;
        Ok(match ctx.peer.elicit::<Confirmation>(question).await {
            Ok(Some(answer)) => Asked::typed(&answer.context),
            Ok(None) | Err(ElicitationError::UserDeclined | ElicitationError::UserCancelled) => {
                Asked::Declined
            }
            Err(_) => Asked::CannotAsk,
        })
    }

    /// The `protect:` rules (other than `block`) that hold for `verb` in `context` and
    /// namespace `ns`.
    async fn rules_holding(
        &self,
        verb: &str,
        ns: Option<String>,
        context: Option<&str>,
        caller: &Caller,
    ) -> Result<Vec<Holding>, ToolError> {
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
        Ok(status
            .get("rules")
            .and_then(Value::as_array)
            .map(|rules| {
                rules
                    .iter()
                    .filter(|r| r.get("inNamespace") == Some(&Value::Bool(true)))
                    .filter(|r| r.get("mode").and_then(Value::as_str) != Some("block"))
                    .filter(|r| match r.get("verbs").and_then(Value::as_array) {
                        Some(v) if !v.is_empty() => v.iter().any(|x| x.as_str() == Some(verb)),
                        _ => true,
                    })
                    .map(|r| Holding {
                        message: r
                            .get("message")
                            .and_then(Value::as_str)
                            .unwrap_or("protected")
                            .to_string(),
                        needs_reason: r.get("requireReason") == Some(&Value::Bool(true)),
                    })
                    .collect()
            })
            .unwrap_or_default())
    }

    /// Keeps the question of a confirmation waiting for the person's answer: a one-time
    /// handle, good as long as a token, bound to the same call.
    pub(super) fn hold_question(&self, c: &Change<'_>, facts: Facts) -> String {
        let mut questions = self.questions.lock().unwrap_or_else(|p| p.into_inner());
        questions.issue(c.tool, &c.arguments, facts, Instant::now())
    }

    /// The question `state` names, taken (one use): the call must be the one it was asked
    /// for, within the expiry.
    ///
    /// # Errors
    /// An `invalid` [`ToolError`] for a handle unknown, used, expired or of another call.
    pub(super) fn take_question(&self, c: &Change<'_>, state: &str) -> Result<Pending, ToolError> {
        let mut questions = self.questions.lock().unwrap_or_else(|p| p.into_inner());
        questions
            .redeem(state, c.tool, &c.arguments, Instant::now())
            .map_err(|e| {
                ToolError::new(
                    Kind::Invalid,
                    format!(
                        "the answer came back for a question that is unknown, answered already, expired or asked of another call ({}); call the tool again without `confirm` to preview the change anew",
                        crate::base::echo::capped(&e.to_string(), 200)
                    ),
                )
            })
    }
}
