//! Which proxy tunnels are still waiting for the proxy's answer, so a request that runs out of
//! time while one is can name the proxy rather than the API server behind it
//! ([`super::errors::ApiError::ProxyTimeout`]).
//!
//! Why: a CONNECT proxy that accepts the TCP connection and never answers the `CONNECT`
//! leaves the request with no answer at all; without this, the message blamed the API server,
//! which was never reached. hyper-util's `Tunnel` connector reports nothing until the proxy
//! answers, so the connector is wrapped ([`Watched`]): a `CONNECT` is pending from its call
//! until its future ends (answered, failed, or dropped).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// How many `CONNECT`s of this process are waiting for the proxy now.
static PENDING: AtomicUsize = AtomicUsize::new(0);

/// Whether the last `CONNECT` that ended was given up (its future dropped, e.g. by the
/// connect timeout below the request) before the proxy answered.
static UNANSWERED: AtomicBool = AtomicBool::new(false);

/// Whether the proxy is silent: a `CONNECT` is waiting for its answer now, or the last one
/// was given up before the proxy answered it.
pub fn proxy_silent() -> bool {
    PENDING.load(Ordering::SeqCst) > 0 || UNANSWERED.load(Ordering::SeqCst)
}

/// Counts a `CONNECT` as pending while it lives; `answered` once the proxy answered (a
/// tunnel, or a failure of its own).
struct Pending {
    answered: bool,
}

impl Pending {
    fn start() -> Pending {
        PENDING.fetch_add(1, Ordering::SeqCst);
        Pending { answered: false }
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        UNANSWERED.store(!self.answered, Ordering::SeqCst);
        PENDING.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A proxy connector (hyper-util's `Tunnel`) whose calls count as pending `CONNECT`s.
#[derive(Clone)]
pub struct Watched<C>(pub C);

impl<C> tower::Service<http::Uri> for Watched<C>
where
    C: tower::Service<http::Uri>,
    C::Future: Send + 'static,
{
    type Response = C::Response;
    type Error = C::Error;
    type Future =
        std::pin::Pin<Box<dyn std::future::Future<Output = Result<C::Response, C::Error>> + Send>>;

    fn poll_ready(
        &mut self,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), C::Error>> {
        self.0.poll_ready(cx)
    }

    fn call(&mut self, dst: http::Uri) -> Self::Future {
        let pending = Pending::start();
        let fut = self.0.call(dst);
        Box::pin(async move {
            // Moved in whole (not just its field), so it lives as long as the future.
            let mut pending = pending;
            let out = fut.await;
            pending.answered = true;
            out
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_connect_is_silent_until_the_proxy_answers_it() {
        use tower::Service;
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let rx = std::sync::Arc::new(tokio::sync::Mutex::new(Some(rx)));
        let never = tower::service_fn(move |_: http::Uri| {
            let rx = rx.clone();
            async move {
                let rx = rx.lock().await.take();
                if let Some(rx) = rx {
                    let _ = rx.await;
                }
                Ok::<_, std::io::Error>(())
            }
        });
        let mut w = Watched(never);
        let call = w.call("http://127.0.0.1:1".parse().unwrap());
        assert!(proxy_silent());
        tx.send(()).unwrap();
        call.await.unwrap();
        assert!(!proxy_silent(), "answered");
        // Given up before an answer (the connect timeout dropped it): still silent.
        let call = w.call("http://127.0.0.1:1".parse().unwrap());
        drop(call);
        assert!(proxy_silent(), "given up");
    }
}
