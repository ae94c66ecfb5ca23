//! Builds a kube [`Client`] the way kubectl would from its flags and kubeconfig files.
//!
//! Differences from kube-rs defaults, on purpose (ARCHITECTURE §9):
//! - a `KUBECONFIG` list skips missing files, as kubectl does (kube-rs errors);
//! - `--as`, `--as-group`, `--as-uid` become impersonation headers, and the identity asked
//!   for (from flags or the kubeconfig's `as*`) is kept in [`Cluster::impersonation`] so the
//!   guarded path can verify that the server applied it;
//! - building the client is bounded: an exec credential plugin runs while the client is
//!   built (kube-rs runs it synchronously), so it runs on the blocking pool under `deadline`;
//! - every request carries the invocation's session id, as kubectl ≥ 1.35 does with its
//!   `Kubectl-Session` header, and in the `User-Agent` (`kubectl-myops/<version>
//!   session/<id>`; kube-rs sends none) — the apiserver's audit log records the User-Agent,
//!   so its events join to the change log's `session`.
//! - with no kubeconfig file and no flag naming a server, context, cluster or user, a pod's
//!   service account is used, as client-go's in-cluster fallback does
//!   ([`super::in_cluster`]); unlike kubectl, which drops `--as` and the TLS flags there,
//!   every connection flag still applies;
//! - connections have `TCP_NODELAY` on, as kubectl's do (kube-rs leaves Nagle's algorithm on,
//!   so each new connection waited ~40 ms for a delayed ACK): see [`super::connector`].

use std::path::PathBuf;

use kube::Client;
use kube::config::{Config, KubeConfigOptions, Kubeconfig, KubeconfigError};

use super::options::KubeOptions;
use crate::exit::ExitStatus;

/// A connected client plus what the verbs need to know about the chosen context.
#[derive(Clone)]
pub struct Cluster {
    /// The kube client (impersonation and timeouts applied).
    pub client: Client,
    /// The namespace to use: `-n`, else the context's namespace, else `default`.
    pub namespace: String,
    /// The kubeconfig context in use, if any.
    pub context: Option<String>,
    /// The API server URL.
    pub server: String,
    /// The user to name in messages before the server has told us (`--as` or the kubeconfig user).
    pub configured_user: Option<String>,
    /// The identity impersonation asks for (`--as*` flags, else the kubeconfig user's `as*`),
    /// `None` when no impersonation is in effect.
    pub impersonation: Option<Impersonation>,
    /// The proxy the requests go through (kubeconfig `proxy-url`, else `HTTPS_PROXY`/
    /// `HTTP_PROXY` unless `NO_PROXY` excludes the server), without userinfo; `None` = direct.
    pub proxy: Option<String>,
}

/// The identity requested with `Impersonate-User`, `Impersonate-Group` and `Impersonate-Uid`
/// (<https://kubernetes.io/docs/reference/access-authn-authz/authentication/#user-impersonation>).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Impersonation {
    /// `Impersonate-User`.
    pub user: String,
    /// `Impersonate-Group` values.
    pub groups: Vec<String>,
    /// `Impersonate-Uid`.
    pub uid: Option<String>,
    /// `Impersonate-Extra-KEY` values by key (`--as-user-extra`, kubeconfig `as-user-extra`).
    pub extra: std::collections::BTreeMap<String, Vec<String>>,
}

/// Why a client could not be built.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    /// No kubeconfig file exists and no `--server` was given.
    #[error(
        "no kubeconfig found (looked at {looked}); set KUBECONFIG, pass --kubeconfig, or pass --server"
    )]
    NoKubeconfig {
        /// The paths that were tried, `:`-separated.
        looked: String,
    },
    /// A kubeconfig file is unreadable or invalid. The message is the parser's first line
    /// only: kube's parse errors quote the file's lines, which hold tokens.
    #[error(
        "kubeconfig {path}: {message}; fix the file or point --kubeconfig/KUBECONFIG elsewhere"
    )]
    KubeconfigFile {
        /// The file.
        path: String,
        /// What is wrong with it (one line, no file content).
        message: String,
    },
    /// The merged kubeconfig cannot give a configuration (e.g. `--context` names no context).
    #[error("kubeconfig: {}; check --kubeconfig, KUBECONFIG and --context", safe_message(.0))]
    Kubeconfig(#[from] KubeconfigError),
    /// `--context`, `--cluster` or `--user` names an entry the kubeconfig does not have.
    #[error("{kind} \"{name}\" does not exist in the kubeconfig; see `kubectl config view`")]
    NoSuchEntry {
        /// `context`, `cluster` or `auth info`.
        kind: &'static str,
        /// The name given.
        name: String,
    },
    /// `-n` is not a valid namespace name.
    #[error(
        "invalid namespace {0:?}: a namespace is a lowercase RFC 1123 label (a-z, 0-9, '-', at most 63 characters)"
    )]
    Namespace(String),
    /// `--as-group`, `--as-uid` or `--as-user-extra` without `--as` (kubectl refuses this too).
    #[error(
        "--as-group, --as-uid and --as-user-extra need --as: impersonating groups, a uid or extras without a user is not allowed"
    )]
    GroupsWithoutUser,
    /// `--client-certificate` without a client key, or `--client-key` without a certificate
    /// (kubectl: "client-key-data or client-key must be specified").
    #[error(
        "{given} is given but the user has no {missing}; pass both --client-certificate and --client-key"
    )]
    ClientCertPair {
        /// The flag given.
        given: &'static str,
        /// What is missing.
        missing: &'static str,
    },
    /// A bearer token and basic authentication together (client-go's kubeconfig validation
    /// refuses it: `tools/clientcmd/validation.go`).
    #[error(
        "more than one authentication method found for the user (token and basicAuth), only one is allowed; drop --username/--password or the token"
    )]
    TwoAuthMethods,
    /// The kuberc cannot be read, or its credential plugin policy refuses the user's plugin
    /// (which was not run).
    #[error(transparent)]
    Kuberc(#[from] super::kuberc::KubercError),
    /// `--server` is not a URL.
    #[error("--server {0:?} is not a valid URL; use e.g. https://127.0.0.1:6443")]
    Server(String),
    /// The HTTP client could not be built (TLS material, proxy).
    #[error(
        "cannot build the Kubernetes client: {0}; check the certificate and key files in the kubeconfig"
    )]
    Client(#[source] kube::Error),
    /// The kubeconfig user's exec credential plugin failed. Its output is never shown: a
    /// plugin that prints a credential and then fails (or prints it truncated) would
    /// otherwise put the token on the terminal (kube-rs quotes the whole process output);
    /// kubectl likewise names only the executable and the exit code
    /// (client-go `plugin/pkg/client/auth/exec/exec.go`).
    #[error(
        "the credential plugin {program:?} of the kubeconfig user {problem}; its output is not shown because it may hold a credential: run the plugin by hand to see why"
    )]
    CredentialPlugin {
        /// The plugin's executable as the kubeconfig names it (no arguments: they may hold secrets).
        program: String,
        /// What went wrong, e.g. `exited with status 1`.
        problem: String,
    },
    /// A certificate or key file of the chosen context (or `--certificate-authority`) is not
    /// a regular file or is too large.
    #[error(
        "certificate file {path}: {message}; fix certificate-authority, client-certificate or client-key in the kubeconfig, or --certificate-authority"
    )]
    TlsFile {
        /// The file.
        path: String,
        /// What is wrong with it.
        message: String,
    },
    /// `--as`, `--as-group` or `--as-uid` holds characters an HTTP header cannot carry.
    #[error(
        "{flag} {value} cannot be sent as an impersonation header: it holds control characters; pass the user, group or uid as the API server knows it"
    )]
    Impersonation {
        /// The flag.
        flag: &'static str,
        /// The value, escaped and capped.
        value: String,
    },
    /// No proxy can be chosen: a bad kubeconfig `proxy-url` or proxy scheme.
    #[error("{0}")]
    Proxy(#[from] super::proxy::ProxyError),
    /// kube-rs refused the proxy environment while reading the kubeconfig. It parses
    /// `NO_PROXY` strictly whenever a proxy is set (an empty entry, as a trailing comma makes,
    /// or an entry it cannot read fails the whole configuration), where kubectl skips such
    /// entries; the value is not shown.
    #[error(
        "the proxy settings of the environment cannot be used: {0}; remove empty or malformed entries (e.g. a trailing comma) from NO_PROXY/no_proxy and check that HTTPS_PROXY/https_proxy is a URL such as http://HOST:PORT"
    )]
    ProxyEnvironment(String),
    /// The in-cluster configuration (the pod's service account) is possible but unusable.
    #[error(transparent)]
    InCluster(#[from] super::in_cluster::InClusterError),
    /// Building the client did not finish in time: the kubeconfig user's exec credential
    /// plugin (run while the client is built) did not answer.
    #[error(
        "the credential plugin of the kubeconfig user did not answer within {}; check the plugin (run it by hand) or pass --request-timeout",
        crate::config::duration_string::format(*.0)
    )]
    CredentialTimeout(std::time::Duration),
}

