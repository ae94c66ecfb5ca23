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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::drift::{Field, ObjectDrift};
    use serde_json::{Value, json};

    fn entry(id: &str, ts: &str, patch: Value, extra: Value) -> Entry {
        let mut v = json!({"id": id, "session": "s", "timestamp": ts,
            "plugin": "myops", "user": "bob", "context": "bob", "server": "https://h",
            "apiVersion": "v1", "kind": "ConfigMap", "namespace": "shop", "name": "web",
            "uid": "u1", "operation": "patch", "patchType": "merge", "patch": patch,
            "dryRun": false, "before": {"data": {}}, "result": "success", "durationSeconds": 0.1});
        for (k, x) in extra.as_object().unwrap() {
            v[k] = x.clone();
        }
        serde_json::from_value(v).unwrap()
    }

    fn report() -> Report {
        let ours = entry("ours", "2026-12-05T01:00:00Z", json!({}), json!({}));
        let mut o = ObjectDrift::of(&ours, State::Drifted);
        for path in ["/data/color", "/data/size"] {
            o.fields.push(Field {
                path: path.into(),
                field: path.trim_start_matches('/').replace('/', "."),
                change: String::new(),
                managers: Vec::new(),
                owned: true,
                certain: true,
                changed_by: None,
            });
        }
        Report::new("https://h".into(), None, vec![o])
    }

    #[test]
    fn the_latest_teammate_entry_that_wrote_a_field_after_ours_names_it() {
        let mut r = report();
        let mut team = Teammates::new(["ours".to_string()].into());
        let color = json!({"data": {"color": "red"}});
        let offers = [
            // Before our change, a dry run, a failure, another server, ours: not kept.
            entry("old", "2026-12-05T00:00:00Z", color.clone(), json!({})),
            entry(
                "dry",
                "2026-12-05T02:00:00Z",
                color.clone(),
                json!({"dryRun": true}),
            ),
            entry(
                "bad",
                "2026-12-05T02:00:00Z",
                color.clone(),
                json!({"result": "denied"}),
            ),
            entry(
                "far",
                "2026-12-05T02:00:00Z",
                color.clone(),
                json!({"server": "https://x"}),
            ),
            entry("ours", "2026-12-05T02:00:00Z", color.clone(), json!({})),
            entry(
                "other",
                "2026-12-05T02:00:00Z",
                color.clone(),
                json!({"name": "db"}),
            ),
            // Kept: two writes of color, the later one names it.
            entry("b1", "2026-12-05T02:00:00Z", color.clone(), json!({})),
            entry(
                "c2",
                "2026-12-05T03:00:00Z",
                json!({"data": {"color": "pink"}}),
                json!({"user": "carol"}),
            ),
        ];
        for e in offers {
            let user = e.user.clone();
            team.offer(&r, e, user);
        }
        assert_eq!(team.len(), 2);
        team.name(&mut r);
        let f = &r.objects[0].fields;
        assert_eq!(
            f[0].changed_by,
            Some(TeamChange {
                entry: "c2".into(),
                user: "carol".into(),
                timestamp: "2026-12-05T03:00:00Z".into()
            })
        );
        assert_eq!(f[1].changed_by, None, "nobody's entry wrote data.size");
        assert_eq!(
            r.objects[0].notes,
            [
                "data.color was last changed by carol's entry c2 at 2026-12-05T03:00:00Z (from the cluster mirror; `kubectl myops changelog show c2`)"
            ]
        );
    }
}
