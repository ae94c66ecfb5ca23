//! Settings resolved once from flags, environment and plugin.yaml, then immutable.
//!
//! Precedence (written down, as uv does): flag > environment > plugin.yaml > default.
//! Verbs read only [`Settings`], never clap types or environment variables.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::cli::GlobalArgs;
use crate::config::{self, ConfigError, ConfigSource, PluginConfig, duration_string};
use crate::metrics::PushTarget;

pub use crate::cluster::KubeOptions;

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
    /// Aggregated discovery shared by the sessions of one fan-out, per API server URL
    /// ([`crate::cluster::discovery_cache::SharedIndex`]): contexts on one server revalidate
    /// and parse it once per invocation, not once each. `None` = each session fetches its own.
    pub shared_discovery: Option<std::sync::Arc<crate::cluster::discovery_cache::SharedIndex>>,
    /// The session id every [`crate::guard::Session`] opened with these settings uses
    /// (sent on every request, written on every change-log record); `None` = a new id per
    /// session. A fan-out over contexts ([`crate::fleet`]) sets it once, so all journal
    /// entries of one invocation share one session id (ARCHITECTURE §7).
    pub session_id: Option<String>,
    /// Whether stderr is a terminal ([`Env::stderr_is_terminal`]): `crds sync` then draws a
    /// progress line.
    pub stderr_is_terminal: bool,
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
    /// `$KUBERC` (`off` disables the kuberc).
    pub kuberc: Option<String>,
    /// `$PATH`.
    pub path: Option<String>,
    /// The running executable (for plugin.yaml next to it).
    pub exe: Option<PathBuf>,
    /// `$KUBERNETES_SERVICE_HOST`, `$KUBERNETES_SERVICE_PORT`, `$POD_NAMESPACE` and the
    /// service-account directory, for the in-cluster configuration.
    pub in_cluster: crate::cluster::in_cluster::InClusterEnv,
    /// Whether stderr is a terminal (a fan-out over contexts then shows a progress line).
    pub stderr_is_terminal: bool,
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
            kuberc: var("KUBERC").and_then(|v| v.into_string().ok()),
            path: var("PATH").and_then(|v| v.into_string().ok()),
            exe: std::env::current_exe().ok(),
            in_cluster: crate::cluster::in_cluster::InClusterEnv::from_process(),
            stderr_is_terminal: std::io::IsTerminal::is_terminal(&std::io::stderr()),
        }
    }
}

