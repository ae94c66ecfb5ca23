//! Deep objects (issue 35 items 6 and 7): a custom resource nested deeper than serde_json's
//! default recursion limit (128) is stored by the API server — it and kubectl read JSON up to
//! 10,000 levels deep — so this client reads and prints it, and a change whose answer it
//! cannot read is journaled as outcome unknown, never as failed. Each test is named after the
//! failure it reproduces on the build before.

use crate::fixture::{Myops, Namespace, kubectl, kubectl_apply, kubectl_stdin, wait_established};

/// The group of the free-form custom resource the deep objects are made of.
const GROUP: &str = "deep35.example.com";

/// A boundary holding the deep custom resource.
fn plugin() -> String {
    format!(
        "name: myops\nverbs: [get, patch, apply, delete]\nresources: [deeps.{GROUP}]\nscopes: [namespace, cluster]\nmetrics: [ops_total]\n"
    )
}

/// The CRD of `deeps.deep35.example.com` (any fields kept), Established; idempotent.
fn deep_crd() {
    kubectl_apply(&format!(
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {{name: deeps.{GROUP}}}\nspec:\n  group: {GROUP}\n  scope: Namespaced\n  names: {{plural: deeps, singular: deep, kind: Deep}}\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema: {{openAPIV3Schema: {{type: object, x-kubernetes-preserve-unknown-fields: true}}}}\n"
    ));
    wait_established(&[&format!("deeps.{GROUP}")]);
}

/// `{"a":{"a":…"leaf"…}}`, `depth` objects deep, written as text (a test thread's stack
/// is small, and no recursion builds it).
fn nested(depth: usize) -> String {
    format!("{}\"leaf\"{}", "{\"a\":".repeat(depth), "}".repeat(depth))
}

/// Creates Deep `name` in `ns` with `spec` (JSON text) as the admin, with the real kubectl.
fn create_deep(ns: &str, name: &str, spec: &str) {
    let obj = format!(
        "{{\"apiVersion\":\"{GROUP}/v1\",\"kind\":\"Deep\",\"metadata\":{{\"name\":\"{name}\",\"namespace\":\"{ns}\"}},\"spec\":{spec}}}"
    );
    let out = kubectl_stdin(&["create", "-f", "-"], &obj);
    assert!(out.status.success(), "{out:?}");
}

/// The `result` of every record of `m`'s change log, in order, read without a JSON parser
/// (a record holding a deep patch nests past the test's own decoder).
fn results(m: &Myops) -> Vec<String> {
    let text = std::fs::read_to_string(m.dir.path().join("myops/changelog.jsonl")).unwrap();
    text.lines()
        .map(|l| {
            let at = l.rfind("\"result\":\"").expect("a result") + 10;
            let rest = &l[at..];
            rest[..rest.find("\",\"").unwrap_or(rest.len())].to_string()
        })
        .collect()
}

