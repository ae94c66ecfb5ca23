//! `crds watch [DIR]`: the hot-load loop (docs/watcher.md).
//!
//! File events come from notify and only trigger a rescan, at once when a CRD file was
//! closed after writing or renamed into place, after 25 ms of quiet otherwise (a file still
//! open for writing is waited for, see `files.rs`); [`WatchState::plan`] decides what
//! changed, so every event kind — atomic saves, moves, bursts, the directory itself removed
//! and re-created — takes one path. The parent directory is watched too, so a directory that
//! appears (created, or renamed into place) is picked up.
//!
//! Stopping: SIGINT, SIGTERM and SIGHUP stop the watcher within a second, always.
//! Between batches they stop it at once; during a batch (or a prune) the work in
//! flight gets [`STOP_GRACE`] to finish — an apply is journaled write-ahead, so one cut short
//! reads as "outcome unknown" in the change log, never as a success — and is then abandoned
//! with a warning that says so. File reads never block (only regular files of a bounded size
//! are read, see [`crate::crds::loader::read_file`]), so a FIFO in the directory cannot hold
//! a batch up.
//!
//! Leader election (`--leader-elect`): several watchers on one directory (the
//! replicas of a Deployment) elect one leader through a `coordination.k8s.io/v1` Lease
//! (`guard::election`, `guard::lease`: client-go's algorithm and defaults, 15 s / 10 s /
//! 2 s). Only the leader applies and prunes; every apply and prune checks, right before it is
//! journaled and sent, that this process still holds the Lease by its own clock. Followers
//! keep scanning the directory (reporting bad files) and stand by; a new leader forgets what
//! it knew and reconciles the whole directory. A leader that loses the Lease goes back to
//! standing by rather than exiting (client-go tools usually exit in `OnStoppedLeading`;
//! here nothing in the process outlives a term except the file list, which a new term
//! rebuilds). On SIGTERM/SIGINT a leader releases the Lease (`ReleaseOnCancel`) so a
//! follower takes over at its next retry — unless an apply was abandoned mid-flight, in
//! which case the Lease is left to expire. Lease requests are the tool's own coordination,
//! not user changes: they are not journaled.
//!
//! An API server that stops answering (stopped, restarting, its etcd down) is told once
//! (`unreachable`, naming the CRDs that wait); the directory state is kept, the waiting files
//! are applied again with the backoff of `guard::outage` until the server answers
//! (`reachable`), and files dropped meanwhile are applied then too.
//!
//! `--metrics-addr` serves `/metrics`, `/healthz` and `/readyz` (`metrics::serve`); such a
//! watcher is scraped and does not push to the Pushgateway (the totals are still recorded in
//! MYOPS_HOME, which `/metrics` reads).

mod files;
mod log;
mod stop;
mod worker;

pub use files::DEBOUNCE_MS;
pub use stop::{STOP_BUDGET, STOP_GRACE};
pub use worker::PRUNE_GRACE;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use serde_json::json;
use tokio::sync::watch::Receiver;

use crate::cli::{CrdsWatchArgs, LogFormat};
use crate::config::model::duration_string::parse_go;
use crate::config::{Verb, duration_string};
use crate::crds::{WatchState, check_dir_mode};
use crate::guard::authz::check_boundary;
use crate::guard::election::{Elector, Timing};
use crate::guard::lease::{self, Election, Fence, Leadership, LeaseLock, Observer, Released};
use crate::guard::{Applier, Session, crd_type};
use crate::metrics::serve;
use crate::output::Printer;
use crate::settings::Settings;
use crate::verbs::VerbError;
use files::Files;
use log::Log;
use stop::StopSignals;
use worker::Worker;

