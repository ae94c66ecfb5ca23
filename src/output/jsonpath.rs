//! kubectl's JSONPath *template* language (`-o jsonpath=…`, `jsonpath-file=`,
//! `jsonpath-as-json=`, and the cells of `-o custom-columns`): `{.a.b}`, `{.items[*].x}`,
//! `{range .items[*]}…{end}`, filters `[?(@.x=="y")]`, quoted literals `{"\n"}`, recursive
//! `..`, slices `[0:2:1]`, unions `[0,1]`, `['key']`, `@` and `$`.
//!
//! A port of `k8s.io/client-go/util/jsonpath` (parser.go, jsonpath.go, v0.36.3): RFC 9535
//! JSONPath crates implement neither the template text nor `range`, and no maintained crate on
//! crates.io implements this language, so the parser and evaluator follow client-go step by
//! step — including its quirks (a literal inside an action yields one value whatever the
//! input, a missing key is skipped unless `--allow-missing-template-keys=false`). Values are
//! printed as kubectl prints them: strings bare, numbers and booleans as Go's `fmt`, maps and
//! arrays as Go's `encoding/json` (keys sorted, `<`, `>` and `&` escaped), several values of
//! one action separated by one space.

use serde_json::Value;

mod eval;
mod parse;
mod print;
#[cfg(test)]
mod tests;

pub use print::{go_json, go_sprint};

use eval::{Exec, find};
use parse::{Parser, Top};
use print::{go_json_indent, go_text};

/// How much of a template an error message shows: input echoed back is capped.
const SHOWN_CHARS: usize = 200;

/// A template that could not be parsed, or could not be applied to an object.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JsonPathError {
    /// The template is not valid kubectl JSONPath (usage error, exit 2).
    #[error(
        "error parsing jsonpath {}, {reason} (at character {position}); fix the template (syntax: https://kubernetes.io/docs/reference/kubectl/jsonpath/)",
        crate::base::echo::capped(template, SHOWN_CHARS)
    )]
    Parse {
        /// The template as given.
        template: String,
        /// client-go's reason, e.g. `unterminated array`.
        reason: String,
        /// 1-based character position where the parser stopped.
        position: usize,
    },
    /// The template is valid but does not fit the object (runtime failure, exit 1), e.g. an
    /// index out of bounds or a missing key with `--allow-missing-template-keys=false`.
    #[error(
        "error executing jsonpath {}: {reason}; fix the template or pass --allow-missing-template-keys=true",
        crate::base::echo::capped(template, SHOWN_CHARS)
    )]
    Execute {
        /// The template as given.
        template: String,
        /// client-go's reason, e.g. `array index out of bounds: index 5, length 2`.
        reason: String,
    },
}

/// A parsed kubectl JSONPath template.
#[derive(Debug, Clone, PartialEq)]
pub struct Template {
    source: String,
    root: Vec<Top>,
}

/// How a template's results are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PrintOptions {
    /// `--allow-missing-template-keys` (kubectl's default `true`): a missing key is skipped
    /// instead of failing.
    pub allow_missing_keys: bool,
    /// `-o jsonpath-as-json`: each action's results printed as one indented JSON array.
    pub as_json: bool,
}

impl Default for PrintOptions {
    fn default() -> Self {
        PrintOptions {
            allow_missing_keys: true,
            as_json: false,
        }
    }
}

impl Template {
    /// Parses `text` as client-go's parser does.
    ///
    /// # Errors
    /// [`JsonPathError::Parse`] naming client-go's reason and the character where parsing
    /// stopped.
    pub fn parse(text: &str) -> Result<Template, JsonPathError> {
        let mut p = Parser::new(text);
        match p.parse_text() {
            Ok(()) => Ok(Template {
                source: text.to_string(),
                root: p.root,
            }),
            Err(reason) => Err(JsonPathError::Parse {
                template: text.to_string(),
                reason,
                position: text[..p.pos.min(text.len())].chars().count().max(1),
            }),
        }
    }

    /// The results of each top-level element (jsonpath.go `FindResults`), one vector per
    /// printed group.
    ///
    /// # Errors
    /// [`JsonPathError::Execute`] when the template does not fit `data`.
    pub fn find_results(
        &self,
        data: &Value,
        allow_missing_keys: bool,
    ) -> Result<Vec<Vec<Value>>, JsonPathError> {
        let mut ex = Exec {
            allow_missing: allow_missing_keys,
            in_range: 0,
            begin: false,
            end: false,
        };
        find(&mut ex, &self.root, data)
            .map(|(r, _)| r)
            .map_err(|reason| JsonPathError::Execute {
                template: self.source.clone(),
                reason,
            })
    }

    /// The template applied to `data`, printed as kubectl prints it (jsonpath.go
    /// `Execute`/`PrintResults`); no newline is added.
    ///
    /// # Errors
    /// [`JsonPathError::Execute`] when the template does not fit `data`.
    pub fn render(&self, data: &Value, opts: PrintOptions) -> Result<String, JsonPathError> {
        let groups = self.find_results(data, opts.allow_missing_keys)?;
        let mut out = String::new();
        for g in groups {
            if opts.as_json {
                out.push_str(&go_json_indent(&Value::Array(g), 0));
                out.push('\n');
                continue;
            }
            for (i, v) in g.iter().enumerate() {
                match v {
                    Value::Object(_) | Value::Array(_) => out.push_str(&go_json(v)),
                    other => out.push_str(&go_text(other)),
                }
                if i + 1 != g.len() {
                    out.push(' ');
                }
            }
        }
        Ok(out)
    }
}
