use super::parse::{slice_groups, split_filter, unquote};
use super::print::go_float_g;
use super::*;
use serde_json::json;

fn pods() -> Value {
    json!({"kind": "List", "items": [
        {"metadata": {"name": "a", "labels": {"tier": "fe", "app": "web"}}, "status": {"phase": "Running"},
         "spec": {"containers": [{"name": "c1", "image": "i1"}, {"name": "c2", "image": "i2"}]}},
        {"metadata": {"name": "b"}, "status": {"phase": "Pending"}, "spec": {"containers": [{"name": "d", "image": "j"}]}}
    ]})
}

fn run(t: &str) -> Result<String, JsonPathError> {
    Template::parse(t)?.render(&pods(), PrintOptions::default())
}

#[test]
fn fields_wildcards_and_literals_print_as_kubectl() {
    assert_eq!(run("{.items[*].metadata.name}").unwrap(), "a b");
    assert_eq!(run("{.kind}").unwrap(), "List");
    assert_eq!(
        run("name: {.items[0].metadata.name}\n").unwrap(),
        "name: a\n"
    );
    assert_eq!(
        run("{.items[0].metadata.labels}").unwrap(),
        r#"{"app":"web","tier":"fe"}"#
    );
    assert_eq!(run(r#"{.items[1].metadata.name}{"\n"}"#).unwrap(), "b\n");
    assert_eq!(run("{$.items[-1:].metadata.name}").unwrap(), "b");
    assert_eq!(run("{.items[0:2:1].metadata.name}").unwrap(), "a b");
    assert_eq!(run("{.items[0,1].metadata.name}").unwrap(), "a b");
    assert_eq!(run("{.items[0]['metadata'].name}").unwrap(), "a");
    assert_eq!(run("{..image}").unwrap(), "i1 i2 j");
    assert_eq!(run("{.missing}").unwrap(), "");
}

#[test]
fn range_and_filters_follow_client_go() {
    assert_eq!(
        run(r#"{range .items[*]}{.metadata.name}={.status.phase}{"\n"}{end}"#).unwrap(),
        "a=Running\nb=Pending\n"
    );
    assert_eq!(
        run(r#"{range .items[*]}[{range .spec.containers[*]}{.name},{end}]{end}"#).unwrap(),
        "[c1,c2,][d,]"
    );
    assert_eq!(
        run(r#"{.items[?(@.status.phase=="Pending")].metadata.name}"#).unwrap(),
        "b"
    );
    assert_eq!(
        run("{.items[?(@.metadata.labels)].metadata.name}").unwrap(),
        "a"
    );
    assert_eq!(
        run("{.items[?(@.metadata.name!='a')].metadata.name}").unwrap(),
        "b"
    );
}

#[test]
fn jsonpath_as_json_prints_one_indented_array_per_action() {
    let t = Template::parse("{.items[*].metadata.name}").unwrap();
    let opts = PrintOptions {
        as_json: true,
        ..PrintOptions::default()
    };
    assert_eq!(
        t.render(&pods(), opts).unwrap(),
        "[\n    \"a\",\n    \"b\"\n]\n"
    );
    let t = Template::parse("{.nope}").unwrap();
    assert_eq!(t.render(&pods(), opts).unwrap(), "[]\n");
}

#[test]
fn unterminated_array_is_a_parse_error_with_a_position() {
    let e = Template::parse("{.items[").unwrap_err();
    assert_eq!(
        e,
        JsonPathError::Parse {
            template: "{.items[".into(),
            reason: "unterminated array".into(),
            position: 8
        }
    );
    for bad in [
        "{.a",
        "{.a[?(@.x==\"y\"}",
        "{\"abc}",
        "{.a[x]}",
        "{....a}",
        "{%}",
    ] {
        assert!(
            matches!(Template::parse(bad), Err(JsonPathError::Parse { .. })),
            "{bad}"
        );
    }
}

#[test]
fn out_of_bounds_index_and_missing_key_without_allowance_are_execution_errors() {
    let e = run("{.items[5]}").unwrap_err();
    assert!(
        e.to_string()
            .contains("array index out of bounds: index 5, length 2"),
        "{e}"
    );
    let t = Template::parse("{.items[0].metadata.nope}").unwrap();
    let e = t
        .render(
            &pods(),
            PrintOptions {
                allow_missing_keys: false,
                as_json: false,
            },
        )
        .unwrap_err();
    assert!(e.to_string().contains("nope is not found"), "{e}");
    assert!(run("{end}").is_err());
}

#[test]
fn go_formats_of_values() {
    assert_eq!(
        go_sprint(&json!({"b": [1, "x"], "a": null})),
        "map[a:<nil> b:[1 x]]"
    );
    assert_eq!(
        go_json(&json!({"b": "<&>", "a": 1.5})),
        r#"{"a":1.5,"b":"\u003c\u0026\u003e"}"#
    );
    assert_eq!(go_float_g(1_000_000.0), "1e+06");
    assert_eq!(go_float_g(0.5), "0.5");
    assert_eq!(unquote(r#""a\tb""#).as_deref(), Some("a\tb"));
    assert_eq!(
        slice_groups("1:-2"),
        Some([Some("1".into()), Some(":-2".into()), None])
    );
    assert_eq!(split_filter("@.a==\"x\""), Some(("@.a", "==", "\"x\"")));
}
