//! Bad-input cases, classes 3, 4 and 7 of issue 10: files that are not regular files,
//! boundary files anyone can change, and oversized or escape-laden values echoed back.
//! plugin.yaml (through `config validate PATH`, `--config`, `$MYOPS_CONFIG` and the user
//! file) and CRD directories (through `crds sync DIR` and `crds list DIR`) run through the
//! shared harness; `crds watch` stopping on SIGTERM/SIGINT with a FIFO in its directory, and
//! registering other files meanwhile, are ordinary tests at the end.

use std::io::{BufRead, BufReader};
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

use crate::fixture::{Myops, Run, root};
use crate::hostile::{CANARY, Case, run_cases};

/// A minimal valid plugin.yaml body (no Pushgateway).
const BASE: &str = "name: myops\nverbs: [get, patch]\nresources: [pods, customresourcedefinitions]\nscopes: [namespace, cluster]\n";

/// Writes `bytes` to `path` with exactly `mode`.
fn put(path: impl AsRef<Path>, bytes: impl AsRef<[u8]>, mode: u32) {
    let path = path.as_ref();
    std::fs::write(path, bytes).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// A FIFO at `path` (mkfifo(1)); nothing ever writes to it, so reading it would block forever.
fn fifo(path: &Path) {
    assert!(Command::new("mkfifo").arg(path).status().unwrap().success());
}

/// A Unix socket file at `path` (left behind by a listener that is gone).
fn socket(path: &Path) {
    drop(std::os::unix::net::UnixListener::bind(path).unwrap());
}

/// A CRD of these cases' own group.
fn crd(plural: &str) -> String {
    format!(
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: {plural}.hostile-files.example.com\nspec:\n  group: hostile-files.example.com\n  scope: Namespaced\n  names: {{plural: {plural}, kind: K{plural}}}\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema: {{openAPIV3Schema: {{type: object}}}}\n"
    )
}

/// Billion laughs: nine levels of nine aliases, 9⁹ nodes once expanded.
fn billion_laughs() -> String {
    let mut s = String::from(
        "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
    );
    for c in b'b'..=b'i' {
        let prev = (c - 1) as char;
        let c = c as char;
        s.push_str(&format!(
            "{c}: &{c} [{}]\n",
            vec![format!("*{prev}"); 9].join(",")
        ));
    }
    s
}

/// Runs the real kubectl as admin; the output or why it failed.
fn kubectl(args: &[&str]) -> Result<String, String> {
    let out = Command::new(root().join("target/testbin/kubectl"))
        .args(args)
        .env("KUBECONFIG", &crate::fixture::cluster().kubeconfig)
        .env("HOME", std::env::temp_dir().join("myops-test-kubectl-home"))
        .stdin(Stdio::null())
        .output()
        .map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// `after` check: stderr holds no raw ESC, BEL or C1 CSI (the escape sequence was escaped).
fn no_raw_escapes(_: &Myops, run: &Run) -> Result<(), String> {
    match run
        .stderr
        .chars()
        .find(|c| matches!(c, '\u{1b}' | '\u{7}' | '\u{9b}'))
    {
        Some(c) => Err(format!("raw control character {c:?} on stderr")),
        None => Ok(()),
    }
}

/// `config validate {dir}/p.yaml` where `make` prepares `p.yaml`: exit 2, stderr names it.
fn validate(name: &str, needle: &str, make: impl Fn(&Path) + Send + Sync + 'static) -> Case {
    Case::new(name, 2)
        .args(&["config", "validate", "{dir}/p.yaml"])
        .stderr_has(needle)
        .deadline(Duration::from_secs(15))
        .setup(move |m| make(&m.dir.path().join("p.yaml")))
}

/// `config validate` of a plugin.yaml with this text (mode 0600).
fn validate_text(name: &str, needle: &str, text: String) -> Case {
    validate(name, needle, move |p| put(p, &text, 0o600))
}

/// The CRD directory of a case: `{dir}/crds`, mode 0755, prepared by `make`.
fn crd_dir(m: &Myops, make: &(impl Fn(&Path) + Send + Sync)) {
    let d = m.dir.path().join("crds");
    std::fs::create_dir(&d).unwrap();
    std::fs::set_permissions(&d, std::fs::Permissions::from_mode(0o755)).unwrap();
    make(&d);
}

/// `crds sync {dir}/crds` (exit 2: a bad file is a usage error, reported with its place).
fn sync(name: &str, needle: &str, make: impl Fn(&Path) + Send + Sync + 'static) -> Case {
    Case::new(name, 2)
        .args(&["crds", "sync", "{dir}/crds"])
        .stderr_has(needle)
        .deadline(Duration::from_secs(20))
        .setup(move |m| crd_dir(m, &make))
}

/// `crds list {dir}/crds`: exit 0, the bad file a row and a `warning:` line naming it.
fn list(name: &str, needle: &str, make: impl Fn(&Path) + Send + Sync + 'static) -> Case {
    Case::new(name, 0)
        .args(&["crds", "list", "{dir}/crds"])
        .stderr_has("warning: ")
        .stderr_has(needle)
        .deadline(Duration::from_secs(20))
        .setup(move |m| crd_dir(m, &make))
}

/// `after` check: the CRD `plural` was registered despite the bad files (then removed again,
/// CRDs being cluster-wide).
fn registered(plural: &'static str) -> impl Fn(&Myops, &Run) -> Result<(), String> {
    move |_, run| {
        let name = format!("{plural}.hostile-files.example.com");
        let found = kubectl(&["get", "crd", &name, "-o", "name"]);
        let _ = kubectl(&["delete", "crd", &name, "--wait=false"]);
        if !run.stdout.contains(&format!("{name} registered")) {
            return Err(format!("stdout lacks `{name} registered`"));
        }
        found
            .map(|_| ())
            .map_err(|e| format!("{name} not on the cluster: {e}"))
    }
}

fn plugin_yaml_cases() -> Vec<Case> {
    let big_name = format!("name: {}\n", "n".repeat(5 * 1024 * 1024));
    let long_bad_name = BASE.replace("myops", &format!("N{}", "n".repeat(900_000)));
    let pg = |url: &str| format!("{BASE}pushgateway:\n  url: {url}\n");
    let with_password_file = |m: &mut Myops, make: &dyn Fn(&Path)| {
        let pw = m.dir.path().join("pw");
        make(&pw);
        let text = format!(
            "{BASE}pushgateway:\n  url: http://127.0.0.1:9\n  basicAuth: {{username: bot, passwordFile: {}}}\n",
            pw.display()
        );
        put(m.dir.path().join("plugin.yaml"), text, 0o600);
    };
    vec![
        validate("plugin_yaml_missing", "does not exist", |_| {}),
        validate(
            "plugin_yaml_is_a_directory",
            "it is a directory, not a regular file",
            |p| std::fs::create_dir(p).unwrap(),
        ),
        // A PATH named on the command line is read even as a FIFO (`config validate <(…)`),
        // but no longer than the deadline.
        validate(
            "plugin_yaml_is_a_fifo_hangs",
            "it is a FIFO (named pipe) and nothing wrote to it and closed it within 1s",
            fifo,
        )
        .args(&[
            "config",
            "validate",
            "{dir}/p.yaml",
            "--request-timeout",
            "1s",
        ]),
        validate(
            "plugin_yaml_symlink_to_fifo_hangs",
            "it is a FIFO (named pipe) and nothing wrote to it and closed it within 1s",
            |p| {
                let f = p.with_file_name("f");
                fifo(&f);
                symlink(&f, p).unwrap();
            },
        )
        .args(&[
            "config",
            "validate",
            "{dir}/p.yaml",
            "--request-timeout",
            "1s",
        ]),
        validate("plugin_yaml_is_a_socket", "it is a socket", socket),
        validate(
            "plugin_yaml_symlink_to_dev_zero_reads_forever",
            "character device",
            |p| symlink("/dev/zero", p).unwrap(),
        ),
        validate("plugin_yaml_symlink_loop", "symbolic link loop", |p| {
            let other = p.with_file_name("q.yaml");
            symlink(&other, p).unwrap();
            symlink(p, &other).unwrap();
        }),
        validate(
            "plugin_yaml_dangling_symlink",
            "dangling symbolic link",
            |p| symlink(p.with_file_name("gone.yaml"), p).unwrap(),
        ),
        validate_text("plugin_yaml_empty", "plugin.yaml is empty", String::new()),
        validate_text(
            "plugin_yaml_only_comments",
            "plugin.yaml is empty",
            "# nothing\n---\n".into(),
        ),
        validate("plugin_yaml_not_utf8", "not UTF-8 text", |p| {
            put(p, b"name: my\xff\xfeops\nverbs: [get]\n", 0o600)
        }),
        validate("plugin_yaml_binary_garbage", "p.yaml:1:", |p| {
            let bytes: Vec<u8> = (0..4096u32).map(|i| (i * 37 % 256) as u8).collect();
            put(p, bytes, 0o600)
        }),
        validate("plugin_yaml_nul_bytes", "p.yaml:1:", |p| {
            put(p, b"name: my\0ops\n\0\0", 0o600)
        }),
        validate_text(
            "plugin_yaml_five_megabyte_name_echoed_whole",
            "it is too large: 5242887 bytes, over the 1048576-byte limit",
            big_name,
        ),
        validate_text(
            "plugin_yaml_900k_character_bad_name_echoed_whole",
            "(900001 characters) is not a valid label value",
            long_bad_name,
        ),
        validate_text(
            "plugin_yaml_name_longer_than_a_label",
            "is 64 characters long: use at most 63",
            BASE.replace("myops", &"n".repeat(64)),
        ),
        validate_text(
            "plugin_yaml_resource_longer_than_a_dns_subdomain",
            "is 300 characters long: use at most 253",
            BASE.replace("[pods,", &format!("[{}.x,", "r".repeat(298))),
        ),
        validate(
            "plugin_yaml_group_writable_used_silently",
            "(mode 664)",
            |p| put(p, BASE, 0o664),
        )
        .stderr_has("chmod go-w"),
        validate(
            "plugin_yaml_world_writable_used_silently",
            "(mode 666)",
            |p| put(p, BASE, 0o666),
        )
        .stderr_has("group- or world-writable"),
        validate(
            "plugin_yaml_world_writable_through_a_symlink",
            "(mode 646)",
            |p| {
                let real = p.with_file_name("real.yaml");
                put(&real, BASE, 0o646);
                symlink(&real, p).unwrap();
            },
        ),
        Case::new("plugin_yaml_group_writable_from_myops_config_env", 2)
            .args(&["get", "pods", "-n", "default"])
            .stderr_has("refusing plugin.yaml")
            .stderr_has("chmod go-w")
            .setup(|m| {
                let p = m.dir.path().join("plugin.yaml");
                std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o664)).unwrap();
            }),
        Case::new("plugin_yaml_world_writable_from_config_flag", 2)
            .args(&["--config", "{dir}/p.yaml", "get", "pods", "-n", "default"])
            .stderr_has("(mode 666)")
            .setup(|m| put(m.dir.path().join("p.yaml"), BASE, 0o666)),
        Case::new("plugin_yaml_group_writable_user_file", 2)
            .args(&["get", "pods", "-n", "default"])
            .stderr_has("(mode 660)")
            .setup(|m| {
                m.env.retain(|(k, _)| k != "MYOPS_CONFIG");
                let user = m.dir.path().join("home/.kube/plugins/myops");
                std::fs::create_dir_all(&user).unwrap();
                put(user.join("plugin.yaml"), BASE, 0o660);
            }),
        Case::new("plugin_yaml_dangling_user_file_falls_back_to_builtin", 2)
            .args(&["get", "pods", "-n", "default"])
            .stderr_has("dangling symbolic link")
            .setup(|m| {
                m.env.retain(|(k, _)| k != "MYOPS_CONFIG");
                let user = m.dir.path().join("home/.kube/plugins/myops");
                std::fs::create_dir_all(&user).unwrap();
                symlink("/nonexistent/plugin.yaml", user.join("plugin.yaml")).unwrap();
            }),
        // Named by the user, so read once (a `<(…)`), but never waited for past the deadline.
        Case::new("plugin_yaml_fifo_from_myops_config_env_hangs", 2)
            .args(&["get", "pods", "-n", "default", "--request-timeout", "1s"])
            .stderr_has("it is a FIFO (named pipe) and nothing wrote to it and closed it within 1s")
            .deadline(Duration::from_secs(15))
            .setup(|m| {
                let p = m.dir.path().join("plugin.yaml");
                std::fs::remove_file(&p).unwrap();
                fifo(&p);
            }),
        validate_text(
            "plugin_yaml_unknown_key",
            "unknown key `verb`",
            BASE.replace("verbs:", "verb:"),
        ),
        validate_text(
            "plugin_yaml_unknown_key_with_escape_sequence",
            "unknown key",
            format!("{BASE}\"evil\\e[2J\\e]0;pwned\\a\": 1\n"),
        )
        .after(no_raw_escapes),
        validate_text(
            "plugin_yaml_200k_character_key_echoed_whole",
            "p.yaml:5:1: invalid YAML",
            format!("{BASE}\"{}\": 1\n", "k".repeat(200_000)),
        ),
        validate_text(
            "plugin_yaml_inline_password_key",
            "unknown key `password`",
            format!(
                "{BASE}pushgateway:\n  url: http://127.0.0.1:9\n  basicAuth: {{username: bot, password: {CANARY}}}\n"
            ),
        ),
        validate_text(
            "plugin_yaml_verbs_not_a_list",
            "wrong type for `verbs`",
            BASE.replace("[get, patch]", "5"),
        ),
        validate_text(
            "plugin_yaml_name_is_a_list",
            "wrong type for `name`",
            BASE.replace("myops", "[a, b]"),
        ),
        validate_text(
            "plugin_yaml_duplicate_key",
            "duplicate key `verbs`",
            format!("{BASE}verbs: [patch]\n"),
        ),
        validate_text(
            "plugin_yaml_tab_indentation",
            "a tab is used for indentation",
            format!("{BASE}pushgateway:\n\turl: http://x\n"),
        ),
        validate_text(
            "plugin_yaml_two_documents",
            "one YAML document",
            format!("{BASE}---\n{BASE}"),
        ),
        validate_text(
            "plugin_yaml_unknown_verb",
            "unknown verb `erase`",
            BASE.replace("[get, patch]", "[get, erase]"),
        ),
        validate_text(
            "plugin_yaml_unknown_scope",
            "unknown scope `world`",
            BASE.replace("[namespace, cluster]", "[world]"),
        ),
        validate_text(
            "plugin_yaml_bad_metrics_name",
            "unknown metric `ops_totl`",
            format!("{BASE}metrics: [ops_total, ops_totl]\n"),
        ),
        validate_text(
            "plugin_yaml_escape_sequence_in_metrics_name",
            "unknown metric",
            format!("{BASE}metrics: [\"ops\\e[31m_total\"]\n"),
        )
        .after(no_raw_escapes),
        validate_text(
            "plugin_yaml_escape_sequence_in_name",
            "is not a valid label value",
            BASE.replace("myops", "\"my\\e]0;pwned\\aops\""),
        )
        .after(no_raw_escapes),
        validate_text(
            "plugin_yaml_c1_escape_in_resource",
            "must be a plural or plural.group",
            BASE.replace("[pods,", "[\"po\\u009b31mds\","),
        )
        .after(no_raw_escapes),
        validate_text(
            "plugin_yaml_pushgateway_url_with_password",
            "must not hold a user name or password",
            pg(&format!("http://user:{CANARY}@127.0.0.1:9091")),
        ),
        validate_text(
            "plugin_yaml_pushgateway_url_with_password_and_bad_scheme",
            "must start with http:// or https://",
            pg(&format!("ftp://user:{CANARY}@127.0.0.1:9091")),
        ),
        validate_text(
            "plugin_yaml_pushgateway_url_with_escape_sequence",
            "must not contain spaces or control characters",
            pg("\"http://127.0.0.1:9091/\\e[2J\""),
        )
        .after(no_raw_escapes),
        Case::new("plugin_yaml_pushgateway_url_with_password_used_by_get", 2)
            .args(&["get", "pods", "-n", "default"])
            .stderr_has("must not hold a user name or password")
            .plugin(&pg(&format!("http://user:{CANARY}@127.0.0.1:9091"))),
        validate_text(
            "plugin_yaml_pushgateway_timeout_overflows",
            "too large",
            pg("http://x\n  timeout: 1e300h"),
        ),
        validate_text(
            "plugin_yaml_pushgateway_timeout_zero",
            "must be more than 0",
            pg("http://x\n  timeout: 0s"),
        ),
        validate_text(
            "plugin_yaml_pushgateway_timeout_huge_text_echoed_whole",
            "(100002 characters)",
            pg(&format!(
                "http://x\n  timeout: \"{}s\"",
                "9".repeat(100_001)
            )),
        ),
        validate_text(
            "plugin_yaml_billion_laughs",
            "unknown key `a`",
            format!("{BASE}{}", billion_laughs()),
        ),
        validate_text(
            "plugin_yaml_deeply_nested_flow",
            "p.yaml:",
            BASE.replace(
                "[get, patch]",
                &format!("{}{}", "[".repeat(100_000), "]".repeat(100_000)),
            ),
        ),
        Case::new("plugin_yaml_password_file_is_a_fifo_hangs", 2)
            .args(&["get", "pods", "-n", "default"])
            .stderr_has("password file")
            .stderr_has("it is a FIFO (named pipe)")
            .deadline(Duration::from_secs(15))
            .setup(move |m| with_password_file(m, &fifo)),
        Case::new("plugin_yaml_password_file_missing", 2)
            .args(&["get", "pods", "-n", "default"])
            .stderr_has("password file")
            .stderr_has("does not exist")
            .setup(move |m| with_password_file(m, &|_| {})),
        Case::new("plugin_yaml_password_file_is_dev_zero", 2)
            .args(&["get", "pods", "-n", "default"])
            .stderr_has("character device")
            .deadline(Duration::from_secs(15))
            .setup(move |m| with_password_file(m, &|p| symlink("/dev/zero", p).unwrap())),
        Case::new("plugin_yaml_crd_dir_is_a_fifo", 2)
            .args(&["crds", "sync"])
            .stderr_has("is not a directory")
            .deadline(Duration::from_secs(15))
            .setup(|m| {
                let d = m.dir.path().join("crds-fifo");
                fifo(&d);
                let text = format!(
                    "{}crdDir: {}\n",
                    crate::hostile::plugin_yaml("hostile-files"),
                    d.display()
                );
                put(m.dir.path().join("plugin.yaml"), text, 0o600);
            }),
    ]
}

