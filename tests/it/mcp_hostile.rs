//! Hostile calls against `kubectl myops mcp`, from the real MCP client: unknown tools,
//! arguments of the wrong types, flags smuggled in as names, a context the server was not
//! started with, 10 MB arguments, a flood of calls (bounded concurrency) and a client that
//! disconnects in the middle of a change (the journal stays whole).

use std::time::{Duration, Instant};

use serde_json::json;

use crate::fixture::{Namespace, kubectl, text_of};
use crate::mcp::{
    between_preview_and_confirm, client, data_of, drive, error, myops, protecting, with_c1,
};

#[test]
fn mcp_unknown_tools_wrong_types_and_smuggled_flags_are_refused_and_nothing_runs() {
    let ns = with_c1("mcp-hostile");
    let m = myops("");
    let r = drive(
        &m,
        &[],
        json!({"steps": [
            {"call": "kubectl_exec", "args": {}},
            {"call": "get", "args": {"type": 5}},
            {"call": "patch", "args": {"type": "configmaps", "name": "c1", "namespace": ns.0, "patch": {"data": {"a": "2"}}, "confirm": 42}},
            {"call": "get", "args": {"type": "configmaps", "name": "--all-namespaces", "namespace": ns.0}},
            {"call": "get", "args": {"type": "configmaps", "name": "c1", "namespace": ns.0, "context": "admin-2"}},
            {"call": "get", "args": {"type": "configmaps", "name": "c1\u{0000}", "namespace": ns.0}},
            {"call": "patch", "args": {"type": "configmaps", "name": "c1", "namespace": ns.0, "patch": {"data": {"a": "2"}}, "confirm": "0123456789abcdef0123456789abcdef"}},
            {"call": "label", "args": {"type": "configmaps", "name": "c1", "namespace": ns.0}},
        ]}),
    );
    // An unknown tool and wrong types: the protocol's own errors, one sentence each.
    assert_eq!(r[0]["message"], "tool not found", "{:#}", r[0]);
    assert_eq!(r[1]["isError"], true, "{:#}", r[1]);
    assert!(
        r[1]["text"].as_str().unwrap().contains("invalid type"),
        "{:#}",
        r[1]
    );
    assert_eq!(r[2]["isError"], true, "{:#}", r[2]);
    // A name that looks like a flag is a name: not found, not a listing of every namespace.
    assert_eq!(error(&r[3])["kind"], "not-found", "{:#}", r[3]);
    // The agent cannot switch clusters.
    let e = error(&r[4]);
    assert_eq!(
        (e["kind"].as_str(), e["exitCode"].as_i64()),
        (Some("denied"), Some(3))
    );
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("cannot switch clusters"),
        "{e:#}"
    );
    assert_eq!(error(&r[5])["kind"], "invalid");
    // A token never issued confirms nothing.
    let e = error(&r[6]);
    assert!(e["message"].as_str().unwrap().contains("unknown"), "{e:#}");
    assert_eq!(error(&r[7])["kind"], "invalid");
    assert_eq!(data_of(&ns.0, "c1"), json!({"a": "1"}));
    assert!(
        m.records().is_empty(),
        "nothing was attempted: {:#?}",
        m.records()
    );
    // Flags a tool call would never honour are refused at start, not dropped.
    let run = m.run(&["mcp", "--yes", "--reason", "x"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr.contains("mcp does not take --yes, --reason"),
        "{run:?}"
    );
}

#[test]
fn mcp_ten_megabyte_arguments_are_refused_before_anything_is_sent() {
    let ns = with_c1("mcp-huge");
    let m = myops("");
    let r = drive(
        &m,
        &[],
        json!({"steps": [
            {"call": "apply", "args": {"namespace": ns.0}, "pad": ["manifest", 10_000_000]},
            {"call": "get", "args": {"namespace": ns.0}, "pad": ["type", 10_000_000]},
            {"call": "get", "args": {"type": "configmaps", "name": "c1", "namespace": ns.0}},
        ]}),
    );
    let e = error(&r[0]);
    assert_eq!(e["kind"], "invalid", "{e:#}");
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("more than the API server accepts"),
        "{e:#}"
    );
    let e = error(&r[1]);
    assert!(
        e["message"].as_str().unwrap().contains("longer than 4096"),
        "{e:#}"
    );
    assert!(
        e["message"].as_str().unwrap().len() < 300,
        "no echo of the value: {e:#}"
    );
    // The server is still there.
    assert_eq!(r[2]["isError"], false, "{:#}", r[2]);
    assert!(m.records().is_empty());
}

