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

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::chain::hash_of;
use super::checks::kind_of;
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
/// a queue path that is not a regular file (or is a symbolic link) would fail the outcome
/// record after the request was sent, so it refuses the change before anything is sent.
///
/// # Errors
/// [`ChangelogError::Queue`] naming the queue and what to do.
pub fn check(home: &Path) -> Result<(), ChangelogError> {
    let path = queue_path(home);
    match queue_problem(&path) {
        Some(why) => Err(ChangelogError::Queue { path, why }),
        None => Ok(()),
    }
}

/// What is wrong with a queue path, if anything: a symbolic link (never followed: the queue
/// is written with the user's rights wherever the link points) or not a regular file. A
/// missing queue is fine (it is created).
fn queue_problem(path: &Path) -> Option<String> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.is_symlink() => Some(
            "it is a symbolic link, which the queue never follows; remove the link and a new queue is started (the records stay in the change log)".into(),
        ),
        Ok(m) if !m.is_file() => Some(format!(
            "it is {}, not a regular file; move it away and a new queue is started (the records stay in the change log)",
            kind_of(&m)
        )),
        _ => None,
    }
}

/// Appends `lines` (sealed records, without newlines) to the queue and fsyncs it; called by
/// the journal's writer under the change log's lock. Returns the queue's length before, so
/// the writer can cut it back when a later step of the append fails.
///
/// # Errors
/// [`ChangelogError::Queue`] when it is not a regular file (never opened, as the log);
/// [`ChangelogError::Write`] when the write fails (the queue is cut back to where it was).
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

/// Opens a queue file for appending (0600), refusing a path that is a symbolic link or not
/// a regular file before opening it (and `O_NOFOLLOW`, so a link put there meanwhile is
/// refused too).
fn open_append(path: &Path) -> Result<std::fs::File, ChangelogError> {
    if let Some(why) = queue_problem(path) {
        return Err(ChangelogError::Queue {
            path: path.to_path_buf(),
            why,
        });
    }
    let mut o = std::fs::OpenOptions::new();
    o.read(true).create(true).append(true);
    std::os::unix::fs::OpenOptionsExt::mode(&mut o, 0o600);
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut o, libc::O_NOFOLLOW);
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

/// Queue lines that must never be sent, summarized: how many, and the first
/// [`NAMED_REJECTIONS`] by number with why (never their content). A queue of garbage is one
/// warning, not one per line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rejections {
    /// How many lines.
    pub count: usize,
    /// The first ones: line number in the queue (1-based) and why.
    pub first: Vec<(usize, String)>,
}

/// How many rejected lines the warning names by number.
pub const NAMED_REJECTIONS: usize = 5;

/// The longest queue line kept (bytes): a record over 1.5 MiB is already split into parts
/// in the mirror, so a longer line is garbage; it is moved cut at this length.
pub const MAX_LINE: usize = 16 << 20;

/// The largest queue (bytes) a command reads after its change: over it, the records stay
/// queued and `changelog mirror push` sends them (it reads any size, line by line).
pub const AUTO_CAP: u64 = 64 << 20;

impl Rejections {
    fn add(&mut self, number: usize, why: String) {
        self.count += 1;
        if self.first.len() < NAMED_REJECTIONS {
            self.first.push((number, why));
        }
    }

    /// The one `warning:` line about them (`None` when there are none): the count, the
    /// first lines by number and why, never their content.
    pub fn warning(&self, home: &Path) -> Option<String> {
        if self.count == 0 {
            return None;
        }
        let named: Vec<String> = self
            .first
            .iter()
            .map(|(n, why)| format!("line {n}: {why}"))
            .collect();
        let more = match self.count - self.first.len() {
            0 => String::new(),
            n => format!("; and {n} more"),
        };
        Some(format!(
            "warning: {} line(s) of the mirror queue {} are never sent ({}{more}); they were moved to {}",
            self.count,
            queue_path(home).display(),
            named.join("; "),
            rejected_path(home).display()
        ))
    }
}

