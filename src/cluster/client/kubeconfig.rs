//! Reading the kubeconfig as kubectl does: the files merged, the context, cluster and user
//! a connection uses, and the [`Config`] kube-rs builds from them.

use std::path::PathBuf;

use kube::config::{Config, Kubeconfig, KubeconfigError};

use super::error::{ClusterError, safe_message};
use super::files::{check_kubeconfig_file, check_tls_file};
use crate::cluster::options::KubeOptions;

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
    let read = |path: &PathBuf| -> Result<Kubeconfig, ClusterError> {
        // Named by the user (`--kubeconfig`, `$KUBECONFIG`): a FIFO is read once. The default
        // ~/.kube/config is found, not named: a FIFO there is refused as before.
        let kc = if is_fifo(path) && opts.default_kubeconfig.as_ref() != Some(path) {
            read_piped(path, crate::base::deadline::of(opts.request_timeout))?
        } else {
            check_kubeconfig_file(path)?;
            Kubeconfig::read_from(path).map_err(|e| ClusterError::KubeconfigFile {
                path: path.display().to_string(),
                message: match e {
                    KubeconfigError::ReadConfig(io, _) => io.to_string(),
                    other => safe_message(&other),
                },
            })?
        };
        no_duplicate_names(&kc).map_err(|message| ClusterError::KubeconfigFile {
            path: path.display().to_string(),
            message,
        })?;
        Ok(kc)
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

/// Refuses a kubeconfig file with two contexts, clusters or users of one name, as kubectl does
/// (client-go `clientcmd/api/v1` conversion: `duplicate name "admin" in list`): otherwise the
/// first would be used silently and the second, perhaps the one meant, never.
///
/// # Errors
/// The list, the name (escaped and capped) and both positions (the caller adds what to do).
fn no_duplicate_names(kc: &Kubeconfig) -> Result<(), String> {
    let lists: [(&str, Vec<&str>); 3] = [
        (
            "contexts",
            kc.contexts.iter().map(|c| c.name.as_str()).collect(),
        ),
        (
            "clusters",
            kc.clusters.iter().map(|c| c.name.as_str()).collect(),
        ),
        (
            "users",
            kc.auth_infos.iter().map(|u| u.name.as_str()).collect(),
        ),
    ];
    for (list, names) in lists {
        for (j, name) in names.iter().enumerate() {
            if let Some(i) = names[..j].iter().position(|n| n == name) {
                return Err(format!(
                    "duplicate name {} in {list} (entries {} and {})",
                    crate::base::echo::quoted(name),
                    i + 1,
                    j + 1
                ));
            }
        }
    }
    Ok(())
}

/// Whether `path` is a FIFO after resolving links (bash's `--kubeconfig <(…)` is one).
fn is_fifo(path: &std::path::Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| {
        crate::base::fsutil::FileKind::of(&m) == Some(crate::base::fsutil::FileKind::Fifo)
    })
}

/// The kubeconfig in the FIFO `path` the user named (`--kubeconfig <(…)`, a `$KUBECONFIG`
/// entry), read once as kubectl reads it ([`crate::base::fsutil::read_named`]: at most 16 MiB,
/// its writer done within `deadline`). Relative file paths inside stay relative to
/// the working directory: the FIFO's own directory (`/dev/fd`) holds no certificates.
fn read_piped(
    path: &std::path::Path,
    deadline: std::time::Duration,
) -> Result<Kubeconfig, ClusterError> {
    let origin = path.display().to_string();
    let (bytes, _) = crate::base::fsutil::read_named(path, super::files::MAX_KUBECONFIG, deadline)
        .map_err(|e| ClusterError::KubeconfigFile {
            path: origin.clone(),
            message: e.problem.to_string(),
        })?;
    let text = String::from_utf8(bytes).map_err(|_| ClusterError::KubeconfigFile {
        path: origin.clone(),
        message: "not UTF-8 text; save it as UTF-8 YAML".into(),
    })?;
    parse_kubeconfig(&text, &origin)
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

/// Refuses, before kube reads them, the TLS files the chosen context will use — the
/// cluster's `certificate-authority`, the user's `client-certificate` and `client-key` —
/// when one is not a regular file (a FIFO would block the client forever) or is larger than
/// [`super::files::MAX_TLS_FILE`]. Entries of other contexts are not read, as kubectl does not read them.
pub(super) fn check_tls_files(kc: &Kubeconfig, opts: &KubeOptions) -> Result<(), ClusterError> {
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
pub(super) fn chosen_context<'k>(
    kc: &'k Kubeconfig,
    opts: &KubeOptions,
) -> Option<&'k kube::config::Context> {
    opts.context
        .clone()
        .or_else(|| kc.current_context.clone())
        .and_then(|c| kc.contexts.iter().find(|n| n.name == c))
        .and_then(|n| n.context.as_ref())
}

/// The cluster entry in use: `--cluster`, else the chosen context's.
pub(super) fn chosen_cluster<'k>(
    kc: &'k Kubeconfig,
    opts: &KubeOptions,
) -> Option<&'k kube::config::Cluster> {
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

/// The [`Config`] kube-rs's `Config::from_custom_kubeconfig` builds (kube-client 5.0
/// `config/mod.rs` `new_from_loader`, `config/file_loader.rs` `load_from_kubeconfig`), for
/// when only its last step failed: its own NO_PROXY parsing, which refuses what Go accepts
/// (an empty entry from a trailing comma, `*.example.com`). kube got past every other step
/// for this kubeconfig, so the context, cluster and CA are known to be readable.
///
/// # Errors
/// [`ClusterError::ProxyEnvironment`] should one of them not be after all.
pub(super) fn config_without_kube_proxy(
    kc: &Kubeconfig,
    opts: &KubeOptions,
) -> Result<Config, ClusterError> {
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
        config.root_cert = Some(crate::cluster::pem::certificates(&String::from_utf8_lossy(
            &pem,
        )));
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
pub(super) fn kube_proxy_error(e: KubeconfigError, kubeconfig_proxy: Option<&str>) -> ClusterError {
    match (e, kubeconfig_proxy) {
        (KubeconfigError::ParseProxyUrl(_), Some(url)) => {
            ClusterError::Proxy(crate::cluster::proxy::ProxyError::InvalidUrl(
                crate::base::redact::url_without_userinfo(url),
            ))
        }
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
