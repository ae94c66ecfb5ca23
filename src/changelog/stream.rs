//! Reading the change log line by line: every retained file, oldest first, through one
//! buffer, so a reader holds one line at a time instead of the whole log (the log may reach
//! its retention bound, six files of 10 MiB; docs/performance.md "The long tails").
//!
//! [`LogStream`] opens every retained file up front (the same checks as [`super::read_all`]:
//! MYOPS_HOME a directory, each file a regular one) under the writers' lock taken shared and
//! held until the stream is dropped, so nothing is appended or rotated while a command walks
//! the log twice: once for the lean summaries ([`super::lean`]), then again
//! ([`LogStream::read_at`]) for the few records it prints whole.

use std::fs::File;
use std::io::{BufRead, BufReader, Seek, SeekFrom};
use std::path::Path;

use super::checks::{home_problem, kind_of, log_problem, path};
use super::error::ChangelogError;
use super::retention;

/// How much of a file one read takes: lines are copied out of this buffer one by one.
const BUFFER: usize = 64 * 1024;

/// Where one line of the log is: enough to read it again ([`LogStream::read_at`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Loc {
    /// The file's index in [`LogStream::names`] (0 is the oldest).
    pub file: u32,
    /// The byte offset of the line's start in its file.
    pub offset: u64,
    /// The line's length in bytes, without its `\n`.
    pub len: u32,
}

/// One non-blank line of the log, as [`super::lines`] yields it.
#[derive(Debug)]
pub struct Line<'a> {
    /// Where it is.
    pub loc: Loc,
    /// 1-based line number in its file.
    pub number: usize,
    /// The line without its `\n` (and `\r`).
    pub raw: &'a [u8],
    /// Whether it is the last line of its file and has no newline (a candidate torn append).
    pub unterminated: bool,
}

/// The retained log files opened for reading, oldest first, walked line by line.
pub struct LogStream {
    /// The writers' lock, taken shared (best effort), held while the stream lives or until
    /// [`LogStream::unlock`].
    lock: Option<File>,
    /// The file names (`changelog.jsonl.5` … `changelog.jsonl`) and their open handles.
    files: Vec<(String, File)>,
    /// The file being walked: its index and a reader over a handle of its own.
    current: Option<(usize, BufReader<File>)>,
    /// The next file to walk.
    next_file: usize,
    /// The 1-based number of the last line read in the current file.
    number: usize,
    /// The offset of the next line in the current file.
    offset: u64,
    /// The last line read, with its `\n`.
    buf: Vec<u8>,
}

impl LogStream {
    /// Opens every retained file ([`retention::files`], oldest first; the active file only
    /// when it exists). A missing MYOPS_HOME or log is an empty stream; nothing is created.
    ///
    /// # Errors
    /// [`ChangelogError::Read`] when MYOPS_HOME is not a directory, or a log file is not a
    /// regular file or cannot be opened.
    pub fn open(home: &Path) -> Result<LogStream, ChangelogError> {
        if let Some(why) = home_problem(home) {
            return Err(ChangelogError::Read {
                path: path(home),
                why,
            });
        }
        // Best effort, and only on a regular lock file: opening a FIFO for reading would block.
        let lock = home.join("changelog.lock");
        let lock = std::fs::metadata(&lock)
            .is_ok_and(|m| m.is_file())
            .then(|| File::open(&lock).ok())
            .flatten()
            .filter(|f| f.lock_shared().is_ok());
        let mut files = Vec::new();
        for file in retention::files(home) {
            if let Some(f) = open_log_file(&file)? {
                let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("");
                files.push((name.to_string(), f));
            }
        }
        Ok(LogStream {
            lock,
            files,
            current: None,
            next_file: 0,
            number: 0,
            offset: 0,
            buf: Vec::new(),
        })
    }

