//! `rollback --session ID` on the fleet layer: every change of one invocation (e.g. a patch
//! fanned out over several contexts), each rolled back in the context it was made in — a
//! session of its own per context and server (journal, boundary, SelfSubjectAccessReview,
//! deadline; [`Session::open_for_entry`], refused when the context now points at another
//! server than the entries') — with the same rules as `rollback ID` (conflicts, `--force`,
//! `--dry-run`). Unlike the fan-out of [`super::run`], the changes are undone one at a time,
//! newest first across the contexts ([`SessionPlan::order`]: two contexts may point at the
//! same object). A failure never stops the others: each is one stderr line naming its
//! context and entry, and the exit code is the most severe of them
//! ([`ExitStatus::most_severe`]).

use crate::changelog::{self, Entry};
use crate::cli::{DryRun, RollbackArgs};
use crate::config::Verb;
use crate::exit::ExitStatus;
use crate::guard::Session;
use crate::output::{Chunk, Printer};
use crate::settings::Settings;
use crate::verbs::rollback::{self, ContextChanges, SessionPlan, plan_session, roll_back_entry};
use crate::verbs::{Outcome, SessionRollbackError, VerbError};

/// Runs `rollback --session` (`args.session`), after the change log was read and checked
/// ([`rollback::read_journal`]).
///
/// Errors in the [`Outcome`]: [`SessionRollbackError`], or the change log's.
pub async fn run(s: &Settings, args: &RollbackArgs, p: &mut Printer<'_>) -> Outcome {
    let Some(session_id) = args.session.as_deref() else {
        return crate::verbs::rollback::run(s, args, p).await;
    };
    let entries = match rollback::read_journal(s, p, |entries| {
        entries
            .iter()
            .filter(|e| e.session == session_id)
            .map(|e| e.id.clone())
            .collect()
    }) {
        Ok(x) => x,
        Err(e) => return Outcome::early(e),
    };
    run_session(s, &entries, session_id, args, p).await
}

/// How the entries of a session rollback ended so far.
#[derive(Default)]
struct Tally {
    failed: Vec<ExitStatus>,
    restored: usize,
    resources: Vec<String>,
}

async fn run_session(
    s: &Settings,
    entries: &[Entry],
    session_id: &str,
    args: &RollbackArgs,
    p: &mut Printer<'_>,
) -> Outcome {
    let plan = match plan_session(entries, session_id) {
        Ok(x) => x,
        Err(e) => return Outcome::early(e),
    };
    let total = plan.refused.len() + plan.contexts.iter().map(|c| c.entries.len()).sum::<usize>();
    let mut tally = Tally::default();
    for e in &plan.refused {
        p.err_line(&format!("error: {e}"));
        tally.failed.push(e.exit_status());
    }
    if plan.unchanged > 0 {
        p.err_line(&format!(
            "note: {} entr{} of session {session_id} changed nothing (dry runs or failed attempts) and {} skipped",
            plan.unchanged,
            if plan.unchanged == 1 { "y" } else { "ies" },
            if plan.unchanged == 1 { "is" } else { "are" },
        ));
    }
    // This rollback's own entries share one session id too (so it can itself be undone with
    // `rollback --session`).
    let own_session = s
        .session_id
        .clone()
        .unwrap_or_else(changelog::new_session_id);
    let mut base = s.clone();
    base.session_id = Some(own_session.clone());
    let sessions = open_sessions(&base, &plan, &mut tally, p).await;
    // Newest first across the contexts: two contexts may point at the same object.
    for &(g, i) in &plan.order {
        let Some(session) = &sessions[g] else {
            continue;
        };
        let entry = &plan.contexts[g].entries[i];
        let (resource, result) = in_context(plan.contexts[g].context.as_deref(), p, async |cp| {
            roll_back_entry(session, entry, args, true, cp).await
        })
        .await;
        if result.is_ok() {
            tally.restored += 1;
        }
        tally
            .resources
            .extend(resource.filter(|r| !tally.resources.contains(r)));
        if let Err(e) = result {
            p.err_line(&format!(
                "error: {}: entry {}: {e}",
                label(&plan.contexts[g]),
                entry.id
            ));
            tally.failed.push(e.exit_status());
        }
    }
    drop(sessions);
    let resource = (!tally.resources.is_empty()).then(|| tally.resources.join(","));
    // Only when this rollback changed something that its own session can undo (not after a
    // dry run, nor when every entry failed or had nothing to roll back).
    if args.dry_run.strategy == DryRun::None
        && changelog::read_all(&s.home).is_ok_and(|(entries, _)| {
            plan_session(&entries, &own_session).is_ok_and(|p| !p.contexts.is_empty())
        })
    {
        p.err_line(&format!(
            "to undo this rollback: kubectl myops rollback --session {own_session}"
        ));
    }
    let result = if tally.failed.is_empty() {
        Ok(())
    } else {
        Err(SessionRollbackError::Incomplete {
            session: crate::base::echo::capped(session_id, 64),
            failed: tally.failed.len(),
            total,
            done: tally.restored,
            status: ExitStatus::most_severe(tally.failed),
        }
        .into())
    };
    Outcome { resource, result }
}

