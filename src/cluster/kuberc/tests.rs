//! Unit tests of the kuberc lookup, parsing and credential plugin policy.

use super::*;

const V1BETA1: &str = "apiVersion: kubectl.config.k8s.io/v1beta1\nkind: Preference\n";

#[test]
fn kuberc_location_follows_kubectl_flag_then_env_then_home_and_off() {
    let home = Path::new("/home/u");
    assert_eq!(
        locate(None, None, Some(home)).unwrap(),
        KubercSource::Default(PathBuf::from("/home/u/.kube/kuberc"))
    );
    assert_eq!(
        locate(None, Some("/e/rc"), Some(home)).unwrap(),
        KubercSource::Explicit(PathBuf::from("/e/rc"))
    );
    assert_eq!(
        locate(Some(Path::new("/f/rc")), Some("/e/rc"), Some(home)).unwrap(),
        KubercSource::Explicit(PathBuf::from("/f/rc"))
    );
    assert_eq!(
        locate(None, Some("off"), Some(home)).unwrap(),
        KubercSource::Off
    );
    assert_eq!(
        locate(Some(Path::new("/f/rc")), Some("off"), Some(home)).unwrap_err(),
        KubercError::OffAndFlag
    );
    assert_eq!(locate(None, None, None).unwrap(), KubercSource::Off);
}

#[test]
fn policies_parse_and_other_sections_are_ignored() {
    assert_eq!(parse("").unwrap(), PluginPolicy::AllowAll);
    let aliases = format!(
        "{V1BETA1}aliases:\n- name: getn\n  command: get\n  appendArgs: [namespaces]\ndefaults:\n- command: apply\n  options: [{{name: server-side, default: 'true'}}]\n"
    );
    assert_eq!(parse(&aliases).unwrap(), PluginPolicy::AllowAll);
    assert_eq!(
        parse(&format!("{V1BETA1}credentialPluginPolicy: DenyAll\n")).unwrap(),
        PluginPolicy::DenyAll
    );
    assert_eq!(
        parse(&format!(
            "{V1BETA1}credentialPluginPolicy: Allowlist\ncredentialPluginAllowlist:\n- command: gke-auth\n- name: /usr/bin/x\n"
        ))
        .unwrap(),
        PluginPolicy::Allowlist(vec!["gke-auth".into(), "/usr/bin/x".into()])
    );
    // A first document of another kind is skipped, as kubectl's decodePreference does.
    let two =
        format!("apiVersion: v1\nkind: Config\n---\n{V1BETA1}credentialPluginPolicy: DenyAll\n");
    assert_eq!(parse(&two).unwrap(), PluginPolicy::DenyAll);
    // A policy field in another case is not read, and not taken for AllowAll either.
    let misspelled = parse(&format!("{V1BETA1}credentialpluginpolicy: DenyAll\n")).unwrap();
    assert!(
        matches!(&misspelled, PluginPolicy::Unknown(why) if why.starts_with("\"credentialpluginpolicy\" is not a kuberc field")),
        "{misspelled:?}"
    );
}

