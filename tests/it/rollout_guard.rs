//! `rollout` on the guarded path against the real cluster: a change log that cannot be written
//! sends nothing, a field policy denying the template refuses restart and undo, a reconciler
//! owner is warned about, the reviews (`list` of the revisions) and the plugin.yaml verb bound
//! it, paused and apply-managed Deployments are handled as kubectl handles them, and a restart
//! fans out over two contexts in canary waves; a rich pod template and a DaemonSet read as
//! kubectl prints them.

use serde_json::Value;

use crate::fixture::{Myops, Namespace, kubectl, kubectl_stdin, text_of};
use crate::rollout::{
    ROLLOUT_PLUGIN, deployment, image, last_entry, myops, object, oracle, wait_revisions,
};

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

#[test]
fn paused_and_apply_managed_deployments_are_handled_as_kubectl_handles_them() {
    let ns = Namespace::new("ro-paused");
    let applied = serde_json::json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web", "namespace": ns.0},
        "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "web"}},
                 "template": {"metadata": {"labels": {"app": "web"}},
                              "spec": {"containers": [{"name": "web", "image": "registry.invalid/web:1"}]}}}});
    let out = kubectl_stdin(&["apply", "-f", "-"], &applied.to_string());
    assert!(out.status.success(), "{}", text_of(&out.stderr));
    wait_revisions(&ns.0, "web", 1);
    kubectl(&[
        "set",
        "image",
        "deployment/web",
        "-n",
        &ns.0,
        "web=registry.invalid/web:2",
    ]);
    wait_revisions(&ns.0, "web", 2);
    let m = myops();
    // kubectl's warning about the last-applied annotation, before a (dry-run) undo.
    let args = [
        "rollout",
        "undo",
        "deployment/web",
        "-n",
        &ns.0,
        "--dry-run=server",
    ];
    let (ours, theirs) = (m.run(&args), oracle(&args));
    assert_eq!(
        (ours.stdout.as_str(), ours.stderr.as_str()),
        (theirs.stdout.as_str(), theirs.stderr.as_str())
    );
    assert!(
        ours.stderr.starts_with(
            "Warning: resource deployments/web was previously managed with 'kubectl apply'."
        ),
        "{ours:?}"
    );
    // A restart is no change `kubectl apply` reverts: no warning, the owner journaled.
    let r = m.run(&["rollout", "restart", "deployment/web", "-n", &ns.0]);
    assert_eq!((r.code, r.stderr.as_str()), (0, ""), "{r:?}");
    assert_eq!(
        last_entry(&m)["reconciler"]["marker"],
        "annotation kubectl.kubernetes.io/last-applied-configuration"
    );
    kubectl(&["rollout", "pause", "deployment/web", "-n", &ns.0]);
    for args in [
        vec!["rollout", "restart", "deployment/web", "-n", &ns.0],
        vec!["rollout", "undo", "deployment/web", "-n", &ns.0],
        vec![
            "rollout",
            "status",
            "deployment/web",
            "-n",
            &ns.0,
            "--watch=false",
        ],
    ] {
        let (ours, theirs) = (m.run(&args), oracle(&args));
        assert_eq!(ours.stdout, theirs.stdout, "{args:?}: {ours:?}");
        assert_eq!(ours.stderr, theirs.stderr, "{args:?}: {ours:?}");
        assert_eq!(ours.code == 0, theirs.code == 0, "{args:?}: {ours:?}");
    }
    assert_eq!(
        image(&object(&ns.0, "deployment", "web")),
        "registry.invalid/web:2"
    );
    // The refusals are journaled as attempts, nothing sent.
    let refused: Vec<Value> = m
        .latest_records()
        .into_iter()
        .filter(|e| {
            e["result"]
                .as_str()
                .is_some_and(|r| r.starts_with("refused: "))
        })
        .collect();
    assert_eq!(refused.len(), 2, "{refused:#?}");
}

#[test]
fn undo_is_reviewed_as_list_of_replicasets_and_the_verb_is_bounded_by_plugin_yaml() {
    let ns = Namespace::new("ro-rbac");
    deployment(&ns.0, "web", true);
    ns.grant("alice", "get,patch", "deployments");
    let m = myops();
    let r = m.run(&[
        "--context",
        "alice",
        "rollout",
        "undo",
        "deployment/web",
        "-n",
        &ns.0,
    ]);
    assert_eq!(r.code, 3, "{r:?}");
    assert_eq!(
        r.stderr,
        format!(
            "error: forbidden: user \"alice\" cannot list replicasets.apps in namespace \"{}\": no RBAC rule allows it; ask a cluster admin for a Role (a ClusterRole at cluster scope) that grants it\n",
            ns.0
        )
    );
    assert_eq!(last_entry(&m)["result"], "denied");
    assert_eq!(
        image(&object(&ns.0, "deployment", "web")),
        "registry.invalid/web:2"
    );
    ns.grant("alice", "list", "replicasets");
    let r = m.run(&[
        "--context",
        "alice",
        "rollout",
        "undo",
        "deployment/web",
        "-n",
        &ns.0,
    ]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "deployment.apps/web rolled back\n"),
        "{r:?}"
    );
    // Without `rollout` in plugin.yaml `verbs`, even history and status are refused.
    let no_verb = Myops::new(
        "name: myops\nverbs: [get, patch]\nresources: [deployments]\nscopes: [namespace]\n",
    );
    for sub in ["history", "status", "restart"] {
        let r = no_verb.run(&["rollout", sub, "deployment/web", "-n", &ns.0]);
        assert_eq!(r.code, 3, "{sub}: {r:?}");
        assert!(
            r.stderr.contains("verb \"rollout\" is not in `verbs`"),
            "{sub}: {r:?}"
        );
    }
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
