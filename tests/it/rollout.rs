//! `rollout restart|undo|history|status` against the real cluster (its controller manager runs
//! the deployment and replicaset controllers; no scheduler or kubelet, so pods stay Pending and
//! no StatefulSet or DaemonSet controller writes ControllerRevisions: a test writes them):
//! kubectl's output byte for byte (the oracle kubectl on the same objects), the journal entry of
//! each change, and `rollback ID` of a restart and of an undo restoring the template exactly.

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::fixture::{Myops, Namespace, Run, cluster, kubectl, kubectl_at, kubectl_stdin, text_of};

/// The boundary of these tests: the rollout verb on the three workload kinds.
fn myops() -> Myops {
    Myops::new(ROLLOUT_PLUGIN)
}

const ROLLOUT_PLUGIN: &str = "name: myops\nverbs: [get, patch, rollout]\nresources: [deployments, statefulsets, daemonsets, configmaps]\nscopes: [namespace]\n";

/// The oracle kubectl's stdout, stderr and exit code.
fn oracle(args: &[&str]) -> Run {
    let out = kubectl_at(&cluster().kubeconfig, args);
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: text_of(&out.stdout),
        stderr: text_of(&out.stderr),
    }
}

fn object(ns: &str, kind: &str, name: &str) -> Value {
    serde_json::from_str(&kubectl(&["get", kind, name, "-n", ns, "-o", "json"])).unwrap()
}

