//! `changelog list` and `changelog show ID`: reading the change log (ARCHITECTURE §7).
//!
//! The log is write-ahead (see [`crate::changelog`]): an id has an intent record
//! (`result: "pending"`) and, once the request returned, an outcome record. Both commands
//! read [`changelog::latest`], so every id appears once, as its last record; an id whose last
//! record is still the intent is shown as `outcome unknown` rather than `pending`, because
//! nothing is pending any more: the command stopped, and whether the change was made can only
//! be learnt from the object.
//!
//! A bad line never makes the log unreadable (issue 10): lines that are not valid entries are
//! skipped with one `warning:` line saying how many, and `changelog list --invalid` lists them
//! by line number and reason (never their content). Every cell and echoed id is escaped and
//! capped ([`crate::echo::capped`]): the log is a file anyone with the account can edit.
//!
//! Issue 15 part 3, readable history: `changelog list` filters by user (the global `--user`,
//! matched against the user the API server saw), context (the global `--context`),
//! operation, result, session, time and object, and prints the entries as json or yaml
//! (`-o`); `changelog diff ID` shows one change field by field ([`change_diff`]);
//! `changelog why OBJECT FIELD` lists the changes that touched a field ([`why`]).
//!
//! Both read every retained file (issue 15, [`changelog::retention`]); a bad line of a
//! rotated file is listed as `changelog.jsonl.N:LINE`. `changelog verify` checks the hash
//! chain ([`verify`]).

mod verify;

mod change_diff;
mod reconcile;
mod why;

use crate::changelog::{self, Entry, InvalidLine, object_of};
use crate::cli::{ChangelogCommand, ListFormat, ResultFilter};
use crate::config::duration_string;
use crate::echo::capped as display_capped;
use crate::output::table::OwnTable;
use crate::output::{Printer, to_json, to_yaml};
use crate::settings::Settings;
use crate::verbs::VerbError;

/// What `changelog list` prints in RESULT for an id whose last record is its intent.
pub const OUTCOME_UNKNOWN: &str = "outcome unknown";

/// Whether `e` matches `--object` (pure): `NAME`, `NAMESPACE/NAME`, `KIND/NAME` or
/// `KIND/NAMESPACE/NAME` (the OBJECT column of `changelog list`); kind case-insensitive, a
/// trailing `s` is accepted, so `pods/web` works.
pub fn matches_object(e: &Entry, filter: &str) -> bool {
    let kind_is = |a: &str| {
        let kind = e.kind.to_lowercase();
        let a = a.to_lowercase();
        a == kind || a.strip_suffix('s') == Some(kind.as_str())
    };
    let parts: Vec<&str> = filter.split('/').collect();
    match parts[..] {
        [name] => e.name == name,
        [a, name] => name == e.name && (kind_is(a) || e.namespace.as_deref() == Some(a)),
        [kind, ns, name] => name == e.name && kind_is(kind) && e.namespace.as_deref() == Some(ns),
        _ => false,
    }
}

/// What `changelog list` selects: every filter that is `Some` must match.
#[derive(Debug, Default, Clone)]
pub struct ListFilter<'a> {
    /// `--since`: started at or after this time.
    pub cutoff: Option<jiff::Timestamp>,
    /// `--object` ([`matches_object`]).
    pub object: Option<&'a str>,
    /// `--session`.
    pub session: Option<&'a str>,
    /// The global `--context`: made in that kubeconfig context.
    pub context: Option<&'a str>,
    /// The global `--user`: made by that user, as the API server saw it (the USER column).
    pub user: Option<&'a str>,
    /// `--operation` (`patch`, `rollback`, `crd-apply`, `crd-prune`).
    pub operation: Option<&'a str>,
    /// `--result`.
    pub result: Option<ResultFilter>,
}

