//! The file events of the watched directory, settled into bursts: notify's raw events (the
//! parent directory watched too, so that a directory that appears is picked up), handled at
//! once when a CRD file is finished and after a short quiet time otherwise.
//!
//! A CRD file is finished when it was closed after writing (inotify `IN_CLOSE_WRITE`: one
//! `write` + `close`, `cp`, an editor writing in place) or renamed into place (`IN_MOVED_TO`:
//! the temp-file-and-rename save of most editors and of `kubectl`-style tools) and no CRD file
//! is still open for writing. Nothing more is coming for it, so waiting would only add
//! latency. Everything else — removals, renames away, attribute changes, the directory
//! itself, a mounted ConfigMap's `..data` swap — waits for [`DEBOUNCE_MS`] of quiet, as a
//! remove may be followed by the new file. A CRD file written to and not closed yet (several
//! `write`s with pauses) is waited for until it is closed, for at most [`OPEN_WRITE_WAIT`] of
//! quiet: a half-written file is never planned while its writer is still at it
//! (man 7 inotify; on backends without close events, only the debounce applies).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use notify::event::{AccessKind, AccessMode, CreateKind, ModifyKind, RenameMode};
use notify::{Event, EventKind, RecommendedWatcher, RecursiveMode, Watcher};
use serde_json::json;
use tokio::sync::mpsc::UnboundedReceiver;

use super::log::Log;
use crate::output::Printer;
use crate::verbs::VerbError;

/// Quiet time before a burst of file events that did not finish a CRD file is handled, in
/// milliseconds: long enough to merge an editor's remove-then-write, short enough for the
/// ≤ 60 ms watcher share.
pub const DEBOUNCE_MS: u64 = 25;

/// How long a burst waits for a CRD file written to but not closed yet, counted from its
/// last event: its writer is pausing between writes. After that the file is read as it is
/// (a writer that keeps it open for good). Only where the file watcher reports closes
/// (inotify); elsewhere the debounce alone applies.
pub const OPEN_WRITE_WAIT: Duration = if cfg!(target_os = "linux") {
    Duration::from_secs(2)
} else {
    Duration::from_millis(DEBOUNCE_MS)
};

/// One raw event as it arrived, with when it arrived.
type Raw = (Instant, notify::Result<Event>);

/// The file events of one directory, settled into bursts.
pub(super) struct Files {
    watcher: RecommendedWatcher,
    rx: UnboundedReceiver<Raw>,
    dir: PathBuf,
    /// The directory itself is watched (it exists and the watch was set).
    watching_dir: bool,
    /// The burst being gathered (kept here so a cancelled [`Files::recv`] loses nothing).
    burst: Option<Burst>,
    /// Watcher errors not reported yet.
    errors: Vec<notify::Error>,
}

/// What [`Files::recv`] hands over.
pub(super) enum Settled {
    /// A burst of events that touch the directory, settled.
    Burst(Burst),
    /// The file watcher failed.
    Errors(Vec<notify::Error>),
}

/// A burst of events that touch the directory, and whether it may be handled yet.
#[derive(Debug, Clone)]
pub(super) struct Burst {
    /// When its first event arrived.
    pub(super) first: Instant,
    /// When its last event arrived.
    last: Instant,
    /// How many events it has.
    pub(super) count: usize,
    /// CRD files written to (or created) and not closed since.
    open: BTreeSet<PathBuf>,
    /// A CRD file was closed after writing or renamed into place.
    finished: bool,
}

impl Burst {
    fn new(at: Instant) -> Burst {
        Burst {
            first: at,
            last: at,
            count: 0,
            open: BTreeSet::new(),
            finished: false,
        }
    }

    /// Takes one event of `dir` into the burst.
    fn absorb(&mut self, ev: &Event, at: Instant, dir: &Path) {
        self.last = self.last.max(at);
        self.count += 1;
        for path in ev.paths.iter().filter(|p| is_crd_file(dir, p)) {
            match ev.kind {
                EventKind::Access(AccessKind::Close(AccessMode::Write))
                | EventKind::Modify(ModifyKind::Name(RenameMode::To)) => {
                    self.open.remove(path);
                    self.finished = true;
                }
                // A symbolic link is complete when it appears; a new file is written next.
                EventKind::Create(CreateKind::File | CreateKind::Any) => {
                    if path.is_symlink() {
                        self.finished = true;
                    } else {
                        self.open.insert(path.clone());
                    }
                }
                EventKind::Modify(ModifyKind::Data(_) | ModifyKind::Any) => {
                    self.open.insert(path.clone());
                }
                EventKind::Remove(_) | EventKind::Modify(ModifyKind::Name(RenameMode::From)) => {
                    self.open.remove(path);
                }
                _ => {}
            }
        }
    }

