//! Impersonation verified (docs/security.md): when `--as*` (or the kubeconfig's `as*`) is in
//! effect, a SelfSubjectReview must return exactly the requested identity before any other
//! request. A proxy that terminates the connection and re-authenticates (Rancher- or
//! Omni-style) may drop `Impersonate-*` headers; every answer after that would be about the
//! proxy's identity, and every change would be made as it.

use crate::cluster::client::Impersonation;

/// The identity the API server reports for our requests (SelfSubjectReview `status.userInfo`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Observed {
    /// `username`.
    pub user: String,
    /// `groups` (the server adds `system:authenticated`).
    pub groups: Vec<String>,
    /// `uid`, if any.
    pub uid: Option<String>,
    /// `extra` (keys as the server reports them: lowercased by its impersonation filter).
    pub extra: std::collections::BTreeMap<String, Vec<String>>,
}

/// Impersonation that failed: refused by the server, or not applied.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IdentityError {
    /// The server acts as someone else than the impersonation asked for.
    #[error(
        "impersonation was not applied: asked to act as {requested} but the API server sees {observed}; a proxy between here and the API server may drop Impersonate-* headers — connect to the API server directly, or {undo}"
    )]
    NotApplied {
        /// The requested identity, described.
        requested: String,
        /// The observed identity, described.
        observed: String,
        /// How to stop impersonating ([`crate::cluster::client::ImpersonationFrom::undo`]).
        undo: String,
    },
    /// The caller may not impersonate (a 403 naming `impersonate` on the first request, the
    /// SelfSubjectReview): exit 3 as every refusal.
    #[error(
        "{caller} may not impersonate {target} (the impersonation comes from {origin}): {reason}; ask a cluster admin for RBAC that lets {caller} impersonate {target}, or {undo}"
    )]
    NotAllowed {
        /// The user who asked, as the server names it.
        caller: String,
        /// The user impersonated.
        target: String,
        /// Where the impersonation comes from ([`crate::cluster::client::ImpersonationFrom::source`]).
        origin: String,
        /// The server's message.
        reason: String,
        /// How to stop impersonating ([`crate::cluster::client::ImpersonationFrom::undo`]).
        undo: String,
    },
}

/// The refusal of `requested` when the server answered the first request with 403 `message`
/// naming impersonation (`User "bob" cannot impersonate resource "users"`, or with
/// constrained impersonation `cannot impersonate-on:user-info:create`: the apiserver's
/// `filters/impersonation.go`); `None` for any other answer (pure).
pub fn refused(requested: &Impersonation, code: u16, message: &str) -> Option<IdentityError> {
    if code != 403 || !message.contains("cannot impersonate") {
        return None;
    }
    let caller = message
        .split_once("User \"")
        .and_then(|(_, rest)| rest.split_once('"'))
        .map_or_else(
            || "the caller".to_string(),
            |(u, _)| crate::base::echo::bare(u),
        );
    Some(IdentityError::NotAllowed {
        caller,
        target: crate::base::echo::bare(&requested.user),
        origin: requested.from.source(),
        reason: message.to_string(),
        undo: requested.from.undo(),
    })
}

fn describe(user: &str, groups: &[String], uid: Option<&str>) -> String {
    let mut s = format!("user {user:?}");
    if !groups.is_empty() {
        let g: Vec<String> = groups.iter().map(|g| format!("{g:?}")).collect();
        s.push_str(&format!(" in groups {}", g.join(", ")));
    }
    if let Some(uid) = uid {
        s.push_str(&format!(" with uid {uid:?}"));
    }
    s
}

