//! Scenario 5: the Pushgateway stalls, then answers 500, while 50 commands run at once.
//!
//! The gateway is a stand-in on 127.0.0.1 (a real Pushgateway cannot be made to stall or fail
//! on demand): healthy (200, every body recorded), stalled (reads the request, never
//! answers) or failing (500). 50 concurrent `get`s run with a healthy gateway first (the
//! baseline: what 50 processes on this machine take anyway), then 50 while the first 25
//! pushes stall and the other 25 get 500. Every command exits 0 with one push warning; every
//! stalled push closes its connection within its push timeout (plugin.yaml
//! `pushgateway.timeout`, measured at the gateway), and every command returns within the
//! baseline plus that timeout; after recovery one more command's push carries the exact
//! totals: 50 + 50 + 1.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::fixture::{Myops, Namespace, kubectl};
use crate::report::Tally;

const HEALTHY: u8 = 0;
/// Stalls the next [`Gateway::stall_budget`] requests, answers 500 after them.
const STALLED: u8 = 1;

/// The push timeout the scenario configures.
const TIMEOUT: Duration = Duration::from_secs(2);

/// The stand-in gateway; stops accepting when dropped.
struct Gateway {
    url: String,
    mode: Arc<AtomicU8>,
    /// How many more requests a [`STALLED`] gateway stalls before it answers 500.
    stall_budget: Arc<AtomicUsize>,
    /// Bodies of the PUTs answered 200, in order.
    bodies: Arc<Mutex<Vec<String>>>,
    /// How long each stalled push held its connection before the client gave up and closed
    /// it: the push's own wait, whatever the machine's load did to the rest of the command.
    held: Arc<Mutex<Vec<Duration>>>,
    stop: Arc<AtomicBool>,
    addr: std::net::SocketAddr,
}

impl Gateway {
    fn start() -> Gateway {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let mode = Arc::new(AtomicU8::new(HEALTHY));
        let stall_budget = Arc::new(AtomicUsize::new(0));
        let bodies = Arc::new(Mutex::new(Vec::new()));
        let held = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let (m, k, b, h, s) = (
            mode.clone(),
            stall_budget.clone(),
            bodies.clone(),
            held.clone(),
            stop.clone(),
        );
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                if s.load(Ordering::SeqCst) {
                    break;
                }
                if let Ok(c) = stream {
                    let (m, k, b, h) = (m.clone(), k.clone(), b.clone(), h.clone());
                    std::thread::spawn(move || serve(c, &m, &k, &b, &h));
                }
            }
        });
        Gateway {
            url: format!("http://{addr}"),
            mode,
            stall_budget,
            bodies,
            held,
            stop,
            addr,
        }
    }

    fn set(&self, mode: u8) {
        self.mode.store(mode, Ordering::SeqCst);
    }
}

impl Drop for Gateway {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(self.addr);
    }
}

