//! `drift` (issue 16 part 2) against the real API server: after our patch, the real kubectl
//! as admin changes a field we set — drift names its field manager (`kubectl-patch`,
//! `kubectl-set`) and the field, exit 6; no drift after our own patch (exit 0); `-o json`
//! parsed; a Secret's changed value is reported without any value; a deleted object; an
//! error (the read refused by plugin.yaml) wins over drift.

use serde_json::Value;

use crate::fixture::{
    Myops, Namespace, Run, audit_mark, audit_since, create_deployment, create_secret, kubectl,
    kubectl_merge_patch,
};

/// The documented "drift found" exit code (src/exit.rs `ExitStatus::Drift`).
const DRIFT: i32 = 6;

fn myops() -> Myops {
    Myops::new(
        "name: myops\nverbs: [get, patch]\nresources: [configmaps, secrets, deployments]\nscopes: [namespace]\nmetrics: [ops_total]\n",
    )
}

/// `drift -n NS -o json ARGS…`, parsed, with its exit code.
fn report(m: &Myops, ns: &str, extra: &[&str]) -> (i32, Value, Run) {
    let mut args = vec!["drift", "-n", ns, "-o", "json"];
    args.extend_from_slice(extra);
    let r = m.run(&args);
    let v: Value = serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {r:?}"));
    (r.code, v, r)
}

/// The report's object `object` (`configmap/NS/web`).
fn object<'v>(report: &'v Value, object: &str) -> &'v Value {
    report["objects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["object"] == object)
        .unwrap_or_else(|| panic!("{object} not in {report:#}"))
}

/// ConfigMap `name` with `color: blue`, `size: m`.
fn configmap(ns: &str, name: &str) {
    kubectl(&[
        "create",
        "configmap",
        name,
        "-n",
        ns,
        "--from-literal=color=blue",
        "--from-literal=size=m",
    ]);
}

