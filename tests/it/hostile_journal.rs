//! Bad-input cases, classes 2 and 5 of issue 10: the change log and MYOPS_HOME in every odd
//! state (a file, a FIFO, a dangling link, read-only, open to others; the log a directory, a
//! FIFO, 0644, torn, not UTF-8, NUL bytes, a 10 MB line, the wrong shape, duplicate ids, an
//! intent without an outcome) under `changelog list|show` and `rollback`, and rollbacks that
//! must not lie (Secret data, a deleted object, garbage ids, twice, status, masked values).
//! Where a case claims "nothing was sent", the apiserver audit log is the proof: the mark is
//! taken in the case's setup (kept in the environment as `MYOPS_TEST_AUDIT_MARK`).

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::fixture::{Myops, Namespace, Run, audit_mark, audit_since, kubectl};
use crate::hostile::{CANARY, Case, run_cases};

/// The MYOPS_HOME a case runs with.
fn home_of(m: &Myops) -> PathBuf {
    PathBuf::from(
        &m.env
            .iter()
            .find(|(k, _)| k == "MYOPS_HOME")
            .expect("MYOPS_HOME is set")
            .1,
    )
}

fn log_of(m: &Myops) -> PathBuf {
    home_of(m).join("changelog.jsonl")
}

fn mode_of(p: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).map_or(0, |m| m.permissions().mode() & 0o777)
}

fn mkfifo(p: &Path) {
    let ok = std::process::Command::new("mkfifo")
        .arg(p)
        .status()
        .expect("mkfifo runs")
        .success();
    assert!(ok, "mkfifo {}", p.display());
}

fn configmap(ns: &str, name: &str, value: &str) {
    kubectl(&[
        "create",
        "configmap",
        name,
        "-n",
        ns,
        &format!("--from-literal=k={value}"),
    ]);
}

fn cm_value(ns: &str, name: &str) -> String {
    kubectl(&[
        "get",
        "configmap",
        name,
        "-n",
        ns,
        "-o",
        "jsonpath={.data.k}",
    ])
}

