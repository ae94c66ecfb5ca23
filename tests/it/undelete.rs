//! Integration tests of `undelete` and of `rollback ID` of a delete entry against the real
//! API server. The delete entries are journaled as the `delete` verb journals them
//! (RULES26.md "Contracts": the intent with the whole before-state and the preconditions, the
//! outcome; a namespace's objects as `snapshot` records with `parent`), through the crate's
//! own `Journal` (so the hash chain holds), and the objects deleted with kubectl.

use serde_json::{Value, json};

use crate::fixture::{Myops, Namespace, cluster, kubectl, kubectl_at};
use myops::changelog::{self, Entry, Journal, Operation};

fn myops() -> Myops {
    Myops::new(
        "name: myops\nverbs: [get, patch, delete]\nresources: [configmaps, secrets, namespaces, deployments, replicasets, serviceaccounts]\nscopes: [namespace, cluster]\nmetrics: [ops_total]\n",
    )
}

/// The API server URL of the admin context, as the session records it.
fn server() -> String {
    kubectl(&[
        "config",
        "view",
        "--minify",
        "-o",
        "jsonpath={.clusters[0].cluster.server}",
    ])
}

fn get_json(args: &[&str]) -> Value {
    let mut a = vec!["get"];
    a.extend_from_slice(args);
    a.extend_from_slice(&["-o", "json"]);
    serde_json::from_str(&kubectl(&a)).unwrap()
}

