//! `get` through the boundary and the SelfSubjectAccessReview gate, as admin, alice and bob.

use crate::fixture::{Myops, Namespace, audit_events, kubectl};

#[test]
fn alice_with_a_pod_reader_role_gets_table_json_and_name() {
    let ns = Namespace::new("alice-get");
    ns.pod("web-1");
    ns.grant("alice", "get,list", "pods");
    let m = Myops::standard(&ns.0);

    let r = m.run(&["get", "pods", "-n", &ns.0, "--context", "alice"]);
    assert_eq!(r.code, 0, "{r:?}");
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{r:?}");
    let header: Vec<&str> = lines[0].split_whitespace().collect();
    assert_eq!(header, ["NAME", "READY", "STATUS", "RESTARTS", "AGE"]);
    let row: Vec<&str> = lines[1].split_whitespace().collect();
    assert_eq!(&row[..3], ["web-1", "0/1", "Pending"]);

    let r = m.run(&[
        "get",
        "pods",
        "-n",
        &ns.0,
        "--context",
        "alice",
        "-o",
        "json",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    let v: serde_json::Value = serde_json::from_str(&r.stdout).expect("valid JSON");
    assert_eq!(v["kind"], "List");
    assert_eq!(v["items"][0]["kind"], "Pod");
    assert_eq!(v["items"][0]["metadata"]["name"], "web-1");
    assert!(v["items"][0]["metadata"].get("managedFields").is_none());

    let r = m.run(&[
        "get",
        "pods",
        "-n",
        &ns.0,
        "--context",
        "alice",
        "-o",
        "name",
    ]);
    assert_eq!((r.code, r.stdout.as_str()), (0, "pod/web-1\n"), "{r:?}");

    let r = m.run(&[
        "get",
        "pod/web-1",
        "-n",
        &ns.0,
        "--context",
        "alice",
        "-o",
        "yaml",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    let y: serde_json::Value = serde_saphyr::from_str(&r.stdout).expect("valid YAML");
    assert_eq!(y["metadata"]["labels"]["app"], "web");
    assert_eq!(
        y["spec"]["containers"][0]["image"],
        "registry.invalid/pause:1"
    );

    let r = m.run(&[
        "get",
        "po",
        "-n",
        &ns.0,
        "--context",
        "alice",
        "-l",
        "app=nothing",
    ]);
    assert_eq!((r.code, r.stdout.as_str()), (0, ""), "{r:?}");
    assert_eq!(
        r.stderr.trim(),
        format!("No resources found in {} namespace.", ns.0)
    );
}

#[test]
fn bob_without_bindings_is_denied_with_exit_3_and_no_list_request_is_sent() {
    let ns = Namespace::new("bob-denied");
    ns.pod("web-1");
    let m = Myops::standard(&ns.0);
    let r = m.run(&["get", "pods", "-n", &ns.0, "--context", "bob"]);
    assert_eq!(r.code, 3, "{r:?}");
    assert_eq!(r.stdout, "");
    let lines: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| !l.starts_with("warning:"))
        .collect();
    assert_eq!(lines.len(), 1, "one stderr line: {r:?}");
    let line = lines[0];
    for part in [
        "forbidden",
        "\"bob\"",
        "list",
        "pods",
        &format!("namespace \"{}\"", ns.0),
    ] {
        assert!(line.contains(part), "{part:?} missing in {line:?}");
    }
    assert!(
        audit_events("bob", "pods", &ns.0).is_empty(),
        "a pods request by bob reached the server"
    );
}

#[test]
fn as_bob_from_admin_is_denied_exactly_like_bob() {
    let ns = Namespace::new("as-bob");
    let m = Myops::standard(&ns.0);
    let as_bob = m.run(&["get", "pods", "-n", &ns.0, "--as", "bob"]);
    let bob = m.run(&["get", "pods", "-n", &ns.0, "--context", "bob"]);
    assert_eq!((as_bob.code, bob.code), (3, 3));
    assert_eq!(as_bob.stderr, bob.stderr);
    let admin = m.run(&["get", "pods", "-n", &ns.0]);
    assert_eq!(admin.code, 0, "{admin:?}");
}

#[test]
fn alice_allowed_to_get_one_pod_by_name_but_not_to_list() {
    let ns = Namespace::new("alice-named");
    ns.pod("web-1");
    ns.grant("alice", "get", "pods");
    let m = Myops::standard(&ns.0);
    let r = m.run(&[
        "get",
        "pods",
        "web-1",
        "-n",
        &ns.0,
        "--context",
        "alice",
        "-o",
        "name",
    ]);
    assert_eq!((r.code, r.stdout.as_str()), (0, "pod/web-1\n"), "{r:?}");
    let r = m.run(&["get", "pods", "-n", &ns.0, "--context", "alice"]);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(r.stderr.contains("cannot list pods"), "{r:?}");
}

#[test]
fn resource_outside_plugin_yaml_is_exit_3_without_a_request_for_it() {
    let ns = Namespace::new("outside");
    kubectl(&["create", "configmap", "cfg", "-n", &ns.0]);
    let m = Myops::standard(&ns.0);
    let r = m.run(&["get", "configmaps", "-n", &ns.0]);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(
        r.stderr
            .contains("resource \"configmaps\" is not in `resources`"),
        "{r:?}"
    );
    assert!(
        audit_events("admin", "configmaps", &ns.0).is_empty(),
        "a configmaps request reached the server"
    );
    // The audit check can see our requests: an allowed get is there.
    let r = m.run(&["get", "pods", "-n", &ns.0]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        !audit_events("admin", "pods", &ns.0).is_empty(),
        "the audit log shows no request by kubectl-myops"
    );
}

#[test]
fn verb_outside_plugin_yaml_is_exit_3_before_any_api_request() {
    let m = Myops::new("name: myops\nverbs: [patch]\nresources: [pods]\nscopes: [namespace]\n");
    // An address where nothing listens: any request would fail with exit 1, not 3.
    let r = m.run(&["get", "pods", "--server", "https://127.0.0.1:9"]);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(r.stderr.contains("verb \"get\" is not in `verbs`"), "{r:?}");
}

#[test]
fn unknown_type_is_exit_2_and_missing_object_is_exit_4() {
    let ns = Namespace::new("notfound");
    ns.pod("web-1");
    let m = Myops::standard(&ns.0);
    let r = m.run(&["get", "nosuchkinds", "-n", &ns.0]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr
            .contains("doesn't have a resource type \"nosuchkinds\""),
        "{r:?}"
    );
    let r = m.run(&["get", "pod", "missing", "-n", &ns.0]);
    assert_eq!(r.code, 4, "{r:?}");
    assert_eq!(
        r.stderr.trim(),
        "Error from server (NotFound): pods \"missing\" not found"
    );
    let r = m.run(&["get", "pod", "missing", "-n", &ns.0, "--ignore-not-found"]);
    assert_eq!((r.code, r.stdout.as_str()), (0, ""), "{r:?}");
    // Found and missing together: the found one prints, the exit code says 4.
    let r = m.run(&["get", "pods", "web-1", "missing", "-n", &ns.0, "-o", "name"]);
    assert_eq!((r.code, r.stdout.as_str()), (4, "pod/web-1\n"), "{r:?}");
}

#[test]
fn all_namespaces_needs_scope_cluster() {
    let ns = Namespace::new("all-ns");
    // Namespaces of earlier runs may still be terminating (the namespace controller deletes
    // them a moment later), so the pod's name is this run's own.
    let pod = format!("pod-{}", ns.0);
    ns.pod(&pod);
    let narrow = Myops::new("name: myops\nverbs: [get]\nresources: [pods]\nscopes: [namespace]\n");
    let r = narrow.run(&["get", "pods", "-A"]);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(
        r.stderr
            .contains("--all-namespaces needs scope \"cluster\""),
        "{r:?}"
    );
    let wide = Myops::standard(&ns.0);
    let r = wide.run(&["get", "pods", "-A"]);
    assert_eq!(r.code, 0, "{r:?}");
    let line = r
        .stdout
        .lines()
        .find(|l| l.contains(&pod))
        .expect("pod listed");
    assert_eq!(line.split_whitespace().next(), Some(ns.0.as_str()));
    assert!(r.stdout.starts_with("NAMESPACE "), "{r:?}");
}

#[test]
fn kubeconfig_list_skips_missing_files_and_namespace_comes_from_the_context() {
    let ns = Namespace::new("kcfg");
    ns.pod("web-1");
    ns.grant("alice", "get,list", "pods");
    let mut m = Myops::standard(&ns.0);
    let copy = m.dir.path().join("kubeconfig");
    std::fs::copy(&crate::fixture::cluster().kubeconfig, &copy).unwrap();
    kubectl(&[
        "config",
        "set-context",
        "alice",
        &format!("--namespace={}", ns.0),
        "--kubeconfig",
        copy.to_str().unwrap(),
    ]);
    let list = format!(
        "{}:{}",
        m.dir.path().join("missing").display(),
        copy.display()
    );
    m.set_env("KUBECONFIG", &list);
    let r = m.run(&["get", "pods", "--context", "alice", "-o", "name"]);
    assert_eq!((r.code, r.stdout.as_str()), (0, "pod/web-1\n"), "{r:?}");
    // --kubeconfig that does not exist is an error (exit 2), as in kubectl.
    let r = m.run(&["get", "pods", "--kubeconfig", "/nonexistent/config"]);
    assert_eq!(r.code, 2, "{r:?}");
}

#[test]
fn a_type_served_by_two_groups_was_refused_as_ambiguous() {
    let id = std::process::id();
    let plural = format!("twin{id}s");
    let groups = [format!("a{id}.myops.test"), format!("b{id}.myops.test")];
    let ns = Namespace::new("get-two-groups");
    for (n, group) in groups.iter().enumerate() {
        crate::fixture::kubectl_apply(&format!(
            "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: {plural}.{group}\nspec:\n  group: {group}\n  scope: Namespaced\n  names: {{plural: {plural}, singular: twin{id}, kind: Twin{id}}}\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema: {{type: object, x-kubernetes-preserve-unknown-fields: true}}\n"
        ));
        crate::fixture::wait_established(&[&format!("{plural}.{group}")]);
        crate::fixture::kubectl_apply(&format!(
            "apiVersion: {group}/v1\nkind: Twin{id}\nmetadata: {{name: in-group-{n}, namespace: {}}}\n",
            ns.0
        ));
    }
    let m = Myops::new(&format!(
        "name: myops\nverbs: [get]\nresources: [{plural}.{}, {plural}.{}]\nscopes: [namespace]\n",
        groups[0], groups[1]
    ));
    let r = m.run(&["get", &plural, "-n", &ns.0, "-o", "name"]);
    let theirs = kubectl(&["get", &plural, "-n", &ns.0, "-o", "name"]);
    for g in &groups {
        let _ = crate::fixture::kubectl_at(
            &crate::fixture::cluster().kubeconfig,
            &["delete", "crd", &format!("{plural}.{g}"), "--wait=false"],
        );
    }
    // kubectl's priority: the first group in discovery order (CRD groups by name).
    let chosen = format!("twin{id}.{}/in-group-0\n", groups[0]);
    assert_eq!(theirs, chosen);
    assert_eq!((r.code, r.stdout.as_str()), (0, chosen.as_str()), "{r:?}");
    assert_eq!(
        r.stderr,
        format!(
            "warning: resource type \"{plural}\" is served by {plural}.{} and {plural}.{}; using {plural}.{0}, the first in the server's discovery order as kubectl picks it; name another as plural.group\n",
            groups[0], groups[1]
        )
    );
}
