use k8s_openapi::api::authentication::v1::{SelfSubjectReview, UserInfo};
use k8s_openapi::api::authorization::v1::SubjectRulesReviewStatus;

use super::*;
use crate::config::Verb;
use crate::guard::authz::GateError;
use crate::guard::session::NO_RULE_REASON;

#[test]
fn plugin_verbs_map_to_the_rbac_verbs_their_requests_need() {
    assert_eq!(rbac_verbs(Verb::Get), ["get", "list", "watch"]);
    assert_eq!(rbac_verbs(Verb::Patch), ["patch"]);
    assert_eq!(
        matrix_verbs(&[Verb::Get, Verb::Patch]),
        ["get", "list", "watch", "patch"]
    );
    assert_eq!(
        matrix_verbs(&[Verb::Patch, Verb::Get, Verb::Patch]),
        ["patch", "get", "list", "watch"]
    );
    for v in ["get", "list", "watch"] {
        assert_eq!(plugin_verb(v), Some(Verb::Get), "{v}");
    }
    assert_eq!(plugin_verb("patch"), Some(Verb::Patch));
    assert_eq!(plugin_verb("delete"), Some(Verb::Delete));
    assert_eq!(plugin_verb("update"), None);
}

#[test]
fn answer_lines_follow_kubectl_with_the_boundary_note() {
    assert_eq!(answer_line(&Ok(()), None), "yes");
    assert_eq!(
        answer_line(&Ok(()), Some("configmaps not in resources")),
        "yes (outside plugin.yaml: configmaps not in resources)"
    );
    assert_eq!(
        answer_line(&Err("denied by policy".into()), Some("ignored")),
        "no - denied by policy"
    );
    assert_eq!(answer_line(&Err(String::new()), None), "no");
    assert_eq!(answer_line(&Err(NO_RULE_REASON.into()), None), "no");
}

#[test]
fn boundary_reasons_are_short() {
    let e = GateError::VerbOutsideBoundary {
        plugin: "myops".into(),
        verb: "patch".into(),
    };
    assert_eq!(boundary_reason(&e), "verb patch not in verbs");
    let e = GateError::ResourceOutsideBoundary {
        plugin: "myops".into(),
        resource: "configmaps".into(),
    };
    assert_eq!(boundary_reason(&e), "configmaps not in resources");
    let e = GateError::ScopeOutsideBoundary {
        plugin: "myops".into(),
        what: "--all-namespaces".into(),
        scope: "cluster",
        allowed: "namespace".into(),
    };
    assert_eq!(boundary_reason(&e), "--all-namespaces needs scope cluster");
}

#[test]
fn can_i_target_forms() {
    assert_eq!(
        parse_can_i_target("pods", None).unwrap(),
        ("pods".to_string(), None)
    );
    assert_eq!(
        parse_can_i_target("pods", Some("web")).unwrap(),
        ("pods".to_string(), Some("web".to_string()))
    );
    assert_eq!(
        parse_can_i_target("deployments.apps/web", None).unwrap(),
        ("deployments.apps".to_string(), Some("web".to_string()))
    );
    assert!(parse_can_i_target("pods/web", Some("other")).is_err());
    assert!(parse_can_i_target("pods/", None).is_err());
    assert!(parse_can_i_target("/web", None).is_err());
    assert!(parse_can_i_target("pods/a/b", None).is_err());
    assert!(parse_can_i_target("pods", Some("")).is_err());
}

#[test]
fn can_i_with_a_hostile_verb_type_or_name_is_a_usage_error_that_echoes_nothing_raw() {
    assert!(check_verb_text("get").is_ok());
    assert!(
        check_verb_text("frobnicate").is_ok(),
        "unknown verbs only warn"
    );
    for bad in ["g\u{1b}[2Jet", "get pods", &"v".repeat(100_000)] {
        let e = check_verb_text(bad).unwrap_err();
        assert!(e.starts_with("invalid VERB"), "{e}");
        assert!(!e.contains('\u{1b}') && e.len() < 300, "{e}");
    }
    let e = parse_can_i_target(&format!("pods/{}", "n".repeat(300)), None).unwrap_err();
    assert!(e.contains("at most 253"), "{e}");
    let e = parse_can_i_target("po\u{1b}[31mds", None).unwrap_err();
    assert!(!e.contains('\u{1b}'), "{e}");
}

