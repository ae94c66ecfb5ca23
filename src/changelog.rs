//! The change log (ARCHITECTURE §7, as amended by issue 9): one JSON object per line in
//! `$MYOPS_HOME/changelog.jsonl`, appended under an exclusive lock and fsynced, so concurrent
//! processes never interleave lines and a crash never loses an acknowledged record.
//!
//! Write-ahead: a mutation is journaled *before* its request is sent. [`Journal::open`]
//! proves the log can be opened for appending and locked (otherwise the mutation is refused
//! and nothing is sent); an intent record (`result: "pending"`) is appended and fsynced
//! before the request; the outcome is appended after it as a *complete* record with the same
//! id — every intent field plus `result`, `resourceVersionAfter` and `durationSeconds` — so
//! the last record of an id stands alone (`jq` users need not join lines). An id whose last
//! record is still `pending` reads as "outcome unknown" ([`Entry::outcome_unknown`]): the
//! process died between the two, and nobody may assume the request succeeded.
//!
//! Entries are built by pure functions ([`Entry`], [`redact`], [`latest`]); [`Journal`] is the
//! only writer. Secret `data`/`stringData` values are replaced before anything is written: a
//! credential never reaches the log.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::fsutil;

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
}

/// One change-log line (field names and meaning: ARCHITECTURE §7).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    /// Unique id: `<unix milliseconds, hex>-<pid, hex>-<sequence in this process, hex>`.
    pub id: String,
    /// The invocation's session id, shared by every record of one command and sent to the
    /// API server in the `Kubectl-Session` header and the User-Agent (so an audit log joins
    /// to the journal). Empty in records written before issue 9.
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
    /// `metadata.resourceVersion` after the change.
    pub resource_version_after: Option<String>,
    /// `pending` in an intent record (written before the request), then `success`, `denied`
    /// or the error (a Status message) in the outcome record.
    pub result: String,
    /// Wall time of the attempt, in seconds.
    pub duration_seconds: f64,
}

/// The `result` of an intent record: the request may or may not have been sent.
pub const PENDING: &str = "pending";

impl Entry {
    /// Whether this (last) record of an id is an intent without an outcome: the process
    /// stopped between writing the intent and the outcome, so the request may or may not
    /// have reached the server.
    pub fn outcome_unknown(&self) -> bool {
        self.result == PENDING
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

/// Why the change log could not be written.
#[derive(Debug, thiserror::Error)]
#[error(
    "cannot write the change log {path}: {source}; check MYOPS_HOME's permissions and free space"
)]
pub struct ChangelogError {
    /// The log file.
    pub path: PathBuf,
    /// The I/O error.
    #[source]
    pub source: std::io::Error,
}

