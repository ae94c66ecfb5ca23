//! The pure half of `label` and `annotate`: kubectl's argument rules
//! (`k8s.io/kubectl/pkg/cmd/util/helpers.go` `GetResourcesAndPairs`, `ParsePairs`;
//! `pkg/cmd/label/label.go` `parseLabels`, `labelFunc`, `validateNoOverwrites`;
//! `pkg/cmd/annotate/annotate.go` `validateAnnotations`, `validateNoAnnotationOverwrites`),
//! the API server's key, value and size rules checked before anything is sent
//! ([`crate::base::validate::metadata`], in the words the server answers kubectl with), and
//! the merge patch of the keys that really change.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use crate::base::validate::metadata;

/// The longest key or pair echoed whole: a label key is at most 317 bytes (a 253-byte
/// prefix, `/`, a 63-byte name) and a pair adds `=` and a value; longer input is cut as
/// every echo is ([`crate::base::echo::quoted`]).
pub const ECHO_WHOLE: usize = 400;

/// `value` as Go's `%q` prints it in kubectl's and the server's messages — quoted, control
/// and invisible characters escaped — whole up to [`ECHO_WHOLE`] characters (so a message
/// about a 64-byte name part reads as kubectl's), cut beyond.
pub fn quoted(value: &str) -> String {
    if value.chars().count() > ECHO_WHOLE {
        return crate::base::echo::quoted(value);
    }
    format!(
        "\"{}\"",
        value
            .chars()
            .flat_map(char::escape_debug)
            .collect::<String>()
    )
}

/// Which metadata map the command changes: one implementation, two commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Meta {
    /// `label`: `metadata.labels`.
    Labels,
    /// `annotate`: `metadata.annotations`.
    Annotations,
}

/// The annotation kubectl lets `annotate` overwrite without `--overwrite`
/// (`polymorphichelpers.ChangeCauseAnnotation`).
pub const CHANGE_CAUSE: &str = "kubernetes.io/change-cause";

impl Meta {
    /// The metadata field: `labels` or `annotations`.
    pub fn field(self) -> &'static str {
        match self {
            Meta::Labels => "labels",
            Meta::Annotations => "annotations",
        }
    }

    /// kubectl's word for one pair: `label` or `annotation`.
    pub fn noun(self) -> &'static str {
        match self {
            Meta::Labels => "label",
            Meta::Annotations => "annotation",
        }
    }

    /// The command: `label` or `annotate`.
    pub fn verb(self) -> &'static str {
        match self {
            Meta::Labels => "label",
            Meta::Annotations => "annotate",
        }
    }
}

/// The changes asked for: keys to set (with their values) and keys to remove.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pairs {
    /// `KEY=VALUE`.
    pub set: BTreeMap<String, String>,
    /// `KEY-`, in the order given.
    pub remove: Vec<String>,
}

/// Splits the arguments into objects and pairs as `GetResourcesAndPairs` does (pure): an
/// argument with `=` not at its start, or ending in `-` (not `-` alone), is a pair, and every
/// pair follows every object.
///
/// # Errors
/// kubectl's `all resources must be specified before label changes: X`.
pub fn split(args: &[String], meta: Meta) -> Result<(Vec<String>, Vec<String>), String> {
    let mut resources = Vec::new();
    let mut pairs = Vec::new();
    for s in args {
        let pair = (s.contains('=') && !s.starts_with('=')) || (s.ends_with('-') && s != "-");
        match (pair, pairs.is_empty()) {
            (true, _) => pairs.push(s.clone()),
            (false, true) => resources.push(s.clone()),
            (false, false) => {
                return Err(format!(
                    "all resources must be specified before {} changes: {}",
                    meta.noun(),
                    crate::base::echo::bare(s)
                ));
            }
        }
    }
    Ok((resources, pairs))
}

