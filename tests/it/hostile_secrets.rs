//! Bad-input cases, class 1 of issue 10: secrets on an output channel. A credential planted
//! in a kubeconfig, an exec plugin's output, a server URL or a Secret must not be printed,
//! journaled, recorded in the metrics state or pushed (the harness checks every channel for
//! the canary; cases about Secret values check the base64 form too).

use base64::Engine;

use crate::fixture::{Myops, Namespace, Run, kubectl};
use crate::hostile::{CANARY, Case, run_cases, server};

/// A kubeconfig for the test cluster with the given `user:` body (flow YAML).
fn kubeconfig_with_user(server: &str, user: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Config\nclusters: [{{name: c, cluster: {{server: \"{server}\", insecure-skip-tls-verify: true}}}}]\nusers: [{{name: u, user: {user}}}]\ncontexts: [{{name: x, context: {{cluster: c, user: u, namespace: default}}}}]\ncurrent-context: x\n"
    )
}

/// A kubeconfig whose user runs `sh -c SCRIPT` as its exec credential plugin.
fn exec_kubeconfig(script: &str) -> String {
    kubeconfig_with_user(
        &server(),
        &format!(
            "{{exec: {{apiVersion: client.authentication.k8s.io/v1, command: sh, args: [\"-c\", {}], env: [{{name: PLUGIN_SECRET, value: {CANARY}}}], interactiveMode: Never}}}}",
            serde_json::to_string(script).unwrap()
        ),
    )
}

/// `case` run with `kubeconfig` as its only kubeconfig file.
fn with_kubeconfig(case: Case, kubeconfig: String) -> Case {
    case.setup(move |m| {
        let p = m.dir.path().join("kubeconfig");
        std::fs::write(&p, &kubeconfig).unwrap();
        m.set_env("KUBECONFIG", &p.display().to_string());
    })
}

/// The canary's base64 form (how a Secret's `data` holds it).
fn canary_b64() -> String {
    base64::engine::general_purpose::STANDARD.encode(CANARY)
}

/// Fails when the base64 form of the canary is on stderr or in any file under MYOPS_HOME.
fn no_b64_canary(m: &Myops, run: &Run) -> Result<(), String> {
    let b64 = canary_b64();
    if run.stderr.contains(&b64) {
        return Err("base64 canary on stderr".into());
    }
    let journal = m.dir.path().join("myops/changelog.jsonl");
    if std::fs::read_to_string(&journal).is_ok_and(|t| t.contains(&b64)) {
        return Err("base64 canary in the change log".into());
    }
    Ok(())
}

/// `data.k` of Secret `name`, as the real kubectl reads it.
fn secret_value(ns: &str, name: &str) -> String {
    kubectl(&["get", "secret", name, "-n", ns, "-o", "jsonpath={.data.k}"])
}

#[test]
fn secrets_never_reach_an_output_channel() {
    let ns = Namespace::new("hostile-secrets");
    let n = ns.0.clone();
    for s in [
        "rejected", "merged", "string", "jsonop", "denied", "dry", "ann",
    ] {
        kubectl(&[
            "create",
            "secret",
            "generic",
            s,
            "-n",
            &n,
            &format!("--from-literal=k={CANARY}"),
        ]);
    }
    let cred = format!(
        "{{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\",\"status\":{{\"token\":\"{CANARY}\"}}}}"
    );
    let get = ["get", "pods", "-n", "default"];
    let unchanged = |name: &'static str| {
        let n = n.clone();
        move |m: &Myops, r: &Run| {
            no_b64_canary(m, r)?;
            let v = secret_value(&n, name);
            if v == canary_b64() {
                Ok(())
            } else {
                Err(format!("secret {name} changed to {v:?}"))
            }
        }
    };
    let cases = vec![
        // Exec credential plugins that fail, or print a credential the wrong way.
        with_kubeconfig(
            Case::new("exec_plugin_prints_a_token_then_fails", 1)
                .args(&get)
                .stderr_has("credential plugin \"sh\"")
                .stderr_has("exited with status 1"),
            exec_kubeconfig(&format!("echo '{cred}'; exit 1")),
        ),
        with_kubeconfig(
            Case::new("exec_plugin_prints_truncated_json_with_a_token", 1)
                .args(&get)
                .stderr_has("not an ExecCredential"),
            exec_kubeconfig(&format!("echo '{}'", &cred[..cred.len() - 2])),
        ),
        with_kubeconfig(
            Case::new("exec_plugin_prints_yaml_garbage_with_a_token", 1)
                .args(&get)
                .stderr_has("credential plugin"),
            exec_kubeconfig(&format!("printf 'token: {CANARY}\\n  - : ]['")),
        ),
        with_kubeconfig(
            Case::new("exec_plugin_prints_a_token_to_stderr_and_fails", 1)
                .args(&get)
                .stderr_has("exited with status 3"),
            exec_kubeconfig(&format!("echo 'bad {CANARY}' >&2; exit 3")),
        ),
        with_kubeconfig(
            Case::new("exec_plugin_prints_a_megabyte_with_a_token_and_fails", 1)
                .args(&get)
                .stderr_has("credential plugin"),
            exec_kubeconfig(&format!(
                "head -c 1000000 /dev/zero | tr '\\0' a; echo {CANARY}; exit 1"
            )),
        ),
        with_kubeconfig(
            Case::new("exec_plugin_prints_binary_with_a_token", 1)
                .args(&get)
                .stderr_has("credential plugin"),
            exec_kubeconfig(&format!("printf '\\377\\376{CANARY}\\033[2J'")),
        ),
        with_kubeconfig(
            Case::new("exec_plugin_prints_a_credential_without_status", 1)
                .args(&get)
                .stderr_has("credential plugin"),
            exec_kubeconfig(
                "echo '{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\"}'",
            ),
        ),
        with_kubeconfig(
            // kube-rs sends no credential then; the server names the anonymous user.
            Case::new("exec_plugin_prints_a_token_under_the_wrong_field", 3)
                .args(&get)
                .stderr_has("system:anonymous"),
            exec_kubeconfig(&format!(
                "echo '{{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\",\"status\":{{\"tokne\":\"{CANARY}\"}}}}'"
            )),
        ),
        with_kubeconfig(
            Case::new("exec_plugin_is_killed_by_a_signal", 1)
                .args(&get)
                .stderr_has("killed by a signal"),
            exec_kubeconfig(&format!("echo {CANARY}; kill -9 $$")),
        ),
        with_kubeconfig(
            Case::new("exec_plugin_echoes_its_secret_environment_and_fails", 1)
                .args(&get)
                .stderr_has("credential plugin"),
            exec_kubeconfig("echo $PLUGIN_SECRET; exit 1"),
        ),
        with_kubeconfig(
            Case::new("exec_plugin_never_answers", 1)
                .args(&["get", "pods", "--request-timeout", "1s"])
                .stderr_has("did not answer"),
            exec_kubeconfig(&format!("sleep 30 # {CANARY}")),
        ),
        with_kubeconfig(
            Case::new("exec_plugin_executable_is_missing", 1)
                .args(&get)
                .stderr_has("could not be started"),
            kubeconfig_with_user(
                &server(),
                &format!(
                    "{{exec: {{apiVersion: client.authentication.k8s.io/v1, command: /nonexistent/{CANARY}-plugin, interactiveMode: Never}}}}"
                ),
            )
            .replace(&format!("/nonexistent/{CANARY}-plugin"), "/nonexistent/plugin"),
        ),
        // Passwords in server URLs.
        Case::new("server_url_password_in_cannot_reach_error", 1)
            .args(&["get", "pods", "-s", "https://user:{canary}@127.0.0.1:1"])
            .stderr_has("cannot reach the API server https://127.0.0.1:1"),
        Case::new("server_url_password_in_verbose_trace", 1)
            .args(&[
                "get",
                "pods",
                "-v",
                "9",
                "-s",
                "https://user:{canary}@127.0.0.1:1",
            ])
            .stderr_has("cannot reach"),
        with_kubeconfig(
            Case::new("kubeconfig_server_url_password_in_cannot_reach_error", 1)
                .args(&get)
                .stderr_has("cannot reach"),
            kubeconfig_with_user(&format!("https://u:{CANARY}@127.0.0.1:1"), "{token: x}"),
        ),
        Case::new("server_url_password_in_the_change_log_server_field", 0)
            .args(&[
                "patch",
                "secret",
                "ann",
                "-n",
                &n,
                "--type",
                "merge",
                "-p",
                "{\"metadata\":{\"annotations\":{\"a\":\"b\"}}}",
                "-s",
                "{env:MYOPS_TEST_SERVER}",
            ])
            .setup(|m| {
                // The same server with a password in its URL: the apiserver ignores it.
                let url = server().replace("https://", &format!("https://user:{CANARY}@"));
                m.set_env("MYOPS_TEST_SERVER", &url);
            })
            .after(|m, _| {
                let log = std::fs::read_to_string(m.dir.path().join("myops/changelog.jsonl"))
                    .map_err(|e| format!("no change log: {e}"))?;
                if log.contains(&server()) {
                    Ok(())
                } else {
                    Err(format!("the log does not name the server: {log}"))
                }
            }),
        // Tokens and passwords from flags and kubeconfig.
        Case::new("token_flag_in_verbose_trace_of_a_refused_connection", 1)
            .args(&[
                "get",
                "pods",
                "-v",
                "9",
                "--token",
                "{canary}",
                "-s",
                "https://127.0.0.1:1",
            ])
            .stderr_has("cannot reach"),
        Case::new("token_flag_rejected_by_the_server", 1)
            .args(&[
                "get",
                "pods",
                "-v",
                "9",
                "--token",
                "{canary}",
                "-s",
                "{server}",
                "--insecure-skip-tls-verify",
            ])
            .stderr_has("Unauthorized"),
        with_kubeconfig(
            Case::new("kubeconfig_token_rejected_by_the_server_with_trace", 1)
                .args(&["get", "pods", "-v", "9"])
                .stderr_has("Unauthorized"),
            kubeconfig_with_user(&server(), &format!("{{token: {CANARY}}}")),
        ),
        with_kubeconfig(
            // kube-apiserver has no basic auth since 1.19: the request is anonymous.
            Case::new("kubeconfig_basic_auth_password_is_not_sent_as_a_token", 3)
                .args(&["get", "pods", "-v", "9"])
                .stderr_has("system:anonymous"),
            kubeconfig_with_user(&server(), &format!("{{username: u, password: {CANARY}}}")),
        ),
        with_kubeconfig(
            Case::new("kubeconfig_user_is_a_token_string_not_a_map", 2)
                .args(&get)
                .stderr_has("kubeconfig"),
            kubeconfig_with_user(&server(), CANARY),
        ),
        with_kubeconfig(
            Case::new("kubeconfig_token_in_broken_yaml", 2)
                .args(&get)
                .stderr_has("kubeconfig"),
            kubeconfig_with_user(&server(), &format!("{{token: [{CANARY}}}")),
        ),
        with_kubeconfig(
            Case::new("kubeconfig_token_list_instead_of_string", 2)
                .args(&get)
                .stderr_has("kubeconfig"),
            kubeconfig_with_user(&server(), &format!("{{token: [{CANARY}]}}")),
        ),
        Case::new("kubeconfig_token_file_rejected_by_the_server", 1)
            .args(&["get", "pods", "-v", "9"])
            .stderr_has("Unauthorized")
            .setup(|m| {
                let tf = m.dir.path().join("token");
                std::fs::write(&tf, format!("{CANARY}\n")).unwrap();
                let kc = kubeconfig_with_user(
                    &server(),
                    &format!("{{tokenFile: {}}}", tf.display()),
                );
                let p = m.dir.path().join("kubeconfig");
                std::fs::write(&p, kc).unwrap();
                m.set_env("KUBECONFIG", &p.display().to_string());
            }),
        // Named in KUBECONFIG, so read once (a `<(…)`), but not past the deadline.
        Case::new("kubeconfig_is_a_fifo", 2)
            .args(&["get", "pods", "-n", "default", "--request-timeout", "1s"])
            .stderr_has("it is a FIFO (named pipe) and nothing wrote to it and closed it within 1s")
            .setup(|m| {
                let p = m.dir.path().join("kc.fifo");
                assert!(
                    std::process::Command::new("mkfifo")
                        .arg(&p)
                        .status()
                        .unwrap()
                        .success()
                );
                m.set_env("KUBECONFIG", &p.display().to_string());
            }),
        Case::new("pushgateway_env_url_with_a_password_is_refused_unechoed", 2)
            .args(&get)
            .stderr_has("$MYOPS_PUSHGATEWAY must not hold a user name or password")
            .setup(|m| {
                m.set_env(
                    "MYOPS_PUSHGATEWAY",
                    &format!("http://user:{CANARY}@127.0.0.1:1"),
                );
            }),
        Case::new("pushgateway_flag_url_with_a_token_in_the_query_is_refused_unechoed", 2)
            .args(&[
                "get",
                "pods",
                "--pushgateway",
                "http://127.0.0.1:1/p?token={canary}#{canary}",
            ])
            .stderr_has("--pushgateway must not have a query or fragment"),
        // Secret values in patches and in server messages.
        Case::new("secret_patch_rejected_quotes_the_whole_secret", 2)
            .args(&[
                "patch",
                "secret",
                "rejected",
                "-n",
                &n,
                "--type",
                "merge",
                "-p",
                "{\"data\":{\"x\":\"not base64!\"}}",
            ])
            .stderr_has("illegal base64")
            .after(unchanged("rejected")),
        Case::new("secret_patch_with_a_new_value_is_journaled_redacted", 0)
            .args_owned(
                [
                    "patch",
                    "secret",
                    "merged",
                    "-n",
                    &n,
                    "--type",
                    "merge",
                    "-p",
                    &format!(
                        "{{\"data\":{{\"k2\":\"{}\"}}}}",
                        base64::engine::general_purpose::STANDARD.encode(format!("{CANARY}2"))
                    ),
                ]
                .map(String::from)
                .to_vec(),
            )
            .after(no_b64_canary),
        Case::new("secret_string_data_patch_is_journaled_redacted", 0)
            .args(&[
                "patch",
                "secret",
                "string",
                "-n",
                &n,
                "--type",
                "merge",
                "-p",
                "{\"stringData\":{\"k3\":\"{canary}\"}}",
            ])
            .after(no_b64_canary),
        Case::new("secret_json_patch_value_is_journaled_redacted", 2)
            .args(&[
                "patch",
                "secret",
                "jsonop",
                "-n",
                &n,
                "--type",
                "json",
                "-p",
                "[{\"op\":\"test\",\"path\":\"/data/k\",\"value\":\"{canary}\"}]",
            ])
            .after(unchanged("jsonop")),
        Case::new("secret_patch_denied_by_rbac_echoes_no_value", 3)
            .args(&[
                "patch",
                "secret",
                "denied",
                "-n",
                &n,
                "--context",
                "alice",
                "--type",
                "merge",
                "-p",
                "{\"stringData\":{\"k\":\"{canary}\"}}",
            ])
            .stderr_has("alice")
            .after(unchanged("denied")),
        Case::new("secret_patch_client_dry_run_prints_no_value", 0)
            .args(&[
                "patch",
                "secret",
                "dry",
                "-n",
                &n,
                "--dry-run=client",
                "--type",
                "merge",
                "-p",
                "{\"stringData\":{\"k\":\"{canary}\"}}",
            ])
            .after(unchanged("dry")),
    ];
    run_cases("secrets", cases);
}