/// The log file under `home`.
pub fn path(home: &Path) -> PathBuf {
    home.join("changelog.jsonl")
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

/// Replaces the values of a Secret's `data` and `stringData` with `"<redacted>"` (keys kept,
/// so the entry still says which keys existed). Other kinds are returned unchanged.
pub fn redact(mut object: Value) -> Value {
    if object.get("kind").and_then(Value::as_str) == Some("Secret") {
        for field in ["data", "stringData"] {
            if let Some(Value::Object(m)) = object.get_mut(field) {
                for v in m.values_mut() {
                    *v = Value::String("<redacted>".into());
                }
            }
        }
        if let Some(Value::Object(ann)) = object.pointer_mut("/metadata/annotations") {
            ann.remove("kubectl.kubernetes.io/last-applied-configuration");
        }
    }
    object
}

/// [`redact`] for an object of `kind` that may lack its `kind` field (objects read through
/// a typed or dynamic API often do): the field is set first, so a Secret is always recognised.
pub fn redact_as(kind: &str, mut object: Value) -> Value {
    if let Some(o) = object.as_object_mut() {
        o.entry("kind")
            .or_insert_with(|| Value::String(kind.into()));
    }
    redact(object)
}

/// Redacts a patch body aimed at a Secret: `data`/`stringData` values of a merge or
/// strategic patch, and the `value` of JSON-patch operations under `/data` or `/stringData`.
/// Patches for other kinds are returned unchanged.
pub fn redact_patch(kind: &str, patch: Value) -> Value {
    if kind != "Secret" {
        return patch;
    }
    match patch {
        Value::Array(ops) => Value::Array(
            ops.into_iter()
                .map(|mut op| {
                    let path = op
                        .get("path")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_string();
                    if (path.starts_with("/data") || path.starts_with("/stringData"))
                        && let Some(v) = op.get_mut("value")
                    {
                        *v = Value::String("<redacted>".into());
                    }
                    op
                })
                .collect(),
        ),
        Value::Object(mut m) => {
            m.insert("kind".into(), Value::String("Secret".into()));
            let mut v = redact(Value::Object(m));
            if let Some(o) = v.as_object_mut() {
                o.remove("kind");
            }
            v
        }
        other => other,
    }
}

/// Reads every entry; lines that do not parse are skipped and counted (a torn last line
/// after a crash must not hide the rest).
///
/// # Errors
/// [`ChangelogError`] when the file exists but cannot be read.
pub fn read_all(home: &Path) -> Result<(Vec<Entry>, usize), ChangelogError> {
    let path = path(home);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Vec::new(), 0)),
        Err(source) => return Err(ChangelogError { path, source }),
    };
    let mut bad = 0;
    let entries = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .filter_map(|l| serde_json::from_str::<Entry>(l).map_err(|_| bad += 1).ok())
        .collect();
    Ok((entries, bad))
}

/// The change log of one `MYOPS_HOME`, proven writable: obtained only through
/// [`Journal::open`], so holding one means the log could be opened for appending and locked
/// when the command started.
#[derive(Debug, Clone)]
pub struct Journal {
    home: PathBuf,
}

impl Journal {
    /// Creates `home` (0700) and the log file (0600) if missing, opens the log for appending
    /// and takes its lock once: the proof, before any mutating request, that records can be
    /// written.
    ///
    /// # Errors
    /// [`ChangelogError`] naming the path and the cause (MYOPS_HOME is a file, read-only,
    /// not ours); the caller refuses the mutation and sends nothing.
    pub fn open(home: &Path) -> Result<Journal, ChangelogError> {
        let path = path(home);
        let err = |source| ChangelogError {
            path: path.clone(),
            source,
        };
        if home.exists() && !home.is_dir() {
            return Err(err(std::io::Error::other(format!(
                "MYOPS_HOME {} is not a directory",
                home.display()
            ))));
        }
        fsutil::ensure_private_dir(home).map_err(err)?;
        let _lock = fsutil::lock_exclusive(&home.join("changelog.lock")).map_err(err)?;
        open_log(&path).map_err(err)?;
        Ok(Journal {
            home: home.to_path_buf(),
        })
    }

    /// The log file.
    pub fn path(&self) -> PathBuf {
        path(&self.home)
    }

    /// Appends `entry` as one line under an exclusive lock and fsyncs it before returning.
    ///
    /// # Errors
    /// [`ChangelogError`] when the lock, write or fsync fails. For an intent record the
    /// caller must then not send the request.
    pub fn append(&self, entry: &Entry) -> Result<(), ChangelogError> {
        append(&self.home, entry)
    }
}

/// Opens the log for appending, creating it with mode 0600.
fn open_log(path: &Path) -> std::io::Result<std::fs::File> {
    let mut o = std::fs::OpenOptions::new();
    o.create(true).append(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut o, 0o600);
    o.open(path)
}

