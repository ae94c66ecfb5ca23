//! [`Session::patch`]: a patch sent through the guarded path — the reconciler check, the
//! field policies of plugin.yaml (judged on a server-side dry run of the same patch, both
//! pinned to the before-state's resourceVersion), `--dry-run=client` computed locally, the
//! request built from the grant, journaled write-ahead with its after-state.

use kube::Api;
use kube::api::{DynamicObject, Patch, PatchParams};
use serde_json::Value;

use super::{ObjectRef, PatchRequest, Patched, ReconcilerPolicy, outcome_text};
use crate::changelog::{self, Entry};
use crate::cli::{DryRun, PatchType};
use crate::cluster::ApiError;
use crate::guard::GuardError;
use crate::guard::change::{Change, Params, Request};
use crate::guard::session::{Grant, Session};

impl Session<'_> {
    /// Sends a patch, journaled write-ahead (or, for `--dry-run=client`, computes it locally
    /// from `before` and journals that), and returns the object after it. `before` is the
    /// live object just read: a reconciler it names is handled by `req.reconciler`
    /// ([`ReconcilerPolicy`]) and journaled; the outcome record carries the after-state. The
    /// request is built only from a `grant` that covers it.
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
        let caused = self.with_change_cause(&req.as_change(), &obj.t.api.kind);
        let caused_req;
        let req = match &caused {
            Some(Change::Patch { body, .. }) => {
                caused_req = PatchRequest {
                    body,
                    ..req.clone()
                };
                &caused_req
            }
            _ => req,
        };
        let reconciler = before.and_then(crate::rules::reconciler::detect);
        if let Some(owner) = &reconciler
            && req.reconciler == ReconcilerPolicy::Refuse
        {
            return Err(GuardError::Reconciled {
                object: obj.display(),
                owner: owner.clone(),
            });
        }
        let rules = crate::rules::policy::matching(
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
        if req.dry_run == DryRun::Client {
            return self
                .patch_locally(obj, req, before, &rules, intent)
                .await
                .map(|after| Patched { after, reconciler });
        }
        let api = self.api_for(grant, obj, &req.as_change())?;
        // Under a field policy, the dry run and the real patch both carry the before-state's
        // resourceVersion as a precondition: both apply to the object that was read, so the
        // change judged is the change made (a write in between is a 409, exit 5).
        let rv = before
            .and_then(|b| b.pointer("/metadata/resourceVersion"))
            .and_then(Value::as_str);
        let body = match rv.filter(|_| !rules.is_empty()) {
            Some(rv) => with_precondition(req.patch_type, req.body, rv),
            None => req.body.clone(),
        };
        let sent = Change::Patch {
            patch_type: req.patch_type,
            body,
            subresource: req.subresource.map(str::to_string),
        };
        let (Request::Patch { patch, .. }, Params::Patch(pp)) = sent
            .request(req.field_manager, req.dry_run == DryRun::Server)
            .map_err(GuardError::Usage)?
        else {
            return Err(GuardError::Usage("internal: a patch builds a PATCH".into()));
        };
        // Field policies: with a rule on this object, the same patch is sent as a server-side
        // dry run first, and the change it shows is judged before anything is sent for real.
        // Without a rule, no extra request. For `--dry-run=server` the dry run's answer is the
        // answer: it is not asked twice.
        let answered = match rules.first() {
            Some(_) => {
                let sending = Sending {
                    api: &api,
                    obj,
                    req,
                    pp: &pp,
                    patch: &patch,
                };
                self.policy_dry_run(&sending, before, &rules, &intent)
                    .await?
                    .filter(|_| pp.dry_run)
            }
            None => None,
        };
        let send = async {
            match answered {
                Some(o) => Ok(o),
                None => send_patch(&api, obj, req.subresource, &pp, &patch).await,
            }
        };
        let subresource = req.subresource;
        let dry_params = PatchParams {
            dry_run: true,
            ..pp.clone()
        };
        let dry_run = async {
            let answer = send_patch(&api, obj, subresource, &dry_params, &patch).await?;
            Ok(match before {
                Some(b) => would_store(obj, b, subresource, &answer)
                    .unwrap_or_else(|_| serde_json::to_value(&answer).unwrap_or_default()),
                None => serde_json::to_value(&answer).unwrap_or_default(),
            })
        };
        let intent = self.admit(intent, before, dry_run).await?;
        match self
            .journaled_with(intent, "the patch", send, |o: &DynamicObject| {
                (
                    o.metadata.resource_version.clone(),
                    recorded_after(obj, subresource, before, o),
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

    /// `--dry-run=client`: the patch applied to `before` locally, judged by the field
    /// policies as the server's dry run is, and journaled as one complete record.
    async fn patch_locally(
        &self,
        obj: &ObjectRef,
        req: &PatchRequest<'_>,
        before: Option<&Value>,
        rules: &[crate::rules::policy::Compiled],
        mut intent: Entry,
    ) -> Result<Value, GuardError> {
        let after = client_side(obj, req, before);
        if let (Ok(a), Some(b)) = (&after, before)
            && let Err(refusal) = policy_verdict(rules, obj, req.change(), b, a)
        {
            self.journal_complete(intent, refusal_result(&refusal))
                .await?;
            return Err(refusal);
        }
        let result = match &after {
            Ok(_) => "success".to_string(),
            Err(e) => e.to_string(),
        };
        intent.after = after
            .as_ref()
            .ok()
            .map(|a| changelog::redact_after(&obj.t.api.kind, before, a.clone()));
        self.journal_complete(intent, result).await?;
        after
    }

    /// The server-side dry run field policies need, judged: the dry run's answer when every
    /// rule allows the change it shows (`None` never: a refusal is an error), journaled as
    /// one complete record when refused or rejected.
    async fn policy_dry_run(
        &self,
        s: &Sending<'_>,
        before: Option<&Value>,
        rules: &[crate::rules::policy::Compiled],
        intent: &Entry,
    ) -> Result<Option<DynamicObject>, GuardError> {
        let Some(first) = rules.first() else {
            return Ok(None);
        };
        let (obj, req) = (s.obj, s.req);
        let refuse = async |e: GuardError| {
            self.journal_complete(intent.clone(), refusal_result(&e))
                .await?;
            Err(e)
        };
        let Some(b) = before else {
            return refuse(GuardError::PolicyUnchecked {
                change: req.change(),
                object: obj.display(),
                rule: first.name(),
                why: "reading the object is forbidden, so there is no before-state to compare the server's dry run with; ask a cluster admin for get on it".into(),
            })
            .await;
        };
        let dry = PatchParams {
            dry_run: true,
            ..s.pp.clone()
        };
        let answer = match self
            .call(
                "the server-side dry run for field policies",
                send_patch(s.api, obj, req.subresource, &dry, s.patch),
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
                self.journal_complete(intent.clone(), result).await?;
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
                })
                .await;
            }
        };
        if let Err(e) = policy_verdict(rules, obj, req.change(), b, &after) {
            return refuse(e).await;
        }
        Ok(Some(answer))
    }
}

