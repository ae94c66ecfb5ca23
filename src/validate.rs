//! Pure checks of the values a user gives that end up in a request: object names,
//! namespaces, label and field selectors, the field manager (issue 10, class 6).
//!
//! The API server validates all of them too, but a value it can never accept must be a usage
//! error (exit 2) named here, before any request — not a 100,000-byte URL the HTTP client
//! refuses to build and that reads as "cannot reach the API server". Each rule is the
//! apimachinery rule it names (k8s.io/apimachinery v0.36), so a value that passes here is one
//! the server parses; every message echoes the value through [`crate::echo::quoted`]
//! (escaped, at most 64 characters).

use crate::echo::quoted;

/// The longest object name this tool sends, in bytes: a DNS subdomain
/// (`validation.DNS1123SubdomainMaxLength`, k8s.io/apimachinery/pkg/util/validation), the
/// name rule of nearly every kind (custom resources included). RBAC and flow-control kinds
/// validate names only as path segments and accept longer ones; this tool refuses those
/// (kubectl sends them).
pub const MAX_NAME_BYTES: usize = 253;

/// The longest namespace name, in bytes: a DNS label (`validation.DNS1123LabelMaxLength`).
pub const MAX_NAMESPACE_BYTES: usize = 63;

/// The longest `--field-manager`, in bytes (`FieldManagerMaxLength`,
/// k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go).
pub const MAX_FIELD_MANAGER_BYTES: usize = 128;

/// The longest label key name part and label value, in bytes (`content.LabelValueMaxLength`
/// and `labelKeyMaxLength`, k8s.io/apimachinery/pkg/api/validate/content/kube.go).
pub const MAX_LABEL_BYTES: usize = 63;

/// The longest request URI the HTTP client builds (`http::uri::MAX_LEN`, 65,534 bytes, in the
/// `http` crate kube and the Pushgateway client use); a longer one fails before it is sent.
pub const MAX_URI_BYTES: usize = 65_534;

/// Room left in a request URI for the path and the parameters other than the selectors
/// (`/apis/<group>/<version>/namespaces/<ns>/<plural>?limit=…&includeObject=…`), in bytes.
const URI_OVERHEAD_BYTES: usize = 1_024;

/// Whether `ns` is a DNS label as Kubernetes validates namespace names
/// (`validation.IsDNS1123Label`): 1–63 characters, lowercase letters, digits and `-`,
/// starting and ending with a letter or digit.
///
/// # Errors
/// A usage message naming the rule and echoing the value escaped and capped.
pub fn check_namespace(ns: &str) -> Result<(), String> {
    if is_dns_label(ns) {
        return Ok(());
    }
    Err(format!(
        "invalid namespace {}: a namespace name is a DNS label of at most {MAX_NAMESPACE_BYTES} lowercase letters, digits and '-', starting and ending with a letter or digit (apimachinery validation.IsDNS1123Label)",
        quoted(ns)
    ))
}

/// RFC 1123 label: `[a-z0-9]([-a-z0-9]*[a-z0-9])?`, at most 63 bytes.
fn is_dns_label(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= MAX_NAMESPACE_BYTES
        && s.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !s.starts_with('-')
        && !s.ends_with('-')
}

/// RFC 1123 subdomain: dot-separated labels, at most 253 bytes
/// (`validation.IsDNS1123Subdomain`).
fn is_dns_subdomain(s: &str) -> bool {
    s.len() <= MAX_NAME_BYTES && s.split('.').all(is_dns_label)
}

