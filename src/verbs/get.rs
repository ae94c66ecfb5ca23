//! `get`: resolve TYPE, pass the gate (plugin.yaml boundary, then a SelfSubjectAccessReview
//! for exactly `get` or `list`) — both through the guarded path ([`crate::guard`]) — then
//! fetch and print: a server-side Table for `-o table|wide` (with `-L`, `--show-kind`,
//! `--show-labels`), the objects for `-o json|yaml|kyaml|name` (kubectl's bytes:
//! [`kubectl_json`], [`kubectl_yaml`], [`crate::output::kyaml`]) and the templates
//! (`-o jsonpath=…`, `-o custom-columns=…`: [`render_template`]); lists sorted by
//! `--sort-by` ([`SortBy`]).

use kube::Resource;
use kube::api::{DynamicObject, GetParams, ListParams};
use serde_json::Value;

use crate::authz::{AccessRequest, GateError};
use crate::cli::{GetArgs, OutputFormat};
use crate::cluster::table::{self, Table};
use crate::cluster::{ApiError, ResolvedType};
use crate::config::Verb;
use crate::guard::target::{Planned, plan};
use crate::guard::{Grant, Session, parse_targets};
use crate::output::objects::{
    ListFormat, ListWriter, kubectl_json, kubectl_yaml, list_of, no_resources, render_template,
    sort_keys, with_type_meta_keeping,
};
use crate::output::server_table::{self, TableOptions};
use crate::output::sort::SortBy;
use crate::output::{Layout, Printer};
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
    let planned = match session.index().await {
        Ok(index) => plan(&targets, index),
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

/// `-l` and `--field-selector` checked as apimachinery parses them, and together small
/// enough for one request URI — before any request (issue 10, class 6: a 100,000-character
/// selector was reported as "cannot reach the API server").
fn check_selectors(args: &GetArgs) -> Result<(), String> {
    if let Some(l) = &args.selector {
        crate::validate::check_label_selector(l)?;
    }
    if let Some(f) = &args.field_selector {
        crate::validate::check_field_selector(f)?;
    }
    crate::validate::check_selectors_fit(args.selector.as_deref(), args.field_selector.as_deref())
}

/// One type to fetch, gated: its grant and the namespace its requests use.
struct Unit<'a> {
    planned: &'a Planned,
    grant: Grant,
    namespace: Option<String>,
}

/// The RBAC requests `get` makes on one type: `list` for the collection, `get` per name
/// (ARCHITECTURE §4).
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
async fn gate<'a>(
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
                let q = crate::echo::quoted(c);
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

/// Fetches and prints the gated types in order, as kubectl's `get` prints several types.
async fn fetch_and_print(
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
            // long list never sits in memory whole (issue 12, item 3).
            let single = named && total_names == 1;
            let streamed = sort_by.is_none()
                && !single
                && matches!(
                    args.output,
                    OutputFormat::Json | OutputFormat::Yaml | OutputFormat::Name
                );
            if streamed {
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
                return report_missing(missing, args, p);
            }
            // (`kind.group` prefix of `-o name`, object)
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
            if args.output == OutputFormat::Name {
                for (prefix, o) in &items {
                    let name = o
                        .pointer("/metadata/name")
                        .and_then(Value::as_str)
                        .unwrap_or("");
                    p.out(&format!("{prefix}/{name}\n"))?;
                }
            } else {
                // kubectl's printGeneric: one named object prints as itself, anything else
                // (several, none, a list) as one `List`; one named object that is missing
                // prints nothing.
                let doc = if single {
                    items.pop().map(|(_, o)| o).unwrap_or(Value::Null)
                } else {
                    list_of(items.into_iter().map(|(_, o)| o).collect())
                };
                if !doc.is_null() {
                    let text = match &args.output {
                        OutputFormat::Json => kubectl_json(&doc)?,
                        OutputFormat::KYaml => crate::output::kyaml::to_string(&sort_keys(doc)),
                        OutputFormat::Template(f) => render_template(
                            f,
                            &doc,
                            args.no_headers,
                            args.allow_missing_template_keys,
                        )
                        .map_err(VerbError::io)?,
                        _ => kubectl_yaml(&doc)?,
                    };
                    p.out(&text)?;
                }
            }
        }
    }
    report_missing(missing, args, p)
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

