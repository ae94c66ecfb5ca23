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
use crate::crds::{Action, Applier, Journal, LoadError, LoadedCrd, Registry, WatchState, crd_type, scan};
use crate::verbs::crds_watch::check_dir_mode;
use crate::output::Printer;
use crate::settings::Settings;
use crate::verbs::{VerbError, status_for};
use crate::metrics::{self, Status};
use std::time::Instant;

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
        let what = if dir.exists() { "is not a directory" } else { "does not exist" };
        return Err(VerbError::Usage(format!("CRD directory {} {what}; create it or pass DIR", dir.display())));
    }
    check_dir_mode(&dir)?;
    // The same planner as `crds watch`, from an empty state: one rule for bad files and for
    // two files defining one CRD (the first, by file name, wins; the second is an error).
    let snap = scan(&dir).map_err(|e| VerbError::Io(format!("cannot read CRD directory {}: {e}", dir.display())))?;
    let mut bad = Vec::new();
    let mut crds: Vec<LoadedCrd> = Vec::new();
    for action in WatchState::default().plan(&snap) {
        match action {
            Action::Apply(c) => crds.push(*c),
            Action::Invalid(e) => bad.push(e),
            Action::Duplicate { file, name, owner } => bad.push(LoadError {
                file,
                line: 1,
                column: 1,
                message: format!("CRD {name} is already defined by {}; remove one of the two", owner.display()),
            }),
            Action::Unregister { .. } => {}
        }
    }
    for e in &bad {
        p.err_line(&format!("error: {e}"));
    }
    if crds.is_empty() && bad.is_empty() {
        p.err_line(&format!(
            "no CRD files (*.yaml, *.yml) in {}",
            dir.display()
        ));
        return Ok(());
    }
    let started = Instant::now();
    let mut loads: Vec<(Status, f64)> = bad.iter().map(|_| (Status::Invalid, 0.0)).collect();
    let result = apply_and_report(s, &crds, timeout, p, &mut loads, started).await;
    for w in metrics::finish_crd_loads(&s.home, &s.plugin.name, &loads, &s.plugin.metrics, s.push_target.as_ref()).await {
        p.err_line(&w);
    }
    match (result, bad.is_empty()) {
        (Err(e), _) => Err(e),
        (Ok(()), false) => Err(VerbError::CrdFiles(bad)),
        (Ok(()), true) => Ok(()),
    }
}

/// Applies every CRD, reports each outcome, and adds (result, seconds) per CRD to `loads`.
/// Returns the last refusal after every other CRD was applied and reported.
async fn apply_and_report(
    s: &Settings,
    crds: &[LoadedCrd],
    timeout: std::time::Duration,
    p: &mut Printer<'_>,
    loads: &mut Vec<(Status, f64)>,
    started: Instant,
) -> Result<(), VerbError> {
    if crds.is_empty() {
        return Ok(());
    }
    let secs = || started.elapsed().as_secs_f64();
    let cluster = connect(&s.kube).await?;
    let journal = Journal { home: s.home.clone(), plugin: s.plugin.name.clone(), user: Gate::new(&cluster).whoami().await };
    let applier = Applier::new(&cluster, false, timeout, journal);
    if let Err(e) = applier.check_access().await {
        loads.extend(crds.iter().map(|_| (status_for(e.exit_status()), secs())));
        return Err(e.into());
    }
    let results = applier.apply_many(&crds.iter().collect::<Vec<_>>()).await;
    let mut applied = Vec::new();
    let mut failed = None;
    for (c, r) in results {
        match r {
            Ok(_) => applied.push(c),
            Err(e) => {
                loads.push((status_for(e.exit_status()), secs()));
                // The last failure is returned and printed once by the caller; earlier ones here.
                if let Some(prev) = failed.replace(e) {
                    p.err_line(&format!("error: {prev}"));
                }
            }
        }
    }
    if let Err(e) = applier.wait_discoverable(&applied).await {
        loads.extend(applied.iter().map(|_| (Status::Error, secs())));
        return Err(e.into());
    }
    loads.extend(applied.iter().map(|_| (Status::Success, secs())));
    Registry::upsert(&s.home, &applied)?;
    for c in &applied {
        p.out(&format!("customresourcedefinition.apiextensions.k8s.io/{} registered ({})\n", c.name, c.versions.join(", ")))?;
    }
    match failed {
        Some(e) => Err(VerbError::Apply(e)),
        None => Ok(()),
    }
}
