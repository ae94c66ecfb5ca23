use super::inverse::APPLIED_FIELDS;
use super::*;
use crate::changelog::Entry;

/// A successful record of `operation` on `kind` `name` with `patch_type` and `patch`.
fn entry(
    operation: Operation,
    kind: &str,
    patch_type: Option<&str>,
    patch: Option<Value>,
) -> Entry {
    Entry {
        id: "e1".into(),
        timestamp: "2026-11-30T08:00:00Z".into(),
        context: None,
        server: "https://h".into(),
        api_version: api_version_of(kind).into(),
        kind: kind.into(),
        namespace: Some("shop".into()),
        operation,
        patch_type: patch_type.map(str::to_string),
        patch,
        before: Some(json!({"apiVersion": api_version_of(kind), "kind": kind,
            "metadata": {"name": "web", "namespace": "shop", "uid": "u0",
            "resourceVersion": "5", "managedFields": [{"manager": "m"}],
            "creationTimestamp": "2026-11-30T07:00:00Z", "labels": {"a": "1"}},
            "spec": {"x": 1}, "status": {"ok": true}})),
        resource_version_after: Some("7".into()),
        duration_seconds: 0.1,
        ..crate::changelog::sample_entry("web")
    }
}

/// The apiVersion a fixture record of `kind` names.
fn api_version_of(kind: &str) -> &'static str {
    if kind == "CustomResourceDefinition" {
        "apiextensions.k8s.io/v1"
    } else {
        "v1"
    }
}

fn obj(kind: &str, plural: &str) -> ObjectRef {
    super::object::test_object("", kind, plural, "shop")
}

#[test]
fn the_inverse_of_a_patch_restores_the_touched_fields_guarded_by_the_resource_version() {
    let e = entry(
        Operation::Patch,
        "ConfigMap",
        Some("merge"),
        Some(json!({"spec": {"x": 2}, "metadata": {"labels": {"b": "2"}}})),
    );
    let Inverse::Restore {
        before,
        touched,
        rv_after,
    } = inverse_of(&e).unwrap()
    else {
        panic!("a restore");
    };
    assert_eq!(Some(&before), e.before.as_ref());
    assert_eq!(touched, ["/metadata/labels/b", "/spec/x"]);
    assert_eq!(rv_after.as_deref(), Some("7"));
    // A rollback's restoring JSON patch is undone the same way (the `test` is no field).
    let r = entry(
        Operation::Rollback,
        "ConfigMap",
        Some("json"),
        Some(
            json!([{"op": "test", "path": "/metadata/resourceVersion", "value": "7"},
                    {"op": "replace", "path": "/spec/x", "value": 1}]),
        ),
    );
    assert!(
        matches!(inverse_of(&r).unwrap(), Inverse::Restore { touched, .. } if touched == ["/spec/x"])
    );
}

#[test]
fn the_inverse_of_a_delete_creates_the_before_state_without_server_metadata() {
    let e = entry(Operation::CrdPrune, "CustomResourceDefinition", None, None);
    let Inverse::Create { object } = inverse_of(&e).unwrap() else {
        panic!("a create");
    };
    assert_eq!(
        object,
        json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
               "metadata": {"name": "web", "namespace": "shop", "labels": {"a": "1"}},
               "spec": {"x": 1}})
    );
    // A rollback that deleted (the inverse of a CRD creation) is undone the same way.
    let d = entry(
        Operation::Rollback,
        "CustomResourceDefinition",
        Some(DELETE),
        None,
    );
    assert!(matches!(inverse_of(&d).unwrap(), Inverse::Create { .. }));
    let mut gone = d.clone();
    gone.before = None;
    assert!(inverse_of(&gone).unwrap_err().contains("no before-state"));
}

#[test]
fn the_inverse_of_a_create_deletes_the_created_object_by_uid_else_resource_version() {
    let mut e = entry(
        Operation::Rollback,
        "CustomResourceDefinition",
        Some(CREATE),
        None,
    );
    e.before = None;
    e.after = Some(json!({"metadata": {"uid": "u9", "resourceVersion": "7"}}));
    assert_eq!(
        inverse_of(&e).unwrap(),
        Inverse::Delete {
            uid: Some("u9".into()),
            rv_after: Some("7".into())
        }
    );
    e.after = None;
    assert_eq!(
        inverse_of(&e).unwrap(),
        Inverse::Delete {
            uid: None,
            rv_after: Some("7".into())
        }
    );
    e.resource_version_after = None;
    assert!(
        inverse_of(&e)
            .unwrap_err()
            .contains("which object to delete is not known")
    );
}

