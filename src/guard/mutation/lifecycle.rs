//! [`Session::send_change`]: a create or a delete (or a plain patch) of the mutation model
//! sent through the guarded path — built from a grant that covers its reviews, journaled
//! write-ahead, its outcome record keeping what [`Change::outcome`] says.
//!
//! A delete of an object that a plugin.yaml rule with `delete: deny` covers is refused here,
//! before anything is sent ([`delete_verdict`]): every delete of every verb goes through
//! [`Session::send_change`], so none can skip the rule.

use std::sync::PoisonError;

use kube::api::DynamicObject;
use serde_json::Value;

use super::ObjectRef;
use crate::changelog::Operation;
use crate::cli::DryRun;
use crate::cluster::ApiError;
use crate::guard::GuardError;
use crate::guard::change::{Change, Params, Request};
use crate::guard::session::{Grant, Session};

/// One change to send with [`Session::send_change`].
#[derive(Debug, Clone, Copy)]
pub struct Sent<'a> {
    /// What the journal calls it (`rollback`).
    pub operation: Operation,
    /// The change.
    pub change: &'a Change,
    /// The object as read just before, journaled as the before-state.
    pub before: Option<&'a Value>,
    /// none, server or client.
    pub dry_run: DryRun,
    /// The field manager of a create or patch.
    pub field_manager: &'a str,
    /// The entry id to journal the change under, when other records name it before it is
    /// sent (the snapshots of a namespace's objects name their namespace's delete as
    /// `parent`); a new id otherwise.
    pub id: Option<&'a str>,
}

