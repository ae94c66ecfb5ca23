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
    let group = pushed_group(&m);
    let r = m.run(&["metrics", "reset", "--yes"]);
    assert_eq!(
        (r.code, r.stdout.clone()),
        (
            0,
            format!("metrics reset\ndeleted the Pushgateway group {group}\n")
        ),
        "{r:?}"
    );
    assert!(groups(&cluster().pushgateway, &ns.0).is_empty());
    let r = m.run(&["metrics", "show"]);
    assert_eq!((r.code, r.stdout.as_str()), (0, ""), "{r:?}");
    assert!(r.stderr.starts_with("No metrics recorded yet"), "{r:?}");
}

/// The grouping labels of every group of `job` on the gateway at `base` (its
/// `/api/v1/metrics` API), sorted.
pub fn groups(base: &str, job: &str) -> Vec<serde_json::Value> {
    let out = Command::new("curl")
        .args(["-sf", &format!("{base}/api/v1/metrics")])
        .output()
        .expect("curl runs");
    assert!(out.status.success(), "{base}/api/v1/metrics failed");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut labels: Vec<serde_json::Value> = v["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["labels"]["job"] == job)
        .map(|g| g["labels"].clone())
        .collect();
    labels.sort_by_key(|l| l.to_string());
    labels
}

/// The state file of `m` as JSON.
pub fn state_file(m: &Myops) -> serde_json::Value {
    let text = std::fs::read_to_string(m.dir.path().join("myops/metrics-state.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// The group URL `m`'s state remembers having pushed to.
pub fn pushed_group(m: &Myops) -> String {
    state_file(m)["pushedGroup"]
        .as_str()
        .expect("a pushed group")
        .to_string()
}

#[test]
fn two_myops_homes_on_one_host_no_longer_replace_each_others_group() {
    let ns = Namespace::new("metrics-two-homes");
    ns.pod("web-1");
    let (a, b) = (Myops::standard(&ns.0), Myops::standard(&ns.0));
    for _ in 0..2 {
        assert_eq!(a.run(&["get", "pods", "-n", &ns.0]).code, 0);
    }
    assert_eq!(b.run(&["get", "pods", "-n", &ns.0]).code, 0);
    let (id_a, id_b) = (
        state_file(&a)["stateId"].as_str().unwrap().to_string(),
        state_file(&b)["stateId"].as_str().unwrap().to_string(),
    );
    assert_ne!(id_a, id_b);
    let gw = &cluster().pushgateway;
    let mut want = vec![
        serde_json::json!({"job": ns.0, "instance": "test", "state_id": id_a}),
        serde_json::json!({"job": ns.0, "instance": "test", "state_id": id_b}),
    ];
    want.sort_by_key(|l| l.to_string());
    assert_eq!(groups(gw, &ns.0), want);
    let text = scrape(gw);
    let ok = |id: &str| {
        sample(
            &text,
            "ops_total",
            &[
                &format!("job=\"{}\"", ns.0),
                &format!("state_id=\"{id}\""),
                "status=\"success\"",
            ],
        )
    };
    assert_eq!((ok(&id_a), ok(&id_b)), (Some(2.0), Some(1.0)), "{text}");
    assert_eq!(
        pushed_group(&a),
        format!("{gw}/metrics/job/{}/instance/test/state_id/{id_a}", ns.0)
    );
}

#[test]
fn a_changed_instance_deletes_the_old_group_so_a_sum_never_counts_twice() {
    let ns = Namespace::new("metrics-rekey");
    ns.pod("web-1");
    let gw = &cluster().pushgateway;
    let yaml = |instance: &str| {
        format!(
            "name: myops\nverbs: [get]\nresources: [pods]\nscopes: [namespace]\nmetrics: [ops_total]\npushgateway: {{url: '{gw}', job: {}, instance: {instance}, timeout: 2s}}\n",
            ns.0
        )
    };
    let m = Myops::new(&yaml("one"));
    assert_eq!(m.run(&["get", "pods", "-n", &ns.0]).code, 0);
    let old = pushed_group(&m);
    assert!(old.contains("/instance/one/state_id/"), "{old}");
    std::fs::write(m.dir.path().join("plugin.yaml"), yaml("two")).unwrap();
    let r = m.run(&["get", "pods", "-n", &ns.0]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(!r.stderr.contains("warning"), "{r:?}");
    let id = state_file(&m)["stateId"].as_str().unwrap().to_string();
    assert_eq!(
        groups(gw, &ns.0),
        [serde_json::json!({"job": ns.0, "instance": "two", "state_id": id})]
    );
    let text = scrape(gw);
    assert_eq!(
        sample(&text, "ops_total", &[&format!("job=\"{}\"", ns.0)]),
        Some(2.0),
        "{text}"
    );
    assert_eq!(
        pushed_group(&m),
        old.replace("/instance/one/", "/instance/two/")
    );
}

#[test]
fn metrics_delete_removes_the_group_keeps_the_totals_and_the_next_run_pushes_them_all() {
    let ns = Namespace::new("metrics-delete");
    ns.pod("web-1");
    let gw = &cluster().pushgateway;
    let m = Myops::standard(&ns.0);
    assert_eq!(m.run(&["get", "pods", "-n", &ns.0]).code, 0);
    let group = pushed_group(&m);
    let r = m.run(&["metrics", "delete"]);
    assert_eq!(
        (r.code, r.stdout.clone()),
        (0, format!("deleted the Pushgateway group {group}\n")),
        "{r:?}"
    );
    assert!(groups(gw, &ns.0).is_empty());
    assert!(state_file(&m).get("pushedGroup").is_none());
    let r = m.run(&["metrics", "show", "-o", "json"]);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["ops"][0]["count"], 1, "{v}");
    assert_eq!(m.run(&["get", "pods", "-n", &ns.0]).code, 0);
    let text = scrape(gw);
    assert_eq!(
        sample(&text, "ops_total", &[&format!("job=\"{}\"", ns.0)]),
        Some(2.0),
        "{text}"
    );
    // Without a gateway: a usage error, nothing deleted.
    let mut bare = Myops::new(
        "name: myops\nverbs: [get]\nresources: [pods]\nscopes: [namespace]\nmetrics: [ops_total]\n",
    );
    bare.set_env(
        "MYOPS_HOME",
        &m.dir.path().join("myops").display().to_string(),
    );
    let r = bare.run(&["metrics", "delete"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("no Pushgateway configured"), "{r:?}");
}

#[test]
fn a_pushgateway_400_reason_is_shown_whole_on_one_line() {
    let ns = Namespace::new("metrics-400");
    ns.pod("web-1");
    let gw = Pushgateway::start(free_port());
    // Another group holds ops_total as a gauge: the gateway refuses our counter (HTTP 400)
    // with a reason that quotes the whole series (longer than the 300 characters it was cut to).
    let out = Command::new("curl")
        .args(["-sf", "-X", "PUT", "--data-binary"])
        .arg("# TYPE ops_total gauge\nops_total{plugin=\"myops\",resource=\"pods\",status=\"success\",verb=\"get\"} 1\n")
        .arg(format!("{}/metrics/job/other/instance/x", gw.url))
        .output()
        .expect("curl runs");
    assert!(out.status.success(), "{out:?}");
    let m = Myops::new(&format!(
        "name: myops\nverbs: [get]\nresources: [pods]\nscopes: [namespace]\nmetrics: [ops_total, ops_errors_total, ops_duration_seconds]\npushgateway: {{url: '{}', job: {}, instance: i, timeout: 2s}}\n",
        gw.url, ns.0
    ));
    let r = m.run(&["get", "pods", "-n", &ns.0]);
    assert_eq!(r.code, 0, "{r:?}");
    let warnings: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| l.starts_with("warning:"))
        .collect();
    assert_eq!(warnings.len(), 1, "{r:?}");
    let w = warnings[0];
    assert!(
        w.contains("the Pushgateway answered HTTP 400: pushed metrics are invalid or inconsistent with existing metrics: collected metric \"ops_total\""),
        "{w}"
    );
    // The whole reason: the gateway's last words and our advice after them, nothing cut.
    // The gateway names whichever of the two groups it checks second (their order follows
    // the grouping key, and ours ends in a random state_id): either type may be the one "not".
    assert!(
        w.contains("is not a GAUGE; the totals are kept in ")
            || w.contains("is not a COUNTER; the totals are kept in "),
        "{w}"
    );
    assert!(w.len() > 400 && !w.contains("characters)"), "{w}");
}

#[test]
fn metrics_reset_with_the_gateway_down_resets_locally_and_names_metrics_delete_exit_1() {
    let ns = Namespace::new("metrics-reset-down");
    ns.pod("web-1");
    let port = free_port();
    let gw = Pushgateway::start(port);
    let m = Myops::new(&format!(
        "name: myops\nverbs: [get]\nresources: [pods]\nscopes: [namespace]\nmetrics: [ops_total]\npushgateway: {{url: '{}', job: {}, instance: i, timeout: 1s}}\n",
        gw.url, ns.0
    ));
    assert_eq!(m.run(&["get", "pods", "-n", &ns.0]).code, 0);
    let group = pushed_group(&m);
    drop(gw);
    let r = m.run(&["metrics", "reset", "--yes"]);
    assert_eq!((r.code, r.stdout.as_str()), (1, "metrics reset\n"), "{r:?}");
    assert_eq!(r.stderr.lines().count(), 1, "one line of error: {r:?}");
    assert!(
        r.stderr.contains(&format!(
            "the local totals were reset, but deleting the group {group} on the Pushgateway failed: Connection refused"
        )) && r.stderr.contains("run `kubectl myops metrics delete` once the Pushgateway is reachable"),
        "{r:?}"
    );
    // Local totals gone, the id and the remembered group kept for the later delete.
    let st = state_file(&m);
    assert_eq!(st["ops"], serde_json::json!([]), "{st}");
    assert_eq!(st["pushedGroup"], group.as_str(), "{st}");
    let r = m.run(&["metrics", "delete"]);
    assert_eq!(r.code, 1, "{r:?}");
    // The gateway is back (empty, in memory): the delete succeeds and forgets the group.
    let _gw = Pushgateway::start(port);
    let r = m.run(&["metrics", "delete"]);
    assert_eq!(
        (r.code, r.stdout.clone()),
        (0, format!("deleted the Pushgateway group {group}\n")),
        "{r:?}"
    );
    assert!(state_file(&m).get("pushedGroup").is_none());
}

#[test]
fn a_copied_myops_home_pushed_over_the_original_group() {
    let ns = Namespace::new("metrics-copy");
    ns.pod("web-1");
    let gw = &cluster().pushgateway;
    let m = Myops::standard(&ns.0);
    assert_eq!(m.run(&["get", "pods", "-n", &ns.0]).code, 0);
    assert_eq!(m.run(&["get", "pods", "-n", &ns.0]).code, 0);
    let original = state_file(&m)["stateId"].as_str().unwrap().to_string();
    let home = m.dir.path().join("myops");
    let copy = m.dir.path().join("myops-copy");
    let status = std::process::Command::new("cp")
        .arg("-a")
        .arg(&home)
        .arg(&copy)
        .status()
        .unwrap();
    assert!(status.success());
    let mut c = Myops::standard(&ns.0);
    c.env = m.env.clone();
    c.set_env("MYOPS_HOME", &copy.display().to_string());
    let r = c.run(&["get", "pods", "-n", &ns.0]);
    assert_eq!(r.code, 0, "{r:?}");
    let copied: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(copy.join("metrics-state.json")).unwrap())
            .unwrap();
    let id = copied["stateId"].as_str().unwrap().to_string();
    assert_ne!(id, original, "the copy kept the original's stateId");
    // Two groups: the original's with its two gets, the copy's with its one (not 3: the
    // copy's totals start from zero, so a sum over both is the three commands run).
    let mut got = groups(gw, &ns.0);
    got.sort_by_key(|g| g["state_id"].as_str().unwrap_or_default().to_string());
    let mut want = vec![
        serde_json::json!({"job": ns.0, "instance": "test", "state_id": original}),
        serde_json::json!({"job": ns.0, "instance": "test", "state_id": id}),
    ];
    want.sort_by_key(|g| g["state_id"].as_str().unwrap_or_default().to_string());
    assert_eq!(got, want);
    let text = scrape(gw);
    let ops = |state: &str| {
        sample(
            &text,
            "ops_total",
            &[
                &format!("job=\"{}\"", ns.0),
                &format!("state_id=\"{state}\""),
            ],
        )
    };
    assert_eq!((ops(&original), ops(&id)), (Some(2.0), Some(1.0)), "{text}");
    // The original goes on in its own group, its id unchanged.
    assert_eq!(m.run(&["get", "pods", "-n", &ns.0]).code, 0);
    assert_eq!(state_file(&m)["stateId"].as_str().unwrap(), original);
    assert_eq!(
        sample(
            &scrape(gw),
            "ops_total",
            &[&format!("state_id=\"{original}\"")]
        ),
        Some(3.0)
    );
}
