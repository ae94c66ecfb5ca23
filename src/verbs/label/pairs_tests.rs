use super::*;

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn arguments_split_into_objects_then_pairs_as_kubectl() {
    let (r, p) = split(&strings(&["cm", "a", "k=v", "x-"]), Meta::Labels).unwrap();
    assert_eq!(r, strings(&["cm", "a"]));
    assert_eq!(p, strings(&["k=v", "x-"]));
    assert_eq!(
        split(&strings(&["cm", "k=v", "a"]), Meta::Labels).unwrap_err(),
        "all resources must be specified before label changes: a"
    );
    let (r, _) = split(&strings(&["cm/a", "-"]), Meta::Annotations).unwrap();
    assert_eq!(r, strings(&["cm/a", "-"]));
}

#[test]
fn label_pairs_follow_parse_labels() {
    let p = parse(Meta::Labels, &strings(&["a=1", "b-", "c="])).unwrap();
    assert_eq!(p.set.get("a").map(String::as_str), Some("1"));
    assert_eq!(p.set.get("c").map(String::as_str), Some(""));
    assert_eq!(p.remove, strings(&["b"]));
    assert_eq!(
        parse(Meta::Labels, &strings(&["a=b=c"])).unwrap_err(),
        "invalid label spec: a=b=c"
    );
    let e = parse(Meta::Labels, &strings(&["a=x\ny"])).unwrap_err();
    assert!(
        e.starts_with("invalid label value: \"a=x\\ny\": a valid label must be an empty string"),
        "{e}"
    );
    let e = parse(Meta::Labels, &[format!("a={}", "v".repeat(64))]).unwrap_err();
    assert!(e.contains(": must be no more than 63 bytes"), "{e}");
    assert_eq!(
        parse(Meta::Labels, &strings(&["a=1", "a-"])).unwrap_err(),
        "can not both modify and remove a label in the same command"
    );
}

#[test]
fn annotation_pairs_follow_parse_pairs() {
    let p = parse(Meta::Annotations, &strings(&["a=x=y", "note=line1\nline2"])).unwrap();
    assert_eq!(p.set.get("a").map(String::as_str), Some("x=y"));
    assert_eq!(p.set.get("note").map(String::as_str), Some("line1\nline2"));
    assert_eq!(
        parse(Meta::Annotations, &strings(&["a=1", "a-"])).unwrap_err(),
        "can not both modify and remove the following annotation(s) in the same command: a"
    );
}

#[test]
fn keys_the_server_refuses_are_refused_in_its_words() {
    let p = parse(Meta::Labels, &strings(&["bad_key!=v"])).unwrap();
    let e = check_keys(Meta::Labels, "ConfigMap", "c1", &p, &p.set).unwrap_err();
    assert!(
        e.starts_with("The ConfigMap \"c1\" is invalid: metadata.labels: Invalid value: \"bad_key!\": name part must consist of"),
        "{e}"
    );
    let p = parse(Meta::Annotations, &strings(&["big=x"])).unwrap();
    let mut after = p.set.clone();
    after.insert("huge".into(), "x".repeat(metadata::MAX_ANNOTATION_BYTES));
    let e = check_keys(Meta::Annotations, "ConfigMap", "c1", &p, &after).unwrap_err();
    assert!(
        e.ends_with("metadata.annotations: Too long: may not be more than 262144 bytes"),
        "{e}"
    );
    let p = parse(Meta::Labels, &strings(&["a/b/c=1", "/x=1"])).unwrap();
    let e = check_keys(Meta::Labels, "ConfigMap", "c1", &p, &p.set).unwrap_err();
    assert!(e.starts_with("The ConfigMap \"c1\" is invalid: \n* metadata.labels: Invalid value: \"/x\": prefix part must be non-empty\n* metadata.labels: Invalid value: \"a/b/c\": a valid label key"), "{e}");
}

#[test]
fn a_plan_sends_only_real_changes_and_refuses_overwrites() {
    let before = serde_json::json!({"metadata": {"labels": {"a": "1", "b": "2"}}});
    let p = parse(Meta::Labels, &strings(&["a=9"])).unwrap();
    assert_eq!(
        plan(Meta::Labels, &before, &p, false, None).unwrap_err(),
        "'a' already has a value (1), and --overwrite is false"
    );
    let p = parse(Meta::Labels, &strings(&["a=9", "b=8"])).unwrap();
    assert_eq!(
        plan(Meta::Labels, &before, &p, false, None).unwrap_err(),
        "['a' already has a value (1), and --overwrite is false, 'b' already has a value (2), and --overwrite is false]"
    );
    let e = plan(
        Meta::Annotations,
        &serde_json::json!({"metadata": {"annotations": {"a": "1"}}}),
        &parse(Meta::Annotations, &strings(&["a=2"])).unwrap(),
        false,
        None,
    )
    .unwrap_err();
    assert_eq!(
        e,
        "--overwrite is false but found the following declared annotation(s): 'a' already has a value (1)"
    );
    let p = parse(Meta::Labels, &strings(&["a=1", "c=3", "b-", "z-"])).unwrap();
    let planned = plan(Meta::Labels, &before, &p, false, Some("42")).unwrap();
    assert_eq!(
        planned.body.unwrap(),
        serde_json::json!({"metadata": {"labels": {"c": "3", "b": null}, "resourceVersion": "42"}})
    );
    assert_eq!(planned.message, "modified");
    assert_eq!(planned.missing, strings(&["z"]));
    let same = plan(
        Meta::Labels,
        &before,
        &parse(Meta::Labels, &strings(&["a=1"])).unwrap(),
        false,
        None,
    )
    .unwrap();
    assert_eq!(same.body, None);
    assert_eq!(same.message, "not labeled");
    assert_eq!(
        listing(Meta::Labels, &same.after, Some(("ConfigMap", "", "c1"))),
        "Listing labels for ConfigMap./c1:\n a=1\n b=2\n"
    );
}
