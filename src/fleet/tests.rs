use super::*;
use crate::output::{Layout, TableBlock};

fn s(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

const KNOWN: &[&str] = &["admin", "alice", "bob", "admin-2", "alice-2", "bob-2"];

#[test]
fn globs_match_any_run_of_characters_and_nothing_else_is_special() {
    assert!(glob_match("*", ""));
    assert!(glob_match("*", "anything"));
    assert!(glob_match("a*b*c", "aXXbYYc"));
    assert!(glob_match("a*b*c", "abc"));
    assert!(!glob_match("a*b*c", "acb"));
    assert!(
        !glob_match("ab*ba", "aba"),
        "prefix and suffix must not overlap"
    );
    assert!(glob_match("prod-?", "prod-?"), "? is literal");
    assert!(!glob_match("prod-?", "prod-a"));
    assert!(glob_match("*-2", "bob-2"));
    assert!(!glob_match("*-2", "bob"));
}

#[test]
fn selection_keeps_the_order_given_expands_globs_in_kubeconfig_order_and_drops_repeats() {
    let known = s(KNOWN);
    assert_eq!(
        select(&s(&["bob-2", "admin"]), false, &known).unwrap(),
        s(&["bob-2", "admin"])
    );
    assert_eq!(
        select(&s(&["admin*"]), false, &known).unwrap(),
        s(&["admin", "admin-2"])
    );
    assert_eq!(
        select(&s(&["*-2", "alice-2", "admin"]), false, &known).unwrap(),
        s(&["admin-2", "alice-2", "bob-2", "admin"])
    );
    assert_eq!(select(&[], true, &known).unwrap(), known);
}

#[test]
fn a_name_or_glob_that_matches_nothing_is_a_usage_error_naming_it() {
    let known = s(KNOWN);
    let e = select(&s(&["admin", "prod-*"]), false, &known)
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("--contexts: \"prod-*\" matches no context"),
        "{e}"
    );
    assert!(e.contains("\"admin-2\""), "{e}");
    let e = select(&s(&["adm"]), false, &known).unwrap_err().to_string();
    assert!(
        e.contains("\"adm\" matches no context"),
        "a prefix is not a match: {e}"
    );
    assert!(matches!(
        select(&s(&["admin", ""]), false, &known),
        Err(SelectError::Empty)
    ));
    assert!(matches!(
        select(&s(&["admin"]), false, &[]),
        Err(SelectError::NoContexts)
    ));
    let e = select(&s(&["x\u{1b}[2J"]), false, &known)
        .unwrap_err()
        .to_string();
    assert!(!e.contains('\u{1b}'), "{e}");
}

#[test]
fn waves_are_a_canary_then_the_rest() {
    assert_eq!(waves(0, 1), Vec::<std::ops::Range<usize>>::new());
    assert_eq!(waves(1, 1), vec![0..1]);
    assert_eq!(waves(6, 1), vec![0..1, 1..6]);
    assert_eq!(
        waves(6, 0),
        vec![0..1, 1..6],
        "the canary wave has at least one"
    );
    assert_eq!(waves(6, 6), vec![0..6]);
    assert_eq!(waves(40, 3), vec![0..3, 3..40]);
}

fn table(key: &str, header: Option<&[&str]>, rows: &[&[&str]]) -> Chunk {
    Chunk::Table(TableBlock {
        key: key.into(),
        header: header.map(s),
        rows: rows.iter().map(|r| s(r)).collect(),
        layout: Layout::Tabwriter,
    })
}

#[test]
fn tables_of_several_contexts_merge_into_one_aligned_table_with_a_context_column() {
    let a = vec![table(
        "configmaps",
        Some(&["NAME", "DATA", "AGE"]),
        &[&["kube-root-ca.crt", "1", "5m"], &["web", "2", "1s"]],
    )];
    let b = vec![table(
        "configmaps",
        Some(&["NAME", "DATA", "AGE"]),
        &[&["x", "10", "3d"]],
    )];
    let out = merge(
        &[
            Captured {
                context: "admin",
                chunks: &a,
            },
            Captured {
                context: "arn:aws:eks:eu-west-1:1:cluster/prod",
                chunks: &b,
            },
        ],
        Shape::Cells,
    )
    .unwrap();
    assert_eq!(
        out,
        "CONTEXT                                NAME               DATA   AGE\n\
         admin                                  kube-root-ca.crt   1      5m\n\
         admin                                  web                2      1s\n\
         arn:aws:eks:eu-west-1:1:cluster/prod   x                  10     3d\n"
    );
}

