//! Crash-safe file helpers shared by the files under MYOPS_HOME (the CRD registry, the metrics
//! totals, the change log's lock), so every one of them gets the same guarantees from one
//! piece of code; and [`read_regular`], the one way this tool reads a file a user (or anyone
//! else) can point it at, so a FIFO, a device, a dangling link or a huge file is a clear
//! error instead of a hang or an out-of-memory kill (issue 10, class 3).
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
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// What a path turned out to be when a regular file was expected (from `stat(2)`'s
/// `st_mode` file type, after resolving symbolic links).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// A directory.
    Directory,
    /// A FIFO (named pipe): reading it blocks until a writer appears, possibly forever.
    Fifo,
    /// A Unix domain socket: it cannot be opened as a file at all.
    Socket,
    /// A character device (a terminal, `/dev/zero`, `/dev/random`: endless or blocking).
    CharDevice,
    /// A block device (a disk: its size is a whole disk).
    BlockDevice,
    /// Anything else the platform reports.
    Other,
}

impl FileKind {
    /// The kind of `meta` (which must describe the file itself, not a link), or `None` for
    /// a regular file.
    pub fn of(meta: &fs::Metadata) -> Option<FileKind> {
        let t = meta.file_type();
        if t.is_file() {
            return None;
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            if t.is_fifo() {
                return Some(FileKind::Fifo);
            }
            if t.is_socket() {
                return Some(FileKind::Socket);
            }
            if t.is_char_device() {
                return Some(FileKind::CharDevice);
            }
            if t.is_block_device() {
                return Some(FileKind::BlockDevice);
            }
        }
        Some(if t.is_dir() {
            FileKind::Directory
        } else {
            FileKind::Other
        })
    }
}

impl std::fmt::Display for FileKind {
    /// The kind with its article, for "it is a FIFO (named pipe)".
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            FileKind::Directory => "a directory",
            FileKind::Fifo => "a FIFO (named pipe)",
            FileKind::Socket => "a socket",
            FileKind::CharDevice => "a character device",
            FileKind::BlockDevice => "a block device",
            FileKind::Other => "not a file",
        })
    }
}

/// Why [`read_regular`] refused or failed to read a file; each says what to do.
#[derive(Debug, thiserror::Error)]
pub enum Unreadable {
    /// Nothing at the path (and it is not a symbolic link).
    #[error("it does not exist; create it or fix the path")]
    Missing,
    /// A symbolic link whose target does not exist.
    #[error("it is a dangling symbolic link to {}; fix the link or remove it", target.display())]
    DanglingSymlink {
        /// What the link points to (as written in the link).
        target: PathBuf,
    },
    /// A symbolic link that (eventually) points to itself (`ELOOP`).
    #[error("it is a symbolic link loop; fix the link or remove it")]
    SymlinkLoop,
    /// Not a regular file after resolving links: a directory, FIFO, socket or device.
    #[error("it is {0}, not a regular file; replace it with a regular file")]
    NotRegular(FileKind),
    /// Larger than the caller's cap.
    #[error(
        "it is too large: {size} bytes, over the {cap}-byte limit; a file this size is not what this tool reads, check that the path is the right file"
    )]
    TooLarge {
        /// The size seen (`st_size`, or the bytes read when the file grew while being read).
        size: u64,
        /// The cap, in bytes.
        cap: u64,
    },
    /// The user may not read it (`EACCES`/`EPERM`).
    #[error("permission denied; make it readable by you (chmod u+r) or point to another file")]
    PermissionDenied,
    /// Any other I/O error of stat, open or read.
    #[error("{0}")]
    Io(io::Error),
}

impl Unreadable {
    /// The nearest [`io::ErrorKind`], for callers whose errors carry an `io::Error`.
    pub fn kind(&self) -> io::ErrorKind {
        match self {
            Unreadable::Missing | Unreadable::DanglingSymlink { .. } => io::ErrorKind::NotFound,
            Unreadable::PermissionDenied => io::ErrorKind::PermissionDenied,
            Unreadable::TooLarge { .. } => io::ErrorKind::FileTooLarge,
            Unreadable::NotRegular(FileKind::Directory) => io::ErrorKind::IsADirectory,
            Unreadable::SymlinkLoop | Unreadable::NotRegular(_) => io::ErrorKind::InvalidInput,
            Unreadable::Io(e) => e.kind(),
        }
    }
}

/// [`read_regular`] could not give the bytes of `path`: `cannot read <path>: <problem>`.
#[derive(Debug, thiserror::Error)]
#[error("cannot read {}: {problem}", path.display())]
pub struct ReadError {
    /// The path as given.
    pub path: PathBuf,
    /// What is wrong and what to do.
    pub problem: Unreadable,
}

impl From<ReadError> for io::Error {
    /// An `io::Error` of the nearest kind whose message is the problem alone (the caller's
    /// message usually names the path already).
    fn from(e: ReadError) -> io::Error {
        io::Error::new(e.problem.kind(), e.problem.to_string())
    }
}

