//! `rollback ID`: restore the fields a journaled change touched, from its before-state.
//!
//! The JSON patch restores, from the entry's `before`, only the fields the journaled patch
//! touched (so a `--force` rollback leaves others' later changes alone), and is guarded
//! by a `test` of `metadata.resourceVersion` against the entry's `resourceVersionAfter`: if
//! someone changed the object since, the rollback is refused (exit 5) naming who, from
//! managedFields, unless `--force`. It is authorized and journaled like any patch, by the
//! guarded path ([`crate::guard`]); an entry whose outcome is unknown is judged by the live
//! object, never assumed to have succeeded.
//!
//! A rollback never reports a success that did not happen (issue 10). It refuses, with exit
//! 2 and before any request, an entry it cannot honestly undo: a change to a Secret's
//! `data`/`stringData` (the change log never stores Secret values, so they cannot be put
//! back — restore them from your secret store; a Secret change that touched only labels or
//! annotations rolls back normally), a change to fields a rollback does not write (`status`,
//! server-owned metadata), a value the change log stored masked (it looked like a
//! credential), an id whose records name different objects (an edited log), or a record
//! without a patch. Nothing is half-applied: a refused rollback sends nothing at all. After
//! the patch, the answer is checked: a field the server did not put back is an error, not
//! "rolled back".
//!
//! An object owned by a reconciler (Flux, Argo CD, Helm, kapp, `kubectl apply`: issue 15,
//! [`crate::reconciler`]) is not rolled back: the owner would revert it at its next sync,
//! so the rollback is refused with exit 5 naming the owner, unless `--force` — the same flag
//! that overrides the resourceVersion guard, since both say "I know the object is not only
//! mine". A forced rollback journals the owner in its entry (`reconciler`). The check is
//! made by the guarded path on the live object, last, right before the patch is sent.

use serde_json::{Value, json};

use crate::changelog::{self, Entry, Operation};
use crate::cli::{DryRun, PatchType, RollbackArgs};
use crate::cluster::ApiError;
use crate::exit::ExitStatus;
use crate::guard::{Mode, ObjectRef, PatchRequest, ReconcilerPolicy, Session};
use crate::history::{self, touched_paths};
use crate::output::objects::print_result;
use crate::output::{Chunk, Printer};
use crate::settings::Settings;
use crate::verbs::{Outcome, RollbackError, SessionRollbackError, VerbError};

/// Whether a rollback may write `path`: not server-owned metadata (only labels and
/// annotations), not `status` (it belongs to controllers), and — for a Secret — not
/// `data`/`stringData`, whose values the change log never holds.
fn restorable(path: &str, secret: bool) -> bool {
    let top = path.split('/').nth(1).unwrap_or("");
    match top {
        "metadata" => {
            path.starts_with("/metadata/labels") || path.starts_with("/metadata/annotations")
        }
        "status" | "apiVersion" | "kind" | "" => false,
        "data" | "stringData" => !secret,
        _ => true,
    }
}

/// Paths a patch may carry that are bookkeeping or identity, not a change to undo (a merge
/// patch often repeats `metadata.resourceVersion` as an optimistic lock, or the name).
fn bookkeeping(path: &str) -> bool {
    const PATHS: &[&str] = &[
        "/apiVersion",
        "/kind",
        "/metadata/name",
        "/metadata/namespace",
        "/metadata/uid",
        "/metadata/resourceVersion",
        "/metadata/generation",
        "/metadata/creationTimestamp",
        "/metadata/managedFields",
        "/metadata/selfLink",
    ];
    PATHS
        .iter()
        .any(|p| path == *p || path.starts_with(&format!("{p}/")))
}

/// Touched fields a rollback cannot write whose value differs now from the before-state
/// (pure): restoring the rest and calling it "rolled back" would be a lie, so the rollback
/// is refused. Bookkeeping paths are ignored.
pub fn unrestorable_changes(current: &Value, before: &Value, touched: &[String]) -> Vec<String> {
    let secret = before.get("kind").and_then(Value::as_str) == Some("Secret");
    touched
        .iter()
        .filter(|p| !restorable(p, secret) && !bookkeeping(p))
        .filter(|p| current.pointer(p) != before.pointer(p))
        .map(|p| crate::diff::dotted(p, before))
        .collect()
}

/// Whether `v` holds a value the change log masked instead of storing it: the redaction
/// marker of Secret values or the mask of the process-wide scrubber.
fn masked(v: &Value) -> bool {
    match v {
        Value::String(s) => s.contains(crate::redact::MASK) || s.contains("<redacted>"),
        Value::Array(a) => a.iter().any(masked),
        Value::Object(m) => m.values().any(masked),
        _ => false,
    }
}

/// `items` escaped and capped for a message, at most `max` of them (pure).
fn listed(items: &[String], max: usize) -> String {
    let mut out: Vec<String> = items
        .iter()
        .take(max)
        .map(|i| crate::echo::capped(i, 80))
        .collect();
    if items.len() > max {
        out.push(format!("and {} more", items.len() - max));
    }
    out.join(", ")
}

