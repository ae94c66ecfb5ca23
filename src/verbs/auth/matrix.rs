//! `auth matrix`: every plugin.yaml resource (and registered CRD) × every RBAC verb of the
//! plugin's verbs, asked concurrently, with the plugin.yaml boundary of each row (and its
//! field policies and protection, when plugin.yaml has them).

use futures::stream::{self, StreamExt};

use super::boundary::{boundary_reason, matrix_entries, matrix_verbs};
use crate::cli::MatrixArgs;
use crate::cluster::ResolvedType;
use crate::guard::authz::{AccessRequest, GateError};
use crate::guard::{Purpose, Session};
use crate::output::table::OwnTable;
use crate::output::{Layout, Printer};
use crate::settings::Settings;
use crate::verbs::VerbError;

/// How many SelfSubjectAccessReviews `auth matrix` keeps in flight.
const CONCURRENCY: usize = 8;

/// One row of `auth matrix`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatrixRow {
    /// `plural.group` when resolved, else the plugin.yaml entry as written.
    pub resource: String,
    /// One answer per column; `None` = not asked (the type did not resolve).
    pub cells: Vec<Option<bool>>,
    /// `ok`, the short plugin.yaml refusal, or `?` when the type did not resolve.
    pub boundary: String,
    /// The field-policy cell ([`policies_cell`]); `None` when plugin.yaml has no `policies`
    /// (the column is then left out, so a plugin.yaml without policies keeps the table it
    /// always had).
    pub policies: Option<String>,
    /// The protection cell ([`protected_cell`]); `None` when plugin.yaml has no `protect`
    /// (the column is then left out).
    pub protected: Option<String>,
}

/// The matrix as a table: RESOURCE, one column per RBAC verb (upper-cased), POLICIES (only
/// when plugin.yaml has `policies`), PROTECTED (only when it has `protect`), BOUNDARY; a
/// cell is `yes`, `no`, or `?` when the review was not asked.
pub fn matrix_table(verbs: &[&str], rows: &[MatrixRow]) -> OwnTable {
    let with_policies = rows.iter().any(|r| r.policies.is_some());
    let with_protected = rows.iter().any(|r| r.protected.is_some());
    let mut headers = vec!["Resource"];
    headers.extend(verbs);
    if with_policies {
        headers.push("Policies");
    }
    if with_protected {
        headers.push("Protected");
    }
    headers.push("Boundary");
    let mut t = OwnTable::new(headers);
    for r in rows {
        let answers = r.cells.iter().map(|c| match c {
            Some(true) => "yes",
            Some(false) => "no",
            None => "?",
        });
        let policies = with_policies.then(|| r.policies.as_deref().unwrap_or("-"));
        let protected = with_protected.then(|| r.protected.as_deref().unwrap_or("-"));
        t.row(
            std::iter::once(r.resource.as_str())
                .chain(answers)
                .chain(policies)
                .chain(protected)
                .chain([r.boundary.as_str()]),
        );
    }
    t
}

/// The POLICIES cell of `auth matrix` for the type with `plural` in `group` (pure): `None`
/// when plugin.yaml has no `policies`, `-` when no rule names the type, else the indexes
/// of the rules that do, `policies[0,2]` (a rule limited to some `namespaces` counts: the
/// matrix is about the type).
pub fn policies_cell(
    policies: &[crate::config::PolicyRule],
    plural: &str,
    group: &str,
) -> Option<String> {
    if policies.is_empty() {
        return None;
    }
    let hits: Vec<String> = policies
        .iter()
        .enumerate()
        .filter(|(_, r)| {
            r.resource == "*" || crate::rules::policy::entry_names(&r.resource, plural, group)
        })
        .map(|(i, _)| i.to_string())
        .collect();
    Some(if hits.is_empty() {
        "-".to_string()
    } else {
        format!("policies[{}]", hits.join(","))
    })
}

/// Where the rows of `auth matrix` are asked: what [`protected_cell`] judges.
#[derive(Debug, Clone, Copy)]
pub struct MatrixPlace<'a> {
    /// The kubeconfig context, if any.
    pub context: Option<&'a str>,
    /// The API server URL.
    pub server: &'a str,
    /// The namespace the matrix asks in (`-n`, else the context's).
    pub namespace: &'a str,
    /// `-A`: every namespace.
    pub all_namespaces: bool,
}

