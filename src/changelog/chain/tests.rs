//! The chain's tests: sealing, the tip, and every kind of break.

use serde_json::{Map, Value, json};

use super::*;
use crate::changelog::canonical::{canonical, sha256_hex};

/// A valid record (every field an entry must have) with this id and user.
fn record(id: &str, user: &str) -> Value {
    json!({"id": id, "session": "s", "timestamp": "2026-12-02T08:00:00Z", "plugin": "myops",
        "user": user, "context": "admin", "server": "https://h", "apiVersion": "v1",
        "kind": "ConfigMap", "namespace": "ns", "name": "c", "uid": null, "operation": "patch",
        "patchType": "merge", "patch": {"data": {"a": "1"}}, "dryRun": false, "before": null,
        "resourceVersionAfter": "7", "result": "success", "durationSeconds": 0.0})
}

/// A sealed log of `n` records (ids r1 …) and its head.
fn log(n: usize) -> (Vec<Vec<u8>>, Head) {
    let mut prev = GENESIS.to_string();
    let mut lines = Vec::new();
    for i in 1..=n {
        let (line, hash) = seal(record(&format!("r{i}"), "admin"), &prev).unwrap();
        lines.push(line);
        prev = hash;
    }
    let head = Head {
        head: prev,
        base: GENESIS.into(),
    };
    (lines, head)
}

fn file(lines: &[Vec<u8>]) -> Vec<(String, Vec<u8>)> {
    let mut bytes = Vec::new();
    for l in lines {
        bytes.extend_from_slice(l);
        bytes.push(b'\n');
    }
    vec![("changelog.jsonl".into(), bytes)]
}

fn first_break(files: &[(String, Vec<u8>)], head: Option<Head>) -> (Break, usize) {
    let b = verify(files, Ok(head)).unwrap_err();
    (b.first, b.more)
}

#[test]
fn a_sealed_line_ends_with_its_hash_over_the_canonical_form_without_it() {
    let (line, hash) = seal(record("r1", "admin"), GENESIS).unwrap();
    let text = String::from_utf8(line).unwrap();
    assert!(text.starts_with("{\"id\":\"r1\","), "{text}");
    assert!(
        text.ends_with(&format!("\"prev\":\"{GENESIS}\",\"hash\":\"{hash}\"}}")),
        "{text}"
    );
    let mut v: Map<String, Value> = serde_json::from_str(&text).unwrap();
    v.remove("hash");
    assert_eq!(
        sha256_hex(canonical(&Value::Object(v)).as_bytes()),
        hash,
        "hash = SHA-256(JCS(record without hash))"
    );
}

#[test]
fn an_intact_chain_verifies_and_names_its_last_hash() {
    let (lines, head) = log(3);
    let s = verify(&file(&lines), Ok(Some(head.clone()))).unwrap();
    assert_eq!((s.records, s.unchained, s.last), (3, 0, head.head));
    assert_eq!(s.files, ["changelog.jsonl"]);
    assert!(!s.head_lags);
}

#[test]
fn an_edited_field_is_named_by_line_and_id() {
    let (mut lines, head) = log(3);
    lines[1] = String::from_utf8(lines[1].clone())
        .unwrap()
        .replace("\"user\":\"admin\"", "\"user\":\"mallory\"")
        .into_bytes();
    let (b, more) = first_break(&file(&lines), Some(head));
    assert_eq!(b.problem, Problem::Edited);
    assert_eq!(
        b.place.unwrap().to_string(),
        "changelog.jsonl line 2 (id r2)"
    );
    assert_eq!(more, 0, "the next record still chains to the stored hash");
}

#[test]
fn a_deleted_line_a_swap_and_a_removed_first_record_break_prev() {
    let (lines, head) = log(4);
    let deleted = [lines[0].clone(), lines[2].clone(), lines[3].clone()];
    let (b, _) = first_break(&file(&deleted), Some(head.clone()));
    assert_eq!(b.place.as_ref().unwrap().line, 2);
    assert_eq!(b.place.as_ref().unwrap().id.as_deref(), Some("r3"));
    assert!(
        b.to_string()
            .contains("does not chain to the record before it, changelog.jsonl line 1 (id r1)"),
        "{b}"
    );
    let swapped = [
        lines[0].clone(),
        lines[2].clone(),
        lines[1].clone(),
        lines[3].clone(),
    ];
    let (b, more) = first_break(&file(&swapped), Some(head.clone()));
    assert_eq!(b.place.unwrap().id.as_deref(), Some("r3"));
    assert_eq!(more, 2);
    let (b, _) = first_break(&file(&lines[1..]), Some(head));
    assert!(
        b.to_string().contains("starts the chain but its prev is"),
        "{b}"
    );
}

