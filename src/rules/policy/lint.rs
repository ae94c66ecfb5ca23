//! What `config validate` says about `policies:`: rules that never apply or never refuse,
//! and rules whose deny paths overlap (only the first one's message is ever shown).

use super::rule::PolicyRule;
use super::scope::{Compiled, builtin_group, entry_names, glob_match};

/// Core (API group `""`) resources that no other built-in group serves, so `plural.group`
/// with a built-in group never names them (`secrets.apps`); `events`, also served by
/// `events.k8s.io`, is not listed (the core/v1 API, `k8s.io/api/core/v1`).
const CORE_ONLY: &[&str] = &[
    "pods",
    "services",
    "configmaps",
    "secrets",
    "serviceaccounts",
    "persistentvolumeclaims",
    "persistentvolumes",
    "nodes",
    "namespaces",
    "endpoints",
    "limitranges",
    "resourcequotas",
    "replicationcontrollers",
    "podtemplates",
];

/// Cluster-scoped built-in resources (a rule with `namespaces` never covers them). Only
/// the well-known ones; others are not knowable without a cluster.
const CLUSTER_SCOPED: &[&str] = &[
    "namespaces",
    "nodes",
    "persistentvolumes",
    "customresourcedefinitions",
    "clusterroles",
    "clusterrolebindings",
    "storageclasses",
    "priorityclasses",
    "apiservices",
    "mutatingwebhookconfigurations",
    "validatingwebhookconfigurations",
    "certificatesigningrequests",
    "ingressclasses",
    "runtimeclasses",
    "csidrivers",
    "csinodes",
    "volumeattachments",
];

/// How many comparisons of two deny paths [`lint`] makes to find overlapping rules before
/// it stops and says so (a few tenths of a second; realistic files need thousands).
pub const OVERLAP_BUDGET: usize = 2_000_000;

/// What `config validate` reports about `policies` (pure): unreachable rules (a resource
/// not in `resources`, `namespaces` on a well-known cluster-scoped type, an `allow` that
/// overlaps no `deny`, a `deny` that an `allow` of the same rule covers entirely, a `deny` of
/// server bookkeeping the diff leaves out) and
/// overlapping rules (two rules on the same resource whose deny paths overlap: the first in
/// file order is the one that refuses and names its message; each later rule once, with the
/// first earlier rule it overlaps, within [`OVERLAP_BUDGET`] comparisons). One sentence each.
pub fn lint(resources: &[String], policies: &[PolicyRule]) -> Vec<String> {
    let mut out = Vec::new();
    let compiled: Vec<Option<Compiled>> = policies
        .iter()
        .enumerate()
        .map(|(i, r)| Compiled::new(i, r).ok())
        .collect();
    let mut budget = OVERLAP_BUDGET;
    for (i, r) in policies.iter().enumerate() {
        let name = format!("policies[{i}] ({})", r.resource);
        lint_resource(&name, r, resources, &mut out);
        let Some(c) = &compiled[i] else { continue };
        lint_paths(&name, r, c, &mut budget, &mut out);
    }
    lint_overlaps(policies, &compiled, &mut budget, &mut out);
    out
}

/// The `resources` entry that is the plural of a rule written in the singular
/// (`configmap` → `configmaps`), if any.
pub(super) fn plural_in_resources<'a>(
    r: &PolicyRule,
    resources: &'a [String],
) -> Option<&'a String> {
    if r.resource == "*" {
        return None;
    }
    let (name, group) = r.resource.split_once('.').unwrap_or((&r.resource, ""));
    resources.iter().find(|e| {
        let (p, g) = e.split_once('.').unwrap_or((e, ""));
        g == group && p != name && p.starts_with(name) && p.len() <= name.len() + 2
    })
}

/// Adds what is wrong with the rule's `resource` and `namespaces` (named `name` in the
/// messages): a singular, a type not in `resources`, a core type with a group, `namespaces`
/// on a cluster-scoped type.
fn lint_resource(name: &str, r: &PolicyRule, resources: &[String], out: &mut Vec<String>) {
    // A rule in the singular (`configmap`) applies (`scope::applies` matches the
    // lowercased kind too), but the file should say what `resources` says.
    if let Some(plural) = plural_in_resources(r, resources) {
        out.push(format!(
            "{name} names a singular: the rule applies to {plural} (kubectl's singular names are matched too), but write {plural} as `resources` does"
        ));
    } else if r.resource != "*" && !resources.iter().any(|e| same_resource(e, &r.resource)) {
        let crd = r
            .resource
            .split_once('.')
            .is_some_and(|(_, g)| !builtin_group(g));
        out.push(format!(
            "{name} is unreachable: {} is not in `resources`{}; add it there or remove the rule",
            r.resource,
            if crd {
                " (unless `crds sync` registers its CRD)"
            } else {
                ""
            }
        ));
    }
    let plural = r.resource.split('.').next().unwrap_or_default();
    if let Some((_, group)) = r.resource.split_once('.')
        && builtin_group(group)
        && CORE_ONLY.contains(&plural)
    {
        out.push(format!(
            "{name} is unreachable: {plural} is a core type (API group \"\", not {group}), so the rule never applies to it; write {plural}"
        ));
    }
    if !r.namespaces.is_empty() && CLUSTER_SCOPED.contains(&plural) {
        out.push(format!(
            "{name} is unreachable: {} is cluster-scoped, and a rule with `namespaces` covers only namespaced objects; remove `namespaces`",
            r.resource
        ));
    }
}

