//! Reads CRD files: multi-document YAML, only `apiextensions.k8s.io/v1`
//! CustomResourceDefinitions, each checked and made ready for server-side apply
//! (docs/watcher.md).
//!
//! Server-set fields (`status`, `metadata.resourceVersion`, `uid`, `creationTimestamp`,
//! `generation`, `managedFields`) are stripped: manifests copied from a cluster carry them
//! and they conflict under server-side apply.
//!
//! Hostile directories: every `.yaml`/`.yml` entry is listed whatever it
//! is, and only a regular file (after resolving links) of at most [`MAX_FILE_BYTES`] is read,
//! through [`crate::base::fsutil::read_regular_with_mode`], which never blocks on a FIFO or device.
//! Anything else — a FIFO, a socket, a device, a directory named `x.yaml`, a dangling or
//! looping link, an unreadable or oversize file — is a [`LoadError`] for that file, reported
//! like a syntax error, and the other files still load. [`parse_crds`] is pure and total
//! (fuzzed): any text gives CRDs or a located error, never a panic, and every value it quotes
//! back is escaped and capped ([`crate::base::echo`]).
//!
//! Mounted ConfigMaps: the kubelet writes a ConfigMap volume with its AtomicWriter
//! (`pkg/volume/util/atomic_writer.go`): the data lives in a timestamped directory
//! `DIR/..2026_01_02_15_04_05.123456789/`, `DIR/..data` is a symbolic link to it, and each key
//! is a link `DIR/<key> -> ..data/<key>`. An update writes a new timestamped directory, points
//! a new link `..data_tmp` at it and renames that over `..data` (the atomic step), then adds
//! links for new keys, removes those of removed keys, and deletes the old directory. Such a
//! directory is read as one generation ([`read_consistent`]): the keys are the entries of the
//! directory `..data` names, read there, and shown under `DIR/<key>`; `..data` is read again
//! afterwards and the whole read repeated if it moved meanwhile. So an update is seen whole,
//! never half old and half new, a key's link that dangles for a moment (removed key, after the
//! rename) is not an error, and the old directory vanishing mid-read costs a re-read, not a
//! removal. Names starting with `.` (the kubelet reserves `..*`) are never CRD files.
//!
//! Files: `loader.rs` (the types and reading one file), `loader/dir.rs` (the entries of a
//! directory, ConfigMap generations, the directory's mode), `loader/parse.rs` (text to CRDs),
//! `loader/tests.rs`.

mod dir;
mod parse;

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::base::fsutil::{self, Unreadable};

pub use dir::{
    DATA_LINK, Entry, GENERATION_TRIES, check_dir_mode, crd_files, data_generation,
    read_consistent, read_only_in_mountinfo,
};
pub use parse::{parse_bytes, parse_crds};

/// Largest CRD file read, in bytes (16 MiB). One CRD object must fit in a single etcd request
/// (`--max-request-bytes`, 1.5 MiB by default), so even a bundle of many large CRDs (the
/// biggest of the public CRD corpus the tests load is 0.7 MB) stays far below; the cap keeps a wrong or
/// hostile file from being read, and parsed, whole.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Longest `metadata.name` accepted, in characters: a CRD's name is a DNS subdomain (at most
/// 253 characters; apimachinery `validation.IsDNS1123Subdomain`, checked again by the API
/// server's CRD validation). A longer one is refused here, before any request.
pub const MAX_NAME_CHARS: usize = 253;

/// One CRD document, validated and stripped, ready to apply.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadedCrd {
    /// `metadata.name` (= `<plural>.<group>`).
    pub name: String,
    /// `spec.group`.
    pub group: String,
    /// `spec.names.plural`.
    pub plural: String,
    /// `spec.names.kind`.
    pub kind: String,
    /// `spec.scope`: `Namespaced` or `Cluster`.
    pub scope: String,
    /// Served version names, in file order.
    pub versions: Vec<String>,
    /// The version with `storage: true`.
    pub storage_version: String,
    /// The file it came from.
    pub file: PathBuf,
    /// 1-based line of the document's first key.
    pub line: u64,
    /// The document to apply (JSON).
    pub body: Value,
}