/// The rollback patch (pure): a `test` of the resourceVersion (unless `force`), then, for
/// each field the change touched, the operation that puts back its value from `before`
/// (`add`/`replace`, or `remove` when it did not exist). Fields the change did not touch —
/// including what others changed since — are left alone. Missing parents are created with
/// the shape they had before (an object or a list).
///
/// # Errors
/// The touched fields (dotted) that cannot be put back into `current` (its shape changed, or
/// the stored value was masked): a partial rollback is never built.
pub fn rollback_ops(
    current: &Value,
    before: &Value,
    touched: &[String],
    rv_after: Option<&str>,
    force: bool,
) -> Result<Vec<Value>, Vec<String>> {
    let mut ops: Vec<Value> = Vec::new();
    if !force && let Some(rv) = rv_after {
        ops.push(json!({"op": "test", "path": "/metadata/resourceVersion", "value": rv}));
    }
    let secret = before.get("kind").and_then(Value::as_str) == Some("Secret");
    let mut doc = current.clone();
    let mut failed: Vec<String> = Vec::new();
    let apply = |doc: &mut Value, op: Value, ops: &mut Vec<Value>| -> bool {
        let ok = serde_json::from_value::<json_patch::PatchOperation>(op.clone())
            .ok()
            .is_some_and(|p| json_patch::patch(doc, &[p]).is_ok());
        if ok {
            ops.push(op);
        }
        ok
    };
    for path in touched.iter().filter(|p| restorable(p, secret)) {
        let restored = match (before.pointer(path), doc.pointer(path).cloned()) {
            (Some(b), _) if masked(b) && doc.pointer(path) != Some(b) => false,
            (Some(b), Some(c)) if *b != c => apply(
                &mut doc,
                json!({"op": "replace", "path": path, "value": b}),
                &mut ops,
            ),
            (Some(b), None) => {
                // Create missing parents first (e.g. metadata.labels on an object without
                // labels), each with the shape it had in the before-state.
                let parts: Vec<&str> = path.split('/').collect();
                let mut ok = true;
                for i in 2..parts.len() {
                    let parent = parts[..i].join("/");
                    if ok && doc.pointer(&parent).is_none() {
                        let empty = match before.pointer(&parent) {
                            Some(Value::Array(_)) => json!([]),
                            _ => json!({}),
                        };
                        ok = apply(
                            &mut doc,
                            json!({"op": "add", "path": parent, "value": empty}),
                            &mut ops,
                        );
                    }
                }
                ok && apply(
                    &mut doc,
                    json!({"op": "add", "path": path, "value": b}),
                    &mut ops,
                )
            }
            (None, Some(_)) => apply(&mut doc, json!({"op": "remove", "path": path}), &mut ops),
            _ => true,
        };
        if !restored {
            failed.push(crate::diff::dotted(path, before));
        }
    }
    if failed.is_empty() {
        Ok(ops)
    } else {
        Err(failed)
    }
}

/// Who changed the object since `since` (an RFC 3339 time), from managedFields: the newest
/// entry at or after it (`manager (operation) at time`) that the entry's `before` object did
/// not already hold unchanged, preferring another manager than ours on a tie. Writes through some subresources (e.g. `scale`) leave no managedFields entry;
/// then it says so rather than guess.
pub fn last_writer(object: &Value, before: &Value, since: &str, ours: &str) -> String {
    // Compared to the second (`YYYY-MM-DDTHH:MM:SS`); a time from an edited log may be any
    // text, so the cut is by characters, never a byte index inside one.
    let second = |t: &str| t.chars().take(19).collect::<String>();
    let since = second(since);
    let time = |m: &Value| {
        m.get("time")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    let key =
        |m: &Value| ["manager", "operation", "subresource", "time"].map(|k| m.get(k).cloned());
    let earlier: Vec<_> = before
        .pointer("/metadata/managedFields")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(key)
        .collect();
    let earlier: Vec<&Value> = object
        .pointer("/metadata/managedFields")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|m| earlier.contains(&key(m)))
        .collect();
    object
        .pointer("/metadata/managedFields")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|m| second(&time(m)) >= since)
        // An entry the before-state already held unchanged (same manager, operation,
        // subresource and time) wrote nothing since: managedFields times are whole seconds,
        // so an object created in the same second as the change would otherwise be named.
        .filter(|m| !earlier.contains(m))
        .max_by_key(|m| {
            (
                time(m),
                m.get("manager").and_then(Value::as_str) != Some(ours),
            )
        })
        .map(|m| {
            format!(
                "{} ({}) at {}",
                m.get("manager").and_then(Value::as_str).unwrap_or("?"),
                m.get("operation").and_then(Value::as_str).unwrap_or("?"),
                time(m)
            )
        })
        .unwrap_or_else(|| {
            "a writer that managedFields does not record (such as a scale subresource update)"
                .into()
        })
}

/// Whether `before` is a Secret.
fn secret_kind(before: &Value) -> bool {
    before.get("kind").and_then(Value::as_str) == Some("Secret")
}

/// Whether every restorable field the change touched still holds its before value in
/// `current` (pure): then the change is not (or no longer) in effect.
pub fn holds_before(current: &Value, before: &Value, touched: &[String]) -> bool {
    let secret = before.get("kind").and_then(Value::as_str) == Some("Secret");
    touched
        .iter()
        .filter(|p| restorable(p, secret))
        .all(|p| current.pointer(p) == before.pointer(p))
}