/// The first line of an error message, without any quoted source snippet, and with the
/// value serde quotes in "invalid type: string \"…\"" masked: a token written where a map
/// belongs (`user: <token>`) must not come back in the message.
fn safe_message(e: &dyn std::fmt::Display) -> String {
    let text = e.to_string();
    let first = text.lines().next().unwrap_or("").trim();
    let mut out = String::new();
    let mut rest = first;
    while let Some(at) = rest.find("string \"") {
        let open = at + "string \"".len();
        out.push_str(&rest[..open]);
        let close = rest[open..].find('"').map_or(rest.len(), |c| open + c);
        out.push('…');
        rest = &rest[close..];
    }
    out.push_str(rest);
    out
}

/// Whether `ns` is a valid namespace name (an RFC 1123 label, as Kubernetes validates it).
pub fn valid_namespace(ns: &str) -> bool {
    !ns.is_empty()
        && ns.len() <= 63
        && ns
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !ns.starts_with('-')
        && !ns.ends_with('-')
}

impl ClusterError {
    /// Exit status: configuration problems are usage errors (2), client construction is a failure (1).
    pub fn exit_status(&self) -> ExitStatus {
        match self {
            ClusterError::Client(_)
            | ClusterError::CredentialTimeout(_)
            | ClusterError::CredentialPlugin { .. } => ExitStatus::Failure,
            ClusterError::TlsFile { .. }
            | ClusterError::Kuberc(_)
            | ClusterError::Impersonation { .. }
            | ClusterError::Proxy(_)
            | ClusterError::ProxyEnvironment(_) => ExitStatus::Usage,
            _ => ExitStatus::Usage,
        }
    }
}

/// Parses one kubeconfig document set from `text` (pure; `origin` names it in the error).
/// Relative file paths inside are left as written (the loader makes them absolute).
///
/// # Errors
/// [`ClusterError::KubeconfigFile`] with the parser's first line only: kube's parse errors
/// quote the file's lines, which hold tokens.
pub fn parse_kubeconfig(text: &str, origin: &str) -> Result<Kubeconfig, ClusterError> {
    Kubeconfig::from_yaml(text).map_err(|e| ClusterError::KubeconfigFile {
        path: origin.to_string(),
        message: safe_message(&e),
    })
}

/// Refuses a kubeconfig that is not a regular file after resolving links (a FIFO would
/// block the read forever) or is larger than 16 MiB (no real kubeconfig comes close).
fn check_kubeconfig_file(path: &std::path::Path) -> Result<(), ClusterError> {
    match file_problem(path, 16 * 1024 * 1024) {
        Some(message) => Err(ClusterError::KubeconfigFile {
            path: path.display().to_string(),
            message,
        }),
        None => Ok(()),
    }
}

/// The largest certificate or key file read (bytes): a CA bundle of every public CA is
/// about 200 KiB.
const MAX_TLS_FILE: u64 = 1024 * 1024;

/// Refuses, before kube reads them, the TLS files the chosen context will use — the
/// cluster's `certificate-authority`, the user's `client-certificate` and `client-key` —
/// when one is not a regular file (a FIFO would block the client forever) or is larger than
/// [`MAX_TLS_FILE`]. Entries of other contexts are not read, as kubectl does not read them.
fn check_tls_files(kc: &Kubeconfig, opts: &KubeOptions) -> Result<(), ClusterError> {
    let mut files = Vec::new();
    if let Some(c) = chosen_cluster(kc, opts) {
        files.extend(c.certificate_authority.clone());
    }
    if let Some(a) = chosen_user(kc, opts) {
        files.extend(a.client_certificate.clone());
        files.extend(a.client_key.clone());
    }
    files
        .iter()
        .try_for_each(|f| check_tls_file(std::path::Path::new(f)))
}

