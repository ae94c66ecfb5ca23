use super::*;

fn deployment(template_image: &str, paused: bool) -> Value {
    json!({
        "metadata": {"name": "web", "uid": "u1", "annotations": {
            REVISION: "2", "kubectl.kubernetes.io/last-applied-configuration": "{}", "team": "a"}},
        "spec": {"paused": paused, "selector": {"matchLabels": {"app": "web"}},
                 "template": {"metadata": {"labels": {"app": "web"}},
                              "spec": {"containers": [{"name": "c", "image": template_image}]}}}
    })
}

fn rs(n: &str, image: &str, owner: &str) -> Value {
    json!({
        "metadata": {"name": format!("web-{n}"), "annotations": {REVISION: n, CHANGE_CAUSE: format!("cause {n}")},
                     "ownerReferences": [{"controller": true, "uid": owner}]},
        "spec": {"template": {"metadata": {"labels": {"app": "web", HASH_LABEL: format!("h{n}")}},
                              "spec": {"containers": [{"name": "c", "image": image}]}}}
    })
}

#[test]
fn a_deployment_undo_sends_kubectls_json_patch_of_the_previous_replicaset() {
    let d = deployment("v2", false);
    let revs = owned_revisions(
        Workload::Deployment,
        &d,
        vec![
            rs("1", "v1", "u1"),
            rs("2", "v2", "u1"),
            rs("3", "v9", "other"),
        ],
    );
    assert_eq!(
        revs.len(),
        2,
        "the ReplicaSet of another owner is not a revision"
    );
    let UndoPlan::Patch {
        patch_type, body, ..
    } = undo_plan(Workload::Deployment, &d, &revs, 0, false).unwrap()
    else {
        panic!("a patch")
    };
    assert_eq!(patch_type, PatchType::Json);
    assert_eq!(body[0]["path"], "/spec/template");
    assert_eq!(body[0]["value"]["spec"]["containers"][0]["image"], "v1");
    assert!(
        body[0]["value"]["metadata"]["labels"]
            .get(HASH_LABEL)
            .is_none()
    );
    // The Deployment's own revision annotations are kept, the ReplicaSet's others copied;
    // an annotation only the Deployment had is dropped (as kubectl's replace does).
    assert_eq!(
        body[1]["value"],
        json!({REVISION: "2", "kubectl.kubernetes.io/last-applied-configuration": "{}", CHANGE_CAUSE: "cause 1"})
    );
}

#[test]
fn undo_refusals_are_kubectls_sentences() {
    let d = deployment("v2", false);
    let one = owned_revisions(Workload::Deployment, &d, vec![rs("2", "v2", "u1")]);
    assert_eq!(
        undo_plan(Workload::Deployment, &d, &one, 0, false).unwrap_err(),
        "no rollout history found for deployment \"web\""
    );
    assert_eq!(
        undo_plan(Workload::Deployment, &d, &one, 7, false).unwrap_err(),
        "unable to find specified revision 7 in history"
    );
    assert_eq!(
        undo_plan(Workload::Deployment, &d, &one, -1, false).unwrap_err(),
        "unable to find specified revision -1 in history"
    );
    assert_eq!(
        undo_plan(Workload::Deployment, &d, &one, 2, false).unwrap(),
        UndoPlan::Skipped("skipped rollback (current template already matches revision 2)".into())
    );
    let paused = deployment("v2", true);
    let two = owned_revisions(
        Workload::Deployment,
        &paused,
        vec![rs("1", "v1", "u1"), rs("2", "v2", "u1")],
    );
    assert!(
        undo_plan(Workload::Deployment, &paused, &two, 0, false)
            .unwrap_err()
            .starts_with("you cannot rollback a paused deployment")
    );
    assert_eq!(
        undo_plan(Workload::StatefulSet, &paused, &[], 0, false).unwrap_err(),
        "no last revision to roll back to"
    );
}

#[test]
fn a_controller_revision_undo_sends_its_data_and_skips_the_current_template() {
    let sts = json!({"metadata": {"name": "db", "uid": "s1"},
        "spec": {"template": {"metadata": {"labels": {"app": "db"}}, "spec": {"containers": [{"name": "c", "image": "v2"}]}}}});
    let cr = |n: i64, image: &str| {
        json!({
            "metadata": {"name": format!("db-{n}"), "ownerReferences": [{"controller": true, "uid": "s1"}]},
            "revision": n,
            "data": {"spec": {"template": {"$patch": "replace", "metadata": {"labels": {"app": "db"}},
                                           "spec": {"containers": [{"name": "c", "image": image}]}}}}
        })
    };
    let revs = owned_revisions(Workload::StatefulSet, &sts, vec![cr(1, "v1"), cr(2, "v2")]);
    let UndoPlan::Patch {
        patch_type,
        body,
        template,
    } = undo_plan(Workload::StatefulSet, &sts, &revs, 0, false).unwrap()
    else {
        panic!("a patch")
    };
    assert_eq!(patch_type, PatchType::Strategic);
    assert_eq!(body, cr(1, "v1")["data"]);
    assert!(template.get("$patch").is_none());
    assert_eq!(
        undo_plan(Workload::StatefulSet, &sts, &revs, 2, false).unwrap(),
        UndoPlan::Skipped("skipped rollback (current template already matches revision 2)".into())
    );
}

#[test]
fn selectors_print_as_apimachinery_writes_them() {
    let w = json!({"spec": {"selector": {
        "matchLabels": {"b": "2", "a": "1"},
        "matchExpressions": [{"key": "c", "operator": "In", "values": ["y", "x"]}, {"key": "d", "operator": "DoesNotExist"}]}}});
    assert_eq!(selector_string(&w), "a=1,b=2,c in (x,y),!d");
}

#[test]
fn a_restart_is_refused_on_a_paused_deployment_and_twice_in_one_second() {
    let at = "2026-12-04T10:00:00Z";
    let paused = deployment("v1", true);
    assert!(
        restart_refusal(Workload::Deployment, &paused, at)
            .unwrap()
            .contains("paused")
    );
    let mut d = deployment("v1", false);
    assert_eq!(restart_refusal(Workload::Deployment, &d, at), None);
    d["spec"]["template"]["metadata"]["annotations"] = json!({RESTARTED_AT: at});
    assert!(
        restart_refusal(Workload::Deployment, &d, at)
            .unwrap()
            .contains("past second")
    );
    assert_eq!(
        restart_patch(at),
        json!({"spec": {"template": {"metadata": {"annotations": {RESTARTED_AT: at}}}}})
    );
    let now = now_rfc3339();
    assert_eq!(now.len(), if now.ends_with('Z') { 20 } else { 25 }, "{now}");
}

#[test]
fn kinds_kubectl_visits_have_no_implementation_others_no_visitor() {
    let t = |group: &str, kind: &str| {
        crate::guard::change::object::test_object(group, kind, "x", "ns").t
    };
    assert_eq!(
        no_implementation(&t("apps", "ReplicaSet"), "rollbacker", "rollbacker"),
        "no rollbacker has been implemented for \"ReplicaSet.apps\""
    );
    assert_eq!(
        no_implementation(&t("", "ConfigMap"), "history viewer", "history"),
        "error retrieving history for \"ConfigMap\", no visitor method exists for { ConfigMap}"
    );
    assert_eq!(
        Workload::of(&t("apps", "StatefulSet")),
        Some(Workload::StatefulSet)
    );
    assert_eq!(Workload::of(&t("example.com", "Deployment")), None);
}
