//! What `config validate` says about `protect:` (pure): rules that can never match — every
//! verb they name is outside plugin.yaml `verbs`, or their contexts name no context of the
//! kubeconfig in use and they name no servers — and rules another rule shadows entirely, so
//! they can never change what a change is asked.
//!
//! The shadowing test is deliberately narrow, so a warning is always true: rule A shadows rule
//! B when they name the same contexts and servers (as sets), A covers every namespace and verb
//! B does, and A is at least as strict in everything the combination of [`super::protection`]
//! takes — mode (the strictest wins), `requireReason` (ORed), `maxLift` (the shortest wins) —
//! and B adds no message of its own. Wherever B matches, A matches too, and the combination is
//! the same with or without B.

use super::{ProtectRule, ProtectVerb};
use crate::rules::policy::glob_match;

/// Every verb a rule may name, in the order docs/configuration.md lists them (what an absent
/// `verbs` means).
pub const ALL_VERBS: [ProtectVerb; 12] = [
    ProtectVerb::Patch,
    ProtectVerb::Rollback,
    ProtectVerb::Delete,
    ProtectVerb::Undelete,
    ProtectVerb::Apply,
    ProtectVerb::Scale,
    ProtectVerb::Label,
    ProtectVerb::Annotate,
    ProtectVerb::Edit,
    ProtectVerb::Rollout,
    ProtectVerb::CrdApply,
    ProtectVerb::CrdPrune,
];

/// How many pairs of rules [`lint`] compares to find shadowed rules before it stops and says
/// so: a few tenths of a second. A real `protect:` list has a handful of rules, but a 1 MiB
/// plugin.yaml can hold tens of thousands, and comparing every pair would take minutes.
pub const SHADOW_BUDGET: usize = 1_000_000;

/// The plugin.yaml `verbs:` entry a change of verb `v` needs (docs/configuration.md): a
/// rollback and the CRD applies and prunes of `crds sync|watch` are patches, an undelete
/// needs `delete`, and every other verb is its own entry.
pub fn plugin_verb(v: ProtectVerb) -> &'static str {
    match v {
        ProtectVerb::Patch
        | ProtectVerb::Rollback
        | ProtectVerb::CrdApply
        | ProtectVerb::CrdPrune => "patch",
        ProtectVerb::Delete | ProtectVerb::Undelete => "delete",
        other => other.as_str(),
    }
}

/// The verbs `rule` protects: its `verbs`, or [`ALL_VERBS`] when absent.
pub fn rule_verbs(rule: &ProtectRule) -> Vec<ProtectVerb> {
    rule.verbs.clone().unwrap_or_else(|| ALL_VERBS.to_vec())
}

