//! `changelog list` (local) in bounded memory: the log is walked once line by line
//! ([`changelog::stream::LogStream`]) and read without its object states
//! ([`changelog::judge_lean`]); per id only what the listing prints is kept — the
//! table row as one string, or for `-o json|yaml` where the id's last record is — so a log
//! at its retention bound (six files of 10 MiB, ~60,000 records) lists in a few MiB.
//!
//! What it keeps, and why that is enough to print byte for byte what the whole-log path
//! printed ([`super::select`] then [`super::list_table`] or `to_json`/`to_yaml`):
//! - ids in the order they first appear, each with its last record's row (or nothing when
//!   that record does not match the filters) — [`changelog::latest`]'s order and choice;
//! - a table needs its column widths before its first line: the rows are kept (small:
//!   one escaped, capped string each), measured, then laid out in batches of
//!   [`BATCH`] rows by the same [`align`] with a first line of the widest cells (dropped),
//!   so every batch has the columns of the whole table;
//! - `-o json|yaml` re-read each listed record from its place in its file, still open (an
//!   append only adds after it, a rotation renames or deletes a file, which an open file
//!   survives; the shared lock is let go before printing, so a slow pipe never holds back
//!   the writers) and write it out before reading the next.

use std::collections::HashMap;

use super::filter::{ListFilter, cutoff_of, matches};
use super::table::{invalid_table, list_cells};
use crate::changelog::stream::{Loc, LogStream};
use crate::changelog::{self, Entry, InvalidLine};
use crate::cli::{ChangelogCommand, ListFormat, ResultFilter};
use crate::output::table::align;
use crate::output::{OutputError, Printer, to_yaml};
use crate::settings::Settings;
use crate::verbs::VerbError;

/// Rows laid out at a time: a batch's cells are all that is held twice.
const BATCH: usize = 2000;

/// Cells of a kept row are joined by this character, which never appears in a cell
/// (cells are escaped: a NUL reads `\0`).
const SEP: char = '\0';

/// The filters of `changelog list` as given on the command line.
pub struct ListArgs<'a> {
    /// `--since`.
    pub since: Option<&'a str>,
    /// `--object`.
    pub object: Option<&'a str>,
    /// `--session`.
    pub session: Option<&'a str>,
    /// `--operation`.
    pub operation: Option<&'a str>,
    /// `--result`.
    pub result: Option<ResultFilter>,
    /// `--actor`.
    pub actor: Option<&'a str>,
    /// `-o`.
    pub output: Option<ListFormat>,
    /// `--invalid`.
    pub invalid: bool,
}

/// The arguments of a local `changelog list` (`None` for another subcommand and for
/// `--from-cluster`).
pub fn args_of(cmd: &ChangelogCommand) -> Option<ListArgs<'_>> {
    let ChangelogCommand::List {
        since,
        object,
        session,
        operation,
        result,
        actor,
        output,
        invalid,
        from_cluster: false,
        ..
    } = cmd
    else {
        return None;
    };
    Some(ListArgs {
        since: since.as_deref(),
        object: object.as_deref(),
        session: session.as_deref(),
        operation: operation.as_deref(),
        result: *result,
        actor: actor.as_deref(),
        output: *output,
        invalid: *invalid,
    })
}

/// What is kept of the last record of an id that matches the filters.
struct Row {
    /// The table's cells, escaped and capped, joined by [`SEP`] (empty for `-o json|yaml`).
    cells: Box<str>,
    /// Whether the record has a `--reason` (then the table has a REASON column).
    reason: bool,
    /// Where the record is, to read it whole for `-o json|yaml`.
    loc: Loc,
}

/// The result of one walk over the log.
#[derive(Default)]
struct Walked {
    /// Per id, in first-seen order: its last record's row, `None` when it does not match.
    rows: Vec<Option<Row>>,
    /// The lines that are not valid records.
    invalid: Vec<InvalidLine>,
}

/// Runs the local `changelog list`.
///
/// # Errors
/// As [`super::run`]: [`VerbError::Io`] when the log cannot be read, [`VerbError::Usage`]
/// for a bad `--since` or an empty `--session`.
pub fn run(s: &Settings, a: &ListArgs<'_>, p: &mut Printer<'_>) -> Result<(), VerbError> {
    list(
        &s.home,
        s.kube.context.as_deref(),
        s.kube.user.as_deref(),
        a,
        p,
    )
}

