//! The change log (ARCHITECTURE §7): one JSON object per line per mutation attempt in
//! `$MYOPS_HOME/changelog.jsonl`, appended under an exclusive lock and fsynced before the
//! command returns, so concurrent processes never interleave lines and a crash never loses
//! an acknowledged entry.
//!
//! Entries are built by pure functions ([`Entry`], [`redact`]); [`append`] is the only I/O.
//! Secret `data`/`stringData` values are replaced before anything is written: a credential
//! never reaches the log.

use std::io::Write;
use std::path::{Path, PathBuf};

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
    /// Unique id: `<unix milliseconds, hex>-<pid, hex>`.
    pub id: String,
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
    /// `success`, or the error (a Status message).
    pub result: String,
    /// Wall time of the attempt, in seconds.
    pub duration_seconds: f64,
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

/// A fresh entry id: `<unix ms hex>-<pid hex>` (unique per process per millisecond; the
/// lock serialises writers).
pub fn new_id() -> String {
    let ms = jiff::Timestamp::now().as_millisecond();
    format!("{ms:x}-{:x}", std::process::id())
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
                    let path = op.get("path").and_then(Value::as_str).unwrap_or("").to_string();
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

/// Appends `entry` as one line under an exclusive lock and fsyncs it before returning.
///
/// # Errors
/// [`ChangelogError`] when the lock, write or fsync fails; the caller reports it (the
/// mutation itself has already happened, so the error must be loud).
pub fn append(home: &Path, entry: &Entry) -> Result<(), ChangelogError> {
    let path = path(home);
    let err = |source| ChangelogError {
        path: path.clone(),
        source,
    };
    let mut line = serde_json::to_vec(entry).map_err(|e| err(std::io::Error::other(e)))?;
    line.push(b'\n');
    let _lock = fsutil::lock_exclusive(&home.join("changelog.lock")).map_err(err)?;
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map_err(err)?;
    f.write_all(&line).map_err(err)?;
    f.sync_all().map_err(err)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(name: &str) -> Entry {
        Entry {
            id: new_id(),
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
        assert_eq!(r, serde_json::json!({"data": {"password": "<redacted>"}, "metadata": {"labels": {"a": "b"}}}));
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
                let home = home.path().to_path_buf();
                std::thread::spawn(move || {
                    for i in 0..25 {
                        append(&home, &entry(&format!("crd-{t}-{i}"))).unwrap();
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
    }
}
