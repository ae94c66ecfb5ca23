//! Reads CRD files: multi-document YAML, only `apiextensions.k8s.io/v1`
//! CustomResourceDefinitions, each checked and made ready for server-side apply
//! (ARCHITECTURE §5).
//!
//! Server-set fields (`status`, `metadata.resourceVersion`, `uid`, `creationTimestamp`,
//! `generation`, `managedFields`) are stripped: manifests copied from a cluster carry them
//! and they conflict under server-side apply (ARCHITECTURE §9).
//!
//! Hostile directories (issue 10, class 3): every `.yaml`/`.yml` entry is listed whatever it
//! is, and only a regular file (after resolving links) of at most [`MAX_FILE_BYTES`] is read,
//! through [`crate::fsutil::read_regular_with_mode`], which never blocks on a FIFO or device.
//! Anything else — a FIFO, a socket, a device, a directory named `x.yaml`, a dangling or
//! looping link, an unreadable or oversize file — is a [`LoadError`] for that file, reported
//! like a syntax error, and the other files still load. [`parse_crds`] is pure and total
//! (fuzzed): any text gives CRDs or a located error, never a panic, and every value it quotes
//! back is escaped and capped ([`crate::echo`]).
//!
//! Mounted ConfigMaps (issue 13): the kubelet writes a ConfigMap volume with its AtomicWriter
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

use std::path::{Path, PathBuf};

use serde_json::Value;
use serde_saphyr::Spanned;

use crate::echo;
use crate::fsutil::{self, Unreadable};

/// Largest CRD file read, in bytes (16 MiB). One CRD object must fit in a single etcd request
/// (`--max-request-bytes`, 1.5 MiB by default), so even a bundle of many large CRDs (the
/// biggest in `../shared/corpus/crds` is 0.7 MB) stays far below; the cap keeps a wrong or
/// hostile file from being read, and parsed, whole.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Longest `metadata.name` accepted, in characters: a CRD's name is a DNS subdomain (at most
/// 253 characters; apimachinery `validation.IsDNS1123Subdomain`, checked again by the API
/// server's CRD validation). A longer one is refused here, before any request.
pub const MAX_NAME_CHARS: usize = 253;

/// Longest message of a YAML error, in characters: the scanner's own text may quote the
/// document, and a document is whatever the file holds.
const MAX_YAML_MESSAGE_CHARS: usize = 200;

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

/// Lists the `.yaml`/`.yml` entries of `dir` (not recursive, sorted, hidden names skipped),
/// whatever they are: regular files, links (dangling ones too), FIFOs, sockets, devices and
/// directories named `x.yaml` are all listed, so that reading each one reports what it is
/// instead of skipping it silently. Nothing is opened here.
///
/// # Errors
/// The I/O error of reading the directory.
pub fn crd_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            !p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with('.'))
        })
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("yaml" | "yml")))
        .collect();
    files.sort();
    Ok(files)
}

/// The kubelet AtomicWriter's link to the current data generation (see the module
/// documentation).
pub const DATA_LINK: &str = "..data";

/// How many times a read of a mounted ConfigMap directory is repeated when its `..data`
/// generation moved while it was read: each update of the ConfigMap moves it once, and the
/// kubelet syncs a pod's volumes at most every few seconds, so a second read almost always
/// sees one generation throughout.
pub const GENERATION_TRIES: usize = 5;

/// One CRD file of a directory: the path it is known and reported by, and the path its bytes
/// are read from (the same, except in a mounted ConfigMap directory, where the key `DIR/x.yaml`
/// is read from `DIR/..<timestamp>/x.yaml` so that every key comes from one generation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// `DIR/<name>`: the name shown, and the key of the watcher's state.
    pub path: PathBuf,
    /// Where to read it.
    pub read: PathBuf,
}

