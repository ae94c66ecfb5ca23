//! plugin.yaml through the real binary: bad files are exit 2 with file:line:column, never
//! a panic; `config schema` and `config validate` work without a cluster.

use std::process::{Command, Stdio};

fn run(args: &[&str], config: Option<&std::path::Path>) -> (i32, String, String) {
    let home = tempfile::tempdir().unwrap();
    let mut c = Command::new(env!("CARGO_BIN_EXE_kubectl-myops"));
    c.args(args)
        .env_clear()
        .env("HOME", home.path())
        .env("MYOPS_HOME", home.path().join("m"))
        .stdin(Stdio::null());
    if let Some(p) = config {
        c.env("MYOPS_CONFIG", p);
    }
    let out = c.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

const GOOD: &str =
    "name: myops\nverbs: [get]\nresources: [pods]\nscopes: [namespace]\nmetrics: [ops_total]\n";

#[test]
fn bad_plugin_yaml_is_exit_2_with_file_line_column_for_every_case() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&str, &str, &str, &str)] = &[
        (
            "unknown-key",
            "name: myops\nverbs: [get]\nresources: [pods]\nscopes: [namespace]\nbogus: 1\n",
            "5:1",
            "unknown key `bogus`",
        ),
        (
            "wrong-type",
            "name: myops\nverbs: 5\nresources: [pods]\nscopes: [namespace]\n",
            "2:8",
            "wrong type for `verbs`",
        ),
        ("empty", "", "1:1", "plugin.yaml is empty"),
        (
            "tab-indent",
            "name: myops\nverbs: [get]\nresources: [pods]\nscopes: [namespace]\npushgateway:\n\turl: http://x\n",
            "6:1",
            "tab",
        ),
        (
            "duplicate-key",
            "name: myops\nverbs: [get]\nresources: [pods]\nscopes: [namespace]\nname: other\n",
            "5:1",
            "duplicate key `name`",
        ),
        (
            "unknown-metric",
            "name: myops\nverbs: [get]\nresources: [pods]\nscopes: [namespace]\nmetrics: [ops_total, ops_totl]\n",
            "5:22",
            "unknown metric `ops_totl`",
        ),
    ];
    for (name, text, at, what) in cases {
        let path = dir.path().join(format!("{name}.yaml"));
        std::fs::write(&path, text).unwrap();
        // Through `config validate PATH` and through a verb that loads it (MYOPS_CONFIG).
        let (code, stdout, stderr) = run(&["config", "validate", path.to_str().unwrap()], None);
        assert_eq!(code, 2, "{name}: {stderr}");
        assert_eq!(stdout, "", "{name}");
        let want = format!("{}:{at}: ", path.display());
        assert!(
            stderr.contains(&want) && stderr.contains(what),
            "{name}: want {want}…{what}, got {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{name}: {stderr}");
        let (code, _, stderr) = run(&["get", "pods"], Some(&path));
        assert_eq!(code, 2, "{name}: {stderr}");
        assert!(stderr.contains(&want), "{name}: {stderr}");
    }
}

#[test]
fn config_validate_summarises_a_good_file_and_schema_is_json() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("plugin.yaml");
    std::fs::write(&path, GOOD).unwrap();
    let (code, stdout, _) = run(&["config", "validate", path.to_str().unwrap()], None);
    assert_eq!(code, 0);
    assert!(
        stdout.starts_with(&format!("{}: valid\n", path.display())),
        "{stdout}"
    );
    assert!(
        stdout.contains("  verbs: get\n")
            && stdout.contains("  pushgateway: (none: metrics stay local)\n"),
        "{stdout}"
    );
    let (code, stdout, _) = run(&["config", "schema"], None);
    assert_eq!(code, 0);
    let schema: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(schema["additionalProperties"], false);
    assert!(schema["properties"]["crdDir"].is_object(), "{stdout}");
    // With no file anywhere, the built-in default (the repository's plugin.yaml) is used.
    let (code, stdout, _) = run(&["config", "validate"], None);
    assert_eq!(code, 0);
    assert!(stdout.starts_with("built-in default: valid"), "{stdout}");
}

#[test]
fn version_names_the_commit_and_api_versions() {
    let (code, stdout, _) = run(&["version"], None);
    assert_eq!(code, 0);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines[0],
        format!("kubectl-myops {}", env!("CARGO_PKG_VERSION"))
    );
    assert!(lines[1].starts_with("git commit: ") && lines[1].len() > "git commit: ".len());
    assert!(lines[2].starts_with("kube-rs: 5."), "{stdout}");
    assert!(
        lines[3].starts_with("Kubernetes API: 1.36 (k8s-openapi 0.29"),
        "{stdout}"
    );
}

