//! Object and namespace names: DNS subdomains and DNS labels (RFC 1123, as
//! k8s.io/apimachinery/pkg/util/validation checks them).

use crate::base::echo::quoted;

/// The longest object name this tool sends, in bytes: a DNS subdomain
/// (`validation.DNS1123SubdomainMaxLength`, k8s.io/apimachinery/pkg/util/validation), the
/// name rule of nearly every kind (custom resources included). RBAC and flow-control kinds
/// validate names only as path segments and accept longer ones; this tool refuses those
/// (kubectl sends them).
pub const MAX_NAME_BYTES: usize = 253;

/// The longest namespace name, in bytes: a DNS label (`validation.DNS1123LabelMaxLength`).
pub const MAX_NAMESPACE_BYTES: usize = 63;

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

/// Whether `name`, given with `flag`, is a DNS subdomain, the name rule of most kinds
/// (`validation.IsDNS1123Subdomain`; a Lease's, for one).
///
/// # Errors
/// A usage message naming the flag and the rule, echoing the value escaped and capped.
pub fn check_subdomain_name(flag: &str, name: &str) -> Result<(), String> {
    if is_dns_subdomain(name) {
        return Ok(());
    }
    Err(format!(
        "{flag} {}: the name must be a DNS subdomain of at most {MAX_NAME_BYTES} lowercase letters, digits, '-' and '.', each part starting and ending with a letter or digit (apimachinery validation.IsDNS1123Subdomain)",
        quoted(name)
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
pub(super) fn is_dns_subdomain(s: &str) -> bool {
    s.len() <= MAX_NAME_BYTES && s.split('.').all(is_dns_label)
}
