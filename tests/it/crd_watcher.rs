//! A running `crds watch` for tests: started with JSON log lines (`--log-format json -v`)
//! read on a thread, waited for by event, stopped by signal with a diagnosis when it hangs.
//! Shared by the integration tests (tests/it/watch.rs and others) and the fault-injection
//! suite (tests/chaos/apiserver_restart.rs).

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::fixture::Myops;

/// A CRD of a test's own (CRDs are cluster-wide; unique groups keep tests independent).
pub fn crd(group: &str, plural: &str, kind: &str) -> String {
    format!(
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: {plural}.{group}\nspec:\n  group: {group}\n  scope: Namespaced\n  names: {{plural: {plural}, singular: {s}, kind: {kind}}}\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec: {{type: object, x-kubernetes-preserve-unknown-fields: true}}\n",
        s = kind.to_lowercase()
    )
}

/// A running watcher whose JSON log lines arrive on a channel.
pub struct Watcher {
    pub child: Child,
    pub lines: Receiver<Value>,
    /// Lines received and not yet matched by `expect` (events of one batch may come in any order).
    pub pending: Vec<Value>,
    /// Every line received, for failure messages.
    pub seen: Vec<Value>,
}

impl Watcher {
    pub fn start(m: &Myops, dir: &Path, extra: &[&str]) -> Watcher {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kubectl-myops"))
            .args([
                "crds",
                "watch",
                dir.to_str().unwrap(),
                "--log-format",
                "json",
                "-v",
            ])
            .args(extra)
            .env_clear()
            .envs(m.env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("watcher starts");
        let out = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                let v: Value = serde_json::from_str(&line)
                    .unwrap_or_else(|_| panic!("not a JSON log line: {line}"));
                if tx.send(v).is_err() {
                    break;
                }
            }
        });
        let mut w = Watcher {
            child,
            lines,
            pending: Vec::new(),
            seen: Vec::new(),
        };
        w.expect("watching", "", Duration::from_secs(20));
        w
    }

    /// Waits for a log line with `event` whose `crd`, `file` or message contains `what`
    /// (an earlier, unmatched line counts: events of one batch come in any order).
    pub fn expect(&mut self, event: &str, what: &str, timeout: Duration) -> Value {
        let matches = |v: &Value| {
            v["event"] == event
                && format!("{} {} {}", v["crd"], v["file"], v["message"]).contains(what)
        };
        if let Some(i) = self.pending.iter().position(matches) {
            return self.pending.remove(i);
        }
        let end = Instant::now() + timeout;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(v) => {
                    self.seen.push(v.clone());
                    if matches(&v) {
                        return v;
                    }
                    self.pending.push(v);
                }
                Err(_) => panic!(
                    "no {event} for {what:?} within {timeout:?}; log so far: {:#?}",
                    self.seen
                ),
            }
        }
    }

    /// Stops with SIGINT and returns the exit code.
    pub fn stop(mut self) -> i32 {
        self.signal_and_wait("INT")
    }

    /// Sends `signal` (a `kill` name: `INT`, `TERM`, …) and waits up to 20 s for the exit;
    /// returns the exit code (-1 when killed by a signal). On a timeout the failure names
    /// what the process was doing: its last log lines and, per thread, the state and kernel
    /// wait channel from /proc (a watcher that does not stop is a hang to be diagnosed, not
    /// retried).
    pub fn signal_and_wait(&mut self, signal: &str) -> i32 {
        let pid = self.child.id();
        let _ = Command::new("kill")
            .args([&format!("-{signal}"), &pid.to_string()])
            .status();
        let end = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                return s.code().unwrap_or(-1);
            }
            if Instant::now() >= end {
                while let Ok(v) = self.lines.try_recv() {
                    self.seen.push(v);
                }
                let last: Vec<&Value> = self.seen.iter().rev().take(8).rev().collect();
                panic!(
                    "watcher did not stop within 20 s of SIG{signal}; threads: {}; last log lines: {last:#?}",
                    threads_of(pid)
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// Each thread of `pid`: name, state and kernel wait channel (and the kernel stack when
/// readable), for a hang's failure message.
pub fn threads_of(pid: u32) -> String {
    let read = |p: String| std::fs::read_to_string(p).unwrap_or_default();
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return "gone".into();
    };
    tasks
        .flatten()
        .map(|t| {
            let dir = t.path().display().to_string();
            let stat = read(format!("{dir}/stat"));
            let state = stat
                .rsplit(')')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .next()
                .unwrap_or("?")
                .to_string();
            format!(
                "[{} {state} wchan={} stack={:?}]",
                read(format!("{dir}/comm")).trim(),
                read(format!("{dir}/wchan")),
                read(format!("{dir}/stack"))
                    .lines()
                    .take(6)
                    .collect::<Vec<_>>()
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

impl Drop for Watcher {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn watched_dir(m: &Myops) -> PathBuf {
    let d = m.dir.path().join("crds");
    std::fs::create_dir(&d).unwrap();
    d
}
