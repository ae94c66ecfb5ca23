//! `kubectl myops mcp`: the guarded commands as a Model Context Protocol server over stdio
//! (the official Rust SDK, `rmcp`; MCP specification, modelcontextprotocol.io).
//!
//! Every tool call runs the command a person runs, as a child of this process
//! ([`run`]): the same plugin.yaml boundary, SelfSubjectAccessReview, field policies,
//! `protect:` rules and write-ahead journal, with the caller journaled as
//! `actor: mcp:<client>/<version>` and counted as `client="mcp"`. A mutating tool answers
//! first with its server-side dry run, a diff and a one-time confirmation token
//! ([`confirm`]); only a second call with that token, within `--confirm-within`, for exactly
//! the previewed arguments and an object unchanged since, makes the change. Where a
//! `protect:` rule holds, the person confirms through MCP elicitation; a client that cannot
//! ask is refused, as a command without a terminal is (docs/agents.md).

pub mod answer;
mod ask;
mod change;
pub mod confirm;
mod question;
pub mod run;
mod server;
pub mod tools;

use std::ffi::OsString;
use std::time::Duration;

use crate::cli::{GlobalArgs, McpArgs};
use crate::settings::Settings;

/// Why the server could not start or serve (exit 2 for bad flags, 1 otherwise).
#[derive(Debug, thiserror::Error)]
pub enum McpError {
    /// A flag the server cannot use.
    #[error("{0}")]
    Usage(String),
    /// The stdio transport failed.
    #[error("the MCP connection on stdin/stdout failed: {0}")]
    Transport(String),
}

impl McpError {
    /// The documented exit code.
    pub fn exit_status(&self) -> crate::exit::ExitStatus {
        match self {
            McpError::Usage(_) => crate::exit::ExitStatus::Usage,
            McpError::Transport(_) => crate::exit::ExitStatus::Failure,
        }
    }
}

/// The longest and shortest `--confirm-within`.
const CONFIRM_WITHIN: (Duration, Duration) = (Duration::from_secs(1), Duration::from_secs(3600));

/// Serves MCP on stdin/stdout until the client closes it.
///
/// # Errors
/// [`McpError::Usage`] for a bad `--confirm-within`, `--contexts` with a glob that matches
/// nothing, or a flag that pins every context; [`McpError::Transport`] when stdio fails.
pub async fn serve(
    s: &Settings,
    global: &GlobalArgs,
    args: &McpArgs,
    current_context: Option<String>,
) -> Result<(), McpError> {
    let ttl = crate::settings::request_timeout(&args.confirm_within)
        .ok()
        .flatten()
        .filter(|d| (CONFIRM_WITHIN.0..=CONFIRM_WITHIN.1).contains(d))
        .ok_or_else(|| {
            McpError::Usage(format!(
                "--confirm-within {} is not a duration from 1s to 1h; write e.g. 90s or 2m",
                crate::base::echo::quoted(&args.confirm_within)
            ))
        })?;
    // Flags a person may expect to reach every call, which a tool call never takes: refused
    // rather than silently dropped.
    let ignored: Vec<&str> = [
        ("--all-contexts", global.all_contexts),
        ("--max-parallel", global.max_parallel.is_some()),
        ("--yes", global.yes),
        ("--confirm-context", !global.confirm_context.is_empty()),
        ("--reason", global.reason.is_some()),
    ]
    .into_iter()
    .filter_map(|(f, given)| given.then_some(f))
    .collect();
    if !ignored.is_empty() {
        return Err(McpError::Usage(format!(
            "mcp does not take {}: the server runs one call in one of the contexts it names (--context or --contexts), only a person answers protect: rules (by elicitation), and each call gives its own reason",
            ignored.join(", ")
        )));
    }
    let contexts = if global.contexts.is_empty() {
        global
            .context
            .clone()
            .or(current_context)
            .into_iter()
            .collect()
    } else {
        global.contexts.clone()
    };
    if contexts.iter().any(|c| c.contains('*')) {
        return Err(McpError::Usage(
            "mcp takes context names, not globs: an agent's contexts are fixed by name at start"
                .into(),
        ));
    }
    let exe = std::env::current_exe()
        .map_err(|e| McpError::Transport(format!("cannot find this binary: {e}")))?;
    let server = server::Server::new(server::Options {
        runner: run::Runner::new(exe, forwarded(global), usize::from(args.max_concurrent)),
        contexts,
        namespace: global.namespace.clone(),
        read_only: args.read_only,
        ttl,
        plugin: s.plugin.name.clone(),
        show_secret_values: s.plugin.mcp.show_secret_values,
    });
    server.serve_stdio().await
}

/// The global flags every tool's command gets (pure): the connection and identity flags the
/// server was started with. Not `--context`/`--contexts` (each call names one of the fixed
/// contexts), `-n` (each call's namespace, defaulting to it), `--yes`/`--confirm-context`
/// (only a person answers protection, through elicitation), `--reason` (per call) or `-v`
/// (a trace on stderr is not an answer).
pub fn forwarded(g: &GlobalArgs) -> Vec<OsString> {
    let mut out: Vec<OsString> = Vec::new();
    let mut put = |flag: &str, v: Option<&std::ffi::OsStr>| {
        if let Some(v) = v {
            let mut a = OsString::from(format!("--{flag}="));
            a.push(v);
            out.push(a);
        }
    };
    put("kubeconfig", g.kubeconfig.as_deref().map(|p| p.as_os_str()));
    put("cluster", g.cluster.as_deref().map(std::ffi::OsStr::new));
    put("user", g.user.as_deref().map(std::ffi::OsStr::new));
    put("as", g.as_user.as_deref().map(std::ffi::OsStr::new));
    for group in &g.as_group {
        put("as-group", Some(std::ffi::OsStr::new(group)));
    }
    put("as-uid", g.as_uid.as_deref().map(std::ffi::OsStr::new));
    for extra in &g.as_user_extra {
        put("as-user-extra", Some(std::ffi::OsStr::new(extra)));
    }
    put(
        "request-timeout",
        g.request_timeout.as_deref().map(std::ffi::OsStr::new),
    );
    put("server", g.server.as_deref().map(std::ffi::OsStr::new));
    put("token", g.token.as_deref().map(std::ffi::OsStr::new));
    put(
        "certificate-authority",
        g.certificate_authority.as_deref().map(|p| p.as_os_str()),
    );
    put(
        "client-certificate",
        g.client_certificate.as_deref().map(|p| p.as_os_str()),
    );
    put("client-key", g.client_key.as_deref().map(|p| p.as_os_str()));
    put(
        "tls-server-name",
        g.tls_server_name.as_deref().map(std::ffi::OsStr::new),
    );
    put("username", g.username.as_deref().map(std::ffi::OsStr::new));
    put("password", g.password.as_deref().map(std::ffi::OsStr::new));
    put("kuberc", g.kuberc.as_deref().map(|p| p.as_os_str()));
    put("config", g.config.as_deref().map(|p| p.as_os_str()));
    put(
        "pushgateway",
        g.pushgateway.as_deref().map(std::ffi::OsStr::new),
    );
    if g.insecure_skip_tls_verify {
        out.push("--insecure-skip-tls-verify".into());
    }
    out
}
