//! `crds watch [DIR]`: the hot-load loop (ARCHITECTURE §5).
//!
//! File events come from notify through a debouncer (25 ms of quiet) and only trigger a
//! rescan; [`WatchState::plan`] decides what changed, so every event kind — atomic saves,
//! moves, bursts, the directory itself removed and re-created — takes one path. The parent
//! directory is watched too, so a directory that appears (created, or renamed into place)
//! is picked up.
//!
//! Stopping: SIGINT, SIGTERM and SIGHUP stop the watcher within a second, always (issue 10,
//! class 3). Between batches they stop it at once; during a batch (or a prune) the work in
//! flight gets [`STOP_GRACE`] to finish — an apply is journaled write-ahead, so one cut short
//! reads as "outcome unknown" in the change log, never as a success — and is then abandoned
//! with a warning that says so. File reads never block (only regular files of a bounded size
//! are read, see [`crate::crds::loader::read_file`]), so a FIFO in the directory cannot hold
//! a batch up.
//!
//! Leader election (`--leader-elect`, issue 13): several watchers on one directory (the
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
//! (`reachable`), and files dropped meanwhile are applied then too (issue 17).
//!
//! `--metrics-addr` serves `/metrics`, `/healthz` and `/readyz` (`metrics::serve`); such a
//! watcher is scraped and does not push to the Pushgateway (the totals are still recorded in
//! MYOPS_HOME, which `/metrics` reads).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use notify::RecursiveMode;
use notify_debouncer_full::{DebounceEventResult, new_debouncer};
use serde_json::json;
use tokio::signal::unix::{SignalKind, signal};

use crate::authz::check_boundary;
use crate::cli::{CrdsWatchArgs, LogFormat};
use crate::config::model::duration_string::parse_go;
use crate::config::{Verb, duration_string};
use crate::crds::{Action, WatchState, check_dir_mode, scan};
use crate::guard::election::{Elector, Timing};
use crate::guard::lease::{
    self, Change, Election, Fence, Leadership, LeaseLock, Observer, Released,
};
use crate::guard::outage::Outage;
use crate::guard::{Applier, ApplyError, Event, Session, crd_type, run_batch};
use crate::metrics::serve;
use crate::output::Printer;
use crate::settings::Settings;
use crate::verbs::VerbError;

/// Quiet time before a burst of file events is handled, in milliseconds: long enough to
/// merge an editor's write-temp-then-rename, short enough for the ≤ 60 ms watcher share.
pub const DEBOUNCE_MS: u64 = 25;

/// How long work in flight (a batch, a prune) may still run after a stop signal, so that
/// the watcher exits within one second of SIGINT/SIGTERM whatever the cluster does.
pub const STOP_GRACE: Duration = Duration::from_millis(800);

/// The stop signals: SIGTERM, SIGINT, and SIGHUP (a closed terminal).
struct StopSignals {
    term: tokio::signal::unix::Signal,
    int: tokio::signal::unix::Signal,
    hup: tokio::signal::unix::Signal,
    /// When the first stop signal came.
    at: Option<Instant>,
}

impl StopSignals {
    /// Installs the handlers (from then on these signals no longer kill the process: they
    /// must be polled, which [`StopSignals::recv`] does).
    fn install() -> Result<StopSignals, VerbError> {
        let one = |kind: SignalKind, name: &str| {
            signal(kind).map_err(|e| VerbError::io(format!("cannot handle {name}: {e}")))
        };
        Ok(StopSignals {
            term: one(SignalKind::terminate(), "SIGTERM")?,
            int: one(SignalKind::interrupt(), "SIGINT")?,
            hup: one(SignalKind::hangup(), "SIGHUP")?,
            at: None,
        })
    }

    /// Waits for any of them.
    async fn recv(&mut self) {
        tokio::select! {
            _ = self.term.recv() => {}
            _ = self.int.recv() => {}
            _ = self.hup.recv() => {}
        }
        self.at.get_or_insert_with(Instant::now);
    }
}

/// How a batch raced against the stop signals ended.
enum Raced<T> {
    /// It finished; no signal came.
    Done(T),
    /// A signal came and the work finished within [`STOP_GRACE`].
    StoppedAfter(T),
    /// A signal came and the work was abandoned after [`STOP_GRACE`].
    StoppedDuring,
}

