//! Which fields a journaled patch touched (pure), as JSON pointers: what a patch's inverse
//! restores, and what `changelog why` and `drift` read a change by.

use serde_json::Value;

/// The fields a journaled patch touched, as JSON pointers (pure): the `path` (and `from`)
/// of each JSON-patch operation; for merge and strategic patches, each leaf of the patch
/// object (a scalar, a list, or `null`), or the whole object at a level that carries a
/// strategic-merge directive (`$patch`, `$setElementOrder/…`).
pub fn touched_paths(patch_type: &str, patch: &Value) -> Vec<String> {
    fn walk(prefix: &str, v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Object(m) if !m.is_empty() && !m.keys().any(|k| k.starts_with('$')) => {
                for (k, child) in m {
                    walk(&format!("{prefix}/{}", escape(k)), child, out);
                }
            }
            _ if !prefix.is_empty() => out.push(prefix.to_string()),
            _ => {}
        }
    }
    let mut out = Vec::new();
    match (patch_type, patch) {
        ("json", Value::Array(ops)) => {
            for op in ops.iter().filter(|o| o["op"] != "test") {
                for key in ["path", "from"] {
                    if let Some(p) = op.get(key).and_then(Value::as_str) {
                        out.push(p.to_string());
                    }
                }
            }
        }
        (_, v) => walk("", v, &mut out),
    }
    out.sort();
    out.dedup();
    out
}

/// One JSON-pointer reference token (RFC 6901: `~` → `~0`, `/` → `~1`).
pub fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}