/// Reads one request and answers it as the gateway's mode says (at the time it arrived).
fn serve(
    stream: TcpStream,
    mode: &AtomicU8,
    budget: &AtomicUsize,
    bodies: &Mutex<Vec<String>>,
    held: &Mutex<Vec<Duration>>,
) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let mut r = BufReader::new(stream.try_clone().unwrap());
    let mut line = String::new();
    let mut method = String::new();
    let mut length = 0usize;
    loop {
        line.clear();
        if r.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        if method.is_empty() {
            method = l.split(' ').next().unwrap_or("").to_string();
        }
        if let Some(v) = l.to_ascii_lowercase().strip_prefix("content-length:") {
            length = v.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0; length];
    let _ = r.read_exact(&mut body);
    let mut w = stream;
    let stalls = || {
        budget
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
            .is_ok()
    };
    let reply = match mode.load(Ordering::SeqCst) {
        STALLED if stalls() => {
            // Never a byte of answer (for up to 30 s, far past the push timeout); measures
            // how long the client waits before it closes the connection.
            let since = Instant::now();
            let _ = w.set_read_timeout(Some(Duration::from_millis(10)));
            let mut buf = [0u8; 64];
            while since.elapsed() < Duration::from_secs(30) {
                match w.read(&mut buf) {
                    Ok(0) => break,
                    Ok(_) => {}
                    Err(e)
                        if matches!(
                            e.kind(),
                            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                        ) => {}
                    Err(_) => break,
                }
            }
            held.lock().unwrap().push(since.elapsed());
            return;
        }
        STALLED => {
            "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 4\r\nConnection: close\r\n\r\noops"
        }
        _ => {
            if method == "PUT" {
                bodies
                    .lock()
                    .unwrap()
                    .push(String::from_utf8_lossy(&body).into_owned());
            }
            "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        }
    };
    let _ = w.write_all(reply.as_bytes());
}

/// The sum of the `ops_total` samples of an exposition-format body.
fn ops_total(body: &str) -> f64 {
    body.lines()
        .filter(|l| l.starts_with("ops_total{"))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
        .sum()
}

/// Runs `n` `get`s at once; returns each one's (exit code, stderr, wall time).
fn at_once(m: &Myops, ns: &str, n: usize) -> Vec<(i32, String, Duration)> {
    let started: Vec<_> = (0..n)
        .map(|_| {
            let child = m
                .command(&["get", "configmap", "web", "-n", ns])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("the binary runs");
            (Instant::now(), child)
        })
        .collect();
    let waiters: Vec<_> = started
        .into_iter()
        .map(|(at, child)| {
            std::thread::spawn(move || {
                let out = child.wait_with_output().unwrap();
                (
                    out.status.code().unwrap_or(-1),
                    String::from_utf8_lossy(&out.stderr).into_owned(),
                    at.elapsed(),
                )
            })
        })
        .collect();
    waiters.into_iter().map(|w| w.join().unwrap()).collect()
}

#[test]
fn pushgateway_stalled_then_failing_never_holds_a_command_and_loses_no_total() {
    let mut t = Tally::new("Pushgateway stalled, then 5xx");
    let ns = Namespace::new("chaos-pushgateway");
    let n = &ns.0;
    kubectl(&["create", "configmap", "web", "-n", n, "--from-literal=k=v0"]);
    let gw = Gateway::start();
    let m = Myops::new(&format!(
        "name: myops\nverbs: [get]\nresources: [configmaps]\nscopes: [namespace]\nmetrics: [ops_total, ops_errors_total, ops_duration_seconds]\npushgateway: {{url: '{}', job: chaos, instance: one, timeout: {}s}}\n",
        gw.url,
        TIMEOUT.as_secs()
    ));

    // The baseline: 50 at once against a healthy gateway.
    let base = at_once(&m, n, 50);
    assert!(base.iter().all(|(c, _, _)| *c == 0), "{base:?}");
    let baseline = base.iter().map(|r| r.2).max().unwrap();
    eprintln!("baseline: 50 concurrent gets, the slowest {baseline:?}");

    // The first 25 pushes stall, the other 25 get 500.
    gw.stall_budget.store(25, Ordering::SeqCst);
    gw.set(STALLED);
    t.fault();
    t.fault();
    let runs = at_once(&m, n, 50);
    // Wall time: what 50 processes take here anyway (with some room for the load to vary)
    // plus the push timeout; the push's own wait is measured at the gateway below.
    let bound = baseline.mul_f64(1.5) + TIMEOUT + Duration::from_secs(1);
    let (mut stalled, mut failed) = (0, 0);
    for (code, stderr, took) in &runs {
        t.command(*took);
        assert_eq!(
            *code, 0,
            "a metrics failure never changes the exit code: {stderr}"
        );
        assert!(
            *took <= bound,
            "returned within 1.5 × the baseline {baseline:?} + the push timeout {TIMEOUT:?} + 1 s: took {took:?}: {stderr}"
        );
        let warnings = stderr.matches("warning: metrics push to").count();
        assert_eq!(warnings, 1, "one push warning each: {stderr}");
        if stderr.contains("no answer within 2000 ms") {
            stalled += 1;
        } else if stderr.contains("500") {
            failed += 1;
        }
    }
    eprintln!("{stalled} pushes timed out on the stalled gateway, {failed} got 500");
    assert_eq!(
        (stalled, failed),
        (25, 25),
        "every push failed as the gateway did"
    );
    // Each stalled push gave up within its timeout (+ a little for the process to be
    // scheduled and close the socket).
    let held = gw.held.lock().unwrap().clone();
    assert_eq!(held.len(), 25, "{held:?}");
    let longest = held.iter().max().copied().unwrap();
    assert!(
        longest <= TIMEOUT + Duration::from_millis(500),
        "a stalled push held its connection {longest:?} with a {TIMEOUT:?} timeout: {held:?}"
    );
    t.survived();
    t.survived();
    t.note(format!(
        "{stalled} pushes stalled, {failed} got 500; a stalled push waited at most {:.2} s (timeout {} s); the slowest command {:.2} s, {:.2} s with a healthy gateway",
        longest.as_secs_f64(),
        TIMEOUT.as_secs(),
        runs.iter().map(|r| r.2).max().unwrap().as_secs_f64(),
        baseline.as_secs_f64()
    ));

    // Recovery: one more command's push carries every total.
    gw.set(HEALTHY);
    let pushed = gw.bodies.lock().unwrap().len();
    let r = m.run(&["get", "configmap", "web", "-n", n]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(!r.stderr.contains("warning"), "{r:?}");
    let bodies = gw.bodies.lock().unwrap().clone();
    assert!(bodies.len() > pushed, "the recovery push arrived");
    let total = ops_total(bodies.last().unwrap());
    if total != 101.0 {
        t.lost((101.0 - total).abs() as u32);
    }
    t.note(format!("recovery push: ops_total {total} = 50 + 50 + 1"));
    assert_eq!(
        total,
        101.0,
        "50 + 50 + 1 operations: {}",
        bodies.last().unwrap()
    );
}
