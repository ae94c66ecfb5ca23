//! `policies verify` against the real API server: the exported policies, applied with the
//! real kubectl as admin, agree with the client judge on every rule of a corpus (ConfigMaps,
//! Secrets, a Deployment and a custom resource; `*`, `/**`, escaped keys, allow exceptions,
//! namespace globs, `delete: deny`); a generator that forgets the `allow` paths (the
//! `MYOPS_TEST_POLICY_FAULT` seam) is reported, as are policies that are not applied.
//!
//! ValidatingAdmissionPolicies are cluster-scoped and the cluster is shared: every rule here
//! names the test's own namespace, every test has a plugin name of its own (the objects'
//! names start with it), and a guard deletes the test's policies and bindings when it ends,
//! before its namespace goes (a `delete: deny` policy would hold the namespace up).

use crate::fixture::*;

/// A plugin named `name` that may read the policies and get, patch and delete the corpus
/// types, with `policies`.
fn myops(name: &str, policies: &str) -> Myops {
    Myops::new(&format!(
        "name: {name}\nverbs: [get, patch, delete]\nresources: [configmaps, secrets, deployments, backupjobs.example.com, probees.pverify.example.com, validatingadmissionpolicies.admissionregistration.k8s.io, validatingadmissionpolicybindings.admissionregistration.k8s.io]\nscopes: [namespace, cluster]\npolicies:\n{policies}"
    ))
}

/// `kubectl patch KIND NAME -n NS --type merge -p BODY --dry-run=server` as admin, asked
/// again every 250 ms until refused or 15 s have passed: a policy just created is enforced a
/// moment later, each on its own.
fn until_refused(ns: &str, kind: &str, name: &str, body: &str) -> std::process::Output {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(15);
    loop {
        let out = kubectl_stdin(
            &[
                "patch",
                kind,
                name,
                "-n",
                ns,
                "--type",
                "merge",
                "-p",
                body,
                "--dry-run=server",
            ],
            "",
        );
        if !out.status.success() || std::time::Instant::now() > deadline {
            return out;
        }
        std::thread::sleep(std::time::Duration::from_millis(250));
    }
}

/// The group of the free-form custom resource (any key, `~` and spaces too) the escaped keys
/// are probed on; its CRD is shared by the tests of this module (applying it is idempotent).
const PROBEE_GROUP: &str = "pverify.example.com";

