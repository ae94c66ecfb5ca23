//! `version`: plugin version, git commit, and what it was built against.

use crate::output::Printer;
use crate::verbs::VerbError;

/// The plugin version (Cargo.toml).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
/// The git commit it was built from (build.rs; `unknown` outside a git checkout).
pub const GIT_COMMIT: &str = env!("MYOPS_GIT_COMMIT");
/// The kube-rs version it links (read from Cargo.lock by build.rs).
pub const KUBE_RS: &str = env!("MYOPS_KUBE_VERSION");
/// The k8s-openapi version it links (read from Cargo.lock by build.rs).
pub const K8S_OPENAPI: &str = env!("MYOPS_K8S_OPENAPI_VERSION");
/// The Kubernetes API version its k8s-openapi types target (the `v1_36` feature in Cargo.toml).
pub const KUBERNETES_API: &str = "1.36";

/// Prints the version lines.
///
/// # Errors
/// [`VerbError::Output`] when stdout fails.
pub fn run(p: &mut Printer<'_>) -> Result<(), VerbError> {
    p.out(&format!(
        "kubectl-myops {VERSION}\ngit commit: {GIT_COMMIT}\nkube-rs: {KUBE_RS}\nKubernetes API: {KUBERNETES_API} (k8s-openapi {K8S_OPENAPI})\n"
    ))?;
    Ok(())
}
