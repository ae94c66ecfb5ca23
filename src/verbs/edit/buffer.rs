//! The file `edit` hands to the editor and what it reads back (pure): kubectl's header
//! comment with the reasons a save failed, the object as YAML or JSON, comments stripped,
//! the edited object checked and turned into a patch.
//!
//! Source of the rules: kubectl `pkg/cmd/util/editor/editoptions.go` (`editHeader.writeTo`,
//! `hashOnLineBreak`, `hasLines`, the `RequireKeyUnchanged` preconditions of `visitToPatch`)
//! and `pkg/cmd/util/helpers.go` (`ManualStrip`).

use serde_json::{Map, Value};

/// kubectl's header above a YAML buffer (`editHeader.writeTo`, normal edit mode), byte for byte.
pub const HEADER: &str = "# Please edit the object below. Lines beginning with a '#' will be ignored,\n# and an empty file will abort the edit. If an error occurs while saving this file will be\n# reopened with the relevant failures.\n#\n";

/// Why the file is re-opened: a head line and its details (kubectl's `editReason`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reason {
    /// `configmaps "c1" was not valid`, or the syntax error.
    pub head: String,
    /// One line per cause (`field: message`), printed as `# * …`.
    pub other: Vec<String>,
}

/// The header with `reasons` under it, as kubectl writes it: `# head:` (with details) or
/// `# head`, then `# * detail` lines, then `#`; a line break inside a text continues the
/// comment (`hashOnLineBreak`).
pub fn header(reasons: &[Reason]) -> String {
    let mut out = HEADER.to_string();
    for r in reasons {
        let colon = if r.other.is_empty() { "" } else { ":" };
        out.push_str(&format!("# {}{colon}\n", hash_on_line_break(&r.head)));
        for o in &r.other {
            out.push_str(&format!("# * {}\n", hash_on_line_break(o)));
        }
        out.push_str("#\n");
    }
    out
}

/// kubectl's `hashOnLineBreak`: a `\n` not followed by `#` continues as `\n# `.
fn hash_on_line_break(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, chars.peek()) {
            ('\n', Some(&next)) if next != '#' => out.push_str("\n# "),
            _ => out.push(c),
        }
    }
    out
}

/// The object as the editor shows it: `metadata.managedFields` left out (kubectl's
/// `extractManagedFields`; they are put back by leaving them out of the patch), then
/// kubectl's YAML under [`HEADER`] (with `reasons`), or kubectl's JSON without a header
/// (kubectl writes none for `-o json`: a comment is not JSON).
///
/// # Errors
/// The encoder's message (not expected: both encoders are total on JSON values).
pub fn render(object: &Value, json: bool, reasons: &[Reason]) -> Result<String, String> {
    let shown = without_managed_fields(object);
    if json {
        crate::output::json::kubectl_json(&shown).map_err(|e| e.to_string())
    } else {
        let body = crate::output::objects::kubectl_yaml(&shown).map_err(|e| e.to_string())?;
        Ok(header(reasons) + &body)
    }
}

/// `object` without `metadata.managedFields`.
pub fn without_managed_fields(object: &Value) -> Value {
    let mut shown = object.clone();
    if let Some(m) = shown.get_mut("metadata").and_then(Value::as_object_mut) {
        m.remove("managedFields");
    }
    shown
}

