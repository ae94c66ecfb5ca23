//! The mutation model (pure): one description of every change this tool makes to an object,
//! so that a mutating verb says *what* it changes and the guarded path does the rest
//! (docs/design.md, "The mutation model").
//!
//! For each kind of [`Change`], in this one place:
//! - the SelfSubjectAccessReview(s) it needs ([`Change::reviews`]) and the plugin.yaml verb
//!   that bounds it ([`Change::verb`]);
//! - what its intent record says ([`Change::journal_type`], [`Change::journal_body`],
//!   [`Change::intent`]);
//! - the request it sends ([`Change::request`], sent by the guarded path from a
//!   [`super::Grant`] that covers it);
//! - what its outcome record keeps ([`Change::outcome`]: the resourceVersion after, the
//!   after-state);
//! - its inverse, computed from the journaled record ([`inverse::inverse_of`]), which is what
//!   `rollback ID` runs.
//!
//! | kind   | reviews                     | request                         | inverse                              |
//! |--------|-----------------------------|---------------------------------|--------------------------------------|
//! | Patch  | `patch` (with subresource)  | PATCH merge/json/strategic      | JSON patch restoring the touched fields, `test`ing the resourceVersion |
//! | Delete | `delete`                    | DELETE with uid/rv preconditions | Create of the before-state          |
//! | Create | `create` (+ `patch` of `status`) | POST of a snapshot (then its status) | Delete with a uid (else rv) precondition |
//! | Apply  | `create` and `patch`        | PATCH apply (field manager)     | Delete with the created uid (it created); for `apply`, a restore of the fields that changed, for a CRD apply of `/spec`, labels, annotations |
//!
//! A CRD apply and a CRD prune are an Apply and a Delete of a CustomResourceDefinition,
//! journaled as `crd-apply` and `crd-prune`.

pub mod cause;
pub mod inverse;
pub mod object;
pub mod paths;
pub mod restore;

use kube::api::{DeleteParams, Patch, PatchParams, PostParams, Preconditions, PropagationPolicy};
use serde_json::{Value, json};

use crate::changelog::{self, Operation};
use crate::cli::PatchType;
use crate::config::Verb;
use crate::guard::authz::AccessRequest;

pub use inverse::{Inverse, inverse_of};
pub use object::{Intent, ObjectRef, type_name};
pub use paths::touched_paths;

/// The journal's `patchType` of a delete.
pub const DELETE: &str = "delete";

/// The journal's `patchType` of a create.
pub const CREATE: &str = "create";

/// The journal's `patchType` of a server-side apply.
pub const APPLY: &str = "apply";

/// One change to one object.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    /// A patch (`patch`, a rollback's restoring JSON patch).
    Patch {
        /// strategic, merge or json.
        patch_type: PatchType,
        /// The body (validated by the caller).
        body: Value,
        /// `status` or `scale`, if any.
        subresource: Option<String>,
    },
    /// A delete, conditional on the object's identity or version.
    Delete {
        /// Only the object with this uid is deleted.
        uid: Option<String>,
        /// Only the object at this resourceVersion is deleted.
        resource_version: Option<String>,
        /// How dependents are deleted (the server's default when `None`).
        propagation: Option<PropagationPolicy>,
        /// Seconds the object gets to terminate (`gracePeriodSeconds`; the type's default
        /// when `None`).
        grace_period: Option<u32>,
        /// The objects that go with it (a namespace's, a CRD's) are not journaled
        /// (`--unrecoverable`): recorded in the journal, never sent.
        unrecoverable: bool,
    },
    /// A create of an object from a snapshot ([`snapshot`]).
    Create {
        /// The object to create.
        object: Value,
    },
    /// A server-side apply.
    Apply {
        /// The applied configuration.
        body: Value,
        /// The field manager (`kubectl-myops`).
        field_manager: String,
        /// Take over fields owned by other managers.
        force: bool,
        /// What the journal records instead of the body, if anything (a CRD file's
        /// `{"appliedFrom": "file:line"}`: the change log does not copy the file).
        origin: Option<Value>,
    },
}

