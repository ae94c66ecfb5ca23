//! What a good file and the built-in one give, the schema, and the empty and non-UTF-8 cases
//! of parse and load. The helpers and sample texts are shared with `diagnose.rs`, whose tests
//! check each other message, its place, and that odd input is an error, never a panic.

use std::time::Duration;

use super::*;

pub(super) const BASE: &str = "name: myops\nverbs: [get]\nresources: [pods]\nscopes: [namespace]\n";
pub(super) const PG: &str = "name: myops\nverbs: [get]\nresources: [pods]\nscopes: [namespace]\n\
                  pushgateway:\n  url: http://x\n";

/// Parses `text`, which must fail, and returns (variant, line, column, message).
pub(super) fn fail(text: &str) -> (&'static str, u64, u64, String) {
    let err = parse(text, Path::new("p.yaml")).expect_err(text);
    assert_eq!(err.exit_status(), ExitStatus::Usage);
    let shown = err.to_string();
    assert!(!shown.contains('\n'), "one line: {shown:?}");
    let (kind, line, column, message) = match err {
        ConfigError::Parse {
            line,
            column,
            message,
            ..
        } => ("parse", line, column, message),
        ConfigError::Invalid {
            line,
            column,
            message,
            ..
        } => ("invalid", line, column, message),
        ConfigError::Read { .. } | ConfigError::Writable { .. } => {
            unreachable!("parse never reads")
        }
    };
    assert_eq!(shown, format!("p.yaml:{line}:{column}: {message}"));
    (kind, line, column, message)
}

pub(super) fn check(cases: &[(String, u64, u64, &str)], kind: &str) {
    for (text, line, column, needle) in cases {
        let (k, l, c, m) = fail(text);
        assert_eq!((k, l, c), (kind, *line, *column), "{text:?}: {m}");
        assert!(m.contains(needle), "{text:?}: {m:?} lacks {needle:?}");
    }
}

#[test]
fn empty_file_says_what_to_define() {
    for text in ["", "   \n", "# nothing yet\n\n", "---\n", "\u{feff}"] {
        let (kind, line, column, message) = fail(text);
        assert_eq!(
            (kind, line, column, message.as_str()),
            ("parse", 1, 1, EMPTY_MESSAGE)
        );
    }
}

#[test]
fn good_file_values() {
    let text = "name: team-a\nverbs: [get]\nresources: [pods, widgets.example.com]\n\
                scopes: [namespace, cluster]\nmetrics: [ops_total, crd_loads_total]\n\
                crdDir: ~/crds\npushgateway:\n  url: https://pg:9091\n  instance: ci\n\
                \x20 timeout: 500ms\n  basicAuth: {username: bot, passwordFile: /run/pw}\n";
    let c = parse(text, Path::new("p.yaml")).unwrap();
    assert_eq!(c.name, "team-a");
    assert_eq!(c.verbs, vec![Verb::Get]);
    assert_eq!(c.resources, vec!["pods", "widgets.example.com"]);
    assert_eq!(c.scopes, vec![Scope::Namespace, Scope::Cluster]);
    assert_eq!(
        c.metrics,
        vec![MetricFamily::OpsTotal, MetricFamily::CrdLoadsTotal]
    );
    assert_eq!(c.crd_dir, Some(PathBuf::from("~/crds")));
    let pg = c.pushgateway.unwrap();
    assert_eq!(
        (pg.url.as_str(), pg.job.as_str()),
        ("https://pg:9091", "kubectl-myops")
    );
    assert_eq!(
        (pg.instance.as_deref(), pg.timeout),
        (Some("ci"), Duration::from_millis(500))
    );
    let auth = pg.basic_auth.unwrap();
    assert_eq!(
        (auth.username.as_str(), auth.password_file),
        ("bot", PathBuf::from("/run/pw"))
    );
    let forced = parse(
        &format!("{BASE}apply:\n  forceConflicts: true\n"),
        Path::new("p.yaml"),
    )
    .unwrap();
    assert!(forced.apply.force_conflicts);
    let minimal = parse(BASE, Path::new("p.yaml")).unwrap();
    assert!(
        !minimal.apply.force_conflicts,
        "forced applies are off by default"
    );
    assert_eq!(
        (minimal.metrics.len(), minimal.crd_dir, minimal.pushgateway),
        (0, None, None)
    );
}