/// Runs `rollback` through the guarded path (journal proven writable first, boundary and
/// SelfSubjectAccessReview for `patch`, the JSON patch journaled write-ahead as `rollback`).
/// An entry whose outcome is unknown (an intent without an outcome record) is never assumed
/// to have succeeded: the live object decides. `--session` rolls back every change of one
/// invocation ([`run_session`]).
///
/// Errors in the [`Outcome`]: [`RollbackError`] (4, 2, 5), refusals (3), API errors,
/// [`SessionRollbackError`].
pub async fn run(s: &Settings, args: &RollbackArgs, p: &mut Printer<'_>) -> Outcome {
    let (entries, invalid) = match changelog::read_all(&s.home) {
        Ok(x) => x,
        Err(e) => return Outcome::early(VerbError::io(e)),
    };
    if !invalid.is_empty() {
        p.err_line(&format!(
            "warning: {} line(s) of {} are not valid change-log entries and were skipped; `kubectl myops changelog list --invalid` lists them",
            invalid.len(),
            changelog::path(&s.home).display()
        ));
    }
    let contradicted = match changelog::read_files(&s.home) {
        Ok((files, _)) => history::contradicted(&files),
        Err(e) => return Outcome::early(VerbError::io(e)),
    };
    let ids: Vec<&str> = match (&args.session, &args.id) {
        (Some(session), _) => entries
            .iter()
            .filter(|e| e.session == *session)
            .map(|e| e.id.as_str())
            .collect(),
        (None, Some(id)) => vec![id.as_str()],
        (None, None) => vec![],
    };
    if let Some((id, why)) = ids
        .iter()
        .find_map(|id| contradicted.get(*id).map(|why| (*id, why)))
    {
        return Outcome::early(RollbackError::NotRestorable {
            id: crate::echo::capped(id, 64),
            why: format!(
                "the change log's hash chain contradicts it — {why}; its before-state cannot be trusted, so nothing was sent (`kubectl myops changelog verify` reports every break; restore by hand if needed)"
            ),
        });
    }
    let id = match (&args.session, &args.id) {
        (Some(session), _) => return run_session(s, &entries, session, args, p).await,
        (None, Some(id)) => id,
        (None, None) => {
            return Outcome::early(VerbError::Usage(
                "rollback needs an entry ID or --session SESSION; see `kubectl myops changelog list`"
                    .into(),
            ));
        }
    };
    let entry = match find_entry(&entries, id) {
        Ok(e) => e,
        Err(e) => return Outcome::early(RollbackError::or_rotated_away(e, &s.home, id)),
    };
    let session = match Session::open(s, p, Mode::Mutate).await {
        Ok(x) => x,
        Err(e) => return Outcome::early(e),
    };
    let (resource, result) = roll_back_entry(&session, &entry, args, p).await;
    Outcome { resource, result }
}

/// Resolves the entry's object in `session` and rolls it back; returns the resource
/// (`plural.group`, once resolved) and how it ended.
async fn roll_back_entry(
    session: &Session<'_>,
    entry: &Entry,
    args: &RollbackArgs,
    p: &mut Printer<'_>,
) -> (Option<String>, Result<(), VerbError>) {
    // `Kind.version.group` resolves exactly the journaled type; a core kind alone resolves to core.
    let obj = match session
        .object(
            &crate::history::type_name(entry),
            &entry.name,
            entry.namespace.clone(),
        )
        .await
    {
        Ok(o) => o,
        Err(e) => return (None, Err(e.into())),
    };
    let result = roll_back(session, &obj, entry, args, args.session.is_some(), p).await;
    (Some(obj.t.group_resource()), result)
}

/// The usage error of `rollback --session ''`: the change-log records written before
/// sessions existed (issue 9) all carry the empty session id, so it would select unrelated
/// changes made at different times as if they were one invocation.
pub const EMPTY_SESSION: &str = "--session needs a session id (a fanned-out patch prints it; `kubectl myops changelog show ID` shows an entry's); an empty one would select every change logged before sessions existed";

/// The changes of one context (and server) in a session rollback, newest first.
#[derive(Debug)]
pub struct ContextChanges {
    /// The kubeconfig context the entries were made in (`None`: none was recorded, the
    /// current one is used).
    pub context: Option<String>,
    /// The API server the entries were made on: the context must still point there.
    pub server: String,
    /// The entries (each the last record of its id), newest first.
    pub entries: Vec<Entry>,
}

/// What `rollback --session` will do (pure, [`plan_session`]).
#[derive(Debug)]
pub struct SessionPlan {
    /// Per context and server, in the order the session first touched them.
    pub contexts: Vec<ContextChanges>,
    /// Entries of the session that changed nothing (dry runs, failed attempts): skipped.
    pub unchanged: usize,
    /// Entries that cannot be rolled back ([`find_entry`]'s refusals): reported, and the
    /// rollback of the others goes on.
    pub refused: Vec<VerbError>,
    /// The order to roll the entries back in: `(index into contexts, index into its
    /// entries)`, newest first across the whole session — two contexts may point at the same
    /// server and change the same object, and a later change must be undone before an
    /// earlier one whatever context made it.
    pub order: Vec<(usize, usize)>,
}

