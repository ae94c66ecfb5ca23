use serde_json::json;

use super::*;

fn patch(patch_type: PatchType, body: Value, subresource: Option<&str>) -> Change {
    Change::Patch {
        patch_type,
        body,
        subresource: subresource.map(str::to_string),
    }
}

fn body_of(c: &Change) -> &Value {
    match c {
        Change::Patch { body, .. } | Change::Apply { body, .. } => body,
        other => panic!("no body: {other:?}"),
    }
}

#[test]
fn a_merge_or_strategic_patch_of_a_workload_carries_the_reason_beside_its_own_fields() {
    for t in [PatchType::Merge, PatchType::Strategic] {
        let c = patch(
            t,
            json!({"spec": {"replicas": 3}, "metadata": {"annotations": {"team": "web"}, "labels": {"a": "b"}}}),
            None,
        );
        let out = with_change_cause(&c, "Deployment", "incident 4711").unwrap();
        assert_eq!(
            body_of(&out),
            &json!({"spec": {"replicas": 3}, "metadata": {"annotations": {"team": "web", "kubernetes.io/change-cause": "incident 4711"}, "labels": {"a": "b"}}})
        );
        assert!(
            matches!(out, Change::Patch { patch_type, subresource: None, .. } if patch_type == t)
        );
    }
}

#[test]
fn the_maps_are_made_when_the_patch_has_no_metadata() {
    let c = patch(PatchType::Merge, json!({"spec": {"paused": true}}), None);
    for kind in WORKLOAD_KINDS {
        let out = with_change_cause(&c, kind, "why").unwrap();
        assert_eq!(
            body_of(&out),
            &json!({"spec": {"paused": true}, "metadata": {"annotations": {"kubernetes.io/change-cause": "why"}}})
        );
    }
}

#[test]
fn an_apply_of_a_workload_carries_it_in_the_applied_configuration() {
    let c = Change::Apply {
        body: json!({"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "db"}, "spec": {}}),
        field_manager: "kubectl-myops".into(),
        force: true,
        origin: None,
    };
    let out = with_change_cause(&c, "StatefulSet", "resize").unwrap();
    let Change::Apply {
        body,
        field_manager,
        force,
        origin,
    } = out
    else {
        panic!("not an apply");
    };
    assert_eq!(
        body["metadata"],
        json!({"name": "db", "annotations": {"kubernetes.io/change-cause": "resize"}})
    );
    assert_eq!(
        (field_manager.as_str(), force, origin),
        ("kubectl-myops", true, None)
    );
}

#[test]
fn other_kinds_json_patches_subresources_creates_and_deletes_are_sent_as_written() {
    let merge = patch(PatchType::Merge, json!({"data": {"a": "b"}}), None);
    assert_eq!(with_change_cause(&merge, "ConfigMap", "x"), None);
    assert_eq!(with_change_cause(&merge, "Pod", "x"), None);
    assert_eq!(with_change_cause(&merge, "Deployment", ""), None);
    let json_patch = patch(
        PatchType::Json,
        json!([{"op": "replace", "path": "/spec/replicas", "value": 2}]),
        None,
    );
    assert_eq!(with_change_cause(&json_patch, "Deployment", "x"), None);
    let scale = patch(
        PatchType::Merge,
        json!({"spec": {"replicas": 2}}),
        Some("scale"),
    );
    assert_eq!(with_change_cause(&scale, "Deployment", "x"), None);
    let create = Change::Create {
        object: json!({"metadata": {"name": "a"}}),
    };
    assert_eq!(with_change_cause(&create, "Deployment", "x"), None);
    let delete = Change::Delete {
        uid: None,
        resource_version: None,
        propagation: None,
        grace_period: None,
        unrecoverable: false,
    };
    assert_eq!(with_change_cause(&delete, "Deployment", "x"), None);
}

#[test]
fn a_patch_that_says_what_the_annotations_are_is_left_alone() {
    for body in [
        json!({"metadata": {"annotations": {"kubernetes.io/change-cause": "mine"}}}),
        json!({"metadata": {"annotations": null}}),
        json!({"metadata": null}),
        json!({"metadata": {"annotations": ["x"]}}),
        json!(["not", "an", "object"]),
    ] {
        let c = patch(PatchType::Merge, body.clone(), None);
        assert_eq!(with_change_cause(&c, "Deployment", "x"), None, "{body}");
    }
}