    /// When the burst may be handled: at once when a CRD file is finished and none is still
    /// open for writing; [`OPEN_WRITE_WAIT`] after the last event while one is open;
    /// [`DEBOUNCE_MS`] after it otherwise.
    pub(super) fn due(&self) -> Instant {
        if !self.open.is_empty() {
            self.last + OPEN_WRITE_WAIT
        } else if self.finished {
            self.last
        } else {
            self.last + Duration::from_millis(DEBOUNCE_MS)
        }
    }

    /// Whether it is handled without waiting for quiet (a CRD file was finished).
    pub(super) fn at_once(&self) -> bool {
        self.finished && self.open.is_empty()
    }
}

/// Whether `path` is a file the loader reads: a `.yaml`/`.yml` entry of `dir` whose name
/// is not hidden ([`crate::crds::loader`]).
fn is_crd_file(dir: &Path, path: &Path) -> bool {
    path.parent() == Some(dir)
        && path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| !n.starts_with('.'))
        && matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("yaml" | "yml")
        )
}

/// Whether `ev` is about `dir` (or says events were lost and everything must be rescanned).
/// Reads — our own rescans among them — are Access events and are left out, so a rescan
/// never triggers the next one; a close after writing is a writer's and counts.
fn touches(ev: &Event, dir: &Path) -> bool {
    let read = matches!(ev.kind, EventKind::Access(_))
        && !matches!(
            ev.kind,
            EventKind::Access(AccessKind::Close(AccessMode::Write))
        );
    !read && (ev.need_rescan() || ev.paths.iter().any(|p| p.starts_with(dir)))
}

impl Files {
    /// Starts watching `parent` and, when it exists, `dir`.
    ///
    /// # Errors
    /// [`VerbError::Io`] when the file watcher cannot start or `parent` cannot be watched.
    pub(super) fn start(dir: &Path, parent: &Path) -> Result<Files, VerbError> {
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel::<Raw>();
        let mut watcher = notify::recommended_watcher(move |r| {
            let _ = tx.send((Instant::now(), r));
        })
        .map_err(|e| VerbError::io(format!("cannot start the file watcher: {e}")))?;
        watcher
            .watch(parent, RecursiveMode::NonRecursive)
            .map_err(|e| VerbError::io(format!("cannot watch {}: {e}", parent.display())))?;
        let watching_dir = dir.is_dir() && watcher.watch(dir, RecursiveMode::NonRecursive).is_ok();
        Ok(Files {
            watcher,
            rx,
            dir: dir.to_path_buf(),
            watching_dir,
            burst: None,
            errors: Vec::new(),
        })
    }

    /// The next settled burst (or watcher errors); `None` when the watcher is gone.
    /// Cancel-safe: what was gathered stays for the next call.
    pub(super) async fn recv(&mut self) -> Option<Settled> {
        loop {
            if !self.errors.is_empty() {
                return Some(Settled::Errors(std::mem::take(&mut self.errors)));
            }
            match self.burst.as_ref().map(Burst::due) {
                Some(due) if due <= Instant::now() => {
                    return self.burst.take().map(Settled::Burst);
                }
                Some(due) => {
                    tokio::select! {
                        raw = self.rx.recv() => match raw {
                            Some(raw) => self.absorb(raw),
                            None => return self.burst.take().map(Settled::Burst),
                        },
                        () = tokio::time::sleep_until(due.into()) => {}
                    }
                }
                None => match self.rx.recv().await {
                    Some(raw) => self.absorb(raw),
                    None => return None,
                },
            }
            // What has arrived already belongs to this burst: decide on all of it at once.
            while let Ok(raw) = self.rx.try_recv() {
                self.absorb(raw);
            }
        }
    }

    fn absorb(&mut self, (at, r): Raw) {
        match r {
            Err(e) => self.errors.push(e),
            Ok(ev) if touches(&ev, &self.dir) => self
                .burst
                .get_or_insert_with(|| Burst::new(at))
                .absorb(&ev, at, &self.dir),
            Ok(_) => {}
        }
    }