/// What one patch request is sent with: the client built from the grant, the object, the
/// request, its parameters and its body.
struct Sending<'a> {
    api: &'a Api<DynamicObject>,
    obj: &'a ObjectRef,
    req: &'a PatchRequest<'a>,
    pp: &'a PatchParams,
    patch: &'a Patch<&'a Value>,
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
    rules: &[crate::rules::policy::Compiled],
    obj: &ObjectRef,
    change: &'static str,
    before: &Value,
    after: &Value,
) -> Result<(), GuardError> {
    let changed: Vec<String> = crate::rules::diff::operations(before, after)
        .iter()
        .map(|op| crate::rules::diff::path_of(op).to_string())
        .collect();
    match crate::rules::policy::denied_changes(rules, &changed, before, after) {
        None => Ok(()),
        Some(v) => Err(GuardError::Policy {
            change,
            object: obj.display(),
            rule: format!("policies[{}] ({})", v.index, v.resource),
            paths: crate::base::echo::capped(&v.paths_text(), 400),
            message: crate::base::echo::capped(&v.message, 400),
        }),
    }
}

/// The journal's `result` for a field-policy refusal: `denied by field policy
/// policies[0] (secrets): /data/password` — the rule and the paths, never values.
pub(super) fn refusal_result(e: &GuardError) -> String {
    match e {
        GuardError::Policy { rule, paths, .. } => format!("denied by field policy {rule}: {paths}"),
        GuardError::PolicyUnchecked { rule, why, .. } => {
            format!("denied by field policy {rule}: cannot be checked: {why}")
        }
        other => other.to_string(),
    }
}

