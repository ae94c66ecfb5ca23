//! Issue 31 item 4, the long tails: `changelog list`, `-o json` and `verify` over a log at
//! its retention bound (six files — five rotated and the active one — of 10 MiB, 59,400
//! records of about 1 KiB, hash-chained) stay within 64 MiB of peak RSS, because they stream
//! the log instead of holding it (src/changelog/stream.rs). The peak is the binary's own
//! (GNU time's `%M`), so tests running beside it do not count. Not timed.

use std::path::Path;
use std::process::Stdio;

use serde_json::{Value, json};

use crate::fixture::Myops;

/// Records in the log: the retention bound's 60 MiB at about 1 KiB each.
const RECORDS: usize = 59_400;

/// Files: five rotated and the active one.
const FILES: usize = 6;

/// A record of the log: an intent (`pending`) or its outcome, with before- and after-states
/// of about 230 bytes each.
fn record(n: usize) -> Value {
    let id = n / 2;
    let state = |v: &str| {
        json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": format!("cm-{id}"), "namespace": "shop", "resourceVersion": format!("{n}")},
        "data": {"k": v.repeat(185)}})
    };
    let mut r = json!({"id": format!("{id:x}-7b-0"), "formatVersion": 2, "session": format!("{:032x}", id / 10),
        "timestamp": format!("2026-12-0{}T08:{:02}:{:02}Z", 1 + id % 4, id % 60, id % 59),
        "plugin": "myops", "user": "admin", "context": "admin", "server": "https://127.0.0.1:6443",
        "apiVersion": "v1", "kind": "ConfigMap", "namespace": "shop", "name": format!("cm-{id}"),
        "uid": null, "operation": "patch", "patchType": "merge", "patch": {"data": {"k": "b"}},
        "dryRun": false, "before": state("a"), "resourceVersionAfter": null,
        "result": "pending", "durationSeconds": 0});
    if n % 2 == 1 {
        r["after"] = state("b");
        r["result"] = json!("success");
        r["resourceVersionAfter"] = json!(format!("{n}"));
    }
    r
}

/// Writes the log into `home`: [`RECORDS`] chained records over [`FILES`] files and the
/// head, as the journal and its rotation leave them. Returns the last hash.
fn write_log(home: &Path) -> String {
    use myops::changelog::chain::{GENESIS, Head, seal, write_head};
    std::fs::create_dir_all(home).unwrap();
    let mut prev = GENESIS.to_string();
    let per_file = RECORDS / FILES;
    for f in 0..FILES {
        let name = match FILES - 1 - f {
            0 => "changelog.jsonl".to_string(),
            k => format!("changelog.jsonl.{k}"),
        };
        let mut bytes = Vec::with_capacity(11 << 20);
        for n in f * per_file..(f + 1) * per_file {
            let (line, hash) = seal(record(n), &prev).unwrap();
            bytes.extend_from_slice(&line);
            bytes.push(b'\n');
            prev = hash;
        }
        std::fs::write(home.join(name), bytes).unwrap();
    }
    write_head(
        home,
        &Head {
            head: prev.clone(),
            base: GENESIS.into(),
        },
    )
    .unwrap();
    prev
}

/// Runs the binary with `args`, stdout into `out`; returns the exit code and its peak RSS in
/// KiB, as GNU time (`%M`, installed by scripts/setup) reports it. Not `wait4` on our own
/// child: a process's `ru_maxrss` keeps the high-water mark of the memory it was forked
/// from (Linux records the old mm's at `exec`), so a child of this test process would
/// report the test process's size; GNU time's child is forked from GNU time, which is small.
fn run_measured(m: &Myops, args: &[&str], out: &Path) -> (i32, i64) {
    let rss = out.with_extension("rss");
    let status = std::process::Command::new("/usr/bin/time")
        .args(["-f", "%M", "-o"])
        .arg(&rss)
        .arg(env!("CARGO_BIN_EXE_kubectl-myops"))
        .args(args)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .envs(m.env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .stdin(Stdio::null())
        .stdout(Stdio::from(std::fs::File::create(out).unwrap()))
        .stderr(Stdio::null())
        .status()
        .expect("GNU time runs (scripts/setup installs it)");
    let kib = std::fs::read_to_string(&rss).unwrap();
    let kib = kib.lines().last().unwrap_or("").trim().parse().unwrap();
    (status.code().unwrap_or(-1), kib)
}

#[test]
fn changelog_list_verify_and_json_of_a_60_mib_log_stay_under_64_mib() {
    let m = Myops::new("name: myops\nverbs: [get]\nresources: [configmaps]\nscopes: [namespace]\n");
    let home = m.dir.path().join("myops");
    let last = write_log(&home);
    let size: u64 = std::fs::read_dir(&home)
        .unwrap()
        .map(|e| e.unwrap().metadata().unwrap().len())
        .sum();
    assert!(size > 60 << 20, "the log holds {size} bytes");
    let limit_kib = 64 * 1024;
    let out = m.dir.path().join("out");

    let (code, rss) = run_measured(&m, &["changelog", "list"], &out);
    assert_eq!(code, 0);
    let table = std::fs::read_to_string(&out).unwrap();
    assert_eq!(table.lines().count(), RECORDS / 2 + 1, "one row per id");
    assert!(table.lines().nth(1).unwrap().starts_with("0-7b-0 "));
    assert!(
        table
            .lines()
            .last()
            .unwrap()
            .ends_with(" configmap/shop/cm-29699   success"),
        "{:?}",
        table.lines().last()
    );
    assert!(rss <= limit_kib, "changelog list peaked at {rss} KiB");

    let (code, rss) = run_measured(&m, &["changelog", "verify"], &out);
    assert_eq!(code, 0);
    let said = std::fs::read_to_string(&out).unwrap();
    assert!(
        said.starts_with(&format!(
            "ok: the chain holds: {RECORDS} chained record(s) in 6 file(s)"
        )),
        "{said}"
    );
    assert!(said.trim_end().ends_with(&last), "{said}");
    assert!(rss <= limit_kib, "changelog verify peaked at {rss} KiB");

    let (code, rss) = run_measured(&m, &["changelog", "list", "-o", "json"], &out);
    assert_eq!(code, 0);
    let listed: Vec<Value> = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(listed.len(), RECORDS / 2);
    assert_eq!(listed[7]["after"], record(15)["after"], "listed whole");
    assert!(
        rss <= limit_kib,
        "changelog list -o json peaked at {rss} KiB"
    );
}
