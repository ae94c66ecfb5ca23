//! The cumulative state file `<MYOPS_HOME>/metrics-state.json`.
//!
//! The Pushgateway is a cache, not an aggregator: a `PUT` replaces the whole group
//! (docs/design.md, "Metrics"). Each run therefore adds its observation to totals kept on disk and
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
//!   "count":3,"sum":0.875,"buckets":[0,0,0,0,0,2,3,3,3,3,3,3,3]}],
//!  "crdLoads":[{"plugin":"myops","result":"success","count":2},
//!   {"plugin":"myops","result":"invalid","count":1}],
//!  "crdLoadDurations":[{"plugin":"myops","count":3,"sum":0.375,
//!   "buckets":[1,1,1,1,1,3,3,3,3,3,3,3,3]}]}
//! ```
//!
//! Arithmetic saturates: a count or bucket at 2⁶⁴−1 stays there instead
//! of wrapping to 0 (which would make the file inconsistent and so "corrupt"), and a sum that
//! would leave the finite `f64` range stays at `f64::MAX`. Saturating, not `f64` counts as
//! Prometheus keeps them: integers stay exact up to 2⁶⁴−1 (an `f64` loses integer precision
//! past 2⁵³), and a counter that can no longer grow is still a valid counter — Prometheus
//! only ever sees a value that stops increasing, never a reset.
//!
//! Reading is bounded: the state file is read only if it is a regular file (after links) of
//! at most [`MAX_STATE_BYTES`] ([`fsutil::read_regular`]: a FIFO never hangs a command); a
//! MYOPS_HOME that is not a directory is [`MetricsError::NotADirectory`]. Values the file
//! cannot hold (negative, fractional or over 2⁶⁴−1 counts, non-finite or negative sums,
//! non-UTF-8 text) make it [`MetricsError::Corrupt`], naming the file and the way out.
//!
//! `buckets[i]` is the cumulative count of observations `<= BUCKETS[i]` seconds. Changing
//! [`BUCKETS`] or the layout requires a new `version`. `crdLoads` (the `crd_loads_total`
//! counters) and `crdLoadDurations` (the `crd_load_duration_seconds` histograms) are part of
//! version 1 but optional on read (a file without them has no CRD loads) and left out on
//! write while empty, so a state without CRD loads is written without them. Every CRD load adds to one `crdLoads` entry and to its plugin's `crdLoadDurations`
//! entry, so per plugin the `crdLoads` counts add up to the `crdLoadDurations` count; a file
//! where they do not is corrupt.
//!
//! Two more keys within version 1 (optional on read, absent in older files):
//! `stateId`, a random id created by the first write and kept by `metrics reset` — the
//! `state_id` grouping label that gives each MYOPS_HOME its own Pushgateway group — and
//! `pushedGroup`, the group URL (never with a userinfo) the totals were last pushed to, so a
//! push under a changed grouping key (job, instance or gateway URL) deletes the old group
//! instead of leaving it to be counted twice.

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{MetricsError, Observation, Status};
use crate::fsutil;

/// Upper bounds (seconds) of the `ops_duration_seconds` and `crd_load_duration_seconds`
/// histogram buckets (`+Inf` is implied).
///
/// Suited to a CLI: a cached discovery answer takes milliseconds, a slow API server or a
/// `--chunk-size` list of thousands of objects takes tens of seconds, and a minute is the
/// longest any single verb should run. Part of state format version 1.
pub const BUCKETS: [f64; 13] = [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0,
];

/// The state file format this build reads and writes.
pub const STATE_VERSION: u32 = 1;

/// The largest state file read, in bytes (16 MiB: tens of thousands of series; a real one is
/// a few kilobytes). A larger file is reported as corrupt rather than read into memory.
pub const MAX_STATE_BYTES: u64 = 16 * 1024 * 1024;

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
    fn add(&mut self, seconds: f64) {
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
    fn is_consistent(&self) -> bool {
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
}

/// Longest `stateId` accepted on read, in characters (a generated one has 12).
const MAX_STATE_ID_CHARS: usize = 64;

/// Longest `pushedGroup` accepted on read, in characters.
const MAX_PUSHED_GROUP_CHARS: usize = 4096;

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
    record_all(home, plugin, std::slice::from_ref(obs))
}

/// Adds several observations (one command fanned out over several contexts: one per
/// context) in one locked read-modify-write, exactly as [`record`] does for one.
///
/// # Errors
/// As [`record`]; on error none of `obs` is recorded.
pub fn record_all(home: &Path, plugin: &str, obs: &[Observation]) -> Result<State, MetricsError> {
    update(home, |state| {
        for o in obs {
            state.observe(plugin, o);
        }
    })
}