/// Found in the hostile pass over issue 15 (helper H): `changelog.maxAge: 90` — a bare
/// number beside the documented default `90d` — was taken as 90 *seconds*, so the log
/// rotated every minute and a half and five rotations later the history was gone. A bare
/// number is now exit 2 with file:line:column asking for the unit; with a unit it still works.
#[test]
fn changelog_max_age_without_a_unit_was_taken_as_seconds() {
    let dir = tempfile::tempdir().unwrap();
    for value in ["90", "1.5", "0"] {
        let path = dir.path().join("plugin.yaml");
        std::fs::write(&path, format!("{GOOD}changelog:\n  maxAge: {value}\n")).unwrap();
        let (code, stdout, stderr) = run(&["config", "validate", path.to_str().unwrap()], None);
        assert_eq!((code, stdout.as_str()), (2, ""), "{value}: {stderr}");
        let want = format!("{}:7:11: ", path.display());
        assert!(
            stderr.contains(&want) && stderr.contains("with d, h, m or s"),
            "{value}: {stderr}"
        );
    }
    let path = dir.path().join("plugin.yaml");
    std::fs::write(&path, format!("{GOOD}changelog:\n  maxAge: 90d\n")).unwrap();
    let (code, stdout, stderr) = run(&["config", "validate", path.to_str().unwrap()], None);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("when its first record is 90d old"),
        "{stdout}"
    );
}

/// `config validate` on a plugin.yaml with `protect:` rules, through `MYOPS_CONFIG` and
/// `PATH`, with `KUBECONFIG` naming a kubeconfig of its own: stdout, stderr and exit code.
fn validate_protect(config: &str, kubeconfig: Option<&str>) -> (i32, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("plugin.yaml");
    std::fs::write(&path, config).unwrap();
    let kc = dir.path().join("kubeconfig");
    let mut answers = Vec::new();
    for args in [
        vec!["config", "validate"],
        vec!["config", "validate", path.to_str().unwrap()],
    ] {
        let mut c = Command::new(env!("CARGO_BIN_EXE_kubectl-myops"));
        c.args(&args)
            .env_clear()
            .env("HOME", dir.path())
            .env("MYOPS_HOME", dir.path().join("m"))
            .env("MYOPS_CONFIG", &path)
            .stdin(Stdio::null());
        if let Some(text) = kubeconfig {
            std::fs::write(&kc, text).unwrap();
            c.env("KUBECONFIG", &kc);
        }
        let out = c.output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).replace(&*path.to_string_lossy(), "P");
        answers.push((
            out.status.code().unwrap_or(-1),
            stdout,
            String::from_utf8_lossy(&out.stderr).replace(&*path.to_string_lossy(), "P"),
        ));
    }
    assert_eq!(answers[0], answers[1], "MYOPS_CONFIG and PATH agree");
    answers.remove(0)
}

/// A kubeconfig with the contexts `admin` and `prod-eu` (never connected to).
const TWO_CONTEXTS: &str = "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: \"https://127.0.0.1:1\"}\nusers:\n- name: u\n  user: {token: t}\ncontexts:\n- name: admin\n  context: {cluster: c, user: u}\n- name: prod-eu\n  context: {cluster: c, user: u}\ncurrent-context: admin\n";

