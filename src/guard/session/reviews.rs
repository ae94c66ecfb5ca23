//! The gate of a [`Session`]: the plugin.yaml boundary and the SelfSubjectAccessReviews that
//! make a [`Grant`] (decisions cached in this process only), the other reviews `auth` asks
//! (non-resource URLs, rules), and the identity the server sees (SelfSubjectReview).

use k8s_openapi::api::authentication::v1::SelfSubjectReview;
use k8s_openapi::api::authorization::v1::{
    NonResourceAttributes, SelfSubjectAccessReview, SelfSubjectAccessReviewSpec,
    SelfSubjectRulesReview, SelfSubjectRulesReviewSpec, SubjectAccessReviewStatus,
    SubjectRulesReviewStatus,
};
use kube::Api;
use kube::api::PostParams;

use super::{Grant, Session};
use crate::cluster::ResolvedType;
use crate::config::Verb;
use crate::guard::GuardError;
use crate::guard::authz::{AccessRequest, GateError};
use crate::guard::deadline::bounded;
use crate::guard::identity::Observed;

impl Session<'_> {
    /// The gate: the plugin.yaml boundary for `verb`, then one SelfSubjectAccessReview per
    /// `request` (RBAC verb `rbac_verbs[i]` with `names[i]`, or the collection when `names` is
    /// empty). Returns the [`Grant`] later requests need.
    ///
    /// The reviews are asked together ([`Session::decide_all`]) and judged in the order given:
    /// the first refusal or failed review is the answer, as when they were asked one after
    /// the other — only no longer a round trip each.
    ///
    /// # Errors
    /// [`GateError`] (exit 3) for a refusal, naming the user the server sees; exit 1 when a
    /// review cannot be made.
    pub async fn authorize(
        &self,
        verb: Verb,
        t: &ResolvedType,
        all_namespaces: bool,
        requests: &[AccessRequest],
    ) -> Result<Grant, GuardError> {
        self.boundary(verb, t, all_namespaces)?;
        for (req, decision) in self.decide_all(requests).await {
            if let Err(reason) = decision? {
                return Err(self.denial(req, reason).await.into());
            }
        }
        Ok(Grant::new(verb, requests.to_vec()))
    }

    /// [`Session::decide`] for every request of `requests` at once, each distinct request
    /// once, paired with its answer in the order of first appearance. The reviews are
    /// independent questions, so they are sent concurrently: on an HTTP/2 connection (every
    /// API server offers it) they share the connection and cost one round trip instead of one
    /// each.
    pub async fn decide_all<'r>(
        &self,
        requests: &'r [AccessRequest],
    ) -> Vec<(&'r AccessRequest, Result<Result<(), String>, GateError>)> {
        let mut unique: Vec<&AccessRequest> = Vec::with_capacity(requests.len());
        for r in requests {
            if !unique.contains(&r) {
                unique.push(r);
            }
        }
        let answers = futures::future::join_all(unique.iter().map(|r| self.decide(r))).await;
        unique.into_iter().zip(answers).collect()
    }

    /// The refusal of `req` by RBAC for `reason`, naming the user the server sees and where
    /// (`in namespace "x"`, `at cluster scope`): the one sentence of every RBAC denial.
    pub async fn denial(&self, req: &AccessRequest, reason: String) -> GateError {
        GateError::Denied {
            user: self.user().await,
            verb: req.verb.clone(),
            resource: req.group_resource(),
            place: match &req.namespace {
                Some(ns) => format!("in namespace \"{ns}\""),
                None => "at cluster scope".to_string(),
            },
            reason,
        }
    }

    /// Adds `req` to `grant` when its SelfSubjectAccessReview allows it: `Ok(true)`; a "no"
    /// leaves the grant as it was and is `Ok(false)` (the request is then never built).
    ///
    /// # Errors
    /// [`GateError::Review`] (exit 1, never a "no") when the review cannot be made.
    pub async fn extend_if_allowed(
        &self,
        grant: &mut Grant,
        req: AccessRequest,
    ) -> Result<bool, GateError> {
        if grant.covers(&req) {
            return Ok(true);
        }
        let allowed = self.decide(&req).await?.is_ok();
        if allowed {
            grant.add(req);
        }
        Ok(allowed)
    }

    /// The gate for a type the user did not name (one expanded from a category such as
    /// `all`): the same boundary and SelfSubjectAccessReviews as
    /// [`Session::authorize`], but a refusal is an answer, not an error — `Ok(Err(why))`, a
    /// few words for the one "skipped" line (`outside plugin.yaml`, `RBAC denies list`) — so
    /// the command goes on with the other types.
    ///
    /// # Errors
    /// [`GateError::Review`] (exit 1, never a "no") when a review cannot be made.
    pub async fn authorize_if_allowed(
        &self,
        verb: Verb,
        t: &ResolvedType,
        all_namespaces: bool,
        requests: &[AccessRequest],
    ) -> Result<Result<Grant, String>, GuardError> {
        if self.boundary(verb, t, all_namespaces).is_err() {
            return Ok(Err("outside plugin.yaml".into()));
        }
        for (req, decision) in self.decide_all(requests).await {
            if decision?.is_err() {
                return Ok(Err(format!("RBAC denies {}", req.verb)));
            }
        }
        Ok(Ok(Grant::new(verb, requests.to_vec())))
    }

    /// The RBAC decision for `req` without the boundary and without failing on "no"
    /// (`auth can-i` prints it): `Ok(())` allowed, `Err(reason)` denied (a default reason when
    /// the server gives none). Cached for this process only.
    ///
    /// # Errors
    /// [`GateError::Review`] (exit 1, never a "no") when the review cannot be made or times out.
    pub async fn decide(&self, req: &AccessRequest) -> Result<Result<(), String>, GateError> {
        if let Some(d) = self.reviews.lock().ok().and_then(|c| c.get(req).cloned()) {
            return Ok(d);
        }
        let api: Api<SelfSubjectAccessReview> = Api::all(self.cluster.client.clone());
        let answer = bounded(
            &self.cluster.server,
            "the SelfSubjectAccessReview",
            self.deadlines.review,
            api.create(&PostParams::default(), &req.review()),
        )
        .await
        .map_err(GateError::Review)?;
        let d = decision_of(answer.status.unwrap_or_default());
        if let Ok(mut c) = self.reviews.lock() {
            c.insert(req.clone(), d.clone());
        }
        Ok(d)
    }

    /// The RBAC decision for a non-resource URL (`auth can-i get /healthz`): one
    /// SelfSubjectAccessReview with `nonResourceAttributes` (as kubectl's `cani.go` sends it),
    /// answered like [`Session::decide`]. Not cached (one question per invocation).
    ///
    /// # Errors
    /// [`GateError::Review`] (exit 1, never a "no") when the review cannot be made or times out.
    pub async fn decide_non_resource(
        &self,
        verb: &str,
        path: &str,
    ) -> Result<Result<(), String>, GateError> {
        let review = SelfSubjectAccessReview {
            spec: SelfSubjectAccessReviewSpec {
                non_resource_attributes: Some(NonResourceAttributes {
                    verb: Some(verb.to_string()),
                    path: Some(path.to_string()),
                }),
                ..Default::default()
            },
            ..Default::default()
        };
        let api: Api<SelfSubjectAccessReview> = Api::all(self.cluster.client.clone());
        let answer = bounded(
            &self.cluster.server,
            "the SelfSubjectAccessReview",
            self.deadlines.review,
            api.create(&PostParams::default(), &review),
        )
        .await
        .map_err(GateError::Review)?;
        Ok(decision_of(answer.status.unwrap_or_default()))
    }

    /// The rules the caller has in `namespace` (SelfSubjectRulesReview,
    /// authorization.k8s.io/v1, as `kubectl auth can-i --list` asks), unfiltered.
    ///
    /// # Errors
    /// [`GateError::Review`] (exit 1) when the review cannot be made or times out.
    pub async fn rules_review(
        &self,
        namespace: &str,
    ) -> Result<SubjectRulesReviewStatus, GateError> {
        let review = SelfSubjectRulesReview {
            spec: SelfSubjectRulesReviewSpec {
                namespace: Some(namespace.to_string()),
            },
            ..Default::default()
        };
        let api: Api<SelfSubjectRulesReview> = Api::all(self.cluster.client.clone());
        let answer = bounded(
            &self.cluster.server,
            "the SelfSubjectRulesReview",
            self.deadlines.review,
            api.create(&PostParams::default(), &review),
        )
        .await
        .map_err(GateError::Review)?;
        Ok(answer.status.unwrap_or_default())
    }

    /// The identity the server sees (SelfSubjectReview, authentication.k8s.io/v1), asked once
    /// per process.
    ///
    /// # Errors
    /// [`GateError::Review`] when the review cannot be made or times out.
    pub(super) async fn review_identity(&self) -> Result<Option<Observed>, GateError> {
        let r = self.self_review().await?;
        Ok(r.status
            .clone()
            .and_then(|s| s.user_info)
            .map(|u| Observed {
                user: u.username.unwrap_or_default(),
                groups: u.groups.unwrap_or_default(),
                uid: u.uid,
                extra: u.extra.unwrap_or_default().into_iter().collect(),
            }))
    }

    /// The whole SelfSubjectReview (authentication.k8s.io/v1) as the server answered it, asked
    /// once per process (`auth whoami` prints it; the identity check reads it).
    ///
    /// # Errors
    /// [`GateError::Review`] (exit 1) when the review cannot be made or times out.
    pub async fn self_review(&self) -> Result<&SelfSubjectReview, GateError> {
        self.observed
            .get_or_try_init(|| async {
                let api: Api<SelfSubjectReview> = Api::all(self.cluster.client.clone());
                bounded(
                    &self.cluster.server,
                    "the SelfSubjectReview",
                    self.deadlines.review,
                    api.create(&PostParams::default(), &SelfSubjectReview::default()),
                )
                .await
                .map_err(GateError::Review)
            })
            .await
    }

    /// The user name the server sees, for messages and the journal; falls back to the
    /// configured user, then `unknown`, when the review cannot be made.
    pub async fn user(&self) -> String {
        match self.review_identity().await {
            Ok(Some(o)) if !o.user.is_empty() => o.user,
            _ => self
                .cluster
                .configured_user
                .clone()
                .unwrap_or_else(|| "unknown".to_string()),
        }
    }
}

/// The reason a denial carries when the server gives none (RBAC gives no reason for a plain
/// "no"); `auth can-i` prints a bare `no` for it, as kubectl does.
pub const NO_RULE_REASON: &str = "no RBAC rule allows it";

/// A review status as a decision: `Ok(())` when allowed and not explicitly denied, else
/// `Err(reason)` — the server's reason, else its evaluation error, else "no RBAC rule allows
/// it" (RBAC gives no reason for a plain "no").
fn decision_of(status: SubjectAccessReviewStatus) -> Result<(), String> {
    if status.allowed && status.denied != Some(true) {
        Ok(())
    } else {
        let reason = status
            .reason
            .filter(|r| !r.is_empty())
            .or(status.evaluation_error.filter(|r| !r.is_empty()));
        Err(reason.unwrap_or_else(|| NO_RULE_REASON.to_string()))
    }
}
