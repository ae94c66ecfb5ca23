//! Running a tool's command: this same binary as a child process, one per call (the I/O
//! edge of the MCP server).
//!
//! A tool call is the command a person runs, run the same way: so every guarantee of the
//! guarded path (plugin.yaml, SelfSubjectAccessReview, field policies, protection, the
//! write-ahead journal, metrics) holds for an agent because it is the same code, not a
//! second implementation of it. The child gets no stdin but the body it is given (never
//! the protocol's stdin), its stdout and stderr are read here (bounded), and it runs in its
//! own process group: a client that closes the server kills the server's group
//! (the MCP stdio shutdown: SIGTERM, then SIGKILL, to the process group), and a change in
//! flight still finishes and journals its outcome.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::Arc;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::sync::Semaphore;

use super::tools::Command;

/// The most a tool's stdout keeps, in bytes; past it the call fails as too large (a list
/// of every object of a big cluster is not an answer a model can read).
pub const MAX_STDOUT_BYTES: usize = 8 * 1024 * 1024;

/// The most a tool's stderr keeps, in bytes (its warnings and its one error line).
pub const MAX_STDERR_BYTES: usize = 64 * 1024;

/// How many calls may wait for a free slot, beyond those running; one more is refused as
/// busy rather than queued without bound.
pub const MAX_WAITING: usize = 64;

/// What one child left: its exit code and what it printed.
#[derive(Debug, Clone)]
pub struct Ran {
    /// The exit code (docs/design.md, "Exit codes"); 1 when it ended on a signal.
    pub code: i32,
    /// Its stdout (at most [`MAX_STDOUT_BYTES`]).
    pub stdout: String,
    /// Its stderr (at most [`MAX_STDERR_BYTES`]).
    pub stderr: String,
    /// Whether stdout went past [`MAX_STDOUT_BYTES`] (the rest was read and dropped).
    pub truncated: bool,
}

/// Why a child could not be run (kind `runtime`).
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The binary could not be started.
    #[error("cannot start {exe}: {source}; reinstall kubectl-myops")]
    Spawn {
        /// The binary.
        exe: String,
        /// Why.
        source: std::io::Error,
    },
    /// More calls are waiting than [`MAX_WAITING`].
    #[error(
        "{running} tool call(s) are running (--max-concurrent) and {MAX_WAITING} more are waiting; retry when one has finished"
    )]
    Busy {
        /// The running limit.
        running: usize,
    },
}

/// Runs tool commands as children, at most `slots` at once.
#[derive(Debug, Clone)]
pub struct Runner {
    exe: PathBuf,
    globals: Vec<OsString>,
    slots: Arc<Semaphore>,
    limit: usize,
    waiting: Arc<std::sync::atomic::AtomicUsize>,
}

/// Who asked, for the child's journal and metrics.
#[derive(Debug, Clone)]
pub struct Caller {
    /// `mcp:NAME/VERSION` (`MYOPS_ACTOR`).
    pub actor: String,
    /// The session id every record of this call carries (`MYOPS_SESSION_ID`).
    pub session: String,
}

impl Runner {
    /// A runner of `exe` with the global flags `globals` before every command, `limit`
    /// children at once.
    pub fn new(exe: PathBuf, globals: Vec<OsString>, limit: usize) -> Runner {
        Runner {
            exe,
            globals,
            slots: Arc::new(Semaphore::new(limit)),
            limit,
            waiting: Arc::default(),
        }
    }

    /// Runs `cmd` (after the global flags and `extra`) as `caller`, waiting for a free slot.
    ///
    /// # Errors
    /// [`RunError::Busy`] when [`MAX_WAITING`] calls already wait; [`RunError::Spawn`] when
    /// the binary cannot be started.
    pub async fn run(
        &self,
        cmd: &Command,
        extra: &[String],
        caller: &Caller,
    ) -> Result<Ran, RunError> {
        use std::sync::atomic::Ordering;
        if self.waiting.fetch_add(1, Ordering::SeqCst) >= MAX_WAITING + self.limit {
            self.waiting.fetch_sub(1, Ordering::SeqCst);
            return Err(RunError::Busy {
                running: self.limit,
            });
        }
        let permit = self.slots.acquire().await;
        let ran = self.spawn(cmd, extra, caller).await;
        drop(permit);
        self.waiting.fetch_sub(1, Ordering::SeqCst);
        ran
    }

    async fn spawn(
        &self,
        cmd: &Command,
        extra: &[String],
        caller: &Caller,
    ) -> Result<Ran, RunError> {
        // The extra flags (`--dry-run=server`, a precondition) go before the `--` that
        // starts the positionals, among the command's own flags.
        let split = cmd
            .args
            .iter()
            .position(|a| a == "--")
            .unwrap_or(cmd.args.len());
        let mut c = tokio::process::Command::new(&self.exe);
        c.args(&self.globals)
            .args(&cmd.args[..split])
            .args(extra)
            .args(&cmd.args[split..])
            .env("MYOPS_ACTOR", &caller.actor)
            .env("MYOPS_SESSION_ID", &caller.session)
            .stdin(if cmd.stdin.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .kill_on_drop(false);
        let mut child = c.spawn().map_err(|source| RunError::Spawn {
            exe: self.exe.display().to_string(),
            source,
        })?;
        if let (Some(body), Some(mut stdin)) = (cmd.stdin.clone(), child.stdin.take()) {
            // Written on its own task: a child that stops reading must not block the reads.
            tokio::spawn(async move {
                let _ = stdin.write_all(body.as_bytes()).await;
            });
        }
        let out = child.stdout.take();
        let err = child.stderr.take();
        let (stdout, stderr) =
            tokio::join!(capped(out, MAX_STDOUT_BYTES), capped(err, MAX_STDERR_BYTES));
        let code = child.wait().await.ok().and_then(|s| s.code()).unwrap_or(1);
        Ok(Ran {
            code,
            truncated: stdout.1,
            stdout: String::from_utf8_lossy(&stdout.0).into_owned(),
            stderr: String::from_utf8_lossy(&stderr.0).into_owned(),
        })
    }
}

/// Reads `r` to its end, keeping the first `cap` bytes; whether there was more.
async fn capped(r: Option<impl AsyncRead + Unpin>, cap: usize) -> (Vec<u8>, bool) {
    let Some(mut r) = r else {
        return (Vec::new(), false);
    };
    let mut kept = Vec::new();
    let mut buf = vec![0u8; 64 * 1024];
    let mut more = false;
    loop {
        match r.read(&mut buf).await {
            Ok(0) | Err(_) => return (kept, more),
            Ok(n) => {
                let room = cap.saturating_sub(kept.len());
                kept.extend_from_slice(&buf[..n.min(room)]);
                more |= n > room;
            }
        }
    }
}