/// `-v`: the request line of one type.
fn trace_get(session: &Session<'_>, p: &mut Printer<'_>, fetch: &Fetch<'_>) {
    if session.settings().verbose > 0 {
        p.err_line(&format!("I GET {}{}", session.server(), fetch.url));
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

/// The requests of one `get`, built with kube-core's request builder and sent through the
/// session under its grant.
struct Fetch<'a> {
    session: &'a Session<'a>,
    grant: &'a Grant,
    t: &'a ResolvedType,
    url: String,
    lp: ListParams,
    /// Templates see `metadata.managedFields`, as kubectl's do; json/yaml drop them
    /// unless `--show-managed-fields`.
    keep_managed_fields: bool,
    /// `includeObject=` of Table requests: `Object` to sort rows, `Metadata` when a printed
    /// column reads the object (the `-A` NAMESPACE column, `-L`, `--show-labels`), else
    /// `None`: a 500-row page of ConfigMaps is 54 KB instead of 598 KB and the server answers
    /// it in half the time (issue 12; measured on the test cluster, 12 ms vs 24 ms a page).
    include_object: &'static str,
}

impl<'a> Fetch<'a> {
    /// The requests for one gated type.
    fn new(session: &'a Session<'a>, u: &'a Unit<'a>, args: &GetArgs, sorted: bool) -> Self {
        let t = &u.planned.t;
        Fetch {
            session,
            grant: &u.grant,
            t,
            url: DynamicObject::url_path(&t.api, u.namespace.as_deref()),
            lp: ListParams {
                label_selector: args.selector.clone(),
                field_selector: args.field_selector.clone(),
                limit: (args.chunk_size > 0).then_some(args.chunk_size),
                ..ListParams::default()
            },
            keep_managed_fields: matches!(args.output, OutputFormat::Template(_))
                || args.show_managed_fields,
            include_object: if sorted {
                "Object"
            } else if (args.all_namespaces && t.namespaced)
                || args.show_labels
                || !args.label_columns.is_empty()
            {
                "Metadata"
            } else {
                "None"
            },
        }
    }

    /// A request that could not even be built (a URI over the HTTP client's limit) was never
    /// sent: it is the input's fault, answered like the server's 400 (exit 2), never as
    /// "cannot reach the API server".
    fn unbuildable(&self, e: kube::core::request::Error) -> ApiError {
        ApiError::Server {
            code: 400,
            reason: "BadRequest".into(),
            message: format!(
                "the request for {} could not be built ({e}) and was not sent; shorten the names or selectors (a request URI is at most {} bytes)",
                self.t.group_resource(),
                crate::validate::MAX_URI_BYTES
            ),
        }
    }

    fn request(&self) -> kube::core::Request {
        kube::core::Request::new(&self.url)
    }

    async fn send_table(&self, req: http::Request<Vec<u8>>) -> Result<Table, ApiError> {
        let req = table::as_table_request(req, self.include_object)?;
        self.session.send::<Table>(self.grant, req).await
    }

    async fn table_list(&self) -> Result<Table, ApiError> {
        let mut lp = self.lp.clone();
        let mut all = Table::default();
        loop {
            let req = self.request().list(&lp).map_err(|e| self.unbuildable(e))?;
            let mut page = self.send_table(req).await?;
            if self.include_object == "Metadata" {
                // Nothing sorts these rows: keep what printing them reads.
                page.rows.iter_mut().for_each(table::Row::keep_printed_only);
            }
            if all.column_definitions.is_empty() {
                all.column_definitions = page.column_definitions;
            }
            all.rows.extend(page.rows);
            match page.metadata.continue_token.filter(|c| !c.is_empty()) {
                Some(c) => lp.continue_token = Some(c),
                None => return Ok(all),
            }
        }
    }

    async fn table_one(&self, name: &str) -> Result<Table, ApiError> {
        let req = self
            .request()
            .get(name, &GetParams::default())
            .map_err(|e| self.unbuildable(e))?;
        self.send_table(req).await
    }

    /// Lists the collection page by page (`--chunk-size`), handing each object to `sink`
    /// as soon as its page arrives; only one page is held at a time.
    async fn each_object(
        &self,
        sink: &mut dyn FnMut(Value) -> Result<(), VerbError>,
    ) -> Result<(), VerbError> {
        let mut lp = self.lp.clone();
        loop {
            let req = self.request().list(&lp).map_err(|e| self.unbuildable(e))?;
            let mut page: Value = self.session.send(self.grant, req).await?;
            if let Some(Value::Array(a)) = page.get_mut("items").map(Value::take) {
                for i in a {
                    sink(with_type_meta_keeping(i, self.t, self.keep_managed_fields))?;
                }
            }
            match page
                .pointer("/metadata/continue")
                .and_then(Value::as_str)
                .filter(|c| !c.is_empty())
            {
                Some(c) => lp.continue_token = Some(c.to_string()),
                None => return Ok(()),
            }
        }
    }

    async fn object(&self, name: &str) -> Result<Value, ApiError> {
        let req = self
            .request()
            .get(name, &GetParams::default())
            .map_err(|e| self.unbuildable(e))?;
        let v: Value = self.session.send(self.grant, req).await?;
        Ok(with_type_meta_keeping(v, self.t, self.keep_managed_fields))
    }
}

// ---- `get -w`, `--watch-only`, `--output-watch-events` (issue 11, item 3) ----

/// The watch flags as kubectl checks them (`get.go` `Validate` and `watch`), before any
/// request: `--output-watch-events` needs `-w` or `--watch-only`, and a watch follows one
/// type and at most one name (`types` and `names` as planned).
///
/// # Errors
/// A usage sentence (exit 2; kubectl exits 1 for these, an intended difference: they are
/// bad input).
fn check_watch_flags(args: &GetArgs, types: usize, names: usize) -> Result<(), VerbError> {
    let watching = args.watch || args.watch_only;
    if args.output_watch_events && !watching {
        return Err(VerbError::Usage(
            "--output-watch-events option can only be used with --watch or --watch-only; add -w"
                .into(),
        ));
    }
    if watching && types > 1 {
        return Err(VerbError::Usage(
            "you may only specify a single resource type with --watch; watch one type at a time"
                .into(),
        ));
    }
    if watching && names > 1 {
        return Err(VerbError::Usage(
            "you may only watch a single resource or type of resource at a time; name one object, or none to watch them all"
                .into(),
        ));
    }
    Ok(())
}

/// `get -w` / `--watch-only` on one type, as kubectl's `watch` (`k8s.io/kubectl/pkg/cmd/get/
/// get.go`): gate (plugin.yaml, then SelfSubjectAccessReviews for `list` and `watch` — on
/// the name when one is given), list, print the list unless `--watch-only`, then print every
/// change as it comes until SIGINT/SIGTERM or `--request-timeout` (the whole watch, as
/// client-go's timeout bounds kubectl's; 0 or unset = until stopped). Both ends return
/// `Ok` (exit 0; kubectl exits 1 on a signal — an intended difference, the normal end of
/// the command runs: output flushed, one metrics operation recorded).
///
/// A name is watched as kubectl does (`fieldSelector=metadata.name=NAME`); a name that does
/// not exist is exit 4 (`--ignore-not-found`: exit 0, nothing watched). Tables go through
/// kubectl's tab writer with widths remembered across events; `--output-watch-events` adds
/// an EVENT column, or wraps objects as `{"type":…,"object":…}` (compact JSON, as kubectl).
/// The stream itself — re-watch on a normal end, BOOKMARKs, re-list on 410, waiting out a
/// server that stops answering — is [`crate::guard::watch::Watch`]; such an outage is one
/// warning on stderr and one line when the watch goes on (kubectl's watch ends instead).
///
/// # Errors
/// Usage (2) from [`check_watch_flags`], denied (3), not found (4), API failures (1).
async fn watch_and_print(
    session: &Session<'_>,
    t: &ResolvedType,
    names: &[String],
    args: &GetArgs,
    p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    use crate::guard::watch::{Progress, Watch, WatchRequest};
    use tokio::signal::unix::{SignalKind, signal};

    check_watch_flags(args, 1, names.len())?;
    if args.sort_by.is_some() {
        p.err_line(if args.watch {
            "warning: --watch requested, --sort-by will be ignored for watch events received"
        } else {
            "warning: --watch-only requested, --sort-by will be ignored"
        });
    }
    let namespace = session.namespace_for(t, args.all_namespaces);
    let name = names.first();
    let ask = |verb: &str| AccessRequest {
        verb: verb.into(),
        group: t.api.group.clone(),
        resource: t.api.plural.clone(),
        subresource: None,
        namespace: namespace.clone(),
        name: name.cloned(),
    };
    let grant = session
        .authorize(
            Verb::Get,
            t,
            args.all_namespaces,
            &[ask("list"), ask("watch")],
        )
        .await?;
    let verbose = session.settings().verbose;
    if verbose > 0 {
        p.err_line(&format!(
            "I SelfSubjectAccessReview: list, watch {}{} allowed",
            t.group_resource(),
            name.map(|n| format!("/{n}")).unwrap_or_default()
        ));
    }
    let field_selector = match (name, &args.field_selector) {
        (Some(n), Some(f)) => Some(format!("metadata.name={n},{f}")),
        (Some(n), None) => Some(format!("metadata.name={n}")),
        (None, f) => f.clone(),
    };
    let table = matches!(args.output, OutputFormat::Table | OutputFormat::Wide);
    let req = WatchRequest {
        url: DynamicObject::url_path(&t.api, namespace.as_deref()),
        lp: ListParams {
            label_selector: args.selector.clone(),
            field_selector,
            limit: (args.chunk_size > 0).then_some(args.chunk_size),
            ..ListParams::default()
        },
        table,
        include_object: "Metadata",
    };
    // Installed before the first request: from here on SIGINT/SIGTERM end the watch
    // cleanly instead of killing the process.
    let mut int = signal(SignalKind::interrupt())
        .map_err(|e| VerbError::io(format!("cannot handle SIGINT: {e}")))?;
    let mut term = signal(SignalKind::terminate())
        .map_err(|e| VerbError::io(format!("cannot handle SIGTERM: {e}")))?;
    let deadline = session
        .settings()
        .kube
        .request_timeout
        .filter(|d| !d.is_zero())
        .map(|d| tokio::time::Instant::now() + d);
    let (mut w, listed) = Watch::start(session, &grant, req).await?;
    if let Some(n) = name
        && listed.is_empty()
    {
        if args.ignore_not_found {
            return Ok(());
        }
        return Err(ApiError::Server {
            code: 404,
            reason: "NotFound".into(),
            message: format!("{} \"{n}\" not found", t.group_resource()),
        }
        .into());
    }
    let mut out = WatchPrinter {
        t,
        args,
        widths: Vec::new(),
        started: false,
    };
    if !args.watch_only {
        let initial: Vec<_> = listed
            .into_iter()
            .map(|item| crate::guard::watch::Event {
                kind: crate::guard::watch::EventType::Added,
                item,
            })
            .collect();
        out.print(p, w.columns(), initial)?;
    }
    p.flush()?;
    let mut relists = 0;
    loop {
        let until_deadline = async {
            match deadline {
                Some(d) => tokio::time::sleep_until(d).await,
                None => std::future::pending::<()>().await,
            }
        };
        tokio::select! {
            _ = int.recv() => break,
            _ = term.recv() => break,
            () = until_deadline => break,
            got = w.next() => {
                let events = match got? {
                    Progress::Events(events) => events,
                    // The outage once, and its end: on stderr, the output stays the changes.
                    Progress::Lost(e) => {
                        p.flush()?;
                        p.err_line(&format!(
                            "warning: the watch of {} is interrupted: {e}; it goes on from where it was when the server answers again",
                            t.group_resource()
                        ));
                        continue;
                    }
                    Progress::Resumed(down) => {
                        p.err_line(&format!(
                            "the watch of {} goes on: the API server answers again after {:.1}s",
                            t.group_resource(),
                            down.as_secs_f64()
                        ));
                        continue;
                    }
                };
                if verbose > 0 && w.relists() != relists {
                    relists = w.relists();
                    p.err_line(&format!(
                        "I watch of {} re-listed after 410 (too old resource version), {} time(s) so far",
                        t.group_resource(),
                        relists
                    ));
                }
                out.print(p, w.columns(), events)?;
                p.flush()?;
            }
        }
    }
    p.flush()?;
    Ok(())
}

/// The printing state of one watch: tab-writer widths remembered across events (kubectl's
/// `printers.GetNewTabWriter`, RememberWidths) and whether anything was printed (the table
/// header and the YAML `---` separator come once).
struct WatchPrinter<'a> {
    t: &'a ResolvedType,
    args: &'a GetArgs,
    widths: Vec<usize>,
    started: bool,
}

