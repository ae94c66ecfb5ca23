//! YAML exactly as `kubectl -o yaml` prints it (pure).
//!
//! kubectl encodes an object to JSON and converts it with sigs.k8s.io/yaml `JSONToYAML`,
//! which decodes the JSON into Go maps and emits it with its fork of go-yaml v2. So the
//! bytes follow go-yaml v2's rules, reproduced here (`yaml.v2` `encode.go`, `emitterc.go`,
//! `resolve.go`, `sorted.go`):
//! - map keys are sorted with go-yaml's `keyList.Less` (letters after other characters,
//!   digit runs compared as numbers: `a9` before `a10`), see [`key_less`];
//! - block style, two-space indent, sequences in a mapping not indented (`key:\n- item`),
//!   empty maps and lists as `{}` and `[]`;
//! - a string that would read back as another type (`"1"`, `"true"`, `"yes"`, `"~"`,
//!   `"2020-01-01"`, `"0x1F"`) is double-quoted; one holding a line break is a literal
//!   block (`|`, `|-`, `|+`); one that plain style cannot carry (indicators, leading or
//!   trailing spaces) single-quoted; one with non-printable characters double-quoted with
//!   go-yaml's escapes;
//! - plain, single- and double-quoted scalars are folded at a space once the line is past
//!   80 columns (go-yaml's `best_width`), continuing two columns deeper.

use serde_json::Value;

mod analyze;
mod keys;
mod resolve;

pub use keys::{key_less, key_order};
pub use resolve::resolves_to_non_string;

use analyze::{analyze, is_break, printable};
use resolve::number;

/// go-yaml v2's preferred line width: a scalar is folded at the first space past it.
const BEST_WIDTH: usize = 80;

/// `v` as kubectl's `-o yaml` prints it, ending with a newline.
pub fn to_string(v: &Value) -> String {
    let mut e = Emitter::default();
    match v {
        Value::Object(m) if !m.is_empty() => e.mapping(m, 0, true),
        Value::Array(a) if !a.is_empty() => e.sequence(a, 0, true),
        other => e.scalar_or_flow(other, 0, false),
    }
    if !e.out.ends_with('\n') {
        e.newline();
    }
    e.out
}

/// `v` as one item of a top-level mapping's block sequence (`- …`, the `items` of a
/// `kind: List`), ending with a newline: the lines [`to_string`] prints for that item, so a
/// list can be printed one item at a time with the same folding columns.
pub fn sequence_item(v: &Value) -> String {
    let mut e = Emitter::default();
    e.put("-");
    e.value(v, 0, false);
    if !e.out.ends_with('\n') {
        e.newline();
    }
    e.out
}

#[derive(Default)]
struct Emitter {
    out: String,
    column: usize,
}

impl Emitter {
    fn put(&mut self, s: &str) {
        for c in s.chars() {
            self.out.push(c);
            if c == '\n' {
                self.column = 0;
            } else {
                self.column += 1;
            }
        }
    }

    fn newline(&mut self) {
        self.put("\n");
    }

    fn indent_to(&mut self, indent: usize) {
        if self.column != 0 {
            self.newline();
        }
        self.put(&" ".repeat(indent));
    }

    /// A block mapping at `indent`; with `inline` the first key goes where the cursor is
    /// (after `- `).
    fn mapping(&mut self, m: &serde_json::Map<String, Value>, indent: usize, inline: bool) {
        let mut keys: Vec<&String> = m.keys().collect();
        keys.sort_by(|a, b| key_order(a, b));
        for (i, k) in keys.into_iter().enumerate() {
            if !(inline && i == 0) {
                self.indent_to(indent);
            }
            self.string(k, indent, true);
            self.put(":");
            self.value(&m[k.as_str()], indent, true);
        }
    }

    /// A block sequence at `indent`; with `inline` the first item goes where the cursor is.
    fn sequence(&mut self, a: &[Value], indent: usize, inline: bool) {
        for (i, item) in a.iter().enumerate() {
            if !(inline && i == 0) {
                self.indent_to(indent);
            }
            self.put("-");
            self.value(item, indent, false);
        }
    }

