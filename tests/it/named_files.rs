//! Files the user names on the command line may be FIFOs — bash's `<(…)` hands over
//! `/dev/fd/63` — and are read once, as kubectl reads them (docs/troubleshooting.md); a
//! default kuberc that gives no preferences is a warning, as in kubectl 1.36; a JSON patch
//! operation with an unknown `op` names the op it got; a kubeconfig with two entries of one
//! name is refused and a kuberc policy field spelled in another case is not taken for
//! `AllowAll`. Each test is named after the failure it reproduces on the build before.

use std::process::{Command, Stdio};

use crate::fixture::{Myops, Namespace, Run, cluster, kubectl};

/// Runs `script` with bash, `$0` being the binary under test, in `m`'s environment.
fn bash(m: &Myops, script: &str) -> Run {
    Command::new("bash")
        .arg("-c")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_kubectl-myops"))
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .envs(m.env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .stdin(Stdio::null())
        .output()
        .expect("bash runs")
        .into()
}

/// The real kubectl with `m`'s HOME (so its kuberc is the one `m` sees).
fn real_kubectl(m: &Myops, args: &[&str]) -> Run {
    let home = m.dir.path().join("home").display().to_string();
    crate::flags::real_kubectl(&[("HOME", &home)], args)
}

const PLUGIN: &str = "name: myops\nverbs: [get, patch, apply]\nresources: [configmaps, namespaces]\nscopes: [namespace, cluster]\nmetrics: [ops_total]\n";

#[test]
fn process_substitution_config_kubeconfig_and_kuberc_were_refused_as_fifos() {
    let ns = Namespace::new("named-fifo");
    let n = ns.0.clone();
    kubectl(&["create", "configmap", "one", "-n", &n, "--from-literal=k=v"]);
    let m = Myops::new(PLUGIN);
    let plugin = m.dir.path().join("plugin.yaml").display().to_string();
    let kubeconfig = cluster().kubeconfig.display().to_string();
    let get = format!("get configmap one -n {n} -o name");
    let want = (0, "configmap/one\n".to_string(), String::new());
    let cases = [
        format!("\"$0\" --config <(cat '{plugin}') {get}"),
        format!("MYOPS_CONFIG=<(cat '{plugin}') \"$0\" {get}"),
        format!("\"$0\" --kubeconfig <(cat '{kubeconfig}') {get}"),
        format!("KUBECONFIG=<(cat '{kubeconfig}') \"$0\" {get}"),
        format!(
            "\"$0\" --kuberc <(printf 'apiVersion: kubectl.config.k8s.io/v1beta1\\nkind: Preference\\ncredentialPluginPolicy: DenyAll\\n') {get}"
        ),
        format!("\"$0\" config validate <(cat '{plugin}') >/dev/null && \"$0\" {get}"),
    ];
    for script in cases {
        let r = bash(&m, &script);
        assert_eq!((r.code, r.stdout, r.stderr), want, "{script}");
    }
    // A template file is read the same way (it blocked without a deadline before).
    let r = bash(
        &m,
        &format!("\"$0\" get configmap one -n {n} -o jsonpath-file=<(echo '{{.metadata.name}}')"),
    );
    assert_eq!((r.code, r.stdout.as_str()), (0, "one\n"), "{r:?}");
}

#[test]
fn process_substitution_patch_file_and_apply_file_were_refused_as_fifos() {
    let ns = Namespace::new("named-fifo-change");
    let n = ns.0.clone();
    kubectl(&["create", "configmap", "one", "-n", &n, "--from-literal=k=v"]);
    let m = Myops::new(PLUGIN);
    let r = bash(
        &m,
        &format!(
            "\"$0\" patch configmap one -n {n} --type merge --patch-file <(echo '{{\"data\":{{\"k\":\"piped\"}}}}')"
        ),
    );
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        kubectl(&[
            "get",
            "configmap",
            "one",
            "-n",
            &n,
            "-o",
            "jsonpath={.data.k}"
        ]),
        "piped"
    );
    let r = bash(
        &m,
        &format!(
            "\"$0\" apply -n {n} -f <(printf 'apiVersion: v1\\nkind: ConfigMap\\nmetadata:\\n  name: two\\ndata:\\n  k: applied\\n')"
        ),
    );
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        kubectl(&[
            "get",
            "configmap",
            "two",
            "-n",
            &n,
            "-o",
            "jsonpath={.data.k}"
        ]),
        "applied"
    );
}

