//! `crds watch --metrics-addr HOST:PORT`: a long-running process is scraped, not pushed.
//!
//! Three endpoints on hyper 1's HTTP/1.1 server (the stack the clients already use; no web
//! framework):
//! - `/metrics`: the totals of the families plugin.yaml `metrics` lists, read from the state
//!   file (`<MYOPS_HOME>/metrics-state.json`) at each scrape and rendered by [`encode`] (the
//!   `prometheus` crate's `TextEncoder`) — the same families and values a push carries;
//! - `/healthz`: 200 while the process serves (liveness);
//! - `/readyz`: 200 when the caller's readiness function says so (the leader, or a follower
//!   that has seen the Lease recently), 503 otherwise.
//!
//! The request handling is the pure [`respond`]; [`bind`] and [`serve`] are the socket edge.

use std::convert::Infallible;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;

use http_body_util::Full;
use hyper::body::Bytes;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;

use super::{encode, load};
use crate::config::model::MetricFamily;

/// The Prometheus text exposition format's content type.
pub const TEXT_FORMAT: &str = "text/plain; version=0.0.4; charset=utf-8";

/// Why the endpoint could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The address is not `HOST:PORT` with an IP address (or `localhost`, or empty for all
    /// interfaces) — exit 2.
    #[error(
        "--metrics-addr {given:?}: {why}; give HOST:PORT with an IP address, e.g. 127.0.0.1:9100, [::1]:9100 or :9100 (all interfaces)"
    )]
    BadAddress {
        /// What was given.
        given: String,
        /// What is wrong with it.
        why: String,
    },
    /// The socket could not be bound (in use, not permitted, not a local address) — exit 1.
    #[error(
        "cannot serve metrics on {addr}: {source}; pick another --metrics-addr or stop what listens there"
    )]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
}

/// Parses `HOST:PORT`: `IPv4:PORT`, `[IPv6]:PORT`, `localhost:PORT` (127.0.0.1) or `:PORT`
/// (every interface, as Go's `net.Listen` reads it — what in-cluster `--metrics-bind-address`
/// flags use). Port 0 picks a free port (the log line names the one bound). Host names are
/// not resolved: a listening address is the machine's own.
///
/// # Errors
/// [`ServeError::BadAddress`] saying what is wrong.
pub fn parse_addr(s: &str) -> Result<SocketAddr, ServeError> {
    let bad = |why: &str| ServeError::BadAddress {
        given: s.to_string(),
        why: why.to_string(),
    };
    let Some((host, port)) = s.rsplit_once(':') else {
        return Err(bad("no port"));
    };
    let port: u16 = port
        .parse()
        .map_err(|_| bad("the port is not a number from 0 to 65535"))?;
    let ip: IpAddr = match host {
        "" => IpAddr::V4(Ipv4Addr::UNSPECIFIED),
        "localhost" => IpAddr::V4(Ipv4Addr::LOCALHOST),
        h => {
            let h = h
                .strip_prefix('[')
                .and_then(|h| h.strip_suffix(']'))
                .unwrap_or(h);
            if h.contains(':') && !host.starts_with('[') {
                return Err(bad("an IPv6 address needs brackets"));
            }
            h.parse()
                .map_err(|_| bad("the host is not an IP address (host names are not resolved)"))?
        }
    };
    Ok(SocketAddr::new(ip, port))
}

/// What to answer: status, content type, body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// HTTP status.
    pub status: u16,
    /// `Content-Type`.
    pub content_type: &'static str,
    /// Body (empty for HEAD).
    pub body: String,
}

/// The answer to `method path` (pure): `/metrics` gets `metrics()` — the exposition text, or
/// a 500 with the reason when the state cannot be read; `/healthz` 200 `ok`; `/readyz` 200
/// `ok` or 503 `not ready`; other paths 404; methods other than GET and HEAD 405.
pub fn respond(
    method: &str,
    path: &str,
    ready: bool,
    metrics: impl FnOnce() -> Result<String, String>,
) -> Answer {
    let plain = "text/plain; charset=utf-8";
    let answer = |status, content_type, body: &str| Answer {
        status,
        content_type,
        body: body.to_string(),
    };
    if method != "GET" && method != "HEAD" {
        return answer(405, plain, "only GET and HEAD\n");
    }
    let mut a = match path {
        "/metrics" => match metrics() {
            Ok(text) => answer(200, TEXT_FORMAT, &text),
            Err(why) => answer(500, plain, &format!("{why}\n")),
        },
        "/healthz" => answer(200, plain, "ok\n"),
        "/readyz" if ready => answer(200, plain, "ok\n"),
        "/readyz" => answer(503, plain, "not ready\n"),
        _ => answer(404, plain, "not found: try /metrics, /healthz or /readyz\n"),
    };
    if method == "HEAD" {
        a.body.clear();
    }
    a
}

/// What the endpoint reads at each request.
#[derive(Clone)]
pub struct Source {
    /// `$MYOPS_HOME` (the state file's directory).
    pub home: PathBuf,
    /// The families to serve (plugin.yaml `metrics`).
    pub families: Vec<MetricFamily>,
    /// Readiness, asked at each `/readyz`.
    pub ready: Arc<dyn Fn() -> bool + Send + Sync>,
}

