//! `drift [TYPE [NAME…]] [-A]`: the objects changed since the change log
//! last changed them, with the changed fields and the managers that own them now.
//!
//! The judging is pure ([`crate::history::drift`]); this verb reads the change log, opens one guarded
//! session in the current context (reads only: the change log need not be writable), reads
//! each object through the shared guarded read ([`crate::history::live`]: plugin.yaml verb
//! `get`, then a SelfSubjectAccessReview for `get` on the named object — a read, so `drift`
//! needs exactly what `get` of that object needs), and prints a table, or the report as JSON.
//!
//! Scope: the records made against the session's API server (records carry it); without
//! `-A`, only objects in the current namespace and cluster-scoped ones. `--contexts` is not
//! supported: each context has its own server, so run `drift` once per context.
//!
//! Exit status ([`ExitStatus::Drift`], 6): 0 when nothing drifted, 6 when some object
//! changed, was deleted or was re-created, and — since an error wins — the most severe
//! error's code when some object could not be checked (each named on stderr). After a
//! runtime failure (exit 1: unreachable, timed out) the remaining objects are not read.

use crate::base::echo::capped;
use crate::changelog;
use crate::cli::{DriftArgs, DriftFormat};
use crate::exit::ExitStatus;
use crate::guard::{Purpose, Session};
use crate::history::drift::{self, Baseline, Field, Manager, ObjectDrift, Report, State};
use crate::history::live::{self, Live};
use crate::output::table::OwnTable;
use crate::output::{Printer, to_json};
use crate::settings::Settings;
use crate::verbs::VerbError;

/// The widest cell, in characters (as `changelog list`).
const MAX_CELL: usize = 600;

/// Runs `drift`; returns 0, or [`ExitStatus::Drift`] when something drifted, or the most
/// severe status of the objects that could not be checked.
///
/// # Errors
/// The change log cannot be read (exit 1); no usable kubeconfig, or TYPE does not resolve
/// (exit 2); the session cannot be opened (exit 1 or 3).
pub async fn run(
    s: &Settings,
    args: &DriftArgs,
    p: &mut Printer<'_>,
) -> Result<ExitStatus, VerbError> {
    if let Some(w) = changelog::home_warning(&s.home) {
        p.err_line(&w);
    }
    // The log is walked without its object states and only each object's baseline is read
    // whole ([`drift::scan`]), before the session is opened: the shared lock is not held
    // across network calls.
    let mut scan = drift::scan(&s.home).map_err(VerbError::io)?;
    if scan.invalid > 0 {
        p.err_line(&changelog::skipped_warning(
            scan.invalid,
            &changelog::path(&s.home),
        ));
    }
    let ours = std::mem::take(&mut scan.ours);
    let session = Session::open(s, p, Purpose::Read).await?;
    let kind = match &args.type_name {
        Some(t) => {
            let t = session.resolve(t).await?;
            Some((t.api.group.clone(), t.api.kind.clone()))
        }
        None => None,
    };
    let selected: Vec<Baseline> = scan
        .take(session.server())
        .into_iter()
        .filter(|b| {
            let e = &b.entry;
            kind.as_ref()
                .is_none_or(|(g, k)| drift::group_of(&e.api_version) == g && e.kind == *k)
                && (args.names.is_empty() || args.names.contains(&e.name))
                && (args.all_namespaces
                    || e.namespace.is_none()
                    || e.namespace.as_deref() == Some(session.namespace()))
        })
        .collect();
    let mut objects = Vec::with_capacity(selected.len());
    let mut errors = Vec::new();
    // After a runtime failure (the server unreachable, a request timed out) the remaining
    // objects are not read: each would wait out its own deadline for the same answer.
    let mut failed: Option<String> = None;
    for b in &selected {
        let e = &b.entry;
        if let Some(why) = &failed {
            objects.push(ObjectDrift::failed(
                e,
                format!("not checked: an earlier read failed ({why})"),
            ));
            continue;
        }
        let mut d = match live::read_journaled(&session, e).await {
            Ok((_, Live::Found(v))) => drift::compare(e, &v),
            // Our own last change deleted it (a rollback of a create): gone is as we left it.
            Ok((_, Live::Gone))
                if e.patch_type.as_deref() == Some(crate::guard::change::DELETE) =>
            {
                ObjectDrift::of(e, State::Unchanged)
            }
            Ok((_, Live::Gone)) => ObjectDrift::of(e, State::Deleted),
            Ok((obj, Live::Forbidden)) => {
                errors.push(ExitStatus::Denied);
                ObjectDrift::failed(
                    e,
                    format!(
                        "the server answered Forbidden to the read of {}",
                        obj.display()
                    ),
                )
            }
            Err(err) => {
                let err = VerbError::from(err);
                errors.push(err.exit_status());
                if err.exit_status() == ExitStatus::Failure {
                    failed = Some(capped(&err.to_string(), 200));
                }
                ObjectDrift::failed(e, err.to_string())
            }
        };
        if let Some(id) = &b.unknown_after {
            d.notes.push(format!(
                "a later change of ours, entry {id}, has no outcome record (outcome unknown): it may be what changed the object; `kubectl myops changelog reconcile {id}` finds and records its outcome"
            ));
        }
        objects.push(d);
    }
    let mut report = Report::new(
        session.server().to_string(),
        session.context().map(str::to_string),
        objects,
    );
    if s.plugin.changelog.mirror.is_some()
        && report.objects.iter().any(|o| o.state == State::Drifted)
    {
        name_teammates(&session, ours, &mut report, p).await;
    }
    match args.output {
        Some(DriftFormat::Json) => p.out(&to_json(&report)?)?,
        None => {
            let t = table(&report);
            if !t.is_empty() {
                p.out(&t.render(false))?;
            }
        }
    }
    for o in &report.objects {
        if let Some(err) = &o.error {
            p.err_line(&format!("error: {}: {err}", capped(&o.object, MAX_CELL)));
        }
        for n in &o.notes {
            p.err_line(&format!("note: {}: {n}", capped(&o.object, MAX_CELL)));
        }
    }
    p.err_line(&summary(&report));
    let status = if report.drifted > 0 {
        ExitStatus::Drift
    } else {
        ExitStatus::Success
    };
    Ok(ExitStatus::most_severe(errors.into_iter().chain([status])))
}