#[test]
fn a_named_fifo_nobody_writes_waits_for_the_request_deadline_only() {
    let m = Myops::new(PLUGIN);
    let fifo = m.dir.path().join("nobody.yaml");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let f = fifo.display().to_string();
    let jsonpath = format!("jsonpath-file={f}");
    for args in [
        vec!["--config", &f, "get", "namespaces"],
        vec!["--kubeconfig", &f, "get", "namespaces"],
        vec!["--kuberc", &f, "get", "namespaces"],
        vec!["get", "namespaces", "-o", &jsonpath],
    ] {
        let started = std::time::Instant::now();
        let mut all = args.clone();
        all.extend(["--request-timeout", "1s"]);
        let r = m.run(&all);
        let took = started.elapsed();
        assert_eq!(r.code, 2, "{args:?}: {r:?}");
        assert_eq!(r.stderr.lines().count(), 1, "{args:?}: {r:?}");
        assert!(
            r.stderr.starts_with("error: ")
                && r.stderr.contains(&f)
                && r.stderr.contains(
                    "it is a FIFO (named pipe) and nothing wrote to it and closed it within 1s; start the program that writes it"
                ),
            "{args:?}: {r:?}"
        );
        assert!(
            took < std::time::Duration::from_secs(10),
            "{args:?}: {took:?}"
        );
    }
}

#[test]
fn an_unreadable_default_kuberc_failed_every_command() {
    let ns = Namespace::new("named-kuberc");
    let n = ns.0.clone();
    kubectl(&["create", "configmap", "one", "-n", &n, "--from-literal=k=v"]);
    let m = Myops::new(PLUGIN);
    let kuberc = m.dir.path().join("home/.kube/kuberc");
    std::fs::create_dir_all(kuberc.parent().unwrap()).unwrap();
    let k = kuberc.display().to_string();
    let args = ["get", "configmap", "one", "-n", &n, "-o", "name"];
    // A directory stands for a file that cannot be read (the tests run as root, for whom
    // mode 000 reads fine), then text that is no YAML, then YAML with no Preference: kubectl
    // warns and goes on for each.
    let bad: [(&str, &dyn Fn()); 3] = [
        ("it is a directory, not a regular file", &|| {
            std::fs::create_dir(&kuberc).unwrap();
        }),
        ("not valid YAML", &|| {
            std::fs::remove_dir(&kuberc).unwrap();
            std::fs::write(&kuberc, "garbage: [").unwrap();
        }),
        ("no valid preferences found", &|| {
            std::fs::write(&kuberc, "apiVersion: v1\nkind: Config\n").unwrap();
        }),
    ];
    for (problem, make) in bad {
        make();
        let r = m.run(&args);
        assert_eq!(
            (r.code, r.stdout.as_str()),
            (0, "configmap/one\n"),
            "{problem}: {r:?}"
        );
        assert_eq!(r.stderr.lines().count(), 1, "{problem}: {r:?}");
        assert!(
            r.stderr.starts_with(&format!(
                "warning: kuberc: no preferences loaded from {k}: {problem}"
            )),
            "{r:?}"
        );
        let theirs = real_kubectl(&m, &args);
        assert_eq!(theirs.code, 0, "kubectl: {theirs:?}");
        assert!(
            theirs
                .stderr
                .contains(&format!("kuberc: no preferences loaded from {k}")),
            "kubectl: {theirs:?}"
        );
        // Named explicitly, the same file is an error (kubectl: the same).
        let mut explicit = args.to_vec();
        explicit.extend(["--kuberc", &k]);
        let r = m.run(&explicit);
        assert_eq!(r.code, 2, "{problem}: {r:?}");
        assert!(
            r.stderr.starts_with(&format!("error: kuberc {k}: ")),
            "{r:?}"
        );
    }
    // A Preference with an invalid policy is an error even in the default file, as in kubectl.
    std::fs::write(
        &kuberc,
        "apiVersion: kubectl.config.k8s.io/v1beta1\nkind: Preference\ncredentialPluginPolicy: Bogus\n",
    )
    .unwrap();
    let r = m.run(&args);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr
            .contains("unknown credential plugin policy \"Bogus\""),
        "{r:?}"
    );
    assert_ne!(real_kubectl(&m, &args).code, 0);
}

