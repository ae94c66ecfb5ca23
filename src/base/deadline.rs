//! How long any one wait of a command may last (docs/design.md, "The guarded path"):
//! `--request-timeout` when given, else 32 s. kubectl bounds discovery by 32 s (the discovery
//! client's `defaultTimeout = 32 * time.Second`, `k8s.io/client-go/discovery/discovery_client.go`)
//! and each call by `--request-timeout`; this tool bounds every request, every credential
//! plugin that asks nobody anything (an interactive one on a terminal waits for the user, as
//! in client-go) and every read of a FIFO the user named by the same value.

use std::time::Duration;

/// The deadline of one wait when `--request-timeout` is not given (or is 0): client-go's
/// discovery timeout, 32 seconds.
pub const DEFAULT: Duration = Duration::from_secs(32);

/// The deadline of one wait: `request_timeout` (`--request-timeout`) when given and not zero,
/// else [`DEFAULT`].
///
/// ```
/// use std::time::Duration;
/// use myops::base::deadline::{DEFAULT, of};
/// assert_eq!(of(None), DEFAULT);
/// assert_eq!(of(Some(Duration::ZERO)), DEFAULT);
/// assert_eq!(of(Some(Duration::from_secs(2))), Duration::from_secs(2));
/// ```
pub fn of(request_timeout: Option<Duration>) -> Duration {
    request_timeout.filter(|d| !d.is_zero()).unwrap_or(DEFAULT)
}
