//! The hot-load core (pure): given what the directory holds now and what was processed
//! before, decide what to do — apply, report, or unregister — per file and per CRD.
//!
//! The watcher does not trust individual file events (editors save through temp files and
//! renames, moves arrive as pairs or not at all, a directory can vanish): every debounced
//! batch triggers a rescan, and this module diffs the rescan against the last state by
//! content hash. That makes every event kind (create, modify, atomic save, move in/out,
//! several files at once, directory removed and re-created) one code path, and makes a
//! repeated event harmless. A bad file never undoes earlier good state: its CRDs stay
//! registered until the file is fixed or removed (ARCHITECTURE §5).

use std::collections::{BTreeMap, BTreeSet};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

#[cfg(test)]
use crate::crds::loader::parse_crds;
use crate::crds::loader::{LoadError, LoadedCrd, crd_files, parse_bytes, read_file};

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
/// # Errors
/// The I/O error of listing an existing directory; unreadable files are per-file errors.
pub fn scan(dir: &Path) -> std::io::Result<Snapshot> {
    let files = match crd_files(dir) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Snapshot::new()),
        Err(e) => return Err(e),
    };
    let mut snap = Snapshot::new();
    for f in files {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        let parsed = match read_file(&f) {
            // A file deleted between listing and reading is simply gone.
            Ok(None) => continue,
            Ok(Some(bytes)) => {
                bytes.hash(&mut h);
                parse_bytes(&bytes, &f)
            }
            Err(e) => {
                ("unreadable", &e.message).hash(&mut h);
                Err(e)
            }
        };
        snap.insert(
            f,
            FileSnapshot {
                hash: h.finish(),
                parsed,
            },
        );
    }
    Ok(snap)
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
}

