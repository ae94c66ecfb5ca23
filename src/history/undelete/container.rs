//! A namespace's or CRD's objects, created again after their container ([`restore_children`]):
//! which of them to create and in what order ([`plan`], pure), then one line per object —
//! `… undeleted (ID)`, `… re-created by its controller (OWNER)`, `… skipped: WHY`.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::UndeleteError;
use super::create::{Renamed, Undo, Wording, journaled_uid};
use crate::changelog::{self, Entry, Operation};
use crate::cli::DryRun;
use crate::guard::ObjectRef;
use crate::output::Printer;

/// How long the container is waited for (Active, Established) before its objects are created.
pub const READY_WAIT: Duration = Duration::from_secs(60);

/// What is done with one object journaled with its container.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Created again from its snapshot.
    Restore,
    /// Left to a controller, which creates it again: from its owner (its controller
    /// ownerReference names an object restored before it), or — a namespace's `default`
    /// ServiceAccount and `kube-root-ca.crt` ConfigMap — from the namespace. The text says
    /// which (`deployment/web`, `the namespace`).
    ByController(String),
}

/// One object of the plan.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// Its snapshot record.
    pub entry: Entry,
    /// What is done with it.
    pub action: Action,
    /// The uid of the controller owner it waits for ([`Action::ByController`] of an owner).
    pub owner_uid: Option<String>,
}

/// The objects journaled with container entry `id` (the last record of each, `snapshot`,
/// not a dry run), in the order journaled.
pub fn children<'a>(latest: &'a [Entry], id: &str) -> Vec<&'a Entry> {
    latest
        .iter()
        .filter(|e| {
            e.parent.as_deref() == Some(id)
                && e.operation == Operation::Delete
                && e.result == changelog::SNAPSHOT
        })
        .collect()
}

/// The objects a namespace's controllers create in every namespace (kube-controller-manager's
/// serviceaccount and root-ca-cert-publisher controllers): created again, they would collide
/// with the controller's own.
fn namespace_default(e: &Entry) -> bool {
    (e.kind == "ServiceAccount" && e.name == "default")
        || (e.kind == "ConfigMap" && e.name == "kube-root-ca.crt")
}

/// The owner references of a snapshot: `(uid, controller, kind/name)`.
fn owners(e: &Entry) -> Vec<(String, bool, String)> {
    let refs = e
        .before
        .as_ref()
        .and_then(|b| b.pointer("/metadata/ownerReferences"))
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    refs.iter()
        .filter_map(|r| {
            let uid = r.get("uid")?.as_str()?.to_string();
            let controller = r.get("controller").and_then(Value::as_bool) == Some(true);
            let kind = r.get("kind").and_then(Value::as_str).unwrap_or("?");
            let name = r.get("name").and_then(Value::as_str).unwrap_or("?");
            Some((uid, controller, format!("{}/{name}", kind.to_lowercase())))
        })
        .collect()
}

/// The plan for the objects `children` of a container (pure): owners before dependents (an
/// owner reference to another of them orders it after that one; cycles keep the journal's
/// order), an object whose controller owner is among them left to that controller, a
/// namespace's defaults left to the namespace's controllers (`namespace`: the container is a
/// namespace).
pub fn plan(children: &[&Entry], namespace: bool) -> Vec<Step> {
    let uids: HashMap<String, usize> = children
        .iter()
        .enumerate()
        .filter_map(|(i, e)| journaled_uid(e).map(|u| (u, i)))
        .collect();
    let mut order: Vec<usize> = Vec::new();
    let mut placed: HashSet<usize> = HashSet::new();
    let mut visiting: HashSet<usize> = HashSet::new();
    fn visit(
        i: usize,
        children: &[&Entry],
        uids: &HashMap<String, usize>,
        placed: &mut HashSet<usize>,
        visiting: &mut HashSet<usize>,
        order: &mut Vec<usize>,
    ) {
        if placed.contains(&i) || !visiting.insert(i) {
            return;
        }
        for (uid, _, _) in owners(children[i]) {
            if let Some(&o) = uids.get(&uid) {
                visit(o, children, uids, placed, visiting, order);
            }
        }
        placed.insert(i);
        order.push(i);
    }
    for i in 0..children.len() {
        visit(i, children, &uids, &mut placed, &mut visiting, &mut order);
    }
    order
        .into_iter()
        .map(|i| {
            let e = children[i];
            let controller = owners(e)
                .into_iter()
                .find(|(uid, controller, _)| *controller && uids.contains_key(uid));
            let (action, owner_uid) = match controller {
                Some((uid, _, owner)) => (Action::ByController(owner), Some(uid)),
                None if namespace && namespace_default(e) => {
                    (Action::ByController("the namespace".into()), None)
                }
                None => (Action::Restore, None),
            };
            Step {
                entry: e.clone(),
                action,
                owner_uid,
            }
        })
        .collect()
}

