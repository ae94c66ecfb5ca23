//! Sending the totals to a Prometheus Pushgateway.
//!
//! The URL is built by a pure function ([`push_url`]); the socket work is one async `PUT`
//! ([`push`]) bounded by the configured timeout. The `prometheus` crate's own `push`
//! feature is not used: it is a blocking client and panics inside a tokio runtime
//! (ARCHITECTURE §6).
//!
//! Pushgateway API reference: <https://github.com/prometheus/pushgateway/blob/master/README.md#api>.

use std::fmt;
use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

use crate::exit::ExitStatus;

/// Longest part of a gateway's error answer kept in [`PushError::Status`], in characters.
///
/// Large enough for the Pushgateway's whole HTTP 400 reason: it quotes the offending metric
/// with all its labels and, for a histogram, every bucket (1,088 characters measured for an
/// `ops_duration_seconds` series against Pushgateway 1.5.1), and a warning cut before the
/// reason's end does not say what to fix (issue 14). A longer answer is not a Pushgateway's
/// reason (or a hostile one): it is cut, with its length.
pub const MAX_BODY_CHARS: usize = 2048;

/// The push URL of a group: `<base>/metrics/job/<job>/instance/<instance>`.
///
/// Trailing `/` of `base` are dropped. A grouping value that is empty or contains anything
/// other than ASCII letters, digits, `-`, `.`, `_` and `~` (in particular `/`, which the
/// gateway would read as a path separator) is written in the gateway's base64 form:
/// the label name gets the suffix `@base64` and the value is RFC 4648 URL-safe base64 without
/// padding; the empty value is written as `=` ("a single `=` is required to encode an empty
/// label value"). Rule source: the Pushgateway README, section "URL",
/// <https://github.com/prometheus/pushgateway/blob/master/README.md#url>. (An empty `job` is
/// still rejected by the gateway; plugin.yaml defaults it to `kubectl-myops`.)
///
/// # Example
/// ```
/// # use myops::metrics::push_url;
/// assert_eq!(
///     push_url("http://127.0.0.1:9091/", "kubectl-myops", "node-1"),
///     "http://127.0.0.1:9091/metrics/job/kubectl-myops/instance/node-1"
/// );
/// assert_eq!(
///     push_url("http://gw:9091", "batch/nightly", ""),
///     "http://gw:9091/metrics/job@base64/YmF0Y2gvbmlnaHRseQ/instance@base64/="
/// );
/// ```
pub fn push_url(base: &str, job: &str, instance: &str) -> String {
    format!(
        "{}/metrics/{}/{}",
        base.trim_end_matches('/'),
        grouping("job", job),
        grouping("instance", instance)
    )
}

/// The grouping label that makes each MYOPS_HOME's group its own: `state_id`.
///
/// Two users (or two MYOPS_HOMEs) on one host share `job` and `instance`; without a third
/// grouping label each push would replace the other's totals (issue 14). Aggregate it away
/// like `instance`: `sum without (instance, state_id) (ops_total)`.
pub const STATE_ID_LABEL: &str = "state_id";

/// The URL of the group of one state directory: `group_url` (as built by [`push_url`]) with
/// the grouping pair `/state_id/<id>` appended, in the gateway's `@base64` form when `id`
/// needs it (same rule as [`push_url`]).
///
/// # Example
/// ```
/// # use myops::metrics::{push_url, state_group_url};
/// assert_eq!(
///     state_group_url(&push_url("http://gw:9091", "kubectl-myops", "node-1"), "3f9c2a71b0de"),
///     "http://gw:9091/metrics/job/kubectl-myops/instance/node-1/state_id/3f9c2a71b0de"
/// );
/// ```
pub fn state_group_url(group_url: &str, id: &str) -> String {
    format!("{group_url}/{}", grouping(STATE_ID_LABEL, id))
}

/// One `name/value` path pair of the grouping key.
fn grouping(name: &str, value: &str) -> String {
    let plain = !value.is_empty()
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~".contains(&b));
    if plain {
        format!("{name}/{value}")
    } else if value.is_empty() {
        format!("{name}@base64/=")
    } else {
        format!("{name}@base64/{}", URL_SAFE_NO_PAD.encode(value))
    }
}

