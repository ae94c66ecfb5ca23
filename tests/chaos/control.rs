//! Stopping and starting one component of the chaos cluster — `scripts/cluster stop NAME` and
//! `start NAME`, which restart it with the command line `up` gave it — and waiting until the
//! cluster answers again. Only a cluster named by `MYOPS_TESTCLUSTER` (the one scripts/chaos
//! starts) can be stopped: the script refuses the shared target/testcluster.

use std::process::Command;
use std::time::{Duration, Instant};

use crate::fixture::{cluster, cluster_var, kubectl_at, root, text_of};

/// How long a restarted kube-apiserver or etcd may take until `/readyz` answers ok (the
/// apiserver's own start takes 10–30 s on a busy 2-core machine).
pub const READY_WITHIN: Duration = Duration::from_secs(180);

/// Runs `scripts/cluster ARGS`; the error names what failed.
fn cluster_script(args: &[&str]) -> Result<(), String> {
    let out = Command::new(root().join("scripts/cluster"))
        .args(args)
        .output()
        .map_err(|e| format!("scripts/cluster does not run: {e}"))?;
    if out.status.success() {
        return Ok(());
    }
    Err(format!(
        "scripts/cluster {args:?} failed (is MYOPS_TESTCLUSTER set? run the suite with scripts/chaos): {}",
        text_of(&out.stderr)
    ))
}

/// A stopped component; started again (and waited for) by [`Stopped::start`], or when
/// dropped — so a failing scenario never leaves the next one a broken cluster.
#[must_use = "the component is started again when this is dropped"]
pub struct Stopped {
    name: &'static str,
    /// When it was stopped.
    pub at: Instant,
    running: bool,
}

/// Stops `name` (`kube-apiserver`, `etcd`, …): SIGTERM, then SIGKILL after 10 s; returns once
/// the process is gone.
pub fn stop(name: &'static str) -> Stopped {
    cluster();
    cluster_script(&["stop", name]).unwrap_or_else(|e| panic!("{e}"));
    Stopped {
        name,
        at: Instant::now(),
        running: false,
    }
}

impl Stopped {
    /// Starts it again with its recorded command line and waits until the API server's
    /// `/readyz` answers ok; returns how long the component was down.
    pub fn start(mut self) -> Duration {
        self.running = true;
        cluster_script(&["start", self.name]).unwrap_or_else(|e| panic!("{e}"));
        wait_ready(READY_WITHIN);
        self.at.elapsed()
    }
}

impl Drop for Stopped {
    fn drop(&mut self) {
        // Never panics (a second panic while a failing test unwinds would abort the run).
        if !self.running {
            self.running = true;
            if let Err(e) = cluster_script(&["start", self.name]) {
                eprintln!("{e}");
                return;
            }
            let end = Instant::now() + READY_WITHIN;
            while !ready() && Instant::now() < end {
                std::thread::sleep(Duration::from_millis(250));
            }
        }
    }
}

/// Whether the API server answers `/readyz` with ok and serves a read from etcd now. The read
/// matters: after etcd comes back, `/readyz` (its own etcd client) says ok while the storage
/// client may still be in gRPC's reconnect backoff for a minute.
pub fn ready() -> bool {
    // Not `cluster()`: its first call insists that the server is ready.
    let kubeconfig = std::path::PathBuf::from(cluster_var("KUBECONFIG"));
    let kubectl = |args: &[&str]| kubectl_at(&kubeconfig, args);
    let out = kubectl(&["get", "--raw", "/readyz", "--request-timeout", "2s"]);
    out.status.success()
        && text_of(&out.stdout).trim() == "ok"
        && kubectl(&["get", "namespace", "default", "--request-timeout", "2s"])
            .status
            .success()
}

/// Waits until the chaos cluster is [`ready`] (a scenario before may just have restarted
/// a component); call it first in every scenario.
pub fn settle() {
    wait_ready(READY_WITHIN);
}

/// Waits until [`ready`], at most `within`; panics naming the component logs otherwise.
pub fn wait_ready(within: Duration) {
    let end = Instant::now() + within;
    while !ready() {
        assert!(
            Instant::now() < end,
            "the chaos cluster is not ready within {within:?}; see {}/logs",
            crate::fixture::cluster_dir().display()
        );
        std::thread::sleep(Duration::from_millis(250));
    }
}
