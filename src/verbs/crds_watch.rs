//! `crds watch [DIR]`: the hot-load loop (ARCHITECTURE §5).
//!
//! File events come from notify through a debouncer (25 ms of quiet) and only trigger a
//! rescan; [`WatchState::plan`] decides what changed, so every event kind — atomic saves,
//! moves, bursts, the directory itself removed and re-created — takes one path. The parent
//! directory is watched too, so a directory that appears (created, or renamed into place)
//! is picked up. Signals are handled between batches: an apply in flight always finishes.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use notify::RecursiveMode;
use notify_debouncer_full::{DebounceEventResult, new_debouncer};
use serde_json::json;
use tokio::signal::unix::{SignalKind, signal};

use crate::authz::{Gate, check_boundary};
use crate::cli::{CrdsWatchArgs, LogFormat};
use crate::cluster::connect;
use crate::metrics::{self, Status};
use crate::verbs::status_for;
use crate::config::{Verb, duration_string};
use crate::crds::{Action, Applier, Journal, LoadedCrd, Registry, WatchState, crd_type, scan};
use crate::output::Printer;
use crate::settings::Settings;
use crate::verbs::VerbError;

/// Quiet time before a burst of file events is handled, in milliseconds: long enough to
/// merge an editor's write-temp-then-rename, short enough for the ≤ 60 ms watcher share.
pub const DEBOUNCE_MS: u64 = 25;

/// Refuses a directory that is group- or world-writable, as ssh refuses such key files:
/// anyone who can write there could register cluster-wide API types as this user.
///
/// # Errors
/// [`VerbError::Usage`] (exit 2) with the mode and the `chmod` that fixes it.
pub fn check_dir_mode(dir: &Path) -> Result<(), VerbError> {
    use std::os::unix::fs::PermissionsExt;
    let Ok(meta) = std::fs::metadata(dir) else { return Ok(()) };
    let mode = meta.permissions().mode() & 0o777;
    if mode & 0o022 != 0 {
        return Err(VerbError::Usage(format!(
            "refusing to watch {}: it is group- or world-writable (mode {mode:o}), so others could register cluster-wide types as you; run `chmod go-w {}`",
            dir.display(),
            dir.display()
        )));
    }
    Ok(())
}

/// One line per event and outcome, as text or JSON.
struct Log {
    json: bool,
    verbose: u8,
}

impl Log {
    fn emit(&self, p: &mut Printer<'_>, level: &str, event: &str, text: &str, fields: serde_json::Value) {
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

/// Runs the watcher until SIGINT or SIGTERM.
///
/// # Errors
/// Usage errors (exit 2) for a bad directory or timeout; a failure to start watching (exit 1).
/// Per-file and per-CRD problems are logged, never returned.
pub async fn run(s: &Settings, args: &CrdsWatchArgs, p: &mut Printer<'_>) -> Result<(), VerbError> {
    let timeout = duration_string::parse(&args.timeout).map_err(|e| VerbError::Usage(format!("--timeout: {e}")))?;
    check_boundary(&s.plugin, &[], Verb::Patch, &crd_type(), false)?;
    let dir = absolute(&s.crd_dir(args.dir.as_deref()));
    check_dir_mode(&dir)?;
    if dir.exists() && !dir.is_dir() {
        return Err(VerbError::Usage(format!("{} is not a directory; pass the directory that holds the CRD files", dir.display())));
    }
    let parent = dir.parent().filter(|p| p.is_dir()).ok_or_else(|| {
        VerbError::Usage(format!("cannot watch {}: its parent directory does not exist; create it first", dir.display()))
    })?;
    let cluster = connect(&s.kube).await?;
    let log = Log { json: args.log_format == LogFormat::Json, verbose: s.verbose };
    let journal = Journal { home: s.home.clone(), plugin: s.plugin.name.clone(), user: Gate::new(&cluster).whoami().await };
    let mut w = Worker {
        settings: s,
        applier: Applier::new(&cluster, args.force_conflicts, timeout, journal),
        state: WatchState::default(),
        log,
        prune: args.prune,
        pending_prune: Default::default(),
        dir: dir.clone(),
    };

    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<DebounceEventResult>();
    let mut debouncer = new_debouncer(Duration::from_millis(DEBOUNCE_MS), None, move |r| {
        let _ = tx.send(r);
    })
    .map_err(|e| VerbError::Io(format!("cannot start the file watcher: {e}")))?;
    debouncer
        .watch(parent, RecursiveMode::NonRecursive)
        .map_err(|e| VerbError::Io(format!("cannot watch {}: {e}", parent.display())))?;
    let mut watching_dir = dir.is_dir() && debouncer.watch(&dir, RecursiveMode::NonRecursive).is_ok();
    let mut term = signal(SignalKind::terminate()).map_err(|e| VerbError::Io(format!("cannot handle SIGTERM: {e}")))?;
    let mut int = signal(SignalKind::interrupt()).map_err(|e| VerbError::Io(format!("cannot handle SIGINT: {e}")))?;
    // A closed terminal (SIGHUP) stops the watcher like SIGTERM, between batches.
    let mut hup = signal(SignalKind::hangup()).map_err(|e| VerbError::Io(format!("cannot handle SIGHUP: {e}")))?;

    let note = if dir.is_dir() { "" } else { " (it does not exist yet; waiting for it)" };
    w.log.emit(p, "info", "watching", &format!("watching {}{note}", dir.display()), json!({"dir": dir}));
    w.batch(p, None).await;
    loop {
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
                w.batch(p, Some(first)).await;
            }
            _ = tokio::time::sleep_until(w.next_prune().into()), if !w.pending_prune.is_empty() => w.prune_due(p).await,
            _ = term.recv() => break,
            _ = int.recv() => break,
            _ = hup.recv() => break,
        }
    }
    if !w.pending_prune.is_empty() {
        let names: Vec<&String> = w.pending_prune.keys().collect();
        w.log.emit(p, "info", "prune-cancelled", &format!("not pruned (stopped first): {names:?}"), json!({"crds": names}));
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
}

impl Worker<'_> {
    /// When the next pending prune is due.
    fn next_prune(&self) -> Instant {
        self.pending_prune.values().min().copied().unwrap_or_else(|| Instant::now() + PRUNE_GRACE)
    }

