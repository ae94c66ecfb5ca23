//! Issue 14 item 2: `crds sync` reports each CRD as it lands under a progress line on a
//! terminal (and draws nothing when stderr is not one); usage lines read `kubectl myops …`
//! when the real kubectl runs the plugin, `kubectl-myops …` when run directly.

use std::process::Command;

use crate::completion::{kubectl_with, plugin_bin};
use crate::fixture::{Myops, Namespace, cluster, text_of};

/// A directory of `n` small namespaced CRDs, `{prefix}{i}s.progress.myops.test`.
fn crd_dir(prefix: &str, n: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(
        dir.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    for i in 0..n {
        let plural = format!("{prefix}{i}s");
        let kind = format!("{}{i}", prefix.to_uppercase());
        std::fs::write(
            dir.path().join(format!("{plural}.yaml")),
            format!(
                "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {{name: {plural}.progress.myops.test}}\nspec:\n  group: progress.myops.test\n  scope: Namespaced\n  names: {{plural: {plural}, singular: {prefix}{i}, kind: {kind}, listKind: {kind}List}}\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema: {{openAPIV3Schema: {{type: object, x-kubernetes-preserve-unknown-fields: true}}}}\n"
            ),
        )
        .unwrap();
    }
    dir
}

fn delete_crds(prefix: &str, n: usize) {
    for i in 0..n {
        let _ = crate::fixture::kubectl_at(
            &cluster().kubeconfig,
            &[
                "delete",
                "crd",
                &format!("{prefix}{i}s.progress.myops.test"),
                "--wait=false",
            ],
        );
    }
}

#[test]
fn crds_sync_on_a_terminal_reports_each_crd_under_a_progress_line() {
    let ns = Namespace::new("progress");
    let m = Myops::standard(&ns.0);
    let n = 6;
    let prefix = format!("p{}x", std::process::id());
    let dir = crd_dir(&prefix, n);
    // util-linux `script` gives the command a terminal for stdout and stderr (both end up in
    // its output, in the order written); the command runs with the test's environment.
    let line = format!(
        "{} crds sync {}",
        env!("CARGO_BIN_EXE_kubectl-myops"),
        dir.path().display()
    );
    let out = Command::new("script")
        .args(["-qefc", &line, "/dev/null"])
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("TERM", "dumb")
        .envs(m.env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .stdin(std::process::Stdio::null())
        .output()
        .expect("script runs");
    delete_crds(&prefix, n);
    let text = text_of(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text:?}");
    // The progress line is drawn before the first result (when the applies start)…
    let first_progress = text
        .find(&format!("\rcrds: 0/{n} registered\x1b[K"))
        .unwrap_or_else(|| panic!("no progress line: {text:?}"));
    let registered: Vec<usize> = text
        .match_indices(" registered (v1)\r\n")
        .map(|(i, _)| i)
        .collect();
    assert_eq!(registered.len(), n, "{text:?}");
    assert!(first_progress < registered[0], "{text:?}");
    // …cleared before each result line and drawn again with the new count after it…
    for (k, at) in registered.iter().enumerate() {
        let count = format!("\rcrds: {}/{n} registered\x1b[K", k + 1);
        let redrawn = text[*at..]
            .find(&count)
            .unwrap_or_else(|| panic!("no {count:?} after result {k}: {text:?}"));
        if let Some(next) = registered.get(k + 1) {
            assert!(
                at + redrawn < *next,
                "{count:?} after the next result: {text:?}"
            );
        }
        let before = &text[..*at];
        assert!(
            before.rfind("\r\x1b[K").unwrap() > before.rfind("registered\x1b[K").unwrap(),
            "result {k} printed over the progress line: {text:?}"
        );
    }
    // …and cleared at the end.
    assert!(text.trim_end().ends_with("\r\x1b[K"), "{text:?}");
}

#[test]
fn crds_sync_draws_no_progress_line_when_stderr_is_not_a_terminal() {
    let ns = Namespace::new("progress-pipe");
    let m = Myops::standard(&ns.0);
    let n = 6;
    let prefix = format!("q{}x", std::process::id());
    let dir = crd_dir(&prefix, n);
    let r = m.run(&["crds", "sync", dir.path().to_str().unwrap()]);
    delete_crds(&prefix, n);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stdout.lines().count(), n, "{r:?}");
    assert!(
        !r.stderr.contains('\r') && !r.stderr.contains('\u{1b}'),
        "{r:?}"
    );
    assert!(!r.stderr.contains("crds: "), "{r:?}");
}

#[test]
fn usage_lines_read_kubectl_myops_when_kubectl_runs_the_plugin() {
    let bin = plugin_bin();
    let env = vec![(
        "KUBECONFIG".to_string(),
        cluster().kubeconfig.display().to_string(),
    )];
    // Through bash, as a user types it: kubectl 1.36 sets nothing for its plugins, bash sets
    // `_` to the kubectl it runs (kubectl 1.37+ also sets KUBECTL_PATH).
    let bash = |line: &str| {
        crate::completion::run_with(
            std::path::Path::new("/bin/bash"),
            &[bin.path()],
            &env,
            &["-c", line],
        )
    };
    let r = bash("kubectl myops crds sync --help");
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout
            .contains("Usage: kubectl myops crds sync [OPTIONS] [DIR]"),
        "{r:?}"
    );
    assert!(r.stdout.contains("\nExamples:\n"), "{r:?}");
    // A usage error names the same command.
    let r = bash("kubectl myops rollback");
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("usage: kubectl myops rollback"), "{r:?}");
    // Without bash's `_`, the KUBECTL_PATH of kubectl 1.37+.
    let mut env37 = env.clone();
    env37.push(("KUBECTL_PATH".into(), "/usr/bin/kubectl".into()));
    let r = kubectl_with(&[bin.path()], &env37, &["myops", "crds", "sync", "--help"]);
    assert!(r.stdout.contains("Usage: kubectl myops crds sync"), "{r:?}");
    // Run directly, the binary's own name.
    let direct = crate::completion::run_with(
        std::path::Path::new(env!("CARGO_BIN_EXE_kubectl-myops")),
        &[],
        &[],
        &["crds", "sync", "--help"],
    );
    assert!(
        direct
            .stdout
            .contains("Usage: kubectl-myops crds sync [OPTIONS] [DIR]"),
        "{direct:?}"
    );
}
