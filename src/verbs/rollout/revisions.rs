//! The revisions of a rollout and what undo sends (pure), as kubectl computes them
//! (`k8s.io/kubectl/pkg/polymorphichelpers/rollback.go`, `history.go`, `objectrestarter.go`):
//! a Deployment's revisions are its ReplicaSets (annotation `deployment.kubernetes.io/revision`,
//! controlled by the Deployment's uid), a StatefulSet's or DaemonSet's its ControllerRevisions
//! (`.revision`, controlled by its uid), each found with the workload's label selector.

use serde_json::{Map, Value, json};

use crate::cli::PatchType;
use crate::cluster::ResolvedType;

/// The annotation a restart sets on the pod template (kubectl's `objectrestarter.go`).
pub const RESTARTED_AT: &str = "kubectl.kubernetes.io/restartedAt";

/// A ReplicaSet's revision (`k8s.io/kubectl/pkg/util/deployment`, `RevisionAnnotation`).
pub const REVISION: &str = "deployment.kubernetes.io/revision";

/// The label a Deployment's ReplicaSets carry and its template does not
/// (`appsv1.DefaultDeploymentUniqueLabelKey`).
pub const HASH_LABEL: &str = "pod-template-hash";

/// The change-cause annotation `history` prints (`ChangeCauseAnnotation`).
pub const CHANGE_CAUSE: &str = "kubernetes.io/change-cause";

/// The Deployment annotations an undo keeps from the Deployment rather than copying them from
/// the ReplicaSet (`rollback.go`, `annotationsToSkip`).
pub const ANNOTATIONS_TO_SKIP: &[&str] = &[
    "kubectl.kubernetes.io/last-applied-configuration",
    REVISION,
    "deployment.kubernetes.io/revision-history",
    "deployment.kubernetes.io/desired-replicas",
    "deployment.kubernetes.io/max-replicas",
    "deprecated.deployment.rollback.to",
];

/// The kinds that have a rollout (kubectl's `validArgs` of every `rollout` subcommand).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Workload {
    /// `deployments.apps`: revisions are ReplicaSets.
    Deployment,
    /// `statefulsets.apps`: revisions are ControllerRevisions.
    StatefulSet,
    /// `daemonsets.apps`: revisions are ControllerRevisions.
    DaemonSet,
}

impl Workload {
    /// The workload of type `t`, `None` for any other type (not rollout-able).
    pub fn of(t: &ResolvedType) -> Option<Workload> {
        if t.api.group != "apps" {
            return None;
        }
        match t.api.kind.as_str() {
            "Deployment" => Some(Workload::Deployment),
            "StatefulSet" => Some(Workload::StatefulSet),
            "DaemonSet" => Some(Workload::DaemonSet),
            _ => None,
        }
    }

    /// The resource its revisions are kept in (`replicasets.apps` or
    /// `controllerrevisions.apps`), as TYPE.
    pub fn history_type(self) -> &'static str {
        match self {
            Workload::Deployment => "replicasets.apps",
            Workload::StatefulSet | Workload::DaemonSet => "controllerrevisions.apps",
        }
    }
}

/// `GroupKind.String()` of kubectl's messages: `Kind` for the core group, `Kind.group`.
pub fn group_kind(t: &ResolvedType) -> String {
    if t.api.group.is_empty() {
        t.api.kind.clone()
    } else {
        format!("{}.{}", t.api.kind, t.api.group)
    }
}

/// kubectl's refusal of `rollout undo` (`what` = `rollbacker`, `retrieving` = `rollbacker`) or
/// `rollout history` (`history viewer`, `history`) for a type without a rollout (pure): the
/// kinds kubectl's `apps.GroupKindElement.Accept` knows (Pods, ReplicationControllers,
/// ReplicaSets, Jobs, CronJobs) have no implementation; any other kind has no visitor.
pub fn no_implementation(t: &ResolvedType, what: &str, retrieving: &str) -> String {
    let (g, k) = (t.api.group.as_str(), t.api.kind.as_str());
    let visited = matches!(
        (g, k),
        ("", "Pod" | "ReplicationController")
            | ("apps" | "extensions", "ReplicaSet")
            | ("batch", "Job" | "CronJob")
    );
    if visited {
        format!("no {what} has been implemented for {:?}", group_kind(t))
    } else {
        format!(
            "error retrieving {retrieving} for {:?}, no visitor method exists for {{{g} {k}}}",
            group_kind(t)
        )
    }
}

