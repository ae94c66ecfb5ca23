//! Field-path policies (issue 16 §1) on the real API server: a plugin.yaml `policies` rule
//! refuses a patch or rollback that would change a denied field *as the server would store
//! it* (a server-side dry run of the same patch, then a diff), exit 3 naming the rule, the
//! path and its message, nothing sent for real, one complete journal record; a change the
//! rule does not deny goes through; an object no rule matches pays no extra request.

use serde_json::Value;

use crate::fixture::{
    Myops, Namespace, Run, audit_mark, audit_since, create_deployment, kubectl, kubectl_apply,
    root, wait_established,
};

/// A boundary with the types these tests own, and `policies` (YAML list entries).
fn myops(policies: &str) -> Myops {
    Myops::new(&format!(
        "name: myops\nverbs: [get, patch]\nresources: [configmaps, secrets, deployments, backupjobs.example.com]\nscopes: [namespace]\npolicies:\n{policies}"
    ))
}

const SECRET_RULE: &str = "- resource: secrets\n  deny: [\"/data/*\"]\n  message: Secrets change through the vault sync\n";

/// The patch requests (with their `?dryRun=All` or not) the audit log saw since `mark` on
/// `resource`/`name` in `ns`: one `requestURI` each.
fn patch_requests(mark: u64, resource: &str, ns: &str, name: &str) -> Vec<String> {
    audit_since(mark)
        .into_iter()
        .filter(|e| {
            e["verb"] == "patch"
                && e.pointer("/objectRef/resource").and_then(Value::as_str) == Some(resource)
                && e.pointer("/objectRef/namespace").and_then(Value::as_str) == Some(ns)
                && e.pointer("/objectRef/name").and_then(Value::as_str) == Some(name)
        })
        .map(|e| e["requestURI"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// `kubectl get KIND NAME -n NS -o jsonpath=TEMPLATE` as admin.
fn field(ns: &str, kind: &str, name: &str, template: &str) -> String {
    kubectl(&[
        "get",
        kind,
        name,
        "-n",
        ns,
        "-o",
        &format!("jsonpath={template}"),
    ])
}

/// ConfigMap `web` in `ns` with `color: blue`, created by the real kubectl as admin.
fn blue_configmap(ns: &str) {
    kubectl(&[
        "create",
        "configmap",
        "web",
        "-n",
        ns,
        "--from-literal=color=blue",
    ]);
}

/// The audit log saw exactly one patch of the object since `mark`, and not a dry run.
fn assert_no_dry_run(mark: u64, resource: &str, ns: &str, name: &str) {
    let sent = patch_requests(mark, resource, ns, name);
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert!(!sent[0].contains("dryRun"), "{sent:?}");
}

/// The last record of the change log.
fn last_record(m: &Myops) -> Value {
    m.latest_records().pop().expect("a journal record")
}

fn assert_refused(r: &Run, want_stderr: &str) {
    assert_eq!(r.code, 3, "{r:?}");
    assert_eq!(r.stdout, "", "{r:?}");
    assert_eq!(r.stderr, want_stderr, "{r:?}");
}

#[test]
fn a_secret_data_rule_refuses_a_changed_key_also_through_string_data_and_allows_a_label() {
    let ns = Namespace::new("policy-secret");
    kubectl(&[
        "create",
        "secret",
        "generic",
        "db",
        "-n",
        &ns.0,
        "--from-literal=password=old-pw-7f3a",
    ]);
    let m = myops(SECRET_RULE);
    let want = "error: denied by plugin.yaml policies[0] (secrets): the patch would change /data/password of secret/db: Secrets change through the vault sync (nothing was sent)\n";
    let before = field(
        &ns.0,
        "secret",
        "db",
        "{.data.password}{.metadata.resourceVersion}",
    );
    // A data key (base64 of new-pw-91c2).
    let mark = audit_mark();
    let r = m.merge_patch(
        &ns.0,
        "secret",
        "db",
        r#"{"data":{"password":"bmV3LXB3LTkxYzI="}}"#,
    );
    assert_refused(&r, want);
    // The dry run, and nothing for real.
    let sent = patch_requests(mark, "secrets", &ns.0, "db");
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert!(sent[0].contains("dryRun=All"), "{sent:?}");
    // stringData is not data in the patch text; the server turns it into data, and the
    // dry run shows that.
    let r = m.merge_patch(
        &ns.0,
        "secret",
        "db",
        r#"{"stringData":{"password":"new-pw-91c2"}}"#,
    );
    assert_refused(&r, want);
    // --dry-run=client is judged on the locally computed object: refused, no request at all.
    let mark = audit_mark();
    let r = m.run(&[
        "patch",
        "secret",
        "db",
        "-n",
        &ns.0,
        "--type",
        "merge",
        "--dry-run=client",
        "-p",
        r#"{"data":{"password":"bmV3LXB3LTkxYzI="}}"#,
    ]);
    assert_refused(&r, want);
    assert_eq!(
        patch_requests(mark, "secrets", &ns.0, "db"),
        Vec::<String>::new()
    );
    assert_eq!(
        field(
            &ns.0,
            "secret",
            "db",
            "{.data.password}{.metadata.resourceVersion}"
        ),
        before,
        "the object is unchanged"
    );
    let rec = last_record(&m);
    assert_eq!(
        (
            rec["operation"].as_str(),
            rec["result"].as_str(),
            rec["kind"].as_str()
        ),
        (
            Some("patch"),
            Some("denied by field policy policies[0] (secrets): /data/password"),
            Some("Secret")
        ),
        "{rec}"
    );
    assert_eq!(
        m.latest_records().len(),
        3,
        "one complete record per refusal"
    );
    let journal = std::fs::read_to_string(m.dir.path().join("myops/changelog.jsonl")).unwrap();
    for secret in [
        "new-pw-91c2",
        "bmV3LXB3LTkxYzI=",
        "old-pw-7f3a",
        "b2xkLXB3LTdmM2E=",
    ] {
        assert!(
            !journal.contains(secret) && !r.stderr.contains(secret),
            "{secret} leaked"
        );
    }
    // A label is not denied: patched, with the dry run and the real patch.
    let mark = audit_mark();
    let r = m.merge_patch(
        &ns.0,
        "secret",
        "db",
        r#"{"metadata":{"labels":{"tier":"db"}}}"#,
    );
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "secret/db patched\n"),
        "{r:?}"
    );
    let sent = patch_requests(mark, "secrets", &ns.0, "db");
    assert_eq!(sent.len(), 2, "{sent:?}");
    assert!(
        sent[0].contains("dryRun=All") && !sent[1].contains("dryRun"),
        "{sent:?}"
    );
    assert_eq!(
        field(&ns.0, "secret", "db", "{.metadata.labels.tier}"),
        "db"
    );
    assert_eq!(last_record(&m)["result"], "success");
}

#[test]
fn an_image_rule_refuses_a_strategic_patch_through_the_list_merge_key() {
    let ns = Namespace::new("policy-image");
    create_deployment(&ns.0, "web");
    // The patches below carry the read resourceVersion (a field policy): let the Deployment
    // controller's first writes land before (a 409 otherwise, one run in a few).
    crate::fixture::settled(&ns.0, "deployment", "web");
    let m = myops(
        "- resource: deployments.apps\n  deny: [\"/spec/template/spec/containers/*/image\"]\n  message: images are rolled out by the release pipeline\n",
    );
    // The patch text names no index: only the server's strategic merge (by the merge key
    // `name`) says which item, and the dry run shows it.
    let body = r#"{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"registry.invalid/web:2"}]}}}}"#;
    let r = m.run(&["patch", "deployment", "web", "-n", &ns.0, "-p", body]);
    assert_refused(
        &r,
        "error: denied by plugin.yaml policies[0] (deployments.apps): the patch would change /spec/template/spec/containers/0/image of deployment.apps/web: images are rolled out by the release pipeline (nothing was sent)\n",
    );
    assert_eq!(
        field(
            &ns.0,
            "deployment",
            "web",
            "{.spec.template.spec.containers[0].image}"
        ),
        "registry.invalid/web:1"
    );
    // --dry-run=server is refused the same way (it would report a change that is denied).
    let r = m.run(&[
        "patch",
        "deployment",
        "web",
        "-n",
        &ns.0,
        "-p",
        body,
        "--dry-run=server",
    ]);
    assert_eq!(r.code, 3, "{r:?}");
    // The same item named with its unchanged image, plus replicas: allowed, and patched.
    let r = m.run(&[
        "patch", "deployment", "web", "-n", &ns.0, "-p",
        r#"{"spec":{"replicas":3,"template":{"spec":{"containers":[{"name":"web","image":"registry.invalid/web:1"}]}}}}"#,
    ]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "deployment.apps/web patched\n"),
        "{r:?}"
    );
    assert_eq!(field(&ns.0, "deployment", "web", "{.spec.replicas}"), "3");
    // The scale subresource answers with a Scale; its replicas are the Deployment's
    // /spec/replicas, which a second rule denies.
    let scale = |m: &Myops, n: &str| {
        m.run(&[
            "patch",
            "deployment",
            "web",
            "-n",
            &ns.0,
            "--subresource",
            "scale",
            "--type",
            "merge",
            "-p",
            &format!(r#"{{"spec":{{"replicas":{n}}}}}"#),
        ])
    };
    let r = scale(&m, "4");
    assert_eq!(r.code, 0, "the image rule does not cover replicas: {r:?}");
    let replicas =
        myops("- resource: deployments\n  deny: [/spec/replicas]\n  message: HPA owns it\n");
    let r = scale(&replicas, "5");
    assert_refused(
        &r,
        "error: denied by plugin.yaml policies[0] (deployments): the patch would change /spec/replicas of deployment.apps/web: HPA owns it (nothing was sent)\n",
    );
    assert_eq!(field(&ns.0, "deployment", "web", "{.spec.replicas}"), "4");
}

#[test]
fn a_merge_patch_cutting_several_containers_cannot_remove_a_denied_field_of_the_last_one() {
    // Regression: the diff named the items cut from the end of a list as `remove /1` twice
    // (a patch applied in order), so only container b was judged and c's denied
    // securityContext went with it unseen — while a JSON patch removing it was refused.
    let ns = Namespace::new("policy-list-tail");
    kubectl_apply(&format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: three, namespace: {}}}\nspec:\n  replicas: 0\n  selector: {{matchLabels: {{app: three}}}}\n  template:\n    metadata: {{labels: {{app: three}}}}\n    spec:\n      containers:\n      - {{name: a, image: registry.invalid/a}}\n      - {{name: b, image: registry.invalid/b}}\n      - name: c\n        image: registry.invalid/c\n        securityContext: {{runAsNonRoot: true}}\n",
        ns.0
    ));
    let m = myops(
        "- resource: deployments\n  deny: [\"/spec/template/spec/containers/*/securityContext/**\"]\n  message: security contexts are set in git\n",
    );
    let want = "error: denied by plugin.yaml policies[0] (deployments): the patch would change /spec/template/spec/containers/2/securityContext/runAsNonRoot of deployment.apps/three: security contexts are set in git (nothing was sent)\n";
    let r = m.run(&[
        "patch", "deployment", "three", "-n", &ns.0, "--type", "merge", "-p",
        r#"{"spec":{"template":{"spec":{"containers":[{"name":"a","image":"registry.invalid/a"}]}}}}"#,
    ]);
    assert_refused(&r, want);
    assert_eq!(
        field(
            &ns.0,
            "deployment",
            "three",
            "{.spec.template.spec.containers[*].name}"
        ),
        "a b c"
    );
}

