//! Label selectors, checked as `labels.Parse` parses them
//! (k8s.io/apimachinery/pkg/labels/selector.go): its lexer, its recursive-descent parser,
//! and the label key and value rules it applies
//! (k8s.io/apimachinery/pkg/api/validate/content).

use super::names::is_dns_subdomain;
use crate::base::echo::quoted;

/// The longest label key name part and label value, in bytes (`content.LabelValueMaxLength`
/// and `labelKeyMaxLength`, k8s.io/apimachinery/pkg/api/validate/content/kube.go).
pub const MAX_LABEL_BYTES: usize = 63;

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
