//! How results are printed: Go's `fmt` for scalars and `encoding/json` for maps and arrays,
//! as kubectl's JSONPath printer writes them.

use std::fmt::Write as _;

use serde_json::Value;

/// Go's `fmt.Print` of a decoded JSON value (`%v`): used for jsonpath text and the cells of
/// custom-columns (maps as `map[k:v]` with sorted keys, arrays as `[a b]`, null as `<nil>`
/// inside them).
pub fn go_sprint(v: &Value) -> String {
    match v {
        Value::Null => "<nil>".into(),
        Value::Array(a) => format!(
            "[{}]",
            a.iter().map(go_sprint).collect::<Vec<_>>().join(" ")
        ),
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            let parts: Vec<String> = keys
                .iter()
                .map(|k| format!("{k}:{}", go_sprint(&m[*k])))
                .collect();
            format!("map[{}]", parts.join(" "))
        }
        other => go_text(other),
    }
}

/// A scalar as jsonpath.go `evalToText` prints it (`null` for a JSON null).
pub(super) fn go_text(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::String(s) => s.clone(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.to_string(),
            (_, Some(u)) => u.to_string(),
            _ => go_float_g(n.as_f64().unwrap_or(0.0)),
        },
        other => go_sprint(other),
    }
}

/// Go's `strconv.FormatFloat(f, 'g', -1, 64)` (what `%v` prints).
pub(super) fn go_float_g(f: f64) -> String {
    if f == 0.0 {
        return "0".into();
    }
    let e = format!("{f:e}"); // shortest digits: "1.5e6"
    let (mant, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if !(-4..6).contains(&exp) {
        let sign = if exp < 0 { '-' } else { '+' };
        return format!("{mant}e{sign}{:02}", exp.abs());
    }
    format!("{f}")
}

/// Go's `strconv.FormatFloat(f, 'f' or 'e', -1, 64)` as `encoding/json` writes a float64.
pub(super) fn go_json_float(f: f64) -> String {
    let a = f.abs();
    if a != 0.0 && !(1e-6..1e21).contains(&a) {
        let e = format!("{f:e}");
        let (mant, exp) = e.split_once('e').unwrap_or((&e, "0"));
        let exp: i32 = exp.parse().unwrap_or(0);
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{mant}e{sign}{:02}", exp.abs())
    } else {
        format!("{f}")
    }
}

pub(super) fn go_json_str(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

pub(super) fn go_json_scalar(v: &Value, out: &mut String) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => out.push_str(&i.to_string()),
            (_, Some(u)) => out.push_str(&u.to_string()),
            _ => out.push_str(&go_json_float(n.as_f64().unwrap_or(0.0))),
        },
        Value::String(s) => go_json_str(s, out),
        _ => {}
    }
}

pub(super) fn sorted(m: &serde_json::Map<String, Value>) -> Vec<(&String, &Value)> {
    let mut kv: Vec<(&String, &Value)> = m.iter().collect();
    kv.sort_by(|a, b| a.0.cmp(b.0));
    kv
}

/// Go's `json.Marshal` of a decoded JSON value: compact, map keys sorted, HTML characters
/// escaped.
pub fn go_json(v: &Value) -> String {
    let mut out = String::new();
    fn w(v: &Value, out: &mut String) {
        match v {
            Value::Array(a) => {
                out.push('[');
                for (i, x) in a.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    w(x, out);
                }
                out.push(']');
            }
            Value::Object(m) => {
                out.push('{');
                for (i, (k, x)) in sorted(m).into_iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    go_json_str(k, out);
                    out.push(':');
                    w(x, out);
                }
                out.push('}');
            }
            s => go_json_scalar(s, out),
        }
    }
    w(v, &mut out);
    out
}

/// Go's `json.MarshalIndent(v, "", "    ")` of a decoded JSON value (`-o jsonpath-as-json`).
pub(super) fn go_json_indent(v: &Value, depth: usize) -> String {
    let pad = |d: usize| "    ".repeat(d);
    match v {
        Value::Array(a) if !a.is_empty() => {
            let items: Vec<String> = a
                .iter()
                .map(|x| format!("{}{}", pad(depth + 1), go_json_indent(x, depth + 1)))
                .collect();
            format!("[\n{}\n{}]", items.join(",\n"), pad(depth))
        }
        Value::Object(m) if !m.is_empty() => {
            let items: Vec<String> = sorted(m)
                .into_iter()
                .map(|(k, x)| {
                    let mut key = String::new();
                    go_json_str(k, &mut key);
                    format!("{}{key}: {}", pad(depth + 1), go_json_indent(x, depth + 1))
                })
                .collect();
            format!("{{\n{}\n{}}}", items.join(",\n"), pad(depth))
        }
        Value::Array(_) => "[]".into(),
        Value::Object(_) => "{}".into(),
        s => {
            let mut out = String::new();
            go_json_scalar(s, &mut out);
            out
        }
    }
}
