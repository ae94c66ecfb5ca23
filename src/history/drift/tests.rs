//! drift's tests: baselines, managedFields, and the comparison.

use serde_json::json;

use super::*;

/// A successful merge patch of ConfigMap `shop/web` (built from JSON, so new journal
/// fields need no edit here).
fn entry(extra: Value) -> Entry {
    let mut v = json!({"id": "1", "session": "s", "timestamp": "2026-12-02T08:00:00.5Z",
        "plugin": "myops", "user": "admin", "context": "admin", "server": "https://h",
        "apiVersion": "v1", "kind": "ConfigMap", "namespace": "shop", "name": "web",
        "uid": "u1", "operation": "patch", "patchType": "merge",
        "patch": {"data": {"color": "green"}}, "dryRun": false,
        "before": {"kind": "ConfigMap", "data": {"color": "blue"}},
        "resourceVersionAfter": "7", "result": "success", "durationSeconds": 0.1});
    for (k, x) in extra.as_object().unwrap() {
        v[k] = x.clone();
    }
    serde_json::from_value(v).unwrap()
}

fn mf(manager: &str, time: &str, fields: Value) -> Value {
    json!({"manager": manager, "operation": "Update", "apiVersion": "v1", "time": time,
        "fieldsType": "FieldsV1", "fieldsV1": fields})
}

#[test]
fn fields_v1_holds_fields_list_elements_by_key_value_and_atomic_parents() {
    let obj = json!({"spec": {"replicas": 3, "template": {"spec": {"containers": [
        {"name": "web", "image": "web:2", "args": ["a", "b"]}]}},
        "finalizers": ["x"]}});
    let set = json!({"f:spec": {"f:replicas": {}, "f:template": {"f:spec": {"f:containers": {
        "k:{\"name\":\"web\"}": {".": {}, "f:image": {}, "f:args": {}}}}}, "f:finalizers": {"v:\"x\"": {}}}});
    for p in [
        "/spec/replicas",
        "/spec/template/spec/containers/0/image",
        "/spec/template/spec/containers/0/args/1",
        "/spec/template/spec/containers",
        "/spec/finalizers/0",
    ] {
        assert!(holds(&set, &obj, p), "{p}");
    }
    for p in [
        "",
        "/spec/paused",
        "/spec/template/spec/containers/1/image",
        "/spec/template/spec/containers/0/name",
        "/metadata",
    ] {
        assert!(!holds(&set, &obj, p), "{p}");
    }
    let other = json!({"spec": {"template": {"spec": {"containers": [{"name": "sidecar"}]}}}});
    assert!(!holds(
        &set,
        &other,
        "/spec/template/spec/containers/0/image"
    ));
    // `"f:data": {}` (what kubectl-create keeps after kubectl-patch took `color`) owns
    // the map's existence, not its keys.
    let cm = json!({"data": {"color": "red"}});
    assert!(!holds(&json!({"f:data": {}}), &cm, "/data/color"));
    assert!(holds(&json!({"f:data": {}}), &cm, "/data"));
    let by_index = json!({"f:spec": {"f:finalizers": {"i:0": {}}}});
    assert!(holds(&by_index, &obj, "/spec/finalizers/0"));
}

#[test]
fn the_same_resource_version_is_no_drift_without_a_diff() {
    let e = entry(json!({"after": {"kind": "ConfigMap", "data": {"color": "green"}}}));
    let live = json!({"metadata": {"resourceVersion": "7", "uid": "u1"}, "data": {"color": "red"}});
    let d = compare(&e, &live);
    assert_eq!(d.state, State::Unchanged);
    assert!(d.fields.is_empty());
}

