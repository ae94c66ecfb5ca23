//! The gate every verb passes before touching a resource (ARCHITECTURE §4):
//! first the plugin.yaml boundary (pure, no request), then a SelfSubjectAccessReview
//! for exactly the request the verb will make.
//!
//! SelfSubjectAccessReview, not SubjectAccessReview: ordinary users may create the Self
//! form, and it follows `--as`/`--as-group` impersonation, so the answer is about the
//! identity the real request will carry
//! (<https://kubernetes.io/docs/reference/access-authn-authz/authorization/#checking-api-access>).

use std::collections::HashMap;
use std::sync::Mutex;

use k8s_openapi::api::authentication::v1::SelfSubjectReview;
use k8s_openapi::api::authorization::v1::{
    ResourceAttributes, SelfSubjectAccessReview, SelfSubjectAccessReviewSpec,
};
use kube::Api;
use kube::api::PostParams;

use crate::cluster::{ApiError, Cluster, ResolvedType};
use crate::config::{PluginConfig, Scope, Verb};
use crate::exit::ExitStatus;

/// One access question: may the caller do `verb` on `resource` (in `namespace`, named `name`)?
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AccessRequest {
    /// The RBAC verb: `get`, `list`, `watch`, `patch`, `create`, …
    pub verb: String,
    /// API group, empty for core.
    pub group: String,
    /// Plural resource name.
    pub resource: String,
    /// Subresource (`status`, `scale`), if any.
    pub subresource: Option<String>,
    /// Namespace; `None` for cluster-scoped resources or all namespaces.
    pub namespace: Option<String>,
    /// Object name; `None` for collection requests.
    pub name: Option<String>,
}

impl AccessRequest {
    /// The SelfSubjectAccessReview body for this question (pure; unit-tested).
    pub fn review(&self) -> SelfSubjectAccessReview {
        SelfSubjectAccessReview {
            spec: SelfSubjectAccessReviewSpec {
                resource_attributes: Some(ResourceAttributes {
                    verb: Some(self.verb.clone()),
                    group: Some(self.group.clone()),
                    resource: Some(self.resource.clone()),
                    subresource: self.subresource.clone(),
                    namespace: self.namespace.clone(),
                    name: self.name.clone(),
                    ..Default::default()
                }),
                ..Default::default()
            },
            ..Default::default()
        }
    }

    /// `pods`, `deployments.apps`, `deployments.apps/scale`: the resource as messages name it.
    pub fn group_resource(&self) -> String {
        let base = if self.group.is_empty() {
            self.resource.clone()
        } else {
            format!("{}.{}", self.resource, self.group)
        };
        match &self.subresource {
            Some(s) => format!("{base}/{s}"),
            None => base,
        }
    }
}

/// Why the gate refused, or could not decide.
#[derive(Debug, thiserror::Error)]
pub enum GateError {
    /// plugin.yaml does not allow this verb.
    #[error(
        "denied by plugin.yaml: verb \"{verb}\" is not in `verbs` of plugin {plugin}; add it there if this plugin should {verb}"
    )]
    VerbOutsideBoundary {
        /// Plugin name.
        plugin: String,
        /// The verb.
        verb: String,
    },
    /// plugin.yaml does not list this resource (nor did `crds sync` register it).
    #[error(
        "denied by plugin.yaml: resource \"{resource}\" is not in `resources` of plugin {plugin}; add it there (or register its CRD with `crds sync`)"
    )]
    ResourceOutsideBoundary {
        /// Plugin name.
        plugin: String,
        /// `plural.group`.
        resource: String,
    },
    /// plugin.yaml does not allow the scope (cluster-scoped type or `-A` without `cluster`).
    #[error(
        "denied by plugin.yaml: {what} needs scope \"{scope}\" but plugin {plugin} allows only {allowed}; add `{scope}` to `scopes`"
    )]
    ScopeOutsideBoundary {
        /// Plugin name.
        plugin: String,
        /// What needed the scope.
        what: String,
        /// The scope needed.
        scope: &'static str,
        /// The scopes allowed.
        allowed: String,
    },
    /// RBAC said no.
    #[error(
        "forbidden: user \"{user}\" cannot {verb} {resource} {place}: {reason}; ask a cluster admin for a Role (a ClusterRole at cluster scope) that grants it"
    )]
    Denied {
        /// The user the server sees (from SelfSubjectReview).
        user: String,
        /// RBAC verb.
        verb: String,
        /// `plural.group[/subresource]`.
        resource: String,
        /// `in namespace "x"` or `at cluster scope`.
        place: String,
        /// The authorizer's reason (or a default when the server gives none).
        reason: String,
    },
    /// The SelfSubjectAccessReview itself failed.
    #[error("cannot check access with a SelfSubjectAccessReview: {0}")]
    Review(#[source] ApiError),
}

impl GateError {
    /// Every refusal is exit 3; a failed review keeps the API error's exit code.
    pub fn exit_status(&self) -> ExitStatus {
        match self {
            GateError::Review(e) => e.exit_status(),
            _ => ExitStatus::Denied,
        }
    }
}

