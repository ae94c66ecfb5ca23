//! Every request has a deadline (ARCHITECTURE §4). kubectl bounds discovery by 32 s (the
//! discovery client's `defaultTimeout = 32 * time.Second`, `k8s.io/client-go/discovery/
//! discovery_client.go`) and each call by `--request-timeout`; we apply `--request-timeout`
//! to every request when given, and 32 s otherwise, so no request — discovery, review, call,
//! credential plugin — can hang.

use std::future::Future;
use std::time::Duration;

use crate::cluster::ApiError;

/// The default deadline of one request when `--request-timeout` is not given (or is 0):
/// client-go's discovery timeout, 32 seconds.
pub const DEFAULT: Duration = Duration::from_secs(32);

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
        let d = request_timeout.filter(|d| !d.is_zero()).unwrap_or(DEFAULT);
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
    match tokio::time::timeout(deadline, fut).await {
        Ok(r) => r.map_err(|e| ApiError::from_kube(e, server)),
        Err(_) => Err(ApiError::Timeout {
            server: server.to_string(),
            what: what.to_string(),
            after: deadline,
        }),
    }
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
}
