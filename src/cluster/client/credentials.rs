//! The user's credentials and identity: the authentication and impersonation flags applied
//! over the kubeconfig's values and checked, and every credential registered for redaction.

use kube::config::Config;

use super::error::ClusterError;
use crate::cluster::options::KubeOptions;

/// Applies `--client-certificate`, `--client-key`, `--tls-server-name`, `--as-user-extra`,
/// `--username` and `--password` over the kubeconfig's values, as cli-runtime's
/// `ConfigFlags.toRawKubeConfigLoader` does (a certificate or key flag also drops the
/// kubeconfig's inline `*-data`), then checks what client-go's kubeconfig validation checks
/// (`tools/clientcmd/validation.go`): a certificate needs a key and the other way round;
/// a token and basic authentication together are refused.
///
/// # Errors
/// [`ClusterError::ClientCertPair`], [`ClusterError::TwoAuthMethods`] (usage errors, exit 2).
pub(super) fn apply_auth_flags(
    config: &mut Config,
    opts: &KubeOptions,
) -> Result<(), ClusterError> {
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
pub(super) fn check_impersonation(opts: &KubeOptions) -> Result<(), ClusterError> {
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
                value: crate::base::echo::quoted(v),
            });
        }
    }
    Ok(())
}

/// Registers every credential `config` holds with [`crate::base::redact::remember`], so no message
/// or record can carry one: the bearer token (flag, kubeconfig or token file), the basic-auth
/// password, the client key, and a password in the server URL.
pub(super) fn remember_credentials(config: &Config) {
    use secrecy::ExposeSecret;
    let a = &config.auth_info;
    if let Some(t) = &a.token {
        crate::base::redact::remember(t.expose_secret());
    }
    if let Some(p) = &a.password {
        crate::base::redact::remember(p.expose_secret());
    }
    if let Some(k) = &a.client_key_data {
        crate::base::redact::remember(k.expose_secret());
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
        crate::base::redact::remember(&pw);
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
        crate::base::redact::remember(&pw);
    }
}