/// The leader-election options, parsed and validated (exit 2 when they are bad).
fn election_timing(args: &CrdsWatchArgs) -> Result<Option<Timing>, VerbError> {
    if !args.leader_elect {
        return Ok(None);
    }
    let d =
        |flag: &str, v: &str| parse_go(v).map_err(|e| VerbError::Usage(format!("--{flag}: {e}")));
    let timing = Timing::new(
        d("lease-duration", &args.lease_duration)?,
        d("renew-deadline", &args.renew_deadline)?,
        d("retry-period", &args.retry_period)?,
    )
    .map_err(|e| VerbError::Usage(e.to_string()))?;
    if args.lease_name.is_empty() || args.lease_namespace.as_deref() == Some("") {
        return Err(VerbError::Usage(
            "--lease-name and --lease-namespace must not be empty".into(),
        ));
    }
    // Names the API server can never accept are refused here, before the watcher starts
    // and retries a request that fails the same way forever.
    crate::base::validate::check_subdomain_name("--lease-name", &args.lease_name)
        .map_err(VerbError::Usage)?;
    if let Some(ns) = args.lease_namespace.as_deref() {
        crate::base::validate::check_namespace(ns)
            .map_err(|e| VerbError::Usage(format!("--lease-namespace: {e}")))?;
    }
    Ok(Some(timing))
}

/// Runs the watcher until SIGINT or SIGTERM.
///
/// # Errors
/// Usage errors (exit 2) for a bad directory, timeout, lease timing or `--metrics-addr`;
/// exit 3 when RBAC denies the Lease; a failure to start watching or to listen on
/// `--metrics-addr` (exit 1). Per-file and per-CRD problems are logged, never returned.
pub async fn run(s: &Settings, args: &CrdsWatchArgs, p: &mut Printer<'_>) -> Result<(), VerbError> {
    let timeout = duration_string::parse(&args.timeout)
        .map_err(|e| VerbError::Usage(format!("--timeout: {e}")))?;
    let timing = election_timing(args)?;
    let metrics_addr = args
        .metrics_addr
        .as_deref()
        .map(serve::parse_addr)
        .transpose()
        .map_err(|e| VerbError::Usage(e.to_string()))?;
    check_boundary(&s.plugin, &[], Verb::Patch, &crd_type(), false)?;
    let dir = absolute(&s.crd_dir(args.dir.as_deref()));
    let parent = watched_parent(&dir)?;
    // Bound before anything is started: a port in use fails the command at once.
    let listener = match metrics_addr {
        Some(a) => Some(serve::bind(a).await.map_err(VerbError::io)?),
        None => None,
    };
    // A scraped watcher does not push (the totals are still recorded where /metrics reads them).
    let scraped;
    let s = if listener.is_some() {
        scraped = Settings {
            push_target: None,
            ..s.clone()
        };
        &scraped
    } else {
        s
    };
    let session = Session::open(s, p, Verb::Patch).await?;
    // In a cluster, its MYOPS_HOME is an emptyDir: every record also goes to stdout for the
    // cluster's log pipeline (docs/team.md), and stdout then holds JSON lines only.
    let records = s.plugin.changelog.stdout.unwrap_or(session.in_cluster());
    session.records_to_stdout(records);
    let log = Log {
        records,
        json: args.log_format == LogFormat::Json,
        verbose: s.verbose,
    };
    let election = match timing {
        Some(timing) => Some(start_election(&session, args, timing).await?),
        None => None,
    };
    let mut leadership = election.as_ref().map(|(e, _)| e.subscribe());
    let mut applier = Applier::new(&session, args.force_conflicts, timeout);
    if let Some(rx) = &leadership {
        applier = applier.with_fence(Fence::new(rx.clone()));
    }
    let mut w = Worker {
        settings: s,
        applier,
        state: WatchState::default(),
        log,
        prune: args.prune,
        pending_prune: Default::default(),
        dir: dir.clone(),
        abandoned: false,
        outage: None,
        retry_at: None,
    };
    let endpoint = match listener {
        Some(l) => Some(serve_metrics(l, s, leadership.clone(), &w.log, p)?),
        None => None,
    };
    let mut files = Files::start(&dir, parent)?;
    let mut signals = StopSignals::install()?;

    let note = if dir.is_dir() {
        ""
    } else {
        " (it does not exist yet; waiting for it)"
    };
    w.log.emit(
        p,
        "info",
        "watching",
        &format!("watching {}{note}", dir.display()),
        json!({"dir": dir}),
    );
    let lease_name = election
        .as_ref()
        .map(|(_, l)| l.describe())
        .unwrap_or_default();
    let elected = election.is_some();
    let mut follow = Follow {
        files: &mut files,
        signals: &mut signals,
        leadership: &mut leadership,
        elected,
        lease_name: &lease_name,
    };
    follow.run(&mut w, p).await;
    shut_down(&w, election, &signals, &lease_name, p).await;
    if let Some(task) = endpoint {
        task.abort();
    }
    w.log.emit(p, "info", "stopped", "stopped", json!({}));
    Ok(())
}

