//! Registering CRDs on the cluster: the SelfSubjectAccessReview gate, server-side apply,
//! and the waits that make a CRD usable by a new process. Shared by `crds sync` (one shot)
//! and `crds watch` (hot-load), so both register a CRD the same way.
//!
//! Order per CRD (ARCHITECTURE §5, kube-rs `examples/crd_apply.rs`): server-side apply with
//! field manager `kubectl-myops` (conflicts are reported with the other manager's name
//! unless `force`), then poll until `Established` and `NamesAccepted` are `True`, then poll
//! aggregated discovery until the storage version is served — `Established` does not mean
//! discovery shows it yet (ARCHITECTURE §9).

use std::time::{Duration, Instant};

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::Api;
use kube::api::{Patch, PatchParams};

use crate::authz::{AccessRequest, Gate, GateError};
use crate::cluster::{ApiError, Cluster, TypeIndex};
use crate::crds::LoadedCrd;
use crate::exit::ExitStatus;

/// The field manager of every server-side apply this tool makes.
pub const FIELD_MANAGER: &str = "kubectl-myops";

/// Why one CRD could not be registered.
#[derive(Debug, thiserror::Error)]
pub enum ApplyError {
    /// The caller may not create/patch CRDs.
    #[error(transparent)]
    Gate(#[from] GateError),
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
            ApplyError::Gate(e) => e.exit_status(),
            ApplyError::Rejected { source, .. } | ApplyError::Wait { source, .. } => {
                source.exit_status()
            }
            ApplyError::NotReady { .. } => ExitStatus::Failure,
        }
    }
}

/// Applies CRDs to one cluster.
pub struct Applier<'a> {
    cluster: &'a Cluster,
    api: Api<CustomResourceDefinition>,
    params: PatchParams,
    timeout: Duration,
}

impl<'a> Applier<'a> {
    /// An applier; `force` takes over fields owned by other managers (`--force-conflicts`);
    /// `timeout` bounds each wait.
    pub fn new(cluster: &'a Cluster, force: bool, timeout: Duration) -> Applier<'a> {
        let mut params = PatchParams::apply(FIELD_MANAGER);
        if force {
            params = params.force();
        }
        Applier {
            cluster,
            api: Api::all(cluster.client.clone()),
            params,
            timeout,
        }
    }

    /// The gate for registering CRDs: SelfSubjectAccessReviews for `create` and `patch` on
    /// customresourcedefinitions.apiextensions.k8s.io (server-side apply needs both).
    ///
    /// # Errors
    /// [`GateError`] (exit 3) naming the user when either is denied.
    pub async fn check_access(&self) -> Result<(), GateError> {
        let gate = Gate::new(self.cluster);
        for verb in ["create", "patch"] {
            gate.check(&AccessRequest {
                verb: verb.into(),
                group: "apiextensions.k8s.io".into(),
                resource: "customresourcedefinitions".into(),
                subresource: None,
                namespace: None,
                name: None,
            })
            .await?;
        }
        Ok(())
    }

    /// Server-side applies `crd` and waits until it is Established with its names accepted.
    /// Returns the time the apply request was sent.
    ///
    /// # Errors
    /// [`ApplyError::Rejected`] with the file and the server's message (a field conflict names
    /// the other manager), [`ApplyError::NotReady`] after the timeout.
    pub async fn apply(&self, crd: &LoadedCrd) -> Result<Instant, ApplyError> {
        let sent = Instant::now();
        self.api
            .patch(&crd.name, &self.params, &Patch::Apply(&crd.body))
            .await
            .map_err(|e| ApplyError::Rejected {
                file: crd.file.display().to_string(),
                line: crd.line,
                name: crd.name.clone(),
                source: ApiError::from_kube(e, &self.cluster.server),
            })?;
        self.wait_established(&crd.name, sent).await?;
        Ok(sent)
    }

    /// Polls the CRD every 50 ms until `Established` and `NamesAccepted` are `True`.
    async fn wait_established(&self, name: &str, started: Instant) -> Result<(), ApplyError> {
        loop {
            let crd = self.api.get(name).await.map_err(|e| ApplyError::Wait {
                name: name.into(),
                source: ApiError::from_kube(e, &self.cluster.server),
            })?;
            let conds = crd.status.and_then(|s| s.conditions).unwrap_or_default();
            let is_true = |t: &str| conds.iter().any(|c| c.type_ == t && c.status == "True");
            let (established, names) = (is_true("Established"), is_true("NamesAccepted"));
            if established && names {
                return Ok(());
            }
            if started.elapsed() > self.timeout {
                let what = if names {
                    "Established"
                } else {
                    "NamesAccepted (another CRD may use its names)"
                };
                return Err(ApplyError::NotReady {
                    name: name.into(),
                    what: what.into(),
                    seconds: started.elapsed().as_secs_f64(),
                });
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Polls aggregated discovery (every 100 ms) until every CRD's storage version is served,
    /// so a new process resolves the kinds at once.
    ///
    /// # Errors
    /// [`ApplyError::NotReady`] after the timeout; [`ApplyError::Wait`] when discovery fails.
    pub async fn wait_discoverable(&self, crds: &[&LoadedCrd]) -> Result<(), ApplyError> {
        let started = Instant::now();
        loop {
            let index =
                TypeIndex::fetch(&self.cluster.client)
                    .await
                    .map_err(|e| ApplyError::Wait {
                        name: "discovery".into(),
                        source: ApiError::from_kube(e, &self.cluster.server),
                    })?;
            let missing = crds.iter().find(|c| {
                !index.types().iter().any(|t| {
                    t.api.group == c.group
                        && t.api.plural == c.plural
                        && t.api.version == c.storage_version
                })
            });
            match missing {
                None => return Ok(()),
                Some(c) if started.elapsed() > self.timeout => {
                    return Err(ApplyError::NotReady {
                        name: c.name.clone(),
                        what: "served by discovery".into(),
                        seconds: started.elapsed().as_secs_f64(),
                    });
                }
                Some(_) => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        }
    }
}
