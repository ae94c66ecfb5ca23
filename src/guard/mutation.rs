//! Journal-first mutations (ARCHITECTURE §7 as amended by issue 9).
//!
//! Every mutating request goes through [`Session::journaled`]: an intent record (everything
//! known before the request, `result: "pending"`) is appended and fsynced, *then* the request
//! is sent — a future that is never polled sends nothing, so a failed intent means nothing was
//! sent — and the complete outcome record is appended after it. A refusal before any request
//! (plugin.yaml, RBAC) is one complete record.
//!
//! The outcome record of an answered patch carries the object after it (`after`, redacted
//! pairwise with the before-state: [`changelog::redact_after`]), so the change log can show
//! the change without asking the cluster again (issue 15).
//!
//! Reconcilers (issue 15): before a patch is sent, the live object (the before-state read
//! just before) is checked for an owner that will revert a hand change
//! ([`crate::reconciler::detect`]). What happens then is the request's
//! [`ReconcilerPolicy`]: `patch` warns, `rollback` refuses (exit 5, nothing sent) unless
//! `--force`. Either way the owner is journaled with the change (`reconciler`). The check
//! lives here, not in the verbs, so no mutating verb can skip it.

use std::future::Future;
use std::time::Instant;

use kube::Api;
use kube::api::{DynamicObject, Patch, PatchParams};
use serde_json::Value;

use super::GuardError;
use super::session::{Grant, Session};
use crate::authz::{AccessRequest, GateError};
use crate::changelog::{self, Entry, Operation};
use crate::cli::{DryRun, PatchType};
use crate::cluster::{ApiError, ResolvedType};
use crate::config::Verb;
use crate::reconciler::Reconciler;

/// One object a mutation acts on, its type resolved.
#[derive(Debug, Clone)]
pub struct ObjectRef {
    /// Its resource type.
    pub t: ResolvedType,
    /// Its namespace (`None` when cluster-scoped).
    pub namespace: Option<String>,
    /// Its name.
    pub name: String,
}

impl ObjectRef {
    /// `deployment.apps/web` — kubectl's name for messages and `-o name`.
    pub fn display(&self) -> String {
        format!("{}/{}", self.t.name_prefix(), self.name)
    }

    /// The SelfSubjectAccessReview question for `verb` on this object.
    pub fn access(&self, verb: &str, subresource: Option<&str>) -> AccessRequest {
        AccessRequest {
            verb: verb.into(),
            group: self.t.api.group.clone(),
            resource: self.t.api.plural.clone(),
            subresource: subresource.map(str::to_string),
            namespace: self.namespace.clone(),
            name: Some(self.name.clone()),
        }
    }
}

/// A patch to send: what `patch` and `rollback` ask for.
#[derive(Debug, Clone)]
pub struct PatchRequest<'a> {
    /// What the journal calls it (`patch` or `rollback`).
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
/// ([`crate::reconciler::detect`]); in every case the owner is journaled with the change.
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
    /// What messages call the change: `rollback`, or `patch`.
    pub fn change(&self) -> &'static str {
        match self.operation {
            Operation::Rollback => "rollback",
            _ => "patch",
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

/// The fault-injection suite's pause points (issue 17), compiled into debug builds only
/// (`cfg(debug_assertions)`: the tests run the debug binary; a release never contains this).
/// With `MYOPS_TEST_PAUSE=after-intent` the process stops right after the intent record is
/// fsynced and before the request is sent; with `after-send`, right after the server
/// answered and before the outcome record is written. It then creates the file named by
/// `MYOPS_TEST_PAUSE_MARKER` (if set) and sleeps, so a test can `kill -9` it at a known
/// point of the write-ahead protocol (tests/chaos/kill9.rs).
#[cfg(debug_assertions)]
mod test_pause {
    /// Pauses at `point` when `MYOPS_TEST_PAUSE` names it; otherwise returns at once.
    pub fn at(point: &str) {
        if std::env::var("MYOPS_TEST_PAUSE").ok().as_deref() != Some(point) {
            return;
        }
        if let Some(marker) = std::env::var_os("MYOPS_TEST_PAUSE_MARKER") {
            let _ = std::fs::write(marker, point);
        }
        // A blocking sleep on purpose: the whole process stands still until it is killed.
        std::thread::sleep(std::time::Duration::from_secs(600));
    }
}

/// `kubectl patch`'s wire name of a patch type.
pub fn type_name(t: PatchType) -> &'static str {
    match t {
        PatchType::Strategic => "strategic",
        PatchType::Merge => "merge",
        PatchType::Json => "json",
    }
}

