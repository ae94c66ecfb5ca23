//! The CRD registry: which CRDs this tool registered from which file.
//!
//! Kept in `$MYOPS_HOME/crd-registry.json` so one-shot commands (a `get` in a new process)
//! add the registered types to the plugin.yaml boundary ("CRDs loaded from crdDir are
//! added", docs/configuration.md). Updated under an exclusive lock, written atomically.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::base::fsutil;
use crate::crds::LoadedCrd;

/// Largest registry file read, in bytes (16 MiB: tens of thousands of entries of a few
/// hundred bytes; anything larger is not a file this tool wrote).
pub const MAX_BYTES: u64 = 16 * 1024 * 1024;

/// One registered CRD.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RegistryEntry {
    /// `spec.group`.
    pub group: String,
    /// `spec.names.plural`.
    pub plural: String,
    /// `spec.names.kind`.
    pub kind: String,
    /// Served versions.
    pub versions: Vec<String>,
    /// `Namespaced` or `Cluster`.
    pub scope: String,
    /// The file it was loaded from.
    pub file: PathBuf,
}

/// The registry file's content: CRD name (`plural.group`) → entry.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Registry {
    /// Format version, 1.
    pub version: u32,
    /// Registered CRDs by name.
    pub crds: BTreeMap<String, RegistryEntry>,
}

/// Why the registry could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    /// I/O on the registry or its lock.
    #[error("CRD registry {path}: {source}; check the permissions of MYOPS_HOME")]
    Io {
        /// The registry file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The file is not valid JSON of this format.
    #[error("CRD registry {path} is corrupt ({source}); delete it and run `crds sync` again")]
    Corrupt {
        /// The registry file.
        path: PathBuf,
        /// The parse error.
        #[source]
        source: serde_json::Error,
    },
}

impl Registry {
    /// The registry file under `home`.
    pub fn path(home: &Path) -> PathBuf {
        home.join("crd-registry.json")
    }

    /// Reads the registry; a missing file is an empty registry. Read with
    /// [`fsutil::read_regular`] (at most [`MAX_BYTES`]), so a FIFO or device planted in
    /// MYOPS_HOME is an error, never a hang.
    ///
    /// # Errors
    /// [`RegistryError`] for unreadable, oversize, non-regular or corrupt files.
    pub fn load(home: &Path) -> Result<Registry, RegistryError> {
        let path = Registry::path(home);
        match fsutil::read_regular(&path, MAX_BYTES) {
            Ok(bytes) => serde_json::from_slice(&bytes)
                .map_err(|source| RegistryError::Corrupt { path, source }),
            Err(e) if matches!(e.problem, fsutil::Unreadable::Missing) => Ok(Registry {
                version: 1,
                crds: BTreeMap::new(),
            }),
            Err(e) => Err(RegistryError::Io {
                path,
                source: e.into(),
            }),
        }
    }

    /// Adds or replaces `crds` under the lock and writes the file atomically.
    ///
    /// # Errors
    /// [`RegistryError`] when the lock, read or write fails.
    pub fn upsert(home: &Path, crds: &[&LoadedCrd]) -> Result<Registry, RegistryError> {
        Registry::update(home, |reg| {
            for c in crds {
                reg.crds.insert(
                    c.name.clone(),
                    RegistryEntry {
                        group: c.group.clone(),
                        plural: c.plural.clone(),
                        kind: c.kind.clone(),
                        versions: c.versions.clone(),
                        scope: c.scope.clone(),
                        file: c.file.clone(),
                    },
                );
            }
        })
    }

    /// Removes `names` under the lock (a CRD file was removed: unregister locally).
    ///
    /// # Errors
    /// [`RegistryError`] when the lock, read or write fails.
    pub fn remove(home: &Path, names: &[String]) -> Result<Registry, RegistryError> {
        Registry::update(home, |reg| {
            for n in names {
                reg.crds.remove(n);
            }
        })
    }

    /// Read-modify-write of the registry under its lock, written atomically.
    fn update(home: &Path, change: impl FnOnce(&mut Registry)) -> Result<Registry, RegistryError> {
        let path = Registry::path(home);
        let io = |source| RegistryError::Io {
            path: path.clone(),
            source,
        };
        let _lock = fsutil::lock_exclusive(&home.join("crd-registry.lock")).map_err(io)?;
        let mut reg = Registry::load(home)?;
        reg.version = 1;
        change(&mut reg);
        let bytes = serde_json::to_vec_pretty(&reg).map_err(|e| io(std::io::Error::other(e)))?;
        fsutil::write_atomic(&path, &bytes).map_err(io)?;
        Ok(reg)
    }

    /// The registered names (`plural.group`), for the plugin.yaml boundary.
    pub fn names(&self) -> Vec<String> {
        self.crds.keys().cloned().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn upsert_then_load_round_trips_and_missing_file_is_empty() {
        let home = tempfile::tempdir().unwrap();
        assert!(Registry::load(home.path()).unwrap().crds.is_empty());
        let crd = LoadedCrd {
            name: "foos.example.com".into(),
            group: "example.com".into(),
            plural: "foos".into(),
            kind: "Foo".into(),
            scope: "Namespaced".into(),
            versions: vec!["v1".into()],
            storage_version: "v1".into(),
            file: PathBuf::from("/d/foo.yaml"),
            line: 1,
            body: serde_json::json!({}),
        };
        Registry::upsert(home.path(), &[&crd]).unwrap();
        let reg = Registry::load(home.path()).unwrap();
        assert_eq!(reg.names(), vec!["foos.example.com".to_string()]);
        assert_eq!(
            reg.crds["foos.example.com"].file,
            PathBuf::from("/d/foo.yaml")
        );
        Registry::remove(home.path(), &["foos.example.com".to_string()]).unwrap();
        assert!(Registry::load(home.path()).unwrap().crds.is_empty());
    }

    #[test]
    fn corrupt_registry_is_an_error_that_says_what_to_do() {
        let home = tempfile::tempdir().unwrap();
        std::fs::write(Registry::path(home.path()), "{nope").unwrap();
        let e = Registry::load(home.path()).unwrap_err();
        assert!(
            e.to_string()
                .contains("delete it and run `crds sync` again"),
            "{e}"
        );
    }
}