/// `context NAME`, or `the current context` for entries that recorded none.
fn label(group: &ContextChanges) -> String {
    match &group.context {
        Some(c) => format!("context {}", crate::base::echo::capped(c, 100)),
        None => "the current context".to_string(),
    }
}

/// One session per context (and server) of `plan`, in its order; a context that cannot be
/// used — it cannot be opened, or it points at another server now — is reported once for
/// all its entries (`None`, nothing sent there).
async fn open_sessions<'s>(
    base: &'s Settings,
    plan: &SessionPlan,
    tally: &mut Tally,
    p: &mut Printer<'_>,
) -> Vec<Option<Session<'s>>> {
    let mut sessions = Vec::with_capacity(plan.contexts.len());
    for group in &plan.contexts {
        // A group of delete entries is undone by undeletes, which plugin.yaml verb `delete`
        // bounds; any other change by a patch or a create that `patch` bounds.
        let verb = if group
            .entries
            .iter()
            .all(|e| e.operation == crate::changelog::Operation::Delete)
        {
            Verb::Delete
        } else {
            Verb::Patch
        };
        let opened =
            Session::open_for_entry(base, p, verb, group.context.as_deref(), &group.server).await;
        let n = group.entries.len();
        match opened {
            Ok((session, None)) => sessions.push(Some(session)),
            Ok((_, Some(moved))) => {
                p.err_line(&format!(
                    "error: {}: {n} change(s) not rolled back: the context now points at {}, but they were made on {}; nothing was sent there — point the context back at that server, or roll back entry by entry with --context",
                    label(group),
                    moved.now,
                    moved.then
                ));
                tally
                    .failed
                    .extend(std::iter::repeat_n(ExitStatus::Usage, n));
                sessions.push(None);
            }
            Err(e) => {
                let e = VerbError::from(e);
                p.err_line(&format!(
                    "error: {}: {n} change(s) not rolled back: {e}",
                    label(group)
                ));
                tally.failed.extend(std::iter::repeat_n(e.exit_status(), n));
                sessions.push(None);
            }
        }
    }
    sessions
}

/// Runs `f` with a printer whose stdout lines are then printed prefixed by `context` and a
/// tab — the fan-out's line shape (docs/fleet.md), so the same object rolled back in two
/// clusters is told apart; stderr lines go through as they are. Without a context (an entry
/// that recorded none), `f` prints directly.
async fn in_context<T>(
    context: Option<&str>,
    p: &mut Printer<'_>,
    f: impl AsyncFnOnce(&mut Printer<'_>) -> (T, Result<(), VerbError>),
) -> (T, Result<(), VerbError>) {
    let Some(context) = context else {
        return f(p).await;
    };
    let (mut chunks, mut err) = (Vec::new(), Vec::new());
    let (value, mut result) = {
        let mut cp = Printer::capturing(&mut chunks, &mut err);
        f(&mut cp).await
    };
    for line in String::from_utf8_lossy(&err).lines() {
        p.err_line(line);
    }
    let name = crate::base::echo::escaped(context);
    for chunk in chunks {
        let text = match chunk {
            Chunk::Text(t) => t,
            // Rollback prints no tables; were one captured, its cells go out as tab-separated lines.
            Chunk::Table(t) => t
                .header
                .iter()
                .chain(&t.rows)
                .map(|r| r.join("\t") + "\n")
                .collect(),
        };
        for line in text.lines() {
            if let Err(e) = p.out(&format!("{name}\t{line}\n")) {
                result = result.and(Err(e.into()));
                return (value, result);
            }
        }
    }
    (value, result)
}
