//! Unit tests of the state file against hostile input: counters at their limits, values the
//! file cannot hold, a state file that is a FIFO or huge, a MYOPS_HOME that is not a
//! directory, bad state ids and pushed groups.

use super::*;

/// A state file whose one `get pods success` series is at `count` with every bucket full and
/// the given sum.
fn at(count: u64, sum: f64) -> String {
    let b = vec![count.to_string(); BUCKETS.len()].join(",");
    format!(
        r#"{{"version":1,"ops":[{{"plugin":"myops","verb":"get","resource":"pods","status":"success","count":{count},"sum":{sum:?},"buckets":[{b}]}}]}}"#
    )
}

#[test]
fn a_counter_at_u64_max_saturates_instead_of_wrapping_to_zero_and_corrupting_the_file() {
    let home = tempfile::tempdir().unwrap();
    fs::write(state_path(home.path()), at(u64::MAX, 1.0)).unwrap();
    let st = record(home.path(), "myops", &obs("get", Status::Success, 0.001)).unwrap();
    let t = &st.ops[&key("get", Status::Success)];
    assert_eq!(t.count, u64::MAX);
    assert_eq!(t.buckets, [u64::MAX; BUCKETS.len()]);
    assert_eq!(t.sum_seconds, 1.001);
    // The file is still valid and reads back the same: never called corrupt.
    assert_eq!(load(home.path()).unwrap(), st);
    record(home.path(), "myops", &obs("get", Status::Success, 0.5)).unwrap();
    assert_eq!(
        load(home.path()).unwrap().ops[&key("get", Status::Success)].count,
        u64::MAX
    );
}

#[test]
fn a_sum_at_the_edge_of_f64_stays_finite() {
    let home = tempfile::tempdir().unwrap();
    fs::write(state_path(home.path()), at(3, f64::MAX)).unwrap();
    record(home.path(), "myops", &obs("get", Status::Success, 30.0)).unwrap();
    let t = &load(home.path()).unwrap().ops[&key("get", Status::Success)];
    assert_eq!((t.count, t.sum_seconds), (4, f64::MAX));
}

#[test]
fn crd_load_counters_at_u64_max_saturate_together() {
    let full = vec![u64::MAX.to_string(); BUCKETS.len()].join(",");
    let text = format!(
        r#"{{"version":1,"ops":[],"crdLoads":[{{"plugin":"p","result":"success","count":18446744073709551615}}],"crdLoadDurations":[{{"plugin":"p","count":18446744073709551615,"sum":1.0,"buckets":[{full}]}}]}}"#
    );
    let home = tempfile::tempdir().unwrap();
    fs::write(state_path(home.path()), text).unwrap();
    let st = record_crd_loads(
        home.path(),
        "p",
        &[(Status::Success, 0.1), (Status::Invalid, 0.1)],
    )
    .unwrap();
    assert_eq!(st.crd_loads[&crd("p", Status::Success)], u64::MAX);
    assert_eq!(st.crd_loads[&crd("p", Status::Invalid)], 1);
    assert_eq!(st.crd_load_durations["p"].count, u64::MAX);
    assert_eq!(load(home.path()).unwrap(), st, "still consistent on disk");
}

#[test]
fn huge_negative_fractional_and_non_finite_values_are_corrupt_never_a_panic() {
    for text in [
        at(1, 0.5).replace("\"count\":1", "\"count\":18446744073709551616"),
        at(1, 0.5).replace("\"count\":1", "\"count\":-1"),
        at(1, 0.5).replace("\"count\":1", "\"count\":1.5"),
        at(1, 0.5).replace("\"count\":1", "\"count\":1e30"),
        at(1, 0.5).replace("0.5", "NaN"),
        at(1, 0.5).replace("0.5", "1e999"),
        at(1, 0.5).replace("0.5", "-0.5"),
        at(1, 0.5)
            .replace("\"pods\"", "\"po\\u001b[2Jds\"")
            .replace("success", "\u{1b}[2J"),
    ] {
        let e = corrupt_with(text.as_bytes());
        assert!(matches!(e, MetricsError::Corrupt { .. }), "{text}: {e}");
        assert!(!e.to_string().contains('\u{1b}'), "{e}");
    }
}

#[test]
fn a_state_file_that_is_a_fifo_or_huge_is_an_error_not_a_hang() {
    let home = tempfile::tempdir().unwrap();
    let path = state_path(home.path());
    let made = std::process::Command::new("mkfifo").arg(&path).status();
    if made.is_ok_and(|s| s.success()) {
        let e = load(home.path()).unwrap_err();
        assert!(e.to_string().contains("FIFO"), "{e}");
        fs::remove_file(&path).unwrap();
    }
    let f = fs::File::create(&path).unwrap();
    f.set_len(MAX_STATE_BYTES + 1).unwrap();
    let e = load(home.path()).unwrap_err();
    assert!(
        e.to_string().contains("over the 16777216-byte limit"),
        "{e}"
    );
}