    /// The value after `key:` (`in_map`) or `-`, the key or dash at `indent`.
    fn value(&mut self, v: &Value, indent: usize, in_map: bool) {
        match v {
            Value::Object(m) if !m.is_empty() => {
                if in_map {
                    self.newline();
                    self.mapping(m, indent + 2, false);
                } else {
                    self.put(" ");
                    self.mapping(m, indent + 2, true);
                }
            }
            Value::Array(a) if !a.is_empty() => {
                if in_map {
                    self.newline();
                    self.sequence(a, indent, false);
                } else {
                    self.put(" ");
                    self.sequence(a, indent + 2, true);
                }
            }
            other => {
                self.put(" ");
                self.scalar_or_flow(other, indent + 2, false);
            }
        }
    }

    fn scalar_or_flow(&mut self, v: &Value, indent: usize, key: bool) {
        match v {
            Value::Null => self.put("null"),
            Value::Bool(b) => self.put(if *b { "true" } else { "false" }),
            Value::Number(n) => self.put(&number(n)),
            Value::String(s) => self.string(s, indent, key),
            Value::Array(_) => self.put("[]"),
            Value::Object(_) => self.put("{}"),
        }
    }

    /// A string scalar; `indent` is where folded lines continue; keys never fold.
    fn string(&mut self, s: &str, indent: usize, key: bool) {
        let a = analyze(s);
        let plain_ok = !resolves_to_non_string(s);
        let style = if s.contains('\n') && !key {
            if a.block_allowed {
                Style::Literal
            } else {
                Style::Double
            }
        } else if !plain_ok || (s.contains('\n') && key) {
            Style::Double
        } else if !a.block_plain_allowed || (s.is_empty() && key) {
            if a.single_quoted_allowed {
                Style::Single
            } else {
                Style::Double
            }
        } else {
            Style::Plain
        };
        let breaks = !key;
        match style {
            Style::Plain => self.plain(s, indent, breaks),
            Style::Single => self.single(s, indent, breaks),
            Style::Double => self.double(s, indent, breaks),
            Style::Literal => self.literal(s, indent),
        }
    }

    fn fold_break(&mut self, indent: usize) {
        self.newline();
        self.put(&" ".repeat(indent));
    }

    fn plain(&mut self, s: &str, indent: usize, breaks: bool) {
        let chars: Vec<char> = s.chars().collect();
        let mut spaces = false;
        for (i, &c) in chars.iter().enumerate() {
            if c == ' ' {
                if breaks
                    && !spaces
                    && self.column > BEST_WIDTH
                    && chars.get(i + 1).is_some_and(|n| *n != ' ')
                {
                    self.fold_break(indent);
                } else {
                    self.put(" ");
                }
                spaces = true;
            } else {
                self.out.push(c);
                self.column += 1;
                spaces = false;
            }
        }
    }

    fn single(&mut self, s: &str, indent: usize, breaks: bool) {
        self.put("'");
        let chars: Vec<char> = s.chars().collect();
        let mut spaces = false;
        for (i, &c) in chars.iter().enumerate() {
            if c == ' ' {
                if breaks
                    && !spaces
                    && self.column > BEST_WIDTH
                    && i > 0
                    && i + 1 < chars.len()
                    && chars[i + 1] != ' '
                {
                    self.fold_break(indent);
                } else {
                    self.put(" ");
                }
                spaces = true;
            } else {
                if c == '\'' {
                    self.put("'");
                }
                self.out.push(c);
                self.column += 1;
                spaces = false;
            }
        }
        self.put("'");
    }

    fn double(&mut self, s: &str, indent: usize, breaks: bool) {
        self.put("\"");
        let chars: Vec<char> = s.chars().collect();
        let mut spaces = false;
        for (i, &c) in chars.iter().enumerate() {
            if !printable(c) || is_break(c) || c == '"' || c == '\\' || c == '\u{feff}' {
                let esc = match c {
                    '\0' => "\\0".to_string(),
                    '\u{7}' => "\\a".into(),
                    '\u{8}' => "\\b".into(),
                    '\t' => "\\t".into(),
                    '\n' => "\\n".into(),
                    '\u{b}' => "\\v".into(),
                    '\u{c}' => "\\f".into(),
                    '\r' => "\\r".into(),
                    '\u{1b}' => "\\e".into(),
                    '"' => "\\\"".into(),
                    '\\' => "\\\\".into(),
                    '\u{85}' => "\\N".into(),
                    '\u{a0}' => "\\_".into(),
                    '\u{2028}' => "\\L".into(),
                    '\u{2029}' => "\\P".into(),
                    c if (c as u32) <= 0xFF => format!("\\x{:02X}", c as u32),
                    c if (c as u32) <= 0xFFFF => format!("\\u{:04X}", c as u32),
                    c => format!("\\U{:08X}", c as u32),
                };
                self.put(&esc);
                spaces = false;
            } else if c == ' ' {
                if breaks && !spaces && self.column > BEST_WIDTH && i != 0 && i + 1 != chars.len() {
                    self.fold_break(indent);
                    if chars.get(i + 1) == Some(&' ') {
                        self.put("\\");
                    }
                } else {
                    self.put(" ");
                }
                spaces = true;
            } else {
                self.out.push(c);
                self.column += 1;
                spaces = false;
            }
        }
        self.put("\"");
    }

