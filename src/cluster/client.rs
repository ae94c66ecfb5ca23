//! Builds a kube [`Client`] the way kubectl would from its flags and kubeconfig files.
//!
//! Differences from kube-rs defaults, on purpose:
//! - a `KUBECONFIG` list skips missing files, as kubectl does (kube-rs errors);
//! - `--as`, `--as-group`, `--as-uid` become impersonation headers, and the identity asked
//!   for (from flags or the kubeconfig's `as*`) is kept in [`Cluster::impersonation`] so the
//!   guarded path can verify that the server applied it;
//! - an exec credential plugin runs once per process for its exec configuration, shared by
//!   every request and context (client-go's cache; kube-rs runs it twice per client), bounded
//!   by `deadline` unless it is interactive on a terminal ([`super::exec_plugin`]);
//! - every request carries the invocation's session id and command path, as kubectl ≥ 1.35
//!   does with its `Kubectl-Session` and `Kubectl-Command` headers (KEP-859), and both in the
//!   `User-Agent` (`kubectl-myops/<version> (myops patch) session/<id>`; kube-rs sends none)
//!   — the apiserver's audit log records the User-Agent but no other header, so its events
//!   name the command and join to the change log's `session`.
//! - with no kubeconfig file and no flag naming a server, context, cluster or user, a pod's
//!   service account is used, as client-go's in-cluster fallback does
//!   ([`super::in_cluster`]); unlike kubectl, which drops `--as` and the TLS flags there,
//!   every connection flag still applies;
//! - connections have `TCP_NODELAY` on, as kubectl's do (kube-rs leaves Nagle's algorithm on,
//!   so each new connection waits ~40 ms for a delayed ACK): see [`super::connector`].

//!
//! [`connect`] is a sequence of named steps; the submodules hold the pieces: `error` (why a
//! client cannot be built), `kubeconfig` (reading and choosing from the kubeconfig), `files`
//! (the files checked before kube-rs reads them), `credentials` (the authentication and
//! impersonation flags, and redaction of every credential) and `headers` (the session,
//! command and reason headers every request carries).

use kube::Client;
use kube::config::{Config, KubeConfigOptions, Kubeconfig, KubeconfigError};

use super::kuberc::Policy;
use super::options::KubeOptions;

mod credentials;
mod error;
mod files;
mod headers;
mod kubeconfig;
#[cfg(test)]
mod tests;

use credentials::{apply_auth_flags, check_impersonation, remember_credentials};
pub use error::ClusterError;
use error::client_error;
use files::{check_tls_file, read_token_file};
use headers::add_session_headers;
pub use headers::{command_header, reason_header, user_agent};
use kubeconfig::{
    check_tls_files, chosen_cluster, chosen_context, config_without_kube_proxy, kube_proxy_error,
};
pub use kubeconfig::{for_context, load_kubeconfig, parse_kubeconfig};

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
    /// Whether the client came from the pod's service account (in-cluster configuration),
    /// not from a kubeconfig or `--server`.
    pub in_cluster: bool,
    /// The default kuberc's `warning: kuberc: no preferences loaded from …` line, to print
    /// once ([`super::kuberc::load`]).
    pub kuberc_warning: Option<String>,
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
    /// Where the impersonation comes from, so a message says how to undo it.
    pub from: ImpersonationFrom,
}

/// Where an [`Impersonation`] comes from: `--as` wins over the kubeconfig's `as:` (cli-runtime
/// `ConfigFlags`, the flag overrides the loaded `AuthInfo.Impersonate`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum ImpersonationFrom {
    /// `--as` (with `--as-group`, `--as-uid`, `--as-user-extra`).
    #[default]
    Flags,
    /// The `as:` of this kubeconfig user (`None`: the user has no name we know).
    Kubeconfig(Option<String>),
}

impl ImpersonationFrom {
    /// Where it comes from, for a message: `--as`, or ``as:` of the kubeconfig user "bob"``.
    pub fn source(&self) -> String {
        match self {
            ImpersonationFrom::Flags => "--as".into(),
            ImpersonationFrom::Kubeconfig(Some(u)) => {
                format!(
                    "`as:` of the kubeconfig user {}",
                    crate::base::echo::quoted(u)
                )
            }
            ImpersonationFrom::Kubeconfig(None) => "`as:` of the kubeconfig user".into(),
        }
    }

