//! `policies verify`, purely: the probe changes generated from one rule and a real object of
//! its resource, the client judge's verdict on each, and what the API server's answer to the
//! same change (a server-side dry run with the exported ValidatingAdmissionPolicies in force)
//! says (docs/policies.md, "Proving parity: policies verify").
//!
//! A probe is an RFC 6902 JSON patch (or a delete). Its values keep the object valid for the
//! API server, because validation runs before validating admission and a 422 proves nothing:
//! a string is changed into another string (a number in it counted up, Secret `data` kept
//! base64), a number is counted up, a boolean flipped, a new map key gets a string value, and
//! a missing parent is created with one `add` of a nested value. Server-managed metadata
//! (`uid`, `resourceVersion`, `creationTimestamp`, …), `apiVersion`, `kind` and `status` are
//! never picked for a `*`: the server resets them, so a change there proves nothing either.

use serde_json::{Map, Value, json};

use super::judge::denied_changes;
use super::pattern::{PathPattern, Seg, join_pointer, parse_pattern};
use super::rule::{DeletePolicy, PolicyRule};
use super::scope::{Compiled, glob_match};

/// The key a probe adds where it needs a new one (a valid ConfigMap key, label and
/// annotation name).
pub const NEW_KEY: &str = "myops-probe";

/// The value a probe gives a new key (base64 of `probe` under a Secret's `data`).
const NEW_VALUE: &str = "probe";

/// What a probe tries, named by pointers only (a probe never shows a value: a Secret's
/// values stay out of every line `verify` prints).
#[derive(Debug, Clone, PartialEq)]
pub struct Probe {
    /// `change under /data/password`, `change beside /data/public`, `delete`, …
    pub what: String,
    /// The JSON patch; `None` for a delete.
    pub patch: Option<Value>,
}

/// The probes of rule `rule` on `object` (an object of its resource, `kind` its kind): for
/// each `deny` path a change under it (its `*` instantiated with an existing key or index,
/// else [`NEW_KEY`]), a change beside it (a sibling key), a change of its parent that also
/// changes it, then a change under each `allow` path, and a delete for `delete: deny`.
/// Duplicates are left out; a path that cannot be reached in this object (a scalar on the
/// way, a list index past the end) has no probe.
pub fn probes(rule: &PolicyRule, kind: &str, object: &Value) -> Vec<Probe> {
    let secret = kind == "Secret";
    let allow: Vec<PathPattern> = rule
        .allow
        .iter()
        .filter_map(|p| parse_pattern(p).ok())
        .collect();
    let mut out: Vec<Probe> = Vec::new();
    let mut push = |what: String, patch: Option<Value>| {
        if let Some(patch) = patch
            && !out.iter().any(|p| p.patch.as_ref() == Some(&patch))
        {
            out.push(Probe {
                what,
                patch: Some(patch),
            });
        }
    };
    for text in &rule.deny {
        let Ok(pattern) = parse_pattern(text) else {
            continue;
        };
        let Some(path) = instantiate(&pattern, object, &allow) else {
            continue;
        };
        let at = join_pointer(&path);
        push(
            format!("change under {at}"),
            change_at(object, &path, secret),
        );
        if let Some((beside, patch)) = beside(object, &path, secret) {
            push(format!("change beside {}", join_pointer(&beside)), patch);
        }
        if path.len() >= 2 {
            let parent = join_pointer(&path[..path.len() - 1]);
            push(
                format!("change of {parent} that changes {at}"),
                parent_change(object, &path, secret),
            );
        }
    }
    for pattern in &allow {
        if let Some(path) = instantiate(pattern, object, &[]) {
            push(
                format!("change under allowed {}", join_pointer(&path)),
                change_at(object, &path, secret),
            );
        }
    }
    if rule.delete == DeletePolicy::Deny {
        out.push(Probe {
            what: "delete".into(),
            patch: None,
        });
    }
    out
}

/// Whether some `deny` path of `rule` names a field `object` has (its `*` instantiated as
/// [`probes`] does): such an object shows more of the rule than one where every probe adds
/// a field, so `verify` prefers it.
pub fn reaches(rule: &PolicyRule, object: &Value) -> bool {
    rule.deny.iter().any(|text| {
        parse_pattern(text)
            .ok()
            .and_then(|p| instantiate(&p, object, &[]))
            .is_some_and(|path| at(object, &path).is_some())
    })
}

/// Whether `rule`'s `exempt:` lets `user` (in `groups`) through: the exported policy does
/// not bind them (its `not-exempt` match condition), so probes sent as them prove nothing.
pub fn exempts(rule: &PolicyRule, user: &str, groups: &[String]) -> bool {
    rule.exempt.users.iter().any(|u| glob_match(u, user))
        || rule
            .exempt
            .groups
            .iter()
            .any(|g| groups.iter().any(|have| glob_match(g, have)))
}

