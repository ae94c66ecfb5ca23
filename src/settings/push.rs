//! The Pushgateway target: which gateway, and the credentials and CA read from the files
//! plugin.yaml names.

use std::path::PathBuf;
use std::time::Duration;

use super::SettingsError;
use crate::config::PluginConfig;
use crate::metrics::PushTarget;

/// Resolves the Pushgateway target: `--pushgateway` > `$MYOPS_PUSHGATEWAY` > plugin.yaml.
/// Job, instance, timeout, credentials and CA come from plugin.yaml (defaults when absent);
/// a bearer token from `bearerTokenFile`, else `$MYOPS_PUSHGATEWAY_TOKEN` — never a flag,
/// whose value would show in `ps`.
pub(super) fn push_target(
    plugin: &PluginConfig,
    flag: Option<&str>,
    env: Option<&str>,
    env_token: Option<&str>,
) -> Result<Option<PushTarget>, SettingsError> {
    let pg = plugin.pushgateway.as_ref();
    let Some(base) = flag
        .or(env)
        .map(str::to_string)
        .or_else(|| pg.map(|p| p.url.clone()))
    else {
        return Ok(None);
    };
    if plugin.pushgateway.as_ref().is_none_or(|p| p.url != base) {
        let what = if flag.is_some() {
            "--pushgateway"
        } else {
            "$MYOPS_PUSHGATEWAY"
        };
        if let Some(msg) = crate::metrics::base_url_problem(what, &base) {
            return Err(SettingsError::PushgatewayUrl(msg));
        }
    }
    let job = pg
        .map(|p| p.job.clone())
        .unwrap_or_else(|| "kubectl-myops".to_string());
    let instance = pg
        .and_then(|p| p.instance.clone())
        .unwrap_or_else(crate::metrics::instance_default);
    let timeout = pg.map(|p| p.timeout).unwrap_or(Duration::from_secs(1));
    let basic_auth = match pg.and_then(|p| p.basic_auth.as_ref()) {
        None => None,
        Some(b) => {
            // A regular file of at most 64 KiB: a FIFO or device here must not hang every command.
            let pw =
                crate::base::fsutil::read_regular(&b.password_file, 64 * 1024).map_err(|e| {
                    SettingsError::PasswordFile {
                        path: b.password_file.clone(),
                        source: e.into(),
                    }
                })?;
            Some((
                b.username.clone(),
                String::from_utf8_lossy(&pw)
                    .trim_end_matches(['\n', '\r'])
                    .to_string(),
            ))
        }
    };
    let read = |path: &PathBuf| {
        crate::base::fsutil::read_regular(path, 1024 * 1024).map_err(|e| {
            SettingsError::PasswordFile {
                path: path.clone(),
                source: e.into(),
            }
        })
    };
    let bearer_token = match pg.and_then(|p| p.bearer_token_file.as_ref()) {
        Some(f) => Some(
            String::from_utf8_lossy(&read(f)?)
                .trim_end_matches(['\n', '\r'])
                .to_string(),
        ),
        None => env_token.map(str::to_string),
    };
    let ca_pem = pg.and_then(|p| p.ca_file.as_ref()).map(read).transpose()?;
    let target = PushTarget {
        url: crate::metrics::push_url(&base, &job, &instance),
        timeout,
        basic_auth,
        bearer_token,
        ca_pem,
    };
    target.register_secrets();
    Ok(Some(target))
}
