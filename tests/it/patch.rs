//! `patch`, the change log and `rollback` against the real API server.

use serde_json::Value;

use crate::fixture::{Myops, Namespace, audit_events, kubectl, kubectl_apply, root};

fn json_of(args: &[&str]) -> Value {
    serde_json::from_str(&kubectl(args)).unwrap()
}

/// Every change-log line, in order.
fn journal_lines(m: &Myops) -> Vec<Value> {
    let text =
        std::fs::read_to_string(m.dir.path().join("myops/changelog.jsonl")).unwrap_or_default();
    text.lines()
        .map(|l| serde_json::from_str(l).expect("every change-log line is valid JSON"))
        .collect()
}

/// The last record of every id, in first-seen order: one per attempt (write-ahead pairs an
/// intent `pending` record with its complete outcome record).
fn journal(m: &Myops) -> Vec<Value> {
    let mut order: Vec<String> = Vec::new();
    let mut last = std::collections::HashMap::new();
    for e in journal_lines(m) {
        let id = e["id"]
            .as_str()
            .expect("every record has an id")
            .to_string();
        if !last.contains_key(&id) {
            order.push(id.clone());
        }
        last.insert(id, e);
    }
    order
        .into_iter()
        .map(|id| last.remove(&id).unwrap())
        .collect()
}

fn deployment(ns: &Namespace, name: &str) {
    kubectl(&[
        "create",
        "deployment",
        name,
        "-n",
        &ns.0,
        "--image=registry.invalid/web:1",
        "--replicas=2",
    ]);
}