/// Plans the rollback of every change of session `session` (pure): the entry ids carrying
/// that session, each as its last record, grouped by (context, server) in the order the
/// session first touched them and newest first within a group; [`SessionPlan::order`] is
/// newest first across groups (a later change of the same object is undone before an earlier
/// one, also when two contexts point at the same server). Dry runs and failed attempts
/// changed nothing and are skipped; an entry [`find_entry`] refuses is listed in
/// [`SessionPlan::refused`].
///
/// # Errors
/// [`VerbError::Usage`] (exit 2) for an empty session id: the records written before
/// sessions existed all carry the empty one, and they are not one invocation.
/// [`SessionRollbackError::NoSession`] (exit 4) when no record carries the session id.
pub fn plan_session(entries: &[Entry], session: &str) -> Result<SessionPlan, VerbError> {
    if session.is_empty() {
        return Err(VerbError::Usage(EMPTY_SESSION.into()));
    }
    let mut ids: Vec<&str> = Vec::new();
    for e in entries.iter().filter(|e| e.session == session) {
        if !ids.contains(&e.id.as_str()) {
            ids.push(&e.id);
        }
    }
    if ids.is_empty() {
        return Err(SessionRollbackError::NoSession(crate::echo::capped(session, 64)).into());
    }
    let mut plan = SessionPlan {
        contexts: Vec::new(),
        unchanged: 0,
        refused: Vec::new(),
        order: Vec::new(),
    };
    // The group of each planned entry, oldest first.
    let mut placed: Vec<usize> = Vec::new();
    for id in ids {
        let last = entries.iter().rfind(|e| e.id == id);
        if last.is_some_and(|e| e.dry_run || !(e.result == "success" || e.outcome_unknown())) {
            plan.unchanged += 1;
            continue;
        }
        match find_entry(entries, id) {
            Ok(entry) => {
                let at = plan
                    .contexts
                    .iter()
                    .position(|c| c.context == entry.context && c.server == entry.server);
                match at {
                    Some(i) => {
                        plan.contexts[i].entries.push(entry);
                        placed.push(i);
                    }
                    None => {
                        plan.contexts.push(ContextChanges {
                            context: entry.context.clone(),
                            server: entry.server.clone(),
                            entries: vec![entry],
                        });
                        placed.push(plan.contexts.len() - 1);
                    }
                }
            }
            Err(e) => plan.refused.push(e),
        }
    }
    for c in &mut plan.contexts {
        c.entries.reverse();
    }
    // Walking the entries newest first, the k-th seen of a group is its k-th entry (the
    // groups' entries are newest first now).
    let mut seen = vec![0usize; plan.contexts.len()];
    for g in placed.into_iter().rev() {
        plan.order.push((g, seen[g]));
        seen[g] += 1;
    }
    Ok(plan)
}

/// `rollback --session ID`: every change of one invocation (e.g. a patch fanned out over
/// several contexts, issue 13), each rolled back in the context it was made in — a session
/// of its own per context (journal, boundary, SelfSubjectAccessReview, deadline), refused
/// when the context now points at another server than the entries' — with the same rules as
/// `rollback ID` (conflicts, `--force`, `--dry-run`). A failure never stops the others:
/// each is one stderr line naming its context and entry, and the exit code is the most
/// severe of them ([`ExitStatus::most_severe`]).
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
    let mut failed: Vec<ExitStatus> = Vec::new();
    let mut restored = 0usize;
    let mut resources: Vec<String> = Vec::new();
    for e in &plan.refused {
        p.err_line(&format!("error: {e}"));
        failed.push(e.exit_status());
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
    let settings: Vec<Settings> = plan
        .contexts
        .iter()
        .map(|group| {
            let mut cs = s.clone();
            cs.session_id = Some(own_session.clone());
            if group.context.is_some() {
                cs.kube.context = group.context.clone();
            }
            cs
        })
        .collect();
    let label = |group: &ContextChanges| match &group.context {
        Some(c) => format!("context {}", crate::echo::capped(c, 100)),
        None => "the current context".to_string(),
    };
    // One session per context (and server); a context that cannot be used is reported once
    // for all its entries.
    let mut sessions: Vec<Option<Session<'_>>> = Vec::with_capacity(settings.len());
    for (group, cs) in plan.contexts.iter().zip(&settings) {
        let session = match Session::open(cs, p, Mode::Mutate).await {
            Ok(x) => x,
            Err(e) => {
                let e = VerbError::from(e);
                p.err_line(&format!(
                    "error: {}: {} change(s) not rolled back: {e}",
                    label(group),
                    group.entries.len()
                ));
                failed.extend(std::iter::repeat_n(e.exit_status(), group.entries.len()));
                sessions.push(None);
                continue;
            }
        };
        if session.server() != group.server {
            p.err_line(&format!(
                "error: {}: {} change(s) not rolled back: the context now points at {}, but they were made on {}; nothing was sent there — point the context back at that server, or roll back entry by entry with --context",
                label(group),
                group.entries.len(),
                session.server(),
                group.server
            ));
            failed.extend(std::iter::repeat_n(ExitStatus::Usage, group.entries.len()));
            sessions.push(None);
            continue;
        }
        sessions.push(Some(session));
    }
    // Newest first across the contexts: two contexts may point at the same object.
    for &(g, i) in &plan.order {
        let Some(session) = &sessions[g] else {
            continue;
        };
        let entry = &plan.contexts[g].entries[i];
        let (resource, result) = in_context(plan.contexts[g].context.as_deref(), p, async |cp| {
            roll_back_entry(session, entry, args, cp).await
        })
        .await;
        if result.is_ok() {
            restored += 1;
        }
        resources.extend(resource.filter(|r| !resources.contains(r)));
        if let Err(e) = result {
            p.err_line(&format!(
                "error: {}: entry {}: {e}",
                label(&plan.contexts[g]),
                entry.id
            ));
            failed.push(e.exit_status());
        }
    }
    drop(sessions);
    let resource = (!resources.is_empty()).then(|| resources.join(","));
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
    let result = if failed.is_empty() {
        Ok(())
    } else {
        Err(SessionRollbackError::Incomplete {
            session: crate::echo::capped(session_id, 64),
            failed: failed.len(),
            total,
            done: restored,
            status: ExitStatus::most_severe(failed),
        }
        .into())
    };
    Outcome { resource, result }
}

/// Runs `f` with a printer whose stdout lines are then printed prefixed by `context` and a
/// tab — the fan-out's line shape (README "Fleet"), so the same object rolled back in two
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
    let name = crate::echo::escaped(context);
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

