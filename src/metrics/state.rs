//! The cumulative state file `<MYOPS_HOME>/metrics-state.json`.
//!
//! The Pushgateway is a cache, not an aggregator: a `PUT` replaces the whole group
//! (ARCHITECTURE §6). Each run therefore adds its observation to totals kept on disk and
//! pushes the totals. Concurrent runs serialise on an exclusive `flock` of
//! `<MYOPS_HOME>/metrics-state.lock` for the read-modify-write (a few milliseconds), and
//! the file is replaced atomically (temp file in the same directory, fsync, rename, fsync
//! of the directory), so a crash leaves either the old or the new totals, never half a file.
//! Locking, the atomic write and the private modes (0700 home, 0600 files) are the crate's
//! shared [`crate::fsutil`] helpers; this file maps their I/O errors into [`MetricsError`]
//! with the path concerned.
//!
//! File format, version 1:
//!
//! ```json
//! {"version":1,"ops":[{"plugin":"myops","verb":"get","resource":"pods","status":"success",
//!   "count":3,"sum":0.875,"buckets":[0,0,0,0,0,2,3,3,3,3,3,3,3]}]}
//! ```
//!
//! `buckets[i]` is the cumulative count of observations `<= BUCKETS[i]` seconds. Changing
//! [`BUCKETS`] or the layout requires a new `version`.

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{MetricsError, Observation, Status};
use crate::fsutil;

/// Upper bounds (seconds) of the `ops_duration_seconds` histogram buckets (`+Inf` is implied).
///
/// Suited to a CLI: a cached discovery answer takes milliseconds, a slow API server or a
/// `--chunk-size` list of thousands of objects takes tens of seconds, and a minute is the
/// longest any single verb should run. Part of state format version 1.
pub const BUCKETS: [f64; 13] = [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0,
];

/// The state file format this build reads and writes.
pub const STATE_VERSION: u32 = 1;

const STATE_FILE: &str = "metrics-state.json";
const LOCK_FILE: &str = "metrics-state.lock";
/// The temporary file [`fsutil::write_atomic`] writes the state to before the rename (its
/// `.<file name>.tmp` naming); the tests check that none is left behind.
#[cfg(test)]
const TEMP_FILE: &str = ".metrics-state.json.tmp";

/// The path of the state file under `home` (`<home>/metrics-state.json`).
pub fn state_path(home: &Path) -> PathBuf {
    home.join(STATE_FILE)
}

/// The label set of one `ops_*` series (ARCHITECTURE §6).
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
}

/// Cumulative totals of one series.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct OpTotals {
    /// Number of observations.
    pub count: u64,
    /// Sum of the durations, in seconds.
    pub sum_seconds: f64,
    /// Cumulative bucket counts: `buckets[i]` = observations `<= BUCKETS[i]` seconds.
    pub buckets: [u64; BUCKETS.len()],
}

/// The cumulative totals of every series seen under one MYOPS_HOME.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct State {
    /// `ops_*` series, ordered by label values.
    pub ops: BTreeMap<OpKey, OpTotals>,
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
        };
        let d = obs.duration_seconds;
        let seconds = if d.is_finite() && d > 0.0 { d } else { 0.0 };
        let totals = self.ops.entry(key).or_default();
        totals.count += 1;
        totals.sum_seconds += seconds;
        for (bound, bucket) in BUCKETS.iter().zip(totals.buckets.iter_mut()) {
            if seconds <= *bound {
                *bucket += 1;
            }
        }
    }

    /// True when nothing has been recorded.
    pub fn is_empty(&self) -> bool {
        self.ops.is_empty()
    }
}

/// Adds one observation to the state under an exclusive lock (lock file
/// `<home>/metrics-state.lock`), writes atomically (temp file in the same directory, fsync,
/// rename, fsync of the directory) and returns the new totals. `home` is created (mode
/// 0700, missing parents too) when missing; the state and lock files are created with mode
/// 0600.
///
/// # Errors
/// [`MetricsError`] when the directory cannot be created, the lock taken, the state read or
/// parsed (corrupt or another format version) or the new state written. On error the file
/// on disk is unchanged.
///
/// # Example
/// ```no_run
/// # use myops::metrics::{record, Observation, Status};
/// let obs = Observation { verb: "get".into(), resource: "pods".into(), status: Status::Success, duration_seconds: 0.12 };
/// let state = record(std::path::Path::new("/home/me/.myops"), "myops", &obs)?;
/// # Ok::<(), myops::metrics::MetricsError>(())
/// ```
pub fn record(home: &Path, plugin: &str, obs: &Observation) -> Result<State, MetricsError> {
    fsutil::ensure_private_dir(home).map_err(|source| MetricsError::CreateHome {
        path: home.to_path_buf(),
        source,
    })?;
    let _lock = lock(home, true)?;
    let mut state = read_state(home)?;
    state.observe(plugin, obs);
    write_state(home, &state)?;
    Ok(state)
    // `_lock` is dropped here, after the rename: the lock is released when the file closes.
}

