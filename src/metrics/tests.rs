//! Unit tests of encoding and of `finish` (temporary MYOPS_HOME; HTTP only to 127.0.0.1).

use std::io::{Read, Write};
use std::net::TcpListener;
use std::time::Duration;

use super::*;

const ALL: [MetricFamily; 3] = [
    MetricFamily::OpsTotal,
    MetricFamily::OpsErrorsTotal,
    MetricFamily::OpsDurationSeconds,
];

fn obs(status: Status, seconds: f64) -> Observation {
    Observation {
        verb: "get".into(),
        resource: "pods".into(),
        status,
        duration_seconds: seconds,
        client: "cli",
    }
}

/// get pods: success 0.25 s, 0.5 s, 0.125 s; denied 0.0625 s.
fn sample_state() -> State {
    let mut state = State::default();
    for o in [
        obs(Status::Success, 0.25),
        obs(Status::Success, 0.5),
        obs(Status::Success, 0.125),
        obs(Status::Denied, 0.0625),
    ] {
        state.observe("myops", &o);
    }
    state
}

#[test]
fn status_label_values() {
    let all = [
        Status::Success,
        Status::Denied,
        Status::NotFound,
        Status::Conflict,
        Status::Invalid,
        Status::Error,
    ];
    let names: Vec<&str> = all.iter().map(|s| s.as_str()).collect();
    assert_eq!(
        names,
        [
            "success", "denied", "notfound", "conflict", "invalid", "error"
        ]
    );
    assert_eq!(Status::from(ExitStatus::Usage), Status::Invalid);
    assert_eq!(Status::from(ExitStatus::Failure), Status::Error);
}

#[test]
fn encode_writes_the_exact_exposition_text() {
    let text = encode(&sample_state(), &ALL);
    let l = r#"client="cli",plugin="myops",resource="pods",status="success",verb="get""#;
    let d = r#"client="cli",plugin="myops",resource="pods",status="denied",verb="get""#;
    let mut expected = String::from(
        "# HELP ops_total Operations run by kubectl-myops, by plugin, verb, resource and outcome status.\n\
         # TYPE ops_total counter\n",
    );
    expected += &format!("ops_total{{{l}}} 3\nops_total{{{d}}} 1\n");
    expected += "# HELP ops_errors_total Operations that did not succeed (status other than success).\n\
                 # TYPE ops_errors_total counter\n";
    expected += &format!("ops_errors_total{{{d}}} 1\n");
    expected += "# HELP ops_duration_seconds Wall-clock duration of one operation in seconds.\n\
                 # TYPE ops_duration_seconds histogram\n";
    let bounds = [
        "0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1", "2.5", "5", "10", "30", "60",
        "+Inf",
    ];
    let ok_counts = [0, 0, 0, 0, 0, 2, 3, 3, 3, 3, 3, 3, 3, 3];
    for (le, n) in bounds.iter().zip(ok_counts) {
        expected += &format!("ops_duration_seconds_bucket{{{l},le=\"{le}\"}} {n}\n");
    }
    expected +=
        &format!("ops_duration_seconds_sum{{{l}}} 0.875\nops_duration_seconds_count{{{l}}} 3\n");
    let denied_counts = [0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1];
    for (le, n) in bounds.iter().zip(denied_counts) {
        expected += &format!("ops_duration_seconds_bucket{{{d},le=\"{le}\"}} {n}\n");
    }
    expected +=
        &format!("ops_duration_seconds_sum{{{d}}} 0.0625\nops_duration_seconds_count{{{d}}} 1\n");
    assert_eq!(text, expected);

    // The lines the brief names, verbatim.
    assert!(text.contains(
        "\nops_total{client=\"cli\",plugin=\"myops\",resource=\"pods\",status=\"success\",verb=\"get\"} 3\n"
    ));
    assert!(text.contains(
        "\nops_errors_total{client=\"cli\",plugin=\"myops\",resource=\"pods\",status=\"denied\",verb=\"get\"} 1\n"
    ));
    assert!(text.contains("\nops_duration_seconds_count{client=\"cli\",plugin=\"myops\",resource=\"pods\",status=\"success\",verb=\"get\"} 3\n"));
    assert!(!text.contains(
        "ops_errors_total{client=\"cli\",plugin=\"myops\",resource=\"pods\",status=\"success\""
    ));
}

