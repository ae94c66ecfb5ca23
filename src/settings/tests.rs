use super::*;

#[test]
fn empty_connection_flags_are_treated_as_not_given_like_kubectl() {
    let g = GlobalArgs {
        token: Some(String::new()),
        user: Some(String::new()),
        cluster: Some(String::new()),
        context: Some(String::new()),
        server: Some(String::new()),
        as_user: Some(String::new()),
        as_uid: Some(String::new()),
        namespace: Some(String::new()),
        request_timeout: Some(String::new()),
        pushgateway: Some(String::new()),
        kubeconfig: Some(PathBuf::new()),
        certificate_authority: Some(PathBuf::new()),
        config: Some(PathBuf::new()),
        as_group: vec![String::new()],
        ..GlobalArgs::default()
    };
    let c = without_empty_overrides(&g);
    assert_eq!(
        (c.token, c.user, c.cluster, c.context, c.server),
        (None, None, None, None, None)
    );
    assert_eq!((c.as_user, c.as_uid, c.namespace), (None, None, None));
    assert_eq!((c.request_timeout, c.pushgateway), (None, None));
    assert_eq!(
        (c.kubeconfig, c.certificate_authority, c.config),
        (None, None, None)
    );
    assert_eq!(
        c.as_group,
        vec![String::new()],
        "kubectl keeps an empty group"
    );
    let kept = without_empty_overrides(&GlobalArgs {
        token: Some("t".into()),
        namespace: Some("shop".into()),
        ..GlobalArgs::default()
    });
    assert_eq!(
        (kept.token.as_deref(), kept.namespace.as_deref()),
        (Some("t"), Some("shop"))
    );
}

#[test]
fn request_timeouts_beyond_go_s_duration_are_refused_instead_of_panicking() {
    assert_eq!(request_timeout("0").unwrap(), None);
    assert_eq!(request_timeout("5s").unwrap(), Some(Duration::from_secs(5)));
    for bad in ["9223372036854775807", "300000000h", "18446744073709551615"] {
        let e = request_timeout(bad).unwrap_err().to_string();
        assert!(
            e.contains("longest duration Go's time.Duration"),
            "{bad}: {e}"
        );
    }
    assert!(
        request_timeout("9223372036").unwrap().is_some(),
        "292 years is fine"
    );
    let e = request_timeout(&"9".repeat(100_000))
        .unwrap_err()
        .to_string();
    assert!(e.len() < 400, "{e}");
    let e = request_timeout("5\u{1b}[2J").unwrap_err().to_string();
    assert!(!e.contains('\u{1b}'), "{e}");
}

#[test]
fn as_user_extra_groups_values_by_key_and_refuses_entries_without_equals() {
    let raw: Vec<String> = ["scopes=view", "scopes=edit", "reason=a=b", "empty="]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let m = user_extras(&raw).unwrap();
    assert_eq!(m["scopes"], ["view", "edit"]);
    assert_eq!(m["reason"], ["a=b"]);
    assert_eq!(m["empty"], [""]);
    for bad in ["noequals", "=v"] {
        let e = user_extras(&[bad.to_string()]).unwrap_err().to_string();
        assert!(
            e.starts_with(&format!("--as-user-extra \"{bad}\" is not KEY=VALUE")),
            "{e}"
        );
    }
}

#[test]
fn kubeconfig_list_splits_on_colon_and_drops_empty_entries() {
    assert_eq!(
        split_kubeconfig(Some("/a/config::/b/config:")),
        vec![PathBuf::from("/a/config"), PathBuf::from("/b/config")]
    );
    assert!(split_kubeconfig(None).is_empty());
}

#[test]
fn pushgateway_flag_beats_env_beats_plugin_yaml() {
    let mut plugin = config::builtin();
    assert!(
        push_target(&plugin, None, None, None).unwrap().is_none(),
        "no URL anywhere: local only"
    );
    plugin.pushgateway = Some(crate::config::PushgatewayConfig {
        url: "http://127.0.0.1:9091".into(),
        job: "kubectl-myops".into(),
        instance: None,
        timeout: Duration::from_millis(1500),
        basic_auth: None,
        bearer_token_file: None,
        ca_file: None,
    });
    let t = push_target(&plugin, Some("http://flag:1"), Some("http://env:2"), None)
        .unwrap()
        .unwrap();
    assert!(
        t.url
            .starts_with("http://flag:1/metrics/job/kubectl-myops/instance/"),
        "{}",
        t.url
    );
    let t = push_target(&plugin, None, Some("http://env:2"), None)
        .unwrap()
        .unwrap();
    assert!(t.url.starts_with("http://env:2/metrics/job/"), "{}", t.url);
    let t = push_target(&plugin, None, None, None).unwrap().unwrap();
    assert!(
        t.url.starts_with("http://127.0.0.1:9091/metrics/job/"),
        "{}",
        t.url
    );
    assert_eq!(t.timeout, Duration::from_millis(1500));
}

