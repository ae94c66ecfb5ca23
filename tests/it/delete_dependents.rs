//! The delete preview names the dependents found through `metadata.ownerReferences`, against
//! the real garbage collector of the test cluster's kube-controller-manager: with `--cascade`
//! background or foreground what goes with the objects (a Deployment's ReplicaSets and their
//! Pods, transitively), with orphan the direct dependents that stay.

use std::time::{Duration, Instant};

use crate::fixture::{Myops, Namespace, create_deployment, kubectl};

const PLUGIN: &str = "name: myops\nverbs: [get, patch, delete]\nresources: [deployments, replicasets, pods]\nscopes: [namespace]\n";

/// `kubectl get KIND -n NS -o name`, sorted.
fn names(ns: &str, kind: &str) -> Vec<String> {
    let mut v: Vec<String> = kubectl(&["get", kind, "-n", ns, "-o", "name"])
        .lines()
        .map(str::to_string)
        .collect();
    v.sort();
    v
}

/// Waits until `ns` holds `n` objects of `kind`.
fn wait_for(ns: &str, kind: &str, n: usize) -> Vec<String> {
    let end = Instant::now() + Duration::from_secs(60);
    loop {
        let found = names(ns, kind);
        if found.len() == n {
            return found;
        }
        assert!(Instant::now() < end, "{kind} in {ns}: {found:?}, want {n}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn the_preview_names_the_replicasets_and_pods_a_cascade_deletes_and_orphan_keeps() {
    let ns = Namespace::new("del-dependents");
    create_deployment(&ns.0, "web");
    create_deployment(&ns.0, "api");
    kubectl(&[
        "label",
        "deployment",
        "web",
        "api",
        "tier=front",
        "-n",
        &ns.0,
    ]);
    let rs = wait_for(&ns.0, "replicasets", 2);
    let pods = wait_for(&ns.0, "pods", 4);
    let m = Myops::new(PLUGIN);

    let r = m.run(&[
        "delete",
        "deployments",
        "-l",
        "tier=front",
        "-n",
        &ns.0,
        "--dry-run=server",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stderr.contains("about to delete 6 dependent(s) with them (--cascade=background: the garbage collector deletes what they own, found through ownerReferences):\n"),
        "{r:?}"
    );
    for o in rs.iter().chain(&pods) {
        let line = format!(
            "  {}/{} (namespace {})\n",
            if o.starts_with("replicaset") {
                "replicaset.apps"
            } else {
                "pod"
            },
            o.split_once('/').unwrap().1,
            ns.0
        );
        assert!(r.stderr.contains(&line), "{line:?} in {r:?}");
    }
    assert_eq!(
        names(&ns.0, "deployments").len(),
        2,
        "a dry run deletes nothing"
    );

    let r = m.run(&[
        "delete",
        "deployments",
        "-l",
        "tier=front",
        "-n",
        &ns.0,
        "--dry-run=server",
        "--cascade=orphan",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stderr.contains("2 dependent(s) found through ownerReferences are kept (--cascade=orphan: only their owner references to the deleted objects are removed):\n"),
        "{r:?}"
    );
    assert!(
        !r.stderr.contains("  pod/"),
        "only the direct dependents: {r:?}"
    );
    assert!(!r.stderr.contains("about to delete 6"), "{r:?}");

    // The garbage collector does what the preview said.
    let r = m.run(&["delete", "deployments", "-l", "tier=front", "-n", &ns.0]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stderr.contains("about to delete 6 dependent(s)"), "{r:?}");
    wait_for(&ns.0, "replicasets", 0);
    wait_for(&ns.0, "pods", 0);
}

#[test]
fn the_preview_of_a_crd_delete_names_what_its_custom_resources_own() {
    let ns = Namespace::new("del-crd-dependents");
    let group = format!("d{}.deldeps.example.com", &ns.0[ns.0.len() - 5..]);
    let crd = format!("gizmos.{group}");
    crate::fixture::kubectl_apply(&format!(
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {{name: {crd}}}\nspec:\n  group: {group}\n  names: {{plural: gizmos, singular: gizmo, kind: Gizmo}}\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema: {{openAPIV3Schema: {{type: object, x-kubernetes-preserve-unknown-fields: true}}}}\n"
    ));
    crate::fixture::wait_established(&[&crd]);
    crate::fixture::kubectl_apply(&format!(
        "apiVersion: {group}/v1\nkind: Gizmo\nmetadata: {{name: g1, namespace: {}}}\nspec: {{size: 1}}\n",
        ns.0
    ));
    let owner = kubectl(&[
        "get",
        &crd,
        "g1",
        "-n",
        &ns.0,
        "-o",
        "jsonpath={.metadata.uid}",
    ]);
    crate::fixture::kubectl_apply(&format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: g1-config\n  namespace: {}\n  ownerReferences: [{{apiVersion: {group}/v1, kind: Gizmo, name: g1, uid: {owner}}}]\ndata: {{k: v}}\n",
        ns.0
    ));
    let m = Myops::new(&format!(
        "name: myops\nverbs: [get, patch, delete]\nresources: [customresourcedefinitions, {crd}, configmaps]\nscopes: [namespace, cluster]\n"
    ));
    let r = m.run(&[
        "delete",
        "crd",
        &crd,
        "--dry-run=server",
        "--cascade=orphan",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stderr.contains(&format!(
            "about to delete 1 dependent(s) with them (--cascade=background: the garbage collector deletes what they own, found through ownerReferences):\n  configmap/g1-config (namespace {})\n",
            ns.0
        )),
        "the custom resources go whatever --cascade says of the CRD: {r:?}"
    );
    assert_eq!(
        names(&ns.0, "configmaps").len(),
        2,
        "a dry run deletes nothing"
    );
    kubectl(&["delete", "crd", &crd, "--wait=false"]);
}
