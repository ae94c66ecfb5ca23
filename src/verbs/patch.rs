//! `patch`: authorized, previewed, journaled.
//!
//! Order (issue 4, ARCHITECTURE §4, §7): plugin.yaml boundary → SelfSubjectAccessReview
//! for `patch` (with the subresource) → read the object (the before-state; a denied read is
//! journaled and the patch goes on without it) → send the patch (or compute it locally for
//! `--dry-run=client`) → print `<kind>.<group>/<name> patched` like kubectl. Every attempt —
//! success, failure, dry run, denial — is one change-log line. `rollback` reuses these steps.

use std::time::Instant;

use kube::Api;
use kube::api::{DynamicObject, Patch, PatchParams};
use serde_json::Value;

use crate::authz::{AccessRequest, Gate, GateError, check_boundary, check_verb};
use crate::changelog::{self, Entry, Operation};
use crate::cli::{DryRun, ObjectFormat, PatchArgs, PatchType};
use crate::cluster::{ApiError, Cluster, ResolvedType, TypeIndex, connect};
use crate::config::Verb;
use crate::crds::Registry;
use crate::output::{Printer, to_json, to_yaml};
use crate::settings::Settings;
use crate::verbs::VerbError;
use crate::verbs::get::{parse_target, with_type_meta};

/// Parses a patch written as JSON or YAML (pure). A JSON patch must be a list of RFC 6902
/// operations; merge and strategic patches must be objects.
///
/// # Errors
/// [`VerbError::Usage`] with `origin:line:column` for text that is neither JSON nor YAML,
/// or a body of the wrong shape for `patch_type`.
pub fn parse_patch(text: &str, origin: &str, patch_type: PatchType) -> Result<Value, VerbError> {
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(json_err) => match serde_saphyr::from_str::<Value>(text) {
            Ok(v) if !text.trim_start().starts_with(['{', '[']) => v,
            Ok(_) | Err(_) => {
                // Text that looks like JSON gets the JSON parser's location; anything else YAML's.
                let (line, column, msg) = if text.trim_start().starts_with(['{', '[']) {
                    (json_err.line() as u64, json_err.column() as u64, json_err.to_string())
                } else {
                    let e = serde_saphyr::from_str::<Value>(text).err();
                    let loc = e.as_ref().and_then(|e| e.location()).map(|l| (l.line(), l.column())).unwrap_or((1, 1));
                    (loc.0, loc.1, e.map(|e| e.to_string().lines().next().unwrap_or("").to_string()).unwrap_or_default())
                };
                return Err(VerbError::Usage(format!("{origin}:{line}:{column}: the patch is neither valid JSON nor YAML: {msg}")));
            }
        },
    };
    match (patch_type, &value) {
        (PatchType::Json, Value::Array(_)) => {
            serde_json::from_value::<json_patch::Patch>(value.clone()).map_err(|e| {
                VerbError::Usage(format!("{origin}: not a JSON patch (RFC 6902): {e}; write a list of {{\"op\", \"path\", \"value\"}} operations"))
            })?;
        }
        (PatchType::Json, _) => {
            return Err(VerbError::Usage(format!("{origin}: a JSON patch (--type json) is a list of operations, e.g. [{{\"op\":\"replace\",\"path\":\"/spec/replicas\",\"value\":3}}]")));
        }
        (_, Value::Object(_)) => {}
        _ => return Err(VerbError::Usage(format!("{origin}: a merge or strategic patch is an object, e.g. {{\"spec\":{{\"replicas\":3}}}}"))),
    }
    Ok(value)
}

/// `kubectl patch`'s wire name of a patch type.
pub fn type_name(t: PatchType) -> &'static str {
    match t {
        PatchType::Strategic => "strategic",
        PatchType::Merge => "merge",
        PatchType::Json => "json",
    }
}

/// One object a mutation acts on, resolved and connected.
pub struct Target {
    /// The connection.
    pub cluster: Cluster,
    /// Its resource type.
    pub t: ResolvedType,
    /// Its namespace (`None` when cluster-scoped).
    pub namespace: Option<String>,
    /// Its name.
    pub name: String,
}

impl Target {
    /// The dynamic API for the object's type and namespace.
    pub fn api(&self) -> Api<DynamicObject> {
        match &self.namespace {
            Some(ns) => Api::namespaced_with(self.cluster.client.clone(), ns, &self.t.api),
            None => Api::all_with(self.cluster.client.clone(), &self.t.api),
        }
    }

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

