//! Builds the kube [`Client`] from kube-rs's public pieces, with our own TCP connector that
//! turns Nagle's algorithm off (`TCP_NODELAY`).
//!
//! Why: kube-rs 5.0 builds its `HttpConnector` itself and leaves `TCP_NODELAY` off
//! (kube-client `client/builder.rs`, `TryFrom<(Config, E)> for ClientBuilder`; kube-rs issue
//! #2056). With Nagle on, a small write that follows another unacknowledged one (the TLS
//! Finished and the first request, a request's headers and its body) waits for the server's
//! delayed ACK — about 40 ms on Linux — so every new connection idles that long before its
//! first request (`strace -e setsockopt` shows `TCP_NODELAY, [0]`). kubectl (Go's
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
//!
//! Shared transports (a fan-out over contexts, docs/fleet.md): below the per-context layers (base
//! URI, authentication, headers) sits the HTTP client with its connection pool. Two configs whose
//! connections are interchangeable — the same TLS material (CA, client certificate and key,
//! `tls-server-name`, `insecure-skip-tls-verify`), proxy and timeouts ([`TransportKey`]) — share
//! one pool within the process, so 40 contexts over two API servers open a few connections instead
//! of 40 TLS handshakes. This is client-go's transport cache
//! (`k8s.io/client-go/transport/cache.go`, `tlsCacheKey`): bearer tokens, basic authentication and
//! impersonation are per-request headers and stay per context; a config that still names an exec
//! credential plugin is never shared (client-go does not cache a transport whose certificate
//! comes from a callback either) — `super::client` runs the plugin first (`super::exec_plugin`)
//! and hands over its token as a layer and its client certificate as TLS material, so none does.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use hyper::rt::{Read, Write};
use hyper_util::client::legacy::connect::{Connection, HttpConnector};
use hyper_util::rt::TokioExecutor;
use kube::client::{Body, ConfigExt};
use kube::{Client, Config};
use secrecy::ExposeSecret;
use tower::util::BoxCloneSyncService;
use tower::{BoxError, Service, ServiceBuilder};

use super::tunnel::Watched;

/// The HTTP client below the per-context layers: connection pool, TLS, proxy and timeouts,
/// type-erased so that clients over different connector types share one cache.
type Transport = BoxCloneSyncService<
    http::Request<Body>,
    http::Response<hyper::body::Incoming>,
    hyper_util::client::legacy::Error,
>;

/// Everything that decides what a connection to a server is, and nothing sent per request
/// (client-go `transport/cache.go` `tlsCacheKey`): two configs with equal keys may use each
/// other's connections. Holds the key material itself (compared exactly, never hashed to
/// something that could collide) and so deliberately implements neither `Debug` nor
/// `Display`.
#[derive(PartialEq, Eq, Hash)]
pub struct TransportKey {
    root_cert: Option<Vec<Vec<u8>>>,
    root_cert_file: Option<std::path::PathBuf>,
    accept_invalid_certs: bool,
    tls_server_name: Option<String>,
    client_certificate: Option<String>,
    client_certificate_data: Option<String>,
    client_key: Option<String>,
    client_key_data: Option<String>,
    proxy_url: Option<String>,
    timeouts: [Option<std::time::Duration>; 3],
    reset_reader_on_write: bool,
}

impl TransportKey {
    /// The key of `config`'s connections, or `None` when they must not be shared: an exec
    /// credential plugin may hand out a client certificate of its own (kube-rs reads it while
    /// it builds the TLS configuration), which no key here can describe.
    pub fn of(config: &Config) -> Option<TransportKey> {
        let a = &config.auth_info;
        if a.exec.is_some() {
            return None;
        }
        Some(TransportKey {
            root_cert: config.root_cert.clone(),
            root_cert_file: config.root_cert_file.clone(),
            accept_invalid_certs: config.accept_invalid_certs,
            tls_server_name: config.tls_server_name.clone(),
            client_certificate: a.client_certificate.clone(),
            client_certificate_data: a.client_certificate_data.clone(),
            client_key: a.client_key.clone(),
            client_key_data: a
                .client_key_data
                .as_ref()
                .map(|k| k.expose_secret().to_string()),
            proxy_url: config.proxy_url.as_ref().map(ToString::to_string),
            timeouts: [
                config.connect_timeout,
                config.read_timeout,
                config.write_timeout,
            ],
            reset_reader_on_write: config.reset_reader_on_write,
        })
    }
}

