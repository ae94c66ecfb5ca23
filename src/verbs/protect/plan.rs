//! What `protect lift|end|status` decide, pure: which rules hold where, the longest lift
//! they allow, and the stored lifts after a lift or an end.

use std::time::Duration;

use crate::rules::policy::glob_match;
use crate::rules::protect::{Lift, ProtectMode, ProtectRule};

/// Why nothing can be lifted where a lift was asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoLift {
    /// No rule holds for the context and server (and namespace): nothing to lift.
    NoRule,
    /// Every rule that holds is `block`, which a lift never lifts; the indices of those
    /// rules in `protect:` (0-based).
    OnlyBlock(Vec<usize>),
}

/// The rules of `protect:` that are about `context` on `server` (whatever their namespaces
/// and verbs), with their indices (0-based), in order: what `protect status` lists.
pub fn holding<'r>(
    rules: &'r [ProtectRule],
    context: Option<&str>,
    server: &str,
) -> Vec<(usize, &'r ProtectRule)> {
    rules
        .iter()
        .enumerate()
        .filter(|(_, r)| r.holds_for(context, server))
        .collect()
}

/// Whether `rule` can hold in `namespace`: every rule when the lift is of the whole context
/// (`None`), else a rule without `namespaces` or with a glob matching it.
pub fn admits(rule: &ProtectRule, namespace: Option<&str>) -> bool {
    match (namespace, &rule.namespaces) {
        (None, _) | (_, None) => true,
        (Some(ns), Some(globs)) => globs.iter().any(|g| glob_match(g, ns)),
    }
}

/// The longest lift allowed for `context` on `server` in `namespace` (`None`: the whole
/// context): the shortest `maxLift` of the rules that can hold there and that a lift lifts
/// (every mode but `block`). That is the `maxLift` the guarded path judges the lift against
/// in each scope it covers ([`Lift::in_force`]), so a lift within it is never ignored there
/// as too long; a scope where a `block` rule holds is refused whatever the lift.
///
/// # Errors
/// [`NoLift::NoRule`] when no rule can hold there; [`NoLift::OnlyBlock`] when every rule
/// that can is `block`, or when a `block` rule of every verb holds in the whole scope (the
/// strictest rule wins, so nothing there could be lifted).
pub fn lift_limit(
    rules: &[ProtectRule],
    context: Option<&str>,
    server: &str,
    namespace: Option<&str>,
) -> Result<Duration, NoLift> {
    let there: Vec<(usize, &ProtectRule)> = holding(rules, context, server)
        .into_iter()
        .filter(|(_, r)| admits(r, namespace))
        .collect();
    if there.is_empty() {
        return Err(NoLift::NoRule);
    }
    // A block rule of every verb that holds in the whole scope refuses every change there:
    // the lift would lift nothing, whatever the other rules ask.
    let blocking: Vec<usize> = there
        .iter()
        .filter(|(_, r)| {
            r.mode == ProtectMode::Block
                && r.verbs.is_none()
                && (r.namespaces.is_none() || namespace.is_some())
        })
        .map(|(i, _)| *i)
        .collect();
    if !blocking.is_empty() {
        return Err(NoLift::OnlyBlock(blocking));
    }
    there
        .iter()
        .filter(|(_, r)| r.mode != ProtectMode::Block)
        .map(|(_, r)| r.max_lift)
        .min()
        .ok_or_else(|| NoLift::OnlyBlock(there.iter().map(|(i, _)| *i).collect()))
}

/// The rules that can hold for `context` on `server` in `namespace` (`None`: the whole
/// context) and require a reason, by their indices in `protect:` (0-based): a lift of their scope needs a
/// `--reason` too, since it stands in for the questions those rules ask.
pub fn reasons_required(
    rules: &[ProtectRule],
    context: Option<&str>,
    server: &str,
    namespace: Option<&str>,
) -> Vec<usize> {
    holding(rules, context, server)
        .into_iter()
        .filter(|(_, r)| r.require_reason && r.mode != ProtectMode::Block && admits(r, namespace))
        .map(|(i, _)| i)
        .collect()
}

/// The stored lifts after `new` is granted at `now` (pure): a lift of the same context and
/// namespace is replaced, lifts that have ended (their `until` passed) are dropped, every
/// other lift is kept as it is.
pub fn with_lift(stored: Vec<Lift>, new: Lift, now: jiff::Timestamp) -> Vec<Lift> {
    let mut out: Vec<Lift> = stored
        .into_iter()
        .filter(|l| l.until > now)
        .filter(|l| !(l.context == new.context && l.namespace == new.namespace))
        .collect();
    out.push(new);
    out
}

/// The stored lifts split by `protect end` (pure): `(kept, ended)`. Ended are the lifts of
/// `context` — every one of them when `namespace` is `None`, else the one of that namespace;
/// lifts that have ended on their own by `now` are dropped from `kept` and not counted as
/// ended.
pub fn without_lifts(
    stored: Vec<Lift>,
    context: &str,
    namespace: Option<&str>,
    now: jiff::Timestamp,
) -> (Vec<Lift>, Vec<Lift>) {
    stored.into_iter().filter(|l| l.until > now).partition(|l| {
        !(l.context == context && namespace.is_none_or(|ns| l.namespace.as_deref() == Some(ns)))
    })
}

/// How `protect status` judges a stored lift of the current context.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Judged {
    /// In force: changes in its scope need no confirmation until its `until`.
    InForce,
    /// It has ended.
    Ended,
    /// Not honoured, and why (one sentence).
    Ignored(String),
}

/// Judges `lift` of the current `context` on `server` at `now` against today's `rules`
/// (pure): ignored when it was granted for another server, when no rule it could lift holds
/// any more, or when [`Lift::in_force`] refuses it (too long for today's `maxLift`, or
/// granted in the future).
pub fn judge(
    lift: &Lift,
    rules: &[ProtectRule],
    context: &str,
    server: &str,
    now: jiff::Timestamp,
) -> Judged {
    let echo = |s: &str| crate::base::echo::capped(s, 200);
    if lift.server != server {
        return Judged::Ignored(format!(
            "the lift {} of context {} was granted for server {}, and the context points at {} now, so it is ignored",
            echo(&lift.id),
            echo(context),
            echo(&lift.server),
            echo(server)
        ));
    }
    match lift_limit(rules, Some(context), server, lift.namespace.as_deref()) {
        Err(_) => Judged::Ignored(format!(
            "the lift {} of context {} lifts nothing: no rule it could lift holds there now",
            echo(&lift.id),
            echo(context)
        )),
        Ok(max) => match lift.in_force(now, max) {
            Ok(true) => Judged::InForce,
            Ok(false) => Judged::Ended,
            Err(problem) => Judged::Ignored(problem.to_string()),
        },
    }
}

#[cfg(test)]
mod tests;
