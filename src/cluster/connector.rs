//! Builds the kube [`Client`] from kube-rs's public pieces, with our own TCP connector that
//! turns Nagle's algorithm off (`TCP_NODELAY`).
//!
//! Why: kube-rs 5.0 builds its `HttpConnector` itself and leaves `TCP_NODELAY` off
//! (kube-client `client/builder.rs`, `TryFrom<(Config, E)> for ClientBuilder`; kube-rs issue
//! #2056). With Nagle on, a small write that follows another unacknowledged one (the TLS
//! Finished and the first request, a request's headers and its body) waits for the server's
//! delayed ACK — about 40 ms on Linux — so every new connection idled that long before its
//! first request (seen with `strace -e setsockopt`: `TCP_NODELAY, [0]`). kubectl (Go's
//! `net` package) sets `TCP_NODELAY` on every TCP connection by default.
//!
//! The stack below is kube-client 5.0's `make_generic_builder` with the same layers in the
//! same order — base URI, optional retry, authentication (bearer, basic, exec and
//! refreshable tokens), the extra headers (session, User-Agent, impersonation), the
//! connect/read/write timeouts, TLS through `ConfigExt::rustls_https_connector_with_connector`
//! (CA, client certificates, `tls-server-name`, `insecure-skip-tls-verify`) and the proxy
//! connectors (`http://`, `https://` and `socks5://` proxies, with basic authentication from
//! the proxy URL's userinfo) — minus what this crate does not use: tracing spans, gzip (not
//! enabled) and the exec client certificate's expiry time (`Client::valid_until`, not read by
//! a process that lives for one command).

use hyper::rt::{Read, Write};
use hyper_util::client::legacy::connect::{Connection, HttpConnector};
use hyper_util::rt::TokioExecutor;
use kube::client::{Body, ConfigExt};
use kube::{Client, Config};
use tower::{BoxError, Service, ServiceBuilder};

/// The TCP connector every connection starts from: `TCP_NODELAY` on (see the module
/// documentation), any URI scheme accepted (TLS and proxies are layered on top of it), as
/// kube-rs configures it otherwise.
pub fn tcp_connector() -> HttpConnector {
    let mut connector = HttpConnector::new();
    connector.enforce_http(false);
    connector.set_nodelay(true);
    connector
}

/// Builds the client for `config`: kube-rs's client stack over [`tcp_connector`], through
/// `config.proxy_url` when set (already chosen by [`super::proxy::choose`]).
///
/// Runs an exec credential plugin when the user has one (kube-rs runs it while it builds the
/// authentication layer and the TLS configuration), synchronously: call it from a blocking
/// task.
///
/// # Errors
/// `kube::Error` as `Client::try_from` gives them: unreadable TLS material, a failing
/// credential plugin, a header value that cannot be sent, or a proxy scheme other than
/// `http`, `https` and `socks5` ([`kube::Error::ProxyProtocolUnsupported`]).
pub fn build_client(config: Config) -> Result<Client, kube::Error> {
    let tcp = tcp_connector();
    match config.proxy_url.clone() {
        None => with_stack(tcp, config),
        Some(proxy) => match proxy.scheme_str() {
            Some("socks5") => with_stack(
                hyper_util::client::legacy::connect::proxy::SocksV5::new(proxy, tcp),
                config,
            ),
            Some("http") => {
                let tunnel =
                    hyper_util::client::legacy::connect::proxy::Tunnel::new(proxy.clone(), tcp);
                with_stack(with_proxy_auth(&proxy, tunnel), config)
            }
            Some("https") => {
                let tls_to_proxy = config.rustls_https_connector_with_connector(tcp)?;
                let tunnel = hyper_util::client::legacy::connect::proxy::Tunnel::new(
                    proxy.clone(),
                    tls_to_proxy,
                );
                with_stack(with_proxy_auth(&proxy, tunnel), config)
            }
            _ => Err(kube::Error::ProxyProtocolUnsupported {
                proxy_url: Box::new(proxy),
            }),
        },
    }
}

