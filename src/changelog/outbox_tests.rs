//! The outbox's pure judgement and its files, in a temporary MYOPS_HOME.

use std::os::unix::fs::PermissionsExt;

use super::*;
use crate::changelog::model::{PENDING, sample_entry as entry};
use crate::changelog::{Entry, Journal};

fn mode(p: &Path) -> u32 {
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

/// A home whose mirroring journal holds the complete records `names` (each after an intent).
fn home_with(names: &[&str]) -> (tempfile::TempDir, Journal) {
    let d = tempfile::tempdir().unwrap();
    let j = Journal::open(d.path()).unwrap().with_mirror(true);
    for n in names {
        let e = entry(n);
        j.append(&Entry {
            result: PENDING.into(),
            ..e.clone()
        })
        .unwrap();
        j.append(&e).unwrap();
    }
    (d, j)
}

#[test]
fn the_journal_queues_every_complete_record_and_no_intent() {
    let (d, j) = home_with(&["a", "b"]);
    let log = std::fs::read_to_string(j.path()).unwrap();
    let complete: Vec<&str> = log.lines().skip(1).step_by(2).collect();
    let queue = std::fs::read_to_string(queue_path(d.path())).unwrap();
    assert_eq!(queue.lines().collect::<Vec<_>>(), complete, "byte for byte");
    assert_eq!(mode(&queue_path(d.path())), 0o600);
    let (good, bad) = pending(d.path(), None).unwrap();
    assert_eq!(bad, Rejections::default());
    assert_eq!(
        good.iter().map(|q| q.number).collect::<Vec<_>>(),
        vec![1, 2]
    );
    assert_eq!(good[0].user, "admin");
}

#[test]
fn a_journal_without_the_mirror_writes_no_queue() {
    let d = tempfile::tempdir().unwrap();
    Journal::open(d.path())
        .unwrap()
        .append(&entry("a"))
        .unwrap();
    assert!(!queue_path(d.path()).exists());
}

#[test]
fn a_queue_that_is_a_directory_is_refused_as_the_log_is_and_the_record_not_kept() {
    let d = tempfile::tempdir().unwrap();
    let j = Journal::open(d.path()).unwrap().with_mirror(true);
    std::fs::create_dir(queue_path(d.path())).unwrap();
    let e = j.append(&entry("a")).unwrap_err().to_string();
    assert!(e.contains("mirror-queue.jsonl"), "{e}");
    assert!(e.contains("it is a directory, not a regular file"), "{e}");
    assert_eq!(std::fs::read_to_string(j.path()).unwrap(), "", "cut back");
    let e = pending(d.path(), None).unwrap_err().to_string();
    assert!(e.starts_with("cannot use the mirror queue "), "{e}");
    assert!(!e.contains("a new log is started"), "{e}");
}

#[test]
fn a_torn_line_and_an_edited_line_are_rejected_by_number_and_the_rest_kept() {
    let (d, _j) = home_with(&["a", "b", "c"]);
    let text = std::fs::read_to_string(queue_path(d.path())).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let edited = lines[1].replace("\"name\":\"b\"", "\"name\":\"z\"");
    assert_ne!(edited, lines[1]);
    let torn = &lines[2][..40];
    let bytes = format!("{}\n{edited}\n{}\n{torn}", lines[0], lines[2]);
    let (good, bad) = judge(bytes.as_bytes());
    assert_eq!(
        good.iter().map(|q| q.number).collect::<Vec<_>>(),
        vec![1, 3]
    );
    let whys: Vec<(usize, &str)> = bad.first.iter().map(|(n, w)| (*n, w.as_str())).collect();
    assert_eq!(
        whys,
        vec![
            (2, "edited: its hash does not match its content"),
            (4, "torn: it does not end with a newline"),
        ]
    );
    // A torn line that a later append ended with a newline is torn JSON.
    let (_, bad) = judge(format!("{torn}\n{}\n", lines[0]).as_bytes());
    assert_eq!(bad.first[0].1, "torn: the JSON ends early");
    let w = bad.warning(d.path()).unwrap();
    assert!(
        w.starts_with("warning: 1 line(s) of the mirror queue "),
        "{w}"
    );
    assert!(!w.contains(torn), "never the content: {w}");
}

#[test]
fn settle_removes_sent_lines_moves_rejected_ones_and_keeps_lines_appended_meanwhile() {
    let (d, j) = home_with(&["a", "b"]);
    let (good, _) = pending(d.path(), None).unwrap();
    // A torn line, then a record appended after the queue was read.
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(queue_path(d.path()))
        .unwrap();
    f.write_all(b"{\"id\":\"to").unwrap();
    drop(f);
    j.append(&entry("late")).unwrap();
    let (_, bad) = pending(d.path(), None).unwrap();
    assert_eq!(bad.count, 1);
    let left = settle(d.path(), &[good[0].line.clone()]).unwrap();
    assert_eq!(left, 2);
    let (rest, bad_now) = pending(d.path(), None).unwrap();
    assert_eq!(bad_now.count, 0);
    let names: Vec<String> = rest
        .iter()
        .map(|q| serde_json::from_str::<Entry>(&q.line).unwrap().name)
        .collect();
    assert_eq!(names, ["b", "late"]);
    let rejected = std::fs::read_to_string(rejected_path(d.path())).unwrap();
    assert_eq!(rejected, "{\"id\":\"to\n");
    assert_eq!(mode(&rejected_path(d.path())), 0o600);
    assert_eq!(mode(&queue_path(d.path())), 0o600);
}

#[test]
fn a_queue_of_garbage_is_one_warning_with_the_count_and_the_first_line_numbers() {
    let d = tempfile::tempdir().unwrap();
    let mut bytes = "x\n".repeat(1000);
    bytes.push_str("{\"a\":1}");
    let (good, bad) = judge(bytes.as_bytes());
    assert!(good.is_empty());
    assert_eq!(bad.count, 1001);
    let w = bad.warning(d.path()).unwrap();
    let q = queue_path(d.path());
    let r = rejected_path(d.path());
    assert_eq!(
        w,
        format!(
            "warning: 1001 line(s) of the mirror queue {} are never sent (line 1: torn: it is not JSON; line 2: torn: it is not JSON; line 3: torn: it is not JSON; line 4: torn: it is not JSON; line 5: torn: it is not JSON; and 996 more); they were moved to {}",
            q.display(),
            r.display()
        )
    );
    assert_eq!(w.lines().count(), 1);
    assert_eq!(Rejections::default().warning(d.path()), None);
}

#[test]
fn a_line_longer_than_any_record_is_rejected_without_being_held_whole() {
    let mut bytes = vec![b'x'; MAX_LINE + 10];
    bytes.push(b'\n');
    let (good, bad) = judge(&bytes);
    assert!(good.is_empty());
    assert_eq!(
        bad.first,
        vec![(
            1,
            "it is longer than 16 MiB, which no record is".to_string()
        )]
    );
}

#[test]
fn a_queue_over_the_cap_is_refused_by_a_change_but_read_by_push_and_a_link_is_never_followed() {
    let (d, _j) = home_with(&["a"]);
    let e = pending(d.path(), Some(10)).unwrap_err().to_string();
    assert!(e.contains("more than the 0 MiB a command reads after its change; its records stay queued: run `kubectl myops changelog mirror push` in the context they belong to"), "{e}");
    assert_eq!(pending(d.path(), None).unwrap().0.len(), 1);
    let elsewhere = d.path().join("elsewhere.jsonl");
    std::fs::rename(queue_path(d.path()), &elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, queue_path(d.path())).unwrap();
    let e = check(d.path()).unwrap_err().to_string();
    assert!(
        e.starts_with("cannot use the mirror queue ") && e.contains("it is a symbolic link"),
        "{e}"
    );
    assert!(pending(d.path(), None).is_err());
    assert!(settle(d.path(), &[]).is_err());
}

#[test]
fn the_journal_id_is_created_once_private_and_random() {
    let d = tempfile::tempdir().unwrap();
    let a = journal_id(d.path()).unwrap();
    assert!(is_id(&a), "{a}");
    assert_eq!(journal_id(d.path()).unwrap(), a, "stable");
    assert_eq!(mode(&id_path(d.path())), 0o600);
    let other = tempfile::tempdir().unwrap();
    assert_ne!(journal_id(other.path()).unwrap(), a);
    assert_eq!(crate::changelog::journal_id(d.path()).unwrap(), Some(a));
    assert_eq!(
        crate::changelog::journal_id(other.path().join("x").as_path()).unwrap(),
        None
    );
}

#[test]
fn a_journal_id_file_that_holds_no_id_is_never_replaced_and_refused_by_writer_and_reader() {
    let sentence = "is not a journal id; restore it from a backup or remove it to start a new journal (records mirrored under the old id are then no longer checked by verify)";
    for bad in [
        "not an id\n",
        "0123456789ABCDEF\n",
        "0123456789abcde\n",
        "0123456789abcdef0\n",
        "a,b in (c)\n",
        "",
    ] {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(id_path(d.path()), bad).unwrap();
        let w = journal_id(d.path()).unwrap_err();
        assert!(
            matches!(w, ChangelogError::JournalId { .. }),
            "{bad:?}: {w}"
        );
        assert!(w.to_string().ends_with(sentence), "{w}");
        let r = crate::changelog::journal_id(d.path()).unwrap_err();
        assert_eq!(r.to_string(), w.to_string());
        assert_eq!(
            std::fs::read_to_string(id_path(d.path())).unwrap(),
            bad,
            "kept"
        );
    }
    let d = tempfile::tempdir().unwrap();
    std::fs::write(id_path(d.path()), " 0123456789abcdef\n").unwrap();
    assert_eq!(journal_id(d.path()).unwrap(), "0123456789abcdef");
}
