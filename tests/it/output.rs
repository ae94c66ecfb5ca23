//! Differential tests of `get`'s output formats (issue 11, item 1): `-o json|yaml|kyaml|
//! name|wide`, tables with `--no-headers`, `--show-labels`, `-L`, `--show-kind`,
//! `--sort-by`, `--show-managed-fields`. Every command line runs through the real kubectl
//! (the oracle, target/testbin/kubectl) and through kubectl-myops on the same objects —
//! pods, configmaps with labels and awkward values, a CRD with additionalPrinterColumns and a
//! custom resource; stdout must be byte for byte the same after normalising the AGE column
//! only, and the exit codes equal, except for the intended differences in [`INTENDED`].

use crate::fixture::{Myops, Namespace, cluster, kubectl, kubectl_apply, kubectl_at, text_of};

/// Where kubectl-myops answers differently on purpose: (why, kubectl exit, our exit).
/// stdout is empty on both sides for each of them.
const INTENDED: &[(&str, i32, i32)] = &[
    (
        "a missing named object: kubectl exit 1, exit 4 here (ARCHITECTURE.md §2 exit codes)",
        1,
        4,
    ),
    (
        "--sort-by naming a field no object has, table output: kubectl swallows the sorter's \
         error, prints \"No resources found\" and exits 0; here the error is reported (exit 1)",
        0,
        1,
    ),
    (
        "--sort-by with an unparsable path, table output: kubectl exits 0 printing nothing; \
         here it is a usage error (exit 2) before any request",
        0,
        2,
    ),
];

fn boundary() -> String {
    "name: myops\nverbs: [get]\nresources: [pods, configmaps, namespaces, backupjobs.example.com]\nscopes: [namespace, cluster]\nmetrics: [ops_total]\n".into()
}

struct Case {
    args: Vec<String>,
    /// Index into [`INTENDED`] when this line differs on purpose.
    intended: Option<usize>,
}

fn case(ns: &str, args: &[&str]) -> Case {
    let mut a = vec!["-n".to_string(), ns.to_string(), "get".to_string()];
    a.extend(args.iter().map(|s| s.to_string()));
    Case {
        args: a,
        intended: None,
    }
}

fn differs(ns: &str, args: &[&str], intended: usize) -> Case {
    Case {
        intended: Some(intended),
        ..case(ns, args)
    }
}

