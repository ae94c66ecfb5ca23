//! The operations kit (deploy/monitoring/) and metrics end to end: kubectl-myops pushes to the
//! cluster's real Pushgateway, the cluster's real Prometheus (Debian's `prometheus`, started by
//! `scripts/cluster up`) scrapes it every second with the repository's rule files loaded, and
//! the tests ask Prometheus's HTTP API (`/api/v1/query`, `/api/v1/rules`, `/api/v1/alerts`).
//! Every test uses a job of its own (its namespace's name) and scopes every query to it.
//! A gateway that is down or hangs, and grouping values that need the gateway's base64 form,
//! are here too (the basic cases are in metrics.rs, whose `scrape` and `sample` are reused).

use std::collections::BTreeMap;
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::fixture::{Myops, Namespace, Pushgateway, cluster, free_port, root};
use crate::metrics::{sample, scrape};

/// Serialises the test that runs 100 processes at once with the one that measures how long
/// each command takes, so the first cannot slow the second past its budget.
static HEAVY: Mutex<()> = Mutex::new(());

fn heavy() -> std::sync::MutexGuard<'static, ()> {
    HEAVY
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// How long a test waits for Prometheus to show a pushed value (it scrapes every second and
/// evaluates the rules every second).
const PROMETHEUS_DEADLINE: Duration = Duration::from_secs(45);

/// One sample of a Prometheus instant-query answer.
#[derive(Debug, Clone)]
struct Sample {
    labels: BTreeMap<String, String>,
    value: f64,
}

/// Evaluates `expr` at the current time: the samples of a vector (or the one value of a
/// scalar, with no labels), or the API's error for an invalid expression.
fn query(expr: &str) -> Result<Vec<Sample>, String> {
    let out = Command::new("curl")
        .args(["-s", "-G", "--max-time", "10"])
        .arg(format!("{}/api/v1/query", cluster().prometheus))
        .arg("--data-urlencode")
        .arg(format!("query={expr}"))
        .stdin(Stdio::null())
        .output()
        .expect("curl runs");
    assert!(
        out.status.success(),
        "curl to the test Prometheus {} failed ({}); run scripts/cluster up",
        cluster().prometheus,
        out.status
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "Prometheus answered non-JSON to {expr:?} ({e}): {}",
            String::from_utf8_lossy(&out.stdout)
        )
    });
    if v["status"] != "success" {
        return Err(format!("{}: {}", v["errorType"], v["error"]));
    }
    let value = |pair: &serde_json::Value| -> f64 {
        let text = pair[1].as_str().expect("a value is [time, \"string\"]");
        text.parse()
            .unwrap_or_else(|_| panic!("value {text:?} of {expr:?}"))
    };
    let data = &v["data"];
    match data["resultType"].as_str() {
        Some("vector") => Ok(data["result"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| Sample {
                labels: s["metric"]
                    .as_object()
                    .unwrap()
                    .iter()
                    .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
                    .collect(),
                value: value(&s["value"]),
            })
            .collect()),
        Some("scalar") => Ok(vec![Sample {
            labels: BTreeMap::new(),
            value: value(&data["result"]),
        }]),
        other => Err(format!("unexpected result type {other:?} of {expr:?}")),
    }
}

/// Polls `expr` until `done` holds for its samples; panics with the last answer after
/// [`PROMETHEUS_DEADLINE`].
fn wait_for(expr: &str, what: &str, done: impl Fn(&[Sample]) -> bool) -> Vec<Sample> {
    let end = Instant::now() + PROMETHEUS_DEADLINE;
    loop {
        let last = query(expr);
        if let Ok(samples) = &last
            && done(samples)
        {
            eprintln!("{expr} = {}", show(samples));
            return samples.clone();
        }
        assert!(
            Instant::now() < end,
            "Prometheus never showed {what} within {PROMETHEUS_DEADLINE:?}: {expr} = {last:?}"
        );
        std::thread::sleep(Duration::from_millis(250));
    }
}

/// Samples as `{labels} value` for the test log.
fn show(samples: &[Sample]) -> String {
    let items: Vec<String> = samples
        .iter()
        .map(|s| format!("{:?} {}", s.labels, s.value))
        .collect();
    format!("[{}]", items.join(", "))
}

/// Waits until `expr` is one sample equal to `want` and returns it.
fn wait_for_value(expr: &str, want: f64) -> f64 {
    wait_for(expr, &format!("the value {want}"), |s| {
        s.len() == 1 && s[0].value == want
    })[0]
        .value
}

/// Prometheus's HTTP API at `path` (e.g. `/api/v1/alerts`), as JSON.
fn api(path: &str) -> serde_json::Value {
    let out = Command::new("curl")
        .args(["-sf", "--globoff", "--max-time", "10"])
        .arg(format!("{}{path}", cluster().prometheus))
        .output()
        .expect("curl runs");
    assert!(out.status.success(), "GET {path} from Prometheus failed");
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Waits until Prometheus has an active alert `name` with `job` in `state` (pending or
/// firing) and returns it.
fn wait_for_alert(name: &str, job: &str, state: &str) -> serde_json::Value {
    let end = Instant::now() + PROMETHEUS_DEADLINE;
    loop {
        let alerts = api("/api/v1/alerts");
        let found = alerts["data"]["alerts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| {
                a["labels"]["alertname"] == name && a["labels"]["job"] == job && a["state"] == state
            })
            .cloned();
        if let Some(alert) = found {
            return alert;
        }
        assert!(
            Instant::now() < end,
            "no {state} alert {name} for job {job} within {PROMETHEUS_DEADLINE:?}: {alerts}"
        );
        std::thread::sleep(Duration::from_millis(250));
    }
}

/// The `ops` entries of the state file under the run's MYOPS_HOME.
fn state_ops(m: &Myops) -> Vec<serde_json::Value> {
    let path = m.dir.path().join("myops/metrics-state.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{} unreadable: {e}", path.display()));
    // Read as YAML (JSON is YAML): serde_json without its `float_roundtrip` feature parses
    // e.g. 90.62518231799999 as 90.625182318, one unit in the last place off, and the test
    // compares the sum exactly.
    let v: serde_json::Value = serde_saphyr::from_str(&text).unwrap();
    v["ops"].as_array().cloned().unwrap_or_default()
}

