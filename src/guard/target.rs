//! Target parsing (pure), shared by every verb that names objects: `TYPE [NAME…]` or
//! `TYPE/NAME…`, as kubectl's resource builder accepts them
//! (`k8s.io/cli-runtime/pkg/resource/builder.go`), and names checked so that the request sent
//! is exactly the one the SelfSubjectAccessReview approved. Every argument echoed in a message
//! goes through [`crate::echo::quoted`]: escaped, at most 64 characters (issue 10, class 7).

use crate::echo::quoted;
use crate::validate::MAX_NAME_BYTES;

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
/// A usage message for mixed forms, several TYPEs, empty parts or a TYPE that cannot be a
/// resource name (see [`check_type`]).
pub fn parse_target(args: &[String]) -> Result<Target, String> {
    let first = args.first().ok_or("get needs a TYPE, e.g. `get pods`")?;
    if first.contains('/') {
        check_type(first.split('/').next().unwrap_or_default())?;
        let mut type_name: Option<&str> = None;
        let mut names = Vec::new();
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
            match type_name {
                Some(prev) if !prev.eq_ignore_ascii_case(t) => {
                    return Err(format!(
                        "objects of several types ({}, {}) in one call are not supported yet; run get once per TYPE",
                        quoted(prev),
                        quoted(t)
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
            "several TYPEs ({}) in one call are not supported yet; run get once per TYPE",
            quoted(first)
        ));
    }
    check_type(first)?;
    if let Some(bad) = args[1..].iter().find(|a| a.contains('/')) {
        return Err(format!(
            "{}: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form",
            quoted(bad)
        ));
    }
    check_names(&args[1..])?;
    Ok(Target {
        type_name: first.clone(),
        names: args[1..].to_vec(),
    })
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
/// refused before any request (issue 10, class 6) — kubectl sends them and reports the
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
