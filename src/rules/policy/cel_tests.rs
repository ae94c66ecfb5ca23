//! The generated CEL judged by the `cel` crate against the client's judge on the same
//! changes: a corpus of rules (`*`, `/**`, escaped keys, list indexes, allow exceptions) and
//! a few hundred changes derived from small objects. Every disagreement is a failure.

use super::cel::{Local, check, unchanged};
use super::*;
use serde_json::{Value, json};

/// The rules of the parity corpus: (deny, allow).
pub(crate) const CORPUS: &[(&[&str], &[&str])] = &[
    (&["/data/*"], &[]),
    (&["/data/**"], &[]),
    (&["/data"], &[]),
    (&["/data/password"], &[]),
    (&["/data/*"], &["/data/public"]),
    (&["/data/**"], &["/data/public", "/data/free"]),
    (&["/spec/replicas"], &[]),
    (&["/spec/template/spec/containers/*/image"], &[]),
    (&["/spec/template/spec/containers/0/image"], &[]),
    (&["/spec/template/spec/containers/*/env/*/value"], &[]),
    (
        &["/spec/template/spec/containers/*"],
        &["/spec/template/spec/containers/*/resources"],
    ),
    (
        &["/spec/template/spec/containers/*/env/**"],
        &["/spec/template/spec/containers/*/env/*/name"],
    ),
    (
        &["/spec/template/spec/containers"],
        &["/spec/template/spec/containers/1"],
    ),
    (&["/spec/**"], &["/spec/replicas"]),
    (&["/spec"], &["/spec/template/metadata/annotations/**"]),
    (
        &["/metadata/annotations/**"],
        &["/metadata/annotations/team"],
    ),
    (&["/metadata/annotations/example.com~1owner"], &[]),
    (&["/metadata/annotations/a~0b"], &[]),
    (
        &["/metadata/labels/*"],
        &["/metadata/labels/app.kubernetes.io~1version"],
    ),
    (&["/metadata/**"], &[]),
    (&["/metadata"], &[]),
    (&["/metadata/finalizers/*"], &[]),
    (&["/metadata/finalizers"], &["/metadata/finalizers/0"]),
    (&["/*"], &["/status/**", "/spec/replicas"]),
    (&["/*/*"], &[]),
    (&["/**"], &["/metadata/labels/**"]),
    (&["/spec/*/x"], &[]),
    (&["/spec/items/*/*"], &["/spec/items/*/free"]),
    (&["/spec/items/2"], &[]),
    (&["/spec/a b/c-d"], &[]),
    (&["/spec/in"], &[]),
    (&["/spec/map/0"], &[]),
];

/// Small objects that the changes start from.
fn bases() -> Vec<Value> {
    vec![
        json!({"metadata": {"name": "db", "resourceVersion": "1", "annotations": {"team": "a", "example.com/owner": "x", "a~b": "t"}, "labels": {"app": "web", "app.kubernetes.io/version": "1"}, "finalizers": ["f1", "f2"]},
               "data": {"password": "cA==", "public": "eA==", "free": "eQ=="}}),
        json!({"metadata": {"name": "web", "generation": 2, "managedFields": [{"manager": "m"}]},
               "spec": {"replicas": 2, "a b": {"c-d": 1}, "in": true, "map": {"0": "zero"},
                        "items": [{"free": 1, "x": 2}, {"y": 3}, {"z": [1, 2]}],
                        "template": {"metadata": {"annotations": {"k": "v"}},
                            "spec": {"containers": [
                                {"name": "web", "image": "web:1", "env": [{"name": "A", "value": "1"}], "resources": {"limits": {"cpu": "1"}}},
                                {"name": "side", "image": "side:1"}]}}},
               "status": {"ready": 1}}),
        json!({"metadata": {"name": "empty"}}),
    ]
}

/// Every value in `doc` with its path (segments), the root included.
fn paths(doc: &Value, at: Vec<String>, out: &mut Vec<Vec<String>>) {
    out.push(at.clone());
    match doc {
        Value::Object(m) => m.iter().for_each(|(k, v)| {
            let mut p = at.clone();
            p.push(k.clone());
            paths(v, p, out)
        }),
        Value::Array(a) => a.iter().enumerate().for_each(|(i, v)| {
            let mut p = at.clone();
            p.push(i.to_string());
            paths(v, p, out)
        }),
        _ => {}
    }
}

fn get_mut<'a>(doc: &'a mut Value, path: &[String]) -> Option<&'a mut Value> {
    path.iter().try_fold(doc, |v, s| match v {
        Value::Object(m) => m.get_mut(s),
        Value::Array(a) => s.parse::<usize>().ok().and_then(|i| a.get_mut(i)),
        _ => None,
    })
}

