//! Pure checks of the values a user gives that end up in a request: object names,
//! namespaces, label and field selectors, the field manager.
//!
//! The API server validates all of them too, but a value it can never accept must be a usage
//! error (exit 2) named here, before any request — not a 100,000-byte URL the HTTP client
//! refuses to build and that reads as "cannot reach the API server". Each rule is the
//! apimachinery rule it names (k8s.io/apimachinery v0.36), so a value that passes here is one
//! the server parses; every message echoes the value through [`crate::echo::quoted`]
//! (escaped, at most 64 characters).
//!
//! The selector grammars live beside this file: `labels` (`labels.Parse`) and `fields`
//! (`fields.ParseSelector`), re-exported here.

use crate::echo::quoted;

mod fields;
mod labels;
#[cfg(test)]
mod tests;

pub use fields::check_field_selector;
pub use labels::check_label_selector;

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
