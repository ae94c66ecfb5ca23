//! Unit tests of the CRD hot-load families: their exact text, their order after the ops
//! families, and that every push carries both (temporary MYOPS_HOME; HTTP only to
//! 127.0.0.1).

use super::*;

/// Every family, ops and CRD.
const EVERY: [MetricFamily; 5] = [
    MetricFamily::OpsTotal,
    MetricFamily::OpsErrorsTotal,
    MetricFamily::OpsDurationSeconds,
    MetricFamily::CrdLoadsTotal,
    MetricFamily::CrdLoadDurationSeconds,
];

const BOUNDS: [&str; 14] = [
    "0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1", "2.5", "5", "10", "30", "60",
    "+Inf",
];

/// myops: success 0.25 s, success 0.5 s, invalid 0.0625 s.
const CRD_BATCH: [(Status, f64); 3] = [
    (Status::Success, 0.25),
    (Status::Success, 0.5),
    (Status::Invalid, 0.0625),
];

/// The exact text of the two CRD families for [`CRD_BATCH`] recorded under plugin `myops`.
fn crd_batch_text() -> String {
    let mut expected = String::from(
        "# HELP crd_loads_total CRD hot-load attempts by kubectl-myops, by plugin and result.\n\
         # TYPE crd_loads_total counter\n\
         crd_loads_total{plugin=\"myops\",result=\"success\"} 2\n\
         crd_loads_total{plugin=\"myops\",result=\"invalid\"} 1\n\
         # HELP crd_load_duration_seconds Wall-clock duration of one CRD hot-load attempt in seconds.\n\
         # TYPE crd_load_duration_seconds histogram\n",
    );
    let counts = [0, 0, 0, 0, 1, 2, 3, 3, 3, 3, 3, 3, 3, 3];
    for (le, n) in BOUNDS.iter().zip(counts) {
        expected +=
            &format!("crd_load_duration_seconds_bucket{{plugin=\"myops\",le=\"{le}\"}} {n}\n");
    }
    expected += "crd_load_duration_seconds_sum{plugin=\"myops\"} 0.8125\n\
                 crd_load_duration_seconds_count{plugin=\"myops\"} 3\n";
    expected
}

fn crd_state() -> State {
    let mut state = State::default();
    for (result, seconds) in CRD_BATCH {
        state.observe_crd_load("myops", result, seconds);
    }
    state
}

#[test]
fn encode_writes_the_exact_crd_exposition_text() {
    let state = crd_state();
    assert_eq!(encode(&state, &EVERY), crd_batch_text());
    // The line the brief names, verbatim (TextEncoder keeps the label order given: plugin, result).
    assert!(
        encode(&state, &[MetricFamily::CrdLoadsTotal])
            .contains("\ncrd_loads_total{plugin=\"myops\",result=\"success\"} 2\n")
    );
    // No ops series: the ops families are left out, not rendered empty.
    assert_eq!(encode(&state, &ALL), "");
}

#[test]
fn crd_families_come_after_the_ops_families_and_only_when_requested() {
    let mut state = sample_state();
    for (result, seconds) in CRD_BATCH {
        state.observe_crd_load("myops", result, seconds);
    }
    let ops_only = encode(&state, &ALL);
    assert_eq!(ops_only, encode(&sample_state(), &ALL));
    // Whatever the order in the list: the ops families first, then the CRD families.
    let reversed: Vec<MetricFamily> = EVERY.iter().rev().copied().collect();
    let text = encode(&state, &reversed);
    assert_eq!(text, format!("{ops_only}{}", crd_batch_text()));

    let counter_only = encode(&state, &[MetricFamily::CrdLoadsTotal]);
    assert!(
        counter_only.starts_with("# HELP crd_loads_total "),
        "{counter_only}"
    );
    assert_eq!(counter_only.matches("# TYPE").count(), 1, "{counter_only}");
    let histogram_only = encode(&state, &[MetricFamily::CrdLoadDurationSeconds]);
    assert!(
        histogram_only.starts_with("# HELP crd_load_duration_seconds "),
        "{histogram_only}"
    );
    assert!(
        !histogram_only.contains("crd_loads_total"),
        "{histogram_only}"
    );
}

