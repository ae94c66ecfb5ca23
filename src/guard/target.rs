//! Target parsing (pure), shared by every verb that names objects: `TYPE [NAME…]` or
//! `TYPE/NAME…`, as kubectl's resource builder accepts them
//! (`k8s.io/cli-runtime/pkg/resource/builder.go`), and names checked so that the request sent
//! is exactly the one the SelfSubjectAccessReview approved. Every argument echoed in a message
//! goes through [`crate::base::echo::quoted`]: escaped, at most 64 characters.

use crate::base::echo::quoted;
use crate::base::validate::MAX_NAME_BYTES;
use crate::cluster::{ResolvedType, TypeIndex};
use crate::guard::GuardError;

/// What `get` was asked for, after splitting `TYPE NAME…` / `TYPE/NAME…` (pure).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// The TYPE as typed.
    pub type_name: String,
    /// Object names; empty = list the collection.
    pub names: Vec<String>,
}

/// Splits the positional arguments of a command that takes one TYPE (`patch`): `TYPE [NAME…]`
/// or `TYPE/NAME…`, all of one TYPE ([`parse_targets`] with exactly one result).
///
/// # Errors
/// What [`parse_targets`] refuses, and several TYPEs.
pub fn parse_target(args: &[String]) -> Result<Target, String> {
    let mut targets = parse_targets(args)?;
    if targets.len() > 1 {
        let types: Vec<String> = targets.iter().map(|t| quoted(&t.type_name)).collect();
        return Err(format!(
            "objects of several types ({}) in one call; this command takes one TYPE",
            types.join(", ")
        ));
    }
    Ok(targets.remove(0))
}

/// Splits the positional arguments like kubectl's resource builder
/// (`k8s.io/cli-runtime/pkg/resource/builder.go`, `ResourceTypeOrNameArgs`):
/// - `TYPE[,TYPE…] [NAME…]`: every TYPE with the same names (kubectl's
///   `normalizeMultipleResourcesArgs` turns `a,b n` into `a/n b/n`), empty and repeated
///   comma parts dropped (`SplitResourceArgument`);
/// - `TYPE/NAME…`: of one or several types, in the order given; consecutive objects of the
///   same TYPE (as typed) form one [`Target`].
///
/// A TYPE may still be a category (`all`): the session expands it, not this parser.
///
/// # Errors
/// A usage message for mixed forms, empty parts, `a,b/NAME` (kubectl: "must have a single
/// resource and name") or a TYPE or name that cannot be one ([`check_type`], [`check_names`]).
pub fn parse_targets(args: &[String]) -> Result<Vec<Target>, String> {
    let first = args.first().ok_or("get needs a TYPE, e.g. `get pods`")?;
    if args.iter().any(|a| a.contains('/')) {
        if !first.contains('/') {
            let bad = args.iter().find(|a| a.contains('/')).unwrap_or(first);
            return Err(format!(
                "{}: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form",
                quoted(bad)
            ));
        }
        check_type(first.split('/').next().unwrap_or_default())?;
        let mut targets: Vec<Target> = Vec::new();
        for a in args {
            let (t, n) = a.split_once('/').ok_or_else(|| {
                format!(
                    "{}: mix of TYPE/NAME and plain arguments; use TYPE/NAME for every object",
                    quoted(a)
                )
            })?;
            if t.is_empty() || n.is_empty() || n.contains('/') {
                return Err(format!("{} is not TYPE/NAME", quoted(a)));
            }
            if t.contains(',') {
                return Err(format!(
                    "{}: arguments in resource/name form must have a single resource and name",
                    quoted(a)
                ));
            }
            check_type(t)?;
            check_names(&[n.to_string()])?;
            match targets.last_mut() {
                Some(last) if last.type_name.eq_ignore_ascii_case(t) => {
                    last.names.push(n.to_string());
                }
                _ => targets.push(Target {
                    type_name: t.to_string(),
                    names: vec![n.to_string()],
                }),
            }
        }
        return Ok(targets);
    }
    let mut types: Vec<&str> = Vec::new();
    for t in first.split(',').filter(|t| !t.is_empty()) {
        if !types.contains(&t) {
            types.push(t);
        }
    }
    if types.is_empty() {
        check_type("")?;
    }
    for t in &types {
        check_type(t)?;
    }
    check_names(&args[1..])?;
    Ok(types
        .into_iter()
        .map(|t| Target {
            type_name: t.to_string(),
            names: args[1..].to_vec(),
        })
        .collect())
}