impl Session<'_> {
    /// The whole guarded path of one change, for a verb that needs nothing in between: the
    /// boundary and the change's reviews ([`Session::authorize_change`], a refusal
    /// journaled), the before-state ([`Session::before_state`]; none for a create, whose
    /// object does not exist yet), then the change sent between its intent and outcome
    /// records ([`Session::send_change`]). Returns the server's answer.
    ///
    /// # Errors
    /// As the three steps.
    pub async fn mutate(
        &self,
        obj: &ObjectRef,
        operation: Operation,
        change: &Change,
        dry_run: DryRun,
        field_manager: &str,
    ) -> Result<Value, GuardError> {
        let intent = || change.intent(operation, obj, dry_run != DryRun::None, None);
        let mut grant = self.authorize_change(obj, change, intent()).await?;
        let before = match change {
            Change::Create { .. } => None,
            _ => self.before_state(&mut grant, obj, intent()).await?,
        };
        let sent = Sent {
            operation,
            change,
            before: before.as_ref(),
            dry_run,
            field_manager,
            id: None,
        };
        self.send_change(&grant, obj, sent).await
    }

    /// Sends `sent.change` to `obj` between its intent and outcome records, and returns the
    /// server's answer (for a delete, the object as deleted or the server's Status; for
    /// `--dry-run=client`, computed locally and journaled as one complete record: the object
    /// for a create, `null` for a delete).
    ///
    /// # Errors
    /// [`GuardError::Usage`] when `grant` does not cover the change's reviews or the body is
    /// no object, the request's [`crate::cluster::ApiError`] (journaled), journal errors.
    pub async fn send_change(
        &self,
        grant: &Grant,
        obj: &ObjectRef,
        sent: Sent<'_>,
    ) -> Result<Value, GuardError> {
        Ok(self.send_change_noted(grant, obj, sent).await?.0)
    }

    /// [`Session::send_change`], also saying why the status of a create was not written
    /// ([`Change::status_write`]): a create of a type with a `status` subresource is sent as
    /// the POST and then a JSON patch of `<resource>/status` — `test` of the created
    /// resourceVersion (nothing written in between is overwritten), `add` of the status —
    /// both between one intent and one outcome record, whose `after` is the object with its
    /// status. A status write the server refuses leaves the object as the create made it: the
    /// outcome is still the create's `success` (the object exists; its rollback deletes it),
    /// and the refusal is returned beside the answer for the caller to report. A dry run
    /// writes no status (there is no object to write it to).
    ///
    /// # Errors
    /// As [`Session::send_change`].
    pub async fn send_change_noted(
        &self,
        grant: &Grant,
        obj: &ObjectRef,
        sent: Sent<'_>,
    ) -> Result<(Value, Option<String>), GuardError> {
        let api = self.api_for(grant, obj, sent.change)?;
        let mut intent = self
            .intent(sent.change.intent(
                sent.operation,
                obj,
                sent.dry_run != DryRun::None,
                sent.before,
            ))
            .await;
        if let Some(id) = sent.id {
            intent.id = id.to_string();
        }
        // A dry run is refused too, as a patch's is: it shows what the real run would do.
        if let Err(refusal) = delete_verdict(
            &self.settings().plugin.policies,
            obj,
            sent.operation,
            sent.change,
        ) {
            let result = match &refusal {
                GuardError::PolicyDelete { rule, .. } => {
                    format!("denied by field policy {rule}: delete")
                }
                other => other.to_string(),
            };
            self.journal_complete(intent, result).await?;
            return Err(refusal);
        }
        let kind = obj.t.api.kind.clone();
        if sent.dry_run == DryRun::Client {
            let after = match sent.change {
                Change::Create { object } => object.clone(),
                _ => Value::Null,
            };
            intent.after = sent.change.outcome(&kind, sent.before, &after).1;
            self.journal_complete(intent, "success".into()).await?;
            return Ok((after, None));
        }
        let (request, params) = sent
            .change
            .request(sent.field_manager, sent.dry_run == DryRun::Server)
            .map_err(GuardError::Usage)?;
        let name = obj.name.clone();
        // The object to create is decoded here, before anything is journaled or sent: a body
        // that is no object is the caller's error, not the server's.
        let created: Option<DynamicObject> = match &request {
            Request::Create(object) => {
                Some(serde_json::from_value((*object).clone()).map_err(|e| {
                    GuardError::Usage(format!("the object to create is not a valid object: {e}"))
                })?)
            }
            _ => None,
        };
        let status = match sent.dry_run {
            DryRun::None => sent.change.status_write(obj).cloned(),
            _ => None,
        };
        let status_failed: std::sync::Mutex<Option<String>> = std::sync::Mutex::new(None);
        let failed = &status_failed;
        let server = self.server().to_string();
        let manager = sent.field_manager.to_string();
        let dry_run = async {
            let (request, params) = sent
                .change
                .request(sent.field_manager, true)
                .map_err(|e| kube::Error::Service(e.into()))?;
            send_plain(&api, &obj.name, request, params).await
        };
        let send = async {
            let answer = match (request, params) {
                (Request::Create(_), Params::Post(pp)) => match &created {
                    Some(o) => {
                        let made = api.create(&pp, o).await?;
                        match status {
                            None => serde_json::to_value(made),
                            Some(st) => match write_status(&api, &made, st, &manager).await {
                                Ok(with_status) => serde_json::to_value(with_status),
                                Err(e) => {
                                    let why = ApiError::from_kube(e, &server).to_string();
                                    *failed.lock().unwrap_or_else(PoisonError::into_inner) =
                                        Some(why);
                                    serde_json::to_value(made)
                                }
                            },
                        }
                    }
                    None => Ok(Value::Null),
                },
                (request, params) => return send_plain(&api, &name, request, params).await,
            };
            answer.map_err(kube::Error::SerdeError)
        };
        let intent = self.admit(intent, sent.before, dry_run).await?;
        let before = sent.before;
        let change = sent.change;
        let answer = self
            .journaled_with(intent, "the request", send, |answer: &Value| {
                let (resource_version, after) = change.outcome(&kind, before, answer);
                super::Recorded {
                    resource_version,
                    after,
                    result: Some(change.result(answer).to_string()),
                }
            })
            .await?;
        let note = status_failed
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        Ok((answer, note))
    }
}

