//! The pure half of the gate every verb passes before touching a resource (docs/design.md,
//! "The guarded path"): the plugin.yaml boundary (no request) and the SelfSubjectAccessReview
//! body for exactly the request the verb will make. The guarded path
//! (`guard::Session::authorize`) sends the review.
//!
//! SelfSubjectAccessReview, not SubjectAccessReview: ordinary users may create the Self
//! form, and it follows `--as`/`--as-group` impersonation, so the answer is about the
//! identity the real request will carry
//! (<https://kubernetes.io/docs/reference/access-authn-authz/authorization/#checking-api-access>).

use k8s_openapi::api::authorization::v1::{
    ResourceAttributes, SelfSubjectAccessReview, SelfSubjectAccessReviewSpec,
};

use crate::cluster::{ApiError, ResolvedType};
use crate::config::{PluginConfig, Scope, Verb};
use crate::exit::ExitStatus;

/// The resource verbs kubectl knows (`auth can-i` warns about any other, then asks anyway).
pub const KNOWN_VERBS: &[&str] = &[
    "get",
    "list",
    "watch",
    "create",
    "update",
    "patch",
    "delete",
    "deletecollection",
    "use",
    "bind",
    "impersonate",
    "escalate",
    "approve",
    "sign",
    "*",
];

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
    /// Every type a category (`get all`) expands to is outside plugin.yaml or denied by
    /// RBAC, so nothing could be fetched (refused types are skipped, and a command that
    /// skips all of them is a refusal).
    #[error(
        "denied: every type of {categories} is refused ({skipped}); add the types to `resources` in plugin.yaml or ask a cluster admin for RBAC"
    )]
    CategoryRefused {
        /// The categories as typed, quoted.
        categories: String,
        /// `plural.group (why)` of each refused type.
        skipped: String,
    },
    /// The review (SelfSubjectAccessReview or SelfSubjectReview) could not be made: a
    /// transport error, a timeout, or the review itself forbidden.
    #[error("cannot check access with a review: {0}")]
    Review(#[source] ApiError),
}

impl GateError {
    /// Every refusal is exit 3; a review that could not be made is exit 1 — an unanswered
    /// question is never a "no" (docs/design.md, "The guarded path").
    pub fn exit_status(&self) -> ExitStatus {
        match self {
            GateError::Review(_) => ExitStatus::Failure,
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
    let listed = plugin
        .resources
        .iter()
        .chain(extra)
        .any(|r| crate::rules::policy::entry_names(r, &t.api.plural, &t.api.group));
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
            subresources: Vec::new(),
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
            changelog: Default::default(),
            policies: Vec::new(),
            apply: Default::default(),
            protect: Vec::new(),
            change_cause: false,
            mcp: Default::default(),
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
