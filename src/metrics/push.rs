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
pub const MAX_BODY_CHARS: usize = 300;

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

/// Why a push failed. The totals stay in the state file either way, so the next successful
/// push carries everything.
#[derive(Debug, thiserror::Error)]
pub enum PushError {
    /// The URL could not be used for a request (not absolute, unknown scheme, bad host).
    #[error(
        "invalid Pushgateway URL: {reason}; fix pushgateway.url in plugin.yaml or MYOPS_PUSHGATEWAY"
    )]
    InvalidUrl {
        /// What the HTTP client rejected.
        reason: String,
        /// The client error.
        #[source]
        source: reqwest::Error,
    },
    /// The HTTP client could not be built (e.g. no usable TLS root certificates).
    #[error("cannot set up the HTTP client: {reason}")]
    Client {
        /// The innermost cause.
        reason: String,
        /// The client error.
        #[source]
        source: reqwest::Error,
    },
    /// Connecting or sending failed (refused, DNS, TLS, reset).
    #[error("{reason}; check that the Pushgateway is running and reachable")]
    Send {
        /// The innermost cause, e.g. `Connection refused (os error 111)`.
        reason: String,
        /// The client error.
        #[source]
        source: reqwest::Error,
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
            PushError::InvalidUrl { .. } => ExitStatus::Usage,
            _ => ExitStatus::Failure,
        }
    }
}

/// The innermost cause of an error chain (e.g. the `io::Error` under a connect error), which
/// is the part a user can act on.
fn root_cause(err: &reqwest::Error) -> String {
    let mut cause: &dyn std::error::Error = err;
    while let Some(next) = cause.source() {
        cause = next;
    }
    cause.to_string()
}

/// The gateway's answer at most [`MAX_BODY_CHARS`] characters, on one line, control
/// characters escaped: it is printed to a terminal and may be anything.
fn trim_body(body: &str) -> String {
    crate::echo::capped(body.trim(), MAX_BODY_CHARS)
}

/// `PUT`s `body` (text exposition format) to `target.url`, replacing the whole group on the
/// gateway ("All metrics with the grouping key specified in the URL are replaced",
/// <https://github.com/prometheus/pushgateway/blob/master/README.md#put-method>).
///
/// Sent with `Content-Type: text/plain; version=0.0.4`. The client's connect timeout and
/// request timeout are `target.timeout`, and the whole call is also wrapped in
/// `tokio::time::timeout(target.timeout)`, so it never blocks longer than that. Needs a
/// tokio runtime with the time driver enabled (`#[tokio::main]` has it).
///
/// Do not pass an empty body: the gateway treats an empty `PUT` as "delete the group".
///
/// # Errors
/// [`PushError::InvalidUrl`], [`PushError::Client`], [`PushError::Send`],
/// [`PushError::Timeout`], or [`PushError::Status`] for a non-2xx answer.
pub async fn push(target: &PushTarget, body: String) -> Result<(), PushError> {
    match tokio::time::timeout(target.timeout, send(target, body)).await {
        Ok(result) => result,
        Err(_elapsed) => Err(PushError::Timeout {
            after: target.timeout,
        }),
    }
}

async fn send(target: &PushTarget, body: String) -> Result<(), PushError> {
    // No redirects: a Pushgateway never sends one, and following it would re-send the body
    // (and, to the same host, the credentials) somewhere else; a 3xx is reported as the
    // status it is (issue 10: a redirect loop must end in one clear warning).
    let mut builder = reqwest::Client::builder()
        .connect_timeout(target.timeout)
        .timeout(target.timeout)
        .redirect(reqwest::redirect::Policy::none());
    if let Some(pem) = &target.ca_pem {
        for cert in
            reqwest::Certificate::from_pem_bundle(pem).map_err(|source| PushError::Client {
                reason: root_cause(&source),
                source,
            })?
        {
            builder = builder.add_root_certificate(cert);
        }
    }
    let client = builder.build().map_err(|source| PushError::Client {
        reason: root_cause(&source),
        source,
    })?;
    let mut request = client
        .put(&target.url)
        .header(reqwest::header::CONTENT_TYPE, prometheus::TEXT_FORMAT)
        .body(body);
    if let Some((user, password)) = &target.basic_auth {
        request = request.basic_auth(user, Some(password));
    }
    if let Some(token) = &target.bearer_token {
        request = request.bearer_auth(token);
    }
    let classify = |source: reqwest::Error| {
        if source.is_timeout() {
            PushError::Timeout {
                after: target.timeout,
            }
        } else if source.is_builder() {
            PushError::InvalidUrl {
                reason: root_cause(&source),
                source,
            }
        } else {
            PushError::Send {
                reason: root_cause(&source),
                source,
            }
        }
    };
    let response = request.send().await.map_err(classify)?;
    let status = response.status();
    if status.is_success() {
        return Ok(());
    }
    // The answer text is only decoration for the message; an unreadable body leaves it empty.
    let text = response.text().await.unwrap_or_default();
    Err(PushError::Status {
        code: status.as_u16(),
        body: trim_body(&crate::redact::scrub(&text)),
    })
}

/// Why `url` cannot be a Pushgateway base URL, as one sentence naming `what` (the flag,
/// variable or plugin.yaml key), or `None` when it can. The URL is echoed escaped, capped
/// and without userinfo — and not at all when it holds a userinfo, query or fragment, any of
/// which may carry a credential. Rules: `http://` or `https://` with a host; no spaces or
/// control characters; no `user:password@` (ARCHITECTURE §3: never a password inline); no
/// `?query` or `#fragment` (the grouping-key path `/metrics/job/…` is appended to it, so a
/// query would swallow it and send the push to the wrong place).
pub fn base_url_problem(what: &str, url: &str) -> Option<String> {
    let shown = || crate::echo::quoted(&crate::redact::url_without_userinfo(url));
    let rest = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"));
    let Some(rest) = rest.filter(|r| !r.is_empty()) else {
        return Some(format!(
            "{what} {} must start with http:// or https://, e.g. http://127.0.0.1:9091",
            shown()
        ));
    };
    if url.chars().any(|c| c.is_control() || c.is_whitespace()) {
        return Some(format!(
            "{what} {} must not contain spaces or control characters",
            shown()
        ));
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    if authority.contains('@') {
        return Some(format!(
            "{what} must not hold a user name or password (`user:password@`): remove it and set pushgateway.basicAuth with a passwordFile"
        ));
    }
    if rest.contains(['?', '#']) {
        return Some(format!(
            "{what} must not have a query or fragment (`?…`, `#…`): give the gateway's base URL, e.g. http://127.0.0.1:9091, and credentials through pushgateway.basicAuth or bearerTokenFile"
        ));
    }
    None
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
    fn long_gateway_answers_are_cut() {
        let body = format!("  {}  \n", "x".repeat(500));
        let cut = trim_body(&body);
        assert_eq!(
            cut,
            format!("{}… (500 characters)", "x".repeat(MAX_BODY_CHARS))
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
}
