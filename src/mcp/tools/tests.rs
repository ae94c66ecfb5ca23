use serde_json::Value;

use super::*;

#[test]
fn a_name_that_looks_like_a_flag_stays_a_positional() {
    let g = GetInput {
        type_name: "configmaps".into(),
        name: Some("--all-namespaces".into()),
        all_namespaces: false,
        selector: None,
        scope: Scope::default(),
    };
    assert_eq!(
        g.command().unwrap().args,
        [
            "get",
            "--output=json",
            "--",
            "configmaps",
            "--all-namespaces"
        ]
    );
}

#[test]
fn a_previewed_resource_version_becomes_the_patchs_precondition() {
    let mut p = PatchInput {
        type_name: "configmaps".into(),
        name: "c1".into(),
        patch: serde_json::json!({"data": {"k": "v"}}),
        patch_type: PatchKind::Merge,
        subresource: None,
        scope: Scope::default(),
        change: Change::default(),
    };
    let c = p.command(Some("42")).unwrap();
    assert_eq!(
        serde_json::from_str::<Value>(c.stdin.as_deref().unwrap()).unwrap(),
        serde_json::json!({"data": {"k": "v"}, "metadata": {"resourceVersion": "42"}})
    );
    p.patch_type = PatchKind::Json;
    p.patch = serde_json::json!([{"op": "remove", "path": "/data/k"}]);
    let c = p.command(Some("42")).unwrap();
    assert_eq!(
        serde_json::from_str::<Value>(c.stdin.as_deref().unwrap()).unwrap()[0],
        serde_json::json!({"op": "test", "path": "/metadata/resourceVersion", "value": "42"})
    );
    assert!(c.args.contains(&"--type=json".to_string()));
}

#[test]
fn a_nul_or_an_endless_name_is_refused_before_anything_runs() {
    assert!(text("name", "a\0b").is_err());
    assert!(text("name", &"x".repeat(MAX_TEXT_CHARS + 1)).is_err());
    assert_eq!(text("name", "web").unwrap(), "web");
}

#[test]
fn an_apply_targets_the_manifests_object_by_its_full_type() {
    let a = ApplyInput {
        manifest: "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\n"
            .into(),
        scope: Scope::default(),
        change: Change::default(),
    };
    assert_eq!(
        a.target().unwrap(),
        Target {
            type_name: "Deployment.v1.apps".into(),
            name: "web".into(),
            namespace: Some("shop".into())
        }
    );
}

#[test]
fn a_manifest_of_two_documents_was_refused_naming_a_yaml_library_function() {
    let two = ApplyInput {
        manifest: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n".into(),
        scope: Scope::default(),
        change: Change::default(),
    };
    assert_eq!(
        two.target().unwrap_err().0,
        "`manifest` holds 2 YAML documents; `apply` takes one object — call it once per object"
    );
    let none = ApplyInput {
        manifest: "# only a comment\n".into(),
        scope: Scope::default(),
        change: Change::default(),
    };
    assert_eq!(
        none.target().unwrap_err().0,
        "`manifest` is one object with apiVersion, kind and metadata.name"
    );
}
