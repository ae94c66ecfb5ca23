//! `crds sync [DIR]`: one-shot registration of every CRD in a directory.
//!
//! For each file: load and validate (a bad file is reported with file:line:column and the
//! others still load); SelfSubjectAccessReview for `create` and `patch` on
//! customresourcedefinitions; server-side apply with field manager `kubectl-myops`; wait
//! for the `Established` and `NamesAccepted` conditions; then poll aggregated discovery
//! until the new types are served, so a `get` in a new process resolves them at once
//! (docs/watcher.md: Established does not mean discovery shows it yet). The pattern
//! follows kube-rs `examples/crd_apply.rs`.
//!
//! Reporting: each CRD's result is printed the moment the batch reports it ([`BatchSink`]):
//! `registered` on stdout once it is served, a failure on stderr. Invalid files are known
//! before anything is applied; several are printed then, one line each (a single one is kept
//! for the end, where it is the command's one `error:` line). On a terminal (and
//! not inside a fan-out, which draws its own) a progress line counts the CRDs when there are
//! more than [`PROGRESS_ABOVE`], and a wait longer than a second shows what it waits for
//! (`waiting for discovery to serve x.example.com`); not on a terminal, that is a stderr
//! line at `-v` 1 and above only, so scripts see the results and nothing else.

use std::collections::BTreeSet;

use crate::cli::CrdsSyncArgs;
use crate::config::Verb;
use crate::config::duration_string;
use crate::crds::{LoadError, WatchState, check_dir_mode};
use crate::guard::{
    Applier, ApplyError, BatchSink, Event, Notice, Session, crd_type, run_batch_into,
};
use crate::output::{OutputError, Printer};
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
    crate::guard::authz::check_boundary(&s.plugin, &[], Verb::Patch, &crd_type(), false)?;
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
    let session = Session::open(s, p, Verb::Patch).await?;
    let applier = Applier::new(&session, args.force_conflicts, timeout);
    let terminal = s.stderr_is_terminal && !p.is_capturing();
    let mut reporter = Reporter::new(p, terminal, s.verbose);
    run_batch_into(
        &applier,
        s,
        &mut WatchState::default(),
        &dir,
        None,
        &mut reporter,
    )
    .await;
    reporter.finish()
}

/// More CRDs than this get a progress line on a terminal.
pub const PROGRESS_ABOVE: usize = 4;

/// What the progress line shows: `crds: 3/40 registered, 1 failed — waiting for …`.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
struct Progress {
    /// CRDs being applied (0 until the batch says).
    total: usize,
    /// Registered so far.
    registered: usize,
    /// Failed so far.
    failed: usize,
    /// The latest long wait, until the next result.
    waiting: Option<String>,
}

impl Progress {
    /// The line, or `None` when there is nothing worth a line: a small batch with no long
    /// wait.
    fn line(&self) -> Option<String> {
        let wait = self.waiting.as_ref().map(|w| format!("waiting for {w}"));
        if self.total <= PROGRESS_ABOVE {
            return wait;
        }
        let mut line = format!("crds: {}/{} registered", self.registered, self.total);
        if self.failed > 0 {
            line.push_str(&format!(", {} failed", self.failed));
        }
        if let Some(w) = wait {
            line.push_str(&format!(" — {w}"));
        }
        Some(line)
    }
}

/// Prints each event as the batch hands it over and keeps what decides the exit status.
struct Reporter<'p, 'w> {
    p: &'p mut Printer<'w>,
    /// Draw the progress line (stderr is a terminal, not a fan-out).
    terminal: bool,
    verbose: u8,
    progress: Progress,
    /// Whether a progress line is on the screen.
    drawn: bool,
    bad: Vec<LoadError>,
    /// Whether `bad` was printed already (several invalid files, before the applies).
    bad_printed: bool,
    failed: Option<VerbError>,
    registered: BTreeSet<String>,
    /// A failed stdout write (a closed pipe): kept, returned at the end.
    output: Option<OutputError>,
}

impl<'p, 'w> Reporter<'p, 'w> {
    fn new(p: &'p mut Printer<'w>, terminal: bool, verbose: u8) -> Reporter<'p, 'w> {
        Reporter {
            p,
            terminal,
            verbose,
            progress: Progress::default(),
            drawn: false,
            bad: Vec::new(),
            bad_printed: false,
            failed: None,
            registered: BTreeSet::new(),
            output: None,
        }
    }