    /// Prunes the CRDs whose grace period is over and that no file defines again.
    async fn prune_due(&mut self, p: &mut Printer<'_>) {
        let now = Instant::now();
        let due: Vec<String> = self.pending_prune.iter().filter(|(_, t)| **t <= now).map(|(n, _)| n.clone()).collect();
        for name in due {
            self.pending_prune.remove(&name);
            if self.state.owners().contains_key(&name) {
                continue;
            }
            match self.applier.prune(&name).await {
                Ok(true) => self.log.emit(p, "info", "pruned", &format!("pruned {name} from the cluster"), json!({"crd": name})),
                Ok(false) => self.log.emit(p, "info", "not-pruned", &format!("left {name} on the cluster: not applied by kubectl-myops"), json!({"crd": name})),
                Err(e) => self.log.emit(p, "error", "prune-failed", &e.to_string(), json!({"crd": name})),
            }
        }
    }

    /// Rescans the directory and carries out what changed, then records and pushes the
    /// batch's `crd_loads_total` / `crd_load_duration_seconds` (ARCHITECTURE §6). `event` is
    /// when the first file event of the batch happened (for the watcher's share of the latency).
    async fn batch(&mut self, p: &mut Printer<'_>, event: Option<Instant>) {
        let mut loads = Vec::new();
        self.carry_out(p, event, &mut loads).await;
        let s = self.settings;
        for w in metrics::finish_crd_loads(&s.home, &s.plugin.name, &loads, &s.plugin.metrics, s.push_target.as_ref()).await {
            self.log.emit(p, "warning", "metrics", &w, json!({}));
        }
    }

