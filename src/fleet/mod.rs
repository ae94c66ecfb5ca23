//! Fan-out over kubeconfig contexts (`--contexts LIST`, `--all-contexts`): the one layer that
//! runs a command in several contexts and merges what they printed (docs/fleet.md).
//!
//! Every context runs the command's ordinary `run` with [`Settings`](crate::settings::Settings)
//! cloned for that context, so each gets its own guarded [`Session`](crate::guard::Session):
//! its own plugin.yaml boundary check, SelfSubjectAccessReview, deadlines and journal entries —
//! the guarantees stay where they live, and no verb knows about other contexts. All the
//! sessions of one invocation share one session id (docs/changelog.md), set once here.
//!
//! This file is the pure core, unit-tested without a cluster: choosing the contexts from the
//! kubeconfig's names ([`select`], `*` globs), planning the waves of `patch` ([`waves`]) and
//! merging the captured outputs ([`merge`]). The exit code is the most severe of the
//! contexts' ([`ExitStatus::most_severe`], the one order shared with `rollback --session`). [`run`] is the thin runner (bounded concurrency on the current-thread
//! runtime, the progress line, wave stops), [`run::run_releasing`] the same handing each context
//! out in order as soon as it and those before it are done, for [`stream`]'s output.
//!
//! Output shapes (docs/fleet.md):
//! - tables: one table with a leading `CONTEXT` column, tables of the same type and header
//!   merged and laid out once (so columns align across contexts, as kubectl's tab writer
//!   aligns one table);
//! - `-o json|yaml|kyaml`: one `v1` `List`; every item carries its context in the
//!   annotation [`CONTEXT_ANNOTATION`] (added to the printed copy only);
//! - line output (`-o name`, `patch`'s result lines, `auth can-i`'s answer, `crds sync`'s
//!   lines): each line prefixed by the context name and a tab (a tab never occurs in a
//!   context name in practice, unlike `/` and `:` in EKS ARNs).

pub mod commands;
pub mod protect;
pub mod rollback;
pub mod run;
pub mod stream;

use crate::output::objects::{kubectl_json, kubectl_yaml, list_of, sort_keys};
use crate::output::{Chunk, OutputError, TableBlock};
use serde_json::Value;

pub use run::{ContextRun, Done, Fleet, run};

/// The annotation that names an item's context in merged `-o json|yaml` output
/// (`metadata.annotations["kubectl-myops/context"]`), added to the printed copy only.
pub const CONTEXT_ANNOTATION: &str = "kubectl-myops/context";

/// The default `--max-parallel`: 32 contexts at once. Each context costs a few requests
/// (discovery revalidation, a review, the call) that mostly wait on the network, so on one
/// thread they overlap well; contexts on one server share one HTTP/2 connection
/// (`cluster::connector`), and a context's output is held until it is printed (in order:
/// [`stream`]; tables until every context is done) whatever the parallelism, so more at once
/// costs little. Measured (scripts/bench `fleet`, 40 contexts
/// on two local servers): 8 at once took 3.7× one context, 40 at once 2.6×. Lower it to
/// spare slow links or servers; `patch` waves still stop at the first failure.
pub const DEFAULT_MAX_PARALLEL: usize = 32;

/// More contexts than this get a progress line on a terminal.
pub const PROGRESS_ABOVE: usize = 4;

/// Why the contexts could not be chosen (a usage error, exit 2, before any request).
#[derive(Debug, thiserror::Error)]
pub enum SelectError {
    /// A `--contexts` entry names no context (or its glob matches none).
    #[error(
        "--contexts: {entry} matches no context of the kubeconfig (it has: {known}); see `kubectl config get-contexts`"
    )]
    NoMatch {
        /// The entry, quoted and escaped.
        entry: String,
        /// The kubeconfig's context names (the first few).
        known: String,
    },
    /// An empty entry (`--contexts a,,b` or `--contexts ''`).
    #[error(
        "--contexts: an empty context name; give comma-separated names or globs, e.g. --contexts prod-eu,prod-us or --contexts 'prod-*'"
    )]
    Empty,
    /// The kubeconfig has no contexts at all.
    #[error("--contexts/--all-contexts: the kubeconfig has no contexts; add one, or drop the flag")]
    NoContexts,
}

