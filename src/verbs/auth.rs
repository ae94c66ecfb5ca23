//! `auth can-i` and `auth matrix`: what RBAC lets the caller do, asked through the very
//! gate the verbs pass ([`Session::decide`], the decision behind [`Session::authorize`]), so the
//! answer is the one `get`/`patch` would get — same SelfSubjectAccessReview body, same
//! namespace rule, same `--as`/`--as-group` impersonation.
//!
//! `can-i` follows kubectl (`pkg/cmd/auth/cani.go`): `VERB TYPE [NAME]` or `VERB TYPE/NAME`,
//! `-A` asks cluster-wide, `--subresource`, `-q`; it prints `yes` or `no - <reason>`. It is
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
//! `matrix` asks every plugin.yaml resource (plus CRDs registered by `crds sync`) × every RBAC
//! verb of the plugin's verbs, concurrently (at most 8 reviews in flight), and adds a BOUNDARY
//! column: `ok` or why plugin.yaml refuses the row.

use futures::stream::{self, StreamExt};

use crate::authz::{AccessRequest, GateError, KNOWN_VERBS};
use crate::cli::{AuthCommand, CanIArgs, MatrixArgs};
use crate::cluster::ResolvedType;
use crate::config::Verb;
use crate::echo::quoted;
use crate::exit::ExitStatus;
use crate::guard::target::check_type;
use crate::guard::{Mode, Session, check_names};
use crate::output::Printer;
use crate::output::table::OwnTable;
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
        AuthCommand::CanI(a) => can_i(s, a, p).await,
        AuthCommand::Matrix(a) => matrix(s, a, p).await.map(|()| ExitStatus::Success),
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

/// The line `can-i` prints: `yes`, `yes (outside plugin.yaml: …)` or `no - <reason>`.
pub fn answer_line(decision: &Result<(), String>, outside: Option<&str>) -> String {
    match (decision, outside) {
        (Ok(()), None) => "yes".to_string(),
        (Ok(()), Some(why)) => format!("yes (outside plugin.yaml: {why})"),
        (Err(reason), _) if reason.is_empty() => "no".to_string(),
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

async fn can_i(s: &Settings, a: &CanIArgs, p: &mut Printer<'_>) -> Result<ExitStatus, VerbError> {
    let (type_name, name) =
        parse_can_i_target(&a.resource, a.name.as_deref()).map_err(VerbError::Usage)?;
    if a.verb.is_empty() {
        return Err(VerbError::Usage(
            "auth can-i needs a VERB, e.g. `auth can-i list pods`".into(),
        ));
    }
    check_verb_text(&a.verb).map_err(VerbError::Usage)?;
    if !KNOWN_VERBS.contains(&a.verb.as_str()) {
        p.err_line(&format!(
            "Warning: verb {} is not a known verb",
            quoted(&a.verb)
        ));
    }
    if let Some(sr) = &a.subresource {
        check_type(sr).map_err(|_| {
            VerbError::Usage(format!(
                "invalid --subresource {}: a subresource is a resource name such as status, scale or log",
                quoted(sr)
            ))
        })?;
    }
    let session = Session::open(s, p, Mode::Read).await?;
    let t = session.resolve(&type_name).await?;
    if !t.namespaced && !a.all_namespaces && s.kube.namespace.is_some() {
        p.err_line(&format!(
            "Warning: resource '{}' is not namespace scoped; asking at cluster scope",
            t.group_resource()
        ));
    }
    let req = AccessRequest {
        verb: a.verb.clone(),
        group: t.api.group.clone(),
        resource: t.api.plural.clone(),
        subresource: a.subresource.clone().filter(|x| !x.is_empty()),
        namespace: session.namespace_for(&t, a.all_namespaces),
        name,
    };
    let decision = session.decide(&req).await?;
    let outside = match (&decision, plugin_verb(&a.verb)) {
        (Ok(()), Some(v)) => session
            .boundary(v, &t, a.all_namespaces)
            .err()
            .map(|e| boundary_reason(&e)),
        _ => None,
    };
    if !a.quiet {
        p.out(&format!("{}\n", answer_line(&decision, outside.as_deref())))?;
    }
    Ok(match decision {
        Ok(()) => ExitStatus::Success,
        Err(_) => ExitStatus::Denied,
    })
}

/// One row of `auth matrix`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatrixRow {
    /// `plural.group` when resolved, else the plugin.yaml entry as written.
    pub resource: String,
    /// One answer per column; `None` = not asked (the type did not resolve).
    pub cells: Vec<Option<bool>>,
    /// `ok`, the short plugin.yaml refusal, or `?` when the type did not resolve.
    pub boundary: String,
}

/// The matrix as a table: RESOURCE, one column per RBAC verb (upper-cased), BOUNDARY; a
/// cell is `yes`, `no`, or `?` when the review was not asked.
pub fn matrix_table(verbs: &[&str], rows: &[MatrixRow]) -> OwnTable {
    let mut headers = vec!["Resource"];
    headers.extend(verbs);
    headers.push("Boundary");
    let mut t = OwnTable::new(headers);
    for r in rows {
        let answers = r.cells.iter().map(|c| match c {
            Some(true) => "yes",
            Some(false) => "no",
            None => "?",
        });
        t.row(
            std::iter::once(r.resource.as_str())
                .chain(answers)
                .chain([r.boundary.as_str()]),
        );
    }
    t
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
    let session = Session::open(s, p, Mode::Read).await?;
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
                });
                types.push(Some(t.clone()));
            }
            Err(e) => {
                p.err_line(&format!("warning: plugin.yaml resource {entry:?}: {e}"));
                rows.push(MatrixRow {
                    resource: entry,
                    cells: vec![None; verbs.len()],
                    boundary: "?".into(),
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

    p.out(&matrix_table(&verbs, &rows).render(a.no_headers))?;
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
            answer_line(&Err("no RBAC rule allows it".into()), Some("ignored")),
            "no - no RBAC rule allows it"
        );
        assert_eq!(answer_line(&Err(String::new()), None), "no");
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
            },
            MatrixRow {
                resource: "widgets.example.com".into(),
                cells: vec![None; 4],
                boundary: "?".into(),
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
}