/// Names the teammates whose mirrored entries changed drifted fields last
/// ([`drift::Teammates`]), reading the cluster mirror once, page by page, keeping only the
/// entries about drifted objects. The mirror is a help here, not the check: when it cannot
/// be read, one `warning:` line says so and the report stands as it is.
async fn name_teammates(
    session: &Session<'_>,
    ours: std::collections::HashSet<String>,
    report: &mut Report,
    p: &mut Printer<'_>,
) {
    let mut team = drift::Teammates::new(ours);
    let read = match crate::guard::team::MirrorReader::new(session) {
        Ok(mut reader) => {
            reader
                .each(&crate::guard::team::Which::All, |m| {
                    if let Ok(m) = m
                        && m.problems.is_empty()
                    {
                        team.offer(report, m.entry, m.created_by);
                    }
                    true
                })
                .await
        }
        Err(e) => Err(e),
    };
    match read {
        Ok(_) => team.name(report),
        Err(e) => p.err_line(&format!(
            "warning: the cluster mirror could not be read, so drift does not name teammates' changes: {e}"
        )),
    }
}

/// The stderr line after the report (pure): how many objects were checked, drifted, and
/// could not be checked.
pub fn summary(r: &Report) -> String {
    let (n, d, e) = (r.checked, r.drifted, r.errors);
    let unchecked = match e {
        0 => String::new(),
        e => format!("; {e} could not be checked (named above)"),
    };
    match (n, d, e) {
        (0, _, _) => "No objects to check: the change log holds no change of ours to a matching object on this server.".into(),
        (n, 0, 0) => format!("No drift: {n} object(s) as our last change left them."),
        (n, 0, e) => format!("No drift in {} of {n} object(s){unchecked}.", n - e),
        (n, d, _) => format!(
            "Drift: {d} of {n} object(s) changed since our last change{unchecked}; `kubectl myops changelog diff ENTRY` shows what we changed (ENTRY in -o json)."
        ),
    }
}

