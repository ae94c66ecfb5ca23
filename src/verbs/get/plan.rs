//! The checks and the gate of `get` before any object is fetched: the selectors as the API
//! server parses them, then every planned type through plugin.yaml and a
//! SelfSubjectAccessReview for exactly the requests `get` makes.

use crate::cli::GetArgs;
use crate::config::Verb;
use crate::guard::authz::{AccessRequest, GateError};
use crate::guard::target::Planned;
use crate::guard::{Grant, Session};
use crate::output::Printer;
use crate::verbs::VerbError;

/// `-l` and `--field-selector` checked as apimachinery parses them, and together small
/// enough for one request URI — before any request, so an oversized selector
/// is a usage error and never "cannot reach the API server".
pub(super) fn check_selectors(args: &GetArgs) -> Result<(), String> {
    if let Some(l) = &args.selector {
        crate::base::validate::check_label_selector(l)?;
    }
    if let Some(f) = &args.field_selector {
        crate::base::validate::check_field_selector(f)?;
    }
    crate::base::validate::check_selectors_fit(
        args.selector.as_deref(),
        args.field_selector.as_deref(),
    )
}

/// One type to fetch, gated: its grant and the namespace its requests use.
pub(super) struct Unit<'a> {
    /// The type and names as planned.
    pub(super) planned: &'a Planned,
    /// What the gate granted for its requests.
    pub(super) grant: Grant,
    /// The namespace of its requests (`None` = all namespaces or cluster-scoped).
    pub(super) namespace: Option<String>,
}

/// The RBAC requests `get` makes on one type: `list` for the collection, `get` per name
/// (docs/design.md, "The guarded path").
fn requests_for(pl: &Planned, namespace: Option<&String>) -> Vec<AccessRequest> {
    let ask = |verb: &str, name: Option<&String>| AccessRequest {
        verb: verb.into(),
        group: pl.t.api.group.clone(),
        resource: pl.t.api.plural.clone(),
        subresource: None,
        namespace: namespace.cloned(),
        name: name.cloned(),
    };
    if pl.names.is_empty() {
        vec![ask("list", None)]
    } else {
        pl.names.iter().map(|n| ask("get", Some(n))).collect()
    }
}

/// Gates every planned type — all of them before any object is fetched, so a denied type
/// the user named is exit 3 with nothing printed. Types from a category that plugin.yaml
/// or RBAC refuse are skipped with one stderr line; when that leaves none, exit 3.
pub(super) async fn gate<'a>(
    session: &Session<'_>,
    planned: &'a [Planned],
    args: &GetArgs,
    p: &mut Printer<'_>,
) -> Result<Vec<Unit<'a>>, VerbError> {
    let verbose = session.settings().verbose;
    let mut units: Vec<Unit<'_>> = Vec::new();
    // (why, `plural.group` of each type skipped for that reason)
    let mut skipped: Vec<(String, Vec<String>)> = Vec::new();
    let mut categories: Vec<String> = Vec::new();
    for pl in planned {
        let t = &pl.t;
        if verbose > 0 {
            p.err_line(&format!(
                "I {} resolved to {}/{} (namespaced: {})",
                pl.category.as_deref().unwrap_or(&t.api.plural),
                t.group_resource(),
                t.api.version,
                t.namespaced
            ));
        }
        let namespace = session.namespace_for(t, args.all_namespaces);
        let requests = requests_for(pl, namespace.as_ref());
        let grant = match &pl.category {
            Some(c) => {
                let q = crate::base::echo::quoted(c);
                if !categories.contains(&q) {
                    categories.push(q);
                }
                match session
                    .authorize_if_allowed(Verb::Get, t, args.all_namespaces, &requests)
                    .await?
                {
                    Ok(g) => g,
                    Err(why) => {
                        match skipped.iter_mut().find(|(w, _)| *w == why) {
                            Some((_, types)) => types.push(t.group_resource()),
                            None => skipped.push((why, vec![t.group_resource()])),
                        }
                        continue;
                    }
                }
            }
            None => {
                session
                    .authorize(Verb::Get, t, args.all_namespaces, &requests)
                    .await?
            }
        };
        if verbose > 0 {
            for r in &requests {
                p.err_line(&format!(
                    "I SelfSubjectAccessReview: {} {}{} allowed",
                    r.verb,
                    t.group_resource(),
                    r.name.as_ref().map(|n| format!("/{n}")).unwrap_or_default()
                ));
            }
        }
        units.push(Unit {
            planned: pl,
            grant,
            namespace,
        });
    }
    if !skipped.is_empty() {
        let why: Vec<String> = skipped
            .iter()
            .map(|(why, types)| format!("{why}: {}", types.join(", ")))
            .collect();
        if units.is_empty() {
            return Err(GateError::CategoryRefused {
                categories: categories.join(", "),
                skipped: why.join("; "),
            }
            .into());
        }
        p.err_line(&format!(
            "skipped types of {} that this plugin may not read ({})",
            categories.join(", "),
            why.join("; ")
        ));
    }
    Ok(units)
}