/// Where and how to push.
#[derive(Clone, PartialEq)]
pub struct PushTarget {
    /// The full group URL, as built by [`push_url`].
    pub url: String,
    /// Bound on connecting and on the whole request (connect + send + answer).
    pub timeout: Duration,
    /// HTTP basic auth `(username, password)`; the caller has read the password file.
    pub basic_auth: Option<(String, String)>,
    /// A bearer token (from a file or an environment variable, never a flag).
    pub bearer_token: Option<String>,
    /// PEM CA certificate(s) to trust for an `https://` gateway, in addition to the system's.
    pub ca_pem: Option<Vec<u8>>,
}

impl PushTarget {
    /// Registers the push credentials with [`crate::redact::remember`] — the password, the
    /// `Basic` header value a gateway might echo back (base64 of `user:password`) and the
    /// bearer token — so no message, warning or record of this process can show them.
    pub fn register_secrets(&self) {
        use base64::engine::general_purpose::STANDARD;
        if let Some((user, password)) = &self.basic_auth {
            crate::redact::remember(password);
            crate::redact::remember(&STANDARD.encode(format!("{user}:{password}")));
        }
        if let Some(t) = &self.bearer_token {
            crate::redact::remember(t);
        }
    }
}

impl fmt::Debug for PushTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PushTarget")
            .field("url", &self.url)
            .field("timeout", &self.timeout)
            .field(
                "basic_auth",
                &self
                    .basic_auth
                    .as_ref()
                    .map(|(user, _)| (user, "<redacted>")),
            )
            .field(
                "bearer_token",
                &self.bearer_token.as_ref().map(|_| "<redacted>"),
            )
            .field("ca_pem", &self.ca_pem.as_ref().map(Vec::len))
            .finish()
    }
}

/// A boxed error of the HTTP stack (hyper, hyper-rustls, rustls, `http`), kept as the
/// `source` of a [`PushError`].
pub type StackError = Box<dyn std::error::Error + Send + Sync>;

/// Why a push failed. The totals stay in the state file either way, so the next successful
/// push carries everything.
#[derive(Debug, thiserror::Error)]
pub enum PushError {
    /// The URL could not be used for a request (not absolute, unknown scheme, bad host), or a
    /// credential cannot be sent as an HTTP header.
    #[error(
        "invalid Pushgateway URL: {reason}; fix pushgateway.url in plugin.yaml or MYOPS_PUSHGATEWAY"
    )]
    InvalidUrl {
        /// What was rejected.
        reason: String,
        /// The parse error.
        #[source]
        source: StackError,
    },
    /// The HTTP client could not be built (e.g. an unreadable `caFile`, no usable TLS root
    /// certificates).
    #[error("cannot set up the HTTP client: {reason}")]
    Client {
        /// The innermost cause.
        reason: String,
        /// The TLS or certificate error.
        #[source]
        source: StackError,
    },
    /// Connecting or sending failed (refused, DNS, TLS, reset).
    #[error("{reason}; check that the Pushgateway is running and reachable")]
    Send {
        /// The innermost cause, e.g. `Connection refused (os error 111)`.
        reason: String,
        /// The client error.
        #[source]
        source: StackError,
    },
    /// A credential from plugin.yaml (the bearer token file) cannot be sent in an HTTP
    /// header (a line break or another control character inside it). Never echoes it.
    #[error("{reason}; fix the file pushgateway.bearerTokenFile names in plugin.yaml")]
    Credential {
        /// What is wrong with it, without the credential.
        reason: String,
    },
    /// No complete answer within the timeout.
    #[error("no answer within {} ms; check the gateway or raise pushgateway.timeout", after.as_millis())]
    Timeout {
        /// The timeout that elapsed.
        after: Duration,
    },
    /// The gateway answered with a non-2xx status (400 = malformed or inconsistent metrics,
    /// 401/403 = credentials).
    #[error("the Pushgateway answered HTTP {code}: {body}")]
    Status {
        /// The HTTP status code.
        code: u16,
        /// The gateway's explanation, trimmed, at most [`MAX_BODY_CHARS`] characters.
        body: String,
    },
}

impl PushError {
    /// The exit status when `metrics push` fails with this error: 2 for a bad URL
    /// (configuration), 1 otherwise (runtime).
    pub fn exit_status(&self) -> ExitStatus {
        match self {
            PushError::InvalidUrl { .. } | PushError::Credential { .. } => ExitStatus::Usage,
            _ => ExitStatus::Failure,
        }
    }

    fn invalid_url(reason: impl Into<String>, source: impl Into<StackError>) -> PushError {
        PushError::InvalidUrl {
            reason: reason.into(),
            source: source.into(),
        }
    }

