//! Third bad-input pass: plugin.yaml field policies (`policies:`, `delete: deny`) written
//! wrong or attacking the terminal, and refusals that must leave the object as it was.

use crate::fixture::{Namespace, cluster, kubectl};
use crate::hostile::{Case, run_cases};
use crate::hostile_round3::{cm_is, configmap, no_raw_escape};

/// A plugin.yaml allowing get, patch and delete of ConfigMaps, with `policies` appended.
pub fn with_policies(policies: &str) -> String {
    format!(
        "name: myops\nverbs: [get, patch, delete]\nresources: [pods, configmaps, secrets, namespaces, customresourcedefinitions]\nscopes: [namespace, cluster]\nmetrics: [ops_total]\npushgateway:\n  url: {}\n  job: hostile-round3-policies\n  instance: hostile\n  timeout: 1s\n{policies}",
        cluster().pushgateway
    )
}

fn patch_k(ns: &str, name: &str, v: &str) -> Vec<String> {
    [
        "patch",
        "configmap",
        name,
        "-n",
        ns,
        "--type",
        "merge",
        "-p",
        &format!("{{\"data\":{{\"k\":\"{v}\"}}}}"),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// A plugin.yaml with a bad `policies:` block: `config validate` must refuse it, exit 2.
fn bad_rule(name: &str, policies: &str, needle: &str) -> Case {
    Case::new(name, 2)
        .args(&["config", "validate"])
        .stderr_has(needle)
        .plugin(&with_policies(policies))
}

#[test]
fn hostile_round3_policies_written_wrong_or_refusing_fail_cleanly() {
    let ns = Namespace::new("hostile-r3-pol");
    let n = ns.0.clone();
    for name in ["guarded", "esc", "parent", "undeletable", "undeletable-dry"] {
        configmap(&n, name, "orig");
    }
    let data_rule = "policies:\n- resource: configmaps\n  deny: [\"/data/*\"]\n  delete: deny\n  message: config changes through the pipeline\n";
    let mut cases = vec![
        bad_rule(
            "policy_deny_path_without_a_leading_slash_is_taken",
            "policies:\n- resource: configmaps\n  deny: [\"data/k\"]\n  message: m\n",
            "data/k",
        ),
        bad_rule(
            "policy_resource_with_an_api_version_never_applies",
            "policies:\n- resource: configmaps.v1\n  deny: [\"/data/*\"]\n  message: m\n",
            "configmaps.v1",
        ),
        bad_rule(
            "policy_with_neither_deny_nor_delete_refuses_nothing",
            "policies:\n- resource: configmaps\n  message: nothing\n",
            "policies[0]",
        ),
        bad_rule(
            "policy_delete_maybe_is_read_as_allow",
            "policies:\n- resource: configmaps\n  delete: maybe\n  message: m\n",
            "maybe",
        ),
        bad_rule(
            "policy_deny_path_with_a_bad_tilde_escape_is_taken",
            "policies:\n- resource: configmaps\n  deny: [\"/data/a~2b\"]\n  message: m\n",
            "~",
        ),
        bad_rule(
            "policies_a_map_instead_of_a_list_is_ignored",
            "policies:\n  resource: configmaps\n  deny: [\"/data/*\"]\n  message: m\n",
            "policies",
        ),
        bad_rule(
            "policy_namespaces_a_string_not_a_list_matches_everything",
            "policies:\n- resource: configmaps\n  namespaces: prod-*\n  deny: [\"/data/*\"]\n  message: m\n",
            "namespaces",
        ),
        bad_rule(
            "policy_deny_a_map_instead_of_a_path_is_ignored",
            "policies:\n- resource: configmaps\n  deny: [{path: /data/k}]\n  message: m\n",
            "wrong type",
        ),
        Case::new("policy_refusal_still_changes_the_object", 3)
            .args_owned(patch_k(&n, "guarded", "changed"))
            .stderr_has("policies[0]")
            .stderr_has("/data/k")
            .plugin(&with_policies(data_rule))
            .after(cm_is(&n, "guarded", "orig")),
        Case::new("policy_message_with_escape_sequences_reaches_the_terminal_raw", 3)
            .args_owned(patch_k(&n, "esc", "changed"))
            .stderr_has("policies[0]")
            .plugin(&with_policies(
                "policies:\n- resource: configmaps\n  deny: [\"/data/*\"]\n  message: \"owned \\e[2J\\e]0;pwned\\a by the pipeline\"\n",
            ))
            .after({
                let check = cm_is(&n, "esc", "orig");
                move |m, r| {
                    no_raw_escape(m, r)?;
                    check(m, r)
                }
            }),
        Case::new("policy_denied_parent_removed_by_a_json_patch_slips_through", 3)
            .args(&[
                "patch",
                "configmap",
                "parent",
                "-n",
                &n,
                "--type",
                "json",
                "-p",
                "[{\"op\":\"remove\",\"path\":\"/data\"}]",
            ])
            .stderr_has("/data/k")
            .plugin(&with_policies(data_rule))
            .after(cm_is(&n, "parent", "orig")),
        Case::new("policy_delete_deny_still_deletes_the_object", 3)
            .args(&["delete", "configmap", "undeletable", "-n", &n])
            .stderr_has("forbids deleting it")
            .plugin(&with_policies(data_rule))
            .after(cm_is(&n, "undeletable", "orig")),
        Case::new("policy_delete_deny_with_dry_run_server_sends_the_delete", 3)
            .args(&[
                "delete",
                "configmap",
                "undeletable-dry",
                "-n",
                &n,
                "--dry-run=server",
            ])
            .stderr_has("forbids deleting it")
            .plugin(&with_policies(data_rule))
            .after(cm_is(&n, "undeletable-dry", "orig")),
    ];
    // A deny path 5,000 segments deep: the CEL of it overflowed the parser's stack and
    // aborted the process (exit 134) in `config validate` and `policies export`.
    let deep = format!(
        "policies:\n- resource: configmaps\n  deny: [\"{}\"]\n  message: m\n",
        "/a".repeat(5000)
    );
    cases.push(
        Case::new(
            "policy_deny_path_5000_segments_deep_aborts_config_validate",
            0,
        )
        .args(&["config", "validate"])
        .stderr_has("too deep to compile")
        .plugin(&with_policies(&deep)),
    );
    cases.push(
        Case::new(
            "policy_deny_path_5000_segments_deep_aborts_policies_export",
            2,
        )
        .args(&["policies", "export"])
        .stderr_has("too deep to compile")
        .plugin(&with_policies(&deep)),
    );
    run_cases("round3-policies", cases);
    let left = kubectl(&["get", "configmaps", "-n", &n, "-o", "name"]);
    assert!(left.contains("configmap/undeletable\n"), "{left}");
    drop(ns);
}