/// Changes of `base`: at every path, the value replaced (by a string, a scalar of another
/// type, an empty map or list), removed, and a child added; the bookkeeping bumped too.
fn changes(base: &Value) -> Vec<Value> {
    let mut all = Vec::new();
    paths(base, Vec::new(), &mut all);
    let mut out = Vec::new();
    for p in all {
        for replacement in [
            json!("changed"),
            json!(7),
            json!({}),
            json!([]),
            json!({"new": 1}),
        ] {
            let mut doc = base.clone();
            if p.is_empty() {
                continue;
            }
            if let Some(v) = get_mut(&mut doc, &p) {
                *v = replacement.clone();
                out.push(doc);
            }
        }
        let (parent, last) = match p.split_last() {
            Some((l, rest)) => (rest.to_vec(), l.clone()),
            None => continue,
        };
        let mut doc = base.clone();
        match get_mut(&mut doc, &parent) {
            Some(Value::Object(m)) => {
                m.remove(&last);
            }
            Some(Value::Array(a)) => {
                a.remove(last.parse::<usize>().unwrap_or(0).min(a.len() - 1));
            }
            _ => continue,
        }
        out.push(doc);
        let mut doc = base.clone();
        match get_mut(&mut doc, &p) {
            Some(Value::Object(m)) => {
                m.insert("added".into(), json!("v"));
            }
            Some(Value::Array(a)) => a.push(json!({"name": "added", "image": "added:1"})),
            _ => continue,
        }
        out.push(doc);
    }
    let mut doc = base.clone();
    if let Some(m) = doc.get_mut("metadata").and_then(Value::as_object_mut) {
        m.insert("resourceVersion".into(), json!("99"));
        m.insert("managedFields".into(), json!([{"manager": "other"}]));
    }
    out.push(doc);
    out
}

fn rule(deny: &[&str], allow: &[&str]) -> PolicyRule {
    PolicyRule {
        resource: "*".into(),
        namespaces: Vec::new(),
        deny: deny.iter().map(|s| s.to_string()).collect(),
        allow: allow.iter().map(|s| s.to_string()).collect(),
        delete: Default::default(),
        message: "m".into(),
        exempt: Default::default(),
    }
}

/// The client's verdict (refused?) on the change from `before` to `after`.
fn client(rule: &Compiled, before: &Value, after: &Value) -> bool {
    let changed: Vec<String> = crate::rules::diff::operations(before, after)
        .iter()
        .map(|op| crate::rules::diff::path_of(op).to_string())
        .collect();
    denied_changes(std::slice::from_ref(rule), &changed, before, after).is_some()
}

/// Runs `f` on a thread with a 32 MiB stack: the `cel` crate parses and evaluates
/// recursively, and an unoptimised test build needs more than the 2 MiB a test thread has
/// (the binary's main thread has 8 MiB).
pub(crate) fn big_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(32 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}

/// The comparison runs on a thread with a larger stack ([`big_stack`]).
#[test]
fn generated_cel_agrees_with_the_client_judge_on_every_change_of_the_corpus() {
    big_stack(compare_corpus);
}

fn compare_corpus() {
    let mut checked = 0;
    let mut disagreements = Vec::new();
    for (deny, allow) in CORPUS {
        let r = rule(deny, allow);
        let compiled = Compiled::new(0, &r).unwrap();
        let allows: Vec<PathPattern> = allow.iter().map(|a| parse_pattern(a).unwrap()).collect();
        let exprs: Vec<String> = deny
            .iter()
            .map(|d| unchanged(&parse_pattern(d).unwrap(), &allows))
            .collect();
        for e in &exprs {
            check(e).unwrap_or_else(|err| panic!("{deny:?}: {err}\n{e}"));
        }
        let locals: Vec<Local> = exprs.iter().map(|e| Local::new(e).unwrap()).collect();
        for base in bases() {
            for after in changes(&base) {
                for (before, after) in [(&base, &after), (&after, &base)] {
                    let want = client(&compiled, before, after);
                    let mut got = false;
                    for (e, local) in exprs.iter().zip(&locals) {
                        match local.allows(before, after) {
                            Ok(allowed) => got |= !allowed,
                            Err(err) => panic!("{deny:?} {allow:?}: {err}\n{e}\n{before}\n{after}"),
                        }
                    }
                    checked += 1;
                    if want != got && disagreements.len() < 10 {
                        disagreements.push(format!(
                            "{deny:?} allow {allow:?}: client {want}, CEL {got}\n  before {before}\n  after  {after}"
                        ));
                    }
                }
            }
        }
    }
    eprintln!("{checked} changes judged");
    assert!(checked > 5_000, "only {checked} changes judged");
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}