impl WatchState {
    /// The CRD names currently claimed, with their files.
    pub fn owners(&self) -> &BTreeMap<String, PathBuf> {
        &self.owners
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
        let changed: Vec<PathBuf> = snap
            .iter()
            .filter(|(f, fs)| self.seen.get(*f) != Some(&fs.hash))
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
mod tests {
    use super::*;

    fn crd_text(plural: &str) -> String {
        format!(
            "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {{name: {plural}.example.com}}\nspec:\n  group: example.com\n  scope: Namespaced\n  names: {{plural: {plural}, kind: K{plural}}}\n  versions: [{{name: v1, served: true, storage: true, schema: {{openAPIV3Schema: {{type: object}}}}}}]\n"
        )
    }

    fn snap(files: &[(&str, &str)]) -> Snapshot {
        files
            .iter()
            .map(|(f, text)| {
                let mut h = std::collections::hash_map::DefaultHasher::new();
                text.hash(&mut h);
                (
                    PathBuf::from(f),
                    FileSnapshot {
                        hash: h.finish(),
                        parsed: parse_crds(text, Path::new(f)),
                    },
                )
            })
            .collect()
    }

    fn summary(actions: &[Action]) -> Vec<String> {
        actions
            .iter()
            .map(|a| match a {
                Action::Apply(c) => format!("apply {}", c.name),
                Action::Invalid(e) => format!("invalid {}", e.file.display()),
                Action::Duplicate { file, name, owner } => format!(
                    "duplicate {name} in {} (owner {})",
                    file.display(),
                    owner.display()
                ),
                Action::Unregister { name, file } => {
                    format!("unregister {name} ({})", file.display())
                }
            })
            .collect()
    }

    #[test]
    fn new_changed_unchanged_and_removed_files() {
        let mut st = WatchState::default();
        let a = crd_text("as");
        let b = crd_text("bs");
        assert_eq!(
            summary(&st.plan(&snap(&[("a.yaml", &a), ("b.yaml", &b)]))),
            ["apply as.example.com", "apply bs.example.com"]
        );
        // Same content again (a repeated or spurious event): nothing to do.
        assert!(st.plan(&snap(&[("a.yaml", &a), ("b.yaml", &b)])).is_empty());
        // b changes, a is removed.
        let b2 = b.replace("scope: Namespaced", "scope: Cluster");
        assert_eq!(
            summary(&st.plan(&snap(&[("b.yaml", &b2)]))),
            ["unregister as.example.com (a.yaml)", "apply bs.example.com"]
        );
    }

    #[test]
    fn an_invalid_version_keeps_the_earlier_good_crds_until_fixed() {
        let mut st = WatchState::default();
        let a = crd_text("as");
        st.plan(&snap(&[("a.yaml", &a)]));
        let half = &a[..a.len() / 2];
        assert_eq!(
            summary(&st.plan(&snap(&[("a.yaml", half)]))),
            ["invalid a.yaml"]
        );
        assert_eq!(
            st.owners().get("as.example.com"),
            Some(&PathBuf::from("a.yaml"))
        );
        assert_eq!(
            summary(&st.plan(&snap(&[("a.yaml", &a)]))),
            ["apply as.example.com"]
        );
    }

    #[test]
    fn the_same_crd_in_two_files_applies_once_and_the_survivor_takes_over() {
        let mut st = WatchState::default();
        let a = crd_text("as");
        let acts = st.plan(&snap(&[("1.yaml", &a), ("2.yaml", &a)]));
        assert_eq!(
            summary(&acts),
            [
                "apply as.example.com",
                "duplicate as.example.com in 2.yaml (owner 1.yaml)"
            ]
        );
        // The survivor takes over: re-applied, never unregistered (with --prune that would
        // delete the CRD and its custom resources).
        let acts = st.plan(&snap(&[("2.yaml", &a)]));
        assert_eq!(summary(&acts), ["apply as.example.com"]);
        assert_eq!(
            st.owners().get("as.example.com"),
            Some(&PathBuf::from("2.yaml"))
        );
    }

    #[test]
    fn removing_one_of_two_duplicate_files_touches_no_other_crd() {
        let mut st = WatchState::default();
        let (a, b, d) = (crd_text("as"), crd_text("bs"), crd_text("ds"));
        st.plan(&snap(&[
            ("a.yaml", &a),
            ("b.yaml", &b),
            ("d1.yaml", &d),
            ("d2.yaml", &d),
        ]));
        let acts = st.plan(&snap(&[("a.yaml", &a), ("b.yaml", &b), ("d2.yaml", &d)]));
        assert_eq!(summary(&acts), ["apply ds.example.com"]);
        assert_eq!(st.owners().len(), 3);
    }

    #[test]
    fn a_rename_within_the_directory_never_unregisters_the_crd() {
        let mut st = WatchState::default();
        let a = crd_text("as");
        st.plan(&snap(&[("a.yaml", &a)]));
        assert_eq!(
            summary(&st.plan(&snap(&[("renamed.yaml", &a)]))),
            ["apply as.example.com"]
        );
        assert_eq!(
            st.owners().get("as.example.com"),
            Some(&PathBuf::from("renamed.yaml"))
        );
    }

    #[test]
    fn a_file_that_drops_one_of_its_crds_unregisters_only_that_one() {
        let mut st = WatchState::default();
        let both = format!("{}---\n{}", crd_text("as"), crd_text("bs"));
        st.plan(&snap(&[("m.yaml", &both)]));
        let acts = st.plan(&snap(&[("m.yaml", &crd_text("bs"))]));
        assert_eq!(
            summary(&acts),
            ["unregister as.example.com (m.yaml)", "apply bs.example.com"]
        );
    }

    #[test]
    fn the_directory_vanishing_unregisters_everything_and_its_return_reapplies() {
        let mut st = WatchState::default();
        let a = crd_text("as");
        st.plan(&snap(&[("d/a.yaml", &a)]));
        assert_eq!(
            summary(&st.plan(&Snapshot::new())),
            ["unregister as.example.com (d/a.yaml)"]
        );
        assert_eq!(
            summary(&st.plan(&snap(&[("d/a.yaml", &a)]))),
            ["apply as.example.com"]
        );
    }
}
