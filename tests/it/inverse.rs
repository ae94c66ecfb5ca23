//! `rollback ID` runs the inverse of every kind of entry the change log holds (the mutation
//! model, src/guard/change/): a patch, a rollback, a CRD apply, a CRD prune — and refuses,
//! before anything is sent, an inverse that cannot be exact (a Secret's values). And the
//! guarded path sends only what was reviewed: a patch whose `get` review says no reads no
//! before-state.

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::crd_watcher::{Watcher, crd, watched_dir};
use crate::fixture::{
    Myops, Namespace, audit_events, audit_mark, audit_since, cluster, create_secret, kubectl,
};

const SLOW: Duration = Duration::from_secs(60);

fn myops() -> Myops {
    Myops::new(&format!(
        "name: myops\nverbs: [get, patch]\nresources: [configmaps, secrets, customresourcedefinitions]\nscopes: [namespace, cluster]\nmetrics: [ops_total]\npushgateway:\n  url: {}\n  job: inverse\n  instance: test\n  timeout: 1s\n",
        cluster().pushgateway
    ))
}

/// The id of the last record of `operation` in the change log.
fn last_id(m: &Myops, operation: &str) -> String {
    m.latest_records()
        .iter()
        .rev()
        .find(|e| e["operation"] == operation)
        .and_then(|e| e["id"].as_str().map(str::to_string))
        .unwrap_or_else(|| panic!("no {operation} entry: {:#?}", m.latest_records()))
}

fn cm_value(ns: &str) -> String {
    kubectl(&[
        "get",
        "configmap",
        "web",
        "-n",
        ns,
        "-o",
        "jsonpath={.data.k}",
    ])
}

/// Whether CRD `name` exists (kubectl as admin).
fn crd_exists(name: &str) -> bool {
    kubectl(&["get", "crd", "-o", "name"]).contains(&format!("/{name}\n"))
}

