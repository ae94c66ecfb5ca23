//! A person asked through MCP elicitation on protocol revision 2026-07-28, where the server
//! asks by answering the call with an `InputRequiredResult` and the client calls again with
//! the person's answer and the `requestState` (SEP-2322), driven by the official Python SDK's
//! default connection (`auto`, which negotiates 2026-07-28).

use serde_json::json;

use crate::fixture::Namespace;
use crate::mcp::{answer, data_of, drive, error, protecting, with_c1};

/// A namespace with ConfigMap c1 (`a=1`) whose `protect:` rule has the `extra` lines.
fn protected(prefix: &str, extra: &str) -> (Namespace, crate::fixture::Myops) {
    let ns = with_c1(prefix);
    let m = protecting(&ns.0, extra);
    (ns, m)
}

#[test]
fn mcp_a_protected_change_on_revision_2026_07_28_was_refused_though_the_client_could_ask_and_a_listed_name_went_through()
 {
    let (ns, m) = protected("mcp-ask-auto", "");
    let args = json!({"type": "configmaps", "name": "c1", "namespace": ns.0, "patch": {"data": {"a": "2"}}});
    let steps = json!([
        {"call": "patch", "args": args},
        {"call": "patch", "args": args, "confirm_from": 0},
    ]);
    let r = drive(&m, &[], json!({"elicit": "decline", "steps": steps}));
    let e = error(&r[1]);
    assert_eq!(e["kind"], "protected", "{e:#}");
    assert!(e["message"].as_str().unwrap().contains("declined"), "{e:#}");
    assert_eq!(data_of(&ns.0, "c1"), json!({"a": "1"}));
    // A name that is not the context's, exactly: a list holding it and the name with a
    // space passed the command's check (it splits at commas and trims).
    for typed in ["admin-typo", "nope,admin", "admin "] {
        let r = drive(
            &m,
            &[],
            json!({"elicit": format!("accept:{typed}"), "steps": steps}),
        );
        let e = error(&r[1]);
        assert_eq!(e["kind"], "protected", "{typed:?}: {e:#}");
        assert!(
            e["message"]
                .as_str()
                .unwrap()
                .starts_with("the name the person typed is not the context's name"),
            "{typed:?}: {e:#}"
        );
    }
    assert_eq!(data_of(&ns.0, "c1"), json!({"a": "1"}));
    let refusals: Vec<String> = m
        .latest_records()
        .iter()
        .filter_map(|e| e["result"].as_str())
        .filter(|r| r.starts_with("refused by protect"))
        .map(str::to_string)
        .collect();
    assert_eq!(refusals.len(), 4, "each is journaled: {refusals:#?}");
    let r = drive(&m, &[], json!({"elicit": "accept:admin", "steps": steps}));
    assert_eq!(answer(&r[1])["done"], true, "{:#}", r[1]);
    assert_eq!(data_of(&ns.0, "c1"), json!({"a": "2"}));
    let made = m.latest_records().pop().unwrap();
    assert_eq!(made["result"], "success");
    assert!(made["protection"].as_str().is_some(), "{made:#}");
}

#[test]
fn mcp_an_answer_with_a_forged_reused_or_outrun_request_state_or_another_token_is_refused_and_nothing_is_sent()
 {
    // Only `patch` is protected: a label made between the question and its answer is not.
    let (ns, m) = protected("mcp-ask-state", "    verbs: [patch]\n");
    let patch = |v: &str| json!({"type": "configmaps", "name": "c1", "namespace": ns.0, "patch": {"data": {"a": v}}});
    let label =
        json!({"type": "configmaps", "name": "c1", "namespace": ns.0, "set": {"team": "web"}});
    let yes = json!({"action": "accept", "content": {"context": "admin"}});
    let mut junk = patch("4");
    junk["confirm"] = json!("junk");
    let r = drive(
        &m,
        &[],
        json!({"elicit": "accept:admin", "steps": [
            {"call": "patch", "args": patch("2")},
            {"call": "patch", "args": patch("2"), "confirm_from": 0, "manual": true},
            {"call": "patch", "args": patch("2"), "confirm_from": 0, "manual": true, "state": "0123456789abcdef0123456789abcdef", "answer": yes},
            {"call": "patch", "args": patch("9"), "confirm_from": 0, "manual": true, "state_from": 1, "answer": yes},
            {"call": "patch", "args": patch("3")},
            {"call": "patch", "args": patch("3"), "confirm_from": 4, "manual": true},
            {"call": "label", "args": label},
            {"call": "label", "args": label, "confirm_from": 6},
            {"call": "patch", "args": patch("3"), "confirm_from": 4, "manual": true, "state_from": 5, "answer": yes},
            {"call": "patch", "args": patch("4")},
            {"call": "patch", "args": patch("4"), "confirm_from": 9, "manual": true},
            {"call": "patch", "args": junk, "manual": true, "state_from": 10, "answer": yes},
        ]}),
    );
    let asked = &r[1]["inputRequired"];
    let question = asked["questions"]["confirm"].as_str().unwrap_or_default();
    assert!(
        question.contains("in the protected context \"admin\"")
            && question.contains(&format!("patch ConfigMap {}/c1 (replace /data/a)", ns.0)),
        "the question names the context, the object and the path: {r:#?}"
    );
    assert_eq!(asked["requestState"].as_str().map(str::len), Some(32));
    // A handle this server never gave, then the real one with other arguments.
    assert!(
        error(&r[2])["message"]
            .as_str()
            .unwrap()
            .contains("its requestState is not one this server gave"),
        "{:#}",
        r[2]
    );
    assert_eq!(error(&r[3])["kind"], "invalid", "{:#}", r[3]);
    assert!(
        error(&r[3])["message"]
            .as_str()
            .unwrap()
            .contains("not the one the question was asked of"),
        "{:#}",
        r[3]
    );
    // The label changed the object after the question was asked: its answer is a conflict.
    assert_eq!(answer(&r[7])["done"], true, "{:#}", r[7]);
    assert_eq!(error(&r[8])["kind"], "conflict", "{:#}", r[8]);
    // The answer brought by a call whose `confirm` is not the token asked about.
    assert_eq!(error(&r[11])["kind"], "invalid", "{:#}", r[11]);
    assert_eq!(data_of(&ns.0, "c1"), json!({"a": "1"}));
    let patches = m
        .latest_records()
        .iter()
        .filter(|e| e["operation"] == "patch" && e["dryRun"] != true)
        .count();
    assert_eq!(
        patches,
        0,
        "no patch reached the server: {:#?}",
        m.records()
    );
}

