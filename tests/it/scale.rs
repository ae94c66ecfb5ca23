//! Integration tests of `scale` against the real API server: kubectl 1.36's output for each
//! form (the oracle is the real kubectl, run on a twin Deployment), the request sent (a merge
//! patch of the `scale` subresource, reviewed as `patch` on it, seen in the audit log), the
//! journal entry and its rollback restoring the object exactly, and the bad inputs refused
//! before anything is sent: negative and huge replicas, a type without a scale subresource,
//! a change log that cannot be written, a field policy denying the replicas.

use serde_json::Value;

use crate::fixture::{
    Myops, Namespace, Run, audit_mark, audit_since, cluster, create_deployment, kubectl, text_of,
};

/// get and scale on Deployments and ConfigMaps (a ConfigMap has no scale subresource).
const PLUGIN: &str = "name: myops\nverbs: [get, patch, scale]\nresources: [deployments, configmaps]\nscopes: [namespace]\n";

fn myops() -> Myops {
    Myops::new(PLUGIN)
}

/// The real kubectl's run of `args`.
fn oracle(args: &[&str]) -> Run {
    let out = std::process::Command::new(crate::fixture::root().join("target/testbin/kubectl"))
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

/// kubectl's exit status 1 as this tool documents it: usage 2, not found 4, a precondition
/// that does not hold 5.
fn documented(kubectl: &Run, ours: &Run) -> bool {
    match (kubectl.code, ours.code) {
        (a, b) if a == b => true,
        (1, 2) => kubectl.stderr.starts_with("error: "),
        (1, 4) => kubectl.stderr.contains("(NotFound)"),
        (1, 5) => kubectl.stderr.starts_with("error: Expected "),
        _ => false,
    }
}

fn replicas(ns: &str, name: &str) -> i64 {
    kubectl(&[
        "get",
        "deployment",
        name,
        "-n",
        ns,
        "-o",
        "jsonpath={.spec.replicas}",
    ])
    .trim()
    .parse()
    .unwrap()
}

/// Whether an audit event is a request of kubectl-myops (its User-Agent), not of a
/// controller or of the test's own kubectl.
fn by_us(e: &Value) -> bool {
    e["userAgent"]
        .as_str()
        .is_some_and(|a| a.starts_with("kubectl-myops/"))
}

fn object(ns: &str, kind: &str, name: &str) -> Value {
    serde_json::from_str(&kubectl(&["get", kind, name, "-n", ns, "-o", "json"])).unwrap()
}

#[test]
fn each_form_prints_what_kubectl_prints_on_a_twin() {
    let ours_ns = Namespace::new("scale-parity-a");
    let theirs_ns = Namespace::new("scale-parity-b");
    let m = myops();
    for ns in [&ours_ns.0, &theirs_ns.0] {
        create_deployment(ns, "web");
        create_deployment(ns, "api");
    }
    let cases: Vec<Vec<&str>> = vec![
        vec!["scale", "deployment", "web", "--replicas=3"],
        vec!["scale", "deploy/web", "--replicas=4", "--dry-run=server"],
        vec!["scale", "deploy/web", "--replicas=4", "--dry-run=client"],
        vec!["scale", "deployment", "web", "--replicas=1", "-o", "name"],
        vec![
            "scale",
            "deployment",
            "web",
            "--current-replicas=5",
            "--replicas=2",
        ],
        vec![
            "scale",
            "deployment",
            "web",
            "--current-replicas=1",
            "--replicas=2",
        ],
        vec!["scale", "deploy/web", "deploy/api", "--replicas=1"],
        vec!["scale", "deployment", "web", "api", "--replicas=3"],
        vec!["scale", "deployments", "-l", "app=web", "--replicas=2"],
        vec!["scale", "deployments", "--all", "--replicas=0"],
        vec!["scale", "deployment", "--replicas=2"],
        vec!["scale", "deployment", "web", "--replicas=-1"],
        vec![
            "scale",
            "deployment",
            "web",
            "--current-replicas=-2",
            "--replicas=1",
        ],
        vec!["scale", "deployment", "nothere", "--replicas=2"],
        vec!["scale", "deployment", "web", "--all", "--replicas=2"],
        vec![
            "scale",
            "deploy/web",
            "deploy/api",
            "--replicas=1",
            "--resource-version=1",
        ],
    ];
    let mut compared = Vec::new();
    for case in cases {
        let mut theirs_args = case.clone();
        theirs_args.extend(["-n", theirs_ns.0.as_str()]);
        let mut ours_args = case.clone();
        ours_args.extend(["-n", ours_ns.0.as_str()]);
        let theirs = oracle(&theirs_args);
        let ours = m.run(&ours_args);
        let ours_out = ours.stdout.replace(&ours_ns.0, &theirs_ns.0);
        let ours_err = ours.stderr.replace(&ours_ns.0, &theirs_ns.0);
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
        for d in ["web", "api"] {
            assert_eq!(
                replicas(&ours_ns.0, d),
                replicas(&theirs_ns.0, d),
                "{d} after {case:?}"
            );
        }
        compared.push((case.join(" "), theirs.code, ours.code));
    }
    assert_eq!(compared.len(), 16);
    // The parity table (`cargo test … -- --nocapture` shows it): command, kubectl's exit, ours.
    for (line, theirs, ours) in &compared {
        eprintln!("parity\t{theirs}\t{ours}\tkubectl {line}");
    }
}

#[test]
fn a_scale_is_one_reviewed_patch_of_the_subresource_and_its_rollback_restores_the_object() {
    let ns = Namespace::new("scale-rollback");
    create_deployment(&ns.0, "web");
    let m = myops();
    let before = object(&ns.0, "deployment", "web");
    let mark = audit_mark();
    let r = m.run(&["scale", "deployment", "web", "--replicas=5", "-n", &ns.0]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stdout, "deployment.apps/web scaled\n");
    assert_eq!(replicas(&ns.0, "web"), 5);
    let events = audit_since(mark);
    let ours = |e: &&Value| {
        e["userAgent"]
            .as_str()
            .is_some_and(|u| u.contains("kubectl-myops"))
            && e["objectRef"]["namespace"] == ns.0.as_str()
    };
    // The one write is a patch of deployments/scale (what kubectl 1.36 sends without a
    // precondition).
    let writes: Vec<(String, String)> = events
        .iter()
        .filter(ours)
        .filter(|e| e["stage"] == "ResponseComplete" && e["objectRef"]["resource"] == "deployments")
        .filter(|e| !matches!(e["verb"].as_str(), Some("get" | "list" | "watch")))
        .map(|e| {
            (
                e["verb"].as_str().unwrap_or("").to_string(),
                e["objectRef"]["subresource"]
                    .as_str()
                    .unwrap_or("")
                    .to_string(),
            )
        })
        .collect();
    assert_eq!(writes, vec![("patch".to_string(), "scale".to_string())]);
    let entry = m.latest_records().pop().unwrap();
    assert_eq!(entry["operation"], "scale");
    assert_eq!(entry["result"], "success");
    assert_eq!(entry["patch"], serde_json::json!({"spec": {"replicas": 5}}));
    assert_eq!(entry["patchType"], "merge");
    assert_eq!(entry["before"]["spec"]["replicas"], 2);
    assert_eq!(entry["after"]["spec"]["replicas"], 5);
    // One metric observation under verb scale, resource deployments.apps.
    let state: Value = serde_json::from_str(
        &std::fs::read_to_string(m.dir.path().join("myops/metrics-state.json")).unwrap(),
    )
    .unwrap();
    assert!(
        state["ops"]
            .as_array()
            .unwrap()
            .iter()
            .any(|o| o["verb"] == "scale"
                && o["resource"] == "deployments.apps"
                && o["status"] == "success"),
        "{state:#}"
    );
    // The controller writes the status after the scale: the rollback still restores.
    std::thread::sleep(std::time::Duration::from_secs(1));
    let id = entry["id"].as_str().unwrap();
    let r = m.run(&["rollback", id]);
    assert_eq!(r.code, 0, "{r:?}");
    let now = object(&ns.0, "deployment", "web");
    assert_eq!(
        now["spec"], before["spec"],
        "the spec is the before-state's"
    );
    assert_eq!(now["metadata"]["labels"], before["metadata"]["labels"]);
    let last = m.latest_records().pop().unwrap();
    assert_eq!(last["operation"], "rollback");
    assert_eq!(last["result"], "success");
    // The rollback's patch tests the resourceVersion it read (the test holds: success).
    assert_eq!(last["patch"][0]["op"], "test");
    assert_eq!(last["patch"][0]["path"], "/metadata/resourceVersion");
}

#[test]
fn the_review_asks_for_patch_on_the_scale_subresource() {
    let ns = Namespace::new("scale-rbac");
    create_deployment(&ns.0, "web");
    // alice may patch the Deployment itself, not its scale subresource.
    ns.grant("alice", "get,list,patch", "deployments.apps");
    let m = myops();
    let r = m.run(&[
        "--context",
        "alice",
        "scale",
        "deployment",
        "web",
        "--replicas=4",
        "-n",
        &ns.0,
    ]);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(r.stderr.contains("\"alice\" cannot patch"), "{r:?}");
    assert!(r.stderr.contains("scale"), "{r:?}");
    assert_eq!(replicas(&ns.0, "web"), 2);
    let denied = m.latest_records().pop().unwrap();
    assert_eq!(denied["operation"], "scale");
    assert_eq!(denied["result"], "denied");
    kubectl(&[
        "create",
        "role",
        "alice-scale",
        "-n",
        &ns.0,
        "--verb=patch",
        "--resource=deployments.apps/scale",
    ]);
    kubectl(&[
        "create",
        "rolebinding",
        "alice-scale",
        "-n",
        &ns.0,
        "--role=alice-scale",
        "--user=alice",
    ]);
    let r = m.run(&[
        "--context",
        "alice",
        "scale",
        "deployment",
        "web",
        "--replicas=4",
        "-n",
        &ns.0,
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(replicas(&ns.0, "web"), 4);
}

#[test]
fn negative_huge_and_unscalable_are_refused_before_anything_is_sent() {
    let ns = Namespace::new("scale-bad");
    create_deployment(&ns.0, "web");
    kubectl(&[
        "create",
        "configmap",
        "c1",
        "-n",
        &ns.0,
        "--from-literal=k=v",
    ]);
    let m = myops();
    let mark = audit_mark();
    let r = m.run(&["scale", "deployment", "web", "--replicas=-3", "-n", &ns.0]);
    assert_eq!(r.code, 2, "{r:?}");
    assert_eq!(
        r.stderr,
        "error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0\n"
    );
    let r = m.run(&[
        "scale",
        "deployment",
        "web",
        "--replicas=99999999999",
        "-n",
        &ns.0,
    ]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("at most 2147483647"), "{r:?}");
    let r = m.run(&["scale", "configmap", "c1", "--replicas=1", "-n", &ns.0]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr
            .starts_with("error: configmaps has no scale subresource, so it cannot be scaled"),
        "{r:?}"
    );
    let sent: Vec<Value> = audit_since(mark)
        .into_iter()
        .filter(|e| e["objectRef"]["namespace"] == ns.0.as_str() && by_us(e))
        .collect();
    assert!(
        sent.is_empty(),
        "nothing about the objects was sent: {sent:#?}"
    );
    assert!(m.records().is_empty(), "nothing journaled");
    assert_eq!(replicas(&ns.0, "web"), 2);
}

#[test]
fn an_unwritable_change_log_scales_nothing() {
    let ns = Namespace::new("scale-nolog");
    create_deployment(&ns.0, "web");
    let mut m = myops();
    let bad = m.dir.path().join("log-is-a-directory");
    std::fs::create_dir_all(bad.join("changelog.jsonl")).unwrap();
    m.set_env("MYOPS_HOME", &bad.display().to_string());
    let mark = audit_mark();
    let r = m.run(&["scale", "deployment", "web", "--replicas=4", "-n", &ns.0]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("nothing was sent"), "{r:?}");
    assert!(
        audit_since(mark)
            .iter()
            .all(|e| e["objectRef"]["namespace"] != ns.0.as_str() || !by_us(e)),
        "no request about the object"
    );
    assert_eq!(replicas(&ns.0, "web"), 2);
}

#[test]
fn a_field_policy_denying_the_replicas_refuses_the_scale_and_changes_nothing() {
    let ns = Namespace::new("scale-policy");
    create_deployment(&ns.0, "web");
    // The controller manager's first status writes would make the judged dry run a 409 (its
    // resourceVersion precondition) one run in a few: wait until they are done.
    crate::fixture::settled(&ns.0, "deployment", "web");
    let m = Myops::new(&format!(
        "{PLUGIN}policies:\n- resource: deployments.apps\n  deny: [/spec/replicas]\n  message: replicas are set by the autoscaler\n"
    ));
    let r = m.run(&["scale", "deployment", "web", "--replicas=4", "-n", &ns.0]);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(
        r.stderr.contains("the scale would change /spec/replicas"),
        "{r:?}"
    );
    assert!(
        r.stderr.contains("replicas are set by the autoscaler"),
        "{r:?}"
    );
    assert_eq!(replicas(&ns.0, "web"), 2);
    let last = m.latest_records().pop().unwrap();
    assert_eq!(last["operation"], "scale");
    assert!(
        last["result"]
            .as_str()
            .unwrap()
            .starts_with("denied by field policy"),
        "{last:#}"
    );
}

/// The resourceVersion of a Deployment once its controller stopped writing it (unchanged
/// for a second).
fn settled_rv(ns: &str, name: &str) -> String {
    let rv = || {
        object(ns, "deployment", name)["metadata"]["resourceVersion"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let mut last = rv();
    for _ in 0..30 {
        std::thread::sleep(std::time::Duration::from_secs(1));
        let now = rv();
        if now == last {
            return now;
        }
        last = now;
    }
    panic!("deployment {name} kept changing");
}

#[test]
fn preconditions_refuse_a_changed_object_with_exit_5() {
    let ns = Namespace::new("scale-pre");
    create_deployment(&ns.0, "web");
    let m = myops();
    let rv = settled_rv(&ns.0, "web");
    let r = m.run(&[
        "scale",
        "deployment",
        "web",
        "--replicas=3",
        "--resource-version=1",
        "-n",
        &ns.0,
    ]);
    assert_eq!(r.code, 5, "{r:?}");
    assert_eq!(
        r.stderr,
        format!("error: Expected resource version to be 1, was {rv}\n")
    );
    let r = m.run(&[
        "scale",
        "deployment",
        "web",
        "--replicas=3",
        &format!("--resource-version={rv}"),
        "-n",
        &ns.0,
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(replicas(&ns.0, "web"), 3);
    let entry = m.latest_records().pop().unwrap();
    assert_eq!(entry["patch"]["metadata"]["resourceVersion"], rv.as_str());
}

#[test]
fn a_scale_over_two_contexts_stops_after_a_failed_canary() {
    use crate::fleet::{TwoNamespaces, kubectl_in};
    let ns = TwoNamespaces::new("scale-fleet");
    // The deployment exists on the first server only: the canary (admin-2) fails first.
    kubectl_in(
        "admin",
        &[
            "create",
            "deployment",
            "web",
            "-n",
            &ns.0,
            "--image=x.invalid/web:1",
            "--replicas=2",
        ],
    );
    let m = myops();
    let r = m.run(&[
        "scale",
        "deployment",
        "web",
        "--replicas=3",
        "-n",
        &ns.0,
        "--contexts",
        "admin-2,admin",
    ]);
    assert_eq!(r.code, 4, "{r:?}");
    assert!(
        r.stderr
            .contains("scale stopped after a failure; not attempted (nothing was sent): admin"),
        "{r:?}"
    );
    assert_eq!(replicas(&ns.0, "web"), 2, "admin was not attempted");
    let r = m.run(&[
        "scale",
        "deployment",
        "web",
        "--replicas=3",
        "-n",
        &ns.0,
        "--contexts",
        "admin",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stdout, "admin\tdeployment.apps/web scaled\n");
    assert_eq!(replicas(&ns.0, "web"), 3);
}

#[test]
fn timeout_waits_for_the_status_and_times_out_as_kubectl_where_no_controller_runs() {
    use crate::fleet::{TwoNamespaces, kubectl_in};
    let ns = TwoNamespaces::new("scale-wait");
    for name in ["web", "twin"] {
        for ctx in ["admin", "admin-2"] {
            kubectl_in(
                ctx,
                &[
                    "create",
                    "deployment",
                    name,
                    "-n",
                    &ns.0,
                    "--image=x.invalid/w:1",
                    "--replicas=1",
                ],
            );
        }
    }
    let m = myops();
    // The first server runs the deployment controller: the status follows.
    let r = m.run(&[
        "scale",
        "deploy/web",
        "--replicas=3",
        "--timeout=60s",
        "-n",
        &ns.0,
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    let status = kubectl(&[
        "get",
        "deploy",
        "web",
        "-n",
        &ns.0,
        "-o",
        "jsonpath={.status.replicas}",
    ]);
    assert_eq!(status, "3");
    // The second has no controller manager: kubectl and we time out alike.
    // On a loaded machine kubectl's own 2 s can pass in its client rate limiter before it
    // sends anything (a CI run saw "client rate limiter Wait … would exceed context
    // deadline"): that run says nothing about the timeout being compared, so ask again.
    let twin = || {
        oracle(&[
            "--context",
            "admin-2",
            "scale",
            "deploy/twin",
            "--replicas=2",
            "--timeout=2s",
            "-n",
            &ns.0,
        ])
    };
    let mut theirs = twin();
    for _ in 0..3 {
        if !theirs.stderr.contains("client rate limiter") {
            break;
        }
        theirs = twin();
    }
    let ours = m.run(&[
        "--context",
        "admin-2",
        "scale",
        "deploy/web",
        "--replicas=2",
        "--timeout=2s",
        "-n",
        &ns.0,
    ]);
    assert_eq!(theirs.code, 1, "{theirs:?}");
    assert_eq!(ours.code, 1, "{ours:?}");
    assert_eq!(ours.stdout, "deployment.apps/web scaled\n");
    assert_eq!(
        ours.stderr,
        theirs.stderr.replace("twin", "web"),
        "{ours:?} / {theirs:?}"
    );
}
