//! Exec credential plugins (`client.authentication.k8s.io` `ExecCredential`): run once per
//! process, their credential shared by every request and every context of the same user.
//!
//! Why not kube-rs's own runner: kube-client 5.0 runs the plugin once for the authentication
//! layer and once more for the TLS configuration (`Config::exec_identity_pem`, in case it
//! hands out a client certificate), and again for every client built — a fan-out over 40
//! contexts of one user ran it 80 times, and an interactive login prompted twice per
//! context. client-go keeps one authenticator per exec configuration for the process
//! (`plugin/pkg/client/auth/exec/exec.go`, `globalCache` keyed by `cacheKey`: the exec
//! configuration and, with `provideClusterInfo`, the cluster), runs the plugin once, and
//! again only when the credential expires. This module does the same ([`shared`]).
//!
//! As client-go runs it (`exec.go`, `refreshCredsLocked`):
//! - `KUBERNETES_EXEC_INFO` holds the `ExecCredential` with `spec.interactive` (and
//!   `spec.cluster` with `provideClusterInfo`); the kubeconfig's `env` is added;
//! - the plugin is interactive when `interactiveMode` is `Always`, or `IfAvailable` (the
//!   default) with standard input a terminal; it then gets our standard input. `Always`
//!   without a terminal is an error ("standard input is not a terminal");
//! - its standard error is passed through. Here each line is escaped and redacted as every
//!   stderr line is (`base::redact`), and at most [`MAX_STDERR_BYTES`] of it are shown. A
//!   non-interactive plugin's lines are shown when it ends, after its credential was
//!   registered for redaction; an interactive plugin's as they come (its prompts must be
//!   seen), redacted by what is known then;
//! - a non-interactive plugin is bounded by the call deadline (`base::deadline`; killed with
//!   its process group after it); an interactive one is bounded by the user, who answers or
//!   presses Ctrl-C — a login may take longer than any request.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use kube::config::{ExecConfig, ExecInteractiveMode};

/// At most this much of a plugin's standard error is shown (bytes); the rest is counted.
/// 64 KiB holds any login message or device-code prompt, never a flood.
pub const MAX_STDERR_BYTES: usize = 64 * 1024;

/// At most this much of a plugin's standard output is read (bytes): an `ExecCredential` with
/// a client certificate and key is a few KiB.
pub const MAX_STDOUT_BYTES: u64 = 1024 * 1024;

/// The longest stderr line shown (characters), as every stderr line (docs/security.md).
const MAX_LINE_CHARS: usize = 2000;

/// A credential is run for again when it expires within this long: client-go refreshes an
/// expired one (`exec.go`, `isValidCredential`) and kube-rs ten seconds before
/// (`kube-client` `auth/mod.rs`, `TEN_SEC`), so a request never leaves with a token that
/// expires on the way.
const EXPIRY_MARGIN: Duration = Duration::from_secs(10);

/// What a plugin gave (`ExecCredential.status`).
#[derive(Clone, Default)]
pub struct Credential {
    /// `status.token`, sent as `Authorization: Bearer`.
    pub token: Option<String>,
    /// `status.clientCertificateData` and `status.clientKeyData` (PEM), when both are given.
    pub client_pair: Option<(String, String)>,
    /// `status.expirationTimestamp`; `None` = valid for the process.
    pub expires: Option<jiff::Timestamp>,
}

impl Credential {
    /// Whether the credential must be asked for again before a request at `now`.
    pub fn expiring(&self, now: jiff::Timestamp) -> bool {
        self.expires
            .is_some_and(|e| now.checked_add(EXPIRY_MARGIN).is_ok_and(|soon| soon >= e))
    }
}

/// Why a plugin gave no credential. Never carries its output or arguments (they may hold
/// credentials): client-go names the executable and the exit code only.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PluginError {
    /// The executable could not be started (the OS error).
    Start(String),
    /// It exited with this status (`None`: killed by a signal).
    Exit(Option<i32>),
    /// Its output is not an `ExecCredential` (client-go: "decoding stdout").
    NotCredential,
    /// Its `ExecCredential` has no `status`.
    NoStatus,
    /// `interactiveMode: Always`, and standard input is not a terminal.
    NeedsTerminal,
    /// A non-interactive plugin did not finish within this deadline (it was killed).
    Timeout(Duration),
}