/// Parses the pairs (pure): `label` as `parseLabels` (exactly one `=`, the value a valid
/// label value), `annotate` as `ParsePairs` (split at the first `=`, any value).
///
/// # Errors
/// kubectl's message: `invalid label spec: X`, `invalid label value: "X": …`,
/// `unknown label spec: X`, `invalid annotation format: X`, or a key both set and removed.
pub fn parse(meta: Meta, pairs: &[String]) -> Result<Pairs, String> {
    let mut out = Pairs::default();
    let mut invalid: Vec<String> = Vec::new();
    for p in pairs {
        match meta {
            Meta::Labels if p.contains('=') => {
                let parts: Vec<&str> = p.split('=').collect();
                if parts.len() != 2 {
                    return Err(format!(
                        "invalid label spec: {}",
                        crate::base::echo::bare(p)
                    ));
                }
                let errs = metadata::label_value_errors(parts[1]);
                if !errs.is_empty() {
                    return Err(format!(
                        "invalid label value: {}: {}",
                        quoted(p),
                        errs.join(";")
                    ));
                }
                out.set.insert(parts[0].to_string(), parts[1].to_string());
            }
            Meta::Annotations if p.contains('=') && !p.starts_with('=') => {
                if let Some((k, v)) = p.split_once('=') {
                    out.set.insert(k.to_string(), v.to_string());
                }
            }
            _ if p.ends_with('-') && p != "-" => out.remove.push(p[..p.len() - 1].to_string()),
            Meta::Labels => {
                return Err(format!(
                    "unknown label spec: {}",
                    crate::base::echo::bare(p)
                ));
            }
            Meta::Annotations => invalid.push(crate::base::echo::bare(p)),
        }
    }
    if !invalid.is_empty() {
        return Err(format!("invalid annotation format: {}", invalid.join(", ")));
    }
    let both: Vec<String> = out
        .remove
        .iter()
        .filter(|k| out.set.contains_key(*k))
        .map(|k| crate::base::echo::bare(k))
        .collect();
    if !both.is_empty() {
        return Err(match meta {
            Meta::Labels => "can not both modify and remove a label in the same command".into(),
            Meta::Annotations => format!(
                "can not both modify and remove the following annotation(s) in the same command: {}",
                both.join(", ")
            ),
        });
    }
    Ok(out)
}

/// The API server's refusal of the keys (and for annotations the total size) of `after`,
/// the map as it would be stored, in its words (pure): `The ConfigMap "c1" is invalid:
/// metadata.labels: Invalid value: "KEY": …` (several: one `* …` line each, as kubectl
/// prints an aggregate, by key). Only the keys the command sets are judged: keys already
/// stored were accepted by the server.
///
/// # Errors
/// That sentence.
pub fn check_keys(
    meta: Meta,
    kind: &str,
    name: &str,
    pairs: &Pairs,
    after: &BTreeMap<String, String>,
) -> Result<(), String> {
    let field = format!("metadata.{}", meta.field());
    let mut errs: Vec<String> = Vec::new();
    for k in pairs.set.keys() {
        let msgs = match meta {
            Meta::Labels => metadata::label_key_errors(k),
            Meta::Annotations => metadata::annotation_key_errors(k),
        };
        errs.extend(
            msgs.into_iter()
                .map(|m| format!("{field}: Invalid value: {}: {m}", quoted(k))),
        );
    }
    if meta == Meta::Annotations
        && metadata::annotations_size(after.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            > metadata::MAX_ANNOTATION_BYTES
    {
        errs.push(format!(
            "{field}: Too long: may not be more than {} bytes",
            metadata::MAX_ANNOTATION_BYTES
        ));
    }
    match errs.len() {
        0 => Ok(()),
        1 => Err(format!(
            "The {kind} {} is invalid: {}",
            quoted(name),
            errs[0]
        )),
        _ => Err(format!(
            "The {kind} {} is invalid: \n{}",
            quoted(name),
            errs.iter()
                .map(|e| format!("* {e}"))
                .collect::<Vec<_>>()
                .join("\n")
        )),
    }
}

/// What one object gets (pure).
#[derive(Debug, Clone, PartialEq)]
pub struct Planned {
    /// The merge patch to send (`None`: nothing changes, nothing is sent).
    pub body: Option<Value>,
    /// kubectl's word for the line: `labeled`, `unlabeled`, `modified`, `not labeled`,
    /// `annotated`.
    pub message: &'static str,
    /// The keys to remove that the object does not have (`label` prints
    /// `label "KEY" not found.` for each).
    pub missing: Vec<String>,
    /// The map as it is after the change (what `--list` prints).
    pub after: BTreeMap<String, String>,
}

/// The map `meta` of an object (pure; values that are not strings are skipped).
pub fn current(meta: Meta, obj: &Value) -> BTreeMap<String, String> {
    obj.pointer(&format!("/metadata/{}", meta.field()))
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .filter_map(|(k, v)| v.as_str().map(|v| (k.clone(), v.to_string())))
                .collect()
        })
        .unwrap_or_default()
}

