//! The differential parity suite (issue 11, item 6): every command line below runs through the
//! real kubectl 1.36 (the oracle, target/testbin/kubectl) and through kubectl-myops, as admin,
//! on the same objects — pods with labels in two namespaces, configmaps with awkward values, a
//! Secret (names and custom columns only), a namespaced CRD (BackupJob) and a cluster-scoped
//! CRD (ParityCluster) with additionalPrinterColumns and their custom resources, the namespaces
//! and the CRD objects themselves. Stdout must be byte for byte the same after normalising the
//! AGE column only, and the exit codes equal — except for the lines tagged with an entry of
//! [`INTENDED`], the one list of intended differences (README "Flags compared with kubectl"
//! repeats it). On failure the test prints, for each differing line, the command, both exits
//! and the first differing lines of stdout.

use crate::fixture::{Myops, Namespace, cluster, kubectl, kubectl_apply, kubectl_at, text_of};

/// Where kubectl-myops answers differently on purpose: (why, kubectl exit, our exit). Stdout is
/// still compared byte for byte on these lines.
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
    (
        "a bad -o template (jsonpath, custom-columns): kubectl reports it when it builds the \
         printer (exit 1, after the request); here it is a usage error (exit 2) before any request",
        1,
        2,
    ),
    (
        "patch -o custom-columns: kubectl patch has no such printer (exit 1, after sending the \
         patch); here it is a usage error (exit 2) and the patch is never sent",
        1,
        2,
    ),
];

/// Indexes into [`INTENDED`].
const MISSING: usize = 0;
const SORT_MISSING_FIELD: usize = 1;
const SORT_BAD_PATH: usize = 2;
const BAD_TEMPLATE: usize = 3;
const PATCH_CUSTOM_COLUMNS: usize = 4;

/// The boundary of kubectl-myops for the suite: every type used below, both scopes.
fn boundary() -> String {
    "name: myops\nverbs: [get, patch]\nresources: [pods, configmaps, secrets, namespaces, customresourcedefinitions, backupjobs.example.com, parityclusters.parity.example.com]\nscopes: [namespace, cluster]\nmetrics: [ops_total]\n".into()
}

/// The cluster-scoped CRD of the suite: printer columns incl. an integer and a `priority: 1`
/// (wide-only) column, a short name and a category.
const PARITY_CRD: &str = "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: parityclusters.parity.example.com
spec:
  group: parity.example.com
  scope: Cluster
  names: {plural: parityclusters, singular: paritycluster, kind: ParityCluster, listKind: ParityClusterList, shortNames: [pcl], categories: [parity]}
  versions:
  - name: v1
    served: true
    storage: true
    additionalPrinterColumns:
    - {name: Region, type: string, jsonPath: .spec.region}
    - {name: Size, type: integer, jsonPath: .spec.size}
    - {name: Tier, type: string, jsonPath: .spec.tier, priority: 1}
    - {name: Age, type: date, jsonPath: .metadata.creationTimestamp}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              region: {type: string}
              size: {type: integer}
              tier: {type: string}
";

/// One command line, run by both tools.
struct Case {
    args: Vec<String>,
    /// Index into [`INTENDED`] when this line differs on purpose.
    intended: Option<usize>,
}

/// `kubectl -n NS get ARGS…`.
fn get(ns: &str, args: &[&str]) -> Case {
    let mut a = vec!["-n", ns, "get"];
    a.extend_from_slice(args);
    raw(&a)
}

/// A command line as given.
fn raw(args: &[&str]) -> Case {
    Case {
        args: args.iter().map(|s| s.to_string()).collect(),
        intended: None,
    }
}

