//! Issue 15 parts 1 and 4 on the real cluster: the change log's hash chain (`changelog
//! verify` names the first break by file, line and id for each way of tampering), one chain
//! under 50 concurrent writers, and rotation by size and age with the chain running on
//! across the retained files (verify, list, rollback across them; a rotated-away entry).
//! The cluster is the oracle for what the records say (resourceVersions, values).

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::fixture::{Myops, Namespace, Run, kubectl};

/// A boundary that may patch ConfigMaps, with `extra` appended (a `changelog:` block).
fn myops(extra: &str) -> Myops {
    Myops::new(&format!(
        "name: myops\nverbs: [get, patch]\nresources: [configmaps]\nscopes: [namespace]\n{extra}"
    ))
}

/// A namespace of its own holding ConfigMap `c` with `k: "0"`.
fn with_configmap(test: &str) -> Namespace {
    let ns = Namespace::new(test);
    kubectl(&[
        "create",
        "configmap",
        "c",
        "-n",
        &ns.0,
        "--from-literal=k=0",
    ]);
    ns
}

fn home_of(m: &Myops) -> PathBuf {
    m.dir.path().join("myops")
}

fn patch(m: &Myops, ns: &str, name: &str, key: &str, value: &str) -> Run {
    let body = format!("{{\"data\":{{\"{key}\":\"{value}\"}}}}");
    let r = m.run(&[
        "patch",
        "configmap",
        name,
        "-n",
        ns,
        "--type",
        "merge",
        "-p",
        &body,
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    r
}

fn lines_of(p: &Path) -> Vec<Value> {
    std::fs::read_to_string(p)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn verify_at(m: &Myops, home: &Path) -> Run {
    let mut m2 = myops("");
    m2.env = m.env.clone();
    m2.set_env("MYOPS_HOME", &home.display().to_string());
    m2.run(&["changelog", "verify"])
}

/// A copy of `home`'s log files and head in a new directory, `tamper`ed.
fn tampered(m: &Myops, tamper: impl Fn(&Path)) -> (tempfile::TempDir, Run) {
    let dir = tempfile::tempdir().unwrap();
    // A private home, as MYOPS_HOME is (no warning line in the way).
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    for e in std::fs::read_dir(home_of(m)).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_str().unwrap().to_string();
        if name.starts_with("changelog.jsonl") || name == "changelog.head" {
            std::fs::copy(&p, dir.path().join(&name)).unwrap();
        }
    }
    tamper(dir.path());
    let r = verify_at(m, dir.path());
    (dir, r)
}

fn rewrite_lines(p: &Path, f: impl Fn(&mut Vec<String>)) {
    let mut lines: Vec<String> = std::fs::read_to_string(p)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    f(&mut lines);
    std::fs::write(
        p,
        lines.iter().map(|l| format!("{l}\n")).collect::<String>(),
    )
    .unwrap();
}

fn id(v: &Value) -> &str {
    v["id"].as_str().unwrap()
}

#[test]
fn verify_names_an_edited_deleted_swapped_truncated_or_torn_record_by_line_and_id() {
    let ns = with_configmap("chain-tamper");
    let m = myops("");
    for i in 1..=3 {
        patch(&m, &ns.0, "c", "k", &i.to_string());
    }
    let log = home_of(&m).join("changelog.jsonl");
    let records = lines_of(&log);
    assert_eq!(records.len(), 6, "an intent and an outcome per patch");
    // The records say what the cluster says.
    let rv = kubectl(&[
        "get",
        "configmap",
        "c",
        "-n",
        &ns.0,
        "-o",
        "jsonpath={.metadata.resourceVersion}",
    ]);
    assert_eq!(records[5]["resourceVersionAfter"], rv.trim());
    assert_eq!(
        records[0]["prev"],
        "0".repeat(64),
        "the chain starts at genesis"
    );
    for w in records.windows(2) {
        assert_eq!(w[1]["prev"], w[0]["hash"]);
    }
    let last = records[5]["hash"].as_str().unwrap();
    let head: Value =
        serde_json::from_str(&std::fs::read_to_string(home_of(&m).join("changelog.head")).unwrap())
            .unwrap();
    assert_eq!(head["head"], last);

    let r = m.run(&["changelog", "verify"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        r.stdout,
        format!(
            "ok: the chain holds: 6 chained record(s) in 1 file(s) (changelog.jsonl); last hash {last}\n"
        )
    );

    let expect = |r: &Run, needle: &str| {
        assert_eq!(r.code, 1, "{r:?}");
        assert!(r.stderr.contains(needle), "want {needle:?} in {}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "one sentence: {}", r.stderr);
    };
    // Each way of rewriting the active file's lines, and what verify must say.
    type Rewrite = Box<dyn Fn(&mut Vec<String>)>;
    let cases: Vec<(&str, Rewrite, String)> = vec![
        (
            "a field of line 3 edited",
            Box::new(|l| l[2] = l[2].replace("\"user\":\"admin\"", "\"user\":\"mallory\"")),
            format!(
                "changelog.jsonl line 3 (id {}) does not match its hash: the record was edited",
                id(&records[2])
            ),
        ),
        (
            "line 3 deleted (line 3 is now what was line 4)",
            Box::new(|l| {
                l.remove(2);
            }),
            format!(
                "changelog.jsonl line 3 (id {}) does not chain to the record before it, changelog.jsonl line 2 (id {})",
                id(&records[3]),
                id(&records[1])
            ),
        ),
        (
            "lines 3 and 4 swapped (two patches' records)",
            Box::new(|l| l.swap(2, 3)),
            format!(
                "changelog.jsonl line 3 (id {}) does not chain",
                id(&records[3])
            ),
        ),
        (
            "the last two records removed: a valid prefix, caught by changelog.head",
            Box::new(|l| l.truncate(4)),
            format!(
                "the chain ends at changelog.jsonl line 4 (id {}), but changelog.head says the last record appended has hash {}…, which no record has: records were removed from the end",
                id(&records[3]),
                &last[..16]
            ),
        ),
    ];
    for (what, rewrite, needle) in cases {
        let (_d, r) = tampered(&m, |h| rewrite_lines(&h.join("changelog.jsonl"), &rewrite));
        assert_eq!(r.code, 1, "{what}: {r:?}");
        expect(&r, &needle);
    }
    // Cut the file in the middle of the last record.
    let (_d, r) = tampered(&m, |h| {
        let p = h.join("changelog.jsonl");
        let bytes = std::fs::read(&p).unwrap();
        std::fs::write(&p, &bytes[..bytes.len() - 50]).unwrap();
    });
    expect(
        &r,
        &format!(
            "changelog.jsonl line 6 (id {}) is not a valid record (torn:",
            id(&records[5])
        ),
    );
    // The head file deleted too: what can no longer be told is said.
    let (_d, r) = tampered(&m, |h| {
        std::fs::remove_file(h.join("changelog.head")).unwrap()
    });
    expect(&r, "changelog.head is missing");
}

#[test]
fn fifty_concurrent_patches_keep_one_chain() {
    let ns = with_configmap("chain-fifty");
    let m = myops("");
    let children: Vec<_> = (0..50)
        .map(|i| {
            let body = format!("{{\"data\":{{\"k{i}\":\"{i}\"}}}}");
            m.command(&[
                "patch",
                "configmap",
                "c",
                "-n",
                &ns.0,
                "--type",
                "merge",
                "-p",
                &body,
            ])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
        })
        .collect();
    for c in children {
        let out = c.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let data = kubectl(&[
        "get",
        "configmap",
        "c",
        "-n",
        &ns.0,
        "-o",
        "jsonpath={.data}",
    ]);
    let data: Value = serde_json::from_str(&data).unwrap();
    assert_eq!(
        data.as_object().unwrap().len(),
        51,
        "every patch landed: {data}"
    );
    let r = m.run(&["changelog", "verify"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout
            .starts_with("ok: the chain holds: 100 chained record(s) in 1 file(s)"),
        "{r:?}"
    );
}

#[test]
fn rotation_at_a_small_cap_keeps_one_verifiable_chain_across_files() {
    let ns = with_configmap("chain-rotate");
    let m = myops("changelog:\n  maxSize: 4KiB\n");
    let mut ids = Vec::new();
    for i in 1..=10 {
        patch(&m, &ns.0, "c", "k", &i.to_string());
        let records = lines_of(&home_of(&m).join("changelog.jsonl"));
        ids.push(id(records.last().unwrap()).to_string());
    }
    let home = home_of(&m);
    let names: Vec<String> = (1..=6)
        .map(|n| format!("changelog.jsonl.{n}"))
        .filter(|n| home.join(n).exists())
        .collect();
    assert_eq!(
        names,
        (1..=5)
            .map(|n| format!("changelog.jsonl.{n}"))
            .collect::<Vec<_>>(),
        "five rotated files kept"
    );
    for n in &names {
        let len = std::fs::metadata(home.join(n)).unwrap().len();
        let records = lines_of(&home.join(n)).len();
        assert!(
            len <= 4096 || records == 1,
            "{n}: {len} bytes, {records} records"
        );
    }
    // The first record of each file chains to the last of the one before it.
    let order: Vec<PathBuf> = names
        .iter()
        .rev()
        .map(|n| home.join(n))
        .chain([home.join("changelog.jsonl")])
        .collect();
    for w in order.windows(2) {
        let (older, newer) = (lines_of(&w[0]), lines_of(&w[1]));
        assert_eq!(newer[0]["prev"], older.last().unwrap()["hash"], "{w:?}");
    }
    let r = m.run(&["changelog", "verify"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout.contains("in 6 file(s) (changelog.jsonl.5, changelog.jsonl.4, changelog.jsonl.3, changelog.jsonl.2, changelog.jsonl.1, changelog.jsonl)"),
        "{r:?}"
    );

    // list reads across the files: every retained id once.
    let list = m.run(&["changelog", "list"]);
    let retained: std::collections::BTreeSet<String> = order
        .iter()
        .flat_map(|p| lines_of(p))
        .map(|v| id(&v).to_string())
        .collect();
    assert_eq!(
        list.stdout.lines().count(),
        retained.len() + 1,
        "a header and the ids: {list:?}"
    );
    assert!(
        !retained.contains(&ids[0]),
        "the first patch was rotated away"
    );

    // The first patch cannot be rolled back, and the error says why (exit 4).
    let r = m.run(&["rollback", &ids[0]]);
    assert_eq!(r.code, 4, "{r:?}");
    assert!(
        r.stderr
            .contains(&format!("change-log entry {} (from ", ids[0]))
            && r.stderr
                .contains("was rotated away: the oldest record kept is from"),
        "{r:?}"
    );
    for verb in ["show", "diff"] {
        let r = m.run(&["changelog", verb, &ids[0]]);
        assert_eq!(r.code, 4, "changelog {verb}: {r:?}");
        assert!(
            r.stderr.contains("was rotated away"),
            "changelog {verb}: {r:?}"
        );
    }
    // An id that never existed is still plain not found.
    let r = m.run(&["rollback", "nope"]);
    assert_eq!(r.code, 4, "{r:?}");
    assert!(r.stderr.contains("no change-log entry nope"), "{r:?}");

    // The last patch rolls back from the retained files; the cluster shows the old value.
    let r = m.run(&["rollback", ids.last().unwrap()]);
    assert_eq!(r.code, 0, "{r:?}");
    let v = kubectl(&[
        "get",
        "configmap",
        "c",
        "-n",
        &ns.0,
        "-o",
        "jsonpath={.data.k}",
    ]);
    assert_eq!(v.trim(), "9");
    assert_eq!(m.run(&["changelog", "verify"]).code, 0);

    // Tamper with a rotated file: verify names it.
    let victim = lines_of(&home.join("changelog.jsonl.3"));
    let (_d, r) = tampered(&m, |h| {
        rewrite_lines(&h.join("changelog.jsonl.3"), |l| {
            l[0] = l[0].replace("\"kind\":\"ConfigMap\"", "\"kind\":\"Secret\"");
        })
    });
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains(&format!(
            "changelog.jsonl.3 line 1 (id {}) does not match its hash",
            id(&victim[0])
        )),
        "{r:?}"
    );
    // Delete the oldest retained file: its successor no longer chains to the recorded base.
    let next = lines_of(&home.join("changelog.jsonl.4"));
    let (_d, r) = tampered(&m, |h| {
        std::fs::remove_file(h.join("changelog.jsonl.5")).unwrap()
    });
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains(&format!(
            "changelog.jsonl.4 line 1 (id {}) starts the chain but its prev is",
            id(&next[0])
        )) && r
            .stderr
            .contains("the last hash of the file rotation deleted"),
        "{r:?}"
    );
}

#[test]
fn a_log_whose_first_record_is_older_than_max_age_is_rotated_and_still_verifies() {
    let ns = with_configmap("chain-age");
    let m = myops("changelog:\n  maxAge: 1d\n");
    patch(&m, &ns.0, "c", "k", "1");
    // Backdate the log: a record written before the chain existed, from 2020.
    let home = home_of(&m);
    let log = home.join("changelog.jsonl");
    let mut old = lines_of(&log)[0].clone();
    let obj = old.as_object_mut().unwrap();
    obj.remove("prev");
    obj.remove("hash");
    obj.insert("timestamp".into(), "2020-01-01T00:00:00Z".into());
    obj.insert("id".into(), "16f5e66e800-1-0".into());
    std::fs::write(&log, format!("{old}\n")).unwrap();
    std::fs::remove_file(home.join("changelog.head")).unwrap();
    patch(&m, &ns.0, "c", "k", "2");
    assert_eq!(lines_of(&home.join("changelog.jsonl.1")), vec![old]);
    let fresh = lines_of(&log);
    assert_eq!(fresh.len(), 2);
    // The chain starts with the digest of the file of records before it (so a forged record
    // put there is caught), not GENESIS.
    assert_eq!(
        fresh[0]["prev"],
        myops::changelog::chain::legacy_digest(
            &std::fs::read(home.join("changelog.jsonl.1")).unwrap()
        ),
        "the chain starts after the unhashed record, bound to it"
    );
    let r = m.run(&["changelog", "verify"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout
            .contains("2 chained record(s) in 2 file(s) (changelog.jsonl.1, changelog.jsonl)"),
        "{r:?}"
    );
    assert!(
        r.stderr
            .contains("note: the first 1 record(s) were written before records were chained"),
        "{r:?}"
    );
}
