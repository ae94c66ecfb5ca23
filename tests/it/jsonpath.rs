//! Tests of `-o jsonpath=…|jsonpath-file=…|jsonpath-as-json=…|custom-columns=…|
//! custom-columns-file=…` beyond the byte-for-byte comparison with kubectl (which lives in the
//! differential parity suite, parity.rs): errors that must not echo objects, capped template
//! files, and `patch -o` through the same printer.

use crate::fixture::{Myops, Namespace, cluster, kubectl, kubectl_at, text_of};

fn boundary() -> String {
    "name: myops\nverbs: [get]\nresources: [pods, configmaps, namespaces]\nscopes: [namespace, cluster]\nmetrics: [ops_total]\n".into()
}

#[test]
fn execution_error_names_the_template_and_does_not_dump_the_object() {
    let ns = Namespace::new("jsonpath-exec-error");
    ns.pod("web-1");
    let m = Myops::new(&boundary());
    let r = m.run(&["-n", &ns.0, "get", "pods", "-o", "jsonpath={.items[5]}"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(r.stdout, "");
    assert!(
        r.stderr
            .contains("array index out of bounds: index 5, length 1"),
        "{r:?}"
    );
    // kubectl prints the whole object (%#v) in this message; a guarded client must not echo
    // objects (a Secret's data) into an error.
    assert!(!r.stderr.contains("managedFields"), "{r:?}");
}

#[test]
fn patch_prints_the_patched_object_through_the_same_jsonpath_printer_as_kubectl() {
    let ns = Namespace::new("jsonpath-patch");
    let n = ns.0.as_str();
    ns.pod("by-kubectl");
    ns.pod("by-myops");
    let m = Myops::new(
        "name: myops\nverbs: [get, patch]\nresources: [pods]\nscopes: [namespace]\nmetrics: [ops_total]\n",
    );
    let patch = r#"{"metadata":{"labels":{"x":"1"}}}"#;
    for out in [
        "jsonpath={.metadata.labels}",
        "jsonpath={.kind}/{.metadata.labels.x}{\"\\n\"}",
        "jsonpath-as-json={.metadata.labels.app}",
    ] {
        let want = kubectl_at(
            &cluster().kubeconfig,
            &[
                "-n",
                n,
                "patch",
                "pod",
                "by-kubectl",
                "-p",
                patch,
                "-o",
                out,
            ],
        );
        let got = m.run(&["-n", n, "patch", "pod", "by-myops", "-p", patch, "-o", out]);
        assert_eq!(got.code, want.status.code().unwrap_or(-1), "{out}: {got:?}");
        assert_eq!(got.stdout, text_of(&want.stdout), "{out}: {got:?}");
    }
    // kubectl patch has no custom-columns printer (kubectl exit 1; a usage error here, exit 2),
    // and a bad template is refused before the patch is sent.
    let cc = "custom-columns=N:.metadata.name";
    let want = kubectl_at(
        &cluster().kubeconfig,
        &["-n", n, "patch", "pod", "by-kubectl", "-p", patch, "-o", cc],
    );
    assert_eq!(want.status.code(), Some(1));
    let got = m.run(&["-n", n, "patch", "pod", "by-myops", "-p", patch, "-o", cc]);
    assert_eq!((got.code, got.stdout.as_str()), (2, ""), "{got:?}");
    let bad = r#"{"metadata":{"labels":{"x":"2"}}}"#;
    let got = m.run(&[
        "-n",
        n,
        "patch",
        "pod",
        "by-myops",
        "-p",
        bad,
        "-o",
        "jsonpath={.a[",
    ]);
    assert_eq!(got.code, 2, "{got:?}");
    assert!(got.stderr.contains("unterminated array"), "{got:?}");
    let label = kubectl(&[
        "-n",
        n,
        "get",
        "pod",
        "by-myops",
        "-o",
        "jsonpath={.metadata.labels.x}",
    ]);
    assert_eq!(
        label, "1",
        "the patch with a bad template must not be applied"
    );
}

#[test]
fn template_file_that_is_endless_missing_or_a_huge_template_is_a_capped_usage_error() {
    let m = Myops::new(&boundary());
    let huge = format!("jsonpath={{.a[{}", "x".repeat(100_000));
    for (out, says) in [
        // A device is refused unopened (a terminal would block, /dev/zero never ends).
        (
            "jsonpath-file=/dev/zero",
            "it is a character device, not a regular file",
        ),
        (
            "custom-columns-file=/nonexistent/cols",
            "error reading /nonexistent/cols",
        ),
        (huge.as_str(), "unterminated array"),
        ("go-template={{.kind}}", "use -o jsonpath=TEMPLATE"),
        ("custom-columns=", "no custom columns given"),
    ] {
        let started = std::time::Instant::now();
        let r = m.run(&["get", "pods", "-n", "default", "-o", out]);
        assert_eq!(r.code, 2, "{r:?}");
        assert!(r.stderr.contains(says), "{}", r.stderr);
        assert!(
            r.stderr.len() < 2_500,
            "stderr not capped: {} bytes",
            r.stderr.len()
        );
        assert!(started.elapsed() < std::time::Duration::from_secs(10));
    }
}