impl WatchPrinter<'_> {
    fn print(
        &mut self,
        p: &mut Printer<'_>,
        columns: &[table::Column],
        events: Vec<crate::guard::watch::Event>,
    ) -> Result<(), VerbError> {
        use crate::guard::watch::Item;
        if events.is_empty() {
            return Ok(());
        }
        let args = self.args;
        let with_events = args.output_watch_events;
        if matches!(args.output, OutputFormat::Table | OutputFormat::Wide) {
            // cli-runtime `formattedEventType`: padded to 8 ("ADDED   ").
            let kinds: Vec<String> = events
                .iter()
                .map(|e| format!("{:<8}", e.kind.as_str()))
                .collect();
            let rows = events
                .into_iter()
                .filter_map(|e| match e.item {
                    Item::Row(r) => Some(r),
                    Item::Object(_) => None,
                })
                .collect();
            let tb = Table {
                column_definitions: columns.to_vec(),
                rows,
                ..Table::default()
            };
            let header = !args.no_headers && !self.started;
            let opts = TableOptions {
                wide: args.output == OutputFormat::Wide,
                with_namespace: args.all_namespaces && self.t.namespaced,
                show_labels: args.show_labels,
                no_headers: !header,
                label_columns: args.label_columns.clone(),
                kind_prefix: args.show_kind.then(|| self.t.name_prefix()),
            };
            let mut lines = server_table::lines(&tb, &opts);
            if with_events {
                let skip = usize::from(header);
                if header {
                    lines[0].insert(0, "EVENT".into());
                }
                for (l, k) in lines.iter_mut().skip(skip).zip(&kinds) {
                    l.insert(0, k.clone());
                }
            }
            self.started = true;
            let text =
                crate::output::custom_columns::tabwriter_remembering(&lines, &mut self.widths);
            p.out(&text)?;
            return Ok(());
        }
        let keep = with_events
            || args.show_managed_fields
            || matches!(args.output, OutputFormat::Template(_));
        for e in events {
            let Item::Object(o) = e.item else { continue };
            let obj = with_type_meta_keeping(o, self.t, keep);
            let kind = Value::String(e.kind.as_str().to_string());
            let text = match &args.output {
                OutputFormat::Name => {
                    let n = obj
                        .pointer("/metadata/name")
                        .and_then(Value::as_str)
                        .unwrap_or("");
                    format!("{}/{n}\n", self.t.name_prefix())
                }
                OutputFormat::Json if with_events => {
                    // kubectl's JSON printer encodes a WatchEvent with Go's json.Encoder:
                    // one compact line, `type` first. The HTML-safe escapes are applied to
                    // the whole line: `<`, `>`, `&`, U+2028 and U+2029 occur only in strings.
                    let line = format!(
                        "{{\"type\":{kind},\"object\":{}}}\n",
                        serde_json::to_string(&sort_keys(obj)).map_err(VerbError::io)?
                    );
                    line.replace('<', "\\u003c")
                        .replace('>', "\\u003e")
                        .replace('&', "\\u0026")
                        .replace('\u{2028}', "\\u2028")
                        .replace('\u{2029}', "\\u2029")
                }
                OutputFormat::Json => kubectl_json(&obj)?,
                OutputFormat::KYaml => {
                    let doc = if with_events {
                        serde_json::json!({"type": kind, "object": sort_keys(obj)})
                    } else {
                        sort_keys(obj)
                    };
                    crate::output::kyaml::to_string(&doc)
                }
                OutputFormat::Template(crate::cli::TemplateFormat::CustomColumns(cols)) => {
                    let doc = if with_events {
                        serde_json::json!({"type": kind, "object": obj})
                    } else {
                        obj
                    };
                    let lines = crate::output::custom_columns::lines(
                        &doc,
                        cols,
                        args.no_headers || self.started,
                    )
                    .map_err(VerbError::io)?;
                    crate::output::custom_columns::tabwriter_remembering(&lines, &mut self.widths)
                }
                OutputFormat::Template(f) => {
                    let doc = if with_events {
                        serde_json::json!({"type": kind, "object": obj})
                    } else {
                        obj
                    };
                    render_template(
                        f,
                        &doc,
                        args.no_headers || self.started,
                        args.allow_missing_template_keys,
                    )
                    .map_err(VerbError::io)?
                }
                _ => {
                    let doc = if with_events {
                        serde_json::json!({"object": obj, "type": kind})
                    } else {
                        obj
                    };
                    let yaml = kubectl_yaml(&sort_keys(doc))?;
                    if self.started {
                        format!("---\n{yaml}")
                    } else {
                        yaml
                    }
                }
            };
            self.started = true;
            p.out(&text)?;
        }
        Ok(())
    }
}