/// What a [`Change`] sends: the body and parameters of one request, built from a grant by
/// the guarded path.
#[derive(Debug)]
pub enum Request<'a> {
    /// `PATCH` the object (or its subresource).
    Patch {
        /// The patch.
        patch: Patch<&'a Value>,
        /// The subresource, if any.
        subresource: Option<&'a str>,
    },
    /// `DELETE` the object.
    Delete(DeleteParams),
    /// `POST` the object to its collection.
    Create(&'a Value),
}

/// The plugin.yaml verb that bounds a change journaled as `operation`: `delete` for a
/// delete and for its undo (`undelete`, which creates the object again from the journal: a
/// boundary that lets a plugin delete lets it put back what it deleted), the verb of the
/// same name for `apply`, `scale`, `label`, `annotate`, `edit` and `rollout`, `patch` for
/// every other change (patch, rollback of any patch-like change, CRD apply and prune).
pub fn plugin_verb(operation: Operation) -> Verb {
    match operation {
        Operation::Delete | Operation::Undelete => Verb::Delete,
        Operation::Patch | Operation::Rollback | Operation::CrdApply | Operation::CrdPrune => {
            Verb::Patch
        }
        Operation::Apply => Verb::Apply,
        Operation::Scale => Verb::Scale,
        Operation::Label => Verb::Label,
        Operation::Annotate => Verb::Annotate,
        Operation::Edit => Verb::Edit,
        Operation::Rollout => Verb::Rollout,
        // A lift and its end send no request and are never undone (`inverse_of` refuses
        // them), so no boundary is asked; `patch` is the answer for a change with no verb
        // of its own.
        Operation::ProtectLift | Operation::ProtectEnd => Verb::Patch,
    }
}

impl Change {
    /// The SelfSubjectAccessReviews the change needs on `obj`: `patch` (with the
    /// subresource), `delete`, `create` (of the collection: RBAC cannot restrict a create by
    /// name), or `create` and `patch` for a server-side apply (it creates a missing object).
    pub fn reviews(&self, obj: &ObjectRef) -> Vec<AccessRequest> {
        let collection = |verb: &str| AccessRequest {
            name: None,
            ..obj.access(verb, None)
        };
        match self {
            Change::Patch { subresource, .. } => vec![obj.access("patch", subresource.as_deref())],
            Change::Delete { .. } => vec![obj.access("delete", None)],
            Change::Create { .. } => {
                let mut out = vec![collection("create")];
                if self.status_write(obj).is_some() {
                    out.push(obj.access("patch", Some("status")));
                }
                out
            }
            Change::Apply { .. } => vec![collection("create"), obj.access("patch", None)],
        }
    }

    /// The status a create writes after the object exists, through the `status` subresource
    /// (pure): the create's non-empty `status` when discovery lists that subresource for
    /// `obj`'s type — the server ignores `status` in a create then (API conventions, "Spec and
    /// Status"), so it is a second request, `patch` on `<resource>/status`, reviewed with the
    /// create. `None` for any other change, and for a type without the subresource, whose
    /// `status` is an ordinary field the create itself sets.
    pub fn status_write(&self, obj: &ObjectRef) -> Option<&Value> {
        match self {
            Change::Create { object } if obj.t.has_subresource("status") => object
                .get("status")
                .filter(|s| s.as_object().is_some_and(|m| !m.is_empty())),
            _ => None,
        }
    }

    /// [`Change::reviews`] for any object of `obj`'s type (no name): what a batch asks once
    /// for all its objects, as `crds sync` does for its CRDs.
    pub fn reviews_of_any(&self, obj: &ObjectRef) -> Vec<AccessRequest> {
        self.reviews(obj)
            .into_iter()
            .map(|r| AccessRequest { name: None, ..r })
            .collect()
    }

