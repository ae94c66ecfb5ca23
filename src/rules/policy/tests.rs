//! The policy rules judged on small objects: path syntax, what a change at, above and below
//! a denied path means, which rules apply, and what `config validate` reports.

use super::*;
use serde_json::{Value, json};

fn rule(resource: &str, deny: &[&str], allow: &[&str]) -> PolicyRule {
    PolicyRule {
        resource: resource.into(),
        namespaces: Vec::new(),
        deny: deny.iter().map(|s| s.to_string()).collect(),
        allow: allow.iter().map(|s| s.to_string()).collect(),
        delete: Default::default(),
        message: format!("no ({resource})"),
        exempt: Default::default(),
    }
}

/// The pointers the project's structured diff names (what the guarded path passes).
fn changed(before: &Value, after: &Value) -> Vec<String> {
    crate::rules::diff::operations(before, after)
        .iter()
        .map(|op| crate::rules::diff::path_of(op).to_string())
        .collect()
}

fn denied(rules: &[Compiled], before: &Value, after: &Value) -> Option<Violation> {
    denied_changes(rules, &changed(before, after), before, after)
}

fn check(deny: &[&str], allow: &[&str], before: Value, after: Value) -> Vec<String> {
    let c = Compiled::new(0, &rule("secrets", deny, allow)).unwrap();
    denied(&[c], &before, &after)
        .map(|v| v.paths)
        .unwrap_or_default()
}

fn segs(p: &str) -> Vec<String> {
    split_pointer(p)
}

#[test]
fn patterns_parse_with_rfc6901_escapes_and_refuse_what_they_cannot_mean() {
    let p = parse_pattern("/metadata/annotations/example.com~1owner").unwrap();
    assert!(p.covers(&segs("/metadata/annotations/example.com~1owner")));
    assert!(!p.covers(&segs("/metadata/annotations/example.com")));
    let tilde = parse_pattern("/data/a~0b").unwrap();
    assert!(tilde.covers(&["data".into(), "a~b".into()]));
    // ~01 is `~1` literally (RFC 6901 §4: unescape ~1 first would give `/`).
    assert!(
        parse_pattern("/data/~01")
            .unwrap()
            .covers(&["data".into(), "~1".into()])
    );
    for (bad, want) in [
        ("data/*", "start it with /"),
        ("", "start it with /"),
        ("/data/~2", "must be followed by 0"),
        ("/data/a~", "must be followed by 0"),
        ("/spec/**/image", "may only be the last segment"),
        ("/data/pass*", "whole segment only"),
    ] {
        let e = parse_pattern(bad).unwrap_err();
        assert!(e.contains(want), "{bad}: {e}");
    }
    assert_eq!(
        join_pointer(&["metadata".into(), "a/b~c".into()]),
        "/metadata/a~1b~0c"
    );
}

#[test]
fn star_is_one_segment_and_double_star_is_anything_strictly_below() {
    let one = parse_pattern("/spec/template/spec/containers/*/image").unwrap();
    assert!(one.covers(&segs("/spec/template/spec/containers/0/image")));
    assert!(one.covers(&segs("/spec/template/spec/containers/3/image")));
    assert!(!one.covers(&segs("/spec/template/spec/containers/0/name")));
    assert!(!one.covers(&segs("/spec/template/spec/containers/0")));
    assert!(one.lies_below(&segs("/spec/template/spec/containers/0")));
    assert!(one.lies_below(&segs("/spec")));
    assert!(!one.lies_below(&segs("/metadata")));
    let deep = parse_pattern("/data/**").unwrap();
    assert!(!deep.covers(&segs("/data")), "** is strictly below");
    assert!(deep.covers(&segs("/data/a")));
    assert!(deep.covers(&segs("/data/a/b/c")));
    assert!(deep.lies_below(&segs("/data")));
    let field = parse_pattern("/spec/replicas").unwrap();
    assert!(field.covers(&segs("/spec/replicas")));
    assert!(!field.covers(&segs("/spec/replicasx")));
    let all = parse_pattern("/**").unwrap();
    assert!(all.covers(&segs("/x")) && !all.covers(&[]));
}

