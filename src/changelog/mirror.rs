//! The cluster mirror's object format (pure): a complete change-log record as `ChangeRecord`
//! custom resources (`changerecords.myops.io/v1`, namespaced; the CRD and its RBAC are in
//! `deploy/changelog/`), and those objects read back into the record, checked.
//!
//! What one object holds and why:
//! - `spec.record`: the record's journal line exactly as sealed (`prev` and `hash` included),
//!   as a string. A string and not a structured object: the API server re-encodes objects
//!   (member order, number forms), and the line must hash back to its `hash` so that a
//!   mirrored record anchors the workstation's chain ([`super::chain`]) and an edit by anyone
//!   who may update the object is evident.
//! - `spec.chain`: `{journal, prev, hash}` — the workstation's journal id (a random id kept in
//!   MYOPS_HOME, one per change log) and the record's place in its chain, so `changelog verify
//!   --against-cluster` finds this journal's records and checks each is still in the local log.
//! - `spec.entry`: a summary (who, when, what, which object, result, Audit-Id) copied from the
//!   line for `kubectl get changerecords` columns and for listing without parsing lines. A
//!   reader trusts the line, and reports a summary that disagrees with it.
//! - `spec.createdBy`: the user who created the object. The ValidatingAdmissionPolicy in
//!   `deploy/changelog/` refuses a create whose `createdBy` is not `request.userInfo.username`,
//!   so this is the API server's view of who wrote the record; a line whose `user` differs is
//!   a record claiming another user and is reported, never shown as that user's.
//!
//! A line longer than [`CHUNK_BYTES`] is split: the head object has `spec.parts: N` and no
//! `record`; parts `<head>-part-1` … `<head>-part-N` hold consecutive chunks in
//! `spec.chunk` (labelled [`LABEL_PART_OF`] with the head's name). Parts are created before
//! the head, so a reader that sees a head finds its parts. Why split and not compress:
//! compression bounds nothing (a before-state of random data does not shrink), while etcd
//! refuses any object over 1.5 MiB (`--max-request-bytes`), so only a split bounds it.
//!
//! Object names: `<entry id>-<first 12 hex of hash>`. An id alone is not enough: an intent
//! whose outcome was lost and later reconciled has two complete records, and ids from two
//! workstations can meet (same millisecond and pid). The name makes a create idempotent: an
//! `AlreadyExists` for a name means that very record is mirrored already.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::chain::hash_of;
use super::model::Entry;

/// The API group of the mirror's custom resource.
pub const GROUP: &str = "myops.io";
/// Its version.
pub const VERSION: &str = "v1";
/// Its kind.
pub const KIND: &str = "ChangeRecord";
/// Its plural (the resource in RBAC rules and URLs).
pub const PLURAL: &str = "changerecords";
/// `apiVersion` of its objects.
pub const API_VERSION: &str = "myops.io/v1";

/// The API resource of `changerecords.myops.io/v1` (pure), for the kube client's dynamic
/// API: the one definition the mirror's writer and readers share.
pub fn api_resource() -> kube::api::ApiResource {
    kube::api::ApiResource {
        group: GROUP.into(),
        version: VERSION.into(),
        api_version: API_VERSION.into(),
        kind: KIND.into(),
        plural: PLURAL.into(),
    }
}

/// Label: the workstation's journal id (`spec.chain.journal`), so one journal's records are
/// listed with a label selector.
pub const LABEL_JOURNAL: &str = "myops.io/journal";
/// Label: the change-log entry id, so `changelog show ID` finds a mirrored entry with a
/// label selector.
pub const LABEL_ENTRY: &str = "myops.io/entry";
/// Label on a part: the name of its head object.
pub const LABEL_PART_OF: &str = "myops.io/part-of";
/// Label: what the object is, `record` (a head) or `part`, so a listing of records skips
/// the parts server-side.
pub const LABEL_ROLE: &str = "myops.io/role";

/// The most bytes of a line one object holds: 1 MiB, well under etcd's 1.5 MiB object limit
/// once metadata and managedFields are added.
pub const CHUNK_BYTES: usize = 1024 * 1024;

/// The place of a mirrored record in its workstation's chain (`spec.chain`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChainPlace {
    /// The journal id of the workstation's MYOPS_HOME.
    pub journal: String,
    /// The record's `prev`.
    pub prev: String,
    /// The record's `hash`.
    pub hash: String,
}

