//! Unit tests of the background pusher's hand-over files.

use super::*;

#[test]
fn a_failure_note_is_taken_once_and_removed() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join(FAILED_NOTE),
        "warning: the last background metrics push to http://gw/ failed: refused\n",
    )
    .unwrap();
    let first = take_failure_note(dir.path());
    assert_eq!(
        first,
        vec!["warning: the last background metrics push to http://gw/ failed: refused".to_string()]
    );
    assert!(take_failure_note(dir.path()).is_empty());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn a_spec_round_trips_through_the_environment_text() {
    let spec = Spec {
        home: PathBuf::from("/h"),
        url: "http://u:p@gw:9091/metrics/job/j".into(),
        timeout_ms: 1000,
        basic_auth: Some(("u".into(), "p".into())),
        bearer_token: None,
        ca_pem: Some(base64::engine::general_purpose::STANDARD.encode(b"PEM\xff")),
        families: vec![MetricFamily::OpsTotal],
    };
    let back: Spec = serde_json::from_str(&serde_json::to_string(&spec).unwrap()).unwrap();
    assert_eq!(back.url, spec.url);
    assert_eq!(back.basic_auth, spec.basic_auth);
    assert_eq!(back.ca_pem, spec.ca_pem);
    assert_eq!(back.families, spec.families);
}

#[test]
fn a_held_push_lock_is_reported_as_held_not_waited_for() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(PUSH_LOCK);
    let held = fsutil::try_lock_exclusive(&path).unwrap();
    assert!(held.is_some());
    assert!(fsutil::try_lock_exclusive(&path).unwrap().is_none());
    drop(held);
    assert!(fsutil::try_lock_exclusive(&path).unwrap().is_some());
}

#[test]
fn forgetting_what_was_pushed_removes_the_record() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(PUSHED), "http://gw/\nops_total 1\n").unwrap();
    forget_pushed(dir.path());
    assert!(!dir.path().join(PUSHED).exists());
}
