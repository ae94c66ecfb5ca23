//! One [`Session`] per invocation: the only holder of the Kubernetes client.
//!
//! Order of [`Session::open`] (each step before any later request):
//! 1. for a mutating command, the change log is opened, locked and proven writable
//!    ([`Journal::open`]) — otherwise nothing at all is sent;
//! 2. the client is built (exec credential plugins bounded by the call deadline), every
//!    request carrying the session id;
//! 3. when impersonation is in effect, a SelfSubjectReview must report exactly the requested
//!    identity ([`super::identity::verify`]), else exit 3.
//!
//! After that, [`Session::authorize`] checks the plugin.yaml boundary and asks one
//! SelfSubjectAccessReview per request shape (decisions cached in this process only, never
//! across processes) and hands out a [`Grant`]; [`Session::send`] needs one. Every request
//! is bounded ([`super::deadline`]).

use std::collections::HashMap;
use std::sync::Mutex;

use k8s_openapi::api::authentication::v1::SelfSubjectReview;
use k8s_openapi::api::authorization::v1::{
    NonResourceAttributes, SelfSubjectAccessReview, SelfSubjectAccessReviewSpec,
    SelfSubjectRulesReview, SelfSubjectRulesReviewSpec, SubjectAccessReviewStatus,
    SubjectRulesReviewStatus,
};
use kube::api::PostParams;
use kube::{Api, Client};
use serde::de::DeserializeOwned;
use tokio::sync::OnceCell;

use super::GuardError;
use super::deadline::{Deadlines, bounded};
use super::identity::{Observed, verify};
use crate::authz::{AccessRequest, GateError, check_boundary};
use crate::changelog::{self, Journal};
use crate::cluster::{ApiError, Cluster, ResolvedType, TypeIndex, connect, discovery_cache};
use crate::config::Verb;
use crate::crds::Registry;
use crate::output::Printer;
use crate::settings::Settings;

/// Whether the command may change the cluster (then the journal must be writable first).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Reads only (`get`, `auth`, `crds list`).
    Read,
    /// Mutates (`patch`, `rollback`, `crds sync|watch`): the change log is proven writable
    /// before anything is sent.
    Mutate,
}

/// Proof that the plugin.yaml boundary and the SelfSubjectAccessReview(s) allowed a request
/// shape; [`Session::send`] and the mutations take one. Only [`Session::authorize`] makes it
/// (its field is private), so a request cannot be sent without passing the gate first.
#[derive(Debug)]
pub struct Grant {
    _private: (),
}

/// One invocation's connection, identity, type index, review cache, deadlines and journal.
pub struct Session<'s> {
    settings: &'s Settings,
    cluster: Cluster,
    id: String,
    deadlines: Deadlines,
    journal: Option<Journal>,
    registered: Vec<String>,
    index: OnceCell<std::sync::Arc<TypeIndex>>,
    observed: OnceCell<SelfSubjectReview>,
    reviews: Mutex<HashMap<AccessRequest, Result<(), String>>>,
}

