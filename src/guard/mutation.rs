//! Journal-first mutations (docs/design.md, "The guarded path").
//!
//! Every mutating request goes through [`Session::journaled`]: an intent record (everything
//! known before the request, `result: "pending"`) is appended and fsynced, *then* the request
//! is sent — a future that is never polled sends nothing, so a failed intent means nothing was
//! sent — and the complete outcome record is appended after it. A refusal before any request
//! (plugin.yaml, RBAC) is one complete record, and so is a failed read of the before-state
//! ([`Session::before_state`]).
//!
//! The outcome record of an answered patch carries the object after it (`after`, redacted
//! pairwise with the before-state: [`changelog::redact_after`]), so the change log can show
//! the change without asking the cluster again.
//!
//! Reconcilers: before a patch is sent, the live object (the before-state read just before)
//! is checked for an owner that will revert a hand change ([`crate::rules::reconciler::detect`]).
//! What happens then is the request's [`ReconcilerPolicy`]: `patch` warns, `rollback`
//! refuses (exit 5, nothing sent) unless `--force`. Either way the owner is journaled with
//! the change (`reconciler`). The check lives here, not in the verbs, so no mutating verb
//! can skip it.
//!
//! The patch itself ([`Session::patch`]: field policies, dry runs) is in [`patch`]; creates
//! and deletes ([`Session::create`], [`Session::delete`]) in [`lifecycle`]; the server-side
//! apply of a manifest object ([`Session::apply`]) in [`apply`].

pub mod apply;
pub mod apply_batch;
pub mod lifecycle;
mod outcome;
pub use apply::{Applied, ApplyRequest};
pub use lifecycle::delete_verdict;
pub(crate) use outcome::{outcome_text, settle};
pub mod patch;
#[cfg(debug_assertions)]
mod test_hooks;
#[cfg(debug_assertions)]
pub use test_hooks::test_hold;
#[cfg(debug_assertions)]
use test_hooks::test_pause;

pub use patch::{
    after_state, policy_verdict, remember_patch_secrets, with_precondition, would_store,
};

use std::future::Future;
use std::time::Instant;

use kube::Api;
use kube::api::DynamicObject;
use serde_json::Value;

use super::GuardError;
use super::change::Change;
pub use super::change::object::{Intent, ObjectRef, type_name};
use super::protect::Admitted;
use super::session::{Grant, Session};
use crate::changelog::{self, Entry, Operation};
use crate::cli::{DryRun, PatchType};
use crate::cluster::ApiError;
use crate::guard::authz::GateError;
use crate::rules::reconciler::Reconciler;

/// A patch to send: what `patch`, `rollback`, `scale`, `label` and `annotate` ask for.
#[derive(Debug, Clone)]
pub struct PatchRequest<'a> {
    /// What the journal calls it (`patch`, `rollback`, `scale`, `label`, `annotate`).
    pub operation: Operation,
    /// strategic, merge or json.
    pub patch_type: PatchType,
    /// The patch body (validated by the caller).
    pub body: &'a Value,
    /// none, server or client.
    pub dry_run: DryRun,
    /// `status` or `scale`, if any.
    pub subresource: Option<&'a str>,
    /// The field manager.
    pub field_manager: &'a str,
    /// What to do when the live object is owned by a reconciler.
    pub reconciler: ReconcilerPolicy,
}

/// What [`Session::patch`] does when the live object names a reconciler
/// ([`crate::rules::reconciler::detect`]); in every case the owner is journaled with the change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReconcilerPolicy {
    /// Send the patch; the caller prints [`Reconciler::patch_warning`] (`patch`).
    Warn,
    /// Refuse with [`GuardError::Reconciled`] (exit 5) before anything is sent (`rollback`).
    Refuse,
    /// Send it anyway (`rollback --force`).
    Force,
}

/// What [`Session::patch`] returns: the object after the patch and the reconciler the live
/// object named, if any.
#[derive(Debug, Clone)]
pub struct Patched {
    /// The object after the patch (the server's answer, or the local result of
    /// `--dry-run=client`).
    pub after: Value,
    /// The owner found on the before-state (warned about or overridden).
    pub reconciler: Option<Reconciler>,
}

