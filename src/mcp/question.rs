//! The question put to a person about a protected change and their answer (pure): the
//! elicitation form (the context's name), the `InputRequiredResult` that carries it on
//! revision 2026-07-28 and what the client's next call brings back (SEP-2322).

use rmcp::handler::server::common::FromContextPart;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{
    ElicitRequest, ElicitRequestParams, ElicitationSchema, InputRequest, InputRequests,
    InputRequiredResult,
};
use serde::Deserialize;
use serde_json::Value;

/// The key of the one question in an `InputRequiredResult` and of its answer.
const QUESTION: &str = "confirm";

/// How a person was asked about a protected change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Asked {
    /// No rule holds (or only `block`): nobody is asked; the command decides.
    NoRule,
    /// A rule holds and the client cannot ask a person (no elicitation capability): the
    /// command refuses headless.
    CannotAsk,
    /// A rule holds and the client asks in its next call (revision 2026-07-28): the
    /// question to put to the person.
    Later(String),
    /// The person declined or dismissed the question: the command refuses headless.
    Declined,
    /// The client came back without a usable answer (none, or not the form asked for), or
    /// not in time: the command refuses headless.
    Unanswered,
    /// The person typed a name: the flags that answer the rule (the command checks them).
    Answered(Vec<String>),
}

impl Asked {
    /// The person typed `name` in `context`: the command gets `--confirm-context` (never
    /// `--yes`, which a `confirm` rule takes whatever was typed). The name is compared here,
    /// exactly: the command splits `--confirm-context` at commas and trims each part (a
    /// person's list of contexts), so `nope,admin` or `admin ` would pass it. A name that is
    /// not the context's goes as the context's name with a suffix — no part of it is the
    /// context's name — so the command refuses it and journals a wrong name.
    pub fn typed(name: &str, context: &str) -> Asked {
        let given = if name == context {
            context.to_string()
        } else {
            format!("{context}~typed-otherwise")
        };
        Asked::Answered(vec![format!("--confirm-context={given}")])
    }
}

/// What a person types to confirm a change in a protected context (MCP elicitation).
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct Confirmation {
    /// Type the context's name to make this change there.
    pub context: String,
}
rmcp::elicit_safe!(Confirmation);

/// What a tool call carries back after an `InputRequiredResult`: the `requestState` this
/// server gave (a one-time handle of the question) and the client's answers.
#[derive(Debug, Default)]
pub struct Retry {
    /// The `requestState` echoed by the client.
    pub state: Option<String>,
    /// The `inputResponses`: the person's answer under [`QUESTION`].
    pub responses: Option<rmcp::model::InputResponses>,
}

impl<S> FromContextPart<ToolCallContext<'_, S>> for Retry {
    fn from_context_part(context: &mut ToolCallContext<S>) -> Result<Self, rmcp::ErrorData> {
        Ok(Retry {
            state: context.request_state.take(),
            responses: context.input_responses.take(),
        })
    }
}

impl Retry {
    /// The person's answer to the question about `context` (pure): an accepted name goes
    /// as [`Asked::typed`]; a decline or a cancel is [`Asked::Declined`]; no answer, or one
    /// not of the form asked for, is [`Asked::Unanswered`]. Both leave the command to refuse
    /// headless.
    pub fn answer(&self, context: &str) -> Asked {
        let Some(answer) = self.responses.as_ref().and_then(|r| r.get(QUESTION)) else {
            return Asked::Unanswered;
        };
        match (
            answer.get("action").and_then(Value::as_str),
            answer.pointer("/content/context").and_then(Value::as_str),
        ) {
            (Some("accept"), Some(name)) => Asked::typed(name, context),
            (Some("decline" | "cancel"), _) => Asked::Declined,
            _ => Asked::Unanswered,
        }
    }
}

/// The call's answer that asks the person `question` (revision 2026-07-28): one form
/// elicitation for the context's name and `state`, the handle the client sends back.
pub fn input_required(question: String, state: String) -> InputRequiredResult {
    let schema = ElicitationSchema::from_type::<Confirmation>()
        .unwrap_or_else(|_| ElicitationSchema::builder().build_unchecked());
    let request = InputRequest::Elicitation(ElicitRequest::new(
        ElicitRequestParams::FormElicitationParams {
            meta: None,
            message: question,
            requested_schema: schema,
        },
    ));
    let mut requests = InputRequests::new();
    requests.insert(QUESTION.into(), request);
    InputRequiredResult::new(Some(requests), Some(state))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn retry(answer: Option<Value>) -> Retry {
        Retry {
            state: Some("q".into()),
            responses: answer.map(|a| [(QUESTION.to_string(), a)].into_iter().collect()),
        }
    }

    #[test]
    fn an_accepted_answer_gives_the_typed_name_to_the_command_and_anything_else_refuses() {
        let answer = |a: Value| retry(Some(a)).answer("prod");
        let typed = |name: &str| json!({"action": "accept", "content": {"context": name}});
        assert_eq!(
            answer(typed("prod")),
            Asked::Answered(vec!["--confirm-context=prod".into()])
        );
        assert_eq!(answer(json!({"action": "decline"})), Asked::Declined);
        assert_eq!(
            answer(json!({"action": "decline", "content": {"context": "prod"}})),
            Asked::Declined
        );
        assert_eq!(answer(json!({"action": "cancel"})), Asked::Declined);
        assert_eq!(retry(None).answer("prod"), Asked::Unanswered);
        assert_eq!(answer(json!({"action": "accept"})), Asked::Unanswered);
        assert_eq!(
            answer(json!({"action": "accept", "content": {"context": 5}})),
            Asked::Unanswered
        );
    }

    #[test]
    fn a_typed_list_with_the_context_or_the_name_with_spaces_passed_the_commands_check() {
        let wrong = Asked::Answered(vec!["--confirm-context=prod~typed-otherwise".into()]);
        for name in [
            "nope,prod",
            "prod,",
            "prod ",
            " prod",
            "prod\n",
            "prod\0",
            "PROD",
            "",
        ] {
            assert_eq!(Asked::typed(name, "prod"), wrong, "{name:?}");
        }
        let long = "p".repeat(200_000);
        assert_eq!(Asked::typed(&long, "prod"), wrong);
    }

    #[test]
    fn the_question_asks_for_the_context_name_and_carries_its_handle() {
        let r = serde_json::to_value(input_required("Type it".into(), "h1".into())).unwrap();
        assert_eq!(r["resultType"], "input_required");
        assert_eq!(r["requestState"], "h1");
        let q = &r["inputRequests"][QUESTION];
        assert_eq!(q["method"], "elicitation/create");
        assert_eq!(q["params"]["message"], "Type it");
        assert_eq!(
            q["params"]["requestedSchema"]["required"],
            json!(["context"])
        );
    }
}
