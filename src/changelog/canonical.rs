//! The canonical form a change-log record is hashed in: the JSON Canonicalization
//! Scheme, RFC 8785 ("JCS"), for the JSON values a record holds, and its SHA-256 (`ring`).
//!
//! Why JCS: it is the named standard for "the same JSON value, the same bytes", so a record
//! can be re-hashed by any tool that implements it (Python's `json.dumps(v, sort_keys=True,
//! separators=(",", ":"), ensure_ascii=False)` agrees with it on every value our records
//! hold except a float printed in exponent form, see below) and not only by this program.
//! The record on disk keeps its readable field order (id first); only the hash input is
//! canonical.
//!
//! What is implemented, RFC 8785 §3.2:
//! - no whitespace between tokens;
//! - object members sorted by their names as UTF-16 code units (§3.2.3), recursively;
//!   array order kept;
//! - strings as ECMAScript `JSON.stringify` writes them (§3.2.2.2): `\"`, `\\`, `\b`,
//!   `\f`, `\n`, `\r`, `\t`, other characters below U+0020 as `\u00xx` (lowercase hex),
//!   everything else as its UTF-8 bytes — serde_json's string escaping is exactly this;
//! - `true`, `false`, `null`;
//! - a number that serde_json holds as a float is written as ECMAScript's
//!   `Number.prototype.toString` writes a double (§3.2.2.3): the shortest digits that round
//!   trip (Rust's `{:e}` gives them), plain notation for exponents −6 … 20, otherwise
//!   `d.ddde±x`; `-0` as `0`.
//!
//! The one deliberate difference: an integer (serde_json holds it as `i64`/`u64`) is written
//! with all its digits. JCS would first convert it to a double, which for integers up to
//! 2^53 gives the same text (all Kubernetes counters and ports are far below) and beyond it
//! would round — two different large integers would then hash alike, so an edit of one could
//! pass unnoticed. Exact digits never collide. NaN and infinities cannot occur: JSON has no
//! such values and serde_json refuses to hold them.

use serde_json::Value;

/// The canonical (RFC 8785 JCS, integers exact — see the module doc) UTF-8 text of `v` (pure).
pub fn canonical(v: &Value) -> String {
    let mut out = String::new();
    write(v, &mut out);
    out
}

fn write(v: &Value, out: &mut String) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => out.push_str(&i.to_string()),
            (None, Some(u), _) => out.push_str(&u.to_string()),
            (None, None, Some(f)) => out.push_str(&es_number(f)),
            // Unreachable for serde_json numbers; write what serde_json would.
            (None, None, None) => out.push_str(&n.to_string()),
        },
        Value::String(s) => out.push_str(&Value::String(s.clone()).to_string()),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut members: Vec<(&String, &Value)> = map.iter().collect();
            members.sort_by(|a, b| a.0.encode_utf16().cmp(b.0.encode_utf16()));
            out.push('{');
            for (i, (k, item)) in members.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(k.clone()).to_string());
                out.push(':');
                write(item, out);
            }
            out.push('}');
        }
    }
}

/// A finite double as ECMAScript's `Number.prototype.toString` writes it (ECMA-262
/// Number::toString, the algorithm RFC 8785 §3.2.2.3 names), from the shortest round-trip
/// digits Rust's `{:e}` prints.
fn es_number(f: f64) -> String {
    if f == 0.0 {
        return "0".into();
    }
    let sci = format!("{:e}", f.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((sci.as_str(), "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let k = digits.len() as i64;
    // n: the position of the decimal point relative to the digits (value = 0.digits × 10^n).
    let n = exp.parse::<i64>().unwrap_or(0) + 1;
    let body = if k <= n && n <= 21 {
        format!("{digits}{}", "0".repeat((n - k) as usize))
    } else if 0 < n && n <= 21 {
        format!("{}.{}", &digits[..n as usize], &digits[n as usize..])
    } else if -6 < n && n <= 0 {
        format!("0.{}{digits}", "0".repeat((-n) as usize))
    } else {
        let e = n - 1;
        let sign = if e < 0 { '-' } else { '+' };
        let rest = if k > 1 {
            format!(".{}", &digits[1..])
        } else {
            String::new()
        };
        format!("{}{rest}e{sign}{}", &digits[..1], e.abs())
    };
    if f < 0.0 { format!("-{body}") } else { body }
}

/// SHA-256 of `bytes` as 64 lowercase hex digits (`ring::digest`, the implementation rustls
/// already uses here).
pub fn sha256_hex(bytes: &[u8]) -> String {
    let d = ring::digest::digest(&ring::digest::SHA256, bytes);
    d.as_ref().iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_print_as_ecmascript_does_rfc_8785_appendix_b() {
        // Values from RFC 8785 Appendix B (IEEE 754 → JSON text).
        let cases: [(f64, &str); 12] = [
            (0.0, "0"),
            (-0.0, "0"),
            (5e-324, "5e-324"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (9007199254740992.0, "9007199254740992"),
            (295147905179352830000.0, "295147905179352830000"),
            (1e21, "1e+21"),
            (1e-7, "1e-7"),
            (0.000001, "0.000001"),
            (333333333.3333333, "333333333.3333333"),
            (-1.5, "-1.5"),
            (0.25, "0.25"),
        ];
        for (f, want) in cases {
            assert_eq!(es_number(f), want, "{f:e}");
        }
        assert_eq!(es_number(1.2e-6), "0.0000012");
        assert_eq!(es_number(123e18), "123000000000000000000");
    }

    #[test]
    fn objects_sort_by_utf16_code_units_and_strings_escape_as_json_stringify() {
        // From RFC 8785 §3.2.3's example: U+FB33 sorts after U+1F600 (😀, UTF-16 D83D DE00)
        // in UTF-16 order, though before it in UTF-8 and code-point order.
        let v =
            json!({"\u{fb33}": 1, "\u{1f600}": 2, "\r": 3, "1": 4, "\u{20ac}": [true, null, "x"]});
        assert_eq!(
            canonical(&v),
            "{\"\\r\":3,\"1\":4,\"\u{20ac}\":[true,null,\"x\"],\"\u{1f600}\":2,\"\u{fb33}\":1}"
        );
        let s = json!({"a": "\u{1}\u{7f}/\"\\é\t"});
        assert_eq!(canonical(&s), "{\"a\":\"\\u0001\u{7f}/\\\"\\\\é\\t\"}");
        assert_eq!(
            canonical(&json!({"x": {"b": 1, "a": -2}})),
            "{\"x\":{\"a\":-2,\"b\":1}}"
        );
    }

    #[test]
    fn integers_keep_every_digit() {
        let v: Value =
            serde_json::from_str("[9007199254740993, 18446744073709551615, -9223372036854775808]")
                .unwrap();
        assert_eq!(
            canonical(&v),
            "[9007199254740993,18446744073709551615,-9223372036854775808]"
        );
    }

    #[test]
    fn sha256_of_abc_is_the_fips_180_value() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
