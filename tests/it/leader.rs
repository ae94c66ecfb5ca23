//! `crds watch --leader-elect` and `--metrics-addr` against the real API server (issue 13
//! item 3): three watcher processes on one directory elect one leader through a real
//! `coordination.k8s.io/v1` Lease; kill -9 of the leader hands over within lease duration +
//! retry period; the apiserver's audit log shows that CRD writes never come from two
//! leaders at once; SIGTERM releases the Lease; RBAC denial is exit 3; the metrics endpoint
//! answers and the test Prometheus scrapes it.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::fixture::{Myops, Namespace, audit_mark, audit_since, cluster, cluster_var, kubectl};

/// Short timings so the tests are quick (client-go's defaults are 15 s / 10 s / 2 s).
const LEASE: Duration = Duration::from_secs(4);
const RETRY: Duration = Duration::from_secs(1);
const QUICK: [&str; 6] = [
    "--lease-duration",
    "4s",
    "--renew-deadline",
    "3s",
    "--retry-period",
    "1s",
];
/// What a loaded 2-core machine may add to a bound the algorithm guarantees: process
/// scheduling, a request round trip, the CRD apply and its Established/discovery wait.
const SLACK: Duration = Duration::from_secs(3);

fn crd(group: &str, plural: &str, kind: &str) -> String {
    format!(
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: {plural}.{group}\nspec:\n  group: {group}\n  scope: Namespaced\n  names: {{plural: {plural}, singular: {s}, kind: {kind}}}\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n",
        s = kind.to_lowercase()
    )
}

/// A directory only its owner may write (the watcher refuses group/world-writable ones).
fn private_dir(m: &Myops) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let d = m.dir.path().join("crds");
    std::fs::create_dir(&d).unwrap();
    std::fs::set_permissions(&d, std::fs::Permissions::from_mode(0o700)).unwrap();
    d
}

/// Several watcher processes whose JSON log lines arrive on one channel, tagged with the
/// process's index.
struct Group {
    children: Vec<Option<Child>>,
    tx: Sender<(usize, Value)>,
    lines: Receiver<(usize, Value)>,
    seen: Vec<(usize, Value)>,
    pending: Vec<(usize, Value)>,
}

impl Group {
    fn new() -> Group {
        let (tx, lines) = channel();
        Group {
            children: Vec::new(),
            tx,
            lines,
            seen: Vec::new(),
            pending: Vec::new(),
        }
    }

