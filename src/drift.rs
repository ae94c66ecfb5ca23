//! `drift` (issue 16 part 2), pure: which objects changed since the change log last changed
//! them, which fields, and who owns those fields now.
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
//!    [`crate::diff::changes`] (bookkeeping left out as there), and `status` left out unless
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

use serde::Serialize;
use serde_json::Value;

use crate::changelog::{self, Entry, Operation, object_of};
use crate::diff;
use crate::history;

/// The `kind` of `drift -o json`'s document.
pub const REPORT_KIND: &str = "DriftReport";
/// The `apiVersion` of `drift -o json`'s document; a field is only ever added under it.
pub const REPORT_API_VERSION: &str = "myops.drift/v1";

/// One `metadata.managedFields` entry, as the report names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Manager {
    /// The field manager (`kubectl-patch`, `kubectl-edit`, `kube-controller-manager`, …).
    pub manager: String,
    /// `Update` or `Apply`.
    pub operation: String,
    /// The subresource written (`status`, `scale`), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subresource: Option<String>,
    /// When this manager last changed the object (RFC 3339, whole seconds), if recorded.
    pub time: Option<String>,
}

impl Manager {
    /// The entry as the report names it (pure).
    pub fn of(entry: &Value) -> Manager {
        let text = |k: &str| entry.get(k).and_then(Value::as_str).map(str::to_string);
        Manager {
            manager: text("manager").unwrap_or_else(|| "?".into()),
            operation: text("operation").unwrap_or_else(|| "?".into()),
            subresource: text("subresource"),
            time: text("time"),
        }
    }
}

/// One field that differs from what our last change left.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Field {
    /// The field as a JSON Pointer (RFC 6901): `/spec/replicas`.
    pub path: String,
    /// The field as `changelog diff` prints it: `spec.replicas`.
    pub field: String,
    /// What changed, as `changelog diff` prints it (`spec.replicas: 3 → 7`); a Secret's
    /// values read `"***"`.
    pub change: String,
    /// Who owns the field now (`owned: true`) or, for a field no manager owns any more (it
    /// was removed), who wrote the object since our change (`owned: false`), newest first.
    pub managers: Vec<Manager>,
    /// Whether `managers` own the field now (from their `fieldsV1`).
    pub owned: bool,
    /// Whether the change is certain (`false`: a Secret value a later writer owns, which may
    /// or may not differ — the journal never holds Secret values).
    pub certain: bool,
}

/// How an object relates to our last change of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum State {
    /// As our last change left it (the same resourceVersion, or only fields drift does not
    /// compare changed).
    Unchanged,
    /// Someone changed fields since.
    Drifted,
    /// The object no longer exists.
    Deleted,
    /// The object was deleted and another one created under its name (a different uid).
    Replaced,
    /// It could not be read (the error says why).
    Error,
}

impl State {
    /// Whether this state counts as drift for the exit code (`drifted`, `deleted`,
    /// `replaced`).
    pub fn is_drift(self) -> bool {
        matches!(self, State::Drifted | State::Deleted | State::Replaced)
    }
}

/// One object of the report.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ObjectDrift {
    /// `kind/namespace/name` (lowercase kind), the OBJECT column of `changelog list`.
    pub object: String,
    /// The journaled `apiVersion`.
    pub api_version: String,
    /// The journaled `kind`.
    pub kind: String,
    /// The namespace, `null` for a cluster-scoped object.
    pub namespace: Option<String>,
    /// The name.
    pub name: String,
    /// The id of our last change (`kubectl myops changelog diff ID` shows it).
    pub entry: String,
    /// When our last change started (RFC 3339).
    pub changed_at: String,
    /// The resourceVersion our last change produced, if journaled.
    pub resource_version: Option<String>,
    /// The live resourceVersion (`null` when the object was not read).
    pub live_resource_version: Option<String>,
    /// How the object relates to our last change.
    pub state: State,
    /// The fields that differ (empty unless `drifted`).
    pub fields: Vec<Field>,
    /// The managedFields entries written since our change, newest first.
    pub writers_since: Vec<Manager>,
    /// Sentences worth knowing (a field set that cannot be computed, a newer change of ours
    /// whose outcome is unknown).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Why the object could not be checked (`state: error`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl ObjectDrift {
    /// The report of `e`'s object in `state`, nothing compared yet (pure).
    pub fn of(e: &Entry, state: State) -> ObjectDrift {
        ObjectDrift {
            object: object_of(e),
            api_version: e.api_version.clone(),
            kind: e.kind.clone(),
            namespace: e.namespace.clone(),
            name: e.name.clone(),
            entry: e.id.clone(),
            changed_at: e.timestamp.clone(),
            resource_version: e.resource_version_after.clone(),
            live_resource_version: None,
            state,
            fields: Vec::new(),
            writers_since: Vec::new(),
            notes: Vec::new(),
            error: None,
        }
    }

    /// `e`'s object, which could not be checked because of `error` (one sentence).
    pub fn failed(e: &Entry, error: String) -> ObjectDrift {
        ObjectDrift {
            error: Some(error),
            ..ObjectDrift::of(e, State::Error)
        }
    }
}

