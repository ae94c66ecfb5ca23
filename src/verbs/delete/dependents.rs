//! The part of the delete preview that names the dependents found through
//! `metadata.ownerReferences` ([`crate::guard::delete::dependents`]): for `--cascade`
//! background or foreground, what the garbage collector deletes after the objects (a
//! Deployment's ReplicaSets, their Pods); for orphan, the direct dependents it leaves. Only
//! namespaced objects are looked at — those of the namespaces the deleted objects are in, of
//! every type the caller may list (the contents lister of a namespace delete) — and the
//! preview is bounded as the rest of it is (a count per type above
//! [`super::PREVIEW_NAMES`]).

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use crate::cli::Cascade;
use crate::guard::delete::dependents::{Dependents, dependents, uid_of};
use crate::guard::{ObjectRef, Session};

/// An object being deleted, as the dependents are matched to it: its uid when known (a CRD's
/// custom resources, as listed), else found among the listed objects by type and name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Root {
    /// The API group (`""` for the core group).
    pub group: String,
    /// The kind.
    pub kind: String,
    /// The namespace; `None` for a cluster-scoped object (its dependents are not looked for).
    pub namespace: Option<String>,
    /// The name.
    pub name: String,
    /// The uid, when known.
    pub uid: Option<String>,
}

impl Root {
    /// The root of an object named on the command line or selected (its uid found by listing).
    pub fn of_ref(o: &ObjectRef) -> Root {
        Root {
            group: o.t.api.group.clone(),
            kind: o.t.api.kind.clone(),
            namespace: o.namespace.clone(),
            name: o.name.clone(),
            uid: None,
        }
    }

    /// The root of an object as listed (apiVersion, kind and metadata set).
    pub fn of_value(v: &Value) -> Root {
        Root {
            group: group_of(v).to_string(),
            kind: text(v, "/kind").to_string(),
            namespace: v
                .pointer("/metadata/namespace")
                .and_then(Value::as_str)
                .map(str::to_string),
            name: text(v, "/metadata/name").to_string(),
            uid: uid_of(v).map(str::to_string),
        }
    }
}

fn text<'a>(v: &'a Value, pointer: &str) -> &'a str {
    v.pointer(pointer).and_then(Value::as_str).unwrap_or("")
}

fn group_of(v: &Value) -> &str {
    text(v, "/apiVersion")
        .split_once('/')
        .map_or("", |(g, _)| g)
}

/// `kind.group` (lowercase kind; the kind alone for the core group), as `-o name` prefixes.
fn prefix_of(v: &Value) -> String {
    let kind = text(v, "/kind").to_lowercase();
    match group_of(v) {
        "" => kind,
        g => format!("{kind}.{g}"),
    }
}

/// The preview lines naming the dependents of `roots` under `cascade`: nothing when none are
/// found. A failed list is one line saying the dependents were not looked for (the preview
/// informs; it does not stop the delete).
pub async fn preview(session: &Session<'_>, roots: &[Root], cascade: Cascade) -> Vec<String> {
    let mut namespaces: Vec<String> = Vec::new();
    for r in roots {
        if let Some(ns) = &r.namespace
            && !namespaces.contains(ns)
        {
            namespaces.push(ns.clone());
        }
    }
    if namespaces.is_empty() {
        return Vec::new();
    }
    match session.objects_in(&namespaces).await {
        Ok(listed) => describe(&found(roots, &listed, cascade), cascade),
        Err(e) => vec![format!(
            "dependents found through ownerReferences were not looked for: {e}"
        )],
    }
}

/// The dependents of `roots` among `listed` (pure): the roots' uids (known, or of the listed
/// object of that type and name), then [`dependents`].
pub fn found(roots: &[Root], listed: &[Value], cascade: Cascade) -> Dependents {
    // Keyed once: a delete of a thousand objects matches a thousand roots.
    let by_key: HashMap<(&str, &str, Option<&str>, &str), &str> = listed
        .iter()
        .filter_map(|v| {
            let ns = v.pointer("/metadata/namespace").and_then(Value::as_str);
            let key = (group_of(v), text(v, "/kind"), ns, text(v, "/metadata/name"));
            uid_of(v).map(|u| (key, u))
        })
        .collect();
    let uids: HashSet<String> = roots
        .iter()
        .filter_map(|r| {
            r.uid.clone().or_else(|| {
                let key = (
                    r.group.as_str(),
                    r.kind.as_str(),
                    r.namespace.as_deref(),
                    r.name.as_str(),
                );
                by_key.get(&key).map(|u| (*u).to_string())
            })
        })
        .collect();
    dependents(&uids, listed, cascade != Cascade::Orphan)
}

