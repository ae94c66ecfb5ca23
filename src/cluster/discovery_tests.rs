//! Tests of TYPE resolution (`discovery.rs`).

use super::*;

fn index() -> TypeIndex {
    let core: APIGroupDiscoveryList = serde_json::from_value(serde_json::json!({
        "items": [{"metadata": {"name": ""}, "versions": [{"version": "v1", "resources": [
            {"resource": "pods", "responseKind": {"group": "", "version": "v1", "kind": "Pod"}, "scope": "Namespaced",
             "singularResource": "pod", "verbs": ["get", "list"], "shortNames": ["po"], "categories": ["all"],
             "subresources": [{"subresource": "status", "verbs": ["get"]}]},
            {"resource": "events", "responseKind": {"kind": "Event"}, "scope": "Namespaced", "singularResource": "event", "verbs": ["get"], "shortNames": ["ev"]},
            {"resource": "namespaces", "responseKind": {"kind": "Namespace"}, "scope": "Cluster", "singularResource": "namespace", "verbs": ["get"], "shortNames": ["ns"]}
        ]}]}]
    }))
    .unwrap();
    let groups: APIGroupDiscoveryList = serde_json::from_value(serde_json::json!({
        "items": [
          {"metadata": {"name": "apps"}, "versions": [{"version": "v1", "resources": [
            {"resource": "deployments", "responseKind": {"kind": "Deployment"}, "scope": "Namespaced", "singularResource": "deployment", "verbs": ["get"], "shortNames": ["deploy"]}]}]},
          {"metadata": {"name": "events.k8s.io"}, "versions": [{"version": "v1", "resources": [
            {"resource": "events", "responseKind": {"kind": "Event"}, "scope": "Namespaced", "singularResource": "event", "verbs": ["get"], "shortNames": ["ev"]}]}]},
          {"metadata": {"name": "example.com"}, "versions": [
            {"version": "v1", "resources": [{"resource": "backupjobs", "responseKind": {"kind": "BackupJob"}, "scope": "Namespaced", "singularResource": "backupjob", "verbs": ["get"], "shortNames": ["bj"], "categories": ["myops"]}]},
            {"version": "v1alpha1", "resources": [{"resource": "backupjobs", "responseKind": {"kind": "BackupJob"}, "scope": "Namespaced", "singularResource": "backupjob", "verbs": ["get"], "shortNames": ["bj"], "categories": ["myops", "old"]}]}]},
          {"metadata": {"name": "a.io"}, "versions": [{"version": "v1", "resources": [{"resource": "widgets", "responseKind": {"kind": "Widget"}, "scope": "Cluster", "verbs": ["get"], "shortNames": ["wd"]}]}]},
          {"metadata": {"name": "b.io"}, "versions": [{"version": "v1", "resources": [{"resource": "widgets", "responseKind": {"kind": "Widget"}, "scope": "Namespaced", "verbs": ["get"]}]}]}
        ]
    }))
    .unwrap();
    TypeIndex::from_discovery(core, groups)
}

fn gr(i: &TypeIndex, s: &str) -> String {
    let t = i.resolve(s).unwrap();
    format!("{}/{}", t.group_resource(), t.api.version)
}

#[test]
fn a_category_expands_to_preferred_versions_once_each_in_discovery_order() {
    let i = index();
    let names = |c: &str| -> Vec<String> {
        i.category(c)
            .iter()
            .map(|t| format!("{}/{}", t.group_resource(), t.api.version))
            .collect()
    };
    assert_eq!(names("all"), ["pods/v1"]);
    // In both versions: once, preferred. Only in the old version: still the preferred one.
    assert_eq!(names("myops"), ["backupjobs.example.com/v1"]);
    assert_eq!(names("old"), ["backupjobs.example.com/v1"]);
    // Matched exactly, as kubectl's map lookup.
    assert!(names("ALL").is_empty());
    assert!(names("pods").is_empty());
}

#[test]
fn resolves_plural_singular_kind_short_name_and_qualified_forms() {
    let i = index();
    for s in ["pods", "pod", "Pod", "po", "PODS"] {
        assert_eq!(gr(&i, s), "pods/v1", "{s}");
    }
    for s in [
        "deploy",
        "deployment",
        "deployments.apps",
        "deployments.v1.apps",
        "Deployment",
    ] {
        assert_eq!(gr(&i, s), "deployments.apps/v1", "{s}");
    }
    assert_eq!(gr(&i, "bj"), "backupjobs.example.com/v1");
    assert_eq!(
        gr(&i, "backupjobs.v1alpha1.example.com"),
        "backupjobs.example.com/v1alpha1"
    );
    assert_eq!(gr(&i, "widgets.b.io"), "widgets.b.io/v1");
    assert_eq!(gr(&i, "wd"), "widgets.a.io/v1");
}

