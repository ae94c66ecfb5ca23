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

/// The server acts as someone else than the impersonation asked for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "impersonation was not applied: asked to act as {requested} but the API server sees {observed}; a proxy between here and the API server may drop Impersonate-* headers — connect to the API server directly, or drop --as"
)]
pub struct IdentityError {
    /// The requested identity, described.
    pub requested: String,
    /// The observed identity, described.
    pub observed: String,
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
    Err(IdentityError {
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
        assert_eq!(e.requested, "user \"joe\" in groups \"dev\"");
        assert_eq!(
            e.observed,
            "user \"admin\" in groups \"system:masters\", \"system:authenticated\""
        );
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
        assert_eq!(
            e.requested,
            "user \"joe\" with extra {\"Scopes\": [\"view\"]}"
        );
        got.extra.insert("scopes".into(), vec!["view".into()]);
        assert!(verify(&want, &got).is_ok());
    }
}