#[test]
fn builtin_parses_and_equals_repository_file() {
    let b = builtin();
    let repo = load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("plugin.yaml")).unwrap();
    assert_eq!(b, repo);
    assert_eq!((b.name.as_str(), b.metrics.len()), ("myops", 5));
    assert_eq!(
        b.verbs,
        vec![
            Verb::Get,
            Verb::Patch,
            Verb::Delete,
            Verb::Apply,
            Verb::Scale,
            Verb::Label,
            Verb::Annotate,
            Verb::Edit,
            Verb::Rollout
        ]
    );
    assert_eq!(b.scopes, vec![Scope::Namespace, Scope::Cluster]);
    assert!(b.resources.iter().any(|r| r == "customresourcedefinitions"));
    assert_eq!(b.crd_dir, Some(PathBuf::from("~/.kube/plugins/crds")));
    // No Pushgateway by default: metrics stay local until a URL is configured.
    assert_eq!(b.pushgateway, None);
}

#[test]
fn load_reports_non_utf8_at_the_bad_byte() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("plugin.yaml");
    std::fs::write(&p, b"name: my\nverbs: [g\xffet]\n").unwrap();
    let want = format!(
        "{}:2:10: the file is not UTF-8 text: save it as UTF-8",
        p.display()
    );
    assert_eq!(load(&p).unwrap_err().to_string(), want);
}

#[cfg(unix)]
#[test]
fn group_or_world_writable_plugin_yaml_is_refused_naming_mode_and_chmod() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("plugin.yaml");
    std::fs::write(&p, BASE).unwrap();
    let link = dir.path().join("link.yaml");
    std::os::unix::fs::symlink(&p, &link).unwrap();
    for mode in [0o600, 0o644, 0o400] {
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode)).unwrap();
        assert_eq!(load(&p).unwrap().name, "myops");
    }
    for mode in [0o664, 0o646, 0o666, 0o620] {
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode)).unwrap();
        for file in [&p, &link] {
            let e = load(file).unwrap_err();
            assert!(matches!(e, ConfigError::Writable { .. }));
            assert_eq!(e.exit_status(), ExitStatus::Usage);
            assert_eq!(
                e.to_string(),
                format!(
                    "{}: refusing plugin.yaml: it is group- or world-writable (mode {mode:o}), so others could change what this plugin may do as you; run `chmod go-w {}`",
                    file.display(),
                    file.display()
                )
            );
        }
    }
}

#[cfg(unix)]
#[test]
fn a_fifo_or_oversize_plugin_yaml_is_a_read_error_not_a_hang() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo.yaml");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    assert_eq!(
        load(&fifo).unwrap_err().to_string(),
        format!(
            "{}: cannot read plugin.yaml: it is a FIFO (named pipe), not a regular file; replace it with a regular file",
            fifo.display()
        )
    );
    let big = dir.path().join("big.yaml");
    std::fs::write(&big, format!("name: {}\n", "n".repeat(5 * 1024 * 1024))).unwrap();
    let shown = load(&big).unwrap_err().to_string();
    assert!(
        shown.contains("it is too large: 5242887 bytes, over the 1048576-byte limit"),
        "{shown}"
    );
    assert!(shown.len() < 400, "{shown}");
}