fn crd_dir_cases() -> Vec<Case> {
    let secret = format!(
        "apiVersion: v1\nkind: Secret\nmetadata: {{name: leak}}\nstringData: {{token: {CANARY}}}\ndata: {{password: YzRuNHJ5}}\n"
    );
    let broken_secret =
        format!("apiVersion: v1\nkind: Secret\nstringData:\n  token: {CANARY}: [\n");
    let deep: String = (0..200).map(|i| format!("{}k:\n", " ".repeat(i))).collect();
    let long_name = crd(&"b".repeat(100_000));
    let escapes = crd("escapes").replace(
        "kind: CustomResourceDefinition",
        "kind: \"Evil\\e[2J\\e]0;pwned\\a\"",
    );
    vec![
        sync(
            "crd_dir_fifo_yaml_hangs_sync",
            "it is a FIFO (named pipe)",
            |d| fifo(&d.join("a.yaml")),
        ),
        list(
            "crd_dir_fifo_yaml_hangs_list",
            "it is a FIFO (named pipe)",
            |d| fifo(&d.join("a.yaml")),
        ),
        sync(
            "crd_dir_yml_symlink_to_fifo_hangs_sync",
            "it is a FIFO (named pipe)",
            |d| {
                fifo(&d.join(".hidden-fifo"));
                symlink(d.join(".hidden-fifo"), d.join("a.yml")).unwrap();
            },
        ),
        list(
            "crd_dir_symlink_to_fifo_hangs_list",
            "it is a FIFO (named pipe)",
            |d| {
                let outside = d.parent().unwrap().join("fifo");
                fifo(&outside);
                symlink(&outside, d.join("a.yaml")).unwrap();
            },
        ),
        sync(
            "crd_dir_dangling_symlink_silently_ignored_sync",
            "dangling symbolic link to gone.yaml",
            |d| symlink("gone.yaml", d.join("a.yaml")).unwrap(),
        ),
        list(
            "crd_dir_dangling_symlink_silently_ignored_list",
            "dangling symbolic link",
            |d| symlink("gone.yaml", d.join("a.yaml")).unwrap(),
        ),
        sync(
            "crd_dir_directory_named_yaml_sync",
            "it is a directory, not a regular file",
            |d| std::fs::create_dir(d.join("sub.yaml")).unwrap(),
        ),
        list(
            "crd_dir_directory_named_yaml_list",
            "it is a directory",
            |d| std::fs::create_dir(d.join("sub.yaml")).unwrap(),
        ),
        sync("crd_dir_socket_named_yaml_sync", "it is a socket", |d| {
            socket(&d.join("s.yaml"))
        }),
        sync(
            "crd_dir_symlink_to_dev_zero_reads_forever_sync",
            "character device",
            |d| symlink("/dev/zero", d.join("zero.yaml")).unwrap(),
        ),
        list(
            "crd_dir_symlink_to_dev_urandom_list",
            "character device",
            |d| symlink("/dev/urandom", d.join("r.yaml")).unwrap(),
        ),
        sync("crd_dir_symlink_loop_sync", "symbolic link loop", |d| {
            symlink(d.join("b.yaml"), d.join("a.yaml")).unwrap();
            symlink(d.join("a.yaml"), d.join("b.yaml")).unwrap();
        })
        .several_errors(),
        sync(
            "crd_dir_non_utf8_file_sync",
            "a.yaml:2:7: the file is not UTF-8 text",
            |d| put(d.join("a.yaml"), b"apiVersion: v1\nkind: \xffx\n", 0o644),
        ),
        sync(
            "crd_dir_huge_sparse_file_sync",
            "over the 16777216-byte limit",
            |d| {
                std::fs::File::create(d.join("huge.yaml"))
                    .unwrap()
                    .set_len(17 << 20)
                    .unwrap()
            },
        ),
        sync(
            "crd_dir_two_megabyte_line_without_newline_sync",
            "invalid YAML",
            |d| {
                put(
                    d.join("a.yaml"),
                    format!("a: [\"{}", "x".repeat(2 << 20)),
                    0o644,
                )
            },
        ),
        sync(
            "crd_dir_v1beta1_crd_sync",
            "removed in Kubernetes 1.22",
            |d| {
                put(
                    d.join("a.yaml"),
                    crd("betas").replace(
                        "apiextensions.k8s.io/v1\n",
                        "apiextensions.k8s.io/v1beta1\n",
                    ),
                    0o644,
                )
            },
        ),
        sync(
            "crd_dir_secret_in_file_quoted_sync",
            "a Secret (v1) is not a CustomResourceDefinition",
            {
                let s = secret.clone();
                move |d| put(d.join("s.yaml"), &s, 0o644)
            },
        ),
        list(
            "crd_dir_secret_in_file_quoted_list",
            "a Secret (v1)",
            move |d| put(d.join("s.yaml"), &secret, 0o644),
        ),
        sync(
            "crd_dir_secret_with_broken_yaml_quoted_sync",
            "invalid YAML",
            move |d| put(d.join("s.yaml"), &broken_secret, 0o644),
        ),
        sync("crd_dir_billion_laughs_sync", "a YAML bomb", |d| {
            put(d.join("bomb.yaml"), billion_laughs(), 0o644)
        })
        .deadline(Duration::from_secs(30)),
        sync(
            "crd_dir_deeply_nested_block_yaml_sync",
            "nests deeper than 64 levels",
            move |d| put(d.join("deep.yaml"), &deep, 0o644),
        ),
        sync(
            "crd_dir_deeply_nested_flow_yaml_sync",
            "invalid YAML",
            |d| {
                put(
                    d.join("deep.yaml"),
                    format!("{}{}", "[".repeat(100_000), "]".repeat(100_000)),
                    0o644,
                )
            },
        ),
        sync("crd_dir_duplicate_keys_sync", "duplicate", |d| {
            put(
                d.join("dup.yaml"),
                crd("dups").replace(
                    "kind: CustomResourceDefinition\n",
                    "kind: CustomResourceDefinition\nkind: Secret\n",
                ),
                0o644,
            )
        }),
        sync("crd_dir_tab_indentation_sync", "invalid YAML", |d| {
            put(
                d.join("tab.yaml"),
                crd("tabs").replace("\n  group:", "\n\tgroup:"),
                0o644,
            )
        }),
        sync(
            "crd_dir_only_empty_documents_sync",
            "no CustomResourceDefinition in this file",
            |d| put(d.join("empty.yaml"), "---\n---\n# nothing\n---\n", 0o644),
        ),
        sync(
            "crd_dir_zero_byte_file_sync",
            "no CustomResourceDefinition in this file",
            |d| put(d.join("zero.yaml"), "", 0o644),
        ),
        sync(
            "crd_dir_scalar_document_sync",
            "a document without `kind`",
            |d| put(d.join("s.yaml"), "hello\n", 0o644),
        ),
        sync(
            "crd_dir_configmap_in_file_sync",
            "a ConfigMap (v1) is not a CustomResourceDefinition",
            |d| {
                put(
                    d.join("cm.yaml"),
                    "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n",
                    0o644,
                )
            },
        ),
        sync(
            "crd_dir_crd_without_served_version_sync",
            "needs at least one served version",
            |d| {
                put(
                    d.join("a.yaml"),
                    crd("noserved").replace("served: true", "served: false"),
                    0o644,
                )
            },
        ),
        sync(
            "crd_dir_crd_name_mismatch_sync",
            "must be <plural>.<group>",
            |d| {
                put(
                    d.join("a.yaml"),
                    crd("mismatch").replace("name: mismatch.", "name: other."),
                    0o644,
                )
            },
        ),
        sync(
            "crd_dir_crd_uppercase_group_sync",
            "must be a DNS subdomain",
            |d| {
                put(
                    d.join("a.yaml"),
                    crd("upper").replace("hostile-files.example.com", "Hostile.example.com"),
                    0o644,
                )
            },
        ),
        sync(
            "crd_dir_crd_with_100000_character_name_sync",
            "(100026 characters) is 100026 characters long",
            move |d| put(d.join("long.yaml"), &long_name, 0o644),
        ),
        sync(
            "crd_dir_escape_sequences_in_kind_sync",
            "is not a CustomResourceDefinition",
            move |d| put(d.join("esc.yaml"), &escapes, 0o644),
        )
        .after(no_raw_escapes),
        sync(
            "crd_dir_escape_sequence_in_file_name_sync",
            "it is a FIFO",
            |d| fifo(&d.join("evil\u{1b}[2J\u{7}.yaml")),
        )
        .after(no_raw_escapes),
        sync(
            "crd_dir_world_writable_file_sync",
            "refusing a world-writable file (mode 666)",
            |d| put(d.join("ww.yaml"), crd("worldwritable"), 0o666),
        ),
        sync("crd_dir_group_writable_dir_sync", "(mode 775)", |d| {
            std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o775)).unwrap();
            put(d.join("a.yaml"), crd("groupdir"), 0o644);
        })
        .stderr_has("chmod go-w"),
        sync(
            "crd_dir_sticky_world_writable_dir_sync",
            "(mode 777)",
            |d| {
                std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o1777)).unwrap();
                put(d.join("a.yaml"), crd("stickydir"), 0o644);
            },
        ),
        Case::new("crd_dir_argument_is_a_fifo_sync", 2)
            .args(&["crds", "sync", "{dir}/fifo"])
            .stderr_has("is not a directory")
            .deadline(Duration::from_secs(15))
            .setup(|m| fifo(&m.dir.path().join("fifo"))),
        Case::new("crd_dir_argument_is_a_fifo_list", 2)
            .args(&["crds", "list", "{dir}/fifo"])
            .stderr_has("is not a directory")
            .deadline(Duration::from_secs(15))
            .setup(|m| fifo(&m.dir.path().join("fifo"))),
        Case::new("crd_dir_argument_is_a_file_sync", 2)
            .args(&["crds", "sync", "{dir}/plugin.yaml"])
            .stderr_has("is not a directory"),
        Case::new("crd_dir_argument_missing_sync", 2)
            .args(&["crds", "sync", "{dir}/nope"])
            .stderr_has("does not exist"),
        sync(
            "crd_dir_fifo_and_dangling_link_do_not_stop_a_good_file_sync",
            "it is a FIFO (named pipe)",
            |d| {
                fifo(&d.join("a-fifo.yaml"));
                symlink("gone.yaml", d.join("b-dangling.yaml")).unwrap();
                std::fs::create_dir(d.join("c-dir.yaml")).unwrap();
                put(d.join("d-good.yaml"), crd("survivors"), 0o644);
            },
        )
        .stderr_has("dangling symbolic link")
        .stderr_has("it is a directory")
        .stderr_has("3 CRD file(s) could not be loaded")
        .several_errors()
        .deadline(Duration::from_secs(60))
        .after(registered("survivors")),
        Case::new("crd_dir_every_kind_of_bad_entry_list", 0)
            .args(&["crds", "list", "{dir}/crds"])
            .stderr_has("FIFO")
            .stderr_has("dangling")
            .stderr_has("directory")
            .stderr_has("socket")
            .stderr_has("character device")
            .stderr_has("too large")
            .stderr_has("not UTF-8")
            .deadline(Duration::from_secs(20))
            .setup(|m| {
                crd_dir(m, &|d: &Path| {
                    fifo(&d.join("fifo.yaml"));
                    symlink("gone.yaml", d.join("dangling.yaml")).unwrap();
                    std::fs::create_dir(d.join("dir.yaml")).unwrap();
                    socket(&d.join("sock.yaml"));
                    symlink("/dev/zero", d.join("zero.yaml")).unwrap();
                    std::fs::File::create(d.join("huge.yaml"))
                        .unwrap()
                        .set_len(17 << 20)
                        .unwrap();
                    put(d.join("latin1.yaml"), b"kind: \xe9\n", 0o644);
                    put(d.join("good.yaml"), crd("listedonly"), 0o644);
                })
            })
            .after(|_, run| {
                let row = run
                    .stdout
                    .lines()
                    .find(|l| l.contains("listedonly.hostile-files.example.com"));
                match row {
                    Some(_) => Ok(()),
                    None => Err("the good file is not listed".into()),
                }
            }),
    ]
}

