//! The inverse of a patch (pure): which touched fields a restore may write, the JSON patch
//! that puts them back from the before-state ([`rollback_ops`]), whether they already hold
//! it ([`holds_before`]), and who changed the object since ([`last_writer`]).

use serde_json::{Value, json};

/// Whether a rollback may write `path`: not server-owned metadata (only labels and
/// annotations), not `status` (it belongs to controllers), and — for a Secret — not
/// `data`/`stringData`, whose values the change log never holds.
pub fn restorable(path: &str, secret: bool) -> bool {
    let top = path.split('/').nth(1).unwrap_or("");
    match top {
        "metadata" => {
            path.starts_with("/metadata/labels") || path.starts_with("/metadata/annotations")
        }
        "status" | "apiVersion" | "kind" | "" => false,
        "data" | "stringData" => !secret,
        _ => true,
    }
}

/// Paths a patch may carry that are bookkeeping or identity, not a change to undo (a merge
/// patch often repeats `metadata.resourceVersion` as an optimistic lock, or the name).
fn bookkeeping(path: &str) -> bool {
    const PATHS: &[&str] = &[
        "/apiVersion",
        "/kind",
        "/metadata/name",
        "/metadata/namespace",
        "/metadata/uid",
        "/metadata/resourceVersion",
        "/metadata/generation",
        "/metadata/creationTimestamp",
        "/metadata/managedFields",
        "/metadata/selfLink",
    ];
    PATHS
        .iter()
        .any(|p| path == *p || path.starts_with(&format!("{p}/")))
}

/// Touched fields a rollback cannot write whose value differs now from the before-state
/// (pure): restoring the rest and calling it "rolled back" would be a lie, so the rollback
/// is refused. Bookkeeping paths are ignored.
pub fn unrestorable_changes(current: &Value, before: &Value, touched: &[String]) -> Vec<String> {
    let secret = before.get("kind").and_then(Value::as_str) == Some("Secret");
    touched
        .iter()
        .filter(|p| !restorable(p, secret) && !bookkeeping(p))
        .filter(|p| current.pointer(p) != before.pointer(p))
        .map(|p| crate::rules::diff::dotted(p, before))
        .collect()
}

/// Whether `v` holds a value the change log masked instead of storing it: the redaction
/// marker of Secret values or the mask of the process-wide scrubber.
pub fn masked(v: &Value) -> bool {
    match v {
        Value::String(s) => s.contains(crate::base::redact::MASK) || s.contains("<redacted>"),
        Value::Array(a) => a.iter().any(masked),
        Value::Object(m) => m.values().any(masked),
        _ => false,
    }
}

/// `items` escaped and capped for a message, at most `max` of them (pure).
pub fn listed(items: &[String], max: usize) -> String {
    let mut out: Vec<String> = items
        .iter()
        .take(max)
        .map(|i| crate::base::echo::capped(i, 80))
        .collect();
    if items.len() > max {
        out.push(format!("and {} more", items.len() - max));
    }
    out.join(", ")
}

/// The rollback patch (pure): a `test` of the resourceVersion (unless `force`), then, for
/// each field the change touched, the operation that puts back its value from `before`
/// (`add`/`replace`, or `remove` when it did not exist). Fields the change did not touch —
/// including what others changed since — are left alone. Missing parents are created with
/// the shape they had before (an object or a list).
///
/// # Errors
/// The touched fields (dotted) that cannot be put back into `current` (its shape changed, or
/// the stored value was masked): a partial rollback is never built.
pub fn rollback_ops(
    current: &Value,
    before: &Value,
    touched: &[String],
    rv_after: Option<&str>,
    force: bool,
) -> Result<Vec<Value>, Vec<String>> {
    let mut ops: Vec<Value> = Vec::new();
    if !force && let Some(rv) = rv_after {
        ops.push(json!({"op": "test", "path": "/metadata/resourceVersion", "value": rv}));
    }
    let secret = before.get("kind").and_then(Value::as_str) == Some("Secret");
    let mut doc = current.clone();
    let mut failed: Vec<String> = Vec::new();
    let apply = |doc: &mut Value, op: Value, ops: &mut Vec<Value>| -> bool {
        let ok = serde_json::from_value::<json_patch::PatchOperation>(op.clone())
            .ok()
            .is_some_and(|p| json_patch::patch(doc, &[p]).is_ok());
        if ok {
            ops.push(op);
        }
        ok
    };
    for path in touched.iter().filter(|p| restorable(p, secret)) {
        let restored = match (before.pointer(path), doc.pointer(path).cloned()) {
            (Some(b), _) if masked(b) && doc.pointer(path) != Some(b) => false,
            (Some(b), Some(c)) if *b != c => apply(
                &mut doc,
                json!({"op": "replace", "path": path, "value": b}),
                &mut ops,
            ),
            (Some(b), None) => {
                // Create missing parents first (e.g. metadata.labels on an object without
                // labels), each with the shape it had in the before-state.
                let parts: Vec<&str> = path.split('/').collect();
                let mut ok = true;
                for i in 2..parts.len() {
                    let parent = parts[..i].join("/");
                    if ok && doc.pointer(&parent).is_none() {
                        let empty = match before.pointer(&parent) {
                            Some(Value::Array(_)) => json!([]),
                            _ => json!({}),
                        };
                        ok = apply(
                            &mut doc,
                            json!({"op": "add", "path": parent, "value": empty}),
                            &mut ops,
                        );
                    }
                }
                ok && apply(
                    &mut doc,
                    json!({"op": "add", "path": path, "value": b}),
                    &mut ops,
                )
            }
            (None, Some(_)) => apply(&mut doc, json!({"op": "remove", "path": path}), &mut ops),
            _ => true,
        };
        if !restored {
            failed.push(crate::rules::diff::dotted(path, before));
        }
    }
    if failed.is_empty() {
        Ok(ops)
    } else {
        Err(failed)
    }
}

