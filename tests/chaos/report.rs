//! What each scenario proved, in numbers: a [`Tally`] per scenario test, written as one JSON
//! line to `$MYOPS_CHAOS_REPORT` (default `target/chaos/report.jsonl`) when the test ends —
//! also when it fails (`failed: true`), so a failure is never a missing line. `scripts/chaos`
//! prints each line as
//! `scenario: faults injected N, survived N, records lost 0, max command delay X s` (the
//! lines of one scenario's tests summed), and names a test that wrote none.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use serde_json::json;

/// The report file: `$MYOPS_CHAOS_REPORT`, else `target/chaos/report.jsonl`.
pub fn path() -> PathBuf {
    std::env::var_os("MYOPS_CHAOS_REPORT")
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| super::fixture::root().join("target/chaos/report.jsonl"))
}

/// One scenario's counts. Count a fault when it is injected ([`Tally::fault`]), a survival
/// when every check after it held ([`Tally::survived`]); journal records that should exist
/// and do not go to [`Tally::lost`]; each command's wall time to [`Tally::command`].
#[derive(Debug)]
pub struct Tally {
    scenario: &'static str,
    injected: u32,
    survived: u32,
    lost: u32,
    max_delay: Duration,
    skipped: Option<String>,
    notes: Vec<String>,
}

impl Tally {
    /// A tally for `scenario` (its name in the printed line, e.g. `kill -9 between intent and
    /// outcome`).
    pub fn new(scenario: &'static str) -> Tally {
        Tally {
            scenario,
            injected: 0,
            survived: 0,
            lost: 0,
            max_delay: Duration::ZERO,
            skipped: None,
            notes: Vec::new(),
        }
    }

    /// A fault was injected.
    pub fn fault(&mut self) {
        self.injected += 1;
    }

    /// The checks after one injected fault held.
    pub fn survived(&mut self) {
        self.survived += 1;
    }

    /// `n` journal records (or metric totals) that should exist were missing.
    pub fn lost(&mut self, n: u32) {
        self.lost += n;
    }

    /// A command under fault took `took` (wall time): the report's max command delay.
    pub fn command(&mut self, took: Duration) {
        self.max_delay = self.max_delay.max(took);
    }

    /// A measured fact worth the printed line (e.g. `3 requests per failed patch, as many as
    /// with etcd up`): scripts/chaos appends the notes after the counts.
    pub fn note(&mut self, note: impl Into<String>) {
        let note = note.into();
        eprintln!("{}: {note}", self.scenario);
        self.notes.push(note);
    }

    /// The scenario cannot run on this machine, and why (printed instead of counts).
    pub fn skip(&mut self, why: impl Into<String>) {
        let why = why.into();
        eprintln!("SKIPPED {}: {why}", self.scenario);
        self.skipped = Some(why);
    }
}

impl Drop for Tally {
    fn drop(&mut self) {
        // libtest runs each test on a thread named after it (`module::test_name`, as
        // `--list` prints it): scripts/chaos names a test that wrote no line.
        let line = json!({
            "scenario": self.scenario,
            "test": std::thread::current().name(),
            "injected": self.injected,
            "survived": self.survived,
            "lost": self.lost,
            "max_delay_s": self.max_delay.as_secs_f64(),
            "skipped": self.skipped,
            "notes": self.notes,
            "failed": std::thread::panicking(),
        });
        let path = path();
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        // One write of one line with O_APPEND: lines of concurrent tests never interleave.
        let written = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .and_then(|mut f| f.write_all(format!("{line}\n").as_bytes()));
        if let Err(e) = written {
            eprintln!("cannot write the chaos report {}: {e}", path.display());
        }
    }
}
