//! Bad-input cases found by trying the finished issue-10 build as a hostile user would (a
//! second pass after the suite): each case is named after the failure it reproduced.

use crate::fixture::{Myops, Namespace, Run, kubectl};
use crate::hostile::{CANARY, Case, run_cases, server};

fn mkfifo(p: &std::path::Path) {
    assert!(
        std::process::Command::new("mkfifo")
            .arg(p)
            .status()
            .unwrap()
            .success()
    );
}

/// A kubeconfig for the test cluster whose user is `user` (flow YAML), at `dir/kubeconfig`.
fn kubeconfig(m: &mut Myops, cluster_extra: &str, user: &str) {
    let text = format!(
        "apiVersion: v1\nkind: Config\nclusters: [{{name: c, cluster: {{server: \"{}\"{cluster_extra}}}}}]\nusers: [{{name: u, user: {user}}}]\ncontexts: [{{name: x, context: {{cluster: c, user: u, namespace: default}}}}]\ncurrent-context: x\n",
        server()
    );
    let p = m.dir.path().join("kubeconfig");
    std::fs::write(&p, text).unwrap();
    m.set_env("KUBECONFIG", &p.display().to_string());
}

fn one_stderr_line(_m: &Myops, r: &Run) -> Result<(), String> {
    match r.stderr.lines().count() {
        1 => Ok(()),
        n => Err(format!("{n} lines on stderr")),
    }
}