/// Checks `--field-manager` as the API server does (`ValidateFieldManager`,
/// k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go): at most 128 bytes, every
/// character printable in Go's `unicode.IsPrint` sense (letters, marks, numbers, punctuation,
/// symbols and the ASCII space). Unassigned code points, which Go also refuses, are left to
/// the server (its 422 is exit 2 as well).
///
/// # Errors
/// A usage message naming the limit or the first bad character and its byte position.
pub fn check_field_manager(m: &str) -> Result<(), String> {
    if m.len() > MAX_FIELD_MANAGER_BYTES {
        return Err(format!(
            "--field-manager {} is {} bytes long; the API server accepts at most {MAX_FIELD_MANAGER_BYTES} (apimachinery ValidateFieldManager)",
            quoted(m),
            m.len()
        ));
    }
    if let Some((i, c)) = m.char_indices().find(|(_, c)| !is_go_printable(*c)) {
        return Err(format!(
            "--field-manager {} has the unprintable character U+{:04X} at byte {i}; the API server accepts printable characters only (apimachinery ValidateFieldManager)",
            quoted(m),
            c as u32
        ));
    }
    Ok(())
}

/// Go's `unicode.IsPrint` without the unassigned code points: false for control characters
/// (Cc), format characters (Cf), private use (Co), non-characters, and separators other than
/// the ASCII space (Zs, Zl, Zp).
pub fn is_go_printable(c: char) -> bool {
    if c == ' ' {
        return true;
    }
    if c.is_control() || c.is_whitespace() {
        return false;
    }
    let u = c as u32;
    // Cf (format) code points, Unicode 15.1 (DerivedGeneralCategory.txt).
    const FORMAT: &[(u32, u32)] = &[
        (0x00AD, 0x00AD),
        (0x0600, 0x0605),
        (0x061C, 0x061C),
        (0x06DD, 0x06DD),
        (0x070F, 0x070F),
        (0x0890, 0x0891),
        (0x08E2, 0x08E2),
        (0x180E, 0x180E),
        (0x200B, 0x200F),
        (0x202A, 0x202E),
        (0x2060, 0x2064),
        (0x2066, 0x206F),
        (0xFEFF, 0xFEFF),
        (0xFFF9, 0xFFFB),
        (0x110BD, 0x110BD),
        (0x110CD, 0x110CD),
        (0x13430, 0x1343F),
        (0x1BCA0, 0x1BCA3),
        (0x1D173, 0x1D17A),
        (0xE0001, 0xE0001),
        (0xE0020, 0xE007F),
    ];
    let private_use =
        (0xE000..=0xF8FF).contains(&u) || (0xF0000..=0xFFFFD).contains(&u) || u >= 0x100000;
    let non_character = (0xFDD0..=0xFDEF).contains(&u) || (u & 0xFFFE) == 0xFFFE;
    !(private_use || non_character || FORMAT.iter().any(|(lo, hi)| (*lo..=*hi).contains(&u)))
}

/// Checks a label selector as `labels.Parse` does (k8s.io/apimachinery/pkg/labels/selector.go):
/// the grammar `[!]KEY [(=|==|!=|>|<) VALUE | (in|notin) (VALUES)]`, comma-separated; keys are
/// label keys (`[prefix/]name`, name at most 63 bytes of `[A-Za-z0-9_.-]` starting and ending
/// alphanumeric, prefix a DNS subdomain), values label values (at most 63 bytes, the same
/// characters, or empty), `>`/`<` values integers. The messages are apimachinery's, with the
/// offending literal escaped and capped.
///
/// # Errors
/// A usage message starting with `-l/--selector`.
pub fn check_label_selector(s: &str) -> Result<(), String> {
    LabelParser::new(s)
        .parse()
        .map_err(|e| format!("-l/--selector {}: {e}", quoted(s)))
}

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

