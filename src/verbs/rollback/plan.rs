//! What `rollback --session` will do (pure, [`plan_session`]): the changes of one session,
//! grouped by the context and server they were made on, and the order to undo them in.

use super::entry::find_entry;
use crate::changelog::Entry;
use crate::verbs::{SessionRollbackError, VerbError};

/// The usage error of `rollback --session ''`: the change-log records without a session
/// (older records) all carry the empty session id, so it would select unrelated
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
/// [`VerbError::Usage`] (exit 2) for an empty session id: the records without a session
/// all carry the empty one, and they are not one invocation.
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
        return Err(SessionRollbackError::NoSession(crate::base::echo::capped(session, 64)).into());
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
        // A delete the server accepted while finalizers hold the object (`deleting`) changed
        // it as much as a `success`; the objects journaled with a container's delete
        // (`snapshot`) come back with it, not as changes of their own.
        if last.is_some_and(|e| e.dry_run || !(e.succeeded() || e.outcome_unknown())) {
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