#[test]
fn bearer_token_comes_from_the_file_else_the_environment_and_the_ca_file_is_read() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("token"), "t0ken-from-file\n").unwrap();
    std::fs::write(dir.path().join("ca.pem"), "-----BEGIN CERTIFICATE-----\n").unwrap();
    let mut plugin = config::builtin();
    plugin.pushgateway = Some(crate::config::PushgatewayConfig {
        url: "https://gw:9091".into(),
        job: "j".into(),
        instance: Some("i".into()),
        timeout: Duration::from_secs(1),
        basic_auth: None,
        bearer_token_file: None,
        ca_file: None,
    });
    let t = push_target(&plugin, None, None, Some("t0ken-from-env"))
        .unwrap()
        .unwrap();
    assert_eq!(t.bearer_token.as_deref(), Some("t0ken-from-env"));
    assert!(
        !format!("{t:?}").contains("t0ken"),
        "Debug must not show the token"
    );
    let pg = plugin.pushgateway.as_mut().unwrap();
    pg.bearer_token_file = Some(dir.path().join("token"));
    pg.ca_file = Some(dir.path().join("ca.pem"));
    let t = push_target(&plugin, None, None, Some("t0ken-from-env"))
        .unwrap()
        .unwrap();
    assert_eq!(t.bearer_token.as_deref(), Some("t0ken-from-file"));
    assert_eq!(
        t.ca_pem.as_deref(),
        Some(&b"-----BEGIN CERTIFICATE-----\n"[..])
    );
    plugin.pushgateway.as_mut().unwrap().ca_file = Some(dir.path().join("missing.pem"));
    let e = push_target(&plugin, None, None, None).unwrap_err();
    assert!(e.to_string().contains("missing.pem"), "{e}");
}

#[test]
fn template_files_are_read_after_parsing_with_the_o_parser_s_message() {
    use crate::cli::{Cli, Command, OutputFormat, TemplateFormat};
    use clap::Parser;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("t.jsonpath");
    std::fs::write(&file, "{.metadata.name}").unwrap();
    let flag = format!("jsonpath-file={}", file.display());
    let mut cli = Cli::try_parse_from(["kubectl-myops", "get", "pods", "-o", &flag]).unwrap();
    let Command::Get(a) = &cli.command else {
        panic!("not get")
    };
    assert!(matches!(
        a.output,
        OutputFormat::Template(TemplateFormat::File(_))
    ));
    load_template_files(&mut cli.command, crate::base::deadline::DEFAULT).unwrap();
    let Command::Get(a) = &cli.command else {
        panic!("not get")
    };
    assert!(matches!(
        a.output,
        OutputFormat::Template(TemplateFormat::JsonPath { as_json: false, .. })
    ));

    let mut cli = Cli::try_parse_from([
        "kubectl-myops",
        "get",
        "pods",
        "-o",
        "custom-columns-file=/nonexistent/cols",
    ])
    .unwrap();
    let e = load_template_files(&mut cli.command, crate::base::deadline::DEFAULT)
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("invalid value 'custom-columns-file=/nonexistent/cols' for '--output <OUTPUT>': error reading /nonexistent/cols: "),
        "{e}"
    );
}

#[test]
fn a_reason_longer_than_1024_characters_is_a_usage_error_that_does_not_echo_it() {
    let env = Env {
        myops_home: Some(std::env::temp_dir()),
        ..Env::default()
    };
    let g = |reason: String| GlobalArgs {
        reason: Some(reason),
        ..GlobalArgs::default()
    };
    let e = Settings::resolve(&g("é".repeat(1025)), &env).unwrap_err();
    assert!(matches!(e, SettingsError::Reason(1025)), "{e}");
    assert!(!e.to_string().contains('é'), "{e}");
    let s = Settings::resolve(&g("ü".repeat(1024)), &env).unwrap();
    assert_eq!(s.protect.reason.map(|r| r.chars().count()), Some(1024));
    for blank in ["  ", "\u{200b}", "-- ."] {
        let s = Settings::resolve(&g(blank.into()), &env).unwrap();
        assert_eq!(s.protect.reason, None, "{blank:?} is no reason");
    }
}
