//! Integration tests of attribution (docs/changelog.md, "Attribution and Events"): every
//! request names the command (`Kubectl-Command`, and the User-Agent the audit log records),
//! an outcome record keeps the API server's `Audit-Id`, which is the `auditID` of the
//! request's event in the real audit log, and with plugin.yaml `changelog.events: true` a
//! change is an Event on the object that `kubectl events` shows.

use serde_json::Value;

use crate::fixture::{Myops, Namespace, audit_mark, audit_since, cluster, kubectl};
use crate::fleet::{TwoNamespaces, audit_log_2, events_since, kubectl_in, log_len};
use crate::standin::Proxy;

/// get, patch and delete of ConfigMaps in a namespace; `events` is plugin.yaml
/// `changelog.events`.
fn plugin(events: Option<bool>) -> String {
    let mut y =
        "name: myops\nverbs: [get, patch, delete]\nresources: [configmaps]\nscopes: [namespace]\n"
            .to_string();
    if let Some(on) = events {
        y.push_str(&format!("changelog:\n  events: {on}\n"));
    }
    y
}

/// A namespace with ConfigMap `app` (`data.k: v0`).
fn namespace_with_app(test: &str) -> Namespace {
    let ns = Namespace::new(test);
    kubectl(&[
        "create",
        "configmap",
        "app",
        "-n",
        &ns.0,
        "--from-literal=k=v0",
    ]);
    ns
}

/// The session id a kubectl-myops User-Agent ends with (`… session/<id>`).
fn session_of(e: &Value) -> Option<&str> {
    e["userAgent"]
        .as_str()?
        .split_whitespace()
        .find_map(|w| w.strip_prefix("session/"))
}

/// The rows of `kubectl events` output as (TYPE, REASON, OBJECT, MESSAGE), split at the
/// header's column starts (kubectl prints a table with space-padded columns).
fn event_rows(table: &str) -> Vec<[String; 4]> {
    let mut lines = table.lines();
    let header = lines.next().unwrap_or_default();
    let at = |name: &str| header.find(name).unwrap_or_else(|| panic!("{table}"));
    let cols = [at("TYPE"), at("REASON"), at("OBJECT"), at("MESSAGE")];
    lines
        .map(|l| {
            let cell = |i: usize| {
                let end = cols.get(i + 1).copied().unwrap_or(l.len()).min(l.len());
                l[cols[i].min(l.len())..end].trim().to_string()
            };
            [cell(0), cell(1), cell(2), cell(3)]
        })
        .collect()
}

