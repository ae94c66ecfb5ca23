//! One redaction for every output channel: whatever this process prints to stderr
//! (`Printer::err_line` of the output module) or stores (the change log) passes through
//! [`scrub`], so a credential that reached a message by any route — a library's error, a
//! server's Status, a trace line — is masked the same way everywhere, as kubectl masks
//! bearer tokens in its `-v` traces (`Authorization: Bearer <masked>`, client-go
//! `transport/round_trippers.go`).
//!
//! Three rules, applied in order:
//! 1. URL userinfo: `scheme://user:password@host` → `scheme://***@host` (RFC 3986 §3.2.1
//!    deprecates passwords in URLs; kubectl's `--server` accepts them, we never echo them).
//! 2. HTTP credentials: `Bearer <token>` and `Basic <credentials>` → `Bearer ***` (a
//!    token68 of at least 8 characters, RFC 6750 §2.1, so the word "basic" stays).
//! 3. Known secret values: tokens, passwords and key material this process loaded
//!    (kubeconfig, `--token`, Pushgateway auth) and Secret `data`/`stringData` values it has
//!    read or sent are registered with [`remember`]; any occurrence is masked. Inside text
//!    that mentions a Secret, the values of any quoted `data`/`stringData` object are masked
//!    too (the apiserver quotes the whole object in some validation errors, e.g. `patch:
//!    Invalid value: "{…\"data\":{\"password\":\"…\"}…}": illegal base64 data`).
//!
//! The registry lives for the process: this is a short-lived CLI, one invocation.

use std::borrow::Cow;
use std::sync::{Mutex, OnceLock};

use serde_json::Value;

/// What every masked secret is replaced with (kubectl's masking uses `<masked>`; `***`
/// reads the same and survives any quoting).
pub const MASK: &str = "***";

/// Secret values shorter than this (in bytes) are not registered: masking every `ab` in
/// every message would make messages unreadable, and a 3-byte secret is no secret. Values
/// of Secret `data`, which are base64, are at least 4 bytes for any 1-byte value.
pub const MIN_SECRET_LEN: usize = 4;

fn registry() -> &'static Mutex<Vec<String>> {
    static SECRETS: OnceLock<Mutex<Vec<String>>> = OnceLock::new();
    SECRETS.get_or_init(|| Mutex::new(Vec::new()))
}

/// Registers `secret` so that [`scrub`] masks it from now on in this process. Also
/// registers its base64 form and, when it is valid base64 of UTF-8 text, its decoded form
/// (a Secret's `data` values are base64; messages may show either form). Values shorter
/// than [`MIN_SECRET_LEN`] are ignored.
pub fn remember(secret: &str) {
    use base64::Engine;
    let secret = secret.trim_end_matches(['\n', '\r']);
    if secret.len() < MIN_SECRET_LEN {
        return;
    }
    let mut forms = vec![
        secret.to_string(),
        base64::engine::general_purpose::STANDARD.encode(secret),
    ];
    if let Ok(bytes) = base64::engine::general_purpose::STANDARD.decode(secret)
        && let Ok(text) = String::from_utf8(bytes)
        && text.len() >= MIN_SECRET_LEN
    {
        forms.push(text);
    }
    let mut r = registry().lock().unwrap_or_else(|p| p.into_inner());
    for f in forms {
        if !r.contains(&f) {
            r.push(f);
        }
    }
    // Longest first, so a secret that contains another is masked whole.
    r.sort_by_key(|s| std::cmp::Reverse(s.len()));
}

/// Registers every value of a Secret object's `data` and `stringData` (no-op for other
/// kinds, or when `kind` is given and is not `Secret`).
pub fn remember_secret_values(kind: &str, object: &Value) {
    let is_secret =
        kind == "Secret" || object.get("kind").and_then(Value::as_str) == Some("Secret");
    if !is_secret {
        return;
    }
    for field in ["data", "stringData"] {
        if let Some(Value::Object(m)) = object.get(field) {
            for v in m.values() {
                if let Some(s) = v.as_str() {
                    remember(s);
                }
            }
        }
    }
}

/// `text` with every rule of this module applied; borrowed when nothing was masked.
pub fn scrub(text: &str) -> Cow<'_, str> {
    let mut out = Cow::Borrowed(text);
    if let Some(s) = mask_userinfo(&out) {
        out = Cow::Owned(s);
    }
    if let Some(s) = mask_auth_schemes(&out) {
        out = Cow::Owned(s);
    }
    if out.contains("Secret")
        && let Some(s) = mask_data_objects(&out)
    {
        out = Cow::Owned(s);
    }
    let r = registry().lock().unwrap_or_else(|p| p.into_inner());
    for secret in r.iter() {
        if out.contains(secret.as_str()) {
            out = Cow::Owned(out.replace(secret.as_str(), MASK));
        }
    }
    out
}

