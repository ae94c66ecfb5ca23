//! The runner of a fan-out: each context's command run with its own settings and a
//! capturing printer, at most `max_parallel` at once on the current-thread runtime
//! (`buffer_unordered`), the results kept in selection order; a progress line on a terminal;
//! for `patch`, waves that stop at the first failure.

use std::cell::Cell;
use std::ops::Range;
use std::time::Instant;

use futures::StreamExt;

use crate::exit::ExitStatus;
use crate::output::{Chunk, Printer};
use crate::settings::Settings;

/// How one context's command ended, as the caller (`app`) reads it from the verb.
#[derive(Debug, Clone)]
pub struct Done {
    /// The exit status of that context.
    pub status: ExitStatus,
    /// The one-sentence reason when it failed (the line `app` would have printed as
    /// `error: …`), or a short note for a non-error non-zero status (`auth can-i`'s "no").
    pub message: Option<String>,
    /// The metric `resource` label of the operation (`plural.group`), when known.
    pub resource: Option<String>,
}

/// What one context did: its name, how it ended, what it printed.
#[derive(Debug)]
pub struct ContextRun {
    /// The context name.
    pub context: String,
    /// `None` when it was not attempted (an earlier `patch` wave failed).
    pub done: Option<Done>,
    /// Its stdout, captured.
    pub chunks: Vec<Chunk>,
    /// Its stderr, captured (lines already scrubbed and escaped).
    pub stderr: Vec<u8>,
    /// Wall time of its command, in seconds.
    pub seconds: f64,
}

/// One fan-out: which contexts, how many at once, the shared session id.
#[derive(Debug, Clone)]
pub struct Fleet {
    /// The selected contexts, in order ([`super::select`]).
    pub contexts: Vec<String>,
    /// At most this many contexts are worked on at once (`--max-parallel`, at least 1).
    pub max_parallel: usize,
    /// The session id of every context's session and journal entries.
    pub session_id: String,
    /// Show a progress line (stderr is a terminal; only above [`super::PROGRESS_ABOVE`]
    /// contexts).
    pub progress: bool,
    /// The kubeconfig, read and merged once; each context gets only its own part of it
    /// ([`crate::cluster::client::for_context`]). `None`: each context reads the files.
    pub kubeconfig: Option<kube::config::Kubeconfig>,
    /// The verb of a fan-out that changes something (no dry run): plugin.yaml `protect:` is
    /// asked about once per wave ([`super::protect`]). `None` for reads and dry runs.
    pub protect: Option<crate::rules::protect::ProtectVerb>,
}