#[test]
fn the_inverse_of_a_crd_apply_deletes_what_it_created_or_restores_what_it_changed() {
    let mut created = entry(
        Operation::CrdApply,
        "CustomResourceDefinition",
        Some(APPLY),
        Some(json!({"appliedFrom": "crds/a.yaml:1"})),
    );
    created.before = None;
    assert_eq!(
        inverse_of(&created).unwrap(),
        Inverse::Delete {
            uid: None,
            rv_after: Some("7".into())
        }
    );
    created.resource_version_after = None;
    assert!(
        inverse_of(&created)
            .unwrap_err()
            .contains("no resourceVersion after the change")
    );
    let changed = entry(
        Operation::CrdApply,
        "CustomResourceDefinition",
        Some(APPLY),
        Some(json!({"appliedFrom": "crds/a.yaml:1"})),
    );
    let Inverse::Restore { touched, .. } = inverse_of(&changed).unwrap() else {
        panic!("a restore");
    };
    assert_eq!(touched, APPLIED_FIELDS);
}

#[test]
fn a_secret_data_change_has_no_exact_inverse_and_is_refused() {
    let mut e = entry(
        Operation::Patch,
        "Secret",
        Some("merge"),
        Some(json!({"data": {"password": "<redacted>"}})),
    );
    e.before = Some(json!({"kind": "Secret", "data": {"password": "<redacted>"}}));
    assert_eq!(
        inverse_of(&e).unwrap_err(),
        "the change log never stores Secret values, so the data keys password of secret/shop/web cannot be restored; restore them from your secret store (nothing was sent)"
    );
    // Creating a deleted Secret again would need its values too.
    let mut d = entry(Operation::Rollback, "Secret", Some(DELETE), None);
    d.before =
        Some(json!({"kind": "Secret", "metadata": {"name": "web"}, "data": {"k": "<redacted>"}}));
    assert!(
        inverse_of(&d)
            .unwrap_err()
            .contains("the data keys k of secret/shop/web")
    );
    // A masked value is never written back.
    let mut m = entry(Operation::Rollback, "ConfigMap", Some(DELETE), None);
    m.before = Some(json!({"kind": "ConfigMap", "data": {"url": "postgres://***@db"}}));
    assert!(inverse_of(&m).unwrap_err().contains("stored masked"));
}

#[test]
fn a_dry_run_or_a_failed_attempt_has_no_inverse() {
    let mut e = entry(Operation::CrdPrune, "CustomResourceDefinition", None, None);
    e.dry_run = true;
    assert_eq!(
        inverse_of(&e).unwrap_err(),
        "it changed nothing (a dry run or a failed attempt)"
    );
    e.dry_run = false;
    e.result = "Conflict (409): x".into();
    assert!(inverse_of(&e).is_err());
}

#[test]
fn each_kind_names_its_reviews_journal_shape_and_request() {
    let o = obj("ConfigMap", "configmaps");
    let patch = Change::Patch {
        patch_type: PatchType::Merge,
        body: json!({"data": {"a": "b"}}),
        subresource: Some("status".into()),
    };
    let verbs = |c: &Change| -> Vec<(String, Option<String>, Option<String>)> {
        c.reviews(&o)
            .into_iter()
            .map(|r| (r.verb, r.subresource, r.name))
            .collect()
    };
    let web = Some("web".to_string());
    assert_eq!(
        verbs(&patch),
        [("patch".into(), Some("status".into()), web.clone())]
    );
    assert_eq!(patch.journal_type(), "merge");
    assert!(matches!(
        patch.request("m", false).unwrap().0,
        Request::Patch {
            subresource: Some("status"),
            ..
        }
    ));
    let delete = Change::Delete {
        uid: Some("u1".into()),
        resource_version: Some("7".into()),
        propagation: None,
        grace_period: None,
        unrecoverable: false,
    };
    assert_eq!(verbs(&delete), [("delete".into(), None, web.clone())]);
    assert_eq!(
        delete.journal_body(),
        json!({"preconditions": {"uid": "u1", "resourceVersion": "7"}})
    );
    let (Request::Delete(dp), _) = delete.request("m", true).unwrap() else {
        panic!("a delete");
    };
    assert!(dp.dry_run);
    assert_eq!(dp.preconditions.unwrap().uid.as_deref(), Some("u1"));
    let create = Change::Create {
        object: json!({"kind": "ConfigMap"}),
    };
    assert_eq!(verbs(&create), [("create".into(), None, None)]);
    assert_eq!(create.journal_type(), "create");
    let apply = Change::Apply {
        body: json!({}),
        field_manager: "kubectl-myops".into(),
        force: false,
        origin: Some(json!({"appliedFrom": "crds/a.yaml:1"})),
    };
    assert_eq!(
        apply.journal_body(),
        json!({"appliedFrom": "crds/a.yaml:1"})
    );
    assert!(apply.reviews_of_any(&o).iter().all(|r| r.name.is_none()));
    assert_eq!(
        verbs(&apply),
        [("create".into(), None, None), ("patch".into(), None, web)]
    );
    for (op, verb) in [
        (Operation::Patch, Verb::Patch),
        (Operation::Rollback, Verb::Patch),
        (Operation::CrdApply, Verb::Patch),
        (Operation::CrdPrune, Verb::Patch),
        (Operation::Delete, Verb::Delete),
        (Operation::Undelete, Verb::Delete),
    ] {
        assert_eq!(super::plugin_verb(op), verb, "{op:?}");
    }
    let bad = Change::Patch {
        patch_type: PatchType::Json,
        body: json!({"not": "a list"}),
        subresource: None,
    };
    assert!(bad.request("m", false).is_err());
}

