//! Which delete entry an undelete undoes (pure): the latest of an object on this server
//! ([`latest_delete`]), and whether an entry can be undone at all ([`check_entry`]).

use serde_json::Value;

use super::Contradicted;
use crate::changelog::{self, Entry, Operation};
use crate::guard::change::{Inverse, inverse_of};

/// The API group of `api_version` (`""` for the core group).
fn group(api_version: &str) -> &str {
    api_version.split_once('/').map_or("", |(g, _)| g)
}

/// Whether record `e` (the last of its id) is a delete the server made or may have made: a
/// `delete` entry with result `success` or `deleting`, or whose outcome is unknown (an intent
/// alone, an answer lost after the request went: [`Entry::outcome_unknown`]), or an object
/// journaled with its container's delete (`snapshot`) whose container's last record says
/// so. Dry runs never are. For an unknown outcome the live object decides what an undelete
/// does: gone, it is created again; still there, the undelete is refused (exit 5).
fn deleted(latest: &[Entry], e: &Entry) -> bool {
    if e.operation != Operation::Delete || e.dry_run {
        return false;
    }
    if e.result == changelog::SNAPSHOT {
        return e.parent.as_deref().is_some_and(|parent| {
            latest
                .iter()
                .rfind(|c| c.id == parent)
                .is_some_and(|c| !c.dry_run && (c.succeeded() || c.outcome_unknown()))
        });
    }
    e.succeeded() || e.outcome_unknown()
}

/// The latest delete of the object `kind` (of API group `group_of`'s group) `namespace/name`
/// made on `server`, among `latest` (the last record of every id,
/// [`changelog::latest`]): the newest record [`deleted`] accepts. Entries of other servers are
/// not candidates: an undelete creates on the server the context points at.
pub fn latest_delete<'a>(
    latest: &'a [Entry],
    server: &str,
    api_version: &str,
    kind: &str,
    namespace: Option<&str>,
    name: &str,
) -> Option<&'a Entry> {
    latest.iter().rev().find(|e| {
        e.server == server
            && e.kind == kind
            && group(&e.api_version) == group(api_version)
            && e.namespace.as_deref() == namespace
            && e.name == name
            && deleted(latest, e)
    })
}

/// The object entry `e` (its last record, among `latest`) creates again, or why it cannot
/// be undone (the sentence of [`super::UndeleteError::Refused`]; nothing is sent): a dry run or
/// failed delete, a snapshot whose container's delete did not succeed, an entry the hash chain
/// contradicts (`contradicted`: an edited record), or what [`inverse_of`] refuses (no
/// before-state, Secret values the change log never stored, masked values).
///
/// # Errors
/// The reason.
pub fn check_entry(
    latest: &[Entry],
    contradicted: &Contradicted,
    e: &Entry,
) -> Result<Value, String> {
    if let Some(why) = contradicted.get(&e.id) {
        return Err(format!(
            "the change log's hash chain contradicts it — {why}; its snapshot cannot be trusted, so nothing was sent (`kubectl myops changelog verify` reports every break)"
        ));
    }
    if e.operation == Operation::Delete && !deleted(latest, e) {
        return Err(if e.result == changelog::SNAPSHOT {
            "it is an object journaled with the delete of its container, and that delete did not succeed (or was a dry run), so the object was not deleted by it".into()
        } else {
            "it deleted nothing (a dry run or a failed attempt)".into()
        });
    }
    match inverse_of(e) {
        Ok(Inverse::Create { object }) => Ok(object),
        Ok(_) => Err(format!(
            "it is a {} entry, not a delete; `kubectl myops rollback {}` undoes it",
            serde_json::to_value(e.operation)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default(),
            e.id
        )),
        Err(why) => Err(why),
    }
}

#[cfg(test)]
mod tests;
