//! `get`: resolve TYPE, pass the gate (plugin.yaml boundary, then a SelfSubjectAccessReview
//! for exactly `get` or `list`) — both through the guarded path ([`crate::guard`]) — then
//! fetch and print: a server-side Table for `-o table|wide` (with `-L`, `--show-kind`,
//! `--show-labels`), the objects for `-o json|yaml|kyaml|name` (kubectl's bytes:
//! [`kubectl_json`](crate::output::objects::kubectl_json),
//! [`kubectl_yaml`](crate::output::objects::kubectl_yaml), [`crate::output::kyaml`]) and the
//! templates (`-o jsonpath=…`, `-o custom-columns=…`:
//! [`render_template`](crate::output::objects::render_template)); lists sorted by `--sort-by`
//! ([`SortBy`]).
//!
//! One concern per file: [`plan`] checks the selectors and gates every type, [`fetch`] makes
//! the requests, [`print`] prints the types fetched, [`watch`] and [`watch_print`] follow one
//! type with `-w`.

mod fetch;
mod plan;
mod print;
mod watch;
mod watch_print;

use plan::{check_selectors, gate};
use print::fetch_and_print;
use watch::{check_watch_flags, watch_and_print};

use crate::cli::GetArgs;
use crate::config::Verb;
use crate::guard::target::{self, Planned};
use crate::guard::{Session, parse_targets};
use crate::output::Printer;
use crate::output::sort::SortBy;
use crate::settings::Settings;
use crate::verbs::{Outcome, VerbError};

/// Runs `get`; the [`Outcome`] names the resolved `plural.group` (the metric `resource`
/// label, never raw user input; several types are joined by `,` in the order fetched).
///
/// Errors in the outcome: usage (2), denied (3), not found (4), API or network failures (1).
pub async fn run(s: &Settings, args: &GetArgs, p: &mut Printer<'_>) -> Outcome {
    let targets = match parse_targets(&args.args) {
        Ok(t) => t,
        Err(e) => return Outcome::early(VerbError::Usage(e)),
    };
    if let Err(e) = check_selectors(args) {
        return Outcome::early(VerbError::Usage(e));
    }
    let sort_by = match args.sort_by.as_deref().map(SortBy::parse).transpose() {
        Ok(s) => s,
        Err(e) => return Outcome::early(VerbError::Usage(e.to_string())),
    };
    if args.all_namespaces && targets.iter().any(|t| !t.names.is_empty()) {
        return Outcome::early(VerbError::Usage(
            "a resource cannot be retrieved by name across all namespaces; drop -A or the names"
                .into(),
        ));
    }
    let session = match Session::open(s, p, Verb::Get).await {
        Ok(x) => x,
        Err(e) => return Outcome::early(e),
    };
    let names: Vec<&str> = targets.iter().map(|t| t.type_name.as_str()).collect();
    let planned = match session.index_for(&names).await {
        Ok(index) => target::plan(&targets, &index),
        Err(e) => return Outcome::early(e),
    };
    let planned = match planned {
        Ok(x) => x,
        Err(e) => return Outcome::early(e),
    };
    // The metric `resource` label: the types fetched (a category's skipped types are not),
    // or the named ones when the gate refused.
    let label = |types: &mut dyn Iterator<Item = &Planned>| -> Option<String> {
        let mut seen: Vec<String> = Vec::new();
        for pl in types {
            let gr = pl.t.group_resource();
            if !seen.contains(&gr) {
                seen.push(gr);
            }
        }
        (!seen.is_empty()).then(|| seen.join(","))
    };
    if let Err(e) = check_watch_flags(
        args,
        planned.len(),
        planned.first().map_or(0, |x| x.names.len()),
    ) {
        return Outcome {
            resource: label(&mut planned.iter()),
            result: Err(e),
        };
    }
    if let (true, Some(pl)) = (args.watch || args.watch_only, planned.first()) {
        let result = watch_and_print(&session, &pl.t, &pl.names, args, p).await;
        return Outcome::on(pl.t.group_resource(), result);
    }
    let units = match gate(&session, &planned, args, p).await {
        Ok(u) => u,
        Err(e) => {
            return Outcome {
                resource: label(&mut planned.iter().filter(|pl| pl.category.is_none())),
                result: Err(e),
            };
        }
    };
    // kubectl fetches every type of a category, and a list answers with a (maybe empty)
    // table, so `get all` prints `kind/name` even when one type has objects; types skipped
    // here count as fetched for that.
    let listed = if planned.iter().all(|pl| pl.names.is_empty()) {
        planned.len()
    } else {
        0
    };
    let result = fetch_and_print(&session, &units, listed, args, sort_by.as_ref(), p).await;
    Outcome {
        resource: label(&mut units.iter().map(|u| u.planned)),
        result,
    }
}
