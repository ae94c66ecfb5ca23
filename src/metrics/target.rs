//! Where and how to push ([`PushTarget`]) and why a push failed ([`PushError`]).

use std::fmt;
use std::time::Duration;

use base64::Engine as _;

use crate::exit::ExitStatus;

/// Longest part of a gateway's error answer kept in [`PushError::Status`], in characters.
///
/// Large enough for the Pushgateway's whole HTTP 400 reason: it quotes the offending metric
/// with all its labels and, for a histogram, every bucket (1,088 characters measured for an
/// `ops_duration_seconds` series against Pushgateway 1.5.1), and a warning cut before the
/// reason's end does not say what to fix. A longer answer is not a Pushgateway's
/// reason (or is a hostile one): it is cut, with its length. Small enough that the line it
/// goes into — two group URLs before it, what to do after it — stays within the 2,000
/// characters every stderr line is cut at (`output::MAX_LINE_CHARS`): a longer answer cut
/// the advice (`metrics delete`, the `curl -X DELETE` command) off the end of the line.
pub const MAX_BODY_CHARS: usize = 1200;

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
    /// Registers the push credentials with [`crate::base::redact::remember`] — the password, the
    /// `Basic` header value a gateway might echo back (base64 of `user:password`) and the
    /// bearer token — so no message, warning or record of this process can show them.
    pub fn register_secrets(&self) {
        use base64::engine::general_purpose::STANDARD;
        if let Some((user, password)) = &self.basic_auth {
            crate::base::redact::remember(password);
            crate::base::redact::remember(&STANDARD.encode(format!("{user}:{password}")));
        }
        if let Some(t) = &self.bearer_token {
            crate::base::redact::remember(t);
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

    pub(super) fn invalid_url(
        reason: impl Into<String>,
        source: impl Into<StackError>,
    ) -> PushError {
        PushError::InvalidUrl {
            reason: reason.into(),
            source: source.into(),
        }
    }

    pub(super) fn client(source: impl Into<StackError>) -> PushError {
        let source = source.into();
        PushError::Client {
            reason: root_cause(source.as_ref()),
            source,
        }
    }
}

/// The innermost cause of an error chain (e.g. the `io::Error` under a connect error), which
/// is the part a user can act on.
pub(super) fn root_cause(err: &(dyn std::error::Error + 'static)) -> String {
    let mut cause = err;
    while let Some(next) = cause.source() {
        cause = next;
    }
    cause.to_string()
}
