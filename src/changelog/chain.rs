//! The hash chain that makes the change log tamper-evident (issue 15).
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
//! Everything here is pure except [`read_head`], [`write_head`] and [`file_tip`].

use std::collections::HashSet;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::canonical::{canonical, sha256_hex};
use super::{judge, lines};

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
/// changes the digest, where a plain [`GENESIS`] let a forged record sit before the chain
/// unnoticed (hostile pass, issue 15).
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

/// Where a record is: the file's name and the 1-based line number, and its id when known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    /// File name (`changelog.jsonl`, `changelog.jsonl.1`, …).
    pub file: String,
    /// 1-based line number in that file.
    pub line: usize,
    /// The record's id (for an invalid line, the id its text starts with, if any).
    pub id: Option<String>,
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.id {
            Some(id) => write!(f, "{} line {} (id {id})", self.file, self.line),
            None => write!(f, "{} line {} (no readable id)", self.file, self.line),
        }
    }
}

/// What is wrong where the chain breaks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// The line is not a valid record (torn, not UTF-8, not JSON, wrong shape).
    Invalid(String),
    /// The record's content does not match its `hash`: it was edited.
    Edited,
    /// The record's `prev` is not the hash of the record before it.
    Unlinked {
        /// The record's `prev` (escaped, capped).
        prev: String,
        /// The record it should chain to, or `None` for the first record of the chain.
        after: Option<Place>,
        /// The hash it should have as `prev`.
        expected: String,
    },
    /// A record without `hash` after the chain started.
    Unhashed,
    /// `changelog.head` names a last hash that no record has: records were removed from the
    /// end (or the head file was replaced).
    Truncated {
        /// The hash `changelog.head` names (escaped, capped).
        head: String,
    },
    /// `changelog.head` is missing although the log holds chained records.
    NoHead,
    /// `changelog.head` cannot be read as a head record.
    BadHead(String),
}

/// The first place where the chain does not hold, and what is wrong there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Break {
    /// Where; for a head problem, the last record (or `None` for an empty log).
    pub place: Option<Place>,
    /// What.
    pub problem: Problem,
}

/// The first 16 characters of a hash and `…`, escaped, for sentences (the full last hash
/// is what `verify` prints when the chain holds).
fn short(h: &str) -> String {
    let head: String = h.chars().take(16).collect();
    let more = if h.chars().count() > 16 { "…" } else { "" };
    format!("{}{more}", crate::echo::escaped(&head))
}

impl std::fmt::Display for Break {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let at = self
            .place
            .as_ref()
            .map_or("the empty log".to_string(), ToString::to_string);
        match &self.problem {
            Problem::Invalid(why) => write!(
                f,
                "{at} is not a valid record ({why}): a torn append, or an edit"
            ),
            Problem::Edited => write!(
                f,
                "{at} does not match its hash: the record was edited after it was written"
            ),
            Problem::Unlinked {
                prev,
                after: Some(p),
                expected,
            } => write!(
                f,
                "{at} does not chain to the record before it, {p}: its prev is {}, that record's hash is {}, so a record was removed, inserted or moved here",
                short(prev),
                short(expected)
            ),
            Problem::Unlinked {
                prev,
                after: None,
                expected,
            } => {
                let what = if expected == GENESIS {
                    "the genesis value (64 zeros)".to_string()
                } else {
                    format!(
                        "{}, the last hash of the file rotation deleted (changelog.head base)",
                        short(expected)
                    )
                };
                write!(
                    f,
                    "{at} starts the chain but its prev is {}, not {what}: records were removed from the start, or this one was inserted",
                    short(prev)
                )
            }
            Problem::Unhashed => write!(
                f,
                "{at} has no hash although records before it do: it was inserted or edited"
            ),
            Problem::Truncated { head } => write!(
                f,
                "the chain ends at {at}, but changelog.head says the last record appended has hash {}, which no record has: records were removed from the end (or changelog.head was replaced)",
                short(head)
            ),
            Problem::NoHead => write!(
                f,
                "the chain ends at {at}, but changelog.head is missing: it was deleted, so whether records were removed from the end cannot be told"
            ),
            Problem::BadHead(why) => write!(f, "the chain ends at {at}, but {why}"),
        }
    }
}

