//! Where `apply -f` reads manifests: files, directories (`-R` recursive) and stdin (`-`).
//!
//! A directory gives its `*.yaml`, `*.yml` and `*.json` entries in name order (kubectl's
//! `FileVisitor` extensions), its subdirectories only with `-R`, never through a symbolic
//! link to a directory (a link loop would never end). A file is read only when it is a
//! regular file of at most [`MAX_FILE_BYTES`] ([`crate::base::fsutil::read_regular`]): a
//! FIFO is refused, never opened, so it cannot hang the command. Stdin (`-`, `/dev/stdin`)
//! is read to its end, at most [`MAX_FILE_BYTES`]; a closed stdin reads as empty (Rust's
//! runtime opens `/dev/null` on a closed fd 0 at start), which is kubectl's `no objects passed
//! to apply`, at once.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::crds::LoadError;

/// Largest manifest file or stdin read, in bytes (16 MiB, as a CRD file): ten thousand
/// ordinary objects fit; the cap bounds what is read and parsed.
pub const MAX_FILE_BYTES: u64 = crate::crds::MAX_FILE_BYTES;

/// One input of `apply -f`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// Standard input.
    Stdin,
    /// A file named with `-f`: may be a FIFO (`-f <(…)`), read once as kubectl reads it.
    Named(PathBuf),
    /// A file found in a directory given with `-f`: a FIFO there is refused, not read.
    File(PathBuf),
}

impl Input {
    /// The name messages use: `STDIN` as kubectl says, or the path.
    pub fn path(&self) -> PathBuf {
        match self {
            Input::Stdin => PathBuf::from("STDIN"),
            Input::Named(p) | Input::File(p) => p.clone(),
        }
    }
}

/// The inputs of `-f` values `given` in order, directories expanded (`recursive`: their
/// subdirectories too).
///
/// # Errors
/// A sentence naming a path that does not exist or a directory that cannot be read, or
/// `-` given twice.
pub fn inputs(given: &[PathBuf], recursive: bool) -> Result<Vec<Input>, String> {
    let mut out = Vec::new();
    for f in given {
        if f.as_os_str() == "-" || f == Path::new("/dev/stdin") || f == Path::new("/dev/fd/0") {
            if out.contains(&Input::Stdin) {
                return Err("-f - is given twice; stdin can be read once".into());
            }
            out.push(Input::Stdin);
            continue;
        }
        let meta = std::fs::metadata(f).map_err(|e| {
            format!(
                "the path {} cannot be read: {}",
                crate::base::echo::quoted(&f.display().to_string()),
                match e.kind() {
                    std::io::ErrorKind::NotFound => "it does not exist".to_string(),
                    _ => e.to_string(),
                }
            )
        })?;
        if meta.is_dir() {
            walk(f, recursive, &mut out)?;
        } else {
            out.push(Input::Named(f.clone()));
        }
    }
    Ok(out)
}

/// The manifest files of `dir` in name order, then (with `recursive`) those of its
/// subdirectories, depth first.
fn walk(dir: &Path, recursive: bool, out: &mut Vec<Input>) -> Result<(), String> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("the directory {} cannot be read: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for path in entries {
        let link = std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink());
        if path.is_dir() {
            if recursive && !link {
                walk(&path, recursive, out)?;
            }
            continue;
        }
        let manifest = path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| matches!(e, "yaml" | "yml" | "json"));
        if manifest {
            out.push(Input::File(path));
        }
    }
    Ok(())
}

/// Reads one input's bytes; a named FIFO's writer must be done within `deadline`
/// ([`crate::base::fsutil::read_named`]).
///
/// # Errors
/// [`LoadError`] at 1:1 saying what the input is (a FIFO found in a directory, too large,
/// missing, stdin closed, a named FIFO whose writer did not finish in time).
pub fn read(input: &Input, deadline: std::time::Duration) -> Result<Vec<u8>, LoadError> {
    let err = |message: String| LoadError {
        file: input.path(),
        line: 1,
        column: 1,
        message,
    };
    match input {
        Input::Named(path) => crate::base::fsutil::read_named(path, MAX_FILE_BYTES, deadline)
            .map(|(bytes, _)| bytes)
            .map_err(|e| err(format!("not read: {}", e.problem))),
        Input::File(path) => crate::base::fsutil::read_regular(path, MAX_FILE_BYTES)
            .map_err(|e| err(format!("not read: {}", e.problem))),
        Input::Stdin => {
            let mut bytes = Vec::new();
            std::io::stdin()
                .lock()
                .take(MAX_FILE_BYTES + 1)
                .read_to_end(&mut bytes)
                .map_err(|e| {
                    err(format!(
                        "stdin cannot be read ({e}); pipe the manifests in, or give -f FILE"
                    ))
                })?;
            if bytes.len() as u64 > MAX_FILE_BYTES {
                return Err(err(format!(
                    "stdin holds more than {MAX_FILE_BYTES} bytes; split the manifests into files"
                )));
            }
            Ok(bytes)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_directory_gives_its_manifests_in_name_order_and_subdirectories_only_with_r() {
        let d = tempfile::tempdir().unwrap();
        for f in ["b.yaml", "a.json", "c.txt", "sub/d.yml"] {
            let p = d.path().join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, "").unwrap();
        }
        let names = |r| -> Vec<String> {
            inputs(&[d.path().to_path_buf()], r)
                .unwrap()
                .iter()
                .map(|i| {
                    i.path()
                        .strip_prefix(d.path())
                        .unwrap()
                        .display()
                        .to_string()
                })
                .collect()
        };
        assert_eq!(names(false), vec!["a.json", "b.yaml"]);
        assert_eq!(names(true), vec!["a.json", "b.yaml", "sub/d.yml"]);
        assert_eq!(
            inputs(&[PathBuf::from("-")], false).unwrap(),
            vec![Input::Stdin]
        );
        assert!(
            inputs(&[PathBuf::from("-"), PathBuf::from("/dev/stdin")], false)
                .unwrap_err()
                .contains("twice")
        );
        assert!(
            inputs(&[d.path().join("nope.yaml")], false)
                .unwrap_err()
                .contains("does not exist")
        );
    }

    #[test]
    fn a_fifo_is_refused_without_opening_it() {
        let d = tempfile::tempdir().unwrap();
        let fifo = d.path().join("m.yaml");
        if std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success())
        {
            let e = read(&Input::File(fifo), std::time::Duration::from_secs(1)).unwrap_err();
            assert!(e.message.contains("not a regular file"), "{e}");
        }
    }
}
