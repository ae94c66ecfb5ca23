//! Reconciler-aware rollback (issue 15 part 2) against the real API server: an object whose
//! labels or annotations name a reconciler (Flux, Argo CD, Helm, kapp, `kubectl apply`) is
//! not rolled back without `--force` (exit 5, one sentence naming the owner, nothing sent);
//! `--force` rolls it back and journals the owner; `patch` warns and goes on; an object
//! without an owner is patched and rolled back silently.

use crate::fixture::{Myops, Namespace, kubectl, kubectl_apply, kubectl_stdin, text_of};

/// A boundary with configmaps (the objects these tests own).
fn myops() -> Myops {
    Myops::new(
        "name: myops\nverbs: [get, patch]\nresources: [configmaps, secrets, deployments]\nscopes: [namespace]\nmetrics: [ops_total]\n",
    )
}

/// The patch every test here sends.
const GREEN: &str = r#"{"data":{"color":"green"}}"#;

/// Creates ConfigMap `name` in `ns` with `labels` and `annotations` (JSON objects), data
/// `color: blue`.
fn configmap(ns: &str, name: &str, labels: &str, annotations: &str) {
    let doc = format!(
        r#"{{"apiVersion":"v1","kind":"ConfigMap","metadata":{{"name":"{name}","namespace":"{ns}","labels":{labels},"annotations":{annotations}}},"data":{{"color":"blue"}}}}"#
    );
    let out = kubectl_stdin(&["create", "-f", "-"], &doc);
    assert!(out.status.success(), "{}", text_of(&out.stderr));
}

fn color(ns: &str, name: &str) -> String {
    kubectl(&[
        "get",
        "configmap",
        name,
        "-n",
        ns,
        "-o",
        "jsonpath={.data.color}",
    ])
}

#[test]
fn rollback_is_refused_for_each_reconciler_marker_and_forced_rollbacks_journal_the_owner() {
    let ns = Namespace::new("reconciler");
    let m = myops();
    // (object, labels, annotations, the owner named, the marker named)
    let cases = [
        (
            "flux-ks",
            r#"{"kustomize.toolkit.fluxcd.io/name":"apps","kustomize.toolkit.fluxcd.io/namespace":"flux-system"}"#,
            "{}",
            "Flux Kustomization 'flux-system/apps'",
            "label kustomize.toolkit.fluxcd.io/name",
        ),
        (
            "flux-hr",
            r#"{"helm.toolkit.fluxcd.io/name":"podinfo","helm.toolkit.fluxcd.io/namespace":"web","app.kubernetes.io/managed-by":"Helm"}"#,
            r#"{"meta.helm.sh/release-name":"web-podinfo"}"#,
            "Flux HelmRelease 'web/podinfo'",
            "label helm.toolkit.fluxcd.io/name",
        ),
        (
            "argo-annotation",
            "{}",
            r#"{"argocd.argoproj.io/tracking-id":"shop:/ConfigMap:x/argo-annotation"}"#,
            "Argo CD application 'shop'",
            "annotation argocd.argoproj.io/tracking-id",
        ),
        (
            "argo-label",
            r#"{"argocd.argoproj.io/instance":"shop"}"#,
            "{}",
            "Argo CD application 'shop'",
            "label argocd.argoproj.io/instance",
        ),
        (
            "helm",
            r#"{"app.kubernetes.io/managed-by":"Helm"}"#,
            r#"{"meta.helm.sh/release-name":"web","meta.helm.sh/release-namespace":"shop"}"#,
            "Helm release 'shop/web'",
            "label app.kubernetes.io/managed-by=Helm and annotation meta.helm.sh/release-name",
        ),
        (
            "kapp",
            r#"{"kapp.k14s.io/app":"1733130000123456789"}"#,
            "{}",
            "kapp app with id '1733130000123456789'",
            "label kapp.k14s.io/app",
        ),
    ];
    for (name, labels, annotations, _, _) in &cases {
        configmap(&ns.0, name, labels, annotations);
    }
    // The kubectl apply marker, written by the real kubectl apply.
    kubectl_apply(&format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\n  namespace: {}\ndata:\n  color: blue\n",
        ns.0
    ));
    let mut all: Vec<(&str, &str, &str)> = cases.iter().map(|c| (c.0, c.3, c.4)).collect();
    all.push((
        "applied",
        "kubectl apply",
        "annotation kubectl.kubernetes.io/last-applied-configuration",
    ));

    for (name, owner, marker) in all {
        let object = format!("configmap/{name}");
        // patch: one warning line, the change made, the owner journaled.
        let r = m.merge_patch(&ns.0, "configmap", name, GREEN);
        assert_eq!(r.code, 0, "{name}: {r:?}");
        let warnings: Vec<&str> = r
            .stderr
            .lines()
            .filter(|l| l.starts_with("warning:"))
            .collect();
        assert_eq!(warnings.len(), 1, "{name}: {r:?}");
        assert!(
            warnings[0].starts_with(&format!(
                "warning: {object} is managed by {owner} ({marker}), which will revert this change "
            )),
            "{name}: {r:?}"
        );
        assert_eq!(color(&ns.0, name), "green", "{name}: the patch went on");
        let patch = m.latest_records().last().unwrap().clone();
        assert_eq!(patch["operation"], "patch");
        assert_eq!(patch["reconciler"]["marker"], marker, "{patch}");
        let id = patch["id"].as_str().unwrap().to_string();

        // rollback: refused, exit 5, one sentence naming the owner, nothing sent or journaled.
        let before = m.latest_records().len();
        let r = m.run(&["rollback", &id]);
        assert_eq!(r.code, 5, "{name}: {r:?}");
        assert_eq!(
            r.stderr.trim_end(),
            format!(
                "error: {object} is managed by {owner} ({marker}), which will revert a rollback {}; make the change in {} instead, or pass --force to roll back anyway (nothing was sent)",
                when(marker),
                truth(marker)
            ),
            "{name}"
        );
        assert_eq!(color(&ns.0, name), "green", "{name}: nothing was sent");
        assert_eq!(
            m.latest_records().len(),
            before,
            "{name}: nothing journaled"
        );

        // --force: rolled back, and the rollback's entry names the owner.
        let r = m.run(&["rollback", &id, "--force"]);
        assert_eq!(r.code, 0, "{name}: {r:?}");
        assert_eq!(color(&ns.0, name), "blue", "{name}: rolled back");
        let rb = m.latest_records().last().unwrap().clone();
        assert_eq!(
            (rb["operation"].as_str(), rb["result"].as_str()),
            (Some("rollback"), Some("success")),
            "{rb}"
        );
        assert_eq!(rb["reconciler"]["marker"], marker, "{rb}");
        assert!(rb["reconciler"]["kind"].is_string(), "{rb}");
    }
    let kinds: Vec<String> = m
        .latest_records()
        .iter()
        .filter(|e| e["operation"] == "rollback")
        .map(|e| e["reconciler"]["kind"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        kinds,
        [
            "flux-kustomization",
            "flux-helm-release",
            "argo-cd",
            "argo-cd",
            "helm",
            "kapp",
            "kubectl-apply"
        ]
    );
}

