//! The hot-load core (pure): given what the directory holds now and what was processed
//! before, decide what to do — apply, report, or unregister — per file and per CRD.
//!
//! The watcher does not trust individual file events (editors save through temp files and
//! renames, moves arrive as pairs or not at all, a directory can vanish): every debounced
//! batch triggers a rescan, and this module diffs the rescan against the last state by
//! content hash. That makes every event kind (create, modify, atomic save, move in/out,
//! several files at once, directory removed and re-created) one code path, and makes a
//! repeated event harmless. A bad file never undoes earlier good state: its CRDs stay
//! registered until the file is fixed or removed (docs/watcher.md).

use std::collections::{BTreeMap, BTreeSet};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use crate::crds::loader::{LoadError, LoadedCrd, parse_bytes, read_consistent, read_entry};

/// One file as scanned: a fingerprint of its bytes and the parse result.
#[derive(Debug, Clone)]
pub struct FileSnapshot {
    /// Hash of the file's bytes (not cryptographic; only compares successive versions).
    pub hash: u64,
    /// The CRDs in it, or why it cannot be loaded.
    pub parsed: Result<Vec<LoadedCrd>, LoadError>,
}

/// Every CRD file of the directory, by path. Empty when the directory does not exist.
pub type Snapshot = BTreeMap<PathBuf, FileSnapshot>;

/// Reads and parses every `.yaml`/`.yml` entry of `dir` (a missing directory is empty).
///
/// Reading goes through [`read_file`]: only regular files of a bounded size, so a FIFO, a
/// device or a directory named `x.yaml` never blocks a scan — it is a per-file error, and the
/// other files are planned as usual. An entry that cannot be read is fingerprinted by its
/// error, so it is reported once, and again only when what is wrong changes (a `chmod o-w`,
/// the FIFO replaced by a file).
///
/// A mounted ConfigMap directory (the kubelet's `..data` layout) is read one generation at a
/// time, through [`read_consistent`]: a ConfigMap update is one change of the snapshot, with
/// every key's new content, never a mix, and never a key missing because the old generation
/// was deleted while it was read.
///
/// # Errors
/// The I/O error of listing an existing directory, or `Interrupted` when a ConfigMap
/// directory changed during every read; unreadable files are per-file errors.
pub fn scan(dir: &Path) -> std::io::Result<Snapshot> {
    scan_with(dir, || {})
}

/// [`scan`], running `between` after the directory is listed and before its files are read
/// (tests update the directory there).
///
/// # Errors
/// As [`scan`].
pub fn scan_with(dir: &Path, between: impl FnMut()) -> std::io::Result<Snapshot> {
    let read = |entries: &[crate::crds::loader::Entry]| {
        let mut snap = Snapshot::new();
        for entry in entries {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            let parsed = match read_entry(entry) {
                // A file deleted between listing and reading is simply gone.
                Ok(None) => continue,
                Ok(Some(bytes)) => {
                    bytes.hash(&mut h);
                    parse_bytes(&bytes, &entry.path)
                }
                Err(e) => {
                    ("unreadable", &e.message).hash(&mut h);
                    Err(e)
                }
            };
            snap.insert(
                entry.path.clone(),
                FileSnapshot {
                    hash: h.finish(),
                    parsed,
                },
            );
        }
        snap
    };
    match read_consistent(dir, between, read) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Snapshot::new()),
        other => other,
    }
}

/// What the watcher must do.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Server-side apply this CRD (new, or its file changed).
    Apply(Box<LoadedCrd>),
    /// The file cannot be loaded; report it (its earlier CRDs stay registered).
    Invalid(LoadError),
    /// The file defines a CRD another file already defines; report it, apply nothing of it.
    Duplicate {
        /// The file that came second.
        file: PathBuf,
        /// The CRD name.
        name: String,
        /// The file that defines it first.
        owner: PathBuf,
    },
    /// The CRD's file was removed or no longer defines it: unregister locally (and prune
    /// from the cluster when asked).
    Unregister {
        /// The CRD name.
        name: String,
        /// The file it came from.
        file: PathBuf,
    },
}

/// What has been processed so far.
#[derive(Debug, Clone, Default)]
pub struct WatchState {
    /// File → hash of the content last planned.
    seen: BTreeMap<PathBuf, u64>,
    /// CRD name → the file that defines it.
    owners: BTreeMap<String, PathBuf>,
    /// File → CRD names it also defines but another file owns.
    duplicates: BTreeMap<PathBuf, BTreeSet<String>>,
    /// Files to plan again although unchanged ([`WatchState::retry`]).
    retry: BTreeSet<PathBuf>,
}

