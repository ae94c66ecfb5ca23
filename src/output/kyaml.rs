//! `-o kyaml` exactly as kubectl 1.34+ prints it (pure): KYAML, the flow-style, always
//! double-quoted subset of YAML of KEP-5295, rendered as sigs.k8s.io/yaml `kyaml.Encoder`
//! renders an object (`kyaml.go`: `FromObject` → JSON → YAML nodes → `renderNode`).
//!
//! - a `---` line, then the value, then a newline; keys in JSON order (sorted, as Go's
//!   `encoding/json` writes maps — sort them first with
//!   [`crate::output::json::sort_keys`]);
//! - maps as `{`, one `key: value,` line per entry two spaces deeper, `}`; empty ones `{}`;
//! - lists of maps or lists "cuddled" (`[{ … }, { … }]`), other lists one item per line;
//! - keys bare unless [`needs_quotes`]; string values always double-quoted, with Go-style
//!   escapes; a string with a line break is folded over several lines (`"\` … `\n\` … `"`).

use serde_json::Value;

/// `v` as `kubectl get -o kyaml` prints it (keys in the order of `v`).
pub fn to_string(v: &Value) -> String {
    let mut out = String::from("---\n");
    node(v, 0, &mut out);
    out.push('\n');
    out
}

fn indent(level: usize, out: &mut String) {
    for _ in 0..level {
        out.push_str("  ");
    }
}

fn node(v: &Value, level: usize, out: &mut String) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => match n.as_f64().filter(|_| n.is_f64()) {
            Some(f) => out.push_str(&super::json::go_json_float(f)),
            None => out.push_str(&n.to_string()),
        },
        Value::String(s) => string(s, level + 1, false, out),
        Value::Array(a) if a.is_empty() => out.push_str("[]"),
        Value::Array(a) if a.iter().all(|c| c.is_array() || c.is_object()) => {
            out.push('[');
            for (i, c) in a.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                node(c, level, out);
            }
            out.push(']');
        }
        Value::Array(a) => {
            out.push_str("[\n");
            indent(level, out);
            for c in a {
                indent(1, out);
                node(c, level + 1, out);
                out.push_str(",\n");
                indent(level, out);
            }
            out.push(']');
        }
        Value::Object(m) if m.is_empty() => out.push_str("{}"),
        Value::Object(m) => {
            out.push_str("{\n");
            for (k, val) in m {
                indent(level + 1, out);
                string(k, level + 1, true, out);
                out.push_str(": ");
                node(val, level + 1, out);
                out.push_str(",\n");
            }
            indent(level, out);
            out.push('}');
        }
    }
}

