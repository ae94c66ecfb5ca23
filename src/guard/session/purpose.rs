//! What a session is opened for ([`Purpose`], and the [`Mode`] it implies), the [`Grant`] its
//! gate hands out, and where a journaled entry's context points now ([`Moved`]).

use crate::config::Verb;
use crate::guard::authz::AccessRequest;

/// Whether the command may change the cluster (then the journal must be writable first);
/// derived from the session's [`Purpose`] ([`Purpose::mode`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Reads only (`get`, `auth`, `crds list`, `drift`, `changelog diff`).
    Read,
    /// Writes the change log (`patch`, `rollback`, `crds sync|watch`, `changelog reconcile`):
    /// it is proven writable before anything is sent.
    Mutate,
}

/// What a session is opened for: the plugin.yaml verb that binds the command, checked by
/// [`Session::open`] before anything else, and from it whether the change log is opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// A command bound by one plugin.yaml verb: `get` reads, `patch` changes the cluster
    /// (the change log is proven writable before anything is sent).
    Verb(Verb),
    /// Reads whose verb is checked per object, with each read's own review, so that one
    /// refused object is reported among the others (`drift`, `auth`, completion).
    Read,
    /// Reads objects (each read checks `get`) and appends outcome records to the change log,
    /// sending no change (`changelog reconcile`).
    Record,
}

impl Purpose {
    /// Whether the session writes the change log.
    pub fn mode(self) -> Mode {
        match self {
            Purpose::Verb(
                Verb::Patch
                | Verb::Delete
                | Verb::Apply
                | Verb::Scale
                | Verb::Label
                | Verb::Annotate
                | Verb::Edit
                | Verb::Rollout,
            )
            | Purpose::Record => Mode::Mutate,
            Purpose::Verb(Verb::Get) | Purpose::Read => Mode::Read,
        }
    }

    /// The plugin.yaml verb checked when the session opens, if any.
    pub fn verb(self) -> Option<Verb> {
        match self {
            Purpose::Verb(v) => Some(v),
            Purpose::Read | Purpose::Record => None,
        }
    }
}

impl From<Verb> for Purpose {
    fn from(v: Verb) -> Purpose {
        Purpose::Verb(v)
    }
}

/// Proof that the plugin.yaml boundary and the SelfSubjectAccessReview(s) allowed requests:
/// it names the plugin.yaml verb and every [`AccessRequest`] the reviews allowed, and the
/// guarded path builds a request only when a reviewed one covers it ([`Grant::covers`]).
/// Only the session makes one (its fields are private), so a request cannot be sent without
/// passing the gate first.
#[derive(Debug, Clone)]
pub struct Grant {
    verb: Verb,
    reviewed: Vec<AccessRequest>,
}

impl Grant {
    /// The grant of `reviewed` requests under the plugin.yaml `verb` (made by the session's
    /// gate only).
    pub(super) fn new(verb: Verb, reviewed: Vec<AccessRequest>) -> Grant {
        Grant { verb, reviewed }
    }

    /// Adds a request a review allowed (the session's gate only).
    pub(super) fn add(&mut self, req: AccessRequest) {
        self.reviewed.push(req);
    }

    /// The plugin.yaml verb the boundary allowed.
    pub fn verb(&self) -> Verb {
        self.verb
    }

    /// The requests the reviews allowed (verb, group/resource, subresource, namespace, name).
    pub fn reviewed(&self) -> &[AccessRequest] {
        &self.reviewed
    }

    /// Whether a reviewed request covers `req`: the same verb, group, resource, subresource
    /// and namespace, and the same name — or none, a review of the whole collection.
    pub fn covers(&self, req: &AccessRequest) -> bool {
        self.reviewed.iter().any(|r| {
            r.verb == req.verb
                && r.group == req.group
                && r.resource == req.resource
                && r.subresource == req.subresource
                && r.namespace == req.namespace
                && (r.name.is_none() || r.name == req.name)
        })
    }
}

/// Where a journaled entry's context points now, when that is not the server the entry was
/// made on ([`Session::open_for_entry`]): nothing is to be sent there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Moved {
    /// The server the context points at now.
    pub now: String,
    /// The server of the entry.
    pub then: String,
}
