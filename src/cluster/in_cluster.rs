//! In-cluster configuration: a process in a pod reaches its API server with the pod's
//! service account, as client-go and kubectl do when no kubeconfig is found.
//!
//! The rules, from client-go (`rest/config.go` `InClusterConfig`,
//! `tools/clientcmd/client_config.go` `inClusterClientConfig`,
//! `tools/clientcmd/merged_client_builder.go` `DeferredLoadingClientConfig`):
//! - it is *possible* when `KUBERNETES_SERVICE_HOST` and `KUBERNETES_SERVICE_PORT` are both
//!   non-empty and the token path exists and is not a directory (`Possible`);
//! - it is *used* when no kubeconfig file exists and no flag names a server, context, cluster
//!   or user (client-go falls back to it only when the merged kubeconfig is empty);
//! - the server is `https://` + Go's `net.JoinHostPort(host, port)` (an IPv6 host is
//!   bracketed; the port is always written, 443 too);
//! - the bearer token is the token file, re-read while the process runs: the kubelet rotates
//!   a bound service-account token (it refreshes it at 80 % of its lifetime), and client-go's
//!   `transport.NewCachedFileTokenSource` re-reads the file every minute, whitespace-trimmed,
//!   keeping the last token when a re-read fails;
//! - the CA is `ca.crt` when it holds a certificate, else the system roots (client-go logs
//!   the problem and carries on);
//! - the namespace is `$POD_NAMESPACE`, else the trimmed `namespace` file, else `default`
//!   (`inClusterClientConfig.Namespace`); `-n` overrides it. With a kubeconfig whose context
//!   names no namespace, the in-cluster namespace applies too when in-cluster is possible
//!   (`DeferredLoadingClientConfig.Namespace`).
//!
//! The token is re-read by kube-rs's token-file source (`kube-client` `client/auth`
//! `TokenFile`: every 60 s, keeping the last token when the read fails), which does not trim;
//! the kubelet writes the token without surrounding whitespace, and a file that has some (one
//! written by hand with `echo`) is read once, trimmed, and not re-read.
//!
//! The service-account directory is fixed in a pod (`/var/run/secrets/kubernetes.io/
//! serviceaccount`, root-owned); tests point [`SERVICE_ACCOUNT_DIR_ENV`] at a directory of
//! their own. Debug builds alone read that variable, as they do `MYOPS_TEST_WATCH_RESOURCE_VERSION`.

use std::path::{Path, PathBuf};

use kube::Config;

/// Where the kubelet mounts a pod's service-account token, CA and namespace (client-go
/// `rest/config.go`; the kubelet's projected `kube-api-access-*` volume).
pub const SERVICE_ACCOUNT_DIR: &str = "/var/run/secrets/kubernetes.io/serviceaccount";

/// Test-only, read by debug builds alone: a directory used instead of [`SERVICE_ACCOUNT_DIR`]
/// (holding `token`, `ca.crt` and `namespace`), so that tests can run the in-cluster path
/// outside a pod.
pub const SERVICE_ACCOUNT_DIR_ENV: &str = "MYOPS_TEST_SERVICE_ACCOUNT_DIR";

/// Largest token file read, in bytes: a bound service-account token is about 1 KiB.
const MAX_TOKEN_BYTES: u64 = 64 * 1024;

/// Largest CA file read, in bytes (as for kubeconfig CA files).
const MAX_CA_BYTES: u64 = 1024 * 1024;

/// The environment the in-cluster configuration reads, captured once (see
/// [`crate::settings::Env`]). The default is "not in a cluster".
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InClusterEnv {
    /// `$KUBERNETES_SERVICE_HOST` (the kubelet sets it from the `kubernetes` Service).
    pub service_host: Option<String>,
    /// `$KUBERNETES_SERVICE_PORT`.
    pub service_port: Option<String>,
    /// `$POD_NAMESPACE` (set by the pod spec through the downward API, if at all).
    pub pod_namespace: Option<String>,
    /// The service-account directory: [`SERVICE_ACCOUNT_DIR`], or the test override.
    /// `None` (the default) means in-cluster configuration is never possible.
    pub account_dir: Option<PathBuf>,
}

