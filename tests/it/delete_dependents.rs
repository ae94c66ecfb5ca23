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