#[test]
fn mcp_a_flood_of_calls_runs_at_most_max_concurrent_at_once_and_every_call_answers() {
    let ns = with_c1("mcp-flood");
    let m = myops("");
    let get = json!({"type": "configmaps", "name": "c1", "namespace": ns.0});
    let started = Instant::now();
    let r = drive(
        &m,
        &["--max-concurrent", "2"],
        json!({"steps": [
            {"flood": "get", "args": get, "n": 40},
            {"call": "get", "args": get},
        ]}),
    );
    assert_eq!(r[0]["counts"], json!({"ok": 40}), "{:#}", r[0]);
    assert_eq!(r[1]["isError"], false);
    assert!(started.elapsed() < Duration::from_secs(120));
}

#[test]
fn mcp_a_client_that_disconnects_mid_delete_leaves_a_whole_journal() {
    let ns = with_c1("mcp-gone");
    let m = myops("");
    let marker = m.dir.path().join("held-before-delete");
    let args = json!({"type": "configmaps", "name": "c1", "namespace": ns.0});
    let mut c = client(
        &m,
        &[],
        &json!({"steps": [
            {"call": "delete", "args": args},
            {"call": "delete", "args": args, "confirm_from": 0, "abandon_after": 1.0},
        ]}),
    );
    c.env("MYOPS_TEST_PAUSE", "before-delete")
        .env("MYOPS_TEST_PAUSE_MARKER", &marker);
    let child = c.spawn().unwrap();
    let wait_marker = || {
        let end = Instant::now() + Duration::from_secs(60);
        while !marker.exists() {
            assert!(Instant::now() < end, "the delete never reached its hold");
            std::thread::sleep(Duration::from_millis(20));
        }
    };
    // The preview's dry-run delete holds too: let it go.
    wait_marker();
    std::fs::remove_file(&marker).unwrap();
    // The confirmed delete holds between its read and its DELETE; the client goes away.
    wait_marker();
    let out = child.wait_with_output().unwrap();
    assert!(text_of(&out.stdout).contains("abandoned"), "{out:?}");
    std::fs::remove_file(&marker).unwrap();
    // The change goes on without its client and ends with a complete record.
    let end = Instant::now() + Duration::from_secs(60);
    let done = loop {
        let last = m
            .latest_records()
            .into_iter()
            .find(|e| e["operation"] == "delete" && e["dryRun"] == false);
        if let Some(e) = last.filter(|e| e["result"] != "pending") {
            break e;
        }
        assert!(
            Instant::now() < end,
            "the delete never finished: {:#?}",
            m.records()
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(done["result"], "success", "{done:#}");
    assert!(done["actor"].as_str().unwrap().starts_with("mcp:"));
    let verify = m.run(&["changelog", "verify"]);
    assert_eq!(verify.code, 0, "{verify:?}");
    let left = kubectl(&[
        "get",
        "configmap",
        "c1",
        "-n",
        &ns.0,
        "--ignore-not-found",
        "-o",
        "name",
    ]);
    assert_eq!(left.trim(), "", "the configmap is deleted");
}

#[test]
fn mcp_a_client_named_with_escape_sequences_and_3000_characters_is_journaled_escaped_and_capped() {
    let ns = with_c1("mcp-name");
    let m = myops("");
    let name = format!("{}evil\u{202e}", "\u{1b}[2J".repeat(500));
    let args = json!({"type": "configmaps", "name": "c1", "namespace": ns.0, "patch": {"data": {"a": "2"}}});
    let r = drive(
        &m,
        &[],
        json!({"client_name": name, "steps": [
            {"call": "patch", "args": args},
            {"call": "patch", "args": args, "confirm_from": 0},
        ]}),
    );
    assert_eq!(r[1]["structured"]["done"], true, "{:#}", r[1]);
    let actor = m.latest_records().pop().unwrap()["actor"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(actor.starts_with("mcp:\\u{1b}[2J"), "{actor}");
    assert_eq!(actor.chars().count(), "mcp:".len() + 100, "{actor}");
    assert!(!actor.chars().any(char::is_control), "{actor}");
}

#[test]
fn mcp_a_json_patch_copying_a_secret_value_into_an_annotation_showed_it_in_the_preview() {
    let ns = Namespace::new("mcp-copy");
    crate::fixture::create_secret(&ns.0, "s1", &["token=canary-c0py"]);
    let m = myops("");
    let copy = json!({"type": "secrets", "name": "s1", "namespace": ns.0, "patch_type": "json",
        "patch": [{"op": "copy", "from": "/data/token", "path": "/metadata/annotations/leak"}]});
    let test = json!({"type": "secrets", "name": "s1", "namespace": ns.0, "patch_type": "json",
        "patch": [{"op": "test", "path": "/data/token", "value": "Y2FuYXJ5LWMwcHk="}]});
    let write = json!({"type": "secrets", "name": "s1", "namespace": ns.0,
        "patch": {"stringData": {"token": "canary-n3w"}}});
    let r = drive(
        &m,
        &[],
        json!({"steps": [
            {"call": "patch", "args": copy},
            {"call": "patch", "args": test},
            {"call": "patch", "args": write},
            {"call": "patch", "args": write, "confirm_from": 2},
        ]}),
    );
    for i in [0, 1] {
        let e = error(&r[i]);
        assert_eq!(e["kind"], "denied", "{e:#}");
        assert!(
            e["message"].as_str().unwrap().contains("never read them"),
            "{e:#}"
        );
    }
    // Writing a value is allowed; the preview's object and the answer mask it.
    assert_eq!(r[3]["structured"]["done"], true, "{:#}", r[3]);
    let text = serde_json::to_string(&r).unwrap();
    for secret in ["canary-c0py", "canary-n3w", "Y2FuYXJ5LW4zdw=="] {
        assert!(!text.contains(secret), "{secret} leaked: {text}");
    }
    assert!(
        m.records()
            .iter()
            .all(|e| e["operation"] != "patch" || e["patch"][0]["op"] != "copy")
    );
}

#[test]
fn mcp_an_apply_previewed_as_a_creation_was_confirmed_onto_an_object_created_since() {
    let ns = Namespace::new("mcp-created");
    let m = myops("");
    let apply = json!({"manifest": format!("apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: c9, namespace: {}}}\ndata: {{a: agent}}\n", ns.0)});
    let r = between_preview_and_confirm(
        &m,
        "apply",
        &apply,
        1,
        &[
            "create",
            "configmap",
            "c9",
            "-n",
            &ns.0,
            "--from-literal=h=human",
        ],
    );
    let e = error(&r[2]);
    assert_eq!(
        (e["kind"].as_str(), e["exitCode"].as_i64()),
        (Some("conflict"), Some(5)),
        "{e:#}"
    );
    assert!(
        e["message"].as_str().unwrap().contains("it did not exist"),
        "{e:#}"
    );
    assert_eq!(data_of(&ns.0, "c9"), json!({"h": "human"}));
}

#[test]
fn mcp_a_rollback_in_a_protected_namespace_was_never_asked_about() {
    let ns = with_c1("mcp-rbprot");
    let m = protecting(&ns.0, "");
    let patch = json!({"type": "configmaps", "name": "c1", "namespace": ns.0, "patch": {"data": {"a": "2"}}});
    let r = drive(
        &m,
        &[],
        json!({"mode": "legacy", "elicit": "accept:admin", "steps": [
            {"call": "patch", "args": patch},
            {"call": "patch", "args": patch, "confirm_from": 0},
        ]}),
    );
    let session = r[1]["structured"]["session"].as_str().unwrap().to_string();
    let back = json!({"session": session});
    let r = drive(
        &m,
        &[],
        json!({"mode": "legacy", "elicit": "accept:admin", "steps": [
            {"call": "rollback", "args": back},
            {"call": "rollback", "args": back, "confirm_from": 0},
        ]}),
    );
    assert_eq!(
        r[1]["structured"]["done"], true,
        "the person was asked and said yes: {:#}",
        r[1]
    );
    assert_eq!(data_of(&ns.0, "c1"), json!({"a": "1"}));
}