/// Who changed the object since `since` (an RFC 3339 time), from managedFields: the newest
/// entry at or after it (`manager (operation) at time`) that the entry's `before` object did
/// not already hold unchanged, preferring another manager than ours on a tie.
/// Writes through some subresources (e.g. `scale`) leave no managedFields entry; then it
/// says so rather than guess.
pub fn last_writer(object: &Value, before: &Value, since: &str, ours: &str) -> String {
    // Compared to the second (`YYYY-MM-DDTHH:MM:SS`); a time from an edited log may be any
    // text, so the cut is by characters, never a byte index inside one.
    let second = |t: &str| t.chars().take(19).collect::<String>();
    let since = second(since);
    let time = |m: &Value| {
        m.get("time")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    let key =
        |m: &Value| ["manager", "operation", "subresource", "time"].map(|k| m.get(k).cloned());
    let earlier: Vec<_> = before
        .pointer("/metadata/managedFields")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(key)
        .collect();
    let earlier: Vec<&Value> = object
        .pointer("/metadata/managedFields")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|m| earlier.contains(&key(m)))
        .collect();
    object
        .pointer("/metadata/managedFields")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|m| second(&time(m)) >= since)
        // An entry the before-state already held unchanged (same manager, operation,
        // subresource and time) wrote nothing since: managedFields times are whole seconds,
        // so an object created in the same second as the change would otherwise be named.
        .filter(|m| !earlier.contains(m))
        .max_by_key(|m| {
            (
                time(m),
                m.get("manager").and_then(Value::as_str) != Some(ours),
            )
        })
        .map(|m| {
            format!(
                "{} ({}) at {}",
                m.get("manager").and_then(Value::as_str).unwrap_or("?"),
                m.get("operation").and_then(Value::as_str).unwrap_or("?"),
                time(m)
            )
        })
        .unwrap_or_else(|| {
            "a writer that managedFields does not record (such as a scale subresource update)"
                .into()
        })
}

/// Whether a writer other than `ours` changed `object` since `since` (an RFC 3339 time),
/// from managedFields: a write to the `status` subresource does not count — the server and
/// controllers keep it (a new CRD's conditions are written right after it is created), and a
/// rollback never writes it.
pub fn written_since(object: &Value, since: &str, ours: &str) -> bool {
    let second = |t: &str| t.chars().take(19).collect::<String>();
    let since = second(since);
    object
        .pointer("/metadata/managedFields")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|m| m.get("subresource").and_then(Value::as_str) != Some("status"))
        .filter(|m| m.get("manager").and_then(Value::as_str) != Some(ours))
        .any(|m| second(m.get("time").and_then(Value::as_str).unwrap_or("")) >= since)
}

/// Whether `before` is a Secret.
pub fn secret_kind(before: &Value) -> bool {
    before.get("kind").and_then(Value::as_str) == Some("Secret")
}

/// Whether every restorable field the change touched still holds its before value in
/// `current` (pure): then the change is not (or no longer) in effect.
pub fn holds_before(current: &Value, before: &Value, touched: &[String]) -> bool {
    let secret = before.get("kind").and_then(Value::as_str) == Some("Secret");
    touched
        .iter()
        .filter(|p| restorable(p, secret))
        .all(|p| current.pointer(p) == before.pointer(p))
}

/// Whether every restorable field the change touched still holds the value the change left
/// (`after`, the entry's after-state) in `current` (pure): then whoever wrote the object since
/// (a controller's annotation or status, another manager's other fields) did not touch what a
/// restore puts back, and the restore may take the resourceVersion as it is now.
pub fn holds_after(current: &Value, after: &Value, touched: &[String]) -> bool {
    let secret = after.get("kind").and_then(Value::as_str) == Some("Secret");
    touched
        .iter()
        .filter(|p| restorable(p, secret))
        .all(|p| current.pointer(p) == after.pointer(p))
}

#[cfg(test)]
mod tests;