    /// The names of the files opened, oldest first (`changelog.jsonl.5` … `changelog.jsonl`).
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.files.iter().map(|(n, _)| n.as_str())
    }

    /// The name of file `i` of [`LogStream::names`].
    pub fn name(&self, i: u32) -> &str {
        self.files.get(i as usize).map_or("", |(n, _)| n.as_str())
    }

    /// The next non-blank line, `None` after the last line of the last file. Lines are split
    /// and judged blank exactly as [`super::lines`] does.
    ///
    /// # Errors
    /// [`ChangelogError::Read`] when a file cannot be read.
    pub fn next_line(&mut self) -> Result<Option<Line<'_>>, ChangelogError> {
        let (loc, end, unterminated) = loop {
            let Some((i, reader)) = &mut self.current else {
                let Some((name, f)) = self.files.get(self.next_file) else {
                    return Ok(None);
                };
                let mut handle = f.try_clone().map_err(|e| read_error(name, &e))?;
                handle
                    .seek(SeekFrom::Start(0))
                    .map_err(|e| read_error(name, &e))?;
                self.current = Some((self.next_file, BufReader::with_capacity(BUFFER, handle)));
                self.next_file += 1;
                self.number = 0;
                self.offset = 0;
                continue;
            };
            let i = *i;
            self.buf.clear();
            let n = reader
                .read_until(b'\n', &mut self.buf)
                .map_err(|e| read_error(&self.files[i].0, &e))?;
            if n == 0 {
                self.current = None;
                continue;
            }
            self.number += 1;
            let start = self.offset;
            self.offset += n as u64;
            let terminated = self.buf.last() == Some(&b'\n');
            let len = n - usize::from(terminated);
            let raw = &self.buf[..len];
            let end = len - usize::from(raw.last() == Some(&b'\r'));
            if self.buf[..end].iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let loc = Loc {
                file: i as u32,
                offset: start,
                len: u32::try_from(len).unwrap_or(u32::MAX),
            };
            break (loc, end, !terminated);
        };
        Ok(Some(Line {
            loc,
            number: self.number,
            raw: &self.buf[..end],
            unterminated,
        }))
    }

    /// Lets writers go on after the walk: the files stay open, so [`LogStream::read_at`]
    /// still reads the records walked (an append only adds after them; a rotation renames
    /// or deletes a file, which an open file survives). A reader that prints to a pipe
    /// must not hold back every mutation until the pipe is drained.
    pub fn unlock(&mut self) {
        self.lock = None;
    }

    /// Passes over the oldest file: the walk starts with the next one. Only before the walk.
    pub fn skip_oldest(&mut self) {
        if self.current.is_none() && self.next_file == 0 {
            self.next_file = 1;
        }
    }

    /// The last valid record of file `file` ([`super::chain::file_tip`]'s answer, read
    /// from the open file in growing windows from its end).
    ///
    /// # Errors
    /// [`ChangelogError::Read`] when the file cannot be read.
    pub fn tip(&self, file: u32) -> Result<super::chain::Tip, ChangelogError> {
        use super::chain::{Tip, tip_in};
        let Some((name, f)) = self.files.get(file as usize) else {
            return Ok(Tip::None);
        };
        let len = f.metadata().map_err(|e| read_error(name, &e))?.len();
        let mut window: u64 = 64 * 1024;
        loop {
            let start = len.saturating_sub(window);
            let buf = self.read_range(file, start, len - start)?;
            match tip_in(&buf, start == 0) {
                Tip::None if start > 0 => window = window.saturating_mul(2),
                tip => return Ok(tip),
            }
        }
    }

    /// The bytes of the line at `loc` (without its `\n` and `\r`), read again from its file;
    /// for after the walk ([`LogStream::next_line`] returned `None`).
    ///
    /// # Errors
    /// [`ChangelogError::Read`] when the file cannot be read there.
    pub fn read_at(&self, loc: Loc) -> Result<Vec<u8>, ChangelogError> {
        self.read_range(loc.file, loc.offset, u64::from(loc.len))
            .map(|mut b| {
                if b.last() == Some(&b'\r') {
                    b.pop();
                }
                b
            })
    }

    /// `len` bytes of file `file` from `offset` (fewer at its end).
    ///
    /// # Errors
    /// [`ChangelogError::Read`] when the file cannot be read there.
    pub fn read_range(&self, file: u32, offset: u64, len: u64) -> Result<Vec<u8>, ChangelogError> {
        let Some((name, f)) = self.files.get(file as usize) else {
            return Ok(Vec::new());
        };
        let size = f.metadata().map_err(|e| read_error(name, &e))?.len();
        let len = len.min(size.saturating_sub(offset));
        let mut out = vec![0; usize::try_from(len).unwrap_or(usize::MAX)];
        let mut got = 0;
        while got < out.len() {
            match read_at(f, &mut out[got..], offset + got as u64) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(read_error(name, &e)),
            }
        }
        out.truncate(got);
        Ok(out)
    }
}