#[test]
fn merge_json_and_strategic_patches_on_a_deployment_change_exactly_the_fields_asked() {
    let ns = Namespace::new("patch-deploy");
    deployment(&ns, "web");
    let m = Myops::standard(&ns.0);
    let r = m.run(&[
        "patch",
        "deployment",
        "web",
        "-n",
        &ns.0,
        "-p",
        r#"{"spec":{"replicas":3}}"#,
    ]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "deployment.apps/web patched\n"),
        "{r:?}"
    );
    let r = m.run(&[
        "patch",
        "deploy/web",
        "-n",
        &ns.0,
        "--type",
        "merge",
        "-p",
        "metadata: {labels: {tier: front}}",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    let ops = r#"[{"op":"test","path":"/spec/replicas","value":3},{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"registry.invalid/web:2"}]"#;
    let r = m.run(&[
        "patch", "deploy", "web", "-n", &ns.0, "--type", "json", "-p", ops, "--diff",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("spec.template.spec.containers[0].image: \"registry.invalid/web:1\" → \"registry.invalid/web:2\""), "{r:?}");
    let d = json_of(&["get", "deploy", "web", "-n", &ns.0, "-o", "json"]);
    assert_eq!(d["spec"]["replicas"], 3);
    assert_eq!(d["metadata"]["labels"]["tier"], "front");
    assert_eq!(
        d["metadata"]["labels"]["app"], "web",
        "a merge patch keeps the other labels"
    );
    assert_eq!(
        d["spec"]["template"]["spec"]["containers"][0]["image"],
        "registry.invalid/web:2"
    );
    assert_eq!(
        d["spec"]["template"]["spec"]["containers"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    // The same patch again changes nothing — once the controller manager's writes for the new
    // image are done (one of them between the read and the patch read as a change, one CI run
    // in several: fixture::settled).
    crate::fixture::settled(&ns.0, "deployment", "web");
    let r = m.run(&[
        "patch",
        "deployment",
        "web",
        "-n",
        &ns.0,
        "-p",
        r#"{"spec":{"replicas":3}}"#,
    ]);
    assert_eq!(
        r.stdout, "deployment.apps/web patched (no change)\n",
        "{r:?}"
    );
    let entries = journal(&m);
    assert_eq!(entries.len(), 4);
    assert_eq!(entries[0]["user"], "admin");
    assert_eq!(entries[0]["operation"], "patch");
    assert_eq!(entries[0]["patchType"], "strategic");
    assert_eq!(entries[0]["before"]["spec"]["replicas"], 2);
    assert_eq!(entries[0]["result"], "success");
    assert!(entries[0]["resourceVersionAfter"].as_str().is_some());
}

#[test]
fn patches_on_a_custom_resource_and_strategic_merge_is_refused_with_advice() {
    let ns = Namespace::new("patch-cr");
    let m = Myops::standard(&ns.0);
    assert_eq!(
        m.run(&["crds", "sync", root().join("crds").to_str().unwrap()])
            .code,
        0
    );
    kubectl_apply(&format!(
        "apiVersion: example.com/v1\nkind: BackupJob\nmetadata: {{name: nightly, namespace: {}}}\nspec: {{schedule: '0 2 * * *', target: data-pvc}}\n",
        ns.0
    ));
    let r = m.run(&[
        "patch",
        "bj",
        "nightly",
        "-n",
        &ns.0,
        "-p",
        r#"{"spec":{"retentionDays":30}}"#,
    ]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("use --type merge"), "{r:?}");
    let r = m.run(&[
        "patch",
        "backupjob/nightly",
        "-n",
        &ns.0,
        "--type",
        "merge",
        "-p",
        "spec: {retentionDays: 30}",
    ]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "backupjob.example.com/nightly patched\n"),
        "{r:?}"
    );
    let r = m.run(&[
        "patch",
        "bj",
        "nightly",
        "-n",
        &ns.0,
        "--type",
        "json",
        "-p",
        r#"[{"op":"replace","path":"/spec/target","value":"other-pvc"}]"#,
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    let b = json_of(&[
        "get",
        "backupjobs.example.com",
        "nightly",
        "-n",
        &ns.0,
        "-o",
        "json",
    ]);
    assert_eq!(
        (
            b["spec"]["retentionDays"].as_i64(),
            b["spec"]["target"].as_str(),
            b["spec"]["schedule"].as_str()
        ),
        (Some(30), Some("other-pvc"), Some("0 2 * * *"))
    );
    // The status subresource.
    let r = m.run(&[
        "patch",
        "bj",
        "nightly",
        "-n",
        &ns.0,
        "--type",
        "merge",
        "--subresource",
        "status",
        "-p",
        r#"{"status":{"lastResult":"ok"}}"#,
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        json_of(&[
            "get",
            "backupjobs.example.com",
            "nightly",
            "-n",
            &ns.0,
            "-o",
            "json"
        ])["status"]["lastResult"],
        "ok"
    );
    // Bad inputs: exit codes of the contract.
    let r = m.run(&[
        "patch",
        "bj",
        "nightly",
        "-n",
        &ns.0,
        "--type",
        "merge",
        "-p",
        "{\"spec\": ",
    ]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("--patch:1:"), "{r:?}");
    let r = m.run(&[
        "patch",
        "bj",
        "nightly",
        "-n",
        &ns.0,
        "--type",
        "json",
        "-p",
        r#"[{"op":"test","path":"/spec/target","value":"x"}]"#,
    ]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("failed at path '/spec/target'"), "{r:?}");
    let r = m.run(&[
        "patch", "bj", "missing", "-n", &ns.0, "--type", "merge", "-p", "{}",
    ]);
    assert_eq!(r.code, 4, "{r:?}");
}

#[test]
fn dry_run_changes_nothing_and_is_journaled_as_a_dry_run() {
    let ns = Namespace::new("patch-dry");
    deployment(&ns, "web");
    let m = Myops::standard(&ns.0);
    for mode in ["--dry-run=server", "--dry-run=client"] {
        let r = m.run(&[
            "patch",
            "deploy",
            "web",
            "-n",
            &ns.0,
            "--type",
            "merge",
            "-p",
            r#"{"spec":{"replicas":7}}"#,
            mode,
        ]);
        assert_eq!(r.code, 0, "{r:?}");
        assert!(
            r.stdout.contains("dry run)") && r.stdout.contains("spec.replicas: 2 → 7"),
            "{r:?}"
        );
    }
    assert_eq!(
        json_of(&["get", "deploy", "web", "-n", &ns.0, "-o", "json"])["spec"]["replicas"],
        2
    );
    let entries = journal(&m);
    assert_eq!(entries.len(), 2);
    assert!(
        entries
            .iter()
            .all(|e| e["dryRun"] == true && e["result"] == "success")
    );
}

#[test]
fn alice_may_get_but_not_patch_bob_nothing_and_as_bob_is_bob() {
    let ns = Namespace::new("patch-rbac");
    deployment(&ns, "web");
    ns.grant("alice", "get,list", "deployments.apps");
    let m = Myops::standard(&ns.0);
    let patch = |extra: &[&str]| {
        let mut a = vec![
            "patch",
            "deploy",
            "web",
            "-n",
            ns.0.as_str(),
            "-p",
            r#"{"spec":{"replicas":5}}"#,
        ];
        a.extend_from_slice(extra);
        m.run(&a)
    };
    let r = patch(&["--context", "alice"]);
    assert_eq!((r.code, r.stdout.as_str()), (3, ""), "{r:?}");
    assert!(
        r.stderr.contains("\"alice\" cannot patch deployments.apps"),
        "{r:?}"
    );
    assert!(
        audit_events("alice", "deployments", &ns.0)
            .iter()
            .all(|e| e["verb"] != "patch"),
        "a patch by alice reached the server"
    );
    let bob = patch(&["--context", "bob"]);
    let as_bob = patch(&["--as", "bob"]);
    assert_eq!((bob.code, as_bob.code), (3, 3));
    assert_eq!(bob.stderr, as_bob.stderr);
    assert_eq!(
        json_of(&["get", "deploy", "web", "-n", &ns.0, "-o", "json"])["spec"]["replicas"],
        2
    );
    let entries = journal(&m);
    let users: Vec<(&str, &str)> = entries
        .iter()
        .map(|e| (e["user"].as_str().unwrap(), e["result"].as_str().unwrap()))
        .collect();
    assert_eq!(
        users,
        [("alice", "denied"), ("bob", "denied"), ("bob", "denied")]
    );
}

#[test]
fn rollback_restores_spec_refuses_a_changed_object_and_force_restores() {
    let ns = Namespace::new("rollback");
    deployment(&ns, "web");
    let m = Myops::standard(&ns.0);
    let original = json_of(&["get", "deploy", "web", "-n", &ns.0, "-o", "json"])["spec"].clone();
    assert_eq!(
        m.run(&[
            "patch",
            "deploy",
            "web",
            "-n",
            &ns.0,
            "--type",
            "merge",
            "-p",
            r#"{"spec":{"replicas":4,"paused":true}}"#
        ])
        .code,
        0
    );
    let id = journal(&m)[0]["id"].as_str().unwrap().to_string();
    let r = m.run(&["rollback", &id, "--dry-run=server"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("spec.replicas: 4 → 2"), "{r:?}");
    assert_eq!(
        json_of(&["get", "deploy", "web", "-n", &ns.0, "-o", "json"])["spec"]["replicas"],
        4
    );
    let r = m.run(&["rollback", &id]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        json_of(&["get", "deploy", "web", "-n", &ns.0, "-o", "json"])["spec"],
        original,
        "spec restored exactly"
    );

    // Someone else changes it after our patch: the rollback is refused, naming them.
    assert_eq!(
        m.run(&[
            "patch",
            "deploy",
            "web",
            "-n",
            &ns.0,
            "--type",
            "merge",
            "-p",
            r#"{"spec":{"replicas":6}}"#
        ])
        .code,
        0
    );
    let id = journal(&m).last().unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    kubectl(&[
        "patch",
        "deploy",
        "web",
        "-n",
        &ns.0,
        "--type",
        "merge",
        "-p",
        r#"{"spec":{"replicas":8}}"#,
    ]);
    let r = m.run(&["rollback", &id]);
    assert_eq!(r.code, 5, "{r:?}");
    // The last writer is kubectl's patch, or the Deployment controller when its status update
    // lands after it (it runs on this server).
    assert!(
        r.stderr.contains("changed since entry")
            && (r.stderr.contains("last by kubectl-patch (Update)")
                || r.stderr
                    .contains("last by kube-controller-manager (Update)")),
        "{r:?}"
    );
    assert_eq!(
        json_of(&["get", "deploy", "web", "-n", &ns.0, "-o", "json"])["spec"]["replicas"],
        8
    );
    let r = m.run(&["rollback", &id, "--force"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        json_of(&["get", "deploy", "web", "-n", &ns.0, "-o", "json"])["spec"],
        original
    );
    let last = journal(&m).last().unwrap().clone();
    assert_eq!(
        (last["operation"].as_str(), last["result"].as_str()),
        (Some("rollback"), Some("success"))
    );
    assert_eq!(m.run(&["rollback", "no-such-id"]).code, 4);
    let list = m.run(&["changelog", "list", "--object", "deployment/web"]);
    assert_eq!(list.code, 0, "{list:?}");
    assert_eq!(
        list.stdout.lines().count(),
        1 + journal(&m).len(),
        "{list:?}"
    );
    let show = m.run(&["changelog", "show", &id]);
    let v: Value = serde_json::from_str(&show.stdout).unwrap();
    assert_eq!(v["id"], id.as_str());
}

#[test]
fn a_secret_patch_never_puts_its_data_in_the_change_log() {
    let ns = Namespace::new("patch-secret");
    kubectl(&[
        "create",
        "secret",
        "generic",
        "db",
        "-n",
        &ns.0,
        "--from-literal=password=hunter2-old",
    ]);
    let m =
        Myops::new("name: myops\nverbs: [get, patch]\nresources: [secrets]\nscopes: [namespace]\n");
    let r = m.run(&[
        "patch",
        "secret",
        "db",
        "-n",
        &ns.0,
        "--type",
        "merge",
        "-p",
        r#"{"stringData":{"password":"hunter2-new"},"metadata":{"labels":{"rotated":"yes"}}}"#,
        "--diff",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    let log = std::fs::read_to_string(m.dir.path().join("myops/changelog.jsonl")).unwrap();
    for secret in ["hunter2", "aHVudGVyMi1vbGQ", "aHVudGVyMi1uZXc"] {
        assert!(
            !log.contains(secret),
            "{secret} leaked into the change log: {log}"
        );
        assert!(!r.stdout.contains(secret), "{secret} printed: {r:?}");
    }
    assert!(log.contains("<redacted>"), "{log}");
    // The diff shows that the value changed (comparing two redacted copies hid it), not what to.
    assert!(
        r.stdout
            .contains("  data.password: \"*** (before)\" → \"*** (after)\"\n"),
        "{r:?}"
    );
    assert!(
        r.stdout
            .contains("  + metadata.labels: {\"rotated\":\"yes\"}\n"),
        "{r:?}"
    );
    assert_eq!(
        kubectl(&[
            "get",
            "secret",
            "db",
            "-n",
            &ns.0,
            "-o",
            "jsonpath={.metadata.labels.rotated}"
        ]),
        "yes"
    );
}

#[test]
fn fifty_concurrent_patches_write_exactly_fifty_valid_lines() {
    let ns = Namespace::new("patch-50");
    deployment(&ns, "web");
    let m = Myops::standard(&ns.0);
    let children: Vec<_> = (0..50)
        .map(|i| {
            std::process::Command::new(env!("CARGO_BIN_EXE_kubectl-myops"))
                .args([
                    "patch",
                    "deploy",
                    "web",
                    "-n",
                    &ns.0,
                    "--type",
                    "merge",
                    "-p",
                    &format!(r#"{{"metadata":{{"annotations":{{"n{i}":"v"}}}}}}"#),
                ])
                .env_clear()
                .envs(m.env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    let codes: Vec<i32> = children
        .into_iter()
        .map(|c| c.wait_with_output().unwrap().status.code().unwrap_or(-1))
        .collect();
    let ok = codes.iter().filter(|c| **c == 0).count();
    let entries = journal(&m);
    assert_eq!(entries.len(), 50);
    assert_eq!(
        journal_lines(&m).len(),
        100,
        "an intent and an outcome record per patch"
    );
    assert_eq!(
        entries.iter().filter(|e| e["result"] == "success").count(),
        ok
    );
    let annotations =
        json_of(&["get", "deploy", "web", "-n", &ns.0, "-o", "json"])["metadata"]["annotations"]
            .as_object()
            .unwrap()
            .len();
    assert!(
        annotations >= ok,
        "{annotations} annotations for {ok} successful patches"
    );
}

/// The Deployment controller writes the object (status, revision annotation) right after a
/// patch; a write like that landing between the rollback's read and its restoring patch
/// failed the patch's resourceVersion `test` and the rollback said "changed since" (exit 5),
/// one run in six on the test cluster. A write that leaves every touched field as the patch
/// left it is read again and the restore tried again; a write to a touched field still
/// refuses.
#[test]
fn regression_rollback_refused_when_a_controller_wrote_between_its_read_and_its_patch() {
    let ns = Namespace::new("rollback-raced");
    deployment(&ns, "web");
    let m = Myops::standard(&ns.0);
    let original = json_of(&["get", "deploy", "web", "-n", &ns.0, "-o", "json"])["spec"].clone();
    let patch = |m: &Myops| {
        let r = m.run(&[
            "patch",
            "deploy",
            "web",
            "-n",
            &ns.0,
            "--type",
            "merge",
            "-p",
            r#"{"spec":{"replicas":4}}"#,
        ]);
        assert_eq!(r.code, 0, "{r:?}");
        journal(m).last().unwrap()["id"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let id = patch(&m);
    let r = m.held("before-restore", &["rollback", &id], || {
        kubectl(&[
            "annotate",
            "deploy",
            "web",
            "-n",
            &ns.0,
            "meanwhile=written",
        ]);
    });
    assert_eq!(r.code, 0, "an untouched field written meanwhile: {r:?}");
    let now = json_of(&["get", "deploy", "web", "-n", &ns.0, "-o", "json"]);
    assert_eq!(now["spec"], original, "spec restored exactly");
    assert_eq!(now["metadata"]["annotations"]["meanwhile"], "written");

    let id = patch(&m);
    let r = m.held("before-restore", &["rollback", &id], || {
        kubectl(&["scale", "deploy", "web", "-n", &ns.0, "--replicas=7"]);
    });
    assert_eq!(r.code, 5, "a touched field written meanwhile: {r:?}");
    assert!(r.stderr.contains("changed since"), "{r:?}");
    let now = json_of(&["get", "deploy", "web", "-n", &ns.0, "-o", "json"]);
    assert_eq!(now["spec"]["replicas"], 7, "the other writer's value stays");
}

#[test]
fn strategic_patch_of_a_custom_resource_gave_client_and_server_dry_runs_two_verdicts() {
    let ns = Namespace::new("patch-cr-dry");
    let m = Myops::standard(&ns.0);
    assert_eq!(
        m.run(&["crds", "sync", root().join("crds").to_str().unwrap()])
            .code,
        0
    );
    kubectl_apply(&format!(
        "apiVersion: example.com/v1\nkind: BackupJob\nmetadata: {{name: nightly, namespace: {}}}\nspec: {{schedule: '0 2 * * *', target: data-pvc}}\n",
        ns.0
    ));
    let before = kubectl(&["get", "bj", "nightly", "-n", &ns.0, "-o", "json"]);
    let verdict = |mode: &str| {
        let r = m.run(&[
            "patch",
            "bj",
            "nightly",
            "-n",
            &ns.0,
            "-p",
            r#"{"metadata":{"labels":{"x":"y"}}}"#,
            &format!("--dry-run={mode}"),
        ]);
        (r.code, r.stdout, r.stderr)
    };
    let one = (
        2,
        String::new(),
        "error: backupjobs.example.com does not support strategic merge patch (custom resources have no patch strategy); use --type merge or --type json\n".to_string(),
    );
    assert_eq!(verdict("client"), one);
    assert_eq!(verdict("server"), one);
    // kubectl refuses both too (locally, and with the server's 415).
    for mode in ["client", "server"] {
        let out = crate::fixture::kubectl_at(
            &crate::fixture::cluster().kubeconfig,
            &[
                "patch",
                "bj",
                "nightly",
                "-n",
                &ns.0,
                "-p",
                r#"{"metadata":{"labels":{"x":"y"}}}"#,
                &format!("--dry-run={mode}"),
            ],
        );
        assert_eq!(out.status.code(), Some(1), "{out:?}");
    }
    assert_eq!(
        kubectl(&["get", "bj", "nightly", "-n", &ns.0, "-o", "json"]),
        before
    );
    // A built-in type keeps its client verdict: computed by the server only.
    let r = m.run(&[
        "patch",
        "ns",
        &ns.0,
        "-p",
        r#"{"metadata":{"labels":{"x":"y"}}}"#,
        "--dry-run=client",
    ]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("needs the server's schema"), "{r:?}");
}
