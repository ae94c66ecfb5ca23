//! Pure checks of the values a user gives that end up in a request: object names,
//! namespaces, label and field selectors, the field manager.
//!
//! The API server validates all of them too, but a value it can never accept must be a usage
//! error (exit 2) named here, before any request — not a 100,000-byte URL the HTTP client
//! refuses to build and that reads as "cannot reach the API server". Each rule is the
//! apimachinery rule it names (k8s.io/apimachinery v0.36), so a value that passes here is one
//! the server parses; every message echoes the value through [`crate::base::echo::quoted`]
//! (escaped, at most 64 characters).
//!
//! The parts, each re-exported here: `names` (object and namespace names), `field_manager`,
//! `labels` (`labels.Parse`), `fields` (`fields.ParseSelector`) and `metadata` (label and
//! annotation keys and values on an object); this file checks that the
//! selectors together fit in one request URI.

mod field_manager;
mod fields;
mod labels;
pub mod metadata;
mod names;
#[cfg(test)]
mod tests;

pub use field_manager::{MAX_FIELD_MANAGER_BYTES, check_field_manager, is_go_printable};
pub use fields::check_field_selector;
pub use labels::{MAX_LABEL_BYTES, check_label_selector};
pub use names::{MAX_NAME_BYTES, MAX_NAMESPACE_BYTES, check_namespace, check_subdomain_name};

/// The longest request URI the HTTP client builds (`http::uri::MAX_LEN`, 65,534 bytes, in the
/// `http` crate kube and the Pushgateway client use); a longer one fails before it is sent.
pub const MAX_URI_BYTES: usize = 65_534;

/// Room left in a request URI for the path and the parameters other than the selectors
/// (`/apis/<group>/<version>/namespaces/<ns>/<plural>?limit=…&includeObject=…`), in bytes.
const URI_OVERHEAD_BYTES: usize = 1_024;

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
