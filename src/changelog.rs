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
//! credential never reaches the log — which is also why a rollback can never put a Secret's
//! values back (`rollback` refuses such an entry rather than pretend, see
//! [`secret_data_keys`]).
//!
//! Integrity (issue 10): the log is a 0600 regular file in a 0700 MYOPS_HOME (an existing
//! log that others may read is tightened to 0600 when it is opened; a home that others may
//! enter earns a warning, [`home_warning`]); every append starts on a fresh line, so a line
//! torn by a crash mid-append never swallows the next record; and reading never fails on a
//! bad line: [`parse`] splits the bytes on `\n` and judges every line on its own — not UTF-8,
//! not JSON, torn, the wrong shape — counting and skipping the bad ones ([`InvalidLine`]).
//! Anything at the log's path that is not a regular file (a directory, a FIFO, a socket, a
//! dangling symbolic link) is refused before it is opened, so nothing ever blocks on it.
//!
//! Tamper evidence and retention (issue 15): every record appended carries `prev` and
//! `hash`, a SHA-256 chain over the records' canonical form ([`chain`], [`canonical`]), with
//! the chain's ends in `changelog.head`; the log is rotated to `changelog.jsonl.1` … by size
//! and age ([`retention`]), the chain running on across files, and readers read every
//! retained file, oldest first.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::fsutil;

pub mod canonical;
pub mod chain;
pub mod retention;

pub use retention::Retention;

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
    /// The full object after the change (issue 15), redacted like `before` but pairwise
    /// ([`redact_after`]: a Secret value that differs from the before-state reads
    /// `<redacted> (changed)`), so `changelog diff` needs no fetch. Set in the outcome record
    /// of a request the server answered (for a dry run: the object it would have been);
    /// absent in intent records, failures and records written before issue 15.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<Value>,
    /// The reconciler the live object named (issue 15, [`crate::reconciler::detect`]): a
    /// patch of such an object was warned about, a rollback of it was forced (`--force`).
    /// Absent when none was found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reconciler: Option<crate::reconciler::Reconciler>,
    /// `metadata.resourceVersion` after the change.
    pub resource_version_after: Option<String>,
    /// How the outcome was found after the fact (issue 17): set only in an outcome record
    /// that `changelog reconcile` appended for an intent without one, saying what the live
    /// object held when it was read (its resourceVersion and fields). `resourceVersionAfter`
    /// and `after` of such a record are the object as read then. Absent otherwise, and in
    /// records written before issue 17 (which therefore read unchanged).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reconciled: Option<String>,
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

/// Why the change log could not be written or read. Each reads as one sentence naming the
/// path, the cause and what to do; writing and reading failures say which they are (a
/// read error is never reported as "cannot write").
#[derive(Debug, thiserror::Error)]
pub enum ChangelogError {
    /// Appending (or proving that records can be appended) failed; the mutation is refused.
    #[error("cannot write the change log {path}: {why}")]
    Write {
        /// The log file.
        path: PathBuf,
        /// The cause and what to do.
        why: String,
    },
    /// Reading the log failed as a whole (single bad lines never do: see [`parse`]).
    #[error("cannot read the change log {path}: {why}")]
    Read {
        /// The log file.
        path: PathBuf,
        /// The cause and what to do.
        why: String,
    },
}

impl ChangelogError {
    /// A write failure from an I/O error, with the usual advice.
    fn write(path: &Path, e: &std::io::Error) -> ChangelogError {
        ChangelogError::Write {
            path: path.to_path_buf(),
            why: format!("{e}; check MYOPS_HOME's owner, permissions and free space"),
        }
    }

    /// A read failure from an I/O error, with the usual advice.
    fn read(path: &Path, e: &std::io::Error) -> ChangelogError {
        ChangelogError::Read {
            path: path.to_path_buf(),
            why: format!("{e}; check the file's owner and permissions"),
        }
    }

    /// The log file the error is about.
    pub fn path(&self) -> &Path {
        match self {
            ChangelogError::Write { path, .. } | ChangelogError::Read { path, .. } => path,
        }
    }
}

