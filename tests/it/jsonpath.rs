//! Differential tests of `get -o jsonpath=…|jsonpath-file=…|jsonpath-as-json=…|custom-columns=…|
//! custom-columns-file=…`: the same command lines through the real kubectl (the oracle) and
//! through kubectl-myops, on the same objects; stdout must be byte for byte the same and the
//! exit codes equal, except for the intended differences listed in [`INTENDED`].

use crate::fixture::{Myops, Namespace, cluster, kubectl, kubectl_at, text_of};

/// A bad template is a usage error here (exit 2, before any request); kubectl reports it
/// when it builds the printer, with exit 1. Stdout is empty on both sides.
const INTENDED: &[(&str, i32, i32)] =
    &[("bad template: kubectl exit 1, kubectl-myops exit 2", 1, 2)];

fn boundary() -> String {
    "name: myops\nverbs: [get]\nresources: [pods, configmaps, namespaces]\nscopes: [namespace, cluster]\nmetrics: [ops_total]\n".into()
}

struct Case {
    args: Vec<String>,
    bad_template: bool,
}

fn case(ns: &str, args: &[&str]) -> Case {
    let mut a = vec!["-n".to_string(), ns.to_string(), "get".to_string()];
    a.extend(args.iter().map(|s| s.to_string()));
    Case {
        args: a,
        bad_template: false,
    }
}

fn bad(ns: &str, args: &[&str]) -> Case {
    Case {
        bad_template: true,
        ..case(ns, args)
    }
}

