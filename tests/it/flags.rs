//! kubectl's connection and `--dry-run` flags, and the kuberc credential plugin policy
//! (issue 11, item 4), against the real cluster with the real kubectl as the oracle.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use myops::cli::{DryRun, DryRunFlag};

use super::fixture::{Myops, Namespace, Run, cluster, kubectl, root};

/// The real kubectl with a given environment on top of a clean one (HOME, KUBECONFIG, …).
pub(crate) fn real_kubectl(env: &[(&str, &str)], args: &[&str]) -> Run {
    Command::new(root().join("target/testbin/kubectl"))
        .args(args)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("KUBECONFIG", &cluster().kubeconfig)
        .env("HOME", std::env::temp_dir().join("myops-test-kubectl-home"))
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .output()
        .expect("target/testbin/kubectl runs")
        .into()
}

/// kubectl's klog warning lines (`W1202 00:10:17.123456  1234 helpers.go:725] TEXT`) as
/// `warning: TEXT`, the form this tool prints.
fn klog_warnings(stderr: &str) -> Vec<String> {
    stderr
        .lines()
        .filter(|l| l.starts_with('W'))
        .filter_map(|l| l.split_once("] ").map(|(_, t)| format!("warning: {t}")))
        .collect()
}

fn warnings(stderr: &str) -> Vec<String> {
    stderr
        .lines()
        .filter(|l| l.starts_with("warning: "))
        .map(str::to_string)
        .collect()
}

#[test]
fn dry_run_values_parse_as_kubectl_get_dry_run_strategy() {
    let ok = |v: &str| DryRunFlag::parse(v).unwrap();
    for v in ["1", "t", "T", "TRUE", "true", "True"] {
        let f = ok(v);
        assert_eq!(f.strategy, DryRun::Client, "{v}");
        assert_eq!(
            f.warning.as_deref(),
            Some(
                format!("--dry-run={v} is deprecated (boolean value) and can be replaced with --dry-run=client.")
                    .as_str()
            )
        );
    }
    for v in ["0", "f", "F", "FALSE", "false", "False"] {
        let f = ok(v);
        assert_eq!(f.strategy, DryRun::None, "{v}");
        assert!(f.warning.unwrap().ends_with("--dry-run=none."), "{v}");
    }
    assert_eq!(
        ok("unchanged"),
        DryRunFlag {
            strategy: DryRun::Client,
            warning: Some(
                "--dry-run is deprecated and can be replaced with --dry-run=client.".into()
            )
        }
    );
    for (v, s) in [
        ("client", DryRun::Client),
        ("server", DryRun::Server),
        ("none", DryRun::None),
    ] {
        assert_eq!(
            ok(v),
            DryRunFlag {
                strategy: s,
                warning: None
            }
        );
    }
    for bad in ["", "yes", "Server", "tRUE"] {
        let e = DryRunFlag::parse(bad).unwrap_err();
        assert!(
            e.starts_with(&format!(
                "Invalid dry-run value ({bad}). Must be \"none\", \"server\", or \"client\"."
            )),
            "{e}"
        );
    }
    let e = DryRunFlag::parse("\u{1b}[2J").unwrap_err();
    assert!(!e.contains('\u{1b}'), "{e}");
}

/// The pod's `app` label, as the real kubectl reads it.
fn app_label(ns: &str) -> String {
    kubectl(&[
        "get",
        "pod",
        "web-1",
        "-n",
        ns,
        "-o",
        "jsonpath={.metadata.labels.app}",
    ])
}