#[test]
fn a_changed_field_names_its_owner_now_and_a_removed_one_the_writers_since() {
    let ours = mf(
        "kubectl-myops",
        "2026-12-02T08:00:00Z",
        json!({"f:data": {"f:color": {}, "f:size": {}}}),
    );
    let e = entry(
        json!({"after": {"kind": "ConfigMap", "metadata": {"resourceVersion": "7",
        "uid": "u1", "managedFields": [ours.clone()]}, "data": {"color": "green", "size": "m"}}}),
    );
    let patcher = mf(
        "kubectl-patch",
        "2026-12-02T08:00:00Z",
        json!({"f:data": {"f:color": {}}}),
    );
    let live = json!({"metadata": {"resourceVersion": "9", "uid": "u1",
        "managedFields": [mf("kubectl-myops", "2026-12-02T08:00:00Z", json!({})), patcher]},
        "data": {"color": "red"}});
    let d = compare(&e, &live);
    assert_eq!(d.state, State::Drifted);
    assert_eq!(d.live_resource_version.as_deref(), Some("9"));
    let fields: Vec<(&str, &str, bool)> = d
        .fields
        .iter()
        .map(|f| (f.field.as_str(), f.change.as_str(), f.owned))
        .collect();
    assert_eq!(
        fields,
        [
            ("data.color", "data.color: \"green\" → \"red\"", true),
            ("data.size", "- data.size (was \"m\")", false)
        ]
    );
    // kubectl-patch wrote in the same second as ours and is still seen (the after-state's
    // managedFields decide, not the time); our own entry is not a writer since.
    let names: Vec<&str> = d.writers_since.iter().map(|m| m.manager.as_str()).collect();
    assert_eq!(names, ["kubectl-patch"], "{d:?}");
    assert_eq!(d.fields[0].managers[0].manager, "kubectl-patch");
    assert_eq!(d.fields[0].managers.len(), 1);
}

#[test]
fn a_record_without_an_after_state_replays_a_merge_patch_and_not_a_strategic_list() {
    let e = entry(json!({}));
    assert_eq!(
        expected(&e).unwrap(),
        json!({"kind": "ConfigMap", "data": {"color": "green"}})
    );
    let live = json!({"metadata": {"resourceVersion": "8", "uid": "u1", "managedFields": [
        mf("kubectl-myops", "2026-12-02T08:00:00Z", json!({"f:data": {}})),
        mf("kubectl-edit", "2026-12-02T08:05:00Z", json!({"f:data": {"f:color": {}}}))]},
        "data": {"color": "red"}});
    let d = compare(&e, &live);
    assert_eq!(d.state, State::Drifted);
    let names: Vec<&str> = d.writers_since.iter().map(|m| m.manager.as_str()).collect();
    assert_eq!(names, ["kubectl-edit"], "a write in our second is ours");
    let list = entry(json!({"patchType": "strategic",
        "patch": {"spec": {"containers": [{"name": "a", "image": "b"}]}}}));
    assert_eq!(expected(&list), None);
    let d = compare(&list, &live);
    assert_eq!(d.state, State::Drifted);
    assert!(
        d.fields.is_empty() && d.notes[0].contains("not known"),
        "{d:?}"
    );
    let scalar = entry(json!({"patchType": "strategic"}));
    assert!(expected(&scalar).is_some());
}