/// kyaml `renderString`: a key (`key`: lazily quoted, compact escapes) or a value (always
/// quoted; a multi-line one folded, its lines at `level`).
fn string(s: &str, level: usize, key: bool, out: &mut String) {
    let multi = s.contains('\n');
    if key && !multi && !needs_quotes(s) {
        out.push_str(s);
        return;
    }
    let fold = multi && !key;
    let mut buf = String::from("\"");
    if fold {
        buf.push_str("\\\n");
    }
    for c in s.chars() {
        if buf.ends_with('\n') {
            indent(level, &mut buf);
            buf.push(if c.is_whitespace() && c != '\n' {
                '\\'
            } else {
                ' '
            });
        }
        match c {
            '\n' if key => buf.push_str("\\n"),
            '\n' => buf.push_str("\\n\\\n"),
            '\t' if key => buf.push_str("\\t"),
            '\t' => buf.push('\t'),
            '"' | '\\' => {
                buf.push('\\');
                buf.push(c);
            }
            c if go_is_print(c) => buf.push(c),
            '\u{7}' => buf.push_str("\\a"),
            '\u{8}' => buf.push_str("\\b"),
            '\u{c}' => buf.push_str("\\f"),
            '\r' => buf.push_str("\\r"),
            '\u{b}' => buf.push_str("\\v"),
            '\0' => buf.push_str("\\0"),
            '\u{1b}' => buf.push_str("\\e"),
            '\u{85}' => buf.push_str("\\N"),
            '\u{a0}' => buf.push_str("\\_"),
            '\u{2028}' => buf.push_str("\\L"),
            '\u{2029}' => buf.push_str("\\P"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                buf.push_str(&format!("\\x{:02x}", c as u32));
            }
            c if (c as u32) < 0x10000 => buf.push_str(&format!("\\u{:04x}", c as u32)),
            c => buf.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    if fold {
        if !buf.ends_with('\n') {
            buf.push_str("\\\n");
        }
        indent(level, &mut buf);
    }
    buf.push('"');
    out.push_str(&buf);
}

/// Go's `unicode.IsPrint`, approximated without Unicode tables: not a control character,
/// no whitespace but U+0020, not a format character (soft hyphen, zero-width and
/// direction marks, BOM), not private use.
fn go_is_print(c: char) -> bool {
    let v = c as u32;
    !(c.is_control()
        || (c.is_whitespace() && c != ' ')
        || v == 0xAD
        || (0x200B..=0x200F).contains(&v)
        || (0x202A..=0x202E).contains(&v)
        || (0x2060..=0x2064).contains(&v)
        || v == 0xFEFF
        || (0xFFF9..=0xFFFB).contains(&v)
        || (0xE000..=0xF8FF).contains(&v))
}

/// kyaml `needsQuotes` for a key: empty, a word another YAML type reads ([`type_ambiguous`]),
/// or any character but letters, digits and `_` (`-`, `.`, `/` are allowed inside).
pub fn needs_quotes(s: &str) -> bool {
    if s.is_empty() || type_ambiguous(s) {
        return true;
    }
    let chars: Vec<char> = s.chars().collect();
    chars.iter().enumerate().any(|(i, &c)| {
        !(c.is_alphanumeric()
            || c == '_'
            || (i > 0 && i + 1 < chars.len() && matches!(c, '-' | '.' | '/')))
    })
}

/// kyaml `isTypeAmbiguous`: null, bool (YAML 1.1 and Go `ParseBool`), int (Go
/// `ParseInt(s, 0, 64)`), float (`ParseFloat`, so also `inf`, `nan`), sexagesimal,
/// `.inf`/`.nan`, or a timestamp.
fn type_ambiguous(s: &str) -> bool {
    let lower = s.to_lowercase();
    if matches!(
        lower.as_str(),
        "null"
            | "~"
            | "true"
            | "y"
            | "yes"
            | "on"
            | "false"
            | "n"
            | "no"
            | "off"
            | ".inf"
            | "-.inf"
            | "+.inf"
            | ".nan"
    ) || matches!(s, "1" | "t" | "T" | "0" | "f" | "F")
    {
        return true;
    }
    let plain = s.replace('_', "");
    let int = {
        let body = plain.strip_prefix(['+', '-']).unwrap_or(&plain);
        let (digits, radix) = match body.get(..2) {
            Some("0x" | "0X") => (&body[2..], 16),
            Some("0o" | "0O") => (&body[2..], 8),
            Some("0b" | "0B") => (&body[2..], 2),
            _ if body.len() > 1 && body.starts_with('0') => (&body[1..], 8),
            _ => (body, 10),
        };
        !digits.is_empty() && digits.chars().all(|c| c.is_digit(radix))
    };
    let float = !plain.is_empty()
        && plain
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-'))
        && plain.parse::<f64>().is_ok()
        || matches!(
            plain.trim_start_matches(['+', '-']).to_lowercase().as_str(),
            "inf" | "infinity" | "nan"
        );
    int || float
        || super::goyaml::resolves_to_non_string(s)
            && s.as_bytes().first().is_some_and(u8::is_ascii_digit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn renders_maps_lists_and_strings_as_kubectl_kyaml() {
        let v = json!({"apiVersion": "v1", "items": [{"a": "x", "l": ["p", 1], "e": {}, "n": []}],
            "data": {"Y": "Y", "inf": ".inf", "a-b": "1", "multi": "a\nb", "tab": "a\tb", "q": "it's \"q\""}});
        assert_eq!(
            to_string(&v),
            "---\n{\n  apiVersion: \"v1\",\n  items: [{\n    a: \"x\",\n    l: [\n      \"p\",\n      1,\n    ],\n    e: {},\n    \"n\": [],\n  }],\n  data: {\n    \"Y\": \"Y\",\n    \"inf\": \".inf\",\n    a-b: \"1\",\n    multi: \"\\\n       a\\n\\\n       b\\\n      \",\n    tab: \"a\tb\",\n    q: \"it's \\\"q\\\"\",\n  },\n}\n"
        );
    }

    #[test]
    fn keys_are_quoted_when_yaml_would_read_them_as_another_type() {
        for k in [
            "Y",
            "n",
            "t",
            "inf",
            "nan",
            "null",
            "on",
            "1",
            "0x1F",
            "1e3",
            "2020-01-01",
            "-a",
            "a b",
            "",
        ] {
            assert!(needs_quotes(k), "{k}");
        }
        for k in ["amp", "a-b", "app.kubernetes.io/name", "名前", "a_"] {
            assert!(!needs_quotes(k), "{k}");
        }
    }
}