/// The parent of the CRD directory, which is watched so that the directory may appear
/// later.
///
/// # Errors
/// A usage error when `dir` has a mode the loader refuses, is not a directory, or has no
/// parent directory.
fn watched_parent(dir: &Path) -> Result<&Path, VerbError> {
    check_dir_mode(dir).map_err(VerbError::Usage)?;
    if dir.exists() && !dir.is_dir() {
        return Err(VerbError::Usage(format!(
            "{} is not a directory; pass the directory that holds the CRD files",
            dir.display()
        )));
    }
    dir.parent().filter(|p| p.is_dir()).ok_or_else(|| {
        VerbError::Usage(format!(
            "cannot watch {}: its parent directory does not exist; create it first",
            dir.display()
        ))
    })
}

/// Checks access to the Lease of `--lease-name` in `--lease-namespace` (default: the
/// session's namespace) and starts the election.
///
/// # Errors
/// Exit 3 when RBAC denies the Lease, the review's own failures (1).
async fn start_election(
    session: &Session<'_>,
    args: &CrdsWatchArgs,
    timing: Timing,
) -> Result<(Election, LeaseLock), VerbError> {
    let ns = args
        .lease_namespace
        .clone()
        .unwrap_or_else(|| session.namespace().to_string());
    lease::check_access(session, &ns, &args.lease_name).await?;
    let lock = LeaseLock::new(session, &ns, &args.lease_name);
    let elector = Elector::new(lease::identity(session.id()), timing);
    Ok((Election::start(lock.clone(), elector), lock))
}

/// Serves `/metrics`, `/healthz` and `/readyz` on `l` (ready: always, or while this process
/// may lead when elected) and logs where.
///
/// # Errors
/// [`VerbError::Io`] when the endpoint cannot start.
fn serve_metrics(
    l: tokio::net::TcpListener,
    s: &Settings,
    leadership: Option<Receiver<Leadership>>,
    log: &Log,
    p: &mut Printer<'_>,
) -> Result<tokio::task::JoinHandle<()>, VerbError> {
    let ready: Arc<dyn Fn() -> bool + Send + Sync> = match leadership {
        Some(rx) => Arc::new(move || rx.borrow().ready(Instant::now())),
        None => Arc::new(|| true),
    };
    let source = serve::Source {
        home: s.home.clone(),
        families: s.plugin.metrics.clone(),
        ready,
    };
    let (bound, task) = serve::serve(l, source).map_err(VerbError::io)?;
    log.emit(
        p,
        "info",
        "metrics-endpoint",
        &format!("serving /metrics, /healthz and /readyz on http://{bound}"),
        json!({"addr": bound.to_string()}),
    );
    Ok(task)
}

/// What the event loop waits on besides the worker.
struct Follow<'a, 'r> {
    files: &'a mut Files,
    signals: &'a mut StopSignals,
    /// The election's state; `None` without leader election or once the election ended.
    leadership: &'a mut Option<Receiver<Leadership>>,
    /// `--leader-elect` was given.
    elected: bool,
    /// `namespace/name` of the Lease (empty without leader election).
    lease_name: &'r str,
}

