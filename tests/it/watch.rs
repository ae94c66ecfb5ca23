//! `crds watch` with real files, real notify events and the real API server: every kind of
//! thing a directory can do, each followed by `get` in a new process.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::crd_watcher::{Watcher, crd, watched_dir};
use crate::fixture::{Myops, Namespace, kubectl, kubectl_apply, root};

const SLOW: Duration = Duration::from_secs(60);

#[test]
fn each_corpus_file_dropped_one_by_one_is_usable_by_get_in_a_new_process_at_once() {
    let ns = Namespace::new("watch-corpus");
    let m = Myops::standard(&ns.0);
    let dir = watched_dir(&m);
    let mut w = Watcher::start(&m, &dir, &[]);
    let corpus = root().join("../shared/corpus/crds");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&corpus)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 8, "corpus files");
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        std::fs::write(dir.join(f.file_name().unwrap()), &text).unwrap();
        let names: Vec<String> = myops::crds::parse_crds(&text, f)
            .unwrap()
            .into_iter()
            .map(|c| c.name)
            .collect();
        for name in names {
            w.expect("registered", &name, SLOW);
            let plural = name.split('.').next().unwrap().to_string();
            let group = name.split_once('.').unwrap().1;
            let r = m.run(&[
                "get",
                &format!("{plural}.{group}"),
                "-n",
                &ns.0,
                "-o",
                "name",
            ]);
            assert_eq!(r.code, 0, "{name}: {r:?}");
        }
    }
    assert_eq!(w.stop(), 0);
}