#[test]
fn a_myops_home_that_is_not_a_directory_is_named_by_load_record_and_reset() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("file");
    fs::write(&file, "x").unwrap();
    let dangling = dir.path().join("dangling");
    std::os::unix::fs::symlink(dir.path().join("missing"), &dangling).unwrap();
    for (home, what) in [
        (&file, "a regular file"),
        (&dangling, "a dangling symbolic link to"),
    ] {
        for e in [
            load(home).unwrap_err(),
            record(home, "myops", &obs("get", Status::Success, 0.1)).unwrap_err(),
            reset(home).unwrap_err(),
        ] {
            assert!(matches!(e, MetricsError::NotADirectory { .. }), "{e:?}");
            let m = e.to_string();
            assert!(
                m.contains(&home.display().to_string()) && m.contains(what),
                "{m}"
            );
        }
    }
    assert!(!dir.path().join("missing").exists(), "nothing created");
}

#[test]
fn two_homes_get_different_state_ids_and_reset_keeps_the_id_and_the_pushed_group() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let id_a = record(a.path(), "myops", &obs("get", Status::Success, 0.1))
        .unwrap()
        .state_id
        .unwrap();
    let id_b = record(b.path(), "myops", &obs("get", Status::Success, 0.1))
        .unwrap()
        .state_id
        .unwrap();
    assert_ne!(id_a, id_b);
    // Recording again keeps the id.
    let again = record(a.path(), "myops", &obs("get", Status::Success, 0.1)).unwrap();
    assert_eq!(again.state_id.as_deref(), Some(id_a.as_str()));

    let group = "http://gw:9091/metrics/job/j/instance/i/state_id/x";
    set_pushed_group(a.path(), Some(group)).unwrap();
    let kept = reset(a.path()).unwrap();
    assert!(kept.is_empty(), "{kept:?}");
    assert_eq!(kept.state_id.as_deref(), Some(id_a.as_str()));
    assert_eq!(kept.pushed_group.as_deref(), Some(group));
    assert_eq!(load(a.path()).unwrap(), kept);
    set_pushed_group(a.path(), None).unwrap();
    assert_eq!(load(a.path()).unwrap().pushed_group, None);
}

#[test]
fn a_file_from_before_state_ids_gets_one_on_the_next_write_and_keeps_its_totals() {
    let home = tempfile::tempdir().unwrap();
    let old = "{\"version\":1,\"ops\":[{\"plugin\":\"myops\",\"verb\":\"get\",\"resource\":\"pods\",\
               \"status\":\"success\",\"count\":3,\"sum\":0.875,\"buckets\":[0,0,0,0,0,2,3,3,3,3,3,3,3]}]}\n";
    fs::write(state_path(home.path()), old).unwrap();
    assert_eq!(load(home.path()).unwrap().state_id, None);
    let state = load_with_id(home.path()).unwrap();
    assert!(state.state_id.is_some());
    assert_eq!(state.ops[&key("get", Status::Success)].count, 3);
    assert_eq!(load(home.path()).unwrap(), state);
}

#[test]
fn a_bad_state_id_or_pushed_group_makes_the_file_corrupt() {
    let ops = r#""ops":[]"#;
    for (extra, why) in [
        (r#""stateId":"""#, "stateId"),
        (r#""stateId":"a/b""#, "stateId"),
        (r#""stateId":"a\u001b[2J""#, "stateId"),
        (r#""pushedGroup":"ftp://gw/x""#, "pushedGroup"),
        (r#""pushedGroup":"http://gw/x y""#, "pushedGroup"),
    ] {
        let text = format!("{{\"version\":1,{ops},{extra}}}");
        match parse_state(&text) {
            Err(ParseError::Corrupt(reason)) => {
                assert!(reason.starts_with(why), "{text}: {reason}")
            }
            Err(ParseError::Version(v)) => panic!("{text}: version {v}"),
            Ok(s) => panic!("{text}: parsed as {s:?}"),
        }
    }
    let ok = parse_ok(&format!(
        "{{\"version\":1,{ops},\"stateId\":\"abc-1_2\",\"pushedGroup\":\"https://gw/metrics/job/j\"}}"
    ));
    assert_eq!(ok.state_id.as_deref(), Some("abc-1_2"));
    assert_eq!(ok.pushed_group.as_deref(), Some("https://gw/metrics/job/j"));
}
