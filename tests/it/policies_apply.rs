//! `policies apply` against the real API server: a ValidatingAdmissionPolicy and a binding per
//! plugin.yaml rule, labelled and journaled, enforced by the server; a second apply that
//! changes nothing; rollback and undelete of what it wrote (and an apply after them); the
//! prune of a removed rule; `--dry-run=server`; refusals by plugin.yaml and RBAC with nothing
//! sent; `config validate`'s warnings about the rules as policies.
//!
//! The policies are cluster-scoped and the cluster is shared by tests running in parallel:
//! every rule here names only its test's own namespace, every plugin is named after that
//! namespace (so are the objects), and [`Cleanup`] deletes them when the test ends, passed or
//! failed.

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::fixture::{
    AdmissionPolicies, Myops, Namespace, audit_mark, audit_since, cluster, kubectl, kubectl_at,
};

const POLICY: &str = "validatingadmissionpolicy.admissionregistration.k8s.io";
const BINDING: &str = "validatingadmissionpolicybinding.admissionregistration.k8s.io";

/// A plugin named after the test's namespace, allowed to apply and delete the policy types,
/// with `rules` (YAML list items) as its `policies:`.
fn plugin(ns: &str, verbs: &str, resources: &str, rules: &str) -> String {
    format!(
        "name: {ns}\nverbs: [{verbs}]\nresources: [{resources}]\nscopes: [namespace, cluster]\npolicies:\n{rules}"
    )
}

const TYPES: &str = "configmaps, validatingadmissionpolicies, validatingadmissionpolicybindings";

/// Two rules on the test's namespace: `data/locked` of ConfigMaps, every key of Secrets.
fn two_rules(ns: &str) -> String {
    format!(
        "  - resource: configmaps\n    namespaces: [{ns}]\n    deny: [/data/locked]\n    message: locked is set by the release\n  - resource: secrets\n    namespaces: [{ns}]\n    deny: [\"/data/*\"]\n    message: secrets come from the vault\n"
    )
}

fn one_rule(ns: &str) -> String {
    two_rules(ns)
        .split("  - resource: secrets")
        .next()
        .unwrap()
        .to_string()
}

/// The object as admin sees it (with its managed fields), or `None` when it does not exist.
fn live(kind: &str, name: &str) -> Option<Value> {
    let out = kubectl_at(
        &cluster().kubeconfig,
        &["get", kind, name, "-o", "json", "--show-managed-fields"],
    );
    out.status
        .success()
        .then(|| serde_json::from_slice(&out.stdout).unwrap())
}

/// The lines `policies apply` prints for the rules named `names`, in order.
fn applied_lines(names: &[String], suffix: &str) -> String {
    names
        .iter()
        .map(|n| format!("{POLICY}/{n} serverside-applied{suffix}\n{BINDING}/{n} serverside-applied{suffix}\n"))
        .collect()
}

fn names(ns: &str) -> Vec<String> {
    vec![
        format!("{ns}-policies-0-configmaps"),
        format!("{ns}-policies-1-secrets"),
    ]
}

/// The last record of each change-log entry whose kind is a policy or a binding.
fn records(m: &Myops) -> Vec<Value> {
    m.latest_records()
        .into_iter()
        .filter(|r| {
            r["kind"]
                .as_str()
                .is_some_and(|k| k.starts_with("ValidatingAdmissionPolicy"))
        })
        .collect()
}