#[test]
fn several_files_at_once_atomic_save_slow_chunks_and_a_moved_in_directory() {
    let ns = Namespace::new("watch-events");
    let m = Myops::standard(&ns.0);
    let dir = watched_dir(&m);
    let g = format!("{}.events.example.com", ns.0);
    let mut w = Watcher::start(&m, &dir, &[]);

    // Several files at once.
    for (p, k) in [("alphas", "Alpha"), ("betas", "Beta"), ("gammas", "Gamma")] {
        std::fs::write(dir.join(format!("{p}.yaml")), crd(&g, p, k)).unwrap();
    }
    for p in ["alphas", "betas", "gammas"] {
        w.expect("registered", &format!("{p}.{g}"), SLOW);
    }

    // An editor's atomic save: write a temp file, rename it over the target.
    let tmp = dir.join(".deltas.yaml.swp");
    std::fs::write(&tmp, crd(&g, "deltas", "Delta")).unwrap();
    std::fs::rename(&tmp, dir.join("deltas.yaml")).unwrap();
    w.expect("registered", &format!("deltas.{g}"), SLOW);

    // Three slow chunks: whatever the half-written file gives, the whole one registers.
    let text = crd(&g, "epsilons", "Epsilon");
    let thirds = [
        &text[..text.len() / 3],
        &text[text.len() / 3..2 * text.len() / 3],
        &text[2 * text.len() / 3..],
    ];
    {
        use std::io::Write;
        let mut f = std::fs::File::create(dir.join("epsilons.yaml")).unwrap();
        for part in thirds {
            f.write_all(part.as_bytes()).unwrap();
            f.flush().unwrap();
            std::thread::sleep(Duration::from_millis(300));
        }
    }
    w.expect("registered", &format!("epsilons.{g}"), SLOW);
    let r = m.run(&["get", &format!("epsilons.{g}"), "-n", &ns.0]);
    assert_eq!(r.code, 0, "{r:?}");

    // The directory removed, then a directory full of CRDs renamed into its place.
    std::fs::remove_dir_all(&dir).unwrap();
    for p in ["alphas", "betas", "gammas", "deltas", "epsilons"] {
        w.expect("unregistered", &format!("{p}.{g}"), SLOW);
    }
    let staging = m.dir.path().join("staging");
    std::fs::create_dir(&staging).unwrap();
    std::fs::write(staging.join("zetas.yaml"), crd(&g, "zetas", "Zeta")).unwrap();
    std::fs::write(staging.join("etas.yaml"), crd(&g, "etas", "Eta")).unwrap();
    std::fs::rename(&staging, &dir).unwrap();
    w.expect("registered", &format!("zetas.{g}"), SLOW);
    w.expect("registered", &format!("etas.{g}"), SLOW);

    // Still alive and correct: one more file.
    std::fs::write(dir.join("thetas.yaml"), crd(&g, "thetas", "Theta")).unwrap();
    w.expect("registered", &format!("thetas.{g}"), SLOW);
    let r = m.run(&["get", &format!("thetas.{g}"), "-n", &ns.0, "-o", "json"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(w.stop(), 0);
}

#[test]
fn bad_files_are_reported_with_locations_and_isolated_then_load_when_fixed() {
    let ns = Namespace::new("watch-bad");
    let m = Myops::standard(&ns.0);
    let dir = watched_dir(&m);
    let g = format!("{}.bad.example.com", ns.0);
    std::fs::write(dir.join("good.yaml"), crd(&g, "goods", "Good")).unwrap();
    let mut w = Watcher::start(&m, &dir, &[]);
    w.expect("registered", &format!("goods.{g}"), SLOW);

    // v1beta1: its own message, with the location.
    let old = crd(&g, "olds", "Old").replace(
        "apiextensions.k8s.io/v1\n",
        "apiextensions.k8s.io/v1beta1\n",
    );
    std::fs::write(dir.join("old.yaml"), old).unwrap();
    let e = w.expect("invalid", "old.yaml", SLOW);
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("old.yaml:1:1: apiextensions.k8s.io/v1beta1"),
        "{e}"
    );

    // A CRD and a CR in one file.
    let mixed = format!(
        "{}---\napiVersion: {g}/v1\nkind: Mixed\nmetadata: {{name: a}}\n",
        crd(&g, "mixeds", "Mixed")
    );
    std::fs::write(dir.join("mixed.yaml"), mixed).unwrap();
    let e = w.expect("invalid", "mixed.yaml", SLOW);
    assert_eq!(
        (e["line"].as_u64(), e["column"].as_u64()),
        (Some(19), Some(1)),
        "{e}"
    );

    // An invalid schema: the server rejects it (422), the watcher reports it.
    let bad_schema = crd(&g, "schemas", "Schema").replace(
        "type: object\n        properties",
        "type: nonsense\n        properties",
    );
    std::fs::write(dir.join("schema.yaml"), bad_schema).unwrap();
    let e = w.expect("apply-failed", &format!("schemas.{g}"), SLOW);
    assert!(e["message"].as_str().unwrap().contains("Invalid"), "{e}");

    // A CRD copied from a cluster with status: stripped, so it applies.
    let with_status = format!(
        "{}status:\n  acceptedNames: {{kind: Statused, plural: statuseds}}\n  storedVersions: [v1]\n",
        crd(&g, "statuseds", "Statused")
    );
    std::fs::write(dir.join("status.yaml"), with_status).unwrap();
    w.expect("registered", &format!("statuseds.{g}"), SLOW);

    // Two files defining the same CRD: the second is reported, the first stays.
    std::fs::write(dir.join("zz-copy.yaml"), crd(&g, "goods", "Good")).unwrap();
    let e = w.expect("duplicate", "zz-copy.yaml", SLOW);
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("already defined by"),
        "{e}"
    );

    // The good CRD is still usable; the v1beta1 file, once fixed, loads.
    assert_eq!(m.run(&["get", &format!("goods.{g}"), "-n", &ns.0]).code, 0);
    std::fs::write(dir.join("old.yaml"), crd(&g, "olds", "Old")).unwrap();
    w.expect("registered", &format!("olds.{g}"), SLOW);
    assert_eq!(w.stop(), 0);

    // Every outcome was counted and pushed: 3 registered; v1beta1, CRD+CR, the schema the
    // server rejected (422) and the duplicate are `invalid`.
    let text = crate::metrics::scrape(&crate::fixture::cluster().pushgateway);
    let job = format!("job=\"{}\"", ns.0);
    let count = |name: &str, result: &str| {
        crate::metrics::sample(&text, name, &[&job, &format!("result=\"{result}\"")])
    };
    assert_eq!(count("crd_loads_total", "success"), Some(3.0), "{text}");
    assert_eq!(count("crd_loads_total", "invalid"), Some(4.0), "{text}");
    assert_eq!(
        crate::metrics::sample(&text, "crd_load_duration_seconds_count", &[&job]),
        Some(7.0),
        "{text}"
    );
}

