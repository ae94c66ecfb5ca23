//! `auth can-i` and `auth matrix`: what RBAC lets the caller do, asked through the very
//! gate the verbs pass ([`Session::decide`], the decision behind [`Session::authorize`]), so the
//! answer is the one `get`/`patch` would get — same SelfSubjectAccessReview body, same
//! namespace rule, same `--as`/`--as-group` impersonation.
//!
//! `can-i` follows kubectl (`pkg/cmd/auth/cani.go`): `VERB TYPE [NAME]` or `VERB TYPE/NAME`,
//! `-A` asks cluster-wide, `--subresource`, `-q`; it prints `yes`, or `no` (`no - <reason>` when the server gives one). It is
//! purely RBAC, like kubectl's. Two deliberate differences:
//! - exit 3 on `no` (our "denied" code; kubectl exits 1), and an unknown TYPE is exit 2
//!   (kubectl only warns and asks anyway);
//! - a cluster-scoped TYPE is asked at cluster scope, without the namespace, because that
//!   is the request the verbs make (kubectl sends the namespace and warns).
//!
//! When RBAC says yes but plugin.yaml would refuse the plugin verb that makes that request
//! (`get` for get/list/watch, `patch` for patch), the line says so:
//! `yes (outside plugin.yaml: configmaps not in resources)`. Other RBAC verbs (create,
//! delete, …) have no plugin verb and get no note.
//!
//! Also as kubectl: `can-i impersonate users|groups|uids|userextras[/KEY]` asks about the
//! impersonation resources the API server's impersonation filter checks (users, groups in the
//! core group; uids, userextras/KEY in `authentication.k8s.io`,
//! <https://kubernetes.io/docs/reference/access-authn-authz/authentication/#user-impersonation>)
//! at cluster scope, never a custom resource that happens to have that plural; a NONRESOURCEURL
//! (`can-i get /healthz`) is a review with `nonResourceAttributes`; a TYPE outside the core group
//! is named as `plural.group` on stderr. A review that could not be made (transport error, the
//! review itself forbidden) is exit 1 with that sentence, never a "no" — `-q` included.
//!
//! `can-i --list` prints the SelfSubjectRulesReview of the namespace like kubectl (rules broken
//! down, compacted and sorted as `k8s.io/kubectl/pkg/util/rbac`, laid out by Go's tabwriter),
//! keeping only what plugin.yaml lets this plugin do (wildcards narrowed to the boundary's
//! types and verbs); one stderr line counts the rules hidden. `whoami` prints the
//! SelfSubjectReview as kubectl's `pkg/cmd/auth/whoami.go` does (table, `-o json|yaml`).
//!
//! `matrix` asks every plugin.yaml resource (plus CRDs registered by `crds sync`) × every RBAC
//! verb of the plugin's verbs, concurrently (at most 8 reviews in flight), and adds a BOUNDARY
//! column: `ok` or why plugin.yaml refuses the row.

use futures::stream::{self, StreamExt};
use k8s_openapi::api::authentication::v1::{SelfSubjectReview, UserInfo};
use k8s_openapi::api::authorization::v1::SubjectRulesReviewStatus;
use serde_json::{Map, Value};

use crate::authz::{AccessRequest, GateError, KNOWN_VERBS};
use crate::cli::{AuthCommand, CanIArgs, MatrixArgs, WhoamiArgs, WhoamiFormat};
use crate::cluster::ResolvedType;
use crate::config::Verb;
use crate::echo::quoted;
use crate::exit::ExitStatus;
use crate::guard::session::NO_RULE_REASON;
use crate::guard::target::check_type;
use crate::guard::{Purpose, Session, check_names};
use crate::output::table::OwnTable;
use crate::output::{Layout, Printer};
use crate::settings::Settings;
use crate::verbs::VerbError;

/// How many SelfSubjectAccessReviews `auth matrix` keeps in flight.
const CONCURRENCY: usize = 8;

/// Runs `auth can-i` or `auth matrix`. The `Ok` value is the exit status: `can-i` answers
/// [`ExitStatus::Denied`] (3) for "no" after printing the answer, which is not a failure to
/// report.
///
/// # Errors
/// [`VerbError`]: bad arguments or unknown TYPE (2), review or API failures (1).
pub async fn run(
    s: &Settings,
    cmd: &AuthCommand,
    p: &mut Printer<'_>,
) -> Result<ExitStatus, VerbError> {
    match cmd {
        AuthCommand::CanI(a) if a.list => can_i_list(s, a, p).await.map(|()| ExitStatus::Success),
        AuthCommand::CanI(a) => can_i(s, a, p).await,
        AuthCommand::Matrix(a) => matrix(s, a, p).await.map(|()| ExitStatus::Success),
        AuthCommand::Whoami(a) => whoami(s, a, p).await.map(|()| ExitStatus::Success),
    }
}

/// The RBAC verbs the requests of a plugin verb need: `get` asks `get` (named), `list`
/// (collection) or `watch` (`-w`); `patch` asks `patch`.
pub fn rbac_verbs(v: Verb) -> &'static [&'static str] {
    match v {
        Verb::Get => &["get", "list", "watch"],
        Verb::Patch => &["patch"],
    }
}

/// The plugin verb that would send a request needing RBAC verb `rbac`, if any.
pub fn plugin_verb(rbac: &str) -> Option<Verb> {
    match rbac {
        "get" | "list" | "watch" => Some(Verb::Get),
        "patch" => Some(Verb::Patch),
        _ => None,
    }
}

/// The matrix columns for plugin.yaml `verbs`: their RBAC verbs in order, without repeats.
pub fn matrix_verbs(verbs: &[Verb]) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for v in verbs {
        for r in rbac_verbs(*v) {
            if !out.contains(r) {
                out.push(r);
            }
        }
    }
    out
}

/// Why plugin.yaml refuses, in a few words (the full message of `e` names the key to change).
pub fn boundary_reason(e: &GateError) -> String {
    match e {
        GateError::VerbOutsideBoundary { verb, .. } => format!("verb {verb} not in verbs"),
        GateError::ResourceOutsideBoundary { resource, .. } => {
            format!("{resource} not in resources")
        }
        GateError::ScopeOutsideBoundary { what, scope, .. } => {
            format!("{what} needs scope {scope}")
        }
        other => other.to_string(),
    }
}

