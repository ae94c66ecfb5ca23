//! `kubectl myops mcp` driven by a real MCP client — the official Python SDK (tests/mcp/,
//! installed by scripts/setup) — over stdio against the real cluster: the tools listed (and
//! none that mutates in `--read-only`), get and a denied get, a patch previewed then
//! confirmed and rolled back by a person on the command line, a confirmation token reused,
//! expired or outrun by a change (refused), a protected context refused without
//! elicitation and confirmed with it, no Secret value in any answer.

use std::process::{Command, Stdio};

use serde_json::{Value, json};

use crate::fixture::{Myops, Namespace, create_secret, kubectl, root, text_of};

/// A boundary with every verb on configmaps, secrets and deployments.
pub fn myops(extra: &str) -> Myops {
    Myops::new(&format!(
        "name: myops\nverbs: [get, patch, delete, apply, scale, label, annotate]\nresources: [configmaps, secrets, deployments]\nscopes: [namespace, cluster]\n{extra}"
    ))
}

/// Runs the MCP client's `script` against `kubectl-myops mcp SERVER_ARGS` in `m`'s
/// environment; the step results it printed.
pub fn drive(m: &Myops, server_args: &[&str], script: Value) -> Vec<Value> {
    let out = client(m, server_args, &script)
        .output()
        .expect("the MCP client runs (scripts/setup installs target/testbin/mcp-venv)");
    let stdout = text_of(&out.stdout);
    let last = stdout.lines().last().unwrap_or_default();
    serde_json::from_str(last).unwrap_or_else(|e| {
        panic!(
            "the client printed no result ({e}): status {:?}\nstdout: {stdout}\nstderr: {}",
            out.status,
            text_of(&out.stderr)
        )
    })
}