/// Sends one request of a change as [`Change::request`] built it — a create without its
/// status write, a delete, a patch of the object or a subresource — and answers the server's
/// answer as JSON (a delete's Status or the object it is deleting).
async fn send_plain(
    api: &kube::Api<DynamicObject>,
    name: &str,
    request: Request<'_>,
    params: Params,
) -> Result<Value, kube::Error> {
    let answer = match (request, params) {
        (Request::Create(object), Params::Post(pp)) => {
            let o: DynamicObject =
                serde_json::from_value(object.clone()).map_err(kube::Error::SerdeError)?;
            serde_json::to_value(api.create(&pp, &o).await?)
        }
        (Request::Delete(dp), _) => api
            .delete(name, &dp)
            .await?
            .either(serde_json::to_value, serde_json::to_value),
        (
            Request::Patch {
                patch,
                subresource: Some(sr),
            },
            Params::Patch(pp),
        ) => serde_json::to_value(api.patch_subresource(sr, name, &pp, &patch).await?),
        (
            Request::Patch {
                patch,
                subresource: None,
            },
            Params::Patch(pp),
        ) => serde_json::to_value(api.patch(name, &pp, &patch).await?),
        _ => Ok(Value::Null),
    };
    answer.map_err(kube::Error::SerdeError)
}

/// Writes `status` to the object `made` just created, through its `status` subresource: a
/// JSON patch that `test`s the created resourceVersion, so a status another writer set in
/// between is not overwritten, and `add`s the status (replacing whatever the server put
/// there).
async fn write_status(
    api: &kube::Api<DynamicObject>,
    made: &DynamicObject,
    status: Value,
    field_manager: &str,
) -> Result<DynamicObject, kube::Error> {
    let rv = made.metadata.resource_version.clone().unwrap_or_default();
    let ops: json_patch::Patch = serde_json::from_value(serde_json::json!([
        {"op": "test", "path": "/metadata/resourceVersion", "value": rv},
        {"op": "add", "path": "/status", "value": status},
    ]))
    .map_err(kube::Error::SerdeError)?;
    let pp = kube::api::PatchParams {
        field_manager: Some(field_manager.to_string()),
        ..Default::default()
    };
    let name = made.metadata.name.clone().unwrap_or_default();
    api.patch_subresource("status", &name, &pp, &kube::api::Patch::<Value>::Json(ops))
        .await
}

/// Whether `change` may be sent to `obj` under `policies` (plugin.yaml; pure): `Ok` for
/// anything but a [`Change::Delete`], and for a delete of an object no rule with
/// `delete: deny` covers (its resource and namespaces, as [`crate::rules::policy::matching`]
/// matches them for patches).
///
/// # Errors
/// [`GuardError::PolicyDelete`] (exit 3) naming the first such rule and its message;
/// [`GuardError::Usage`] for a rule whose paths do not parse (plugin.yaml validation refuses
/// those first).
pub fn delete_verdict(
    policies: &[crate::rules::policy::PolicyRule],
    obj: &ObjectRef,
    operation: Operation,
    change: &Change,
) -> Result<(), GuardError> {
    if !matches!(change, Change::Delete { .. }) {
        return Ok(());
    }
    let rules = crate::rules::policy::matching(
        policies,
        &obj.t.api.plural,
        &obj.t.api.kind,
        &obj.t.api.group,
        obj.namespace.as_deref(),
    )
    .map_err(GuardError::Usage)?;
    match crate::rules::policy::forbids_delete(&rules) {
        None => Ok(()),
        Some(rule) => Err(GuardError::PolicyDelete {
            change: match operation {
                Operation::Delete => "delete",
                Operation::Rollback => "rollback",
                _ => "change",
            },
            object: obj.display(),
            rule: rule.name(),
            message: crate::base::echo::capped(&rule.rule.message, 400),
        }),
    }
}
