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
use super::confirm::{Facts, Judged, Pending, TokenError};
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
pub(super) fn asks_by_retry(ctx: &RequestContext<RoleServer>) -> bool {
    // A session begun with the handshake keeps the revision it agreed on, whatever a
    // request's `_meta` claims.
    let version = match ctx.peer.peer_info() {
        Some(handshake) => Some(handshake.protocol_version.clone()),
        None => ctx.protocol_version(),
    };
    version.is_some_and(|v| v.as_str() >= ProtocolVersion::V_2026_07_28.as_str())
}

/// Whether the client says it can ask a person a form question: the capabilities its
/// handshake declared when the session began with one, else those of this call's `_meta`
/// (revision 2026-07-28); an `elicitation` naming neither `form` nor `url` means form.
pub(super) fn can_ask(ctx: &RequestContext<RoleServer>) -> bool {
    // A session begun with the handshake keeps the capabilities it declared, whatever a
    // request's `_meta` claims (as its revision: [`asks_by_retry`]).
    let capabilities = match ctx.peer.peer_info() {
        Some(handshake) => Some(handshake.capabilities.clone()),
        None => ctx.client_capabilities(),
    };
    capabilities
        .and_then(|c| c.elicitation)
        .is_some_and(|e| e.form.is_some() || e.url.is_none())
}

/// Where and as what verbs the dry run's journal entries change objects (pure), each place
/// once: an entry's namespace, its `operation`, and — as `guard::protect::verb::effect_of`
/// judges for the command — `delete` for a request that deletes under another operation (a
/// rollback of a creation) and `undelete` for one that creates under another (a rollback of
/// a delete).
pub(super) fn judged(journal: &[Value]) -> Vec<Judged> {
    let mut out: Vec<Judged> = Vec::new();
    for e in journal {
        let field = |k: &str| e.get(k).and_then(Value::as_str);
        let operation = field("operation").unwrap_or_default();
        let mut verbs = vec![operation.to_string()];
        match field("patchType") {
            Some("delete") if operation != "delete" => verbs.push("delete".into()),
            Some("create") if operation != "undelete" => verbs.push("undelete".into()),
            _ => {}
        }
        let j = Judged {
            namespace: field("namespace").map(str::to_string),
            verbs,
        };
        if !out.contains(&j) {
            out.push(j);
        }
    }
    out
}

