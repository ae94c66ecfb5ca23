//! Unit tests of what is said and pruned about the exported ValidatingAdmissionPolicies.

use super::*;
use crate::rules::policy::Exempt;

/// Runs `f` on a thread with a larger stack: the `cel` crate parses recursively, and an
/// unoptimised test build needs more than the 2 MiB a test thread has.
use crate::rules::policy::cel_tests::big_stack;

fn rule(resource: &str, deny: &[&str]) -> PolicyRule {
    PolicyRule {
        resource: resource.into(),
        namespaces: Vec::new(),
        deny: deny.iter().map(|s| s.to_string()).collect(),
        allow: Vec::new(),
        delete: Default::default(),
        message: format!("no ({resource})"),
        exempt: Default::default(),
    }
}

#[test]
fn a_whole_cluster_rule_without_exempt_is_warned_about_once() {
    big_stack(a_whole_cluster_rule_without_exempt_is_warned_about_once_);
}

fn a_whole_cluster_rule_without_exempt_is_warned_about_once_() {
    let wide = rule("*", &["/metadata/labels/team"]);
    let w = whole_cluster_warning(3, &wide).unwrap();
    assert!(w.starts_with("policies[3] (*) binds every client"), "{w}");
    assert!(w.contains("system:serviceaccounts:kube-system"), "{w}");
    let exempted = PolicyRule {
        exempt: Exempt {
            users: vec!["system:kube-controller-manager".into()],
            groups: Vec::new(),
        },
        ..wide.clone()
    };
    assert_eq!(whole_cluster_warning(3, &exempted), None);
    assert_eq!(
        whole_cluster_warning(0, &rule("secrets", &["/data/*"])),
        None
    );
    assert_eq!(
        lint("myops", &[rule("secrets", &["/data/*"]), wide]),
        vec![w.replace("policies[3]", "policies[1]")]
    );
}

#[test]
fn lint_names_a_rule_over_the_per_call_limit_and_no_cheap_one() {
    big_stack(lint_names_a_rule_over_the_per_call_limit_and_no_cheap_one_);
}

fn lint_names_a_rule_over_the_per_call_limit_and_no_cheap_one_() {
    let cheap = rule("configmaps", &["/data/a"]);
    let dear = rule("configmaps", &["/*/*/*/*"]);
    let rules = [cheap, dear];
    let out = lint("myops", &rules);
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(
        out[0].starts_with("policies[1]: its CEL may cost up to "),
        "{out:?}"
    );
    assert!(out[0].contains("per-call limit of 1000000"), "{out:?}");
    let e = export("myops", &rules, &[Action::Deny], Fault::default()).unwrap();
    assert!(cost_warnings(&e[0]).is_empty());
    assert_eq!(cost_warnings(&e[1]), out);
}

#[test]
fn stale_names_what_the_export_no_longer_holds() {
    big_stack(stale_names_what_the_export_no_longer_holds_);
}

fn stale_names_what_the_export_no_longer_holds_() {
    let e = export(
        "team-a",
        &[
            rule("secrets", &["/data/*"]),
            rule("configmaps", &["/data/x"]),
        ],
        &[Action::Deny],
        Fault::default(),
    )
    .unwrap();
    assert_eq!(e[0].name, "team-a-policies-0-secrets");
    let listed = [
        "team-a-policies-2-pods".to_string(),
        "team-a-policies-0-secrets".to_string(),
        "team-a-policies-1-configmaps".to_string(),
        "team-a-policies-1-secrets".to_string(),
    ];
    assert_eq!(
        stale(&e, &listed),
        vec!["team-a-policies-1-secrets", "team-a-policies-2-pods"]
    );
    assert!(stale(&e, &listed[1..3]).is_empty());
    assert_eq!(stale(&[], &listed[..1]), vec!["team-a-policies-2-pods"]);
}

#[test]
fn the_selector_finds_only_this_plugins_objects() {
    big_stack(the_selector_finds_only_this_plugins_objects_);
}

fn the_selector_finds_only_this_plugins_objects_() {
    assert_eq!(
        selector("team-a"),
        "app.kubernetes.io/managed-by=kubectl-myops,app.kubernetes.io/instance=team-a"
    );
    let e = export(
        "team-a",
        &[rule("secrets", &["/data/*"])],
        &[Action::Deny],
        Fault::default(),
    )
    .unwrap();
    for o in [&e[0].policy, &e[0].binding] {
        assert_eq!(o["metadata"]["labels"][MANAGED_BY.0], MANAGED_BY.1);
        assert_eq!(o["metadata"]["labels"][PLUGIN_LABEL], "team-a");
    }
}

#[test]
fn a_message_of_several_lines_is_written_on_one() {
    big_stack(a_message_of_several_lines_is_written_on_one_);
}

fn a_message_of_several_lines_is_written_on_one_() {
    assert_eq!(one_line("a\nb\r\nc\rd"), "a b c d");
    let mut r = rule("configmaps", &["/data/a"]);
    r.message = "first line\nsecond line\n".into();
    r.delete = crate::rules::policy::DeletePolicy::Deny;
    let e = export("myops", &[r], &[Action::Deny], Fault::default()).unwrap();
    let validations = e[0].policy["spec"]["validations"].as_array().unwrap();
    assert_eq!(validations.len(), 2);
    for v in validations {
        let message = v["message"].as_str().unwrap();
        assert!(message.ends_with(": first line second line "), "{message}");
        assert!(!v["messageExpression"].as_str().unwrap().contains('\n'));
    }
}

/// A deny path with a line break in a key (`"/data/a\nb"`, a CR field
/// may have one) goes into the validation's static `message` unchanged; the API server
/// refuses the policy (422 "must not contain line breaks"), after the rules before it were
/// applied, while `config validate` and `policies export` said nothing.
#[test]
fn a_deny_path_with_a_line_break_makes_a_message_the_api_server_refuses() {
    big_stack(a_deny_path_with_a_line_break_makes_a_message_the_api_server_refuses_);
}

fn a_deny_path_with_a_line_break_makes_a_message_the_api_server_refuses_() {
    let r = rule("configmaps", &["/data/a\nb"]);
    let Ok(e) = export("p", &[r], &[Action::Deny], Fault::default()) else {
        return; // refusing the rule up front is a fix too
    };
    let message = e[0].policy["spec"]["validations"][0]["message"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(!message.contains('\n'), "{message:?}");
}

/// A rule in the singular (`configmap`) applies to ConfigMaps in the
/// client (scope.rs `applies` matches the lowercased kind, `config validate` says "the rule
/// applies to configmaps"), but the exported policy matches `resources: [configmap]`, which
/// no request carries: plain kubectl changes the denied field unopposed, and export does not
/// warn.
#[test]
fn a_singular_rule_exports_a_policy_that_matches_nothing() {
    big_stack(a_singular_rule_exports_a_policy_that_matches_nothing_);
}

fn a_singular_rule_exports_a_policy_that_matches_nothing_() {
    let r = with_plurals(
        &[rule("configmap", &["/data/a"])],
        &["configmaps".to_string()],
    )
    .remove(0);
    let e = export(
        "p",
        std::slice::from_ref(&r),
        &[Action::Deny],
        Fault::default(),
    );
    let warned = !lint("p", &[r]).is_empty();
    if let Ok(e) = e {
        let resources = &e[0].policy["spec"]["matchConstraints"]["resourceRules"][0]["resources"];
        assert!(
            warned || resources == &json!(["configmaps"]),
            "exported {resources} without a warning"
        );
    }
}
