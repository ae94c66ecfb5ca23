//! `crds sync [DIR]`: one-shot registration of every CRD in a directory.
//!
//! For each file: load and validate (a bad file is reported with file:line:column and the
//! others still load); SelfSubjectAccessReview for `create` and `patch` on
//! customresourcedefinitions; server-side apply with field manager `kubectl-myops`; wait
//! for the `Established` and `NamesAccepted` conditions; then poll aggregated discovery
//! until the new types are served, so a `get` in a new process resolves them at once
//! (ARCHITECTURE §5, §9: Established does not mean discovery shows it yet). The pattern
//! follows kube-rs `examples/crd_apply.rs`.

use std::time::{Duration, Instant};

use futures::{StreamExt, TryStreamExt};
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::Api;
use kube::api::{Patch, PatchParams};

use crate::authz::{AccessRequest, Gate};
use crate::cli::CrdsSyncArgs;
use crate::cluster::{ApiError, Cluster, TypeIndex, connect};
use crate::config::duration_string;
use crate::crds::{LoadedCrd, Registry, load_dir};
use crate::output::Printer;
use crate::settings::Settings;
use crate::verbs::VerbError;

/// The field manager of every server-side apply this tool makes.
pub const FIELD_MANAGER: &str = "kubectl-myops";

/// Applies in flight at once (large CRDs take the server a while to validate).
const PARALLEL_APPLIES: usize = 4;

/// Runs `crds sync`.
///
/// # Errors
/// [`VerbError::CrdFiles`] (exit 2) when any file is invalid — after the valid ones are
/// applied; gate, API and readiness errors as they occur.
pub async fn run(s: &Settings, args: &CrdsSyncArgs, p: &mut Printer<'_>) -> Result<(), VerbError> {
    let timeout = duration_string::parse(&args.timeout).map_err(|e| VerbError::Usage(format!("--timeout: {e}")))?;
    let dir = s.crd_dir(args.dir.as_deref());
    let files = load_dir(&dir).map_err(|e| VerbError::Io(format!("cannot read CRD directory {}: {e}; create it or pass DIR", dir.display())))?;
    let mut bad = Vec::new();
    let mut crds: Vec<LoadedCrd> = Vec::new();
    for (_, r) in files {
        match r {
            Ok(mut c) => crds.append(&mut c),
            Err(e) => {
                p.err_line(&format!("error: {e}"));
                bad.push(e);
            }
        }
    }
    if crds.is_empty() && bad.is_empty() {
        p.err_line(&format!("no CRD files (*.yaml, *.yml) in {}", dir.display()));
        return Ok(());
    }
    let cluster = connect(&s.kube).await?;
    if !crds.is_empty() {
        let gate = Gate::new(&cluster);
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
        apply_all(&cluster, &crds, timeout, p).await?;
        wait_discoverable(&cluster, &crds, timeout).await?;
        Registry::upsert(&s.home, &crds.iter().collect::<Vec<_>>())?;
        for c in &crds {
            p.out(&format!("customresourcedefinition.apiextensions.k8s.io/{} registered ({})\n", c.name, c.versions.join(", ")))?;
        }
    }
    if bad.is_empty() { Ok(()) } else { Err(VerbError::CrdFiles(bad)) }
}

/// Server-side applies every CRD (status stripped by the loader) and waits for each to be
/// Established with names accepted.
async fn apply_all(cluster: &Cluster, crds: &[LoadedCrd], timeout: Duration, p: &mut Printer<'_>) -> Result<(), VerbError> {
    let api: Api<CustomResourceDefinition> = Api::all(cluster.client.clone());
    let params = PatchParams::apply(FIELD_MANAGER);
    let results: Vec<()> = futures::stream::iter(crds.iter().map(|c| {
        let api = api.clone();
        let params = params.clone();
        async move {
            let started = Instant::now();
            api.patch(&c.name, &params, &Patch::Apply(&c.body))
                .await
                .map_err(|e| VerbError::Api(ApiError::from_kube(e, &cluster.server)))
                .map_err(|e| match e {
                    VerbError::Api(ApiError::Server { code, reason, message }) => VerbError::Api(ApiError::Server {
                        code,
                        reason,
                        message: format!("{}:{}: {message}", c.file.display(), c.line),
                    }),
                    other => other,
                })?;
            wait_established(&api, &c.name, timeout, started).await
        }
    }))
    .buffer_unordered(PARALLEL_APPLIES)
    .try_collect()
    .await?;
    debug_assert_eq!(results.len(), crds.len());
    p.flush()?;
    Ok(())
}

/// Polls the CRD until `Established` and `NamesAccepted` are `True` (every 50 ms).
async fn wait_established(api: &Api<CustomResourceDefinition>, name: &str, timeout: Duration, started: Instant) -> Result<(), VerbError> {
    loop {
        let crd = api.get(name).await.map_err(|e| VerbError::Api(ApiError::from_kube(e, "the API server")))?;
        let conds = crd.status.and_then(|s| s.conditions).unwrap_or_default();
        let is_true = |t: &str| conds.iter().any(|c| c.type_ == t && c.status == "True");
        let (established, names) = (is_true("Established"), is_true("NamesAccepted"));
        if established && names {
            return Ok(());
        }
        if started.elapsed() > timeout {
            let what = if names { "Established" } else { "NamesAccepted (another CRD may use its names)" };
            return Err(VerbError::NotReady { name: name.into(), what: what.into(), seconds: started.elapsed().as_secs_f64() });
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Polls aggregated discovery until every CRD's storage version is served.
async fn wait_discoverable(cluster: &Cluster, crds: &[LoadedCrd], timeout: Duration) -> Result<(), VerbError> {
    let started = Instant::now();
    loop {
        let index = TypeIndex::fetch(&cluster.client).await.map_err(|e| ApiError::from_kube(e, &cluster.server))?;
        let missing = crds.iter().find(|c| {
            !index
                .types()
                .iter()
                .any(|t| t.api.group == c.group && t.api.plural == c.plural && t.api.version == c.storage_version)
        });
        match missing {
            None => return Ok(()),
            Some(c) if started.elapsed() > timeout => {
                return Err(VerbError::NotReady { name: c.name.clone(), what: "served by discovery".into(), seconds: started.elapsed().as_secs_f64() });
            }
            Some(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
}
