//! Fan-out over contexts (issue 13, item 2) against the two real apiservers of the test
//! cluster: contexts admin/alice/bob on the first, admin-2/alice-2/bob-2 on the second.

use std::path::PathBuf;

use crate::fixture::{Myops, Run, cluster, cluster_var, free_port, kubectl, kubectl_at, text_of};

/// A CRD whose table has no AGE column (only NAME and SIZE), so a table printed by kubectl
/// a moment earlier is byte-for-byte comparable.
const WIDGET_CRD: &str = "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: fleetwidgets.fleet.myops.test
spec:
  group: fleet.myops.test
  scope: Namespaced
  names: {plural: fleetwidgets, singular: fleetwidget, kind: FleetWidget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, properties: {size: {type: string}}}
    additionalPrinterColumns:
    - {name: Size, type: string, jsonPath: .spec.size}
";

pub fn plugin() -> Myops {
    Myops::new(
        "name: myops\nverbs: [get, patch]\nresources: [configmaps, namespaces, fleetwidgets.fleet.myops.test, customresourcedefinitions]\nscopes: [namespace, cluster]\nmetrics: [ops_total]\n",
    )
}

/// kubectl as admin in `context` (`admin` or `admin-2`).
pub fn kubectl_in(context: &str, args: &[&str]) -> String {
    let mut all = vec!["--context", context];
    all.extend_from_slice(args);
    kubectl(&all)
}

fn apply_in(context: &str, yaml: &str) {
    let out = crate::fixture::kubectl_stdin(&["--context", context, "apply", "-f", "-"], yaml);
    assert!(out.status.success(), "apply: {}", text_of(&out.stderr));
}

