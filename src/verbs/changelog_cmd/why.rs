//! `changelog why OBJECT FIELD`: which journaled changes touched a field, newest first.
//!
//! A change touched the field when its journaled patch wrote the field, a field under it or
//! a field above it ([`history::touches`]) — what was *sent*, read from the patch, so an entry
//! written before after-states were journaled is found too. Only changes that
//! may have been made count: patches and rollbacks that succeeded or whose outcome is
//! unknown, not dry runs or failed attempts. The CHANGE column shows the field's change
//! from the entry's before- and after-state (Secret values masked with kubectl diff's
//! tokens), or says that the after-state was not journaled; REASON (added when any listed
//! change has one) the `--reason` it was made for.

use super::filter::matches_object;
use super::table::{MAX_CELL, any_reason, op_name};
use crate::changelog::{self, Entry, object_of};
use crate::history;
use crate::output::Printer;
use crate::output::table::OwnTable;
use crate::rules::diff;
use crate::verbs::{HistoryError, VerbError};

/// Runs `changelog why`: the table of [`touching`] entries, or one stderr line when none.
///
/// # Errors
/// [`HistoryError::BadField`] (exit 2) for a field path that is neither form.
pub fn run(
    entries: &[Entry],
    object: &str,
    field: &str,
    p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    let pointer = history::field_pointer(field).map_err(HistoryError::BadField)?;
    let found = touching(entries.to_vec(), object, &pointer);
    if found.is_empty() {
        p.err_line(&format!(
            "No journaled change touched {} of {}.",
            crate::base::echo::capped(field, 200),
            crate::base::echo::capped(object, 200)
        ));
        return Ok(());
    }
    let mut headers = vec!["Id", "Time", "User", "Operation", "Object", "Change"];
    if any_reason(&found) {
        headers.push("Reason");
    }
    let mut t = OwnTable::new(headers);
    for e in &found {
        t.row(
            [
                e.id.clone(),
                e.timestamp.clone(),
                e.user.clone(),
                op_name(e),
                object_of(e),
                change_of(e, &pointer),
                e.reason.clone().unwrap_or_default(),
            ]
            .map(|c| crate::base::echo::capped(&c, MAX_CELL)),
        );
    }
    p.out(&t.render(false))?;
    Ok(())
}

/// The changes of `object` ([`matches_object`]) that touched the field `pointer`, newest
/// first (pure): the last record of every id, patches and rollbacks that succeeded or whose
/// outcome is unknown, not dry runs.
pub fn touching(records: Vec<Entry>, object: &str, pointer: &str) -> Vec<Entry> {
    let mut out: Vec<Entry> = changelog::latest(records)
        .into_iter()
        .filter(|e| matches_object(e, object))
        .filter(|e| e.operation.patches_fields())
        .filter(|e| !e.dry_run && (e.result == "success" || e.outcome_unknown()))
        .filter(|e| {
            let touched: Vec<String> = history::touched_by(e)
                .iter()
                .map(|t| as_stored(e, t))
                .collect();
            history::touches(&touched, &as_stored(e, pointer))
        })
        .collect();
    out.reverse();
    out
}

/// The field `pointer` as entry `e`'s journaled states hold it (pure): a core/v1 Secret's
/// `stringData` is write-only — the API server merges it into `data` and never returns it
/// (k8s.io/api core/v1 `Secret.StringData`: "merged into the data field on write") — so a
/// patch that wrote `/stringData/KEY` changed `/data/KEY`, and that is where the before- and
/// after-state show it. Any other pointer is returned as it is.
fn as_stored(e: &Entry, pointer: &str) -> String {
    let secret = e.kind == "Secret" && e.api_version == "v1";
    match pointer.strip_prefix("/stringData") {
        Some(rest) if secret && (rest.is_empty() || rest.starts_with('/')) => {
            format!("/data{rest}")
        }
        _ => pointer.to_string(),
    }
}