/// The last record of entry `id` among `entries`, if it can be rolled back at all (pure):
/// refused (exit 2, before anything is sent) when its records disagree (an edited log), it
/// is not a patch or rollback, changed nothing, has no before-state or patch, or changed a
/// Secret's data, which the change log never stores; an unknown id is exit 4.
///
/// # Errors
/// [`RollbackError::NoEntry`] (the id escaped and capped) or [`RollbackError::NotRestorable`].
pub fn find_entry(entries: &[Entry], id: &str) -> Result<Entry, VerbError> {
    let records: Vec<&Entry> = entries.iter().filter(|e| e.id == id).collect();
    let entry = (*records
        .last()
        .ok_or_else(|| RollbackError::NoEntry(crate::echo::capped(id, 64)))?)
    .clone();
    let refuse = |why: String| RollbackError::NotRestorable {
        id: entry.id.clone(),
        why,
    };
    if changelog::ambiguous(&records) {
        return Err(refuse(format!(
            "its {} records name different objects or operations (the change log was edited or holds copied lines), so what to restore is not clear; check `kubectl myops changelog show {}` and restore by hand",
            records.len(),
            entry.id
        ))
        .into());
    }
    if !matches!(entry.operation, Operation::Patch | Operation::Rollback) {
        return Err(refuse(
            "only patch and rollback entries can be rolled back (re-sync the CRD file instead)"
                .into(),
        )
        .into());
    }
    if entry.dry_run || !(entry.result == "success" || entry.outcome_unknown()) {
        return Err(refuse("it changed nothing (a dry run or a failed attempt)".into()).into());
    }
    if entry.before.is_none() {
        return Err(
            refuse("it has no before-state (reading the object was forbidden)".into()).into(),
        );
    }
    let touched = touched_paths(
        entry.patch_type.as_deref().unwrap_or(""),
        entry.patch.as_ref().unwrap_or(&Value::Null),
    );
    if touched.is_empty() {
        return Err(refuse(
            "its record holds no patch, so which fields it changed is not known".into(),
        )
        .into());
    }
    if let Some(keys) = changelog::secret_data_keys(&entry.kind, &touched) {
        let what = if keys.is_empty() {
            "the data".to_string()
        } else {
            format!("the data keys {}", listed(&keys, 10))
        };
        return Err(refuse(format!(
            "the change log never stores Secret values, so {what} of {} cannot be restored; restore them from your secret store (nothing was sent)",
            crate::echo::capped(&changelog::object_of(&entry), 200)
        ))
        .into());
    }
    Ok(entry)
}