#[test]
fn jsonpath_and_custom_columns_match_kubectl_byte_for_byte() {
    let ns = Namespace::new("jsonpath-diff");
    let n = ns.0.as_str();
    ns.pod("web-1");
    kubectl(&[
        "run",
        "db",
        "-n",
        n,
        "--image=registry.invalid/db:2",
        "--restart=Never",
        "--labels=app=db,tier=data",
    ]);
    kubectl(&[
        "create",
        "configmap",
        "cfg",
        "-n",
        n,
        "--from-literal=html=<a&b>",
        "--from-literal=multi=line1\nline2",
        "--from-literal=n=1",
    ]);
    let m = Myops::new(&boundary());
    let dir = tempfile::tempdir().unwrap();
    let t_file = dir.path().join("t.jsonpath");
    std::fs::write(&t_file, "{range .items[*]}{.metadata.name}{\"\\n\"}{end}").unwrap();
    let cc_file = dir.path().join("cols.txt");
    std::fs::write(
        &cc_file,
        "NAME   IMAGE   PHASE\n.metadata.name {.spec.containers[0].image} status.phase\n",
    )
    .unwrap();
    let t_arg = format!("jsonpath-file={}", t_file.display());
    let cc_arg = format!("custom-columns-file={}", cc_file.display());
    let ns_arg = format!("namespace/{n}");

    let cases = vec![
        case(n, &["pods", "-o", "jsonpath={.items[*].metadata.name}"]),
        case(n, &["pods", "-o", "jsonpath={.items[0].metadata}"]),
        case(n, &["pod", "db", "-o", "jsonpath={.metadata.name}"]),
        case(n, &["pod/db", "-o", "jsonpath={.spec}"]),
        case(
            n,
            &[
                "pod",
                "db",
                "web-1",
                "-o",
                "jsonpath={.items[*].metadata.name}",
            ],
        ),
        case(n, &["configmaps", "-o", "jsonpath={.items[*].data}"]),
        case(n, &["configmap", "cfg", "-o", "jsonpath={.data.html}"]),
        case(n, &["configmap", "cfg", "-o", "jsonpath={.data.multi}"]),
        case(n, &["configmap", "cfg", "-o", "jsonpath-as-json={.data}"]),
        case(
            n,
            &["pods", "-o", "jsonpath-as-json={.items[*].metadata.name}"],
        ),
        case(
            n,
            &[
                "pods",
                "-o",
                r#"jsonpath={.items[?(@.metadata.name=="db")].spec.containers[0].image}"#,
            ],
        ),
        case(
            n,
            &[
                "pods",
                "-o",
                "jsonpath={.items[?(@.metadata.labels.tier)].metadata.name}",
            ],
        ),
        case(
            n,
            &[
                "pods",
                "-o",
                "jsonpath={.items[?(@.spec.priority==0)].metadata.name}",
            ],
        ),
        case(
            n,
            &[
                "pods",
                "-o",
                r#"jsonpath={.items[?(@.metadata.name<"e")].metadata.name}"#,
            ],
        ),
        case(n, &["pods", "-o", "jsonpath={..image}"]),
        case(n, &["pods", "-o", "jsonpath={.items[-1:].metadata.name}"]),
        case(n, &["pods", "-o", "jsonpath={.items[0:1].metadata.name}"]),
        case(n, &["pods", "-o", "jsonpath={.items[0,1].metadata.name}"]),
        case(
            n,
            &["pods", "-o", "jsonpath={.items[*]['metadata']['name']}"],
        ),
        case(
            n,
            &["pods", "-o", r#"jsonpath={.items[*].metadata.name}{"\n"}"#],
        ),
        case(
            n,
            &[
                "pods",
                "-o",
                "jsonpath=names: {.items[*].metadata.name} kind={.kind}",
            ],
        ),
        case(
            n,
            &[
                "pods",
                "-o",
                r#"jsonpath={range .items[*]}{.metadata.name}{"\t"}{.spec.containers[0].image}{"\n"}{end}"#,
            ],
        ),
        case(
            n,
            &[
                "pods",
                "-o",
                "jsonpath={range .items[*]}{.metadata.name}:{range .spec.containers[*]}{.image},{end};{end}",
            ],
        ),
        case(
            n,
            &[
                "pods",
                "-o",
                "jsonpath={.items[0].spec.terminationGracePeriodSeconds}",
            ],
        ),
        case(
            n,
            &["pods", "-o", "jsonpath={.items[0].spec.enableServiceLinks}"],
        ),
        case(n, &["pods", "-o", "jsonpath={$.kind}{@.apiVersion}"]),
        case(n, &["pods", "-o", "jsonpath={.}"]),
        case(n, &["pods", "-o", "jsonpath={.nope}"]),
        case(
            n,
            &[
                "pods",
                "-o",
                "jsonpath={.nope}",
                "--allow-missing-template-keys=false",
            ],
        ),
        case(n, &["pods", "-o", "jsonpath={.items[5]}"]),
        case(n, &["pods", "-o", "jsonpath={end}"]),
        case(n, &["pods", "-o", &t_arg]),
        case(
            n,
            &[
                "pods",
                "-l",
                "app=db",
                "-o",
                "jsonpath={.items[*].metadata.labels}",
            ],
        ),
        case(n, &["configmaps", "-l", "x=y", "-o", "jsonpath={.items}"]),
        case(n, &[&ns_arg, "-o", "jsonpath={.status.phase}"]),
        case(
            n,
            &[
                "pods",
                "-o",
                "custom-columns=NAME:.metadata.name,LBL:.metadata.labels,X:.nope,I:.spec.containers[*].image",
            ],
        ),
        case(
            n,
            &[
                "pods",
                "-o",
                "custom-columns=NAME:.metadata.name",
                "--no-headers",
            ],
        ),
        case(
            n,
            &[
                "pods",
                "-o",
                "custom-columns=NAME:metadata.name,GEN:.metadata.generation",
            ],
        ),
        case(
            n,
            &[
                "pods",
                "-o",
                "custom-columns=N:{.metadata.name},P:{status.phase}",
            ],
        ),
        case(
            n,
            &[
                "pods",
                "-o",
                "custom-columns=A:.metadata.generation,B:.metadata.generation",
            ],
        ),
        case(n, &["pods", "-o", "custom-columns=A:b:c,B:.kind"]),
        case(n, &["pods", "-o", "custom-columns=C:.spec.containers"]),
        case(
            n,
            &[
                "pod",
                "db",
                "-o",
                "custom-columns=NAME:.metadata.name,TOL:.spec.tolerations[*].key",
            ],
        ),
        case(
            n,
            &[
                "configmap",
                "cfg",
                "-o",
                "custom-columns=DATA:.data,N:.data.n",
            ],
        ),
        case(
            n,
            &[
                "configmaps",
                "-l",
                "x=y",
                "-o",
                "custom-columns=N:.metadata.name",
            ],
        ),
        case(n, &["pods", "-o", &cc_arg]),
        bad(n, &["pods", "-o", "jsonpath={.items["]),
        bad(n, &["pods", "-o", r#"jsonpath={.items[*]["metadata"]}"#]),
        bad(n, &["pods", "-o", "custom-columns=NAME"]),
        bad(n, &["pods", "-o", "custom-columns=N:{.a"]),
        bad(n, &["pods", "-o", "jsonpath="]),
    ];
    assert!(cases.len() >= 25);
    let mut failures = Vec::new();
    for c in &cases {
        let args: Vec<&str> = c.args.iter().map(String::as_str).collect();
        let want = kubectl_at(&cluster().kubeconfig, &args);
        let got = m.run(&args);
        let want_code = want.status.code().unwrap_or(-1);
        let want_out = text_of(&want.stdout);
        let codes_ok = if c.bad_template {
            INTENDED
                .iter()
                .any(|(_, k, me)| *k == want_code && *me == got.code)
        } else {
            want_code == got.code
        };
        if !codes_ok || want_out != got.stdout {
            failures.push(format!(
                "{args:?}\n  kubectl exit {want_code}: {want_out:?}\n  myops   exit {}: {:?} (stderr {:?})",
                got.code, got.stdout, got.stderr
            ));
        }
        if c.bad_template {
            assert!(got.stderr.contains("error"), "{args:?}: {}", got.stderr);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
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
        ("jsonpath-file=/dev/zero", "larger than 1048576 bytes"),
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
