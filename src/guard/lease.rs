//! Leader election I/O: the Lease requests (through the session's client, so every one
//! carries the session id in `Kubectl-Session` and the User-Agent, under the call deadline),
//! the RBAC gate for them, and the election loop that runs beside the watcher and publishes
//! [`Leadership`] on a tokio watch channel. The decisions are made by the pure
//! [`super::election::Elector`].
//!
//! Lease writes are this tool's own coordination, not changes a user asked for: they are
//! not journaled in the change log (docs/changelog.md covers user mutations), and they are not
//! limited by plugin.yaml (which bounds what the tool may do *for* the user). RBAC still
//! decides: [`check_access`] asks SelfSubjectAccessReviews for `get`, `create` and `update`
//! on the Lease before anything else.
//!
//! Only CRD applies and prunes are fenced ([`Fence`], checked by `guard::crd_apply` right
//! before the write-ahead journal entry and the request): a leader whose last successful
//! renewal started longer than the renew deadline ago stops sending them at once, on its
//! own monotonic clock, whether or not the election loop has noticed anything yet.

use std::time::{Duration, Instant};

use jiff::Timestamp;
use k8s_openapi::api::coordination::v1::Lease;
use kube::Api;
use kube::api::{ApiResource, DynamicObject, ObjectMeta, PostParams};
use tokio::sync::{oneshot, watch};

use super::GuardError;
use super::deadline::bounded;
use super::election::{Elector, Record, Seen, Step};
use super::session::Session;
use crate::cluster::ApiError;
use crate::guard::authz::{AccessRequest, GateError};

/// The default Lease name of `crds watch --leader-elect`.
pub const DEFAULT_LEASE_NAME: &str = "kubectl-myops-crd-loader";

/// This process's candidate identity: the host name (a pod's name in a Deployment) and the
/// session id, `<host>_<session id>` — unique per process like client-go tools'
/// `hostname + "_" + uuid`, and the same id the audit log shows in this process's
/// User-Agent, so a holder can be matched to its requests.
pub fn identity(session_id: &str) -> String {
    let host = gethostname::gethostname()
        .into_string()
        .ok()
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "unknown".to_string());
    format!("{host}_{session_id}")
}

/// The gate for leader election: SelfSubjectAccessReviews for `get` and `update` on the
/// Lease `name` and `create` on leases (RBAC cannot restrict `create` by name) in
/// `namespace`, group `coordination.k8s.io`.
///
/// # Errors
/// [`GateError::Denied`] (exit 3) naming the user and the verb; [`GateError::Review`]
/// (exit 1) when a review cannot be made.
pub async fn check_access(
    session: &Session<'_>,
    namespace: &str,
    name: &str,
) -> Result<(), GuardError> {
    let ask = |verb: &str, name: Option<&str>| AccessRequest {
        verb: verb.into(),
        group: "coordination.k8s.io".into(),
        resource: "leases".into(),
        subresource: None,
        namespace: Some(namespace.into()),
        name: name.map(str::to_string),
    };
    for req in [
        ask("get", Some(name)),
        ask("create", None),
        ask("update", Some(name)),
    ] {
        if let Err(reason) = session.decide(&req).await? {
            // The one denial sentence, naming which Lease the resource is.
            let mut denied = session.denial(&req, reason).await;
            if let GateError::Denied { resource, .. } = &mut denied {
                *resource = format!("{resource} (the leader-election Lease {name})");
            }
            return Err(denied.into());
        }
    }
    Ok(())
}

/// Why a Lease write did not happen.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// 409: someone wrote the Lease since it was read (or created it first): the fence held.
    #[error("another candidate wrote the Lease first")]
    Conflict,
    /// Any other failure (network, deadline, 403, 5xx).
    #[error(transparent)]
    Api(#[from] ApiError),
}

/// One Lease, read and written through a session's client under its call deadline. Owns
/// what it needs, so the election loop can run as its own task.
#[derive(Clone)]
pub struct LeaseLock {
    api: Api<Lease>,
    /// The same Lease read as plain JSON: [`LeaseLock::get`] reads each field on its own.
    raw: Api<DynamicObject>,
    namespace: String,
    name: String,
    server: String,
    deadline: Duration,
}

impl LeaseLock {
    /// The Lease `namespace`/`name` on the session's cluster.
    pub fn new(session: &Session<'_>, namespace: &str, name: &str) -> LeaseLock {
        LeaseLock {
            api: Api::namespaced(session.client().clone(), namespace),
            raw: Api::namespaced_with(
                session.client().clone(),
                namespace,
                &ApiResource::erase::<Lease>(&()),
            ),
            namespace: namespace.into(),
            name: name.into(),
            server: session.server().into(),
            deadline: session.call_deadline(),
        }
    }

