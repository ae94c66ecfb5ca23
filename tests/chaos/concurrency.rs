//! Scenario 6: 50 concurrent patches and 5 concurrent `crds sync` across two MYOPS_HOMEs
//! while their journals rotate.
//!
//! plugin.yaml sets `changelog.maxSize` to 24 KiB, so each home's log is rotated several
//! times while the 55 processes append to it; the total stays under the six files kept
//! (active + [`ROTATED`]), so nothing may be deleted — the test checks that too (the head's
//! `base` is still the genesis). Afterwards, in both homes: every retained file parses line
//! by line, `changelog verify` passes, and every patch and CRD apply has its intent and its
//! outcome record — none lost across the rotated files.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Instant;

use serde_json::Value;

use crate::fixture::{Myops, Namespace, kubectl};
use crate::report::Tally;

/// Rotated files kept (src/changelog/retention.rs `ROTATED_FILES`).
const ROTATED: usize = 5;

/// Every record of every retained log file of `home`, oldest file first; panics on a line
/// that is not JSON.
fn records(home: &Path) -> (Vec<Value>, usize) {
    let mut files: Vec<PathBuf> = (1..=ROTATED)
        .rev()
        .map(|i| home.join(format!("changelog.jsonl.{i}")))
        .filter(|p| p.exists())
        .collect();
    let rotated = files.len();
    files.push(home.join("changelog.jsonl"));
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        for (i, line) in text.lines().enumerate() {
            let v: Value = serde_json::from_str(line).unwrap_or_else(|e| {
                panic!(
                    "{} line {}: not a record ({e}): {line:.200}",
                    f.display(),
                    i + 1
                )
            });
            out.push(v);
        }
    }
    (out, rotated)
}

fn crd(group: &str, plural: &str, kind: &str) -> String {
    format!(
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: {plural}.{group}\nspec:\n  group: {group}\n  names: {{kind: {kind}, plural: {plural}, singular: {}, listKind: {kind}List}}\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        x-kubernetes-preserve-unknown-fields: true\n",
        kind.to_lowercase()
    )
}