/// Waits (at most 30 s) until the API server refuses admin's merge patch of key `key` of
/// ConfigMap `name` — the policy is in force once the admission plugin has loaded it — and
/// returns kubectl's message. Each attempt writes a new value (a patch that changes nothing
/// is no change to refuse).
fn refused_patch(ns: &str, name: &str, key: &str) -> String {
    let end = Instant::now() + Duration::from_secs(30);
    for attempt in 0.. {
        let body = format!(r#"{{"data":{{"{key}":"v{attempt}"}}}}"#);
        let body = body.as_str();
        let out = kubectl_at(
            &cluster().kubeconfig,
            &[
                "patch",
                "configmap",
                name,
                "-n",
                ns,
                "--type",
                "merge",
                "-p",
                body,
            ],
        );
        if !out.status.success() {
            return String::from_utf8_lossy(&out.stderr).into_owned();
        }
        assert!(Instant::now() < end, "the policy never refused {body}");
        std::thread::sleep(Duration::from_millis(200));
    }
    unreachable!()
}

#[test]
fn policies_apply_writes_a_policy_then_its_binding_per_rule_labelled_journaled_and_enforced() {
    let ns = Namespace::new("papply-cycle");
    let _clean = AdmissionPolicies(ns.0.clone());
    let m = Myops::new(&plugin(&ns.0, "get, apply", TYPES, &two_rules(&ns.0)));
    kubectl(&[
        "create",
        "configmap",
        "c1",
        "-n",
        &ns.0,
        "--from-literal=locked=1",
        "--from-literal=free=1",
    ]);
    let r = m.run(&["policies", "apply"]);
    let names = names(&ns.0);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, applied_lines(&names, "").as_str()),
        "{r:?}"
    );
    for (i, name) in names.iter().enumerate() {
        let policy = live("validatingadmissionpolicy", name).expect("the policy exists");
        let binding = live("validatingadmissionpolicybinding", name).expect("the binding exists");
        for o in [&policy, &binding] {
            assert_eq!(
                o["metadata"]["labels"]["app.kubernetes.io/managed-by"],
                "kubectl-myops"
            );
            assert_eq!(
                o["metadata"]["labels"]["app.kubernetes.io/instance"],
                ns.0.as_str()
            );
            assert_eq!(
                o["metadata"]["annotations"]["myops.io/rule"],
                format!("policies[{i}] ({})", ["configmaps", "secrets"][i])
            );
        }
        assert_eq!(binding["spec"]["policyName"], name.as_str());
        assert_eq!(
            binding["spec"]["validationActions"],
            serde_json::json!(["Deny"])
        );
        assert_eq!(policy["spec"]["failurePolicy"], "Fail");
    }
    // One journaled create per object, policy before binding.
    let recs = records(&m);
    let seen: Vec<(String, String, String, bool)> = recs
        .iter()
        .map(|r| {
            (
                r["operation"].as_str().unwrap().to_string(),
                r["kind"].as_str().unwrap().to_string(),
                r["name"].as_str().unwrap().to_string(),
                r["before"].is_null(),
            )
        })
        .collect();
    let want: Vec<(String, String, String, bool)> = names
        .iter()
        .flat_map(|n| {
            [
                (
                    "apply".into(),
                    "ValidatingAdmissionPolicy".into(),
                    n.clone(),
                    true,
                ),
                (
                    "apply".into(),
                    "ValidatingAdmissionPolicyBinding".into(),
                    n.clone(),
                    true,
                ),
            ]
        })
        .collect();
    assert_eq!(seen, want);
    assert!(
        recs.iter()
            .all(|r| r["result"] == "success" && r["dryRun"] == false),
        "{recs:#?}"
    );
    // The API server enforces it for every client: plain kubectl as admin is refused under the
    // denied path and allowed beside it.
    let refused = refused_patch(&ns.0, "c1", "locked");
    assert!(
        refused.contains("denied by plugin.yaml policies[0] (configmaps): the change would modify /data/locked of configmaps")
            && refused.contains("locked is set by the release"),
        "{refused}"
    );
    kubectl(&[
        "patch",
        "configmap",
        "c1",
        "-n",
        &ns.0,
        "--type",
        "merge",
        "-p",
        r#"{"data":{"free":"2"}}"#,
    ]);
    // A second apply changes nothing: same lines, same resourceVersions, journaled again.
    let rv = |kind: &str, n: &str| live(kind, n).unwrap()["metadata"]["resourceVersion"].clone();
    let before: Vec<Value> = names
        .iter()
        .map(|n| rv("validatingadmissionpolicybinding", n))
        .collect();
    let r = m.run(&["policies", "apply"]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, applied_lines(&names, "").as_str()),
        "{r:?}"
    );
    let after: Vec<Value> = names
        .iter()
        .map(|n| rv("validatingadmissionpolicybinding", n))
        .collect();
    assert_eq!(before, after);
    assert_eq!(records(&m).len(), 8);
}

