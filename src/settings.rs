//! Settings resolved once from flags, environment and plugin.yaml, then immutable.
//!
//! Precedence (written down, as uv does): flag > environment > plugin.yaml > default.
//! Verbs read only [`Settings`], never clap types or environment variables.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::cli::GlobalArgs;
use crate::config::{self, ConfigError, ConfigSource, PluginConfig, duration_string};
use crate::metrics::PushTarget;

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
}

/// Everything a command needs to know, resolved once.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The plugin boundary.
    pub plugin: PluginConfig,
    /// Where [`Settings::plugin`] came from.
    pub config_source: ConfigSource,
    /// `$MYOPS_HOME` (default `~/.kube/myops`): metrics state, CRD registry, change log.
    pub home: PathBuf,
    /// The user's home directory (`$HOME`), if known.
    pub user_home: Option<PathBuf>,
    /// Cluster connection options.
    pub kube: KubeOptions,
    /// Where to push metrics; `None` = record locally only.
    pub push_target: Option<PushTarget>,
    /// `-v` count.
    pub verbose: u8,
}

/// The environment variables settings read, captured once so resolution is a pure function.
#[derive(Debug, Clone, Default)]
pub struct Env {
    /// `$HOME`.
    pub home: Option<PathBuf>,
    /// `$MYOPS_HOME`.
    pub myops_home: Option<PathBuf>,
    /// `$MYOPS_CONFIG`.
    pub myops_config: Option<PathBuf>,
    /// `$MYOPS_PUSHGATEWAY`.
    pub myops_pushgateway: Option<String>,
    /// `$MYOPS_PUSHGATEWAY_TOKEN`: a bearer token for the gateway (kept out of `ps` output).
    pub myops_pushgateway_token: Option<String>,
    /// `$KUBECONFIG`.
    pub kubeconfig: Option<String>,
    /// The running executable (for plugin.yaml next to it).
    pub exe: Option<PathBuf>,
}

impl Env {
    /// Reads the process environment.
    pub fn from_process() -> Env {
        let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
        Env {
            home: var("HOME").map(PathBuf::from),
            myops_home: var("MYOPS_HOME").map(PathBuf::from),
            myops_config: var("MYOPS_CONFIG").map(PathBuf::from),
            myops_pushgateway: var("MYOPS_PUSHGATEWAY").and_then(|v| v.into_string().ok()),
            myops_pushgateway_token: var("MYOPS_PUSHGATEWAY_TOKEN")
                .and_then(|v| v.into_string().ok()),
            kubeconfig: var("KUBECONFIG").and_then(|v| v.into_string().ok()),
            exe: std::env::current_exe().ok(),
        }
    }
}

/// Why settings could not be resolved.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    /// plugin.yaml is missing, unreadable or invalid.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// `--request-timeout` is not a duration.
    #[error("--request-timeout: {0}")]
    RequestTimeout(String),
    /// The Pushgateway password file could not be read.
    #[error(
        "cannot read the Pushgateway password file {path}: {source}; fix pushgateway.basicAuth.passwordFile in plugin.yaml"
    )]
    PasswordFile {
        /// The file named in plugin.yaml.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
}

impl Settings {
    /// Resolves settings from the global flags and the captured environment.
    ///
    /// # Errors
    /// [`SettingsError`] when plugin.yaml is invalid, `--request-timeout` is malformed or
    /// the Pushgateway password file is unreadable; all are usage errors (exit 2).
    pub fn resolve(g: &GlobalArgs, env: &Env) -> Result<Settings, SettingsError> {
        let user_home = env.home.clone();
        let source = config::locate(
            g.config.as_deref(),
            env.myops_config.as_deref(),
            user_home.as_deref(),
            env.exe.as_deref(),
        );
        let plugin = config::load_source(&source)?;
        let home = env
            .myops_home
            .clone()
            .or_else(|| user_home.as_ref().map(|h| h.join(".kube").join("myops")))
            .unwrap_or_else(|| PathBuf::from(".kube/myops"));
        let request_timeout = match &g.request_timeout {
            None => None,
            Some(t) => {
                let d = duration_string::parse_go(t).map_err(SettingsError::RequestTimeout)?;
                (!d.is_zero()).then_some(d)
            }
        };
        let kube = KubeOptions {
            kubeconfig: g.kubeconfig.clone(),
            kubeconfig_env: split_kubeconfig(env.kubeconfig.as_deref()),
            default_kubeconfig: user_home.as_ref().map(|h| h.join(".kube").join("config")),
            context: g.context.clone(),
            cluster: g.cluster.clone(),
            user: g.user.clone(),
            namespace: g.namespace.clone(),
            as_user: g.as_user.clone(),
            as_groups: g.as_group.clone(),
            as_uid: g.as_uid.clone(),
            request_timeout,
            server: g.server.clone(),
            token: g.token.clone(),
            insecure_skip_tls_verify: g.insecure_skip_tls_verify,
            certificate_authority: g.certificate_authority.clone(),
        };
        let push_target = push_target(
            &plugin,
            g.pushgateway.as_deref(),
            env.myops_pushgateway.as_deref(),
            env.myops_pushgateway_token.as_deref(),
        )?;
        Ok(Settings {
            plugin,
            config_source: source,
            home,
            user_home,
            kube,
            push_target,
            verbose: g.verbose,
        })
    }