/// Binds `addr` (before anything else is started, so a port in use fails the command at
/// once).
///
/// # Errors
/// [`ServeError::Bind`] when the address cannot be bound.
pub async fn bind(addr: SocketAddr) -> Result<tokio::net::TcpListener, ServeError> {
    tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|source| ServeError::Bind { addr, source })
}

/// How long a client may take to send a request head (Prometheus sends it at once; its
/// scrape timeout is 10 s by default).
const HEADER_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

/// Serves on `listener` until the task is aborted (or the process ends); returns the bound
/// address (the real port when 0 was asked) and the task.
///
/// # Errors
/// [`ServeError::Bind`] when the bound address cannot be read.
pub fn serve(
    listener: tokio::net::TcpListener,
    source: Source,
) -> Result<(SocketAddr, tokio::task::JoinHandle<()>), ServeError> {
    let bound = listener.local_addr().map_err(|source| ServeError::Bind {
        addr: SocketAddr::new(IpAddr::V4(Ipv4Addr::UNSPECIFIED), 0),
        source,
    })?;
    let task = tokio::spawn(async move {
        loop {
            // A failed accept (e.g. too many open files) must not end the endpoint.
            let Ok((stream, _)) = listener.accept().await else {
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                continue;
            };
            let source = source.clone();
            tokio::spawn(async move {
                let service = service_fn(move |req| handle(req, source.clone()));
                // A client must send its request head within HEADER_TIMEOUT: without a timer
                // hyper waits forever, so slow or silent clients would each hold a task and a
                // file descriptor for the life of the watcher.
                let _ = http1::Builder::new()
                    .timer(hyper_util::rt::TokioTimer::new())
                    .header_read_timeout(HEADER_TIMEOUT)
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    });
    Ok((bound, task))
}

async fn handle(
    req: Request<hyper::body::Incoming>,
    source: Source,
) -> Result<Response<Full<Bytes>>, Infallible> {
    let method = req.method().clone();
    let path = req.uri().path().to_string();
    // The state file is read under its lock on the blocking pool, only for /metrics.
    let text = if path == "/metrics" && (method == Method::GET || method == Method::HEAD) {
        let (home, families) = (source.home.clone(), source.families.clone());
        Some(
            tokio::task::spawn_blocking(move || {
                load(&home)
                    .map(|s| encode(&s, &families))
                    .map_err(|e| e.to_string())
            })
            .await
            .unwrap_or_else(|e| Err(format!("the metrics reader stopped: {e}"))),
        )
    } else {
        None
    };
    let a = respond(method.as_str(), &path, (source.ready)(), || {
        text.unwrap_or_else(|| Ok(String::new()))
    });
    let mut resp = Response::new(Full::new(Bytes::from(a.body)));
    *resp.status_mut() =
        StatusCode::from_u16(a.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    if let Ok(v) = http::HeaderValue::from_str(a.content_type) {
        resp.headers_mut().insert(http::header::CONTENT_TYPE, v);
    }
    Ok(resp)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_parse_like_go_listen_addresses_and_bad_ones_say_why() {
        let ok = |s: &str| parse_addr(s).unwrap().to_string();
        assert_eq!(ok("127.0.0.1:9100"), "127.0.0.1:9100");
        assert_eq!(ok(":9100"), "0.0.0.0:9100");
        assert_eq!(ok("localhost:0"), "127.0.0.1:0");
        assert_eq!(ok("[::1]:9100"), "[::1]:9100");
        let bad = |s: &str| parse_addr(s).unwrap_err().to_string();
        assert!(bad("9100").contains("no port"), "{}", bad("9100"));
        assert!(bad("127.0.0.1:70000").contains("0 to 65535"));
        assert!(bad("example.com:80").contains("host names are not resolved"));
        assert!(bad("::1:80").contains("brackets"));
        assert!(
            bad("1.2.3:80")
                .starts_with("--metrics-addr \"1.2.3:80\": the host is not an IP address")
        );
    }

    #[test]
    fn each_path_gets_its_answer() {
        let m = || Ok("ops_total 1\n".to_string());
        assert_eq!(
            respond("GET", "/metrics", false, m),
            Answer {
                status: 200,
                content_type: TEXT_FORMAT,
                body: "ops_total 1\n".into()
            }
        );
        let unread = respond("GET", "/metrics", true, || Err("cannot lock".to_string()));
        assert_eq!(
            (unread.status, unread.body.as_str()),
            (500, "cannot lock\n")
        );
        assert_eq!(respond("GET", "/healthz", false, m).status, 200);
        assert_eq!(respond("GET", "/readyz", true, m).status, 200);
        let not_ready = respond("GET", "/readyz", false, m);
        assert_eq!(
            (not_ready.status, not_ready.body.as_str()),
            (503, "not ready\n")
        );
        assert_eq!(respond("GET", "/other", true, m).status, 404);
        assert_eq!(respond("POST", "/metrics", true, m).status, 405);
        let head = respond("HEAD", "/metrics", true, m);
        assert_eq!((head.status, head.body.as_str()), (200, ""));
    }
}
