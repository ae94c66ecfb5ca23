//! Multi-document YAML (and JSON, which is YAML) text to located documents (pure and total):
//! the one reader of manifest files, shared by the CRD loader ([`super::loader`]) and
//! `apply -f`.
//!
//! The text is read as a stream ([`serde_saphyr::read_with_options`]): one document is
//! built at a time, so a caller that checks each document and keeps only what it needs holds
//! one document in memory, not the file's ten thousand. The parser's budget is per document
//! in a stream (its defence against YAML bombs and over-deep nesting); [`Limits::documents`]
//! bounds how many documents one file may hold. Every error is located (`file:line:column`)
//! and quotes nothing of the document but the parser's first line, escaped and capped.

use std::ops::ControlFlow;
use std::path::Path;

use serde_json::Value;
use serde_saphyr::Spanned;

use super::loader::LoadError;

/// Longest message of a YAML error, in characters: the scanner's own text may quote the
/// document, and a document is whatever the file holds.
const MAX_YAML_MESSAGE_CHARS: usize = 200;

/// One non-empty document of a file, with where it starts.
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    /// 1-based line of the document's first node.
    pub line: u64,
    /// 1-based column of the document's first node.
    pub column: u64,
    /// The document.
    pub value: Value,
}

/// How much one file may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most non-empty documents in one file.
    pub documents: usize,
    /// What the error says to do when a file holds more (`split it …`).
    pub advice: &'static str,
}

/// The limits of a CRD file: serde-saphyr's default document budget (1,024), far more
/// CRDs than any bundle holds.
pub const CRD_LIMITS: Limits = Limits {
    documents: 1_024,
    advice: "split it into several files",
};

/// Hands each document of `text` (from `file`, for locations) to `each`, in order, as soon as
/// it is parsed (pure and total: never panics, whatever the text); `each` stops the reading
/// by returning [`ControlFlow::Break`]. Empty and `null` documents are skipped; duplicate
/// keys are an error.
///
/// # Errors
/// The first [`LoadError`]: a YAML error (located where the parser stopped), or more than
/// [`Limits::documents`] documents (located at the first one too many). The documents
/// before it have been handed over already: a caller that must not act on a bad file reads
/// it whole once before acting.
pub fn each_document(
    text: &str,
    file: &Path,
    limits: Limits,
    mut each: impl FnMut(Document) -> ControlFlow<()>,
) -> Result<(), LoadError> {
    let options = serde_saphyr::options! {
        duplicate_keys: serde_saphyr::DuplicateKeyPolicy::Error,
        with_snippet: false,
    };
    let mut reader = text.as_bytes();
    let mut count = 0usize;
    for doc in serde_saphyr::read_with_options::<_, Spanned<Value>>(&mut reader, options) {
        let doc = doc.map_err(|e| yaml_error(&e, file))?;
        if doc.value.is_null() {
            continue;
        }
        count += 1;
        let (line, column) = (doc.referenced.line().max(1), doc.referenced.column().max(1));
        if count > limits.documents {
            return Err(LoadError {
                file: file.to_path_buf(),
                line,
                column,
                message: format!(
                    "the file holds more than {} documents; {}",
                    limits.documents, limits.advice
                ),
            });
        }
        let flow = each(Document {
            line,
            column,
            value: doc.value,
        });
        if flow.is_break() {
            break;
        }
    }
    Ok(())
}

/// `bytes` as UTF-8 text (pure).
///
/// # Errors
/// [`LoadError`] of `file` located at the first byte that is not UTF-8.
pub fn utf8<'b>(bytes: &'b [u8], file: &Path) -> Result<&'b str, LoadError> {
    std::str::from_utf8(bytes).map_err(|e| {
        let valid = &bytes[..e.valid_up_to()];
        let line = valid.iter().filter(|b| **b == b'\n').count() as u64 + 1;
        let after_nl = valid
            .iter()
            .rposition(|b| *b == b'\n')
            .map_or(valid, |i| &valid[i + 1..]);
        // `valid` is UTF-8 up to the bad byte, so the tail of its last line is too.
        let column = std::str::from_utf8(after_nl).map_or(0, |t| t.chars().count()) as u64 + 1;
        LoadError {
            file: file.to_path_buf(),
            line,
            column,
            message: "the file is not UTF-8 text: save it as UTF-8".into(),
        }
    })
}

/// A parser error as a located [`LoadError`] of `file`.
fn yaml_error(e: &serde_saphyr::Error, file: &Path) -> LoadError {
    let (line, column) = e
        .location()
        .map(|l| (l.line(), l.column()))
        .unwrap_or((1, 1));
    LoadError {
        file: file.to_path_buf(),
        line: line.max(1),
        column: column.max(1),
        message: format!("invalid YAML: {}", yaml_message(e)),
    }
}

/// The first line of a YAML error's message, control characters escaped and cut after
/// [`MAX_YAML_MESSAGE_CHARS`] characters. A breach of serde-saphyr's default budget (its
/// defence against YAML bombs and stack exhaustion: at most 250,000 nodes, 64 levels of
/// nesting, …) is said in words, with what to do.
pub fn yaml_message(e: &serde_saphyr::Error) -> String {
    use serde_saphyr::{Error, budget::BudgetBreach};
    let mut inner = e;
    while let Error::AliasError { error, .. } | Error::WithSnippet { error, .. } = inner {
        inner = error;
    }
    if let Error::Budget { breach, .. } = inner {
        return match breach {
            BudgetBreach::Depth { .. } => "it nests deeper than 64 levels, more than any manifest needs; check where the file came from".to_string(),
            BudgetBreach::Nodes { nodes } => format!(
                "it expands to more than {} nodes (a YAML bomb, or one very large document): split it, or check where it came from",
                nodes.saturating_sub(1)
            ),
            _ => "it uses more anchors, aliases, documents or text than any manifest needs (a YAML bomb?); check where the file came from".to_string(),
        };
    }
    let text = e.to_string();
    let first = text.lines().next().unwrap_or("");
    crate::base::echo::capped(first, MAX_YAML_MESSAGE_CHARS)
}