#[test]
fn bare_and_boolean_dry_run_warn_like_kubectl_and_leave_the_object_unchanged() {
    let ns = Namespace::new("flags-dry-run");
    ns.pod("web-1");
    let m = Myops::standard("flags-dry-run");
    let patch = r#"{"metadata":{"labels":{"app":"changed"}}}"#;
    for flag in [
        "--dry-run",
        "--dry-run=true",
        "--dry-run=T",
        "--dry-run=unchanged",
    ] {
        let args = [
            "patch", "pod", "web-1", "-n", &ns.0, "--type", "merge", "-p", patch, flag,
        ];
        let ours = m.run(&args);
        let theirs = real_kubectl(&[], &args);
        assert_eq!(
            (ours.code, theirs.code),
            (0, 0),
            "{flag}: {ours:?} {theirs:?}"
        );
        assert_eq!(
            warnings(&ours.stderr),
            klog_warnings(&theirs.stderr),
            "{flag}"
        );
        assert_eq!(warnings(&ours.stderr).len(), 1, "printed once: {flag}");
        // The same output as an explicit --dry-run=client, in both tools (kubectl 1.36
        // prints "pod/web-1 patched" for every dry-run strategy; this tool adds "(dry run)").
        let client_args = args.map(|a| if a == flag { "--dry-run=client" } else { a });
        assert_eq!(ours.stdout, m.run(&client_args).stdout, "{flag}");
        assert_eq!(
            theirs.stdout,
            real_kubectl(&[], &client_args).stdout,
            "{flag}"
        );
        assert!(
            ours.stdout.starts_with("pod/web-1 patched (dry run)"),
            "{flag}: {}",
            ours.stdout
        );
        assert_eq!(app_label(&ns.0), "web", "{flag} changed the object");
    }
    // `--dry-run=false` is none: the patch is applied, with kubectl's warning.
    let args = [
        "patch",
        "pod",
        "web-1",
        "-n",
        &ns.0,
        "--type",
        "merge",
        "-p",
        patch,
        "--dry-run=false",
    ];
    let ours = m.run(&args);
    assert_eq!(ours.code, 0, "{ours:?}");
    assert_eq!(
        warnings(&ours.stderr),
        [
            "warning: --dry-run=false is deprecated (boolean value) and can be replaced with --dry-run=none."
        ]
    );
    assert_eq!(app_label(&ns.0), "changed");
    let theirs = real_kubectl(
        &[],
        &[
            "patch",
            "pod",
            "web-1",
            "-n",
            &ns.0,
            "--type",
            "merge",
            "-p",
            patch,
            "--dry-run=false",
        ],
    );
    assert_eq!(warnings(&ours.stderr), klog_warnings(&theirs.stderr));
    // server and client: no warning.
    for flag in ["--dry-run=server", "--dry-run=client"] {
        let r = m.run(&[
            "patch",
            "pod",
            "web-1",
            "-n",
            &ns.0,
            "--type",
            "merge",
            "-p",
            r#"{"metadata":{"labels":{"app":"again"}}}"#,
            flag,
        ]);
        assert_eq!(r.code, 0, "{r:?}");
        assert!(warnings(&r.stderr).is_empty(), "{flag}: {}", r.stderr);
        assert_eq!(app_label(&ns.0), "changed", "{flag}");
    }
}

#[test]
fn an_invalid_dry_run_value_is_exit_2_with_kubectl_s_sentence_before_any_request() {
    let m = Myops::standard("flags-dry-run-bad");
    let ours = m.run(&["patch", "pod", "web-1", "--dry-run=maybe", "-p", "{}"]);
    assert_eq!(ours.code, 2, "{ours:?}");
    let theirs = real_kubectl(
        &[],
        &["patch", "pod", "web-1", "--dry-run=maybe", "-p", "{}"],
    );
    let kubectl_line = theirs.stderr.lines().next().unwrap().to_string();
    assert_eq!(
        kubectl_line,
        "error: Invalid dry-run value (maybe). Must be \"none\", \"server\", or \"client\"."
    );
    assert!(ours.stderr.starts_with(&kubectl_line), "{}", ours.stderr);
    assert_eq!(ours.stderr.lines().count(), 1, "{}", ours.stderr);
    let r = m.run(&["rollback", "someid", "--dry-run=maybe"]);
    assert_eq!(r.code, 2, "{r:?}");
}

#[test]
fn tls_server_name_checks_the_certificate_against_that_name_like_kubectl() {
    let m = Myops::standard("flags-tls-server-name");
    let args = [
        "get",
        "namespaces",
        "default",
        "-o",
        "name",
        "--tls-server-name",
        "kubernetes",
    ];
    let r = m.run(&args);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "namespace/default\n"),
        "{r:?}"
    );
    let args = [
        "get",
        "namespaces",
        "default",
        "-o",
        "name",
        "--tls-server-name",
        "wrong.example",
    ];
    let r = m.run(&args);
    let theirs = real_kubectl(&[], &args);
    assert_eq!((r.code, theirs.code), (1, 1), "{r:?}");
    assert!(r.stdout.is_empty());
    assert!(
        theirs.stderr.contains("not wrong.example"),
        "{}",
        theirs.stderr
    );
}

