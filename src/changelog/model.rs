//! The change-log record ([`Entry`]) and the pure functions over records: ids, the last
//! record of each id, and whether the records of one id agree.

use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The operation an entry records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Operation {
    /// `patch`.
    Patch,
    /// A CRD server-side apply by `crds sync`/`crds watch`.
    CrdApply,
    /// A CRD deleted by `crds watch --prune`.
    CrdPrune,
    /// `rollback`.
    Rollback,
    /// `delete`: the object's whole before-state is journaled before the DELETE. A record
    /// with a [`Entry::parent`] is an object that went with a namespace or CRD delete
    /// (result [`SNAPSHOT`]): journaled, never sent a request of its own.
    Delete,
    /// `undelete` (and `rollback` of a delete entry): the object created again from the
    /// before-state of a delete entry.
    Undelete,
    /// `apply`: a server-side apply of a manifest's object (created or updated).
    Apply,
    /// `scale`: the replicas set through the `scale` subresource.
    Scale,
    /// `label`: labels added, changed or removed.
    Label,
    /// `annotate`: annotations added, changed or removed.
    Annotate,
    /// `edit`: the difference of an edited object, sent as a patch.
    Edit,
    /// `rollout restart` or `rollout undo`: a patch of the pod template.
    Rollout,
    /// `protect lift`: a lift of plugin.yaml protection stored in MYOPS_HOME, not a change
    /// to the cluster (kind [`PROTECTION_LIFT`], apiVersion [`MYOPS_API_VERSION`], name the
    /// context, namespace the lifted one); `rollback` refuses it.
    ProtectLift,
    /// `protect end`: the lifts of a context ended (as [`Operation::ProtectLift`]).
    ProtectEnd,
}

/// The `kind` of the entries `protect lift` and `protect end` journal: what they change is
/// the local lift of protection, not an object of the cluster.
pub const PROTECTION_LIFT: &str = "ProtectionLift";

/// The `apiVersion` of the entries `protect lift` and `protect end` journal (no API server
/// serves it: it names this tool's own local state).
pub const MYOPS_API_VERSION: &str = "myops/v1";

impl Operation {
    /// Whether the entry is a patch of the object's fields, whose journaled patch says which
    /// fields it touched: `patch`, `rollback`, and the verbs that send a patch (`scale`,
    /// `label`, `annotate`, `edit`, `rollout`). `changelog why` and `drift` read these.
    pub fn patches_fields(self) -> bool {
        matches!(
            self,
            Operation::Patch
                | Operation::Rollback
                | Operation::Scale
                | Operation::Label
                | Operation::Annotate
                | Operation::Edit
                | Operation::Rollout
        )
    }

    /// Whether the entry records a lift of protection or its end (`protect lift|end`):
    /// local state, journaled, never sent to the cluster, so it has no inverse and no
    /// object to read.
    pub fn is_protection(self) -> bool {
        matches!(self, Operation::ProtectLift | Operation::ProtectEnd)
    }
}

/// One change-log line (field names and meaning: docs/design.md, "File formats").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    /// Unique id: `<unix milliseconds, hex>-<pid, hex>-<sequence in this process, hex>`.
    /// Always the first member of a line (readers name a torn line by it).
    pub id: String,
    /// The record format's version: [`FORMAT_VERSION`] in every record this build writes
    /// (`Journal::append` sets it). Absent in older records, which read
    /// as version 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format_version: Option<u32>,
    /// The invocation's session id, shared by every record of one command and sent to the
    /// API server in the `Kubectl-Session` header and the User-Agent (so an audit log joins
    /// to the journal). Empty in older records, which have no `session`.
    #[serde(default)]
    pub session: String,
    /// RFC 3339 UTC time the attempt started.
    pub timestamp: String,
    /// plugin.yaml `name`.
    pub plugin: String,
    /// The user the API server sees (SelfSubjectReview), not the kubeconfig's user name.
    pub user: String,
    /// kubeconfig context, if any.
    pub context: Option<String>,
    /// API server URL.
    pub server: String,
    /// The object's `apiVersion`.
    pub api_version: String,
    /// The object's `kind`.
    pub kind: String,
    /// Namespace (`None` for cluster-scoped objects).
    pub namespace: Option<String>,
    /// Object name.
    pub name: String,
    /// Object uid, when known.
    pub uid: Option<String>,
    /// What was attempted.
    pub operation: Operation,
    /// Patch type (`apply`, `merge`, `json`, `strategic`), when a patch was sent.
    pub patch_type: Option<String>,
    /// The patch body, when a patch was sent.
    pub patch: Option<Value>,
    /// Whether this was a dry run.
    pub dry_run: bool,
    /// The full object before the change (redacted), `None` when it did not exist or could not be read.
    pub before: Option<Value>,
    /// The full object after the change, redacted like `before` but pairwise
    /// (`redact_after`: a Secret value that differs from the before-state reads
    /// `<redacted> (changed)`), so `changelog diff` needs no fetch. Set in the outcome record
    /// of a request the server answered (for a dry run: the object it would have been);
    /// absent in intent records, failures and older records.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<Value>,
    /// The reconciler the live object named ([`crate::rules::reconciler::detect`]): a
    /// patch of such an object was warned about, a rollback of it was forced (`--force`).
    /// Absent when none was found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reconciler: Option<crate::rules::reconciler::Reconciler>,
    /// For an object journaled with the delete of its namespace or CRD (the container), the
    /// id of the container's delete entry; absent otherwise and in older records.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    /// `metadata.resourceVersion` after the change.
    pub resource_version_after: Option<String>,
    /// How the outcome was found after the fact: set only in an outcome record that
    /// `changelog reconcile` appended for an intent without one, saying what the live object
    /// held when it was read (its resourceVersion and fields), or that a person decided it.
    /// `resourceVersionAfter` and `after` of such a record are the object as read then.
    /// Absent otherwise, and in older records (which therefore read unchanged).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reconciled: Option<String>,
    /// Why the change was made (`--reason`); absent when none was given, and in older records.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// How a plugin.yaml `protect:` rule that held for the change was answered
    /// (docs/protection.md): `confirmed on the terminal`, `--yes`, `--confirm-context`,
    /// `lifted until TIME (lift ID)`, `answered for the fan-out wave`; absent when no rule
    /// held, and in older records.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protection: Option<String>,
    /// The API server's `Audit-Id` answered to the request of an outcome record
    /// ([`crate::cluster::audit`]): the `auditID` of the request's event in the server's
    /// audit log. For a create that also wrote the status, the create's. Absent in intents,
    /// in records of no request (refusals, `--dry-run=client`, snapshots), when the answer was
    /// lost, and in older records.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub audit_id: Option<String>,
    /// The client the change was made through, beside the Kubernetes `user`: `mcp:NAME/VERSION`
    /// for a change an agent made through `kubectl myops mcp` (docs/agents.md); absent for a
    /// person's command, and in older records.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actor: Option<String>,
    /// `pending` in an intent record (written before the request), then `success`, `denied`
    /// or the error (a Status message) in the outcome record.
    pub result: String,
    /// Wall time of the attempt, in seconds.
    pub duration_seconds: f64,
}

