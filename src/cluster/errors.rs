//! Errors of calls to the API server, mapped to our exit codes (docs/design.md,
//! "Exit codes").

use crate::exit::ExitStatus;

/// A failed API request.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The server answered with a `Status` failure; printed the way kubectl prints it.
    #[error("Error from server ({reason}): {message}")]
    Server {
        /// HTTP status code (404, 403, 409, 422, …).
        code: u16,
        /// The Status `reason` (`NotFound`, `Forbidden`, `Conflict`, …).
        reason: String,
        /// The server's message.
        message: String,
    },
    /// No answer: connection refused, TLS failure, timeout.
    #[error(
        "cannot reach the API server {server}: {detail}; check that the cluster is running and --context/--server point at it"
    )]
    Transport {
        /// The API server URL.
        server: String,
        /// The innermost causes, e.g. `invalid peer certificate: UnknownIssuer` or
        /// `deadline has elapsed` (the outer kube layers only say "client error (Connect)").
        detail: String,
        /// The underlying client error (boxed: it is large).
        #[source]
        source: Box<kube::Error>,
    },
    /// The proxy in use (kubeconfig `proxy-url`, or `HTTPS_PROXY`/`HTTP_PROXY` not excluded
    /// by `NO_PROXY`) could not be reached or refused the tunnel to the API server.
    #[error(
        "cannot reach the API server {server} through the proxy {proxy}: {detail}; check that the proxy is up and allows CONNECT to the server, or fix HTTPS_PROXY/NO_PROXY or the cluster's proxy-url in the kubeconfig"
    )]
    Proxy {
        /// The API server URL.
        server: String,
        /// The proxy URL, without userinfo.
        proxy: String,
        /// The innermost causes (hyper-util's `tunnel error: …` or `SOCKS error: …`).
        detail: String,
        /// The underlying client error (boxed: it is large).
        #[source]
        source: Box<kube::Error>,
    },
    /// The request was sent (or a connection attempted) and nothing came back before its
    /// deadline (docs/design.md, "The guarded path": every request is bounded).
    #[error(
        "the API server {server} did not answer {what} within {}; check that it is up and reachable, or raise --request-timeout",
        crate::config::duration_string::format(*.after)
    )]
    Timeout {
        /// The API server URL.
        server: String,
        /// What was asked, e.g. `the discovery request` or `the SelfSubjectAccessReview`.
        what: String,
        /// The deadline that passed.
        after: std::time::Duration,
    },
    /// The server answered, and the answer could not be read: not JSON of the expected shape,
    /// not UTF-8, or nested deeper than this client reads ([`crate::base::decode::MAX_DEPTH`]). The
    /// request reached the server, so it is never a connection error, and a mutation it
    /// answered may have been carried out ([`ApiError::may_have_applied`]).
    #[error(
        "the API server {server} answered, but its answer could not be read: {detail}; the request reached the server (this is not a connection problem) — read the object with kubectl to see what the server holds"
    )]
    Undecodable {
        /// The API server URL.
        server: String,
        /// Why the answer could not be read (the decoder's own words).
        detail: String,
    },
    /// The request's deadline passed while it waited for the proxy to open the tunnel to the
    /// API server (a `CONNECT` never answered, `super::tunnel`): the server was never reached,
    /// so the proxy is named, and the deadline that ended the wait.
    #[error(
        "the proxy {proxy} did not open a tunnel to the API server {server} for {what} within {} (the request deadline); check that the proxy is up and answers CONNECT, fix HTTPS_PROXY/NO_PROXY or the cluster's proxy-url in the kubeconfig, or raise --request-timeout",
        crate::config::duration_string::format(*.after)
    )]
    ProxyTimeout {
        /// The API server URL.
        server: String,
        /// The proxy URL, without userinfo.
        proxy: String,
        /// What was asked, e.g. `the discovery request`.
        what: String,
        /// The deadline that passed.
        after: std::time::Duration,
    },
    /// A mutating request went (or may have gone) to the server and its answer was lost, or
    /// said only that it may still complete ([`ApiError::may_have_applied`]): the server may
    /// have made the change. Its change-log
    /// entry records the outcome as unknown (`changelog reconcile` decides it).
    #[error(
        "{source} — the request may have reached the server, so the outcome of change-log entry {entry} is unknown; `kubectl myops changelog reconcile {entry}` decides it from the live object"
    )]
    Lost {
        /// The change-log entry whose outcome is unknown.
        entry: String,
        /// The failure that cut the answer off.
        #[source]
        source: Box<ApiError>,
    },
}

