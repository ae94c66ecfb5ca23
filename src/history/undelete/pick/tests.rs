//! Unit tests of which delete entry an undelete undoes.

use serde_json::json;

use super::*;
use crate::changelog::sample_entry;

fn delete(name: &str, result: &str) -> Entry {
    Entry {
        api_version: "v1".into(),
        kind: "ConfigMap".into(),
        namespace: Some("shop".into()),
        operation: Operation::Delete,
        patch_type: Some("delete".into()),
        before: Some(json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": name, "namespace": "shop", "uid": "u1", "resourceVersion": "9"},
            "data": {"a": "1"}})),
        result: result.into(),
        ..sample_entry(name)
    }
}

#[test]
fn the_latest_delete_is_the_newest_one_the_server_made_on_this_server() {
    let older = delete("web", "success");
    let newer = delete("web", "deleting");
    let failed = delete("web", "Conflict (409): changed");
    let dry = Entry {
        dry_run: true,
        ..delete("web", "success")
    };
    let elsewhere = Entry {
        server: "https://other:6443".into(),
        ..delete("web", "success")
    };
    let latest = vec![older, newer.clone(), failed, dry, elsewhere];
    let found = latest_delete(
        &latest,
        &newer.server,
        "v1",
        "ConfigMap",
        Some("shop"),
        "web",
    );
    assert_eq!(found.map(|e| &e.id), Some(&newer.id));
    assert!(
        latest_delete(
            &latest,
            &newer.server,
            "v1",
            "ConfigMap",
            Some("other"),
            "web"
        )
        .is_none()
    );
    assert!(
        latest_delete(
            &latest,
            &newer.server,
            "apps/v1",
            "ConfigMap",
            Some("shop"),
            "web"
        )
        .is_none()
    );
}

#[test]
fn a_snapshot_counts_only_when_its_containers_delete_succeeded() {
    let ns = Entry {
        kind: "Namespace".into(),
        namespace: None,
        ..delete("shop", "success")
    };
    let child = Entry {
        parent: Some(ns.id.clone()),
        patch_type: Some("delete".into()),
        ..delete("web", changelog::SNAPSHOT)
    };
    let server = ns.server.clone();
    let ok = vec![child.clone(), ns.clone()];
    assert!(latest_delete(&ok, &server, "v1", "ConfigMap", Some("shop"), "web").is_some());
    assert!(check_entry(&ok, &Contradicted::new(), &child).is_ok());
    let failed_ns = Entry {
        result: "Forbidden (403): no".into(),
        ..ns
    };
    let bad = vec![child.clone(), failed_ns];
    assert!(latest_delete(&bad, &server, "v1", "ConfigMap", Some("shop"), "web").is_none());
    assert!(
        check_entry(&bad, &Contradicted::new(), &child)
            .unwrap_err()
            .contains("that delete did not succeed")
    );
}

#[test]
fn check_entry_refuses_failed_and_contradicted_entries_and_returns_the_snapshot_otherwise() {
    let e = delete("web", "success");
    let object = check_entry(std::slice::from_ref(&e), &Contradicted::new(), &e).unwrap();
    assert_eq!(
        object,
        json!({"apiVersion": "v1", "kind": "ConfigMap",
               "metadata": {"name": "web", "namespace": "shop"}, "data": {"a": "1"}})
    );
    let mut edited = Contradicted::new();
    edited.insert(e.id.clone(), "line 3 was changed".into());
    assert!(
        check_entry(&[], &edited, &e)
            .unwrap_err()
            .contains("hash chain contradicts it — line 3")
    );
    let failed = delete("web", "Conflict (409): changed");
    assert!(
        check_entry(&[], &Contradicted::new(), &failed)
            .unwrap_err()
            .contains("deleted nothing")
    );
    let patch = Entry {
        operation: Operation::Patch,
        patch_type: Some("merge".into()),
        patch: Some(json!({"data": {"a": "2"}})),
        ..delete("web", "success")
    };
    assert!(
        check_entry(&[], &Contradicted::new(), &patch)
            .unwrap_err()
            .contains("not a delete")
    );
}

#[test]
fn a_delete_whose_answer_was_lost_may_have_deleted_the_object_so_it_can_be_undeleted() {
    let lost = delete(
        "web",
        &format!(
            "{}: cannot reach the API server https://x: connection reset",
            changelog::LOST
        ),
    );
    let latest = vec![lost.clone()];
    let found = latest_delete(
        &latest,
        &lost.server,
        "v1",
        "ConfigMap",
        Some("shop"),
        "web",
    );
    assert_eq!(found.map(|e| &e.id), Some(&lost.id));
    assert!(check_entry(&latest, &Contradicted::default(), &lost).is_ok());
    // A connection refused before anything was sent deleted nothing.
    let refused = delete(
        "web",
        "cannot reach the API server https://x: Connection refused",
    );
    let latest = vec![refused.clone()];
    assert!(
        latest_delete(
            &latest,
            &refused.server,
            "v1",
            "ConfigMap",
            Some("shop"),
            "web"
        )
        .is_none()
    );
    assert_eq!(
        check_entry(&latest, &Contradicted::default(), &refused),
        Err("it deleted nothing (a dry run or a failed attempt)".into())
    );
}