impl<'s> Session<'s> {
    /// Opens the session (see the module doc for the order). Warnings (an unreadable CRD
    /// registry) are printed to `p`'s stderr.
    ///
    /// # Errors
    /// [`GuardError::Journal`] (exit 1, nothing sent) for a mutating command whose change log
    /// cannot be written; [`GuardError::Cluster`] for configuration problems;
    /// [`GuardError::Identity`] (exit 3) when impersonation was not applied; a failed or
    /// timed-out SelfSubjectReview is exit 1.
    pub async fn open(
        settings: &'s Settings,
        p: &mut Printer<'_>,
        mode: Mode,
    ) -> Result<Session<'s>, GuardError> {
        let journal = match mode {
            Mode::Mutate => Some(
                Journal::open(&settings.home)
                    .map_err(GuardError::Journal)?
                    .with_retention(changelog::Retention {
                        max_size: settings.plugin.changelog.max_size,
                        max_age: settings.plugin.changelog.max_age,
                    }),
            ),
            Mode::Read => None,
        };
        if let Some(w) = journal.as_ref().and_then(Journal::warning) {
            p.err_line(w);
        }
        let id = settings
            .session_id
            .clone()
            .unwrap_or_else(changelog::new_session_id);
        let deadlines = Deadlines::new(settings.kube.request_timeout);
        let cluster = connect(&settings.kube, &id, deadlines.call).await?;
        // The registry only adds CRDs to the boundary; if it is unreadable, go on without them.
        let registered = match Registry::load(&settings.home) {
            Ok(r) => r.names(),
            Err(e) => {
                p.err_line(&format!("warning: {e}"));
                Vec::new()
            }
        };
        let session = Session {
            settings,
            cluster,
            id,
            deadlines,
            journal,
            registered,
            index: OnceCell::new(),
            observed: OnceCell::new(),
            reviews: Mutex::new(HashMap::new()),
        };
        if let Some(requested) = session.cluster.impersonation.clone() {
            let observed = session.review_identity().await?.ok_or_else(|| {
                GuardError::Gate(GateError::Review(ApiError::Server {
                    code: 500,
                    reason: "InternalError".into(),
                    message: "the SelfSubjectReview returned no user".into(),
                }))
            })?;
            verify(&requested, &observed)?;
        }
        Ok(session)
    }

    /// The settings this session was opened with.
    pub fn settings(&self) -> &'s Settings {
        self.settings
    }

    /// The session id: on every request (`Kubectl-Session`, User-Agent) and every record.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The namespace in effect: `-n`, else the context's, else `default`.
    pub fn namespace(&self) -> &str {
        &self.cluster.namespace
    }

    /// The API server URL (for messages).
    pub fn server(&self) -> &str {
        &self.cluster.server
    }

    /// The kubeconfig context in use, if any.
    pub fn context(&self) -> Option<&str> {
        self.cluster.context.as_deref()
    }

    /// CRD names registered by `crds sync|watch` (part of the plugin.yaml boundary).
    pub fn registered(&self) -> &[String] {
        &self.registered
    }

    /// The journal of a session opened in [`Mode::Mutate`].
    ///
    /// # Errors
    /// [`GuardError::Usage`] for a session opened in [`Mode::Read`] (a programming error:
    /// every mutating command opens its session in `Mode::Mutate`).
    pub(crate) fn journal(&self) -> Result<&Journal, GuardError> {
        self.journal.as_ref().ok_or_else(|| {
            GuardError::Usage("internal: a mutation needs a session opened in Mode::Mutate".into())
        })
    }

    /// The client, for the guarded layer's own requests (crates `guard` and `crds`); verbs
    /// never see it (a test reads `src/verbs/` to keep it so).
    pub(crate) fn client(&self) -> &Client {
        &self.cluster.client
    }

    /// The deadline of one call (`--request-timeout`, else 32 s), for the guarded layer's
    /// own requests made outside a borrowed session (the leader-election loop).
    pub(crate) fn call_deadline(&self) -> std::time::Duration {
        self.deadlines.call
    }

    /// Runs one request under the call deadline.
    ///
    /// # Errors
    /// The request's error or [`ApiError::Timeout`].
    pub(crate) async fn call<T, F>(&self, what: &str, fut: F) -> Result<T, ApiError>
    where
        F: std::future::Future<Output = Result<T, kube::Error>>,
    {
        bounded(&self.cluster.server, what, self.deadlines.call, fut).await
    }

    /// The type index from aggregated discovery, fetched once per session under the discovery
    /// deadline (a CRD registered a moment ago by another process is seen: nothing is cached
    /// across processes), or once per server for all sessions of a fan-out
    /// ([`Settings::shared_discovery`]).
    ///
    /// # Errors
    /// The discovery request's error or timeout.
    pub async fn index(&self) -> Result<&TypeIndex, ApiError> {
        self.index
            .get_or_try_init(async || match &self.settings.shared_discovery {
                Some(shared) => {
                    shared
                        .get_or_fetch(&self.cluster.server, async || self.fetch_index().await)
                        .await
                }
                None => self.fetch_index().await.map(std::sync::Arc::new),
            })
            .await
            .map(|i| &**i)
    }

    /// Fetches aggregated discovery anew (for waits that need a fresh view, e.g. until a new
    /// CRD is served), under the discovery deadline, revalidating the per-server cache in
    /// `MYOPS_HOME/cache/discovery/` with `If-None-Match` (never stale: the server is asked
    /// every time, and sends the document only when it changed; issue 12, item 2).
    ///
    /// # Errors
    /// The discovery request's error or timeout.
    pub async fn fetch_index(&self) -> Result<TypeIndex, ApiError> {
        let dir = discovery_cache::dir_for(&self.settings.home, &self.cluster.server);
        bounded(
            &self.cluster.server,
            "the discovery request",
            self.deadlines.discovery,
            discovery_cache::fetch(&self.cluster.client, &self.cluster.server, Some(&dir)),
        )
        .await
    }

    /// Resolves TYPE as kubectl does.
    ///
    /// # Errors
    /// Discovery failures (1) and unknown or ambiguous TYPE (2).
    pub async fn resolve(&self, type_name: &str) -> Result<ResolvedType, GuardError> {
        Ok(self.index().await?.resolve(type_name)?.clone())
    }

    /// The plugin.yaml boundary (pure; registered CRDs included).
    ///
    /// # Errors
    /// [`GateError`] naming the plugin.yaml key to change.
    pub fn boundary(
        &self,
        verb: Verb,
        t: &ResolvedType,
        all_namespaces: bool,
    ) -> Result<(), GateError> {
        check_boundary(
            &self.settings.plugin,
            &self.registered,
            verb,
            t,
            all_namespaces,
        )
    }

    /// The namespace a request on `t` uses: the session's for namespaced types, none for
    /// cluster-scoped types or all namespaces.
    pub fn namespace_for(&self, t: &ResolvedType, all_namespaces: bool) -> Option<String> {
        (t.namespaced && !all_namespaces).then(|| self.cluster.namespace.clone())
    }

    /// The gate: the plugin.yaml boundary for `verb`, then one SelfSubjectAccessReview per
    /// `request` (RBAC verb `rbac_verbs[i]` with `names[i]`, or the collection when `names` is
    /// empty). Returns the [`Grant`] later requests need.
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
        for req in requests {
            if let Err(reason) = self.decide(req).await? {
                return Err(GateError::Denied {
                    user: self.user().await,
                    verb: req.verb.clone(),
                    resource: req.group_resource(),
                    place: match &req.namespace {
                        Some(ns) => format!("in namespace \"{ns}\""),
                        None => "at cluster scope".to_string(),
                    },
                    reason,
                }
                .into());
            }
        }
        Ok(Grant { _private: () })
    }

    /// The gate for a type the user did not name (one expanded from a category such as
    /// `all`, issue 11 item 2): the same boundary and SelfSubjectAccessReviews as
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
        for req in requests {
            if self.decide(req).await?.is_err() {
                return Ok(Err(format!("RBAC denies {}", req.verb)));
            }
        }
        Ok(Ok(Grant { _private: () }))
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
    async fn review_identity(&self) -> Result<Option<Observed>, GateError> {
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

    /// Sends a request built for a granted type (e.g. with `kube::core::Request`) under the
    /// call deadline and decodes the answer.
    ///
    /// # Errors
    /// The request's error or [`ApiError::Timeout`].
    pub async fn send<T: DeserializeOwned>(
        &self,
        _grant: &Grant,
        req: http::Request<Vec<u8>>,
    ) -> Result<T, ApiError> {
        self.call("the request", self.cluster.client.request::<T>(req))
            .await
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
