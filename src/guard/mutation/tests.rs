use super::outcome::failed_outcome;
use super::patch::refusal_result;
use super::*;
use crate::cli::PatchType;
use kube::api::DynamicObject;
use serde_json::json;

#[test]
fn a_scale_answer_is_not_journaled_as_the_objects_after_state() {
    let scale: DynamicObject =
        serde_json::from_value(json!({"apiVersion": "autoscaling/v1", "kind": "Scale",
        "metadata": {"name": "web", "resourceVersion": "7"}, "spec": {"replicas": 3}}))
        .unwrap();
    assert_eq!(after_state("Deployment", None, &scale), None);
    let cm: DynamicObject = serde_json::from_value(json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "web"}, "data": {"a": "b"}}))
    .unwrap();
    assert_eq!(
        after_state("ConfigMap", None, &cm).unwrap()["data"],
        json!({"a": "b"})
    );
}

fn obj(group: &str, plural: &str, kind: &str) -> ObjectRef {
    crate::guard::change::object::test_object(group, kind, plural, "ns")
}

#[test]
fn a_scale_answer_is_judged_as_spec_replicas_of_a_builtin_type_and_refused_for_a_cr() {
    let scale: DynamicObject = serde_json::from_value(json!({"apiVersion": "autoscaling/v1",
        "kind": "Scale", "metadata": {"name": "web"}, "spec": {"replicas": 5}}))
    .unwrap();
    let before = json!({"kind": "Deployment", "spec": {"replicas": 2, "paused": false}});
    let d = obj("apps", "deployments", "Deployment");
    assert_eq!(
        would_store(&d, &before, Some("scale"), &scale).unwrap(),
        json!({"kind": "Deployment", "spec": {"replicas": 5, "paused": false}})
    );
    let w = obj("example.com", "widgets", "Widget");
    let e = would_store(&w, &before, Some("scale"), &scale).unwrap_err();
    assert!(e.contains("specReplicasPath"), "{e}");
    // Any other answer is the object itself.
    let cm: DynamicObject = serde_json::from_value(json!({"apiVersion": "v1",
        "kind": "ConfigMap", "metadata": {"name": "web"}, "data": {"a": "b"}}))
    .unwrap();
    assert_eq!(
        would_store(&w, &before, None, &cm).unwrap()["data"],
        json!({"a": "b"})
    );
}

#[test]
fn a_resource_version_set_to_null_or_empty_by_the_patch_does_not_drop_the_precondition() {
    // A patch that sets metadata.resourceVersion to null or "" keeps its precondition: else
    // the dry run and the real patch would be sent without any.
    for unset in [json!(null), json!("")] {
        assert_eq!(
            with_precondition(
                PatchType::Merge,
                &json!({"metadata": {"resourceVersion": unset}, "data": {"a": "b"}}),
                "42"
            ),
            json!({"metadata": {"resourceVersion": "42"}, "data": {"a": "b"}})
        );
    }
    // A JSON patch that blanks the resourceVersion and then tests the blank.
    let blank = json!([{"op": "replace", "path": "/metadata/resourceVersion", "value": ""},
                       {"op": "test", "path": "/metadata/resourceVersion", "value": ""}]);
    let pinned = with_precondition(PatchType::Json, &blank, "42");
    assert_eq!(
        pinned[0],
        json!({"op": "test", "path": "/metadata/resourceVersion", "value": "42"})
    );
}

#[test]
fn the_policy_precondition_pins_the_resource_version_without_changing_the_change() {
    assert_eq!(
        with_precondition(PatchType::Merge, &json!({"data": {"a": "b"}}), "42"),
        json!({"data": {"a": "b"}, "metadata": {"resourceVersion": "42"}})
    );
    assert_eq!(
        with_precondition(
            PatchType::Strategic,
            &json!({"metadata": {"labels": {"x": "y"}, "resourceVersion": "7"}}),
            "42"
        ),
        json!({"metadata": {"labels": {"x": "y"}, "resourceVersion": "7"}}),
        "a resourceVersion the user set is kept"
    );
    assert_eq!(
        with_precondition(
            PatchType::Json,
            &json!([{"op": "replace", "path": "/data/a", "value": "c"}]),
            "42"
        ),
        json!([{"op": "test", "path": "/metadata/resourceVersion", "value": "42"},
               {"op": "replace", "path": "/data/a", "value": "c"}])
    );
    let rollback = json!([{"op": "test", "path": "/metadata/resourceVersion", "value": "9"},
                          {"op": "replace", "path": "/data/a", "value": "c"}]);
    assert_eq!(
        with_precondition(PatchType::Json, &rollback, "42"),
        rollback
    );
}