    /// A change-log entry for an attempt on this object (pure apart from the clock).
    #[allow(clippy::too_many_arguments)]
    pub fn entry(
        &self,
        s: &Settings,
        user: &str,
        operation: Operation,
        patch_type: &str,
        patch: &Value,
        dry_run: bool,
        before: Option<&Value>,
        after: Option<&Value>,
        result: String,
        started: Instant,
    ) -> Entry {
        let kind = self.t.api.kind.clone();
        Entry {
            id: changelog::new_id(),
            timestamp: changelog::now_rfc3339(),
            plugin: s.plugin.name.clone(),
            user: user.into(),
            context: self.cluster.context.clone(),
            server: self.cluster.server.clone(),
            api_version: self.t.api.api_version.clone(),
            kind: kind.clone(),
            namespace: self.namespace.clone(),
            name: self.name.clone(),
            uid: before.or(after).and_then(|o| o.pointer("/metadata/uid")).and_then(Value::as_str).map(str::to_string),
            operation,
            patch_type: Some(patch_type.into()),
            patch: Some(changelog::redact_patch(&kind, patch.clone())),
            dry_run,
            before: before.cloned().map(|b| changelog::redact(with_kind(b, &kind))),
            resource_version_after: after.and_then(|o| o.pointer("/metadata/resourceVersion")).and_then(Value::as_str).map(str::to_string),
            result,
            duration_seconds: started.elapsed().as_secs_f64(),
        }
    }
}

fn with_kind(mut v: Value, kind: &str) -> Value {
    if let Some(o) = v.as_object_mut() {
        o.entry("kind").or_insert_with(|| Value::String(kind.into()));
    }
    v
}

/// Connects, resolves TYPE and checks the plugin.yaml boundary for `patch` (no request for
/// the object yet).
///
/// # Errors
/// Usage (2) for unknown TYPE, denied (3) outside the boundary, connection errors.
pub async fn resolve(s: &Settings, type_name: &str, name: &str, resource_label: &mut Option<String>) -> Result<Target, VerbError> {
    check_verb(&s.plugin, Verb::Patch)?;
    let cluster = connect(&s.kube).await?;
    let index = TypeIndex::fetch(&cluster.client).await.map_err(|e| ApiError::from_kube(e, &cluster.server))?;
    let t = index.resolve(type_name)?.clone();
    *resource_label = Some(t.group_resource());
    let registered = Registry::load(&s.home).map(|r| r.names()).unwrap_or_default();
    check_boundary(&s.plugin, &registered, Verb::Patch, &t, false)?;
    let namespace = t.namespaced.then(|| cluster.namespace.clone());
    Ok(Target { cluster, t, namespace, name: name.to_string() })
}

/// Reads the before-state. `Ok(None)` when reading is forbidden (the patch goes on without
/// it, as the issue asks); a missing object is [`ApiError`] 404.
///
/// # Errors
/// The API error of the read, except 403.
pub async fn read_before(target: &Target) -> Result<Option<Value>, ApiError> {
    match target.api().get(&target.name).await {
        Ok(o) => Ok(serde_json::to_value(o).ok()),
        Err(e) => match ApiError::from_kube(e, &target.cluster.server) {
            ApiError::Server { code: 403, .. } => Ok(None),
            other => Err(other),
        },
    }
}

