//! Unit tests of the order a container's objects are created in.

use serde_json::{Value, json};

use super::*;
use crate::changelog::sample_entry;

fn snap(kind: &str, name: &str, uid: &str, owners: Value) -> Entry {
    Entry {
        api_version: "v1".into(),
        kind: kind.into(),
        namespace: Some("shop".into()),
        operation: Operation::Delete,
        uid: Some(uid.into()),
        parent: Some("ns-entry".into()),
        before: Some(json!({"apiVersion": "v1", "kind": kind,
            "metadata": {"name": name, "namespace": "shop", "uid": uid, "ownerReferences": owners}})),
        result: changelog::SNAPSHOT.into(),
        ..sample_entry(name)
    }
}

fn owner(kind: &str, name: &str, uid: &str, controller: bool) -> Value {
    json!({"apiVersion": "apps/v1", "kind": kind, "name": name, "uid": uid, "controller": controller})
}

#[test]
fn owners_come_before_dependents_and_controlled_ones_are_left_to_their_controller() {
    let pod = snap(
        "Pod",
        "web-abc-1",
        "p1",
        json!([owner("ReplicaSet", "web-abc", "r1", true)]),
    );
    let rs = snap(
        "ReplicaSet",
        "web-abc",
        "r1",
        json!([owner("Deployment", "web", "d1", true)]),
    );
    let cm = snap(
        "ConfigMap",
        "conf",
        "c1",
        json!([owner("Deployment", "web", "d1", false)]),
    );
    let dep = snap("Deployment", "web", "d1", json!([]));
    let sa = snap("ServiceAccount", "default", "s1", json!([]));
    let ca = snap("ConfigMap", "kube-root-ca.crt", "k1", json!([]));
    let orphan = snap(
        "ReplicaSet",
        "lost",
        "r2",
        json!([owner("Deployment", "gone", "d9", true)]),
    );
    let kids = [&pod, &rs, &cm, &dep, &sa, &ca, &orphan];
    let steps = plan(&kids, true);
    let names: Vec<(&str, &Action)> = steps
        .iter()
        .map(|s| (s.entry.name.as_str(), &s.action))
        .collect();
    assert_eq!(
        names,
        [
            ("web", &Action::Restore),
            ("web-abc", &Action::ByController("deployment/web".into())),
            (
                "web-abc-1",
                &Action::ByController("replicaset/web-abc".into())
            ),
            ("conf", &Action::Restore),
            ("default", &Action::ByController("the namespace".into())),
            (
                "kube-root-ca.crt",
                &Action::ByController("the namespace".into())
            ),
            ("lost", &Action::Restore),
        ]
    );
    assert_eq!(steps[1].owner_uid.as_deref(), Some("d1"));
    // A CRD's custom resources have no namespace defaults.
    let steps = plan(&[&sa], false);
    assert_eq!(steps[0].action, Action::Restore);
}

#[test]
fn an_owner_cycle_keeps_the_journal_order_and_ends() {
    let a = snap(
        "ConfigMap",
        "a",
        "a1",
        json!([owner("ConfigMap", "b", "b1", false)]),
    );
    let b = snap(
        "ConfigMap",
        "b",
        "b1",
        json!([owner("ConfigMap", "a", "a1", false)]),
    );
    let steps = plan(&[&a, &b], true);
    assert_eq!(steps.len(), 2);
}