/// The indexes of the rules of `rules` that refuse the change from `before` to `after`, each
/// judged alone as the guarded path judges ([`denied_changes`] over the pointers
/// [`crate::rules::diff::operations`] names): the API server evaluates every policy, and
/// which of several refusals it reports is its own choice.
pub fn refusing(rules: &[Compiled], before: &Value, after: &Value) -> Vec<usize> {
    let changed: Vec<String> = crate::rules::diff::operations(before, after)
        .iter()
        .map(|op| crate::rules::diff::path_of(op).to_string())
        .collect();
    rules
        .iter()
        .filter(|r| denied_changes(std::slice::from_ref(*r), &changed, before, after).is_some())
        .map(|r| r.index)
        .collect()
}

/// `before` with the JSON patch `patch` applied (RFC 6902, the `json-patch` crate).
///
/// # Errors
/// The crate's sentence when an operation does not apply (a generator bug).
pub fn apply(before: &Value, patch: &Value) -> Result<Value, String> {
    let ops: json_patch::Patch =
        serde_json::from_value(patch.clone()).map_err(|e| format!("not a JSON patch: {e}"))?;
    let mut after = before.clone();
    json_patch::patch(&mut after, &ops).map_err(|e| e.to_string())?;
    Ok(after)
}

/// The API server's verdict on a probe.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The change went through (2xx) with no refusal of an exported policy (nor its warning).
    Allowed,
    /// Refused (403, or with `Warn` a warning) by these rules (indexes).
    Refused(Vec<usize>),
    /// Any other answer (422, 409, an RBAC 403, another policy's refusal): the probe proves
    /// nothing; the sentence says why.
    Unknown(String),
}

/// The verdict of the API server's answer to a probe: HTTP `code`, the Status `message` of a
/// failure, the `warnings` (Warning headers, RFC 7234 §5.5 text) and `policies`, the
/// exported policy name of each rule index. A refusal names its policy
/// (`ValidatingAdmissionPolicy 'NAME' with binding 'NAME' denied request: …`, Kubernetes
/// validating admission plugin) and our message says `denied by plugin.yaml policies[N]`.
pub fn verdict(
    code: u16,
    message: &str,
    warnings: &[String],
    policies: &[(usize, String)],
) -> Verdict {
    // By the policy's name only: another plugin's policy says `denied by plugin.yaml
    // policies[N]` too, and a refusal by it is not one of ours.
    let named = |text: &str| -> Option<usize> {
        policies
            .iter()
            .find(|(_, name)| text.contains(&format!("ValidatingAdmissionPolicy '{name}'")))
            .map(|(i, _)| *i)
    };
    if (200..300).contains(&code) {
        let mut warned: Vec<usize> = warnings.iter().filter_map(|w| named(w)).collect();
        warned.sort_unstable();
        warned.dedup();
        return if warned.is_empty() {
            Verdict::Allowed
        } else {
            Verdict::Refused(warned)
        };
    }
    match (code, named(message)) {
        (403, Some(i)) => Verdict::Refused(vec![i]),
        _ => Verdict::Unknown(format!("the API server answered {code}: {message}")),
    }
}

/// Whether the client's refusing rules `client` and the server's verdict agree: both allow,
/// or both refuse — with `exact` (warnings name every refusing policy) by the same rules,
/// else (a 403 names one) by a rule the client also finds refusing.
pub fn agree(client: &[usize], server: &Verdict, exact: bool) -> bool {
    match server {
        Verdict::Allowed => client.is_empty(),
        Verdict::Refused(by) if exact => {
            let mut c = client.to_vec();
            c.sort_unstable();
            c == *by
        }
        Verdict::Refused(by) => by.iter().all(|i| client.contains(i)) && !by.is_empty(),
        Verdict::Unknown(_) => false,
    }
}