/// The entries `changelog list` shows (pure): the last record of every id
/// ([`changelog::latest`]) that matches every filter, in log order.
pub fn select(records: Vec<Entry>, f: &ListFilter<'_>) -> Vec<Entry> {
    changelog::latest(records)
        .into_iter()
        .filter(|e| {
            f.cutoff
                .is_none_or(|c| e.timestamp.parse::<jiff::Timestamp>().is_ok_and(|t| t >= c))
        })
        .filter(|e| f.object.is_none_or(|o| matches_object(e, o)))
        .filter(|e| f.session.is_none_or(|s| e.session == s))
        .filter(|e| f.context.is_none_or(|c| e.context.as_deref() == Some(c)))
        .filter(|e| f.user.is_none_or(|u| e.user == u))
        .filter(|e| f.operation.is_none_or(|o| op_name(e) == o))
        .filter(|e| {
            f.result.is_none_or(|r| match r {
                ResultFilter::Success => e.result == "success",
                ResultFilter::Unknown => e.outcome_unknown(),
                ResultFilter::Failure => e.result != "success" && !e.outcome_unknown(),
            })
        })
        .collect()
}

/// Parses `--since`: a duration before `now` (`1h`, `30m`) or an RFC 3339 time.
///
/// # Errors
/// A usage message naming both accepted forms.
pub fn since(text: &str, now: jiff::Timestamp) -> Result<jiff::Timestamp, VerbError> {
    if let Ok(t) = text.parse::<jiff::Timestamp>() {
        return Ok(t);
    }
    let d = duration_string::parse(text).map_err(|_| {
        VerbError::Usage(format!(
            "--since {text:?}: use a duration such as 1h or 30m, or an RFC 3339 time"
        ))
    })?;
    // A duration that reaches past the calendar (`99999999999999h`) is a usage error in one
    // sentence, not jiff's range message.
    let too_far = || {
        VerbError::Usage(format!(
            "--since {text:?} reaches back further than any time can be written; use a shorter duration or an RFC 3339 time"
        ))
    };
    let span = jiff::SignedDuration::try_from(d).map_err(|_| too_far())?;
    now.checked_sub(span).map_err(|_| too_far())
}

/// Runs a `changelog` subcommand. A MYOPS_HOME open to other users earns one `warning:`
/// line ([`changelog::home_warning`]); lines that are not valid entries one more.
///
/// # Errors
/// [`VerbError::Io`] when the log cannot be read as a whole (MYOPS_HOME not a directory, the
/// log not a regular file, permissions) — a read error, exit 1; [`VerbError::Usage`] for a bad
/// filter; an unknown id is not found (exit 4).
pub async fn run(
    s: &Settings,
    cmd: &ChangelogCommand,
    p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    if let Some(w) = changelog::home_warning(&s.home) {
        p.err_line(&w);
    }
    if let ChangelogCommand::Verify = cmd {
        return verify::run(s, p);
    }
    let (entries, invalid) =
        changelog::read_all(&s.home).map_err(VerbError::io)?;
    let listing_invalid = matches!(cmd, ChangelogCommand::List { invalid: true, .. });
    if !invalid.is_empty() && !listing_invalid {
        p.err_line(&skipped_warning(invalid.len(), &changelog::path(&s.home)));
    }
    match cmd {
        ChangelogCommand::Show { id } => {
            let records: Vec<&Entry> = entries.iter().filter(|e| &e.id == id).collect();
            let e = records.last().ok_or_else(|| {
                crate::verbs::RollbackError::or_rotated_away(
                    crate::verbs::RollbackError::NoEntry(display_capped(id, 64)).into(),
                    &s.home,
                    id,
                )
            })?;
            p.out(&to_json(e)?)?;
            if changelog::ambiguous(&records) {
                p.err_line(&ambiguous_warning(e, records.len()));
            } else if e.outcome_unknown() {
                p.err_line(&no_outcome_warning(e));
            }
        }
        ChangelogCommand::List { invalid: true, .. } => {
            if invalid.is_empty() {
                p.err_line("No invalid lines.");
                return Ok(());
            }
            p.out(&invalid_table(&invalid).render(false))?;
        }
        ChangelogCommand::List {
            since: since_arg,
            object,
            session,
            operation,
            result,
            output,
            ..
        } => {
            let cutoff = since_arg
                .as_deref()
                .map(|t| since(t, jiff::Timestamp::now()))
                .transpose()?;
            if session.as_deref() == Some("") {
                return Err(VerbError::Usage(EMPTY_SESSION.into()));
            }
            // `--context NAME` lists the changes made in that context only (a fan-out's
            // entries otherwise look alike when the user names match); `--user NAME` those
            // made by that user.
            let filter = ListFilter {
                cutoff,
                object: object.as_deref(),
                session: session.as_deref(),
                context: s.kube.context.as_deref(),
                user: s.kube.user.as_deref(),
                operation: operation.as_deref(),
                result: *result,
            };
            let selected = select(entries, &filter);
            match output {
                Some(ListFormat::Json) => p.out(&to_json(&selected)?)?,
                Some(ListFormat::Yaml) => p.out(&to_yaml(&selected)?)?,
                None => {
                    let t = list_table(&selected);
                    if t.is_empty() {
                        p.err_line("No change-log entries.");
                        return Ok(());
                    }
                    p.out(&t.render(false))?;
                }
            }
        }
        ChangelogCommand::Diff { id } => change_diff::run(s, &entries, id, p)
            .await
            .map_err(|e| crate::verbs::RollbackError::or_rotated_away(e, &s.home, id))?,
        ChangelogCommand::Why { object, field } => why::run(&entries, object, field, p)?,
        ChangelogCommand::Reconcile { id, decided } => {
            reconcile::run(s, entries, id.as_deref(), *decided, p).await?;
        }
        // Answered before the log was read for listing, above.
        ChangelogCommand::Verify => {}
    }
    Ok(())
}