    /// `namespace/name`, for messages.
    pub fn describe(&self) -> String {
        format!("{}/{}", self.namespace, self.name)
    }

    /// Reads the Lease (`None`: it does not exist).
    ///
    /// # Errors
    /// The request's error or timeout.
    pub async fn get(&self) -> Result<Option<Seen>, ApiError> {
        let lease = bounded(
            &self.server,
            "the read of the Lease",
            self.deadline,
            self.raw.get_opt(&self.name),
        )
        .await?;
        Ok(lease.map(|l| Seen {
            record: Record::from_spec(Some(&lenient_spec(&l.data["spec"]))),
            resource_version: l.metadata.resource_version.unwrap_or_default(),
        }))
    }

    /// Sends a [`Step::Create`] (POST) or [`Step::Replace`] (PUT with
    /// `metadata.resourceVersion`, the fence) and returns the new resourceVersion.
    /// A [`Step::Follow`] sends nothing and is answered with [`WriteError::Conflict`].
    ///
    /// # Errors
    /// [`WriteError::Conflict`] on 409 (AlreadyExists or Conflict); [`WriteError::Api`]
    /// otherwise.
    pub async fn write(&self, step: &Step) -> Result<String, WriteError> {
        let (record, rv) = match step {
            Step::Create(r) => (r, None),
            Step::Replace {
                record,
                resource_version,
            } => (record, Some(resource_version.clone())),
            Step::Follow { .. } => return Err(WriteError::Conflict),
        };
        let lease = Lease {
            metadata: ObjectMeta {
                name: Some(self.name.clone()),
                namespace: Some(self.namespace.clone()),
                resource_version: rv.clone(),
                ..ObjectMeta::default()
            },
            spec: Some(record.to_spec()),
        };
        let pp = PostParams::default();
        let sent = match rv {
            None => {
                bounded(
                    &self.server,
                    "the creation of the Lease",
                    self.deadline,
                    self.api.create(&pp, &lease),
                )
                .await
            }
            Some(_) => {
                bounded(
                    &self.server,
                    "the update of the Lease",
                    self.deadline,
                    self.api.replace(&self.name, &pp, &lease),
                )
                .await
            }
        };
        match sent {
            Ok(l) => Ok(l.metadata.resource_version.unwrap_or_default()),
            Err(ApiError::Server { code: 409, .. }) => Err(WriteError::Conflict),
            Err(e) => Err(WriteError::Api(e)),
        }
    }
}

/// The Lease spec in `spec` (JSON), each field read on its own: a field this client cannot
/// hold is left out instead of failing the whole read. The API server accepts times its
/// clients cannot represent (`renewTime: 9999-12-31T23:59:59Z` is past the last instant jiff
/// holds once a time zone could apply), and whoever can write the Lease may put one there; the
/// election measures expiry on its own clock and never needs those times.
fn lenient_spec(spec: &serde_json::Value) -> k8s_openapi::api::coordination::v1::LeaseSpec {
    fn field<T: serde::de::DeserializeOwned>(spec: &serde_json::Value, key: &str) -> Option<T> {
        spec.get(key)
            .and_then(|v| serde_json::from_value(v.clone()).ok())
    }
    k8s_openapi::api::coordination::v1::LeaseSpec {
        holder_identity: field(spec, "holderIdentity"),
        lease_duration_seconds: field(spec, "leaseDurationSeconds"),
        acquire_time: field(spec, "acquireTime"),
        renew_time: field(spec, "renewTime"),
        lease_transitions: field(spec, "leaseTransitions"),
        ..Default::default()
    }
}

/// What the election loop publishes after every round.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Leadership {
    /// This candidate's identity.
    pub identity: String,
    /// Until when this process may act as the leader (local monotonic clock); `None` when it
    /// is not the leader.
    pub leading_until: Option<Instant>,
    /// How many times this process has become the leader; a new term means a full
    /// reconcile.
    pub term: u64,
    /// The holder last observed (`Some("")`: free; `None`: not read yet).
    pub holder: Option<String>,
    /// When the Lease was last read or written successfully.
    pub last_seen: Option<Instant>,
    /// The lease duration: a follower that has not seen the Lease for longer is not ready.
    pub lease_duration: Duration,
    /// Why the last round failed, if it did.
    pub error: Option<String>,
}

impl Leadership {
    /// Leading at `now`.
    pub fn leading(&self, now: Instant) -> bool {
        self.leading_until.is_some_and(|t| now < t)
    }

