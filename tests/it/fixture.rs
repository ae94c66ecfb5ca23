//! Test fixture: the real cluster started by `scripts/cluster up`, the real kubectl for
//! setting up objects as admin, and the kubectl-myops binary under test run in a fresh
//! MYOPS_HOME and HOME per test. Cluster tests fail (never skip) when the cluster is missing.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

/// Connection facts of the running test cluster.
#[derive(Debug, Clone)]
pub struct ClusterEnv {
    pub kubeconfig: PathBuf,
    pub pushgateway: String,
    pub audit_log: PathBuf,
    /// The Prometheus server scraping `pushgateway` every second with the repository's rules
    /// (deploy/monitoring/) loaded, e.g. `http://127.0.0.1:41234`.
    pub prometheus: String,
    /// Whether a kube-controller-manager runs for the server (`scripts/cluster up`; not the
    /// fault-injection suite's `up --light`): namespaces get their `default` ServiceAccount and
    /// `kube-root-ca.crt` ConfigMap, deletions cascade.
    pub controller_manager: bool,
}

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The directory of the test cluster's state (`scripts/cluster up`): `$MYOPS_TESTCLUSTER`
/// when set (the fault-injection suite runs its own cluster, `scripts/chaos`), else
/// `target/testcluster` — the same rule as scripts/lib.sh.
pub fn cluster_dir() -> PathBuf {
    std::env::var_os("MYOPS_TESTCLUSTER")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target/testcluster"))
}

/// The value of `export KEY=…` in the test cluster's env file; panics naming the key when
/// the file lacks it.
pub fn cluster_var(key: &str) -> String {
    let path = cluster_dir().join("env");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}; run scripts/cluster up", path.display()));
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("export {key}=")))
        .unwrap_or_else(|| panic!("{} lacks {key}", path.display()))
        .to_string()
}

/// Reads the cluster's env file (written by `scripts/cluster up`); panics with what to do
/// when the cluster is not there.
pub fn cluster() -> &'static ClusterEnv {
    static ENV: OnceLock<ClusterEnv> = OnceLock::new();
    ENV.get_or_init(|| {
        let path = cluster_dir().join("env");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "the test cluster is missing ({}: {e}); run scripts/cluster up (scripts/test does)",
                path.display()
            )
        });
        let var = |k: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(&format!("export {k}=")))
                .unwrap_or_else(|| panic!("{} lacks {k}", path.display()))
                .to_string()
        };
        let env = ClusterEnv {
            kubeconfig: PathBuf::from(var("KUBECONFIG")),
            pushgateway: var("MYOPS_PUSHGATEWAY"),
            audit_log: PathBuf::from(var("MYOPS_TEST_AUDIT_LOG")),
            prometheus: var("MYOPS_PROMETHEUS"),
            controller_manager: !var("MYOPS_TEST_CONTROLLER_MANAGER").is_empty(),
        };
        let out = kubectl_raw(&env.kubeconfig, &["get", "--raw", "/readyz"]);
        assert!(
            out.status.success(),
            "the test cluster does not answer /readyz: {}; run scripts/cluster up",
            text_of(&out.stderr)
        );
        env
    })
}

