//! Echoing a value the user wrote back in a message: escaped and capped.
//!
//! An error that quotes what is wrong is easier to act on, but the value comes from a file
//! or flag anyone may have written: a 5 MB `name:` must not become a 5 MB error line, and an
//! ANSI escape sequence must not repaint the user's terminal. Every value echoed by the
//! loaders (plugin.yaml, CRD files) goes through [`quoted`] or [`bare`], so the rule lives in
//! one place: control characters escaped as Rust's `char::escape_debug` does (`\u{1b}`,
//! `\n`), and at most [`ECHO_CHARS`] characters of the value followed by
//! `… (N characters)` — enough to recognise the value, never enough to flood a terminal.

/// How many characters of a value are echoed before it is cut (characters, not bytes).
/// 64 is longer than any valid name in plugin.yaml or a CRD's `<plural>.<group>` prefix a
/// user needs to recognise, and short enough to keep an error on one terminal line.
pub const ECHO_CHARS: usize = 64;

/// `value` in double quotes with control characters, quotes and backslashes escaped (as
/// `{:?}` formats a string), cut after [`ECHO_CHARS`] characters:
/// `"aaaa…" (5242880 characters)`.
///
/// # Example
/// ```
/// assert_eq!(myops::base::echo::quoted("a\u{1b}[2Jb"), r#""a\u{1b}[2Jb""#);
/// assert_eq!(myops::base::echo::quoted(&"x".repeat(100)), format!("\"{}…\" (100 characters)", "x".repeat(64)));
/// ```
pub fn quoted(value: &str) -> String {
    let (head, total) = head(value);
    let inner: String = head.chars().flat_map(char::escape_debug).collect();
    match total {
        Some(n) => format!("\"{inner}…\" ({n} characters)"),
        None => format!("\"{inner}\""),
    }
}

/// `value` without quotes, control characters escaped (quotes and backslashes kept as they
/// are), cut after [`ECHO_CHARS`] characters: `aaaa… (5242880 characters)`. For values
/// that read better bare, such as a key name.
///
/// # Example
/// ```
/// assert_eq!(myops::base::echo::bare("verbs"), "verbs");
/// assert_eq!(myops::base::echo::bare("a\tb"), "a\\tb");
/// ```
pub fn bare(value: &str) -> String {
    capped(value, ECHO_CHARS)
}

/// `value` with control characters and the invisible characters that reorder or hide text
/// (zero-width and bidirectional controls, U+200B–U+200F, U+2028–U+202E — the "Trojan
/// Source" set, CVE-2021-42574) escaped, cut after `max` characters with
/// `… (N characters)`: the one escaping every echo, table cell and stderr line uses.
///
/// # Example
/// ```
/// assert_eq!(myops::base::echo::capped("ab\u{202e}c", 10), "ab\\u{202e}c");
/// assert_eq!(myops::base::echo::capped("abcdef", 3), "abc… (6 characters)");
/// ```
pub fn capped(value: &str, max: usize) -> String {
    let mut out = String::with_capacity(value.len().min(max.saturating_mul(2)));
    for (n, c) in value.chars().enumerate() {
        if n == max {
            out.push_str(&format!("… ({} characters)", value.chars().count()));
            break;
        }
        if c.is_control() || matches!(c, '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}') {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out
}

/// `value` whole with its control characters escaped (`\u{1b}`, `\n`): for names that are
/// bounded by the system already (a file name is at most 255 bytes) but may hold anything.
///
/// # Example
/// ```
/// assert_eq!(myops::base::echo::escaped("a\u{1b}[31m.yaml"), "a\\u{1b}[31m.yaml");
/// ```
pub fn escaped(value: &str) -> String {
    capped(value, usize::MAX)
}

/// The first [`ECHO_CHARS`] characters of `value`, and its length in characters when it
/// was cut.
fn head(value: &str) -> (&str, Option<usize>) {
    match value.char_indices().nth(ECHO_CHARS) {
        Some((cut, _)) => (&value[..cut], Some(value.chars().count())),
        None => (value, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_five_megabyte_value_is_echoed_as_64_characters_and_its_length() {
        let name = "n".repeat(5 * 1024 * 1024);
        let q = quoted(&name);
        assert_eq!(q, format!("\"{}…\" (5242880 characters)", "n".repeat(64)));
        assert_eq!(
            bare(&name),
            format!("{}… (5242880 characters)", "n".repeat(64))
        );
    }

    #[test]
    fn terminal_escape_sequences_and_newlines_are_escaped() {
        assert_eq!(quoted("\u{1b}]0;pwned\u{7}"), r#""\u{1b}]0;pwned\u{7}""#);
        assert_eq!(bare("a\nb\rc"), "a\\nb\\rc");
        assert_eq!(quoted("say \"hi\""), r#""say \"hi\"""#);
        assert!(!bare("\u{9b}31m").contains('\u{9b}'), "C1 CSI escaped too");
    }

    #[test]
    fn the_cut_counts_characters_not_bytes() {
        let v = "é".repeat(65);
        assert_eq!(bare(&v), format!("{}… (65 characters)", "é".repeat(64)));
        assert_eq!(bare(&"é".repeat(64)), "é".repeat(64));
        assert_eq!(quoted(""), "\"\"");
    }
}