    /// The journal's `patchType`: `strategic`, `merge`, `json`, `apply`, `delete`, `create`.
    pub fn journal_type(&self) -> &'static str {
        match self {
            Change::Patch { patch_type, .. } => type_name(*patch_type),
            Change::Delete { .. } => DELETE,
            Change::Create { .. } => CREATE,
            Change::Apply { .. } => APPLY,
        }
    }

    /// The journal's `patch`: the body sent — for a delete its preconditions, for a create
    /// the object, for an apply its origin when it has one (redacted when written, as every
    /// body).
    pub fn journal_body(&self) -> Value {
        match self {
            Change::Patch { body, .. } => body.clone(),
            Change::Apply { body, origin, .. } => origin.clone().unwrap_or_else(|| body.clone()),
            Change::Delete {
                uid,
                resource_version,
                propagation,
                grace_period,
                unrecoverable,
            } => {
                let mut pre = serde_json::Map::new();
                if let Some(u) = uid {
                    pre.insert("uid".into(), json!(u));
                }
                if let Some(rv) = resource_version {
                    pre.insert("resourceVersion".into(), json!(rv));
                }
                let mut body = json!({ "preconditions": pre });
                if let Some(p) = propagation {
                    body["propagationPolicy"] = json!(format!("{p:?}"));
                }
                if let Some(g) = grace_period {
                    body["gracePeriodSeconds"] = json!(g);
                }
                if *unrecoverable {
                    body["unrecoverable"] = json!(true);
                }
                body
            }
            Change::Create { object } => object.clone(),
        }
    }

    /// The intent record's content for this change as `operation` on `obj`. A CRD prune
    /// records no `patchType` and no `patch` (the CRD is deleted unconditionally, once the
    /// prune found it ours).
    pub fn intent<'a>(
        &self,
        operation: Operation,
        obj: &'a ObjectRef,
        dry_run: bool,
        before: Option<&Value>,
    ) -> Intent<'a> {
        Intent {
            operation,
            api_version: &obj.t.api.api_version,
            kind: &obj.t.api.kind,
            namespace: obj.namespace.as_deref(),
            name: &obj.name,
            patch_type: (operation != Operation::CrdPrune).then(|| self.journal_type()),
            patch: (operation != Operation::CrdPrune).then(|| self.journal_body()),
            dry_run,
            before: before.cloned(),
        }
    }

    /// The request the change sends (pure); `dry_run` asks the server not to persist it.
    ///
    /// # Errors
    /// A JSON patch body that is not a list of RFC 6902 operations (the parser's message).
    pub fn request(
        &self,
        field_manager: &str,
        dry_run: bool,
    ) -> Result<(Request<'_>, Params), String> {
        let pp = PatchParams {
            field_manager: Some(field_manager.to_string()),
            dry_run,
            ..Default::default()
        };
        match self {
            Change::Patch {
                patch_type,
                body,
                subresource,
            } => {
                let patch = match patch_type {
                    PatchType::Json => Patch::Json(
                        serde_json::from_value(body.clone()).map_err(|e| e.to_string())?,
                    ),
                    PatchType::Merge => Patch::Merge(body),
                    PatchType::Strategic => Patch::Strategic(body),
                };
                Ok((
                    Request::Patch {
                        patch,
                        subresource: subresource.as_deref(),
                    },
                    Params::Patch(pp),
                ))
            }
            Change::Apply {
                body,
                field_manager,
                force,
                ..
            } => {
                let mut pp = PatchParams::apply(field_manager);
                pp.dry_run = dry_run;
                if *force {
                    pp = pp.force();
                }
                Ok((
                    Request::Patch {
                        patch: Patch::Apply(body),
                        subresource: None,
                    },
                    Params::Patch(pp),
                ))
            }
            Change::Delete {
                uid,
                resource_version,
                propagation,
                grace_period,
                ..
            } => {
                let dp = DeleteParams {
                    dry_run,
                    grace_period_seconds: *grace_period,
                    propagation_policy: propagation.clone(),
                    preconditions: (uid.is_some() || resource_version.is_some()).then(|| {
                        Preconditions {
                            uid: uid.clone(),
                            resource_version: resource_version.clone(),
                        }
                    }),
                };
                Ok((Request::Delete(dp), Params::None))
            }
            Change::Create { object } => Ok((
                Request::Create(object),
                Params::Post(PostParams {
                    dry_run,
                    field_manager: Some(field_manager.to_string()),
                }),
            )),
        }
    }

    /// What the outcome record keeps from the server's `answer` (pure): the resourceVersion
    /// after and the after-state, redacted pairwise with `before` — for a CRD apply only when
    /// it created the CRD, whose inverse then deletes exactly that object (its uid), for a
    /// manifest apply always (its inverse deletes what it created or restores what it
    /// changed); nothing for a delete (the object is gone or going).
    pub fn outcome(
        &self,
        kind: &str,
        before: Option<&Value>,
        answer: &Value,
    ) -> (Option<String>, Option<Value>) {
        let rv = answer
            .pointer("/metadata/resourceVersion")
            .and_then(Value::as_str)
            .map(str::to_string);
        let is_object = answer.get("kind").and_then(Value::as_str) == Some(kind);
        let created = before.is_none();
        let after = match self {
            Change::Patch { .. } | Change::Create { .. } if is_object => {
                Some(changelog::redact_after(kind, before, answer.clone()))
            }
            // A CRD apply (journaled with its origin) keeps the after-state only of a create:
            // its inverse restores /spec, labels and annotations, and a CRD is large. A
            // manifest apply keeps it always: its inverse restores the fields that changed
            // between before and after.
            Change::Apply { origin, .. } if is_object && (created || origin.is_none()) => {
                Some(changelog::redact_after(kind, before, answer.clone()))
            }
            _ => None,
        };
        let rv = match self {
            Change::Delete { .. } => None,
            _ => rv.filter(|_| is_object),
        };
        (rv, after)
    }

    /// The `result` of the outcome record for the server's `answer`: for a delete answered
    /// with the object still there (`metadata.deletionTimestamp` set: finalizers hold it),
    /// [`changelog::DELETING`]; otherwise [`changelog::SUCCESS`].
    pub fn result(&self, answer: &Value) -> &'static str {
        match self {
            Change::Delete { .. } if answer.pointer("/metadata/deletionTimestamp").is_some() => {
                changelog::DELETING
            }
            _ => changelog::SUCCESS,
        }
    }
}