/// The stderr line for `n` skipped lines of the log at `path` (pure): the warning of every
/// command that reads the log (`changelog`, `drift`).
pub fn skipped_warning(n: usize, path: &Path) -> String {
    format!(
        "warning: {n} line(s) of {} are not valid change-log entries and were skipped; `kubectl myops changelog list --invalid` lists them",
        path.display()
    )
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

/// The marker of a Secret value in an after-state that differs from the before-state (or is
/// new): the value itself is never stored, the fact that it changed is ([`redact_after`]).
pub const REDACTED_CHANGED: &str = "<redacted> (changed)";

/// [`redact_as`] for an after-state, pairwise with the (unredacted) before-state: a Secret's
/// `data`/`stringData` value reads `<redacted>` when it equals the before value and
/// [`REDACTED_CHANGED`] when it differs or is new — kubectl diff's masking rule (its
/// `Masker`), so `changelog diff` can say `*** (before) → *** (after)` without a value.
pub fn redact_after(kind: &str, before: Option<&Value>, after: Value) -> Value {
    let mut changed: Vec<(&str, String)> = Vec::new();
    for field in ["data", "stringData"] {
        if let Some(Value::Object(m)) = after.get(field) {
            for (k, v) in m {
                if before.and_then(|b| b.get(field)).and_then(|d| d.get(k)) != Some(v) {
                    changed.push((field, k.clone()));
                }
            }
        }
    }
    let mut out = redact_as(kind, after);
    if out.get("kind").and_then(Value::as_str) == Some("Secret") {
        for (field, k) in changed {
            if let Some(v) = out.get_mut(field).and_then(|d| d.get_mut(&k)) {
                *v = Value::String(REDACTED_CHANGED.into());
            }
        }
    }
    out
}

/// The `last-applied-configuration` annotation as a JSON Pointer: `kubectl apply` keeps the
/// applied object in it, a Secret's values included.
const LAST_APPLIED_POINTER: &str =
    "/metadata/annotations/kubectl.kubernetes.io~1last-applied-configuration";

/// Redacts a patch body aimed at a Secret: `data`/`stringData` values of a merge or
/// strategic patch, and the `value` of JSON-patch operations under `/data` or `/stringData`,
/// of the `last-applied-configuration` annotation, or that write the whole object (path
/// `""`), its metadata or its annotations (redacted as [`redact`] redacts an object).
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
                    let Some(v) = op.get_mut("value") else {
                        return op;
                    };
                    if path.starts_with("/data")
                        || path.starts_with("/stringData")
                        || path == LAST_APPLIED_POINTER
                    {
                        *v = Value::String("<redacted>".into());
                    } else if path.is_empty()
                        || path == "/metadata"
                        || path == "/metadata/annotations"
                    {
                        // The whole object, its metadata or its annotations: redacted as an
                        // object would be (values kept out, last-applied dropped).
                        let mut doc = v.take();
                        if let Some(rest) = path.strip_prefix("/metadata") {
                            doc = match rest {
                                "" => serde_json::json!({"metadata": doc}),
                                _ => serde_json::json!({"metadata": {"annotations": doc}}),
                            };
                        }
                        let mut red = redact_as("Secret", doc);
                        *v = match path.as_str() {
                            "" => red,
                            "/metadata" => red["metadata"].take(),
                            _ => red["metadata"]["annotations"].take(),
                        };
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

/// One line of the log that is not a valid entry: where it is and why, never its content
/// (a line may hold anything, including a secret someone pasted into the file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidLine {
    /// The rotated file it is in (`changelog.jsonl.1`, …), `None` for the active file
    /// (`changelog.jsonl`) or bytes given to [`parse`].
    pub file: Option<String>,
    /// 1-based line number in the file.
    pub line: usize,
    /// Why it was skipped, one short phrase (`not UTF-8 …`, `not JSON …`, `torn: …`,
    /// `not a change-log entry: …`), followed by the line's length in bytes.
    pub reason: String,
}

/// The longest id a valid entry may have (ours are about 25 characters); longer ones, or
/// ids with spaces or control characters, come from an edited file, not from this tool.
const MAX_ID_LEN: usize = 128;

/// Splits the log's bytes into entries and invalid lines (pure; fuzzed; never panics).
///
/// Lines are separated by `\n` and judged one by one: a line that is not UTF-8, not JSON
/// (NUL bytes included), torn (the JSON ends early — a crash mid-append), of the wrong shape
/// (a missing field, a wrong type) or with an id that is empty, longer than 128 characters
/// or not printable ASCII is an [`InvalidLine`]; blank lines are ignored. A last line without
/// its newline is accepted when it is a complete entry (a hand-edited file) and otherwise
/// reported as torn. No reason quotes the line's content.
pub fn parse(bytes: &[u8]) -> (Vec<Entry>, Vec<InvalidLine>) {
    let mut entries = Vec::new();
    let mut invalid = Vec::new();
    for (line, raw, unterminated) in lines(bytes) {
        match judge(raw, unterminated) {
            Ok(e) => entries.push(e),
            Err(reason) => invalid.push(InvalidLine {
                file: None,
                line,
                reason,
            }),
        }
    }
    (entries, invalid)
}

/// The non-blank lines of `bytes` (pure): 1-based line number, the line without its `\n`
/// (and `\r`), and whether it is the last line and has no newline (a candidate torn append).
pub(crate) fn lines(bytes: &[u8]) -> impl Iterator<Item = (usize, &[u8], bool)> {
    let ends_with_newline = bytes.last() == Some(&b'\n');
    let count = bytes.iter().filter(|b| **b == b'\n').count() + 1;
    bytes
        .split(|b| *b == b'\n')
        .enumerate()
        .filter_map(move |(i, raw)| {
            let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
            let unterminated = i + 1 == count && !ends_with_newline;
            (!raw.iter().all(u8::is_ascii_whitespace)).then_some((i + 1, raw, unterminated))
        })
}

/// One line as an entry, or the reason it is not one with its length in bytes (pure; never
/// quoting the line); `unterminated` marks a last line without its newline, reported as torn.
pub(crate) fn judge(raw: &[u8], unterminated: bool) -> Result<Entry, String> {
    parse_line(raw).map_err(|why| {
        let why = if unterminated {
            format!(
                "torn: the last line ends without a newline and is not a complete entry ({why})"
            )
        } else {
            why
        };
        format!("{why}; {} bytes", raw.len())
    })
}

/// One line as an entry, or why it is not one (never quoting the line).
fn parse_line(raw: &[u8]) -> Result<Entry, String> {
    let text = std::str::from_utf8(raw)
        .map_err(|e| format!("not UTF-8 (invalid byte at column {})", e.valid_up_to() + 1))?;
    let entry: Entry = serde_json::from_str(text).map_err(|e| {
        use serde_json::error::Category;
        let column = e.column();
        match e.classify() {
            Category::Eof => format!("torn: the JSON ends early at column {column}"),
            Category::Syntax | Category::Io => {
                format!("not JSON (syntax error at column {column})")
            }
            Category::Data => {
                // serde names a missing or duplicate field by our own (static) field name;
                // every other data error may quote the line's value, so it is not repeated.
                let message = e.to_string();
                let field = ["missing field `", "duplicate field `"]
                    .iter()
                    .find_map(|prefix| {
                        let rest = message.strip_prefix(prefix)?;
                        let name = &rest[..rest.find('`')?];
                        Some(format!("{prefix}{name}`"))
                    });
                match field {
                    Some(f) => format!("not a change-log entry: {f}"),
                    None => format!(
                        "not a change-log entry: a field has the wrong type or value (at column {column})"
                    ),
                }
            }
        }
    })?;
    if entry.id.is_empty()
        || entry.id.len() > MAX_ID_LEN
        || !entry.id.bytes().all(|b| b.is_ascii_graphic())
    {
        return Err(
            "not a change-log entry: the id is empty, longer than 128 characters or not printable"
                .into(),
        );
    }
    Ok(entry)
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

/// The keys of a Secret's `data`/`stringData` a journaled patch touched (pure), from its
/// touched JSON pointers (`/data/password`, `/stringData/token`, or the whole `/data`): `None`
/// when the entry is not about a Secret or touched no Secret content. `Some` with an empty
/// list means the whole map was replaced. The `last-applied-configuration` annotation of a
/// Secret (it holds the values too, and is redacted) counts as Secret content.
///
/// The change log never stores Secret values ([`redact`]), so such a change cannot be
/// rolled back from it; the decision and its reasons are in the README's change-log section.
pub fn secret_data_keys(kind: &str, touched: &[String]) -> Option<Vec<String>> {
    if kind != "Secret" {
        return None;
    }
    let mut keys = Vec::new();
    let mut any = false;
    for p in touched {
        let unescape = |t: &str| t.replace("~1", "/").replace("~0", "~");
        let mut parts = p.split('/').skip(1);
        match (parts.next(), parts.next()) {
            (Some("data" | "stringData"), Some(key)) => {
                any = true;
                let key = unescape(key);
                if !keys.contains(&key) {
                    keys.push(key);
                }
            }
            // The whole map, or the whole object (a JSON-patch path "" or "/").
            (Some("data" | "stringData"), None) | (None, _) | (Some(""), None) => any = true,
            (Some("metadata"), Some("annotations")) => {
                let rest: Vec<&str> = parts.collect();
                if rest.is_empty() || rest[0] == "kubectl.kubernetes.io~1last-applied-configuration"
                {
                    any = true;
                }
            }
            (Some("metadata"), None) => any = true,
            _ => {}
        }
    }
    any.then_some(keys)
}

/// The warning for a MYOPS_HOME that others may enter (group or world permission bits set):
/// the change log in it holds full before-states of objects. `None` when the home is private,
/// does not exist or is not a directory (that is an error of its own). Like ssh, which warns about (and refuses) key files others can read.
pub fn home_warning(home: &Path) -> Option<String> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let meta = std::fs::metadata(home).ok().filter(|m| m.is_dir())?;
        let mode = meta.permissions().mode() & 0o777;
        (mode & 0o077 != 0).then(|| {
            format!(
                "warning: MYOPS_HOME {} is open to other users (mode {mode:04o}) and its change log holds full before-states of objects; run `chmod 700 {}`",
                home.display(),
                home.display()
            )
        })
    }
    #[cfg(not(unix))]
    {
        let _ = home;
        None
    }
}

