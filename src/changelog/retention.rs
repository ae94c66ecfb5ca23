//! Retention: the log is rotated when an append would take it past
//! `changelog.maxSize`, or when its first record is older than `changelog.maxAge`
//! (plugin.yaml; defaults [`Retention::default`]). Rotation renames, under the writers' lock,
//! `changelog.jsonl.4` → `.5`, …, `changelog.jsonl` → `.1`, deleting `.5` first:
//! [`ROTATED_FILES`] rotated files are kept. The chain runs on across files — the first
//! record of a new file chains to the last record of the previous one — and when the oldest
//! file is deleted, its last hash becomes the chain's `base` in `changelog.head`, so the
//! oldest retained record is still checked ([`super::chain`]).
//!
//! Readers (`changelog list|show|verify`, `rollback`) read the retained files oldest first
//! ([`files`]); an entry whose records were all in a deleted file is gone, and `rollback`
//! and `changelog show` say so ([`rotated_away`]).

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::chain::{self, GENESIS, Head, Tip};

/// How many rotated files are kept (`changelog.jsonl.1` … `.5`): with the default 10 MiB
/// cap, at most 60 MiB of log in MYOPS_HOME.
pub const ROTATED_FILES: usize = 5;

/// When the active log file is rotated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Retention {
    /// Rotate before an append that would make the file larger than this, in bytes (a
    /// single larger record gets a file of its own).
    pub max_size: u64,
    /// Rotate before an append when the file's first record is older than this.
    pub max_age: Duration,
}

impl Default for Retention {
    /// 10 MiB and 90 days — see docs/changelog.md, "Retention", for why.
    fn default() -> Retention {
        Retention {
            max_size: 10 * 1024 * 1024,
            max_age: Duration::from_secs(90 * 24 * 3600),
        }
    }
}

/// Why the active file is rotated before an append.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Due {
    /// The append would pass `maxSize`.
    Size,
    /// The first record is older than `maxAge`.
    Age,
}

impl Retention {
    /// Whether the active file (`len` bytes, first record written at `first`) is rotated
    /// before appending `line_len` bytes at `now` (pure). An empty file never is.
    pub fn due(
        &self,
        len: u64,
        line_len: u64,
        first: Option<jiff::Timestamp>,
        now: jiff::Timestamp,
    ) -> Option<Due> {
        if len == 0 {
            return None;
        }
        if len.saturating_add(line_len) > self.max_size {
            return Some(Due::Size);
        }
        let age = first.and_then(|t| Duration::try_from(now.duration_since(t)).ok());
        age.filter(|a| *a > self.max_age).map(|_| Due::Age)
    }
}

/// `changelog.jsonl.N` under `home`.
pub fn rotated_path(home: &Path, n: usize) -> PathBuf {
    home.join(format!("changelog.jsonl.{n}"))
}

/// The log files under `home`, oldest first: the rotated files that exist (`.5` … `.1`),
/// then `changelog.jsonl` (listed even when it does not exist yet).
pub fn files(home: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = (1..=ROTATED_FILES)
        .rev()
        .map(|n| rotated_path(home, n))
        .filter(|p| std::fs::symlink_metadata(p).is_ok())
        .collect();
    out.push(super::checks::path(home));
    out
}

/// The hash the next record chains to: the last hashed record of the newest file that has
/// a valid record; when that record has no hash (the log predates the chain), the
/// [`chain::legacy_digest`] of that file; [`GENESIS`] when there is none.
///
/// # Errors
/// The I/O error of reading a file's tail.
pub fn chain_tip(home: &Path) -> std::io::Result<String> {
    for path in files(home).iter().rev() {
        match chain::file_tip(path)? {
            Tip::Hashed(h) => return Ok(h),
            Tip::Legacy => return Ok(chain::legacy_digest(&std::fs::read(path)?)),
            Tip::None => {}
        }
    }
    Ok(GENESIS.into())
}

