//! deploy/in-cluster and the in-cluster configuration on the real API server (issue 13 item 3):
//! every manifest passes a server-side dry run; with its ServiceAccount and RBAC applied for
//! real, the watcher run *as* that ServiceAccount — no kubeconfig, KUBERNETES_SERVICE_HOST/PORT
//! and a service-account directory holding a `kubectl create token` token — registers CRDs,
//! takes its Lease, and is denied what its role does not grant; and `crds watch` on a
//! directory laid out by the kubelet's AtomicWriter applies a ConfigMap update once.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::fixture::{
    Myops, Namespace, cluster, kubectl, kubectl_at, kubectl_stdin, root, text_of,
};

/// The manifests of deploy/in-cluster, sorted by file name.
fn manifest_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("deploy/in-cluster"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    files
}

/// A manifest moved into the test's namespace `ns`, its cluster-wide and Lease names made the
/// test's own (`<ns>-loader`), so tests running at once do not share objects.
fn manifest(file: &Path, ns: &str) -> String {
    let text = std::fs::read_to_string(file).unwrap();
    text.replace("kubectl-myops-crd-loader", &format!("{ns}-loader"))
        .replace("namespace: kubectl-myops\n", &format!("namespace: {ns}\n"))
        .replace("  name: kubectl-myops\n", &format!("  name: {ns}\n"))
        .replace("- kubectl-myops\n", &format!("- {ns}\n"))
}

/// Deletes cluster-wide objects when dropped (a test's ClusterRole, binding and CRDs).
struct ClusterScoped(Vec<(String, String)>);

impl Drop for ClusterScoped {
    fn drop(&mut self) {
        for (kind, name) in &self.0 {
            let _ = kubectl_at(
                &cluster().kubeconfig,
                &["delete", kind, name, "--ignore-not-found", "--wait=false"],
            );
        }
    }
}

#[test]
fn every_in_cluster_manifest_passes_a_server_side_dry_run() {
    let ns = Namespace::new("incluster-dry");
    let files = manifest_files();
    let names: Vec<String> = files
        .iter()
        .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        [
            "configmap.yaml",
            "deployment.yaml",
            "namespace.yaml",
            "plugin-config.yaml",
            "rbac.yaml",
            "serviceaccount.yaml"
        ]
    );
    let mut objects = 0;
    for f in &files {
        let out = kubectl_stdin(
            &["apply", "--dry-run=server", "-f", "-"],
            &manifest(f, &ns.0),
        );
        assert!(
            out.status.success(),
            "{}: {}",
            f.display(),
            text_of(&out.stderr)
        );
        for line in text_of(&out.stdout).lines() {
            assert!(
                line.ends_with("(server dry run)"),
                "{}: {line}",
                f.display()
            );
            objects += 1;
        }
    }
    // Namespace, ServiceAccount, ClusterRole + binding, Role + binding, the two ConfigMaps
    // (CRDs, plugin.yaml), Deployment.
    assert_eq!(objects, 9);
    // The Deployment as the API server defaults and validates it.
    let out = kubectl_stdin(
        &["apply", "--dry-run=server", "-o", "json", "-f", "-"],
        &manifest(&root().join("deploy/in-cluster/deployment.yaml"), &ns.0),
    );
    assert!(out.status.success(), "{}", text_of(&out.stderr));
    let d: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(d["spec"]["replicas"], 3);
    let pod = &d["spec"]["template"]["spec"];
    assert_eq!(pod["securityContext"]["runAsNonRoot"], true);
    assert_eq!(
        pod["securityContext"]["seccompProfile"]["type"],
        "RuntimeDefault"
    );
    let c = &pod["containers"][0];
    assert_eq!(c["securityContext"]["readOnlyRootFilesystem"], true);
    assert_eq!(c["securityContext"]["allowPrivilegeEscalation"], false);
    assert_eq!(c["securityContext"]["capabilities"]["drop"][0], "ALL");
    assert_eq!(c["livenessProbe"]["httpGet"]["path"], "/healthz");
    assert_eq!(c["readinessProbe"]["httpGet"]["path"], "/readyz");
    let args: Vec<&str> = c["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert_eq!(
        args,
        [
            "crds",
            "watch",
            "/etc/myops/crds",
            "--leader-elect",
            "--lease-namespace",
            ns.0.as_str(),
            "--lease-name",
            &format!("{}-loader", ns.0),
            "--metrics-addr",
            "0.0.0.0:9100",
            "--log-format",
            "json"
        ]
    );
    // The flags the Deployment passes are the binary's own (a renamed flag would crash-loop).
    let m = Myops::standard(&ns.0);
    let r = m.run(&["crds", "watch", "--help"]);
    for flag in [
        "--leader-elect",
        "--lease-namespace",
        "--lease-name",
        "--metrics-addr",
        "--log-format",
    ] {
        assert!(r.stdout.contains(flag), "crds watch --help lacks {flag}");
    }
}

