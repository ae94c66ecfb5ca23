//! Sending the totals to a Prometheus Pushgateway: one async HTTP/1.1 `PUT` ([`push`]) or
//! `DELETE` ([`delete`]) of a group, bounded by the configured timeout.
//!
//! The group URL is built by a pure function ([`super::push_url`]). The `prometheus` crate's
//! own `push` feature is not used: it is a blocking client and panics inside a tokio runtime
//! (docs/design.md, "Metrics").
//!
//! Pushgateway API reference: <https://github.com/prometheus/pushgateway/blob/master/README.md#api>.

use base64::Engine as _;

use super::target::{MAX_BODY_CHARS, PushError, PushTarget, root_cause};

/// Whether the chain holds an `io::Error` of kind `TimedOut` (the connector's connect
/// timeout), which is reported as [`PushError::Timeout`] like the whole-request timeout.
fn timed_out(err: &(dyn std::error::Error + 'static)) -> bool {
    let mut cause = Some(err);
    while let Some(e) = cause {
        if e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::TimedOut)
        {
            return true;
        }
        cause = e.source();
    }
    false
}

/// The gateway's answer at most [`MAX_BODY_CHARS`] characters, on one line, control
/// characters escaped: it is printed to a terminal and may be anything.
fn trim_body(body: &str) -> String {
    crate::base::echo::capped(body.trim(), MAX_BODY_CHARS)
}

/// Most bytes of an error answer read: far more than [`MAX_BODY_CHARS`] shows, and a
/// gateway (or whatever answers in its place) cannot make the process hold more.
const MAX_ANSWER_BYTES: usize = 64 * 1024;

/// `PUT`s `body` (text exposition format) to `target.url`, replacing the whole group on the
/// gateway ("All metrics with the grouping key specified in the URL are replaced",
/// <https://github.com/prometheus/pushgateway/blob/master/README.md#put-method>).
///
/// Sent over HTTP/1.1 with `Content-Type: text/plain; version=0.0.4`, on a fresh connection
/// with `TCP_NODELAY` on ([`crate::cluster::connector::tcp_connector`]). An `https://`
/// gateway is verified against the system's root certificates (rustls-native-certs, as
/// a reqwest client with `rustls-tls-native-roots`) plus those of
/// `target.ca_pem`. Redirects are not followed: a 3xx is a [`PushError::Status`]. The connect
/// timeout is `target.timeout`, and the whole call is wrapped in
/// `tokio::time::timeout(target.timeout)`, so it never blocks longer than that. Needs a tokio
/// runtime with the time driver enabled (`#[tokio::main]` has it).
///
/// Do not pass an empty body: the gateway treats an empty `PUT` as "delete the group".
///
/// # Errors
/// [`PushError::InvalidUrl`], [`PushError::Client`], [`PushError::Send`],
/// [`PushError::Timeout`], or [`PushError::Status`] for a non-2xx answer.
pub async fn push(target: &PushTarget, body: String) -> Result<(), PushError> {
    match tokio::time::timeout(target.timeout, send(target, http::Method::PUT, body)).await {
        Ok(result) => result,
        Err(_elapsed) => Err(PushError::Timeout {
            after: target.timeout,
        }),
    }
}

/// `DELETE`s the group at `target.url`: "Delete all metrics in the group identified by the
/// grouping key" (<https://github.com/prometheus/pushgateway/blob/master/README.md#delete-method>).
/// The gateway answers 202 whether or not the group existed, so deleting twice is not an
/// error. Same client, credentials, proxy rules and timeout as [`push`].
///
/// # Errors
/// As [`push`].
pub async fn delete(target: &PushTarget) -> Result<(), PushError> {
    match tokio::time::timeout(
        target.timeout,
        send(target, http::Method::DELETE, String::new()),
    )
    .await
    {
        Ok(result) => result,
        Err(_elapsed) => Err(PushError::Timeout {
            after: target.timeout,
        }),
    }
}

/// The `(user, password)` of a URL's `user:password@`, percent-decoded.
type UrlCredentials = (String, Option<String>);

