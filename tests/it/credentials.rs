//! Credential plugins as kubectl users expect them (issue 34): a real exec credential plugin
//! (a shell script printing a `client.authentication.k8s.io/v1` ExecCredential with the
//! admin's token, counting its runs in a file), compared with the real kubectl.

use std::path::{Path, PathBuf};

use crate::fixture::{Myops, Run, kubectl};
use crate::flags::real_kubectl;

/// The admin's token, the server URL and its CA data from the test kubeconfig.
fn admin_cluster() -> (String, String, String) {
    let view =
        |path: &str| kubectl(&["config", "view", "--raw", "-o", &format!("jsonpath={path}")]);
    (
        view("{.users[?(@.name==\"admin\")].user.token}"),
        view("{.clusters[0].cluster.server}"),
        view("{.clusters[0].cluster.certificate-authority-data}"),
    )
}

/// A plugin at `dir/bin/cred` that appends a line to `dir/runs`, runs `before` (shell),
/// then prints the admin's token as an ExecCredential; and a kubeconfig at `dir/kubeconfig`
/// with contexts `e1` and `e2`, both of user `u` (that plugin, `mode` its
/// interactiveMode) on the test cluster. Returns the kubeconfig.
pub(crate) fn plugin_kubeconfig(dir: &Path, before: &str, mode: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let (token, server, ca) = admin_cluster();
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let plugin = bin.join("cred");
    std::fs::write(
        &plugin,
        format!(
            "#!/bin/sh\necho run >> '{}'\n{before}\necho '{{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\",\"status\":{{\"token\":\"{token}\"}}}}'\n",
            dir.join("runs").display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&plugin, std::fs::Permissions::from_mode(0o755)).unwrap();
    let kc = dir.join("kubeconfig");
    std::fs::write(
        &kc,
        format!(
            "apiVersion: v1\nkind: Config\ncurrent-context: e1\nclusters:\n- name: c\n  cluster: {{server: '{server}', certificate-authority-data: '{ca}'}}\ncontexts:\n- name: e1\n  context: {{cluster: c, user: u}}\n- name: e2\n  context: {{cluster: c, user: u}}\nusers:\n- name: u\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: {}\n      interactiveMode: {mode}\n",
            plugin.display()
        ),
    )
    .unwrap();
    kc
}

/// How many times the plugin of [`plugin_kubeconfig`] ran since the count was last taken.
fn runs(dir: &Path) -> usize {
    let f = dir.join("runs");
    let n = std::fs::read_to_string(&f).map_or(0, |t| t.lines().count());
    let _ = std::fs::remove_file(&f);
    n
}

/// A Myops using `kubeconfig`.
fn myops_with(kubeconfig: &Path) -> Myops {
    let mut m = Myops::standard("credentials");
    m.set_env("KUBECONFIG", &kubeconfig.display().to_string());
    m
}

fn kubectl_with(m: &Myops, kubeconfig: &Path, args: &[&str]) -> Run {
    let home = m.dir.path().join("home").display().to_string();
    real_kubectl(
        &[
            ("HOME", &home),
            ("KUBECONFIG", &kubeconfig.display().to_string()),
        ],
        args,
    )
}

#[test]
fn exec_plugin_ran_twice_per_command() {
    let dir = tempfile::tempdir().unwrap();
    let kc = plugin_kubeconfig(dir.path(), "", "Never");
    let m = myops_with(&kc);
    let args = ["get", "namespaces", "default", "-o", "name"];
    let r = m.run(&args);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "namespace/default\n"),
        "{r:?}"
    );
    let ours = runs(dir.path());
    let theirs_run = kubectl_with(&m, &kc, &args);
    assert_eq!(theirs_run.code, 0, "{theirs_run:?}");
    let theirs = runs(dir.path());
    assert_eq!((ours, theirs), (1, 1), "plugin runs: ours, kubectl's");
    // A fan-out over two contexts of the same user: still one run (client-go's cache is
    // per exec configuration, not per context).
    let r = m.run(&[
        "get",
        "namespaces",
        "default",
        "-o",
        "name",
        "--contexts",
        "e1,e2",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(runs(dir.path()), 1, "a fan-out over two contexts: {r:?}");
}

#[test]
fn exec_plugin_stderr_was_hidden() {
    let dir = tempfile::tempdir().unwrap();
    let (token, _, _) = admin_cluster();
    // A plugin that says why it is slow, and (carelessly) echoes its token there too.
    let kc = plugin_kubeconfig(
        dir.path(),
        &format!("echo 'SSO session expired, renewing' >&2; echo 'got {token}' >&2"),
        "Never",
    );
    let m = myops_with(&kc);
    let args = ["get", "namespaces", "default", "-o", "name"];
    let r = m.run(&args);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "namespace/default\n"),
        "{r:?}"
    );
    assert_eq!(
        r.stderr, "SSO session expired, renewing\ngot ***\n",
        "{r:?}"
    );
    // kubectl passes the plugin's stderr through too (unredacted).
    let theirs = kubectl_with(&m, &kc, &args);
    assert!(
        theirs.stderr.contains("SSO session expired, renewing\n"),
        "{theirs:?}"
    );
    // A failing plugin: its reason, then our one error line.
    let kc = plugin_kubeconfig(
        dir.path(),
        "echo 'SSO session expired' >&2; exit 4",
        "Never",
    );
    let r = myops_with(&kc).run(&args);
    assert_eq!(r.code, 1, "{r:?}");
    let plugin = dir.path().join("bin/cred").display().to_string();
    assert_eq!(
        r.stderr,
        format!(
            "SSO session expired\nerror: the credential plugin \"{plugin}\" of the kubeconfig user exited with status 4; its standard output is not shown because it may hold a credential: read what it wrote to standard error above, or run it by hand\n"
        ),
        "{r:?}"
    );
    // Bounded: a megabyte of stderr shows 64 KiB and says how much was left out.
    let kc = plugin_kubeconfig(
        dir.path(),
        "head -c 1048576 /dev/zero | tr '\\0' x >&2",
        "Never",
    );
    let r = myops_with(&kc).run(&args);
    assert_eq!(r.code, 0, "{r:?}");
    let xs = r.stderr.chars().filter(|c| *c == 'x').count();
    assert!(xs <= 64 * 1024, "{xs} bytes of the plugin's stderr shown");
    assert!(
        r.stderr.ends_with(&format!(
            "(the credential plugin wrote {} more bytes to standard error; not shown)\n",
            1_048_576 - 64 * 1024
        )),
        "{}",
        &r.stderr[r.stderr.len().saturating_sub(300)..]
    );
}