#[test]
fn removing_the_last_records_is_caught_by_the_head_and_a_lagging_head_is_not_a_break() {
    let (lines, head) = log(4);
    let (b, _) = first_break(&file(&lines[..2]), Some(head.clone()));
    assert!(matches!(b.problem, Problem::Truncated { .. }), "{b}");
    assert_eq!(b.place.unwrap().id.as_deref(), Some("r2"));
    let (b, _) = first_break(&[], Some(head.clone()));
    assert!(matches!(b.problem, Problem::Truncated { .. }), "{b}");
    let (b, _) = first_break(&file(&lines), None);
    assert_eq!(b.problem, Problem::NoHead);
    // A crash between an append and the head update: the head names an earlier record.
    let (_, old_head) = log(3);
    let s = verify(&file(&lines), Ok(Some(old_head))).unwrap();
    assert!(s.head_lags);
}

#[test]
fn bad_lines_are_breaks_and_a_torn_record_is_named_by_its_id() {
    let (lines, head) = log(2);
    let mut files = file(&lines);
    let torn = &lines[1][..40];
    let keep = files[0].1.len() - lines[1].len() - 1;
    files[0].1.truncate(keep);
    files[0].1.extend_from_slice(torn);
    let (b, more) = first_break(&files, Some(head));
    assert_eq!(b.place.unwrap().id.as_deref(), Some("r2"));
    assert!(matches!(&b.problem, Problem::Invalid(why) if why.starts_with("torn:")));
    assert_eq!(more, 1, "the head then names a record that is not there");
}

#[test]
fn records_before_the_chain_are_counted_and_an_unhashed_one_after_it_is_a_break() {
    let legacy = serde_json::to_vec(&record("old", "admin")).unwrap();
    let (lines, head) = log(2);
    // The chain starts with the digest of what came before it.
    let mut text = legacy.clone();
    text.push(b'\n');
    let (first, h1) = seal(record("r1", "admin"), &legacy_digest(&text)).unwrap();
    let (second, h2) = seal(record("r2", "admin"), &h1).unwrap();
    let chained_head = Head {
        head: h2,
        base: GENESIS.into(),
    };
    let with_legacy = [legacy.clone(), first.clone(), second.clone()];
    let s = verify(&file(&with_legacy), Ok(Some(chained_head.clone()))).unwrap();
    assert_eq!((s.records, s.unchained), (3, 1));
    // A forged record put before the chain does not pass as one written before records
    // were chained, and a chain started from GENESIS behind one does not verify.
    let forged = serde_json::to_vec(&record("forged", "mallory")).unwrap();
    let prepended = [forged.clone(), legacy.clone(), first, second];
    let (b, _) = first_break(&file(&prepended), Some(chained_head));
    assert_eq!(b.place.unwrap().line, 3);
    let behind = [forged, lines[0].clone(), lines[1].clone()];
    let (b, _) = first_break(&file(&behind), Some(head.clone()));
    assert_eq!(b.place.unwrap().line, 2);
    let inserted = [lines[0].clone(), legacy, lines[1].clone()];
    let (b, _) = first_break(&file(&inserted), Some(head));
    assert_eq!(b.problem, Problem::Unhashed);
    assert_eq!(b.place.unwrap().line, 2);
}

#[test]
fn the_chain_runs_across_files_from_the_recorded_base() {
    let (lines, head) = log(5);
    let files = vec![
        (
            "changelog.jsonl.1".to_string(),
            file(&lines[2..4])[0].1.clone(),
        ),
        (
            "changelog.jsonl".to_string(),
            file(&lines[4..])[0].1.clone(),
        ),
    ];
    let Tip::Hashed(base) = tip_in(&file(&lines[..2])[0].1, true) else {
        panic!("two sealed records have a hashed tip")
    };
    let head = Head { base, ..head };
    let s = verify(&files, Ok(Some(head.clone()))).unwrap();
    assert_eq!(s.files, ["changelog.jsonl.1", "changelog.jsonl"]);
    // Without the base the oldest kept record looks like a removal at the start.
    let (b, _) = first_break(
        &files,
        Some(Head {
            base: GENESIS.into(),
            ..head.clone()
        }),
    );
    assert_eq!(b.place.unwrap().file, "changelog.jsonl.1");
    // A file left by an interrupted rotation (it ends at the base) is passed over.
    let mut with_leftover = vec![(
        "changelog.jsonl.2".to_string(),
        file(&lines[..2])[0].1.clone(),
    )];
    with_leftover.extend(files);
    let s = verify(&with_leftover, Ok(Some(head))).unwrap();
    assert_eq!(s.leftover.as_deref(), Some("changelog.jsonl.2"));
}