#[test]
fn matrix_entries_keep_order_and_drop_repeats() {
    let res = vec!["pods".to_string(), "deployments".to_string()];
    let reg = vec!["foos.example.com".to_string(), "pods".to_string()];
    assert_eq!(
        matrix_entries(&res, &reg),
        ["pods", "deployments", "foos.example.com"]
    );
}

#[test]
fn matrix_renders_yes_no_and_unknown_cells() {
    let rows = vec![
        MatrixRow {
            resource: "pods".into(),
            cells: vec![Some(true), Some(true), Some(false), Some(false)],
            boundary: "ok".into(),
            policies: None,
            protected: None,
        },
        MatrixRow {
            resource: "widgets.example.com".into(),
            cells: vec![None; 4],
            boundary: "?".into(),
            policies: None,
            protected: None,
        },
    ];
    let out = matrix_table(&["get", "list", "watch", "patch"], &rows).render(false);
    assert_eq!(
        out,
        "RESOURCE              GET   LIST   WATCH   PATCH   BOUNDARY\n\
             pods                  yes   yes    no      no      ok\n\
             widgets.example.com   ?     ?      ?       ?       ?\n"
    );
}

#[test]
fn matrix_shows_a_policies_column_only_when_plugin_yaml_has_rules() {
    let rule = |resource: &str| crate::config::PolicyRule {
        resource: resource.into(),
        namespaces: Vec::new(),
        deny: vec!["/data/*".into()],
        allow: Vec::new(),
        delete: Default::default(),
        message: "m".into(),
        exempt: Default::default(),
    };
    let policies = vec![rule("secrets"), rule("deployments.apps"), rule("*")];
    assert_eq!(policies_cell(&[], "secrets", ""), None);
    assert_eq!(
        policies_cell(&policies, "secrets", "").as_deref(),
        Some("policies[0,2]")
    );
    assert_eq!(
        policies_cell(&policies[..2], "pods", "").as_deref(),
        Some("-")
    );
    let rows = vec![
        MatrixRow {
            resource: "secrets".into(),
            cells: vec![Some(true)],
            boundary: "ok".into(),
            policies: policies_cell(&policies[..2], "secrets", ""),
            protected: None,
        },
        MatrixRow {
            resource: "pods".into(),
            cells: vec![Some(false)],
            boundary: "ok".into(),
            policies: policies_cell(&policies[..2], "pods", ""),
            protected: None,
        },
    ];
    assert_eq!(
        matrix_table(&["patch"], &rows).render(false),
        "RESOURCE   PATCH   POLICIES      BOUNDARY\n\
             secrets    yes     policies[0]   ok\n\
             pods       no      -             ok\n"
    );
}

