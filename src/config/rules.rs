//! The rules of plugin.yaml the types cannot express, checked after parsing: non-empty lists,
//! a label-safe name, resource names, the `policies:` and `protect:` entries and the
//! `pushgateway:` block.
//! Each rule returns the [`Field`] it is about, so [`super::diagnose::rule_error`] can place
//! the failure.

use super::diagnose::{self, Field};
use super::{MAX_NAME_CHARS, MAX_RESOURCE_CHARS, PluginConfig, pushgateway};
use crate::base::echo;

/// The first rule of docs/configuration.md that `c` breaks, with a message saying what to do; the rules types
/// cannot express, checked after parsing ([`diagnose::rule_error`] places the failure).
pub(super) fn first_problem(c: &PluginConfig) -> Option<(Field, String)> {
    let label = |ch: char| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '-';
    // `plural` or `plural.group`: dot-separated lowercase RFC 1123 labels.
    let bad_resource = |r: &String| {
        r.split('.').any(|part| {
            part.is_empty()
                || !part.chars().all(label)
                || part.starts_with('-')
                || part.ends_with('-')
        })
    };
    if c.name.is_empty() {
        return Some((
            Field::Name,
            "`name` is empty: set it to the plugin name, e.g. myops".into(),
        ));
    }
    if !c.name.chars().all(label) {
        let msg = format!(
            "`name` {} is not a valid label value: use only a-z, 0-9 and '-'",
            echo::quoted(&c.name)
        );
        return Some((Field::Name, msg));
    }
    let name_chars = c.name.chars().count();
    if name_chars > MAX_NAME_CHARS {
        let msg = format!(
            "`name` is {name_chars} characters long: use at most {MAX_NAME_CHARS} (an RFC 1123 label, like a Kubernetes label value)"
        );
        return Some((Field::Name, msg));
    }
    if c.verbs.is_empty() {
        return Some((
            Field::Verbs,
            "`verbs` is empty: list at least one of get, patch".into(),
        ));
    }
    if c.resources.is_empty() {
        let msg =
            "`resources` is empty: list the resource types this plugin may touch, e.g. [pods]";
        return Some((Field::Resources, msg.into()));
    }
    if let Some(i) = c.resources.iter().position(bad_resource) {
        let msg = format!(
            "resource {} must be a plural or plural.group of lowercase letters, digits and '-', \
             e.g. deployments or widgets.example.com",
            echo::quoted(&c.resources[i])
        );
        return Some((Field::Resource(i), msg));
    }
    if let Some(i) = c
        .resources
        .iter()
        .position(|r| r.chars().count() > MAX_RESOURCE_CHARS)
    {
        let msg = format!(
            "resource {} is {} characters long: use at most {MAX_RESOURCE_CHARS} (a DNS subdomain)",
            echo::quoted(&c.resources[i]),
            c.resources[i].chars().count()
        );
        return Some((Field::Resource(i), msg));
    }
    if c.scopes.is_empty() {
        return Some((
            Field::Scopes,
            "`scopes` is empty: list namespace, cluster or both".into(),
        ));
    }
    if let Some(problem) = policy_problem(c) {
        return Some(problem);
    }
    if let Some(problem) = protect_problem(c) {
        return Some(problem);
    }
    if let Some(m) = &c.changelog.mirror
        && let Err(e) = crate::base::validate::check_namespace(&m.namespace)
    {
        return Some((
            Field::MirrorNamespace,
            format!("changelog.mirror.namespace: {e}"),
        ));
    }
    pushgateway::pushgateway_problem(c.pushgateway.as_ref()?)
}