/// The time now as Go's `time.Now().Format(time.RFC3339)` writes it: local time to the
/// second, `Z` for UTC, else the offset `+01:00`.
pub fn now_rfc3339() -> String {
    let now = jiff::Zoned::now();
    if now.offset().seconds() == 0 {
        now.strftime("%Y-%m-%dT%H:%M:%SZ").to_string()
    } else {
        now.strftime("%Y-%m-%dT%H:%M:%S%:z").to_string()
    }
}

/// The strategic merge patch of a restart at time `at` (what kubectl's `CalculatePatches`
/// computes from `objectrestarter.go`'s change).
pub fn restart_patch(at: &str) -> Value {
    json!({"spec": {"template": {"metadata": {"annotations": {RESTARTED_AT: at}}}}})
}

/// Why a restart of `object` is refused before it is sent (pure), in kubectl's words: a
/// paused Deployment, or a restart already made in this second (the patch would be empty).
pub fn restart_refusal(w: Workload, object: &Value, at: &str) -> Option<String> {
    if w == Workload::Deployment && object.pointer("/spec/paused") == Some(&Value::Bool(true)) {
        return Some("can't restart paused deployment (run rollout resume first)".into());
    }
    let path = format!(
        "/spec/template/metadata/annotations/{}",
        RESTARTED_AT.replace('/', "~1")
    );
    (object.pointer(&path).and_then(Value::as_str) == Some(at)).then(|| {
        "if restart has already been triggered within the past second, please wait before attempting to trigger another".into()
    })
}

/// One revision: its number and the object that keeps it (a ReplicaSet or a
/// ControllerRevision).
#[derive(Debug, Clone, PartialEq)]
pub struct Revision {
    /// The revision number.
    pub number: i64,
    /// The ReplicaSet or ControllerRevision.
    pub object: Value,
}

