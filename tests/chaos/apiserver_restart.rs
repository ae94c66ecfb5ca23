//! Scenario 2, kube-apiserver stopped and restarted (issue 17): one-shot commands during the
//! outage fail with exit 1 within their deadline (and a patch is journaled with its error);
//! a running `get -w` tells the outage once, then goes on without a duplicate or a lost
//! change — through a 410, forced by compacting etcd while the server is down; a running
//! `crds watch` tells the outage once, keeps its directory state, and applies the files
//! dropped during the outage once the server answers.

use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::control;
use crate::crd_watcher::{Watcher, crd, watched_dir};
use crate::fixture::{Myops, Namespace, cluster_dir, kubectl};
use crate::report::Tally;
use crate::watching::Watching;

const SCENARIO: &str = "apiserver stopped and restarted";

/// `--request-timeout` of the one-shot commands under fault.
const DEADLINE: Duration = Duration::from_secs(3);

/// What a failed one-shot command may take beyond [`DEADLINE`] (process start, the journal's
/// fsyncs, a loaded 2-core machine).
const SLACK: Duration = Duration::from_secs(3);

fn myops() -> Myops {
    Myops::new(
        "name: myops\nverbs: [get, patch]\nresources: [configmaps]\nscopes: [namespace]\nmetrics: [ops_total]\n",
    )
}

fn configmap(ns: &Namespace, name: &str) {
    kubectl(&[
        "create",
        "configmap",
        name,
        "-n",
        &ns.0,
        "--from-literal=k=v1",
    ]);
}

#[test]
fn one_shot_commands_fail_within_their_deadline_while_the_apiserver_is_stopped() {
    control::settle();
    let mut tally = Tally::new(SCENARIO);
    let ns = Namespace::new("chaos-oneshot");
    configmap(&ns, "web");
    let m = myops();
    // Warm: discovery cached, so the commands below fail at their own request.
    assert_eq!(m.run(&["get", "configmap", "web", "-n", &ns.0]).code, 0);
    let deadline = format!("{}s", DEADLINE.as_secs());
    let get = [
        "--request-timeout",
        &deadline,
        "get",
        "configmap",
        "web",
        "-n",
        &ns.0,
    ];
    let patch = [
        "--request-timeout",
        &deadline,
        "patch",
        "configmap",
        "web",
        "-n",
        &ns.0,
        "--type",
        "merge",
        "-p",
        r#"{"data":{"k":"v2"}}"#,
    ];
    let before = m.records().len();

    let server = control::stop("kube-apiserver");
    tally.fault();
    for args in [&get[..], &patch[..]] {
        let started = Instant::now();
        let r = m.run(args);
        let took = started.elapsed();
        tally.command(took);
        eprintln!(
            "{args:?}: exit {} after {took:?}: {}",
            r.code,
            r.stderr.trim()
        );
        assert_eq!(r.code, 1, "{args:?}: {r:?}");
        assert!(took <= DEADLINE + SLACK, "{args:?} took {took:?}");
        assert!(
            r.stderr.contains("cannot reach the API server") && r.stderr.lines().count() <= 2,
            "{args:?}: one sentence naming the server: {r:?}"
        );
    }
    server.start();
    // Nothing was journaled: the patch stopped at discovery (the cached discovery is
    // revalidated on every run), before its object's type was known — no record at all, and
    // certainly none left "pending".
    let new: Vec<Value> = m.records().split_off(before);
    assert!(new.is_empty(), "{new:#?}");
    // And the same commands work again.
    assert_eq!(m.run(&patch).code, 0);
    tally.survived();

    // A frozen server (SIGSTOP: connections accepted, never answered) costs the deadline,
    // not more.
    let pid = component_pid("kube-apiserver");
    let frozen = Frozen::new(pid);
    tally.fault();
    let started = Instant::now();
    let r = m.run(&get);
    let took = started.elapsed();
    tally.command(took);
    drop(frozen);
    eprintln!(
        "frozen server: exit {} after {took:?}: {}",
        r.code,
        r.stderr.trim()
    );
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        took >= DEADLINE && took <= DEADLINE + SLACK,
        "took {took:?}"
    );
    assert!(r.stderr.contains("did not answer"), "{r:?}");
    control::wait_ready(control::READY_WITHIN);
    tally.survived();
}

/// The pid of a component of the chaos cluster (`scripts/cluster`'s pids file).
fn component_pid(name: &str) -> u32 {
    let text = std::fs::read_to_string(cluster_dir().join("pids")).unwrap();
    text.lines()
        .rev()
        .filter_map(|l| l.split_once(' '))
        .find(|(n, _)| *n == name)
        .and_then(|(_, p)| p.trim().parse().ok())
        .unwrap_or_else(|| panic!("no {name} in the pids file: {text}"))
}

/// A process stopped with SIGSTOP; continued (SIGCONT) when dropped.
struct Frozen(u32);

impl Frozen {
    fn new(pid: u32) -> Frozen {
        let ok = Command::new("kill")
            .args(["-STOP", &pid.to_string()])
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "kill -STOP {pid}");
        Frozen(pid)
    }
}

