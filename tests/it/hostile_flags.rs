//! Bad-input cases, classes 6 and 7 of issue 10: flags and arguments. Values the API server
//! can never accept (a 100,000-character name or selector, a 200-character field manager, a
//! namespace that is no DNS label) are usage errors (exit 2) before any request; escape
//! sequences in any echoed argument never reach the terminal raw; a flag given as an empty
//! string is not given, as in kubectl; a bad patch, a bad duration, an unknown enum value is
//! exit 2 naming the flag.
//!
//! "Before any request" is proven by running those cases against a kubeconfig whose server
//! is a closed port and whose token is the canary ([`offline_kubeconfig`]): had a request
//! been tried, the answer would be "cannot reach the API server" (exit 1), and the token must
//! never be printed.

use crate::fixture::{Myops, Namespace, Run};
use crate::hostile::{CANARY, Case, run_cases};

/// Points KUBECONFIG at a kubeconfig whose server is 127.0.0.1:1 (nothing listens) and whose
/// token is the canary.
fn offline_kubeconfig(m: &mut Myops) {
    let p = m.dir.path().join("offline-kubeconfig");
    std::fs::write(
        &p,
        format!(
            "apiVersion: v1\nkind: Config\nclusters: [{{name: c, cluster: {{server: 'https://127.0.0.1:1'}}}}]\nusers: [{{name: u, user: {{token: {CANARY}}}}}]\ncontexts: [{{name: x, context: {{cluster: c, user: u, namespace: default}}}}]\ncurrent-context: x\n"
        ),
    )
    .unwrap();
    m.set_env("KUBECONFIG", &p.display().to_string());
}

/// Neither output channel carries a raw ESC, BEL or C1 CSI: escape sequences are echoed escaped.
fn no_raw_escapes(case: Case) -> Case {
    case.after(|_m: &Myops, run: &Run| {
        for (name, text) in [("stdout", &run.stdout), ("stderr", &run.stderr)] {
            if text.contains(['\u{1b}', '\u{7}', '\u{9b}']) {
                return Err(format!("raw escape character on {name}"));
            }
        }
        Ok(())
    })
}

/// A usage error (exit 2) decided before any request, with the words that name it.
fn usage(name: &str, args: Vec<String>, needle: &str) -> Case {
    no_raw_escapes(
        Case::new(name, 2)
            .args_owned(args)
            .stderr_has(needle)
            .setup(offline_kubeconfig),
    )
}

