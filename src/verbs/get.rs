//! `get`: resolve TYPE, pass the gate (plugin.yaml boundary, then a SelfSubjectAccessReview
//! for exactly `get` or `list`), then fetch and print — a server-side Table for `-o
//! table|wide`, the objects for `-o json|yaml|name`.

use kube::Resource;
use kube::api::{DynamicObject, GetParams, ListParams};
use serde_json::{Map, Value};

use crate::authz::{AccessRequest, Gate, check_boundary, check_verb};
use crate::cli::{GetArgs, OutputFormat};
use crate::cluster::table::{self, TABLE_ACCEPT, Table, TableOptions};
use crate::cluster::{ApiError, Cluster, ResolvedType, TypeIndex, connect};
use crate::config::Verb;
use crate::crds::Registry;
use crate::output::{Printer, to_json, to_yaml};
use crate::settings::Settings;
use crate::verbs::VerbError;

/// What `get` was asked for, after splitting `TYPE NAME…` / `TYPE/NAME…` (pure).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// The TYPE as typed.
    pub type_name: String,
    /// Object names; empty = list the collection.
    pub names: Vec<String>,
}

/// Splits the positional arguments like kubectl: `TYPE [NAME…]` or `TYPE/NAME…` (all of one TYPE).
///
/// # Errors
/// A usage message for mixed forms, several TYPEs, or empty parts.
pub fn parse_target(args: &[String]) -> Result<Target, String> {
    let first = args.first().ok_or("get needs a TYPE, e.g. `get pods`")?;
    if first.contains('/') {
        let mut type_name: Option<&str> = None;
        let mut names = Vec::new();
        for a in args {
            let (t, n) = a.split_once('/').ok_or_else(|| {
                format!(
                    "{a:?}: mix of TYPE/NAME and plain arguments; use TYPE/NAME for every object"
                )
            })?;
            if t.is_empty() || n.is_empty() || n.contains('/') {
                return Err(format!("{a:?} is not TYPE/NAME"));
            }
            match type_name {
                Some(prev) if !prev.eq_ignore_ascii_case(t) => {
                    return Err(format!(
                        "objects of several types ({prev}, {t}) in one call are not supported yet; run get once per TYPE"
                    ));
                }
                Some(_) => {}
                None => type_name = Some(t),
            }
            names.push(n.to_string());
        }
        check_names(&names)?;
        return Ok(Target {
            type_name: type_name.unwrap_or_default().to_string(),
            names,
        });
    }
    if first.contains(',') {
        return Err(format!(
            "several TYPEs ({first}) in one call are not supported yet; run get once per TYPE"
        ));
    }
    if let Some(bad) = args[1..].iter().find(|a| a.contains('/')) {
        return Err(format!(
            "{bad:?}: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form"
        ));
    }
    check_names(&args[1..])?;
    Ok(Target {
        type_name: first.clone(),
        names: args[1..].to_vec(),
    })
}

/// Refuses names that cannot be one path segment of the request URL, so the request sent
/// is exactly the one the SelfSubjectAccessReview approved: Kubernetes forbids `.`, `..`,
/// `/` and `%` in names (apimachinery `path.IsValidPathSegmentName`); `?`, `#`, spaces and
/// control characters would change the URL's meaning.
fn check_names(names: &[String]) -> Result<(), String> {
    for n in names {
        let bad = n.is_empty()
            || n == "."
            || n == ".."
            || n.chars().any(|c| matches!(c, '/' | '%' | '?' | '#') || c.is_whitespace() || c.is_control());
        if bad {
            return Err(format!("invalid object name {n:?}: a name may not be empty, \".\" or \"..\", nor contain '/', '%', '?', '#' or spaces"));
        }
    }
    Ok(())
}