/// The usage error of `changelog list --session ''`: records written before sessions existed
/// (issue 9) all carry the empty session id, so it would list unrelated changes as one
/// invocation (`rollback --session ''` refuses it the same way).
pub const EMPTY_SESSION: &str = "--session needs a session id (a fanned-out patch prints it; `kubectl myops changelog show ID` shows an entry's); an empty one would select every change logged before sessions existed";

pub use crate::changelog::skipped_warning;

/// The `changelog list --invalid` table (pure): line number and reason of each bad line.
pub fn invalid_table(invalid: &[InvalidLine]) -> OwnTable {
    let mut t = OwnTable::new(["Line", "Reason"]);
    for i in invalid {
        let line = match &i.file {
            Some(file) => format!("{file}:{}", i.line),
            None => i.line.to_string(),
        };
        t.row([line, i.reason.clone()]);
    }
    t
}

/// The stderr line `changelog show` adds for an id whose records name different objects
/// (an edited or copied log): it shows the last one, which `rollback` refuses to act on.
pub fn ambiguous_warning(e: &Entry, records: usize) -> String {
    format!(
        "warning: entry {} has {records} records that name different objects or operations (the change log was edited or holds copied lines); this is the last one, and rollback refuses the id",
        e.id
    )
}

/// The widest cell `changelog list` prints, in characters: a namespace and name of 253
/// each fit; a longer one (an edited log) is cut, like every echoed input.
const MAX_CELL: usize = 600;

/// The `changelog list` table of `entries` (pure; [`select`] chooses them). RESULT is the
/// record's result, or [`OUTCOME_UNKNOWN`] for an intent with no outcome. Cells are escaped
/// and capped ([`crate::echo::capped`]).
pub fn list_table(entries: &[Entry]) -> OwnTable {
    let mut t = OwnTable::new([
        "Id",
        "Time",
        "User",
        "Context",
        "Operation",
        "Object",
        "Result",
    ]);
    for e in entries {
        let op = if e.dry_run {
            format!("{} (dry run)", op_name(e))
        } else {
            op_name(e)
        };
        let result = if e.outcome_unknown() {
            OUTCOME_UNKNOWN.to_string()
        } else {
            e.result.clone()
        };
        t.row(
            [
                e.id.clone(),
                e.timestamp.clone(),
                e.user.clone(),
                e.context.clone().unwrap_or_default(),
                op,
                object_of(e),
                result,
            ]
            .map(|cell| display_capped(&cell, MAX_CELL)),
        );
    }
    t
}

/// The stderr line `changelog show` adds for an id whose last record is its intent (pure).
pub fn no_outcome_warning(e: &Entry) -> String {
    format!(
        "warning: entry {} has no outcome record: the command stopped after journaling its intent, so {} may or may not have been changed; `kubectl myops changelog reconcile {}` reads it and records what happened",
        e.id,
        object_of(e),
        e.id
    )
}

