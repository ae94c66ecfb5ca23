//! CustomResourceDefinitions from a directory: the loader (files → validated CRD
//! documents) and the registry (what this tool registered, found by one-shot commands).
//! `crds sync` uses both; the hot-load watcher (`crds watch`) is built on the same two.

pub mod apply;
pub mod loader;
pub mod registry;
pub mod watch;

pub use apply::{Applier, ApplyError, FIELD_MANAGER, Journal, crd_type};
pub use loader::{FileLoad, LoadError, LoadedCrd, load_dir, load_file, parse_crds};
pub use registry::{Registry, RegistryEntry, RegistryError};
pub use watch::{Action, FileSnapshot, Snapshot, WatchState, scan};
