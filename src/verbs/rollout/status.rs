//! `rollout status [--watch] [--revision N] [--timeout D]`: kubectl's status viewers
//! (`polymorphichelpers/rollout_status.go`) over a list and watch of the one object
//! (`rollout_status.go`: a field selector on its name), each ADDED or MODIFIED state printed
//! until the rollout is done — or once, with `--watch=false`. Read-only: reviews for `list`
//! and `watch` of the object by name.

use serde_json::Value;

use super::revisions::{self, Workload};
use super::{Failures, named, workload};
use crate::cli::RolloutStatusArgs;
use crate::cluster::ApiError;
use crate::config::Verb;
use crate::guard::watch::{EventType, Item, Progress, Watch, WatchRequest};
use crate::guard::{ObjectRef, Purpose, Session};
use crate::output::Printer;
use crate::settings::Settings;
use crate::verbs::{Outcome, VerbError};

/// Follows the status of every named object in turn.
pub async fn run(s: &Settings, a: &RolloutStatusArgs, p: &mut Printer<'_>) -> Outcome {
    if a.revision < 0 {
        return Outcome::early(VerbError::Usage(format!(
            "revision must be a positive integer: {}",
            a.revision
        )));
    }
    let timeout = match crate::settings::request_timeout(&a.timeout) {
        Ok(t) => t,
        Err(e) => return Outcome::early(VerbError::Usage(format!("--timeout: {e}"))),
    };
    let objects = match named(&a.args) {
        Ok(o) => o,
        Err(e) => return Outcome::early(e),
    };
    let session = match Session::open(s, p, Purpose::Read).await {
        Ok(x) => x,
        Err(e) => return Outcome::early(e),
    };
    let mut failures = Failures::default();
    let mut resource = None;
    for (type_name, name) in &objects {
        let (obj, w) = match workload(&session, type_name, name, no_viewer).await {
            Ok(x) => x,
            Err(e) => {
                failures.push(e, p);
                continue;
            }
        };
        resource.get_or_insert_with(|| obj.t.group_resource());
        let follow = follow(&session, &obj, w, a, p);
        let r = match timeout {
            Some(t) => tokio::time::timeout(t, follow)
                .await
                .unwrap_or_else(|_| Err(VerbError::io("timed out waiting for the condition"))),
            None => follow.await,
        };
        if let Err(e) = r {
            failures.push(e, p);
        }
    }
    failures.outcome(resource)
}

/// kubectl's refusal of a type that has no rollout (`StatusViewerFor`).
fn no_viewer(o: &ObjectRef) -> String {
    format!(
        "no status viewer has been implemented for {}",
        revisions::group_kind(&o.t)
    )
}

/// Prints the status of `obj` on each ADDED or MODIFIED state until it is done (or once
/// without `--watch`).
///
/// # Errors
/// The refusal, the watch's API errors, the viewer's error (exit 1), a deleted object.
async fn follow(
    session: &Session<'_>,
    obj: &ObjectRef,
    w: Workload,
    a: &RolloutStatusArgs,
    p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    let grant = session
        .authorize(
            Verb::Rollout,
            &obj.t,
            false,
            &[obj.access("list", None), obj.access("watch", None)],
        )
        .await?;
    let req = WatchRequest {
        url: <kube::api::DynamicObject as kube::Resource>::url_path(
            &obj.t.api,
            obj.namespace.as_deref(),
        ),
        lp: kube::api::ListParams::default().fields(&format!("metadata.name={}", obj.name)),
        table: false,
        include_object: "Object",
    };
    let (mut watch, items) = Watch::start(session, &grant, req).await?;
    let Some(Item::Object(first)) = items.into_iter().next() else {
        return Err(ApiError::Server {
            code: 404,
            reason: "NotFound".into(),
            message: format!("{} {:?} not found", obj.t.group_resource(), obj.name),
        }
        .into());
    };
    if show(w, &first, a, p)? || !a.watch {
        return Ok(());
    }
    loop {
        match watch.next().await? {
            Progress::Events(events) => {
                for e in events {
                    let Item::Object(o) = e.item else { continue };
                    if e.kind == EventType::Deleted {
                        return Err(VerbError::io("object has been deleted"));
                    }
                    if show(w, &o, a, p)? {
                        return Ok(());
                    }
                }
            }
            Progress::Lost(e) => p.err_line(&format!("warning: {e}; still watching")),
            Progress::Resumed(_) => {}
        }
    }
}