/// A record read back from the mirror (pure result of [`read_back`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Mirrored {
    /// The head object's name.
    pub name: String,
    /// The record, parsed from its line.
    pub entry: Entry,
    /// The line as mirrored.
    pub line: String,
    /// Where it sits in its workstation's chain.
    pub chain: ChainPlace,
    /// `spec.createdBy`: the API server's view of who created the object.
    pub created_by: String,
    /// The object's `metadata.creationTimestamp`, when present.
    pub created: Option<String>,
    /// What is wrong with it, one phrase each, empty when nothing is: the line's hash does
    /// not match its content (edited), the summary disagrees with the line, the line's user
    /// is not `createdBy` (a record claiming another user).
    pub problems: Vec<String>,
}

/// Why objects cannot be read back into a record at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MirrorFormatError {
    /// The object lacks a member the format requires, or has the wrong type.
    #[error(
        "ChangeRecord {name} is not in the mirror's format ({why}); an admin may inspect it with kubectl get changerecord {name} -o yaml"
    )]
    Shape {
        /// The object's name.
        name: String,
        /// What is missing.
        why: String,
    },
    /// The line is not a change-log record.
    #[error("ChangeRecord {name} holds no readable change-log record ({why})")]
    Line {
        /// The object's name.
        name: String,
        /// Why the line does not parse (never its content).
        why: String,
    },
    /// A split record lacks a part.
    #[error(
        "ChangeRecord {name} is split in {of} parts but part {missing} is missing; it cannot be read until the part is there"
    )]
    MissingPart {
        /// The head object's name.
        name: String,
        /// How many parts it has.
        of: usize,
        /// The first missing part (1-based).
        missing: usize,
    },
}

/// The object name of a record (pure): `<entry id>-<first 12 hex of hash>`, lowercased.
/// Entry ids this tool writes are lowercase hex and dashes, so the name is a valid DNS
/// subdomain; an id that is not (an edited log) is reduced to those characters.
pub fn object_name(entry_id: &str, hash: &str) -> String {
    let id: String = entry_id
        .to_ascii_lowercase()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .take(200)
        .collect();
    let id = id.trim_matches('-');
    let short: String = hash.chars().take(12).collect();
    if id.is_empty() {
        format!("record-{short}")
    } else {
        format!("{id}-{short}")
    }
}

/// The summary of an entry in `spec.entry` (pure).
fn summary(e: &Entry) -> Value {
    let mut m = Map::new();
    let mut put = |k: &str, v: Value| {
        if !v.is_null() {
            m.insert(k.into(), v);
        }
    };
    put("id", json!(e.id));
    put("timestamp", json!(e.timestamp));
    put("user", json!(e.user));
    put("context", json!(e.context));
    put("server", json!(e.server));
    put(
        "operation",
        serde_json::to_value(e.operation).unwrap_or(Value::Null),
    );
    put("apiVersion", json!(e.api_version));
    put("kind", json!(e.kind));
    put("namespace", json!(e.namespace));
    put("name", json!(e.name));
    put("result", json!(e.result));
    put("dryRun", json!(e.dry_run));
    put("reason", json!(e.reason));
    Value::Object(m)
}

