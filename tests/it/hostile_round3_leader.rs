//! Third bad-input pass: `crds watch --leader-elect` against a Lease held by someone else
//! far into the future, Lease fields no well-behaved holder writes, timing and address flags
//! it cannot honour, a metrics port already taken, and slow or garbage HTTP to its
//! metrics endpoint.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::fixture::{Myops, Namespace, kubectl, kubectl_apply};
use crate::hostile::{Case, run_cases};

fn crd_dir(m: &Myops) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let d = m.dir.path().join("crds");
    std::fs::create_dir_all(&d).unwrap();
    std::fs::set_permissions(&d, std::fs::Permissions::from_mode(0o700)).unwrap();
    d
}

/// Plants Lease `name` in `ns` with `spec` (YAML flow map).
fn plant_lease(ns: &str, name: &str, spec: &str) {
    kubectl_apply(&format!(
        "apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata: {{name: {name}, namespace: {ns}}}\nspec: {spec}\n"
    ));
}

fn lease_spec(ns: &str, name: &str) -> Value {
    let text = kubectl(&["get", "lease", "-n", ns, name, "-o", "json"]);
    serde_json::from_str::<Value>(&text).unwrap()["spec"].clone()
}

/// One watcher whose stdout and stderr lines arrive on a channel; killed when dropped.
struct Watcher {
    child: Child,
    lines: Receiver<String>,
    seen: Vec<String>,
}

impl Watcher {
    fn start(m: &Myops, ns: &str, lease: &str, extra: &[&str]) -> Watcher {
        let dir = crd_dir(m);
        let mut child = m
            .command(&[
                "crds",
                "watch",
                dir.to_str().unwrap(),
                "--leader-elect",
                "--lease-namespace",
                ns,
                "--lease-name",
                lease,
                "--lease-duration",
                "4s",
                "--renew-deadline",
                "3s",
                "--retry-period",
                "1s",
            ])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let (tx, lines) = channel();
        for r in [
            Box::new(child.stdout.take().unwrap()) as Box<dyn Read + Send>,
            Box::new(child.stderr.take().unwrap()),
        ] {
            let tx = tx.clone();
            std::thread::spawn(move || {
                for l in BufReader::new(r).lines().map_while(Result::ok) {
                    if tx.send(l).is_err() {
                        break;
                    }
                }
            });
        }
        Watcher {
            child,
            lines,
            seen: Vec::new(),
        }
    }

    /// Waits for a line containing `what`.
    fn expect(&mut self, what: &str, timeout: Duration) -> String {
        if let Some(l) = self.seen.iter().find(|l| l.contains(what)) {
            return l.clone();
        }
        let end = Instant::now() + timeout;
        loop {
            match self
                .lines
                .recv_timeout(end.saturating_duration_since(Instant::now()))
            {
                Ok(l) => {
                    self.seen.push(l.clone());
                    if l.contains(what) {
                        return l;
                    }
                }
                Err(_) => panic!("no line with {what:?} within {timeout:?}: {:#?}", self.seen),
            }
        }
    }

    /// Everything printed within `wait`.
    fn drain(&mut self, wait: Duration) -> Vec<String> {
        let end = Instant::now() + wait;
        while let Ok(l) = self
            .lines
            .recv_timeout(end.saturating_duration_since(Instant::now()))
        {
            self.seen.push(l);
        }
        self.seen.clone()
    }