/// The verb half of the boundary (pure), checked before any request is sent.
///
/// # Errors
/// [`GateError::VerbOutsideBoundary`] when plugin.yaml `verbs` lacks `verb`.
pub fn check_verb(plugin: &PluginConfig, verb: Verb) -> Result<(), GateError> {
    if plugin.verbs.contains(&verb) {
        Ok(())
    } else {
        Err(GateError::VerbOutsideBoundary {
            plugin: plugin.name.clone(),
            verb: verb.as_str().into(),
        })
    }
}

/// The plugin.yaml boundary (pure): is `verb` on `t` allowed, in one namespace or across all?
///
/// A resource is allowed when plugin.yaml `resources` (or the CRD registry names in `extra`)
/// contains its `plural.group`, or its bare plural when the group is a Kubernetes built-in
/// group (core, a group without a dot, or one ending in `.k8s.io`). This keeps a bare
/// `pods` from admitting a look-alike `pods.evil.example`.
///
/// # Errors
/// A [`GateError`] naming the plugin.yaml key to change.
pub fn check_boundary(
    plugin: &PluginConfig,
    extra: &[String],
    verb: Verb,
    t: &ResolvedType,
    all_namespaces: bool,
) -> Result<(), GateError> {
    check_verb(plugin, verb)?;
    let gr = t.group_resource();
    let builtin_group =
        t.api.group.is_empty() || !t.api.group.contains('.') || t.api.group.ends_with(".k8s.io");
    let listed = plugin
        .resources
        .iter()
        .chain(extra)
        .any(|r| *r == gr || (builtin_group && *r == t.api.plural));
    if !listed {
        return Err(GateError::ResourceOutsideBoundary {
            plugin: plugin.name.clone(),
            resource: gr,
        });
    }
    let needed = if !t.namespaced {
        Some((Scope::Cluster, format!("cluster-scoped {gr}")))
    } else if all_namespaces {
        Some((Scope::Cluster, "--all-namespaces".to_string()))
    } else {
        Some((Scope::Namespace, format!("namespaced {gr}")))
    };
    if let Some((scope, what)) = needed
        && !plugin.scopes.contains(&scope)
    {
        let allowed: Vec<&str> = plugin
            .scopes
            .iter()
            .map(|s| {
                if *s == Scope::Cluster {
                    "cluster"
                } else {
                    "namespace"
                }
            })
            .collect();
        return Err(GateError::ScopeOutsideBoundary {
            plugin: plugin.name.clone(),
            what,
            scope: if scope == Scope::Cluster {
                "cluster"
            } else {
                "namespace"
            },
            allowed: allowed.join(", "),
        });
    }
    Ok(())
}

/// Asks the API server with SelfSubjectAccessReviews; decisions are cached for this process only.
pub struct Gate<'a> {
    cluster: &'a Cluster,
    cache: Mutex<HashMap<AccessRequest, Result<(), String>>>,
}

