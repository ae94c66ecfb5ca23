use serde_json::{Value, json};

use super::*;
use crate::changelog::chain::{GENESIS, seal};
use crate::changelog::sample_entry;

/// A sealed line of `entry` chained to GENESIS.
fn sealed(entry: &Entry) -> (String, String) {
    let (line, hash) = seal(serde_json::to_value(entry).unwrap(), GENESIS).unwrap();
    (String::from_utf8(line).unwrap(), hash)
}

#[test]
fn a_small_record_is_one_object_that_reads_back_unchanged() {
    let mut e = sample_entry("web");
    e.result = "success".into();
    let (line, hash) = sealed(&e);
    let objs = objects(&line, "j1", "audit").unwrap();
    assert_eq!(objs.len(), 1);
    let head = &objs[0];
    assert_eq!(head["metadata"]["name"], json!(object_name(&e.id, &hash)));
    assert_eq!(head["metadata"]["namespace"], json!("audit"));
    assert_eq!(head["metadata"]["labels"][LABEL_ENTRY], json!(e.id));
    assert_eq!(head["spec"]["createdBy"], json!("admin"));
    assert_eq!(head["spec"]["chain"]["hash"], json!(hash));
    assert_eq!(head["spec"]["chain"]["prev"], json!(GENESIS));
    let back = read_back(head, &[]).unwrap();
    assert_eq!(back.line, line);
    assert_eq!(back.entry.id, e.id);
    assert_eq!(back.created_by, "admin");
    assert!(back.problems.is_empty(), "{:?}", back.problems);
}

#[test]
fn a_record_over_the_chunk_size_is_split_into_parts_created_first() {
    let mut e = sample_entry("big");
    // Multi-byte characters so a cut must land on a char boundary.
    e.before = Some(json!({"data": "é".repeat(CHUNK_BYTES)}));
    let (line, _) = sealed(&e);
    let objs = objects(&line, "j1", "audit").unwrap();
    assert_eq!(
        objs.len(),
        4,
        "2 MiB of é plus the record is 3 parts and a head"
    );
    let head = objs.last().unwrap();
    assert_eq!(head["spec"]["parts"], json!(3));
    assert!(head["spec"].get("record").is_none());
    for (i, p) in objs[..3].iter().enumerate() {
        assert!(is_part(p));
        assert_eq!(p["spec"]["part"], json!(i + 1));
        assert!(p["spec"]["chunk"].as_str().unwrap().len() <= CHUNK_BYTES);
        assert_eq!(
            p["metadata"]["labels"][LABEL_PART_OF],
            head["metadata"]["name"]
        );
    }
    let mut parts = objs[..3].to_vec();
    parts.reverse();
    let back = read_back(head, &parts).unwrap();
    assert_eq!(back.line, line);
    assert!(back.problems.is_empty(), "{:?}", back.problems);
    let missing = read_back(head, &objs[..2]).unwrap_err();
    assert!(matches!(
        missing,
        MirrorFormatError::MissingPart {
            missing: 3,
            of: 3,
            ..
        }
    ));
}

#[test]
fn a_record_edited_by_an_admin_is_named() {
    let (line, _) = sealed(&sample_entry("web"));
    let mut head = objects(&line, "j1", "audit").unwrap().pop().unwrap();
    let edited = line.replace("\"name\":\"web\"", "\"name\":\"api\"");
    assert_ne!(edited, line);
    head["spec"]["record"] = Value::String(edited);
    let back = read_back(&head, &[]).unwrap();
    assert!(
        back.problems.iter().any(|p| p.contains("edited")),
        "{:?}",
        back.problems
    );
    assert!(
        back.problems.iter().any(|p| p.contains("spec.entry")),
        "{:?}",
        back.problems
    );
}

#[test]
fn a_record_claiming_another_user_is_named() {
    let (line, _) = sealed(&sample_entry("web"));
    let mut head = objects(&line, "j1", "audit").unwrap().pop().unwrap();
    head["spec"]["createdBy"] = json!("bob");
    let back = read_back(&head, &[]).unwrap();
    assert_eq!(
        back.problems,
        vec!["the record claims user admin but was created by bob".to_string()]
    );
}

#[test]
fn a_line_without_a_hash_is_not_mirrored() {
    let line = serde_json::to_string(&sample_entry("web")).unwrap();
    assert!(matches!(
        objects(&line, "j1", "audit"),
        Err(MirrorFormatError::Line { .. })
    ));
    assert!(matches!(
        objects("{\"id\":", "j1", "audit"),
        Err(MirrorFormatError::Line { .. })
    ));
}

#[test]
fn object_names_are_dns_subdomains_even_for_edited_ids() {
    assert_eq!(
        object_name("18c2-1a-0", "abcdef0123456789"),
        "18c2-1a-0-abcdef012345"
    );
    assert_eq!(object_name("A b/../c", "ff"), "abc-ff");
    assert_eq!(object_name("//", "ff"), "record-ff");
    assert_eq!(label_value("-x:y-"), "xy");
}

#[test]
fn an_object_under_our_name_with_another_writer_or_content_is_not_our_copy() {
    let line = sealed(&sample_entry("web")).0;
    let ours = objects(&line, "j1", "audit").unwrap().pop().unwrap();
    assert!(same_copy(&ours, &ours.clone()));
    let mut squat = ours.clone();
    squat["spec"]["createdBy"] = json!("bob");
    assert!(!same_copy(&ours, &squat));
    let mut other = ours.clone();
    other["spec"]["record"] = json!("{}");
    assert!(!same_copy(&ours, &other));
    let mut relabelled = ours.clone();
    relabelled["metadata"]["labels"] = json!({});
    assert!(
        same_copy(&ours, &relabelled),
        "labels are not the copy's content"
    );
    let part = json!({"spec": {"partOf": "h", "part": 1, "chunk": "ab", "createdBy": "alice"}});
    let mut forged = part.clone();
    forged["spec"]["chunk"] = json!("zz");
    assert!(same_copy(&part, &part.clone()));
    assert!(!same_copy(&part, &forged));
}