#[test]
fn only_the_requested_families_are_encoded() {
    let state = sample_state();
    let text = encode(&state, &[MetricFamily::OpsErrorsTotal]);
    assert!(text.starts_with("# HELP ops_errors_total "), "{text}");
    assert!(
        !text.contains("ops_total") && !text.contains("ops_duration_seconds"),
        "{text}"
    );

    // Order and repetition in the list do not matter.
    let text = encode(
        &state,
        &[
            MetricFamily::OpsDurationSeconds,
            MetricFamily::OpsTotal,
            MetricFamily::OpsTotal,
        ],
    );
    assert_eq!(text.matches("# TYPE").count(), 2, "{text}");
    assert!(
        text.find("# TYPE ops_total").unwrap() < text.find("# TYPE ops_duration_seconds").unwrap()
    );

    // No CRD load in this state: nothing, no error.
    assert_eq!(
        encode(
            &state,
            &[
                MetricFamily::CrdLoadsTotal,
                MetricFamily::CrdLoadDurationSeconds
            ]
        ),
        ""
    );
    assert_eq!(encode(&state, &[]), "");
}

#[test]
fn empty_families_are_left_out() {
    let mut state = State::default();
    state.observe("myops", &obs(Status::Success, 0.1));
    let text = encode(&state, &ALL);
    assert!(
        !text.contains("ops_errors_total"),
        "no error series, no family: {text}"
    );
    assert_eq!(encode(&State::default(), &ALL), "");
}