#[test]
fn a_changed_key_is_denied_and_an_unlisted_field_is_not() {
    let before = json!({"metadata": {"labels": {"a": "1"}}, "data": {"pw": "b2xk", "u": "eA=="}});
    let mut after = before.clone();
    after["data"]["pw"] = json!("bmV3");
    assert_eq!(
        check(&["/data/*"], &[], before.clone(), after),
        ["/data/pw"]
    );
    let mut label = before.clone();
    label["metadata"]["labels"]["a"] = json!("2");
    assert!(check(&["/data/*"], &[], before.clone(), label).is_empty());
    let mut added = before.clone();
    added["data"]["new"] = json!("eA==");
    assert_eq!(
        check(&["/data/*"], &[], before.clone(), added),
        ["/data/new"]
    );
    let mut removed = before.clone();
    removed["data"].as_object_mut().unwrap().remove("u");
    assert_eq!(check(&["/data/*"], &[], before, removed), ["/data/u"]);
}

#[test]
fn a_change_above_a_denied_path_is_judged_by_the_denied_fields_beneath_it() {
    // Replacing or removing the whole map is no way around `/data/*`.
    let before = json!({"data": {"pw": "b2xk", "u": "eA=="}});
    assert_eq!(
        check(&["/data/*"], &[], before.clone(), json!({})),
        ["/data/pw", "/data/u"]
    );
    assert_eq!(
        check(&["/data/*"], &[], json!({}), before.clone()),
        ["/data/pw", "/data/u"]
    );
    // A type change at the parent (the diff names /data only).
    assert_eq!(
        check(&["/data/*"], &[], before.clone(), json!({"data": "x"})),
        ["/data/pw", "/data/u"]
    );
    // The same values under a replaced parent: nothing denied changed.
    let c = Compiled::new(0, &rule("s", &["/data/pw"], &[])).unwrap();
    assert_eq!(
        denied(&[c], &before, &json!({"data": {"pw": "b2xk"}})),
        None
    );
    // A list item removed whole: its image changed.
    let d =
        json!({"spec": {"containers": [{"name": "a", "image": "x"}, {"name": "b", "image": "y"}]}});
    let shrunk = json!({"spec": {"containers": [{"name": "a", "image": "x"}]}});
    assert_eq!(
        check(&["/spec/containers/*/image"], &[], d.clone(), shrunk),
        ["/spec/containers/1/image"]
    );
    let renamed =
        json!({"spec": {"containers": [{"name": "a", "image": "x"}, {"name": "c", "image": "y"}]}});
    assert!(check(&["/spec/containers/*/image"], &[], d, renamed).is_empty());
}

#[test]
fn removing_several_items_from_the_end_of_a_list_judges_each_removed_item() {
    // [a, b, c] → [a] removes items 1 and 2: both are judged, so c's denied
    // securityContext is seen whether a merge patch replaces the list or a JSON patch
    // removes the item.
    let before = json!({"spec": {"containers": [{"name": "a"}, {"name": "b"},
        {"name": "c", "securityContext": {"privileged": false}}]}});
    let after = json!({"spec": {"containers": [{"name": "a"}]}});
    assert_eq!(
        check(
            &["/spec/containers/*/securityContext/**"],
            &[],
            before,
            after
        ),
        ["/spec/containers/2/securityContext/privileged"]
    );
}

#[test]
fn allow_narrows_deny_also_when_the_change_is_above_both() {
    let deny = ["/metadata/annotations/**"];
    let allow = ["/metadata/annotations/team"];
    let before = json!({"metadata": {"annotations": {"team": "a", "example.com/owner": "ci"}}});
    let mut team = before.clone();
    team["metadata"]["annotations"]["team"] = json!("b");
    assert!(check(&deny, &allow, before.clone(), team).is_empty());
    let mut owner = before.clone();
    owner["metadata"]["annotations"]["example.com/owner"] = json!("me");
    assert_eq!(
        check(&deny, &allow, before.clone(), owner),
        ["/metadata/annotations/example.com~1owner"]
    );
    // All annotations removed at once: the allowed key is fine, the other is not.
    assert_eq!(
        check(&deny, &allow, before.clone(), json!({"metadata": {}})),
        ["/metadata/annotations/example.com~1owner"]
    );
    // Annotations added where there were none, only the allowed key: allowed.
    assert!(
        check(
            &deny,
            &allow,
            json!({"metadata": {}}),
            json!({"metadata": {"annotations": {"team": "x"}}})
        )
        .is_empty()
    );
    // An allow with a star.
    let allow_star = ["/metadata/annotations/*"];
    assert!(check(&deny, &allow_star, before.clone(), json!({"metadata": {}})).is_empty());
    // A deny on a field and an allow below it: a scalar replacing the map is denied.
    assert_eq!(
        check(
            &["/spec"],
            &["/spec/replicas"],
            json!({"spec": {"replicas": 1}}),
            json!({"spec": 5})
        ),
        ["/spec"]
    );
    assert!(
        check(
            &["/spec"],
            &["/spec/replicas"],
            json!({"spec": {"replicas": 1}}),
            json!({"spec": {"replicas": 2}})
        )
        .is_empty()
    );
}

