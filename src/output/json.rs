//! `-o json` as kubectl prints it: Go `encoding/json`'s sorted keys, string escapes and float
//! digits (`k8s.io/cli-runtime/pkg/printers/json.go`).

use serde_json::Value;

use super::OutputError;

/// `v` with the keys of every object sorted, recursively: kubectl decodes objects into Go
/// maps (`unstructured.Unstructured`), and `encoding/json` and sigs.k8s.io/yaml print map
/// keys in sorted order, so `-o json|yaml` lists `apiVersion`, `kind`, `metadata`, `spec`,
/// `status` and every nested key alphabetically (byte order, as Go sorts strings).
pub fn sort_keys(v: Value) -> Value {
    match v {
        Value::Object(m) => {
            let mut pairs: Vec<(String, Value)> = m.into_iter().collect();
            pairs.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(pairs.into_iter().map(|(k, v)| (k, sort_keys(v))).collect())
        }
        Value::Array(a) => Value::Array(a.into_iter().map(sort_keys).collect()),
        other => other,
    }
}

/// `-o json` as kubectl prints it: keys sorted ([`sort_keys`]), 4-space indent, a
/// trailing newline (`k8s.io/cli-runtime/pkg/printers/json.go`).
///
/// # Errors
/// [`OutputError::Encode`] if the value cannot be encoded.
pub fn kubectl_json(v: &Value) -> Result<String, OutputError> {
    use serde::Serialize;
    let mut buf = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(
        &mut buf,
        GoJson(serde_json::ser::PrettyFormatter::with_indent(b"    ")),
    );
    sort_keys(v.clone())
        .serialize(&mut ser)
        .map_err(|e| OutputError::Encode(e.to_string()))?;
    buf.push(b'\n');
    String::from_utf8(buf).map_err(|e| OutputError::Encode(e.to_string()))
}

/// serde_json's pretty printer with Go `encoding/json`'s string escapes: `<`, `>`, `&`,
/// U+2028 and U+2029 as `\u003c`, `\u003e`, `\u0026`, `\u2028`, `\u2029` (Go's HTML-safe
/// default); other control characters as serde_json writes them, the same as Go 1.22+.
struct GoJson<'a>(serde_json::ser::PrettyFormatter<'a>);

impl serde_json::ser::Formatter for GoJson<'_> {
    fn write_f64<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        value: f64,
    ) -> std::io::Result<()> {
        w.write_all(go_json_float(value).as_bytes())
    }

    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        let mut start = 0;
        for (i, c) in fragment.char_indices() {
            let esc = match c {
                '<' => "\\u003c",
                '>' => "\\u003e",
                '&' => "\\u0026",
                '\u{2028}' => "\\u2028",
                '\u{2029}' => "\\u2029",
                _ => continue,
            };
            w.write_all(&fragment.as_bytes()[start..i])?;
            w.write_all(esc.as_bytes())?;
            start = i + c.len_utf8();
        }
        w.write_all(&fragment.as_bytes()[start..])
    }

    fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_array(w)
    }

    fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_array(w)
    }

    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.0.begin_array_value(w, first)
    }

    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_array_value(w)
    }

    fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_object(w)
    }

    fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object(w)
    }

    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.0.begin_object_key(w, first)
    }

    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.begin_object_value(w)
    }

    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.0.end_object_value(w)
    }
}

/// A float as Go's `encoding/json` writes it (`encode.go` `floatEncoder`): the shortest
/// digits that read back, plain decimal (`1` for 1.0, `0.000001`) unless the magnitude is
/// below 1e-6 or at least 1e21, then exponent form with a sign and no leading zero
/// (`1e-7`, `1e+21`).
pub fn go_json_float(f: f64) -> String {
    let a = f.abs();
    if a != 0.0 && !(1e-6..1e21).contains(&a) {
        let e = format!("{f:e}");
        match e.split_once('e') {
            Some((mant, exp)) if exp.starts_with('-') => format!("{mant}e{exp}"),
            Some((mant, exp)) => format!("{mant}e+{exp}"),
            None => e,
        }
    } else {
        format!("{f}")
    }
}
