//! Unit tests of [`super::connect`] and the kubeconfig loading.

use std::path::PathBuf;

use super::*;

async fn connect_test(opts: &KubeOptions) -> Result<Cluster, ClusterError> {
    connect(opts, "0123abcd", std::time::Duration::from_secs(5)).await
}

const KUBECONFIG_A: &str = "apiVersion: v1\nkind: Config\ncurrent-context: a\nclusters:\n- name: a\n  cluster: {server: 'https://127.0.0.1:1'}\ncontexts:\n- name: a\n  context: {cluster: a, user: ua, namespace: team-a}\nusers:\n- name: ua\n  user: {token: t}\n";

#[test]
fn missing_files_in_kubeconfig_list_are_skipped_like_kubectl() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a");
    std::fs::write(&a, KUBECONFIG_A).unwrap();
    let opts = KubeOptions {
        kubeconfig_env: vec![dir.path().join("missing"), a.clone()],
        ..Default::default()
    };
    let kc = load_kubeconfig(&opts).unwrap().expect("one file exists");
    assert_eq!(kc.current_context.as_deref(), Some("a"));
}

#[test]
fn explicit_kubeconfig_flag_must_exist() {
    let opts = KubeOptions {
        kubeconfig: Some(PathBuf::from("/nonexistent/kc")),
        ..Default::default()
    };
    let e = load_kubeconfig(&opts).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("kubeconfig /nonexistent/kc: No such file"),
        "{e}"
    );
}

#[test]
fn a_kubeconfig_parse_error_never_quotes_the_file_so_tokens_stay_secret() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("kc");
    let text = KUBECONFIG_A.replace("user: {token: t}", "user: {token: ['s3cr3t-t0ken'}");
    std::fs::write(&bad, text).unwrap();
    let opts = KubeOptions {
        kubeconfig: Some(bad.clone()),
        ..Default::default()
    };
    let e = load_kubeconfig(&opts).unwrap_err().to_string();
    assert!(!e.contains("s3cr3t"), "{e}");
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(e.contains(&bad.display().to_string()), "{e}");
}

#[tokio::test]
async fn unknown_user_context_and_bad_namespace_are_errors_like_kubectl() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a");
    std::fs::write(&a, KUBECONFIG_A).unwrap();
    let base = KubeOptions {
        kubeconfig: Some(a),
        ..Default::default()
    };
    let with = |f: fn(&mut KubeOptions)| {
        let mut o = base.clone();
        f(&mut o);
        o
    };
    let e = connect_test(&with(|o| o.user = Some("nope".into())))
        .await
        .err()
        .unwrap();
    assert_eq!(
        e.to_string(),
        "auth info \"nope\" does not exist in the kubeconfig; see `kubectl config view`"
    );
    let e = connect_test(&with(|o| o.context = Some("nope".into())))
        .await
        .err()
        .unwrap();
    assert!(
        matches!(
            e,
            ClusterError::NoSuchEntry {
                kind: "context",
                ..
            }
        ),
        "{e}"
    );
    let e = connect_test(&with(|o| o.namespace = Some("Bad NS".into())))
        .await
        .err()
        .unwrap();
    assert!(matches!(e, ClusterError::Namespace(_)), "{e}");
    let e = connect_test(&with(|o| o.as_groups = vec!["system:masters".into()]))
        .await
        .err()
        .unwrap();
    assert!(matches!(e, ClusterError::GroupsWithoutUser), "{e}");
    // `-n ""` is as if not given: the context's namespace.
    let c = connect_test(&with(|o| o.namespace = Some(String::new())))
        .await
        .unwrap();
    assert_eq!(c.namespace, "team-a");
}