#[test]
fn a_huge_name_is_echoed_capped_and_escaped() {
    let long = format!("N{}", "n".repeat(900_000));
    let (_, line, column, m) = fail(&BASE.replace("myops", &long));
    assert_eq!((line, column), (1, 7));
    assert_eq!(
        m,
        format!(
            "`name` \"N{}…\" (900001 characters) is not a valid label value: use only a-z, 0-9 and '-'",
            "n".repeat(63)
        )
    );
    let (_, _, _, m) = fail(&BASE.replace("myops", &"n".repeat(64)));
    assert_eq!(
        m,
        "`name` is 64 characters long: use at most 63 (an RFC 1123 label, like a Kubernetes label value)"
    );
    let (_, _, _, m) = fail(&BASE.replace("myops", "\"my\\e[2Jops\""));
    assert_eq!(
        m,
        "`name` \"my\\u{1b}[2Jops\" is not a valid label value: use only a-z, 0-9 and '-'"
    );
}

#[test]
fn a_password_in_the_pushgateway_url_is_refused_and_never_echoed() {
    for url in [
        "http://bot:s3cretPW@pg:9091",
        "https://s3cretPW@pg",
        "http://bot:s3cretPW@pg/x?y@z",
    ] {
        let (kind, line, column, m) = fail(&PG.replace("http://x", url));
        assert_eq!((kind, line, column), ("invalid", 6, 8));
        assert!(m.starts_with("pushgateway.url must not hold a user name or password"));
        assert!(!m.contains("s3cretPW"), "{m}");
    }
    let (_, _, _, m) = fail(&PG.replace("http://x", "ftp://bot:s3cretPW@pg"));
    assert!(
        m.starts_with("pushgateway.url \"ftp://pg\" must start with http://"),
        "{m}"
    );
    assert_eq!(
        crate::base::redact::url_without_userinfo("http://a:b@h:1/p@q"),
        "http://h:1/p@q"
    );
    assert_eq!(
        crate::base::redact::url_without_userinfo("no scheme@x"),
        "no scheme@x"
    );
    assert!(parse(&PG.replace("http://x", "http://pg/path@v1"), Path::new("p")).is_ok());
}

#[test]
fn yaml_bombs_and_deep_nesting_stop_at_the_first_value_of_the_wrong_type() {
    // The strict model stops reading at the first alias into a list that should be text:
    // an exponential expansion is never built.
    let levels: String = (b'b'..=b'i')
        .map(|c| {
            let prev = (c - 1) as char;
            let c = c as char;
            format!("{c}: &{c} [{}]\n", vec![format!("*{prev}"); 9].join(","))
        })
        .collect();
    let laughs = format!("name: x\nverbs: [get]\nresources: &a [lol,lol,lol]\n{levels}");
    let start = std::time::Instant::now();
    let (_, line, _, m) = fail(&laughs);
    assert_eq!(
        (line, m.as_str()),
        (
            4,
            "unknown key `b`: remove it or fix its spelling (allowed here: name, verbs, resources, scopes, metrics, crdDir, pushgateway, changelog, policies, apply, protect, changeCause, mcp)"
        )
    );
    let bomb = format!("{levels}name: *i\n").replace("*a", "[lol]");
    let (_, _, _, m) = fail(&bomb);
    assert!(m.starts_with("unknown key `b`"), "{m}");
    let deep = format!(
        "name: x\nverbs: {}{}\n",
        "[".repeat(10_000),
        "]".repeat(10_000)
    );
    let (_, _, _, m) = fail(&deep);
    assert!(
        m.starts_with("unknown verb") || m.contains("wrong type") || m.starts_with("invalid YAML"),
        "{m}"
    );
    assert!(start.elapsed() < std::time::Duration::from_secs(5));
    let (_, _, _, m) = fail(&PG.replace("http://x", "\"http://x\\e[2J y\""));
    assert_eq!(
        m,
        "pushgateway.url \"http://x\\u{1b}[2J y\" must not contain spaces or control characters"
    );
}