#[test]
fn tables_of_other_types_or_headers_stay_apart_and_blank_text_between_them_is_dropped() {
    let a = vec![
        table("configmaps", Some(&["NAME", "DATA"]), &[&["c1", "1"]]),
        Chunk::Text("\n".into()),
        table("secrets", Some(&["NAME", "TYPE"]), &[&["s1", "Opaque"]]),
    ];
    let b = vec![table("secrets", Some(&["NAME", "TYPE"]), &[&["s2", "tls"]])];
    let out = merge(
        &[
            Captured {
                context: "a",
                chunks: &a,
            },
            Captured {
                context: "b",
                chunks: &b,
            },
        ],
        Shape::Cells,
    )
    .unwrap();
    assert_eq!(
        out,
        "CONTEXT   NAME   DATA\na         c1     1\n\nCONTEXT   NAME   TYPE\na         s1     Opaque\nb         s2     tls\n"
    );
    // --no-headers: no header line, no blank line between types.
    let c = vec![
        table("configmaps", None, &[&["c1", "1"]]),
        table("secrets", None, &[&["s1", "Opaque"]]),
    ];
    let out = merge(
        &[Captured {
            context: "a",
            chunks: &c,
        }],
        Shape::Cells,
    )
    .unwrap();
    assert_eq!(out, "a     c1    1\na     s1    Opaque\n");
}

#[test]
fn lines_are_prefixed_by_the_context_and_a_tab() {
    let a = vec![Chunk::Text("configmap/a\nconfigmap/b\n".into())];
    let b: Vec<Chunk> = Vec::new();
    let c = vec![Chunk::Text("yes\n".into())];
    let out = merge(
        &[
            Captured {
                context: "one",
                chunks: &a,
            },
            Captured {
                context: "two",
                chunks: &b,
            },
            Captured {
                context: "c:3/x",
                chunks: &c,
            },
        ],
        Shape::Cells,
    )
    .unwrap();
    assert_eq!(out, "one\tconfigmap/a\none\tconfigmap/b\nc:3/x\tyes\n");
}

#[test]
fn a_context_name_with_control_characters_repainted_the_terminal_and_split_rows() {
    // Context names are kubeconfig text: ESC, tab and newline came out raw in the CONTEXT
    // cell and the `CONTEXT<TAB>line` prefix (one record became two lines, `cut -f2-` broke).
    let t = vec![table("namespaces", Some(&["NAME"]), &[&["default"]])];
    let l = vec![Chunk::Text("namespace/default\n".into())];
    let out = merge(
        &[
            Captured {
                context: "red\u{1b}[31m",
                chunks: &t,
            },
            Captured {
                context: "new\nline",
                chunks: &t,
            },
        ],
        Shape::Cells,
    )
    .unwrap();
    assert_eq!(
        out,
        "CONTEXT         NAME\nred\\u{1b}[31m   default\nnew\\nline       default\n"
    );
    let out = merge(
        &[
            Captured {
                context: "tab\there",
                chunks: &l,
            },
            Captured {
                context: "rtl\u{202e}x",
                chunks: &l,
            },
        ],
        Shape::Cells,
    )
    .unwrap();
    assert_eq!(
        out,
        "tab\\there\tnamespace/default\nrtl\\u{202e}x\tnamespace/default\n"
    );
}

#[test]
fn json_and_yaml_outputs_merge_into_one_list_with_the_context_on_each_item() {
    let list = r#"{"apiVersion":"v1","kind":"List","metadata":{"resourceVersion":""},"items":[{"kind":"ConfigMap","metadata":{"name":"a"}},{"kind":"ConfigMap","metadata":{"name":"b","annotations":{"x":"y"}}}]}"#;
    let single = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n";
    let a = vec![Chunk::Text(list.into())];
    let empty: Vec<Chunk> = Vec::new();
    let out = merge(
        &[
            Captured {
                context: "admin",
                chunks: &a,
            },
            Captured {
                context: "none",
                chunks: &empty,
            },
        ],
        Shape::Json,
    )
    .unwrap();
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["kind"], "List");
    let items = v["items"].as_array().unwrap();
    assert_eq!(items.len(), 2);
    assert_eq!(
        items[0]["metadata"]["annotations"][CONTEXT_ANNOTATION],
        "admin"
    );
    assert_eq!(items[1]["metadata"]["annotations"]["x"], "y");
    assert_eq!(
        items[1]["metadata"]["annotations"][CONTEXT_ANNOTATION],
        "admin"
    );
    assert!(
        out.starts_with("{\n    \"apiVersion\": \"v1\",\n    \"items\": ["),
        "{out}"
    );

    let b = vec![Chunk::Text(single.into())];
    let out = merge(
        &[Captured {
            context: "admin-2",
            chunks: &b,
        }],
        Shape::Yaml,
    )
    .unwrap();
    let v: Value = serde_saphyr::from_str(&out).unwrap();
    assert_eq!(v["items"][0]["metadata"]["name"], "c");
    assert_eq!(
        v["items"][0]["metadata"]["annotations"][CONTEXT_ANNOTATION],
        "admin-2"
    );
}

