//! Where the log is, and the checks of MYOPS_HOME and of the log's path made before
//! anything is opened: a home that is not a directory, a log that is not a regular file (a
//! FIFO would block the reader or writer that opened it), a home others may enter.

use std::path::{Path, PathBuf};

/// The log file under `home`.
pub fn path(home: &Path) -> PathBuf {
    home.join("changelog.jsonl")
}

/// The warning for a MYOPS_HOME that others may enter (group or world permission bits set):
/// the change log in it holds full before-states of objects. `None` when the home is private,
/// does not exist or is not a directory (that is an error of its own). Like ssh, which warns
/// about (and refuses) key files others can read.
pub fn home_warning(home: &Path) -> Option<String> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let meta = std::fs::metadata(home).ok().filter(|m| m.is_dir())?;
        let mode = meta.permissions().mode() & 0o777;
        (mode & 0o077 != 0).then(|| {
            format!(
                "warning: MYOPS_HOME {} is open to other users (mode {mode:04o}) and its change log holds full before-states of objects; run `chmod 700 {}`",
                home.display(),
                home.display()
            )
        })
    }
    #[cfg(not(unix))]
    {
        let _ = home;
        None
    }
}

/// What a non-regular file is, for messages ("a directory", "a FIFO (named pipe)", …).
pub(super) fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
    }
    if meta.is_dir() {
        "a directory"
    } else if meta.is_symlink() {
        "a symbolic link"
    } else if meta.is_file() {
        "a regular file"
    } else {
        "not a regular file"
    }
}

/// Why `home` cannot hold the change log, if it cannot (it exists but is not a directory,
/// or is a symbolic link to nothing); `None` when it is a directory or does not exist yet.
pub(super) fn home_problem(home: &Path) -> Option<String> {
    match std::fs::metadata(home) {
        Ok(m) if m.is_dir() => None,
        Ok(m) => Some(format!(
            "MYOPS_HOME {} is not a directory (it is {}); set MYOPS_HOME to a directory",
            home.display(),
            kind_of(&m)
        )),
        Err(_) => match std::fs::symlink_metadata(home) {
            Ok(m) if m.is_symlink() => Some(format!(
                "MYOPS_HOME {} is a symbolic link to {}, which does not exist; create that directory or set MYOPS_HOME to a directory",
                home.display(),
                std::fs::read_link(home)
                    .map(|t| t.display().to_string())
                    .unwrap_or_else(|_| "nothing".into())
            )),
            _ => None,
        },
    }
}

/// Why the log's path cannot be used as the log (it exists but is not a regular file after
/// following symbolic links, or is a link to nothing); `None` when it is a regular file or
/// does not exist. Checked before opening, so a FIFO is never opened (that would block).
pub(super) fn log_problem(path: &Path) -> Option<String> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() => None,
        Ok(m) => Some(format!(
            "it is {}, not a regular file; move it away and a new log is started",
            kind_of(&m)
        )),
        Err(_) => std::fs::symlink_metadata(path)
            .is_ok_and(|m| m.is_symlink())
            .then(|| "it is a symbolic link to a file that does not exist; remove the link and a new log is started".to_string()),
    }
}