/// The field's change in entry `e` for the CHANGE column (pure): the diff lines at, under or
/// above the field from the journaled before- and after-state, `no change` when the patch
/// wrote the value it already had; for an entry without an after-state, the value before
/// and that the after-state was not journaled.
pub fn change_of(e: &Entry, pointer: &str) -> String {
    let pointer = as_stored(e, pointer);
    let pointer = pointer.as_str();
    let unknown = if e.outcome_unknown() {
        "outcome unknown: "
    } else {
        ""
    };
    let text = match (&e.before, &e.after) {
        (Some(b), Some(a)) => {
            let lines = diff::render_field(&e.kind, b, a, pointer);
            if lines.is_empty() {
                "no change (the value it wrote was already there)".to_string()
            } else {
                lines.join("; ")
            }
        }
        (Some(b), None) => {
            // A Secret's stored value is only a marker: show kubectl's token instead.
            let b = if diff::is_secret(&e.kind, b, b) {
                diff::mask_secret_pair(b, b).0
            } else {
                b.clone()
            };
            let was = b
                .pointer(pointer)
                .map(diff::short)
                .unwrap_or_else(|| "(absent)".into());
            format!(
                "was {was}; after-state not journaled (`changelog diff {}` reads the object)",
                e.id
            )
        }
        (None, _) => "no before-state journaled (the object could not be read)".to_string(),
    };
    format!("{unknown}{text}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn change(id: &str, patch: Value, before: Value, after: Option<Value>) -> Entry {
        Entry {
            id: id.into(),
            timestamp: format!("2026-12-02T07:0{id}:00Z"),
            api_version: "apps/v1".into(),
            patch_type: Some("merge".into()),
            patch: Some(patch),
            before: Some(before),
            after,
            ..crate::verbs::changelog_cmd::tests::entry("Deployment", Some("shop"), "web")
        }
    }

    #[test]
    fn changes_that_touched_a_field_are_listed_newest_first_with_their_change() {
        let r2 = json!({"spec": {"replicas": 2, "paused": false}});
        let r3 = json!({"spec": {"replicas": 3, "paused": false}});
        let r4 = json!({"spec": {"replicas": 4, "paused": false}});
        let mut dry = change("4", json!({"spec": {"replicas": 9}}), r4.clone(), None);
        dry.dry_run = true;
        let mut failed = change("5", json!({"spec": {"replicas": 9}}), r4.clone(), None);
        failed.result = "Invalid (422): no".into();
        let records = vec![
            change("1", json!({"spec": {"replicas": 3}}), r2, Some(r3.clone())),
            change("2", json!({"spec": {"paused": true}}), r3.clone(), None),
            change("3", json!({"spec": {"replicas": 4}}), r3, Some(r4)),
            dry,
            failed,
        ];
        let found = touching(records.clone(), "deployment/shop/web", "/spec/replicas");
        let ids: Vec<&str> = found.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids, ["3", "1"]);
        assert_eq!(
            change_of(&found[0], "/spec/replicas"),
            "spec.replicas: 3 → 4"
        );
        // Asking for the parent finds both fields' changes.
        assert_eq!(touching(records.clone(), "web", "/spec").len(), 3);
        assert_eq!(
            change_of(&records[1], "/spec/paused"),
            "was false; after-state not journaled (`changelog diff 2` reads the object)"
        );
        assert!(touching(records, "deployment/other/web", "/spec/replicas").is_empty());
    }

    #[test]
    fn a_secret_field_change_is_masked_with_kubectl_tokens() {
        let mut e = change(
            "1",
            json!({"data": {"pw": "<redacted>"}}),
            json!({"kind": "Secret", "data": {"pw": "<redacted>", "user": "<redacted>"}}),
            Some(
                json!({"kind": "Secret", "data": {"pw": changelog::REDACTED_CHANGED, "user": "<redacted>"}}),
            ),
        );
        e.kind = "Secret".into();
        assert_eq!(
            change_of(&e, "/data/pw"),
            "data.pw: \"*** (before)\" → \"*** (after)\""
        );
        e.after = None;
        assert!(change_of(&e, "/data/pw").starts_with("was \"***\"; "));
    }
}
