//! Integration tests of `delete` against the real API server: kubectl 1.36's output for each
//! form (the oracle is the real kubectl, run on equivalent objects), the guarded path
//! (denial proven with the audit log, the preconditions refusing an object changed or
//! re-created between the read and the DELETE, a change log that cannot be written), the
//! wait for finalizers, and a Secret's values kept out of the journal.

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::fixture::{Myops, Namespace, Run, audit_mark, audit_since, cluster, kubectl, text_of};

/// get, patch and delete on ConfigMaps, Secrets and namespaces; no Pushgateway.
const PLUGIN: &str = "name: myops\nverbs: [get, patch, delete]\nresources: [configmaps, secrets, namespaces]\nscopes: [namespace, cluster]\n";

fn myops() -> Myops {
    Myops::new(PLUGIN)
}

fn configmaps(ns: &str, names: &[&str]) {
    for n in names {
        kubectl(&["create", "configmap", n, "-n", ns, "--from-literal=k=v"]);
    }
}

fn exists(ns: &str, kind: &str, name: &str) -> bool {
    let out = std::process::Command::new(cluster_kubectl())
        .args(["get", kind, name, "-n", ns, "-o", "name"])
        .env("KUBECONFIG", &cluster().kubeconfig)
        .output()
        .unwrap();
    out.status.success()
}

fn cluster_kubectl() -> std::path::PathBuf {
    crate::fixture::root().join("target/testbin/kubectl")
}

/// The real kubectl's run of `args`.
fn oracle(args: &[&str]) -> Run {
    let out = std::process::Command::new(cluster_kubectl())
        .args(args)
        .env("KUBECONFIG", &cluster().kubeconfig)
        .output()
        .unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: text_of(&out.stdout),
        stderr: text_of(&out.stderr),
    }
}

/// kubectl's exit status 1 as this tool documents it: not found is 4, usage is 2.
fn documented(kubectl: &Run, ours: &Run) -> bool {
    match (kubectl.code, ours.code) {
        (a, b) if a == b => true,
        (1, 2) => kubectl.stderr.starts_with("error: "),
        (1, 4) => kubectl.stderr.contains("(NotFound)"),
        _ => false,
    }
}