/// `url` as a request URI without its userinfo, and the userinfo as percent-decoded
/// `(user, password)` when there is one. Only `http` and `https` URLs with a host are usable.
fn parse_url(url: &str) -> Result<(http::Uri, Option<UrlCredentials>), PushError> {
    let uri = http::Uri::try_from(url)
        .map_err(|e| PushError::invalid_url(format!("{e} in the URL"), e))?;
    let scheme_ok = uri
        .scheme_str()
        .is_some_and(|s| s.eq_ignore_ascii_case("http") || s.eq_ignore_ascii_case("https"));
    let no_host = || std::io::Error::other("the URL has no http:// or https:// scheme and host");
    if !scheme_ok || uri.host().is_none_or(str::is_empty) {
        return Err(PushError::invalid_url(
            "the URL must start with http:// or https:// and name a host",
            no_host(),
        ));
    }
    let Some((userinfo, host)) = uri.authority().and_then(|a| a.as_str().rsplit_once('@')) else {
        return Ok((uri, None));
    };
    // As reqwest did (`extract_authority`): `user:password@` becomes basic auth, decoded.
    let decode = |s: &str| {
        percent_encoding::percent_decode_str(s)
            .decode_utf8_lossy()
            .into_owned()
    };
    let credentials = match userinfo.split_once(':') {
        Some((user, password)) => (decode(user), Some(decode(password))),
        None => (decode(userinfo), None),
    };
    let mut parts = uri.clone().into_parts();
    parts.authority = Some(
        http::uri::Authority::try_from(host)
            .map_err(|e| PushError::invalid_url(format!("{e} in the URL's host"), e))?,
    );
    let uri = http::Uri::from_parts(parts)
        .map_err(|e| PushError::invalid_url(format!("{e} in the URL"), e))?;
    Ok((uri, Some(credentials)))
}

/// A sensitive `Authorization: Basic base64(user:password)` value, as reqwest and curl write
/// it (RFC 7617 §2).
fn basic_auth(user: &str, password: Option<&str>) -> http::HeaderValue {
    use base64::engine::general_purpose::STANDARD;
    let encoded = STANDARD.encode(format!("{user}:{}", password.unwrap_or("")));
    let mut value = http::HeaderValue::try_from(format!("Basic {encoded}"))
        .unwrap_or_else(|_| http::HeaderValue::from_static("Basic"));
    value.set_sensitive(true);
    value
}

/// The rustls client configuration: TLS 1.2 and 1.3 with ring, trusting the system's roots
/// (only loaded when `native` — an `https://` gateway) and every certificate of `ca_pem`.
///
/// # Errors
/// [`PushError::Client`] when `ca_pem` holds a block that is not a certificate rustls can
/// use, or when the system store has certificates and none of them is usable (as reqwest:
/// "zero valid certificates found in native root store").
fn tls_config(ca_pem: Option<&[u8]>, native: bool) -> Result<rustls::ClientConfig, PushError> {
    use rustls::pki_types::CertificateDer;
    use rustls::pki_types::pem::PemObject as _;
    let mut roots = rustls::RootCertStore::empty();
    if native {
        let loaded = rustls_native_certs::load_native_certs();
        let (valid, invalid) = roots.add_parsable_certificates(loaded.certs);
        if valid == 0 && invalid > 0 {
            let errors: Vec<String> = loaded.errors.iter().map(ToString::to_string).collect();
            let reason = if errors.is_empty() {
                "zero valid certificates found in native root store".to_string()
            } else {
                errors.join("; ")
            };
            return Err(PushError::client(std::io::Error::other(reason)));
        }
    }
    if let Some(pem) = ca_pem {
        for cert in CertificateDer::pem_slice_iter(pem) {
            let cert = cert.map_err(PushError::client)?;
            roots.add(cert).map_err(PushError::client)?;
        }
    }
    let provider = std::sync::Arc::new(rustls::crypto::ring::default_provider());
    Ok(rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(PushError::client)?
        .with_root_certificates(roots)
        .with_no_client_auth())
}

/// Sends `request` over `inner` (a direct connection or a proxy tunnel), TLS to the gateway
/// for `https://`, HTTP/1.1. No redirects: hyper follows none. A Pushgateway never sends one,
/// and following it would re-send the body (and, to the same host, the credentials)
/// somewhere else; a 3xx is reported as the status it is, so a redirect loop ends in one
/// clear warning.
async fn request_via<C>(
    inner: C,
    tls: rustls::ClientConfig,
    request: http::Request<String>,
) -> Result<http::Response<hyper::body::Incoming>, hyper_util::client::legacy::Error>
where
    C: tower::Service<http::Uri> + Clone + Send + Sync + 'static,
    C::Response: hyper_util::client::legacy::connect::Connection
        + hyper::rt::Read
        + hyper::rt::Write
        + Send
        + Unpin
        + 'static,
    C::Future: Send + 'static,
    C::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let connector = hyper_rustls::HttpsConnectorBuilder::new()
        .with_tls_config(tls)
        .https_or_http()
        .enable_http1()
        .wrap_connector(inner);
    let client: hyper_util::client::legacy::Client<_, String> =
        hyper_util::client::legacy::Builder::new(hyper_util::rt::TokioExecutor::new())
            .build(connector);
    client.request(request).await
}