/// The context `--context` or `current-context` names, if the kubeconfig has it.
fn chosen_context<'k>(kc: &'k Kubeconfig, opts: &KubeOptions) -> Option<&'k kube::config::Context> {
    opts.context
        .clone()
        .or_else(|| kc.current_context.clone())
        .and_then(|c| kc.contexts.iter().find(|n| n.name == c))
        .and_then(|n| n.context.as_ref())
}

/// The cluster entry in use: `--cluster`, else the chosen context's.
fn chosen_cluster<'k>(kc: &'k Kubeconfig, opts: &KubeOptions) -> Option<&'k kube::config::Cluster> {
    opts.cluster
        .clone()
        .or_else(|| chosen_context(kc, opts).map(|c| c.cluster.clone()))
        .and_then(|n| kc.clusters.iter().find(|c| c.name == n))
        .and_then(|c| c.cluster.as_ref())
}

/// The user entry in use: `--user`, else the chosen context's.
fn chosen_user<'k>(kc: &'k Kubeconfig, opts: &KubeOptions) -> Option<&'k kube::config::AuthInfo> {
    opts.user
        .clone()
        .or_else(|| chosen_context(kc, opts).and_then(|c| c.user.clone()))
        .and_then(|n| kc.auth_infos.iter().find(|a| a.name == n))
        .and_then(|a| a.auth_info.as_ref())
}

/// The proxy kube-rs's client will dial for this process, without userinfo, recorded by
/// [`connect`] so a transport error can name it ([`super::errors::ApiError::from_kube`]).
/// One process talks to one cluster, so the first value stays.
static PROXY_IN_USE: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// The proxy this process's client goes through (without userinfo), if any.
pub fn proxy_in_use() -> Option<&'static str> {
    PROXY_IN_USE.get().map(String::as_str)
}

/// [`ClusterError::TlsFile`] when `path` is not a regular file of at most [`MAX_TLS_FILE`] bytes.
fn check_tls_file(path: &std::path::Path) -> Result<(), ClusterError> {
    match file_problem(path, MAX_TLS_FILE) {
        Some(message) => Err(ClusterError::TlsFile {
            path: path.display().to_string(),
            message,
        }),
        None => Ok(()),
    }
}

/// Applies `--client-certificate`, `--client-key`, `--tls-server-name`, `--as-user-extra`,
/// `--username` and `--password` over the kubeconfig's values, as cli-runtime's
/// `ConfigFlags.toRawKubeConfigLoader` does (a certificate or key flag also drops the
/// kubeconfig's inline `*-data`), then checks what client-go's kubeconfig validation checks
/// (`tools/clientcmd/validation.go`): a certificate needs a key and the other way round;
/// a token and basic authentication together are refused.
///
/// # Errors
/// [`ClusterError::ClientCertPair`], [`ClusterError::TwoAuthMethods`] (usage errors, exit 2).
fn apply_auth_flags(config: &mut Config, opts: &KubeOptions) -> Result<(), ClusterError> {
    let a = &mut config.auth_info;
    if let Some(cert) = &opts.client_certificate {
        a.client_certificate = Some(cert.display().to_string());
        a.client_certificate_data = None;
    }
    if let Some(key) = &opts.client_key {
        a.client_key = Some(key.display().to_string());
        a.client_key_data = None;
    }
    let has_cert = a.client_certificate.is_some() || a.client_certificate_data.is_some();
    let has_key = a.client_key.is_some() || a.client_key_data.is_some();
    match (has_cert, has_key) {
        (true, false) => {
            return Err(ClusterError::ClientCertPair {
                given: "--client-certificate (or the kubeconfig's client-certificate)",
                missing: "client key",
            });
        }
        (false, true) => {
            return Err(ClusterError::ClientCertPair {
                given: "--client-key (or the kubeconfig's client-key)",
                missing: "client certificate",
            });
        }
        _ => {}
    }
    if let Some(name) = &opts.tls_server_name {
        config.tls_server_name = Some(name.clone());
    }
    if !opts.as_user_extra.is_empty() {
        a.impersonate_user_extra = Some(opts.as_user_extra.clone().into_iter().collect());
    }
    if let Some(u) = &opts.username {
        a.username = Some(u.clone());
    }
    if let Some(p) = &opts.password {
        a.password = Some(p.clone().into());
    }
    let basic = a.username.is_some() || a.password.is_some();
    if basic && (a.token.is_some() || a.token_file.is_some()) {
        return Err(ClusterError::TwoAuthMethods);
    }
    Ok(())
}

/// Refuses an impersonation value that cannot be an HTTP header value (RFC 9110 §5.5:
/// visible ASCII, spaces and tabs; control characters never), before any request: kubectl
/// fails the same way (`invalid header field value for "Impersonate-User"`), only later.
fn check_impersonation(opts: &KubeOptions) -> Result<(), ClusterError> {
    let values = opts
        .as_user
        .iter()
        .map(|v| ("--as", v))
        .chain(opts.as_groups.iter().map(|v| ("--as-group", v)))
        .chain(opts.as_uid.iter().map(|v| ("--as-uid", v)))
        .chain(
            opts.as_user_extra
                .iter()
                .flat_map(|(k, vs)| std::iter::once(k).chain(vs))
                .map(|v| ("--as-user-extra", v)),
        );
    for (flag, v) in values {
        if http::HeaderValue::from_str(v).is_err() || v.chars().any(char::is_control) {
            return Err(ClusterError::Impersonation {
                flag,
                value: crate::echo::quoted(v),
            });
        }
    }
    Ok(())
}

/// Why `path` cannot be read as a regular file (after resolving links) of at most `max`
/// bytes, or `None` when it can.
fn file_problem(path: &std::path::Path, max: u64) -> Option<String> {
    match std::fs::metadata(path) {
        Err(e) => Some(e.to_string()),
        Ok(m) if !m.is_file() => Some("not a regular file".to_string()),
        Ok(m) if m.len() > max => Some(format!("{} bytes, over the {max}-byte limit", m.len())),
        Ok(_) => None,
    }
}