/// Why the in-cluster configuration cannot be built although it is possible.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum InClusterError {
    /// The token file cannot be read (or is empty, too large, not text).
    #[error(
        "in-cluster configuration: cannot use the service-account token {path}: {problem}; check the pod's service-account token mount (automountServiceAccountToken), or pass --kubeconfig"
    )]
    Token {
        /// The token file.
        path: String,
        /// What is wrong (never the content).
        problem: String,
    },
    /// `KUBERNETES_SERVICE_HOST`/`KUBERNETES_SERVICE_PORT` do not make a URL.
    #[error(
        "in-cluster configuration: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT give {0}, which is not a URL; unset them or pass --kubeconfig"
    )]
    Server(String),
}

/// The in-cluster configuration, ready for the rest of [`super::client::connect`].
#[derive(Debug)]
pub struct InCluster {
    /// The kube configuration: server, CA, namespace and the token (file).
    pub config: Config,
    /// Whether `config.auth_info.token_file` is set and must be left for kube-rs to re-read
    /// (true unless the file has surrounding whitespace: see the module documentation).
    pub rotating: bool,
    /// The token's `sub` claim (`system:serviceaccount:NS:NAME`), for messages only: it is
    /// read without checking the signature, and the server's answer is what counts.
    pub subject: Option<String>,
}

/// The service-account directory: [`SERVICE_ACCOUNT_DIR`], or in a debug build (the build the
/// tests run) the directory [`SERVICE_ACCOUNT_DIR_ENV`] names. A release build never reads that
/// variable, so nothing in a user's environment can point the plugin at another token.
fn account_dir() -> PathBuf {
    #[cfg(debug_assertions)]
    if let Some(d) = std::env::var_os(SERVICE_ACCOUNT_DIR_ENV).filter(|v| !v.is_empty()) {
        return PathBuf::from(d);
    }
    PathBuf::from(SERVICE_ACCOUNT_DIR)
}

impl InClusterEnv {
    /// Reads the process environment.
    pub fn from_process() -> InClusterEnv {
        let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        InClusterEnv {
            service_host: var("KUBERNETES_SERVICE_HOST"),
            service_port: var("KUBERNETES_SERVICE_PORT"),
            pod_namespace: var("POD_NAMESPACE"),
            account_dir: Some(account_dir()),
        }
    }

    /// The token file.
    pub fn token_path(&self) -> Option<PathBuf> {
        self.account_dir.as_ref().map(|d| d.join("token"))
    }

    /// Whether in-cluster configuration is possible (client-go `inClusterClientConfig.Possible`):
    /// both service variables non-empty and the token path exists and is not a directory.
    pub fn possible(&self) -> bool {
        let set = |v: &Option<String>| v.as_deref().is_some_and(|s| !s.is_empty());
        set(&self.service_host)
            && set(&self.service_port)
            && self
                .token_path()
                .and_then(|p| std::fs::metadata(p).ok())
                .is_some_and(|m| !m.is_dir())
    }

    /// The namespace: `$POD_NAMESPACE`, else the trimmed `namespace` file when not empty,
    /// else `default` (client-go `inClusterClientConfig.Namespace`).
    pub fn namespace(&self) -> String {
        if let Some(ns) = self.pod_namespace.as_deref().filter(|n| !n.is_empty()) {
            return ns.to_string();
        }
        self.account_dir
            .as_ref()
            .and_then(|d| read_small(&d.join("namespace"), 4096).ok())
            .map(|b| String::from_utf8_lossy(&b).trim().to_string())
            .filter(|ns| !ns.is_empty())
            .unwrap_or_else(|| "default".to_string())
    }
}

/// `https://` + Go's `net.JoinHostPort(host, port)`: a host holding a `:` (IPv6) is
/// bracketed, and the port is always written (client-go `InClusterConfig`).
pub fn server_url(host: &str, port: &str) -> String {
    if host.contains(':') && !host.starts_with('[') {
        format!("https://[{host}]:{port}")
    } else {
        format!("https://{host}:{port}")
    }
}

/// The `sub` claim of a JWT, read without verification (for messages only), or `None`
/// when the token is not a JWT with one.
pub fn token_subject(token: &str) -> Option<String> {
    use base64::Engine;
    let payload = token.split('.').nth(1)?;
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(payload.trim_end_matches('='))
        .ok()?;
    let claims: serde_json::Value = serde_json::from_slice(&bytes).ok()?;
    claims.get("sub")?.as_str().map(str::to_string)
}