/// Waits until `check` holds on the object (the controller manager works asynchronously).
fn wait_until(ns: &str, kind: &str, name: &str, what: &str, check: impl Fn(&Value) -> bool) {
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
fn wait_revisions(ns: &str, name: &str, n: usize) {
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
fn deployment(ns: &str, name: &str, two: bool) {
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

fn image(d: &Value) -> &str {
    d.pointer("/spec/template/spec/containers/0/image")
        .and_then(Value::as_str)
        .unwrap_or("")
}

/// The last record of the change log.
fn last_entry(m: &Myops) -> Value {
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

#[test]
fn an_unwritable_change_log_restarts_nothing() {
    let ns = Namespace::new("ro-nolog");
    deployment(&ns.0, "web", false);
    let mut m = myops();
    let bad = m.dir.path().join("log-is-a-directory");
    std::fs::create_dir_all(bad.join("changelog.jsonl")).unwrap();
    m.set_env("MYOPS_HOME", &bad.display().to_string());
    let before = object(&ns.0, "deployment", "web");
    for args in [
        vec!["rollout", "restart", "deployment/web", "-n", &ns.0],
        vec!["rollout", "undo", "deployment/web", "-n", &ns.0],
    ] {
        let r = m.run(&args);
        assert_eq!(r.code, 1, "{r:?}");
        assert!(r.stderr.contains("nothing was sent"), "{r:?}");
    }
    let after = object(&ns.0, "deployment", "web");
    assert_eq!(
        before["metadata"]["resourceVersion"],
        after["metadata"]["resourceVersion"]
    );
}

#[test]
fn a_field_policy_denying_the_template_refuses_restart_and_undo() {
    let ns = Namespace::new("ro-policy");
    deployment(&ns.0, "web", true);
    let m = Myops::new(&format!(
        "{ROLLOUT_PLUGIN}policies:\n- resource: deployments.apps\n  deny: [\"/spec/template/**\"]\n  message: templates change through the release pipeline\n"
    ));
    let before = object(&ns.0, "deployment", "web");
    let r = m.run(&["rollout", "restart", "deployment/web", "-n", &ns.0]);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(r.stderr.contains("denied by plugin.yaml policies[0] (deployments.apps): the rollout would change /spec/template/"), "{r:?}");
    assert!(r.stderr.contains("(nothing was sent)"), "{r:?}");
    let r = m.run(&["rollout", "undo", "deployment/web", "-n", &ns.0]);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(
        r.stderr
            .contains("templates change through the release pipeline"),
        "{r:?}"
    );
    let after = object(&ns.0, "deployment", "web");
    assert_eq!(
        before["metadata"]["resourceVersion"],
        after["metadata"]["resourceVersion"]
    );
    assert!(m.latest_records().iter().all(|e| {
        e["result"]
            .as_str()
            .unwrap()
            .starts_with("denied by field policy")
    }));
}

#[test]
fn a_reconciler_owned_deployment_is_restarted_with_a_warning() {
    let ns = Namespace::new("ro-argo");
    deployment(&ns.0, "web", false);
    kubectl(&[
        "label",
        "deployment",
        "web",
        "-n",
        &ns.0,
        "argocd.argoproj.io/instance=shop",
    ]);
    let m = myops();
    let r = m.run(&["rollout", "restart", "deployment/web", "-n", &ns.0]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stderr
            .starts_with("warning: deployment.apps/web is managed by Argo CD"),
        "{r:?}"
    );
    assert_eq!(
        last_entry(&m)["reconciler"]["marker"],
        "label argocd.argoproj.io/instance"
    );
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
fn a_revisions_pod_template_and_a_daemonset_read_as_kubectl_prints_them() {
    let ns = Namespace::new("ro-describe");
    let rich = serde_json::json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "rich", "namespace": ns.0},
        "spec": {"replicas": 0, "selector": {"matchLabels": {"app": "rich"}},
            "template": {
                "metadata": {"labels": {"app": "rich"},
                             "annotations": {"note": "x".repeat(150), "a": "multi\nline"}},
                "spec": {
                    "serviceAccountName": "sa1", "priorityClassName": "high",
                    "nodeSelector": {"disk": "ssd"},
                    "initContainers": [{"name": "init", "image": "busybox", "command": ["sh", "-c"], "args": ["echo hi\nbye"]}],
                    "containers": [{"name": "a", "image": "registry.invalid/agent:1",
                        "ports": [{"containerPort": 80, "name": "http"}, {"containerPort": 443}],
                        "env": [{"name": "A", "value": "1"},
                                {"name": "P", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}},
                                {"name": "SK", "valueFrom": {"secretKeyRef": {"name": "s", "key": "k"}}}],
                        "envFrom": [{"configMapRef": {"name": "cfg"}}, {"secretRef": {"name": "s", "optional": true}, "prefix": "S_"}],
                        "resources": {"limits": {"cpu": "100m", "memory": "64Mi"}, "requests": {"cpu": "50m"}},
                        "livenessProbe": {"httpGet": {"path": "/healthz", "port": 80}},
                        "readinessProbe": {"tcpSocket": {"port": "http"}},
                        "volumeMounts": [{"name": "cfg", "mountPath": "/etc/cfg", "readOnly": true}, {"name": "tmp", "mountPath": "/tmp"}]}],
                    "volumes": [{"name": "cfg", "configMap": {"name": "cfg"}}, {"name": "tmp", "emptyDir": {}},
                                {"name": "pvc", "persistentVolumeClaim": {"claimName": "data"}},
                                {"name": "sec", "secret": {"secretName": "s"}},
                                {"name": "hp", "hostPath": {"path": "/var/log"}}],
                    "tolerations": [{"operator": "Exists"}, {"key": "k", "operator": "Equal", "value": "v", "effect": "NoExecute", "tolerationSeconds": 30}],
                    "topologySpreadConstraints": [{"maxSkew": 1, "topologyKey": "zone", "whenUnsatisfiable": "DoNotSchedule",
                                                   "labelSelector": {"matchLabels": {"app": "rich"}}}]}}}});
    let out = kubectl_stdin(&["create", "-f", "-"], &rich.to_string());
    assert!(out.status.success(), "{}", text_of(&out.stderr));
    wait_revisions(&ns.0, "rich", 1);
    let ds = serde_json::json!({"apiVersion": "apps/v1", "kind": "DaemonSet",
        "metadata": {"name": "agent", "namespace": ns.0},
        "spec": {"selector": {"matchLabels": {"app": "agent"}},
                 "template": {"metadata": {"labels": {"app": "agent"}},
                              "spec": {"containers": [{"name": "a", "image": "registry.invalid/agent:1"}]}}}});
    let out = kubectl_stdin(&["create", "-f", "-"], &ds.to_string());
    assert!(out.status.success(), "{}", text_of(&out.stderr));
    let m = myops();
    for args in [
        vec![
            "rollout",
            "history",
            "deployment/rich",
            "-n",
            &ns.0,
            "--revision",
            "1",
        ],
        vec![
            "rollout",
            "status",
            "daemonset/agent",
            "-n",
            &ns.0,
            "--watch=false",
        ],
        vec!["rollout", "history", "daemonset/agent", "-n", &ns.0],
        vec!["rollout", "undo", "daemonset/agent", "-n", &ns.0],
    ] {
        let ours = m.run(&args);
        let theirs = oracle(&args);
        assert_eq!(ours.stdout, theirs.stdout, "{args:?}: {ours:?}");
        assert_eq!(ours.stderr, theirs.stderr, "{args:?}: {ours:?}");
        assert_eq!(ours.code == 0, theirs.code == 0, "{args:?}: {ours:?}");
    }
    let r = m.run(&["rollout", "restart", "daemonset/agent", "-n", &ns.0]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "daemonset.apps/agent restarted\n"),
        "{r:?}"
    );
    // The metrics count the rollout verb on its resource.
    let state = std::fs::read_to_string(m.dir.path().join("myops/metrics-state.json")).unwrap();
    assert!(state.contains("\"verb\":\"rollout\""), "{state}");
    assert!(
        state.contains("\"resource\":\"daemonsets.apps\""),
        "{state}"
    );
}

