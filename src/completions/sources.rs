//! The lookups behind [`super::plan::Need`]: kubeconfig names, change-log ids, and what the
//! cluster serves — through the same code the verbs use ([`Settings`], the guarded [`Session`],
//! [`TypeIndex`], the CRD [`Registry`], the plugin.yaml boundary and the
//! SelfSubjectAccessReview [`Gate`]), so completion never offers what the command would refuse
//! and never lists objects the boundary or RBAC keeps the caller from listing.
//!
//! Everything that talks to the server runs under one deadline (`budget`): TAB must come back
//! even when the cluster is down or a firewall drops packets. When discovery cannot be reached
//! in time, types fall back to what plugin.yaml and the CRD registry name.

use std::collections::BTreeSet;
use std::time::Duration;

use kube::Resource;
use kube::api::{DynamicObject, ListParams};
use serde_json::Value;

use super::plan::Need;
use super::reply::Candidate;
use super::words::Line;
use crate::cluster::client::load_kubeconfig;
use crate::cluster::{ResolvedType, TypeIndex};
use crate::config::Verb;
use crate::crds::Registry;
use crate::guard::authz::AccessRequest;
use crate::guard::{Grant, Purpose, Session};
use crate::output::Printer;
use crate::settings::Settings;

/// Objects listed for name completion at most (one page).
const MAX_NAMES: u32 = 1000;

/// Looks up the candidates `need` asks for (values only; the caller adds the prefix).
pub async fn lookup(need: &Need, line: &Line, s: &Settings, budget: Duration) -> Vec<Candidate> {
    let mut s = s.clone();
    // Bound every connect and read by the budget too, not only the whole lookup.
    s.kube.request_timeout = Some(s.kube.request_timeout.map_or(budget, |t| t.min(budget)));
    let online = async {
        match need {
            Need::Nothing => Vec::new(),
            Need::Contexts | Need::Clusters | Need::Users => kubeconfig_names(need, &s),
            Need::ChangelogIds => changelog_ids(&s),
            Need::Types { verb } => {
                let all_ns = line.flag("all_namespaces").is_some();
                match types(&s, *verb, all_ns).await {
                    Some(v) => v,
                    None => offline_types(&s),
                }
            }
            Need::Names {
                type_name,
                verb,
                exclude,
            } => names(&s, type_name, *verb)
                .await
                .into_iter()
                .filter(|n| !exclude.contains(&n.value))
                .collect(),
            Need::Namespaces => namespaces(&s).await,
        }
    };
    match tokio::time::timeout(budget, online).await {
        Ok(v) => v,
        // Too slow: what is known without the server.
        Err(_) => match need {
            Need::Types { .. } => offline_types(&s),
            Need::Namespaces => kubeconfig_namespaces(&s),
            _ => Vec::new(),
        },
    }
}

fn kubeconfig_names(need: &Need, s: &Settings) -> Vec<Candidate> {
    let Ok(Some(kc)) = load_kubeconfig(&s.kube) else {
        return Vec::new();
    };
    let names: Vec<String> = match need {
        Need::Contexts => kc.contexts.into_iter().map(|c| c.name).collect(),
        Need::Clusters => kc.clusters.into_iter().map(|c| c.name).collect(),
        _ => kc.auth_infos.into_iter().map(|c| c.name).collect(),
    };
    names.into_iter().map(|n| Candidate::new(n, None)).collect()
}

/// Namespaces named by the kubeconfig's contexts (known without the server).
fn kubeconfig_namespaces(s: &Settings) -> Vec<Candidate> {
    let Ok(Some(kc)) = load_kubeconfig(&s.kube) else {
        return Vec::new();
    };
    let set: BTreeSet<String> = kc
        .contexts
        .into_iter()
        .filter_map(|c| c.context.and_then(|c| c.namespace))
        .collect();
    set.into_iter().map(|n| Candidate::new(n, None)).collect()
}

fn changelog_ids(s: &Settings) -> Vec<Candidate> {
    let Ok((entries, _)) = crate::changelog::read_all(&s.home) else {
        return Vec::new();
    };
    crate::changelog::latest(entries)
        .iter()
        .rev()
        .map(|e| {
            let op = serde_json::to_value(e.operation)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default();
            let what = crate::changelog::object_of(e);
            Candidate::new(
                e.id.clone(),
                Some(format!("{op} {what} {} ({})", e.result, e.timestamp)),
            )
        })
        .collect()
}

/// The CRD registry's names, or none when it cannot be read (completion never fails).
fn registered(s: &Settings) -> Vec<String> {
    Registry::load(&s.home)
        .map(|r| r.names())
        .unwrap_or_default()
}

/// plugin.yaml `resources` and the registry's CRDs: the types the boundary admits, as named there.
fn offline_types(s: &Settings) -> Vec<Candidate> {
    let set: BTreeSet<String> = s
        .plugin
        .resources
        .iter()
        .cloned()
        .chain(registered(s))
        .collect();
    set.into_iter().map(|n| Candidate::new(n, None)).collect()
}

