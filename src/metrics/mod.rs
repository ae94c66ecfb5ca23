//! Per-operation and CRD hot-load metrics: record locally, push the totals (ARCHITECTURE §6).
//!
//! The Pushgateway is a cache, not an aggregator: a `PUT` replaces the whole group. Each run
//! therefore adds its [`Observation`] to cumulative totals in `<MYOPS_HOME>/metrics-state.json`
//! ([`record`], file-locked, atomic) and pushes the totals ([`encode`] + [`push`] to
//! [`push_url`]). A failed push loses nothing: the totals stay on disk and the next push
//! carries them. [`finish`] is the one call a command makes at its end; it turns every
//! metrics failure into a warning line and never changes the command's exit code. The CRD
//! hot-loader does the same per batch of loads with [`record_crd_loads`] /
//! [`finish_crd_loads`]. Every push carries every requested family the state holds (`ops_*`
//! and `crd_*` alike), whichever call made it: a push with only some of them would delete
//! the others from the gateway.
//!
//! Files: `state.rs` (the state file), `error.rs` (its errors), `encode.rs` (text
//! exposition format), `push.rs` (URL and HTTP `PUT`), `serve.rs` (the `/metrics`,
//! `/healthz`, `/readyz` endpoint of a long-running `crds watch --metrics-addr`).

mod encode;
mod error;
mod push;
pub mod serve;
mod state;

use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::config::model::MetricFamily;
use crate::exit::ExitStatus;

pub use encode::encode;
pub use error::MetricsError;
pub use push::{
    MAX_BODY_CHARS, PushError, PushTarget, base_url_problem, push, push_url, redact_url,
};
pub use state::{
    BUCKETS, CrdLoadKey, OpKey, OpTotals, STATE_VERSION, State, load, record, record_all,
    record_crd_loads, reset, state_path,
};

/// Outcome label `status` of one operation, and `result` of one CRD load (ARCHITECTURE §6).
///
/// The CRD hot-loader uses `success`, `invalid`, `denied`, `conflict` and `error`;
/// [`Status::NotFound`] is not a hot-load outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The operation succeeded (an empty list is success).
    Success,
    /// Denied by the plugin.yaml boundary or by RBAC.
    Denied,
    /// A named object does not exist.
    NotFound,
    /// Optimistic-concurrency or server-side-apply conflict.
    Conflict,
    /// Usage, configuration or input error (bad flags, unknown TYPE, bad patch).
    Invalid,
    /// Any other runtime failure (server error, network, timeout).
    Error,
}

impl Status {
    /// The label for a command that ended with `e` (ARCHITECTURE §6: one status per exit class).
    pub fn for_exit(e: ExitStatus) -> Status {
        match e {
            ExitStatus::Success => Status::Success,
            ExitStatus::Denied => Status::Denied,
            ExitStatus::NotFound => Status::NotFound,
            ExitStatus::Conflict => Status::Conflict,
            ExitStatus::Usage => Status::Invalid,
            ExitStatus::Failure => Status::Error,
        }
    }