/// `rerun`: part of `rollback --session`, which may be run again after a partial failure —
/// fields that already hold their earlier values (undone by the first run, or by hand) are
/// "nothing to roll back" rather than a conflict; nothing is written either way.
async fn roll_back(
    session: &Session<'_>,
    obj: &ObjectRef,
    entry: &Entry,
    args: &RollbackArgs,
    rerun: bool,
    p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    let before = entry.before.clone().unwrap_or(Value::Null);
    let touched = touched_paths(
        entry.patch_type.as_deref().unwrap_or(""),
        entry.patch.as_ref().unwrap_or(&Value::Null),
    );
    let changed = |current: &Value, writer_since: &str| RollbackError::Changed {
        object: obj.display(),
        id: entry.id.clone(),
        // Not journaled: an outcome decided by hand (`changelog reconcile --as`), which reads
        // no object, or a record written before outcomes carried it.
        then: entry
            .resource_version_after
            .clone()
            .unwrap_or_else(|| "not journaled".into()),
        now: current
            .pointer("/metadata/resourceVersion")
            .and_then(Value::as_str)
            .unwrap_or("?")
            .to_string(),
        writer: last_writer(current, &before, writer_since, &args.field_manager),
    };
    // The request is built before it is authorized, so a refusal journals exactly it.
    let placeholder = Value::Array(Vec::new());
    let mut req = PatchRequest {
        operation: Operation::Rollback,
        patch_type: PatchType::Json,
        body: &placeholder,
        dry_run: args.dry_run.strategy,
        subresource: None,
        field_manager: &args.field_manager,
        // A reconciler would revert the restore at its next sync: refused unless --force
        // (checked on the live object by the guarded path, journaled when forced).
        reconciler: if args.force {
            ReconcilerPolicy::Force
        } else {
            ReconcilerPolicy::Refuse
        },
    };
    let grant = session
        .authorize_change(obj, None, req.intent(obj, None))
        .await?;
    let current = session
        .read(&grant, obj)
        .await
        .map_err(|e| match e {
            ApiError::Server { code: 404, .. } => VerbError::from(RollbackError::Gone {
                object: obj.display(),
                id: entry.id.clone(),
            }),
            other => other.into(),
        })?
        .ok_or_else(|| RollbackError::NotRestorable {
            id: entry.id.clone(),
            why: "the object cannot be read now (forbidden)".into(),
        })?;
    // Deleted and created again under the same name: not the entry's object (not even with
    // --force, which overrides concurrent edits of the same object, not identity).
    let live_uid = current.pointer("/metadata/uid").and_then(Value::as_str);
    if let (Some(then), Some(now)) = (entry.uid.as_deref(), live_uid)
        && then != now
    {
        return Err(RollbackError::Replaced {
            object: obj.display(),
            id: entry.id.clone(),
            then: then.to_string(),
            now: now.to_string(),
        }
        .into());
    }
    // Fields a rollback cannot write that the change did alter: restoring only the rest
    // would be reported as a rollback that did not happen.
    let blocked = unrestorable_changes(&current, &before, &touched);
    if !blocked.is_empty() {
        return Err(RollbackError::NotRestorable {
            id: entry.id.clone(),
            why: format!(
                "it changed {}, which a rollback does not write (status belongs to the object's controllers, metadata other than labels and annotations to the server); nothing was sent",
                listed(&blocked, 10)
            ),
        }
        .into());
    }
    // An intent without an outcome: the request may or may not have been applied. The live
    // object decides; nothing is restored on a guess.
    let mut rv_test = entry.resource_version_after.as_deref();
    if rerun && !entry.outcome_unknown() && holds_before(&current, &before, &touched) {
        p.out(&format!("{}: nothing to roll back (the fields entry {} changed already hold their earlier values)\n", obj.display(), entry.id))?;
        return Ok(());
    }
    if entry.outcome_unknown() {
        if holds_before(&current, &before, &touched) {
            p.out(&format!("{}: nothing to roll back (entry {} has no outcome record, and the fields it would change still hold their earlier values)\n", obj.display(), entry.id))?;
            return Ok(());
        }
        if !args.force {
            return Err(RollbackError::OutcomeUnknown {
                object: obj.display(),
                id: entry.id.clone(),
            }
            .into());
        }
        rv_test = None;
    } else {
        let rv_now = current
            .pointer("/metadata/resourceVersion")
            .and_then(Value::as_str)
            .unwrap_or("");
        if !args.force && Some(rv_now) != rv_test {
            return Err(changed(&current, &entry.timestamp).into());
        }
    }
    let ops = rollback_ops(&current, &before, &touched, rv_test, args.force).map_err(|failed| {
        RollbackError::NotRestorable {
            id: entry.id.clone(),
            why: format!(
                "{} cannot be put back into {} (the change log stored a masked value, or the object's shape changed); restore by hand — nothing was sent",
                listed(&failed, 10),
                obj.display()
            ),
        }
    })?;
    if ops.iter().all(|o| o["op"] == "test") {
        p.out(&format!("{}: nothing to roll back (the fields entry {} changed already hold their earlier values)\n", obj.display(), entry.id))?;
        return Ok(());
    }
    let body = Value::Array(ops);
    req.body = &body;
    match session.patch(&grant, obj, &req, Some(&current)).await {
        Ok(patched) => {
            let after = patched.after;
            // Never report a restore that did not happen: every field put back must read
            // as its before-state in the server's answer.
            let missed: Vec<String> = touched
                .iter()
                .filter(|p| restorable(p, secret_kind(&before)))
                .filter(|p| after.pointer(p) != before.pointer(p))
                .map(|p| crate::diff::dotted(p, &before))
                .collect();
            if !missed.is_empty() {
                return Err(VerbError::io(format!(
                    "{} was patched by the rollback of entry {}, but the server's answer does not hold the earlier value of {}; check the object before trying again",
                    obj.display(),
                    entry.id,
                    listed(&missed, 10)
                )));
            }
            print_result(
                p,
                &obj.t,
                &obj.display(),
                &format!("rolled back ({})", entry.id),
                Some(&current),
                &after,
                args.dry_run.strategy,
                true,
                None,
            )?;
            Ok(())
        }
        Err(e) => {
            // A failed resourceVersion test means someone wrote between our read and the patch.
            if rv_test.is_some()
                && let Ok(Some(now)) = session.read(&grant, obj).await
                && now.pointer("/metadata/resourceVersion")
                    != current.pointer("/metadata/resourceVersion")
            {
                return Err(changed(&now, &entry.timestamp).into());
            }
            Err(e.into())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rollback_ops_restore_only_the_touched_fields_guarded_by_the_resource_version() {
        let before = json!({"kind": "Deployment", "metadata": {"name": "web", "resourceVersion": "10"},
            "spec": {"replicas": 2}, "status": {"replicas": 2}});
        // The change set replicas 4, paused true and a label; someone else later added an annotation.
        let current = json!({"kind": "Deployment", "metadata": {"name": "web", "resourceVersion": "12", "labels": {"tier": "x"}, "annotations": {"owner": "b"}},
            "spec": {"replicas": 4, "paused": true}, "status": {"replicas": 4}});
        let touched = touched_paths(
            "merge",
            &json!({"spec": {"replicas": 4, "paused": true}, "metadata": {"labels": {"tier": "x"}}}),
        );
        let ops = rollback_ops(&current, &before, &touched, Some("11"), false).unwrap();
        assert_eq!(
            ops[0],
            json!({"op": "test", "path": "/metadata/resourceVersion", "value": "11"})
        );
        let mut restored = current.clone();
        json_patch::patch(
            &mut restored,
            &serde_json::from_value::<json_patch::Patch>(Value::Array(ops[1..].to_vec())).unwrap(),
        )
        .unwrap();
        assert_eq!(restored["spec"], before["spec"]);
        assert_eq!(restored["metadata"]["labels"], json!({}));
        assert_eq!(
            restored["metadata"]["annotations"],
            json!({"owner": "b"}),
            "others' changes stay"
        );
        assert_eq!(
            restored["status"], current["status"],
            "status is not rolled back"
        );
        assert!(
            rollback_ops(&current, &before, &touched, Some("11"), true)
                .unwrap()
                .iter()
                .all(|o| o["op"] != "test")
        );
    }

    #[test]
    fn a_label_added_to_an_object_without_labels_creates_the_map() {
        let before = json!({"kind": "ConfigMap", "metadata": {"labels": {"a": "1"}}});
        let current = json!({"kind": "ConfigMap", "metadata": {}});
        let ops = rollback_ops(
            &current,
            &before,
            &["/metadata/labels/a".to_string()],
            None,
            true,
        )
        .unwrap();
        assert_eq!(
            ops,
            vec![
                json!({"op": "add", "path": "/metadata/labels", "value": {}}),
                json!({"op": "add", "path": "/metadata/labels/a", "value": "1"})
            ]
        );
    }

    #[test]
    fn secret_data_is_never_restored_from_the_redacted_log() {
        let before = json!({"kind": "Secret", "metadata": {"labels": {"a": "1"}}, "data": {"k": "<redacted>"}});
        let current = json!({"kind": "Secret", "metadata": {"labels": {"a": "2"}}, "data": {"k": "c2VjcmV0"}});
        let touched = vec!["/data/k".to_string(), "/metadata/labels/a".to_string()];
        let ops = rollback_ops(&current, &before, &touched, None, true).unwrap();
        assert_eq!(
            ops,
            vec![json!({"op": "replace", "path": "/metadata/labels/a", "value": "1"})]
        );
    }

    fn secret_entry(patch: Value) -> Entry {
        Entry {
            id: "e1".into(),
            format_version: Some(crate::changelog::FORMAT_VERSION),
            session: "s".into(),
            timestamp: "2026-11-30T08:00:00Z".into(),
            plugin: "myops".into(),
            user: "admin".into(),
            context: None,
            server: "https://h".into(),
            api_version: "v1".into(),
            kind: "Secret".into(),
            namespace: Some("shop".into()),
            name: "db".into(),
            uid: None,
            operation: Operation::Patch,
            patch_type: Some("merge".into()),
            patch: Some(patch),
            dry_run: false,
            before: Some(json!({"kind": "Secret", "data": {"password": "<redacted>"}})),
            after: None,
            reconciler: None,
            resource_version_after: Some("7".into()),
            reconciled: None,
            result: "success".into(),
            duration_seconds: 0.1,
        }
    }

    #[test]
    fn a_rollback_of_secret_data_is_refused_before_anything_is_sent_not_reported_as_nothing_to_do()
    {
        let e = secret_entry(
            json!({"data": {"password": "<redacted>", "new": "<redacted>"}, "metadata": {"labels": {"x": "y"}}}),
        );
        let err = find_entry(std::slice::from_ref(&e), "e1").unwrap_err();
        assert_eq!(err.exit_status(), crate::exit::ExitStatus::Usage);
        assert_eq!(
            err.to_string(),
            "entry e1 cannot be rolled back: the change log never stores Secret values, so the data keys new, password of secret/shop/db cannot be restored; restore them from your secret store (nothing was sent)"
        );
        // Labels only: rolled back as usual.
        let labels = secret_entry(json!({"metadata": {"labels": {"x": "y"}}}));
        assert!(find_entry(&[labels], "e1").is_ok());
    }

    #[test]
    fn garbage_unknown_and_ambiguous_ids_are_refused_with_an_escaped_capped_id() {
        let e = secret_entry(json!({"metadata": {"labels": {"x": "y"}}}));
        let err = find_entry(
            std::slice::from_ref(&e),
            &format!("\u{1b}[2J{}", "x".repeat(500)),
        )
        .unwrap_err();
        assert_eq!(err.exit_status(), crate::exit::ExitStatus::NotFound);
        let msg = err.to_string();
        assert!(
            msg.starts_with("no change-log entry \\u{1b}[2Jxxx"),
            "{msg}"
        );
        assert!(msg.len() < 200, "{msg}");
        let copy = Entry {
            name: "other".into(),
            ..e.clone()
        };
        let err = find_entry(&[e, copy], "e1").unwrap_err();
        assert_eq!(err.exit_status(), crate::exit::ExitStatus::Usage);
        assert!(
            err.to_string()
                .contains("its 2 records name different objects or operations"),
            "{err}"
        );
        let no_patch = Entry {
            patch: None,
            ..secret_entry(Value::Null)
        };
        assert!(
            find_entry(&[no_patch], "e1")
                .unwrap_err()
                .to_string()
                .contains("holds no patch")
        );
    }

    #[test]
    fn a_status_change_is_refused_instead_of_reported_as_nothing_to_roll_back() {
        let before = json!({"kind": "Deployment", "metadata": {"resourceVersion": "1"}, "status": {"replicas": 1}});
        let current = json!({"kind": "Deployment", "metadata": {"resourceVersion": "2"}, "status": {"replicas": 5}});
        let touched = touched_paths(
            "merge",
            &json!({"status": {"replicas": 5}, "metadata": {"resourceVersion": "1"}}),
        );
        assert_eq!(
            unrestorable_changes(&current, &before, &touched),
            ["status.replicas"]
        );
        // Unchanged since (a controller put it back): nothing blocks.
        assert!(unrestorable_changes(&before, &before, &touched).is_empty());
    }

    #[test]
    fn a_masked_value_is_never_written_back() {
        let before =
            json!({"kind": "ConfigMap", "data": {"url": "postgres://***@db/x", "other": "1"}});
        let current =
            json!({"kind": "ConfigMap", "data": {"url": "postgres://u:pw@db/y", "other": "2"}});
        let touched = vec!["/data/other".to_string(), "/data/url".to_string()];
        assert_eq!(
            rollback_ops(&current, &before, &touched, None, true).unwrap_err(),
            ["data.url"]
        );
    }

    #[test]
    fn a_missing_list_parent_is_recreated_as_a_list() {
        let before = json!({"spec": {"items": ["a"]}});
        let current = json!({"spec": {}});
        let ops = rollback_ops(
            &current,
            &before,
            &["/spec/items/0".to_string()],
            None,
            true,
        )
        .unwrap();
        assert_eq!(
            ops[0],
            json!({"op": "add", "path": "/spec/items", "value": []})
        );
    }

    #[test]
    fn last_writer_skips_managers_unchanged_since_the_before_state() {
        // Created and patched within one second: the creator wrote nothing since.
        let create = json!({"manager": "kubectl-create", "operation": "Update", "time": "2026-11-30T08:00:00Z"});
        let before = json!({"metadata": {"managedFields": [create.clone()]}});
        let now = json!({"metadata": {"managedFields": [create,
            {"manager": "kubectl-myops", "operation": "Update", "time": "2026-11-30T08:00:00Z"}]}});
        assert_eq!(
            last_writer(&now, &before, "2026-11-30T08:00:00.5Z", "kubectl-myops"),
            "kubectl-myops (Update) at 2026-11-30T08:00:00Z"
        );
    }

    #[test]
    fn last_writer_survives_a_non_ascii_time_from_an_edited_log() {
        let o = json!({"metadata": {"managedFields": [{"manager": "m", "operation": "Update", "time": "ééééééééééééé"}]}});
        let _ = last_writer(&o, &Value::Null, "ééééééééééééééééééé", "kubectl-myops");
    }

    #[test]
    fn last_writer_names_the_newest_managed_fields_entry() {
        let o = json!({"metadata": {"managedFields": [
            {"manager": "kubectl-myops", "operation": "Update", "time": "2026-11-30T08:00:00Z"},
            {"manager": "kubectl-edit", "operation": "Update", "time": "2026-11-30T09:00:00Z"}]}});
        assert_eq!(
            last_writer(
                &o,
                &Value::Null,
                "2026-11-30T07:00:00.123Z",
                "kubectl-myops"
            ),
            "kubectl-edit (Update) at 2026-11-30T09:00:00Z"
        );
        assert!(
            last_writer(&o, &Value::Null, "2026-11-30T09:30:00Z", "kubectl-myops")
                .starts_with("a writer that managedFields does not record")
        );
    }

    /// A configmap label patch of session `session`, entry `id`, made in `context`.
    fn change(id: &str, session: &str, context: &str, server: &str) -> Entry {
        let mut e = secret_entry(json!({"metadata": {"labels": {"x": "y"}}}));
        e.id = id.into();
        e.session = session.into();
        e.context = Some(context.into());
        e.server = server.into();
        e.kind = "ConfigMap".into();
        e.before = Some(json!({"kind": "ConfigMap", "metadata": {"labels": {}}}));
        e
    }

    #[test]
    fn a_session_rollback_groups_changes_by_context_newest_first_and_skips_what_changed_nothing() {
        let mut dry = change("d1", "S", "admin", "https://a");
        dry.dry_run = true;
        let mut failed = change("f1", "S", "admin-2", "https://b");
        failed.result = "Conflict".into();
        let mut pending = change("p1", "S", "admin-2", "https://b");
        pending.result = changelog::PENDING.into();
        let mut not_a_patch = change("c1", "S", "admin", "https://a");
        not_a_patch.operation = Operation::CrdApply;
        let entries = vec![
            change("a1", "S", "admin", "https://a"),
            change("x1", "OTHER", "admin", "https://a"),
            pending,
            change("a2", "S", "admin", "https://a"),
            dry,
            failed,
            not_a_patch,
            // Same context name, another server: its own group (the check of where the
            // context points now is per group).
            change("a3", "S", "admin", "https://moved"),
        ];
        let plan = plan_session(&entries, "S").unwrap();
        let groups: Vec<(Option<&str>, &str, Vec<&str>)> = plan
            .contexts
            .iter()
            .map(|c| {
                (
                    c.context.as_deref(),
                    c.server.as_str(),
                    c.entries.iter().map(|e| e.id.as_str()).collect(),
                )
            })
            .collect();
        assert_eq!(
            groups,
            vec![
                (Some("admin"), "https://a", vec!["a2", "a1"]),
                (Some("admin-2"), "https://b", vec!["p1"]),
                (Some("admin"), "https://moved", vec!["a3"]),
            ]
        );
        assert_eq!(plan.unchanged, 2, "the dry run and the failed attempt");
        assert_eq!(plan.refused.len(), 1);
        assert!(
            plan.refused[0]
                .to_string()
                .starts_with("entry c1 cannot be rolled back: only patch and rollback entries"),
            "{}",
            plan.refused[0]
        );
    }

    #[test]
    fn session_rollback_of_two_contexts_on_the_same_server_undid_the_older_change_first() {
        // admin patched the object, then same-as-admin (a second context on the same
        // server) patched it again: the later change must be undone first, else the older
        // one's restore makes the later one look overwritten (a false conflict whose
        // --force put the patched value back).
        let entries = vec![
            change("a1", "S", "admin", "https://a"),
            change("b1", "S", "admin-2", "https://b"),
            change("s1", "S", "same-as-admin", "https://a"),
            change("a2", "S", "admin", "https://a"),
        ];
        let plan = plan_session(&entries, "S").unwrap();
        let order: Vec<&str> = plan
            .order
            .iter()
            .map(|&(g, i)| plan.contexts[g].entries[i].id.as_str())
            .collect();
        assert_eq!(order, ["a2", "s1", "b1", "a1"]);
    }

    #[test]
    fn rollback_of_an_empty_session_id_selected_every_change_logged_before_sessions() {
        // Records written before issue 9 have no session: serde gives them "".
        let mut legacy = change("l1", "", "admin", "https://a");
        legacy.session = String::new();
        let entries = vec![legacy, change("l2", "", "admin", "https://a")];
        let err = plan_session(&entries, "").unwrap_err();
        assert_eq!(err.exit_status(), crate::exit::ExitStatus::Usage);
        assert!(
            err.to_string().contains("--session needs a session id"),
            "{err}"
        );
    }

    #[test]
    fn a_session_without_entries_is_not_found_and_its_id_is_not_echoed_raw() {
        let entries = vec![change("a1", "S", "admin", "https://a")];
        let err = plan_session(&entries, "nope\x1b[31m").unwrap_err();
        assert_eq!(err.exit_status(), crate::exit::ExitStatus::NotFound);
        assert!(
            err.to_string()
                .starts_with("no change-log entries of session ")
        );
        assert!(!err.to_string().contains('\x1b'));
    }
}