    /// Starts one more watcher (its own MYOPS_HOME, like a pod) and returns its index.
    fn start(&mut self, m: &Myops, dir: &Path, extra: &[&str]) -> usize {
        let i = self.children.len();
        let mut child = m
            .command(&[
                "crds",
                "watch",
                dir.to_str().unwrap(),
                "--log-format",
                "json",
            ])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("watcher starts");
        let out = child.stdout.take().unwrap();
        let tx = self.tx.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                let v: Value = serde_json::from_str(&line)
                    .unwrap_or_else(|_| panic!("not a JSON log line: {line}"));
                if tx.send((i, v)).is_err() {
                    break;
                }
            }
        });
        self.children.push(Some(child));
        i
    }

    /// Waits for a line with `event` from `who` (any process when `None`) whose fields
    /// contain `what`; an earlier unmatched line counts.
    fn expect(
        &mut self,
        who: Option<usize>,
        event: &str,
        what: &str,
        timeout: Duration,
    ) -> (usize, Value) {
        let matches = |(i, v): &(usize, Value)| {
            who.is_none_or(|w| w == *i) && v["event"] == event && v.to_string().contains(what)
        };
        if let Some(k) = self.pending.iter().position(matches) {
            return self.pending.remove(k);
        }
        let end = Instant::now() + timeout;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if matches(&line) {
                        return line;
                    }
                    self.pending.push(line);
                }
                Err(_) => panic!(
                    "no {event} {what:?} from {who:?} within {timeout:?}; log so far: {:#?}",
                    self.seen
                ),
            }
        }
    }

    /// Every line received so far or within `wait`.
    fn drain(&mut self, wait: Duration) -> Vec<(usize, Value)> {
        let end = Instant::now() + wait;
        while let Ok(line) = self
            .lines
            .recv_timeout(end.saturating_duration_since(Instant::now()))
        {
            self.seen.push(line.clone());
            self.pending.push(line);
        }
        self.seen.clone()
    }

    fn pid(&self, i: usize) -> u32 {
        self.children[i].as_ref().unwrap().id()
    }

    fn signal(&self, i: usize, sig: &str) {
        let status = Command::new("kill")
            .args([sig, &self.pid(i).to_string()])
            .status()
            .unwrap();
        assert!(status.success(), "kill {sig} {}", self.pid(i));
    }

    /// Waits (at most 10 s) for process `i` to exit and returns its exit code.
    fn wait(&mut self, i: usize) -> Option<i32> {
        let mut child = self.children[i].take().unwrap();
        let end = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(s) = child.try_wait().unwrap() {
                return s.code();
            }
            assert!(Instant::now() < end, "watcher {i} did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        for c in self.children.iter_mut().flatten() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// `GET http://addr/path` with curl: (status, body).
fn http_get(addr: &str, path: &str) -> (u16, String) {
    let out = Command::new("curl")
        .args(["-s", "-m", "5", "-w", "\n%{http_code}"])
        .arg(format!("http://{addr}{path}"))
        .output()
        .expect("curl runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let (body, code) = text.rsplit_once('\n').unwrap_or(("", "0"));
    (code.trim().parse().unwrap_or(0), body.to_string())
}

/// The Lease's spec as the server holds it.
fn lease_spec(ns: &str, name: &str) -> Value {
    let text = kubectl(&["get", "lease", "-n", ns, name, "-o", "json"]);
    serde_json::from_str::<Value>(&text).unwrap()["spec"].clone()
}

/// The session id in a kubectl-myops User-Agent (`kubectl-myops/<v> session/<id>`).
fn session_of(e: &Value) -> Option<String> {
    let ua = e["userAgent"].as_str()?;
    ua.split_whitespace()
        .find_map(|w| w.strip_prefix("session/"))
        .map(str::to_string)
}

/// The session id an identity (`<host>_<session>`) names.
fn session_of_identity(identity: &str) -> String {
    identity.rsplit('_').next().unwrap().to_string()
}

fn time_of(e: &Value) -> String {
    e["requestReceivedTimestamp"].as_str().unwrap().to_string()
}

#[test]
fn three_watchers_one_leader_and_after_kill_9_another_applies_a_new_file_within_lease_plus_retry() {
    let ns = Namespace::new("leader-kill");
    let lease = "loader";
    let g1 = format!("{}.leader.example.com", ns.0);
    let homes: Vec<Myops> = (0..3).map(|_| Myops::standard(&ns.0)).collect();
    let dir = private_dir(&homes[0]);
    std::fs::write(dir.join("a.yaml"), crd(&g1, "alphas", "Alpha")).unwrap();
    let mark = audit_mark();
    let mut g = Group::new();
    let mut extra = vec![
        "--leader-elect",
        "--lease-namespace",
        &ns.0,
        "--lease-name",
        lease,
        "--metrics-addr",
        "127.0.0.1:0",
    ];
    extra.extend(QUICK);
    for m in &homes {
        g.start(m, &dir, &extra);
    }
    let mut addrs = vec![String::new(); 3];
    for _ in 0..3 {
        let (i, v) = g.expect(None, "metrics-endpoint", "", Duration::from_secs(20));
        addrs[i] = v["addr"].as_str().unwrap().to_string();
    }
    // Exactly one leader; the other two follow it.
    let (first, v) = g.expect(None, "became-leader", "", Duration::from_secs(20));
    let first_id = v["identity"].as_str().unwrap().to_string();
    for i in (0..3).filter(|i| *i != first) {
        let (_, f) = g.expect(Some(i), "following", &first_id, Duration::from_secs(10));
        assert_eq!(f["holder"], first_id.as_str());
    }
    g.expect(
        Some(first),
        "registered",
        &format!("alphas.{g1}"),
        Duration::from_secs(30),
    );
    assert_eq!(
        lease_spec(&ns.0, lease)["holderIdentity"],
        first_id.as_str()
    );

    // The endpoints of a leader and of followers.
    for (i, a) in addrs.iter().enumerate() {
        assert_eq!(http_get(a, "/healthz"), (200, "ok\n".into()), "watcher {i}");
        assert_eq!(http_get(a, "/readyz"), (200, "ok\n".into()), "watcher {i}");
        let (code, body) = http_get(a, "/metrics");
        assert_eq!(code, 200);
        if i == first {
            assert!(
                body.contains("crd_loads_total{plugin=\"myops\",result=\"success\"} 1\n"),
                "{body}"
            );
        } else {
            assert!(
                !body.contains("crd_loads_total"),
                "a follower loaded nothing: {body}"
            );
        }
    }
    assert_eq!(http_get(&addrs[first], "/nope").0, 404);

    // kill -9 the leader, drop a new file: one of the others applies it within
    // lease duration + retry period (+ slack for the apply itself).
    std::thread::sleep(Duration::from_millis(1500));
    g.signal(first, "-KILL");
    let killed = Instant::now();
    g.wait(first);
    std::fs::write(dir.join("b.yaml"), crd(&g1, "betas", "Beta")).unwrap();
    let (second, v) = g.expect(None, "became-leader", "", LEASE + RETRY + SLACK);
    let took_over = killed.elapsed();
    let second_id = v["identity"].as_str().unwrap().to_string();
    assert_ne!(second, first);
    g.expect(Some(second), "registered", &format!("betas.{g1}"), SLACK);
    let applied = killed.elapsed();
    assert!(
        took_over <= LEASE + RETRY + SLACK,
        "took over {took_over:?} after the kill"
    );
    // Nobody else became leader meanwhile, and nobody but the leaders registered anything.
    let all = g.drain(Duration::from_secs(2));
    let leaders: Vec<usize> = all
        .iter()
        .filter(|(_, v)| v["event"] == "became-leader")
        .map(|(i, _)| *i)
        .collect();
    assert_eq!(leaders, vec![first, second], "{all:#?}");
    for (i, v) in &all {
        if v["event"] == "registered" {
            assert!(*i == first || *i == second, "watcher {i} registered: {v}");
        }
    }
    let spec = lease_spec(&ns.0, lease);
    assert_eq!(spec["holderIdentity"], second_id.as_str());
    assert_eq!(spec["leaseTransitions"], 1);
    assert_eq!(spec["leaseDurationSeconds"], 4);

    // The audit log: CRD writes come in one block per leader, each after that leader's
    // own successful Lease write, and the second leader's takeover after the first's last
    // CRD write — never two leaders applying at once.
    let events = audit_since(mark);
    let ours = |e: &&Value| {
        e["objectRef"]["name"]
            .as_str()
            .is_some_and(|n| n.ends_with(&g1))
    };
    let crd_writes: Vec<&Value> = events
        .iter()
        .filter(|e| e["objectRef"]["resource"] == "customresourcedefinitions")
        .filter(ours)
        // The apiserver's own controllers write CRD status; only this tool's writes count.
        .filter(|e| session_of(e).is_some())
        .filter(|e| {
            ["patch", "create", "update", "delete"].contains(&e["verb"].as_str().unwrap_or(""))
        })
        .collect();
    let lease_writes: Vec<&Value> = events
        .iter()
        .filter(|e| {
            e["objectRef"]["resource"] == "leases"
                && e["objectRef"]["namespace"] == ns.0.as_str()
                && ["create", "update"].contains(&e["verb"].as_str().unwrap_or(""))
                && e["responseStatus"]["code"]
                    .as_u64()
                    .is_some_and(|c| (200..300).contains(&c))
        })
        .collect();
    let (s1, s2) = (
        session_of_identity(&first_id),
        session_of_identity(&second_id),
    );
    let mut blocks: Vec<String> = Vec::new();
    for e in &crd_writes {
        let s = session_of(e).expect("a kubectl-myops user agent");
        if blocks.last() != Some(&s) {
            blocks.push(s);
        }
    }
    assert_eq!(
        blocks,
        vec![s1.clone(), s2.clone()],
        "CRD writes by session: {crd_writes:#?}"
    );
    let first_lease_write = |s: &str| {
        lease_writes
            .iter()
            .find(|e| session_of(e).as_deref() == Some(s))
            .map(|e| time_of(e))
            .unwrap_or_else(|| panic!("no successful Lease write by {s}"))
    };
    let first_crd_write = |s: &str| {
        crd_writes
            .iter()
            .find(|e| session_of(e).as_deref() == Some(s))
            .map(|e| time_of(e))
            .unwrap()
    };
    let last_crd_write_1 = crd_writes
        .iter()
        .rfind(|e| session_of(e).as_deref() == Some(s1.as_str()))
        .map(|e| e["stageTimestamp"].as_str().unwrap().to_string())
        .unwrap();
    assert!(first_lease_write(&s1) < first_crd_write(&s1));
    // The second leader's first successful Lease write is its takeover.
    assert!(
        last_crd_write_1 < first_lease_write(&s2),
        "{last_crd_write_1} vs {}",
        first_lease_write(&s2)
    );
    assert!(first_lease_write(&s2) < first_crd_write(&s2));
    eprintln!("kill -9 → became leader {took_over:?}, → new file registered {applied:?}");
}

#[test]
fn sigterm_of_the_leader_releases_the_lease_and_a_follower_takes_over_within_a_retry_period() {
    // client-go's default timings: without the release a follower would wait 15 s.
    let ns = Namespace::new("leader-term");
    let lease = "loader";
    let homes: Vec<Myops> = (0..2).map(|_| Myops::standard(&ns.0)).collect();
    let dir = private_dir(&homes[0]);
    let mut g = Group::new();
    let extra = [
        "--leader-elect",
        "--lease-namespace",
        &ns.0,
        "--lease-name",
        lease,
        "--metrics-addr",
        "127.0.0.1:0",
    ];
    for m in &homes {
        g.start(m, &dir, &extra);
    }
    let (first, _) = g.expect(None, "became-leader", "", Duration::from_secs(20));
    let other = 1 - first;
    g.expect(Some(other), "following", "", Duration::from_secs(10));
    assert_eq!(lease_spec(&ns.0, lease)["leaseDurationSeconds"], 15);
    g.signal(first, "-TERM");
    let termed = Instant::now();
    g.expect(Some(first), "released", lease, Duration::from_secs(2));
    assert_eq!(g.wait(first), Some(0));
    let (_, v) = g.expect(
        Some(other),
        "became-leader",
        "",
        Duration::from_secs(2) + SLACK,
    );
    let took = termed.elapsed();
    assert!(
        took < Duration::from_secs(2) + SLACK,
        "took over after {took:?}"
    );
    let spec = lease_spec(&ns.0, lease);
    assert_eq!(spec["holderIdentity"], v["identity"]);
    assert_eq!(spec["leaseTransitions"], 1);
    eprintln!("SIGTERM → follower leads after {took:?}");
}

#[test]
fn lease_denied_by_rbac_is_exit_3_naming_the_lease_and_nothing_is_sent_for_it() {
    let ns = Namespace::new("leader-bob");
    let m = Myops::standard(&ns.0);
    let dir = private_dir(&m);
    let mark = audit_mark();
    let r = m.run(&[
        "--context",
        "bob",
        "crds",
        "watch",
        dir.to_str().unwrap(),
        "--leader-elect",
        "--lease-namespace",
        &ns.0,
    ]);
    assert_eq!(r.code, 3, "{r:?}");
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("user \"bob\" cannot get leases.coordination.k8s.io")
            && r.stderr.contains("kubectl-myops-crd-loader")
            && r.stderr.contains(&format!("in namespace \"{}\"", ns.0)),
        "{}",
        r.stderr
    );
    let sent: Vec<Value> = audit_since(mark)
        .into_iter()
        .filter(|e| e["user"]["username"] == "bob" && e["objectRef"]["resource"] == "leases")
        .collect();
    assert!(sent.is_empty(), "{sent:#?}");
}

#[test]
fn readyz_is_503_while_the_lease_cannot_be_written_and_healthz_stays_200() {
    let ns = Namespace::new("leader-unready");
    let m = Myops::standard(&ns.0);
    let dir = private_dir(&m);
    let missing = format!("{}-absent", ns.0);
    let mut g = Group::new();
    let mut extra = vec![
        "--leader-elect",
        "--lease-namespace",
        &missing,
        "--metrics-addr",
        "127.0.0.1:0",
    ];
    extra.extend(QUICK);
    g.start(&m, &dir, &extra);
    let (_, v) = g.expect(None, "metrics-endpoint", "", Duration::from_secs(20));
    let addr = v["addr"].as_str().unwrap().to_string();
    let (_, e) = g.expect(Some(0), "lease-error", "", Duration::from_secs(10));
    assert!(e["message"].as_str().unwrap().contains("NotFound"), "{e}");
    assert_eq!(http_get(&addr, "/readyz"), (503, "not ready\n".into()));
    assert_eq!(http_get(&addr, "/healthz"), (200, "ok\n".into()));
}

#[test]
fn bad_metrics_addr_is_exit_2_and_a_port_in_use_exit_1_in_one_line() {
    let m = Myops::standard("leader-flags");
    let dir = private_dir(&m);
    let d = dir.to_str().unwrap();
    let r = m.run(&["crds", "watch", d, "--metrics-addr", "example.com:80"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert_eq!(
        r.stderr.trim_end(),
        "error: --metrics-addr \"example.com:80\": the host is not an IP address (host names are not resolved); give HOST:PORT with an IP address, e.g. 127.0.0.1:9100, [::1]:9100 or :9100 (all interfaces)"
    );
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let r = m.run(&["crds", "watch", d, "--metrics-addr", &addr]);
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(
        r.stderr.starts_with(&format!(
            "error: cannot serve metrics on {addr}: Address already in use"
        )),
        "{}",
        r.stderr
    );
    // Lease flags need --leader-elect; timings client-go would refuse are refused.
    let r = m.run(&["crds", "watch", d, "--lease-name", "x"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("--leader-elect"), "{}", r.stderr);
    let r = m.run(&[
        "crds",
        "watch",
        d,
        "--leader-elect",
        "--renew-deadline",
        "15s",
    ]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr
            .contains("--lease-duration (15s) must be greater than --renew-deadline (15s)"),
        "{}",
        r.stderr
    );
}

/// The file_sd targets file of the test Prometheus's `kubectl-myops-watch` job.
fn watch_targets() -> PathBuf {
    PathBuf::from(cluster_var("MYOPS_TEST_WATCH_TARGETS"))
}

/// Writes the targets file atomically (Prometheus re-reads it on change).
fn set_targets(path: &Path, json: &str) {
    let tmp = path.with_extension("json.tmp");
    std::fs::write(&tmp, json).unwrap();
    std::fs::rename(&tmp, path).unwrap();
}

fn prometheus_value(expr: &str) -> Option<f64> {
    let out = Command::new("curl")
        .args(["-sf", "-m", "5"])
        .arg(format!("{}/api/v1/query", cluster().prometheus))
        .args(["--data-urlencode", &format!("query={expr}")])
        .output()
        .ok()?;
    let v: Value = serde_json::from_slice(&out.stdout).ok()?;
    v["data"]["result"][0]["value"][1]
        .as_str()
        .and_then(|s| s.parse().ok())
}

#[test]
fn the_test_prometheus_scrapes_a_watchers_metrics_endpoint() {
    let targets = watch_targets();
    let ns = Namespace::new("leader-scrape");
    let m = Myops::standard(&ns.0);
    let dir = private_dir(&m);
    let group = format!("{}.scrape.example.com", ns.0);
    std::fs::write(dir.join("a.yaml"), crd(&group, "gammas", "Gamma")).unwrap();
    let mut g = Group::new();
    g.start(&m, &dir, &["--metrics-addr", "127.0.0.1:0"]);
    let (_, v) = g.expect(None, "metrics-endpoint", "", Duration::from_secs(20));
    let addr = v["addr"].as_str().unwrap().to_string();
    g.expect(Some(0), "registered", &group, Duration::from_secs(30));
    set_targets(&targets, &format!("[{{\"targets\": [\"{addr}\"]}}]\n"));
    let sel = format!(r#"job="kubectl-myops-watch",instance="{addr}""#);
    let end = Instant::now() + Duration::from_secs(60);
    let (mut up, mut loads) = (None, None);
    while Instant::now() < end && (up != Some(1.0) || loads != Some(1.0)) {
        up = prometheus_value(&format!("up{{{sel}}}"));
        loads = prometheus_value(&format!(
            r#"crd_loads_total{{{sel},plugin="myops",result="success"}}"#
        ));
        std::thread::sleep(Duration::from_millis(250));
    }
    set_targets(&targets, "[]\n");
    assert_eq!(up, Some(1.0), "up{{{sel}}}");
    assert_eq!(loads, Some(1.0), "crd_loads_total{{{sel}}}");
}

#[test]
fn a_leader_whose_lease_is_taken_stops_applying_until_it_leads_again_then_reconciles_everything() {
    let ns = Namespace::new("leader-stolen");
    let lease = "loader";
    let m = Myops::standard(&ns.0);
    let dir = private_dir(&m);
    let group = format!("{}.stolen.example.com", ns.0);
    let mut g = Group::new();
    let mut extra = vec![
        "--leader-elect",
        "--lease-namespace",
        &ns.0,
        "--lease-name",
        lease,
    ];
    extra.extend(QUICK);
    g.start(&m, &dir, &extra);
    g.expect(Some(0), "became-leader", "", Duration::from_secs(20));
    // Another holder writes the Lease (as a second candidate would after a takeover).
    kubectl(&[
        "patch",
        "lease",
        "-n",
        &ns.0,
        lease,
        "--type",
        "merge",
        "-p",
        r#"{"spec":{"holderIdentity":"intruder","leaseTransitions":7}}"#,
    ]);
    g.expect(Some(0), "lost-lease", lease, Duration::from_secs(5));
    g.expect(Some(0), "following", "intruder", Duration::from_secs(5));
    std::fs::write(dir.join("a.yaml"), crd(&group, "deltas", "Delta")).unwrap();
    // The intruder never renews: after the lease duration the watcher leads again (a new
    // term), reconciles, and only then registers the file dropped while it followed.
    let (_, v) = g.expect(Some(0), "became-leader", "", LEASE + RETRY + SLACK);
    assert_eq!(v["term"], 2);
    g.expect(Some(0), "registered", &group, SLACK);
    let order: Vec<String> = g
        .seen
        .iter()
        .map(|(_, v)| v["event"].as_str().unwrap().to_string())
        .filter(|e| {
            [
                "became-leader",
                "lost-lease",
                "following",
                "registered",
                "standing-by",
            ]
            .contains(&e.as_str())
        })
        .collect();
    let pos = |e: &str| order.iter().rposition(|x| x == e).unwrap();
    assert!(
        pos("following") < pos("became-leader") && pos("became-leader") < pos("registered"),
        "{order:?}"
    );
    assert_eq!(
        order.iter().filter(|e| *e == "registered").count(),
        1,
        "{order:?}"
    );
    assert_eq!(lease_spec(&ns.0, lease)["leaseTransitions"], 8);
}
