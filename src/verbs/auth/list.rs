//! `auth can-i --list`: the SelfSubjectRulesReview of the namespace as kubectl prints it
//! (`k8s.io/kubectl/pkg/util/rbac`), narrowed to what plugin.yaml lets this plugin do.

use k8s_openapi::api::authorization::v1::SubjectRulesReviewStatus;

use super::boundary::{matrix_entries, rbac_verbs};
use super::go_text::{go_list, go_tabwriter};
use crate::cli::CanIArgs;
use crate::guard::{Purpose, Session};
use crate::output::{Layout, Printer};
use crate::settings::Settings;
use crate::verbs::VerbError;

/// One policy rule as kubectl's `auth can-i --list` handles it (`rbacv1.PolicyRule` without
/// the fields a rules review never fills).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rule {
    /// RBAC verbs.
    pub verbs: Vec<String>,
    /// API groups (`""` = core, `*` = any).
    pub groups: Vec<String>,
    /// Resources (`*` = any, `pods/log` = a subresource).
    pub resources: Vec<String>,
    /// Resource names (empty = any).
    pub names: Vec<String>,
    /// Non-resource URLs.
    pub urls: Vec<String>,
}

impl Rule {
    /// Go's `PolicyRule.String()` (k8s.io/api rbac/v1 generated.pb.go), kubectl's sort key.
    pub fn go_string(&self) -> String {
        format!(
            "&PolicyRule{{Verbs:{},APIGroups:{},Resources:{},ResourceNames:{},NonResourceURLs:{},}}",
            go_list(&self.verbs),
            go_list(&self.groups),
            go_list(&self.resources),
            go_list(&self.names),
            go_list(&self.urls)
        )
    }
}

/// The rules of a SelfSubjectRulesReview status, resource rules first (kubectl's
/// `convertToPolicyRule`).
pub fn rules_of(status: &SubjectRulesReviewStatus) -> Vec<Rule> {
    let mut out: Vec<Rule> = status
        .resource_rules
        .iter()
        .map(|r| Rule {
            verbs: r.verbs.clone(),
            groups: r.api_groups.clone().unwrap_or_default(),
            resources: r.resources.clone().unwrap_or_default(),
            names: r.resource_names.clone().unwrap_or_default(),
            urls: Vec::new(),
        })
        .collect();
    out.extend(status.non_resource_rules.iter().map(|r| Rule {
        verbs: r.verbs.clone(),
        urls: r.non_resource_urls.clone().unwrap_or_default(),
        ..Rule::default()
    }));
    out
}

/// kubectl's `rbac.BreakdownRule`: one rule per group × resource × verb (× name), then per
/// URL × verb.
pub fn breakdown(rule: &Rule) -> Vec<Rule> {
    let mut out = Vec::new();
    for g in &rule.groups {
        for r in &rule.resources {
            for v in &rule.verbs {
                let one = |names: Vec<String>| Rule {
                    verbs: vec![v.clone()],
                    groups: vec![g.clone()],
                    resources: vec![r.clone()],
                    names,
                    urls: Vec::new(),
                };
                if rule.names.is_empty() {
                    out.push(one(Vec::new()));
                } else {
                    out.extend(rule.names.iter().map(|n| one(vec![n.clone()])));
                }
            }
        }
    }
    for u in &rule.urls {
        for v in &rule.verbs {
            out.push(Rule {
                verbs: vec![v.clone()],
                urls: vec![u.clone()],
                ..Rule::default()
            });
        }
    }
    out
}

/// A type plugin.yaml lets this plugin use, with the RBAC verbs its plugin verbs need.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoundaryType {
    /// API group (`""` = core).
    pub group: String,
    /// Plural resource name.
    pub plural: String,
    /// RBAC verbs the allowed plugin verbs need on it ([`rbac_verbs`]).
    pub verbs: Vec<&'static str>,
}

/// Keeps of the broken-down rules only what the boundary allows: a rule on a boundary type
/// and one of its verbs is kept as is; a wildcard group, resource or verb is narrowed to the
/// boundary's types and verbs; subresource and non-resource rules, and rules on other types
/// or verbs, are dropped (no plugin verb makes those requests). Returns the kept rules (no
/// repeats, in order) and how many broken-down rules were not kept exactly as they were.
pub fn filter_rules(rules: &[Rule], boundary: &[BoundaryType]) -> (Vec<Rule>, usize) {
    let mut kept: Vec<Rule> = Vec::new();
    let mut hidden = 0;
    for rule in rules.iter().flat_map(breakdown) {
        let mut emitted: Vec<Rule> = Vec::new();
        if rule.urls.is_empty() {
            let (g, r, v) = (&rule.groups[0], &rule.resources[0], &rule.verbs[0]);
            for b in boundary {
                if !(g == "*" || *g == b.group) || !(r == "*" || *r == b.plural) {
                    continue;
                }
                let verbs: Vec<&str> = if v == "*" {
                    b.verbs.clone()
                } else {
                    b.verbs.iter().copied().filter(|x| x == v).collect()
                };
                for verb in verbs {
                    emitted.push(Rule {
                        verbs: vec![verb.to_string()],
                        groups: vec![b.group.clone()],
                        resources: vec![b.plural.clone()],
                        names: rule.names.clone(),
                        urls: Vec::new(),
                    });
                }
            }
        }
        if emitted.len() != 1 || emitted[0] != rule {
            hidden += 1;
        }
        for e in emitted {
            if !kept.contains(&e) {
                kept.push(e);
            }
        }
    }
    (kept, hidden)
}

