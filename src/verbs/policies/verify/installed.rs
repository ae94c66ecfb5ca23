//! Which exported policies and bindings are on the cluster as exported: read with one `list`
//! of each kind (gated like every read: plugin.yaml `get` on
//! `validatingadmissionpolicies.admissionregistration.k8s.io` and
//! `validatingadmissionpolicybindings.admissionregistration.k8s.io` at cluster scope, and a
//! SelfSubjectAccessReview), compared by their expressions.

use std::collections::HashMap;

use kube::api::ListParams;
use serde_json::Value;

use crate::config::Verb;
use crate::guard::Session;
use crate::guard::authz::AccessRequest;
use crate::rules::policy::admission::Exported;
use crate::verbs::VerbError;

/// How a rule's policy and binding stand on the cluster.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Installed {
    /// Both are there with the exported expressions and actions.
    Current,
    /// Both are there, but what the sentence names differs from the export (the probes still
    /// run: they show what the cluster's version does).
    Outdated(String),
    /// The sentence names what is missing (nothing to probe against).
    Missing(String),
}

/// The policies and bindings on the cluster, by name.
pub struct OnCluster {
    policies: HashMap<String, Value>,
    bindings: HashMap<String, Value>,
}

/// Reads every ValidatingAdmissionPolicy and binding (one `list` each).
///
/// # Errors
/// The gate's refusal (exit 3) or the API error of a list.
pub async fn read(session: &Session<'_>) -> Result<OnCluster, VerbError> {
    Ok(OnCluster {
        policies: list(
            session,
            "validatingadmissionpolicies.admissionregistration.k8s.io",
        )
        .await?,
        bindings: list(
            session,
            "validatingadmissionpolicybindings.admissionregistration.k8s.io",
        )
        .await?,
    })
}

/// Every object of the cluster-scoped type `type_name`, by name.
async fn list(session: &Session<'_>, type_name: &str) -> Result<HashMap<String, Value>, VerbError> {
    let t = session.resolve(type_name).await?;
    let ask = AccessRequest {
        verb: "list".into(),
        group: t.api.group.clone(),
        resource: t.api.plural.clone(),
        subresource: None,
        namespace: None,
        name: None,
    };
    let grant = session.authorize(Verb::Get, &t, false, &[ask]).await?;
    let url = <kube::api::DynamicObject as kube::Resource>::url_path(&t.api, None);
    let request = kube::core::Request::new(&url)
        .list(&ListParams::default())
        .map_err(|e| VerbError::Usage(format!("cannot build the list request: {e}")))?;
    let list: Value = session.send(&grant, request).await?;
    Ok(list["items"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|o| Some((o["metadata"]["name"].as_str()?.to_string(), o.clone())))
        .collect())
}

impl OnCluster {
    /// How the objects of `e` stand on the cluster.
    pub fn check(&self, e: &Exported) -> Installed {
        let (Some(policy), Some(binding)) =
            (self.policies.get(&e.name), self.bindings.get(&e.name))
        else {
            let (what, is) = match (
                self.policies.contains_key(&e.name),
                self.bindings.contains_key(&e.name),
            ) {
                (false, false) => ("its ValidatingAdmissionPolicy and binding", "are"),
                (false, true) => ("its ValidatingAdmissionPolicy", "is"),
                _ => ("its ValidatingAdmissionPolicyBinding", "is"),
            };
            return Installed::Missing(format!("{what} {} {is} not on the cluster", e.name));
        };
        compare(e, policy, binding)
    }
}

/// The expressions of `spec[field][*][key]`.
fn expressions<'a>(spec: &'a Value, field: &str, key: &str) -> Vec<&'a str> {
    spec[field]
        .as_array()
        .into_iter()
        .flatten()
        .map(|v| v[key].as_str().unwrap_or_default())
        .collect()
}