#[test]
fn policies_apply_after_a_rollback_put_the_policy_back_is_no_conflict_with_itself() {
    let ns = Namespace::new("papply-rollback");
    let _clean = AdmissionPolicies(ns.0.clone());
    let m = Myops::new(&plugin(
        &ns.0,
        "get, patch, delete, apply",
        TYPES,
        &one_rule(&ns.0),
    ));
    let r = m.run(&["policies", "apply"]);
    assert_eq!(r.code, 0, "{r:?}");
    let name = format!("{}-policies-0-configmaps", ns.0);
    let id = records(&m)[0]["id"].as_str().unwrap().to_string();
    let r = m.run(&["rollback", &id]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (
            0,
            format!("{POLICY}/{name} rolled back ({id}): deleted\n").as_str()
        ),
        "{r:?}"
    );
    assert!(live("validatingadmissionpolicy", &name).is_none());
    assert!(
        live("validatingadmissionpolicybinding", &name).is_some(),
        "the binding stays"
    );
    let undo = records(&m).last().unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let r = m.run(&["rollback", &undo]);
    assert_eq!(r.code, 0, "{r:?}");
    let back = live("validatingadmissionpolicy", &name).expect("put back");
    assert_eq!(
        back["metadata"]["labels"]["app.kubernetes.io/instance"],
        ns.0.as_str()
    );
    // The object put back is an update by kubectl-myops, which server-side apply counts as
    // another manager: the next apply takes its fields over instead of failing (exit 5).
    let r = m.run(&["policies", "apply"]);
    assert_eq!(r.code, 0, "{r:?}");
    let managers: Vec<(String, String)> =
        live("validatingadmissionpolicy", &name).unwrap()["metadata"]["managedFields"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                (
                    f["manager"].as_str().unwrap().into(),
                    f["operation"].as_str().unwrap().into(),
                )
            })
            .collect();
    assert!(
        managers.contains(&("kubectl-myops".into(), "Apply".into())),
        "{managers:?}"
    );
}

#[test]
fn policies_apply_prunes_the_objects_of_a_removed_rule_journaled_and_undeletable() {
    let ns = Namespace::new("papply-prune");
    let _clean = AdmissionPolicies(ns.0.clone());
    let m = Myops::new(&plugin(
        &ns.0,
        "get, delete, apply",
        TYPES,
        &two_rules(&ns.0),
    ));
    assert_eq!(m.run(&["policies", "apply"]).code, 0);
    let names = names(&ns.0);
    // An object of another plugin with a name of this plugin's scheme is never pruned.
    let stranger = format!("{}-policies-7-pods", ns.0);
    let stranger_yaml = format!(
        "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata:\n  name: {stranger}\n  labels:\n    app.kubernetes.io/instance: {ns}x\n    app.kubernetes.io/managed-by: kubectl-myops\nspec:\n  policyName: {stranger}\n  validationActions: [Deny]\n",
        ns = ns.0
    );
    crate::fixture::kubectl_apply(&stranger_yaml);
    let _clean_stranger = AdmissionPolicies(format!("{}x", ns.0));
    std::fs::write(
        m.dir.path().join("plugin.yaml"),
        plugin(&ns.0, "get, delete, apply", TYPES, &one_rule(&ns.0)),
    )
    .unwrap();
    let gone = &names[1];
    let pruned = |suffix: &str| {
        format!(
            "{}{BINDING}/{gone} pruned{suffix}\n{POLICY}/{gone} pruned{suffix}\n",
            applied_lines(&names[..1], suffix)
        )
    };
    let r = m.run(&["policies", "apply", "--dry-run=server"]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, pruned(" (server dry run)").as_str()),
        "{r:?}"
    );
    assert!(
        live("validatingadmissionpolicy", gone).is_some(),
        "a dry run prunes nothing"
    );
    let r = m.run(&["policies", "apply"]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, pruned("").as_str()),
        "{r:?}"
    );
    assert!(live("validatingadmissionpolicy", gone).is_none());
    assert!(live("validatingadmissionpolicybinding", gone).is_none());
    assert!(live("validatingadmissionpolicy", &names[0]).is_some());
    assert!(live("validatingadmissionpolicybinding", &stranger).is_some());
    let deletes: Vec<Value> = records(&m)
        .into_iter()
        .filter(|r| r["operation"] == "delete" && r["dryRun"] == false)
        .collect();
    assert_eq!(deletes.len(), 2, "{deletes:#?}");
    assert_eq!(deletes[0]["kind"], "ValidatingAdmissionPolicyBinding");
    assert_eq!(deletes[1]["kind"], "ValidatingAdmissionPolicy");
    assert!(
        deletes
            .iter()
            .all(|d| d["result"] == "success" && d["name"] == gone.as_str())
    );
    let id = deletes[1]["id"].as_str().unwrap();
    let r = m.run(&["undelete", "--entry", id]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, format!("{POLICY}/{gone} undeleted ({id})\n").as_str()),
        "{r:?}"
    );
    assert!(live("validatingadmissionpolicy", gone).is_some());
}

