//! Which protect verb a journaled change is judged as (pure): its operation, and what its
//! request does when the operation names something else.

use crate::changelog::{Entry, Operation};
use crate::rules::protect::ProtectVerb;

/// What the request of `intent` does when its operation names something else (pure): a
/// rollback or any other change sent as a DELETE deletes, one sent as a create undeletes.
pub fn effect_of(intent: &Entry) -> Option<ProtectVerb> {
    match intent.patch_type.as_deref() {
        Some(crate::guard::change::DELETE) if intent.operation != Operation::Delete => {
            Some(ProtectVerb::Delete)
        }
        Some(crate::guard::change::CREATE) if intent.operation != Operation::Undelete => {
            Some(ProtectVerb::Undelete)
        }
        _ => None,
    }
}

/// The protect verb of a change journaled as `operation`.
pub fn protect_verb(operation: Operation) -> ProtectVerb {
    match operation {
        Operation::Patch => ProtectVerb::Patch,
        Operation::CrdApply => ProtectVerb::CrdApply,
        Operation::CrdPrune => ProtectVerb::CrdPrune,
        Operation::Rollback => ProtectVerb::Rollback,
        Operation::Delete => ProtectVerb::Delete,
        Operation::Undelete => ProtectVerb::Undelete,
        Operation::Apply => ProtectVerb::Apply,
        Operation::Scale => ProtectVerb::Scale,
        Operation::Label => ProtectVerb::Label,
        Operation::Annotate => ProtectVerb::Annotate,
        Operation::Edit => ProtectVerb::Edit,
        Operation::Rollout => ProtectVerb::Rollout,
        // Never admitted: a lift and its end send no request (they are local state).
        Operation::ProtectLift | Operation::ProtectEnd => ProtectVerb::Patch,
    }
}