/// The generation `DIR/..data` points at when `dir` is laid out by the kubelet's
/// AtomicWriter: a link whose target is one relative name starting with `..` (not `..`
/// itself) that is a directory (not a link) inside `dir`. `None` for any other directory.
pub fn data_generation(dir: &Path) -> Option<std::ffi::OsString> {
    use std::path::Component;
    let target = std::fs::read_link(dir.join(DATA_LINK)).ok()?;
    let mut parts = target.components();
    let (Some(Component::Normal(name)), None) = (parts.next(), parts.next()) else {
        return None;
    };
    if !name.to_str().is_some_and(|n| n.starts_with("..")) {
        return None;
    }
    let meta = std::fs::symlink_metadata(dir.join(name)).ok()?;
    meta.is_dir().then(|| name.to_os_string())
}

/// Whether `path` is a key link of the AtomicWriter: a symbolic link into `..data/`.
fn is_data_link(path: &Path) -> bool {
    std::fs::read_link(path).is_ok_and(|t| {
        t.components().next() == Some(std::path::Component::Normal(DATA_LINK.as_ref()))
    })
}

/// The CRD files of `dir` and the generation they were listed from (`None`: a plain
/// directory). In an AtomicWriter directory, the keys are the `.yaml`/`.yml` entries of the
/// generation directory, plus any other top-level entry that is not a key link. `Ok(None)`
/// when the generation directory vanished between reading `..data` and listing it (an update
/// happened: list again).
///
/// # Errors
/// The I/O error of listing `dir`.
fn entries(dir: &Path) -> std::io::Result<Option<(Option<std::ffi::OsString>, Vec<Entry>)>> {
    let top = crd_files(dir)?;
    let Some(generation) = data_generation(dir) else {
        let plain = top
            .into_iter()
            .map(|p| Entry {
                path: p.clone(),
                read: p,
            })
            .collect();
        return Ok(Some((None, plain)));
    };
    let mut out = std::collections::BTreeMap::new();
    match crd_files(&dir.join(&generation)) {
        Ok(files) => {
            for read in files {
                if let Some(name) = read.file_name() {
                    let path = dir.join(name);
                    out.insert(path.clone(), Entry { path, read });
                }
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    }
    for p in top.into_iter().filter(|p| !is_data_link(p)) {
        out.entry(p.clone()).or_insert(Entry {
            path: p.clone(),
            read: p,
        });
    }
    Ok(Some((Some(generation), out.into_values().collect())))
}

/// Lists the CRD files of `dir` and hands them to `read`, so that what `read` sees is one
/// generation of a mounted ConfigMap (see the module documentation): when `..data` moved
/// while `read` ran, its result is dropped and the listing and reading repeated, up to
/// [`GENERATION_TRIES`] times. A plain directory is listed and read once. `between` runs
/// after the listing, before `read` (tests use it to update the directory at that point).
///
/// # Errors
/// The I/O error of listing `dir`, or an error of kind `Interrupted` when the generation
/// moved during every try (the caller keeps what it had and reads again at the next event).
pub fn read_consistent<T>(
    dir: &Path,
    mut between: impl FnMut(),
    mut read: impl FnMut(&[Entry]) -> T,
) -> std::io::Result<T> {
    for _ in 0..GENERATION_TRIES {
        let Some((generation, listed)) = entries(dir)? else {
            continue;
        };
        between();
        let out = read(&listed);
        if generation.is_none() || data_generation(dir) == generation {
            return Ok(out);
        }
    }
    Err(std::io::Error::new(
        std::io::ErrorKind::Interrupted,
        format!(
            "its {DATA_LINK} link moved to a new generation during each of {GENERATION_TRIES} reads (a ConfigMap updated continuously?); the next change reads it again"
        ),
    ))
}

/// Refuses a directory that is group- or world-writable, as ssh refuses such key files:
/// anyone who can write there could register cluster-wide API types as this user. A missing
/// directory passes (the callers say what is missing). The sticky bit does not help: it only
/// stops others from removing or renaming *existing* entries, not from adding new files.
///
/// One exception: a directory on a read-only mount, which nobody can write whatever its mode
/// says. A ConfigMap volume is one: the kubelet creates it as an emptyDir (mode 0777, from
/// `pkg/volume/emptydir/empty_dir.go`) and the container runtime mounts it read-only (ConfigMap,
/// Secret, downward API and projected volumes always are since Kubernetes 1.10).
///
/// # Errors
/// The sentence to show, with the mode and the `chmod` that fixes it.
pub fn check_dir_mode(dir: &Path) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    let Ok(meta) = std::fs::metadata(dir) else {
        return Ok(());
    };
    let mode = meta.permissions().mode() & 0o777;
    if meta.is_dir() && mode & 0o022 != 0 && !on_read_only_mount(dir) {
        return Err(format!(
            "refusing the CRD directory {}: it is group- or world-writable (mode {mode:o}), so others could register cluster-wide types as you; run `chmod go-w {}`",
            dir.display(),
            dir.display()
        ));
    }
    Ok(())
}

/// Whether `dir` is on a read-only mount, per `/proc/self/mountinfo` (false when that cannot
/// be read: then the mode alone decides).
fn on_read_only_mount(dir: &Path) -> bool {
    let (Ok(real), Ok(info)) = (
        dir.canonicalize(),
        std::fs::read_to_string("/proc/self/mountinfo"),
    ) else {
        return false;
    };
    read_only_in_mountinfo(&info, &real)
}

/// Whether the mount holding `path` (absolute, links resolved) is read-only, given the text of
/// `/proc/<pid>/mountinfo` (proc(5): field 5 is the mount point with ` `, tab, newline and `\`
/// octal-escaped, field 6 the per-mount options). The mount is the one with the longest mount
/// point containing `path`; of equal ones the last listed (mounted on top) counts. Pure.
pub fn read_only_in_mountinfo(mountinfo: &str, path: &Path) -> bool {
    let mut best: Option<(usize, bool)> = None;
    for line in mountinfo.lines() {
        let fields: Vec<&str> = line.split(' ').collect();
        let (Some(point), Some(options)) = (fields.get(4), fields.get(5)) else {
            continue;
        };
        let point = unescape_mountinfo(point);
        if !path.starts_with(&point) {
            continue;
        }
        let depth = Path::new(&point).components().count();
        if best.is_none_or(|(d, _)| depth >= d) {
            best = Some((depth, options.split(',').any(|o| o == "ro")));
        }
    }
    best.is_some_and(|(_, ro)| ro)
}

/// Undoes mountinfo's octal escapes (`\040` for a space, …).
fn unescape_mountinfo(field: &str) -> String {
    let b = field.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let octal = b
            .get(i + 1..i + 4)
            .filter(|d| d.iter().all(|c| (b'0'..=b'7').contains(c)));
        match (b[i], octal) {
            (b'\\', Some(d)) => {
                out.push((d[0] - b'0') * 64 + (d[1] - b'0') * 8 + (d[2] - b'0'));
                i += 4;
            }
            (c, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
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

/// Parses a file's bytes (pure): UTF-8 text, then [`parse_crds`].
///
/// # Errors
/// [`LoadError`] located at the first byte that is not UTF-8, or as [`parse_crds`].
pub fn parse_bytes(bytes: &[u8], file: &Path) -> Result<Vec<LoadedCrd>, LoadError> {
    match std::str::from_utf8(bytes) {
        Ok(text) => parse_crds(text, file),
        Err(e) => {
            let valid = &bytes[..e.valid_up_to()];
            let line = valid.iter().filter(|b| **b == b'\n').count() as u64 + 1;
            let after_nl = valid
                .iter()
                .rposition(|b| *b == b'\n')
                .map_or(valid, |i| &valid[i + 1..]);
            // `valid` is UTF-8 up to the bad byte, so the tail of its last line is too.
            let column = std::str::from_utf8(after_nl).map_or(0, |t| t.chars().count()) as u64 + 1;
            Err(LoadError {
                file: file.to_path_buf(),
                line,
                column,
                message: "the file is not UTF-8 text: save it as UTF-8".into(),
            })
        }
    }
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

/// Parses multi-document YAML text into CRDs (pure and total: never panics, whatever the
/// text). Empty documents are skipped; a file with no CRD at all is an error. YAML bombs
/// (aliases that expand exponentially), over-deep nesting and duplicate keys are refused by
/// serde-saphyr's default budget and duplicate-key policy, as errors located in the file.
///
/// # Errors
/// [`LoadError`] with the location of the YAML error or of the offending document.
pub fn parse_crds(text: &str, file: &Path) -> Result<Vec<LoadedCrd>, LoadError> {
    let err = |line: u64, column: u64, message: String| LoadError {
        file: file.to_path_buf(),
        line,
        column,
        message,
    };
    let options = serde_saphyr::options! {
        duplicate_keys: serde_saphyr::DuplicateKeyPolicy::Error,
        with_snippet: false,
    };
    let docs: Vec<Spanned<Value>> = serde_saphyr::from_multiple_with_options(text, options)
        .map_err(|e| {
            let (l, c) = e
                .location()
                .map(|l| (l.line(), l.column()))
                .unwrap_or((1, 1));
            err(
                l.max(1),
                c.max(1),
                format!("invalid YAML: {}", yaml_message(&e)),
            )
        })?;
    let mut out = Vec::new();
    for doc in docs {
        let (line, column) = (doc.referenced.line().max(1), doc.referenced.column().max(1));
        let mut v = doc.value;
        if v.is_null() {
            continue;
        }
        let api_version = v
            .get("apiVersion")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let kind = v
            .get("kind")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        if kind != "CustomResourceDefinition" {
            let what = if kind.is_empty() {
                "a document without `kind`".to_string()
            } else {
                format!("a {} ({})", echo::bare(&kind), echo::bare(&api_version))
            };
            return Err(err(
                line,
                column,
                format!(
                    "{what} is not a CustomResourceDefinition; keep only CRDs in the CRD directory"
                ),
            ));
        }
        if api_version == "apiextensions.k8s.io/v1beta1" {
            return Err(err(line, column, "apiextensions.k8s.io/v1beta1 CRDs were removed in Kubernetes 1.22; convert it to apiextensions.k8s.io/v1 (spec.versions[].schema)".into()));
        }
        if api_version != "apiextensions.k8s.io/v1" {
            return Err(err(
                line,
                column,
                format!(
                    "unsupported apiVersion {}; use apiextensions.k8s.io/v1",
                    echo::quoted(&api_version)
                ),
            ));
        }
        let s = |p: &str| {
            v.pointer(p)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string()
        };
        let (name, group, plural, kind, scope) = (
            s("/metadata/name"),
            s("/spec/group"),
            s("/spec/names/plural"),
            s("/spec/names/kind"),
            s("/spec/scope"),
        );
        if group.is_empty() || plural.is_empty() || kind.is_empty() {
            return Err(err(
                line,
                column,
                format!(
                    "CRD {} lacks spec.group, spec.names.plural or spec.names.kind",
                    echo::quoted(&name)
                ),
            ));
        }
        if name != format!("{plural}.{group}") {
            return Err(err(
                line,
                column,
                format!(
                    "metadata.name {} must be <plural>.<group> = {}",
                    echo::quoted(&name),
                    echo::quoted(&format!("{plural}.{group}"))
                ),
            ));
        }
        let name_chars = name.chars().count();
        if name_chars > MAX_NAME_CHARS {
            return Err(err(
                line,
                column,
                format!(
                    "metadata.name {} is {name_chars} characters long: a CRD name is a DNS subdomain of at most {MAX_NAME_CHARS} characters; shorten spec.group or spec.names.plural",
                    echo::quoted(&name)
                ),
            ));
        }
        let dns = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '.';
        if !name.chars().all(dns) {
            return Err(err(
                line,
                column,
                format!(
                    "metadata.name {} must be a DNS subdomain: use only a-z, 0-9, '-' and '.' in spec.names.plural and spec.group",
                    echo::quoted(&name)
                ),
            ));
        }
        let versions_v = v
            .pointer("/spec/versions")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let versions: Vec<String> = versions_v
            .iter()
            .filter(|x| x.get("served").and_then(Value::as_bool).unwrap_or(false))
            .filter_map(|x| x.get("name").and_then(Value::as_str).map(str::to_string))
            .collect();
        let storage_version = versions_v
            .iter()
            .find(|x| x.get("storage").and_then(Value::as_bool).unwrap_or(false))
            .and_then(|x| x.get("name").and_then(Value::as_str))
            .unwrap_or("")
            .to_string();
        if versions.is_empty() || storage_version.is_empty() {
            return Err(err(
                line,
                column,
                format!("CRD {name} needs at least one served version and one with storage: true"),
            ));
        }
        strip_server_fields(&mut v);
        out.push(LoadedCrd {
            name,
            group,
            plural,
            kind,
            scope,
            versions,
            storage_version,
            file: file.to_path_buf(),
            line,
            body: v,
        });
    }
    if out.is_empty() {
        return Err(err(1, 1, "no CustomResourceDefinition in this file".into()));
    }
    Ok(out)
}

fn strip_server_fields(v: &mut Value) {
    if let Some(o) = v.as_object_mut() {
        o.remove("status");
    }
    if let Some(m) = v.get_mut("metadata").and_then(Value::as_object_mut) {
        for k in [
            "resourceVersion",
            "uid",
            "creationTimestamp",
            "generation",
            "managedFields",
            "selfLink",
        ] {
            m.remove(k);
        }
    }
}

/// The first line of a YAML error's message, control characters escaped and cut after
/// [`MAX_YAML_MESSAGE_CHARS`] characters. A breach of serde-saphyr's default budget (its
/// defence against YAML bombs and stack exhaustion: at most 250,000 nodes, 64 levels of
/// nesting, …) is said in words, with what to do.
fn yaml_message(e: &serde_saphyr::Error) -> String {
    use serde_saphyr::{Error, budget::BudgetBreach};
    let mut inner = e;
    while let Error::AliasError { error, .. } | Error::WithSnippet { error, .. } = inner {
        inner = error;
    }
    if let Error::Budget { breach, .. } = inner {
        return match breach {
            BudgetBreach::Depth { .. } => "it nests deeper than 64 levels, more than any CRD schema needs; check where the file came from".to_string(),
            BudgetBreach::Nodes { nodes } => format!(
                "it expands to more than {} nodes (a YAML bomb, or many large CRDs in one file): split it into one file per CRD, or check where it came from",
                nodes.saturating_sub(1)
            ),
            _ => "it uses more anchors, aliases, documents or text than any CRD file needs (a YAML bomb?); check where the file came from".to_string(),
        };
    }
    let text = e.to_string();
    let first = text.lines().next().unwrap_or("");
    crate::echo::capped(first, MAX_YAML_MESSAGE_CHARS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn group_or_world_writable_directories_are_refused_like_ssh_keys() {
        let d = tempfile::tempdir().unwrap();
        std::fs::set_permissions(d.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        assert!(check_dir_mode(d.path()).is_ok());
        for mode in [0o775, 0o757, 0o777] {
            std::fs::set_permissions(d.path(), std::fs::Permissions::from_mode(mode)).unwrap();
            let e = check_dir_mode(d.path()).unwrap_err();
            assert!(
                e.contains(&format!("mode {mode:o}")) && e.to_string().contains("chmod go-w"),
                "{e}"
            );
        }
        assert!(check_dir_mode(&d.path().join("missing")).is_ok());
    }

    #[test]
    fn a_writable_directory_on_a_read_only_mount_like_a_configmap_volume_is_accepted() {
        // A pod's mountinfo: the ConfigMap volume (mode 0777 emptyDir) bind-mounted read-only,
        // a writable emptyDir beside it, a mount point with a space.
        let info = "\
1 0 0:1 / / rw,relatime - overlay overlay rw
2 1 0:2 /pods/x/volumes/kubernetes.io~configmap/crds /etc/myops/crds ro,relatime - ext4 /dev/sda1 rw
3 1 0:3 /pods/x/volumes/kubernetes.io~empty-dir/home /var/lib/myops rw,relatime - ext4 /dev/sda1 rw
4 1 0:4 / /mnt/with\\040space ro - tmpfs tmpfs ro
5 1 0:5 / /etc/myops/crds/sub rw - tmpfs tmpfs rw
";
        let ro = |p: &str| read_only_in_mountinfo(info, Path::new(p));
        assert!(ro("/etc/myops/crds"));
        assert!(ro("/etc/myops/crds/..data"));
        assert!(
            !ro("/etc/myops/crdsx"),
            "a sibling whose name only starts the same"
        );
        assert!(!ro("/etc/myops/crds/sub"), "a writable mount on top of it");
        assert!(!ro("/var/lib/myops"));
        assert!(!ro("/tmp"));
        assert!(ro("/mnt/with space/d"));
        assert!(!read_only_in_mountinfo("", Path::new("/etc")));
        // This test's own temporary directory is on a writable mount: 0777 is still refused.
        let d = tempfile::tempdir().unwrap();
        std::fs::set_permissions(d.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
        assert!(!on_read_only_mount(d.path()));
        assert!(check_dir_mode(d.path()).is_err());
    }

    const CRD: &str = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: backupjobs.example.com\n  creationTimestamp: null\nspec:\n  group: example.com\n  scope: Namespaced\n  names: {plural: backupjobs, singular: backupjob, kind: BackupJob}\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema: {openAPIV3Schema: {type: object}}\nstatus:\n  acceptedNames: {kind: ''}\n";

    fn p(text: &str) -> Result<Vec<LoadedCrd>, LoadError> {
        parse_crds(text, Path::new("x.yaml"))
    }

    #[test]
    fn parses_a_crd_and_strips_status_and_server_fields() {
        let crds = p(CRD).unwrap();
        assert_eq!(crds.len(), 1);
        let c = &crds[0];
        assert_eq!(
            (c.name.as_str(), c.kind.as_str(), c.scope.as_str()),
            ("backupjobs.example.com", "BackupJob", "Namespaced")
        );
        assert_eq!(c.versions, vec!["v1"]);
        assert_eq!(c.storage_version, "v1");
        assert!(c.body.get("status").is_none());
        assert!(c.body.pointer("/metadata/creationTimestamp").is_none());
        assert_eq!(c.line, 1);
    }

    #[test]
    fn multi_document_files_report_each_crd_and_skip_empty_documents() {
        let two = format!("---\n{CRD}---\n{}", CRD.replace("backupjob", "restorejob"));
        let crds = p(&two).unwrap();
        assert_eq!(
            crds.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(),
            ["backupjobs.example.com", "restorejobs.example.com"]
        );
        assert_eq!(crds[1].line, 19);
    }

    #[test]
    fn v1beta1_non_crd_and_bad_name_are_located_errors() {
        let e = p(&CRD.replace(
            "apiextensions.k8s.io/v1\n",
            "apiextensions.k8s.io/v1beta1\n",
        ))
        .unwrap_err();
        assert!(
            e.message.contains("v1beta1") && e.message.contains("1.22"),
            "{e}"
        );
        let with_cr = format!(
            "{CRD}---\napiVersion: example.com/v1\nkind: BackupJob\nmetadata: {{name: a}}\n"
        );
        let e = p(&with_cr).unwrap_err();
        assert_eq!((e.line, e.column), (18, 1), "{e}");
        assert!(
            e.to_string().starts_with(
                "x.yaml:18:1: a BackupJob (example.com/v1) is not a CustomResourceDefinition"
            ),
            "{e}"
        );
        let e =
            p(&CRD.replace("name: backupjobs.example.com", "name: wrong.example.com")).unwrap_err();
        assert!(
            e.message
                .contains("must be <plural>.<group> = \"backupjobs.example.com\""),
            "{e}"
        );
    }

    #[test]
    fn yaml_bombs_deep_nesting_and_duplicate_keys_are_located_errors() {
        let laughs = "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\nh: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\ni: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]\n";
        let start = std::time::Instant::now();
        let e = p(laughs).unwrap_err();
        assert!(
            e.message
                .starts_with("invalid YAML: it expands to more than 250000 nodes (a YAML bomb"),
            "{e}"
        );
        let flow = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert!(p(&flow).unwrap_err().message.starts_with("invalid YAML: "));
        let block: String = (0..5_000)
            .map(|i| format!("{}k:\n", " ".repeat(i)))
            .collect();
        let seq: String = "- ".repeat(50_000) + "x\n";
        for deep in [block, seq] {
            let e = p(&deep).unwrap_err();
            assert!(
                e.message
                    .starts_with("invalid YAML: it nests deeper than 64 levels"),
                "{e}"
            );
        }
        assert!(start.elapsed() < std::time::Duration::from_secs(10));
        let dup = CRD.replace(
            "kind: CustomResourceDefinition\n",
            "kind: CustomResourceDefinition\nkind: Secret\n",
        );
        let e = p(&dup).unwrap_err();
        assert_eq!(e.line, 3, "{e}");
        assert!(e.message.contains("duplicate"), "{e}");
    }

    #[test]
    fn a_100000_character_name_or_kind_is_refused_capped_and_escaped() {
        let plural = "b".repeat(100_000);
        let long = CRD.replace("backupjobs", &plural);
        let e = p(&long).unwrap_err();
        assert!(e.message.len() < 400, "{} bytes", e.message.len());
        assert!(
            e.message
                .contains("(100012 characters) is 100012 characters long"),
            "{e}"
        );
        let e = p(&CRD.replace(
            "kind: CustomResourceDefinition",
            "kind: \"Evil\\e[2J\\u0007\"",
        ))
        .unwrap_err();
        assert_eq!(
            e.message,
            "a Evil\\u{1b}[2J\\u{7} (apiextensions.k8s.io/v1) is not a CustomResourceDefinition; keep only CRDs in the CRD directory"
        );
        let e = p(&CRD
            .replace("group: example.com", "group: \"Example.com\"")
            .replace("backupjobs.example.com", "backupjobs.Example.com"))
        .unwrap_err();
        assert!(e.message.contains("must be a DNS subdomain"), "{e}");
    }

    #[test]
    fn a_secret_in_the_crd_directory_is_refused_without_quoting_its_data() {
        let secret = "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata:\n  password: c2VjcmV0VmFsdWU=\nstringData: {token: \"verySecretToken\"}\n";
        let e = p(secret).unwrap_err();
        assert_eq!(
            e.to_string(),
            "x.yaml:1:1: a Secret (v1) is not a CustomResourceDefinition; keep only CRDs in the CRD directory"
        );
        let broken = "apiVersion: v1\nkind: Secret\nstringData:\n  token: verySecretToken: [\n";
        let e = p(broken).unwrap_err();
        assert!(!e.to_string().contains("verySecretToken"), "{e}");
    }

    #[test]
    fn non_utf8_files_are_located_at_the_first_bad_byte() {
        let e = parse_bytes(b"apiVersion: v1\nkind: \xffx\n", Path::new("x.yaml")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "x.yaml:2:7: the file is not UTF-8 text: save it as UTF-8"
        );
    }

    #[test]
    fn every_kind_of_entry_named_yaml_is_listed_and_reported_not_skipped() {
        use std::os::unix::fs::symlink;
        let d = tempfile::tempdir().unwrap();
        let dir = d.path();
        std::fs::write(dir.join("a-good.yaml"), CRD).unwrap();
        assert!(
            std::process::Command::new("mkfifo")
                .arg(dir.join("fifo.yaml"))
                .status()
                .unwrap()
                .success()
        );
        symlink(dir.join("fifo.yaml"), dir.join("link-to-fifo.yml")).unwrap();
        symlink("gone.yaml", dir.join("dangling.yaml")).unwrap();
        symlink(dir.join("loop2.yaml"), dir.join("loop1.yaml")).unwrap();
        symlink(dir.join("loop1.yaml"), dir.join("loop2.yaml")).unwrap();
        std::fs::create_dir(dir.join("subdir.yaml")).unwrap();
        let _sock = std::os::unix::net::UnixListener::bind(dir.join("sock.yaml")).unwrap();
        symlink("/dev/zero", dir.join("zero.yaml")).unwrap();
        std::fs::File::create(dir.join("huge.yaml"))
            .unwrap()
            .set_len(MAX_FILE_BYTES + 1)
            .unwrap();
        let ww = dir.join("world.yaml");
        std::fs::write(&ww, CRD).unwrap();
        std::fs::set_permissions(&ww, std::fs::Permissions::from_mode(0o666)).unwrap();
        std::fs::write(dir.join(".hidden.yaml"), "x").unwrap();
        std::fs::write(dir.join("notes.txt"), "x").unwrap();
        let start = std::time::Instant::now();
        let loads = load_dir(dir).unwrap();
        assert!(start.elapsed() < std::time::Duration::from_secs(2));
        let got: Vec<(String, String)> = loads
            .iter()
            .map(|(f, r)| {
                (
                    f.file_name().unwrap().to_string_lossy().into_owned(),
                    match r {
                        Ok(c) => format!("ok {}", c.len()),
                        Err(e) => e.message.clone(),
                    },
                )
            })
            .collect();
        let want = [
            ("a-good.yaml", "ok 1".to_string()),
            ("dangling.yaml", "not loaded: it is a dangling symbolic link to gone.yaml; fix the link or remove it".into()),
            ("fifo.yaml", "not loaded: it is a FIFO (named pipe), not a regular file; replace it with a regular file".into()),
            ("huge.yaml", format!("not loaded: it is too large: {} bytes, over the {MAX_FILE_BYTES}-byte limit; a file this size is not what this tool reads, check that the path is the right file", MAX_FILE_BYTES + 1)),
            ("link-to-fifo.yml", "not loaded: it is a FIFO (named pipe), not a regular file; replace it with a regular file".into()),
            ("loop1.yaml", "not loaded: it is a symbolic link loop; fix the link or remove it".into()),
            ("loop2.yaml", "not loaded: it is a symbolic link loop; fix the link or remove it".into()),
            ("sock.yaml", "not loaded: it is a socket, not a regular file; replace it with a regular file".into()),
            ("subdir.yaml", "not loaded: it is a directory, not a regular file; replace it with a regular file".into()),
            ("world.yaml", format!("refusing a world-writable file (mode 666); run `chmod o-w {}`", ww.display())),
            ("zero.yaml", "not loaded: it is a character device, not a regular file; replace it with a regular file".into()),
        ];
        let want: Vec<(String, String)> =
            want.into_iter().map(|(a, b)| (a.to_string(), b)).collect();
        assert_eq!(got, want);
        // The watcher's scan sees the same, and a second scan fingerprints them the same.
        let snap = crate::crds::watch::scan(dir).unwrap();
        assert_eq!(snap.len(), 11);
        let again = crate::crds::watch::scan(dir).unwrap();
        assert!(snap.iter().zip(&again).all(|(a, b)| a.1.hash == b.1.hash));
    }

    #[test]
    fn the_public_corpus_still_loads() {
        let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/crds");
        let Ok(loads) = load_dir(&corpus) else { return };
        for (f, r) in loads {
            assert!(r.is_ok(), "{}: {:?}", f.display(), r.err());
        }
    }

    #[test]
    fn every_prefix_and_byte_flip_of_a_crd_is_crds_or_one_short_error_never_a_panic() {
        let two = CRD;
        let mut texts: Vec<String> = (0..=two.len())
            .filter(|i| two.is_char_boundary(*i))
            .map(|i| two[..i].to_string())
            .collect();
        for (i, b) in two.bytes().enumerate() {
            for flip in [
                b'\0', b':', b'&', b'*', b'[', b'"', b'\t', b'-', b'\n', b'!',
            ] {
                if b != flip {
                    let mut bytes = two.as_bytes().to_vec();
                    bytes[i] = flip;
                    texts.push(String::from_utf8(bytes).unwrap());
                }
            }
        }
        for text in &texts {
            if let Err(e) = p(text) {
                let shown = e.to_string();
                assert!(e.line >= 1 && e.column >= 1, "{shown}");
                assert!(!shown.contains('\n') && shown.len() < 600, "{shown}");
            }
        }
    }

    #[test]
    fn broken_yaml_and_empty_files_are_errors_not_panics() {
        let e = p("apiVersion: v1\nkind: [\n").unwrap_err();
        assert!(e.message.starts_with("invalid YAML"), "{e}");
        assert!(e.line >= 2, "{e}");
        assert_eq!(
            p("").unwrap_err().message,
            "no CustomResourceDefinition in this file"
        );
        assert!(p("\u{0}\u{1}garbage: [").is_err());
    }
}