pub fn text_of(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn kubectl_raw(kubeconfig: &Path, args: &[&str]) -> Output {
    Command::new(root().join("target/testbin/kubectl"))
        .args(args)
        .env("KUBECONFIG", kubeconfig)
        // kubectl keeps a discovery cache under $HOME/.kube; keep it out of the working tree.
        .env("HOME", std::env::temp_dir().join("myops-test-kubectl-home"))
        .stdin(Stdio::null())
        .output()
        .expect("target/testbin/kubectl runs (scripts/setup builds it)")
}

/// Runs the real kubectl as admin; panics on failure (fixture setup must not fail silently).
pub fn kubectl(args: &[&str]) -> String {
    let out = kubectl_raw(&cluster().kubeconfig, args);
    assert!(
        out.status.success(),
        "kubectl {args:?} failed: {}",
        text_of(&out.stderr)
    );
    text_of(&out.stdout)
}

/// Installs `deploy/changelog/` (the ChangeRecord CRD, its ClusterRoles and admission policy)
/// on the first test server once per test process, as an admin following docs/team.md
/// would, and waits until the CRD is Established. The second server never gets it (tests
/// use it as "the CRD not installed"). `kubectl apply` makes it idempotent across processes.
pub fn changelog_mirror_installed() {
    static DONE: OnceLock<()> = OnceLock::new();
    DONE.get_or_init(|| {
        let dir = root().join("deploy/changelog");
        kubectl(&["--context", "admin", "apply", "-f", dir.to_str().unwrap()]);
        kubectl(&[
            "--context",
            "admin",
            "wait",
            "--for",
            "condition=Established",
            "--timeout=60s",
            "crd/changerecords.myops.io",
        ]);
    });
}

/// Runs the real kubectl (test kubeconfig) with `args`, `yaml` on its stdin.
pub fn kubectl_stdin(args: &[&str], yaml: &str) -> std::process::Output {
    use std::io::Write;
    let mut child = Command::new(root().join("target/testbin/kubectl"))
        .args(args)
        .env("KUBECONFIG", &cluster().kubeconfig)
        .env("HOME", std::env::temp_dir().join("myops-test-kubectl-home"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kubectl runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(yaml.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// Runs the real kubectl as admin with `stdin` as input (for `apply -f -`).
///
/// kubectl's client-side apply reads each object, then creates it when the read found
/// nothing; two tests applying one shared object (a CRD) at once both read nothing and the
/// later create answers AlreadyExists. Applied again, kubectl finds the object and patches
/// it, so an AlreadyExists is retried (up to three tries) rather than failed.
pub fn kubectl_apply(yaml: &str) {
    let mut out = kubectl_stdin(&["apply", "-f", "-"], yaml);
    for _ in 1..3 {
        if out.status.success() || !text_of(&out.stderr).contains("(AlreadyExists)") {
            break;
        }
        out = kubectl_stdin(&["apply", "-f", "-"], yaml);
    }
    assert!(
        out.status.success(),
        "kubectl apply failed: {}",
        text_of(&out.stderr)
    );
}

/// Waits (up to 60 s) until every CRD in `names` (`plural.group`) is Established. Polls the
/// condition instead of `kubectl wait --for=condition=Established`, which fails at once
/// ("status.conditions accessor error: <nil>") when asked before the CRD has any condition.
pub fn wait_established(names: &[&str]) {
    for name in names {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        loop {
            let out = kubectl_raw(
                &cluster().kubeconfig,
                &[
                    "get",
                    "crd",
                    name,
                    "-o",
                    "jsonpath={.status.conditions[?(@.type==\"Established\")].status}",
                ],
            );
            if text_of(&out.stdout) == "True" {
                break;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "CRD {name} not Established within 60 s: {}",
                text_of(&out.stderr)
            );
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    }
}

/// Waits (up to 30 s) until the test cluster's kube-controller-manager (scripts/cluster) has
/// given namespace `ns` of the first server what it gives every namespace: the `default`
/// ServiceAccount and the `kube-root-ca.crt` ConfigMap. Tests then list them deterministically.
/// Returns at once on a cluster without one (`up --light`).
pub fn wait_for_namespace_controllers(ns: &str) {
    if !cluster().controller_manager {
        return;
    }
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let out = kubectl_raw(
            &cluster().kubeconfig,
            &[
                "get",
                "serviceaccount/default",
                "configmap/kube-root-ca.crt",
                "-n",
                ns,
                "-o",
                "name",
            ],
        );
        if out.status.success() {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "namespace {ns} has no default ServiceAccount and kube-root-ca.crt ConfigMap after 30 s (is kube-controller-manager running? scripts/cluster status): {}",
            text_of(&out.stderr)
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// A namespace of its own for one test, with the `default` ServiceAccount and the
/// `kube-root-ca.crt` ConfigMap the controller manager puts in every namespace (none on a light
/// cluster); deleted (without waiting; the namespace controller then removes it and everything
/// in it) when dropped.
pub struct Namespace(pub String);

impl Namespace {
    pub fn new(test: &str) -> Namespace {
        let suffix = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .subsec_nanos()
            % 100_000;
        let name = format!("t-{}-{suffix}", test.replace('_', "-"));
        kubectl(&["create", "namespace", &name]);
        wait_for_namespace_controllers(&name);
        Namespace(name)
    }

    /// Creates a bare pod, which stays Pending (no scheduler or kubelet runs; ServiceAccount
    /// admission is off, so it gets no token volume).
    pub fn pod(&self, name: &str) {
        kubectl(&[
            "run",
            name,
            "-n",
            &self.0,
            "--image=registry.invalid/pause:1",
            "--restart=Never",
            "--labels=app=web",
        ]);
    }

    /// Grants `user` get/list on `resource` in this namespace (a Role and a RoleBinding).
    pub fn grant(&self, user: &str, verbs: &str, resource: &str) {
        let role = format!("{user}-{}", resource.replace('.', "-"));
        kubectl(&[
            "create",
            "role",
            &role,
            "-n",
            &self.0,
            &format!("--verb={verbs}"),
            &format!("--resource={resource}"),
        ]);
        kubectl(&[
            "create",
            "rolebinding",
            &role,
            "-n",
            &self.0,
            &format!("--role={role}"),
            &format!("--user={user}"),
        ]);
    }
}

impl Drop for Namespace {
    fn drop(&mut self) {
        let _ = kubectl_raw(
            &cluster().kubeconfig,
            &["delete", "namespace", &self.0, "--wait=false"],
        );
    }
}

/// One run of kubectl-myops.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl From<Output> for Run {
    /// The exit code (-1 when killed by a signal) and both streams as text.
    fn from(out: Output) -> Run {
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: text_of(&out.stdout),
            stderr: text_of(&out.stderr),
        }
    }
}

/// A private MYOPS_HOME, HOME and plugin.yaml for running the binary under test.
pub struct Myops {
    pub dir: tempfile::TempDir,
    pub env: Vec<(String, String)>,
}

impl Myops {
    /// A plugin.yaml from `plugin_yaml`, pushing to the cluster's Pushgateway under a job
    /// of this test's own (so parallel tests do not replace each other's group).
    pub fn new(plugin_yaml: &str) -> Myops {
        let c = cluster();
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("plugin.yaml"), plugin_yaml).unwrap();
        let env = vec![
            ("HOME".into(), dir.path().join("home").display().to_string()),
            (
                "MYOPS_HOME".into(),
                dir.path().join("myops").display().to_string(),
            ),
            (
                "MYOPS_CONFIG".into(),
                dir.path().join("plugin.yaml").display().to_string(),
            ),
            ("KUBECONFIG".into(), c.kubeconfig.display().to_string()),
            // Pushed in the command, so a test reads the gateway right after a run; the
            // background pusher's own tests remove it (tests/it/metrics_background.rs).
            ("MYOPS_METRICS_PUSH".into(), "sync".into()),
        ];
        Myops { dir, env }
    }

    /// The default boundary used by most tests: get and patch on pods/deployments/CRDs (patch on
    /// customresourcedefinitions is what registering CRDs needs), both scopes.
    pub fn standard(job: &str) -> Myops {
        Myops::new(&format!(
            "name: myops\nverbs: [get, patch]\nresources: [pods, deployments, namespaces, customresourcedefinitions]\nscopes: [namespace, cluster]\nmetrics: [ops_total, ops_errors_total, ops_duration_seconds, crd_loads_total, crd_load_duration_seconds]\npushgateway:\n  url: {}\n  job: {job}\n  instance: test\n  timeout: 1s\n",
            cluster().pushgateway
        ))
    }

    pub fn set_env(&mut self, k: &str, v: &str) {
        self.env.retain(|(key, _)| key != k);
        self.env.push((k.into(), v.into()));
    }

    pub fn run(&self, args: &[&str]) -> Run {
        let out = self
            .command(args)
            .output()
            .expect("the kubectl-myops binary runs");
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: text_of(&out.stdout),
            stderr: text_of(&out.stderr),
        }
    }
}

/// Audit events (kube-apiserver audit log, Metadata level) for `resource` in `namespace`
/// made by `user` through kubectl-myops (its User-Agent).
pub fn audit_events(user: &str, resource: &str, namespace: &str) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(&cluster().audit_log).expect("audit log readable");
    text.lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|e| {
            e.pointer("/user/username").and_then(|v| v.as_str()) == Some(user)
                && e.pointer("/userAgent")
                    .and_then(|v| v.as_str())
                    .is_some_and(|a| a.starts_with("kubectl-myops/"))
                && e.pointer("/objectRef/resource").and_then(|v| v.as_str()) == Some(resource)
                && e.pointer("/objectRef/namespace").and_then(|v| v.as_str()) == Some(namespace)
        })
        .collect()
}

/// A free loopback port.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A Pushgateway of one test's own (Debian's `prometheus-pushgateway`, in memory only) on
/// `127.0.0.1:<port>`, killed when dropped: for tests that stop and restart a gateway, which
/// the cluster's shared one must never be.
pub struct Pushgateway {
    child: std::process::Child,
    pub url: String,
}

impl Pushgateway {
    /// Starts it and waits (at most 20 s) until `/-/ready` answers.
    pub fn start(port: u16) -> Pushgateway {
        use std::time::{Duration, Instant};
        let child = Command::new("prometheus-pushgateway")
            // In memory only: a restarted gateway starts empty, so what it shows afterwards
            // came from the next push (Debian's default persistence file is shared machine-wide).
            .args([
                "--web.listen-address",
                &format!("127.0.0.1:{port}"),
                "--persistence.file=",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("prometheus-pushgateway runs (scripts/setup installs it)");
        let url = format!("http://127.0.0.1:{port}");
        let end = Instant::now() + Duration::from_secs(20);
        while Command::new("curl")
            .args(["-sf", &format!("{url}/-/ready")])
            .output()
            .map(|o| !o.status.success())
            .unwrap_or(true)
        {
            assert!(Instant::now() < end, "pushgateway on {port} did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
        Pushgateway { child, url }
    }
}

impl Drop for Pushgateway {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Where the audit log ends now; [`audit_since`] then sees only what was written after it.
pub fn audit_mark() -> u64 {
    std::fs::metadata(&cluster().audit_log)
        .map(|m| m.len())
        .unwrap_or(0)
}

/// Every audit event written after `mark` (any user, any user agent).
pub fn audit_since(mark: u64) -> Vec<serde_json::Value> {
    use std::io::{Read, Seek, SeekFrom};
    let mut f = std::fs::File::open(&cluster().audit_log).expect("audit log readable");
    f.seek(SeekFrom::Start(mark)).unwrap();
    let mut bytes = Vec::new();
    f.read_to_end(&mut bytes).unwrap();
    text_of(&bytes)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .collect()
}

impl Myops {
    /// The binary under test with this environment, for tests that spawn it themselves
    /// (many at once, or with a deadline). It runs in a session of its own, without a
    /// controlling terminal, as in CI: a protection question (src/guard/protect.rs) is then
    /// refused headless instead of waiting on the terminal of whoever runs the tests.
    pub fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_kubectl-myops"));
        c.args(args)
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .envs(self.env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .stdin(Stdio::null());
        detach_from_terminal(&mut c);
        c
    }
}

/// The real kubectl with another kubeconfig (a stand-in's), or as admin for a step whose
/// failure the caller handles itself (cleanup); never panics.
pub fn kubectl_at(kubeconfig: &Path, args: &[&str]) -> Output {
    kubectl_raw(kubeconfig, args)
}

impl Myops {
    /// Runs `args` held at the debug build's hold `point` (`MYOPS_TEST_PAUSE=before-delete|
    /// before-restore`, src/guard/mutation/test_hooks.rs `test_hold`: between a read and the request that
    /// depends on it), runs `meanwhile`, then lets it go on and returns how it ended.
    pub fn held(&self, point: &str, args: &[&str], meanwhile: impl FnOnce()) -> Run {
        use std::time::{Duration, Instant};
        let marker = self.dir.path().join(format!("held-{point}"));
        let child = self
            .command(args)
            .env("MYOPS_TEST_PAUSE", point)
            .env("MYOPS_TEST_PAUSE_MARKER", &marker)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        let end = Instant::now() + Duration::from_secs(60);
        while !marker.exists() {
            assert!(Instant::now() < end, "{args:?} never reached {point}");
            std::thread::sleep(Duration::from_millis(20));
        }
        meanwhile();
        std::fs::remove_file(&marker).unwrap();
        let out = child.wait_with_output().unwrap();
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: text_of(&out.stdout),
            stderr: text_of(&out.stderr),
        }
    }

    /// Starts the mutating command `args` with the debug build's pause point `point`
    /// (`MYOPS_TEST_PAUSE=after-intent|after-send`, src/guard/mutation/test_hooks.rs `test_pause`) and
    /// kills it with SIGKILL once the marker says it stands there: an intent record without
    /// an outcome (`outcome unknown`). Returns the entry id of that intent record.
    pub fn killed_at(&self, point: &str, args: &[&str]) -> String {
        use std::time::{Duration, Instant};
        let marker = self.dir.path().join(format!("paused-{point}"));
        let _ = std::fs::remove_file(&marker);
        let before = self.latest_records().len();
        let mut child = self
            .command(args)
            .env("MYOPS_TEST_PAUSE", point)
            .env("MYOPS_TEST_PAUSE_MARKER", &marker)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        let end = Instant::now() + Duration::from_secs(60);
        while !marker.exists() {
            if let Ok(Some(status)) = child.try_wait() {
                panic!("{args:?} ended ({status}) before it reached the pause point {point}");
            }
            assert!(Instant::now() < end, "{args:?} never reached {point}");
            std::thread::sleep(Duration::from_millis(20));
        }
        child.kill().expect("SIGKILL"); // std's Child::kill is SIGKILL on unix
        let status = child.wait().unwrap();
        assert_eq!(
            std::os::unix::process::ExitStatusExt::signal(&status),
            Some(9),
            "killed by SIGKILL"
        );
        let records = self.latest_records();
        assert_eq!(records.len(), before + 1, "one new entry: {records:#?}");
        let last = records.last().unwrap();
        assert_eq!(last["result"], "pending", "its intent only: {last:#}");
        last["id"].as_str().unwrap().to_string()
    }

    /// Every record of the change log (`myops/changelog.jsonl`), intents and outcomes, in
    /// the order written; empty when there is no log yet.
    pub fn records(&self) -> Vec<serde_json::Value> {
        let path = self.dir.path().join("myops/changelog.jsonl");
        let text = std::fs::read_to_string(path).unwrap_or_default();
        text.lines()
            .map(|l| serde_json::from_str(l).expect("a valid record"))
            .collect()
    }

    /// The change log's records, the last one of every id, in first-seen order (one per
    /// attempt: an intent and its outcome collapse to the outcome).
    pub fn latest_records(&self) -> Vec<serde_json::Value> {
        let mut out: Vec<serde_json::Value> = Vec::new();
        for v in self.records() {
            match out.iter_mut().find(|e| e["id"] == v["id"]) {
                Some(e) => *e = v,
                None => out.push(v),
            }
        }
        out
    }

    /// `patch KIND NAME -n NS --type merge -p BODY`.
    pub fn merge_patch(&self, ns: &str, kind: &str, name: &str, body: &str) -> Run {
        self.run(&["patch", kind, name, "-n", ns, "--type", "merge", "-p", body])
    }

    /// [`Myops::merge_patch`] in kubeconfig context `context` (`alice`, `bob`, …).
    pub fn merge_patch_as(
        &self,
        context: &str,
        ns: &str,
        kind: &str,
        name: &str,
        body: &str,
    ) -> Run {
        self.run(&[
            "--context",
            context,
            "patch",
            kind,
            name,
            "-n",
            ns,
            "--type",
            "merge",
            "-p",
            body,
        ])
    }
}

/// `kubectl create deployment NAME -n NS --image=registry.invalid/NAME:1 --replicas=2`.
pub fn create_deployment(ns: &str, name: &str) {
    kubectl(&[
        "create",
        "deployment",
        name,
        "-n",
        ns,
        &format!("--image=registry.invalid/{name}:1"),
        "--replicas=2",
    ]);
}

/// `kubectl create secret generic NAME -n NS --from-literal=K=V…` as admin, one
/// `--from-literal` per `literals` item (`password=hunter2`).
pub fn create_secret(ns: &str, name: &str, literals: &[&str]) {
    let mut args = vec!["create", "secret", "generic", name, "-n", ns];
    let literals: Vec<String> = literals
        .iter()
        .map(|l| format!("--from-literal={l}"))
        .collect();
    args.extend(literals.iter().map(String::as_str));
    kubectl(&args);
}

/// `kubectl patch KIND NAME -n NS --type merge -p BODY` as admin (the real kubectl, field
/// manager `kubectl-patch`): another writer than kubectl-myops.
pub fn kubectl_merge_patch(ns: &str, kind: &str, name: &str, body: &str) -> String {
    kubectl(&["patch", kind, name, "-n", ns, "--type", "merge", "-p", body])
}

/// Makes `c` start a session of its own (setsid(2)), so it has no controlling terminal.
pub fn detach_from_terminal(c: &mut Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: setsid is async-signal-safe and touches no memory of the parent.
    unsafe {
        c.pre_exec(|| {
            libc::setsid();
            Ok(())
        });
    }
}

/// Waits (at most 20 s) until the object's resourceVersion has not changed for 1.5 s: a
/// Deployment just created is written by its controller a few times (status, ReplicaSet
/// counts), and a test whose patch carries a resourceVersion precondition (a field policy)
/// must not race those writes.
pub fn settled(ns: &str, kind: &str, name: &str) {
    use std::time::{Duration, Instant};
    let rv = || {
        kubectl(&[
            "get",
            kind,
            name,
            "-n",
            ns,
            "-o",
            "jsonpath={.metadata.resourceVersion}",
        ])
    };
    let end = Instant::now() + Duration::from_secs(20);
    let (mut last, mut since) = (rv(), Instant::now());
    while Instant::now() < end && since.elapsed() < Duration::from_millis(1500) {
        std::thread::sleep(Duration::from_millis(250));
        let now = rv();
        if now != last {
            (last, since) = (now, Instant::now());
        }
    }
}

/// The ValidatingAdmissionPolicies and bindings of plugin `0` (by the
/// `app.kubernetes.io/instance` label every exported object carries), deleted as admin when
/// dropped, also when the test fails: they are cluster-scoped and the cluster is shared.
pub struct AdmissionPolicies(pub String);

impl Drop for AdmissionPolicies {
    fn drop(&mut self) {
        let _ = kubectl_at(
            &cluster().kubeconfig,
            &[
                "delete",
                "validatingadmissionpolicybindings.admissionregistration.k8s.io,validatingadmissionpolicies.admissionregistration.k8s.io",
                "-l",
                &format!("app.kubernetes.io/instance={}", self.0),
                "--ignore-not-found",
                "--wait=false",
            ],
        );
    }
}

/// `kubectl myops policies export ARGS | kubectl apply -f -` (the real kubectl, as admin) for
/// plugin `plugin`; returns the guard that deletes what was applied.
pub fn export_and_apply(m: &Myops, plugin: &str, args: &[&str]) -> AdmissionPolicies {
    let guard = AdmissionPolicies(plugin.to_string());
    let mut all = vec!["policies", "export"];
    all.extend(args);
    let r = m.run(&all);
    assert_eq!(r.code, 0, "export: {}", r.stderr);
    let out = kubectl_stdin(&["apply", "-f", "-"], &r.stdout);
    assert!(
        out.status.success(),
        "kubectl apply: {}",
        text_of(&out.stderr)
    );
    guard
}
