//! Unit tests of the state file (temporary MYOPS_HOME, no network).

use super::*;
use crate::metrics::{Observation, Status};

fn obs(verb: &str, status: Status, seconds: f64) -> Observation {
    Observation {
        verb: verb.into(),
        resource: "pods".into(),
        status,
        duration_seconds: seconds,
        client: "cli",
    }
}

fn key(verb: &str, status: Status) -> OpKey {
    OpKey {
        plugin: "myops".into(),
        verb: verb.into(),
        resource: "pods".into(),
        status,
        client: "cli".into(),
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
    let bound = format!(",\"stateDir\":\"{}\"", dir_binding(home.path()).unwrap());
    let text = fs::read_to_string(state_path(home.path()))
        .unwrap()
        .replace(&bound, "");
    let id = load(home.path()).unwrap().state_id.unwrap();
    assert!(
        id.len() == 12 && id.bytes().all(|b| b.is_ascii_hexdigit()),
        "{id}"
    );
    assert_eq!(
        text.replace(&id, "ID"),
        "{\"version\":1,\"ops\":[{\"plugin\":\"myops\",\"verb\":\"patch\",\"resource\":\"pods\",\
         \"status\":\"conflict\",\"client\":\"cli\",\"count\":1,\"sum\":1.5,\"buckets\":[0,0,0,0,0,0,0,0,1,1,1,1,1]}],\
         \"stateId\":\"ID\"}\n"
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

// ---- CRD loads ----

fn crd(plugin: &str, result: Status) -> CrdLoadKey {
    CrdLoadKey {
        plugin: plugin.into(),
        result,
    }
}

#[test]
fn crd_batches_give_exact_totals() {
    let home = tempfile::tempdir().unwrap();
    let first = [
        (Status::Success, 0.25),
        (Status::Success, 0.5),
        (Status::Invalid, 0.0625),
    ];
    record_crd_loads(home.path(), "myops", &first).unwrap();
    // Bad durations count as 0 s; 120 s is above every bound.
    let second = [
        (Status::Error, f64::NAN),
        (Status::Conflict, -1.0),
        (Status::Denied, f64::INFINITY),
        (Status::Success, 120.0),
    ];
    record_crd_loads(home.path(), "myops", &second).unwrap();
    let returned = record_crd_loads(home.path(), "other", &[(Status::Success, 2.0)]).unwrap();

    let state = load(home.path()).unwrap();
    assert_eq!(
        state, returned,
        "record_crd_loads returns what load reads back"
    );
    assert!(state.ops.is_empty());
    let loads: Vec<(CrdLoadKey, u64)> = state.crd_loads.clone().into_iter().collect();
    assert_eq!(
        loads,
        [
            (crd("myops", Status::Success), 3),
            (crd("myops", Status::Denied), 1),
            (crd("myops", Status::Conflict), 1),
            (crd("myops", Status::Invalid), 1),
            (crd("myops", Status::Error), 1),
            (crd("other", Status::Success), 1),
        ]
    );
    assert_eq!(state.crd_load_durations.len(), 2);
    let mine = &state.crd_load_durations["myops"];
    assert_eq!(mine.count, 7);
    assert_eq!(mine.sum_seconds, 120.8125);
    // 0 s ×3 in every bucket; 0.0625 from le=0.1; 0.25 from 0.25; 0.5 from 0.5; 120 in none.
    assert_eq!(mine.buckets, [3, 3, 3, 3, 4, 5, 6, 6, 6, 6, 6, 6, 6]);
    let other = &state.crd_load_durations["other"];
    assert_eq!(
        (other.count, other.sum_seconds, other.buckets),
        (1, 2.0, [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1])
    );
}

#[test]
fn crd_loads_are_written_after_the_ops_and_round_trip() {
    let home = tempfile::tempdir().unwrap();
    record(home.path(), "myops", &obs("patch", Status::Conflict, 1.5)).unwrap();
    record_crd_loads(
        home.path(),
        "myops",
        &[(Status::Success, 0.25), (Status::Invalid, 0.001)],
    )
    .unwrap();
    let bound = format!(",\"stateDir\":\"{}\"", dir_binding(home.path()).unwrap());
    let text = fs::read_to_string(state_path(home.path()))
        .unwrap()
        .replace(&bound, "");
    let id = load(home.path()).unwrap().state_id.unwrap();
    assert_eq!(
        text.replace(&id, "ID"),
        "{\"version\":1,\"ops\":[{\"plugin\":\"myops\",\"verb\":\"patch\",\"resource\":\"pods\",\
         \"status\":\"conflict\",\"client\":\"cli\",\"count\":1,\"sum\":1.5,\"buckets\":[0,0,0,0,0,0,0,0,1,1,1,1,1]}],\
         \"crdLoads\":[{\"plugin\":\"myops\",\"result\":\"success\",\"count\":1},\
         {\"plugin\":\"myops\",\"result\":\"invalid\",\"count\":1}],\
         \"crdLoadDurations\":[{\"plugin\":\"myops\",\"count\":2,\"sum\":0.251,\
         \"buckets\":[1,1,1,1,1,2,2,2,2,2,2,2,2]}],\"stateId\":\"ID\"}\n"
    );
    let state = load(home.path()).unwrap();
    assert_eq!(parse_ok(&serialize_state(&state).unwrap()), state);
    assert!(!home.path().join(TEMP_FILE).exists());
}

fn parse_ok(text: &str) -> State {
    match parse_state(text) {
        Ok(state) => state,
        Err(ParseError::Version(v)) => panic!("version {v}"),
        Err(ParseError::Corrupt(reason)) => panic!("corrupt: {reason}"),
    }
}

#[test]
fn a_file_from_before_crd_loads_still_loads_and_grows() {
    let home = tempfile::tempdir().unwrap();
    let old = "{\"version\":1,\"ops\":[{\"plugin\":\"myops\",\"verb\":\"get\",\"resource\":\"pods\",\
               \"status\":\"success\",\"count\":3,\"sum\":0.875,\"buckets\":[0,0,0,0,0,2,3,3,3,3,3,3,3]}]}\n";
    fs::write(state_path(home.path()), old).unwrap();
    let state = load(home.path()).unwrap();
    assert!(state.crd_loads.is_empty() && state.crd_load_durations.is_empty());
    let ok = &state.ops[&key("get", Status::Success)];
    assert_eq!((ok.count, ok.sum_seconds), (3, 0.875));

    // Rewritten unchanged while there is no CRD load (no new keys).
    record(home.path(), "myops", &obs("get", Status::Success, 0.125)).unwrap();
    let text = fs::read_to_string(state_path(home.path())).unwrap();
    assert!(!text.contains("crd"), "{text}");

    // CRD loads add to it; the ops totals are kept.
    let state = record_crd_loads(home.path(), "myops", &[(Status::Success, 0.5)]).unwrap();
    assert_eq!(state.ops[&key("get", Status::Success)].count, 4);
    assert_eq!(state.crd_loads[&crd("myops", Status::Success)], 1);
    assert_eq!(state.crd_load_durations["myops"].count, 1);
}

#[test]
fn an_empty_crd_batch_writes_nothing() {
    let root = tempfile::tempdir().unwrap();
    let home = root.path().join("home");
    assert!(record_crd_loads(&home, "myops", &[]).unwrap().is_empty());
    assert!(!home.exists(), "nothing created");
    record(&home, "myops", &obs("get", Status::Success, 0.1)).unwrap();
    let before = fs::read(state_path(&home)).unwrap();
    let state = record_crd_loads(&home, "myops", &[]).unwrap();
    assert_eq!(state.ops.len(), 1);
    assert_eq!(fs::read(state_path(&home)).unwrap(), before);
}

#[test]
fn a_state_with_only_crd_loads_is_not_empty() {
    let mut state = State::default();
    assert!(state.is_empty());
    state.observe_crd_load("myops", Status::Success, 0.1);
    assert!(!state.is_empty());
}

#[test]
fn concurrent_crd_batches_and_records_lose_nothing() {
    let home = tempfile::tempdir().unwrap();
    let mut threads: Vec<_> = (0..8)
        .map(|_| {
            let home = home.path().to_path_buf();
            std::thread::spawn(move || {
                for _ in 0..25 {
                    let batch = [
                        (Status::Success, 0.25),
                        (Status::Success, 0.5),
                        (Status::Error, 2.0),
                    ];
                    record_crd_loads(&home, "myops", &batch).unwrap();
                }
            })
        })
        .collect();
    threads.extend((0..4).map(|_| {
        let home = home.path().to_path_buf();
        std::thread::spawn(move || {
            for _ in 0..25 {
                record(&home, "myops", &obs("get", Status::Success, 0.25)).unwrap();
            }
        })
    }));
    for t in threads {
        t.join().unwrap();
    }
    let state = load(home.path()).unwrap();
    assert_eq!(state.crd_loads[&crd("myops", Status::Success)], 400);
    assert_eq!(state.crd_loads[&crd("myops", Status::Error)], 200);
    assert_eq!(state.crd_loads.len(), 2);
    let d = &state.crd_load_durations["myops"];
    assert_eq!(d.count, 600);
    assert_eq!(d.sum_seconds, 550.0);
    assert_eq!(
        d.buckets,
        [0, 0, 0, 0, 0, 200, 400, 400, 600, 600, 600, 600, 600]
    );
    let ops = &state.ops[&key("get", Status::Success)];
    assert_eq!((ops.count, ops.sum_seconds), (100, 25.0));
}

#[test]
fn inconsistent_crd_entries_are_corrupt() {
    let ops = r#""ops":[]"#;
    let one = r#""crdLoads":[{"plugin":"p","result":"success","count":1}]"#;
    let dur1 = r#""crdLoadDurations":[{"plugin":"p","count":1,"sum":0.1,"buckets":[0,0,0,0,1,1,1,1,1,1,1,1,1]}]"#;
    // The consistent file loads.
    let good = format!("{{\"version\":1,{ops},{one},{dur1}}}");
    assert_eq!(parse_ok(&good).crd_loads[&crd("p", Status::Success)], 1);

    let cases = [
        // Unknown result value.
        format!(
            r#"{{"version":1,{ops},"crdLoads":[{{"plugin":"p","result":"ok","count":1}}],{dur1}}}"#
        ),
        // The same label set twice.
        format!(
            r#"{{"version":1,{ops},"crdLoads":[{{"plugin":"p","result":"success","count":1}},{{"plugin":"p","result":"success","count":0}}],{dur1}}}"#
        ),
        // The same plugin twice in the durations.
        format!(
            r#"{{"version":1,{ops},{one},"crdLoadDurations":[{{"plugin":"p","count":1,"sum":0.1,"buckets":[0,0,0,0,1,1,1,1,1,1,1,1,1]}},{{"plugin":"p","count":0,"sum":0,"buckets":[0,0,0,0,0,0,0,0,0,0,0,0,0]}}]}}"#
        ),
        // Decreasing buckets.
        format!(
            r#"{{"version":1,{ops},{one},"crdLoadDurations":[{{"plugin":"p","count":1,"sum":0.1,"buckets":[1,0,0,0,1,1,1,1,1,1,1,1,1]}}]}}"#
        ),
        // Last bucket above the count.
        format!(
            r#"{{"version":1,{ops},{one},"crdLoadDurations":[{{"plugin":"p","count":1,"sum":0.1,"buckets":[0,0,0,0,2,2,2,2,2,2,2,2,2]}}]}}"#
        ),
        // Negative sum.
        format!(
            r#"{{"version":1,{ops},{one},"crdLoadDurations":[{{"plugin":"p","count":1,"sum":-0.1,"buckets":[0,0,0,0,1,1,1,1,1,1,1,1,1]}}]}}"#
        ),
        // Short buckets.
        format!(
            r#"{{"version":1,{ops},{one},"crdLoadDurations":[{{"plugin":"p","count":1,"sum":0.1,"buckets":[1,1]}}]}}"#
        ),
        // Counts that do not add up to the histogram count.
        format!(
            r#"{{"version":1,{ops},"crdLoads":[{{"plugin":"p","result":"success","count":2}}],{dur1}}}"#
        ),
        // Loads without a histogram, and a histogram without loads.
        format!("{{\"version\":1,{ops},{one}}}"),
        format!("{{\"version\":1,{ops},{dur1}}}"),
        // An unknown field in an entry.
        format!(
            r#"{{"version":1,{ops},"crdLoads":[{{"plugin":"p","result":"success","count":1,"extra":1}}],{dur1}}}"#
        ),
    ];
    for text in cases {
        assert!(
            matches!(corrupt_with(text.as_bytes()), MetricsError::Corrupt { .. }),
            "{text}"
        );
    }
    let err = corrupt_with(format!("{{\"version\":1,{ops},{dur1}}}").as_bytes());
    assert!(
        err.to_string()
            .contains("crdLoads and crdLoadDurations disagree for plugin p"),
        "{err}"
    );
}

#[path = "state_hostile_tests.rs"]
mod hostile;

#[test]
fn a_copied_state_directory_takes_a_new_id_and_starts_from_zero() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let obs = Observation {
        verb: "get".into(),
        resource: "pods".into(),
        status: Status::Success,
        duration_seconds: 0.1,
        client: "cli",
    };
    let first = record(&home, "myops", &obs).unwrap();
    let first = set_pushed_group(&home, Some("http://gw:9091/metrics/job/j")).map_or(first, |s| s);
    assert_eq!(first.state_dir, dir_binding(&home));
    assert!(!is_copy(&first, dir_binding(&home).as_deref()));
    let copy = dir.path().join("copy");
    std::fs::create_dir(&copy).unwrap();
    std::fs::copy(state_path(&home), state_path(&copy)).unwrap();
    assert!(is_copy(
        &load(&copy).unwrap(),
        dir_binding(&copy).as_deref()
    ));
    let copied = record(&copy, "myops", &obs).unwrap();
    assert_ne!(copied.state_id, first.state_id);
    assert_eq!(copied.pushed_group, None);
    assert_eq!(copied.ops.values().map(|t| t.count).sum::<u64>(), 1);
    // The original keeps its id and counts on.
    let again = record(&home, "myops", &obs).unwrap();
    assert_eq!(again.state_id, first.state_id);
    assert_eq!(again.ops.values().map(|t| t.count).sum::<u64>(), 2);
    // A file without a binding (older builds) is bound where it is, keeping its id.
    let older = State {
        state_dir: None,
        ..again.clone()
    };
    assert!(!is_copy(&older, Some("1:2")));
}