/// Reads `path` only if it is a regular file after resolving symbolic links and holds at
/// most `cap` bytes; see [`read_regular_with_mode`], which also gives its mode.
///
/// # Errors
/// As [`read_regular_with_mode`].
pub fn read_regular(path: &Path, cap: u64) -> Result<Vec<u8>, ReadError> {
    read_regular_with_mode(path, cap).map(|(bytes, _)| bytes)
}

/// Reads `path` only if it is a regular file after resolving symbolic links and holds at
/// most `cap` bytes (the cap is in bytes), and returns its bytes with its permission bits
/// (`st_mode & 0o7777` of the file read; 0 off Unix). It never blocks on a FIFO, socket or
/// device and never reads more than `cap + 1` bytes:
///
/// 1. `stat` (following links) refuses anything that is not a regular file before opening
///    it: opening a device can have side effects, opening a FIFO for reading blocks until a
///    writer appears (fifo(7)) — the hang of issue 10, class 3;
/// 2. the file is opened with `O_NONBLOCK | O_NOCTTY` (open(2): a FIFO opened so returns at
///    once; a terminal never becomes the controlling terminal) and the *opened handle* is
///    checked again with `fstat`, so a path swapped between the two steps is still refused;
/// 3. at most `cap + 1` bytes are read, so a file that grows meanwhile (or lies about its
///    size, as `/proc` files do) is still refused once it passes the cap.
///
/// Why a cap at all: every file read this way is small by nature (plugin.yaml, a CRD, a
/// password); a multi-gigabyte or endless file is a mistake or an attack, and reading it
/// whole would exhaust memory instead of saying so. The callers choose the cap.
///
/// # Errors
/// [`ReadError`] naming `path` and the [`Unreadable`] reason: missing, a dangling symbolic
/// link (with its target), a link loop, not a regular file (which kind), over the cap (with
/// both sizes), permission denied, or another I/O error.
pub fn read_regular_with_mode(path: &Path, cap: u64) -> Result<(Vec<u8>, u32), ReadError> {
    let fail = |problem: Unreadable| ReadError {
        path: path.to_path_buf(),
        problem,
    };
    let meta = fs::metadata(path).map_err(|e| fail(stat_problem(path, e)))?;
    if let Some(kind) = FileKind::of(&meta) {
        return Err(fail(Unreadable::NotRegular(kind)));
    }
    if meta.len() > cap {
        return Err(fail(Unreadable::TooLarge {
            size: meta.len(),
            cap,
        }));
    }
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(
        &mut options,
        libc::O_NONBLOCK | libc::O_NOCTTY,
    );
    let file = options
        .open(path)
        .map_err(|e| fail(stat_problem(path, e)))?;
    let meta = file.metadata().map_err(|e| fail(Unreadable::Io(e)))?;
    if let Some(kind) = FileKind::of(&meta) {
        return Err(fail(Unreadable::NotRegular(kind)));
    }
    let mut bytes = Vec::new();
    file.take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| fail(io_problem(e)))?;
    if bytes.len() as u64 > cap {
        return Err(fail(Unreadable::TooLarge {
            size: meta.len().max(bytes.len() as u64),
            cap,
        }));
    }
    Ok((bytes, mode_bits(&meta)))
}

/// The permission bits of `meta` (`st_mode & 0o7777`; 0 where there are none).
fn mode_bits(meta: &fs::Metadata) -> u32 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.permissions().mode() & 0o7777
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        0
    }
}

/// Explains a failed `stat`/`open` of `path`: a missing file, a dangling link (the link
/// itself exists), a link loop (`ELOOP`), a socket (`ENXIO` from open), a denied read.
fn stat_problem(path: &Path, e: io::Error) -> Unreadable {
    #[cfg(unix)]
    if e.raw_os_error() == Some(libc::ELOOP) {
        return Unreadable::SymlinkLoop;
    }
    #[cfg(unix)]
    if e.raw_os_error() == Some(libc::ENXIO) {
        return Unreadable::NotRegular(FileKind::Socket);
    }
    if e.kind() == io::ErrorKind::NotFound {
        return match fs::read_link(path) {
            Ok(target) => Unreadable::DanglingSymlink { target },
            Err(_) => Unreadable::Missing,
        };
    }
    io_problem(e)
}

