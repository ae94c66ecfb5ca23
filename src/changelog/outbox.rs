//! The cluster mirror's outbox in MYOPS_HOME: the journal id and the queue of sealed lines
//! not yet mirrored (docs/team.md, "The cluster mirror"; docs/design.md, "File formats").
//!
//! - `journal-id`: this MYOPS_HOME's random journal id (16 lowercase hex), created once
//!   under the change log's lock; `spec.chain.journal` and the `myops.io/journal` label of
//!   every record this workstation mirrors, so a reader finds one journal's records.
//! - `mirror-queue.jsonl`: the sealed line of every complete record (never an intent),
//!   appended by the journal's one writer under the same lock, after the log's line and
//!   before `changelog.head`, fsynced: a record kept in the log is in the queue, so nothing
//!   is lost when the process dies before sending. The sender ([`pending`], [`settle`])
//!   removes what the cluster took.
//! - `mirror-rejected.jsonl`: queue lines that must never be sent — torn by a crash
//!   mid-append, or edited (the hash does not match the content) — moved out of the queue so
//!   the rest is sent, kept for a person to look at.
//!
//! The queue is read and rewritten under the change log's lock, but never held during a
//! send (a slow server must not stall another process's journal): lines are removed by
//! content, and a rewrite keeps every line appended meanwhile.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::chain::hash_of;
use super::checks::log_problem;
use super::error::ChangelogError;
use crate::base::fsutil;

/// The queue file under `home`.
pub fn queue_path(home: &Path) -> PathBuf {
    home.join("mirror-queue.jsonl")
}

/// The file of rejected queue lines under `home`.
pub fn rejected_path(home: &Path) -> PathBuf {
    home.join("mirror-rejected.jsonl")
}

/// The journal id file under `home`.
pub fn id_path(home: &Path) -> PathBuf {
    home.join("journal-id")
}

/// The lock the journal's writers and the queue's readers share.
fn lock_path(home: &Path) -> PathBuf {
    home.join("changelog.lock")
}

/// This MYOPS_HOME's journal id for the mirror's writer: read from `journal-id`
/// ([`existing_id`]), or created there (0600) under the change log's lock when missing (16
/// lowercase hex digits, from `/dev/urandom`). A file that is not an id is never replaced.
///
/// # Errors
/// [`ChangelogError::JournalId`] when the file holds something that is not an id (the
/// records stay queued); [`ChangelogError::Read`] when it cannot be read;
/// [`ChangelogError::Write`] when the lock or the file cannot be written.
pub fn journal_id(home: &Path) -> Result<String, ChangelogError> {
    let path = id_path(home);
    if let Some(id) = existing_id(home)? {
        return Ok(id);
    }
    fsutil::ensure_private_dir(home).map_err(|e| ChangelogError::write(&path, &e))?;
    let _lock =
        fsutil::lock_exclusive(&lock_path(home)).map_err(|e| ChangelogError::write(&path, &e))?;
    if let Some(id) = existing_id(home)? {
        return Ok(id);
    }
    let id: String = super::new_session_id().chars().take(16).collect();
    fsutil::write_atomic(&path, format!("{id}\n").as_bytes())
        .map_err(|e| ChangelogError::write(&path, &e))?;
    Ok(id)
}

/// The journal id in `MYOPS_HOME/journal-id`, as the writer and the reader (`changelog
/// verify --against-cluster`) both take it: `None` when the file does not exist (nothing
/// mirrored from this home yet); the id when it holds one (16 lowercase hex digits, trimmed).
/// The id goes into label selectors, so nothing else is ever taken.
///
/// # Errors
/// [`ChangelogError::JournalId`] when the file holds anything else (never replaced: restore
/// it or remove it); [`ChangelogError::Read`] when it is not a regular file or cannot be read.
pub fn existing_id(home: &Path) -> Result<Option<String>, ChangelogError> {
    let path = id_path(home);
    let bytes = match fsutil::read_regular(&path, 4096) {
        Ok(b) => b,
        Err(e) if matches!(e.problem, fsutil::Unreadable::Missing) => return Ok(None),
        Err(e) if matches!(e.problem, fsutil::Unreadable::TooLarge { .. }) => {
            return Err(ChangelogError::JournalId { path });
        }
        Err(e) => {
            return Err(ChangelogError::Read {
                path,
                why: e.problem.to_string(),
            });
        }
    };
    let id = std::str::from_utf8(&bytes).map(str::trim).unwrap_or("");
    if is_id(id) {
        Ok(Some(id.to_string()))
    } else {
        Err(ChangelogError::JournalId { path })
    }
}

/// Whether `s` is a journal id: 16 lowercase hex digits.
fn is_id(s: &str) -> bool {
    s.len() == 16
        && s.chars()
            .all(|c| c.is_ascii_digit() || ('a'..='f').contains(&c))
}