/// Whether the policy and binding on the cluster have the exported validations (expression
/// and message expression, in order), match conditions, match constraints, failure policy,
/// policy name and actions (pure).
pub fn compare(e: &Exported, policy: &Value, binding: &Value) -> Installed {
    let (want, got) = (&e.policy["spec"], &policy["spec"]);
    let mut differs = Vec::new();
    if expressions(want, "validations", "expression")
        != expressions(got, "validations", "expression")
        || expressions(want, "validations", "messageExpression")
            != expressions(got, "validations", "messageExpression")
    {
        differs.push("validations");
    }
    if expressions(want, "matchConditions", "expression")
        != expressions(got, "matchConditions", "expression")
    {
        differs.push("match conditions");
    }
    let rules = |s: &Value| -> Vec<Value> {
        s["matchConstraints"]["resourceRules"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|r| {
                serde_json::json!([
                    r["apiGroups"],
                    r["apiVersions"],
                    r["resources"],
                    r["operations"]
                ])
            })
            .collect()
    };
    if rules(want) != rules(got) {
        differs.push("resource rules");
    }
    if want["failurePolicy"] != got["failurePolicy"] {
        differs.push("failure policy");
    }
    let actions = |b: &Value| -> Vec<String> {
        let mut a: Vec<String> = b["spec"]["validationActions"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect();
        a.sort();
        a
    };
    // What the export never writes but narrows where the policy holds (the API server
    // defaults the selectors to `{}`): a binding's matchResources, a policy's selectors or
    // excluded resources. One namespace probed would not show it.
    let selects = |sel: &Value| {
        ["matchLabels", "matchExpressions"].iter().any(|k| {
            sel[*k].as_object().is_some_and(|m| !m.is_empty())
                || sel[*k].as_array().is_some_and(|a| !a.is_empty())
        })
    };
    let narrows = |m: &Value| {
        selects(&m["namespaceSelector"])
            || selects(&m["objectSelector"])
            || m["excludeResourceRules"]
                .as_array()
                .is_some_and(|a| !a.is_empty())
    };
    if narrows(&got["matchConstraints"]) {
        differs.push("the policy's selectors or excluded resources");
    }
    let scope = &binding["spec"]["matchResources"];
    if narrows(scope)
        || scope["resourceRules"]
            .as_array()
            .is_some_and(|a| !a.is_empty())
    {
        differs.push("the binding's matchResources");
    }
    if binding["spec"]["policyName"] != e.binding["spec"]["policyName"] {
        differs.push("the binding's policy name");
    }
    if actions(binding) != actions(&e.binding) {
        differs.push("the binding's actions");
    }
    if differs.is_empty() {
        Installed::Current
    } else {
        Installed::Outdated(format!(
            "{} on the cluster differs from the export: {}",
            e.name,
            differs.join(", ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::policy::PolicyRule;
    use crate::rules::policy::admission::{Action, Fault, export};

    fn exported(fault: Fault, actions: &[Action]) -> Exported {
        let rule: PolicyRule = serde_saphyr::from_str(
            "resource: configmaps\nnamespaces: [team-a]\ndeny: [/data/*]\nallow: [/data/free]\nmessage: m\n",
        )
        .unwrap();
        export("p", &[rule], actions, fault).unwrap().remove(0)
    }

    /// A binding narrowed by hand to one namespace (`matchResources.namespaceSelector`) was
    /// "current", and verify, probing that namespace, said "agreed" while the API server no
    /// longer held the rule in the others.
    #[test]
    fn a_binding_narrowed_by_matchresources_was_read_as_current() {
        let e = exported(Fault::default(), &[Action::Deny]);
        let mut binding = e.binding.clone();
        binding["spec"]["matchResources"] = serde_json::json!({
            "namespaceSelector": {"matchLabels": {"kubernetes.io/metadata.name": "team-a"}},
            "objectSelector": {},
        });
        assert!(matches!(
            compare(&e, &e.policy, &binding),
            Installed::Outdated(m) if m.contains("the binding's matchResources")
        ));
        let mut policy = e.policy.clone();
        policy["spec"]["matchConstraints"]["namespaceSelector"] = serde_json::json!({});
        policy["spec"]["matchConstraints"]["objectSelector"] = serde_json::json!({});
        assert_eq!(
            compare(&e, &policy, &e.binding),
            Installed::Current,
            "defaults"
        );
    }

    #[test]
    fn the_export_itself_is_current() {
        let e = exported(Fault::default(), &[Action::Deny]);
        assert_eq!(compare(&e, &e.policy, &e.binding), Installed::Current);
    }

    #[test]
    fn a_policy_written_without_the_allow_is_outdated_in_its_validations() {
        let e = exported(Fault::default(), &[Action::Deny]);
        let wrong = exported(Fault { ignore_allow: true }, &[Action::Deny]);
        assert_eq!(
            compare(&e, &wrong.policy, &wrong.binding),
            Installed::Outdated(
                "p-policies-0-configmaps on the cluster differs from the export: validations"
                    .into()
            )
        );
    }

    #[test]
    fn a_binding_that_only_warns_is_outdated_in_its_actions() {
        let e = exported(Fault::default(), &[Action::Deny]);
        let warn = exported(Fault::default(), &[Action::Warn, Action::Audit]);
        assert_eq!(
            compare(&e, &e.policy, &warn.binding),
            Installed::Outdated(
                "p-policies-0-configmaps on the cluster differs from the export: the binding's actions"
                    .into()
            )
        );
    }
}
