//! Registering CRDs on the cluster through the guarded path: the plugin.yaml boundary and the
//! SelfSubjectAccessReview gate, write-ahead journaled server-side applies and prunes, and the
//! bounded waits that make a CRD usable by a new process. Used by the one batch function
//! ([`super::crd_batch`]) that `crds sync` (one shot) and `crds watch` (hot-load) share.
//!
//! Order per CRD (docs/design.md, "Layers"; kube-rs `examples/crd_apply.rs`): server-side apply with
//! field manager `kubectl-myops` (conflicts are reported with the other manager's name
//! unless `force`), then poll until `Established` and `NamesAccepted` are `True`, then poll
//! aggregated discovery until the storage version is served — `Established` does not mean
//! discovery shows it yet (docs/performance.md).

use std::time::{Duration, Instant};

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::Api;
use kube::api::{DeleteParams, PatchParams};

use futures::StreamExt;

use serde_json::Value;

use super::GuardError;
use super::change::{Change, ObjectRef, Params, Request};
use super::session::Session;
use crate::changelog::Operation;
use crate::cluster::ApiError;
use crate::crds::LoadedCrd;
use crate::exit::ExitStatus;

/// Applies in flight at once (large CRDs take the server a while to validate).
const PARALLEL_APPLIES: usize = 4;

/// How long a wait (Established, discovery) runs before it is announced to the user
/// ([`WaitNotices`]): a second, after which a silent command looks hung.
pub const ANNOUNCE_WAIT_AFTER: Duration = Duration::from_secs(1);

/// Where the waits of [`Applier::apply_stream`] announce themselves once they last longer than
/// [`ANNOUNCE_WAIT_AFTER`]: a text naming what is awaited (`CRD x.example.com to be
/// Established`). Unbounded: at most one message per CRD.
pub type WaitNotices = tokio::sync::mpsc::UnboundedSender<String>;

/// When each step of one CRD's apply happened: the hot-load breakdown that `crds watch -v`
/// logs with every registered CRD (docs/performance.md, "Hot-load, stage by stage").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AppliedCrd {
    /// The CRD's before-state was read (it is journaled with the intent).
    pub read: Instant,
    /// The apply was admitted (protection) and about to be journaled and sent.
    pub sent: Instant,
    /// The server answered the apply (and its outcome was journaled).
    pub answered: Instant,
    /// `Established` and `NamesAccepted` were seen `True`.
    pub established: Instant,
}

/// The field manager of every server-side apply this tool makes.
pub const FIELD_MANAGER: &str = "kubectl-myops";

/// Why one CRD could not be registered.
#[derive(Debug, thiserror::Error)]
pub enum ApplyError {
    /// The caller may not create/patch CRDs, or the journal cannot be written (nothing sent).
    #[error(transparent)]
    Guard(#[from] GuardError),
    /// The server refused the apply (invalid schema, field conflict with another manager, …).
    #[error("{file}:{line}: {name}: {source}")]
    Rejected {
        /// The file the CRD came from.
        file: String,
        /// Line of its document.
        line: u64,
        /// CRD name.
        name: String,
        /// The server's answer.
        #[source]
        source: ApiError,
    },
    /// A request failed while waiting (network, 5xx).
    #[error("{name}: {source}")]
    Wait {
        /// CRD name.
        name: String,
        /// The failed request.
        #[source]
        source: ApiError,
    },
    /// The server refused the CRD's names (`NamesAccepted=False`), e.g. a kind or short name
    /// another CRD already uses.
    #[error(
        "CRD {name} was applied but its names are not accepted ({reason}); rename it or remove the other CRD"
    )]
    NamesRejected {
        /// CRD name.
        name: String,
        /// The condition's reason and message.
        reason: String,
    },
    /// `crds watch --leader-elect`: this process does not hold the Lease (any more), so
    /// nothing was sent; the leader applies it.
    #[error(
        "{name}: not applied: this watcher is not the leader (its Lease renewal is overdue or another holds it); the leader applies it"
    )]
    NotLeader {
        /// CRD name.
        name: String,
    },
    /// The CRD did not become ready in time.
    #[error(
        "CRD {name} was applied but is not {what} after {seconds:.1}s; check `kubectl get crd {name} -o yaml` for its conditions"
    )]
    NotReady {
        /// CRD name.
        name: String,
        /// `Established`, `NamesAccepted …` or `served by discovery`.
        what: String,
        /// How long we waited, in seconds.
        seconds: f64,
    },
}

