//! A policy rule as plugin.yaml `policies:` writes it (the file format; `pattern` parses its
//! paths).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One field-path policy rule of plugin.yaml `policies:`, e.g.
/// `{resource: secrets, deny: ["/data/*"], message: "Secrets change through the vault sync"}`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PolicyRule {
    /// The resource type: `plural` (core and well-known groups), `plural.group`, or `*` for
    /// every type.
    pub resource: String,
    /// Namespace globs (`*` matches any run of characters, e.g. `team-*`); absent = every
    /// namespace and cluster-scoped objects. A rule with namespaces never covers a
    /// cluster-scoped object.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub namespaces: Vec<String>,
    /// JSON Pointers (RFC 6901; `~1` for `/` in a key) of fields that may not change; a
    /// segment `*` matches one segment (a key or a list index), a trailing `/**` anything
    /// below. A change at or below a denied path is refused, and a change above one is
    /// refused when a denied field beneath it changes.
    pub deny: Vec<String>,
    /// Paths inside the deny that may change after all (same syntax).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allow: Vec<String>,
    /// Shown on refusal after the rule and the path, e.g. "Secrets change through the vault
    /// sync".
    pub message: String,
}