impl<'a> Gate<'a> {
    /// A gate for one process's requests to `cluster`.
    pub fn new(cluster: &'a Cluster) -> Gate<'a> {
        Gate {
            cluster,
            cache: Mutex::new(HashMap::new()),
        }
    }

    /// Allows or refuses `req`.
    ///
    /// # Errors
    /// [`GateError::Denied`] (exit 3) with the user from a SelfSubjectReview and the
    /// authorizer's reason; [`GateError::Review`] when the review request itself fails.
    pub async fn check(&self, req: &AccessRequest) -> Result<(), GateError> {
        match self.decide(req).await? {
            Ok(()) => Ok(()),
            Err(reason) => Err(GateError::Denied {
                user: self.whoami().await,
                verb: req.verb.clone(),
                resource: req.group_resource(),
                place: match &req.namespace {
                    Some(ns) => format!("in namespace \"{ns}\""),
                    None => "at cluster scope".to_string(),
                },
                reason,
            }),
        }
    }

    /// The decision [`Gate::check`] acts on, without building a message (no SelfSubjectReview
    /// is sent): `Ok(())` allowed, `Err(reason)` denied with the authorizer's reason (a default
    /// when the server gives none). Cached for this process like `check`. `auth can-i` and
    /// `auth matrix` print this answer instead of failing on it.
    ///
    /// # Errors
    /// [`GateError::Review`] when the review request itself fails.
    pub async fn decide(&self, req: &AccessRequest) -> Result<Result<(), String>, GateError> {
        let cached = self.cache.lock().ok().and_then(|c| c.get(req).cloned());
        let decision = match cached {
            Some(d) => d,
            None => {
                let api: Api<SelfSubjectAccessReview> = Api::all(self.cluster.client.clone());
                let answer = api
                    .create(&PostParams::default(), &req.review())
                    .await
                    .map_err(|e| GateError::Review(ApiError::from_kube(e, &self.cluster.server)))?;
                let status = answer.status.unwrap_or_default();
                let d = if status.allowed && status.denied != Some(true) {
                    Ok(())
                } else {
                    let reason = status
                        .reason
                        .filter(|r| !r.is_empty())
                        .or(status.evaluation_error.filter(|r| !r.is_empty()));
                    Err(reason.unwrap_or_else(|| "no RBAC rule allows it".to_string()))
                };
                if let Ok(mut c) = self.cache.lock() {
                    c.insert(req.clone(), d.clone());
                }
                d
            }
        };
        Ok(decision)
    }

    /// The user name the server sees (SelfSubjectReview, authentication.k8s.io/v1); falls
    /// back to the configured user, then `unknown`. Only asked on the denial path.
    pub async fn whoami(&self) -> String {
        let api: Api<SelfSubjectReview> = Api::all(self.cluster.client.clone());
        match api
            .create(&PostParams::default(), &SelfSubjectReview::default())
            .await
        {
            Ok(r) => r.status.and_then(|s| s.user_info).and_then(|u| u.username),
            Err(_) => None,
        }
        .or_else(|| self.cluster.configured_user.clone())
        .unwrap_or_else(|| "unknown".to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kube::discovery::ApiResource;

    fn t(group: &str, plural: &str, namespaced: bool) -> ResolvedType {
        ResolvedType {
            api: ApiResource {
                group: group.into(),
                version: "v1".into(),
                api_version: if group.is_empty() {
                    "v1".into()
                } else {
                    format!("{group}/v1")
                },
                kind: "K".into(),
                plural: plural.into(),
            },
            namespaced,
            singular: "k".into(),
            short_names: vec![],
            categories: vec![],
            verbs: vec![],
            preferred: true,
        }
    }

    fn plugin(scopes: Vec<Scope>) -> PluginConfig {
        PluginConfig {
            name: "myops".into(),
            verbs: vec![Verb::Get],
            resources: vec![
                "pods".into(),
                "deployments".into(),
                "foos.samplecontroller.k8s.io".into(),
            ],
            scopes,
            metrics: vec![],
            crd_dir: None,
            pushgateway: None,
        }
    }

    #[test]
    fn boundary_allows_listed_resources_in_allowed_scopes() {
        let p = plugin(vec![Scope::Namespace]);
        assert!(check_boundary(&p, &[], Verb::Get, &t("", "pods", true), false).is_ok());
        assert!(check_boundary(&p, &[], Verb::Get, &t("apps", "deployments", true), false).is_ok());
        assert!(
            check_boundary(
                &p,
                &[],
                Verb::Get,
                &t("samplecontroller.k8s.io", "foos", true),
                false
            )
            .is_ok()
        );
        let extra = vec!["backupjobs.example.com".to_string()];
        assert!(
            check_boundary(
                &p,
                &extra,
                Verb::Get,
                &t("example.com", "backupjobs", true),
                false
            )
            .is_ok()
        );
    }

    #[test]
    fn boundary_refuses_verb_resource_lookalike_and_scope() {
        let p = plugin(vec![Scope::Namespace]);
        let e = check_boundary(&p, &[], Verb::Patch, &t("", "pods", true), false).unwrap_err();
        assert!(matches!(e, GateError::VerbOutsideBoundary { .. }), "{e}");
        let e = check_boundary(&p, &[], Verb::Get, &t("", "secrets", true), false).unwrap_err();
        assert_eq!(
            e.to_string(),
            "denied by plugin.yaml: resource \"secrets\" is not in `resources` of plugin myops; add it there (or register its CRD with `crds sync`)"
        );
        let e = check_boundary(&p, &[], Verb::Get, &t("evil.example", "pods", true), false)
            .unwrap_err();
        assert!(
            matches!(e, GateError::ResourceOutsideBoundary { .. }),
            "{e}"
        );
        let e = check_boundary(&p, &[], Verb::Get, &t("", "pods", true), true).unwrap_err();
        assert!(
            e.to_string()
                .contains("--all-namespaces needs scope \"cluster\""),
            "{e}"
        );
        assert_eq!(e.exit_status(), ExitStatus::Denied);
        let p = plugin(vec![Scope::Namespace, Scope::Cluster]);
        assert!(check_boundary(&p, &[], Verb::Get, &t("", "pods", true), true).is_ok());
    }

    #[test]
    fn review_body_carries_exactly_the_request() {
        let req = AccessRequest {
            verb: "list".into(),
            group: "apps".into(),
            resource: "deployments".into(),
            subresource: None,
            namespace: Some("team-a".into()),
            name: None,
        };
        let v = serde_json::to_value(req.review()).unwrap();
        assert_eq!(v["apiVersion"], "authorization.k8s.io/v1");
        assert_eq!(v["kind"], "SelfSubjectAccessReview");
        assert_eq!(
            v["spec"]["resourceAttributes"],
            serde_json::json!({"verb": "list", "group": "apps", "resource": "deployments", "namespace": "team-a"})
        );
        assert_eq!(req.group_resource(), "deployments.apps");
    }
}