/// The line `can-i` prints: `yes`, `yes (outside plugin.yaml: …)`, `no - <reason>`, or a
/// bare `no` when the server gave no reason (kubectl's `cani.go` prints the same).
pub fn answer_line(decision: &Result<(), String>, outside: Option<&str>) -> String {
    match (decision, outside) {
        (Ok(()), None) => "yes".to_string(),
        (Ok(()), Some(why)) => format!("yes (outside plugin.yaml: {why})"),
        (Err(reason), _) if reason.is_empty() || reason == NO_RULE_REASON => "no".to_string(),
        (Err(reason), _) => format!("no - {reason}"),
    }
}

/// Refuses a VERB that no RBAC rule can name usefully and that would only be echoed back:
/// one longer than [`crate::validate::MAX_NAME_BYTES`] or with spaces or control characters.
/// RBAC verbs are free strings (kubectl only warns about unknown ones, and so do we); these are
/// the ones that are certainly typos or hostile (issue 10, class 6).
///
/// # Errors
/// A usage message with the verb escaped and capped.
pub fn check_verb_text(verb: &str) -> Result<(), String> {
    if verb.len() > crate::validate::MAX_NAME_BYTES
        || verb.chars().any(|c| c.is_whitespace() || c.is_control())
    {
        return Err(format!(
            "invalid VERB {}: an RBAC verb is a short word such as get, list, watch, create, update, patch or delete",
            quoted(verb)
        ));
    }
    Ok(())
}

/// Splits `TYPE [NAME]` / `TYPE/NAME` (pure).
///
/// # Errors
/// A usage message for an empty part, a second `/`, a name given twice, or a TYPE or NAME
/// the API server could never accept ([`check_type`], [`check_names`]).
pub fn parse_can_i_target(
    resource: &str,
    name: Option<&str>,
) -> Result<(String, Option<String>), String> {
    let (t, n) = match resource.split_once('/') {
        Some((t, n)) => {
            if name.is_some() {
                return Err(format!(
                    "{} already names an object; give TYPE NAME or TYPE/NAME, not both",
                    quoted(resource)
                ));
            }
            if n.is_empty() || n.contains('/') {
                return Err(format!("{} is not TYPE/NAME", quoted(resource)));
            }
            (t, Some(n.to_string()))
        }
        None => (resource, name.map(str::to_string)),
    };
    if t.is_empty() {
        return Err("auth can-i needs a TYPE, e.g. `auth can-i list pods`".into());
    }
    if n.as_deref() == Some("") {
        return Err("the object NAME is empty".into());
    }
    check_type(t)?;
    if let Some(n) = &n {
        check_names(std::slice::from_ref(n))?;
    }
    Ok((t.to_string(), n))
}

/// What `auth can-i` asks about, decided from the arguments alone (pure).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CanITarget {
    /// A TYPE to resolve through discovery, with an optional object name.
    Resource {
        /// TYPE as typed.
        type_name: String,
        /// The object name, if any.
        name: Option<String>,
    },
    /// One of the impersonation resources (`impersonate users|groups|uids|userextras`),
    /// asked at cluster scope without discovery.
    Impersonation {
        /// `""` for users and groups, `authentication.k8s.io` for uids and userextras.
        group: &'static str,
        /// `users`, `groups`, `uids` or `userextras`.
        resource: &'static str,
        /// The extra key of `userextras/KEY` (or `--subresource`).
        subresource: Option<String>,
        /// The user, group, uid or extra value, if given.
        name: Option<String>,
    },
    /// A non-resource URL such as `/healthz`.
    NonResource(String),
}

/// The longest non-resource URL `can-i` sends (bytes); a longer one is a usage error.
pub const MAX_URL_BYTES: usize = 2048;

/// The impersonation resources of the API server's impersonation filter, by the word
/// `can-i impersonate` takes: (group, resource). Source: k8s.io/apiserver
/// `pkg/endpoints/filters/impersonation.go` and the user-impersonation docs.
pub fn impersonation_resource(word: &str) -> Option<(&'static str, &'static str)> {
    match word {
        "users" => Some(("", "users")),
        "groups" => Some(("", "groups")),
        "uids" => Some(("authentication.k8s.io", "uids")),
        "userextras" => Some(("authentication.k8s.io", "userextras")),
        _ => None,
    }
}

/// Decides what `can-i VERB TARGET [NAME] [--subresource S]` asks (pure).
///
/// # Errors
/// A usage message for a URL given with a NAME or `--subresource`, a URL with spaces or
/// control characters or longer than [`MAX_URL_BYTES`], an extra key given twice, and every
/// error of [`parse_can_i_target`].
pub fn classify_can_i(
    verb: &str,
    target: &str,
    name: Option<&str>,
    subresource: Option<&str>,
) -> Result<CanITarget, String> {
    if target.starts_with('/') {
        if name.is_some() {
            return Err(
                "a NONRESOURCEURL and a NAME cannot be given together; ask `can-i VERB /path`"
                    .into(),
            );
        }
        if subresource.is_some() {
            return Err("--subresource cannot be used with a NONRESOURCEURL".into());
        }
        if target.len() > MAX_URL_BYTES
            || target.chars().any(|c| c.is_whitespace() || c.is_control())
        {
            return Err(format!(
                "invalid NONRESOURCEURL {}: give a path such as /healthz or /metrics",
                quoted(target)
            ));
        }
        return Ok(CanITarget::NonResource(target.to_string()));
    }
    if verb == "impersonate" {
        let (word, rest) = match target.split_once('/') {
            Some((w, r)) => (w, Some(r)),
            None => (target, None),
        };
        if let Some((group, resource)) = impersonation_resource(word) {
            if rest == Some("") || rest.is_some_and(|r| r.contains('/')) {
                return Err(format!("{} is not TYPE/NAME", quoted(target)));
            }
            let (subresource, name) = if resource == "userextras" {
                if rest.is_some() && subresource.is_some() {
                    return Err(
                        "the extra key is given twice: use userextras/KEY or --subresource KEY"
                            .into(),
                    );
                }
                (
                    rest.map(str::to_string).or(subresource.map(str::to_string)),
                    name.map(str::to_string),
                )
            } else {
                if rest.is_some() && name.is_some() {
                    return Err(format!(
                        "{} already names an object; give TYPE NAME or TYPE/NAME, not both",
                        quoted(target)
                    ));
                }
                (
                    subresource.map(str::to_string),
                    rest.or(name).map(str::to_string),
                )
            };
            if let Some(n) = &name
                && (n.is_empty() || n.len() > MAX_URL_BYTES || n.chars().any(char::is_control))
            {
                return Err(format!("invalid impersonation NAME {}", quoted(n)));
            }
            return Ok(CanITarget::Impersonation {
                group,
                resource,
                subresource,
                name,
            });
        }
    }
    let (type_name, name) = parse_can_i_target(target, name)?;
    Ok(CanITarget::Resource { type_name, name })
}