/// Audit events (Metadata level) of `user` on the cluster-scoped `resource`.
fn audit_events(user: &str, resource: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(&cluster().audit_log).expect("audit log readable");
    text.lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|e| e["user"]["username"] == user && e["objectRef"]["resource"] == resource)
        .collect()
}

/// A CRD of a test's own (CRDs are cluster-wide; a unique group keeps tests independent).
fn crd(group: &str, plural: &str, kind: &str) -> String {
    format!(
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: {plural}.{group}\nspec:\n  group: {group}\n  scope: Namespaced\n  names: {{plural: {plural}, singular: {s}, kind: {kind}}}\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        x-kubernetes-preserve-unknown-fields: true\n",
        s = kind.to_lowercase()
    )
}

/// A private, 0755 directory (the watcher refuses group- or world-writable ones).
fn crd_dir(m: &Myops, name: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let d = m.dir.path().join(name);
    std::fs::create_dir(&d).unwrap();
    std::fs::set_permissions(&d, std::fs::Permissions::from_mode(0o755)).unwrap();
    d
}

/// A watcher whose JSON log lines arrive on a channel.
struct Watcher {
    child: Child,
    lines: Receiver<Value>,
    seen: Vec<Value>,
}

impl Watcher {
    fn start(m: &Myops, args: &[&str]) -> Watcher {
        let mut child = m
            .command(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("watcher starts");
        let out = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                let v: Value = serde_json::from_str(&line)
                    .unwrap_or_else(|_| panic!("not a JSON log line: {line}"));
                if tx.send(v).is_err() {
                    break;
                }
            }
        });
        Watcher {
            child,
            lines,
            seen: Vec::new(),
        }
    }

    /// Waits for a line with `event` whose crd or message contains `what`.
    fn expect(&mut self, event: &str, what: &str, timeout: Duration) -> Value {
        let end = Instant::now() + timeout;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(v) => {
                    self.seen.push(v.clone());
                    if v["event"] == event
                        && format!("{} {}", v["crd"], v["message"]).contains(what)
                    {
                        return v;
                    }
                }
                Err(_) => panic!(
                    "no {event} for {what:?} within {timeout:?}; log so far: {:#?}",
                    self.seen
                ),
            }
        }
    }

    /// Every line that arrives within `d` (to check that nothing more happens).
    fn drain(&mut self, d: Duration) -> Vec<Value> {
        let end = Instant::now() + d;
        let mut out = Vec::new();
        while let Ok(v) = self
            .lines
            .recv_timeout(end.saturating_duration_since(Instant::now()))
        {
            self.seen.push(v.clone());
            out.push(v);
        }
        out
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The admin context's server URL and CA (PEM) from the test kubeconfig.
fn admin_server_and_ca() -> (String, Vec<u8>) {
    use base64::Engine;
    let view = |path: &str| {
        kubectl(&[
            "config",
            "view",
            "--raw",
            "--minify",
            "--context",
            "admin",
            "-o",
            &format!("jsonpath={{.clusters[0].cluster.{path}}}"),
        ])
    };
    let ca = base64::engine::general_purpose::STANDARD
        .decode(view("certificate-authority-data").trim())
        .unwrap();
    (view("server").trim().to_string(), ca)
}

#[test]
fn the_watcher_runs_as_its_service_account_through_in_cluster_config_with_only_its_rbac() {
    let ns = Namespace::new("incluster-sa");
    let sa = format!("{}-loader", ns.0);
    let group = format!("{}.incluster.example.com", ns.0);
    let _cleanup = ClusterScoped(vec![
        ("clusterrole".into(), sa.clone()),
        ("clusterrolebinding".into(), sa.clone()),
        ("crd".into(), format!("gadgets.{group}")),
        ("crd".into(), format!("widgets.{group}")),
    ]);
    for file in ["serviceaccount.yaml", "rbac.yaml"] {
        let out = kubectl_stdin(
            &["apply", "-f", "-"],
            &manifest(&root().join("deploy/in-cluster").join(file), &ns.0),
        );
        assert!(out.status.success(), "{file}: {}", text_of(&out.stderr));
    }
    // The pod's mount, as the kubelet writes it: token (no trailing newline), ca.crt, namespace.
    let token = kubectl(&["create", "token", &sa, "-n", &ns.0, "--duration=10m"]);
    let (server, ca) = admin_server_and_ca();
    let port = server.rsplit(':').next().unwrap().to_string();
    // plugin.yaml allows secrets and configmaps: what denies them must be RBAC.
    let mut m = Myops::new(
        "name: myops\nverbs: [get, patch]\nresources: [secrets, configmaps, customresourcedefinitions]\nscopes: [namespace, cluster]\n",
    );
    let account = m.dir.path().join("serviceaccount");
    std::fs::create_dir(&account).unwrap();
    std::fs::write(account.join("token"), token.trim()).unwrap();
    std::fs::write(account.join("ca.crt"), &ca).unwrap();
    std::fs::write(account.join("namespace"), &ns.0).unwrap();
    // No kubeconfig anywhere: HOME has no .kube/config and KUBECONFIG is unset.
    m.env.retain(|(k, _)| k != "KUBECONFIG");
    assert!(!m.dir.path().join("home/.kube/config").exists());
    m.set_env("KUBERNETES_SERVICE_HOST", "127.0.0.1");
    m.set_env("KUBERNETES_SERVICE_PORT", &port);
    m.set_env("MYOPS_TEST_SERVICE_ACCOUNT_DIR", account.to_str().unwrap());
    let user = format!("system:serviceaccount:{}:{sa}", ns.0);

    // Outside its role: denied by the SelfSubjectAccessReview gate, exit 3, naming the SA.
    let r = m.run(&["get", "secrets"]);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(r.stderr.contains(&user), "{r:?}");
    let r = m.run(&["get", "configmaps", "-n", &ns.0]);
    assert_eq!(r.code, 3, "{r:?}");

    // Inside it: a one-shot sync registers a CRD as the ServiceAccount.
    let dir = crd_dir(&m, "crds");
    std::fs::write(dir.join("widgets.yaml"), crd(&group, "widgets", "Widget")).unwrap();
    let r = m.run(&["crds", "sync", dir.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{r:?}");
    let manager = kubectl(&[
        "get",
        "crd",
        &format!("widgets.{group}"),
        "-o",
        "jsonpath={.metadata.managedFields[*].manager}",
    ]);
    assert!(manager.contains("kubectl-myops"), "{manager}");
    let created = audit_events(&user, "customresourcedefinitions");
    assert!(
        created.iter().any(|e| e["verb"] == "patch"
            && e["objectRef"]["name"] == format!("widgets.{group}")
            && e["responseStatus"]["code"]
                .as_i64()
                .is_some_and(|c| c < 300)),
        "no successful patch of widgets.{group} by {user} in the audit log"
    );

    // The leader-elected watcher takes its Lease (the one name the Role allows) and applies.
    let dir2 = crd_dir(&m, "crds2");
    std::fs::write(dir2.join("gadgets.yaml"), crd(&group, "gadgets", "Gadget")).unwrap();
    let mut w = Watcher::start(
        &m,
        &[
            "crds",
            "watch",
            dir2.to_str().unwrap(),
            "--leader-elect",
            "--lease-namespace",
            &ns.0,
            "--lease-name",
            &sa,
            "--log-format",
            "json",
        ],
    );
    w.expect(
        "registered",
        &format!("gadgets.{group}"),
        Duration::from_secs(60),
    );
    let holder = kubectl(&[
        "get",
        "lease",
        &sa,
        "-n",
        &ns.0,
        "-o",
        "jsonpath={.spec.holderIdentity}",
    ]);
    assert!(!holder.trim().is_empty(), "the Lease has no holder");
    drop(w);

    // Another Lease name is outside the Role's resourceNames: denied before any Lease request.
    let r = m.run(&[
        "crds",
        "watch",
        dir2.to_str().unwrap(),
        "--leader-elect",
        "--lease-namespace",
        &ns.0,
        "--lease-name",
        "someone-elses",
    ]);
    assert_eq!(r.code, 3, "{r:?}");
    let leases = kubectl(&["get", "leases", "-n", &ns.0, "-o", "name"]);
    assert!(!leases.contains("someone-elses"), "{leases}");
}

/// The kubelet's AtomicWriter (`pkg/volume/util/atomic_writer.go`, Kubernetes 1.30 `Write`):
/// a new 0755 timestamped directory with the 0644 files, `..data_tmp` renamed over `..data`,
/// links for new keys, removal of removed keys' links, then of the old directory.
fn atomic_write(dir: &Path, n: u32, payload: &[(&str, &str)]) {
    use std::os::unix::fs::{PermissionsExt, symlink};
    let data = dir.join("..data");
    let old = std::fs::read_link(&data).ok();
    let to_remove: Vec<String> = old
        .as_ref()
        .map(|o| {
            std::fs::read_dir(dir.join(o))
                .unwrap()
                .map(|e| e.unwrap().file_name().into_string().unwrap())
                .filter(|k| !payload.iter().any(|(p, _)| p == k))
                .collect()
        })
        .unwrap_or_default();
    let ts = format!(
        "..{}.{:09}",
        jiff::Timestamp::now().strftime("%Y_%m_%d_%H_%M_%S"),
        100_000_000 + n
    );
    std::fs::create_dir(dir.join(&ts)).unwrap();
    std::fs::set_permissions(dir.join(&ts), std::fs::Permissions::from_mode(0o755)).unwrap();
    for (k, v) in payload {
        let f = dir.join(&ts).join(k);
        std::fs::write(&f, v).unwrap();
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    symlink(&ts, dir.join("..data_tmp")).unwrap();
    std::fs::rename(dir.join("..data_tmp"), &data).unwrap();
    for (k, _) in payload {
        if std::fs::read_link(dir.join(k)).is_err() {
            symlink(Path::new("..data").join(k), dir.join(k)).unwrap();
        }
    }
    for k in &to_remove {
        std::fs::remove_file(dir.join(k)).unwrap();
    }
    if let Some(o) = old {
        std::fs::remove_dir_all(dir.join(o)).unwrap();
    }
}

#[test]
fn a_configmap_update_through_the_data_swap_is_applied_once_and_a_removed_key_only_unregisters() {
    let ns = Namespace::new("incluster-swap");
    let group = format!("{}.swap.example.com", ns.0);
    let _cleanup = ClusterScoped(vec![
        ("crd".into(), format!("alphas.{group}")),
        ("crd".into(), format!("betas.{group}")),
    ]);
    let m = Myops::standard(&ns.0);
    let dir = crd_dir(&m, "configmap");
    let alpha = crd(&group, "alphas", "Alpha");
    let beta = crd(&group, "betas", "Beta");
    atomic_write(&dir, 1, &[("alpha.yaml", &alpha), ("beta.yaml", &beta)]);
    let mut w = Watcher::start(
        &m,
        &[
            "crds",
            "watch",
            dir.to_str().unwrap(),
            "--log-format",
            "json",
        ],
    );
    w.expect(
        "registered",
        &format!("alphas.{group}"),
        Duration::from_secs(60),
    );
    w.expect(
        "registered",
        &format!("betas.{group}"),
        Duration::from_secs(60),
    );
    // Update: alpha gains a short name, beta is removed from the ConfigMap.
    let alpha2 = alpha.replace("kind: Alpha}", "kind: Alpha, shortNames: [al]}");
    assert_ne!(alpha, alpha2);
    atomic_write(&dir, 2, &[("alpha.yaml", &alpha2)]);
    w.expect(
        "unregistered",
        &format!("betas.{group}"),
        Duration::from_secs(30),
    );
    w.expect(
        "registered",
        &format!("alphas.{group}"),
        Duration::from_secs(60),
    );
    // Nothing else: no second apply, no error about a dangling link or the vanished directory.
    let rest = w.drain(Duration::from_secs(2));
    let bad: Vec<&Value> = w
        .seen
        .iter()
        .chain(&rest)
        .filter(|v| v["level"] == "error" || v["level"] == "warning")
        .collect();
    assert!(bad.is_empty(), "{bad:#?}");
    let registered = w
        .seen
        .iter()
        .filter(|v| v["event"] == "registered" && v["crd"] == format!("alphas.{group}"))
        .count();
    assert_eq!(registered, 2, "initial load + one update: {:#?}", w.seen);
    assert_eq!(
        kubectl(&[
            "get",
            "crd",
            &format!("alphas.{group}"),
            "-o",
            "jsonpath={.spec.names.shortNames}"
        ]),
        "[\"al\"]"
    );
    // Without --prune the removed key's CRD stays on the cluster.
    assert!(
        kubectl_at(
            &cluster().kubeconfig,
            &["get", "crd", &format!("betas.{group}")]
        )
        .status
        .success()
    );
}
