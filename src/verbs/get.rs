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

use crate::authz::AccessRequest;
use crate::cli::{GetArgs, OutputFormat};
use crate::cluster::table::{self, TABLE_ACCEPT, Table, TableOptions};
use crate::cluster::{ApiError, ResolvedType};
use crate::config::Verb;
use crate::guard::{Grant, Mode, Session, Target};
use crate::output::Printer;
use crate::output::objects::{
    kubectl_json, kubectl_yaml, list_of, no_resources, render_template, sort_keys,
    with_type_meta_keeping,
};
use crate::output::sort::SortBy;
use crate::settings::Settings;
use crate::verbs::{Outcome, VerbError};

/// Runs `get`; the [`Outcome`] names the resolved `plural.group` (the metric `resource`
/// label, never raw user input).
///
/// Errors in the outcome: usage (2), denied (3), not found (4), API or network failures (1).
pub async fn run(s: &Settings, args: &GetArgs, p: &mut Printer<'_>) -> Outcome {
    let target = match crate::guard::parse_target(&args.args) {
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
    if args.all_namespaces && !target.names.is_empty() {
        return Outcome::early(VerbError::Usage(
            "a resource cannot be retrieved by name across all namespaces; drop -A or the names"
                .into(),
        ));
    }
    if let Err(e) = crate::authz::check_verb(&s.plugin, Verb::Get) {
        return Outcome::early(e);
    }
    let session = match Session::open(s, p, Mode::Read).await {
        Ok(x) => x,
        Err(e) => return Outcome::early(e),
    };
    let t = match session.resolve(&target.type_name).await {
        Ok(t) => t,
        Err(e) => return Outcome::early(e),
    };
    let result = fetch_and_print(&session, &t, &target, args, sort_by.as_ref(), p).await;
    Outcome::on(t.group_resource(), result)
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

async fn fetch_and_print(
    session: &Session<'_>,
    t: &ResolvedType,
    target: &Target,
    args: &GetArgs,
    sort_by: Option<&SortBy>,
    p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    let names = &target.names;
    // kubectl sorts lists only: one named object prints as it is, whatever the path.
    let sort_by = sort_by.filter(|_| names.len() != 1);
    let verbose = session.settings().verbose;
    let trace = |p: &mut Printer<'_>, line: String| {
        if verbose > 0 {
            p.err_line(&format!("I {line}"));
        }
    };
    trace(
        p,
        format!(
            "{} resolved to {}/{} (namespaced: {})",
            target.type_name,
            t.group_resource(),
            t.api.version,
            t.namespaced
        ),
    );
    let namespace = session.namespace_for(t, args.all_namespaces);
    let ask = |verb: &str, name: Option<&String>| AccessRequest {
        verb: verb.into(),
        group: t.api.group.clone(),
        resource: t.api.plural.clone(),
        subresource: None,
        namespace: namespace.clone(),
        name: name.cloned(),
    };
    let requests: Vec<AccessRequest> = if names.is_empty() {
        vec![ask("list", None)]
    } else {
        names.iter().map(|n| ask("get", Some(n))).collect()
    };
    let grant = session
        .authorize(Verb::Get, t, args.all_namespaces, &requests)
        .await?;
    for r in &requests {
        trace(
            p,
            format!(
                "SelfSubjectAccessReview: {} {}{} allowed",
                r.verb,
                t.group_resource(),
                r.name.as_ref().map(|n| format!("/{n}")).unwrap_or_default()
            ),
        );
    }
    let url = DynamicObject::url_path(&t.api, namespace.as_deref());
    trace(p, format!("GET {}{url}", session.server()));
    let lp = ListParams {
        label_selector: args.selector.clone(),
        field_selector: args.field_selector.clone(),
        limit: (args.chunk_size > 0).then_some(args.chunk_size),
        ..ListParams::default()
    };
    let fetch = Fetch {
        session,
        grant: &grant,
        t,
        url: &url,
        lp: &lp,
        keep_managed_fields: matches!(args.output, OutputFormat::Template(_))
            || args.show_managed_fields,
        // kubectl asks for whole objects in the Table rows when it must sort them.
        include_object: if sort_by.is_some() {
            "Object"
        } else {
            "Metadata"
        },
    };
    let mut missing: Vec<ApiError> = Vec::new();
    match &args.output {
        OutputFormat::Table | OutputFormat::Wide => {
            let mut all = Table::default();
            if names.is_empty() {
                all = fetch.table_list().await?;
            } else {
                for n in names {
                    match fetch.table_one(n).await {
                        Ok(tb) => {
                            if all.column_definitions.is_empty() {
                                all.column_definitions = tb.column_definitions;
                            }
                            all.rows.extend(tb.rows);
                        }
                        Err(e) if e.code() == Some(404) => missing.push(e),
                        Err(e) => return Err(e.into()),
                    }
                }
            }
            if let Some(by) = sort_by {
                let order = by
                    .order(all.rows.iter().map(|r| &r.object))
                    .map_err(|e| VerbError::Io(e.to_string()))?;
                let mut rows: Vec<Option<table::Row>> = all.rows.drain(..).map(Some).collect();
                all.rows = order.into_iter().filter_map(|i| rows[i].take()).collect();
            }
            if all.rows.is_empty() {
                if names.is_empty() && !args.ignore_not_found {
                    p.err_line(&no_resources(namespace.as_deref()));
                }
            } else {
                let opts = TableOptions {
                    wide: args.output == OutputFormat::Wide,
                    with_namespace: args.all_namespaces && t.namespaced,
                    show_labels: args.show_labels,
                    no_headers: args.no_headers,
                    label_columns: args.label_columns.clone(),
                    kind_prefix: args.show_kind.then(|| t.name_prefix()),
                };
                p.out(&table::render(&all, opts))?;
            }
        }
        OutputFormat::Json
        | OutputFormat::Yaml
        | OutputFormat::KYaml
        | OutputFormat::Name
        | OutputFormat::Template(_) => {
            let mut items = Vec::new();
            if names.is_empty() {
                items = fetch.objects().await?;
            } else {
                for n in names {
                    match fetch.object(n).await {
                        Ok(o) => items.push(o),
                        Err(e) if e.code() == Some(404) => missing.push(e),
                        Err(e) => return Err(e.into()),
                    }
                }
            }
            if let Some(by) = sort_by {
                let order = by
                    .order(items.iter())
                    .map_err(|e| VerbError::Io(e.to_string()))?;
                let mut slots: Vec<Option<Value>> = items.drain(..).map(Some).collect();
                items = order.into_iter().filter_map(|i| slots[i].take()).collect();
            }
            if args.output == OutputFormat::Name {
                let prefix = t.name_prefix();
                for o in &items {
                    let name = o
                        .pointer("/metadata/name")
                        .and_then(Value::as_str)
                        .unwrap_or("");
                    p.out(&format!("{prefix}/{name}\n"))?;
                }
            } else {
                let doc = if names.len() == 1 && items.len() == 1 {
                    items.remove(0)
                } else if !names.is_empty() && items.is_empty() {
                    Value::Null
                } else {
                    list_of(items)
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
                        .map_err(|e| VerbError::Io(e.to_string()))?,
                        _ => kubectl_yaml(&doc)?,
                    };
                    p.out(&text)?;
                }
            }
        }
    }
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

/// The requests of one `get`, built with kube-core's request builder and sent through the
/// session under its grant.
struct Fetch<'a> {
    session: &'a Session<'a>,
    grant: &'a Grant,
    t: &'a ResolvedType,
    url: &'a str,
    lp: &'a ListParams,
    /// Templates see `metadata.managedFields`, as kubectl's do; json/yaml drop them
    /// unless `--show-managed-fields`.
    keep_managed_fields: bool,
    /// `includeObject=` of Table requests: `Metadata`, or `Object` to sort rows.
    include_object: &'static str,
}