/// The first field of `object` a `*` should pick at `path` (segments so far): the first key
/// or index that no `allow` covers and that the server does not reset, else the first one;
/// [`NEW_KEY`] for an absent parent or an empty map, `0` for an empty list; `None` below a
/// scalar.
fn pick(value: Option<&Value>, path: &[String], allow: &[PathPattern]) -> Option<String> {
    let keys: Vec<String> = match value {
        None | Some(Value::Null) => return Some(NEW_KEY.into()),
        Some(Value::Object(m)) if m.is_empty() => return Some(NEW_KEY.into()),
        Some(Value::Object(m)) => m.keys().cloned().collect(),
        Some(Value::Array(a)) => (0..a.len().max(1)).map(|i| i.to_string()).collect(),
        Some(_) => return None,
    };
    let usable = |k: &&String| !server_managed(path, k);
    let free = |k: &&String| {
        let mut p = path.to_vec();
        p.push((*k).clone());
        !allow.iter().any(|a| a.covers(&p))
    };
    let mut ranked: Vec<&String> = keys.iter().filter(usable).collect();
    if let Some(Value::Object(m)) = value {
        ranked.sort_by_key(|k| rank(&m[k.as_str()]));
    }
    let found = ranked
        .iter()
        .copied()
        .find(free)
        .or_else(|| ranked.first().copied())
        .cloned();
    match (found, value) {
        (Some(k), _) => Some(k),
        // A map of server-set fields only: a new key.
        (None, Some(Value::Object(_))) => Some(NEW_KEY.into()),
        (None, _) => keys.first().cloned(),
    }
}

/// The order in which a probe prefers fields to change (lower first): a number counted up
/// is almost always still valid, a string with `x` appended usually, a flipped boolean or a
/// changed container less often (an enum, an immutable selector) — and validation runs
/// before admission.
fn rank(v: &Value) -> u8 {
    match v {
        Value::Number(_) => 0,
        Value::String(_) => 1,
        Value::Bool(_) => 2,
        Value::Null => 3,
        Value::Object(_) | Value::Array(_) => 4,
    }
}

/// Whether the field `key` at `path` is one the server sets itself (a change of it is reset
/// or refused as invalid, never judged by admission).
fn server_managed(path: &[String], key: &str) -> bool {
    match path {
        [] => matches!(key, "apiVersion" | "kind" | "status"),
        [m] if m == "metadata" => matches!(
            key,
            "name"
                | "namespace"
                | "uid"
                | "resourceVersion"
                | "generation"
                | "creationTimestamp"
                | "managedFields"
                | "selfLink"
                | "deletionTimestamp"
                | "deletionGracePeriodSeconds"
                | "ownerReferences"
                | "generateName"
        ),
        _ => false,
    }
}

/// A concrete path `pattern` matches in `object`, its `*` (and a trailing `/**`, one segment
/// more) instantiated by [`pick`].
fn instantiate(
    pattern: &PathPattern,
    object: &Value,
    allow: &[PathPattern],
) -> Option<Vec<String>> {
    let mut path: Vec<String> = Vec::new();
    for seg in pattern.segments() {
        let key = match seg {
            Seg::Key(k) => k,
            Seg::Any => pick(at(object, &path), &path, allow)?,
        };
        path.push(key);
    }
    Some(path)
}

/// The value at `path` (segments) in `doc`.
fn at<'a>(doc: &'a Value, path: &[String]) -> Option<&'a Value> {
    path.iter().try_fold(doc, |v, seg| match v {
        Value::Object(m) => m.get(seg),
        Value::Array(a) => seg.parse::<usize>().ok().and_then(|i| a.get(i)),
        _ => None,
    })
}

/// `value` changed, keeping its type: a string into another string (its last number counted
/// up, else `x` appended; under a Secret's `data`, other base64), a number counted up, a
/// boolean flipped, `null` into a string.
fn changed_scalar(value: &Value, base64: bool) -> Value {
    match value {
        Value::String(s) if base64 => {
            let probe = b64(NEW_VALUE.as_bytes());
            if *s == probe {
                Value::String(b64(b"probe-2"))
            } else {
                Value::String(probe)
            }
        }
        Value::String(s) => Value::String(counted_up(s)),
        Value::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => json!(i.saturating_add(1)),
            (None, Some(f)) => json!(f + 1.0),
            _ => json!(1),
        },
        Value::Bool(b) => Value::Bool(!b),
        _ => Value::String(NEW_VALUE.into()),
    }
}

/// `s` with its trailing run of digits counted up (`web:1` → `web:2`, `9` → `10`), else with
/// `x` appended: a label value, an image or a quantity stays valid.
fn counted_up(s: &str) -> String {
    let digits = s.len() - s.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 || digits > 18 {
        return format!("{s}x");
    }
    let (head, tail) = s.split_at(s.len() - digits);
    let n: u64 = tail.parse().unwrap_or(0);
    format!("{head}{}", n + 1)
}

/// Whether the field at `path` is a Secret value (base64 in `data`).
fn is_secret_value(path: &[String], secret: bool) -> bool {
    secret && path.first().is_some_and(|s| s == "data")
}