#[test]
fn json_patch_with_an_unknown_op_did_not_name_it() {
    let m = Myops::new(PLUGIN);
    for (patch, says) in [
        (
            r#"[{"op":"frob","path":"/data/k","value":"v"}]"#,
            "operation 1 has \"op\": \"frob\"; use one of add, remove, replace, move, copy or test",
        ),
        (
            r#"[{"op":"add","path":"/a","value":1},{"path":"/b"}]"#,
            "operation 2 has no \"op\"; use one of",
        ),
    ] {
        let r = m.run(&[
            "patch",
            "configmap",
            "any",
            "-n",
            "default",
            "--type",
            "json",
            "-p",
            patch,
        ]);
        assert_eq!(r.code, 2, "{r:?}");
        assert!(r.stderr.contains(says), "{r:?}");
    }
}

#[test]
fn an_unreadable_default_kuberc_let_every_credential_plugin_run() {
    let m0 = Myops::new(PLUGIN);
    let dir = m0.dir.path().to_path_buf();
    let marker = dir.join("plugin-ran");
    let (kc, bin) = crate::flags::exec_plugin_setup(&dir, &marker, "");
    let kuberc = dir.join("home/.kube/kuberc");
    std::fs::create_dir_all(&kuberc).unwrap();
    let mut m = m0;
    m.set_env("KUBECONFIG", &kc.display().to_string());
    let r = m.run(&["get", "namespaces", "default", "-o", "name"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        !marker.exists(),
        "the plugin ran under a kuberc that could not be read"
    );
    let k = kuberc.display().to_string();
    assert_eq!(
        r.stderr,
        format!(
            "error: the credential plugin \"{}\" of the kubeconfig user was not run: the credential plugin policy of the kuberc {k} could not be read (it is a directory, not a regular file; replace it with a regular file), so which plugins it allows is unknown; fix the file, or set KUBERC=off to run credential plugins without a policy\n",
            bin.join("myops-test-cred").display()
        )
    );
    // KUBERC=off says so deliberately: the plugin runs.
    m.set_env("KUBERC", "off");
    let r = m.run(&["get", "namespaces", "default", "-o", "name"]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "namespace/default\n"),
        "{r:?}"
    );
    assert!(marker.exists());
}