#[test]
fn an_outcome_keeps_the_after_state_of_a_patch_or_create_and_nothing_of_a_delete() {
    let answer = json!({"kind": "ConfigMap", "metadata": {"resourceVersion": "9", "uid": "u"}});
    let create = Change::Create { object: json!({}) };
    assert_eq!(
        create.outcome("ConfigMap", None, &answer),
        (Some("9".into()), Some(answer.clone()))
    );
    let delete = Change::Delete {
        uid: None,
        resource_version: None,
        propagation: None,
        grace_period: None,
        unrecoverable: false,
    };
    assert_eq!(delete.outcome("ConfigMap", None, &answer), (None, None));
    let status = json!({"kind": "Status", "status": "Success"});
    assert_eq!(delete.outcome("ConfigMap", None, &status), (None, None));
}

#[test]
fn a_planted_crd_apply_of_a_secret_deleted_it_by_name() {
    let mut e = entry(
        Operation::CrdApply,
        "Secret",
        Some(APPLY),
        Some(json!({"appliedFrom": "crds/x.yaml:1"})),
    );
    e.before = None;
    assert!(
        inverse_of(&e)
            .unwrap_err()
            .contains("is a CRD apply of a v1 Secret, not of an apiextensions.k8s.io"),
    );
    let mut p = entry(Operation::CrdPrune, "ConfigMap", None, None);
    p.api_version = "v1".into();
    assert!(
        inverse_of(&p)
            .unwrap_err()
            .contains("CRD prune of a v1 ConfigMap")
    );
}

#[test]
fn a_re_create_made_another_object_than_its_record_names() {
    let mut d = entry(Operation::Rollback, "ConfigMap", Some(DELETE), None);
    for (field, value) in [
        ("/metadata/name", "other"),
        ("/metadata/namespace", "elsewhere"),
        ("/kind", "Secret"),
        ("/apiVersion", "apps/v1"),
    ] {
        let mut before = d.before.clone().unwrap();
        *before.pointer_mut(field).unwrap() = json!(value);
        d.before = Some(before);
        assert!(
            inverse_of(&d)
                .unwrap_err()
                .contains("its before-state is not the object its record names"),
            "{field}"
        );
        d = entry(Operation::Rollback, "ConfigMap", Some(DELETE), None);
    }
    d.before = Some(json!("a string"));
    assert!(inverse_of(&d).is_err());
}

#[test]
fn a_crd_apply_that_created_the_crd_is_undone_only_for_the_uid_it_created() {
    let mut created = entry(
        Operation::CrdApply,
        "CustomResourceDefinition",
        Some(APPLY),
        Some(json!({"appliedFrom": "crds/a.yaml:1"})),
    );
    created.before = None;
    created.after = Some(json!({"metadata": {"uid": "u1", "resourceVersion": "7"}}));
    assert_eq!(
        inverse_of(&created).unwrap(),
        Inverse::Delete {
            uid: Some("u1".into()),
            rv_after: Some("7".into())
        }
    );
    let apply = Change::Apply {
        body: json!({}),
        field_manager: "kubectl-myops".into(),
        force: false,
        origin: Some(json!({"appliedFrom": "crds/a.yaml:1"})),
    };
    let answer = json!({"kind": "CustomResourceDefinition", "metadata": {"uid": "u1", "resourceVersion": "7"}});
    let (_, after) = apply.outcome("CustomResourceDefinition", None, &answer);
    assert_eq!(
        after.unwrap()["metadata"]["uid"],
        "u1",
        "a created object's after-state"
    );
    let (_, after) = apply.outcome("CustomResourceDefinition", Some(&json!({})), &answer);
    assert_eq!(
        after, None,
        "a CRD apply that changed an existing CRD keeps no after-state"
    );
}