/// Sends a patch (or, for `--dry-run=client`, computes it locally from `before`) and
/// returns the object after it.
///
/// # Errors
/// [`VerbError::Usage`] for a patch the server or the local computation rejects, and the
/// API errors with their exit codes (a strategic merge on a custom resource is turned into
/// the advice to use `--type merge`).
pub async fn send(
    target: &Target,
    patch_type: PatchType,
    body: &Value,
    dry_run: DryRun,
    subresource: Option<&str>,
    field_manager: &str,
    before: Option<&Value>,
) -> Result<Value, VerbError> {
    if dry_run == DryRun::Client {
        let mut doc = before.cloned().ok_or_else(|| VerbError::Usage("--dry-run=client needs to read the object first, and reading it is forbidden; use --dry-run=server".into()))?;
        match patch_type {
            PatchType::Merge => json_patch::merge(&mut doc, body),
            PatchType::Json => {
                let ops: json_patch::Patch = serde_json::from_value(body.clone()).map_err(|e| VerbError::Usage(e.to_string()))?;
                json_patch::patch(&mut doc, &ops).map_err(|e| VerbError::Usage(format!("the JSON patch does not apply: {e}")))?;
            }
            PatchType::Strategic => {
                return Err(VerbError::Usage("a strategic merge patch needs the server's schema; use --dry-run=server (or --type merge)".into()));
            }
        }
        return Ok(doc);
    }
    let mut pp = PatchParams { field_manager: Some(field_manager.to_string()), ..Default::default() };
    pp.dry_run = dry_run == DryRun::Server;
    let api = target.api();
    let result = match (patch_type, subresource) {
        (PatchType::Json, sub) => {
            let ops: json_patch::Patch = serde_json::from_value(body.clone()).map_err(|e| VerbError::Usage(e.to_string()))?;
            let p = Patch::<()>::Json(ops);
            match sub {
                Some(sr) => api.patch_subresource(sr, &target.name, &pp, &p).await,
                None => api.patch(&target.name, &pp, &p).await,
            }
        }
        (pt, sub) => {
            let p = if pt == PatchType::Merge { Patch::Merge(body) } else { Patch::Strategic(body) };
            match sub {
                Some(sr) => api.patch_subresource(sr, &target.name, &pp, &p).await,
                None => api.patch(&target.name, &pp, &p).await,
            }
        }
    };
    match result {
        Ok(o) => Ok(serde_json::to_value(o).unwrap_or(Value::Null)),
        Err(e) => match ApiError::from_kube(e, &target.cluster.server) {
            ApiError::Server { code: 415, .. } if patch_type == PatchType::Strategic => Err(VerbError::Usage(format!(
                "{} does not support strategic merge patch (custom resources have no patch strategy); use --type merge or --type json",
                target.t.group_resource()
            ))),
            // The server says only "rejected … due to an error in our request" for a failed JSON
            // patch; applying it to the before-state locally names the operation that failed.
            ApiError::Server { code: 422, message, .. } if patch_type == PatchType::Json => {
                let local = before.zip(serde_json::from_value::<json_patch::Patch>(body.clone()).ok()).and_then(|(b, ops)| {
                    let mut doc = b.clone();
                    json_patch::patch(&mut doc, &ops).err()
                });
                Err(VerbError::Usage(match local {
                    Some(e) => format!("the JSON patch does not apply to {}: {e}", target.display()),
                    None => format!("the server rejected the JSON patch for {}: {message}", target.display()),
                }))
            }
            other => Err(other.into()),
        },
    }
}

/// The one-line result, as kubectl prints it.
pub fn result_line(display: &str, verb: &str, changed: bool, dry_run: DryRun) -> String {
    let mut line = format!("{display} {verb}");
    if !changed {
        line.push_str(" (no change)");
    }
    match dry_run {
        DryRun::None => {}
        DryRun::Server => line.push_str(" (server dry run)"),
        DryRun::Client => line.push_str(" (dry run)"),
    }
    line
}

/// Prints the result: the object (`-o`) or the result line, then the field diff when asked.
pub fn print_result(
    p: &mut Printer<'_>,
    target: &Target,
    verb: &str,
    before: Option<&Value>,
    after: &Value,
    dry_run: DryRun,
    diff: bool,
    output: Option<ObjectFormat>,
) -> Result<(), VerbError> {
    let rv = |o: Option<&Value>| o.and_then(|o| o.pointer("/metadata/resourceVersion")).cloned();
    let changed = match before {
        Some(b) => !crate::diff::operations(b, after).is_empty() || (dry_run == DryRun::None && rv(Some(b)) != rv(Some(after))),
        None => true,
    };
    match output {
        Some(ObjectFormat::Json) => p.out(&to_json(&with_type_meta(after.clone(), &target.t))?)?,
        Some(ObjectFormat::Yaml) => p.out(&to_yaml(&with_type_meta(after.clone(), &target.t))?)?,
        Some(ObjectFormat::Name) => p.out(&format!("{}\n", target.display()))?,
        None => p.out(&format!("{}\n", result_line(&target.display(), verb, changed, dry_run)))?,
    }
    if (diff || dry_run != DryRun::None)
        && let Some(b) = before
    {
        let kind = target.t.api.kind.as_str();
        let (b, a) = (changelog::redact(with_kind(b.clone(), kind)), changelog::redact(with_kind(after.clone(), kind)));
        for line in crate::diff::render(&b, &a) {
            p.out(&format!("  {line}\n"))?;
        }
    }
    Ok(())
}