/// A service-account directory with a JWT-shaped token for `sub`, and its env.
fn pod(dir: &std::path::Path, ns: &str) -> crate::cluster::in_cluster::InClusterEnv {
    use base64::Engine;
    let claims = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .encode(r#"{"sub":"system:serviceaccount:ns1:watcher"}"#);
    std::fs::write(
        dir.join("token"),
        format!("eyJhbGciOiJSUzI1NiJ9.{claims}.c2ln"),
    )
    .unwrap();
    std::fs::write(dir.join("namespace"), ns).unwrap();
    crate::cluster::in_cluster::InClusterEnv {
        service_host: Some("fd00::1".into()),
        service_port: Some("6443".into()),
        pod_namespace: None,
        account_dir: Some(dir.to_path_buf()),
    }
}

#[tokio::test]
async fn without_a_kubeconfig_a_pods_service_account_is_used_like_client_go() {
    let d = tempfile::tempdir().unwrap();
    let opts = KubeOptions {
        default_kubeconfig: Some(d.path().join("no-such-kubeconfig")),
        in_cluster: pod(d.path(), "ns1\n"),
        ..Default::default()
    };
    let c = connect_test(&opts).await.unwrap();
    assert_eq!(c.server, "https://[fd00::1]:6443");
    assert_eq!(c.namespace, "ns1");
    assert_eq!(c.context, None);
    assert_eq!(
        c.configured_user.as_deref(),
        Some("system:serviceaccount:ns1:watcher")
    );
    // -n still overrides the pod's namespace.
    let mut with_n = opts.clone();
    with_n.namespace = Some("other".into());
    assert_eq!(connect_test(&with_n).await.unwrap().namespace, "other");
    // A flag naming a context (or server) means a kubeconfig was meant: no fallback.
    let mut with_context = opts.clone();
    with_context.context = Some("prod".into());
    let e = connect_test(&with_context).await.err().unwrap();
    assert!(matches!(e, ClusterError::NoKubeconfig { .. }), "{e}");
    let mut with_server = opts.clone();
    with_server.server = Some("https://127.0.0.1:1".into());
    let c = connect_test(&with_server).await.unwrap();
    assert_eq!(
        (c.server.as_str(), c.namespace.as_str()),
        ("https://127.0.0.1:1", "default")
    );
}

#[tokio::test]
async fn a_kubeconfig_context_without_a_namespace_takes_the_pods_namespace() {
    let d = tempfile::tempdir().unwrap();
    let kc = d.path().join("kc");
    std::fs::write(&kc, KUBECONFIG_A.replace(", namespace: team-a", "")).unwrap();
    let opts = KubeOptions {
        kubeconfig: Some(kc.clone()),
        in_cluster: pod(d.path(), "ns1"),
        ..Default::default()
    };
    let c = connect_test(&opts).await.unwrap();
    assert_eq!(
        (c.server.as_str(), c.namespace.as_str()),
        ("https://127.0.0.1:1", "ns1")
    );
    std::fs::write(&kc, KUBECONFIG_A).unwrap();
    assert_eq!(connect_test(&opts).await.unwrap().namespace, "team-a");
}

#[tokio::test]
async fn default_namespace_comes_from_the_context_and_n_overrides_it() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a");
    std::fs::write(&a, KUBECONFIG_A).unwrap();
    let opts = KubeOptions {
        kubeconfig: Some(a.clone()),
        ..Default::default()
    };
    let c = connect_test(&opts).await.unwrap();
    assert_eq!(c.namespace, "team-a");
    assert_eq!(c.context.as_deref(), Some("a"));
    assert_eq!(c.configured_user.as_deref(), Some("ua"));
    let opts = KubeOptions {
        kubeconfig: Some(a),
        namespace: Some("other".into()),
        ..Default::default()
    };
    assert_eq!(connect_test(&opts).await.unwrap().namespace, "other");
}

