//! The files of a CRD directory: which entries are CRD files, one consistent generation of a
//! mounted ConfigMap (the kubelet's AtomicWriter layout, see `loader.rs`), and the
//! directory's mode.

use std::path::{Path, PathBuf};

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
pub(super) fn on_read_only_mount(dir: &Path) -> bool {
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