/// Builds the in-cluster configuration from `env` (which must be [`InClusterEnv::possible`]).
/// The token read here is registered with [`crate::base::redact::remember`].
///
/// # Errors
/// [`InClusterError::Token`] when the token file is unreadable, not a regular file, larger
/// than 64 KiB, not UTF-8 or empty; [`InClusterError::Server`] when host and port do not
/// make a URL. A CA file that is missing or holds no certificate is not an error (client-go
/// uses the system roots then).
pub fn config(env: &InClusterEnv) -> Result<InCluster, InClusterError> {
    let host = env.service_host.clone().unwrap_or_default();
    let port = env.service_port.clone().unwrap_or_default();
    let url = server_url(&host, &port);
    let uri: http::Uri = url
        .parse()
        .map_err(|_| InClusterError::Server(crate::base::echo::quoted(&url)))?;
    let token_path = env.token_path().unwrap_or_default();
    let token_err = |problem: String| InClusterError::Token {
        path: token_path.display().to_string(),
        problem,
    };
    let raw = read_small(&token_path, MAX_TOKEN_BYTES).map_err(token_err)?;
    let text = String::from_utf8(raw).map_err(|_| token_err("not UTF-8 text".into()))?;
    let token = text.trim();
    if token.is_empty() {
        return Err(token_err("it is empty".into()));
    }
    crate::base::redact::remember(token);
    let mut config = Config::new(uri);
    let rotating = token == text;
    if rotating {
        config.auth_info.token_file = Some(token_path.display().to_string());
    } else {
        config.auth_info.token = Some(token.to_string().into());
    }
    if let Some(dir) = &env.account_dir {
        let ca = dir.join("ca.crt");
        if let Ok(pem) = read_small(&ca, MAX_CA_BYTES) {
            let certs = super::pem::certificates(&String::from_utf8_lossy(&pem));
            if !certs.is_empty() {
                config.root_cert = Some(certs);
                config.root_cert_file = Some(ca);
            }
        }
    }
    config.default_namespace = env.namespace();
    Ok(InCluster {
        config,
        rotating,
        subject: token_subject(token),
    })
}