    fn client(source: impl Into<StackError>) -> PushError {
        let source = source.into();
        PushError::Client {
            reason: root_cause(source.as_ref()),
            source,
        }
    }
}

/// The innermost cause of an error chain (e.g. the `io::Error` under a connect error), which
/// is the part a user can act on.
fn root_cause(err: &(dyn std::error::Error + 'static)) -> String {
    let mut cause = err;
    while let Some(next) = cause.source() {
        cause = next;
    }
    cause.to_string()
}

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
    crate::echo::capped(body.trim(), MAX_BODY_CHARS)
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
/// kubectl-myops's former reqwest client with `rustls-tls-native-roots`) plus those of
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
/// somewhere else; a 3xx is reported as the status it is (issue 10: a redirect loop must end
/// in one clear warning).
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
    // Appended in reqwest's order (URL userinfo, basic auth, bearer token), so the gateway
    // sees what it saw before.
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
        body: trim_body(&crate::redact::scrub(&String::from_utf8_lossy(&text))),
    })
}

/// Whether two URLs name the same origin: scheme and host:port equal, ignoring case and any
/// `user:password@` (RFC 6454 §4 with the port as written). Credentials for one gateway are
/// only ever sent to the same origin: an old group on another gateway is deleted without them.
pub fn same_origin(a: &str, b: &str) -> bool {
    fn origin(url: &str) -> Option<(String, String)> {
        let (scheme, rest) = url.split_once("://")?;
        let authority = rest.split(['/', '?', '#']).next()?;
        let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
        Some((scheme.to_ascii_lowercase(), host.to_ascii_lowercase()))
    }
    matches!((origin(a), origin(b)), (Some(x), Some(y)) if x == y)
}

