//! Pure judgements about objects (docs/design.md, "Layers"), shared by the guarded path, the
//! change log and the verbs:
//!
//! - [`diff`]: the structured diff of two states of an object, as JSON-pointer operations;
//! - [`policy`]: plugin.yaml field-path policies — which fields of which objects a change may
//!   not touch;
//! - [`protect`]: plugin.yaml protected contexts and namespaces — which changes need a
//!   deliberate yes, and whether a lift of that is in force;
//! - [`reconciler`]: who else owns an object (Flux, Argo CD, Helm, kapp, `kubectl apply`) and
//!   will revert a hand change.

pub mod diff;
pub mod policy;
pub mod protect;
pub mod reconciler;
