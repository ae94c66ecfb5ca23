//! The object a rule is probed on: the first object of its resource (by name, as the API
//! server lists them; among the first [`LIST_LIMIT`], the first that has a field a `deny`
//! path names) in the current namespace when the rule covers it, else in each
//! namespace the rule's `namespaces:` names without a `*`; a cluster-scoped resource at
//! cluster scope. Each list is gated like `get` (plugin.yaml boundary, `list` review).

use kube::api::ListParams;
use serde_json::Value;

use crate::config::Verb;
use crate::guard::authz::AccessRequest;
use crate::guard::{ObjectRef, Session};
use crate::rules::policy::{PolicyRule, glob_match};
use crate::verbs::VerbError;

/// The type a rule on every resource (`*`) is probed on: every namespace has a ConfigMap
/// (`kube-root-ca.crt`, kube-controller-manager's root CA publisher).
const ANY_RESOURCE: &str = "configmaps";

/// How many objects one list reads to choose from (one page, as `kubectl get --chunk-size`
/// pages).
const LIST_LIMIT: u32 = 100;

/// A rule's probe object, or why there is none (a sentence).
pub type Found = Result<(ObjectRef, Value), String>;

/// The object rule `rule` is probed on ([`Found`]).
///
/// # Errors
/// An API error of a list other than a refusal (those are the reason of an `Err` in
/// [`Found`]).
pub async fn find(session: &Session<'_>, rule: &PolicyRule) -> Result<Found, VerbError> {
    let type_name = if rule.resource == "*" {
        ANY_RESOURCE
    } else {
        rule.resource.as_str()
    };
    let t = match session.resolve(type_name).await {
        Ok(t) => t,
        Err(e) => return Ok(Err(e.to_string())),
    };
    let places: Vec<Option<String>> = if !t.namespaced {
        if rule.namespaces.is_empty() {
            vec![None]
        } else {
            return Ok(Err(format!(
                "{} is cluster-scoped and a rule with namespaces: covers no cluster-scoped object",
                t.group_resource()
            )));
        }
    } else {
        let current = session.namespace().to_string();
        let mut out = Vec::new();
        if rule.namespaces.is_empty() || rule.namespaces.iter().any(|g| glob_match(g, &current)) {
            out.push(Some(current));
        }
        for g in &rule.namespaces {
            if !g.contains('*') && !out.contains(&Some(g.clone())) {
                out.push(Some(g.clone()));
            }
        }
        out
    };
    if places.is_empty() {
        return Ok(Err(format!(
            "its namespaces: globs match neither the current namespace {:?} nor name one; run verify with -n NAMESPACE of one of them",
            session.namespace()
        )));
    }
    let mut why = Vec::new();
    for ns in places {
        let place = ns.as_deref().map_or("at cluster scope".to_string(), |n| {
            format!("in namespace {n:?}")
        });
        let ask = AccessRequest {
            verb: "list".into(),
            group: t.api.group.clone(),
            resource: t.api.plural.clone(),
            subresource: None,
            namespace: ns.clone(),
            name: None,
        };
        let grant = match session.authorize(Verb::Get, &t, false, &[ask]).await {
            Ok(g) => g,
            Err(e) => {
                why.push(format!("{place}: {e}"));
                continue;
            }
        };
        let url = <kube::api::DynamicObject as kube::Resource>::url_path(&t.api, ns.as_deref());
        let request = kube::core::Request::new(&url)
            .list(&ListParams::default().limit(LIST_LIMIT))
            .map_err(|e| VerbError::Usage(format!("cannot build the list request: {e}")))?;
        let list: Value = session.send(&grant, request).await?;
        let items = list["items"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default();
        let chosen = items
            .iter()
            .find(|o| crate::rules::policy::probe::reaches(rule, o))
            .or_else(|| items.first());
        let Some(mut item) = chosen.cloned() else {
            why.push(format!("no {} {place}", t.group_resource()));
            continue;
        };
        // List items carry no apiVersion and kind; the object the server answers a patch
        // with does, and the judge must not see them as a change.
        item["apiVersion"] = Value::String(t.api.api_version.clone());
        item["kind"] = Value::String(t.api.kind.clone());
        crate::base::redact::remember_secret_values(&t.api.kind, &item);
        let name = item["metadata"]["name"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let obj = ObjectRef {
            t: t.clone(),
            namespace: ns,
            name,
        };
        return Ok(Ok((obj, item)));
    }
    Ok(Err(why.join("; ")))
}