/// Whether both selectors fit in one request URI: their percent-encoded length plus room for
/// the path and other parameters must stay within [`MAX_URI_BYTES`].
///
/// # Errors
/// A usage message with the encoded length and the limit.
pub fn check_selectors_fit(label: Option<&str>, field: Option<&str>) -> Result<(), String> {
    let encoded: usize = [label, field]
        .into_iter()
        .flatten()
        .map(|s| {
            s.bytes()
                .map(|b| if b.is_ascii_alphanumeric() { 1 } else { 3 })
                .sum::<usize>()
        })
        .sum();
    if encoded + URI_OVERHEAD_BYTES > MAX_URI_BYTES {
        return Err(format!(
            "the selectors are {encoded} bytes long once encoded in the request URL, which the HTTP client limits to {MAX_URI_BYTES} bytes (http::uri::MAX_LEN); select with fewer or shorter terms"
        ));
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

/// Lexer tokens of `labels.Parse`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tok {
    Error,
    End,
    ClosedPar,
    Comma,
    DoesNotExist,
    DoubleEquals,
    Equals,
    GreaterThan,
    Identifier,
    In,
    LessThan,
    NotEquals,
    NotIn,
    OpenPar,
}

fn literal_token(s: &str) -> Option<Tok> {
    Some(match s {
        ")" => Tok::ClosedPar,
        "," => Tok::Comma,
        "!" => Tok::DoesNotExist,
        "==" => Tok::DoubleEquals,
        "=" => Tok::Equals,
        ">" => Tok::GreaterThan,
        "in" => Tok::In,
        "<" => Tok::LessThan,
        "!=" => Tok::NotEquals,
        "notin" => Tok::NotIn,
        "(" => Tok::OpenPar,
        _ => return None,
    })
}

fn is_special(b: u8) -> bool {
    matches!(b, b'=' | b'!' | b'(' | b')' | b',' | b'>' | b'<')
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// Splits a label selector into tokens exactly as apimachinery's `Lexer` does (byte-wise).
fn lex(s: &str) -> Vec<(Tok, String)> {
    let b = s.as_bytes();
    let mut pos = 0;
    let mut out = Vec::new();
    loop {
        while pos < b.len() && is_space(b[pos]) {
            pos += 1;
        }
        if pos >= b.len() {
            out.push((Tok::End, String::new()));
            return out;
        }
        let start = pos;
        if is_special(b[pos]) {
            // The longest run of special symbols that is still a token.
            let mut last: Option<(Tok, usize)> = None;
            while pos < b.len() && is_special(b[pos]) {
                pos += 1;
                match literal_token(&s[start..pos]) {
                    Some(t) => last = Some((t, pos)),
                    None if last.is_some() => {
                        pos -= 1;
                        break;
                    }
                    None => {}
                }
            }
            match last {
                Some((t, end)) => {
                    pos = end;
                    out.push((t, s[start..end].to_string()));
                }
                None => {
                    out.push((
                        Tok::Error,
                        format!("error expected: keyword found '{}'", &s[start..pos]),
                    ));
                }
            }
        } else {
            while pos < b.len() && !is_special(b[pos]) && !is_space(b[pos]) {
                pos += 1;
            }
            let word = &s[start..pos];
            let tok = literal_token(word).unwrap_or(Tok::Identifier);
            out.push((tok, word.to_string()));
        }
    }
}

/// The recursive-descent parser of `labels.Parse`, validating as it goes.
struct LabelParser {
    items: Vec<(Tok, String)>,
    pos: usize,
}

/// Whether the parser reads a key/operator or a value (`in`/`notin` are identifiers there).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ctx {
    KeyAndOperator,
    Values,
}

impl LabelParser {
    fn new(s: &str) -> LabelParser {
        LabelParser {
            items: lex(s),
            pos: 0,
        }
    }

    fn item(&self, i: usize, ctx: Ctx) -> (Tok, String) {
        let (t, l) = self
            .items
            .get(i)
            .cloned()
            .unwrap_or((Tok::End, String::new()));
        let t = match (ctx, t) {
            (Ctx::Values, Tok::In | Tok::NotIn) => Tok::Identifier,
            (_, t) => t,
        };
        (t, l)
    }

    fn lookahead(&self, ctx: Ctx) -> (Tok, String) {
        self.item(self.pos, ctx)
    }

    fn consume(&mut self, ctx: Ctx) -> (Tok, String) {
        self.pos += 1;
        self.item(self.pos - 1, ctx)
    }

    fn parse(&mut self) -> Result<(), String> {
        loop {
            let (tok, lit) = self.lookahead(Ctx::Values);
            match tok {
                Tok::Identifier | Tok::DoesNotExist => {
                    self.requirement()
                        .map_err(|e| format!("unable to parse requirement: {e}"))?;
                    let (t, l) = self.consume(Ctx::Values);
                    match t {
                        Tok::End => return Ok(()),
                        Tok::Comma => {
                            let (t2, l2) = self.lookahead(Ctx::Values);
                            if t2 != Tok::Identifier && t2 != Tok::DoesNotExist {
                                return Err(format!(
                                    "found {}, expected: identifier after ','",
                                    quoted(&l2)
                                ));
                            }
                        }
                        _ => {
                            return Err(format!(
                                "found {}, expected: ',' or 'end of string'",
                                quoted(&l)
                            ));
                        }
                    }
                }
                Tok::End => return Ok(()),
                _ => {
                    return Err(format!(
                        "found {}, expected: !, identifier, or 'end of string'",
                        quoted(&lit)
                    ));
                }
            }
        }
    }

    fn requirement(&mut self) -> Result<(), String> {
        let (mut tok, mut lit) = self.consume(Ctx::Values);
        let negated = tok == Tok::DoesNotExist;
        if negated {
            (tok, lit) = self.consume(Ctx::Values);
        }
        if tok != Tok::Identifier {
            return Err(format!("found {}, expected: identifier", quoted(&lit)));
        }
        check_label_key(&lit)?;
        let key = lit;
        let (next, _) = self.lookahead(Ctx::Values);
        // `!key` takes no operator: whatever follows is the caller's to reject.
        if negated || next == Tok::End || next == Tok::Comma {
            return Ok(());
        }
        let (op, oplit) = self.consume(Ctx::KeyAndOperator);
        let values = match op {
            Tok::In | Tok::NotIn => self.values()?,
            Tok::Equals | Tok::DoubleEquals | Tok::NotEquals => self.exact_value()?,
            Tok::GreaterThan | Tok::LessThan => {
                let v = self.exact_value()?;
                if v.iter().any(|x| x.parse::<i64>().is_err()) {
                    return Err(format!(
                        "for 'gt', 'lt' operators, the value of {} must be an integer",
                        quoted(&key)
                    ));
                }
                v
            }
            _ => {
                return Err(format!(
                    "found {}, expected: in, notin, =, ==, !=, gt, lt",
                    quoted(&oplit)
                ));
            }
        };
        for v in &values {
            check_label_value(&key, v)?;
        }
        Ok(())
    }

    fn values(&mut self) -> Result<Vec<String>, String> {
        let (tok, lit) = self.consume(Ctx::Values);
        if tok != Tok::OpenPar {
            return Err(format!("found {} expected: '('", quoted(&lit)));
        }
        let (tok, lit) = self.lookahead(Ctx::Values);
        match tok {
            Tok::Identifier | Tok::Comma => {
                let s = self.identifiers()?;
                if self.consume(Ctx::Values).0 != Tok::ClosedPar {
                    return Err(format!("found {}, expected: ')'", quoted(&lit)));
                }
                Ok(s)
            }
            Tok::ClosedPar => {
                self.consume(Ctx::Values);
                Ok(vec![String::new()])
            }
            _ => Err(format!(
                "found {}, expected: ',', ')' or identifier",
                quoted(&lit)
            )),
        }
    }

    fn identifiers(&mut self) -> Result<Vec<String>, String> {
        let mut s = Vec::new();
        loop {
            let (tok, lit) = self.consume(Ctx::Values);
            match tok {
                Tok::Identifier => {
                    s.push(lit);
                    let (t2, l2) = self.lookahead(Ctx::Values);
                    match t2 {
                        Tok::Comma => continue,
                        Tok::ClosedPar => return Ok(s),
                        _ => return Err(format!("found {}, expected: ',' or ')'", quoted(&l2))),
                    }
                }
                Tok::Comma => {
                    let (t2, _) = self.lookahead(Ctx::Values);
                    s.push(String::new());
                    if t2 == Tok::ClosedPar {
                        return Ok(s);
                    }
                }
                _ => {
                    return Err(format!(
                        "found {}, expected: ',', or identifier",
                        quoted(&lit)
                    ));
                }
            }
        }
    }

    fn exact_value(&mut self) -> Result<Vec<String>, String> {
        let (tok, _) = self.lookahead(Ctx::Values);
        if tok == Tok::End || tok == Tok::Comma {
            return Ok(vec![String::new()]);
        }
        let (tok, lit) = self.consume(Ctx::Values);
        if tok == Tok::Identifier {
            return Ok(vec![lit]);
        }
        Err(format!("found {}, expected: identifier", quoted(&lit)))
    }
}

/// `[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?`, the label key name and label value pattern.
fn is_label_word(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
}

/// `content.IsLabelKey`: `[prefix/]name`, prefix a DNS subdomain, name at most 63 bytes.
fn check_label_key(k: &str) -> Result<(), String> {
    let bad = |why: &str| Err(format!("key {}: {why}", quoted(k)));
    let parts: Vec<&str> = k.split('/').collect();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                return bad("the prefix part before '/' must not be empty");
            }
            if !is_dns_subdomain(prefix) {
                return bad(
                    "the prefix part must be a DNS subdomain (lowercase letters, digits, '-' and '.', at most 253 characters)",
                );
            }
            *name
        }
        _ => return bad("a label key has at most one '/' (an optional DNS subdomain prefix)"),
    };
    if name.len() > MAX_LABEL_BYTES {
        return bad(&format!(
            "the name part must be no more than {MAX_LABEL_BYTES} bytes (it has {})",
            name.len()
        ));
    }
    if !is_label_word(name) {
        return bad(
            "the name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        );
    }
    Ok(())
}

