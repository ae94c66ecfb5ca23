//! [`Session::apply`]: a server-side apply of one manifest object through the guarded path —
//! the boundary and reviews of [`Change::Apply`] (`create` and `patch`), the before-state
//! (a `get` review and the read; a missing object is a create, journaled with no
//! before-state), the reconciler check, the field policies of plugin.yaml judged on a
//! server-side dry run of the same apply, and the apply itself journaled write-ahead with its
//! after-state, so its inverse knows which fields it changed.
//!
//! The read is required, not optional as for a patch: without it the journal could not tell
//! a create from an update, and the inverse of a create (a delete) applied to an update would
//! delete an object the apply did not make.

use kube::api::{DynamicObject, PatchParams};
use serde_json::Value;

use super::patch::{policy_verdict, refusal_result, remember_patch_secrets, with_precondition};
use super::{ObjectRef, outcome_text};
use crate::changelog::{self, Operation};
use crate::cli::{DryRun, PatchType};
use crate::cluster::ApiError;
use crate::guard::GuardError;
use crate::guard::change::{Change, Params, Request};
use crate::guard::session::{Grant, Session};
use crate::rules::reconciler::Reconciler;

/// One server-side apply to send with [`Session::apply`].
#[derive(Debug, Clone, Copy)]
pub struct ApplyRequest<'a> {
    /// The object as the manifest writes it (the apply configuration).
    pub body: &'a Value,
    /// none, server or client.
    pub dry_run: DryRun,
    /// The field manager (`kubectl-myops`, `--field-manager`).
    pub field_manager: &'a str,
    /// Take over fields other managers own (`--force-conflicts`, allowed by plugin.yaml).
    pub force: bool,
}

/// What [`Session::apply`] did.
#[derive(Debug, Clone)]
pub struct Applied {
    /// The object before (`None`: it did not exist, the apply created it).
    pub before: Option<Value>,
    /// The object after: the server's answer (for `--dry-run=client`, the manifest).
    pub after: Value,
    /// The owner found on the before-state (warned about; journaled).
    pub reconciler: Option<Reconciler>,
}

impl Applied {
    /// Whether the apply created the object.
    pub fn created(&self) -> bool {
        self.before.is_none()
    }

    /// Whether the object changed: created, or its resourceVersion moved (the apiserver
    /// does not write an apply that changes nothing, so the resourceVersion stays).
    pub fn changed(&self) -> bool {
        let rv = |v: &Value| v.pointer("/metadata/resourceVersion").cloned();
        match &self.before {
            None => true,
            Some(b) => rv(b) != rv(&self.after),
        }
    }
}

impl ApplyRequest<'_> {
    /// The apply as a [`Change`] of the mutation model (its reviews, its request).
    pub fn as_change(&self) -> Change {
        Change::Apply {
            body: self.body.clone(),
            field_manager: self.field_manager.to_string(),
            force: self.force,
            origin: None,
        }
    }
}

