//! CustomResourceDefinitions from a directory: the loader (files → validated CRD
//! documents, read by the one multi-document reader [`documents`], which `apply -f` reads
//! manifests with too) and the registry (what this tool registered, found by one-shot commands).
//! `crds sync` and `crds watch` use them through the guarded path's one batch function
//! (`guard::crd_batch`), which applies what the planner ([`watch`]) decides.

pub mod documents;
pub mod loader;
pub mod registry;
pub mod watch;

pub use loader::{
    FileLoad, LoadError, LoadedCrd, MAX_FILE_BYTES, check_dir_mode, load_dir, load_file,
    parse_bytes, parse_crds, read_file,
};
pub use registry::{Registry, RegistryEntry, RegistryError};
pub use watch::{Action, FileSnapshot, Snapshot, WatchState, scan};