/// The PROTECTED cell of `auth matrix` for the type with `plural` in `group` (pure): `None`
/// when plugin.yaml has no `protect`; else the strictest mode
/// ([`crate::rules::protect::protection`]) that any change of the type this plugin.yaml
/// allows would be asked in `place` — `confirm`, `type-name`, `block` — or `-` when none is.
///
/// The changes judged are every verb of `protect:` whose plugin.yaml verb
/// ([`crate::rules::protect::plugin_verb`]) is in `allowed` (the CRD applies and prunes of
/// `crds sync|watch` only on the CRD row). A namespaced type is judged in `place`'s
/// namespace, a cluster-scoped type in none, and the `namespaces` row as the Namespace object
/// of `place`'s namespace (a Namespace is judged in itself,
/// [`crate::rules::protect::judged_namespace`]). With `-A` a namespaced type (and the
/// `namespaces` row) may be changed in any namespace, so a rule's `namespaces` do not narrow
/// it: the cell is what the most protected namespace asks.
pub fn protected_cell(
    rules: &[crate::config::ProtectRule],
    allowed: &[crate::config::Verb],
    place: &MatrixPlace<'_>,
    (plural, group, namespaced): (&str, &str, bool),
) -> Option<String> {
    use crate::rules::protect::{ALL_VERBS, ProtectVerb, Scope, judged_namespace, plugin_verb};
    if rules.is_empty() {
        return None;
    }
    let is_namespace = plural == "namespaces" && group.is_empty();
    let is_crd = plural == "customresourcedefinitions" && group == "apiextensions.k8s.io";
    let in_namespace = namespaced || is_namespace;
    let any_namespace: Vec<crate::config::ProtectRule>;
    let rules = if place.all_namespaces && in_namespace {
        any_namespace = rules
            .iter()
            .cloned()
            .map(|mut r| {
                r.namespaces = None;
                r
            })
            .collect();
        &any_namespace
    } else {
        rules
    };
    let namespace = match (place.all_namespaces, namespaced, is_namespace) {
        (false, true, _) => Some(place.namespace),
        (false, false, true) => judged_namespace("Namespace", None, place.namespace),
        _ => None,
    };
    let mode = ALL_VERBS
        .iter()
        .filter(|v| is_crd || !matches!(v, ProtectVerb::CrdApply | ProtectVerb::CrdPrune))
        .filter(|v| allowed.iter().any(|a| a.as_str() == plugin_verb(**v)))
        .filter_map(|v| {
            let scope = Scope {
                context: place.context,
                server: place.server,
                namespace,
                verb: *v,
                effect: None,
                // A CRD's changes reach its custom resources in every namespace.
                every_namespace: is_crd,
            };
            crate::rules::protect::protection(rules, &scope).map(|p| p.mode)
        })
        .max();
    Some(mode.map_or("-", |m| m.as_str()).to_string())
}

pub(super) async fn matrix(
    s: &Settings,
    a: &MatrixArgs,
    p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    let verbs = matrix_verbs(&s.plugin.verbs);
    let session = Session::open(s, p, Purpose::Read).await?;
    let index = session.index().await?;
    let extra = session.registered().to_vec();
    let place = MatrixPlace {
        context: session.context(),
        server: session.server(),
        namespace: session.namespace(),
        all_namespaces: a.all_namespaces,
    };

    // Resolve each entry once; two entries naming the same type make one row.
    let mut rows: Vec<MatrixRow> = Vec::new();
    let mut types: Vec<Option<ResolvedType>> = Vec::new();
    for entry in matrix_entries(&s.plugin.resources, &extra) {
        match index.resolve(&entry) {
            Ok(t) => {
                let gr = t.group_resource();
                if rows.iter().any(|r| r.resource == gr) {
                    continue;
                }
                let boundary = s
                    .plugin
                    .verbs
                    .iter()
                    .find_map(|v| session.boundary(*v, t, a.all_namespaces).err())
                    .map_or_else(|| "ok".to_string(), |e| boundary_reason(&e));
                rows.push(MatrixRow {
                    resource: gr,
                    cells: vec![None; verbs.len()],
                    boundary,
                    policies: policies_cell(&s.plugin.policies, &t.api.plural, &t.api.group),
                    protected: protected_cell(
                        &s.plugin.protect,
                        &s.plugin.verbs,
                        &place,
                        (&t.api.plural, &t.api.group, t.namespaced),
                    ),
                });
                types.push(Some(t.clone()));
            }
            Err(e) => {
                p.err_line(&format!("warning: plugin.yaml resource {entry:?}: {e}"));
                let policies = (!s.plugin.policies.is_empty()).then(|| "?".to_string());
                let protected = (!s.plugin.protect.is_empty()).then(|| "?".to_string());
                rows.push(MatrixRow {
                    resource: entry,
                    cells: vec![None; verbs.len()],
                    boundary: "?".into(),
                    policies,
                    protected,
                });
                types.push(None);
            }
        }
    }

    let mut asks: Vec<(usize, usize, AccessRequest)> = Vec::new();
    for (i, t) in types.iter().enumerate() {
        let Some(t) = t else { continue };
        for (j, verb) in verbs.iter().enumerate() {
            asks.push((
                i,
                j,
                AccessRequest {
                    verb: (*verb).to_string(),
                    group: t.api.group.clone(),
                    resource: t.api.plural.clone(),
                    subresource: None,
                    namespace: session.namespace_for(t, a.all_namespaces),
                    name: None,
                },
            ));
        }
    }
    let answers: Vec<Result<Result<(), String>, GateError>> = stream::iter(&asks)
        .map(|(_, _, req)| session.decide(req))
        .buffered(CONCURRENCY)
        .collect()
        .await;
    for ((i, j, _), answer) in asks.iter().zip(answers) {
        rows[*i].cells[*j] = Some(answer?.is_ok());
    }

    let t = matrix_table(&verbs, &rows);
    let header = (!a.no_headers).then(|| t.headers().to_vec());
    p.table("matrix", header, t.rows().to_vec(), Layout::Align)?;
    Ok(())
}