/// The stderr line naming the resource actually asked about when it is outside the core group
/// and the user did not type it that way (`resource "deploy" is deployments.apps`), so a short
/// name resolving to a custom resource is never silent. `None` for the core group.
pub fn resolved_note(typed: &str, group: &str, group_resource: &str) -> Option<String> {
    (!group.is_empty() && typed != group_resource)
        .then(|| format!("resource {} is {group_resource}", quoted(typed)))
}

async fn can_i(s: &Settings, a: &CanIArgs, p: &mut Printer<'_>) -> Result<ExitStatus, VerbError> {
    if a.no_headers {
        return Err(VerbError::Usage(
            "--no-headers cannot be set without --list".into(),
        ));
    }
    let verb = a.verb.clone().unwrap_or_default();
    let target = a.resource.clone().unwrap_or_default();
    if verb.is_empty() {
        return Err(VerbError::Usage(
            "auth can-i needs a VERB, e.g. `auth can-i list pods`".into(),
        ));
    }
    check_verb_text(&verb).map_err(VerbError::Usage)?;
    let subresource = a.subresource.as_deref().filter(|x| !x.is_empty());
    let what =
        classify_can_i(&verb, &target, a.name.as_deref(), subresource).map_err(VerbError::Usage)?;
    if let (Some(sr), CanITarget::Resource { .. }) = (subresource, &what) {
        check_type(sr).map_err(|_| {
            VerbError::Usage(format!(
                "invalid --subresource {}: a subresource is a resource name such as status, scale or log",
                quoted(sr)
            ))
        })?;
    }
    let known = match &what {
        CanITarget::NonResource(_) => NON_RESOURCE_VERBS.contains(&verb.as_str()),
        _ => KNOWN_VERBS.contains(&verb.as_str()),
    };
    if !known {
        p.err_line(&format!(
            "Warning: verb {} is not a known verb",
            quoted(&verb)
        ));
    }
    let session = Session::open(s, p, Purpose::Read).await?;
    let (decision, outside) = match what {
        CanITarget::NonResource(path) => (session.decide_non_resource(&verb, &path).await?, None),
        CanITarget::Impersonation {
            group,
            resource,
            subresource,
            name,
        } => {
            let req = AccessRequest {
                verb: verb.clone(),
                group: group.to_string(),
                resource: resource.to_string(),
                subresource,
                namespace: None,
                name,
            };
            if !a.quiet
                && let Some(note) = resolved_note(resource, group, &format!("{resource}.{group}"))
            {
                p.err_line(&note);
            }
            (session.decide(&req).await?, None)
        }
        CanITarget::Resource { type_name, name } => {
            let t = session.resolve(&type_name).await?;
            if !a.quiet
                && let Some(note) = resolved_note(&type_name, &t.api.group, &t.group_resource())
            {
                p.err_line(&note);
            }
            if !t.namespaced && !a.all_namespaces && s.kube.namespace.is_some() {
                p.err_line(&format!(
                    "Warning: resource '{}' is not namespace scoped; asking at cluster scope",
                    t.group_resource()
                ));
            }
            let req = AccessRequest {
                verb: verb.clone(),
                group: t.api.group.clone(),
                resource: t.api.plural.clone(),
                subresource: subresource.map(str::to_string),
                namespace: session.namespace_for(&t, a.all_namespaces),
                name,
            };
            let decision = session.decide(&req).await?;
            let outside = match (&decision, plugin_verb(&verb)) {
                (Ok(()), Some(v)) => session
                    .boundary(v, &t, a.all_namespaces)
                    .err()
                    .map(|e| boundary_reason(&e)),
                _ => None,
            };
            (decision, outside)
        }
    };
    if !a.quiet {
        p.out(&format!("{}\n", answer_line(&decision, outside.as_deref())))?;
    }
    Ok(match decision {
        Ok(()) => ExitStatus::Success,
        Err(_) => ExitStatus::Denied,
    })
}

/// The verbs kubectl knows for non-resource URLs (`cani.go` `nonResourceURLVerbs`); any other
/// is asked after a warning.
pub const NON_RESOURCE_VERBS: &[&str] = &[
    "get", "put", "post", "head", "options", "delete", "patch", "*",
];

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
    /// (the column is then left out, so the table reads as before issue 16).
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
            r.resource == "*" || crate::policy::entry_names(&r.resource, plural, group)
        })
        .map(|(i, _)| i.to_string())
        .collect();
    Some(if hits.is_empty() {
        "-".to_string()
    } else {
        format!("policies[{}]", hits.join(","))
    })
}

/// The rows to ask about: plugin.yaml `resources`, then registered CRDs, without repeats.
pub fn matrix_entries(resources: &[String], registered: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for r in resources.iter().chain(registered) {
        if !out.contains(r) {
            out.push(r.clone());
        }
    }
    out
}

async fn matrix(s: &Settings, a: &MatrixArgs, p: &mut Printer<'_>) -> Result<(), VerbError> {
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

/// One policy rule as kubectl's `auth can-i --list` handles it (`rbacv1.PolicyRule` without
/// the fields a rules review never fills).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rule {
    /// RBAC verbs.
    pub verbs: Vec<String>,
    /// API groups (`""` = core, `*` = any).
    pub groups: Vec<String>,
    /// Resources (`*` = any, `pods/log` = a subresource).
    pub resources: Vec<String>,
    /// Resource names (empty = any).
    pub names: Vec<String>,
    /// Non-resource URLs.
    pub urls: Vec<String>,
}