#[test]
fn restart_over_two_contexts_runs_in_canary_waves_and_rollback_session_undoes_both() {
    use crate::fleet::{TwoNamespaces, kubectl_in};
    let ns = TwoNamespaces::new("ro-fleet");
    for ctx in ["admin", "admin-2"] {
        kubectl_in(
            ctx,
            &[
                "create",
                "deployment",
                "web",
                "-n",
                &ns.0,
                "--image=registry.invalid/web:1",
            ],
        );
    }
    let template = |ctx: &str| -> Value {
        let d: Value = serde_json::from_str(&kubectl_in(
            ctx,
            &["get", "deployment", "web", "-n", &ns.0, "-o", "json"],
        ))
        .unwrap();
        d["spec"]["template"].clone()
    };
    let before = [template("admin"), template("admin-2")];
    let m = myops();
    let r = m.run(&[
        "rollout",
        "restart",
        "deployment/web",
        "-n",
        &ns.0,
        "--contexts",
        "admin,admin-2",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        r.stdout,
        "admin\tdeployment.apps/web restarted\nadmin-2\tdeployment.apps/web restarted\n"
    );
    let hint = "to undo the changes of this invocation: kubectl myops rollback --session ";
    let session = r
        .stderr
        .lines()
        .find_map(|l| l.strip_prefix(hint))
        .expect("the rollback hint")
        .to_string();
    let rb = m.run(&["rollback", "--session", &session]);
    assert_eq!(rb.code, 0, "{rb:?}");
    assert_eq!([template("admin"), template("admin-2")], before);
    // A canary that fails stops the wave: the second context is not attempted.
    let r = m.run(&[
        "rollout",
        "restart",
        "deployment/none",
        "-n",
        &ns.0,
        "--contexts",
        "admin,admin-2",
    ]);
    assert_eq!(r.code, 4, "{r:?}");
    assert!(r.stderr.contains("error: rollout restart stopped after a failure; not attempted (nothing was sent): admin-2"), "{r:?}");
}