/// Appends `entry` as one line under an exclusive lock and fsyncs it before returning.
fn append(home: &Path, entry: &Entry) -> Result<(), ChangelogError> {
    let path = path(home);
    let err = |source| ChangelogError {
        path: path.clone(),
        source,
    };
    let mut line = serde_json::to_vec(entry).map_err(|e| err(std::io::Error::other(e)))?;
    line.push(b'\n');
    let _lock = fsutil::lock_exclusive(&home.join("changelog.lock")).map_err(err)?;
    let mut f = open_log(&path).map_err(err)?;
    f.write_all(&line).map_err(err)?;
    f.sync_all().map_err(err)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(name: &str) -> Entry {
        Entry {
            id: new_id(),
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
            resource_version_after: Some("42".into()),
            result: "success".into(),
            duration_seconds: 0.25,
        }
    }

    #[test]
    fn secret_values_are_redacted_and_other_kinds_untouched() {
        let s = serde_json::json!({"kind": "Secret", "data": {"password": "aHVudGVyMg=="}, "stringData": {"token": "t0k3n"}});
        let r = redact(s);
        assert_eq!(r["data"]["password"], "<redacted>");
        assert_eq!(r["stringData"]["token"], "<redacted>");
        assert!(!r.to_string().contains("aHVudGVyMg") && !r.to_string().contains("t0k3n"));
        let cm = serde_json::json!({"kind": "ConfigMap", "data": {"a": "b"}});
        assert_eq!(redact(cm.clone()), cm);
    }

    #[test]
    fn secret_patches_are_redacted_in_every_patch_form() {
        let merge = serde_json::json!({"data": {"password": "aHVudGVyMg=="}, "metadata": {"labels": {"a": "b"}}});
        let r = redact_patch("Secret", merge);
        assert_eq!(
            r,
            serde_json::json!({"data": {"password": "<redacted>"}, "metadata": {"labels": {"a": "b"}}})
        );
        let ops = serde_json::json!([{"op": "replace", "path": "/data/password", "value": "aHVudGVyMg=="},
            {"op": "add", "path": "/metadata/labels/x", "value": "y"}]);
        let r = redact_patch("Secret", ops);
        assert_eq!(r[0]["value"], "<redacted>");
        assert_eq!(r[1]["value"], "y");
        let cm = serde_json::json!({"data": {"a": "b"}});
        assert_eq!(redact_patch("ConfigMap", cm.clone()), cm);
    }

    #[test]
    fn concurrent_appends_give_one_valid_line_each() {
        let home = tempfile::tempdir().unwrap();
        let threads: Vec<_> = (0..8)
            .map(|t| {
                let journal = Journal::open(home.path()).unwrap();
                std::thread::spawn(move || {
                    for i in 0..25 {
                        journal.append(&entry(&format!("crd-{t}-{i}"))).unwrap();
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        let text = std::fs::read_to_string(path(home.path())).unwrap();
        let entries: Vec<Entry> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(entries.len(), 200);
        assert_eq!(entries[0].operation, Operation::CrdApply);
        let v: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        assert_eq!(v["operation"], "crd-apply");
        assert_eq!(v["resourceVersionAfter"], "42");
        assert!(v["timestamp"].as_str().unwrap().ends_with('Z'));
        let ids: std::collections::HashSet<&str> = entries.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(
            ids.len(),
            200,
            "ids are unique across threads of one process"
        );
    }

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
    fn open_refuses_a_home_that_is_a_file_naming_the_path() {
        let d = tempfile::tempdir().unwrap();
        let home = d.path().join("home");
        std::fs::write(&home, "x").unwrap();
        let e = Journal::open(&home).unwrap_err().to_string();
        assert!(
            e.starts_with(&format!(
                "cannot write the change log {}/changelog.jsonl",
                home.display()
            )),
            "{e}"
        );
        assert!(e.contains("is not a directory"), "{e}");
    }

    #[test]
    fn the_log_is_created_private() {
        use std::os::unix::fs::PermissionsExt;
        let d = tempfile::tempdir().unwrap();
        let j = Journal::open(&d.path().join("h")).unwrap();
        j.append(&entry("a")).unwrap();
        let mode = std::fs::metadata(j.path()).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }
}