#[test]
fn schema_names_the_keys_and_denies_unknown_ones() {
    let s = schema_json();
    for key in [
        "\"crdDir\"",
        "\"pushgateway\"",
        "\"basicAuth\"",
        "\"passwordFile\"",
        "\"policies\"",
        "\"deny\"",
        "\"namespaces\"",
        "\"forceConflicts\"",
        "\"protect\"",
        "\"requireReason\"",
        "\"maxLift\"",
        "\"type-name\"",
        "\"crd-prune\"",
        "\"changeCause\"",
    ] {
        assert!(s.contains(key), "{key} missing from {s}");
    }
    let v: serde_json::Value = serde_json::from_str(&s).unwrap();
    assert_eq!(v["additionalProperties"], serde_json::Value::Bool(false));
    // What the strict parse refuses in a protect rule, an editor's schema check refuses too.
    let rule = &v["$defs"]["ProtectRule"];
    assert_eq!(rule["additionalProperties"], false);
    assert_eq!(rule["properties"]["maxLift"]["pattern"], "^([0-9]+[hms])+$");
    assert_eq!(rule["properties"]["verbs"]["minItems"], 1);
    assert_eq!(rule["properties"]["namespaces"]["minItems"], 1);
    assert_eq!(rule["properties"]["contexts"]["items"]["minLength"], 1);
    assert_eq!(rule["properties"]["message"]["minLength"], 1);
    assert!(s.lines().count() > 10, "pretty-printed");
}