/// How long a plugin may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// Killed after this long: a plugin that asks nobody anything.
    Deadline(Duration),
    /// As long as the user takes: an interactive plugin on a terminal.
    User,
}

/// Whether the plugin of `mode` is interactive when standard input is a terminal or not
/// (`stdin_terminal`), as client-go decides (`exec.go`, `isInteractive`); `interactiveMode`
/// unset counts as `IfAvailable` (client-go's default for `v1beta1`; `v1` requires it).
///
/// # Errors
/// [`PluginError::NeedsTerminal`] for `Always` without a terminal.
pub fn interactive(
    mode: Option<&ExecInteractiveMode>,
    stdin_terminal: bool,
) -> Result<bool, PluginError> {
    match mode {
        Some(ExecInteractiveMode::Never) => Ok(false),
        Some(ExecInteractiveMode::Always) if !stdin_terminal => Err(PluginError::NeedsTerminal),
        Some(ExecInteractiveMode::Always) => Ok(true),
        Some(ExecInteractiveMode::IfAvailable) | None => Ok(stdin_terminal),
    }
}

/// The bound of a plugin that is (or is not) `interactive`, under the call `deadline`.
pub fn bound(interactive: bool, deadline: Duration) -> Bound {
    if interactive {
        Bound::User
    } else {
        Bound::Deadline(deadline)
    }
}

/// One exec configuration's credential for the process: the plugin runs on the first
/// [`Shared::get`], and again only when the credential it gave expires.
pub struct Shared {
    exec: ExecConfig,
    interactive: bool,
    bound: Bound,
    last: tokio::sync::Mutex<Option<Result<Credential, PluginError>>>,
}

impl Shared {
    /// The credential: the one already given while it has not expired, else the plugin's
    /// answer now (concurrent callers wait for one run). A failure is kept too: a fan-out
    /// does not start a failing (or prompting) plugin once per context.
    ///
    /// # Errors
    /// [`PluginError`] when the plugin gives no credential.
    pub async fn get(&self) -> Result<Credential, PluginError> {
        let mut last = self.last.lock().await;
        match &*last {
            Some(Ok(c)) if !c.expiring(jiff::Timestamp::now()) => return Ok(c.clone()),
            Some(Err(e)) => return Err(e.clone()),
            _ => {}
        }
        let got = run(&self.exec, self.interactive, self.bound).await;
        *last = Some(got.clone());
        got
    }
}

/// The process's [`Shared`] credentials by exec configuration (client-go's `cacheKey`).
static SHARED: Mutex<Option<HashMap<String, Arc<Shared>>>> = Mutex::new(None);

/// The process's shared credential for `exec` (one per exec configuration: command,
/// arguments, environment, API version, interactive mode and, with `provideClusterInfo`,
/// the cluster). The first caller's `interactive` and `bound` stay with it.
pub fn shared(exec: &ExecConfig, interactive: bool, bound: Bound) -> Arc<Shared> {
    let mut key = serde_json::to_string(exec).unwrap_or_default();
    if exec.provide_cluster_info {
        key.push_str(&serde_json::to_string(&exec.cluster).unwrap_or_default());
    }
    let mut map = SHARED.lock().unwrap_or_else(PoisonError::into_inner);
    map.get_or_insert_with(HashMap::new)
        .entry(key)
        .or_insert_with(|| {
            Arc::new(Shared {
                exec: exec.clone(),
                interactive,
                bound,
                last: tokio::sync::Mutex::new(None),
            })
        })
        .clone()
}