/// Prints one state's status line; whether the rollout is done.
fn show(
    w: Workload,
    o: &Value,
    a: &RolloutStatusArgs,
    p: &mut Printer<'_>,
) -> Result<bool, VerbError> {
    let (line, done) = status_of(w, o, a.revision).map_err(VerbError::io)?;
    p.out(&line)?;
    p.flush()?;
    Ok(done)
}

fn int(o: &Value, path: &str) -> i64 {
    o.pointer(path).and_then(Value::as_i64).unwrap_or(0)
}

/// kubectl's status viewer for `w` on object `o` (pure): the line to print and whether the
/// rollout is done.
///
/// # Errors
/// kubectl's sentence: a Deployment past its progress deadline or at another revision than
/// pinned, a StatefulSet or DaemonSet whose update strategy is not RollingUpdate.
pub fn status_of(w: Workload, o: &Value, revision: i64) -> Result<(String, bool), String> {
    let name = o
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("");
    let generation = int(o, "/metadata/generation");
    let observed = int(o, "/status/observedGeneration");
    match w {
        Workload::Deployment => deployment_status(o, name, revision, generation, observed),
        Workload::DaemonSet => {
            if o.pointer("/spec/updateStrategy/type")
                .and_then(Value::as_str)
                != Some("RollingUpdate")
            {
                return Err(
                    "rollout status is only available for RollingUpdate strategy type".into(),
                );
            }
            if generation > observed {
                return Ok((
                    "Waiting for daemon set spec update to be observed...\n".into(),
                    false,
                ));
            }
            let desired = int(o, "/status/desiredNumberScheduled");
            let updated = int(o, "/status/updatedNumberScheduled");
            let available = int(o, "/status/numberAvailable");
            Ok(if updated < desired {
                (
                    format!(
                        "Waiting for daemon set {name:?} rollout to finish: {updated} out of {desired} new pods have been updated...\n"
                    ),
                    false,
                )
            } else if available < desired {
                (
                    format!(
                        "Waiting for daemon set {name:?} rollout to finish: {available} of {desired} updated pods are available...\n"
                    ),
                    false,
                )
            } else {
                (
                    format!("daemon set {name:?} successfully rolled out\n"),
                    true,
                )
            })
        }
        Workload::StatefulSet => statefulset_status(o, generation, observed),
    }
}

fn deployment_status(
    o: &Value,
    name: &str,
    revision: i64,
    generation: i64,
    observed: i64,
) -> Result<(String, bool), String> {
    if revision > 0 {
        let current = o
            .pointer("/metadata/annotations")
            .and_then(|a| a.get(revisions::REVISION))
            .and_then(Value::as_str)
            .unwrap_or("0");
        let current: i64 = current
            .parse()
            .map_err(|e| format!("cannot get the revision of deployment {name:?}: {e}"))?;
        if current != revision {
            return Err(format!(
                "desired revision ({revision}) is different from the running revision ({current})"
            ));
        }
    }
    if generation > observed {
        return Ok((
            "Waiting for deployment spec update to be observed...\n".into(),
            false,
        ));
    }
    let timed_out = o
        .pointer("/status/conditions")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .any(|c| c["type"] == "Progressing" && c["reason"] == "ProgressDeadlineExceeded");
    if timed_out {
        return Err(format!(
            "deployment {name:?} exceeded its progress deadline"
        ));
    }
    let replicas = o.pointer("/spec/replicas").and_then(Value::as_i64);
    let updated = int(o, "/status/updatedReplicas");
    let total = int(o, "/status/replicas");
    let available = int(o, "/status/availableReplicas");
    Ok(match replicas {
        Some(r) if updated < r => (
            format!(
                "Waiting for deployment {name:?} rollout to finish: {updated} out of {r} new replicas have been updated...\n"
            ),
            false,
        ),
        _ if total > updated => (
            format!(
                "Waiting for deployment {name:?} rollout to finish: {} old replicas are pending termination...\n",
                total - updated
            ),
            false,
        ),
        _ if available < updated => (
            format!(
                "Waiting for deployment {name:?} rollout to finish: {available} of {updated} updated replicas are available...\n"
            ),
            false,
        ),
        _ => (
            format!("deployment {name:?} successfully rolled out\n"),
            true,
        ),
    })
}