/// Reads the totals under a shared lock; an empty state when the file (or `home`) is missing.
///
/// # Errors
/// [`MetricsError`] when the lock cannot be taken or the file cannot be read or parsed.
pub fn load(home: &Path) -> Result<State, MetricsError> {
    if !state_path(home).exists() {
        return Ok(State::default());
    }
    let _lock = lock(home, false)?;
    read_state(home)
}

/// Deletes the state file under the exclusive lock (the `metrics reset` action); the next
/// push then starts the totals from zero. A missing file is not an error.
///
/// # Errors
/// [`MetricsError::Lock`] or [`MetricsError::Write`] when the lock or the removal fails.
pub fn reset(home: &Path) -> Result<(), MetricsError> {
    if !home.exists() {
        return Ok(());
    }
    let _lock = lock(home, true)?;
    let path = state_path(home);
    match fs::remove_file(&path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(source) => Err(MetricsError::Write { path, source }),
    }
}

/// Opens and locks the lock file (exclusive for writers, shared for readers); the lock lives as
/// long as the returned file.
fn lock(home: &Path, exclusive: bool) -> Result<File, MetricsError> {
    let path = home.join(LOCK_FILE);
    if exclusive {
        fsutil::lock_exclusive(&path)
    } else {
        fsutil::lock_shared(&path)
    }
    .map_err(|source| MetricsError::Lock { path, source })
}

/// The on-disk shape of one series (format version 1).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SeriesV1 {
    plugin: String,
    verb: String,
    resource: String,
    status: Status,
    count: u64,
    sum: f64,
    buckets: [u64; BUCKETS.len()],
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileV1 {
    version: u32,
    ops: Vec<SeriesV1>,
}

#[derive(Deserialize)]
struct VersionProbe {
    version: u64,
}

fn read_state(home: &Path) -> Result<State, MetricsError> {
    let path = state_path(home);
    let text = match fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(State::default()),
        Err(e) if e.kind() == io::ErrorKind::InvalidData => {
            return Err(MetricsError::Corrupt {
                path,
                reason: "not UTF-8 text".to_string(),
            });
        }
        Err(source) => return Err(MetricsError::Read { path, source }),
    };
    parse_state(&text).map_err(|e| match e {
        ParseError::Version(found) => MetricsError::UnsupportedVersion {
            path: path.clone(),
            found,
        },
        ParseError::Corrupt(reason) => MetricsError::Corrupt {
            path: path.clone(),
            reason,
        },
    })
}

enum ParseError {
    Version(u64),
    Corrupt(String),
}

fn parse_state(text: &str) -> Result<State, ParseError> {
    let probe: VersionProbe =
        serde_json::from_str(text).map_err(|e| ParseError::Corrupt(e.to_string()))?;
    if probe.version != u64::from(STATE_VERSION) {
        return Err(ParseError::Version(probe.version));
    }
    let file: FileV1 =
        serde_json::from_str(text).map_err(|e| ParseError::Corrupt(e.to_string()))?;
    let mut state = State::default();
    for s in file.ops {
        let consistent = s.buckets.windows(2).all(|w| w[0] <= w[1])
            && s.buckets[BUCKETS.len() - 1] <= s.count
            && s.sum.is_finite()
            && s.sum >= 0.0;
        if !consistent {
            return Err(ParseError::Corrupt(format!(
                "inconsistent totals for {} {} {}",
                s.verb,
                s.resource,
                s.status.as_str()
            )));
        }
        let key = OpKey {
            plugin: s.plugin,
            verb: s.verb,
            resource: s.resource,
            status: s.status,
        };
        let totals = OpTotals {
            count: s.count,
            sum_seconds: s.sum,
            buckets: s.buckets,
        };
        if state.ops.insert(key, totals).is_some() {
            return Err(ParseError::Corrupt("a label set appears twice".to_string()));
        }
    }
    Ok(state)
}

fn serialize_state(state: &State) -> serde_json::Result<String> {
    let file = FileV1 {
        version: STATE_VERSION,
        ops: state
            .ops
            .iter()
            .map(|(k, t)| SeriesV1 {
                plugin: k.plugin.clone(),
                verb: k.verb.clone(),
                resource: k.resource.clone(),
                status: k.status,
                count: t.count,
                sum: t.sum_seconds,
                buckets: t.buckets,
            })
            .collect(),
    };
    serde_json::to_string(&file)
}

/// Writes `state` (JSON and a newline) with [`fsutil::write_atomic`]; any failure, of the
/// serialisation or of a step of the write, is [`MetricsError::Write`] naming the state file.
fn write_state(home: &Path, state: &State) -> Result<(), MetricsError> {
    let path = state_path(home);
    let written = serialize_state(state)
        .map_err(io::Error::other)
        .and_then(|mut text| {
            text.push('\n');
            fsutil::write_atomic(&path, text.as_bytes())
        });
    written.map_err(|source| MetricsError::Write { path, source })
}

#[cfg(test)]
#[path = "state_tests.rs"]
mod tests;
