//! Which teammate changed a drifted field (pure): the cluster mirror's entries of other
//! workstations ([`crate::changelog::mirror`]) matched against the drifted objects of a
//! [`Report`]. An entry counts when it really changed the object (a `patch` or `rollback`
//! with result `success`, not a dry run, on the same API server), started after our last
//! change of it, is not one of ours, and its journaled patch wrote the field, a field under
//! it or above it ([`history::touches`]); the latest such entry names the field's
//! `changedBy`. Records with problems (edited, claiming another user) are never used: they
//! would name someone on the word of an untrusted record.

use std::collections::HashSet;

use serde::Serialize;

use super::{Report, State, group_of};
use crate::changelog::Entry;
use crate::history;

/// A teammate's mirrored entry that changed a field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TeamChange {
    /// The entry id (`kubectl myops changelog show ID` reads it from the mirror).
    pub entry: String,
    /// Who created the mirrored record (`spec.createdBy`, the API server's view).
    pub user: String,
    /// When the change started (RFC 3339).
    pub timestamp: String,
}

/// The mirrored entries kept for a report: only those that can explain one of its drifted
/// objects, their states dropped (the patch is what is matched).
#[derive(Debug, Default)]
pub struct Teammates {
    kept: Vec<(Entry, String)>,
    ours: HashSet<String>,
}

impl Teammates {
    /// Empty, with the ids of our own journal (never a teammate's).
    pub fn new(ours: HashSet<String>) -> Teammates {
        Teammates {
            kept: Vec::new(),
            ours,
        }
    }

    /// Keeps `e` (created by `user`) when it may explain a drifted object of `report`.
    pub fn offer(&mut self, report: &Report, mut e: Entry, user: String) {
        if self.ours.contains(&e.id)
            || e.server != report.server
            || e.dry_run
            || e.result != "success"
            || !e.operation.patches_fields()
        {
            return;
        }
        let relevant = report.objects.iter().any(|o| {
            o.state == State::Drifted
                && group_of(&o.api_version) == group_of(&e.api_version)
                && o.kind == e.kind
                && o.namespace == e.namespace
                && o.name == e.name
                && e.timestamp > o.changed_at
        });
        if relevant {
            e.before = None;
            e.after = None;
            self.kept.push((e, user));
        }
    }

    /// How many entries were kept.
    pub fn len(&self) -> usize {
        self.kept.len()
    }

    /// Whether none were kept.
    pub fn is_empty(&self) -> bool {
        self.kept.is_empty()
    }

    /// Sets `changedBy` on every drifted field a kept entry wrote (the latest such entry),
    /// and adds a note naming it to its object.
    pub fn name(&self, report: &mut Report) {
        for o in report
            .objects
            .iter_mut()
            .filter(|o| o.state == State::Drifted)
        {
            let mine: Vec<&(Entry, String)> = self
                .kept
                .iter()
                .filter(|(e, _)| {
                    group_of(&o.api_version) == group_of(&e.api_version)
                        && o.kind == e.kind
                        && o.namespace == e.namespace
                        && o.name == e.name
                        && e.timestamp > o.changed_at
                })
                .collect();
            let mut notes = Vec::new();
            for f in &mut o.fields {
                let last = mine
                    .iter()
                    .filter(|(e, _)| history::touches(&history::touched_by(e), &f.path))
                    .max_by(|a, b| a.0.timestamp.cmp(&b.0.timestamp));
                if let Some((e, user)) = last {
                    notes.push(format!(
                        "{} was last changed by {}'s entry {} at {} (from the cluster mirror; `kubectl myops changelog show {}`)",
                        f.field,
                        crate::base::echo::capped(user, 200),
                        e.id,
                        e.timestamp,
                        e.id
                    ));
                    f.changed_by = Some(TeamChange {
                        entry: e.id.clone(),
                        user: user.clone(),
                        timestamp: e.timestamp.clone(),
                    });
                }
            }
            o.notes.extend(notes);
        }
    }
}
