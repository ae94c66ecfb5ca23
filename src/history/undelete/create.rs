//! One object created again from its snapshot through the guarded path ([`Undo::recreate`]),
//! and the undelete of one entry ([`Undo::undelete`]: a namespace's or CRD's objects follow
//! it, [`super::container`]).

use std::collections::HashMap;

use serde_json::Value;

use super::{Contradicted, UndeleteError};
use crate::changelog::{Entry, Operation};
use crate::cli::DryRun;
use crate::cluster::ApiError;
use crate::guard::change::Change;
use crate::guard::{Grant, GuardError, ObjectRef, Sent, Session};
use crate::output::Printer;
use crate::output::objects::result_line;

/// What an undelete works with.
pub struct Undo<'a> {
    /// The session (opened for `delete`, or `patch` for the rollback of a CRD prune).
    pub session: &'a Session<'a>,
    /// Every record of the change log, in the order written.
    pub entries: &'a [Entry],
    /// The last record of every id ([`crate::changelog::latest`] of `entries`).
    pub latest: &'a [Entry],
    /// The ids the hash chain contradicts.
    pub contradicted: &'a Contradicted,
    /// none, server or client.
    pub dry_run: DryRun,
    /// The field manager of the create.
    pub field_manager: &'a str,
    /// Create even when a reconciler manages the object.
    pub force: bool,
}

/// How the line of a re-created object reads, and what the journal calls it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wording {
    /// `… undeleted (ID)`, journaled as `undelete` (a delete entry).
    Undelete,
    /// `… rolled back (ID): created again from its before-state`, journaled as `rollback`
    /// (a CRD prune, a rollback that deleted).
    Rollback,
}

impl Wording {
    /// The wording for entry `e`: a `delete` entry is undeleted, anything else rolled back.
    pub fn of(e: &Entry) -> Wording {
        if e.operation == Operation::Delete {
            Wording::Undelete
        } else {
            Wording::Rollback
        }
    }

    fn operation(self) -> Operation {
        match self {
            Wording::Undelete => Operation::Undelete,
            Wording::Rollback => Operation::Rollback,
        }
    }

    fn line(self, id: &str) -> String {
        match self {
            Wording::Undelete => format!("undeleted ({id})"),
            Wording::Rollback => format!("rolled back ({id}): created again from its before-state"),
        }
    }
}

/// The uids of owners created again in this run: old uid → new uid.
pub type Renamed = HashMap<String, String>;