#[test]
fn a_policy_refusal_names_rule_path_and_message_and_never_a_value() {
    let rule = crate::config::PolicyRule {
        resource: "secrets".into(),
        namespaces: vec![],
        deny: vec!["/data/*".into()],
        allow: vec![],
        delete: Default::default(),
        message: "vault\u{1b}[2J sync".into(),
        exempt: Default::default(),
    };
    let rules = vec![crate::rules::policy::Compiled::new(0, &rule).unwrap()];
    let s = obj("", "secrets", "Secret");
    let before = json!({"data": {"pw": "c2VjcmV0LW9sZA=="}});
    let after = json!({"data": {"pw": "c2VjcmV0LW5ldw=="}});
    let e = policy_verdict(&rules, &s, "patch", &before, &after).unwrap_err();
    assert_eq!(e.exit_status(), crate::exit::ExitStatus::Denied);
    assert_eq!(
        e.to_string(),
        "denied by plugin.yaml policies[0] (secrets): the patch would change /data/pw of secret/web: vault\\u{1b}[2J sync (nothing was sent)"
    );
    assert_eq!(
        refusal_result(&e),
        "denied by field policy policies[0] (secrets): /data/pw"
    );
    assert!(policy_verdict(&rules, &s, "rollback", &before, &before).is_ok());
}

#[test]
fn secret_values_a_patch_sends_are_masked_in_later_server_messages() {
    remember_patch_secrets(
        "Secret",
        &json!({"stringData": {"password": "merge-pw-81f2c"}, "metadata": {"name": "keep-this-name"}}),
    );
    remember_patch_secrets(
        "Secret",
        &json!([{"op": "add", "path": "/data/token", "value": "anNvbi1wYXRjaC10b2tlbg=="},
                {"op": "add", "path": "/metadata/labels/team", "value": "visible-label"}]),
    );
    remember_patch_secrets("ConfigMap", &json!({"data": {"k": "configmap-value"}}));
    let msg = "Secret \"keep-this-name\" is invalid: merge-pw-81f2c json-patch-token visible-label configmap-value";
    assert_eq!(
        crate::base::redact::scrub(msg),
        "Secret \"keep-this-name\" is invalid: *** *** visible-label configmap-value"
    );
}

#[test]
fn a_delete_of_an_object_a_rule_forbids_deleting_is_refused_and_nothing_else_is() {
    use crate::changelog::Operation;
    use crate::guard::change::Change;
    use crate::rules::policy::{DeletePolicy, PolicyRule};
    let rule = |resource: &str, namespaces: &[&str], deny: &[&str], delete| PolicyRule {
        resource: resource.into(),
        namespaces: namespaces.iter().map(|s| s.to_string()).collect(),
        deny: deny.iter().map(|s| s.to_string()).collect(),
        allow: vec![],
        delete,
        message: "kept by\u{1b}[2J the platform team".into(),
        exempt: Default::default(),
    };
    let delete = Change::Delete {
        uid: Some("u1".into()),
        resource_version: Some("7".into()),
        propagation: None,
        grace_period: None,
        unrecoverable: false,
    };
    let cm = obj("", "configmaps", "ConfigMap");
    // Deny paths alone judge patches, never a delete: an existing rule keeps its meaning.
    let paths_only = vec![rule("configmaps", &[], &["/data/*"], DeletePolicy::Allow)];
    assert!(delete_verdict(&paths_only, &cm, Operation::Delete, &delete).is_ok());
    // The rule's namespaces bound it as they bound patches.
    let elsewhere = vec![rule("configmaps", &["prod-*"], &[], DeletePolicy::Deny)];
    assert!(delete_verdict(&elsewhere, &cm, Operation::Delete, &delete).is_ok());
    let policies = vec![
        rule("secrets", &[], &[], DeletePolicy::Deny),
        rule("configmaps", &[], &["/data/*"], DeletePolicy::Allow),
        rule("*", &["n*"], &[], DeletePolicy::Deny),
    ];
    let e = delete_verdict(&policies, &cm, Operation::Delete, &delete).unwrap_err();
    assert_eq!(e.exit_status(), crate::exit::ExitStatus::Denied);
    assert_eq!(
        e.to_string(),
        "denied by plugin.yaml policies[2] (*): the delete would delete configmap/web, and the rule forbids deleting it: kept by\\u{1b}[2J the platform team (nothing was sent)"
    );
    // A rollback whose undo is a delete (of an undelete, of a create) is refused the same.
    let e = delete_verdict(&policies, &cm, Operation::Rollback, &delete).unwrap_err();
    assert!(
        e.to_string()
            .contains("the rollback would delete configmap/web"),
        "{e}"
    );
    // Every other change of the same object is the deny paths' business, not this rule's.
    let patch = Change::Patch {
        patch_type: PatchType::Merge,
        body: json!({"metadata": {"labels": {"a": "b"}}}),
        subresource: None,
    };
    assert!(delete_verdict(&policies, &cm, Operation::Patch, &patch).is_ok());
    let create = Change::Create {
        object: json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "web"}}),
    };
    assert!(delete_verdict(&policies, &cm, Operation::Undelete, &create).is_ok());
}