#[test]
fn a_fan_out_context_gets_only_its_context_cluster_and_user_and_connects_as_from_the_file() {
    let text = "apiVersion: v1\nkind: Config\ncurrent-context: a\nclusters:\n- name: a\n  cluster: {server: 'https://127.0.0.1:1'}\n- name: b\n  cluster: {server: 'https://127.0.0.1:2'}\n- name: c\n  cluster: {server: 'https://127.0.0.1:3'}\ncontexts:\n- name: a\n  context: {cluster: a, user: ua, namespace: team-a}\n- name: b\n  context: {cluster: b, user: ub, namespace: team-b}\nusers:\n- name: ua\n  user: {token: ta}\n- name: ub\n  user: {token: tb}\n- name: uc\n  user: {token: tc}\n";
    let kc = Kubeconfig::from_yaml(text).unwrap();
    let names = |k: &Kubeconfig| {
        (
            k.contexts
                .iter()
                .map(|c| c.name.clone())
                .collect::<Vec<_>>(),
            k.clusters
                .iter()
                .map(|c| c.name.clone())
                .collect::<Vec<_>>(),
            k.auth_infos
                .iter()
                .map(|c| c.name.clone())
                .collect::<Vec<_>>(),
            k.current_context.clone(),
        )
    };
    let opts = KubeOptions::default();
    assert_eq!(
        names(&for_context(&kc, "b", &opts)),
        (
            vec!["b".to_string()],
            vec!["b".to_string()],
            vec!["ub".to_string()],
            Some("b".to_string())
        )
    );
    // --cluster/--user name other entries: those are kept too.
    let flags = KubeOptions {
        cluster: Some("c".into()),
        user: Some("uc".into()),
        ..KubeOptions::default()
    };
    let (_, clusters, users, _) = names(&for_context(&kc, "a", &flags));
    assert_eq!(
        (clusters, users),
        (
            vec!["a".to_string(), "c".to_string()],
            vec!["ua".to_string(), "uc".to_string()]
        )
    );
    // Connecting from the part is connecting from the file: same server, namespace, context.
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let preloaded = KubeOptions {
        context: Some("b".into()),
        preloaded: Some(std::sync::Arc::new(for_context(&kc, "b", &opts))),
        ..KubeOptions::default()
    };
    let c = rt.block_on(connect_test(&preloaded)).unwrap();
    assert_eq!(
        (
            c.server.as_str(),
            c.namespace.as_str(),
            c.context.as_deref()
        ),
        ("https://127.0.0.1:2", "team-b", Some("b"))
    );
    // A context missing from the file is still reported as missing.
    let missing = KubeOptions {
        context: Some("zz".into()),
        preloaded: Some(std::sync::Arc::new(for_context(&kc, "zz", &opts))),
        ..KubeOptions::default()
    };
    let Err(e) = rt.block_on(connect_test(&missing)) else {
        panic!("a context that is not in the kubeconfig connected");
    };
    assert!(
        matches!(
            e,
            ClusterError::NoSuchEntry {
                kind: "context",
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn the_reason_header_is_percent_encoded_and_decodes_back_exactly() {
    for reason in [
        "incident 4711",
        "é ü — 日本",
        "line\nbreak\r\tand\u{7f}del",
        "100% sure %41",
        " padded ",
        "\"quoted\" 'text' ; , = /",
    ] {
        let (name, value) = reason_header(reason);
        assert_eq!(name.as_str(), "myops-reason");
        let text = value.to_str().expect("visible ASCII");
        assert!(
            text.bytes().all(|b| b.is_ascii_graphic()),
            "{reason:?} → {text:?}"
        );
        let back = percent_encoding::percent_decode_str(text)
            .decode_utf8()
            .unwrap();
        assert_eq!(back, reason);
    }
    assert_eq!(
        reason_header("incident é 1").1.to_str().unwrap(),
        "incident%20%C3%A9%201"
    );
}

#[test]
fn the_user_agent_names_the_command_and_ends_with_the_session() {
    let v = env!("CARGO_PKG_VERSION");
    let ua = super::user_agent("0123abcd", Some("crds watch"));
    assert_eq!(
        ua,
        format!("kubectl-myops/{v} (myops crds watch) session/0123abcd")
    );
    assert!(http::HeaderValue::from_str(&ua).is_ok());
    assert_eq!(
        super::user_agent("0123abcd", None),
        format!("kubectl-myops/{v} session/0123abcd")
    );
    // Nothing but letters, digits, spaces and dashes reaches the comment.
    assert_eq!(
        super::user_agent("s", Some("x)\r\n(y")),
        format!("kubectl-myops/{v} (myops xy) session/s")
    );
    assert_eq!(
        super::command_header("changelog show").unwrap(),
        "kubectl myops changelog show"
    );
}