/// Runs `one` in every context of `fleet`, wave by wave (`waves`: ranges of indexes into
/// `fleet.contexts`, e.g. [`super::waves`]; one wave of all for commands that do not
/// change anything). With `stop_on_failure`, once any context fails no context not yet
/// started is started, and the waves after it are not attempted (their [`ContextRun::done`]
/// is `None`) — nothing further is sent.
///
/// Each context runs with `base` cloned, `kube.context` set to it and `session_id` set to
/// `fleet.session_id`, and a printer that captures its stdout and stderr. The results come
/// back in `fleet.contexts` order, whatever order they finished in. `p` gets only the
/// progress line.
pub async fn run<F>(
    fleet: &Fleet,
    base: &Settings,
    waves: &[Range<usize>],
    stop_on_failure: bool,
    p: &mut Printer<'_>,
    one: F,
) -> Vec<ContextRun>
where
    F: AsyncFn(&Settings, &mut Printer<'_>) -> Done,
{
    run_releasing(fleet, base, waves, stop_on_failure, p, one, &mut |_, _| {}).await
}

/// [`run`], handing each context's run to `release` in selection order as soon as it and
/// every context before it are done (an in-order release: context k goes out once contexts
/// 1..k have all finished, whatever order they finished in), so that a caller can print a
/// context's output without waiting for the slowest context. The progress line is cleared
/// before each release (stdout and stderr often share a terminal). `release` may take the
/// run's `chunks` (they are not needed after it printed them); a context not attempted is
/// released at the end, with `done` `None`.
pub async fn run_releasing<F>(
    fleet: &Fleet,
    base: &Settings,
    waves: &[Range<usize>],
    stop_on_failure: bool,
    p: &mut Printer<'_>,
    one: F,
    release: &mut dyn FnMut(&mut ContextRun, &mut Printer<'_>),
) -> Vec<ContextRun>
where
    F: AsyncFn(&Settings, &mut Printer<'_>) -> Done,
{
    let mut released = 0usize;
    let n = fleet.contexts.len();
    let mut term = term_signal(stop_on_failure);
    let begun = &std::cell::RefCell::new(vec![false; n]);
    let mut results: Vec<Option<ContextRun>> = (0..n).map(|_| None).collect();
    let stopped = Cell::new(false);
    let show = fleet.progress && n > super::PROGRESS_ABOVE;
    let (mut finished, mut failed) = (0usize, 0usize);
    let one = &one;
    let stopped_ref = &stopped;
    let shared = std::sync::Arc::new(crate::cluster::discovery_cache::SharedIndex::default());
    let shared = &shared;
    for (w, wave) in waves.iter().enumerate() {
        if stopped.get() {
            break;
        }
        let answered = match wave_answers(fleet, base, &results, wave.clone(), (w, waves.len())) {
            Ok(a) => a,
            Err(refusal) => {
                refused(&mut results, fleet, wave.clone(), refusal);
                stopped.set(true);
                break;
            }
        };
        let answered = &answered;
        let start = |i: usize| async move {
            let context = fleet.contexts[i].clone();
            if stopped_ref.get() {
                return (i, None);
            }
            begun.borrow_mut()[i] = true;
            let mut s = base.clone();
            s.kube.preloaded = fleet.kubeconfig.as_ref().map(|kc| {
                std::sync::Arc::new(crate::cluster::client::for_context(
                    kc, &context, &base.kube,
                ))
            });
            s.kube.context = Some(context.clone());
            s.session_id = Some(fleet.session_id.clone());
            s.shared_discovery = Some(shared.clone());
            s.protect.answered.clone_from(answered);
            s.protect.terminal = false;
            let (mut chunks, mut stderr) = (Vec::new(), Vec::new());
            let began = Instant::now();
            let done = {
                let mut cp = Printer::capturing(&mut chunks, &mut stderr);
                one(&s, &mut cp).await
            };
            let run = ContextRun {
                context,
                done: Some(done),
                chunks,
                stderr,
                seconds: began.elapsed().as_secs_f64(),
            };
            (i, Some(run))
        };
        let mut stream = futures::stream::iter(wave.clone())
            .map(start)
            .buffer_unordered(fleet.max_parallel.max(1));
        loop {
            let next = tokio::select! {
                next = stream.next() => next,
                () = signalled(term.as_mut()) => {
                    stopped.set(abandon(&mut results, fleet, &begun.borrow()));
                    break;
                }
            };
            let Some((i, run)) = next else { break };
            if let Some(r) = &run {
                finished += 1;
                if r.done
                    .as_ref()
                    .is_some_and(|d| d.status != ExitStatus::Success)
                {
                    failed += 1;
                    if stop_on_failure {
                        stopped.set(true);
                    }
                }
            }
            let ran = run.is_some();
            results[i] = run;
            if show && i == released && ran {
                p.progress(None);
            }
            while let Some(Some(r)) = results.get_mut(released) {
                release(r, p);
                released += 1;
            }
            if show && ran {
                p.progress(Some(&format!(
                    "contexts: {finished}/{n} done, {failed} failed"
                )));
            }
        }
    }
    if show {
        p.progress(None);
    }
    let mut all: Vec<ContextRun> = results
        .into_iter()
        .enumerate()
        .map(|(i, r)| {
            r.unwrap_or_else(|| ContextRun {
                context: fleet.contexts[i].clone(),
                done: None,
                chunks: Vec::new(),
                stderr: Vec::new(),
                seconds: 0.0,
            })
        })
        .collect();
    for r in all.iter_mut().skip(released) {
        release(r, p);
    }
    all
}

/// Set when a SIGTERM stopped a fan-out ([`run`] with `stop_on_failure`).
static INTERRUPTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether a SIGTERM stopped this process's fan-out: the contexts not attempted were not
/// started because of it, not because of a failure.
pub fn interrupted() -> bool {
    INTERRUPTED.load(std::sync::atomic::Ordering::SeqCst)
}

/// SIGTERM, for a fan-out that changes something (`stop_on`): it then stops cleanly on it (a
/// CI job cancelled, a pod stopped) — nothing more is started, what is in flight is abandoned
/// (its journal intent stays, `changelog reconcile` decides it), and the caller reports it all
/// as a failure. `None` otherwise (the signal keeps its default action).
fn term_signal(stop_on: bool) -> Option<tokio::signal::unix::Signal> {
    stop_on
        .then(|| tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok())
        .flatten()
}

/// Waits for the next signal of `sig`; forever when there is none.
async fn signalled(sig: Option<&mut tokio::signal::unix::Signal>) {
    match sig {
        Some(s) => {
            s.recv().await;
        }
        None => std::future::pending().await,
    }
}

/// After a SIGTERM: every context that began and has no result yet was abandoned mid-way;
/// whether its change landed is unknown (exit 1). Marks the process [`interrupted`]; returns
/// `true` (the fan-out is stopped).
fn abandon(results: &mut [Option<ContextRun>], fleet: &Fleet, began: &[bool]) -> bool {
    INTERRUPTED.store(true, std::sync::atomic::Ordering::SeqCst);
    for (i, r) in results.iter_mut().enumerate() {
        if began[i] && r.is_none() {
            *r = Some(ContextRun {
                context: fleet.contexts[i].clone(),
                done: Some(Done {
                    status: ExitStatus::Failure,
                    message: Some(
                        "stopped by SIGTERM while its change was under way, so whether it was made is unknown; run `kubectl myops changelog reconcile` to find out".into(),
                    ),
                    resource: None,
                }),
                chunks: Vec::new(),
                stderr: Vec::new(),
                seconds: 0.0,
            });
        }
    }
    true
}

/// What the protection question of wave `w` (0-based) of `n` answered for its contexts
/// ([`super::protect`]), showing how the contexts of the earlier waves ended; nothing to ask
/// for a fan-out that changes nothing.
///
/// # Errors
/// The refusal at the question: the wave and every wave after it are not attempted.
fn wave_answers(
    fleet: &Fleet,
    base: &Settings,
    results: &[Option<ContextRun>],
    wave: Range<usize>,
    (w, n): (usize, usize),
) -> Result<Vec<crate::settings::WaveAnswer>, crate::guard::protect::ProtectError> {
    let Some(verb) = fleet.protect else {
        return Ok(Vec::new());
    };
    let protected = super::protect::needing_answer(
        &fleet.contexts[wave],
        fleet.kubeconfig.as_ref(),
        base,
        verb,
    );
    let earlier: Vec<String> = results
        .iter()
        .flatten()
        .filter_map(|r| {
            let d = r.done.as_ref()?;
            let how = match d.status {
                ExitStatus::Success => "ok".to_string(),
                other => format!("exit {}", other.code()),
            };
            Some(format!("{} {how}", crate::base::echo::escaped(&r.context)))
        })
        .collect();
    super::protect::ask(
        &protected,
        verb,
        (w + 1, n),
        &earlier,
        base.protect.reason.as_deref(),
    )
}

/// The runs of `wave`'s contexts refused at the wave's protection question: each ends with
/// the refusal (exit 3, or 130 when interrupted), having sent nothing.
fn refused(
    results: &mut [Option<ContextRun>],
    fleet: &Fleet,
    wave: Range<usize>,
    refusal: crate::guard::protect::ProtectError,
) {
    let status = crate::guard::GuardError::Protected(refusal.clone()).exit_status();
    for i in wave {
        results[i] = Some(ContextRun {
            context: fleet.contexts[i].clone(),
            done: Some(Done {
                status,
                message: Some(refusal.to_string()),
                resource: None,
            }),
            chunks: Vec::new(),
            stderr: Vec::new(),
            seconds: 0.0,
        });
    }
}
