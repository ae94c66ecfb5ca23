//! Who else owns an object: the reconciler that will put back a hand change — a rollback or
//! a patch — the next time it runs, read from the object's labels and annotations (pure).
//!
//! A rollback restores a journaled before-state; if a GitOps controller or a release tool
//! owns the object, the restored value is reverted at its next sync and the rollback was
//! theatre (the most requested fix in Argo CD, kapp and Crossplane issue trackers). So
//! `rollback` refuses (exit 5) when [`detect`] names an owner, unless `--force`, and `patch`
//! warns; the decision is taken once, in the guarded mutation path
//! (`guard::mutation`), and the owner is journaled with the change.
//!
//! The markers and where each is documented:
//! - Flux: kustomize-controller labels every object it applies with
//!   `kustomize.toolkit.fluxcd.io/name` and `…/namespace` (its Kustomization), helm-controller
//!   with `helm.toolkit.fluxcd.io/name` and `…/namespace` (its HelmRelease); any label with
//!   either prefix counts (<https://fluxcd.io/flux/components/kustomize/kustomizations/>,
//!   <https://fluxcd.io/flux/components/helm/helmreleases/>).
//! - Argo CD: the `argocd.argoproj.io/tracking-id` annotation
//!   (`<application>:<group>/<kind>:<namespace>/<name>`, the default tracking method since
//!   Argo CD 3.0) or the `argocd.argoproj.io/instance` label (the label method configured
//!   with that key) (<https://argo-cd.readthedocs.io/en/stable/user-guide/resource_tracking/>).
//!   The default label method's `app.kubernetes.io/instance` is not a marker: Helm charts set
//!   it too, which is why Argo CD moved away from it.
//! - Helm 3: the `app.kubernetes.io/managed-by: Helm` label together with the
//!   `meta.helm.sh/release-name` annotation (and `…/release-namespace`), what Helm ≥ 3.2
//!   writes and checks before adopting an object
//!   (<https://helm.sh/docs/chart_best_practices/labels/>, helm/helm#7649).
//! - kapp: the `kapp.k14s.io/app` label, the unique label kapp generates per application
//!   (its value is kapp's numeric app id, not the app name)
//!   (<https://carvel.dev/kapp/docs/latest/apps/>).
//! - `kubectl apply`: the `kubectl.kubernetes.io/last-applied-configuration` annotation.
//!   kubectl's own `rollout undo` warns on it ("Rolling back will not update the
//!   kubectl.kubernetes.io/last-applied-configuration annotation, which may cause unexpected
//!   behavior on future 'kubectl apply' operations", k8s.io/kubectl
//!   pkg/cmd/rollout/rollout_undo.go, `warningRollbackApplyManagedResource`): the next
//!   `kubectl apply` of the old file computes its patch from that annotation and silently
//!   puts the applied values back.
//!
//! When several markers are present the first of that list wins (a Flux HelmRelease's
//! objects also carry Helm's markers; Flux is the one that reverts them).

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The kind of tool that owns an object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReconcilerKind {
    /// A Flux Kustomization (kustomize-controller).
    FluxKustomization,
    /// A Flux HelmRelease (helm-controller).
    FluxHelmRelease,
    /// An Argo CD Application.
    ArgoCd,
    /// A Helm 3 release.
    Helm,
    /// A kapp app.
    Kapp,
    /// `kubectl apply` (the last-applied-configuration annotation).
    KubectlApply,
}

/// The owner [`detect`] found: journaled with the change as `reconciler` (`{kind, name,
/// marker}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reconciler {
    /// Which tool.
    pub kind: ReconcilerKind,
    /// Its object: `namespace/name` of the Kustomization, HelmRelease or Helm release, the
    /// Argo CD application name, the kapp app id; empty for `kubectl apply` (no name).
    pub name: String,
    /// The label or annotation that gave it away (`label kustomize.toolkit.fluxcd.io/name`).
    pub marker: String,
}