/// The operation's name as journaled (`patch`, `crd-apply`, …).
pub fn op_name(e: &Entry) -> String {
    serde_json::to_value(e.operation)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::changelog::Operation;

    /// A successful patch entry of `kind` `ns`/`name` (the fixture of the subcommands' tests too).
    pub(super) fn entry(kind: &str, ns: Option<&str>, name: &str) -> Entry {
        Entry {
            id: "1".into(),
            format_version: Some(crate::changelog::FORMAT_VERSION),
            session: "s1".into(),
            timestamp: "2026-11-30T08:00:00Z".into(),
            plugin: "myops".into(),
            user: "admin".into(),
            context: None,
            server: "s".into(),
            api_version: "v1".into(),
            kind: kind.into(),
            namespace: ns.map(str::to_string),
            name: name.into(),
            uid: None,
            operation: Operation::Patch,
            patch_type: None,
            patch: None,
            dry_run: false,
            before: None,
            after: None,
            reconciler: None,
            resource_version_after: None,
            reconciled: None,
            result: "success".into(),
            duration_seconds: 0.1,
        }
    }

    #[test]
    fn object_filters_accept_name_kind_and_namespace_forms() {
        let e = entry("Pod", Some("shop"), "web-1");
        assert_eq!(object_of(&e), "pod/shop/web-1");
        for f in [
            "web-1",
            "pod/web-1",
            "pods/web-1",
            "Pod/web-1",
            "shop/web-1",
        ] {
            assert!(matches_object(&e, f), "{f}");
        }
        for f in ["web-2", "deployment/web-1", "other/web-1"] {
            assert!(!matches_object(&e, f), "{f}");
        }
    }

    #[test]
    fn list_collapses_an_intent_and_its_outcome_to_one_row() {
        let intent = Entry {
            result: changelog::PENDING.into(),
            ..entry("Pod", Some("shop"), "web-1")
        };
        let other = Entry {
            id: "2".into(),
            dry_run: true,
            ..entry("Deployment", None, "api")
        };
        let done = intent.with_outcome("success".into(), Some("7".into()), 0.5);
        let t = list_table(&select(vec![intent, other, done], &ListFilter::default()));
        assert_eq!(
            t.render(false),
            "ID   TIME                   USER    CONTEXT   OPERATION         OBJECT           RESULT\n\
             1    2026-11-30T08:00:00Z   admin             patch             pod/shop/web-1   success\n\
             2    2026-11-30T08:00:00Z   admin             patch (dry run)   deployment/api   success\n"
        );
    }

    #[test]
    fn an_intent_without_an_outcome_lists_as_outcome_unknown() {
        let intent = Entry {
            result: changelog::PENDING.into(),
            ..entry("Pod", Some("shop"), "web-1")
        };
        let denied = Entry {
            id: "2".into(),
            result: "denied".into(),
            ..entry("Pod", Some("shop"), "web-2")
        };
        let t = list_table(&select(
            vec![intent.clone(), denied],
            &ListFilter {
                object: Some("web-1"),
                ..ListFilter::default()
            },
        ));
        assert_eq!(
            t.render(true),
            "1   2026-11-30T08:00:00Z   admin       patch   pod/shop/web-1   outcome unknown\n"
        );
        assert_eq!(
            no_outcome_warning(&intent),
            "warning: entry 1 has no outcome record: the command stopped after journaling its intent, so pod/shop/web-1 may or may not have been changed; `kubectl myops changelog reconcile 1` reads it and records what happened"
        );
    }

    #[test]
    fn list_filters_by_time_and_can_be_empty() {
        let e = entry("Pod", None, "a");
        let later: jiff::Timestamp = "2026-11-30T09:00:00Z".parse().unwrap();
        let from = |cutoff: jiff::Timestamp| ListFilter {
            cutoff: Some(cutoff),
            ..ListFilter::default()
        };
        assert!(select(vec![e.clone()], &from(later)).is_empty());
        assert!(!select(vec![e], &from("2026-11-30T08:00:00Z".parse().unwrap())).is_empty());
    }

    #[test]
    fn invalid_lines_list_by_number_and_reason() {
        let t = invalid_table(&[
            InvalidLine {
                file: None,
                line: 2,
                reason: "not JSON (syntax error at column 1); 9 bytes".into(),
            },
            InvalidLine {
                file: Some("changelog.jsonl.1".into()),
                line: 7,
                reason: "not UTF-8 (invalid byte at column 3); 4 bytes".into(),
            },
        ]);
        assert_eq!(
            t.render(false),
            "LINE                  REASON\n\
             2                     not JSON (syntax error at column 1); 9 bytes\n\
             changelog.jsonl.1:7   not UTF-8 (invalid byte at column 3); 4 bytes\n"
        );
        assert_eq!(
            skipped_warning(2, std::path::Path::new("/h/changelog.jsonl")),
            "warning: 2 line(s) of /h/changelog.jsonl are not valid change-log entries and were skipped; `kubectl myops changelog list --invalid` lists them"
        );
    }

    #[test]
    fn list_cells_from_an_edited_log_are_escaped_and_capped() {
        let e = Entry {
            user: "ad\u{1b}]0;pwned\u{7}min".into(),
            name: "n".repeat(5000),
            ..entry("Pod", None, "x")
        };
        let t = list_table(&[e]);
        let row = &t.rows()[0];
        assert_eq!(row[2], "ad\\u{1b}]0;pwned\\u{7}min");
        assert!(row[5].chars().count() < 700, "{}", row[5].len());
        assert!(row[5].ends_with("(5004 characters)"), "{}", &row[5][590..]);
    }

    #[test]
    fn list_filters_by_user_operation_result_session_and_context() {
        let mk = |id: &str, user: &str, op: Operation, result: &str, ctx: &str| Entry {
            id: id.into(),
            user: user.into(),
            operation: op,
            result: result.into(),
            context: Some(ctx.into()),
            session: format!("s-{ctx}"),
            ..entry("ConfigMap", Some("shop"), "web")
        };
        let records = vec![
            mk("1", "alice", Operation::Patch, "success", "a"),
            mk("2", "bob", Operation::Patch, "denied", "a"),
            mk("3", "alice", Operation::Rollback, "Conflict (409): x", "b"),
            mk("4", "alice", Operation::Patch, changelog::PENDING, "b"),
        ];
        let ids = |f: ListFilter<'_>| -> Vec<String> {
            select(records.clone(), &f)
                .into_iter()
                .map(|e| e.id)
                .collect()
        };
        let all = ListFilter::default;
        assert_eq!(
            ids(ListFilter {
                user: Some("alice"),
                ..all()
            }),
            ["1", "3", "4"]
        );
        assert_eq!(
            ids(ListFilter {
                operation: Some("rollback"),
                ..all()
            }),
            ["3"]
        );
        assert_eq!(
            ids(ListFilter {
                result: Some(ResultFilter::Success),
                ..all()
            }),
            ["1"]
        );
        assert_eq!(
            ids(ListFilter {
                result: Some(ResultFilter::Failure),
                ..all()
            }),
            ["2", "3"]
        );
        assert_eq!(
            ids(ListFilter {
                result: Some(ResultFilter::Unknown),
                ..all()
            }),
            ["4"]
        );
        assert_eq!(
            ids(ListFilter {
                context: Some("b"),
                user: Some("alice"),
                ..all()
            }),
            ["3", "4"]
        );
        assert_eq!(
            ids(ListFilter {
                session: Some("s-a"),
                ..all()
            }),
            ["1", "2"]
        );
        assert_eq!(
            ids(ListFilter {
                object: Some("configmap/shop/web"),
                ..all()
            })
            .len(),
            4
        );
        assert!(
            ids(ListFilter {
                object: Some("configmap/other/web"),
                ..all()
            })
            .is_empty()
        );
    }

    #[test]
    fn since_takes_a_duration_or_a_timestamp() {
        let now: jiff::Timestamp = "2026-11-30T10:00:00Z".parse().unwrap();
        assert_eq!(
            since("1h", now).unwrap().to_string(),
            "2026-11-30T09:00:00Z"
        );
        assert_eq!(
            since("2026-11-30T08:00:00Z", now).unwrap().to_string(),
            "2026-11-30T08:00:00Z"
        );
        assert!(since("yesterday", now).is_err());
        // Found by helper H: jiff's range message ("parameter 'Unix timestamp seconds' is not
        // in the required range") reached the user.
        let far = since("99999999999999h", now).unwrap_err().to_string();
        assert!(far.contains("reaches back further than any time"), "{far}");
    }
}