/// One line read by [`next_line`]: at most [`MAX_LINE`] bytes of it.
struct Line {
    bytes: Vec<u8>,
    newline: bool,
    long: bool,
}

/// The next line of `r`, without holding more than [`MAX_LINE`] bytes of it; `None` at the
/// end.
fn next_line(r: &mut impl BufRead) -> std::io::Result<Option<Line>> {
    let mut line = Line {
        bytes: Vec::new(),
        newline: false,
        long: false,
    };
    loop {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            let any = !line.bytes.is_empty() || line.long;
            return Ok(any.then_some(line));
        }
        let end = buf.iter().position(|b| *b == b'\n');
        let chunk = &buf[..end.unwrap_or(buf.len())];
        let keep = chunk.len().min(MAX_LINE - line.bytes.len());
        line.bytes.extend_from_slice(&chunk[..keep]);
        line.long |= keep < chunk.len();
        let used = end.map_or(buf.len(), |i| i + 1);
        r.consume(used);
        if end.is_some() {
            line.newline = true;
            return Ok(Some(line));
        }
    }
}

/// Why a line read is never sent, or `None` when it may be (with its line, server, user).
fn judge_read(line: &Line) -> Result<(String, String, String), String> {
    if line.long {
        return Err(format!(
            "it is longer than {} MiB, which no record is",
            MAX_LINE >> 20
        ));
    }
    if !line.newline {
        return Err("torn: it does not end with a newline".into());
    }
    judge_line(&line.bytes)
}

/// A queue read line by line and judged: lines that may be sent, oldest first, and the
/// summary of lines that must not — torn (the last line without its newline, or not a JSON
/// object of a sealed record), edited (its `hash` does not match its content) or longer than
/// [`MAX_LINE`]. Empty lines are skipped.
///
/// # Errors
/// The reader's.
pub fn judge_reader(r: &mut impl BufRead) -> std::io::Result<(Vec<Queued>, Rejections)> {
    let mut good = Vec::new();
    let mut bad = Rejections::default();
    let mut number = 0;
    while let Some(line) = next_line(r)? {
        number += 1;
        if line.bytes.is_empty() && !line.long {
            continue;
        }
        match judge_read(&line) {
            Ok((line, server, user)) => good.push(Queued {
                number,
                line,
                server,
                user,
            }),
            Err(why) => bad.add(number, why),
        }
    }
    Ok((good, bad))
}

/// [`judge_reader`] over bytes (pure).
pub fn judge(bytes: &[u8]) -> (Vec<Queued>, Rejections) {
    let mut r = bytes;
    judge_reader(&mut r).unwrap_or_default()
}