/// The timestamp of the first valid record of the file at `path`, reading from its start
/// only as far as that record. `None` when there is none or it cannot be read.
pub fn first_timestamp(path: &Path) -> Option<jiff::Timestamp> {
    // Never open what is not a regular file (a FIFO would block).
    std::fs::metadata(path).ok().filter(|m| m.is_file())?;
    let f = std::fs::File::open(path).ok()?;
    let mut reader = std::io::BufReader::new(f);
    let mut line = Vec::new();
    loop {
        line.clear();
        let n = std::io::BufRead::read_until(&mut reader, b'\n', &mut line).ok()?;
        if n == 0 {
            return None;
        }
        let raw = line.strip_suffix(b"\n").unwrap_or(&line);
        if let Ok(e) = super::parse::judge(raw, false) {
            return e.timestamp.parse().ok();
        }
    }
}

/// Rotates the log under `home` (the caller holds the writers' lock): deletes the oldest
/// kept file — recording its last hash as the chain's new `base`, with `tip` as the head —
/// then shifts `.N` → `.N+1` and `changelog.jsonl` → `.1`. The renames are atomic one by one;
/// a crash between them leaves a gap in the numbers, which readers pass over.
///
/// # Errors
/// The I/O error of reading the oldest file's tail, writing `changelog.head`, deleting or
/// renaming; the files are then as the last completed step left them, and still one chain.
pub fn rotate(home: &Path, tip: &str) -> std::io::Result<()> {
    let oldest = rotated_path(home, ROTATED_FILES);
    if std::fs::symlink_metadata(&oldest).is_ok() {
        let base = chain::read_head(home)
            .ok()
            .flatten()
            .map_or(GENESIS.to_string(), |h| h.base);
        let base = match chain::file_tip(&oldest)? {
            Tip::Hashed(h) => h,
            Tip::Legacy | Tip::None => base,
        };
        chain::write_head(
            home,
            &Head {
                head: tip.into(),
                base,
            },
        )?;
        std::fs::remove_file(&oldest)?;
    }
    for n in (1..ROTATED_FILES).rev() {
        let from = rotated_path(home, n);
        if std::fs::symlink_metadata(&from).is_ok() {
            std::fs::rename(&from, rotated_path(home, n + 1))?;
        }
    }
    std::fs::rename(super::checks::path(home), rotated_path(home, 1))?;
    #[cfg(unix)]
    std::fs::File::open(home)?.sync_all()?;
    Ok(())
}

/// The sentence for an id found in no retained file whose time (the first part of an id is
/// its Unix milliseconds in hex) is before the oldest retained record's, when rotation has
/// deleted a file (`changelog.head` base is not genesis): the entry was rotated away.
/// `None` otherwise (the id never existed, as far as the log can tell).
pub fn rotated_away(home: &Path, id: &str) -> Option<String> {
    let head = chain::read_head(home).ok().flatten()?;
    if head.base == GENESIS {
        return None;
    }
    let ms = i64::from_str_radix(id.split('-').next()?, 16).ok()?;
    let when = jiff::Timestamp::from_millisecond(ms).ok()?;
    let oldest_file = files(home).into_iter().next()?;
    let oldest = first_timestamp(&oldest_file)?;
    (when < oldest).then(|| {
        format!(
            "change-log entry {} (from {when}) was rotated away: the oldest record kept is from {oldest} (changelog.maxSize/maxAge in plugin.yaml, {ROTATED_FILES} rotated files kept), so it can no longer be shown or rolled back",
            crate::base::echo::capped(id, 64)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_is_due_past_the_size_or_the_age_and_never_for_an_empty_file() {
        let r = Retention {
            max_size: 1000,
            max_age: Duration::from_secs(3600),
        };
        let now: jiff::Timestamp = "2026-12-02T10:00:00Z".parse().unwrap();
        let fresh = Some("2026-12-02T09:30:00Z".parse().unwrap());
        let old = Some("2026-12-02T08:59:59Z".parse().unwrap());
        assert_eq!(r.due(0, 5000, old, now), None);
        assert_eq!(r.due(900, 100, fresh, now), None);
        assert_eq!(r.due(900, 101, fresh, now), Some(Due::Size));
        assert_eq!(r.due(10, 10, old, now), Some(Due::Age));
        assert_eq!(r.due(10, 10, None, now), None);
    }
}
