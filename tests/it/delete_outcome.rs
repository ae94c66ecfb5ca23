//! A mutating request whose answer is lost reads as *outcome unknown*, for every verb (the
//! guarded path's journal decides it in one place): the entry says so, `changelog reconcile`
//! decides it from the live object, and `undelete` goes by the live object too — created again
//! when the delete went, refused when the object is still there. The loss is made at will with
//! the debug build's fault `MYOPS_TEST_FAULT=lose-answer|drop-request`
//! (src/guard/mutation/test_hooks.rs `test_pause::faulted`); the chaos suite loses real answers by
//! stopping the server (tests/chaos/delete_midbatch.rs). A connection refused before anything
//! was sent stays a plain failure (unit tests in src/cluster/errors.rs).

use crate::fixture::{Myops, Namespace, kubectl};

const PLUGIN: &str =
    "name: myops\nverbs: [get, patch, delete]\nresources: [configmaps]\nscopes: [namespace]\n";

/// The last record of the delete of `name`.
fn delete_record(m: &Myops, name: &str) -> serde_json::Value {
    m.latest_records()
        .into_iter()
        .rfind(|r| r["operation"] == "delete" && r["name"] == name)
        .expect("a delete entry")
}

fn uid(ns: &str, name: &str) -> String {
    kubectl(&[
        "get",
        "configmap",
        name,
        "-n",
        ns,
        "-o",
        "jsonpath={.metadata.uid}",
    ])
}

#[test]
fn a_delete_whose_answer_was_lost_reads_as_outcome_unknown_and_undelete_restores_it() {
    let ns = Namespace::new("lost-answer");
    kubectl(&[
        "create",
        "configmap",
        "web",
        "-n",
        &ns.0,
        "--from-literal=k=v",
    ]);
    let old = uid(&ns.0, "web");
    let mut m = Myops::new(PLUGIN);
    m.set_env("MYOPS_TEST_FAULT", "lose-answer");
    let r = m.run(&["delete", "configmap", "web", "-n", &ns.0]);
    assert_eq!(r.code, 1, "{r:?}");
    let rec = delete_record(&m, "web");
    let id = rec["id"].as_str().unwrap().to_string();
    assert!(
        rec["result"]
            .as_str()
            .unwrap()
            .starts_with("outcome unknown: the API server "),
        "{rec:#}"
    );
    // A lost answer names no audit event: the entry has no auditId.
    assert!(rec.get("auditId").is_none(), "{rec:#}");
    assert!(
        r.stderr.contains(&format!(
            "the request may have reached the server, so the outcome of change-log entry {id} is unknown; `kubectl myops changelog reconcile {id}` decides it from the live object"
        )),
        "{r:?}"
    );
    assert!(r.stdout.is_empty(), "no `deleted` line: {r:?}");
    // The server did delete it.
    assert_eq!(
        kubectl(&[
            "get",
            "configmaps",
            "-n",
            &ns.0,
            "--field-selector=metadata.name=web",
            "-o",
            "name"
        ]),
        ""
    );
    m.set_env("MYOPS_TEST_FAULT", "");
    let list = m.run(&["changelog", "list", "--result", "unknown"]);
    assert!(
        list.stdout.contains(&id) && list.stdout.contains("outcome unknown"),
        "{list:?}"
    );
    // The live object decides: gone, so the undelete creates it again.
    let u = m.run(&["undelete", "configmap", "web", "-n", &ns.0]);
    assert_eq!(u.code, 0, "{u:?}");
    assert_eq!(u.stdout, format!("configmap/web undeleted ({id})\n"));
    assert_eq!(
        kubectl(&[
            "get",
            "configmap",
            "web",
            "-n",
            &ns.0,
            "-o",
            "jsonpath={.data.k}"
        ]),
        "v"
    );
    assert_ne!(uid(&ns.0, "web"), old);
    // reconcile records the delete as applied: the object there now is another one.
    let rc = m.run(&["changelog", "reconcile", &id]);
    assert_eq!(rc.code, 0, "{rc:?}");
    assert!(
        rc.stdout.starts_with(&format!(
            "{id}: applied — the object there now is another one"
        )),
        "{rc:?}"
    );
    assert_eq!(delete_record(&m, "web")["result"], "success");
}

#[test]
fn a_delete_whose_request_never_arrived_reads_as_unknown_and_undelete_finds_it_not_deleted() {
    let ns = Namespace::new("lost-request");
    kubectl(&[
        "create",
        "configmap",
        "web",
        "-n",
        &ns.0,
        "--from-literal=k=v",
    ]);
    let old = uid(&ns.0, "web");
    let mut m = Myops::new(PLUGIN);
    m.set_env("MYOPS_TEST_FAULT", "drop-request");
    let r = m.run(&["delete", "configmap", "web", "-n", &ns.0]);
    assert_eq!(r.code, 1, "{r:?}");
    let id = delete_record(&m, "web")["id"].as_str().unwrap().to_string();
    assert!(
        delete_record(&m, "web")["result"]
            .as_str()
            .unwrap()
            .starts_with("outcome unknown: ")
    );
    assert_eq!(uid(&ns.0, "web"), old, "nothing was sent");
    m.set_env("MYOPS_TEST_FAULT", "");
    let u = m.run(&["undelete", "--entry", &id]);
    assert_eq!(u.code, 5, "{u:?}");
    assert!(
        u.stderr.contains(&format!(
            "configmap/web of entry {id} is still there (the same uid, not being deleted): its delete was not applied, so there is nothing to undelete and nothing was sent"
        )),
        "{u:?}"
    );
    let rc = m.run(&["changelog", "reconcile"]);
    assert_eq!(rc.code, 0, "{rc:?}");
    assert!(
        rc.stdout.starts_with(&format!("{id}: not applied — ")),
        "{rc:?}"
    );
    assert_eq!(delete_record(&m, "web")["result"], "not applied");
}
