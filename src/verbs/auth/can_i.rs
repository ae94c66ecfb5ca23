//! `auth can-i VERB TYPE [NAME]`: one SelfSubjectAccessReview, asked through the gate the
//! verbs pass, with a note when plugin.yaml would refuse the plugin verb making that request.

use super::boundary::{boundary_reason, plugin_verb};
use crate::base::echo::quoted;
use crate::cli::CanIArgs;
use crate::exit::ExitStatus;
use crate::guard::authz::{AccessRequest, KNOWN_VERBS};
use crate::guard::session::NO_RULE_REASON;
use crate::guard::target::check_type;
use crate::guard::{Purpose, Session, check_names};
use crate::output::Printer;
use crate::settings::Settings;
use crate::verbs::VerbError;

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
/// one longer than [`crate::base::validate::MAX_NAME_BYTES`] or with spaces or control characters.
/// RBAC verbs are free strings (kubectl only warns about unknown ones, and so do we); these are
/// the ones that are certainly typos or hostile.
///
/// # Errors
/// A usage message with the verb escaped and capped.
pub fn check_verb_text(verb: &str) -> Result<(), String> {
    if verb.len() > crate::base::validate::MAX_NAME_BYTES
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
    /// A resource only the authorizer knows (no discovery serves it), asked at cluster scope
    /// after kubectl's warning: [`authorization_only`].
    AuthorizationOnly {
        /// Its API group.
        group: &'static str,
        /// Its resource name.
        resource: &'static str,
        /// The object name, if any (a signer name holds a `/`: `example.com/my-signer`).
        name: Option<String>,
    },
    /// A non-resource URL such as `/healthz`.
    NonResource(String),
}

/// The resources the API server checks with RBAC but serves no API for, by the TYPE that
/// names them: (group, resource). `signers.certificates.k8s.io` — `sign`, `approve` and
/// `attest` on a signer name are what the CertificateSigningRequest approval, the signers and
/// ClusterTrustBundle admission ask (k8s.io/kubernetes `pkg/registry/certificates` and
/// `plugin/pkg/admission/certificates`; the Kubernetes docs, "Certificates and Certificate
/// Signing Requests", "Authorization"). kubectl's `can-i` answers them after a warning
/// (`cani.go`, `resourceFor`); the impersonation resources have their own target.
pub fn authorization_only(type_name: &str) -> Option<(&'static str, &'static str)> {
    match type_name.to_ascii_lowercase().as_str() {
        "signers.certificates.k8s.io" => Some(("certificates.k8s.io", "signers")),
        _ => None,
    }
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
    let (word, rest) = match target.split_once('/') {
        Some((w, r)) => (w, Some(r)),
        None => (target, None),
    };
    if let Some((group, resource)) = authorization_only(word) {
        if rest.is_some() && name.is_some() {
            return Err(format!(
                "{} already names an object; give TYPE NAME or TYPE/NAME, not both",
                quoted(target)
            ));
        }
        // As kubectl: everything after the first `/` is the name (`cani.go` splits in two).
        let name = rest.or(name);
        if let Some(n) = name
            && (n.is_empty() || n.len() > MAX_URL_BYTES || n.chars().any(char::is_control))
        {
            return Err(format!("invalid NAME {}", quoted(n)));
        }
        if subresource.is_some() {
            return Err(format!("{} has no subresources", quoted(word)));
        }
        return Ok(CanITarget::AuthorizationOnly {
            group,
            resource,
            name: name.map(str::to_string),
        });
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

/// The verbs kubectl knows for non-resource URLs (`cani.go` `nonResourceURLVerbs`); any other
/// is asked after a warning.
pub const NON_RESOURCE_VERBS: &[&str] = &[
    "get", "put", "post", "head", "options", "delete", "patch", "*",
];

pub(super) async fn can_i(
    s: &Settings,
    a: &CanIArgs,
    p: &mut Printer<'_>,
) -> Result<ExitStatus, VerbError> {
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
        CanITarget::AuthorizationOnly {
            group,
            resource,
            name,
        } => {
            // kubectl's warning, word for word (`cani.go` `resourceFor`).
            p.err_line(&format!(
                "Warning: the server doesn't have a resource type '{resource}' in group '{group}'"
            ));
            let req = AccessRequest {
                verb: verb.clone(),
                group: group.to_string(),
                resource: resource.to_string(),
                subresource: None,
                namespace: None,
                name,
            };
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signers_are_asked_in_their_group_with_a_signer_name_that_holds_a_slash() {
        let t = classify_can_i(
            "approve",
            "signers.certificates.k8s.io/example.com/my-signer",
            None,
            None,
        )
        .unwrap();
        assert_eq!(
            t,
            CanITarget::AuthorizationOnly {
                group: "certificates.k8s.io",
                resource: "signers",
                name: Some("example.com/my-signer".into()),
            }
        );
        assert_eq!(
            classify_can_i(
                "sign",
                "Signers.Certificates.k8s.io",
                Some("kubernetes.io/*"),
                None
            )
            .unwrap(),
            CanITarget::AuthorizationOnly {
                group: "certificates.k8s.io",
                resource: "signers",
                name: Some("kubernetes.io/*".into()),
            }
        );
        assert!(classify_can_i("sign", "signers.certificates.k8s.io/a", Some("b"), None).is_err());
        assert!(
            classify_can_i("sign", "signers.certificates.k8s.io", None, Some("status")).is_err()
        );
        // Anything else is a TYPE for discovery, as before.
        assert!(matches!(
            classify_can_i("get", "signers", None, None).unwrap(),
            CanITarget::Resource { .. }
        ));
    }
}
