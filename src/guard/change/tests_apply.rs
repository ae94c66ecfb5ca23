//! The inverse and outcome of a manifest `apply` (pure).

use super::*;
use crate::guard::change::inverse::applied_changes;

#[test]
fn the_inverse_of_an_apply_that_created_deletes_only_the_created_uid() {
    let mut e = entry(Operation::Apply, "ConfigMap", Some(APPLY), Some(json!({})));
    e.before = None;
    e.after = Some(json!({"kind": "ConfigMap", "metadata": {"uid": "u9", "resourceVersion": "7"}}));
    assert_eq!(
        inverse_of(&e).unwrap(),
        Inverse::Delete {
            uid: Some("u9".into()),
            rv_after: Some("7".into())
        }
    );
    // An outcome unknown: no uid, no resourceVersion — nothing to make the delete exact.
    e.after = None;
    e.resource_version_after = None;
    e.result = crate::changelog::PENDING.into();
    assert!(
        inverse_of(&e)
            .unwrap_err()
            .contains("no uid or resourceVersion of what it created")
    );
}

#[test]
fn the_inverse_of_an_apply_that_updated_restores_exactly_the_fields_that_changed() {
    let mut e = entry(Operation::Apply, "ConfigMap", Some(APPLY), Some(json!({})));
    let mut after = e.before.clone().unwrap();
    after["spec"]["x"] = json!(2);
    after["spec"]["y"] = json!("new");
    after["metadata"]["labels"]["b"] = json!("2");
    after["metadata"]["resourceVersion"] = json!("7");
    after["metadata"]["managedFields"] = json!([{"manager": "kubectl-myops"}]);
    after["status"]["ok"] = json!(false);
    e.after = Some(after);
    let Inverse::Restore {
        touched, rv_after, ..
    } = inverse_of(&e).unwrap()
    else {
        panic!("a restore");
    };
    assert_eq!(
        touched,
        vec!["/metadata/labels/b", "/spec/x", "/spec/y"],
        "not the blunt /spec of a CRD apply, no bookkeeping, no status"
    );
    assert_eq!(rv_after.as_deref(), Some("7"));
    e.after = None;
    assert!(inverse_of(&e).unwrap_err().contains("no after-state"));
}

#[test]
fn a_list_an_apply_grew_or_shrank_is_restored_whole() {
    let before = json!({"spec": {"ports": [{"port": 80}], "keep": 1}});
    let grown = json!({"spec": {"ports": [{"port": 80}, {"port": 81}, {"port": 82}], "keep": 1}});
    assert_eq!(applied_changes(&before, &grown), vec!["/spec/ports"]);
    assert_eq!(applied_changes(&grown, &before), vec!["/spec/ports"]);
    let changed = json!({"spec": {"ports": [{"port": 8080}], "keep": 1}});
    assert_eq!(applied_changes(&before, &changed), vec!["/spec/ports"]);
    assert!(applied_changes(&before, &before).is_empty());
}

#[test]
fn an_apply_of_secret_data_has_no_exact_inverse() {
    let mut e = entry(Operation::Apply, "Secret", Some(APPLY), Some(json!({})));
    let mut after = e.before.clone().unwrap();
    after["data"] = json!({"pw": "<redacted>"});
    e.after = Some(after);
    assert!(
        inverse_of(&e)
            .unwrap_err()
            .contains("never stores Secret values")
    );
}

#[test]
fn a_manifest_apply_keeps_its_after_state_and_a_crd_apply_only_of_a_create() {
    let before = json!({"kind": "ConfigMap", "metadata": {"resourceVersion": "5"}});
    let answer = json!({"kind": "ConfigMap", "metadata": {"resourceVersion": "9", "uid": "u"}});
    let apply = |origin: Option<Value>| Change::Apply {
        body: json!({}),
        field_manager: "kubectl-myops".into(),
        force: false,
        origin,
    };
    assert_eq!(
        apply(None).outcome("ConfigMap", Some(&before), &answer),
        (Some("9".into()), Some(answer.clone()))
    );
    assert_eq!(
        apply(Some(json!({"appliedFrom": "a.yaml:1"}))).outcome(
            "ConfigMap",
            Some(&before),
            &answer
        ),
        (Some("9".into()), None)
    );
}