/// kubectl's `rbac.CompactRules` for broken-down resource rules (one group, resource and at
/// most one name each): rules on the same group, resource and name merge their verbs in
/// order; then sorted by Go's `PolicyRule.String()` as `SortableRuleSlice`.
pub fn compact_and_sort(rules: &[Rule]) -> Vec<Rule> {
    let mut out: Vec<Rule> = Vec::new();
    for r in rules {
        match out.iter_mut().find(|o| {
            r.urls.is_empty()
                && o.urls.is_empty()
                && o.groups == r.groups
                && o.resources == r.resources
                && o.names == r.names
        }) {
            Some(o) => {
                for v in &r.verbs {
                    if !o.verbs.contains(v) {
                        o.verbs.push(v.clone());
                    }
                }
            }
            None => out.push(r.clone()),
        }
    }
    out.sort_by_cached_key(Rule::go_string);
    out
}

/// kubectl's `describe.CombineResourceGroup`: `pods`, `deployments.apps`,
/// `deployments.apps/scale`; empty for a non-resource rule.
pub fn combine_resource_group(resources: &[String], groups: &[String]) -> String {
    let Some(first) = resources.first() else {
        return String::new();
    };
    let (base, sub) = match first.split_once('/') {
        Some((b, s)) => (b, Some(s)),
        None => (first.as_str(), None),
    };
    let mut out = base.to_string();
    if let Some(g) = groups.first().filter(|g| !g.is_empty()) {
        out = format!("{out}.{g}");
    }
    if let Some(s) = sub {
        out = format!("{out}/{s}");
    }
    out
}

/// The `can-i --list` table as kubectl prints it (header unless `no_headers`).
pub fn rules_table(rules: &[Rule], no_headers: bool) -> String {
    let (header, rows) = rules_cells(rules, no_headers);
    let mut lines: Vec<Vec<String>> = header.into_iter().collect();
    lines.extend(rows);
    go_tabwriter(&lines)
}

/// The cells of [`rules_table`]: the header (unless `no_headers`) and one row per rule.
pub fn rules_cells(rules: &[Rule], no_headers: bool) -> (Option<Vec<String>>, Vec<Vec<String>>) {
    let header = (!no_headers).then(|| {
        ["Resources", "Non-Resource URLs", "Resource Names", "Verbs"]
            .map(String::from)
            .to_vec()
    });
    let rows = rules
        .iter()
        .map(|r| {
            vec![
                combine_resource_group(&r.resources, &r.groups),
                go_list(&r.urls),
                go_list(&r.names),
                go_list(&r.verbs),
            ]
        })
        .collect();
    (header, rows)
}

/// The stderr line of `can-i --list` when rules were hidden.
pub fn hidden_note(hidden: usize) -> String {
    let rules = if hidden == 1 { "rule" } else { "rules" };
    format!(
        "{hidden} {rules} outside plugin.yaml (other verbs or resources, subresources, non-resource URLs, or wildcards narrowed) not shown; `kubectl auth can-i --list` shows them all"
    )
}

pub(super) async fn can_i_list(
    s: &Settings,
    a: &CanIArgs,
    p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    let session = Session::open(s, p, Purpose::Read).await?;
    let status = session.rules_review(session.namespace()).await?;
    let index = session.index().await?;
    let mut boundary: Vec<BoundaryType> = Vec::new();
    for entry in matrix_entries(&s.plugin.resources, session.registered()) {
        let Ok(t) = index.resolve(&entry) else {
            continue;
        };
        let mut verbs: Vec<&'static str> = Vec::new();
        for v in &s.plugin.verbs {
            if session.boundary(*v, t, false).is_ok() {
                for x in rbac_verbs(*v) {
                    if !verbs.contains(x) {
                        verbs.push(x);
                    }
                }
            }
        }
        let b = BoundaryType {
            group: t.api.group.clone(),
            plural: t.api.plural.clone(),
            verbs,
        };
        if !b.verbs.is_empty()
            && !boundary
                .iter()
                .any(|x| x.group == b.group && x.plural == b.plural)
        {
            boundary.push(b);
        }
    }
    if status.incomplete {
        p.err_line(&format!(
            "Warning: the list may be incomplete: {}",
            status.evaluation_error.clone().unwrap_or_default()
        ));
    }
    let (kept, hidden) = filter_rules(&rules_of(&status), &boundary);
    let (header, rows) = rules_cells(&compact_and_sort(&kept), a.no_headers);
    p.table("rules", header, rows, Layout::GoTab)?;
    if hidden > 0 {
        p.err_line(&hidden_note(hidden));
    }
    Ok(())
}