/// What a non-regular file is, for messages ("a directory", "a FIFO (named pipe)", …).
fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
    }
    if meta.is_dir() {
        "a directory"
    } else if meta.is_symlink() {
        "a symbolic link"
    } else if meta.is_file() {
        "a regular file"
    } else {
        "not a regular file"
    }
}

/// Why `home` cannot hold the change log, if it cannot (it exists but is not a directory,
/// or is a symbolic link to nothing); `None` when it is a directory or does not exist yet.
fn home_problem(home: &Path) -> Option<String> {
    match std::fs::metadata(home) {
        Ok(m) if m.is_dir() => None,
        Ok(m) => Some(format!(
            "MYOPS_HOME {} is not a directory (it is {}); set MYOPS_HOME to a directory",
            home.display(),
            kind_of(&m)
        )),
        Err(_) => match std::fs::symlink_metadata(home) {
            Ok(m) if m.is_symlink() => Some(format!(
                "MYOPS_HOME {} is a symbolic link to {}, which does not exist; create that directory or set MYOPS_HOME to a directory",
                home.display(),
                std::fs::read_link(home)
                    .map(|t| t.display().to_string())
                    .unwrap_or_else(|_| "nothing".into())
            )),
            _ => None,
        },
    }
}

/// Why the log's path cannot be used as the log (it exists but is not a regular file after
/// following symbolic links, or is a link to nothing); `None` when it is a regular file or
/// does not exist. Checked before opening, so a FIFO is never opened (that would block).
fn log_problem(path: &Path) -> Option<String> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() => None,
        Ok(m) => Some(format!(
            "it is {}, not a regular file; move it away and a new log is started",
            kind_of(&m)
        )),
        Err(_) => std::fs::symlink_metadata(path)
            .is_ok_and(|m| m.is_symlink())
            .then(|| "it is a symbolic link to a file that does not exist; remove the link and a new log is started".to_string()),
    }
}