/// The "at its next …" phrase for a marker (what the refusal says).
fn when(marker: &str) -> &'static str {
    match marker {
        m if m.contains("fluxcd") => "at its next reconciliation",
        m if m.contains("argocd") => "at its next sync",
        m if m.contains("helm.sh") => "at the next helm upgrade",
        m if m.contains("kapp") => "at the next kapp deploy",
        _ => "at the next kubectl apply of its file",
    }
}

/// The source of truth a marker's refusal points at.
fn truth(marker: &str) -> &'static str {
    match marker {
        m if m.contains("fluxcd") || m.contains("argocd") => "the Git repository it syncs from",
        m if m.contains("helm.sh") => "the chart values of the release",
        m if m.contains("kapp") => "the configuration kapp deploys",
        _ => "the file that is applied",
    }
}

#[test]
fn an_object_without_a_reconciler_is_patched_and_rolled_back_silently() {
    let ns = Namespace::new("no-reconciler");
    let m = myops();
    // app.kubernetes.io/instance alone is not an owner (Helm charts set it too).
    configmap(
        &ns.0,
        "plain",
        r#"{"app.kubernetes.io/instance":"shop"}"#,
        "{}",
    );
    let r = m.merge_patch(&ns.0, "configmap", "plain", GREEN);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stderr, "", "{r:?}");
    let id = m.latest_records()[0]["id"].as_str().unwrap().to_string();
    assert!(m.latest_records()[0].get("reconciler").is_none());
    let r = m.run(&["rollback", &id]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stderr, "", "{r:?}");
    assert_eq!(color(&ns.0, "plain"), "blue");
    assert!(
        m.latest_records()
            .last()
            .unwrap()
            .get("reconciler")
            .is_none()
    );
}

#[test]
fn rollback_session_refuses_an_owned_entry_per_entry_and_force_rolls_it_back() {
    let ns = Namespace::new("reconciler-session");
    let m = myops();
    configmap(
        &ns.0,
        "owned",
        r#"{"argocd.argoproj.io/instance":"shop"}"#,
        "{}",
    );
    let r = m.merge_patch(&ns.0, "configmap", "owned", GREEN);
    assert_eq!(r.code, 0, "{r:?}");
    let owned = m.latest_records()[0].clone();
    let session = owned["session"].as_str().unwrap();
    let r = m.run(&["rollback", "--session", session]);
    assert_eq!(r.code, 5, "{r:?}");
    assert!(
        r.stderr.contains(&format!(
            "entry {}: configmap/owned is managed by Argo CD application 'shop' (label argocd.argoproj.io/instance)",
            owned["id"].as_str().unwrap()
        )),
        "{r:?}"
    );
    assert_eq!(color(&ns.0, "owned"), "green");
    let r = m.run(&["rollback", "--session", session, "--force"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(color(&ns.0, "owned"), "blue");
    assert_eq!(
        m.latest_records().last().unwrap()["reconciler"]["name"],
        "shop"
    );
}