/// [`run`] over the log in `home`, with the global `--context` and `--user` filters.
fn list(
    home: &std::path::Path,
    context: Option<&str>,
    user: Option<&str>,
    a: &ListArgs<'_>,
    p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    let mut stream = LogStream::open(home).map_err(VerbError::io)?;
    let cutoff = cutoff_of(a.since, a.session);
    let filter = ListFilter {
        cutoff: cutoff.as_ref().ok().copied().flatten(),
        object: a.object,
        session: a.session,
        context,
        user,
        operation: a.operation,
        result: a.result,
        actor: a.actor,
    };
    let table = a.output.is_none() && !a.invalid;
    let active = changelog::path(home);
    let active = active.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let walked = walk(&mut stream, &filter, table, active).map_err(VerbError::io)?;
    // Printing may wait on a slow pipe: the writers' lock is not held across it.
    stream.unlock();
    if a.invalid {
        if walked.invalid.is_empty() {
            p.err_line("No invalid lines.");
            return Ok(());
        }
        p.out(&invalid_table(&walked.invalid).render(false))?;
        return Ok(());
    }
    if !walked.invalid.is_empty() {
        p.err_line(&changelog::skipped_warning(
            walked.invalid.len(),
            &changelog::path(home),
        ));
    }
    cutoff?;
    let rows: Vec<Row> = walked.rows.into_iter().flatten().collect();
    match a.output {
        Some(ListFormat::Json) => json(&stream, &rows, p),
        Some(ListFormat::Yaml) => yaml(&stream, &rows, p),
        None if rows.is_empty() => {
            p.err_line("No change-log entries.");
            Ok(())
        }
        None => Ok(print_table(&rows, p)?),
    }
}

/// Walks every line once: the last record of each id, its row kept when it matches. A bad
/// line is named by its file unless that is the `active` one (as [`changelog::read_all`]).
fn walk(
    stream: &mut LogStream,
    filter: &ListFilter<'_>,
    table: bool,
    active: &str,
) -> Result<Walked, changelog::ChangelogError> {
    let mut ids: HashMap<Box<str>, usize> = HashMap::new();
    let mut out = Walked::default();
    while let Some(line) = stream.next_line()? {
        let e = match changelog::judge_lean(line.raw, line.unterminated) {
            Ok(e) => e,
            Err(reason) => {
                let file = line.loc.file;
                let number = line.number;
                out.invalid.push(InvalidLine {
                    file: (stream.name(file) != active).then(|| stream.name(file).to_string()),
                    line: number,
                    reason,
                });
                continue;
            }
        };
        let row = matches(&e, filter).then(|| Row {
            cells: if table { cells(&e) } else { Box::default() },
            reason: e.reason.is_some(),
            loc: line.loc,
        });
        match ids.get(e.id.as_str()) {
            Some(&i) => out.rows[i] = row,
            None => {
                ids.insert(e.id.into_boxed_str(), out.rows.len());
                out.rows.push(row);
            }
        }
    }
    Ok(out)
}

/// The cells [`super::list_table`] makes of `e`, joined by [`SEP`].
fn cells(e: &Entry) -> Box<str> {
    list_cells(e).join(&SEP.to_string()).into_boxed_str()
}

/// The table of `rows` (not empty), as [`super::list_table`] renders it, written in batches.
fn print_table(rows: &[Row], p: &mut Printer<'_>) -> Result<(), OutputError> {
    let reasons = rows.iter().any(|r| r.reason);
    let mut header: Vec<String> = [
        "ID",
        "TIME",
        "USER",
        "CONTEXT",
        "OPERATION",
        "OBJECT",
        "RESULT",
    ]
    .map(String::from)
    .to_vec();
    if reasons {
        header.push("REASON".into());
    }
    let columns = header.len();
    let line = |r: &Row| -> Vec<String> {
        r.cells
            .split(SEP)
            .take(columns)
            .map(str::to_string)
            .collect()
    };
    // The widest cell of each column over the whole table, measured as the layout does.
    let mut widths = vec![0u16; columns];
    let mut measure = |lines: &[Vec<String>]| {
        let mut t = comfy_table::Table::new();
        for l in lines {
            t.add_row(l);
        }
        for (w, m) in widths.iter_mut().zip(t.column_max_content_widths()) {
            *w = (*w).max(m);
        }
    };
    measure(std::slice::from_ref(&header));
    for batch in rows.chunks(BATCH) {
        measure(&batch.iter().map(line).collect::<Vec<_>>());
    }
    let widest: Vec<String> = widths.iter().map(|w| "x".repeat(*w as usize)).collect();
    for (n, batch) in rows.chunks(BATCH).enumerate() {
        let mut lines = Vec::with_capacity(batch.len() + 2);
        lines.push(widest.clone());
        if n == 0 {
            lines.push(header.clone());
        }
        lines.extend(batch.iter().map(line));
        let text = align(&lines);
        let rest = text.split_once('\n').map_or("", |(_, rest)| rest);
        p.out(rest)?;
    }
    Ok(())
}