/// The label selector of a workload as `metav1.LabelSelectorAsSelector(...).String()` writes
/// it (pure): `matchLabels` as `k=v`, `matchExpressions` as `k in (a,b)`, `k notin (a,b)`,
/// `k`, `!k`, sorted by key as `labels.Requirements` sort.
pub fn selector_string(workload: &Value) -> String {
    let mut reqs: Vec<(String, String)> = Vec::new();
    let sel = workload.pointer("/spec/selector");
    if let Some(m) = sel
        .and_then(|s| s.get("matchLabels"))
        .and_then(Value::as_object)
    {
        for (k, v) in m {
            reqs.push((k.clone(), format!("{k}={}", v.as_str().unwrap_or(""))));
        }
    }
    for e in sel
        .and_then(|s| s.get("matchExpressions"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let key = e.get("key").and_then(Value::as_str).unwrap_or("");
        let mut values: Vec<&str> = e
            .get("values")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        values.sort_unstable();
        let text = match e.get("operator").and_then(Value::as_str).unwrap_or("") {
            "In" => format!("{key} in ({})", values.join(",")),
            "NotIn" => format!("{key} notin ({})", values.join(",")),
            "Exists" => key.to_string(),
            _ => format!("!{key}"),
        };
        reqs.push((key.to_string(), text));
    }
    reqs.sort_by(|a, b| a.0.cmp(&b.0));
    reqs.into_iter()
        .map(|(_, t)| t)
        .collect::<Vec<_>>()
        .join(",")
}

/// Whether `item`'s controller owner reference names the object of `uid`
/// (`metav1.IsControlledBy`).
fn controlled_by(item: &Value, uid: &str) -> bool {
    item.pointer("/metadata/ownerReferences")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .any(|r| r.get("controller") == Some(&Value::Bool(true)) && r["uid"].as_str() == Some(uid))
}

/// The revisions among `items` (ReplicaSets or ControllerRevisions, listed with the
/// workload's selector) that `workload` controls, each with its number (pure). A ReplicaSet
/// without the revision annotation is revision 0 and one whose annotation is not a number is
/// left out, as `deploymentutil.Revision` reads them.
pub fn owned_revisions(w: Workload, workload: &Value, items: Vec<Value>) -> Vec<Revision> {
    let uid = workload
        .pointer("/metadata/uid")
        .and_then(Value::as_str)
        .unwrap_or("");
    items
        .into_iter()
        .filter(|i| !uid.is_empty() && controlled_by(i, uid))
        .filter_map(|object| {
            let number = match w {
                Workload::Deployment => match object
                    .pointer("/metadata/annotations")
                    .and_then(|a| a.get(REVISION))
                    .and_then(Value::as_str)
                {
                    None => 0,
                    Some(v) => v.parse().ok()?,
                },
                Workload::StatefulSet | Workload::DaemonSet => object.get("revision")?.as_i64()?,
            };
            Some(Revision { number, object })
        })
        .collect()
}

/// The pod template a revision holds (pure): a ReplicaSet's `spec.template`, or the template
/// of a ControllerRevision's patch (`data.spec.template` without `$patch`), which is what
/// kubectl's `applyDaemonSetHistory` / `applyStatefulSetHistory` leave in the object.
pub fn template_of(w: Workload, r: &Revision) -> Value {
    let mut t = match w {
        Workload::Deployment => r.object.pointer("/spec/template").cloned(),
        Workload::StatefulSet | Workload::DaemonSet => {
            r.object.pointer("/data/spec/template").cloned()
        }
    }
    .unwrap_or(Value::Null);
    if let Some(m) = t.as_object_mut() {
        m.remove("$patch");
    }
    t
}

/// What an undo does.
#[derive(Debug, Clone, PartialEq)]
pub enum UndoPlan {
    /// Send this patch (kubectl's).
    Patch {
        /// json (Deployments) or strategic (ControllerRevisions).
        patch_type: PatchType,
        /// The body.
        body: Value,
        /// The revision's pod template (what `--dry-run=client` prints).
        template: Value,
    },
    /// Nothing to send: kubectl's `skipped rollback (current template already matches
    /// revision N)`.
    Skipped(String),
}

/// kubectl's error for a revision that is not in the history.
pub fn revision_not_found(r: i64) -> String {
    format!("unable to find specified revision {r} in history")
}

/// The undo of `workload` (its current state) to revision `to` (0: the one before the
/// latest), from its `revisions` (pure; `rollback.go`). `client_dry_run` stops before the
/// paused check, as kubectl's does.
///
/// # Errors
/// kubectl's sentence: a negative or unknown revision, no history, a paused Deployment.
pub fn undo_plan(
    w: Workload,
    workload: &Value,
    revisions: &[Revision],
    to: i64,
    client_dry_run: bool,
) -> Result<UndoPlan, String> {
    if to < 0 {
        return Err(revision_not_found(to));
    }
    match w {
        Workload::Deployment => deployment_undo(workload, revisions, to, client_dry_run),
        Workload::StatefulSet | Workload::DaemonSet => {
            history_undo(w, workload, revisions, to, client_dry_run)
        }
    }
}

fn deployment_undo(
    d: &Value,
    revisions: &[Revision],
    to: i64,
    client_dry_run: bool,
) -> Result<UndoPlan, String> {
    let chosen = if to == 0 {
        // The second newest (kubectl's `deploymentRevision`: latest and previous by number).
        let mut sorted: Vec<&Revision> = revisions.iter().collect();
        sorted.sort_by_key(|r| std::cmp::Reverse(r.number));
        let latest = sorted.first().map(|r| r.number);
        sorted
            .into_iter()
            .find(|r| Some(r.number) < latest)
            .ok_or_else(|| {
                format!(
                    "no rollout history found for deployment {:?}",
                    d.pointer("/metadata/name")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                )
            })?
    } else {
        revisions
            .iter()
            .find(|r| r.number == to)
            .ok_or_else(|| revision_not_found(to))?
    };
    let template = template_of(Workload::Deployment, chosen);
    if client_dry_run {
        return Ok(UndoPlan::Patch {
            patch_type: PatchType::Json,
            body: Value::Null,
            template,
        });
    }
    if d.pointer("/spec/paused") == Some(&Value::Bool(true)) {
        return Err("you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again".into());
    }
    let current = d.pointer("/spec/template").cloned().unwrap_or(Value::Null);
    if without_hash(&template) == without_hash(&current) {
        return Ok(UndoPlan::Skipped(format!(
            "skipped rollback (current template already matches revision {to})"
        )));
    }
    let annotations = undo_annotations(d, &chosen.object);
    let restored = without_hash(&template);
    Ok(UndoPlan::Patch {
        patch_type: PatchType::Json,
        body: json!([
            {"op": "replace", "path": "/spec/template", "value": restored},
            {"op": "replace", "path": "/metadata/annotations", "value": annotations},
        ]),
        template,
    })
}

/// A pod template without the ReplicaSet's hash label, and without empty label or annotation
/// maps (kubectl compares typed templates with `apiequality.Semantic`, where an empty map
/// equals none).
fn without_hash(template: &Value) -> Value {
    let mut t = template.clone();
    if let Some(meta) = t.get_mut("metadata").and_then(Value::as_object_mut) {
        if let Some(labels) = meta.get_mut("labels").and_then(Value::as_object_mut) {
            labels.remove(HASH_LABEL);
        }
        for key in ["labels", "annotations"] {
            if meta
                .get(key)
                .is_some_and(|m| m.as_object().is_some_and(Map::is_empty) || m.is_null())
            {
                meta.remove(key);
            }
        }
    }
    t
}

/// The Deployment's annotations after an undo to `rs` (pure, `rollback.go`): the ones kubectl
/// keeps from the Deployment, then every other annotation of the ReplicaSet.
fn undo_annotations(d: &Value, rs: &Value) -> Value {
    let mut out = Map::new();
    let of = |v: &Value| {
        v.pointer("/metadata/annotations")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default()
    };
    let current = of(d);
    for k in ANNOTATIONS_TO_SKIP {
        if let Some(v) = current.get(*k) {
            out.insert((*k).to_string(), v.clone());
        }
    }
    for (k, v) in of(rs) {
        if !ANNOTATIONS_TO_SKIP.contains(&k.as_str()) {
            out.insert(k, v);
        }
    }
    Value::Object(out)
}

fn history_undo(
    w: Workload,
    current: &Value,
    revisions: &[Revision],
    to: i64,
    client_dry_run: bool,
) -> Result<UndoPlan, String> {
    if to == 0 && revisions.len() <= 1 {
        return Err("no last revision to roll back to".into());
    }
    let chosen = if to == 0 {
        let mut sorted: Vec<&Revision> = revisions.iter().collect();
        sorted.sort_by_key(|r| r.number);
        sorted[sorted.len() - 2]
    } else {
        revisions
            .iter()
            .find(|r| r.number == to)
            .ok_or_else(|| revision_not_found(to))?
    };
    let data = chosen.object.get("data").cloned().unwrap_or(Value::Null);
    if client_dry_run {
        return Ok(UndoPlan::Patch {
            patch_type: PatchType::Strategic,
            body: data,
            template: template_of(w, chosen),
        });
    }
    // kubectl compares its own patch of the current template with the revision's bytes
    // (`daemonSetMatch`, `statefulsetMatch`); the same JSON compared as values.
    let mut own = current
        .pointer("/spec/template")
        .cloned()
        .unwrap_or(json!({}));
    if let Some(m) = own.as_object_mut() {
        m.insert("$patch".into(), json!("replace"));
    }
    if json!({"spec": {"template": own}}) == data {
        return Ok(UndoPlan::Skipped(format!(
            "skipped rollback (current template already matches revision {to})"
        )));
    }
    Ok(UndoPlan::Patch {
        patch_type: PatchType::Strategic,
        body: data,
        template: template_of(w, chosen),
    })
}

#[cfg(test)]
mod tests;