    /// How to stop impersonating: `drop --as`, or remove `as:` from the kubeconfig user.
    pub fn undo(&self) -> String {
        match self {
            ImpersonationFrom::Flags => "drop --as".into(),
            ImpersonationFrom::Kubeconfig(_) => format!(
                "remove {} (or use another context)",
                self.source().replacen(" of ", " from ", 1)
            ),
        }
    }
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

/// The proxy kube-rs's client will dial for this process, without userinfo, recorded by
/// [`connect`] so a transport error can name it ([`super::errors::ApiError::from_kube`]).
/// One process talks to one cluster, so the first value stays.
static PROXY_IN_USE: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// The proxy this process's client goes through (without userinfo), if any.
pub fn proxy_in_use() -> Option<&'static str> {
    PROXY_IN_USE.get().map(String::as_str)
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
    check_flags(opts)?;
    let kubeconfig = load_kubeconfig(opts)?;
    if let Some(kc) = &kubeconfig {
        check_entries_exist(kc, opts)?;
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
    let mut plugin_policy = super::kuberc::load(&opts.kuberc, deadline)?;
    let kuberc_warning = plugin_policy.warning.take();
    // The cluster's `proxy-url`, read before kube consumes the kubeconfig (kube's own proxy
    // choice is replaced in `choose_proxy`: see super::proxy).
    let kubeconfig_proxy = kubeconfig
        .as_ref()
        .and_then(|kc| chosen_cluster(kc, opts))
        .and_then(|c| c.proxy_url.clone())
        .filter(|u| !u.is_empty());
    let in_cluster = kubeconfig.is_none() && in_cluster_applies(opts);
    let base = match kubeconfig {
        Some(kc) => from_kubeconfig(kc, opts, kubeconfig_proxy.as_deref()).await?,
        None if in_cluster_applies(opts) => {
            let ic = super::in_cluster::config(&opts.in_cluster)?;
            Base {
                config: ic.config,
                context: None,
                user: ic.subject,
                rotating_token: ic.rotating,
            }
        }
        None => from_server_flag(opts)?,
    };
    let mut config = base.config;
    apply_flags(&mut config, opts, base.rotating_token)?;
    add_session_headers(&mut config, session, opts.command.as_deref())?;
    if let Some(reason) = &opts.reason {
        config.headers.push(reason_header(reason));
    }
    let from = if opts.as_user.is_some() {
        ImpersonationFrom::Flags
    } else {
        ImpersonationFrom::Kubeconfig(opts.user.clone().or_else(|| base.user.clone()))
    };
    let impersonation = impersonation(&config, from);
    let proxy = choose_proxy(&mut config, kubeconfig_proxy.as_deref())?;
    let namespace = config.default_namespace.clone();
    remember_credentials(&config);
    let server = crate::base::redact::url_without_userinfo(
        config.cluster_url.to_string().trim_end_matches('/'),
    );
    let configured_user = opts.as_user.clone().or(base.user);
    let client = build_client(config, &plugin_policy, opts, deadline).await?;
    Ok(Cluster {
        client,
        namespace,
        context: base.context,
        server,
        configured_user,
        impersonation,
        proxy,
        in_cluster,
        kuberc_warning,
    })
}

/// The configuration [`connect`] starts from, before the flags are applied over it.
struct Base {
    /// kube-rs's configuration from the kubeconfig, the pod or `--server`.
    config: Config,
    /// The kubeconfig context in use, if any.
    context: Option<String>,
    /// The user to name in messages: the context's user, or the service account.
    user: Option<String>,
    /// Whether kube-rs must keep re-reading the token file (the in-cluster token rotates).
    rotating_token: bool,
}

/// Refuses the flag combinations kubectl refuses before reading any file: `--as-group`,
/// `--as-uid` or `--as-user-extra` without `--as`, and a `-n` that is not a namespace name.
fn check_flags(opts: &KubeOptions) -> Result<(), ClusterError> {
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
    Ok(())
}

/// [`ClusterError::NoSuchEntry`] when `--context`, `--cluster` or `--user` (checked in
/// that order) names an entry `kc` does not have.
fn check_entries_exist(kc: &Kubeconfig, opts: &KubeOptions) -> Result<(), ClusterError> {
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
    )
}

/// Whether the pod's service account is used: no kubeconfig (the caller checked), nothing
/// naming a server, context, cluster or user, and in-cluster configuration possible
/// (client-go's in-cluster fallback; see super::in_cluster for the rules).
fn in_cluster_applies(opts: &KubeOptions) -> bool {
    opts.server.is_none()
        && opts.context.is_none()
        && opts.cluster.is_none()
        && opts.user.is_none()
        && opts.in_cluster.possible()
}

/// The configuration kube-rs builds from the kubeconfig `kc` for the chosen context.
async fn from_kubeconfig(
    kc: Kubeconfig,
    opts: &KubeOptions,
    kubeconfig_proxy: Option<&str>,
) -> Result<Base, ClusterError> {
    let options = KubeConfigOptions {
        context: opts.context.clone(),
        cluster: opts.cluster.clone(),
        user: opts.user.clone(),
    };
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
        // kube-rs parses NO_PROXY strictly, last, whenever it sees a proxy; the proxy is
        // chosen in `choose_proxy` anyway, so build the same Config without it.
        Err(KubeconfigError::ParseNoProxy(_)) => config_without_kube_proxy(&kc, opts)?,
        other => other.map_err(|e| kube_proxy_error(e, kubeconfig_proxy))?,
    };
    if let Some(ns) = pod_namespace {
        config.default_namespace = ns;
    }
    Ok(Base {
        config,
        context,
        user: user.flatten(),
        rotating_token: false,
    })
}

