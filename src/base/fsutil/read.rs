//! [`read_regular`]: reading a file a user (or anyone else) can point this tool at, so that a
//! FIFO, a device, a dangling link or a huge file is a clear error instead of a hang or an
//! out-of-memory kill; [`read_named`]: the same for a file the user named on the command line
//! (a flag or its environment variable), which may also be a FIFO such as bash's `<(…)`.

use std::fs::{self, OpenOptions};
use std::io::{self, Read};
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
    /// A FIFO the user named that nothing wrote to and closed within the deadline
    /// ([`read_named`]).
    #[error(
        "it is a FIFO (named pipe) and nothing wrote to it and closed it within {deadline:?}; start the program that writes it, or save its output to a file and give that"
    )]
    FifoTimedOut {
        /// How long the read waited.
        deadline: std::time::Duration,
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
            Unreadable::FifoTimedOut { .. } => io::ErrorKind::TimedOut,
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
///    writer appears (fifo(7)), possibly forever;
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

/// Reads a file the user named on the command line (a flag such as `--config`,
/// `--kubeconfig`, `--kuberc`, `--patch-file`, `-f`, or the environment variable standing for
/// it): a regular file as [`read_regular_with_mode`], and also a FIFO — bash's process
/// substitution `--config <(…)` hands over `/dev/fd/63`, a pipe — read once, to its end, at
/// most `cap` bytes, within `deadline` (the command's, [`crate::base::deadline::of`]: a writer
/// that never comes, never writes or never closes is an error, not a hang; kubectl waits
/// forever). kubectl reads such files (client-go `clientcmd` reads `--kubeconfig`
/// with `os.ReadFile`). Directory scans and files this tool finds on its own keep
/// [`read_regular`], which never opens a FIFO: nobody asked for that one.
///
/// A FIFO is opened and read on a thread of its own (opening a FIFO for reading blocks until a
/// writer opens it, fifo(7)); after the deadline that thread is left blocked and the process
/// ends without it. The mode returned is the FIFO's (an anonymous pipe's is 0600). A FIFO gives
/// its text once: what was read is kept for the process and handed to every later read of
/// the same path (the contexts of a fan-out each read `--patch-file` and `-f`; read again, the
/// pipe would be empty).
///
/// # Errors
/// As [`read_regular_with_mode`], and [`Unreadable::FifoTimedOut`].
pub fn read_named(
    path: &Path,
    cap: u64,
    deadline: std::time::Duration,
) -> Result<(Vec<u8>, u32), ReadError> {
    let fail = |problem: Unreadable| ReadError {
        path: path.to_path_buf(),
        problem,
    };
    let meta = fs::metadata(path).map_err(|e| fail(stat_problem(path, e)))?;
    if FileKind::of(&meta) != Some(FileKind::Fifo) {
        return read_regular_with_mode(path, cap);
    }
    type Kept = Vec<(std::path::PathBuf, (Vec<u8>, u32))>;
    static READ: std::sync::Mutex<Kept> = std::sync::Mutex::new(Vec::new());
    // Held while the first reader waits, so concurrent readers of one FIFO share that read.
    let mut kept = READ
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, read)) = kept.iter().find(|(p, _)| p == path) {
        return Ok(read.clone());
    }
    let (tx, rx) = std::sync::mpsc::channel();
    let owned = path.to_path_buf();
    std::thread::spawn(move || {
        let _ = tx.send(read_fifo(&owned, cap));
    });
    match rx.recv_timeout(deadline) {
        Ok(Ok(read)) => {
            kept.push((path.to_path_buf(), read.clone()));
            Ok(read)
        }
        Ok(Err(problem)) => Err(fail(problem)),
        Err(_) => Err(fail(Unreadable::FifoTimedOut { deadline })),
    }
}

/// Opens `path` (blocking until a writer comes) and reads it to its end, at most `cap` bytes;
/// refuses a handle that is neither a FIFO nor a regular file (the path was swapped).
fn read_fifo(path: &Path, cap: u64) -> Result<(Vec<u8>, u32), Unreadable> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NOCTTY);
    let file = options.open(path).map_err(|e| stat_problem(path, e))?;
    let meta = file.metadata().map_err(Unreadable::Io)?;
    match FileKind::of(&meta) {
        None | Some(FileKind::Fifo) => {}
        Some(kind) => return Err(Unreadable::NotRegular(kind)),
    }
    let mut bytes = Vec::new();
    file.take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io_problem)?;
    if bytes.len() as u64 > cap {
        return Err(Unreadable::TooLarge {
            size: bytes.len() as u64,
            cap,
        });
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
