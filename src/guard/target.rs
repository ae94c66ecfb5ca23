//! Target parsing (pure), shared by every verb that names objects: `TYPE [NAME…]` or
//! `TYPE/NAME…`, as kubectl's resource builder accepts them
//! (`k8s.io/cli-runtime/pkg/resource/builder.go`), and names checked so that the request sent
//! is exactly the one the SelfSubjectAccessReview approved.

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
pub fn check_names(names: &[String]) -> Result<(), String> {
    for n in names {
        let bad = n.is_empty()
            || n == "."
            || n == ".."
            || n.chars()
                .any(|c| matches!(c, '/' | '%' | '?' | '#') || c.is_whitespace() || c.is_control());
        if bad {
            return Err(format!(
                "invalid object name {n:?}: a name may not be empty, \".\" or \"..\", nor contain '/', '%', '?', '#' or spaces"
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
}