/// `drift -o json`: the whole report (schema in the README, "drift").
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// [`REPORT_API_VERSION`].
    pub api_version: &'static str,
    /// [`REPORT_KIND`].
    pub kind: &'static str,
    /// The API server compared against.
    pub server: String,
    /// The kubeconfig context, if any.
    pub context: Option<String>,
    /// How many objects were checked.
    pub checked: usize,
    /// How many of them drifted (`drifted`, `deleted` or `replaced`).
    pub drifted: usize,
    /// How many could not be checked (`error`).
    pub errors: usize,
    /// Every object checked, sorted by `object`.
    pub objects: Vec<ObjectDrift>,
}

impl Report {
    /// The report of `objects` (sorted here), counted.
    pub fn new(server: String, context: Option<String>, mut objects: Vec<ObjectDrift>) -> Report {
        objects.sort_by(|a, b| a.object.cmp(&b.object));
        Report {
            api_version: REPORT_API_VERSION,
            kind: REPORT_KIND,
            server,
            context,
            checked: objects.len(),
            drifted: objects.iter().filter(|o| o.state.is_drift()).count(),
            errors: objects.iter().filter(|o| o.state == State::Error).count(),
            objects,
        }
    }
}

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
        if e.server != server
            || e.dry_run
            || !matches!(e.operation, Operation::Patch | Operation::Rollback)
        {
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

/// The `metadata.managedFields` entries of `obj`.
fn managed(obj: &Value) -> &[Value] {
    obj.pointer("/metadata/managedFields")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// The identity of a managedFields entry: manager, operation, subresource, time.
fn entry_key(m: &Value) -> [Option<&Value>; 4] {
    ["manager", "operation", "subresource", "time"].map(|k| m.get(k))
}

/// The first 19 characters of an RFC 3339 time (`YYYY-MM-DDTHH:MM:SS`): managedFields
/// times are whole seconds.
fn second(t: &str) -> String {
    t.chars().take(19).collect()
}

/// The managedFields entries of `live` written since our change `e` (pure), newest first:
/// those the journaled after-state does not hold with the same manager, operation,
/// subresource and time; for a record without an after-state, those with a time after
/// the record's second (a write in the same second as ours is then not seen).
pub fn writers_since<'v>(e: &Entry, live: &'v Value) -> Vec<&'v Value> {
    let ours: Option<Vec<[Option<&Value>; 4]>> = e
        .after
        .as_ref()
        .filter(|a| a.pointer("/metadata/managedFields").is_some())
        .map(|a| managed(a).iter().map(entry_key).collect());
    let since = second(&e.timestamp);
    let mut out: Vec<&Value> = managed(live)
        .iter()
        .filter(|m| match &ours {
            Some(ours) => !ours.contains(&entry_key(m)),
            None => m
                .get("time")
                .and_then(Value::as_str)
                .is_some_and(|t| second(t) > since),
        })
        .collect();
    out.sort_by(|a, b| {
        let t = |m: &Value| {
            m.get("time")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string()
        };
        t(b).cmp(&t(a))
    });
    out
}