/// Reads a regular file (after links) of at most `max` bytes, never blocking on a FIFO.
fn read_small(path: &Path, max: u64) -> Result<Vec<u8>, String> {
    crate::base::fsutil::read_regular_with_mode(path, max)
        .map(|(bytes, _)| bytes)
        .map_err(|e| e.problem.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env_in(dir: &Path) -> InClusterEnv {
        InClusterEnv {
            service_host: Some("10.96.0.1".into()),
            service_port: Some("443".into()),
            pod_namespace: None,
            account_dir: Some(dir.to_path_buf()),
        }
    }

    #[test]
    fn the_server_is_https_join_host_port_with_ipv6_bracketed() {
        assert_eq!(server_url("10.96.0.1", "443"), "https://10.96.0.1:443");
        assert_eq!(server_url("fd00::1", "6443"), "https://[fd00::1]:6443");
        assert_eq!(
            server_url("kubernetes.default.svc", "443"),
            "https://kubernetes.default.svc:443"
        );
        let uri: http::Uri = server_url("fd00::1", "6443").parse().unwrap();
        assert_eq!(uri.host(), Some("[fd00::1]"));
        assert_eq!(uri.port_u16(), Some(6443));
    }

    #[test]
    fn possible_needs_both_variables_and_a_token_that_is_not_a_directory() {
        let d = tempfile::tempdir().unwrap();
        let env = env_in(d.path());
        assert!(!env.possible(), "no token file yet");
        std::fs::create_dir(d.path().join("token")).unwrap();
        assert!(!env.possible(), "a directory named token");
        std::fs::remove_dir(d.path().join("token")).unwrap();
        std::fs::write(d.path().join("token"), "t").unwrap();
        assert!(env.possible());
        let mut no_port = env.clone();
        no_port.service_port = Some(String::new());
        assert!(!no_port.possible());
        let mut no_host = env.clone();
        no_host.service_host = None;
        assert!(!no_host.possible());
        assert!(!InClusterEnv::default().possible());
    }

    #[test]
    fn namespace_is_pod_namespace_then_the_trimmed_file_then_default() {
        let d = tempfile::tempdir().unwrap();
        let mut env = env_in(d.path());
        assert_eq!(env.namespace(), "default");
        std::fs::write(d.path().join("namespace"), "  \n").unwrap();
        assert_eq!(env.namespace(), "default", "a blank file is no namespace");
        std::fs::write(d.path().join("namespace"), "team-a\n").unwrap();
        assert_eq!(env.namespace(), "team-a");
        env.pod_namespace = Some("from-downward-api".into());
        assert_eq!(env.namespace(), "from-downward-api");
    }

    // A JWT whose payload is {"sub":"system:serviceaccount:ns1:watcher"} (signature bogus).
    const JWT: &str =
        "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW06c2VydmljZWFjY291bnQ6bnMxOndhdGNoZXIifQ.c2ln";

    #[test]
    fn a_kubelet_token_file_is_left_to_rotate_and_a_hand_written_one_is_trimmed_once() {
        let d = tempfile::tempdir().unwrap();
        let env = env_in(d.path());
        std::fs::write(d.path().join("token"), JWT).unwrap();
        let ic = config(&env).unwrap();
        assert!(ic.rotating);
        assert_eq!(
            ic.config.auth_info.token_file.as_deref(),
            Some(d.path().join("token").to_str().unwrap())
        );
        assert!(ic.config.auth_info.token.is_none());
        assert_eq!(
            ic.subject.as_deref(),
            Some("system:serviceaccount:ns1:watcher")
        );
        assert_eq!(ic.config.cluster_url.to_string(), "https://10.96.0.1:443/");
        assert_eq!(ic.config.default_namespace, "default");
        assert!(
            ic.config.root_cert_file.is_none(),
            "no ca.crt: system roots"
        );

        std::fs::write(d.path().join("token"), format!("{JWT}\n")).unwrap();
        let ic = config(&env).unwrap();
        assert!(!ic.rotating);
        assert!(ic.config.auth_info.token_file.is_none());
        use secrecy::ExposeSecret;
        assert_eq!(
            ic.config.auth_info.token.as_ref().unwrap().expose_secret(),
            JWT
        );
    }

    #[test]
    fn an_empty_or_fifo_token_is_an_error_that_names_the_file_not_the_content() {
        let d = tempfile::tempdir().unwrap();
        let env = env_in(d.path());
        std::fs::write(d.path().join("token"), " \n").unwrap();
        let e = config(&env).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "in-cluster configuration: cannot use the service-account token {}: it is empty; check the pod's service-account token mount (automountServiceAccountToken), or pass --kubeconfig",
                d.path().join("token").display()
            )
        );
        std::fs::remove_file(d.path().join("token")).unwrap();
        assert!(
            std::process::Command::new("mkfifo")
                .arg(d.path().join("token"))
                .status()
                .unwrap()
                .success()
        );
        let e = config(&env).unwrap_err().to_string();
        assert!(e.contains("FIFO"), "{e}");
    }

    #[test]
    fn a_ca_file_with_a_certificate_is_used_and_reloaded_by_path() {
        let d = tempfile::tempdir().unwrap();
        let env = env_in(d.path());
        std::fs::write(d.path().join("token"), JWT).unwrap();
        std::fs::write(d.path().join("ca.crt"), "not a certificate").unwrap();
        assert!(config(&env).unwrap().config.root_cert_file.is_none());
        let pem = "-----BEGIN CERTIFICATE-----\nAAEC\n-----END CERTIFICATE-----\n";
        std::fs::write(d.path().join("ca.crt"), pem).unwrap();
        let c = config(&env).unwrap().config;
        assert_eq!(c.root_cert_file, Some(d.path().join("ca.crt")));
        assert_eq!(c.root_cert, Some(vec![vec![0u8, 1, 2]]));
    }

    #[test]
    fn the_subject_of_a_token_that_is_not_a_jwt_is_unknown() {
        assert_eq!(token_subject("opaque-static-token"), None);
        assert_eq!(token_subject("a.!!!.c"), None);
        assert_eq!(
            token_subject(JWT).as_deref(),
            Some("system:serviceaccount:ns1:watcher")
        );
    }
}