impl Rule {
    /// Go's `PolicyRule.String()` (k8s.io/api rbac/v1 generated.pb.go), kubectl's sort key.
    pub fn go_string(&self) -> String {
        format!(
            "&PolicyRule{{Verbs:{},APIGroups:{},Resources:{},ResourceNames:{},NonResourceURLs:{},}}",
            go_list(&self.verbs),
            go_list(&self.groups),
            go_list(&self.resources),
            go_list(&self.names),
            go_list(&self.urls)
        )
    }
}

/// A string slice as Go's `%v` prints it: `[a b c]`.
pub fn go_list(items: &[String]) -> String {
    format!("[{}]", items.join(" "))
}

/// The rules of a SelfSubjectRulesReview status, resource rules first (kubectl's
/// `convertToPolicyRule`).
pub fn rules_of(status: &SubjectRulesReviewStatus) -> Vec<Rule> {
    let mut out: Vec<Rule> = status
        .resource_rules
        .iter()
        .map(|r| Rule {
            verbs: r.verbs.clone(),
            groups: r.api_groups.clone().unwrap_or_default(),
            resources: r.resources.clone().unwrap_or_default(),
            names: r.resource_names.clone().unwrap_or_default(),
            urls: Vec::new(),
        })
        .collect();
    out.extend(status.non_resource_rules.iter().map(|r| Rule {
        verbs: r.verbs.clone(),
        urls: r.non_resource_urls.clone().unwrap_or_default(),
        ..Rule::default()
    }));
    out
}

/// kubectl's `rbac.BreakdownRule`: one rule per group × resource × verb (× name), then per
/// URL × verb.
pub fn breakdown(rule: &Rule) -> Vec<Rule> {
    let mut out = Vec::new();
    for g in &rule.groups {
        for r in &rule.resources {
            for v in &rule.verbs {
                let one = |names: Vec<String>| Rule {
                    verbs: vec![v.clone()],
                    groups: vec![g.clone()],
                    resources: vec![r.clone()],
                    names,
                    urls: Vec::new(),
                };
                if rule.names.is_empty() {
                    out.push(one(Vec::new()));
                } else {
                    out.extend(rule.names.iter().map(|n| one(vec![n.clone()])));
                }
            }
        }
    }
    for u in &rule.urls {
        for v in &rule.verbs {
            out.push(Rule {
                verbs: vec![v.clone()],
                urls: vec![u.clone()],
                ..Rule::default()
            });
        }
    }
    out
}

/// A type plugin.yaml lets this plugin use, with the RBAC verbs its plugin verbs need.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoundaryType {
    /// API group (`""` = core).
    pub group: String,
    /// Plural resource name.
    pub plural: String,
    /// RBAC verbs the allowed plugin verbs need on it ([`rbac_verbs`]).
    pub verbs: Vec<&'static str>,
}

/// Keeps of the broken-down rules only what the boundary allows: a rule on a boundary type
/// and one of its verbs is kept as is; a wildcard group, resource or verb is narrowed to the
/// boundary's types and verbs; subresource and non-resource rules, and rules on other types
/// or verbs, are dropped (no plugin verb makes those requests). Returns the kept rules (no
/// repeats, in order) and how many broken-down rules were not kept exactly as they were.
pub fn filter_rules(rules: &[Rule], boundary: &[BoundaryType]) -> (Vec<Rule>, usize) {
    let mut kept: Vec<Rule> = Vec::new();
    let mut hidden = 0;
    for rule in rules.iter().flat_map(breakdown) {
        let mut emitted: Vec<Rule> = Vec::new();
        if rule.urls.is_empty() {
            let (g, r, v) = (&rule.groups[0], &rule.resources[0], &rule.verbs[0]);
            for b in boundary {
                if !(g == "*" || *g == b.group) || !(r == "*" || *r == b.plural) {
                    continue;
                }
                let verbs: Vec<&str> = if v == "*" {
                    b.verbs.clone()
                } else {
                    b.verbs.iter().copied().filter(|x| x == v).collect()
                };
                for verb in verbs {
                    emitted.push(Rule {
                        verbs: vec![verb.to_string()],
                        groups: vec![b.group.clone()],
                        resources: vec![b.plural.clone()],
                        names: rule.names.clone(),
                        urls: Vec::new(),
                    });
                }
            }
        }
        if emitted.len() != 1 || emitted[0] != rule {
            hidden += 1;
        }
        for e in emitted {
            if !kept.contains(&e) {
                kept.push(e);
            }
        }
    }
    (kept, hidden)
}

/// kubectl's `rbac.CompactRules` for broken-down resource rules (one group, resource and at
/// most one name each): rules on the same group, resource and name merge their verbs in
/// order; then sorted by Go's `PolicyRule.String()` as `SortableRuleSlice`.
pub fn compact_and_sort(rules: &[Rule]) -> Vec<Rule> {
    let mut out: Vec<Rule> = Vec::new();
    for r in rules {
        match out.iter_mut().find(|o| {
            r.urls.is_empty()
                && o.urls.is_empty()
                && o.groups == r.groups
                && o.resources == r.resources
                && o.names == r.names
        }) {
            Some(o) => {
                for v in &r.verbs {
                    if !o.verbs.contains(v) {
                        o.verbs.push(v.clone());
                    }
                }
            }
            None => out.push(r.clone()),
        }
    }
    out.sort_by_cached_key(Rule::go_string);
    out
}

/// kubectl's `describe.CombineResourceGroup`: `pods`, `deployments.apps`,
/// `deployments.apps/scale`; empty for a non-resource rule.
pub fn combine_resource_group(resources: &[String], groups: &[String]) -> String {
    let Some(first) = resources.first() else {
        return String::new();
    };
    let (base, sub) = match first.split_once('/') {
        Some((b, s)) => (b, Some(s)),
        None => (first.as_str(), None),
    };
    let mut out = base.to_string();
    if let Some(g) = groups.first().filter(|g| !g.is_empty()) {
        out = format!("{out}.{g}");
    }
    if let Some(s) = sub {
        out = format!("{out}/{s}");
    }
    out
}

