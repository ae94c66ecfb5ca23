//! The one batch function of CRD hot-loading, shared by `crds sync` (one batch from an empty
//! state) and `crds watch` (one batch per burst of file events): plan → check access →
//! apply → wait → record. The verbs only report the [`Event`]s it returns (ARCHITECTURE §5).

use std::path::Path;
use std::time::{Duration, Instant};

use super::crd_apply::{Applier, ApplyError};
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
    },
    /// Something that does not stop the batch (registry file, metrics push).
    Warning(String),
}

/// Runs one batch: rescan `dir`, plan against `state`, check access, apply (write-ahead
/// journaled), wait until Established and served, record the registry and the
/// `crd_loads_total`/`crd_load_duration_seconds` observations (pushed when configured).
/// `event` is when the first file event of the batch happened (now, for `crds sync`).
pub async fn run_batch(
    applier: &Applier<'_>,
    settings: &Settings,
    state: &mut WatchState,
    dir: &Path,
    event: Option<Instant>,
) -> Vec<Event> {
    let started = event.unwrap_or_else(Instant::now);
    let mut events = Vec::new();
    let mut loads: Vec<(Status, f64)> = Vec::new();
    carry_out(
        applier,
        settings,
        state,
        dir,
        started,
        &mut events,
        &mut loads,
    )
    .await;
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
            events.push(Event::Warning(w));
        }
    }
    events
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
    events: &mut Vec<Event>,
    loads: &mut Vec<(Status, f64)>,
) {
    let secs = || started.elapsed().as_secs_f64();
    // The directory's mode can change while we watch (chmod, re-created, replaced).
    if let Err(e) = check_dir_mode(dir) {
        events.push(Event::Refused(e));
        return;
    }
    let snap = match scan(dir) {
        Ok(s) => s,
        Err(e) => {
            events.push(Event::ScanFailed(format!(
                "cannot read {}: {e}",
                dir.display()
            )));
            return;
        }
    };
    let mut to_apply: Vec<LoadedCrd> = Vec::new();
    let mut gone: Vec<String> = Vec::new();
    for action in state.plan(&snap) {
        match action {
            Action::Invalid(e) => {
                loads.push((Status::Invalid, 0.0));
                events.push(Event::Invalid(e));
            }
            Action::Duplicate { file, name, owner } => {
                loads.push((Status::Invalid, 0.0));
                events.push(Event::Duplicate(LoadError {
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
                events.push(Event::Unregistered { name, file });
            }
        }
    }
    if !gone.is_empty()
        && let Err(e) = Registry::remove(&settings.home, &gone)
    {
        events.push(Event::Warning(e.to_string()));
    }
    if to_apply.is_empty() {
        return;
    }
    if let Err(e) = applier.check_access().await {
        let error = ApplyError::from(e);
        loads.extend(to_apply.iter().map(|_| (status_of(&error), secs())));
        events.push(Event::Refusal {
            crds: to_apply,
            error,
        });
        return;
    }
    let refs: Vec<&LoadedCrd> = to_apply.iter().collect();
    let mut applied: Vec<(&LoadedCrd, Duration)> = Vec::new();
    for (c, r) in applier.apply_many(&refs).await {
        match r {
            Ok(sent) => applied.push((c, sent.saturating_duration_since(started))),
            Err(error) => {
                loads.push((status_of(&error), secs()));
                events.push(Event::Failed {
                    crd: c.clone(),
                    error,
                });
            }
        }
    }
    let crds: Vec<&LoadedCrd> = applied.iter().map(|(c, _)| *c).collect();
    if crds.is_empty() {
        return;
    }
    if let Err(e) = applier.wait_discoverable(&crds).await {
        loads.extend(crds.iter().map(|_| (Status::Error, secs())));
        events.push(Event::NotDiscoverable(e));
        return;
    }
    if let Err(e) = Registry::upsert(&settings.home, &crds) {
        events.push(Event::Warning(e.to_string()));
    }
    let total = started.elapsed();
    loads.extend(
        applied
            .iter()
            .map(|_| (Status::Success, total.as_secs_f64())),
    );
    for (c, watcher) in applied {
        events.push(Event::Registered {
            crd: c.clone(),
            watcher,
            total,
        });
    }
}