/// Runs the plugin once (on the blocking pool) within `bound`, registers what it gave for
/// redaction, then shows what it wrote to standard error.
async fn run(
    exec: &ExecConfig,
    interactive: bool,
    bound: Bound,
) -> Result<Credential, PluginError> {
    for value in exec.env.iter().flatten().filter_map(|e| e.get("value")) {
        crate::base::redact::remember(value);
    }
    let cmd = command(exec, interactive)?;
    let pid = Arc::new(std::sync::atomic::AtomicU32::new(0));
    let held = Arc::new(Mutex::new(Stderr::default()));
    let task = {
        let (pid, held) = (pid.clone(), held.clone());
        tokio::task::spawn_blocking(move || run_blocking(cmd, interactive, &pid, &held))
    };
    let out = match bound {
        Bound::User => task.await,
        Bound::Deadline(d) => match tokio::time::timeout(d, task).await {
            Ok(done) => done,
            Err(_) => {
                kill_group(pid.load(std::sync::atomic::Ordering::SeqCst));
                show_held(&held);
                return Err(PluginError::Timeout(d));
            }
        },
    };
    let out = out.map_err(|e| PluginError::Start(e.to_string()))?;
    let got = out.and_then(|stdout| parse(&stdout));
    if let Ok(c) = &got {
        for secret in c
            .token
            .iter()
            .chain(c.client_pair.iter().map(|(_, key)| key))
        {
            crate::base::redact::remember(secret);
        }
    }
    show_held(&held);
    got
}

/// The plugin's command line and environment, as client-go and kube-rs build it.
fn command(exec: &ExecConfig, interactive: bool) -> Result<std::process::Command, PluginError> {
    use std::os::unix::process::CommandExt;
    let program = exec
        .command
        .as_deref()
        .ok_or_else(|| PluginError::Start("no command".into()))?;
    let mut cmd = std::process::Command::new(program);
    cmd.args(exec.args.iter().flatten());
    for env in exec.env.iter().flatten() {
        if let (Some(name), Some(value)) = (env.get("name"), env.get("value")) {
            cmd.env(name, value);
        }
    }
    let mut spec = serde_json::json!({ "interactive": interactive });
    if exec.provide_cluster_info
        && let Some(cluster) = &exec.cluster
    {
        spec["cluster"] = serde_json::to_value(cluster).unwrap_or_default();
    }
    let info = serde_json::json!({
        "apiVersion": exec.api_version,
        "kind": "ExecCredential",
        "spec": spec,
    });
    cmd.env("KUBERNETES_EXEC_INFO", info.to_string());
    for name in exec.drop_env.iter().flatten() {
        cmd.env_remove(name);
    }
    cmd.stdout(std::process::Stdio::piped());
    cmd.stderr(std::process::Stdio::piped());
    if interactive {
        cmd.stdin(std::process::Stdio::inherit());
    } else {
        // A process group of its own, so the deadline kills what it started too; an
        // interactive plugin stays in ours, the terminal's foreground group (a background
        // group reading the terminal is stopped by SIGTTIN).
        cmd.stdin(std::process::Stdio::null());
        cmd.process_group(0);
    }
    Ok(cmd)
}

/// Starts `cmd`, records its pid in `pid`, passes its standard error on (live when
/// `interactive`, else into `held`), and returns its standard output once it exited 0.
fn run_blocking(
    mut cmd: std::process::Command,
    interactive: bool,
    pid: &std::sync::atomic::AtomicU32,
    held: &Arc<Mutex<Stderr>>,
) -> Result<Vec<u8>, PluginError> {
    let mut child = cmd.spawn().map_err(|e| PluginError::Start(e.to_string()))?;
    pid.store(child.id(), std::sync::atomic::Ordering::SeqCst);
    let (done_tx, done_rx) = std::sync::mpsc::channel();
    if let Some(mut err) = child.stderr.take() {
        let held = held.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = err.read(&mut buf) {
                if n == 0 {
                    break;
                }
                let mut h = held.lock().unwrap_or_else(PoisonError::into_inner);
                h.push(&buf[..n]);
                if interactive {
                    h.show();
                }
            }
            let _ = done_tx.send(());
        });
    }
    let mut stdout = Vec::new();
    if let Some(out) = child.stdout.take() {
        let _ = out.take(MAX_STDOUT_BYTES).read_to_end(&mut stdout);
    }
    let status = child
        .wait()
        .map_err(|e| PluginError::Start(e.to_string()))?;
    // Its standard error ends with it, unless a process it left behind keeps it open.
    let _ = done_rx.recv_timeout(Duration::from_secs(1));
    if status.success() {
        Ok(stdout)
    } else {
        Err(PluginError::Exit(status.code()))
    }
}

