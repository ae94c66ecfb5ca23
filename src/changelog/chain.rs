//! The hash chain that makes the change log tamper-evident.
//!
//! Every record carries `prev` — the `hash` of the record appended before it, or
//! [`GENESIS`] (64 zeros) for the first record of the chain — and `hash`: the SHA-256, in
//! lowercase hex, of the record's canonical form ([`super::canonical`], RFC 8785 JCS) with the
//! `hash` member removed (so `prev` is covered). On disk `hash` is the last member of the
//! line; the other members keep their usual order. Editing a record changes its hash;
//! removing, inserting or moving one breaks the next record's `prev`.
//!
//! The end of the chain is also recorded beside the log, in `changelog.head` (`{"head":
//! HASH, "base": HASH}`, written atomically under the writers' lock after each append): a
//! prefix of a valid chain is itself a valid chain, so without it removing the last records
//! would go unnoticed. `base` is the `prev` the oldest retained record must have: [`GENESIS`]
//! until rotation deletes the oldest file, then that file's last hash.
//!
//! What this does not do: the chain has no secret, so someone who can write the log can
//! rewrite it whole, recomputing every hash, and `changelog.head` with it. It makes edits
//! *evident* to whoever kept an earlier last hash (`changelog verify` prints it: copy it into
//! a ticket or another system), it does not prevent them.
//!
//! Records written before the chain existed have no `hash`: the chain starts at the first
//! hashed record (whose `prev` is `base`); an unhashed record after a hashed one is a break.
//! Lines that are not valid records are breaks too ([`super::judge`] says why); the writer
//! chains over them, so one bad line is one break.
//!
//! Everything here is pure except [`read_head`], [`write_head`] and [`file_tip`];
//! verification ([`verify`] and what it reports) is in `chain/verify.rs`.

use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::canonical::{canonical, sha256_hex};
use super::{judge, lines};

mod verify;

pub use verify::{Break, Broken, Place, Problem, Summary, Verdict, verify};

/// Log files as [`verify`] walks them: name and bytes, oldest first.
pub type LogFiles = Vec<(String, Vec<u8>)>;

/// `changelog.head` as [`read_head`] gives it.
pub type HeadRead = Result<Option<Head>, String>;

/// The `prev` of the first record of a chain: 64 zeros — like the previous-block hash of
/// Bitcoin's genesis block, a value that stands for "nothing before" and that no record's
/// SHA-256 will take.
pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// The side record of the chain's ends, `MYOPS_HOME/changelog.head`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Head {
    /// The hash of the last record appended.
    pub head: String,
    /// The `prev` the oldest retained record must have: [`GENESIS`], or after rotation
    /// deleted the oldest file, that file's last hash.
    pub base: String,
}

/// `MYOPS_HOME/changelog.head`.
pub fn head_path(home: &Path) -> PathBuf {
    home.join("changelog.head")
}

/// Reads `changelog.head`: `Ok(None)` when it does not exist, `Err` naming why it cannot be
/// used (unreadable, not the expected JSON) — a reason, never its content.
pub fn read_head(home: &Path) -> HeadRead {
    let path = head_path(home);
    match crate::fsutil::read_regular(&path, 4096) {
        Ok(bytes) => serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|_| format!("{} is not a head record", path.display())),
        Err(e) if matches!(e.problem, crate::fsutil::Unreadable::Missing) => Ok(None),
        Err(e) => Err(e.to_string()),
    }
}

/// Replaces `changelog.head` atomically ([`crate::fsutil::write_atomic`]); the caller holds
/// the writers' lock.
///
/// # Errors
/// The I/O error of writing, syncing or renaming.
pub fn write_head(home: &Path, head: &Head) -> std::io::Result<()> {
    let mut text = serde_json::to_vec(head).map_err(std::io::Error::other)?;
    text.push(b'\n');
    crate::fsutil::write_atomic(&head_path(home), &text)
}

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
    let parsed: Map<String, Value> = serde_json::from_slice(&line).map_err(|e| e.to_string())?;
    let hash = hash_of(&parsed);
    line.pop(); // the closing brace
    line.extend_from_slice(format!(",\"hash\":\"{hash}\"}}").as_bytes());
    Ok((line, hash))
}

/// What the end of some log bytes says the chain continues from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tip {
    /// The last valid record carries this hash.
    Hashed(String),
    /// The last valid record has no hash (written before the chain existed): a new chain
    /// starts after it.
    Legacy,
    /// No valid record in these bytes.
    None,
}

/// The [`Tip`] of `bytes` (pure), judging lines from the end; invalid lines are passed over.
/// When `from_start` is false the bytes are the tail of a file and the first (partial) line
/// is ignored: [`Tip::None`] then means "read further back".
pub fn tip_in(bytes: &[u8], from_start: bool) -> Tip {
    let bytes = if from_start {
        bytes
    } else {
        match bytes.iter().position(|b| *b == b'\n') {
            Some(i) => &bytes[i + 1..],
            None => return Tip::None,
        }
    };
    let all: Vec<_> = lines(bytes).collect();
    for (_, raw, unterminated) in all.into_iter().rev() {
        if judge(raw, unterminated).is_err() {
            continue;
        }
        return match record_hash(raw) {
            Some(h) => Tip::Hashed(h),
            None => Tip::Legacy,
        };
    }
    Tip::None
}

/// The `hash` member of a (valid) record line, if it has a string one.
fn record_hash(raw: &[u8]) -> Option<String> {
    let v: Value = serde_json::from_slice(raw).ok()?;
    v.get("hash")?.as_str().map(str::to_string)
}

/// The [`Tip`] of the file at `path`, reading from its end in growing chunks (64 KiB, then
/// doubling), so appending costs a read of the last record, not of the whole log. A missing
/// file is [`Tip::None`].
///
/// # Errors
/// The I/O error of opening, seeking or reading; a path that is not a regular file.
pub fn file_tip(path: &Path) -> std::io::Result<Tip> {
    // Never open what is not a regular file (a FIFO would block).
    match std::fs::metadata(path) {
        Ok(m) if !m.is_file() => {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("{} is not a regular file; move it away", path.display()),
            ));
        }
        _ => {}
    }
    let mut f = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Tip::None),
        Err(e) => return Err(e),
    };
    let len = f.metadata()?.len();
    let mut window: u64 = 64 * 1024;
    loop {
        let start = len.saturating_sub(window);
        f.seek(SeekFrom::Start(start))?;
        let mut buf = Vec::with_capacity((len - start) as usize);
        (&mut f).take(len - start).read_to_end(&mut buf)?;
        match tip_in(&buf, start == 0) {
            Tip::None if start > 0 => window = window.saturating_mul(2),
            tip => return Ok(tip),
        }
    }
}

#[cfg(test)]
mod tests;
