//! The probes of `policies verify`: what each rule shape yields on real-looking objects, that
//! every probe applies, and that the locally evaluated CEL and the client judge agree on each
//! (what the cluster test then proves against the API server).

use serde_json::{Value, json};

use super::*;
use crate::rules::policy::cel::{Local, unchanged};
use crate::rules::policy::cel_tests::CORPUS;
use crate::rules::policy::cel_tests::big_stack;
use crate::rules::policy::{Compiled, PolicyRule, parse_pattern};

fn rule(deny: &[&str], allow: &[&str]) -> PolicyRule {
    PolicyRule {
        resource: "*".into(),
        namespaces: Vec::new(),
        deny: deny.iter().map(|s| s.to_string()).collect(),
        allow: allow.iter().map(|s| s.to_string()).collect(),
        delete: DeletePolicy::Allow,
        message: "m".into(),
        exempt: Default::default(),
    }
}

fn secret() -> Value {
    json!({"apiVersion": "v1", "kind": "Secret",
        "metadata": {"name": "db", "namespace": "t", "uid": "u", "resourceVersion": "7",
                     "annotations": {"team": "a", "example.com/owner": "x", "a~b": "t"},
                     "labels": {"app": "web", "app.kubernetes.io/version": "1"}},
        "data": {"free": "eQ==", "password": "cA==", "public": "eA=="}, "type": "Opaque"})
}

fn deployment() -> Value {
    json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "t", "generation": 2},
        "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "web"}},
            "template": {"metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [
                    {"name": "web", "image": "registry.invalid/web:1", "env": [{"name": "A", "value": "1"}],
                     "resources": {"limits": {"cpu": "1"}}},
                    {"name": "side", "image": "registry.invalid/side:1"}]}}},
        "status": {"replicas": 2}})
}

fn whats(p: &[Probe]) -> Vec<&str> {
    p.iter().map(|p| p.what.as_str()).collect()
}

#[test]
fn a_secret_key_rule_probes_under_beside_and_the_parent_with_base64_values() {
    let p = probes(&rule(&["/data/password"], &[]), "Secret", &secret());
    assert_eq!(
        whats(&p),
        [
            "change under /data/password",
            "change beside /data/free",
            "change of /data that changes /data/password"
        ]
    );
    assert_eq!(
        p[0].patch,
        Some(json!([{"op": "replace", "path": "/data/password", "value": "cHJvYmU="}]))
    );
    let parent = p[2].patch.as_ref().unwrap();
    assert_eq!(parent[0]["op"], "replace");
    assert_eq!(parent[0]["path"], "/data");
    assert_eq!(
        parent[0]["value"],
        json!({"free": "eQ==", "password": "cHJvYmU=", "public": "eA=="})
    );
}

#[test]
fn a_star_takes_a_key_no_allow_covers_and_the_allow_gets_its_own_probe() {
    let p = probes(&rule(&["/data/*"], &["/data/free"]), "Secret", &secret());
    assert_eq!(p[0].what, "change under /data/password");
    // The allowed key is the sibling the "beside" probe changes already (one probe, not two).
    assert_eq!(p[1].what, "change beside /data/free");
    assert_eq!(p.len(), 3, "{p:?}");
}

#[test]
fn escaped_keys_stay_escaped_in_the_pointers() {
    let p = probes(
        &rule(
            &[
                "/metadata/annotations/example.com~1owner",
                "/metadata/annotations/a~0b",
            ],
            &[],
        ),
        "ConfigMap",
        &secret(),
    );
    assert_eq!(
        p[0].patch,
        Some(
            json!([{"op": "replace", "path": "/metadata/annotations/example.com~1owner", "value": "xx"}])
        )
    );
    assert!(
        whats(&p).contains(&"change under /metadata/annotations/a~0b"),
        "{p:?}"
    );
}