/// The call a question binds (pure): its arguments with the `confirm` token, which a token's
/// own binding leaves out ([`super::confirm::canonical`] drops it only at the top level).
fn asked_of(c: &Change<'_>) -> Value {
    serde_json::json!({ "call": &c.arguments })
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
        let (true, Some(context)) = (can_ask(ctx), context) else {
            return Ok(Asked::CannotAsk);
        };
        // Where the dry run's entries change objects, as what verbs (a rollback's or
        // undelete's objects, which the call's namespace need not be); without entries, the
        // call's namespace (else the server's default, added by `exec`) and the tool's verb.
        let mut judged = facts.judged.clone();
        if judged.is_empty() {
            judged.push(Judged {
                namespace: cmd
                    .args
                    .iter()
                    .find_map(|a| a.strip_prefix("--namespace="))
                    .map(str::to_string),
                verbs: vec![c.verb.to_string()],
            });
        }
        let mut holds = Vec::new();
        for j in judged {
            holds.extend(
                self.rules_holding(&j.verbs, j.namespace, Some(context), caller)
                    .await?,
            );
        }
        // A rule that needs a reason the call lacks (or gives none, as the command reads it)
        // refuses the change whatever a person answers: the command says so, and nobody is
        // asked in vain.
        let reason = c
            .arguments
            .get("reason")
            .and_then(Value::as_str)
            .is_some_and(crate::settings::is_reason);
        if holds.is_empty() || holds.iter().any(|h| h.needs_reason && !reason) {
            return Ok(Asked::NoRule);
        }
        // A rule that holds in several namespaces is named once.
        let mut messages: Vec<&str> = Vec::new();
        for h in &holds {
            if !messages.contains(&h.message.as_str()) {
                messages.push(&h.message);
            }
        }
        let question = format!(
            "An agent asks to {} in the protected context \"{context}\" ({}). Type the context's name to allow this one change.",
            facts.description,
            messages.join("; ")
        );
        if asks_by_retry(ctx) {
            return Ok(Asked::Later(question));
        }
        // As long as a token: an answer later than that is no answer.
        let ttl = self
            .tokens
            .lock()
            .map_or_else(|p| p.into_inner().ttl(), |t| t.ttl());
        use rmcp::service::ElicitationError;
        Ok(
            match ctx
                .peer
                .elicit_with_timeout::<Confirmation>(question, Some(ttl))
                .await
            {
                Ok(Some(answer)) => Asked::typed(&answer.context, context),
                Ok(None)
                | Err(ElicitationError::UserDeclined | ElicitationError::UserCancelled) => {
                    Asked::Declined
                }
                Err(ElicitationError::CapabilityNotSupported) => Asked::CannotAsk,
                Err(_) => Asked::Unanswered,
            },
        )
    }

    /// The `protect:` rules (other than `block`) that hold in `context` and namespace `ns`
    /// for any of `verbs`.
    async fn rules_holding(
        &self,
        verbs: &[String],
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
                        Some(v) if !v.is_empty() => v
                            .iter()
                            .any(|x| verbs.iter().any(|verb| x.as_str() == Some(verb))),
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
    /// handle, good as long as a token, bound to the same call — its `confirm` token too.
    pub(super) fn hold_question(&self, c: &Change<'_>, facts: Facts) -> String {
        let mut questions = self.questions.lock().unwrap_or_else(|p| p.into_inner());
        questions.issue(c.tool, &asked_of(c), facts, Instant::now())
    }

    /// The question `state` names, taken (one use): the call must be the one it was asked
    /// for, within the expiry.
    ///
    /// # Errors
    /// An `invalid` [`ToolError`] for a handle unknown, used, expired or of another call.
    pub(super) fn take_question(&self, c: &Change<'_>, state: &str) -> Result<Pending, ToolError> {
        let mut questions = self.questions.lock().unwrap_or_else(|p| p.into_inner());
        questions
            .redeem(state, c.tool, &asked_of(c), Instant::now())
            .map_err(|e| {
                let why = match e {
                    TokenError::Unknown => "its requestState is not one this server gave, or was answered already (a question is answered once)".to_string(),
                    TokenError::Expired { late_seconds, ttl_seconds } => format!(
                        "the answer came {late_seconds}s after the question expired (a question is good for {ttl_seconds}s, as a token)"
                    ),
                    TokenError::Mismatch { .. } => "the call that brought it is not the one the question was asked of (another tool or other arguments)".to_string(),
                };
                ToolError::new(
                    Kind::Invalid,
                    format!("the person's answer is not taken: {why}; call the tool again without `confirm` to preview the change anew"),
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_rollback_is_judged_as_what_each_of_its_requests_does_where_it_does_it() {
        let journal = [
            json!({"operation": "rollback", "patchType": "merge", "namespace": "a"}),
            json!({"operation": "rollback", "patchType": "delete", "namespace": "b"}),
            json!({"operation": "rollback", "patchType": "create", "namespace": "b"}),
            json!({"operation": "rollback", "patchType": "merge", "namespace": "a"}),
            json!({"operation": "undelete", "patchType": "create", "namespace": "a"}),
            json!({"operation": "delete", "patchType": "delete"}),
        ];
        let place = |ns: Option<&str>, verbs: &[&str]| Judged {
            namespace: ns.map(str::to_string),
            verbs: verbs.iter().map(|v| v.to_string()).collect(),
        };
        assert_eq!(
            judged(&journal),
            vec![
                place(Some("a"), &["rollback"]),
                place(Some("b"), &["rollback", "delete"]),
                place(Some("b"), &["rollback", "undelete"]),
                place(Some("a"), &["undelete"]),
                place(None, &["delete"]),
            ]
        );
    }
}
