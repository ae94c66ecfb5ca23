//! `rollout restart|undo|history|status` against the real cluster (its controller manager runs
//! the deployment and replicaset controllers; no scheduler or kubelet, so pods stay Pending and
//! no StatefulSet or DaemonSet controller writes ControllerRevisions: a test writes them):
//! kubectl's output byte for byte (the oracle kubectl on the same objects), the journal entry of
//! each change, and `rollback ID` of a restart and of an undo restoring the template exactly.

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::fixture::{Myops, Namespace, Run, cluster, kubectl, kubectl_at, kubectl_stdin, text_of};

/// The boundary of these tests: the rollout verb on the three workload kinds.
pub(crate) fn myops() -> Myops {
    Myops::new(ROLLOUT_PLUGIN)
}

pub(crate) const ROLLOUT_PLUGIN: &str = "name: myops\nverbs: [get, patch, rollout]\nresources: [deployments, statefulsets, daemonsets, configmaps]\nscopes: [namespace]\n";

/// The oracle kubectl's stdout, stderr and exit code.
pub(crate) fn oracle(args: &[&str]) -> Run {
    let out = kubectl_at(&cluster().kubeconfig, args);
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: text_of(&out.stdout),
        stderr: text_of(&out.stderr),
    }
}

pub(crate) fn object(ns: &str, kind: &str, name: &str) -> Value {
    serde_json::from_str(&kubectl(&["get", kind, name, "-n", ns, "-o", "json"])).unwrap()
}