#[test]
fn a_lost_answer_is_journaled_as_outcome_unknown_and_a_refused_connection_as_a_failure() {
    let timeout = ApiError::Timeout {
        server: "https://x".into(),
        what: "the request".into(),
        after: std::time::Duration::from_secs(3),
    };
    let text = failed_outcome(&timeout, false);
    assert_eq!(
        text,
        "outcome unknown: the API server https://x did not answer the request within 3s; check that it is up and reachable, or raise --request-timeout"
    );
    let record = crate::changelog::sample_entry("a").with_outcome(text, None, 3.0);
    assert!(
        record.outcome_unknown(),
        "reconcile, rollback and undelete treat it as unknown"
    );
    // A dry run changes nothing, whatever became of its answer.
    assert!(!failed_outcome(&timeout, true).starts_with(changelog::LOST));
    let conflict = ApiError::Server {
        code: 409,
        reason: "Conflict".into(),
        message: "changed".into(),
    };
    assert_eq!(failed_outcome(&conflict, false), "Conflict (409): changed");
}

/// An answer too deep to decode came back as "cannot reach the API server"
/// and the batch apply journaled it as a failed attempt, which `rollback` and `drift` skip.
#[test]
fn an_answer_that_could_not_be_read_was_journaled_as_a_failed_attempt() {
    let err: serde_json::Error =
        serde_json::from_str::<serde_json::Value>(&"[".repeat(200)).unwrap_err();
    let undecodable = ApiError::from_kube(kube::Error::SerdeError(err), "https://x");
    assert!(
        matches!(undecodable, ApiError::Undecodable { .. }),
        "{undecodable:?}"
    );
    let intent = crate::changelog::sample_entry("a");
    let (record, result) = settle::<serde_json::Value>(
        &intent,
        Err(GuardError::Api(undecodable)),
        |_| Recorded::default(),
        0.5,
        Some("audit-1".into()),
    );
    assert!(record.outcome_unknown(), "{}", record.result);
    assert!(
        record.result.starts_with(
            "outcome unknown: the API server https://x answered, but its answer could not be read: recursion limit exceeded"
        ),
        "{}",
        record.result
    );
    assert_eq!(record.audit_id, None);
    let Err(GuardError::Api(ApiError::Lost { entry, .. })) = result else {
        panic!("{result:?}");
    };
    assert_eq!(entry, record.id);
    // An answer read is the record `recorded` makes of it, with its Audit-Id.
    let (record, result) = settle(
        &intent,
        Ok(json!({})),
        |_| Recorded {
            resource_version: Some("7".into()),
            ..Recorded::default()
        },
        0.5,
        Some("audit-1".into()),
    );
    assert_eq!(
        (record.result.as_str(), record.audit_id.as_deref()),
        ("success", Some("audit-1"))
    );
    assert_eq!(record.resource_version_after.as_deref(), Some("7"));
    assert!(result.is_ok());
}

#[test]
fn custom_resource_groups_have_no_strategic_merge_and_built_in_ones_do() {
    use super::patch::builtin_api_group;
    for g in [
        "",
        "apps",
        "batch",
        "networking.k8s.io",
        "apiextensions.k8s.io",
    ] {
        assert!(builtin_api_group(g), "{g}");
    }
    // A CRD in an approved *.k8s.io group (Gateway API) is still a custom resource.
    for g in ["example.com", "gateway.networking.k8s.io", "metrics.k8s.io"] {
        assert!(!builtin_api_group(g), "{g}");
    }
}