impl Undo<'_> {
    /// The object of entry `e`, resolved in the session — refused when the record's kind is
    /// not the kind its type resolves to (an edited record).
    ///
    /// # Errors
    /// [`UndeleteError::Refused`], the type no longer resolves.
    pub async fn resolve(&self, e: &Entry) -> Result<ObjectRef, UndeleteError> {
        let obj = self
            .session
            .object(&crate::history::type_name(e), &e.name, e.namespace.clone())
            .await?;
        check_kind(&obj, e)?;
        Ok(obj)
    }

    /// Creates `object` (entry `e`'s snapshot) as `obj`, journaled as `wording` says, after
    /// the refusals: a reconciler manages it (exit 5, unless `--force`; `kubectl apply` only
    /// for a rollback), its namespace is
    /// Terminating (exit 5), an object of that name exists (exit 5). Owner references whose
    /// owner is gone are dropped (said on stderr); those of an owner created again in this
    /// run (`renamed`) point at its new uid. Returns the created object's uid (none for a dry
    /// run), and adds it to `renamed`.
    ///
    /// # Errors
    /// [`UndeleteError`], the guarded path's errors.
    pub async fn recreate(
        &self,
        obj: &ObjectRef,
        e: &Entry,
        mut object: Value,
        wording: Wording,
        renamed: &mut Renamed,
        p: &mut Printer<'_>,
    ) -> Result<Option<String>, UndeleteError> {
        let session = self.session;
        // A reconciler would take away again (or fight over) what is created, unless
        // `--force`. Plain `kubectl apply` runs no controller: an undeleted object it applied
        // stays, and its next apply updates it as usual, so an undelete is not refused for it.
        if let Some(owner) = crate::rules::reconciler::detect(&object)
            && !self.force
            && !(wording == Wording::Undelete
                && owner.kind == crate::rules::reconciler::ReconcilerKind::KubectlApply)
        {
            return Err(GuardError::Reconciled {
                object: obj.display(),
                owner,
            }
            .into());
        }
        let operation = wording.operation();
        let change = Change::Create {
            object: object.clone(),
        };
        let intent = || change.intent(operation, obj, self.dry_run != DryRun::None, None);
        let mut grant = session.authorize_change(obj, &change, intent()).await?;
        if let Some(ns) = &obj.namespace {
            self.refuse_terminating(&mut grant, obj, ns, e).await?;
        }
        if let Some(live) = self.live(&mut grant, obj).await? {
            return Err(exists(obj, e, &live));
        }
        if let Some(why) = self.with_status(&mut grant, obj, e, &mut object).await? {
            p.err_line(&format!(
                "note: {}: status not restored ({why})",
                obj.display()
            ));
        }
        for dropped in self
            .keep_owners(&mut grant, obj, &mut object, renamed)
            .await?
        {
            p.err_line(&format!(
                "note: {}: owner reference to {dropped} dropped (the owner no longer exists)",
                obj.display()
            ));
        }
        let change = Change::Create { object };
        let sent = Sent {
            operation,
            change: &change,
            before: None,
            dry_run: self.dry_run,
            field_manager: self.field_manager,
            id: None,
        };
        let created = match session.send_change_noted(&grant, obj, sent).await {
            Ok((v, None)) => v,
            Ok((v, Some(why))) => {
                p.err_line(&format!(
                    "note: {}: created again, but its status was not restored (the write to its status subresource failed: {why})",
                    obj.display()
                ));
                v
            }
            Err(GuardError::Api(ApiError::Server { code: 409, .. })) => {
                return Err(exists(obj, e, &Value::Null));
            }
            Err(other) => return Err(other.into()),
        };
        let line = result_line(&obj.display(), &wording.line(&e.id), true, self.dry_run);
        p.out(&format!("{line}\n"))?;
        let uid = (self.dry_run == DryRun::None)
            .then(|| created.pointer("/metadata/uid").and_then(Value::as_str))
            .flatten()
            .map(str::to_string);
        if let (Some(old), Some(new)) = (journaled_uid(e), &uid) {
            renamed.insert(old, new.clone());
        }
        Ok(uid)
    }

    /// Puts the journaled status of entry `e` into `object` (the snapshot to create), when it
    /// has one: for a type without a `status` subresource it is part of the create; for a
    /// type with one it is written after the create through `<resource>/status`
    /// ([`Change::status_write`]) when a `patch` review of that subresource allows it (added
    /// to `grant`; a dry run, which creates nothing, writes none). Returns why it is not
    /// restored otherwise (the object is still created): the review says no, or values the
    /// change log stored masked.
    async fn with_status(
        &self,
        grant: &mut Grant,
        obj: &ObjectRef,
        e: &Entry,
        object: &mut Value,
    ) -> Result<Option<String>, GuardError> {
        let Some(status) = journaled_status(e) else {
            return Ok(None);
        };
        // A namespace's and a CRD's status belong to the API server itself (the namespace
        // lifecycle, the apiextensions controllers that name and establish a CRD): an old
        // `Established` written back would only race them.
        if super::is_container(obj) {
            return Ok(None);
        }
        if crate::guard::change::restore::masked(status) {
            return Ok(Some(
                "the change log stored some of its values masked, as they looked like credentials"
                    .into(),
            ));
        }
        if obj.t.has_subresource("status") {
            if self.dry_run != DryRun::None {
                // Nothing is created, so there is nothing to write a status to; a dry run
                // shows the create.
                return Ok(None);
            }
            let review = obj.access("patch", Some("status"));
            if !self.session.extend_if_allowed(grant, review).await? {
                return Ok(Some(format!(
                    "RBAC does not allow patch on {}/status",
                    obj.t.group_resource()
                )));
            }
        }
        object["status"] = status.clone();
        Ok(None)
    }

    /// The live object `obj` when the grant may read it and it exists; `None` when it does
    /// not exist (404) or may not be read (the create then answers for itself).
    async fn live(&self, grant: &mut Grant, obj: &ObjectRef) -> Result<Option<Value>, GuardError> {
        if !self
            .session
            .extend_if_allowed(grant, obj.access("get", None))
            .await?
        {
            return Ok(None);
        }
        match self.session.read(grant, obj).await {
            Ok(v) => Ok(v),
            Err(ApiError::Server { code: 404, .. }) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    /// Refuses to create into namespace `ns` while it is being deleted: the server would
    /// refuse the create (403 "being terminated"), and what it did create would go with it.
    async fn refuse_terminating(
        &self,
        grant: &mut Grant,
        obj: &ObjectRef,
        ns: &str,
        e: &Entry,
    ) -> Result<(), UndeleteError> {
        let nsref = self.session.object("namespaces", ns, None).await?;
        let Some(live) = self.live(grant, &nsref).await? else {
            return Ok(());
        };
        let terminating = live.pointer("/metadata/deletionTimestamp").is_some()
            || live.pointer("/status/phase").and_then(Value::as_str) == Some("Terminating");
        if terminating {
            return Err(UndeleteError::Terminating {
                namespace: ns.to_string(),
                object: obj.display(),
                id: e.id.clone(),
            });
        }
        Ok(())
    }

    /// Keeps in `object` the owner references whose owner exists now with that uid (read
    /// through the guarded path), or was created again in this run (`renamed`: its new uid);
    /// returns the dropped ones as `kind/name`. An owner that may not be read is dropped too:
    /// a reference the server cannot resolve makes the garbage collector delete the object.
    async fn keep_owners(
        &self,
        grant: &mut Grant,
        obj: &ObjectRef,
        object: &mut Value,
        renamed: &Renamed,
    ) -> Result<Vec<String>, GuardError> {
        let Some(refs) = object
            .pointer("/metadata/ownerReferences")
            .and_then(Value::as_array)
            .cloned()
        else {
            return Ok(Vec::new());
        };
        let mut kept = Vec::new();
        let mut dropped = Vec::new();
        for mut r in refs {
            let text = |k: &str| r.get(k).and_then(Value::as_str).unwrap_or("").to_string();
            let (api_version, kind, name, uid) =
                (text("apiVersion"), text("kind"), text("name"), text("uid"));
            if let Some(new) = renamed.get(&uid) {
                r["uid"] = Value::String(new.clone());
                kept.push(r);
                continue;
            }
            let type_name = match api_version.split_once('/') {
                Some((g, v)) => format!("{kind}.{v}.{g}"),
                None => kind.clone(),
            };
            let exists = match self
                .session
                .object(&type_name, &name, obj.namespace.clone())
                .await
            {
                Ok(owner) => self.live(grant, &owner).await?.is_some_and(|v| {
                    v.pointer("/metadata/uid").and_then(Value::as_str) == Some(&uid)
                }),
                Err(_) => false,
            };
            if exists {
                kept.push(r);
            } else {
                dropped.push(format!("{}/{}", kind.to_lowercase(), name));
            }
        }
        if let Some(meta) = object.get_mut("metadata").and_then(Value::as_object_mut) {
            if kept.is_empty() {
                meta.remove("ownerReferences");
            } else {
                meta.insert("ownerReferences".into(), Value::Array(kept));
            }
        }
        Ok(dropped)
    }
}

/// The status journaled in entry `e`'s before-state, when it has a non-empty one.
fn journaled_status(e: &Entry) -> Option<&Value> {
    e.before
        .as_ref()
        .and_then(|b| b.get("status"))
        .filter(|s| s.as_object().is_some_and(|m| !m.is_empty()))
}

/// The uid of the object entry `e` deleted (its record's, else its before-state's).
pub fn journaled_uid(e: &Entry) -> Option<String> {
    e.uid.clone().or_else(|| {
        e.before
            .as_ref()
            .and_then(|b| b.pointer("/metadata/uid"))
            .and_then(Value::as_str)
            .map(str::to_string)
    })
}

/// The refusal of an object that exists again under the name of entry `e`'s — or is still
/// the deleted one, held by its finalizers, or never went (a delete whose outcome was
/// unknown and was not applied).
fn exists(obj: &ObjectRef, e: &Entry, live: &Value) -> UndeleteError {
    let uid = live.pointer("/metadata/uid").and_then(Value::as_str);
    let same = uid.is_some() && uid.map(str::to_string) == journaled_uid(e);
    if same && live.pointer("/metadata/deletionTimestamp").is_none() {
        return UndeleteError::NotDeleted {
            object: obj.display(),
            id: e.id.clone(),
        };
    }
    if same {
        let finalizers: Vec<String> = live
            .pointer("/metadata/finalizers")
            .and_then(Value::as_array)
            .map(|f| {
                f.iter()
                    .filter_map(Value::as_str)
                    .map(crate::base::echo::quoted)
                    .collect()
            })
            .unwrap_or_default();
        return UndeleteError::StillDeleting {
            object: obj.display(),
            id: e.id.clone(),
            finalizers: finalizers.join(", "),
        };
    }
    UndeleteError::Exists {
        object: obj.display(),
        id: e.id.clone(),
        uid: live
            .pointer("/metadata/uid")
            .and_then(Value::as_str)
            .unwrap_or("unknown")
            .to_string(),
    }
}

/// Refuses a record whose kind is not the kind its type resolves to (`Secret`, not
/// `secrets`): every refusal that depends on the kind (a Secret's values) reads the record's.
fn check_kind(obj: &ObjectRef, e: &Entry) -> Result<(), UndeleteError> {
    if obj.t.api.kind != e.kind || obj.t.api.api_version != e.api_version {
        return Err(UndeleteError::Refused {
            id: e.id.clone(),
            why: format!(
                "its record names kind {} ({}), which is not the kind its type resolves to ({} {}), so the change log was edited; restore by hand (nothing was sent)",
                crate::base::echo::quoted(&e.kind),
                crate::base::echo::capped(&e.api_version, 100),
                obj.t.api.api_version,
                obj.t.api.kind
            ),
        });
    }
    Ok(())
}
