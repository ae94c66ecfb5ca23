//! Where commands print: a small printer value over stdout/stderr (so tests and the
//! binary share one path), the object encoders (JSON with kubectl's 4-space indent, YAML), and
//! the one table layout ([`table`]).

use std::io::Write;

use serde::Serialize;

use crate::exit::ExitStatus;

pub mod custom_columns;
pub mod format;
pub mod goyaml;
pub mod json;
pub mod jsonpath;
pub mod kyaml;
pub mod objects;
pub mod server_table;
pub mod sort;
pub mod table;

/// Writing output failed.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// stdout was closed early (e.g. `| head`): not an error for the user.
    #[error("broken pipe")]
    BrokenPipe,
    /// Any other write error.
    #[error("cannot write output: {0}")]
    Io(#[source] std::io::Error),
    /// An object could not be encoded.
    #[error("cannot encode output: {0}")]
    Encode(String),
}

impl OutputError {
    /// A broken pipe is success (as ripgrep treats it); other failures are exit 1.
    pub fn exit_status(&self) -> ExitStatus {
        match self {
            OutputError::BrokenPipe => ExitStatus::Success,
            _ => ExitStatus::Failure,
        }
    }
}

impl From<std::io::Error> for OutputError {
    fn from(e: std::io::Error) -> Self {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            OutputError::BrokenPipe
        } else {
            OutputError::Io(e)
        }
    }
}

/// How a table's cells are laid out into text: the three layouts the tool prints with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Go's `text/tabwriter` as kubectl configures it: server Tables, custom columns
    /// ([`custom_columns::tabwriter`]).
    Tabwriter,
    /// `kubectl auth can-i --list` and `whoami`'s layout ([`go_tab`]: minimum width 6,
    /// padding 3, the last cell as is).
    GoTab,
    /// Our own tables ([`table::align`]).
    Align,
}

impl Layout {
    /// Lays `lines` out as text with this layout.
    pub fn render(self, lines: &[Vec<String>]) -> String {
        match self {
            Layout::Tabwriter => custom_columns::tabwriter(lines),
            Layout::GoTab => go_tab(lines),
            Layout::Align => table::align(lines),
        }
    }
}

/// kubectl's `printers.GetNewTabWriter` for lines without tabs or newlines in their cells
/// (Go `text/tabwriter`, minwidth 6, padding 3, pad ' '): every cell but a line's last is
/// padded to its column's width (the widest cell + 3, at least 6; widths in characters).
pub fn go_tab(lines: &[Vec<String>]) -> String {
    let columns = lines.iter().map(Vec::len).max().unwrap_or(0);
    let mut widths = vec![6usize; columns];
    for l in lines {
        for (i, c) in l.iter().enumerate().take(l.len().saturating_sub(1)) {
            widths[i] = widths[i].max(c.chars().count() + 3);
        }
    }
    let mut out = String::new();
    for l in lines {
        for (i, c) in l.iter().enumerate() {
            out.push_str(c);
            if i + 1 < l.len() {
                out.push_str(&" ".repeat(widths[i] - c.chars().count()));
            }
        }
        out.push('\n');
    }
    out
}

/// One piece of a captured command's stdout ([`Printer::capturing`]), in the order printed.
#[derive(Debug, Clone, PartialEq)]
pub enum Chunk {
    /// Text printed with [`Printer::out`] (consecutive writes joined).
    Text(String),
    /// A table printed with [`Printer::table`], as cells.
    Table(TableBlock),
}

/// A table as cells, before layout: what the fan-out ([`crate::fleet`]) merges across
/// contexts before laying the merged table out once.
#[derive(Debug, Clone, PartialEq)]
pub struct TableBlock {
    /// What the table shows (e.g. the `plural.group` of `get`'s type): tables of several
    /// contexts merge when key and header agree.
    pub key: String,
    /// The header line, `None` with `--no-headers`.
    pub header: Option<Vec<String>>,
    /// The rows, as cells.
    pub rows: Vec<Vec<String>>,
    /// How the rows are laid out.
    pub layout: Layout,
}

enum Out<'a> {
    Stream(&'a mut dyn Write),
    Capture(&'a mut Vec<Chunk>),
}

/// stdout and stderr for one command: written through at once, or (for a fan-out over
/// contexts) stdout captured as [`Chunk`]s — tables as cells — to be merged afterwards.
pub struct Printer<'a> {
    out: Out<'a>,
    err: &'a mut dyn Write,
}