#[test]
fn misconfigured_policies_are_errors_as_client_go_validates_them() {
    let cases = [
        ("credentialPluginPolicy: Allowlist\n", "unspecified"),
        (
            "credentialPluginPolicy: Allowlist\ncredentialPluginAllowlist: []\n",
            "DenyAll",
        ),
        (
            "credentialPluginPolicy: DenyAll\ncredentialPluginAllowlist: [{command: x}]\n",
            "misconfigured",
        ),
        (
            "credentialPluginAllowlist: [{command: x}]\n",
            "misconfigured",
        ),
        (
            "credentialPluginPolicy: Allowlist\ncredentialPluginAllowlist: [{}]\n",
            "empty allowlist entry #1",
        ),
        (
            "credentialPluginPolicy: Allowlist\ncredentialPluginAllowlist: [{command: /usr//bin/x}]\n",
            "non-normalized",
        ),
        (
            "credentialPluginPolicy: Allowlist\ncredentialPluginAllowlist: [{command: a, name: b}]\n",
            "deprecated",
        ),
        (
            "credentialPluginPolicy: denyall\n",
            "unknown credential plugin policy",
        ),
    ];
    for (body, want) in cases {
        let e = parse(&format!("{V1BETA1}{body}")).unwrap_err().to_string();
        assert!(e.contains(want), "{body}: {e}");
    }
    let e = parse("apiVersion: kubectl.config.k8s.io/v1alpha1\nkind: Preference\ncredentialPluginPolicy: DenyAll\n").unwrap_err().to_string();
    assert!(
        e.contains("only in apiVersion kubectl.config.k8s.io/v1beta1"),
        "{e}"
    );
    let e = parse("apiVersion: v1\nkind: Config\n").unwrap_err();
    assert!(
        matches!(&e, ParseError::NoPreferences(m) if m.contains("no valid preferences found")),
        "{e}"
    );
    let e = parse("a: [").unwrap_err();
    assert!(
        matches!(&e, ParseError::NoPreferences(m) if m.starts_with("not valid YAML")),
        "{e}"
    );
}

#[test]
fn go_filepath_clean_is_reproduced() {
    for (i, o) in [
        ("", "."),
        ("a//b/./c/", "a/b/c"),
        ("/../x", "/x"),
        ("../a/..", ".."),
        ("/usr/local/bin/p", "/usr/local/bin/p"),
        ("a/../../b", "../b"),
    ] {
        assert_eq!(clean(i), o, "{i}");
    }
}

#[test]
fn allowlist_matches_by_verbatim_name_resolved_path_or_basename_lookup() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let plugin = bin.join("my-plugin");
    std::fs::write(&plugin, "#!/bin/sh\n").unwrap();
    std::fs::set_permissions(&plugin, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path_env = format!("/nonexistent:{}", bin.display());
    let full = plugin.display().to_string();
    let allow = |entries: &[&str]| Policy {
        policy: PluginPolicy::Allowlist(entries.iter().map(|e| e.to_string()).collect()),
        file: Some(PathBuf::from("/k/kuberc")),
        warning: None,
    };
    // A bare name in the list allows the plugin named by name or by its full path.
    assert!(check_plugin(&allow(&["my-plugin"]), "my-plugin", &path_env).is_ok());
    assert!(check_plugin(&allow(&["my-plugin"]), &full, &path_env).is_ok());
    // A full path in the list allows the bare name that PATH resolves to it.
    assert!(check_plugin(&allow(&[&full]), "my-plugin", &path_env).is_ok());
    // Another plugin of the same base name elsewhere is not the allowed one.
    let e = check_plugin(&allow(&["/opt/my-plugin"]), "my-plugin", &path_env).unwrap_err();
    assert!(matches!(e, KubercError::Denied { .. }), "{e}");
    assert!(e.to_string().contains("/k/kuberc"), "{e}");
    // A plugin that cannot be resolved is refused, unless listed verbatim (as client-go).
    assert!(check_plugin(&allow(&["missing"]), "missing", &path_env).is_ok());
    let e = check_plugin(&allow(&["other"]), "missing", &path_env).unwrap_err();
    assert!(e.to_string().contains("not an executable"), "{e}");
    let deny = Policy {
        policy: PluginPolicy::DenyAll,
        file: Some(PathBuf::from("/k/kuberc")),
        warning: None,
    };
    let e = check_plugin(&deny, "my-plugin", &path_env)
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        "the credential plugin \"my-plugin\" of the kubeconfig user was not run: credentialPluginPolicy is DenyAll in /k/kuberc; allow it there (credentialPluginAllowlist) or use another user"
    );
    assert!(check_plugin(&Policy::default(), "anything", "").is_ok());
}