/// The MCP client's command for `script` against `kubectl-myops mcp SERVER_ARGS`.
pub fn client(m: &Myops, server_args: &[&str], script: &Value) -> Command {
    let python = root().join("target/testbin/mcp-venv/bin/python");
    let mut c = Command::new(python);
    c.arg(root().join("tests/mcp/driver.py"))
        .arg(script.to_string())
        .arg("--")
        .arg(env!("CARGO_BIN_EXE_kubectl-myops"))
        .arg("mcp")
        .args(server_args)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .envs(m.env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    crate::fixture::detach_from_terminal(&mut c);
    c
}

/// The structured answer of a step.
pub fn answer(step: &Value) -> &Value {
    &step["structured"]
}

/// The error of a step that failed: `{kind, exitCode, message}`.
pub fn error(step: &Value) -> &Value {
    assert_eq!(step["isError"], true, "expected an error: {step:#}");
    &step["structured"]["error"]
}

/// A new namespace (`prefix`-…) holding ConfigMap c1 with `a=1`, made by the real kubectl.
pub fn with_c1(prefix: &str) -> Namespace {
    let ns = Namespace::new(prefix);
    kubectl(&[
        "create",
        "configmap",
        "c1",
        "-n",
        &ns.0,
        "--from-literal=a=1",
    ]);
    ns
}

/// A boundary (see [`myops`]) whose `protect:` rule covers namespace `ns` of context admin,
/// with `extra` lines of the rule (`    verbs: [patch]\n`; none: every mutating verb).
pub fn protecting(ns: &str, extra: &str) -> Myops {
    myops(&format!(
        "protect:\n  - contexts: [admin]\n    namespaces: [{ns}]\n{extra}    message: production\n"
    ))
}

/// Waits (up to 30 s) until `n` dry runs are journaled in `m`'s change log, complete: the
/// previews a client in flight has made (each has read its object before).
pub fn wait_for_dry_runs(m: &Myops, n: usize) {
    let end = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while m
        .records()
        .iter()
        .filter(|e| e["dryRun"] == true && e["result"] != "pending")
        .count()
        < n
    {
        assert!(std::time::Instant::now() < end, "the preview never ran");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// Previews `tool` with `args`, runs the real kubectl with `person` once the preview's dry run
/// (the `dry_runs`-th in `m`'s change log) is journaled, then confirms: the three step results
/// (the confirmation comes 6 s after the preview).
pub fn between_preview_and_confirm(
    m: &Myops,
    tool: &str,
    args: &Value,
    dry_runs: usize,
    person: &[&str],
) -> Vec<Value> {
    let mut c = client(
        m,
        &[],
        &json!({"steps": [
            {"call": tool, "args": args},
            {"sleep": 6},
            {"call": tool, "args": args, "confirm_from": 0},
        ]}),
    );
    let child = c.spawn().unwrap();
    // Once the preview's dry run is journaled, the preview has read the object.
    wait_for_dry_runs(m, dry_runs);
    kubectl(person);
    let out = child.wait_with_output().unwrap();
    serde_json::from_str(text_of(&out.stdout).lines().last().unwrap()).unwrap()
}

/// The `data` of ConfigMap `name` in `ns`, read by the real kubectl.
pub fn data_of(ns: &str, name: &str) -> Value {
    let cm: Value = serde_json::from_str(&kubectl(&[
        "get",
        "configmap",
        name,
        "-n",
        ns,
        "-o",
        "json",
    ]))
    .unwrap();
    cm["data"].clone()
}

#[test]
fn mcp_lists_its_tools_and_read_only_lists_none_that_mutates() {
    let m = myops("");
    let all = drive(&m, &[], json!({"steps": [{"list": true}]}));
    assert_eq!(
        all[0]["tools"],
        json!([
            "annotate",
            "apply",
            "can_i",
            "changelog_list",
            "changelog_show",
            "delete",
            "drift",
            "get",
            "label",
            "patch",
            "rollback",
            "scale",
            "undelete"
        ])
    );
    // Each schema comes from its input type: required fields, descriptions, no stray keys.
    let patch = &all[0]["schemas"]["patch"];
    assert_eq!(patch["required"], json!(["type", "name", "patch"]));
    assert_eq!(patch["additionalProperties"], false);
    assert!(
        patch["properties"]["confirm"]["description"]
            .as_str()
            .unwrap()
            .contains("Omit it to preview"),
        "{patch:#}"
    );
    let ro = drive(
        &m,
        &["--read-only"],
        json!({"steps": [{"list": true}, {"call": "patch", "args": {"type": "configmaps", "name": "x", "patch": {}}}]}),
    );
    assert_eq!(
        ro[0]["tools"],
        json!(["can_i", "changelog_list", "changelog_show", "drift", "get"])
    );
    // A mutating tool a read-only server does not list cannot be called either.
    assert!(
        ro[1].get("exception").is_some() || ro[1]["isError"] == true,
        "{:#}",
        ro[1]
    );
    assert!(
        m.records().is_empty(),
        "nothing was attempted: {:?}",
        m.records()
    );
}

#[test]
fn mcp_get_answers_json_and_bob_is_denied_with_exit_3() {
    let ns = with_c1("mcp-get");
    let m = myops("");
    let get =
        json!({"call": "get", "args": {"type": "configmaps", "name": "c1", "namespace": ns.0}});
    let r = drive(&m, &[], json!({"steps": [get]}));
    assert_eq!(r[0]["isError"], false, "{:#}", r[0]);
    assert_eq!(answer(&r[0])["result"]["data"], json!({"a": "1"}));
    let r = drive(&m, &["--context", "bob"], json!({"steps": [get]}));
    let e = error(&r[0]);
    assert_eq!(e["kind"], "denied", "{e:#}");
    assert_eq!(e["exitCode"], 3);
    assert!(
        e["message"].as_str().unwrap().contains("bob"),
        "the refusal names who was refused: {e:#}"
    );
}

#[test]
fn mcp_patch_is_previewed_then_confirmed_once_and_a_person_rolls_it_back() {
    let ns = with_c1("mcp-patch");
    let m = myops("");
    let args = json!({"type": "configmaps", "name": "c1", "namespace": ns.0, "patch": {"data": {"a": "2"}}, "reason": "INC-1 agent fix"});
    let r = drive(
        &m,
        &[],
        json!({"steps": [
            {"call": "patch", "args": args},
            {"call": "patch", "args": args, "confirm_from": 0},
            {"call": "patch", "args": args, "confirm_from": 0},
        ]}),
    );
    let preview = answer(&r[0]);
    assert_eq!(
        preview["preview"]["diff"],
        json!([{"op": "replace", "path": "/data/a", "value": "2"}]),
        "{preview:#}"
    );
    assert_eq!(preview["confirm"].as_str().unwrap().len(), 32);
    let done = answer(&r[1]);
    assert_eq!(done["done"], true, "{:#}", r[1]);
    assert_eq!(done["after"]["data"], json!({"a": "2"}));
    let session = done["session"].as_str().unwrap();
    assert_eq!(
        done["rollback"],
        format!("kubectl myops rollback --session {session}")
    );
    let entries = done["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 1, "{entries:#?}");
    assert_eq!(entries[0]["result"], "success");
    assert_eq!(data_of(&ns.0, "c1"), json!({"a": "2"}));
    // The token confirmed once; the same token again is refused, nothing sent.
    let e = error(&r[2]);
    assert_eq!(
        (e["kind"].as_str(), e["exitCode"].as_i64()),
        (Some("invalid"), Some(2))
    );
    assert!(
        e["message"].as_str().unwrap().contains("already used"),
        "{e:#}"
    );
    // The journal names the agent beside the Kubernetes user; a person finds and undoes it.
    let rec = m
        .latest_records()
        .into_iter()
        .find(|e| e["session"] == session)
        .unwrap();
    assert!(
        rec["actor"].as_str().unwrap().starts_with("mcp:mcp/"),
        "{rec:#}"
    );
    assert_eq!(rec["user"], "admin");
    assert_eq!(rec["reason"], "INC-1 agent fix");
    let listed = m.run(&["changelog", "list", "--actor", "mcp", "-o", "json"]);
    let listed: Vec<Value> = serde_json::from_str(&listed.stdout).unwrap();
    assert_eq!(listed.len(), 2, "the dry run and the patch: {listed:#?}");
    assert!(
        m.run(&["changelog", "list", "--actor", "mcp:other"])
            .stderr
            .contains("No change-log entries")
    );
    let back = m.run(&["rollback", "--session", session]);
    assert_eq!(back.code, 0, "{back:?}");
    assert_eq!(data_of(&ns.0, "c1"), json!({"a": "1"}));
}

#[test]
fn mcp_expired_token_and_an_object_changed_since_its_preview_are_refused() {
    let ns = with_c1("mcp-stale");
    let m = myops("");
    let args = json!({"type": "configmaps", "name": "c1", "namespace": ns.0, "patch": {"data": {"a": "2"}}});
    let r = drive(
        &m,
        &["--confirm-within", "1s"],
        json!({"steps": [
            {"call": "patch", "args": args},
            {"sleep": 2.5},
            {"call": "patch", "args": args, "confirm_from": 0},
        ]}),
    );
    let e = error(&r[2]);
    assert_eq!(e["kind"], "invalid");
    assert!(e["message"].as_str().unwrap().contains("expired"), "{e:#}");
    assert_eq!(data_of(&ns.0, "c1"), json!({"a": "1"}));
    // A person changes the object between the preview and the confirmation.
    let r = between_preview_and_confirm(
        &m,
        "patch",
        &args,
        2,
        &[
            "patch",
            "configmap",
            "c1",
            "-n",
            &ns.0,
            "--type",
            "merge",
            "-p",
            r#"{"data":{"a":"person"}}"#,
        ],
    );
    let e = error(&r[2]);
    assert_eq!(
        (e["kind"].as_str(), e["exitCode"].as_i64()),
        (Some("conflict"), Some(5)),
        "{e:#}"
    );
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("changed since its preview"),
        "{e:#}"
    );
    assert_eq!(data_of(&ns.0, "c1"), json!({"a": "person"}));
}

#[test]
fn mcp_protected_context_is_refused_without_elicitation_and_confirmed_with_it() {
    let ns = with_c1("mcp-protect");
    let m = protecting(&ns.0, "");
    let args = json!({"type": "configmaps", "name": "c1", "namespace": ns.0, "patch": {"data": {"a": "2"}}});
    let steps = json!([
        {"call": "patch", "args": args},
        {"call": "patch", "args": args, "confirm_from": 0},
    ]);
    let r = drive(&m, &[], json!({"steps": steps}));
    assert_eq!(
        r[0]["isError"], false,
        "a dry run is never asked about: {:#}",
        r[0]
    );
    let e = error(&r[1]);
    assert_eq!(
        (e["kind"].as_str(), e["exitCode"].as_i64()),
        (Some("protected"), Some(3)),
        "{e:#}"
    );
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("only a person answers"),
        "{e:#}"
    );
    assert_eq!(data_of(&ns.0, "c1"), json!({"a": "1"}));
    let refused = m.latest_records().pop().unwrap();
    assert!(
        refused["result"]
            .as_str()
            .unwrap()
            .starts_with("refused by protect"),
        "the refusal is journaled: {refused:#}"
    );
    // A client that can ask a person (elicitation, in the handshake protocol): a decline
    // changes nothing; the context's name typed goes on.
    let r = drive(
        &m,
        &[],
        json!({"mode": "legacy", "elicit": "decline", "steps": steps}),
    );
    let e = error(&r[1]);
    assert_eq!(e["kind"], "protected");
    assert!(e["message"].as_str().unwrap().contains("declined"), "{e:#}");
    assert_eq!(data_of(&ns.0, "c1"), json!({"a": "1"}));
    let refusals = m
        .latest_records()
        .into_iter()
        .filter(|e| {
            e["result"]
                .as_str()
                .unwrap()
                .starts_with("refused by protect")
        })
        .count();
    assert_eq!(
        refusals,
        2,
        "a decline is journaled as a refusal: {:#?}",
        m.records()
    );
    let r = drive(
        &m,
        &[],
        json!({"mode": "legacy", "elicit": "accept:admin", "steps": steps}),
    );
    assert_eq!(answer(&r[1])["done"], true, "{:#}", r[1]);
    assert_eq!(data_of(&ns.0, "c1"), json!({"a": "2"}));
    let made = m.latest_records().pop().unwrap();
    assert_eq!(made["result"], "success");
    assert!(made["protection"].as_str().is_some(), "{made:#}");
}

#[test]
fn mcp_answers_never_hold_a_secret_value() {
    let ns = Namespace::new("mcp-secret");
    create_secret(&ns.0, "s1", &["password=canary-s3cr3t"]);
    let m = myops("");
    let one = json!({"type": "secrets", "name": "s1", "namespace": ns.0});
    let patch = json!({"type": "secrets", "name": "s1", "namespace": ns.0, "patch": {"stringData": {"password": "canary-n3w"}}});
    let r = drive(
        &m,
        &[],
        json!({"steps": [
            {"call": "get", "args": one},
            {"call": "get", "args": {"type": "secrets", "namespace": ns.0}},
            {"call": "patch", "args": patch},
            {"call": "patch", "args": patch, "confirm_from": 2},
            {"call": "changelog_list", "args": {}},
        ]}),
    );
    let text = serde_json::to_string(&r).unwrap();
    for secret in [
        "canary-s3cr3t",
        "Y2FuYXJ5LXMzY3IzdA==",
        "canary-n3w",
        "Y2FuYXJ5LW4zdw==",
    ] {
        assert!(!text.contains(secret), "{secret} leaked: {text}");
    }
    assert_eq!(answer(&r[0])["result"]["data"]["password"], "<redacted>");
    assert_eq!(answer(&r[3])["done"], true, "{:#}", r[3]);
    let id = answer(&r[4])["result"].as_array().unwrap().last().unwrap()["id"].clone();
    let shown = drive(
        &m,
        &[],
        json!({"steps": [{"call": "changelog_show", "args": {"id": id}}]}),
    );
    let text = serde_json::to_string(&shown).unwrap();
    assert!(!text.contains("canary"), "{text}");
    assert_eq!(shown[0]["isError"], false, "{:#}", shown[0]);
    // plugin.yaml lets `get` show them; diffs and the journal still mask them.
    let open = myops("mcp:\n  showSecretValues: true\n");
    let r = drive(&open, &[], json!({"steps": [{"call": "get", "args": one}]}));
    assert_eq!(
        answer(&r[0])["result"]["data"]["password"],
        "Y2FuYXJ5LW4zdw=="
    );
}

/// The diffs of scale, label, apply and delete come from their journaled dry runs (only
/// `patch` prints the object): a tool whose command printed only `-o name` had none.
#[test]
fn mcp_scale_label_apply_delete_and_undelete_preview_their_diff_then_change() {
    let ns = with_c1("mcp-verbs");
    crate::fixture::create_deployment(&ns.0, "web");
    let m = myops("");
    let scale =
        json!({"type": "deployments.apps", "name": "web", "namespace": ns.0, "replicas": 3});
    let label =
        json!({"type": "configmaps", "name": "c1", "namespace": ns.0, "set": {"tier": "web"}});
    let manifest = format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: web, namespace: {}}}\nspec:\n  replicas: 5\n  selector: {{matchLabels: {{app: web}}}}\n  template:\n    metadata: {{labels: {{app: web}}}}\n    spec: {{containers: [{{name: web, image: registry.invalid/web:1}}]}}\n",
        ns.0
    );
    let conflicting = json!({"manifest": manifest});
    let apply = json!({"manifest": format!("apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: c2, namespace: {}}}\ndata: {{k: v}}\n", ns.0)});
    let delete = json!({"type": "configmaps", "name": "c1", "namespace": ns.0});
    let undelete = json!({"type": "configmaps", "name": "c1", "namespace": ns.0});
    let r = drive(
        &m,
        &[],
        json!({"steps": [
            {"call": "scale", "args": scale},
            {"call": "scale", "args": scale, "confirm_from": 0},
            {"call": "label", "args": label},
            {"call": "label", "args": label, "confirm_from": 2},
            {"call": "apply", "args": conflicting},
            {"call": "apply", "args": apply},
            {"call": "apply", "args": apply, "confirm_from": 5},
            {"call": "delete", "args": delete},
            {"call": "delete", "args": delete, "confirm_from": 7},
            {"call": "undelete", "args": undelete},
            {"call": "undelete", "args": undelete, "confirm_from": 9},
        ]}),
    );
    let diff = |i: usize| answer(&r[i])["preview"]["diff"].clone();
    assert_eq!(
        diff(0),
        json!([{"op": "replace", "path": "/spec/replicas", "value": 3}]),
        "{:#}",
        r[0]
    );
    assert_eq!(
        diff(2),
        json!([{"op": "add", "path": "/metadata/labels", "value": {"tier": "web"}}]),
        "{:#}",
        r[2]
    );
    // The manifest takes `.spec.replicas` from the field manager that scaled it: server-side
    // apply's own conflict, as kubectl reports it.
    let e = error(&r[4]);
    assert_eq!(
        (e["kind"].as_str(), e["exitCode"].as_i64()),
        (Some("conflict"), Some(5)),
        "{e:#}"
    );
    assert!(
        e["message"].as_str().unwrap().contains(".spec.replicas"),
        "{e:#}"
    );
    assert_eq!(diff(5)[0]["op"], "add", "{:#}", r[5]);
    assert_eq!(diff(5)[0]["value"]["data"], json!({"k": "v"}), "{:#}", r[5]);
    assert_eq!(diff(7), json!([{"op": "remove", "path": ""}]), "{:#}", r[7]);
    for i in [1, 3, 6, 8, 10] {
        assert_eq!(answer(&r[i])["done"], true, "step {i}: {:#}", r[i]);
        assert_eq!(
            answer(&r[i])["entries"][0]["result"],
            "success",
            "step {i}: {:#}",
            r[i]
        );
    }
    let web: Value = serde_json::from_str(&kubectl(&[
        "get",
        "deployment",
        "web",
        "-n",
        &ns.0,
        "-o",
        "json",
    ]))
    .unwrap();
    assert_eq!(web["spec"]["replicas"], 3);
    assert_eq!(data_of(&ns.0, "c2"), json!({"k": "v"}));
    assert_eq!(
        data_of(&ns.0, "c1"),
        json!({"a": "1"}),
        "undeleted with its data"
    );
}