/// Runs `work` until it finishes or, once a stop signal has come, for at most [`STOP_GRACE`].
async fn race<T>(
    work: impl std::future::Future<Output = T>,
    signals: &mut StopSignals,
) -> Raced<T> {
    tokio::pin!(work);
    tokio::select! {
        done = &mut work => Raced::Done(done),
        _ = signals.recv() => match tokio::time::timeout(STOP_GRACE, &mut work).await {
            Ok(done) => Raced::StoppedAfter(done),
            Err(_) => Raced::StoppedDuring,
        },
    }
}

/// One line per event and outcome, as text or JSON.
struct Log {
    json: bool,
    verbose: u8,
}

impl Log {
    fn emit(
        &self,
        p: &mut Printer<'_>,
        level: &str,
        event: &str,
        text: &str,
        fields: serde_json::Value,
    ) {
        if level == "debug" && self.verbose == 0 {
            return;
        }
        if !self.json && matches!(level, "error" | "warning") {
            let prefix = if level == "error" { "error: " } else { "" };
            p.err_line(&format!("{prefix}{text}"));
            return;
        }
        let line = if self.json {
            let mut obj = json!({"time": crate::changelog::now_rfc3339(), "level": level, "event": event, "message": text});
            if let (Some(o), Some(f)) = (obj.as_object_mut(), fields.as_object()) {
                o.extend(f.clone());
            }
            obj.to_string()
        } else if level == "error" {
            format!("error: {text}")
        } else {
            text.to_string()
        };
        let _ = p.out(&format!("{line}\n"));
        let _ = p.flush();
    }
}