#[test]
fn bookkeeping_never_counts_and_the_first_refusing_rule_is_named() {
    let before = json!({"metadata": {"resourceVersion": "1", "generation": 1, "managedFields": []}, "spec": {"replicas": 1}});
    let after = json!({"metadata": {"resourceVersion": "2", "generation": 2, "managedFields": [{"manager": "x"}]}, "spec": {"replicas": 1}});
    assert!(check(&["/metadata/**"], &[], before.clone(), after).is_empty());
    let rules = [
        Compiled::new(0, &rule("deployments", &["/spec/paused"], &[])).unwrap(),
        Compiled::new(3, &rule("*", &["/spec/**"], &[])).unwrap(),
        Compiled::new(4, &rule("deployments", &["/spec/replicas"], &[])).unwrap(),
    ];
    let mut changed = before.clone();
    changed["spec"]["replicas"] = json!(2);
    let v = denied(&rules, &before, &changed).unwrap();
    assert_eq!(
        (
            v.index,
            v.resource.as_str(),
            v.message.as_str(),
            v.paths_text()
        ),
        (3, "*", "no (*)", "/spec/replicas".to_string())
    );
    let many = Violation {
        paths: (0..8).map(|i| format!("/data/k{i}")).collect(),
        ..v
    };
    assert_eq!(
        many.paths_text(),
        "/data/k0 (and 7 more: /data/k1, /data/k2, /data/k3, /data/k4, /data/k5, …)"
    );
}

/// A rule naming the singular (`resource: configmap`) applies to the type, as kubectl's
/// singular names do, and `config validate` asks for the plural: matched by the plural
/// alone, such a rule would let every patch of the denied field through with exit 0.
#[test]
fn a_rule_naming_the_singular_never_applied_and_let_every_change_through() {
    assert_eq!(
        lint(
            &["configmaps".into()],
            &[rule("configmap", &["/data/**"], &[])]
        ),
        vec![
            "policies[0] (configmap) names a singular: the rule applies to configmaps (kubectl's singular names are matched too), but write configmaps as `resources` does"
        ]
    );
    let mut r = rule("configmap", &["/data/**"], &[]);
    assert!(applies(&r, "configmaps", "ConfigMap", "", Some("a")));
    assert!(!applies(&r, "secrets", "Secret", "", Some("a")));
    r.resource = "deployment.apps".into();
    assert!(applies(&r, "deployments", "Deployment", "apps", Some("a")));
    r.resource = "widget.example.com".into();
    assert!(applies(&r, "widgets", "Widget", "example.com", None));
    assert!(!applies(&r, "widgets", "Widget", "other.example.com", None));
}

