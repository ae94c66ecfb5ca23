//! One [`Session`] per invocation: the only holder of the Kubernetes client.
//!
//! Order of [`Session::open`] (each step before any later request):
//! 1. the plugin.yaml verb of the session's [`Purpose`] is checked (pure);
//! 2. for a purpose that writes the change log, it is opened, locked and proven writable
//!    ([`Journal::open`]) — otherwise nothing at all is sent;
//! 3. the client is built (exec credential plugins bounded by the call deadline), every
//!    request carrying the session id;
//! 4. when impersonation is in effect, a SelfSubjectReview must report exactly the requested
//!    identity ([`super::identity::verify`]), else exit 3.
//!
//! [`Session::open_for_entry`] opens it in the context a journaled entry was made in and says
//! whether that context still points at the entry's server.
//!
//! After that, [`Session::authorize`] checks the plugin.yaml boundary and asks one
//! SelfSubjectAccessReview per request shape (decisions cached in this process only, never
//! across processes) and hands out a [`Grant`] naming what was reviewed; the guarded path
//! builds a request only from a grant that covers it. Every request is bounded
//! ([`super::deadline`]).

use std::borrow::Cow;
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
use crate::authz::{AccessRequest, GateError, check_boundary, check_verb};
use crate::changelog::{self, Journal};
use crate::cluster::{ApiError, Cluster, ResolvedType, TypeIndex, connect, discovery_cache};
use crate::config::Verb;
use crate::crds::Registry;
use crate::output::Printer;
use crate::settings::Settings;

/// Whether the command may change the cluster (then the journal must be writable first);
/// derived from the session's [`Purpose`] ([`Purpose::mode`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Reads only (`get`, `auth`, `crds list`, `drift`, `changelog diff`).
    Read,
    /// Writes the change log (`patch`, `rollback`, `crds sync|watch`, `changelog reconcile`):
    /// it is proven writable before anything is sent.
    Mutate,
}

/// What a session is opened for: the plugin.yaml verb that binds the command, checked by
/// [`Session::open`] before anything else, and from it whether the change log is opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// A command bound by one plugin.yaml verb: `get` reads, `patch` changes the cluster
    /// (the change log is proven writable before anything is sent).
    Verb(Verb),
    /// Reads whose verb is checked per object, with each read's own review, so that one
    /// refused object is reported among the others (`drift`, `auth`, completion).
    Read,
    /// Reads objects (each read checks `get`) and appends outcome records to the change log,
    /// sending no change (`changelog reconcile`).
    Record,
}

impl Purpose {
    /// Whether the session writes the change log.
    pub fn mode(self) -> Mode {
        match self {
            Purpose::Verb(Verb::Patch) | Purpose::Record => Mode::Mutate,
            Purpose::Verb(Verb::Get) | Purpose::Read => Mode::Read,
        }
    }

    /// The plugin.yaml verb checked when the session opens, if any.
    pub fn verb(self) -> Option<Verb> {
        match self {
            Purpose::Verb(v) => Some(v),
            Purpose::Read | Purpose::Record => None,
        }
    }
}

impl From<Verb> for Purpose {
    fn from(v: Verb) -> Purpose {
        Purpose::Verb(v)
    }
}

/// Proof that the plugin.yaml boundary and the SelfSubjectAccessReview(s) allowed requests:
/// it names the plugin.yaml verb and every [`AccessRequest`] the reviews allowed, and the
/// guarded path builds a request only when a reviewed one covers it ([`Grant::covers`]).
/// Only the session makes one (its fields are private), so a request cannot be sent without
/// passing the gate first.
#[derive(Debug, Clone)]
pub struct Grant {
    verb: Verb,
    reviewed: Vec<AccessRequest>,
}

impl Grant {
    /// The plugin.yaml verb the boundary allowed.
    pub fn verb(&self) -> Verb {
        self.verb
    }

    /// The requests the reviews allowed (verb, group/resource, subresource, namespace, name).
    pub fn reviewed(&self) -> &[AccessRequest] {
        &self.reviewed
    }