#[test]
fn policies_apply_dry_run_server_stores_nothing_and_journals_dry_runs() {
    let ns = Namespace::new("papply-dry");
    let _clean = AdmissionPolicies(ns.0.clone());
    let m = Myops::new(&plugin(&ns.0, "get, apply", TYPES, &two_rules(&ns.0)));
    let r = m.run(&[
        "policies",
        "apply",
        "--dry-run=server",
        "--actions",
        "Warn,Audit",
    ]);
    let names = names(&ns.0);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, applied_lines(&names, " (server dry run)").as_str()),
        "{r:?}"
    );
    for n in &names {
        assert!(live("validatingadmissionpolicy", n).is_none());
        assert!(live("validatingadmissionpolicybinding", n).is_none());
    }
    let recs = records(&m);
    assert_eq!(recs.len(), 4);
    assert!(
        recs.iter()
            .all(|r| r["dryRun"] == true && r["result"] == "success"),
        "{recs:#?}"
    );
    let r = m.run(&["policies", "apply", "--dry-run=client"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("did you mean --dry-run=server"), "{r:?}");
}

/// Mutating requests on the policy types since `mark` naming an object of plugin `ns`.
fn sent(mark: u64, ns: &str) -> Vec<Value> {
    audit_since(mark)
        .into_iter()
        .filter(|e| {
            matches!(
                e["verb"].as_str(),
                Some("create" | "patch" | "update" | "delete")
            ) && e
                .pointer("/objectRef/resource")
                .and_then(Value::as_str)
                .is_some_and(|r| r.starts_with("validatingadmissionpolic"))
                && e.pointer("/objectRef/name")
                    .and_then(Value::as_str)
                    .is_some_and(|n| n.starts_with(ns))
        })
        .collect()
}

#[test]
fn policies_apply_outside_plugin_yaml_or_rbac_is_refused_with_nothing_sent() {
    let ns = Namespace::new("papply-refused");
    let _clean = AdmissionPolicies(ns.0.clone());
    let mark = audit_mark();
    let m = Myops::new(&plugin(
        &ns.0,
        "get, apply",
        "configmaps",
        &two_rules(&ns.0),
    ));
    let r = m.run(&["policies", "apply"]);
    assert_eq!((r.code, r.stdout.as_str()), (3, ""), "{r:?}");
    assert!(
        r.stderr.contains("resource \"validatingadmissionpolicies.admissionregistration.k8s.io\" is not in `resources`"),
        "{r:?}"
    );
    let recs = records(&m);
    assert_eq!(recs.len(), 1, "{recs:#?}");
    assert_eq!(recs[0]["result"], "denied");
    // Policies allowed but not bindings: still nothing, not a policy without its binding.
    let m = Myops::new(&plugin(
        &ns.0,
        "get, apply",
        "validatingadmissionpolicies",
        &two_rules(&ns.0),
    ));
    let r = m.run(&["policies", "apply"]);
    assert_eq!((r.code, r.stdout.as_str()), (3, ""), "{r:?}");
    assert!(
        r.stderr.contains("validatingadmissionpolicybindings"),
        "{r:?}"
    );
    // alice has no RBAC on the policy types.
    let m = Myops::new(&plugin(&ns.0, "get, apply", TYPES, &two_rules(&ns.0)));
    let r = m.run(&["--context", "alice", "policies", "apply"]);
    assert_eq!((r.code, r.stdout.as_str()), (3, ""), "{r:?}");
    assert!(
        r.stderr.contains("user \"alice\" cannot create validatingadmissionpolicies.admissionregistration.k8s.io at cluster scope"),
        "{r:?}"
    );
    assert_eq!(records(&m)[0]["result"], "denied");
    for n in names(&ns.0) {
        assert!(live("validatingadmissionpolicy", &n).is_none());
    }
    assert!(sent(mark, &ns.0).is_empty(), "{:#?}", sent(mark, &ns.0));
    // A rule removed while plugin.yaml does not allow delete: the prune is refused before the
    // applies are sent, so nothing changes.
    let m = Myops::new(&plugin(
        &ns.0,
        "get, delete, apply",
        TYPES,
        &two_rules(&ns.0),
    ));
    assert_eq!(m.run(&["policies", "apply"]).code, 0);
    std::fs::write(
        m.dir.path().join("plugin.yaml"),
        plugin(
            &ns.0,
            "get, apply",
            TYPES,
            &one_rule(&ns.0).replace("/data/locked", "/data/sealed"),
        ),
    )
    .unwrap();
    let mark2 = audit_mark();
    let r = m.run(&["policies", "apply"]);
    assert_eq!((r.code, r.stdout.as_str()), (3, ""), "{r:?}");
    assert!(
        r.stderr.contains("verb \"delete\" is not in `verbs`"),
        "{r:?}"
    );
    assert!(sent(mark2, &ns.0).is_empty(), "{:#?}", sent(mark2, &ns.0));
    let policy = live("validatingadmissionpolicy", &names(&ns.0)[0]).unwrap();
    assert!(policy.to_string().contains("locked") && !policy.to_string().contains("sealed"));
}