    /// `/readyz`: the leader, or a follower that has seen the Lease within the lease
    /// duration (it would notice an expiry and take over).
    pub fn ready(&self, now: Instant) -> bool {
        self.leading(now)
            || self
                .last_seen
                .is_some_and(|t| now.saturating_duration_since(t) < self.lease_duration)
    }
}

/// A read-only view of the election for the apply path: [`Fence::holds`] is checked right
/// before every CRD apply and prune.
#[derive(Debug, Clone)]
pub struct Fence(watch::Receiver<Leadership>);

impl Fence {
    /// A fence over an election's published state.
    pub fn new(rx: watch::Receiver<Leadership>) -> Fence {
        Fence(rx)
    }

    /// Whether this process leads now (local monotonic clock against
    /// [`Leadership::leading_until`]).
    pub fn holds(&self) -> bool {
        self.0.borrow().leading(Instant::now())
    }
}

/// How a stopped election ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Released {
    /// It was not the leader: nothing to release.
    NotLeader,
    /// The Lease was released (holder cleared): a follower takes over at its next round.
    Released,
    /// The release failed or was not attempted in time; the Lease expires by itself.
    Failed(String),
}

/// The election loop running as its own task.
pub struct Election {
    state: watch::Receiver<Leadership>,
    stop: Option<oneshot::Sender<Option<Duration>>>,
    task: tokio::task::JoinHandle<Released>,
}

impl Election {
    /// Starts the loop: the first round at once, then as [`Elector::next_round`] says.
    pub fn start(lock: LeaseLock, elector: Elector) -> Election {
        let (tx, state) = watch::channel(Leadership {
            identity: elector.identity().to_string(),
            lease_duration: elector.timing().lease_duration(),
            ..Leadership::default()
        });
        let (stop, stop_rx) = oneshot::channel();
        let task = tokio::spawn(run(lock, elector, tx, stop_rx));
        Election {
            state,
            stop: Some(stop),
            task,
        }
    }

    /// A receiver of the published state (changes are notified).
    pub fn subscribe(&self) -> watch::Receiver<Leadership> {
        self.state.clone()
    }

    /// Stops the loop. With `release = Some(bound)` a leader releases the Lease (client-go
    /// `ReleaseOnCancel`) within `bound`; with `None` it leaves the Lease to expire (used
    /// when an apply may still be on the wire).
    pub async fn stop(mut self, release: Option<Duration>) -> Released {
        if let Some(s) = self.stop.take() {
            let _ = s.send(release);
        }
        let bound = release.unwrap_or(Duration::ZERO) + Duration::from_millis(100);
        match tokio::time::timeout(bound, &mut self.task).await {
            Ok(Ok(r)) => r,
            Ok(Err(e)) => Released::Failed(format!("the election task ended unexpectedly: {e}")),
            Err(_) => {
                self.task.abort();
                Released::Failed("no answer in time".into())
            }
        }
    }
}

/// The loop: rounds until stopped; then the release.
async fn run(
    lock: LeaseLock,
    mut elector: Elector,
    tx: watch::Sender<Leadership>,
    mut stop: oneshot::Receiver<Option<Duration>>,
) -> Released {
    let mut term = 0u64;
    let mut last_seen = None;
    let mut wake = Instant::now();
    loop {
        tokio::select! {
            _ = tokio::time::sleep_until(wake.into()) => {}
            r = &mut stop => return release(&lock, &mut elector, &tx, r.ok().flatten()).await,
        }
        let started = Instant::now();
        let was_leading = elector.leading_at(started);
        let outcome = tokio::select! {
            o = round(&lock, &mut elector, started) => o,
            r = &mut stop => return release(&lock, &mut elector, &tx, r.ok().flatten()).await,
        };
        let now = Instant::now();
        let error = match outcome {
            Ok(()) => {
                last_seen = Some(now);
                None
            }
            Err(e) => Some(e),
        };
        if !was_leading && elector.leading_at(now) {
            term += 1;
        }
        tx.send_replace(Leadership {
            identity: elector.identity().to_string(),
            leading_until: elector.leading_until().filter(|t| now < *t),
            term,
            holder: elector.observed_holder().map(str::to_string),
            last_seen,
            lease_duration: elector.timing().lease_duration(),
            error,
        });
        wake = elector.next_round(now);
        // Publish a lost lease on time: wake when the renew deadline runs out.
        if let Some(until) = elector.leading_until().filter(|t| now < *t) {
            wake = wake.min(until);
        }
    }
}