/// Everything spent on stopping after a signal, release of the Lease included, stays under
/// this bound (the one-second promise of issue 10).
pub const STOP_BUDGET: Duration = Duration::from_millis(850);

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
    check_dir_mode(&dir).map_err(VerbError::Usage)?;
    if dir.exists() && !dir.is_dir() {
        return Err(VerbError::Usage(format!(
            "{} is not a directory; pass the directory that holds the CRD files",
            dir.display()
        )));
    }
    let parent = dir.parent().filter(|p| p.is_dir()).ok_or_else(|| {
        VerbError::Usage(format!(
            "cannot watch {}: its parent directory does not exist; create it first",
            dir.display()
        ))
    })?;
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
    let log = Log {
        json: args.log_format == LogFormat::Json,
        verbose: s.verbose,
    };
    let election = match timing {
        Some(timing) => {
            let ns = args
                .lease_namespace
                .clone()
                .unwrap_or_else(|| session.namespace().to_string());
            lease::check_access(&session, &ns, &args.lease_name).await?;
            let lock = LeaseLock::new(&session, &ns, &args.lease_name);
            let elector = Elector::new(lease::identity(session.id()), timing);
            Some((Election::start(lock.clone(), elector), lock))
        }
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
        Some(l) => {
            let ready: Arc<dyn Fn() -> bool + Send + Sync> = match leadership.clone() {
                Some(rx) => Arc::new(move || rx.borrow().ready(Instant::now())),
                None => Arc::new(|| true),
            };
            let source = serve::Source {
                home: s.home.clone(),
                families: s.plugin.metrics.clone(),
                ready,
            };
            let (bound, task) = serve::serve(l, source).map_err(VerbError::io)?;
            w.log.emit(
                p,
                "info",
                "metrics-endpoint",
                &format!("serving /metrics, /healthz and /readyz on http://{bound}"),
                json!({"addr": bound.to_string()}),
            );
            Some(task)
        }
        None => None,
    };

    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<DebounceEventResult>();
    let mut debouncer = new_debouncer(Duration::from_millis(DEBOUNCE_MS), None, move |r| {
        let _ = tx.send(r);
    })
    .map_err(|e| VerbError::io(format!("cannot start the file watcher: {e}")))?;
    debouncer
        .watch(parent, RecursiveMode::NonRecursive)
        .map_err(|e| VerbError::io(format!("cannot watch {}: {e}", parent.display())))?;
    let mut watching_dir =
        dir.is_dir() && debouncer.watch(&dir, RecursiveMode::NonRecursive).is_ok();
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
    let mut observer = Observer::default();
    // Without leader election this process is the only applier, as before.
    let mut stopped = if election.is_none() {
        w.batch(p, None, &mut signals).await
    } else {
        // A follower-to-be reports bad files at once; the leader reconciles when elected.
        w.stand_by(p);
        false
    };
    let leads = |o: &Observer| election.is_none() || o.leading();
    while !stopped {
        // The renew deadline ends a term on the clock alone: wake for it.
        let term_end = leadership
            .as_ref()
            .and_then(|r| r.borrow().leading_until)
            .filter(|_| observer.leading());
        tokio::select! {
            ev = rx.recv() => {
                let Some(ev) = ev else { break };
                let events = match ev {
                    Ok(events) => events,
                    Err(errors) => {
                        for e in errors {
                            w.log.emit(p, "error", "watch-error", &format!("file watcher: {e}"), json!({}));
                        }
                        continue;
                    }
                };
                // Reads (our own rescans among them) are Access events: ignoring them keeps a
                // rescan from triggering the next one.
                let relevant: Vec<_> = events
                    .iter()
                    .filter(|e| !matches!(e.kind, notify::EventKind::Access(_)))
                    .filter(|e| e.paths.iter().any(|p| p.starts_with(&dir)))
                    .collect();
                let Some(first) = relevant.iter().map(|e| e.time).min() else { continue };
                if dir.is_dir() && !watching_dir {
                    let _ = debouncer.unwatch(&dir);
                    watching_dir = debouncer.watch(&dir, RecursiveMode::NonRecursive).is_ok();
                } else if !dir.is_dir() {
                    watching_dir = false;
                }
                w.log.emit(p, "debug", "events", &format!("{} file event(s)", relevant.len()), json!({"count": relevant.len()}));
                if leads(&observer) {
                    stopped = w.batch(p, Some(first), &mut signals).await;
                } else {
                    w.stand_by(p);
                }
            }
            _ = tokio::time::sleep_until(w.retry_at.unwrap_or_else(Instant::now).into()), if w.retry_at.is_some() && leads(&observer) => {
                w.retry_at = None;
                stopped = w.batch(p, None, &mut signals).await;
            }
            _ = tokio::time::sleep_until(w.next_prune().into()), if !w.pending_prune.is_empty() && leads(&observer) => {
                stopped = w.prune_due(p, &mut signals).await;
            }
            changed = async {
                match leadership.as_mut() {
                    Some(r) => r.changed().await.is_ok(),
                    None => std::future::pending().await,
                }
            } => {
                if !changed {
                    // The election task ended (it never does before a stop): no leadership.
                    leadership = None;
                    w.log.emit(p, "error", "lease-error", "leader election stopped unexpectedly; not applying anything until restarted", json!({}));
                    continue;
                }
                stopped = w.leadership(p, &mut observer, leadership.as_ref(), &lease_name, &mut signals).await;
            }
            _ = tokio::time::sleep_until(term_end.unwrap_or_else(Instant::now).into()), if term_end.is_some() => {
                stopped = w.leadership(p, &mut observer, leadership.as_ref(), &lease_name, &mut signals).await;
            }
            _ = signals.recv() => break,
        }
    }
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
    if let Some((election, _)) = election {
        // ReleaseOnCancel, within what is left of the stop budget — unless an apply may still
        // be on the wire, when another leader must not start before the Lease expires.
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
    if let Some(task) = endpoint {
        task.abort();
    }
    w.log.emit(p, "info", "stopped", "stopped", json!({}));
    Ok(())
}

/// How long a CRD whose file disappeared waits before `--prune` deletes it: an editor that
/// renames the file away and writes the new one later, or a file moved out and back, must
/// not cost every custom resource of the CRD.
pub const PRUNE_GRACE: Duration = Duration::from_secs(2);

struct Worker<'a> {
    settings: &'a Settings,
    applier: Applier<'a>,
    state: WatchState,
    log: Log,
    prune: bool,
    /// CRD name → when it may be pruned, if no file defines it again by then.
    pending_prune: std::collections::BTreeMap<String, Instant>,
    dir: PathBuf,
    /// Work was abandoned after a stop signal (an apply may still be on the wire).
    abandoned: bool,
    /// Set while the API server does not answer (issue 17): told once, not per CRD.
    outage: Option<Outage>,
    /// When to apply the CRDs that wait for the server ([`WatchState::retry`]) again.
    retry_at: Option<Instant>,
}