#[test]
fn crd_series_of_several_plugins_are_ordered_and_escaped() {
    let mut state = State::default();
    state.observe_crd_load("zeta", Status::Error, 0.005);
    state.observe_crd_load("a\"b", Status::Conflict, 0.01);
    state.observe_crd_load("a\"b", Status::Denied, 0.01);
    let text = encode(&state, &[MetricFamily::CrdLoadsTotal]);
    assert_eq!(
        text,
        "# HELP crd_loads_total CRD hot-load attempts by kubectl-myops, by plugin and result.\n\
         # TYPE crd_loads_total counter\n\
         crd_loads_total{plugin=\"a\\\"b\",result=\"denied\"} 1\n\
         crd_loads_total{plugin=\"a\\\"b\",result=\"conflict\"} 1\n\
         crd_loads_total{plugin=\"zeta\",result=\"error\"} 1\n"
    );
    let text = encode(&state, &[MetricFamily::CrdLoadDurationSeconds]);
    assert!(
        text.contains("\ncrd_load_duration_seconds_count{plugin=\"a\\\"b\"} 2\n"),
        "{text}"
    );
    assert!(
        text.contains("\ncrd_load_duration_seconds_bucket{plugin=\"zeta\",le=\"0.005\"} 1\n"),
        "{text}"
    );
}

/// The body of the one request `server` received.
fn body_of(request: &str) -> &str {
    &request[request.find("\r\n\r\n").expect("a complete request") + 4..]
}

#[tokio::test]
async fn every_push_carries_both_the_ops_and_the_crd_families() {
    let home = tempfile::tempdir().unwrap();
    let ops_line = "\nops_total{client=\"cli\",plugin=\"myops\",resource=\"pods\",status=\"success\",verb=\"get\"} ";
    let crd_line = "\ncrd_loads_total{plugin=\"myops\",result=\"success\"} ";

    // CRD loads first (no target: only recorded), then an ops run pushes.
    let warnings = finish_crd_loads(home.path(), "myops", &CRD_BATCH, &EVERY, None).await;
    assert!(warnings.is_empty(), "{warnings:?}");
    let (base, server) = one_shot_server("HTTP/1.1 200 OK", "");
    let o = obs(Status::Success, 0.25);
    let warnings = finish(
        home.path(),
        "myops",
        std::slice::from_ref(&o),
        &EVERY,
        Some(&target(&base, 5000)),
    )
    .await;
    assert_eq!(warnings, Vec::<String>::new());
    let request = server.join().unwrap();
    let body = body_of(&request);
    assert_eq!(body, encode(&load(home.path()).unwrap(), &EVERY));
    assert!(body.contains(&format!("{ops_line}1\n")), "{body}");
    assert!(body.contains(&format!("{crd_line}2\n")), "{body}");
    assert!(body.ends_with(&crd_batch_text()), "{body}");

    // Then a CRD batch pushes: the ops totals are in its body too. (This second stand-in is
    // another gateway to the state, whose first group it would delete: forget that group, the
    // deletion is tested against the real Pushgateway in tests/it/metrics.rs.)
    set_pushed_group(home.path(), None).unwrap();
    let (base, server) = one_shot_server("HTTP/1.1 200 OK", "");
    let batch = [(Status::Success, 0.25), (Status::Error, 1.5)];
    let warnings = finish_crd_loads(
        home.path(),
        "myops",
        &batch,
        &EVERY,
        Some(&target(&base, 5000)),
    )
    .await;
    assert_eq!(warnings, Vec::<String>::new());
    let request = server.join().unwrap();
    let id = load(home.path()).unwrap().state_id.unwrap();
    assert!(
        request.starts_with(&format!(
            "PUT /metrics/job/kubectl-myops/instance/node-1/state_id/{id} HTTP/1.1\r\n"
        )),
        "{request}"
    );
    let body = body_of(&request);
    let state = load(home.path()).unwrap();
    assert_eq!(body, encode(&state, &EVERY));
    assert!(body.contains(&format!("{ops_line}1\n")), "{body}");
    assert!(body.contains("\nops_duration_seconds_count{client=\"cli\",plugin=\"myops\",resource=\"pods\",status=\"success\",verb=\"get\"} 1\n"), "{body}");
    assert!(body.contains(&format!("{crd_line}3\n")), "{body}");
    assert!(
        body.contains("\ncrd_loads_total{plugin=\"myops\",result=\"error\"} 1\n"),
        "{body}"
    );
    assert!(
        body.contains("\ncrd_load_duration_seconds_sum{plugin=\"myops\"} 2.5625\n"),
        "{body}"
    );
    assert!(
        body.contains("\ncrd_load_duration_seconds_count{plugin=\"myops\"} 5\n"),
        "{body}"
    );
    assert!(
        body.find("# TYPE ops_duration_seconds").unwrap()
            < body.find("# TYPE crd_loads_total").unwrap()
    );
}