#[test]
fn protected_cell_is_the_strictest_mode_a_change_of_the_row_would_get_here() {
    let rules: Vec<crate::config::ProtectRule> = serde_saphyr::from_str(
        "- {contexts: [\"prod-*\"], mode: confirm}\n\
         - {contexts: [\"prod-*\"], namespaces: [payments], verbs: [delete], mode: block}\n\
         - {servers: [\"https://10.0.0.1:6443\"], verbs: [crd-prune], mode: type-name}\n\
         - {contexts: [\"prod-*\"], namespaces: [web], verbs: [scale], mode: type-name}\n",
    )
    .unwrap();
    let all = [Verb::Get, Verb::Patch, Verb::Delete, Verb::Scale];
    let at = |context, namespace, all_namespaces| MatrixPlace {
        context: Some(context),
        server: "https://10.0.0.1:6443",
        namespace,
        all_namespaces,
    };
    let pods = ("pods", "", true);
    let cell = |verbs: &[Verb], place: &MatrixPlace<'_>, row| {
        protected_cell(&rules, verbs, place, row).unwrap()
    };
    assert_eq!(
        protected_cell(&[], &all, &at("prod-eu", "payments", false), pods),
        None
    );
    assert_eq!(cell(&all, &at("prod-eu", "payments", false), pods), "block");
    assert_eq!(cell(&all, &at("prod-eu", "shop", false), pods), "confirm");
    assert_eq!(cell(&all, &at("prod-eu", "web", false), pods), "type-name");
    // Only what plugin.yaml lets the plugin do counts: without delete, no block.
    assert_eq!(
        cell(
            &[Verb::Get, Verb::Patch],
            &at("prod-eu", "payments", false),
            pods
        ),
        "confirm"
    );
    assert_eq!(
        cell(&[Verb::Get], &at("prod-eu", "payments", false), pods),
        "-"
    );
    assert_eq!(cell(&all, &at("staging", "payments", false), pods), "-");
    // -A: some namespace may be payments.
    assert_eq!(cell(&all, &at("prod-eu", "shop", true), pods), "block");
    // A cluster-scoped type is in no namespace: only the rule without namespaces holds.
    let nodes = ("nodes", "", false);
    assert_eq!(
        cell(&all, &at("prod-eu", "payments", false), nodes),
        "confirm"
    );
    // The Namespace object of payments is judged in payments.
    let namespaces = ("namespaces", "", false);
    assert_eq!(
        cell(&all, &at("prod-eu", "payments", false), namespaces),
        "block"
    );
    assert_eq!(
        cell(&all, &at("prod-eu", "shop", false), namespaces),
        "confirm"
    );
    // The server rule protects CRD prunes (a patch) on the CRD row only.
    let crds = ("customresourcedefinitions", "apiextensions.k8s.io", false);
    assert_eq!(cell(&all, &at("staging", "x", false), crds), "type-name");
    // A CRD delete takes the custom resources of payments along: the block holds for it.
    assert_eq!(cell(&all, &at("prod-eu", "shop", false), crds), "block");
    assert_eq!(cell(&all, &at("staging", "x", false), nodes), "-");
    let rows = vec![MatrixRow {
        resource: "pods".into(),
        cells: vec![Some(true)],
        boundary: "ok".into(),
        policies: None,
        protected: Some("block".into()),
    }];
    assert_eq!(
        matrix_table(&["patch"], &rows).render(false),
        "RESOURCE   PATCH   PROTECTED   BOUNDARY\npods       yes     block       ok\n"
    );
}

