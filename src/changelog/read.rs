//! Reading the change log: every retained file, oldest first, under the writers' lock taken
//! shared; bad lines are counted and skipped, never fatal.

use std::io::Read;
use std::path::Path;

use super::chain;
use super::checks::{home_problem, kind_of, log_problem, path};
use super::error::ChangelogError;
use super::model::Entry;
use super::parse::{InvalidLine, parse};
use super::retention;
use super::stream::LogStream;

/// The stderr line for `n` skipped lines of the log at `path` (pure): the warning of every
/// command that reads the log (`changelog`, `drift`).
pub fn skipped_warning(n: usize, path: &Path) -> String {
    format!(
        "warning: {n} line(s) of {} are not valid change-log entries and were skipped; `kubectl myops changelog list --invalid` lists them",
        path.display()
    )
}

/// Reads every entry of every retained file ([`retention::files`], oldest first); lines
/// that are not valid entries are skipped and returned with their file, line numbers and
/// reasons ([`parse`]). A missing log is an empty one. Takes the writers' lock shared when
/// its file exists, so a record being appended (or a rotation) is not seen half-way;
/// reading never creates anything.
///
/// # Errors
/// [`ChangelogError::Read`] when MYOPS_HOME is not a directory, a log file is not a regular
/// file, or one cannot be opened or read as a whole.
pub fn read_all(home: &Path) -> Result<(Vec<Entry>, Vec<InvalidLine>), ChangelogError> {
    let (files, _) = read_files(home)?;
    let mut entries = Vec::new();
    let mut invalid = Vec::new();
    let active = path(home);
    let active = active.file_name().and_then(|n| n.to_str()).unwrap_or("");
    for (name, bytes) in files {
        let (e, mut i) = parse(&bytes);
        if name != active {
            for line in &mut i {
                line.file = Some(name.clone());
            }
        }
        entries.extend(e);
        invalid.extend(i);
    }
    Ok((entries, invalid))
}

/// The retained log files (name and bytes, oldest first; the active file only when it
/// exists) and `changelog.head` ([`chain::read_head`]), read together under the writers'
/// lock taken shared: what `changelog verify` walks.
///
/// # Errors
/// As [`read_all`].
pub fn read_files(home: &Path) -> Result<(chain::LogFiles, chain::HeadRead), ChangelogError> {
    if let Some(why) = home_problem(home) {
        return Err(ChangelogError::Read {
            path: path(home),
            why,
        });
    }
    // Best effort, and only on a regular lock file: opening a FIFO for reading would block.
    let lock = home.join("changelog.lock");
    let _lock = std::fs::metadata(&lock)
        .is_ok_and(|m| m.is_file())
        .then(|| std::fs::File::open(&lock).ok())
        .flatten()
        .filter(|f| f.lock_shared().is_ok());
    let mut files = Vec::new();
    for file in retention::files(home) {
        if let Some(bytes) = read_log_file(&file)? {
            let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("");
            files.push((name.to_string(), bytes));
        }
    }
    Ok((files, chain::read_head(home)))
}

/// The bytes of one log file, `None` when it does not exist; refused before opening when it
/// is not a regular file (a FIFO would block), and checked again once opened.
fn read_log_file(path: &Path) -> Result<Option<Vec<u8>>, ChangelogError> {
    let fail = |why: String| ChangelogError::Read {
        path: path.to_path_buf(),
        why,
    };
    if let Some(why) = log_problem(path) {
        return Err(fail(why));
    }
    let mut f = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(ChangelogError::read(path, &e)),
    };
    // The path was a regular file when checked; make sure the file opened still is one.
    match f.metadata() {
        Ok(m) if m.is_file() => {}
        Ok(m) => {
            return Err(fail(format!(
                "it is {}, not a regular file; move it away and a new log is started",
                kind_of(&m)
            )));
        }
        Err(e) => return Err(ChangelogError::read(path, &e)),
    }
    let mut bytes = Vec::new();
    f.read_to_end(&mut bytes)
        .map_err(|e| ChangelogError::read(path, &e))?;
    Ok(Some(bytes))
}

/// Walks the retained files as one hash chain, line by line ([`chain::Walk`]): what
/// [`chain::verify`] answers for [`read_files`]' files and head, holding one line at a time
/// instead of the whole log. `changelog.head` is read under the same shared lock.
///
/// # Errors
/// As [`read_all`].
pub fn verify_log(home: &Path) -> Result<chain::Verdict, ChangelogError> {
    let mut stream = LogStream::open(home)?;
    let head = chain::read_head(home);
    let base = match &head {
        Ok(Some(h)) => h.base.clone(),
        _ => chain::GENESIS.to_string(),
    };
    let mut names: Vec<String> = stream.names().map(str::to_string).collect();
    let mut leftover = None;
    if names.len() > 1 && chain::is_leftover(&stream.tip(0)?, &base) {
        stream.skip_oldest();
        leftover = Some(names.remove(0));
    }
    let skipped = usize::from(leftover.is_some());
    let mut walk = chain::Walk::new(&head);
    let mut raw = Vec::new();
    while let Some((loc, number, unterminated)) = next_copied(&mut stream, &mut raw)? {
        let mut failed = None;
        let mut digest = |file: usize, end: Option<usize>| {
            let i = (file + skipped) as u32;
            let end = end.map_or(u64::MAX, |e| e as u64);
            match stream.read_range(i, 0, end) {
                Ok(bytes) => chain::legacy_digest(&bytes),
                Err(e) => {
                    failed = Some(e);
                    String::new()
                }
            }
        };
        let file = loc.file as usize - skipped;
        walk.line(
            &names[file],
            file,
            number,
            &raw,
            unterminated,
            loc.offset as usize,
            &mut digest,
        );
        if let Some(e) = failed {
            return Err(e);
        }
    }
    Ok(walk.finish(head, names, leftover))
}

/// The stream's next line copied into `raw`, with its place, number and whether it is
/// unterminated (the copy frees the stream for re-reading a file's start mid-walk).
fn next_copied(
    stream: &mut LogStream,
    raw: &mut Vec<u8>,
) -> Result<Option<(super::stream::Loc, usize, bool)>, ChangelogError> {
    Ok(stream.next_line()?.map(|l| {
        raw.clear();
        raw.extend_from_slice(l.raw);
        (l.loc, l.number, l.unterminated)
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_log_reads_as_empty_and_creates_nothing() {
        let d = tempfile::tempdir().unwrap();
        let home = d.path().join("not-yet");
        assert_eq!(read_all(&home).unwrap(), (Vec::new(), Vec::new()));
        assert!(!home.exists());
    }
}