#[test]
fn mcp_a_person_was_asked_about_a_change_that_lacked_the_reason_its_rule_requires() {
    let (ns, m) = protected("mcp-ask-reason", "    requireReason: true\n");
    let args = json!({"type": "configmaps", "name": "c1", "namespace": ns.0, "patch": {"data": {"a": "2"}}});
    let mut with_reason = args.clone();
    with_reason["reason"] = json!("INC-7 raise a");
    let r = drive(
        &m,
        &[],
        json!({"elicit": "accept:admin", "steps": [
            {"call": "patch", "args": args},
            {"call": "patch", "args": args, "confirm_from": 0},
            {"asked": true},
            {"call": "patch", "args": with_reason},
            {"call": "patch", "args": with_reason, "confirm_from": 3},
            {"asked": true},
        ]}),
    );
    let e = error(&r[1]);
    assert_eq!(e["kind"], "protected", "{e:#}");
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("preview the change again with the `reason` argument"),
        "{e:#}"
    );
    assert_eq!(r[2]["asked"], 0, "nobody is asked in vain");
    assert_eq!(answer(&r[4])["done"], true, "{:#}", r[4]);
    assert_eq!(r[5]["asked"], 1);
    assert_eq!(data_of(&ns.0, "c1"), json!({"a": "2"}));
    assert_eq!(m.latest_records().pop().unwrap()["reason"], "INC-7 raise a");
}

#[test]
fn mcp_a_refused_rollback_of_a_session_was_denied_naming_lines_the_agent_never_saw() {
    let (ns, m) = protected("mcp-ask-rollback", "");
    let patch = json!({"type": "configmaps", "name": "c1", "namespace": ns.0, "patch": {"data": {"a": "2"}}});
    let r = drive(
        &m,
        &[],
        json!({"elicit": "accept:admin", "steps": [
            {"call": "patch", "args": patch},
            {"call": "patch", "args": patch, "confirm_from": 0},
        ]}),
    );
    let back = json!({"session": answer(&r[1])["session"]});
    // A client that cannot ask: the rollback is refused as protected, with the reason.
    let r = drive(
        &m,
        &[],
        json!({"steps": [
            {"call": "rollback", "args": back},
            {"call": "rollback", "args": back, "confirm_from": 0},
        ]}),
    );
    let e = error(&r[1]);
    assert_eq!(e["kind"], "protected", "{e:#}");
    let message = e["message"].as_str().unwrap();
    assert!(
        message.contains("were not rolled back") && message.contains("protect[0] (confirm)"),
        "{e:#}"
    );
    assert_eq!(data_of(&ns.0, "c1"), json!({"a": "2"}));
    // One that asks (revision 2026-07-28): the person says yes and the change is undone.
    let r = drive(
        &m,
        &[],
        json!({"elicit": "accept:admin", "steps": [
            {"call": "rollback", "args": back},
            {"call": "rollback", "args": back, "confirm_from": 0},
            {"asked": true},
        ]}),
    );
    assert_eq!(answer(&r[1])["done"], true, "{:#}", r[1]);
    assert_eq!(r[2]["asked"], 1);
    assert_eq!(data_of(&ns.0, "c1"), json!({"a": "1"}));
}