/// The parameters of a [`Request`].
#[derive(Debug, Clone)]
pub enum Params {
    /// A patch's or an apply's.
    Patch(PatchParams),
    /// A create's.
    Post(PostParams),
    /// None besides the delete's own ([`Request::Delete`]).
    None,
}

/// The metadata fields the server sets on the object it makes, dropped from a snapshot: a
/// create that carries them is refused (`uid`, `resourceVersion`) or has them ignored and
/// replaced (Kubernetes API conventions, "Metadata"; `ObjectMeta` in
/// k8s.io/apimachinery/pkg/apis/meta/v1/types.go).
pub const SERVER_SET_METADATA: &[&str] = &[
    "uid",
    "resourceVersion",
    "creationTimestamp",
    "managedFields",
    "deletionTimestamp",
    "deletionGracePeriodSeconds",
    "generation",
    "selfLink",
];

/// The object to create again from a before-state `before` (pure): `apiVersion`, `kind`,
/// the metadata without the fields the server sets ([`SERVER_SET_METADATA`]; finalizers,
/// labels, annotations and ownerReferences stay — the caller drops the owner references
/// whose owner is gone), and every other top-level field but `status`, which a create does
/// not set (the server ignores it for a type with a status subresource; controllers write
/// it).
pub fn snapshot(before: &Value) -> Value {
    let mut out = serde_json::Map::new();
    if let Value::Object(m) = before {
        for (k, v) in m {
            match k.as_str() {
                "status" => {}
                "metadata" => {
                    let mut meta = v.as_object().cloned().unwrap_or_default();
                    meta.retain(|key, _| !SERVER_SET_METADATA.contains(&key.as_str()));
                    out.insert(k.clone(), Value::Object(meta));
                }
                _ => {
                    out.insert(k.clone(), v.clone());
                }
            }
        }
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests;
