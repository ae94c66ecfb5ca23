//! The text of the state file `<MYOPS_HOME>/metrics-state.json`, format version 1: parsing
//! with every consistency check, and serialising (pure; the file I/O is in `state.rs`).
//!
//! Version 1:
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
//! `buckets[i]` is the cumulative count of observations `<= BUCKETS[i]` seconds. Changing
//! [`BUCKETS`] or the layout requires a new `version`. `crdLoads` (the `crd_loads_total`
//! counters) and `crdLoadDurations` (the `crd_load_duration_seconds` histograms) are part of
//! version 1 but optional on read (a file without them has no CRD loads) and left out on
//! write while empty, so a state without CRD loads is written without them. Every CRD load
//! adds to one `crdLoads` entry and to its plugin's `crdLoadDurations` entry, so per plugin the `crdLoads` counts add up to the `crdLoadDurations` count; a file
//! where they do not is corrupt.
//!
//! Two more keys within version 1 (optional on read, absent in older files):
//! `stateId`, a random id created by the first write and kept by `metrics reset` — the
//! `state_id` grouping label that gives each MYOPS_HOME its own Pushgateway group — and
//! `pushedGroup`, the group URL (never with a userinfo) the totals were last pushed to, so a
//! push under a changed grouping key (job, instance or gateway URL) deletes the old group
//! instead of leaving it to be counted twice.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::Status;
use super::totals::{BUCKETS, CrdLoadKey, OpKey, OpTotals, State};

/// The state file format this build reads and writes.
pub const STATE_VERSION: u32 = 1;

/// Longest `stateId` accepted on read, in characters (a generated one has 12).
const MAX_STATE_ID_CHARS: usize = 64;

/// Longest `pushedGroup` accepted on read, in characters.
const MAX_PUSHED_GROUP_CHARS: usize = 4096;

/// The on-disk shape of one series (format version 1).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SeriesV1 {
    plugin: String,
    verb: String,
    resource: String,
    status: Status,
    /// Added within version 1: a state written before it counted only commands (`cli`).
    #[serde(default = "cli")]
    client: String,
    count: u64,
    sum: f64,
    buckets: [u64; BUCKETS.len()],
}

/// The `client` of a series written before the label existed.
fn cli() -> String {
    "cli".to_string()
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
    /// Absent in older files.
    #[serde(default, rename = "stateDir", skip_serializing_if = "Option::is_none")]
    state_dir: Option<String>,
}

#[derive(Deserialize)]
struct VersionProbe {
    version: u64,
}

/// Why a state text cannot be used: another format version, or a value the file cannot hold.
pub(super) enum ParseError {
    /// The file says another `version`.
    Version(u64),
    /// What is wrong with the text, for [`super::MetricsError::Corrupt`].
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

pub(super) fn parse_state(text: &str) -> Result<State, ParseError> {
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
    if let Some(dir) = &file.state_dir {
        let ok = dir.len() <= 64
            && dir.split_once(':').is_some_and(|(dev, ino)| {
                !dev.is_empty()
                    && !ino.is_empty()
                    && dev.bytes().chain(ino.bytes()).all(|b| b.is_ascii_digit())
            });
        if !ok {
            return Err(ParseError::Corrupt(
                "stateDir must be DEVICE:INODE (decimal digits)".to_string(),
            ));
        }
    }
    state.state_id = file.state_id;
    state.pushed_group = file.pushed_group;
    state.state_dir = file.state_dir;
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
            client: s.client,
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

pub(super) fn serialize_state(state: &State) -> serde_json::Result<String> {
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
                client: k.client.clone(),
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
        state_dir: state.state_dir.clone(),
    };
    serde_json::to_string(&file)
}