    /// The label value: `success`, `denied`, `notfound`, `conflict`, `invalid` or `error`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Success => "success",
            Status::Denied => "denied",
            Status::NotFound => "notfound",
            Status::Conflict => "conflict",
            Status::Invalid => "invalid",
            Status::Error => "error",
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The `status` label of a command that ends with this exit status (usage → `invalid`,
/// runtime failure → `error`, the others by name).
impl From<ExitStatus> for Status {
    fn from(exit: ExitStatus) -> Self {
        match exit {
            ExitStatus::Success => Status::Success,
            ExitStatus::Failure => Status::Error,
            ExitStatus::Usage => Status::Invalid,
            ExitStatus::Denied => Status::Denied,
            ExitStatus::NotFound => Status::NotFound,
            ExitStatus::Conflict => Status::Conflict,
        }
    }
}

/// One finished operation.
#[derive(Debug, Clone, PartialEq)]
pub struct Observation {
    /// `verb` label, e.g. `get`, `patch`.
    pub verb: String,
    /// `resource` label, e.g. `pods` or `widgets.example.com`.
    pub resource: String,
    /// Outcome.
    pub status: Status,
    /// Wall-clock duration in seconds.
    pub duration_seconds: f64,
}

/// The `instance` grouping value when plugin.yaml sets none: the host name, or `unknown` when
/// it cannot be read or is not UTF-8.
pub fn instance_default() -> String {
    gethostname::gethostname()
        .into_string()
        .ok()
        .map(|name| name.trim().to_string())
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| "unknown".to_string())
}

/// Records `obs` into the cumulative state — one observation per command, or one per context
/// of a command fanned out over several, in one locked update ([`record_all`]) — and, when
/// `target` is `Some`, pushes the totals of `families` once. An empty `obs` is a no-op.
/// Returns warnings (one line each, ready for stderr, e.g. `warning: metrics push to
/// http://127.0.0.1:9091/metrics/job/kubectl-myops/instance/node-1 failed: Connection
/// refused (os error 111); check that the Pushgateway is running and reachable; the totals
/// are kept in /home/me/.myops/metrics-state.json and sent with the next push`) — never an
/// error: a metrics failure never changes the command's exit code.
///
/// The push carries every requested family the state has data for, the `crd_*` hot-load
/// families included: the `PUT` replaces the whole group, so a push of the `ops_*` families
/// alone would delete the CRD load totals from the gateway.
///
/// Nothing is pushed when recording failed (the totals would be stale or unreadable) or when
/// no requested family has data (an empty `PUT` would delete the group on the gateway). The
/// push is bounded by `target.timeout`; the state file I/O runs on tokio's blocking pool.
/// Credentials in the URL are removed from the warning.
pub async fn finish(
    home: &Path,
    plugin: &str,
    obs: &[Observation],
    families: &[MetricFamily],
    target: Option<&PushTarget>,
) -> Vec<String> {
    if obs.is_empty() {
        return Vec::new();
    }
    let (home_owned, plugin_owned, obs_owned) =
        (home.to_path_buf(), plugin.to_string(), obs.to_vec());
    let recorded = move || record_all(&home_owned, &plugin_owned, &obs_owned);
    record_and_push(home, recorded, families, target).await
}

/// Records a batch of CRD loads — `(result, duration in seconds)` each — with
/// [`record_crd_loads`] and, when `target` is `Some`, pushes the totals of `families`; the
/// same contract as [`finish`]: warnings, never an error; no push when recording failed or
/// nothing requested has data; the push carries the `ops_*` families too when requested and
/// present, so it never deletes them from the gateway.
///
/// An empty `loads` is a no-op (no file access, no push, no warning).
pub async fn finish_crd_loads(
    home: &Path,
    plugin: &str,
    loads: &[(Status, f64)],
    families: &[MetricFamily],
    target: Option<&PushTarget>,
) -> Vec<String> {
    if loads.is_empty() {
        return Vec::new();
    }
    let (home_owned, plugin_owned, loads_owned) =
        (home.to_path_buf(), plugin.to_string(), loads.to_vec());
    let recorded = move || record_crd_loads(&home_owned, &plugin_owned, &loads_owned);
    record_and_push(home, recorded, families, target).await
}

/// The part [`finish`] and [`finish_crd_loads`] share: run `recorded` (a locked
/// read-modify-write of the state file) on tokio's blocking pool, then push the totals of
/// `families` from the state it returns, turning every failure into a warning line.
async fn record_and_push(
    home: &Path,
    recorded: impl FnOnce() -> Result<State, MetricsError> + Send + 'static,
    families: &[MetricFamily],
    target: Option<&PushTarget>,
) -> Vec<String> {
    let mut warnings = Vec::new();
    let state = match tokio::task::spawn_blocking(recorded).await {
        Ok(Ok(state)) => state,
        Ok(Err(err)) => {
            warnings.push(format!("warning: metrics not recorded: {err}"));
            return warnings;
        }
        Err(join) => {
            warnings.push(format!(
                "warning: metrics not recorded: the recorder stopped unexpectedly ({join})"
            ));
            return warnings;
        }
    };
    let Some(target) = target else {
        return warnings;
    };
    let mut body = encode(&state, families);
    if body.is_empty() {
        return warnings;
    }
    // Concurrent runs push after releasing the state lock, so an older total can land at the
    // gateway after a newer one (a PUT replaces the group). After each push, re-read the state:
    // if it moved on, push again. The run whose push lands last then always leaves the newest
    // totals behind. Bounded by the push timeout, so a command is never held up longer.
    let deadline = std::time::Instant::now() + target.timeout;
    let mut this_push = target.clone();
    loop {
        if let Err(err) = push(&this_push, body.clone()).await {
            warnings.push(format!(
                "warning: metrics push to {} failed: {err}; the totals are kept in {} and sent with the next push",
                push::redact_url(&target.url),
                state_path(home).display()
            ));
            return warnings;
        }
        let home = home.to_path_buf();
        let now = match tokio::task::spawn_blocking(move || load(&home)).await {
            Ok(Ok(state)) => encode(&state, families),
            _ => return warnings,
        };
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        if now == body || left < std::time::Duration::from_millis(10) {
            return warnings;
        }
        // A repeated push gets only what is left of the timeout: the whole stays within it.
        this_push.timeout = left;
        body = now;
    }
}

#[cfg(test)]
mod tests;