/// Loads the kubeconfig as kubectl does: `--kubeconfig` (must exist), else every existing
/// file of `$KUBECONFIG` merged in order (first value wins), else `~/.kube/config`.
///
/// Returns `Ok(None)` when nothing exists and nothing was required.
///
/// # Errors
/// [`ClusterError::Kubeconfig`] for an unreadable or invalid file.
pub fn load_kubeconfig(opts: &KubeOptions) -> Result<Option<Kubeconfig>, ClusterError> {
    if let Some(kc) = &opts.preloaded {
        return Ok(Some(kc.as_ref().clone()));
    }
    let read = |path: &PathBuf| {
        check_kubeconfig_file(path)?;
        Kubeconfig::read_from(path).map_err(|e| ClusterError::KubeconfigFile {
            path: path.display().to_string(),
            message: match e {
                KubeconfigError::ReadConfig(io, _) => io.to_string(),
                other => safe_message(&other),
            },
        })
    };
    if let Some(path) = &opts.kubeconfig {
        return Ok(Some(read(path)?));
    }
    let candidates: Vec<PathBuf> = if opts.kubeconfig_env.is_empty() {
        opts.default_kubeconfig.iter().cloned().collect()
    } else {
        opts.kubeconfig_env.clone()
    };
    let mut merged: Option<Kubeconfig> = None;
    for path in candidates.iter().filter(|p| p.exists()) {
        let next = read(path)?;
        merged = Some(match merged {
            None => next,
            Some(acc) => acc.merge(next)?,
        });
    }
    Ok(merged)
}

/// The part of the merged kubeconfig `kc` that connecting in `context` reads (pure): that
/// context (made current), the cluster and user it names, and those `opts` names with
/// `--cluster`/`--user`; preferences and extensions kept. A fan-out hands each context this
/// instead of the whole file, so connecting costs the same in a 1,000-context kubeconfig
/// as in a small one. A context that is not in `kc` gives a kubeconfig without it, so
/// [`connect`] reports it as it would for the whole file.
pub fn for_context(kc: &Kubeconfig, context: &str, opts: &KubeOptions) -> Kubeconfig {
    let ctx = kc.contexts.iter().find(|c| c.name == context);
    let named = ctx.and_then(|c| c.context.as_ref());
    let cluster_names = [named.map(|c| c.cluster.as_str()), opts.cluster.as_deref()];
    let user_names = [named.and_then(|c| c.user.as_deref()), opts.user.as_deref()];
    Kubeconfig {
        preferences: kc.preferences.clone(),
        clusters: kc
            .clusters
            .iter()
            .filter(|c| cluster_names.contains(&Some(c.name.as_str())))
            .cloned()
            .collect(),
        auth_infos: kc
            .auth_infos
            .iter()
            .filter(|u| user_names.contains(&Some(u.name.as_str())))
            .cloned()
            .collect(),
        contexts: ctx.into_iter().cloned().collect(),
        current_context: Some(context.to_string()),
        extensions: kc.extensions.clone(),
        kind: kc.kind.clone(),
        api_version: kc.api_version.clone(),
        other: kc.other.clone(),
    }
}