/// The `result` of an intent record: the request may or may not have been sent.
pub const PENDING: &str = "pending";

/// How the `result` of an outcome record begins when the answer was lost after the request
/// may have reached the server (the connection reset or closed, the server stopped
/// mid-request, the deadline passed after sending): `outcome unknown: ERROR`. Such a record
/// reads as an intent alone does ([`Entry::outcome_unknown`]): the server may or may not have
/// made the change, and `changelog reconcile` decides it from the live object.
pub const LOST: &str = "outcome unknown";

/// The `result` of a change the server made.
pub const SUCCESS: &str = "success";

/// The `result` of a delete the server accepted while the object stays, held by finalizers
/// (`metadata.deletionTimestamp` set): it goes once they are cleared, and cannot be stopped.
pub const DELETING: &str = "deleting";

/// The `result` of an object journaled with the delete of its container (a namespace's
/// object, a CRD's custom resource; [`Entry::parent`]): no request was sent for it; it went
/// if the container's delete succeeded.
pub const SNAPSHOT: &str = "snapshot";

/// The version of the record format this build writes (`formatVersion`). Version 1 is the
/// format of records without the field; version 2 adds the field itself, and every other
/// member reads as in version 1.
pub const FORMAT_VERSION: u32 = 2;

impl Entry {
    /// Whether this (last) record of an id leaves the outcome unknown: an intent without an
    /// outcome (the process stopped between writing the two), or an outcome whose answer was
    /// lost after the request went ([`LOST`]) — either way the request may or may not have
    /// reached the server.
    pub fn outcome_unknown(&self) -> bool {
        self.result == PENDING || self.result.starts_with(LOST)
    }

    /// Whether the server made the change this (last) record describes: `success`, or a
    /// delete it accepted ([`DELETING`]).
    pub fn succeeded(&self) -> bool {
        self.result == SUCCESS || self.result == DELETING
    }

    /// The outcome record for this intent (pure): the same id and fields plus the result.
    pub fn with_outcome(
        &self,
        result: String,
        resource_version_after: Option<String>,
        duration_seconds: f64,
    ) -> Entry {
        Entry {
            result,
            resource_version_after,
            duration_seconds,
            ..self.clone()
        }
    }
}

/// The object an entry is about, as `kind/name` or `kind/namespace/name` (lowercase kind).
pub fn object_of(e: &Entry) -> String {
    let kind = e.kind.to_lowercase();
    match &e.namespace {
        Some(ns) => format!("{kind}/{ns}/{}", e.name),
        None => format!("{kind}/{}", e.name),
    }
}

/// The last record of every id, in the order the ids first appear (pure): an intent followed
/// by its outcome collapses to the outcome; an intent alone stays (outcome unknown).
pub fn latest(entries: Vec<Entry>) -> Vec<Entry> {
    let mut order: Vec<String> = Vec::new();
    let mut last: std::collections::HashMap<String, Entry> = std::collections::HashMap::new();
    for e in entries {
        if !last.contains_key(&e.id) {
            order.push(e.id.clone());
        }
        last.insert(e.id.clone(), e);
    }
    order
        .into_iter()
        .filter_map(|id| last.remove(&id))
        .collect()
}