fn s(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

#[test]
fn can_i_targets_split_urls_impersonation_and_types() {
    assert_eq!(
        classify_can_i("get", "/healthz", None, None).unwrap(),
        CanITarget::NonResource("/healthz".into())
    );
    assert!(classify_can_i("get", "/healthz", Some("x"), None).is_err());
    assert!(classify_can_i("get", "/healthz", None, Some("log")).is_err());
    let e = classify_can_i("get", "/a b\u{1b}", None, None).unwrap_err();
    assert!(
        e.starts_with("invalid NONRESOURCEURL") && !e.contains('\u{1b}'),
        "{e}"
    );
    assert!(classify_can_i("get", &format!("/{}", "a".repeat(5000)), None, None).is_err());

    let imp = |t: &str, n: Option<&str>, sr: Option<&str>| classify_can_i("impersonate", t, n, sr);
    assert_eq!(
        imp("users", None, None).unwrap(),
        CanITarget::Impersonation {
            group: "",
            resource: "users",
            subresource: None,
            name: None
        }
    );
    assert_eq!(
        imp("users/bob", None, None).unwrap(),
        CanITarget::Impersonation {
            group: "",
            resource: "users",
            subresource: None,
            name: Some("bob".into())
        }
    );
    assert_eq!(
        imp("groups", Some("devs"), None).unwrap(),
        CanITarget::Impersonation {
            group: "",
            resource: "groups",
            subresource: None,
            name: Some("devs".into())
        }
    );
    assert_eq!(
        imp("uids", None, None).unwrap(),
        CanITarget::Impersonation {
            group: "authentication.k8s.io",
            resource: "uids",
            subresource: None,
            name: None
        }
    );
    assert_eq!(
        imp("userextras/scopes", Some("view"), None).unwrap(),
        CanITarget::Impersonation {
            group: "authentication.k8s.io",
            resource: "userextras",
            subresource: Some("scopes".into()),
            name: Some("view".into())
        }
    );
    assert_eq!(
        imp("userextras", None, Some("scopes")).unwrap(),
        imp("userextras/scopes", None, None).unwrap()
    );
    assert!(imp("userextras/scopes", None, Some("scopes")).is_err());
    assert!(imp("users/bob", Some("carol"), None).is_err());
    assert!(imp("users/", None, None).is_err());
    // Other verbs on `users`, and other resources with impersonate, resolve through discovery.
    assert_eq!(
        classify_can_i("get", "users", None, None).unwrap(),
        CanITarget::Resource {
            type_name: "users".into(),
            name: None
        }
    );
    assert_eq!(
        imp("serviceaccounts/default", None, None).unwrap(),
        CanITarget::Resource {
            type_name: "serviceaccounts".into(),
            name: Some("default".into())
        }
    );
}

#[test]
fn a_type_outside_the_core_group_is_named_as_plural_group() {
    assert_eq!(
        resolved_note("deploy", "apps", "deployments.apps").as_deref(),
        Some("resource \"deploy\" is deployments.apps")
    );
    assert_eq!(
        resolved_note("deployments.apps", "apps", "deployments.apps"),
        None
    );
    assert_eq!(resolved_note("po", "", "pods"), None);
}

/// The status of `kubectl auth can-i --list --context alice` on the test cluster
/// (system:basic-user, system:discovery, system:public-info-viewer).
fn alice_status() -> SubjectRulesReviewStatus {
    use k8s_openapi::api::authorization::v1::{NonResourceRule, ResourceRule};
    let rr = |g: &str, r: &str| ResourceRule {
        api_groups: Some(s(&[g])),
        resources: Some(s(&[r])),
        resource_names: None,
        verbs: s(&["create"]),
    };
    let nr = |urls: &[&str]| NonResourceRule {
        non_resource_urls: Some(s(urls)),
        verbs: s(&["get"]),
    };
    SubjectRulesReviewStatus {
        resource_rules: vec![
            rr("authorization.k8s.io", "selfsubjectaccessreviews"),
            rr("authorization.k8s.io", "selfsubjectrulesreviews"),
            rr("authentication.k8s.io", "selfsubjectreviews"),
        ],
        non_resource_rules: vec![
            nr(&["/healthz", "/livez", "/readyz", "/version", "/version/"]),
            nr(&[
                "/api",
                "/api/*",
                "/apis",
                "/apis/*",
                "/healthz",
                "/livez",
                "/openapi",
                "/openapi/*",
                "/readyz",
                "/version",
                "/version/",
            ]),
        ],
        incomplete: false,
        evaluation_error: None,
    }
}

#[test]
fn the_unfiltered_list_is_byte_for_byte_kubectls() {
    let rules: Vec<Rule> = rules_of(&alice_status())
        .iter()
        .flat_map(breakdown)
        .collect();
    let out = rules_table(&compact_and_sort(&rules), false);
    let expected = "\
Resources                                       Non-Resource URLs   Resource Names   Verbs
selfsubjectreviews.authentication.k8s.io        []                  []               [create]
selfsubjectaccessreviews.authorization.k8s.io   []                  []               [create]
selfsubjectrulesreviews.authorization.k8s.io    []                  []               [create]
                                                [/api/*]            []               [get]
                                                [/api]              []               [get]
                                                [/apis/*]           []               [get]
                                                [/apis]             []               [get]
                                                [/healthz]          []               [get]
                                                [/healthz]          []               [get]
                                                [/livez]            []               [get]
                                                [/livez]            []               [get]
                                                [/openapi/*]        []               [get]
                                                [/openapi]          []               [get]
                                                [/readyz]           []               [get]
                                                [/readyz]           []               [get]
                                                [/version/]         []               [get]
                                                [/version/]         []               [get]
                                                [/version]          []               [get]
                                                [/version]          []               [get]
";
    assert_eq!(out, expected);
    assert_eq!(
        rules_table(&[], false),
        "Resources   Non-Resource URLs   Resource Names   Verbs\n"
    );
    assert_eq!(rules_table(&[], true), "");
}

fn boundary() -> Vec<BoundaryType> {
    vec![
        BoundaryType {
            group: String::new(),
            plural: "pods".into(),
            verbs: vec!["get", "list", "watch", "patch"],
        },
        BoundaryType {
            group: "apps".into(),
            plural: "deployments".into(),
            verbs: vec!["get", "list", "watch"],
        },
    ]
}

#[test]
fn list_keeps_boundary_rules_and_narrows_wildcards_to_the_boundary() {
    let (kept, hidden) = filter_rules(&rules_of(&alice_status()), &boundary());
    assert_eq!(
        (kept.len(), hidden),
        (0, 19),
        "nothing of alice's defaults is the plugin's"
    );

    let rule = |g: &[&str], r: &[&str], v: &[&str], n: &[&str]| Rule {
        verbs: s(v),
        groups: s(g),
        resources: s(r),
        names: s(n),
        urls: Vec::new(),
    };
    let admin = vec![
        rule(&["*"], &["*"], &["*"], &[]),
        Rule {
            verbs: s(&["*"]),
            urls: s(&["*"]),
            ..Rule::default()
        },
    ];
    let (kept, hidden) = filter_rules(&admin, &boundary());
    assert_eq!(hidden, 2);
    assert_eq!(
        rules_table(&compact_and_sort(&kept), false),
        "Resources          Non-Resource URLs   Resource Names   Verbs\n\
             pods               []                  []               [get list watch patch]\n\
             deployments.apps   []                  []               [get list watch]\n",
        "sorted by Go's PolicyRule.String(): `[get list watch patch]` before `[get list watch]`"
    );

    // An exact rule is kept as is (and not counted); other verbs of it are hidden; a
    // named rule keeps its name; a subresource rule is hidden.
    let role = vec![
        rule(&[""], &["pods"], &["get", "list", "delete"], &[]),
        rule(&["apps"], &["deployments"], &["get"], &["web"]),
        rule(&[""], &["pods/log"], &["get"], &[]),
        rule(&[""], &["configmaps"], &["get"], &[]),
    ];
    let (kept, hidden) = filter_rules(&role, &boundary());
    assert_eq!(hidden, 3, "delete, pods/log, configmaps");
    assert_eq!(
        rules_table(&compact_and_sort(&kept), true),
        "pods               []    []      [get list]\n\
             deployments.apps   []    [web]   [get]\n",
        "an all-empty column is still 6 wide (Go tabwriter minwidth)"
    );
}

#[test]
fn go_tabwriter_pads_to_the_widest_cell_plus_three_and_at_least_six() {
    let lines = vec![s(&["a", "bb", "last"]), s(&["", "cccccccc", "x"])];
    assert_eq!(
        go_tabwriter(&lines),
        "a     bb         last\n      cccccccc   x\n"
    );
    assert_eq!(go_list(&s(&["a", "b"])), "[a b]");
    assert_eq!(go_list(&[]), "[]");
    assert_eq!(
        combine_resource_group(&s(&["deployments/scale"]), &s(&["apps"])),
        "deployments.apps/scale"
    );
    assert_eq!(combine_resource_group(&s(&["pods"]), &s(&[""])), "pods");
    assert_eq!(combine_resource_group(&[], &[]), "");
}

#[test]
fn whoami_prints_kubectls_table_and_json_field_order() {
    use k8s_openapi::api::authentication::v1::SelfSubjectReviewStatus;
    let u = UserInfo {
        username: Some("bob".into()),
        uid: Some("u1".into()),
        groups: Some(s(&["g1", "system:authenticated"])),
        extra: Some(
            [("scopes".to_string(), s(&["view", "edit"]))]
                .into_iter()
                .collect(),
        ),
    };
    assert_eq!(
        whoami_table(&u),
        "ATTRIBUTE       VALUE\n\
             Username        bob\n\
             UID             u1\n\
             Groups          [g1 system:authenticated]\n\
             Extra: scopes   [view edit]\n"
    );
    let r = SelfSubjectReview {
        metadata: Default::default(),
        status: Some(SelfSubjectReviewStatus { user_info: Some(u) }),
    };
    let v = whoami_value(&r).unwrap();
    let json = crate::output::to_json(&v).unwrap();
    assert!(
            json.starts_with("{\n    \"kind\": \"SelfSubjectReview\",\n    \"apiVersion\": \"authentication.k8s.io/v1\",\n    \"metadata\": {\n        \"creationTimestamp\": null\n    },"),
            "{json}"
        );
    let keys: Vec<&String> = v["status"]["userInfo"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(keys, ["username", "uid", "groups", "extra"]);
    let sorted = sorted_keys(&v);
    let keys: Vec<&String> = sorted["status"]["userInfo"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(keys, ["extra", "groups", "uid", "username"]);
}
