//! Metrics in a real Pushgateway: cumulative totals across short-lived runs, and a dead
//! gateway that neither fails the command nor loses a sample.

use std::process::Command;
use std::time::{Duration, Instant};

use crate::fixture::{Myops, Namespace, Pushgateway, cluster, free_port};

pub fn scrape(base: &str) -> String {
    let out = Command::new("curl")
        .args(["-sf", &format!("{base}/metrics")])
        .output()
        .expect("curl runs");
    assert!(out.status.success(), "scrape of {base} failed");
    String::from_utf8(out.stdout).unwrap()
}

/// The value of the first sample whose line contains every one of `parts`.
pub fn sample(text: &str, name: &str, parts: &[&str]) -> Option<f64> {
    text.lines()
        .filter(|l| l.starts_with(&format!("{name}{{")))
        .find(|l| parts.iter().all(|p| l.contains(p)))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|v| v.parse().ok())
}

#[test]
fn three_gets_and_one_denial_show_cumulative_totals_in_the_pushgateway() {
    let ns = Namespace::new("metrics");
    ns.pod("web-1");
    let m = Myops::standard(&ns.0);
    for _ in 0..3 {
        let r = m.run(&["get", "pods", "-n", &ns.0]);
        assert_eq!(r.code, 0, "{r:?}");
        assert!(!r.stderr.contains("warning"), "{r:?}");
    }
    let r = m.run(&["get", "pods", "-n", &ns.0, "--context", "bob"]);
    assert_eq!(r.code, 3, "{r:?}");
    let text = scrape(&cluster().pushgateway);
    let job = format!("job=\"{}\"", ns.0);
    let ok = [
        job.as_str(),
        "plugin=\"myops\"",
        "verb=\"get\"",
        "resource=\"pods\"",
        "status=\"success\"",
    ];
    let denied = [
        job.as_str(),
        "verb=\"get\"",
        "resource=\"pods\"",
        "status=\"denied\"",
    ];
    assert_eq!(sample(&text, "ops_total", &ok), Some(3.0), "{text}");
    assert_eq!(
        sample(&text, "ops_errors_total", &denied),
        Some(1.0),
        "{text}"
    );
    assert_eq!(
        sample(&text, "ops_duration_seconds_count", &ok),
        Some(3.0),
        "{text}"
    );
    assert_eq!(
        sample(&text, "ops_duration_seconds_count", &denied),
        Some(1.0),
        "{text}"
    );
    assert_eq!(
        sample(&text, "ops_errors_total", &ok),
        None,
        "successes are not errors"
    );
}

#[test]
fn a_stopped_pushgateway_warns_once_keeps_exit_0_and_the_next_push_carries_every_run() {
    let ns = Namespace::new("gw-down");
    ns.pod("web-1");
    let port = free_port();
    let gw = Pushgateway::start(port);
    let url = gw.url.clone();
    let m = Myops::new(&format!(
        "name: myops\nverbs: [get]\nresources: [pods]\nscopes: [namespace]\nmetrics: [ops_total, ops_errors_total, ops_duration_seconds]\npushgateway: {{url: '{url}', job: gwtest, instance: one, timeout: 1s}}\n"
    ));
    assert_eq!(m.run(&["get", "pods", "-n", &ns.0]).code, 0);
    drop(gw);
    for _ in 0..2 {
        let started = Instant::now();
        let r = m.run(&["get", "pods", "-n", &ns.0]);
        assert_eq!(r.code, 0, "{r:?}");
        let warnings: Vec<&str> = r
            .stderr
            .lines()
            .filter(|l| l.starts_with("warning:"))
            .collect();
        assert_eq!(warnings.len(), 1, "{r:?}");
        assert!(
            warnings[0].contains("metrics push") && warnings[0].contains("kept"),
            "{r:?}"
        );
        assert!(r.stdout.contains("web-1"), "{r:?}");
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "took {:?}",
            started.elapsed()
        );
    }
    let _gw = Pushgateway::start(port);
    let r = m.run(&["get", "pods", "-n", &ns.0]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(!r.stderr.contains("warning"), "{r:?}");
    let text = scrape(&url);
    let ok = ["job=\"gwtest\"", "status=\"success\"", "resource=\"pods\""];
    assert_eq!(sample(&text, "ops_total", &ok), Some(4.0), "{text}");
    assert_eq!(
        sample(&text, "ops_duration_seconds_count", &ok),
        Some(4.0),
        "{text}"
    );
}

#[test]
fn a_gateway_that_accepts_but_never_answers_does_not_delay_past_the_timeout() {
    let ns = Namespace::new("gw-slow");
    ns.pod("web-1");
    // A listener that accepts connections and never answers: the push must give up at the
    // configured timeout (300ms here), not hang.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let m = Myops::new(&format!(
        "name: myops\nverbs: [get]\nresources: [pods]\nscopes: [namespace]\nmetrics: [ops_total]\npushgateway: {{url: '{url}', timeout: 300ms}}\n"
    ));
    let started = Instant::now();
    let r = m.run(&["get", "pods", "-n", &ns.0]);
    let took = started.elapsed();
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        r.stderr
            .lines()
            .filter(|l| l.starts_with("warning:"))
            .count(),
        1,
        "{r:?}"
    );
    assert!(took < Duration::from_secs(3), "took {took:?}");
    drop(listener);
}

#[test]
fn metrics_show_push_and_reset_work_on_the_local_totals() {
    let ns = Namespace::new("metrics-cmd");
    ns.pod("web-1");
    let m = Myops::standard(&ns.0);
    for _ in 0..2 {
        assert_eq!(m.run(&["get", "pods", "-n", &ns.0]).code, 0);
    }
    let r = m.run(&["metrics", "show", "-o", "json"]);
    assert_eq!(r.code, 0, "{r:?}");
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["ops"][0]["count"], 2, "{v}");
    assert_eq!(v["ops"][0]["resource"], "pods");
    let r = m.run(&["metrics", "push"]);
    assert_eq!(
        (r.code, r.stdout.starts_with("pushed to http://127.0.0.1:")),
        (0, true),
        "{r:?}"
    );
    let text = scrape(&cluster().pushgateway);
    assert_eq!(
        sample(
            &text,
            "ops_total",
            &[&format!("job=\"{}\"", ns.0), "status=\"success\""]
        ),
        Some(2.0)
    );
    let r = m.run(&["metrics", "reset"]);
    assert_eq!(r.code, 2, "no terminal to ask and no --yes: {r:?}");
    let r = m.run(&["metrics", "reset", "--yes"]);
    assert_eq!((r.code, r.stdout.as_str()), (0, "metrics reset\n"), "{r:?}");
    let r = m.run(&["metrics", "show"]);
    assert_eq!((r.code, r.stdout.as_str()), (0, ""), "{r:?}");
    assert!(r.stderr.starts_with("No metrics recorded yet"), "{r:?}");
}