impl Session<'_> {
    /// The gate of an apply to `obj`: the boundary of plugin.yaml verb `apply` and the
    /// reviews of [`Change::Apply`], then a `get` review (the before-state is required). A
    /// refusal is journaled as one complete record.
    ///
    /// # Errors
    /// The refusal (exit 3), a review that cannot be made (exit 1), journal errors.
    pub async fn authorize_apply(
        &self,
        obj: &ObjectRef,
        req: &ApplyRequest<'_>,
    ) -> Result<Grant, GuardError> {
        let change = req.as_change();
        let dry = req.dry_run != DryRun::None;
        let intent = || change.intent(Operation::Apply, obj, dry, None);
        let mut grant = self.authorize_change(obj, &change, intent()).await?;
        let get = obj.access("get", None);
        match self.extend_if_allowed(&mut grant, get.clone()).await {
            Ok(true) => Ok(grant),
            Ok(false) => {
                let e = self
                    .denial(
                        &get,
                        "apply reads the object first, to journal whether it creates or changes it and what to restore".into(),
                    )
                    .await;
                self.journal_complete(self.intent(intent()).await, "denied".into())
                    .await?;
                Err(e.into())
            }
            Err(e) => {
                self.journal_complete(self.intent(intent()).await, e.to_string())
                    .await?;
                Err(e.into())
            }
        }
    }

    /// Server-side applies `req.body` to `obj` under `grant` ([`Session::authorize_apply`],
    /// or a grant for every object of the type that covers the same reviews): reads the
    /// before-state, checks for a reconciler (warned by the caller, journaled), judges the
    /// field policies on a server-side dry run (both requests pinned to the before-state's
    /// resourceVersion), then sends the apply between its intent and outcome records.
    /// `--dry-run=client` sends nothing and journals the attempt.
    ///
    /// # Errors
    /// A failed read (journaled), [`GuardError::Policy`] (exit 3, nothing sent), the
    /// server's [`ApiError`] (a field conflict is 409, exit 5), journal errors.
    pub async fn apply(
        &self,
        grant: &Grant,
        obj: &ObjectRef,
        req: &ApplyRequest<'_>,
    ) -> Result<Applied, GuardError> {
        match self.with_change_cause(&req.as_change(), &obj.t.api.kind) {
            Some(Change::Apply { body, .. }) => {
                let caused = ApplyRequest {
                    body: &body,
                    ..*req
                };
                self.apply_as_sent(grant, obj, &caused).await
            }
            _ => self.apply_as_sent(grant, obj, req).await,
        }
    }

    /// [`Session::apply`] of `req` as it is sent (its change cause already written).
    async fn apply_as_sent(
        &self,
        grant: &Grant,
        obj: &ObjectRef,
        req: &ApplyRequest<'_>,
    ) -> Result<Applied, GuardError> {
        let change = req.as_change();
        let dry = req.dry_run != DryRun::None;
        let before = match self.read(grant, obj).await {
            Ok(Some(v)) => Some(v),
            Err(ApiError::Server { code: 404, .. }) => None,
            Ok(None) => {
                let get = obj.access("get", None);
                let e = self
                    .denial(&get, "the read of the object was forbidden".into())
                    .await;
                let entry = self
                    .intent(change.intent(Operation::Apply, obj, dry, None))
                    .await;
                self.journal_complete(entry, "denied".into()).await?;
                return Err(e.into());
            }
            Err(e) => {
                let entry = self
                    .intent(change.intent(Operation::Apply, obj, dry, None))
                    .await;
                self.journal_complete(entry, outcome_text(&e)).await?;
                return Err(e.into());
            }
        };
        let reconciler = before.as_ref().and_then(crate::rules::reconciler::detect);
        remember_patch_secrets(&obj.t.api.kind, req.body);
        let mut intent = self
            .intent(change.intent(Operation::Apply, obj, dry, before.as_ref()))
            .await;
        intent.reconciler = reconciler.clone();
        let applied = |after: Value| Applied {
            before: before.clone(),
            after,
            reconciler: reconciler.clone(),
        };
        if req.dry_run == DryRun::Client {
            self.journal_complete(intent, changelog::SUCCESS.into())
                .await?;
            return Ok(applied(req.body.clone()));
        }
        let rules = crate::rules::policy::matching(
            &self.settings().plugin.policies,
            &obj.t.api.plural,
            &obj.t.api.kind,
            &obj.t.api.group,
            obj.namespace.as_deref(),
        )
        .map_err(GuardError::Usage)?;
        let api = self.api_for(grant, obj, &change)?;
        // Under a field policy the dry run and the apply both carry the before-state's
        // resourceVersion (server-side apply honours it as a precondition), so the change
        // judged is the change made; a write in between is a 409 (exit 5).
        let rv = before
            .as_ref()
            .and_then(|b| b.pointer("/metadata/resourceVersion"))
            .and_then(Value::as_str);
        let body = match rv.filter(|_| !rules.is_empty()) {
            Some(rv) => with_precondition(PatchType::Merge, req.body, rv),
            None => req.body.clone(),
        };
        let sent = Change::Apply {
            body,
            field_manager: req.field_manager.to_string(),
            force: req.force,
            origin: None,
        };
        let (Request::Patch { patch, .. }, Params::Patch(pp)) = sent
            .request(req.field_manager, req.dry_run == DryRun::Server)
            .map_err(GuardError::Usage)?
        else {
            return Err(GuardError::Usage(
                "internal: an apply builds a PATCH".into(),
            ));
        };
        let answered = if rules.is_empty() {
            None
        } else {
            let judged = Judged {
                obj,
                rules: &rules,
                before: before.as_ref(),
                intent: &intent,
            };
            self.judge_apply(&judged, &api, &pp, &patch)
                .await?
                .filter(|_| pp.dry_run)
        };
        let send = async {
            match answered {
                Some(o) => Ok(o),
                None => api.patch(&obj.name, &pp, &patch).await,
            }
        };
        let kind = obj.t.api.kind.clone();
        let b = before.clone();
        let dry_params = PatchParams {
            dry_run: true,
            ..pp.clone()
        };
        let dry_run = async {
            let answer = api.patch(&obj.name, &dry_params, &patch).await?;
            Ok(serde_json::to_value(answer).unwrap_or_default())
        };
        let intent = self.admit(intent, before.as_ref(), dry_run).await?;
        let answer = self
            .journaled_with(
                intent,
                "the server-side apply",
                send,
                |o: &DynamicObject| {
                    let v = serde_json::to_value(o).unwrap_or(Value::Null);
                    change.outcome(&kind, b.as_ref(), &v)
                },
            )
            .await?;
        Ok(applied(serde_json::to_value(answer).unwrap_or(Value::Null)))
    }
}

