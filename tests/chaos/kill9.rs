//! Scenario 1: `kill -9` between a patch's intent record and its outcome record.
//!
//! The window is reached deterministically with the debug build's pause points
//! (`MYOPS_TEST_PAUSE=after-intent|after-send`, src/guard/mutation/test_hooks.rs `test_pause`): the
//! process writes the marker file and stands still at that point of the write-ahead
//! protocol, and the test kills it with SIGKILL. Then: `changelog list`/`show` say
//! `outcome unknown`; `rollback` refuses to act on a guess; `changelog reconcile` reads the
//! live object and appends the real outcome — not applied (killed before the request),
//! applied (killed after the server answered), or leaves it unknown when someone else has
//! changed the fields since; a rollback killed after the answer likewise — and
//! `changelog verify` still passes.

use std::time::Instant;

use serde_json::Value;

use crate::fixture::{
    Myops, Namespace, Run, audit_mark, audit_since, kubectl, kubectl_merge_patch,
};
use crate::report::Tally;

fn myops() -> Myops {
    Myops::new(
        "name: myops\nverbs: [get, patch]\nresources: [configmaps]\nscopes: [namespace]\nmetrics: [ops_total]\n",
    )
}

/// Starts `patch configmap web` with `body`, paused at `point`; kills it with SIGKILL once
/// the marker says it stands there. Returns the entry id of its intent record.
fn patch_killed_at(m: &Myops, ns: &str, point: &str, body: &str) -> String {
    m.killed_at(
        point,
        &[
            "patch",
            "configmap",
            "web",
            "-n",
            ns,
            "--type",
            "merge",
            "-p",
            body,
        ],
    )
}

/// The patch requests for configmap `web` in `ns` that reached the server since `mark`.
fn patches_since(mark: u64, ns: &str) -> usize {
    audit_since(mark)
        .iter()
        .filter(|e| {
            e["verb"] == "patch"
                && e.pointer("/objectRef/resource") == Some(&Value::from("configmaps"))
                && e.pointer("/objectRef/namespace") == Some(&Value::from(ns))
                && e.pointer("/objectRef/name") == Some(&Value::from("web"))
                && e["stage"] == "ResponseComplete"
        })
        .count()
}

fn data_k(ns: &str) -> String {
    kubectl(&[
        "get",
        "configmap",
        "web",
        "-n",
        ns,
        "-o",
        "jsonpath={.data.k}",
    ])
}

fn rv(ns: &str) -> String {
    kubectl(&[
        "get",
        "configmap",
        "web",
        "-n",
        ns,
        "-o",
        "jsonpath={.metadata.resourceVersion}",
    ])
}

/// `changelog list` shows entry `id` with `result`, and `show` warns about a missing
/// outcome exactly when the result is `outcome unknown`.
fn listed_as(m: &Myops, id: &str, result: &str) {
    let list = m.run(&["changelog", "list"]);
    assert_eq!(list.code, 0, "{list:?}");
    let row = list
        .stdout
        .lines()
        .find(|l| l.starts_with(id))
        .unwrap_or_else(|| panic!("{id} listed: {}", list.stdout));
    assert!(row.trim_end().ends_with(result), "{id} as {result}: {row}");
    let show = m.run(&["changelog", "show", id]);
    assert_eq!(show.code, 0, "{show:?}");
    assert_eq!(
        show.stderr.contains("has no outcome record"),
        result == "outcome unknown",
        "{show:?}"
    );
}

/// The last record of entry `id`.
fn record(m: &Myops, id: &str) -> Value {
    m.latest_records()
        .into_iter()
        .find(|r| r["id"] == id)
        .expect("the entry is in the log")
}

fn timed(t: &mut Tally, m: &Myops, args: &[&str]) -> Run {
    let started = Instant::now();
    let r = m.run(args);
    t.command(started.elapsed());
    r
}

fn verified(m: &Myops) {
    let v = m.run(&["changelog", "verify"]);
    assert_eq!(v.code, 0, "changelog verify after the kill: {v:?}");
    assert!(v.stdout.starts_with("ok"), "{v:?}");
}

