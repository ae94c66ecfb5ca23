//! `drift`, pure: which objects changed since the change log last changed them, which
//! fields, and who owns those fields now.
//!
//! The baseline of an object is the last record of ours that really changed it
//! ([`baselines`]): a `patch` or `rollback` whose result is `success`, not a dry run, made
//! against the same API server (records carry the server; two contexts pointing at one
//! server see the same objects). A later change of ours therefore moves the baseline — it is
//! never drift. [`compare`] then judges the live object against it:
//!
//! 1. The same `metadata.resourceVersion` as the outcome's `resourceVersionAfter`: nobody
//!    wrote since (the resourceVersion changes on every write), no diff is computed.
//! 2. Otherwise the fields that differ between what we left — the journaled after-state, or,
//!    for a record without one, the before-state with the journaled patch applied (exact for
//!    JSON and merge patches, and for a strategic merge patch without lists or `$`
//!    directives, which is a merge patch; others cannot be replayed without the server's
//!    schema and are reported as changed with unknown fields) — and the live object, by
//!    [`crate::rules::diff::changes`] (bookkeeping left out as there), and `status` left out unless
//!    our patch wrote it (controllers own it; it changes without anyone drifting), as are the
//!    annotations controllers keep on what they manage ([`CONTROLLER_ANNOTATIONS`]) and the
//!    writers through the status subresource.
//! 3. For each changed field, the managers that own it now: the `metadata.managedFields`
//!    entries whose `fieldsV1` set holds it ([`holds`]; KEP-555 server-side apply, "Field
//!    management"). A removed field has no owner any more; it lists the managers that wrote
//!    since our change instead ([`writers_since`]).
//!
//! Secret values are never read into the report: both sides are redacted before they are
//! compared ([`crate::changelog::redact_as`]), so added and removed keys show, changed values
//! cannot — the journal never holds them. A changed value is found through managedFields
//! instead: a manager that wrote since our change and owns `data.KEY` now is reported as a
//! field whose value *may* have changed. The limit: an Update by a manager that already
//! owned a key and changed only another field reads the same, so such a row says "may".

use std::collections::BTreeMap;

use serde_json::Value;

use crate::changelog::{self, Entry, object_of};
use crate::history;
use crate::rules::diff;

mod managed_fields;
mod report;
mod scan;
mod team;

pub use managed_fields::{holds, owners, writers_since};
pub use report::{Field, Manager, ObjectDrift, REPORT_API_VERSION, REPORT_KIND, Report, State};
pub use scan::{Scan, scan};
pub use team::{TeamChange, Teammates};

/// The last change of ours to one object, and whether a newer attempt's outcome is unknown.
#[derive(Debug, Clone, PartialEq)]
pub struct Baseline {
    /// The last record that really changed the object.
    pub entry: Entry,
    /// The id of a later record of the object whose outcome is unknown (an intent without an
    /// outcome: it may have changed the object too).
    pub unknown_after: Option<String>,
}

/// The API group of an `apiVersion` (`""` for the core group).
pub fn group_of(api_version: &str) -> &str {
    api_version.split_once('/').map_or("", |(g, _)| g)
}

/// The identity of a journaled object, the same across versions: group, kind, namespace,
/// name.
fn key(e: &Entry) -> (String, String, Option<String>, String) {
    (
        group_of(&e.api_version).to_string(),
        e.kind.clone(),
        e.namespace.clone(),
        e.name.clone(),
    )
}

/// The baseline of every object the journal's `records` changed on `server` (pure), sorted
/// by object: per object the last `patch` or `rollback` record with result `success` that
/// is not a dry run; a later intent of the object without an outcome is noted.
pub fn baselines(records: Vec<Entry>, server: &str) -> Vec<Baseline> {
    let mut out: BTreeMap<(String, String, Option<String>, String), Baseline> = BTreeMap::new();
    for e in changelog::latest(records) {
        if e.server != server || e.dry_run || !e.operation.patches_fields() {
            continue;
        }
        let k = key(&e);
        if e.result == "success" {
            out.insert(
                k,
                Baseline {
                    entry: e,
                    unknown_after: None,
                },
            );
        } else if e.outcome_unknown()
            && let Some(b) = out.get_mut(&k)
        {
            b.unknown_after = Some(e.id.clone());
        }
    }
    let mut v: Vec<Baseline> = out.into_values().collect();
    v.sort_by_key(|b| object_of(&b.entry));
    v
}

/// What our last change left, as far as the journal can tell (pure): the after-state; for a
/// record without one, the before-state with the journaled patch applied when that is exact
/// (a JSON or merge patch, or a strategic merge patch without lists and `$` directives);
/// `None` otherwise.
pub fn expected(e: &Entry) -> Option<Value> {
    if let Some(a) = &e.after {
        return Some(a.clone());
    }
    let (before, patch) = (e.before.as_ref()?, e.patch.as_ref()?);
    let mut doc = before.clone();
    match e.patch_type.as_deref() {
        Some("merge") => json_patch::merge(&mut doc, patch),
        Some("strategic") if plain(patch) => json_patch::merge(&mut doc, patch),
        Some("json") => {
            let ops = serde_json::from_value::<json_patch::Patch>(patch.clone()).ok()?;
            json_patch::patch(&mut doc, &ops).ok()?;
        }
        _ => return None,
    }
    Some(doc)
}

/// Whether a strategic merge patch is also a plain merge patch: no lists (whose merge keys
/// need the schema) and no `$` directives.
fn plain(v: &Value) -> bool {
    match v {
        Value::Array(_) => false,
        Value::Object(m) => m.iter().all(|(k, v)| !k.starts_with('$') && plain(v)),
        _ => true,
    }
}

