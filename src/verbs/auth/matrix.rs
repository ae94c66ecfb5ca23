//! `auth matrix`: every plugin.yaml resource (and registered CRD) × every RBAC verb of the
//! plugin's verbs, asked concurrently, with the plugin.yaml boundary of each row.

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
}

/// The matrix as a table: RESOURCE, one column per RBAC verb (upper-cased), POLICIES (only
/// when plugin.yaml has `policies`), BOUNDARY; a cell is `yes`, `no`, or `?` when the
/// review was not asked.
pub fn matrix_table(verbs: &[&str], rows: &[MatrixRow]) -> OwnTable {
    let with_policies = rows.iter().any(|r| r.policies.is_some());
    let mut headers = vec!["Resource"];
    headers.extend(verbs);
    if with_policies {
        headers.push("Policies");
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
        t.row(
            std::iter::once(r.resource.as_str())
                .chain(answers)
                .chain(policies)
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

pub(super) async fn matrix(
    s: &Settings,
    a: &MatrixArgs,
    p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    let verbs = matrix_verbs(&s.plugin.verbs);
    let session = Session::open(s, p, Purpose::Read).await?;
    let index = session.index().await?;
    let extra = session.registered().to_vec();

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
                });
                types.push(Some(t.clone()));
            }
            Err(e) => {
                p.err_line(&format!("warning: plugin.yaml resource {entry:?}: {e}"));
                let policies = (!s.plugin.policies.is_empty()).then(|| "?".to_string());
                rows.push(MatrixRow {
                    resource: entry,
                    cells: vec![None; verbs.len()],
                    boundary: "?".into(),
                    policies,
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