/// Reads every entry of every retained file ([`retention::files`], oldest first); lines
/// that are not valid entries are skipped and returned with their file, line numbers and
/// reasons ([`parse`]). A missing log is an empty one. Takes the writers' lock shared when
/// its file exists, so a record being appended (or a rotation) is not seen half-way;
/// reading never creates anything.
///
/// # Errors
/// [`ChangelogError::Read`] when MYOPS_HOME is not a directory, a log file is not a regular
/// file, or one cannot be opened or read as a whole.
pub fn read_all(home: &Path) -> Result<(Vec<Entry>, Vec<InvalidLine>), ChangelogError> {
    let (files, _) = read_files(home)?;
    let mut entries = Vec::new();
    let mut invalid = Vec::new();
    let active = path(home);
    let active = active.file_name().and_then(|n| n.to_str()).unwrap_or("");
    for (name, bytes) in files {
        let (e, mut i) = parse(&bytes);
        if name != active {
            for line in &mut i {
                line.file = Some(name.clone());
            }
        }
        entries.extend(e);
        invalid.extend(i);
    }
    Ok((entries, invalid))
}

/// The retained log files (name and bytes, oldest first; the active file only when it
/// exists) and `changelog.head` ([`chain::read_head`]), read together under the writers'
/// lock taken shared: what `changelog verify` walks.
///
/// # Errors
/// As [`read_all`].
pub fn read_files(home: &Path) -> Result<(chain::LogFiles, chain::HeadRead), ChangelogError> {
    if let Some(why) = home_problem(home) {
        return Err(ChangelogError::Read {
            path: path(home),
            why,
        });
    }
    // Best effort, and only on a regular lock file: opening a FIFO for reading would block.
    let lock = home.join("changelog.lock");
    let _lock = std::fs::metadata(&lock)
        .is_ok_and(|m| m.is_file())
        .then(|| std::fs::File::open(&lock).ok())
        .flatten()
        .filter(|f| f.lock_shared().is_ok());
    let mut files = Vec::new();
    for file in retention::files(home) {
        if let Some(bytes) = read_log_file(&file)? {
            let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("");
            files.push((name.to_string(), bytes));
        }
    }
    Ok((files, chain::read_head(home)))
}

/// The bytes of one log file, `None` when it does not exist; refused before opening when it
/// is not a regular file (a FIFO would block), and checked again once opened.
fn read_log_file(path: &Path) -> Result<Option<Vec<u8>>, ChangelogError> {
    let fail = |why: String| ChangelogError::Read {
        path: path.to_path_buf(),
        why,
    };
    if let Some(why) = log_problem(path) {
        return Err(fail(why));
    }
    let mut f = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(ChangelogError::read(path, &e)),
    };
    // The path was a regular file when checked; make sure the file opened still is one.
    match f.metadata() {
        Ok(m) if m.is_file() => {}
        Ok(m) => {
            return Err(fail(format!(
                "it is {}, not a regular file; move it away and a new log is started",
                kind_of(&m)
            )));
        }
        Err(e) => return Err(ChangelogError::read(path, &e)),
    }
    let mut bytes = Vec::new();
    f.read_to_end(&mut bytes)
        .map_err(|e| ChangelogError::read(path, &e))?;
    Ok(Some(bytes))
}

/// The change log of one `MYOPS_HOME`, proven writable: obtained only through
/// [`Journal::open`], so holding one means the log could be opened for appending and locked
/// when the command started.
#[derive(Debug, Clone)]
pub struct Journal {
    home: PathBuf,
    warning: Option<String>,
    retention: Retention,
}

impl Journal {
    /// Creates `home` (0700, with missing parents) and the log file (0600) if missing,
    /// tightens an existing log that others may read to 0600 (it holds full before-states),
    /// opens the log for appending and takes its lock once: the proof, before any mutating
    /// request, that records can be written.
    ///
    /// # Errors
    /// [`ChangelogError::Write`] naming the path and the cause — MYOPS_HOME is not a
    /// directory or a link to nothing, the log is a directory, a FIFO or another non-regular
    /// file (never opened, so nothing blocks), or the file system refuses — and what to do;
    /// the caller refuses the mutation and sends nothing.
    pub fn open(home: &Path) -> Result<Journal, ChangelogError> {
        let path = path(home);
        if let Some(why) = home_problem(home) {
            return Err(ChangelogError::Write { path, why });
        }
        fsutil::ensure_private_dir(home).map_err(|e| ChangelogError::write(&path, &e))?;
        let _lock = fsutil::lock_exclusive(&home.join("changelog.lock"))
            .map_err(|e| ChangelogError::write(&path, &e))?;
        open_log(&path)?;
        Ok(Journal {
            home: home.to_path_buf(),
            warning: home_warning(home),
            retention: Retention::default(),
        })
    }

