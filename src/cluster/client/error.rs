//! Why a client cannot be built ([`ClusterError`]), and the mapping of kube's
//! client-construction errors to it: no message quotes a kubeconfig's lines or a credential
//! plugin's output, which may hold tokens.

use kube::config::KubeconfigError;

use crate::exit::ExitStatus;

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
    Kuberc(#[from] crate::cluster::kuberc::KubercError),
    /// `--server` is not a URL.
    #[error("--server {0:?} is not a valid URL; use e.g. https://127.0.0.1:6443")]
    Server(String),
    /// The HTTP client could not be built (TLS material, proxy).
    #[error(
        "cannot build the Kubernetes client: {0}; check the certificate and key files in the kubeconfig"
    )]
    Client(#[source] kube::Error),
    /// The kubeconfig user's exec credential plugin failed. Its standard output is never
    /// shown: a plugin that prints a credential and then fails (or prints it truncated)
    /// would otherwise put the token on the terminal (kube-rs quotes the whole process
    /// output); kubectl likewise names only the executable and the exit code (client-go
    /// `plugin/pkg/client/auth/exec/exec.go`). Its standard error, where a plugin says why,
    /// was passed through before this message (`super::super::exec_plugin`).
    #[error(
        "the credential plugin {program:?} of the kubeconfig user {problem}; its standard output is not shown because it may hold a credential: read what it wrote to standard error above, or run it by hand"
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
    Proxy(#[from] crate::cluster::proxy::ProxyError),
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
    InCluster(#[from] crate::cluster::in_cluster::InClusterError),
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
pub(super) fn safe_message(e: &dyn std::fmt::Display) -> String {
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

/// Maps a kube client-construction error to ours. An exec credential plugin's failure never
/// carries its output or arguments ([`ClusterError::CredentialPlugin`]; kube-rs runs no
/// plugin of ours, `super::super::exec_plugin` does, but an `auth-provider` may still run
/// one); anything else keeps kube's first line only.
pub(super) fn client_error(e: kube::Error, program: &str) -> ClusterError {
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
