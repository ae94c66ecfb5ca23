//! Reading journaled changes, pure: which fields a journaled patch touched
//! ([`touched_paths`], shared by `rollback` and `changelog why`), how a user names a field
//! ([`field_pointer`]) and whether a change touched it ([`touches`]); which entries the hash
//! chain contradicts ([`contradicted`]); and what the live object says about an unknown
//! outcome ([`reconcile`]); and which journaled objects changed since ([`drift`]).
//!
//! Below `verbs/` so that `rollback` and `changelog` share it without importing each other;
//! [`live`] is its one I/O edge, the guarded read of a journaled object (`changelog diff`,
//! `drift`).

pub mod drift;
mod fields;
mod integrity;
pub mod live;
mod outcome;
pub mod team;
pub mod undelete;

pub use fields::{escape, field_pointer, touched_by, touched_paths};
pub use integrity::contradicted;
pub use live::type_name;
pub use outcome::{Verdict, reconcile, reconcile_delete};

/// Whether a change that touched `touched` touched `field` ([`crate::rules::diff::touches`]; it
/// lives with the structured diff, which filters by it).
pub use crate::rules::diff::touches;
