//! Which entries the hash chain contradicts ([`contradicted`], pure): the check `rollback`
//! makes before it writes a journaled before-state back.

use std::collections::HashMap;

use serde_json::Value;

use crate::changelog::{chain, judge, lines};

/// The entries whose records the hash chain contradicts, with the first reason for each
/// (pure). A record of the id that does not match its `hash` was edited after it was
/// written; one without `hash` although records before it have one was inserted, or its
/// hash stripped to pass as older than the chain. When a record's `prev` is not the hash of
/// the valid record before it, both are contradicted: the earlier one may have been edited
/// with its hash recomputed, or the later one inserted. (`changelog.head` is not consulted:
/// records removed from the end contradict no remaining entry, and whoever recomputes a hash
/// can rewrite the head too.) `rollback` refuses such an entry before anything is sent: its
/// before-state is what would be written to the cluster, and an edited one must not be. Breaks
/// that touch no record of the entry — a line torn by a crash, records removed from the end
/// — are `changelog verify`'s to report and do not block it. `files` is
/// [`crate::changelog::read_files`]'s, oldest first.
pub fn contradicted(files: &[(String, Vec<u8>)]) -> HashMap<String, String> {
    fn flag(out: &mut HashMap<String, String>, id: &str, why: String) {
        out.entry(id.to_string()).or_insert(why);
    }
    let mut out: HashMap<String, String> = HashMap::new();
    // The last valid hashed record: its hash (the next one's `prev`), id and place.
    let mut last: Option<(String, String, String)> = None;
    for (name, bytes) in files {
        // Records before the chain starts (no hash, no hashed record yet): the chain's first
        // record carries the digest of exactly those bytes as its `prev`.
        let mut legacy: Vec<(String, String)> = Vec::new();
        for (line, raw, unterminated) in lines(bytes) {
            let Ok(entry) = judge(raw, unterminated) else {
                continue; // the writer chains over a bad line, so does this
            };
            let Ok(map) = serde_json::from_slice::<serde_json::Map<String, Value>>(raw) else {
                continue;
            };
            let at = format!("{name} line {line}");
            let Some(hash) = map.get("hash").and_then(Value::as_str).map(str::to_string) else {
                if last.is_none() {
                    legacy.push((entry.id.clone(), at.clone()));
                }
                if last.is_some() {
                    let why = format!(
                        "its record at {at} has no hash although records before it do: it was inserted or its hash removed"
                    );
                    flag(&mut out, &entry.id, why);
                }
                continue;
            };
            if last.is_none() && !legacy.is_empty() {
                let offset = raw.as_ptr() as usize - bytes.as_ptr() as usize;
                let expected = chain::legacy_digest(&bytes[..offset]);
                if map.get("prev").and_then(Value::as_str) != Some(expected.as_str()) {
                    for (id, legacy_at) in &legacy {
                        let why = format!(
                            "its record at {legacy_at} comes before the hash chain, but the chain's first record ({at}) does not chain to the records before it: one was inserted, edited or removed"
                        );
                        flag(&mut out, id, why);
                    }
                }
            }
            if chain::hash_of(&map) != hash {
                let why = format!(
                    "its record at {at} does not match its hash: it was edited after it was written"
                );
                flag(&mut out, &entry.id, why);
            }
            if let Some((prev, prev_id, prev_at)) = &last
                && map.get("prev").and_then(Value::as_str) != Some(prev.as_str())
            {
                let why = format!(
                    "its record at {at} does not chain to the one at {prev_at}: it was inserted or moved, or that one edited"
                );
                flag(&mut out, &entry.id, why);
                let why = format!(
                    "the record after its record at {prev_at} does not chain to it: it was edited (its hash recomputed), or a record inserted after it"
                );
                flag(&mut out, prev_id, why);
            }
            last = Some((hash, entry.id, at));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn an_unhashed_record_prepended_to_a_chained_log_was_trusted_by_rollback() {
        use crate::changelog::chain::{legacy_digest, seal};
        let record = |id: &str| {
            json!({"id": id, "session": "s", "timestamp": "2026-12-02T08:00:00Z",
                "plugin": "myops", "user": "admin", "context": "admin", "server": "https://h",
                "apiVersion": "v1", "kind": "ConfigMap", "namespace": "ns", "name": id,
                "uid": null, "operation": "patch", "patchType": "merge",
                "patch": {"data": {"k": "v"}}, "dryRun": false,
                "before": {"data": {"k": "old"}}, "resourceVersionAfter": "7",
                "result": "success", "durationSeconds": 0.0})
        };
        let old = serde_json::to_string(&record("old")).unwrap() + "\n";
        let (first, _) = seal(record("new"), &legacy_digest(old.as_bytes())).unwrap();
        let first = String::from_utf8(first).unwrap();
        let log = |text: String| vec![("changelog.jsonl".to_string(), text.into_bytes())];
        // A record written before the chain, chained to by the first hashed one: trusted.
        assert!(contradicted(&log(format!("{old}{first}\n"))).is_empty());
        // One more unhashed record put in front: the first hashed record's prev no longer
        // matches, so every record before the chain is contradicted.
        let forged = serde_json::to_string(&record("forged")).unwrap() + "\n";
        let found = contradicted(&log(format!("{forged}{old}{first}\n")));
        let mut ids: Vec<&String> = found.keys().collect();
        ids.sort();
        assert_eq!(ids, ["forged", "old"]);
        assert!(
            found["forged"].contains("comes before the hash chain"),
            "{found:?}"
        );
    }

    #[test]
    fn records_the_chain_contradicts_are_named_by_entry() {
        use crate::changelog::chain::{GENESIS, seal};
        let record = |id: &str, color: &str| {
            json!({"id": id, "session": "s", "timestamp": "2026-12-02T08:00:00Z",
                "plugin": "myops", "user": "admin", "context": "admin", "server": "https://h",
                "apiVersion": "v1", "kind": "ConfigMap", "namespace": "ns", "name": "c",
                "uid": null, "operation": "patch", "patchType": "merge",
                "patch": {"data": {"color": "green"}}, "dryRun": false,
                "before": {"data": {"color": color}}, "resourceVersionAfter": "7",
                "result": "success", "durationSeconds": 0.0})
        };
        let mut prev = GENESIS.to_string();
        let mut lines = Vec::new();
        for id in ["a", "b", "c"] {
            let (line, hash) = seal(record(id, "blue"), &prev).unwrap();
            lines.push(String::from_utf8(line).unwrap());
            prev = hash;
        }
        let log = |lines: &[String]| {
            vec![(
                "changelog.jsonl".to_string(),
                (lines.join("\n") + "\n").into_bytes(),
            )]
        };
        assert!(
            crate::changelog::judge(lines[0].as_bytes(), false).is_ok(),
            "a valid record"
        );
        assert!(contradicted(&log(&lines)).is_empty(), "an intact chain");
        // A torn line between records contradicts no entry.
        let mut torn = lines.clone();
        torn.insert(1, "{\"id\":\"x".into());
        assert!(contradicted(&log(&torn)).is_empty());
        // b edited: b does not match its hash.
        let mut edited = lines.clone();
        edited[1] = edited[1].replace("\"blue\"", "\"evil\"");
        let found = contradicted(&log(&edited));
        assert_eq!(found.keys().collect::<Vec<_>>(), ["b"]);
        assert!(found["b"].contains("line 2 does not match its hash"));
        // b edited and resealed: c no longer chains to it, so both are named.
        let mut resealed = lines.clone();
        let prev_a: Value = serde_json::from_str(&lines[0]).unwrap();
        resealed[1] = String::from_utf8(
            seal(record("b", "evil"), prev_a["hash"].as_str().unwrap())
                .unwrap()
                .0,
        )
        .unwrap();
        let mut ids: Vec<String> = contradicted(&log(&resealed)).into_keys().collect();
        ids.sort();
        assert_eq!(ids, ["b", "c"]);
        // b's hash stripped to pass as older than the chain.
        let mut stripped = lines.clone();
        let mut b: serde_json::Map<String, Value> = serde_json::from_str(&lines[1]).unwrap();
        b.remove("hash");
        b.remove("prev");
        stripped[1] = Value::Object(b).to_string();
        assert!(
            contradicted(&log(&stripped))["b"]
                .contains("has no hash although records before it do")
        );
    }
}