/// Whether a `fieldsV1` set holds the field at `pointer` of `obj` (pure): the field itself,
/// a field under it, or a list above it that the manager owns whole (an atomic list, a leaf
/// `{}`; an atomic map or struct cannot be told from a granular one without the schema and
/// does not count). Object fields are `f:NAME`; a list element is matched against `obj`'s
/// element at the pointer's index as `k:{"name":"web"}` (an associative list's keys), `v:…`
/// (a set's value) or `i:N` (its index) — the encoding of sigs.k8s.io/structured-merge-diff
/// `fieldpath` (serialize-pe.go). The whole object (`""`) is held by no set.
pub fn holds(set: &Value, obj: &Value, pointer: &str) -> bool {
    let mut node = set;
    let mut cur = Some(obj);
    let mut depth = 0;
    for raw in pointer.split('/').skip(1) {
        let token = raw.replace("~1", "/").replace("~0", "~");
        let Some(map) = node.as_object() else {
            return false;
        };
        if depth > 0 && map.is_empty() {
            // A leaf above the field: an atomic list owned whole. Above a map or struct it
            // is only the field's existence (its children are listed when owned; a set
            // emptied by another manager's update reads `"f:data": {}`), so not the field.
            return matches!(cur, Some(Value::Array(_)));
        }
        let next = match cur {
            Some(Value::Array(items)) => {
                let element = token.parse::<usize>().ok().and_then(|i| items.get(i));
                element.and_then(|el| {
                    map.iter()
                        .find(|(k, _)| element_matches(k, el, &token))
                        .map(|(_, v)| v)
                })
            }
            _ => map.get(&format!("f:{token}")),
        };
        let Some(next) = next else {
            return false;
        };
        node = next;
        cur = cur.and_then(|c| match c {
            Value::Array(a) => token.parse::<usize>().ok().and_then(|i| a.get(i)),
            other => other.get(&token),
        });
        depth += 1;
    }
    depth > 0
}

/// Whether the `fieldsV1` key `key` names the list element `el` at index `index`.
fn element_matches(key: &str, el: &Value, index: &str) -> bool {
    if let Some(k) = key.strip_prefix("k:") {
        serde_json::from_str::<serde_json::Map<String, Value>>(k)
            .is_ok_and(|m| m.iter().all(|(f, v)| el.get(f) == Some(v)))
    } else if let Some(v) = key.strip_prefix("v:") {
        serde_json::from_str::<Value>(v).is_ok_and(|v| &v == el)
    } else {
        key.strip_prefix("i:") == Some(index)
    }
}

