//! What `changelog list` selects: `--object`, `--since` and the other filters, applied to
//! the last record of every id.

use super::table::op_name;
use crate::changelog::{self, Entry};
use crate::cli::ResultFilter;
use crate::config::duration_string;
use crate::verbs::VerbError;

/// Whether `e` matches `--object` (pure): `NAME`, `NAMESPACE/NAME`, `KIND/NAME` or
/// `KIND/NAMESPACE/NAME` (the OBJECT column of `changelog list`); kind case-insensitive, a
/// trailing `s` is accepted, so `pods/web` works.
pub fn matches_object(e: &Entry, filter: &str) -> bool {
    let kind_is = |a: &str| {
        let kind = e.kind.to_lowercase();
        let a = a.to_lowercase();
        a == kind || a.strip_suffix('s') == Some(kind.as_str())
    };
    let parts: Vec<&str> = filter.split('/').collect();
    match parts[..] {
        [name] => e.name == name,
        [a, name] => name == e.name && (kind_is(a) || e.namespace.as_deref() == Some(a)),
        [kind, ns, name] => name == e.name && kind_is(kind) && e.namespace.as_deref() == Some(ns),
        _ => false,
    }
}

/// What `changelog list` selects: every filter that is `Some` must match.
#[derive(Debug, Default, Clone)]
pub struct ListFilter<'a> {
    /// `--since`: started at or after this time.
    pub cutoff: Option<jiff::Timestamp>,
    /// `--object` ([`matches_object`]).
    pub object: Option<&'a str>,
    /// `--session`.
    pub session: Option<&'a str>,
    /// The global `--context`: made in that kubeconfig context.
    pub context: Option<&'a str>,
    /// The global `--user`: made by that user, as the API server saw it (the USER column).
    pub user: Option<&'a str>,
    /// `--operation` (`patch`, `rollback`, `crd-apply`, `crd-prune`).
    pub operation: Option<&'a str>,
    /// `--result`.
    pub result: Option<ResultFilter>,
    /// `--actor` ([`matches_actor`]).
    pub actor: Option<&'a str>,
}

/// The entries `changelog list` shows (pure): the last record of every id
/// ([`changelog::latest`]) that matches every filter, in log order.
pub fn select(records: Vec<Entry>, f: &ListFilter<'_>) -> Vec<Entry> {
    changelog::latest(records)
        .into_iter()
        .filter(|e| matches(e, f))
        .collect()
}

/// Whether the (last) record `e` of an id matches every filter of `f` (pure): what
/// [`select`] keeps, and what the streamed listing asks of each id's last record.
pub fn matches(e: &Entry, f: &ListFilter<'_>) -> bool {
    f.cutoff
        .is_none_or(|c| e.timestamp.parse::<jiff::Timestamp>().is_ok_and(|t| t >= c))
        && f.object.is_none_or(|o| matches_object(e, o))
        && f.session.is_none_or(|s| e.session == s)
        && f.context.is_none_or(|c| e.context.as_deref() == Some(c))
        && f.user.is_none_or(|u| e.user == u)
        && f.operation.is_none_or(|o| op_name(e) == o)
        && f.actor.is_none_or(|a| matches_actor(e.actor.as_deref(), a))
        && f.result.is_none_or(|r| match r {
            ResultFilter::Success => e.result == "success",
            ResultFilter::Unknown => e.outcome_unknown(),
            ResultFilter::Failure => e.result != "success" && !e.outcome_unknown(),
        })
}

/// Whether a record made through `actor` matches `--actor WANTED` (pure): the same actor,
/// or one it names the start of up to a `:` or `/` — `mcp` matches every agent
/// (`mcp:claude-code/2.1`), `mcp:claude-code` every version of one client. A person's
/// command has no actor and matches none.
pub fn matches_actor(actor: Option<&str>, wanted: &str) -> bool {
    actor.is_some_and(|a| {
        a == wanted
            || a.strip_prefix(wanted)
                .is_some_and(|rest| rest.starts_with(':') || rest.starts_with('/'))
    })
}

/// Parses `--since`: a duration before `now` (`1h`, `30m`) or an RFC 3339 time.
///
/// # Errors
/// A usage message naming both accepted forms.
pub fn since(text: &str, now: jiff::Timestamp) -> Result<jiff::Timestamp, VerbError> {
    if let Ok(t) = text.parse::<jiff::Timestamp>() {
        return Ok(t);
    }
    let d = duration_string::parse(text).map_err(|_| {
        VerbError::Usage(format!(
            "--since {text:?}: use a duration such as 1h or 30m, or an RFC 3339 time"
        ))
    })?;
    // A duration that reaches past the calendar (`99999999999999h`) is a usage error in one
    // sentence, not jiff's range message.
    let too_far = || {
        VerbError::Usage(format!(
            "--since {text:?} reaches back further than any time can be written; use a shorter duration or an RFC 3339 time"
        ))
    };
    let span = jiff::SignedDuration::try_from(d).map_err(|_| too_far())?;
    now.checked_sub(span).map_err(|_| too_far())
}

/// The usage error of `changelog list --session ''`: records without a session (older records)
/// all carry the empty session id, so it would list unrelated changes as one
/// invocation (`rollback --session ''` refuses it the same way).
pub const EMPTY_SESSION: &str = "--session needs a session id (a fanned-out patch prints it; `kubectl myops changelog show ID` shows an entry's); an empty one would select every change logged before sessions existed";

/// The `--since` cutoff of `changelog list` (local or `--from-cluster`), after checking
/// `--session` is not empty.
///
/// # Errors
/// [`crate::verbs::VerbError::Usage`] for a `--since` that is neither a duration nor a time, or an empty
/// `--session`.
pub fn cutoff_of(
    since_arg: Option<&str>,
    session: Option<&str>,
) -> Result<Option<jiff::Timestamp>, crate::verbs::VerbError> {
    let cutoff = since_arg
        .map(|t| since(t, jiff::Timestamp::now()))
        .transpose()?;
    if session == Some("") {
        return Err(crate::verbs::VerbError::Usage(EMPTY_SESSION.into()));
    }
    Ok(cutoff)
}