/// The error and its sources, outermost first, without repeats: the useful part of a
/// transport error is usually its deepest cause.
pub fn causes(err: &(dyn std::error::Error + 'static)) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut cur: Option<&(dyn std::error::Error + 'static)> = Some(err);
    while let Some(e) = cur {
        let text = e.to_string();
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        cur = e.source();
    }
    // Keep the last two: the specific cause and the layer that saw it.
    let n = parts.len();
    parts[n.saturating_sub(2)..].join(": ")
}

/// Whether the error came from the proxy connector: hyper-util's `Tunnel` and `SocksV5`
/// errors display as `tunnel error: …` and `SOCKS error: …` somewhere in the chain.
fn through_proxy(err: &(dyn std::error::Error + 'static)) -> bool {
    let mut cur = Some(err);
    while let Some(e) = cur {
        let text = e.to_string();
        if text.starts_with("tunnel error") || text.starts_with("SOCKS error") {
            return true;
        }
        cur = e.source();
    }
    false
}

/// Whether kube's error `e` came before any byte of the request reached a connection: the
/// request or its credentials could not be built, or hyper-util's client could not connect
/// (`legacy::Error::is_connect`: refused, unresolvable, TLS or proxy handshake failed, the
/// connect timeout passed).
fn never_sent(e: &kube::Error) -> bool {
    match e {
        kube::Error::Auth(_)
        | kube::Error::BuildRequest(_)
        | kube::Error::HttpError(_)
        | kube::Error::InferConfig(_)
        | kube::Error::InferKubeconfig(_)
        | kube::Error::ProxyProtocolUnsupported { .. }
        | kube::Error::ProxyProtocolDisabled { .. }
        | kube::Error::TlsRequired
        | kube::Error::RustlsTls(_) => true,
        other => {
            let mut cur: Option<&(dyn std::error::Error + 'static)> = Some(other);
            while let Some(err) = cur {
                if err
                    .downcast_ref::<hyper_util::client::legacy::Error>()
                    .is_some_and(hyper_util::client::legacy::Error::is_connect)
                {
                    return true;
                }
                cur = err.source();
            }
            false
        }
    }
}

impl ApiError {
    /// Classifies a kube error: a server `Status` keeps its code, anything else is transport.
    pub fn from_kube(err: kube::Error, server: &str) -> ApiError {
        match err {
            kube::Error::Api(s) => {
                let reason = if s.reason.is_empty() {
                    format!("HTTP {}", s.code)
                } else {
                    s.reason.clone()
                };
                // A Status's causes say what was wrong (e.g. which JSON-patch test failed).
                let causes: Vec<String> = s
                    .details
                    .iter()
                    .flat_map(|d| d.causes.iter())
                    .map(|c| {
                        if c.field.is_empty() {
                            c.message.clone()
                        } else {
                            format!("{}: {}", c.field, c.message)
                        }
                    })
                    .filter(|m| !m.is_empty() && !s.message.contains(m.as_str()))
                    .collect();
                let message = if causes.is_empty() {
                    s.message.clone()
                } else {
                    format!("{} ({})", s.message, causes.join("; "))
                };
                ApiError::Server {
                    code: s.code,
                    reason,
                    message,
                }
            }
            kube::Error::SerdeError(e) => ApiError::Undecodable {
                server: server.to_string(),
                detail: e.to_string(),
            },
            kube::Error::FromUtf8(e) => ApiError::Undecodable {
                server: server.to_string(),
                detail: format!("it is not UTF-8 text ({e})"),
            },
            other => {
                let detail = causes(&other);
                // hyper-util's proxy connectors prefix their errors so: the proxy failed,
                // not the server behind it.
                match super::client::proxy_in_use() {
                    Some(proxy) if through_proxy(&other) => ApiError::Proxy {
                        server: server.to_string(),
                        proxy: proxy.to_string(),
                        detail,
                        source: Box::new(other),
                    },
                    _ => ApiError::Transport {
                        server: server.to_string(),
                        detail,
                        source: Box::new(other),
                    },
                }
            }
        }
    }

    /// The HTTP status code when the server answered.
    pub fn code(&self) -> Option<u16> {
        match self {
            ApiError::Server { code, .. } => Some(*code),
            ApiError::Transport { .. }
            | ApiError::Proxy { .. }
            | ApiError::Timeout { .. }
            | ApiError::Undecodable { .. }
            | ApiError::ProxyTimeout { .. }
            | ApiError::Lost { .. } => None,
        }
    }

    /// Whether the request may have reached the server and been carried out although the
    /// failure does not say so: a connection reset or closed after the request was written,
    /// a server stopped mid-request, an answer that came but could not be read
    /// ([`ApiError::Undecodable`]: the server got the request whole), a deadline that passed
    /// (which cannot tell whether the request was written), or the server's own 504 — "a
    /// timeout occurred before the request could be completed … the operation may still
    /// complete" (`NewTimeoutError`, k8s.io/apimachinery/pkg/api/errors/errors.go). Not for
    /// any other answer, nor when the connection was never made — refused, unresolvable, a
    /// failed TLS handshake or proxy tunnel (hyper-util's `Error::is_connect`) — or the
    /// request never built (credentials, a bad header): then nothing was sent.
    pub fn may_have_applied(&self) -> bool {
        match self {
            ApiError::Server { code, .. } => *code == 504,
            ApiError::Proxy { .. } => false,
            // A tunnel not yet open carried nothing — unless another connection did; a
            // deadline cannot tell, so the outcome stays open as for any timeout.
            ApiError::Timeout { .. }
            | ApiError::ProxyTimeout { .. }
            | ApiError::Undecodable { .. }
            | ApiError::Lost { .. } => true,
            ApiError::Transport { source, .. } => !never_sent(source),
        }
    }

    /// Whether the failure is the server's state rather than the request's: no answer
    /// (transport, proxy, timeout) or an answer that says "later" — 429, 500, 502, 503, 504
    /// (a stopped or restarting kube-apiserver, its etcd down). A long-running command
    /// (`get -w`, `crds watch`) waits such a failure out and tries again; client-go's
    /// reflector does the same for a refused connection and 429
    /// (`k8s.io/client-go/tools/cache/reflector.go`, `watch`). One-shot commands fail at once.
    /// An answer that could not be read is not: the server holds what it sent, and asking
    /// again gets the same answer.
    pub fn is_transient(&self) -> bool {
        match self {
            ApiError::Undecodable { .. } => false,
            ApiError::Transport { .. }
            | ApiError::Proxy { .. }
            | ApiError::Timeout { .. }
            | ApiError::ProxyTimeout { .. }
            | ApiError::Lost { .. } => true,
            ApiError::Server { code, .. } => matches!(code, 429 | 500 | 502 | 503 | 504),
        }
    }

    /// 404 → not found (4), 403 → denied (3), 409 → conflict (5), 400/415/422 → usage (2),
    /// anything else → runtime failure (1).
    pub fn exit_status(&self) -> ExitStatus {
        match self.code() {
            Some(404) => ExitStatus::NotFound,
            Some(403) => ExitStatus::Denied,
            Some(409) => ExitStatus::Conflict,
            Some(400 | 415 | 422) => ExitStatus::Usage,
            _ => ExitStatus::Failure,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn server(code: u16) -> ApiError {
        ApiError::Server {
            code,
            reason: "R".into(),
            message: "m".into(),
        }
    }

    #[test]
    fn status_codes_map_to_documented_exit_codes() {
        assert_eq!(server(404).exit_status(), ExitStatus::NotFound);
        assert_eq!(server(403).exit_status(), ExitStatus::Denied);
        assert_eq!(server(409).exit_status(), ExitStatus::Conflict);
        assert_eq!(server(422).exit_status(), ExitStatus::Usage);
        assert_eq!(server(500).exit_status(), ExitStatus::Failure);
        assert_eq!(server(404).to_string(), "Error from server (R): m");
    }

    #[test]
    fn an_answer_that_could_not_be_read_is_no_connection_error() {
        let err = serde_json::from_str::<serde_json::Value>("{\"a\": ").unwrap_err();
        let e = ApiError::from_kube(kube::Error::SerdeError(err), "https://x");
        assert_eq!(
            e.to_string(),
            "the API server https://x answered, but its answer could not be read: EOF while parsing a value at line 1 column 6; the request reached the server (this is not a connection problem) — read the object with kubectl to see what the server holds"
        );
        assert!(e.may_have_applied() && !e.is_transient());
        assert_eq!(e.exit_status(), ExitStatus::Failure);
    }

    #[test]
    fn a_stopped_or_restarting_server_is_transient_a_refusal_is_not() {
        for code in [429, 500, 502, 503, 504] {
            assert!(server(code).is_transient(), "{code}");
        }
        for code in [400, 401, 403, 404, 409, 410, 422] {
            assert!(!server(code).is_transient(), "{code}");
        }
        let timeout = ApiError::Timeout {
            server: "https://127.0.0.1:1".into(),
            what: "the watch request".into(),
            after: std::time::Duration::from_secs(1),
        };
        assert!(timeout.is_transient());
    }
}

/// [`ApiError::may_have_applied`] on real failures of the client stack, against loopback listeners
/// this test owns (no cluster): a refused connection sent nothing, a connection closed after
/// the request was read may have been served.
#[cfg(test)]
mod lost_tests {
    use tokio::io::AsyncReadExt;

    use super::*;

    /// The failure of a DELETE sent by the production client stack to `addr`.
    async fn delete_to(addr: std::net::SocketAddr) -> ApiError {
        let server = format!("http://{addr}");
        let config = kube::Config::new(server.parse().unwrap());
        let client = crate::cluster::connector::build_client(config, None).unwrap();
        let req = http::Request::delete("/api/v1/namespaces/shop/configmaps/web")
            .body(Vec::new())
            .unwrap();
        let err = client.request_text(req).await.expect_err("no answer comes");
        ApiError::from_kube(err, &server)
    }

    #[tokio::test]
    async fn a_refused_connection_sent_nothing_so_its_answer_is_not_lost() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        drop(listener);
        let e = delete_to(addr).await;
        assert!(matches!(e, ApiError::Transport { .. }), "{e:?}");
        assert!(!e.may_have_applied(), "{e}");
    }

    #[tokio::test]
    async fn a_connection_closed_after_the_request_was_read_loses_the_answer() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let server = tokio::spawn(async move {
            let (mut sock, _) = listener.accept().await.unwrap();
            let mut seen = Vec::new();
            let mut buf = [0u8; 1024];
            while !seen.windows(4).any(|w| w == b"\r\n\r\n") {
                let n = sock.read(&mut buf).await.unwrap();
                if n == 0 {
                    break;
                }
                seen.extend_from_slice(&buf[..n]);
            }
            // The request arrived whole; the server stops before it answers.
            drop(sock);
            String::from_utf8_lossy(&seen).into_owned()
        });
        let e = delete_to(addr).await;
        let seen = server.await.unwrap();
        assert!(
            seen.starts_with("DELETE /api/v1/namespaces/shop/configmaps/web"),
            "{seen}"
        );
        assert!(matches!(e, ApiError::Transport { .. }), "{e:?}");
        assert!(e.may_have_applied(), "{e}");
    }

    #[test]
    fn an_answer_says_what_happened_and_a_deadline_or_a_504_cannot() {
        let conflict = ApiError::Server {
            code: 409,
            reason: "Conflict".into(),
            message: "m".into(),
        };
        assert!(!conflict.may_have_applied());
        let storage_timeout = ApiError::Server {
            code: 504,
            reason: "Timeout".into(),
            message: "Timeout: request did not complete within the allotted timeout".into(),
        };
        assert!(
            storage_timeout.may_have_applied(),
            "the operation may still complete"
        );
        let timeout = ApiError::Timeout {
            server: "https://x".into(),
            what: "the request".into(),
            after: std::time::Duration::from_secs(1),
        };
        assert!(timeout.may_have_applied());
        let lost = ApiError::Lost {
            entry: "1-2-3".into(),
            source: Box::new(timeout),
        };
        assert!(lost.may_have_applied() && lost.is_transient());
        assert_eq!(lost.exit_status(), ExitStatus::Failure);
        assert!(
            lost.to_string().ends_with(
                "the outcome of change-log entry 1-2-3 is unknown; `kubectl myops changelog reconcile 1-2-3` decides it from the live object"
            ),
            "{lost}"
        );
    }
}