#[test]
fn prune_deletes_only_our_crds_and_without_it_nothing_is_deleted() {
    let ns = Namespace::new("watch-prune");
    let m = Myops::standard(&ns.0);
    let dir = watched_dir(&m);
    let g = format!("{}.prune.example.com", ns.0);

    // Without --prune: removing the file unregisters locally; the CRD stays on the cluster.
    std::fs::write(dir.join("keep.yaml"), crd(&g, "keeps", "Keep")).unwrap();
    let mut w = Watcher::start(&m, &dir, &[]);
    w.expect("registered", &format!("keeps.{g}"), SLOW);
    std::fs::remove_file(dir.join("keep.yaml")).unwrap();
    w.expect("unregistered", &format!("keeps.{g}"), SLOW);
    assert_eq!(w.stop(), 0);
    assert_eq!(
        kubectl(&["get", "crd", &format!("keeps.{g}"), "-o", "name"]).trim(),
        format!("customresourcedefinition.apiextensions.k8s.io/keeps.{g}")
    );

    // Theirs: created by kubectl with other short names, so our apply conflicts with kubectl's
    // field manager and we never manage it.
    kubectl_apply(
        &crd(&g, "theirs", "Their").replace("kind: Their}", "kind: Their, shortNames: [th]}"),
    );
    std::fs::write(
        dir.join("theirs.yaml"),
        crd(&g, "theirs", "Their").replace("kind: Their}", "kind: Their, shortNames: [thx]}"),
    )
    .unwrap();
    std::fs::write(dir.join("ours.yaml"), crd(&g, "ours", "Our")).unwrap();
    let mut w = Watcher::start(&m, &dir, &["--prune"]);
    w.expect("registered", &format!("ours.{g}"), SLOW);
    let e = w.expect("apply-failed", &format!("theirs.{g}"), SLOW);
    let msg = e["message"].as_str().unwrap();
    assert!(
        msg.contains("conflict") && msg.contains("kubectl-client-side-apply"),
        "{e}"
    );
    std::fs::remove_file(dir.join("ours.yaml")).unwrap();
    std::fs::remove_file(dir.join("theirs.yaml")).unwrap();
    w.expect("pruned", &format!("ours.{g}"), SLOW);
    w.expect("not-pruned", &format!("theirs.{g}"), SLOW);
    assert_eq!(w.stop(), 0);
    // A deleted CRD goes away once its custom resources are cleaned up (a finalizer).
    let end = Instant::now() + SLOW;
    let left = loop {
        let left = kubectl(&["get", "crd", "-o", "name"]);
        if !left.contains(&format!("/ours.{g}")) || Instant::now() > end {
            break left;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    assert!(!left.contains(&format!("/ours.{g}")), "{left}");
    assert!(
        left.contains(&format!("/theirs.{g}")) && left.contains(&format!("/keeps.{g}")),
        "{left}"
    );

    let log = std::fs::read_to_string(m.dir.path().join("myops/changelog.jsonl")).unwrap();
    let prunes: Vec<Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|e: &Value| e["operation"] == "crd-prune" && e["result"] != "pending")
        .collect();
    assert_eq!(prunes.len(), 1, "{log}");
    assert_eq!(prunes[0]["name"], format!("ours.{g}"));
    assert_eq!(prunes[0]["user"], "admin");
    assert_eq!(prunes[0]["result"], "success");
    assert_eq!(prunes[0]["before"]["metadata"]["name"], format!("ours.{g}"));
}

#[test]
fn the_watcher_under_alice_reports_each_denial_and_keeps_running() {
    let ns = Namespace::new("watch-alice");
    let m = Myops::standard(&ns.0);
    let dir = watched_dir(&m);
    let g = format!("{}.alice.example.com", ns.0);
    let mut w = Watcher::start(&m, &dir, &["--context", "alice"]);
    for p in ["ones", "twos"] {
        std::fs::write(dir.join(format!("{p}.yaml")), crd(&g, p, &p.to_uppercase())).unwrap();
        let e = w.expect("denied", &format!("{p}.{g}"), SLOW);
        assert!(e["message"].as_str().unwrap().contains("\"alice\""), "{e}");
    }
    assert_eq!(w.stop(), 0);
    let left = kubectl(&["get", "crd", "-o", "name"]);
    assert!(!left.contains(&g), "{left}");
}

#[test]
fn a_group_writable_directory_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let m = Myops::new(
        "name: myops\nverbs: [patch]\nresources: [customresourcedefinitions]\nscopes: [cluster]\n",
    );
    let dir = watched_dir(&m);
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o775)).unwrap();
    let r = m.run(&["crds", "watch", dir.to_str().unwrap()]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr.contains("group- or world-writable") && r.stderr.contains("chmod go-w"),
        "{r:?}"
    );
}