#[test]
fn a_missing_path_is_created_with_one_add_of_a_nested_value() {
    let p = probes(
        &rule(&["/spec/strategy/rollingUpdate/maxSurge"], &[]),
        "Deployment",
        &deployment(),
    );
    assert_eq!(
        p[0].patch,
        Some(
            json!([{"op": "add", "path": "/spec/strategy", "value": {"rollingUpdate": {"maxSurge": "probe"}}}])
        )
    );
}

#[test]
fn a_list_star_takes_item_zero_and_numbers_in_strings_count_up() {
    let p = probes(
        &rule(&["/spec/template/spec/containers/*/image"], &[]),
        "Deployment",
        &deployment(),
    );
    assert_eq!(
        p[0].patch,
        Some(
            json!([{"op": "replace", "path": "/spec/template/spec/containers/0/image", "value": "registry.invalid/web:2"}])
        )
    );
    // Beside the image: the container's name, a valid DNS label after the change.
    assert_eq!(
        p[1].what,
        "change beside /spec/template/spec/containers/0/name"
    );
}

#[test]
fn server_managed_fields_are_never_picked_for_a_star() {
    let p = probes(&rule(&["/metadata/*"], &[]), "Secret", &secret());
    assert_eq!(p[0].what, "change under /metadata/annotations");
    let p = probes(&rule(&["/*"], &[]), "Deployment", &deployment());
    assert_eq!(p[0].what, "change under /metadata");
    // metadata of a Deployment with only name, namespace and generation: a new key.
    assert_eq!(
        p[0].patch,
        Some(json!([{"op": "add", "path": "/metadata/myops-probe", "value": "probe"}]))
    );
}

#[test]
fn delete_deny_adds_a_delete_probe() {
    let mut r = rule(&[], &[]);
    r.delete = DeletePolicy::Deny;
    assert_eq!(
        probes(&r, "ConfigMap", &secret()),
        [Probe {
            what: "delete".into(),
            patch: None
        }]
    );
}

#[test]
fn counted_up_keeps_label_values_and_quantities_valid() {
    assert_eq!(counted_up("1"), "2");
    assert_eq!(counted_up("web:9"), "web:10");
    assert_eq!(counted_up("web"), "webx");
    assert_eq!(counted_up(""), "x");
    assert_eq!(counted_up("99999999999999999999"), "99999999999999999999x");
}

#[test]
fn verdicts_name_the_rule_by_its_policy_name() {
    let names = [
        (0, "p-policies-0-secrets".to_string()),
        (3, "p-policies-3-configmaps".to_string()),
    ];
    let m = "admission webhook: ValidatingAdmissionPolicy 'p-policies-3-configmaps' with binding 'p-policies-3-configmaps' denied request: denied by plugin.yaml policies[3] (configmaps): …";
    assert_eq!(verdict(403, m, &[], &names), Verdict::Refused(vec![3]));
    assert_eq!(verdict(200, "", &[], &names), Verdict::Allowed);
    let w = "Validation failed for ValidatingAdmissionPolicy 'p-policies-0-secrets' with binding 'p-policies-0-secrets': denied by plugin.yaml policies[0] (secrets): …".to_string();
    assert_eq!(verdict(200, "", &[w], &names), Verdict::Refused(vec![0]));
    assert!(matches!(
        verdict(422, "invalid", &[], &names),
        Verdict::Unknown(_)
    ));
    assert!(matches!(
        verdict(
            403,
            "ValidatingAdmissionPolicy 'other' with binding 'other' denied request: denied by plugin.yaml policies[9] (x)",
            &[],
            &names
        ),
        Verdict::Unknown(_)
    ));
    assert!(matches!(
        verdict(403, "forbidden: User \"alice\" cannot patch", &[], &names),
        Verdict::Unknown(_)
    ));
}