impl ApplyError {
    /// 3 denied, 5 field conflict, 2 schema rejected, 1 otherwise.
    pub fn exit_status(&self) -> ExitStatus {
        match self {
            ApplyError::Guard(e) => e.exit_status(),
            ApplyError::Rejected { source, .. } | ApplyError::Wait { source, .. } => {
                source.exit_status()
            }
            ApplyError::NamesRejected { .. } => ExitStatus::Conflict,
            ApplyError::NotReady { .. } | ApplyError::NotLeader { .. } => ExitStatus::Failure,
        }
    }

    /// Whether the failure is the server not answering (stopped, restarting, its etcd down:
    /// [`ApiError::is_transient`]) rather than anything about the CRD or the caller's rights:
    /// `crds watch` applies such a CRD again once the server answers.
    pub fn is_transient(&self) -> bool {
        self.transient().is_some()
    }

    /// The server's failure itself when [`ApplyError::is_transient`] (what the outage is
    /// told with, once for every CRD it holds up).
    pub fn transient(&self) -> Option<&ApiError> {
        match self {
            ApplyError::Guard(GuardError::Api(e))
            | ApplyError::Guard(GuardError::Gate(crate::guard::authz::GateError::Review(e)))
            | ApplyError::Rejected { source: e, .. }
            | ApplyError::Wait { source: e, .. } => Some(e).filter(|e| e.is_transient()),
            _ => None,
        }
    }
}

/// The resource type CRD registration acts on (cluster-scoped customresourcedefinitions in
/// apiextensions.k8s.io), for the plugin.yaml boundary: registering a CRD is a server-side
/// apply, so plugin.yaml must allow verb `patch` on `customresourcedefinitions` at scope
/// `cluster`.
pub fn crd_type() -> crate::cluster::ResolvedType {
    crate::cluster::ResolvedType {
        api: kube::discovery::ApiResource {
            group: "apiextensions.k8s.io".into(),
            version: "v1".into(),
            api_version: "apiextensions.k8s.io/v1".into(),
            kind: "CustomResourceDefinition".into(),
            plural: "customresourcedefinitions".into(),
        },
        namespaced: false,
        singular: "customresourcedefinition".into(),
        short_names: vec!["crd".into(), "crds".into()],
        categories: vec!["api-extensions".into()],
        verbs: vec![],
        preferred: true,
        subresources: vec!["status".into()],
    }
}

/// The CRD `name` as an object of the mutation model.
fn crd_object(name: &str) -> ObjectRef {
    ObjectRef {
        t: crd_type(),
        namespace: None,
        name: name.to_string(),
    }
}

/// Applies CRDs to one cluster, journaling every attempt write-ahead.
pub struct Applier<'a> {
    session: &'a Session<'a>,
    api: Api<CustomResourceDefinition>,
    params: PatchParams,
    timeout: Duration,
    fence: Option<super::lease::Fence>,
}

