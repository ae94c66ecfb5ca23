//! The judgement: which denied fields a change from one object to another changes, and the
//! first rule that refuses it (the `policy` module comment says what "changes a path"
//! means).

use serde_json::Value;

use super::pattern::{join_pointer, split_pointer};
use super::scope::Compiled;

/// A denied change: the first rule (file order) that refuses, and the denied paths it found.
#[derive(Debug, Clone, PartialEq)]
pub struct Violation {
    /// Index of the rule in `policies`.
    pub index: usize,
    /// The rule's resource as written.
    pub resource: String,
    /// The rule's message.
    pub message: String,
    /// The denied paths that would change, as RFC 6901 pointers (at least one).
    pub paths: Vec<String>,
}

impl Violation {
    /// `/data/a` or `/data/a (and 2 more: /data/b, /data/c)`: paths only, never values.
    pub fn paths_text(&self) -> String {
        match self.paths.split_first() {
            Some((first, [])) => first.clone(),
            Some((first, rest)) => {
                let shown: Vec<&str> = rest.iter().take(5).map(String::as_str).collect();
                let more = if rest.len() > 5 { ", …" } else { "" };
                format!(
                    "{first} (and {} more: {}{more})",
                    rest.len(),
                    shown.join(", ")
                )
            }
            None => String::new(),
        }
    }
}

/// The first rule of `rules` (in order) that refuses the change from `before` to `after`,
/// with the denied paths it changes — `None` when no rule refuses. `changed` are the
/// pointers the structured diff of the two names ([`crate::rules::diff::operations`], bookkeeping
/// left out); the `policy` module comment says what "changes a path" means.
pub fn denied_changes(
    rules: &[Compiled],
    changed: &[String],
    before: &Value,
    after: &Value,
) -> Option<Violation> {
    let changed: Vec<Vec<String>> = changed.iter().map(|p| split_pointer(p)).collect();
    rules.iter().find_map(|rule| {
        let mut paths = Vec::new();
        for p in &changed {
            judge(rule, p.clone(), before, after, &mut paths);
        }
        (!paths.is_empty()).then(|| Violation {
            index: rule.index,
            resource: rule.rule.resource.clone(),
            message: rule.rule.message.clone(),
            paths: paths.iter().map(|p| join_pointer(p)).collect(),
        })
    })
}

/// The first rule of `rules` (in order: the one a refusal names) that forbids deleting the
/// object they were matched for ([`super::matching`]): `delete: deny`. `None` when no rule
/// does — `deny` paths never forbid a delete ([`super::PolicyRule`] says why).
pub fn forbids_delete(rules: &[Compiled]) -> Option<&Compiled> {
    rules
        .iter()
        .find(|r| r.rule.delete == super::DeletePolicy::Deny)
}

/// The value at `path` (segments) in `doc`.
fn at<'a>(doc: &'a Value, path: &[String]) -> Option<&'a Value> {
    path.iter().try_fold(doc, |v, seg| match v {
        Value::Object(m) => m.get(seg),
        Value::Array(a) => seg.parse::<usize>().ok().and_then(|i| a.get(i)),
        _ => None,
    })
}

/// The child segments of the values at `path` in either document (map keys, list indexes).
fn children(before: Option<&Value>, after: Option<&Value>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for v in [before, after].into_iter().flatten() {
        let keys: Vec<String> = match v {
            Value::Object(m) => m.keys().cloned().collect(),
            Value::Array(a) => (0..a.len()).map(|i| i.to_string()).collect(),
            _ => Vec::new(),
        };
        for k in keys {
            if !out.contains(&k) {
                out.push(k);
            }
        }
    }
    out
}

/// Adds to `out` the denied paths at or below `path` whose value differs between the two
/// documents, by `rule` (see the `policy` module comment).
fn judge(
    rule: &Compiled,
    path: Vec<String>,
    before: &Value,
    after: &Value,
    out: &mut Vec<Vec<String>>,
) {
    let (b, a) = (at(before, &path), at(after, &path));
    if b == a || rule.allow.iter().any(|al| al.covers(&path)) {
        return;
    }
    let denied = rule.deny.iter().any(|d| d.covers(&path));
    let allow_below = rule.allow.iter().any(|al| al.lies_below(&path));
    let deny_below = rule.deny.iter().any(|d| d.lies_below(&path));
    // Split into children only where both sides are maps or lists of one kind (or absent):
    // a value replaced by a scalar, or a map by a list, changes the path itself.
    let shape = |v: Option<&Value>| match v {
        None => 0,
        Some(Value::Object(_)) => 1,
        Some(Value::Array(_)) => 2,
        Some(_) => 3,
    };
    let (sb, sa) = (shape(b), shape(a));
    let splittable = sb != 3 && sa != 3 && (sb == 0 || sa == 0 || sb == sa);
    if denied && !(allow_below && splittable) {
        if !out.contains(&path) {
            out.push(path);
        }
    } else if (denied && allow_below) || deny_below {
        for k in children(b, a) {
            let mut child = path.clone();
            child.push(k);
            judge(rule, child, before, after, out);
        }
    }
}