impl PatchRequest<'_> {
    /// What messages call the change: `rollback`, `scale`, `label`, `annotate`, `rollout`,
    /// or `patch`.
    pub fn change(&self) -> &'static str {
        match self.operation {
            Operation::Rollback => "rollback",
            Operation::Scale => "scale",
            Operation::Label => "label",
            Operation::Annotate => "annotate",
            Operation::Rollout => "rollout",
            _ => "patch",
        }
    }

    /// The patch as a [`Change`] of the mutation model (its reviews, its request).
    pub fn as_change(&self) -> Change {
        Change::Patch {
            patch_type: self.patch_type,
            body: self.body.clone(),
            subresource: self.subresource.map(str::to_string),
        }
    }

    /// What the journal records for this patch on `obj`, before its request.
    pub fn intent<'b>(&'b self, obj: &'b ObjectRef, before: Option<&Value>) -> Intent<'b> {
        Intent {
            operation: self.operation,
            api_version: &obj.t.api.api_version,
            kind: &obj.t.api.kind,
            namespace: obj.namespace.as_deref(),
            name: &obj.name,
            patch_type: Some(type_name(self.patch_type)),
            patch: Some(self.body.clone()),
            dry_run: self.dry_run != DryRun::None,
            before: before.cloned(),
        }
    }
}

/// What an outcome record keeps from the server's answer: the resourceVersion after, the
/// after-state (redacted), and the result when it is not plain `success` (a delete the
/// server answered with the object still present, held by finalizers:
/// [`changelog::DELETING`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Recorded {
    /// `resourceVersionAfter`.
    pub resource_version: Option<String>,
    /// `after`.
    pub after: Option<Value>,
    /// `result`; `None` is [`changelog::SUCCESS`].
    pub result: Option<String>,
}

impl From<(Option<String>, Option<Value>)> for Recorded {
    fn from((resource_version, after): (Option<String>, Option<Value>)) -> Recorded {
        Recorded {
            resource_version,
            after,
            result: None,
        }
    }
}