fn patch_cm(ns: &str, name: &str, value: &str) -> Vec<String> {
    [
        "patch",
        "configmap",
        name,
        "-n",
        ns,
        "--type",
        "merge",
        "-p",
        &format!(r#"{{"data":{{"k":"{value}"}}}}"#),
    ]
    .map(String::from)
    .to_vec()
}

/// Runs the binary during a case's setup; the setup step must succeed.
fn setup_run(m: &Myops, args: &[String]) -> Run {
    let r = m.run(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(r.code, 0, "setup run {args:?}: {r:?}");
    assert!(
        !r.stdout.contains(CANARY) && !r.stderr.contains(CANARY),
        "setup run printed the canary: {r:?}"
    );
    r
}

/// Remembers the audit log's length: `nothing_sent` looks only at what came after.
fn mark(m: &mut Myops) {
    m.set_env("MYOPS_TEST_AUDIT_MARK", &audit_mark().to_string());
}

/// No create/update/patch/delete of `resource` `ns/name` reached the API server since the mark.
fn nothing_sent(m: &Myops, resource: &str, ns: &str, name: &str) -> Result<(), String> {
    let mark: u64 = m
        .env
        .iter()
        .find(|(k, _)| k == "MYOPS_TEST_AUDIT_MARK")
        .and_then(|(_, v)| v.parse().ok())
        .ok_or("the case set no audit mark")?;
    let sent: Vec<Value> = audit_since(mark)
        .into_iter()
        .filter(|e| {
            matches!(
                e["verb"].as_str(),
                Some("create" | "update" | "patch" | "delete")
            ) && e.pointer("/objectRef/resource").and_then(Value::as_str) == Some(resource)
                && e.pointer("/objectRef/namespace").and_then(Value::as_str) == Some(ns)
                && e.pointer("/objectRef/name").and_then(Value::as_str) == Some(name)
        })
        .collect();
    if sent.is_empty() {
        Ok(())
    } else {
        Err(format!("a mutation reached the server: {sent:?}"))
    }
}

/// The value of ConfigMap `ns/name` is still `want`, and nothing was sent for it.
fn untouched(m: &Myops, ns: &str, name: &str, want: &str) -> Result<(), String> {
    let now = cm_value(ns, name);
    if now != want {
        return Err(format!("configmap {name} is {now:?}, want {want:?}"));
    }
    nothing_sent(m, "configmaps", ns, name)
}

/// The id of the last record that parses in the case's change log.
fn last_id(m: &Myops) -> String {
    let bytes = std::fs::read(log_of(m)).expect("the change log exists");
    String::from_utf8_lossy(&bytes)
        .lines()
        .rev()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find_map(|v| v["id"].as_str().map(str::to_string))
        .expect("the change log has a record")
}

/// Keeps only the intent of `id`: what a kill between request and outcome leaves.
fn drop_outcome(m: &Myops, id: &str) {
    let text = std::fs::read_to_string(log_of(m)).unwrap();
    let kept: Vec<&str> = text
        .lines()
        .filter(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            v["id"] != id || v["result"] == "pending"
        })
        .collect();
    std::fs::write(log_of(m), kept.join("\n") + "\n").unwrap();
}

/// A complete record as this tool writes it, for planting.
fn record(id: &str, kind: &str, ns: &str, name: &str) -> Value {
    json!({
        "id": id, "session": "0123456789abcdef0123456789abcdef",
        "timestamp": "2026-11-30T08:00:00Z", "plugin": "myops", "user": "admin",
        "context": "admin", "server": "https://127.0.0.1:6443",
        "apiVersion": "v1", "kind": kind, "namespace": ns, "name": name, "uid": null,
        "operation": "patch", "patchType": "merge", "patch": {"data": {"k": "v2"}},
        "dryRun": false, "before": {"kind": kind, "metadata": {"name": name}, "data": {"k": "v1"}},
        "resourceVersionAfter": "1", "result": "success", "durationSeconds": 0.1
    })
}

/// Writes `bytes` as the case's change log (creating a private home, 0700 as the tool does).
fn plant(m: &Myops, bytes: &[u8]) {
    use std::os::unix::fs::PermissionsExt;
    let home = home_of(m);
    std::fs::create_dir_all(&home).unwrap();
    std::fs::set_permissions(&home, std::fs::Permissions::from_mode(0o700)).unwrap();
    std::fs::write(home.join("changelog.jsonl"), bytes).unwrap();
}

fn line(v: &Value) -> Vec<u8> {
    let mut b = serde_json::to_vec(v).unwrap();
    b.push(b'\n');
    b
}

/// `changelog list` of the case's home: its stdout, which must be exit 0.
fn list_of(m: &Myops) -> Result<String, String> {
    let r = m.run(&["changelog", "list"]);
    if r.code != 0 {
        return Err(format!("changelog list failed afterwards: {r:?}"));
    }
    Ok(r.stdout)
}

/// A case whose MYOPS_HOME is replaced by what `make` creates at `dir/odd-home`.
fn odd_home(case: Case, make: fn(&Path)) -> Case {
    case.setup(move |m| {
        let p = m.dir.path().join("odd-home");
        make(&p);
        m.set_env("MYOPS_HOME", &p.display().to_string());
    })
}

fn home_is_a_file(p: &Path) {
    std::fs::write(p, "not a directory\n").unwrap();
}

fn home_is_a_dangling_link(p: &Path) {
    std::os::unix::fs::symlink(p.with_file_name("nowhere"), p).unwrap();
}

fn home_is_a_fifo(p: &Path) {
    mkfifo(p);
}

/// A case that patches ConfigMap `ns/name` (created v1 in setup, after `prepare`) with a
/// change log that cannot be written: exit 1, nothing sent, the value unchanged.
fn patch_refused(name: &'static str, ns: &str, needles: &[&str], prepare: fn(&mut Myops)) -> Case {
    let ns = ns.to_string();
    let (ns2, ns3) = (ns.clone(), ns.clone());
    let obj = name.replace('_', "-");
    let (obj2, obj3) = (obj.clone(), obj.clone());
    let mut c = Case::new(name, 1)
        .args_owned(patch_cm(&ns, &obj, "v2"))
        .setup(move |m| {
            configmap(&ns2, &obj2, "v1");
            prepare(m);
            mark(m);
        })
        .after(move |m, _| untouched(m, &ns3, &obj3, "v1"));
    for n in needles {
        c = c.stderr_has(n);
    }
    c
}

/// Renames the records of `id` in the case's change log to the fixed id `to`, so a case's
/// arguments (fixed before its setup runs) can name an entry its setup created.
fn rename_id(m: &Myops, id: &str, to: &str) {
    let text = std::fs::read_to_string(log_of(m)).unwrap();
    let from = format!("\"id\":\"{id}\"");
    assert!(text.contains(&from), "no record of {id}");
    let sealed = resealed(&text.replace(&from, &format!("\"id\":\"{to}\"")));
    std::fs::write(log_of(m), &sealed).unwrap();
    let head = myops::changelog::chain::Head {
        head: last_hash(&sealed),
        base: myops::changelog::chain::GENESIS.into(),
    };
    myops::changelog::chain::write_head(&home_of(m), &head).unwrap();
}

/// `text` (a whole change log) with every record chained again, as the writer would have
/// sealed it: the cases rename ids for stable names, and `rollback` refuses an entry the
/// hash chain contradicts (an edited record).
fn resealed(text: &str) -> String {
    let mut prev = myops::changelog::chain::GENESIS.to_string();
    let mut out = String::new();
    for line in text.lines() {
        let record: serde_json::Value = serde_json::from_str(line).unwrap();
        let (line, hash) = myops::changelog::chain::seal(record, &prev).unwrap();
        out.push_str(std::str::from_utf8(&line).unwrap());
        out.push('\n');
        prev = hash;
    }
    out
}

/// The `hash` of the last line of a sealed log.
fn last_hash(text: &str) -> String {
    let last: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    last["hash"].as_str().unwrap().to_string()
}

/// Gives the last entry of the case's change log the id `to`.
fn last_entry_is(m: &Myops, to: &str) {
    let id = last_id(m);
    rename_id(m, &id, to);
}

#[test]
fn myops_home_and_change_log_states_never_hang_lose_records_or_send_unjournaled() {
    let ns = Namespace::new("hostile-journal");
    let n = ns.0.as_str();
    let mut cases = vec![
        // --- MYOPS_HOME states -------------------------------------------------------------
        odd_home(
            Case::new("myops_home_is_a_file_changelog_list_is_a_read_error", 1)
                .args(&["changelog", "list"])
                .stderr_has("cannot read the change log")
                .stderr_has("is not a directory (it is a regular file)")
                .after(|_, r| {
                    if r.stderr.contains("free space") {
                        return Err("a read error blamed free space".into());
                    }
                    Ok(())
                }),
            home_is_a_file,
        ),
        patch_refused(
            "myops_home_is_a_file_patch_sends_nothing",
            n,
            &[
                "cannot write the change log",
                "is not a directory",
                "nothing was sent",
            ],
            |m| {
                let p = m.dir.path().join("odd-home");
                home_is_a_file(&p);
                m.set_env("MYOPS_HOME", &p.display().to_string());
            },
        ),
        odd_home(
            Case::new("myops_home_is_a_dangling_symlink_changelog_list", 1)
                .args(&["changelog", "list"])
                .stderr_has("is a symbolic link to")
                .stderr_has("which does not exist"),
            home_is_a_dangling_link,
        ),
        patch_refused(
            "myops_home_is_a_dangling_symlink_patch_sends_nothing",
            n,
            &[
                "cannot write the change log",
                "which does not exist",
                "nothing was sent",
            ],
            |m| {
                let p = m.dir.path().join("odd-home");
                home_is_a_dangling_link(&p);
                m.set_env("MYOPS_HOME", &p.display().to_string());
            },
        )
        .after(|m, _| {
            if m.dir.path().join("nowhere").exists() {
                return Err("the dangling link's target was created".into());
            }
            Ok(())
        }),
        odd_home(
            Case::new("myops_home_is_a_fifo_changelog_list_does_not_hang", 1)
                .args(&["changelog", "list"])
                .stderr_has("is not a directory (it is a FIFO"),
            home_is_a_fifo,
        ),
        patch_refused(
            "myops_home_is_a_fifo_patch_does_not_hang_and_sends_nothing",
            n,
            &["cannot write the change log", "FIFO", "nothing was sent"],
            |m| {
                let p = m.dir.path().join("odd-home");
                home_is_a_fifo(&p);
                m.set_env("MYOPS_HOME", &p.display().to_string());
            },
        ),
        // Tests run as root, which a 0500 directory does not stop; /proc refuses root too.
        patch_refused(
            "myops_home_is_read_only_patch_sends_nothing",
            n,
            &[
                "cannot write the change log /proc/self/changelog.jsonl",
                "nothing was sent",
            ],
            |m| m.set_env("MYOPS_HOME", "/proc/self"),
        ),
        Case::new(
            "myops_home_is_read_only_changelog_list_reads_an_empty_log",
            0,
        )
        .args(&["changelog", "list"])
        .stderr_has("No change-log entries.")
        .setup(|m| m.set_env("MYOPS_HOME", "/proc/self")),
        Case::new("myops_home_open_to_others_warns_on_changelog_list", 0)
            .args(&["changelog", "list"])
            .stderr_has("warning: MYOPS_HOME")
            .stderr_has("(mode 0755)")
            .stderr_has("chmod 700")
            .setup(|m| {
                use std::os::unix::fs::PermissionsExt;
                let h = home_of(m);
                std::fs::create_dir_all(&h).unwrap();
                std::fs::set_permissions(&h, std::fs::Permissions::from_mode(0o755)).unwrap();
            })
            .after(|_, r| {
                let warnings = r.stderr.matches("warning: MYOPS_HOME").count();
                if warnings != 1 {
                    return Err(format!("{warnings} home warnings, want one"));
                }
                Ok(())
            }),
        {
            let (ns2, ns3) = (n.to_string(), n.to_string());
            Case::new(
                "myops_home_open_to_others_warns_once_on_patch_and_patches",
                0,
            )
            .args_owned(patch_cm(n, "home-0755", "v2"))
            .stderr_has("is open to other users (mode 0755)")
            .setup(move |m| {
                use std::os::unix::fs::PermissionsExt;
                configmap(&ns2, "home-0755", "v1");
                let h = home_of(m);
                std::fs::create_dir_all(&h).unwrap();
                std::fs::set_permissions(&h, std::fs::Permissions::from_mode(0o755)).unwrap();
            })
            .after(move |m, r| {
                if r.stderr.matches("warning: MYOPS_HOME").count() != 1 {
                    return Err("want exactly one home warning".into());
                }
                if cm_value(&ns3, "home-0755") != "v2" {
                    return Err("the patch was not applied".into());
                }
                if mode_of(&home_of(m)) != 0o755 {
                    return Err("the warning changed the home's mode".into());
                }
                Ok(())
            })
        },
        {
            let (ns2, ns3) = (n.to_string(), n.to_string());
            Case::new("myops_home_with_missing_parents_is_created_private", 0)
                .args_owned(patch_cm(n, "home-parents", "v2"))
                .setup(move |m| {
                    configmap(&ns2, "home-parents", "v1");
                    let h = m.dir.path().join("a/b/c");
                    m.set_env("MYOPS_HOME", &h.display().to_string());
                })
                .after(move |m, _| {
                    let h = home_of(m);
                    let modes = (mode_of(&h), mode_of(&h.join("changelog.jsonl")));
                    if modes != (0o700, 0o600) {
                        return Err(format!(
                            "home and log modes {:o} and {:o}, want 700 and 600",
                            modes.0, modes.1
                        ));
                    }
                    if cm_value(&ns3, "home-parents") != "v2" {
                        return Err("the patch was not applied".into());
                    }
                    Ok(())
                })
        },
        // --- changelog.jsonl states --------------------------------------------------------
        Case::new("changelog_is_a_directory_list_is_a_read_error", 1)
            .args(&["changelog", "list"])
            .stderr_has("cannot read the change log")
            .stderr_has("it is a directory, not a regular file")
            .setup(|m| std::fs::create_dir_all(log_of(m)).unwrap()),
        patch_refused(
            "changelog_is_a_directory_patch_sends_nothing",
            n,
            &[
                "cannot write the change log",
                "it is a directory",
                "nothing was sent",
            ],
            |m| std::fs::create_dir_all(log_of(m)).unwrap(),
        ),
        Case::new("changelog_is_a_fifo_list_does_not_hang", 1)
            .args(&["changelog", "list"])
            .stderr_has("it is a FIFO (named pipe), not a regular file")
            .setup(|m| {
                std::fs::create_dir_all(home_of(m)).unwrap();
                mkfifo(&log_of(m));
            }),
        patch_refused(
            "changelog_is_a_fifo_patch_does_not_hang_and_sends_nothing",
            n,
            &["cannot write the change log", "FIFO", "nothing was sent"],
            |m| {
                std::fs::create_dir_all(home_of(m)).unwrap();
                mkfifo(&log_of(m));
            },
        ),
        Case::new("changelog_is_a_fifo_rollback_does_not_hang", 1)
            .args(&["rollback", "1a2b-3c-0"])
            .stderr_has("cannot read the change log")
            .setup(|m| {
                std::fs::create_dir_all(home_of(m)).unwrap();
                mkfifo(&log_of(m));
            }),
        Case::new("changelog_is_a_fifo_show_does_not_hang", 1)
            .args(&["changelog", "show", "1a2b-3c-0"])
            .stderr_has("FIFO")
            .setup(|m| {
                std::fs::create_dir_all(home_of(m)).unwrap();
                mkfifo(&log_of(m));
            }),
        patch_refused(
            "changelog_is_a_dangling_symlink_patch_sends_nothing",
            n,
            &[
                "symbolic link to a file that does not exist",
                "nothing was sent",
            ],
            |m| {
                std::fs::create_dir_all(home_of(m)).unwrap();
                std::os::unix::fs::symlink(m.dir.path().join("gone.jsonl"), log_of(m)).unwrap();
            },
        ),
        Case::new("changelog_lock_is_a_fifo_list_does_not_hang", 0)
            .args(&["changelog", "list"])
            .setup(|m| {
                plant(m, &line(&record("1-1-0", "ConfigMap", "ns", "kept")));
                mkfifo(&home_of(m).join("changelog.lock"));
            })
            .after(|_, r| {
                if !r.stdout.contains("kept") {
                    return Err("the entry is missing".into());
                }
                Ok(())
            }),
        patch_refused(
            "changelog_lock_is_a_directory_patch_sends_nothing",
            n,
            &["cannot write the change log", "nothing was sent"],
            |m| std::fs::create_dir_all(home_of(m).join("changelog.lock")).unwrap(),
        ),
        {
            let (ns2, ns3) = (n.to_string(), n.to_string());
            Case::new("changelog_0644_is_tightened_to_0600_by_the_next_patch", 0)
                .args_owned(patch_cm(n, "log-0644", "v2"))
                .setup(move |m| {
                    use std::os::unix::fs::PermissionsExt;
                    configmap(&ns2, "log-0644", "v1");
                    plant(m, &line(&record("1-1-0", "ConfigMap", &ns2, "x")));
                    std::fs::set_permissions(log_of(m), std::fs::Permissions::from_mode(0o644))
                        .unwrap();
                })
                .after(move |m, _| {
                    if mode_of(&log_of(m)) != 0o600 {
                        return Err(format!("log mode {:o}, want 600", mode_of(&log_of(m))));
                    }
                    if cm_value(&ns3, "log-0644") != "v2" {
                        return Err("the patch was not applied".into());
                    }
                    Ok(())
                })
        },
        {
            let ns2 = n.to_string();
            Case::new(
                "changelog_torn_last_line_then_patch_keeps_both_records_readable",
                0,
            )
            .args_owned(patch_cm(n, "torn-then-patch", "v2"))
            .setup(move |m| {
                configmap(&ns2, "torn-then-patch", "v1");
                let mut b = line(&record("1-1-0", "ConfigMap", &ns2, "before-crash"));
                let torn = line(&record("1-1-1", "ConfigMap", &ns2, "torn"));
                b.extend_from_slice(&torn[..torn.len() / 2]);
                plant(m, &b);
            })
            .after(|m, _| {
                let list = list_of(m)?;
                for want in ["before-crash", "torn-then-patch"] {
                    if !list.contains(want) {
                        return Err(format!("changelog list lacks {want}: {list}"));
                    }
                }
                let inv = m.run(&["changelog", "list", "--invalid"]);
                if !inv.stdout.contains("torn: the JSON ends early") {
                    return Err(format!("--invalid does not show the torn line: {inv:?}"));
                }
                Ok(())
            })
        },
        Case::new("changelog_torn_last_line_list_warns_and_lists_the_rest", 0)
            .args(&["changelog", "list"])
            .stderr_has("warning: 1 line(s)")
            .stderr_has("changelog list --invalid")
            .setup(|m| {
                let mut b = line(&record("1-1-0", "ConfigMap", "ns", "kept"));
                b.extend_from_slice(br#"{"id":"1-1-1","session":"#);
                plant(m, &b);
            })
            .after(|_, r| {
                if !r.stdout.contains("kept") {
                    return Err("the intact entry is missing".into());
                }
                Ok(())
            }),
        Case::new(
            "changelog_non_utf8_line_list_warns_instead_of_blaming_free_space",
            0,
        )
        .args(&["changelog", "list"])
        .stderr_has("warning: 1 line(s)")
        .setup(|m| {
            let mut b = line(&record("1-1-0", "ConfigMap", "ns", "kept"));
            b.extend_from_slice(b"{\"id\":\"\xff\xfe\"}\n");
            b.extend_from_slice(&line(&record("1-1-2", "ConfigMap", "ns", "after")));
            plant(m, &b);
        })
        .after(|_, r| {
            if r.stderr.contains("free space") || !r.stdout.contains("after") {
                return Err("a non-UTF-8 line hid the log".into());
            }
            Ok(())
        }),
        Case::new("changelog_non_utf8_line_show_finds_the_entry_after_it", 0)
            .args(&["changelog", "show", "1-1-2"])
            .setup(|m| {
                let mut b = b"\xc3\x28 latin-1 \xe9\n".to_vec();
                b.extend_from_slice(&line(&record("1-1-2", "ConfigMap", "ns", "after")));
                plant(m, &b);
            })
            .after(|_, r| {
                let v: Value = serde_json::from_str(&r.stdout).map_err(|e| e.to_string())?;
                if v["name"] != "after" {
                    return Err(format!("show printed {v}"));
                }
                Ok(())
            }),
        Case::new(
            "changelog_nul_bytes_list_invalid_names_the_line_not_its_content",
            0,
        )
        .args(&["changelog", "list", "--invalid"])
        .setup(|m| {
            let mut b = line(&record("1-1-0", "ConfigMap", "ns", "kept"));
            b.extend_from_slice(b"\0\0\0\0{\"id\":\"nul-secret-8e1\"}\0\n");
            plant(m, &b);
        })
        .after(|_, r| {
            if !r.stdout.contains("2      not JSON") || r.stdout.contains("nul-secret-8e1") {
                return Err(format!("--invalid output: {}", r.stdout));
            }
            Ok(())
        }),
        Case::new("changelog_10mb_line_list_is_bounded_and_short", 0)
            .args(&["changelog", "list"])
            .stderr_has("warning: 1 line(s)")
            .deadline(std::time::Duration::from_secs(20))
            .setup(|m| {
                let mut b = vec![b'x'; 10 * 1024 * 1024];
                b.push(b'\n');
                b.extend_from_slice(&line(&record("1-1-0", "ConfigMap", "ns", "kept")));
                plant(m, &b);
            })
            .after(|_, r| {
                if r.stdout.len() > 1000 || !r.stdout.contains("kept") {
                    return Err(format!("{} bytes on stdout", r.stdout.len()));
                }
                Ok(())
            }),
        {
            let ns2 = n.to_string();
            Case::new(
                "changelog_10mb_torn_line_then_patch_appends_a_readable_record",
                0,
            )
            .args_owned(patch_cm(n, "big-torn", "v2"))
            .setup(move |m| {
                configmap(&ns2, "big-torn", "v1");
                plant(m, &vec![b'{'; 10 * 1024 * 1024]);
            })
            .after(|m, _| {
                let list = list_of(m)?;
                if !list.contains("big-torn") {
                    return Err(format!("the new record is unreadable: {list}"));
                }
                Ok(())
            })
        },
        Case::new("changelog_wrong_shape_json_lines_are_each_skipped", 0)
            .args(&["changelog", "list"])
            .stderr_has("warning: 6 line(s)")
            .setup(|m| {
                let mut b = Vec::new();
                for l in [
                    r#"{"id": 5}"#,
                    "[]",
                    r#""just a string""#,
                    "null",
                    r#"{"id":"1-1-9","kind":{}}"#,
                    r#"{"id":"","session":"s"}"#,
                ] {
                    b.extend_from_slice(l.as_bytes());
                    b.push(b'\n');
                }
                b.extend_from_slice(&line(&record("1-1-0", "ConfigMap", "ns", "kept")));
                plant(m, &b);
            })
            .after(|_, r| {
                if !r.stdout.contains("kept") {
                    return Err("the valid entry is missing".into());
                }
                Ok(())
            }),
        Case::new("changelog_wrong_value_never_echoes_the_value", 0)
            .args(&["changelog", "list", "--invalid"])
            .setup(|m| {
                let mut v = record("1-1-0", "ConfigMap", "ns", "x");
                v["operation"] = json!("op-secret-55d1");
                plant(m, &line(&v));
            })
            .after(|_, r| {
                if r.stdout.contains("op-secret-55d1") || r.stderr.contains("op-secret-55d1") {
                    return Err("the bad value was echoed".into());
                }
                if !r.stdout.contains("a field has the wrong type or value") {
                    return Err(format!("no reason: {}", r.stdout));
                }
                Ok(())
            }),
        Case::new(
            "changelog_escape_sequences_in_fields_are_escaped_in_list",
            0,
        )
        .args(&["changelog", "list"])
        .setup(|m| {
            let mut v = record("1-1-0", "ConfigMap", "ns", "x");
            v["user"] = json!("ad\u{1b}]0;pwned\u{7}min\u{1b}[2J");
            plant(m, &line(&v));
        })
        .after(|_, r| {
            if r.stdout.contains('\u{1b}') || r.stdout.contains('\u{7}') {
                return Err("raw terminal escapes on stdout".into());
            }
            if !r.stdout.contains("ad\\u{1b}]0;pwned") {
                return Err(format!("the user is not shown escaped: {}", r.stdout));
            }
            Ok(())
        }),
        Case::new("changelog_empty_file_lists_nothing", 0)
            .args(&["changelog", "list"])
            .stderr_has("No change-log entries.")
            .setup(|m| plant(m, b"")),
        Case::new(
            "changelog_only_blank_lines_lists_nothing_without_warning",
            0,
        )
        .args(&["changelog", "list"])
        .stderr_has("No change-log entries.")
        .setup(|m| plant(m, b"\n\n  \n\r\n"))
        .after(|_, r| {
            if r.stderr.contains("warning") {
                return Err("blank lines were counted as invalid".into());
            }
            Ok(())
        }),
        Case::new("changelog_list_invalid_on_a_clean_log_says_none", 0)
            .args(&["changelog", "list", "--invalid"])
            .stderr_has("No invalid lines.")
            .setup(|m| plant(m, &line(&record("1-1-0", "ConfigMap", "ns", "x")))),
        Case::new("changelog_duplicate_ids_show_warns_they_disagree", 0)
            .args(&["changelog", "show", "1-1-0"])
            .stderr_has("has 2 records that name different objects")
            .setup(|m| {
                let mut b = line(&record("1-1-0", "ConfigMap", "ns", "one"));
                b.extend_from_slice(&line(&record("1-1-0", "ConfigMap", "ns", "two")));
                plant(m, &b);
            }),
        Case::new(
            "changelog_duplicate_ids_rollback_is_refused_as_ambiguous",
            2,
        )
        .args(&["rollback", "1-1-0"])
        .stderr_has("its 2 records name different objects or operations")
        .setup(|m| {
            let mut b = line(&record("1-1-0", "ConfigMap", "ns", "one"));
            b.extend_from_slice(&line(&record("1-1-0", "ConfigMap", "ns", "two")));
            plant(m, &b);
        }),
        Case::new("changelog_pending_last_record_lists_as_outcome_unknown", 0)
            .args(&["changelog", "list"])
            .setup(|m| {
                let mut v = record("1-1-0", "ConfigMap", "ns", "x");
                v["result"] = json!("pending");
                plant(m, &line(&v));
            })
            .after(|_, r| {
                if !r.stdout.contains("outcome unknown") {
                    return Err(format!("not shown as outcome unknown: {}", r.stdout));
                }
                Ok(())
            }),
        Case::new("changelog_pending_last_record_show_warns", 0)
            .args(&["changelog", "show", "1-1-0"])
            .stderr_has("has no outcome record")
            .setup(|m| {
                let mut v = record("1-1-0", "ConfigMap", "ns", "x");
                v["result"] = json!("pending");
                plant(m, &line(&v));
            }),
        Case::new("changelog_show_unknown_id_is_not_found", 4)
            .args(&["changelog", "show", "ffff-1-0"])
            .stderr_has("no change-log entry ffff-1-0")
            .setup(|m| plant(m, &line(&record("1-1-0", "ConfigMap", "ns", "x")))),
        Case::new("changelog_show_garbage_id_is_escaped_and_capped", 4)
            .args_owned(vec![
                "changelog".into(),
                "show".into(),
                format!("\u{1b}[2J\u{1b}]0;x\u{7}{}", "A".repeat(100_000)),
            ])
            .stderr_has("no change-log entry \\u{1b}[2J")
            .after(|_, r| {
                if r.stderr.contains('\u{1b}') || r.stderr.len() > 600 {
                    return Err(format!("{} bytes, raw escapes on stderr", r.stderr.len()));
                }
                Ok(())
            }),
        Case::new("changelog_since_garbage_is_a_usage_error", 2)
            .args(&["changelog", "list", "--since", "yesterday\u{1b}[2J"])
            .stderr_has("--since")
            .after(|_, r| {
                if r.stderr.contains('\u{1b}') {
                    return Err("raw escape echoed".into());
                }
                Ok(())
            }),
    ];
    cases.extend(rollback_cases(n));
    run_cases("journal", cases);
    drop(ns);
}

/// Rollbacks that must refuse, report honestly, or restore exactly.
fn rollback_cases(n: &str) -> Vec<Case> {
    let ns = n.to_string();
    let secret = move |name: &str| {
        kubectl(&[
            "create",
            "secret",
            "generic",
            name,
            "-n",
            &ns,
            "--from-literal=password=old-value-123",
            "--from-literal=user=admin",
        ]);
    };
    let secret_data = |ns: &str, name: &str, key: &str| {
        kubectl(&[
            "get",
            "secret",
            name,
            "-n",
            ns,
            "-o",
            &format!("jsonpath={{.data.{key}}}"),
        ])
    };
    let b64 = |s: &str| {
        use base64::Engine;
        base64::engine::general_purpose::STANDARD.encode(s)
    };
    let mut v = Vec::new();

    // Secret data: refused with exit 2 before anything is sent; the Secret keeps the canary.
    for (name, patch, needle) in [
        (
            "rollback_secret_stringdata_change_is_refused_and_nothing_is_sent",
            format!(r#"{{"stringData":{{"password":"{CANARY}"}}}}"#),
            "the data keys password of secret/",
        ),
        (
            "rollback_secret_data_key_added_is_refused_and_nothing_is_sent",
            format!(
                r#"{{"data":{{"token":"{}"}},"metadata":{{"labels":{{"rotated":"yes"}}}}}}"#,
                b64(CANARY)
            ),
            "the data keys token of secret/",
        ),
        (
            "rollback_secret_json_patch_replacing_all_data_is_refused",
            format!(
                r#"[{{"op":"replace","path":"/data","value":{{"password":"{}"}}}}]"#,
                b64(CANARY)
            ),
            "so the data of secret/",
        ),
    ] {
        let obj = name.replace('_', "-")[..40]
            .trim_end_matches('-')
            .to_string();
        let (ns2, ns3) = (n.to_string(), n.to_string());
        let (obj2, obj3) = (obj.clone(), obj.clone());
        let secret = secret.clone();
        let json_patch = patch.starts_with('[');
        let key = if name.contains("added") {
            "token"
        } else {
            "password"
        };
        v.push(
            Case::new(name, 2)
                .args(&["rollback", "e-1"])
                .stderr_has(needle)
                .stderr_has("never stores Secret values")
                .stderr_has("restore them from your secret store")
                .setup(move |m| {
                    secret(&obj2);
                    let mut args = vec![
                        "patch".to_string(),
                        "secret".into(),
                        obj2.clone(),
                        "-n".into(),
                        ns2.clone(),
                        "--type".into(),
                        if json_patch { "json" } else { "merge" }.into(),
                        "-p".into(),
                        patch.clone(),
                    ];
                    args.push("--diff".into());
                    setup_run(m, &args);
                    last_entry_is(m, "e-1");
                    mark(m);
                })
                .after(move |m, _| {
                    if secret_data(&ns3, &obj3, key) != b64(CANARY) {
                        return Err("the Secret's new value is gone".into());
                    }
                    nothing_sent(m, "secrets", &ns3, &obj3)
                }),
        );
    }
    {
        let (ns2, ns3) = (n.to_string(), n.to_string());
        let secret = secret.clone();
        v.push(
            Case::new("rollback_secret_labels_only_is_restored", 0)
                .args(&["rollback", "e-1"])
                .setup(move |m| {
                    secret("sec-labels-only");
                    setup_run(
                        m,
                        &[
                            "patch",
                            "secret",
                            "sec-labels-only",
                            "-n",
                            &ns2,
                            "--type",
                            "merge",
                            "-p",
                            r#"{"metadata":{"labels":{"tier":"gold"}}}"#,
                        ]
                        .map(String::from),
                    );
                    last_entry_is(m, "e-1");
                })
                .after(move |_, r| {
                    let label = kubectl(&[
                        "get",
                        "secret",
                        "sec-labels-only",
                        "-n",
                        &ns3,
                        "-o",
                        "jsonpath={.metadata.labels.tier}",
                    ]);
                    if !label.is_empty() || !r.stdout.contains("rolled back") {
                        return Err(format!("label {label:?} after rollback: {r:?}"));
                    }
                    if secret_data(&ns3, "sec-labels-only", "password") != b64("old-value-123") {
                        return Err("the Secret's data changed".into());
                    }
                    Ok(())
                }),
        );
    }
    // A value the change log stored masked (it looked like a credential) is not written back.
    {
        let (ns2, ns3) = (n.to_string(), n.to_string());
        v.push(
            Case::new(
                "rollback_of_a_masked_url_password_is_refused_not_corrupted",
                2,
            )
            .args(&["rollback", "e-1"])
            .stderr_has("masked value")
            .setup(move |m| {
                kubectl(&[
                    "create",
                    "configmap",
                    "masked-url",
                    "-n",
                    &ns2,
                    "--from-literal=k=postgres://app:pw-4e9a1c@db:5432/x",
                ]);
                setup_run(
                    m,
                    &patch_cm(&ns2, "masked-url", "postgres://app:pw-4e9a1c@db2:5432/x"),
                );
                last_entry_is(m, "e-1");
                mark(m);
            })
            .after(move |m, _| {
                let now = cm_value(&ns3, "masked-url");
                if now != "postgres://app:pw-4e9a1c@db2:5432/x" {
                    return Err(format!("the value was changed to {now:?}"));
                }
                if std::fs::read_to_string(log_of(m))
                    .unwrap()
                    .contains("pw-4e9a1c")
                {
                    return Err("the URL password is in the change log".into());
                }
                nothing_sent(m, "configmaps", &ns3, "masked-url")
            }),
        );
    }
    // The object is gone: not found, not "rolled back".
    {
        let ns2 = n.to_string();
        v.push(
            Case::new("rollback_of_a_deleted_object_is_not_found", 4)
                .args(&["rollback", "e-1"])
                .stderr_has("no longer exists")
                .stderr_has("changelog show e-1")
                .setup(move |m| {
                    configmap(&ns2, "deleted-later", "v1");
                    setup_run(m, &patch_cm(&ns2, "deleted-later", "v2"));
                    last_entry_is(m, "e-1");
                    kubectl(&["delete", "configmap", "deleted-later", "-n", &ns2]);
                })
                .after(|_, r| {
                    if r.stdout.contains("rolled back") {
                        return Err("reported a rollback".into());
                    }
                    Ok(())
                }),
        );
    }
    // Twice: the second is a conflict (the object changed since the entry: by the first).
    {
        let (ns2, ns3, ns4, ns5) = (n.to_string(), n.to_string(), n.to_string(), n.to_string());
        v.push(
            Case::new(
                "rollback_twice_the_second_is_a_conflict_naming_the_writer",
                5,
            )
            .args(&["rollback", "e-1"])
            .stderr_has("changed since entry")
            .stderr_has("kubectl-myops")
            .setup(move |m| {
                configmap(&ns2, "twice", "v1");
                setup_run(m, &patch_cm(&ns2, "twice", "v2"));
                last_entry_is(m, "e-1");
                setup_run(m, &["rollback".to_string(), "e-1".into()]);
                mark(m);
            })
            .after(move |m, _| untouched(m, &ns3, "twice", "v1")),
        );
        v.push(
            Case::new("rollback_twice_with_force_says_nothing_to_roll_back", 0)
                .args(&["rollback", "e-1", "--force"])
                .setup(move |m| {
                    configmap(&ns4, "twice-force", "v1");
                    setup_run(m, &patch_cm(&ns4, "twice-force", "v2"));
                    last_entry_is(m, "e-1");
                    setup_run(m, &["rollback".to_string(), "e-1".into()]);
                    mark(m);
                })
                .after(move |m, r| {
                    if !r.stdout.contains("nothing to roll back") {
                        return Err(format!("stdout: {}", r.stdout));
                    }
                    untouched(m, &ns5, "twice-force", "v1")
                }),
        );
    }
    // A rollback whose journal cannot be written sends nothing.
    {
        let (ns2, ns3) = (n.to_string(), n.to_string());
        v.push(
            Case::new("rollback_with_an_unwritable_journal_sends_nothing", 1)
                .args(&["rollback", "e-1"])
                .stderr_has("cannot write the change log")
                .stderr_has("nothing was sent")
                .setup(move |m| {
                    configmap(&ns2, "rb-unwritable", "v1");
                    setup_run(m, &patch_cm(&ns2, "rb-unwritable", "v2"));
                    last_entry_is(m, "e-1");
                    let lock = home_of(m).join("changelog.lock");
                    std::fs::remove_file(&lock).unwrap();
                    std::fs::create_dir(&lock).unwrap();
                    mark(m);
                })
                .after(move |m, _| untouched(m, &ns3, "rb-unwritable", "v2")),
        );
    }
    // The entry sits after corrupt lines: found, restored, with one warning.
    {
        let (ns2, ns3) = (n.to_string(), n.to_string());
        v.push(
            Case::new("rollback_reads_past_corrupt_lines_to_its_entry", 0)
                .args(&["rollback", "e-1"])
                .stderr_has("warning: 3 line(s)")
                .setup(move |m| {
                    configmap(&ns2, "past-corrupt", "v1");
                    setup_run(m, &patch_cm(&ns2, "past-corrupt", "v2"));
                    last_entry_is(m, "e-1");
                    let mut b = b"\xff\xfe garbage\n{\"torn\":\n[1,2]\n".to_vec();
                    b.extend_from_slice(&std::fs::read(log_of(m)).unwrap());
                    std::fs::write(log_of(m), b).unwrap();
                })
                .after(move |_, _| {
                    let now = cm_value(&ns3, "past-corrupt");
                    if now != "v1" {
                        return Err(format!("not restored: {now:?}"));
                    }
                    Ok(())
                }),
        );
    }
    // An intent without an outcome whose change did take effect: refused (5), not assumed.
    {
        let (ns2, ns3) = (n.to_string(), n.to_string());
        v.push(
            Case::new(
                "rollback_of_a_pending_entry_that_took_effect_is_a_conflict",
                5,
            )
            .args(&["rollback", "e-1"])
            .stderr_has("outcome unknown")
            .stderr_has("--force")
            .setup(move |m| {
                configmap(&ns2, "pending-took", "v1");
                setup_run(m, &patch_cm(&ns2, "pending-took", "v2"));
                last_entry_is(m, "e-1");
                drop_outcome(m, "e-1");
                mark(m);
            })
            .after(move |m, _| untouched(m, &ns3, "pending-took", "v2")),
        );
    }
    // A status change cannot be written back: refused, not "nothing to roll back".
    {
        let (ns2, ns3) = (n.to_string(), n.to_string());
        v.push(
            Case::new(
                "rollback_of_a_status_patch_is_refused_not_reported_as_done",
                2,
            )
            .args(&["rollback", "e-1"])
            .stderr_has("status.message")
            .stderr_has("which a rollback does not write")
            .setup(move |m| {
                kubectl(&[
                    "run",
                    "status-pod",
                    "-n",
                    &ns2,
                    "--image=registry.invalid/pause:1",
                    "--restart=Never",
                ]);
                setup_run(
                    m,
                    &[
                        "patch",
                        "pod",
                        "status-pod",
                        "-n",
                        &ns2,
                        "--subresource",
                        "status",
                        "--type",
                        "merge",
                        "-p",
                        r#"{"status":{"message":"hostile"}}"#,
                    ]
                    .map(String::from),
                );
                last_entry_is(m, "e-1");
                mark(m);
            })
            .after(move |m, r| {
                if r.stdout.contains("nothing to roll back") {
                    return Err("claimed nothing to roll back".into());
                }
                nothing_sent(m, "pods", &ns3, "status-pod")
            }),
        );
    }
    // Ids: garbage, unknown, huge, empty; entries that changed nothing.
    v.extend([
        Case::new("rollback_unknown_id_is_not_found", 4)
            .args(&["rollback", "ffff-1-0"])
            .stderr_has("no change-log entry ffff-1-0")
            .setup(|m| plant(m, &line(&record("1-1-0", "ConfigMap", "ns", "x")))),
        Case::new("rollback_garbage_id_with_escape_sequences_is_escaped", 4)
            .args(&["rollback", "\u{1b}[2J\u{1b}]0;owned\u{7}../../etc/passwd"])
            .stderr_has("no change-log entry \\u{1b}[2J")
            .after(|_, r| {
                if r.stderr.contains('\u{1b}') || r.stderr.contains('\u{7}') {
                    return Err("raw terminal escapes on stderr".into());
                }
                Ok(())
            }),
        Case::new("rollback_100k_character_id_is_capped", 4)
            .args_owned(vec!["rollback".into(), "9".repeat(100_000)])
            .stderr_has("(100000 characters)")
            .after(|_, r| {
                if r.stderr.len() > 600 {
                    return Err(format!("{} bytes on stderr", r.stderr.len()));
                }
                Ok(())
            }),
        Case::new("rollback_empty_id_is_not_found", 4)
            .args(&["rollback", ""])
            .stderr_has("no change-log entry"),
        Case::new("rollback_with_no_change_log_is_not_found", 4)
            .args(&["rollback", "1-1-0"])
            .stderr_has("no change-log entry 1-1-0"),
        Case::new("rollback_of_a_dry_run_entry_is_refused", 2)
            .args(&["rollback", "1-1-0"])
            .stderr_has("it changed nothing")
            .setup(|m| {
                let mut v = record("1-1-0", "ConfigMap", "ns", "x");
                v["dryRun"] = json!(true);
                plant(m, &line(&v));
            }),
        Case::new("rollback_of_a_denied_entry_is_refused", 2)
            .args(&["rollback", "1-1-0"])
            .stderr_has("it changed nothing")
            .setup(|m| {
                let mut v = record("1-1-0", "ConfigMap", "ns", "x");
                v["result"] = json!("denied");
                plant(m, &line(&v));
            }),
        // A CRD apply is rolled back like any change (its inverse deletes the CRD it
        // created); one journaled without the resourceVersion it left has no exact inverse.
        Case::new(
            "rollback_of_a_crd_apply_entry_without_its_resource_version_is_refused",
            2,
        )
        .args(&["rollback", "1-1-0"])
        .stderr_has("it created the object, and its record holds no resourceVersion")
        .setup(|m| {
            let mut v = record("1-1-0", "CustomResourceDefinition", "ns", "x");
            v["operation"] = json!("crd-apply");
            v["apiVersion"] = json!("apiextensions.k8s.io/v1");
            v["before"] = Value::Null;
            v["resourceVersionAfter"] = Value::Null;
            plant(m, &line(&v));
        }),
        Case::new("rollback_of_an_entry_without_a_patch_is_refused", 2)
            .args(&["rollback", "1-1-0"])
            .stderr_has("holds no patch")
            .setup(|m| {
                let mut v = record("1-1-0", "ConfigMap", "ns", "x");
                v["patch"] = Value::Null;
                plant(m, &line(&v));
            }),
        Case::new("rollback_of_an_entry_without_a_before_state_is_refused", 2)
            .args(&["rollback", "1-1-0"])
            .stderr_has("no before-state")
            .setup(|m| {
                let mut v = record("1-1-0", "ConfigMap", "ns", "x");
                v["before"] = Value::Null;
                plant(m, &line(&v));
            }),
    ]);
    v
}