/// A literal path is optional selections and one comparison; below the top level each side
/// is bound once and a key is selected from a map only (a list or scalar there reads as
/// absent, as in the client's judge, instead of failing on the API server).
#[test]
fn a_plain_path_is_one_optional_comparison() {
    let e = unchanged(&parse_pattern("/spec/replicas").unwrap(), &[]);
    assert_eq!(
        e,
        "!([[dyn(oldObject.?spec), dyn(object.?spec)]].exists(p1, (type(p1[0].orValue({})) == map ? p1[0].orValue({}) : {}).?replicas != (type(p1[1].orValue({})) == map ? p1[1].orValue({}) : {}).?replicas))"
    );
    let e = unchanged(
        &parse_pattern("/metadata/annotations/example.com~1owner").unwrap(),
        &[],
    );
    assert_eq!(
        e,
        "!([[dyn(oldObject.?metadata), dyn(object.?metadata)]].exists(p1, [[dyn((type(p1[0].orValue({})) == map ? p1[0].orValue({}) : {}).?annotations), dyn((type(p1[1].orValue({})) == map ? p1[1].orValue({}) : {}).?annotations)]].exists(p2, (type(p2[0].orValue({})) == map ? p2[0].orValue({}) : {})[?'example.com/owner'] != (type(p2[1].orValue({})) == map ? p2[1].orValue({}) : {})[?'example.com/owner'])))"
    );
}

/// The API server's CEL (cel-go) selects nothing through an element of a list of optionals
/// (`p0[0].?image` and `[…][0][?k]` are always `optional.none()` there), while the `cel` crate
/// the corpus runs on selects through it: so the generated text itself must never select
/// from a plain index (`[0]`, `[1]`: `x[?0]` keeps its `?` inside the brackets).
#[test]
fn no_expression_selects_through_a_list_element_which_the_api_server_reads_as_absent() {
    for (deny, allow) in CORPUS {
        let allows: Vec<PathPattern> = allow.iter().map(|a| parse_pattern(a).unwrap()).collect();
        for d in *deny {
            let e = unchanged(&parse_pattern(d).unwrap(), &allows);
            for bad in ["[0].?", "[0][?", "[1].?", "[1][?"] {
                assert!(!e.contains(bad), "{d} allow {allow:?}: {bad} in {e}");
            }
        }
    }
}

/// The client's and the local CEL's verdict (refused?) on one change for one deny path.
fn both(deny: &str, before: &Value, after: &Value) -> (bool, Result<bool, String>) {
    let r = rule(&[deny], &[]);
    let compiled = Compiled::new(0, &r).unwrap();
    let e = unchanged(&parse_pattern(deny).unwrap(), &[]);
    let local = Local::new(&e).unwrap();
    (
        client(&compiled, before, after),
        local.allows(before, after).map(|allowed| !allowed),
    )
}

/// `/spec/containers/00/image` is the map key `00` for the client (the
/// diff names list items `0`, `1`, …, never `00`), but the generator reads any run of digits
/// as a list index (`list_index` parses `00` to 0), so the exported policy refuses a change of
/// container 0's image that `kubectl myops patch` lets through (seen on the API server, too).
#[test]
fn a_leading_zero_segment_is_read_as_list_index_0_by_the_policy_but_not_by_the_client() {
    big_stack(|| {
        let before = json!({"spec": {"containers": [{"name": "web", "image": "a"}]}});
        let after = json!({"spec": {"containers": [{"name": "web", "image": "b"}]}});
        let (client, cel) = both("/spec/containers/00/image", &before, &after);
        assert_eq!(
            Ok(client),
            cel,
            "client refuses: {client}, CEL refuses: {cel:?}"
        );
    });
}

/// A literal segment that is not digits, met by a list at run time
/// (`/spec/template/spec/containers/web/image`, or `/spec/lst/*/y` over a list of lists),
/// is `list.?web` in the CEL, which the API server fails on ("unsupported index type
/// 'string' in list"): with failurePolicy Fail every update of every such object is refused
/// (422), where the client lets a change beside the path through. Here: a label change.
#[test]
fn a_literal_key_over_a_list_makes_the_policy_fail_on_every_update() {
    big_stack(|| {
        let before = json!({"metadata": {"labels": {"a": "1"}}, "spec": {"containers": [{"name": "web", "image": "a"}]}});
        let after = json!({"metadata": {"labels": {"a": "2"}}, "spec": {"containers": [{"name": "web", "image": "a"}]}});
        let (client, cel) = both("/spec/containers/web/image", &before, &after);
        assert!(!client);
        assert_eq!(
            Ok(false),
            cel,
            "the CEL must allow a change beside the path"
        );
        // The API server's cel-go errors where the `cel` crate may not: the text must not
        // select a non-digit key from a value that can be a list without a type test.
        let e = unchanged(&parse_pattern("/spec/containers/web/image").unwrap(), &[]);
        assert!(!e.contains("containers.?web"), "{e}");
    });
}

/// `deny: ["/*/*/*/*/*/*"]` makes `estimate_cost` add past `u64::MAX`
/// (local.rs `cost`, the `+` around `items.saturating_mul(per_item)`): `policies export` and
/// `config validate` panic ("attempt to add with overflow", exit 101) in a debug build, and a
/// release build wraps the estimate, so the over-budget warning may not be given.
#[test]
fn six_nested_wildcards_overflow_the_cost_estimate() {
    big_stack(|| {
        let e = unchanged(&parse_pattern("/*/*/*/*/*/*").unwrap(), &[]);
        let cost = super::cel::estimate_cost(&e).unwrap();
        assert!(cost > 1_000_000, "{cost}");
    });
}