/// With no kubeconfig and no service account: the configuration for `--server` alone.
///
/// # Errors
/// [`ClusterError::NoKubeconfig`] naming the paths looked at when `--server` is not given;
/// [`ClusterError::Server`] when it is not a URL.
fn from_server_flag(opts: &KubeOptions) -> Result<Base, ClusterError> {
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
    Ok(Base {
        config: Config::new(uri),
        context: None,
        user: None,
        rotating_token: false,
    })
}

/// Applies the connection flags over `config`: `--server`, `-n`, `--token` (else the token
/// file, read once), `--insecure-skip-tls-verify`, `--certificate-authority`, the
/// authentication flags, `--as*` and `--request-timeout`.
fn apply_flags(
    config: &mut Config,
    opts: &KubeOptions,
    rotating_token: bool,
) -> Result<(), ClusterError> {
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
    apply_auth_flags(config, opts)?;
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
    } else {
        // kube-rs's own connect timeout (30 s) would end a connection's wait — a proxy's
        // CONNECT, a TLS handshake — 2 s before the request deadline that the message names;
        // one timer, the deadline, so what is said is what happened.
        config.connect_timeout = Some(crate::base::deadline::DEFAULT);
    }
    Ok(())
}

/// The identity `config` asks the server to impersonate, `None` without `impersonate`;
/// `from` says whether the flags or the kubeconfig user asked for it.
fn impersonation(config: &Config, from: ImpersonationFrom) -> Option<Impersonation> {
    config
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
            from,
        })
}

/// Sets `config.proxy_url` to the proxy [`super::proxy::choose`] picks (replacing kube's
/// own choice), records it for [`proxy_in_use`], and returns it without userinfo.
fn choose_proxy(
    config: &mut Config,
    kubeconfig_proxy: Option<&str>,
) -> Result<Option<String>, ClusterError> {
    config.proxy_url = super::proxy::choose(
        &config.cluster_url,
        kubeconfig_proxy,
        &super::proxy::ProxyEnv::from_process(),
    )?;
    let proxy = config
        .proxy_url
        .as_ref()
        .map(|u| crate::base::redact::url_without_userinfo(u.to_string().trim_end_matches('/')));
    if let Some(p) = &proxy {
        let _ = PROXY_IN_USE.set(p.clone());
    }
    Ok(proxy)
}

/// Builds the client from `config`. A user's exec credential plugin runs first, once per
/// process for its exec configuration ([`super::exec_plugin::shared`]): bounded by `deadline`
/// unless it is interactive on a terminal (then by the user), its client certificate put
/// in `config` and its token sent by [`super::exec_plugin::BearerLayer`], which asks it again
/// when the token expires. kube-rs never sees the plugin (it would run it twice per client).
///
/// # Errors
/// [`ClusterError::Kuberc`] when the kuberc's credential plugin policy denies the plugin
/// (kubectl 1.35+ `credentialPluginPolicy`: it is then never started);
/// [`ClusterError::CredentialTimeout`] after the deadline, the plugin's process group killed;
/// [`ClusterError::CredentialPlugin`] when it fails; kube's failure otherwise.
async fn build_client(
    mut config: Config,
    plugin_policy: &Policy,
    opts: &KubeOptions,
    deadline: std::time::Duration,
) -> Result<Client, ClusterError> {
    use super::exec_plugin as plugin;
    let mut bearer = None;
    if let Some(exec) = config.auth_info.exec.take() {
        let program = exec.command.clone().unwrap_or_default();
        super::kuberc::check_plugin(plugin_policy, &program, &opts.path_env)?;
        let stdin_terminal = std::io::IsTerminal::is_terminal(&std::io::stdin());
        let failed = |e: plugin::PluginError| match e {
            plugin::PluginError::Timeout(d) => ClusterError::CredentialTimeout(d),
            e => ClusterError::CredentialPlugin {
                program: program.clone(),
                problem: e.to_string(),
            },
        };
        let interactive =
            plugin::interactive(exec.interactive_mode.as_ref(), stdin_terminal).map_err(failed)?;
        let shared = plugin::shared(&exec, interactive, plugin::bound(interactive, deadline));
        let cred = shared.get().await.map_err(failed)?;
        if let Some((cert, key)) = &cred.client_pair {
            use base64::Engine;
            let b64 = base64::engine::general_purpose::STANDARD;
            config.auth_info.client_certificate_data = Some(b64.encode(cert));
            config.auth_info.client_key_data = Some(b64.encode(key).into());
        }
        if cred.token.is_some() {
            bearer = Some(plugin::BearerLayer(shared));
        }
    }
    super::connector::build_client(config, bearer).map_err(|e| client_error(e, ""))
}