/// Proves the queue usable before a mutation, as [`super::Journal::open`] proves the log:
/// a queue path that is not a regular file would fail the outcome record after the request
/// was sent, so it refuses the change before anything is sent.
///
/// # Errors
/// [`ChangelogError::Write`] naming the queue and what to do.
pub fn check(home: &Path) -> Result<(), ChangelogError> {
    let path = queue_path(home);
    match log_problem(&path) {
        Some(why) => Err(ChangelogError::Write { path, why }),
        None => Ok(()),
    }
}

/// Appends `lines` (sealed records, without newlines) to the queue and fsyncs it; called by
/// the journal's writer under the change log's lock. Returns the queue's length before, so
/// the writer can cut it back when a later step of the append fails.
///
/// # Errors
/// [`ChangelogError::Write`] naming the queue: it is not a regular file (never opened, as
/// the log), or the write fails (the queue is cut back to where it was).
pub(super) fn enqueue(home: &Path, lines: &[&[u8]]) -> Result<u64, ChangelogError> {
    let path = queue_path(home);
    let f = open_append(&path)?;
    let fail = |e: std::io::Error| ChangelogError::write(&path, &e);
    let len = f.metadata().map_err(fail)?.len();
    let last = if len == 0 {
        None
    } else {
        let mut b = [0u8; 1];
        std::os::unix::fs::FileExt::read_exact_at(&f, &mut b, len - 1).map_err(fail)?;
        Some(b[0])
    };
    let mut bytes = Vec::new();
    if last.is_some_and(|b| b != b'\n') {
        bytes.push(b'\n');
    }
    for line in lines {
        bytes.extend_from_slice(line);
        bytes.push(b'\n');
    }
    let mut writer = &f;
    writer
        .write_all(&bytes)
        .and_then(|()| f.sync_all())
        .map_err(|e| {
            let _ = f.set_len(len).and_then(|()| f.sync_all());
            fail(e)
        })?;
    Ok(len)
}

/// Cuts the queue back to `len` bytes (a later step of the journal's append failed).
pub(super) fn cut_back(home: &Path, len: u64) {
    if let Ok(f) = std::fs::OpenOptions::new()
        .write(true)
        .open(queue_path(home))
    {
        let _ = f.set_len(len).and_then(|()| f.sync_all());
    }
}

/// Opens the queue for appending (0600), refusing a path that is not a regular file before
/// opening it, as the log's path is refused.
fn open_append(path: &Path) -> Result<std::fs::File, ChangelogError> {
    if let Some(why) = log_problem(path) {
        return Err(ChangelogError::Write {
            path: path.to_path_buf(),
            why,
        });
    }
    let mut o = std::fs::OpenOptions::new();
    o.read(true).create(true).append(true);
    std::os::unix::fs::OpenOptionsExt::mode(&mut o, 0o600);
    o.open(path).map_err(|e| ChangelogError::write(path, &e))
}

/// One line of the queue that may be sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Queued {
    /// Its line number in the queue (1-based), for messages.
    pub number: usize,
    /// The sealed record, without its newline.
    pub line: String,
    /// The record's `server`.
    pub server: String,
    /// The record's `user`.
    pub user: String,
}

/// One line of the queue that must never be sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejected {
    /// Its line number in the queue (1-based).
    pub number: usize,
    /// Why (never its content).
    pub why: String,
    /// The line's bytes, moved to `mirror-rejected.jsonl`.
    pub bytes: Vec<u8>,
}

impl Rejected {
    /// The `warning:` line about it: its number and why, never its content.
    pub fn warning(&self, home: &Path) -> String {
        format!(
            "warning: line {} of the mirror queue {} is never sent ({}); it was moved to {}",
            self.number,
            queue_path(home).display(),
            self.why,
            rejected_path(home).display()
        )
    }
}

/// The queue's bytes judged line by line (pure): lines that may be sent, oldest first, and
/// lines that must not — torn (the last line without its newline, or not a JSON object of
/// a sealed record), or edited (its `hash` does not match its content). Empty lines are
/// skipped.
pub fn judge(bytes: &[u8]) -> (Vec<Queued>, Vec<Rejected>) {
    let mut good = Vec::new();
    let mut bad = Vec::new();
    let ends_with_newline = bytes.last() == Some(&b'\n');
    let pieces: Vec<&[u8]> = bytes.split(|b| *b == b'\n').collect();
    let count = pieces.len();
    for (i, raw) in pieces.into_iter().enumerate() {
        let number = i + 1;
        if raw.is_empty() {
            continue;
        }
        let torn_tail = i + 1 == count && !ends_with_newline;
        let reject = |why: &str| Rejected {
            number,
            why: why.to_string(),
            bytes: raw.to_vec(),
        };
        if torn_tail {
            bad.push(reject("torn: it does not end with a newline"));
            continue;
        }
        match judge_line(raw) {
            Ok((line, server, user)) => good.push(Queued {
                number,
                line,
                server,
                user,
            }),
            Err(why) => bad.push(reject(&why)),
        }
    }
    (good, bad)
}

