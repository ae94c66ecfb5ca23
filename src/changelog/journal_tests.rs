//! The journal's writer: concurrency, modes, torn lines, the head, FIFOs, format versions.

use serde_json::Value;

use super::*;
use crate::changelog::model::{Operation, sample_entry as entry};
use crate::changelog::read::{read_all, read_files};

#[test]
fn concurrent_appends_give_one_valid_line_each() {
    let home = tempfile::tempdir().unwrap();
    let threads: Vec<_> = (0..8)
        .map(|t| {
            let journal = Journal::open(home.path()).unwrap();
            std::thread::spawn(move || {
                for i in 0..25 {
                    journal.append(&entry(&format!("crd-{t}-{i}"))).unwrap();
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let text = std::fs::read_to_string(path(home.path())).unwrap();
    let entries: Vec<Entry> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(entries.len(), 200);
    assert_eq!(entries[0].operation, Operation::CrdApply);
    let v: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(v["operation"], "crd-apply");
    assert_eq!(v["resourceVersionAfter"], "42");
    assert!(v["timestamp"].as_str().unwrap().ends_with('Z'));
    let ids: std::collections::HashSet<&str> = entries.iter().map(|e| e.id.as_str()).collect();
    assert_eq!(
        ids.len(),
        200,
        "ids are unique across threads of one process"
    );
    // Concurrent appenders keep one hash chain.
    let (files, head) = read_files(home.path()).unwrap();
    let summary = chain::verify(&files, head).unwrap();
    assert_eq!((summary.records, summary.unchained), (200, 0));
}

#[test]
fn open_refuses_a_home_that_is_a_file_naming_the_path() {
    let d = tempfile::tempdir().unwrap();
    let home = d.path().join("home");
    std::fs::write(&home, "x").unwrap();
    let e = Journal::open(&home).unwrap_err().to_string();
    assert_eq!(
        e,
        format!(
            "cannot write the change log {}/changelog.jsonl: MYOPS_HOME {} is not a directory (it is a regular file); set MYOPS_HOME to a directory",
            home.display(),
            home.display()
        )
    );
}

#[test]
fn the_log_is_created_private() {
    use std::os::unix::fs::PermissionsExt;
    let d = tempfile::tempdir().unwrap();
    let j = Journal::open(&d.path().join("h")).unwrap();
    j.append(&entry("a")).unwrap();
    let mode = std::fs::metadata(j.path()).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    let home_mode = std::fs::metadata(d.path().join("h"))
        .unwrap()
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(home_mode, 0o700);
    assert_eq!(j.warning(), None);
}

#[test]
fn an_existing_world_readable_log_is_tightened_to_0600_on_open() {
    use std::os::unix::fs::PermissionsExt;
    let d = tempfile::tempdir().unwrap();
    let log = path(d.path());
    std::fs::write(&log, "").unwrap();
    std::fs::set_permissions(&log, std::fs::Permissions::from_mode(0o644)).unwrap();
    Journal::open(d.path()).unwrap();
    let mode = std::fs::metadata(&log).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
}

#[test]
fn a_home_open_to_others_is_warned_about_once_with_the_fix() {
    use std::os::unix::fs::PermissionsExt;
    let d = tempfile::tempdir().unwrap();
    let home = d.path().join("h");
    std::fs::create_dir(&home).unwrap();
    std::fs::set_permissions(&home, std::fs::Permissions::from_mode(0o755)).unwrap();
    let j = Journal::open(&home).unwrap();
    assert_eq!(
        j.warning().unwrap(),
        format!(
            "warning: MYOPS_HOME {} is open to other users (mode 0755) and its change log holds full before-states of objects; run `chmod 700 {}`",
            home.display(),
            home.display()
        )
    );
}

#[test]
fn a_torn_last_line_does_not_swallow_the_next_append() {
    let d = tempfile::tempdir().unwrap();
    let j = Journal::open(d.path()).unwrap();
    j.append(&entry("first")).unwrap();
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(j.path())
        .unwrap();
    f.write_all(br#"{"id":"torn-1","session":"s","timest"#)
        .unwrap();
    drop(f);
    j.append(&entry("after-the-crash")).unwrap();
    let (entries, invalid) = read_all(d.path()).unwrap();
    let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["first", "after-the-crash"]);
    assert_eq!(invalid.len(), 1);
    assert_eq!(invalid[0].line, 2);
    assert!(
        invalid[0].reason.starts_with("torn: the JSON ends early"),
        "{invalid:?}"
    );
}

/// A disk full after the record's line but before `changelog.head` is replaced: the log
/// is cut back, so no intent of a request never sent stays behind unnamed by the head
/// (a break `verify` would report). Here the head's temp file cannot be created.
#[test]
fn a_record_whose_head_cannot_be_written_is_not_kept() {
    let d = tempfile::tempdir().unwrap();
    let j = Journal::open(d.path()).unwrap();
    j.append(&entry("first")).unwrap();
    let len = std::fs::metadata(j.path()).unwrap().len();
    let blocker = d.path().join(".changelog.head.tmp");
    std::fs::create_dir(&blocker).unwrap();
    let mut intent = entry("refused");
    intent.result = PENDING.into();
    let e = j.append(&intent).unwrap_err().to_string();
    assert!(e.contains("the record was not kept"), "{e}");
    assert_eq!(std::fs::metadata(j.path()).unwrap().len(), len, "cut back");
    std::fs::remove_dir(&blocker).unwrap();
    j.append(&entry("second")).unwrap();
    let (entries, invalid) = read_all(d.path()).unwrap();
    let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
    assert_eq!((names, invalid.len()), (vec!["first", "second"], 0));
    let (files, head) = read_files(d.path()).unwrap();
    assert!(chain::verify(&files, head).is_ok());
}

#[test]
fn a_read_failure_is_a_read_error_and_a_fifo_is_never_opened() {
    let d = tempfile::tempdir().unwrap();
    let home = d.path().join("file");
    std::fs::write(&home, "x").unwrap();
    let e = read_all(&home).unwrap_err().to_string();
    assert!(e.starts_with("cannot read the change log"), "{e}");
    assert!(!e.contains("free space"), "{e}");

    let fifo_home = d.path().join("fifo-home");
    std::fs::create_dir(&fifo_home).unwrap();
    let ok = std::process::Command::new("mkfifo")
        .arg(path(&fifo_home))
        .status()
        .unwrap()
        .success();
    assert!(ok, "mkfifo works");
    let e = read_all(&fifo_home).unwrap_err().to_string();
    assert!(
        e.contains("it is a FIFO (named pipe), not a regular file"),
        "{e}"
    );
    let e = Journal::open(&fifo_home).unwrap_err().to_string();
    assert!(e.starts_with("cannot write the change log"), "{e}");
    assert!(e.contains("a FIFO (named pipe)"), "{e}");

    let link_home = d.path().join("dangling");
    std::os::unix::fs::symlink(d.path().join("nowhere"), &link_home).unwrap();
    let e = Journal::open(&link_home).unwrap_err().to_string();
    assert!(e.contains("is a symbolic link to"), "{e}");
    assert!(e.contains("which does not exist"), "{e}");
    assert!(!d.path().join("nowhere").exists(), "nothing was created");
}

#[test]
fn framed_starts_a_fresh_line_only_when_needed() {
    assert_eq!(framed(b"{}".to_vec(), None), b"{}\n");
    assert_eq!(framed(b"{}".to_vec(), Some(b'\n')), b"{}\n");
    assert_eq!(framed(b"{}".to_vec(), Some(b'x')), b"\n{}\n");
}

#[test]
fn append_scrubs_registered_secrets_from_every_field() {
    crate::base::redact::remember("tok-7f3a9c-never-stored");
    let d = tempfile::tempdir().unwrap();
    let j = Journal::open(d.path()).unwrap();
    let e = Entry {
        result: "Invalid (422): value tok-7f3a9c-never-stored rejected".into(),
        ..entry("a")
    };
    j.append(&e).unwrap();
    let text = std::fs::read_to_string(j.path()).unwrap();
    assert!(!text.contains("tok-7f3a9c"), "{text}");
    assert!(text.contains("value *** rejected"), "{text}");
}

/// A version-1 record (no `formatVersion`) as the builds before the field wrote it, with
/// its hash: the hash covers the record as written, so it stays valid in every build.
const VERSION_1_RECORD: &str = r#"{"id":"18dc3a7e000-4d2-0","session":"5e55","timestamp":"2026-11-30T08:00:00Z","plugin":"myops","user":"admin","context":"admin","server":"https://127.0.0.1:6443","apiVersion":"v1","kind":"ConfigMap","namespace":"shop","name":"web","uid":null,"operation":"patch","patchType":"merge","patch":{"data":{"color":"green"}},"dryRun":false,"before":{"kind":"ConfigMap","data":{"color":"blue"}},"resourceVersionAfter":"7","result":"success","durationSeconds":0.25,"prev":"0000000000000000000000000000000000000000000000000000000000000000","hash":"853b9affba21a3bd8ac6348a5914e706628fd191ded155d93b8cafa5a419044e"}"#;
const VERSION_1_HASH: &str = "853b9affba21a3bd8ac6348a5914e706628fd191ded155d93b8cafa5a419044e";

#[test]
fn an_old_record_without_a_format_version_parses_verifies_and_the_chain_runs_on_from_it() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(path(d.path()), format!("{VERSION_1_RECORD}\n")).unwrap();
    let head = chain::Head {
        head: VERSION_1_HASH.into(),
        base: chain::GENESIS.into(),
    };
    chain::write_head(d.path(), &head).unwrap();
    let (entries, invalid) = read_all(d.path()).unwrap();
    assert_eq!((entries.len(), invalid.len()), (1, 0));
    assert_eq!(entries[0].format_version, None, "absent: version 1");
    assert_eq!(entries[0].before.as_ref().unwrap()["data"]["color"], "blue");
    let shown = serde_json::to_value(&entries[0]).unwrap();
    assert!(shown.get("formatVersion").is_none(), "{shown}");
    let (files, head) = read_files(d.path()).unwrap();
    let s = chain::verify(&files, head).unwrap();
    assert_eq!((s.records, s.unchained), (1, 0));
    assert_eq!(s.last, VERSION_1_HASH);
    // A record of this build chains on to it.
    Journal::open(d.path())
        .unwrap()
        .append(&entry("next"))
        .unwrap();
    let text = std::fs::read_to_string(path(d.path())).unwrap();
    let next: Value = serde_json::from_str(text.lines().nth(1).unwrap()).unwrap();
    assert_eq!(next["prev"], VERSION_1_HASH);
    assert_eq!(next["formatVersion"], FORMAT_VERSION);
    let (files, head) = read_files(d.path()).unwrap();
    assert_eq!(chain::verify(&files, head).unwrap().records, 2);
}

#[test]
fn every_record_this_build_writes_has_format_version_2_and_its_chain_verifies() {
    let d = tempfile::tempdir().unwrap();
    let j = Journal::open(d.path()).unwrap();
    j.append(&entry("a")).unwrap();
    // An entry built without the field (the outcome of an older intent) is written in
    // this build's format too.
    let unversioned = Entry {
        format_version: None,
        ..entry("b")
    };
    j.append(&unversioned).unwrap();
    let text = std::fs::read_to_string(j.path()).unwrap();
    for line in text.lines() {
        assert!(line.starts_with("{\"id\":\""), "the id stays first: {line}");
        let v: Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["formatVersion"], 2, "{line}");
    }
    let (entries, _) = read_all(d.path()).unwrap();
    assert!(entries.iter().all(|e| e.format_version == Some(2)));
    let (files, head) = read_files(d.path()).unwrap();
    let s = chain::verify(&files, head).unwrap();
    assert_eq!((s.records, s.unchained), (2, 0));
}

#[test]
fn a_group_of_records_is_appended_chained_in_order_in_one_step() {
    let d = tempfile::tempdir().unwrap();
    let j = Journal::open(d.path()).unwrap();
    j.append(&entry("before")).unwrap();
    let group: Vec<Entry> = ["a", "b", "c"].iter().map(|n| entry(n)).collect();
    j.append_all(&group).unwrap();
    j.append_all(&[]).unwrap();
    j.append(&entry("after")).unwrap();
    let text = std::fs::read_to_string(path(d.path())).unwrap();
    let names: Vec<String> = text
        .lines()
        .map(|l| serde_json::from_str::<Entry>(l).unwrap().name)
        .collect();
    assert_eq!(names, ["before", "a", "b", "c", "after"]);
    let (files, head) = read_files(d.path()).unwrap();
    assert_eq!(chain::verify(&files, head).unwrap().records, 5);
}