/// The Status message of a server-side apply's conflict without the causes [`ApiError`]
/// appends to it (` (.data.a: conflict with "other")`, the same fields again): kubectl prints
/// the message alone (pure; `apply` and `policies apply` print it).
pub fn server_sentence(message: &str) -> &str {
    match message.rfind(" (") {
        Some(i) if message.ends_with(')') && message[i..].contains("conflict with") => {
            &message[..i]
        }
        _ => message,
    }
}

/// What a field-policy judgement of an apply needs.
struct Judged<'a> {
    obj: &'a ObjectRef,
    rules: &'a [crate::rules::policy::Compiled],
    before: Option<&'a Value>,
    intent: &'a changelog::Entry,
}

impl Session<'_> {
    /// The apply sent as a server-side dry run and the object it shows judged by the field
    /// policies (against the before-state, or an empty object for a create): the dry run's
    /// answer when every rule allows it. A refusal or a rejected dry run is journaled as one
    /// complete record.
    async fn judge_apply(
        &self,
        j: &Judged<'_>,
        api: &kube::Api<DynamicObject>,
        pp: &PatchParams,
        patch: &kube::api::Patch<&Value>,
    ) -> Result<Option<DynamicObject>, GuardError> {
        let dry_pp = PatchParams {
            dry_run: true,
            ..pp.clone()
        };
        let answer = match self
            .call(
                "the server-side dry run for field policies",
                api.patch(&j.obj.name, &dry_pp, patch),
            )
            .await
        {
            Ok(o) => o,
            Err(e) => {
                let result = format!(
                    "{} (in the server-side dry run field policies need; nothing was sent)",
                    outcome_text(&e)
                );
                self.journal_complete(j.intent.clone(), result).await?;
                return Err(e.into());
            }
        };
        let after = serde_json::to_value(&answer).unwrap_or(Value::Null);
        let empty = Value::Object(serde_json::Map::new());
        if let Err(refusal) =
            policy_verdict(j.rules, j.obj, "apply", j.before.unwrap_or(&empty), &after)
        {
            self.journal_complete(j.intent.clone(), refusal_result(&refusal))
                .await?;
            return Err(refusal);
        }
        Ok(Some(answer))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_conflict_is_printed_without_the_causes_repeated() {
        assert_eq!(
            server_sentence(
                "Apply failed with 1 conflict: conflict with \"other\": .data.a (.data.a: conflict with \"other\")"
            ),
            "Apply failed with 1 conflict: conflict with \"other\": .data.a"
        );
        assert_eq!(server_sentence("Apply failed (x)"), "Apply failed (x)");
    }
}
