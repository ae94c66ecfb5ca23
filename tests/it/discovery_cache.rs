//! The persistent discovery cache (issue 12, item 2) against the real apiserver: revalidated
//! with `If-None-Match` on every run (the audit log shows the 304s), never stale (a CRD
//! registered after the cache was written resolves in the next process), and corrupt,
//! planted or foreign cache files ignored and rewritten private.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::fixture::{Myops, Namespace, audit_mark, audit_since, kubectl, kubectl_apply};

fn myops() -> Myops {
    Myops::new(
        "name: myops\nverbs: [get]\nresources: [pods, configmaps]\nscopes: [namespace, cluster]\nmetrics: [ops_total]\n",
    )
}

/// The one server directory under `cache/discovery/`.
fn cache_dir(m: &Myops) -> PathBuf {
    let base = m.dir.path().join("myops/cache/discovery");
    let dirs: Vec<PathBuf> = std::fs::read_dir(&base)
        .unwrap_or_else(|e| panic!("{}: {e}", base.display()))
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(dirs.len(), 1, "{dirs:?}");
    dirs[0].clone()
}

fn mode(p: &Path) -> u32 {
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

/// `(requestURI, status code)` of the discovery requests kubectl-myops made since `mark`.
fn discovery_requests(mark: u64) -> Vec<(String, i64)> {
    audit_since(mark)
        .iter()
        .filter(|e| {
            e.pointer("/userAgent")
                .and_then(Value::as_str)
                .is_some_and(|a| a.starts_with("kubectl-myops/"))
        })
        .filter_map(|e| {
            let uri = e.pointer("/requestURI").and_then(Value::as_str)?;
            let code = e.pointer("/responseStatus/code").and_then(Value::as_i64)?;
            (uri == "/api" || uri == "/apis").then(|| (uri.to_string(), code))
        })
        .collect()
}

#[test]
fn a_second_run_revalidates_discovery_with_etags_and_gets_304s() {
    let ns = Namespace::new("disco-etag");
    let m = myops();
    let r = m.run(&["get", "configmaps", "-n", &ns.0]);
    assert_eq!(r.code, 0, "{r:?}");
    let dir = cache_dir(&m);
    assert_eq!(mode(&dir), 0o700);
    for f in ["api.json", "apis.json"] {
        assert_eq!(mode(&dir.join(f)), 0o600, "{f}");
    }
    let mark = audit_mark();
    let r = m.run(&["get", "configmaps", "-n", &ns.0]);
    assert_eq!(r.code, 0, "{r:?}");
    // The core group never changes under the tests; /apis may (other tests add CRDs).
    let seen = discovery_requests(mark);
    assert!(
        seen.contains(&("/api".to_string(), 304)),
        "no 304 for /api: {seen:?}"
    );
}

#[test]
fn a_crd_registered_after_the_cache_was_written_resolves_in_the_next_process() {
    let ns = Namespace::new("disco-fresh");
    let group = format!("{}.disco.example.com", ns.0);
    let m = Myops::new(&format!(
        "name: myops\nverbs: [get]\nresources: [configmaps, sprockets.{group}]\nscopes: [namespace]\nmetrics: [ops_total]\n"
    ));
    let r = m.run(&["get", "configmaps", "-n", &ns.0]);
    assert_eq!(r.code, 0, "{r:?}");
    let r = m.run(&["get", &format!("sprockets.{group}"), "-n", &ns.0]);
    assert_eq!(r.code, 2, "not served yet: {r:?}");
    kubectl_apply(&format!(
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: sprockets.{group}\nspec:\n  group: {group}\n  scope: Namespaced\n  names: {{plural: sprockets, singular: sprocket, kind: Sprocket}}\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema: {{type: object, x-kubernetes-preserve-unknown-fields: true}}\n"
    ));
    crate::fixture::wait_established(&[format!("sprockets.{group}").as_str()]);
    // Established can precede the discovery document by a moment; kubectl's own cache
    // would hide the new type for ten minutes, this one never: bounded by a few tries.
    let mut r = m.run(&["get", &format!("sprockets.{group}"), "-n", &ns.0]);
    for _ in 0..20 {
        if r.code == 0 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
        r = m.run(&["get", &format!("sprockets.{group}"), "-n", &ns.0]);
    }
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        r.stderr,
        format!("No resources found in {} namespace.\n", ns.0)
    );
    kubectl(&[
        "delete",
        "crd",
        &format!("sprockets.{group}"),
        "--wait=false",
    ]);
}