    /// SIGTERM, then the exit code (at most 5 s).
    fn term(&mut self) -> Option<i32> {
        let ok = std::process::Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .unwrap()
            .success();
        assert!(ok);
        let end = Instant::now() + Duration::from_secs(5);
        loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                return s.code();
            }
            assert!(
                Instant::now() < end,
                "the watcher did not stop within 5 s of SIGTERM"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Watcher {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn lease_renewed_until_the_year_9999_fails_every_round_as_unreachable() {
    let ns = Namespace::new("r3-lease-future");
    plant_lease(
        &ns.0,
        "held",
        "{holderIdentity: someone-else, leaseDurationSeconds: 2147483647, acquireTime: \"9999-12-31T23:59:59.000000Z\", renewTime: \"9999-12-31T23:59:59.000000Z\", leaseTransitions: 7}",
    );
    let before = lease_spec(&ns.0, "held");
    let m = Myops::standard(&ns.0);
    let mut w = Watcher::start(&m, &ns.0, "held", &[]);
    w.expect("following \"someone-else\"", Duration::from_secs(20));
    let seen = w.drain(Duration::from_secs(3));
    assert!(
        !seen.iter().any(|l| l.contains("became leader")),
        "{seen:#?}"
    );
    assert_eq!(w.term(), Some(0), "{:#?}", w.seen);
    assert_eq!(
        lease_spec(&ns.0, "held"),
        before,
        "another's Lease was written"
    );
}

#[test]
fn lease_holder_with_escape_sequences_and_10k_characters_reaches_the_terminal_raw() {
    let ns = Namespace::new("r3-lease-esc");
    let holder = format!("evil\\e]0;pwned\\a\\e[2J{}", "h".repeat(10_000));
    plant_lease(
        &ns.0,
        "esc",
        &format!(
            "{{holderIdentity: \"{holder}\", leaseDurationSeconds: 3600, renewTime: \"2026-01-01T00:00:00.000000Z\"}}"
        ),
    );
    let m = Myops::standard(&ns.0);
    let mut w = Watcher::start(&m, &ns.0, "esc", &[]);
    let line = w.expect("following \"evil", Duration::from_secs(20));
    assert!(
        !line.contains('\u{1b}') && !line.contains('\u{7}'),
        "raw control characters: {line:?}"
    );
    assert!(
        line.chars().count() < 2100,
        "a {}-character log line",
        line.chars().count()
    );
    assert_eq!(w.term(), Some(0));
}

/// Issue 35 item 3: the holder was escaped but only cut with the whole line at 2,000
/// characters; it is echoed as every other value a message quotes (`base::echo::quoted`).
#[test]
fn lease_holder_with_u202e_and_3000_characters_was_capped_at_a_2000_character_line() {
    let ns = Namespace::new("r3-lease-rlo");
    let holder = format!("evil\\e]0;pwned\\a\\u202E{}", "h".repeat(3000));
    plant_lease(
        &ns.0,
        "rlo",
        &format!(
            "{{holderIdentity: \"{holder}\", leaseDurationSeconds: 3600, renewTime: \"2026-01-01T00:00:00.000000Z\"}}"
        ),
    );
    let m = Myops::standard(&ns.0);
    let mut w = Watcher::start(&m, &ns.0, "rlo", &[]);
    let line = w.expect("following ", Duration::from_secs(20));
    assert_eq!(
        line,
        format!(
            "following \"evil\\u{{1b}}]0;pwned\\u{{7}}\\u{{202e}}{}…\" (3015 characters) (holder of the Lease {}/rlo); standing by",
            "h".repeat(49),
            ns.0
        )
    );
    assert_eq!(w.term(), Some(0));
}

#[test]
fn lease_with_max_transitions_and_no_renew_time_overflows_on_takeover() {
    let ns = Namespace::new("r3-lease-max");
    plant_lease(
        &ns.0,
        "maxed",
        "{holderIdentity: gone, leaseDurationSeconds: 1, leaseTransitions: 2147483647}",
    );
    let m = Myops::standard(&ns.0);
    let mut w = Watcher::start(&m, &ns.0, "maxed", &[]);
    w.expect("became leader", Duration::from_secs(20));
    let spec = lease_spec(&ns.0, "maxed");
    assert_eq!(spec["leaseTransitions"], 2147483647, "{spec}");
    assert_ne!(spec["holderIdentity"], "gone", "{spec}");
    assert_eq!(w.term(), Some(0), "{:#?}", w.seen);
    let seen = w.drain(Duration::from_millis(200));
    assert!(!seen.iter().any(|l| l.contains("panicked")), "{seen:#?}");
}

/// Starts a watcher with `--metrics-addr 127.0.0.1:0` and returns it and the address.
fn with_endpoint(ns: &str) -> (Myops, Watcher, String) {
    let m = Myops::standard(ns);
    let mut w = Watcher::start(&m, ns, "endpoint", &["--metrics-addr", "127.0.0.1:0"]);
    let line = w.expect("serving /metrics", Duration::from_secs(20));
    let addr = line.rsplit("http://").next().unwrap().trim().to_string();
    (m, w, addr)
}

fn healthz_within(addr: &str, limit: Duration) {
    let out = std::process::Command::new("curl")
        .args([
            "-s",
            "-m",
            &limit.as_secs().to_string(),
            "-o",
            "/dev/null",
            "-w",
            "%{http_code}",
        ])
        .arg(format!("http://{addr}/healthz"))
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "200",
        "/healthz did not answer within {limit:?}"
    );
}

#[test]
fn metrics_endpoint_slow_clients_hold_connections_forever() {
    let ns = Namespace::new("r3-metrics-slow");
    let (_m, mut w, addr) = with_endpoint(&ns.0);
    // 200 clients that send half a request head and then nothing.
    let mut slow: Vec<TcpStream> = (0..200)
        .map(|_| {
            let mut s = TcpStream::connect(&addr).unwrap();
            s.write_all(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
                .unwrap();
            s
        })
        .collect();
    healthz_within(&addr, Duration::from_secs(3));
    // The endpoint closes a connection whose request head does not arrive in time.
    let mut s = slow.pop().unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let began = Instant::now();
    let mut buf = [0u8; 512];
    let closed = s.read(&mut buf).is_ok();
    assert!(
        closed && began.elapsed() < Duration::from_secs(15),
        "a half-sent request was held {:?}",
        began.elapsed()
    );
    assert_eq!(w.term(), Some(0));
}

#[test]
fn metrics_endpoint_garbage_and_huge_requests_stop_the_endpoint() {
    let ns = Namespace::new("r3-metrics-junk");
    let (_m, mut w, addr) = with_endpoint(&ns.0);
    for junk in [
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 TLS hello\r\n\r\n".to_vec(),
        b"SSH-2.0-OpenSSH_9.6\r\n\r\n".to_vec(),
        [
            b"GET /metrics HTTP/1.1\r\nX: ".to_vec(),
            vec![b'a'; 2 << 20],
            b"\r\n\r\n".to_vec(),
        ]
        .concat(),
        [
            b"GET /".to_vec(),
            vec![b'p'; 1 << 20],
            b" HTTP/1.1\r\n\r\n".to_vec(),
        ]
        .concat(),
    ] {
        let mut s = TcpStream::connect(&addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let _ = s.write_all(&junk);
        let mut answer = Vec::new();
        let _ = s.take(64 * 1024).read_to_end(&mut answer);
        let text = String::from_utf8_lossy(&answer);
        assert!(
            !text.starts_with("HTTP/1.1 200"),
            "junk answered 200: {text}"
        );
    }
    healthz_within(&addr, Duration::from_secs(3));
    assert_eq!(w.term(), Some(0));
}

#[test]
fn hostile_round3_watcher_flags_and_a_taken_port_fail_cleanly() {
    let ns = Namespace::new("r3-leader-flags");
    let n = ns.0.clone();
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let taken_addr = taken.local_addr().unwrap().to_string();
    let watch = |extra: &[&str]| {
        let mut a: Vec<String> = [
            "crds",
            "watch",
            "{dir}/crds",
            "--leader-elect",
            "--lease-namespace",
            &n,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let mkdir = |m: &mut Myops| {
        crd_dir(m);
    };
    let cases = vec![
        Case::new(
            "metrics_port_taken_with_leader_elect_takes_the_lease_first",
            1,
        )
        .args_owned(watch(&[
            "--lease-name",
            "taken",
            "--metrics-addr",
            &taken_addr,
        ]))
        .stderr_has("Address already in use")
        .setup(mkdir)
        .after({
            let n = n.clone();
            move |_m, _r| {
                let out = crate::fixture::kubectl_at(
                    &crate::fixture::cluster().kubeconfig,
                    &["get", "lease", "-n", &n, "taken"],
                );
                if out.status.success() {
                    Err("the Lease was created although the watcher could not start".into())
                } else {
                    Ok(())
                }
            }
        }),
        Case::new("metrics_addr_port_out_of_range_wraps", 2)
            .args_owned(watch(&["--metrics-addr", "127.0.0.1:99999"]))
            .stderr_has("--metrics-addr")
            .setup(mkdir),
        Case::new("metrics_addr_with_escape_sequences_reaches_the_terminal", 2)
            .args_owned(watch(&["--metrics-addr", "\u{1b}]0;pwned\u{7}:80"]))
            .stderr_has("--metrics-addr")
            .setup(mkdir)
            .after(crate::hostile_round3::no_raw_escape),
        Case::new("lease_name_not_a_dns_name_is_sent", 2)
            .args_owned(watch(&["--lease-name", "Not_A/Name"]))
            .stderr_has("--lease-name")
            .setup(mkdir),
        Case::new("lease_namespace_not_a_dns_label_is_sent", 2)
            .args(&[
                "crds",
                "watch",
                "{dir}/crds",
                "--leader-elect",
                "--lease-namespace",
                "Bad..NS",
            ])
            .stderr_has("--lease-namespace")
            .setup(mkdir),
        Case::new("lease_duration_fractional_is_truncated", 2)
            .args_owned(watch(&["--lease-duration", "15.5s"]))
            .stderr_has("--lease-duration")
            .setup(mkdir),
        Case::new("lease_duration_beyond_int32_wraps_negative", 2)
            .args_owned(watch(&[
                "--lease-duration",
                "3000000000s",
                "--renew-deadline",
                "10s",
            ]))
            .stderr_has("--lease-duration")
            .setup(mkdir),
        Case::new("retry_period_zero_spins", 2)
            .args_owned(watch(&["--retry-period", "0s"]))
            .stderr_has("--retry-period")
            .setup(mkdir),
        Case::new("lease_duration_garbage_is_ignored", 2)
            .args_owned(watch(&["--lease-duration", "forever"]))
            .stderr_has("forever")
            .setup(mkdir),
    ];
    run_cases("round3-leader", cases);
    drop((taken, ns));
}
