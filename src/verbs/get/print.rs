//! Fetching and printing the gated types of `get` as kubectl's `get` prints them: the
//! server's tables for `-o table|wide`, the objects for `-o json|yaml|kyaml|name` and the
//! templates, missing named objects reported at the end.

use serde_json::Value;

use super::fetch::{Fetch, trace_get};
use super::plan::Unit;
use crate::cli::{GetArgs, OutputFormat};
use crate::cluster::ApiError;
use crate::cluster::table::{self, Table};
use crate::guard::Session;
use crate::guard::target::Planned;
use crate::output::objects::{
    ListFormat, ListWriter, kubectl_json, kubectl_yaml, list_of, no_resources, render_template,
    sort_keys,
};
use crate::output::server_table::{self, TableOptions};
use crate::output::sort::SortBy;
use crate::output::{Layout, Printer};
use crate::verbs::VerbError;

/// Fetches and prints the gated types in order, as kubectl's `get` prints several types.
pub(super) async fn fetch_and_print(
    session: &Session<'_>,
    units: &[Unit<'_>],
    listed: usize,
    args: &GetArgs,
    sort_by: Option<&SortBy>,
    p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    let planned: Vec<&Planned> = units.iter().map(|u| u.planned).collect();
    let total_names: usize = planned.iter().map(|pl| pl.names.len()).sum();
    let named = planned.iter().all(|pl| !pl.names.is_empty());
    // kubectl sorts lists only: one named object prints as it is, whatever the path.
    let sort_by = sort_by.filter(|_| total_names != 1);
    let mut missing: Vec<ApiError> = Vec::new();
    match &args.output {
        OutputFormat::Table | OutputFormat::Wide => {
            let tables = fetch_tables(session, units, args, sort_by, &mut missing, p).await?;
            print_tables(&tables, listed, args, p)?;
            let written = tables.iter().any(|(_, tb)| !tb.rows.is_empty());
            if !written && missing.is_empty() && !args.ignore_not_found {
                let all_namespaced =
                    !args.all_namespaces && tables.iter().all(|(u, _)| u.planned.t.namespaced);
                p.err_line(&no_resources(all_namespaced.then(|| session.namespace())));
            }
        }
        OutputFormat::Json
        | OutputFormat::Yaml
        | OutputFormat::KYaml
        | OutputFormat::Name
        | OutputFormat::Template(_) => {
            // kubectl's printGeneric prints one named object as itself and anything else as
            // one `List`; unsorted json, yaml and name output goes out page by page, so a
            // long list never sits in memory whole.
            let single = named && total_names == 1;
            let streamed = sort_by.is_none()
                && !single
                && matches!(
                    args.output,
                    OutputFormat::Json | OutputFormat::Yaml | OutputFormat::Name
                );
            if streamed {
                stream_objects(session, units, args, &mut missing, p).await?;
            } else {
                let items = collect_objects(session, units, args, sort_by, &mut missing, p).await?;
                print_objects(items, single, args, p)?;
            }
        }
    }
    report_missing(missing, args, p)
}

/// The server's table of each type (names fetched one by one, a 404 kept in `missing`),
/// rows sorted by `sort_by`; a named type none of whose objects exists has no table.
async fn fetch_tables<'u, 'a>(
    session: &Session<'_>,
    units: &'u [Unit<'a>],
    args: &GetArgs,
    sort_by: Option<&SortBy>,
    missing: &mut Vec<ApiError>,
    p: &mut Printer<'_>,
) -> Result<Vec<(&'u Unit<'a>, Table)>, VerbError> {
    let mut tables: Vec<(&Unit<'_>, Table)> = Vec::new();
    for u in units {
        let fetch = Fetch::new(session, u, args, sort_by.is_some());
        trace_get(session, p, &fetch);
        let mut all = Table::default();
        if u.planned.names.is_empty() {
            all = fetch.table_list().await?;
        } else {
            let mut found = false;
            for n in &u.planned.names {
                match fetch.table_one(n).await {
                    Ok(tb) => {
                        if all.column_definitions.is_empty() {
                            all.column_definitions = tb.column_definitions;
                        }
                        all.rows.extend(tb.rows);
                        found = true;
                    }
                    Err(e) if e.code() == Some(404) => missing.push(e),
                    Err(e) => return Err(e.into()),
                }
            }
            if !found {
                continue;
            }
        }
        if let Some(by) = sort_by {
            let order = by
                .order(all.rows.iter().map(|r| &r.object))
                .map_err(VerbError::io)?;
            let mut rows: Vec<Option<table::Row>> = all.rows.drain(..).map(Some).collect();
            all.rows = order.into_iter().filter_map(|i| rows[i].take()).collect();
        }
        tables.push((u, all));
    }
    Ok(tables)
}

/// Unsorted `-o json|yaml|name` of several objects: each object printed as soon as its page
/// arrives, inside one `List` for json and yaml.
async fn stream_objects(
    session: &Session<'_>,
    units: &[Unit<'_>],
    args: &GetArgs,
    missing: &mut Vec<ApiError>,
    p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    let mut writer = match args.output {
        OutputFormat::Json => Some(ListWriter::new(ListFormat::Json)),
        OutputFormat::Yaml => Some(ListWriter::new(ListFormat::Yaml)),
        _ => None,
    };
    for u in units {
        let fetch = Fetch::new(session, u, args, false);
        trace_get(session, p, &fetch);
        let prefix = u.planned.t.name_prefix();
        let mut emit = |o: Value| -> Result<(), VerbError> {
            match &mut writer {
                Some(w) => p.out(&w.item(&o)?)?,
                None => {
                    let name = o
                        .pointer("/metadata/name")
                        .and_then(Value::as_str)
                        .unwrap_or("");
                    p.out(&format!("{prefix}/{name}\n"))?;
                }
            }
            Ok(())
        };
        if u.planned.names.is_empty() {
            fetch.each_object(&mut emit).await?;
        } else {
            for n in &u.planned.names {
                match fetch.object(n).await {
                    Ok(o) => emit(o)?,
                    Err(e) if e.code() == Some(404) => missing.push(e),
                    Err(e) => return Err(e.into()),
                }
            }
        }
    }
    if let Some(w) = writer {
        p.out(&w.finish())?;
    }
    Ok(())
}

/// Every object of the gated types, each with the `kind.group` prefix of `-o name`, sorted
/// by `sort_by` (a 404 on a name kept in `missing`).
async fn collect_objects(
    session: &Session<'_>,
    units: &[Unit<'_>],
    args: &GetArgs,
    sort_by: Option<&SortBy>,
    missing: &mut Vec<ApiError>,
    p: &mut Printer<'_>,
) -> Result<Vec<(String, Value)>, VerbError> {
    let mut items: Vec<(String, Value)> = Vec::new();
    for u in units {
        let fetch = Fetch::new(session, u, args, sort_by.is_some());
        trace_get(session, p, &fetch);
        let prefix = u.planned.t.name_prefix();
        if u.planned.names.is_empty() {
            fetch
                .each_object(&mut |o| {
                    items.push((prefix.clone(), o));
                    Ok(())
                })
                .await?;
        } else {
            for n in &u.planned.names {
                match fetch.object(n).await {
                    Ok(o) => items.push((prefix.clone(), o)),
                    Err(e) if e.code() == Some(404) => missing.push(e),
                    Err(e) => return Err(e.into()),
                }
            }
        }
    }
    if let Some(by) = sort_by {
        let order = by
            .order(items.iter().map(|(_, o)| o))
            .map_err(VerbError::io)?;
        let mut slots: Vec<Option<(String, Value)>> = items.drain(..).map(Some).collect();
        items = order.into_iter().filter_map(|i| slots[i].take()).collect();
    }
    Ok(items)
}

/// Prints collected objects: `kind/name` lines for `-o name`, else kubectl's printGeneric —
/// one named object (`single`) as itself, anything else (several, none, a list) as one
/// `List`; one named object that is missing prints nothing.
fn print_objects(
    mut items: Vec<(String, Value)>,
    single: bool,
    args: &GetArgs,
    p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    if args.output == OutputFormat::Name {
        for (prefix, o) in &items {
            let name = o
                .pointer("/metadata/name")
                .and_then(Value::as_str)
                .unwrap_or("");
            p.out(&format!("{prefix}/{name}\n"))?;
        }
        return Ok(());
    }
    let doc = if single {
        items.pop().map(|(_, o)| o).unwrap_or(Value::Null)
    } else {
        list_of(items.into_iter().map(|(_, o)| o).collect())
    };
    if !doc.is_null() {
        let text = match &args.output {
            OutputFormat::Json => kubectl_json(&doc)?,
            OutputFormat::KYaml => crate::output::kyaml::to_string(&sort_keys(doc)),
            OutputFormat::Template(f) => {
                render_template(f, &doc, args.no_headers, args.allow_missing_template_keys)
                    .map_err(VerbError::io)?
            }
            _ => kubectl_yaml(&doc)?,
        };
        p.out(&text)?;
    }
    Ok(())
}

/// kubectl's end of `get` with missing named objects: each NotFound printed, the last one
/// the command's error (exit 4 here), none with `--ignore-not-found`.
fn report_missing(
    mut missing: Vec<ApiError>,
    args: &GetArgs,
    p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    if args.ignore_not_found {
        return Ok(());
    }
    let last = missing.pop();
    for e in &missing {
        p.err_line(&e.to_string());
    }
    match last {
        Some(e) => Err(e.into()),
        None => Ok(()),
    }
}

/// Prints the server's tables of several types as kubectl's `get` does
/// (k8s.io/kubectl/pkg/cmd/get/get.go, `Run`): each type laid out on its own (the tab
/// writer is flushed and its widths forgotten when the type changes), a blank line before
/// a type's table when something was printed before it (none with `--no-headers`), and
/// `kind/name` in the NAME column when objects of several types were fetched
/// (`multipleGVKsRequested`; `listed` types were asked for as collections, each answering
/// with a table even when empty) or with `--show-kind`.
fn print_tables(
    tables: &[(&Unit<'_>, Table)],
    listed: usize,
    args: &GetArgs,
    p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    let mut kinds: Vec<String> = tables
        .iter()
        .map(|(u, _)| u.planned.t.group_resource())
        .collect();
    kinds.sort();
    kinds.dedup();
    let with_kind = args.show_kind || kinds.len() > 1 || listed > 1;
    let mut written = false;
    for (u, tb) in tables {
        if tb.rows.is_empty() {
            continue;
        }
        let t = &u.planned.t;
        let opts = TableOptions {
            wide: args.output == OutputFormat::Wide,
            with_namespace: args.all_namespaces && t.namespaced,
            show_labels: args.show_labels,
            no_headers: args.no_headers,
            label_columns: args.label_columns.clone(),
            kind_prefix: with_kind.then(|| t.name_prefix()),
        };
        if written && !args.no_headers {
            p.out("\n")?;
        }
        let mut lines = server_table::lines(tb, &opts);
        let header = (!args.no_headers && !lines.is_empty()).then(|| lines.remove(0));
        p.table(&t.group_resource(), header, lines, Layout::Tabwriter)?;
        written = true;
    }
    Ok(())
}