/// `content.IsLabelValue`: empty, or at most 63 bytes of the label word pattern.
fn check_label_value(k: &str, v: &str) -> Result<(), String> {
    if v.len() > MAX_LABEL_BYTES {
        return Err(format!(
            "value {} of key {}: a label value must be no more than {MAX_LABEL_BYTES} bytes (it has {})",
            quoted(v),
            quoted(k),
            v.len()
        ));
    }
    if !v.is_empty() && !is_label_word(v) {
        return Err(format!(
            "value {} of key {}: a label value must be empty or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
            quoted(v),
            quoted(k)
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_label_selectors_pass_like_labels_parse() {
        for ok in [
            "",
            "app",
            "!app",
            "app=web",
            "app==web",
            "app!=web",
            "tier in (front,back)",
            "x in (foo,,baz),y,z notin ()",
            "example.com/app=web",
            "a>5",
            "a=",
            "in in (in)",
            " app = web , tier ",
        ] {
            assert_eq!(check_label_selector(ok), Ok(()), "{ok:?}");
        }
    }

    #[test]
    fn malformed_label_selectors_get_apimachinery_s_message() {
        let cases = [
            ("a=b=c", "found \"=\", expected: ',' or 'end of string'"),
            (
                "a in (b",
                "unable to parse requirement: found \"\", expected: ',' or ')'",
            ),
            (
                "!!a",
                "unable to parse requirement: found \"!\", expected: identifier",
            ),
            (
                "a b",
                "unable to parse requirement: found \"b\", expected: in, notin, =, ==, !=, gt, lt",
            ),
            ("a,", "found \"\", expected: identifier after ','"),
            ("a>b", "must be an integer"),
            ("a<-3", "a label value must be empty or consist"),
            ("!a=b", "found \"=\", expected: ',' or 'end of string'"),
            ("a=b_", "a label value must be empty or consist"),
            ("/a", "the prefix part before '/' must not be empty"),
            ("a/b/c", "at most one '/'"),
            ("A_/b", "must be a DNS subdomain"),
        ];
        for (bad, want) in cases {
            let e = check_label_selector(bad).unwrap_err();
            assert!(e.starts_with("-l/--selector "), "{bad:?}: {e}");
            assert!(e.contains(want), "{bad:?}: {e}");
        }
    }

    #[test]
    fn a_100000_character_selector_is_refused_with_a_capped_echo() {
        let long = "a".repeat(100_000);
        let e = check_label_selector(&long).unwrap_err();
        assert!(e.contains("no more than 63 bytes (it has 100000)"), "{e}");
        assert!(e.len() < 400, "{} bytes", e.len());
        let e = check_label_selector(&format!("a={long}")).unwrap_err();
        assert!(
            e.contains("a label value must be no more than 63 bytes"),
            "{e}"
        );
        assert!(e.len() < 400, "{} bytes", e.len());
    }

    #[test]
    fn escape_sequences_in_a_selector_are_escaped_in_the_message() {
        let e = check_label_selector("a=\u{1b}[2J").unwrap_err();
        assert!(!e.contains('\u{1b}'), "{e}");
        assert!(e.contains("\\u{1b}"), "{e}");
    }

    #[test]
    fn field_selectors_follow_fields_parse_selector() {
        for ok in [
            "",
            "status.phase=Running",
            "metadata.name==web,spec.nodeName!=",
            "a=x\\,y\\=z\\\\",
            ",,a=b",
        ] {
            assert_eq!(check_field_selector(ok), Ok(()), "{ok:?}");
        }
        let e = check_field_selector("a").unwrap_err();
        assert!(e.contains("can't understand \"a\""), "{e}");
        let e = check_field_selector("a=b=c").unwrap_err();
        assert!(e.contains("unescaped character \"=\""), "{e}");
        let e = check_field_selector("a=b\\x").unwrap_err();
        assert!(e.contains("invalid escape sequence \"\\\\x\""), "{e}");
        let e = check_field_selector("a=b\\").unwrap_err();
        assert!(e.contains("at the end of a value"), "{e}");
    }

    #[test]
    fn selectors_that_cannot_fit_in_a_request_uri_are_refused() {
        let many = format!(
            "a in ({})",
            (0..20_000)
                .map(|i| format!("v{i}"))
                .collect::<Vec<_>>()
                .join(",")
        );
        assert_eq!(check_label_selector(&many), Ok(()), "valid, only too long");
        let e = check_selectors_fit(Some(&many), None).unwrap_err();
        assert!(e.contains("65534 bytes"), "{e}");
        assert_eq!(check_selectors_fit(Some("app=web"), Some("a=b")), Ok(()));
        assert_eq!(check_selectors_fit(None, None), Ok(()));
    }

    #[test]
    fn field_manager_follows_validate_field_manager() {
        assert_eq!(check_field_manager("kubectl-myops"), Ok(()));
        assert_eq!(check_field_manager("my tool (ops) ✓"), Ok(()));
        assert_eq!(check_field_manager(&"m".repeat(128)), Ok(()));
        let e = check_field_manager(&"m".repeat(200)).unwrap_err();
        assert!(
            e.contains("200 bytes long; the API server accepts at most 128"),
            "{e}"
        );
        assert!(e.len() < 300, "{e}");
        // 43 × 'é' = 86 bytes: the limit is in bytes, as Go's len().
        assert!(check_field_manager(&"é".repeat(65)).is_err(), "130 bytes");
        for (bad, code) in [
            ("a\u{1b}[31m", "U+001B at byte 1"),
            ("a\tb", "U+0009"),
            ("a\u{a0}b", "U+00A0"),
            ("a\u{202e}b", "U+202E"),
            ("\u{e000}", "U+E000"),
        ] {
            let e = check_field_manager(bad).unwrap_err();
            assert!(e.contains(code), "{bad:?}: {e}");
            assert!(!e.contains('\u{1b}'), "{e}");
        }
    }

    #[test]
    fn namespaces_are_dns_labels() {
        for ok in ["default", "kube-system", "a", "0", &"n".repeat(63)] {
            assert_eq!(check_namespace(ok), Ok(()), "{ok:?}");
        }
        for bad in ["", "Bad_NS", "-a", "a-", "a.b", &"n".repeat(64)] {
            let e = check_namespace(bad).unwrap_err();
            assert!(e.contains("IsDNS1123Label"), "{bad:?}: {e}");
        }
        let e = check_namespace(&"n".repeat(100_000)).unwrap_err();
        assert!(e.contains("(100000 characters)") && e.len() < 400, "{e}");
    }
}