/// What `config validate` warns about `rules` (pure), one sentence each, in rule order:
/// - a rule none of whose verbs plugin.yaml `verbs` allows (`allowed`: the entries as
///   written, e.g. `["get", "patch"]`), mapped by [`plugin_verb`];
/// - a rule that names no servers and whose contexts match none of `contexts` (the context
///   names of the kubeconfig in use; `None` when it could not be read, and this check is
///   skipped — a warning only, as every user's kubeconfig differs);
/// - a rule another rule shadows (see the module doc), named with that rule (of two equal
///   rules, the later one), within [`SHADOW_BUDGET`] comparisons of two rules.
///
/// A rule that can never match for its verbs gets only that warning.
pub fn lint(rules: &[ProtectRule], allowed: &[&str], contexts: Option<&[String]>) -> Vec<String> {
    let mut out = Vec::new();
    let (mut budget, mut out_of_budget) = (SHADOW_BUDGET, false);
    for (i, r) in rules.iter().enumerate() {
        if !rule_verbs(r)
            .iter()
            .any(|v| allowed.contains(&plugin_verb(*v)))
        {
            let verbs = rule_verbs(r)
                .iter()
                .map(|v| plugin_verb(*v))
                .fold(Vec::new(), |mut acc, v| {
                    if !acc.contains(&v) {
                        acc.push(v);
                    }
                    acc
                })
                .join(", ");
            out.push(format!(
                "protect[{i}] can never match: plugin.yaml verbs allow none of its verbs (they need {verbs}); add one to verbs or remove the rule"
            ));
            // Whatever else could be said of it, it never applies.
            continue;
        }
        if let Some(names) = contexts
            && r.servers.is_empty()
            && !r
                .contexts
                .iter()
                .any(|g| names.iter().any(|n| glob_match(g, n)))
        {
            out.push(format!(
                "protect[{i}] matches no context of this kubeconfig ({}) and names no servers: check the context names, or add servers: so the rule holds wherever the cluster is reached",
                r.contexts
                    .iter()
                    .map(|c| crate::base::echo::quoted(c))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if budget < rules.len() {
            if !out_of_budget {
                out_of_budget = true;
                out.push(format!(
                    "protect: shadowed rules were checked only before protect[{i}] ({SHADOW_BUDGET} comparisons; the file has {} rules): merge rules",
                    rules.len()
                ));
            }
            continue;
        }
        budget -= rules.len();
        let shadow = rules
            .iter()
            .enumerate()
            .find(|(j, s)| *j != i && shadows(s, r) && (*j < i || !shadows(r, s)));
        if let Some((j, s)) = shadow {
            out.push(format!(
                "protect[{i}] never changes what is asked: protect[{j}] holds wherever it does and is at least as strict (mode {}, requireReason {}, maxLift {}); remove protect[{i}] or narrow protect[{j}]",
                s.mode.as_str(),
                s.require_reason,
                super::duration_text::format(s.max_lift),
            ));
        }
    }
    out
}

/// Whether `strong` shadows `weak`: same contexts and servers, a superset of its namespaces
/// and verbs, at least as strict a mode, requireReason and maxLift, and `weak` adds no
/// message of its own (the module doc says why each is needed).
pub fn shadows(strong: &ProtectRule, weak: &ProtectRule) -> bool {
    let same_set = |a: &[String], b: &[String]| {
        a.iter().all(|x| b.contains(x)) && b.iter().all(|x| a.contains(x))
    };
    let namespaces = match (&strong.namespaces, &weak.namespaces) {
        (None, _) => true,
        (Some(_), None) => false,
        (Some(s), Some(w)) => w.iter().all(|wg| s.iter().any(|sg| glob_covers(sg, wg))),
    };
    let verbs = match (&strong.verbs, &weak.verbs) {
        (None, _) => true,
        (Some(s), None) => ALL_VERBS.iter().all(|v| s.contains(v)),
        (Some(s), Some(w)) => w.iter().all(|v| s.contains(v)),
    };
    same_set(&strong.contexts, &weak.contexts)
        && same_set(&strong.servers, &weak.servers)
        && namespaces
        && verbs
        && strong.mode >= weak.mode
        && (strong.require_reason || !weak.require_reason)
        && strong.max_lift <= weak.max_lift
        && weak
            .message
            .as_ref()
            .is_none_or(|m| strong.message.as_ref() == Some(m))
}

/// Whether glob `wide` matches every text glob `narrow` matches: `narrow` read as text
/// matches `wide`. Sound because `wide`'s literal characters are never `*`, so each `*` of
/// `narrow` falls inside a `*` of `wide`, which matches whatever that `*` stands for.
pub fn glob_covers(wide: &str, narrow: &str) -> bool {
    glob_match(wide, narrow)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(yaml: &str) -> Vec<ProtectRule> {
        serde_saphyr::from_str(yaml).expect("rules parse")
    }

    const ALL: &[&str] = &["get", "patch", "delete", "apply", "scale"];

    #[test]
    fn a_rule_whose_verbs_plugin_yaml_never_allows_can_never_match() {
        let r = rules(
            "- {contexts: [prod], verbs: [delete, undelete]}\n- {contexts: [prod], verbs: [rollback, crd-apply, label]}\n- {contexts: [prod], verbs: [label, edit]}\n- {contexts: [staging]}\n",
        );
        assert_eq!(
            lint(&r, &["get", "patch"], None),
            [
                "protect[0] can never match: plugin.yaml verbs allow none of its verbs (they need delete); add one to verbs or remove the rule",
                "protect[2] can never match: plugin.yaml verbs allow none of its verbs (they need label, edit); add one to verbs or remove the rule",
            ]
        );
        // With only `get`, even a rule over every verb never applies.
        assert_eq!(
            lint(&r[3..], &["get"], None),
            [
                "protect[0] can never match: plugin.yaml verbs allow none of its verbs (they need patch, delete, apply, scale, label, annotate, edit, rollout); add one to verbs or remove the rule"
            ]
        );
        assert_eq!(
            plugin_verb(ProtectVerb::CrdPrune),
            "patch",
            "a CRD prune is a patch"
        );
        assert_eq!(plugin_verb(ProtectVerb::Undelete), "delete");
        assert_eq!(plugin_verb(ProtectVerb::Rollout), "rollout");
    }

    #[test]
    fn contexts_matching_no_kubeconfig_context_warn_only_without_servers() {
        let r = rules(
            "- {contexts: [\"prod-*\", staging]}\n- {contexts: [prd], servers: [\"https://prod:6443\"]}\n- {contexts: [prod]}\n- {servers: [\"*\"]}\n",
        );
        let names = ["admin".to_string(), "prod-eu".to_string()];
        assert_eq!(
            lint(&r, ALL, Some(&names)),
            [
                "protect[2] matches no context of this kubeconfig (\"prod\") and names no servers: check the context names, or add servers: so the rule holds wherever the cluster is reached"
            ]
        );
        // A glob character in a context name is literal: `[prod]` matches only `[prod]`.
        let odd = rules("- {contexts: [\"[prod]?\"]}\n");
        assert_eq!(
            lint(
                &odd,
                ALL,
                Some(&["prod".to_string(), "[prod]?".to_string()])
            ),
            Vec::<String>::new()
        );
        assert_eq!(lint(&odd, ALL, Some(&["prodx".to_string()])).len(), 1);
        // No kubeconfig read: not checked.
        assert_eq!(lint(&r, ALL, None), Vec::<String>::new());
    }

    #[test]
    fn a_rule_covered_by_an_as_strict_rule_is_named_once() {
        let r = rules(
            "- {contexts: [prod], mode: type-name, requireReason: true, maxLift: 15m}\n- {contexts: [prod], namespaces: [\"team-*\"], verbs: [delete]}\n- {contexts: [prod], namespaces: [payments], mode: block}\n",
        );
        assert_eq!(
            lint(&r, ALL, None),
            [
                "protect[1] never changes what is asked: protect[0] holds wherever it does and is at least as strict (mode type-name, requireReason true, maxLift 15m); remove protect[1] or narrow protect[0]"
            ]
        );
        // Two equal rules: only the later one is named, with the earlier.
        let twice = rules("- {contexts: [prod]}\n- {contexts: [prod]}\n");
        assert_eq!(
            lint(&twice, ALL, None),
            [
                "protect[1] never changes what is asked: protect[0] holds wherever it does and is at least as strict (mode confirm, requireReason false, maxLift 1h); remove protect[1] or narrow protect[0]"
            ]
        );
        // The narrower rule sets something the wider one does not: each is not shadowed.
        for weak in [
            "{contexts: [prod], verbs: [delete], mode: block}",
            "{contexts: [prod], verbs: [delete], requireReason: true}",
            "{contexts: [prod], verbs: [delete], maxLift: 5m}",
            "{contexts: [prod], verbs: [delete], message: why}",
            "{contexts: [prod, staging], verbs: [delete]}",
            "{contexts: [prod], servers: [\"https://p:6443\"], verbs: [delete]}",
        ] {
            let r = rules(&format!("- {{contexts: [prod]}}\n- {weak}\n"));
            assert_eq!(lint(&r, ALL, None), Vec::<String>::new(), "{weak}");
        }
        // Namespaces: a glob covers the names and narrower globs it matches, not wider ones;
        // a rule with namespaces never covers one without (cluster-scoped objects).
        let ns = |strong: &str, weak: &str| {
            shadows(
                &rules(&format!("- {{contexts: [p], {strong}}}\n"))[0],
                &rules(&format!("- {{contexts: [p], {weak}}}\n"))[0],
            )
        };
        assert!(ns(
            "namespaces: [\"team-*\"]",
            "namespaces: [team-a, \"team-b*\"]"
        ));
        assert!(ns("namespaces: [\"*\"]", "namespaces: [\"*-prod\"]"));
        assert!(!ns("namespaces: [\"team-*\"]", "namespaces: [\"team*\"]"));
        assert!(!ns("namespaces: [\"team-*\"]", "namespaces: [team-a, web]"));
        assert!(!ns("namespaces: [\"*\"]", "mode: confirm"));
        assert!(ns("mode: confirm", "namespaces: [a]"));
        assert!(ns("verbs: [delete, patch]", "verbs: [patch]"));
        assert!(!ns("verbs: [delete]", "mode: confirm"));
    }

    #[test]
    fn thousands_of_rules_are_checked_for_shadowing_only_within_the_budget() {
        let one = rules("- {contexts: [c]}\n").remove(0);
        let many: Vec<ProtectRule> = (0..1500)
            .map(|i| ProtectRule {
                contexts: vec![format!("c{i}")],
                ..one.clone()
            })
            .chain([one.clone(), one.clone()])
            .collect();
        let start = std::time::Instant::now();
        let out = lint(&many, ALL, None);
        assert!(start.elapsed() < std::time::Duration::from_secs(5));
        // 1502 rules: 665 of them fit in the budget; the two equal ones at the end do not.
        assert_eq!(
            out,
            [
                "protect: shadowed rules were checked only before protect[665] (1000000 comparisons; the file has 1502 rules): merge rules"
            ]
        );
        assert_eq!(lint(&many[1490..], ALL, None).len(), 1, "the equal pair");
    }

    #[test]
    fn glob_covers_agrees_with_matching_on_samples() {
        // Soundness: whenever `wide` covers `narrow`, every sample `narrow` matches, `wide`
        // matches too.
        let globs = [
            "*", "a*", "*b", "a*b", "ab", "a*c*b", "*a*", "a", "b*", "a**",
        ];
        let texts = ["", "a", "b", "ab", "acb", "aab", "ba", "axcyb", "abc", "a*"];
        for wide in globs {
            for narrow in globs {
                if glob_covers(wide, narrow) {
                    for t in texts.iter().filter(|t| glob_match(narrow, t)) {
                        assert!(glob_match(wide, t), "{wide} covers {narrow} but not {t}");
                    }
                }
            }
        }
        assert!(glob_covers("a*", "a*c*b"));
        assert!(!glob_covers("a*b", "a*"));
    }
}