/// Count, sum and cumulative buckets of the state file's ops series matching `verb` and
/// `status` (all statuses when `None`), added up.
fn state_totals(m: &Myops, verb: &str, status: Option<&str>) -> (u64, f64, Vec<u64>) {
    let mut count = 0;
    let mut sum = 0.0;
    let mut buckets = vec![0u64; BUCKETS.len()];
    for op in state_ops(m) {
        if op["verb"] == verb && status.is_none_or(|s| op["status"] == s) {
            count += op["count"].as_u64().unwrap();
            sum += op["sum"].as_f64().unwrap();
            for (b, v) in buckets.iter_mut().zip(op["buckets"].as_array().unwrap()) {
                *b += v.as_u64().unwrap();
            }
        }
    }
    (count, sum, buckets)
}

/// The README's bucket bounds of `ops_duration_seconds`, as Prometheus prints `le`.
const BUCKETS: [&str; 13] = [
    "0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1", "2.5", "5", "10", "30", "60",
];

/// Prometheus's `histogram_quantile` (promql/quantile.go, bucketQuantile) over cumulative
/// `(upper bound, count)` buckets ending with +Inf, for checking its inputs independently.
fn bucket_quantile(q: f64, buckets: &[(f64, f64)]) -> f64 {
    let total = buckets.last().unwrap().1;
    let rank = q * total;
    let b = buckets.iter().position(|(_, c)| *c >= rank).unwrap();
    if b == buckets.len() - 1 {
        return buckets[b - 1].0;
    }
    if b == 0 && buckets[0].0 <= 0.0 {
        return buckets[0].0;
    }
    let (start, below) = if b == 0 {
        (0.0, 0.0)
    } else {
        (buckets[b - 1].0, buckets[b - 1].1)
    };
    let (end, count) = (buckets[b].0, buckets[b].1 - below);
    start + (end - start) * ((rank - below) / count)
}

fn run_ok(m: &Myops, args: &[&str]) {
    let r = m.run(args);
    assert_eq!(r.code, 0, "{args:?}: {r:?}");
    assert!(!r.stderr.contains("warning"), "{args:?}: {r:?}");
}

fn run_denied(m: &Myops, ns: &str) {
    let r = m.run(&["get", "pods", "-n", ns, "--context", "bob"]);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(!r.stderr.contains("warning"), "{r:?}");
}