#[test]
fn corrupt_planted_and_foreign_cache_files_are_ignored_and_rewritten_private() {
    let ns = Namespace::new("disco-hostile");
    let m = myops();
    assert_eq!(m.run(&["get", "configmaps", "-n", &ns.0]).code, 0);
    let dir = cache_dir(&m);
    let api = dir.join("api.json");
    let apis = dir.join("apis.json");
    let good = std::fs::read(&api).unwrap();
    let elsewhere = m.dir.path().join("elsewhere.json");
    let server = serde_json::from_slice::<Value>(&good).unwrap()["server"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(server.starts_with("https://127.0.0.1:"), "{server}");
    let foreign = String::from_utf8(good.clone())
        .unwrap()
        .replace(&server, "https://other.example:6443");
    type Plant<'a> = Box<dyn Fn() + 'a>;
    let cases: Vec<(&str, Plant<'_>)> = vec![
        (
            "garbage",
            Box::new(|| std::fs::write(&api, b"\xff{not json").unwrap()),
        ),
        (
            "torn",
            Box::new(|| std::fs::write(&api, &good[..good.len() / 2]).unwrap()),
        ),
        (
            "another server's entry",
            Box::new(|| std::fs::write(&api, foreign.as_bytes()).unwrap()),
        ),
        (
            "readable by others",
            Box::new(|| {
                std::fs::write(&api, &good).unwrap();
                std::fs::set_permissions(&api, std::fs::Permissions::from_mode(0o644)).unwrap();
            }),
        ),
        (
            "a symbolic link to a file elsewhere",
            Box::new(|| {
                std::fs::write(&elsewhere, &good).unwrap();
                std::fs::remove_file(&api).unwrap();
                std::os::unix::fs::symlink(&elsewhere, &api).unwrap();
            }),
        ),
        (
            "a directory",
            Box::new(|| {
                std::fs::remove_file(&apis).unwrap();
                std::fs::create_dir(&apis).unwrap();
            }),
        ),
    ];
    for (what, plant) in cases {
        plant();
        let mark = audit_mark();
        let r = m.run(&["get", "configmaps", "-n", &ns.0]);
        assert_eq!(r.code, 0, "{what}: {r:?}");
        // The one ConfigMap of a new namespace: the controller manager's kube-root-ca.crt.
        assert!(
            r.stdout
                .starts_with("NAME               DATA   AGE\nkube-root-ca.crt   1      ")
                && r.stdout.lines().count() == 2,
            "{what}: {r:?}"
        );
        if what == "a directory" {
            // Not replaceable by a rename: ignored every run, the command unharmed.
            assert!(apis.is_dir(), "{what}");
            continue;
        }
        let seen = discovery_requests(mark);
        assert!(
            seen.contains(&("/api".to_string(), 200)),
            "{what}: the bad entry was not ignored: {seen:?}"
        );
        let meta = std::fs::symlink_metadata(&api).unwrap();
        assert!(
            meta.file_type().is_file(),
            "{what}: not rewritten as a file"
        );
        assert_eq!(mode(&api), 0o600, "{what}");
        let entry: Value = serde_json::from_slice(&std::fs::read(&api).unwrap()).unwrap();
        assert_eq!(entry["server"], server.as_str(), "{what}");
    }
    assert_eq!(
        std::fs::read(&elsewhere).unwrap(),
        good,
        "the link's target was never written"
    );
}