impl Follow<'_, '_> {
    /// The event loop, until a stop signal or the end of the file watcher: file events,
    /// retries of what waits for the server, due prunes and leadership changes, each
    /// handled by the worker (a follower only stands by).
    async fn run(&mut self, w: &mut Worker<'_>, p: &mut Printer<'_>) {
        let elected = self.elected;
        let mut observer = Observer::default();
        // Without leader election this process is the only applier.
        let mut stopped = if elected {
            // A follower-to-be reports bad files at once; the leader reconciles when elected.
            w.stand_by(p);
            false
        } else {
            w.batch(p, None, self.signals).await
        };
        let leads = |o: &Observer| !elected || o.leading();
        while !stopped {
            // The renew deadline ends a term on the clock alone: wake for it.
            let term_end = self
                .leadership
                .as_ref()
                .and_then(|r| r.borrow().leading_until)
                .filter(|_| observer.leading());
            tokio::select! {
                ev = self.files.recv() => {
                    let Some(ev) = ev else { break };
                    let Some(first) = self.files.first_relevant(ev, &w.log, p) else { continue };
                    if leads(&observer) {
                        stopped = w.batch(p, Some(first), self.signals).await;
                    } else {
                        w.stand_by(p);
                    }
                }
                _ = tokio::time::sleep_until(w.retry_at.unwrap_or_else(Instant::now).into()), if w.retry_at.is_some() && leads(&observer) => {
                    w.retry_at = None;
                    stopped = w.batch(p, None, self.signals).await;
                }
                _ = tokio::time::sleep_until(w.next_prune().into()), if !w.pending_prune.is_empty() && leads(&observer) => {
                    stopped = w.prune_due(p, self.signals).await;
                }
                changed = async {
                    match self.leadership.as_mut() {
                        Some(r) => r.changed().await.is_ok(),
                        None => std::future::pending().await,
                    }
                } => {
                    if !changed {
                        // The election task ended (it never does before a stop): no leadership.
                        *self.leadership = None;
                        w.log.emit(p, "error", "lease-error", "leader election stopped unexpectedly; not applying anything until restarted", json!({}));
                        continue;
                    }
                    stopped = w.leadership(p, &mut observer, self.leadership.as_ref(), self.lease_name, self.signals).await;
                }
                _ = tokio::time::sleep_until(term_end.unwrap_or_else(Instant::now).into()), if term_end.is_some() => {
                    stopped = w.leadership(p, &mut observer, self.leadership.as_ref(), self.lease_name, self.signals).await;
                }
                _ = self.signals.recv() => break,
            }
        }
    }
}

/// The end of a run: says which prunes were cancelled and, when elected, releases the Lease
/// (`ReleaseOnCancel`) within what is left of [`STOP_BUDGET`] — unless an apply may still be
/// on the wire, when another leader must not start before the Lease expires.
async fn shut_down(
    w: &Worker<'_>,
    election: Option<(Election, LeaseLock)>,
    signals: &StopSignals,
    lease_name: &str,
    p: &mut Printer<'_>,
) {
    if !w.pending_prune.is_empty() {
        let names: Vec<&String> = w.pending_prune.keys().collect();
        w.log.emit(
            p,
            "info",
            "prune-cancelled",
            &format!("not pruned (stopped first): {names:?}"),
            json!({"crds": names}),
        );
    }
    let Some((election, _)) = election else {
        return;
    };
    let left = signals
        .at
        .map(|at| (at + STOP_BUDGET).saturating_duration_since(Instant::now()))
        .unwrap_or(STOP_BUDGET);
    let bound = (!w.abandoned && !left.is_zero()).then_some(left);
    match election.stop(bound).await {
        Released::Released => w.log.emit(
            p,
            "info",
            "released",
            &format!("released the Lease {lease_name}; a follower takes over at once"),
            json!({"lease": lease_name}),
        ),
        Released::NotLeader => {}
        Released::Failed(why) => w.log.emit(
            p,
            "warning",
            "not-released",
            &format!("did not release the Lease {lease_name} ({why}); it expires by itself"),
            json!({"lease": lease_name}),
        ),
    }
}

/// `p` made absolute against the current directory (as it is when it cannot be read).
fn absolute(p: &Path) -> PathBuf {
    if p.is_absolute() {
        p.to_path_buf()
    } else {
        std::env::current_dir()
            .map(|d| d.join(p))
            .unwrap_or_else(|_| p.to_path_buf())
    }
}
