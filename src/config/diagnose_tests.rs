//! The messages and places of parse and rule errors, and that odd input is an error, never a
//! panic (the text heuristics of `diagnose.rs` index into what the user wrote). `fail`, `check` and the
//! sample texts are shared with the tests in `tests.rs`.

use super::*;
use crate::config::tests::{BASE, PG, check, fail};
use crate::config::{BUILTIN_TEXT, parse};

#[test]
fn parse_errors_have_exact_locations() {
    let known = "use one of ops_total, ops_errors_total, ops_duration_seconds, \
                 crd_loads_total, crd_load_duration_seconds";
    #[rustfmt::skip]
    let cases: &[(String, u64, u64, &str)] = &[
        (format!("{BASE}bogus: 1\n"), 5, 1, "unknown key `bogus`: remove it or fix its spelling (allowed here: name,"),
        (format!("{PG}  bad: 1\n"), 7, 3, "unknown key `bad`"),
        ("name: myops\nverbs: 5\nresources: [pods]\nscopes: [namespace]\n".into(), 2, 8, "wrong type for `verbs`: expected a list"),
        ("name: [a]\n".into(), 1, 7, "wrong type for `name`: expected a single text value"),
        (format!("{BASE}pushgateway: 5\n"), 5, 14, "wrong type for `pushgateway`: expected a mapping"),
        (format!("{BASE}pushgateway:\n\turl: http://x\n"), 6, 1, "a tab is used for indentation"),
        (format!("{PG}\ttimeout: 1s\n"), 7, 1, "replace the tab with spaces"),
        (format!("{BASE}name: other\n"), 5, 1, "duplicate key `name`"),
        (format!("{PG}  url: http://b\n"), 7, 3, "duplicate key `url`"),
        (format!("{BASE}metrics: [ops_total, ops_totl]\n"), 5, 22, &format!("unknown metric `ops_totl`: {known}")),
        (format!("{BASE}metrics:\n  - ops_total\n  - nope\n"), 7, 5, "unknown metric `nope`"),
        ("name: myops\nverbs: [get, erase]\nresources: [pods]\nscopes: [namespace]\n".into(), 2, 14, "unknown verb `erase`: use one of get, patch, delete"),
        ("name: myops\nverbs: [get]\nresources: [pods]\nscopes: [world]\n".into(), 4, 10, "unknown scope `world`: use one of namespace, cluster"),
        (format!("{PG}  timeout: soon\n"), 7, 12, "`timeout`: invalid duration \"soon\""),
        ("name:\nverbs: [get]\nresources: [pods]\nscopes: [namespace]\n".into(), 1, 5, "missing value for `name`"),
        ("name: myops\nverbs: [get]\nresources: [pods]\n".into(), 3, 1, "missing required key `scopes`"),
        (format!("{BASE}---\n{BASE}"), 6, 1, "one YAML document"),
        ("[]".into(), 1, 1, "must be a mapping"),
        ("null".into(), 1, 1, "must be a mapping"),
    ];
    check(cases, "parse");
}

#[test]
fn semantic_errors_point_at_the_value() {
    let res = |r: &str| format!("name: myops\nverbs: [get]\nresources:{r}\nscopes: [namespace]\n");
    #[rustfmt::skip]
    let cases: &[(String, u64, u64, &str)] = &[
        (BASE.replace("myops", "My_Ops"), 1, 7, "`name` \"My_Ops\" is not a valid label value: use only a-z, 0-9 and '-'"),
        (BASE.replace("myops", "\"\""), 1, 7, "`name` is empty"),
        (BASE.replace("[get]", "[]"), 2, 8, "`verbs` is empty"),
        (res(" []"), 3, 12, "`resources` is empty"),
        (res(" [pods, Deployments]"), 3, 19, "resource \"Deployments\" must be a plural or plural.group"),
        (res("\n  - pods\n  - \"con figmaps\""), 5, 5, "of lowercase letters, digits and '-'"),
        (res(" [pods, \"configmaps.\"]"), 3, 19, "resource \"configmaps.\" must be"),
        (res(" [pods, \"*\"]"), 3, 19, "resource \"*\" must be"),
        (format!("{PG}  job: \"\"\n"), 6, 8, "pushgateway.job must not be empty"),
        (BASE.replace("[namespace]", "[]"), 4, 9, "`scopes` is empty"),
        (PG.replace("http://x", "ftp://x"), 6, 8, "must start with http:// or https://"),
        (format!("{BASE}pushgateway: {{url: \"http://\"}}\n"), 5, 20, "must start with http://"),
        (format!("{PG}  timeout: 0s\n"), 7, 12, "pushgateway.timeout 0ns must be more than 0 and at most 60s"),
        (format!("{PG}  timeout: 61s\n"), 7, 12, "pushgateway.timeout 61s must be"),
    ];
    check(cases, "invalid");
}