/// Adds what is wrong with the rule's paths: an `allow` under no `deny`, a `deny` an
/// `allow` covers, and a `deny` that never refuses (an empty top-level name, Secret
/// `stringData`, server bookkeeping). The allow × deny checks count against `budget`.
fn lint_paths(name: &str, r: &PolicyRule, c: &Compiled, budget: &mut usize, out: &mut Vec<String>) {
    // The allow × deny checks below count against the same budget as the overlaps.
    let cross = 2 * c.allow.len() * c.deny.len();
    let allow_checked = cross <= *budget;
    if allow_checked {
        *budget -= cross;
    } else {
        out.push(format!(
            "{name}: its {} allow and {} deny paths were not checked against each other ({OVERLAP_BUDGET} comparisons at most): shorten the lists",
            c.allow.len(),
            c.deny.len()
        ));
    }
    for (k, al) in c.allow.iter().enumerate().filter(|_| allow_checked) {
        if !c.deny.iter().any(|d| d.overlaps(al)) {
            out.push(format!(
                "{name}: allow {} is under no deny path of the rule, so it changes nothing; remove it or fix the path",
                r.allow[k]
            ));
        }
    }
    for (k, d) in c.deny.iter().enumerate() {
        if allow_checked && let Some(j) = c.allow.iter().position(|al| al.contains(d)) {
            out.push(format!(
                "{name}: deny {} never refuses: allow {} covers all of it",
                r.deny[k], r.allow[j]
            ));
        }
        if d.names_empty_top_level_field() {
            out.push(format!(
                "{name}: deny {} never refuses: it names a top-level field with an empty name (RFC 6901), not the whole object; write /** for every field, and delete: deny to forbid deleting the object",
                r.deny[k]
            ));
        }
        if d.is_write_only_secret_field() && entry_names(&r.resource, "secrets", "") {
            out.push(format!(
                "{name}: deny {} never refuses: the API server stores stringData in data and never returns it, so a change through stringData shows under /data; deny /data{} instead",
                r.deny[k],
                r.deny[k].strip_prefix("/stringData").unwrap_or_default()
            ));
        }
        if d.is_bookkeeping() {
            out.push(format!(
                "{name}: deny {} never refuses: the server changes it on every write, so the diff leaves it out",
                r.deny[k]
            ));
        }
    }
}

/// Adds one warning for each later rule whose deny paths overlap an earlier rule's on the
/// same resource and namespaces, naming the first such earlier rule (the one whose message
/// it loses to). The comparisons are counted against `budget`: a plugin.yaml of thousands
/// of rules or paths (1 MiB allows ~20 000) would otherwise take minutes and print millions
/// of lines (3 000 copies of one rule: 4.5 million warnings, 112 s).
fn lint_overlaps(
    policies: &[PolicyRule],
    compiled: &[Option<Compiled>],
    budget: &mut usize,
    out: &mut Vec<String>,
) {
    'rules: for j in 1..policies.len() {
        for i in 0..j {
            let (a, b) = (&policies[i], &policies[j]);
            let (Some(ca), Some(cb)) = (&compiled[i], &compiled[j]) else {
                continue;
            };
            let cost = 1 + ca.deny.len() * cb.deny.len();
            if cost > *budget {
                out.push(format!(
                    "policies: overlaps were checked only up to policies[{j}] ({OVERLAP_BUDGET} comparisons of deny paths; the file has {} rules): merge rules or shorten their deny lists",
                    policies.len()
                ));
                break 'rules;
            }
            *budget -= cost;
            let same =
                a.resource == "*" || b.resource == "*" || same_resource(&a.resource, &b.resource);
            if !same || !namespaces_meet(&a.namespaces, &b.namespaces) {
                continue;
            }
            let pair = ca.deny.iter().enumerate().find_map(|(x, da)| {
                cb.deny
                    .iter()
                    .position(|db| da.overlaps(db))
                    .map(|y| (x, y))
            });
            if let Some((x, y)) = pair {
                out.push(format!(
                    "policies[{i}] ({}) and policies[{j}] ({}) overlap: deny {} and deny {} can match the same field, and only policies[{i}]'s message is shown for it; merge them or narrow one",
                    a.resource, b.resource, a.deny[x], b.deny[y]
                ));
                continue 'rules;
            }
        }
    }
}

/// Whether two plugin.yaml resource entries can name the same type (`deployments` and
/// `deployments.apps`, or equal text).
fn same_resource(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    let split = |s: &str| {
        s.split_once('.')
            .map(|(p, g)| (p.to_string(), g.to_string()))
    };
    match (split(a), split(b)) {
        (Some((p, g)), None) => p == b && builtin_group(&g),
        (None, Some((p, g))) => p == a && builtin_group(&g),
        _ => false,
    }
}

/// Whether two `namespaces` lists can both cover one namespace (an empty list covers all;
/// globs are compared as text unless one holds a `*`, which counts as meeting).
fn namespaces_meet(a: &[String], b: &[String]) -> bool {
    a.is_empty()
        || b.is_empty()
        || a.iter().any(|x| {
            b.iter().any(|y| {
                x == y || glob_match(x, y) || glob_match(y, x) || x.contains('*') && y.contains('*')
            })
        })
}
