//! Integration tests of `protect status|lift|end` against the real test cluster: the rules
//! that hold for a context, a lift stored 0600 and journaled (its id the entry's), replaced
//! and ended, a lifts file others may write or edited to a far-future expiry ignored with a
//! warning, the refusals (a bad duration, longer than maxLift, nothing to lift, block), a
//! lift entry that `rollback` refuses. `--reason` itself is in `protect_reason.rs`.

use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;

use serde_json::Value;

use crate::fixture::Myops;
use crate::standin::upstream;

/// A boundary for ConfigMaps and two rules for context `admin`: every namespace `confirm`
/// (maxLift 30m, a message), and `kube-system` blocked; one for context `bob`.
const PLUGIN: &str = "name: myops
verbs: [get, patch]
resources: [configmaps]
scopes: [namespace, cluster]
protect:
  - contexts: [admin]
    message: production cluster
    maxLift: 30m
  - contexts: [admin]
    namespaces: [kube-system]
    mode: block
  - contexts: [bob]
    mode: type-name
    requireReason: true
";

fn lifts_file(m: &Myops) -> PathBuf {
    m.dir.path().join("myops/protect/lifts.json")
}

fn lifts(m: &Myops) -> Vec<Value> {
    let text = std::fs::read_to_string(lifts_file(m)).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn status(m: &Myops, context: &str) -> Value {
    let r = m.run(&["protect", "status", "--context", context, "-o", "json"]);
    assert_eq!(r.code, 0, "{r:?}");
    serde_json::from_str(&r.stdout).unwrap()
}

#[test]
fn protect_status_lists_the_rules_that_hold_for_the_context_and_its_lift() {
    let m = Myops::new(PLUGIN);
    let st = status(&m, "admin");
    assert_eq!(st["context"], "admin");
    assert_eq!(st["server"], upstream().server.as_str());
    let rules = st["rules"].as_array().unwrap();
    assert_eq!(rules.len(), 2, "{st:#}");
    assert_eq!(rules[0]["index"], 0);
    assert_eq!(rules[0]["mode"], "confirm");
    assert_eq!(rules[0]["maxLift"], "30m");
    assert_eq!(rules[0]["message"], "production cluster");
    assert_eq!(rules[1]["mode"], "block");
    assert_eq!(rules[1]["namespaces"], serde_json::json!(["kube-system"]));
    assert_eq!(st["lifts"], serde_json::json!([]));
    // The namespace in effect: the block rule of kube-system holds there, not in default.
    assert_eq!(st["namespace"], "default");
    assert_eq!(rules[0]["inNamespace"], true);
    assert_eq!(rules[1]["inNamespace"], false);
    let r = m.run(&[
        "protect",
        "status",
        "--context",
        "admin",
        "-n",
        "kube-system",
        "-o",
        "json",
    ]);
    let there: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(there["namespace"], "kube-system");
    assert_eq!(there["rules"][1]["inNamespace"], true);

    let bob = status(&m, "bob");
    assert_eq!(bob["rules"].as_array().unwrap().len(), 1);
    assert_eq!(bob["rules"][0]["index"], 2);
    assert_eq!(bob["rules"][0]["requireReason"], true);

    let r = m.run(&[
        "protect",
        "lift",
        "10m",
        "--context",
        "admin",
        "--reason",
        "incident 4711",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    let st = status(&m, "admin");
    let l = &st["lifts"][0];
    assert_eq!(l["context"], "admin");
    assert_eq!(l["reason"], "incident 4711");
    assert_eq!(l["namespace"], Value::Null);
    // The table names the rules and the lift.
    let r = m.run(&["protect", "status", "--context", "admin"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.starts_with("Context:   admin\n"), "{}", r.stdout);
    assert!(
        r.stdout.contains("confirm")
            && r.stdout.contains("production cluster")
            && r.stdout.contains("30m"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains(l["id"].as_str().unwrap()) && r.stdout.contains("incident 4711"),
        "{}",
        r.stdout
    );
    // Another context has no lift, and a context no rule names has no protection.
    assert_eq!(status(&m, "bob")["lifts"], serde_json::json!([]));
    let r = m.run(&["protect", "status", "--context", "alice"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("Protection: none"), "{}", r.stdout);
}

#[test]
fn a_lift_is_stored_0600_journaled_under_its_id_replaced_and_ended() {
    let m = Myops::new(PLUGIN);
    let r = m.run(&[
        "protect",
        "lift",
        "15m",
        "--context",
        "admin",
        "--reason",
        "deploy",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    let mode = std::fs::metadata(lifts_file(&m))
        .unwrap()
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(mode, 0o600);
    let stored = lifts(&m);
    assert_eq!(stored.len(), 1);
    let id = stored[0]["id"].as_str().unwrap().to_string();
    assert!(
        r.stdout.contains(&id) && r.stdout.contains("(15m)"),
        "{r:?}"
    );
    let records = m.records();
    // Write-ahead: the intent, then the outcome, of one id.
    assert_eq!(records.len(), 2, "{records:#?}");
    assert_eq!(records[0]["result"], "pending");
    let e = &records[1];
    assert_eq!(e["id"], id.as_str());
    assert_eq!(e["result"], "success");
    assert_eq!(e["operation"], "protect-lift");
    assert_eq!(e["kind"], "ProtectionLift");
    assert_eq!(e["apiVersion"], "myops/v1");
    assert_eq!(e["name"], "admin");
    assert_eq!(e["namespace"], Value::Null);
    assert_eq!(e["reason"], "deploy");
    assert_eq!(e["user"], "admin");
    assert_eq!(e["patch"]["duration"], "15m");
    assert_eq!(e["patch"]["until"], stored[0]["until"]);
    // granted + 15 minutes.
    let granted: jiff::Timestamp = stored[0]["granted"].as_str().unwrap().parse().unwrap();
    let until: jiff::Timestamp = stored[0]["until"].as_str().unwrap().parse().unwrap();
    assert_eq!(until.duration_since(granted).as_secs(), 900);

    // Lifting the context again replaces its lift; a namespace's lift is its own.
    assert_eq!(
        m.run(&["protect", "lift", "5m", "--context", "admin"]).code,
        0
    );
    let r = m.run(&["protect", "lift", "5m", "--context", "admin", "-n", "shop"]);
    assert_eq!(r.code, 0, "{r:?}");
    let stored = lifts(&m);
    assert_eq!(stored.len(), 2, "{stored:#?}");
    assert_ne!(stored[0]["id"], id.as_str());
    assert_eq!(stored[1]["namespace"], "shop");
    assert_eq!(m.latest_records().last().unwrap()["namespace"], "shop");

    // `end -n shop` ends that one; `end` the rest; then there is nothing to end (4).
    let r = m.run(&["protect", "end", "--context", "admin", "-n", "shop"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(lifts(&m).len(), 1);
    assert_eq!(lifts(&m)[0]["namespace"], Value::Null);
    let r = m.run(&["protect", "end", "--context", "admin"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(lifts(&m), Vec::<Value>::new());
    let last = m.latest_records().last().unwrap().clone();
    assert_eq!(last["operation"], "protect-end");
    assert_eq!(last["result"], "success");
    assert_eq!(last["patch"]["ended"][0], stored[0]["id"]);
    let before = m.records().len();
    let r = m.run(&["protect", "end", "--context", "admin"]);
    assert_eq!(r.code, 4, "{r:?}");
    assert!(
        r.stderr.contains("no lift is in force for context admin"),
        "{r:?}"
    );
    assert_eq!(m.records().len(), before, "nothing journaled");
}

#[test]
fn a_lifts_file_others_may_write_or_edited_to_a_far_future_end_is_warned_about_and_ignored() {
    let m = Myops::new(PLUGIN);
    assert_eq!(
        m.run(&["protect", "lift", "10m", "--context", "admin"])
            .code,
        0
    );
    let file = lifts_file(&m);
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o666)).unwrap();
    let r = m.run(&["protect", "status", "--context", "admin", "-o", "json"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stderr.contains("can be written by others (mode 666)"),
        "{r:?}"
    );
    let st: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(st["lifts"], serde_json::json!([]));
    assert_eq!(st["warnings"].as_array().unwrap().len(), 1);

    // Edited to end in a day: longer than today's maxLift of 30m allows.
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
    let mut stored = lifts(&m);
    let far = jiff::Timestamp::now() + jiff::SignedDuration::from_hours(24);
    stored[0]["until"] = Value::String(far.to_string());
    std::fs::write(&file, serde_json::to_vec(&stored).unwrap()).unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
    let r = m.run(&["protect", "status", "--context", "admin", "-o", "json"]);
    assert_eq!(r.code, 0, "{r:?}");
    let st: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(st["lifts"], serde_json::json!([]));
    assert!(
        st["ignored"][0]["warning"]
            .as_str()
            .unwrap()
            .contains("later than its rules' maxLift of 30m"),
        "{st:#}"
    );
    assert!(
        r.stderr
            .contains("warning: the lift of context admin ends at"),
        "{r:?}"
    );
}

#[test]
fn a_negative_huge_zero_or_unparsable_duration_is_exit_2_and_nothing_is_lifted() {
    let m = Myops::new(PLUGIN);
    for d in ["-5m", "99999h", "721h", "0s", "1.5h", "abc", "15", ""] {
        let r = m.run(&["protect", "lift", "--context", "admin", "--", d]);
        assert_eq!(r.code, 2, "{d:?}: {r:?}");
        assert!(r.stderr.contains("invalid duration"), "{d:?}: {r:?}");
    }
    assert!(!lifts_file(&m).exists());
    assert!(m.records().is_empty());
}

#[test]
fn a_lift_longer_than_max_lift_nothing_to_lift_and_block_are_refused() {
    let m = Myops::new(PLUGIN);
    let r = m.run(&["protect", "lift", "31m", "--context", "admin"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr.contains(
            "a lift of 31m is longer than the 30m the protect: rules of context admin allow"
        ),
        "{r:?}"
    );
    // 30m is exactly the limit.
    assert_eq!(
        m.run(&["protect", "lift", "30m", "--context", "admin"])
            .code,
        0
    );
    // bob's rule sets no maxLift: the default hour.
    let r = m.run(&["protect", "lift", "61m", "--context", "bob"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("longer than the 1h"), "{r:?}");
    // bob's rule requires a reason: so does a lift of it.
    let r = m.run(&["protect", "lift", "5m", "--context", "bob"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr
            .contains("protect[2] of context bob requires a reason, so a lift there needs one too"),
        "{r:?}"
    );
    let r = m.run(&[
        "protect",
        "lift",
        "5m",
        "--context",
        "bob",
        "--reason",
        "migration",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    // No rule holds for alice: nothing to lift.
    let r = m.run(&["protect", "lift", "5m", "--context", "alice"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr
            .contains("no plugin.yaml protect: rule holds for context alice"),
        "{r:?}"
    );
    // kube-system is blocked in admin: block wins there, and a lift cannot lift block.
    let r = m.run(&[
        "protect",
        "lift",
        "5m",
        "--context",
        "admin",
        "-n",
        "kube-system",
    ]);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(r.stderr.contains("a lift cannot lift block"), "{r:?}");
    assert!(r.stderr.contains("(protect[1])"), "{r:?}");
    let only_block = Myops::new(
        "name: myops\nverbs: [get]\nresources: [configmaps]\nscopes: [namespace]\nprotect:\n  - contexts: [admin]\n    mode: block\n",
    );
    let r = only_block.run(&["protect", "lift", "5m", "--context", "admin"]);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(r.stderr.contains("a lift cannot lift block"), "{r:?}");
    assert!(only_block.records().is_empty());
    // Two lifts granted and journaled in all of this: admin's 30m and bob's with its reason.
    let lifted: Vec<(Value, Value)> = m
        .latest_records()
        .iter()
        .map(|e| (e["operation"].clone(), e["name"].clone()))
        .collect();
    assert_eq!(
        lifted,
        [
            (Value::from("protect-lift"), Value::from("admin")),
            (Value::from("protect-lift"), Value::from("bob"))
        ]
    );
}

#[test]
fn rollback_of_a_lift_or_its_end_is_refused_naming_protect_end() {
    let m = Myops::new(PLUGIN);
    assert_eq!(
        m.run(&["protect", "lift", "5m", "--context", "admin"]).code,
        0
    );
    assert_eq!(m.run(&["protect", "end", "--context", "admin"]).code, 0);
    let ids: Vec<String> = m
        .latest_records()
        .iter()
        .map(|e| e["id"].as_str().unwrap().to_string())
        .collect();
    let r = m.run(&["rollback", &ids[0], "--context", "admin"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert_eq!(
        r.stderr,
        format!(
            "error: entry {} cannot be rolled back: a lift is not a change to the cluster; end it with `kubectl myops protect end`\n",
            ids[0]
        )
    );
    let r = m.run(&["rollback", &ids[1], "--context", "admin"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr
            .contains("the end of a lift is not a change to the cluster"),
        "{r:?}"
    );
    // `changelog diff` says what a lift changed: no object.
    let r = m.run(&["changelog", "diff", &ids[0]]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout.contains("it changed no object of the cluster (a lift of protection or its end): {\"duration\":\"5m\""),
        "{r:?}"
    );
    // The lift entries list as what they are.
    let r = m.run(&["changelog", "list"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout.contains("protect-lift   protectionlift/admin"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("protect-end    protectionlift/admin"),
        "{}",
        r.stdout
    );
}

#[test]
fn a_lifts_file_that_cannot_be_written_is_exit_1_with_the_failure_journaled_and_nothing_lifted() {
    let m = Myops::new(PLUGIN);
    // A directory where the file belongs: it is not read (a warning) and cannot be replaced.
    std::fs::create_dir_all(lifts_file(&m)).unwrap();
    let r = m.run(&["protect", "lift", "5m", "--context", "admin"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("no lift is in force"), "{r:?}");
    assert!(r.stderr.contains("nothing was lifted or ended"), "{r:?}");
    let records = m.records();
    assert_eq!(records.len(), 2, "{records:#?}");
    assert_eq!(records[0]["result"], "pending");
    assert_eq!(records[1]["id"], records[0]["id"]);
    assert!(
        records[1]["result"]
            .as_str()
            .unwrap()
            .starts_with("error: "),
        "{records:#?}"
    );
    assert!(lifts_file(&m).is_dir());
    assert_eq!(status(&m, "admin")["lifts"], serde_json::json!([]));
}
