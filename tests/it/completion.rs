//! Shell completion for real: the generated scripts in completions/ are current, bash completes
//! `kubectl-myops g` with them, and the real kubectl's `__complete` reaches
//! `kubectl_complete-myops` for `kubectl myops …` — subcommands, types from discovery and the
//! CRD registry within the plugin.yaml boundary, object names, flag values — and gets an
//! answer within the deadline when the server does not respond.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::fixture::{Myops, Namespace, Run, cluster, kubectl, kubectl_apply, root, text_of};

/// A directory with links to the two built binaries and nothing else, for PATH: kubectl's
/// plugin scan would also list cargo's `kubectl-myops.d` dep-info file in target/debug.
pub fn plugin_bin() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for exe in [
        env!("CARGO_BIN_EXE_kubectl-myops"),
        env!("CARGO_BIN_EXE_kubectl_complete-myops"),
    ] {
        let exe = Path::new(exe);
        std::os::unix::fs::symlink(exe, dir.path().join(exe.file_name().unwrap())).unwrap();
    }
    dir
}

/// Runs `program` with only `env` and `PATH` = `path` + target/testbin + /usr/bin:/bin.
pub fn run_with(program: &Path, path: &[&Path], env: &[(String, String)], args: &[&str]) -> Run {
    let mut dirs: Vec<PathBuf> = path.iter().map(|p| p.to_path_buf()).collect();
    dirs.extend([
        root().join("target/testbin"),
        "/usr/bin".into(),
        "/bin".into(),
    ]);
    let out = Command::new(program)
        .args(args)
        .env_clear()
        .env("PATH", std::env::join_paths(dirs).unwrap())
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("{} runs: {e}", program.display()));
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: text_of(&out.stdout),
        stderr: text_of(&out.stderr),
    }
}

/// The real kubectl, with `path` first on PATH.
pub fn kubectl_with(path: &[&Path], env: &[(String, String)], args: &[&str]) -> Run {
    run_with(&root().join("target/testbin/kubectl"), path, env, args)
}

/// Completion output: the candidate words (descriptions dropped) and the directive.
pub fn candidates(r: &Run) -> (Vec<String>, u32) {
    let mut lines: Vec<&str> = r.stdout.lines().filter(|l| !l.is_empty()).collect();
    let last = lines.pop().unwrap_or_else(|| panic!("no output: {r:?}"));
    let directive = last
        .strip_prefix(':')
        .and_then(|d| d.parse().ok())
        .unwrap_or_else(|| panic!("last line {last:?} is not :<directive>: {r:?}"));
    let words = lines
        .iter()
        .map(|l| l.split('\t').next().unwrap().to_string())
        .collect();
    (words, directive)
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

#[test]
fn completions_dir_holds_the_current_generated_scripts() {
    for (shell, file) in [
        ("bash", "kubectl-myops.bash"),
        ("zsh", "_kubectl-myops"),
        ("fish", "kubectl-myops.fish"),
        ("powershell", "_kubectl-myops.ps1"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_kubectl-myops"))
            .args(["completion", shell])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "completion {shell}: {}",
            text_of(&out.stderr)
        );
        let path = root().join("completions").join(file);
        let kept = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            kept == text_of(&out.stdout),
            "{} is stale (or missing): regenerate completions/ with `scripts/package --completions --profile dev`",
            path.display()
        );
    }
}

