//! Integration tests of `--reason` against the real test cluster: journaled with the
//! change, listed by `changelog list|show|why`, and sent to the API server as the
//! percent-encoded `Myops-Reason` header (proven through the stand-in proxy, which records
//! the headers it forwards: the audit log records no request headers).

use serde_json::Value;

use crate::fixture::{Myops, Namespace, kubectl};
use crate::standin::Proxy;

/// A ConfigMap `cfg` in `ns` and the arguments of a merge patch of its `data.k`.
fn patch_args(ns: &Namespace, value: &str) -> Vec<String> {
    [
        "patch",
        "configmap",
        "cfg",
        "-n",
        &ns.0,
        "--type",
        "merge",
        "-p",
        &format!(r#"{{"data":{{"k":"{value}"}}}}"#),
    ]
    .map(String::from)
    .to_vec()
}

/// No protect: rule, so the patches here need no answer.
const PLAIN: &str =
    "name: myops\nverbs: [get, patch]\nresources: [configmaps]\nscopes: [namespace, cluster]\n";

#[test]
fn a_reason_is_journaled_and_shown_by_changelog_list_show_and_why() {
    let ns = Namespace::new("reason-list");
    kubectl(&[
        "create",
        "configmap",
        "cfg",
        "-n",
        &ns.0,
        "--from-literal=k=v0",
    ]);
    let m = Myops::new(PLAIN);
    let args = patch_args(&ns, "v1");
    let mut with: Vec<&str> = args.iter().map(String::as_str).collect();
    with.extend(["--reason", "incident 4711: rotate"]);
    let r = m.run(&with);
    assert_eq!(r.code, 0, "{r:?}");
    let id = m.latest_records()[0]["id"].as_str().unwrap().to_string();
    assert_eq!(m.latest_records()[0]["reason"], "incident 4711: rotate");
    // Without a reason, the list keeps its columns…
    let other = Myops::new(PLAIN);
    let args2 = patch_args(&ns, "v2");
    let r = other.run(&args2.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(r.code, 0, "{r:?}");
    let r = other.run(&["changelog", "list"]);
    assert!(
        r.stdout.lines().next().unwrap().ends_with("RESULT"),
        "{}",
        r.stdout
    );
    // …and with one it adds REASON.
    let r = m.run(&["changelog", "list"]);
    assert_eq!(r.code, 0, "{r:?}");
    let mut lines = r.stdout.lines();
    assert!(lines.next().unwrap().ends_with("REASON"), "{}", r.stdout);
    assert!(
        lines
            .next()
            .unwrap()
            .ends_with("success   incident 4711: rotate"),
        "{}",
        r.stdout
    );
    let r = m.run(&["changelog", "show", &id]);
    assert_eq!(r.code, 0, "{r:?}");
    let shown: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(shown["reason"], "incident 4711: rotate");
    let r = m.run(&[
        "changelog",
        "why",
        &format!("configmap/{}/cfg", ns.0),
        "data.k",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout.lines().next().unwrap().ends_with("REASON"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains(&id) && r.stdout.contains("incident 4711: rotate"),
        "{}",
        r.stdout
    );
}

#[test]
fn the_reason_reaches_the_api_server_as_the_percent_encoded_myops_reason_header() {
    let ns = Namespace::new("reason-header");
    kubectl(&[
        "create",
        "configmap",
        "cfg",
        "-n",
        &ns.0,
        "--from-literal=k=v0",
    ]);
    let proxy = Proxy::start();
    let mut m = Myops::new(PLAIN);
    let kc = proxy.kubeconfig(m.dir.path());
    m.set_env("KUBECONFIG", &kc.display().to_string());
    let reason = "incident é\n4711 100% \"sure\"";
    let args = patch_args(&ns, "v1");
    let mut with: Vec<&str> = args.iter().map(String::as_str).collect();
    with.extend(["--reason", reason]);
    let r = m.run(&with);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        kubectl(&[
            "get",
            "configmap",
            "cfg",
            "-n",
            &ns.0,
            "-o",
            "jsonpath={.data.k}"
        ]),
        "v1"
    );
    let seen = proxy.requests();
    assert!(seen.iter().any(|s| s.method == "PATCH"), "{seen:?}");
    for s in &seen {
        assert_eq!(
            s.header("myops-reason"),
            Some("incident%20%C3%A9%0A4711%20100%25%20\"sure\""),
            "{} {}",
            s.method,
            s.path
        );
    }
    // Without --reason, no header.
    let before = seen.len();
    let args = patch_args(&ns, "v2");
    let r = m.run(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(r.code, 0, "{r:?}");
    let after = proxy.requests();
    assert!(after.len() > before);
    assert!(
        after[before..]
            .iter()
            .all(|s| s.header("myops-reason").is_none()),
        "{after:?}"
    );
}