/// Adds several CRD loads — `(result, duration in seconds)` each, e.g. one watcher batch — to
/// the state in one locked read-modify-write, exactly as [`record`] does for one operation,
/// and returns the new totals. Each load adds one to `crd_loads_total{plugin,result}` and one
/// observation to `crd_load_duration_seconds{plugin}`; a negative, NaN or infinite duration
/// counts as 0 s. `result` is one of `success`, `invalid`, `denied`, `conflict`, `error`
/// ([`Status::NotFound`] is not a hot-load outcome; passed anyway, it is recorded as
/// `notfound`).
///
/// An empty `loads` writes nothing and creates nothing: it returns the current totals, as
/// [`load`] does.
///
/// # Errors
/// As [`record`]; on error the file on disk is unchanged and none of `loads` is recorded.
///
/// # Example
/// ```no_run
/// # use myops::metrics::{record_crd_loads, Status};
/// let loads = [(Status::Success, 0.25), (Status::Invalid, 0.002)];
/// let state = record_crd_loads(std::path::Path::new("/home/me/.myops"), "myops", &loads)?;
/// # Ok::<(), myops::metrics::MetricsError>(())
/// ```
pub fn record_crd_loads(
    home: &Path,
    plugin: &str,
    loads: &[(Status, f64)],
) -> Result<State, MetricsError> {
    if loads.is_empty() {
        return load(home);
    }
    update(home, |state| {
        for &(result, seconds) in loads {
            state.observe_crd_load(plugin, result, seconds);
        }
    })
}

/// The locked read-modify-write shared by [`record`] and [`record_crd_loads`]: creates `home`
/// (0700) when missing, takes the exclusive lock, reads the state, applies `change`, writes
/// the state atomically and returns it.
fn update(home: &Path, change: impl FnOnce(&mut State)) -> Result<State, MetricsError> {
    home_exists(home)?;
    fsutil::ensure_private_dir(home).map_err(|source| MetricsError::CreateHome {
        path: home.to_path_buf(),
        source,
    })?;
    let _lock = lock(home, true)?;
    let mut state = read_state(home)?;
    change(&mut state);
    if state.state_id.is_none() {
        state.state_id = Some(new_state_id());
    }
    write_state(home, &state)?;
    Ok(state)
    // `_lock` is dropped here, after the rename: the lock is released when the file closes.
}

/// The state with a [`State::state_id`]: as [`load`] when the file has one, else written
/// once with a new id (creating `home` as [`record`] does). For `metrics push` and
/// `metrics delete`, which need the group's id without recording anything.
///
/// # Errors
/// As [`load`] and [`record`].
pub fn load_with_id(home: &Path) -> Result<State, MetricsError> {
    let state = load(home)?;
    if state.state_id.is_some() {
        return Ok(state);
    }
    update(home, |_| {})
}

/// Sets [`State::pushed_group`] to `group` (a URL without userinfo, or `None` after the group
/// was deleted) under the exclusive lock, leaving the totals alone; no write when it already
/// is. Returns the state.
///
/// # Errors
/// As [`record`].
pub fn set_pushed_group(home: &Path, group: Option<&str>) -> Result<State, MetricsError> {
    let state = load(home)?;
    if state.pushed_group.as_deref() == group && state.state_id.is_some() {
        return Ok(state);
    }
    update(home, |s| s.pushed_group = group.map(str::to_string))
}

/// Reads the totals under a shared lock; an empty state when `home` or the file is missing
/// (nothing recorded yet). Nothing is created.
///
/// # Errors
/// [`MetricsError::NotADirectory`] when `home` is a file, FIFO, dangling link or anything but
/// a directory; [`MetricsError::Read`] when `home` or the file cannot be examined (e.g.
/// permission denied); otherwise as the lock and [`read_state`] fail.
pub fn load(home: &Path) -> Result<State, MetricsError> {
    if !home_exists(home)? {
        return Ok(State::default());
    }
    let path = state_path(home);
    match fs::symlink_metadata(&path) {
        Ok(_) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(State::default()),
        Err(source) => return Err(MetricsError::Read { path, source }),
    }
    let _lock = lock(home, false)?;
    read_state(home)
}