/// The table of the drifted objects (pure): OBJECT, FIELD, MANAGER, OPERATION, TIME — one
/// row per changed field and manager; a deleted or re-created object, or one whose changed
/// fields are not known, gets one row saying so. Cells are escaped and capped.
pub fn table(r: &Report) -> OwnTable {
    let mut t = OwnTable::new(["Object", "Field", "Manager", "Operation", "Time"]);
    let mut row = |object: &str, field: &str, m: Option<&Manager>, how: &str| {
        let (manager, operation, time) = match m {
            Some(m) => (
                format!(
                    "{}{}{how}",
                    m.manager,
                    m.subresource
                        .as_deref()
                        .map(|s| format!(" ({s})"))
                        .unwrap_or_default()
                ),
                m.operation.clone(),
                m.time.clone().unwrap_or_default(),
            ),
            None => (String::new(), String::new(), String::new()),
        };
        t.row([object, field, &manager, &operation, &time].map(|c| capped(c, MAX_CELL)));
    };
    for o in r.objects.iter().filter(|o| o.state.is_drift()) {
        let whole = match o.state {
            State::Deleted => Some("(deleted)"),
            State::Replaced => Some("(deleted and created again)"),
            _ if o.fields.is_empty() => Some("(fields not known)"),
            _ => None,
        };
        if let Some(what) = whole {
            if o.writers_since.is_empty() || o.state != State::Drifted {
                row(&o.object, what, None, "");
            }
            if o.state == State::Drifted {
                for m in &o.writers_since {
                    row(&o.object, what, Some(m), " (wrote since)");
                }
            }
            continue;
        }
        for f in &o.fields {
            let field = field_cell(f);
            let how = if f.owned { "" } else { " (wrote since)" };
            if f.managers.is_empty() {
                row(&o.object, &field, None, "");
            }
            for m in &f.managers {
                row(&o.object, &field, Some(m), how);
            }
        }
    }
    t
}

/// The FIELD cell: the field, and whether it was added, removed, or (a Secret value) may
/// have changed.
fn field_cell(f: &Field) -> String {
    if !f.certain {
        format!("{} (value may have changed)", f.field)
    } else if f.change.starts_with("+ ") {
        format!("{} (added)", f.field)
    } else if f.change.starts_with("- ") {
        format!("{} (removed)", f.field)
    } else {
        f.field.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(states: &[State]) -> Report {
        let e: crate::changelog::Entry = serde_json::from_value(serde_json::json!({
            "id": "1", "timestamp": "2026-12-02T08:00:00Z", "plugin": "myops", "user": "admin",
            "context": null, "server": "https://h", "apiVersion": "v1", "kind": "ConfigMap",
            "namespace": "shop", "name": "web", "uid": null, "operation": "patch",
            "patchType": null, "patch": null, "dryRun": false, "before": null,
            "resourceVersionAfter": "7", "result": "success", "durationSeconds": 0.1}))
        .unwrap();
        let objects = states.iter().map(|s| ObjectDrift::of(&e, *s)).collect();
        Report::new("https://h".into(), None, objects)
    }

    #[test]
    fn the_summary_counts_checked_drifted_and_unchecked_objects() {
        assert!(summary(&report(&[])).starts_with("No objects to check"));
        assert_eq!(
            summary(&report(&[State::Unchanged, State::Unchanged])),
            "No drift: 2 object(s) as our last change left them."
        );
        assert_eq!(
            summary(&report(&[State::Unchanged, State::Error])),
            "No drift in 1 of 2 object(s); 1 could not be checked (named above)."
        );
        assert!(
            summary(&report(&[State::Deleted, State::Error, State::Unchanged])).starts_with(
                "Drift: 1 of 3 object(s) changed since our last change; 1 could not be checked (named above); "
            )
        );
        let t = table(&report(&[State::Deleted, State::Unchanged]));
        assert_eq!(t.rows().len(), 1, "unchanged objects are not rows");
        assert_eq!(t.rows()[0][1], "(deleted)");
    }
}