impl Session<'_> {
    /// The object `name` of TYPE in `namespace` (default: the session's), resolved.
    ///
    /// A `namespace` given here is checked as `-n` is ([`crate::base::validate::check_namespace`]):
    /// it may come from a change-log record (`drift`, `rollback`, `changelog diff`), which is a
    /// file anyone with the home directory can edit, and it becomes a URL path segment.
    ///
    /// # Errors
    /// Unknown TYPE (2), a name or namespace that cannot be one URL segment (2), discovery
    /// failures (1).
    pub async fn object(
        &self,
        type_name: &str,
        name: &str,
        namespace: Option<String>,
    ) -> Result<ObjectRef, GuardError> {
        super::check_names(&[name.to_string()]).map_err(GuardError::Usage)?;
        if let Some(ns) = &namespace {
            crate::base::validate::check_namespace(ns).map_err(GuardError::Usage)?;
        }
        let t = self.resolve(type_name).await?;
        let namespace = t
            .namespaced
            .then(|| namespace.unwrap_or_else(|| self.namespace().to_string()));
        Ok(ObjectRef {
            t,
            namespace,
            name: name.to_string(),
        })
    }

    /// `change` with `--reason` as the `kubernetes.io/change-cause` annotation of a workload,
    /// when plugin.yaml says `changeCause: true` ([`super::change::cause::with_change_cause`]
    /// says which changes carry it); `None` when it is sent as it is. Applied before the
    /// intent is built, so the journal records what is sent and a rollback removes it again.
    pub fn with_change_cause(&self, change: &Change, kind: &str) -> Option<Change> {
        let s = self.settings();
        let reason = s
            .protect
            .reason
            .as_deref()
            .filter(|_| s.plugin.change_cause)?;
        super::change::cause::with_change_cause(change, kind, reason)
    }

    fn api(&self, obj: &ObjectRef) -> Api<DynamicObject> {
        match &obj.namespace {
            Some(ns) => Api::namespaced_with(self.client().clone(), ns, &obj.t.api),
            None => Api::all_with(self.client().clone(), &obj.t.api),
        }
    }

    /// The client of `obj` for sending `change`, when `grant` covers every review the change
    /// needs ([`Change::reviews`]): a request that was not reviewed is never built.
    ///
    /// # Errors
    /// [`GuardError::Usage`] naming the unreviewed request (a programming error: the verb
    /// authorized another change than it sends).
    pub(crate) fn api_for(
        &self,
        grant: &Grant,
        obj: &ObjectRef,
        change: &Change,
    ) -> Result<Api<DynamicObject>, GuardError> {
        match change.reviews(obj).into_iter().find(|r| !grant.covers(r)) {
            None => Ok(self.api(obj)),
            Some(r) => Err(GuardError::Usage(format!(
                "internal: {} {} of {} was not reviewed, so it is not sent",
                r.verb,
                r.group_resource(),
                obj.display()
            ))),
        }
    }

    /// The record of an attempt before its request (pure apart from the clock and the user):
    /// `result: "pending"`, this session's id, redacted patch and before-state.
    pub async fn intent(&self, i: Intent<'_>) -> Entry {
        Entry {
            id: changelog::new_id(),
            format_version: Some(changelog::FORMAT_VERSION),
            session: self.id().to_string(),
            timestamp: changelog::now_rfc3339(),
            plugin: self.settings().plugin.name.clone(),
            user: self.user().await,
            context: self.context().map(str::to_string),
            server: self.server().to_string(),
            api_version: i.api_version.to_string(),
            kind: i.kind.to_string(),
            namespace: i.namespace.map(str::to_string),
            name: i.name.to_string(),
            uid: i
                .before
                .as_ref()
                .and_then(|o| o.pointer("/metadata/uid"))
                .and_then(Value::as_str)
                .map(str::to_string),
            operation: i.operation,
            patch_type: i.patch_type.map(str::to_string),
            patch: i.patch.map(|p| changelog::redact_patch(i.kind, p)),
            dry_run: i.dry_run,
            before: i.before.map(|b| changelog::redact_as(i.kind, b)),
            after: None,
            reconciler: None,
            resource_version_after: None,
            reconciled: None,
            reason: self.settings().protect.reason.clone(),
            protection: None,
            audit_id: None,
            actor: self.settings().actor.clone(),
            parent: None,
            result: changelog::PENDING.to_string(),
            duration_seconds: 0.0,
        }
    }

    /// Write-ahead: appends `intent` — admitted by plugin.yaml `protect:` ([`Session::admit`]),
    /// so no request is sent that did not pass it — (fsynced), then sends `request` under the call deadline,
    /// then appends the complete outcome record (`rv_after` reads the resourceVersion from the
    /// answer). `request` is not polled — nothing is sent — when the intent cannot be written.
    ///
    /// A request whose answer was lost after it may have reached the server
    /// ([`ApiError::may_have_applied`]: a connection reset or closed mid-request, a deadline
    /// passed) is journaled with the result `outcome unknown: ERROR` ([`changelog::LOST`]) and
    /// returned as [`ApiError::Lost`] naming the entry (exit 1): the server may have made the
    /// change, so nothing may treat it as a failed attempt. A connection never made (refused
    /// before anything was sent) stays a plain failure.
    ///
    /// # Errors
    /// [`GuardError::Journal`] (nothing sent), the request's [`ApiError`] (journaled;
    /// [`ApiError::Lost`] when its outcome is unknown), or [`GuardError::Unjournaled`] when the
    /// outcome could not be written after the request.
    pub async fn journaled<T, F>(
        &self,
        intent: Admitted,
        what: &str,
        request: F,
        rv_after: impl Fn(&T) -> Option<String>,
    ) -> Result<T, GuardError>
    where
        F: Future<Output = Result<T, kube::Error>>,
    {
        self.journaled_with(intent, what, request, |v| (rv_after(v), None))
            .await
    }

    /// [`Session::journaled`] whose outcome record also carries the after-state:
    /// `outcome` reads the resourceVersion and the (already redacted) object from the answer.
    ///
    /// # Errors
    /// As [`Session::journaled`].
    pub async fn journaled_with<T, F, R>(
        &self,
        intent: Admitted,
        what: &str,
        request: F,
        outcome: impl Fn(&T) -> R,
    ) -> Result<T, GuardError>
    where
        F: Future<Output = Result<T, kube::Error>>,
        R: Into<Recorded>,
    {
        let journal = self.journal()?;
        let intent = intent.into_entry();
        let started = Instant::now();
        journal.append(&intent).map_err(GuardError::Journal)?;
        #[cfg(debug_assertions)]
        test_pause::at("after-intent");
        // The answer's `Audit-Id` is captured in this task while the request runs.
        #[cfg(debug_assertions)]
        let (result, audit_id) = crate::cluster::audit::capturing(test_pause::faulted(
            self.server(),
            what,
            self.call(what, request),
        ))
        .await;
        #[cfg(not(debug_assertions))]
        let (result, audit_id) = crate::cluster::audit::capturing(self.call(what, request)).await;
        #[cfg(debug_assertions)]
        test_pause::at("after-send");
        let (record, settled) = settle(
            &intent,
            result.map_err(GuardError::Api),
            |v| outcome(v).into(),
            started.elapsed().as_secs_f64(),
            audit_id,
        );
        self.keep(std::slice::from_ref(&record), GuardError::Unjournaled)
            .await?;
        self.emit_event(&record).await;
        settled
    }

    /// Appends the outcome record `changelog reconcile` found for an intent without one
    /// (`record` is the intent completed with the real outcome and
    /// [`Entry::reconciled`](changelog::Entry::reconciled)); nothing is sent.
    ///
    /// # Errors
    /// [`GuardError::Journal`].
    pub async fn journal_reconciled(&self, record: &Entry) -> Result<(), GuardError> {
        self.keep(std::slice::from_ref(record), GuardError::Journal)
            .await
    }

    /// Appends one complete record for an attempt that sends no mutating request: refused
    /// before it (plugin.yaml, RBAC, a review that could not be made) or computed locally
    /// (`--dry-run=client`).
    ///
    /// # Errors
    /// [`GuardError::Journal`].
    pub async fn journal_complete(&self, intent: Entry, result: String) -> Result<(), GuardError> {
        self.keep(
            &[intent.with_outcome(result, None, 0.0)],
            GuardError::Journal,
        )
        .await
    }

    /// Authorizes `change` on `obj`: the plugin.yaml boundary for its verb, then its
    /// SelfSubjectAccessReviews ([`Change::reviews`]). A refusal is journaled as one complete
    /// record (`denied`, or the review's error) for the attempt described by `intent`.
    ///
    /// Within the boundary, what every change asks next is asked in the same round trip: the
    /// `get` review of the before-state ([`Session::before_state`], the live-object checks of
    /// `undelete` and `rollback`) and the SelfSubjectReview naming the user of the journal's
    /// records. Both are read-only questions whose answers are cached for this process; the
    /// `get` review only warms the cache — the read is still sent only when a grant that
    /// holds it allows it. Outside the boundary nothing is sent before the refusal's record.
    ///
    /// # Errors
    /// The refusal ([`GateError`], exit 3; a review that cannot be made, exit 1), or
    /// [`GuardError::Journal`].
    pub async fn authorize_change(
        &self,
        obj: &ObjectRef,
        change: &Change,
        intent: Intent<'_>,
    ) -> Result<Grant, GuardError> {
        let verb = super::change::plugin_verb(intent.operation);
        let reviews = change.reviews(obj);
        let gate = self.authorize(verb, &obj.t, false, &reviews);
        let authorized = if self.boundary(verb, &obj.t, false).is_ok() {
            let get = obj.access("get", None);
            let ahead = async {
                if !reviews.contains(&get) {
                    // Warms the cache only: an error is asked again where it is needed.
                    let _ = self.decide(&get).await;
                }
            };
            let (authorized, (), _) = tokio::join!(gate, ahead, self.self_review());
            authorized
        } else {
            gate.await
        };
        match authorized {
            Ok(g) => Ok(g),
            Err(e) => {
                let result = match &e {
                    GuardError::Gate(GateError::Review(_)) => e.to_string(),
                    GuardError::Gate(_) => "denied".to_string(),
                    other => other.to_string(),
                };
                let entry = self.intent(intent).await;
                self.journal_complete(entry, result).await?;
                Err(e)
            }
        }
    }

    /// The before-state of a change to `obj`: a `get` review added to `grant` when it
    /// allows the read, then the read. `Ok(None)` — nothing read, nothing sent — when the
    /// review says no (a change may go on without it), as when the server answers 403. A
    /// failed review or read is an attempt too: journaled as one complete record of
    /// `intent`, the same for every mutating verb.
    ///
    /// # Errors
    /// The review's [`GateError`] or the read's [`ApiError`] (a missing object is 404), after
    /// the record; [`GuardError::Journal`].
    pub async fn before_state(
        &self,
        grant: &mut Grant,
        obj: &ObjectRef,
        intent: Intent<'_>,
    ) -> Result<Option<Value>, GuardError> {
        self.before_state_with(grant, obj, intent, true).await
    }

    /// [`Session::before_state`] of an object that may be missing on purpose (kubectl's
    /// `--ignore-not-found`, which says nothing of a missing object): a read the server
    /// answers 404 is returned without a record — nothing was attempted — while every other
    /// failure is journaled as there.
    ///
    /// # Errors
    /// As [`Session::before_state`]; 404 unjournaled.
    pub async fn before_state_if_present(
        &self,
        grant: &mut Grant,
        obj: &ObjectRef,
        intent: Intent<'_>,
    ) -> Result<Option<Value>, GuardError> {
        self.before_state_with(grant, obj, intent, false).await
    }

    /// [`Session::before_state`], journaling a missing object (404) only when `journal_missing`.
    async fn before_state_with(
        &self,
        grant: &mut Grant,
        obj: &ObjectRef,
        intent: Intent<'_>,
        journal_missing: bool,
    ) -> Result<Option<Value>, GuardError> {
        let read = match self.extend_if_allowed(grant, obj.access("get", None)).await {
            Ok(false) => return Ok(None),
            Ok(true) => self.read(grant, obj).await.map_err(GuardError::from),
            Err(e) => Err(GuardError::from(e)),
        };
        match read {
            Ok(v) => Ok(v),
            Err(e @ GuardError::Api(ApiError::Server { code: 404, .. })) if !journal_missing => {
                Err(e)
            }
            Err(e) => {
                let result = match &e {
                    GuardError::Api(a) => a.to_string(),
                    other => other.to_string(),
                };
                let entry = self.intent(intent).await;
                self.journal_complete(entry, result).await?;
                Err(e)
            }
        }
    }

    /// Reads the object under the call deadline, when `grant` holds a `get` review of it.
    /// `Ok(None)` — and no request — when it does not, and when the server answers 403 (a
    /// patch may go on without it); a missing object is [`ApiError`] 404.
    ///
    /// # Errors
    /// The API error of the read, except 403.
    pub async fn read(&self, grant: &Grant, obj: &ObjectRef) -> Result<Option<Value>, ApiError> {
        if !grant.covers(&obj.access("get", None)) {
            return Ok(None);
        }
        // Decoded as deep as kubectl reads ([`crate::base::decode`]): the before-state
        // of a change, and the live object `rollback`, `drift` and `changelog reconcile`
        // judge, may nest past serde_json's default 128 levels.
        let req = kube::core::Request::new(self.api(obj).resource_url())
            .get(&obj.name, &kube::api::GetParams::default())
            .map_err(|e| ApiError::from_kube(kube::Error::BuildRequest(e), self.server()))?;
        match self
            .send_deep::<DynamicObject>("the read of the object", req)
            .await
        {
            Ok(o) => {
                let v = serde_json::to_value(o).ok();
                // A Secret's values, once read, are masked wherever they would be printed or
                // journaled (a server message may quote them later).
                if let Some(v) = &v {
                    crate::base::redact::remember_secret_values(&obj.t.api.kind, v);
                }
                Ok(v)
            }
            Err(ApiError::Server { code: 403, .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

#[cfg(test)]
mod tests;
