//! Packaging for real: `scripts/package` builds the archive and renders the krew manifest;
//! krew's own validator (`validate-krew-manifest`, built from the pinned krew module) accepts it,
//! installing it over HTTP as krew does; the real krew installs it into a temporary KREW_ROOT;
//! and the real kubectl dispatches to the installed plugin, which finds the plugin.yaml shipped
//! in the archive next to its real executable through krew's symlink.
//!
//! The tests package their own debug build (`scripts/package --bin-dir`), so no second cargo
//! build runs inside `cargo test`.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::completion::{candidates, kubectl_with, run_with};
use crate::fixture::{Namespace, Run, cluster, root, text_of};

const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The plugin.yaml shipped in the test archives: a name of its own, so its use is visible.
const ARCHIVE_PLUGIN_YAML: &str = "name: myops-from-archive\nverbs: [get]\nresources: [pods]\nscopes: [namespace]\nmetrics: [ops_total]\n";

fn archive_name() -> String {
    format!("kubectl-myops-v{VERSION}-linux-amd64.tar.gz")
}

/// Runs `scripts/package` on the test's debug binaries into `out`, archives served from `url`.
fn package(out: &Path, url: &str) -> Run {
    let exe = Path::new(env!("CARGO_BIN_EXE_kubectl-myops"));
    let bin_dir = exe.parent().unwrap();
    assert_eq!(
        Path::new(env!("CARGO_BIN_EXE_kubectl_complete-myops")).parent(),
        Some(bin_dir)
    );
    let plugin_yaml = out.with_extension("plugin.yaml");
    std::fs::write(&plugin_yaml, ARCHIVE_PLUGIN_YAML).unwrap();
    let o = Command::new(root().join("scripts/package"))
        .args([
            "--bin-dir",
            bin_dir.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .args(["--plugin-yaml", plugin_yaml.to_str().unwrap()])
        .env("MYOPS_RELEASE_URL", url)
        .output()
        .expect("scripts/package runs");
    let r = Run {
        code: o.status.code().unwrap_or(-1),
        stdout: text_of(&o.stdout),
        stderr: text_of(&o.stderr),
    };
    assert_eq!(r.code, 0, "scripts/package failed: {r:?}");
    r
}

/// A minimal HTTP server for the files of `dir` (what a release page would serve).
fn serve(dir: PathBuf) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for conn in listener.incoming().flatten() {
            let dir = dir.clone();
            std::thread::spawn(move || {
                let mut reader = BufReader::new(&conn);
                let mut request = String::new();
                let _ = reader.read_line(&mut request);
                let mut header = String::new();
                while reader.read_line(&mut header).is_ok_and(|n| n > 2) {
                    header.clear();
                }
                let name = request
                    .split(' ')
                    .nth(1)
                    .unwrap_or("/")
                    .trim_start_matches('/');
                let body = (!name.contains("..") && !name.is_empty())
                    .then(|| std::fs::read(dir.join(name)).ok())
                    .flatten();
                let mut w = &conn;
                let _ = match body {
                    Some(b) => w
                        .write_all(format!("HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", b.len()).as_bytes())
                        .and_then(|_| w.write_all(&b)),
                    None => w.write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"),
                };
            });
        }
    });
    url
}

/// Builds krew's manifest validator from the pinned krew module (tests/cluster/k8s), as
/// scripts/setup builds krew itself; the Go build cache makes this quick after setup.
fn validator(dir: &Path) -> PathBuf {
    let out = dir.join("validate-krew-manifest");
    let o = Command::new("go")
        .args([
            "build",
            "-trimpath",
            "-o",
            out.to_str().unwrap(),
            "sigs.k8s.io/krew/cmd/validate-krew-manifest",
        ])
        .current_dir(root().join("tests/cluster/k8s"))
        .env("GOTOOLCHAIN", "local")
        .env("CGO_ENABLED", "0")
        .env("GOFLAGS", "-mod=readonly")
        .output()
        .expect("go runs (scripts/setup needs it too)");
    assert!(
        o.status.success(),
        "building validate-krew-manifest: {}",
        text_of(&o.stderr)
    );
    out
}

