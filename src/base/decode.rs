//! Decoding an API server's answer as deep as the server stores objects.
//!
//! serde_json stops at 128 levels of nesting by default, to keep its recursion off the end of
//! the stack. The API server stores a custom resource nested far deeper (a free-form field
//! may hold anything; the test server stored one 9,990 levels deep) and kubectl reads it: Go's
//! `encoding/json` allows 10,000 (`maxNestingDepth`, `encoding/json/scanner.go`). So an answer
//! is decoded here with serde_json's recursion limit lifted, bounded by [`MAX_DEPTH`]: the
//! depth is measured first, without recursion, and a deeper answer is a
//! [`DecodeError::TooDeep`] before anything recursive touches it. Everything that then recurses
//! over the object — the decoder, the printers, sorting, cloning, dropping — runs on a stack
//! sized for that depth ([`STACK_BYTES`]).

use serde::de::DeserializeOwned;

/// The deepest answer this client decodes: Go's `encoding/json` `maxNestingDepth` (10,000),
/// which kubectl decodes with, so what kubectl reads this client reads.
pub const MAX_DEPTH: usize = 10_000;

/// The stack the command runs on (`app::main`): room for every recursion over an object
/// [`MAX_DEPTH`] levels deep — printing it as JSON, YAML or custom columns, cloning, sorting
/// and dropping it. Measured: a 9,990-level object printed with `-o json` overflows the
/// default 8 MiB main stack and prints within this one; only the pages touched are committed.
pub const STACK_BYTES: usize = 256 << 20;

/// Why an answer could not be decoded.
#[derive(Debug, thiserror::Error)]
pub enum DecodeError {
    /// Nested deeper than [`MAX_DEPTH`].
    #[error("it nests more than {MAX_DEPTH} levels deep, more than kubectl reads")]
    TooDeep,
    /// Not JSON of the expected shape.
    #[error("{0}")]
    Json(#[from] serde_json::Error),
}

/// The deepest nesting of objects and arrays in the JSON text `text`, counted up to
/// `MAX_DEPTH + 1` (pure, no recursion; brackets inside strings do not count, and text that
/// is not JSON is measured as far as it goes — the decoder then says what is wrong with it).
pub fn depth(text: &[u8]) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    let (mut in_string, mut escaped) = (false, false);
    for &b in text {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' | b'[' => {
                depth += 1;
                deepest = deepest.max(depth);
                if deepest > MAX_DEPTH {
                    return deepest;
                }
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// Decodes the JSON text `text` as a `T`, up to [`MAX_DEPTH`] levels deep (see the module
/// doc; the caller runs on a stack of [`STACK_BYTES`], as every command does).
///
/// # Errors
/// [`DecodeError::TooDeep`] past [`MAX_DEPTH`] (nothing decoded), [`DecodeError::Json`] for
/// text that is no JSON `T`.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, DecodeError> {
    if depth(text.as_bytes()) > MAX_DEPTH {
        return Err(DecodeError::TooDeep);
    }
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    let value = T::deserialize(&mut de)?;
    de.end()?;
    Ok(value)
}

/// [`from_str`] of JSON bytes (a change-log line as read from disk).
///
/// # Errors
/// As [`from_str`].
pub fn from_slice<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, DecodeError> {
    if depth(bytes) > MAX_DEPTH {
        return Err(DecodeError::TooDeep);
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    de.disable_recursion_limit();
    let value = T::deserialize(&mut de)?;
    de.end()?;
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nested(depth: usize) -> String {
        format!("{}1{}", "[".repeat(depth), "]".repeat(depth))
    }

    #[test]
    fn depth_counts_brackets_outside_strings_only() {
        assert_eq!(depth(b"1"), 0);
        assert_eq!(depth(br#"{"a":[1,{"b":"[[[{"}]}"#), 3);
        assert_eq!(depth(br#"{"a":"\"[[[","b":{}}"#), 2);
        assert_eq!(depth(nested(MAX_DEPTH + 50).as_bytes()), MAX_DEPTH + 1);
    }

    /// A custom resource 123+ levels deep failed `get -o json` with "recursion limit
    /// exceeded", which kubectl prints.
    #[test]
    fn an_object_deeper_than_128_levels_was_refused_as_recursion_limit_exceeded() {
        let text = format!(
            "{{\"spec\":{}\"leaf\"{}}}",
            "{\"a\":".repeat(500),
            "}".repeat(500)
        );
        let v: serde_json::Value = from_str(&text).unwrap();
        let mut cur = &v["spec"];
        for _ in 0..500 {
            cur = &cur["a"];
        }
        assert_eq!(cur, "leaf");
        // Dropped level by level: serde_json's own drop would recurse as deep.
        drop_flat(v);
    }

    #[test]
    fn an_answer_100000_levels_deep_is_refused_before_it_is_decoded() {
        let e = from_str::<serde_json::Value>(&nested(100_000)).unwrap_err();
        assert!(matches!(e, DecodeError::TooDeep), "{e:?}");
        assert_eq!(
            e.to_string(),
            "it nests more than 10000 levels deep, more than kubectl reads"
        );
        assert!(from_str::<serde_json::Value>("{\"a\": ").is_err());
        assert!(from_str::<serde_json::Value>("{} x").is_err());
    }

    /// Drops `v` without recursion (a test thread's stack is 2 MiB).
    fn drop_flat(v: serde_json::Value) {
        let mut stack = vec![v];
        while let Some(v) = stack.pop() {
            match v {
                serde_json::Value::Object(m) => stack.extend(m.into_iter().map(|(_, v)| v)),
                serde_json::Value::Array(a) => stack.extend(a),
                _ => {}
            }
        }
    }
}