    /// Runs `print` with the progress line cleared, then draws it again.
    fn around(&mut self, print: impl FnOnce(&mut Printer<'w>) -> Result<(), OutputError>) {
        if self.drawn {
            self.p.progress(None);
            self.drawn = false;
        }
        if let Err(e) = print(self.p).and_then(|()| {
            if self.terminal {
                self.p.flush()
            } else {
                Ok(())
            }
        }) && self.output.is_none()
        {
            self.output = Some(e);
        }
        self.redraw();
    }

    fn redraw(&mut self) {
        if !self.terminal {
            return;
        }
        match self.progress.line() {
            Some(line) => {
                self.p.progress(Some(&line));
                self.drawn = true;
            }
            None if self.drawn => {
                self.p.progress(None);
                self.drawn = false;
            }
            None => {}
        }
    }

    /// Prints the invalid files seen so far when there are several (a single one waits for
    /// the end, see the module doc).
    fn flush_bad(&mut self) {
        if self.bad_printed || self.bad.len() < 2 {
            return;
        }
        self.bad_printed = true;
        let lines: Vec<String> = self.bad.iter().map(|l| format!("error: {l}")).collect();
        self.around(|p| {
            lines.iter().for_each(|l| p.err_line(l));
            Ok(())
        });
    }

    /// The last failure is returned (and printed once by the caller); earlier ones now.
    fn fail(&mut self, e: VerbError) {
        self.progress.failed += 1;
        self.progress.waiting = None;
        if let Some(prev) = self.failed.replace(e) {
            self.around(|p| {
                p.err_line(&format!("error: {prev}"));
                Ok(())
            });
        } else {
            self.redraw();
        }
    }

    /// Clears the progress line and turns what happened into the exit status: a refusal or
    /// a failed CRD wins over invalid files; one invalid file and nothing else wrong is one
    /// `error:` line, the file's own (`file:line:column: what to do`); several are one line
    /// each, then the count.
    fn finish(mut self) -> Result<(), VerbError> {
        if self.drawn {
            self.p.progress(None);
        }
        if let Some(e) = self.output.take() {
            return Err(e.into());
        }
        if self.failed.is_none() && self.bad.len() == 1 {
            return Err(VerbError::Usage(self.bad.remove(0).to_string()));
        }
        if !self.bad_printed {
            for l in &self.bad {
                self.p.err_line(&format!("error: {l}"));
            }
        }
        match self.failed {
            Some(e) => Err(e),
            None if !self.bad.is_empty() => Err(VerbError::CrdFiles(self.bad)),
            None => Ok(()),
        }
    }
}

impl BatchSink for Reporter<'_, '_> {
    fn event(&mut self, e: Event) {
        if !matches!(e, Event::Invalid(_) | Event::Duplicate(_)) {
            self.flush_bad();
        }
        match e {
            Event::Invalid(l) | Event::Duplicate(l) => self.bad.push(l),
            Event::Refused(m) => self.fail(VerbError::Usage(m)),
            Event::ScanFailed(m) => self.fail(VerbError::io(m)),
            Event::Refusal { error, .. } => self.fail(flatten(error)),
            Event::Failed { error, .. } | Event::NotDiscoverable(error) => {
                self.fail(flatten(error))
            }
            Event::Registered { crd, .. } => {
                if self.registered.insert(crd.name.clone()) {
                    self.progress.registered += 1;
                    self.progress.waiting = None;
                    let line = format!(
                        "customresourcedefinition.apiextensions.k8s.io/{} registered ({})\n",
                        crd.name,
                        crd.versions.join(", ")
                    );
                    self.around(|p| p.out(&line));
                }
            }
            Event::Warning(w) => self.around(|p| {
                p.err_line(&w);
                Ok(())
            }),
            Event::Unregistered { .. } => {}
        }
    }

    fn notice(&mut self, n: Notice) {
        match n {
            Notice::Applying(total) => {
                self.flush_bad();
                self.progress.total = total;
                self.redraw();
            }
            Notice::Waiting(what) if self.terminal => {
                self.progress.waiting = Some(what);
                self.redraw();
            }
            Notice::Waiting(what) if self.verbose > 0 => {
                self.p.err_line(&format!("waiting for {what}"));
            }
            Notice::Waiting(_) => {}
        }
    }
}

/// A refusal of the guarded path keeps its own variant, so a denial prints and exits as the
/// guard's own error does.
fn flatten(e: ApplyError) -> VerbError {
    match e {
        ApplyError::Guard(g) => g.into(),
        other => other.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_progress_line_counts_large_batches_and_shows_a_long_wait() {
        let mut p = Progress::default();
        assert_eq!(p.line(), None);
        p.total = 3;
        assert_eq!(p.line(), None, "a small batch has no line");
        p.waiting = Some("CRD a.example.com to be Established".into());
        assert_eq!(
            p.line().as_deref(),
            Some("waiting for CRD a.example.com to be Established")
        );
        p = Progress {
            total: 40,
            registered: 12,
            failed: 0,
            waiting: None,
        };
        assert_eq!(p.line().as_deref(), Some("crds: 12/40 registered"));
        p.failed = 2;
        p.waiting = Some("discovery to serve a.example.com and 3 more".into());
        assert_eq!(
            p.line().as_deref(),
            Some(
                "crds: 12/40 registered, 2 failed — waiting for discovery to serve a.example.com and 3 more"
            )
        );
    }
}