fn v(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

#[test]
fn bad_flags_and_arguments_are_one_true_sentence_and_the_right_exit_code() {
    let ns = Namespace::new("hostile-flags");
    ns.pod("web-1");
    let n = ns.0.clone();
    let long = "a".repeat(100_000);
    let esc = "web\u{1b}[2J\u{1b}[31m";
    let many_values = format!(
        "a in ({})",
        (0..12_000)
            .map(|i| format!("v{i}"))
            .collect::<Vec<_>>()
            .join(",")
    );
    let mut cases = vec![
        // ---- object names and TYPE (class 6 and 7) ----
        usage(
            "get_name_of_100000_characters_is_not_a_network_error",
            v(&["get", "pods", &long]),
            "at most 253",
        ),
        usage(
            "get_type_slash_name_of_100000_characters",
            v(&["get", &format!("pod/{long}")]),
            "(100000 characters) is 100000 bytes long",
        ),
        usage(
            "get_name_of_254_characters",
            v(&["get", "pods", &"n".repeat(254)]),
            "at most 253",
        ),
        usage(
            "patch_name_of_100000_characters",
            v(&["patch", "pods", &long, "-p", "{}"]),
            "at most 253",
        ),
        usage(
            "auth_can_i_name_of_100000_characters",
            v(&["auth", "can-i", "get", "pods", &long]),
            "at most 253",
        ),
        usage(
            "get_name_with_csi_escape_sequences",
            v(&["get", "pods", esc]),
            "invalid object name \"web\\u{1b}[2J",
        ),
        usage(
            "get_name_with_an_osc_window_title_sequence",
            v(&["get", "pods", "\u{1b}]0;pwned\u{7}"]),
            "invalid object name",
        ),
        usage(
            "get_type_with_csi_escape_sequence",
            v(&["get", "po\u{1b}[31mds"]),
            "resource type \"po\\u{1b}[31mds\" contains spaces or control characters",
        ),
        usage(
            "get_type_with_an_8_bit_csi",
            v(&["get", "po\u{9b}31mds"]),
            "contains spaces or control characters",
        ),
        usage(
            "get_type_slash_name_with_escape_in_type",
            v(&["get", "po\u{1b}[2J/web"]),
            "contains spaces or control characters",
        ),
        usage(
            "get_type_of_100000_characters",
            v(&["get", &long]),
            "longer than any resource name",
        ),
        usage("get_empty_type", v(&["get", ""]), "TYPE is empty"),
        usage(
            "get_type_slash_name_with_empty_type",
            v(&["get", "/web"]),
            "TYPE is empty",
        ),
        // ---- selectors (class 6) ----
        usage(
            "label_selector_of_100000_characters_is_not_a_network_error",
            v(&["get", "pods", "-l", &long]),
            "no more than 63 bytes (it has 100000)",
        ),
        usage(
            "label_selector_value_of_100000_characters",
            v(&["get", "pods", "-l", &format!("app={long}")]),
            "a label value must be no more than 63 bytes",
        ),
        usage(
            "label_selector_with_a_chained_equals",
            v(&["get", "pods", "-l", "a=b=c"]),
            "expected: ',' or 'end of string'",
        ),
        usage(
            "label_selector_with_an_unclosed_set",
            v(&["get", "pods", "-l", "tier in (web"]),
            "expected: ',' or ')'",
        ),
        usage(
            "label_selector_with_a_double_bang",
            v(&["get", "pods", "-l", "!!app"]),
            "expected: identifier",
        ),
        usage(
            "label_selector_with_escape_sequences",
            v(&["get", "pods", "-l", &format!("app={esc}")]),
            "-l/--selector",
        ),
        usage(
            "label_selector_gt_with_a_non_integer",
            v(&["get", "pods", "-l", "replicas>many"]),
            "must be an integer",
        ),
        usage(
            "label_selector_with_twelve_thousand_values_exceeds_the_uri_limit",
            v(&["get", "pods", "-l", &many_values]),
            "65534 bytes",
        ),
        usage(
            "field_selector_of_100000_characters_is_not_a_network_error",
            v(&["get", "pods", "--field-selector", &format!("a={long}")]),
            "65534 bytes",
        ),
        usage(
            "field_selector_without_an_operator",
            v(&["get", "pods", "--field-selector", "status.phase"]),
            "can't understand",
        ),
        usage(
            "field_selector_with_an_unescaped_equals",
            v(&["get", "pods", "--field-selector", "a=b=c"]),
            "unescaped character",
        ),
        usage(
            "field_selector_with_a_bad_escape",
            v(&["get", "pods", "--field-selector", "a=b\\x"]),
            "invalid escape sequence",
        ),
        // ---- field manager (class 6) ----
        usage(
            "field_manager_of_200_characters_is_refused_before_the_object_is_read",
            v(&[
                "patch",
                "pods",
                "web-1",
                "-p",
                "{}",
                "--field-manager",
                &"m".repeat(200),
            ]),
            "at most 128",
        ),
        usage(
            "field_manager_with_an_escape_sequence",
            v(&[
                "patch",
                "pods",
                "web-1",
                "-p",
                "{}",
                "--field-manager",
                "a\u{1b}[31m",
            ]),
            "U+001B",
        ),
        usage(
            "field_manager_with_a_newline",
            v(&[
                "patch",
                "pods",
                "web-1",
                "-p",
                "{}",
                "--field-manager",
                "a\nb",
            ]),
            "U+000A",
        ),
        usage(
            "field_manager_with_a_bidi_override",
            v(&[
                "patch",
                "pods",
                "web-1",
                "-p",
                "{}",
                "--field-manager",
                "a\u{202e}b",
            ]),
            "U+202E",
        ),
        usage(
            "rollback_field_manager_of_200_characters",
            v(&["rollback", "some-id", "--field-manager", &"m".repeat(200)]),
            "at most 128",
        ),
        // ---- namespace (class 6) ----
        usage(
            "namespace_with_uppercase_and_underscore",
            v(&["get", "pods", "-n", "Bad_NS"]),
            "IsDNS1123Label",
        ),
        usage(
            "namespace_of_100000_characters",
            v(&["get", "pods", "-n", &long]),
            "(100000 characters)",
        ),
        usage(
            "namespace_with_an_escape_sequence",
            v(&["get", "pods", "-n", esc]),
            "invalid namespace",
        ),
        // ---- auth can-i ----
        usage(
            "auth_can_i_verb_with_an_escape_sequence",
            v(&["auth", "can-i", "g\u{1b}[2Jet", "pods"]),
            "invalid VERB",
        ),
        usage(
            "auth_can_i_verb_of_100000_characters",
            v(&["auth", "can-i", &long, "pods"]),
            "invalid VERB",
        ),
        usage(
            "auth_can_i_empty_verb",
            v(&["auth", "can-i", "", "pods"]),
            "needs a VERB",
        ),
        usage(
            "auth_can_i_type_with_an_escape_sequence",
            v(&["auth", "can-i", "get", "po\u{1b}[31mds"]),
            "contains spaces or control characters",
        ),
        usage(
            "auth_can_i_subresource_with_an_escape_sequence",
            v(&[
                "auth",
                "can-i",
                "get",
                "pods",
                "--subresource",
                "st\u{1b}[2Jatus",
            ]),
            "invalid --subresource",
        ),
        // ---- durations ----
        usage(
            "request_timeout_garbage",
            v(&["get", "pods", "--request-timeout", "soon"]),
            "--request-timeout: invalid duration",
        ),
        usage(
            "request_timeout_negative",
            v(&["get", "pods", "--request-timeout=-5s"]),
            "--request-timeout: invalid duration",
        ),
        usage(
            "request_timeout_beyond_go_duration_panicked",
            v(&["get", "pods", "--request-timeout", "9223372036854775807"]),
            "longest duration Go's time.Duration",
        ),
        usage(
            "request_timeout_of_1e300_hours",
            v(&["get", "pods", "--request-timeout", "1e300h"]),
            "--request-timeout",
        ),
        usage(
            "request_timeout_with_an_escape_sequence",
            v(&["get", "pods", "--request-timeout", "5\u{1b}[2Js"]),
            "--request-timeout: invalid duration",
        ),
        // ---- enums (clap) ----
        usage(
            "unknown_output_format",
            v(&["get", "pods", "-o", "bogus"]),
            "invalid value 'bogus' for '--output",
        ),
        usage(
            "output_format_with_an_escape_sequence",
            v(&["get", "pods", "-o", "\u{1b}[2J"]),
            "--output",
        ),
        usage(
            "unknown_patch_type",
            v(&["patch", "pods", "web-1", "--type", "bogus", "-p", "{}"]),
            "--type",
        ),
        usage(
            "dry_run_garbage",
            v(&["patch", "pods", "web-1", "--dry-run=garbage", "-p", "{}"]),
            "--dry-run",
        ),
        usage(
            "as_group_empty_without_as",
            v(&["get", "pods", "--as-group", ""]),
            "need --as",
        ),
        // ---- patches ----
        usage(
            "patch_invalid_json",
            v(&["patch", "pods", "web-1", "-p", "{\"spec\": }"]),
            "--patch:1:10: the patch is neither valid JSON nor YAML",
        ),
        usage(
            "patch_invalid_yaml",
            v(&["patch", "pods", "web-1", "-p", "spec:\n  containers: [\n"]),
            "the patch is neither valid JSON nor YAML",
        ),
        usage(
            "json_patch_with_an_unknown_op_holding_the_canary",
            v(&[
                "patch",
                "pods",
                "web-1",
                "--type",
                "json",
                "-p",
                &format!(r#"[{{"op":"{CANARY}","path":"/a"}}]"#),
            ]),
            "operation 1 has an unknown \"op\" of 26 characters, not shown",
        ),
        usage(
            "merge_patch_with_duplicate_keys_holding_the_canary",
            v(&[
                "patch",
                "pods",
                "web-1",
                "--type",
                "merge",
                "-p",
                &format!("{CANARY}: 1\n{CANARY}: 2\n"),
            ]),
            "a mapping has the same key twice",
        ),
        usage(
            "secret_patch_with_a_torn_string_data_holding_the_canary",
            v(&[
                "patch",
                "secrets",
                "s",
                "--type",
                "merge",
                "-p",
                &format!("stringData: {{password: {CANARY}"),
            ]),
            "the patch is neither valid JSON nor YAML",
        ),
        usage(
            "patch_of_120000_bytes_of_garbage",
            v(&[
                "patch",
                "pods",
                "web-1",
                "-p",
                &format!("{{{}", "x".repeat(120_000)),
            ]),
            "the patch is neither valid JSON nor YAML",
        ),
        usage(
            "patch_subresource_with_an_escape_sequence",
            v(&[
                "patch",
                "pods",
                "web-1",
                "-p",
                "{}",
                "--subresource",
                "st\u{1b}[2J",
            ]),
            "patch supports status and scale",
        ),
        usage(
            "patch_file_missing",
            v(&[
                "patch",
                "pods",
                "web-1",
                "--patch-file",
                "{dir}/missing.yaml",
            ]),
            "cannot read --patch-file",
        ),
        usage(
            "patch_file_of_4_mb",
            v(&["patch", "pods", "web-1", "--patch-file", "{dir}/big.json"]),
            "more than the API server accepts",
        )
        .setup(|m| {
            offline_kubeconfig(m);
            let f = std::fs::File::create(m.dir.path().join("big.json")).unwrap();
            f.set_len(4 * 1024 * 1024).unwrap();
        }),
        usage(
            "patch_file_that_is_a_fifo_hung",
            v(&[
                "patch",
                "pods",
                "web-1",
                "--patch-file",
                "{dir}/patch.fifo",
                "--request-timeout",
                "1s",
            ]),
            "nothing wrote to it and closed it within 1s",
        )
        .setup(|m| {
            offline_kubeconfig(m);
            let ok = std::process::Command::new("mkfifo")
                .arg(m.dir.path().join("patch.fifo"))
                .status()
                .unwrap()
                .success();
            assert!(ok, "mkfifo");
        })
        .deadline(std::time::Duration::from_secs(10)),
        usage(
            "patch_file_not_utf8",
            v(&[
                "patch",
                "pods",
                "web-1",
                "--patch-file",
                "{dir}/latin1.yaml",
            ]),
            "not UTF-8",
        )
        .setup(|m| {
            offline_kubeconfig(m);
            std::fs::write(m.dir.path().join("latin1.yaml"), b"a: \xe9t\xe9\n").unwrap();
        }),
    ];
    // ---- against the real cluster ----
    let on_cluster = |name: &str, exit: i32, args: Vec<String>| {
        no_raw_escapes(Case::new(name, exit).args_owned(args))
    };
    let lists_web_1 = |_m: &Myops, run: &Run| {
        if run.stdout.contains("web-1") {
            Ok(())
        } else {
            Err(format!("stdout lacks web-1: {:?}", run.stdout))
        }
    };
    for (name, flag) in [
        ("empty_token_sent_an_anonymous_request", "--token"),
        ("empty_user_is_not_given", "--user"),
        ("empty_cluster_is_not_given", "--cluster"),
        ("empty_context_is_not_given", "--context"),
        ("empty_server_is_not_given", "--server"),
        ("empty_as_is_not_given", "--as"),
        ("empty_as_uid_is_not_given", "--as-uid"),
        ("empty_kubeconfig_flag_is_not_given", "--kubeconfig"),
        ("empty_request_timeout_is_not_given", "--request-timeout"),
        ("empty_pushgateway_flag_is_not_given", "--pushgateway"),
    ] {
        cases.push(on_cluster(name, 0, v(&["get", "pods", "-n", &n, flag, ""])).after(lists_web_1));
    }
    cases.extend([
        on_cluster(
            "empty_namespace_is_the_default_namespace",
            0,
            v(&["get", "pods", "-n", ""]),
        ),
        on_cluster(
            "unknown_type_is_a_usage_error",
            2,
            v(&["get", "nosuchkinds", "-n", &n]),
        )
        .stderr_has("doesn't have a resource type \"nosuchkinds\""),
        on_cluster(
            "patch_of_a_nonexistent_object",
            4,
            v(&[
                "patch",
                "pods",
                "nope",
                "-n",
                &n,
                "-p",
                r#"{"metadata":{"labels":{"a":"b"}}}"#,
            ]),
        )
        .stderr_has("not found"),
        on_cluster(
            "token_flag_holding_the_canary_with_a_bad_name",
            2,
            v(&["get", "pods", &long, "-n", &n, "--token", CANARY]),
        )
        .stderr_has("at most 253"),
        on_cluster(
            "changelog_show_garbage_id",
            4,
            v(&["changelog", "show", "no-such-id"]),
        )
        .stderr_has("no change-log entry"),
        on_cluster(
            "changelog_show_id_of_5000_characters",
            4,
            v(&["changelog", "show", &"x".repeat(5000)]),
        )
        .stderr_has("(5000 characters)"),
        on_cluster("rollback_garbage_id", 4, v(&["rollback", "no-such-id"]))
            .stderr_has("no change-log entry"),
        on_cluster(
            "rollback_id_with_an_escape_sequence",
            4,
            v(&["rollback", "\u{1b}[2J\u{1b}]0;x\u{7}"]),
        )
        .stderr_has("no change-log entry"),
        on_cluster(
            "auth_can_i_unknown_verb_warns_and_asks",
            0,
            v(&["auth", "can-i", "frobnicate", "pods", "-n", &n]),
        )
        .stderr_has("Warning: verb \"frobnicate\" is not a known verb"),
    ]);
    run_cases("flags", cases);
    drop(ns);
}