/// Runs `patch`.
///
/// # Errors
/// [`VerbError`]: usage (2: bad patch, strategic merge on a custom resource, a failed JSON
/// patch test), denied (3), not found (4), conflict (5), failures (1).
pub async fn run(s: &Settings, args: &PatchArgs, p: &mut Printer<'_>, resource_label: &mut Option<String>) -> Result<(), VerbError> {
    let started = Instant::now();
    let target = parse_target(&args.args).map_err(VerbError::Usage)?;
    let [name] = target.names.as_slice() else {
        return Err(VerbError::Usage("patch needs exactly one object: TYPE NAME or TYPE/NAME".into()));
    };
    let (text, origin) = match (&args.patch, &args.patch_file) {
        (Some(t), None) => (t.clone(), "--patch".to_string()),
        (None, Some(f)) => (
            std::fs::read_to_string(f).map_err(|e| VerbError::Usage(format!("cannot read --patch-file {}: {e}", f.display())))?,
            f.display().to_string(),
        ),
        _ => return Err(VerbError::Usage("give the patch with -p/--patch or --patch-file (one of them)".into())),
    };
    if let Some(sr) = &args.subresource
        && !matches!(sr.as_str(), "status" | "scale")
    {
        return Err(VerbError::Usage(format!("--subresource {sr:?}: patch supports status and scale")));
    }
    let body = parse_patch(&text, &origin, args.patch_type)?;
    let obj = resolve(s, &target.type_name, name, resource_label).await?;
    let gate = Gate::new(&obj.cluster);
    let user = gate.whoami().await;
    let journal = |before: Option<&Value>, after: Option<&Value>, result: String| {
        let e = obj.entry(s, &user, Operation::Patch, type_name(args.patch_type), &body, args.dry_run != DryRun::None, before, after, result, started);
        changelog::append(&s.home, &e).map_err(|e| VerbError::Io(e.to_string()))
    };
    if let Err(e) = gate.check(&obj.access("patch", args.subresource.as_deref())).await {
        let result = if matches!(e, GateError::Denied { .. }) { "denied".to_string() } else { e.to_string() };
        journal(None, None, result)?;
        return Err(e.into());
    }
    let before = match read_before(&obj).await {
        Ok(b) => b,
        Err(e) => {
            journal(None, None, e.to_string())?;
            return Err(e.into());
        }
    };
    match send(&obj, args.patch_type, &body, args.dry_run, args.subresource.as_deref(), &args.field_manager, before.as_ref()).await {
        Ok(after) => {
            journal(before.as_ref(), Some(&after), "success".into())?;
            print_result(p, &obj, "patched", before.as_ref(), &after, args.dry_run, args.diff, args.output)
        }
        Err(e) => {
            journal(before.as_ref(), None, e.to_string())?;
            Err(e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patches_parse_from_json_or_yaml_and_bad_text_has_a_location() {
        assert_eq!(parse_patch(r#"{"spec":{"replicas":3}}"#, "-p", PatchType::Merge).unwrap()["spec"]["replicas"], 3);
        assert_eq!(parse_patch("spec:\n  replicas: 3\n", "-p", PatchType::Strategic).unwrap()["spec"]["replicas"], 3);
        let e = parse_patch("{\"spec\": {\"replicas\": }}", "-p", PatchType::Merge).unwrap_err().to_string();
        assert!(e.starts_with("-p:1:23: the patch is neither valid JSON nor YAML"), "{e}");
        let e = parse_patch("spec:\n  replicas: [3\n", "p.yaml", PatchType::Merge).unwrap_err().to_string();
        assert!(e.starts_with("p.yaml:"), "{e}");
        let e = parse_patch(r#"{"spec":{}}"#, "-p", PatchType::Json).unwrap_err().to_string();
        assert!(e.contains("a JSON patch (--type json) is a list"), "{e}");
        let e = parse_patch(r#"[{"op":"frobnicate","path":"/a"}]"#, "-p", PatchType::Json).unwrap_err().to_string();
        assert!(e.contains("not a JSON patch"), "{e}");
        let e = parse_patch("[1, 2]", "-p", PatchType::Merge).unwrap_err().to_string();
        assert!(e.contains("is an object"), "{e}");
    }

    #[test]
    fn result_lines_match_kubectl() {
        assert_eq!(result_line("deployment.apps/web", "patched", true, DryRun::None), "deployment.apps/web patched");
        assert_eq!(result_line("pod/a", "patched", false, DryRun::None), "pod/a patched (no change)");
        assert_eq!(result_line("pod/a", "patched", true, DryRun::Server), "pod/a patched (server dry run)");
    }
}