/// The Flux label prefixes (any label under them marks the object).
const FLUX_KUSTOMIZE: &str = "kustomize.toolkit.fluxcd.io/";
const FLUX_HELM: &str = "helm.toolkit.fluxcd.io/";
/// Argo CD's tracking annotation and label.
const ARGO_TRACKING_ID: &str = "argocd.argoproj.io/tracking-id";
const ARGO_INSTANCE: &str = "argocd.argoproj.io/instance";
/// Helm 3's ownership markers.
const HELM_MANAGED_BY: &str = "app.kubernetes.io/managed-by";
const HELM_RELEASE_NAME: &str = "meta.helm.sh/release-name";
const HELM_RELEASE_NAMESPACE: &str = "meta.helm.sh/release-namespace";
/// kapp's app label.
const KAPP_APP: &str = "kapp.k14s.io/app";
/// kubectl apply's annotation (k8s.io/api core/v1 `LastAppliedConfigAnnotation`).
pub const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// The reconciler that owns `object` (a full object or just its `metadata` wrapped as
/// `{"metadata": …}`), from its labels and annotations; `None` when there is none. Pure.
pub fn detect(object: &Value) -> Option<Reconciler> {
    let map = |field: &str| {
        object
            .pointer(&format!("/metadata/{field}"))
            .and_then(Value::as_object)
    };
    let labels = map("labels");
    let annotations = map("annotations");
    let label = |k: &str| labels.and_then(|m| m.get(k)).and_then(Value::as_str);
    let annotation = |k: &str| annotations.and_then(|m| m.get(k)).and_then(Value::as_str);
    let found = |kind, name: String, marker: String| Some(Reconciler { kind, name, marker });
    // namespace/name from a pair of labels, or the name alone.
    let qualified = |ns: Option<&str>, name: Option<&str>| match (ns, name) {
        (Some(ns), Some(n)) if !ns.is_empty() => format!("{ns}/{n}"),
        (_, Some(n)) => n.to_string(),
        _ => String::new(),
    };
    for (prefix, kind) in [
        (FLUX_KUSTOMIZE, ReconcilerKind::FluxKustomization),
        (FLUX_HELM, ReconcilerKind::FluxHelmRelease),
    ] {
        if let Some(key) = labels.and_then(|m| m.keys().find(|k| k.starts_with(prefix))) {
            let name = qualified(
                label(&format!("{prefix}namespace")),
                label(&format!("{prefix}name")),
            );
            let marker = if label(&format!("{prefix}name")).is_some() {
                format!("label {prefix}name")
            } else {
                format!("label {key}")
            };
            return found(kind, name, marker);
        }
    }
    if let Some(id) = annotation(ARGO_TRACKING_ID) {
        // `<application>:<group>/<kind>:<namespace>/<name>`; the application may be
        // `<namespace>_<name>` (applications in any namespace).
        let app = id.split(':').next().unwrap_or(id);
        return found(
            ReconcilerKind::ArgoCd,
            app.to_string(),
            format!("annotation {ARGO_TRACKING_ID}"),
        );
    }
    if let Some(app) = label(ARGO_INSTANCE) {
        return found(
            ReconcilerKind::ArgoCd,
            app.to_string(),
            format!("label {ARGO_INSTANCE}"),
        );
    }
    if label(HELM_MANAGED_BY) == Some("Helm")
        && let Some(release) = annotation(HELM_RELEASE_NAME)
    {
        return found(
            ReconcilerKind::Helm,
            qualified(annotation(HELM_RELEASE_NAMESPACE), Some(release)),
            format!("label {HELM_MANAGED_BY}=Helm and annotation {HELM_RELEASE_NAME}"),
        );
    }
    if let Some(app) = label(KAPP_APP) {
        return found(
            ReconcilerKind::Kapp,
            app.to_string(),
            format!("label {KAPP_APP}"),
        );
    }
    if annotation(LAST_APPLIED).is_some() {
        return found(
            ReconcilerKind::KubectlApply,
            String::new(),
            format!("annotation {LAST_APPLIED}"),
        );
    }
    None
}

impl Reconciler {
    /// The owner for a message: `Argo CD application 'shop'`, `Flux Kustomization
    /// 'flux-system/apps'`, `kubectl apply`. The name is escaped and capped (it comes from
    /// the object, which anyone allowed to label it wrote).
    pub fn owner(&self) -> String {
        let name = crate::base::echo::capped(&self.name, 200);
        let what = match self.kind {
            ReconcilerKind::FluxKustomization => "Flux Kustomization",
            ReconcilerKind::FluxHelmRelease => "Flux HelmRelease",
            ReconcilerKind::ArgoCd => "Argo CD application",
            ReconcilerKind::Helm => "Helm release",
            ReconcilerKind::Kapp => "kapp app",
            ReconcilerKind::KubectlApply => return "kubectl apply".into(),
        };
        if self.name.is_empty() {
            format!("{what} (name not recorded on the object)")
        } else if self.kind == ReconcilerKind::Kapp {
            format!("{what} with id '{name}'")
        } else {
            format!("{what} '{name}'")
        }
    }