/// Without the preview lines (stderr, for several objects only).
fn without_preview(stderr: &str) -> String {
    stderr
        .lines()
        .filter(|l| !l.starts_with("about to delete ") && !l.starts_with("  "))
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn each_form_prints_what_kubectl_prints() {
    let ours_ns = Namespace::new("del-parity-a");
    let theirs_ns = Namespace::new("del-parity-b");
    let m = myops();
    let cases: Vec<Vec<&str>> = vec![
        vec!["delete", "configmap", "one"],
        vec!["delete", "configmap", "one"],
        vec!["delete", "configmap", "one", "--ignore-not-found"],
        vec!["delete", "cm", "two", "--dry-run=server"],
        vec!["delete", "cm", "two", "--dry-run=client"],
        vec!["delete", "cm", "two", "-o", "name", "--dry-run=server"],
        vec!["delete", "cm", "-l", "app=x", "--dry-run=server"],
        vec!["delete", "cm", "-l", "app=nothing"],
        vec!["delete", "cm", "--field-selector", "metadata.name=nothing"],
        vec!["delete", "cm/two", "configmap/three", "-o", "name"],
        vec!["delete", "cm", "x", "y"],
        vec!["delete", "cm", "b", "--all"],
        vec!["delete", "cm", "b", "-l", "app=x"],
        vec!["delete", "cm", "b", "-A"],
        vec!["delete", "cm"],
        vec!["delete", "cm", "--all", "-l", "app=x"],
        vec!["delete", "cm", "-l", "app=x"],
    ];
    for ns in [&ours_ns.0, &theirs_ns.0] {
        configmaps(ns, &["one", "two", "three", "four", "five"]);
        kubectl(&["label", "configmap", "four", "five", "app=x", "-n", ns]);
    }
    for case in cases {
        let mut theirs_args = case.clone();
        theirs_args.extend(["-n", theirs_ns.0.as_str()]);
        let mut ours_args = case.clone();
        ours_args.extend(["-n", ours_ns.0.as_str()]);
        let theirs = oracle(&theirs_args);
        let ours = m.run(&ours_args);
        let ours_out = ours.stdout.replace(&ours_ns.0, &theirs_ns.0);
        let ours_err = without_preview(&ours.stderr.replace(&ours_ns.0, &theirs_ns.0));
        assert_eq!(
            ours_out, theirs.stdout,
            "stdout of {case:?}: {ours:?} / {theirs:?}"
        );
        assert_eq!(
            ours_err, theirs.stderr,
            "stderr of {case:?}: {ours:?} / {theirs:?}"
        );
        assert!(
            documented(&theirs, &ours),
            "exit of {case:?}: ours {} kubectl {}",
            ours.code,
            theirs.code
        );
    }
    assert!(
        !exists(&ours_ns.0, "configmap", "four"),
        "four deleted by -l"
    );
    assert!(exists(&ours_ns.0, "configmap", "one") == exists(&theirs_ns.0, "configmap", "one"));
}

#[test]
fn a_name_with_a_slash_or_dot_dot_is_refused_before_anything_is_sent() {
    let m = myops();
    let ns = Namespace::new("del-names");
    let mark = audit_mark();
    // --now with --grace-period is kubectl's usage error too.
    for bad in [
        vec!["cm", "a/b"],
        vec!["cm", ".."],
        vec!["cm/.."],
        vec!["cm", "x", "--now", "--grace-period=5"],
    ] {
        let mut args = vec!["delete"];
        args.extend(bad.iter().copied());
        args.extend(["-n", ns.0.as_str()]);
        let r = m.run(&args);
        assert_eq!(r.code, 2, "{bad:?}: {r:?}");
    }
    assert!(m.records().is_empty(), "nothing journaled");
    let sent: Vec<Value> = audit_since(mark)
        .into_iter()
        .filter(|e| {
            e["verb"] == "delete"
                && e.pointer("/objectRef/namespace") == Some(&Value::from(ns.0.clone()))
        })
        .collect();
    assert!(sent.is_empty(), "{sent:?}");
}

#[test]
fn a_delete_rbac_refuses_exits_3_and_deletes_nothing() {
    let ns = Namespace::new("del-denied");
    configmaps(&ns.0, &["keep"]);
    ns.grant("alice", "get,list", "configmaps");
    let m = myops();
    let mark = audit_mark();
    let r = m.run(&["delete", "cm", "keep", "-n", &ns.0, "--context", "alice"]);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(
        r.stderr.contains("\"alice\" cannot delete configmaps"),
        "{r:?}"
    );
    let r = m.run(&["delete", "cm", "--all", "-n", &ns.0, "--context", "alice"]);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(exists(&ns.0, "configmap", "keep"));
    std::thread::sleep(Duration::from_secs(1));
    let deletes: Vec<Value> = crate::fixture::audit_events("alice", "configmaps", &ns.0)
        .into_iter()
        .filter(|e| e["verb"] == "delete" || e["verb"] == "deletecollection")
        .collect();
    assert!(
        deletes.is_empty(),
        "a delete by alice reached the server: {deletes:?}"
    );
    let _ = mark;
    let records = m.latest_records();
    assert!(
        records
            .iter()
            .any(|e| e["operation"] == "delete" && e["result"] == "denied"),
        "{records:#?}"
    );
}

#[test]
fn the_journal_has_the_whole_before_state_and_the_delete_its_preconditions() {
    let ns = Namespace::new("del-journal");
    configmaps(&ns.0, &["gone"]);
    let uid = kubectl(&[
        "get",
        "cm",
        "gone",
        "-n",
        &ns.0,
        "-o",
        "jsonpath={.metadata.uid}",
    ]);
    let m = myops();
    let r = m.run(&["delete", "cm", "gone", "-n", &ns.0]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(!exists(&ns.0, "configmap", "gone"));
    let records = m.records();
    assert_eq!(records.len(), 2, "intent and outcome: {records:#?}");
    let (intent, outcome) = (&records[0], &records[1]);
    assert_eq!(intent["result"], "pending");
    assert_eq!(outcome["result"], "success");
    for e in [intent, outcome] {
        assert_eq!(e["operation"], "delete");
        assert_eq!(e["patchType"], "delete");
        assert_eq!(e["uid"], uid.trim());
        assert_eq!(e["patch"]["preconditions"]["uid"], uid.trim());
        assert_eq!(
            e["patch"]["preconditions"]["resourceVersion"],
            e["before"]["metadata"]["resourceVersion"]
        );
        assert_eq!(e["before"]["data"]["k"], "v");
    }
    let r = m.run(&["changelog", "list", "--operation", "delete"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("gone"), "{r:?}");
}

#[test]
fn a_secret_delete_journals_no_values() {
    let ns = Namespace::new("del-secret");
    crate::fixture::create_secret(&ns.0, "db", &["password=c4n4ryS3cr3t"]);
    let m = myops();
    let r = m.run(&["delete", "secret", "db", "-n", &ns.0]);
    assert_eq!(r.code, 0, "{r:?}");
    let log = std::fs::read_to_string(m.dir.path().join("myops/changelog.jsonl")).unwrap();
    assert!(!log.contains("c4n4ryS3cr3t"), "{log}");
    // base64 of the value
    assert!(!log.contains("YzRuNHJ5UzNjcjN0"), "{log}");
    assert!(log.contains("\"password\""), "the key is kept: {log}");
}

#[test]
fn an_unwritable_change_log_deletes_nothing() {
    let ns = Namespace::new("del-nolog");
    configmaps(&ns.0, &["stays"]);
    let mut m = myops();
    let bad = m.dir.path().join("log-is-a-directory");
    std::fs::create_dir_all(bad.join("changelog.jsonl")).unwrap();
    m.set_env("MYOPS_HOME", &bad.display().to_string());
    let r = m.run(&["delete", "cm", "stays", "-n", &ns.0]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("nothing was sent"), "{r:?}");
    assert!(exists(&ns.0, "configmap", "stays"));
}

fn assert_conflict_kept(m: &Myops, r: &Run, ns: &str) {
    assert_eq!(r.code, 5, "{r:?}");
    assert!(r.stderr.contains("Conflict"), "{r:?}");
    assert!(exists(ns, "configmap", "raced"), "the changed object stays");
    let last = m.latest_records().pop().unwrap();
    assert_eq!(last["operation"], "delete");
    assert!(
        last["result"]
            .as_str()
            .unwrap()
            .starts_with("Conflict (409)"),
        "{last:#}"
    );
}

#[test]
fn an_object_changed_between_the_read_and_the_delete_is_a_conflict() {
    let ns = Namespace::new("del-changed");
    configmaps(&ns.0, &["raced"]);
    let m = myops();
    let r = m.held(
        "before-delete",
        &["delete", "cm", "raced", "-n", &ns.0],
        || {
            kubectl(&["label", "cm", "raced", "-n", &ns.0, "changed=yes"]);
        },
    );
    assert_conflict_kept(&m, &r, &ns.0);
}

#[test]
fn an_object_recreated_between_the_read_and_the_delete_is_a_conflict() {
    let ns = Namespace::new("del-recreated");
    configmaps(&ns.0, &["raced"]);
    let m = myops();
    let r = m.held(
        "before-delete",
        &["delete", "cm", "raced", "-n", &ns.0],
        || {
            kubectl(&["delete", "cm", "raced", "-n", &ns.0]);
            configmaps(&ns.0, &["raced"]);
        },
    );
    assert_conflict_kept(&m, &r, &ns.0);
}

#[test]
fn a_finalizer_that_never_clears_times_the_wait_out_naming_it() {
    let ns = Namespace::new("del-finalizer");
    configmaps(&ns.0, &["held"]);
    kubectl(&[
        "patch",
        "cm",
        "held",
        "-n",
        &ns.0,
        "--type",
        "merge",
        "-p",
        r#"{"metadata":{"finalizers":["example.com/hold"]}}"#,
    ]);
    let m = myops();
    let started = Instant::now();
    let r = m.run(&["delete", "cm", "held", "-n", &ns.0, "--timeout=2s"]);
    let took = started.elapsed();
    kubectl(&[
        "patch",
        "cm",
        "held",
        "-n",
        &ns.0,
        "--type",
        "merge",
        "-p",
        r#"{"metadata":{"finalizers":null}}"#,
    ]);
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(
        r.stdout,
        format!("configmap \"held\" deleted from {} namespace\n", ns.0)
    );
    assert!(
        r.stderr
            .contains("timed out waiting for the condition on configmaps/held"),
        "{r:?}"
    );
    assert!(r.stderr.contains("example.com/hold"), "{r:?}");
    assert!(
        took >= Duration::from_secs(2) && took < Duration::from_secs(30),
        "{took:?}"
    );
    let last = m.latest_records().pop().unwrap();
    assert_eq!(last["result"], "deleting", "{last:#}");
}

/// The outcome record `changelog reconcile` appended for `id`.
fn reconciled(m: &Myops, id: &str) -> Value {
    let r = m.run(&["changelog", "reconcile"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains(id), "{r:?}");
    m.latest_records()
        .into_iter()
        .find(|e| e["id"] == id)
        .unwrap()
}

#[test]
fn a_delete_killed_before_or_after_the_request_is_reconciled_from_the_live_object() {
    let ns = Namespace::new("del-killed");
    configmaps(&ns.0, &["before", "after", "held"]);
    kubectl(&[
        "patch",
        "cm",
        "held",
        "-n",
        &ns.0,
        "--type",
        "merge",
        "-p",
        r#"{"metadata":{"finalizers":["example.com/hold"]}}"#,
    ]);
    let m = myops();
    // Killed before the DELETE: the object is there, same uid, no deletionTimestamp.
    let id = m.killed_at("after-intent", &["delete", "cm", "before", "-n", &ns.0]);
    assert!(exists(&ns.0, "configmap", "before"));
    let e = reconciled(&m, &id);
    assert_eq!(e["result"], "not applied", "{e:#}");
    // Killed after the DELETE: gone.
    let id = m.killed_at("after-send", &["delete", "cm", "after", "-n", &ns.0]);
    assert!(!exists(&ns.0, "configmap", "after"));
    let e = reconciled(&m, &id);
    assert_eq!(e["result"], "success", "{e:#}");
    // Killed after the DELETE of an object finalizers hold: deleting.
    let id = m.killed_at("after-send", &["delete", "cm", "held", "-n", &ns.0]);
    let e = reconciled(&m, &id);
    kubectl(&[
        "patch",
        "cm",
        "held",
        "-n",
        &ns.0,
        "--type",
        "merge",
        "-p",
        r#"{"metadata":{"finalizers":null}}"#,
    ]);
    assert_eq!(e["result"], "deleting", "{e:#}");
    assert!(
        e["reconciled"]
            .as_str()
            .unwrap()
            .contains("example.com/hold"),
        "{e:#}"
    );
}

#[test]
fn a_namespace_delete_journals_its_objects_first_with_the_namespace_entry_as_parent() {
    let ns = Namespace::new("del-ns");
    configmaps(&ns.0, &["a", "b"]);
    crate::fixture::create_secret(&ns.0, "s", &["password=c4n4ryS3cr3t"]);
    // kube-root-ca.crt too, when a controller manager runs.
    let cms = kubectl(&["get", "cm", "-n", &ns.0, "-o", "name"])
        .lines()
        .count();
    let m = myops();
    let r = m.run(&["delete", "namespace", &ns.0, "--wait=false"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stdout, format!("namespace \"{}\" deleted\n", ns.0));
    assert!(r.stderr.contains(&format!("configmap: {cms}\n")), "{r:?}");
    assert!(r.stderr.contains("secret: 1"), "{r:?}");
    let records = m.latest_records();
    let container = records
        .iter()
        .find(|e| e["kind"] == "Namespace")
        .expect("the namespace's entry");
    // A namespace is answered Terminating (its `kubernetes` finalizer): deleting.
    assert_eq!(container["result"], "deleting", "{container:#}");
    let snaps: Vec<&Value> = records
        .iter()
        .filter(|e| e["result"] == "snapshot")
        .collect();
    for name in ["a", "b", "s"] {
        let s = snaps
            .iter()
            .find(|e| e["name"] == name)
            .unwrap_or_else(|| panic!("no snapshot of {name}: {records:#?}"));
        assert_eq!(s["parent"], container["id"]);
        assert_eq!(s["operation"], "delete");
        assert_eq!(s["patchType"], "delete");
        assert_eq!(s["patch"], Value::Null);
        assert!(s["before"]["apiVersion"].is_string() && s["before"]["kind"].is_string());
        assert!(s["uid"].is_string());
    }
    let log = std::fs::read_to_string(m.dir.path().join("myops/changelog.jsonl")).unwrap();
    assert!(!log.contains("c4n4ryS3cr3t") && !log.contains("YzRuNHJ5UzNjcjN0"));
    // The snapshots come before the namespace's intent.
    let all = m.records();
    let first_ns = all.iter().position(|e| e["kind"] == "Namespace").unwrap();
    let last_snap = all.iter().rposition(|e| e["result"] == "snapshot").unwrap();
    assert!(last_snap < first_ns, "snapshots first");
}

#[test]
fn a_crd_whose_custom_resources_exceed_the_snapshot_limit_is_refused_before_anything_is_sent() {
    let suffix = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos()
        % 100_000;
    let group = format!("del{suffix}.example.com");
    let crd = format!("widgets.{group}");
    crate::fixture::kubectl_apply(&format!(
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: {crd}\nspec:\n  group: {group}\n  scope: Namespaced\n  names: {{plural: widgets, singular: widget, kind: Widget}}\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema: {{type: object, x-kubernetes-preserve-unknown-fields: true}}\n"
    ));
    crate::fixture::wait_established(&[&crd]);
    let ns = Namespace::new("del-crd");
    for i in 0..3 {
        crate::fixture::kubectl_apply(&format!(
            "apiVersion: {group}/v1\nkind: Widget\nmetadata:\n  name: w{i}\n  namespace: {}\nspec: {{size: {i}}}\n",
            ns.0
        ));
    }
    let m = Myops::new(
        "name: myops\nverbs: [get, delete]\nresources: [customresourcedefinitions]\nscopes: [cluster]\nchangelog:\n  snapshotLimit: 200\n",
    );
    let r = m.run(&["delete", "crd", &crd]);
    let kept = oracle(&["get", "crd", &crd, "-o", "name"]);
    let _ = oracle(&["delete", "crd", &crd, "--wait=false"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains(&format!("widget.{group}: 3")), "{r:?}");
    assert!(r.stderr.contains("changelog.snapshotLimit (200"), "{r:?}");
    assert!(r.stderr.contains("--unrecoverable"), "{r:?}");
    assert!(r.stdout.is_empty(), "{r:?}");
    assert_eq!(kept.code, 0, "the CRD is still there: {kept:?}");
    assert!(
        m.latest_records()
            .iter()
            .all(|e| e["result"] != "snapshot" && e["result"] != "success"),
        "{:#?}",
        m.latest_records()
    );
}

#[test]
fn a_bare_dry_run_warns_once_as_kubectl_deprecates_it_and_deletes_nothing() {
    let ns = Namespace::new("del-bare-dry");
    configmaps(&ns.0, &["a"]);
    let r = myops().run(&["delete", "configmap", "a", "-n", &ns.0, "--dry-run"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        r.stdout,
        format!(
            "configmap \"a\" deleted from {} namespace (dry run)\n",
            ns.0
        )
    );
    assert_eq!(
        r.stderr,
        "warning: --dry-run is deprecated and can be replaced with --dry-run=client.\n"
    );
    assert!(exists(&ns.0, "configmap", "a"));
}

#[test]
fn the_grace_period_and_propagation_sent_are_journaled_with_the_preconditions() {
    let ns = Namespace::new("del-grace");
    configmaps(&ns.0, &["a", "b"]);
    let m = myops();
    let r = m.run(&["delete", "configmap", "a", "-n", &ns.0, "--grace-period=5"]);
    assert_eq!(r.code, 0, "{r:?}");
    let r = m.run(&[
        "delete",
        "configmap",
        "b",
        "-n",
        &ns.0,
        "--now",
        "--cascade=orphan",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    let bodies: Vec<Value> = m
        .latest_records()
        .into_iter()
        .map(|e| e["patch"].clone())
        .collect();
    assert_eq!(bodies.len(), 2, "{bodies:?}");
    assert_eq!(bodies[0]["gracePeriodSeconds"], 5);
    assert_eq!(bodies[0]["propagationPolicy"], "Background");
    assert_eq!(bodies[1]["gracePeriodSeconds"], 1, "--now is 1 s");
    assert_eq!(bodies[1]["propagationPolicy"], "Orphan");
    assert!(bodies[0]["preconditions"]["uid"].is_string());
    assert!(!exists(&ns.0, "configmap", "a") && !exists(&ns.0, "configmap", "b"));
}

#[test]
fn ignore_not_found_journaled_the_failed_read_of_a_missing_object() {
    let ns = Namespace::new("del-ignore-missing");
    let m = myops();
    let r = m.run(&[
        "delete",
        "configmap",
        "gone",
        "-n",
        &ns.0,
        "--ignore-not-found",
    ]);
    assert_eq!(
        (r.code, r.stdout.as_str(), r.stderr.as_str()),
        (0, "", ""),
        "{r:?}"
    );
    assert!(
        m.records().is_empty(),
        "kubectl says nothing of a missing object under --ignore-not-found, and nothing is journaled: {:#?}",
        m.records()
    );
    // Without the flag the missing object is an attempt: exit 4, one record of the failed read.
    let r = m.run(&["delete", "configmap", "gone", "-n", &ns.0]);
    assert_eq!(r.code, 4, "{r:?}");
    let records = m.records();
    assert_eq!(records.len(), 1, "{records:#?}");
    assert!(
        records[0]["result"].as_str().unwrap().contains("not found"),
        "{records:#?}"
    );
}