#[test]
fn rules_match_resource_names_and_namespace_globs() {
    let mut r = rule("deployments", &["/spec/**"], &[]);
    assert!(applies(&r, "deployments", "Deployment", "apps", Some("a")));
    assert!(
        !applies(&r, "deployments", "Deployment", "example.com", Some("a")),
        "a CRD plural alone never names it"
    );
    r.resource = "deployments.apps".into();
    assert!(applies(&r, "deployments", "Deployment", "apps", Some("a")));
    assert!(!applies(
        &r,
        "statefulsets",
        "StatefulSet",
        "apps",
        Some("a")
    ));
    r.resource = "widgets.example.com".into();
    assert!(applies(&r, "widgets", "Widget", "example.com", None));
    r.resource = "*".into();
    r.namespaces = vec!["team-*".into(), "prod".into()];
    assert!(applies(&r, "pods", "Pod", "", Some("team-a")));
    assert!(applies(&r, "pods", "Pod", "", Some("prod")));
    assert!(!applies(&r, "pods", "Pod", "", Some("prod-2")));
    assert!(
        !applies(&r, "namespaces", "Namespace", "", None),
        "namespaces cover only namespaced objects"
    );
    assert!(entry_names("pods", "pods", ""));
    assert!(!entry_names("pods.", "pods", ""));
    assert!(entry_names(
        "ingresses.networking.k8s.io",
        "ingresses",
        "networking.k8s.io"
    ));
    for (p, t, want) in [
        ("*", "", true),
        ("a*b", "ab", true),
        ("a*b", "axxb", true),
        ("a*b", "axxbc", false),
        ("*-prod", "eu-prod", true),
        ("t-*-*", "t-a-b", true),
        ("t-*-*", "t-a", false),
        ("", "", true),
        ("x", "", false),
    ] {
        assert_eq!(glob_match(p, t), want, "{p} {t}");
    }
}

#[test]
fn a_core_type_named_with_a_group_is_reported_as_unreachable() {
    // `secrets.apps` never applies to a Secret (a silent fail-open), although `secrets` in
    // `resources` looks like the same type: the lint says so.
    let res = vec!["secrets".to_string(), "events".to_string()];
    assert_eq!(
        lint(
            &res,
            &[
                rule("secrets.apps", &["/data/*"], &[]),
                rule("events.events.k8s.io", &["/note"], &[]),
            ]
        ),
        [
            "policies[0] (secrets.apps) is unreachable: secrets is a core type (API group \"\", not apps), so the rule never applies to it; write secrets"
        ]
    );
}

#[test]
fn a_deny_under_secret_string_data_is_reported_as_never_refusing() {
    // `deny: [/stringData/**]` on secrets never refuses: the server stores stringData in
    // data, so a stringData patch shows under /data. The lint says so.
    let res = vec!["secrets".to_string(), "widgets.example.com".to_string()];
    assert_eq!(
        lint(
            &res,
            &[
                rule("secrets", &["/stringData/**", "/data/x"], &[]),
                rule("widgets.example.com", &["/stringData/x"], &[]),
                rule("widgets.example.com", &["/"], &[]),
            ]
        ),
        [
            "policies[0] (secrets): deny /stringData/** never refuses: the API server stores stringData in data and never returns it, so a change through stringData shows under /data; deny /data/** instead",
            "policies[2] (widgets.example.com): deny / never refuses: it names a top-level field with an empty name (RFC 6901), not the whole object; write /** for every field, and delete: deny to forbid deleting the object",
        ]
    );
}

