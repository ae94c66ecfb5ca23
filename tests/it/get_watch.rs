//! `get -w`, `--watch-only`, `--output-watch-events` (issue 11, item 3) against the real
//! cluster, in real processes: byte-compared with the real kubectl watching the same
//! objects through the same changes (AGE normalised), ended by SIGINT, SIGTERM and
//! `--request-timeout`, refused before any watch request, and resumed after a 410.

use std::time::{Duration, Instant};

use crate::fixture::{Myops, Namespace, audit_mark, audit_since, kubectl};
use crate::watching::Watching;

/// A boundary with configmaps and no Pushgateway (metrics stay in MYOPS_HOME).
fn myops() -> Myops {
    Myops::new(
        "name: myops\nverbs: [get]\nresources: [configmaps, pods]\nscopes: [namespace, cluster]\nmetrics: [ops_total]\n",
    )
}

/// AGE cells (`0s`, `12s`, `3m4s`) as `AGE`: the one thing two watchers may print
/// differently. Widths are compared as printed (the test's ages stay one digit).
fn normalise_age(text: &str) -> String {
    text.split('\n')
        .map(|l| {
            l.split(' ')
                .map(|w| {
                    let is_age = !w.is_empty()
                        && w.ends_with(['s', 'm', 'h', 'd'])
                        && w.chars().next().is_some_and(|c| c.is_ascii_digit())
                        && w.chars().all(|c| c.is_ascii_digit() || "smhd".contains(c));
                    if is_age { "AGE" } else { w }
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn watch_prints_the_list_then_each_change_byte_for_byte_as_kubectl() {
    let ns = Namespace::new("get-watch-parity");
    kubectl(&[
        "create",
        "configmap",
        "a",
        "-n",
        &ns.0,
        "--from-literal=k=v",
    ]);
    let m = myops();
    // (args, lines each prints after the three changes below)
    let cases: [(&[&str], usize); 7] = [
        // The lists hold `a` and the controller manager's kube-root-ca.crt.
        (&["get", "configmaps", "-w"], 6),
        (&["get", "configmaps", "-w", "--output-watch-events"], 6),
        (&["get", "configmaps", "--watch-only"], 4),
        (&["get", "configmaps", "-w", "--no-headers"], 5),
        (&["get", "configmaps", "a", "-w"], 3),
        (&["get", "configmaps", "-w", "-o", "name"], 5),
        (
            &[
                "get",
                "configmaps",
                "-w",
                "-o",
                "json",
                "--output-watch-events",
            ],
            4,
        ),
    ];
    let mut running: Vec<(Watching, Watching, usize)> = Vec::new();
    for (args, lines) in cases {
        let mut a: Vec<&str> = args.to_vec();
        a.extend(["-n", &ns.0]);
        let theirs = Watching::kubectl(&a);
        let ours = Watching::ours(&m, &a);
        running.push((theirs, ours, lines));
    }
    // Every watch has printed its list (or, with --watch-only, is at least running).
    for (theirs, ours, _) in &running {
        if !theirs.what.contains("--watch-only") {
            theirs.until_lines(1);
            ours.until_lines(1);
        }
    }
    std::thread::sleep(Duration::from_millis(2500));
    kubectl(&["create", "configmap", "a-much-longer-name", "-n", &ns.0]);
    kubectl(&["label", "configmap", "a", "z=1", "-n", &ns.0]);
    kubectl(&["delete", "configmap", "a-much-longer-name", "-n", &ns.0]);
    for (theirs, ours, lines) in &mut running {
        theirs.until_lines(*lines);
        ours.until_lines(*lines);
        std::thread::sleep(Duration::from_millis(300));
        assert_eq!(ours.stop("INT"), 0, "{}: {:?}", ours.what, ours.stderr());
        theirs.stop("INT");
        assert_eq!(
            normalise_age(&ours.stdout()),
            normalise_age(&theirs.stdout()),
            "{}",
            ours.what
        );
    }
    // One case spelled out, so the expected bytes are visible here.
    let events = &running[1].1;
    assert_eq!(
        normalise_age(&events.stdout()),
        "EVENT      NAME               DATA   AGE\n\
         ADDED      a                  1      AGE\n\
         ADDED      kube-root-ca.crt   1      AGE\n\
         ADDED      a-much-longer-name   0      AGE\n\
         MODIFIED   a                    1      AGE\n\
         DELETED    a-much-longer-name   0      AGE\n"
    );
}

#[test]
fn sigint_and_sigterm_end_the_watch_with_exit_0_and_one_metrics_operation() {
    let ns = Namespace::new("get-watch-signal");
    kubectl(&["create", "configmap", "a", "-n", &ns.0]);
    let m = myops();
    for signal in ["INT", "TERM"] {
        let mut w = Watching::ours(&m, &["get", "configmaps", "-w", "-n", &ns.0]);
        w.until_lines(3);
        assert_eq!(w.stop(signal), 0, "SIG{signal}: {:?}", w.stderr());
        assert_eq!(normalise_age(&w.stdout()), LIST_A, "SIG{signal}");
        assert_eq!(w.stderr(), "", "SIG{signal}");
    }
    let r = m.run(&["metrics", "show", "-o", "json"]);
    assert_eq!(r.code, 0, "{r:?}");
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["ops"].as_array().map(Vec::len), Some(1), "{v}");
    assert_eq!(v["ops"][0]["resource"], "configmaps", "{v}");
    assert_eq!(v["ops"][0]["status"], "success", "{v}");
    assert_eq!(v["ops"][0]["count"], 2, "one operation per invocation: {v}");
}

#[test]
fn request_timeout_ends_the_whole_watch_with_exit_0_as_kubectl() {
    let ns = Namespace::new("get-watch-timeout");
    kubectl(&["create", "configmap", "a", "-n", &ns.0]);
    let m = myops();
    let started = Instant::now();
    let mut w = Watching::ours(
        &m,
        &[
            "get",
            "configmaps",
            "-w",
            "--request-timeout=2s",
            "-n",
            &ns.0,
        ],
    );
    assert_eq!(w.wait(Duration::from_secs(15)), 0, "{:?}", w.stderr());
    let took = started.elapsed();
    assert!(
        took >= Duration::from_secs(2) && took < Duration::from_secs(8),
        "took {took:?}"
    );
    assert_eq!(normalise_age(&w.stdout()), LIST_A);
    assert_eq!(w.stderr(), "");
}

/// The list of a namespace with ConfigMap `a` (no data) and the controller manager's
/// kube-root-ca.crt, AGE normalised.
const LIST_A: &str = "NAME               DATA   AGE\n\
                      a                  0      AGE\n\
                      kube-root-ca.crt   1      AGE\n";

#[test]
fn a_denied_watch_is_exit_3_and_sends_no_watch_or_list_request() {
    let ns = Namespace::new("get-watch-denied");
    // alice may get and list, not watch.
    ns.grant("alice", "get,list", "configmaps");
    let m = myops();
    let mark = audit_mark();
    let r = m.run(&[
        "get",
        "configmaps",
        "-w",
        "-n",
        &ns.0,
        "--context",
        "alice",
        "--request-timeout=10s",
    ]);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(
        r.stderr.contains(&format!(
            "user \"alice\" cannot watch configmaps in namespace \"{}\"",
            ns.0
        )),
        "{r:?}"
    );
    assert_eq!(r.stdout, "");
    // plugin.yaml without configmaps: refused before any request for them.
    let narrow = Myops::new(
        "name: myops\nverbs: [get]\nresources: [pods]\nscopes: [namespace]\nmetrics: [ops_total]\n",
    );
    let r = narrow.run(&["get", "configmaps", "-w", "-n", &ns.0]);
    assert_eq!(r.code, 3, "{r:?}");
    std::thread::sleep(Duration::from_secs(1));
    // kubectl-myops' requests for configmaps in the namespace since `mark`.
    let configmap_requests = || -> Vec<serde_json::Value> {
        audit_since(mark)
            .into_iter()
            .filter(|e| {
                e.pointer("/userAgent")
                    .and_then(|v| v.as_str())
                    .is_some_and(|a| a.starts_with("kubectl-myops/"))
                    && e.pointer("/objectRef/resource").and_then(|v| v.as_str())
                        == Some("configmaps")
                    && e.pointer("/objectRef/namespace").and_then(|v| v.as_str()) == Some(&ns.0)
            })
            .collect()
    };
    let sent = configmap_requests();
    assert!(
        sent.is_empty(),
        "requests sent despite the denial: {sent:#?}"
    );
    // The control: the same filter sees alice's allowed list (the audit log records them).
    let r = m.run(&["get", "configmaps", "-n", &ns.0, "--context", "alice"]);
    assert_eq!(r.code, 0, "{r:?}");
    std::thread::sleep(Duration::from_secs(1));
    let verbs: Vec<String> = configmap_requests()
        .into_iter()
        .filter_map(|e| e["verb"].as_str().map(str::to_string))
        .collect();
    assert_eq!(
        verbs,
        ["list"],
        "only the control's list reached the server"
    );
}

#[test]
fn a_410_too_old_resource_version_relists_and_resumes_without_duplicates() {
    let ns = Namespace::new("get-watch-410");
    kubectl(&["create", "configmap", "a", "-n", &ns.0]);
    let mut m = myops();
    // The first watch starts from resourceVersion 1. Once the server's watch cache has moved
    // past it (an apiserver with some history) the server answers 410 and the watch must
    // re-list, print nothing new, and go on; a young apiserver replays its whole history
    // instead, and the replayed states, already printed by the list, must not print again.
    // Which one this server does is probed first, the same way (a raw watch from 1).
    let probe = crate::fixture::kubectl_at(
        &crate::fixture::cluster().kubeconfig,
        &[
            "get",
            "--raw",
            &format!(
                "/api/v1/namespaces/{}/configmaps?watch=1&resourceVersion=1&timeoutSeconds=1",
                ns.0
            ),
        ],
    );
    let probe = format!(
        "{}{}",
        crate::fixture::text_of(&probe.stdout),
        crate::fixture::text_of(&probe.stderr)
    );
    let expired = probe.contains("\"code\":410") || probe.contains("too old resource version");
    assert!(
        expired || probe.contains("\"type\":\"ADDED\""),
        "the probe neither expired nor replayed: {probe}"
    );
    m.set_env("MYOPS_TEST_WATCH_RESOURCE_VERSION", "1");
    let mut w = Watching::ours(&m, &["get", "configmaps", "-w", "-v", "-n", &ns.0]);
    w.until_lines(3);
    std::thread::sleep(Duration::from_millis(1500));
    kubectl(&["create", "configmap", "later", "-n", &ns.0]);
    w.until_lines(4);
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(w.stop("INT"), 0);
    assert_eq!(
        normalise_age(&w.stdout()),
        format!("{LIST_A}later              0      AGE\n")
    );
    assert_eq!(
        w.stderr()
            .contains("re-listed after 410 (too old resource version)"),
        expired,
        "{:?}",
        w.stderr()
    );
}

#[test]
fn watch_flag_misuse_is_a_usage_error_and_a_missing_name_is_not_found() {
    let ns = Namespace::new("get-watch-usage");
    let m = myops();
    let r = m.run(&["get", "configmaps", "a", "b", "-w", "-n", &ns.0]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr.contains("you may only watch a single resource"),
        "{r:?}"
    );
    let r = m.run(&["get", "configmaps", "--output-watch-events", "-n", &ns.0]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr
            .contains("--output-watch-events option can only be used with --watch or --watch-only"),
        "{r:?}"
    );
    let r = m.run(&["get", "configmaps", "nope", "-w", "-n", &ns.0]);
    assert_eq!(r.code, 4, "{r:?}");
    assert!(r.stderr.contains("configmaps \"nope\" not found"), "{r:?}");
    let r = m.run(&[
        "get",
        "configmaps",
        "nope",
        "-w",
        "--ignore-not-found",
        "-n",
        &ns.0,
    ]);
    assert_eq!((r.code, r.stdout.as_str()), (0, ""), "{r:?}");
}
