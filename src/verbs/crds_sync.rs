//! `crds sync [DIR]`: one-shot registration of every CRD in a directory.
//!
//! For each file: load and validate (a bad file is reported with file:line:column and the
//! others still load); SelfSubjectAccessReview for `create` and `patch` on
//! customresourcedefinitions; server-side apply with field manager `kubectl-myops`; wait
//! for the `Established` and `NamesAccepted` conditions; then poll aggregated discovery
//! until the new types are served, so a `get` in a new process resolves them at once
//! (ARCHITECTURE §5, §9: Established does not mean discovery shows it yet). The pattern
//! follows kube-rs `examples/crd_apply.rs`.

use std::collections::BTreeSet;

use crate::cli::CrdsSyncArgs;
use crate::config::Verb;
use crate::config::duration_string;
use crate::crds::{LoadError, WatchState, check_dir_mode};
use crate::guard::{Applier, ApplyError, Event, Mode, Session, crd_type, run_batch};
use crate::output::Printer;
use crate::settings::Settings;
use crate::verbs::VerbError;

/// Runs `crds sync`: one batch of the shared batch function from an empty state, then a
/// report per file and per CRD.
///
/// # Errors
/// [`VerbError::CrdFiles`] (exit 2) when any file is invalid, the refusal (3) or the last
/// [`VerbError::Apply`] when a CRD is refused — each after every other CRD was applied and
/// reported; a change log that cannot be written (1) before anything is sent.
pub async fn run(s: &Settings, args: &CrdsSyncArgs, p: &mut Printer<'_>) -> Result<(), VerbError> {
    let timeout = duration_string::parse(&args.timeout)
        .map_err(|e| VerbError::Usage(format!("--timeout: {e}")))?;
    crate::authz::check_boundary(&s.plugin, &[], Verb::Patch, &crd_type(), false)?;
    let dir = s.crd_dir(args.dir.as_deref());
    if !dir.is_dir() {
        let what = if dir.exists() {
            "is not a directory"
        } else {
            "does not exist"
        };
        return Err(VerbError::Usage(format!(
            "CRD directory {} {what}; create it or pass DIR",
            dir.display()
        )));
    }
    check_dir_mode(&dir).map_err(VerbError::Usage)?;
    if crate::crds::loader::crd_files(&dir)
        .map(|f| f.is_empty())
        .unwrap_or(false)
    {
        p.err_line(&format!(
            "no CRD files (*.yaml, *.yml) in {}",
            dir.display()
        ));
        return Ok(());
    }
    let session = Session::open(s, p, Mode::Mutate).await?;
    let applier = Applier::new(&session, false, timeout);
    let events = run_batch(&applier, s, &mut WatchState::default(), &dir, None).await;
    report(events, p)
}

/// Prints each event (errors on stderr, registrations on stdout) and turns the failures into
/// the exit status: a refusal or a failed CRD wins over invalid files. One invalid file and
/// nothing else wrong is one `error:` line, the file's own (`file:line:column: what to do`);
/// several are one line each, then the count.
fn report(events: Vec<Event>, p: &mut Printer<'_>) -> Result<(), VerbError> {
    let mut bad: Vec<LoadError> = Vec::new();
    let mut failed: Option<VerbError> = None;
    let mut registered = BTreeSet::new();
    let fail = |p: &mut Printer<'_>, e: VerbError, failed: &mut Option<VerbError>| {
        // The last failure is returned and printed once by the caller; earlier ones here.
        if let Some(prev) = failed.replace(e) {
            p.err_line(&format!("error: {prev}"));
        }
    };
    for e in events {
        match e {
            Event::Invalid(l) | Event::Duplicate(l) => bad.push(l),
            Event::Refused(m) => fail(p, VerbError::Usage(m), &mut failed),
            Event::ScanFailed(m) => fail(p, VerbError::Io(m), &mut failed),
            Event::Refusal { error, .. } => fail(p, flatten(error), &mut failed),
            Event::Failed { error, .. } | Event::NotDiscoverable(error) => {
                fail(p, flatten(error), &mut failed)
            }
            Event::Registered { crd, .. } => {
                if registered.insert(crd.name.clone()) {
                    p.out(&format!(
                        "customresourcedefinition.apiextensions.k8s.io/{} registered ({})\n",
                        crd.name,
                        crd.versions.join(", ")
                    ))?;
                }
            }
            Event::Warning(w) => p.err_line(&w),
            Event::Unregistered { .. } => {}
        }
    }
    if failed.is_none() && bad.len() == 1 {
        return Err(VerbError::Usage(bad.remove(0).to_string()));
    }
    for l in &bad {
        p.err_line(&format!("error: {l}"));
    }
    match failed {
        Some(e) => Err(e),
        None if !bad.is_empty() => Err(VerbError::CrdFiles(bad)),
        None => Ok(()),
    }
}

/// A refusal of the guarded path keeps its own variant (a denial prints as before).
fn flatten(e: ApplyError) -> VerbError {
    match e {
        ApplyError::Guard(g) => g.into(),
        other => other.into(),
    }
}