/// Whether `name` matches `pattern`, where `*` stands for any run of characters (also
/// none) and every other character for itself (no `?` or classes: context names are
/// matched, not paths; a shell-like `*` is all `--contexts 'prod-*'` needs).
///
/// # Examples
/// ```
/// use myops::fleet::glob_match;
/// assert!(glob_match("admin*", "admin-2"));
/// assert!(glob_match("*-2", "alice-2"));
/// assert!(!glob_match("admin", "admin-2"));
/// assert!(glob_match("arn:*:cluster/prod*", "arn:aws:eks:eu-west-1:1:cluster/prod-a"));
/// ```
pub fn glob_match(pattern: &str, name: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == name;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !name.starts_with(first) || name.len() < first.len() + last.len() || !name.ends_with(last) {
        return false;
    }
    let mut rest = &name[first.len()..name.len() - last.len()];
    for mid in &parts[1..parts.len() - 1] {
        match rest.find(mid) {
            Some(i) => rest = &rest[i + mid.len()..],
            None => return false,
        }
    }
    true
}

/// The contexts to run in, in order: with `all`, every context of the kubeconfig in its
/// order; else each entry of `entries` in the order given, a glob (an entry with `*`)
/// expanding to the matching names in kubeconfig order; a context named twice runs once
/// (first place kept).
///
/// # Errors
/// [`SelectError`] (exit 2) for an empty entry, an entry that matches nothing, or a
/// kubeconfig without contexts — before any request is sent.
pub fn select(entries: &[String], all: bool, known: &[String]) -> Result<Vec<String>, SelectError> {
    if known.is_empty() {
        return Err(SelectError::NoContexts);
    }
    if all {
        let mut out: Vec<String> = Vec::new();
        for k in known {
            if !out.contains(k) {
                out.push(k.clone());
            }
        }
        return Ok(out);
    }
    let mut out: Vec<String> = Vec::new();
    for e in entries {
        if e.is_empty() {
            return Err(SelectError::Empty);
        }
        let matched: Vec<&String> = if e.contains('*') {
            known.iter().filter(|k| glob_match(e, k)).collect()
        } else {
            known.iter().filter(|k| *k == e).take(1).collect()
        };
        if matched.is_empty() {
            let mut names: Vec<String> = known
                .iter()
                .take(10)
                .map(|k| crate::base::echo::quoted(k))
                .collect();
            if known.len() > 10 {
                names.push(format!("… {} in all", known.len()));
            }
            return Err(SelectError::NoMatch {
                entry: crate::base::echo::quoted(e),
                known: names.join(", "),
            });
        }
        for m in matched {
            if !out.contains(m) {
                out.push(m.clone());
            }
        }
    }
    Ok(out)
}

/// The waves of a `patch` over `n` contexts (indexes into the selection): a canary wave of
/// the first `canary` contexts (at least one), then one wave with the rest. A failure in a
/// wave stops the ones after it ([`run`]).
///
/// # Examples
/// ```
/// use myops::fleet::waves;
/// assert_eq!(waves(5, 2), vec![0..2, 2..5]);
/// assert_eq!(waves(1, 1), vec![0..1]);
/// assert_eq!(waves(3, 9), vec![0..3]);
/// ```
pub fn waves(n: usize, canary: usize) -> Vec<std::ops::Range<usize>> {
    let c = canary.max(1).min(n);
    let mut out = Vec::new();
    if c > 0 {
        out.push(0..c);
    }
    if c < n {
        out.push(c..n);
    }
    out
}

