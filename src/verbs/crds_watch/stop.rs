//! Stopping the watcher within a second of SIGINT, SIGTERM or SIGHUP: the signals, and the
//! race of work in flight against them.

use std::time::{Duration, Instant};

use tokio::signal::unix::{Signal, SignalKind, signal};

use crate::verbs::VerbError;

/// How long work in flight (a batch, a prune) may still run after a stop signal, so that
/// the watcher exits within one second of SIGINT/SIGTERM whatever the cluster does.
pub const STOP_GRACE: Duration = Duration::from_millis(800);

/// Everything spent on stopping after a signal, release of the Lease included, stays under
/// this bound, so the watcher exits within one second of the signal.
pub const STOP_BUDGET: Duration = Duration::from_millis(850);

/// The stop signals: SIGTERM, SIGINT, and SIGHUP (a closed terminal).
pub(super) struct StopSignals {
    term: Signal,
    int: Signal,
    hup: Signal,
    /// When the first stop signal came.
    pub(super) at: Option<Instant>,
}

impl StopSignals {
    /// Installs the handlers (from then on these signals do not kill the process: they
    /// must be polled, which [`StopSignals::recv`] does).
    pub(super) fn install() -> Result<StopSignals, VerbError> {
        let one = |kind: SignalKind, name: &str| {
            signal(kind).map_err(|e| VerbError::io(format!("cannot handle {name}: {e}")))
        };
        Ok(StopSignals {
            term: one(SignalKind::terminate(), "SIGTERM")?,
            int: one(SignalKind::interrupt(), "SIGINT")?,
            hup: one(SignalKind::hangup(), "SIGHUP")?,
            at: None,
        })
    }

    /// Waits for any of them.
    pub(super) async fn recv(&mut self) {
        tokio::select! {
            _ = self.term.recv() => {}
            _ = self.int.recv() => {}
            _ = self.hup.recv() => {}
        }
        self.at.get_or_insert_with(Instant::now);
    }
}

/// How a batch raced against the stop signals ended.
pub(super) enum Raced<T> {
    /// It finished; no signal came.
    Done(T),
    /// A signal came and the work finished within [`STOP_GRACE`].
    StoppedAfter(T),
    /// A signal came and the work was abandoned after [`STOP_GRACE`].
    StoppedDuring,
}

/// Runs `work` until it finishes or, once a stop signal has come, for at most [`STOP_GRACE`].
pub(super) async fn race<T>(
    work: impl std::future::Future<Output = T>,
    signals: &mut StopSignals,
) -> Raced<T> {
    tokio::pin!(work);
    tokio::select! {
        done = &mut work => Raced::Done(done),
        _ = signals.recv() => match tokio::time::timeout(STOP_GRACE, &mut work).await {
            Ok(done) => Raced::StoppedAfter(done),
            Err(_) => Raced::StoppedDuring,
        },
    }
}