/// A positioned read that leaves the file's offset alone (the walk's reader shares it).
fn read_at(f: &File, buf: &mut [u8], offset: u64) -> std::io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(f, buf, offset)
}

/// The read error of the log file named `name`.
fn read_error(name: &str, e: &std::io::Error) -> ChangelogError {
    ChangelogError::read(Path::new(name), e)
}

/// One log file opened for reading, `None` when it does not exist; refused before opening
/// when it is not a regular file (a FIFO would block), and checked again once opened.
pub(super) fn open_log_file(path: &Path) -> Result<Option<File>, ChangelogError> {
    let fail = |why: String| ChangelogError::Read {
        path: path.to_path_buf(),
        why,
    };
    if let Some(why) = log_problem(path) {
        return Err(fail(why));
    }
    let f = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(ChangelogError::read(path, &e)),
    };
    // The path was a regular file when checked; make sure the file opened still is one.
    match f.metadata() {
        Ok(m) if m.is_file() => Ok(Some(f)),
        Ok(m) => Err(fail(format!(
            "it is {}, not a regular file; move it away and a new log is started",
            kind_of(&m)
        ))),
        Err(e) => Err(ChangelogError::read(path, &e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::changelog::lines;

    /// Every line [`LogStream`] yields, as (file, number, raw, unterminated).
    fn streamed(home: &Path) -> Vec<(String, usize, Vec<u8>, bool)> {
        let mut s = LogStream::open(home).unwrap();
        let mut out = Vec::new();
        while let Some(l) = s.next_line().unwrap() {
            let file = l.loc.file;
            let (n, raw, u, loc) = (l.number, l.raw.to_vec(), l.unterminated, l.loc);
            assert_eq!(s.read_at(loc).unwrap(), raw, "read_at gives the line back");
            out.push((s.name(file).to_string(), n, raw, u));
        }
        out
    }

    #[test]
    fn the_stream_splits_lines_as_the_whole_file_parser_does_across_rotated_files() {
        let d = tempfile::tempdir().unwrap();
        let contents: [(&str, &[u8]); 3] = [
            ("changelog.jsonl.2", b"a\n\n  \nb\r\nc"),
            ("changelog.jsonl.1", b"\xff\x00x\n\n"),
            ("changelog.jsonl", b"one\r\ntwo\n"),
        ];
        let mut expected = Vec::new();
        for (name, bytes) in contents {
            std::fs::write(d.path().join(name), bytes).unwrap();
            for (n, raw, u) in lines(bytes) {
                expected.push((name.to_string(), n, raw.to_vec(), u));
            }
        }
        assert_eq!(streamed(d.path()), expected);
        assert_eq!(expected.len(), 6);
    }

    #[test]
    fn a_missing_log_streams_nothing_and_creates_nothing() {
        let d = tempfile::tempdir().unwrap();
        let home = d.path().join("not-yet");
        assert!(streamed(&home).is_empty());
        assert!(!home.exists());
    }
}
