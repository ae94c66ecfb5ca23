//! The plugin verbs as RBAC sees them, and plugin.yaml's refusals in a few words: shared by
//! `can-i`, `can-i --list` and `matrix`.

use crate::config::Verb;
use crate::guard::authz::GateError;

/// The RBAC verbs the requests of a plugin verb need: `get` asks `get` (named), `list`
/// (collection) or `watch` (`-w`); `patch` asks `patch`.
pub fn rbac_verbs(v: Verb) -> &'static [&'static str] {
    match v {
        Verb::Get => &["get", "list", "watch"],
        Verb::Patch => &["patch"],
        Verb::Delete => &["delete"],
        Verb::Apply => &["create", "patch"],
        Verb::Scale | Verb::Label | Verb::Annotate | Verb::Edit | Verb::Rollout => &["patch"],
    }
}

/// The plugin verb that would send a request needing RBAC verb `rbac`, if any.
pub fn plugin_verb(rbac: &str) -> Option<Verb> {
    match rbac {
        "get" | "list" | "watch" => Some(Verb::Get),
        "patch" => Some(Verb::Patch),
        "delete" => Some(Verb::Delete),
        _ => None,
    }
}

/// The matrix columns for plugin.yaml `verbs`: their RBAC verbs in order, without repeats.
pub fn matrix_verbs(verbs: &[Verb]) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for v in verbs {
        for r in rbac_verbs(*v) {
            if !out.contains(r) {
                out.push(r);
            }
        }
    }
    out
}

/// Why plugin.yaml refuses, in a few words (the full message of `e` names the key to change).
pub fn boundary_reason(e: &GateError) -> String {
    match e {
        GateError::VerbOutsideBoundary { verb, .. } => format!("verb {verb} not in verbs"),
        GateError::ResourceOutsideBoundary { resource, .. } => {
            format!("{resource} not in resources")
        }
        GateError::ScopeOutsideBoundary { what, scope, .. } => {
            format!("{what} needs scope {scope}")
        }
        other => other.to_string(),
    }
}

/// The rows to ask about: plugin.yaml `resources`, then registered CRDs, without repeats.
pub fn matrix_entries(resources: &[String], registered: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for r in resources.iter().chain(registered) {
        if !out.contains(r) {
            out.push(r.clone());
        }
    }
    out
}
