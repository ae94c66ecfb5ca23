//! Reading `metadata.managedFields` (KEP-555 server-side apply, "Field management"): who
//! wrote an object since our change, and who owns a field now.

use serde_json::Value;

use super::report::Manager;
use crate::changelog::Entry;

/// The `metadata.managedFields` entries of `obj`.
fn managed(obj: &Value) -> &[Value] {
    obj.pointer("/metadata/managedFields")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// The identity of a managedFields entry: manager, operation, subresource, time.
fn entry_key(m: &Value) -> [Option<&Value>; 4] {
    ["manager", "operation", "subresource", "time"].map(|k| m.get(k))
}

/// The first 19 characters of an RFC 3339 time (`YYYY-MM-DDTHH:MM:SS`): managedFields
/// times are whole seconds.
fn second(t: &str) -> String {
    t.chars().take(19).collect()
}

/// The managedFields entries of `live` written since our change `e` (pure), newest first:
/// those the journaled after-state does not hold with the same manager, operation,
/// subresource and time; for a record without an after-state, those with a time after
/// the record's second (a write in the same second as ours is then not seen).
pub fn writers_since<'v>(e: &Entry, live: &'v Value) -> Vec<&'v Value> {
    let ours: Option<Vec<[Option<&Value>; 4]>> = e
        .after
        .as_ref()
        .filter(|a| a.pointer("/metadata/managedFields").is_some())
        .map(|a| managed(a).iter().map(entry_key).collect());
    let since = second(&e.timestamp);
    let mut out: Vec<&Value> = managed(live)
        .iter()
        .filter(|m| match &ours {
            Some(ours) => !ours.contains(&entry_key(m)),
            None => m
                .get("time")
                .and_then(Value::as_str)
                .is_some_and(|t| second(t) > since),
        })
        .collect();
    out.sort_by(|a, b| {
        let t = |m: &Value| {
            m.get("time")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string()
        };
        t(b).cmp(&t(a))
    });
    out
}

/// Whether a `fieldsV1` set holds the field at `pointer` of `obj` (pure): the field itself,
/// a field under it, or a list above it that the manager owns whole (an atomic list, a leaf
/// `{}`; an atomic map or struct cannot be told from a granular one without the schema and
/// does not count). Object fields are `f:NAME`; a list element is matched against `obj`'s
/// element at the pointer's index as `k:{"name":"web"}` (an associative list's keys), `v:…`
/// (a set's value) or `i:N` (its index) — the encoding of sigs.k8s.io/structured-merge-diff
/// `fieldpath` (serialize-pe.go). The whole object (`""`) is held by no set.
pub fn holds(set: &Value, obj: &Value, pointer: &str) -> bool {
    let mut node = set;
    let mut cur = Some(obj);
    let mut depth = 0;
    for raw in pointer.split('/').skip(1) {
        let token = raw.replace("~1", "/").replace("~0", "~");
        let Some(map) = node.as_object() else {
            return false;
        };
        if depth > 0 && map.is_empty() {
            // A leaf above the field: an atomic list owned whole. Above a map or struct it
            // is only the field's existence (its children are listed when owned; a set
            // emptied by another manager's update reads `"f:data": {}`), so not the field.
            return matches!(cur, Some(Value::Array(_)));
        }
        let next = match cur {
            Some(Value::Array(items)) => {
                let element = token.parse::<usize>().ok().and_then(|i| items.get(i));
                element.and_then(|el| {
                    map.iter()
                        .find(|(k, _)| element_matches(k, el, &token))
                        .map(|(_, v)| v)
                })
            }
            _ => map.get(&format!("f:{token}")),
        };
        let Some(next) = next else {
            return false;
        };
        node = next;
        cur = cur.and_then(|c| match c {
            Value::Array(a) => token.parse::<usize>().ok().and_then(|i| a.get(i)),
            other => other.get(&token),
        });
        depth += 1;
    }
    depth > 0
}

/// Whether the `fieldsV1` key `key` names the list element `el` at index `index`.
fn element_matches(key: &str, el: &Value, index: &str) -> bool {
    if let Some(k) = key.strip_prefix("k:") {
        serde_json::from_str::<serde_json::Map<String, Value>>(k)
            .is_ok_and(|m| m.iter().all(|(f, v)| el.get(f) == Some(v)))
    } else if let Some(v) = key.strip_prefix("v:") {
        serde_json::from_str::<Value>(v).is_ok_and(|v| &v == el)
    } else {
        key.strip_prefix("i:") == Some(index)
    }
}

/// The managers of `live` that own the field at `pointer` now ([`holds`]), newest first.
pub fn owners(live: &Value, pointer: &str) -> Vec<Manager> {
    let mut out: Vec<Manager> = managed(live)
        .iter()
        .filter(|m| {
            m.get("fieldsV1")
                .is_some_and(|set| holds(set, live, pointer))
        })
        .map(Manager::of)
        .collect();
    out.sort_by(|a, b| b.time.cmp(&a.time));
    out
}
