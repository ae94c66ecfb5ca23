//! `crds watch` in a cluster and the change log's mirror: run as the ServiceAccount of
//! deploy/in-cluster (its RBAC applied for real, the in-cluster configuration, the plugin.yaml
//! of plugin-config.yaml), every complete record goes to stdout as its sealed JSON line —
//! stdout holds JSON lines only — and to the mirror as a ChangeRecord the ServiceAccount
//! created.

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::fixture::{Myops, Namespace, kubectl, kubectl_at, kubectl_stdin, root, text_of};

/// A deploy/in-cluster manifest in the test's namespace, its names made the test's own.
fn manifest(file: &str, ns: &str) -> String {
    let text = std::fs::read_to_string(root().join("deploy/in-cluster").join(file)).unwrap();
    text.replace("kubectl-myops-crd-loader", &format!("{ns}-loader"))
        .replace("namespace: kubectl-myops\n", &format!("namespace: {ns}\n"))
        .replace("- kubectl-myops\n", &format!("- {ns}\n"))
}

/// The plugin.yaml that deploy/in-cluster/plugin-config.yaml holds, mirroring to `ns`.
fn shipped_plugin_yaml(ns: &str) -> String {
    crate::fixture::changelog_mirror_installed();
    let text =
        std::fs::read_to_string(root().join("deploy/in-cluster/plugin-config.yaml")).unwrap();
    let body = text.split_once("plugin.yaml: |\n").unwrap().1;
    body.lines()
        .map(|l| l.strip_prefix("    ").unwrap_or(l))
        .collect::<Vec<_>>()
        .join("\n")
        .replace("namespace: kubectl-myops", &format!("namespace: {ns}"))
        // The default is tested: on, because the client comes from the service account.
        .replace("  stdout: true\n", "")
}

struct DeleteCrd(String);

impl Drop for DeleteCrd {
    fn drop(&mut self) {
        let _ = kubectl_at(
            &crate::fixture::cluster().kubeconfig,
            &[
                "delete",
                "crd",
                &self.0,
                "--ignore-not-found",
                "--wait=false",
            ],
        );
        let _ = kubectl_at(
            &crate::fixture::cluster().kubeconfig,
            &[
                "delete",
                "clusterrole,clusterrolebinding",
                &self.0,
                "--ignore-not-found",
            ],
        );
    }
}

#[test]
fn the_in_cluster_watcher_writes_each_record_to_stdout_as_json_and_to_the_mirror() {
    let ns = Namespace::new("mirror-watch");
    let sa = format!("{}-loader", ns.0);
    let group = format!("{}.mirror.example.com", ns.0);
    let _crd = DeleteCrd(format!("widgets.{group}"));
    let _roles = DeleteCrd(sa.clone());
    for file in ["serviceaccount.yaml", "rbac.yaml"] {
        let out = kubectl_stdin(&["apply", "-f", "-"], &manifest(file, &ns.0));
        assert!(out.status.success(), "{file}: {}", text_of(&out.stderr));
    }
    let token = kubectl(&["create", "token", &sa, "-n", &ns.0, "--duration=10m"]);
    let server = kubectl(&[
        "config",
        "view",
        "--minify",
        "--context",
        "admin",
        "-o",
        "jsonpath={.clusters[0].cluster.server}",
    ]);
    let ca = kubectl(&[
        "config",
        "view",
        "--raw",
        "--minify",
        "--context",
        "admin",
        "-o",
        "jsonpath={.clusters[0].cluster.certificate-authority-data}",
    ]);
    use base64::Engine;
    let ca = base64::engine::general_purpose::STANDARD
        .decode(ca.trim())
        .unwrap();
    let mut m = Myops::new(&shipped_plugin_yaml(&ns.0));
    let account = m.dir.path().join("serviceaccount");
    std::fs::create_dir(&account).unwrap();
    std::fs::write(account.join("token"), token.trim()).unwrap();
    std::fs::write(account.join("ca.crt"), &ca).unwrap();
    std::fs::write(account.join("namespace"), &ns.0).unwrap();
    m.env.retain(|(k, _)| k != "KUBECONFIG");
    m.set_env("KUBERNETES_SERVICE_HOST", "127.0.0.1");
    m.set_env(
        "KUBERNETES_SERVICE_PORT",
        server.trim().rsplit(':').next().unwrap(),
    );
    m.set_env("MYOPS_TEST_SERVICE_ACCOUNT_DIR", account.to_str().unwrap());
    let dir = m.dir.path().join("crds");
    std::fs::create_dir(&dir).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::write(
        dir.join("widgets.yaml"),
        format!(
            "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.{group}\nspec:\n  group: {group}\n  scope: Namespaced\n  names: {{plural: widgets, singular: widget, kind: Widget}}\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        x-kubernetes-preserve-unknown-fields: true\n"
        ),
    )
    .unwrap();

    // Text log format: the watcher's own lines go to stderr, stdout holds records only.
    let mut child = m
        .command(&["crds", "watch", dir.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = child.stdout.take().unwrap();
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let end = Instant::now() + Duration::from_secs(60);
    let mut stdout = Vec::new();
    let record = loop {
        let left = end.saturating_duration_since(Instant::now());
        let Ok(line) = rx.recv_timeout(left) else {
            let _ = child.kill();
            let err = child.wait_with_output().unwrap();
            panic!(
                "no record on stdout within 60 s: {stdout:#?}; stderr: {}",
                text_of(&err.stderr)
            );
        };
        let v: Value = serde_json::from_str(&line)
            .unwrap_or_else(|_| panic!("stdout holds JSON lines only: {line}"));
        stdout.push(line.clone());
        if v["operation"] == "crd-apply" && v["result"] == "success" {
            break line;
        }
    };
    // The mirror is sent right after the record is kept.
    let user = format!("system:serviceaccount:{}:{sa}", ns.0);
    let end = Instant::now() + Duration::from_secs(20);
    let mirrored = loop {
        let text = kubectl(&["get", "changerecords.myops.io", "-n", &ns.0, "-o", "json"]);
        let items = serde_json::from_str::<Value>(&text).unwrap()["items"].clone();
        let found: Vec<Value> = items
            .as_array()
            .unwrap()
            .iter()
            .filter(|o| o["spec"]["record"] == record.as_str())
            .cloned()
            .collect();
        if !found.is_empty() || Instant::now() > end {
            break found;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    let _ = child.kill();
    let err = child.wait_with_output().unwrap();
    assert_eq!(mirrored.len(), 1, "stderr: {}", text_of(&err.stderr));
    assert_eq!(mirrored[0]["spec"]["createdBy"], user.as_str());
    let journal = std::fs::read_to_string(m.dir.path().join("myops/changelog.jsonl")).unwrap();
    assert!(
        journal.lines().any(|l| l == record),
        "the sealed line as journaled"
    );
    assert!(
        stdout.iter().all(|l| !l.contains("\"result\":\"pending\"")),
        "no intent on stdout: {stdout:#?}"
    );
}
