//! The change log's one writer, [`Journal`]: proves the log writable before a mutation,
//! then appends records write-ahead — locked, chained, fsynced, rotated when due, and cut
//! back when any part of an append fails.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::chain;
use super::checks::{home_problem, home_warning, kind_of, log_problem, path};
use super::error::ChangelogError;
use super::model::{Entry, FORMAT_VERSION, PENDING};
use super::retention::{self, Retention};
use crate::base::fsutil;

/// The change log of one `MYOPS_HOME`, proven writable: obtained only through
/// [`Journal::open`], so holding one means the log could be opened for appending and locked
/// when the command started.
#[derive(Debug, Clone)]
pub struct Journal {
    home: PathBuf,
    warning: Option<String>,
    retention: Retention,
    mirror: bool,
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
            mirror: false,
        })
    }

    /// This journal rotating by `retention` (plugin.yaml `changelog`) instead of the
    /// defaults.
    pub fn with_retention(self, retention: Retention) -> Journal {
        Journal { retention, ..self }
    }

    /// This journal also queueing every complete record for the cluster mirror
    /// (plugin.yaml `changelog.mirror` set; [`super::outbox`]).
    pub fn with_mirror(self, mirror: bool) -> Journal {
        Journal { mirror, ..self }
    }

    /// The MYOPS_HOME this journal writes.
    pub fn home(&self) -> &Path {
        &self.home
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
    /// with `formatVersion` [`FORMAT_VERSION`] whatever the entry holds, chained to the
    /// record before it ([`chain`]; `changelog.head` updated after), rotating
    /// the log first when it is due ([`retention`]). The line starts on a fresh line: when
    /// the log does not end with a newline (a record torn by a crash), one is written first,
    /// so the torn line stays one invalid line and this record stays readable.
    ///
    /// # Errors
    /// [`ChangelogError::Write`] when the lock, reading the last record's hash, rotation,
    /// the write, the fsync or updating `changelog.head` fails. For an intent record the
    /// caller must then not send the request.
    pub fn append(&self, entry: &Entry) -> Result<(), ChangelogError> {
        append(
            &self.home,
            std::slice::from_ref(entry),
            &self.retention,
            self.mirror,
        )
        .map(drop)
    }

    /// [`Journal::append`] of several records in one step (group commit): one lock, one
    /// write of their lines in order, each chained to the one before, one fsync and one
    /// update of `changelog.head`. All are kept or none: a failure cuts the log back to where
    /// it was. For the intents of a batch, the caller sends none of their requests when this
    /// fails.
    ///
    /// # Errors
    /// As [`Journal::append`].
    pub fn append_all(&self, entries: &[Entry]) -> Result<(), ChangelogError> {
        self.append_sealed(entries).map(drop)
    }

    /// [`Journal::append_all`], returning the lines as sealed and written (without their
    /// newlines), for a caller that also writes them elsewhere (`crds watch` to stdout).
    ///
    /// # Errors
    /// As [`Journal::append`].
    pub fn append_sealed(&self, entries: &[Entry]) -> Result<Vec<String>, ChangelogError> {
        if entries.is_empty() {
            return Ok(Vec::new());
        }
        append(&self.home, entries, &self.retention, self.mirror)
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

/// Appends `entries` with `formatVersion` [`FORMAT_VERSION`], every string passed through
/// [`crate::base::redact::scrub_json`], one line each (the first starting on a fresh line),
/// each chained to the record before it ([`chain::seal`]) under one exclusive lock, rotating
/// first when `retention` says so; fsyncs them once; when `mirror`, queues the complete
/// records' lines for the cluster mirror ([`super::outbox`]); then records the last hash in
/// `changelog.head`. Returns the lines written.
fn append(
    home: &Path,
    entries: &[Entry],
    retention: &Retention,
    mirror: bool,
) -> Result<Vec<String>, ChangelogError> {
    let path = path(home);
    let fail = |e: std::io::Error| ChangelogError::write(&path, &e);
    // The process-wide safety net: every string of the record (a server message quoting a
    // Secret, a URL with userinfo, a registered token) is scrubbed before it is stored.
    // A record this build writes is in this build's format, whoever built the entry (an
    // outcome copies its intent's fields, and `changelog reconcile` may complete an intent
    // an older build wrote).
    let mut records = Vec::with_capacity(entries.len());
    for entry in entries {
        let versioned = Entry {
            format_version: Some(FORMAT_VERSION),
            ..entry.clone()
        };
        let mut record =
            serde_json::to_value(&versioned).map_err(|e| fail(std::io::Error::other(e)))?;
        crate::base::redact::scrub_json(&mut record);
        records.push(record);
    }
    let _lock = fsutil::lock_exclusive(&home.join("changelog.lock")).map_err(fail)?;
    let mut f = open_log(&path)?;
    let tip = retention::chain_tip(home).map_err(fail)?;
    let seal_all = |mut tip: String| -> Result<(Vec<Vec<u8>>, String), ChangelogError> {
        let mut lines = Vec::with_capacity(records.len());
        for record in &records {
            let (line, hash) =
                chain::seal(record.clone(), &tip).map_err(|e| fail(std::io::Error::other(e)))?;
            lines.push(line);
            tip = hash;
        }
        Ok((lines, tip))
    };
    let (lines, hash) = seal_all(tip.clone())?;
    let total: u64 = lines.iter().map(|l| l.len() as u64 + 1).sum();
    let mut len = f.metadata().map_err(fail)?.len();
    let first = (len > 0)
        .then(|| retention::first_timestamp(&path))
        .flatten();
    if retention
        .due(len, total + 1, first, jiff::Timestamp::now())
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
    let intents: u64 = entries
        .iter()
        .zip(&lines)
        .filter(|(e, _)| e.result == PENDING)
        .map(|(_, l)| l.len() as u64)
        .sum();
    if intents > 0 {
        room_for_intent(home, intents).map_err(|why| ChangelogError::Write {
            path: path.clone(),
            why,
        })?;
    }
    // The records and the head are one step: when any part fails (a disk that fills up
    // part-way through a line, or before the head is replaced), the log is cut back to
    // where it was, so it never holds a torn line or a record the head does not name.
    let cut_back = |f: &std::fs::File, e: std::io::Error| {
        let _ = f.set_len(len).and_then(|()| f.sync_all());
        e
    };
    let head_error = |e: std::io::Error| ChangelogError::Write {
        path: chain::head_path(home),
        why: format!(
            "{e}; the chain's head could not be updated, so the record was not kept; check MYOPS_HOME's owner, permissions and free space"
        ),
    };
    // The new head is written to its temporary file first (after any rotation, which moves
    // `base`), so its fsync can run beside the log's: both must be on disk before the
    // rename makes it `changelog.head`, and waiting for them together is one wait instead of
    // two (an append made three fsyncs one after the other: the log, the temporary head, the
    // directory).
    let base = chain::read_head(home)
        .ok()
        .flatten()
        .map_or(chain::GENESIS.to_string(), |h| h.base);
    let staged = chain::stage_head(home, &chain::Head { head: hash, base }).map_err(head_error)?;
    let mut bytes = Vec::with_capacity(total as usize + 1);
    let mut prev = last;
    for line in &lines {
        let framed = framed(line.clone(), prev);
        prev = framed.last().copied();
        bytes.extend_from_slice(&framed);
    }
    if let Err((e, in_head)) = write_synced(&f, &bytes, &staged) {
        staged.abandon();
        let e = cut_back(&f, e);
        return Err(if in_head { head_error(e) } else { fail(e) });
    }
    // Intents are not mirrored: only a record that says what happened is the team's.
    let complete: Vec<&[u8]> = entries
        .iter()
        .zip(&lines)
        .filter(|(e, _)| mirror && e.result != PENDING)
        .map(|(_, l)| l.as_slice())
        .collect();
    let queued_from = if complete.is_empty() {
        None
    } else {
        // The queue failed: the log is cut back too, so a record is in both or in neither.
        match super::outbox::enqueue(home, &complete) {
            Ok(from) => Some(from),
            Err(e) => {
                let _ = cut_back(&f, std::io::Error::other("the mirror queue failed"));
                staged.abandon();
                return Err(e);
            }
        }
    };
    staged
        .commit()
        .map_err(|e| {
            if let Some(len) = queued_from {
                super::outbox::cut_back(home, len);
            }
            cut_back(&f, e)
        })
        .map_err(head_error)?;
    Ok(lines
        .into_iter()
        .map(|l| String::from_utf8_lossy(&l).into_owned())
        .collect())
}

/// Appends `bytes` to the log `f`, then syncs it and the `staged` head at once (the head's
/// fsync on a second thread): one wait for both devices' worth of flushing instead of two.
///
/// # Errors
/// The first failure, and whether it was the head's (`true`) or the log's.
fn write_synced(
    mut f: &std::fs::File,
    bytes: &[u8],
    staged: &fsutil::Staged,
) -> Result<(), (std::io::Error, bool)> {
    f.write_all(bytes).map_err(|e| (e, false))?;
    let (log, head) = std::thread::scope(|s| {
        let head = s.spawn(|| staged.sync());
        let log = f.sync_all();
        let head = head
            .join()
            .unwrap_or_else(|_| Err(std::io::Error::other("the head's sync panicked")));
        (log, head)
    });
    log.map_err(|e| (e, false))?;
    head.map_err(|e| (e, true))
}

/// Room an intent needs beyond its own line, in bytes: its outcome record (the intent's
/// fields plus the after-state, so up to twice the intent) and two replacements of
/// `changelog.head` (a file system block each), with slack.
const INTENT_SLACK: u64 = 64 * 1024;

/// Whether the file system of `home` has room for an intent of `line` bytes *and* its
/// outcome record (a nearly full disk): an intent written to the last free bytes would
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
#[path = "journal_tests.rs"]
mod tests;
