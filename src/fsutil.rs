//! Crash-safe file helpers shared by the files under MYOPS_HOME (the CRD registry, the metrics
//! totals, the change log's lock), so every one of them gets the same guarantees from one
//! piece of code.
//!
//! Writes go to a temporary file in the same directory, are fsynced, renamed over the
//! target and the directory is fsynced, so a reader sees the old or the new content,
//! never a torn file (POSIX rename(2) atomicity). Read-modify-write cycles hold an
//! exclusive `flock`-style lock on a sibling `.lock` file, readers that want a consistent
//! view a shared one (std `File::lock` / `File::lock_shared`, Rust 1.89). Because writers are
//! serialised by that lock, the temporary file has one fixed name per target: a crash leaves
//! at most one stale temporary, which the next write reuses, instead of one per process.
//!
//! Everything is private to the user (on Unix): directories are created with mode 0700, the
//! written files and the lock files with mode 0600. The state says which cluster objects and
//! operations a user has touched, which is nobody else's business.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Creates `dir` and any missing parents with mode 0700 if `dir` is not a directory yet;
/// `dir` itself is then set to exactly 0700, whatever the umask. An existing directory is
/// left as it is. The directory holds private state.
///
/// # Errors
/// The I/O error of creating it or setting its mode.
pub fn ensure_private_dir(dir: &Path) -> io::Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(dir, fs::Permissions::from_mode(0o700))?;
    }
    Ok(())
}

/// Opens (creating, mode 0600, with its directory as [`ensure_private_dir`]) `lock_path` and
/// takes an exclusive lock on it, waiting while anyone else holds it; the lock is released
/// when the returned file is dropped. For read-modify-write cycles and writers.
///
/// # Errors
/// The I/O error of creating the directory, opening or locking.
pub fn lock_exclusive(lock_path: &Path) -> io::Result<File> {
    let f = open_lock(lock_path)?;
    f.lock()?;
    Ok(f)
}

/// Opens `lock_path` like [`lock_exclusive`] but takes a shared lock: any number of shared
/// holders at once, waiting only while an exclusive holder writes. For readers that must not
/// see a read-modify-write cycle half-way; the lock is released when the file is dropped.
///
/// # Errors
/// The I/O error of creating the directory, opening or locking.
pub fn lock_shared(lock_path: &Path) -> io::Result<File> {
    let f = open_lock(lock_path)?;
    f.lock_shared()?;
    Ok(f)
}

/// Replaces `path` with `bytes` atomically (temp file + fsync + rename + directory fsync on
/// Unix, where a directory can be opened and synced). The file is created with mode 0600 and
/// its directory as [`ensure_private_dir`].
///
/// The temporary file is `.<file name>.tmp` beside `path`, one fixed name, so writers of one
/// `path` must be serialised: hold [`lock_exclusive`] on its lock file while writing.
///
/// # Errors
/// The I/O error of any step; the old content stays intact when one fails.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    ensure_private_dir(dir)?;
    let tmp = temp_path(path);
    {
        let mut f = open_private(&tmp, true)?;
        f.write_all(bytes)?;
        f.sync_all()?;
    }
    if let Err(e) = fs::rename(&tmp, path) {
        let _ = fs::remove_file(&tmp);
        return Err(e);
    }
    // The rename is durable only once the directory entry is on disk.
    #[cfg(unix)]
    File::open(dir)?.sync_all()?;
    Ok(())
}

/// The temporary file [`write_atomic`] writes before the rename: `.<file name>.tmp` in the
/// same directory (a rename is atomic only within one file system), hidden from `ls`.
fn temp_path(path: &Path) -> PathBuf {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("state");
    dir.join(format!(".{name}.tmp"))
}

/// Creates the lock file's directory and opens (creating) the lock file for locking.
fn open_lock(lock_path: &Path) -> io::Result<File> {
    if let Some(parent) = lock_path.parent() {
        ensure_private_dir(parent)?;
    }
    open_private(lock_path, false)
}

/// Opens `path` for reading and writing, creating it with mode 0600 (on Unix; an existing
/// file keeps its mode) and emptying it when `truncate`.
fn open_private(path: &Path, truncate: bool) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options
        .read(true)
        .write(true)
        .create(true)
        .truncate(truncate);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
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
        let names: Vec<String> = fs::read_dir(p.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert_eq!(names, vec!["state.json".to_string()]);
    }

    #[test]
    fn the_temp_file_is_hidden_beside_the_target() {
        let p = Path::new("/home/me/.myops/metrics-state.json");
        assert_eq!(
            temp_path(p),
            Path::new("/home/me/.myops/.metrics-state.json.tmp")
        );
    }

    #[test]
    fn a_stale_temp_file_is_reused_and_renamed_away() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("state.json");
        fs::write(
            temp_path(&p),
            b"left by a crash, longer than the new content",
        )
        .unwrap();
        write_atomic(&p, b"new").unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), "new");
        assert!(!temp_path(&p).exists());
    }

    #[cfg(unix)]
    #[test]
    fn files_and_directories_are_private() {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        let d = tempfile::tempdir().unwrap();
        let home = d.path().join("a").join("home");
        let p = home.join("state.json");
        write_atomic(&p, b"x").unwrap();
        let lock_path = d.path().join("b").join("state.lock");
        drop(lock_exclusive(&lock_path).unwrap());
        assert_eq!(mode(&p), 0o600);
        assert_eq!(mode(&lock_path), 0o600);
        for dir in [d.path().join("a"), home, d.path().join("b")] {
            assert_eq!(mode(&dir), 0o700, "{}", dir.display());
        }
    }

    #[test]
    fn lock_shared_permits_two_holders_and_excludes_a_writer() {
        let d = tempfile::tempdir().unwrap();
        let lock_path = d.path().join("state.lock");
        let first = lock_shared(&lock_path).unwrap();
        let second = lock_shared(&lock_path).unwrap();
        let writer = File::open(&lock_path).unwrap();
        assert!(
            writer.try_lock().is_err(),
            "no exclusive lock while shared holders remain"
        );
        drop((first, second));
        writer.try_lock().unwrap();
        assert!(
            File::open(&lock_path).unwrap().try_lock_shared().is_err(),
            "no shared lock while a writer holds it"
        );
    }
}
