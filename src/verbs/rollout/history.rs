//! `rollout history [--revision N]`: the revisions of a rollout as kubectl prints them
//! (`rollout_history.go`, `history.go`): a `REVISION  CHANGE-CAUSE` table, or one revision's
//! pod template. Read-only: reviews for `get` of the object and `list` of its revisions.

use serde_json::Value;

use super::revisions::{self, CHANGE_CAUSE, Revision, Workload};
use super::{Failures, describe, list_revisions, named, revisions_review, workload};
use crate::cli::RolloutHistoryArgs;
use crate::config::Verb;
use crate::guard::{ObjectRef, Purpose, Session};
use crate::output::Printer;
use crate::settings::Settings;
use crate::verbs::{Outcome, VerbError};

/// Prints the history of every named object (a failure is printed and the next one tried).
pub async fn run(s: &Settings, a: &RolloutHistoryArgs, p: &mut Printer<'_>) -> Outcome {
    if a.revision < 0 {
        return Outcome::early(VerbError::Usage(format!(
            "revision must be a positive integer: {}",
            a.revision
        )));
    }
    let objects = match named(&a.args) {
        Ok(o) => o,
        Err(e) => return Outcome::early(e),
    };
    let session = match Session::open(s, p, Purpose::Read).await {
        Ok(x) => x,
        Err(e) => return Outcome::early(e),
    };
    let mut failures = Failures::default();
    let mut resource = None;
    for (type_name, name) in &objects {
        if let Err(e) = history_one(&session, type_name, name, a, &mut resource, p).await {
            failures.push(e, p);
        }
    }
    failures.outcome(resource)
}

/// kubectl's refusal of a type that has no rollout (`history.go`, `HistoryViewerFor`).
fn no_viewer(o: &ObjectRef) -> String {
    revisions::no_implementation(&o.t, "history viewer", "history")
}

async fn history_one(
    session: &Session<'_>,
    type_name: &str,
    name: &str,
    a: &RolloutHistoryArgs,
    resource: &mut Option<String>,
    p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    let (obj, w) = workload(session, type_name, name, no_viewer).await?;
    resource.get_or_insert_with(|| obj.t.group_resource());
    let grant = session
        .authorize(
            Verb::Rollout,
            &obj.t,
            false,
            &[obj.access("get", None), revisions_review(&obj, w)],
        )
        .await?;
    let current = session.read(&grant, &obj).await?.ok_or_else(|| {
        VerbError::Usage(format!(
            "reading {} is forbidden; ask a cluster admin for get on it",
            obj.display()
        ))
    })?;
    let revs = list_revisions(session, &grant, &obj, w, &current).await?;
    let text = history_text(w, &revs, a.revision).map_err(VerbError::Usage)?;
    let with = if a.revision > 0 {
        format!("with revision #{}", a.revision)
    } else {
        String::new()
    };
    p.out(&format!("{} {with}\n{text}\n", obj.display()))?;
    Ok(())
}

/// What kubectl's history viewer returns for `revs` (pure): `No rollout history found.`, the
/// pod template of `revision` (> 0), or the table of revisions and change causes.
///
/// # Errors
/// kubectl's `unable to find the specified revision`.
pub fn history_text(w: Workload, revs: &[Revision], revision: i64) -> Result<String, String> {
    // Keyed by revision, a later object of the same number replacing an earlier one (as
    // kubectl's map does).
    let mut by_number: std::collections::BTreeMap<i64, (Value, String)> = Default::default();
    for r in revs {
        let cause = r
            .object
            .pointer("/metadata/annotations")
            .and_then(|m| m.get(CHANGE_CAUSE))
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let mut template = revisions::template_of(w, r);
        // A Deployment's history shows the ReplicaSet's change cause in the template.
        if w == Workload::Deployment && !cause.is_empty() {
            template["metadata"]["annotations"][CHANGE_CAUSE] = Value::String(cause.clone());
        }
        by_number.insert(r.number, (template, cause));
    }
    if by_number.is_empty() {
        return Ok("No rollout history found.".into());
    }
    if revision > 0 {
        return by_number
            .get(&revision)
            .map(|(t, _)| describe::pod_template(t))
            .ok_or_else(|| "unable to find the specified revision".to_string());
    }
    let mut lines = vec![vec!["REVISION".to_string(), "CHANGE-CAUSE".to_string()]];
    for (n, (_, cause)) in &by_number {
        let cause = if cause.is_empty() { "<none>" } else { cause };
        lines.push(vec![n.to_string(), cause.to_string()]);
    }
    Ok(tabbed(&lines))
}

/// Go's `tabwriter` as kubectl's `tabbedString` sets it up (minwidth 0, padding 2, pad ' '):
/// every cell but a line's last padded to its column's widest cell plus 2.
fn tabbed(lines: &[Vec<String>]) -> String {
    let mut width = 0;
    for l in lines {
        width = width.max(l[0].chars().count() + 2);
    }
    let mut out = String::new();
    for l in lines {
        out.push_str(&format!("{:<width$}{}\n", l[0], l[1]));
    }
    out
}