/// Whether `home` exists as a directory (`false`: nothing there yet, it will be created).
///
/// # Errors
/// [`MetricsError::NotADirectory`] for anything else at that path, a dangling symbolic link
/// included, so `metrics show` with MYOPS_HOME pointing at a file is an error and not "No
/// metrics recorded yet"; [`MetricsError::Read`] when it cannot be examined.
pub fn home_exists(home: &Path) -> Result<bool, MetricsError> {
    let not_dir = |what: String| MetricsError::NotADirectory {
        path: home.to_path_buf(),
        what,
    };
    match fs::metadata(home) {
        Ok(m) if m.is_dir() => Ok(true),
        Ok(m) => Err(not_dir(
            fsutil::FileKind::of(&m)
                .map(|k| k.to_string())
                .unwrap_or_else(|| "a regular file".to_string()),
        )),
        Err(e) if e.kind() == io::ErrorKind::NotFound => match fs::read_link(home) {
            Ok(target) => Err(not_dir(format!(
                "a dangling symbolic link to {}",
                target.display()
            ))),
            Err(_) => Ok(false),
        },
        Err(source) => Err(MetricsError::Read {
            path: home.to_path_buf(),
            source,
        }),
    }
}

/// Clears the totals under the exclusive lock (the `metrics reset` action); the next push
/// then starts them from zero. The [`State::state_id`] and [`State::pushed_group`] are kept
/// (the directory stays the same group; deleting that group on the gateway is the caller's
/// part), so the file then holds only those. Nothing is created when there is no file. A
/// state file that cannot be read (corrupt, another version) is deleted: reset is the way
/// out those errors name.
///
/// # Errors
/// [`MetricsError::NotADirectory`] when `home` is not a directory; [`MetricsError::Lock`] or
/// [`MetricsError::Write`] when the lock, the write or the removal fails.
pub fn reset(home: &Path) -> Result<State, MetricsError> {
    if !home_exists(home)? {
        return Ok(State::default());
    }
    let _lock = lock(home, true)?;
    let path = state_path(home);
    let kept = match read_state(home) {
        Ok(old) if old.state_id.is_some() => State {
            state_id: old.state_id,
            pushed_group: old.pushed_group,
            ..State::default()
        },
        _ => {
            return match fs::remove_file(&path) {
                Ok(()) => Ok(State::default()),
                Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(State::default()),
                Err(source) => Err(MetricsError::Write { path, source }),
            };
        }
    };
    write_state(home, &kept)?;
    Ok(kept)
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

/// The on-disk shape of one `crd_loads_total` series (added within version 1).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct CrdLoadV1 {
    plugin: String,
    result: Status,
    count: u64,
}

/// The on-disk shape of one `crd_load_duration_seconds` series (added within version 1).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct CrdDurationV1 {
    plugin: String,
    count: u64,
    sum: f64,
    buckets: [u64; BUCKETS.len()],
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileV1 {
    version: u32,
    ops: Vec<SeriesV1>,
    /// Absent in files without CRD loads.
    #[serde(default, rename = "crdLoads", skip_serializing_if = "Vec::is_empty")]
    crd_loads: Vec<CrdLoadV1>,
    /// Absent in files without CRD loads.
    #[serde(
        default,
        rename = "crdLoadDurations",
        skip_serializing_if = "Vec::is_empty"
    )]
    crd_load_durations: Vec<CrdDurationV1>,
    /// Absent in older files.
    #[serde(default, rename = "stateId", skip_serializing_if = "Option::is_none")]
    state_id: Option<String>,
    /// Absent in older files, and while nothing is pushed.
    #[serde(
        default,
        rename = "pushedGroup",
        skip_serializing_if = "Option::is_none"
    )]
    pushed_group: Option<String>,
}

#[derive(Deserialize)]
struct VersionProbe {
    version: u64,
}