/// Why settings could not be resolved.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    /// plugin.yaml is missing, unreadable or invalid.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// `--request-timeout` is not a duration, or is longer than a Go client can express.
    #[error("--request-timeout: {0}")]
    RequestTimeout(String),
    /// `-n/--namespace` is not a DNS label (a usage error before any request).
    #[error("{0}")]
    Namespace(String),
    /// `--as-user-extra` is not `KEY=VALUE`.
    #[error(
        "--as-user-extra {0} is not KEY=VALUE; pass one extra per flag, e.g. --as-user-extra scopes=view (repeat the flag for more values)"
    )]
    UserExtra(String),
    /// The kuberc cannot be chosen (`KUBERC=off` with `--kuberc`).
    #[error(transparent)]
    Kuberc(#[from] crate::cluster::kuberc::KubercError),
    /// Neither `$MYOPS_HOME` nor `$HOME` is set: there is no fixed place for the change log
    /// and the metrics state.
    #[error(
        "neither MYOPS_HOME nor HOME is set, so there is no fixed place for the change log and metrics; set MYOPS_HOME to a directory of yours"
    )]
    NoHome,
    /// `--pushgateway` or `$MYOPS_PUSHGATEWAY` cannot be a Pushgateway base URL
    /// ([`crate::metrics::base_url_problem`] says why).
    #[error("{0}")]
    PushgatewayUrl(String),
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
    /// A kubectl connection flag given as an empty string (`--token ''`, `--user ''`,
    /// `--context ''`, `-s ''`, `--as ''`, `-n ''`, `--kubeconfig ''`, …) is treated as not
    /// given, as kubectl does (client-go clientcmd: an empty override is no override); our own
    /// `--config ''` and `--pushgateway ''` too. `--as-group ''` is an (empty) group, as in
    /// kubectl.
    ///
    /// # Errors
    /// [`SettingsError`] when plugin.yaml is invalid, `--request-timeout` is malformed or
    /// too long, `-n` is not a DNS label, or the Pushgateway password file is unreadable; all
    /// are usage errors (exit 2).
    pub fn resolve(g: &GlobalArgs, env: &Env) -> Result<Settings, SettingsError> {
        let g = &without_empty_overrides(g);
        if let Some(ns) = &g.namespace {
            crate::validate::check_namespace(ns).map_err(SettingsError::Namespace)?;
        }
        let user_home = env.home.clone();
        let source = config::locate(
            g.config.as_deref(),
            env.myops_config.as_deref(),
            user_home.as_deref(),
            env.exe.as_deref(),
        );
        let plugin = config::load_source(&source)?;
        // Never a path relative to wherever the command happens to run: a change log there
        // could not be found (listed, rolled back) from anywhere else.
        let home = env
            .myops_home
            .clone()
            .or_else(|| user_home.as_ref().map(|h| h.join(".kube").join("myops")))
            .ok_or(SettingsError::NoHome)?;
        let home = std::path::absolute(&home).unwrap_or(home);
        let request_timeout = match &g.request_timeout {
            None => None,
            Some(t) => request_timeout(t)?,
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
            client_certificate: g.client_certificate.clone(),
            client_key: g.client_key.clone(),
            tls_server_name: g.tls_server_name.clone(),
            as_user_extra: user_extras(&g.as_user_extra)?,
            username: g.username.clone(),
            password: g.password.clone(),
            kuberc: crate::cluster::kuberc::locate(
                g.kuberc.as_deref(),
                env.kuberc.as_deref(),
                user_home.as_deref(),
            )?,
            path_env: env.path.clone().unwrap_or_default(),
            in_cluster: env.in_cluster.clone(),
            preloaded: None,
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
            session_id: None,
            shared_discovery: None,
            stderr_is_terminal: env.stderr_is_terminal,
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

/// The longest `--request-timeout`: Go's `time.Duration` maximum (2⁶³−1 ns, about 292
/// years), the longest timeout kubectl can be given; a longer one would overflow the
/// deadline arithmetic.
pub const MAX_REQUEST_TIMEOUT: Duration = Duration::from_nanos(i64::MAX as u64);

/// Parses `--request-timeout` (seconds or a Go duration; 0 = the defaults, `None`).
///
/// # Errors
/// [`SettingsError::RequestTimeout`] for text that is not a duration (the parser echoes it
/// escaped and capped) or a duration over [`MAX_REQUEST_TIMEOUT`].
pub fn request_timeout(t: &str) -> Result<Option<Duration>, SettingsError> {
    let d = duration_string::parse_go(t).map_err(SettingsError::RequestTimeout)?;
    if d > MAX_REQUEST_TIMEOUT {
        return Err(SettingsError::RequestTimeout(format!(
            "{} is longer than {}, the longest duration Go's time.Duration (and so kubectl) can express; use 0 for the defaults",
            crate::echo::quoted(t),
            duration_string::format(MAX_REQUEST_TIMEOUT)
        )));
    }
    Ok((!d.is_zero()).then_some(d))
}

/// Groups `--as-user-extra KEY=VALUE` values by key, values in the order given, as
/// cli-runtime's `ConfigFlags` does (`genericclioptions/config_flags.go`); the value may
/// hold `=` (split at the first). An empty list is no extra.
///
/// # Errors
/// [`SettingsError::UserExtra`] for an entry without `=` or with an empty key. kubectl skips
/// such an entry silently; an impersonation left out without a word would make the request
/// as someone else than asked for, so this is a usage error here (intended difference).
pub fn user_extras(
    raw: &[String],
) -> Result<std::collections::BTreeMap<String, Vec<String>>, SettingsError> {
    let mut out = std::collections::BTreeMap::<String, Vec<String>>::new();
    for e in raw {
        match e.split_once('=') {
            Some((k, v)) if !k.is_empty() => out.entry(k.to_string()).or_default().push(v.into()),
            _ => return Err(SettingsError::UserExtra(crate::echo::quoted(e))),
        }
    }
    Ok(out)
}

/// `g` with every single-valued override that is an empty string set to `None`: kubectl
/// treats `--token ''` (and `--user`, `--cluster`, `--context`, `--server`, `--as`,
/// `--as-uid`, `--namespace`, `--kubeconfig`, `--certificate-authority`,
/// `--client-certificate`, `--client-key`, `--tls-server-name`, `--username`, `--password`,
/// `--kuberc`, `--request-timeout`) as not given, so the kubeconfig's value applies (checked against
/// kubectl 1.36 with `-v8`). `--as-group` is a list in kubectl too and keeps its empty
/// entries.
pub fn without_empty_overrides(g: &GlobalArgs) -> GlobalArgs {
    let s = |v: &Option<String>| v.clone().filter(|x| !x.is_empty());
    let p = |v: &Option<PathBuf>| v.clone().filter(|x| !x.as_os_str().is_empty());
    GlobalArgs {
        kubeconfig: p(&g.kubeconfig),
        context: s(&g.context),
        contexts: g.contexts.clone(),
        all_contexts: g.all_contexts,
        max_parallel: g.max_parallel,
        cluster: s(&g.cluster),
        user: s(&g.user),
        namespace: s(&g.namespace),
        as_user: s(&g.as_user),
        as_group: g.as_group.clone(),
        as_uid: s(&g.as_uid),
        request_timeout: s(&g.request_timeout),
        server: s(&g.server),
        token: s(&g.token),
        insecure_skip_tls_verify: g.insecure_skip_tls_verify,
        certificate_authority: p(&g.certificate_authority),
        client_certificate: p(&g.client_certificate),
        client_key: p(&g.client_key),
        tls_server_name: s(&g.tls_server_name),
        as_user_extra: g.as_user_extra.clone(),
        username: s(&g.username),
        password: s(&g.password),
        kuberc: p(&g.kuberc),
        config: p(&g.config),
        pushgateway: s(&g.pushgateway),
        verbose: g.verbose,
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
            let pw = crate::fsutil::read_regular(&b.password_file, 64 * 1024).map_err(|e| {
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
        crate::fsutil::read_regular(path, 1024 * 1024).map_err(|e| SettingsError::PasswordFile {
            path: path.clone(),
            source: e.into(),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_connection_flags_are_treated_as_not_given_like_kubectl() {
        let g = GlobalArgs {
            token: Some(String::new()),
            user: Some(String::new()),
            cluster: Some(String::new()),
            context: Some(String::new()),
            server: Some(String::new()),
            as_user: Some(String::new()),
            as_uid: Some(String::new()),
            namespace: Some(String::new()),
            request_timeout: Some(String::new()),
            pushgateway: Some(String::new()),
            kubeconfig: Some(PathBuf::new()),
            certificate_authority: Some(PathBuf::new()),
            config: Some(PathBuf::new()),
            as_group: vec![String::new()],
            ..GlobalArgs::default()
        };
        let c = without_empty_overrides(&g);
        assert_eq!(
            (c.token, c.user, c.cluster, c.context, c.server),
            (None, None, None, None, None)
        );
        assert_eq!((c.as_user, c.as_uid, c.namespace), (None, None, None));
        assert_eq!((c.request_timeout, c.pushgateway), (None, None));
        assert_eq!(
            (c.kubeconfig, c.certificate_authority, c.config),
            (None, None, None)
        );
        assert_eq!(
            c.as_group,
            vec![String::new()],
            "kubectl keeps an empty group"
        );
        let kept = without_empty_overrides(&GlobalArgs {
            token: Some("t".into()),
            namespace: Some("shop".into()),
            ..GlobalArgs::default()
        });
        assert_eq!(
            (kept.token.as_deref(), kept.namespace.as_deref()),
            (Some("t"), Some("shop"))
        );
    }

    #[test]
    fn request_timeouts_beyond_go_s_duration_are_refused_instead_of_panicking() {
        assert_eq!(request_timeout("0").unwrap(), None);
        assert_eq!(request_timeout("5s").unwrap(), Some(Duration::from_secs(5)));
        for bad in ["9223372036854775807", "300000000h", "18446744073709551615"] {
            let e = request_timeout(bad).unwrap_err().to_string();
            assert!(
                e.contains("longest duration Go's time.Duration"),
                "{bad}: {e}"
            );
        }
        assert!(
            request_timeout("9223372036").unwrap().is_some(),
            "292 years is fine"
        );
        let e = request_timeout(&"9".repeat(100_000))
            .unwrap_err()
            .to_string();
        assert!(e.len() < 400, "{e}");
        let e = request_timeout("5\u{1b}[2J").unwrap_err().to_string();
        assert!(!e.contains('\u{1b}'), "{e}");
    }

    #[test]
    fn as_user_extra_groups_values_by_key_and_refuses_entries_without_equals() {
        let raw: Vec<String> = ["scopes=view", "scopes=edit", "reason=a=b", "empty="]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let m = user_extras(&raw).unwrap();
        assert_eq!(m["scopes"], ["view", "edit"]);
        assert_eq!(m["reason"], ["a=b"]);
        assert_eq!(m["empty"], [""]);
        for bad in ["noequals", "=v"] {
            let e = user_extras(&[bad.to_string()]).unwrap_err().to_string();
            assert!(
                e.starts_with(&format!("--as-user-extra \"{bad}\" is not KEY=VALUE")),
                "{e}"
            );
        }
    }

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