/// Explains a failed read.
fn io_problem(e: io::Error) -> Unreadable {
    match e.kind() {
        io::ErrorKind::PermissionDenied => Unreadable::PermissionDenied,
        io::ErrorKind::IsADirectory => Unreadable::NotRegular(FileKind::Directory),
        _ => Unreadable::Io(e),
    }
}

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
/// The I/O error of any step; the old content stays intact when one fails, and a temp file
/// a failed write or rename left is removed.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    ensure_private_dir(dir)?;
    let tmp = temp_path(path);
    let written = open_private(&tmp, true).and_then(|mut f| {
        f.write_all(bytes)?;
        f.sync_all()
    });
    if let Err(e) = written {
        // A full disk fails the write part-way: the partial temp file would keep holding the
        // space the next write needs (issue 17, disk full).
        let _ = fs::remove_file(&tmp);
        return Err(e);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_bytes_is_counted_where_the_file_system_has_a_size() {
        let d = tempfile::tempdir().unwrap();
        assert!(free_bytes(d.path()).unwrap().is_some_and(|b| b > 0));
        // procfs reports no blocks: "not counted", never "full".
        assert_eq!(free_bytes(Path::new("/proc")).unwrap(), None);
        assert!(free_bytes(&d.path().join("missing")).is_err());
    }

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

    /// A FIFO at `p` (mkfifo(1): the crate forbids the `unsafe` libc call).
    fn mkfifo(p: &Path) {
        let ok = std::process::Command::new("mkfifo")
            .arg(p)
            .status()
            .unwrap();
        assert!(ok.success());
    }

    fn problem(p: &Path, cap: u64) -> String {
        let e = read_regular(p, cap).unwrap_err();
        let shown = e.to_string();
        assert!(
            shown.starts_with(&format!("cannot read {}: ", p.display())),
            "{shown}"
        );
        assert!(!shown.contains('\n'), "{shown}");
        e.problem.to_string()
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_at_once_instead_of_blocking_until_a_writer_comes() {
        let d = tempfile::tempdir().unwrap();
        let fifo = d.path().join("crd.yaml");
        mkfifo(&fifo);
        let link = d.path().join("link.yaml");
        std::os::unix::fs::symlink(&fifo, &link).unwrap();
        let start = std::time::Instant::now();
        for p in [&fifo, &link] {
            assert_eq!(
                problem(p, 10),
                "it is a FIFO (named pipe), not a regular file; replace it with a regular file"
            );
            let e = read_regular(p, 10).unwrap_err();
            assert!(matches!(e.problem, Unreadable::NotRegular(FileKind::Fifo)));
        }
        assert!(start.elapsed() < std::time::Duration::from_secs(1));
    }

    #[cfg(unix)]
    #[test]
    fn sockets_devices_and_directories_are_named_not_read() {
        let d = tempfile::tempdir().unwrap();
        let sock = d.path().join("s.yaml");
        let _listener = std::os::unix::net::UnixListener::bind(&sock).unwrap();
        assert!(problem(&sock, 10).starts_with("it is a socket, not a regular file"));
        assert!(problem(Path::new("/dev/zero"), 10).starts_with("it is a character device"));
        assert!(problem(Path::new("/dev/null"), 10).starts_with("it is a character device"));
        assert!(problem(d.path(), 10).starts_with("it is a directory, not a regular file"));
        let e: io::Error = read_regular(d.path(), 10).unwrap_err().into();
        assert_eq!(e.kind(), io::ErrorKind::IsADirectory);
    }

    #[cfg(unix)]
    #[test]
    fn dangling_links_loops_and_missing_files_say_which() {
        let d = tempfile::tempdir().unwrap();
        let dangling = d.path().join("dangling.yaml");
        std::os::unix::fs::symlink("nowhere.yaml", &dangling).unwrap();
        assert_eq!(
            problem(&dangling, 10),
            "it is a dangling symbolic link to nowhere.yaml; fix the link or remove it"
        );
        let (a, b) = (d.path().join("a.yaml"), d.path().join("b.yaml"));
        std::os::unix::fs::symlink(&b, &a).unwrap();
        std::os::unix::fs::symlink(&a, &b).unwrap();
        assert_eq!(
            problem(&a, 10),
            "it is a symbolic link loop; fix the link or remove it"
        );
        assert_eq!(
            problem(&d.path().join("missing"), 10),
            "it does not exist; create it or fix the path"
        );
        let e: io::Error = read_regular(&dangling, 10).unwrap_err().into();
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
    }

    #[test]
    fn the_cap_is_inclusive_and_an_oversize_file_names_both_sizes() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("f");
        fs::write(&p, b"0123456789").unwrap();
        assert_eq!(read_regular(&p, 10).unwrap(), b"0123456789");
        assert_eq!(
            problem(&p, 9),
            "it is too large: 10 bytes, over the 9-byte limit; a file this size is not what this tool reads, check that the path is the right file"
        );
        // A sparse file of 1 GiB is refused from its size, without reading it.
        let big = d.path().join("big");
        File::create(&big).unwrap().set_len(1 << 30).unwrap();
        let start = std::time::Instant::now();
        assert!(
            problem(&big, 1 << 20)
                .starts_with("it is too large: 1073741824 bytes, over the 1048576-byte limit")
        );
        assert!(start.elapsed() < std::time::Duration::from_secs(1));
    }

    #[cfg(unix)]
    #[test]
    fn the_mode_is_the_mode_of_the_file_read_through_a_link() {
        use std::os::unix::fs::PermissionsExt;
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("plugin.yaml");
        fs::write(&p, b"x").unwrap();
        fs::set_permissions(&p, fs::Permissions::from_mode(0o664)).unwrap();
        let link = d.path().join("link");
        std::os::unix::fs::symlink(&p, &link).unwrap();
        assert_eq!(
            read_regular_with_mode(&link, 1).unwrap(),
            (b"x".to_vec(), 0o664)
        );
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
