//! `crds sync`: real CRD files written by public projects (../shared/corpus/crds) and our
//! own (crds/), registered on the real API server and usable by `get` in a new process.

use crate::fixture::{Myops, Namespace, kubectl, kubectl_apply, root};

fn corpus() -> std::path::PathBuf {
    let dir = root().join("../shared/corpus/crds");
    assert!(
        dir.is_dir(),
        "the CRD corpus is missing at {} (shared/ must sit beside the repository)",
        dir.display()
    );
    dir
}

/// (CRD name, plural.group) of every CRD in the corpus, read with the real kubectl's eyes:
/// the names the files declare.
const CORPUS: &[(&str, &str)] = &[
    ("applications.argoproj.io", "v1alpha1"),
    ("certificates.cert-manager.io", "v1"),
    ("gateways.gateway.networking.k8s.io", "v1"),
    ("servicemonitors.monitoring.coreos.com", "v1"),
    ("catalogsources.operators.coreos.com", "v1alpha1"),
    ("clusterserviceversions.operators.coreos.com", "v1alpha1"),
    ("installplans.operators.coreos.com", "v1alpha1"),
    ("operatorconditions.operators.coreos.com", "v2"),
    ("operatorgroups.operators.coreos.com", "v1"),
    ("operators.operators.coreos.com", "v1"),
    ("subscriptions.operators.coreos.com", "v1alpha1"),
    ("deploymentruntimeconfigs.pkg.crossplane.io", "v1beta1"),
    ("foos.samplecontroller.k8s.io", "v1alpha1"),
    ("backups.velero.io", "v1"),
];

