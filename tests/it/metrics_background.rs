//! The metrics push off the command's critical path (src/metrics/background.rs): a detached
//! pusher that loses no total when its push is cut off, leaves the newest totals on the
//! gateway when commands run at once, and reports a failure on the next run, once, without
//! credentials. Against the test cluster's real Pushgateway.

use std::io::{Read, Write};
use std::time::{Duration, Instant};

use crate::fixture::{Myops, Namespace, cluster, free_port};
use crate::metrics::{sample, scrape};

/// `Myops::standard(job)` pushing in the background, as a user's command does.
fn background(job: &str) -> Myops {
    let mut m = Myops::standard(job);
    m.env.retain(|(k, _)| k != "MYOPS_METRICS_PUSH");
    m
}

/// `ops_total` and `ops_duration_seconds_count` of the successful `get pods` of `job` on the
/// cluster's gateway (0 when absent).
fn gateway_counts(job: &str) -> (f64, f64) {
    let text = scrape(&cluster().pushgateway);
    let job = format!("job=\"{job}\"");
    let ok = [
        job.as_str(),
        "verb=\"get\"",
        "resource=\"pods\"",
        "status=\"success\"",
    ];
    (
        sample(&text, "ops_total", &ok).unwrap_or(0.0),
        sample(&text, "ops_duration_seconds_count", &ok).unwrap_or(0.0),
    )
}

/// Waits (at most 15 s) until the gateway holds `want` runs for `job`, then 1 s more and
/// returns what it holds then: a late push of older totals would show as a smaller number.
fn settled_counts(job: &str, want: f64) -> (f64, f64) {
    let end = Instant::now() + Duration::from_secs(15);
    while gateway_counts(job).0 != want && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_secs(1));
    gateway_counts(job)
}

fn warnings(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|l| l.starts_with("warning:"))
        .collect()
}

