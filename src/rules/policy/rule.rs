//! A policy rule as plugin.yaml `policies:` writes it (the file format; `pattern` parses its
//! paths).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One field-path policy rule of plugin.yaml `policies:`, e.g.
/// `{resource: secrets, deny: ["/data/*"], message: "Secrets change through the vault sync"}`,
/// or `{resource: namespaces, delete: deny, message: "namespaces are removed by the platform team"}`.
///
/// A rule that forbids deleting says so with its own key, `delete: deny`, not with a path:
/// - `deny` paths say which fields a *patch* may not change. Read literally, a delete changes
///   every field, so deriving "may not be deleted" from the paths would make every existing
///   rule (`secrets` with `deny: ["/data/*"]`) forbid deleting its objects as well — a change
///   of meaning for every plugin.yaml already written, and not what "images are rolled out by
///   the pipeline" means.
/// - `deny: ["/"]` cannot stand for the whole object: RFC 6901 reads `/` as the top-level key
///   `""` (`config validate` warns about it), and giving it a second meaning would make one
///   path mean two things.
///
/// So the two questions stay apart: a rule may have `deny` paths, `delete: deny`, or both.
/// `delete: deny` refuses every delete of an object the rule covers (its resource and
/// namespaces), sent by any verb through the guarded path: `delete`, and a `rollback` whose
/// undo is a delete (of an undelete or a create).
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
    /// refused when a denied field beneath it changes. May be absent with `delete: deny`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deny: Vec<String>,
    /// Paths inside the deny that may change after all (same syntax).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allow: Vec<String>,
    /// `deny`: objects the rule covers may not be deleted (absent or `allow`: the rule says
    /// nothing about deleting).
    #[serde(default, skip_serializing_if = "DeletePolicy::is_allow")]
    pub delete: DeletePolicy,
    /// Shown on refusal after the rule and the path, e.g. "Secrets change through the vault
    /// sync".
    pub message: String,
    /// Who the ValidatingAdmissionPolicy that `policies export` writes for this rule lets
    /// through (a GitOps controller's service account, `system:*` users); absent = nobody.
    /// This client judges the changes it sends whoever runs it: the exemption is for the
    /// clients that do not go through it.
    #[serde(default, skip_serializing_if = "Exempt::is_empty")]
    pub exempt: Exempt,
}

/// `exempt:` of a policy rule: user names and groups (globs where `*` matches any run of
/// characters, e.g. `system:serviceaccount:flux-system:*`) the API server does not hold to
/// the rule.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Exempt {
    /// User names (`request.userInfo.username`), e.g.
    /// `system:serviceaccount:flux-system:kustomize-controller`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub users: Vec<String>,
    /// Groups (`request.userInfo.groups`), e.g. `system:masters`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<String>,
}

impl Exempt {
    /// Whether nobody is exempt (the default, left out when written).
    pub fn is_empty(&self) -> bool {
        self.users.is_empty() && self.groups.is_empty()
    }
}

/// What a rule says about deleting the objects it covers (plugin.yaml `delete:`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum DeletePolicy {
    /// Nothing: deletes are bounded by `verbs` and RBAC only (the default).
    #[default]
    Allow,
    /// Every delete of a covered object is refused (exit 3) before anything is sent.
    Deny,
}

impl DeletePolicy {
    /// Whether this is the default, [`DeletePolicy::Allow`] (left out when written).
    #[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
    pub fn is_allow(&self) -> bool {
        *self == DeletePolicy::Allow
    }
}