/// How the captured outputs of the contexts are merged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// Tables (merged, `CONTEXT` column) and lines (prefixed by context and a tab).
    Cells,
    /// One JSON document per context, merged into one `List`.
    Json,
    /// One YAML document per context, merged into one `List`.
    Yaml,
    /// One KYAML document per context, merged into one `List`.
    KYaml,
}

/// One context's captured stdout, for [`merge`].
#[derive(Debug, Clone, Copy)]
pub struct Captured<'a> {
    /// The context name.
    pub context: &'a str,
    /// What it printed.
    pub chunks: &'a [Chunk],
}

impl<'a> Captured<'a> {
    /// The output of every context of `runs` that was attempted, in order (a context a failed
    /// `patch` wave left out printed nothing).
    pub fn of_attempted(runs: &'a [run::ContextRun]) -> Vec<Captured<'a>> {
        runs.iter()
            .filter(|r| r.done.is_some())
            .map(|r| Captured {
                context: &r.context,
                chunks: &r.chunks,
            })
            .collect()
    }
}

/// The objects one context printed as a JSON or YAML document: the items of a `List`, or
/// the one object; nothing for empty output.
///
/// # Errors
/// [`OutputError::Encode`] when the text is not a document of that shape (a programming
/// error: the verbs print what they print for one context).
pub fn items_of(text: &str, shape: Shape) -> Result<Vec<Value>, OutputError> {
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    let doc: Value = match shape {
        Shape::Json => {
            serde_json::from_str(text).map_err(|e| OutputError::Encode(e.to_string()))?
        }
        _ => serde_saphyr::from_str(text).map_err(|e| OutputError::Encode(e.to_string()))?,
    };
    Ok(match doc {
        Value::Object(mut m)
            if m.get("kind").and_then(Value::as_str) == Some("List")
                && m.get("items").is_some_and(Value::is_array) =>
        {
            match m.remove("items") {
                Some(Value::Array(items)) => items,
                _ => Vec::new(),
            }
        }
        Value::Null => Vec::new(),
        other => vec![other],
    })
}

/// `item` with its context in [`CONTEXT_ANNOTATION`] (metadata and annotations created when
/// missing; a non-object item is left as it is).
pub fn annotated(mut item: Value, context: &str) -> Value {
    if let Some(obj) = item.as_object_mut() {
        let meta = obj
            .entry("metadata")
            .or_insert_with(|| Value::Object(Default::default()));
        if let Some(meta) = meta.as_object_mut() {
            let ann = meta
                .entry("annotations")
                .or_insert_with(|| Value::Object(Default::default()));
            if !ann.is_object() {
                *ann = Value::Object(Default::default());
            }
            if let Some(ann) = ann.as_object_mut() {
                ann.insert(CONTEXT_ANNOTATION.into(), Value::String(context.into()));
            }
        }
    }
    item
}

/// The text `c` printed (its table chunks left out: a JSON or YAML output has none).
pub(crate) fn text_of(c: &Captured<'_>) -> String {
    c.chunks
        .iter()
        .filter_map(|ch| match ch {
            Chunk::Text(t) => Some(t.as_str()),
            Chunk::Table(_) => None,
        })
        .collect()
}

/// The merged `v1` `List` of several contexts' JSON or YAML outputs, every item annotated
/// with its context, in context order.
///
/// # Errors
/// As [`items_of`].
pub fn merged_list(outputs: &[Captured<'_>], shape: Shape) -> Result<Value, OutputError> {
    let mut items = Vec::new();
    for c in outputs {
        let text = text_of(c);
        items.extend(
            items_of(&text, shape)?
                .into_iter()
                .map(|i| annotated(i, c.context)),
        );
    }
    Ok(list_of(items))
}

/// Merges the captured outputs of the contexts (in the order given) into the text to print
/// (see the module doc for the shapes).
///
/// Cells: tables with the same key and header merge into one, `CONTEXT` first, laid out once
/// by their layout; tables appear in the order they first appear, separated by a blank line
/// when they have headers (kubectl's rule between the tables of several types); text lines
/// are prefixed by `CONTEXT\t` and come where the first text appeared. Text that is only
/// blank lines (the separators between one context's tables) is dropped. The context name
/// in a cell or prefix has its control characters escaped ([`crate::base::echo::escaped`]: `\t`,
/// `\n`, `\u{1b}`), so one row stays one line and a tab only ever ends the prefix.
///
/// # Errors
/// As [`items_of`] for the document shapes.
pub fn merge(outputs: &[Captured<'_>], shape: Shape) -> Result<String, OutputError> {
    match shape {
        Shape::Json => return kubectl_json(&merged_list(outputs, shape)?),
        Shape::Yaml => return kubectl_yaml(&merged_list(outputs, shape)?),
        Shape::KYaml => {
            return Ok(crate::output::kyaml::to_string(&sort_keys(merged_list(
                outputs, shape,
            )?)));
        }
        Shape::Cells => {}
    }
    enum Part {
        Table(TableBlock),
        Lines(String),
    }
    let mut parts: Vec<Part> = Vec::new();
    let mut lines_at: Option<usize> = None;
    for c in outputs {
        // A context name is kubeconfig text: a control character in it must neither repaint
        // the terminal nor break a row or the `CONTEXT<TAB>line` shape.
        let name = crate::base::echo::escaped(c.context);
        for ch in c.chunks {
            match ch {
                Chunk::Table(t) => {
                    let found = parts.iter_mut().find_map(|p| match p {
                        Part::Table(m)
                            if m.key == t.key
                                && m.header.is_some() == t.header.is_some()
                                && m.header.as_ref().map(|h| &h[1..]) == t.header.as_deref()
                                && m.layout == t.layout =>
                        {
                            Some(m)
                        }
                        _ => None,
                    });
                    let rows = t.rows.iter().map(|r| {
                        let mut row = Vec::with_capacity(r.len() + 1);
                        row.push(name.clone());
                        row.extend(r.iter().cloned());
                        row
                    });
                    match found {
                        Some(m) => m.rows.extend(rows),
                        None => parts.push(Part::Table(TableBlock {
                            key: t.key.clone(),
                            header: t.header.as_ref().map(|h| {
                                std::iter::once("CONTEXT".to_string())
                                    .chain(h.iter().cloned())
                                    .collect()
                            }),
                            rows: rows.collect(),
                            layout: t.layout,
                        })),
                    }
                }
                Chunk::Text(t) => {
                    if t.trim().is_empty() {
                        continue;
                    }
                    let i = *lines_at.get_or_insert_with(|| {
                        parts.push(Part::Lines(String::new()));
                        parts.len() - 1
                    });
                    if let Part::Lines(buf) = &mut parts[i] {
                        for l in t.lines() {
                            buf.push_str(&name);
                            buf.push('\t');
                            buf.push_str(l);
                            buf.push('\n');
                        }
                    }
                }
            }
        }
    }
    let mut out = String::new();
    let mut wrote_table = false;
    for p in parts {
        match p {
            Part::Table(t) => {
                if wrote_table && t.header.is_some() {
                    out.push('\n');
                }
                let mut lines = Vec::with_capacity(t.rows.len() + 1);
                lines.extend(t.header);
                lines.extend(t.rows);
                out.push_str(&t.layout.render(&lines));
                wrote_table = true;
            }
            Part::Lines(s) => out.push_str(&s),
        }
    }
    Ok(out)
}

/// A stderr line of one context, marked with it: `error: …` and `warning: …` become
/// `error: context NAME: …` and `warning: context NAME: …`, any other line
/// `context NAME: …`.
pub fn stderr_line(context: &str, line: &str) -> String {
    for tag in ["error: ", "warning: "] {
        if let Some(rest) = line.strip_prefix(tag) {
            return format!("{tag}context {context}: {rest}");
        }
    }
    format!("context {context}: {line}")
}

#[cfg(test)]
mod tests;
