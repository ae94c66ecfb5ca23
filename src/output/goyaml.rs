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

/// A number as go-yaml prints what JSON decoding gave it: integers as they are, floats
/// with Go's `strconv.FormatFloat(f, 'g', -1, 64)`.
fn number(n: &serde_json::Number) -> String {
    if n.is_i64() || n.is_u64() {
        return n.to_string();
    }
    let f = n.as_f64().unwrap_or(0.0);
    go_float_g(f)
}

/// Go's `strconv.FormatFloat(f, 'g', -1, 64)`: the shortest digits that read back, in `%e`
/// form (`1.234567e+06`, at least two exponent digits) when the exponent is below -4 or at
/// least 6 (Go's `eprec` for the shortest form), else plain decimal.
fn go_float_g(f: f64) -> String {
    if f == 0.0 {
        return "0".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { ".inf" } else { "-.inf" }.into();
    }
    if f.is_nan() {
        return ".nan".into();
    }
    let e = format!("{f:e}");
    let (mant, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if !(-4..6).contains(&exp) {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{mant}e{sign}{:02}", exp.abs())
    } else {
        format!("{f}")
    }
}

/// Whether go-yaml v2 `resolve` reads `s` as something other than a string (so it must be
/// quoted to stay one), or `s` is a base-60 float (`1:20`, quoted too).
pub fn resolves_to_non_string(s: &str) -> bool {
    const SPECIAL: &[&str] = &[
        "y", "Y", "yes", "Yes", "YES", "on", "On", "ON", "n", "N", "no", "No", "NO", "off", "Off",
        "OFF", "true", "True", "TRUE", "false", "False", "FALSE", "", "~", "null", "Null", "NULL",
        ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf",
        "-.Inf", "-.INF", "<<",
    ];
    if SPECIAL.contains(&s) {
        return true;
    }
    let Some(first) = s.chars().next() else {
        return true;
    };
    if !(first.is_ascii_digit() || matches!(first, '+' | '-' | '.')) {
        return false;
    }
    let plain = s.replace('_', "");
    go_parse_int(&plain)
        || yaml_style_float(&plain)
        || plain
            .strip_prefix("0b")
            .or_else(|| plain.strip_prefix("-0b"))
            .is_some_and(|b| !b.is_empty() && b.chars().all(|c| c == '0' || c == '1'))
        || (first.is_ascii_digit() && timestamp(s))
        || base60_float(s)
}

/// Go `strconv.ParseInt(s, 0, 64)` or `ParseUint` succeeding (sign, `0x`/`0o`/`0b`/`0`
/// prefixes; the range is not checked: a longer run of digits is still a number to YAML).
fn go_parse_int(s: &str) -> bool {
    let body = s.strip_prefix(['+', '-']).unwrap_or(s);
    let (digits, radix) =
        if let Some(r) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
            (r, 16)
        } else if let Some(r) = body.strip_prefix("0o").or_else(|| body.strip_prefix("0O")) {
            (r, 8)
        } else if let Some(r) = body.strip_prefix("0b").or_else(|| body.strip_prefix("0B")) {
            (r, 2)
        } else if body.len() > 1 && body.starts_with('0') {
            (&body[1..], 8)
        } else {
            (body, 10)
        };
    !digits.is_empty()
        && digits.chars().all(|c| c.is_digit(radix))
        && (radix != 10 || digits.parse::<u128>().is_ok_and(|v| v <= u64::MAX as u128))
}

/// go-yaml's `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`.
fn yaml_style_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        i += 1;
    }
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    if i < b.len() && b[i] == b'.' {
        i += 1;
        if digits(&mut i) == 0 {
            return false;
        }
    } else {
        if digits(&mut i) == 0 {
            return false;
        }
        if i < b.len() && b[i] == b'.' {
            i += 1;
            digits(&mut i);
        }
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return false;
        }
    }
    i == b.len()
}

