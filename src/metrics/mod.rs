//! Per-operation and CRD hot-load metrics: record locally, push the totals (docs/design.md,
//! "Metrics").
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
//! Groups: each state directory pushes to a group of its own,
//! `/metrics/job/<job>/instance/<instance>/state_id/<id>` ([`state_group_url`]; the id is
//! kept in the state file), so two users on one host never replace each other's totals. The
//! state remembers the group it last pushed to; a push under another grouping key (job,
//! instance or gateway URL changed) deletes that old group ([`settle_group`]) so a `sum()`
//! never counts the same totals twice, and `metrics reset` / `metrics delete` delete the
//! group on the gateway ([`delete_groups`]).
//!
//! Files: `state.rs` (the state file), `state_format.rs` (its text), `totals.rs` (the totals
//! it holds), `error.rs` (its errors), `encode.rs` (text exposition format), `url.rs` (group
//! URLs), `target.rs` (where to push, why a push failed), `push.rs` (the HTTP `PUT` and
//! `DELETE`), `background.rs` (the detached pusher that keeps the push off a command's
//! critical path), `serve.rs` (the `/metrics`, `/healthz`, `/readyz` endpoint of a long-running
//! `crds watch --metrics-addr`). Tests: `tests.rs`, `state_tests.rs`, `push_tests.rs`.

pub mod background;
mod encode;
mod error;
mod push;
pub mod serve;
mod state;
mod state_format;
mod target;
mod totals;
mod url;

use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::config::model::MetricFamily;
use crate::exit::ExitStatus;

pub use crate::config::base_url_problem;
pub use encode::encode;
pub use error::MetricsError;
pub use push::{delete, push};
pub use state::{
    BUCKETS, CrdLoadKey, OpKey, OpTotals, STATE_VERSION, State, load, load_with_id, new_state_id,
    record, record_all, record_crd_loads, reset, set_pushed_group, state_path,
};
pub use target::{MAX_BODY_CHARS, PushError, PushTarget};
pub use totals::client_label;
pub use url::{STATE_ID_LABEL, push_url, redact_url, same_origin, state_group_url};

/// Outcome label `status` of one operation, and `result` of one CRD load (docs/design.md, "Metrics").
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
    /// The label for a command that ended with `e` (docs/design.md, "Metrics": one status per exit
    /// class).
    pub fn for_exit(e: ExitStatus) -> Status {
        Status::from(e)
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
            // Drift found is an answer the command gave, not a failure.
            ExitStatus::Success | ExitStatus::Drift => Status::Success,
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
    /// `client` label ([`totals::client_label`]): `cli` or `mcp`.
    pub client: &'static str,
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
/// push runs in a detached pusher process ([`background`]): the command does not wait for
/// the gateway, and a failed background push is the first warning of the next run that
/// records (its line starts `warning: the last background metrics push`). With
/// `MYOPS_METRICS_PUSH=sync`, or when no pusher can be started, the push runs here, bounded by
/// `target.timeout`, and warns on this run. The state file I/O runs on tokio's blocking pool.
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
    record_and_push(home, recorded, families, target, false).await
}

/// Records a batch of CRD loads — `(result, duration in seconds)` each — with
/// [`record_crd_loads`] and, when `target` is `Some`, pushes the totals of `families`; the
/// same contract as [`finish`], but the push always runs here (the long-running `crds watch`
/// outlives it, and a batch reports its own push): warnings, never an error; no push when recording failed or
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
    record_and_push(home, recorded, families, target, true).await
}