/// The objects the corpus is probed on, in `ns`: a ConfigMap and a Secret, a Deployment with
/// two containers and env, a BackupJob and a Probee whose spec has keys with `~`, a space and
/// digits.
fn objects(ns: &str) {
    kubectl_apply(
        &std::fs::read_to_string(root().join("crds/backupjobs.example.com.yaml")).unwrap(),
    );
    kubectl_apply(&format!(
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {{name: probees.{PROBEE_GROUP}}}\nspec:\n  group: {PROBEE_GROUP}\n  scope: Namespaced\n  names: {{plural: probees, singular: probee, kind: Probee}}\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema: {{openAPIV3Schema: {{type: object, x-kubernetes-preserve-unknown-fields: true}}}}\n"
    ));
    wait_established(&["backupjobs.example.com", &format!("probees.{PROBEE_GROUP}")]);
    kubectl_apply(&format!(
        r#"apiVersion: v1
kind: ConfigMap
metadata:
  name: app
  namespace: {ns}
  labels: {{app: web, app.kubernetes.io/version: "1"}}
  annotations: {{team: a, example.com/owner: x}}
data: {{password: p1, public: x1, free: y1}}
---
apiVersion: v1
kind: Secret
metadata: {{name: db, namespace: {ns}}}
stringData: {{password: hunter2, public: "x", free: "y"}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {{name: web, namespace: {ns}}}
spec:
  replicas: 2
  selector: {{matchLabels: {{app: web}}}}
  template:
    metadata: {{labels: {{app: web}}}}
    spec:
      containers:
      - name: web
        image: registry.invalid/web:1
        env: [{{name: A, value: "1"}}]
        resources: {{limits: {{cpu: "1"}}}}
      - name: side
        image: registry.invalid/side:1
---
apiVersion: example.com/v1
kind: BackupJob
metadata: {{name: nightly, namespace: {ns}}}
spec: {{schedule: "0 2 * * *", target: data-pvc, retentionDays: 3}}
---
apiVersion: {PROBEE_GROUP}/v1
kind: Probee
metadata: {{name: g1, namespace: {ns}}}
spec:
  "a~b": t
  "a b": {{c-d: 1}}
  in: true
  map: {{"0": zero}}
  items: [{{free: 1, x: 2}}, {{y: 3}}]
"#
    ));
}

/// The corpus: (resource, deny, allow, delete: deny) — the shapes of the unit corpus
/// (src/rules/policy/cel_tests.rs) on the objects of [`objects`].
const CORPUS: &[(&str, &[&str], &[&str], bool)] = &[
    ("configmaps", &["/data/*"], &[], false),
    ("configmaps", &["/data/**"], &[], false),
    ("configmaps", &["/data"], &[], false),
    ("configmaps", &["/data/password"], &[], false),
    ("configmaps", &["/data/*"], &["/data/public"], false),
    (
        "configmaps",
        &["/data/**"],
        &["/data/public", "/data/free"],
        false,
    ),
    (
        "configmaps",
        &["/metadata/annotations/**"],
        &["/metadata/annotations/team"],
        false,
    ),
    (
        "configmaps",
        &["/metadata/annotations/example.com~1owner"],
        &[],
        false,
    ),
    (
        "configmaps",
        &["/metadata/labels/*"],
        &["/metadata/labels/app.kubernetes.io~1version"],
        false,
    ),
    ("configmaps", &["/metadata/**"], &[], false),
    ("configmaps", &["/metadata"], &[], false),
    ("configmaps", &[], &[], true),
    ("configmaps", &["/*"], &["/metadata/**"], false),
    ("configmaps", &["/*/*"], &[], false),
    ("configmaps", &["/**"], &["/metadata/labels/**"], false),
    ("secrets", &["/data/password"], &[], false),
    ("secrets", &["/data/*"], &["/data/public"], false),
    ("secrets", &["/data/**"], &[], true),
    ("deployments", &["/spec/replicas"], &[], false),
    (
        "deployments",
        &["/spec/template/spec/containers/*/image"],
        &[],
        false,
    ),
    (
        "deployments",
        &["/spec/template/spec/containers/0/image"],
        &[],
        false,
    ),
    (
        "deployments",
        &["/spec/template/spec/containers/*/env/*/value"],
        &[],
        false,
    ),
    (
        "deployments",
        &["/spec/template/spec/containers/*"],
        &["/spec/template/spec/containers/*/resources"],
        false,
    ),
    (
        "deployments",
        &["/spec/template/spec/containers/*/env/**"],
        &["/spec/template/spec/containers/*/env/*/name"],
        false,
    ),
    ("deployments", &["/spec/**"], &["/spec/replicas"], false),
    (
        "deployments",
        &["/spec/template/spec/containers"],
        &["/spec/template/spec/containers/1"],
        false,
    ),
    ("backupjobs.example.com", &["/spec/target"], &[], false),
    (
        "backupjobs.example.com",
        &["/spec/*"],
        &["/spec/schedule"],
        false,
    ),
    ("backupjobs.example.com", &["/spec/**"], &[], false),
    ("probees.pverify.example.com", &["/spec/a~0b"], &[], false),
    (
        "probees.pverify.example.com",
        &["/spec/a b/c-d"],
        &[],
        false,
    ),
    (
        "probees.pverify.example.com",
        &["/spec/items/*/*"],
        &["/spec/items/*/free"],
        false,
    ),
    (
        "probees.pverify.example.com",
        &["/spec/map/0", "/spec/in"],
        &[],
        false,
    ),
    (
        "*",
        &["/metadata/annotations/example.com~1owner"],
        &[],
        false,
    ),
];

/// The plugin.yaml rules of `corpus` in namespace `ns`, the namespace written as the exact
/// name, a prefix glob, a suffix glob and a glob with `*` inside, in turn (each matches only
/// `ns` of the namespaces the tests make: all but a character or two is literal).
fn rules(ns: &str, corpus: &[(&str, &[&str], &[&str], bool)]) -> String {
    let n = ns.len();
    let globs = [
        ns.to_string(),
        format!("{}*", &ns[..n - 1]),
        format!("*{}", &ns[1..]),
        format!("{}*{}", &ns[..n - 2], &ns[n - 1..]),
    ];
    let list = |v: &[&str]| {
        v.iter()
            .map(|p| format!("{p:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    corpus
        .iter()
        .enumerate()
        .map(|(i, (resource, deny, allow, delete))| {
            let mut r = format!(
                "- resource: {resource:?}\n  namespaces: [{:?}]\n  message: rule {i}\n",
                globs[i % globs.len()]
            );
            if !deny.is_empty() {
                r.push_str(&format!("  deny: [{}]\n", list(deny)));
            }
            if !allow.is_empty() {
                r.push_str(&format!("  allow: [{}]\n", list(allow)));
            }
            if *delete {
                r.push_str("  delete: deny\n");
            }
            r
        })
        .collect()
}

/// The summary rows (after the header) of a verify run.
fn rows(stdout: &str) -> Vec<&str> {
    stdout
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("policies["))
        .collect()
}

#[test]
fn verify_agrees_with_the_api_server_on_every_rule_of_the_corpus() {
    let ns = Namespace::new("policies-verify");
    objects(&ns.0);
    let plugin = "pv-corpus";
    let m = myops(plugin, &rules(&ns.0, CORPUS));
    let _policies = export_and_apply(&m, plugin, &[]);
    let rv = |kind: &str, name: &str| {
        kubectl(&[
            "get",
            kind,
            name,
            "-n",
            &ns.0,
            "-o",
            "jsonpath={.metadata.resourceVersion}",
        ])
    };
    let before = [
        rv("configmap", "app"),
        rv("secret", "db"),
        rv("backupjob", "nightly"),
    ];
    let mark = audit_mark();
    let started = std::time::Instant::now();
    let r = m.run(&["policies", "verify", "-n", &ns.0]);
    let took = started.elapsed();
    assert_eq!(r.code, 0, "stdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
    let rows = rows(&r.stdout);
    assert_eq!(rows.len(), CORPUS.len(), "{}", r.stdout);
    for row in &rows {
        assert!(row.ends_with("   agreed"), "{row}\n{}", r.stdout);
    }
    assert_eq!(r.stderr, "");
    assert_eq!(
        rows[0].split_whitespace().collect::<Vec<_>>(),
        [
            "policies[0]",
            "(configmaps)",
            "pv-corpus-policies-0-configmaps",
            "configmap/app",
            "3",
            "3",
            "agreed"
        ],
    );
    let probes: usize = rows
        .iter()
        .map(|row| {
            row.split_whitespace()
                .rev()
                .nth(2)
                .unwrap()
                .parse::<usize>()
                .unwrap()
        })
        .sum();
    assert!(probes >= 100, "only {probes} probes:\n{}", r.stdout);
    eprintln!("{} rules, {probes} probes in {took:?}", rows.len());
    // Dry runs only: every patch the audit log saw in the namespace asked dryRun=All (the
    // ones refused by admission too; a delete carries it in its DeleteOptions body, and the
    // objects the delete probes name are still there below), nothing changed, nothing
    // journaled.
    let writes: Vec<String> = audit_since(mark)
        .into_iter()
        .filter(|e| {
            e["verb"] == "patch"
                && e.pointer("/objectRef/namespace").and_then(|v| v.as_str()) == Some(ns.0.as_str())
        })
        .map(|e| e["requestURI"].as_str().unwrap_or_default().to_string())
        .collect();
    assert!(
        writes.len() + CORPUS.iter().filter(|c| c.3).count() >= probes,
        "{} patches for {probes} probes",
        writes.len()
    );
    for uri in &writes {
        assert!(uri.contains("dryRun=All"), "{uri}");
    }
    let after = [
        rv("configmap", "app"),
        rv("secret", "db"),
        rv("backupjob", "nightly"),
    ];
    assert_eq!(before, after);
    assert!(m.records().is_empty(), "{:?}", m.records());
    // A Secret's value is never echoed.
    assert!(!r.stdout.contains("hunter2") && !r.stderr.contains("hunter2"));
}

/// The fault seam: the policies were exported by a generator that leaves every `allow` out,
/// so the API server refuses the allowed exceptions the client lets through.
#[test]
fn verify_reports_a_generator_that_forgets_the_allow_paths() {
    let ns = Namespace::new("policies-verify-fault");
    objects(&ns.0);
    let plugin = "pv-fault";
    let corpus: &[(&str, &[&str], &[&str], bool)] = &[
        ("configmaps", &["/data/*"], &["/data/public"], false),
        ("secrets", &["/data/password"], &[], false),
    ];
    let mut m = myops(plugin, &rules(&ns.0, corpus));
    m.set_env("MYOPS_TEST_POLICY_FAULT", "ignore-allow");
    let _policies = export_and_apply(&m, plugin, &[]);
    m.set_env("MYOPS_TEST_POLICY_FAULT", "");
    // Verify re-asks disagreements only: the wrong policy must be in force when it starts.
    let wrong = until_refused(
        &ns.0,
        "configmap",
        "app",
        r#"{"data":{"public":"changed"}}"#,
    );
    assert!(
        !wrong.status.success(),
        "the faulty policy is not in force after 15 s"
    );
    let r = m.run(&["policies", "verify", "-n", &ns.0]);
    assert_eq!(r.code, 1, "stdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
    let rows = rows(&r.stdout);
    assert!(
        rows[0].ends_with("outdated: pv-fault-policies-0-configmaps on the cluster differs from the export: validations; 1 disagreed or could not probe"),
        "{}",
        r.stdout
    );
    assert!(rows[1].ends_with("   agreed"), "{}", r.stdout);
    assert_eq!(
        r.stderr,
        "disagreement: policies[0] (configmaps) on configmap/app, change under allowed /data/public: plugin.yaml allows it, the API server refuses it (policies[0])\n\
         error: policies verify: 1 disagreement(s) between this client's judge and the API server, 1 rule(s) whose policy is missing or outdated or that were not probed; the API server does not enforce what plugin.yaml says — export and apply the policies again, and report a disagreement that stays\n"
    );
}

#[test]
fn verify_without_the_policies_applied_says_they_are_missing() {
    let ns = Namespace::new("policies-verify-missing");
    let plugin = "pv-missing";
    let m = myops(
        plugin,
        &rules(&ns.0, &[("configmaps", &["/data/*"], &[], false)]),
    );
    let r = m.run(&["policies", "verify", "-n", &ns.0]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(
        r.stdout,
        "RULE                       POLICY                             OBJECT   PROBES   AGREED   RESULT\n\
         policies[0] (configmaps)   pv-missing-policies-0-configmaps   -        0        0        not probed: its ValidatingAdmissionPolicy and binding pv-missing-policies-0-configmaps are not on the cluster; apply the policies first (policies apply, or policies export | kubectl apply -f -)\n"
    );
}

/// With `Warn` bindings a refusal is a warning on an accepted dry run: verify reads the
/// warnings, each naming its policy, and compares the sets of refusing rules exactly.
#[test]
fn verify_reads_the_warnings_of_warn_bindings() {
    let ns = Namespace::new("policies-verify-warn");
    objects(&ns.0);
    let plugin = "pv-warn";
    let corpus = &CORPUS[..6];
    let m = myops(plugin, &rules(&ns.0, corpus));
    let _policies = export_and_apply(&m, plugin, &["--actions", "Warn,Audit"]);
    let r = m.run(&["policies", "verify", "-n", &ns.0, "--actions", "Warn,Audit"]);
    assert_eq!(r.code, 0, "stdout:\n{}\nstderr:\n{}", r.stdout, r.stderr);
    for row in rows(&r.stdout) {
        assert!(row.ends_with("   agreed"), "{}", r.stdout);
    }
    // The same bindings verified as Deny: outdated (their actions differ).
    let r = m.run(&["policies", "verify", "-n", &ns.0]);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(
        r.stdout
            .contains("differs from the export: the binding's actions"),
        "{}",
        r.stdout
    );
}

/// Regression: the exported CEL of a `*` beside an `allow` let every change through on the
/// API server (cel-go's `[?k]` on an optional taken out of a list finds nothing), and one
/// below a list `*` failed with "no such overload: string(string)" (a key over
/// `lists.range` is typed `int`) — while the `cel` crate agreed with the judge on both.
/// Plain kubectl (admin, server-side dry run) is now refused by the policies and allowed
/// beside them.
#[test]
fn a_star_with_an_allow_refuses_plain_kubectl_on_the_api_server() {
    let ns = Namespace::new("policies-verify-star");
    objects(&ns.0);
    let plugin = "pv-star";
    let corpus: &[(&str, &[&str], &[&str], bool)] = &[
        ("configmaps", &["/data/*"], &["/data/public"], false),
        (
            "deployments",
            &["/spec/template/spec/containers/*"],
            &["/spec/template/spec/containers/*/resources"],
            false,
        ),
    ];
    let m = myops(plugin, &rules(&ns.0, corpus));
    let _policies = export_and_apply(&m, plugin, &[]);
    let patch = |kind: &str, name: &str, body: &str| {
        kubectl_stdin(
            &[
                "patch",
                kind,
                name,
                "-n",
                &ns.0,
                "--type",
                "merge",
                "-p",
                body,
                "--dry-run=server",
            ],
            "",
        )
    };
    let refused = until_refused(&ns.0, "configmap", "app", r#"{"data":{"free":"changed"}}"#);
    assert_eq!(
        text_of(&refused.stderr),
        format!(
            "Error from server (Forbidden): configmaps \"app\" is forbidden: ValidatingAdmissionPolicy 'pv-star-policies-0-configmaps' with binding 'pv-star-policies-0-configmaps' denied request: denied by plugin.yaml policies[0] (configmaps): the change would modify /data/* of configmaps {}/app: rule 0\n",
            ns.0
        )
    );
    let allowed = patch("configmap", "app", r#"{"data":{"public":"changed"}}"#);
    assert!(allowed.status.success(), "{}", text_of(&allowed.stderr));
    let image = until_refused(
        &ns.0,
        "deployment",
        "web",
        r#"{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"registry.invalid/web:2"}]}}}}"#,
    );
    assert!(
        text_of(&image.stderr).contains("denied request: denied by plugin.yaml policies[1] (deployments): the change would modify /spec/template/spec/containers/* of deployments"),
        "{}",
        text_of(&image.stderr)
    );
}

/// admin is in `system:masters`: a rule that exempts that group binds nothing admin sends, so
/// probing it as admin would prove nothing — it is "not probed", exit 1.
#[test]
fn a_rule_that_exempts_the_user_running_verify_is_not_probed() {
    let ns = Namespace::new("policies-verify-exempt");
    let plugin = "pv-exempt";
    let mut rules = rules(&ns.0, &[("configmaps", &["/data/*"], &[], false)]);
    rules.push_str("  exempt: {groups: [system:masters]}\n");
    let m = myops(plugin, &rules);
    let r = m.run(&["policies", "verify", "-n", &ns.0]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stdout.ends_with("not probed: the user \"admin\" is exempt from it (exempt:), so its policy lets every change of theirs through; run verify as a user the rule binds (--as USER)\n"),
        "{}",
        r.stdout
    );
}

/// Audit alone shows a client nothing, and a plugin.yaml without rules has nothing to prove:
/// both usage errors (2), before any request.
#[test]
fn verify_refuses_audit_alone_and_a_plugin_without_rules() {
    let m = myops(
        "pv-usage",
        &rules("t-none", &[("configmaps", &["/data/*"], &[], false)]),
    );
    let r = m.run(&["policies", "verify", "--actions", "Audit"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(
        r.stderr,
        "error: --actions Audit alone shows nothing to a client, so verify cannot see a refusal; verify bindings with Deny or Warn\n"
    );
    let m =
        Myops::new("name: pv-usage\nverbs: [get]\nresources: [configmaps]\nscopes: [namespace]\n");
    let r = m.run(&["policies", "verify"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(
        r.stderr,
        "error: plugin.yaml has no policies: rules, so there is nothing to verify; add one (docs/policies.md)\n"
    );
}