#[test]
fn package_makes_an_archive_and_a_manifest_that_krews_validator_accepts() {
    let t = tempfile::tempdir().unwrap();
    let dist = t.path().join("dist");
    std::fs::create_dir_all(&dist).unwrap();
    let url = serve(dist.clone());
    package(&dist, &url);

    let archive = dist.join(archive_name());
    let listing = Command::new("tar")
        .args(["tzf", archive.to_str().unwrap()])
        .output()
        .unwrap();
    let mut files: Vec<String> = text_of(&listing.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    files.sort();
    assert_eq!(
        files,
        [
            "LICENSE",
            "completions/",
            "completions/_kubectl-myops",
            "completions/_kubectl-myops.ps1",
            "completions/kubectl-myops.bash",
            "completions/kubectl-myops.fish",
            "kubectl-myops",
            "kubectl_complete-myops",
            "plugin.yaml",
        ]
    );
    let sum = text_of(
        &Command::new("sha256sum")
            .arg(&archive)
            .output()
            .unwrap()
            .stdout,
    );
    let sum = sum.split(' ').next().unwrap();
    assert!(
        sum.len() == 64
            && sum
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)),
        "{sum}"
    );
    let manifest = std::fs::read_to_string(dist.join("myops.yaml")).unwrap();
    for want in [
        "apiVersion: krew.googlecontainertools.github.com/v1alpha2\nkind: Plugin\nmetadata:\n  name: myops\n".to_string(),
        format!("  version: v{VERSION}\n"),
        format!("    uri: {url}/{}\n    sha256: {sum}\n    bin: kubectl-myops\n", archive_name()),
        "kubectl_complete-myops".to_string(),
    ] {
        assert!(manifest.contains(&want), "manifest lacks {want:?}:\n{manifest}");
    }
    assert_eq!(
        std::fs::read_to_string(dist.join(format!("{}.sha256", archive_name()))).unwrap(),
        format!("{sum}  {}\n", archive_name())
    );

    // krew's own validator: structure, platforms, and an install (from the uri) that must
    // extract a LICENSE file. It runs `kubectl krew install`, so kubectl-krew goes on PATH.
    let tools = t.path().join("tools");
    std::fs::create_dir_all(&tools).unwrap();
    std::os::unix::fs::symlink(
        root().join("target/testbin/krew"),
        tools.join("kubectl-krew"),
    )
    .unwrap();
    let v = validator(t.path());
    let r = run_with(
        &v,
        &[&tools],
        &[("HOME".into(), t.path().display().to_string())],
        &["-manifest", dist.join("myops.yaml").to_str().unwrap()],
    );
    assert_eq!(r.code, 0, "validate-krew-manifest: {r:?}");
    for want in [
        "structural validation OK",
        "no overlapping spec.platform[].selector",
        "all 1 spec.platforms installed fine",
    ] {
        assert!(r.stderr.contains(want), "{want} missing: {}", r.stderr);
    }
}

