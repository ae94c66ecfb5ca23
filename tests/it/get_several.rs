//! `get` on several types at once (issue 11, item 2): `TYPE,TYPE`, mixed `TYPE/NAME`,
//! categories (`all`, and a CRD's own category from discovery). Every type passes the
//! plugin.yaml boundary and its own SelfSubjectAccessReview; a category's refused types are
//! skipped with one stderr line, a refused type the user named is exit 3 with no object
//! request sent. (Byte-for-byte output against kubectl: tests/it/parity.rs.)

use crate::fixture::{Myops, Namespace, audit_mark, audit_since, cluster, kubectl_apply};
use crate::metrics::{sample, scrape};

/// The ten types of kubectl's `all` category in Kubernetes 1.36, in discovery order.
const ALL: &str = "pods, replicationcontrollers, services, daemonsets.apps, deployments.apps, replicasets.apps, statefulsets.apps, horizontalpodautoscalers.autoscaling, cronjobs.batch, jobs.batch";

fn boundary(resources: &str, job: &str) -> Myops {
    Myops::new(&format!(
        "name: myops\nverbs: [get]\nresources: [{resources}]\nscopes: [namespace, cluster]\nmetrics: [ops_total, ops_errors_total]\npushgateway:\n  url: {}\n  job: {job}\n  instance: test\n  timeout: 2s\n",
        cluster().pushgateway
    ))
}

/// Requests bob made for objects (not reviews) in `ns` after `mark`.
fn object_requests(mark: u64, ns: &str) -> Vec<String> {
    audit_since(mark)
        .iter()
        .filter(|e| e.pointer("/user/username").and_then(|v| v.as_str()) == Some("bob"))
        .filter(|e| e.pointer("/objectRef/namespace").and_then(|v| v.as_str()) == Some(ns))
        .filter_map(|e| {
            e.pointer("/objectRef/resource")
                .and_then(|v| v.as_str())
                .map(String::from)
        })
        .collect()
}