/// go-yaml's timestamp check: `YYYY-M-D`, optionally followed by `T`/`t`/` ` and a time.
fn timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 8 || !b[..4].iter().all(u8::is_ascii_digit) || b[4] != b'-' {
        return false;
    }
    let rest = &s[5..];
    let (date, time) = match rest.find(['T', 't', ' ']) {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    let mut parts = date.split('-');
    let ok_num = |p: Option<&str>, max: u32| {
        p.is_some_and(|p| {
            (1..=2).contains(&p.len())
                && p.chars().all(|c| c.is_ascii_digit())
                && p.parse::<u32>().is_ok_and(|v| (1..=max).contains(&v))
        })
    };
    if !(ok_num(parts.next(), 12) && ok_num(parts.next(), 31) && parts.next().is_none()) {
        return false;
    }
    match time {
        None => true,
        Some(t) => {
            let hms: Vec<&str> = t
                .trim_end_matches('Z')
                .split(['+', '-'])
                .next()
                .unwrap_or("")
                .split(':')
                .collect();
            hms.len() == 3
                && hms.iter().all(|p| {
                    let p = p.split('.').next().unwrap_or("");
                    !p.is_empty() && p.len() <= 2 && p.chars().all(|c| c.is_ascii_digit())
                })
        }
    }
}

/// go-yaml's `^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`.
fn base60_float(s: &str) -> bool {
    let s = s.strip_prefix(['+', '-']).unwrap_or(s);
    let (main, frac) = match s.split_once('.') {
        Some((m, f)) => (m, Some(f)),
        None => (s, None),
    };
    let mut parts = main.split(':');
    let head = parts.next().unwrap_or("");
    let rest: Vec<&str> = parts.collect();
    head.chars().next().is_some_and(|c| c.is_ascii_digit())
        && head.chars().all(|c| c.is_ascii_digit() || c == '_')
        && !rest.is_empty()
        && rest.iter().all(|p| {
            (1..=2).contains(&p.len())
                && p.chars().all(|c| c.is_ascii_digit())
                && (p.len() == 1 || p.as_bytes()[0] <= b'5')
        })
        && frac.is_none_or(|f| f.chars().all(|c| c.is_ascii_digit() || c == '_'))
}

/// [`key_less`] as an ordering.
pub fn key_order(a: &str, b: &str) -> std::cmp::Ordering {
    if key_less(a, b) {
        std::cmp::Ordering::Less
    } else if key_less(b, a) {
        std::cmp::Ordering::Greater
    } else {
        std::cmp::Ordering::Equal
    }
}

/// go-yaml v2 `keyList.Less` for two string keys: at the first differing character, two
/// letters compare by code point, a letter sorts after a non-letter, and runs of digits
/// compare as numbers (`sorted.go`).
pub fn key_less(a: &str, b: &str) -> bool {
    let ar: Vec<char> = a.chars().collect();
    let br: Vec<char> = b.chars().collect();
    let mut i = 0;
    while i < ar.len() && i < br.len() {
        if ar[i] == br[i] {
            i += 1;
            continue;
        }
        let al = ar[i].is_alphabetic();
        let bl = br[i].is_alphabetic();
        if al && bl {
            return ar[i] < br[i];
        }
        if al || bl {
            return bl;
        }
        let (mut an, mut bn): (i64, i64) = (0, 0);
        if ar[i] == '0' || br[i] == '0' {
            let mut j = i;
            while j > 0 && ar[j - 1].is_ascii_digit() {
                j -= 1;
                if ar[j] != '0' {
                    an = 1;
                    bn = 1;
                    break;
                }
            }
        }
        let mut ai = i;
        while ai < ar.len() && ar[ai].is_ascii_digit() {
            an = an
                .saturating_mul(10)
                .saturating_add(i64::from(ar[ai] as u8 - b'0'));
            ai += 1;
        }
        let mut bi = i;
        while bi < br.len() && br[bi].is_ascii_digit() {
            bn = bn
                .saturating_mul(10)
                .saturating_add(i64::from(br[bi] as u8 - b'0'));
            bi += 1;
        }
        if an != bn {
            return an < bn;
        }
        if ai != bi {
            return ai < bi;
        }
        return ar[i] < br[i];
    }
    ar.len() < br.len()
}

