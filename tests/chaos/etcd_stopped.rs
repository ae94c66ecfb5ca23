//! Scenario 3, etcd stopped (issue 17): the API server is up, its storage is not, so every
//! request that touches etcd waits or fails with a 5xx. A patch must fail with exit 1 within
//! its deadline (`--request-timeout`), the journal must show the attempt with its error, and
//! the client must not hammer the server: the apiserver's audit log counts the requests each
//! failed invocation made, which must be no more than the same patch makes with etcd up.

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::control;
use crate::fixture::{Myops, Namespace, Run, audit_mark, audit_since, kubectl};
use crate::report::Tally;

/// `--request-timeout` of the patches under fault: each request's deadline.
const DEADLINE: Duration = Duration::from_secs(4);

/// What a failed invocation may take beyond [`DEADLINE`]: process start, the requests that do
/// not touch etcd (discovery, SelfSubjectAccessReview — the apiserver answers them from
/// memory), the journal's fsyncs, and a loaded 2-core machine.
const SLACK: Duration = Duration::from_secs(3);

fn myops() -> Myops {
    Myops::new(
        "name: myops\nverbs: [get, patch]\nresources: [configmaps]\nscopes: [namespace]\nmetrics: [ops_total]\n",
    )
}

/// The requests kubectl-myops made as `user` after `mark`, as the audit log has them (verb
/// and URI).
fn requests_since(mark: u64, user: &str) -> Vec<String> {
    audit_since(mark)
        .iter()
        .filter(|e| {
            e.pointer("/userAgent")
                .and_then(Value::as_str)
                .is_some_and(|a| a.starts_with("kubectl-myops/"))
                && e.pointer("/user/username").and_then(Value::as_str) == Some(user)
        })
        .map(|e| {
            format!(
                "{} {} {}",
                e["verb"].as_str().unwrap_or("?"),
                e["requestURI"].as_str().unwrap_or("?"),
                e.pointer("/responseStatus/code").unwrap_or(&Value::Null)
            )
        })
        .collect()
}