    /// When the first event of a settled burst happened, `None` for watcher errors (which
    /// are logged). The directory itself is watched again when it has appeared.
    pub(super) fn first_relevant(
        &mut self,
        settled: Settled,
        log: &Log,
        p: &mut Printer<'_>,
    ) -> Option<Instant> {
        let burst = match settled {
            Settled::Burst(b) => b,
            Settled::Errors(errors) => {
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
        if dir.is_dir() && !self.watching_dir {
            let _ = self.watcher.unwatch(dir);
            self.watching_dir = self.watcher.watch(dir, RecursiveMode::NonRecursive).is_ok();
        } else if !dir.is_dir() {
            self.watching_dir = false;
        }
        log.emit(
            p,
            "debug",
            "events",
            &format!(
                "{} file event(s){}",
                burst.count,
                if burst.at_once() {
                    ", a file finished: handled at once"
                } else {
                    ""
                }
            ),
            json!({"count": burst.count, "atOnce": burst.at_once(), "settledMs": burst.first.elapsed().as_secs_f64() * 1000.0}),
        );
        Some(burst.first)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(kind: EventKind, path: &str) -> Event {
        Event::new(kind).add_path(PathBuf::from(path))
    }

    fn burst(events: &[Event]) -> Burst {
        let t = Instant::now();
        let mut b = Burst::new(t);
        for e in events {
            b.absorb(e, t, Path::new("/d"));
        }
        b
    }

    const CLOSE_WRITE: EventKind = EventKind::Access(AccessKind::Close(AccessMode::Write));
    const DATA: EventKind = EventKind::Modify(ModifyKind::Data(notify::event::DataChange::Any));
    const CREATE: EventKind = EventKind::Create(CreateKind::File);
    const MOVED_TO: EventKind = EventKind::Modify(ModifyKind::Name(RenameMode::To));
    const MOVED_FROM: EventKind = EventKind::Modify(ModifyKind::Name(RenameMode::From));
    const REMOVE: EventKind = EventKind::Remove(notify::event::RemoveKind::File);

    #[test]
    fn a_file_written_once_and_closed_is_handled_at_once() {
        let b = burst(&[
            ev(CREATE, "/d/a.yaml"),
            ev(DATA, "/d/a.yaml"),
            ev(CLOSE_WRITE, "/d/a.yaml"),
        ]);
        assert!(b.at_once());
        assert_eq!(b.due(), b.last);
    }

    #[test]
    fn a_temp_file_renamed_into_place_is_handled_at_once() {
        // The temp file is hidden and not a CRD file: only the rename into place counts.
        let b = burst(&[
            ev(CREATE, "/d/.a.yaml.swp"),
            ev(DATA, "/d/.a.yaml.swp"),
            ev(CLOSE_WRITE, "/d/.a.yaml.swp"),
            ev(MOVED_FROM, "/d/.a.yaml.swp"),
            ev(MOVED_TO, "/d/a.yaml"),
        ]);
        assert!(b.at_once());
    }

    #[test]
    fn a_file_still_open_for_writing_is_waited_for_until_closed() {
        let mut b = burst(&[ev(CREATE, "/d/a.yaml"), ev(DATA, "/d/a.yaml")]);
        assert!(!b.at_once());
        assert_eq!(b.due(), b.last + OPEN_WRITE_WAIT);
        // Another file finishing meanwhile does not end the wait for the open one.
        b.absorb(&ev(CLOSE_WRITE, "/d/b.yaml"), b.last, Path::new("/d"));
        assert_eq!(b.due(), b.last + OPEN_WRITE_WAIT);
        b.absorb(&ev(CLOSE_WRITE, "/d/a.yaml"), b.last, Path::new("/d"));
        assert!(b.at_once());
    }

    #[test]
    fn removals_renames_away_and_other_files_wait_for_quiet() {
        for events in [
            vec![ev(REMOVE, "/d/a.yaml")],
            vec![ev(MOVED_FROM, "/d/a.yaml")],
            vec![ev(CLOSE_WRITE, "/d/notes.txt")],
            vec![ev(CLOSE_WRITE, "/d/.hidden.yaml")],
            vec![ev(CLOSE_WRITE, "/d/sub/a.yaml")],
        ] {
            let b = burst(&events);
            assert!(!b.at_once(), "{events:?}");
            assert_eq!(
                b.due(),
                b.last + Duration::from_millis(DEBOUNCE_MS),
                "{events:?}"
            );
        }
    }

    #[test]
    fn our_own_reads_are_not_events_but_a_writers_close_is() {
        let dir = Path::new("/d");
        let read = EventKind::Access(AccessKind::Close(AccessMode::Read));
        let open = EventKind::Access(AccessKind::Open(AccessMode::Any));
        assert!(!touches(&ev(read, "/d/a.yaml"), dir));
        assert!(!touches(&ev(open, "/d/a.yaml"), dir));
        assert!(touches(&ev(CLOSE_WRITE, "/d/a.yaml"), dir));
        assert!(!touches(&ev(CLOSE_WRITE, "/other/a.yaml"), dir));
        let overflow = Event::new(EventKind::Other).set_flag(notify::event::Flag::Rescan);
        assert!(touches(&overflow, dir));
    }
}