#[test]
fn label_values_are_escaped() {
    let mut state = State::default();
    let o = Observation {
        verb: "get".into(),
        resource: "a\"b\\c\nd".into(),
        status: Status::Success,
        duration_seconds: 0.1,
        client: "cli",
    };
    state.observe("myops", &o);
    let text = encode(&state, &[MetricFamily::OpsTotal]);
    assert!(text.contains(r#"resource="a\"b\\c\nd""#), "{text}");
}

#[test]
fn instance_default_is_never_empty() {
    assert!(!instance_default().is_empty());
}

/// A one-shot HTTP server on 127.0.0.1 that answers `status_line` + `body` and hands back
/// the raw request it received.
fn one_shot_server(
    status_line: &'static str,
    body: &'static str,
) -> (String, std::thread::JoinHandle<String>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let handle = std::thread::spawn(move || {
        let (mut conn, _) = listener.accept().unwrap();
        conn.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let mut request = Vec::new();
        let mut buf = [0u8; 4096];
        loop {
            let n = conn.read(&mut buf).unwrap();
            request.extend_from_slice(&buf[..n]);
            let text = String::from_utf8_lossy(&request).to_string();
            if let Some(end) = text.find("\r\n\r\n") {
                let length = text
                    .lines()
                    .find_map(|h| {
                        h.to_ascii_lowercase()
                            .strip_prefix("content-length: ")
                            .map(|v| v.trim().parse::<usize>().unwrap())
                    })
                    .unwrap_or(0);
                if request.len() >= end + 4 + length {
                    break;
                }
            }
            if n == 0 {
                break;
            }
        }
        let answer = format!(
            "{status_line}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        );
        conn.write_all(answer.as_bytes()).unwrap();
        String::from_utf8_lossy(&request).to_string()
    });
    (base, handle)
}

fn target(base: &str, timeout_ms: u64) -> PushTarget {
    PushTarget {
        url: push_url(base, "kubectl-myops", "node-1"),
        timeout: Duration::from_millis(timeout_ms),
        basic_auth: Some(("me".into(), "s3cret".into())),
        bearer_token: None,
        ca_pem: None,
    }
}

#[tokio::test]
async fn finish_records_and_puts_the_totals() {
    let home = tempfile::tempdir().unwrap();
    let (base, server) = one_shot_server("HTTP/1.1 200 OK", "");
    let o = obs(Status::Success, 0.25);
    let warnings = finish(
        home.path(),
        "myops",
        std::slice::from_ref(&o),
        &ALL,
        Some(&target(&base, 5000)),
    )
    .await;
    assert_eq!(warnings, Vec::<String>::new());
    let request = server.join().unwrap();
    let lower = request.to_ascii_lowercase();
    let state = load(home.path()).unwrap();
    let id = state
        .state_id
        .clone()
        .expect("recording creates the state id");
    assert_eq!(id.len(), 12, "{id}");
    assert!(
        request.starts_with(&format!(
            "PUT /metrics/job/kubectl-myops/instance/node-1/state_id/{id} HTTP/1.1\r\n"
        )),
        "{request}"
    );
    // The group is remembered (without the credentials), for a later change of grouping key.
    assert_eq!(
        state.pushed_group,
        Some(format!(
            "{base}/metrics/job/kubectl-myops/instance/node-1/state_id/{id}"
        ))
    );
    assert!(
        lower.contains("\r\ncontent-type: text/plain; version=0.0.4\r\n"),
        "{request}"
    );
    assert!(
        lower.contains("\r\nauthorization: basic bwu6cznjcmv0\r\n"),
        "{request}"
    ); // me:s3cret
    assert!(
        request.ends_with(&encode(&load(home.path()).unwrap(), &ALL)),
        "{request}"
    );
    assert_eq!(
        load(home.path())
            .unwrap()
            .ops
            .values()
            .map(|t| t.count)
            .sum::<u64>(),
        1
    );
}

#[tokio::test]
async fn a_rejected_push_keeps_the_totals_and_quotes_the_gateway() {
    let home = tempfile::tempdir().unwrap();
    let (base, server) = one_shot_server(
        "HTTP/1.1 400 Bad Request",
        "pushed metrics are invalid or inconsistent\n",
    );
    let warnings = finish(
        home.path(),
        "myops",
        &[obs(Status::Success, 0.1)],
        &ALL,
        Some(&target(&base, 5000)),
    )
    .await;
    server.join().unwrap();
    let path = state_path(home.path()).display().to_string();
    let id = load(home.path()).unwrap().state_id.unwrap();
    assert_eq!(
        warnings,
        [format!(
            "warning: metrics push to {base}/metrics/job/kubectl-myops/instance/node-1/state_id/{id} failed: the Pushgateway \
             answered HTTP 400: pushed metrics are invalid or inconsistent; the totals are kept in {path} and sent \
             with the next push"
        )]
    );
    assert_eq!(load(home.path()).unwrap().ops.len(), 1);
}

#[tokio::test]
async fn an_unreachable_gateway_is_one_warning() {
    let home = tempfile::tempdir().unwrap();
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let t = target(&format!("http://me:pw@127.0.0.1:{port}"), 2000);
    let warnings = finish(
        home.path(),
        "myops",
        &[obs(Status::Error, 0.1)],
        &ALL,
        Some(&t),
    )
    .await;
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let w = &warnings[0];
    assert!(
        w.starts_with(&format!(
            "warning: metrics push to http://127.0.0.1:{port}/metrics/job/"
        )),
        "{w}"
    );
    assert!(
        w.to_lowercase().contains("connection refused") && w.contains("sent with the next push"),
        "{w}"
    );
    assert!(!w.contains("pw@"), "credentials are not printed: {w}");
}

#[tokio::test]
async fn a_silent_gateway_times_out() {
    let home = tempfile::tempdir().unwrap();
    // Accepts connections (backlog) but never answers.
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let started = std::time::Instant::now();
    let warnings = finish(
        home.path(),
        "myops",
        &[obs(Status::Success, 0.1)],
        &ALL,
        Some(&target(&base, 300)),
    )
    .await;
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "bounded by the timeout"
    );
    assert_eq!(warnings.len(), 1);
    assert!(
        warnings[0].contains("no answer within 300 ms"),
        "{warnings:?}"
    );
    drop(listener);
}

#[tokio::test]
async fn a_corrupt_state_is_a_warning_and_nothing_is_pushed() {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(state_path(home.path()), "not json").unwrap();
    // No server: a push attempt would add a second warning.
    let t = target("http://127.0.0.1:1", 500);
    let warnings = finish(
        home.path(),
        "myops",
        &[obs(Status::Success, 0.1)],
        &ALL,
        Some(&t),
    )
    .await;
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].starts_with("warning: metrics not recorded: the metrics state file "),
        "{warnings:?}"
    );
    assert!(warnings[0].contains("metrics reset"));
}

#[tokio::test]
async fn without_a_target_finish_only_records() {
    let home = tempfile::tempdir().unwrap();
    let warnings = finish(
        home.path(),
        "myops",
        &[obs(Status::NotFound, 0.1)],
        &ALL,
        None,
    )
    .await;
    assert!(warnings.is_empty());
    assert_eq!(
        load(home.path()).unwrap().ops.keys().next().unwrap().status,
        Status::NotFound
    );
}

#[path = "crd_tests.rs"]
mod crd;