/// Lines laid out as kubectl's `printers.GetNewTabWriter` (Go `text/tabwriter`, minwidth 6,
/// padding 3, pad ' '): every cell but a line's last is padded to its column's width
/// (the widest cell + 3, at least 6; widths in characters); the last cell is written as is.
pub fn go_tabwriter(lines: &[Vec<String>]) -> String {
    crate::output::go_tab(lines)
}

/// The `can-i --list` table as kubectl prints it (header unless `no_headers`).
pub fn rules_table(rules: &[Rule], no_headers: bool) -> String {
    let (header, rows) = rules_cells(rules, no_headers);
    let mut lines: Vec<Vec<String>> = header.into_iter().collect();
    lines.extend(rows);
    go_tabwriter(&lines)
}

/// The cells of [`rules_table`]: the header (unless `no_headers`) and one row per rule.
pub fn rules_cells(rules: &[Rule], no_headers: bool) -> (Option<Vec<String>>, Vec<Vec<String>>) {
    let header = (!no_headers).then(|| {
        ["Resources", "Non-Resource URLs", "Resource Names", "Verbs"]
            .map(String::from)
            .to_vec()
    });
    let rows = rules
        .iter()
        .map(|r| {
            vec![
                combine_resource_group(&r.resources, &r.groups),
                go_list(&r.urls),
                go_list(&r.names),
                go_list(&r.verbs),
            ]
        })
        .collect();
    (header, rows)
}

/// The stderr line of `can-i --list` when rules were hidden.
pub fn hidden_note(hidden: usize) -> String {
    let rules = if hidden == 1 { "rule" } else { "rules" };
    format!(
        "{hidden} {rules} outside plugin.yaml (other verbs or resources, subresources, non-resource URLs, or wildcards narrowed) not shown; `kubectl auth can-i --list` shows them all"
    )
}

async fn can_i_list(s: &Settings, a: &CanIArgs, p: &mut Printer<'_>) -> Result<(), VerbError> {
    let session = Session::open(s, p, Purpose::Read).await?;
    let status = session.rules_review(session.namespace()).await?;
    let index = session.index().await?;
    let mut boundary: Vec<BoundaryType> = Vec::new();
    for entry in matrix_entries(&s.plugin.resources, session.registered()) {
        let Ok(t) = index.resolve(&entry) else {
            continue;
        };
        let mut verbs: Vec<&'static str> = Vec::new();
        for v in &s.plugin.verbs {
            if session.boundary(*v, t, false).is_ok() {
                for x in rbac_verbs(*v) {
                    if !verbs.contains(x) {
                        verbs.push(x);
                    }
                }
            }
        }
        let b = BoundaryType {
            group: t.api.group.clone(),
            plural: t.api.plural.clone(),
            verbs,
        };
        if !b.verbs.is_empty()
            && !boundary
                .iter()
                .any(|x| x.group == b.group && x.plural == b.plural)
        {
            boundary.push(b);
        }
    }
    if status.incomplete {
        p.err_line(&format!(
            "Warning: the list may be incomplete: {}",
            status.evaluation_error.clone().unwrap_or_default()
        ));
    }
    let (kept, hidden) = filter_rules(&rules_of(&status), &boundary);
    let (header, rows) = rules_cells(&compact_and_sort(&kept), a.no_headers);
    p.table("rules", header, rows, Layout::GoTab)?;
    if hidden > 0 {
        p.err_line(&hidden_note(hidden));
    }
    Ok(())
}

/// kubectl's `auth whoami` table: ATTRIBUTE/VALUE, then Username, UID, Groups and one
/// `Extra: KEY` line per extra (sorted), each only when set.
pub fn whoami_table(u: &UserInfo) -> String {
    let mut lines = vec![vec!["ATTRIBUTE".to_string(), "VALUE".to_string()]];
    if let Some(n) = u.username.as_ref().filter(|x| !x.is_empty()) {
        lines.push(vec!["Username".into(), n.clone()]);
    }
    if let Some(n) = u.uid.as_ref().filter(|x| !x.is_empty()) {
        lines.push(vec!["UID".into(), n.clone()]);
    }
    if let Some(g) = u.groups.as_ref().filter(|x| !x.is_empty()) {
        lines.push(vec!["Groups".into(), go_list(g)]);
    }
    for (k, v) in u.extra.iter().flatten() {
        lines.push(vec![format!("Extra: {k}"), go_list(v)]);
    }
    go_tabwriter(&lines)
}

/// The review as kubectl's JSON printer writes a typed object: Go struct field order (`kind`,
/// `apiVersion`, `metadata`, `status.userInfo` with `username`, `uid`, `groups`, `extra`),
/// empty fields left out.
///
/// # Errors
/// [`crate::output::OutputError`] if a part cannot be serialized.
pub fn whoami_value(r: &SelfSubjectReview) -> Result<Value, crate::output::OutputError> {
    let enc = |e: serde_json::Error| crate::output::OutputError::Encode(e.to_string());
    let mut top = Map::new();
    top.insert("kind".into(), "SelfSubjectReview".into());
    top.insert("apiVersion".into(), "authentication.k8s.io/v1".into());
    let mut meta = serde_json::to_value(&r.metadata).map_err(enc)?;
    if let Some(m) = meta.as_object_mut()
        && !m.contains_key("creationTimestamp")
    {
        m.insert("creationTimestamp".into(), Value::Null);
    }
    top.insert("metadata".into(), meta);
    let mut ui = Map::new();
    if let Some(u) = r.status.as_ref().and_then(|s| s.user_info.as_ref()) {
        if let Some(n) = u.username.as_ref().filter(|x| !x.is_empty()) {
            ui.insert("username".into(), n.clone().into());
        }
        if let Some(n) = u.uid.as_ref().filter(|x| !x.is_empty()) {
            ui.insert("uid".into(), n.clone().into());
        }
        if let Some(g) = u.groups.as_ref().filter(|x| !x.is_empty()) {
            ui.insert("groups".into(), serde_json::to_value(g).map_err(enc)?);
        }
        if let Some(x) = u.extra.as_ref().filter(|x| !x.is_empty()) {
            ui.insert("extra".into(), serde_json::to_value(x).map_err(enc)?);
        }
    }
    let mut status = Map::new();
    status.insert("userInfo".into(), Value::Object(ui));
    top.insert("status".into(), Value::Object(status));
    Ok(Value::Object(top))
}