#[test]
fn the_audit_event_of_a_patch_is_the_entrys_audit_id_and_every_request_names_the_command() {
    let ns = namespace_with_app("attrib-audit");
    ns.grant("alice", "get,patch", "configmaps");
    let m = Myops::new(&plugin(None));
    let mark = audit_mark();
    let r = m.merge_patch_as("alice", &ns.0, "configmap", "app", r#"{"data":{"k":"v1"}}"#);
    assert_eq!(r.code, 0, "{r:?}");
    let rec = m.latest_records().pop().expect("the patch's record");
    assert_eq!(rec["result"], "success", "{rec}");
    let audit_id = rec["auditId"].as_str().expect("the outcome has an auditId");
    // The intent, written before the request, has none.
    assert!(m.records()[0].get("auditId").is_none());
    // Blocking audit mode: the event is written before the response.
    let events = audit_since(mark);
    let e = events
        .iter()
        .find(|e| e["auditID"] == audit_id)
        .unwrap_or_else(|| panic!("no audit event {audit_id} among {} events", events.len()));
    assert_eq!(e["stage"], "ResponseComplete");
    assert_eq!(e["verb"], "patch");
    assert_eq!(e["user"]["username"], "alice");
    assert_eq!(e["objectRef"]["resource"], "configmaps");
    assert_eq!(e["objectRef"]["namespace"], ns.0.as_str());
    assert_eq!(e["objectRef"]["name"], "app");
    let ua = e["userAgent"].as_str().unwrap();
    assert!(ua.starts_with("kubectl-myops/"), "{ua}");
    assert!(ua.contains(" (myops patch) "), "{ua}");
    assert_eq!(session_of(e), rec["session"].as_str(), "{ua}");
    // The patch body never reaches the User-Agent.
    assert!(!ua.contains("v1"), "{ua}");
    // Every request of the invocation (the reviews, the read, the patch) names the command.
    let session = rec["session"].as_str().unwrap();
    let of_session: Vec<&Value> = events
        .iter()
        .filter(|e| session_of(e) == Some(session))
        .collect();
    assert!(of_session.len() >= 3, "{of_session:?}");
    assert!(
        of_session
            .iter()
            .all(|e| e["userAgent"].as_str().unwrap().contains("(myops patch)"))
    );

    // `changelog show` prints it.
    let shown = m.run(&["changelog", "show", rec["id"].as_str().unwrap()]);
    assert_eq!(shown.code, 0, "{shown:?}");
    let v: Value = serde_json::from_str(&shown.stdout).unwrap();
    assert_eq!(v["auditId"], audit_id);

    // A read carries the command too: its audit event, found by the session in the UA.
    let mark = audit_mark();
    let g = m.run(&["--context", "alice", "get", "configmap", "app", "-n", &ns.0]);
    assert_eq!(g.code, 0, "{g:?}");
    let events = audit_since(mark);
    let read = events
        .iter()
        .find(|e| {
            e["verb"] == "get"
                && e["objectRef"]["name"] == "app"
                && e["objectRef"]["namespace"] == ns.0.as_str()
                && e["userAgent"]
                    .as_str()
                    .is_some_and(|a| a.starts_with("kubectl-myops/"))
        })
        .expect("the get's audit event");
    let read_session = session_of(read).expect("a session in the UA");
    assert_ne!(read_session, session);
    assert!(
        events
            .iter()
            .filter(|e| session_of(e) == Some(read_session))
            .all(|e| e["userAgent"].as_str().unwrap().contains(" (myops get) ")),
        "{events:?}"
    );
}

#[test]
fn every_request_carries_the_kubectl_command_header_with_the_command_path_only() {
    let ns = namespace_with_app("attrib-header");
    let proxy = Proxy::start();
    let mut m = Myops::new(&plugin(None));
    let kc = proxy.kubeconfig(m.dir.path());
    m.set_env("KUBECONFIG", &kc.display().to_string());
    let r = m.merge_patch(&ns.0, "configmap", "app", r#"{"data":{"k":"secret-v1"}}"#);
    assert_eq!(r.code, 0, "{r:?}");
    let seen = proxy.requests();
    assert!(seen.iter().any(|s| s.method == "PATCH"), "{seen:?}");
    for s in &seen {
        assert_eq!(
            s.header("kubectl-command"),
            Some("kubectl myops patch"),
            "{} {}",
            s.method,
            s.path
        );
        assert!(s.header("kubectl-session").is_some());
        let ua = s.header("user-agent").unwrap();
        assert!(ua.contains(" (myops patch) session/"), "{ua}");
    }
    let before = seen.len();
    let r = m.run(&["changelog", "list"]);
    assert_eq!(r.code, 0, "{r:?}");
    let r = m.run(&["get", "configmap", "app", "-n", &ns.0]);
    assert_eq!(r.code, 0, "{r:?}");
    let after = proxy.requests();
    assert!(after.len() > before);
    assert!(
        after[before..]
            .iter()
            .all(|s| s.header("kubectl-command") == Some("kubectl myops get")),
        "{after:?}"
    );
}

#[test]
fn events_of_alices_patch_and_delete_show_in_kubectl_events_with_her_name_and_the_entry() {
    let ns = namespace_with_app("attrib-events");
    ns.grant("alice", "get,patch,delete", "configmaps");
    ns.grant("alice", "create", "events.events.k8s.io");
    let m = Myops::new(&plugin(Some(true)));
    let v = m.run(&["config", "validate"]);
    assert!(
        v.stdout.contains(
            "\n  events: each change is also an Event on the object (changelog.events)\n"
        ),
        "{v:?}"
    );
    let r = m.run(&[
        "--context",
        "alice",
        "patch",
        "configmap",
        "app",
        "-n",
        &ns.0,
        "--type",
        "merge",
        "-p",
        r#"{"data":{"k":"v1"}}"#,
        "--reason",
        "OPS-42 raise k",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(!r.stderr.contains("warning"), "{r:?}");
    let patched = m.latest_records().pop().unwrap();
    let uid = kubectl(&[
        "get",
        "configmap",
        "app",
        "-n",
        &ns.0,
        "-o",
        "jsonpath={.metadata.uid}",
    ]);
    let r = m.run(&[
        "--context",
        "alice",
        "delete",
        "configmap",
        "app",
        "-n",
        &ns.0,
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    let deleted = m.latest_records().pop().unwrap();
    assert_eq!(deleted["operation"], "delete");
    let table = kubectl(&["events", "-n", &ns.0, "--for", "configmap/app"]);
    let rows = event_rows(&table);
    let row = |reason: &str| {
        rows.iter()
            .find(|r| r[1] == reason)
            .unwrap_or_else(|| panic!("no {reason} in\n{table}"))
            .clone()
    };
    assert_eq!(
        row("MyopsPatched"),
        [
            "Normal".to_string(),
            "MyopsPatched".into(),
            "ConfigMap/app".into(),
            format!(
                "by alice with kubectl-myops, change-log entry {}; reason: OPS-42 raise k",
                patched["id"].as_str().unwrap()
            ),
        ],
        "{table}"
    );
    assert_eq!(
        row("MyopsDeleted")[3],
        format!(
            "by alice with kubectl-myops, change-log entry {}",
            deleted["id"].as_str().unwrap()
        ),
        "{table}"
    );
    // The Events name the object by its uid (the delete's: the before-state's), so
    // `kubectl describe` finds them; reported by kubectl-myops.
    let listed: Value = serde_json::from_str(&kubectl(&[
        "get",
        "events.events.k8s.io",
        "-n",
        &ns.0,
        "-o",
        "json",
    ]))
    .unwrap();
    let items = listed["items"].as_array().unwrap();
    assert_eq!(items.len(), 2, "{listed}");
    for ev in items {
        assert_eq!(ev["regarding"]["uid"], uid.as_str(), "{ev}");
        assert_eq!(ev["reportingController"], "kubectl-myops");
        assert!(
            ev["reportingInstance"]
                .as_str()
                .unwrap()
                .starts_with("kubectl-myops-")
        );
        assert!(ev["metadata"]["name"].as_str().unwrap().starts_with("app."));
    }
    let actions: Vec<&str> = items
        .iter()
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    assert!(
        actions.contains(&"patch") && actions.contains(&"delete"),
        "{actions:?}"
    );
}

#[test]
fn an_event_bob_may_not_create_is_a_warning_and_his_patch_still_succeeds_journaled() {
    let ns = namespace_with_app("attrib-noevent");
    ns.grant("bob", "get,patch", "configmaps");
    let m = Myops::new(&plugin(Some(true)));
    let r = m.merge_patch_as("bob", &ns.0, "configmap", "app", r#"{"data":{"k":"v1"}}"#);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stdout, "configmap/app patched\n");
    let rec = m.latest_records().pop().unwrap();
    assert_eq!(rec["result"], "success");
    assert_eq!(rec["user"], "bob");
    let warnings: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| l.starts_with("warning:"))
        .collect();
    assert_eq!(
        warnings,
        [format!(
            "warning: the change to configmap/app was made and journaled (entry {}), but its Event was not recorded: RBAC: the caller may not create events.k8s.io/events in namespace \"{}\"",
            rec["id"].as_str().unwrap(),
            ns.0
        )],
        "{r:?}"
    );
    assert_eq!(
        kubectl(&[
            "get",
            "configmap",
            "app",
            "-n",
            &ns.0,
            "-o",
            "jsonpath={.data.k}"
        ]),
        "v1"
    );
}

#[test]
fn with_events_off_by_default_no_event_is_created() {
    let ns = namespace_with_app("attrib-eventsoff");
    ns.grant("alice", "get,patch", "configmaps");
    ns.grant("alice", "create", "events.events.k8s.io");
    let m = Myops::new(&plugin(None));
    assert!(!m.run(&["config", "validate"]).stdout.contains("events:"));
    let r = m.merge_patch_as("alice", &ns.0, "configmap", "app", r#"{"data":{"k":"v1"}}"#);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        kubectl(&["get", "events.events.k8s.io", "-n", &ns.0, "-o", "name"]),
        ""
    );
    // And `events: false` written out is the same.
    let m = Myops::new(&plugin(Some(false)));
    let r = m.merge_patch_as("alice", &ns.0, "configmap", "app", r#"{"data":{"k":"v2"}}"#);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        kubectl(&["get", "events.events.k8s.io", "-n", &ns.0, "-o", "name"]),
        ""
    );
}

#[test]
fn an_apply_batch_journals_each_objects_own_audit_id_and_event() {
    let ns = Namespace::new("attrib-batch");
    let m = Myops::new(
        "name: myops\nverbs: [get, patch, apply]\nresources: [configmaps]\nscopes: [namespace]\nchangelog:\n  events: true\n",
    );
    let manifest: String = ["a", "b", "c"]
        .iter()
        .map(|n| {
            format!(
                "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {n}\n  namespace: {}\ndata:\n  k: v\n",
                ns.0
            )
        })
        .collect();
    let f = m.dir.path().join("three.yaml");
    std::fs::write(&f, manifest).unwrap();
    let mark = audit_mark();
    let r = m.run(&["apply", "-f", f.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(!r.stderr.contains("warning"), "{r:?}");
    let events = audit_since(mark);
    let applies: Vec<Value> = m
        .latest_records()
        .into_iter()
        .filter(|r| r["operation"] == "apply")
        .collect();
    assert_eq!(applies.len(), 3, "{applies:#?}");
    let mut ids: Vec<&str> = Vec::new();
    for rec in &applies {
        let id = rec["auditId"].as_str().expect("an auditId per object");
        let e = events
            .iter()
            .find(|e| e["auditID"] == id)
            .unwrap_or_else(|| panic!("no audit event {id}"));
        assert_eq!(e["verb"], "patch");
        assert_eq!(e["objectRef"]["name"], rec["name"], "{e}");
        assert!(e["userAgent"].as_str().unwrap().contains(" (myops apply) "));
        ids.push(id);
    }
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 3);
    // One MyopsApplied Event per object, regarding its uid.
    for name in ["a", "b", "c"] {
        let table = kubectl(&["events", "-n", &ns.0, "--for", &format!("configmap/{name}")]);
        let rows = event_rows(&table);
        assert_eq!(rows.len(), 1, "{table}");
        assert_eq!(rows[0][1], "MyopsApplied", "{table}");
        assert_eq!(rows[0][2], format!("ConfigMap/{name}"), "{table}");
    }
}

#[test]
fn a_fan_out_sends_the_same_command_and_each_context_journals_its_servers_audit_id_and_event() {
    let ns = TwoNamespaces::new("attrib-fleet");
    ns.configmap_w();
    let (log1, log2) = (cluster().audit_log.clone(), audit_log_2());
    let (m1, m2) = (log_len(&log1), log_len(&log2));
    let m = Myops::new(
        "name: myops\nverbs: [get, patch]\nresources: [configmaps]\nscopes: [namespace]\nchangelog:\n  events: true\n",
    );
    let r = m.run(&[
        "patch",
        "configmap",
        "w",
        "-n",
        &ns.0,
        "--type",
        "merge",
        "-p",
        r#"{"data":{"k":"v2"}}"#,
        "--contexts",
        "admin,admin-2",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    let (e1, e2) = (events_since(&log1, m1), events_since(&log2, m2));
    let records = m.latest_records();
    assert_eq!(records.len(), 2, "{records:#?}");
    let session = records[0]["session"].as_str().unwrap();
    for (context, events) in [("admin", &e1), ("admin-2", &e2)] {
        let rec = records
            .iter()
            .find(|r| r["context"] == context)
            .expect("a record per context");
        let id = rec["auditId"].as_str().expect("an auditId");
        let e = events
            .iter()
            .find(|e| e["auditID"] == id)
            .unwrap_or_else(|| panic!("{context}: no audit event {id} on its own server"));
        assert_eq!(e["verb"], "patch");
        assert_eq!(
            e["userAgent"].as_str().unwrap(),
            format!(
                "kubectl-myops/{} (myops patch) session/{session}",
                env!("CARGO_PKG_VERSION")
            )
        );
        let table = kubectl_in(context, &["events", "-n", &ns.0, "--for", "configmap/w"]);
        let rows = event_rows(&table);
        assert_eq!(rows.len(), 1, "{context}: {table}");
        assert_eq!(
            rows[0][3],
            format!(
                "by admin with kubectl-myops, change-log entry {}",
                rec["id"].as_str().unwrap()
            )
        );
    }
}

#[test]
fn a_crd_sync_is_an_event_in_default_regarding_the_cluster_scoped_crd() {
    let suffix = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos()
        % 100_000;
    let group = format!("a{suffix}.attrib.myops.test");
    let name = format!("attribwidgets.{group}");
    let m = Myops::new(
        "name: myops\nverbs: [get, patch]\nresources: [customresourcedefinitions]\nscopes: [namespace, cluster]\nchangelog:\n  events: true\n",
    );
    let dir = m.dir.path().join("crds");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(
        dir.join("w.yaml"),
        format!(
            "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: {name}\nspec:\n  group: {group}\n  names: {{plural: attribwidgets, singular: attribwidget, kind: AttribWidget}}\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema: {{openAPIV3Schema: {{type: object, x-kubernetes-preserve-unknown-fields: true}}}}\n"
        ),
    )
    .unwrap();
    let r = m.run(&["crds", "sync", dir.to_str().unwrap()]);
    let uid = kubectl(&["get", "crd", &name, "-o", "jsonpath={.metadata.uid}"]);
    kubectl(&["delete", "crd", &name, "--wait=false"]);
    assert_eq!(r.code, 0, "{r:?}");
    let rec = m
        .latest_records()
        .into_iter()
        .find(|r| r["operation"] == "crd-apply")
        .expect("the crd-apply record");
    assert!(rec["auditId"].is_string(), "{rec:#}");
    let listed: Value = serde_json::from_str(&kubectl(&[
        "get",
        "events.events.k8s.io",
        "-n",
        "default",
        "-o",
        "json",
    ]))
    .unwrap();
    let ev = listed["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["regarding"]["name"] == name.as_str())
        .unwrap_or_else(|| panic!("no Event regarding {name} in default"));
    assert_eq!(ev["reason"], "MyopsCRDApplied");
    assert_eq!(ev["action"], "crd-apply");
    assert_eq!(ev["regarding"]["kind"], "CustomResourceDefinition");
    assert_eq!(ev["regarding"]["uid"], uid.as_str());
    assert!(ev["regarding"].get("namespace").is_none(), "{ev}");
}
