//! Crash-safe file helpers shared by the files under MYOPS_HOME (the CRD registry, the metrics
//! totals, the change log's lock), so every one of them gets the same guarantees from one
//! piece of code; and [`read_regular`] (in `read`, re-exported here), the one way this tool
//! reads a file a user (or anyone else) can point it at, so a FIFO, a device, a dangling link
//! or a huge file is a clear error instead of a hang or an out-of-memory kill.
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

mod read;
#[cfg(test)]
mod tests;

pub use read::{FileKind, ReadError, Unreadable, read_named, read_regular, read_regular_with_mode};

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

/// Opens `lock_path` like [`lock_exclusive`] but never waits: `Ok(None)` when someone else
/// holds the lock (a process that only needs the work done once, by whoever holds it, leaves
/// at once instead of queueing). The lock is released when the returned file is dropped.
///
/// # Errors
/// The I/O error of creating the directory, opening or locking (other than "held").
pub fn try_lock_exclusive(lock_path: &Path) -> io::Result<Option<File>> {
    let f = open_lock(lock_path)?;
    match f.try_lock() {
        Ok(()) => Ok(Some(f)),
        Err(fs::TryLockError::WouldBlock) => Ok(None),
        Err(fs::TryLockError::Error(e)) => Err(e),
    }
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
/// The I/O error of any step; the old content stays intact when one fails, and a temp file
/// a failed write or rename left is removed.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let staged = stage_atomic(path, bytes)?;
    if let Err(e) = staged.sync() {
        staged.abandon();
        return Err(e);
    }
    staged.commit()
}

/// [`write_atomic`] in two halves, for a writer whose other fsync can run beside this one's:
/// the temporary file written (not yet synced) and kept open. [`Staged::sync`] syncs it,
/// [`Staged::commit`] renames it over the target and syncs the directory; until the commit
/// the target is untouched. The change log uses it to sync its new line and the temporary
/// `changelog.head` at once (two devices' worth of waiting become one), renaming only when
/// both are on disk.
///
/// # Errors
/// The I/O error of creating the directory or of writing the temporary file (which is then
/// removed).
pub fn stage_atomic(path: &Path, bytes: &[u8]) -> io::Result<Staged> {
    let dir = path.parent().unwrap_or(Path::new("."));
    ensure_private_dir(dir)?;
    let tmp = temp_path(path);
    let written = open_private(&tmp, true).and_then(|mut f| {
        f.write_all(bytes)?;
        Ok(f)
    });
    match written {
        Ok(file) => Ok(Staged {
            file,
            tmp,
            path: path.to_path_buf(),
        }),
        Err(e) => {
            // A full disk fails the write part-way: the partial temp file would keep holding
            // the space the next write needs.
            let _ = fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// A replacement of a file written to its temporary file and not yet renamed over it
/// ([`stage_atomic`]). Dropped without [`Staged::commit`], the temporary file stays (the next
/// write of the same target reuses its name); [`Staged::abandon`] removes it.
#[derive(Debug)]
pub struct Staged {
    file: File,
    tmp: PathBuf,
    path: PathBuf,
}

impl Staged {
    /// fsyncs the temporary file.
    ///
    /// # Errors
    /// The I/O error of the sync.
    pub fn sync(&self) -> io::Result<()> {
        self.file.sync_all()
    }

    /// Renames the temporary file over the target, then fsyncs the directory (the rename is
    /// durable only once the directory entry is on disk). Call it after [`Staged::sync`]
    /// succeeded: a rename of unsynced data could leave an empty file after a crash.
    ///
    /// # Errors
    /// The I/O error of the rename (the temporary file is then removed) or of the directory
    /// sync.
    pub fn commit(self) -> io::Result<()> {
        drop(self.file);
        if let Err(e) = fs::rename(&self.tmp, &self.path) {
            let _ = fs::remove_file(&self.tmp);
            return Err(e);
        }
        #[cfg(unix)]
        File::open(self.path.parent().unwrap_or(Path::new(".")))?.sync_all()?;
        Ok(())
    }

    /// Removes the temporary file: the replacement is given up, the target untouched.
    pub fn abandon(self) {
        let _ = fs::remove_file(&self.tmp);
    }
}

/// The bytes an unprivileged process may still write on the file system holding `dir`
/// (`statvfs(3)`: `f_bavail × f_frsize`); `None` when the file system reports no size at
/// all (`f_blocks` 0: procfs-like and some FUSE file systems, whose 0 free bytes mean
/// "not counted", not "full").
///
/// # Errors
/// The I/O error of `statvfs` (the directory does not exist, …).
pub fn free_bytes(dir: &Path) -> io::Result<Option<u64>> {
    let st = rustix::fs::statvfs(dir)?;
    Ok((st.f_blocks > 0).then(|| st.f_bavail.saturating_mul(st.f_frsize)))
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
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Never through a link (a planted `x.lock -> /elsewhere` would create or truncate a
        // file outside MYOPS_HOME), never blocking on a FIFO.
        options
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(|e| {
        if e.raw_os_error() == Some(libc::ELOOP) {
            io::Error::other(format!(
                "{} is a symbolic link, and lock and state files are never followed through links; remove it",
                path.display()
            ))
        } else {
            e
        }
    })?;
    if !file.metadata()?.is_file() {
        return Err(io::Error::other(format!(
            "{} is not a regular file; remove it",
            path.display()
        )));
    }
    Ok(file)
}