/// Annotations a controller maintains on the objects it manages, not anyone's intent: the
/// deployment controller's revision counter on Deployments and ReplicaSets
/// (`deployment.kubernetes.io/revision`, k8s.io/kubernetes pkg/controller/deployment/util)
/// and the DaemonSet controller's template generation
/// (`deprecated.daemonset.template.generation`). A template change of ours bumps them right
/// after our patch, so comparing them would report every such patch as drift.
pub const CONTROLLER_ANNOTATIONS: &[&str] = &[
    "deployment.kubernetes.io/revision",
    "deprecated.daemonset.template.generation",
];

/// An object as drift compares it (pure): redacted as the journal holds it (a Secret's
/// values masked, its `stringData` dropped — the server folds it into `data`), without the
/// [`CONTROLLER_ANNOTATIONS`], and without `status` unless `keep_status`.
fn comparable(kind: &str, v: &Value, keep_status: bool) -> Value {
    let mut v = changelog::redact_as(kind, v.clone());
    if let Some(a) = v
        .pointer_mut("/metadata/annotations")
        .and_then(Value::as_object_mut)
    {
        for k in CONTROLLER_ANNOTATIONS {
            a.remove(*k);
        }
    }
    if let Some(o) = v.as_object_mut() {
        if kind == "Secret" {
            o.remove("stringData");
        }
        if !keep_status {
            o.remove("status");
        }
    }
    // Redaction drops a Secret's last-applied annotation; a map left empty by it is no change.
    if let Some(m) = v.pointer_mut("/metadata").and_then(Value::as_object_mut)
        && m.get("annotations")
            .and_then(Value::as_object)
            .is_some_and(|a| a.is_empty())
    {
        m.remove("annotations");
    }
    v
}

/// Judges `live` (the object read now, unredacted) against our last change `e` (pure; see
/// the module doc). Secret values are redacted before anything is compared; none reaches
/// the result.
pub fn compare(e: &Entry, live: &Value) -> ObjectDrift {
    let mut d = ObjectDrift::of(e, State::Unchanged);
    let text = |v: &Value, p: &str| v.pointer(p).and_then(Value::as_str).map(str::to_string);
    d.live_resource_version = text(live, "/metadata/resourceVersion");
    if let (Some(then), Some(now)) = (&e.uid, text(live, "/metadata/uid"))
        && *then != now
    {
        d.state = State::Replaced;
        d.notes.push(format!(
            "the object was deleted and created again (uid {then} then, {now} now)"
        ));
        return d;
    }
    if d.live_resource_version.is_some() && d.live_resource_version == e.resource_version_after {
        return d;
    }
    let keep_status = history::touched_by(e)
        .iter()
        .any(|p| p == "/status" || p.starts_with("/status/"));
    // A write through the status subresource changes nothing but `status`.
    let writers: Vec<&Value> = writers_since(e, live)
        .into_iter()
        .filter(|m| keep_status || m.get("subresource").and_then(Value::as_str) != Some("status"))
        .collect();
    d.writers_since = writers.iter().map(|m| Manager::of(m)).collect();
    let Some(ours) = expected(e) else {
        d.state = State::Drifted;
        d.notes.push(
            "the entry has no after-state and its strategic merge patch cannot be replayed without the server's schema, so which fields changed is not known; writersSince names who wrote since".into(),
        );
        return d;
    };
    let (ours, now) = (
        comparable(&e.kind, &ours, keep_status),
        comparable(&e.kind, live, keep_status),
    );
    let secret = diff::is_secret(&e.kind, &ours, &now);
    let (ours, now) = if secret {
        diff::mask_secret_pair(&ours, &now)
    } else {
        (ours, now)
    };
    for (path, line) in diff::changes(&ours, &now) {
        let mut managers = owners(live, &path);
        let owned = !managers.is_empty();
        if !owned {
            managers = d.writers_since.clone();
        }
        let doc = if now.pointer(&path).is_some() {
            &now
        } else {
            &ours
        };
        d.fields.push(Field {
            field: diff::dotted(&path, doc),
            path,
            change: line,
            managers,
            owned,
            certain: true,
            changed_by: None,
        });
    }
    if secret {
        secret_values(&mut d, &writers, &now);
    }
    if d.fields.is_empty() {
        d.notes.push(format!(
            "the resourceVersion moved ({} → {}) but no field drift compares changed (status and bookkeeping are left out)",
            e.resource_version_after.as_deref().unwrap_or("not journaled"),
            d.live_resource_version.as_deref().unwrap_or("?")
        ));
    } else {
        d.state = State::Drifted;
    }
    d
}

/// A Secret's `data` keys that a manager which wrote since our change owns now: their
/// values may have changed (the journal holds none to compare), reported uncertain.
fn secret_values(d: &mut ObjectDrift, writers: &[&Value], now: &Value) {
    for w in writers {
        let Some(keys) = w.pointer("/fieldsV1/f:data").and_then(Value::as_object) else {
            continue;
        };
        for k in keys.keys().filter_map(|k| k.strip_prefix("f:")) {
            let path = format!("/data/{}", history::escape(k));
            if now.pointer(&path).is_none() {
                continue;
            }
            if let Some(f) = d.fields.iter_mut().find(|f| f.path == path) {
                if !f.certain && !f.managers.contains(&Manager::of(w)) {
                    f.managers.push(Manager::of(w));
                }
                continue;
            }
            let field = diff::dotted(&path, now);
            d.fields.push(Field {
                change: format!(
                    "{field}: \"{}\" (may have changed: written since our change, and Secret values are not journaled)",
                    diff::MASK
                ),
                field,
                path,
                managers: vec![Manager::of(w)],
                owned: true,
                certain: false,
                changed_by: None,
            });
        }
    }
}

#[cfg(test)]
mod tests;