/// Connects: kubeconfig + flags → [`Config`] → [`Client`]. No request is sent to the API
/// server; an exec credential plugin may run, bounded by `deadline`. `session` is sent with
/// every request (`Kubectl-Session` header and User-Agent).
///
/// # Errors
/// [`ClusterError`] when no configuration is found or it is invalid, or when building the
/// client (an exec credential plugin) takes longer than `deadline`.
pub async fn connect(
    opts: &KubeOptions,
    session: &str,
    deadline: std::time::Duration,
) -> Result<Cluster, ClusterError> {
    if opts.as_user.is_none()
        && (!opts.as_groups.is_empty() || opts.as_uid.is_some() || !opts.as_user_extra.is_empty())
    {
        return Err(ClusterError::GroupsWithoutUser);
    }
    if let Some(ns) = opts.namespace.as_deref().filter(|ns| !ns.is_empty())
        && !valid_namespace(ns)
    {
        return Err(ClusterError::Namespace(ns.to_string()));
    }
    let kubeconfig = load_kubeconfig(opts)?;
    if let Some(kc) = &kubeconfig {
        let missing = |kind: &'static str, name: &Option<String>, names: Vec<&String>| match name {
            Some(n) if !names.contains(&n) => Err(ClusterError::NoSuchEntry {
                kind,
                name: n.clone(),
            }),
            _ => Ok(()),
        };
        missing(
            "context",
            &opts.context,
            kc.contexts.iter().map(|c| &c.name).collect(),
        )?;
        missing(
            "cluster",
            &opts.cluster,
            kc.clusters.iter().map(|c| &c.name).collect(),
        )?;
        missing(
            "auth info",
            &opts.user,
            kc.auth_infos.iter().map(|c| &c.name).collect(),
        )?;
    }
    if let Some(kc) = &kubeconfig {
        check_tls_files(kc, opts)?;
    }
    for f in [
        &opts.certificate_authority,
        &opts.client_certificate,
        &opts.client_key,
    ]
    .into_iter()
    .flatten()
    {
        check_tls_file(f)?;
    }
    check_impersonation(opts)?;
    // Read before anything can run a credential plugin: a missing explicit kuberc is an
    // error whatever the user, as in kubectl.
    let plugin_policy = super::kuberc::load(&opts.kuberc)?;
    let options = KubeConfigOptions {
        context: opts.context.clone(),
        cluster: opts.cluster.clone(),
        user: opts.user.clone(),
    };
    // The cluster's `proxy-url`, read before kube consumes the kubeconfig (kube's own proxy
    // choice is replaced below: see super::proxy).
    let kubeconfig_proxy = kubeconfig
        .as_ref()
        .and_then(|kc| chosen_cluster(kc, opts))
        .and_then(|c| c.proxy_url.clone())
        .filter(|u| !u.is_empty());
    // Whether kube-rs must keep re-reading the token file (the in-cluster token rotates).
    let mut rotating_token = false;
    let (mut config, context, kube_user) = match kubeconfig {
        Some(kc) => {
            // client-go `DeferredLoadingClientConfig.Namespace`: a context that names no
            // namespace takes the pod's when in-cluster configuration is possible.
            let pod_namespace = chosen_context(&kc, opts)
                .and_then(|c| c.namespace.as_deref())
                .filter(|ns| !ns.is_empty())
                .is_none()
                .then(|| {
                    opts.in_cluster
                        .possible()
                        .then(|| opts.in_cluster.namespace())
                })
                .flatten();
            let context = opts.context.clone().or_else(|| kc.current_context.clone());
            let user = context.as_ref().and_then(|c| {
                kc.contexts
                    .iter()
                    .find(|n| &n.name == c)
                    .and_then(|n| n.context.as_ref())
                    .map(|x| x.user.clone())
            });
            let mut config = match Config::from_custom_kubeconfig(kc.clone(), &options).await {
                // kube-rs parses NO_PROXY strictly, last, whenever it sees a proxy; the
                // proxy is chosen below anyway, so build the same Config without it.
                Err(KubeconfigError::ParseNoProxy(_)) => config_without_kube_proxy(&kc, opts)?,
                other => other.map_err(|e| kube_proxy_error(e, kubeconfig_proxy.as_deref()))?,
            };
            if let Some(ns) = pod_namespace {
                config.default_namespace = ns;
            }
            (config, context, user.flatten())
        }
        // No kubeconfig and nothing naming a server, context, cluster or user: a pod's
        // service account, when there is one (client-go's in-cluster fallback; see
        // super::in_cluster for the rules).
        None if opts.server.is_none()
            && opts.context.is_none()
            && opts.cluster.is_none()
            && opts.user.is_none()
            && opts.in_cluster.possible() =>
        {
            let ic = super::in_cluster::config(&opts.in_cluster)?;
            rotating_token = ic.rotating;
            (ic.config, None, ic.subject)
        }
        None => {
            let Some(server) = &opts.server else {
                let looked = if opts.kubeconfig_env.is_empty() {
                    opts.default_kubeconfig
                        .iter()
                        .map(|p| p.display().to_string())
                        .collect::<Vec<_>>()
                } else {
                    opts.kubeconfig_env
                        .iter()
                        .map(|p| p.display().to_string())
                        .collect()
                };
                return Err(ClusterError::NoKubeconfig {
                    looked: if looked.is_empty() {
                        "nowhere: HOME is not set".into()
                    } else {
                        looked.join(":")
                    },
                });
            };
            let uri = server
                .parse()
                .map_err(|_| ClusterError::Server(server.clone()))?;
            (Config::new(uri), None, None)
        }
    };
    if let Some(server) = &opts.server {
        config.cluster_url = server
            .parse()
            .map_err(|_| ClusterError::Server(server.clone()))?;
    }
    // kubectl treats `-n ""` as not given.
    if let Some(ns) = opts.namespace.as_ref().filter(|ns| !ns.is_empty()) {
        config.default_namespace = ns.clone();
    }
    if let Some(token) = &opts.token {
        config.auth_info.token = Some(token.clone().into());
        config.auth_info.token_file = None;
    }
    // client-go trims the token file's whitespace; kube-rs sends it as read, so a file
    // ending in a newline (as `echo` writes it) fails as "invalid bearer token". Read it
    // once here (a short-lived CLI needs no rotation) the way kubectl does. The in-cluster
    // token is the exception: it rotates under a long-running watcher, so kube-rs keeps
    // re-reading it (super::in_cluster checked that it has no whitespace to trim).
    if config.auth_info.token.is_none()
        && !rotating_token
        && let Some(f) = config.auth_info.token_file.take()
    {
        config.auth_info.token = Some(read_token_file(&f)?.into());
    }
    if opts.insecure_skip_tls_verify {
        config.accept_invalid_certs = true;
    }
    if let Some(ca) = &opts.certificate_authority {
        config.root_cert_file = Some(ca.clone());
    }
    apply_auth_flags(&mut config, opts)?;
    if opts.as_user.is_some() {
        config.auth_info.impersonate = opts.as_user.clone();
    }
    if !opts.as_groups.is_empty() {
        config.auth_info.impersonate_groups = Some(opts.as_groups.clone());
    }
    if opts.as_uid.is_some() {
        config.auth_info.impersonate_uid = opts.as_uid.clone();
    }
    if let Some(t) = opts.request_timeout {
        config.connect_timeout = Some(t);
        config.read_timeout = Some(t);
        config.write_timeout = Some(t);
        config.reset_reader_on_write = true;
    }
    // kube-rs sends no User-Agent; name ourselves so audit logs can tell our requests apart,
    // and carry the session id there too: the audit log records the User-Agent, not headers.
    let session = http::HeaderValue::from_str(session)
        .map_err(|_| ClusterError::Server(format!("session id {session:?}")))?;
    let agent = format!(
        "{} session/{}",
        concat!("kubectl-myops/", env!("CARGO_PKG_VERSION")),
        session.to_str().unwrap_or("")
    );
    config.headers.push((
        http::header::USER_AGENT,
        http::HeaderValue::from_str(&agent).map_err(|_| ClusterError::Server(agent.clone()))?,
    ));
    config
        .headers
        .push((http::HeaderName::from_static("kubectl-session"), session));
    let impersonation = config
        .auth_info
        .impersonate
        .clone()
        .map(|user| Impersonation {
            user,
            groups: config
                .auth_info
                .impersonate_groups
                .clone()
                .unwrap_or_default(),
            uid: config.auth_info.impersonate_uid.clone(),
            extra: config
                .auth_info
                .impersonate_user_extra
                .clone()
                .unwrap_or_default()
                .into_iter()
                .collect(),
        });
    config.proxy_url = super::proxy::choose(
        &config.cluster_url,
        kubeconfig_proxy.as_deref(),
        &super::proxy::ProxyEnv::from_process(),
    )?;
    let proxy = config
        .proxy_url
        .as_ref()
        .map(|u| crate::redact::url_without_userinfo(u.to_string().trim_end_matches('/')));
    if let Some(p) = &proxy {
        let _ = PROXY_IN_USE.set(p.clone());
    }
    let namespace = config.default_namespace.clone();
    remember_credentials(&config);
    let server =
        crate::redact::url_without_userinfo(config.cluster_url.to_string().trim_end_matches('/'));
    let configured_user = opts.as_user.clone().or(kube_user);
    // kube-rs runs an exec credential plugin synchronously while it builds the client: run
    // that on the blocking pool so a plugin that never answers cannot outlive the deadline
    // (the process exits without waiting for it: app::main shuts the runtime down in the
    // background).
    let program = config
        .auth_info
        .exec
        .as_ref()
        .and_then(|e| e.command.clone())
        .unwrap_or_default();
    // kubectl 1.35+ kuberc credentialPluginPolicy: a plugin the user's policy denies is
    // never started (kube-rs would start it while building the client, just below).
    if config.auth_info.exec.is_some() {
        super::kuberc::check_plugin(&plugin_policy, &program, &opts.path_env)?;
    }
    let build = tokio::task::spawn_blocking(move || super::connector::build_client(config));
    let client = match tokio::time::timeout(deadline, build).await {
        Ok(Ok(built)) => built.map_err(|e| client_error(e, &program))?,
        Ok(Err(join)) => return Err(ClusterError::Client(kube::Error::Service(Box::new(join)))),
        Err(_) => {
            kill_children();
            return Err(ClusterError::CredentialTimeout(deadline));
        }
    };
    Ok(Cluster {
        client,
        namespace,
        context,
        server,
        configured_user,
        impersonation,
        proxy,
    })
}

