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
    /// entries of one invocation share one session id (docs/design.md, "The mutation model").
    pub session_id: Option<String>,
    /// Whether stderr is a terminal ([`Env::stderr_is_terminal`]): `crds sync` then draws a
    /// progress line.
    pub stderr_is_terminal: bool,
    /// The client the command runs for ([`Env::actor`]): `mcp:NAME/VERSION`, or `None` for a
    /// person's command line.
    pub actor: Option<String>,
    /// The answers to protection given on the command line (`--yes`, `--confirm-context`,
    /// `--reason`) and any given for a whole fan-out wave (docs/protection.md).
    pub protect: ProtectAnswers,
}

/// What the command line (or a fan-out's one question per wave) already answered for
/// plugin.yaml `protect:` rules, so the guarded path does not ask again.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProtectAnswers {
    /// `--yes`: `confirm` rules are answered.
    pub yes: bool,
    /// `--confirm-context`: `type-name` rules of these contexts are answered.
    pub confirm_context: Vec<String>,
    /// `--reason`.
    pub reason: Option<String>,
    /// What a fan-out's question for this wave answered: in a context and namespace, the
    /// rules it named (a change under other rules, or elsewhere, is not answered by it).
    pub answered: Vec<WaveAnswer>,
    /// Whether the session may ask on the terminal: true, except in the sessions of a
    /// fan-out, whose one question per wave is asked before them ([`crate::fleet`]).
    pub terminal: bool,
}

/// One context of a fan-out wave answered at its question ([`ProtectAnswers::answered`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WaveAnswer {
    /// The context.
    pub context: String,
    /// The namespace the question named.
    pub namespace: String,
    /// The `protect:` rules (indices) it named.
    pub rules: Vec<usize>,
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
    /// `$MYOPS_ACTOR`: the client a change is made through, set by `kubectl myops mcp` for
    /// the commands it runs (`mcp:NAME/VERSION`); journaled as `actor`, counted as the
    /// metric label `client`.
    pub actor: Option<String>,
    /// `$MYOPS_SESSION_ID`: the session id the command's records carry, set by
    /// `kubectl myops mcp` so a tool call's answer can name its entries (32 hex digits).
    pub session_id: Option<String>,
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
            actor: var("MYOPS_ACTOR").and_then(|v| v.into_string().ok()),
            session_id: var("MYOPS_SESSION_ID").and_then(|v| v.into_string().ok()),
        }
    }
}

/// The most characters `$MYOPS_ACTOR` holds: `mcp:` and a client's name and version.
pub const MAX_ACTOR_CHARS: usize = 128;

/// `$MYOPS_SESSION_ID` checked (pure): 32 lowercase hex digits, as
/// [`crate::changelog::new_session_id`] makes them; it goes on every request's User-Agent.
fn caller_session(v: Option<&str>) -> Result<Option<String>, SettingsError> {
    match v {
        None => Ok(None),
        Some(id)
            if id.len() == 32
                && id
                    .bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)) =>
        {
            Ok(Some(id.to_string()))
        }
        Some(id) => Err(SettingsError::Caller(format!(
            "MYOPS_SESSION_ID {} is not 32 lowercase hexadecimal digits; unset it (kubectl myops mcp sets it for its own commands)",
            crate::base::echo::quoted(id)
        ))),
    }
}

/// `$MYOPS_ACTOR` checked (pure): printable, at most [`MAX_ACTOR_CHARS`] characters.
fn caller_actor(v: Option<&str>) -> Result<Option<String>, SettingsError> {
    match v {
        None => Ok(None),
        Some(a) if a.chars().count() <= MAX_ACTOR_CHARS && !a.chars().any(char::is_control) => {
            Ok(Some(a.to_string()))
        }
        Some(a) => Err(SettingsError::Caller(format!(
            "MYOPS_ACTOR {} is not a client name of at most {MAX_ACTOR_CHARS} printable characters; unset it (kubectl myops mcp sets it for its own commands)",
            crate::base::echo::quoted(a)
        ))),
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
    /// A template file named by `-o` cannot be used ([`load_template_files`]): the whole
    /// message, worded as the `-o` parser's.
    #[error("{0}")]
    TemplateFile(String),
    /// `$MYOPS_ACTOR` or `$MYOPS_SESSION_ID` is malformed (they are set by `kubectl myops
    /// mcp` for its children; a person rarely sets them).
    #[error("{0}")]
    Caller(String),
    /// `--reason` is longer than [`MAX_REASON_CHARS`].
    #[error(
        "--reason is {0} characters long: use at most 1024 (a sentence and a ticket id; it goes on every request as a header)"
    )]
    Reason(usize),
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

mod push;
mod templates;
#[cfg(test)]
mod tests;

pub use templates::load_template_files;

use push::push_target;

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
            crate::base::validate::check_namespace(ns).map_err(SettingsError::Namespace)?;
        }
        if let Some(r) = &g.reason
            && r.chars().count() > MAX_REASON_CHARS
        {
            return Err(SettingsError::Reason(r.chars().count()));
        }
        let user_home = env.home.clone();
        let source = config::locate(
            g.config.as_deref(),
            env.myops_config.as_deref(),
            user_home.as_deref(),
            env.exe.as_deref(),
        );
        let request_timeout = match &g.request_timeout {
            None => None,
            Some(t) => request_timeout(t)?,
        };
        // A plugin.yaml the user named may be a FIFO (`--config <(…)`): its read has the same
        // deadline as every request.
        let plugin = config::load_source(&source, crate::base::deadline::of(request_timeout))?;
        // Never a path relative to wherever the command happens to run: a change log there
        // could not be found (listed, rolled back) from anywhere else.
        let home = env
            .myops_home
            .clone()
            .or_else(|| user_home.as_ref().map(|h| h.join(".kube").join("myops")))
            .ok_or(SettingsError::NoHome)?;
        let home = std::path::absolute(&home).unwrap_or(home);
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
            reason: g.reason.clone(),
            // Set by the app from clap's matched subcommands (`Cli::command_path`).
            command: None,
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
            session_id: caller_session(env.session_id.as_deref())?,
            actor: caller_actor(env.actor.as_deref())?,
            shared_discovery: None,
            stderr_is_terminal: env.stderr_is_terminal,
            protect: ProtectAnswers {
                yes: g.yes,
                confirm_context: g.confirm_context.clone(),
                reason: g.reason.clone(),
                answered: Vec::new(),
                terminal: true,
            },
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

/// The longest `--reason`, in characters: it is sent on every request as the `Myops-Reason`
/// header (percent-encoded, up to 12 bytes a character), which must stay far below the API
/// server's header limits, and journaled with every entry.
pub const MAX_REASON_CHARS: usize = 1024;

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
            crate::base::echo::quoted(t),
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
            _ => return Err(SettingsError::UserExtra(crate::base::echo::quoted(e))),
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
        yes: g.yes,
        confirm_context: g.confirm_context.clone(),
        reason: g.reason.clone().filter(|r| is_reason(r)),
    }
}

/// Whether `--reason` text is a reason: it holds a letter or a digit. Blank text, or
/// zero-width characters only, is no reason: a rule that requires one is not answered by
/// `--reason ''` (nor, through MCP, by a `reason` of spaces).
pub fn is_reason(text: &str) -> bool {
    text.chars().any(char::is_alphanumeric)
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
