//! Third bad-input pass: a kuberc given explicitly (`--kuberc`) that is malformed, huge, a
//! directory or a YAML bomb, and DenyAll/Allowlist policies facing an exec credential plugin
//! that must then never start.

use crate::fixture::{Myops, Namespace, Run};
use crate::hostile::{CANARY, Case, run_cases};
use crate::hostile_round3::{ca_data, live};

/// A kubeconfig whose user runs the exec plugin `dir/bin/sso-login`, which leaves a marker
/// file when started and prints a credential holding the canary.
fn exec_kubeconfig(m: &mut Myops) {
    use std::os::unix::fs::PermissionsExt;
    let d = m.dir.path().to_path_buf();
    std::fs::create_dir_all(d.join("bin")).unwrap();
    let plugin = d.join("bin/sso-login");
    std::fs::write(
        &plugin,
        format!(
            "#!/bin/sh\ntouch '{}'\necho '{{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\",\"status\":{{\"token\":\"{CANARY}\"}}}}'\n",
            d.join("plugin-ran").display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&plugin, std::fs::Permissions::from_mode(0o755)).unwrap();
    let text = format!(
        "apiVersion: v1\nkind: Config\nclusters: [{{name: c, cluster: {{server: \"{}\", certificate-authority-data: {}}}}}]\nusers: [{{name: u, user: {{exec: {{apiVersion: client.authentication.k8s.io/v1, command: {}, interactiveMode: Never}}}}}}]\ncontexts: [{{name: x, context: {{cluster: c, user: u, namespace: default}}}}]\ncurrent-context: x\n",
        live(),
        ca_data(),
        plugin.display()
    );
    std::fs::write(d.join("kubeconfig"), text).unwrap();
    m.set_env("KUBECONFIG", &d.join("kubeconfig").display().to_string());
}

fn never_ran(m: &Myops, _r: &Run) -> Result<(), String> {
    if m.dir.path().join("plugin-ran").exists() {
        Err("the credential plugin was started".into())
    } else {
        Ok(())
    }
}

/// `get pods` with `--kuberc {dir}/kuberc` holding `text`, the user an exec plugin.
fn kuberc_case(name: &str, text: &str, needle: &str) -> Case {
    let text = text.to_string();
    Case::new(name, 2)
        .args(&["get", "pods", "-n", "default", "--kuberc", "{dir}/kuberc"])
        .stderr_has(needle)
        .setup(move |m| {
            exec_kubeconfig(m);
            std::fs::write(m.dir.path().join("kuberc"), &text).unwrap();
        })
        .after(never_ran)
}

const HEAD: &str = "apiVersion: kubectl.config.k8s.io/v1beta1\nkind: Preference\n";

fn bomb() -> String {
    let mut s = String::from(HEAD);
    s.push_str("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..12 {
        s.push_str(&format!(
            "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n",
            p = i - 1
        ));
    }
    s.push_str("credentialPluginPolicy: DenyAll\n");
    s
}

#[test]
fn hostile_round3_kuberc_that_cannot_be_trusted_never_starts_a_plugin() {
    let ns = Namespace::new("hostile-r3-kuberc");
    let cases = vec![
        kuberc_case(
            "kuberc_deny_all_still_starts_the_plugin",
            &format!("{HEAD}credentialPluginPolicy: DenyAll\n"),
            "DenyAll",
        ),
        kuberc_case(
            "kuberc_allowlist_without_the_plugin_starts_it",
            &format!(
                "{HEAD}credentialPluginPolicy: Allowlist\ncredentialPluginAllowlist:\n- command: gke-gcloud-auth-plugin\n"
            ),
            "credentialPluginAllowlist",
        ),
        kuberc_case(
            "kuberc_allowlist_empty_allows_everything",
            &format!("{HEAD}credentialPluginPolicy: Allowlist\ncredentialPluginAllowlist: []\n"),
            "the allowlist is empty",
        ),
        kuberc_case(
            "kuberc_allowlist_glob_matches_any_plugin",
            &format!(
                "{HEAD}credentialPluginPolicy: Allowlist\ncredentialPluginAllowlist:\n- command: \"*\"\n"
            ),
            "credentialPluginAllowlist",
        ),
        kuberc_case(
            "kuberc_allowlist_basename_of_another_directory_matches",
            &format!(
                "{HEAD}credentialPluginPolicy: Allowlist\ncredentialPluginAllowlist:\n- command: /usr/local/bin/sso-login\n"
            ),
            "credentialPluginAllowlist",
        ),
        kuberc_case(
            "kuberc_policy_in_lower_case_allows_all",
            &format!("{HEAD}credentialPluginPolicy: denyall\n"),
            "denyall",
        ),
        kuberc_case(
            "kuberc_policy_a_list_is_ignored",
            &format!("{HEAD}credentialPluginPolicy: [DenyAll]\n"),
            "credentialPluginPolicy",
        ),
        kuberc_case(
            "kuberc_v1alpha1_policy_is_ignored_and_the_plugin_runs",
            "apiVersion: kubectl.config.k8s.io/v1alpha1\nkind: Preference\ncredentialPluginPolicy: DenyAll\n",
            "v1alpha1",
        ),
        kuberc_case(
            "kuberc_malformed_yaml_allows_all",
            &format!("{HEAD}credentialPluginPolicy: DenyAll\n  - : [\n\t{{{{\n"),
            "kuberc",
        ),
        kuberc_case(
            "kuberc_not_utf8_allows_all",
            "\u{0}\u{1b}[2J\u{fffd}",
            "kuberc",
        ),
        kuberc_case(
            "kuberc_wrong_kind_is_read_as_a_preference",
            "apiVersion: v1\nkind: Secret\ncredentialPluginPolicy: AllowAll\n",
            "kuberc",
        ),
        kuberc_case("kuberc_yaml_alias_bomb_exhausts_memory", &bomb(), "kuberc")
            .deadline(std::time::Duration::from_secs(15)),
        Case::new("kuberc_of_20_mb_is_read_whole", 2)
            .args(&["get", "pods", "-n", "default", "--kuberc", "{dir}/kuberc"])
            .stderr_has("kuberc")
            .deadline(std::time::Duration::from_secs(15))
            .setup(|m| {
                exec_kubeconfig(m);
                let mut s = format!("{HEAD}credentialPluginPolicy: DenyAll\n# ");
                s.push_str(&"x".repeat(20 << 20));
                std::fs::write(m.dir.path().join("kuberc"), s).unwrap();
            })
            .after(never_ran),
        Case::new("kuberc_a_directory_allows_all", 2)
            .args(&["get", "pods", "-n", "default", "--kuberc", "{dir}"])
            .stderr_has("kuberc")
            .setup(exec_kubeconfig)
            .after(never_ran),
    ];
    run_cases("round3-kuberc", cases);
    drop(ns);
}
