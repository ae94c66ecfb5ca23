//! Protected contexts and namespaces on the guarded path (docs/protection.md).
//!
//! Every mutating request is journaled through [`Session::journaled_with`] or a batch's
//! group commit, and both take an [`Admitted`] intent, which only [`Session::admit`] makes:
//! a change cannot be sent without passing here, whatever verb asks for it. `admit` judges
//! the change with plugin.yaml `protect:` ([`crate::rules::protect::protection`]); where a
//! rule holds it answers, in this order:
//! 1. `block`: refused (exit 3), whatever the flags, lifts or terminal;
//! 2. `requireReason` without `--reason`: refused (exit 3);
//! 3. the same rules already answered in this session (one question per command);
//! 4. a lift in force for the context (and namespace) — never for `block`;
//! 5. a fan-out wave's one question ([`crate::settings::ProtectAnswers::answered`]);
//! 6. `--yes` (`confirm`) or `--confirm-context NAME` equal to the context (`type-name`, or
//!    `confirm`); a `--confirm-context` naming another context is refused;
//! 7. the terminal: the change is sent as a server-side dry run, what would change is shown,
//!    and the question asked ([`terminal`]); without a terminal, refused (fail-closed).
//!    Ctrl-C at the question ends the command as it ends kubectl (exit 130): nothing was sent.
//!
//! A refusal is one complete record in the change log and nothing is sent; how a rule was
//! answered is journaled with the change ([`crate::changelog::Entry::protection`]). A dry
//! run (`--dry-run=server|client`) changes nothing and is never asked about.

pub mod lifts;
mod question;
mod refusal;
pub mod terminal;
mod verb;

use question::{Question, describe, messages, object_of, preview_lines, rule_names};
pub use refusal::ProtectError;
pub use verb::{effect_of, protect_verb};

use std::future::Future;

use serde_json::Value;

use super::GuardError;
use super::session::{Refusal, Session};
use crate::base::echo;
use crate::changelog::{Entry, Operation};
use crate::rules::protect::{ProtectMode, Protected, Scope, protection};
use terminal::{Answer, Terminal};

/// An intent record that passed [`Session::admit`]: the only thing the guarded path journals
/// and sends.
#[derive(Debug, Clone)]
pub struct Admitted(Entry);

impl Admitted {
    /// The intent record.
    pub fn entry(&self) -> &Entry {
        &self.0
    }

    /// The intent record, to journal.
    pub(crate) fn into_entry(self) -> Entry {
        self.0
    }
}

