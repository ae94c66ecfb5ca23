use super::*;
use crate::changelog::{Entry, InvalidLine, Operation, object_of};
use crate::cli::ResultFilter;

/// A successful patch entry of `kind` `ns`/`name` (the fixture of the subcommands' tests too).
pub(super) fn entry(kind: &str, ns: Option<&str>, name: &str) -> Entry {
    Entry {
        id: "1".into(),
        session: "s1".into(),
        timestamp: "2026-11-30T08:00:00Z".into(),
        context: None,
        server: "s".into(),
        api_version: "v1".into(),
        kind: kind.into(),
        namespace: ns.map(str::to_string),
        operation: Operation::Patch,
        patch_type: None,
        resource_version_after: None,
        duration_seconds: 0.1,
        ..crate::changelog::sample_entry(name)
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
    // An answer lost after the request went lists and warns the same way, naming the failure.
    let lost = Entry {
        result: format!(
            "{}: cannot reach the API server https://x: connection reset",
            changelog::LOST
        ),
        ..intent.clone()
    };
    assert!(
        list_table(std::slice::from_ref(&lost))
            .render(true)
            .ends_with("outcome unknown\n")
    );
    assert_eq!(
        no_outcome_warning(&lost),
        "warning: the answer to entry 1 was lost after its request was sent (outcome unknown: cannot reach the API server https://x: connection reset), so pod/shop/web-1 may or may not have been changed; `kubectl myops changelog reconcile 1` reads it and records what happened"
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
    // jiff's own range message ("parameter 'Unix timestamp seconds' is not in the required
    // range") names no flag; the user reads one that does.
    let far = since("99999999999999h", now).unwrap_err().to_string();
    assert!(far.contains("reaches back further than any time"), "{far}");
}

#[test]
fn list_adds_a_reason_column_only_when_a_listed_entry_has_a_reason() {
    let plain = entry("Pod", None, "a");
    let t = list_table(std::slice::from_ref(&plain));
    assert_eq!(t.headers().last().map(String::as_str), Some("RESULT"));
    let given = Entry {
        id: "2".into(),
        reason: Some("incident\n4711".into()),
        ..entry("Pod", None, "b")
    };
    let t = list_table(&[plain, given]);
    assert_eq!(t.headers().last().map(String::as_str), Some("REASON"));
    assert_eq!(t.rows()[0][7], "");
    assert_eq!(t.rows()[1][7], "incident\\n4711");
}
