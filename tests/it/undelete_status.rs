//! `undelete` restores the journaled status through the `status` subresource where discovery
//! lists one: the create, then a JSON patch of `<resource>/status` (reviewed with the create,
//! journaled in the same entry). Tested with a custom resource whose CRD has a status
//! subresource and no controller, so nothing else ever writes its status.

use serde_json::{Value, json};

use crate::fixture::{
    Myops, Namespace, audit_mark, audit_since, kubectl, kubectl_apply, wait_established,
};

fn get_json(args: &[&str]) -> Value {
    let mut a = vec!["get"];
    a.extend_from_slice(args);
    a.extend_from_slice(&["-o", "json"]);
    serde_json::from_str(&kubectl(&a)).unwrap()
}

/// A CRD `widgets.GROUP` with a status subresource, established, in a group of the test's own
/// (CRDs are cluster-scoped: tests running at once must not share one).
fn widget_crd(ns: &Namespace, with_status: bool) -> (String, String) {
    let group = format!("s{}.undelstatus.example.com", &ns.0[ns.0.len() - 5..]);
    let crd = format!("widgets.{group}");
    let sub = if with_status {
        "    subresources: {status: {}}\n"
    } else {
        ""
    };
    kubectl_apply(&format!(
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {{name: {crd}}}\nspec:\n  group: {group}\n  names: {{plural: widgets, singular: widget, kind: Widget}}\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n{sub}    schema: {{openAPIV3Schema: {{type: object, x-kubernetes-preserve-unknown-fields: true}}}}\n"
    ));
    wait_established(&[&crd]);
    (group, crd)
}