/// The name to offer for `t`: its plural when that resolves to `t`, else `plural.group`.
fn offered_name(index: &TypeIndex, t: &ResolvedType) -> String {
    match index.resolve(&t.api.plural) {
        Ok(r) if r.group_resource() == t.group_resource() => t.api.plural.clone(),
        _ => t.group_resource(),
    }
}

/// Whether a type supports what the plugin verb will ask of it.
fn supports(t: &ResolvedType, verb: Verb) -> bool {
    let has = |v: &str| t.verbs.iter().any(|x| x == v);
    match verb {
        Verb::Get => has("list") || has("get"),
        Verb::Patch => has("patch"),
        Verb::Delete => has("delete"),
        Verb::Apply => has("create") && has("patch"),
        Verb::Scale => t.has_subresource("scale"),
        Verb::Label | Verb::Annotate | Verb::Edit | Verb::Rollout => has("patch"),
    }
}

/// Opens a read session through the guarded path (boundary, review, deadlines, identity
/// check); warnings are dropped — completion never prints them. `None` when it cannot.
async fn session(s: &Settings) -> Option<Session<'_>> {
    let (mut out, mut err) = (std::io::sink(), std::io::sink());
    let mut p = Printer::new(&mut out, &mut err);
    Session::open(s, &mut p, Purpose::Read).await.ok()
}

/// Served types (one per group/resource, preferred version first); with a verb, only those
/// the boundary admits. `None` when the server cannot be asked.
async fn types(s: &Settings, verb: Option<Verb>, all_namespaces: bool) -> Option<Vec<Candidate>> {
    let session = session(s).await?;
    let index = session.index().await.ok()?;
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for t in index.types() {
        if !seen.insert(t.group_resource()) {
            continue;
        }
        if let Some(v) = verb
            && (!supports(t, v) || session.boundary(v, t, all_namespaces).is_err())
        {
            continue;
        }
        out.push(Candidate::new(offered_name(index, t), None));
    }
    Some(out)
}

/// The grant to list `t` (in `namespace`): the boundary for `get` and for `verb`, then a
/// SelfSubjectAccessReview — so no list request goes out that the verbs would not send.
async fn may_list(
    session: &Session<'_>,
    t: &ResolvedType,
    namespace: Option<&str>,
    verb: Verb,
) -> Option<Grant> {
    session.boundary(verb, t, false).ok()?;
    let req = AccessRequest {
        verb: "list".into(),
        group: t.api.group.clone(),
        resource: t.api.plural.clone(),
        subresource: None,
        namespace: namespace.map(str::to_string),
        name: None,
    };
    session
        .authorize(Verb::Get, t, namespace.is_none() && t.namespaced, &[req])
        .await
        .ok()
}

async fn list_names(
    session: &Session<'_>,
    grant: &Grant,
    t: &ResolvedType,
    namespace: Option<&str>,
) -> Vec<Candidate> {
    let url = DynamicObject::url_path(&t.api, namespace);
    let Ok(req) =
        kube::core::Request::new(url).list_metadata(&ListParams::default().limit(MAX_NAMES))
    else {
        return Vec::new();
    };
    let Ok(list) = session.send::<Value>(grant, req).await else {
        return Vec::new();
    };
    list.get("items")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|o| o.pointer("/metadata/name").and_then(Value::as_str))
        .map(|n| Candidate::new(n.to_string(), None))
        .collect()
}

/// Names of `type_name` objects in the namespace in effect (`-n`, else the context's).
async fn names(s: &Settings, type_name: &str, verb: Verb) -> Vec<Candidate> {
    let Some(session) = session(s).await else {
        return Vec::new();
    };
    let Ok(t) = session.resolve(type_name).await else {
        return Vec::new();
    };
    let namespace = session.namespace_for(&t, false);
    let Some(grant) = may_list(&session, &t, namespace.as_deref(), verb).await else {
        return Vec::new();
    };
    list_names(&session, &grant, &t, namespace.as_deref()).await
}

/// The server's namespaces when the caller may list them, plus the kubeconfig's.
async fn namespaces(s: &Settings) -> Vec<Candidate> {
    let mut set: BTreeSet<String> = kubeconfig_namespaces(s)
        .into_iter()
        .map(|c| c.value)
        .collect();
    if let Some(session) = session(s).await
        && let Ok(t) = session.resolve("namespaces").await
        && let Some(grant) = may_list(&session, &t, None, Verb::Get).await
    {
        set.extend(
            list_names(&session, &grant, &t, None)
                .await
                .into_iter()
                .map(|c| c.value),
        );
    }
    set.into_iter().map(|n| Candidate::new(n, None)).collect()
}