/// The `Proxy-Authorization` value for a proxy URL's userinfo (`user:password`), percent-
/// decoded first as kube-rs does (`http::Uri` keeps escapes; a password with `@` or `:` must
/// be escaped in the URL), or `None` without userinfo or when it cannot be a header value.
fn proxy_authorization(proxy: &http::Uri) -> Option<http::HeaderValue> {
    use base64::Engine;
    let userinfo = proxy.authority()?.as_str().rsplit_once('@')?.0;
    let plain: Vec<u8> = percent_encoding::percent_decode_str(userinfo).collect();
    let mut value = http::HeaderValue::from_str(&format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(plain)
    ))
    .ok()?;
    value.set_sensitive(true);
    Some(value)
}

/// `tunnel` with the proxy's basic authentication when its URL has userinfo.
pub(crate) fn with_proxy_auth<C>(
    proxy: &http::Uri,
    tunnel: hyper_util::client::legacy::connect::proxy::Tunnel<C>,
) -> hyper_util::client::legacy::connect::proxy::Tunnel<C> {
    match proxy_authorization(proxy) {
        Some(header) => tunnel.with_auth(header),
        None => tunnel,
    }
}

/// kube-client 5.0's `make_generic_builder` over `connector` (see the module documentation).
fn with_stack<H>(connector: H, config: Config) -> Result<Client, kube::Error>
where
    H: 'static + Clone + Send + Sync + Service<http::Uri>,
    H::Response: 'static + Connection + Read + Write + Send + Unpin,
    H::Future: 'static + Send,
    H::Error: 'static + Send + Sync + std::error::Error,
{
    let auth_layer = config.auth_layer()?;
    let tls = config.rustls_https_connector_with_connector(connector)?;
    let mut timed = hyper_timeout::TimeoutConnector::new(tls);
    timed.set_connect_timeout(config.connect_timeout);
    timed.set_read_timeout(config.read_timeout);
    timed.set_write_timeout(config.write_timeout);
    timed.set_reset_reader_on_write(config.reset_reader_on_write);
    let executor: TokioExecutor = TokioExecutor::new();
    let http: hyper_util::client::legacy::Client<_, Body> =
        hyper_util::client::legacy::Builder::new(executor).build(timed);
    let retry = config
        .default_retry
        .then(|| tower::retry::RetryLayer::new(kube::client::retry::RetryPolicy::server_retry()));
    let service = ServiceBuilder::new()
        .layer(config.base_uri_layer())
        .option_layer(retry)
        .option_layer(auth_layer)
        .layer(config.extra_headers_layer()?)
        .map_err(BoxError::from)
        .service(http);
    Ok(Client::new(service, config.default_namespace))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression (issue 12): kube-rs left Nagle's algorithm on, so the first request on each
    /// connection waited ~40 ms for the server's delayed ACK.
    #[tokio::test]
    async fn first_request_on_a_connection_waits_for_delayed_ack() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let accept = tokio::spawn(async move { listener.accept().await.unwrap() });
        let mut connector = tcp_connector();
        let uri: http::Uri = format!("https://{addr}").parse().unwrap();
        let io = connector
            .call(uri)
            .await
            .expect("connects to the local listener");
        assert!(
            io.inner().nodelay().unwrap(),
            "TCP_NODELAY must be on for API server connections"
        );
        accept.await.unwrap();
    }

    #[test]
    fn proxy_credentials_are_percent_decoded_and_sent_as_basic_auth() {
        let uri: http::Uri = "http://us%40er:p%3Ass@127.0.0.1:3128".parse().unwrap();
        let value = proxy_authorization(&uri).expect("userinfo gives a header");
        // base64("us@er:p:ss")
        assert_eq!(value.to_str().unwrap(), "Basic dXNAZXI6cDpzcw==");
        assert!(value.is_sensitive());
        let bare: http::Uri = "http://127.0.0.1:3128".parse().unwrap();
        assert_eq!(proxy_authorization(&bare), None);
    }

    #[test]
    fn an_unknown_proxy_scheme_is_refused_as_kube_refuses_it() {
        let mut config = Config::new("https://127.0.0.1:6443".parse().unwrap());
        config.proxy_url = Some("ftp://127.0.0.1:21".parse().unwrap());
        let e = build_client(config).err().expect("ftp proxies are refused");
        assert!(
            matches!(e, kube::Error::ProxyProtocolUnsupported { .. }),
            "{e}"
        );
    }
}