#[test]
fn thousands_of_overlapping_rules_give_one_warning_each_and_the_comparisons_are_bounded() {
    // Unbounded, 3 000 copies of one rule (a 147 KB plugin.yaml) give 4.5 million overlap
    // warnings in 112 s and 1.5 GB, and two rules of 40 000 paths take 79 s.
    let res = vec!["secrets".to_string()];
    let copies: Vec<PolicyRule> = (0..3000).map(|_| rule("*", &["/data/*"], &[])).collect();
    let started = std::time::Instant::now();
    let got = lint(&res, &copies);
    assert_eq!(got.len(), 2999);
    assert!(got[2998].starts_with("policies[0] (*) and policies[2999] (*) overlap"));
    let paths = |p: &str| -> Vec<String> { (0..40_000).map(|i| format!("/{p}/k{i}")).collect() };
    let long = |p: &str| PolicyRule {
        deny: paths(p),
        ..rule("secrets", &[], &[])
    };
    let got = lint(&res, &[long("a"), long("b")]);
    assert_eq!(
        got,
        [
            "policies: overlaps were checked only up to policies[1] (2000000 comparisons of deny paths; the file has 2 rules): merge rules or shorten their deny lists"
        ]
    );
    let both = PolicyRule {
        allow: paths("b"),
        ..long("a")
    };
    assert_eq!(
        lint(&res, &[both]),
        [
            "policies[0] (secrets): its 40000 allow and 40000 deny paths were not checked against each other (2000000 comparisons at most): shorten the lists"
        ]
    );
    assert!(
        started.elapsed() < std::time::Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn lint_reports_unreachable_and_overlapping_rules() {
    let res: Vec<String> = ["secrets", "deployments.apps", "namespaces"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mut ns_rule = rule("namespaces", &["/metadata/labels/*"], &[]);
    ns_rule.namespaces = vec!["team-*".into()];
    let policies = vec![
        rule("secrets", &["/data/*"], &[]),
        rule(
            "deployments",
            &["/spec/template/spec/containers/*/image"],
            &["/spec/replicas"],
        ),
        rule("widgets.example.com", &["/spec/size"], &[]),
        ns_rule,
        rule("secrets", &["/data/password"], &[]),
        rule("configmaps", &["/data/x"], &["/data"]),
        rule("*", &["/metadata/annotations/**"], &[]),
    ];
    let got = lint(&res, &policies);
    assert_eq!(
        got,
        [
            "policies[1] (deployments): allow /spec/replicas is under no deny path of the rule, so it changes nothing; remove it or fix the path",
            "policies[2] (widgets.example.com) is unreachable: widgets.example.com is not in `resources` (unless `crds sync` registers its CRD); add it there or remove the rule",
            "policies[3] (namespaces) is unreachable: namespaces is cluster-scoped, and a rule with `namespaces` covers only namespaced objects; remove `namespaces`",
            "policies[5] (configmaps) is unreachable: configmaps is not in `resources`; add it there or remove the rule",
            "policies[5] (configmaps): deny /data/x never refuses: allow /data covers all of it",
            "policies[0] (secrets) and policies[4] (secrets) overlap: deny /data/* and deny /data/password can match the same field, and only policies[0]'s message is shown for it; merge them or narrow one",
        ]
    );
    assert_eq!(
        lint(
            &res,
            &[rule(
                "secrets",
                &["/metadata/managedFields/**", "/metadata/labels"],
                &[]
            )]
        ),
        [
            "policies[0] (secrets): deny /metadata/managedFields/** never refuses: the server changes it on every write, so the diff leaves it out"
        ]
    );
    // Different namespaces or disjoint paths do not overlap.
    let mut a = rule("secrets", &["/data/*"], &[]);
    a.namespaces = vec!["a".into()];
    let mut b = rule("secrets", &["/data/*"], &[]);
    b.namespaces = vec!["b".into()];
    let c = rule("secrets", &["/metadata/labels/x"], &[]);
    assert!(lint(&res, &[a, b, c]).is_empty());
    assert!(
        parse_pattern("/x/*")
            .unwrap()
            .contains(&parse_pattern("/x/**").unwrap())
    );
    assert!(
        !parse_pattern("/x/a")
            .unwrap()
            .contains(&parse_pattern("/x/**").unwrap())
    );
    assert!(
        parse_pattern("/x")
            .unwrap()
            .contains(&parse_pattern("/x/**").unwrap())
    );
    assert!(
        !parse_pattern("/x/**")
            .unwrap()
            .contains(&parse_pattern("/x").unwrap())
    );
}

#[test]
fn only_a_rule_with_delete_deny_forbids_deleting_and_the_first_one_is_named() {
    let with = |resource: &str, delete| PolicyRule {
        delete,
        ..rule(resource, &[], &[])
    };
    let rules = matching(
        &[
            rule("configmaps", &["/**"], &[]),
            with("configmaps", DeletePolicy::Allow),
            with("*", DeletePolicy::Deny),
            with("configmaps", DeletePolicy::Deny),
        ],
        "configmaps",
        "ConfigMap",
        "",
        Some("shop"),
    )
    .unwrap();
    assert_eq!(rules.len(), 4);
    assert_eq!(forbids_delete(&rules).map(|r| r.index), Some(2));
    assert_eq!(
        forbids_delete(&rules[..2]).map(|r| r.index),
        None,
        "deny: [/**] forbids every patch, not a delete"
    );
    // The file format: `delete: deny` is written, the default is left out.
    let yaml = serde_saphyr::to_string(&with("namespaces", DeletePolicy::Deny)).unwrap();
    assert!(yaml.contains("delete: deny"), "{yaml}");
    assert!(!yaml.contains("deny:\n"), "no empty deny list: {yaml}");
    let yaml = serde_saphyr::to_string(&rule("secrets", &["/data/*"], &[])).unwrap();
    assert!(!yaml.contains("delete"), "{yaml}");
}