/// The [`Config`] kube-rs's `Config::from_custom_kubeconfig` builds (kube-client 5.0
/// `config/mod.rs` `new_from_loader`, `config/file_loader.rs` `load_from_kubeconfig`), for
/// when only its last step failed: its own NO_PROXY parsing, which refuses what Go accepts
/// (an empty entry from a trailing comma, `*.example.com`). kube got past every other step
/// for this kubeconfig, so the context, cluster and CA are known to be readable.
///
/// # Errors
/// [`ClusterError::ProxyEnvironment`] should one of them not be after all.
fn config_without_kube_proxy(kc: &Kubeconfig, opts: &KubeOptions) -> Result<Config, ClusterError> {
    let broken = |what: &str| {
        ClusterError::ProxyEnvironment(format!(
            "NO_PROXY cannot be parsed by the Kubernetes client library and the kubeconfig's {what} could not be read without it"
        ))
    };
    let context = chosen_context(kc, opts).ok_or_else(|| broken("context"))?;
    let cluster = chosen_cluster(kc, opts).ok_or_else(|| broken("cluster"))?;
    let mut config = Config::new(
        cluster
            .server
            .as_deref()
            .unwrap_or("")
            .parse()
            .map_err(|_| broken("server"))?,
    );
    if let Some(ns) = &context.namespace {
        config.default_namespace = ns.clone();
    }
    config.accept_invalid_certs = cluster.insecure_skip_tls_verify.unwrap_or(false);
    config.disable_compression = cluster.disable_compression.unwrap_or(false);
    config.tls_server_name = cluster.tls_server_name.clone();
    if let Some(data) = &cluster.certificate_authority_data {
        use base64::Engine;
        let pem = base64::engine::general_purpose::STANDARD
            .decode(data)
            .map_err(|_| broken("certificate-authority-data"))?;
        config.root_cert = Some(super::pem::certificates(&String::from_utf8_lossy(&pem)));
    } else if let Some(file) = &cluster.certificate_authority {
        config.root_cert_file = Some(PathBuf::from(file));
    }
    let mut auth = chosen_user(kc, opts).cloned().unwrap_or_default();
    if let Some(exec) = auth.exec.as_mut().filter(|e| e.provide_cluster_info) {
        exec.cluster = Some(cluster.try_into().map_err(|_| broken("cluster"))?);
    }
    config.auth_info = auth;
    Ok(config)
}

/// Maps kube's kubeconfig errors about proxies (kube-rs reads `HTTPS_PROXY` and `NO_PROXY`
/// itself while it reads the kubeconfig) to ours; others pass through. Neither message
/// quotes the proxy value, which may hold a password.
fn kube_proxy_error(e: KubeconfigError, kubeconfig_proxy: Option<&str>) -> ClusterError {
    match (e, kubeconfig_proxy) {
        (KubeconfigError::ParseProxyUrl(_), Some(url)) => ClusterError::Proxy(
            super::proxy::ProxyError::InvalidUrl(crate::redact::url_without_userinfo(url)),
        ),
        (KubeconfigError::ParseProxyUrl(_), None) => {
            ClusterError::ProxyEnvironment("HTTPS_PROXY is not a URL".into())
        }
        (KubeconfigError::ParseNoProxy(inner), _) => ClusterError::ProxyEnvironment(format!(
            "NO_PROXY cannot be parsed ({})",
            match inner {
                kube::config::NoProxyError::EmptyValue => "an empty entry".to_string(),
                kube::config::NoProxyError::EmptyInput => "it is empty".to_string(),
                _ => "an entry is neither an IP, a CIDR nor a host name".to_string(),
            }
        )),
        (other, _) => ClusterError::Kubeconfig(other),
    }
}

/// The kubeconfig user's `tokenFile`, whitespace-trimmed as client-go does
/// (`transport/token_source.go`): a regular file of at most 64 KiB.
///
/// # Errors
/// [`ClusterError::KubeconfigFile`] naming the token file (never its content) when it is
/// missing, not a regular file, too large or not UTF-8.
fn read_token_file(path: &str) -> Result<String, ClusterError> {
    const MAX: u64 = 64 * 1024;
    let err = |message: String| ClusterError::KubeconfigFile {
        path: format!("tokenFile {path}"),
        message,
    };
    let meta = std::fs::metadata(path).map_err(|e| err(e.to_string()))?;
    if !meta.is_file() {
        return Err(err("not a regular file".into()));
    }
    if meta.len() > MAX {
        return Err(err(format!(
            "{} bytes, over the {MAX}-byte limit",
            meta.len()
        )));
    }
    let bytes = std::fs::read(path).map_err(|e| err(e.to_string()))?;
    let text = String::from_utf8(bytes).map_err(|_| err("not UTF-8 text".into()))?;
    Ok(text.trim().to_string())
}

/// Kills (SIGKILL) this process's child processes: after the deadline, a credential plugin
/// that never answered must not outlive us (kube-rs runs it with `std::process::Command`
/// and gives no handle to it). Linux: children are the `/proc/<pid>/stat` entries whose
/// parent pid (field 4, proc(5)) is ours, killed with kill(1) (this crate forbids `unsafe`,
/// so no direct kill(2)); elsewhere this does nothing.
fn kill_children() {
    let me = std::process::id().to_string();
    let Ok(procs) = std::fs::read_dir("/proc") else {
        return;
    };
    let pids: Vec<String> = procs
        .flatten()
        .filter_map(|e| {
            let pid = e.file_name().into_string().ok()?;
            pid.parse::<u32>().ok()?;
            let stat = std::fs::read_to_string(e.path().join("stat")).ok()?;
            // "pid (comm) state ppid …": comm may hold spaces and parentheses.
            let ppid = stat.rsplit_once(')')?.1.split_whitespace().nth(1)?;
            (ppid == me).then_some(pid)
        })
        .collect();
    if !pids.is_empty() {
        let _ = std::process::Command::new("kill")
            .arg("-KILL")
            .args(&pids)
            .stderr(std::process::Stdio::null())
            .status();
    }
}