/// The buffer without comment lines (kubectl's `ManualStrip`: a line whose first
/// non-blank character is `#`, except `#!`).
pub fn strip_comments(text: &str) -> String {
    text.split('\n')
        .filter(|l| {
            let t = l.trim();
            !t.starts_with('#') || t.starts_with("#!")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Whether any line holds something other than blanks or a comment (kubectl's `hasLines`):
/// a buffer without one aborts the edit, as the header promises.
pub fn has_content(text: &str) -> bool {
    text.lines().any(|l| {
        let t = l.trim();
        !t.is_empty() && !t.starts_with('#')
    })
}

/// Parses the edited buffer (comments stripped) as one object.
///
/// # Errors
/// kubectl's wording for the header: `The edited file had a syntax error: …` with the
/// parser's line and column; never a quote of the buffer (it may hold Secret values).
pub fn parse(text: &str) -> Result<Value, String> {
    let stripped = strip_comments(text);
    let value = if stripped.trim_start().starts_with('{') {
        serde_json::from_str::<Value>(&stripped).map_err(|e| {
            format!(
                "The edited file had a syntax error: line {} column {}: {}",
                e.line(),
                e.column(),
                json_reason(&e)
            )
        })?
    } else {
        serde_saphyr::from_str::<Value>(&stripped).map_err(|e| {
            let (line, column) = e
                .location()
                .map(|l| (l.line(), l.column()))
                .unwrap_or((1, 1));
            format!(
                "The edited file had a syntax error: line {line} column {column}: the file is not valid YAML"
            )
        })?
    };
    match value {
        Value::Object(_) => Ok(value),
        _ => Err("The edited file had a syntax error: the file is not one object (a mapping with apiVersion, kind and metadata)".into()),
    }
}

/// The JSON parser's category of error, without the text it quotes.
fn json_reason(e: &serde_json::Error) -> &'static str {
    use serde_json::error::Category;
    match e.classify() {
        Category::Eof => "unexpected end of the file",
        Category::Syntax => "the file is not valid JSON",
        Category::Data | Category::Io => "the file is not a JSON object",
    }
}

/// Refuses a change of `apiVersion`, `kind`, `metadata.name` or `metadata.namespace`
/// between `original` and `edited` (kubectl's `RequireKeyUnchanged` preconditions and
/// `RequireNamespace`): an edit changes one object, it does not rename or move it.
///
/// # Errors
/// kubectl's sentence `At least one of apiVersion, kind and name was changed`, or for the
/// namespace kubectl's `the namespace from the provided object "x" does not match the
/// namespace "y". You must pass '--namespace=x' to perform this operation.`
pub fn check_identity(original: &Value, edited: &Value) -> Result<(), String> {
    let same = |p: &str| original.pointer(p) == edited.pointer(p);
    if !(same("/apiVersion") && same("/kind") && same("/metadata/name")) {
        return Err("At least one of apiVersion, kind and name was changed".into());
    }
    let ns = |v: &Value| {
        v.pointer("/metadata/namespace")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    let (was, now) = (ns(original), ns(edited));
    if !now.is_empty() && now != was {
        return Err(format!(
            "the namespace from the provided object {} does not match the namespace {}. You must pass '--namespace={}' to perform this operation.",
            crate::base::echo::quoted(&now),
            crate::base::echo::quoted(&was),
            crate::base::echo::bare(&now)
        ));
    }
    Ok(())
}

/// The JSON merge patch (RFC 7386) that turns `original` into `edited`, `None` when they
/// are equal: changed members set, removed members `null`, lists replaced whole. Managed
/// fields are never part of it (the buffer does not show them).
pub fn merge_patch(original: &Value, edited: &Value) -> Option<Value> {
    let (o, e) = (
        without_managed_fields(original),
        without_managed_fields(edited),
    );
    diff(&o, &e)
}

fn diff(original: &Value, edited: &Value) -> Option<Value> {
    match (original, edited) {
        (Value::Object(o), Value::Object(e)) => {
            let mut patch = Map::new();
            for (k, ov) in o {
                match e.get(k) {
                    None => {
                        patch.insert(k.clone(), Value::Null);
                    }
                    Some(ev) => {
                        if let Some(d) = diff(ov, ev) {
                            patch.insert(k.clone(), d);
                        }
                    }
                }
            }
            for (k, ev) in e {
                if !o.contains_key(k) {
                    patch.insert(k.clone(), ev.clone());
                }
            }
            (!patch.is_empty()).then_some(Value::Object(patch))
        }
        // A null inside an object value of a merge patch means "remove": an edited member
        // that is an object replacing a non-object is sent whole.
        (o, e) if o == e => None,
        (_, e) => Some(e.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_header_is_kubectls_with_reasons_as_comments() {
        let h = header(&[Reason {
            head: "configmaps \"c1\" was not valid".into(),
            other: vec!["metadata.labels: Invalid value\nsecond line".into()],
        }]);
        assert!(h.starts_with(HEADER));
        assert!(h.ends_with(
            "# configmaps \"c1\" was not valid:\n# * metadata.labels: Invalid value\n# second line\n#\n"
        ));
        assert_eq!(
            header(&[Reason {
                head: "x".into(),
                other: vec![]
            }]),
            format!("{HEADER}# x\n#\n")
        );
    }

    #[test]
    fn comments_are_stripped_and_an_all_comment_buffer_is_empty() {
        assert_eq!(strip_comments("# a\nb: 1\n  # c\n#!x\n"), "b: 1\n#!x\n");
        assert!(!has_content(&format!("{HEADER}\n   \n")));
        assert!(has_content("a: 1"));
    }

    #[test]
    fn the_patch_sets_changed_fields_and_nulls_removed_ones() {
        let a = json!({"kind":"ConfigMap","metadata":{"name":"c","managedFields":[1],"labels":{"x":"1"}},"data":{"a":"1","b":"2"}});
        let b = json!({"kind":"ConfigMap","metadata":{"name":"c","labels":{"x":"1","y":"2"}},"data":{"a":"9"}});
        assert_eq!(
            merge_patch(&a, &b).unwrap(),
            json!({"metadata":{"labels":{"y":"2"}},"data":{"a":"9","b":null}})
        );
        assert_eq!(merge_patch(&a, &a), None);
        let mut applied = a.clone();
        json_patch::merge(&mut applied, &merge_patch(&a, &b).unwrap());
        assert_eq!(without_managed_fields(&applied), b);
    }

    #[test]
    fn a_renamed_or_rekinded_or_moved_object_is_refused() {
        let a =
            json!({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"n"}});
        let mut b = a.clone();
        b["metadata"]["name"] = json!("d");
        assert_eq!(
            check_identity(&a, &b).unwrap_err(),
            "At least one of apiVersion, kind and name was changed"
        );
        let mut b = a.clone();
        b["kind"] = json!("Secret");
        assert!(check_identity(&a, &b).is_err());
        let mut b = a.clone();
        b["metadata"]["namespace"] = json!("m");
        assert!(
            check_identity(&a, &b)
                .unwrap_err()
                .contains("--namespace=m")
        );
        let mut b = a.clone();
        b["metadata"].as_object_mut().unwrap().remove("namespace");
        assert!(check_identity(&a, &b).is_ok());
    }

    #[test]
    fn a_syntax_error_names_the_line_and_never_quotes_the_buffer() {
        let e = parse("data:\n  pw: [s3cr3tV4lue\n").unwrap_err();
        assert!(
            e.starts_with("The edited file had a syntax error: line"),
            "{e}"
        );
        assert!(!e.contains("s3cr3tV4lue"), "{e}");
        let e = parse("{\"data\": {\"pw\": \"s3cr3tV4lue\"").unwrap_err();
        assert!(!e.contains("s3cr3tV4lue"), "{e}");
        assert!(parse("- a\n").is_err());
        assert_eq!(parse("# c\na: 1\n").unwrap(), json!({"a": 1}));
    }
}