/// What `changelog verify` found when the chain holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    /// Valid records read, hashed or not.
    pub records: usize,
    /// Records before the chain started (no `hash`, written before issue 15).
    pub unchained: usize,
    /// The files walked, oldest first.
    pub files: Vec<String>,
    /// The last record's hash ([`GENESIS`] when no record is hashed).
    pub last: String,
    /// A file skipped because it ends at `base`: rotation was interrupted after recording
    /// the new base and before deleting it.
    pub leftover: Option<String>,
    /// `changelog.head` names an earlier record than the last: a crash came between an
    /// append and its head update (nothing is missing).
    pub head_lags: bool,
}

/// The first break [`verify`] found and how many more follow it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Broken {
    /// The first break.
    pub first: Break,
    /// How many breaks follow it.
    pub more: usize,
}

/// The result of [`verify`]: the summary, or the first break.
pub type Verdict = Result<Summary, Box<Broken>>;

/// Log files as [`verify`] walks them: name and bytes, oldest first.
pub type LogFiles = Vec<(String, Vec<u8>)>;

/// `changelog.head` as [`read_head`] gives it.
pub type HeadRead = Result<Option<Head>, String>;

/// Walks `files` (name and bytes, oldest first) as one chain against `head` (pure): every
/// line must be a valid record, every hashed record must match its hash and chain to the
/// one before it (the first to `head.base`, or [`GENESIS`] without a head), and the last hash
/// must be `head.head` (or an earlier record's, see [`Summary::head_lags`]).
pub fn verify(files: &[(String, Vec<u8>)], head: HeadRead) -> Verdict {
    let (head, head_error) = match head {
        Ok(h) => (h, None),
        Err(e) => (None, Some(e)),
    };
    let base = head.as_ref().map_or(GENESIS, |h| h.base.as_str());
    let mut files = files;
    let mut leftover = None;
    if let [first, rest @ ..] = files
        && !rest.is_empty()
        && base != GENESIS
        && tip_in(&first.1, true) == Tip::Hashed(base.to_string())
    {
        leftover = Some(first.0.clone());
        files = rest;
    }
    let mut breaks: Vec<Break> = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    let mut last: Option<(String, Place)> = None;
    let mut last_place: Option<Place> = None;
    let (mut records, mut unchained) = (0, 0);
    // The records before the chain: the bytes of the file holding the last of them, and
    // whether that file is the one being walked ([`legacy_digest`]).
    let mut legacy: Option<&[u8]> = None;
    for (name, bytes) in files {
        let mut legacy_here = false;
        for (line, raw, unterminated) in lines(bytes) {
            let place = |id: Option<String>| Place {
                file: name.clone(),
                line,
                id,
            };
            let entry = match judge(raw, unterminated) {
                Ok(e) => e,
                Err(why) => {
                    breaks.push(Break {
                        place: Some(place(sniff_id(raw))),
                        problem: Problem::Invalid(why),
                    });
                    continue;
                }
            };
            let here = place(Some(entry.id));
            records += 1;
            last_place = Some(here.clone());
            let Ok(map) = serde_json::from_slice::<Map<String, Value>>(raw) else {
                continue; // judged valid, so it is an object; never reached
            };
            let Some(hash) = map.get("hash").and_then(Value::as_str) else {
                if last.is_some() {
                    breaks.push(Break {
                        place: Some(here),
                        problem: Problem::Unhashed,
                    });
                } else {
                    unchained += 1;
                    legacy = Some(bytes);
                    legacy_here = true;
                }
                continue;
            };
            if hash_of(&map) != hash {
                breaks.push(Break {
                    place: Some(here.clone()),
                    problem: Problem::Edited,
                });
            }
            let prev = map.get("prev").and_then(Value::as_str).unwrap_or("");
            let digest;
            let (expected, after) = match (&last, legacy) {
                (Some((h, p)), _) => (h.as_str(), Some(p.clone())),
                (None, Some(file)) => {
                    let end = if legacy_here {
                        raw.as_ptr() as usize - bytes.as_ptr() as usize
                    } else {
                        file.len()
                    };
                    digest = legacy_digest(&file[..end]);
                    (digest.as_str(), None)
                }
                (None, None) => (base, None),
            };
            if prev != expected {
                breaks.push(Break {
                    place: Some(here.clone()),
                    problem: Problem::Unlinked {
                        prev: crate::echo::capped(prev, 80),
                        after,
                        expected: expected.to_string(),
                    },
                });
            }
            seen.insert(hash.to_string());
            last = Some((hash.to_string(), here));
        }
    }
    let mut head_lags = false;
    let end = last.as_ref().map(|(_, p)| p.clone()).or(last_place);
    let head_break = |problem| Break {
        place: end.clone(),
        problem,
    };
    match (&head, &last, head_error) {
        (_, _, Some(why)) => breaks.push(head_break(Problem::BadHead(why))),
        (None, Some(_), None) => breaks.push(head_break(Problem::NoHead)),
        (Some(h), Some((tip, _)), None) if &h.head != tip => {
            if seen.contains(&h.head) {
                head_lags = true;
            } else {
                breaks.push(head_break(Problem::Truncated {
                    head: crate::echo::capped(&h.head, 80),
                }));
            }
        }
        (Some(h), None, None) if h.head != GENESIS && h.head != h.base => {
            breaks.push(head_break(Problem::Truncated {
                head: crate::echo::capped(&h.head, 80),
            }));
        }
        _ => {}
    }
    if let Some(first) = breaks.first() {
        return Err(Box::new(Broken {
            first: first.clone(),
            more: breaks.len() - 1,
        }));
    }
    Ok(Summary {
        records,
        unchained,
        files: files.iter().map(|(n, _)| n.clone()).collect(),
        last: last.map_or(GENESIS.to_string(), |(h, _)| h),
        leftover,
        head_lags,
    })
}