/// Whether `s` is a Kubernetes API version (`v1`, `v2beta3`, `v1alpha1`: "API versioning",
/// kubernetes.io/docs/reference/using-api/#api-versioning), which is never an API group.
fn is_api_version(s: &str) -> bool {
    let Some(rest) = s.strip_prefix('v') else {
        return false;
    };
    let digits_end = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    if digits_end == 0 || rest.starts_with('0') {
        return false;
    }
    match &rest[digits_end..] {
        "" => true,
        tail => ["alpha", "beta"].iter().any(|pre| {
            tail.strip_prefix(pre).is_some_and(|n| {
                !n.is_empty() && !n.starts_with('0') && n.chars().all(|c| c.is_ascii_digit())
            })
        }),
    }
}

/// The first rule of `policies` (docs/policies.md) that `c` breaks: a resource that is not `*`,
/// `plural` or `plural.group`; a namespace glob that is not a namespace name with `*`s; no
/// `deny` paths and no `delete: deny` (a rule that refuses nothing); a path [`crate::rules::policy::parse_pattern`] refuses; an empty message.
fn policy_problem(c: &PluginConfig) -> Option<(Field, String)> {
    use diagnose::PolicyPart;
    let label = |ch: char| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '-';
    for (i, r) in c.policies.iter().enumerate() {
        let at = |part| Field::Policy(i, part);
        let bad_resource = r.resource != "*"
            && (r.resource.chars().count() > MAX_RESOURCE_CHARS
                || r.resource.split('.').any(|p| {
                    p.is_empty() || !p.chars().all(label) || p.starts_with('-') || p.ends_with('-')
                }));
        if bad_resource {
            let msg = format!(
                "policies[{i}].resource {} must be *, a plural or a plural.group of lowercase letters, digits and '-', e.g. secrets or widgets.example.com",
                echo::quoted(&r.resource)
            );
            return Some((at(PolicyPart::Resource), msg));
        }
        // kubectl's `resource.version.group` (`deployments.v1.apps`) or `secrets.v1` would
        // read as a group named after a version, which no API serves: the rule would never
        // apply, and a field policy that never applies fails open.
        // (`widgets.v1.example.com` may be a CRD's group, `v1.example.com`: not refused.)
        if let Some((plural, group)) = r.resource.split_once('.')
            && let Some(version) = group.split('.').next().filter(|v| is_api_version(v))
            && let rest = group.split_once('.').map(|(_, g)| g)
            && rest.is_none_or(crate::rules::policy::builtin_group)
        {
            let msg = format!(
                "policies[{i}].resource {} names API version {version}, and a rule names a type without its version: write {}",
                echo::quoted(&r.resource),
                match rest {
                    Some(g) => format!("{plural}.{g}"),
                    None => format!("{plural} (core and well-known groups) or {plural}.GROUP"),
                }
            );
            return Some((at(PolicyPart::Resource), msg));
        }
        if let Some(j) = r.namespaces.iter().position(|g| {
            g.is_empty() || g.len() > MAX_NAME_CHARS || !g.chars().all(|ch| label(ch) || ch == '*')
        }) {
            let msg = format!(
                "policies[{i}].namespaces: {} is not a namespace glob: use lowercase letters, digits, '-' and * (any run of characters), e.g. team-*",
                echo::quoted(&r.namespaces[j])
            );
            return Some((at(PolicyPart::Namespace(j)), msg));
        }
        if r.deny.is_empty() && r.delete != crate::rules::policy::DeletePolicy::Deny {
            let msg = format!(
                "policies[{i}].deny is empty: list the JSON Pointer paths that may not change, e.g. [\"/data/*\"], or set delete: deny to forbid deleting the objects"
            );
            return Some((at(PolicyPart::Deny(None)), msg));
        }
        for (list, name, part) in [
            (
                &r.deny,
                "deny",
                PolicyPart::Deny as fn(Option<usize>) -> PolicyPart,
            ),
            (&r.allow, "allow", PolicyPart::Allow),
        ] {
            for (j, p) in list.iter().enumerate() {
                if let Err(e) = crate::rules::policy::parse_pattern(p) {
                    return Some((at(part(Some(j))), format!("policies[{i}].{name}[{j}]: {e}")));
                }
            }
        }
        if r.message.trim().is_empty() {
            let msg = format!(
                "policies[{i}].message is empty: say why the fields may not change and where to change them instead"
            );
            return Some((at(PolicyPart::Message), msg));
        }
    }
    None
}

