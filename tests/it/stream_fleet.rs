//! A fan-out `get -o name|json|yaml` prints each context as soon as it and the contexts
//! before it are done (issue 31, item 4; src/fleet/stream.rs): the streamed bytes equal the
//! held merge of the same outputs, and a slow context does not hold back earlier ones.

use std::io::BufRead;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::fixture::{cluster, kubectl_at, text_of};
use crate::fleet::{TwoNamespaces, kubectl_in, plugin};
use myops::fleet::{Captured, Shape, merge};
use myops::output::Chunk;

/// A copy of the test kubeconfig in `dir` with context `gen-3` (admin-2's server and user,
/// a generated third context) and, when `slow_port` is given, context `slow` on a server at
/// that port as admin.
fn kubeconfig_with(dir: &Path, slow_port: Option<u16>) -> std::path::PathBuf {
    let kc = dir.join("kubeconfig");
    std::fs::copy(&cluster().kubeconfig, &kc).unwrap();
    let mut steps = vec![vec![
        "config".to_string(),
        "set-context".into(),
        "gen-3".into(),
        "--cluster=test-2".into(),
        "--user=admin-2".into(),
    ]];
    if let Some(port) = slow_port {
        steps.push(vec![
            "config".into(),
            "set-cluster".into(),
            "slow".into(),
            format!("--server=https://127.0.0.1:{port}"),
            "--insecure-skip-tls-verify=true".into(),
        ]);
        steps.push(vec![
            "config".into(),
            "set-context".into(),
            "slow".into(),
            "--cluster=slow".into(),
            "--user=admin".into(),
        ]);
    }
    for args in steps {
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = kubectl_at(&kc, &a);
        assert!(out.status.success(), "{}", text_of(&out.stderr));
    }
    kc
}

#[test]
fn streamed_name_json_and_yaml_over_three_contexts_are_byte_for_byte_the_held_merge() {
    let ns = TwoNamespaces::new("fleet-stream");
    for (ctx, names) in [("admin", &["a", "b"][..]), ("admin-2", &["c"])] {
        for n in names {
            kubectl_in(
                ctx,
                &[
                    "create",
                    "configmap",
                    n,
                    "-n",
                    &ns.0,
                    "--from-literal=k=two\nlines",
                ],
            );
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let kc = kubeconfig_with(dir.path(), None);
    let mut m = plugin();
    m.set_env("KUBECONFIG", &kc.display().to_string());
    let contexts = ["admin-2", "admin", "gen-3"];
    for (format, shape) in [
        ("name", Shape::Cells),
        ("json", Shape::Json),
        ("yaml", Shape::Yaml),
    ] {
        let streamed = m.run(&[
            "get",
            "configmaps",
            "-n",
            &ns.0,
            "--contexts",
            &contexts.join(","),
            "-o",
            format,
        ]);
        assert_eq!(streamed.code, 0, "{streamed:?}");
        // The held path: each context's own output, merged whole by fleet::merge.
        let singles: Vec<Vec<Chunk>> = contexts
            .iter()
            .map(|c| {
                let r = m.run(&[
                    "get",
                    "configmaps",
                    "-n",
                    &ns.0,
                    "--context",
                    c,
                    "-o",
                    format,
                ]);
                assert_eq!(r.code, 0, "{r:?}");
                vec![Chunk::Text(r.stdout)]
            })
            .collect();
        let captured: Vec<Captured<'_>> = contexts
            .iter()
            .zip(&singles)
            .map(|(c, chunks)| Captured { context: c, chunks })
            .collect();
        let held = merge(&captured, shape).unwrap();
        assert_eq!(streamed.stdout, held, "-o {format}");
        for c in ["admin", "admin-2", "gen-3"] {
            assert!(held.contains(c), "-o {format} names context {c}: {held}");
        }
    }
}

#[test]
fn a_slow_third_context_does_not_hold_back_the_first_two_contexts_lines() {
    // A server that never answers: the kernel completes the TCP handshake into the backlog,
    // nothing ever reads the TLS hello, so the context waits out --request-timeout.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = silent.local_addr().unwrap().port();
    let dir = tempfile::tempdir().unwrap();
    let kc = kubeconfig_with(dir.path(), Some(port));
    let mut m = plugin();
    m.set_env("KUBECONFIG", &kc.display().to_string());
    let began = Instant::now();
    let mut child = m
        .command(&[
            "get",
            "namespaces",
            "default",
            "--contexts",
            "admin,admin-2,slow",
            "-o",
            "name",
            "--request-timeout",
            "6s",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut lines = Vec::new();
    for _ in 0..2 {
        let mut l = String::new();
        out.read_line(&mut l).unwrap();
        lines.push(l);
    }
    let read_at = began.elapsed();
    let still_running = child.try_wait().unwrap().is_none();
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut out, &mut rest).unwrap();
    let status = child.wait().unwrap();
    let ended_at = began.elapsed();
    drop(silent);
    assert_eq!(
        lines,
        ["admin\tnamespace/default\n", "admin-2\tnamespace/default\n"]
    );
    assert_eq!(rest, "", "the slow context prints nothing");
    assert_eq!(status.code(), Some(1), "the slow context times out: exit 1");
    assert!(
        still_running && ended_at >= Duration::from_secs(5) && read_at < Duration::from_secs(4),
        "the first two contexts' lines were read at {read_at:?}, the command ended at {ended_at:?}"
    );
}