impl Drop for Frozen {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-CONT", &self.0.to_string()])
            .status();
    }
}

/// The etcd client URL of the chaos cluster, from the command line `scripts/cluster` recorded.
fn etcd_url() -> String {
    let argv = std::fs::read(cluster_dir().join("cmd/etcd")).unwrap();
    let args: Vec<String> = argv
        .split(|b| *b == 0)
        .map(|a| String::from_utf8_lossy(a).into_owned())
        .collect();
    let i = args
        .iter()
        .position(|a| a == "--listen-client-urls")
        .expect("etcd's --listen-client-urls");
    args[i + 1].clone()
}

/// POSTs `body` to etcd's v3 JSON gateway and returns the answer.
fn etcd(path: &str, body: &str) -> Value {
    let out = Command::new("curl")
        .args(["-sf", "-X", "POST", "-d", body])
        .arg(format!("{}{path}", etcd_url()))
        .output()
        .expect("curl runs");
    assert!(out.status.success(), "etcd {path} {body}: {out:?}");
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Compacts etcd's history up to its current revision: a watch from any older
/// resourceVersion then gets 410 Gone ("too old resource version").
fn compact_etcd() -> String {
    // The current revision is in the header of any range answer (key "/" base64-encoded).
    let rev = etcd("/v3/kv/range", r#"{"key":"Lw=="}"#)["header"]["revision"]
        .as_str()
        .expect("a revision")
        .to_string();
    etcd(
        "/v3/kv/compaction",
        &format!(r#"{{"revision":"{rev}","physical":true}}"#),
    );
    rev
}

/// One `--output-watch-events -o json` line: (type, name, resourceVersion).
fn event(line: &str) -> (String, String, String) {
    let v: Value =
        serde_json::from_str(line).unwrap_or_else(|e| panic!("not a watch event ({e}): {line}"));
    let s = |p: &str| {
        v.pointer(p)
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    (
        s("/type"),
        s("/object/metadata/name"),
        s("/object/metadata/resourceVersion"),
    )
}

/// The live ConfigMaps of `ns`: name → resourceVersion.
fn live(ns: &Namespace) -> Vec<(String, String)> {
    let out = kubectl(&[
        "get",
        "configmaps",
        "-n",
        &ns.0,
        "-o",
        "jsonpath={range .items[*]}{.metadata.name} {.metadata.resourceVersion}{\"\\n\"}{end}",
    ]);
    let mut v: Vec<(String, String)> = out
        .lines()
        .filter_map(|l| l.split_once(' '))
        .map(|(n, rv)| (n.to_string(), rv.to_string()))
        .collect();
    v.sort();
    v
}

/// Regression: `get -w` ended with exit 1 when the API server stopped (the reopened watch
/// was refused). Now it tells the outage once, goes on after the restart, re-lists on the
/// 410 a compacted etcd gives, and prints every change once.
#[test]
fn regression_get_watch_ended_when_the_apiserver_stopped() {
    control::settle();
    let mut tally = Tally::new(SCENARIO);
    let ns = Namespace::new("chaos-getw");
    for n in ["a", "b", "c"] {
        configmap(&ns, n);
    }
    let m = myops();
    let mut w = Watching::ours(
        &m,
        &[
            "get",
            "configmaps",
            "-n",
            &ns.0,
            "-w",
            "--output-watch-events",
            "-o",
            "json",
            "-v",
        ],
    );
    w.until_lines(3);
    kubectl(&["label", "configmap", "a", "-n", &ns.0, "step=before"]);
    w.until_lines(4);

    let server = control::stop("kube-apiserver");
    tally.fault();
    let rev = compact_etcd();
    eprintln!("etcd compacted at revision {rev} while the apiserver is down");
    // The outage is told once, whatever the number of tries while it lasts.
    let end = Instant::now() + Duration::from_secs(20);
    while !w.stderr().contains("is interrupted") {
        assert!(Instant::now() < end, "no outage warning: {}", w.stderr());
        std::thread::sleep(Duration::from_millis(100));
    }
    std::thread::sleep(Duration::from_secs(4));
    server.start();
    let back = Instant::now();
    // Changes right after the restart: the watch may still be waiting for its next try.
    kubectl(&["label", "configmap", "b", "-n", &ns.0, "step=after"]);
    kubectl(&["delete", "configmap", "c", "-n", &ns.0]);
    configmap(&ns, "d");
    let want = live(&ns);
    // Every object's last event carries its live resourceVersion; c's is DELETED.
    let end = Instant::now() + Duration::from_secs(60);
    let settled = |out: &str| {
        let events: Vec<_> = out.lines().map(event).collect();
        let last = |name: &str| events.iter().rev().find(|e| e.1 == name).cloned();
        want.iter()
            .all(|(n, rv)| last(n).is_some_and(|e| &e.2 == rv && e.0 != "DELETED"))
            && last("c").is_some_and(|e| e.0 == "DELETED")
    };
    while !settled(&w.stdout()) {
        assert!(
            Instant::now() < end,
            "the watch did not catch up with {want:?}: {}\n{}",
            w.stdout(),
            w.stderr()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    tally.command(back.elapsed());
    let out = w.stdout();
    let err = w.stderr();
    eprintln!("{out}\n{err}");
    let events: Vec<_> = out.lines().map(event).collect();
    // No event twice (the same change of the same object at the same resourceVersion; a
    // DELETED found by the re-list carries the last state seen, as the ADDED before it did).
    for (i, e) in events.iter().enumerate() {
        assert!(
            !events[..i].contains(e),
            "printed twice: {e:?} in {events:#?}"
        );
    }
    let lost = want
        .iter()
        .filter(|(n, rv)| !events.iter().any(|e| &e.1 == n && &e.2 == rv))
        .count();
    tally.lost(lost as u32);
    assert_eq!(lost, 0, "{events:#?}");
    assert_eq!(err.matches("is interrupted").count(), 1, "{err}");
    assert_eq!(err.matches("configmaps goes on:").count(), 1, "{err}");
    assert!(
        err.contains("re-listed after 410"),
        "the compaction made the resumed watch re-list: {err}"
    );
    assert_eq!(w.stop("INT"), 0, "{err}");
    tally.survived();
}

/// Regression: a file dropped while the API server was down was never applied (its failed
/// apply was reported per CRD and the file marked done until it changed again). Now the
/// outage is one `unreachable` line, the file is applied once the server answers
/// (`reachable`), and CRDs applied before are not applied again.
#[test]
fn regression_crds_watch_never_applied_a_file_dropped_while_the_apiserver_was_down() {
    control::settle();
    let mut tally = Tally::new(SCENARIO);
    let ns = Namespace::new("chaos-crdw");
    let g = format!("{}.chaos.example.com", ns.0);
    let m = Myops::standard(&ns.0);
    let dir = watched_dir(&m);
    let mut w = Watcher::start(&m, &dir, &[]);
    let slow = Duration::from_secs(60);
    std::fs::write(dir.join("alphas.yaml"), crd(&g, "alphas", "Alpha")).unwrap();
    w.expect("registered", &format!("alphas.{g}"), slow);

    let server = control::stop("kube-apiserver");
    tally.fault();
    std::fs::write(dir.join("betas.yaml"), crd(&g, "betas", "Beta")).unwrap();
    let told = w.expect(
        "unreachable",
        &format!("betas.{g}"),
        Duration::from_secs(20),
    );
    eprintln!("{told}");
    // A second file while the server is still down, and a few silent retries.
    std::fs::write(dir.join("gammas.yaml"), crd(&g, "gammas", "Gamma")).unwrap();
    std::thread::sleep(Duration::from_secs(5));
    server.start();
    let back = Instant::now();
    for p in ["betas", "gammas"] {
        w.expect("registered", &format!("{p}.{g}"), slow);
    }
    tally.command(back.elapsed());
    w.expect("reachable", "answers again", Duration::from_secs(5));
    // Everything the watcher said, to the end.
    std::thread::sleep(Duration::from_secs(1));
    while let Ok(v) = w.lines.try_recv() {
        w.seen.push(v);
    }
    let events: Vec<String> = w
        .seen
        .iter()
        .map(|v| format!("{} {}", v["event"].as_str().unwrap_or("?"), v["crd"]))
        .collect();
    eprintln!("{events:#?}");
    let count = |event: &str| w.seen.iter().filter(|v| v["event"] == event).count();
    assert_eq!(count("unreachable"), 1, "told once: {events:#?}");
    assert_eq!(count("reachable"), 1, "{events:#?}");
    for bad in ["denied", "apply-failed", "refused", "not-ready"] {
        assert_eq!(count(bad), 0, "{bad}: {events:#?}");
    }
    // The directory state was kept: alphas was not applied again after the restart.
    let alphas = w
        .seen
        .iter()
        .filter(|v| v["event"] == "registered" && v["crd"] == format!("alphas.{g}"))
        .count();
    assert_eq!(alphas, 1, "alphas applied again: {events:#?}");
    // Usable by a new process, and nothing left "outcome unknown" in the journal.
    let mut lost = 0;
    for p in ["alphas", "betas", "gammas"] {
        let r = m.run(&["get", &format!("{p}.{g}"), "-n", &ns.0, "-o", "name"]);
        if r.code != 0 {
            lost += 1;
        }
    }
    let unknown = m.run(&["changelog", "list", "--result", "unknown", "-o", "json"]);
    let unknown: Vec<Value> = serde_json::from_str(&unknown.stdout).unwrap_or_default();
    tally.lost(lost + unknown.len() as u32);
    assert_eq!(lost, 0);
    assert!(unknown.is_empty(), "{unknown:#?}");
    assert_eq!(w.stop(), 0);
    tally.survived();
    let _ = kubectl(&[
        "delete",
        "crd",
        &format!("alphas.{g}"),
        &format!("betas.{g}"),
        &format!("gammas.{g}"),
        "--wait=false",
    ]);
}