#[test]
fn drift_names_kubectl_patch_and_the_field_it_changed_after_ours_and_our_own_patch_is_no_drift() {
    let ns = Namespace::new("drift-cm");
    let m = myops();
    configmap(&ns.0, "web");
    configmap(&ns.0, "quiet");
    for name in ["web", "quiet"] {
        let r = m.merge_patch(&ns.0, "configmap", name, r#"{"data":{"color":"green"}}"#);
        assert_eq!(r.code, 0, "{r:?}");
    }

    // Nothing changed since our patches: exit 0, both unchanged.
    let r = m.run(&["drift", "-n", &ns.0]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stdout, "", "no table without drift: {r:?}");
    assert!(
        r.stderr
            .contains("No drift: 2 object(s) as our last change left them."),
        "{r:?}"
    );

    // The real kubectl as admin changes a field we set (its field manager: kubectl-patch)
    // and removes another. kubectl-create, which made the ConfigMap, is left owning
    // `"f:data": {}` — the map, not its keys: it is not named (it was, before `holds`
    // learnt that a leaf above a map is not ownership of its keys).
    kubectl_merge_patch(
        &ns.0,
        "configmap",
        "web",
        r#"{"data":{"color":"red","size":null}}"#,
    );
    let r = m.run(&["drift", "-n", &ns.0]);
    assert_eq!(r.code, DRIFT, "{r:?}");
    let lines: Vec<Vec<&str>> = r
        .stdout
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(
        lines[0],
        ["OBJECT", "FIELD", "MANAGER", "OPERATION", "TIME"]
    );
    assert_eq!(
        lines.len(),
        3,
        "two changed fields, one manager each: {r:?}"
    );
    let web = format!("configmap/{}/web", ns.0);
    assert_eq!(
        lines[1][..4],
        [web.as_str(), "data.color", "kubectl-patch", "Update"]
    );
    assert!(lines[1][4].parse::<jiff::Timestamp>().is_ok(), "{r:?}");
    // A removed field has no owner any more: the manager that wrote since is named.
    assert!(
        r.stdout
            .contains("data.size (removed)   kubectl-patch (wrote since)   Update"),
        "{r:?}"
    );
    assert!(
        r.stderr
            .contains("Drift: 1 of 2 object(s) changed since our last change"),
        "{r:?}"
    );

    let (code, v, r) = report(&m, &ns.0, &[]);
    assert_eq!(code, DRIFT, "{r:?}");
    assert_eq!(v["kind"], "DriftReport");
    assert_eq!(v["apiVersion"], "myops.drift/v1");
    assert_eq!(
        (v["checked"].as_u64(), v["drifted"].as_u64()),
        (Some(2), Some(1))
    );
    let o = object(&v, &web);
    assert_eq!(o["state"], "drifted");
    let ours = &m.latest_records()[0];
    assert_eq!(o["entry"], ours["id"]);
    assert_eq!(o["resourceVersion"], ours["resourceVersionAfter"]);
    assert_ne!(o["liveResourceVersion"], o["resourceVersion"]);
    let fields = o["fields"].as_array().unwrap();
    assert_eq!(fields.len(), 2, "{o:#}");
    assert_eq!(fields[1]["path"], "/data/size");
    assert_eq!(fields[1]["change"], "- data.size (was \"m\")");
    assert_eq!(fields[1]["owned"], false);
    assert_eq!(fields[1]["managers"][0]["manager"], "kubectl-patch");
    assert_eq!(fields[0]["path"], "/data/color");
    assert_eq!(fields[0]["field"], "data.color");
    assert_eq!(fields[0]["change"], "data.color: \"green\" → \"red\"");
    assert_eq!(fields[0]["owned"], true);
    assert_eq!(fields[0]["certain"], true);
    let managers = fields[0]["managers"].as_array().unwrap();
    assert_eq!(managers.len(), 1, "{o:#}");
    assert_eq!(managers[0]["manager"], "kubectl-patch");
    assert_eq!(managers[0]["operation"], "Update");
    assert_eq!(o["writersSince"][0]["manager"], "kubectl-patch");
    assert_eq!(
        object(&v, &format!("configmap/{}/quiet", ns.0))["state"],
        "unchanged"
    );

    // TYPE and NAME narrow it: the quiet one alone has not drifted.
    let (code, v, r) = report(&m, &ns.0, &["cm", "quiet"]);
    assert_eq!(code, 0, "{r:?}");
    assert_eq!(v["checked"], 1);

    // Without -A only the current namespace (the context's: not this one) is checked; -A
    // reads every journaled object by name in its own namespace. No fan-out over contexts.
    let here = m.run(&["drift", "-o", "json"]);
    assert_eq!(here.code, 0, "{here:?}");
    assert!(here.stdout.contains("\"checked\": 0,"), "{here:?}");
    let all = m.run(&["drift", "-A", "-o", "json"]);
    assert_eq!(all.code, DRIFT, "{all:?}");
    assert!(all.stdout.contains("\"checked\": 2,"), "{all:?}");
    let fanned = m.run(&["drift", "--all-contexts"]);
    assert_eq!(fanned.code, 2, "{fanned:?}");

    // Our own later change moves the baseline: no drift.
    let r = m.merge_patch(&ns.0, "configmap", "web", r#"{"data":{"color":"green"}}"#);
    assert_eq!(r.code, 0, "{r:?}");
    let (code, v, r) = report(&m, &ns.0, &[]);
    assert_eq!(code, 0, "{r:?}");
    assert_eq!(v["drifted"], 0);
    assert_eq!(object(&v, &web)["state"], "unchanged");
}

#[test]
fn drift_follows_a_container_image_through_its_list_merge_key_to_kubectl_set() {
    let ns = Namespace::new("drift-deploy");
    let m = myops();
    create_deployment(&ns.0, "api");
    let r = m.run(&[
        "patch",
        "deployment",
        "api",
        "-n",
        &ns.0,
        "-p",
        r#"{"spec":{"replicas":3,"template":{"spec":{"containers":[{"name":"api","image":"registry.invalid/api:2"}]}}}}"#,
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    kubectl(&[
        "set",
        "image",
        "deployment/api",
        "-n",
        &ns.0,
        "api=registry.invalid/api:3",
    ]);
    let (code, v, r) = report(&m, &ns.0, &["deployments"]);
    assert_eq!(code, DRIFT, "{r:?}");
    let o = object(&v, &format!("deployment/{}/api", ns.0));
    let fields = o["fields"].as_array().unwrap();
    let image = fields
        .iter()
        .find(|f| f["path"] == "/spec/template/spec/containers/0/image")
        .unwrap_or_else(|| panic!("{o:#}"));
    assert_eq!(image["field"], "spec.template.spec.containers[0].image");
    assert_eq!(
        image["change"],
        "spec.template.spec.containers[0].image: \"registry.invalid/api:2\" → \"registry.invalid/api:3\""
    );
    // kubectl-set owns the image through `k:{"name":"api"}` in its fieldsV1.
    assert_eq!(image["managers"][0]["manager"], "kubectl-set", "{o:#}");
    assert_eq!(image["owned"], true);
    // The replicas we set are untouched: not listed.
    assert!(
        !fields.iter().any(|f| f["path"] == "/spec/replicas"),
        "{o:#}"
    );
}

#[test]
fn drift_of_a_secret_names_the_writer_of_a_changed_value_and_never_shows_a_value() {
    let ns = Namespace::new("drift-secret");
    let m = myops();
    create_secret(&ns.0, "db", &["password=hunter2-old", "user=app"]);
    let r = m.merge_patch(
        &ns.0,
        "secret",
        "db",
        r#"{"stringData":{"password":"hunter2-ours"},"metadata":{"labels":{"rotated":"yes"}}}"#,
    );
    assert_eq!(r.code, 0, "{r:?}");
    let (code, _, r) = report(&m, &ns.0, &[]);
    assert_eq!(code, 0, "nothing changed since ours: {r:?}");

    // Someone sets the password by hand: "hunter2-hand" in base64.
    kubectl_merge_patch(
        &ns.0,
        "secret",
        "db",
        r#"{"data":{"password":"aHVudGVyMi1oYW5k"}}"#,
    );
    let (code, v, r) = report(&m, &ns.0, &[]);
    assert_eq!(code, DRIFT, "{r:?}");
    let o = object(&v, &format!("secret/{}/db", ns.0));
    assert_eq!(o["state"], "drifted");
    let fields = o["fields"].as_array().unwrap();
    assert_eq!(fields.len(), 1, "{o:#}");
    assert_eq!(fields[0]["path"], "/data/password");
    assert_eq!(fields[0]["certain"], false);
    assert_eq!(fields[0]["managers"][0]["manager"], "kubectl-patch");
    let table = m.run(&["drift", "-n", &ns.0]);
    assert_eq!(table.code, DRIFT, "{table:?}");
    assert!(
        table
            .stdout
            .contains("data.password (value may have changed)   kubectl-patch   Update"),
        "{table:?}"
    );
    for secret in [
        "hunter2",
        "aHVudGVyMi1oYW5k",
        "aHVudGVyMi1vbGQ",
        "aHVudGVyMi1vdXJz",
        "YXBw",
    ] {
        for out in [&r.stdout, &r.stderr, &table.stdout, &table.stderr] {
            assert!(!out.contains(secret), "{secret} shown: {out}");
        }
    }
}

#[test]
fn a_deleted_object_is_drift_and_an_error_wins_over_drift() {
    let ns = Namespace::new("drift-gone");
    let mut m = myops();
    configmap(&ns.0, "gone");
    configmap(&ns.0, "kept");
    for name in ["gone", "kept"] {
        let r = m.merge_patch(&ns.0, "configmap", name, r#"{"data":{"size":"l"}}"#);
        assert_eq!(r.code, 0, "{r:?}");
    }
    kubectl(&["delete", "configmap", "gone", "-n", &ns.0]);
    let r = m.run(&["drift", "-n", &ns.0]);
    assert_eq!(r.code, DRIFT, "{r:?}");
    let gone = format!("configmap/{}/gone", ns.0);
    assert_eq!(
        r.stdout
            .lines()
            .skip(1)
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
            .collect::<Vec<_>>(),
        [vec![gone.as_str(), "(deleted)"]],
        "{r:?}"
    );
    let (_, v, _) = report(&m, &ns.0, &[]);
    assert_eq!(object(&v, &gone)["state"], "deleted");

    // The same journal under a boundary without `get`: drift is a read, so it is refused
    // (exit 3) — and the error wins over the drift found before.
    let no_get = m.dir.path().join("no-get.yaml");
    std::fs::write(
        &no_get,
        "name: myops\nverbs: [patch]\nresources: [configmaps]\nscopes: [namespace]\nmetrics: [ops_total]\n",
    )
    .unwrap();
    m.set_env("MYOPS_CONFIG", &no_get.display().to_string());
    let (code, v, r) = report(&m, &ns.0, &[]);
    assert_eq!(code, 3, "{r:?}");
    assert_eq!(v["errors"], 2);
    assert!(
        object(&v, &gone)["error"]
            .as_str()
            .is_some_and(|e| e.contains("verb \"get\" is not in `verbs`")),
        "{v:#}"
    );
    assert!(r.stderr.contains(&format!("error: {gone}: ")), "{r:?}");
    assert!(
        r.stderr
            .contains("No drift in 0 of 2 object(s); 2 could not be checked (named above)."),
        "{r:?}"
    );
}

#[test]
fn a_journaled_namespace_that_is_no_dns_label_is_refused_before_any_request() {
    // Regression: the namespace of a change-log record (an editable file) went into the URL
    // unchecked: `..` reached the server as GET /api/v1/namespaces/../configmaps/web (a 500
    // "invalid key", exit 1, and every later object "not checked"), `../NS` as a 404 read
    // as "deleted" — drift found where there was none.
    let ns = Namespace::new("drift-hostile-ns");
    let m = myops();
    configmap(&ns.0, "web");
    let r = m.merge_patch(&ns.0, "configmap", "web", r#"{"data":{"size":"l"}}"#);
    assert_eq!(r.code, 0, "{r:?}");
    let ours = m.latest_records().pop().unwrap();
    let log = m.dir.path().join("myops/changelog.jsonl");
    let mut text = std::fs::read_to_string(&log).unwrap();
    for (id, hostile) in [
        ("hostile-1", "..".to_string()),
        ("hostile-2", format!("../{}", ns.0)),
    ] {
        let mut e = ours.clone();
        e["id"] = id.into();
        e["namespace"] = hostile.into();
        text.push_str(&format!("{e}\n"));
    }
    std::fs::write(&log, text).unwrap();
    let mark = audit_mark();
    let r = m.run(&["drift", "-A", "-o", "json"]);
    let v: Value = serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {r:?}"));
    assert_eq!(r.code, 2, "{r:?}");
    assert_eq!(
        (
            v["checked"].as_u64(),
            v["drifted"].as_u64(),
            v["errors"].as_u64()
        ),
        (Some(3), Some(0), Some(2)),
        "{v:#}"
    );
    assert_eq!(
        object(&v, &format!("configmap/{}/web", ns.0))["state"],
        "unchanged"
    );
    for hostile in [
        "configmap/../web".to_string(),
        format!("configmap/../{}/web", ns.0),
    ] {
        let o = object(&v, &hostile);
        assert_eq!(o["state"], "error", "{o:#}");
        assert!(
            o["error"]
                .as_str()
                .unwrap()
                .starts_with("invalid namespace \""),
            "{o:#}"
        );
    }
    let sent: Vec<String> = audit_since(mark)
        .iter()
        .filter_map(|e| e["requestURI"].as_str().map(str::to_string))
        .filter(|u| u.contains("/namespaces/.."))
        .collect();
    assert!(sent.is_empty(), "{sent:?}");
}