    /// The CRD directory: `dir` if given, else plugin.yaml `crdDir`, else `~/.kube/plugins/crds`.
    pub fn crd_dir(&self, dir: Option<&Path>) -> PathBuf {
        let raw = dir
            .map(Path::to_path_buf)
            .or_else(|| self.plugin.crd_dir.clone())
            .unwrap_or_else(|| PathBuf::from("~/.kube/plugins/crds"));
        config::expand_tilde(&raw, self.user_home.as_deref())
    }
}

/// Splits `$KUBECONFIG` on `:` (kubectl's list separator on Unix), dropping empty entries.
pub fn split_kubeconfig(value: Option<&str>) -> Vec<PathBuf> {
    value
        .map(|v| {
            v.split(':')
                .filter(|p| !p.is_empty())
                .map(PathBuf::from)
                .collect()
        })
        .unwrap_or_default()
}

/// Resolves the Pushgateway target: `--pushgateway` > `$MYOPS_PUSHGATEWAY` > plugin.yaml.
/// Job, instance, timeout, credentials and CA come from plugin.yaml (defaults when absent);
/// a bearer token from `bearerTokenFile`, else `$MYOPS_PUSHGATEWAY_TOKEN` — never a flag,
/// whose value would show in `ps`.
fn push_target(
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
            let pw = std::fs::read_to_string(&b.password_file).map_err(|source| {
                SettingsError::PasswordFile {
                    path: b.password_file.clone(),
                    source,
                }
            })?;
            Some((
                b.username.clone(),
                pw.trim_end_matches(['\n', '\r']).to_string(),
            ))
        }
    };
    let read = |path: &PathBuf| {
        std::fs::read(path).map_err(|source| SettingsError::PasswordFile {
            path: path.clone(),
            source,
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
    Ok(Some(PushTarget {
        url: crate::metrics::push_url(&base, &job, &instance),
        timeout,
        basic_auth,
        bearer_token,
        ca_pem,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kubeconfig_list_splits_on_colon_and_drops_empty_entries() {
        assert_eq!(
            split_kubeconfig(Some("/a/config::/b/config:")),
            vec![PathBuf::from("/a/config"), PathBuf::from("/b/config")]
        );
        assert!(split_kubeconfig(None).is_empty());
    }

    #[test]
    fn pushgateway_flag_beats_env_beats_plugin_yaml() {
        let mut plugin = config::builtin();
        assert!(
            push_target(&plugin, None, None, None).unwrap().is_none(),
            "no URL anywhere: local only"
        );
        plugin.pushgateway = Some(crate::config::PushgatewayConfig {
            url: "http://127.0.0.1:9091".into(),
            job: "kubectl-myops".into(),
            instance: None,
            timeout: Duration::from_millis(1500),
            basic_auth: None,
            bearer_token_file: None,
            ca_file: None,
        });
        let t = push_target(&plugin, Some("http://flag:1"), Some("http://env:2"), None)
            .unwrap()
            .unwrap();
        assert!(
            t.url
                .starts_with("http://flag:1/metrics/job/kubectl-myops/instance/"),
            "{}",
            t.url
        );
        let t = push_target(&plugin, None, Some("http://env:2"), None)
            .unwrap()
            .unwrap();
        assert!(t.url.starts_with("http://env:2/metrics/job/"), "{}", t.url);
        let t = push_target(&plugin, None, None, None).unwrap().unwrap();
        assert!(
            t.url.starts_with("http://127.0.0.1:9091/metrics/job/"),
            "{}",
            t.url
        );
        assert_eq!(t.timeout, Duration::from_millis(1500));
    }

    #[test]
    fn bearer_token_comes_from_the_file_else_the_environment_and_the_ca_file_is_read() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("token"), "t0ken-from-file\n").unwrap();
        std::fs::write(dir.path().join("ca.pem"), "-----BEGIN CERTIFICATE-----\n").unwrap();
        let mut plugin = config::builtin();
        plugin.pushgateway = Some(crate::config::PushgatewayConfig {
            url: "https://gw:9091".into(),
            job: "j".into(),
            instance: Some("i".into()),
            timeout: Duration::from_secs(1),
            basic_auth: None,
            bearer_token_file: None,
            ca_file: None,
        });
        let t = push_target(&plugin, None, None, Some("t0ken-from-env"))
            .unwrap()
            .unwrap();
        assert_eq!(t.bearer_token.as_deref(), Some("t0ken-from-env"));
        assert!(
            !format!("{t:?}").contains("t0ken"),
            "Debug must not show the token"
        );
        let pg = plugin.pushgateway.as_mut().unwrap();
        pg.bearer_token_file = Some(dir.path().join("token"));
        pg.ca_file = Some(dir.path().join("ca.pem"));
        let t = push_target(&plugin, None, None, Some("t0ken-from-env"))
            .unwrap()
            .unwrap();
        assert_eq!(t.bearer_token.as_deref(), Some("t0ken-from-file"));
        assert_eq!(
            t.ca_pem.as_deref(),
            Some(&b"-----BEGIN CERTIFICATE-----\n"[..])
        );
        plugin.pushgateway.as_mut().unwrap().ca_file = Some(dir.path().join("missing.pem"));
        let e = push_target(&plugin, None, None, None).unwrap_err();
        assert!(e.to_string().contains("missing.pem"), "{e}");
    }
}
