//! The one batch function of CRD hot-loading, shared by `crds sync` (one batch from an empty
//! state) and `crds watch` (one batch per burst of file events): plan → check access →
//! apply → wait → record. The verbs only report the [`Event`]s it returns (docs/design.md, "The guarded path").
//!
//! The applies and the waits are pipelined, so each CRD's outcome is known as it lands: a
//! CRD goes from the apply stream (four in flight, waiting for `Established` each) to a
//! pending set that one discovery poll every 100 ms checks for all pending CRDs at once;
//! each is `Registered` (or fails) on its own, with its own deadline (`--timeout` from the
//! moment it was Established). [`run_batch_into`] hands each [`Event`] to a [`BatchSink`]
//! the moment it happens (`crds sync` prints it at once), together with [`Notice`]s: how
//! many CRDs are being applied, and what a wait longer than a second waits for.

use std::path::Path;
use std::time::{Duration, Instant, SystemTime};

use futures::StreamExt;

use super::crd_apply::{ANNOUNCE_WAIT_AFTER, AppliedCrd, Applier, ApplyError};
use crate::crds::{Action, LoadError, LoadedCrd, Registry, WatchState, check_dir_mode, scan};
use crate::metrics::{self, Status};
use crate::settings::Settings;

/// What happened to one file or CRD in a batch, in the order it happened.
#[derive(Debug)]
pub enum Event {
    /// The directory is group- or world-writable (nothing in it is applied).
    Refused(String),
    /// The directory cannot be read.
    ScanFailed(String),
    /// A file is invalid (reported with file:line:column).
    Invalid(LoadError),
    /// A second file defines a CRD another file already defines.
    Duplicate(LoadError),
    /// A CRD's file was removed or no longer defines it (unregistered, left on the cluster).
    Unregistered {
        /// CRD name.
        name: String,
        /// The file that defined it.
        file: std::path::PathBuf,
    },
    /// The caller may not register CRDs (plugin.yaml, RBAC) or the journal cannot be written;
    /// nothing was sent for these CRDs.
    Refusal {
        /// The CRDs not applied.
        crds: Vec<LoadedCrd>,
        /// Why.
        error: ApplyError,
    },
    /// The server refused one CRD, or it did not become ready.
    Failed {
        /// The CRD.
        crd: LoadedCrd,
        /// Why.
        error: ApplyError,
    },
    /// CRDs applied and Established but not yet served by discovery in time.
    NotDiscoverable(ApplyError),
    /// A CRD is registered and served: usable by `get` in a new process.
    Registered {
        /// The CRD.
        crd: LoadedCrd,
        /// From the first file event to the apply request (the watcher's share).
        watcher: Duration,
        /// From the first file event to served by discovery.
        total: Duration,
        /// Stage by stage, from the first file event.
        stages: Stages,
    },
    /// Something that does not stop the batch (registry file, metrics push).
    Warning(String),
}

/// When each stage of one CRD's hot-load ended, as time since the first file event of its
/// batch: the breakdown `crds watch -v` logs with every registered CRD (docs/performance.md,
/// "Hot-load, stage by stage"). The first `get` in a new process is the only stage missing:
/// it is measured by that process (`scripts/bench`, row crd-drop).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stages {
    /// The wall-clock time of the first file event (to line the stages up with another
    /// process's clock).
    pub event_at: SystemTime,
    /// The batch started: the burst of file events settled (`crds watch`'s debounce, or at
    /// once when a file was closed after writing or renamed into place).
    pub settled: Duration,
    /// The directory was read and parsed.
    pub parsed: Duration,
    /// Access was reviewed: plugin.yaml and the SelfSubjectAccessReviews.
    pub reviewed: Duration,
    /// The CRD's before-state was read.
    pub read: Duration,
    /// The apply was admitted and went to the journal and the server.
    pub sent: Duration,
    /// The server answered the apply.
    pub answered: Duration,
    /// `Established` and `NamesAccepted` were seen `True`.
    pub established: Duration,
    /// Aggregated discovery was seen serving it.
    pub served: Duration,
}