/// Another plugin's exported policy says `denied by plugin.yaml policies[0] (…)` too; read by
/// that text, its refusal counted as this plugin's rule 0 (a false disagreement, or with a
/// broken own policy a false agreement).
#[test]
fn a_refusal_by_another_plugins_policy_was_read_as_one_of_ours() {
    let names = [(0, "p-policies-0-configmaps".to_string())];
    let m = "ValidatingAdmissionPolicy 'q-policies-0-configmaps' with binding 'q-policies-0-configmaps' denied request: denied by plugin.yaml policies[0] (configmaps): …";
    assert!(matches!(verdict(403, m, &[], &names), Verdict::Unknown(_)));
    let w = format!("Validation failed for {}", &m[..m.len() - 5]);
    assert_eq!(verdict(200, "", &[w], &names), Verdict::Allowed);
}

#[test]
fn agreement_with_one_named_refusal_or_every_warning() {
    assert!(agree(&[], &Verdict::Allowed, false));
    assert!(!agree(&[1], &Verdict::Allowed, false));
    assert!(agree(&[1, 2], &Verdict::Refused(vec![2]), false));
    assert!(!agree(&[1, 2], &Verdict::Refused(vec![2]), true));
    assert!(agree(&[2, 1], &Verdict::Refused(vec![1, 2]), true));
    assert!(!agree(&[], &Verdict::Refused(vec![2]), false));
    assert!(!agree(&[], &Verdict::Unknown("x".into()), false));
}

/// Every probe of every corpus rule applies to its object, and the rule's CEL evaluated
/// locally refuses exactly the probes the client judge refuses: the probes are judged by the
/// same semantics the API server is given.
#[test]
fn every_corpus_probe_applies_and_the_local_cel_agrees_with_the_judge() {
    big_stack(corpus_probes);
}

fn corpus_probes() {
    let mut judged = 0;
    for (deny, allow) in CORPUS {
        let r = rule(deny, allow);
        let compiled = Compiled::new(0, &r).unwrap();
        let allows: Vec<_> = allow.iter().map(|a| parse_pattern(a).unwrap()).collect();
        let locals: Vec<Local> = deny
            .iter()
            .map(|d| Local::new(&unchanged(&parse_pattern(d).unwrap(), &allows)).unwrap())
            .collect();
        for (kind, object) in [("Secret", secret()), ("Deployment", deployment())] {
            let ps = probes(&r, kind, &object);
            for p in &ps {
                let patch = p.patch.as_ref().unwrap();
                let after = apply(&object, patch)
                    .unwrap_or_else(|e| panic!("{deny:?} {}: {e}: {patch}", p.what));
                let client = !refusing(std::slice::from_ref(&compiled), &object, &after).is_empty();
                let cel = locals.iter().any(|l| !l.allows(&object, &after).unwrap());
                assert_eq!(client, cel, "{deny:?} allow {allow:?} {}: {patch}", p.what);
                judged += 1;
            }
        }
    }
    assert!(judged > 120, "only {judged} probes");
}

#[test]
fn an_object_with_a_denied_field_is_reached_one_without_is_not() {
    let r = rule(&["/data/password"], &[]);
    assert!(reaches(&r, &secret()));
    assert!(!reaches(&r, &deployment()));
    assert!(reaches(
        &rule(&["/spec/template/spec/containers/*/image"], &[]),
        &deployment()
    ));
}

#[test]
fn an_exempt_user_or_group_glob_is_recognised() {
    let mut r = rule(&["/data/*"], &[]);
    r.exempt.users = vec!["system:serviceaccount:flux-system:*".into()];
    r.exempt.groups = vec!["system:masters".into()];
    let none: &[String] = &[];
    assert!(exempts(
        &r,
        "system:serviceaccount:flux-system:kustomize-controller",
        none
    ));
    assert!(exempts(
        &r,
        "admin",
        &["system:authenticated".into(), "system:masters".into()]
    ));
    assert!(!exempts(&r, "alice", &["system:authenticated".into()]));
    assert!(!exempts(
        &rule(&["/data/*"], &[]),
        "admin",
        &["system:masters".into()]
    ));
}