#[tokio::test]
async fn finish_crd_loads_only_pushes_the_requested_families() {
    let home = tempfile::tempdir().unwrap();
    record(home.path(), "myops", &obs(Status::Success, 0.25)).unwrap();
    let (base, server) = one_shot_server("HTTP/1.1 200 OK", "");
    let families = [MetricFamily::CrdLoadsTotal, MetricFamily::OpsTotal];
    let warnings = finish_crd_loads(
        home.path(),
        "myops",
        &CRD_BATCH,
        &families,
        Some(&target(&base, 5000)),
    )
    .await;
    assert!(warnings.is_empty(), "{warnings:?}");
    let request = server.join().unwrap();
    let body = body_of(&request);
    assert_eq!(
        body,
        "# HELP ops_total Operations run by kubectl-myops, by plugin, verb, resource and outcome status.\n\
         # TYPE ops_total counter\n\
         ops_total{client=\"cli\",plugin=\"myops\",resource=\"pods\",status=\"success\",verb=\"get\"} 1\n\
         # HELP crd_loads_total CRD hot-load attempts by kubectl-myops, by plugin and result.\n\
         # TYPE crd_loads_total counter\n\
         crd_loads_total{plugin=\"myops\",result=\"success\"} 2\n\
         crd_loads_total{plugin=\"myops\",result=\"invalid\"} 1\n"
    );
}

#[tokio::test]
async fn finish_crd_loads_warns_like_finish() {
    let home = tempfile::tempdir().unwrap();
    let (base, server) = one_shot_server(
        "HTTP/1.1 400 Bad Request",
        "pushed metrics are invalid or inconsistent\n",
    );
    let warnings = finish_crd_loads(
        home.path(),
        "myops",
        &CRD_BATCH,
        &EVERY,
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
    let kept = State {
        state_id: Some(id),
        state_dir: crate::metrics::state::dir_binding(home.path()),
        ..crd_state()
    };
    assert_eq!(load(home.path()).unwrap(), kept, "the totals are kept");
}

#[tokio::test]
async fn finish_crd_loads_with_a_corrupt_state_warns_and_does_not_push() {
    let home = tempfile::tempdir().unwrap();
    std::fs::write(state_path(home.path()), "not json").unwrap();
    // No server: a push attempt would add a second warning.
    let t = target("http://127.0.0.1:1", 500);
    let warnings = finish_crd_loads(home.path(), "myops", &CRD_BATCH, &EVERY, Some(&t)).await;
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].starts_with("warning: metrics not recorded: the metrics state file "),
        "{warnings:?}"
    );
    assert_eq!(std::fs::read(state_path(home.path())).unwrap(), b"not json");
}

#[tokio::test]
async fn finish_crd_loads_without_loads_does_nothing() {
    let root = tempfile::tempdir().unwrap();
    let home = root.path().join("home");
    // No server: a push attempt would be a warning.
    let t = target("http://127.0.0.1:1", 500);
    let warnings = finish_crd_loads(&home, "myops", &[], &EVERY, Some(&t)).await;
    assert!(warnings.is_empty(), "{warnings:?}");
    assert!(!home.exists(), "nothing created");
}

#[tokio::test]
async fn without_a_target_finish_crd_loads_only_records() {
    let home = tempfile::tempdir().unwrap();
    let warnings = finish_crd_loads(home.path(), "myops", &CRD_BATCH, &EVERY, None).await;
    assert!(warnings.is_empty(), "{warnings:?}");
    let mut state = load(home.path()).unwrap();
    assert!(state.state_id.take().is_some(), "recording creates the id");
    assert!(
        state.state_dir.take().is_some(),
        "and binds it to the directory"
    );
    assert_eq!(state, crd_state());
}