/// Runs `n` copies of the command `args` at once and waits for all; each must succeed.
fn at_once(m: &Myops, n: usize, args: &[&str]) {
    let children: Vec<_> = (0..n)
        .map(|_| {
            m.command(args)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
}

#[test]
fn a_hundred_runs_whose_pushes_were_cut_off_then_one_normal_run_leave_101_on_the_gateway() {
    let ns = Namespace::new("bg-cutoff");
    ns.pod("web-1");
    let mut m = background(&ns.0);
    // Nothing listens there: every background push of these 100 runs fails.
    m.set_env(
        "MYOPS_PUSHGATEWAY",
        &format!("http://127.0.0.1:{}", free_port()),
    );
    for _ in 0..25 {
        at_once(&m, 4, &["get", "pods", "-n", &ns.0]);
    }
    assert_eq!(
        gateway_counts(&ns.0),
        (0.0, 0.0),
        "nothing reached the gateway"
    );
    m.env.retain(|(k, _)| k != "MYOPS_PUSHGATEWAY");
    let r = m.run(&["get", "pods", "-n", &ns.0]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("web-1"), "{r:?}");
    assert_eq!(settled_counts(&ns.0, 101.0), (101.0, 101.0));
}

#[test]
fn two_runs_at_once_leave_the_final_totals_on_the_gateway() {
    let ns = Namespace::new("bg-race");
    ns.pod("web-1");
    let m = background(&ns.0);
    for round in 1..=5 {
        at_once(&m, 2, &["get", "pods", "-n", &ns.0]);
        let want = f64::from(2 * round);
        assert_eq!(settled_counts(&ns.0, want), (want, want), "round {round}");
    }
}

/// A gateway stand-in that answers every request with HTTP 400 and a body quoting the
/// request's `Authorization` header — a hostile or broken answer the warning must not echo.
fn echoing_gateway() -> (String, std::thread::JoinHandle<()>) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let handle = std::thread::spawn(move || {
        for stream in listener.incoming().take(1) {
            let mut stream = stream.unwrap();
            let mut buf = vec![0u8; 65536];
            let mut got = Vec::new();
            while !got.windows(4).any(|w| w == b"\r\n\r\n") {
                let n = stream.read(&mut buf).unwrap();
                if n == 0 {
                    break;
                }
                got.extend_from_slice(&buf[..n]);
            }
            let text = String::from_utf8_lossy(&got).to_string();
            let auth = text
                .lines()
                .find(|l| l.to_ascii_lowercase().starts_with("authorization:"))
                .unwrap_or("none")
                .to_string();
            let body = format!("bad push; you sent {auth}");
            let _ = write!(
                stream,
                "HTTP/1.1 400 Bad Request\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    (url, handle)
}

#[test]
fn a_failed_background_push_warns_on_the_next_run_once_and_never_shows_the_password() {
    use base64::Engine as _;
    let ns = Namespace::new("bg-warn");
    ns.pod("web-1");
    let (url, server) = echoing_gateway();
    let dir = tempfile::tempdir().unwrap();
    let password = "pw-7Hq9zS3cret";
    std::fs::write(dir.path().join("pw"), format!("{password}\n")).unwrap();
    let mut m = Myops::new(&format!(
        "name: myops\nverbs: [get]\nresources: [pods]\nscopes: [namespace]\nmetrics: [ops_total, ops_duration_seconds]\npushgateway: {{url: '{url}', job: '{}', instance: test, timeout: 2s, basicAuth: {{username: pusher, passwordFile: '{}'}}}}\n",
        ns.0,
        dir.path().join("pw").display()
    ));
    m.env.retain(|(k, _)| k != "MYOPS_METRICS_PUSH");
    let r = m.run(&["get", "pods", "-n", &ns.0]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        warnings(&r.stderr).is_empty(),
        "the run did not wait: {r:?}"
    );
    server.join().unwrap();
    let note = m.dir.path().join("myops/metrics-push-failed");
    let end = Instant::now() + Duration::from_secs(10);
    while !note.exists() && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        note.exists(),
        "the pusher left its failure for the next run"
    );
    // The gateway is fine again (the cluster's): the next run shows the old failure, once.
    m.set_env("MYOPS_PUSHGATEWAY", &cluster().pushgateway);
    let r = m.run(&["get", "pods", "-n", &ns.0]);
    assert_eq!(r.code, 0, "{r:?}");
    let w = warnings(&r.stderr);
    assert_eq!(w.len(), 1, "{r:?}");
    assert!(
        w[0].starts_with("warning: the last background metrics push to ")
            && w[0].contains("400")
            && w[0].contains("kept"),
        "{r:?}"
    );
    let basic = base64::engine::general_purpose::STANDARD.encode(format!("pusher:{password}"));
    assert!(!r.stderr.contains(password), "{r:?}");
    assert!(!r.stderr.contains(&basic), "{r:?}");
    let r = m.run(&["get", "pods", "-n", &ns.0]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(warnings(&r.stderr).is_empty(), "shown once: {r:?}");
}

#[test]
fn a_gateway_that_never_answers_does_not_hold_up_the_command() {
    let ns = Namespace::new("bg-hang");
    ns.pod("web-1");
    // Accepts connections and never answers: a push in the command would wait its 5 s.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let mut m = Myops::new(&format!(
        "name: myops\nverbs: [get]\nresources: [pods]\nscopes: [namespace]\nmetrics: [ops_total]\npushgateway: {{url: '{url}', job: '{}', timeout: 5s}}\n",
        ns.0
    ));
    m.env.retain(|(k, _)| k != "MYOPS_METRICS_PUSH");
    let started = Instant::now();
    let r = m.run(&["get", "pods", "-n", &ns.0]);
    let took = started.elapsed();
    assert_eq!(r.code, 0, "{r:?}");
    assert!(warnings(&r.stderr).is_empty(), "{r:?}");
    assert!(took < Duration::from_secs(3), "took {took:?}");
    // The same with the push in the command: it waits for the timeout and warns at once.
    m.set_env("MYOPS_METRICS_PUSH", "sync");
    let started = Instant::now();
    let r = m.run(&["get", "pods", "-n", &ns.0]);
    assert!(started.elapsed() >= Duration::from_secs(5), "{r:?}");
    assert_eq!(warnings(&r.stderr).len(), 1, "{r:?}");
    drop(listener);
}