#[test]
fn a_snapshot_drops_every_server_set_field_and_status_but_keeps_finalizers_and_owners() {
    let before = json!({
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {
            "name": "web", "namespace": "shop", "labels": {"a": "1"},
            "annotations": {"n": "x"}, "finalizers": ["example.com/keep"],
            "ownerReferences": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "d", "uid": "o1"}],
            "generateName": "web-",
            "uid": "u1", "resourceVersion": "9", "creationTimestamp": "2026-01-01T00:00:00Z",
            "managedFields": [{"manager": "kubectl"}], "deletionTimestamp": "2026-01-02T00:00:00Z",
            "deletionGracePeriodSeconds": 0, "generation": 3, "selfLink": "/api/v1/x"
        },
        "data": {"k": "v"},
        "status": {"phase": "Active"}
    });
    assert_eq!(
        super::snapshot(&before),
        json!({
            "apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {
                "name": "web", "namespace": "shop", "labels": {"a": "1"},
                "annotations": {"n": "x"}, "finalizers": ["example.com/keep"],
                "ownerReferences": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "d", "uid": "o1"}],
                "generateName": "web-"
            },
            "data": {"k": "v"}
        })
    );
}

#[test]
fn the_inverse_of_a_rollout_undo_restores_only_the_annotations_the_undo_changed() {
    // kubectl's undo replaces the whole annotation map, keeping the Deployment's revision
    // annotation; the controller rewrites that one right after, so it is not the undo's.
    let mut e = entry(
        Operation::Rollout,
        "Deployment",
        Some("json"),
        Some(json!([
            {"op": "replace", "path": "/spec/template", "value": {"metadata": {}}},
            {"op": "replace", "path": "/metadata/annotations", "value":
                {"deployment.kubernetes.io/revision": "2", "kubernetes.io/change-cause": "v1"}},
        ])),
    );
    e.before.as_mut().unwrap()["metadata"]["annotations"] = json!(
        {"deployment.kubernetes.io/revision": "2", "team": "a", "kubernetes.io/change-cause": "v2"}
    );
    let Inverse::Restore { touched, .. } = inverse_of(&e).unwrap() else {
        panic!("a restore");
    };
    assert_eq!(
        touched,
        [
            "/metadata/annotations/kubernetes.io~1change-cause",
            "/metadata/annotations/team",
            "/spec/template"
        ]
    );
    // A patch replacing the annotations is restored whole, as before.
    e.operation = Operation::Patch;
    let Inverse::Restore { touched, .. } = inverse_of(&e).unwrap() else {
        panic!("a restore");
    };
    assert_eq!(touched, ["/metadata/annotations", "/spec/template"]);
}

#[test]
fn a_create_with_a_status_writes_it_through_the_status_subresource_only_where_discovery_lists_one()
{
    let plain = super::object::test_object("example.com", "Widget", "widgets", "shop");
    let mut with_sub = plain.clone();
    with_sub.t.subresources = vec!["status".into()];
    let create = Change::Create {
        object: json!({"apiVersion": "example.com/v1", "kind": "Widget",
            "metadata": {"name": "web"}, "status": {"phase": "Ready"}}),
    };
    assert_eq!(
        create.status_write(&with_sub),
        Some(&json!({"phase": "Ready"}))
    );
    let reviews: Vec<(String, Option<String>)> = create
        .reviews(&with_sub)
        .into_iter()
        .map(|r| (r.verb, r.subresource))
        .collect();
    assert_eq!(
        reviews,
        [
            ("create".to_string(), None),
            ("patch".to_string(), Some("status".to_string()))
        ]
    );
    // Without the subresource the status is an ordinary field of the create.
    assert_eq!(create.status_write(&plain), None);
    assert_eq!(create.reviews(&plain).len(), 1);
    // Nothing to write: no status, or an empty one.
    let empty = Change::Create {
        object: json!({"metadata": {"name": "web"}, "status": {}}),
    };
    assert_eq!(empty.status_write(&with_sub), None);
    assert_eq!(empty.reviews(&with_sub).len(), 1);
}
#[path = "tests_apply.rs"]
mod apply;
