//! The change log's line parser (pure; fuzzed; never panics): bytes to entries, and every
//! line that is not an entry counted with where it is and why, never with its content.

use super::model::Entry;

/// One line of the log that is not a valid entry: where it is and why, never its content
/// (a line may hold anything, including a secret someone pasted into the file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidLine {
    /// The rotated file it is in (`changelog.jsonl.1`, …), `None` for the active file
    /// (`changelog.jsonl`) or bytes given to [`parse`].
    pub file: Option<String>,
    /// 1-based line number in the file.
    pub line: usize,
    /// Why it was skipped, one short phrase (`not UTF-8 …`, `not JSON …`, `torn: …`,
    /// `not a change-log entry: …`), followed by the line's length in bytes.
    pub reason: String,
}

/// The longest id a valid entry may have (ours are about 25 characters); longer ones, or
/// ids with spaces or control characters, come from an edited file, not from this tool.
const MAX_ID_LEN: usize = 128;

/// Splits the log's bytes into entries and invalid lines (pure; fuzzed; never panics).
///
/// Lines are separated by `\n` and judged one by one: a line that is not UTF-8, not JSON
/// (NUL bytes included), torn (the JSON ends early — a crash mid-append), of the wrong shape
/// (a missing field, a wrong type) or with an id that is empty, longer than 128 characters
/// or not printable ASCII is an [`InvalidLine`]; blank lines are ignored. A last line without
/// its newline is accepted when it is a complete entry (a hand-edited file) and otherwise
/// reported as torn. No reason quotes the line's content.
pub fn parse(bytes: &[u8]) -> (Vec<Entry>, Vec<InvalidLine>) {
    let mut entries = Vec::new();
    let mut invalid = Vec::new();
    for (line, raw, unterminated) in lines(bytes) {
        match judge(raw, unterminated) {
            Ok(e) => entries.push(e),
            Err(reason) => invalid.push(InvalidLine {
                file: None,
                line,
                reason,
            }),
        }
    }
    (entries, invalid)
}

/// The non-blank lines of `bytes` (pure): 1-based line number, the line without its `\n`
/// (and `\r`), and whether it is the last line and has no newline (a candidate torn append).
pub(crate) fn lines(bytes: &[u8]) -> impl Iterator<Item = (usize, &[u8], bool)> {
    let ends_with_newline = bytes.last() == Some(&b'\n');
    let count = bytes.iter().filter(|b| **b == b'\n').count() + 1;
    bytes
        .split(|b| *b == b'\n')
        .enumerate()
        .filter_map(move |(i, raw)| {
            let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
            let unterminated = i + 1 == count && !ends_with_newline;
            (!raw.iter().all(u8::is_ascii_whitespace)).then_some((i + 1, raw, unterminated))
        })
}

/// One line as an entry, or the reason it is not one with its length in bytes (pure; never
/// quoting the line); `unterminated` marks a last line without its newline, reported as torn.
pub(crate) fn judge(raw: &[u8], unterminated: bool) -> Result<Entry, String> {
    judge_as::<Entry>(raw, unterminated)
}

/// A record type a line can be read as: the whole [`Entry`], or the lean one that skips the
/// object states ([`super::lean`]) and judges every line the same.
pub(crate) trait Record: serde::de::DeserializeOwned {
    /// The record's id.
    fn id(&self) -> &str;
}

impl Record for Entry {
    fn id(&self) -> &str {
        &self.id
    }
}

/// [`judge`], reading the line as `T`.
pub(crate) fn judge_as<T: Record>(raw: &[u8], unterminated: bool) -> Result<T, String> {
    parse_line::<T>(raw).map_err(|why| {
        let why = if unterminated {
            format!(
                "torn: the last line ends without a newline and is not a complete entry ({why})"
            )
        } else {
            why
        };
        format!("{why}; {} bytes", raw.len())
    })
}

/// One line as an entry, or why it is not one (never quoting the line).
fn parse_line<T: Record>(raw: &[u8]) -> Result<T, String> {
    let text = std::str::from_utf8(raw)
        .map_err(|e| format!("not UTF-8 (invalid byte at column {})", e.valid_up_to() + 1))?;
    // As deep as the objects a record holds (before- and after-states the API server
    // stored nested past serde_json's default 128 levels).
    let entry: T = crate::base::decode::from_str(text).map_err(|e| {
        use serde_json::error::Category;
        let e = match e {
            crate::base::decode::DecodeError::Json(e) => e,
            deep @ crate::base::decode::DecodeError::TooDeep => {
                return format!("not a change-log entry: {deep}");
            }
        };
        let column = e.column();
        match e.classify() {
            Category::Eof => format!("torn: the JSON ends early at column {column}"),
            Category::Syntax | Category::Io => {
                format!("not JSON (syntax error at column {column})")
            }
            Category::Data => {
                // serde names a missing or duplicate field by our own (static) field name;
                // every other data error may quote the line's value, so it is not repeated.
                let message = e.to_string();
                let field = ["missing field `", "duplicate field `"]
                    .iter()
                    .find_map(|prefix| {
                        let rest = message.strip_prefix(prefix)?;
                        let name = &rest[..rest.find('`')?];
                        Some(format!("{prefix}{name}`"))
                    });
                match field {
                    Some(f) => format!("not a change-log entry: {f}"),
                    None => format!(
                        "not a change-log entry: a field has the wrong type or value (at column {column})"
                    ),
                }
            }
        }
    })?;
    let id = entry.id();
    if id.is_empty() || id.len() > MAX_ID_LEN || !id.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(
            "not a change-log entry: the id is empty, longer than 128 characters or not printable"
                .into(),
        );
    }
    Ok(entry)
}