/// A line break to the emitter (NEL, U+0085, is printed as an ordinary character by the
/// go-yaml fork kubectl uses: checked against kubectl 1.36).
fn is_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{2028}' | '\u{2029}')
}

/// go-yaml's `is_printable` (with unicode output on, as sigs.k8s.io/yaml sets it).
fn printable(c: char) -> bool {
    let v = c as u32;
    v == 0x0A
        || v == 0x85
        || (0x20..=0x7E).contains(&v)
        || (0xA0..=0xD7FF).contains(&v)
        || ((0xE000..=0xFFFD).contains(&v) && v != 0xFEFF)
}

struct Analysis {
    block_plain_allowed: bool,
    single_quoted_allowed: bool,
    block_allowed: bool,
}

/// go-yaml's `yaml_emitter_analyze_scalar`, for block context.
fn analyze(s: &str) -> Analysis {
    let mut a = Analysis {
        block_plain_allowed: true,
        single_quoted_allowed: true,
        block_allowed: true,
    };
    if s.is_empty() {
        a.block_plain_allowed = false;
        a.block_allowed = false;
        return a;
    }
    let (mut block_ind, mut line_breaks, mut special) = (false, false, false);
    let (mut leading_space, mut leading_break, mut trailing_space, mut trailing_break) =
        (false, false, false, false);
    let (mut break_space, mut space_break) = (false, false);
    let (mut prev_space, mut prev_break) = (false, false);
    if s.starts_with("---") || s.starts_with("...") {
        block_ind = true;
    }
    let chars: Vec<char> = s.chars().collect();
    let blankz = |i: usize| {
        chars
            .get(i)
            .is_none_or(|c| *c == ' ' || *c == '\t' || is_break(*c))
    };
    let mut preceded_by_ws = true;
    for (i, &c) in chars.iter().enumerate() {
        let followed_by_ws = blankz(i + 1);
        if i == 0 {
            match c {
                '#' | ',' | '[' | ']' | '{' | '}' | '&' | '*' | '!' | '|' | '>' | '\'' | '"'
                | '%' | '@' | '`' => block_ind = true,
                '?' | ':' if followed_by_ws => block_ind = true,
                '-' if followed_by_ws => block_ind = true,
                _ => {}
            }
        } else {
            match c {
                ':' if followed_by_ws => block_ind = true,
                '#' if preceded_by_ws => block_ind = true,
                _ => {}
            }
        }
        if !printable(c) || c == '\u{feff}' {
            special = true;
        }
        if is_break(c) {
            line_breaks = true;
        }
        if c == ' ' {
            if i == 0 {
                leading_space = true;
            }
            if i + 1 == chars.len() {
                trailing_space = true;
            }
            if prev_break {
                break_space = true;
            }
            prev_space = true;
            prev_break = false;
        } else if is_break(c) {
            if i == 0 {
                leading_break = true;
            }
            if i + 1 == chars.len() {
                trailing_break = true;
            }
            if prev_space {
                space_break = true;
            }
            prev_space = false;
            prev_break = true;
        } else {
            prev_space = false;
            prev_break = false;
        }
        preceded_by_ws = c == ' ' || c == '\t' || is_break(c);
    }
    if leading_space || leading_break || trailing_space || trailing_break {
        a.block_plain_allowed = false;
    }
    if trailing_space {
        a.block_allowed = false;
    }
    if break_space {
        a.block_plain_allowed = false;
        a.single_quoted_allowed = false;
    }
    if space_break || special {
        a.block_plain_allowed = false;
        a.single_quoted_allowed = false;
        a.block_allowed = false;
    }
    if line_breaks || block_ind {
        a.block_plain_allowed = false;
    }
    a
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
