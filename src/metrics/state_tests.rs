//! Unit tests of the state file (temporary MYOPS_HOME, no network).

use super::*;
use crate::metrics::{Observation, Status};

fn obs(verb: &str, status: Status, seconds: f64) -> Observation {
    Observation {
        verb: verb.into(),
        resource: "pods".into(),
        status,
        duration_seconds: seconds,
    }
}

fn key(verb: &str, status: Status) -> OpKey {
    OpKey {
        plugin: "myops".into(),
        verb: verb.into(),
        resource: "pods".into(),
        status,
    }
}

#[test]
fn three_successes_and_one_denial_give_exact_totals() {
    let home = tempfile::tempdir().unwrap();
    // Durations that are exact in binary, so the sums compare exactly.
    record(home.path(), "myops", &obs("get", Status::Success, 0.25)).unwrap();
    record(home.path(), "myops", &obs("get", Status::Success, 0.5)).unwrap();
    record(home.path(), "myops", &obs("get", Status::Success, 0.125)).unwrap();
    let returned = record(home.path(), "myops", &obs("get", Status::Denied, 0.0625)).unwrap();

    let state = load(home.path()).unwrap();
    assert_eq!(state, returned, "record returns what load reads back");
    assert_eq!(state.ops.len(), 2);

    let ok = &state.ops[&key("get", Status::Success)];
    assert_eq!(ok.count, 3);
    assert_eq!(ok.sum_seconds, 0.875);
    // le: 0.005 0.01 0.025 0.05 0.1 0.25 0.5 1 2.5 5 10 30 60 (0.25 <= 0.25: bounds are inclusive)
    assert_eq!(ok.buckets, [0, 0, 0, 0, 0, 2, 3, 3, 3, 3, 3, 3, 3]);

    let denied = &state.ops[&key("get", Status::Denied)];
    assert_eq!(denied.count, 1);
    assert_eq!(denied.sum_seconds, 0.0625);
    assert_eq!(denied.buckets, [0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
}

#[test]
fn the_file_is_versioned_json_and_round_trips() {
    let home = tempfile::tempdir().unwrap();
    record(home.path(), "myops", &obs("patch", Status::Conflict, 1.5)).unwrap();
    let text = fs::read_to_string(state_path(home.path())).unwrap();
    assert_eq!(
        text,
        "{\"version\":1,\"ops\":[{\"plugin\":\"myops\",\"verb\":\"patch\",\"resource\":\"pods\",\
         \"status\":\"conflict\",\"count\":1,\"sum\":1.5,\"buckets\":[0,0,0,0,0,0,0,0,1,1,1,1,1]}]}\n"
    );
    assert!(
        !home.path().join(TEMP_FILE).exists(),
        "the temp file was renamed away"
    );
}

#[test]
fn slow_and_bad_durations_are_counted_without_poisoning_the_sum() {
    let mut state = State::default();
    state.observe("myops", &obs("get", Status::Error, 120.0));
    state.observe("myops", &obs("get", Status::Error, f64::NAN));
    state.observe("myops", &obs("get", Status::Error, -3.0));
    state.observe("myops", &obs("get", Status::Error, f64::INFINITY));
    let t = &state.ops[&key("get", Status::Error)];
    assert_eq!(t.count, 4);
    assert_eq!(t.sum_seconds, 120.0);
    // 120 s is above every bound (it is only in +Inf = count); the 0 s ones are in every bucket.
    assert_eq!(t.buckets, [3; 13]);
}

#[test]
fn a_missing_file_or_home_loads_as_empty() {
    let home = tempfile::tempdir().unwrap();
    assert!(load(home.path()).unwrap().is_empty());
    assert!(load(&home.path().join("absent")).unwrap().is_empty());
    assert!(!home.path().join("absent").exists(), "load creates nothing");
}

#[cfg(unix)]
#[test]
fn a_missing_home_is_created_private() {
    use std::os::unix::fs::PermissionsExt;
    let root = tempfile::tempdir().unwrap();
    let home = root.path().join("a/b/.myops");
    record(&home, "myops", &obs("get", Status::Success, 0.01)).unwrap();
    let mode = fs::metadata(&home).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o700);
    let mode = fs::metadata(state_path(&home))
        .unwrap()
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(mode, 0o600);
}

#[test]
fn concurrent_records_lose_nothing() {
    let home = tempfile::tempdir().unwrap();
    let threads: Vec<_> = (0..8)
        .map(|_| {
            let home = home.path().to_path_buf();
            std::thread::spawn(move || {
                for _ in 0..25 {
                    record(&home, "myops", &obs("get", Status::Success, 0.25)).unwrap();
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let state = load(home.path()).unwrap();
    let t = &state.ops[&key("get", Status::Success)];
    assert_eq!(t.count, 200);
    assert_eq!(t.sum_seconds, 50.0);
    assert_eq!(t.buckets[5], 200);
}

fn corrupt_with(text: &[u8]) -> MetricsError {
    let home = tempfile::tempdir().unwrap();
    fs::write(state_path(home.path()), text).unwrap();
    let load_err = load(home.path()).unwrap_err();
    let record_err = record(home.path(), "myops", &obs("get", Status::Success, 0.1)).unwrap_err();
    assert_eq!(load_err.to_string(), record_err.to_string());
    assert_eq!(
        fs::read(state_path(home.path())).unwrap(),
        text,
        "a failed record leaves the file alone"
    );
    let message = load_err.to_string();
    assert!(
        message.contains(&state_path(home.path()).display().to_string()),
        "{message}"
    );
    assert!(
        message.contains("metrics reset") && message.contains("delete the file"),
        "{message}"
    );
    load_err
}

#[test]
fn a_corrupt_file_is_an_error_that_says_how_to_recover() {
    assert!(matches!(
        corrupt_with(b"{\"version\":1,\"ops\":[{\"plu"),
        MetricsError::Corrupt { .. }
    ));
    assert!(matches!(corrupt_with(b""), MetricsError::Corrupt { .. }));
    assert!(matches!(
        corrupt_with(b"\xff\xfe garbage"),
        MetricsError::Corrupt { .. }
    ));
    let short_buckets = br#"{"version":1,"ops":[{"plugin":"p","verb":"get","resource":"pods","status":"success","count":1,"sum":0.1,"buckets":[1,1]}]}"#;
    assert!(matches!(
        corrupt_with(short_buckets),
        MetricsError::Corrupt { .. }
    ));
    let bad_status = br#"{"version":1,"ops":[{"plugin":"p","verb":"get","resource":"pods","status":"ok","count":1,"sum":0.1,"buckets":[0,0,0,0,1,1,1,1,1,1,1,1,1]}]}"#;
    assert!(matches!(
        corrupt_with(bad_status),
        MetricsError::Corrupt { .. }
    ));
    let decreasing = br#"{"version":1,"ops":[{"plugin":"p","verb":"get","resource":"pods","status":"success","count":1,"sum":0.1,"buckets":[1,0,0,0,1,1,1,1,1,1,1,1,1]}]}"#;
    assert!(matches!(
        corrupt_with(decreasing),
        MetricsError::Corrupt { .. }
    ));
}

#[test]
fn another_format_version_is_named() {
    let err = corrupt_with(br#"{"version":2,"series":{}}"#);
    assert!(
        matches!(err, MetricsError::UnsupportedVersion { found: 2, .. }),
        "{err:?}"
    );
}

#[test]
fn reset_removes_the_totals() {
    let home = tempfile::tempdir().unwrap();
    record(home.path(), "myops", &obs("get", Status::Success, 0.1)).unwrap();
    reset(home.path()).unwrap();
    assert!(load(home.path()).unwrap().is_empty());
    reset(home.path()).unwrap();
    reset(&home.path().join("absent")).unwrap();
}
