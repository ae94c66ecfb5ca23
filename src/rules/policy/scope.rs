//! Which rules apply to an object: resource names as plugin.yaml writes them, namespace
//! globs, and the rules compiled for judging.

use super::pattern::{PathPattern, parse_pattern};
use super::rule::PolicyRule;

/// A rule with its paths parsed.
#[derive(Debug, Clone)]
pub struct Compiled {
    /// Its index in `policies` (how messages name it: `policies[0]`).
    pub index: usize,
    /// The rule as written.
    pub rule: PolicyRule,
    /// The parsed `deny` paths, in the rule's order.
    pub(super) deny: Vec<PathPattern>,
    /// The parsed `allow` paths, in the rule's order.
    pub(super) allow: Vec<PathPattern>,
}

impl Compiled {
    /// Parses the paths of rule `index`.
    ///
    /// # Errors
    /// The first bad path, as [`parse_pattern`] words it.
    pub fn new(index: usize, rule: &PolicyRule) -> Result<Compiled, String> {
        let parse = |v: &[String]| -> Result<Vec<PathPattern>, String> {
            v.iter().map(|p| parse_pattern(p)).collect()
        };
        Ok(Compiled {
            index,
            rule: rule.clone(),
            deny: parse(&rule.deny)?,
            allow: parse(&rule.allow)?,
        })
    }

    /// `policies[0] (secrets)`: how messages name the rule.
    pub fn name(&self) -> String {
        format!("policies[{}] ({})", self.index, self.rule.resource)
    }
}

/// The API groups whose types plugin.yaml may name by plural alone: the core group, the
/// groups without a dot (`apps`, `batch`) and `*.k8s.io` — the same rule as the plugin.yaml
/// boundary check of `authz`, so a CRD's plural never stands for it.
pub fn builtin_group(group: &str) -> bool {
    group.is_empty() || !group.contains('.') || group.ends_with(".k8s.io")
}

/// Whether a plugin.yaml resource entry (`plural` or `plural.group`) names the type with
/// `plural` in `group`: `plural.group` always, `plural` alone for [`builtin_group`]s.
pub fn entry_names(entry: &str, plural: &str, group: &str) -> bool {
    if group.is_empty() {
        return entry == plural;
    }
    entry
        .strip_prefix(plural)
        .and_then(|r| r.strip_prefix('.'))
        .is_some_and(|g| g == group)
        || (builtin_group(group) && entry == plural)
}

/// Shell-style glob with `*` only (any run of characters, also none).
pub fn glob_match(pattern: &str, text: &str) -> bool {
    let (p, t): (Vec<char>, Vec<char>) = (pattern.chars().collect(), text.chars().collect());
    let (mut pi, mut ti, mut star, mut mark) = (0, 0, None, 0);
    while ti < t.len() {
        if pi < p.len() && p[pi] != '*' && p[pi] == t[ti] {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some(pi);
            mark = ti;
            pi += 1;
        } else if let Some(s) = star {
            pi = s + 1;
            mark += 1;
            ti = mark;
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|c| *c == '*')
}

/// Whether `rule` is about the object with `plural` and `kind` in `group`, in `namespace`
/// (`None` for a cluster-scoped object, which a rule with `namespaces` never covers).
///
/// The rule's resource is matched against the plural and also against the lowercased kind
/// (the singular name kubectl accepts: `configmap`, `deployment.apps`): a guard must fail
/// closed, and a rule written in the singular would otherwise never apply and let every
/// change through while `config validate` called it valid.
pub fn applies(
    rule: &PolicyRule,
    plural: &str,
    kind: &str,
    group: &str,
    namespace: Option<&str>,
) -> bool {
    (rule.resource == "*"
        || entry_names(&rule.resource, plural, group)
        || entry_names(&rule.resource, &kind.to_ascii_lowercase(), group))
        && (rule.namespaces.is_empty()
            || namespace.is_some_and(|ns| rule.namespaces.iter().any(|g| glob_match(g, ns))))
}

/// The rules of `policies` that apply to the object (file order), compiled.
///
/// # Errors
/// A bad path (plugin.yaml validation refuses those, so only a programming error).
pub fn matching(
    policies: &[PolicyRule],
    plural: &str,
    kind: &str,
    group: &str,
    namespace: Option<&str>,
) -> Result<Vec<Compiled>, String> {
    policies
        .iter()
        .enumerate()
        .filter(|(_, r)| applies(r, plural, kind, group, namespace))
        .map(|(i, r)| Compiled::new(i, r))
        .collect()
}