#[test]
fn get_and_patch_runs_reach_prometheus_exactly_with_histogram_inputs_and_a_positive_rate() {
    let ns = Namespace::new("prom-exact");
    ns.pod("web-1");
    let m = Myops::standard(&ns.0);
    let j = &ns.0;
    for _ in 0..3 {
        run_ok(&m, &["get", "pods", "-n", j]);
    }
    run_denied(&m, j);
    for i in 0..2 {
        let label = format!(r#"{{"metadata":{{"labels":{{"run":"r{i}"}}}}}}"#);
        run_ok(
            &m,
            &[
                "patch", "pod", "web-1", "-n", j, "--type", "merge", "-p", &label,
            ],
        );
    }

    // Exactly the number of runs, per verb, and the histogram's count agrees.
    wait_for_value(&format!(r#"sum(ops_total{{job="{j}",verb="get"}})"#), 4.0);
    wait_for_value(&format!(r#"sum(ops_total{{job="{j}",verb="patch"}})"#), 2.0);
    wait_for_value(
        &format!(r#"sum(ops_errors_total{{job="{j}",verb="get",status="denied"}})"#),
        1.0,
    );
    assert_eq!(
        wait_for_value(
            &format!(r#"sum(ops_duration_seconds_count{{job="{j}",verb="get"}})"#),
            4.0
        ),
        4.0
    );
    // Every series carries the group's labels (honor_labels), the plugin and the resource.
    let series = query(&format!(r#"ops_total{{job="{j}"}}"#)).unwrap();
    assert_eq!(
        series.len(),
        3,
        "get/success, get/denied, patch/success: {series:?}"
    );
    for s in &series {
        assert_eq!(
            (
                s.labels["instance"].as_str(),
                s.labels["plugin"].as_str(),
                s.labels["resource"].as_str()
            ),
            ("test", "myops", "pods"),
            "{s:?}"
        );
    }

    // The histogram_quantile inputs: every README bucket plus +Inf, cumulative, +Inf = count,
    // bucket by bucket what the state file holds, and _sum the state file's sum.
    let (count, sum, state_buckets) = state_totals(&m, "get", None);
    assert_eq!(count, 4);
    let buckets = query(&format!(
        r#"sum by (le) (ops_duration_seconds_bucket{{job="{j}",verb="get"}})"#
    ))
    .unwrap();
    let by_le: BTreeMap<&str, f64> = buckets
        .iter()
        .map(|s| (s.labels["le"].as_str(), s.value))
        .collect();
    let mut want: Vec<&str> = BUCKETS.to_vec();
    want.push("+Inf");
    let mut have: Vec<&str> = by_le.keys().copied().collect();
    have.sort_by(|a, b| {
        let f = |s: &str| s.parse::<f64>().unwrap();
        f(a).total_cmp(&f(b))
    });
    assert_eq!(have, want, "{buckets:?}");
    let ladder: Vec<(f64, f64)> = want
        .iter()
        .map(|le| (le.parse().unwrap(), by_le[le]))
        .collect();
    assert!(
        ladder.windows(2).all(|w| w[0].1 <= w[1].1),
        "not cumulative: {ladder:?}"
    );
    assert_eq!(ladder.last().unwrap().1, 4.0, "{ladder:?}");
    eprintln!(
        "sum by (le) (ops_duration_seconds_bucket{{job=\"{j}\",verb=\"get\"}}) = {ladder:?}; state buckets {state_buckets:?}"
    );
    for (i, (le, c)) in ladder.iter().take(BUCKETS.len()).enumerate() {
        assert_eq!(
            *c, state_buckets[i] as f64,
            "bucket le={le}: {ladder:?} vs {state_buckets:?}"
        );
    }
    let prom_sum = query(&format!(
        r#"sum(ops_duration_seconds_sum{{job="{j}",verb="get"}})"#
    ))
    .unwrap()[0]
        .value;
    assert!((prom_sum - sum).abs() < 1e-9, "{prom_sum} vs state {sum}");
    eprintln!(
        "sum(ops_duration_seconds_sum{{job=\"{j}\",verb=\"get\"}}) = {prom_sum}; state {sum}"
    );
    for q in [0.5, 0.95] {
        let expr = format!(
            r#"histogram_quantile({q}, sum by (le) (ops_duration_seconds_bucket{{job="{j}",verb="get"}}))"#
        );
        let got = query(&expr).unwrap()[0].value;
        let want = bucket_quantile(q, &ladder);
        eprintln!("{expr} = {got}; from the buckets {want}");
        assert!(
            got.is_finite() && got > 0.0 && got <= 60.0 && (got - want).abs() < 1e-9,
            "{expr} = {got}, buckets {ladder:?} give {want}"
        );
    }

    // A second push: rate() over the two is positive, and so is the recording rule.
    for _ in 0..2 {
        run_ok(&m, &["get", "pods", "-n", j]);
    }
    wait_for_value(&format!(r#"sum(ops_total{{job="{j}",verb="get"}})"#), 6.0);
    let rate = wait_for(
        &format!(r#"sum(rate(ops_total{{job="{j}",verb="get"}}[1m]))"#),
        "a positive rate",
        |s| s.len() == 1 && s[0].value > 0.0,
    );
    let rule = wait_for(
        &format!(r#"verb:ops:rate5m{{job="{j}",verb="get"}}"#),
        "the recording rule verb:ops:rate5m above 0",
        |s| s.len() == 1 && s[0].value > 0.0,
    );
    assert_eq!(rule[0].labels["plugin"], "myops", "{rule:?}");
    assert!(
        !rule[0].labels.contains_key("instance"),
        "aggregated away: {rule:?}"
    );
    eprintln!(
        "rate {} /s, verb:ops:rate5m {} /s",
        rate[0].value, rule[0].value
    );
}

#[test]
fn hundred_concurrent_gets_add_exactly_100_in_the_pushgateway_and_in_prometheus() {
    let _heavy = heavy();
    let ns = Namespace::new("prom-100");
    ns.pod("web-1");
    // A generous push timeout: 100 processes on 2 cores must not turn this into a test of
    // the timeout (the hang tests do that); every run's push has to succeed.
    let m = Myops::new(&format!(
        "name: myops\nverbs: [get]\nresources: [pods]\nscopes: [namespace]\nmetrics: [ops_total, ops_errors_total, ops_duration_seconds]\npushgateway: {{url: '{}', job: {}, instance: test, timeout: 10s}}\n",
        cluster().pushgateway,
        ns.0
    ));
    let j = &ns.0;
    let ok = [
        format!("job=\"{j}\""),
        "verb=\"get\"".to_string(),
        "status=\"success\"".to_string(),
    ];
    let ok: Vec<&str> = ok.iter().map(String::as_str).collect();
    run_ok(&m, &["get", "pods", "-n", j]);
    let before = sample(&scrape(&cluster().pushgateway), "ops_total", &ok);
    assert_eq!(before, Some(1.0));
    wait_for_value(&format!(r#"sum(ops_total{{job="{j}"}})"#), 1.0);

    let runs: Vec<_> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..100)
            .map(|_| s.spawn(|| m.run(&["get", "pods", "-n", j])))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for r in &runs {
        assert_eq!(r.code, 0, "{r:?}");
        assert!(r.stdout.contains("web-1"), "{r:?}");
    }
    let warned: Vec<&str> = runs
        .iter()
        .filter(|r| r.stderr.contains("warning"))
        .map(|r| r.stderr.as_str())
        .collect();
    // On a loaded machine (2 cores, 100 processes queueing on the state lock) a push may
    // run out of its time: the contract then keeps the totals for the next push, and that is
    // what is checked — one `metrics push` afterwards, and not a sample lost.
    if !warned.is_empty() {
        assert!(
            warned
                .iter()
                .all(|w| w.contains("the totals are kept in") && w.lines().count() == 1),
            "a push failed otherwise than by its deadline: {warned:?}"
        );
        let r = m.run(&["metrics", "push"]);
        assert_eq!(r.code, 0, "the catch-up push failed: {r:?}");
    }

    // The state file: 101 observations; what it says is what the gateway must show.
    let (count, sum, _) = state_totals(&m, "get", Some("success"));
    assert_eq!(count, 101);
    let text = scrape(&cluster().pushgateway);
    assert_eq!(
        sample(&text, "ops_total", &ok),
        Some(101.0),
        "grows by exactly 100: the last push must carry the last totals"
    );
    assert_eq!(
        sample(&text, "ops_duration_seconds_count", &ok),
        Some(101.0)
    );
    assert_eq!(
        sample(&text, "ops_duration_seconds_sum", &ok),
        Some(sum),
        "the state file's sum"
    );
    assert_eq!(sample(&text, "ops_errors_total", &ok), None);

    wait_for_value(&format!(r#"sum(ops_total{{job="{j}"}})"#), 101.0);
    wait_for_value(
        &format!(r#"sum(ops_duration_seconds_count{{job="{j}",verb="get"}})"#),
        101.0,
    );
    wait_for_value(
        &format!(r#"sum(ops_duration_seconds_bucket{{job="{j}",verb="get",le="+Inf"}})"#),
        101.0,
    );
    wait_for_value(
        &format!(r#"sum(ops_duration_seconds_sum{{job="{j}",verb="get"}})"#),
        sum,
    );
}

#[test]
fn a_gateway_down_for_ten_runs_then_up_gets_exact_totals_and_prometheus_too() {
    let _heavy = heavy();
    let ns = Namespace::new("prom-gw-down");
    ns.pod("web-1");
    let port = free_port();
    let gw = Pushgateway::start(port);
    let url = gw.url.clone();
    let j = &ns.0;
    let m = Myops::new(&format!(
        "name: myops\nverbs: [get]\nresources: [pods]\nscopes: [namespace]\nmetrics: [ops_total, ops_errors_total, ops_duration_seconds]\npushgateway: {{url: '{url}', job: {j}, instance: one, timeout: 1s}}\n"
    ));
    run_ok(&m, &["get", "pods", "-n", j]);
    let ok = [format!("job=\"{j}\""), "status=\"success\"".to_string()];
    let ok: Vec<&str> = ok.iter().map(String::as_str).collect();
    assert_eq!(sample(&scrape(&url), "ops_total", &ok), Some(1.0));
    drop(gw);
    for i in 0..10 {
        let started = Instant::now();
        let r = m.run(&["get", "pods", "-n", j]);
        let took = started.elapsed();
        assert_eq!(r.code, 0, "run {i}: {r:?}");
        assert!(r.stdout.contains("web-1"), "run {i}: {r:?}");
        let warnings: Vec<&str> = r
            .stderr
            .lines()
            .filter(|l| l.starts_with("warning:"))
            .collect();
        assert_eq!(warnings.len(), 1, "run {i}: {r:?}");
        assert!(warnings[0].contains(&url), "run {i}: {r:?}");
        assert!(took < Duration::from_millis(1500), "run {i} took {took:?}");
    }
    let (count, sum, _) = state_totals(&m, "get", Some("success"));
    assert_eq!(count, 11, "no run lost while the gateway was down");

    // The same port again, empty (in memory): one more run pushes every run.
    let _gw = Pushgateway::start(port);
    run_ok(&m, &["get", "pods", "-n", j]);
    let text = scrape(&url);
    assert_eq!(sample(&text, "ops_total", &ok), Some(12.0), "{text}");
    assert_eq!(
        sample(&text, "ops_duration_seconds_count", &ok),
        Some(12.0),
        "{text}"
    );
    let (count, sum_after, _) = state_totals(&m, "get", Some("success"));
    assert_eq!(count, 12);
    assert!(sum_after > sum);
    assert_eq!(
        sample(&text, "ops_duration_seconds_sum", &ok),
        Some(sum_after),
        "{text}"
    );

    // The same totals through the cluster's gateway into Prometheus.
    let r = m.run(&["metrics", "push", "--pushgateway", &cluster().pushgateway]);
    assert_eq!(r.code, 0, "{r:?}");
    wait_for_value(
        &format!(r#"sum(ops_total{{job="{j}",instance="one"}})"#),
        12.0,
    );
    wait_for_value(
        &format!(r#"sum(ops_duration_seconds_count{{job="{j}",instance="one"}})"#),
        12.0,
    );
}

/// A gateway that accepts every TCP connection and never answers (it reads nothing and
/// writes nothing), until dropped.
struct Hang {
    url: String,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: Option<std::thread::JoinHandle<usize>>,
}

impl Hang {
    fn start() -> Hang {
        use std::sync::atomic::{AtomicBool, Ordering};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::spawn(move || {
            let mut held = Vec::new();
            while !flag.load(Ordering::Relaxed) {
                match listener.accept() {
                    Ok((stream, _)) => held.push(stream),
                    Err(_) => std::thread::sleep(Duration::from_millis(5)),
                }
            }
            held.len()
        });
        Hang {
            url,
            stop,
            thread: Some(thread),
        }
    }

    /// Stops accepting, closes every held connection, and says how many there were.
    fn stop(mut self) -> usize {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        self.thread.take().unwrap().join().unwrap()
    }
}

impl Drop for Hang {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[test]
fn a_gateway_that_accepts_and_never_answers_costs_each_command_at_most_timeout_plus_half_a_second()
{
    let _heavy = heavy();
    let ns = Namespace::new("prom-gw-hang");
    ns.pod("web-1");
    let hang = Hang::start();
    let j = &ns.0;
    let timeout = Duration::from_secs(1);
    let m = Myops::new(&format!(
        "name: myops\nverbs: [get]\nresources: [pods]\nscopes: [namespace]\nmetrics: [ops_total, ops_errors_total, ops_duration_seconds]\npushgateway: {{url: '{}', job: {j}, instance: hang, timeout: 1s}}\n",
        hang.url
    ));
    let budget = timeout + Duration::from_millis(500);
    let mut took = Vec::new();
    for i in 0..5 {
        let started = Instant::now();
        let r = m.run(&["get", "pods", "-n", j]);
        let t = started.elapsed();
        took.push(t);
        assert_eq!(r.code, 0, "run {i}: {r:?}");
        assert!(r.stdout.contains("web-1"), "run {i}: {r:?}");
        let warnings: Vec<&str> = r
            .stderr
            .lines()
            .filter(|l| l.starts_with("warning:"))
            .collect();
        assert_eq!(warnings.len(), 1, "run {i}: {r:?}");
        assert!(warnings[0].contains("1000 ms"), "names the timeout: {r:?}");
        assert!(t < budget, "run {i} took {t:?} (budget {budget:?})");
        // It did wait for an answer: a hang is not mistaken for a refused connection.
        assert!(t >= timeout, "run {i} took only {t:?}");
    }
    // `metrics push` alone: the push is the whole command.
    let started = Instant::now();
    let r = m.run(&["metrics", "push"]);
    let t = started.elapsed();
    assert_eq!(
        r.code, 1,
        "a failed explicit push is a runtime failure: {r:?}"
    );
    assert!(t >= timeout && t < budget, "metrics push took {t:?}");
    assert!(hang.stop() >= 6, "every command connected");
    eprintln!("get runs took {took:?}, metrics push {t:?}");

    // Nothing lost: the next push to a gateway that answers carries all five runs.
    let r = m.run(&["metrics", "push", "--pushgateway", &cluster().pushgateway]);
    assert_eq!(r.code, 0, "{r:?}");
    let text = scrape(&cluster().pushgateway);
    let ok = format!("job=\"{j}\"");
    assert_eq!(
        sample(&text, "ops_total", &[&ok, "instance=\"hang\""]),
        Some(5.0)
    );
    wait_for_value(&format!(r#"sum(ops_total{{job="{j}"}})"#), 5.0);
}

#[test]
fn grouping_values_with_slash_space_and_empty_round_trip_through_the_pushgateway() {
    let ns = Namespace::new("prom-grouping");
    ns.pod("web-1");
    let gw = &cluster().pushgateway;
    let base =
        "name: myops\nverbs: [get]\nresources: [pods]\nscopes: [namespace]\nmetrics: [ops_total]\n";
    // The issue's case verbatim (only this test uses the job "a/b c"), and one of this test's
    // own with a `/` and a space in the instance.
    let own_job = format!("{} x", ns.0);
    let cases = [
        ("a/b c".to_string(), String::new()),
        (own_job.clone(), "rack 1/node-2".to_string()),
    ];
    let mut ids = Vec::new();
    let mut homes = Vec::new();
    for (job, instance) in &cases {
        let m = Myops::new(&format!(
            "{base}pushgateway: {{url: '{gw}', job: \"{job}\", instance: \"{instance}\", timeout: 2s}}\n"
        ));
        run_ok(&m, &["get", "pods", "-n", &ns.0]);
        ids.push(
            crate::metrics::state_file(&m)["stateId"]
                .as_str()
                .unwrap()
                .to_string(),
        );
        homes.push(m);
    }
    // Each run of this test has a MYOPS_HOME, so a group, of its own: look at this run's
    // (state_id), and delete them at the end (`metrics delete`, the base64 forms included).

    // The gateway's API: one group per case whose grouping labels are the values as
    // written, the empty instance included, and every metric in it carries them.
    let out = Command::new("curl")
        .args(["-sf", &format!("{gw}/api/v1/metrics")])
        .output()
        .expect("curl runs");
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for ((job, instance), id) in cases.iter().zip(&ids) {
        let groups: Vec<&serde_json::Value> = v["data"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|g| {
                g["labels"]["job"] == job.as_str() && g["labels"]["state_id"] == id.as_str()
            })
            .collect();
        assert_eq!(groups.len(), 1, "job {job:?}: {groups:?}");
        let g = groups[0];
        assert_eq!(
            g["labels"],
            serde_json::json!({"job": job, "instance": instance, "state_id": id}),
            "{g}"
        );
        assert_eq!(g["last_push_successful"], true, "{g}");
        let metrics = g["ops_total"]["metrics"].as_array().unwrap();
        assert_eq!(metrics.len(), 1, "{g}");
        assert_eq!(metrics[0]["labels"]["job"], job.as_str(), "{g}");
        assert_eq!(metrics[0]["labels"]["instance"], instance.as_str(), "{g}");
        assert_eq!(metrics[0]["value"], "1", "{g}");
    }
    // The exposition the gateway serves to Prometheus spells them the same way.
    let text = scrape(gw);
    assert_eq!(
        sample(
            &text,
            "ops_total",
            &[
                "instance=\"\",job=\"a/b c\",",
                &format!("state_id=\"{}\"", ids[0])
            ]
        ),
        Some(1.0),
        "{text}"
    );
    // Prometheus keeps them (honor_labels: true). An empty label is no label there, and the
    // gateway's own address does not fill it in.
    let s = wait_for(
        &format!(r#"ops_total{{job="a/b c",state_id="{}"}}"#, ids[0]),
        "the job a/b c",
        |s| s.len() == 1,
    );
    assert_eq!(s[0].value, 1.0);
    assert!(!s[0].labels.contains_key("instance"), "{s:?}");
    let s = wait_for(
        &format!(r#"ops_total{{job="{own_job}"}}"#),
        "the own job",
        |s| s.len() == 1,
    );
    assert_eq!(s[0].labels["instance"], "rack 1/node-2", "{s:?}");
    assert_eq!(s[0].value, 1.0);
    for (m, (job, _)) in homes.iter().zip(&cases) {
        let r = m.run(&["metrics", "delete"]);
        assert_eq!(r.code, 0, "{r:?}");
        assert!(
            !crate::metrics::groups(gw, job)
                .iter()
                .any(|g| ids.contains(&g["state_id"].as_str().unwrap_or("").to_string())),
            "{job}"
        );
    }
}

/// Runs `promtool ARGS…` in the repository and returns its output (stdout + stderr);
/// panics with it when promtool fails.
fn promtool(args: &[&str]) -> String {
    let out = Command::new("promtool")
        .args(args)
        .current_dir(root())
        .output()
        .expect("promtool runs (scripts/setup installs Debian's prometheus)");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "promtool {args:?} failed:\n{text}");
    text
}

/// The `record:` and `alert:` names of a rule file.
fn rule_names(path: &str) -> Vec<String> {
    let text = std::fs::read_to_string(root().join(path)).unwrap();
    let v: serde_json::Value = serde_saphyr::from_str(&text).unwrap();
    v["groups"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|g| g["rules"].as_array().unwrap().iter())
        .map(|r| {
            r.get("record")
                .or_else(|| r.get("alert"))
                .and_then(|n| n.as_str())
                .unwrap()
                .to_string()
        })
        .collect()
}

const RULES: &str = "deploy/monitoring/rules/kubectl-myops.rules.yml";
const ALERTS: &str = "deploy/monitoring/rules/kubectl-myops.alerts.yml";

#[test]
fn the_monitoring_kit_passes_promtool_and_its_rules_are_loaded_by_the_test_prometheus() {
    let config = promtool(&["check", "config", "deploy/monitoring/prometheus.yml"]);
    assert!(config.contains("SUCCESS: 2 rule files found"), "{config}");
    let rules = promtool(&["check", "rules", RULES, ALERTS]);
    assert!(
        rules.contains("SUCCESS: 5 rules found") && rules.contains("SUCCESS: 3 rules found"),
        "{rules}"
    );
    let unit = promtool(&[
        "test",
        "rules",
        "deploy/monitoring/tests/kubectl-myops.test.yml",
    ]);
    assert!(unit.contains("SUCCESS"), "{unit}");

    // The scrape config keeps the pushed job/instance labels.
    let text = std::fs::read_to_string(root().join("deploy/monitoring/prometheus.yml")).unwrap();
    let v: serde_json::Value = serde_saphyr::from_str(&text).unwrap();
    let job = v["scrape_configs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["job_name"] == "pushgateway")
        .expect("a pushgateway scrape job");
    assert_eq!(job["honor_labels"], true, "{job}");

    // The test Prometheus runs exactly these rules, all healthy, scraping the gateway.
    let mut want: Vec<String> = rule_names(RULES);
    want.extend(rule_names(ALERTS));
    want.sort();
    assert_eq!(want.len(), 8, "{want:?}");
    let loaded = api("/api/v1/rules");
    let mut have: Vec<String> = Vec::new();
    for g in loaded["data"]["groups"].as_array().unwrap() {
        assert!(
            g["file"]
                .as_str()
                .unwrap()
                .starts_with(&root().join("deploy/monitoring/rules").display().to_string()),
            "rules come from the repository: {g}"
        );
        for r in g["rules"].as_array().unwrap() {
            assert_eq!(r["health"], "ok", "{r}");
            have.push(r["name"].as_str().unwrap().to_string());
        }
    }
    have.sort();
    assert_eq!(have, want, "{loaded}");
    let up = query(r#"up{job="pushgateway"}"#).unwrap();
    assert_eq!(up.len(), 1, "{up:?}");
    assert_eq!(up[0].value, 1.0, "{up:?}");
    let interval = api("/api/v1/status/config");
    let yaml = interval["data"]["yaml"].as_str().unwrap();
    assert!(
        yaml.contains("scrape_interval: 1s") && yaml.contains("evaluation_interval: 1s"),
        "{yaml}"
    );
}

/// Every `expr` in the dashboard JSON, with the panel title it belongs to.
fn dashboard_exprs(v: &serde_json::Value, title: &str, out: &mut Vec<(String, String)>) {
    match v {
        serde_json::Value::Object(map) => {
            let title = map.get("title").and_then(|t| t.as_str()).unwrap_or(title);
            for (k, x) in map {
                match (k.as_str(), x) {
                    ("expr", serde_json::Value::String(e)) => {
                        out.push((title.to_string(), e.clone()))
                    }
                    _ => dashboard_exprs(x, title, out),
                }
            }
        }
        serde_json::Value::Array(items) => {
            items.iter().for_each(|x| dashboard_exprs(x, title, out))
        }
        _ => {}
    }
}

/// `s` as a literal inside a PromQL regular expression written in a double-quoted PromQL
/// string (Grafana's regex formatting of a multi-value variable): a regex metacharacter gets
/// a backslash, which the string literal needs doubled.
fn regex_escape(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if r"\.+*?()|[]{}^$".contains(c) {
            out.push_str(r"\\");
        }
        out.push(c);
    }
    out
}

#[test]
fn every_grafana_panel_query_evaluates_in_prometheus_with_data_for_this_job() {
    let path = root().join("deploy/monitoring/grafana/kubectl-myops.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let dash: serde_json::Value = serde_json::from_str(&text).expect("the dashboard is valid JSON");
    assert_eq!(dash["uid"], "kubectl-myops");
    let panels = dash["panels"].as_array().unwrap();
    for p in panels {
        assert!(
            !p["targets"].as_array().map(Vec::is_empty).unwrap_or(true),
            "every panel has a query: {p}"
        );
    }
    let vars: Vec<&str> = dash["templating"]["list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["name"].as_str().unwrap())
        .collect();
    assert_eq!(vars, ["datasource", "job"]);
    let mut exprs = Vec::new();
    dashboard_exprs(&dash["panels"], "", &mut exprs);
    // What the issue asks the dashboard to show.
    let has = |f: &dyn Fn(&str) -> bool| exprs.iter().any(|(_, e)| f(e));
    assert!(
        has(&|e| e.contains("rate(ops_total") && e.contains("by (verb)")),
        "ops per verb"
    );
    assert!(
        has(&|e| e.contains("ops_errors_total") && e.contains("/ sum by (verb)")),
        "error ratio"
    );
    assert!(
        has(&|e| e.starts_with("histogram_quantile(0.5,")
            && e.contains("ops_duration_seconds_bucket")),
        "p50"
    );
    assert!(
        has(&|e| e.starts_with("histogram_quantile(0.95,")
            && e.contains("ops_duration_seconds_bucket")),
        "p95"
    );
    assert!(
        has(&|e| e.contains(r#"status="denied""#) && e.contains("by (resource)")),
        "denials by resource"
    );
    assert!(has(&|e| e.contains("crd_loads_total")), "CRD loads");

    // Data for every panel under this test's job: gets and a patch, a denial, CRD loads.
    let ns = Namespace::new("prom-dash");
    ns.pod("web-1");
    let m = Myops::standard(&ns.0);
    let j = &ns.0;
    let r = m.run(&["crds", "sync", root().join("crds").to_str().unwrap()]);
    assert_eq!(r.code, 0, "{r:?}");
    run_ok(&m, &["get", "pods", "-n", j]);
    run_denied(&m, j);
    run_ok(
        &m,
        &[
            "patch",
            "pod",
            "web-1",
            "-n",
            j,
            "--type",
            "merge",
            "-p",
            r#"{"metadata":{"labels":{"p":"1"}}}"#,
        ],
    );
    wait_for_value(&format!(r#"sum(ops_total{{job="{j}",verb="get"}})"#), 2.0);
    wait_for_value(&format!(r#"sum(ops_total{{job="{j}",verb="patch"}})"#), 1.0);
    wait_for_value(
        &format!(r#"sum(crd_loads_total{{job="{j}",result="success"}})"#),
        2.0,
    );
    // The job variable's query (label_values(ops_total, job)) offers this job.
    let jobs = api(&format!(
        "/api/v1/label/job/values?match[]=ops_total%7Bjob%3D%22{j}%22%7D"
    ));
    assert_eq!(jobs["data"], serde_json::json!([j]), "{jobs}");
    // A second push, so that rates have two different points.
    run_ok(&m, &["get", "pods", "-n", j]);
    run_denied(&m, j);
    wait_for_value(&format!(r#"sum(ops_total{{job="{j}",verb="get"}})"#), 4.0);

    let job_re = regex_escape(j);
    for (title, expr) in &exprs {
        let q = expr
            .replace("$__rate_interval", "1m")
            .replace("$__range", "10m")
            .replace("$__interval", "15s")
            .replace("${job}", &job_re)
            .replace("$job", &job_re);
        assert!(
            !q.contains('$'),
            "a Grafana variable the test does not know in {title:?}: {expr}"
        );
        let s = wait_for(&q, &format!("data for panel {title:?}"), |s| !s.is_empty());
        // Every answer is about this job only (or aggregated away from it).
        let labels: Vec<&BTreeMap<String, String>> = s.iter().map(|x| &x.labels).collect();
        assert!(
            labels.iter().all(|l| l.get("job").is_none_or(|v| v == j)),
            "{title}: {q} = {s:?}"
        );
        let label_values = |name: &str| -> Vec<String> {
            s.iter()
                .filter_map(|x| x.labels.get(name).cloned())
                .collect()
        };
        if expr.contains("by (verb") {
            let mut verbs = label_values("verb");
            verbs.sort();
            assert_eq!(verbs, ["get", "patch"], "{title}: {q} = {s:?}");
        }
        if expr.contains("by (resource)") {
            assert_eq!(label_values("resource"), ["pods"], "{title}: {q} = {s:?}");
            assert!(s[0].value > 0.0, "{title}: {q} = {s:?}");
        }
        if expr.contains("by (result)") {
            assert_eq!(label_values("result"), ["success"], "{title}: {q} = {s:?}");
        }
        eprintln!("{title}: {q} -> {s:?}");
    }
}

#[test]
fn a_push_the_gateway_rejects_raises_the_push_failure_alert_until_the_next_push() {
    let ns = Namespace::new("prom-pushfail");
    ns.pod("web-1");
    let m = Myops::standard(&ns.0);
    let j = &ns.0;
    run_ok(&m, &["get", "pods", "-n", j]);
    let failing =
        format!(r#"push_failure_time_seconds{{job="{j}"}} > push_time_seconds{{job="{j}"}}"#);
    wait_for_value(&format!(r#"sum(ops_total{{job="{j}"}})"#), 1.0);
    assert!(query(&failing).unwrap().is_empty());

    // A push into the same group that the gateway refuses (a duplicate series: HTTP 400).
    let out = Command::new("curl")
        .args([
            "-s",
            "-o",
            "/dev/null",
            "-w",
            "%{http_code}",
            "-X",
            "PUT",
            "--data-binary",
        ])
        .arg("myops_test_duplicate{a=\"1\"} 1\nmyops_test_duplicate{a=\"1\"} 2\n")
        .arg(crate::metrics::pushed_group(&m))
        .output()
        .expect("curl runs");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "400");
    let s = wait_for(&failing, "the failed push", |s| s.len() == 1);
    assert_eq!(s[0].labels["instance"], "test", "{s:?}");
    let id = crate::metrics::state_file(&m)["stateId"].clone();
    assert_eq!(s[0].labels["state_id"], id.as_str().unwrap(), "{s:?}");
    let alert = wait_for_alert("MyopsMetricsPushFailing", j, "pending");
    assert_eq!(alert["labels"]["instance"], "test", "{alert}");
    assert_eq!(alert["labels"]["severity"], "warning", "{alert}");
    // The gateway kept the group's last good totals.
    assert_eq!(
        query(&format!(r#"sum(ops_total{{job="{j}"}})"#)).unwrap()[0].value,
        1.0
    );

    // The next run's push succeeds: the condition clears and the totals are exact.
    run_ok(&m, &["get", "pods", "-n", j]);
    wait_for_value(&format!(r#"sum(ops_total{{job="{j}"}})"#), 2.0);
    wait_for(&failing, "the failure cleared", |s| s.is_empty());
    let end = Instant::now() + PROMETHEUS_DEADLINE;
    while api("/api/v1/alerts")["data"]["alerts"]
        .as_array()
        .unwrap()
        .iter()
        .any(|a| {
            a["labels"]["alertname"] == "MyopsMetricsPushFailing"
                && a["labels"]["job"] == j.as_str()
        })
    {
        assert!(Instant::now() < end, "the alert for {j} stayed active");
        std::thread::sleep(Duration::from_millis(250));
    }
}

#[test]
fn a_burst_of_denials_fires_the_denied_spike_alert_and_the_error_ratio_rule_rises() {
    let ns = Namespace::new("prom-denied");
    ns.pod("web-1");
    let m = Myops::standard(&ns.0);
    let j = &ns.0;
    run_ok(&m, &["get", "pods", "-n", j]);
    run_denied(&m, j);
    // Prometheus must have seen the series before the burst: increase() counts only what
    // happens after its first sample.
    wait_for(
        &format!(r#"count_over_time(ops_errors_total{{job="{j}",status="denied"}}[1m])"#),
        "two samples of the denied counter",
        |s| s.len() == 1 && s[0].value >= 2.0,
    );
    for _ in 0..11 {
        run_denied(&m, j);
    }
    wait_for_value(
        &format!(r#"sum(ops_errors_total{{job="{j}",status="denied"}})"#),
        12.0,
    );
    let spike = wait_for_alert("MyopsDeniedSpike", j, "firing");
    assert_eq!(spike["labels"]["resource"], "pods", "{spike}");
    assert_eq!(spike["labels"]["plugin"], "myops", "{spike}");
    let value: f64 = spike["value"].as_str().unwrap().parse().unwrap();
    assert!(value > 10.0, "{spike}");
    // Every get since the first samples was denied: the error ratio of get is 1, above the
    // alert's 0.25, so MyopsHighErrorRatio is pending (it fires after 10 minutes).
    let ratio = wait_for(
        &format!(r#"verb:ops_errors:ratio_rate5m{{job="{j}",verb="get"}}"#),
        "the error ratio of get above 0.25",
        |s| s.len() == 1 && s[0].value > 0.25,
    );
    assert!(ratio[0].value <= 1.0, "{ratio:?}");
    let pending = wait_for_alert("MyopsHighErrorRatio", j, "pending");
    assert_eq!(pending["labels"]["verb"], "get", "{pending}");
    eprintln!("spike {value}, error ratio {}", ratio[0].value);
}

#[test]
fn two_myops_homes_on_one_host_sum_exactly_in_prometheus_and_a_reset_removes_one() {
    // Issue 14: two users on one host (same job, same instance) replaced each other's group,
    // so their series vanished and reappeared. Now each MYOPS_HOME has its own group.
    let ns = Namespace::new("prom-two-homes");
    ns.pod("web-1");
    let j = &ns.0;
    let (a, b) = (Myops::standard(j), Myops::standard(j));
    // Every push must land (the sums below count them): a loaded machine (the 100-process
    // test beside this one) once took the shared gateway past the usual 1 s.
    for m in [&a, &b] {
        let path = m.dir.path().join("plugin.yaml");
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("timeout: 1s"), "{text}");
        std::fs::write(&path, text.replace("timeout: 1s", "timeout: 10s")).unwrap();
    }
    for _ in 0..2 {
        run_ok(&a, &["get", "pods", "-n", j]);
    }
    run_ok(&b, &["get", "pods", "-n", j]);
    let id = |m: &Myops| {
        crate::metrics::state_file(m)["stateId"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let (id_a, id_b) = (id(&a), id(&b));
    let mut s = wait_for(
        &format!(r#"ops_total{{job="{j}",status="success"}}"#),
        "both homes' series",
        |s| s.len() == 2 && s.iter().map(|x| x.value).sum::<f64>() == 3.0,
    );
    s.sort_by(|x, y| x.value.total_cmp(&y.value));
    assert_eq!(
        s.iter()
            .map(|x| (
                x.labels["instance"].as_str(),
                x.labels["state_id"].as_str(),
                x.value
            ))
            .collect::<Vec<_>>(),
        [("test", id_b.as_str(), 1.0), ("test", id_a.as_str(), 2.0)]
    );
    // The README's query: the per-user, per-machine labels aggregated away.
    let s = wait_for(
        &format!(r#"sum without (instance, state_id) (ops_total{{job="{j}"}})"#),
        "the sum over both homes",
        |s| s.len() == 1,
    );
    assert_eq!(s[0].value, 3.0);
    assert!(!s[0].labels.contains_key("state_id"), "{s:?}");
    assert_eq!(s[0].labels["verb"], "get");
    // The recording rule aggregates both homes into one series per job, plugin, verb.
    let rule = wait_for(
        &format!(r#"verb:ops:rate5m{{job="{j}"}}"#),
        "the rule",
        |s| s.len() == 1,
    );
    assert!(!rule[0].labels.contains_key("state_id"), "{rule:?}");

    // `metrics reset` on one home deletes its group: only the other's series stays.
    let r = a.run(&["metrics", "reset", "--yes"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains(&format!("/state_id/{id_a}\n")), "{r:?}");
    let s = wait_for(
        &format!(r#"ops_total{{job="{j}"}}"#),
        "only the other home's series",
        |s| s.len() == 1,
    );
    assert_eq!(
        (s[0].labels["state_id"].as_str(), s[0].value),
        (id_b.as_str(), 1.0)
    );
    wait_for_value(&format!(r#"sum(ops_total{{job="{j}"}})"#), 1.0);
}
