//! The headers every request of the client carries: `User-Agent`, `Kubectl-Session`,
//! `Kubectl-Command` and `Myops-Reason`.

use kube::config::Config;

use super::error::ClusterError;

/// Adds the `User-Agent`, `Kubectl-Session` and `Kubectl-Command` headers. kube-rs sends no
/// User-Agent; we name ourselves so audit logs can tell our requests apart, and carry the
/// command path and the session id there too: the API server's audit log records the
/// User-Agent, not other headers ([`user_agent`]).
pub(super) fn add_session_headers(
    config: &mut Config,
    session: &str,
    command: Option<&str>,
) -> Result<(), ClusterError> {
    let session = http::HeaderValue::from_str(session)
        .map_err(|_| ClusterError::Server(format!("session id {session:?}")))?;
    let agent = user_agent(session.to_str().unwrap_or(""), command);
    config.headers.push((
        http::header::USER_AGENT,
        http::HeaderValue::from_str(&agent).map_err(|_| ClusterError::Server(agent.clone()))?,
    ));
    config
        .headers
        .push((http::HeaderName::from_static("kubectl-session"), session));
    if let Some(value) = command.and_then(|c| command_header(c).ok()) {
        config
            .headers
            .push((http::HeaderName::from_static("kubectl-command"), value));
    }
    Ok(())
}

/// The `Kubectl-Command` value for the command path `command` (`patch`, `crds watch`):
/// `kubectl myops patch`, as kubectl sends `kubectl apply` (KEP-859: the command path only,
/// never arguments or flag values, which may hold secrets).
///
/// # Errors
/// A path that is not a valid header value (clap's subcommand names are plain ASCII, so
/// none of ours).
pub fn command_header(
    command: &str,
) -> Result<http::HeaderValue, http::header::InvalidHeaderValue> {
    http::HeaderValue::from_str(&format!("kubectl myops {command}"))
}

/// Our User-Agent (pure): `kubectl-myops/<version> (myops <command>) session/<id>`, or
/// without the comment when no command path is known. The command is an RFC 9110 §10.1.5
/// comment (parenthesized, only ASCII letters, digits, spaces, `-` and `_` from clap's subcommand
/// names; anything else is dropped so the value stays one valid header value), and
/// `session/<id>` stays the last word, as the audit-log readers expect.
pub fn user_agent(session: &str, command: Option<&str>) -> String {
    let product = concat!("kubectl-myops/", env!("CARGO_PKG_VERSION"));
    let command: Option<String> = command
        .map(|c| {
            c.chars()
                .filter(|ch| ch.is_ascii_alphanumeric() || matches!(ch, ' ' | '-' | '_'))
                .collect::<String>()
        })
        .filter(|c| !c.trim().is_empty());
    match command {
        Some(c) => format!("{product} (myops {}) session/{session}", c.trim()),
        None => format!("{product} session/{session}"),
    }
}

/// The characters of a `--reason` that are percent-encoded in the `Myops-Reason` header: the
/// controls (RFC 9110 section 5.5 allows none in a field value), `%` itself, so the value
/// decodes back exactly, and the space, which a server strips from either end of a value;
/// bytes of non-ASCII characters are always encoded (UTF-8, RFC 3986 section 2.1).
const REASON_ENCODED: &percent_encoding::AsciiSet = &percent_encoding::CONTROLS.add(b'%').add(b' ');

/// The `Myops-Reason` header carrying `reason`, percent-encoded ([`REASON_ENCODED`]), so any
/// text — another script, a newline, a quote — is one valid header value.
pub fn reason_header(reason: &str) -> (http::HeaderName, http::HeaderValue) {
    let encoded = percent_encoding::utf8_percent_encode(reason, REASON_ENCODED).to_string();
    (
        http::HeaderName::from_static("myops-reason"),
        // Every byte left is visible ASCII or a space after the encoding above.
        http::HeaderValue::from_str(&encoded)
            .unwrap_or_else(|_| http::HeaderValue::from_static("")),
    )
}