#[test]
fn the_tip_is_read_from_the_end_past_bad_lines_and_a_partial_first_line() {
    let (lines, head) = log(2);
    let mut bytes = file(&lines)[0].1.clone();
    bytes.extend_from_slice(b"{\"id\":\"torn");
    assert_eq!(tip_in(&bytes, true), Tip::Hashed(head.head.clone()));
    assert_eq!(tip_in(&bytes[5..], false), Tip::Hashed(head.head));
    assert_eq!(
        tip_in(&lines[0][5..], false),
        Tip::None,
        "no complete line yet"
    );
    let legacy = serde_json::to_vec(&record("old", "admin")).unwrap();
    assert_eq!(tip_in(&legacy, true), Tip::Legacy);
}

/// Writes `files` (name, lines) into a fresh MYOPS_HOME with `head`.
fn home_with(files: &[(&str, Vec<Vec<u8>>)], head: Option<&Head>) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    for (name, lines) in files {
        let mut bytes = Vec::new();
        for l in lines {
            bytes.extend_from_slice(l);
            bytes.push(b'\n');
        }
        std::fs::write(d.path().join(name), bytes).unwrap();
    }
    if let Some(h) = head {
        write_head(d.path(), h).unwrap();
    }
    d
}

#[test]
fn the_streamed_verify_answers_what_the_whole_log_verify_answers() {
    let (lines, head) = log(9);
    let legacy = |id: &str| serde_json::to_vec(&record(id, "admin")).unwrap();
    // The chain after two records without hashes, in a file of their own and in the same one.
    let mut prev = legacy_digest(&[legacy("o1"), b"\n".to_vec(), legacy("o2")].concat());
    let mut after_legacy = Vec::new();
    for i in 0..3 {
        let (line, hash) = seal(record(&format!("n{i}"), "admin"), &prev).unwrap();
        after_legacy.push(line);
        prev = hash;
    }
    let legacy_head = Head {
        head: prev,
        base: GENESIS.into(),
    };
    let mut edited = lines.clone();
    edited[4] = String::from_utf8(edited[4].clone())
        .unwrap()
        .replace("admin", "mallory")
        .into_bytes();
    let rotated_head = Head {
        head: head.head.clone(),
        base: String::from_utf8(lines[2].clone()).unwrap()[..0].to_string(),
    };
    let tip3 = match tip_in(&file(&lines[..3])[0].1, true) {
        Tip::Hashed(h) => h,
        t => panic!("{t:?}"),
    };
    type Case<'a> = (Vec<(&'a str, Vec<Vec<u8>>)>, Option<Head>);
    let cases: Vec<Case<'_>> = vec![
        (
            vec![
                ("changelog.jsonl.2", lines[..3].to_vec()),
                ("changelog.jsonl.1", lines[3..6].to_vec()),
                ("changelog.jsonl", lines[6..].to_vec()),
            ],
            Some(head.clone()),
        ),
        // A rotation stopped before deleting its oldest file: that file is passed over.
        (
            vec![
                ("changelog.jsonl.2", lines[..3].to_vec()),
                ("changelog.jsonl.1", lines[3..6].to_vec()),
                ("changelog.jsonl", lines[6..].to_vec()),
            ],
            Some(Head {
                head: head.head.clone(),
                base: tip3,
            }),
        ),
        (
            vec![
                ("changelog.jsonl.1", vec![legacy("o1"), legacy("o2")]),
                ("changelog.jsonl", after_legacy.clone()),
            ],
            Some(legacy_head.clone()),
        ),
        (
            vec![(
                "changelog.jsonl",
                [vec![legacy("o1"), legacy("o2")], after_legacy.clone()].concat(),
            )],
            Some(legacy_head),
        ),
        (
            vec![
                ("changelog.jsonl.1", edited[..5].to_vec()),
                ("changelog.jsonl", edited[5..].to_vec()),
            ],
            Some(head.clone()),
        ),
        (
            vec![(
                "changelog.jsonl",
                [&lines[..2], &[b"torn {\"id\":\"x".to_vec()], &lines[3..7]].concat(),
            )],
            Some(head.clone()),
        ),
        (
            vec![("changelog.jsonl", lines[..5].to_vec())],
            Some(head.clone()),
        ),
        (vec![("changelog.jsonl", lines.clone())], None),
        (vec![("changelog.jsonl", lines.clone())], Some(rotated_head)),
        (vec![], None),
    ];
    for (i, (files, head)) in cases.iter().enumerate() {
        let d = home_with(files, head.as_ref());
        let (bytes, read) = crate::changelog::read_files(d.path()).unwrap();
        let whole = verify(&bytes, read);
        assert_eq!(
            crate::changelog::verify_log(d.path()).unwrap(),
            whole,
            "case {i}"
        );
        assert_eq!(
            whole.is_ok(),
            [0, 1, 2, 3, 9].contains(&i),
            "case {i}: {whole:?}"
        );
    }
}