#[test]
fn stderr_lines_name_their_context() {
    assert_eq!(
        stderr_line("bob-2", "error: boom"),
        "error: context bob-2: boom"
    );
    assert_eq!(
        stderr_line("bob-2", "warning: w"),
        "warning: context bob-2: w"
    );
    assert_eq!(
        stderr_line("a", "No resources found in default namespace."),
        "context a: No resources found in default namespace."
    );
}

/// The streamed release printed context by context ([`stream::Release`]) is byte for byte
/// the held merge of the same captured outputs: with empty contexts first and between, a
/// failed context (`done` but nothing printed), a context not attempted, for `-o name`,
/// `json` and `yaml`.
#[test]
fn the_streamed_release_is_byte_for_byte_the_held_merge() {
    use crate::cli::OutputFormat;
    use crate::exit::ExitStatus;
    let json = |names: &[&str]| {
        let items: Vec<serde_json::Value> = names
            .iter()
            .map(|n| serde_json::json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": n}, "data": {"k": "two\nlines"}}))
            .collect();
        crate::output::objects::kubectl_json(&crate::output::objects::list_of(items)).unwrap()
    };
    let yaml = |names: &[&str]| {
        let items: Vec<serde_json::Value> = names
            .iter()
            .map(|n| serde_json::json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": n, "annotations": {"x": "y"}}}))
            .collect();
        crate::output::objects::kubectl_yaml(&crate::output::objects::list_of(items)).unwrap()
    };
    let name = |names: &[&str]| {
        names
            .iter()
            .map(|n| format!("configmap/{n}\n"))
            .collect::<String>()
    };
    let per_context: [&[&str]; 5] = [&[], &["a"], &[], &["b", "c"], &["d"]];
    for (format, shape, text) in [
        (
            OutputFormat::Name,
            Shape::Cells,
            &name as &dyn Fn(&[&str]) -> String,
        ),
        (OutputFormat::Json, Shape::Json, &json),
        (OutputFormat::Yaml, Shape::Yaml, &yaml),
    ] {
        for skip in [None, Some(0), Some(3)] {
            let mut runs: Vec<ContextRun> = per_context
                .iter()
                .enumerate()
                .map(|(i, names)| ContextRun {
                    context: format!("ctx\t{i}"),
                    done: (Some(i) != skip).then_some(Done {
                        status: if names.is_empty() && i == 2 {
                            ExitStatus::Denied
                        } else {
                            ExitStatus::Success
                        },
                        message: None,
                        resource: None,
                    }),
                    chunks: if names.is_empty() && i == 2 {
                        Vec::new()
                    } else {
                        vec![Chunk::Text(text(names))]
                    },
                    stderr: Vec::new(),
                    seconds: 0.0,
                })
                .collect();
            let captured = Captured::of_attempted(&runs);
            let held = merge(&captured, shape).unwrap();
            let mut rel = stream::Release::for_output(&format, false).unwrap();
            let (mut out, mut err) = (Vec::new(), Vec::new());
            {
                let mut p = crate::output::Printer::capturing(&mut out, &mut err);
                for r in &mut runs {
                    rel.context(r, &mut p);
                }
                assert_eq!(rel.finish(&mut p), ExitStatus::Success);
            }
            let streamed: String = out
                .iter()
                .map(|c| match c {
                    Chunk::Text(t) => t.as_str(),
                    Chunk::Table(_) => panic!("a table in streamed output"),
                })
                .collect();
            assert_eq!(streamed, held, "{format:?}, context {skip:?} not attempted");
            assert!(err.is_empty());
        }
    }
    for held_format in [OutputFormat::Table, OutputFormat::Wide, OutputFormat::KYaml] {
        assert!(stream::Release::for_output(&held_format, false).is_none());
    }
    assert!(stream::Release::for_output(&OutputFormat::Json, true).is_none());
}