impl Session<'_> {
    /// Passes the change journaled as `intent` through plugin.yaml `protect:` (see the module
    /// doc): the admitted intent, carrying how a rule that held was answered. `dry_run` is the
    /// same request as a server-side dry run, answering the object as the server would store
    /// it (`Null` for a delete); it is sent only when a question is asked, to show what would
    /// change against `before`. Never asks about a dry run.
    ///
    /// # Errors
    /// [`GuardError::Protected`] after the refusal's complete record ([`ProtectError`]: exit
    /// 3), [`GuardError::Journal`] when that record cannot be written.
    pub async fn admit<F>(
        &self,
        mut intent: Entry,
        before: Option<&Value>,
        dry_run: F,
    ) -> Result<Admitted, GuardError>
    where
        F: Future<Output = Result<Value, kube::Error>>,
    {
        if intent.dry_run {
            return Ok(Admitted(intent));
        }
        let scope = Scope::of_object(
            self.context(),
            self.server(),
            (&intent.kind, intent.namespace.as_deref(), &intent.name),
            protect_verb(intent.operation),
            effect_of(&intent),
        );
        let Some(p) = protection(&self.settings().plugin.protect, &scope) else {
            if let Some(refusal) = self.meant_elsewhere(&intent, &scope) {
                self.journal_complete(intent, refusal.result().to_string())
                    .await?;
                return Err(GuardError::Protected(refusal));
            }
            return Ok(Admitted(intent));
        };
        match self
            .answer(&p, &scope, &intent, before, Some(dry_run))
            .await
        {
            Ok(how) => {
                intent.protection = Some(how);
                Ok(Admitted(intent))
            }
            Err(refusal) => {
                let result = refusal.result().to_string();
                self.journal_complete(intent, result).await?;
                Err(GuardError::Protected(refusal))
            }
        }
    }

    /// Refuses now — journaled as [`Session::admit`] would — a change described by `intent`
    /// that protection refuses without asking (`block`, a missing reason, no terminal and no
    /// flag, another context named), for a command that would otherwise do work first that
    /// the refusal makes pointless: `edit` before its editor opens, a namespace or CRD delete
    /// before its snapshots are journaled. A change that would be asked about, or is
    /// answered, goes on (its admission comes with its request).
    ///
    /// # Errors
    /// As [`Session::admit`].
    pub async fn refuse_early(&self, intent: super::change::Intent<'_>) -> Result<(), GuardError> {
        let intent = self.intent(intent).await;
        if intent.dry_run {
            return Ok(());
        }
        let scope = Scope::of_object(
            self.context(),
            self.server(),
            (&intent.kind, intent.namespace.as_deref(), &intent.name),
            protect_verb(intent.operation),
            effect_of(&intent),
        );
        let refusal = match protection(&self.settings().plugin.protect, &scope) {
            None => self.meant_elsewhere(&intent, &scope),
            Some(p) => {
                let never = None::<std::future::Ready<Result<Value, kube::Error>>>;
                self.answer(&p, &scope, &intent, None, never).await.err()
            }
        };
        match refusal {
            None => Ok(()),
            Some(r) => {
                self.journal_complete(intent, r.result().to_string())
                    .await?;
                Err(GuardError::Protected(r))
            }
        }
    }

    /// The refusal of a change where no rule holds but `--confirm-context` names other
    /// contexts than this one (a single-context command: a fan-out's list names only its
    /// protected contexts).
    fn meant_elsewhere(&self, intent: &Entry, scope: &Scope<'_>) -> Option<ProtectError> {
        let answers = &self.settings().protect;
        let here = scope.context.unwrap_or(scope.server).trim();
        (answers.terminal
            && !answers.confirm_context.is_empty()
            && !answers.confirm_context.iter().any(|c| c.trim() == here))
        .then(|| ProtectError::NotThisContext {
            what: describe(intent, scope),
            given: quoted_list(&answers.confirm_context),
        })
    }

    /// How the rules `p` are answered for `intent`, or why they are not. Without `dry_run`
    /// nothing is asked: where the question would come, the answer is an empty `how` (see
    /// [`Session::refuse_early`]).
    async fn answer<F>(
        &self,
        p: &Protected,
        scope: &Scope<'_>,
        intent: &Entry,
        before: Option<&Value>,
        dry_run: Option<F>,
    ) -> Result<String, ProtectError>
    where
        F: Future<Output = Result<Value, kube::Error>>,
    {
        let what = describe(intent, scope);
        let rules = rule_names(&p.rules);
        let message = messages(p);
        if p.mode == ProtectMode::Block {
            return Err(self.blocked(p, what));
        }
        let answers = &self.settings().protect;
        if p.require_reason && answers.reason.is_none() {
            return Err(ProtectError::NoReason { what, rules });
        }
        if let Some(how) = self.answered_before(p, scope, &object_of(intent)) {
            return Ok(how);
        }
        if let Some(refusal) = self.refused_before(p, &what) {
            return Err(refusal);
        }
        // A lift is judged for every change: it covers its own namespace, not the command.
        if let Some(how) = self.lifted(p, scope, &what) {
            return Ok(how);
        }
        let context = scope.context.unwrap_or_default();
        let by_wave = answers.answered.iter().any(|w| {
            w.context == context
                && scope.namespace == Some(w.namespace.as_str())
                && p.rules.iter().all(|r| w.rules.contains(r))
        });
        if by_wave {
            return Ok(self.remember(p, scope, "answered for the fan-out wave".into()));
        }
        if answers.yes && p.mode == ProtectMode::Confirm {
            self.note(&format!(
                "note: {what} is protected ({rules}); going on: --yes"
            ));
            return Ok(self.remember(p, scope, "--yes".into()));
        }
        if !answers.confirm_context.is_empty() {
            if answers
                .confirm_context
                .iter()
                .any(|c| c.trim() == context.trim())
            {
                self.note(&format!(
                    "note: {what} is protected ({rules}); going on: --confirm-context"
                ));
                return Ok(self.remember(p, scope, "--confirm-context".into()));
            }
            return Err(ProtectError::WrongContext {
                what,
                rules,
                given: quoted_list(&answers.confirm_context),
                context: echo::quoted(context),
            });
        }
        let tty = answers.terminal.then(Terminal::open).flatten();
        let Some(mut tty) = tty else {
            let flag = match p.mode {
                ProtectMode::TypeName => format!("--confirm-context {}", echo::quoted(context)),
                _ => "--yes".to_string(),
            };
            return Err(ProtectError::Headless {
                what,
                rules,
                mode: p.mode.as_str(),
                message,
                flag,
            });
        };
        let Some(dry_run) = dry_run else {
            return Ok(String::new());
        };
        let preview = match dry_run.await {
            Ok(after) => preview_lines(intent, before, &after),
            Err(e) => vec![format!(
                "the server-side dry run failed: {}",
                echo::escaped(&e.to_string())
            )],
        };
        let plan = self.protect_state().plan.clone();
        let question = Question {
            plan: &plan,
            what: &what,
            rules: &rules,
            p,
            intent,
            scope,
            preview: &preview,
        };
        let refusal = match question.ask(&mut tty) {
            Answer::Line(a) if question.accepts(&a) => {
                let mut named: std::collections::BTreeSet<String> = plan.into_iter().collect();
                named.insert(object_of(intent));
                let how = self.remember(p, scope, "confirmed on the terminal".into());
                self.protect_state().covered = Some(named);
                return Ok(how);
            }
            Answer::Line(_) => ProtectError::Declined { what },
            Answer::Closed => ProtectError::Closed { what },
        };
        // One answer per command: the rest of it is refused the same way, not asked again.
        let kind = match refusal {
            ProtectError::Closed { .. } => Refusal::Closed,
            _ => Refusal::Declined,
        };
        let mut a = self.protect_state();
        for r in &p.rules {
            a.refused.insert(*r, kind);
        }
        Err(refusal)
    }

    /// The refusal given at the terminal earlier in this session for one of `p`'s rules,
    /// worded for `what`.
    fn refused_before(&self, p: &Protected, what: &str) -> Option<ProtectError> {
        let a = self.protect_state();
        let earlier = p.rules.iter().find_map(|r| a.refused.get(r))?;
        let what = what.to_string();
        Some(match earlier {
            Refusal::Closed => ProtectError::Closed { what },
            Refusal::Declined => ProtectError::Declined { what },
        })
    }

    /// Whether a plugin.yaml `protect:` rule holds for a change journaled as `operation` of
    /// `obj` (pure): a verb shows its fullest preview then (a single delete names its
    /// dependents, as a delete of several objects always does), ahead of the question.
    pub fn protects(&self, operation: Operation, obj: &super::change::ObjectRef) -> bool {
        let scope = Scope::of_object(
            self.context(),
            self.server(),
            (&obj.t.api.kind, obj.namespace.as_deref(), &obj.name),
            protect_verb(operation),
            None,
        );
        protection(&self.settings().plugin.protect, &scope).is_some()
    }

    /// Names the objects the command goes on to change (`kind/name`), so that a protection
    /// question asked at the first of them names them all: one answer covers the command.
    /// Called where a command learns its objects ([`Session::gather`], a batch apply).
    pub fn plan_changes(&self, objects: impl Iterator<Item = String>) {
        // Without rules no question is ever asked: nothing to name (a delete of 1,000 objects
        // builds no list).
        if !self.settings().plugin.protect.is_empty() {
            self.protect_state().plan = objects.collect();
        }
    }

    /// The refusal of a change `what` that a `block` rule of `p` holds for, naming only the
    /// block rules and their messages.
    fn blocked(&self, p: &Protected, what: String) -> ProtectError {
        let all = &self.settings().plugin.protect;
        let blocking: Vec<usize> = p
            .rules
            .iter()
            .copied()
            .filter(|i| all.get(*i).is_some_and(|r| r.mode == ProtectMode::Block))
            .collect();
        let message: Vec<String> = blocking
            .iter()
            .filter_map(|i| all[*i].message.as_deref())
            .map(echo::escaped)
            .collect();
        ProtectError::Blocked {
            what,
            rules: rule_names(&blocking),
            message: match message.is_empty() {
                true => String::new(),
                false => format!(": {}", message.join("; ")),
            },
        }
    }

    /// How `p`'s rules were answered earlier in this session for the namespace of `scope`,
    /// if every one of them was: an answer covers the command's changes in the namespace the
    /// question named, not elsewhere, and an answer at the terminal only the objects its
    /// question named (`object`, `kind.group/name`).
    fn answered_before(&self, p: &Protected, scope: &Scope<'_>, object: &str) -> Option<String> {
        let a = self.protect_state();
        let ns = scope.namespace.map(str::to_string);
        let named = a.covered.as_ref().is_none_or(|c| c.contains(object));
        (named && p.rules.iter().all(|r| a.rules.contains(&(*r, ns.clone()))))
            .then(|| a.how.clone())
            .flatten()
    }

    /// Records that `p`'s rules are answered, as `how`, for the rest of the session's changes
    /// in the namespace of `scope`.
    fn remember(&self, p: &Protected, scope: &Scope<'_>, how: String) -> String {
        let mut a = self.protect_state();
        let ns = scope.namespace.map(str::to_string);
        a.rules.extend(p.rules.iter().map(|r| (*r, ns.clone())));
        a.how = Some(how.clone());
        how
    }

    /// The lift in force for `scope` under `p`, as the journal's `protection` text, noted on
    /// stderr for `what`; warns (once) about lifts that are stored but not honoured.
    fn lifted(&self, p: &Protected, scope: &Scope<'_>, what: &str) -> Option<String> {
        let (lifts, warnings) = {
            let mut a = self.protect_state();
            match &a.lifts {
                Some(l) => (l.clone(), Vec::new()),
                None => {
                    let (l, w) = lifts::load(&self.settings().home);
                    a.lifts = Some(l.clone());
                    (l, w)
                }
            }
        };
        for w in warnings {
            self.note(&w);
        }
        let now = jiff::Timestamp::now();
        for lift in lifts.iter().filter(|l| l.covers(scope)) {
            match lift.in_force(now, p.max_lift) {
                Ok(true) => {
                    let how = format!(
                        "lifted until {} (lift {})",
                        lift.until,
                        echo::escaped(&lift.id)
                    );
                    self.note(&format!(
                        "note: {what} is protected ({}); {how}",
                        rule_names(&p.rules)
                    ));
                    return Some(how);
                }
                Ok(false) => {}
                Err(problem) => self.note(&format!("warning: {problem}")),
            }
        }
        None
    }

    /// Prints `line` to stderr once per session.
    fn note(&self, line: &str) {
        if self.protect_state().noted.insert(line.to_string()) {
            eprintln!("{line}");
        }
    }
}

/// `"a", "b"`: the `--confirm-context` names as a refusal quotes them (escaped).
fn quoted_list(names: &[String]) -> String {
    names
        .iter()
        .map(|c| echo::quoted(c))
        .collect::<Vec<_>>()
        .join(", ")
}