/// `5s`, `8m33s`, `2d`, `3h5m` (kubectl's `HumanDuration`) become `AGE`; the spaces around
/// stay, so column widths are still compared.
fn normalise_ages(text: &str) -> String {
    let is_age = |t: &str| {
        let mut saw_digit = false;
        let mut units = 0;
        for c in t.chars() {
            if c.is_ascii_digit() {
                saw_digit = true;
            } else if "smhdy".contains(c) && saw_digit {
                saw_digit = false;
                units += 1;
            } else {
                return false;
            }
        }
        !saw_digit && units > 0
    };
    text.lines()
        .map(|l| {
            l.split(' ')
                .map(|t| if is_age(t) { "AGE" } else { t })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn get_output_formats_match_kubectl_byte_for_byte() {
    let ns = Namespace::new("output-diff");
    let n = ns.0.as_str();
    let suite = format!("suite={n}");
    kubectl(&[
        "run",
        "web-1",
        "-n",
        n,
        "--image=registry.invalid/pause:1",
        "--restart=Never",
        &format!("--labels=app=web,tier=front,{suite}"),
    ]);
    kubectl(&[
        "run",
        "db",
        "-n",
        n,
        "--image=registry.invalid/db:2",
        "--restart=Never",
        &format!("--labels=app=db,example.com/team=data,{suite}"),
    ]);
    kubectl(&[
        "run",
        "web-10",
        "-n",
        n,
        "--image=registry.invalid/pause:1",
        "--restart=Never",
        "--labels=app=web",
    ]);
    kubectl(&[
        "create",
        "configmap",
        "cfg",
        "-n",
        n,
        "--from-literal=b=2",
        "--from-literal=a=1",
    ]);
    kubectl(&["label", "configmap", "cfg", "-n", n, "team=x"]);
    let long: Vec<String> = (0..40).map(|i| format!("word{i}")).collect();
    let long = long.join(" ");
    let many_lines = format!("{long}\n{long}");
    let edge: Vec<(&str, &str)> = vec![
        ("long", &long),
        ("mlong", &many_lines),
        ("multi", "line1\nline2\n"),
        ("multi2", "a\nb"),
        ("lead", " x\ny"),
        ("yes", "yes"),
        ("Y", "N"),
        ("on", "on"),
        ("null", "null"),
        ("tilde", "~"),
        ("hex", "0x1F"),
        ("oct", "0o17"),
        ("exp", "1e3"),
        ("ver", "1.10"),
        ("date", "2020-01-01"),
        ("time", "2020-01-01T10:00:00Z"),
        ("colon", "a: b"),
        ("hash", "# c"),
        ("amp", "&a<b>"),
        ("star", "*a"),
        ("dash", "-"),
        ("trail", "x "),
        ("empty", ""),
        ("quote", "it's \"q\""),
        ("tab", "a\tb"),
        ("ctrl", "\u{1}\u{1b}"),
        ("uni", "名前 é"),
        ("a10", "x"),
        ("a9", "x"),
        ("a_b", "x"),
        ("aB", "x"),
        ("Z_", "x"),
        ("a.b", "x"),
        ("a-b", "x"),
    ];
    let mut create = vec![
        "create".to_string(),
        "configmap".into(),
        "edge".into(),
        "-n".into(),
        n.into(),
    ];
    create.extend(edge.iter().map(|(k, v)| format!("--from-literal={k}={v}")));
    kubectl(&create.iter().map(String::as_str).collect::<Vec<_>>());
    kubectl(&["label", "configmap", "edge", "-n", n, "team=y"]);

    kubectl_apply(
        &std::fs::read_to_string(crate::fixture::root().join("crds/backupjobs.example.com.yaml"))
            .unwrap(),
    );
    kubectl(&[
        "wait",
        "--for=condition=Established",
        "crd/backupjobs.example.com",
        "--timeout=60s",
    ]);
    kubectl_apply(&format!(
        "apiVersion: example.com/v1\nkind: BackupJob\nmetadata: {{name: nightly, namespace: {n}, labels: {{team: storage}}}}\nspec: {{schedule: \"0 2 * * *\", target: pvc-a, retentionDays: 3}}\n---\napiVersion: example.com/v1\nkind: BackupJob\nmetadata: {{name: adhoc, namespace: {n}}}\nspec: {{schedule: \"@daily\", target: pvc-b}}\n"
    ));

    let m = Myops::new(&boundary());
    let ns_arg = format!("namespace/{n}");
    let sel = format!("-l={suite}");
    let cases = vec![
        case(n, &["pods"]),
        case(n, &["pods", "-o", "wide"]),
        case(n, &["pods", "--no-headers"]),
        case(n, &["pods", "--show-labels"]),
        case(n, &["pods", "--no-headers", "--show-labels"]),
        case(n, &["pods", "-L", "app"]),
        case(n, &["pods", "-L", "app", "-L", "tier,x"]),
        case(n, &["pods", "--label-columns=app,example.com/team"]),
        case(n, &["pods", "--show-kind"]),
        case(n, &["pods", "--show-kind", "--no-headers", "-L", "tier"]),
        case(n, &["pods", "-o", "name"]),
        case(n, &["pods", "-o", "json"]),
        case(n, &["pods", "-o", "yaml"]),
        case(n, &["pods", "-o", "kyaml"]),
        case(n, &["pod", "db", "-o", "json"]),
        case(n, &["pod", "db", "-o", "yaml"]),
        case(n, &["pod/db", "-o", "kyaml"]),
        case(n, &["pod", "db", "web-1", "-o", "name"]),
        case(n, &["pod", "db", "web-1", "-o", "json"]),
        case(n, &["pods", "--sort-by=.metadata.name"]),
        case(
            n,
            &["pods", "--sort-by={.metadata.labels.tier}", "-o", "name"],
        ),
        case(
            n,
            &["pods", "--sort-by=.spec.containers[0].image", "-o", "name"],
        ),
        case(n, &["pods", "--sort-by=.metadata.name", "-o", "yaml"]),
        case(n, &["pods", "--sort-by=.nope", "-o", "name"]),
        case(n, &["pod", "db", "--sort-by=.nope", "-o", "json"]),
        case(n, &["pod", "db", "--sort-by=.nope"]),
        case(n, &["pods", "-o", "json", "--show-managed-fields"]),
        case(n, &["pod", "db", "-o", "yaml", "--show-managed-fields"]),
        case(n, &["pods", &sel, "--no-headers"]),
        case(n, &["pods", "-A", &sel, "--sort-by=.metadata.name"]),
        case(n, &["configmaps"]),
        case(n, &["configmaps", "--no-headers"]),
        case(n, &["configmaps", "-o", "json"]),
        case(n, &["configmaps", "-o", "yaml"]),
        case(n, &["configmap", "edge", "-o", "yaml"]),
        case(n, &["configmap", "edge", "-o", "json"]),
        case(n, &["configmap", "edge", "-o", "kyaml"]),
        case(n, &["configmap", "edge", "--show-kind", "-L", "team"]),
        case(n, &["configmaps", "--sort-by=.metadata.name", "-o", "name"]),
        case(n, &["configmaps", "-l", "team=x", "-o", "yaml"]),
        case(n, &["configmaps", "-l", "nope=1", "-o", "json"]),
        case(n, &["configmaps", "-l", "nope=1", "-o", "yaml"]),
        case(n, &["backupjobs"]),
        case(n, &["bj", "-o", "wide"]),
        case(n, &["bj", "--no-headers"]),
        case(n, &["bj", "--show-kind", "-L", "team"]),
        case(n, &["bj", "--sort-by=.spec.target"]),
        case(n, &["bj", "--sort-by=.spec.retentionDays", "-o", "name"]),
        case(n, &["bj", "-o", "json"]),
        case(n, &["bj", "-o", "yaml"]),
        case(n, &["bj", "nightly", "-o", "kyaml"]),
        case(n, &["backupjob.example.com/nightly", "-o", "name"]),
        case(n, &[&ns_arg, "-o", "yaml"]),
        case(n, &[&ns_arg, "-o", "kyaml"]),
        differs(n, &["configmap", "nope", "-o", "yaml"], 0),
        differs(n, &["pods", "--sort-by=.nope"], 1),
        differs(n, &["pods", "--sort-by={.a"], 2),
    ];
    assert!(cases.len() >= 40, "{}", cases.len());
    let run_both = |args: &[&str]| {
        let want = kubectl_at(&cluster().kubeconfig, args);
        let got = m.run(args);
        (want, got)
    };
    let mut failures = Vec::new();
    for c in &cases {
        let args: Vec<&str> = c.args.iter().map(String::as_str).collect();
        let mut attempt = 0;
        loop {
            let (want, got) = run_both(&args);
            let want_code = want.status.code().unwrap_or(-1);
            let want_out = normalise_ages(&text_of(&want.stdout));
            let got_out = normalise_ages(&got.stdout);
            let codes_ok = match c.intended {
                Some(i) => (INTENDED[i].1, INTENDED[i].2) == (want_code, got.code),
                None => want_code == got.code,
            };
            if codes_ok && want_out == got_out {
                break;
            }
            // An age may have just grown a digit (9s → 10s) between the two runs.
            attempt += 1;
            if attempt == 2 {
                failures.push(format!(
                    "{args:?}\n  kubectl exit {want_code}: {want_out:?}\n  myops   exit {}: {got_out:?} (stderr {:?})",
                    got.code, got.stderr
                ));
                break;
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_bad_sort_by_path_is_a_usage_error_before_any_request() {
    let m = Myops::new(&boundary());
    let r = m.run(&["-n", "default", "get", "pods", "--sort-by={.a"]);
    assert_eq!((r.code, r.stdout.as_str()), (2, ""), "{r:?}");
    assert!(r.stderr.contains("invalid --sort-by \"{.a\""), "{r:?}");
}
