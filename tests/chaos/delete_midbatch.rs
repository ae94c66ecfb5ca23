//! Scenario: kube-apiserver stopped in the middle of a `delete` of many objects. The change
//! log says which objects went: every object whose entry records `success` is gone, every
//! object still there has no entry or one that is not `success` (the error, or an intent
//! without an outcome that `changelog reconcile` then decides from the live object), and no
//! object went without an entry. A DELETE whose answer the stop cut off reads as outcome
//! unknown (`outcome unknown: ERROR`), never as a plain failure: every object that went has
//! an entry that says `success` or leaves the outcome unknown, and after `changelog
//! reconcile` every one says `success`.

use std::collections::BTreeSet;
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::control;
use crate::fixture::{Myops, Namespace, kubectl, kubectl_stdin};
use crate::report::Tally;

const SCENARIO: &str = "apiserver stopped mid-delete";

/// Objects in the batch: enough that the stop lands while DELETEs are still being sent.
const N: usize = 1000;

fn myops() -> Myops {
    Myops::new(
        "name: myops\nverbs: [get, patch, delete]\nresources: [configmaps]\nscopes: [namespace]\nmetrics: [ops_total]\n",
    )
}

/// The names of the batch's ConfigMaps still on the server.
fn present(ns: &str) -> BTreeSet<String> {
    kubectl(&[
        "get",
        "configmaps",
        "-l",
        "batch=mid",
        "-n",
        ns,
        "-o",
        "name",
    ])
    .lines()
    .map(|l| l.trim_start_matches("configmap/").to_string())
    .collect()
}

/// The delete records of the batch, by object name: the last record of each id.
fn results(m: &Myops) -> Vec<(String, String)> {
    m.latest_records()
        .into_iter()
        .filter(|r| r["operation"] == "delete" && r["dryRun"] == false)
        .map(|r| {
            (
                r["name"].as_str().unwrap_or("").to_string(),
                r["result"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

/// Whether a result leaves the outcome unknown: an intent alone, or an answer lost after the
/// request went.
fn unknown_outcome(result: &str) -> bool {
    result == "pending" || result.starts_with("outcome unknown")
}

/// The delete under test, killed if the scenario fails before it ends: a delete left running
/// would keep sending requests into the next scenario.
struct KillOnDrop(std::process::Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn a_delete_interrupted_by_a_stopped_apiserver_leaves_entries_that_say_which_objects_went() {
    control::settle();
    let mut tally = Tally::new(SCENARIO);
    let ns = Namespace::new("chaos-midbatch");
    let list: Vec<String> = (0..N)
        .map(|i| {
            format!(
                "{{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{{\"name\":\"c{i:04}\",\"labels\":{{\"batch\":\"mid\"}}}},\"data\":{{\"k\":\"v\"}}}}"
            )
        })
        .collect();
    let body = format!(
        "{{\"apiVersion\":\"v1\",\"kind\":\"List\",\"items\":[{}]}}",
        list.join(",")
    );
    let made = kubectl_stdin(&["create", "-n", &ns.0, "-f", "-"], &body);
    assert!(made.status.success(), "{made:?}");
    assert_eq!(present(&ns.0).len(), N);

    let m = myops();
    let child = m
        .command(&[
            "--request-timeout",
            "3s",
            "delete",
            "configmaps",
            "-l",
            "batch=mid",
            "-n",
            &ns.0,
            "--wait=false",
        ])
        // Not piped: a thousand error lines nobody reads would fill the pipe and stop it.
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let mut child = KillOnDrop(child);
    let child = &mut child.0;
    // Stop the server once some DELETEs have been answered, well before the last.
    let end = Instant::now() + Duration::from_secs(120);
    loop {
        let done = results(&m).iter().filter(|(_, r)| r == "success").count();
        if done >= 10 {
            break;
        }
        if let Ok(Some(status)) = child.try_wait() {
            tally.skip(format!(
                "the delete ended ({status}) before 10 objects went: the machine is too fast for this batch"
            ));
            return;
        }
        assert!(Instant::now() < end, "no DELETE answered within 120 s");
        std::thread::sleep(Duration::from_millis(5));
    }
    let server = control::stop("kube-apiserver");
    tally.fault();
    let started = Instant::now();
    let status = loop {
        if let Ok(Some(s)) = child.try_wait() {
            break s;
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "the delete did not end within 120 s of the server's stop"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    tally.command(started.elapsed());
    server.start();
    assert!(!status.success(), "a delete cut short fails: {status}");

    let still = present(&ns.0);
    let records = results(&m);
    let went = N - still.len();
    assert!(went >= 10, "went {went}");
    if still.is_empty() {
        tally.skip(format!(
            "every one of the {N} objects went before the server stopped serving"
        ));
        return;
    }
    let mut journaled = BTreeSet::new();
    let mut unknown = 0;
    for (name, result) in &records {
        journaled.insert(name.clone());
        if result == "success" {
            assert!(
                !still.contains(name),
                "{name}: journaled success, still there"
            );
        }
        let may_have_gone = result == "success" || unknown_outcome(result);
        unknown += usize::from(unknown_outcome(result));
        assert!(
            still.contains(name) || may_have_gone,
            "{name}: gone, but its entry says the delete failed: {result}"
        );
    }
    for i in 0..N {
        let name = format!("c{i:04}");
        if !still.contains(&name) && !journaled.contains(&name) {
            tally.lost(1);
            panic!("{name} went without an entry");
        }
    }
    // An intent without an outcome is decided from the live object.
    let r = m.run(&["changelog", "reconcile"]);
    assert!(r.code == 0, "{r:?}");
    for (name, result) in results(&m) {
        assert!(
            !unknown_outcome(&result),
            "{name} still undecided after reconcile: {result}"
        );
        if result == "success" {
            assert!(
                !still.contains(&name),
                "{name}: reconciled as deleted, still there"
            );
        } else {
            assert!(
                still.contains(&name),
                "{name}: gone, but its entry says {result}"
            );
        }
    }
    tally.note(format!(
        "{went} of {N} deleted before the stop, {} left, {unknown} answer(s) lost; every one accounted for by its entry",
        still.len()
    ));
    tally.survived();
}