impl<'a> Printer<'a> {
    /// A printer over the given writers.
    pub fn new(out: &'a mut dyn Write, err: &'a mut dyn Write) -> Printer<'a> {
        Printer {
            out: Out::Stream(out),
            err,
        }
    }

    /// A printer that keeps stdout as chunks in `chunks` (tables as cells, see
    /// [`Printer::table`]) and writes stderr lines to `err`.
    pub fn capturing(chunks: &'a mut Vec<Chunk>, err: &'a mut dyn Write) -> Printer<'a> {
        Printer {
            out: Out::Capture(chunks),
            err,
        }
    }

    /// Writes `text` to stdout as is.
    ///
    /// # Errors
    /// [`OutputError`] when stdout fails.
    pub fn out(&mut self, text: &str) -> Result<(), OutputError> {
        match &mut self.out {
            Out::Stream(w) => w.write_all(text.as_bytes())?,
            Out::Capture(chunks) => match chunks.last_mut() {
                Some(Chunk::Text(t)) => t.push_str(text),
                _ => chunks.push(Chunk::Text(text.to_string())),
            },
        }
        Ok(())
    }

    /// Prints a table: the header (unless `None`) and the rows laid out by `layout` — or,
    /// when capturing, the cells themselves, so that a fan-out can merge the tables of
    /// several contexts and lay them out once. `key` names what the table shows (tables
    /// merge when key and header agree).
    ///
    /// # Errors
    /// [`OutputError`] when stdout fails.
    pub fn table(
        &mut self,
        key: &str,
        header: Option<Vec<String>>,
        rows: Vec<Vec<String>>,
        layout: Layout,
    ) -> Result<(), OutputError> {
        match &mut self.out {
            Out::Stream(w) => {
                let mut lines = Vec::with_capacity(rows.len() + 1);
                lines.extend(header);
                lines.extend(rows);
                w.write_all(layout.render(&lines).as_bytes())?;
            }
            Out::Capture(chunks) => chunks.push(Chunk::Table(TableBlock {
                key: key.to_string(),
                header,
                rows,
                layout,
            })),
        }
        Ok(())
    }

    /// Writes one line to stderr (errors writing stderr are ignored: nowhere to report them),
    /// through [`for_terminal`]: the one place where every message, warning and trace line
    /// is scrubbed of credentials, escaped and capped.
    pub fn err_line(&mut self, line: &str) {
        let _ = writeln!(self.err, "{}", for_terminal(line));
    }

    /// Rewrites the progress line on stderr (a terminal): `\r`, the text through
    /// [`for_terminal`], then ANSI "erase to end of line"; `None` clears it. Only for a
    /// stderr that is a terminal (the caller checks).
    pub fn progress(&mut self, line: Option<&str>) {
        let text = line.map(for_terminal).unwrap_or_default();
        let _ = write!(self.err, "\r{text}\x1b[K");
        let _ = self.err.flush();
    }

    /// Whether stdout is being captured ([`Printer::capturing`], a context of a fan-out):
    /// such a printer must not draw a progress line (the fan-out draws its own).
    pub fn is_capturing(&self) -> bool {
        matches!(self.out, Out::Capture(_))
    }

    /// Flushes stdout.
    ///
    /// # Errors
    /// [`OutputError`] when stdout fails.
    pub fn flush(&mut self) -> Result<(), OutputError> {
        if let Out::Stream(w) = &mut self.out {
            w.flush()?;
        }
        Ok(())
    }
}

/// The longest line (in characters) [`for_terminal`] passes through: a message that names
/// a 5 MB input must not write 5 MB to the terminal.
pub const MAX_LINE_CHARS: usize = 2000;

/// `text` made safe for stderr: credentials masked by
/// [`crate::base::redact::scrub`]; control and invisible characters (newline aside: it splits
/// lines) escaped by [`crate::base::echo::capped`] (`\u{1b}`), so input echoed back can never
/// drive the terminal; every line cut at [`MAX_LINE_CHARS`] characters.
pub fn for_terminal(text: &str) -> String {
    let text = crate::base::redact::scrub(text);
    text.split('\n')
        .map(|line| crate::base::echo::capped(line, MAX_LINE_CHARS))
        .collect::<Vec<_>>()
        .join("\n")
}

/// JSON with a 4-space indent and a trailing newline, as `kubectl -o json` prints.
///
/// # Errors
/// [`OutputError::Encode`] if the value cannot be serialized.
pub fn to_json<T: Serialize>(v: &T) -> Result<String, OutputError> {
    let mut buf = Vec::new();
    let fmt = serde_json::ser::PrettyFormatter::with_indent(b"    ");
    let mut ser = serde_json::Serializer::with_formatter(&mut buf, fmt);
    v.serialize(&mut ser)
        .map_err(|e| OutputError::Encode(e.to_string()))?;
    buf.push(b'\n');
    String::from_utf8(buf).map_err(|e| OutputError::Encode(e.to_string()))
}

/// YAML through serde-saphyr.
///
/// # Errors
/// [`OutputError::Encode`] if the value cannot be serialized.
pub fn to_yaml<T: Serialize>(v: &T) -> Result<String, OutputError> {
    let mut s = serde_saphyr::to_string(v).map_err(|e| OutputError::Encode(e.to_string()))?;
    if !s.ends_with('\n') {
        s.push('\n');
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminal_text_is_scrubbed_escaped_and_capped() {
        assert_eq!(
            for_terminal("error: unknown type \u{1b}[31mred\u{7}"),
            "error: unknown type \\u{1b}[31mred\\u{7}"
        );
        assert_eq!(for_terminal("a\n\tb"), "a\n\\tb");
        assert_eq!(
            for_terminal("cannot reach https://u:pw@h:1/x"),
            "cannot reach https://***@h:1/x"
        );
        let long = format!("name: {}", "x".repeat(5_000_000));
        let shown = for_terminal(&long);
        assert_eq!(
            shown,
            format!(
                "name: {}… (5000006 characters)",
                "x".repeat(MAX_LINE_CHARS - 6)
            )
        );
    }

    #[test]
    fn json_uses_four_spaces_and_yaml_round_trips() {
        let v = serde_json::json!({"kind": "List", "items": [{"a": 1}]});
        assert_eq!(
            to_json(&v).unwrap(),
            "{\n    \"kind\": \"List\",\n    \"items\": [\n        {\n            \"a\": 1\n        }\n    ]\n}\n"
        );
        let y = to_yaml(&v).unwrap();
        let back: serde_json::Value = serde_saphyr::from_str(&y).unwrap();
        assert_eq!(back, v);
    }
}