/// The managers of `live` that own the field at `pointer` now ([`holds`]), newest first.
pub fn owners(live: &Value, pointer: &str) -> Vec<Manager> {
    let mut out: Vec<Manager> = managed(live)
        .iter()
        .filter(|m| {
            m.get("fieldsV1")
                .is_some_and(|set| holds(set, live, pointer))
        })
        .map(Manager::of)
        .collect();
    out.sort_by(|a, b| b.time.cmp(&a.time));
    out
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
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A successful merge patch of ConfigMap `shop/web` (built from JSON, so new journal
    /// fields need no edit here).
    fn entry(extra: Value) -> Entry {
        let mut v = json!({"id": "1", "session": "s", "timestamp": "2026-12-02T08:00:00.5Z",
            "plugin": "myops", "user": "admin", "context": "admin", "server": "https://h",
            "apiVersion": "v1", "kind": "ConfigMap", "namespace": "shop", "name": "web",
            "uid": "u1", "operation": "patch", "patchType": "merge",
            "patch": {"data": {"color": "green"}}, "dryRun": false,
            "before": {"kind": "ConfigMap", "data": {"color": "blue"}},
            "resourceVersionAfter": "7", "result": "success", "durationSeconds": 0.1});
        for (k, x) in extra.as_object().unwrap() {
            v[k] = x.clone();
        }
        serde_json::from_value(v).unwrap()
    }

    fn mf(manager: &str, time: &str, fields: Value) -> Value {
        json!({"manager": manager, "operation": "Update", "apiVersion": "v1", "time": time,
            "fieldsType": "FieldsV1", "fieldsV1": fields})
    }

    #[test]
    fn fields_v1_holds_fields_list_elements_by_key_value_and_atomic_parents() {
        let obj = json!({"spec": {"replicas": 3, "template": {"spec": {"containers": [
            {"name": "web", "image": "web:2", "args": ["a", "b"]}]}},
            "finalizers": ["x"]}});
        let set = json!({"f:spec": {"f:replicas": {}, "f:template": {"f:spec": {"f:containers": {
            "k:{\"name\":\"web\"}": {".": {}, "f:image": {}, "f:args": {}}}}}, "f:finalizers": {"v:\"x\"": {}}}});
        for p in [
            "/spec/replicas",
            "/spec/template/spec/containers/0/image",
            "/spec/template/spec/containers/0/args/1",
            "/spec/template/spec/containers",
            "/spec/finalizers/0",
        ] {
            assert!(holds(&set, &obj, p), "{p}");
        }
        for p in [
            "",
            "/spec/paused",
            "/spec/template/spec/containers/1/image",
            "/spec/template/spec/containers/0/name",
            "/metadata",
        ] {
            assert!(!holds(&set, &obj, p), "{p}");
        }
        let other = json!({"spec": {"template": {"spec": {"containers": [{"name": "sidecar"}]}}}});
        assert!(!holds(
            &set,
            &other,
            "/spec/template/spec/containers/0/image"
        ));
        // `"f:data": {}` (what kubectl-create keeps after kubectl-patch took `color`) owns
        // the map's existence, not its keys.
        let cm = json!({"data": {"color": "red"}});
        assert!(!holds(&json!({"f:data": {}}), &cm, "/data/color"));
        assert!(holds(&json!({"f:data": {}}), &cm, "/data"));
        let by_index = json!({"f:spec": {"f:finalizers": {"i:0": {}}}});
        assert!(holds(&by_index, &obj, "/spec/finalizers/0"));
    }

    #[test]
    fn the_same_resource_version_is_no_drift_without_a_diff() {
        let e = entry(json!({"after": {"kind": "ConfigMap", "data": {"color": "green"}}}));
        let live =
            json!({"metadata": {"resourceVersion": "7", "uid": "u1"}, "data": {"color": "red"}});
        let d = compare(&e, &live);
        assert_eq!(d.state, State::Unchanged);
        assert!(d.fields.is_empty());
    }

    #[test]
    fn a_changed_field_names_its_owner_now_and_a_removed_one_the_writers_since() {
        let ours = mf(
            "kubectl-myops",
            "2026-12-02T08:00:00Z",
            json!({"f:data": {"f:color": {}, "f:size": {}}}),
        );
        let e = entry(
            json!({"after": {"kind": "ConfigMap", "metadata": {"resourceVersion": "7",
            "uid": "u1", "managedFields": [ours.clone()]}, "data": {"color": "green", "size": "m"}}}),
        );
        let patcher = mf(
            "kubectl-patch",
            "2026-12-02T08:00:00Z",
            json!({"f:data": {"f:color": {}}}),
        );
        let live = json!({"metadata": {"resourceVersion": "9", "uid": "u1",
            "managedFields": [mf("kubectl-myops", "2026-12-02T08:00:00Z", json!({})), patcher]},
            "data": {"color": "red"}});
        let d = compare(&e, &live);
        assert_eq!(d.state, State::Drifted);
        assert_eq!(d.live_resource_version.as_deref(), Some("9"));
        let fields: Vec<(&str, &str, bool)> = d
            .fields
            .iter()
            .map(|f| (f.field.as_str(), f.change.as_str(), f.owned))
            .collect();
        assert_eq!(
            fields,
            [
                ("data.color", "data.color: \"green\" → \"red\"", true),
                ("data.size", "- data.size (was \"m\")", false)
            ]
        );
        // kubectl-patch wrote in the same second as ours and is still seen (the after-state's
        // managedFields decide, not the time); our own entry is not a writer since.
        let names: Vec<&str> = d.writers_since.iter().map(|m| m.manager.as_str()).collect();
        assert_eq!(names, ["kubectl-patch"], "{d:?}");
        assert_eq!(d.fields[0].managers[0].manager, "kubectl-patch");
        assert_eq!(d.fields[0].managers.len(), 1);
    }

    #[test]
    fn a_record_without_an_after_state_replays_a_merge_patch_and_not_a_strategic_list() {
        let e = entry(json!({}));
        assert_eq!(
            expected(&e).unwrap(),
            json!({"kind": "ConfigMap", "data": {"color": "green"}})
        );
        let live = json!({"metadata": {"resourceVersion": "8", "uid": "u1", "managedFields": [
            mf("kubectl-myops", "2026-12-02T08:00:00Z", json!({"f:data": {}})),
            mf("kubectl-edit", "2026-12-02T08:05:00Z", json!({"f:data": {"f:color": {}}}))]},
            "data": {"color": "red"}});
        let d = compare(&e, &live);
        assert_eq!(d.state, State::Drifted);
        let names: Vec<&str> = d.writers_since.iter().map(|m| m.manager.as_str()).collect();
        assert_eq!(names, ["kubectl-edit"], "a write in our second is ours");
        let list = entry(json!({"patchType": "strategic",
            "patch": {"spec": {"containers": [{"name": "a", "image": "b"}]}}}));
        assert_eq!(expected(&list), None);
        let d = compare(&list, &live);
        assert_eq!(d.state, State::Drifted);
        assert!(
            d.fields.is_empty() && d.notes[0].contains("not known"),
            "{d:?}"
        );
        let scalar = entry(json!({"patchType": "strategic"}));
        assert!(expected(&scalar).is_some());
    }

    #[test]
    fn a_secret_value_written_since_is_reported_uncertain_and_never_shown() {
        let ours = mf(
            "kubectl-myops",
            "2026-12-02T08:00:00Z",
            json!({"f:metadata": {"f:labels": {"f:a": {}}}}),
        );
        let e = entry(json!({"kind": "Secret", "after": {"kind": "Secret",
            "metadata": {"uid": "u1", "managedFields": [ours.clone(), mf("kubectl-create", "2026-12-02T07:00:00Z", json!({"f:data": {".": {}, "f:password": {}, "f:user": {}}}))]},
            "data": {"password": "<redacted> (changed)", "user": "<redacted>"}}}));
        let live = json!({"kind": "Secret", "metadata": {"resourceVersion": "9", "uid": "u1",
            "annotations": {"kubectl.kubernetes.io/last-applied-configuration": "{\"data\":{\"password\":\"c2VjcmV0\"}}"},
            "managedFields": [ours, mf("kubectl-create", "2026-12-02T07:00:00Z", json!({"f:data": {"f:user": {}}})),
                mf("kubectl-patch", "2026-12-02T08:01:00Z", json!({"f:data": {"f:password": {}, "f:token": {}}}))]},
            "data": {"password": "c2VjcmV0", "user": "YXBw", "token": "dG9r"}});
        let d = compare(&e, &live);
        assert_eq!(d.state, State::Drifted);
        let fields: Vec<(&str, bool, &str)> = d
            .fields
            .iter()
            .map(|f| (f.field.as_str(), f.certain, f.managers[0].manager.as_str()))
            .collect();
        assert_eq!(
            fields,
            [
                ("data.token", true, "kubectl-patch"),
                ("data.password", false, "kubectl-patch")
            ]
        );
        let text = serde_json::to_string(&d).unwrap();
        for secret in ["c2VjcmV0", "YXBw", "dG9r", "last-applied"] {
            assert!(!text.contains(secret), "{secret} in {text}");
        }
        assert_eq!(d.fields[0].change, "+ data.token: \"***\"");
    }

    #[test]
    fn status_and_controller_annotations_are_not_drift_nor_their_writers() {
        let ours = mf(
            "kubectl-myops",
            "2026-12-02T08:00:00Z",
            json!({"f:spec": {"f:replicas": {}}}),
        );
        let e = entry(
            json!({"apiVersion": "apps/v1", "kind": "Deployment", "after": {
            "metadata": {"uid": "u1", "annotations": {"deployment.kubernetes.io/revision": "1"},
                "managedFields": [ours.clone()]},
            "spec": {"replicas": 3}, "status": {"replicas": 2}}}),
        );
        let mut status = mf(
            "kube-controller-manager",
            "2026-12-02T08:00:01Z",
            json!({"f:status": {"f:replicas": {}}}),
        );
        status["subresource"] = json!("status");
        let live = json!({"metadata": {"uid": "u1", "resourceVersion": "9",
            "annotations": {"deployment.kubernetes.io/revision": "2"},
            "managedFields": [ours, status,
                mf("kube-controller-manager", "2026-12-02T08:00:01Z", json!({"f:metadata": {"f:annotations": {".": {}, "f:deployment.kubernetes.io/revision": {}}}}))]},
            "spec": {"replicas": 3}, "status": {"replicas": 3}});
        let d = compare(&e, &live);
        assert_eq!(d.state, State::Unchanged, "{d:?}");
        assert!(d.fields.is_empty());
        let writers: Vec<Option<&str>> = d
            .writers_since
            .iter()
            .map(|m| m.subresource.as_deref())
            .collect();
        assert_eq!(writers, [None], "the status write is left out: {d:?}");
        assert!(
            d.notes[0].contains("resourceVersion moved (7 → 9)"),
            "{d:?}"
        );
    }

    #[test]
    fn another_uid_is_a_replaced_object_and_baselines_skip_dry_runs_failures_and_other_servers() {
        let e = entry(json!({}));
        let live = json!({"metadata": {"resourceVersion": "1", "uid": "u2"}});
        assert_eq!(compare(&e, &live).state, State::Replaced);
        let records = vec![
            entry(json!({"id": "a"})),
            entry(json!({"id": "b", "dryRun": true})),
            entry(json!({"id": "c", "result": "denied"})),
            entry(json!({"id": "d", "server": "https://other"})),
            entry(json!({"id": "e", "result": "pending"})),
            entry(json!({"id": "f", "name": "api", "apiVersion": "v1"})),
        ];
        let b = baselines(records, "https://h");
        let ids: Vec<(&str, Option<&str>)> = b
            .iter()
            .map(|b| (b.entry.id.as_str(), b.unknown_after.as_deref()))
            .collect();
        assert_eq!(ids, [("f", None), ("a", Some("e"))]);
    }
}