/// The first scalar at or below `path` in `doc` (maps by their first key, lists by item 0),
/// or the path of an empty map to add [`NEW_KEY`] to; `None` for an empty list.
fn first_leaf(doc: &Value, path: &[String]) -> Option<(Vec<String>, bool)> {
    let mut path = path.to_vec();
    let mut v = at(doc, &path)?;
    loop {
        match v {
            Value::Object(m) if m.is_empty() => {
                path.push(NEW_KEY.into());
                return Some((path, false));
            }
            Value::Object(m) => {
                // Only fields the server sets: a new key is the change that stays.
                let Some(key) = m
                    .iter()
                    .filter(|(k, _)| !server_managed(&path, k))
                    .min_by_key(|(_, v)| rank(v))
                    .map(|(k, _)| k.clone())
                else {
                    path.push(NEW_KEY.into());
                    return Some((path, false));
                };
                v = &m[&key];
                path.push(key);
            }
            Value::Array(a) => {
                v = a.first()?;
                path.push("0".into());
            }
            _ => return Some((path, true)),
        }
    }
}

/// The operation that changes the field at `path` of `doc`: a `replace` of its first scalar
/// ([`first_leaf`]) when it exists, else one `add` creating the missing part (`None` when
/// the way is blocked by a scalar or a list index past the end).
fn change_op(doc: &Value, path: &[String], secret: bool) -> Option<Value> {
    if at(doc, path).is_some() {
        let (leaf, exists) = first_leaf(doc, path)?;
        let base64 = is_secret_value(&leaf, secret);
        let value = if exists {
            changed_scalar(at(doc, &leaf)?, base64)
        } else {
            new_value(base64)
        };
        let op = if exists { "replace" } else { "add" };
        return Some(json!({"op": op, "path": join_pointer(&leaf), "value": value}));
    }
    // The deepest existing ancestor, and one `add` of the rest as a nested value.
    let depth = (0..path.len())
        .rev()
        .find(|d| at(doc, &path[..*d]).is_some())?;
    let parent = at(doc, &path[..depth])?;
    let first = &path[depth];
    match parent {
        Value::Object(_) => {}
        Value::Array(a) if first.parse::<usize>().ok() == Some(a.len()) => {}
        _ => return None,
    }
    let mut value = new_value(is_secret_value(path, secret));
    for seg in path[depth + 1..].iter().rev() {
        value = if seg == "0" {
            json!([value])
        } else if seg.parse::<usize>().is_ok() {
            return None;
        } else {
            let mut m = Map::new();
            m.insert(seg.clone(), value);
            Value::Object(m)
        };
    }
    Some(json!({"op": "add", "path": join_pointer(&path[..=depth]), "value": value}))
}

/// `bytes` as standard base64 (RFC 4648 §4), how a Secret's `data` holds values.
fn b64(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// The value of a new field: `probe` (base64 under a Secret's `data`).
fn new_value(base64: bool) -> Value {
    if base64 {
        Value::String(b64(NEW_VALUE.as_bytes()))
    } else {
        Value::String(NEW_VALUE.into())
    }
}

/// The patch changing the field at `path` ([`change_op`]).
fn change_at(doc: &Value, path: &[String], secret: bool) -> Option<Value> {
    change_op(doc, path, secret).map(|op| json!([op]))
}

/// A sibling of `path` and the patch changing it: an existing sibling (another key, another
/// index) when there is one, else a new key [`NEW_KEY`] of a map.
fn beside(doc: &Value, path: &[String], secret: bool) -> Option<(Vec<String>, Option<Value>)> {
    let (last, parent_path) = path.split_last()?;
    let sibling = match at(doc, parent_path)? {
        Value::Object(m) => m
            .iter()
            .filter(|(k, _)| *k != last && !server_managed(parent_path, k))
            .min_by_key(|(_, v)| rank(v))
            .map(|(k, _)| k.clone())
            .or_else(|| (last != NEW_KEY).then(|| NEW_KEY.to_string()))?,
        Value::Array(a) => (0..a.len()).map(|i| i.to_string()).find(|i| i != last)?,
        _ => return None,
    };
    let mut p = parent_path.to_vec();
    p.push(sibling);
    let patch = change_at(doc, &p, secret);
    Some((p, patch))
}

/// A `replace` of the parent of `path` with a copy in which the field at `path` is changed
/// ([`change_op`] applied to the copy); `None` when the parent does not exist.
fn parent_change(doc: &Value, path: &[String], secret: bool) -> Option<Value> {
    let parent_path = &path[..path.len() - 1];
    at(doc, parent_path).filter(|v| v.is_object() || v.is_array())?;
    let op = change_op(doc, path, secret)?;
    let after = apply(doc, &json!([op])).ok()?;
    let value = at(&after, parent_path)?.clone();
    Some(json!([{"op": "replace", "path": join_pointer(parent_path), "value": value}]))
}

#[cfg(test)]
#[path = "probe_tests.rs"]
mod tests;
