//! The connection options [`super::connect`] reads: kubectl's connection flags, the
//! KUBECONFIG list and the process environment they depend on, resolved by
//! [`crate::settings`].

use std::path::PathBuf;
use std::time::Duration;

/// How to reach the cluster: kubectl's connection flags plus the KUBECONFIG list.
#[derive(Debug, Clone, Default)]
pub struct KubeOptions {
    /// `--kubeconfig`: one file, must exist.
    pub kubeconfig: Option<PathBuf>,
    /// `$KUBECONFIG` split on `:`; missing files are skipped, as kubectl does.
    pub kubeconfig_env: Vec<PathBuf>,
    /// `$HOME/.kube/config`, used when neither of the above is set.
    pub default_kubeconfig: Option<PathBuf>,
    /// `--context`.
    pub context: Option<String>,
    /// `--cluster`.
    pub cluster: Option<String>,
    /// `--user`.
    pub user: Option<String>,
    /// `-n/--namespace`.
    pub namespace: Option<String>,
    /// `--as`.
    pub as_user: Option<String>,
    /// `--as-group`, repeatable.
    pub as_groups: Vec<String>,
    /// `--as-uid`.
    pub as_uid: Option<String>,
    /// `--request-timeout`; `None` = the client's default.
    pub request_timeout: Option<Duration>,
    /// `-s/--server`.
    pub server: Option<String>,
    /// `--token`.
    pub token: Option<String>,
    /// `--insecure-skip-tls-verify`.
    pub insecure_skip_tls_verify: bool,
    /// `--certificate-authority`.
    pub certificate_authority: Option<PathBuf>,
    /// `--client-certificate`: replaces the kubeconfig user's client certificate.
    pub client_certificate: Option<PathBuf>,
    /// `--client-key`: replaces the kubeconfig user's client key.
    pub client_key: Option<PathBuf>,
    /// `--tls-server-name`: the name the server certificate is checked against.
    pub tls_server_name: Option<String>,
    /// `--as-user-extra KEY=VALUE`, grouped by key in the order given (`Impersonate-Extra-KEY`).
    pub as_user_extra: std::collections::BTreeMap<String, Vec<String>>,
    /// `--username` (basic authentication).
    pub username: Option<String>,
    /// `--password` (basic authentication).
    pub password: Option<String>,
    /// Which kuberc holds the credential plugin policy (`--kuberc`, `$KUBERC`, `~/.kube/kuberc`).
    pub kuberc: super::kuberc::KubercSource,
    /// `$PATH`, to resolve an exec credential plugin against the kuberc allowlist.
    pub path_env: String,
    /// The pod environment for the in-cluster configuration (used when no kubeconfig exists).
    pub in_cluster: super::in_cluster::InClusterEnv,
    /// A kubeconfig already read and merged, used instead of reading the files again: a
    /// fan-out over contexts ([`crate::fleet`]) reads the files once and hands each context
    /// only its own context, cluster and user ([`super::client::for_context`]), so N
    /// contexts cost one parse, not N (parsing a 1,000-context kubeconfig once per context
    /// takes minutes).
    pub preloaded: Option<std::sync::Arc<kube::config::Kubeconfig>>,
    /// `--reason`: sent with every request as the `Myops-Reason` header (percent-encoded),
    /// so the server side (an audit webhook, a proxy's log) can see why a change was made.
    pub reason: Option<String>,
    /// The command path (`patch`, `crds watch`; never arguments), sent with every request as
    /// `Kubectl-Command: kubectl myops <path>` and in the User-Agent (`(myops <path>)`), so the
    /// audit log, which records the User-Agent but no other header, names the command.
    pub command: Option<String>,
}
