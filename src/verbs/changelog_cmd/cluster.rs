//! `changelog list --from-cluster`: everyone's entries from the cluster mirror (docs/team.md).
//!
//! The mirror is read page by page ([`crate::guard::team::MirrorReader::each`]); of each
//! record only a summary is kept (the record without its before- and after-state and
//! patch), one per entry id — the latest complete record of the id — so 10,000 records list
//! in the memory of 10,000 summaries, never of their states. USER is `spec.createdBy`, the
//! API server's view of who wrote the record (the ValidatingAdmissionPolicy of
//! `deploy/changelog/` pins it at create); a record with problems (edited, claiming another
//! user) is listed with them in a last PROBLEM column, never as the user it claims.

use std::collections::HashMap;

use serde_json::{Value, json};

use super::filter::{ListFilter, select};
use super::table::MAX_CELL;

use crate::base::echo::capped;
use crate::changelog::{Entry, mirror::Mirrored, object_of};
use crate::cli::{ChangelogCommand, ListFormat};
use crate::guard::team::{MirrorReader, Which};
use crate::guard::{Purpose, Session};
use crate::output::table::OwnTable;
use crate::output::{Printer, to_json, to_yaml};
use crate::settings::Settings;
use crate::verbs::VerbError;

/// One entry as `list --from-cluster` keeps it: the record without its states and who created it.
#[derive(Debug, Clone)]
pub struct Summary {
    /// The record, its `before`, `after` and `patch` dropped.
    pub entry: Entry,
    /// `spec.createdBy`.
    pub created_by: String,
    /// `metadata.creationTimestamp`.
    pub created: Option<String>,
    /// The ChangeRecord's name.
    pub name: String,
    /// What is wrong with the record.
    pub problems: Vec<String>,
}

impl Summary {
    /// The summary of a mirrored record (pure).
    pub fn of(m: Mirrored) -> Summary {
        let mut entry = m.entry;
        entry.before = None;
        entry.after = None;
        entry.patch = None;
        Summary {
            entry,
            created_by: m.created_by,
            created: m.created,
            name: m.name,
            problems: m.problems,
        }
    }

    /// Whether this record is later than `other` of the same id (pure): the record's time,
    /// then the object's creation.
    fn later_than(&self, other: &Summary) -> bool {
        crate::changelog::mirror::precedence(
            &self.problems,
            &self.entry.timestamp,
            self.created.as_deref(),
        ) >= crate::changelog::mirror::precedence(
            &other.problems,
            &other.entry.timestamp,
            other.created.as_deref(),
        )
    }
}

/// Whether `e` matches the positional `TYPE [NAME]` (pure): TYPE a kind or its plural
/// (any case), or `TYPE/NAME`.
pub fn matches_target(e: &Entry, target: &[String]) -> bool {
    let (ty, name) = match target {
        [] => return true,
        [t] => match t.split_once('/') {
            Some((t, n)) => (t, Some(n)),
            None => (t.as_str(), None),
        },
        [t, n, ..] => (t.as_str(), Some(n.as_str())),
    };
    let kind = e.kind.to_lowercase();
    let ty = ty.to_lowercase();
    let ty = ty.split('.').next().unwrap_or_default();
    let kind_ok = ty == kind || ty.strip_suffix('s') == Some(kind.as_str()) || {
        // `ingresses`, `networkpolicies`: the plural forms kubectl derives.
        ty.strip_suffix("es") == Some(kind.as_str())
            || (kind.ends_with('y') && ty == format!("{}ies", &kind[..kind.len() - 1]))
    };
    kind_ok && name.is_none_or(|n| e.name == n)
}

/// `TYPE [NAME]` with TYPE replaced by its kind when discovery resolves it (`cm` →
/// `ConfigMap`); as given otherwise.
async fn resolved_target(session: &Session<'_>, target: &[String]) -> Vec<String> {
    let mut out = target.to_vec();
    let Some(first) = out.first_mut() else {
        return out;
    };
    let (ty, name) = match first.split_once('/') {
        Some((t, n)) => (t.to_string(), Some(n.to_string())),
        None => (first.clone(), None),
    };
    if let Ok(r) = session.resolve(&ty).await {
        *first = match name {
            Some(n) => format!("{}/{n}", r.api.kind),
            None => r.api.kind.clone(),
        };
    }
    out
}