#[test]
fn krew_installs_the_archive_and_kubectl_runs_the_plugin_with_its_plugin_yaml() {
    let _ = cluster();
    let ns = Namespace::new("krew");
    ns.pod("web-1");
    let t = tempfile::tempdir().unwrap();
    let dist = t.path().join("dist");
    std::fs::create_dir_all(&dist).unwrap();
    package(&dist, &format!("file://{}", dist.display()));
    let manifest = dist.join("myops.yaml");
    let krew_root = t.path().join("krew");
    let krew_bin = krew_root.join("bin");
    let env: Vec<(String, String)> = vec![
        ("HOME".into(), t.path().join("home").display().to_string()),
        (
            "MYOPS_HOME".into(),
            t.path().join("myops").display().to_string(),
        ),
        (
            "KUBECONFIG".into(),
            cluster().kubeconfig.display().to_string(),
        ),
        ("KREW_ROOT".into(), krew_root.display().to_string()),
        ("KREW_NO_UPGRADE_CHECK".into(), "1".into()),
    ];
    std::fs::create_dir_all(&krew_bin).unwrap();

    let r = run_with(
        &root().join("target/testbin/krew"),
        &[&krew_bin],
        &env,
        &[
            "install",
            &format!("--manifest={}", manifest.display()),
            &format!("--archive={}", dist.join(archive_name()).display()),
        ],
    );
    assert_eq!(r.code, 0, "krew install: {r:?}");
    assert!(r.stderr.contains("Installed plugin: myops"), "{r:?}");
    assert!(
        r.stderr.contains("Caveats:") && r.stderr.contains("ln -sf"),
        "{r:?}"
    );
    // krew warns only that stdin (not a terminal here) is ignored with --manifest.
    let warnings: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| l.contains("WARNING") && !l.contains("Detected stdin"))
        .collect();
    assert!(warnings.is_empty(), "{warnings:?}");
    let store = krew_root.join(format!("store/myops/v{VERSION}"));
    assert_eq!(
        std::fs::read_link(krew_bin.join("kubectl-myops")).unwrap(),
        store.join("kubectl-myops")
    );
    for f in [
        "LICENSE",
        "plugin.yaml",
        "kubectl_complete-myops",
        "completions/kubectl-myops.bash",
    ] {
        assert!(store.join(f).exists(), "{f} not installed");
    }

    // Through the real kubectl's plugin dispatch, from krew's bin directory only.
    let kubectl = |args: &[&str]| kubectl_with(&[&krew_bin], &env, args);
    let r = kubectl(&["myops", "version"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout.starts_with(&format!("kubectl-myops {VERSION}\n")),
        "{r:?}"
    );
    let r = kubectl(&["plugin", "list"]);
    assert_eq!(
        (r.code, r.stderr.as_str()),
        (0, ""),
        "plugin list warned: {r:?}"
    );
    assert!(
        r.stdout
            .contains(&format!("{}\n", krew_bin.join("kubectl-myops").display())),
        "{r:?}"
    );

    // plugin.yaml from the archive, next to the real executable behind krew's symlink.
    let r = kubectl(&["myops", "config", "validate"]);
    assert_eq!(r.code, 0, "{r:?}");
    let shipped = std::fs::canonicalize(store.join("plugin.yaml")).unwrap();
    assert!(
        r.stdout.starts_with(&format!(
            "{}: valid\n  name: myops-from-archive\n",
            shipped.display()
        )),
        "{r:?}"
    );

    let r = kubectl(&["myops", "get", "pods", "-n", &ns.0]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout.starts_with("NAME ") && r.stdout.contains("\nweb-1 "),
        "{r:?}"
    );
    // Flags after the plugin name, before the verb.
    let r = kubectl(&["myops", "-n", &ns.0, "get", "pods", "-o", "name"]);
    assert_eq!((r.code, r.stdout.as_str()), (0, "pod/web-1\n"), "{r:?}");
    // The archive's boundary is the one in force: deployments are outside it.
    let r = kubectl(&["myops", "get", "deployments", "-n", &ns.0]);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(
        r.stderr.contains(
            "resource \"deployments.apps\" is not in `resources` of plugin myops-from-archive"
        ),
        "{r:?}"
    );

    // The caveat's step puts the completion helper next to the plugin; kubectl then uses it.
    let step = std::fs::read_to_string(&manifest)
        .unwrap()
        .lines()
        .find(|l| l.trim_start().starts_with("ln -sf"))
        .expect("the caveats say how to link kubectl_complete-myops")
        .trim()
        .to_string();
    let r = run_with(Path::new("/bin/sh"), &[], &env, &["-c", &step]);
    assert_eq!(r.code, 0, "{step}: {r:?}");
    let r = kubectl(&["__complete", "myops", "-n", &ns.0, "get", "pods", ""]);
    assert_eq!(candidates(&r), (vec!["web-1".to_string()], 4), "{r:?}");
}