#[test]
fn types_outside_plugin_yaml_in_all_are_skipped_with_one_stderr_line() {
    let ns = Namespace::new("several-boundary");
    ns.pod("web");
    let m = boundary("pods, services, configmaps", &ns.0);
    let r = m.run(&["get", "all", "-n", &ns.0, "-o", "name"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stdout, "pod/web\n", "{r:?}");
    assert_eq!(
        r.stderr,
        "skipped types of \"all\" that this plugin may not read (outside plugin.yaml: replicationcontrollers, daemonsets.apps, deployments.apps, replicasets.apps, statefulsets.apps, horizontalpodautoscalers.autoscaling, cronjobs.batch, jobs.batch)\n",
        "{r:?}"
    );
    // One operation, labelled with the types fetched (never the category as typed).
    let text = scrape(&cluster().pushgateway);
    let job = format!("job=\"{}\"", ns.0);
    assert_eq!(
        sample(
            &text,
            "ops_total",
            &[&job, "resource=\"pods,services\"", "status=\"success\""]
        ),
        Some(1.0),
        "{text}"
    );
}

#[test]
fn a_category_whose_every_type_is_refused_is_exit_3() {
    let ns = Namespace::new("several-none");
    let m = boundary("configmaps", &ns.0);
    let r = m.run(&["get", "all", "-n", &ns.0]);
    assert_eq!(r.code, 3, "{r:?}");
    assert_eq!(r.stdout, "");
    assert_eq!(
        r.stderr,
        format!(
            "error: denied: every type of \"all\" is refused (outside plugin.yaml: {ALL}); add the types to `resources` in plugin.yaml or ask a cluster admin for RBAC\n"
        ),
        "{r:?}"
    );
}

#[test]
fn types_rbac_denies_in_all_are_skipped_but_a_named_denied_type_is_exit_3_before_any_request() {
    let ns = Namespace::new("several-rbac");
    ns.pod("web");
    ns.grant("bob", "list", "pods");
    let m = boundary(ALL, &ns.0);
    let mark = audit_mark();
    let r = m.run(&["get", "all", "-n", &ns.0, "--context", "bob", "-o", "name"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stdout, "pod/web\n", "{r:?}");
    assert_eq!(
        r.stderr,
        "skipped types of \"all\" that this plugin may not read (RBAC denies list: replicationcontrollers, services, daemonsets.apps, deployments.apps, replicasets.apps, statefulsets.apps, horizontalpodautoscalers.autoscaling, cronjobs.batch, jobs.batch)\n",
        "{r:?}"
    );
    // Named explicitly, the denied type refuses the whole command: nothing is fetched, not
    // even the allowed pods.
    let r = m.run(&["get", "pods,services", "-n", &ns.0, "--context", "bob"]);
    assert_eq!(r.code, 3, "{r:?}");
    assert_eq!(r.stdout, "");
    assert!(
        r.stderr
            .starts_with("error: forbidden: user \"bob\" cannot list services in namespace"),
        "{r:?}"
    );
    let sent = object_requests(mark, &ns.0);
    assert_eq!(sent, ["pods"], "only the first run's pods list: {sent:?}");
}

#[test]
fn a_crds_own_category_from_discovery_expands_to_its_types() {
    let ns = Namespace::new("several-category");
    let group = format!("{}.cat.example.com", ns.0);
    for (plural, kind) in [("gadgets", "Gadget"), ("gizmos", "Gizmo")] {
        kubectl_apply(&format!(
            "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: {plural}.{group}\nspec:\n  group: {group}\n  scope: Namespaced\n  names: {{plural: {plural}, singular: {s}, kind: {kind}, categories: [{cat}]}}\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema: {{type: object, x-kubernetes-preserve-unknown-fields: true}}\n",
            s = kind.to_lowercase(),
            cat = ns.0
        ));
    }
    crate::fixture::wait_established(&[
        format!("gadgets.{group}").as_str(),
        format!("gizmos.{group}").as_str(),
    ]);
    for (kind, name) in [("Gadget", "g1"), ("Gizmo", "z1")] {
        kubectl_apply(&format!(
            "apiVersion: {group}/v1\nkind: {kind}\nmetadata:\n  name: {name}\n  namespace: {}\n",
            ns.0
        ));
    }
    let m = boundary(&format!("gadgets.{group}, gizmos.{group}"), &ns.0);
    let mut r = m.run(&["get", &ns.0, "-n", &ns.0, "-o", "name"]);
    for _ in 0..20 {
        if r.code == 0 {
            break;
        }
        // Discovery may lag the Established condition by a moment.
        std::thread::sleep(std::time::Duration::from_millis(250));
        r = m.run(&["get", &ns.0, "-n", &ns.0, "-o", "name"]);
    }
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        r.stdout,
        format!("gadget.{group}/g1\ngizmo.{group}/z1\n"),
        "{r:?}"
    );
    assert_eq!(r.stderr, "", "{r:?}");
    for crd in ["gadgets", "gizmos"] {
        crate::fixture::kubectl(&["delete", "crd", &format!("{crd}.{group}"), "--wait=false"]);
    }
}

#[test]
fn names_with_a_category_are_a_usage_error_before_any_request() {
    let ns = Namespace::new("several-usage");
    let m = boundary(ALL, &ns.0);
    let r = m.run(&["get", "all", "web", "-n", &ns.0]);
    assert_eq!(r.code, 2, "{r:?}");
    assert_eq!(
        r.stderr,
        "error: \"all\" is a category of several types; give names with one TYPE (e.g. `get pods NAME`), or list the category without names\n"
    );
    let r = m.run(&["get", "pods,services/web", "-n", &ns.0]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr
            .contains("arguments in resource/name form must have a single resource and name"),
        "{r:?}"
    );
}