/// The process's transports by [`TransportKey`]; a process lives for one command, so the
/// map lives as long (client-go keeps its cache for the process too).
static TRANSPORTS: Mutex<Option<HashMap<TransportKey, Transport>>> = Mutex::new(None);

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
/// `bearer`, the shared token of an exec credential plugin, is sent on every request
/// (`super::exec_plugin::BearerLayer`); `config` names no plugin then. A config that does
/// name one has kube-rs run it, twice (authentication layer, TLS configuration),
/// synchronously — `super::client::connect` never builds one.
///
/// # Errors
/// `kube::Error` as `Client::try_from` gives them: unreadable TLS material, a failing
/// credential plugin, a header value that cannot be sent, or a proxy scheme other than
/// `http`, `https` and `socks5` ([`kube::Error::ProxyProtocolUnsupported`]).
pub fn build_client(
    config: Config,
    bearer: Option<super::exec_plugin::BearerLayer>,
) -> Result<Client, kube::Error> {
    // kube-rs's order: the authentication layer (an exec plugin's token) before TLS.
    let auth_layer = config.auth_layer()?;
    let auth = Auth {
        kube: auth_layer,
        bearer,
    };
    let Some(key) = TransportKey::of(&config) else {
        return with_layers(transport(&config)?, auth, config);
    };
    // Held while a missing transport is built, so concurrent contexts with one key build it
    // once (parsing PEM and building a rustls configuration: well under a millisecond).
    let mut cache = TRANSPORTS.lock().unwrap_or_else(PoisonError::into_inner);
    let shared = match cache.get_or_insert_with(HashMap::new).get(&key) {
        Some(t) => t.clone(),
        None => {
            let t = transport(&config)?;
            cache
                .get_or_insert_with(HashMap::new)
                .insert(key, t.clone());
            t
        }
    };
    drop(cache);
    with_layers(shared, auth, config)
}