#[test]
fn concurrent_patches_and_crd_syncs_in_two_homes_keep_rotating_journals_whole() {
    let mut t = Tally::new("50 concurrent patches and 5 crds sync, journal rotating");
    let ns = Namespace::new("chaos-concurrency");
    let n = &ns.0;
    for c in 0..5 {
        kubectl(&[
            "create",
            "configmap",
            &format!("web-{c}"),
            "-n",
            n,
            "--from-literal=k=v0",
        ]);
    }
    let group = format!("{}.chaos.example.com", n);
    let crd_dir = tempfile::tempdir().unwrap();
    for (plural, kind) in [("widgets", "Widget"), ("gadgets", "Gadget")] {
        std::fs::write(
            crd_dir.path().join(format!("{plural}.yaml")),
            crd(&group, plural, kind),
        )
        .unwrap();
    }
    let plugin = "name: myops\nverbs: [get, patch]\nresources: [configmaps, customresourcedefinitions]\nscopes: [namespace, cluster]\nmetrics: [ops_total]\nchangelog: {maxSize: 24KiB}\n";
    let homes = [Myops::new(plugin), Myops::new(plugin)];
    let home = |m: &Myops| m.dir.path().join("myops");

    t.fault();
    let mut children = Vec::new();
    for i in 0..50usize {
        let m = &homes[i % 2];
        let body = format!(r#"{{"data":{{"p{i}":"v{i}"}}}}"#);
        let cm = format!("web-{}", i % 5);
        let args = [
            "patch",
            "configmap",
            &cm,
            "-n",
            n,
            "--type",
            "merge",
            "-p",
            &body,
        ];
        children.push((format!("patch {i}"), Instant::now(), spawn(m, &args)));
        if i % 10 == 0 {
            let m = &homes[(i / 10) % 2];
            let args = ["crds", "sync", crd_dir.path().to_str().unwrap()];
            children.push((
                format!("crds sync {}", i / 10),
                Instant::now(),
                spawn(m, &args),
            ));
        }
    }
    assert_eq!(children.len(), 55);
    for (what, at, child) in children {
        let out = child.wait_with_output().unwrap();
        t.command(at.elapsed());
        assert_eq!(
            out.status.code(),
            Some(0),
            "{what}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    for c in 0..5 {
        let data = kubectl(&[
            "get",
            "configmap",
            &format!("web-{c}"),
            "-n",
            n,
            "-o",
            "json",
        ]);
        let data: Value = serde_json::from_str(&data).unwrap();
        for i in (c..50).step_by(5) {
            assert_eq!(
                data["data"][format!("p{i}")],
                format!("v{i}"),
                "patch {i} in effect"
            );
        }
    }

    let mut lost = 0;
    for (side, m) in homes.iter().enumerate() {
        let (recs, rotated) = records(&home(m));
        t.note(format!(
            "home {side}: {} records in {rotated} rotated file(s) + the active one",
            recs.len()
        ));
        assert!(
            rotated >= 2,
            "home {side}: the journal rotated while being written ({rotated} rotated files)"
        );
        let head: Value =
            serde_json::from_str(&std::fs::read_to_string(home(m).join("changelog.head")).unwrap())
                .unwrap();
        assert_eq!(
            head["base"].as_str().map(|b| b.chars().all(|c| c == '0')),
            Some(true),
            "home {side}: no file was rotated away (sized so that none is): {head}"
        );
        let v = m.run(&["changelog", "verify"]);
        assert_eq!(v.code, 0, "home {side}: {v:?}");
        let inv = m.run(&["changelog", "list", "--invalid"]);
        assert_eq!(
            inv.stderr.trim(),
            "No invalid lines.",
            "home {side}: {inv:?}"
        );
        // Each id: exactly one intent (pending) followed by exactly one outcome.
        let mut by_id: HashMap<String, Vec<String>> = HashMap::new();
        for r in &recs {
            by_id
                .entry(r["id"].as_str().unwrap().to_string())
                .or_default()
                .push(r["result"].as_str().unwrap().to_string());
        }
        let count = |op: &str| {
            let ids: Vec<&Value> = recs
                .iter()
                .filter(|r| r["operation"] == op && r["result"] == "pending")
                .collect();
            let whole = ids
                .iter()
                .filter(|r| {
                    let results = &by_id[r["id"].as_str().unwrap()];
                    results.len() == 2 && results[0] == "pending" && results[1] == "success"
                })
                .count();
            (ids.len(), whole)
        };
        let (patch_intents, patches_whole) = count("patch");
        let syncs = if side == 0 { 3 } else { 2 };
        let (crd_intents, crds_whole) = count("crd-apply");
        eprintln!(
            "home {side}: {patch_intents} patch intents, {patches_whole} with their outcome; {crd_intents} CRD apply intents, {crds_whole} with their outcome"
        );
        lost += 25usize.saturating_sub(patches_whole) + (syncs * 2usize).saturating_sub(crds_whole);
        assert_eq!(
            (patch_intents, patches_whole),
            (25, 25),
            "home {side}: every patch journaled whole"
        );
        assert_eq!(
            (crd_intents, crds_whole),
            (syncs * 2, syncs * 2),
            "home {side}: every CRD apply journaled whole"
        );
        assert!(
            by_id.values().all(|r| r.len() == 2),
            "home {side}: no id with a record missing or doubled"
        );
    }
    t.lost(lost as u32);
    t.survived();
    for plural in ["widgets", "gadgets"] {
        let _ = crate::fixture::kubectl_at(
            &crate::fixture::cluster().kubeconfig,
            &[
                "delete",
                "crd",
                &format!("{plural}.{group}"),
                "--wait=false",
            ],
        );
    }
}

fn spawn(m: &Myops, args: &[&str]) -> std::process::Child {
    m.command(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs")
}