    /// Whether a reviewed request covers `req`: the same verb, group, resource, subresource
    /// and namespace, and the same name — or none, a review of the whole collection.
    pub fn covers(&self, req: &AccessRequest) -> bool {
        self.reviewed.iter().any(|r| {
            r.verb == req.verb
                && r.group == req.group
                && r.resource == req.resource
                && r.subresource == req.subresource
                && r.namespace == req.namespace
                && (r.name.is_none() || r.name == req.name)
        })
    }
}

/// Where a journaled entry's context points now, when that is not the server the entry was
/// made on ([`Session::open_for_entry`]): nothing is to be sent there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Moved {
    /// The server the context points at now.
    pub now: String,
    /// The server of the entry.
    pub then: String,
}

/// One invocation's connection, identity, type index, review cache, deadlines and journal.
pub struct Session<'s> {
    settings: Cow<'s, Settings>,
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
    /// Opens the session for `purpose` (see the module doc for the order): first the
    /// plugin.yaml verb of the purpose is checked (pure, nothing sent), then — for a purpose
    /// that writes the change log — the journal is opened. Warnings (an unreadable CRD
    /// registry) are printed to `p`'s stderr.
    ///
    /// # Errors
    /// [`GuardError::Gate`] (exit 3, nothing sent) when plugin.yaml `verbs` lacks the verb;
    /// [`GuardError::Journal`] (exit 1, nothing sent) for a mutating command whose change log
    /// cannot be written; [`GuardError::Cluster`] for configuration problems;
    /// [`GuardError::Identity`] (exit 3) when impersonation was not applied; a failed or
    /// timed-out SelfSubjectReview is exit 1.
    pub async fn open(
        settings: &'s Settings,
        p: &mut Printer<'_>,
        purpose: impl Into<Purpose>,
    ) -> Result<Session<'s>, GuardError> {
        Session::open_with(Cow::Borrowed(settings), p, purpose.into()).await
    }

    /// Opens a session for a journaled entry made in `context` on `server`: in that context
    /// (the current one when the entry recorded none), for `purpose`, as [`Session::open`]
    /// does — and says whether the context points at another server now ([`Moved`]), in
    /// which case the caller sends nothing there.
    ///
    /// # Errors
    /// As [`Session::open`].
    pub async fn open_for_entry(
        settings: &'s Settings,
        p: &mut Printer<'_>,
        purpose: impl Into<Purpose>,
        context: Option<&str>,
        server: &str,
    ) -> Result<(Session<'s>, Option<Moved>), GuardError> {
        let settings = match context {
            Some(c) => {
                let mut cs = settings.clone();
                cs.kube.context = Some(c.to_string());
                Cow::Owned(cs)
            }
            None => Cow::Borrowed(settings),
        };
        let session = Session::open_with(settings, p, purpose.into()).await?;
        let moved = (session.server() != server).then(|| Moved {
            now: session.server().to_string(),
            then: server.to_string(),
        });
        Ok((session, moved))
    }

    async fn open_with(
        settings: Cow<'s, Settings>,
        p: &mut Printer<'_>,
        purpose: Purpose,
    ) -> Result<Session<'s>, GuardError> {
        if let Some(verb) = purpose.verb() {
            check_verb(&settings.plugin, verb)?;
        }
        let journal = match purpose.mode() {
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
    pub fn settings(&self) -> &Settings {
        &self.settings
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

    /// The journal of a session whose purpose writes the change log ([`Mode::Mutate`]).
    ///
    /// # Errors
    /// [`GuardError::Usage`] for a session opened to read (a programming error: every
    /// mutating command opens its session for `patch` or [`Purpose::Record`]).
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
    /// every time, and sends the document only when it changed).
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
                return Err(self.denial(req, reason).await.into());
            }
        }
        Ok(Grant {
            verb,
            reviewed: requests.to_vec(),
        })
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
            grant.reviewed.push(req);
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
        for req in requests {
            if self.decide(req).await?.is_err() {
                return Ok(Err(format!("RBAC denies {}", req.verb)));
            }
        }
        Ok(Ok(Grant {
            verb,
            reviewed: requests.to_vec(),
        }))
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