fn statefulset_status(o: &Value, generation: i64, observed: i64) -> Result<(String, bool), String> {
    if o.pointer("/spec/updateStrategy/type")
        .and_then(Value::as_str)
        != Some("RollingUpdate")
    {
        return Err("rollout status is only available for RollingUpdate strategy type".into());
    }
    if observed == 0 || generation > observed {
        return Ok((
            "Waiting for statefulset spec update to be observed...\n".into(),
            false,
        ));
    }
    let replicas = o.pointer("/spec/replicas").and_then(Value::as_i64);
    let ready = int(o, "/status/readyReplicas");
    if let Some(r) = replicas
        && ready < r
    {
        return Ok((
            format!("Waiting for {} pods to be ready...\n", r - ready),
            false,
        ));
    }
    let updated = int(o, "/status/updatedReplicas");
    if let Some(ru) = o.pointer("/spec/updateStrategy/rollingUpdate") {
        if let (Some(r), Some(part)) = (replicas, ru.get("partition").and_then(Value::as_i64))
            && updated < r - part
        {
            return Ok((
                format!(
                    "Waiting for partitioned roll out to finish: {updated} out of {} new pods have been updated...\n",
                    r - part
                ),
                false,
            ));
        }
        return Ok((
            format!("partitioned roll out complete: {updated} new pods have been updated...\n"),
            true,
        ));
    }
    let update_rev = o
        .pointer("/status/updateRevision")
        .and_then(Value::as_str)
        .unwrap_or("");
    let current_rev = o
        .pointer("/status/currentRevision")
        .and_then(Value::as_str)
        .unwrap_or("");
    if update_rev != current_rev {
        return Ok((
            format!(
                "waiting for statefulset rolling update to complete {updated} pods at revision {update_rev}...\n"
            ),
            false,
        ));
    }
    Ok((
        format!(
            "statefulset rolling update complete {} pods at revision {current_rev}...\n",
            int(o, "/status/currentReplicas")
        ),
        true,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn status_lines_are_kubectls_for_each_kind() {
        let d = |spec: Value, status: Value| {
            json!({"metadata": {"name": "web", "generation": 2,
                    "annotations": {"deployment.kubernetes.io/revision": "3"}},
                   "spec": spec, "status": status})
        };
        let waiting = d(json!({"replicas": 2}), json!({"observedGeneration": 1}));
        assert_eq!(
            status_of(Workload::Deployment, &waiting, 0).unwrap(),
            (
                "Waiting for deployment spec update to be observed...\n".into(),
                false
            )
        );
        let rolling = d(
            json!({"replicas": 2}),
            json!({"observedGeneration": 2, "replicas": 3, "updatedReplicas": 2, "availableReplicas": 1}),
        );
        assert_eq!(
            status_of(Workload::Deployment, &rolling, 0).unwrap().0,
            "Waiting for deployment \"web\" rollout to finish: 1 old replicas are pending termination...\n"
        );
        assert_eq!(
            status_of(Workload::Deployment, &rolling, 2).unwrap_err(),
            "desired revision (2) is different from the running revision (3)"
        );
        let late = d(
            json!({"replicas": 2}),
            json!({"observedGeneration": 2, "conditions": [{"type": "Progressing", "reason": "ProgressDeadlineExceeded"}]}),
        );
        assert_eq!(
            status_of(Workload::Deployment, &late, 0).unwrap_err(),
            "deployment \"web\" exceeded its progress deadline"
        );
        let done = d(json!({"replicas": 0}), json!({"observedGeneration": 2}));
        assert_eq!(
            status_of(Workload::Deployment, &done, 0).unwrap(),
            ("deployment \"web\" successfully rolled out\n".into(), true)
        );
        let sts = json!({"metadata": {"name": "db", "generation": 1},
            "spec": {"replicas": 3, "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"partition": 1}}},
            "status": {"observedGeneration": 1, "readyReplicas": 3, "updatedReplicas": 1}});
        assert_eq!(
            status_of(Workload::StatefulSet, &sts, 0).unwrap(),
            ("Waiting for partitioned roll out to finish: 1 out of 2 new pods have been updated...\n".into(), false)
        );
        let ondelete = json!({"metadata": {"name": "agent"}, "spec": {"updateStrategy": {"type": "OnDelete"}}});
        assert_eq!(
            status_of(Workload::DaemonSet, &ondelete, 0).unwrap_err(),
            "rollout status is only available for RollingUpdate strategy type"
        );
    }
}