impl Fetch<'_> {
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
        kube::core::Request::new(self.url)
    }

    async fn send_table(&self, mut req: http::Request<Vec<u8>>) -> Result<Table, ApiError> {
        let uri = req.uri().to_string();
        let sep = if uri.contains('?') { '&' } else { '?' };
        *req.uri_mut() = format!("{uri}{sep}includeObject={}", self.include_object)
            .parse()
            .map_err(|_| ApiError::Server {
                code: 400,
                reason: "BadRequest".into(),
                message: format!("cannot build the request URI for {uri}"),
            })?;
        req.headers_mut().insert(
            http::header::ACCEPT,
            http::HeaderValue::from_static(TABLE_ACCEPT),
        );
        self.session.send::<Table>(self.grant, req).await
    }

    async fn table_list(&self) -> Result<Table, ApiError> {
        let mut lp = self.lp.clone();
        let mut all = Table::default();
        loop {
            let req = self.request().list(&lp).map_err(|e| self.unbuildable(e))?;
            let page = self.send_table(req).await?;
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

    async fn objects(&self) -> Result<Vec<Value>, ApiError> {
        let mut lp = self.lp.clone();
        let mut items = Vec::new();
        loop {
            let req = self.request().list(&lp).map_err(|e| self.unbuildable(e))?;
            let mut page: Value = self.session.send(self.grant, req).await?;
            if let Some(Value::Array(a)) = page.get_mut("items").map(Value::take) {
                items.extend(
                    a.into_iter()
                        .map(|i| with_type_meta_keeping(i, self.t, self.keep_managed_fields)),
                );
            }
            match page
                .pointer("/metadata/continue")
                .and_then(Value::as_str)
                .filter(|c| !c.is_empty())
            {
                Some(c) => lp.continue_token = Some(c.to_string()),
                None => return Ok(items),
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
