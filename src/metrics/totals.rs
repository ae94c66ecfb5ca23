//! The cumulative totals of one MYOPS_HOME, in memory: the label sets, the histogram
//! totals and the [`State`] that adds observations to them (pure, no I/O).
//!
//! Arithmetic saturates: a count or bucket at 2⁶⁴−1 stays there instead of wrapping to 0
//! (which would make the file inconsistent and so "corrupt"), and a sum that would leave the
//! finite `f64` range stays at `f64::MAX`. Saturating, not `f64` counts as Prometheus keeps
//! them: integers stay exact up to 2⁶⁴−1 (an `f64` loses integer precision past 2⁵³), and a
//! counter that can no longer grow is still a valid counter — Prometheus only ever sees a
//! value that stops increasing, never a reset.

use std::collections::BTreeMap;

use super::{Observation, Status};

/// Upper bounds (seconds) of the `ops_duration_seconds` and `crd_load_duration_seconds`
/// histogram buckets (`+Inf` is implied).
///
/// Suited to a CLI: a cached discovery answer takes milliseconds, a slow API server or a
/// `--chunk-size` list of thousands of objects takes tens of seconds, and a minute is the
/// longest any single verb should run. Part of state format version 1.
pub const BUCKETS: [f64; 13] = [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0,
];

/// The label set of one `ops_*` series (docs/design.md, "Metrics").
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct OpKey {
    /// `plugin` label: the plugin name from plugin.yaml.
    pub plugin: String,
    /// `verb` label, e.g. `get`.
    pub verb: String,
    /// `resource` label, e.g. `pods` or `widgets.example.com`.
    pub resource: String,
    /// `status` label.
    pub status: Status,
    /// `client` label: `cli` for a person's command line, `mcp` for an agent's tool call
    /// through `kubectl myops mcp` ([`client_label`]).
    pub client: String,
}

/// The `client` label of a command run for `actor` (`Settings::actor`, pure): `mcp` for an
/// agent's tool call (`mcp:NAME/VERSION`), else `cli`. Never the client's own name: a label
/// value per client would let any client grow the series without bound.
pub fn client_label(actor: Option<&str>) -> &'static str {
    match actor {
        Some(a) if a.starts_with("mcp:") => "mcp",
        _ => "cli",
    }
}

/// The label set of one `crd_loads_total` series (docs/design.md, "Metrics").
///
/// `result` reuses [`Status`]: the hot-loader reports `success`, `invalid`, `denied`,
/// `conflict` or `error`; `notfound` is not one of its outcomes (it is recorded verbatim if
/// a caller passes it anyway).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CrdLoadKey {
    /// `plugin` label: the plugin name from plugin.yaml.
    pub plugin: String,
    /// `result` label.
    pub result: Status,
}

/// Cumulative totals of one histogram series: an `ops_duration_seconds` series (and the
/// matching `ops_total` count) or a `crd_load_duration_seconds` series.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct OpTotals {
    /// Number of observations.
    pub count: u64,
    /// Sum of the durations, in seconds.
    pub sum_seconds: f64,
    /// Cumulative bucket counts: `buckets[i]` = observations `<= BUCKETS[i]` seconds.
    pub buckets: [u64; BUCKETS.len()],
}

impl OpTotals {
    /// Adds one duration. A negative, NaN or infinite duration counts as 0 s so one bad clock
    /// reading cannot poison the sum forever. Saturating: a count or bucket at `u64::MAX`
    /// stays there, a sum that would overflow stays at `f64::MAX` (see the module doc).
    pub(super) fn add(&mut self, seconds: f64) {
        let seconds = if seconds.is_finite() && seconds > 0.0 {
            seconds
        } else {
            0.0
        };
        self.count = self.count.saturating_add(1);
        let sum = self.sum_seconds + seconds;
        self.sum_seconds = if sum.is_finite() { sum } else { f64::MAX };
        for (bound, bucket) in BUCKETS.iter().zip(self.buckets.iter_mut()) {
            if seconds <= *bound {
                *bucket = bucket.saturating_add(1);
            }
        }
    }

    /// True when the stored totals can be real ones: buckets non-decreasing, the last one at
    /// most `count`, the sum finite and not negative.
    pub(super) fn is_consistent(&self) -> bool {
        self.buckets.windows(2).all(|w| w[0] <= w[1])
            && self.buckets[BUCKETS.len() - 1] <= self.count
            && self.sum_seconds.is_finite()
            && self.sum_seconds >= 0.0
    }
}

/// The cumulative totals of every series seen under one MYOPS_HOME.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct State {
    /// `ops_*` series, ordered by label values.
    pub ops: BTreeMap<OpKey, OpTotals>,
    /// `crd_loads_total` counters, ordered by label values.
    pub crd_loads: BTreeMap<CrdLoadKey, u64>,
    /// `crd_load_duration_seconds` histograms by `plugin` label. Per plugin, the count equals
    /// the sum of that plugin's [`State::crd_loads`] counts.
    pub crd_load_durations: BTreeMap<String, OpTotals>,
    /// This state directory's id, the value of the `state_id` grouping label (12 lowercase
    /// hex digits, 48 random bits; see [`new_state_id`]). `None` only in a file no write of
    /// this build has touched yet.
    pub state_id: Option<String>,
    /// The group URL (without userinfo) the totals were last pushed to successfully, e.g.
    /// `http://gw:9091/metrics/job/kubectl-myops/instance/node-1/state_id/3f9c2a71b0de`;
    /// `None` when never pushed or after that group was deleted.
    pub pushed_group: Option<String>,
    /// The directory [`State::state_id`] belongs to, as `<device>:<inode>` of MYOPS_HOME
    /// ([`super::state::dir_binding`]); `None` in files written before it was kept. A state
    /// file found in another directory is a copy (`cp -a`), which takes a new id.
    pub state_dir: Option<String>,
}

/// A fresh state id: the first 12 hex digits (48 bits) of [`crate::changelog::new_session_id`]
/// (the OS random source). 48 bits make a collision among even 10,000 state directories
/// pushing to one gateway about one in 5 million; the id is short enough to read in a label.
pub fn new_state_id() -> String {
    crate::changelog::new_session_id()[..12].to_string()
}

impl State {
    /// Adds one observation (pure, no I/O). A negative, NaN or infinite duration counts as 0 s
    /// so one bad clock reading cannot poison the sum forever.
    pub fn observe(&mut self, plugin: &str, obs: &Observation) {
        let key = OpKey {
            plugin: plugin.to_string(),
            verb: obs.verb.clone(),
            resource: obs.resource.clone(),
            status: obs.status,
            client: obs.client.to_string(),
        };
        self.ops.entry(key).or_default().add(obs.duration_seconds);
    }

    /// Adds one CRD load with outcome `result` that took `duration_seconds` (pure, no I/O): one
    /// to `crd_loads_total{plugin,result}`, one observation to
    /// `crd_load_duration_seconds{plugin}`. Bad durations count as 0 s, as in
    /// [`State::observe`].
    pub fn observe_crd_load(&mut self, plugin: &str, result: Status, duration_seconds: f64) {
        let key = CrdLoadKey {
            plugin: plugin.to_string(),
            result,
        };
        let count = self.crd_loads.entry(key).or_default();
        *count = count.saturating_add(1);
        self.crd_load_durations
            .entry(plugin.to_string())
            .or_default()
            .add(duration_seconds);
    }

    /// True when nothing has been recorded.
    pub fn is_empty(&self) -> bool {
        self.ops.is_empty() && self.crd_loads.is_empty() && self.crd_load_durations.is_empty()
    }
}
