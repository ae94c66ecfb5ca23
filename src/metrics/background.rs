//! The push off the command's critical path (docs/design.md, "Metrics"): a command records
//! its observation into the state file, starts a detached pusher — this same binary run as
//! `kubectl-myops __push` ([`PUSHER_ARG`]) — and exits without waiting for the Pushgateway.
//!
//! Why a separate process and not a task: the command's process ends as soon as its output
//! is written, and a task would die with it. The pusher runs in a process group of its own
//! (a terminal's ^C goes to the foreground group only), with stdin, stdout and stderr on
//! `/dev/null` (a caller that waits for the command's pipes to close, as `$(…)` and CI
//! runners do, is never held up by it). Its configuration — the group URL, timeout,
//! credentials, CA and families — is handed over in the child's environment
//! ([`SPEC_ENV`]), never in argv, which every user of the host can read with `ps`
//! (`/proc/<pid>/environ` is readable by the same user only, who can read the password file
//! anyway).
//!
//! Losing nothing: the totals are on disk before the pusher starts, and the pusher pushes
//! what the state holds when it runs, not what the command saw. Two pushers at once are
//! serialised by an exclusive lock on `<MYOPS_HOME>/metrics-push.lock`, which a pusher polls
//! for (never blocking its command, which has already exited): each pushes under the lock
//! what the state holds then, and re-reads the state after each `PUT` and pushes again while
//! it changed. The last pusher to take the lock therefore reads the newest totals, and an
//! older total never stays on the gateway after a newer one. A pusher whose totals the last
//! successful push already sent to the same group (`metrics-pushed`) sends nothing, so ten
//! commands at once cost one or two `PUT`s, not ten. (A pusher that left at once when the lock
//! was held, trusting the holder to push its totals, loses them when the holder's push fails
//! or goes to another group: a gateway down for the holder, or a plugin.yaml changed between
//! the two commands; waiting costs nothing on any command's path.) A pusher that is killed (a
//! CI job that ends at once kills its process tree) or that times out loses nothing either:
//! the totals stay on disk and the next push carries them.
//!
//! A failed push cannot warn in a terminal that has moved on: the pusher writes its warning
//! line (URL without userinfo, secrets scrubbed) to `<MYOPS_HOME>/metrics-push-failed`, and the
//! next command that records metrics prints it once ([`take_failure_note`]) and removes it.
//!
//! `MYOPS_METRICS_PUSH=sync` ([`MODE_ENV`]) keeps the push in the command, waiting for the
//! gateway and warning on the same run, as before (a CI step that must see its own metrics on
//! the gateway when it ends); so does a spawn that fails, a configuration too large for the
//! environment, and the crate's own unit tests. Linux is the target; the process-group call
//! is compiled on Unix only.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde::{Deserialize, Serialize};

use super::{PushTarget, encode, load};
use crate::base::fsutil;
use crate::config::model::MetricFamily;

/// The hidden first argument that runs the binary as a pusher ([`pusher_main`]). It is not a
/// clap subcommand: it is matched before parsing, so it shows in no help and no completion.
pub const PUSHER_ARG: &str = "__push";

/// The environment variable that carries a pusher's [`Spec`] (JSON).
pub const SPEC_ENV: &str = "MYOPS_PUSH_SPEC";

/// The environment variable choosing how a command pushes: `sync` waits for the gateway in the
/// command; anything else (or unset) pushes in the background.
pub const MODE_ENV: &str = "MYOPS_METRICS_PUSH";

/// The lock a pusher holds while it pushes (`<MYOPS_HOME>/metrics-push.lock`).
const PUSH_LOCK: &str = "metrics-push.lock";

/// The failure a background push left for the next command (`<MYOPS_HOME>/metrics-push-failed`).
const FAILED_NOTE: &str = "metrics-push-failed";

/// The largest spec put in a child's environment, in bytes: Linux refuses one environment
/// string over 128 KiB (`MAX_ARG_STRLEN`); a larger one (a CA bundle) pushes in the command.
const MAX_SPEC_BYTES: usize = 96 * 1024;

/// What the last successful background push sent (`<MYOPS_HOME>/metrics-pushed`): the group
/// URL, a newline, the body. A pusher that finds the state's totals already sent to its group
/// has nothing to do.
const PUSHED: &str = "metrics-pushed";

/// The largest [`PUSHED`] record read back, in bytes (a larger one is simply pushed again).
const MAX_PUSHED_BYTES: u64 = 4 * 1024 * 1024;

/// The largest failure note read back, in bytes.
const MAX_NOTE_BYTES: u64 = 16 * 1024;

/// How long a pusher may run at most, in multiples of the push timeout: waiting for the push
/// lock and pushing together (each `PUT` is bounded by the timeout; a holder that keeps
/// finding newer totals stops at the deadline).
const DEADLINE_TIMEOUTS: u32 = 4;

/// What a pusher needs: where the state is, where and how to push, and which families.
#[derive(Serialize, Deserialize)]
struct Spec {
    home: PathBuf,
    url: String,
    timeout_ms: u64,
    basic_auth: Option<(String, String)>,
    bearer_token: Option<String>,
    /// The CA PEM, base64 (a PEM file is text, but need not be UTF-8).
    ca_pem: Option<String>,
    families: Vec<MetricFamily>,
}

/// Whether this process pushes in the command itself: `MYOPS_METRICS_PUSH=sync`, the crate's
/// unit tests (their binary is no `kubectl-myops`), or a platform other than Unix.
pub fn push_in_command() -> bool {
    cfg!(test)
        || !cfg!(unix)
        || std::env::var(MODE_ENV).is_ok_and(|v| v.trim().eq_ignore_ascii_case("sync"))
}

