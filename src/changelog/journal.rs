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
        if entries.is_empty() {
            return Ok(());
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
/// `changelog.head`.
fn append(
    home: &Path,
    entries: &[Entry],
    retention: &Retention,
    mirror: bool,
) -> Result<(), ChangelogError> {
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
    let mut bytes = Vec::with_capacity(total as usize + 1);
    let mut prev = last;
    for line in &lines {
        let framed = framed(line.clone(), prev);
        prev = framed.last().copied();
        bytes.extend_from_slice(&framed);
    }
    f.write_all(&bytes)
        .and_then(|()| f.sync_all())
        .map_err(|e| cut_back(&f, e))
        .map_err(fail)?;
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
        Some(super::outbox::enqueue(home, &complete).map_err(|e| {
            let _ = cut_back(&f, std::io::Error::other(""));
            e
        })?)
    };
    let base = chain::read_head(home)
        .ok()
        .flatten()
        .map_or(chain::GENESIS.to_string(), |h| h.base);
    chain::write_head(home, &chain::Head { head: hash, base })
        .map_err(|e| {
            if let Some(len) = queued_from {
                super::outbox::cut_back(home, len);
            }
            cut_back(&f, e)
        })
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
mod tests {
    use serde_json::Value;

    use super::*;
    use crate::changelog::model::{Operation, sample_entry as entry};
    use crate::changelog::read::{read_all, read_files};

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
        // Concurrent appenders keep one hash chain.
        let (files, head) = read_files(home.path()).unwrap();
        let summary = chain::verify(&files, head).unwrap();
        assert_eq!((summary.records, summary.unchained), (200, 0));
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

    /// A disk full after the record's line but before `changelog.head` is replaced: the log
    /// is cut back, so no intent of a request never sent stays behind unnamed by the head
    /// (a break `verify` would report). Here the head's temp file cannot be created.
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
    fn framed_starts_a_fresh_line_only_when_needed() {
        assert_eq!(framed(b"{}".to_vec(), None), b"{}\n");
        assert_eq!(framed(b"{}".to_vec(), Some(b'\n')), b"{}\n");
        assert_eq!(framed(b"{}".to_vec(), Some(b'x')), b"\n{}\n");
    }

    #[test]
    fn append_scrubs_registered_secrets_from_every_field() {
        crate::base::redact::remember("tok-7f3a9c-never-stored");
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

    /// A version-1 record (no `formatVersion`) as the builds before the field wrote it, with
    /// its hash: the hash covers the record as written, so it stays valid in every build.
    const VERSION_1_RECORD: &str = r#"{"id":"18dc3a7e000-4d2-0","session":"5e55","timestamp":"2026-11-30T08:00:00Z","plugin":"myops","user":"admin","context":"admin","server":"https://127.0.0.1:6443","apiVersion":"v1","kind":"ConfigMap","namespace":"shop","name":"web","uid":null,"operation":"patch","patchType":"merge","patch":{"data":{"color":"green"}},"dryRun":false,"before":{"kind":"ConfigMap","data":{"color":"blue"}},"resourceVersionAfter":"7","result":"success","durationSeconds":0.25,"prev":"0000000000000000000000000000000000000000000000000000000000000000","hash":"853b9affba21a3bd8ac6348a5914e706628fd191ded155d93b8cafa5a419044e"}"#;
    const VERSION_1_HASH: &str = "853b9affba21a3bd8ac6348a5914e706628fd191ded155d93b8cafa5a419044e";

    #[test]
    fn an_old_record_without_a_format_version_parses_verifies_and_the_chain_runs_on_from_it() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(path(d.path()), format!("{VERSION_1_RECORD}\n")).unwrap();
        let head = chain::Head {
            head: VERSION_1_HASH.into(),
            base: chain::GENESIS.into(),
        };
        chain::write_head(d.path(), &head).unwrap();
        let (entries, invalid) = read_all(d.path()).unwrap();
        assert_eq!((entries.len(), invalid.len()), (1, 0));
        assert_eq!(entries[0].format_version, None, "absent: version 1");
        assert_eq!(entries[0].before.as_ref().unwrap()["data"]["color"], "blue");
        let shown = serde_json::to_value(&entries[0]).unwrap();
        assert!(shown.get("formatVersion").is_none(), "{shown}");
        let (files, head) = read_files(d.path()).unwrap();
        let s = chain::verify(&files, head).unwrap();
        assert_eq!((s.records, s.unchained), (1, 0));
        assert_eq!(s.last, VERSION_1_HASH);
        // A record of this build chains on to it.
        Journal::open(d.path())
            .unwrap()
            .append(&entry("next"))
            .unwrap();
        let text = std::fs::read_to_string(path(d.path())).unwrap();
        let next: Value = serde_json::from_str(text.lines().nth(1).unwrap()).unwrap();
        assert_eq!(next["prev"], VERSION_1_HASH);
        assert_eq!(next["formatVersion"], FORMAT_VERSION);
        let (files, head) = read_files(d.path()).unwrap();
        assert_eq!(chain::verify(&files, head).unwrap().records, 2);
    }

    #[test]
    fn every_record_this_build_writes_has_format_version_2_and_its_chain_verifies() {
        let d = tempfile::tempdir().unwrap();
        let j = Journal::open(d.path()).unwrap();
        j.append(&entry("a")).unwrap();
        // An entry built without the field (the outcome of an older intent) is written in
        // this build's format too.
        let unversioned = Entry {
            format_version: None,
            ..entry("b")
        };
        j.append(&unversioned).unwrap();
        let text = std::fs::read_to_string(j.path()).unwrap();
        for line in text.lines() {
            assert!(line.starts_with("{\"id\":\""), "the id stays first: {line}");
            let v: Value = serde_json::from_str(line).unwrap();
            assert_eq!(v["formatVersion"], 2, "{line}");
        }
        let (entries, _) = read_all(d.path()).unwrap();
        assert!(entries.iter().all(|e| e.format_version == Some(2)));
        let (files, head) = read_files(d.path()).unwrap();
        let s = chain::verify(&files, head).unwrap();
        assert_eq!((s.records, s.unchained), (2, 0));
    }

    #[test]
    fn a_group_of_records_is_appended_chained_in_order_in_one_step() {
        let d = tempfile::tempdir().unwrap();
        let j = Journal::open(d.path()).unwrap();
        j.append(&entry("before")).unwrap();
        let group: Vec<Entry> = ["a", "b", "c"].iter().map(|n| entry(n)).collect();
        j.append_all(&group).unwrap();
        j.append_all(&[]).unwrap();
        j.append(&entry("after")).unwrap();
        let text = std::fs::read_to_string(path(d.path())).unwrap();
        let names: Vec<String> = text
            .lines()
            .map(|l| serde_json::from_str::<Entry>(l).unwrap().name)
            .collect();
        assert_eq!(names, ["before", "a", "b", "c", "after"]);
        let (files, head) = read_files(d.path()).unwrap();
        assert_eq!(chain::verify(&files, head).unwrap().records, 5);
    }
}