/// Registers every credential `config` holds with [`crate::redact::remember`], so no message
/// or record can carry one: the bearer token (flag, kubeconfig or token file), the basic-auth
/// password, the client key, and a password in the server URL.
fn remember_credentials(config: &Config) {
    use secrecy::ExposeSecret;
    let a = &config.auth_info;
    if let Some(t) = &a.token {
        crate::redact::remember(t.expose_secret());
    }
    if let Some(p) = &a.password {
        crate::redact::remember(p.expose_secret());
    }
    if let Some(k) = &a.client_key_data {
        crate::redact::remember(k.expose_secret());
    }
    if let Some(pw) = config.proxy_url.as_ref().and_then(|u| {
        let userinfo = u.authority()?.as_str().rsplit_once('@')?.0;
        Some(
            userinfo
                .split_once(':')
                .map_or(userinfo, |(_, p)| p)
                .to_string(),
        )
    }) {
        crate::redact::remember(&pw);
    }
    if let Some(pw) = config.cluster_url.authority().and_then(|a| {
        let userinfo = a.as_str().rsplit_once('@')?.0;
        Some(
            userinfo
                .split_once(':')
                .map_or(userinfo, |(_, p)| p)
                .to_string(),
        )
    }) {
        crate::redact::remember(&pw);
    }
}

