//! The cumulative state file `<MYOPS_HOME>/metrics-state.json`.
//!
//! The Pushgateway is a cache, not an aggregator: a `PUT` replaces the whole group
//! (docs/design.md, "Metrics"). Each run therefore adds its observation to totals kept on
//! disk and pushes the totals. Concurrent runs serialise on an exclusive `flock` of
//! `<MYOPS_HOME>/metrics-state.lock` for the read-modify-write (a few milliseconds), and
//! the file is replaced atomically (temp file in the same directory, fsync, rename, fsync
//! of the directory), so a crash leaves either the old or the new totals, never half a file.
//! Locking, the atomic write and the private modes (0700 home, 0600 files) are the crate's
//! shared [`crate::base::fsutil`] helpers; this file maps their I/O errors into [`MetricsError`]
//! with the path concerned.
//!
//! Reading is bounded: the state file is read only if it is a regular file (after links) of
//! at most [`MAX_STATE_BYTES`] ([`fsutil::read_regular`]: a FIFO never hangs a command); a
//! MYOPS_HOME that is not a directory is [`MetricsError::NotADirectory`]. Values the file
//! cannot hold (negative, fractional or over 2⁶⁴−1 counts, non-finite or negative sums,
//! non-UTF-8 text) make it [`MetricsError::Corrupt`], naming the file and the way out.
//!
//! The text of the file is `state_format.rs`, the totals it holds `totals.rs`.

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};

use super::state_format::{ParseError, parse_state, serialize_state};
use super::{MetricsError, Observation, Status};
use crate::base::fsutil;

pub use super::state_format::STATE_VERSION;
pub use super::totals::{BUCKETS, CrdLoadKey, OpKey, OpTotals, State, new_state_id};

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
/// let obs = Observation { verb: "get".into(), resource: "pods".into(), status: Status::Success, duration_seconds: 0.12, client: "cli" };
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
    let here = dir_binding(home);
    if is_copy(&state, here.as_deref()) {
        // Its totals and its group are the original's: it starts as a new state directory,
        // so neither overwrites the other's group nor counts the other's totals twice.
        state = State::default();
    }
    change(&mut state);
    if state.state_id.is_none() {
        state.state_id = Some(new_state_id());
    }
    state.state_dir = here;
    write_state(home, &state)?;
    Ok(state)
    // `_lock` is dropped here, after the rename: the lock is released when the file closes.
}

/// The directory `home` is, as `<device>:<inode>` (`None` when it cannot be examined): what a
/// [`State::state_id`] is bound to. A copy (`cp -a`, a restored backup) is another inode and
/// so another directory; a rename within one file system keeps it.
pub fn dir_binding(home: &Path) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    fs::metadata(home)
        .ok()
        .map(|m| format!("{}:{}", m.dev(), m.ino()))
}

/// Whether `state`, read in the directory bound as `here`, was written in another one: its
/// id and totals were copied with it (pure). A file that names no directory (older files)
/// is not a copy: it is bound where it is found.
pub fn is_copy(state: &State, here: Option<&str>) -> bool {
    matches!((state.state_dir.as_deref(), here), (Some(was), Some(now)) if was != now)
}

/// The state with a [`State::state_id`]: as [`load`] when the file has one, else written
/// once with a new id (creating `home` as [`record`] does). For `metrics push` and
/// `metrics delete`, which need the group's id without recording anything.
///
/// # Errors
/// As [`load`] and [`record`].
pub fn load_with_id(home: &Path) -> Result<State, MetricsError> {
    let state = load(home)?;
    if state.state_id.is_some() && !is_copy(&state, dir_binding(home).as_deref()) {
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
    if state.pushed_group.as_deref() == group
        && state.state_id.is_some()
        && !is_copy(&state, dir_binding(home).as_deref())
    {
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
        // A copy's id and group are the original's: it is reset as a directory never written.
        Ok(old) if old.state_id.is_some() && !is_copy(&old, dir_binding(home).as_deref()) => {
            State {
                state_id: old.state_id,
                pushed_group: old.pushed_group,
                state_dir: old.state_dir,
                ..State::default()
            }
        }
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
