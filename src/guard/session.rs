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
use kube::Client;
use serde::de::DeserializeOwned;
use tokio::sync::OnceCell;

use super::GuardError;
use super::deadline::{Deadlines, bounded};
use super::identity::verify;
use crate::changelog::{self, Journal};
use crate::cluster::discovery::{ResolveError, groups_named_by};
use crate::cluster::{ApiError, Cluster, ResolvedType, TypeIndex, connect, discovery_cache};
use crate::config::Verb;
use crate::crds::Registry;
use crate::guard::authz::{AccessRequest, GateError, check_boundary, check_verb};
use crate::output::Printer;
use crate::settings::Settings;

mod answered;
mod purpose;
mod reviews;

pub use answered::{Answered, Refusal};

pub use purpose::{Grant, Mode, Moved, Purpose};
pub use reviews::NO_RULE_REASON;

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
    answered: Mutex<Answered>,
    trail: super::trail::Trail,
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
                    })
                    .with_mirror(settings.plugin.changelog.mirror.is_some()),
            ),
            Mode::Read => None,
        };
        if journal.is_some() && settings.plugin.changelog.mirror.is_some() {
            changelog::outbox::check(&settings.home).map_err(GuardError::Journal)?;
        }
        if let Some(w) = journal.as_ref().and_then(Journal::warning) {
            p.err_line(w);
        }
        let id = settings
            .session_id
            .clone()
            .unwrap_or_else(changelog::new_session_id);
        let deadlines = Deadlines::new(settings.kube.request_timeout);
        let cluster = connect(&settings.kube, &id, deadlines.call).await?;
        if let Some(w) = &cluster.kuberc_warning {
            p.err_line(w);
        }
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
            answered: Mutex::new(Default::default()),
            trail: Default::default(),
        };
        if let Some(requested) = session.cluster.impersonation.clone() {
            let observed = match session.review_identity().await {
                Err(GateError::Review(ApiError::Server { code, message, .. }))
                    if let Some(e) = super::identity::refused(&requested, code, &message) =>
                {
                    return Err(e.into());
                }
                other => other?,
            };
            let observed = observed.ok_or_else(|| {
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

    /// What this session answered for plugin.yaml `protect:` so far ([`super::protect`]).
    pub(crate) fn protect_state(&self) -> std::sync::MutexGuard<'_, Answered> {
        self.answered
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// What this session remembers about the cluster mirror ([`super::trail`]).
    pub(crate) fn trail(&self) -> &super::trail::Trail {
        &self.trail
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

    /// Whether the client came from the pod's service account (in-cluster configuration).
    pub fn in_cluster(&self) -> bool {
        self.cluster.in_cluster
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
                    // This session's own deadline bounds its wait for another session's fetch
                    // and its own retry after that one failed, together: contexts on one
                    // server that never answers each end at their own deadline, in parallel
                    // (the wait and the retry one after the other took twice as long).
                    let deadline = self.deadlines.discovery;
                    let fetch = shared
                        .get_or_fetch(&self.cluster.server, async || self.fetch_index().await);
                    tokio::time::timeout(deadline, fetch)
                        .await
                        .unwrap_or_else(|_| {
                            Err(ApiError::Timeout {
                                server: self.cluster.server.clone(),
                                what: "the discovery request".into(),
                                after: deadline,
                            })
                        })
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

    /// Resolves TYPE as kubectl does (through [`Session::index_for`]).
    ///
    /// # Errors
    /// Discovery failures (1) and unknown or ambiguous TYPE (2).
    pub async fn resolve(&self, type_name: &str) -> Result<ResolvedType, GuardError> {
        Ok(self
            .index_for(&[type_name])
            .await?
            .resolve(type_name)?
            .clone())
    }

    /// [`Session::index`], plus the API group of each qualified TYPE of `types`
    /// (`NAME.GROUP`, `NAME.VERSION.GROUP`) that it does not know, from that group's own
    /// discovery documents ([`discovery_cache::fetch_group`]): a CRD registered a moment ago
    /// is served (and in `/apis/GROUP/VERSION`) as soon as it is Established, while the
    /// aggregated `/apis` document may list it later, on a loaded server by a few hundred
    /// milliseconds (docs/performance.md, "Hot-load, stage by stage"). kubectl's cached
    /// discovery refetches on a miss too (client-go `DeferredDiscoveryRESTMapper` resets and
    /// asks again); asking the group's own document is what makes the refetch see it.
    /// Costs nothing when every TYPE resolves; a group the server does not serve (404), or a
    /// per-group request that fails, leaves the index as it was, so an unknown TYPE fails
    /// exactly as before.
    ///
    /// # Errors
    /// The aggregated discovery request's error or timeout.
    pub async fn index_for(&self, types: &[&str]) -> Result<Cow<'_, TypeIndex>, ApiError> {
        let index = self.index().await?;
        let mut missing: Vec<String> = Vec::new();
        for t in types {
            if matches!(index.resolve(t), Err(ResolveError::Unknown(_)))
                && index.category(t).is_empty()
            {
                for g in groups_named_by(t) {
                    if !index.has_group(&g) && !missing.contains(&g) {
                        missing.push(g);
                    }
                }
            }
        }
        if missing.is_empty() {
            return Ok(Cow::Borrowed(index));
        }
        let mut more = index.clone();
        for g in missing {
            let fetched = bounded(
                &self.cluster.server,
                "the discovery request",
                self.deadlines.discovery,
                async { discovery_cache::fetch_group(&self.cluster.client, &g).await },
            )
            .await;
            if let Ok(Some(lists)) = fetched {
                more.add_group(&g, lists);
            }
        }
        Ok(Cow::Owned(more))
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

    /// Sends a request built for a granted type (e.g. with `kube::core::Request`) under the
    /// call deadline and decodes the answer as deep as kubectl reads
    /// ([`crate::base::decode`]: an object nested past serde_json's default 128 levels).
    ///
    /// # Errors
    /// The request's error, [`ApiError::Timeout`], or [`ApiError::Undecodable`].
    pub async fn send<T: DeserializeOwned>(
        &self,
        _grant: &Grant,
        req: http::Request<Vec<u8>>,
    ) -> Result<T, ApiError> {
        self.send_deep("the request", req).await
    }

    /// Sends `req` under the call deadline (`what` names it in a timeout) and decodes the
    /// answer with [`crate::base::decode::from_str`]; for [`Session::send`] and the reads of
    /// this layer.
    ///
    /// # Errors
    /// As [`Session::send`].
    pub(crate) async fn send_deep<T: DeserializeOwned>(
        &self,
        what: &str,
        req: http::Request<Vec<u8>>,
    ) -> Result<T, ApiError> {
        let text = self
            .call(what, self.cluster.client.request_text(req))
            .await?;
        crate::base::decode::from_str(&text).map_err(|e| ApiError::Undecodable {
            server: self.cluster.server.clone(),
            detail: e.to_string(),
        })
    }
}