/// The id an invalid line's text starts with (`{"id":"…"`), when it is a plausible id —
/// so a torn record is named; nothing else of the line is ever quoted.
fn sniff_id(raw: &[u8]) -> Option<String> {
    let rest = raw.strip_prefix(b"{\"id\":\"")?;
    let end = rest.iter().position(|b| *b == b'"')?;
    let id = &rest[..end];
    (!id.is_empty() && id.len() <= 64 && id.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'-'))
        .then(|| String::from_utf8_lossy(id).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A valid record (every field an entry must have) with this id and user.
    fn record(id: &str, user: &str) -> Value {
        json!({"id": id, "session": "s", "timestamp": "2026-12-02T08:00:00Z", "plugin": "myops",
            "user": user, "context": "admin", "server": "https://h", "apiVersion": "v1",
            "kind": "ConfigMap", "namespace": "ns", "name": "c", "uid": null, "operation": "patch",
            "patchType": "merge", "patch": {"data": {"a": "1"}}, "dryRun": false, "before": null,
            "resourceVersionAfter": "7", "result": "success", "durationSeconds": 0.0})
    }

    /// A sealed log of `n` records (ids r1 …) and its head.
    fn log(n: usize) -> (Vec<Vec<u8>>, Head) {
        let mut prev = GENESIS.to_string();
        let mut lines = Vec::new();
        for i in 1..=n {
            let (line, hash) = seal(record(&format!("r{i}"), "admin"), &prev).unwrap();
            lines.push(line);
            prev = hash;
        }
        let head = Head {
            head: prev,
            base: GENESIS.into(),
        };
        (lines, head)
    }

    fn file(lines: &[Vec<u8>]) -> Vec<(String, Vec<u8>)> {
        let mut bytes = Vec::new();
        for l in lines {
            bytes.extend_from_slice(l);
            bytes.push(b'\n');
        }
        vec![("changelog.jsonl".into(), bytes)]
    }

    fn first_break(files: &[(String, Vec<u8>)], head: Option<Head>) -> (Break, usize) {
        let b = verify(files, Ok(head)).unwrap_err();
        (b.first, b.more)
    }

    #[test]
    fn a_sealed_line_ends_with_its_hash_over_the_canonical_form_without_it() {
        let (line, hash) = seal(record("r1", "admin"), GENESIS).unwrap();
        let text = String::from_utf8(line).unwrap();
        assert!(text.starts_with("{\"id\":\"r1\","), "{text}");
        assert!(
            text.ends_with(&format!("\"prev\":\"{GENESIS}\",\"hash\":\"{hash}\"}}")),
            "{text}"
        );
        let mut v: Map<String, Value> = serde_json::from_str(&text).unwrap();
        v.remove("hash");
        assert_eq!(
            sha256_hex(canonical(&Value::Object(v)).as_bytes()),
            hash,
            "hash = SHA-256(JCS(record without hash))"
        );
    }

    #[test]
    fn an_intact_chain_verifies_and_names_its_last_hash() {
        let (lines, head) = log(3);
        let s = verify(&file(&lines), Ok(Some(head.clone()))).unwrap();
        assert_eq!((s.records, s.unchained, s.last), (3, 0, head.head));
        assert_eq!(s.files, ["changelog.jsonl"]);
        assert!(!s.head_lags);
    }

    #[test]
    fn an_edited_field_is_named_by_line_and_id() {
        let (mut lines, head) = log(3);
        lines[1] = String::from_utf8(lines[1].clone())
            .unwrap()
            .replace("\"user\":\"admin\"", "\"user\":\"mallory\"")
            .into_bytes();
        let (b, more) = first_break(&file(&lines), Some(head));
        assert_eq!(b.problem, Problem::Edited);
        assert_eq!(
            b.place.unwrap().to_string(),
            "changelog.jsonl line 2 (id r2)"
        );
        assert_eq!(more, 0, "the next record still chains to the stored hash");
    }

    #[test]
    fn a_deleted_line_a_swap_and_a_removed_first_record_break_prev() {
        let (lines, head) = log(4);
        let deleted = [lines[0].clone(), lines[2].clone(), lines[3].clone()];
        let (b, _) = first_break(&file(&deleted), Some(head.clone()));
        assert_eq!(b.place.as_ref().unwrap().line, 2);
        assert_eq!(b.place.as_ref().unwrap().id.as_deref(), Some("r3"));
        assert!(
            b.to_string()
                .contains("does not chain to the record before it, changelog.jsonl line 1 (id r1)"),
            "{b}"
        );
        let swapped = [
            lines[0].clone(),
            lines[2].clone(),
            lines[1].clone(),
            lines[3].clone(),
        ];
        let (b, more) = first_break(&file(&swapped), Some(head.clone()));
        assert_eq!(b.place.unwrap().id.as_deref(), Some("r3"));
        assert_eq!(more, 2);
        let (b, _) = first_break(&file(&lines[1..]), Some(head));
        assert!(
            b.to_string().contains("starts the chain but its prev is"),
            "{b}"
        );
    }

    #[test]
    fn removing_the_last_records_is_caught_by_the_head_and_a_lagging_head_is_not_a_break() {
        let (lines, head) = log(4);
        let (b, _) = first_break(&file(&lines[..2]), Some(head.clone()));
        assert!(matches!(b.problem, Problem::Truncated { .. }), "{b}");
        assert_eq!(b.place.unwrap().id.as_deref(), Some("r2"));
        let (b, _) = first_break(&[], Some(head.clone()));
        assert!(matches!(b.problem, Problem::Truncated { .. }), "{b}");
        let (b, _) = first_break(&file(&lines), None);
        assert_eq!(b.problem, Problem::NoHead);
        // A crash between an append and the head update: the head names an earlier record.
        let (_, old_head) = log(3);
        let s = verify(&file(&lines), Ok(Some(old_head))).unwrap();
        assert!(s.head_lags);
    }

    #[test]
    fn bad_lines_are_breaks_and_a_torn_record_is_named_by_its_id() {
        let (lines, head) = log(2);
        let mut files = file(&lines);
        let torn = &lines[1][..40];
        let keep = files[0].1.len() - lines[1].len() - 1;
        files[0].1.truncate(keep);
        files[0].1.extend_from_slice(torn);
        let (b, more) = first_break(&files, Some(head));
        assert_eq!(b.place.unwrap().id.as_deref(), Some("r2"));
        assert!(matches!(&b.problem, Problem::Invalid(why) if why.starts_with("torn:")));
        assert_eq!(more, 1, "the head then names a record that is not there");
    }

    #[test]
    fn records_before_the_chain_are_counted_and_an_unhashed_one_after_it_is_a_break() {
        let legacy = serde_json::to_vec(&record("old", "admin")).unwrap();
        let (lines, head) = log(2);
        // The chain starts with the digest of what came before it.
        let mut text = legacy.clone();
        text.push(b'\n');
        let (first, h1) = seal(record("r1", "admin"), &legacy_digest(&text)).unwrap();
        let (second, h2) = seal(record("r2", "admin"), &h1).unwrap();
        let chained_head = Head {
            head: h2,
            base: GENESIS.into(),
        };
        let with_legacy = [legacy.clone(), first.clone(), second.clone()];
        let s = verify(&file(&with_legacy), Ok(Some(chained_head.clone()))).unwrap();
        assert_eq!((s.records, s.unchained), (3, 1));
        // Regression (hostile pass): a forged record put before the chain was "written before
        // records were chained" and verified; so was a chain started from GENESIS behind one.
        let forged = serde_json::to_vec(&record("forged", "mallory")).unwrap();
        let prepended = [forged.clone(), legacy.clone(), first, second];
        let (b, _) = first_break(&file(&prepended), Some(chained_head));
        assert_eq!(b.place.unwrap().line, 3);
        let behind = [forged, lines[0].clone(), lines[1].clone()];
        let (b, _) = first_break(&file(&behind), Some(head.clone()));
        assert_eq!(b.place.unwrap().line, 2);
        let inserted = [lines[0].clone(), legacy, lines[1].clone()];
        let (b, _) = first_break(&file(&inserted), Some(head));
        assert_eq!(b.problem, Problem::Unhashed);
        assert_eq!(b.place.unwrap().line, 2);
    }

    #[test]
    fn the_chain_runs_across_files_from_the_recorded_base() {
        let (lines, head) = log(5);
        let files = vec![
            (
                "changelog.jsonl.1".to_string(),
                file(&lines[2..4])[0].1.clone(),
            ),
            (
                "changelog.jsonl".to_string(),
                file(&lines[4..])[0].1.clone(),
            ),
        ];
        let Tip::Hashed(base) = tip_in(&file(&lines[..2])[0].1, true) else {
            panic!("two sealed records have a hashed tip")
        };
        let head = Head { base, ..head };
        let s = verify(&files, Ok(Some(head.clone()))).unwrap();
        assert_eq!(s.files, ["changelog.jsonl.1", "changelog.jsonl"]);
        // Without the base the oldest kept record looks like a removal at the start.
        let (b, _) = first_break(
            &files,
            Some(Head {
                base: GENESIS.into(),
                ..head.clone()
            }),
        );
        assert_eq!(b.place.unwrap().file, "changelog.jsonl.1");
        // A file left by an interrupted rotation (it ends at the base) is passed over.
        let mut with_leftover = vec![(
            "changelog.jsonl.2".to_string(),
            file(&lines[..2])[0].1.clone(),
        )];
        with_leftover.extend(files);
        let s = verify(&with_leftover, Ok(Some(head))).unwrap();
        assert_eq!(s.leftover.as_deref(), Some("changelog.jsonl.2"));
    }

    #[test]
    fn the_tip_is_read_from_the_end_past_bad_lines_and_a_partial_first_line() {
        let (lines, head) = log(2);
        let mut bytes = file(&lines)[0].1.clone();
        bytes.extend_from_slice(b"{\"id\":\"torn");
        assert_eq!(tip_in(&bytes, true), Tip::Hashed(head.head.clone()));
        assert_eq!(tip_in(&bytes[5..], false), Tip::Hashed(head.head));
        assert_eq!(
            tip_in(&lines[0][5..], false),
            Tip::None,
            "no complete line yet"
        );
        let legacy = serde_json::to_vec(&record("old", "admin")).unwrap();
        assert_eq!(tip_in(&legacy, true), Tip::Legacy);
    }
}
