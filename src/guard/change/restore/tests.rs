use super::*;
use crate::guard::change::touched_paths;

#[test]
fn rollback_ops_restore_only_the_touched_fields_guarded_by_the_resource_version() {
    let before = json!({"kind": "Deployment", "metadata": {"name": "web", "resourceVersion": "10"},
        "spec": {"replicas": 2}, "status": {"replicas": 2}});
    // The change set replicas 4, paused true and a label; someone else later added an annotation.
    let current = json!({"kind": "Deployment", "metadata": {"name": "web", "resourceVersion": "12", "labels": {"tier": "x"}, "annotations": {"owner": "b"}},
        "spec": {"replicas": 4, "paused": true}, "status": {"replicas": 4}});
    let touched = touched_paths(
        "merge",
        &json!({"spec": {"replicas": 4, "paused": true}, "metadata": {"labels": {"tier": "x"}}}),
    );
    let ops = rollback_ops(&current, &before, &touched, Some("11"), false).unwrap();
    assert_eq!(
        ops[0],
        json!({"op": "test", "path": "/metadata/resourceVersion", "value": "11"})
    );
    let mut restored = current.clone();
    json_patch::patch(
        &mut restored,
        &serde_json::from_value::<json_patch::Patch>(Value::Array(ops[1..].to_vec())).unwrap(),
    )
    .unwrap();
    assert_eq!(restored["spec"], before["spec"]);
    assert_eq!(restored["metadata"]["labels"], json!({}));
    assert_eq!(
        restored["metadata"]["annotations"],
        json!({"owner": "b"}),
        "others' changes stay"
    );
    assert_eq!(
        restored["status"], current["status"],
        "status is not rolled back"
    );
    assert!(
        rollback_ops(&current, &before, &touched, Some("11"), true)
            .unwrap()
            .iter()
            .all(|o| o["op"] != "test")
    );
}

#[test]
fn a_label_added_to_an_object_without_labels_creates_the_map() {
    let before = json!({"kind": "ConfigMap", "metadata": {"labels": {"a": "1"}}});
    let current = json!({"kind": "ConfigMap", "metadata": {}});
    let ops = rollback_ops(
        &current,
        &before,
        &["/metadata/labels/a".to_string()],
        None,
        true,
    )
    .unwrap();
    assert_eq!(
        ops,
        vec![
            json!({"op": "add", "path": "/metadata/labels", "value": {}}),
            json!({"op": "add", "path": "/metadata/labels/a", "value": "1"})
        ]
    );
}

#[test]
fn secret_data_is_never_restored_from_the_redacted_log() {
    let before =
        json!({"kind": "Secret", "metadata": {"labels": {"a": "1"}}, "data": {"k": "<redacted>"}});
    let current =
        json!({"kind": "Secret", "metadata": {"labels": {"a": "2"}}, "data": {"k": "c2VjcmV0"}});
    let touched = vec!["/data/k".to_string(), "/metadata/labels/a".to_string()];
    let ops = rollback_ops(&current, &before, &touched, None, true).unwrap();
    assert_eq!(
        ops,
        vec![json!({"op": "replace", "path": "/metadata/labels/a", "value": "1"})]
    );
}

#[test]
fn a_status_change_is_refused_instead_of_reported_as_nothing_to_roll_back() {
    let before = json!({"kind": "Deployment", "metadata": {"resourceVersion": "1"}, "status": {"replicas": 1}});
    let current = json!({"kind": "Deployment", "metadata": {"resourceVersion": "2"}, "status": {"replicas": 5}});
    let touched = touched_paths(
        "merge",
        &json!({"status": {"replicas": 5}, "metadata": {"resourceVersion": "1"}}),
    );
    assert_eq!(
        unrestorable_changes(&current, &before, &touched),
        ["status.replicas"]
    );
    // Unchanged since (a controller put it back): nothing blocks.
    assert!(unrestorable_changes(&before, &before, &touched).is_empty());
}

#[test]
fn a_masked_value_is_never_written_back() {
    let before = json!({"kind": "ConfigMap", "data": {"url": "postgres://***@db/x", "other": "1"}});
    let current =
        json!({"kind": "ConfigMap", "data": {"url": "postgres://u:pw@db/y", "other": "2"}});
    let touched = vec!["/data/other".to_string(), "/data/url".to_string()];
    assert_eq!(
        rollback_ops(&current, &before, &touched, None, true).unwrap_err(),
        ["data.url"]
    );
}

#[test]
fn a_missing_list_parent_is_recreated_as_a_list() {
    let before = json!({"spec": {"items": ["a"]}});
    let current = json!({"spec": {}});
    let ops = rollback_ops(
        &current,
        &before,
        &["/spec/items/0".to_string()],
        None,
        true,
    )
    .unwrap();
    assert_eq!(
        ops[0],
        json!({"op": "add", "path": "/spec/items", "value": []})
    );
}

#[test]
fn last_writer_skips_managers_unchanged_since_the_before_state() {
    // Created and patched within one second: the creator wrote nothing since.
    let create =
        json!({"manager": "kubectl-create", "operation": "Update", "time": "2026-11-30T08:00:00Z"});
    let before = json!({"metadata": {"managedFields": [create.clone()]}});
    let now = json!({"metadata": {"managedFields": [create,
        {"manager": "kubectl-myops", "operation": "Update", "time": "2026-11-30T08:00:00Z"}]}});
    assert_eq!(
        last_writer(&now, &before, "2026-11-30T08:00:00.5Z", "kubectl-myops"),
        "kubectl-myops (Update) at 2026-11-30T08:00:00Z"
    );
}

#[test]
fn last_writer_survives_a_non_ascii_time_from_an_edited_log() {
    let o = json!({"metadata": {"managedFields": [{"manager": "m", "operation": "Update", "time": "ééééééééééééé"}]}});
    let _ = last_writer(&o, &Value::Null, "ééééééééééééééééééé", "kubectl-myops");
}

#[test]
fn last_writer_names_the_newest_managed_fields_entry() {
    let o = json!({"metadata": {"managedFields": [
        {"manager": "kubectl-myops", "operation": "Update", "time": "2026-11-30T08:00:00Z"},
        {"manager": "kubectl-edit", "operation": "Update", "time": "2026-11-30T09:00:00Z"}]}});
    assert_eq!(
        last_writer(
            &o,
            &Value::Null,
            "2026-11-30T07:00:00.123Z",
            "kubectl-myops"
        ),
        "kubectl-edit (Update) at 2026-11-30T09:00:00Z"
    );
    assert!(
        last_writer(&o, &Value::Null, "2026-11-30T09:30:00Z", "kubectl-myops")
            .starts_with("a writer that managedFields does not record")
    );
}

#[test]
fn a_controllers_annotation_after_a_patch_leaves_the_touched_fields_as_the_patch_left_them() {
    let after = json!({"kind": "Deployment", "metadata": {"resourceVersion": "5", "annotations": {}}, "spec": {"replicas": 4}});
    let now = json!({"kind": "Deployment", "metadata": {"resourceVersion": "7", "annotations": {"deployment.kubernetes.io/revision": "2"}}, "spec": {"replicas": 4}});
    let touched = vec!["/spec/replicas".to_string()];
    assert!(super::holds_after(&now, &after, &touched));
    let changed = json!({"kind": "Deployment", "metadata": {"resourceVersion": "8"}, "spec": {"replicas": 8}});
    assert!(!super::holds_after(&changed, &after, &touched));
}