/// Runs `get`. `resource_label` receives the resolved `plural.group` as soon as TYPE
/// resolves, for the metric `resource` label (never raw user input).
///
/// # Errors
/// [`VerbError`]: usage (2), denied (3), not found (4), API or network failures (1).
pub async fn run(
    s: &Settings,
    args: &GetArgs,
    p: &mut Printer<'_>,
    resource_label: &mut Option<String>,
) -> Result<(), VerbError> {
    let target = parse_target(&args.args).map_err(VerbError::Usage)?;
    if args.all_namespaces && !target.names.is_empty() {
        return Err(VerbError::Usage(
            "a resource cannot be retrieved by name across all namespaces; drop -A or the names"
                .into(),
        ));
    }
    check_verb(&s.plugin, Verb::Get)?;
    let cluster = connect(&s.kube).await?;
    let index = TypeIndex::fetch(&cluster.client)
        .await
        .map_err(|e| ApiError::from_kube(e, &cluster.server))?;
    let t = index.resolve(&target.type_name)?.clone();
    *resource_label = Some(t.group_resource());
    let trace = |p: &mut Printer<'_>, line: String| {
        if s.verbose > 0 {
            p.err_line(&format!("I {line}"));
        }
    };
    trace(p, format!("{} resolved to {}/{} (namespaced: {})", target.type_name, t.group_resource(), t.api.version, t.namespaced));

    // The registry only adds CRDs to the boundary; if it is unreadable, go on without them.
    let registered = match Registry::load(&s.home) {
        Ok(r) => r.names(),
        Err(e) => {
            p.err_line(&format!("warning: {e}"));
            Vec::new()
        }
    };
    check_boundary(&s.plugin, &registered, Verb::Get, &t, args.all_namespaces)?;
    let namespace = (t.namespaced && !args.all_namespaces).then(|| cluster.namespace.clone());
    let gate = Gate::new(&cluster);
    let ask = |verb: &str, name: Option<&String>| AccessRequest {
        verb: verb.into(),
        group: t.api.group.clone(),
        resource: t.api.plural.clone(),
        subresource: None,
        namespace: namespace.clone(),
        name: name.cloned(),
    };
    if target.names.is_empty() {
        gate.check(&ask("list", None)).await?;
        trace(p, format!("SelfSubjectAccessReview: list {} allowed", t.group_resource()));
    } else {
        for n in &target.names {
            gate.check(&ask("get", Some(n))).await?;
            trace(p, format!("SelfSubjectAccessReview: get {}/{n} allowed", t.group_resource()));
        }
    }

    let url = DynamicObject::url_path(&t.api, namespace.as_deref());
    trace(p, format!("GET {}{url}", cluster.server));
    let mut lp = ListParams::default();
    lp.label_selector = args.selector.clone();
    lp.field_selector = args.field_selector.clone();
    if args.chunk_size > 0 {
        lp.limit = Some(args.chunk_size);
    }
    let fetch = Fetch {
        cluster: &cluster,
        t: &t,
        url: &url,
        lp: &lp,
    };
    let mut missing: Vec<ApiError> = Vec::new();
    match args.output {
        OutputFormat::Table | OutputFormat::Wide => {
            let mut all = Table::default();
            if target.names.is_empty() {
                all = fetch.table_list().await?;
            } else {
                for n in &target.names {
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
            if all.rows.is_empty() {
                if target.names.is_empty() && !args.ignore_not_found {
                    p.err_line(&no_resources(namespace.as_deref()));
                }
            } else {
                let opts = TableOptions {
                    wide: args.output == OutputFormat::Wide,
                    with_namespace: args.all_namespaces && t.namespaced,
                    show_labels: args.show_labels,
                    no_headers: args.no_headers,
                };
                p.out(&table::render(&all, opts))?;
            }
        }
        OutputFormat::Json | OutputFormat::Yaml | OutputFormat::Name => {
            let mut items = Vec::new();
            if target.names.is_empty() {
                items = fetch.objects().await?;
            } else {
                for n in &target.names {
                    match fetch.object(n).await {
                        Ok(o) => items.push(o),
                        Err(e) if e.code() == Some(404) => missing.push(e),
                        Err(e) => return Err(e.into()),
                    }
                }
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
                let doc = if target.names.len() == 1 && items.len() == 1 {
                    items.remove(0)
                } else if !target.names.is_empty() && items.is_empty() {
                    Value::Null
                } else {
                    list_of(items)
                };
                if !doc.is_null() {
                    let text = if args.output == OutputFormat::Json {
                        to_json(&doc)?
                    } else {
                        to_yaml(&doc)?
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

/// kubectl's message for an empty list (printed on stderr; exit 0).
pub fn no_resources(namespace: Option<&str>) -> String {
    match namespace {
        Some(ns) => format!("No resources found in {ns} namespace."),
        None => "No resources found".to_string(),
    }
}

/// Wraps items in a `v1 List`, as kubectl does for collections.
pub fn list_of(items: Vec<Value>) -> Value {
    serde_json::json!({"apiVersion": "v1", "items": items, "kind": "List", "metadata": {"resourceVersion": ""}})
}

/// Puts `apiVersion` and `kind` first in an object (list items from the server omit them
/// for built-in types; kubectl adds them back) and drops `metadata.managedFields`, as
/// kubectl does unless `--show-managed-fields`.
pub fn with_type_meta(item: Value, t: &ResolvedType) -> Value {
    let Value::Object(mut rest) = item else {
        return item;
    };
    if let Some(Value::Object(meta)) = rest.get_mut("metadata") {
        meta.remove("managedFields");
    }
    let mut m = Map::new();
    m.insert(
        "apiVersion".into(),
        Value::String(t.api.api_version.clone()),
    );
    m.insert("kind".into(), Value::String(t.api.kind.clone()));
    for (k, v) in rest {
        if k != "apiVersion" && k != "kind" {
            m.insert(k, v);
        }
    }
    Value::Object(m)
}

/// The requests of one `get`, built with kube-core's request builder.
struct Fetch<'a> {
    cluster: &'a Cluster,
    t: &'a ResolvedType,
    url: &'a str,
    lp: &'a ListParams,
}

impl Fetch<'_> {
    fn err(&self, e: kube::Error) -> ApiError {
        ApiError::from_kube(e, &self.cluster.server)
    }

    fn request(&self) -> kube::core::Request {
        kube::core::Request::new(self.url)
    }

    async fn send_table(&self, mut req: http::Request<Vec<u8>>) -> Result<Table, ApiError> {
        let uri = req.uri().to_string();
        let sep = if uri.contains('?') { '&' } else { '?' };
        *req.uri_mut() = format!("{uri}{sep}includeObject=Metadata")
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
        self.cluster
            .client
            .request::<Table>(req)
            .await
            .map_err(|e| self.err(e))
    }

    async fn table_list(&self) -> Result<Table, ApiError> {
        let mut lp = self.lp.clone();
        let mut all = Table::default();
        loop {
            let req = self
                .request()
                .list(&lp)
                .map_err(|e| self.err(kube::Error::BuildRequest(e)))?;
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
            .map_err(|e| self.err(kube::Error::BuildRequest(e)))?;
        self.send_table(req).await
    }

    async fn objects(&self) -> Result<Vec<Value>, ApiError> {
        let mut lp = self.lp.clone();
        let mut items = Vec::new();
        loop {
            let req = self
                .request()
                .list(&lp)
                .map_err(|e| self.err(kube::Error::BuildRequest(e)))?;
            let mut page: Value = self
                .cluster
                .client
                .request(req)
                .await
                .map_err(|e| self.err(e))?;
            if let Some(Value::Array(a)) = page.get_mut("items").map(Value::take) {
                items.extend(a.into_iter().map(|i| with_type_meta(i, self.t)));
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
            .map_err(|e| self.err(kube::Error::BuildRequest(e)))?;
        let v: Value = self
            .cluster
            .client
            .request(req)
            .await
            .map_err(|e| self.err(e))?;
        Ok(with_type_meta(v, self.t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn parses_type_names_and_type_slash_name_forms() {
        assert_eq!(
            parse_target(&s(&["pods"])).unwrap(),
            Target {
                type_name: "pods".into(),
                names: vec![]
            }
        );
        assert_eq!(
            parse_target(&s(&["po", "a", "b"])).unwrap(),
            Target {
                type_name: "po".into(),
                names: s(&["a", "b"])
            }
        );
        assert_eq!(
            parse_target(&s(&["pod/a", "Pod/b"])).unwrap(),
            Target {
                type_name: "pod".into(),
                names: s(&["a", "b"])
            }
        );
    }

    #[test]
    fn rejects_mixed_forms_and_several_types() {
        assert!(
            parse_target(&s(&["pod/a", "b"]))
                .unwrap_err()
                .contains("TYPE/NAME")
        );
        assert!(
            parse_target(&s(&["pods", "deploy/b"]))
                .unwrap_err()
                .contains("resource/name form")
        );
        assert!(
            parse_target(&s(&["pod/a", "deploy/b"]))
                .unwrap_err()
                .contains("several types")
        );
        assert!(
            parse_target(&s(&["pods,deploy"]))
                .unwrap_err()
                .contains("several TYPEs")
        );
        assert!(
            parse_target(&s(&["pod/"]))
                .unwrap_err()
                .contains("not TYPE/NAME")
        );
        assert!(parse_target(&[]).is_err());
    }

    #[test]
    fn names_that_would_change_the_request_url_are_refused() {
        for bad in ["?", "web-1?x", "a#b", "..", ".", "a%2F", "a b", ""] {
            let e = parse_target(&s(&["pods", bad])).unwrap_err();
            assert!(e.starts_with("invalid object name"), "{bad:?}: {e}");
            assert!(parse_target(&s(&[&format!("pod/{bad}")])).is_err(), "{bad:?}");
        }
        assert!(parse_target(&s(&["clusterroles", "system:basic-user", "a.b-c_d@e"])).is_ok());
    }

    #[test]
    fn list_items_get_type_meta_first() {
        let t = ResolvedType {
            api: kube::discovery::ApiResource {
                group: "apps".into(),
                version: "v1".into(),
                api_version: "apps/v1".into(),
                kind: "Deployment".into(),
                plural: "deployments".into(),
            },
            namespaced: true,
            singular: "deployment".into(),
            short_names: vec![],
            categories: vec![],
            verbs: vec![],
            preferred: true,
        };
        let v = with_type_meta(
            serde_json::json!({"metadata": {"name": "x"}, "spec": {}}),
            &t,
        );
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["apiVersion", "kind", "metadata", "spec"]);
        assert_eq!(
            no_resources(Some("a")),
            "No resources found in a namespace."
        );
    }
}