/// Reads and parses the state file: a regular file of at most [`MAX_STATE_BYTES`], UTF-8,
/// valid JSON of format version 1 with consistent totals; a missing file is an empty state.
fn read_state(home: &Path) -> Result<State, MetricsError> {
    let path = state_path(home);
    let bytes = match fsutil::read_regular(&path, MAX_STATE_BYTES) {
        Ok(bytes) => bytes,
        Err(e) => {
            return Err(match e.problem {
                fsutil::Unreadable::Missing => return Ok(State::default()),
                fsutil::Unreadable::TooLarge { size, cap } => MetricsError::Corrupt {
                    path,
                    reason: format!("{size} bytes, over the {cap}-byte limit of a state file"),
                },
                fsutil::Unreadable::NotRegular(kind) => MetricsError::Corrupt {
                    path,
                    reason: format!("it is {kind}, not a regular file"),
                },
                problem => MetricsError::Read {
                    source: io::Error::new(problem.kind(), problem.to_string()),
                    path,
                },
            });
        }
    };
    let text = String::from_utf8(bytes).map_err(|e| MetricsError::Corrupt {
        path: path.clone(),
        reason: format!(
            "not UTF-8 text: invalid byte at offset {}",
            e.utf8_error().valid_up_to()
        ),
    })?;
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

/// A parser's message for [`MetricsError::Corrupt`]: control characters escaped, at most
/// 200 characters (serde quotes values of the file, which anyone may have edited).
fn tame(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let mut out = String::new();
    for c in text.chars().take(200) {
        if c.is_control() {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    if text.chars().nth(200).is_some() {
        out.push('…');
    }
    out
}

fn parse_state(text: &str) -> Result<State, ParseError> {
    let probe: VersionProbe =
        serde_json::from_str(text).map_err(|e| ParseError::Corrupt(tame(&e)))?;
    if probe.version != u64::from(STATE_VERSION) {
        return Err(ParseError::Version(probe.version));
    }
    let file: FileV1 = serde_json::from_str(text).map_err(|e| ParseError::Corrupt(tame(&e)))?;
    let mut state = State::default();
    if let Some(id) = &file.state_id {
        let ok = (1..=MAX_STATE_ID_CHARS).contains(&id.chars().count())
            && id
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if !ok {
            return Err(ParseError::Corrupt(
                "stateId must be 1 to 64 ASCII letters, digits, '-' or '_'".to_string(),
            ));
        }
    }
    if let Some(group) = &file.pushed_group {
        let ok = group.chars().count() <= MAX_PUSHED_GROUP_CHARS
            && (group.starts_with("http://") || group.starts_with("https://"))
            && !group.chars().any(|c| c.is_control() || c.is_whitespace());
        if !ok {
            return Err(ParseError::Corrupt(
                "pushedGroup must be an http:// or https:// URL of at most 4096 characters without spaces or control characters".to_string(),
            ));
        }
    }
    state.state_id = file.state_id;
    state.pushed_group = file.pushed_group;
    for s in file.ops {
        let totals = OpTotals {
            count: s.count,
            sum_seconds: s.sum,
            buckets: s.buckets,
        };
        if !totals.is_consistent() {
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
        if state.ops.insert(key, totals).is_some() {
            return Err(ParseError::Corrupt("a label set appears twice".to_string()));
        }
    }
    for s in file.crd_loads {
        let key = CrdLoadKey {
            plugin: s.plugin,
            result: s.result,
        };
        if state.crd_loads.insert(key, s.count).is_some() {
            return Err(ParseError::Corrupt(
                "a crdLoads label set appears twice".to_string(),
            ));
        }
    }
    for s in file.crd_load_durations {
        let totals = OpTotals {
            count: s.count,
            sum_seconds: s.sum,
            buckets: s.buckets,
        };
        if !totals.is_consistent() {
            return Err(ParseError::Corrupt(format!(
                "inconsistent CRD load duration totals for plugin {}",
                s.plugin
            )));
        }
        if state.crd_load_durations.insert(s.plugin, totals).is_some() {
            return Err(ParseError::Corrupt(
                "a crdLoadDurations plugin appears twice".to_string(),
            ));
        }
    }
    check_crd_counts(&state)?;
    Ok(state)
}

/// Per plugin, the `crdLoads` counts must add up to the `crdLoadDurations` count (every load
/// adds to both), and neither may name a plugin the other lacks.
fn check_crd_counts(state: &State) -> Result<(), ParseError> {
    // Saturating, as the counters are: once one of a plugin's counters reached u64::MAX,
    // its duration count did too (every load adds to both), and so does this sum.
    let mut loads: BTreeMap<&str, u64> = BTreeMap::new();
    for (key, count) in &state.crd_loads {
        let total = loads.entry(key.plugin.as_str()).or_default();
        *total = total.saturating_add(*count);
    }
    let durations: BTreeMap<&str, u64> = state
        .crd_load_durations
        .iter()
        .map(|(plugin, t)| (plugin.as_str(), t.count))
        .collect();
    if loads == durations {
        return Ok(());
    }
    let plugin = loads
        .keys()
        .chain(durations.keys())
        .find(|p| loads.get(*p) != durations.get(*p))
        .copied()
        .unwrap_or_default();
    Err(ParseError::Corrupt(format!(
        "crdLoads and crdLoadDurations disagree for plugin {plugin}"
    )))
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
        crd_loads: state
            .crd_loads
            .iter()
            .map(|(k, count)| CrdLoadV1 {
                plugin: k.plugin.clone(),
                result: k.result,
                count: *count,
            })
            .collect(),
        crd_load_durations: state
            .crd_load_durations
            .iter()
            .map(|(plugin, t)| CrdDurationV1 {
                plugin: plugin.clone(),
                count: t.count,
                sum: t.sum_seconds,
                buckets: t.buckets,
            })
            .collect(),
        state_id: state.state_id.clone(),
        pushed_group: state.pushed_group.clone(),
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
