//! Sealing a record into the chain (pure): its hash over the canonical form, and the
//! line that carries `prev` and `hash`.

use serde_json::{Map, Value};

use crate::changelog::canonical::{canonical, sha256_hex};

/// The `prev` of the first record of a chain: 64 zeros — like the previous-block hash of
/// Bitcoin's genesis block, a value that stands for "nothing before" and that no record's
/// SHA-256 will take.
pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// The hash of a record (pure): SHA-256 of the canonical form of `record` without its
/// `hash` member.
pub fn hash_of(record: &Map<String, Value>) -> String {
    let mut content = record.clone();
    content.remove("hash");
    sha256_hex(canonical(&Value::Object(content)).as_bytes())
}

/// The `prev` of the first hashed record of a log that holds records written before the
/// chain existed (pure): SHA-256 (hex) of the bytes of the file holding them, from its start
/// to that first hashed record, trailing newlines trimmed (the writer may frame its record
/// with one). Binds those older records into the chain: one prepended, edited or removed
/// changes the digest (with a plain [`GENESIS`] there, a forged record could sit before the
/// chain unnoticed).
pub fn legacy_digest(prefix: &[u8]) -> String {
    let end = prefix
        .iter()
        .rposition(|b| *b != b'\n')
        .map_or(0, |i| i + 1);
    sha256_hex(&prefix[..end])
}

/// The line to append for `record` chained to `prev` (pure), without its newline: the
/// record with `prev` set, serialized, then `hash` added as its last member. Returns the line
/// and the hash.
///
/// # Errors
/// `record` is not a JSON object (a programming error, reported rather than panicking).
pub fn seal(mut record: Value, prev: &str) -> Result<(Vec<u8>, String), String> {
    let map = record
        .as_object_mut()
        .ok_or("a change-log record must be a JSON object")?;
    map.remove("hash");
    map.insert("prev".into(), Value::String(prev.into()));
    let mut line = serde_json::to_vec(&record).map_err(|e| e.to_string())?;
    // Hash what a reader will parse back (float_roundtrip makes that the same value).
    let parsed: Map<String, Value> =
        crate::base::decode::from_slice(&line).map_err(|e| e.to_string())?;
    let hash = hash_of(&parsed);
    line.pop(); // the closing brace
    line.extend_from_slice(format!(",\"hash\":\"{hash}\"}}").as_bytes());
    Ok((line, hash))
}