#[test]
fn config_validate_lists_protect_rules_and_warns_about_ones_that_never_apply() {
    let config = format!(
        "{}protect:\n\
         - contexts: [\"prod-*\"]\n  servers: [\"https://prod.example.com:6443\"]\n  mode: type-name\n  requireReason: true\n  message: \"Production: ask in #ops first\"\n\
         - contexts: [\"prod-*\"]\n  servers: [\"https://prod.example.com:6443\"]\n  namespaces: [payments]\n  verbs: [patch]\n\
         - contexts: [staging]\n  namespaces: [\"team-*\"]\n  verbs: [delete, undelete]\n  mode: block\n  maxLift: 15m\n\
         - contexts: [admin]\n  verbs: [scale]\n\
         changeCause: true\n",
        GOOD.replace("[get]", "[get, patch]")
    );
    let (code, stdout, stderr) = validate_protect(&config, Some(TWO_CONTEXTS));
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.ends_with(
            "  policies: (none)\n\
             \x20 protect: 4 rules (a change where one matches is asked for or refused; the strictest wins: block > type-name > confirm)\n\
             \x20   [0] contexts prod-*; servers https://prod.example.com:6443 — namespaces (all, and cluster-scoped); verbs (all mutating); mode type-name; requireReason true; maxLift 1h — \"Production: ask in #ops first\"\n\
             \x20   [1] contexts prod-*; servers https://prod.example.com:6443 — namespaces payments; verbs patch; mode confirm; requireReason false; maxLift 1h\n\
             \x20   [2] contexts staging — namespaces team-*; verbs delete, undelete; mode block; requireReason false; maxLift 15m\n\
             \x20   [3] contexts admin — namespaces (all, and cluster-scoped); verbs scale; mode confirm; requireReason false; maxLift 1h\n\
             \x20 changeCause: a --reason is also written as the kubernetes.io/change-cause annotation of the workloads a change patches\n"
        ),
        "{stdout}"
    );
    assert_eq!(
        stderr,
        "warning: protect[1] never changes what is asked: protect[0] holds wherever it does and is at least as strict (mode type-name, requireReason true, maxLift 1h); remove protect[1] or narrow protect[0]\n\
         warning: protect[2] can never match: plugin.yaml verbs allow none of its verbs (they need delete); add one to verbs or remove the rule\n\
         warning: protect[3] can never match: plugin.yaml verbs allow none of its verbs (they need scale); add one to verbs or remove the rule\n"
    );
    // The kubeconfig names no `staging`: a rule without servers for it is warned about,
    // and only when a kubeconfig is there to compare with.
    let config = config.replace("[get, patch]", "[get, patch, delete, scale]");
    let (code, _, stderr) = validate_protect(&config, Some(TWO_CONTEXTS));
    assert_eq!(
        (code, stderr.as_str()),
        (
            0,
            "warning: protect[1] never changes what is asked: protect[0] holds wherever it does and is at least as strict (mode type-name, requireReason true, maxLift 1h); remove protect[1] or narrow protect[0]\n\
             warning: protect[2] matches no context of this kubeconfig (\"staging\") and names no servers: check the context names, or add servers: so the rule holds wherever the cluster is reached\n"
        )
    );
    let (code, _, stderr) = validate_protect(&config, None);
    assert_eq!(
        (code, stderr.lines().count()),
        (0, 1),
        "no kubeconfig, no context warning: {stderr}"
    );
}

#[test]
fn bad_protect_rules_are_exit_2_at_the_value() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "- mode: block\n",
            "7:3",
            "protect[0] names no contexts and no servers, so it protects nothing",
        ),
        (
            "- contexts: [prod]\n  maxLift: -5m\n",
            "8:12",
            "`maxLift`: invalid duration \"-5m\": use a duration more than 0 and at most 30 days with h, m or s, e.g. 15m or 1h30m",
        ),
        (
            "- contexts: [prod]\n  maxLift: 0s\n",
            "8:12",
            "`maxLift`: invalid duration \"0s\"",
        ),
        (
            "- contexts: [prod]\n  maxLift: forever\n",
            "8:12",
            "`maxLift`: invalid duration \"forever\"",
        ),
        (
            "- contexts: [prod]\n  verbs: []\n",
            "8:10",
            "protect[0].verbs is empty",
        ),
        (
            "- contexts: [prod]\n  requireReasons: true\n",
            "8:3",
            "unknown key `requireReasons`: remove it or fix its spelling (allowed here: contexts, servers, namespaces, verbs, mode, requireReason, message, maxLift)",
        ),
        (
            "- servers: [prod.example.com]\n",
            "7:13",
            "protect[0].servers[0] \"prod.example.com\" can never match",
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("plugin.yaml");
    for (rules, at, what) in cases {
        std::fs::write(&path, format!("{GOOD}protect:\n{rules}")).unwrap();
        let (code, stdout, stderr) = run(&["config", "validate", path.to_str().unwrap()], None);
        assert_eq!((code, stdout.as_str()), (2, ""), "{rules}");
        assert!(
            stderr.starts_with(&format!("error: {}:{at}: {what}", path.display()))
                && stderr.lines().count() == 1,
            "{rules}: {stderr}"
        );
    }
}

#[test]
fn protect_values_with_escape_sequences_are_shown_escaped() {
    let config = format!(
        "{GOOD}protect:\n- contexts: [\"\\e[2Jprod\\u202e\"]\n  namespaces: [\"*\"]\n  message: \"\\e[31mred\"\n"
    );
    let (code, stdout, stderr) = validate_protect(&config, Some(TWO_CONTEXTS));
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.ends_with(
            "    [0] contexts \\u{1b}[2Jprod\\u{202e} — namespaces *; verbs (all mutating); mode confirm; requireReason false; maxLift 1h — \"\\u{1b}[31mred\"\n"
        ),
        "{stdout}"
    );
    assert_eq!(
        stderr,
        "warning: protect[0] can never match: plugin.yaml verbs allow none of its verbs (they need patch, delete, apply, scale, label, annotate, edit, rollout); add one to verbs or remove the rule\n"
    );
    let (_, _, stderr) =
        validate_protect(&config.replace("[get]", "[get, patch]"), Some(TWO_CONTEXTS));
    assert_eq!(
        stderr,
        "warning: protect[0] matches no context of this kubeconfig (\"\\u{1b}[2Jprod\\u{202e}\") and names no servers: check the context names, or add servers: so the rule holds wherever the cluster is reached\n"
    );
}