/// The part [`finish`] and [`finish_crd_loads`] share: run `recorded` (a locked
/// read-modify-write of the state file) on tokio's blocking pool, then push the totals of
/// `families` — from a detached pusher ([`background`]) unless `in_command` or
/// [`background::push_in_command`], else here, from the state it returns — turning every
/// failure into a warning line. A failure a background push left for this run comes first.
async fn record_and_push(
    home: &Path,
    recorded: impl FnOnce() -> Result<State, MetricsError> + Send + 'static,
    families: &[MetricFamily],
    target: Option<&PushTarget>,
    in_command: bool,
) -> Vec<String> {
    let mut warnings = background::take_failure_note(home);
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
    if encode(&state, families).is_empty() {
        return warnings;
    }
    // The totals are on disk: a pusher started here pushes them (or newer ones) without this
    // command waiting; only when none can be started does the command push itself.
    if !in_command
        && !background::push_in_command()
        && background::start(home, target, families).is_ok()
    {
        return warnings;
    }
    let deadline = std::time::Instant::now() + target.timeout;
    warnings.extend(
        push_settled(home, state, families, target, deadline)
            .await
            .1,
    );
    warnings
}

/// Pushes the totals of `families` in `state` to its group under `target`, then re-reads the
/// state and pushes again while it changed, until `deadline`; then settles the group
/// ([`settle_group`]). Returns the body last pushed (`None` when nothing was pushed: no data,
/// no state id, or the push failed) and the warnings.
///
/// Concurrent runs push after releasing the state lock, so an older total can land at the
/// gateway after a newer one (a PUT replaces the group). Re-reading after each push and
/// pushing again when it moved on leaves the newest totals behind with whoever pushes last.
/// Each repeated push gets only what is left until `deadline`.
async fn push_settled(
    home: &Path,
    state: State,
    families: &[MetricFamily],
    target: &PushTarget,
    deadline: std::time::Instant,
) -> (Option<String>, Vec<String>) {
    let mut body = encode(&state, families);
    if body.is_empty() {
        return (None, Vec::new());
    }
    let Some(target) = &group_target(target, &state) else {
        return (None, Vec::new());
    };
    // The first push gets the whole timeout (its warning names it); repeats what is left.
    let mut this_push = target.clone();
    loop {
        if let Err(err) = push(&this_push, body.clone()).await {
            let warning = format!(
                "warning: metrics push to {} failed: {err}; the totals are kept in {} and sent with the next push",
                url::redact_url(&target.url),
                state_path(home).display()
            );
            return (None, vec![warning]);
        }
        let home_owned = home.to_path_buf();
        let now = match tokio::task::spawn_blocking(move || load(&home_owned)).await {
            Ok(Ok(state)) => encode(&state, families),
            _ => return (Some(body), Vec::new()),
        };
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        if now == body || left < std::time::Duration::from_millis(10) {
            let settled = settle_group(home, target, state.pushed_group.as_deref()).await;
            return (Some(body), settled);
        }
        this_push.timeout = left.min(target.timeout);
        body = now;
    }
}

/// The target of this state directory's own group: `target` with the `state_id` grouping
/// pair of `state` appended to its URL ([`state_group_url`]); `None` when the state has no
/// id (a file no write of this build touched; every [`record`] gives it one).
pub fn group_target(target: &PushTarget, state: &State) -> Option<PushTarget> {
    let id = state.state_id.as_deref()?;
    Some(PushTarget {
        url: state_group_url(&target.url, id),
        ..target.clone()
    })
}

/// The target that deletes `old_group` (a group URL without userinfo from the state file):
/// `current`'s credentials and CA when it is on the same origin as `current.url`
/// ([`same_origin`]), else none of them (a credential is never sent to another host), and
/// `current`'s timeout.
fn old_group_target(current: &PushTarget, old_group: &str) -> PushTarget {
    let same = same_origin(old_group, &current.url);
    PushTarget {
        url: old_group.to_string(),
        timeout: current.timeout,
        basic_auth: current.basic_auth.clone().filter(|_| same),
        bearer_token: current.bearer_token.clone().filter(|_| same),
        ca_pem: current.ca_pem.clone(),
    }
}