#[test]
fn policies_apply_in_a_protected_context_is_refused_headless_with_nothing_sent_and_goes_on_with_yes()
 {
    let ns = Namespace::new("papply-protect");
    let _clean = AdmissionPolicies(ns.0.clone());
    let yaml = format!(
        "{}protect:\n  - contexts: [admin]\n    verbs: [apply, delete]\n    message: admission policies bind every client\n",
        plugin(&ns.0, "get, apply", TYPES, &two_rules(&ns.0))
    );
    let m = Myops::new(&yaml);
    let mark = audit_mark();
    let r = m.run(&["policies", "apply"]);
    assert_eq!((r.code, r.stdout.as_str()), (3, ""), "{r:?}");
    assert!(r.stderr.contains("there is no terminal to ask on"), "{r:?}");
    let recs = records(&m);
    assert_eq!(recs.len(), 1, "one refusal, then nothing more: {recs:#?}");
    assert_eq!(
        recs[0]["result"],
        "refused by protect: no terminal to ask on"
    );
    assert!(sent(mark, &ns.0).is_empty(), "{:#?}", sent(mark, &ns.0));
    let r = m.run(&["--yes", "policies", "apply"]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, applied_lines(&names(&ns.0), "").as_str()),
        "{r:?}"
    );
}

#[test]
fn a_rule_message_of_several_lines_is_applied_not_refused_as_invalid() {
    let ns = Namespace::new("papply-lines");
    let _clean = AdmissionPolicies(ns.0.clone());
    let rule = format!(
        "  - resource: configmaps\n    namespaces: [{}]\n    deny: [/data/a]\n    message: |\n      set by the release;\n      ask the platform team\n",
        ns.0
    );
    let m = Myops::new(&plugin(&ns.0, "get, apply", TYPES, &rule));
    let r = m.run(&["policies", "apply", "--dry-run=server"]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (
            0,
            applied_lines(&names(&ns.0)[..1], " (server dry run)").as_str()
        ),
        "{r:?}"
    );
}

#[test]
fn config_validate_warns_of_policy_cost_and_whole_cluster_rules_and_still_exits_0() {
    let m = Myops::new(
        "name: cv\nverbs: [get]\nresources: [configmaps]\nscopes: [namespace]\npolicies:\n  - resource: configmaps\n    deny: [\"/*/*/*/*\"]\n    message: x\n  - resource: \"*\"\n    deny: [/metadata/labels/team]\n    message: y\n  - resource: \"*\"\n    deny: [/metadata/labels/owner]\n    message: z\n    exempt: {groups: [\"system:serviceaccounts:kube-system\"]}\n",
    );
    let r = m.run(&["config", "validate"]);
    assert_eq!(r.code, 0, "{r:?}");
    let warnings: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| l.starts_with("warning: policies["))
        .collect();
    assert!(
        warnings.iter().any(
            |w| w.starts_with("warning: policies[0]: its CEL may cost up to ")
                && w.contains("over the API server's per-call limit of 1000000")
        ),
        "{warnings:#?}"
    );
    assert!(
        warnings.iter().any(|w| w.starts_with("warning: policies[1] (*) binds every client on the API server")),
        "{warnings:#?}"
    );
    assert!(
        !warnings
            .iter()
            .any(|w| w.starts_with("warning: policies[2] (*) binds")),
        "{warnings:#?}"
    );
}
