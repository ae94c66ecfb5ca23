//! Records build facts for `kubectl-myops version`: the git commit, and the kube and
//! k8s-openapi versions resolved in Cargo.lock.
use std::process::Command;

fn lock_version(lock: &str, name: &str) -> String {
    let needle = format!("name = \"{name}\"\nversion = \"");
    lock.find(&needle)
        .and_then(|i| lock[i + needle.len()..].split('"').next())
        .unwrap_or("unknown")
        .to_string()
}

fn main() {
    let commit = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|| "unknown".to_string());
    let lock = std::fs::read_to_string("Cargo.lock").unwrap_or_default();
    println!("cargo:rustc-env=MYOPS_GIT_COMMIT={commit}");
    println!(
        "cargo:rustc-env=MYOPS_KUBE_VERSION={}",
        lock_version(&lock, "kube")
    );
    println!(
        "cargo:rustc-env=MYOPS_K8S_OPENAPI_VERSION={}",
        lock_version(&lock, "k8s-openapi")
    );
    println!("cargo:rerun-if-changed=.git/HEAD");
    println!("cargo:rerun-if-changed=.git/refs/heads");
    println!("cargo:rerun-if-changed=Cargo.lock");
}