/// One queue line judged: the line, its server and user, or why it is never sent.
fn judge_line(raw: &[u8]) -> Result<(String, String, String), String> {
    let line = std::str::from_utf8(raw).map_err(|_| "torn: it is not UTF-8".to_string())?;
    let map: Map<String, Value> = match serde_json::from_str(line) {
        Ok(Value::Object(m)) => m,
        Ok(_) => return Err("it is not a JSON object".into()),
        Err(e) if e.is_eof() => return Err("torn: the JSON ends early".into()),
        Err(_) => return Err("torn: it is not JSON".into()),
    };
    let text = |k: &str| map.get(k).and_then(Value::as_str).map(str::to_string);
    let Some(hash) = text("hash") else {
        return Err("it has no hash".into());
    };
    if hash_of(&map) != hash {
        return Err("edited: its hash does not match its content".into());
    }
    match (text("server"), text("user")) {
        (Some(server), Some(user)) => Ok((line.to_string(), server, user)),
        _ => Err("it is not a change-log record (no server or user)".into()),
    }
}

/// The queue as it is now, judged ([`judge`]), read under the change log's lock; an absent
/// queue is empty.
///
/// # Errors
/// [`ChangelogError::Read`] when the queue is not a regular file or cannot be read.
pub fn pending(home: &Path) -> Result<(Vec<Queued>, Vec<Rejected>), ChangelogError> {
    let path = queue_path(home);
    if !home.is_dir() {
        return Ok((Vec::new(), Vec::new()));
    }
    let _lock =
        fsutil::lock_exclusive(&lock_path(home)).map_err(|e| ChangelogError::read(&path, &e))?;
    Ok(judge(&read_queue(&path)?))
}

/// The queue's bytes (empty when absent), refusing a path that is not a regular file.
fn read_queue(path: &Path) -> Result<Vec<u8>, ChangelogError> {
    if let Some(why) = log_problem(path) {
        return Err(ChangelogError::Read {
            path: path.to_path_buf(),
            why,
        });
    }
    match std::fs::read(path) {
        Ok(b) => Ok(b),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(ChangelogError::read(path, &e)),
    }
}

/// The queue's bytes without the lines `sent` and `rejected` (pure): each removed once,
/// matched by content, every other line kept in order — lines appended since the queue was
/// read stay.
pub fn without(bytes: &[u8], sent: &[String], rejected: &[Vec<u8>]) -> Vec<u8> {
    let mut drop_sent: Vec<&[u8]> = sent.iter().map(|s| s.as_bytes()).collect();
    let mut drop_bad: Vec<&[u8]> = rejected.iter().map(Vec::as_slice).collect();
    let mut out = Vec::with_capacity(bytes.len());
    for raw in bytes.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
        if let Some(i) = drop_sent.iter().position(|s| *s == raw) {
            drop_sent.swap_remove(i);
            continue;
        }
        if let Some(i) = drop_bad.iter().position(|s| *s == raw) {
            drop_bad.swap_remove(i);
            continue;
        }
        out.extend_from_slice(raw);
        out.push(b'\n');
    }
    out
}

/// Removes from the queue the lines the cluster took (`sent`) and moves `rejected` lines to
/// `mirror-rejected.jsonl` (0600), under the change log's lock: the rejected lines are
/// appended and fsynced first, then the queue is replaced atomically with what is left.
/// Returns how many lines stay queued.
///
/// # Errors
/// [`ChangelogError::Write`] when a file cannot be written (the queue is then unchanged, so
/// a sent line is sent again: harmless, creates are idempotent by name).
pub fn settle(
    home: &Path,
    sent: &[String],
    rejected: &[Rejected],
) -> Result<usize, ChangelogError> {
    let path = queue_path(home);
    let _lock =
        fsutil::lock_exclusive(&lock_path(home)).map_err(|e| ChangelogError::write(&path, &e))?;
    let bytes = read_queue(&path).map_err(|e| ChangelogError::Write {
        path: path.clone(),
        why: e.to_string(),
    })?;
    if !rejected.is_empty() {
        let rpath = rejected_path(home);
        let f = open_append(&rpath)?;
        let mut all = Vec::new();
        for r in rejected {
            all.extend_from_slice(&r.bytes);
            all.push(b'\n');
        }
        let mut w = &f;
        w.write_all(&all)
            .and_then(|()| f.sync_all())
            .map_err(|e| ChangelogError::write(&rpath, &e))?;
    }
    let bad: Vec<Vec<u8>> = rejected.iter().map(|r| r.bytes.clone()).collect();
    let left = without(&bytes, sent, &bad);
    if left != bytes {
        fsutil::write_atomic(&path, &left).map_err(|e| ChangelogError::write(&path, &e))?;
    }
    Ok(left
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .count())
}

#[cfg(test)]
#[path = "outbox_tests.rs"]
mod tests;