#[test]
fn plugin_yaml_that_is_not_a_regular_file_writable_by_others_or_huge_is_refused_clearly() {
    let cases = plugin_yaml_cases();
    assert!(cases.len() >= 25, "{}", cases.len());
    run_cases("files-plugin-yaml", cases);
}

#[test]
fn crd_directory_entries_that_are_not_regular_files_are_reported_and_skipped() {
    let cases = crd_dir_cases();
    assert!(cases.len() >= 25, "{}", cases.len());
    run_cases("files-crd-dir", cases);
}

/// A `crds watch` of `{dir}/crds` with JSON log lines on stdout, a FIFO `a-fifo.yaml` in it.
struct Watch {
    child: std::process::Child,
    lines: std::sync::mpsc::Receiver<serde_json::Value>,
    seen: Vec<serde_json::Value>,
}

impl Watch {
    fn start(m: &Myops, dir: &Path) -> Watch {
        let mut child = m
            .command(&[
                "crds",
                "watch",
                dir.to_str().unwrap(),
                "--log-format",
                "json",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the watcher starts");
        let out = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                if let Ok(v) = serde_json::from_str::<serde_json::Value>(&line)
                    && tx.send(v).is_err()
                {
                    break;
                }
            }
        });
        Watch {
            child,
            lines,
            seen: Vec::new(),
        }
    }

    /// Waits for a log line of `event` mentioning `what`; panics with the log after `timeout`.
    fn expect(&mut self, event: &str, what: &str, timeout: Duration) {
        if self
            .seen
            .iter()
            .any(|v| v["event"] == event && v.to_string().contains(what))
        {
            return;
        }
        let end = Instant::now() + timeout;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(v) => {
                    let hit = v["event"] == event && v.to_string().contains(what);
                    self.seen.push(v);
                    if hit {
                        return;
                    }
                }
                Err(_) => panic!(
                    "no {event} for {what:?} within {timeout:?}; log: {:#?}",
                    self.seen
                ),
            }
        }
    }

    /// Sends `signal` (e.g. `-TERM`) and returns how long the watcher took to exit, and its code.
    fn stop_with(&mut self, signal: &str) -> (Duration, i32) {
        let sent = Instant::now();
        assert!(
            Command::new("kill")
                .args([signal, &self.child.id().to_string()])
                .status()
                .unwrap()
                .success()
        );
        loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                return (sent.elapsed(), s.code().unwrap_or(-1));
            }
            if sent.elapsed() > Duration::from_secs(10) {
                let _ = self.child.kill();
                let _ = self.child.wait();
                panic!("the watcher did not stop within 10 s of {signal}");
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A watched directory with a FIFO in it and a standard boundary.
fn watched_with_fifo(job: &str) -> (Myops, PathBuf) {
    let m = Myops::new(&crate::hostile::plugin_yaml(job));
    let dir = m.dir.path().join("crds");
    std::fs::create_dir(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    fifo(&dir.join("a-fifo.yaml"));
    (m, dir)
}

#[test]
fn crds_watch_with_a_fifo_in_the_directory_stops_on_sigterm_within_a_second() {
    let (m, dir) = watched_with_fifo("hostile-files-watch-term");
    let mut w = Watch::start(&m, &dir);
    w.expect(
        "invalid",
        "it is a FIFO (named pipe)",
        Duration::from_secs(30),
    );
    let (took, code) = w.stop_with("-TERM");
    assert!(took < Duration::from_secs(1), "stopped after {took:?}");
    assert_eq!(code, 0);
}

#[test]
fn crds_watch_with_a_fifo_keeps_registering_other_files_and_stops_on_sigint_within_a_second() {
    let (m, dir) = watched_with_fifo("hostile-files-watch-int");
    symlink(dir.join("a-fifo.yaml"), dir.join("b-link-to-fifo.yml")).unwrap();
    let mut w = Watch::start(&m, &dir);
    w.expect("invalid", "b-link-to-fifo.yml", Duration::from_secs(30));
    // A file dropped in after the FIFO was met is still registered.
    let name = "afterfifos.hostile-files.example.com";
    put(dir.join("c-good.yaml"), crd("afterfifos"), 0o644);
    w.expect("registered", name, Duration::from_secs(60));
    // And a dangling link added later is reported, not silently ignored.
    symlink("gone.yaml", dir.join("d-dangling.yaml")).unwrap();
    w.expect("invalid", "dangling symbolic link", Duration::from_secs(30));
    let (took, code) = w.stop_with("-INT");
    let _ = kubectl(&["delete", "crd", name, "--wait=false"]);
    assert!(took < Duration::from_secs(1), "stopped after {took:?}");
    assert_eq!(code, 0);
}

#[test]
fn crds_watch_stuck_pushing_to_a_blackhole_pushgateway_stops_on_sigterm_within_a_second() {
    // A listener that never answers: every batch ends with a push that waits the whole
    // pushgateway.timeout (30 s here) unless the signal cuts it short.
    let blackhole = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", blackhole.local_addr().unwrap());
    let yaml = format!(
        "{BASE}metrics: [crd_loads_total]\npushgateway:\n  url: {url}\n  job: hostile-files-blackhole\n  timeout: 30s\n"
    );
    let m = Myops::new(&yaml);
    let dir = m.dir.path().join("crds");
    std::fs::create_dir(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    fifo(&dir.join("a-fifo.yaml"));
    let mut w = Watch::start(&m, &dir);
    w.expect("watching", "", Duration::from_secs(30));
    std::thread::sleep(Duration::from_millis(1500));
    let (took, code) = w.stop_with("-TERM");
    assert!(took < Duration::from_secs(1), "stopped after {took:?}");
    assert_eq!(code, 0);
    // It was cut short in the middle of the batch, and said so.
    w.expect(
        "batch-abandoned",
        "may or may not be registered",
        Duration::from_secs(5),
    );
    w.expect("stopped", "", Duration::from_secs(5));
    drop(blackhole);
}