impl WatchState {
    /// The CRD names currently claimed, with their files.
    pub fn owners(&self) -> &BTreeMap<String, PathBuf> {
        &self.owners
    }

    /// Plans `file` again at the next [`WatchState::plan`] although its content did not
    /// change: its CRDs were not applied because the server did not answer, and
    /// are applied when it does. A file removed meanwhile is unregistered as usual.
    pub fn retry(&mut self, file: &Path) {
        if self.seen.contains_key(file) {
            self.retry.insert(file.to_path_buf());
        }
    }

    /// Whether some file waits to be planned again ([`WatchState::retry`]).
    pub fn has_retries(&self) -> bool {
        !self.retry.is_empty()
    }

    /// Diffs `snap` against the processed state and returns the actions, removals first.
    ///
    /// A CRD that leaves one file and is (re)defined by another in the same snapshot — a
    /// rename, a move within the directory, the survivor of two files defining it — is not
    /// unregistered: only names that no file claims afterwards are. (An unregistration with
    /// `--prune` deletes the CRD and every custom resource of it.)
    pub fn plan(&mut self, snap: &Snapshot) -> Vec<Action> {
        let mut actions = Vec::new();
        let gone: Vec<PathBuf> = self
            .seen
            .keys()
            .filter(|f| !snap.contains_key(*f))
            .cloned()
            .collect();
        let mut freed: BTreeMap<String, PathBuf> = BTreeMap::new();
        for f in gone {
            self.seen.remove(&f);
            self.duplicates.remove(&f);
            for name in self.names_of(&f) {
                self.owners.remove(&name);
                freed.insert(name, f.clone());
            }
        }
        let retry = std::mem::take(&mut self.retry);
        let changed: Vec<PathBuf> = snap
            .iter()
            .filter(|(f, fs)| self.seen.get(*f) != Some(&fs.hash) || retry.contains(*f))
            .map(|(f, _)| f.clone())
            .collect();
        for file in &changed {
            self.plan_file(file, snap, &mut actions, &mut freed);
        }
        // A name freed above may be defined by a file that lost the race earlier (a duplicate):
        // plan those files again so the surviving definition registers.
        let retry: Vec<PathBuf> = self
            .duplicates
            .iter()
            .filter(|(f, names)| {
                !changed.contains(f) && names.iter().any(|n| freed.contains_key(n))
            })
            .map(|(f, _)| f.clone())
            .collect();
        for file in &retry {
            self.plan_file(file, snap, &mut actions, &mut freed);
        }
        let mut removals: Vec<Action> = freed
            .into_iter()
            .filter(|(name, _)| !self.owners.contains_key(name))
            .map(|(name, file)| Action::Unregister { name, file })
            .collect();
        removals.append(&mut actions);
        removals
    }

    /// Plans one changed (or retried) file of `snap`.
    fn plan_file(
        &mut self,
        file: &PathBuf,
        snap: &Snapshot,
        actions: &mut Vec<Action>,
        freed: &mut BTreeMap<String, PathBuf>,
    ) {
        let Some(fs) = snap.get(file) else { return };
        self.seen.insert(file.clone(), fs.hash);
        let crds = match &fs.parsed {
            Err(e) => {
                actions.push(Action::Invalid(e.clone()));
                return;
            }
            Ok(c) => c,
        };
        let now: BTreeSet<&str> = crds.iter().map(|c| c.name.as_str()).collect();
        for name in self.names_of(file) {
            if !now.contains(name.as_str()) {
                self.owners.remove(&name);
                freed.insert(name, file.clone());
            }
        }
        self.duplicates.remove(file);
        for c in crds {
            match self.owners.get(&c.name) {
                Some(owner) if owner != file && snap.contains_key(owner) => {
                    self.duplicates
                        .entry(file.clone())
                        .or_default()
                        .insert(c.name.clone());
                    actions.push(Action::Duplicate {
                        file: file.clone(),
                        name: c.name.clone(),
                        owner: owner.clone(),
                    });
                }
                _ => {
                    self.owners.insert(c.name.clone(), file.clone());
                    actions.push(Action::Apply(Box::new(c.clone())));
                }
            }
        }
    }

    fn names_of(&self, file: &Path) -> Vec<String> {
        self.owners
            .iter()
            .filter(|(_, f)| f.as_path() == file)
            .map(|(n, _)| n.clone())
            .collect()
    }
}

#[cfg(test)]
mod tests;