#[test]
fn a_secret_value_written_since_is_reported_uncertain_and_never_shown() {
    let ours = mf(
        "kubectl-myops",
        "2026-12-02T08:00:00Z",
        json!({"f:metadata": {"f:labels": {"f:a": {}}}}),
    );
    let e = entry(json!({"kind": "Secret", "after": {"kind": "Secret",
        "metadata": {"uid": "u1", "managedFields": [ours.clone(), mf("kubectl-create", "2026-12-02T07:00:00Z", json!({"f:data": {".": {}, "f:password": {}, "f:user": {}}}))]},
        "data": {"password": "<redacted> (changed)", "user": "<redacted>"}}}));
    let live = json!({"kind": "Secret", "metadata": {"resourceVersion": "9", "uid": "u1",
        "annotations": {"kubectl.kubernetes.io/last-applied-configuration": "{\"data\":{\"password\":\"c2VjcmV0\"}}"},
        "managedFields": [ours, mf("kubectl-create", "2026-12-02T07:00:00Z", json!({"f:data": {"f:user": {}}})),
            mf("kubectl-patch", "2026-12-02T08:01:00Z", json!({"f:data": {"f:password": {}, "f:token": {}}}))]},
        "data": {"password": "c2VjcmV0", "user": "YXBw", "token": "dG9r"}});
    let d = compare(&e, &live);
    assert_eq!(d.state, State::Drifted);
    let fields: Vec<(&str, bool, &str)> = d
        .fields
        .iter()
        .map(|f| (f.field.as_str(), f.certain, f.managers[0].manager.as_str()))
        .collect();
    assert_eq!(
        fields,
        [
            ("data.token", true, "kubectl-patch"),
            ("data.password", false, "kubectl-patch")
        ]
    );
    let text = serde_json::to_string(&d).unwrap();
    for secret in ["c2VjcmV0", "YXBw", "dG9r", "last-applied"] {
        assert!(!text.contains(secret), "{secret} in {text}");
    }
    assert_eq!(d.fields[0].change, "+ data.token: \"***\"");
}

#[test]
fn status_and_controller_annotations_are_not_drift_nor_their_writers() {
    let ours = mf(
        "kubectl-myops",
        "2026-12-02T08:00:00Z",
        json!({"f:spec": {"f:replicas": {}}}),
    );
    let e = entry(
        json!({"apiVersion": "apps/v1", "kind": "Deployment", "after": {
        "metadata": {"uid": "u1", "annotations": {"deployment.kubernetes.io/revision": "1"},
            "managedFields": [ours.clone()]},
        "spec": {"replicas": 3}, "status": {"replicas": 2}}}),
    );
    let mut status = mf(
        "kube-controller-manager",
        "2026-12-02T08:00:01Z",
        json!({"f:status": {"f:replicas": {}}}),
    );
    status["subresource"] = json!("status");
    let live = json!({"metadata": {"uid": "u1", "resourceVersion": "9",
        "annotations": {"deployment.kubernetes.io/revision": "2"},
        "managedFields": [ours, status,
            mf("kube-controller-manager", "2026-12-02T08:00:01Z", json!({"f:metadata": {"f:annotations": {".": {}, "f:deployment.kubernetes.io/revision": {}}}}))]},
        "spec": {"replicas": 3}, "status": {"replicas": 3}});
    let d = compare(&e, &live);
    assert_eq!(d.state, State::Unchanged, "{d:?}");
    assert!(d.fields.is_empty());
    let writers: Vec<Option<&str>> = d
        .writers_since
        .iter()
        .map(|m| m.subresource.as_deref())
        .collect();
    assert_eq!(writers, [None], "the status write is left out: {d:?}");
    assert!(
        d.notes[0].contains("resourceVersion moved (7 → 9)"),
        "{d:?}"
    );
}

#[test]
fn another_uid_is_a_replaced_object_and_baselines_skip_dry_runs_failures_and_other_servers() {
    let e = entry(json!({}));
    let live = json!({"metadata": {"resourceVersion": "1", "uid": "u2"}});
    assert_eq!(compare(&e, &live).state, State::Replaced);
    let records = vec![
        entry(json!({"id": "a"})),
        entry(json!({"id": "b", "dryRun": true})),
        entry(json!({"id": "c", "result": "denied"})),
        entry(json!({"id": "d", "server": "https://other"})),
        entry(json!({"id": "e", "result": "pending"})),
        entry(json!({"id": "f", "name": "api", "apiVersion": "v1"})),
    ];
    let b = baselines(records, "https://h");
    let ids: Vec<(&str, Option<&str>)> = b
        .iter()
        .map(|b| (b.entry.id.as_str(), b.unknown_after.as_deref()))
        .collect();
    assert_eq!(ids, [("f", None), ("a", Some("e"))]);
}
