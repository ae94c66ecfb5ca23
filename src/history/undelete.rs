//! Creating a deleted object again from the change log — what `undelete` and `rollback` of a
//! delete (a `delete` entry, a CRD prune, a rollback that deleted) share, so one piece of code
//! re-creates (docs/delete.md).
//!
//! Which entry ([`latest_delete`], [`check_entry`], pure): the latest delete of the object on
//! this server, a delete the server made (`success` or `deleting`) or an object journaled with
//! its container's delete (`snapshot`) whose container's delete succeeded; never a dry run, a
//! failed attempt, an entry the hash chain contradicts (an edited record), or a Secret whose
//! values the change log never stored.
//!
//! What is created ([`crate::guard::change::snapshot`]): the before-state without the fields
//! the server sets; owner references are kept only when the owner (by uid) exists now — or was
//! created again by the same undelete, whose new uid replaces the old one — and each dropped
//! one is reported. The journaled `status` comes back too: in the create for a type without a
//! `status` subresource (there it is an ordinary field), else written after the create
//! through `<resource>/status` in the same entry, when a `patch` review of the subresource
//! allows it (otherwise a `note:` says it was not restored); a namespace's and a CRD's status
//! are the API server's own and are left to it.
//!
//! How ([`Undo::undelete`], [`create`]): a journaled `Change::Create` through the guarded path
//! (plugin.yaml verb `delete` bounds it, a `create` review), refused before anything is sent
//! when an object of that name exists again (exit 5) or its namespace is Terminating (exit 5).
//! A namespace or CRD comes back first, waited for until Active or Established, then the
//! objects journaled with it ([`container`]: owners before dependents; dependents a controller
//! re-creates from a restored owner, and a namespace's `default` ServiceAccount and
//! `kube-root-ca.crt` ConfigMap, are left to their controllers), one line per object.

pub mod container;
pub mod create;
pub mod entry;
pub mod pick;

use std::collections::HashMap;

pub use create::Undo;
pub use pick::{check_entry, latest_delete};

use crate::exit::ExitStatus;
use crate::guard::GuardError;
use crate::output::OutputError;