    /// This journal rotating by `retention` (plugin.yaml `changelog`) instead of the
    /// defaults.
    pub fn with_retention(self, retention: Retention) -> Journal {
        Journal { retention, ..self }
    }

    /// The log file.
    pub fn path(&self) -> PathBuf {
        path(&self.home)
    }

    /// The `warning:` line for a MYOPS_HOME open to other users ([`home_warning`]), found
    /// when the journal was opened; the caller prints it once.
    pub fn warning(&self) -> Option<&str> {
        self.warning.as_deref()
    }

    /// Appends `entry` as one line under an exclusive lock and fsyncs it before returning,
    /// chained to the record before it ([`chain`]; `changelog.head` updated after), rotating
    /// the log first when it is due ([`retention`]). The line starts on a fresh line: when
    /// the log does not end with a newline (a record torn by a crash), one is written first,
    /// so the torn line stays one invalid line and this record stays readable.
    ///
    /// # Errors
    /// [`ChangelogError::Write`] when the lock, reading the last record's hash, rotation,
    /// the write, the fsync or updating `changelog.head` fails. For an intent record the
    /// caller must then not send the request.
    pub fn append(&self, entry: &Entry) -> Result<(), ChangelogError> {
        append(&self.home, entry, &self.retention)
    }
}

/// Opens the log for reading and appending, creating it with mode 0600; refuses a path that
/// is not a regular file before opening it, and tightens a log that others may access to
/// 0600.
fn open_log(path: &Path) -> Result<std::fs::File, ChangelogError> {
    if let Some(why) = log_problem(path) {
        return Err(ChangelogError::Write {
            path: path.to_path_buf(),
            why,
        });
    }
    let mut o = std::fs::OpenOptions::new();
    o.read(true).create(true).append(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut o, 0o600);
    let f = o.open(path).map_err(|e| ChangelogError::write(path, &e))?;
    let meta = f.metadata().map_err(|e| ChangelogError::write(path, &e))?;
    if !meta.is_file() {
        return Err(ChangelogError::Write {
            path: path.to_path_buf(),
            why: format!(
                "it is {}, not a regular file; move it away and a new log is started",
                kind_of(&meta)
            ),
        });
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if meta.permissions().mode() & 0o077 != 0 {
            f.set_permissions(std::fs::Permissions::from_mode(0o600))
                .map_err(|e| ChangelogError::write(path, &e))?;
        }
    }
    Ok(f)
}

/// The bytes to append for `line` to a log whose last byte is `last` (pure): a newline first
/// when the log is not empty and does not end with one.
fn framed(mut line: Vec<u8>, last: Option<u8>) -> Vec<u8> {
    line.push(b'\n');
    if last.is_some_and(|b| b != b'\n') {
        line.insert(0, b'\n');
    }
    line
}

/// Appends `entry`, every string passed through [`crate::redact::scrub_json`], as one line
/// (starting on a fresh line) chained to the last record ([`chain::seal`]) under an
/// exclusive lock, rotating first when `retention` says so; fsyncs it, then records its hash
/// in `changelog.head`.
fn append(home: &Path, entry: &Entry, retention: &Retention) -> Result<(), ChangelogError> {
    let path = path(home);
    let fail = |e: std::io::Error| ChangelogError::write(&path, &e);
    // The process-wide safety net: every string of the record (a server message quoting a
    // Secret, a URL with userinfo, a registered token) is scrubbed before it is stored.
    let mut record = serde_json::to_value(entry).map_err(|e| fail(std::io::Error::other(e)))?;
    crate::redact::scrub_json(&mut record);
    let _lock = fsutil::lock_exclusive(&home.join("changelog.lock")).map_err(fail)?;
    let mut f = open_log(&path)?;
    let tip = retention::chain_tip(home).map_err(fail)?;
    let (line, hash) = chain::seal(record, &tip).map_err(|e| fail(std::io::Error::other(e)))?;
    let mut len = f.metadata().map_err(fail)?.len();
    let first = (len > 0)
        .then(|| retention::first_timestamp(&path))
        .flatten();
    if retention
        .due(len, line.len() as u64 + 2, first, jiff::Timestamp::now())
        .is_some()
    {
        drop(f);
        retention::rotate(home, &tip).map_err(fail)?;
        f = open_log(&path)?;
        len = 0;
    }
    let last = if len == 0 {
        None
    } else {
        let mut b = [0u8; 1];
        #[cfg(unix)]
        std::os::unix::fs::FileExt::read_exact_at(&f, &mut b, len - 1).map_err(fail)?;
        Some(b[0])
    };
    if entry.result == PENDING {
        room_for_intent(home, line.len() as u64).map_err(|why| ChangelogError::Write {
            path: path.clone(),
            why,
        })?;
    }
    // The record and the head are one step: when any part fails (a disk that fills up
    // part-way through the line, or before the head is replaced), the log is cut back to
    // where it was, so it never holds a torn line or a record the head does not name.
    let cut_back = |f: &std::fs::File, e: std::io::Error| {
        let _ = f.set_len(len).and_then(|()| f.sync_all());
        e
    };
    f.write_all(&framed(line, last))
        .and_then(|()| f.sync_all())
        .map_err(|e| cut_back(&f, e))
        .map_err(fail)?;
    let base = chain::read_head(home)
        .ok()
        .flatten()
        .map_or(chain::GENESIS.to_string(), |h| h.base);
    chain::write_head(home, &chain::Head { head: hash, base })
        .map_err(|e| cut_back(&f, e))
        .map_err(|e| ChangelogError::Write {
            path: chain::head_path(home),
            why: format!(
                "{e}; the chain's head could not be updated, so the record was not kept; check MYOPS_HOME's owner, permissions and free space"
            ),
        })
}