/// Registers the Secret values a patch body carries with [`crate::base::redact::remember`] (the
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
            Value::String(s) => crate::base::redact::remember(s),
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
/// diffing that against the object's before-state would be nonsense ([`recorded_after`]
/// builds the stored object for the built-in scalable types; for others `changelog diff`
/// reads the object).
pub fn after_state(kind: &str, before: Option<&Value>, answer: &DynamicObject) -> Option<Value> {
    if answer.types.as_ref().is_some_and(|t| t.kind != kind) {
        return None;
    }
    serde_json::to_value(answer)
        .ok()
        .map(|a| changelog::redact_after(kind, before, a))
}

/// The after-state an outcome record keeps (pure): [`after_state`], except for a patch of
/// the `scale` subresource of a built-in scalable type, whose answer is a Scale: then the
/// object as the server stored it ([`would_store`]: the before-state with the new
/// `spec.replicas` and the Scale's resourceVersion), so `rollback` can tell a controller's
/// later status write (which leaves `spec.replicas` as the scale left it) from a change of
/// the replicas.
pub fn recorded_after(
    obj: &ObjectRef,
    subresource: Option<&str>,
    before: Option<&Value>,
    answer: &DynamicObject,
) -> Option<Value> {
    let kind = obj.t.api.kind.as_str();
    match (subresource, before) {
        (Some("scale"), Some(b)) => {
            let mut after = would_store(obj, b, subresource, answer).ok()?;
            if let (Some(rv), Some(meta)) = (
                &answer.metadata.resource_version,
                after.get_mut("metadata").and_then(Value::as_object_mut),
            ) {
                meta.insert("resourceVersion".into(), Value::String(rv.clone()));
            }
            Some(changelog::redact_after(kind, before, after))
        }
        _ => after_state(kind, before, answer),
    }
}

/// `--dry-run=client`: the patch applied locally to the before-state (pure). A strategic
/// merge patch is refused as the server refuses it: of a type outside the built-in API groups
/// (a custom resource, an aggregated API) with the server's verdict, that it has no strategic
/// merge ([`no_strategic_merge`]; kubectl's client dry run refuses it too, "not supported …
/// locally": its scheme holds only the built-in types, kubernetes/kubernetes#97423); of a
/// built-in type, as one that needs the server's schema.
fn client_side(
    obj: &ObjectRef,
    req: &PatchRequest<'_>,
    before: Option<&Value>,
) -> Result<Value, GuardError> {
    if req.patch_type == PatchType::Strategic && !builtin_api_group(&obj.t.api.group) {
        return Err(no_strategic_merge(obj));
    }
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

/// The API groups the API server itself serves with Go types, and so with strategic merge
/// patch: the `GroupName`s of k8s.io/api v0.36.3 (`*/register.go`), plus
/// `apiextensions.k8s.io` and `apiregistration.k8s.io` (served by the same process). Any other
/// group is a custom resource's or an aggregated API's, which answer a strategic merge patch
/// with 415 (the apiserver's `patch.go`: CRDs accept JSON, merge and apply patches only).
pub fn builtin_api_group(group: &str) -> bool {
    const GROUPS: &[&str] = &[
        "",
        "admissionregistration.k8s.io",
        "apiextensions.k8s.io",
        "apiregistration.k8s.io",
        "apps",
        "authentication.k8s.io",
        "authorization.k8s.io",
        "autoscaling",
        "batch",
        "certificates.k8s.io",
        "coordination.k8s.io",
        "discovery.k8s.io",
        "events.k8s.io",
        "extensions",
        "flowcontrol.apiserver.k8s.io",
        "internal.apiserver.k8s.io",
        "networking.k8s.io",
        "node.k8s.io",
        "policy",
        "rbac.authorization.k8s.io",
        "resource.k8s.io",
        "scheduling.k8s.io",
        "storage.k8s.io",
        "storagemigration.k8s.io",
    ];
    GROUPS.contains(&group)
}

/// The one verdict on a strategic merge patch of a type that has none, for the server's 415
/// and for `--dry-run=client` alike.
fn no_strategic_merge(obj: &ObjectRef) -> GuardError {
    GuardError::Usage(format!(
        "{} does not support strategic merge patch (custom resources have no patch strategy); use --type merge or --type json",
        obj.t.group_resource()
    ))
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
            no_strategic_merge(obj)
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
