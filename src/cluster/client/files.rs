//! The files a connection reads, checked before kube-rs reads them: each must be a regular
//! file (a FIFO would block the client forever) of a bounded size.

use super::error::ClusterError;

/// Refuses a kubeconfig that is not a regular file after resolving links (a FIFO would
/// block the read forever) or is larger than 16 MiB (no real kubeconfig comes close).
pub(super) fn check_kubeconfig_file(path: &std::path::Path) -> Result<(), ClusterError> {
    match file_problem(path, MAX_KUBECONFIG) {
        Some(message) => Err(ClusterError::KubeconfigFile {
            path: path.display().to_string(),
            message,
        }),
        None => Ok(()),
    }
}

/// The largest kubeconfig read (bytes, 16 MiB): no real kubeconfig comes close.
pub(super) const MAX_KUBECONFIG: u64 = 16 * 1024 * 1024;

/// The largest certificate or key file read (bytes): a CA bundle of every public CA is
/// about 200 KiB.
pub(super) const MAX_TLS_FILE: u64 = 1024 * 1024;

/// [`ClusterError::TlsFile`] when `path` is not a regular file of at most [`MAX_TLS_FILE`] bytes.
pub(super) fn check_tls_file(path: &std::path::Path) -> Result<(), ClusterError> {
    match file_problem(path, MAX_TLS_FILE) {
        Some(message) => Err(ClusterError::TlsFile {
            path: path.display().to_string(),
            message,
        }),
        None => Ok(()),
    }
}

/// Why `path` cannot be read as a regular file (after resolving links) of at most `max`
/// bytes, or `None` when it can.
fn file_problem(path: &std::path::Path, max: u64) -> Option<String> {
    match std::fs::metadata(path) {
        Err(e) => Some(e.to_string()),
        Ok(m) if !m.is_file() => Some("not a regular file".to_string()),
        Ok(m) if m.len() > max => Some(format!("{} bytes, over the {max}-byte limit", m.len())),
        Ok(_) => None,
    }
}

/// The kubeconfig user's `tokenFile`, whitespace-trimmed as client-go does
/// (`transport/token_source.go`): a regular file of at most 64 KiB.
///
/// # Errors
/// [`ClusterError::KubeconfigFile`] naming the token file (never its content) when it is
/// missing, not a regular file, too large or not UTF-8.
pub(super) fn read_token_file(path: &str) -> Result<String, ClusterError> {
    const MAX: u64 = 64 * 1024;
    let err = |message: String| ClusterError::KubeconfigFile {
        path: format!("tokenFile {path}"),
        message,
    };
    let meta = std::fs::metadata(path).map_err(|e| err(e.to_string()))?;
    if !meta.is_file() {
        return Err(err("not a regular file".into()));
    }
    if meta.len() > MAX {
        return Err(err(format!(
            "{} bytes, over the {MAX}-byte limit",
            meta.len()
        )));
    }
    let bytes = std::fs::read(path).map_err(|e| err(e.to_string()))?;
    let text = String::from_utf8(bytes).map_err(|_| err("not UTF-8 text".into()))?;
    Ok(text.trim().to_string())
}