/// Runs `changelog list --from-cluster`.
///
/// # Errors
/// Usage errors of the filters (2); the mirror not configured (2), not installed, denied (3)
/// or unreachable ([`crate::guard::team::MirrorError`]).
pub async fn run(
    s: &Settings,
    cmd: &ChangelogCommand,
    p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    let ChangelogCommand::List {
        since: since_arg,
        object,
        session,
        operation,
        result,
        actor,
        output,
        limit,
        target,
        by,
        ..
    } = cmd
    else {
        return Ok(());
    };
    if s.plugin.changelog.mirror.is_none() {
        return Err(
            crate::guard::GuardError::from(crate::guard::team::MirrorError::NotConfigured).into(),
        );
    }
    let cutoff = super::filter::cutoff_of(since_arg.as_deref(), session.as_deref())?;
    // The global --context picks the cluster here; contexts are names on each workstation,
    // so they do not filter. --by is matched against the record's creator (--user stays
    // kubectl's: the kubeconfig user this command authenticates as).
    let filter = ListFilter {
        cutoff,
        object: object.as_deref(),
        session: session.as_deref(),
        context: None,
        user: None,
        operation: operation.as_deref(),
        result: *result,
        actor: actor.as_deref(),
    };
    let user = by.as_deref();
    let session_ = Session::open(s, p, Purpose::Read).await?;
    let mut reader = MirrorReader::new(&session_).map_err(crate::guard::GuardError::from)?;
    // TYPE as kubectl takes it (a short name such as `cm`, a singular, a plural): resolved
    // through discovery to its kind when the server knows it; otherwise matched as written
    // (a type no longer served still names its records).
    let target = resolved_target(&session_, target).await;
    let target = &target;
    // Keyed by id and creator: one id from two creators is a conflict, both rows shown.
    let mut by_id: HashMap<(String, String), Summary> = HashMap::new();
    // A record with problems is listed on its own row, never in place of the genuine
    // record of its id (a forged copy must not hide it, nor hide itself behind it).
    let mut flagged: Vec<Summary> = Vec::new();
    let mut unreadable = 0usize;
    reader
        .each(&Which::All, |m| {
            match m {
                Ok(m) => {
                    let sum = Summary::of(m);
                    if user.is_some_and(|u| sum.created_by != u)
                        || !matches_target(&sum.entry, target)
                        || select(vec![sum.entry.clone()], &filter).is_empty()
                    {
                        return true;
                    }
                    if !sum.problems.is_empty() {
                        flagged.push(sum);
                        return true;
                    }
                    let key = (sum.entry.id.clone(), sum.created_by.clone());
                    match by_id.get(&key) {
                        Some(had) if !sum.later_than(had) => {}
                        _ => {
                            by_id.insert(key, sum);
                        }
                    }
                }
                Err(_) => unreadable += 1,
            }
            true
        })
        .await
        .map_err(crate::guard::GuardError::from)?;
    if unreadable > 0 {
        p.err_line(&format!(
            "warning: {unreadable} ChangeRecord(s) in namespace {} are not readable records and were skipped; an admin may inspect them with kubectl get changerecords -n {}",
            reader.namespace(),
            reader.namespace()
        ));
    }
    let mut holders: HashMap<String, usize> = HashMap::new();
    for (id, _) in by_id.keys() {
        *holders.entry(id.clone()).or_default() += 1;
    }
    let mut rows: Vec<Summary> = by_id
        .into_values()
        .map(|mut r| {
            if holders.get(&r.entry.id).is_some_and(|n| *n > 1) {
                r.problems.push(
                    "its entry id is also held by another creator's record: the mirror cannot tell which is the change"
                        .into(),
                );
            }
            r
        })
        .chain(flagged)
        .collect();
    rows.sort_by(|a, b| (&a.entry.timestamp, &a.entry.id).cmp(&(&b.entry.timestamp, &b.entry.id)));
    if let Some(n) = limit {
        let skip = rows.len().saturating_sub(*n);
        rows.drain(..skip);
    }
    match output {
        Some(ListFormat::Json) => p.out(&to_json(&as_json(&rows))?)?,
        Some(ListFormat::Yaml) => p.out(&to_yaml(&as_json(&rows))?)?,
        None => {
            if rows.is_empty() {
                p.err_line("No change-log entries in the cluster mirror.");
                return Ok(());
            }
            p.out(&table(&rows).render(false))?;
        }
    }
    Ok(())
}

/// The `-o json|yaml` form (pure): each entry's record without its states, with
/// `changeRecord`, `createdBy` and `problems`.
pub fn as_json(rows: &[Summary]) -> Value {
    Value::Array(
        rows.iter()
            .map(|r| {
                let mut v = serde_json::to_value(&r.entry).unwrap_or(Value::Null);
                if let Some(m) = v.as_object_mut() {
                    // Summaries only: the states were dropped, not empty.
                    for k in ["before", "after", "patch"] {
                        m.remove(k);
                    }
                    m.insert(
                        "mirror".into(),
                        json!({"changeRecord": r.name, "createdBy": r.created_by, "problems": r.problems}),
                    );
                }
                v
            })
            .collect(),
    )
}