/// The fuzz targets' mutations, for the tests' own corpora: `edits` times, a byte of `b`
/// replaced, a byte (`& insert_mask`) inserted or the rest cut off, chosen by xorshift64 over
/// `seed`.
#[cfg(test)]
pub(crate) fn mutate(b: &mut Vec<u8>, seed: &mut u64, edits: usize, insert_mask: u8) {
    for _ in 0..edits {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        let at = (*seed as usize) % (b.len() + 1);
        match *seed % 3 {
            0 if at < b.len() => b[at] = (*seed >> 8) as u8,
            1 => b.insert(at, (*seed >> 16) as u8 & insert_mask),
            _ => b.truncate(at),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;
    use crate::changelog::model::sample_entry as entry;

    #[test]
    fn parse_counts_each_bad_line_by_number_and_reason_without_quoting_it() {
        let good = serde_json::to_string(&entry("good")).unwrap();
        let secret = "c4n4ryS3cr3t";
        let mut bytes = Vec::new();
        bytes.extend_from_slice(good.as_bytes());
        bytes.extend_from_slice(b"\n\n"); // 1 good, 2 blank
        bytes.extend_from_slice(format!("not json {secret}\n").as_bytes()); // 3
        bytes.extend_from_slice(b"{\"id\":\"x\xff\"}\n"); // 4 not UTF-8
        bytes.extend_from_slice(format!("{{\"id\":\"{secret}\0\"}}\n").as_bytes()); // 5 NUL
        bytes.extend_from_slice(format!("{{\"id\":\"{secret}\"}}\n").as_bytes()); // 6 shape
        let wrong_op = good.replace("\"crd-apply\"", &format!("\"{secret}\""));
        bytes.extend_from_slice(format!("{wrong_op}\n").as_bytes()); // 7 wrong value
        let bad_id = good.replacen(
            &format!("\"id\":\"{}\"", entry_id(&good)),
            "\"id\":\"a\\u001b[31m\"",
            1,
        );
        bytes.extend_from_slice(format!("{bad_id}\n").as_bytes()); // 8 id not printable
        bytes.extend_from_slice(format!("[1,2]\n{good}\r\n").as_bytes()); // 9 array, 10 CRLF ok
        bytes.extend_from_slice(&good.as_bytes()[..20]); // 11 torn, no newline
        let (entries, invalid) = parse(&bytes);
        assert_eq!(entries.len(), 2);
        let lines: Vec<usize> = invalid.iter().map(|i| i.line).collect();
        assert_eq!(lines, [3, 4, 5, 6, 7, 8, 9, 11]);
        let reasons: Vec<&str> = invalid.iter().map(|i| i.reason.as_str()).collect();
        assert_eq!(reasons[0], "not JSON (syntax error at column 2); 21 bytes");
        assert!(
            reasons[1].starts_with("not UTF-8 (invalid byte at column 9)"),
            "{reasons:?}"
        );
        assert!(
            reasons[2].starts_with("not JSON (syntax error"),
            "{reasons:?}"
        );
        assert!(
            reasons[3].starts_with("not a change-log entry: missing field `"),
            "{reasons:?}"
        );
        assert!(
            reasons[4].starts_with("not a change-log entry: a field has the wrong type or value"),
            "{reasons:?}"
        );
        assert!(
            reasons[5].contains("the id is empty, longer than 128"),
            "{reasons:?}"
        );
        assert!(
            reasons[7].starts_with("torn: the last line ends without a newline"),
            "{reasons:?}"
        );
        for r in &reasons {
            assert!(!r.contains(secret), "{r}");
        }
        // A complete last entry without its newline (a hand-edited file) is accepted.
        assert_eq!(parse(good.as_bytes()).0.len(), 1);
        assert_eq!(parse(b""), (Vec::new(), Vec::new()));
    }

    fn entry_id(line: &str) -> String {
        serde_json::from_str::<Value>(line).unwrap()["id"]
            .as_str()
            .unwrap()
            .to_string()
    }

    #[test]
    fn parse_never_panics_on_arbitrary_bytes() {
        let good = serde_json::to_vec(&entry("g")).unwrap();
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        for round in 0..2000 {
            let mut b = good.clone();
            mutate(&mut b, &mut seed, round % 7 + 1, 0xff);
            let (e, i) = parse(&b);
            assert!(e.len() + i.len() <= 1 + b.iter().filter(|x| **x == b'\n').count());
        }
        let deep = "[".repeat(100_000);
        assert_eq!(parse(deep.as_bytes()).1.len(), 1);
    }
}