/// Waits until `check` holds on the object (the controller manager works asynchronously).
pub(crate) fn wait_until(
    ns: &str,
    kind: &str,
    name: &str,
    what: &str,
    check: impl Fn(&Value) -> bool,
) {
    let end = Instant::now() + Duration::from_secs(60);
    loop {
        if check(&object(ns, kind, name)) {
            return;
        }
        assert!(Instant::now() < end, "{kind}/{name}: never {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The ReplicaSets of deployment `name` and their revisions, waited for until there are `n`.
pub(crate) fn wait_revisions(ns: &str, name: &str, n: usize) {
    let end = Instant::now() + Duration::from_secs(60);
    loop {
        let list: Value = serde_json::from_str(&kubectl(&[
            "get",
            "rs",
            "-n",
            ns,
            "-l",
            &format!("app={name}"),
            "-o",
            "json",
        ]))
        .unwrap();
        let count = list["items"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|rs| {
                rs.pointer("/metadata/annotations/deployment.kubernetes.io~1revision")
                    .is_some()
            })
            .count();
        if count >= n {
            return;
        }
        assert!(
            Instant::now() < end,
            "deployment {name}: never {n} revisions"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A deployment with image `:1` at revision 1, or `:2` at revision 2 when `two`.
pub(crate) fn deployment(ns: &str, name: &str, two: bool) {
    crate::fixture::create_deployment(ns, name);
    wait_revisions(ns, name, 1);
    if two {
        kubectl(&[
            "set",
            "image",
            &format!("deployment/{name}"),
            "-n",
            ns,
            &format!("{name}=registry.invalid/{name}:2"),
        ]);
        wait_revisions(ns, name, 2);
    }
    wait_until(ns, "deployment", name, "observed", |d| {
        d.pointer("/metadata/generation") == d.pointer("/status/observedGeneration")
    });
}

pub(crate) fn image(d: &Value) -> &str {
    d.pointer("/spec/template/spec/containers/0/image")
        .and_then(Value::as_str)
        .unwrap_or("")
}

/// The last record of the change log.
pub(crate) fn last_entry(m: &Myops) -> Value {
    m.latest_records().pop().expect("an entry")
}

#[test]
fn restart_sets_kubectls_annotation_is_journaled_and_its_rollback_restores_the_template() {
    let ns = Namespace::new("ro-restart");
    deployment(&ns.0, "web", false);
    let m = myops();
    let before = object(&ns.0, "deployment", "web");
    let r = m.run(&["rollout", "restart", "deployment/web", "-n", &ns.0]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "deployment.apps/web restarted\n"),
        "{r:?}"
    );
    let after = object(&ns.0, "deployment", "web");
    let at = after
        .pointer("/spec/template/metadata/annotations/kubectl.kubernetes.io~1restartedAt")
        .and_then(Value::as_str)
        .expect("the restartedAt annotation");
    assert!(
        jiff::Timestamp::strptime("%Y-%m-%dT%H:%M:%S%:z", at.replace('Z', "+00:00")).is_ok(),
        "{at}"
    );
    let e = last_entry(&m);
    assert_eq!(
        (
            e["operation"].as_str(),
            e["patchType"].as_str(),
            e["result"].as_str()
        ),
        (Some("rollout"), Some("strategic"), Some("success")),
        "{e:#}"
    );
    assert_eq!(
        e["patch"],
        serde_json::json!({"spec": {"template": {"metadata": {"annotations": {"kubectl.kubernetes.io/restartedAt": at}}}}})
    );
    // The controller makes a new ReplicaSet (revision 2) and writes its status meanwhile.
    wait_revisions(&ns.0, "web", 2);
    let id = e["id"].as_str().unwrap();
    let rb = m.run(&["rollback", id]);
    assert_eq!(rb.code, 0, "{rb:?}");
    assert!(
        rb.stdout
            .starts_with(&format!("deployment.apps/web rolled back ({id})")),
        "{rb:?}"
    );
    let restored = object(&ns.0, "deployment", "web");
    assert_eq!(restored["spec"]["template"], before["spec"]["template"]);
    let rbe = last_entry(&m);
    assert_eq!(rbe["operation"], "rollback", "{rbe:#}");
    // The restore was guarded by the resourceVersion it read (its JSON patch tests it).
    assert_eq!(rbe["patch"][0]["op"], "test", "{rbe:#}");
    assert_eq!(
        rbe["patch"][0]["path"], "/metadata/resourceVersion",
        "{rbe:#}"
    );
    // -o name, as kubectl's name printer; several objects in one call.
    crate::fixture::create_deployment(&ns.0, "api");
    let r = m.run(&[
        "rollout",
        "restart",
        "deployment",
        "web",
        "api",
        "-n",
        &ns.0,
        "-o",
        "name",
    ]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "deployment.apps/web\ndeployment.apps/api\n"),
        "{r:?}"
    );
}

#[test]
fn undo_history_and_rollback_of_the_undo_match_kubectl() {
    let ns = Namespace::new("ro-undo");
    deployment(&ns.0, "web", true);
    let m = myops();
    // history, and one revision's pod template, byte for byte.
    for args in [
        vec!["rollout", "history", "deployment/web", "-n", &ns.0],
        vec![
            "rollout",
            "history",
            "deployment",
            "web",
            "-n",
            &ns.0,
            "--revision",
            "1",
        ],
        vec![
            "rollout",
            "history",
            "deployment/web",
            "-n",
            &ns.0,
            "--revision",
            "7",
        ],
        vec![
            "rollout",
            "undo",
            "deployment/web",
            "-n",
            &ns.0,
            "--to-revision",
            "9",
        ],
        vec![
            "rollout",
            "undo",
            "deployment/web",
            "-n",
            &ns.0,
            "--to-revision",
            "2",
        ],
        vec![
            "rollout",
            "undo",
            "deployment/web",
            "-n",
            &ns.0,
            "--dry-run=server",
        ],
    ] {
        let ours = m.run(&args);
        let theirs = oracle(&args);
        assert_eq!(ours.stdout, theirs.stdout, "{args:?}: {ours:?}");
        assert_eq!(ours.stderr, theirs.stderr, "{args:?}: {ours:?}");
        assert_eq!(ours.code == 0, theirs.code == 0, "{args:?}: {ours:?}");
    }
    let before = object(&ns.0, "deployment", "web");
    assert_eq!(image(&before), "registry.invalid/web:2");
    let r = m.run(&["rollout", "undo", "deployment/web", "-n", &ns.0]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "deployment.apps/web rolled back\n"),
        "{r:?}"
    );
    assert_eq!(
        image(&object(&ns.0, "deployment", "web")),
        "registry.invalid/web:1"
    );
    let e = last_entry(&m);
    assert_eq!(
        (e["operation"].as_str(), e["patchType"].as_str()),
        (Some("rollout"), Some("json")),
        "{e:#}"
    );
    assert_eq!(e["patch"][0]["path"], "/spec/template", "{e:#}");
    assert_eq!(e["patch"][1]["path"], "/metadata/annotations", "{e:#}");
    // The controller moves revision 1 to revision 3 and writes that on the Deployment.
    wait_until(&ns.0, "deployment", "web", "at revision 3", |d| {
        d.pointer("/metadata/annotations/deployment.kubernetes.io~1revision")
            == Some(&Value::from("3"))
    });
    let id = e["id"].as_str().unwrap();
    let rb = m.run(&["rollback", id]);
    assert_eq!(rb.code, 0, "{rb:?}");
    let restored = object(&ns.0, "deployment", "web");
    assert_eq!(restored["spec"]["template"], before["spec"]["template"]);
    assert_eq!(image(&restored), "registry.invalid/web:2");
    let rbe = last_entry(&m);
    assert_eq!(rbe["patch"][0]["op"], "test", "{rbe:#}");
}

#[test]
fn undo_without_history_and_of_a_type_without_a_rollout_are_kubectls_errors() {
    let ns = Namespace::new("ro-nohist");
    deployment(&ns.0, "web", false);
    kubectl(&["create", "configmap", "cfg", "-n", &ns.0]);
    let m = myops();
    let r = m.run(&["rollout", "undo", "deployment/web", "-n", &ns.0]);
    assert_eq!(r.code, 2, "{r:?}");
    assert_eq!(
        r.stderr,
        oracle(&["rollout", "undo", "deployment/web", "-n", &ns.0]).stderr
    );
    assert_eq!(
        r.stderr,
        "error: no rollout history found for deployment \"web\"\n"
    );
    for (sub, words) in [
        (
            "undo",
            "error: error retrieving rollbacker for \"ConfigMap\", no visitor method exists for { ConfigMap}\n",
        ),
        (
            "history",
            "error: error retrieving history for \"ConfigMap\", no visitor method exists for { ConfigMap}\n",
        ),
        (
            "status",
            "error: no status viewer has been implemented for ConfigMap\n",
        ),
    ] {
        let r = m.run(&["rollout", sub, "configmap/cfg", "-n", &ns.0]);
        assert_eq!((r.code, r.stderr.as_str()), (2, words), "{sub}: {r:?}");
        let k = oracle(&["rollout", sub, "configmap/cfg", "-n", &ns.0]);
        assert_eq!(k.stderr, words, "kubectl {sub}");
    }
    let r = m.run(&["rollout", "restart", "configmap/cfg", "-n", &ns.0]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr
            .contains("configmaps \"cfg\" restarting is not supported"),
        "{r:?}"
    );
    let k = oracle(&["rollout", "restart", "configmap/cfg", "-n", &ns.0]);
    assert!(
        k.stderr
            .contains("configmaps \"cfg\" restarting is not supported"),
        "{k:?}"
    );
    assert!(
        m.records().iter().all(|e| e["result"] != "success"),
        "nothing changed"
    );
}

#[test]
fn status_prints_kubectls_lines_and_times_out() {
    let ns = Namespace::new("ro-status");
    deployment(&ns.0, "web", false);
    kubectl(&[
        "create",
        "deployment",
        "zero",
        "-n",
        &ns.0,
        "--image=registry.invalid/z:1",
        "--replicas=0",
    ]);
    wait_until(&ns.0, "deployment", "zero", "observed", |d| {
        d.pointer("/status/observedGeneration").is_some()
    });
    let m = myops();
    for args in [
        vec![
            "rollout",
            "status",
            "deployment/web",
            "-n",
            &ns.0,
            "--watch=false",
        ],
        vec!["rollout", "status", "deployment/zero", "-n", &ns.0],
        vec![
            "rollout",
            "status",
            "deployment/web",
            "-n",
            &ns.0,
            "--watch=false",
            "--revision",
            "1",
        ],
        vec![
            "rollout",
            "status",
            "deployment/web",
            "-n",
            &ns.0,
            "--watch=false",
            "--revision",
            "4",
        ],
    ] {
        let ours = m.run(&args);
        let theirs = oracle(&args);
        assert_eq!(ours.stdout, theirs.stdout, "{args:?}: {ours:?}");
        assert_eq!(ours.stderr, theirs.stderr, "{args:?}: {ours:?}");
        assert_eq!(ours.code == 0, theirs.code == 0, "{args:?}: {ours:?}");
    }
    // No kubelet: the replicas never become available, so the watch ends at --timeout.
    let started = Instant::now();
    let r = m.run(&[
        "rollout",
        "status",
        "deployment/web",
        "-n",
        &ns.0,
        "--timeout",
        "2s",
    ]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "bounded by --timeout"
    );
    assert_eq!(
        r.stderr, "error: timed out waiting for the condition\n",
        "{r:?}"
    );
    assert_eq!(
        r.stdout,
        "Waiting for deployment \"web\" rollout to finish: 0 of 2 updated replicas are available...\n"
    );
    assert!(m.records().is_empty(), "status journals nothing");
}

/// A StatefulSet at revision 2 with its two ControllerRevisions, written as its controller
/// writes them (the test cluster runs no StatefulSet controller).
fn statefulset_with_history(ns: &str, name: &str) {
    let template = |image: &str| {
        serde_json::json!({"metadata": {"labels": {"app": name}},
            "spec": {"containers": [{"name": "db", "image": image}]}})
    };
    let sts = serde_json::json!({"apiVersion": "apps/v1", "kind": "StatefulSet",
        "metadata": {"name": name, "namespace": ns},
        "spec": {"serviceName": name, "replicas": 1, "selector": {"matchLabels": {"app": name}},
                 "template": template("registry.invalid/db:2")}});
    let out = kubectl_stdin(&["create", "-f", "-"], &sts.to_string());
    assert!(out.status.success(), "{}", text_of(&out.stderr));
    let live = object(ns, "statefulset", name);
    let uid = live["metadata"]["uid"].as_str().unwrap();
    for (n, img) in [(1, "registry.invalid/db:1"), (2, "registry.invalid/db:2")] {
        // The data is the live template (defaults included), as the controller stores it.
        let mut t = live["spec"]["template"].clone();
        t["spec"]["containers"][0]["image"] = Value::from(img);
        t["$patch"] = Value::from("replace");
        let cr = serde_json::json!({"apiVersion": "apps/v1", "kind": "ControllerRevision",
            "metadata": {"name": format!("{name}-{n}"), "namespace": ns, "labels": {"app": name},
                         "annotations": {"kubernetes.io/change-cause": format!("release {n}")},
                         "ownerReferences": [{"apiVersion": "apps/v1", "kind": "StatefulSet", "name": name,
                                              "uid": uid, "controller": true}]},
            "revision": n, "data": {"spec": {"template": t}}});
        let out = kubectl_stdin(&["create", "-f", "-"], &cr.to_string());
        assert!(out.status.success(), "{}", text_of(&out.stderr));
    }
}

#[test]
fn a_statefulset_undo_sends_its_controller_revision_and_rolls_back() {
    let ns = Namespace::new("ro-sts");
    statefulset_with_history(&ns.0, "db");
    let m = myops();
    for args in [
        vec!["rollout", "history", "statefulset/db", "-n", &ns.0],
        vec![
            "rollout",
            "history",
            "statefulset/db",
            "-n",
            &ns.0,
            "--revision",
            "1",
        ],
        vec![
            "rollout",
            "undo",
            "statefulset/db",
            "-n",
            &ns.0,
            "--dry-run=server",
        ],
        vec![
            "rollout",
            "undo",
            "statefulset/db",
            "-n",
            &ns.0,
            "--dry-run=client",
        ],
        vec![
            "rollout",
            "undo",
            "statefulset/db",
            "-n",
            &ns.0,
            "--to-revision",
            "2",
        ],
        vec![
            "rollout",
            "undo",
            "statefulset/db",
            "-n",
            &ns.0,
            "--to-revision",
            "5",
        ],
    ] {
        let ours = m.run(&args);
        let theirs = oracle(&args);
        assert_eq!(ours.stdout, theirs.stdout, "{args:?}: {ours:?}");
        assert_eq!(ours.stderr, theirs.stderr, "{args:?}: {ours:?}");
        assert_eq!(ours.code == 0, theirs.code == 0, "{args:?}: {ours:?}");
    }
    let before = object(&ns.0, "statefulset", "db");
    let r = m.run(&["rollout", "undo", "statefulset/db", "-n", &ns.0]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "statefulset.apps/db rolled back\n"),
        "{r:?}"
    );
    assert_eq!(
        image(&object(&ns.0, "statefulset", "db")),
        "registry.invalid/db:1"
    );
    let e = last_entry(&m);
    assert_eq!(
        (e["operation"].as_str(), e["patchType"].as_str()),
        (Some("rollout"), Some("strategic"))
    );
    let rb = m.run(&["rollback", e["id"].as_str().unwrap()]);
    assert_eq!(rb.code, 0, "{rb:?}");
    assert_eq!(
        object(&ns.0, "statefulset", "db")["spec"]["template"],
        before["spec"]["template"]
    );
}

#[test]
fn status_follows_the_watch_until_the_rollout_is_done() {
    let ns = Namespace::new("ro-watch");
    deployment(&ns.0, "web", false);
    let m = myops();
    let child = m
        .command(&[
            "rollout",
            "status",
            "deployment/web",
            "-n",
            &ns.0,
            "--timeout",
            "60s",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Let it print the first state, then end the rollout: no replicas left to wait for.
    std::thread::sleep(Duration::from_millis(1500));
    kubectl(&["scale", "deployment/web", "-n", &ns.0, "--replicas=0"]);
    let out = child.wait_with_output().unwrap();
    let stdout = text_of(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout} {}",
        text_of(&out.stderr)
    );
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines.first(),
        Some(
            &"Waiting for deployment \"web\" rollout to finish: 0 of 2 updated replicas are available..."
        ),
        "{stdout}"
    );
    assert_eq!(
        lines.last(),
        Some(&"deployment \"web\" successfully rolled out"),
        "{stdout}"
    );
}