#[test]
fn every_corpus_crd_syncs_and_is_usable_by_get_in_a_new_process() {
    let ns = Namespace::new("corpus");
    let m = Myops::standard(&ns.0);
    let r = m.run(&["crds", "sync", corpus().to_str().unwrap()]);
    assert_eq!(r.code, 0, "{r:?}");
    for (name, _) in CORPUS {
        assert!(
            r.stdout.contains(&format!(
                "customresourcedefinition.apiextensions.k8s.io/{name} registered"
            )),
            "{name}: {r:?}"
        );
        let established = kubectl(&[
            "get",
            "crd",
            name,
            "-o",
            "jsonpath={.status.conditions[?(@.type==\"Established\")].status}",
        ]);
        assert_eq!(established, "True", "{name}");
    }
    // Registered CRDs join the boundary, and each resolves at once in a new process.
    for (name, version) in CORPUS {
        let (plural, group) = name.split_once('.').unwrap();
        let r = m.run(&[
            "get",
            &format!("{plural}.{version}.{group}"),
            "-n",
            &ns.0,
            "-o",
            "json",
        ]);
        assert_eq!(r.code, 0, "{name}: {r:?}");
        let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
        assert_eq!(v["kind"], "List", "{name}");
    }
    let registry: serde_json::Value = serde_json::from_slice(
        &std::fs::read(m.dir.path().join("myops/crd-registry.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(registry["crds"].as_object().unwrap().len(), CORPUS.len());
    assert_eq!(
        kubectl(&[
            "get",
            "crd",
            "foos.samplecontroller.k8s.io",
            "-o",
            "jsonpath={.metadata.managedFields[0].manager}"
        ]),
        "kubectl-myops"
    );
}

#[test]
fn sample_controller_foo_is_listed_with_its_columns() {
    let ns = Namespace::new("foo");
    let m = Myops::standard(&ns.0);
    let r = m.run(&["crds", "sync", corpus().to_str().unwrap()]);
    assert_eq!(r.code, 0, "{r:?}");
    kubectl_apply(&format!(
        "apiVersion: samplecontroller.k8s.io/v1alpha1\nkind: Foo\nmetadata: {{name: example-foo, namespace: {}}}\nspec: {{deploymentName: example-foo, replicas: 1}}\n",
        ns.0
    ));
    let r = m.run(&["get", "foos", "-n", &ns.0]);
    assert_eq!(r.code, 0, "{r:?}");
    let lines: Vec<Vec<&str>> = r
        .stdout
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(lines[0], ["NAME", "AGE"]);
    assert_eq!(lines[1][0], "example-foo");
    assert_eq!(lines.len(), 2);
    let r = m.run(&["get", "foo/example-foo", "-n", &ns.0, "-o", "name"]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "foo.samplecontroller.k8s.io/example-foo\n"),
        "{r:?}"
    );
}

#[test]
fn backupjob_printer_columns_short_name_and_wide_priority_columns() {
    let ns = Namespace::new("backupjob");
    let m = Myops::standard(&ns.0);
    let r = m.run(&["crds", "sync", root().join("crds").to_str().unwrap()]);
    assert_eq!(r.code, 0, "{r:?}");
    kubectl_apply(&format!(
        "apiVersion: example.com/v1\nkind: BackupJob\nmetadata: {{name: nightly, namespace: {}}}\nspec: {{schedule: '0 2 * * *', target: data-pvc}}\n",
        ns.0
    ));
    let r = m.run(&["get", "bj", "-n", &ns.0]);
    assert_eq!(r.code, 0, "{r:?}");
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(
        lines[0].split_whitespace().collect::<Vec<_>>(),
        ["NAME", "SCHEDULE", "TARGET", "RETENTION", "AGE"]
    );
    assert!(
        lines[1].starts_with("nightly   0 2 * * *   data-pvc   7 "),
        "{:?}",
        lines[1]
    );
    let r = m.run(&["get", "backupjobs.example.com", "-n", &ns.0, "-o", "wide"]);
    assert!(
        r.stdout.lines().next().unwrap().contains("LAST-RESULT"),
        "{r:?}"
    );
    // A CRD column whose path is missing prints as an empty cell, as kubectl prints it
    // (issue 11: `<none>` was ours, not kubectl's).
    assert!(!r.stdout.contains("<none>"), "{r:?}");
}

#[test]
fn a_bad_file_is_reported_with_its_location_and_the_good_files_still_register() {
    let ns = Namespace::new("badfile");
    let m = Myops::standard(&ns.0);
    let dir = m.dir.path().join("crds");
    std::fs::create_dir(&dir).unwrap();
    std::fs::copy(
        root().join("crds/backupjobs.example.com.yaml"),
        dir.join("a-good.yaml"),
    )
    .unwrap();
    std::fs::write(
        dir.join("b-v1beta1.yaml"),
        "# old\napiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\nmetadata: {name: olds.example.com}\nspec: {group: example.com}\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("c-broken.yaml"),
        "apiVersion: apiextensions.k8s.io/v1\nkind: [\n",
    )
    .unwrap();
    let r = m.run(&["crds", "sync", dir.to_str().unwrap()]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stdout.contains("backupjobs.example.com registered"),
        "{r:?}"
    );
    let v1beta1 = format!(
        "{}:2:1: apiextensions.k8s.io/v1beta1",
        dir.join("b-v1beta1.yaml").display()
    );
    assert!(r.stderr.contains(&v1beta1), "{v1beta1} not in {r:?}");
    assert!(
        r.stderr
            .contains(&format!("{}:", dir.join("c-broken.yaml").display())),
        "{r:?}"
    );
}

#[test]
fn crds_sync_outside_the_boundary_is_exit_3_before_any_request() {
    // verbs without patch: registering a CRD (a server-side apply) is outside the boundary.
    let m = Myops::new(
        "name: myops\nverbs: [get]\nresources: [pods, customresourcedefinitions]\nscopes: [namespace, cluster]\n",
    );
    let r = m.run(&[
        "crds",
        "sync",
        root().join("crds").to_str().unwrap(),
        "--server",
        "https://127.0.0.1:9",
    ]);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(
        r.stderr.contains("verb \"patch\" is not in `verbs`"),
        "{r:?}"
    );
    // scope namespace only: CRDs are cluster-scoped.
    let m = Myops::new(
        "name: myops\nverbs: [get, patch]\nresources: [customresourcedefinitions]\nscopes: [namespace]\n",
    );
    let r = m.run(&[
        "crds",
        "sync",
        root().join("crds").to_str().unwrap(),
        "--server",
        "https://127.0.0.1:9",
    ]);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(r.stderr.contains("needs scope \"cluster\""), "{r:?}");
}

#[test]
fn crds_sync_of_a_missing_or_world_writable_directory_is_exit_2() {
    use std::os::unix::fs::PermissionsExt;
    let ns = Namespace::new("sync-dirs");
    let m = Myops::standard(&ns.0);
    let r = m.run(&[
        "crds",
        "sync",
        m.dir.path().join("missing").to_str().unwrap(),
    ]);
    assert_eq!(r.code, 2, "{r:?}");
    let dir = m.dir.path().join("open");
    std::fs::create_dir(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
    let r = m.run(&["crds", "sync", dir.to_str().unwrap()]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("world-writable"), "{r:?}");
}

#[test]
fn crds_sync_force_conflicts_was_rejected_as_an_unknown_flag() {
    let name = "widgetfcs.fc.myops.test";
    let crd = |short: &str| {
        format!(
            "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: {name}\nspec:\n  group: fc.myops.test\n  names: {{kind: WidgetFc, plural: widgetfcs, singular: widgetfc, shortNames: [{short}]}}\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema: {{openAPIV3Schema: {{type: object, x-kubernetes-preserve-unknown-fields: true}}}}\n"
        )
    };
    // Another field manager owns spec.names.shortNames.
    let out = crate::fixture::kubectl_stdin(
        &[
            "apply",
            "--server-side",
            "--field-manager=someone-else",
            "-f",
            "-",
        ],
        &crd("other"),
    );
    assert!(out.status.success(), "{out:?}");
    let m = Myops::standard("crds-force-conflicts");
    let dir = m.dir.path().join("crds");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("w.yaml"), crd("wfc")).unwrap();
    let d = dir.display().to_string();
    let r = m.run(&["crds", "sync", &d]);
    assert_eq!(r.code, 5, "{r:?}");
    assert!(r.stderr.contains("conflict with \"someone-else\""), "{r:?}");
    let r = m.run(&["crds", "sync", &d, "--force-conflicts"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        kubectl(&[
            "get",
            "crd",
            name,
            "-o",
            "jsonpath={.spec.names.shortNames}"
        ]),
        "[\"wfc\"]"
    );
    kubectl(&["delete", "crd", name, "--wait=false"]);
}