/// Room an intent needs beyond its own line, in bytes: its outcome record (the intent's
/// fields plus the after-state, so up to twice the intent) and two replacements of
/// `changelog.head` (a file system block each), with slack.
const INTENT_SLACK: u64 = 64 * 1024;

/// Whether the file system of `home` has room for an intent of `line` bytes *and* its
/// outcome record (issue 17, disk full): an intent written to the last free bytes would
/// send the request and then fail to record what the server did. `Err` says how much is
/// free and what to do; a file system that cannot be asked (`statvfs` fails) or reports no
/// size is not refused here (the writes then report their own errors).
fn room_for_intent(home: &Path, line: u64) -> Result<(), String> {
    let need = line.saturating_mul(3).saturating_add(INTENT_SLACK);
    match fsutil::free_bytes(home) {
        Ok(Some(free)) if free < need => Err(format!(
            "only {free} bytes are free on its file system and a change needs about {need} (its intent and outcome records); free some space there and retry"
        )),
        _ => Ok(()),
    }
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
            after: None,
            reconciler: None,
            resource_version_after: Some("42".into()),
            reconciled: None,
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
    fn a_json_patch_writing_the_whole_secret_or_its_last_applied_annotation_is_journaled_without_values()
     {
        // Regression: only ops under /data and /stringData were redacted, so a JSON patch
        // replacing the whole document (path "") kept a short stringData value (too short
        // for the scrubber) and last-applied-configuration's copy of the data in the journal.
        let ops = serde_json::json!([
            {"op": "replace", "path": "", "value": {"apiVersion": "v1", "kind": "Secret",
                "metadata": {"name": "db", "annotations": {"kubectl.kubernetes.io/last-applied-configuration": "{\"data\":{\"pin\":\"OTg3\"}}", "team": "a"}},
                "stringData": {"pin": "987"}}},
            {"op": "add", "path": "/metadata/annotations/kubectl.kubernetes.io~1last-applied-configuration", "value": "{\"stringData\":{\"pin\":\"987\"}}"},
            {"op": "add", "path": "/metadata/annotations", "value": {"kubectl.kubernetes.io/last-applied-configuration": "987", "team": "b"}},
            {"op": "replace", "path": "/metadata", "value": {"name": "db", "annotations": {"kubectl.kubernetes.io/last-applied-configuration": "987"}}},
        ]);
        let r = redact_patch("Secret", ops);
        assert!(!r.to_string().contains("987"), "{r}");
        assert!(!r.to_string().contains("OTg3"), "{r}");
        assert_eq!(r[0]["value"]["stringData"]["pin"], "<redacted>");
        assert_eq!(r[0]["value"]["metadata"]["annotations"]["team"], "a");
        assert_eq!(r[1]["value"], "<redacted>");
        assert_eq!(r[2]["value"], serde_json::json!({"team": "b"}));
        assert_eq!(
            r[3]["value"],
            serde_json::json!({"name": "db", "annotations": {}})
        );
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
        // Concurrent appenders keep one hash chain (issue 15).
        let (files, head) = read_files(home.path()).unwrap();
        let summary = chain::verify(&files, head).unwrap();
        assert_eq!((summary.records, summary.unchained), (200, 0));
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
        assert_eq!(
            e,
            format!(
                "cannot write the change log {}/changelog.jsonl: MYOPS_HOME {} is not a directory (it is a regular file); set MYOPS_HOME to a directory",
                home.display(),
                home.display()
            )
        );
    }

    #[test]
    fn the_log_is_created_private() {
        use std::os::unix::fs::PermissionsExt;
        let d = tempfile::tempdir().unwrap();
        let j = Journal::open(&d.path().join("h")).unwrap();
        j.append(&entry("a")).unwrap();
        let mode = std::fs::metadata(j.path()).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        let home_mode = std::fs::metadata(d.path().join("h"))
            .unwrap()
            .permissions()
            .mode()
            & 0o777;
        assert_eq!(home_mode, 0o700);
        assert_eq!(j.warning(), None);
    }

    #[test]
    fn an_existing_world_readable_log_is_tightened_to_0600_on_open() {
        use std::os::unix::fs::PermissionsExt;
        let d = tempfile::tempdir().unwrap();
        let log = path(d.path());
        std::fs::write(&log, "").unwrap();
        std::fs::set_permissions(&log, std::fs::Permissions::from_mode(0o644)).unwrap();
        Journal::open(d.path()).unwrap();
        let mode = std::fs::metadata(&log).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }

    #[test]
    fn a_home_open_to_others_is_warned_about_once_with_the_fix() {
        use std::os::unix::fs::PermissionsExt;
        let d = tempfile::tempdir().unwrap();
        let home = d.path().join("h");
        std::fs::create_dir(&home).unwrap();
        std::fs::set_permissions(&home, std::fs::Permissions::from_mode(0o755)).unwrap();
        let j = Journal::open(&home).unwrap();
        assert_eq!(
            j.warning().unwrap(),
            format!(
                "warning: MYOPS_HOME {} is open to other users (mode 0755) and its change log holds full before-states of objects; run `chmod 700 {}`",
                home.display(),
                home.display()
            )
        );
    }

    #[test]
    fn a_torn_last_line_does_not_swallow_the_next_append() {
        let d = tempfile::tempdir().unwrap();
        let j = Journal::open(d.path()).unwrap();
        j.append(&entry("first")).unwrap();
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(j.path())
            .unwrap();
        f.write_all(br#"{"id":"torn-1","session":"s","timest"#)
            .unwrap();
        drop(f);
        j.append(&entry("after-the-crash")).unwrap();
        let (entries, invalid) = read_all(d.path()).unwrap();
        let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["first", "after-the-crash"]);
        assert_eq!(invalid.len(), 1);
        assert_eq!(invalid[0].line, 2);
        assert!(
            invalid[0].reason.starts_with("torn: the JSON ends early"),
            "{invalid:?}"
        );
    }

    /// Issue 17, disk full: the intent fitted into the log's last block but `changelog.head`
    /// could not be replaced, and the record stayed — an intent for a request never sent,
    /// not named by the head (verify broken). Here the head's temp file cannot be created.
    #[test]
    fn a_record_whose_head_cannot_be_written_is_not_kept() {
        let d = tempfile::tempdir().unwrap();
        let j = Journal::open(d.path()).unwrap();
        j.append(&entry("first")).unwrap();
        let len = std::fs::metadata(j.path()).unwrap().len();
        let blocker = d.path().join(".changelog.head.tmp");
        std::fs::create_dir(&blocker).unwrap();
        let mut intent = entry("refused");
        intent.result = PENDING.into();
        let e = j.append(&intent).unwrap_err().to_string();
        assert!(e.contains("the record was not kept"), "{e}");
        assert_eq!(std::fs::metadata(j.path()).unwrap().len(), len, "cut back");
        std::fs::remove_dir(&blocker).unwrap();
        j.append(&entry("second")).unwrap();
        let (entries, invalid) = read_all(d.path()).unwrap();
        let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
        assert_eq!((names, invalid.len()), (vec!["first", "second"], 0));
        let (files, head) = read_files(d.path()).unwrap();
        assert!(chain::verify(&files, head).is_ok());
    }

    #[test]
    fn framed_starts_a_fresh_line_only_when_needed() {
        assert_eq!(framed(b"{}".to_vec(), None), b"{}\n");
        assert_eq!(framed(b"{}".to_vec(), Some(b'\n')), b"{}\n");
        assert_eq!(framed(b"{}".to_vec(), Some(b'x')), b"\n{}\n");
    }

    #[test]
    fn parse_counts_each_bad_line_by_number_and_reason_without_quoting_it() {
        let good = serde_json::to_string(&entry("good")).unwrap();
        let secret = "c4n4ryS3cr3t";
        let mut bytes = Vec::new();
        bytes.extend_from_slice(good.as_bytes());
        bytes.extend_from_slice(b"\n\n"); // 1 good, 2 blank
        bytes.extend_from_slice(format!("not json {secret}\n").as_bytes()); // 3
        bytes.extend_from_slice(b"{\"id\":\"x\xff\"}\n"); // 4 not UTF-8
        bytes.extend_from_slice(format!("{{\"id\":\"{secret}\0\"}}\n").as_bytes()); // 5 NUL
        bytes.extend_from_slice(format!("{{\"id\":\"{secret}\"}}\n").as_bytes()); // 6 shape
        let wrong_op = good.replace("\"crd-apply\"", &format!("\"{secret}\""));
        bytes.extend_from_slice(format!("{wrong_op}\n").as_bytes()); // 7 wrong value
        let bad_id = good.replacen(
            &format!("\"id\":\"{}\"", entry_id(&good)),
            "\"id\":\"a\\u001b[31m\"",
            1,
        );
        bytes.extend_from_slice(format!("{bad_id}\n").as_bytes()); // 8 id not printable
        bytes.extend_from_slice(format!("[1,2]\n{good}\r\n").as_bytes()); // 9 array, 10 CRLF ok
        bytes.extend_from_slice(&good.as_bytes()[..20]); // 11 torn, no newline
        let (entries, invalid) = parse(&bytes);
        assert_eq!(entries.len(), 2);
        let lines: Vec<usize> = invalid.iter().map(|i| i.line).collect();
        assert_eq!(lines, [3, 4, 5, 6, 7, 8, 9, 11]);
        let reasons: Vec<&str> = invalid.iter().map(|i| i.reason.as_str()).collect();
        assert_eq!(reasons[0], "not JSON (syntax error at column 2); 21 bytes");
        assert!(
            reasons[1].starts_with("not UTF-8 (invalid byte at column 9)"),
            "{reasons:?}"
        );
        assert!(
            reasons[2].starts_with("not JSON (syntax error"),
            "{reasons:?}"
        );
        assert!(
            reasons[3].starts_with("not a change-log entry: missing field `"),
            "{reasons:?}"
        );
        assert!(
            reasons[4].starts_with("not a change-log entry: a field has the wrong type or value"),
            "{reasons:?}"
        );
        assert!(
            reasons[5].contains("the id is empty, longer than 128"),
            "{reasons:?}"
        );
        assert!(
            reasons[7].starts_with("torn: the last line ends without a newline"),
            "{reasons:?}"
        );
        for r in &reasons {
            assert!(!r.contains(secret), "{r}");
        }
        // A complete last entry without its newline (a hand-edited file) is accepted.
        assert_eq!(parse(good.as_bytes()).0.len(), 1);
        assert_eq!(parse(b""), (Vec::new(), Vec::new()));
    }

    fn entry_id(line: &str) -> String {
        serde_json::from_str::<Value>(line).unwrap()["id"]
            .as_str()
            .unwrap()
            .to_string()
    }

    #[test]
    fn parse_never_panics_on_arbitrary_bytes() {
        let good = serde_json::to_vec(&entry("g")).unwrap();
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        for round in 0..2000 {
            let mut b = good.clone();
            for _ in 0..(round % 7 + 1) {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let at = (seed as usize) % (b.len() + 1);
                match seed % 3 {
                    0 if at < b.len() => b[at] = (seed >> 8) as u8,
                    1 => b.insert(at, (seed >> 16) as u8),
                    _ => b.truncate(at),
                }
            }
            let (e, i) = parse(&b);
            assert!(e.len() + i.len() <= 1 + b.iter().filter(|x| **x == b'\n').count());
        }
        let deep = "[".repeat(100_000);
        assert_eq!(parse(deep.as_bytes()).1.len(), 1);
    }

    #[test]
    fn a_read_failure_is_a_read_error_and_a_fifo_is_never_opened() {
        let d = tempfile::tempdir().unwrap();
        let home = d.path().join("file");
        std::fs::write(&home, "x").unwrap();
        let e = read_all(&home).unwrap_err().to_string();
        assert!(e.starts_with("cannot read the change log"), "{e}");
        assert!(!e.contains("free space"), "{e}");

        let fifo_home = d.path().join("fifo-home");
        std::fs::create_dir(&fifo_home).unwrap();
        let ok = std::process::Command::new("mkfifo")
            .arg(path(&fifo_home))
            .status()
            .unwrap()
            .success();
        assert!(ok, "mkfifo works");
        let e = read_all(&fifo_home).unwrap_err().to_string();
        assert!(
            e.contains("it is a FIFO (named pipe), not a regular file"),
            "{e}"
        );
        let e = Journal::open(&fifo_home).unwrap_err().to_string();
        assert!(e.starts_with("cannot write the change log"), "{e}");
        assert!(e.contains("a FIFO (named pipe)"), "{e}");

        let link_home = d.path().join("dangling");
        std::os::unix::fs::symlink(d.path().join("nowhere"), &link_home).unwrap();
        let e = Journal::open(&link_home).unwrap_err().to_string();
        assert!(e.contains("is a symbolic link to"), "{e}");
        assert!(e.contains("which does not exist"), "{e}");
        assert!(!d.path().join("nowhere").exists(), "nothing was created");
    }

    #[test]
    fn a_missing_log_reads_as_empty_and_creates_nothing() {
        let d = tempfile::tempdir().unwrap();
        let home = d.path().join("not-yet");
        assert_eq!(read_all(&home).unwrap(), (Vec::new(), Vec::new()));
        assert!(!home.exists());
    }

    #[test]
    fn secret_data_keys_name_what_a_rollback_cannot_restore() {
        let t = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            secret_data_keys(
                "Secret",
                &t(&["/data/b", "/metadata/labels/x", "/stringData/a~1b"])
            ),
            Some(t(&["b", "a/b"]))
        );
        assert_eq!(secret_data_keys("Secret", &t(&["/data"])), Some(Vec::new()));
        assert_eq!(secret_data_keys("Secret", &t(&[""])), Some(Vec::new()));
        assert_eq!(
            secret_data_keys(
                "Secret",
                &t(&["/metadata/annotations/kubectl.kubernetes.io~1last-applied-configuration"])
            ),
            Some(Vec::new())
        );
        assert_eq!(
            secret_data_keys("Secret", &t(&["/metadata/labels/x"])),
            None
        );
        assert_eq!(secret_data_keys("ConfigMap", &t(&["/data/b"])), None);
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

    #[test]
    fn append_scrubs_registered_secrets_from_every_field() {
        crate::redact::remember("tok-7f3a9c-never-stored");
        let d = tempfile::tempdir().unwrap();
        let j = Journal::open(d.path()).unwrap();
        let e = Entry {
            result: "Invalid (422): value tok-7f3a9c-never-stored rejected".into(),
            ..entry("a")
        };
        j.append(&e).unwrap();
        let text = std::fs::read_to_string(j.path()).unwrap();
        assert!(!text.contains("tok-7f3a9c"), "{text}");
        assert!(text.contains("value *** rejected"), "{text}");
    }
}
