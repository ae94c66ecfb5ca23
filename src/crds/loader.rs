//! Reads CRD files: multi-document YAML, only `apiextensions.k8s.io/v1`
//! CustomResourceDefinitions, each checked and made ready for server-side apply
//! (ARCHITECTURE §5).
//!
//! Server-set fields (`status`, `metadata.resourceVersion`, `uid`, `creationTimestamp`,
//! `generation`, `managedFields`) are stripped: manifests copied from a cluster carry them
//! and they conflict under server-side apply (ARCHITECTURE §9).

use std::path::{Path, PathBuf};

use serde_json::Value;
use serde_saphyr::Spanned;

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

/// Lists `.yaml`/`.yml` files of `dir` (not recursive, sorted, hidden files skipped).
///
/// # Errors
/// The I/O error of reading the directory.
pub fn crd_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(Result::ok)
        .map(|e| e.path())
        // Files, and symlinks even when dangling (they are then reported, not skipped).
        .filter(|p| p.is_file() || (p.is_symlink() && !p.is_dir()))
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

/// Refuses a directory that is group- or world-writable, as ssh refuses such key files:
/// anyone who can write there could register cluster-wide API types as this user. A missing
/// directory passes (the callers say what is missing).
///
/// # Errors
/// The sentence to show, with the mode and the `chmod` that fixes it.
pub fn check_dir_mode(dir: &Path) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    let Ok(meta) = std::fs::metadata(dir) else {
        return Ok(());
    };
    let mode = meta.permissions().mode() & 0o777;
    if mode & 0o022 != 0 {
        return Err(format!(
            "refusing to watch {}: it is group- or world-writable (mode {mode:o}), so others could register cluster-wide types as you; run `chmod go-w {}`",
            dir.display(),
            dir.display()
        ));
    }
    Ok(())
}

/// One file of a CRD directory and what loading it gave.
pub type FileLoad = (PathBuf, Result<Vec<LoadedCrd>, LoadError>);

/// Loads every CRD file of `dir`: one result per file, in name order.
///
/// # Errors
/// The I/O error of reading the directory; file problems are per-file results.
pub fn load_dir(dir: &Path) -> std::io::Result<Vec<FileLoad>> {
    Ok(crd_files(dir)?
        .into_iter()
        .map(|f| {
            let r = load_file(&f);
            (f, r)
        })
        .collect())
}

/// Refuses a world-writable file (mode `o+w`): whoever can write it can register cluster-wide
/// API types as the user running this tool. (The directory check is stricter, group or world,
/// as the issue asks; files are held to world-writable only so a group-shared umask of 002
/// does not refuse every file a team writes.)
///
/// # Errors
/// [`LoadError`] naming the mode and the `chmod` that fixes it.
pub fn check_file_mode(path: &Path) -> Result<(), LoadError> {
    use std::os::unix::fs::PermissionsExt;
    let Ok(meta) = std::fs::metadata(path) else {
        return Ok(());
    };
    let mode = meta.permissions().mode() & 0o777;
    if mode & 0o002 != 0 {
        return Err(LoadError {
            file: path.to_path_buf(),
            line: 1,
            column: 1,
            message: format!(
                "refusing a world-writable file (mode {mode:o}); run `chmod o-w {}`",
                path.display()
            ),
        });
    }
    Ok(())
}

/// Reads and parses one file.
///
/// # Errors
/// [`LoadError`] when the file is unreadable or any document is not a valid v1 CRD.
pub fn load_file(path: &Path) -> Result<Vec<LoadedCrd>, LoadError> {
    check_file_mode(path)?;
    let text = std::fs::read_to_string(path).map_err(|e| LoadError {
        file: path.to_path_buf(),
        line: 1,
        column: 1,
        message: format!("cannot read: {e}"),
    })?;
    parse_crds(&text, path)
}

/// Parses multi-document YAML text into CRDs (pure). Empty documents are skipped; a file
/// with no CRD at all is an error.
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
    let docs: Vec<Spanned<Value>> = serde_saphyr::from_multiple(text).map_err(|e| {
        let (l, c) = e
            .location()
            .map(|l| (l.line(), l.column()))
            .unwrap_or((1, 1));
        err(
            l.max(1),
            c.max(1),
            format!("invalid YAML: {}", first_line(&e.to_string())),
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
                format!("a {kind} ({api_version})")
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
                format!("unsupported apiVersion {api_version:?}; use apiextensions.k8s.io/v1"),
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
                format!("CRD {name:?} lacks spec.group, spec.names.plural or spec.names.kind"),
            ));
        }
        if name != format!("{plural}.{group}") {
            return Err(err(
                line,
                column,
                format!("metadata.name {name:?} must be <plural>.<group> = \"{plural}.{group}\""),
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

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or(s)
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
