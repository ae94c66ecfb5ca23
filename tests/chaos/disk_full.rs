//! Scenario 4: the file system of MYOPS_HOME is full.
//!
//! A 1 MiB tmpfs is mounted for MYOPS_HOME (needs root and permission to mount; otherwise the
//! scenario is skipped, loudly), a patch and a get fill in the change log and the metrics
//! state, then a filler file takes the rest of the space — all of it, then all but 24 KiB (an
//! intent fits, its outcome might not). Every time: the patch (and a `crds sync` of a changed
//! CRD) is refused before anything is sent (exit 1, a sentence naming the change log and the
//! free space; the audit log shows no patch, the object is unchanged, the log did not grow),
//! the metrics state file is intact
//! (the same bytes, no temp file left), `get` still answers, and `changelog verify` passes.
//! After the filler is removed the same patch goes through.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use serde_json::Value;

use crate::fixture::{Myops, Namespace, Run, audit_mark, audit_since, kubectl};
use crate::report::Tally;

/// A tmpfs mounted at a fresh directory, unmounted when dropped.
struct Tmpfs(PathBuf);

impl Tmpfs {
    /// Mounts a tmpfs of `size` (mount(8) syntax) or says why it cannot.
    fn mount(size: &str) -> Result<Tmpfs, String> {
        let uid = Command::new("id")
            .arg("-u")
            .output()
            .map_err(|e| e.to_string())?;
        if String::from_utf8_lossy(&uid.stdout).trim() != "0" {
            return Err("not running as root, so no tmpfs can be mounted for MYOPS_HOME".into());
        }
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?.keep();
        let out = Command::new("mount")
            .args([
                "-t",
                "tmpfs",
                "-o",
                &format!("size={size},mode=0700"),
                "tmpfs",
            ])
            .arg(&dir)
            .output()
            .map_err(|e| format!("mount(8) does not run: {e}"))?;
        if !out.status.success() {
            let _ = std::fs::remove_dir(&dir);
            return Err(format!(
                "mount -t tmpfs failed (no CAP_SYS_ADMIN in this container?): {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        Ok(Tmpfs(dir))
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
        let _ = std::fs::remove_dir(&self.0);
    }
}

/// Fills the file system of `dir` with `filler`, leaving about `leave` bytes free.
fn fill(filler: &Path, leave: u64) {
    let _ = std::fs::remove_file(filler);
    let mut f = std::fs::File::create(filler).unwrap();
    let chunk = vec![0x55u8; 4096];
    loop {
        if free(filler.parent().unwrap()) <= leave {
            break;
        }
        if f.write_all(&chunk).is_err() {
            break;
        }
    }
    let _ = f.sync_all();
}

/// Free bytes on the file system of `dir` (df).
fn free(dir: &Path) -> u64 {
    let out = Command::new("df")
        .args(["-B1", "--output=avail"])
        .arg(dir)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .nth(1)
        .and_then(|l| l.trim().parse().ok())
        .expect("df prints the free bytes")
}

/// The number of operations a metrics state file counts.
fn ops(state: &Value) -> u64 {
    state["ops"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["count"].as_u64().unwrap())
        .sum()
}

/// The last record of every id in the log at `p`, in first-seen order.
fn latest(p: &Path) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    for line in std::fs::read_to_string(p).unwrap().lines() {
        let v: Value = serde_json::from_str(line).expect("a valid record");
        match out.iter_mut().find(|e| e["id"] == v["id"]) {
            Some(e) => *e = v,
            None => out.push(v),
        }
    }
    out
}

fn lines(p: &Path) -> usize {
    std::fs::read_to_string(p)
        .unwrap_or_default()
        .lines()
        .count()
}

fn patches_since(mark: u64, ns: &str) -> usize {
    audit_since(mark)
        .iter()
        .filter(|e| {
            e["verb"] == "patch"
                && e.pointer("/objectRef/namespace") == Some(&Value::from(ns))
                && e.pointer("/objectRef/name") == Some(&Value::from("web"))
        })
        .count()
}

fn timed(t: &mut Tally, m: &Myops, args: &[&str]) -> Run {
    let started = Instant::now();
    let r = m.run(args);
    t.command(started.elapsed());
    r
}

#[test]
fn disk_full_refuses_mutations_before_sending_and_keeps_the_metrics_state() {
    let mut t = Tally::new("disk full for MYOPS_HOME");
    let fs = match Tmpfs::mount("1m") {
        Ok(fs) => fs,
        Err(why) => {
            t.skip(why);
            return;
        }
    };
    let ns = Namespace::new("chaos-disk-full");
    let n = &ns.0;
    kubectl(&["create", "configmap", "web", "-n", n, "--from-literal=k=v0"]);
    let mut m = Myops::new(
        "name: myops\nverbs: [get, patch]\nresources: [configmaps, customresourcedefinitions]\nscopes: [namespace, cluster]\nmetrics: [ops_total, ops_errors_total, ops_duration_seconds]\n",
    );
    let home = fs.0.join("myops");
    m.set_env("MYOPS_HOME", &home.display().to_string());
    for k in ["NO_ROOM_CHECK", "NO_CUT_BACK"] {
        if let Ok(v) = std::env::var(k) {
            m.set_env(k, &v);
        }
    }
    let log = home.join("changelog.jsonl");
    let state = home.join("metrics-state.json");
    let patch = |m: &Myops, t: &mut Tally, v: &str| {
        timed(
            t,
            m,
            &[
                "patch",
                "configmap",
                "web",
                "-n",
                n,
                "--type",
                "merge",
                "-p",
                &format!(r#"{{"data":{{"k":"{v}"}}}}"#),
            ],
        )
    };

    let r = patch(&m, &mut t, "v1");
    assert_eq!(r.code, 0, "{r:?}");
    let r = m.run(&["get", "configmap", "web", "-n", n]);
    assert_eq!(r.code, 0, "{r:?}");
    // A CRD of this test's own, registered while there is room; changed while there is not.
    let group = format!("{n}.chaos.example.com");
    let crd_name = format!("widgets.{group}");
    let crds = tempfile::tempdir().unwrap();
    let crd_file = crds.path().join("widgets.yaml");
    let crd = |short: &str| {
        format!(
            "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: {crd_name}\nspec:\n  group: {group}\n  names: {{kind: Widget, plural: widgets, singular: widget, listKind: WidgetList, shortNames: [{short}]}}\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema: {{type: object, x-kubernetes-preserve-unknown-fields: true}}\n"
        )
    };
    std::fs::write(&crd_file, crd("wa")).unwrap();
    let crds_dir = crds.path().to_str().unwrap();
    let r = m.run(&["crds", "sync", crds_dir]);
    assert_eq!(r.code, 0, "{r:?}");
    let state_before = std::fs::read(&state).expect("the state file was written");
    let filler = fs.0.join("filler");

    for (leave, what) in [(0, "no byte"), (24 * 1024, "24 KiB")] {
        t.fault();
        fill(&filler, leave);
        eprintln!("disk full: {} bytes free ({what} left)", free(&fs.0));
        let mark = audit_mark();
        let log_lines = lines(&log);
        let r = patch(&m, &mut t, "v2");
        eprintln!("refused: {}", r.stderr);
        assert_eq!(
            r.code, 1,
            "{what} free: the patch is refused with exit 1: {r:?}"
        );
        assert_eq!(
            patches_since(mark, n),
            0,
            "{what} free: no patch reached the server"
        );
        assert_eq!(
            kubectl(&[
                "get",
                "configmap",
                "web",
                "-n",
                n,
                "-o",
                "jsonpath={.data.k}"
            ]),
            "v1"
        );
        assert_eq!(lines(&log), log_lines, "{what} free: nothing journaled");
        let v = m.run(&["changelog", "verify"]);
        assert_eq!(v.code, 0, "{what} free: {v:?}");
        // The refusal names the log, the free space and that nothing was sent.
        assert!(
            r.stderr
                .contains(&format!("cannot write the change log {}", log.display()))
                && r.stderr.contains("bytes are free on its file system")
                && r.stderr.contains("nothing was sent"),
            "{r:?}"
        );
        // With no byte free the state cannot be rewritten and stays as it was; with some
        // room it records the refused patch (status error). Never a torn file.
        let now = std::fs::read(&state).expect("the state file is still there");
        let parsed: Value = serde_json::from_slice(&now).expect("the state file parses");
        if leave == 0 {
            assert_eq!(
                now, state_before,
                "{what} free: the metrics state is untouched"
            );
        } else {
            assert_eq!(
                ops(&parsed),
                ops(&serde_json::from_slice(&state_before).unwrap()) + 1,
                "{what} free: the state holds the earlier totals and the refused patch: {parsed}"
            );
            assert!(
                parsed["ops"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|o| o["verb"] == "patch" && o["status"] == "error"),
                "{parsed}"
            );
        }
        let leftovers: Vec<_> = std::fs::read_dir(&home)
            .unwrap()
            .filter_map(Result::ok)
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp"))
            .collect();
        assert!(
            leftovers.is_empty(),
            "temp files left behind: {leftovers:?}"
        );
        let r = timed(
            &mut t,
            &m,
            &[
                "get",
                "configmap",
                "web",
                "-n",
                n,
                "-o",
                "jsonpath={.data.k}",
            ],
        );
        assert_eq!(
            (r.code, r.stdout.as_str()),
            (0, "v1"),
            "reads still work: {r:?}"
        );
        // `crds sync` is refused the same way: the CRD keeps its short name.
        std::fs::write(&crd_file, crd("wb")).unwrap();
        let r = timed(&mut t, &m, &["crds", "sync", crds_dir]);
        assert_eq!(r.code, 1, "{what} free: crds sync refused: {r:?}");
        assert!(
            r.stderr.contains("bytes are free on its file system"),
            "{r:?}"
        );
        assert_eq!(
            kubectl(&[
                "get",
                "crd",
                &crd_name,
                "-o",
                "jsonpath={.spec.names.shortNames[0]}"
            ]),
            "wa",
            "{what} free: the CRD was not changed"
        );
        assert_eq!(lines(&log), log_lines, "{what} free: nothing journaled");
        t.survived();
    }
    t.note("a patch and a crds sync refused before sending at 0 B and at 24 KiB free (exit 1, no PATCH in the audit log), the metrics state intact, get answering");

    std::fs::remove_file(&filler).unwrap();
    let _ = crate::fixture::kubectl_at(
        &crate::fixture::cluster().kubeconfig,
        &["delete", "crd", &crd_name, "--wait=false"],
    );
    let r = patch(&m, &mut t, "v3");
    assert_eq!(r.code, 0, "with room again the patch goes through: {r:?}");
    let recs = latest(&log);
    let last = recs.last().unwrap();
    assert_eq!(
        (last["result"].as_str(), last["patch"]["data"]["k"].as_str()),
        (Some("success"), Some("v3"))
    );
    let v = m.run(&["changelog", "verify"]);
    assert_eq!(v.code, 0, "{v:?}");
    let ops: Vec<&str> = recs
        .iter()
        .map(|r| r["operation"].as_str().unwrap())
        .collect();
    t.lost(3u32.saturating_sub(recs.len() as u32));
    assert_eq!(
        ops,
        ["patch", "crd-apply", "patch"],
        "the two patches and the first sync journaled, the refused attempts not: {recs:#?}"
    );
}