/// A merge patch of ConfigMap `web` in `ns` as `context`, with the per-request deadline.
fn patch(m: &Myops, context: &str, ns: &str, value: &str) -> (Run, Duration) {
    let body = format!(r#"{{"data":{{"color":"{value}"}}}}"#);
    let started = Instant::now();
    let r = m.run(&[
        "--context",
        context,
        "--request-timeout",
        &format!("{}s", DEADLINE.as_secs()),
        "patch",
        "configmap",
        "web",
        "-n",
        ns,
        "--type",
        "merge",
        "-p",
        &body,
    ]);
    (r, started.elapsed())
}

#[test]
fn etcd_stopped_patch_fails_within_its_deadline_journaled_without_a_retry_storm() {
    control::settle();
    let mut tally = Tally::new("etcd stopped");
    let ns = Namespace::new("chaos-etcd");
    kubectl(&[
        "create",
        "configmap",
        "web",
        "-n",
        &ns.0,
        "--from-literal=color=blue",
    ]);
    // alice may patch ConfigMaps but not read them: her patch goes on without a before-state,
    // so the PATCH itself reaches the server (admin's stops at the read of the before-state).
    ns.grant("alice", "patch", "configmaps");
    let m = myops();

    // With etcd up: both patches succeed; what each costs in requests is the baseline.
    let mut baseline = Vec::new();
    for (context, value) in [("admin", "green"), ("alice", "teal")] {
        let mark = audit_mark();
        let (r, _) = patch(&m, context, &ns.0, value);
        assert_eq!(r.code, 0, "{context}, etcd up: {r:?}");
        // The audit log is written when each request completes: give it a moment.
        std::thread::sleep(Duration::from_millis(500));
        baseline.push(requests_since(mark, context).len());
    }
    let before = m.records().len();

    let etcd = control::stop("etcd");
    tally.fault();
    let mark = audit_mark();
    for (context, value) in [("admin", "red"), ("alice", "black")] {
        let (r, took) = patch(&m, context, &ns.0, value);
        tally.command(took);
        eprintln!(
            "{context}, etcd stopped: exit {} after {took:?}: {}",
            r.code,
            r.stderr.trim()
        );
        assert_eq!(r.code, 1, "{context}, etcd stopped: {r:?}");
        assert!(
            took <= DEADLINE + SLACK,
            "{context}: the failed patch took {took:?}, more than its deadline {DEADLINE:?} + {SLACK:?}"
        );
        assert!(
            !r.stderr.contains("panicked") && r.stderr.lines().count() <= 3,
            "{context}: one clear error, not a trace: {}",
            r.stderr
        );
    }
    let down = etcd.start();
    eprintln!("etcd was down {down:?}");

    // Requests are audited when the apiserver finishes them, also those the client gave up
    // on (the handler ends when etcd answers again, or its own timeout passes): count them
    // now, each invocation's by its user.
    std::thread::sleep(Duration::from_secs(2));
    let mut counts = Vec::new();
    for context in ["admin", "alice"] {
        let seen = requests_since(mark, context);
        eprintln!(
            "{context}: {} request(s) with etcd stopped: {seen:#?}",
            seen.len()
        );
        counts.push(seen.len());
    }

    // The journal: admin's attempt is one complete record (the read of the before-state
    // failed, nothing was sent), alice's an intent and then its outcome (the PATCH was sent);
    // both outcomes carry the error, and alice's — whose answer never came — reads as
    // `outcome unknown: …` (the server may have made it), for `changelog reconcile`.
    let recs = m.records();
    let new = &recs[before..];
    let shape: Vec<(&str, &str)> = new
        .iter()
        .map(|r| {
            (
                r["user"].as_str().unwrap_or("?"),
                r["result"].as_str().unwrap_or("?"),
            )
        })
        .collect();
    let want = [
        ("admin", "did not answer the read of the object within 4s"),
        ("alice", "pending"),
        ("alice", "did not answer the patch within 4s"),
    ];
    let found = want
        .iter()
        .filter(|(user, result)| shape.iter().any(|(u, r)| u == user && r.contains(result)))
        .count();
    tally.lost((want.len() - found) as u32);
    assert_eq!(found, want.len(), "journal records: {shape:#?}");
    assert_eq!(new.len(), want.len(), "journal records: {shape:#?}");
    assert_eq!(new[1]["id"], new[2]["id"], "alice's intent and outcome");
    assert!(
        new[2]["result"]
            .as_str()
            .is_some_and(|r| r.starts_with("outcome unknown: ")),
        "a PATCH whose answer never came: {shape:#?}"
    );
    assert!(
        !new[0]["result"]
            .as_str()
            .is_some_and(|r| r.starts_with("outcome unknown")),
        "a failed read sent nothing: {shape:#?}"
    );
    let listed = m.run(&["changelog", "list", "-o", "json"]);
    assert_eq!(listed.code, 0, "{listed:?}");
    let listed: Vec<Value> = serde_json::from_str(&listed.stdout).unwrap();
    let failed: Vec<&str> = listed
        .iter()
        .filter(|e| e["result"] != "success")
        .map(|e| e["result"].as_str().unwrap_or("?"))
        .collect();
    assert_eq!(failed.len(), 2, "changelog list: {listed:#?}");
    assert!(
        failed.iter().all(|r| r.contains("did not answer")),
        "changelog list shows each attempt with its error: {failed:#?}"
    );

    // No retry storm: a failed invocation makes no more requests than a successful one.
    for (context, (n, base)) in ["admin", "alice"].iter().zip(counts.iter().zip(&baseline)) {
        assert!(
            n <= base,
            "{context}: {n} requests with etcd stopped, {base} with etcd up"
        );
    }
    tally.note(format!(
        "requests per failed patch {counts:?}, with etcd up {baseline:?}"
    ));

    // After the restart the same patch goes through.
    let (r, _) = patch(&m, "admin", &ns.0, "yellow");
    assert_eq!(r.code, 0, "after etcd restarted: {r:?}");
    tally.survived();
}
