//! Field selectors, checked as `fields.ParseSelector` parses them
//! (k8s.io/apimachinery/pkg/fields/selector.go).

use crate::base::echo::quoted;

/// Checks a field selector as `fields.ParseSelector` does
/// (k8s.io/apimachinery/pkg/fields/selector.go): comma-separated `field(=|==|!=)value` terms,
/// `\`-escapes `\\`, `\,`, `\=` in values, no unescaped `,` or `=` in a value. Which fields a
/// type supports is the server's to say (its 400 is exit 2).
///
/// # Errors
/// A usage message starting with `--field-selector`.
pub fn check_field_selector(s: &str) -> Result<(), String> {
    let fail = |why: String| Err(format!("--field-selector {}: {why}", quoted(s)));
    for term in split_terms(s) {
        if term.is_empty() {
            continue;
        }
        let Some((_, rhs)) = split_term(term) else {
            return fail(format!(
                "can't understand {}; write field=value, field==value or field!=value",
                quoted(term)
            ));
        };
        if let Err(why) = unescape_check(rhs) {
            return fail(why);
        }
    }
    Ok(())
}

/// `fields.splitTerms`: split on `,` not preceded by a `\`.
fn split_terms(s: &str) -> Vec<&str> {
    if s.is_empty() {
        return Vec::new();
    }
    let mut terms = Vec::new();
    let mut start = 0;
    let mut in_slash = false;
    for (i, c) in s.char_indices() {
        if in_slash {
            in_slash = false;
        } else if c == '\\' {
            in_slash = true;
        } else if c == ',' {
            terms.push(&s[start..i]);
            start = i + 1;
        }
    }
    terms.push(&s[start..]);
    terms
}

/// `fields.splitTerm`: the first `!=`, `==` or `=` (in that order of preference at each
/// position) splits the term.
fn split_term(term: &str) -> Option<(&str, &str)> {
    for (i, _) in term.char_indices() {
        let rest = &term[i..];
        for op in ["!=", "==", "="] {
            if rest.starts_with(op) {
                return Some((&term[..i], &term[i + op.len()..]));
            }
        }
    }
    None
}

/// `fields.UnescapeValue`: only `\\`, `\,` and `\=` are escapes; a bare `,` or `=` is an error.
fn unescape_check(v: &str) -> Result<(), String> {
    let mut in_slash = false;
    for c in v.chars() {
        if in_slash {
            if !matches!(c, '\\' | ',' | '=') {
                return Err(format!(
                    "invalid escape sequence {}; escape only \\\\, \\, and \\=",
                    quoted(&format!("\\{c}"))
                ));
            }
            in_slash = false;
            continue;
        }
        match c {
            '\\' => in_slash = true,
            ',' | '=' => {
                return Err(format!(
                    "unescaped character {} in a value; write it as \\{c}",
                    quoted(&c.to_string())
                ));
            }
            _ => {}
        }
    }
    if in_slash {
        return Err("invalid escape sequence \"\\\" at the end of a value".into());
    }
    Ok(())
}