/// The preview lines for `d` (pure): a header per group and the objects by name, a count per
/// type above [`super::PREVIEW_NAMES`].
pub fn describe(d: &Dependents, cascade: Cascade) -> Vec<String> {
    let mode = match cascade {
        Cascade::Background => "background",
        Cascade::Foreground => "foreground",
        Cascade::Orphan => "orphan",
    };
    let mut out = Vec::new();
    if !d.affected.is_empty() {
        out.push(if cascade == Cascade::Orphan {
            format!(
                "{} dependent(s) found through ownerReferences are kept (--cascade=orphan: only their owner references to the deleted objects are removed):",
                d.affected.len()
            )
        } else {
            format!(
                "about to delete {} dependent(s) with them (--cascade={mode}: the garbage collector deletes what they own, found through ownerReferences):",
                d.affected.len()
            )
        });
        out.extend(named(&d.affected));
    }
    if !d.other_owner.is_empty() {
        out.push(format!(
            "{} dependent(s) are kept (another owner remains):",
            d.other_owner.len()
        ));
        out.extend(named(&d.other_owner));
    }
    out
}

/// The objects by name, grouped by type in first-seen order, each `  kind.group/name
/// (namespace ns)`; a type of more than [`super::PREVIEW_NAMES`] objects is one count line.
fn named(objects: &[Value]) -> Vec<String> {
    let mut types: Vec<String> = Vec::new();
    for o in objects {
        let t = prefix_of(o);
        if !types.contains(&t) {
            types.push(t);
        }
    }
    let mut out = Vec::new();
    for t in types {
        let of: Vec<&Value> = objects.iter().filter(|o| prefix_of(o) == t).collect();
        if of.len() > super::PREVIEW_NAMES {
            out.push(format!("  {t}: {} objects", of.len()));
            continue;
        }
        for o in of {
            let place = o
                .pointer("/metadata/namespace")
                .and_then(Value::as_str)
                .map(|n| format!(" (namespace {n})"))
                .unwrap_or_default();
            out.push(format!("  {t}/{}{place}", text(o, "/metadata/name")));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn listed() -> Vec<Value> {
        let mut out = vec![
            json!({"apiVersion": "apps/v1", "kind": "Deployment",
                "metadata": {"name": "web", "namespace": "shop", "uid": "d1"}}),
            json!({"apiVersion": "apps/v1", "kind": "ReplicaSet",
                "metadata": {"name": "web-7f", "namespace": "shop", "uid": "r1",
                    "ownerReferences": [{"uid": "d1", "kind": "Deployment", "name": "web"}]}}),
        ];
        for i in 0..25 {
            out.push(json!({"apiVersion": "v1", "kind": "Pod",
                "metadata": {"name": format!("web-7f-{i}"), "namespace": "shop", "uid": format!("p{i}"),
                    "ownerReferences": [{"uid": "r1"}]}}));
        }
        out
    }

    fn web() -> Root {
        Root {
            group: "apps".into(),
            kind: "Deployment".into(),
            namespace: Some("shop".into()),
            name: "web".into(),
            uid: None,
        }
    }

    #[test]
    fn a_cascade_names_the_replicasets_and_counts_the_pods_above_twenty() {
        let d = found(&[web()], &listed(), Cascade::Background);
        assert_eq!(
            describe(&d, Cascade::Background),
            [
                "about to delete 26 dependent(s) with them (--cascade=background: the garbage collector deletes what they own, found through ownerReferences):",
                "  replicaset.apps/web-7f (namespace shop)",
                "  pod: 25 objects",
            ]
        );
    }

    #[test]
    fn an_orphaning_delete_says_the_direct_dependents_are_kept() {
        let d = found(&[web()], &listed(), Cascade::Orphan);
        assert_eq!(
            describe(&d, Cascade::Orphan),
            [
                "1 dependent(s) found through ownerReferences are kept (--cascade=orphan: only their owner references to the deleted objects are removed):",
                "  replicaset.apps/web-7f (namespace shop)",
            ]
        );
    }

    #[test]
    fn a_root_of_another_name_or_namespace_owns_nothing_here() {
        let other = Root {
            namespace: Some("other".into()),
            ..web()
        };
        assert!(
            describe(
                &found(&[other], &listed(), Cascade::Foreground),
                Cascade::Foreground
            )
            .is_empty()
        );
        let known = Root {
            uid: Some("r1".into()),
            name: "renamed".into(),
            ..web()
        };
        let d = found(&[known], &listed(), Cascade::Foreground);
        assert_eq!(d.affected.len(), 25, "a known uid needs no match by name");
    }
}