/// Whether the records of one id disagree about what they record (pure): an intent and its
/// outcome share the object, operation, time and session, so records of one id that name
/// different ones come from an edited or copied log — the id is ambiguous.
pub fn ambiguous(records: &[&Entry]) -> bool {
    let key = |e: &Entry| {
        (
            e.session.clone(),
            e.timestamp.clone(),
            e.api_version.clone(),
            e.kind.clone(),
            e.namespace.clone(),
            e.name.clone(),
            e.operation,
        )
    };
    records.windows(2).any(|w| key(w[0]) != key(w[1]))
}

/// Ids handed out by this process so far (makes ids unique within a process).
static SEQUENCE: AtomicU64 = AtomicU64::new(0);

/// A fresh entry id: `<unix ms hex>-<pid hex>-<sequence hex>`. Unique within a process (the
/// sequence, even for concurrent CRD applies in one millisecond) and across processes (no
/// two live processes share a pid; a reused pid is a later millisecond).
pub fn new_id() -> String {
    let ms = jiff::Timestamp::now().as_millisecond();
    let n = SEQUENCE.fetch_add(1, Ordering::Relaxed);
    format!("{ms:x}-{:x}-{n:x}", std::process::id())
}

/// A fresh session id for one invocation: 128 bits from the OS random source as 32 hex
/// digits, falling back to time and pid when it cannot be read. Like kubectl's
/// `Kubectl-Session` header (kubectl ≥ 1.35), it ties every request and record of one run.
pub fn new_session_id() -> String {
    use std::io::Read;
    let mut b = [0u8; 16];
    let random = std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut b))
        .is_ok();
    if !random {
        let t =
            jiff::Timestamp::now().as_nanosecond() as u128 ^ ((std::process::id() as u128) << 64);
        b = t.to_be_bytes();
    }
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The current time as RFC 3339 UTC.
pub fn now_rfc3339() -> String {
    jiff::Timestamp::now().to_string()
}

/// A complete outcome record of a CRD apply of `name`, as this build writes it (for tests).
#[cfg(test)]
pub(crate) fn sample_entry(name: &str) -> Entry {
    Entry {
        id: new_id(),
        format_version: Some(FORMAT_VERSION),
        session: "s".into(),
        timestamp: now_rfc3339(),
        plugin: "myops".into(),
        user: "admin".into(),
        context: Some("admin".into()),
        server: "https://127.0.0.1:6443".into(),
        api_version: "apiextensions.k8s.io/v1".into(),
        kind: "CustomResourceDefinition".into(),
        namespace: None,
        name: name.into(),
        uid: None,
        operation: Operation::CrdApply,
        patch_type: Some("apply".into()),
        patch: None,
        dry_run: false,
        before: None,
        after: None,
        reconciler: None,
        resource_version_after: Some("42".into()),
        reconciled: None,
        reason: None,
        protection: None,
        audit_id: None,
        actor: None,
        parent: None,
        result: "success".into(),
        duration_seconds: 0.25,
    }
}

#[cfg(test)]
mod tests {
    use super::sample_entry as entry;
    use super::*;

    #[test]
    fn an_intent_without_an_outcome_reads_as_outcome_unknown_and_the_outcome_record_stands_alone() {
        let intent = Entry {
            result: PENDING.into(),
            resource_version_after: None,
            ..entry("a")
        };
        let other = entry("b");
        let done = intent.with_outcome("success".into(), Some("7".into()), 0.5);
        let l = latest(vec![intent.clone(), other.clone(), done.clone()]);
        assert_eq!(l.len(), 2);
        assert_eq!(
            l[0], done,
            "the outcome replaces its intent, in first-seen order"
        );
        assert_eq!(l[0].name, "a");
        assert!(!l[0].outcome_unknown());
        let l = latest(vec![intent.clone(), other]);
        assert!(l[0].outcome_unknown());
    }

    #[test]
    fn an_outcome_whose_answer_was_lost_reads_as_outcome_unknown_and_a_plain_failure_does_not() {
        let intent = Entry {
            result: PENDING.into(),
            ..entry("a")
        };
        let lost = intent.with_outcome(
            format!("{LOST}: cannot reach the API server https://x: connection reset"),
            None,
            0.5,
        );
        assert!(lost.outcome_unknown());
        assert!(!lost.succeeded());
        let refused = intent.with_outcome(
            "cannot reach the API server https://x: Connection refused".into(),
            None,
            0.1,
        );
        assert!(!refused.outcome_unknown());
        let answered = intent.with_outcome("Conflict (409): changed".into(), None, 0.1);
        assert!(!answered.outcome_unknown());
    }

    #[test]
    fn records_of_one_id_that_name_different_objects_are_ambiguous() {
        let a = entry("a");
        let done = a.with_outcome("success".into(), None, 0.1);
        assert!(!ambiguous(&[&a, &done]));
        let other = Entry {
            id: a.id.clone(),
            ..entry("b")
        };
        assert!(ambiguous(&[&a, &other]));
    }
}