/// Waits until `obj` (just created) is ready for its objects: a namespace Active, a CRD
/// Established and its type served (returned then, resolved from fresh discovery, for its
/// custom resources). A dry run waits for nothing.
///
/// # Errors
/// [`UndeleteError::NotReady`] after [`READY_WAIT`]; the reads' errors.
async fn wait_ready(
    u: &Undo<'_>,
    obj: &ObjectRef,
    e: &Entry,
) -> Result<Option<crate::cluster::TypeIndex>, UndeleteError> {
    let crd = obj.t.api.kind == "CustomResourceDefinition";
    if u.dry_run != DryRun::None {
        return Ok(None);
    }
    let state = if crd { "Established" } else { "Active" };
    let session = u.session;
    let grant = session
        .authorize(
            crate::config::Verb::Get,
            &obj.t,
            false,
            &[obj.access("get", None)],
        )
        .await?;
    let end = Instant::now() + READY_WAIT;
    loop {
        let live = session.read(&grant, obj).await.ok().flatten();
        let ready = match &live {
            Some(v) if crd => established(v),
            Some(v) => v.pointer("/status/phase").and_then(Value::as_str) == Some("Active"),
            None => false,
        };
        if ready {
            if !crd {
                return Ok(None);
            }
            let index = session
                .fetch_index()
                .await
                .map_err(crate::guard::GuardError::from)?;
            if served(&index, live.as_ref()) {
                return Ok(Some(index));
            }
        }
        if Instant::now() >= end {
            return Err(UndeleteError::NotReady {
                object: obj.display(),
                state,
                seconds: READY_WAIT.as_secs(),
                id: e.id.clone(),
            });
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Whether a CRD's conditions say Established.
fn established(crd: &Value) -> bool {
    crd.pointer("/status/conditions")
        .and_then(Value::as_array)
        .is_some_and(|c| {
            c.iter()
                .any(|c| c["type"] == "Established" && c["status"] == "True")
        })
}

/// Whether discovery serves the CRD's type (`plural.group`).
fn served(index: &crate::cluster::TypeIndex, crd: Option<&Value>) -> bool {
    let Some(crd) = crd else { return false };
    let plural = crd.pointer("/spec/names/plural").and_then(Value::as_str);
    let group = crd.pointer("/spec/group").and_then(Value::as_str);
    match (plural, group) {
        (Some(p), Some(g)) => index.resolve(&format!("{p}.{g}")).is_ok(),
        _ => false,
    }
}

/// The object of snapshot `e`, resolved in `index` (fresh discovery, for a CRD's custom
/// resources) or the session's.
async fn resolve_in(
    u: &Undo<'_>,
    index: Option<&crate::cluster::TypeIndex>,
    e: &Entry,
) -> Result<ObjectRef, UndeleteError> {
    let Some(index) = index else {
        return u.resolve(e).await;
    };
    crate::guard::check_names(std::slice::from_ref(&e.name))
        .map_err(crate::guard::GuardError::Usage)?;
    if let Some(ns) = &e.namespace {
        crate::base::validate::check_namespace(ns).map_err(crate::guard::GuardError::Usage)?;
    }
    let t = index
        .resolve(&crate::history::type_name(e))
        .map_err(crate::guard::GuardError::from)?
        .clone();
    Ok(ObjectRef {
        namespace: t.namespaced.then(|| e.namespace.clone()).flatten(),
        t,
        name: e.name.clone(),
    })
}

/// After container `obj` of entry `e` was created again: waits until it is ready,
/// then creates its journaled objects in [`plan`]'s order, one line each; a failure is said
/// on stderr and the others go on.
///
/// # Errors
/// [`UndeleteError::NotReady`]; [`UndeleteError::Incomplete`] when some were not restored.
pub async fn restore_children(
    u: &Undo<'_>,
    obj: &ObjectRef,
    e: &Entry,
    mut renamed: Renamed,
    p: &mut Printer<'_>,
) -> Result<(), UndeleteError> {
    let kids = children(u.latest, &e.id);
    if kids.is_empty() {
        return Ok(());
    }
    let index = wait_ready(u, obj, e).await?;
    let steps = plan(&kids, obj.t.api.kind == "Namespace");
    let mut done: HashSet<String> = HashSet::new();
    let mut failed = 0;
    for step in &steps {
        let child = &step.entry;
        let r = restore_one(u, index.as_ref(), step, &done, &mut renamed, p).await;
        match r {
            Ok(true) => {
                if let Some(old) = journaled_uid(child) {
                    done.insert(old);
                }
            }
            Ok(false) => failed += 1,
            Err(err) => {
                failed += 1;
                p.err_line(&format!(
                    "error: {} (entry {}): {err}",
                    changelog::object_of(child),
                    child.id
                ));
            }
        }
    }
    if failed > 0 {
        return Err(UndeleteError::Incomplete {
            id: e.id.clone(),
            failed,
            total: steps.len(),
        });
    }
    Ok(())
}

/// One step of the plan: `Ok(true)` when the object is restored or left to a controller that
/// will create it, `Ok(false)` when it is skipped (its owner did not come back; said on
/// stdout).
async fn restore_one(
    u: &Undo<'_>,
    index: Option<&crate::cluster::TypeIndex>,
    step: &Step,
    done: &HashSet<String>,
    renamed: &mut Renamed,
    p: &mut Printer<'_>,
) -> Result<bool, UndeleteError> {
    let child = &step.entry;
    if u.dry_run != DryRun::None {
        return dry_run_one(u, step, p).await;
    }
    let obj = resolve_in(u, index, child).await?;
    match &step.action {
        Action::ByController(owner) => {
            if let Some(o) = &step.owner_uid
                && !done.contains(o)
            {
                p.out(&format!(
                    "{} skipped: its owner {owner} was not restored\n",
                    obj.display()
                ))?;
                return Ok(false);
            }
            p.out(&format!(
                "{} re-created by its controller ({owner})\n",
                obj.display()
            ))?;
            Ok(true)
        }
        Action::Restore => {
            let object = super::check_entry(u.latest, u.contradicted, child).map_err(|why| {
                UndeleteError::Refused {
                    id: child.id.clone(),
                    why,
                }
            })?;
            u.recreate(&obj, child, object, Wording::Undelete, renamed, p)
                .await?;
            Ok(true)
        }
    }
}

/// One step of a dry run: the container was not created, so its objects cannot be sent
/// (the server would answer that the namespace or type does not exist); each is checked
/// ([`super::check_entry`]: a Secret's values, an edited record) and said as it would go.
async fn dry_run_one(
    u: &Undo<'_>,
    step: &Step,
    p: &mut Printer<'_>,
) -> Result<bool, UndeleteError> {
    let child = &step.entry;
    // A CRD's custom resources do not resolve before the CRD exists: named by their record.
    let what = match u.resolve(child).await {
        Ok(obj) => obj.display(),
        Err(_) => changelog::object_of(child),
    };
    let suffix = match u.dry_run {
        DryRun::Server => "server dry run",
        _ => "dry run",
    };
    match &step.action {
        Action::ByController(owner) => {
            p.out(&format!(
                "{what} re-created by its controller ({owner}) ({suffix})\n"
            ))?;
        }
        Action::Restore => {
            super::check_entry(u.latest, u.contradicted, child).map_err(|why| {
                UndeleteError::Refused {
                    id: child.id.clone(),
                    why,
                }
            })?;
            p.out(&format!(
                "{what} undeleted ({}) ({suffix}; not sent: its container is not created by a dry run)\n",
                child.id
            ))?;
        }
    }
    Ok(true)
}

#[cfg(test)]
mod tests;
