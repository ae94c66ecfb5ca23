//! The file events of the watched directory: notify through a debouncer, the parent
//! directory watched too so that a directory that appears is picked up.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use notify::RecursiveMode;
use notify_debouncer_full::{
    DebounceEventResult, Debouncer, RecommendedCache, new_debouncer, notify::RecommendedWatcher,
};
use serde_json::json;
use tokio::sync::mpsc::UnboundedReceiver;

use super::log::Log;
use crate::output::Printer;
use crate::verbs::VerbError;

/// Quiet time before a burst of file events is handled, in milliseconds: long enough to
/// merge an editor's write-temp-then-rename, short enough for the ≤ 60 ms watcher share.
pub const DEBOUNCE_MS: u64 = 25;

/// The debounced file events of one directory.
pub(super) struct Files {
    debouncer: Debouncer<RecommendedWatcher, RecommendedCache>,
    rx: UnboundedReceiver<DebounceEventResult>,
    dir: PathBuf,
    /// The directory itself is watched (it exists and the watch was set).
    watching_dir: bool,
}

impl Files {
    /// Starts watching `parent` and, when it exists, `dir`.
    ///
    /// # Errors
    /// [`VerbError::Io`] when the file watcher cannot start or `parent` cannot be watched.
    pub(super) fn start(dir: &Path, parent: &Path) -> Result<Files, VerbError> {
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel::<DebounceEventResult>();
        let mut debouncer = new_debouncer(Duration::from_millis(DEBOUNCE_MS), None, move |r| {
            let _ = tx.send(r);
        })
        .map_err(|e| VerbError::io(format!("cannot start the file watcher: {e}")))?;
        debouncer
            .watch(parent, RecursiveMode::NonRecursive)
            .map_err(|e| VerbError::io(format!("cannot watch {}: {e}", parent.display())))?;
        let watching_dir =
            dir.is_dir() && debouncer.watch(dir, RecursiveMode::NonRecursive).is_ok();
        Ok(Files {
            debouncer,
            rx,
            dir: dir.to_path_buf(),
            watching_dir,
        })
    }

    /// The next burst of events; `None` when the watcher is gone.
    pub(super) async fn recv(&mut self) -> Option<DebounceEventResult> {
        self.rx.recv().await
    }

    /// When the first event of `ev` that touches the directory happened, `None` when none
    /// does (watcher errors are logged). Reads (our own rescans among them) are Access
    /// events: ignoring them keeps a rescan from triggering the next one. The directory
    /// itself is watched again when it has appeared.
    pub(super) fn first_relevant(
        &mut self,
        ev: DebounceEventResult,
        log: &Log,
        p: &mut Printer<'_>,
    ) -> Option<Instant> {
        let events = match ev {
            Ok(events) => events,
            Err(errors) => {
                for e in errors {
                    log.emit(
                        p,
                        "error",
                        "watch-error",
                        &format!("file watcher: {e}"),
                        json!({}),
                    );
                }
                return None;
            }
        };
        let dir = &self.dir;
        let relevant: Vec<_> = events
            .iter()
            .filter(|e| !matches!(e.kind, notify::EventKind::Access(_)))
            .filter(|e| e.paths.iter().any(|p| p.starts_with(dir)))
            .collect();
        let first = relevant.iter().map(|e| e.time).min()?;
        if dir.is_dir() && !self.watching_dir {
            let _ = self.debouncer.unwatch(dir);
            self.watching_dir = self
                .debouncer
                .watch(dir, RecursiveMode::NonRecursive)
                .is_ok();
        } else if !dir.is_dir() {
            self.watching_dir = false;
        }
        log.emit(
            p,
            "debug",
            "events",
            &format!("{} file event(s)", relevant.len()),
            json!({"count": relevant.len()}),
        );
        Some(first)
    }
}