#[test]
fn a_kubeconfig_with_two_contexts_of_one_name_was_used_silently() {
    let m0 = Myops::new(PLUGIN);
    let kc = m0.dir.path().join("dup-kubeconfig");
    let mut doc: serde_json::Value =
        serde_json::from_str(&kubectl(&["config", "view", "--raw", "-o", "json"])).unwrap();
    let first = doc["contexts"][0].clone();
    let n = doc["contexts"].as_array().unwrap().len();
    doc["contexts"].as_array_mut().unwrap().push(first.clone());
    std::fs::write(&kc, doc.to_string()).unwrap();
    let mut m = m0;
    let k = kc.display().to_string();
    m.set_env("KUBECONFIG", &k);
    let r = m.run(&["get", "namespaces", "default", "-o", "name"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert_eq!(
        r.stderr,
        format!(
            "error: kubeconfig {k}: duplicate name {} in contexts (entries 1 and {}); fix the file or point --kubeconfig/KUBECONFIG elsewhere\n",
            first["name"],
            n + 1
        )
    );
    // The oracle refuses the same file.
    let theirs = crate::flags::real_kubectl(&[("KUBECONFIG", &k)], &["get", "namespaces"]);
    assert_ne!(theirs.code, 0, "{theirs:?}");
    assert!(theirs.stderr.contains("duplicate name"), "{theirs:?}");
}

#[test]
fn a_kuberc_policy_spelled_in_lowercase_let_every_plugin_run() {
    let m0 = Myops::new(PLUGIN);
    let dir = m0.dir.path().to_path_buf();
    let marker = dir.join("plugin-ran");
    let (kc, _) = crate::flags::exec_plugin_setup(&dir, &marker, "");
    let kuberc = dir.join("home/.kube/kuberc");
    std::fs::create_dir_all(kuberc.parent().unwrap()).unwrap();
    std::fs::write(
        &kuberc,
        "apiVersion: kubectl.config.k8s.io/v1beta1\nkind: Preference\ncredentialpluginpolicy: DenyAll\n",
    )
    .unwrap();
    let mut m = m0;
    m.set_env("KUBECONFIG", &kc.display().to_string());
    let r = m.run(&["get", "namespaces", "default", "-o", "name"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        !marker.exists(),
        "the plugin ran under a misspelled DenyAll"
    );
    assert!(
        r.stderr
            .contains("\"credentialpluginpolicy\" is not a kuberc field"),
        "{r:?}"
    );
    // A user without a plugin goes on, warned once.
    m.set_env("KUBECONFIG", &cluster().kubeconfig.display().to_string());
    let r = m.run(&["get", "namespaces", "default", "-o", "name"]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "namespace/default\n"),
        "{r:?}"
    );
    assert_eq!(
        r.stderr,
        format!(
            "warning: kuberc {}: \"credentialpluginpolicy\" is not a kuberc field (field names are case-sensitive: credentialPluginPolicy, credentialPluginAllowlist), so the credential plugin policy it means is not read\n",
            kuberc.display()
        )
    );
}

#[test]
fn a_piped_kuberc_denied_only_the_first_context_of_a_fan_out() {
    let m0 = Myops::new(PLUGIN);
    let dir = m0.dir.path().to_path_buf();
    let marker = dir.join("plugin-ran");
    let (kc, _) = crate::flags::exec_plugin_setup(&dir, &marker, "");
    // A second context with the same plugin user.
    let text = std::fs::read_to_string(&kc).unwrap().replace(
        "contexts:\n- name: e\n  context: {cluster: c, user: u}\n",
        "contexts:\n- name: e\n  context: {cluster: c, user: u}\n- name: f\n  context: {cluster: c, user: u}\n",
    );
    std::fs::write(&kc, text).unwrap();
    let mut m = m0;
    m.set_env("KUBECONFIG", &kc.display().to_string());
    let r = bash(
        &m,
        "\"$0\" --kuberc <(printf 'apiVersion: kubectl.config.k8s.io/v1beta1\\nkind: Preference\\ncredentialPluginPolicy: DenyAll\\n') --contexts e,f get namespaces default -o name",
    );
    assert_ne!(r.code, 0, "{r:?}");
    assert!(
        !marker.exists(),
        "a context ran the plugin the piped kuberc denies: {r:?}"
    );
    for context in ["e", "f"] {
        assert!(
            r.stderr
                .contains(&format!("context {context}: the credential plugin")),
            "{context}: {r:?}"
        );
    }
}

#[test]
fn a_piped_patch_file_reached_only_the_first_context_of_a_fan_out() {
    let ns = Namespace::new("named-fifo-fan");
    let n = ns.0.clone();
    kubectl(&["create", "configmap", "one", "-n", &n, "--from-literal=k=v"]);
    kubectl(&["--context", "admin-2", "create", "namespace", &n]);
    kubectl(&[
        "--context",
        "admin-2",
        "create",
        "configmap",
        "one",
        "-n",
        &n,
        "--from-literal=k=v",
    ]);
    let m = Myops::new(PLUGIN);
    let r = bash(
        &m,
        &format!(
            "\"$0\" patch configmap one -n {n} --type merge --patch-file <(echo '{{\"data\":{{\"k\":\"piped\"}}}}') --contexts admin,admin-2 --yes"
        ),
    );
    let on = |context: &str| {
        kubectl(&[
            "--context",
            context,
            "get",
            "configmap",
            "one",
            "-n",
            &n,
            "-o",
            "jsonpath={.data.k}",
        ])
    };
    let seen = (on("admin"), on("admin-2"));
    kubectl(&[
        "--context",
        "admin-2",
        "delete",
        "namespace",
        &n,
        "--wait=false",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(seen, ("piped".to_string(), "piped".to_string()), "{r:?}");
}
