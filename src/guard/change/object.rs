//! The object a change acts on and what its intent record says about it (pure): the part of
//! the mutation model the journal and the reviews share.

use serde_json::Value;

use crate::changelog::Operation;
use crate::cli::PatchType;
use crate::cluster::ResolvedType;
use crate::guard::authz::AccessRequest;

/// One object a mutation acts on, its type resolved.
#[derive(Debug, Clone)]
pub struct ObjectRef {
    /// Its resource type.
    pub t: ResolvedType,
    /// Its namespace (`None` when cluster-scoped).
    pub namespace: Option<String>,
    /// Its name.
    pub name: String,
}

impl ObjectRef {
    /// `deployment.apps/web` — kubectl's name for messages and `-o name`.
    pub fn display(&self) -> String {
        format!("{}/{}", self.t.name_prefix(), self.name)
    }

    /// The SelfSubjectAccessReview question for `verb` on this object.
    pub fn access(&self, verb: &str, subresource: Option<&str>) -> AccessRequest {
        AccessRequest {
            verb: verb.into(),
            group: self.t.api.group.clone(),
            resource: self.t.api.plural.clone(),
            subresource: subresource.map(str::to_string),
            namespace: self.namespace.clone(),
            name: Some(self.name.clone()),
        }
    }
}

/// `kubectl patch`'s wire name of a patch type.
pub fn type_name(t: PatchType) -> &'static str {
    match t {
        PatchType::Strategic => "strategic",
        PatchType::Merge => "merge",
        PatchType::Json => "json",
    }
}

/// What a journal record says about the object and the change, before the request.
pub struct Intent<'a> {
    /// What is attempted.
    pub operation: Operation,
    /// `apiVersion` of the object.
    pub api_version: &'a str,
    /// `kind` of the object.
    pub kind: &'a str,
    /// Namespace, if namespaced.
    pub namespace: Option<&'a str>,
    /// Object name.
    pub name: &'a str,
    /// `apply`, `merge`, `json`, `strategic`, if a patch is sent.
    pub patch_type: Option<&'a str>,
    /// The body sent (redacted before it is written).
    pub patch: Option<Value>,
    /// A dry run.
    pub dry_run: bool,
    /// The object before (redacted before it is written).
    pub before: Option<Value>,
}

/// `web` of type `kind` (`plural`, in API group `group`, version v1, namespaced) in
/// `namespace`: the object the guard's unit tests act on.
#[cfg(test)]
pub(crate) fn test_object(group: &str, kind: &str, plural: &str, namespace: &str) -> ObjectRef {
    ObjectRef {
        t: crate::cluster::ResolvedType {
            api: kube::discovery::ApiResource {
                group: group.into(),
                version: "v1".into(),
                api_version: if group.is_empty() {
                    "v1".into()
                } else {
                    format!("{group}/v1")
                },
                kind: kind.into(),
                plural: plural.into(),
            },
            namespaced: true,
            singular: kind.to_lowercase(),
            short_names: vec![],
            categories: vec![],
            verbs: vec![],
            preferred: true,
            subresources: Vec::new(),
        },
        namespace: Some(namespace.into()),
        name: "web".into(),
    }
}