/// Why an undelete was refused or did not finish.
#[derive(Debug, thiserror::Error)]
pub enum UndeleteError {
    /// No change-log entry has this id.
    #[error("no change-log entry {0}; see `kubectl myops changelog list`")]
    NoEntry(String),
    /// No delete entry of the object on this server.
    #[error(
        "no delete entry of {what} made on {server} in the change log; `kubectl myops changelog list` lists the entries (undelete --entry ID names one)"
    )]
    NoDelete {
        /// The object as named.
        what: String,
        /// The server the context points at.
        server: String,
    },
    /// The entry cannot be undone exactly (nothing was sent).
    #[error("entry {id} cannot be undeleted: {why}")]
    Refused {
        /// The entry id.
        id: String,
        /// Why, in a sentence.
        why: String,
    },
    /// An object of that name exists again.
    #[error(
        "{object} exists again (uid {uid}), so entry {id} was not undeleted and nothing was changed; delete it first if the journaled one must come back"
    )]
    Exists {
        /// The object.
        object: String,
        /// The entry id.
        id: String,
        /// The live object's uid (`unknown` when the server said only AlreadyExists).
        uid: String,
    },
    /// The deleted object is still there, held by finalizers (the delete's result was
    /// `deleting`): it cannot be created again before it is gone.
    #[error(
        "{object} of entry {id} is still being deleted (finalizers {finalizers} hold it), so it cannot be created again yet; nothing was sent — undelete it once it is gone"
    )]
    StillDeleting {
        /// The object.
        object: String,
        /// The entry id.
        id: String,
        /// The finalizers still present.
        finalizers: String,
    },
    /// The object the entry would have deleted is still there, the same one (its uid), not
    /// being deleted: the delete — whose outcome was unknown — was not applied.
    #[error(
        "{object} of entry {id} is still there (the same uid, not being deleted): its delete was not applied, so there is nothing to undelete and nothing was sent; `kubectl myops changelog reconcile {id}` records that"
    )]
    NotDeleted {
        /// The object.
        object: String,
        /// The entry id.
        id: String,
    },
    /// The object's namespace is being deleted.
    #[error(
        "namespace {namespace} is Terminating, so {object} of entry {id} cannot be created in it; nothing was sent — wait until it is gone and undelete the namespace first"
    )]
    Terminating {
        /// The namespace.
        namespace: String,
        /// The object.
        object: String,
        /// The entry id.
        id: String,
    },
    /// The container came back but some of its objects did not.
    #[error(
        "{failed} of {total} object(s) journaled with entry {id} were not restored (each is named above); fix what those lines say and undelete them one by one with `kubectl myops undelete --entry ID`"
    )]
    Incomplete {
        /// The container's entry id.
        id: String,
        /// How many failed.
        failed: usize,
        /// How many objects were journaled with it.
        total: usize,
    },
    /// The container did not become ready in time.
    #[error(
        "{object} was created again but is not {state} after {seconds} s; its objects were not restored — undelete them once it is, with `kubectl myops undelete --entry {id}`"
    )]
    NotReady {
        /// The container.
        object: String,
        /// `Active` or `Established`.
        state: &'static str,
        /// The wait, in seconds.
        seconds: u64,
        /// The container's entry id.
        id: String,
    },
    /// The guarded path's error (a refusal, the server's answer, the journal).
    #[error(transparent)]
    Guard(#[from] GuardError),
    /// Writing the output failed.
    #[error(transparent)]
    Output(#[from] OutputError),
}

impl UndeleteError {
    /// 4 for no entry, 2 for an entry that cannot be undone, 5 for an object that exists
    /// again (or was never deleted) or a namespace that is Terminating, 1 for an incomplete container.
    pub fn exit_status(&self) -> ExitStatus {
        match self {
            UndeleteError::NoDelete { .. } | UndeleteError::NoEntry(_) => ExitStatus::NotFound,
            UndeleteError::Refused { .. } => ExitStatus::Usage,
            UndeleteError::Exists { .. }
            | UndeleteError::StillDeleting { .. }
            | UndeleteError::NotDeleted { .. }
            | UndeleteError::Terminating { .. } => ExitStatus::Conflict,
            UndeleteError::Incomplete { .. } | UndeleteError::NotReady { .. } => {
                ExitStatus::Failure
            }
            UndeleteError::Guard(e) => e.exit_status(),
            UndeleteError::Output(e) => e.exit_status(),
        }
    }
}

/// Whether `obj` holds other objects that its delete journals (a namespace, a CRD).
pub fn is_container(obj: &crate::guard::ObjectRef) -> bool {
    matches!(
        (obj.t.api.group.as_str(), obj.t.api.kind.as_str()),
        ("", "Namespace") | ("apiextensions.k8s.io", "CustomResourceDefinition")
    )
}

/// The entries whose records the hash chain contradicts, with why ([`super::contradicted`]).
pub type Contradicted = HashMap<String, String>;

/// The change log as an undelete reads it.
#[derive(Debug, Default)]
pub struct Log {
    /// Every record, in the order written.
    pub entries: Vec<crate::changelog::Entry>,
    /// The last record of every id ([`crate::changelog::latest`]).
    pub latest: Vec<crate::changelog::Entry>,
    /// The ids the hash chain contradicts, with why.
    pub contradicted: Contradicted,
    /// How many lines are no valid records (skipped; the caller warns).
    pub invalid: usize,
}

/// Reads the change log in `home` with what the hash chain says of it.
///
/// # Errors
/// The change log cannot be read.
pub fn read_log(home: &std::path::Path) -> Result<Log, crate::changelog::ChangelogError> {
    let (entries, invalid) = crate::changelog::read_all(home)?;
    let (files, _) = crate::changelog::read_files(home)?;
    Ok(Log {
        latest: crate::changelog::latest(entries.clone()),
        entries,
        contradicted: super::contradicted(&files),
        invalid: invalid.len(),
    })
}