/// Plans the change of one object from its before-state (pure): kubectl's refusal without
/// `--overwrite`, then the keys that really change as a merge patch of
/// `metadata.<field>` (a removal is `null`), with `metadata.resourceVersion` when
/// `--resource-version` was given.
///
/// # Errors
/// kubectl's overwrite refusal.
pub fn plan(
    meta: Meta,
    before: &Value,
    pairs: &Pairs,
    overwrite: bool,
    resource_version: Option<&str>,
) -> Result<Planned, String> {
    let now = current(meta, before);
    if !overwrite {
        check_overwrite(meta, &now, pairs)?;
    }
    let mut after = now.clone();
    let mut changes = Map::new();
    let (mut added, mut removed) = (false, false);
    for (k, v) in &pairs.set {
        if now.get(k) != Some(v) {
            changes.insert(k.clone(), Value::String(v.clone()));
            after.insert(k.clone(), v.clone());
            added = true;
        }
    }
    let mut missing = Vec::new();
    for k in &pairs.remove {
        if now.contains_key(k) {
            changes.insert(k.clone(), Value::Null);
            after.remove(k);
            removed = true;
        } else {
            missing.push(k.clone());
        }
    }
    let message = match (meta, added, removed) {
        (Meta::Annotations, _, _) => "annotated",
        (Meta::Labels, true, true) => "modified",
        (Meta::Labels, true, false) => "labeled",
        (Meta::Labels, false, true) => "unlabeled",
        (Meta::Labels, false, false) => "not labeled",
    };
    let body = (!changes.is_empty()).then(|| {
        let mut m = Map::new();
        m.insert(meta.field().into(), Value::Object(changes));
        if let Some(rv) = resource_version {
            m.insert("resourceVersion".into(), json!(rv));
        }
        json!({ "metadata": m })
    });
    Ok(Planned {
        body,
        message,
        missing,
        after,
    })
}

/// kubectl's refusal of a key that has another value without `--overwrite` (sorted by key:
/// kubectl's order is Go's map order, which is random).
fn check_overwrite(
    meta: Meta,
    now: &BTreeMap<String, String>,
    pairs: &Pairs,
) -> Result<(), String> {
    let clashes: Vec<String> = pairs
        .set
        .iter()
        .filter(|(k, _)| meta == Meta::Labels || k.as_str() != CHANGE_CAUSE)
        .filter_map(|(k, v)| {
            now.get(k).filter(|c| *c != v).map(|c| {
                format!(
                    "'{}' already has a value ({})",
                    crate::base::echo::bare(k),
                    crate::base::echo::bare(c)
                )
            })
        })
        .collect();
    match (meta, clashes.len()) {
        (_, 0) => Ok(()),
        (Meta::Labels, 1) => Err(format!("{}, and --overwrite is false", clashes[0])),
        (Meta::Labels, _) => Err(format!(
            "[{}]",
            clashes
                .iter()
                .map(|c| format!("{c}, and --overwrite is false"))
                .collect::<Vec<_>>()
                .join(", ")
        )),
        (Meta::Annotations, _) => Err(format!(
            "--overwrite is false but found the following declared annotation(s): {}",
            clashes.join("; ")
        )),
    }
}

/// kubectl's `--list` output of one object (pure): `KEY=VALUE` lines (sorted: kubectl's
/// order is Go's map order); when several objects are selected, each under `Listing labels
/// for KIND.GROUP/NAME:` and indented by one space (kubectl prints `ConfigMap./c1` for the
/// core group).
pub fn listing(
    meta: Meta,
    map: &BTreeMap<String, String>,
    header: Option<(&str, &str, &str)>,
) -> String {
    let mut out = String::new();
    let indent = match header {
        Some((kind, group, name)) => {
            out.push_str(&format!(
                "Listing {} for {kind}.{group}/{name}:\n",
                meta.field()
            ));
            " "
        }
        None => "",
    };
    for (k, v) in map {
        out.push_str(&format!("{indent}{k}={v}\n"));
    }
    out
}

#[cfg(test)]
#[path = "pairs_tests.rs"]
mod tests;