/// The record at `loc`, read whole again.
fn reread(stream: &LogStream, loc: Loc) -> Result<Entry, VerbError> {
    let raw = stream.read_at(loc).map_err(VerbError::io)?;
    changelog::judge(&raw, false).map_err(|why| {
        VerbError::io(format!(
            "{} changed while it was read ({why}); run the command again",
            stream.name(loc.file)
        ))
    })
}

/// `-o yaml`: the list `to_yaml` prints, one record at a time (a YAML block sequence is
/// its items' one-item sequences one after another).
fn yaml(stream: &LogStream, rows: &[Row], p: &mut Printer<'_>) -> Result<(), VerbError> {
    if rows.is_empty() {
        p.out(&to_yaml(&Vec::<Entry>::new())?)?;
    }
    for r in rows {
        p.out(&to_yaml(&[reread(stream, r.loc)?])?)?;
    }
    Ok(())
}

/// `-o json`: the array `to_json` prints (4-space indent, trailing newline), serialized
/// one record at a time into stdout.
fn json(stream: &LogStream, rows: &[Row], p: &mut Printer<'_>) -> Result<(), VerbError> {
    use serde::ser::{Error as _, SerializeSeq, Serializer as _};
    let mut w = Utf8Out {
        p,
        buf: Vec::new(),
        failed: None,
    };
    let mut failed: Option<VerbError> = None;
    {
        let fmt = serde_json::ser::PrettyFormatter::with_indent(b"    ");
        let mut ser = serde_json::Serializer::with_formatter(&mut w, fmt);
        let done = (|| {
            let mut seq = (&mut ser).serialize_seq(Some(rows.len()))?;
            for r in rows {
                let e = reread(stream, r.loc).map_err(|e| {
                    let m = e.to_string();
                    failed = Some(e);
                    serde_json::Error::custom(m)
                })?;
                seq.serialize_element(&e)?;
            }
            seq.end()
        })();
        if let (Err(e), None) = (done, &failed) {
            failed = Some(OutputError::Encode(e.to_string()).into());
        }
    }
    if let Some(e) = failed.or(w.failed.take().map(VerbError::from)) {
        return Err(e);
    }
    w.buf.push(b'\n');
    w.flush_all()?;
    Ok(())
}

/// Bytes to the printer as text, in pieces cut at character boundaries.
struct Utf8Out<'p, 'a> {
    /// Where the text goes.
    p: &'p mut Printer<'a>,
    /// Bytes not yet written.
    buf: Vec<u8>,
    /// The printer's error, kept to be returned as itself.
    failed: Option<OutputError>,
}

impl Utf8Out<'_, '_> {
    /// Writes every whole character buffered.
    fn flush_valid(&mut self) -> Result<(), OutputError> {
        let valid = match std::str::from_utf8(&self.buf) {
            Ok(t) => t.len(),
            Err(e) => e.valid_up_to(),
        };
        let text = std::str::from_utf8(&self.buf[..valid]).unwrap_or_default();
        self.p.out(text)?;
        self.buf.drain(..valid);
        Ok(())
    }

    /// Writes everything buffered.
    fn flush_all(&mut self) -> Result<(), OutputError> {
        self.flush_valid()?;
        if !self.buf.is_empty() {
            return Err(OutputError::Encode("the output is not UTF-8".into()));
        }
        Ok(())
    }
}

impl std::io::Write for Utf8Out<'_, '_> {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(b);
        if self.buf.len() >= 64 * 1024 {
            self.flush_valid().map_err(|e| {
                let m = e.to_string();
                self.failed = Some(e);
                std::io::Error::other(m)
            })?;
        }
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests;