/// Whether `g` is a namespace glob: a namespace name (lowercase letters, digits, '-', at most
/// [`MAX_NAME_CHARS`]) with `*`s; any other glob matches no namespace.
fn namespace_glob(g: &str) -> bool {
    !g.is_empty()
        && g.len() <= MAX_NAME_CHARS
        && g.chars()
            .all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '-' || ch == '*')
}

/// The first rule of `protect` (docs/configuration.md) that `c` breaks: a rule naming no
/// contexts and no servers (it would hold nowhere); an empty context glob; a server glob that
/// cannot match an API server URL (it must start with `https://`, `http://` or `*`, as the
/// URL it is matched against does); an empty `namespaces` or `verbs` list (absent means
/// every one, empty would mean none: a protection that silently protects nothing); a
/// namespace glob that is not a namespace name with `*`s; an empty message. A rule that
/// could never match fails open, which is why each is an error rather than a warning.
fn protect_problem(c: &PluginConfig) -> Option<(Field, String)> {
    use diagnose::ProtectPart;
    for (i, r) in c.protect.iter().enumerate() {
        let at = |part| Field::Protect(i, part);
        if r.contexts.is_empty() && r.servers.is_empty() {
            let msg = format!(
                "protect[{i}] names no contexts and no servers, so it protects nothing: list kubeconfig context globs (contexts: [prod-*]) or API server URL globs (servers: [\"https://prod.example.com:6443\"])"
            );
            return Some((at(ProtectPart::Where), msg));
        }
        if let Some(j) = r.contexts.iter().position(|g| g.is_empty()) {
            let msg = format!(
                "protect[{i}].contexts[{j}] is empty: write a context name, or a glob with * (any run of characters), e.g. prod-*"
            );
            return Some((at(ProtectPart::Context(j)), msg));
        }
        if let Some(j) = r.servers.iter().position(|g| {
            !(g.starts_with("https://") || g.starts_with("http://") || g.starts_with('*'))
        }) {
            let msg = format!(
                "protect[{i}].servers[{j}] {} can never match: it is matched against the whole API server URL, so start it with https://, http:// or *, e.g. https://prod.example.com:6443 or *.prod.example.com*",
                echo::quoted(&r.servers[j])
            );
            return Some((at(ProtectPart::Server(j)), msg));
        }
        if let Some(ns) = &r.namespaces {
            if ns.is_empty() {
                let msg = format!(
                    "protect[{i}].namespaces is empty: list namespace globs, e.g. [prod, team-*], or leave it out to protect every namespace and cluster-scoped objects"
                );
                return Some((at(ProtectPart::Namespaces(None)), msg));
            }
            if let Some(j) = ns.iter().position(|g| !namespace_glob(g)) {
                let msg = format!(
                    "protect[{i}].namespaces: {} is not a namespace glob: use lowercase letters, digits, '-' and * (any run of characters), e.g. team-*",
                    echo::quoted(&ns[j])
                );
                return Some((at(ProtectPart::Namespaces(Some(j))), msg));
            }
        }
        if r.verbs.as_ref().is_some_and(Vec::is_empty) {
            let msg = format!(
                "protect[{i}].verbs is empty: list the verbs it protects, e.g. [delete, patch], or leave it out to protect every mutating verb"
            );
            return Some((at(ProtectPart::Verbs), msg));
        }
        if r.message.as_ref().is_some_and(|m| m.trim().is_empty()) {
            let msg = format!(
                "protect[{i}].message is empty: say why the scope is protected (it is shown with every question and refusal), or leave it out"
            );
            return Some((at(ProtectPart::Message), msg));
        }
    }
    None
}
