//! The dependents a delete takes with it through `metadata.ownerReferences` (pure): what the
//! garbage collector deletes after a delete with `propagationPolicy` Background or Foreground,
//! or leaves (without the owner reference) with Orphan — for the delete preview.
//!
//! The rule is the garbage collector's (Kubernetes documentation, "Garbage Collection",
//! "Owners and dependents"; `pkg/controller/garbagecollector/garbagecollector.go`
//! `attemptToDeleteItem`): a dependent is deleted when none of its owners remains — so an
//! object that still has another owner stays — and what it owns goes the same way after it,
//! transitively (a Deployment → its ReplicaSets → their Pods). With Orphan only the direct
//! dependents are touched: their reference to the deleted owner is removed and they stay.

use std::collections::HashSet;

use serde_json::Value;

/// What a delete does to the objects that name the deleted ones as owners.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Dependents {
    /// Deleted by the garbage collector after the owners (Background, Foreground), in the
    /// order found (owners before what they own); with Orphan, the direct dependents, kept.
    pub affected: Vec<Value>,
    /// Kept because another owner remains (Background, Foreground only).
    pub other_owner: Vec<Value>,
}

/// The uids an object's `metadata.ownerReferences` name.
fn owner_uids(o: &Value) -> Vec<&str> {
    o.pointer("/metadata/ownerReferences")
        .and_then(Value::as_array)
        .map(|refs| {
            refs.iter()
                .filter_map(|r| r.get("uid").and_then(Value::as_str))
                .collect()
        })
        .unwrap_or_default()
}

/// An object's `metadata.uid`.
pub fn uid_of(o: &Value) -> Option<&str> {
    o.pointer("/metadata/uid").and_then(Value::as_str)
}

/// The dependents among `listed` (objects as listed, each with apiVersion and kind) of the
/// objects whose uids are `deleted` (pure): with `cascade` (Background, Foreground) every
/// object all of whose owners go — transitively — and, apart, those that keep another owner;
/// without it (Orphan) the direct dependents, which stay.
pub fn dependents(deleted: &HashSet<String>, listed: &[Value], cascade: bool) -> Dependents {
    let mut out = Dependents::default();
    if !cascade {
        out.affected = listed
            .iter()
            .filter(|o| uid_of(o).is_none_or(|u| !deleted.contains(u)))
            .filter(|o| owner_uids(o).iter().any(|u| deleted.contains(*u)))
            .cloned()
            .collect();
        return out;
    }
    let mut going: HashSet<String> = deleted.clone();
    loop {
        let found: Vec<&Value> = listed
            .iter()
            .filter(|o| uid_of(o).is_some_and(|u| !going.contains(u)))
            .filter(|o| {
                let owners = owner_uids(o);
                !owners.is_empty() && owners.iter().all(|u| going.contains(*u))
            })
            .collect();
        if found.is_empty() {
            break;
        }
        for o in found {
            if let Some(u) = uid_of(o) {
                going.insert(u.to_string());
            }
            out.affected.push(o.clone());
        }
    }
    out.other_owner = listed
        .iter()
        .filter(|o| uid_of(o).is_some_and(|u| !going.contains(u)))
        .filter(|o| owner_uids(o).iter().any(|u| going.contains(*u)))
        .cloned()
        .collect();
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn obj(kind: &str, name: &str, uid: &str, owners: &[&str]) -> Value {
        let refs: Vec<Value> = owners
            .iter()
            .map(|o| json!({"apiVersion": "apps/v1", "kind": "X", "name": "x", "uid": o}))
            .collect();
        let mut v =
            json!({"apiVersion": "v1", "kind": kind, "metadata": {"name": name, "uid": uid}});
        if !refs.is_empty() {
            v["metadata"]["ownerReferences"] = Value::Array(refs);
        }
        v
    }

    fn names(v: &[Value]) -> Vec<&str> {
        v.iter()
            .filter_map(|o| o.pointer("/metadata/name").and_then(Value::as_str))
            .collect()
    }

    #[test]
    fn a_cascade_takes_what_the_deleted_objects_own_transitively_and_keeps_what_another_owner_holds()
     {
        let listed = vec![
            obj("Deployment", "web", "d1", &[]),
            obj("Deployment", "api", "d2", &[]),
            obj("Pod", "web-rs-p1", "p1", &["r1"]),
            obj("ReplicaSet", "web-rs", "r1", &["d1"]),
            obj("ReplicaSet", "api-rs", "r2", &["d2"]),
            obj("ConfigMap", "shared", "c1", &["d1", "d2"]),
            obj("ConfigMap", "lone", "c2", &[]),
        ];
        let deleted: HashSet<String> = ["d1".to_string()].into();
        let d = dependents(&deleted, &listed, true);
        assert_eq!(names(&d.affected), ["web-rs", "web-rs-p1"]);
        assert_eq!(names(&d.other_owner), ["shared"]);
        // Both owners go: the shared one goes too, and nothing is kept.
        let both: HashSet<String> = ["d1".to_string(), "d2".to_string()].into();
        let d = dependents(&both, &listed, true);
        assert_eq!(
            names(&d.affected),
            ["web-rs", "api-rs", "shared", "web-rs-p1"]
        );
        assert!(d.other_owner.is_empty());
    }

    #[test]
    fn an_orphaning_delete_keeps_only_the_direct_dependents() {
        let listed = vec![
            obj("ReplicaSet", "web-rs", "r1", &["d1"]),
            obj("Pod", "web-rs-p1", "p1", &["r1"]),
            obj("Deployment", "web", "d1", &[]),
        ];
        let deleted: HashSet<String> = ["d1".to_string()].into();
        let d = dependents(&deleted, &listed, false);
        assert_eq!(names(&d.affected), ["web-rs"]);
        assert!(d.other_owner.is_empty());
        // Nothing owned: nothing said.
        assert_eq!(
            dependents(&["zz".to_string()].into(), &listed, true),
            Dependents::default()
        );
    }
}