#[test]
fn second_pass_hostile_inputs_fail_cleanly() {
    let ns = Namespace::new("hostile-second");
    let n = ns.0.clone();
    kubectl(&[
        "create",
        "configmap",
        "replaced",
        "-n",
        &n,
        "--from-literal=k=orig",
    ]);
    kubectl(&[
        "create",
        "configmap",
        "locked",
        "-n",
        &n,
        "--from-literal=k=orig",
    ]);
    let marker = format!("plugin-marker-{}", std::process::id());
    let cases = vec![
        Case::new("certificate_authority_flag_is_a_fifo_hangs_the_client", 2)
            .args(&["get", "pods", "--certificate-authority", "{dir}/ca.fifo"])
            .stderr_has("certificate file")
            .stderr_has("not a regular file")
            .deadline(std::time::Duration::from_secs(15))
            .setup(|m| mkfifo(&m.dir.path().join("ca.fifo"))),
        Case::new("kubeconfig_client_key_is_a_fifo_hangs_the_client", 2)
            .args(&["get", "pods"])
            .stderr_has("not a regular file")
            .deadline(std::time::Duration::from_secs(15))
            .setup(|m| {
                let d = m.dir.path().to_path_buf();
                mkfifo(&d.join("key.fifo"));
                std::fs::write(d.join("cert.pem"), "not a cert").unwrap();
                let user = format!(
                    "{{client-certificate: {}, client-key: {}}}",
                    d.join("cert.pem").display(),
                    d.join("key.fifo").display()
                );
                kubeconfig(m, ", insecure-skip-tls-verify: true", &user);
            }),
        Case::new("kubeconfig_certificate_authority_is_a_directory", 2)
            .args(&["get", "pods"])
            .stderr_has("not a regular file")
            .setup(|m| {
                let ca = format!(", certificate-authority: {}", m.dir.path().display());
                kubeconfig(m, &ca, &format!("{{token: {CANARY}}}"));
            }),
        Case::new("impersonated_user_with_an_escape_sequence_blames_tls_files", 2)
            .args(&["get", "pods", "--as", "x\u{1b}[31mred"])
            .stderr_has("--as \"x\\u{1b}[31mred\" cannot be sent"),
        Case::new("impersonated_group_with_a_newline_blames_tls_files", 2)
            .args(&["get", "pods", "--as", "alice", "--as-group", "g\nx"])
            .stderr_has("--as-group"),
        Case::new("home_and_myops_home_unset_journal_goes_to_the_cwd", 2)
            .args(&["changelog", "list"])
            .stderr_has("neither MYOPS_HOME nor HOME is set")
            .setup(|m| m.env.retain(|(k, _)| k != "HOME" && k != "MYOPS_HOME")),
        Case::new("metrics_lock_dangling_symlink_creates_a_file_elsewhere", 0)
            .args(&["get", "pods", "-n", "default"])
            .stderr_has("is a symbolic link")
            .setup(|m| {
                let home = m.dir.path().join("myops");
                std::fs::create_dir_all(&home).unwrap();
                std::os::unix::fs::symlink(
                    m.dir.path().join("elsewhere"),
                    home.join("metrics-state.lock"),
                )
                .unwrap();
            })
            .after(|m, _| {
                if m.dir.path().join("elsewhere").exists() {
                    Err("the link's target was created".into())
                } else {
                    Ok(())
                }
            }),
        Case::new("changelog_lock_dangling_symlink_creates_a_file_elsewhere", 1)
            .args(&[
                "patch",
                "configmap",
                "locked",
                "-n",
                &n,
                "--type",
                "merge",
                "-p",
                "{\"data\":{\"x\":\"y\"}}",
            ])
            .stderr_has("is a symbolic link")
            .setup(|m| {
                let home = m.dir.path().join("myops");
                std::fs::create_dir_all(&home).unwrap();
                std::os::unix::fs::symlink(
                    m.dir.path().join("elsewhere"),
                    home.join("changelog.lock"),
                )
                .unwrap();
            })
            .after({
                let n = n.clone();
                move |m, _| {
                    let x = kubectl(&[
                        "get",
                        "configmap",
                        "locked",
                        "-n",
                        &n,
                        "-o",
                        "jsonpath={.data.x}",
                    ]);
                    if m.dir.path().join("elsewhere").exists() {
                        Err("the link's target was created".into())
                    } else if !x.is_empty() {
                        Err("the patch was sent without a journal".into())
                    } else {
                        Ok(())
                    }
                }
            }),
        Case::new("usage_error_is_a_multi_line_block", 2)
            .args(&["get", "pods", "--bogus"])
            .stderr_has("unexpected argument '--bogus'")
            .after(one_stderr_line),
        Case::new("missing_type_usage_error_is_a_multi_line_block", 2)
            .args(&["get"])
            .stderr_has("usage: kubectl-myops get")
            .after(one_stderr_line),
        Case::new("verbosity_level_is_taken_as_an_object_name", 1)
            .args(&["get", "pods", "-v", "9", "-s", "https://127.0.0.1:1"])
            .stderr_has("cannot reach the API server"),
        Case::new("exec_plugin_that_timed_out_keeps_running", 1)
            .args(&["get", "pods", "--request-timeout", "1s"])
            .stderr_has("did not answer within 1s")
            .setup({
                let marker = marker.clone();
                move |m| {
                    let user = format!(
                        "{{exec: {{apiVersion: client.authentication.k8s.io/v1, command: sh, args: [\"-c\", \"sleep 20 # {marker}\"], interactiveMode: Never}}}}"
                    );
                    kubeconfig(m, ", insecure-skip-tls-verify: true", &user);
                }
            })
            .after({
                let marker = marker.clone();
                move |_, _| {
                    std::thread::sleep(std::time::Duration::from_millis(300));
                    let alive = std::process::Command::new("pgrep")
                        .args(["-f", &marker])
                        .output()
                        .unwrap();
                    if alive.stdout.is_empty() {
                        Ok(())
                    } else {
                        Err(format!(
                            "the plugin is still running: {}",
                            String::from_utf8_lossy(&alive.stdout)
                        ))
                    }
                }
            }),
        Case::new("rollback_onto_a_recreated_object_writes_into_it_with_force", 4)
            .args(&["rollback", "{env:ENTRY_ID}", "--force"])
            .stderr_has("no longer exists: the object there now is another one")
            .setup({
                let n = n.clone();
                move |m| {
                    let r = m.run(&[
                        "patch",
                        "configmap",
                        "replaced",
                        "-n",
                        &n,
                        "--type",
                        "merge",
                        "-p",
                        "{\"data\":{\"k\":\"new\"}}",
                    ]);
                    assert_eq!(r.code, 0, "{}", r.stderr);
                    let log = std::fs::read_to_string(m.dir.path().join("myops/changelog.jsonl"))
                        .unwrap();
                    let last: serde_json::Value =
                        serde_json::from_str(log.lines().last().unwrap()).unwrap();
                    m.set_env("ENTRY_ID", last["id"].as_str().unwrap());
                    kubectl(&["delete", "configmap", "replaced", "-n", &n]);
                    kubectl(&[
                        "create",
                        "configmap",
                        "replaced",
                        "-n",
                        &n,
                        "--from-literal=k=other",
                    ]);
                }
            })
            .after({
                let n = n.clone();
                move |_, _| {
                    let k = kubectl(&[
                        "get",
                        "configmap",
                        "replaced",
                        "-n",
                        &n,
                        "-o",
                        "jsonpath={.data.k}",
                    ]);
                    if k == "other" {
                        Ok(())
                    } else {
                        Err(format!("the new object was written: k={k}"))
                    }
                }
            }),
    ];
    run_cases("second-pass", cases);
}