/// The objects that mirror one sealed journal line (pure), parts first and the head last:
/// the order to create them in. `line` is the record's line without its newline, as the
/// journal holds it; `journal` the workstation's journal id; `namespace` plugin.yaml
/// `changelog.mirror.namespace`.
///
/// # Errors
/// The line is not a sealed change-log record ([`MirrorFormatError::Line`]): not JSON, not an
/// entry, or without `hash`/`prev` (a record written before the chain).
pub fn objects(
    line: &str,
    journal: &str,
    namespace: &str,
) -> Result<Vec<Value>, MirrorFormatError> {
    let (entry, prev, hash) = parse_line(line).map_err(|why| MirrorFormatError::Line {
        name: String::new(),
        why,
    })?;
    let name = object_name(&entry.id, &hash);
    let chain = json!({"journal": journal, "prev": prev, "hash": hash});
    let labels = |role: &str| {
        json!({
            LABEL_JOURNAL: label_value(journal),
            LABEL_ENTRY: label_value(&entry.id),
            LABEL_ROLE: role,
        })
    };
    let chunks = chunks(line, CHUNK_BYTES);
    let mut out = Vec::new();
    let mut spec = json!({
        "createdBy": entry.user,
        "entry": summary(&entry),
        "chain": chain,
    });
    if chunks.len() > 1 {
        for (i, chunk) in chunks.iter().enumerate() {
            let mut part_labels = labels("part");
            part_labels[LABEL_PART_OF] = json!(name);
            out.push(json!({
                "apiVersion": API_VERSION,
                "kind": KIND,
                "metadata": {"name": part_name(&name, i + 1), "namespace": namespace, "labels": part_labels},
                "spec": {"createdBy": entry.user, "partOf": name, "part": i + 1, "of": chunks.len(), "chunk": chunk},
            }));
        }
        spec["parts"] = json!(chunks.len());
    } else {
        spec["record"] = json!(line);
    }
    out.push(json!({
        "apiVersion": API_VERSION,
        "kind": KIND,
        "metadata": {"name": name, "namespace": namespace, "labels": labels("record")},
        "spec": spec,
    }));
    Ok(out)
}

/// The name of part `i` (1-based) of the head `head`.
pub fn part_name(head: &str, i: usize) -> String {
    format!("{head}-part-{i}")
}

/// `v` as a label value (pure): at most 63 characters of `[A-Za-z0-9._-]`, starting and
/// ending alphanumeric (Kubernetes label syntax); ids and journal ids already are.
pub fn label_value(v: &str) -> String {
    let s: String = v
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
        .take(63)
        .collect();
    s.trim_matches(|c: char| !c.is_ascii_alphanumeric())
        .to_string()
}

/// `line` cut into pieces of at most `max` bytes on character boundaries (pure); one piece
/// when it fits.
fn chunks(line: &str, max: usize) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = line;
    while rest.len() > max {
        let mut cut = max;
        while !rest.is_char_boundary(cut) {
            cut -= 1;
        }
        out.push(&rest[..cut]);
        rest = &rest[cut..];
    }
    out.push(rest);
    out
}

/// A sealed line's entry, `prev` and `hash` (pure), checking nothing but shape.
fn parse_line(line: &str) -> Result<(Entry, String, String), String> {
    let value: Value = crate::base::decode::from_str(line).map_err(|e| match e {
        crate::base::decode::DecodeError::Json(e) => format!("not JSON: {}", e.classify_name()),
        deep => format!("not JSON: {deep}"),
    })?;
    let map = value.as_object().ok_or("not a JSON object")?;
    let field = |k: &str| map.get(k).and_then(Value::as_str).map(str::to_string);
    let (Some(prev), Some(hash)) = (field("prev"), field("hash")) else {
        return Err("a record without prev and hash (written before the chain)".into());
    };
    let entry: Entry = serde_json::from_value(value.clone())
        .map_err(|e| format!("not a change-log entry: {}", e.classify_name()))?;
    Ok((entry, prev, hash))
}

/// The name of a serde_json error class, never quoting input.
trait Classify {
    fn classify_name(&self) -> &'static str;
}

impl Classify for serde_json::Error {
    fn classify_name(&self) -> &'static str {
        match self.classify() {
            serde_json::error::Category::Io => "I/O",
            serde_json::error::Category::Syntax => "syntax error",
            serde_json::error::Category::Data => "wrong shape",
            serde_json::error::Category::Eof => "torn",
        }
    }
}

/// The order in which complete records of one entry id take precedence (pure; the greater
/// wins): a record without problems over any record with them — so a forged or edited copy
/// never shadows the genuine one, whenever it was created — then the later record time, then
/// the later creation (an outcome reconciled after a lost answer).
pub fn precedence<'a>(
    problems: &[String],
    timestamp: &'a str,
    created: Option<&'a str>,
) -> (bool, &'a str, Option<&'a str>) {
    (problems.is_empty(), timestamp, created)
}