/// The URL with any `user:password@` removed, for messages
/// ([`crate::redact::url_without_userinfo`]).
pub fn redact_url(url: &str) -> String {
    crate::redact::url_without_userinfo(url)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_values_stay_readable() {
        assert_eq!(
            push_url(
                "http://127.0.0.1:9091",
                "kubectl-myops",
                "node-1.example.com"
            ),
            "http://127.0.0.1:9091/metrics/job/kubectl-myops/instance/node-1.example.com"
        );
    }

    #[test]
    fn trailing_slashes_of_the_base_are_dropped() {
        assert_eq!(
            push_url("http://gw:9091//", "j", "i"),
            "http://gw:9091/metrics/job/j/instance/i"
        );
        assert_eq!(
            push_url("https://gw/prefix/", "j", "i"),
            "https://gw/prefix/metrics/job/j/instance/i"
        );
    }

    #[test]
    fn a_slash_uses_base64_like_the_readme_example() {
        // README: path="/var/tmp" → path@base64/L3Zhci90bXA
        assert_eq!(grouping("path", "/var/tmp"), "path@base64/L3Zhci90bXA");
        assert_eq!(
            push_url("http://gw:9091", "a/b", "i"),
            "http://gw:9091/metrics/job@base64/YS9i/instance/i"
        );
    }

    #[test]
    fn an_empty_value_is_a_single_equals_sign() {
        assert_eq!(
            push_url("http://gw:9091", "j", ""),
            "http://gw:9091/metrics/job/j/instance@base64/="
        );
    }

    #[test]
    fn other_special_characters_use_url_safe_base64() {
        // README: name="Προμηθεύς" → name@base64/zqDPgc6_zrzOt864zrXPjc-C (URL-safe alphabet).
        assert_eq!(
            grouping("name", "Προμηθεύς"),
            "name@base64/zqDPgc6_zrzOt864zrXPjc-C"
        );
        assert_eq!(
            grouping("instance", "my host?"),
            "instance@base64/bXkgaG9zdD8"
        );
    }

    #[test]
    fn the_state_id_is_a_third_grouping_pair_in_base64_when_needed() {
        let group = push_url("http://gw:9091", "j", "i");
        assert_eq!(
            state_group_url(&group, "3f9c2a71b0de"),
            "http://gw:9091/metrics/job/j/instance/i/state_id/3f9c2a71b0de"
        );
        assert_eq!(
            state_group_url(&group, "a/b"),
            "http://gw:9091/metrics/job/j/instance/i/state_id@base64/YS9i"
        );
    }

    #[test]
    fn same_origin_compares_scheme_host_and_port_only() {
        assert!(same_origin(
            "http://GW:9091/metrics/job/a",
            "http://me:pw@gw:9091/metrics/job/b/instance/c"
        ));
        assert!(!same_origin("http://gw:9091/m", "https://gw:9091/m"));
        assert!(!same_origin("http://gw:9091/m", "http://gw:9092/m"));
        assert!(!same_origin("http://gw/m", "http://gw.evil/m"));
        assert!(!same_origin("gw:9091", "gw:9091"));
    }

    #[test]
    fn long_gateway_answers_are_cut() {
        let body = format!("  {}  \n", "x".repeat(5000));
        let cut = trim_body(&body);
        assert_eq!(
            cut,
            format!("{}… (5000 characters)", "x".repeat(MAX_BODY_CHARS))
        );
        assert_eq!(trim_body(" short \n"), "short");
    }

    #[test]
    fn a_gateway_answer_is_one_escaped_line_without_the_credentials() {
        let t = PushTarget {
            url: "http://gw:9091".into(),
            timeout: Duration::from_secs(1),
            basic_auth: Some(("me".into(), "s3cret".into())),
            bearer_token: Some("t0ken".into()),
            ca_pem: None,
        };
        let echoed = "bad auth s3cret \u{1b}[2J header Basic bWU6czNjcmV0 bearer t0ken\nline2";
        t.register_secrets();
        let body = trim_body(&crate::redact::scrub(echoed));
        assert_eq!(
            body,
            "bad auth *** \\u{1b}[2J header Basic *** bearer ***\\nline2"
        );
    }

    #[test]
    fn debug_and_messages_hide_the_password() {
        let t = PushTarget {
            url: "http://gw:9091".into(),
            timeout: Duration::from_secs(1),
            basic_auth: Some(("me".into(), "s3cret".into())),
            bearer_token: None,
            ca_pem: None,
        };
        assert!(!format!("{t:?}").contains("s3cret"));
        assert_eq!(
            redact_url("http://me:s3cret@gw:9091/metrics/job/j"),
            "http://gw:9091/metrics/job/j"
        );
        assert_eq!(
            redact_url("http://gw:9091/metrics/job/j"),
            "http://gw:9091/metrics/job/j"
        );
    }

    #[tokio::test]
    async fn a_refused_connection_is_a_send_error() {
        // Bind then drop a listener to get a local port nobody listens on.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port());
        let port = port.expect("a free local port");
        let t = PushTarget {
            url: push_url(&format!("http://127.0.0.1:{port}"), "j", "i"),
            timeout: Duration::from_secs(2),
            basic_auth: None,
            bearer_token: None,
            ca_pem: None,
        };
        let err = push(&t, "x 1\n".into()).await.expect_err("nothing listens");
        assert!(matches!(err, PushError::Send { .. }), "{err:?}");
        assert!(err.to_string().to_lowercase().contains("refused"), "{err}");
    }

    #[tokio::test]
    async fn a_url_without_scheme_is_a_configuration_error() {
        let t = PushTarget {
            url: "127.0.0.1:9091/metrics/job/j".into(),
            timeout: Duration::from_secs(1),
            basic_auth: None,
            bearer_token: None,
            ca_pem: None,
        };
        let err = push(&t, "x 1\n".into())
            .await
            .expect_err("not a usable URL");
        assert_eq!(err.exit_status(), ExitStatus::Usage, "{err:?}");
    }

    fn local(url: String) -> PushTarget {
        PushTarget {
            url,
            timeout: Duration::from_secs(2),
            basic_auth: None,
            bearer_token: None,
            ca_pem: None,
        }
    }

    /// One connection on a local port answered with `answer`; gives the port and the request
    /// the client sent.
    fn answer_once(answer: Vec<u8>) -> (u16, std::thread::JoinHandle<String>) {
        use std::io::{Read, Write};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a local port");
        let port = listener.local_addr().expect("bound").port();
        let server = std::thread::spawn(move || {
            let (mut conn, _) = listener.accept().expect("the client connects");
            let mut request = Vec::new();
            let mut buf = [0u8; 4096];
            while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                match conn.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => request.extend_from_slice(&buf[..n]),
                }
            }
            let _ = conn.write_all(&answer);
            String::from_utf8_lossy(&request).into_owned()
        });
        (port, server)
    }

    #[tokio::test]
    async fn a_refused_connection_reads_as_the_os_error() {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("a free local port");
        let err = push(&local(format!("http://127.0.0.1:{port}/m")), "x 1\n".into())
            .await
            .expect_err("nothing listens");
        assert_eq!(
            err.to_string(),
            "Connection refused (os error 111); check that the Pushgateway is running and reachable"
        );
    }

    #[tokio::test]
    async fn an_ftp_url_is_a_configuration_error() {
        let err = push(&local("ftp://127.0.0.1:21/m".into()), "x 1\n".into())
            .await
            .expect_err("not http");
        assert_eq!(err.exit_status(), ExitStatus::Usage, "{err:?}");
        assert_eq!(
            err.to_string(),
            "invalid Pushgateway URL: the URL must start with http:// or https:// and name a host; fix pushgateway.url in plugin.yaml or MYOPS_PUSHGATEWAY"
        );
    }

    #[test]
    fn userinfo_in_the_url_becomes_decoded_credentials_and_leaves_the_host() {
        let (uri, auth) =
            parse_url("http://us%40er:p%3As@127.0.0.1:9091/metrics/job/j").expect("a usable URL");
        assert_eq!(uri.to_string(), "http://127.0.0.1:9091/metrics/job/j");
        assert_eq!(auth, Some(("us@er".into(), Some("p:s".into()))));
        let (_, none) = parse_url("https://gw/metrics").expect("a usable URL");
        assert_eq!(none, None);
    }

    #[tokio::test]
    async fn a_bearer_token_with_a_line_break_is_a_configuration_error_that_does_not_echo_it() {
        let mut t = local("http://127.0.0.1:9/m".into());
        t.bearer_token = Some("t0k\nen".into());
        let err = push(&t, "x 1\n".into()).await.expect_err("not a header");
        assert_eq!(err.exit_status(), ExitStatus::Usage, "{err:?}");
        assert!(!err.to_string().contains("t0k"), "{err}");
        assert!(
            err.to_string()
                .ends_with("fix the file pushgateway.bearerTokenFile names in plugin.yaml"),
            "{err}"
        );
    }

    #[tokio::test]
    async fn a_ca_file_that_is_not_a_certificate_is_a_client_error() {
        let mut t = local("https://127.0.0.1:9/m".into());
        t.ca_pem = Some(b"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n".to_vec());
        let err = push(&t, "x 1\n".into()).await.expect_err("no usable CA");
        assert!(matches!(err, PushError::Client { .. }), "{err:?}");
        assert!(
            err.to_string()
                .starts_with("cannot set up the HTTP client: "),
            "{err}"
        );
    }

    #[tokio::test]
    async fn a_redirect_is_reported_not_followed_and_the_request_is_http_1_1_with_credentials() {
        let (port, server) = answer_once(
            b"HTTP/1.1 307 Temporary Redirect\r\nlocation: http://127.0.0.1:9/elsewhere\r\ncontent-length: 4\r\n\r\nmove"
                .to_vec(),
        );
        let mut t = local(format!("http://127.0.0.1:{port}/metrics/job/j"));
        t.basic_auth = Some(("me".into(), "s3cret".into()));
        t.bearer_token = Some("t0ken".into());
        let err = push(&t, "x 1\n".into()).await.expect_err("a 307");
        assert_eq!(err.to_string(), "the Pushgateway answered HTTP 307: move");
        let request = server.join().expect("the server thread").to_lowercase();
        assert!(
            request.starts_with("put /metrics/job/j http/1.1\r\n"),
            "{request}"
        );
        assert!(
            request.contains("\r\nauthorization: basic bwu6cznjcmv0\r\n"),
            "{request}"
        );
        assert!(
            request.contains("\r\nauthorization: bearer t0ken\r\n"),
            "{request}"
        );
        assert!(request.contains("\r\ncontent-length: 4\r\n"), "{request}");
    }

    #[tokio::test]
    async fn a_gateway_answering_a_huge_error_body_is_read_only_up_to_the_cap() {
        let huge = "y".repeat(4 * MAX_ANSWER_BYTES);
        let (port, server) = answer_once(
            format!(
                "HTTP/1.1 500 Internal Server Error\r\ncontent-length: {}\r\n\r\n{huge}",
                huge.len()
            )
            .into_bytes(),
        );
        let err = push(&local(format!("http://127.0.0.1:{port}/m")), "x 1\n".into())
            .await
            .expect_err("a 500");
        let PushError::Status { code, body } = &err else {
            panic!("{err:?}")
        };
        assert_eq!(*code, 500);
        assert!(
            body.ends_with(&format!("… ({} characters)", MAX_ANSWER_BYTES)),
            "{body}"
        );
        drop(server);
    }
}
