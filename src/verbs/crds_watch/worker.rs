//! The watcher's work between events: a batch (rescan, plan, apply), the prunes that are
//! due, a follower's look at the directory, the reaction to leadership changes, and one log
//! line per event.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::json;

use super::log::Log;
use super::stop::{Raced, StopSignals, race};
use crate::crds::{Action, WatchState, check_dir_mode, scan};
use crate::guard::lease::{Change, Leadership, Observer};
use crate::guard::outage::Outage;
use crate::guard::{Applier, ApplyError, Event, Stages, run_batch};
use crate::output::Printer;
use crate::settings::Settings;

/// How long a CRD whose file disappeared waits before `--prune` deletes it: an editor that
/// renames the file away and writes the new one later, or a file moved out and back, must
/// not cost every custom resource of the CRD.
pub const PRUNE_GRACE: Duration = Duration::from_secs(2);

/// The state of one watcher between events.
pub(super) struct Worker<'a> {
    /// The settings of the run (without a push target when the watcher is scraped).
    pub(super) settings: &'a Settings,
    /// Applies and prunes through the guarded path (fenced by the Lease when elected).
    pub(super) applier: Applier<'a>,
    /// What the directory held at the last scan, and what waits for the server.
    pub(super) state: WatchState,
    /// Where the lines go.
    pub(super) log: Log,
    /// `--prune`.
    pub(super) prune: bool,
    /// CRD name → when it may be pruned, if no file defines it again by then.
    pub(super) pending_prune: std::collections::BTreeMap<String, Instant>,
    /// The directory watched (absolute).
    pub(super) dir: PathBuf,
    /// Work was abandoned after a stop signal (an apply may still be on the wire).
    pub(super) abandoned: bool,
    /// Set while the API server does not answer: told once, not per CRD.
    pub(super) outage: Option<Outage>,
    /// When to apply the CRDs that wait for the server ([`WatchState::retry`]) again.
    pub(super) retry_at: Option<Instant>,
}

impl Worker<'_> {
    /// When the next pending prune is due.
    pub(super) fn next_prune(&self) -> Instant {
        self.pending_prune
            .values()
            .min()
            .copied()
            .unwrap_or_else(|| Instant::now() + PRUNE_GRACE)
    }

    /// Prunes the CRDs whose grace period is over and that no file defines again; true when a
    /// stop signal came meanwhile (the prune in flight got
    /// [`STOP_GRACE`](super::stop::STOP_GRACE) to finish).
    pub(super) async fn prune_due(
        &mut self,
        p: &mut Printer<'_>,
        signals: &mut StopSignals,
    ) -> bool {
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
    /// True when a stop signal came meanwhile: the batch got
    /// [`STOP_GRACE`](super::stop::STOP_GRACE) to finish, and was abandoned (with a warning
    /// saying what that means) if it did not.
    pub(super) async fn batch(
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
    pub(super) fn stand_by(&mut self, p: &mut Printer<'_>) {
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
    pub(super) async fn leadership(
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
                    // The holder is whatever another client wrote into the Lease: echoed as
                    // every other such value is (escaped, 64 characters and its length).
                    &format!(
                        "following {} (holder of the Lease {lease_name}); standing by",
                        crate::base::echo::quoted(&holder)
                    ),
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
                stages,
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
                    "debug",
                    "stages",
                    &format!("{}: {}", crd.name, stages_text(&stages)),
                    stages_json(&crd.name, &stages),
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

/// Milliseconds, to a tenth.
fn ms(d: Duration) -> f64 {
    (d.as_secs_f64() * 10_000.0).round() / 10.0
}

/// The stage names of the hot-load breakdown, each with when it ended after the first file
/// event (docs/performance.md, "Hot-load, stage by stage").
fn stage_list(s: &Stages) -> [(&'static str, Duration); 8] {
    [
        ("settled", s.settled),
        ("parsed", s.parsed),
        ("reviewed", s.reviewed),
        ("read", s.read),
        ("sent", s.sent),
        ("answered", s.answered),
        ("established", s.established),
        ("served", s.served),
    ]
}

/// `event +settled 0.4ms +parsed 0.9ms …`: the `stages` debug line as text.
fn stages_text(s: &Stages) -> String {
    let mut out = String::from("file event");
    for (name, d) in stage_list(s) {
        out.push_str(&format!(" → {name} {:.1}ms", ms(d)));
    }
    out
}

/// The `stages` debug line's fields: milliseconds after the first file event per stage, and
/// that event's wall-clock time in Unix milliseconds (`eventUnixMs`) so another process can
/// line its own clock up with it.
fn stages_json(name: &str, s: &Stages) -> serde_json::Value {
    let at = s
        .event_at
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    let mut ms_of = serde_json::Map::new();
    for (n, d) in stage_list(s) {
        ms_of.insert(n.into(), json!(ms(d)));
    }
    json!({"crd": name, "eventUnixMs": at.as_secs_f64() * 1000.0, "stagesMs": ms_of})
}