impl Stages {
    /// A batch that starts now, for the first file event at `event`: settled, nothing else yet.
    fn settled_now(event: Instant) -> Stages {
        Stages {
            event_at: SystemTime::now()
                .checked_sub(event.elapsed())
                .unwrap_or_else(SystemTime::now),
            settled: event.elapsed(),
            parsed: Duration::ZERO,
            reviewed: Duration::ZERO,
            read: Duration::ZERO,
            sent: Duration::ZERO,
            answered: Duration::ZERO,
            established: Duration::ZERO,
            served: Duration::ZERO,
        }
    }
}

/// What a batch tells about itself while it runs, besides its [`Event`]s: for a progress
/// line and for the user waiting at a terminal. Never part of the outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// This many CRDs passed the access check and are being applied now.
    Applying(usize),
    /// A wait has lasted [`ANNOUNCE_WAIT_AFTER`]: what it waits for (`CRD x.example.com to be
    /// Established`, `discovery to serve x.example.com`); once per CRD and wait.
    Waiting(String),
}

/// Where [`run_batch_into`] hands each [`Event`] and [`Notice`] the moment it happens.
pub trait BatchSink {
    /// One event of the batch, in the order they happen.
    fn event(&mut self, event: Event);
    /// A notice; ignored unless the sink shows progress.
    fn notice(&mut self, _notice: Notice) {}
}

/// Collects the events (`crds watch` reports them after the batch).
impl BatchSink for Vec<Event> {
    fn event(&mut self, event: Event) {
        self.push(event);
    }
}

/// A [`BatchSink`] that also keeps the `crd_loads_total` observations of the batch.
struct Counting<'k> {
    sink: &'k mut dyn BatchSink,
    loads: Vec<(Status, f64)>,
}

impl Counting<'_> {
    fn event(&mut self, e: Event) {
        self.sink.event(e);
    }
    fn load(&mut self, status: Status, seconds: f64) {
        self.loads.push((status, seconds));
    }
}

/// Runs one batch and returns its events: [`run_batch_into`] collecting into a `Vec`.
pub async fn run_batch(
    applier: &Applier<'_>,
    settings: &Settings,
    state: &mut WatchState,
    dir: &Path,
    event: Option<Instant>,
) -> Vec<Event> {
    let mut events = Vec::new();
    run_batch_into(applier, settings, state, dir, event, &mut events).await;
    events
}

/// Runs one batch: rescan `dir`, plan against `state`, check access, apply (write-ahead
/// journaled), wait until Established and served, record the registry and the
/// `crd_loads_total`/`crd_load_duration_seconds` observations (pushed when configured).
/// `event` is when the first file event of the batch happened (now, for `crds sync`).
/// Each [`Event`] goes to `sink` as it happens.
pub async fn run_batch_into(
    applier: &Applier<'_>,
    settings: &Settings,
    state: &mut WatchState,
    dir: &Path,
    event: Option<Instant>,
    sink: &mut dyn BatchSink,
) {
    let started = event.unwrap_or_else(Instant::now);
    let mut out = Counting {
        sink,
        loads: Vec::new(),
    };
    carry_out(applier, settings, state, dir, started, &mut out).await;
    let Counting { sink, loads } = out;
    // Pushed after every batch, even one with nothing to count: a push that timed out
    // earlier is re-sent with the totals kept on disk (the Pushgateway holds only the last PUT).
    {
        let s = settings;
        for w in metrics::finish_crd_loads(
            &s.home,
            &s.plugin.name,
            &loads,
            &s.plugin.metrics,
            s.push_target.as_ref(),
        )
        .await
        {
            sink.event(Event::Warning(w));
        }
    }
}