/// One resource type a command will fetch, after categories were expanded and TYPE resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Planned {
    /// The resolved type.
    pub t: ResolvedType,
    /// Object names of this type; empty = list the collection.
    pub names: Vec<String>,
    /// The category the type came from (`all`), `None` when the user named the type. A
    /// category's types that plugin.yaml or RBAC refuse are skipped; a named one is refused.
    pub category: Option<String>,
}

/// Resolves every [`Target`] against discovery, as kubectl's resource builder does (pure):
/// - without names, a TYPE that is a category (`all`, or any category discovery reports,
///   matched exactly; kubectl tries categories before resource names, `ReplaceAliases`)
///   expands to its types; each resource type is fetched once, in the order first named
///   (`resourceMappings` drops repeats), and a type both named and in a category counts as
///   named;
/// - with names (`TYPE/NAME…`, `a,b NAME…`), categories are not expanded (kubectl neither);
///   consecutive targets of the same resource type are fetched as one.
///
/// # Errors
/// [`GuardError::Resolve`] for a TYPE discovery does not know or finds ambiguous (exit 2),
/// [`GuardError::Usage`] for names given with a category.
pub fn plan(targets: &[Target], index: &TypeIndex) -> Result<Vec<Planned>, GuardError> {
    let mut out: Vec<Planned> = Vec::new();
    if targets.iter().all(|t| t.names.is_empty()) {
        for target in targets {
            let expanded = index.category(&target.type_name);
            let (types, category) = if expanded.is_empty() {
                (vec![index.resolve(&target.type_name)?.clone()], None)
            } else {
                (expanded, Some(target.type_name.clone()))
            };
            for t in types {
                let key = t.group_resource();
                match out.iter_mut().find(|p| p.t.group_resource() == key) {
                    Some(seen) => {
                        if category.is_none() {
                            seen.category = None;
                        }
                    }
                    None => out.push(Planned {
                        t,
                        names: Vec::new(),
                        category: category.clone(),
                    }),
                }
            }
        }
        return Ok(out);
    }
    for target in targets {
        let t = match index.resolve(&target.type_name) {
            Ok(t) => t.clone(),
            Err(e) => {
                if index.category(&target.type_name).is_empty() {
                    return Err(e.into());
                }
                return Err(GuardError::Usage(format!(
                    "{} is a category of several types; give names with one TYPE (e.g. `get pods NAME`), or list the category without names",
                    quoted(&target.type_name)
                )));
            }
        };
        match out.last_mut() {
            Some(last) if last.t == t => last.names.extend(target.names.iter().cloned()),
            _ => out.push(Planned {
                t,
                names: target.names.clone(),
                category: None,
            }),
        }
    }
    Ok(out)
}

/// Refuses a TYPE that no server can serve, before discovery is asked: an empty one, one
/// longer than [`MAX_NAME_BYTES`] (a resource's `plural.version.group` is made of DNS labels
/// and a DNS subdomain, k8s.io/apiextensions-apiserver CRD validation), or one with spaces or
/// control characters (which could only be echoed back). kubectl asks discovery anyway and
/// answers "the server doesn't have a resource type" (exit 1); this is a usage error (exit 2).
///
/// # Errors
/// A usage message naming the problem, the TYPE escaped and capped.
pub fn check_type(t: &str) -> Result<(), String> {
    if t.is_empty() {
        return Err(
            "the resource TYPE is empty; give one such as pods, deployments.apps or a CRD's plural"
                .into(),
        );
    }
    if t.len() > MAX_NAME_BYTES {
        return Err(format!(
            "resource type {} is {} bytes long, longer than any resource name ({MAX_NAME_BYTES} bytes, a DNS subdomain); list the served types with `kubectl api-resources`",
            quoted(t),
            t.len()
        ));
    }
    if t.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(format!(
            "resource type {} contains spaces or control characters; list the served types with `kubectl api-resources`",
            quoted(t)
        ));
    }
    Ok(())
}