#[test]
fn mcp_a_delete_went_through_on_an_object_changed_while_the_person_was_asked() {
    let (ns, m) = protected("mcp-ask-during", "");
    let delete = json!({"type": "configmaps", "name": "c1", "namespace": ns.0});
    let kubectl = crate::fixture::root().join("target/testbin/kubectl");
    let kubeconfig = &crate::fixture::cluster().kubeconfig;
    let r = drive(
        &m,
        &[],
        json!({"mode": "legacy", "elicit": "accept:admin",
        "during_question": [kubectl, "--kubeconfig", kubeconfig, "--context", "admin", "-n", ns.0,
            "patch", "configmap", "c1", "-p", "{\"data\":{\"a\":\"person\"}}"],
        "steps": [
            {"call": "delete", "args": delete},
            {"call": "delete", "args": delete, "confirm_from": 0},
            {"asked": true},
        ]}),
    );
    assert_eq!(r[2]["asked"], 1);
    assert_eq!(error(&r[1])["kind"], "conflict", "{:#}", r[1]);
    assert_eq!(data_of(&ns.0, "c1"), json!({"a": "person"}));
}

#[test]
fn mcp_an_undelete_naming_an_unprotected_namespace_never_asked_about_the_protected_one() {
    let (ns, m) = protected("mcp-ask-undelete", "    verbs: [undelete]\n");
    let open = Namespace::new("mcp-ask-open");
    let c1 = json!({"type": "configmaps", "name": "c1", "namespace": ns.0});
    let r = drive(
        &m,
        &[],
        json!({"steps": [
            {"call": "delete", "args": c1},
            {"call": "delete", "args": c1, "confirm_from": 0},
        ]}),
    );
    assert_eq!(
        answer(&r[1])["done"],
        true,
        "a delete is not protected: {:#}",
        r[1]
    );
    let entry = answer(&r[1])["entries"][0]["id"].clone();
    // The call names another namespace; the entry's object is in the protected one.
    let back = json!({"entry": entry, "namespace": open.0});
    let r = drive(
        &m,
        &[],
        json!({"elicit": "accept:admin", "steps": [
            {"call": "undelete", "args": back},
            {"call": "undelete", "args": back, "confirm_from": 0},
            {"asked": true},
        ]}),
    );
    assert_eq!(r[2]["asked"], 1, "{r:#?}");
    assert_eq!(answer(&r[1])["done"], true, "{:#}", r[1]);
    assert_eq!(data_of(&ns.0, "c1"), json!({"a": "1"}));
}

#[test]
fn mcp_a_declined_rollback_went_through_where_its_rule_covered_only_deletes() {
    let (ns, m) = protected("mcp-ask-effect", "    verbs: [delete]\n");
    let patch = json!({"type": "configmaps", "name": "c1", "namespace": ns.0, "patch": {"data": {"a": "2"}}});
    let manifest = format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: c2, namespace: {}}}\ndata: {{k: v}}\n",
        ns.0
    );
    let apply = json!({"manifest": manifest});
    let r = drive(
        &m,
        &[],
        json!({"steps": [
            {"call": "patch", "args": patch},
            {"call": "patch", "args": patch, "confirm_from": 0},
            {"call": "apply", "args": apply},
            {"call": "apply", "args": apply, "confirm_from": 2},
        ]}),
    );
    assert_eq!(
        answer(&r[1])["done"],
        true,
        "a patch is not covered: {:#}",
        r[1]
    );
    assert_eq!(answer(&r[3])["done"], true, "a creation is not: {:#}", r[3]);
    let undo_patch = json!({"session": answer(&r[1])["session"]});
    let undo_create = json!({"session": answer(&r[3])["session"]});
    // The rollback of the patch patches: nobody is asked and it is made. The rollback of the
    // creation deletes: the person is asked, declines, and nothing is deleted.
    let r = drive(
        &m,
        &[],
        json!({"elicit": "decline", "steps": [
            {"call": "rollback", "args": undo_patch},
            {"call": "rollback", "args": undo_patch, "confirm_from": 0},
            {"asked": true},
            {"call": "rollback", "args": undo_create},
            {"call": "rollback", "args": undo_create, "confirm_from": 3},
            {"asked": true},
        ]}),
    );
    assert_eq!(answer(&r[1])["done"], true, "{:#}", r[1]);
    assert_eq!(
        r[2]["asked"], 0,
        "nobody is asked about a change no rule covers"
    );
    assert_eq!(data_of(&ns.0, "c1"), json!({"a": "1"}));
    assert_eq!(error(&r[4])["kind"], "protected", "{:#}", r[4]);
    assert_eq!(r[5]["asked"], 1);
    assert_eq!(data_of(&ns.0, "c2"), json!({"k": "v"}));
}