/// Starts a detached pusher of the totals of `families` in `home` to `target` (its own group
/// URL) and returns without waiting for it.
///
/// # Errors
/// The spec does not fit in the environment, the executable cannot be found or the process
/// cannot be started; the caller then pushes in the command.
pub fn start(home: &Path, target: &PushTarget, families: &[MetricFamily]) -> std::io::Result<()> {
    let spec = Spec {
        home: home.to_path_buf(),
        url: target.url.clone(),
        timeout_ms: u64::try_from(target.timeout.as_millis()).unwrap_or(u64::MAX),
        basic_auth: target.basic_auth.clone(),
        bearer_token: target.bearer_token.clone(),
        ca_pem: target
            .ca_pem
            .as_ref()
            .map(|pem| base64::engine::general_purpose::STANDARD.encode(pem)),
        families: families.to_vec(),
    };
    let json = serde_json::to_string(&spec).map_err(std::io::Error::other)?;
    if json.len() > MAX_SPEC_BYTES {
        return Err(std::io::Error::other("the push configuration is too large"));
    }
    let mut command = std::process::Command::new(std::env::current_exe()?);
    command
        .arg(PUSHER_ARG)
        .env(SPEC_ENV, json)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    // Not waited for: the pusher outlives this process and is reaped by init.
    command.spawn().map(drop)
}

/// Forgets what the last background push sent (`metrics reset` and `metrics delete` remove the
/// group from the gateway, so the next pusher must send the totals even when they are the same).
pub fn forget_pushed(home: &Path) {
    let _ = std::fs::remove_file(home.join(PUSHED));
}

/// Takes the failure note a background push left in `home`, if any: its lines (each a
/// complete `warning: …` line), and removes it, so it is shown once. The note is renamed to a
/// name of this process's own before it is read, so two commands at once never both show it.
pub fn take_failure_note(home: &Path) -> Vec<String> {
    let note = home.join(FAILED_NOTE);
    let taken = home.join(format!(".{FAILED_NOTE}.{}", std::process::id()));
    if std::fs::rename(&note, &taken).is_err() {
        return Vec::new();
    }
    let text = fsutil::read_regular(&taken, MAX_NOTE_BYTES);
    let _ = std::fs::remove_file(&taken);
    let Ok(text) = text else {
        return Vec::new();
    };
    String::from_utf8_lossy(&text)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| crate::base::redact::scrub(l).into_owned())
        .collect()
}

/// Runs this process as a pusher (`kubectl-myops __push`): reads the [`SPEC_ENV`] spec and
/// pushes. Returns the exit code: 0 after any push outcome (nobody reads it; a failure is left
/// in the note), 2 when there is no valid spec (someone typed `__push`).
pub fn pusher_main() -> u8 {
    let Some(spec) = std::env::var(SPEC_ENV)
        .ok()
        .and_then(|json| serde_json::from_str::<Spec>(&json).ok())
    else {
        eprintln!(
            "error: {PUSHER_ARG} is the internal background metrics pusher; run `kubectl myops metrics push` to push the totals"
        );
        return 2;
    };
    let ca_pem = match spec.ca_pem.as_deref() {
        None => None,
        Some(b64) => match base64::engine::general_purpose::STANDARD.decode(b64) {
            Ok(pem) => Some(pem),
            Err(_) => return 2,
        },
    };
    let target = PushTarget {
        url: spec.url,
        timeout: Duration::from_millis(spec.timeout_ms),
        basic_auth: spec.basic_auth,
        bearer_token: spec.bearer_token,
        ca_pem,
    };
    target.register_secrets();
    let Ok(rt) = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    else {
        return 1;
    };
    rt.block_on(push_latest(&spec.home, &target, &spec.families));
    rt.shutdown_background();
    0
}

/// The pusher's work: wait (polling, until the deadline) for the push lock; under it, push
/// the state's totals unless the last successful push — by any pusher, to the same group —
/// already sent exactly these ([`PUSHED`]); keep pushing while they change; record a failure
/// for the next command.
async fn push_latest(home: &Path, target: &PushTarget, families: &[MetricFamily]) {
    let deadline = Instant::now() + target.timeout.saturating_mul(DEADLINE_TIMEOUTS);
    let lock_path = home.join(PUSH_LOCK);
    let _lock = loop {
        match fsutil::try_lock_exclusive(&lock_path) {
            Ok(Some(lock)) => break lock,
            Ok(None) if Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            // Still held at the deadline: the holder, or the next command's pusher, carries
            // these totals (they are on disk).
            _ => return,
        }
    };
    let Ok(state) = load(home) else {
        return;
    };
    let pushed_path = home.join(PUSHED);
    let marker = |body: &str| format!("{}\n{body}", target.url);
    let body = encode(&state, families);
    if fsutil::read_regular(&pushed_path, MAX_PUSHED_BYTES)
        .is_ok_and(|last| last == marker(&body).as_bytes())
    {
        return;
    }
    let (pushed, warnings) = super::push_settled(home, state, families, target, deadline).await;
    // Under the push lock, as write_atomic needs (one writer at a time).
    match pushed {
        Some(body) => {
            let _ = fsutil::write_atomic(&pushed_path, marker(&body).as_bytes());
        }
        None => {
            let _ = std::fs::remove_file(&pushed_path);
        }
    }
    if !warnings.is_empty() {
        let text: String = warnings
            .iter()
            .map(|w| {
                let w = w.replacen(
                    "warning: metrics push",
                    "warning: the last background metrics push",
                    1,
                );
                format!("{}\n", crate::base::redact::scrub(&w))
            })
            .collect();
        let _ = fsutil::write_atomic(&home.join(FAILED_NOTE), text.as_bytes());
    }
}

#[cfg(test)]
#[path = "background_tests.rs"]
mod tests;