/// Applies [`scrub`] to every string (not object keys) inside `value`.
pub fn scrub_json(value: &mut Value) {
    match value {
        Value::String(s) => {
            if let Cow::Owned(o) = scrub(s) {
                *s = o;
            }
        }
        Value::Array(a) => a.iter_mut().for_each(scrub_json),
        Value::Object(m) => m.values_mut().for_each(scrub_json),
        _ => {}
    }
}

/// A URL with its userinfo removed (not masked): for the change log's `server` field and
/// messages that name the server (docs/design.md, "File formats": the record's `server` is
/// the URL without userinfo).
pub fn url_without_userinfo(url: &str) -> String {
    match authority_span(url, 0) {
        Some((start, end)) => match url[start..end].rfind('@') {
            Some(at) => format!("{}{}", &url[..start], &url[start + at + 1..]),
            None => url.to_string(),
        },
        None => url.to_string(),
    }
}

/// The byte span of the authority after the first `://` at or after `from`.
fn authority_span(text: &str, from: usize) -> Option<(usize, usize)> {
    let start = text[from..].find("://")? + from + 3;
    let len = text[start..]
        .find(|c: char| {
            matches!(
                c,
                '/' | '?' | '#' | '"' | '\'' | '\\' | '<' | '>' | '`' | ')'
            ) || c.is_whitespace()
                || c.is_control()
        })
        .unwrap_or(text.len() - start);
    Some((start, start + len))
}

/// Rule 1; `None` when there is no userinfo.
fn mask_userinfo(text: &str) -> Option<String> {
    let mut out = String::new();
    let mut copied = 0;
    let mut from = 0;
    while let Some((start, end)) = authority_span(text, from) {
        if let Some(at) = text[start..end].rfind('@') {
            out.push_str(&text[copied..start]);
            out.push_str(MASK);
            copied = start + at;
        }
        from = end;
    }
    if copied == 0 {
        return None;
    }
    out.push_str(&text[copied..]);
    Some(out)
}

/// Rule 2; `None` when there is no credential.
fn mask_auth_schemes(text: &str) -> Option<String> {
    let lower = text.to_ascii_lowercase();
    let mut out = String::new();
    let mut copied = 0;
    let mut i = 0;
    while i < lower.len() {
        let rest = &lower[i..];
        let scheme = ["bearer ", "basic "]
            .into_iter()
            .find(|s| rest.starts_with(s));
        let boundary = i == 0 || !lower.as_bytes()[i - 1].is_ascii_alphanumeric();
        if let (Some(s), true) = (scheme, boundary) {
            let cred_start = i + s.len();
            let cred_len = text[cred_start..]
                .find(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | ',' | ';' | '\\'))
                .unwrap_or(text.len() - cred_start);
            let cred = &text[cred_start..cred_start + cred_len];
            // RFC 6750 §2.1 token68 characters, and long enough to be a credential rather
            // than a word ("basic auth").
            let token68 = cred.len() >= 8
                && cred
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-._~+/=".contains(&b));
            if token68 {
                out.push_str(&text[copied..cred_start]);
                out.push_str(MASK);
                copied = cred_start + cred_len;
                i = copied;
                continue;
            }
        }
        i += rest.chars().next().map_or(1, char::len_utf8);
    }
    if copied == 0 {
        return None;
    }
    out.push_str(&text[copied..]);
    Some(out)
}

/// Rule 3's structural half: the string values of every `"data":{…}` and
/// `"stringData":{…}` object quoted in `text`, escaped (`\"`) or not; `None` when none.
fn mask_data_objects(text: &str) -> Option<String> {
    let mut out = String::new();
    let mut copied = 0;
    let mut from = 0;
    loop {
        let found = ["data\":{", "data\\\":{", "Data\":{", "Data\\\":{"]
            .iter()
            .filter_map(|k| text[from..].find(k).map(|p| (p + from + k.len(), k)))
            .min_by_key(|(p, _)| *p);
        let Some((open, key)) = found else { break };
        let escaped = key.contains('\\');
        let close = text[open..].find('}').map_or(text.len(), |c| open + c);
        out.push_str(&text[copied..open]);
        out.push_str(&mask_values(&text[open..close], escaped));
        copied = close;
        from = close;
    }
    if copied == 0 {
        return None;
    }
    out.push_str(&text[copied..]);
    Some(out)
}

