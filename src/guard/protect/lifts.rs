//! The stored lifts of protection (`protect lift`): `MYOPS_HOME/protect/lifts.json`, mode
//! 0600, written atomically under `MYOPS_HOME/protect/lifts.lock` (docs/protection.md).
//!
//! The file is trusted only as far as it can be: one that belongs to another user, that others
//! may write (group or world writable) or that does not parse is ignored with a warning — protection then holds, it
//! is never lifted by a file someone else could have written — and each lift is judged
//! against today's rules and clock ([`crate::rules::protect::Lift::in_force`]).

use std::path::{Path, PathBuf};

use crate::base::fsutil;
use crate::rules::protect::Lift;

/// Largest lifts file read: 1 MiB (a few hundred lifts; more is a mistake or an attack).
const CAP: u64 = 1024 * 1024;

/// The lifts file under `home` (`MYOPS_HOME`).
pub fn path(home: &Path) -> PathBuf {
    home.join("protect").join("lifts.json")
}

/// The lock file serialising writers of [`path`].
pub fn lock_path(home: &Path) -> PathBuf {
    home.join("protect").join("lifts.lock")
}

/// The stored lifts and the warnings about a file that is not trusted (each one sentence
/// naming the file and what to do). A missing file is no lifts and no warning.
pub fn load(home: &Path) -> (Vec<Lift>, Vec<String>) {
    let file = path(home);
    let (bytes, mode) = match fsutil::read_regular_with_mode(&file, CAP) {
        Ok(read) => read,
        Err(e) if matches!(e.problem, fsutil::Unreadable::Missing) => {
            return (Vec::new(), Vec::new());
        }
        Err(e) => {
            return (
                Vec::new(),
                vec![format!("warning: {e}; no lift is in force")],
            );
        }
    };
    // Another user's file (or a link to one) is not this user's lift.
    let owner = std::fs::metadata(&file)
        .map(|m| std::os::unix::fs::MetadataExt::uid(&m))
        .unwrap_or(u32::MAX);
    if owner != rustix::process::geteuid().as_raw() {
        return (
            Vec::new(),
            vec![format!(
                "warning: {} belongs to another user (uid {owner}), so its lifts are ignored; remove it and lift again",
                file.display()
            )],
        );
    }
    if mode & 0o022 != 0 {
        return (
            Vec::new(),
            vec![format!(
                "warning: {} can be written by others (mode {:o}), so its lifts are ignored; remove it and lift again",
                file.display(),
                mode & 0o777
            )],
        );
    }
    match serde_json::from_slice::<Vec<Lift>>(&bytes) {
        Ok(lifts) => (lifts, Vec::new()),
        Err(e) => (
            Vec::new(),
            vec![format!(
                "warning: {} is not a list of lifts ({e}), so it is ignored; remove it and lift again",
                file.display()
            )],
        ),
    }
}

/// Replaces the stored lifts with `lifts` (atomically, mode 0600). The caller holds
/// [`fsutil::lock_exclusive`] on [`lock_path`] across its read and this write.
///
/// # Errors
/// The I/O error of the write.
pub fn save(home: &Path, lifts: &[Lift]) -> std::io::Result<()> {
    let bytes = serde_json::to_vec_pretty(lifts).map_err(std::io::Error::other)?;
    fsutil::write_atomic(&path(home), &bytes)
}