    /// One batch; each CRD's outcome is added to `loads` as (result, seconds).
    async fn carry_out(&mut self, p: &mut Printer<'_>, event: Option<Instant>, loads: &mut Vec<(Status, f64)>) {
        let started = event.unwrap_or_else(Instant::now);
        // The directory's mode can change while we watch (chmod, re-created, replaced).
        if let Err(e) = check_dir_mode(&self.dir) {
            self.log.emit(p, "error", "refused", &format!("{e}; nothing in it is applied until that is fixed"), json!({}));
            return;
        }
        let snap = match scan(&self.dir) {
            Ok(s) => s,
            Err(e) => {
                self.log.emit(p, "error", "scan-error", &format!("cannot read {}: {e}", self.dir.display()), json!({}));
                return;
            }
        };
        let actions = self.state.plan(&snap);
        let mut to_apply: Vec<LoadedCrd> = Vec::new();
        let mut gone: Vec<String> = Vec::new();
        for a in actions {
            match a {
                Action::Invalid(e) => {
                    loads.push((Status::Invalid, 0.0));
                    self.log.emit(p, "error", "invalid", &e.to_string(), json!({"file": e.file, "line": e.line, "column": e.column}));
                }
                Action::Duplicate { file, name, owner } => {
                    loads.push((Status::Invalid, 0.0));
                    self.log.emit(
                        p,
                        "error",
                        "duplicate",
                        &format!("{}: CRD {name} is already defined by {}; remove one of the two", file.display(), owner.display()),
                        json!({"file": file, "crd": name, "owner": owner}),
                    )
                }
                Action::Apply(c) => {
                    self.pending_prune.remove(&c.name);
                    to_apply.push(*c)
                }
                Action::Unregister { name, file } => {
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
                    gone.push(name);
                }
            }
        }
        if !gone.is_empty() {
            if let Err(e) = Registry::remove(&self.settings.home, &gone) {
                self.log.emit(p, "error", "registry", &e.to_string(), json!({}));
            }
            if self.prune {
                for name in &gone {
                    self.pending_prune.insert(name.clone(), Instant::now() + PRUNE_GRACE);
                }
            }
        }
        if to_apply.is_empty() {
            return;
        }
        if let Err(e) = self.applier.check_access().await {
            for c in &to_apply {
                loads.push((status_for(e.exit_status()), started.elapsed().as_secs_f64()));
                self.log.emit(p, "error", "denied", &format!("{}: {e}", c.name), json!({"crd": c.name, "file": c.file}));
            }
            return;
        }
        let refs: Vec<&LoadedCrd> = to_apply.iter().collect();
        let results = self.applier.apply_many(&refs).await;
        let mut applied = Vec::new();
        for (c, r) in results {
            match r {
                Ok(sent) => {
                    let share = sent.saturating_duration_since(started);
                    self.log.emit(p, "debug", "applied", &format!("applied {} (event → apply sent: {}ms)", c.name, share.as_millis()), json!({"crd": c.name, "watcherMs": share.as_secs_f64() * 1000.0}));
                    applied.push((c, share));
                }
                Err(e) => {
                    loads.push((status_for(e.exit_status()), started.elapsed().as_secs_f64()));
                    self.log.emit(p, "error", "apply-failed", &e.to_string(), json!({"crd": c.name, "file": c.file}))
                }
            }
        }
        let crds: Vec<&LoadedCrd> = applied.iter().map(|(c, _)| *c).collect();
        if let Err(e) = self.applier.wait_discoverable(&crds).await {
            loads.extend(crds.iter().map(|_| (Status::Error, started.elapsed().as_secs_f64())));
            self.log.emit(p, "error", "not-ready", &e.to_string(), json!({}));
            return;
        }
        if let Err(e) = Registry::upsert(&self.settings.home, &crds) {
            self.log.emit(p, "error", "registry", &e.to_string(), json!({}));
        }
        let total = started.elapsed();
        loads.extend(applied.iter().map(|_| (Status::Success, total.as_secs_f64())));
        for (c, share) in &applied {
            self.log.emit(
                p,
                "info",
                "registered",
                &format!("registered {} ({}) in {}ms", c.name, c.versions.join(", "), total.as_millis()),
                json!({"crd": c.name, "versions": c.versions, "file": c.file, "durationMs": total.as_secs_f64() * 1000.0, "watcherMs": share.as_secs_f64() * 1000.0}),
            );
        }
    }
}

fn absolute(p: &Path) -> PathBuf {
    if p.is_absolute() { p.to_path_buf() } else { std::env::current_dir().map(|d| d.join(p)).unwrap_or_else(|_| p.to_path_buf()) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn group_or_world_writable_directories_are_refused_like_ssh_keys() {
        let d = tempfile::tempdir().unwrap();
        std::fs::set_permissions(d.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        assert!(check_dir_mode(d.path()).is_ok());
        for mode in [0o775, 0o757, 0o777] {
            std::fs::set_permissions(d.path(), std::fs::Permissions::from_mode(mode)).unwrap();
            let e = check_dir_mode(d.path()).unwrap_err();
            assert!(e.to_string().contains(&format!("mode {mode:o}")) && e.to_string().contains("chmod go-w"), "{e}");
        }
        assert!(check_dir_mode(&d.path().join("missing")).is_ok());
    }
}