/// The `list --from-cluster` table (pure): as `changelog list`, USER the record's creator,
/// CONTEXT left out (a name on someone else's workstation), a last PROBLEM column when a
/// listed record has one.
pub fn table(rows: &[Summary]) -> OwnTable {
    let reasons = rows.iter().any(|r| r.entry.reason.is_some());
    let problems = rows.iter().any(|r| !r.problems.is_empty());
    let mut headers = vec!["Id", "Time", "User", "Operation", "Object", "Result"];
    if reasons {
        headers.push("Reason");
    }
    if problems {
        headers.push("Problem");
    }
    let mut t = OwnTable::new(headers);
    for r in rows {
        let e = &r.entry;
        let (op, result) = super::table::op_and_result(e);
        let mut cells = vec![
            e.id.clone(),
            e.timestamp.clone(),
            r.created_by.clone(),
            op,
            object_of(e),
            result,
        ];
        if reasons {
            cells.push(e.reason.clone().unwrap_or_default());
        }
        if problems {
            cells.push(if r.problems.is_empty() {
                String::new()
            } else {
                format!("! {}", r.problems.join("; "))
            });
        }
        t.row(
            cells
                .iter()
                .map(|c| capped(c, MAX_CELL))
                .collect::<Vec<_>>(),
        );
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::changelog::mirror::ChainPlace;
    use crate::verbs::changelog_cmd::tests::entry;

    fn summary(id: &str, ts: &str, by: &str, problems: &[&str]) -> Summary {
        let mut e = entry("ConfigMap", Some("shop"), "web");
        e.id = id.into();
        e.timestamp = ts.into();
        e.user = "alice".into();
        e.before = Some(serde_json::json!({"data": {"k": "v1"}}));
        Summary::of(Mirrored {
            name: format!("{id}-abc"),
            line: String::new(),
            chain: ChainPlace {
                journal: "j".into(),
                prev: "p".into(),
                hash: "h".into(),
            },
            created_by: by.into(),
            created: None,
            problems: problems.iter().map(|p| (*p).to_string()).collect(),
            entry: e,
        })
    }

    #[test]
    fn type_and_name_select_by_kind_or_plural_and_name() {
        let e = entry("NetworkPolicy", Some("shop"), "web");
        for t in [
            &["networkpolicy"][..],
            &["NetworkPolicies"],
            &["networkpolicies", "web"],
            &["networkpolicy/web"],
            &["networkpolicies.networking.k8s.io"],
            &[],
        ] {
            let t: Vec<String> = t.iter().map(|s| (*s).to_string()).collect();
            assert!(matches_target(&e, &t), "{t:?}");
        }
        for t in [&["configmap"][..], &["networkpolicy", "db"]] {
            let t: Vec<String> = t.iter().map(|s| (*s).to_string()).collect();
            assert!(!matches_target(&e, &t), "{t:?}");
        }
    }

    #[test]
    fn the_table_shows_the_creator_and_names_problems_and_json_drops_the_states() {
        let ok = summary("1", "2026-12-05T01:00:00Z", "alice", &[]);
        assert_eq!(ok.entry.before, None, "summaries keep no state");
        let forged = summary(
            "2",
            "2026-12-05T02:00:00Z",
            "admin",
            &["the record claims user alice but was created by admin"],
        );
        // A record with problems never takes precedence over a clean one, however late.
        assert!(!forged.later_than(&ok));
        assert!(ok.later_than(&forged));
        let t = table(&[ok.clone(), forged.clone()]);
        assert_eq!(
            t.rows()[1],
            [
                "2",
                "2026-12-05T02:00:00Z",
                "admin",
                "patch",
                "configmap/shop/web",
                "success",
                "! the record claims user alice but was created by admin"
            ]
        );
        assert_eq!(t.rows()[0][2], "alice");
        assert_eq!(t.rows()[0][6], "");
        assert_eq!(
            table(std::slice::from_ref(&ok)).rows()[0].len(),
            6,
            "no PROBLEM column"
        );
        let j = as_json(&[forged]);
        assert_eq!(j[0]["mirror"]["createdBy"], "admin");
        assert_eq!(
            j[0]["user"], "alice",
            "the line's claim, beside its creator"
        );
        assert!(j[0].get("before").is_none());
    }
}