/// Waits until CRD `name` exists (`true`) or is gone (`false`): a deleted CRD goes away once
/// its custom resources are cleaned up (a finalizer).
fn wait_crd(name: &str, exists: bool) {
    let end = Instant::now() + SLOW;
    while crd_exists(name) != exists {
        assert!(
            Instant::now() < end,
            "CRD {name} exists={exists} never held"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

fn rollback(m: &Myops, id: &str) -> crate::fixture::Run {
    let r = m.run(&["rollback", id]);
    assert_eq!(r.code, 0, "rollback {id}: {r:?}");
    r
}

#[test]
fn rollback_runs_the_inverse_of_each_kind_of_entry() {
    let ns = Namespace::new("inverse-kinds");
    let m = myops();

    // A patch, rolled back; then that rollback rolled back.
    kubectl(&[
        "create",
        "configmap",
        "web",
        "-n",
        &ns.0,
        "--from-literal=k=v1",
    ]);
    let r = m.merge_patch(&ns.0, "configmap", "web", r#"{"data":{"k":"v2"}}"#);
    assert_eq!(r.code, 0, "{r:?}");
    rollback(&m, &last_id(&m, "patch"));
    assert_eq!(cm_value(&ns.0), "v1");
    rollback(&m, &last_id(&m, "rollback"));
    assert_eq!(cm_value(&ns.0), "v2");

    // A CRD apply that created the CRD: its inverse deletes it.
    let group = format!("{}.inverse.example.com", ns.0);
    let name = format!("inverses.{group}");
    let dir = watched_dir(&m);
    std::fs::write(
        dir.join("inverses.yaml"),
        crd(&group, "inverses", "Inverse"),
    )
    .unwrap();
    let r = m.run(&["crds", "sync", dir.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(crd_exists(&name));
    let registry = m.dir.path().join("myops/crd-registry.json");
    let registered = || {
        std::fs::read_to_string(&registry)
            .unwrap_or_default()
            .contains(&name)
    };
    assert!(registered(), "crds sync registers the CRD");
    let applied = last_id(&m, "crd-apply");
    let r = rollback(&m, &applied);
    assert_eq!(
        r.stdout,
        format!(
            "customresourcedefinition.apiextensions.k8s.io/{name} rolled back ({applied}): deleted\n"
        )
    );
    wait_crd(&name, false);
    // The deleted CRD no longer widens the boundary (a deleted type stayed registered).
    assert!(!registered(), "the rollback's delete unregisters the CRD");

    // That rollback (a delete) rolled back: the CRD is created again from its before-state.
    let deleted = last_id(&m, "rollback");
    let r = rollback(&m, &deleted);
    assert!(
        r.stdout
            .contains(&format!("rolled back ({deleted}): created again")),
        "{r:?}"
    );
    assert!(r.stderr.contains("custom resources"), "{r:?}");
    wait_crd(&name, true);

    // A CRD prune (the file removed under `crds watch --prune`): its inverse creates the CRD
    // again, and says its custom resources are not restored.
    let mut w = Watcher::start(&m, &dir, &["--prune"]);
    w.expect("registered", &name, SLOW);
    std::fs::remove_file(dir.join("inverses.yaml")).unwrap();
    w.expect("pruned", &name, SLOW);
    assert_eq!(w.stop(), 0);
    wait_crd(&name, false);
    let pruned = last_id(&m, "crd-prune");
    let r = rollback(&m, &pruned);
    assert!(
        r.stdout.contains(&format!(
            "customresourcedefinition.apiextensions.k8s.io/{name} rolled back ({pruned}): created again from its before-state"
        )),
        "{r:?}"
    );
    assert!(
        r.stderr.contains(&format!(
            "note: the custom resources of {name} were deleted with it"
        )),
        "{r:?}"
    );
    wait_crd(&name, true);
    kubectl(&["delete", "crd", &name, "--wait=false"]);

    // A Secret's data: no exact inverse, refused with exit 2 and nothing sent.
    create_secret(&ns.0, "db", &["password=old-pw"]);
    let r = m.run(&[
        "patch",
        "secret",
        "db",
        "-n",
        &ns.0,
        "--type",
        "merge",
        "-p",
        r#"{"stringData":{"password":"new-pw"}}"#,
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    let mark = audit_mark();
    let r = m.run(&["rollback", &last_id(&m, "patch")]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr
            .contains("the change log never stores Secret values"),
        "{r:?}"
    );
    let sent: Vec<Value> = audit_since(mark)
        .into_iter()
        .filter(|e| {
            e.pointer("/objectRef/resource").and_then(Value::as_str) == Some("secrets")
                && e.pointer("/objectRef/namespace").and_then(Value::as_str) == Some(&ns.0)
        })
        .collect();
    assert!(sent.is_empty(), "requests about the Secret: {sent:#?}");
}

#[test]
fn a_patch_grant_sent_an_unreviewed_get_of_the_before_state() {
    // bob may patch ConfigMaps but not get them: the `get` review says no, so the patch goes
    // on without a before-state and no GET of the object is sent.
    let ns = Namespace::new("inverse-no-get");
    ns.grant("bob", "patch", "configmaps");
    kubectl(&[
        "create",
        "configmap",
        "web",
        "-n",
        &ns.0,
        "--from-literal=k=v1",
    ]);
    let m = myops();
    let r = m.merge_patch_as("bob", &ns.0, "configmap", "web", r#"{"data":{"k":"v2"}}"#);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(cm_value(&ns.0), "v2");
    let events = audit_events("bob", "configmaps", &ns.0);
    assert!(
        events.iter().any(|e| e["verb"] == "patch"),
        "the patch was sent: {events:#?}"
    );
    let gets: Vec<&Value> = events.iter().filter(|e| e["verb"] == "get").collect();
    assert!(gets.is_empty(), "an unreviewed GET was sent: {gets:#?}");
    let last = m.latest_records().pop().unwrap();
    assert_eq!(last["result"], "success", "{last:#}");
    assert_eq!(last["before"], Value::Null, "{last:#}");
}

#[test]
fn rollback_of_an_entry_made_on_another_cluster_recreated_it_in_the_current_one() {
    // A configmap on the second server, patched there (context admin-2); the current context
    // (admin) points at the first. `rollback ID` without --context must send nothing to the
    // first server: its inverse would change or create an object the entry never touched.
    let ns = format!("inverse-moved-{}", std::process::id());
    let in2 = |args: &[&str]| {
        let mut all = vec!["--context", "admin-2"];
        all.extend_from_slice(args);
        kubectl(&all)
    };
    in2(&["create", "namespace", &ns]);
    in2(&[
        "create",
        "configmap",
        "web",
        "-n",
        &ns,
        "--from-literal=k=v1",
    ]);
    let m = myops();
    let r = m.merge_patch_as("admin-2", &ns, "configmap", "web", r#"{"data":{"k":"v2"}}"#);
    assert_eq!(r.code, 0, "{r:?}");
    let id = last_id(&m, "patch");
    let mark = audit_mark();
    let r = m.run(&["rollback", &id]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr.contains("but the context points at") && r.stderr.contains("nothing was sent"),
        "{r:?}"
    );
    let sent: Vec<Value> = audit_since(mark)
        .into_iter()
        .filter(|e| e.pointer("/objectRef/namespace").and_then(Value::as_str) == Some(&ns))
        .collect();
    assert!(sent.is_empty(), "requests to the first server: {sent:#?}");
    // In a context of the entry's server it rolls back.
    let r = m.run(&["--context", "admin-2", "rollback", &id]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        in2(&[
            "get",
            "configmap",
            "web",
            "-n",
            &ns,
            "-o",
            "jsonpath={.data.k}"
        ]),
        "v1"
    );
    in2(&["delete", "namespace", &ns, "--wait=false"]);
}