impl<'a> Applier<'a> {
    /// An applier on a session opened for `patch`; `force` takes over fields owned by
    /// other managers (`--force-conflicts`); `timeout` bounds each wait.
    pub fn new(session: &'a Session<'a>, force: bool, timeout: Duration) -> Applier<'a> {
        let mut params = PatchParams::apply(FIELD_MANAGER);
        if force {
            params = params.force();
        }
        Applier {
            session,
            api: Api::all(session.client().clone()),
            params,
            timeout,
            fence: None,
        }
    }

    /// Fences every later apply and prune by leader election (`crds watch --leader-elect`):
    /// each is refused with [`ApplyError::NotLeader`], before its journal entry and before
    /// any request, unless `fence` holds at that moment.
    pub fn with_fence(mut self, fence: super::lease::Fence) -> Applier<'a> {
        self.fence = Some(fence);
        self
    }

    /// [`ApplyError::NotLeader`] when a fence is set and does not hold now.
    fn check_fence(&self, name: &str) -> Option<ApplyError> {
        match &self.fence {
            Some(f) if !f.holds() => Some(ApplyError::NotLeader { name: name.into() }),
            _ => None,
        }
    }

    /// Applies `crds` (at most four in flight, each through [`Applier::apply`]) and yields each
    /// result as soon as it and those before it are done, in input order — so a caller can
    /// report each file as it lands. A wait for `Established` that lasts longer than
    /// [`ANNOUNCE_WAIT_AFTER`] sends one message to `notices`.
    pub fn apply_stream<'c, 's>(
        &'s self,
        crds: &'s [&'c LoadedCrd],
        notices: Option<&'s WaitNotices>,
    ) -> impl futures::Stream<Item = (&'c LoadedCrd, Result<AppliedCrd, ApplyError>)> + 's
    where
        'c: 's,
    {
        futures::stream::iter(
            crds.iter()
                .map(move |c| async move { (*c, self.apply_noticed(c, notices).await) }),
        )
        .buffered(PARALLEL_APPLIES)
    }

    /// The gate for registering CRDs: the plugin.yaml boundary (verb `patch` on
    /// customresourcedefinitions at scope `cluster`), then SelfSubjectAccessReviews for
    /// `create` and `patch` (server-side apply needs both).
    ///
    /// # Errors
    /// [`GuardError`] (exit 3) naming the user when either is denied.
    pub async fn check_access(&self) -> Result<(), GuardError> {
        let apply = self.change(serde_json::Value::Null, None);
        let any = crd_object("");
        self.session
            .authorize(
                crate::guard::change::plugin_verb(Operation::CrdApply),
                &any.t,
                false,
                &apply.reviews_of_any(&any),
            )
            .await?;
        Ok(())
    }

    /// A server-side apply of `body` with this applier's field manager and force, journaled
    /// with `origin` instead of the body.
    fn change(&self, body: serde_json::Value, origin: Option<serde_json::Value>) -> Change {
        Change::Apply {
            body,
            field_manager: FIELD_MANAGER.into(),
            force: self.params.force,
            origin,
        }
    }

    /// Server-side applies `crd` and waits until it is Established with its names accepted.
    /// Returns when each step happened ([`AppliedCrd`]). Every attempt is journaled with the
    /// CRD as it was before (read first; journaled without it when it cannot be read).
    ///
    /// # Errors
    /// [`ApplyError::Rejected`] with the file and the server's message (a field conflict names
    /// the other manager), [`ApplyError::NotReady`] after the timeout.
    pub async fn apply(&self, crd: &LoadedCrd) -> Result<AppliedCrd, ApplyError> {
        self.apply_noticed(crd, None).await
    }

    /// [`Applier::apply`], announcing a long wait for `Established` to `notices`.
    async fn apply_noticed(
        &self,
        crd: &LoadedCrd,
        notices: Option<&WaitNotices>,
    ) -> Result<AppliedCrd, ApplyError> {
        let before = self
            .session
            .call("the read of the CRD", self.api.get_opt(&crd.name))
            .await
            .ok()
            .flatten();
        let read = Instant::now();
        let from =
            serde_json::json!({"appliedFrom": format!("{}:{}", crd.file.display(), crd.line)});
        if let Some(e) = self.check_fence(&crd.name) {
            return Err(e);
        }
        let change = self.change(crd.body.clone(), Some(from));
        let intent = self
            .intent(Operation::CrdApply, &change, &crd.name, before.as_ref())
            .await;
        let (Request::Patch { patch, .. }, Params::Patch(pp)) = change
            .request(FIELD_MANAGER, false)
            .map_err(GuardError::Usage)?
        else {
            return Err(GuardError::Usage("internal: an apply builds a PATCH".into()).into());
        };
        let request = self.api.patch(&crd.name, &pp, &patch);
        let before = before.as_ref().and_then(|b| serde_json::to_value(b).ok());
        let dry_params = PatchParams {
            dry_run: true,
            ..pp.clone()
        };
        let dry_run = async {
            let answer = self.api.patch(&crd.name, &dry_params, &patch).await?;
            Ok(serde_json::to_value(answer).unwrap_or_default())
        };
        let intent = self.session.admit(intent, before.as_ref(), dry_run).await?;
        let sent = Instant::now();
        let answer = match self
            .session
            .journaled_with(intent, "the server-side apply", request, |o| {
                let answer = serde_json::to_value(o).unwrap_or_default();
                change.outcome("CustomResourceDefinition", before.as_ref(), &answer)
            })
            .await
        {
            Ok(answer) => answer,
            Err(GuardError::Api(source)) => {
                return Err(ApplyError::Rejected {
                    file: crd.file.display().to_string(),
                    line: crd.line,
                    name: crd.name.clone(),
                    source,
                });
            }
            Err(e) => return Err(e.into()),
        };
        let answered = Instant::now();
        self.wait_established(&crd.name, answer, sent, notices)
            .await?;
        Ok(AppliedCrd {
            read,
            sent,
            answered,
            established: Instant::now(),
        })
    }

    /// Deletes the CRD `name` from the cluster if this tool applied it (its managedFields
    /// name the field manager `kubectl-myops`). Returns `false`, deleting nothing, when it is
    /// missing or managed only by others. Deleting a CRD deletes every custom resource of it.
    ///
    /// # Errors
    /// [`ApplyError::Rejected`] when the read or delete fails (a 403 is exit 3).
    pub async fn prune(&self, name: &str) -> Result<bool, ApplyError> {
        let rejected = |source| ApplyError::Rejected {
            file: "-".into(),
            line: 0,
            name: name.into(),
            source,
        };
        let Some(crd) = self
            .session
            .call("the read of the CRD", self.api.get_opt(name))
            .await
            .map_err(rejected)?
        else {
            return Ok(false);
        };
        let ours = crd
            .metadata
            .managed_fields
            .iter()
            .flatten()
            .any(|m| m.manager.as_deref() == Some(FIELD_MANAGER));
        if !ours {
            return Ok(false);
        }
        if let Some(e) = self.check_fence(name) {
            return Err(e);
        }
        let change = Change::Delete {
            uid: None,
            resource_version: None,
            propagation: None,
            grace_period: None,
            unrecoverable: false,
        };
        let intent = self
            .intent(Operation::CrdPrune, &change, name, Some(&crd))
            .await;
        let (Request::Delete(dp), _) = change
            .request(FIELD_MANAGER, false)
            .map_err(GuardError::Usage)?
        else {
            return Err(GuardError::Usage("internal: a delete builds a DELETE".into()).into());
        };
        let dry_params = DeleteParams {
            dry_run: true,
            ..dp.clone()
        };
        let dry_run = async {
            self.api.delete(name, &dry_params).await?;
            Ok(Value::Null)
        };
        let before = serde_json::to_value(&crd).ok();
        let intent = self.session.admit(intent, before.as_ref(), dry_run).await?;
        let request = self.api.delete(name, &dp);
        match self
            .session
            .journaled(intent, "the delete of the CRD", request, |_| {
                change
                    .outcome("CustomResourceDefinition", None, &Value::Null)
                    .0
            })
            .await
        {
            Ok(_) => Ok(true),
            Err(GuardError::Api(source)) => Err(rejected(source)),
            Err(e) => Err(e.into()),
        }
    }

    /// The intent record of a CRD apply or prune ([`Change::intent`]).
    async fn intent(
        &self,
        operation: Operation,
        change: &Change,
        name: &str,
        before: Option<&CustomResourceDefinition>,
    ) -> crate::changelog::Entry {
        let obj = crd_object(name);
        let before = before.and_then(|b| serde_json::to_value(b).ok());
        self.session
            .intent(change.intent(operation, &obj, false, before.as_ref()))
            .await
    }

    /// One look at aggregated discovery: for each of `crds`, whether its storage version is
    /// served (so a new process resolves the kind at once). The caller polls (every 100 ms
    /// in [`super::crd_batch`]) and applies its own deadline per CRD.
    ///
    /// # Errors
    /// [`ApplyError::Wait`] when discovery cannot be fetched.
    pub async fn served(&self, crds: &[&LoadedCrd]) -> Result<Vec<bool>, ApplyError> {
        let index = self
            .session
            .fetch_index()
            .await
            .map_err(|source| ApplyError::Wait {
                name: "discovery".into(),
                source,
            })?;
        Ok(crds
            .iter()
            .map(|c| {
                index.types().iter().any(|t| {
                    t.api.group == c.group
                        && t.api.plural == c.plural
                        && t.api.version == c.storage_version
                })
            })
            .collect())
    }

    /// How long each wait may take (`--timeout`).
    pub fn timeout(&self) -> Duration {
        self.timeout
    }
}