/// Whether `theirs`, an object found under the name of `ours` (one of [`objects`]), is the same
/// mirror copy (pure): for a head its `spec.chain.hash`, `spec.createdBy` and `spec.record` or
/// `spec.parts`; for a part its `spec.partOf`, `spec.part`, `spec.chunk` and `spec.createdBy`.
/// An `AlreadyExists` means "already mirrored" only then: parts are created before the head and
/// carry its name, so another writer can create that name first with his own content.
pub fn same_copy(ours: &Value, theirs: &Value) -> bool {
    let fields: &[&str] = if is_part(ours) {
        &[
            "/spec/partOf",
            "/spec/part",
            "/spec/chunk",
            "/spec/createdBy",
        ]
    } else {
        &[
            "/spec/chain/hash",
            "/spec/createdBy",
            "/spec/record",
            "/spec/parts",
        ]
    };
    fields.iter().all(|f| ours.pointer(f) == theirs.pointer(f))
}

/// Whether an object is a part (pure): `spec.partOf` is set.
pub fn is_part(obj: &Value) -> bool {
    obj.pointer("/spec/partOf").is_some()
}

/// A head object read back into its record (pure). `parts` are the head's part objects in any
/// order (ignored when the record is not split); the line is reassembled, parsed and checked:
/// the hash over its content, the summary against the line, `createdBy` against its user —
/// each disagreement one phrase in [`Mirrored::problems`].
///
/// # Errors
/// [`MirrorFormatError`] when the objects cannot be read into a record at all.
pub fn read_back(head: &Value, parts: &[Value]) -> Result<Mirrored, MirrorFormatError> {
    let name = head
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let shape = |why: &str| MirrorFormatError::Shape {
        name: name.clone(),
        why: why.into(),
    };
    let spec = head.get("spec").ok_or_else(|| shape("no spec"))?;
    let line = match spec.get("parts").and_then(Value::as_u64) {
        Some(n) => reassemble(&name, n as usize, parts)?,
        None => spec
            .get("record")
            .and_then(Value::as_str)
            .ok_or_else(|| shape("no spec.record"))?
            .to_string(),
    };
    let chain: ChainPlace = spec
        .get("chain")
        .cloned()
        .and_then(|c| serde_json::from_value(c).ok())
        .ok_or_else(|| shape("no spec.chain"))?;
    let created_by = spec
        .get("createdBy")
        .and_then(Value::as_str)
        .ok_or_else(|| shape("no spec.createdBy"))?
        .to_string();
    let (entry, prev, hash) = parse_line(&line).map_err(|why| MirrorFormatError::Line {
        name: name.clone(),
        why,
    })?;
    let mut problems = Vec::new();
    let parsed: Map<String, Value> = crate::base::decode::from_str(&line).unwrap_or_default();
    if hash_of(&parsed) != hash {
        problems.push(
            "its record was edited after it was written (the hash does not match its content)"
                .to_string(),
        );
    }
    if chain.hash != hash || chain.prev != prev {
        problems.push("spec.chain does not match the record's prev and hash".to_string());
    }
    if spec.get("entry") != Some(&summary(&entry)) {
        problems.push("spec.entry does not match the record".to_string());
    }
    if entry.user != created_by {
        problems.push(format!(
            "the record claims user {} but was created by {created_by}",
            crate::base::echo::bare(&entry.user)
        ));
    }
    if object_name(&entry.id, &hash) != name {
        problems.push("its name does not match the record's id and hash".to_string());
    }
    Ok(Mirrored {
        name,
        entry,
        line,
        chain,
        created_by,
        created: head
            .pointer("/metadata/creationTimestamp")
            .and_then(Value::as_str)
            .map(str::to_string),
        problems,
    })
}

/// The line of a split record from its parts (pure).
fn reassemble(name: &str, of: usize, parts: &[Value]) -> Result<String, MirrorFormatError> {
    let mut line = String::new();
    for i in 1..=of {
        let chunk = parts
            .iter()
            .find(|p| {
                p.pointer("/spec/partOf").and_then(Value::as_str) == Some(name)
                    && p.pointer("/spec/part").and_then(Value::as_u64) == Some(i as u64)
            })
            .and_then(|p| p.pointer("/spec/chunk").and_then(Value::as_str))
            .ok_or(MirrorFormatError::MissingPart {
                name: name.to_string(),
                of,
                missing: i,
            })?;
        line.push_str(chunk);
    }
    Ok(line)
}

#[cfg(test)]
#[path = "mirror_tests.rs"]
mod tests;