fn status_of(e: &ApplyError) -> Status {
    Status::for_exit(e.exit_status())
}

async fn carry_out(
    applier: &Applier<'_>,
    settings: &Settings,
    state: &mut WatchState,
    dir: &Path,
    started: Instant,
    out: &mut Counting<'_>,
) {
    let secs = || started.elapsed().as_secs_f64();
    let since = |t: Instant| t.saturating_duration_since(started);
    let mut batch = Stages::settled_now(started);
    // The directory's mode can change while we watch (chmod, re-created, replaced).
    if let Err(e) = check_dir_mode(dir) {
        out.event(Event::Refused(e));
        return;
    }
    let snap = match scan(dir) {
        Ok(s) => s,
        Err(e) => {
            out.event(Event::ScanFailed(format!(
                "cannot read {}: {e}",
                dir.display()
            )));
            return;
        }
    };
    batch.parsed = started.elapsed();
    let mut to_apply: Vec<LoadedCrd> = Vec::new();
    let mut gone: Vec<String> = Vec::new();
    for action in state.plan(&snap) {
        match action {
            Action::Invalid(e) => {
                out.load(Status::Invalid, 0.0);
                out.event(Event::Invalid(e));
            }
            Action::Duplicate { file, name, owner } => {
                out.load(Status::Invalid, 0.0);
                out.event(Event::Duplicate(LoadError {
                    file,
                    line: 1,
                    column: 1,
                    message: format!(
                        "CRD {name} is already defined by {}; remove one of the two",
                        owner.display()
                    ),
                }));
            }
            Action::Apply(c) => to_apply.push(*c),
            Action::Unregister { name, file } => {
                gone.push(name.clone());
                out.event(Event::Unregistered { name, file });
            }
        }
    }
    if !gone.is_empty()
        && let Err(e) = Registry::remove(&settings.home, &gone)
    {
        out.event(Event::Warning(e.to_string()));
    }
    if to_apply.is_empty() {
        return;
    }
    if let Err(e) = applier.check_access().await {
        let error = ApplyError::from(e);
        for _ in &to_apply {
            out.load(status_of(&error), secs());
        }
        out.event(Event::Refusal {
            crds: to_apply,
            error,
        });
        return;
    }
    batch.reviewed = started.elapsed();
    out.sink.notice(Notice::Applying(to_apply.len()));
    let refs: Vec<&LoadedCrd> = to_apply.iter().collect();
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let mut applies = std::pin::pin!(applier.apply_stream(&refs, Some(&tx)));
    let mut applies_done = false;
    // Applied and Established, not yet served by discovery: the CRD, event → apply sent,
    // when it became Established, whether its wait was announced.
    let mut pending: Vec<Pending<'_>> = Vec::new();
    let mut next_look = Instant::now();
    let poll = Duration::from_millis(100);
    while !applies_done || !pending.is_empty() {
        let look_at = tokio::time::Instant::from_std(next_look);
        tokio::select! {
            next = applies.next(), if !applies_done => match next {
                None => applies_done = true,
                Some((c, Ok(applied))) => {
                    if pending.is_empty() {
                        next_look = next_look.max(Instant::now());
                    }
                    let AppliedCrd { read, sent, answered, established } = applied;
                    pending.push(Pending {
                        crd: c,
                        watcher: since(sent),
                        established: Instant::now(),
                        announced: false,
                        stages: Stages {
                            read: since(read),
                            sent: since(sent),
                            answered: since(answered),
                            established: since(established),
                            ..batch
                        },
                    });
                }
                Some((c, Err(error))) => {
                    out.load(status_of(&error), secs());
                    out.event(Event::Failed { crd: c.clone(), error });
                }
            },
            Some(what) = rx.recv() => out.sink.notice(Notice::Waiting(what)),
            () = tokio::time::sleep_until(look_at), if !pending.is_empty() => {
                look_for_served(applier, settings, started, &mut pending, out).await;
                next_look = Instant::now() + poll;
            }
        }
    }
}