#[test]
fn protect_errors_point_at_the_rule_value() {
    let rule = |r: &str| format!("{BASE}protect:\n{r}");
    #[rustfmt::skip]
    let cases: &[(String, u64, u64, &str)] = &[
        (rule("- mode: block\n"), 6, 3, "protect[0] names no contexts and no servers, so it protects nothing"),
        (rule("- contexts: []\n  mode: block\n"), 6, 13, "protect[0] names no contexts and no servers"),
        (rule("- contexts: [prod]\n- servers: []\n"), 7, 12, "protect[1] names no contexts and no servers"),
        (rule("- contexts: [prod, \"\"]\n"), 6, 20, "protect[0].contexts[1] is empty: write a context name"),
        (rule("- servers:\n  - https://a:6443\n  - prod.example.com\n"), 8, 5, "protect[0].servers[1] \"prod.example.com\" can never match: it is matched against the whole API server URL"),
        (rule("- contexts: [prod]\n  namespaces: []\n"), 7, 15, "protect[0].namespaces is empty: list namespace globs"),
        (rule("- contexts: [prod]\n  namespaces: [team-*, Prod]\n"), 7, 24, "protect[0].namespaces: \"Prod\" is not a namespace glob"),
        (rule("- contexts: [prod]\n  namespaces: [\"\"]\n"), 7, 16, "protect[0].namespaces: \"\" is not a namespace glob"),
        (rule("- contexts: [prod]\n  verbs: []\n"), 7, 10, "protect[0].verbs is empty: list the verbs it protects"),
        (rule("- contexts: [prod]\n  message: \"  \"\n"), 7, 12, "protect[0].message is empty"),
    ];
    check(cases, "invalid");
    #[rustfmt::skip]
    let parse_cases: &[(String, u64, u64, &str)] = &[
        (rule("- contexts: [prod]\n  mod: block\n"), 7, 3, "unknown key `mod`: remove it or fix its spelling (allowed here: contexts, servers, namespaces, verbs, mode, requireReason, message, maxLift)"),
        (rule("- {contexts: [prod], max_lift: 1h}\n"), 6, 22, "unknown key `max_lift`"),
        (format!("{BASE}protekt: []\n"), 5, 1, "unknown key `protekt`"),
        (rule("- contexts: [prod]\n  mode: strict\n"), 7, 9, "unknown value `strict`: use one of confirm, type-name, block"),
        (rule("- contexts: [prod]\n  verbs: [delete, destroy]\n"), 7, 19, "unknown verb `destroy`: use one of patch, rollback, delete"),
        (rule("- contexts: [prod]\n  maxLift: -5m\n"), 7, 12, "`maxLift`: invalid duration \"-5m\": use a duration more than 0 and at most 30 days"),
        (rule("- contexts: [prod]\n  maxLift: 0s\n"), 7, 12, "`maxLift`: invalid duration \"0s\""),
        (rule("- contexts: [prod]\n  maxLift: forever\n"), 7, 12, "`maxLift`: invalid duration \"forever\""),
        (rule("- contexts: [prod]\n  maxLift: 31d\n"), 7, 12, "`maxLift`: invalid duration \"31d\""),
        (rule("- contexts: prod\n"), 6, 13, "wrong type for `contexts`: expected a list"),
        (rule("- contexts: [prod]\n  requireReason: maybe\n"), 7, 18, "invalid value for `requireReason`: expected true or false"),
        (format!("{BASE}changeCause: yes please\n"), 5, 14, "invalid value for `changeCause`: expected true or false"),
    ];
    check(parse_cases, "parse");
    let good = parse(
        &rule("- contexts: [\"prod-*\"]\n  servers: [\"https://*.prod.example.com*\"]\n  namespaces: [payments, \"team-*\"]\n  verbs: [delete, crd-prune]\n  mode: type-name\n  requireReason: true\n  message: production\n  maxLift: 1h30m\n- {servers: [\"*\"]}\n"),
        Path::new("p.yaml"),
    )
    .unwrap();
    let r = &good.protect[0];
    assert_eq!(r.contexts, ["prod-*"]);
    assert_eq!(
        r.verbs,
        Some(vec![
            crate::rules::protect::ProtectVerb::Delete,
            crate::rules::protect::ProtectVerb::CrdPrune
        ])
    );
    assert_eq!(
        (r.mode, r.require_reason, r.max_lift),
        (
            crate::rules::protect::ProtectMode::TypeName,
            true,
            Duration::from_secs(5400)
        )
    );
    let d = &good.protect[1];
    assert_eq!(
        (d.namespaces.as_ref(), d.verbs.as_ref(), d.mode, d.max_lift),
        (
            None,
            None,
            crate::rules::protect::ProtectMode::Confirm,
            crate::rules::protect::DEFAULT_MAX_LIFT
        )
    );
    assert!(!good.change_cause);
    assert!(
        parse(&format!("{BASE}changeCause: true\n"), Path::new("p.yaml"))
            .unwrap()
            .change_cause
    );
}

#[test]
fn a_mirror_namespace_that_is_not_a_dns_label_is_refused_at_its_value() {
    let text = format!("{BASE}changelog:\n  mirror:\n    namespace: Team_Trail\n");
    let (kind, line, column, m) = fail(&text);
    assert_eq!((kind, line, column), ("invalid", 7, 16));
    assert!(
        m.starts_with("changelog.mirror.namespace: invalid namespace \"Team_Trail\""),
        "{m}"
    );
    let good = format!("{BASE}changelog:\n  mirror:\n    namespace: team-trail\n");
    let c = parse(&good, Path::new("p.yaml")).unwrap();
    assert_eq!(c.changelog.mirror.unwrap().namespace, "team-trail");
}

#[test]
fn changelog_events_is_off_unless_the_file_says_true_and_takes_only_a_boolean() {
    let p = |t: &str| parse(t, Path::new("p.yaml"));
    assert!(!p(BASE).unwrap().changelog.events);
    let on = format!("{BASE}changelog:\n  events: true\n");
    assert!(p(&on).unwrap().changelog.events);
    // The other changelog keys keep their defaults.
    assert_eq!(p(&on).unwrap().changelog.max_size, 10 * 1024 * 1024);
    let (_, line, _, _) = fail(&format!("{BASE}changelog:\n  events: sometimes\n"));
    assert_eq!(line, 6);
}