/// What a journal record says about the object and the change, before the request.
pub struct Intent<'a> {
    /// What is attempted.
    pub operation: Operation,
    /// `apiVersion` of the object.
    pub api_version: &'a str,
    /// `kind` of the object.
    pub kind: &'a str,
    /// Namespace, if namespaced.
    pub namespace: Option<&'a str>,
    /// Object name.
    pub name: &'a str,
    /// `apply`, `merge`, `json`, `strategic`, if a patch is sent.
    pub patch_type: Option<&'a str>,
    /// The body sent (redacted before it is written).
    pub patch: Option<Value>,
    /// A dry run.
    pub dry_run: bool,
    /// The object before (redacted before it is written).
    pub before: Option<Value>,
}

impl Session<'_> {
    /// The object `name` of TYPE in `namespace` (default: the session's), resolved.
    ///
    /// A `namespace` given here is checked as `-n` is ([`crate::validate::check_namespace`]):
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
            crate::validate::check_namespace(ns).map_err(GuardError::Usage)?;
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

    fn api(&self, obj: &ObjectRef) -> Api<DynamicObject> {
        match &obj.namespace {
            Some(ns) => Api::namespaced_with(self.client().clone(), ns, &obj.t.api),
            None => Api::all_with(self.client().clone(), &obj.t.api),
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
            result: changelog::PENDING.to_string(),
            duration_seconds: 0.0,
        }
    }

    /// Write-ahead: appends `intent` (fsynced), then sends `request` under the call deadline,
    /// then appends the complete outcome record (`rv_after` reads the resourceVersion from the
    /// answer). `request` is not polled — nothing is sent — when the intent cannot be written.
    ///
    /// # Errors
    /// [`GuardError::Journal`] (nothing sent), the request's [`ApiError`] (journaled), or
    /// [`GuardError::Unjournaled`] when the outcome could not be written after the request.
    pub async fn journaled<T, F>(
        &self,
        intent: Entry,
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
    pub async fn journaled_with<T, F>(
        &self,
        intent: Entry,
        what: &str,
        request: F,
        outcome: impl Fn(&T) -> (Option<String>, Option<Value>),
    ) -> Result<T, GuardError>
    where
        F: Future<Output = Result<T, kube::Error>>,
    {
        let journal = self.journal()?;
        let started = Instant::now();
        journal.append(&intent).map_err(GuardError::Journal)?;
        #[cfg(debug_assertions)]
        test_pause::at("after-intent");
        let result = self.call(what, request).await;
        #[cfg(debug_assertions)]
        test_pause::at("after-send");
        let (text, rv, after) = match &result {
            Ok(v) => {
                let (rv, after) = outcome(v);
                ("success".to_string(), rv, after)
            }
            Err(e) => (outcome_text(e), None, None),
        };
        let mut record = intent.with_outcome(text, rv, started.elapsed().as_secs_f64());
        record.after = after;
        journal.append(&record).map_err(GuardError::Unjournaled)?;
        Ok(result?)
    }

    /// Appends the outcome record `changelog reconcile` found for an intent without one
    /// (`record` is the intent completed with the real outcome and
    /// [`Entry::reconciled`](changelog::Entry::reconciled)); nothing is sent.
    ///
    /// # Errors
    /// [`GuardError::Journal`].
    pub fn journal_reconciled(&self, record: &Entry) -> Result<(), GuardError> {
        self.journal()?.append(record).map_err(GuardError::Journal)
    }

    /// Appends one complete record for an attempt that sends no mutating request: refused
    /// before it (plugin.yaml, RBAC, a review that could not be made) or computed locally
    /// (`--dry-run=client`).
    ///
    /// # Errors
    /// [`GuardError::Journal`].
    pub fn journal_complete(&self, intent: Entry, result: String) -> Result<(), GuardError> {
        self.journal()?
            .append(&intent.with_outcome(result, None, 0.0))
            .map_err(GuardError::Journal)
    }

    /// Authorizes `verb` (with `subresource`) on `obj` for a mutation: the boundary for the
    /// plugin verb `patch`, then the SelfSubjectAccessReview. A refusal is journaled as one
    /// complete record (`denied`, or the review's error) for the attempt described by `intent`.
    ///
    /// # Errors
    /// The refusal ([`GateError`], exit 3; a review that cannot be made, exit 1), or
    /// [`GuardError::Journal`].
    pub async fn authorize_change(
        &self,
        obj: &ObjectRef,
        subresource: Option<&str>,
        intent: Intent<'_>,
    ) -> Result<Grant, GuardError> {
        match self
            .authorize(
                Verb::Patch,
                &obj.t,
                false,
                &[obj.access("patch", subresource)],
            )
            .await
        {
            Ok(g) => Ok(g),
            Err(e) => {
                let result = match &e {
                    GuardError::Gate(GateError::Review(_)) => e.to_string(),
                    GuardError::Gate(_) => "denied".to_string(),
                    other => other.to_string(),
                };
                let entry = self.intent(intent).await;
                self.journal_complete(entry, result)?;
                Err(e)
            }
        }
    }

    /// Reads the object (its before-state) under the call deadline. `Ok(None)` when reading
    /// is forbidden (a patch may go on without it); a missing object is [`ApiError`] 404.
    ///
    /// # Errors
    /// The API error of the read, except 403.
    pub async fn read(&self, _grant: &Grant, obj: &ObjectRef) -> Result<Option<Value>, ApiError> {
        match self
            .call("the read of the object", self.api(obj).get(&obj.name))
            .await
        {
            Ok(o) => {
                let v = serde_json::to_value(o).ok();
                // A Secret's values, once read, are masked wherever they would be printed or
                // journaled (a server message may quote them later).
                if let Some(v) = &v {
                    crate::redact::remember_secret_values(&obj.t.api.kind, v);
                }
                Ok(v)
            }
            Err(ApiError::Server { code: 403, .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Sends a patch, journaled write-ahead (or, for `--dry-run=client`, computes it locally
    /// from `before` and journals that), and returns the object after it. `before` is the
    /// live object just read: a reconciler it names is handled by `req.reconciler`
    /// ([`ReconcilerPolicy`]) and journaled; the outcome record carries the after-state.
    ///
    /// # Errors
    /// [`GuardError::Reconciled`] (exit 5, nothing sent, nothing journaled) for
    /// [`ReconcilerPolicy::Refuse`] on an owned object; [`GuardError::Usage`] for a patch the
    /// server or the local computation rejects (a strategic merge on a custom resource gets
    /// the advice to use `--type merge`; a failed JSON patch names the failing operation), API
    /// errors with their exit codes, journal errors.
    pub async fn patch(
        &self,
        grant: &Grant,
        obj: &ObjectRef,
        req: &PatchRequest<'_>,
        before: Option<&Value>,
    ) -> Result<Patched, GuardError> {
        let _ = grant;
        let reconciler = before.and_then(crate::reconciler::detect);
        if let Some(owner) = &reconciler
            && req.reconciler == ReconcilerPolicy::Refuse
        {
            return Err(GuardError::Reconciled {
                object: obj.display(),
                owner: owner.clone(),
            });
        }
        let rules = crate::policy::matching(
            &self.settings().plugin.policies,
            &obj.t.api.plural,
            &obj.t.api.kind,
            &obj.t.api.group,
            obj.namespace.as_deref(),
        )
        .map_err(GuardError::Usage)?;
        remember_patch_secrets(&obj.t.api.kind, req.body);
        let mut intent = self.intent(req.intent(obj, before)).await;
        intent.reconciler = reconciler.clone();
        let kind = obj.t.api.kind.as_str();
        if req.dry_run == DryRun::Client {
            let after = client_side(req, before);
            // Field policies judge the local result as they judge the server's dry run.
            if let (Ok(a), Some(b)) = (&after, before)
                && let Err(refusal) = policy_verdict(&rules, obj, req.change(), b, a)
            {
                self.journal_complete(intent, refusal_result(&refusal))?;
                return Err(refusal);
            }
            let result = match &after {
                Ok(_) => "success".to_string(),
                Err(e) => e.to_string(),
            };
            intent.after = after
                .as_ref()
                .ok()
                .map(|a| changelog::redact_after(kind, before, a.clone()));
            self.journal_complete(intent, result)?;
            return after.map(|after| Patched { after, reconciler });
        }
        let mut pp = PatchParams {
            field_manager: Some(req.field_manager.to_string()),
            ..Default::default()
        };
        pp.dry_run = req.dry_run == DryRun::Server;
        let api = self.api(obj);
        // Under a field policy, the dry run and the real patch both carry the before-state's
        // resourceVersion as a precondition: both apply to the object that was read, so the
        // change judged is the change made (a write in between is a 409, exit 5).
        let rv = before
            .and_then(|b| b.pointer("/metadata/resourceVersion"))
            .and_then(Value::as_str);
        let body = match rv.filter(|_| !rules.is_empty()) {
            Some(rv) => std::borrow::Cow::Owned(with_precondition(req.patch_type, req.body, rv)),
            None => std::borrow::Cow::Borrowed(req.body),
        };
        let json_ops = match req.patch_type {
            PatchType::Json => Some(
                serde_json::from_value::<json_patch::Patch>((*body).clone())
                    .map_err(|e| GuardError::Usage(e.to_string()))?,
            ),
            _ => None,
        };
        let patch: Patch<&Value> = match (req.patch_type, json_ops) {
            (PatchType::Json, Some(ops)) => Patch::Json(ops),
            (PatchType::Merge, _) => Patch::Merge(&*body),
            _ => Patch::Strategic(&*body),
        };
        // Field policies (issue 16): with a rule on this object, the same patch is sent as a
        // server-side dry run first, and the change it shows is judged before anything is
        // sent for real. Without a rule, no extra request. For `--dry-run=server` the dry
        // run's answer is the answer: it is not asked twice.
        let mut answered: Option<DynamicObject> = None;
        if let Some(first) = rules.first() {
            let refuse = |e: GuardError| {
                self.journal_complete(intent.clone(), refusal_result(&e))?;
                Err(e)
            };
            let Some(b) = before else {
                return refuse(GuardError::PolicyUnchecked {
                    change: req.change(),
                    object: obj.display(),
                    rule: first.name(),
                    why: "reading the object is forbidden, so there is no before-state to compare the server's dry run with; ask a cluster admin for get on it".into(),
                });
            };
            let dry = PatchParams {
                dry_run: true,
                ..pp.clone()
            };
            let answer = match self
                .call(
                    "the server-side dry run for field policies",
                    send_patch(&api, obj, req.subresource, &dry, &patch),
                )
                .await
            {
                Ok(o) => o,
                Err(e) => {
                    // The dry run's rejection is the answer the real patch would get.
                    let result = format!(
                        "{} (in the server-side dry run field policies need; nothing was sent)",
                        outcome_text(&e)
                    );
                    self.journal_complete(intent.clone(), result)?;
                    return Err(explain_rejection(e, obj, req, before));
                }
            };
            let after = match would_store(obj, b, req.subresource, &answer) {
                Ok(a) => a,
                Err(why) => {
                    return refuse(GuardError::PolicyUnchecked {
                        change: req.change(),
                        object: obj.display(),
                        rule: first.name(),
                        why,
                    });
                }
            };
            if let Err(e) = policy_verdict(&rules, obj, req.change(), b, &after) {
                return refuse(e);
            }
            answered = Some(answer).filter(|_| pp.dry_run);
        }
        let send = async {
            match answered {
                Some(o) => Ok(o),
                None => send_patch(&api, obj, req.subresource, &pp, &patch).await,
            }
        };
        match self
            .journaled_with(intent, "the patch", send, |o: &DynamicObject| {
                (
                    o.metadata.resource_version.clone(),
                    after_state(kind, before, o),
                )
            })
            .await
        {
            Ok(o) => Ok(Patched {
                after: serde_json::to_value(o).unwrap_or(Value::Null),
                reconciler,
            }),
            Err(GuardError::Api(e)) => Err(explain_rejection(e, obj, req, before)),
            Err(e) => Err(e),
        }
    }
}

/// Sends `patch` to the object (or its `subresource`) with `pp`.
async fn send_patch(
    api: &Api<DynamicObject>,
    obj: &ObjectRef,
    subresource: Option<&str>,
    pp: &PatchParams,
    patch: &Patch<&Value>,
) -> Result<DynamicObject, kube::Error> {
    match subresource {
        Some(sr) => api.patch_subresource(sr, &obj.name, pp, patch).await,
        None => api.patch(&obj.name, pp, patch).await,
    }
}

/// The object as the server would store it, from a dry run's `answer` (pure): the answer
/// itself, or for the `scale` subresource (answered with an `autoscaling/v1` Scale) the
/// before-state with `/spec/replicas` set from the Scale — the field the built-in scalable
/// types keep it in.
///
/// # Errors
/// Why it cannot be known: a scale patch on another type (a custom resource keeps replicas
/// where its CRD's `specReplicasPath` says, which is not read here).
pub fn would_store(
    obj: &ObjectRef,
    before: &Value,
    subresource: Option<&str>,
    answer: &DynamicObject,
) -> Result<Value, String> {
    let value = serde_json::to_value(answer).unwrap_or(Value::Null);
    if subresource != Some("scale") {
        return Ok(value);
    }
    let builtin = matches!(
        (obj.t.api.group.as_str(), obj.t.api.plural.as_str()),
        ("apps", "deployments" | "replicasets" | "statefulsets") | ("", "replicationcontrollers")
    );
    match value.pointer("/spec/replicas") {
        Some(n) if builtin => {
            let mut after = before.clone();
            if let Some(spec) = after.get_mut("spec").and_then(Value::as_object_mut) {
                spec.insert("replicas".into(), n.clone());
            }
            Ok(after)
        }
        _ => Err(format!(
            "a scale patch on {} changes the field its CRD's specReplicasPath names, which is not checked here; patch that field itself (--type merge)",
            obj.t.group_resource()
        )),
    }
}

/// `body` with the precondition that the object still has resourceVersion `rv` (pure): a
/// JSON patch gets a leading `test` of `/metadata/resourceVersion` (unless it already starts
/// with one of a non-empty value, as a rollback does), a merge or strategic patch `metadata.resourceVersion` (unless it
/// sets a non-empty one: `null` or `""` would make the update unconditional) — the apiserver answers 409 Conflict when the stored object has another
/// (optimistic concurrency, Kubernetes API concepts "Resource versions").
pub fn with_precondition(patch_type: PatchType, body: &Value, rv: &str) -> Value {
    let mut out = body.clone();
    match (patch_type, &mut out) {
        (PatchType::Json, Value::Array(ops)) => {
            // Only a leading test of a non-empty resourceVersion is a precondition: a later
            // one can follow an op that sets it (`replace` to "", then `test` ""), and an
            // empty resourceVersion makes the update unconditional.
            let tests_rv = ops.first().is_some_and(|op| {
                op["op"] == "test"
                    && op["path"] == "/metadata/resourceVersion"
                    && op["value"].as_str().is_some_and(|v| !v.is_empty())
            });
            if !tests_rv {
                ops.insert(
                    0,
                    serde_json::json!({"op": "test", "path": "/metadata/resourceVersion", "value": rv}),
                );
            }
        }
        (PatchType::Merge | PatchType::Strategic, Value::Object(m)) => {
            let meta = m
                .entry("metadata")
                .or_insert_with(|| Value::Object(Default::default()));
            if let Value::Object(meta) = meta {
                // A resourceVersion the patch sets to null or "" is no precondition at all
                // (the apiserver then updates unconditionally), so it is pinned too.
                let pinned = meta
                    .get("resourceVersion")
                    .and_then(Value::as_str)
                    .is_some_and(|v| !v.is_empty());
                if !pinned {
                    meta.insert("resourceVersion".into(), Value::String(rv.to_string()));
                }
            }
        }
        _ => {}
    }
    out
}

/// The field policies' verdict on the change from `before` to `after` (pure): `Ok` when no
/// rule of `rules` refuses, else [`GuardError::Policy`] naming the first rule that does,
/// its denied paths (never values) and its message.
///
/// # Errors
/// The refusal.
pub fn policy_verdict(
    rules: &[crate::policy::Compiled],
    obj: &ObjectRef,
    change: &'static str,
    before: &Value,
    after: &Value,
) -> Result<(), GuardError> {
    let changed: Vec<String> = crate::diff::operations(before, after)
        .iter()
        .map(|op| crate::diff::path_of(op).to_string())
        .collect();
    match crate::policy::denied_changes(rules, &changed, before, after) {
        None => Ok(()),
        Some(v) => Err(GuardError::Policy {
            change,
            object: obj.display(),
            rule: format!("policies[{}] ({})", v.index, v.resource),
            paths: crate::echo::capped(&v.paths_text(), 400),
            message: crate::echo::capped(&v.message, 400),
        }),
    }
}

/// The journal's `result` for a field-policy refusal: `denied by field policy
/// policies[0] (secrets): /data/password` — the rule and the paths, never values.
fn refusal_result(e: &GuardError) -> String {
    match e {
        GuardError::Policy { rule, paths, .. } => format!("denied by field policy {rule}: {paths}"),
        GuardError::PolicyUnchecked { rule, why, .. } => {
            format!("denied by field policy {rule}: cannot be checked: {why}")
        }
        other => other.to_string(),
    }
}

/// Registers the Secret values a patch body carries with [`crate::redact::remember`] (the
/// `data`/`stringData` values of a merge or strategic patch, the values of JSON-patch
/// operations under `/data` or `/stringData`), so a server message that quotes them — the
/// apiserver quotes the rejected object in some validation errors — is masked on stderr and
/// in the change log's `result`. No-op for other kinds.
pub fn remember_patch_secrets(kind: &str, body: &Value) {
    if kind != "Secret" {
        return;
    }
    fn strings(v: &Value) {
        match v {
            Value::String(s) => crate::redact::remember(s),
            Value::Array(a) => a.iter().for_each(strings),
            Value::Object(m) => m.values().for_each(strings),
            _ => {}
        }
    }
    let object = |m: &serde_json::Map<String, Value>| {
        for field in ["data", "stringData"] {
            if let Some(v) = m.get(field) {
                strings(v);
            }
        }
    };
    match body {
        Value::Array(ops) => {
            for op in ops {
                let path = op.get("path").and_then(Value::as_str).unwrap_or("");
                match op.get("value") {
                    Some(Value::Object(m)) if path.is_empty() || path == "/" => object(m),
                    Some(v) if path.starts_with("/data") || path.starts_with("/stringData") => {
                        strings(v)
                    }
                    _ => {}
                }
            }
        }
        Value::Object(m) => object(m),
        _ => {}
    }
}

/// The after-state journaled with a patch's outcome (pure): the server's answer, redacted
/// pairwise with `before` ([`changelog::redact_after`]) — or `None` when the answer is not
/// the object itself: a `scale` subresource answers with an `autoscaling/v1` Scale, and
/// diffing that against the object's before-state would be nonsense (`changelog diff` then
/// reads the object).
pub fn after_state(kind: &str, before: Option<&Value>, answer: &DynamicObject) -> Option<Value> {
    if answer.types.as_ref().is_some_and(|t| t.kind != kind) {
        return None;
    }
    serde_json::to_value(answer)
        .ok()
        .map(|a| changelog::redact_after(kind, before, a))
}

/// The error as the one-line `result` of a record (the Status message when the server answered).
fn outcome_text(e: &ApiError) -> String {
    match e {
        ApiError::Server {
            code,
            reason,
            message,
        } => format!("{reason} ({code}): {message}"),
        other => other.to_string(),
    }
}

/// `--dry-run=client`: the patch applied locally to the before-state (pure).
fn client_side(req: &PatchRequest<'_>, before: Option<&Value>) -> Result<Value, GuardError> {
    let mut doc = before.cloned().ok_or_else(|| {
        GuardError::Usage("--dry-run=client needs to read the object first, and reading it is forbidden; use --dry-run=server".into())
    })?;
    match req.patch_type {
        PatchType::Merge => json_patch::merge(&mut doc, req.body),
        PatchType::Json => {
            let ops: json_patch::Patch = serde_json::from_value(req.body.clone())
                .map_err(|e| GuardError::Usage(e.to_string()))?;
            json_patch::patch(&mut doc, &ops)
                .map_err(|e| GuardError::Usage(format!("the JSON patch does not apply: {e}")))?;
        }
        PatchType::Strategic => {
            return Err(GuardError::Usage("a strategic merge patch needs the server's schema; use --dry-run=server (or --type merge)".into()));
        }
    }
    Ok(doc)
}

/// Turns a server rejection into advice where the server's words do not help.
fn explain_rejection(
    e: ApiError,
    obj: &ObjectRef,
    req: &PatchRequest<'_>,
    before: Option<&Value>,
) -> GuardError {
    match e {
        ApiError::Server { code: 415, .. } if req.patch_type == PatchType::Strategic => {
            GuardError::Usage(format!(
                "{} does not support strategic merge patch (custom resources have no patch strategy); use --type merge or --type json",
                obj.t.group_resource()
            ))
        }
        // The server says only "rejected … due to an error in our request" for a failed JSON
        // patch; applying it to the before-state locally names the operation that failed.
        ApiError::Server {
            code: 422, message, ..
        } if req.patch_type == PatchType::Json => {
            let local = before
                .zip(serde_json::from_value::<json_patch::Patch>(req.body.clone()).ok())
                .and_then(|(b, ops)| {
                    let mut doc = b.clone();
                    json_patch::patch(&mut doc, &ops).err()
                });
            GuardError::Usage(match local {
                Some(e) => format!("the JSON patch does not apply to {}: {e}", obj.display()),
                None => format!(
                    "the server rejected the JSON patch for {}: {message}",
                    obj.display()
                ),
            })
        }
        other => GuardError::Api(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_scale_answer_is_not_journaled_as_the_objects_after_state() {
        let scale: DynamicObject =
            serde_json::from_value(json!({"apiVersion": "autoscaling/v1", "kind": "Scale",
            "metadata": {"name": "web", "resourceVersion": "7"}, "spec": {"replicas": 3}}))
            .unwrap();
        assert_eq!(after_state("Deployment", None, &scale), None);
        let cm: DynamicObject =
            serde_json::from_value(json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "web"}, "data": {"a": "b"}}))
            .unwrap();
        assert_eq!(
            after_state("ConfigMap", None, &cm).unwrap()["data"],
            json!({"a": "b"})
        );
    }

    fn obj(group: &str, plural: &str, kind: &str) -> ObjectRef {
        ObjectRef {
            t: ResolvedType {
                api: kube::discovery::ApiResource {
                    group: group.into(),
                    version: "v1".into(),
                    api_version: if group.is_empty() {
                        "v1".into()
                    } else {
                        format!("{group}/v1")
                    },
                    kind: kind.into(),
                    plural: plural.into(),
                },
                namespaced: true,
                singular: kind.to_lowercase(),
                short_names: vec![],
                categories: vec![],
                verbs: vec![],
                preferred: true,
            },
            namespace: Some("ns".into()),
            name: "web".into(),
        }
    }

    #[test]
    fn a_scale_answer_is_judged_as_spec_replicas_of_a_builtin_type_and_refused_for_a_cr() {
        let scale: DynamicObject = serde_json::from_value(json!({"apiVersion": "autoscaling/v1",
            "kind": "Scale", "metadata": {"name": "web"}, "spec": {"replicas": 5}}))
        .unwrap();
        let before = json!({"kind": "Deployment", "spec": {"replicas": 2, "paused": false}});
        let d = obj("apps", "deployments", "Deployment");
        assert_eq!(
            would_store(&d, &before, Some("scale"), &scale).unwrap(),
            json!({"kind": "Deployment", "spec": {"replicas": 5, "paused": false}})
        );
        let w = obj("example.com", "widgets", "Widget");
        let e = would_store(&w, &before, Some("scale"), &scale).unwrap_err();
        assert!(e.contains("specReplicasPath"), "{e}");
        // Any other answer is the object itself.
        let cm: DynamicObject = serde_json::from_value(json!({"apiVersion": "v1",
            "kind": "ConfigMap", "metadata": {"name": "web"}, "data": {"a": "b"}}))
        .unwrap();
        assert_eq!(
            would_store(&w, &before, None, &cm).unwrap()["data"],
            json!({"a": "b"})
        );
    }

    #[test]
    fn a_resource_version_set_to_null_or_empty_by_the_patch_does_not_drop_the_precondition() {
        // Regression: a patch that set metadata.resourceVersion to null or "" kept it, and
        // the dry run and the real patch were sent without any precondition.
        for unset in [json!(null), json!("")] {
            assert_eq!(
                with_precondition(
                    PatchType::Merge,
                    &json!({"metadata": {"resourceVersion": unset}, "data": {"a": "b"}}),
                    "42"
                ),
                json!({"metadata": {"resourceVersion": "42"}, "data": {"a": "b"}})
            );
        }
        // A JSON patch that blanks the resourceVersion and then tests the blank.
        let blank = json!([{"op": "replace", "path": "/metadata/resourceVersion", "value": ""},
                           {"op": "test", "path": "/metadata/resourceVersion", "value": ""}]);
        let pinned = with_precondition(PatchType::Json, &blank, "42");
        assert_eq!(
            pinned[0],
            json!({"op": "test", "path": "/metadata/resourceVersion", "value": "42"})
        );
    }

    #[test]
    fn the_policy_precondition_pins_the_resource_version_without_changing_the_change() {
        assert_eq!(
            with_precondition(PatchType::Merge, &json!({"data": {"a": "b"}}), "42"),
            json!({"data": {"a": "b"}, "metadata": {"resourceVersion": "42"}})
        );
        assert_eq!(
            with_precondition(
                PatchType::Strategic,
                &json!({"metadata": {"labels": {"x": "y"}, "resourceVersion": "7"}}),
                "42"
            ),
            json!({"metadata": {"labels": {"x": "y"}, "resourceVersion": "7"}}),
            "a resourceVersion the user set is kept"
        );
        assert_eq!(
            with_precondition(
                PatchType::Json,
                &json!([{"op": "replace", "path": "/data/a", "value": "c"}]),
                "42"
            ),
            json!([{"op": "test", "path": "/metadata/resourceVersion", "value": "42"},
                   {"op": "replace", "path": "/data/a", "value": "c"}])
        );
        let rollback = json!([{"op": "test", "path": "/metadata/resourceVersion", "value": "9"},
                              {"op": "replace", "path": "/data/a", "value": "c"}]);
        assert_eq!(
            with_precondition(PatchType::Json, &rollback, "42"),
            rollback
        );
    }

    #[test]
    fn a_policy_refusal_names_rule_path_and_message_and_never_a_value() {
        let rule = crate::config::PolicyRule {
            resource: "secrets".into(),
            namespaces: vec![],
            deny: vec!["/data/*".into()],
            allow: vec![],
            message: "vault\u{1b}[2J sync".into(),
        };
        let rules = vec![crate::policy::Compiled::new(0, &rule).unwrap()];
        let s = obj("", "secrets", "Secret");
        let before = json!({"data": {"pw": "c2VjcmV0LW9sZA=="}});
        let after = json!({"data": {"pw": "c2VjcmV0LW5ldw=="}});
        let e = policy_verdict(&rules, &s, "patch", &before, &after).unwrap_err();
        assert_eq!(e.exit_status(), crate::exit::ExitStatus::Denied);
        assert_eq!(
            e.to_string(),
            "denied by plugin.yaml policies[0] (secrets): the patch would change /data/pw of secret/web: vault\\u{1b}[2J sync (nothing was sent)"
        );
        assert_eq!(
            refusal_result(&e),
            "denied by field policy policies[0] (secrets): /data/pw"
        );
        assert!(policy_verdict(&rules, &s, "rollback", &before, &before).is_ok());
    }

    #[test]
    fn secret_values_a_patch_sends_are_masked_in_later_server_messages() {
        remember_patch_secrets(
            "Secret",
            &json!({"stringData": {"password": "merge-pw-81f2c"}, "metadata": {"name": "keep-this-name"}}),
        );
        remember_patch_secrets(
            "Secret",
            &json!([{"op": "add", "path": "/data/token", "value": "anNvbi1wYXRjaC10b2tlbg=="},
                    {"op": "add", "path": "/metadata/labels/team", "value": "visible-label"}]),
        );
        remember_patch_secrets("ConfigMap", &json!({"data": {"k": "configmap-value"}}));
        let msg = "Secret \"keep-this-name\" is invalid: merge-pw-81f2c json-patch-token visible-label configmap-value";
        assert_eq!(
            crate::redact::scrub(msg),
            "Secret \"keep-this-name\" is invalid: *** *** visible-label configmap-value"
        );
    }
}