#[test]
fn client_certificate_and_key_flags_are_checked_before_any_request() {
    // The test cluster has token users only: the flags are checked for their files and
    // their pairing (kubectl: "client-key-data or client-key must be specified").
    let m = Myops::standard("flags-client-cert");
    let r = m.run(&[
        "get",
        "pods",
        "--client-certificate",
        "/nonexistent/c.crt",
        "--client-key",
        "/nonexistent/c.key",
    ]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("/nonexistent/c.crt"), "{}", r.stderr);
    let dir = tempfile::tempdir().unwrap();
    let cert = dir.path().join("c.crt");
    std::fs::write(&cert, "not a certificate").unwrap();
    let cert = cert.display().to_string();
    let r = m.run(&["get", "pods", "--client-certificate", &cert]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr
            .contains("pass both --client-certificate and --client-key"),
        "{}",
        r.stderr
    );
    let theirs = real_kubectl(&[], &["get", "pods", "--client-certificate", &cert]);
    assert_ne!(theirs.code, 0, "kubectl refuses it too");
    assert!(
        theirs.stderr.contains("client-key must be specified"),
        "{}",
        theirs.stderr
    );
    // A FIFO would block the TLS setup forever: refused as not a regular file.
    let r = m.run(&[
        "get",
        "pods",
        "--client-certificate",
        &cert,
        "--client-key",
        "/dev/null",
    ]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("not a regular file"), "{}", r.stderr);
    // Basic auth on top of the admin token: refused as client-go's validation does.
    let r = m.run(&["get", "pods", "--username", "u", "--password", "s3cr3t-pw"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr.contains("more than one authentication method"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("s3cr3t-pw"), "{}", r.stderr);
}

#[test]
fn as_user_extra_reaches_the_api_server_as_kubectl_sends_it() {
    let m = Myops::standard("flags-user-extra");
    let args = [
        "auth",
        "whoami",
        "-o",
        "json",
        "--as",
        "alice",
        "--as-user-extra",
        "scopes=view",
        "--as-user-extra",
        "scopes=edit",
        "--as-user-extra",
        "reason=a=b",
    ];
    let r = m.run(&args);
    assert_eq!(r.code, 0, "{r:?}");
    let ours: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let info = &ours["status"]["userInfo"];
    assert_eq!(info["username"], "alice");
    assert_eq!(info["extra"]["scopes"], serde_json::json!(["view", "edit"]));
    assert_eq!(info["extra"]["reason"], serde_json::json!(["a=b"]));
    let theirs = real_kubectl(&[], &args);
    let theirs: serde_json::Value = serde_json::from_str(&theirs.stdout).unwrap();
    assert_eq!(theirs["status"]["userInfo"]["extra"], info["extra"]);
    // The guarded verbs verify the extras too (SelfSubjectReview before any request).
    let r = m.run(&[
        "get",
        "pods",
        "--as",
        "alice",
        "--as-user-extra",
        "scopes=view",
    ]);
    assert_eq!(
        r.code, 3,
        "alice has no RBAC here, but the identity matched: {r:?}"
    );
    assert!(
        !r.stderr.contains("impersonation was not applied"),
        "{}",
        r.stderr
    );
    // Without --as, and without `=`: usage errors, before any request.
    let r = m.run(&["get", "pods", "--as-user-extra", "scopes=view"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("need --as"), "{}", r.stderr);
    let r = m.run(&["get", "pods", "--as", "alice", "--as-user-extra", "scopes"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("is not KEY=VALUE"), "{}", r.stderr);
}

/// A real exec credential plugin: touches `marker` when run, then prints the admin token
/// as an ExecCredential. Returns (kubeconfig, the plugin's directory).
pub(crate) fn exec_plugin_setup(dir: &Path, marker: &Path, command: &str) -> (PathBuf, PathBuf) {
    use std::os::unix::fs::PermissionsExt;
    let token = kubectl(&[
        "config",
        "view",
        "--raw",
        "-o",
        "jsonpath={.users[?(@.name==\"admin\")].user.token}",
    ]);
    let server = kubectl(&[
        "config",
        "view",
        "--raw",
        "-o",
        "jsonpath={.clusters[0].cluster.server}",
    ]);
    let ca = kubectl(&[
        "config",
        "view",
        "--raw",
        "-o",
        "jsonpath={.clusters[0].cluster.certificate-authority-data}",
    ]);
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let plugin = bin.join("myops-test-cred");
    std::fs::write(
        &plugin,
        format!(
            "#!/bin/sh\ntouch '{}'\necho '{{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\",\"status\":{{\"token\":\"{token}\"}}}}'\n",
            marker.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&plugin, std::fs::Permissions::from_mode(0o755)).unwrap();
    let command = if command.is_empty() {
        plugin.display().to_string()
    } else {
        command.to_string()
    };
    let kc = dir.join("kubeconfig");
    std::fs::write(
        &kc,
        format!(
            "apiVersion: v1\nkind: Config\ncurrent-context: e\nclusters:\n- name: c\n  cluster: {{server: '{server}', certificate-authority-data: '{ca}'}}\ncontexts:\n- name: e\n  context: {{cluster: c, user: u}}\nusers:\n- name: u\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: {command}\n      interactiveMode: Never\n"
        ),
    )
    .unwrap();
    (kc, bin)
}

const PREF: &str = "apiVersion: kubectl.config.k8s.io/v1beta1\nkind: Preference\n";

#[test]
fn kuberc_deny_all_never_runs_the_credential_plugin_like_kubectl() {
    let m0 = Myops::standard("flags-kuberc-deny");
    let dir = m0.dir.path().to_path_buf();
    let marker = dir.join("plugin-ran");
    let (kc, bin) = exec_plugin_setup(&dir, &marker, "");
    let kuberc = dir.join("home/.kube/kuberc");
    std::fs::create_dir_all(kuberc.parent().unwrap()).unwrap();
    std::fs::write(&kuberc, format!("{PREF}credentialPluginPolicy: DenyAll\n")).unwrap();
    let mut m = m0;
    m.set_env("KUBECONFIG", &kc.display().to_string());
    let args = ["get", "namespaces", "default", "-o", "name"];
    let r = m.run(&args);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(!marker.exists(), "the denied plugin ran");
    assert_eq!(
        r.stderr,
        format!(
            "error: the credential plugin \"{}\" of the kubeconfig user was not run: credentialPluginPolicy is DenyAll in {}; allow it there (credentialPluginAllowlist) or use another user\n",
            bin.join("myops-test-cred").display(),
            kuberc.display()
        )
    );
    // The oracle: kubectl refuses the plugin under the same kuberc (its exit code is 1).
    let home = dir.join("home").display().to_string();
    let kcs = kc.display().to_string();
    let theirs = real_kubectl(&[("HOME", &home), ("KUBECONFIG", &kcs)], &args);
    assert_ne!(theirs.code, 0, "{theirs:?}");
    assert!(theirs.stderr.contains("DenyAll"), "{}", theirs.stderr);
    assert!(!marker.exists(), "kubectl ran the denied plugin");
    // KUBERC=off: no policy, the plugin runs (and its token works).
    m.set_env("KUBERC", "off");
    let r = m.run(&args);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "namespace/default\n"),
        "{r:?}"
    );
    assert!(marker.exists(), "the allowed plugin did not run");
    // KUBERC=off together with --kuberc: refused, as kubectl does.
    let k = kuberc.display().to_string();
    let r = m.run(&["get", "namespaces", "--kuberc", &k]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("mutually exclusive"), "{}", r.stderr);
}

#[test]
fn kuberc_allowlist_runs_only_the_listed_plugin() {
    let m0 = Myops::standard("flags-kuberc-allow");
    let dir = m0.dir.path().to_path_buf();
    let marker = dir.join("plugin-ran");
    // The kubeconfig names the plugin by its bare name, found through PATH.
    let (kc, bin) = exec_plugin_setup(&dir, &marker, "myops-test-cred");
    let mut m = m0;
    m.set_env("KUBECONFIG", &kc.display().to_string());
    m.set_env(
        "PATH",
        &format!(
            "{}:{}",
            bin.display(),
            std::env::var("PATH").unwrap_or_default()
        ),
    );
    let rc = dir.join("kuberc-explicit");
    let rcs = rc.display().to_string();
    let args = [
        "get",
        "namespaces",
        "default",
        "-o",
        "name",
        "--kuberc",
        &rcs,
    ];
    // Another plugin listed: this one is not run.
    std::fs::write(
        &rc,
        format!("{PREF}credentialPluginPolicy: Allowlist\ncredentialPluginAllowlist:\n- command: other-plugin\n"),
    )
    .unwrap();
    let r = m.run(&args);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr.contains("is not in the credentialPluginAllowlist"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains(&rcs), "{}", r.stderr);
    assert!(!marker.exists(), "a plugin outside the allowlist ran");
    // Listed by its full path: the bare name resolves to it through PATH, so it runs.
    std::fs::write(
        &rc,
        format!(
            "{PREF}aliases: []\ncredentialPluginPolicy: Allowlist\ncredentialPluginAllowlist:\n- command: {}\n",
            bin.join("myops-test-cred").display()
        ),
    )
    .unwrap();
    let r = m.run(&args);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "namespace/default\n"),
        "{r:?}"
    );
    assert!(marker.exists(), "the allowed plugin did not run");
    // A misconfigured policy (allowlist without the Allowlist policy) is an error, not AllowAll.
    std::fs::remove_file(&marker).unwrap();
    std::fs::write(
        &rc,
        format!("{PREF}credentialPluginAllowlist:\n- command: myops-test-cred\n"),
    )
    .unwrap();
    let r = m.run(&args);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr
            .contains("misconfigured credential plugin allowlist"),
        "{}",
        r.stderr
    );
    assert!(!marker.exists());
    // An explicit kuberc that does not exist: an error, as in kubectl.
    let r = m.run(&["get", "namespaces", "--kuberc", "/nonexistent/kuberc"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("/nonexistent/kuberc"), "{}", r.stderr);
    assert!(!marker.exists());
}