/// The widget CRD on both servers, Established.
fn widgets_served() {
    for ctx in ["admin", "admin-2"] {
        apply_in(ctx, WIDGET_CRD);
        let end = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while kubectl_in(
            ctx,
            &[
                "get",
                "crd",
                "fleetwidgets.fleet.myops.test",
                "-o",
                "jsonpath={.status.conditions[?(@.type==\"Established\")].status}",
            ],
        ) != "True"
        {
            assert!(
                std::time::Instant::now() < end,
                "CRD not Established in {ctx}"
            );
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    }
}

/// The same namespace on both servers, deleted from both when dropped.
pub struct TwoNamespaces(pub String);

impl TwoNamespaces {
    pub fn new(test: &str) -> TwoNamespaces {
        let suffix = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .subsec_nanos()
            % 100_000;
        let name = format!("t-{}-{suffix}", test.replace('_', "-"));
        for ctx in ["admin", "admin-2"] {
            kubectl_in(ctx, &["create", "namespace", &name]);
        }
        // Only the first server runs a controller manager: kube-root-ca.crt is there only.
        crate::fixture::wait_for_namespace_controllers(&name);
        TwoNamespaces(name)
    }
}

impl TwoNamespaces {
    /// ConfigMap `w` with `k=v1` in the namespace on both servers.
    pub fn configmap_w(&self) {
        for ctx in ["admin", "admin-2"] {
            kubectl_in(
                ctx,
                &[
                    "create",
                    "configmap",
                    "w",
                    "-n",
                    &self.0,
                    "--from-literal=k=v1",
                ],
            );
        }
    }
}

impl Drop for TwoNamespaces {
    fn drop(&mut self) {
        for ctx in ["admin", "admin-2"] {
            let _ = kubectl_at(
                &cluster().kubeconfig,
                &[
                    "--context",
                    ctx,
                    "delete",
                    "namespace",
                    &self.0,
                    "--wait=false",
                ],
            );
        }
    }
}

pub fn audit_log_2() -> PathBuf {
    PathBuf::from(cluster_var("MYOPS_TEST_AUDIT_LOG_2"))
}

pub fn log_len(p: &PathBuf) -> u64 {
    std::fs::metadata(p).map(|m| m.len()).unwrap_or(0)
}

pub fn events_since(p: &PathBuf, mark: u64) -> Vec<serde_json::Value> {
    let bytes = std::fs::read(p).unwrap();
    text_of(&bytes[(mark as usize).min(bytes.len())..])
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

fn patches_in(events: &[serde_json::Value], ns: &str) -> usize {
    events
        .iter()
        .filter(|e| {
            e["verb"] == "patch"
                && e["objectRef"]["namespace"] == ns
                && e["userAgent"]
                    .as_str()
                    .is_some_and(|a| a.starts_with("kubectl-myops/"))
        })
        .count()
}

pub fn summary_lines(r: &Run) -> Vec<&str> {
    r.stderr
        .lines()
        .filter(|l| l.starts_with("error: context "))
        .collect()
}

#[test]
fn get_over_two_clusters_prints_one_table_aligned_across_them_with_a_context_column() {
    widgets_served();
    let ns = TwoNamespaces::new("fleet-table");
    apply_in(
        "admin",
        &format!(
            "apiVersion: fleet.myops.test/v1\nkind: FleetWidget\nmetadata: {{name: a, namespace: {}}}\nspec: {{size: small}}\n",
            ns.0
        ),
    );
    apply_in(
        "admin-2",
        &format!(
            "apiVersion: fleet.myops.test/v1\nkind: FleetWidget\nmetadata: {{name: a-much-longer-name, namespace: {0}}}\nspec: {{size: extra-extra-large}}\n---\napiVersion: fleet.myops.test/v1\nkind: FleetWidget\nmetadata: {{name: b, namespace: {0}}}\nspec: {{size: m}}\n",
            ns.0
        ),
    );
    let m = plugin();
    let r = m.run(&[
        "get",
        "fleetwidgets",
        "-n",
        &ns.0,
        "--contexts",
        "admin,admin-2",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    // What kubectl prints per context, cells re-laid out once with the CONTEXT column.
    let mut lines = vec![vec![
        "CONTEXT".to_string(),
        "NAME".to_string(),
        "SIZE".to_string(),
    ]];
    for ctx in ["admin", "admin-2"] {
        let text = kubectl_in(ctx, &["get", "fleetwidgets", "-n", &ns.0]);
        let mut it = text.lines();
        assert_eq!(
            it.next().unwrap().split_whitespace().collect::<Vec<_>>(),
            ["NAME", "SIZE"]
        );
        for l in it {
            let mut row = vec![ctx.to_string()];
            row.extend(l.split_whitespace().map(str::to_string));
            lines.push(row);
        }
    }
    let expected = myops::output::custom_columns::tabwriter(&lines);
    assert_eq!(r.stdout, expected);
    assert_eq!(
        r.stdout,
        "CONTEXT   NAME                 SIZE\n\
         admin     a                    small\n\
         admin-2   a-much-longer-name   extra-extra-large\n\
         admin-2   b                    m\n"
    );
    assert_eq!(r.stderr, "");

    // -o json: one List, the context on each item.
    let r = m.run(&[
        "get",
        "fleetwidgets",
        "-n",
        &ns.0,
        "--contexts",
        "admin,admin-2",
        "-o",
        "json",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["kind"], "List");
    let seen: Vec<(String, String)> = v["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["metadata"]["annotations"]["kubectl-myops/context"]
                    .as_str()
                    .unwrap()
                    .to_string(),
                i["metadata"]["name"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            ("admin".to_string(), "a".to_string()),
            ("admin-2".into(), "a-much-longer-name".into()),
            ("admin-2".into(), "b".into())
        ]
    );

    // -o name: context, tab, kind/name.
    let r = m.run(&[
        "get",
        "fleetwidgets",
        "-n",
        &ns.0,
        "--contexts",
        "admin-2,admin",
        "-o",
        "name",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        r.stdout,
        "admin-2\tfleetwidget.fleet.myops.test/a-much-longer-name\nadmin-2\tfleetwidget.fleet.myops.test/b\nadmin\tfleetwidget.fleet.myops.test/a\n"
    );

    // custom columns get the CONTEXT column too.
    let r = m.run(&[
        "get",
        "fleetwidgets",
        "-n",
        &ns.0,
        "--contexts",
        "admin*",
        "-o",
        "custom-columns=N:.metadata.name",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        r.stdout,
        "CONTEXT   N\nadmin     a\nadmin-2   a-much-longer-name\nadmin-2   b\n"
    );
}

#[test]
fn a_context_rbac_denies_does_not_hide_the_others_rows_and_exits_3_with_one_summary_line() {
    let ns = TwoNamespaces::new("fleet-denied");
    kubectl_in("admin", &["create", "configmap", "here", "-n", &ns.0]);
    let r = plugin().run(&[
        "get",
        "configmaps",
        "-n",
        &ns.0,
        "--contexts",
        "alice-2,admin",
        "-o",
        "name",
    ]);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(r.stdout.contains("admin\tconfigmap/here\n"), "{r:?}");
    assert!(!r.stdout.contains("alice-2"), "{r:?}");
    let summary = summary_lines(&r);
    assert_eq!(summary.len(), 1, "{r:?}");
    assert!(
        summary[0].starts_with(
            "error: context alice-2: forbidden: user \"alice\" cannot list configmaps"
        ),
        "{r:?}"
    );
    assert!(summary[0].ends_with("(exit 3)"), "{r:?}");
}

#[test]
fn an_unreachable_context_is_exit_1_and_the_others_still_print() {
    let dir = tempfile::tempdir().unwrap();
    let kc = dir.path().join("kubeconfig");
    std::fs::copy(&cluster().kubeconfig, &kc).unwrap();
    let port = free_port();
    for args in [
        vec![
            "config".to_string(),
            "set-cluster".into(),
            "dead".into(),
            format!("--server=https://127.0.0.1:{port}"),
            "--insecure-skip-tls-verify=true".into(),
        ],
        vec![
            "config".into(),
            "set-context".into(),
            "dead".into(),
            "--cluster=dead".into(),
            "--user=admin".into(),
        ],
    ] {
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = kubectl_at(&kc, &a);
        assert!(out.status.success(), "{}", text_of(&out.stderr));
    }
    let mut m = plugin();
    m.set_env("KUBECONFIG", &kc.display().to_string());
    let r = m.run(&[
        "get",
        "namespaces",
        "default",
        "--contexts",
        "dead,admin",
        "-o",
        "name",
        "--request-timeout",
        "5s",
    ]);
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(r.stdout, "admin\tnamespace/default\n");
    let summary = summary_lines(&r);
    assert_eq!(summary.len(), 1, "{r:?}");
    assert!(summary[0].starts_with("error: context dead: "), "{r:?}");
    assert!(summary[0].contains(&port.to_string()), "{r:?}");
}

#[test]
fn globs_and_all_contexts_select_from_the_kubeconfig() {
    let m = plugin();
    let r = m.run(&[
        "get",
        "namespaces",
        "default",
        "--contexts",
        "admin*",
        "-o",
        "name",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        r.stdout,
        "admin\tnamespace/default\nadmin-2\tnamespace/default\n"
    );
    // One observation per context, recorded together.
    let shown = m.run(&["metrics", "show"]);
    assert_eq!(
        shown.stdout,
        "VERB   RESOURCE     STATUS    COUNT   MEAN-SECONDS\nget    namespaces   success   2       "
            .to_string() + shown.stdout.rsplit("   ").next().unwrap(),
        "{shown:?}"
    );
    let r = m.run(&[
        "get",
        "namespaces",
        "default",
        "--all-contexts",
        "-o",
        "name",
    ]);
    // alice, bob, alice-2 and bob-2 have no binding: denied, exit 3, one line each.
    assert_eq!(r.code, 3, "{r:?}");
    assert!(r.stdout.starts_with("admin\tnamespace/default\n"), "{r:?}");
    assert!(r.stdout.contains("admin-2\tnamespace/default\n"), "{r:?}");
    let failed: Vec<&str> = summary_lines(&r)
        .iter()
        .map(|l| l.split(':').nth(1).unwrap().trim_start_matches(" context "))
        .collect();
    for want in ["alice", "bob", "alice-2", "bob-2"] {
        assert!(failed.contains(&want), "{want} not in {failed:?}");
    }
}

#[test]
fn fan_out_flags_are_exclusive_with_context_and_refused_where_they_do_not_apply() {
    let m = plugin();
    for args in [
        &["get", "ns", "--context", "admin", "--contexts", "admin"][..],
        &["get", "ns", "--context", "admin", "--all-contexts"],
        &["get", "ns", "--contexts", "admin", "--all-contexts"],
    ] {
        let r = m.run(args);
        assert_eq!(r.code, 2, "{args:?}: {r:?}");
        assert!(r.stderr.contains("cannot be used with"), "{r:?}");
        assert_eq!(r.stderr.lines().count(), 1, "{r:?}");
    }
    let r = m.run(&["version", "--all-contexts"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert_eq!(
        r.stderr,
        "error: --contexts and --all-contexts apply to get, patch, delete, apply, scale, label, annotate, rollout restart, rollout undo, auth can-i, auth matrix and crds sync only; use --context NAME for this command\n"
    );
    let r = m.run(&["get", "ns", "-w", "--contexts", "admin"]);
    assert_eq!(r.code, 2, "{r:?}");
    let r = m.run(&["get", "ns", "--contexts", "admin,nope-*"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr
            .starts_with("error: --contexts: \"nope-*\" matches no context"),
        "{r:?}"
    );
    assert_eq!(r.stdout, "");
    let r = m.run(&["get", "ns", "--max-parallel", "0", "--contexts", "admin"]);
    assert_eq!(r.code, 2, "{r:?}");
}

#[test]
fn server_and_credential_flags_sent_one_contexts_token_to_another_server_under_a_fan_out() {
    // `--cluster test` over admin,admin-2 used to send admin-2's token to the first server
    // (401 there); `--token`/`--user` would put one identity on every server. Refused.
    let m = plugin();
    for (flag, value) in [
        ("--cluster", "test"),
        ("--server", "https://127.0.0.1:1"),
        ("--user", "admin"),
        ("--token", "not-a-real-token-0123"),
    ] {
        let r = m.run(&[
            "get",
            "ns",
            "default",
            "--contexts",
            "admin,admin-2",
            flag,
            value,
        ]);
        assert_eq!(r.code, 2, "{flag}: {r:?}");
        assert_eq!(
            r.stderr,
            format!(
                "error: {flag} pins one server or identity for every context; with --contexts or --all-contexts each context uses its own cluster and user from the kubeconfig — drop it, or use --context for one context\n"
            )
        );
        assert!(!r.stderr.contains("not-a-real-token"));
    }
    // What does apply to every context still works: -n, --as, --request-timeout.
    let r = m.run(&[
        "get",
        "ns",
        "default",
        "--contexts",
        "admin,admin-2",
        "-o",
        "name",
        "--as",
        "admin",
        "--as-group",
        "system:masters",
        "--request-timeout",
        "10s",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        r.stdout,
        "admin\tnamespace/default\nadmin-2\tnamespace/default\n"
    );
    // --canary without a fan-out is refused like --max-parallel, not ignored.
    let r = m.run(&["patch", "configmap", "x", "-p", "{}", "--canary", "2"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert_eq!(
        r.stderr,
        "error: --canary applies with --contexts or --all-contexts only (one context is one wave)\n"
    );
}

#[test]
fn patch_canary_failure_stops_the_later_waves_and_nothing_is_sent_to_them() {
    let ns = TwoNamespaces::new("fleet-canary");
    ns.configmap_w();
    let (log1, log2) = (cluster().audit_log.clone(), audit_log_2());
    let (m1, m2) = (log_len(&log1), log_len(&log2));
    let m = plugin();
    // alice-2 (no binding) is the canary: denied, so admin and admin-2 are never patched.
    let r = m.run(&[
        "patch",
        "configmap",
        "w",
        "-n",
        &ns.0,
        "--type",
        "merge",
        "-p",
        "{\"data\":{\"k\":\"v2\"}}",
        "--contexts",
        "alice-2,admin,admin-2",
    ]);
    assert_eq!(r.code, 3, "{r:?}");
    assert_eq!(r.stdout, "");
    assert!(
        r.stderr.contains(
            "error: patch stopped after a failure; not attempted (nothing was sent): admin, admin-2\n"
        ),
        "{r:?}"
    );
    assert_eq!(summary_lines(&r).len(), 1, "{r:?}");
    assert!(
        !r.stderr.contains("rollback --session"),
        "nothing was patched: {r:?}"
    );
    // The audit logs of both servers: no patch, and no request at all from the later waves.
    let (e1, e2) = (events_since(&log1, m1), events_since(&log2, m2));
    assert_eq!(patches_in(&e1, &ns.0) + patches_in(&e2, &ns.0), 0);
    // The denial was journaled under the invocation's session id, which every request of
    // the invocation carries in its User-Agent.
    let log = std::fs::read_to_string(m.dir.path().join("myops/changelog.jsonl")).unwrap();
    let first: serde_json::Value = serde_json::from_str(log.lines().next().unwrap()).unwrap();
    assert_eq!(first["context"], "alice-2");
    let ua = format!("session/{}", first["session"].as_str().unwrap());
    let of_session = |events: &[serde_json::Value]| -> Vec<String> {
        events
            .iter()
            .filter(|e| e["userAgent"].as_str().is_some_and(|a| a.ends_with(&ua)))
            .map(|e| e["user"]["username"].as_str().unwrap_or("").to_string())
            .collect()
    };
    assert_eq!(
        of_session(&e1),
        Vec::<String>::new(),
        "server 1 (admin, wave 2) got requests"
    );
    let users2 = of_session(&e2);
    assert!(!users2.is_empty(), "the canary asked its review");
    assert!(
        users2.iter().all(|u| u == "alice"),
        "only the canary (user alice on server 2) sent requests: {users2:?}"
    );
    for ctx in ["admin", "admin-2"] {
        assert_eq!(
            kubectl_in(
                ctx,
                &["get", "cm", "w", "-n", &ns.0, "-o", "jsonpath={.data.k}"]
            ),
            "v1"
        );
    }
}

#[test]
fn patch_over_contexts_journals_every_entry_under_one_session_id() {
    let ns = TwoNamespaces::new("fleet-session");
    ns.configmap_w();
    let m = plugin();
    let r = m.run(&[
        "patch",
        "configmap",
        "w",
        "-n",
        &ns.0,
        "--type",
        "merge",
        "-p",
        "{\"data\":{\"k\":\"v2\"}}",
        "--contexts",
        "admin,admin-2",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        r.stdout,
        "admin\tconfigmap/w patched\nadmin-2\tconfigmap/w patched\n"
    );
    for ctx in ["admin", "admin-2"] {
        assert_eq!(
            kubectl_in(
                ctx,
                &["get", "cm", "w", "-n", &ns.0, "-o", "jsonpath={.data.k}"]
            ),
            "v2"
        );
    }
    let log = std::fs::read_to_string(m.dir.path().join("myops/changelog.jsonl")).unwrap();
    let records: Vec<serde_json::Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 4, "intent + outcome per context: {log}");
    let sessions: std::collections::BTreeSet<&str> = records
        .iter()
        .map(|r| r["session"].as_str().unwrap())
        .collect();
    assert_eq!(sessions.len(), 1, "{sessions:?}");
    let contexts: std::collections::BTreeSet<&str> = records
        .iter()
        .map(|r| r["context"].as_str().unwrap())
        .collect();
    assert_eq!(contexts, ["admin", "admin-2"].into());
    let ids: std::collections::BTreeSet<&str> =
        records.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), 2, "one entry per context");
}

#[test]
fn auth_can_i_and_matrix_fan_out() {
    let ns = TwoNamespaces::new("fleet-auth");
    let m = plugin();
    let r = m.run(&[
        "auth",
        "can-i",
        "list",
        "configmaps",
        "-n",
        &ns.0,
        "--contexts",
        "admin,alice,admin-2",
    ]);
    assert_eq!(r.code, 3, "{r:?}");
    assert_eq!(r.stdout, "admin\tyes\nalice\tno\nadmin-2\tyes\n");
    assert_eq!(
        summary_lines(&r),
        ["error: context alice: the answer is no (exit 3)"]
    );
    let r = m.run(&["auth", "matrix", "-n", &ns.0, "--contexts", "admin-2,bob"]);
    assert_eq!(r.code, 0, "{r:?}");
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert!(lines[0].starts_with("CONTEXT   RESOURCE "), "{}", r.stdout);
    assert!(
        lines.iter().any(|l| l.starts_with("admin-2   configmaps ")
            && l.split_whitespace().collect::<Vec<_>>()[2..6] == ["yes", "yes", "yes", "yes"]),
        "{}",
        r.stdout
    );
    assert!(
        lines.iter().any(|l| l.starts_with("bob       configmaps ")
            && l.split_whitespace().collect::<Vec<_>>()[2..6] == ["no", "no", "no", "no"]),
        "{}",
        r.stdout
    );
}

#[test]
fn crds_sync_fan_out_applies_in_each_context() {
    let dir = tempfile::tempdir().unwrap();
    let name = format!("fleetsyncs{}.fleet.myops.test", std::process::id());
    let plural = name.split('.').next().unwrap().to_string();
    std::fs::write(
        dir.path().join("crd.yaml"),
        WIDGET_CRD
            .replace("fleetwidgets.fleet.myops.test", &name)
            .replace("plural: fleetwidgets", &format!("plural: {plural}"))
            .replace(
                "singular: fleetwidget",
                &format!("singular: {}", plural.trim_end_matches('s')),
            )
            .replace("kind: FleetWidget", "kind: FleetSync"),
    )
    .unwrap();
    let m = plugin();
    let r = m.run(&[
        "crds",
        "sync",
        &dir.path().display().to_string(),
        "--contexts",
        "admin,admin-2",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        r.stdout,
        format!(
            "admin\tcustomresourcedefinition.apiextensions.k8s.io/{name} registered (v1)\nadmin-2\tcustomresourcedefinition.apiextensions.k8s.io/{name} registered (v1)\n"
        )
    );
    for ctx in ["admin", "admin-2"] {
        assert_eq!(
            kubectl_in(
                ctx,
                &["get", "crd", &name, "-o", "jsonpath={.metadata.name}"]
            ),
            name
        );
        kubectl_in(ctx, &["delete", "crd", &name, "--wait=false"]);
    }
}

#[test]
fn patch_failure_after_a_passed_canary_wave_prints_the_session_rollback() {
    let ns = TwoNamespaces::new("fleet-rollback-hint");
    ns.configmap_w();
    let m = plugin();
    let r = m.run(&[
        "patch",
        "configmap",
        "w",
        "-n",
        &ns.0,
        "--type",
        "merge",
        "-p",
        "{\"data\":{\"k\":\"v2\"}}",
        "--contexts",
        "admin,admin-2,bob-2",
        "--canary",
        "2",
    ]);
    assert_eq!(r.code, 3, "{r:?}");
    assert_eq!(
        r.stdout,
        "admin\tconfigmap/w patched\nadmin-2\tconfigmap/w patched\n"
    );
    let log = std::fs::read_to_string(m.dir.path().join("myops/changelog.jsonl")).unwrap();
    let first: serde_json::Value = serde_json::from_str(log.lines().next().unwrap()).unwrap();
    let session = first["session"].as_str().unwrap();
    assert!(
        r.stderr.ends_with(&format!(
            "to undo the changes of this invocation: kubectl myops rollback --session {session}\n"
        )),
        "{r:?}"
    );
    assert!(
        !r.stderr.contains("not attempted"),
        "bob-2 was the last: {r:?}"
    );
    assert_eq!(summary_lines(&r).len(), 1, "{r:?}");
    assert!(
        summary_lines(&r)[0].starts_with("error: context bob-2: "),
        "{r:?}"
    );
}

/// The configmap `w` in `ns` as `context` sees it: (data.k, data.other).
fn w_data(context: &str, ns: &str) -> (String, String) {
    let get = |path: &str| {
        kubectl_in(
            context,
            &[
                "get",
                "cm",
                "w",
                "-n",
                ns,
                "-o",
                &format!("jsonpath={path}"),
            ],
        )
    };
    (get("{.data.k}"), get("{.data.other}"))
}

/// The change-log records of `home`'s journal.
fn journal(m: &Myops) -> Vec<serde_json::Value> {
    std::fs::read_to_string(m.dir.path().join("myops/changelog.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn rollback_session_undoes_a_fanned_out_patch_per_context_and_a_conflict_in_one_does_not_stop_the_other()
 {
    let ns = TwoNamespaces::new("fleet-rollback");
    ns.configmap_w();
    let m = plugin();
    let patch = [
        "patch",
        "configmap",
        "w",
        "-n",
        &ns.0,
        "--type",
        "merge",
        "-p",
        "{\"data\":{\"k\":\"v2\"}}",
        "--contexts",
        "admin,admin-2",
    ];
    let r = m.run(&patch);
    assert_eq!(r.code, 0, "{r:?}");
    let session = journal(&m)[0]["session"].as_str().unwrap().to_string();
    assert!(
        r.stderr
            .contains(&format!("kubectl myops rollback --session {session}")),
        "the patch says how to undo it: {}",
        r.stderr
    );
    // The session's entries, told apart by their context; --context lists one context's.
    let r = m.run(&["changelog", "list", "--session", &session]);
    assert_eq!(r.code, 0, "{r:?}");
    let contexts: Vec<&str> = r
        .stdout
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().nth(3).unwrap())
        .collect();
    assert_eq!(contexts, ["admin", "admin-2"], "{}", r.stdout);
    let r = m.run(&[
        "changelog",
        "list",
        "--session",
        &session,
        "--context",
        "admin-2",
    ]);
    assert_eq!(
        r.stdout.lines().count(),
        2,
        "a header and admin-2's row: {}",
        r.stdout
    );
    assert!(
        r.stdout.lines().nth(1).unwrap().contains(" admin-2 "),
        "{}",
        r.stdout
    );
    // Someone else writes the field the patch changed, in the second cluster, after the patch.
    kubectl_in(
        "admin-2",
        &[
            "patch",
            "cm",
            "w",
            "-n",
            &ns.0,
            "--type",
            "merge",
            "-p",
            "{\"data\":{\"k\":\"v3\"}}",
        ],
    );

    let r = m.run(&["rollback", "--session", &session]);
    assert_eq!(
        r.code, 5,
        "the conflict in admin-2 decides the exit code: {r:?}"
    );
    assert_eq!(
        w_data("admin", &ns.0),
        ("v1".into(), String::new()),
        "admin rolled back"
    );
    assert_eq!(
        w_data("admin-2", &ns.0),
        ("v3".into(), String::new()),
        "admin-2 untouched"
    );
    assert!(r.stdout.contains("configmap/w rolled back"), "{r:?}");
    let errors: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| l.starts_with("error: "))
        .collect();
    assert_eq!(
        errors.len(),
        2,
        "one line for admin-2's entry, one summary: {}",
        r.stderr
    );
    assert!(
        errors[0].starts_with("error: context admin-2: entry "),
        "{}",
        errors[0]
    );
    assert!(errors[0].contains("changed since entry"), "{}", errors[0]);
    assert!(
        errors[1].starts_with(&format!(
            "error: 1 of 2 change(s) of session {session} were not rolled back"
        )),
        "{}",
        errors[1]
    );

    // --force: admin already holds its earlier value (nothing to do), admin-2's field is
    // restored over the other writer's value.
    let r = m.run(&["rollback", "--session", &session, "--force"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(w_data("admin", &ns.0), ("v1".into(), String::new()));
    assert_eq!(w_data("admin-2", &ns.0), ("v1".into(), String::new()));
    assert!(r.stdout.contains("nothing to roll back"), "{r:?}");

    // The rollbacks' own entries: one session per invocation, each in its entry's context.
    let records = journal(&m);
    let rollbacks: Vec<&serde_json::Value> = records
        .iter()
        .filter(|e| e["operation"] == "rollback")
        .collect();
    let own: std::collections::BTreeSet<&str> = rollbacks
        .iter()
        .map(|e| e["session"].as_str().unwrap())
        .collect();
    assert_eq!(own.len(), 2, "one session per rollback invocation: {own:?}");
    assert!(!own.contains(session.as_str()));
    let contexts: std::collections::BTreeSet<&str> = rollbacks
        .iter()
        .map(|e| e["context"].as_str().unwrap())
        .collect();
    assert_eq!(contexts, ["admin", "admin-2"].into());

    let r = m.run(&["rollback", "--session", "no-such-session"]);
    assert_eq!(r.code, 4, "{r:?}");
    assert!(
        r.stderr
            .starts_with("error: no change-log entries of session no-such-session;"),
        "{}",
        r.stderr
    );
    let r = m.run(&["rollback", "some-id", "--session", &session]);
    assert_eq!(r.code, 2, "an id and --session exclude each other: {r:?}");
}

#[test]
fn rollback_session_refuses_a_context_that_now_points_at_another_server_and_sends_nothing_there() {
    let ns = TwoNamespaces::new("fleet-moved");
    ns.configmap_w();
    let mut m = plugin();
    let r = m.run(&[
        "patch",
        "configmap",
        "w",
        "-n",
        &ns.0,
        "--type",
        "merge",
        "-p",
        "{\"data\":{\"k\":\"v2\"}}",
        "--contexts",
        "admin,admin-2",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    let session = journal(&m)[0]["session"].as_str().unwrap().to_string();
    // The kubeconfig's admin-2 now points at the first server.
    let text = std::fs::read_to_string(&cluster().kubeconfig).unwrap();
    let moved = text.replace(
        "context: {cluster: test-2, user: admin-2,",
        "context: {cluster: test, user: admin,",
    );
    assert_ne!(
        moved, text,
        "the test kubeconfig's admin-2 context line changed shape"
    );
    let kc = m.dir.path().join("moved-kubeconfig");
    std::fs::write(&kc, moved).unwrap();
    m.set_env("KUBECONFIG", &kc.display().to_string());
    let r = m.run(&["rollback", "--session", &session]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr.contains(
            "error: context admin-2: 1 change(s) not rolled back: the context now points at"
        ),
        "{}",
        r.stderr
    );
    assert_eq!(w_data("admin", &ns.0).0, "v1", "admin rolled back");
    assert_eq!(w_data("admin-2", &ns.0).0, "v2", "admin-2 untouched");
}

/// The test kubeconfig with one more context, `same-as-admin`: the first server as admin
/// (two contexts that point at the same server, as a kubeconfig may well have).
fn kubeconfig_with_same_as_admin(m: &Myops) -> PathBuf {
    let text = std::fs::read_to_string(&cluster().kubeconfig).unwrap();
    let more = text.replacen(
        "contexts:\n",
        "contexts:\n- name: same-as-admin\n  context: {cluster: test, user: admin, namespace: default}\n",
        1,
    );
    assert_ne!(
        more, text,
        "the test kubeconfig's contexts list changed shape"
    );
    let kc = m.dir.path().join("same-as-admin-kubeconfig");
    std::fs::write(&kc, more).unwrap();
    kc
}

#[test]
fn rollback_session_over_two_contexts_on_one_server_undid_the_older_change_first_and_reported_a_false_conflict()
 {
    let ns = TwoNamespaces::new("fleet-same-server");
    kubectl_in(
        "admin",
        &[
            "create",
            "configmap",
            "w",
            "-n",
            &ns.0,
            "--from-literal=k=v1",
        ],
    );
    let mut m = plugin();
    let kc = kubeconfig_with_same_as_admin(&m);
    m.set_env("KUBECONFIG", &kc.display().to_string());
    // One session: admin sets k=v3, then (the next wave) same-as-admin patches the same
    // object (no change, its before-state is v3).
    let r = m.run(&[
        "patch",
        "configmap",
        "w",
        "-n",
        &ns.0,
        "--type",
        "merge",
        "-p",
        r#"{"data":{"k":"v3"}}"#,
        "--contexts",
        "admin,same-as-admin",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout
            .contains("same-as-admin\tconfigmap/w patched (no change)"),
        "{r:?}"
    );
    let session = journal(&m).last().unwrap()["session"]
        .as_str()
        .unwrap()
        .to_string();
    let r = m.run(&["rollback", "--session", &session]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(!r.stderr.contains("changed since"), "{r:?}");
    assert_eq!(
        w_data("admin", &ns.0).0,
        "v1",
        "back to the value before the session"
    );
    // --force never puts the session's value back (it did with the old order).
    let r = m.run(&["rollback", "--session", &session, "--force"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(w_data("admin", &ns.0).0, "v1");
}

#[test]
fn rollback_session_printed_an_undo_line_for_a_dry_run_and_for_a_rollback_that_changed_nothing() {
    let ns = TwoNamespaces::new("fleet-undo-line");
    ns.configmap_w();
    let m = plugin();
    let r = m.run(&[
        "patch",
        "configmap",
        "w",
        "-n",
        &ns.0,
        "--type",
        "merge",
        "-p",
        r#"{"data":{"k":"v2"}}"#,
        "--contexts",
        "admin,admin-2",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    let session = journal(&m)[0]["session"].as_str().unwrap().to_string();
    let r = m.run(&["rollback", "--session", &session, "--dry-run=server"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(!r.stderr.contains("to undo this rollback"), "{r:?}");
    let r = m.run(&["rollback", "--session", &session]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stderr
            .contains("to undo this rollback: kubectl myops rollback --session "),
        "{r:?}"
    );
    // Again: both already hold their earlier values — nothing to roll back, exit 0 (a rerun
    // after a partial failure skips what the first run undid), and nothing to undo.
    let r = m.run(&["rollback", "--session", &session]);
    assert_eq!(r.code, 0, "{r:?}");
    let ids: Vec<String> = journal(&m)
        .iter()
        .filter(|e| e["session"] == session.as_str())
        .map(|e| e["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        r.stdout,
        format!(
            "admin-2\tconfigmap/w: nothing to roll back (the fields entry {} changed already hold their earlier values)\nadmin\tconfigmap/w: nothing to roll back (the fields entry {} changed already hold their earlier values)\n",
            ids[2], ids[0]
        ),
        "newest first, each line prefixed by its context"
    );
    assert!(!r.stderr.contains("to undo this rollback"), "{r:?}");
    // An empty session id would be every record written before sessions existed.
    let cases: [&[&str]; 2] = [
        &["rollback", "--session", ""],
        &["changelog", "list", "--session", ""],
    ];
    for args in cases {
        let r = m.run(args);
        assert_eq!(r.code, 2, "{args:?}: {r:?}");
        assert!(r.stderr.contains("--session needs a session id"), "{r:?}");
    }
}

#[test]
fn a_template_over_contexts_with_empty_lists_printed_nothing_where_kubectl_prints_the_empty_list() {
    let ns = TwoNamespaces::new("fleet-empty-template");
    let m = plugin();
    let r = m.run(&[
        "get",
        "configmaps",
        "-n",
        &ns.0,
        "--field-selector",
        "metadata.name=none",
        "--contexts",
        "admin,admin-2",
        "-o",
        "jsonpath={.items}",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stdout, "[]", "kubectl prints [] for an empty List");
    let r = m.run(&[
        "get",
        "configmaps",
        "-n",
        &ns.0,
        "--field-selector",
        "metadata.name=none",
        "--contexts",
        "admin,admin-2",
        "-o",
        "custom-columns=N:.metadata.name",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stdout, "CONTEXT   N\n", "kubectl prints the header");
    // Every context failed: nothing to render, as kubectl prints nothing after an error.
    let r = m.run(&[
        "get",
        "configmap",
        "none",
        "-n",
        &ns.0,
        "--contexts",
        "admin,admin-2",
        "-o",
        "jsonpath={.items}",
    ]);
    assert_eq!(r.code, 4, "{r:?}");
    assert_eq!(r.stdout, "");
}

/// A client certificate for `cn` in organisation `o`, signed by the first server's client CA
/// (`MYOPS_TEST_CLIENT_CA`, scripts/cluster): (certificate PEM, key PEM), minted by openssl.
fn client_certificate(dir: &std::path::Path, cn: &str, o: &str) -> (String, String) {
    let ca = std::env::var("MYOPS_TEST_CLIENT_CA")
        .expect("MYOPS_TEST_CLIENT_CA (source target/testcluster/env after scripts/cluster up)");
    let (key, csr, crt) = (
        dir.join(format!("{cn}.key")),
        dir.join(format!("{cn}.csr")),
        dir.join(format!("{cn}.crt")),
    );
    let openssl = |args: &[&str]| {
        let out = std::process::Command::new("openssl")
            .args(args)
            .output()
            .expect("openssl runs");
        assert!(
            out.status.success(),
            "openssl {args:?}: {}",
            text_of(&out.stderr)
        );
    };
    let p = |p: &PathBuf| p.display().to_string();
    openssl(&[
        "req",
        "-new",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-subj",
        &format!("/O={o}/CN={cn}"),
        "-keyout",
        &p(&key),
        "-out",
        &p(&csr),
    ]);
    // X.509 v3 with the client-auth usage: webpki (rustls) refuses a v1 certificate, which
    // `openssl x509 -req` makes without extensions.
    let ext = dir.join(format!("{cn}.ext"));
    std::fs::write(
        &ext,
        "basicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=clientAuth\n",
    )
    .unwrap();
    openssl(&[
        "x509",
        "-extfile",
        &p(&ext),
        "-req",
        "-in",
        &p(&csr),
        "-CA",
        &format!("{ca}.crt"),
        "-CAkey",
        &format!("{ca}.key"),
        "-CAcreateserial",
        "-days",
        "1",
        "-out",
        &p(&crt),
    ]);
    (
        std::fs::read_to_string(crt).unwrap(),
        std::fs::read_to_string(key).unwrap(),
    )
}

/// Regression (issue 13, shared transports): contexts on one server share its connection
/// (client-go's transport cache), but a TLS client certificate is an identity of the
/// connection itself. Had the cache ignored it, the second context's requests would have
/// gone out on the first one's connection — a user without rights answered as the admin.
#[test]
fn contexts_with_different_client_certificates_on_one_server_shared_a_connection_and_answered_as_one_user()
 {
    use base64::Engine;
    let ns = TwoNamespaces::new("fleet-certs");
    ns.configmap_w();
    let mut m = plugin();
    let b64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(s);
    let (admin_crt, admin_key) = client_certificate(m.dir.path(), "cert-admin", "system:masters");
    let (nobody_crt, nobody_key) = client_certificate(m.dir.path(), "cert-nobody", "nobody");
    let text = std::fs::read_to_string(&cluster().kubeconfig).unwrap();
    let users = format!(
        "users:\n- name: cert-admin\n  user: {{client-certificate-data: {}, client-key-data: {}}}\n- name: cert-nobody\n  user: {{client-certificate-data: {}, client-key-data: {}}}\n",
        b64(&admin_crt),
        b64(&admin_key),
        b64(&nobody_crt),
        b64(&nobody_key)
    );
    let contexts = "contexts:\n- name: cert-admin\n  context: {cluster: test, user: cert-admin}\n- name: cert-nobody\n  context: {cluster: test, user: cert-nobody}\n- name: cert-admin-again\n  context: {cluster: test, user: cert-admin}\n";
    let more = text
        .replacen("users:\n", &users, 1)
        .replacen("contexts:\n", contexts, 1);
    assert_eq!(
        more.matches("cert-admin").count(),
        5,
        "the test kubeconfig's users/contexts lists changed shape"
    );
    let kc = m.dir.path().join("certs-kubeconfig");
    std::fs::write(&kc, more).unwrap();
    m.set_env("KUBECONFIG", &kc.display().to_string());
    for order in [
        "cert-admin,cert-nobody,cert-admin-again",
        "cert-nobody,cert-admin,cert-admin-again",
    ] {
        let r = m.run(&[
            "auth",
            "can-i",
            "list",
            "configmaps",
            "-n",
            &ns.0,
            "--contexts",
            order,
            "--max-parallel",
            "1",
        ]);
        assert_eq!(r.code, 3, "{r:?}");
        let want: String = order
            .split(',')
            .map(|c| format!("{c}\t{}\n", if c == "cert-nobody" { "no" } else { "yes" }))
            .collect();
        assert_eq!(r.stdout, want, "{r:?}");
    }
    // The same through get: the admin's rows, the other identity refused by the server.
    let r = m.run(&[
        "get",
        "configmaps",
        "-n",
        &ns.0,
        "--contexts",
        "cert-nobody,cert-admin",
        "-o",
        "name",
    ]);
    assert_eq!(r.code, 3, "{r:?}");
    assert_eq!(
        r.stdout, "cert-admin\tconfigmap/kube-root-ca.crt\ncert-admin\tconfigmap/w\n",
        "{r:?}"
    );
    assert!(
        r.stderr.contains("context cert-nobody") && r.stderr.contains("\"cert-nobody\""),
        "{r:?}"
    );
}