/// In the inside of a flat JSON object, every value string replaced by [`MASK`].
fn mask_values(inner: &str, escaped: bool) -> String {
    let quote = if escaped { "\\\"" } else { "\"" };
    let mut out = String::new();
    let mut rest = inner;
    while let Some(colon) = rest.find(&format!("{quote}:{quote}")) {
        let value_start = colon + 2 * quote.len() + 1;
        out.push_str(&rest[..value_start]);
        let after = &rest[value_start..];
        let end = find_unescaped_quote(after, escaped).unwrap_or(after.len());
        out.push_str(MASK);
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// The offset of the closing quote of a string (its inside starting at `s`).
fn find_unescaped_quote(s: &str, escaped: bool) -> Option<usize> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if escaped {
            if b[i] == b'\\' && b.get(i + 1) == Some(&b'"') {
                return Some(i);
            }
            if b[i] == b'\\' {
                i += 2;
                continue;
            }
        } else {
            if b[i] == b'\\' {
                i += 2;
                continue;
            }
            if b[i] == b'"' {
                return Some(i);
            }
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_userinfo_is_masked_in_text_and_removed_from_a_server_url() {
        assert_eq!(
            scrub("cannot reach the API server https://user:pw@127.0.0.1:1: refused"),
            "cannot reach the API server https://***@127.0.0.1:1: refused"
        );
        assert_eq!(
            scrub("GET http://a:b@h/x and https://c@d:1/y"),
            "GET http://***@h/x and https://***@d:1/y"
        );
        assert_eq!(
            url_without_userinfo("https://user:pw@10.0.0.1:6443/"),
            "https://10.0.0.1:6443/"
        );
        assert_eq!(url_without_userinfo("https://h:1"), "https://h:1");
        assert!(matches!(scrub("no url here"), Cow::Borrowed(_)));
    }

    #[test]
    fn bearer_and_basic_credentials_are_masked() {
        assert_eq!(
            scrub("Authorization: Bearer abc.def-ghi"),
            "Authorization: Bearer ***"
        );
        assert_eq!(
            scrub("\"authorization\":\"basic dXNlcjpwdw==\""),
            "\"authorization\":\"basic ***\""
        );
        assert_eq!(scrub("check the basic auth"), "check the basic auth");
        assert_eq!(scrub("unbearer x"), "unbearer x");
    }

    #[test]
    fn a_secret_quoted_whole_in_a_server_message_has_its_values_masked() {
        let msg = r#"The request is invalid: patch: Invalid value: "{\"apiVersion\":\"v1\",\"data\":{\"password\":\"YzRuNHJ5\",\"x\":\"not base64!\"},\"kind\":\"Secret\"}": illegal base64 data at input byte 3"#;
        let s = scrub(msg);
        assert!(!s.contains("YzRuNHJ5") && !s.contains("not base64!"), "{s}");
        assert!(s.contains(r#"\"password\":\"***\""#), "{s}");
        assert!(s.contains("illegal base64 data"), "{s}");
        let plain = r#"Secret {"kind":"Secret","stringData":{"a":"v\"q"},"x":1}"#;
        assert_eq!(
            scrub(plain),
            r#"Secret {"kind":"Secret","stringData":{"a":"***"},"x":1}"#
        );
    }

    #[test]
    fn remembered_values_are_masked_in_every_form() {
        remember("hunter2-long-password");
        let b64 = {
            use base64::Engine;
            base64::engine::general_purpose::STANDARD.encode("hunter2-long-password")
        };
        assert_eq!(scrub("pw=hunter2-long-password;"), "pw=***;");
        assert_eq!(scrub(&format!("v={b64}")), "v=***");
        remember("abc");
        assert_eq!(scrub("abc"), "abc", "too short to register");
        let mut v = serde_json::json!({"result": "x hunter2-long-password", "n": [1, "hunter2-long-password"]});
        scrub_json(&mut v);
        assert_eq!(v, serde_json::json!({"result": "x ***", "n": [1, "***"]}));
    }

    #[test]
    fn scrub_is_total_on_odd_text() {
        for t in [
            "://",
            "x://@",
            "Bearer ",
            "data\":{",
            "Secret data\\\":{\\\"a\\\":\\\"",
            "é://ü@",
        ] {
            let _ = scrub(t);
            let _ = url_without_userinfo(t);
        }
    }
}