mod established;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guard::authz::GateError;

    fn server(code: u16) -> ApiError {
        ApiError::Server {
            code,
            reason: "R".into(),
            message: "m".into(),
        }
    }

    fn timeout() -> ApiError {
        ApiError::Timeout {
            server: "https://127.0.0.1:1".into(),
            what: "the SelfSubjectAccessReview".into(),
            after: Duration::from_secs(1),
        }
    }

    #[test]
    fn only_a_server_that_does_not_answer_makes_an_apply_wait_for_it() {
        let rejected = |source| ApplyError::Rejected {
            file: "a.yaml".into(),
            line: 1,
            name: "as.example.com".into(),
            source,
        };
        // The review or the apply found no server, or a 503: wait and apply again.
        let review = ApplyError::Guard(GuardError::Gate(GateError::Review(timeout())));
        assert!(review.is_transient());
        assert_eq!(
            review.transient().map(|e| e.to_string()),
            Some(timeout().to_string())
        );
        assert!(rejected(server(503)).is_transient());
        // A schema the server rejects, a denial, a field conflict or another leader: report.
        assert!(!rejected(server(422)).is_transient());
        assert!(!rejected(server(409)).is_transient());
        assert!(!ApplyError::Guard(GuardError::Api(server(403))).is_transient());
        assert!(
            !ApplyError::NotLeader {
                name: "as.example.com".into()
            }
            .is_transient()
        );
    }
}