/// Why a file, or one document in it, cannot be registered.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{}:{line}:{column}: {message}", file.display())]
pub struct LoadError {
    /// The file.
    pub file: PathBuf,
    /// 1-based line (1 when unknown).
    pub line: u64,
    /// 1-based column (1 when unknown).
    pub column: u64,
    /// What is wrong and what to do.
    pub message: String,
}

/// One file of a CRD directory and what loading it gave.
pub type FileLoad = (PathBuf, Result<Vec<LoadedCrd>, LoadError>);

/// Loads every CRD file of `dir`: one result per file, in name order. A file removed between
/// listing and reading is left out (it is simply gone); every other problem is its result.
///
/// # Errors
/// The I/O error of reading the directory; file problems are per-file results.
pub fn load_dir(dir: &Path) -> std::io::Result<Vec<FileLoad>> {
    read_consistent(
        dir,
        || {},
        |entries| {
            entries
                .iter()
                .filter_map(|e| match read_entry(e) {
                    Ok(None) => None,
                    Ok(Some(bytes)) => Some((e.path.clone(), parse_bytes(&bytes, &e.path))),
                    Err(err) => Some((e.path.clone(), Err(err))),
                })
                .collect()
        },
    )
}

/// [`read_file`] of `entry.read`, with an error reported under `entry.path`, the name the
/// user knows.
///
/// # Errors
/// As [`read_file`].
pub fn read_entry(entry: &Entry) -> Result<Option<Vec<u8>>, LoadError> {
    read_file(&entry.read).map_err(|mut e| {
        e.file = entry.path.clone();
        e
    })
}

/// Reads one CRD file's bytes: only a regular file (after resolving links) of at most
/// [`MAX_FILE_BYTES`], and not world-writable (mode `o+w`: whoever can write it can register
/// cluster-wide API types as the user running this tool; the directory check is stricter,
/// group or world, and files are held to world-writable only so a group-shared umask of 002
/// does not refuse every file a team writes). The mode is that of the file actually read.
/// `Ok(None)` when nothing is there any more (removed after it was listed; a dangling link is
/// an error, not "gone").
///
/// # Errors
/// [`LoadError`] at 1:1 saying what the entry is (a FIFO, a directory, a dangling link, too
/// large…) or the mode and the `chmod` that fixes it.
pub fn read_file(path: &Path) -> Result<Option<Vec<u8>>, LoadError> {
    let err = |message: String| LoadError {
        file: path.to_path_buf(),
        line: 1,
        column: 1,
        message,
    };
    let (bytes, mode) = match fsutil::read_regular_with_mode(path, MAX_FILE_BYTES) {
        Ok(read) => read,
        Err(e) if matches!(e.problem, Unreadable::Missing) => return Ok(None),
        Err(e) => return Err(err(format!("not loaded: {}", e.problem))),
    };
    if mode & 0o002 != 0 {
        return Err(err(format!(
            "refusing a world-writable file (mode {:o}); run `chmod o-w {}`",
            mode & 0o777,
            path.display()
        )));
    }
    Ok(Some(bytes))
}

/// Reads and parses one file.
///
/// # Errors
/// [`LoadError`] when the file cannot be read (see [`read_file`]; a file that is gone says
/// so) or any document is not a valid v1 CRD.
pub fn load_file(path: &Path) -> Result<Vec<LoadedCrd>, LoadError> {
    match read_file(path)? {
        Some(bytes) => parse_bytes(&bytes, path),
        None => Err(LoadError {
            file: path.to_path_buf(),
            line: 1,
            column: 1,
            message: "not loaded: it does not exist; create it or fix the path".into(),
        }),
    }
}

#[cfg(test)]
mod tests;
