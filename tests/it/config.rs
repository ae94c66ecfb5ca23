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