#[test]
fn a_json_patch_whose_answer_was_too_deep_was_journaled_as_failed() {
    deep_crd();
    let ns = Namespace::new("deep-patch");
    create_deep(&ns.0, "shallow", "{\"a\":1}");
    let m = Myops::new(&plugin());
    // 122 levels under /spec/deep: the patch itself is 125 deep, the object the server
    // answers with (its managedFields name every level) past 128.
    let patch = format!(
        "[{{\"op\":\"add\",\"path\":\"/spec/deep\",\"value\":{}}}]",
        nested(122)
    );
    let file = m.dir.path().join("patch.json");
    std::fs::write(&file, &patch).unwrap();
    let r = m.run(&[
        "patch",
        &format!("deeps.{GROUP}"),
        "shallow",
        "-n",
        &ns.0,
        "--type",
        "json",
        "--patch-file",
        file.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(r.stderr.lines().count(), 1, "{r:?}");
    assert!(
        r.stderr
            .contains("answered, but its answer could not be read")
            && !r.stderr.contains("cannot reach"),
        "a decode error is no connection error: {r:?}"
    );
    assert!(
        r.stderr.contains("the outcome of change-log entry")
            && r.stderr.contains("changelog reconcile"),
        "{r:?}"
    );
    // The server made the change…
    let leaf = kubectl(&[
        "get",
        &format!("deeps.{GROUP}"),
        "shallow",
        "-n",
        &ns.0,
        "-o",
        "jsonpath={.spec.deep.a.a.a}",
    ]);
    assert!(leaf.starts_with("{\"a\":"), "{leaf}");
    // …and the journal says its outcome is unknown, never that it failed.
    let results = results(&m);
    assert_eq!(results.len(), 2, "{results:?}");
    assert_eq!(results[0], "pending");
    assert!(
        results[1].starts_with("outcome unknown: the API server "),
        "{results:?}"
    );
    let listed = m.run(&["changelog", "list"]);
    assert!(listed.stdout.contains("outcome unknown"), "{listed:?}");
    // rollback does not dismiss it as an attempt that changed nothing: it sends nothing
    // until the outcome is known (exit 5)…
    let id = r.stderr.split("change-log entry ").nth(1).unwrap();
    let id = &id[..id.find(' ').unwrap()];
    let back = m.run(&["rollback", id, "--yes"]);
    assert_eq!(back.code, 5, "{back:?}");
    assert!(
        back.stderr.contains("outcome unknown") && !back.stderr.contains("changed nothing"),
        "{back:?}"
    );
    // …`changelog reconcile` reads the deep object and records the change as made…
    let rec = m.run(&["changelog", "reconcile", id]);
    assert_eq!(rec.code, 0, "{rec:?}");
    assert!(rec.stdout.starts_with(&format!("{id}: applied")), "{rec:?}");
    // …and then it rolls back as any change does.
    let back = m.run(&["rollback", id, "--yes"]);
    assert_eq!(back.code, 0, "{back:?}");
    let spec = kubectl(&[
        "get",
        &format!("deeps.{GROUP}"),
        "shallow",
        "-n",
        &ns.0,
        "-o",
        "jsonpath={.spec}",
    ]);
    assert_eq!(spec, "{\"a\":1}");
    assert_eq!(m.run(&["changelog", "verify"]).code, 0);
}

#[test]
fn a_custom_resource_130_levels_deep_failed_get_as_cannot_reach_the_api_server() {
    deep_crd();
    let ns = Namespace::new("deep-get");
    let m = Myops::new(&plugin());
    let crd = format!("deeps.{GROUP}");
    // 130 levels: past serde_json's default 128; 600: well past it (the pretty printed JSON
    // indents every level, so kubectl's own output grows with the square of the depth).
    for depth in [130, 600] {
        let name = format!("d{depth}");
        create_deep(&ns.0, &name, &nested(depth));
        for format in ["json", "yaml"] {
            let r = m.run(&["get", &crd, &name, "-n", &ns.0, "-o", format]);
            let theirs = kubectl(&["get", &crd, &name, "-n", &ns.0, "-o", format]);
            assert_eq!((r.code, r.stderr.as_str()), (0, ""), "{depth} {format}");
            assert!(
                r.stdout == theirs,
                "{depth} -o {format}: not what kubectl prints"
            );
        }
    }
    // The list too, as kubectl prints it.
    let r = m.run(&["get", &crd, "-n", &ns.0, "-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout == kubectl(&["get", &crd, "-n", &ns.0, "-o", "json"]));
}

#[test]
fn an_apply_whose_answer_was_too_deep_was_journaled_as_failed() {
    deep_crd();
    let ns = Namespace::new("deep-apply");
    create_deep(&ns.0, "deep", &nested(130));
    let m = Myops::new(&plugin());
    let file = m.dir.path().join("label.json");
    std::fs::write(
        &file,
        format!(
            "{{\"apiVersion\":\"{GROUP}/v1\",\"kind\":\"Deep\",\"metadata\":{{\"name\":\"deep\",\"namespace\":\"{}\",\"labels\":{{\"team\":\"a\"}}}}}}",
            ns.0
        ),
    )
    .unwrap();
    let r = m.run(&["apply", "-f", file.to_str().unwrap()]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr
            .contains("answered, but its answer could not be read")
            && r.stderr.contains("changelog reconcile"),
        "{r:?}"
    );
    let label = kubectl(&[
        "get",
        &format!("deeps.{GROUP}"),
        "deep",
        "-n",
        &ns.0,
        "-o",
        "jsonpath={.metadata.labels.team}",
    ]);
    assert_eq!(label, "a", "the server applied it");
    let results = results(&m);
    assert!(
        results.last().unwrap().starts_with("outcome unknown: "),
        "{results:?}"
    );
    // An apply journals no patch to compare, so reconcile asks a person, who can now read
    // the object it names and record what they find.
    let rec = m.run(&["changelog", "reconcile"]);
    assert_eq!(rec.code, 5, "{rec:?}");
    assert!(
        rec.stderr.contains("--outcome applied|not-applied"),
        "{rec:?}"
    );
    let id = rec.stderr.split(':').next().unwrap();
    let rec = m.run(&["changelog", "reconcile", id, "--outcome", "applied"]);
    assert_eq!(rec.code, 0, "{rec:?}");
}
