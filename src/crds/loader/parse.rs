//! CRD text to [`LoadedCrd`]s (pure and total): UTF-8, multi-document YAML, only
//! `apiextensions.k8s.io/v1` CustomResourceDefinitions, each checked and stripped of the
//! fields the server sets.

use std::path::Path;

use std::ops::ControlFlow;

use serde_json::Value;

use super::{LoadError, LoadedCrd, MAX_NAME_CHARS};
use crate::base::echo;
use crate::crds::documents::{CRD_LIMITS, each_document, utf8};

/// Parses a file's bytes (pure): UTF-8 text, then [`parse_crds`].
///
/// # Errors
/// [`LoadError`] located at the first byte that is not UTF-8, or as [`parse_crds`].
pub fn parse_bytes(bytes: &[u8], file: &Path) -> Result<Vec<LoadedCrd>, LoadError> {
    parse_crds(utf8(bytes, file)?, file)
}

/// Parses multi-document YAML text into CRDs (pure and total: never panics, whatever the
/// text). Empty documents are skipped; a file with no CRD at all is an error. YAML bombs
/// (aliases that expand exponentially), over-deep nesting and duplicate keys are refused by
/// serde-saphyr's default budget and duplicate-key policy, as errors located in the file.
///
/// # Errors
/// [`LoadError`] with the location of the YAML error or of the offending document.
pub fn parse_crds(text: &str, file: &Path) -> Result<Vec<LoadedCrd>, LoadError> {
    let mut out = Vec::new();
    let mut bad = None;
    each_document(text, file, CRD_LIMITS, |doc| {
        match crd_of(doc.value, file, doc.line) {
            Ok(crd) => {
                out.push(crd);
                ControlFlow::Continue(())
            }
            Err(message) => {
                bad = Some(LoadError {
                    file: file.to_path_buf(),
                    line: doc.line,
                    column: doc.column,
                    message,
                });
                ControlFlow::Break(())
            }
        }
    })?;
    if let Some(e) = bad {
        return Err(e);
    }
    if out.is_empty() {
        return Err(LoadError {
            file: file.to_path_buf(),
            line: 1,
            column: 1,
            message: "no CustomResourceDefinition in this file".into(),
        });
    }
    Ok(out)
}

/// One non-empty document as a [`LoadedCrd`] of `file` starting at `line`: a v1 CRD with a
/// well-formed name and a served and a storage version, server-set fields stripped.
///
/// # Errors
/// The message for the document's [`LoadError`].
fn crd_of(mut v: Value, file: &Path, line: u64) -> Result<LoadedCrd, String> {
    check_kind(&v)?;
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
    check_names(&name, &group, &plural, &kind)?;
    let (versions, storage_version) = versions_of(&v);
    if versions.is_empty() || storage_version.is_empty() {
        return Err(format!(
            "CRD {name} needs at least one served version and one with storage: true"
        ));
    }
    strip_server_fields(&mut v);
    Ok(LoadedCrd {
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
    })
}

/// That the document is an `apiextensions.k8s.io/v1` CustomResourceDefinition; a v1beta1 one
/// gets its own message (that API was removed in Kubernetes 1.22).
fn check_kind(v: &Value) -> Result<(), String> {
    let field = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let (api_version, kind) = (field("apiVersion"), field("kind"));
    if kind != "CustomResourceDefinition" {
        let what = if kind.is_empty() {
            "a document without `kind`".to_string()
        } else {
            format!("a {} ({})", echo::bare(&kind), echo::bare(&api_version))
        };
        return Err(format!(
            "{what} is not a CustomResourceDefinition; keep only CRDs in the CRD directory"
        ));
    }
    if api_version == "apiextensions.k8s.io/v1beta1" {
        return Err("apiextensions.k8s.io/v1beta1 CRDs were removed in Kubernetes 1.22; convert it to apiextensions.k8s.io/v1 (spec.versions[].schema)".into());
    }
    if api_version != "apiextensions.k8s.io/v1" {
        return Err(format!(
            "unsupported apiVersion {}; use apiextensions.k8s.io/v1",
            echo::quoted(&api_version)
        ));
    }
    Ok(())
}

/// That `spec.group`, `spec.names.plural` and `spec.names.kind` are set and `metadata.name` is
/// `<plural>.<group>`, a DNS subdomain of at most [`MAX_NAME_CHARS`] characters.
fn check_names(name: &str, group: &str, plural: &str, kind: &str) -> Result<(), String> {
    if group.is_empty() || plural.is_empty() || kind.is_empty() {
        return Err(format!(
            "CRD {} lacks spec.group, spec.names.plural or spec.names.kind",
            echo::quoted(name)
        ));
    }
    if name != format!("{plural}.{group}") {
        return Err(format!(
            "metadata.name {} must be <plural>.<group> = {}",
            echo::quoted(name),
            echo::quoted(&format!("{plural}.{group}"))
        ));
    }
    let name_chars = name.chars().count();
    if name_chars > MAX_NAME_CHARS {
        return Err(format!(
            "metadata.name {} is {name_chars} characters long: a CRD name is a DNS subdomain of at most {MAX_NAME_CHARS} characters; shorten spec.group or spec.names.plural",
            echo::quoted(name)
        ));
    }
    let dns = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '.';
    if !name.chars().all(dns) {
        return Err(format!(
            "metadata.name {} must be a DNS subdomain: use only a-z, 0-9, '-' and '.' in spec.names.plural and spec.group",
            echo::quoted(name)
        ));
    }
    Ok(())
}

/// The served version names in file order, and the name of the one with `storage: true`
/// (empty when none is).
fn versions_of(v: &Value) -> (Vec<String>, String) {
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
    (versions, storage_version)
}

/// Removes what the API server sets (`status`, `metadata.resourceVersion`, `uid`,
/// `creationTimestamp`, `generation`, `managedFields`, `selfLink`): server-side apply of a
/// manifest copied from a cluster would conflict on them.
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