    fn literal(&mut self, s: &str, indent: usize) {
        self.put("|");
        if s.starts_with([' ', '\n']) {
            self.put("2");
        }
        let mut rev = s.chars().rev();
        let chomp = match (rev.next(), rev.next()) {
            (Some(l), _) if !is_break(l) => "-",
            (Some(_), None) => "+",
            (Some(_), Some(p)) if is_break(p) => "+",
            (None, _) => "-",
            _ => "",
        };
        self.put(chomp);
        self.newline();
        let mut at_break = true;
        for c in s.chars() {
            if is_break(c) {
                self.out.push(c);
                self.column = 0;
                at_break = true;
            } else {
                if at_break {
                    self.put(&" ".repeat(indent));
                    at_break = false;
                }
                self.out.push(c);
                self.column += 1;
            }
        }
        // The emitter starts the next line itself.
        if !s.ends_with('\n') {
            self.newline();
        }
        self.column = 0;
    }
}

#[derive(Clone, Copy)]
enum Style {
    Plain,
    Single,
    Double,
    Literal,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keys_sort_like_go_yaml_v2() {
        let mut keys = vec![
            "a10", "a9", "a_b", "aB", "a-b", "Z_", "_a", "a.b", "ab", "b",
        ];
        keys.sort_by(|a, b| key_order(a, b));
        assert_eq!(
            keys,
            [
                "_a", "Z_", "a-b", "a.b", "a_b", "a9", "a10", "aB", "ab", "b"
            ]
        );
    }

    #[test]
    fn scalars_are_quoted_as_kubectl_prints_them() {
        let v = json!({"data": {"n": "No", "amp": "&a", "colon": "a: b", "date": "2020-01-01",
            "empty": "", "hex": "0x1F", "oct": "0o17", "ver": "1.10", "inf": ".inf", "ctrl": "\u{1}",
            "tab": "a\tb", "trail": "x ", "quote": "it's \"q\"", "multi": "line1\nline2\n",
            "multi2": "a\nb", "cm": "a,b", "uni": "名前 é", "dash": "-"},
            "list": [], "map": {}, "items": [{"a": 1, "b": [1, 2]}, [true, null]]});
        assert_eq!(
            to_string(&v),
            "data:\n  amp: '&a'\n  cm: a,b\n  colon: 'a: b'\n  ctrl: \"\\x01\"\n  dash: '-'\n  date: \"2020-01-01\"\n  empty: \"\"\n  hex: \"0x1F\"\n  inf: \".inf\"\n  multi: |\n    line1\n    line2\n  multi2: |-\n    a\n    b\n  \"n\": \"No\"\n  oct: \"0o17\"\n  quote: it's \"q\"\n  tab: \"a\\tb\"\n  trail: 'x '\n  uni: 名前 é\n  ver: \"1.10\"\nitems:\n- a: 1\n  b:\n  - 1\n  - 2\n- - true\n  - null\nlist: []\nmap: {}\n"
        );
    }

    #[test]
    fn long_plain_strings_fold_past_80_columns() {
        let long: Vec<String> = (0..40).map(|i| format!("word{i}")).collect();
        let v = json!({"data": {"long": long.join(" ")}});
        assert_eq!(
            to_string(&v),
            "data:\n  long: word0 word1 word2 word3 word4 word5 word6 word7 word8 word9 word10 word11\n    word12 word13 word14 word15 word16 word17 word18 word19 word20 word21 word22 word23\n    word24 word25 word26 word27 word28 word29 word30 word31 word32 word33 word34 word35\n    word36 word37 word38 word39\n"
        );
    }
}