/// After a successful push to `pushed` (a [`group_target`]): when the state's previous group
/// `previous` is another one (job, instance or gateway URL changed since), deletes it with
/// [`delete`] — so the same totals are never in two groups, which `sum()` would count twice —
/// and remembers `pushed` as the state's group ([`set_pushed_group`], without userinfo).
/// No I/O when `previous` already is `pushed`.
///
/// Returns warnings, one line each: the old group could not be deleted (with the `curl`
/// command that deletes it), or the state could not be updated. Never an error: it runs at
/// the end of a command whose exit code metrics never change. Bounded by the push timeout
/// (one extra `DELETE` when the key changed).
pub async fn settle_group(home: &Path, pushed: &PushTarget, previous: Option<&str>) -> Vec<String> {
    let now = redact_url(&pushed.url);
    if previous == Some(now.as_str()) {
        return Vec::new();
    }
    let mut warnings = Vec::new();
    if let Some(old) = previous
        && let Err(err) = delete(&old_group_target(pushed, old)).await
    {
        warnings.push(format!(
            "warning: the totals now go to the Pushgateway group {now}, but deleting their old group {} failed: {err}; delete it (curl -X DELETE '{}') or sums over both groups count these totals twice",
            crate::base::echo::escaped(old),
            crate::base::echo::escaped(old)
        ));
    }
    let home_owned = home.to_path_buf();
    let remembered =
        tokio::task::spawn_blocking(move || set_pushed_group(&home_owned, Some(&now))).await;
    match remembered {
        Ok(Ok(_)) => {}
        Ok(Err(err)) => warnings.push(format!("warning: metrics group not remembered: {err}")),
        Err(join) => warnings.push(format!(
            "warning: metrics group not remembered: the recorder stopped unexpectedly ({join})"
        )),
    }
    warnings
}

/// Why [`delete_groups`] failed.
#[derive(Debug, thiserror::Error)]
pub enum DeleteGroupError {
    /// The state file could not be read or updated.
    #[error(transparent)]
    State(#[from] MetricsError),
    /// The gateway did not delete a group.
    #[error("deleting the group {url} on the Pushgateway failed: {source}")]
    Gateway {
        /// The group URL, without userinfo.
        url: String,
        /// The push client's error.
        #[source]
        source: PushError,
    },
}

/// Deletes this state directory's groups on the Pushgateway (`metrics reset` and
/// `metrics delete`): its group under `target`'s current grouping key and, when another, the
/// group the state last pushed to ([`State::pushed_group`]); then forgets the latter. The
/// local totals are not touched. Returns the deleted group URLs (without userinfo); none when
/// the state has no id (nothing was ever recorded here, so nothing pushed).
///
/// # Errors
/// [`DeleteGroupError::State`] when the state cannot be read or written;
/// [`DeleteGroupError::Gateway`] for the first group the gateway did not delete (the state
/// still remembers the old group then, so a later push or delete retries it).
pub async fn delete_groups(
    home: &Path,
    target: &PushTarget,
) -> Result<Vec<String>, DeleteGroupError> {
    let home_owned = home.to_path_buf();
    let state = tokio::task::spawn_blocking(move || load(&home_owned))
        .await
        .map_err(|join| MetricsError::Read {
            path: state_path(home),
            source: std::io::Error::other(join.to_string()),
        })??;
    let Some(current) = group_target(target, &state) else {
        return Ok(Vec::new());
    };
    let mut groups = vec![current.clone()];
    if let Some(old) = state
        .pushed_group
        .as_deref()
        .filter(|old| *old != redact_url(&current.url))
    {
        groups.push(old_group_target(&current, old));
    }
    background::forget_pushed(home);
    let mut deleted = Vec::new();
    for group in &groups {
        let url = redact_url(&group.url);
        delete(group)
            .await
            .map_err(|source| DeleteGroupError::Gateway {
                url: crate::base::echo::escaped(&url),
                source,
            })?;
        deleted.push(url);
    }
    let home_owned = home.to_path_buf();
    tokio::task::spawn_blocking(move || set_pushed_group(&home_owned, None))
        .await
        .map_err(|join| MetricsError::Write {
            path: state_path(home),
            source: std::io::Error::other(join.to_string()),
        })??;
    Ok(deleted)
}

#[cfg(test)]
mod tests;
