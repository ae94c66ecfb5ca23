use std::time::Duration;

use super::*;

fn rule(yaml: &str) -> ProtectRule {
    serde_saphyr::from_str(yaml).expect("rule parses")
}

fn scope<'a>(context: &'a str, namespace: Option<&'a str>, verb: ProtectVerb) -> Scope<'a> {
    Scope {
        context: Some(context),
        server: "https://10.0.0.1:6443",
        namespace,
        verb,
        effect: None,
        every_namespace: false,
    }
}

#[test]
fn overlapping_rules_take_the_strictest_mode_and_the_shortest_lift() {
    let rules = vec![
        rule("contexts: [prod-*]\nmode: confirm\nmaxLift: 2h\nmessage: production\n"),
        rule(
            "contexts: [prod-eu]\nnamespaces: [payments]\nmode: type-name\nrequireReason: true\nmaxLift: 15m\n",
        ),
        rule("servers: ['https://10.0.0.*']\nverbs: [delete]\nmode: block\n"),
    ];
    let p = protection(
        &rules,
        &scope("prod-eu", Some("payments"), ProtectVerb::Scale),
    )
    .unwrap();
    assert_eq!(p.mode, ProtectMode::TypeName);
    assert!(p.require_reason);
    assert_eq!(p.rules, vec![0, 1]);
    assert_eq!(p.max_lift, Duration::from_secs(900));
    assert_eq!(p.messages, vec!["production".to_string()]);
    let p = protection(&rules, &scope("prod-eu", Some("web"), ProtectVerb::Delete)).unwrap();
    assert_eq!(p.mode, ProtectMode::Block);
    assert_eq!(p.rules, vec![0, 2]);
    assert!(
        protection(
            &rules[..2],
            &scope("staging", Some("payments"), ProtectVerb::Delete)
        )
        .is_none()
    );
}

#[test]
fn a_context_name_with_glob_characters_is_matched_literally() {
    let rules = vec![rule("contexts: ['gke_[prod]?']\n")];
    assert!(protection(&rules, &scope("gke_[prod]?", None, ProtectVerb::Patch)).is_some());
    assert!(protection(&rules, &scope("gke_p", None, ProtectVerb::Patch)).is_none());
    assert!(protection(&rules, &scope("gke_[prod]x", None, ProtectVerb::Patch)).is_none());
}

#[test]
fn a_rule_with_namespaces_skips_cluster_scoped_objects_but_not_its_namespace_object() {
    let rules = vec![rule("contexts: [prod]\nnamespaces: [shop]\n")];
    assert!(protection(&rules, &scope("prod", None, ProtectVerb::Delete)).is_none());
    let ns = judged_namespace("Namespace", None, "shop");
    assert!(protection(&rules, &scope("prod", ns, ProtectVerb::Delete)).is_some());
    assert_eq!(judged_namespace("ConfigMap", Some("a"), "shop"), Some("a"));
}

#[test]
fn lift_durations_parse_and_refuse_negative_huge_and_unparsable_text() {
    assert_eq!(duration_text::parse("15m"), Ok(Duration::from_secs(900)));
    assert_eq!(duration_text::parse("1h30m"), Ok(Duration::from_secs(5400)));
    for bad in [
        "",
        "-5m",
        "0s",
        "5",
        "1d",
        "9999999999999999999h",
        "31d",
        "721h",
        "1.5h",
        "m",
    ] {
        assert!(duration_text::parse(bad).is_err(), "{bad} must be refused");
    }
    assert_eq!(duration_text::format(Duration::from_secs(5400)), "1h30m");
    assert_eq!(duration_text::format(Duration::from_secs(45)), "45s");
}

fn lift(granted: &str, until: &str) -> Lift {
    Lift {
        id: "x".into(),
        context: "prod".into(),
        server: "https://10.0.0.1:6443".into(),
        namespace: None,
        granted: granted.parse().unwrap(),
        until: until.parse().unwrap(),
        reason: None,
    }
}

#[test]
fn a_lift_edited_to_a_far_future_end_or_granted_in_the_future_is_not_in_force() {
    let now: jiff::Timestamp = "2026-12-04T12:00:00Z".parse().unwrap();
    let hour = Duration::from_secs(3600);
    let l = lift("2026-12-04T11:50:00Z", "2026-12-04T12:10:00Z");
    assert_eq!(l.in_force(now, hour), Ok(true));
    let ended = lift("2026-12-04T11:00:00Z", "2026-12-04T11:30:00Z");
    assert_eq!(ended.in_force(now, hour), Ok(false));
    let far = lift("2026-12-04T11:50:00Z", "2099-01-01T00:00:00Z");
    assert!(matches!(
        far.in_force(now, hour),
        Err(LiftProblem::TooLong { .. })
    ));
    let both_edited = lift("2099-01-01T00:00:00Z", "2099-01-01T00:30:00Z");
    assert!(matches!(
        both_edited.in_force(now, hour),
        Err(LiftProblem::ClockBehind { .. })
    ));
    assert!(l.covers(&scope("prod", Some("any"), ProtectVerb::Patch)));
    assert!(!l.covers(&Scope {
        server: "https://other",
        ..scope("prod", None, ProtectVerb::Patch)
    }));
}

#[test]
fn another_spelling_of_the_same_server_url_is_the_same_server() {
    let r = rule("servers: ['https://127.0.0.1:41763']\nmode: block\n");
    for same in [
        "https://127.0.0.1:41763",
        "https://127.0.0.1:041763",
        "https://127.0.0.1:41763/?",
        "HTTPS://127.0.0.1:41763/",
        "https://user:pw@127.0.0.1:41763/path",
        "https://[::ffff:127.0.0.1]:41763",
    ] {
        assert!(r.holds_for(None, same), "{same}");
    }
    assert!(!r.holds_for(None, "https://127.0.0.1:41764"));
    let default_port = rule("servers: ['https://prod.example.com']\n");
    assert!(default_port.holds_for(None, "https://PROD.example.com:443/"));
    let glob = rule("servers: ['https://*.example.com:*']\n");
    assert!(glob.holds_for(None, "https://Prod.Example.com"));
    assert_eq!(canonical_server("https://[::1]:6443"), "https://[::1]:6443");
    assert_eq!(canonical_server("not a url"), "not a url");
}