#[test]
fn undelete_of_a_custom_resource_restores_its_status_through_the_status_subresource() {
    let ns = Namespace::new("undel-status");
    let (group, crd) = widget_crd(&ns, true);
    kubectl_apply(&format!(
        "apiVersion: {group}/v1\nkind: Widget\nmetadata: {{name: w1, namespace: {}}}\nspec: {{size: 3}}\n",
        ns.0
    ));
    let status = json!({"phase": "Ready", "observedSize": 3, "conditions": [{"type": "Ok", "status": "True"}]});
    kubectl(&[
        "patch",
        &crd,
        "w1",
        "-n",
        &ns.0,
        "--subresource=status",
        "--type=merge",
        "-p",
        &json!({"status": status}).to_string(),
    ]);
    let before = get_json(&[&crd, "w1", "-n", &ns.0]);
    assert_eq!(before["status"], status);
    let m = Myops::new(&format!(
        "name: myops\nverbs: [get, patch, delete]\nresources: [{crd}]\nscopes: [namespace]\n"
    ));
    let d = m.run(&["delete", &crd, "w1", "-n", &ns.0]);
    assert_eq!(d.code, 0, "{d:?}");

    let mark = audit_mark();
    let u = m.run(&["undelete", &crd, "w1", "-n", &ns.0]);
    assert_eq!(u.code, 0, "{u:?}");
    assert!(!u.stderr.contains("status not restored"), "{u:?}");
    let now = get_json(&[&crd, "w1", "-n", &ns.0]);
    assert_eq!(now["status"], before["status"], "{now:#}");
    assert_eq!(now["spec"], json!({"size": 3}));
    assert_ne!(now["metadata"]["uid"], before["metadata"]["uid"]);
    // One undelete entry: the create carried the status, and its outcome is the object with it.
    let undeletes: Vec<Value> = m
        .latest_records()
        .into_iter()
        .filter(|r| r["operation"] == "undelete")
        .collect();
    assert_eq!(undeletes.len(), 1, "{undeletes:#?}");
    let rec = &undeletes[0];
    assert_eq!(rec["result"], "success");
    assert_eq!(rec["patch"]["status"], status);
    assert_eq!(rec["after"]["status"], status);
    assert_eq!(
        rec["resourceVersionAfter"],
        now["metadata"]["resourceVersion"]
    );
    // Two requests, one entry: its auditId is the main request's, the create (not the status
    // write after it).
    let audit_id = rec["auditId"].as_str().expect("an auditId");
    let events = audit_since(mark);
    let e = events
        .iter()
        .find(|e| e["auditID"] == audit_id)
        .expect("the audit event of the entry");
    assert_eq!(e["verb"], "create", "{e}");
    assert!(
        e["userAgent"]
            .as_str()
            .unwrap()
            .contains("(myops undelete)")
    );
    assert!(
        events.iter().any(|e| e["verb"] == "patch"
            && e["objectRef"]["subresource"] == "status"
            && e["auditID"] != audit_id),
        "the status write is a request of its own"
    );
    // Its rollback deletes what it created, guarded by the resourceVersion the status write
    // left (`--force`: the object came from `kubectl apply`, whose next apply would bring it
    // back).
    let id = rec["id"].as_str().unwrap();
    let r = m.run(&["rollback", id, "--force"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        kubectl(&["get", &crd, "-n", &ns.0, "-o", "name"]),
        "",
        "rolled back: gone again"
    );
    kubectl(&["delete", "crd", &crd, "--wait=false"]);
}

#[test]
fn undelete_of_a_custom_resource_without_a_status_subresource_creates_its_status_with_it() {
    let ns = Namespace::new("undel-status-plain");
    let (group, crd) = widget_crd(&ns, false);
    kubectl_apply(&format!(
        "apiVersion: {group}/v1\nkind: Widget\nmetadata: {{name: w2, namespace: {}}}\nspec: {{size: 1}}\nstatus: {{phase: Done}}\n",
        ns.0
    ));
    let m = Myops::new(&format!(
        "name: myops\nverbs: [get, patch, delete]\nresources: [{crd}]\nscopes: [namespace]\n"
    ));
    assert_eq!(m.run(&["delete", &crd, "w2", "-n", &ns.0]).code, 0);
    let u = m.run(&["undelete", &crd, "w2", "-n", &ns.0]);
    assert_eq!(u.code, 0, "{u:?}");
    let now = get_json(&[&crd, "w2", "-n", &ns.0]);
    assert_eq!(now["status"], json!({"phase": "Done"}));
    kubectl(&["delete", "crd", &crd, "--wait=false"]);
}

#[test]
fn undelete_by_a_user_rbac_denies_the_status_subresource_creates_the_object_and_says_its_status_was_not_restored()
 {
    let ns = Namespace::new("undel-status-rbac");
    let (group, crd) = widget_crd(&ns, true);
    kubectl_apply(&format!(
        "apiVersion: {group}/v1\nkind: Widget\nmetadata: {{name: w3, namespace: {}}}\nspec: {{size: 2}}\n",
        ns.0
    ));
    kubectl(&[
        "patch",
        &crd,
        "w3",
        "-n",
        &ns.0,
        "--subresource=status",
        "--type=merge",
        "-p",
        r#"{"status":{"phase":"Ready"}}"#,
    ]);
    ns.grant("alice", "get,list,create,delete", &crd);
    let m = Myops::new(&format!(
        "name: myops\nverbs: [get, patch, delete]\nresources: [{crd}]\nscopes: [namespace]\n"
    ));
    assert_eq!(m.run(&["delete", &crd, "w3", "-n", &ns.0]).code, 0);
    let u = m.run(&["--context", "alice", "undelete", &crd, "w3", "-n", &ns.0]);
    assert_eq!(u.code, 0, "{u:?}");
    assert!(
        u.stderr.contains(&format!(
            "note: widget.{group}/w3: status not restored (RBAC does not allow patch on {crd}/status)"
        )),
        "{u:?}"
    );
    let now = get_json(&[&crd, "w3", "-n", &ns.0]);
    assert_eq!(now["spec"], json!({"size": 2}));
    assert_eq!(now.get("status"), None, "{now:#}");
    kubectl(&["delete", "crd", &crd, "--wait=false"]);
}