#[test]
fn a_rule_on_a_custom_resource_field_refuses_and_a_namespace_glob_limits_it() {
    let ns = Namespace::new("policy-cr");
    kubectl_apply(
        &std::fs::read_to_string(root().join("crds/backupjobs.example.com.yaml")).unwrap(),
    );
    wait_established(&["backupjobs.example.com"]);
    kubectl_apply(&format!(
        "apiVersion: example.com/v1\nkind: BackupJob\nmetadata: {{name: nightly, namespace: {}}}\nspec: {{schedule: '0 2 * * *', target: data-pvc, retentionDays: 3}}\n",
        ns.0
    ));
    let m = myops(&format!(
        "- resource: backupjobs.example.com\n  namespaces: [\"{}\"]\n  deny: [/spec/target, /spec/retentionDays]\n  message: backup targets are set by the storage team\n",
        ns.0
    ));
    let r = m.merge_patch(
        &ns.0,
        "backupjobs",
        "nightly",
        r#"{"spec":{"target":"other-pvc"}}"#,
    );
    assert_refused(
        &r,
        "error: denied by plugin.yaml policies[0] (backupjobs.example.com): the patch would change /spec/target of backupjob.example.com/nightly: backup targets are set by the storage team (nothing was sent)\n",
    );
    // Removing retentionDays: the server defaults it to 7 (the CRD's schema), so the stored
    // value changes from 3 although the patch only says null.
    let r = m.merge_patch(
        &ns.0,
        "backupjobs",
        "nightly",
        r#"{"spec":{"retentionDays":null}}"#,
    );
    assert_eq!(r.code, 3, "{r:?}");
    assert!(
        r.stderr.contains("would change /spec/retentionDays of"),
        "{r:?}"
    );
    let r = m.merge_patch(
        &ns.0,
        "backupjobs",
        "nightly",
        r#"{"spec":{"schedule":"0 3 * * *"}}"#,
    );
    assert_eq!(r.code, 0, "{r:?}");
    // The status subresource: its dry run answers with the whole object.
    let status = |m: &Myops, result: &str| {
        m.run(&[
            "patch",
            "backupjobs",
            "nightly",
            "-n",
            &ns.0,
            "--subresource",
            "status",
            "--type",
            "merge",
            "-p",
            &format!(r#"{{"status":{{"lastResult":"{result}"}}}}"#),
        ])
    };
    assert_eq!(
        status(&m, "ok").code,
        0,
        "status is not denied by this rule"
    );
    let owned = myops(
        "- resource: backupjobs.example.com\n  deny: [\"/status/**\"]\n  message: the backup operator writes status\n",
    );
    let r = status(&owned, "failed");
    assert_eq!(r.code, 3, "{r:?}");
    assert!(
        r.stderr.contains(
            "policies[0] (backupjobs.example.com): the patch would change /status/lastResult of"
        ),
        "{r:?}"
    );
    // The same rule for another namespace only: no rule matches, no dry run.
    let other = myops(
        "- resource: backupjobs.example.com\n  namespaces: [\"prod-*\"]\n  deny: [/spec/target]\n  message: m\n",
    );
    let mark = audit_mark();
    let r = other.merge_patch(
        &ns.0,
        "backupjobs",
        "nightly",
        r#"{"spec":{"target":"other-pvc"}}"#,
    );
    assert_eq!(r.code, 0, "{r:?}");
    assert_no_dry_run(mark, "backupjobs", &ns.0, "nightly");
}

#[test]
fn rollback_is_refused_by_a_rule_and_the_object_keeps_its_value() {
    let ns = Namespace::new("policy-rollback");
    blue_configmap(&ns.0);
    let m = myops("- resource: secrets\n  deny: [/data/*]\n  message: m\n");
    let r = m.merge_patch(&ns.0, "configmap", "web", r#"{"data":{"color":"green"}}"#);
    assert_eq!(r.code, 0, "{r:?}");
    let id = last_record(&m)["id"].as_str().unwrap().to_string();
    // The platform team adds a rule on the ConfigMap's data afterwards.
    std::fs::write(
        m.dir.path().join("plugin.yaml"),
        "name: myops\nverbs: [get, patch]\nresources: [configmaps]\nscopes: [namespace]\npolicies:\n- resource: configmaps\n  deny: [/data/color]\n  allow: []\n  message: colors are set in git\n",
    )
    .unwrap();
    let mark = audit_mark();
    let r = m.run(&["rollback", &id]);
    assert_refused(
        &r,
        "error: denied by plugin.yaml policies[0] (configmaps): the rollback would change /data/color of configmap/web: colors are set in git (nothing was sent)\n",
    );
    let sent = patch_requests(mark, "configmaps", &ns.0, "web");
    assert_eq!(sent.len(), 1, "only the dry run: {sent:?}");
    assert!(sent[0].contains("dryRun=All"), "{sent:?}");
    assert_eq!(field(&ns.0, "configmap", "web", "{.data.color}"), "green");
    let rec = last_record(&m);
    assert_eq!(
        (rec["operation"].as_str(), rec["result"].as_str()),
        (
            Some("rollback"),
            Some("denied by field policy policies[0] (configmaps): /data/color")
        ),
        "{rec}"
    );
}

#[test]
fn an_object_without_a_matching_rule_pays_no_extra_request() {
    let ns = Namespace::new("policy-none");
    blue_configmap(&ns.0);
    let m = myops(SECRET_RULE);
    let mark = audit_mark();
    let r = m.merge_patch(&ns.0, "configmap", "web", r#"{"data":{"color":"green"}}"#);
    assert_eq!(r.code, 0, "{r:?}");
    assert_no_dry_run(mark, "configmaps", &ns.0, "web");
    // With a rule on configmaps that this patch does not break: one dry run, one patch.
    let m = myops("- resource: configmaps\n  deny: [/data/size]\n  message: m\n");
    let mark = audit_mark();
    let r = m.merge_patch(&ns.0, "configmap", "web", r#"{"data":{"color":"red"}}"#);
    assert_eq!(r.code, 0, "{r:?}");
    let sent = patch_requests(mark, "configmaps", &ns.0, "web");
    assert_eq!(sent.len(), 2, "{sent:?}");
    assert!(sent[0].contains("dryRun=All"), "{sent:?}");
    // --dry-run=server: the policy's dry run is the answer, not asked twice.
    let mark = audit_mark();
    let r = m.run(&[
        "patch",
        "configmap",
        "web",
        "-n",
        &ns.0,
        "--type",
        "merge",
        "--dry-run=server",
        "-p",
        r#"{"data":{"color":"pink"}}"#,
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    let sent = patch_requests(mark, "configmaps", &ns.0, "web");
    assert_eq!(sent.len(), 1, "{sent:?}");
    assert!(sent[0].contains("dryRun=All"), "{sent:?}");
    assert_eq!(field(&ns.0, "configmap", "web", "{.data.color}"), "red");
    let rec = last_record(&m);
    assert_eq!(
        (rec["dryRun"].as_bool(), rec["result"].as_str()),
        (Some(true), Some("success")),
        "{rec}"
    );
}

#[test]
fn a_forbidden_read_or_a_rejected_dry_run_is_refused_and_journaled() {
    let ns = Namespace::new("policy-edges");
    blue_configmap(&ns.0);
    let m = myops("- resource: configmaps\n  deny: [/data/size]\n  message: m\n");
    // bob may patch but not get: no before-state, so nothing to compare with.
    ns.grant("bob", "patch", "configmaps");
    let r = m.merge_patch_as(
        "bob",
        &ns.0,
        "configmap",
        "web",
        r#"{"data":{"color":"red"}}"#,
    );
    assert_refused(
        &r,
        "error: denied by plugin.yaml policies[0] (configmaps): it applies to configmap/web, but the fields the patch would change cannot be checked: reading the object is forbidden, so there is no before-state to compare the server's dry run with; ask a cluster admin for get on it (nothing was sent)\n",
    );
    assert_eq!(field(&ns.0, "configmap", "web", "{.data.color}"), "blue");
    // A dry run the server rejects (a JSON patch whose test fails): the real patch's answer.
    let r = m.run(&[
        "patch", "configmap", "web", "-n", &ns.0, "--type", "json", "-p",
        r#"[{"op":"test","path":"/data/color","value":"nope"},{"op":"replace","path":"/data/color","value":"x"}]"#,
    ]);
    assert_eq!(r.code, 2, "{r:?}");
    let rec = last_record(&m);
    let result = rec["result"].as_str().unwrap();
    assert!(
        result.ends_with("(in the server-side dry run field policies need; nothing was sent)"),
        "{result}"
    );
    assert_eq!(field(&ns.0, "configmap", "web", "{.data.color}"), "blue");
}

#[test]
fn config_validate_lists_the_rules_and_warns_about_unreachable_and_overlapping_ones() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("plugin.yaml");
    std::fs::write(
        &file,
        "name: myops\nverbs: [get, patch]\nresources: [secrets, deployments]\nscopes: [namespace]\npolicies:\n\
         - resource: secrets\n  deny: [\"/data/*\"]\n  message: Secrets change through the vault sync\n\
         - resource: deployments.apps\n  namespaces: [\"team-*\"]\n  deny: [\"/spec/template/spec/containers/*/image\"]\n  allow: [/spec/replicas]\n  message: images are rolled out by the release pipeline\n\
         - resource: secrets\n  deny: [/data/password]\n  message: rotate it with vault\n\
         - resource: widgets.example.com\n  deny: [/spec/size]\n  message: m\n",
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kubectl-myops"))
        .args(["config", "validate", file.to_str().unwrap()])
        .env_clear()
        .env("HOME", dir.path())
        .env("MYOPS_HOME", dir.path().join("m"))
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let (stdout, stderr) = (
        crate::fixture::text_of(&out.stdout),
        crate::fixture::text_of(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(
        stdout.ends_with(
            "  policies: 4 rules (a patch or rollback changing a denied field is refused, exit 3)\n\
             \x20   [0] secrets: deny /data/* — \"Secrets change through the vault sync\"\n\
             \x20   [1] deployments.apps in team-*: deny /spec/template/spec/containers/*/image; allow /spec/replicas — \"images are rolled out by the release pipeline\"\n\
             \x20   [2] secrets: deny /data/password — \"rotate it with vault\"\n\
             \x20   [3] widgets.example.com: deny /spec/size — \"m\"\n"
        ),
        "{stdout}"
    );
    assert_eq!(
        stderr,
        "warning: policies[1] (deployments.apps): allow /spec/replicas is under no deny path of the rule, so it changes nothing; remove it or fix the path\n\
         warning: policies[3] (widgets.example.com) is unreachable: widgets.example.com is not in `resources` (unless `crds sync` registers its CRD); add it there or remove the rule\n\
         warning: policies[0] (secrets) and policies[2] (secrets) overlap: deny /data/* and deny /data/password can match the same field, and only policies[0]'s message is shown for it; merge them or narrow one\n"
    );
}

#[test]
fn auth_matrix_shows_which_types_have_field_policies() {
    let ns = Namespace::new("policy-matrix");
    let m = myops(
        "- resource: secrets\n  deny: [/data/*]\n  message: m\n- resource: \"*\"\n  namespaces: [\"team-*\"]\n  deny: [/metadata/annotations/**]\n  message: m\n- resource: deployments\n  deny: [/spec/replicas]\n  message: m\n",
    );
    let r = m.run(&["auth", "matrix", "-n", &ns.0]);
    assert_eq!(r.code, 0, "{r:?}");
    let rows: Vec<Vec<&str>> = r
        .stdout
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(
        rows[0],
        [
            "RESOURCE", "GET", "LIST", "WATCH", "PATCH", "POLICIES", "BOUNDARY"
        ]
    );
    let row = |name: &str| rows.iter().find(|r| r[0] == name).unwrap()[5];
    assert_eq!(row("configmaps"), "policies[1]");
    assert_eq!(row("secrets"), "policies[0,1]");
    assert_eq!(row("deployments.apps"), "policies[1,2]");
    // Without policies the column is not there (the table of issue 13).
    let plain =
        Myops::new("name: myops\nverbs: [get]\nresources: [configmaps]\nscopes: [namespace]\n");
    let r = plain.run(&["auth", "matrix", "-n", &ns.0]);
    assert_eq!(
        r.stdout
            .lines()
            .next()
            .unwrap()
            .split_whitespace()
            .collect::<Vec<_>>(),
        ["RESOURCE", "GET", "LIST", "WATCH", "BOUNDARY"]
    );
}

/// A plugin.yaml that may delete ConfigMaps and lets the CRD directory of `crds sync` in,
/// with `policies` (YAML list entries).
fn deleting(policies: &str) -> Myops {
    Myops::new(&format!(
        "name: myops\nverbs: [get, patch, delete]\nresources: [configmaps, customresourcedefinitions]\nscopes: [namespace, cluster]\npolicies:\n{policies}"
    ))
}

/// The DELETE requests the audit log saw since `mark` of `resource`/`name`.
fn delete_requests(mark: u64, resource: &str, name: &str) -> usize {
    audit_since(mark)
        .into_iter()
        .filter(|e| {
            e["verb"] == "delete"
                && e.pointer("/objectRef/resource").and_then(Value::as_str) == Some(resource)
                && e.pointer("/objectRef/name").and_then(Value::as_str) == Some(name)
        })
        .count()
}

#[test]
fn delete_of_an_object_a_rule_forbids_deleting_is_refused_journaled_and_never_sent() {
    let ns = Namespace::new("policy-delete");
    blue_configmap(&ns.0);
    let m = deleting(&format!(
        "- resource: configmaps\n  namespaces: [\"{}\"]\n  delete: deny\n  message: the web config is kept by the platform team\n",
        ns.0
    ));
    let mark = audit_mark();
    let r = m.run(&["delete", "configmap", "web", "-n", &ns.0]);
    assert_refused(
        &r,
        "error: denied by plugin.yaml policies[0] (configmaps): the delete would delete configmap/web, and the rule forbids deleting it: the web config is kept by the platform team (nothing was sent)\n",
    );
    assert_eq!(field(&ns.0, "configmap", "web", "{.data.color}"), "blue");
    assert_eq!(delete_requests(mark, "configmaps", "web"), 0);
    let e = last_record(&m);
    assert_eq!(e["operation"], "delete");
    assert_eq!(
        e["result"],
        "denied by field policy policies[0] (configmaps): delete"
    );
    // A server dry run is refused the same: it shows what the real delete would do.
    let r = m.run(&[
        "delete",
        "configmap",
        "web",
        "-n",
        &ns.0,
        "--dry-run=server",
    ]);
    assert_eq!(r.code, 3, "{r:?}");
    // Deny paths alone never forbid a delete: the rule below judges patches only.
    let m = deleting("- resource: configmaps\n  deny: [\"/data/*\"]\n  message: m\n");
    let r = m.run(&["delete", "configmap", "web", "-n", &ns.0]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(delete_requests(mark, "configmaps", "web"), 1);
}

#[test]
fn a_rollback_that_would_delete_what_a_rule_forbids_deleting_is_refused_and_sends_no_delete() {
    let ns = Namespace::new("policy-delete-crd");
    let group = format!("{}.policy.example.com", ns.0);
    let name = format!("keepers.{group}");
    let m = deleting(
        "- resource: customresourcedefinitions\n  delete: deny\n  message: CRDs are removed by the platform team\n",
    );
    let dir = crate::crd_watcher::watched_dir(&m);
    std::fs::write(
        dir.join("keepers.yaml"),
        crate::crd_watcher::crd(&group, "keepers", "Keeper"),
    )
    .unwrap();
    let r = m.run(&["crds", "sync", dir.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{r:?}");
    let applied = m
        .latest_records()
        .iter()
        .rev()
        .find(|e| e["operation"] == "crd-apply")
        .and_then(|e| e["id"].as_str().map(str::to_string))
        .expect("a crd-apply entry");
    // The inverse of a CRD apply that created the CRD is its delete: refused by the rule.
    let mark = audit_mark();
    let r = m.run(&["rollback", &applied]);
    assert_refused(
        &r,
        &format!(
            "error: denied by plugin.yaml policies[0] (customresourcedefinitions): the rollback would delete customresourcedefinition.apiextensions.k8s.io/{name}, and the rule forbids deleting it: CRDs are removed by the platform team (nothing was sent)\n"
        ),
    );
    assert_eq!(delete_requests(mark, "customresourcedefinitions", &name), 0);
    assert!(
        kubectl(&["get", "crd", "-o", "name"]).contains(&format!("/{name}\n")),
        "the CRD is still there"
    );
    let e = last_record(&m);
    assert_eq!(e["operation"], "rollback");
    assert_eq!(
        e["result"],
        "denied by field policy policies[0] (customresourcedefinitions): delete"
    );
    kubectl(&["delete", "crd", &name, "--wait=false"]);
}

#[test]
fn config_validate_lists_a_rule_that_forbids_deleting() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("plugin.yaml");
    std::fs::write(
        &file,
        "name: myops\nverbs: [get, patch, delete]\nresources: [secrets, namespaces]\nscopes: [namespace, cluster]\npolicies:\n\
         - resource: secrets\n  deny: [\"/data/*\"]\n  delete: deny\n  message: Secrets change through the vault sync\n\
         - resource: namespaces\n  delete: deny\n  message: the platform team removes namespaces\n",
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kubectl-myops"))
        .args(["config", "validate", file.to_str().unwrap()])
        .env_clear()
        .env("HOME", dir.path())
        .env("MYOPS_HOME", dir.path().join("m"))
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let (stdout, stderr) = (
        crate::fixture::text_of(&out.stdout),
        crate::fixture::text_of(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(
        stdout.ends_with(
            "  policies: 2 rules (a patch or rollback changing a denied field is refused, and so is a delete a rule forbids, exit 3)\n\
             \x20   [0] secrets: deny /data/*; delete denied — \"Secrets change through the vault sync\"\n\
             \x20   [1] namespaces: delete denied — \"the platform team removes namespaces\"\n"
        ),
        "{stdout}"
    );
    assert_eq!(stderr, "");
}
