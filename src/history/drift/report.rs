//! The drift report (`drift -o json`, `myops.drift/v1`): what it says about each object.

use serde::Serialize;
use serde_json::Value;

use crate::changelog::{Entry, object_of};

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
    /// The teammate's mirrored entry that wrote the field last since our change, when the
    /// cluster mirror is configured and holds one ([`super::Teammates`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub changed_by: Option<super::TeamChange>,
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

/// `drift -o json`: the whole report (schema in docs/policies.md).
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