#[test]
fn the_whole_corpus_dropped_at_once_registers_every_crd_and_crds_list_shows_them() {
    let ns = Namespace::new("watch-burst");
    let m = Myops::standard(&ns.0);
    let dir = watched_dir(&m);
    let mut w = Watcher::start(&m, &dir, &[]);
    let corpus = root().join("../shared/corpus/crds");
    let mut names = Vec::new();
    for e in std::fs::read_dir(&corpus).unwrap() {
        let f = e.unwrap().path();
        if f.extension().is_some_and(|x| x == "yaml") {
            let text = std::fs::read_to_string(&f).unwrap();
            names.extend(
                myops::crds::parse_crds(&text, &f)
                    .unwrap()
                    .into_iter()
                    .map(|c| c.name),
            );
            std::fs::copy(&f, dir.join(f.file_name().unwrap())).unwrap();
        }
    }
    assert_eq!(names.len(), 14);
    for n in &names {
        w.expect("registered", n, SLOW);
    }
    let r = m.run(&["get", "certificates.cert-manager.io", "-n", &ns.0]);
    assert_eq!(r.code, 0, "{r:?}");
    let list = m.run(&["crds", "list", dir.to_str().unwrap()]);
    assert_eq!(list.code, 0, "{list:?}");
    let header: Vec<&str> = list
        .stdout
        .lines()
        .next()
        .unwrap()
        .split_whitespace()
        .collect();
    assert_eq!(
        header,
        ["FILE", "NAME", "VERSIONS", "ESTABLISHED", "MANAGED"]
    );
    let row = list
        .stdout
        .lines()
        .find(|l| l.contains("foos.samplecontroller.k8s.io"))
        .expect("foos listed");
    assert_eq!(
        row.split_whitespace().collect::<Vec<_>>(),
        [
            "sample-controller_crd.yaml",
            "foos.samplecontroller.k8s.io",
            "v1alpha1",
            "True",
            "yes"
        ]
    );
    assert!(
        list.stdout.lines().filter(|l| l.ends_with(" yes")).count() >= 14,
        "{}",
        list.stdout
    );
    // SIGTERM, like SIGINT, ends the watcher with exit 0.
    assert_eq!(w.signal_and_wait("TERM"), 0);
}

#[test]
fn regression_prune_never_deletes_a_crd_that_is_still_defined_after_a_rename_or_a_duplicate_removal()
 {
    let ns = Namespace::new("watch-prune-keep");
    let m = Myops::standard(&ns.0);
    let dir = watched_dir(&m);
    let g = format!("{}.keep.example.com", ns.0);
    for p in ["as", "bs", "cs"] {
        std::fs::write(dir.join(format!("{p}.yaml")), crd(&g, p, &format!("K{p}"))).unwrap();
    }
    std::fs::write(dir.join("d1.yaml"), crd(&g, "ds", "Kds")).unwrap();
    std::fs::write(dir.join("d2.yaml"), crd(&g, "ds", "Kds")).unwrap();
    let mut w = Watcher::start(&m, &dir, &["--prune"]);
    for p in ["as", "bs", "cs", "ds"] {
        w.expect("registered", &format!("{p}.{g}"), SLOW);
    }
    kubectl_apply(&format!(
        "apiVersion: {g}/v1\nkind: Kas\nmetadata: {{name: keep-me, namespace: {}}}\nspec: {{}}\n",
        ns.0
    ));
    // A rename within the directory, and the removal of the first of two duplicate files.
    std::fs::rename(dir.join("as.yaml"), dir.join("as-renamed.yaml")).unwrap();
    std::fs::remove_file(dir.join("d1.yaml")).unwrap();
    w.expect("registered", &format!("as.{g}"), SLOW);
    w.expect("registered", &format!("ds.{g}"), SLOW);
    // Past the prune grace period: nothing was pruned, the custom resource is still there.
    std::thread::sleep(Duration::from_secs(3));
    assert_eq!(w.stop(), 0);
    assert!(w_lines_lack_prunes(&m), "a CRD was pruned");
    let r = m.run(&[
        "get",
        &format!("kas.{g}"),
        "keep-me",
        "-n",
        &ns.0,
        "-o",
        "name",
    ]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, format!("kas.{g}/keep-me\n").as_str()),
        "{r:?}"
    );
    for p in ["bs", "cs", "ds"] {
        assert_eq!(
            m.run(&["get", &format!("{p}.{g}"), "-n", &ns.0]).code,
            0,
            "{p}"
        );
    }
}

/// No crd-prune entry in the change log.
fn w_lines_lack_prunes(m: &Myops) -> bool {
    let log =
        std::fs::read_to_string(m.dir.path().join("myops/changelog.jsonl")).unwrap_or_default();
    !log.lines()
        .any(|l| l.contains("\"operation\":\"crd-prune\""))
}