/// Kills the process group `pid` leads (a non-interactive plugin and what it started).
fn kill_group(pid: u32) {
    let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    else {
        return;
    };
    let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
}

/// `ExecCredential.status` as client-go reads it (JSON; kube-rs also takes YAML).
fn parse(stdout: &[u8]) -> Result<Credential, PluginError> {
    #[derive(serde::Deserialize)]
    struct Status {
        token: Option<String>,
        #[serde(rename = "clientCertificateData")]
        client_certificate_data: Option<String>,
        #[serde(rename = "clientKeyData")]
        client_key_data: Option<String>,
        #[serde(rename = "expirationTimestamp")]
        expiration_timestamp: Option<String>,
    }
    #[derive(serde::Deserialize)]
    struct ExecCredential {
        status: Option<Status>,
    }
    let cred: ExecCredential =
        serde_saphyr::from_slice(stdout).map_err(|_| PluginError::NotCredential)?;
    let status = cred.status.ok_or(PluginError::NoStatus)?;
    let expires = match status.expiration_timestamp {
        Some(t) => Some(t.parse().map_err(|_| PluginError::NotCredential)?),
        None => None,
    };
    Ok(Credential {
        token: status.token.filter(|t| !t.is_empty()),
        client_pair: status.client_certificate_data.zip(status.client_key_data),
        expires,
    })
}

/// A plugin's standard error not yet shown, and how much was shown or dropped.
#[derive(Default)]
struct Stderr {
    pending: Vec<u8>,
    kept: usize,
    dropped: usize,
}

impl Stderr {
    /// Adds `bytes`, keeping at most [`MAX_STDERR_BYTES`] in all.
    fn push(&mut self, bytes: &[u8]) {
        let room = MAX_STDERR_BYTES.saturating_sub(self.kept);
        let take = bytes.len().min(room);
        self.pending.extend_from_slice(&bytes[..take]);
        self.kept += take;
        self.dropped += bytes.len() - take;
    }

    /// Writes what is pending to our standard error, redacted and escaped line by line.
    fn show(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        let text = String::from_utf8_lossy(&self.pending).into_owned();
        self.pending.clear();
        let mut err = std::io::stderr().lock();
        let _ = err.write_all(for_terminal(&text).as_bytes());
        let _ = err.flush();
    }
}

/// Shows what `held` holds, then how much was cut, once.
fn show_held(held: &Mutex<Stderr>) {
    let mut h = held.lock().unwrap_or_else(PoisonError::into_inner);
    h.show();
    if h.dropped > 0 {
        eprintln!(
            "\n(the credential plugin wrote {} more bytes to standard error; not shown)",
            h.dropped
        );
        h.dropped = 0;
    }
}

/// `text` redacted, each line escaped and capped as every stderr line (pure, but for the
/// process's redaction registry).
fn for_terminal(text: &str) -> String {
    let text = crate::base::redact::scrub(text);
    text.split('\n')
        .map(|line| crate::base::echo::capped(line, MAX_LINE_CHARS))
        .collect::<Vec<_>>()
        .join("\n")
}

impl std::fmt::Display for PluginError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PluginError::Start(e) => write!(f, "could not be started ({e})"),
            PluginError::Exit(Some(code)) => write!(f, "exited with status {code}"),
            PluginError::Exit(None) => f.write_str("was killed by a signal"),
            PluginError::NotCredential => {
                f.write_str("printed something that is not an ExecCredential")
            }
            PluginError::NoStatus => f.write_str("printed an ExecCredential without a status"),
            PluginError::NeedsTerminal => {
                f.write_str("has interactiveMode Always but standard input is not a terminal")
            }
            PluginError::Timeout(d) => write!(
                f,
                "did not answer within {}",
                crate::config::duration_string::format(*d)
            ),
        }
    }
}

impl std::error::Error for PluginError {}

/// The tower layer that sends a [`Shared`] credential's token as `Authorization: Bearer` on
/// every request, asking the plugin again when it expires (client-go's exec authenticator
/// round tripper, `exec.go` `roundTripper`). It takes the place of kube-rs's authentication
/// layer for a user with an exec plugin.
#[derive(Clone)]
pub struct BearerLayer(pub Arc<Shared>);

