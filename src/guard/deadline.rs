//! Every request has a deadline (docs/design.md, "The guarded path"). kubectl bounds
//! discovery by 32 s (the discovery client's `defaultTimeout = 32 * time.Second`,
//! `k8s.io/client-go/discovery/discovery_client.go`) and each call by `--request-timeout`; we apply `--request-timeout`
//! to every request when given, and 32 s otherwise, so no request — discovery, review, call,
//! credential plugin — can hang.

use std::future::Future;
use std::time::Duration;

use crate::cluster::ApiError;

/// The default deadline of one request when `--request-timeout` is not given (or is 0).
pub use crate::base::deadline::DEFAULT;

/// The deadlines of one invocation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deadlines {
    /// Aggregated discovery (both documents together).
    pub discovery: Duration,
    /// One SelfSubjectAccessReview or SelfSubjectReview.
    pub review: Duration,
    /// Any other request (and building the client, which may run a credential plugin).
    pub call: Duration,
}

impl Deadlines {
    /// `--request-timeout` bounds everything when given; [`DEFAULT`] otherwise.
    pub fn new(request_timeout: Option<Duration>) -> Deadlines {
        let d = crate::base::deadline::of(request_timeout);
        Deadlines {
            discovery: d,
            review: d,
            call: d,
        }
    }
}

/// Runs `fut` under `deadline`: a kube error is classified as usual, no answer in time is
/// [`ApiError::Timeout`] naming `what` (e.g. "the SelfSubjectAccessReview").
///
/// The connection's own timeouts (`--request-timeout` is also the connector's connect and
/// read timeout, as client-go's `Timeout` bounds the dial) end the same wait from below, at
/// the same moment: an error caused by one of them ([`timed_out`]) is the same
/// [`ApiError::Timeout`], not "cannot reach" — which of two equal timers fired first must not
/// change the message (a SIGSTOPped API server accepted the TCP connection and
/// never finished TLS; the answer was either sentence, by a race).
///
/// # Errors
/// The request's own error, or the timeout.
pub async fn bounded<T, F>(
    server: &str,
    what: &str,
    deadline: Duration,
    fut: F,
) -> Result<T, ApiError>
where
    F: Future<Output = Result<T, kube::Error>>,
{
    // Read when the deadline passed: a proxy that never answered the CONNECT is named, not
    // the server behind it (crate::cluster::tunnel).
    let timeout = || match crate::cluster::client::proxy_in_use() {
        Some(proxy) if crate::cluster::tunnel::proxy_silent() => ApiError::ProxyTimeout {
            server: server.to_string(),
            proxy: proxy.to_string(),
            what: what.to_string(),
            after: deadline,
        },
        _ => ApiError::Timeout {
            server: server.to_string(),
            what: what.to_string(),
            after: deadline,
        },
    };
    match tokio::time::timeout(deadline, fut).await {
        Ok(Err(e)) if timed_out(&e) => Err(timeout()),
        Ok(r) => r.map_err(|e| ApiError::from_kube(e, server)),
        Err(_) => Err(timeout()),
    }
}

/// Whether `e` was caused by a timer running out below the request: tokio's `Elapsed`, or
/// the `io::ErrorKind::TimedOut` hyper-timeout's connect/read/write timeouts wrap it in
/// (pure: walks the error's `source()` chain).
pub fn timed_out(e: &(dyn std::error::Error + 'static)) -> bool {
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(c) = cause {
        if c.is::<tokio::time::error::Elapsed>()
            || c.downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::TimedOut)
        {
            return true;
        }
        cause = c.source();
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_timeout_bounds_everything_and_zero_means_the_default() {
        assert_eq!(Deadlines::new(None).discovery, Duration::from_secs(32));
        assert_eq!(
            Deadlines::new(Some(Duration::ZERO)).review,
            Duration::from_secs(32)
        );
        let d = Deadlines::new(Some(Duration::from_secs(2)));
        assert_eq!(
            (d.discovery, d.review, d.call),
            (
                Duration::from_secs(2),
                Duration::from_secs(2),
                Duration::from_secs(2)
            )
        );
    }

    #[tokio::test]
    async fn a_future_that_never_finishes_is_a_timeout_naming_what_was_asked() {
        let never = std::future::pending::<Result<(), kube::Error>>();
        let e = bounded(
            "https://127.0.0.1:1",
            "the discovery request",
            Duration::from_millis(20),
            never,
        )
        .await
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "the API server https://127.0.0.1:1 did not answer the discovery request within 20ms; check that it is up and reachable, or raise --request-timeout"
        );
        assert_eq!(e.exit_status(), crate::exit::ExitStatus::Failure);
    }

    /// tests/chaos/apiserver_restart.rs: the connector's connect
    /// timeout equals the deadline, and when it fired first a frozen server was reported as
    /// "cannot reach the API server …: deadline has elapsed" instead of "did not answer".
    #[tokio::test]
    async fn a_frozen_server_said_cannot_reach_when_the_connect_timeout_fired_first() {
        let failing = |kind, text: &'static str| async move {
            let io = std::io::Error::new(kind, text.to_string());
            let failed = std::future::ready(Err::<(), _>(kube::Error::Service(Box::new(io))));
            bounded(
                "https://127.0.0.1:1",
                "the request",
                Duration::from_secs(3),
                failed,
            )
            .await
            .unwrap_err()
            .to_string()
        };
        assert_eq!(
            failing(std::io::ErrorKind::TimedOut, "deadline has elapsed").await,
            "the API server https://127.0.0.1:1 did not answer the request within 3s; check that it is up and reachable, or raise --request-timeout"
        );
        let refused = failing(std::io::ErrorKind::ConnectionRefused, "refused").await;
        assert!(
            refused.starts_with("cannot reach the API server"),
            "{refused}"
        );
    }
}