/// One `tryAcquireOrRenew`: the fast path for a leader, else read, observe, decide, write.
/// `Err` carries a one-line reason for the log; a lost race (409) is not an error.
async fn round(lock: &LeaseLock, elector: &mut Elector, started: Instant) -> Result<(), String> {
    if let Some(step) = elector.fast_path(started, Timestamp::now())
        && let Ok(rv) = lock.write(&step).await
        && let Step::Replace { record, .. } = step
    {
        elector.written(record, rv, started, Instant::now());
        return Ok(());
    }
    let seen = lock.get().await.map_err(|e| e.to_string())?;
    elector.observe(seen, Instant::now());
    let step = elector.decide(Instant::now(), Timestamp::now());
    let record = match &step {
        Step::Follow { .. } => return Ok(()),
        Step::Create(r) | Step::Replace { record: r, .. } => r.clone(),
    };
    match lock.write(&step).await {
        Ok(rv) => {
            elector.written(record, rv, started, Instant::now());
            Ok(())
        }
        Err(WriteError::Conflict) => Ok(()),
        Err(WriteError::Api(e)) => Err(with_hint(&e, &lock.namespace)),
    }
}

/// A failed Lease write as one log line that says what to do: a `NotFound` on create is the
/// Lease's namespace missing (the apiserver answers `namespaces "x" not found`).
fn with_hint(e: &crate::cluster::ApiError, namespace: &str) -> String {
    match e {
        crate::cluster::ApiError::Server { code: 404, .. } => format!(
            "{e}; create the namespace {namespace} (kubectl create namespace {namespace}) or pass --lease-namespace with an existing one"
        ),
        other => other.to_string(),
    }
}

/// The end of the loop: the release (when asked and leading), published as not leading
/// before anything is sent.
async fn release(
    lock: &LeaseLock,
    elector: &mut Elector,
    tx: &watch::Sender<Leadership>,
    bound: Option<Duration>,
) -> Released {
    let was_leader = elector.leading_at(Instant::now());
    tx.send_modify(|l| l.leading_until = None);
    if !was_leader {
        return Released::NotLeader;
    }
    let Some(bound) = bound else {
        return Released::Failed("not released: an apply may still be in flight".into());
    };
    let Some(step) = elector.release(Timestamp::now()) else {
        return Released::NotLeader;
    };
    match tokio::time::timeout(bound, lock.write(&step)).await {
        Ok(Ok(_)) => {
            elector.released();
            tx.send_modify(|l| l.holder = Some(String::new()));
            Released::Released
        }
        Ok(Err(e)) => Released::Failed(e.to_string()),
        Err(_) => Released::Failed(format!("no answer within {bound:?}")),
    }
}

/// A change in leadership worth a log line, as the watcher sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// This process now holds the Lease (a new term): reconcile the whole directory.
    BecameLeader,
    /// This process held the Lease and does not any more (renewal overdue, or another holds
    /// it): it stopped applying.
    LostLease,
    /// Another candidate holds the Lease; this process stands by.
    Following(String),
    /// A round failed (the reason); logged once per distinct reason.
    RoundFailed(String),
}

/// What the watcher last reported, to turn published [`Leadership`] values into [`Change`]s
/// (pure).
#[derive(Debug, Clone, Default)]
pub struct Observer {
    leading: bool,
    term: u64,
    holder: Option<String>,
    error: Option<String>,
}

impl Observer {
    /// Whether the last update found this process leading.
    pub fn leading(&self) -> bool {
        self.leading
    }

    /// The changes from the last update to `l` at `now`, in the order to log them: a loss
    /// before a gain (a term that ended and a new one that began between two looks), a
    /// gain, then whom this process follows.
    pub fn update(&mut self, l: &Leadership, now: Instant) -> Vec<Change> {
        let mut out = Vec::new();
        let leading = l.leading(now);
        let new_term = l.term != self.term;
        if self.leading && (!leading || new_term) {
            out.push(Change::LostLease);
        }
        if leading && (!self.leading || new_term) {
            out.push(Change::BecameLeader);
        }
        if let Some(e) = &l.error
            && self.error.as_ref() != Some(e)
        {
            out.push(Change::RoundFailed(e.clone()));
        }
        let other = l
            .holder
            .as_ref()
            .filter(|h| !h.is_empty() && **h != l.identity);
        if !leading
            && let Some(h) = other
            && (self.holder.as_ref() != Some(h) || self.leading)
        {
            out.push(Change::Following(h.clone()));
        }
        self.leading = leading;
        self.term = l.term;
        self.holder = l.holder.clone();
        self.error = l.error.clone();
        out
    }
}

#[cfg(test)]
mod tests;
