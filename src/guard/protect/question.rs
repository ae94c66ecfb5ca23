//! What a protection question and refusal say (pure): the change described, the rules named,
//! the dry run's preview, and the question on the terminal.

use serde_json::Value;

use super::terminal::{Answer, Terminal};
use super::verb::protect_verb;
use crate::base::echo;
use crate::changelog::{Entry, Operation};
use crate::rules::protect::{ProtectMode, Protected, Scope};

/// kubectl's `kind.group/name` of the object of `intent` (`deployment.apps/web`), core
/// types without a group: as [`crate::guard::ObjectRef::display`] names it in a plan.
pub(super) fn object_of(intent: &Entry) -> String {
    match intent.api_version.split_once('/') {
        Some((group, _)) => format!("{}.{group}/{}", intent.kind.to_lowercase(), intent.name),
        None => format!("{}/{}", intent.kind.to_lowercase(), intent.name),
    }
}

/// `scale deployment.apps/web in namespace "shop" of context "prod"` (escaped).
pub(super) fn describe(intent: &Entry, scope: &Scope<'_>) -> String {
    let verb = protect_verb(intent.operation).as_str();
    format!(
        "{verb} {} {}",
        echo::escaped(&object_of(intent)),
        where_of(scope)
    )
}

/// `in namespace "shop" of context "prod"`, or `of context "prod"`.
pub(super) fn where_of(scope: &Scope<'_>) -> String {
    let context = match scope.context {
        Some(c) => format!("context {}", echo::quoted(c)),
        None => format!("server {}", echo::quoted(scope.server)),
    };
    match scope.namespace {
        Some(ns) => format!("in namespace {} of {context}", echo::quoted(ns)),
        None => format!("of {context}"),
    }
}

/// `protect[0]` or `protect[0], protect[2]`.
pub(super) fn rule_names(rules: &[usize]) -> String {
    rules
        .iter()
        .map(|i| format!("protect[{i}]"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `: message; message` (escaped), or empty.
pub(super) fn messages(p: &Protected) -> String {
    if p.messages.is_empty() {
        return String::new();
    }
    let m: Vec<String> = p.messages.iter().map(|m| echo::escaped(m)).collect();
    format!(": {}", m.join("; "))
}

/// The most objects a question names; the rest is counted.
const PLAN_SHOWN: usize = 10;

/// The most lines of a preview shown; the rest is counted.
const PREVIEW_LINES: usize = 40;

/// What the dry run shows would change (pure): the structured diff of `before` and the
/// dry run's `after` (Secrets masked), `deleted` for a delete, `created` for a create.
pub(super) fn preview_lines(intent: &Entry, before: Option<&Value>, after: &Value) -> Vec<String> {
    let mut lines = match intent.operation {
        Operation::Delete | Operation::CrdPrune => vec!["the object is deleted".to_string()],
        _ => match before {
            None => {
                let mut l = vec!["the object is created".to_string()];
                l.extend(crate::rules::diff::render_for(
                    &intent.kind,
                    &serde_json::json!({}),
                    after,
                ));
                l
            }
            Some(b) => crate::rules::diff::render_for(&intent.kind, b, after),
        },
    };
    if lines.is_empty() {
        lines.push("nothing changes".to_string());
    }
    let more = lines.len().saturating_sub(PREVIEW_LINES);
    lines.truncate(PREVIEW_LINES);
    if more > 0 {
        lines.push(format!("… and {more} more lines"));
    }
    lines.into_iter().map(|l| echo::escaped(&l)).collect()
}

/// The question on the terminal for one change.
pub(super) struct Question<'a> {
    pub(super) plan: &'a [String],
    pub(super) what: &'a str,
    pub(super) rules: &'a str,
    pub(super) p: &'a Protected,
    pub(super) intent: &'a Entry,
    pub(super) scope: &'a Scope<'a>,
    pub(super) preview: &'a [String],
}

impl Question<'_> {
    /// Shows the change and asks; the answer.
    pub(super) fn ask(&self, tty: &mut Terminal) -> Answer {
        let mut text = format!(
            "PROTECTED  {}\n  rule:      {} ({}){}\n  server:    {}\n  user:      {}\n",
            self.what,
            self.rules,
            self.p.mode.as_str(),
            messages(self.p),
            echo::escaped(self.scope.server),
            echo::escaped(&self.intent.user),
        );
        if let Some(r) = &self.intent.reason {
            text.push_str(&format!("  reason:    {}\n", echo::escaped(r)));
        }
        if self.plan.len() > 1 {
            let shown: Vec<String> = self
                .plan
                .iter()
                .take(PLAN_SHOWN)
                .map(|o| echo::bare(o))
                .collect();
            let more = match self.plan.len().saturating_sub(PLAN_SHOWN) {
                0 => String::new(),
                n => format!(" and {n} more"),
            };
            text.push_str(&format!(
                "  objects:   {} in all: {}{more} (the first is previewed; one answer covers them all)\n",
                self.plan.len(),
                shown.join(", ")
            ));
        }
        text.push_str("  preview (server dry run):\n");
        for l in self.preview {
            text.push_str(&format!("    {l}\n"));
        }
        let prompt = match self.p.mode {
            ProtectMode::TypeName => format!(
                "Type the context name {} to go on: ",
                echo::quoted(self.name_to_type())
            ),
            _ => "Go on? [y/N]: ".to_string(),
        };
        text.push_str(&prompt);
        tty.ask(&text)
    }

    /// The name `type-name` asks for: the context's, or the server's URL where there is no
    /// context (an in-cluster configuration).
    fn name_to_type(&self) -> &str {
        self.scope.context.unwrap_or(self.scope.server)
    }

    /// Whether `answer` says yes: the context's name for `type-name`, `y`/`yes` otherwise.
    pub(super) fn accepts(&self, answer: &str) -> bool {
        match self.p.mode {
            ProtectMode::TypeName => answer.trim() == self.name_to_type().trim(),
            _ => matches!(answer.trim().to_ascii_lowercase().as_str(), "y" | "yes"),
        }
    }
}