#[test]
fn bash_completes_kubectl_myops_g_with_the_generated_script() {
    let script = root().join("completions/kubectl-myops.bash");
    // The function the script registers, called as bash's programmable completion calls it.
    let program = format!(
        r#"source {script:?}
spec=$(complete -p kubectl-myops) || exit 9
fn=$(sed -n 's/.* -F \([^ ]*\) .*/\1/p' <<<"$spec")
COMP_WORDS=(kubectl-myops g); COMP_CWORD=1; COMP_LINE="kubectl-myops g"; COMP_POINT=${{#COMP_LINE}}
"$fn" kubectl-myops g kubectl-myops
printf 'reply:%s\n' "${{COMPREPLY[@]}}"
COMP_WORDS=(kubectl-myops get pods -o ""); COMP_CWORD=4; COMP_LINE="kubectl-myops get pods -o "; COMP_POINT=${{#COMP_LINE}}; COMPREPLY=()
"$fn" kubectl-myops "" -o
printf 'reply:%s\n' "${{COMPREPLY[@]}}""#,
        script = script.display().to_string()
    );
    let r = run_with(
        Path::new("/bin/bash"),
        &[],
        &[],
        &["--norc", "--noprofile", "-c", &program],
    );
    assert_eq!(r.code, 0, "{r:?}");
    let replies: Vec<&str> = r
        .stdout
        .lines()
        .filter_map(|l| l.strip_prefix("reply:"))
        .collect();
    assert_eq!(
        replies,
        ["get", "table", "wide", "json", "yaml", "kyaml", "name"],
        "{r:?}"
    );
}

#[test]
fn kubectl_complete_lists_subcommands_types_names_and_flag_values() {
    let ns = Namespace::new("completion");
    ns.pod("web-1");
    ns.pod("web-2");
    let m = Myops::standard("completion");
    // A kubeconfig whose current context points at the test's namespace.
    let kc = m.dir.path().join("kubeconfig");
    std::fs::copy(&cluster().kubeconfig, &kc).unwrap();
    kubectl(&[
        "config",
        "set-context",
        "--current",
        &format!("--namespace={}", ns.0),
        "--kubeconfig",
        kc.to_str().unwrap(),
    ]);
    let mut env = m.env.clone();
    env.retain(|(k, _)| k != "KUBECONFIG");
    env.push(("KUBECONFIG".into(), kc.display().to_string()));
    let bin = plugin_bin();
    let complete = |args: &[&str]| {
        let mut all = vec!["__complete", "myops"];
        all.extend(args);
        let r = kubectl_with(&[bin.path()], &env, &all);
        assert_eq!(r.code, 0, "kubectl {all:?}: {r:?}");
        assert!(
            r.stderr
                .contains("Completion ended with directive: ShellCompDirectiveNoFileComp"),
            "{r:?}"
        );
        let (words, directive) = candidates(&r);
        assert_eq!(directive, 4, "{r:?}");
        words
    };

    let top = complete(&[""]);
    for want in [
        "get",
        "patch",
        "rollback",
        "changelog",
        "crds",
        "metrics",
        "config",
        "auth",
        "completion",
        "version",
    ] {
        assert!(top.contains(&want.to_string()), "{want} missing: {top:?}");
    }
    assert_eq!(complete(&["ro"]), ["rollout", "rollback"]);
    // rollout: kubectl's three types, then the names of that type.
    assert_eq!(
        complete(&["rollout", "undo", ""]),
        ["deployment", "daemonset", "statefulset"]
    );
    // Types: what discovery serves, within plugin.yaml's resources.
    assert_eq!(
        sorted(complete(&["get", ""])),
        [
            "customresourcedefinitions",
            "deployments",
            "namespaces",
            "pods"
        ]
    );
    assert_eq!(complete(&["patch", "dep"]), ["deployments"]);
    // Names in the context's namespace, and with -n before or after the verb.
    assert_eq!(complete(&["get", "pods", ""]), ["web-1", "web-2"]);
    assert_eq!(complete(&["get", "po", "web-1", "w"]), ["web-2"]);
    assert_eq!(complete(&["get", "pods/"]), ["pods/web-1", "pods/web-2"]);
    let plain = format!("--kubeconfig={}", cluster().kubeconfig.display());
    assert_eq!(
        complete(&["-n", &ns.0, &plain, "get", "pods", ""]),
        ["web-1", "web-2"]
    );
    assert_eq!(
        complete(&[&plain, "get", "pods", "-n", &ns.0, ""]),
        ["web-1", "web-2"]
    );
    assert_eq!(
        complete(&["get", "pods", "-o", ""]),
        ["table", "wide", "json", "yaml", "kyaml", "name"]
    );
    let contexts = complete(&["--context", ""]);
    assert!(
        ["admin", "alice", "bob"]
            .iter()
            .all(|c| contexts.contains(&c.to_string())),
        "{contexts:?}"
    );
    assert!(
        complete(&["get", "-n", ""]).contains(&ns.0),
        "namespace {} missing",
        ns.0
    );
    assert!(complete(&["get", "--"]).contains(&"--selector".to_string()));
    // bob may not list pods there: no names, and no list request was sent for him.
    assert_eq!(
        complete(&["--context", "bob", "get", "pods", ""]),
        Vec::<String>::new()
    );
    assert!(crate::fixture::audit_events("bob", "pods", &ns.0).is_empty());
}

/// A CRD of the test's own, deleted afterwards.
struct Crd(String);

impl Drop for Crd {
    fn drop(&mut self) {
        let _ = Command::new(root().join("target/testbin/kubectl"))
            .args(["delete", "crd", &self.0, "--wait=false"])
            .env("KUBECONFIG", &cluster().kubeconfig)
            .env("HOME", std::env::temp_dir().join("myops-test-kubectl-home"))
            .output();
    }
}

#[test]
fn registered_crds_join_the_types_and_their_objects_complete() {
    let ns = Namespace::new("completion-crd");
    let group = format!("{}.completion.example.com", ns.0);
    let crd = Crd(format!("gizmos.{group}"));
    kubectl_apply(&format!(
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {{name: {}}}\nspec:\n  group: {group}\n  scope: Namespaced\n  names: {{plural: gizmos, singular: gizmo, kind: Gizmo}}\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema: {{openAPIV3Schema: {{type: object, x-kubernetes-preserve-unknown-fields: true}}}}\n",
        crd.0
    ));
    kubectl(&[
        "wait",
        "--for=condition=established",
        &format!("crd/{}", crd.0),
        "--timeout=30s",
    ]);
    let m = Myops::standard("completion-crd");
    let helper = Path::new(env!("CARGO_BIN_EXE_kubectl_complete-myops"));
    let complete = |args: &[&str]| candidates(&run_with(helper, &[], &m.env, args)).0;
    // Served, but outside plugin.yaml: not offered.
    let end = Instant::now() + Duration::from_secs(20);
    let mut created = false;
    while !created {
        let cr = format!(
            "apiVersion: {group}/v1\nkind: Gizmo\nmetadata: {{name: g1, namespace: {}}}\n",
            ns.0
        );
        let mut child = Command::new(root().join("target/testbin/kubectl"))
            .args(["apply", "-f", "-"])
            .env("KUBECONFIG", &cluster().kubeconfig)
            .env("HOME", std::env::temp_dir().join("myops-test-kubectl-home"))
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::io::Write::write_all(&mut child.stdin.take().unwrap(), cr.as_bytes()).unwrap();
        created = child.wait().unwrap().success();
        assert!(created || Instant::now() < end, "cannot create a Gizmo");
        std::thread::sleep(Duration::from_millis(200));
    }
    assert_eq!(complete(&["get", "giz"]), Vec::<String>::new());
    // Registered by `crds sync` (as its registry file records it): offered, names listed.
    let registry = serde_json::json!({"version": 1, "crds": {crd.0.clone(): {
        "group": group, "plural": "gizmos", "kind": "Gizmo", "versions": ["v1"],
        "scope": "Namespaced", "file": "/crds/gizmos.yaml"}}});
    let home = m.dir.path().join("myops");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(home.join("crd-registry.json"), registry.to_string()).unwrap();
    assert_eq!(complete(&["get", "giz"]), ["gizmos"]);
    assert_eq!(complete(&["-n", &ns.0, "get", "gizmos", ""]), ["g1"]);
    assert_eq!(complete(&["get", "gizmo", "-n", &ns.0, ""]), ["g1"]);
    assert_eq!(complete(&["-n", &ns.0, "patch", "gizmo/"]), ["gizmo/g1"]);
}

#[test]
fn tab_returns_within_the_deadline_when_the_server_never_answers() {
    // Accepts TCP connections (the kernel's backlog) and never says a word: the TLS handshake hangs.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = silent.local_addr().unwrap().port();
    let dir = tempfile::tempdir().unwrap();
    let kc = dir.path().join("kubeconfig");
    std::fs::write(&kc, format!("apiVersion: v1\nkind: Config\ncurrent-context: down\nclusters:\n- name: down\n  cluster: {{server: 'https://127.0.0.1:{port}', insecure-skip-tls-verify: true}}\ncontexts:\n- name: down\n  context: {{cluster: down, user: u, namespace: ops}}\nusers:\n- name: u\n  user: {{token: t}}\n")).unwrap();
    let cfg = dir.path().join("plugin.yaml");
    std::fs::write(
        &cfg,
        "name: myops\nverbs: [get]\nresources: [pods, deployments]\nscopes: [namespace]\n",
    )
    .unwrap();
    let env: Vec<(String, String)> = vec![
        ("HOME".into(), dir.path().join("home").display().to_string()),
        (
            "MYOPS_HOME".into(),
            dir.path().join("m").display().to_string(),
        ),
        ("MYOPS_CONFIG".into(), cfg.display().to_string()),
        ("KUBECONFIG".into(), kc.display().to_string()),
    ];
    let helper = Path::new(env!("CARGO_BIN_EXE_kubectl_complete-myops"));
    for (args, want) in [
        (&["get", ""][..], "deployments\npods\n:4\n"),
        (&["get", "pods", ""][..], ":4\n"),
        (&["get", "-n", ""][..], "ops\n:4\n"),
    ] {
        let started = Instant::now();
        let r = run_with(helper, &[], &env, args);
        let took = started.elapsed();
        assert_eq!(
            (r.code, r.stdout.as_str(), r.stderr.as_str()),
            (0, want, ""),
            "{args:?}"
        );
        assert!(
            took < Duration::from_secs(4),
            "{args:?} took {took:?} (deadline 1s)"
        );
    }
    // The same through kubectl.
    let bin = plugin_bin();
    let started = Instant::now();
    let r = kubectl_with(&[bin.path()], &env, &["__complete", "myops", "get", ""]);
    assert_eq!(
        candidates(&r),
        (vec!["deployments".to_string(), "pods".into()], 4),
        "{r:?}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "took {:?}",
        started.elapsed()
    );
    drop(silent);
}

#[test]
fn completion_lookups_were_sent_without_a_command_and_now_name_kubectl_myops_complete() {
    let ns = Namespace::new("completion-ua");
    ns.pod("web-1");
    let m = Myops::standard("completion-ua");
    let bin = plugin_bin();
    let mark = crate::fixture::audit_mark();
    let args = ["__complete", "myops", "get", "pods", "-n", &ns.0, ""];
    let r = kubectl_with(&[bin.path()], &m.env, &args);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(candidates(&r).0, ["web-1"], "{r:?}");
    let lists: Vec<serde_json::Value> = crate::fixture::audit_since(mark)
        .into_iter()
        .filter(|e| {
            e["verb"] == "list"
                && e["objectRef"]["resource"] == "pods"
                && e["objectRef"]["namespace"] == ns.0.as_str()
        })
        .collect();
    assert!(!lists.is_empty(), "the lookup's audit event");
    for e in &lists {
        let agent = e["userAgent"].as_str().unwrap();
        assert!(
            agent.starts_with("kubectl-myops/") && agent.contains(" (myops __complete) session/"),
            "{agent}"
        );
    }
}