#[test]
fn policy_errors_point_at_the_rule_value() {
    let rule = |r: &str| format!("{BASE}policies:\n{r}");
    let ok = "  deny: [/data/*]\n  message: m\n";
    #[rustfmt::skip]
    let cases: &[(String, u64, u64, &str)] = &[
        (rule(&format!("- resource: Secrets\n{ok}")), 6, 13, "policies[0].resource \"Secrets\" must be *, a plural or a plural.group"),
        (rule(&format!("- resource: secrets\n{ok}- resource: \"a..b\"\n{ok}")), 9, 13, "policies[1].resource \"a..b\""),
        // A version in the type name matches no object, so the rule would never apply
        // (a fail-open field policy): refused.
        (rule(&format!("- resource: secrets.v1\n{ok}")), 6, 13, "policies[0].resource \"secrets.v1\" names API version v1, and a rule names a type without its version: write secrets (core and well-known groups) or secrets.GROUP"),
        (rule(&format!("- resource: deployments.v1beta2.apps\n{ok}")), 6, 13, "names API version v1beta2, and a rule names a type without its version: write deployments.apps"),
        (rule("- resource: secrets\n  deny: []\n  message: m\n"), 7, 9, "policies[0].deny is empty"),
        (rule("- resource: secrets\n  deny: [/data/*, data/x]\n  message: m\n"), 7, 19, "policies[0].deny[1]: path \"data/x\" is not a JSON Pointer: start it with /"),
        (rule("- resource: secrets\n  deny:\n  - /data/*\n  - /a/~2\n  message: m\n"), 9, 5, "a `~` must be followed by 0 (for ~) or 1 (for /)"),
        (rule("- resource: secrets\n  deny: [/data/*]\n  allow: [/data/**/x]\n  message: m\n"), 8, 11, "policies[0].allow[0]: path \"/data/**/x\": `**` may only be the last segment"),
        (rule("- resource: secrets\n  deny: [/data/pass*]\n  message: m\n"), 7, 10, "`*` matches a whole segment only"),
        (rule(&format!("- resource: secrets\n  namespaces: [team-*, Prod]\n{ok}")), 7, 24, "policies[0].namespaces: \"Prod\" is not a namespace glob"),
        (rule("- resource: secrets\n  deny: [/data/*]\n  message: \" \"\n"), 8, 12, "policies[0].message is empty"),
    ];
    check(cases, "invalid");
    #[rustfmt::skip]
    let parse_cases: &[(String, u64, u64, &str)] = &[
        (rule("- resource: secrets\n  deny: [/data/*]\n  mesage: m\n"), 8, 3, "unknown key `mesage`: remove it or fix its spelling (allowed here: resource, namespaces, deny, allow, delete, message, exempt)"),
        (rule("- resource: secrets\n  deny: [/data/*]\n"), 7, 3, "missing required key `message`"),
        (rule("- resource: secrets\n  deny: /data/*\n  message: m\n"), 7, 9, "wrong type for `deny`: expected a list"),
    ];
    check(parse_cases, "parse");
    let good = parse(
        &rule("- {resource: \"*\", namespaces: [\"team-*\"], deny: [\"/metadata/annotations/**\"], allow: [/metadata/annotations/example.com~1team], message: owned by CI}\n"),
        Path::new("p.yaml"),
    )
    .unwrap();
    assert_eq!(good.policies.len(), 1);
    assert_eq!(
        good.policies[0].allow,
        ["/metadata/annotations/example.com~1team"]
    );
    // A rule may forbid deleting without any deny path; without either it refuses
    // nothing, and that is an error naming both ways.
    let delete_only = parse(
        &rule("- {resource: namespaces, delete: deny, message: the platform team removes namespaces}\n"),
        Path::new("p.yaml"),
    )
    .unwrap();
    assert_eq!(
        delete_only.policies[0].delete,
        crate::rules::policy::DeletePolicy::Deny
    );
    assert!(delete_only.policies[0].deny.is_empty());
    let e = parse(
        &rule("- {resource: namespaces, delete: allow, message: m}\n"),
        Path::new("p.yaml"),
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("policies[0].deny is empty: list the JSON Pointer paths that may not change, e.g. [\"/data/*\"], or set delete: deny to forbid deleting the objects"),
        "{e}"
    );
    let e = parse(
        &rule("- {resource: namespaces, delete: never, message: m}\n"),
        Path::new("p.yaml"),
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.ends_with("unknown value `never`: use one of allow, deny"),
        "{e}"
    );
}

#[test]
fn odd_inputs_are_errors_not_panics() {
    let deep = "[".repeat(10_000);
    let big = format!("{BASE}pushgateway: {{url: http://x, timeout: 1e300h}}");
    let negative = format!("{BASE}pushgateway: {{url: http://x, timeout: -1s}}");
    #[rustfmt::skip]
    let odd = [
        "---", "[]", "null", "~", "name: [", "name: {", "\"", "- a\n- b", "\u{feff}\u{feff}",
        "\u{0}\u{1}\u{7f}\u{ff}x", "&a [*a]", "name: *nope", "? [a]\n: b", "!!binary AAAA",
        "%YAML 1.2\n---\n", "<<: {name: x}", "name: !!int x", "{{{{{{{{", &deep, &big,
        &negative,
    ];
    for text in odd {
        fail(text);
    }
    let garbage: Vec<u8> = (0..=255u8)
        .cycle()
        .take(2048)
        .map(|b| b.wrapping_mul(37))
        .collect();
    fail(&String::from_utf8_lossy(&garbage));
    // Every prefix of a good file: Ok or Err, never a panic.
    for end in (0..=BUILTIN_TEXT.len()).filter(|i| BUILTIN_TEXT.is_char_boundary(*i)) {
        let _ = parse(&BUILTIN_TEXT[..end], Path::new("p.yaml"));
    }
}