/// Maps a kube client-construction error to ours. An exec credential plugin's failure never
/// carries its output or arguments ([`ClusterError::CredentialPlugin`]); anything else keeps
/// kube's first line only.
fn client_error(e: kube::Error, program: &str) -> ClusterError {
    use kube::client::AuthError;
    let plugin = |problem: String| ClusterError::CredentialPlugin {
        program: program.to_string(),
        problem,
    };
    match e {
        kube::Error::Auth(AuthError::AuthExecRun { out, .. }) => plugin(match out.status.code() {
            Some(code) => format!("exited with status {code}"),
            None => "was killed by a signal".into(),
        }),
        kube::Error::Auth(AuthError::AuthExecParse(_)) => {
            plugin("printed something that is not an ExecCredential".into())
        }
        kube::Error::Auth(AuthError::AuthExecStart(io)) => {
            plugin(format!("could not be started ({io})"))
        }
        kube::Error::Auth(AuthError::ExecPluginFailed) => {
            plugin("printed an ExecCredential without a status".into())
        }
        kube::Error::Auth(AuthError::AuthExec(_) | AuthError::AuthExecSerialize(_)) => {
            plugin("did not give a usable credential".into())
        }
        other => ClusterError::Client(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn connect_test(opts: &KubeOptions) -> Result<Cluster, ClusterError> {
        connect(opts, "0123abcd", std::time::Duration::from_secs(5)).await
    }

    const KUBECONFIG_A: &str = "apiVersion: v1\nkind: Config\ncurrent-context: a\nclusters:\n- name: a\n  cluster: {server: 'https://127.0.0.1:1'}\ncontexts:\n- name: a\n  context: {cluster: a, user: ua, namespace: team-a}\nusers:\n- name: ua\n  user: {token: t}\n";

    #[test]
    fn missing_files_in_kubeconfig_list_are_skipped_like_kubectl() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a");
        std::fs::write(&a, KUBECONFIG_A).unwrap();
        let opts = KubeOptions {
            kubeconfig_env: vec![dir.path().join("missing"), a.clone()],
            ..Default::default()
        };
        let kc = load_kubeconfig(&opts).unwrap().expect("one file exists");
        assert_eq!(kc.current_context.as_deref(), Some("a"));
    }

    #[test]
    fn explicit_kubeconfig_flag_must_exist() {
        let opts = KubeOptions {
            kubeconfig: Some(PathBuf::from("/nonexistent/kc")),
            ..Default::default()
        };
        let e = load_kubeconfig(&opts).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("kubeconfig /nonexistent/kc: No such file"),
            "{e}"
        );
    }

    #[test]
    fn a_kubeconfig_parse_error_never_quotes_the_file_so_tokens_stay_secret() {
        let dir = tempfile::tempdir().unwrap();
        let bad = dir.path().join("kc");
        let text = KUBECONFIG_A.replace("user: {token: t}", "user: {token: ['s3cr3t-t0ken'}");
        std::fs::write(&bad, text).unwrap();
        let opts = KubeOptions {
            kubeconfig: Some(bad.clone()),
            ..Default::default()
        };
        let e = load_kubeconfig(&opts).unwrap_err().to_string();
        assert!(!e.contains("s3cr3t"), "{e}");
        assert_eq!(e.lines().count(), 1, "{e}");
        assert!(e.contains(&bad.display().to_string()), "{e}");
    }

    #[tokio::test]
    async fn unknown_user_context_and_bad_namespace_are_errors_like_kubectl() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a");
        std::fs::write(&a, KUBECONFIG_A).unwrap();
        let base = KubeOptions {
            kubeconfig: Some(a),
            ..Default::default()
        };
        let with = |f: fn(&mut KubeOptions)| {
            let mut o = base.clone();
            f(&mut o);
            o
        };
        let e = connect_test(&with(|o| o.user = Some("nope".into())))
            .await
            .err()
            .unwrap();
        assert_eq!(
            e.to_string(),
            "auth info \"nope\" does not exist in the kubeconfig; see `kubectl config view`"
        );
        let e = connect_test(&with(|o| o.context = Some("nope".into())))
            .await
            .err()
            .unwrap();
        assert!(
            matches!(
                e,
                ClusterError::NoSuchEntry {
                    kind: "context",
                    ..
                }
            ),
            "{e}"
        );
        let e = connect_test(&with(|o| o.namespace = Some("Bad NS".into())))
            .await
            .err()
            .unwrap();
        assert!(matches!(e, ClusterError::Namespace(_)), "{e}");
        let e = connect_test(&with(|o| o.as_groups = vec!["system:masters".into()]))
            .await
            .err()
            .unwrap();
        assert!(matches!(e, ClusterError::GroupsWithoutUser), "{e}");
        // `-n ""` is as if not given: the context's namespace.
        let c = connect_test(&with(|o| o.namespace = Some(String::new())))
            .await
            .unwrap();
        assert_eq!(c.namespace, "team-a");
    }

    /// A service-account directory with a JWT-shaped token for `sub`, and its env.
    fn pod(dir: &std::path::Path, ns: &str) -> super::super::in_cluster::InClusterEnv {
        use base64::Engine;
        let claims = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .encode(r#"{"sub":"system:serviceaccount:ns1:watcher"}"#);
        std::fs::write(
            dir.join("token"),
            format!("eyJhbGciOiJSUzI1NiJ9.{claims}.c2ln"),
        )
        .unwrap();
        std::fs::write(dir.join("namespace"), ns).unwrap();
        super::super::in_cluster::InClusterEnv {
            service_host: Some("fd00::1".into()),
            service_port: Some("6443".into()),
            pod_namespace: None,
            account_dir: Some(dir.to_path_buf()),
        }
    }

    #[tokio::test]
    async fn without_a_kubeconfig_a_pods_service_account_is_used_like_client_go() {
        let d = tempfile::tempdir().unwrap();
        let opts = KubeOptions {
            default_kubeconfig: Some(d.path().join("no-such-kubeconfig")),
            in_cluster: pod(d.path(), "ns1\n"),
            ..Default::default()
        };
        let c = connect_test(&opts).await.unwrap();
        assert_eq!(c.server, "https://[fd00::1]:6443");
        assert_eq!(c.namespace, "ns1");
        assert_eq!(c.context, None);
        assert_eq!(
            c.configured_user.as_deref(),
            Some("system:serviceaccount:ns1:watcher")
        );
        // -n still overrides the pod's namespace.
        let mut with_n = opts.clone();
        with_n.namespace = Some("other".into());
        assert_eq!(connect_test(&with_n).await.unwrap().namespace, "other");
        // A flag naming a context (or server) means a kubeconfig was meant: no fallback.
        let mut with_context = opts.clone();
        with_context.context = Some("prod".into());
        let e = connect_test(&with_context).await.err().unwrap();
        assert!(matches!(e, ClusterError::NoKubeconfig { .. }), "{e}");
        let mut with_server = opts.clone();
        with_server.server = Some("https://127.0.0.1:1".into());
        let c = connect_test(&with_server).await.unwrap();
        assert_eq!(
            (c.server.as_str(), c.namespace.as_str()),
            ("https://127.0.0.1:1", "default")
        );
    }

    #[tokio::test]
    async fn a_kubeconfig_context_without_a_namespace_takes_the_pods_namespace() {
        let d = tempfile::tempdir().unwrap();
        let kc = d.path().join("kc");
        std::fs::write(&kc, KUBECONFIG_A.replace(", namespace: team-a", "")).unwrap();
        let opts = KubeOptions {
            kubeconfig: Some(kc.clone()),
            in_cluster: pod(d.path(), "ns1"),
            ..Default::default()
        };
        let c = connect_test(&opts).await.unwrap();
        assert_eq!(
            (c.server.as_str(), c.namespace.as_str()),
            ("https://127.0.0.1:1", "ns1")
        );
        std::fs::write(&kc, KUBECONFIG_A).unwrap();
        assert_eq!(connect_test(&opts).await.unwrap().namespace, "team-a");
    }

    #[tokio::test]
    async fn default_namespace_comes_from_the_context_and_n_overrides_it() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a");
        std::fs::write(&a, KUBECONFIG_A).unwrap();
        let opts = KubeOptions {
            kubeconfig: Some(a.clone()),
            ..Default::default()
        };
        let c = connect_test(&opts).await.unwrap();
        assert_eq!(c.namespace, "team-a");
        assert_eq!(c.context.as_deref(), Some("a"));
        assert_eq!(c.configured_user.as_deref(), Some("ua"));
        let opts = KubeOptions {
            kubeconfig: Some(a),
            namespace: Some("other".into()),
            ..Default::default()
        };
        assert_eq!(connect_test(&opts).await.unwrap().namespace, "other");
    }

    #[test]
    fn a_fan_out_context_gets_only_its_context_cluster_and_user_and_connects_as_from_the_file() {
        let text = "apiVersion: v1\nkind: Config\ncurrent-context: a\nclusters:\n- name: a\n  cluster: {server: 'https://127.0.0.1:1'}\n- name: b\n  cluster: {server: 'https://127.0.0.1:2'}\n- name: c\n  cluster: {server: 'https://127.0.0.1:3'}\ncontexts:\n- name: a\n  context: {cluster: a, user: ua, namespace: team-a}\n- name: b\n  context: {cluster: b, user: ub, namespace: team-b}\nusers:\n- name: ua\n  user: {token: ta}\n- name: ub\n  user: {token: tb}\n- name: uc\n  user: {token: tc}\n";
        let kc = Kubeconfig::from_yaml(text).unwrap();
        let names = |k: &Kubeconfig| {
            (
                k.contexts
                    .iter()
                    .map(|c| c.name.clone())
                    .collect::<Vec<_>>(),
                k.clusters
                    .iter()
                    .map(|c| c.name.clone())
                    .collect::<Vec<_>>(),
                k.auth_infos
                    .iter()
                    .map(|c| c.name.clone())
                    .collect::<Vec<_>>(),
                k.current_context.clone(),
            )
        };
        let opts = KubeOptions::default();
        assert_eq!(
            names(&for_context(&kc, "b", &opts)),
            (
                vec!["b".to_string()],
                vec!["b".to_string()],
                vec!["ub".to_string()],
                Some("b".to_string())
            )
        );
        // --cluster/--user name other entries: those are kept too.
        let flags = KubeOptions {
            cluster: Some("c".into()),
            user: Some("uc".into()),
            ..KubeOptions::default()
        };
        let (_, clusters, users, _) = names(&for_context(&kc, "a", &flags));
        assert_eq!(
            (clusters, users),
            (
                vec!["a".to_string(), "c".to_string()],
                vec!["ua".to_string(), "uc".to_string()]
            )
        );
        // Connecting from the part is connecting from the file: same server, namespace, context.
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let preloaded = KubeOptions {
            context: Some("b".into()),
            preloaded: Some(std::sync::Arc::new(for_context(&kc, "b", &opts))),
            ..KubeOptions::default()
        };
        let c = rt.block_on(connect_test(&preloaded)).unwrap();
        assert_eq!(
            (
                c.server.as_str(),
                c.namespace.as_str(),
                c.context.as_deref()
            ),
            ("https://127.0.0.1:2", "team-b", Some("b"))
        );
        // A context missing from the file is still reported as missing.
        let missing = KubeOptions {
            context: Some("zz".into()),
            preloaded: Some(std::sync::Arc::new(for_context(&kc, "zz", &opts))),
            ..KubeOptions::default()
        };
        let Err(e) = rt.block_on(connect_test(&missing)) else {
            panic!("a context that is not in the kubeconfig connected");
        };
        assert!(
            matches!(
                e,
                ClusterError::NoSuchEntry {
                    kind: "context",
                    ..
                }
            ),
            "{e}"
        );
    }
}