/// `m`'s binary run with `args` on a new terminal (util-linux `script`: standard input and
/// output a pseudo-terminal), as a user at a terminal runs it; its output with `\r\n` as `\n`.
fn on_a_terminal(m: &Myops, args: &[&str]) -> Run {
    let line = std::iter::once(env!("CARGO_BIN_EXE_kubectl-myops").to_string())
        .chain(args.iter().map(|a| format!("'{a}'")))
        .collect::<Vec<_>>()
        .join(" ");
    let mut c = std::process::Command::new("script");
    c.args(["-qec", &line, "/dev/null"])
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .envs(m.env.iter().map(|(k, v)| (k, v)))
        .stdin(std::process::Stdio::null());
    crate::fixture::detach_from_terminal(&mut c);
    let mut r: Run = c.output().expect("script(1) runs").into();
    r.stdout = r.stdout.replace("\r\n", "\n");
    r
}

#[test]
fn interactive_exec_plugin_was_killed_at_the_request_deadline() {
    let dir = tempfile::tempdir().unwrap();
    // A login that takes 4 s, longer than the 2 s request timeout.
    let args = [
        "get",
        "namespaces",
        "default",
        "-o",
        "name",
        "--request-timeout",
        "2s",
    ];
    let kc = plugin_kubeconfig(dir.path(), "sleep 4", "Always");
    let m = myops_with(&kc);
    let started = std::time::Instant::now();
    let r = on_a_terminal(&m, &args);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("namespace/default\n"), "{r:?}");
    assert!(started.elapsed() >= std::time::Duration::from_secs(4));
    assert_eq!(runs(dir.path()), 1);
    // Without a terminal, `Always` cannot ask anybody: refused before it runs, as kubectl.
    let r = m.run(&args);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr
            .contains("has interactiveMode Always but standard input is not a terminal"),
        "{r:?}"
    );
    let theirs = kubectl_with(&m, &kc, &args);
    assert!(
        theirs.stderr.contains("standard input is not a terminal"),
        "{theirs:?}"
    );
    assert_eq!(
        runs(dir.path()),
        0,
        "a plugin that needs a terminal ran without one"
    );
    // A plugin that asks nothing keeps the deadline, on a terminal too.
    let kc = plugin_kubeconfig(dir.path(), "sleep 4", "Never");
    let m = myops_with(&kc);
    let started = std::time::Instant::now();
    let r = on_a_terminal(&m, &args);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stdout
            .contains("the credential plugin of the kubeconfig user did not answer within 2s"),
        "{r:?}"
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(4));
}

#[test]
fn impersonation_refused_was_exit_1_and_said_drop_as_for_a_kubeconfig_as() {
    let m = Myops::standard("credentials");
    let args = [
        "get",
        "pods",
        "-n",
        "default",
        "--context",
        "bob",
        "--as",
        "jane",
    ];
    let r = m.run(&args);
    let refusal = "selfsubjectreviews.authentication.k8s.io is forbidden: User \"bob\" cannot impersonate-on:user-info:create resource \"selfsubjectreviews\" in API group \"authentication.k8s.io\" at the cluster scope";
    assert_eq!(
        (r.code, r.stderr.as_str()),
        (
            3,
            format!("error: bob may not impersonate jane (the impersonation comes from --as): {refusal}; ask a cluster admin for RBAC that lets bob impersonate jane, or drop --as\n").as_str()
        ),
        "{r:?}"
    );
    // kubectl refuses it too, at its discovery (its exit code for every server error is 1,
    // and it names neither who nor whom: "Error from server (Forbidden): unknown").
    let theirs = real_kubectl(&[], &args);
    assert!(
        theirs.code == 1 && theirs.stderr.contains("(Forbidden)"),
        "{theirs:?}"
    );
    // The same impersonation from the kubeconfig user's `as:`: no --as to drop.
    let dir = tempfile::tempdir().unwrap();
    let kc = dir.path().join("kubeconfig");
    let bob = kubectl(&["config", "view", "--raw", "--minify", "--context", "bob"]);
    assert!(bob.contains("  user:\n"), "{bob}");
    std::fs::write(&kc, bob.replacen("  user:\n", "  user:\n    as: jane\n", 1)).unwrap();
    let r = myops_with(&kc).run(&["get", "pods", "-n", "default"]);
    assert_eq!(
        (r.code, r.stderr.as_str()),
        (
            3,
            format!("error: bob may not impersonate jane (the impersonation comes from `as:` of the kubeconfig user \"bob\"): {refusal}; ask a cluster admin for RBAC that lets bob impersonate jane, or remove `as:` from the kubeconfig user \"bob\" (or use another context)\n").as_str()
        ),
        "{r:?}"
    );
    let theirs = kubectl_with(&m, &kc, &["get", "pods", "-n", "default"]);
    assert!(
        theirs.code == 1 && theirs.stderr.contains("(Forbidden)"),
        "{theirs:?}"
    );
}
