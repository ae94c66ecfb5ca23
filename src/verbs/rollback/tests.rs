use super::*;
use crate::changelog::{self, Operation};
use serde_json::{Value, json};

fn secret_entry(patch: Value) -> Entry {
    Entry {
        id: "e1".into(),
        timestamp: "2026-11-30T08:00:00Z".into(),
        context: None,
        server: "https://h".into(),
        api_version: "v1".into(),
        kind: "Secret".into(),
        namespace: Some("shop".into()),
        operation: Operation::Patch,
        patch_type: Some("merge".into()),
        patch: Some(patch),
        before: Some(json!({"kind": "Secret", "data": {"password": "<redacted>"}})),
        resource_version_after: Some("7".into()),
        duration_seconds: 0.1,
        ..crate::changelog::sample_entry("db")
    }
}

#[test]
fn a_rollback_of_secret_data_is_refused_before_anything_is_sent_not_reported_as_nothing_to_do() {
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
    // A CRD apply that created its CRD, journaled without the resourceVersion it left: the
    // delete that undoes it cannot be made conditional, so it is refused.
    let mut no_exact_inverse = change("c1", "S", "admin", "https://a");
    no_exact_inverse.operation = Operation::CrdApply;
    no_exact_inverse.kind = "CustomResourceDefinition".into();
    no_exact_inverse.api_version = "apiextensions.k8s.io/v1".into();
    no_exact_inverse.before = None;
    no_exact_inverse.resource_version_after = None;
    let entries = vec![
        change("a1", "S", "admin", "https://a"),
        change("x1", "OTHER", "admin", "https://a"),
        pending,
        change("a2", "S", "admin", "https://a"),
        dry,
        failed,
        no_exact_inverse,
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
            .starts_with("entry c1 cannot be rolled back: it created the object, and its record holds no resourceVersion after the change"),
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
    // Records without a session (older ones): serde gives them "".
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

#[test]
fn a_session_rollback_skipped_a_delete_held_by_finalizers_as_if_it_changed_nothing() {
    let deleted = |id: &str, result: &str| {
        let mut e = change(id, "S", "admin", "https://a");
        e.operation = Operation::Delete;
        e.patch_type = Some("delete".into());
        e.before = Some(json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "db", "namespace": "shop"}}));
        e.result = result.into();
        e
    };
    let mut child = deleted("k1", changelog::SNAPSHOT);
    child.parent = Some("n1".into());
    let entries = vec![
        deleted("d1", changelog::DELETING),
        deleted("d2", changelog::SUCCESS),
        child,
    ];
    let plan = plan_session(&entries, "S").unwrap();
    let ids: Vec<&str> = plan.contexts[0]
        .entries
        .iter()
        .map(|e| e.id.as_str())
        .collect();
    assert_eq!(ids, ["d2", "d1"]);
    assert_eq!(
        plan.unchanged, 1,
        "the snapshot comes back with its container"
    );
}