    /// When the owner puts its values back (`at its next sync`).
    pub fn reverts_when(&self) -> &'static str {
        match self.kind {
            ReconcilerKind::FluxKustomization | ReconcilerKind::FluxHelmRelease => {
                "at its next reconciliation"
            }
            ReconcilerKind::ArgoCd => "at its next sync",
            ReconcilerKind::Helm => "at the next helm upgrade",
            ReconcilerKind::Kapp => "at the next kapp deploy",
            ReconcilerKind::KubectlApply => "at the next kubectl apply of its file",
        }
    }

    /// Where the lasting change belongs (the source of truth), for the advice.
    pub fn source_of_truth(&self) -> &'static str {
        match self.kind {
            ReconcilerKind::FluxKustomization
            | ReconcilerKind::FluxHelmRelease
            | ReconcilerKind::ArgoCd => "the Git repository it syncs from",
            ReconcilerKind::Helm => "the chart values of the release",
            ReconcilerKind::Kapp => "the configuration kapp deploys",
            ReconcilerKind::KubectlApply => "the file that is applied",
        }
    }

    /// The one-line stderr warning `patch` prints for an owned object (pure).
    pub fn patch_warning(&self, object: &str) -> String {
        format!(
            "warning: {object} is managed by {} ({}), which will revert this change {}; make the lasting change in {}",
            self.owner(),
            self.marker,
            self.reverts_when(),
            self.source_of_truth()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn meta(labels: Value, annotations: Value) -> Value {
        json!({"metadata": {"name": "web", "labels": labels, "annotations": annotations}})
    }

    #[test]
    fn each_marker_names_its_owner() {
        let cases = [
            (
                meta(
                    json!({"kustomize.toolkit.fluxcd.io/name": "apps", "kustomize.toolkit.fluxcd.io/namespace": "flux-system"}),
                    json!({}),
                ),
                ReconcilerKind::FluxKustomization,
                "Flux Kustomization 'flux-system/apps'",
                "label kustomize.toolkit.fluxcd.io/name",
            ),
            (
                meta(
                    json!({"helm.toolkit.fluxcd.io/name": "podinfo", "helm.toolkit.fluxcd.io/namespace": "web",
                           "app.kubernetes.io/managed-by": "Helm"}),
                    json!({"meta.helm.sh/release-name": "web-podinfo"}),
                ),
                ReconcilerKind::FluxHelmRelease,
                "Flux HelmRelease 'web/podinfo'",
                "label helm.toolkit.fluxcd.io/name",
            ),
            (
                meta(
                    json!({}),
                    json!({"argocd.argoproj.io/tracking-id": "shop:apps/Deployment:shop/web"}),
                ),
                ReconcilerKind::ArgoCd,
                "Argo CD application 'shop'",
                "annotation argocd.argoproj.io/tracking-id",
            ),
            (
                meta(json!({"argocd.argoproj.io/instance": "shop"}), json!({})),
                ReconcilerKind::ArgoCd,
                "Argo CD application 'shop'",
                "label argocd.argoproj.io/instance",
            ),
            (
                meta(
                    json!({"app.kubernetes.io/managed-by": "Helm"}),
                    json!({"meta.helm.sh/release-name": "web", "meta.helm.sh/release-namespace": "shop"}),
                ),
                ReconcilerKind::Helm,
                "Helm release 'shop/web'",
                "label app.kubernetes.io/managed-by=Helm and annotation meta.helm.sh/release-name",
            ),
            (
                meta(
                    json!({"kapp.k14s.io/app": "1733130000123456789"}),
                    json!({}),
                ),
                ReconcilerKind::Kapp,
                "kapp app with id '1733130000123456789'",
                "label kapp.k14s.io/app",
            ),
            (
                meta(json!({}), json!({LAST_APPLIED: "{}"})),
                ReconcilerKind::KubectlApply,
                "kubectl apply",
                "annotation kubectl.kubernetes.io/last-applied-configuration",
            ),
        ];
        for (object, kind, owner, marker) in cases {
            let r = detect(&object).unwrap_or_else(|| panic!("{object}"));
            assert_eq!(r.kind, kind, "{object}");
            assert_eq!(r.owner(), owner);
            assert_eq!(r.marker, marker);
        }
    }

    #[test]
    fn helm_needs_both_markers_and_common_labels_are_not_owners() {
        for object in [
            meta(json!({"app.kubernetes.io/managed-by": "Helm"}), json!({})),
            meta(
                json!({"app.kubernetes.io/managed-by": "kustomize"}),
                json!({"meta.helm.sh/release-name": "web"}),
            ),
            meta(json!({"app.kubernetes.io/instance": "shop"}), json!({})),
            json!({"metadata": {"name": "bare"}}),
            json!({"metadata": {"labels": "not a map"}}),
            Value::Null,
        ] {
            assert_eq!(detect(&object), None, "{object}");
        }
    }

    #[test]
    fn a_hostile_name_is_escaped_and_the_record_form_is_kebab_case() {
        let r = detect(&meta(
            json!({"argocd.argoproj.io/instance": "a\u{1b}[2Jb"}),
            json!({}),
        ))
        .unwrap();
        assert_eq!(r.owner(), "Argo CD application 'a\\u{1b}[2Jb'");
        assert_eq!(
            serde_json::to_value(&r).unwrap(),
            json!({"kind": "argo-cd", "name": "a\u{1b}[2Jb", "marker": "label argocd.argoproj.io/instance"})
        );
        assert_eq!(
            r.patch_warning("configmap/web"),
            "warning: configmap/web is managed by Argo CD application 'a\\u{1b}[2Jb' (label argocd.argoproj.io/instance), which will revert this change at its next sync; make the lasting change in the Git repository it syncs from"
        );
    }
}
