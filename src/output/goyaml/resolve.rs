//! How go-yaml reads a plain scalar back (`resolve.go`): which strings must be quoted to
//! stay strings, and how numbers are printed.

/// A number as go-yaml prints what JSON decoding gave it: integers as they are, floats
/// with Go's `strconv.FormatFloat(f, 'g', -1, 64)`.
pub(super) fn number(n: &serde_json::Number) -> String {
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