/// A CRD applied and Established, waiting for discovery to serve it.
struct Pending<'c> {
    crd: &'c LoadedCrd,
    /// From the first file event to the apply request.
    watcher: Duration,
    /// When it was seen Established (its discovery deadline counts from here).
    established: Instant,
    /// Whether its wait was announced ([`Notice::Waiting`]).
    announced: bool,
    /// Its stages so far (`served` is set when discovery serves it).
    stages: Stages,
}

/// One discovery look for every pending CRD: the served ones are recorded in the registry
/// and reported `Registered`; those past the deadline fail; the rest stay pending, and those
/// waiting for [`ANNOUNCE_WAIT_AFTER`] are announced in one notice.
async fn look_for_served(
    applier: &Applier<'_>,
    settings: &Settings,
    started: Instant,
    pending: &mut Vec<Pending<'_>>,
    out: &mut Counting<'_>,
) {
    let crds: Vec<&LoadedCrd> = pending.iter().map(|p| p.crd).collect();
    let served = match applier.served(&crds).await {
        Ok(s) => s,
        Err(e) => {
            for _ in pending.iter() {
                out.load(Status::Error, started.elapsed().as_secs_f64());
            }
            pending.clear();
            out.event(Event::NotDiscoverable(e));
            return;
        }
    };
    let seen = started.elapsed();
    let mut now_served: Vec<Pending<'_>> = Vec::new();
    let mut still = Vec::new();
    for (p, ok) in std::mem::take(pending).into_iter().zip(served) {
        if ok {
            now_served.push(p);
        } else if p.established.elapsed() > applier.timeout() {
            out.load(Status::Error, started.elapsed().as_secs_f64());
            out.event(Event::NotDiscoverable(ApplyError::NotReady {
                name: p.crd.name.clone(),
                what: "served by discovery".into(),
                seconds: p.established.elapsed().as_secs_f64(),
            }));
        } else {
            still.push(p);
        }
    }
    *pending = still;
    let late: Vec<String> = pending
        .iter_mut()
        .filter(|p| !p.announced && p.established.elapsed() >= ANNOUNCE_WAIT_AFTER)
        .map(|p| {
            p.announced = true;
            p.crd.name.clone()
        })
        .collect();
    if !late.is_empty() {
        out.sink.notice(Notice::Waiting(format!(
            "discovery to serve {}",
            names(&late)
        )));
    }
    if now_served.is_empty() {
        return;
    }
    let crds: Vec<&LoadedCrd> = now_served.iter().map(|p| p.crd).collect();
    if let Err(e) = Registry::upsert(&settings.home, &crds) {
        out.event(Event::Warning(e.to_string()));
    }
    let total = started.elapsed();
    for p in now_served {
        out.load(Status::Success, total.as_secs_f64());
        out.event(Event::Registered {
            crd: p.crd.clone(),
            watcher: p.watcher,
            total,
            stages: Stages {
                served: seen,
                ..p.stages
            },
        });
    }
}

/// `a, b, c` or `a, b, c and 4 more`: a few names for a one-line notice.
fn names(all: &[String]) -> String {
    const SHOWN: usize = 3;
    let head = all
        .iter()
        .take(SHOWN)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    match all.len().saturating_sub(SHOWN) {
        0 => head,
        more => format!("{head} and {more} more"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_waiting_notice_names_at_most_three_crds() {
        let n = |k: usize| {
            (0..k)
                .map(|i| format!("c{i}.example.com"))
                .collect::<Vec<_>>()
        };
        assert_eq!(names(&n(1)), "c0.example.com");
        assert_eq!(
            names(&n(3)),
            "c0.example.com, c1.example.com, c2.example.com"
        );
        assert_eq!(
            names(&n(10)),
            "c0.example.com, c1.example.com, c2.example.com and 7 more"
        );
    }
}