impl Case {
    fn differs(self, intended: usize) -> Case {
        Case {
            intended: Some(intended),
            ..self
        }
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
    text.split('\n')
        .map(|l| {
            l.split(' ')
                .map(|t| if is_age(t) { "AGE" } else { t })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first differing lines of two outputs, unified-diff style: two lines of context, then
/// up to six `-` (kubectl) and `+` (kubectl-myops) lines.
fn first_diff(want: &str, got: &str) -> String {
    let w: Vec<&str> = want.split('\n').collect();
    let g: Vec<&str> = got.split('\n').collect();
    let Some(at) = (0..w.len().max(g.len())).find(|&i| w.get(i) != g.get(i)) else {
        return "  (stdout equal)".into();
    };
    let mut out = format!("  @@ line {} @@\n", at + 1);
    for l in &w[at.saturating_sub(2)..at.min(w.len())] {
        out.push_str(&format!("     {l:?}\n"));
    }
    for l in w.iter().skip(at).take(6) {
        out.push_str(&format!("  -  {l:?}\n"));
    }
    for l in g.iter().skip(at).take(6) {
        out.push_str(&format!("  +  {l:?}\n"));
    }
    out
}

/// Deletes the cluster-scoped custom resources of one run, even when the test fails.
struct ClusterObjects(Vec<String>);

impl Drop for ClusterObjects {
    fn drop(&mut self) {
        for name in &self.0 {
            let _ = kubectl_at(
                &cluster().kubeconfig,
                &["delete", "paritycluster", name, "--wait=false"],
            );
        }
    }
}

#[test]
fn kubectl_and_myops_print_the_same_bytes_and_exit_codes_on_the_same_objects() {
    let a_ns = Namespace::new("parity-a");
    let b_ns = Namespace::new("parity-b");
    let (a, b) = (a_ns.0.as_str(), b_ns.0.as_str());
    // A label only this run's objects carry, so -A and cluster-scoped lists see only them.
    let suite_value = a.trim_start_matches("t-");
    let suite = format!("suite={suite_value}");
    kubectl(&["label", "namespace", a, &suite]);
    kubectl(&["label", "namespace", b, &suite, "side=b"]);

    let pod = |ns: &str, name: &str, image: &str, labels: &str| {
        kubectl(&[
            "run",
            name,
            "-n",
            ns,
            &format!("--image=registry.invalid/{image}"),
            "--restart=Never",
            &format!("--labels={labels}"),
        ]);
    };
    pod(
        a,
        "web-1",
        "pause:1",
        &format!("app=web,tier=front,{suite}"),
    );
    pod(
        a,
        "db",
        "db:2",
        &format!("app=db,tier=data,example.com/team=data,{suite}"),
    );
    pod(a, "web-10", "pause:1", "app=web");
    pod(b, "api", "api:3", &format!("app=api,tier=front,{suite}"));
    pod(b, "worker", "worker:1", &format!("app=worker,{suite}"));

    kubectl(&[
        "create",
        "configmap",
        "cfg",
        "-n",
        a,
        "--from-literal=b=2",
        "--from-literal=a=1",
        "--from-literal=html=<a&b>",
        "--from-literal=multi=line1\nline2",
        "--from-literal=n=1",
    ]);
    kubectl(&["label", "configmap", "cfg", "-n", a, "team=x", &suite]);
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
        a.into(),
    ];
    create.extend(edge.iter().map(|(k, v)| format!("--from-literal={k}={v}")));
    kubectl(&create.iter().map(String::as_str).collect::<Vec<_>>());
    kubectl(&["label", "configmap", "edge", "-n", a, "team=y"]);
    kubectl(&[
        "create",
        "configmap",
        "other",
        "-n",
        b,
        "--from-literal=k=v",
    ]);
    kubectl(&["label", "configmap", "other", "-n", b, &suite]);
    kubectl(&[
        "create",
        "secret",
        "generic",
        "token",
        "-n",
        a,
        "--from-literal=password=never-printed",
    ]);
    kubectl(&["label", "secret", "token", "-n", a, &suite]);

    kubectl_apply(
        &std::fs::read_to_string(crate::fixture::root().join("crds/backupjobs.example.com.yaml"))
            .unwrap(),
    );
    kubectl_apply(PARITY_CRD);
    for crd in [
        "crd/backupjobs.example.com",
        "crd/parityclusters.parity.example.com",
    ] {
        crate::fixture::wait_established(&[crd.trim_start_matches("crd/")]);
    }
    kubectl_apply(&format!(
        "apiVersion: example.com/v1\nkind: BackupJob\nmetadata: {{name: nightly, namespace: {a}, labels: {{team: storage, suite: {suite_value}}}}}\nspec: {{schedule: \"0 2 * * *\", target: pvc-a, retentionDays: 3}}\n---\napiVersion: example.com/v1\nkind: BackupJob\nmetadata: {{name: adhoc, namespace: {a}}}\nspec: {{schedule: \"@daily\", target: pvc-b}}\n---\napiVersion: example.com/v1\nkind: BackupJob\nmetadata: {{name: weekly, namespace: {b}, labels: {{suite: {suite_value}}}}}\nspec: {{schedule: \"0 3 * * 0\", target: pvc-c, retentionDays: 30}}\n"
    ));
    let pc_east = format!("{a}-east");
    let pc_west = format!("{a}-west");
    let _cleanup = ClusterObjects(vec![pc_east.clone(), pc_west.clone()]);
    kubectl_apply(&format!(
        "apiVersion: parity.example.com/v1\nkind: ParityCluster\nmetadata: {{name: {pc_east}, labels: {{suite: {suite_value}, region: east}}}}\nspec: {{region: us-east-1, size: 12, tier: gold}}\n---\napiVersion: parity.example.com/v1\nkind: ParityCluster\nmetadata: {{name: {pc_west}, labels: {{suite: {suite_value}}}}}\nspec: {{region: eu-west-1, size: 3}}\n"
    ));

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
    let ns_a = format!("namespace/{a}");
    let fs_b = format!("--field-selector=metadata.namespace={b}");
    let sel = format!("-l={suite}");
    let east = pc_east.as_str();
    let west = pc_west.as_str();
    let crd_bj = "backupjobs.example.com";
    let crd_pc = "parityclusters.parity.example.com";
    let merge = r#"{"metadata":{"labels":{"patched":"yes"}}}"#;
    let patch = |target: &[&str], out: &[&str]| {
        let mut v = vec!["-n", a, "patch"];
        v.extend_from_slice(target);
        v.extend_from_slice(&[
            "--type",
            "merge",
            "-p",
            merge,
            "--dry-run=server",
            "--field-manager=parity",
        ]);
        v.extend_from_slice(out);
        raw(&v)
    };

    let cases = vec![
        // tables, -o wide/name/json/yaml/kyaml on pods (from output.rs)
        get(a, &["pods"]),
        get(a, &["pods", "-o", "wide"]),
        get(a, &["pods", "--no-headers"]),
        get(a, &["pods", "--show-labels"]),
        get(a, &["pods", "--no-headers", "--show-labels"]),
        get(a, &["pods", "-L", "app"]),
        get(a, &["pods", "-L", "app", "-L", "tier,x"]),
        get(a, &["pods", "--label-columns=app,example.com/team"]),
        get(a, &["pods", "--show-kind"]),
        get(a, &["pods", "--show-kind", "--no-headers", "-L", "tier"]),
        get(a, &["pods", "-o", "name"]),
        get(a, &["pods", "-o", "json"]),
        get(a, &["pods", "-o", "yaml"]),
        get(a, &["pods", "-o", "kyaml"]),
        get(a, &["pod", "db", "-o", "json"]),
        get(a, &["pod", "db", "-o", "yaml"]),
        get(a, &["pod/db", "-o", "kyaml"]),
        get(a, &["pod", "db", "web-1", "-o", "name"]),
        get(a, &["pod", "db", "web-1", "-o", "json"]),
        get(a, &["pods", "--sort-by=.metadata.name"]),
        get(
            a,
            &["pods", "--sort-by={.metadata.labels.tier}", "-o", "name"],
        ),
        get(
            a,
            &["pods", "--sort-by=.spec.containers[0].image", "-o", "name"],
        ),
        get(a, &["pods", "--sort-by=.metadata.name", "-o", "yaml"]),
        get(a, &["pods", "--sort-by=.nope", "-o", "name"]),
        get(a, &["pod", "db", "--sort-by=.nope", "-o", "json"]),
        get(a, &["pod", "db", "--sort-by=.nope"]),
        get(a, &["pods", "-o", "json", "--show-managed-fields"]),
        get(a, &["pod", "db", "-o", "yaml", "--show-managed-fields"]),
        get(a, &["pods", &sel, "--no-headers"]),
        get(a, &["pods", "-A", &sel, "--sort-by=.metadata.name"]),
        get(a, &["configmaps"]),
        get(a, &["configmaps", "--no-headers"]),
        get(a, &["configmaps", "-o", "json"]),
        get(a, &["configmaps", "-o", "yaml"]),
        get(a, &["configmap", "edge", "-o", "yaml"]),
        get(a, &["configmap", "edge", "-o", "json"]),
        get(a, &["configmap", "edge", "-o", "kyaml"]),
        get(a, &["configmap", "edge", "--show-kind", "-L", "team"]),
        get(a, &["configmaps", "--sort-by=.metadata.name", "-o", "name"]),
        get(a, &["configmaps", "-l", "team=x", "-o", "yaml"]),
        get(a, &["configmaps", "-l", "nope=1", "-o", "json"]),
        get(a, &["configmaps", "-l", "nope=1", "-o", "yaml"]),
        get(a, &["backupjobs"]),
        get(a, &["bj", "-o", "wide"]),
        get(a, &["bj", "--no-headers"]),
        get(a, &["bj", "--show-kind", "-L", "team"]),
        get(a, &["bj", "--sort-by=.spec.target"]),
        get(a, &["bj", "--sort-by=.spec.retentionDays", "-o", "name"]),
        get(a, &["bj", "-o", "json"]),
        get(a, &["bj", "-o", "yaml"]),
        get(a, &["bj", "nightly", "-o", "kyaml"]),
        get(a, &["backupjob.example.com/nightly", "-o", "name"]),
        get(a, &[&ns_a, "-o", "yaml"]),
        get(a, &[&ns_a, "-o", "kyaml"]),
        get(a, &["configmap", "nope", "-o", "yaml"]).differs(MISSING),
        get(a, &["pods", "--sort-by=.nope"]).differs(SORT_MISSING_FIELD),
        get(a, &["pods", "--sort-by={.a"]).differs(SORT_BAD_PATH),
        // -o jsonpath / custom-columns (from jsonpath.rs)
        get(a, &["pods", "-o", "jsonpath={.items[*].metadata.name}"]),
        get(a, &["pods", "-o", "jsonpath={.items[0].metadata}"]),
        get(a, &["pod", "db", "-o", "jsonpath={.metadata.name}"]),
        get(a, &["pod/db", "-o", "jsonpath={.spec}"]),
        get(
            a,
            &[
                "pod",
                "db",
                "web-1",
                "-o",
                "jsonpath={.items[*].metadata.name}",
            ],
        ),
        get(a, &["configmaps", "-o", "jsonpath={.items[*].data}"]),
        get(a, &["configmap", "cfg", "-o", "jsonpath={.data.html}"]),
        get(a, &["configmap", "cfg", "-o", "jsonpath={.data.multi}"]),
        get(a, &["configmap", "cfg", "-o", "jsonpath-as-json={.data}"]),
        get(
            a,
            &["pods", "-o", "jsonpath-as-json={.items[*].metadata.name}"],
        ),
        get(
            a,
            &[
                "pods",
                "-o",
                r#"jsonpath={.items[?(@.metadata.name=="db")].spec.containers[0].image}"#,
            ],
        ),
        get(
            a,
            &[
                "pods",
                "-o",
                "jsonpath={.items[?(@.metadata.labels.tier)].metadata.name}",
            ],
        ),
        get(
            a,
            &[
                "pods",
                "-o",
                "jsonpath={.items[?(@.spec.priority==0)].metadata.name}",
            ],
        ),
        get(
            a,
            &[
                "pods",
                "-o",
                r#"jsonpath={.items[?(@.metadata.name<"e")].metadata.name}"#,
            ],
        ),
        get(a, &["pods", "-o", "jsonpath={..image}"]),
        get(a, &["pods", "-o", "jsonpath={.items[-1:].metadata.name}"]),
        get(a, &["pods", "-o", "jsonpath={.items[0:1].metadata.name}"]),
        get(a, &["pods", "-o", "jsonpath={.items[0,1].metadata.name}"]),
        get(
            a,
            &["pods", "-o", "jsonpath={.items[*]['metadata']['name']}"],
        ),
        get(
            a,
            &["pods", "-o", r#"jsonpath={.items[*].metadata.name}{"\n"}"#],
        ),
        get(
            a,
            &[
                "pods",
                "-o",
                "jsonpath=names: {.items[*].metadata.name} kind={.kind}",
            ],
        ),
        get(
            a,
            &[
                "pods",
                "-o",
                r#"jsonpath={range .items[*]}{.metadata.name}{"\t"}{.spec.containers[0].image}{"\n"}{end}"#,
            ],
        ),
        get(
            a,
            &[
                "pods",
                "-o",
                "jsonpath={range .items[*]}{.metadata.name}:{range .spec.containers[*]}{.image},{end};{end}",
            ],
        ),
        get(
            a,
            &[
                "pods",
                "-o",
                "jsonpath={.items[0].spec.terminationGracePeriodSeconds}",
            ],
        ),
        get(
            a,
            &["pods", "-o", "jsonpath={.items[0].spec.enableServiceLinks}"],
        ),
        get(a, &["pods", "-o", "jsonpath={$.kind}{@.apiVersion}"]),
        get(a, &["pods", "-o", "jsonpath={.}"]),
        get(a, &["pods", "-o", "jsonpath={.nope}"]),
        get(
            a,
            &[
                "pods",
                "-o",
                "jsonpath={.nope}",
                "--allow-missing-template-keys=false",
            ],
        ),
        get(a, &["pods", "-o", "jsonpath={.items[5]}"]),
        get(a, &["pods", "-o", "jsonpath={end}"]),
        get(a, &["pods", "-o", &t_arg]),
        get(
            a,
            &[
                "pods",
                "-l",
                "app=db",
                "-o",
                "jsonpath={.items[*].metadata.labels}",
            ],
        ),
        get(a, &["configmaps", "-l", "x=y", "-o", "jsonpath={.items}"]),
        get(a, &[&ns_a, "-o", "jsonpath={.status.phase}"]),
        get(
            a,
            &[
                "pods",
                "-o",
                "custom-columns=NAME:.metadata.name,LBL:.metadata.labels,X:.nope,I:.spec.containers[*].image",
            ],
        ),
        get(
            a,
            &[
                "pods",
                "-o",
                "custom-columns=NAME:.metadata.name",
                "--no-headers",
            ],
        ),
        get(
            a,
            &[
                "pods",
                "-o",
                "custom-columns=NAME:metadata.name,GEN:.metadata.generation",
            ],
        ),
        get(
            a,
            &[
                "pods",
                "-o",
                "custom-columns=N:{.metadata.name},P:{status.phase}",
            ],
        ),
        get(
            a,
            &[
                "pods",
                "-o",
                "custom-columns=A:.metadata.generation,B:.metadata.generation",
            ],
        ),
        get(a, &["pods", "-o", "custom-columns=A:b:c,B:.kind"]),
        get(a, &["pods", "-o", "custom-columns=C:.spec.containers"]),
        get(
            a,
            &[
                "pod",
                "db",
                "-o",
                "custom-columns=NAME:.metadata.name,TOL:.spec.tolerations[*].key",
            ],
        ),
        get(
            a,
            &[
                "configmap",
                "cfg",
                "-o",
                "custom-columns=DATA:.data,N:.data.n",
            ],
        ),
        get(
            a,
            &[
                "configmaps",
                "-l",
                "x=y",
                "-o",
                "custom-columns=N:.metadata.name",
            ],
        ),
        get(a, &["pods", "-o", &cc_arg]),
        get(a, &["pods", "-o", "jsonpath={.items["]).differs(BAD_TEMPLATE),
        get(a, &["pods", "-o", r#"jsonpath={.items[*]["metadata"]}"#]).differs(BAD_TEMPLATE),
        get(a, &["pods", "-o", "custom-columns=NAME"]).differs(BAD_TEMPLATE),
        get(a, &["pods", "-o", "custom-columns=N:{.a"]).differs(BAD_TEMPLATE),
        get(a, &["pods", "-o", "jsonpath="]).differs(BAD_TEMPLATE),
        // -A over several namespaces, selectors
        raw(&["get", "pods", "-A", &sel]),
        raw(&["get", "pods", "-A", &sel, "-o", "wide"]),
        raw(&["get", "pods", "-A", &sel, "--no-headers"]),
        raw(&["get", "pods", "-A", &sel, "-o", "name"]),
        raw(&["get", "pods", "-A", &sel, "--show-labels"]),
        raw(&[
            "get",
            "pods",
            "-A",
            &sel,
            "-L",
            "app",
            "--sort-by=.metadata.name",
        ]),
        raw(&[
            "get",
            "pods",
            "-A",
            "-l",
            &format!("{suite},tier=front"),
            "-o",
            "json",
        ]),
        raw(&[
            "get",
            "pods",
            "-A",
            &sel,
            "-o",
            "custom-columns=NS:.metadata.namespace,NAME:.metadata.name",
            "--sort-by=.metadata.name",
        ]),
        raw(&["get", "configmaps", "-A", &sel]),
        raw(&["get", "configmaps", "-A", &sel, "-o", "yaml"]),
        raw(&["get", "bj", "-A", &sel]),
        raw(&["get", "bj", "-A", &sel, "-o", "wide"]),
        raw(&[
            "get",
            "bj",
            "-A",
            &sel,
            "-o",
            "jsonpath={range .items[*]}{.metadata.namespace}/{.metadata.name}={.spec.retentionDays}{\"\\n\"}{end}",
        ]),
        get(b, &["pods"]),
        get(b, &["pods", "-o", "yaml"]),
        get(
            b,
            &["pods", "--sort-by=.spec.containers[0].image", "-o", "name"],
        ),
        get(a, &["pods", "-l", "app=web"]),
        get(a, &["pods", "-l", "app in (web,db)", "-o", "name"]),
        get(a, &["pods", "-l", "app!=web", "-o", "name"]),
        get(a, &["pods", "-l", "tier", "--no-headers"]),
        get(a, &["pods", "-l", "!tier", "-o", "name"]),
        get(a, &["pods", "-l", "example.com/team=data", "-o", "wide"]),
        get(a, &["pods", "-l", "app=nope"]),
        get(a, &["pods", "--selector=app=web", "--show-labels"]),
        get(a, &["pods", "--field-selector", "metadata.name=db"]),
        get(
            a,
            &["pods", "--field-selector=metadata.name!=db", "-o", "name"],
        ),
        get(
            a,
            &[
                "pods",
                "--field-selector=status.phase=Pending",
                "-l",
                "app=web",
            ],
        ),
        get(
            a,
            &["pods", "--field-selector=metadata.name=nope", "-o", "json"],
        ),
        get(a, &["bj", "--field-selector=metadata.name=nightly"]),
        raw(&["get", "pods", "-A", &sel, &fs_b]),
        // names that exist or not, --ignore-not-found
        get(a, &["pod", "web-1"]),
        get(a, &["pod", "web-1", "db"]),
        get(a, &["pods/web-1", "pods/db", "-o", "wide"]),
        get(a, &["po", "web-10", "--show-labels"]),
        get(a, &["pod", "nope", "--ignore-not-found"]),
        get(a, &["pod", "nope", "--ignore-not-found", "-o", "json"]),
        get(a, &["pods", "--ignore-not-found"]),
        get(
            a,
            &["pods", "-l", "app=nope", "--ignore-not-found", "-o", "name"],
        ),
        get(a, &["bj", "nope", "--ignore-not-found", "-o", "name"]),
        get(a, &["pod", "nope"]).differs(MISSING),
        get(a, &["bj", "nope", "-o", "json"]).differs(MISSING),
        get(b, &["pod", "db"]).differs(MISSING),
        // secrets: names and chosen columns only
        get(a, &["secrets", &sel, "-o", "name"]),
        get(
            a,
            &[
                "secret",
                "token",
                "-o",
                "custom-columns=NAME:.metadata.name,TYPE:.type",
            ],
        ),
        get(
            a,
            &[
                "secrets",
                &sel,
                "-o",
                "custom-columns=NAME:.metadata.name,KEYS:.metadata.labels",
            ],
        ),
        // CRDs: namespaced and cluster-scoped custom resources
        get(a, &["backupjobs.example.com", "nightly"]),
        get(a, &["backupjobs.v1.example.com", "-o", "name"]),
        get(a, &["BackupJob", "adhoc", "-o", "wide"]),
        get(a, &["bj", "--sort-by=.spec.schedule"]),
        get(a, &["bj", "--sort-by=.spec.retentionDays", "--no-headers"]),
        get(
            a,
            &[
                "bj",
                "-o",
                "custom-columns=NAME:.metadata.name,SCHED:.spec.schedule,DAYS:.spec.retentionDays",
            ],
        ),
        get(a, &["bj", "-o", "jsonpath={.items[*].spec.target}"]),
        get(a, &["bj", "nightly", "-o", "jsonpath-as-json={.spec}"]),
        raw(&["get", "parityclusters", &sel]),
        raw(&["get", "pcl", &sel, "-o", "wide"]),
        raw(&["get", "pcl", &sel, "--no-headers"]),
        raw(&["get", "pcl", &sel, "-o", "name"]),
        raw(&["get", "pcl", &sel, "-o", "json"]),
        raw(&["get", "pcl", &sel, "-o", "yaml"]),
        raw(&["get", "pcl", east, "-o", "kyaml"]),
        raw(&["get", "paritycluster", east, west, "-o", "name"]),
        raw(&[
            "get",
            &format!("paritycluster.parity.example.com/{west}"),
            "-o",
            "yaml",
        ]),
        raw(&["get", "pcl", &sel, "--sort-by=.spec.size"]),
        raw(&["get", "pcl", &sel, "--sort-by=.spec.region", "-o", "name"]),
        raw(&["get", "pcl", &sel, "--show-kind", "-L", "region"]),
        raw(&["get", "pcl", &sel, "--show-labels"]),
        raw(&[
            "get",
            "pcl",
            &sel,
            "-o",
            "custom-columns=NAME:.metadata.name,SIZE:.spec.size,TIER:.spec.tier",
        ]),
        raw(&[
            "get",
            "pcl",
            &sel,
            "-o",
            "jsonpath={range .items[*]}{.metadata.name} {.spec.region}{\"\\n\"}{end}",
        ]),
        raw(&[
            "get",
            "pcl",
            "-l",
            "region=east",
            "-o",
            "jsonpath={.items[*].spec.size}",
        ]),
        // `-n` on a cluster-scoped type is ignored by both
        get(b, &["pcl", east, "-o", "name"]),
        raw(&["get", "pcl", &format!("{a}-north")]).differs(MISSING),
        // cluster-scoped built-ins: namespaces and the CRD objects themselves
        raw(&["get", "namespaces", &sel]),
        raw(&["get", "ns", &sel, "-o", "name"]),
        raw(&["get", "ns", &sel, "-L", "side"]),
        raw(&["get", "ns", a, b, "-o", "jsonpath={.items[*].status.phase}"]),
        raw(&["get", "namespace", b, "-o", "json"]),
        raw(&[
            "get",
            "ns",
            "-l",
            "side=b",
            "-o",
            "custom-columns=NAME:.metadata.name,SIDE:.metadata.labels.side",
        ]),
        raw(&["get", "customresourcedefinitions", crd_bj, crd_pc]),
        raw(&["get", "crd", crd_pc, "-o", "yaml"]),
        raw(&["get", "crd", crd_bj, "-o", "json"]),
        raw(&["get", "crd", crd_pc, "-o", "name"]),
        raw(&[
            "get",
            "crd",
            crd_bj,
            crd_pc,
            "-o",
            "jsonpath={range .items[*]}{.spec.names.kind}:{.spec.scope}{\"\\n\"}{end}",
        ]),
        raw(&[
            "get",
            "crd",
            crd_bj,
            crd_pc,
            "-o",
            "custom-columns=NAME:.metadata.name,SCOPE:.spec.scope,SHORT:.spec.names.shortNames",
        ]),
        raw(&[
            "get",
            "customresourcedefinition.apiextensions.k8s.io",
            crd_pc,
            "-o",
            "kyaml",
        ]),
        raw(&["get", "crd", "nope.example.com"]).differs(MISSING),
        // --chunk-size=1: several pages, one output
        get(a, &["pods", "--chunk-size=1"]),
        get(a, &["pods", "--chunk-size=1", "-o", "name"]),
        // -o json|yaml print each page's items as they arrive inside one List (issue 31)
        get(a, &["pods", "--chunk-size=1", "-o", "json"]),
        get(a, &["configmaps", "--chunk-size=1", "-o", "yaml"]),
        get(
            a,
            &[
                "configmaps",
                "--chunk-size=1",
                "-o",
                "jsonpath={.items[*].metadata.name}",
            ],
        ),
        raw(&["get", "pods", "-A", &sel, "--chunk-size=1", "--no-headers"]),
        raw(&["get", "pcl", &sel, "--chunk-size=1", "-o", "name"]),
        // patch --dry-run=server -o …: the same printers
        patch(&["pod", "db"], &["-o", "json"]),
        patch(&["pod", "db"], &["-o", "yaml"]),
        patch(&["pod/db"], &["-o", "name"]),
        patch(&["pod", "db"], &["-o", "jsonpath={.metadata.labels}"]),
        patch(
            &["pod", "db"],
            &["-o", "jsonpath-as-json={.metadata.labels.patched}"],
        ),
        patch(&["configmap", "cfg"], &["-o", "yaml"]),
        patch(&["bj", "nightly"], &["-o", "json"]),
        patch(&["backupjob/nightly"], &["-o", "name"]),
        patch(&["pod", "db"], &["-o", "custom-columns=N:.metadata.name"])
            .differs(PATCH_CUSTOM_COLUMNS),
        patch(&["pod", "nope"], &["-o", "name"]).differs(MISSING),
        // several types and categories (item 2)
        get(a, &["pods,configmaps"]),
        get(a, &["pods,cm", "-o", "name"]),
        get(a, &["pod/db", "cm/cfg"]),
        get(a, &["pod/db", "bj/nightly", "-o", "name"]),
        get(a, &["all"]),
        get(a, &["all", "-o", "name"]),
        get(a, &["pods,cm", "--no-headers"]),
        get(a, &["pods,bj", "-o", "wide"]),
        get(a, &["pods,cm", "-o", "json"]),
        get(a, &["pods,cm", &sel, "-o", "yaml"]),
        get(a, &["pod/db", "cm/nope"]).differs(MISSING),
        raw(&["get", "pods,cm", "-A", &sel]),
        raw(&["get", "pods,bj", "-A", &sel, "-o", "name"]),
        raw(&["get", "parity", &sel]),
        get(a, &["myops", "-o", "name"]),
        get(a, &["pod/db", "cm/cfg", "pod/web-1"]),
        get(a, &["pods,po"]),
        get(a, &["pods,po,pod", "-o", "name"]),
        get(a, &["pods,secrets", "--show-kind"]),
        get(a, &["pods", "nope1", "nope2", "-o", "json"]).differs(MISSING),
        get(a, &["pods,cm", "db", "-o", "yaml"]).differs(MISSING),
        get(
            a,
            &[
                "cm,pods",
                &sel,
                "-o",
                "jsonpath={.kind} {.items[*].metadata.name}",
            ],
        ),
        get(
            a,
            &[
                "pod/db",
                "cm/cfg",
                "-o",
                "custom-columns=N:.metadata.name,K:.kind",
            ],
        ),
    ];
    let run: Vec<&Case> = cases.iter().collect();
    assert!(run.len() >= 120, "only {} command lines", run.len());
    eprintln!(
        "parity: {} command lines, {} of them intended differences",
        run.len(),
        run.iter().filter(|c| c.intended.is_some()).count()
    );

    let mut failures = Vec::new();
    for c in &run {
        let args: Vec<&str> = c.args.iter().map(String::as_str).collect();
        let mut attempt = 0;
        loop {
            let want = kubectl_at(&cluster().kubeconfig, &args);
            let got = m.run(&args);
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
                let why = c.intended.map_or("", |i| INTENDED[i].0);
                failures.push(format!(
                    "$ kubectl {}\n  kubectl exit {want_code}, myops exit {}{}\n  myops stderr: {:?}\n{}",
                    args.join(" "),
                    got.code,
                    if why.is_empty() {
                        String::new()
                    } else {
                        format!(" (intended: {why})")
                    },
                    got.stderr.chars().take(400).collect::<String>(),
                    first_diff(&want_out, &got_out)
                ));
                break;
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} command lines differ from kubectl:\n{}",
        failures.len(),
        run.len(),
        failures.join("\n")
    );
}

/// Regression: `patch --dry-run=server -o json` appended the field diff to stdout, so the
/// output was no longer JSON (nor kubectl's bytes); with `-o` the diff goes to stderr.
#[test]
fn patch_dry_run_with_o_json_wrote_the_diff_into_stdout() {
    let ns = Namespace::new("parity-patch-diff");
    ns.pod("web");
    let m = Myops::new(&boundary());
    let r = m.run(&[
        "-n",
        &ns.0,
        "patch",
        "pod",
        "web",
        "--type",
        "merge",
        "-p",
        r#"{"metadata":{"labels":{"patched":"yes"}}}"#,
        "--dry-run=server",
        "-o",
        "json",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    let v: serde_json::Value = serde_json::from_str(&r.stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {r:?}"));
    assert_eq!(v["metadata"]["labels"]["patched"], "yes", "{r:?}");
    assert!(
        r.stderr.contains("  + metadata.labels.patched: \"yes\"\n"),
        "{r:?}"
    );
}
