//! `delete` over several contexts (`--contexts`, docs/fleet.md) against the two real
//! apiservers of the test cluster: canary waves (the rest only after every canary context
//! succeeded), lines prefixed by the context, one session id for every context, and
//! `rollback --session` putting back what the whole fan-out deleted.

use serde_json::Value;

use crate::fixture::{Myops, Run, cluster};
use crate::fleet::{TwoNamespaces, audit_log_2, events_since, kubectl_in, log_len, summary_lines};

/// A boundary that lets the plugin delete ConfigMaps (and read them back).
fn plugin() -> Myops {
    Myops::new(
        "name: myops\nverbs: [get, patch, delete]\nresources: [configmaps]\nscopes: [namespace]\nmetrics: [ops_total]\n",
    )
}

/// Whether ConfigMap `w` exists in `ns` on the server of `context` (kubectl as admin).
fn w_exists(context: &str, ns: &str) -> bool {
    kubectl_in(context, &["get", "configmaps", "-n", ns, "-o", "name"])
        .lines()
        .any(|l| l == "configmap/w")
}

/// The DELETE requests of ConfigMaps in `ns` among audit `events`.
fn deletes_in(events: &[Value], ns: &str) -> usize {
    events
        .iter()
        .filter(|e| {
            e["verb"] == "delete"
                && e["objectRef"]["resource"] == "configmaps"
                && e["objectRef"]["namespace"] == ns
        })
        .count()
}

/// The session id the rollback hint on stderr names.
fn session_of(r: &Run) -> String {
    let hint = "to undo the changes of this invocation: kubectl myops rollback --session ";
    r.stderr
        .lines()
        .find_map(|l| l.strip_prefix(hint))
        .unwrap_or_else(|| panic!("no rollback hint: {r:?}"))
        .to_string()
}

#[test]
fn a_configmap_deleted_in_both_contexts_shares_one_session_and_rollback_session_puts_both_back() {
    let ns = TwoNamespaces::new("delete-fleet");
    ns.configmap_w();
    let m = plugin();
    let r = m.run(&[
        "delete",
        "configmap",
        "w",
        "-n",
        &ns.0,
        "--contexts",
        "admin,admin-2",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        r.stdout,
        format!(
            "admin\tconfigmap \"w\" deleted from {0} namespace\nadmin-2\tconfigmap \"w\" deleted from {0} namespace\n",
            ns.0
        )
    );
    assert!(!w_exists("admin", &ns.0) && !w_exists("admin-2", &ns.0));
    let session = session_of(&r);
    // One delete entry per context, each with the whole before-state, all in that session.
    let deletes: Vec<Value> = m
        .latest_records()
        .into_iter()
        .filter(|e| e["operation"] == "delete")
        .collect();
    assert_eq!(deletes.len(), 2, "{deletes:#?}");
    let mut contexts: Vec<&str> = deletes
        .iter()
        .map(|e| e["context"].as_str().unwrap())
        .collect();
    contexts.sort_unstable();
    assert_eq!(contexts, ["admin", "admin-2"]);
    for e in &deletes {
        assert_eq!(e["session"], session.as_str(), "{e:#}");
        assert_eq!(e["result"], "success", "{e:#}");
        assert_eq!(e["before"]["data"]["k"], "v1", "{e:#}");
    }
    // The whole fan-out undone at once: each entry in the context it was made in.
    let r = m.run(&["rollback", "--session", &session]);
    assert_eq!(r.code, 0, "{r:?}");
    for ctx in ["admin", "admin-2"] {
        assert!(w_exists(ctx, &ns.0), "{ctx}: {r:?}");
        assert_eq!(
            kubectl_in(
                ctx,
                &[
                    "get",
                    "configmap",
                    "w",
                    "-n",
                    &ns.0,
                    "-o",
                    "jsonpath={.data.k}"
                ]
            ),
            "v1"
        );
    }
}

#[test]
fn a_denied_canary_stops_the_second_wave_and_nothing_is_deleted_there() {
    let ns = TwoNamespaces::new("delete-fleet-canary");
    ns.configmap_w();
    let (log1, log2) = (cluster().audit_log.clone(), audit_log_2());
    let (m1, m2) = (log_len(&log1), log_len(&log2));
    let m = plugin();
    // bob (no binding) is the canary: denied, so admin-2 is never asked.
    let r = m.run(&[
        "delete",
        "configmap",
        "w",
        "-n",
        &ns.0,
        "--contexts",
        "bob,admin-2",
    ]);
    assert_eq!(r.code, 3, "{r:?}");
    assert_eq!(r.stdout, "", "{r:?}");
    assert!(
        r.stderr.contains(
            "error: delete stopped after a failure; not attempted (nothing was sent): admin-2\n"
        ),
        "{r:?}"
    );
    let summary = summary_lines(&r);
    assert_eq!(summary.len(), 1, "{r:?}");
    assert!(
        summary[0].starts_with("error: context bob: ") && summary[0].ends_with("(exit 3)"),
        "{r:?}"
    );
    assert!(
        !r.stderr.contains("rollback --session"),
        "nothing was deleted: {r:?}"
    );
    assert!(w_exists("admin", &ns.0) && w_exists("admin-2", &ns.0));
    let (e1, e2) = (events_since(&log1, m1), events_since(&log2, m2));
    assert_eq!(deletes_in(&e1, &ns.0) + deletes_in(&e2, &ns.0), 0);
    // The second server saw no request of this invocation at all.
    let first: Value = m.latest_records().into_iter().next().expect("a record");
    assert_eq!(first["context"], "bob");
    let ua = format!("session/{}", first["session"].as_str().unwrap());
    assert!(
        !e2.iter()
            .any(|e| e["userAgent"].as_str().is_some_and(|a| a.ends_with(&ua))),
        "admin-2 was not attempted"
    );
    // The canary wave widened: both contexts in the first wave, both deleted.
    let r = m.run(&[
        "delete",
        "configmap",
        "w",
        "-n",
        &ns.0,
        "--contexts",
        "admin,admin-2",
        "--canary",
        "2",
        "-o",
        "name",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stdout, "admin\tconfigmap/w\nadmin-2\tconfigmap/w\n");
    assert!(!w_exists("admin", &ns.0) && !w_exists("admin-2", &ns.0));
}

#[test]
fn a_server_dry_run_over_both_contexts_deletes_nothing_and_offers_no_rollback() {
    let ns = TwoNamespaces::new("delete-fleet-dry");
    ns.configmap_w();
    let m = plugin();
    let r = m.run(&[
        "delete",
        "configmap",
        "w",
        "-n",
        &ns.0,
        "--dry-run=server",
        "--contexts",
        "admin,admin-2",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        r.stdout,
        format!(
            "admin\tconfigmap \"w\" deleted from {0} namespace (server dry run)\nadmin-2\tconfigmap \"w\" deleted from {0} namespace (server dry run)\n",
            ns.0
        )
    );
    assert!(!r.stderr.contains("rollback --session"), "{r:?}");
    assert!(w_exists("admin", &ns.0) && w_exists("admin-2", &ns.0));
}