/// Checks the observed identity against the requested one (pure): same user name, every
/// requested group present (the server adds `system:authenticated`), same uid when one was
/// requested, every requested extra value present under its key (compared lowercased: the
/// apiserver's impersonation filter lowercases `Impersonate-Extra-*` keys,
/// `apiserver/pkg/endpoints/filters/impersonation.go`).
///
/// # Errors
/// [`IdentityError`] naming both identities.
pub fn verify(requested: &Impersonation, observed: &Observed) -> Result<(), IdentityError> {
    let same = observed.user == requested.user
        && requested.groups.iter().all(|g| observed.groups.contains(g))
        && requested
            .uid
            .as_ref()
            .is_none_or(|u| observed.uid.as_ref() == Some(u))
        && requested.extra.iter().all(|(k, vs)| {
            let seen = observed
                .extra
                .get(k)
                .or_else(|| observed.extra.get(&k.to_lowercase()));
            vs.iter().all(|v| seen.is_some_and(|s| s.contains(v)))
        });
    if same {
        return Ok(());
    }
    let with_extra = |d: String, extra: &std::collections::BTreeMap<String, Vec<String>>| {
        if extra.is_empty() {
            d
        } else {
            format!("{d} with extra {extra:?}")
        }
    };
    Err(IdentityError::NotApplied {
        undo: requested.from.undo(),
        requested: with_extra(
            describe(&requested.user, &requested.groups, requested.uid.as_deref()),
            &requested.extra,
        ),
        observed: with_extra(
            describe(&observed.user, &observed.groups, observed.uid.as_deref()),
            &observed.extra,
        ),
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_403_naming_impersonate_is_a_refusal_naming_both_users_and_where_it_comes_from() {
        use crate::cluster::client::ImpersonationFrom;
        let mut want = imp("jane", &[], None);
        let msg = "selfsubjectreviews.authentication.k8s.io is forbidden: User \"bob\" cannot impersonate resource \"users\" in API group \"\" at the cluster scope";
        let e = refused(&want, 403, msg).unwrap();
        assert!(
            e.to_string().starts_with(
                "bob may not impersonate jane (the impersonation comes from --as): selfsubject"
            ),
            "{e}"
        );
        assert!(e.to_string().ends_with(", or drop --as"), "{e}");
        want.from = ImpersonationFrom::Kubeconfig(Some("bob".into()));
        let e = refused(&want, 403, msg).unwrap().to_string();
        assert!(
            e.ends_with(
                ", or remove `as:` from the kubeconfig user \"bob\" (or use another context)"
            ),
            "{e}"
        );
        assert!(
            e.contains("(the impersonation comes from `as:` of the kubeconfig user \"bob\")"),
            "{e}"
        );
        // Any other answer is not about impersonation.
        assert!(refused(&want, 403, "pods is forbidden: User \"bob\" cannot list").is_none());
        assert!(refused(&want, 500, msg).is_none());
    }

    use super::*;

    fn imp(user: &str, groups: &[&str], uid: Option<&str>) -> Impersonation {
        Impersonation {
            user: user.into(),
            groups: groups.iter().map(|g| g.to_string()).collect(),
            uid: uid.map(str::to_string),
            ..Default::default()
        }
    }

    fn seen(user: &str, groups: &[&str], uid: Option<&str>) -> Observed {
        Observed {
            user: user.into(),
            groups: groups.iter().map(|g| g.to_string()).collect(),
            uid: uid.map(str::to_string),
            ..Default::default()
        }
    }

    #[test]
    fn the_requested_identity_passes_with_the_groups_the_server_adds() {
        assert!(
            verify(
                &imp("joe", &["dev"], None),
                &seen("joe", &["dev", "system:authenticated"], None)
            )
            .is_ok()
        );
        assert!(
            verify(
                &imp("joe", &[], Some("42")),
                &seen("joe", &["system:authenticated"], Some("42"))
            )
            .is_ok()
        );
    }

    #[test]
    fn a_proxy_that_dropped_impersonation_is_named_with_both_identities() {
        let e = verify(
            &imp("joe", &["dev"], None),
            &seen("admin", &["system:masters", "system:authenticated"], None),
        )
        .unwrap_err();
        let IdentityError::NotApplied {
            requested,
            observed,
            undo,
        } = &e
        else {
            panic!("{e:?}")
        };
        assert_eq!(requested, "user \"joe\" in groups \"dev\"");
        assert_eq!(
            observed,
            "user \"admin\" in groups \"system:masters\", \"system:authenticated\""
        );
        assert_eq!(undo, "drop --as");
        assert!(
            e.to_string()
                .starts_with("impersonation was not applied: asked to act as user \"joe\""),
            "{e}"
        );
        assert!(e.to_string().contains("Impersonate-*"), "{e}");
        assert!(
            verify(
                &imp("joe", &["dev"], None),
                &seen("joe", &["system:authenticated"], None)
            )
            .is_err(),
            "a dropped group"
        );
        assert!(
            verify(&imp("joe", &[], Some("42")), &seen("joe", &[], None)).is_err(),
            "a dropped uid"
        );
    }

    #[test]
    fn a_dropped_user_extra_fails_the_identity_check_and_lowercased_keys_pass() {
        let mut want = imp("joe", &[], None);
        want.extra.insert("Scopes".into(), vec!["view".into()]);
        let mut got = seen("joe", &["system:authenticated"], None);
        let e = verify(&want, &got).unwrap_err();
        assert!(
            matches!(&e, IdentityError::NotApplied { requested, .. } if requested == "user \"joe\" with extra {\"Scopes\": [\"view\"]}"),
            "{e:?}"
        );
        got.extra.insert("scopes".into(), vec!["view".into()]);
        assert!(verify(&want, &got).is_ok());
    }
}