/// Refuses names that cannot be one path segment of the request URL, so the request sent
/// is exactly the one the SelfSubjectAccessReview approved: Kubernetes forbids `.`, `..`,
/// `/` and `%` in names (apimachinery `path.IsValidPathSegmentName`); `?`, `#`, spaces and
/// control characters would change the URL's meaning. Names longer than [`MAX_NAME_BYTES`]
/// (253, a DNS subdomain: the name rule of every kind but RBAC's and flow control's) are
/// refused before any request — kubectl sends them and reports the
/// server's NotFound; a 100,000-character name would not even fit in a request URI.
///
/// # Errors
/// A usage message naming the rule, the name escaped and capped.
pub fn check_names(names: &[String]) -> Result<(), String> {
    for n in names {
        if n.len() > MAX_NAME_BYTES {
            return Err(format!(
                "object name {} is {} bytes long; Kubernetes object names are at most {MAX_NAME_BYTES} (a DNS subdomain, apimachinery validation.IsDNS1123Subdomain), so check the name",
                quoted(n),
                n.len()
            ));
        }
        let bad = n.is_empty()
            || n == "."
            || n == ".."
            || n.chars()
                .any(|c| matches!(c, '/' | '%' | '?' | '#') || c.is_whitespace() || c.is_control());
        if bad {
            return Err(format!(
                "invalid object name {}: a name may not be empty, \".\" or \"..\", nor contain '/', '%', '?', '#', spaces or control characters",
                quoted(n)
            ));
        }
    }
    Ok(())
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
                .contains("this command takes one TYPE")
        );
        assert!(
            parse_target(&s(&["pod/"]))
                .unwrap_err()
                .contains("not TYPE/NAME")
        );
        assert!(parse_target(&[]).is_err());
    }

    fn t(type_name: &str, names: &[&str]) -> Target {
        Target {
            type_name: type_name.into(),
            names: s(names),
        }
    }

    #[test]
    fn several_types_split_as_kubectls_resource_builder_does() {
        assert_eq!(
            parse_targets(&s(&["pods,cm"])).unwrap(),
            vec![t("pods", &[]), t("cm", &[])]
        );
        assert_eq!(
            parse_targets(&s(&["pods,,cm,pods,"])).unwrap(),
            vec![t("pods", &[]), t("cm", &[])]
        );
        assert_eq!(
            parse_targets(&s(&["pods,cm", "a", "b"])).unwrap(),
            vec![t("pods", &["a", "b"]), t("cm", &["a", "b"])]
        );
        assert_eq!(
            parse_targets(&s(&["pod/a", "Pod/b", "cm/c", "pod/d"])).unwrap(),
            vec![t("pod", &["a", "b"]), t("cm", &["c"]), t("pod", &["d"])]
        );
        assert_eq!(parse_targets(&s(&["all"])).unwrap(), vec![t("all", &[])]);
    }

    #[test]
    fn a_comma_type_in_resource_name_form_or_only_commas_is_refused() {
        let e = parse_targets(&s(&["pods,cm/a"])).unwrap_err();
        assert!(e.contains("must have a single resource and name"), "{e}");
        let e = parse_targets(&s(&[",,"])).unwrap_err();
        assert!(e.contains("TYPE is empty"), "{e}");
        let e = parse_targets(&s(&["pods", "cm/a"])).unwrap_err();
        assert!(e.contains("resource/name form"), "{e}");
        let e = parse_targets(&s(&["pods,po\u{1b}[2J"])).unwrap_err();
        assert!(!e.contains('\u{1b}'), "{e}");
    }

    fn index() -> TypeIndex {
        let res = |plural: &str, kind: &str, short: &str| {
            serde_json::json!({"resource": plural, "responseKind": {"kind": kind}, "scope": "Namespaced",
              "verbs": ["get", "list"], "shortNames": [short], "categories": ["all"]})
        };
        let core = serde_json::from_value(serde_json::json!({"items": [{"metadata": {"name": ""},
            "versions": [{"version": "v1", "resources": [res("pods", "Pod", "po"), res("services", "Service", "svc"),
              {"resource": "configmaps", "responseKind": {"kind": "ConfigMap"}, "scope": "Namespaced", "verbs": ["get"], "shortNames": ["cm"]}]}]}]}))
        .unwrap();
        let groups = serde_json::from_value(serde_json::json!({"items": []})).unwrap();
        TypeIndex::from_discovery(core, groups)
    }

    fn planned(args: &[&str]) -> Vec<(String, Vec<String>, Option<String>)> {
        plan(&parse_targets(&s(args)).unwrap(), &index())
            .unwrap()
            .into_iter()
            .map(|p| (p.t.group_resource(), p.names, p.category))
            .collect()
    }

    #[test]
    fn a_category_expands_and_a_type_named_too_counts_as_named_once() {
        let all = Some("all".to_string());
        assert_eq!(
            planned(&["all"]),
            vec![
                ("pods".into(), vec![], all.clone()),
                ("services".into(), vec![], all.clone())
            ]
        );
        assert_eq!(
            planned(&["cm,all,pods,po"]),
            vec![
                ("configmaps".into(), vec![], None),
                ("pods".into(), vec![], None),
                ("services".into(), vec![], all)
            ]
        );
    }

    #[test]
    fn consecutive_objects_of_one_type_are_fetched_together_in_the_order_given() {
        assert_eq!(
            planned(&["pod/a", "po/b", "cm/c", "pods/d"]),
            vec![
                ("pods".into(), s(&["a", "b"]), None),
                ("configmaps".into(), s(&["c"]), None),
                ("pods".into(), s(&["d"]), None)
            ]
        );
        assert_eq!(
            planned(&["svc,cm", "x"]),
            vec![
                ("services".into(), s(&["x"]), None),
                ("configmaps".into(), s(&["x"]), None)
            ]
        );
    }

    #[test]
    fn names_with_a_category_or_an_unknown_type_are_refused() {
        let e = plan(&parse_targets(&s(&["all", "x"])).unwrap(), &index()).unwrap_err();
        assert!(
            matches!(&e, GuardError::Usage(m) if m.contains("is a category")),
            "{e}"
        );
        let e = plan(&parse_targets(&s(&["pods,nope"])).unwrap(), &index()).unwrap_err();
        assert!(matches!(e, GuardError::Resolve(_)), "{e}");
    }

    #[test]
    fn names_that_would_change_the_request_url_are_refused() {
        for bad in ["?", "web-1?x", "a#b", "..", ".", "a%2F", "a b", ""] {
            let e = parse_target(&s(&["pods", bad])).unwrap_err();
            assert!(e.starts_with("invalid object name"), "{bad:?}: {e}");
            assert!(
                parse_target(&s(&[&format!("pod/{bad}")])).is_err(),
                "{bad:?}"
            );
        }
        assert!(parse_target(&s(&["clusterroles", "system:basic-user", "a.b-c_d@e"])).is_ok());
    }

    #[test]
    fn a_100000_character_name_is_a_usage_error_with_a_capped_echo() {
        let long = "a".repeat(100_000);
        for args in [s(&["pods", &long]), s(&[&format!("pod/{long}")])] {
            let e = parse_target(&args).unwrap_err();
            assert!(
                e.starts_with(&format!(
                    "object name \"{}…\" (100000 characters) is 100000 bytes long",
                    "a".repeat(64)
                )),
                "{e}"
            );
            assert!(e.contains("at most 253"), "{e}");
            assert!(e.len() < 400, "{} bytes", e.len());
        }
        assert!(parse_target(&s(&["pods", &"a".repeat(253)])).is_ok());
    }

    #[test]
    fn escape_sequences_in_names_and_types_are_never_echoed_raw() {
        for args in [
            s(&["pods", "web\u{1b}[2J"]),
            s(&["po\u{1b}[31mds"]),
            s(&["po\u{1b}]0;x\u{7}/web"]),
            s(&["pods", "ok", "\u{1b}c"]),
        ] {
            let e = parse_target(&args).unwrap_err();
            assert!(!e.contains('\u{1b}') && !e.contains('\u{7}'), "{e}");
            assert!(e.contains("\\u{1b}"), "{e}");
        }
    }

    #[test]
    fn an_empty_or_oversized_type_is_refused_before_discovery() {
        assert!(
            parse_target(&s(&[""]))
                .unwrap_err()
                .contains("TYPE is empty")
        );
        assert!(
            parse_target(&s(&["/web"]))
                .unwrap_err()
                .contains("TYPE is empty")
        );
        let e = parse_target(&s(&[&"t".repeat(5000)])).unwrap_err();
        assert!(e.contains("5000 bytes long") && e.len() < 400, "{e}");
        assert!(parse_target(&s(&["backupjobs.v1.example.com"])).is_ok());
    }
}
