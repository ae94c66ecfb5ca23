//! The rules for plugin.yaml's `pushgateway:` block: a usable base URL, a job name and a
//! bounded timeout. The URL rule is shared with the `--pushgateway` flag and the
//! `MYOPS_PUSHGATEWAY` variable, which `crate::settings` checks with the same function.

use std::time::Duration;

use super::diagnose::Field;
use super::model::PushgatewayConfig;

/// Longest accepted `pushgateway.timeout`: a push must never hold up a command for long
/// (docs/design.md, "Metrics").
const MAX_PUSH_TIMEOUT: Duration = Duration::from_secs(60);

/// Why `url` cannot be a Pushgateway base URL, as one sentence naming `what` (the flag,
/// variable or plugin.yaml key), or `None` when it can. The URL is echoed escaped, capped
/// and without userinfo — and not at all when it holds a userinfo, query or fragment, any of
/// which may carry a credential. Rules: `http://` or `https://` with a host; no spaces or
/// control characters; no `user:password@` (docs/configuration.md: never a password inline);
/// no `?query` or `#fragment` (the grouping-key path `/metrics/job/…` is appended to
/// it, so a query would swallow it and send the push to the wrong place).
pub fn base_url_problem(what: &str, url: &str) -> Option<String> {
    let shown = || crate::base::echo::quoted(&crate::base::redact::url_without_userinfo(url));
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

/// The first rule of the `pushgateway:` block that `pg` breaks, with a message saying what
/// to do: the URL ([`base_url_problem`]), an empty `job`, a timeout of 0 or over 60s.
pub(super) fn pushgateway_problem(pg: &PushgatewayConfig) -> Option<(Field, String)> {
    if let Some(msg) = base_url_problem("pushgateway.url", &pg.url) {
        return Some((Field::Url, msg));
    }
    // An empty `instance` is allowed (it is sent as `instance@base64/=`); the job is required.
    if pg.job.is_empty() {
        let msg = "pushgateway.job must not be empty: the Pushgateway needs a job name for the \
                   grouping key (default kubectl-myops)";
        return Some((Field::Url, msg.into()));
    }
    if pg.timeout.is_zero() || pg.timeout > MAX_PUSH_TIMEOUT {
        let msg = format!(
            "pushgateway.timeout {:?} must be more than 0 and at most 60s, so a push never holds \
             up a command",
            pg.timeout
        );
        return Some((Field::Timeout, msg));
    }
    None
}