/// A record of the delete of `object` (as read) as the delete verb writes it.
fn delete_record(object: &Value, server: &str, parent: Option<&str>, result: &str) -> Entry {
    let kind = object["kind"].as_str().unwrap().to_string();
    let text = |p: &str| {
        object
            .pointer(p)
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    let uid = text("/metadata/uid");
    Entry {
        id: changelog::new_id(),
        format_version: Some(changelog::FORMAT_VERSION),
        session: "test-session".into(),
        timestamp: changelog::now_rfc3339(),
        plugin: "myops".into(),
        user: "admin".into(),
        context: Some("admin".into()),
        server: server.into(),
        api_version: text("/apiVersion").unwrap(),
        kind: kind.clone(),
        namespace: text("/metadata/namespace"),
        name: text("/metadata/name").unwrap(),
        uid: uid.clone(),
        operation: Operation::Delete,
        patch_type: Some("delete".into()),
        patch: parent.is_none().then(|| {
            json!({"preconditions": {"uid": uid, "resourceVersion": text("/metadata/resourceVersion")}})
        }),
        dry_run: false,
        before: Some(changelog::redact_as(&kind, object.clone())),
        after: None,
        reconciler: None,
        parent: parent.map(str::to_string),
        resource_version_after: None,
        reconciled: None,
        reason: None,
        protection: None,
        audit_id: None,
        actor: None,
        result: result.into(),
        duration_seconds: 0.1,
    }
}

/// Journals the delete of `object` (intent, then outcome `result`) in `m`'s change log and
/// returns its id; `server` is the entry's.
fn journal_delete(m: &Myops, object: &Value, server: &str, result: &str) -> String {
    let j = Journal::open(&m.dir.path().join("myops")).unwrap();
    let intent = Entry {
        result: changelog::PENDING.into(),
        ..delete_record(object, server, None, result)
    };
    j.append(&intent).unwrap();
    j.append(&intent.with_outcome(result.into(), None, 0.1))
        .unwrap();
    intent.id
}

/// Reads `TYPE/NAME` in `ns`, journals its delete and deletes it with kubectl; the entry id.
fn delete_journaled(m: &Myops, ns: &str, what: &str) -> String {
    let object = get_json(&[what, "-n", ns]);
    let id = journal_delete(m, &object, &server(), "success");
    kubectl(&["delete", what, "-n", ns, "--wait=false"]);
    id
}

fn configmap(ns: &str, name: &str) {
    kubectl(&[
        "create",
        "configmap",
        name,
        "-n",
        ns,
        "--from-literal=color=blue",
    ]);
    kubectl(&["label", "configmap", name, "-n", ns, "app=web"]);
}

fn exists(args: &[&str]) -> bool {
    let mut a = vec!["get"];
    a.extend_from_slice(args);
    kubectl_at(&cluster().kubeconfig, &a).status.success()
}

#[test]
fn undelete_creates_the_object_again_without_server_fields_and_journals_a_create_its_rollback_deletes()
 {
    let ns = Namespace::new("undel-one");
    let m = myops();
    configmap(&ns.0, "web");
    let old = get_json(&["configmap", "web", "-n", &ns.0]);
    let id = delete_journaled(&m, &ns.0, "configmap/web");
    assert!(!exists(&["configmap", "web", "-n", &ns.0]));

    let r = m.run(&["undelete", "configmap", "web", "-n", &ns.0]);
    eprintln!("{}{}", r.stdout, r.stderr);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stdout, format!("configmap/web undeleted ({id})\n"));
    let now = get_json(&["configmap", "web", "-n", &ns.0]);
    assert_eq!(now["data"], json!({"color": "blue"}));
    assert_eq!(now["metadata"]["labels"], json!({"app": "web"}));
    assert_ne!(
        now["metadata"]["uid"], old["metadata"]["uid"],
        "a new object"
    );
    let last = m.latest_records().pop().unwrap();
    assert_eq!(last["operation"], "undelete");
    assert_eq!(last["patchType"], "create");
    assert_eq!(last["result"], "success");
    assert_eq!(last["after"]["metadata"]["uid"], now["metadata"]["uid"]);
    assert!(
        last["patch"]["metadata"].get("uid").is_none()
            && last["patch"]["metadata"].get("resourceVersion").is_none()
            && last["patch"]["metadata"].get("creationTimestamp").is_none()
            && last["patch"]["metadata"].get("managedFields").is_none(),
        "no server-set fields sent: {last:#}"
    );

    // Its rollback deletes what it created, on the uid precondition.
    let undel = last["id"].as_str().unwrap().to_string();
    let r = m.run(&["rollback", &undel]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        r.stdout,
        format!("configmap/web rolled back ({undel}): deleted\n")
    );
    assert!(!exists(&["configmap", "web", "-n", &ns.0]));

    // `rollback ID` of the delete entry does what undelete does; --entry too, once it is gone.
    let r = m.run(&["rollback", &id]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stdout, format!("configmap/web undeleted ({id})\n"));
    assert_eq!(m.latest_records().pop().unwrap()["operation"], "undelete");
    kubectl(&["delete", "configmap", "web", "-n", &ns.0]);
    let r = m.run(&["undelete", "--entry", &id, "--dry-run=server"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        r.stdout,
        format!("configmap/web undeleted ({id}) (server dry run)\n")
    );
    assert!(
        !exists(&["configmap", "web", "-n", &ns.0]),
        "a dry run creates nothing"
    );
    let r = m.run(&["undelete", "--entry", &id]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(exists(&["configmap", "web", "-n", &ns.0]));
}

#[test]
fn undelete_of_an_object_that_exists_again_is_a_conflict_and_changes_nothing() {
    let ns = Namespace::new("undel-exists");
    let m = myops();
    configmap(&ns.0, "web");
    let id = delete_journaled(&m, &ns.0, "configmap/web");
    kubectl(&[
        "create",
        "configmap",
        "web",
        "-n",
        &ns.0,
        "--from-literal=color=red",
    ]);
    let before = m.records().len();
    let r = m.run(&["undelete", "configmap/web", "-n", &ns.0]);
    assert_eq!(r.code, 5, "{r:?}");
    assert!(r.stderr.contains("configmap/web exists again"), "{r:?}");
    assert!(r.stderr.contains(&id), "{r:?}");
    assert_eq!(r.stdout, "");
    assert_eq!(
        m.records().len(),
        before,
        "nothing journaled: nothing was sent"
    );
    let now = get_json(&["configmap", "web", "-n", &ns.0]);
    assert_eq!(now["data"], json!({"color": "red"}), "unchanged");
}

#[test]
fn undelete_into_a_terminating_namespace_is_refused_before_anything_is_sent() {
    let ns = Namespace::new("undel-term");
    let m = myops();
    configmap(&ns.0, "web");
    let id = delete_journaled(&m, &ns.0, "configmap/web");
    // A finalizer of ours holds the namespace in Terminating, with or without a namespace
    // controller.
    kubectl(&["create", "configmap", "hold", "-n", &ns.0]);
    kubectl(&[
        "patch",
        "configmap",
        "hold",
        "-n",
        &ns.0,
        "--type",
        "merge",
        "-p",
        r#"{"metadata":{"finalizers":["example.com/hold"]}}"#,
    ]);
    kubectl(&["delete", "namespace", &ns.0, "--wait=false"]);
    let before = m.records().len();
    let r = m.run(&["undelete", "--entry", &id]);
    kubectl(&[
        "patch",
        "configmap",
        "hold",
        "-n",
        &ns.0,
        "--type",
        "merge",
        "-p",
        r#"{"metadata":{"finalizers":null}}"#,
    ]);
    assert_eq!(r.code, 5, "{r:?}");
    assert!(
        r.stderr
            .contains(&format!("namespace {} is Terminating", ns.0)),
        "{r:?}"
    );
    assert_eq!(m.records().len(), before, "nothing sent");
}

#[test]
fn undelete_of_an_entry_from_another_server_is_refused() {
    let ns = Namespace::new("undel-server");
    let m = myops();
    configmap(&ns.0, "web");
    let object = get_json(&["configmap", "web", "-n", &ns.0]);
    let id = journal_delete(&m, &object, "https://elsewhere.invalid:6443", "success");
    kubectl(&["delete", "configmap", "web", "-n", &ns.0]);
    let r = m.run(&["undelete", "--entry", &id]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr
            .contains("it was made on https://elsewhere.invalid:6443"),
        "{r:?}"
    );
    let r = m.run(&["rollback", &id]);
    assert_eq!(r.code, 2, "{r:?}");
    // By name, only this server's deletes are candidates.
    let r = m.run(&["undelete", "configmap", "web", "-n", &ns.0]);
    assert_eq!(r.code, 4, "{r:?}");
    assert!(
        r.stderr.contains("no delete entry of configmap/web"),
        "{r:?}"
    );
    assert!(!exists(&["configmap", "web", "-n", &ns.0]));
}

#[test]
fn undelete_of_a_secret_whose_values_were_never_journaled_is_refused_naming_why() {
    let ns = Namespace::new("undel-secret");
    let m = myops();
    kubectl(&[
        "create",
        "secret",
        "generic",
        "db",
        "-n",
        &ns.0,
        "--from-literal=password=hunter2",
    ]);
    let id = delete_journaled(&m, &ns.0, "secret/db");
    let before = m.records().len();
    let r = m.run(&["undelete", "secret", "db", "-n", &ns.0]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr
            .contains(&format!("entry {id} cannot be undeleted")),
        "{r:?}"
    );
    assert!(r.stderr.contains("never stores Secret values"), "{r:?}");
    assert!(!r.stderr.contains("hunter2") && !r.stdout.contains("hunter2"));
    assert_eq!(m.records().len(), before, "nothing sent");
    assert!(!exists(&["secret", "db", "-n", &ns.0]));
}

#[test]
fn undelete_of_a_snapshot_edited_by_hand_is_refused_by_the_hash_chain() {
    let ns = Namespace::new("undel-edited");
    let m = myops();
    configmap(&ns.0, "web");
    let id = delete_journaled(&m, &ns.0, "configmap/web");
    let path = m.dir.path().join("myops/changelog.jsonl");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(r#""color":"blue""#));
    std::fs::write(
        &path,
        text.replace(r#""color":"blue""#, r#""color":"evil""#),
    )
    .unwrap();
    let r = m.run(&["undelete", "--entry", &id]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("hash chain contradicts it"), "{r:?}");
    let r = m.run(&["rollback", &id]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        !exists(&["configmap", "web", "-n", &ns.0]),
        "nothing created"
    );
}

#[test]
fn undelete_of_a_dry_run_or_failed_delete_is_refused() {
    let ns = Namespace::new("undel-dry");
    let m = myops();
    configmap(&ns.0, "web");
    let object = get_json(&["configmap", "web", "-n", &ns.0]);
    let j = Journal::open(&m.dir.path().join("myops")).unwrap();
    let dry = Entry {
        dry_run: true,
        ..delete_record(&object, &server(), None, "success")
    };
    j.append(&dry).unwrap();
    let failed = delete_record(
        &object,
        &server(),
        None,
        "Conflict (409): the precondition failed",
    );
    j.append(&failed).unwrap();
    kubectl(&["delete", "configmap", "web", "-n", &ns.0]);
    for id in [&dry.id, &failed.id] {
        let r = m.run(&["undelete", "--entry", id]);
        assert_eq!(r.code, 2, "{r:?}");
        assert!(r.stderr.contains("it deleted nothing"), "{r:?}");
    }
    let r = m.run(&["undelete", "configmap", "web", "-n", &ns.0]);
    assert_eq!(r.code, 4, "neither is a delete: {r:?}");
    assert!(!exists(&["configmap", "web", "-n", &ns.0]));
}

/// Waits (up to 60 s) until `check` holds.
fn eventually(what: &str, check: impl Fn() -> bool) {
    let end = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !check() {
        assert!(std::time::Instant::now() < end, "not within 60 s: {what}");
        std::thread::sleep(std::time::Duration::from_millis(250));
    }
}

#[test]
fn undelete_of_a_namespace_restores_its_deployment_and_configmap_and_leaves_the_replicaset_to_its_controller()
 {
    assert!(
        cluster().controller_manager,
        "this test needs kube-controller-manager in the test cluster (scripts/cluster up, not --light)"
    );
    let ns = Namespace::new("undel-ns");
    let m = myops();
    configmap(&ns.0, "web");
    crate::fixture::create_deployment(&ns.0, "app");
    eventually("the ReplicaSet of deployment/app", || {
        !kubectl(&["get", "replicasets", "-n", &ns.0, "-o", "name"]).is_empty()
    });
    eventually("the default ServiceAccount", || {
        exists(&["serviceaccount", "default", "-n", &ns.0])
    });
    // Journal as the namespace delete does: each object as a snapshot record, then the
    // namespace's own intent and outcome under the id they name.
    let j = Journal::open(&m.dir.path().join("myops")).unwrap();
    let nsobj = get_json(&["namespace", &ns.0]);
    let container = delete_record(&nsobj, &server(), None, "success");
    let mut objects = Vec::new();
    for list in [
        "configmaps",
        "deployments",
        "replicasets",
        "serviceaccounts",
    ] {
        let items = get_json(&[list, "-n", &ns.0]);
        for item in items["items"].as_array().unwrap() {
            let mut o = item.clone();
            let (av, kind) = match list {
                "configmaps" => ("v1", "ConfigMap"),
                "serviceaccounts" => ("v1", "ServiceAccount"),
                "deployments" => ("apps/v1", "Deployment"),
                _ => ("apps/v1", "ReplicaSet"),
            };
            o["apiVersion"] = json!(av);
            o["kind"] = json!(kind);
            objects.push(o);
        }
    }
    let rs_name = get_json(&["replicasets", "-n", &ns.0])["items"][0]["metadata"]["name"]
        .as_str()
        .unwrap()
        .to_string();
    // The dependents first, as a listing may give them: the undelete orders owners first.
    objects.reverse();
    for o in &objects {
        j.append(&delete_record(
            o,
            &server(),
            Some(&container.id),
            changelog::SNAPSHOT,
        ))
        .unwrap();
    }
    let intent = Entry {
        result: changelog::PENDING.into(),
        ..container.clone()
    };
    j.append(&intent).unwrap();
    j.append(&container).unwrap();
    kubectl(&["delete", "namespace", &ns.0]);
    assert!(!exists(&["namespace", &ns.0]));

    // A dry run creates nothing and sends none of the objects (the namespace is not there).
    let r = m.run(&["undelete", "namespace", &ns.0, "--dry-run=server"]);
    eprintln!("{}{}", r.stdout, r.stderr);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout.starts_with(&format!(
            "namespace/{} undeleted ({}) (server dry run)\n",
            ns.0, container.id
        )),
        "{r:?}"
    );
    assert!(
        r.stdout.contains(&format!(
            "configmap/web undeleted ({}) (server dry run; not sent",
            snapshot_id(&m, "web")
        )),
        "{r:?}"
    );
    assert!(!exists(&["namespace", &ns.0]));

    let r = m.run(&["undelete", "namespace", &ns.0]);
    eprintln!("{}{}", r.stdout, r.stderr);
    assert_eq!(r.code, 0, "{r:?}");
    let id = &container.id;
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(
        lines[0],
        format!("namespace/{} undeleted ({id})", ns.0),
        "{r:?}"
    );
    assert!(
        lines.contains(
            &format!("deployment.apps/app undeleted ({})", snapshot_id(&m, "app")).as_str()
        ),
        "{r:?}"
    );
    assert!(
        lines.contains(&format!("configmap/web undeleted ({})", snapshot_id(&m, "web")).as_str()),
        "{r:?}"
    );
    assert!(
        lines.contains(
            &format!("replicaset.apps/{rs_name} re-created by its controller (deployment/app)")
                .as_str()
        ),
        "{r:?}"
    );
    assert!(
        lines.contains(&"serviceaccount/default re-created by its controller (the namespace)"),
        "{r:?}"
    );
    assert!(
        lines.contains(&"configmap/kube-root-ca.crt re-created by its controller (the namespace)"),
        "{r:?}"
    );
    let dep = lines
        .iter()
        .position(|l| l.starts_with("deployment.apps/app"))
        .unwrap();
    let rs = lines
        .iter()
        .position(|l| l.starts_with("replicaset.apps/"))
        .unwrap();
    assert!(dep < rs, "the owner before its dependent: {r:?}");
    assert_eq!(
        get_json(&["configmap", "web", "-n", &ns.0])["data"],
        json!({"color": "blue"})
    );
    eventually(
        "the ReplicaSet re-created by the deployment controller",
        || exists(&["replicaset", &rs_name, "-n", &ns.0]),
    );
    let rs = get_json(&["replicaset", &rs_name, "-n", &ns.0]);
    let dep = get_json(&["deployment", "app", "-n", &ns.0]);
    assert_eq!(
        rs["metadata"]["ownerReferences"][0]["uid"], dep["metadata"]["uid"],
        "owned by the restored Deployment"
    );
}

/// The id of the snapshot record of the object named `name`.
fn snapshot_id(m: &Myops, name: &str) -> String {
    m.latest_records()
        .into_iter()
        .find(|e| e["result"] == "snapshot" && e["name"] == name)
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn undelete_keeps_an_owner_reference_only_when_the_owner_still_exists() {
    let ns = Namespace::new("undel-owner");
    let m = myops();
    configmap(&ns.0, "alive");
    configmap(&ns.0, "gone");
    let uid = |n: &str| {
        get_json(&["configmap", n, "-n", &ns.0])["metadata"]["uid"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let refs = json!({"metadata": {"ownerReferences": [
        {"apiVersion": "v1", "kind": "ConfigMap", "name": "alive", "uid": uid("alive")},
        {"apiVersion": "v1", "kind": "ConfigMap", "name": "gone", "uid": uid("gone")}
    ]}});
    configmap(&ns.0, "web");
    kubectl(&[
        "patch",
        "configmap",
        "web",
        "-n",
        &ns.0,
        "--type",
        "merge",
        "-p",
        &refs.to_string(),
    ]);
    let id = delete_journaled(&m, &ns.0, "configmap/web");
    kubectl(&["delete", "configmap", "gone", "-n", &ns.0]);
    let r = m.run(&["undelete", "--entry", &id]);
    eprintln!("{}{}", r.stdout, r.stderr);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stdout, format!("configmap/web undeleted ({id})\n"));
    assert!(
        r.stderr.contains(
            "configmap/web: owner reference to configmap/gone dropped (the owner no longer exists)"
        ),
        "{r:?}"
    );
    let now = get_json(&["configmap", "web", "-n", &ns.0]);
    let kept = now["metadata"]["ownerReferences"].as_array().unwrap();
    assert_eq!(kept.len(), 1, "{now:#}");
    assert_eq!(kept[0]["name"], "alive");
}

#[test]
fn undelete_of_a_crd_waits_until_it_is_established_and_restores_its_custom_resources() {
    let ns = Namespace::new("undel-crd");
    let group = format!("u{}.undel.example.com", &ns.0[ns.0.len() - 5..]);
    let crd_name = format!("gadgets.{group}");
    let m = Myops::new(&format!(
        "name: myops\nverbs: [get, patch, delete]\nresources: [customresourcedefinitions, {crd_name}]\nscopes: [namespace, cluster]\nmetrics: [ops_total]\n"
    ));
    crate::fixture::kubectl_apply(&format!(
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {{name: {crd_name}}}\nspec:\n  group: {group}\n  names: {{plural: gadgets, singular: gadget, kind: Gadget}}\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema: {{openAPIV3Schema: {{type: object, x-kubernetes-preserve-unknown-fields: true}}}}\n"
    ));
    crate::fixture::wait_established(&[&crd_name]);
    crate::fixture::kubectl_apply(&format!(
        "apiVersion: {group}/v1\nkind: Gadget\nmetadata: {{name: g1, namespace: {}}}\nspec: {{size: 3}}\n",
        ns.0
    ));
    let j = Journal::open(&m.dir.path().join("myops")).unwrap();
    let crd = get_json(&["crd", &crd_name]);
    let container = delete_record(&crd, &server(), None, "success");
    let mut g1 = get_json(&[&crd_name, "g1", "-n", &ns.0]);
    g1["apiVersion"] = json!(format!("{group}/v1"));
    let snap = delete_record(&g1, &server(), Some(&container.id), changelog::SNAPSHOT);
    j.append(&snap).unwrap();
    j.append(&Entry {
        result: changelog::PENDING.into(),
        ..container.clone()
    })
    .unwrap();
    j.append(&container).unwrap();
    kubectl(&["delete", "crd", &crd_name]);

    let r = m.run(&["undelete", "crd", &crd_name]);
    eprintln!("{}{}", r.stdout, r.stderr);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        r.stdout,
        format!(
            "customresourcedefinition.apiextensions.k8s.io/{crd_name} undeleted ({})\ngadget.{group}/g1 undeleted ({})\n",
            container.id, snap.id
        )
    );
    let now = get_json(&[&crd_name, "g1", "-n", &ns.0]);
    assert_eq!(now["spec"], json!({"size": 3}));
    kubectl(&["delete", "crd", &crd_name, "--wait=false"]);
}

#[test]
fn undelete_of_an_object_a_gitops_reconciler_manages_is_refused_unless_forced() {
    let ns = Namespace::new("undel-flux");
    let m = myops();
    configmap(&ns.0, "web");
    kubectl(&[
        "label",
        "configmap",
        "web",
        "-n",
        &ns.0,
        "kustomize.toolkit.fluxcd.io/name=apps",
        "kustomize.toolkit.fluxcd.io/namespace=flux-system",
    ]);
    let id = delete_journaled(&m, &ns.0, "configmap/web");
    let r = m.run(&["undelete", "--entry", &id]);
    assert_eq!(r.code, 5, "{r:?}");
    assert!(r.stderr.contains("Flux"), "{r:?}");
    assert!(!exists(&["configmap", "web", "-n", &ns.0]));
    let r = m.run(&["undelete", "--entry", &id, "--force"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(exists(&["configmap", "web", "-n", &ns.0]));
}

#[test]
fn undelete_of_an_object_still_held_by_finalizers_says_so_and_sends_nothing() {
    let ns = Namespace::new("undel-held");
    let m = myops();
    configmap(&ns.0, "web");
    kubectl(&[
        "patch",
        "configmap",
        "web",
        "-n",
        &ns.0,
        "--type",
        "merge",
        "-p",
        r#"{"metadata":{"finalizers":["example.com/hold"]}}"#,
    ]);
    let object = get_json(&["configmap", "web", "-n", &ns.0]);
    let id = journal_delete(&m, &object, &server(), "deleting");
    kubectl(&["delete", "configmap", "web", "-n", &ns.0, "--wait=false"]);
    let before = m.records().len();
    let r = m.run(&["undelete", "configmap", "web", "-n", &ns.0]);
    kubectl(&[
        "patch",
        "configmap",
        "web",
        "-n",
        &ns.0,
        "--type",
        "merge",
        "-p",
        r#"{"metadata":{"finalizers":null}}"#,
    ]);
    assert_eq!(r.code, 5, "{r:?}");
    assert!(
        r.stderr.contains(&format!("configmap/web of entry {id} is still being deleted (finalizers \"example.com/hold\" hold it)")),
        "{r:?}"
    );
    assert_eq!(m.records().len(), before, "nothing sent");
    // Once it is gone, the same entry undeletes it, finalizer and all.
    eventually("the configmap gone", || {
        !exists(&["configmap", "web", "-n", &ns.0])
    });
    let r = m.run(&["undelete", "configmap", "web", "-n", &ns.0]);
    assert_eq!(r.code, 0, "{r:?}");
    let now = get_json(&["configmap", "web", "-n", &ns.0]);
    assert_eq!(now["metadata"]["finalizers"], json!(["example.com/hold"]));
    kubectl(&[
        "patch",
        "configmap",
        "web",
        "-n",
        &ns.0,
        "--type",
        "merge",
        "-p",
        r#"{"metadata":{"finalizers":null}}"#,
    ]);
}

#[test]
fn undelete_outside_plugin_yaml_verb_delete_is_denied_and_creates_nothing() {
    let ns = Namespace::new("undel-verb");
    let m = myops();
    configmap(&ns.0, "web");
    let id = delete_journaled(&m, &ns.0, "configmap/web");
    let patch_only = Myops::new(
        "name: myops\nverbs: [get, patch]\nresources: [configmaps]\nscopes: [namespace]\nmetrics: [ops_total]\n",
    );
    std::fs::create_dir_all(patch_only.dir.path().join("myops")).unwrap();
    for f in ["changelog.jsonl", "changelog.head"] {
        let from = m.dir.path().join("myops").join(f);
        if from.exists() {
            std::fs::copy(from, patch_only.dir.path().join("myops").join(f)).unwrap();
        }
    }
    for args in [vec!["undelete", "--entry", &id], vec!["rollback", &id]] {
        let r = patch_only.run(&args);
        assert_eq!(r.code, 3, "{r:?}");
        assert!(r.stderr.contains("delete"), "{r:?}");
    }
    assert!(!exists(&["configmap", "web", "-n", &ns.0]));
}