async fn send(target: &PushTarget, method: http::Method, body: String) -> Result<(), PushError> {
    use http_body_util::BodyExt as _;
    let (uri, url_auth) = parse_url(&target.url)?;
    let https = uri
        .scheme_str()
        .is_some_and(|s| s.eq_ignore_ascii_case("https"));
    let tls = tls_config(target.ca_pem.as_deref(), https)?;
    let mut request = http::Request::new(body);
    let put = method == http::Method::PUT;
    *request.method_mut() = method;
    *request.uri_mut() = uri;
    let headers = request.headers_mut();
    if put {
        headers.insert(
            http::header::CONTENT_TYPE,
            http::HeaderValue::from_static(prometheus::TEXT_FORMAT),
        );
    }
    // Appended in the order reqwest uses (URL userinfo, basic auth, bearer token), so a
    // gateway sees the headers a reqwest client would send.
    if let Some((user, password)) = &url_auth {
        headers.append(
            http::header::AUTHORIZATION,
            basic_auth(user, password.as_deref()),
        );
    }
    if let Some((user, password)) = &target.basic_auth {
        headers.append(
            http::header::AUTHORIZATION,
            basic_auth(user, Some(password)),
        );
    }
    if let Some(token) = &target.bearer_token {
        // The token is never part of the message: the header error does not quote it.
        let mut value = http::HeaderValue::try_from(format!("Bearer {token}")).map_err(|_| {
            PushError::Credential {
                reason: "the Pushgateway bearer token holds a character an HTTP header cannot carry (a line break or a control character)".into(),
            }
        })?;
        value.set_sensitive(true);
        headers.append(http::header::AUTHORIZATION, value);
    }

    let mut tcp = crate::cluster::connector::tcp_connector();
    tcp.set_connect_timeout(Some(target.timeout));
    // Through the environment's proxy for the gateway's scheme unless NO_PROXY (or loopback)
    // excludes it, by the rules kubectl's own requests follow (crate::cluster::proxy).
    let proxy = crate::cluster::proxy::choose(
        request.uri(),
        None,
        &crate::cluster::proxy::ProxyEnv::from_process(),
    )
    .map_err(PushError::client)?;
    use hyper_util::client::legacy::connect::proxy::{SocksV5, Tunnel};
    let sent = match proxy {
        None => request_via(tcp, tls, request).await,
        Some(p) if p.scheme_str() == Some("socks5") => {
            request_via(SocksV5::new(p, tcp), tls, request).await
        }
        Some(p) if p.scheme_str() == Some("https") => {
            let to_proxy = hyper_rustls::HttpsConnectorBuilder::new()
                .with_tls_config(tls.clone())
                .https_only()
                .enable_http1()
                .wrap_connector(tcp);
            let tunnel =
                crate::cluster::connector::with_proxy_auth(&p, Tunnel::new(p.clone(), to_proxy));
            request_via(tunnel, tls, request).await
        }
        Some(p) => {
            let tunnel =
                crate::cluster::connector::with_proxy_auth(&p, Tunnel::new(p.clone(), tcp));
            request_via(tunnel, tls, request).await
        }
    };
    let response = sent.map_err(|source| {
        if timed_out(&source) {
            PushError::Timeout {
                after: target.timeout,
            }
        } else {
            PushError::Send {
                reason: root_cause(&source),
                source: source.into(),
            }
        }
    })?;
    let status = response.status();
    if status.is_success() {
        return Ok(());
    }
    // The answer text is only decoration for the message; an unreadable rest is left out.
    let mut answer = response.into_body();
    let mut text = Vec::new();
    while text.len() < MAX_ANSWER_BYTES {
        match answer.frame().await {
            Some(Ok(frame)) => {
                if let Ok(data) = frame.into_data() {
                    text.extend_from_slice(&data);
                }
            }
            _ => break,
        }
    }
    text.truncate(MAX_ANSWER_BYTES);
    Err(PushError::Status {
        code: status.as_u16(),
        body: trim_body(&crate::base::redact::scrub(&String::from_utf8_lossy(&text))),
    })
}

#[cfg(test)]
#[path = "push_tests.rs"]
mod tests;
