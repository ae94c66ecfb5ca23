//! Crash-safe file helpers shared by the state files under MYOPS_HOME.
//!
//! Writes go to a temporary file in the same directory, are fsynced, renamed over the
//! target and the directory is fsynced, so a reader sees the old or the new content,
//! never a torn file (POSIX rename(2) atomicity). Read-modify-write cycles hold an
//! exclusive `flock`-style lock on a sibling `.lock` file (std `File::lock`, Rust 1.89).

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::Path;

/// Creates `dir` (and parents) with mode 0700 if missing: the directory holds private state.
///
/// # Errors
/// The I/O error of creating it.
pub fn ensure_private_dir(dir: &Path) -> std::io::Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    fs::create_dir_all(dir)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(dir, fs::Permissions::from_mode(0o700))?;
    }
    Ok(())
}

/// Opens (creating) `lock_path` and takes an exclusive lock on it; the lock is released
/// when the returned file is dropped.
///
/// # Errors
/// The I/O error of opening or locking.
pub fn lock_exclusive(lock_path: &Path) -> std::io::Result<File> {
    if let Some(parent) = lock_path.parent() {
        ensure_private_dir(parent)?;
    }
    let f = OpenOptions::new().create(true).truncate(false).read(true).write(true).open(lock_path)?;
    f.lock()?;
    Ok(f)
}

/// Replaces `path` with `bytes` atomically (temp file + fsync + rename + directory fsync).
///
/// # Errors
/// The I/O error of any step; the old content stays intact when one fails.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    ensure_private_dir(dir)?;
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("state");
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    {
        let mut f = File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
    }
    if let Err(e) = fs::rename(&tmp, path) {
        let _ = fs::remove_file(&tmp);
        return Err(e);
    }
    File::open(dir)?.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_atomic_replaces_content_and_leaves_no_temp_file() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("sub").join("state.json");
        write_atomic(&p, b"one").unwrap();
        write_atomic(&p, b"two").unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), "two");
        let names: Vec<String> = fs::read_dir(p.parent().unwrap()).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        assert_eq!(names, vec!["state.json".to_string()]);
    }
}