/// One queue line judged: the line, its server and user, or why it is never sent.
fn judge_line(raw: &[u8]) -> Result<(String, String, String), String> {
    let line = std::str::from_utf8(raw).map_err(|_| "torn: it is not UTF-8".to_string())?;
    let map: Map<String, Value> = match crate::base::decode::from_str(line) {
        Ok(Value::Object(m)) => m,
        Ok(_) => return Err("it is not a JSON object".into()),
        Err(crate::base::decode::DecodeError::Json(e)) if e.is_eof() => {
            return Err("torn: the JSON ends early".into());
        }
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

/// The queue opened for reading, `None` when absent; refused when it is a symbolic link, not
/// a regular file, or (with `cap`) larger than `cap` bytes.
fn open_queue(path: &Path, cap: Option<u64>) -> Result<Option<std::fs::File>, ChangelogError> {
    let refused = |why: String| ChangelogError::Queue {
        path: path.to_path_buf(),
        why,
    };
    if let Some(why) = queue_problem(path) {
        return Err(refused(why));
    }
    let f = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(ChangelogError::read(path, &e)),
    };
    let len = f
        .metadata()
        .map_err(|e| ChangelogError::read(path, &e))?
        .len();
    match cap {
        Some(cap) if len > cap => Err(refused(format!(
            "it holds {} MiB, more than the {} MiB a command reads after its change; its records stay queued: run `kubectl myops changelog mirror push` in the context they belong to",
            len >> 20,
            cap >> 20
        ))),
        _ => Ok(Some(f)),
    }
}

/// The queue as it is now, judged line by line ([`judge_reader`]) under the change log's
/// lock, never held whole; an absent queue is empty. `cap`: the largest queue read
/// ([`AUTO_CAP`] after a change; `None` for `changelog mirror push`).
///
/// # Errors
/// [`ChangelogError::Queue`] when the queue is a symbolic link, not a regular file or over
/// `cap`; [`ChangelogError::Read`] when it cannot be read.
pub fn pending(home: &Path, cap: Option<u64>) -> Result<(Vec<Queued>, Rejections), ChangelogError> {
    let path = queue_path(home);
    if !home.is_dir() {
        return Ok(Default::default());
    }
    let _lock =
        fsutil::lock_exclusive(&lock_path(home)).map_err(|e| ChangelogError::read(&path, &e))?;
    let Some(f) = open_queue(&path, cap)? else {
        return Ok(Default::default());
    };
    judge_reader(&mut std::io::BufReader::new(f)).map_err(|e| ChangelogError::read(&path, &e))
}

/// Removes from the queue the lines the cluster took (`sent`, each once, matched by
/// content) and moves the lines that must never be sent (judged again, as [`pending`]
/// judges) to `mirror-rejected.jsonl` (0600), under the change log's lock, reading the
/// queue line by line: the rejected lines are appended and fsynced first, then the queue is
/// replaced atomically with what is left — every line appended since the queue was read
/// stays. Returns how many lines stay queued.
///
/// # Errors
/// [`ChangelogError::Queue`] or [`ChangelogError::Write`] when a file cannot be used or
/// written (the queue is then unchanged, so a sent line is sent again: harmless, the copy
/// there is the same).
pub fn settle(home: &Path, sent: &[String]) -> Result<usize, ChangelogError> {
    let path = queue_path(home);
    let _lock =
        fsutil::lock_exclusive(&lock_path(home)).map_err(|e| ChangelogError::write(&path, &e))?;
    let Some(f) = open_queue(&path, None)? else {
        return Ok(0);
    };
    let mut drop_sent: Vec<&[u8]> = sent.iter().map(|s| s.as_bytes()).collect();
    let (mut left, mut kept, mut changed) = (Vec::new(), 0usize, false);
    let rpath = rejected_path(home);
    let mut moved: Option<std::io::BufWriter<std::fs::File>> = None;
    let fail = |e: std::io::Error| ChangelogError::write(&rpath, &e);
    let mut r = std::io::BufReader::new(f);
    while let Some(line) = next_line(&mut r).map_err(|e| ChangelogError::read(&path, &e))? {
        if line.bytes.is_empty() && !line.long {
            changed |= !line.newline;
            continue;
        }
        if line.newline
            && !line.long
            && let Some(i) = drop_sent.iter().position(|s| *s == line.bytes)
        {
            drop_sent.swap_remove(i);
            changed = true;
            continue;
        }
        if judge_read(&line).is_err() {
            if moved.is_none() {
                moved = Some(std::io::BufWriter::new(open_append(&rpath)?));
            }
            let w = moved.as_mut().expect("opened above");
            w.write_all(&line.bytes)
                .and_then(|()| w.write_all(b"\n"))
                .map_err(fail)?;
            changed = true;
            continue;
        }
        left.extend_from_slice(&line.bytes);
        left.push(b'\n');
        kept += 1;
    }
    if let Some(w) = moved {
        let f = w.into_inner().map_err(|e| fail(e.into_error()))?;
        f.sync_all().map_err(fail)?;
    }
    if changed {
        fsutil::write_atomic(&path, &left).map_err(|e| ChangelogError::write(&path, &e))?;
    }
    Ok(kept)
}

#[cfg(test)]
#[path = "outbox_tests.rs"]
mod tests;