/// `v` with every object's keys sorted (kubectl's YAML printer goes through JSON →
/// sigs.k8s.io/yaml, which sorts keys).
pub fn sorted_keys(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            Value::Object(
                keys.into_iter()
                    .map(|k| (k.clone(), sorted_keys(&m[k])))
                    .collect(),
            )
        }
        Value::Array(a) => Value::Array(a.iter().map(sorted_keys).collect()),
        other => other.clone(),
    }
}

async fn whoami(s: &Settings, a: &WhoamiArgs, p: &mut Printer<'_>) -> Result<(), VerbError> {
    let session = Session::open(s, p, Purpose::Read).await?;
    let review = session.self_review().await?;
    let text = match a.output {
        None => whoami_table(
            &review
                .status
                .as_ref()
                .and_then(|st| st.user_info.clone())
                .unwrap_or_default(),
        ),
        Some(WhoamiFormat::Json) => crate::output::to_json(&whoami_value(review)?)?,
        Some(WhoamiFormat::Yaml) => crate::output::to_yaml(&sorted_keys(&whoami_value(review)?))?,
    };
    p.out(&text)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plugin_verbs_map_to_the_rbac_verbs_their_requests_need() {
        assert_eq!(rbac_verbs(Verb::Get), ["get", "list", "watch"]);
        assert_eq!(rbac_verbs(Verb::Patch), ["patch"]);
        assert_eq!(
            matrix_verbs(&[Verb::Get, Verb::Patch]),
            ["get", "list", "watch", "patch"]
        );
        assert_eq!(
            matrix_verbs(&[Verb::Patch, Verb::Get, Verb::Patch]),
            ["patch", "get", "list", "watch"]
        );
        for v in ["get", "list", "watch"] {
            assert_eq!(plugin_verb(v), Some(Verb::Get), "{v}");
        }
        assert_eq!(plugin_verb("patch"), Some(Verb::Patch));
        assert_eq!(plugin_verb("delete"), None);
        assert_eq!(plugin_verb("update"), None);
    }

    #[test]
    fn answer_lines_follow_kubectl_with_the_boundary_note() {
        assert_eq!(answer_line(&Ok(()), None), "yes");
        assert_eq!(
            answer_line(&Ok(()), Some("configmaps not in resources")),
            "yes (outside plugin.yaml: configmaps not in resources)"
        );
        assert_eq!(
            answer_line(&Err("denied by policy".into()), Some("ignored")),
            "no - denied by policy"
        );
        assert_eq!(answer_line(&Err(String::new()), None), "no");
        assert_eq!(answer_line(&Err(NO_RULE_REASON.into()), None), "no");
    }

    #[test]
    fn boundary_reasons_are_short() {
        let e = GateError::VerbOutsideBoundary {
            plugin: "myops".into(),
            verb: "patch".into(),
        };
        assert_eq!(boundary_reason(&e), "verb patch not in verbs");
        let e = GateError::ResourceOutsideBoundary {
            plugin: "myops".into(),
            resource: "configmaps".into(),
        };
        assert_eq!(boundary_reason(&e), "configmaps not in resources");
        let e = GateError::ScopeOutsideBoundary {
            plugin: "myops".into(),
            what: "--all-namespaces".into(),
            scope: "cluster",
            allowed: "namespace".into(),
        };
        assert_eq!(boundary_reason(&e), "--all-namespaces needs scope cluster");
    }

    #[test]
    fn can_i_target_forms() {
        assert_eq!(
            parse_can_i_target("pods", None).unwrap(),
            ("pods".to_string(), None)
        );
        assert_eq!(
            parse_can_i_target("pods", Some("web")).unwrap(),
            ("pods".to_string(), Some("web".to_string()))
        );
        assert_eq!(
            parse_can_i_target("deployments.apps/web", None).unwrap(),
            ("deployments.apps".to_string(), Some("web".to_string()))
        );
        assert!(parse_can_i_target("pods/web", Some("other")).is_err());
        assert!(parse_can_i_target("pods/", None).is_err());
        assert!(parse_can_i_target("/web", None).is_err());
        assert!(parse_can_i_target("pods/a/b", None).is_err());
        assert!(parse_can_i_target("pods", Some("")).is_err());
    }

    #[test]
    fn can_i_with_a_hostile_verb_type_or_name_is_a_usage_error_that_echoes_nothing_raw() {
        assert!(check_verb_text("get").is_ok());
        assert!(
            check_verb_text("frobnicate").is_ok(),
            "unknown verbs only warn"
        );
        for bad in ["g\u{1b}[2Jet", "get pods", &"v".repeat(100_000)] {
            let e = check_verb_text(bad).unwrap_err();
            assert!(e.starts_with("invalid VERB"), "{e}");
            assert!(!e.contains('\u{1b}') && e.len() < 300, "{e}");
        }
        let e = parse_can_i_target(&format!("pods/{}", "n".repeat(300)), None).unwrap_err();
        assert!(e.contains("at most 253"), "{e}");
        let e = parse_can_i_target("po\u{1b}[31mds", None).unwrap_err();
        assert!(!e.contains('\u{1b}'), "{e}");
    }

    #[test]
    fn matrix_entries_keep_order_and_drop_repeats() {
        let res = vec!["pods".to_string(), "deployments".to_string()];
        let reg = vec!["foos.example.com".to_string(), "pods".to_string()];
        assert_eq!(
            matrix_entries(&res, &reg),
            ["pods", "deployments", "foos.example.com"]
        );
    }

    #[test]
    fn matrix_renders_yes_no_and_unknown_cells() {
        let rows = vec![
            MatrixRow {
                resource: "pods".into(),
                cells: vec![Some(true), Some(true), Some(false), Some(false)],
                boundary: "ok".into(),
                policies: None,
            },
            MatrixRow {
                resource: "widgets.example.com".into(),
                cells: vec![None; 4],
                boundary: "?".into(),
                policies: None,
            },
        ];
        let out = matrix_table(&["get", "list", "watch", "patch"], &rows).render(false);
        assert_eq!(
            out,
            "RESOURCE              GET   LIST   WATCH   PATCH   BOUNDARY\n\
             pods                  yes   yes    no      no      ok\n\
             widgets.example.com   ?     ?      ?       ?       ?\n"
        );
    }

    #[test]
    fn matrix_shows_a_policies_column_only_when_plugin_yaml_has_rules() {
        let rule = |resource: &str| crate::config::PolicyRule {
            resource: resource.into(),
            namespaces: Vec::new(),
            deny: vec!["/data/*".into()],
            allow: Vec::new(),
            message: "m".into(),
        };
        let policies = vec![rule("secrets"), rule("deployments.apps"), rule("*")];
        assert_eq!(policies_cell(&[], "secrets", ""), None);
        assert_eq!(
            policies_cell(&policies, "secrets", "").as_deref(),
            Some("policies[0,2]")
        );
        assert_eq!(
            policies_cell(&policies[..2], "pods", "").as_deref(),
            Some("-")
        );
        let rows = vec![
            MatrixRow {
                resource: "secrets".into(),
                cells: vec![Some(true)],
                boundary: "ok".into(),
                policies: policies_cell(&policies[..2], "secrets", ""),
            },
            MatrixRow {
                resource: "pods".into(),
                cells: vec![Some(false)],
                boundary: "ok".into(),
                policies: policies_cell(&policies[..2], "pods", ""),
            },
        ];
        assert_eq!(
            matrix_table(&["patch"], &rows).render(false),
            "RESOURCE   PATCH   POLICIES      BOUNDARY\n\
             secrets    yes     policies[0]   ok\n\
             pods       no      -             ok\n"
        );
    }

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn can_i_targets_split_urls_impersonation_and_types() {
        assert_eq!(
            classify_can_i("get", "/healthz", None, None).unwrap(),
            CanITarget::NonResource("/healthz".into())
        );
        assert!(classify_can_i("get", "/healthz", Some("x"), None).is_err());
        assert!(classify_can_i("get", "/healthz", None, Some("log")).is_err());
        let e = classify_can_i("get", "/a b\u{1b}", None, None).unwrap_err();
        assert!(
            e.starts_with("invalid NONRESOURCEURL") && !e.contains('\u{1b}'),
            "{e}"
        );
        assert!(classify_can_i("get", &format!("/{}", "a".repeat(5000)), None, None).is_err());

        let imp =
            |t: &str, n: Option<&str>, sr: Option<&str>| classify_can_i("impersonate", t, n, sr);
        assert_eq!(
            imp("users", None, None).unwrap(),
            CanITarget::Impersonation {
                group: "",
                resource: "users",
                subresource: None,
                name: None
            }
        );
        assert_eq!(
            imp("users/bob", None, None).unwrap(),
            CanITarget::Impersonation {
                group: "",
                resource: "users",
                subresource: None,
                name: Some("bob".into())
            }
        );
        assert_eq!(
            imp("groups", Some("devs"), None).unwrap(),
            CanITarget::Impersonation {
                group: "",
                resource: "groups",
                subresource: None,
                name: Some("devs".into())
            }
        );
        assert_eq!(
            imp("uids", None, None).unwrap(),
            CanITarget::Impersonation {
                group: "authentication.k8s.io",
                resource: "uids",
                subresource: None,
                name: None
            }
        );
        assert_eq!(
            imp("userextras/scopes", Some("view"), None).unwrap(),
            CanITarget::Impersonation {
                group: "authentication.k8s.io",
                resource: "userextras",
                subresource: Some("scopes".into()),
                name: Some("view".into())
            }
        );
        assert_eq!(
            imp("userextras", None, Some("scopes")).unwrap(),
            imp("userextras/scopes", None, None).unwrap()
        );
        assert!(imp("userextras/scopes", None, Some("scopes")).is_err());
        assert!(imp("users/bob", Some("carol"), None).is_err());
        assert!(imp("users/", None, None).is_err());
        // Other verbs on `users`, and other resources with impersonate, resolve through discovery.
        assert_eq!(
            classify_can_i("get", "users", None, None).unwrap(),
            CanITarget::Resource {
                type_name: "users".into(),
                name: None
            }
        );
        assert_eq!(
            imp("serviceaccounts/default", None, None).unwrap(),
            CanITarget::Resource {
                type_name: "serviceaccounts".into(),
                name: Some("default".into())
            }
        );
    }

    #[test]
    fn a_type_outside_the_core_group_is_named_as_plural_group() {
        assert_eq!(
            resolved_note("deploy", "apps", "deployments.apps").as_deref(),
            Some("resource \"deploy\" is deployments.apps")
        );
        assert_eq!(
            resolved_note("deployments.apps", "apps", "deployments.apps"),
            None
        );
        assert_eq!(resolved_note("po", "", "pods"), None);
    }

    /// The status of `kubectl auth can-i --list --context alice` on the test cluster
    /// (system:basic-user, system:discovery, system:public-info-viewer).
    fn alice_status() -> SubjectRulesReviewStatus {
        use k8s_openapi::api::authorization::v1::{NonResourceRule, ResourceRule};
        let rr = |g: &str, r: &str| ResourceRule {
            api_groups: Some(s(&[g])),
            resources: Some(s(&[r])),
            resource_names: None,
            verbs: s(&["create"]),
        };
        let nr = |urls: &[&str]| NonResourceRule {
            non_resource_urls: Some(s(urls)),
            verbs: s(&["get"]),
        };
        SubjectRulesReviewStatus {
            resource_rules: vec![
                rr("authorization.k8s.io", "selfsubjectaccessreviews"),
                rr("authorization.k8s.io", "selfsubjectrulesreviews"),
                rr("authentication.k8s.io", "selfsubjectreviews"),
            ],
            non_resource_rules: vec![
                nr(&["/healthz", "/livez", "/readyz", "/version", "/version/"]),
                nr(&[
                    "/api",
                    "/api/*",
                    "/apis",
                    "/apis/*",
                    "/healthz",
                    "/livez",
                    "/openapi",
                    "/openapi/*",
                    "/readyz",
                    "/version",
                    "/version/",
                ]),
            ],
            incomplete: false,
            evaluation_error: None,
        }
    }

    #[test]
    fn the_unfiltered_list_is_byte_for_byte_kubectls() {
        let rules: Vec<Rule> = rules_of(&alice_status())
            .iter()
            .flat_map(breakdown)
            .collect();
        let out = rules_table(&compact_and_sort(&rules), false);
        let expected = "\
Resources                                       Non-Resource URLs   Resource Names   Verbs
selfsubjectreviews.authentication.k8s.io        []                  []               [create]
selfsubjectaccessreviews.authorization.k8s.io   []                  []               [create]
selfsubjectrulesreviews.authorization.k8s.io    []                  []               [create]
                                                [/api/*]            []               [get]
                                                [/api]              []               [get]
                                                [/apis/*]           []               [get]
                                                [/apis]             []               [get]
                                                [/healthz]          []               [get]
                                                [/healthz]          []               [get]
                                                [/livez]            []               [get]
                                                [/livez]            []               [get]
                                                [/openapi/*]        []               [get]
                                                [/openapi]          []               [get]
                                                [/readyz]           []               [get]
                                                [/readyz]           []               [get]
                                                [/version/]         []               [get]
                                                [/version/]         []               [get]
                                                [/version]          []               [get]
                                                [/version]          []               [get]
";
        assert_eq!(out, expected);
        assert_eq!(
            rules_table(&[], false),
            "Resources   Non-Resource URLs   Resource Names   Verbs\n"
        );
        assert_eq!(rules_table(&[], true), "");
    }

    fn boundary() -> Vec<BoundaryType> {
        vec![
            BoundaryType {
                group: String::new(),
                plural: "pods".into(),
                verbs: vec!["get", "list", "watch", "patch"],
            },
            BoundaryType {
                group: "apps".into(),
                plural: "deployments".into(),
                verbs: vec!["get", "list", "watch"],
            },
        ]
    }

    #[test]
    fn list_keeps_boundary_rules_and_narrows_wildcards_to_the_boundary() {
        let (kept, hidden) = filter_rules(&rules_of(&alice_status()), &boundary());
        assert_eq!(
            (kept.len(), hidden),
            (0, 19),
            "nothing of alice's defaults is the plugin's"
        );

        let rule = |g: &[&str], r: &[&str], v: &[&str], n: &[&str]| Rule {
            verbs: s(v),
            groups: s(g),
            resources: s(r),
            names: s(n),
            urls: Vec::new(),
        };
        let admin = vec![
            rule(&["*"], &["*"], &["*"], &[]),
            Rule {
                verbs: s(&["*"]),
                urls: s(&["*"]),
                ..Rule::default()
            },
        ];
        let (kept, hidden) = filter_rules(&admin, &boundary());
        assert_eq!(hidden, 2);
        assert_eq!(
            rules_table(&compact_and_sort(&kept), false),
            "Resources          Non-Resource URLs   Resource Names   Verbs\n\
             pods               []                  []               [get list watch patch]\n\
             deployments.apps   []                  []               [get list watch]\n",
            "sorted by Go's PolicyRule.String(): `[get list watch patch]` before `[get list watch]`"
        );

        // An exact rule is kept as is (and not counted); other verbs of it are hidden; a
        // named rule keeps its name; a subresource rule is hidden.
        let role = vec![
            rule(&[""], &["pods"], &["get", "list", "delete"], &[]),
            rule(&["apps"], &["deployments"], &["get"], &["web"]),
            rule(&[""], &["pods/log"], &["get"], &[]),
            rule(&[""], &["configmaps"], &["get"], &[]),
        ];
        let (kept, hidden) = filter_rules(&role, &boundary());
        assert_eq!(hidden, 3, "delete, pods/log, configmaps");
        assert_eq!(
            rules_table(&compact_and_sort(&kept), true),
            "pods               []    []      [get list]\n\
             deployments.apps   []    [web]   [get]\n",
            "an all-empty column is still 6 wide (Go tabwriter minwidth)"
        );
    }

    #[test]
    fn go_tabwriter_pads_to_the_widest_cell_plus_three_and_at_least_six() {
        let lines = vec![s(&["a", "bb", "last"]), s(&["", "cccccccc", "x"])];
        assert_eq!(
            go_tabwriter(&lines),
            "a     bb         last\n      cccccccc   x\n"
        );
        assert_eq!(go_list(&s(&["a", "b"])), "[a b]");
        assert_eq!(go_list(&[]), "[]");
        assert_eq!(
            combine_resource_group(&s(&["deployments/scale"]), &s(&["apps"])),
            "deployments.apps/scale"
        );
        assert_eq!(combine_resource_group(&s(&["pods"]), &s(&[""])), "pods");
        assert_eq!(combine_resource_group(&[], &[]), "");
    }

    #[test]
    fn whoami_prints_kubectls_table_and_json_field_order() {
        use k8s_openapi::api::authentication::v1::SelfSubjectReviewStatus;
        let u = UserInfo {
            username: Some("bob".into()),
            uid: Some("u1".into()),
            groups: Some(s(&["g1", "system:authenticated"])),
            extra: Some(
                [("scopes".to_string(), s(&["view", "edit"]))]
                    .into_iter()
                    .collect(),
            ),
        };
        assert_eq!(
            whoami_table(&u),
            "ATTRIBUTE       VALUE\n\
             Username        bob\n\
             UID             u1\n\
             Groups          [g1 system:authenticated]\n\
             Extra: scopes   [view edit]\n"
        );
        let r = SelfSubjectReview {
            metadata: Default::default(),
            status: Some(SelfSubjectReviewStatus { user_info: Some(u) }),
        };
        let v = whoami_value(&r).unwrap();
        let json = crate::output::to_json(&v).unwrap();
        assert!(
            json.starts_with("{\n    \"kind\": \"SelfSubjectReview\",\n    \"apiVersion\": \"authentication.k8s.io/v1\",\n    \"metadata\": {\n        \"creationTimestamp\": null\n    },"),
            "{json}"
        );
        let keys: Vec<&String> = v["status"]["userInfo"]
            .as_object()
            .unwrap()
            .keys()
            .collect();
        assert_eq!(keys, ["username", "uid", "groups", "extra"]);
        let sorted = sorted_keys(&v);
        let keys: Vec<&String> = sorted["status"]["userInfo"]
            .as_object()
            .unwrap()
            .keys()
            .collect();
        assert_eq!(keys, ["extra", "groups", "uid", "username"]);
    }
}