#[test]
fn kill9_between_intent_and_outcome_is_reconciled_from_the_live_object() {
    let mut t = Tally::new("kill -9 between intent and outcome");
    let ns = Namespace::new("chaos-kill9");
    let n = &ns.0;
    kubectl(&["create", "configmap", "web", "-n", n, "--from-literal=k=v0"]);
    let m = myops();

    // 1. Killed after the intent was fsynced, before the request: nothing reached the server.
    let mark = audit_mark();
    let rv0 = rv(n);
    t.fault();
    let id = patch_killed_at(&m, n, "after-intent", r#"{"data":{"k":"v1"}}"#);
    assert_eq!(patches_since(mark, n), 0, "no patch reached the server");
    assert_eq!(data_k(n), "v0");
    listed_as(&m, &id, "outcome unknown");
    let r = timed(&mut t, &m, &["changelog", "reconcile", &id]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout.contains(&format!(
            "{id}: not applied — the live object still has the resourceVersion {rv0}"
        )),
        "{r:?}"
    );
    listed_as(&m, &id, "not applied");
    let rec = record(&m, &id);
    assert!(
        rec["reconciled"].as_str().unwrap().contains(&rv0),
        "{rec:#}"
    );
    assert_eq!(patches_since(mark, n), 0, "reconcile sent nothing");
    verified(&m);
    // Once decided, nothing more to do; an unknown id is not found.
    let again = m.run(&["changelog", "reconcile", &id]);
    assert_eq!(
        (again.code, again.stdout.trim()),
        (
            0,
            format!("{id}: nothing to reconcile (its outcome is recorded: not applied)").as_str()
        ),
        "{again:?}"
    );
    let none = m.run(&["changelog", "reconcile"]);
    assert_eq!(
        (none.code, none.stderr.trim()),
        (0, "No change-log entries with an unknown outcome."),
        "{none:?}"
    );
    let unknown = m.run(&["changelog", "reconcile", "no-such-id"]);
    assert_eq!(unknown.code, 4, "{unknown:?}");
    t.survived();
    t.note("killed after the intent: no PATCH sent, reconciled as not applied");

    // 2. Killed after the server answered, before the outcome record: the change is in effect.
    let mark = audit_mark();
    t.fault();
    let id = patch_killed_at(&m, n, "after-send", r#"{"data":{"k":"v2"}}"#);
    assert_eq!(
        patches_since(mark, n),
        1,
        "the patch reached the server once"
    );
    assert_eq!(data_k(n), "v2");
    listed_as(&m, &id, "outcome unknown");
    // A rollback does not guess: the fields no longer hold the before-state → refused, exit 5.
    let r = timed(&mut t, &m, &["rollback", &id]);
    assert_eq!(r.code, 5, "{r:?}");
    assert!(r.stderr.contains("outcome unknown"), "{r:?}");
    assert_eq!(data_k(n), "v2", "nothing rolled back on a guess");
    assert_eq!(patches_since(mark, n), 1);
    let r = timed(&mut t, &m, &["changelog", "reconcile"]);
    eprintln!("$ kubectl myops changelog reconcile\n{}", r.stdout);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout.contains(&format!(
            "{id}: applied — the live object (resourceVersion {}) holds the patch's values in data.k",
            rv(n)
        )),
        "{r:?}"
    );
    listed_as(&m, &id, "success");
    let rec = record(&m, &id);
    assert_eq!(rec["resourceVersionAfter"], Value::from(rv(n)), "{rec:#}");
    assert_eq!(rec["after"]["data"]["k"], "v2", "{rec:#}");
    verified(&m);
    // The recorded outcome is a real one: the entry now rolls back like any other.
    let r = timed(&mut t, &m, &["rollback", &id]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(data_k(n), "v0");
    verified(&m);
    t.survived();
    t.note("killed after the answer: 1 PATCH, rollback refused (exit 5), reconciled as applied, then rolled back");

    // 3. Killed after the answer, then someone else rewrote the field: undecidable, nothing
    //    recorded, nothing sent.
    t.fault();
    let id = patch_killed_at(&m, n, "after-send", r#"{"data":{"k":"v3"}}"#);
    kubectl_merge_patch(n, "configmap", "web", r#"{"data":{"k":"theirs"}}"#);
    let lines = std::fs::read_to_string(m.dir.path().join("myops/changelog.jsonl"))
        .unwrap()
        .lines()
        .count();
    let mark = audit_mark();
    let r = timed(&mut t, &m, &["changelog", "reconcile"]);
    assert_eq!(r.code, 5, "{r:?}");
    assert!(
        r.stderr
            .contains(&format!("{id}: outcome still unknown — the live object"))
            && r.stderr
                .contains("holds neither the before-state nor the patch's values in data.k"),
        "{r:?}"
    );
    listed_as(&m, &id, "outcome unknown");
    let after = std::fs::read_to_string(m.dir.path().join("myops/changelog.jsonl"))
        .unwrap()
        .lines()
        .count();
    assert_eq!(after, lines, "nothing recorded for an undecidable entry");
    assert_eq!(patches_since(mark, n), 0, "nothing sent");
    assert_eq!(data_k(n), "theirs");
    verified(&m);
    t.survived();
    t.note("another writer after the kill: left unknown (exit 5), nothing recorded or sent");

    // 4. A rollback killed after the server answered: its JSON patch (a resourceVersion test
    //    and the restoring operations) is judged the same way.
    let r = m.merge_patch(n, "configmap", "web", r#"{"data":{"k":"v4"}}"#);
    assert_eq!(r.code, 0, "{r:?}");
    let patched = m.latest_records().pop().unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let mark = audit_mark();
    t.fault();
    let id = m.killed_at("after-send", &["rollback", &patched]);
    assert_eq!(
        patches_since(mark, n),
        1,
        "the rollback reached the server once"
    );
    assert_eq!(data_k(n), "theirs", "and restored the field");
    listed_as(&m, &id, "outcome unknown");
    let r = timed(&mut t, &m, &["changelog", "reconcile", &id]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout.contains(&format!(
            "{id}: applied — the live object (resourceVersion {}) holds the patch's values in data.k",
            rv(n)
        )),
        "{r:?}"
    );
    assert_eq!(record(&m, &id)["operation"], "rollback");
    listed_as(&m, &id, "success");
    verified(&m);
    t.survived();
    t.note("a rollback killed after the answer: reconciled as applied");
}
