//! `crds sync [DIR]`: one-shot registration of every CRD in a directory.
//!
//! For each file: load and validate (a bad file is reported with file:line:column and the
//! others still load); SelfSubjectAccessReview for `create` and `patch` on
//! customresourcedefinitions; server-side apply with field manager `kubectl-myops`; wait
//! for the `Established` and `NamesAccepted` conditions; then poll aggregated discovery
//! until the new types are served, so a `get` in a new process resolves them at once
//! (ARCHITECTURE §5, §9: Established does not mean discovery shows it yet). The pattern
//! follows kube-rs `examples/crd_apply.rs`.

use crate::authz::{Gate, check_boundary};
use crate::cli::CrdsSyncArgs;
use crate::cluster::connect;
use crate::config::duration_string;
use crate::config::Verb;
use crate::crds::{Applier, Journal, LoadedCrd, Registry, crd_type, load_dir};
use crate::verbs::crds_watch::check_dir_mode;
use crate::output::Printer;
use crate::settings::Settings;
use crate::verbs::VerbError;

/// Runs `crds sync`.
///
/// # Errors
/// [`VerbError::CrdFiles`] (exit 2) when any file is invalid and [`VerbError::Apply`] when
/// a CRD is refused — each after every other CRD was applied and reported.
pub async fn run(s: &Settings, args: &CrdsSyncArgs, p: &mut Printer<'_>) -> Result<(), VerbError> {
    let timeout = duration_string::parse(&args.timeout)
        .map_err(|e| VerbError::Usage(format!("--timeout: {e}")))?;
    check_boundary(&s.plugin, &[], Verb::Patch, &crd_type(), false)?;
    let dir = s.crd_dir(args.dir.as_deref());
    if !dir.is_dir() {
        return Err(VerbError::Usage(format!("CRD directory {} does not exist; create it or pass DIR", dir.display())));
    }
    check_dir_mode(&dir)?;
    let files = load_dir(&dir).map_err(|e| VerbError::Io(format!("cannot read CRD directory {}: {e}", dir.display())))?;
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
        p.err_line(&format!(
            "no CRD files (*.yaml, *.yml) in {}",
            dir.display()
        ));
        return Ok(());
    }
    let mut failed = None;
    if !crds.is_empty() {
        let cluster = connect(&s.kube).await?;
        let journal = Journal { home: s.home.clone(), plugin: s.plugin.name.clone(), user: Gate::new(&cluster).whoami().await };
        let applier = Applier::new(&cluster, false, timeout, journal);
        applier.check_access().await?;
        let results = applier.apply_many(&crds.iter().collect::<Vec<_>>()).await;
        let mut applied = Vec::new();
        for (c, r) in results {
            match r {
                Ok(_) => applied.push(c),
                Err(e) => {
                    p.err_line(&format!("error: {e}"));
                    failed = Some(e);
                }
            }
        }
        applier.wait_discoverable(&applied).await?;
        Registry::upsert(&s.home, &applied)?;
        for c in &applied {
            p.out(&format!(
                "customresourcedefinition.apiextensions.k8s.io/{} registered ({})\n",
                c.name,
                c.versions.join(", ")
            ))?;
        }
    }
    match (failed, bad.is_empty()) {
        (Some(e), _) => Err(VerbError::Apply(e)),
        (None, false) => Err(VerbError::CrdFiles(bad)),
        (None, true) => Ok(()),
    }
}
