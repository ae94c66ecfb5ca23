//! Tests of `get`'s output formats (issue 11, item 1) that are not a comparison with kubectl:
//! the byte-for-byte comparisons of `-o json|yaml|kyaml|name|wide`, `--no-headers`,
//! `--show-labels`, `-L`, `--show-kind`, `--sort-by` and `--show-managed-fields` with the real
//! kubectl live in the differential parity suite (parity.rs).

use crate::fixture::Myops;

fn boundary() -> String {
    "name: myops\nverbs: [get]\nresources: [pods, configmaps, namespaces, backupjobs.example.com]\nscopes: [namespace, cluster]\nmetrics: [ops_total]\n".into()
}

#[test]
fn a_bad_sort_by_path_is_a_usage_error_before_any_request() {
    let m = Myops::new(&boundary());
    let r = m.run(&["-n", "default", "get", "pods", "--sort-by={.a"]);
    assert_eq!((r.code, r.stdout.as_str()), (2, ""), "{r:?}");
    assert!(r.stderr.contains("invalid --sort-by \"{.a\""), "{r:?}");
}
