//! Where commands print: a small printer value over stdout/stderr (so tests and the
//! binary share one path), the object encoders (JSON with kubectl's 4-space indent, YAML), and
//! the one table layout ([`table`]).

use std::io::Write;

use serde::Serialize;

use crate::exit::ExitStatus;

pub mod custom_columns;
pub mod goyaml;
pub mod jsonpath;
pub mod kyaml;
pub mod objects;
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

/// stdout and stderr for one command.
pub struct Printer<'a> {
    out: &'a mut dyn Write,
    err: &'a mut dyn Write,
}

impl<'a> Printer<'a> {
    /// A printer over the given writers.
    pub fn new(out: &'a mut dyn Write, err: &'a mut dyn Write) -> Printer<'a> {
        Printer { out, err }
    }

    /// Writes `text` to stdout as is.
    ///
    /// # Errors
    /// [`OutputError`] when stdout fails.
    pub fn out(&mut self, text: &str) -> Result<(), OutputError> {
        self.out.write_all(text.as_bytes())?;
        Ok(())
    }

    /// Writes one line to stderr (errors writing stderr are ignored: nowhere to report them),
    /// through [`for_terminal`]: the one place where every message, warning and trace line
    /// is scrubbed of credentials, escaped and capped.
    pub fn err_line(&mut self, line: &str) {
        let _ = writeln!(self.err, "{}", for_terminal(line));
    }

    /// Flushes stdout.
    ///
    /// # Errors
    /// [`OutputError`] when stdout fails.
    pub fn flush(&mut self) -> Result<(), OutputError> {
        self.out.flush()?;
        Ok(())
    }
}

/// The longest line (in characters) [`for_terminal`] passes through: a message that names
/// a 5 MB input must not write 5 MB to the terminal.
pub const MAX_LINE_CHARS: usize = 2000;

/// `text` made safe for stderr (issue 10, classes 1 and 7): credentials masked by
/// [`crate::redact::scrub`]; control and invisible characters (newline aside: it splits
/// lines) escaped by [`crate::echo::capped`] (`\u{1b}`), so input echoed back can never
/// drive the terminal; every line cut at [`MAX_LINE_CHARS`] characters.
pub fn for_terminal(text: &str) -> String {
    let text = crate::redact::scrub(text);
    text.split('\n')
        .map(|line| crate::echo::capped(line, MAX_LINE_CHARS))
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