/// The HTTP client for `config`: TLS over [`tcp_connector`], through `config.proxy_url`
/// when set, with its timeouts and a connection pool.
fn transport(config: &Config) -> Result<Transport, kube::Error> {
    let tcp = tcp_connector();
    match config.proxy_url.clone() {
        None => http_client(tcp, config),
        Some(proxy) => match proxy.scheme_str() {
            // Each proxy connector is watched (super::tunnel): a proxy that never answers is
            // then named by the timeout, not the API server it never reached.
            Some("socks5") => http_client(
                Watched(hyper_util::client::legacy::connect::proxy::SocksV5::new(
                    proxy, tcp,
                )),
                config,
            ),
            Some("http") => {
                let tunnel =
                    hyper_util::client::legacy::connect::proxy::Tunnel::new(proxy.clone(), tcp);
                http_client(Watched(with_proxy_auth(&proxy, tunnel)), config)
            }
            Some("https") => {
                let tls_to_proxy = config.rustls_https_connector_with_connector(tcp)?;
                let tunnel = hyper_util::client::legacy::connect::proxy::Tunnel::new(
                    proxy.clone(),
                    tls_to_proxy,
                );
                http_client(Watched(with_proxy_auth(&proxy, tunnel)), config)
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

/// The lower half of kube-client 5.0's `make_generic_builder` over `connector` (see the
/// module documentation): TLS, timeouts and hyper's pooling client.
fn http_client<H>(connector: H, config: &Config) -> Result<Transport, kube::Error>
where
    H: 'static + Clone + Send + Sync + Service<http::Uri>,
    H::Response: 'static + Connection + Read + Write + Send + Unpin,
    H::Future: 'static + Send,
    H::Error: 'static + Send + Sync + std::error::Error,
{
    let tls = https_connector(connector, config)?;
    let mut timed = hyper_timeout::TimeoutConnector::new(tls);
    timed.set_connect_timeout(config.connect_timeout);
    timed.set_read_timeout(config.read_timeout);
    timed.set_write_timeout(config.write_timeout);
    timed.set_reset_reader_on_write(config.reset_reader_on_write);
    let executor: TokioExecutor = TokioExecutor::new();
    let http: hyper_util::client::legacy::Client<_, Body> =
        hyper_util::client::legacy::Builder::new(executor).build(timed);
    Ok(BoxCloneSyncService::new(
        ServiceBuilder::new()
            .map_request(without_userinfo)
            .service(http),
    ))
}

/// `req` with any userinfo (`user:password@`) taken out of its URI. A server URL may carry
/// it (kube-rs keeps it in the base URI); over HTTP/1.1 hyper sends only host and port in
/// `Host`, but over HTTP/2 the URI's authority becomes the `:authority` pseudo-header as it is
/// — the password would be sent to the server, which refuses the stream (a protocol error).
/// Go's `net/http` never sends it either (RFC 9110 §4.2.4: userinfo is deprecated and must
/// not be sent in a request).
fn without_userinfo(mut req: http::Request<Body>) -> http::Request<Body> {
    if let Some(plain) = uri_without_userinfo(req.uri()) {
        *req.uri_mut() = plain;
    }
    req
}

/// `uri` without its userinfo, or `None` when it has none (or could not be rebuilt, which a
/// URI that parsed cannot cause).
fn uri_without_userinfo(uri: &http::Uri) -> Option<http::Uri> {
    let authority = uri.authority()?.as_str();
    let (_, host) = authority.rsplit_once('@')?;
    let mut parts = uri.clone().into_parts();
    parts.authority = Some(host.parse().ok()?);
    http::Uri::from_parts(parts).ok()
}

/// kube-client 5.0's `ConfigExt::rustls_https_connector_with_connector` with HTTP/2 offered
/// too: ALPN `h2, http/1.1`, as kubectl (Go's `net/http` with client-go's transport)
/// negotiates, so one connection per server carries every request of the process — what
/// makes a [shared transport](TransportKey) worth sharing when 40 contexts run at once
/// (HTTP/1.1 needs a connection per request in flight). A server without HTTP/2 answers
/// `http/1.1` and is spoken to as before.
///
/// # Errors
/// As kube-rs: unreadable TLS material, or a `tls-server-name` that is no DNS name.
fn https_connector<H>(
    connector: H,
    config: &Config,
) -> Result<hyper_rustls::HttpsConnector<H>, kube::Error> {
    let mut builder = hyper_rustls::HttpsConnectorBuilder::new()
        .with_tls_config(config.rustls_client_config()?)
        .https_or_http();
    if let Some(name) = config.tls_server_name.as_ref() {
        let name = name
            .clone()
            .try_into()
            .map_err(kube::client::RustlsTlsError::InvalidServerName)
            .map_err(kube::Error::RustlsTls)?;
        builder =
            builder.with_server_name_resolver(hyper_rustls::FixedServerNameResolver::new(name));
    }
    Ok(builder.enable_all_versions().wrap_connector(connector))
}

/// The authentication of one client: kube-rs's layer (`config.auth_layer()`: bearer, basic,
/// token file, auth-provider) and the shared exec plugin token (`super::exec_plugin`).
struct Auth {
    kube: Option<kube::client::middleware::AuthLayer>,
    bearer: Option<super::exec_plugin::BearerLayer>,
}

/// The upper half of kube-client 5.0's `make_generic_builder`, per context: base URI,
/// optional retry ([`RetryAfter`] instead of kube's policy), authentication ([`Auth`]) and
/// the extra headers over `http`.
fn with_layers(http: Transport, auth: Auth, config: Config) -> Result<Client, kube::Error> {
    let retry = config
        .default_retry
        .then(|| tower::retry::RetryLayer::new(RetryAfter { left: MAX_RETRIES }));
    // Outermost, so it sees the answer after any retry: the `Audit-Id` of the response,
    // noted for the change log when the caller scoped a slot ([`super::audit`]). The closure
    // runs when the response future is polled, in the caller's task.
    let service = ServiceBuilder::new()
        .map_response(super::audit::record)
        .layer(config.base_uri_layer())
        .option_layer(retry)
        .option_layer(auth.kube)
        .option_layer(auth.bearer)
        .layer(config.extra_headers_layer()?)
        .map_err(BoxError::from)
        .service(http);
    Ok(Client::new(service, config.default_namespace))
}

/// How many times one request is sent again at most: client-go's default
/// (`k8s.io/client-go/rest/request.go`, `NewRequest`: `maxRetries: 10`).
pub const MAX_RETRIES: u32 = 10;

/// client-go's retry rule for every request: send it again only when the server answered
/// 429 or a 5xx *with* a `Retry-After` header in seconds — its word that it did not act on
/// the request (the API server's priority-and-fairness 429s carry one) — after waiting that
/// long, at most [`MAX_RETRIES`] times (`k8s.io/client-go/rest/request.go`, `checkWait` and
/// `retryAfterSeconds`; `rest/with_retry.go`, `IsNextRetry`). kube-client's default
/// (`RetryPolicy::server_retry`) also re-sends any 503 or 504 without one, up to 15 times
/// within a few milliseconds: a 504 from the API server says it "may still be processing"
/// the request, so a PATCH would be sent again that may already have been applied — a
/// change the journal records once and the server receives several times (as when etcd
/// stops). Every request's deadline still bounds the waits.
#[derive(Clone)]
struct RetryAfter {
    left: u32,
}

/// The wait a response asks for before the same request is sent again: `Retry-After`
/// seconds on a 429 or 5xx; `None` for any other answer (pure).
fn retry_after(status: http::StatusCode, headers: &http::HeaderMap) -> Option<std::time::Duration> {
    if status != http::StatusCode::TOO_MANY_REQUESTS && !status.is_server_error() {
        return None;
    }
    let secs: u64 = headers
        .get(http::header::RETRY_AFTER)?
        .to_str()
        .ok()?
        .trim()
        .parse()
        .ok()?;
    Some(std::time::Duration::from_secs(secs))
}

impl<Res> tower::retry::Policy<http::Request<Body>, http::Response<Res>, BoxError> for RetryAfter {
    type Future = tokio::time::Sleep;

    fn retry(
        &mut self,
        _req: &mut http::Request<Body>,
        result: &mut Result<http::Response<Res>, BoxError>,
    ) -> Option<Self::Future> {
        let r = result.as_ref().ok()?;
        let wait = retry_after(r.status(), r.headers())?;
        self.left = self.left.checked_sub(1)?;
        Some(tokio::time::sleep(wait))
    }

    /// The request again (kube-client's `RetryPolicy::clone_request`): bodies are held in
    /// memory, so every request can be cloned.
    fn clone_request(&mut self, req: &http::Request<Body>) -> Option<http::Request<Body>> {
        let body = req.body().try_clone()?;
        let mut builder = http::Request::builder()
            .method(req.method().clone())
            .uri(req.uri().clone())
            .version(req.version());
        if let Some(headers) = builder.headers_mut() {
            headers.extend(req.headers().clone());
        }
        builder.body(body).ok().map(|mut new| {
            *new.extensions_mut() = req.extensions().clone();
            new
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_504_or_503_without_retry_after_is_not_sent_again_a_429_with_it_is() {
        use http::StatusCode as S;
        let none = http::HeaderMap::new();
        let mut after = http::HeaderMap::new();
        after.insert(http::header::RETRY_AFTER, "2".parse().unwrap());
        // The API server's 504 ("may still be processing"): never re-sent.
        assert_eq!(retry_after(S::GATEWAY_TIMEOUT, &none), None);
        assert_eq!(retry_after(S::SERVICE_UNAVAILABLE, &none), None);
        assert_eq!(retry_after(S::TOO_MANY_REQUESTS, &none), None);
        let two = Some(std::time::Duration::from_secs(2));
        assert_eq!(retry_after(S::TOO_MANY_REQUESTS, &after), two);
        assert_eq!(retry_after(S::SERVICE_UNAVAILABLE, &after), two);
        // Only 429 and 5xx: a 409 with Retry-After is an answer, not "later".
        assert_eq!(retry_after(S::CONFLICT, &after), None);
        let mut date = http::HeaderMap::new();
        date.insert(
            http::header::RETRY_AFTER,
            "Wed, 21 Oct 2015 07:28:00 GMT".parse().unwrap(),
        );
        assert_eq!(retry_after(S::TOO_MANY_REQUESTS, &date), None);
    }

    /// kube-rs leaves Nagle's algorithm on; without `TCP_NODELAY` the first request on each
    /// connection waits ~40 ms for the server's delayed ACK.
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

    fn config_with(token: Option<&str>, key: Option<&str>) -> Config {
        let mut c = Config::new("https://127.0.0.1:6443".parse().unwrap());
        c.auth_info.token = token.map(|t| t.to_string().into());
        c.auth_info.client_certificate_data = key.map(|_| "Y2VydA==".to_string());
        c.auth_info.client_key_data = key.map(|k| k.to_string().into());
        c
    }

    #[test]
    fn contexts_differing_only_in_per_request_credentials_share_a_transport() {
        // client-go's tlsCacheKey: a bearer token is a header of each request, not part of
        // the connection.
        let a = TransportKey::of(&config_with(Some("token-a"), None)).unwrap();
        let b = TransportKey::of(&config_with(Some("token-b"), None)).unwrap();
        assert!(a == b);
        let mut other_ca = config_with(Some("token-a"), None);
        other_ca.root_cert = Some(vec![b"another CA".to_vec()]);
        assert!(TransportKey::of(&other_ca).unwrap() != a);
        let mut insecure = config_with(Some("token-a"), None);
        insecure.accept_invalid_certs = true;
        assert!(TransportKey::of(&insecure).unwrap() != a);
        let mut proxied = config_with(Some("token-a"), None);
        proxied.proxy_url = Some("http://127.0.0.1:3128".parse().unwrap());
        assert!(TransportKey::of(&proxied).unwrap() != a);
    }

    #[test]
    fn a_client_certificate_is_part_of_the_connection_and_never_shared_with_another_identity() {
        let one = TransportKey::of(&config_with(None, Some("a2V5LTE="))).unwrap();
        let two = TransportKey::of(&config_with(None, Some("a2V5LTI="))).unwrap();
        let none = TransportKey::of(&config_with(None, None)).unwrap();
        assert!(one != two && one != none && two != none);
        assert!(one == TransportKey::of(&config_with(Some("t"), Some("a2V5LTE="))).unwrap());
    }

    #[test]
    fn an_exec_credential_plugin_gets_a_transport_of_its_own() {
        let mut c = config_with(None, None);
        c.auth_info.exec = Some(
            serde_json::from_value(serde_json::json!({
                "apiVersion": "client.authentication.k8s.io/v1",
                "command": "true",
            }))
            .unwrap(),
        );
        assert!(TransportKey::of(&c).is_none());
    }

    #[test]
    fn server_url_password_went_out_in_the_http2_authority() {
        let uri: http::Uri = "https://u:p%40ss@127.0.0.1:6443/api/v1/pods?limit=1"
            .parse()
            .unwrap();
        assert_eq!(
            uri_without_userinfo(&uri).unwrap().to_string(),
            "https://127.0.0.1:6443/api/v1/pods?limit=1"
        );
        let plain: http::Uri = "https://127.0.0.1:6443/api".parse().unwrap();
        assert_eq!(uri_without_userinfo(&plain), None);
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
        let e = build_client(config, None)
            .err()
            .expect("ftp proxies are refused");
        assert!(
            matches!(e, kube::Error::ProxyProtocolUnsupported { .. }),
            "{e}"
        );
    }
}