#[test]
fn core_group_wins_a_bare_name_shared_with_another_group() {
    let i = index();
    assert_eq!(gr(&i, "events"), "events/v1");
    assert_eq!(gr(&i, "events.events.k8s.io"), "events.events.k8s.io/v1");
}

#[test]
fn a_name_of_two_groups_was_refused_as_ambiguous_where_kubectl_picks_by_priority() {
    let i = index();
    take_notes();
    // widgets.a.io comes first in discovery order: kubectl's PriorityRESTMapper picks it.
    assert_eq!(gr(&i, "widgets"), "widgets.a.io/v1");
    assert_eq!(
        take_notes(),
        [
            "resource type \"widgets\" is served by widgets.a.io and widgets.b.io; using widgets.a.io, the first in the server's discovery order as kubectl picks it; name another as plural.group"
        ]
    );
    assert_eq!(gr(&i, "widgets.b.io"), "widgets.b.io/v1");
    assert!(take_notes().is_empty(), "a qualified name is no choice");
}

#[test]
fn unknown_types_are_errors() {
    let i = index();
    assert_eq!(
        i.resolve("nosuch").unwrap_err(),
        ResolveError::Unknown("nosuch".into())
    );
    assert_eq!(
        i.resolve("pods/status").unwrap_err(),
        ResolveError::Unknown("pods/status".into())
    );
}

#[test]
fn an_unknown_type_with_escape_sequences_is_echoed_escaped_and_capped() {
    let i = index();
    let e = i.resolve("po\u{1b}[31mds").unwrap_err().to_string();
    assert_eq!(
        e,
        "the server doesn't have a resource type \"po\\u{1b}[31mds\"; list the served types with `kubectl api-resources`"
    );
    let e = i.resolve(&"t".repeat(100_000)).unwrap_err().to_string();
    assert!(e.contains("(100000 characters)") && e.len() < 300, "{e}");
}

#[test]
fn a_qualified_type_names_its_group_and_a_version_form_names_the_group_after_it() {
    assert_eq!(groups_named_by("widgets.a.io"), ["a.io"]);
    assert_eq!(groups_named_by("Widgets.A.IO"), ["a.io"]);
    assert_eq!(
        groups_named_by("widgets.v1beta2.a.io"),
        ["v1beta2.a.io", "a.io"]
    );
    // Not a version: only the whole rest is a group.
    assert_eq!(groups_named_by("widgets.vx.a.io"), ["vx.a.io"]);
    assert_eq!(groups_named_by("widgets.v01.a.io"), ["v01.a.io"]);
    assert!(groups_named_by("widgets").is_empty());
    // Nothing that is not a group name goes into a URL.
    assert!(groups_named_by("widgets.a.io/../../api").is_empty());
    assert!(groups_named_by("widgets.a..io").is_empty());
    assert!(groups_named_by("widgets.a.io?x=1").is_empty());
    assert!(groups_named_by("widgets.-a.io").is_empty());
}

#[test]
fn a_group_from_per_group_discovery_resolves_like_an_aggregated_one() {
    let mut i = index();
    let list = |v: &str| -> APIResourceList {
        serde_json::from_value(serde_json::json!({
            "groupVersion": format!("new.example.com/{v}"),
            "resources": [
                {"name": "gadgets", "singularName": "gadget", "namespaced": true, "kind": "Gadget",
                 "verbs": ["get", "list"], "shortNames": ["gd"], "categories": ["myops"]},
                {"name": "gadgets/status", "singularName": "", "namespaced": true, "kind": "Gadget", "verbs": ["get"]}
            ]
        }))
        .unwrap()
    };
    assert!(i.resolve("gadgets.new.example.com").is_err());
    i.add_group("new.example.com", vec![list("v2"), list("v1")]);
    let t = i.resolve("gadgets.new.example.com").unwrap();
    assert_eq!(
        (
            t.api.api_version.as_str(),
            t.api.kind.as_str(),
            t.namespaced
        ),
        ("new.example.com/v2", "Gadget", true)
    );
    assert_eq!(t.singular, "gadget");
    assert_eq!(t.subresources, ["status"]);
    assert_eq!(gr(&i, "gd"), "gadgets.new.example.com/v2");
    assert_eq!(
        gr(&i, "gadgets.v1.new.example.com"),
        "gadgets.new.example.com/v1"
    );
    // A group the index has is not added twice.
    i.add_group("new.example.com", vec![list("v3")]);
    assert!(i.resolve("gadgets.v3.new.example.com").is_err());
}

#[test]
fn name_prefix_and_group_resource_follow_kubectl() {
    let i = index();
    assert_eq!(i.resolve("po").unwrap().name_prefix(), "pod");
    assert_eq!(
        i.resolve("bj").unwrap().name_prefix(),
        "backupjob.example.com"
    );
    assert!(!i.resolve("ns").unwrap().namespaced);
}