impl Worker<'_> {
    /// When the next pending prune is due.
    fn next_prune(&self) -> Instant {
        self.pending_prune
            .values()
            .min()
            .copied()
            .unwrap_or_else(|| Instant::now() + PRUNE_GRACE)
    }

    /// Prunes the CRDs whose grace period is over and that no file defines again; true when a
    /// stop signal came meanwhile (the prune in flight got [`STOP_GRACE`] to finish).
    async fn prune_due(&mut self, p: &mut Printer<'_>, signals: &mut StopSignals) -> bool {
        let now = Instant::now();
        let due: Vec<String> = self
            .pending_prune
            .iter()
            .filter(|(_, t)| **t <= now)
            .map(|(n, _)| n.clone())
            .collect();
        for name in due {
            self.pending_prune.remove(&name);
            if self.state.owners().contains_key(&name) {
                continue;
            }
            let (outcome, stopped) = match race(self.applier.prune(&name), signals).await {
                Raced::Done(r) => (r, false),
                Raced::StoppedAfter(r) => (r, true),
                Raced::StoppedDuring => {
                    self.log.emit(
                        p,
                        "warning",
                        "prune-abandoned",
                        &format!(
                            "stopped while pruning {name}: it may or may not be deleted; check with `kubectl myops crds list` and `kubectl myops changelog list`"
                        ),
                        json!({"crd": name}),
                    );
                    self.abandoned = true;
                    return true;
                }
            };
            match outcome {
                Ok(true) => self.log.emit(
                    p,
                    "info",
                    "pruned",
                    &format!("pruned {name} from the cluster"),
                    json!({"crd": name}),
                ),
                Ok(false) => self.log.emit(
                    p,
                    "info",
                    "not-pruned",
                    &format!("left {name} on the cluster: not applied by kubectl-myops"),
                    json!({"crd": name}),
                ),
                Err(e) => self.log.emit(
                    p,
                    "error",
                    "prune-failed",
                    &e.to_string(),
                    json!({"crd": name}),
                ),
            }
            if stopped {
                return true;
            }
        }
        false
    }

    /// One batch of the shared batch function (rescan, plan, check access, apply, wait,
    /// record and push `crd_*` metrics), then one log line per event. `event` is when the
    /// first file event of the batch happened (for the watcher's share of the latency).
    /// True when a stop signal came meanwhile: the batch got [`STOP_GRACE`] to finish, and
    /// was abandoned (with a warning saying what that means) if it did not.
    async fn batch(
        &mut self,
        p: &mut Printer<'_>,
        event: Option<Instant>,
        signals: &mut StopSignals,
    ) -> bool {
        let work = run_batch(
            &self.applier,
            self.settings,
            &mut self.state,
            &self.dir,
            event,
        );
        let (events, stopped) = match race(work, signals).await {
            Raced::Done(events) => (events, false),
            Raced::StoppedAfter(events) => (events, true),
            Raced::StoppedDuring => {
                self.log.emit(
                    p,
                    "warning",
                    "batch-abandoned",
                    "stopped during a batch: CRDs being applied may or may not be registered; run `kubectl myops crds sync` to finish, and see `kubectl myops changelog list` for outcomes marked unknown",
                    json!({}),
                );
                self.abandoned = true;
                return true;
            }
        };
        // CRDs the server did not answer for wait for it, silently: the outage is one line.
        let mut waiting: Vec<String> = Vec::new();
        let mut cause: Option<String> = None;
        let mut answered = false;
        for e in events {
            match &e {
                Event::Refusal { crds, error } if error.is_transient() => {
                    for c in crds {
                        self.state.retry(&c.file);
                        waiting.push(c.name.clone());
                    }
                    cause = cause.or_else(|| error.transient().map(|e| e.to_string()));
                }
                Event::Failed { crd, error } if error.is_transient() => {
                    self.state.retry(&crd.file);
                    waiting.push(crd.name.clone());
                    cause = cause.or_else(|| error.transient().map(|e| e.to_string()));
                }
                Event::Registered { .. } | Event::Refusal { .. } | Event::Failed { .. } => {
                    answered = true;
                    self.report(p, e);
                }
                _ => self.report(p, e),
            }
        }
        self.track_outage(p, waiting, cause, answered);
        stopped
    }

    /// After a batch: the first batch the server did not answer starts an outage (one error
    /// line naming the CRDs that wait), every such batch schedules the next try (backoff of
    /// [`Outage`]); the first answer after it ends the outage (one line).
    fn track_outage(
        &mut self,
        p: &mut Printer<'_>,
        waiting: Vec<String>,
        cause: Option<String>,
        answered: bool,
    ) {
        match (cause, self.outage.as_mut()) {
            (Some(cause), None) => {
                let mut o = Outage::begin();
                self.retry_at = Some(Instant::now() + o.next_wait());
                self.outage = Some(o);
                self.log.emit(
                    p,
                    "error",
                    "unreachable",
                    &format!(
                        "{cause}; {} CRD(s) wait ({}) and are applied when the API server answers again",
                        waiting.len(),
                        waiting.join(", ")
                    ),
                    json!({"crds": waiting}),
                );
            }
            (Some(_), Some(o)) => {
                self.retry_at = Some(Instant::now() + o.next_wait());
                self.log.emit(
                    p,
                    "debug",
                    "still-unreachable",
                    &format!(
                        "the API server still does not answer ({:.0}s); {} CRD(s) wait",
                        o.lasted().as_secs_f64(),
                        waiting.len()
                    ),
                    json!({"crds": waiting}),
                );
            }
            (None, Some(o)) if answered => {
                let lasted = o.lasted();
                self.outage = None;
                self.retry_at = None;
                self.log.emit(
                    p,
                    "info",
                    "reachable",
                    &format!(
                        "the API server answers again (after {:.1}s)",
                        lasted.as_secs_f64()
                    ),
                    json!({"outageSeconds": lasted.as_secs_f64()}),
                );
            }
            // Any batch plans the waiting files again: one that asked the server nothing had
            // nothing left waiting (their files were removed).
            (None, Some(_)) => {
                self.outage = None;
                self.retry_at = None;
                self.log.emit(
                    p,
                    "debug",
                    "nothing-waits",
                    "no CRD waits for the API server any more",
                    json!({}),
                );
            }
            (None, None) => {}
        }
    }

    /// A follower's look at the directory: rescan and plan (so the file list stays current
    /// and bad files are reported by every replica), apply nothing.
    fn stand_by(&mut self, p: &mut Printer<'_>) {
        if let Err(e) = check_dir_mode(&self.dir) {
            self.log.emit(p, "error", "refused", &e, json!({}));
            return;
        }
        let snap = match scan(&self.dir) {
            Ok(s) => s,
            Err(e) => {
                let m = format!("cannot read {}: {e}", self.dir.display());
                self.log.emit(p, "error", "scan-error", &m, json!({}));
                return;
            }
        };
        let mut waiting = 0usize;
        for action in self.state.plan(&snap) {
            match action {
                Action::Invalid(e) => self.report(p, Event::Invalid(e)),
                Action::Apply(_) => waiting += 1,
                Action::Duplicate { .. } | Action::Unregister { .. } => {}
            }
        }
        self.log.emit(
            p,
            "debug",
            "standing-by",
            &format!(
                "standing by: {} CRD(s) in the directory, {waiting} changed; the leader applies them",
                self.state.owners().len()
            ),
            json!({"crds": self.state.owners().len(), "changed": waiting}),
        );
    }

    /// Reacts to what the election published: logs each [`Change`]; a new term forgets the
    /// file list and reconciles the whole directory; a lost Lease drops pending prunes (the
    /// fence would refuse them anyway). True when a stop signal came during the reconcile.
    async fn leadership(
        &mut self,
        p: &mut Printer<'_>,
        observer: &mut Observer,
        rx: Option<&tokio::sync::watch::Receiver<Leadership>>,
        lease_name: &str,
        signals: &mut StopSignals,
    ) -> bool {
        let Some(rx) = rx else { return false };
        let now = rx.borrow().clone();
        let identity = now.identity.clone();
        for change in observer.update(&now, Instant::now()) {
            match change {
                Change::LostLease => {
                    self.pending_prune.clear();
                    self.log.emit(
                        p,
                        "warning",
                        "lost-lease",
                        &format!("lost the Lease {lease_name}: stopped applying; standing by"),
                        json!({"lease": lease_name, "identity": identity}),
                    );
                }
                Change::BecameLeader => {
                    self.log.emit(
                        p,
                        "info",
                        "became-leader",
                        &format!(
                            "became leader (Lease {lease_name}, identity {identity}); reconciling the whole directory"
                        ),
                        json!({"lease": lease_name, "identity": identity, "term": now.term}),
                    );
                    self.state = WatchState::default();
                    if self.batch(p, None, signals).await {
                        return true;
                    }
                }
                Change::Following(holder) => self.log.emit(
                    p,
                    "info",
                    "following",
                    &format!("following {holder} (holder of the Lease {lease_name}); standing by"),
                    json!({"lease": lease_name, "holder": holder, "identity": identity}),
                ),
                Change::RoundFailed(why) => self.log.emit(
                    p,
                    "warning",
                    "lease-error",
                    &format!("leader election: {why}"),
                    json!({"lease": lease_name}),
                ),
            }
        }
        false
    }

    /// Logs one event of a batch (and schedules prunes for unregistered CRDs).
    fn report(&mut self, p: &mut Printer<'_>, e: Event) {
        match e {
            Event::Refused(m) => self.log.emit(
                p,
                "error",
                "refused",
                &format!("{m}; nothing in it is applied until that is fixed"),
                json!({}),
            ),
            Event::ScanFailed(m) => self.log.emit(p, "error", "scan-error", &m, json!({})),
            Event::Invalid(e) => self.log.emit(
                p,
                "error",
                "invalid",
                &e.to_string(),
                json!({"file": e.file, "line": e.line, "column": e.column}),
            ),
            Event::Duplicate(e) => self.log.emit(
                p,
                "error",
                "duplicate",
                &e.to_string(),
                json!({"file": e.file}),
            ),
            Event::Unregistered { name, file } => {
                self.log.emit(
                    p,
                    "info",
                    "unregistered",
                    &format!(
                        "unregistered {name} ({} removed or changed){}",
                        file.display(),
                        if self.prune {
                            format!("; pruning it from the cluster in {}s unless a file defines it again", PRUNE_GRACE.as_secs())
                        } else {
                            "; it stays on the cluster".to_string()
                        }
                    ),
                    json!({"crd": name, "file": file}),
                );
                if self.prune {
                    self.pending_prune
                        .insert(name, Instant::now() + PRUNE_GRACE);
                }
            }
            Event::Refusal { crds, error } => {
                for c in &crds {
                    self.log.emit(
                        p,
                        "error",
                        "denied",
                        &format!("{}: {error}", c.name),
                        json!({"crd": c.name, "file": c.file}),
                    );
                }
            }
            Event::Failed {
                crd,
                error: error @ ApplyError::NotLeader { .. },
            } => self.log.emit(
                p,
                "info",
                "not-leader",
                &error.to_string(),
                json!({"crd": crd.name, "file": crd.file}),
            ),
            Event::Failed { crd, error } => self.log.emit(
                p,
                "error",
                "apply-failed",
                &error.to_string(),
                json!({"crd": crd.name, "file": crd.file}),
            ),
            Event::NotDiscoverable(e) => {
                self.log
                    .emit(p, "error", "not-ready", &e.to_string(), json!({}))
            }
            Event::Registered {
                crd,
                watcher,
                total,
            } => {
                self.pending_prune.remove(&crd.name);
                self.log.emit(
                    p,
                    "debug",
                    "applied",
                    &format!(
                        "applied {} (event → apply sent: {}ms)",
                        crd.name,
                        watcher.as_millis()
                    ),
                    json!({"crd": crd.name, "watcherMs": watcher.as_secs_f64() * 1000.0}),
                );
                self.log.emit(
                    p,
                    "info",
                    "registered",
                    &format!("registered {} ({}) in {}ms", crd.name, crd.versions.join(", "), total.as_millis()),
                    json!({"crd": crd.name, "versions": crd.versions, "file": crd.file, "durationMs": total.as_secs_f64() * 1000.0, "watcherMs": watcher.as_secs_f64() * 1000.0}),
                );
            }
            Event::Warning(w) => self.log.emit(p, "warning", "warning", &w, json!({})),
        }
    }
}

fn absolute(p: &Path) -> PathBuf {
    if p.is_absolute() {
        p.to_path_buf()
    } else {
        std::env::current_dir()
            .map(|d| d.join(p))
            .unwrap_or_else(|_| p.to_path_buf())
    }
}