impl<S> tower::Layer<S> for BearerLayer {
    type Service = Bearer<S>;

    fn layer(&self, inner: S) -> Bearer<S> {
        Bearer {
            inner,
            shared: self.0.clone(),
        }
    }
}

/// The service [`BearerLayer`] makes.
#[derive(Clone)]
pub struct Bearer<S> {
    inner: S,
    shared: Arc<Shared>,
}

impl<S, B> tower::Service<http::Request<B>> for Bearer<S>
where
    S: tower::Service<http::Request<B>, Error = tower::BoxError> + Clone + Send + 'static,
    S::Future: Send,
    S::Response: Send,
    B: Send + 'static,
{
    type Response = S::Response;
    type Error = tower::BoxError;
    type Future = std::pin::Pin<
        Box<dyn std::future::Future<Output = Result<S::Response, tower::BoxError>> + Send>,
    >;

    fn poll_ready(
        &mut self,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), tower::BoxError>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut req: http::Request<B>) -> Self::Future {
        // The service polled ready is the one called (tower's rule for a cloned inner).
        let clone = self.inner.clone();
        let mut inner = std::mem::replace(&mut self.inner, clone);
        let shared = self.shared.clone();
        Box::pin(async move {
            let cred = shared.get().await?;
            if let Some(token) = cred.token {
                let mut value = http::HeaderValue::from_str(&format!("Bearer {token}"))?;
                value.set_sensitive(true);
                req.headers_mut().insert(http::header::AUTHORIZATION, value);
            }
            inner.call(req).await
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interactive_follows_client_go() {
        use ExecInteractiveMode as M;
        assert_eq!(interactive(Some(&M::Never), true), Ok(false));
        assert_eq!(interactive(Some(&M::IfAvailable), true), Ok(true));
        assert_eq!(interactive(Some(&M::IfAvailable), false), Ok(false));
        assert_eq!(interactive(None, false), Ok(false));
        assert_eq!(interactive(Some(&M::Always), true), Ok(true));
        assert_eq!(
            interactive(Some(&M::Always), false),
            Err(PluginError::NeedsTerminal)
        );
        assert_eq!(bound(true, Duration::from_secs(2)), Bound::User);
        assert_eq!(
            bound(false, Duration::from_secs(2)),
            Bound::Deadline(Duration::from_secs(2))
        );
    }

    #[test]
    fn a_credential_is_asked_for_again_ten_seconds_before_it_expires() {
        let now: jiff::Timestamp = "2026-01-01T00:00:00Z".parse().unwrap();
        let at = |s: &str| Credential {
            expires: Some(s.parse().unwrap()),
            ..Credential::default()
        };
        assert!(!Credential::default().expiring(now));
        assert!(!at("2026-01-01T00:01:00Z").expiring(now));
        assert!(at("2026-01-01T00:00:05Z").expiring(now));
        assert!(at("2025-12-31T00:00:00Z").expiring(now));
    }

    #[test]
    fn parse_reads_the_status_as_client_go() {
        let c = parse(br#"{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"tok-1234","expirationTimestamp":"2030-01-01T00:00:00Z"}}"#).unwrap();
        assert_eq!(c.token.as_deref(), Some("tok-1234"));
        assert!(c.expires.is_some() && c.client_pair.is_none());
        assert_eq!(
            parse(b"{\"kind\":\"ExecCredential\"}").err(),
            Some(PluginError::NoStatus)
        );
        assert_eq!(parse(b"][").err(), Some(PluginError::NotCredential));
        // A certificate without its key is no client certificate (kube-rs: no credential).
        let c = parse(br#"{"status":{"clientCertificateData":"c"}}"#).unwrap();
        assert!(c.client_pair.is_none() && c.token.is_none());
    }

    #[test]
    fn stderr_is_kept_up_to_its_bound_and_the_rest_counted() {
        let mut s = Stderr::default();
        s.push(&vec![b'a'; MAX_STDERR_BYTES - 1]);
        s.push(b"bcd");
        assert_eq!(s.kept, MAX_STDERR_BYTES);
        assert_eq!(s.dropped, 2);
        assert_eq!(s.pending.last(), Some(&b'b'));
    }
}
