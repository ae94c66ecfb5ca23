//! `changelog list` and `changelog show ID`: reading the change log (ARCHITECTURE §7).

use serde_json::json;

use crate::changelog::{self, Entry};
use crate::cli::ChangelogCommand;
use crate::cluster::table::{self, Table, TableOptions};
use crate::config::duration_string;
use crate::output::{Printer, to_json};
use crate::settings::Settings;
use crate::verbs::VerbError;

/// The object an entry is about, as `kind/name` or `kind/namespace/name` (lowercase kind).
pub fn object_of(e: &Entry) -> String {
    let kind = e.kind.to_lowercase();
    match &e.namespace {
        Some(ns) => format!("{kind}/{ns}/{}", e.name),
        None => format!("{kind}/{}", e.name),
    }
}

/// Whether `e` matches `--object` (pure): `NAME`, `NAMESPACE/NAME` or `KIND/NAME`
/// (kind case-insensitive; a trailing `s` is accepted, so `pods/web` works).
pub fn matches_object(e: &Entry, filter: &str) -> bool {
    match filter.split_once('/') {
        None => e.name == filter,
        Some((a, name)) => {
            let kind = e.kind.to_lowercase();
            let a = a.to_lowercase();
            name == e.name && (a == kind || a.strip_suffix('s') == Some(kind.as_str()) || e.namespace.as_deref() == Some(a.as_str()))
        }
    }
}

/// Parses `--since`: a duration before `now` (`1h`, `30m`) or an RFC 3339 time.
///
/// # Errors
/// A usage message naming both accepted forms.
pub fn since(text: &str, now: jiff::Timestamp) -> Result<jiff::Timestamp, VerbError> {
    if let Ok(t) = text.parse::<jiff::Timestamp>() {
        return Ok(t);
    }
    let d = duration_string::parse(text).map_err(|_| VerbError::Usage(format!("--since {text:?}: use a duration such as 1h or 30m, or an RFC 3339 time")))?;
    let span = jiff::SignedDuration::try_from(d).map_err(|e| VerbError::Usage(format!("--since {text:?}: {e}")))?;
    now.checked_sub(span).map_err(|e| VerbError::Usage(format!("--since {text:?}: {e}")))
}

/// Runs a `changelog` subcommand.
///
/// # Errors
/// [`VerbError::Io`] when the log cannot be read; [`VerbError::Usage`] for a bad filter;
/// an unknown id is not found (exit 4).
pub async fn run(s: &Settings, cmd: &ChangelogCommand, p: &mut Printer<'_>) -> Result<(), VerbError> {
    let (entries, bad) = changelog::read_all(&s.home).map_err(|e| VerbError::Io(e.to_string()))?;
    if bad > 0 {
        p.err_line(&format!("warning: {bad} line(s) of {} are not valid entries and were skipped", changelog::path(&s.home).display()));
    }
    match cmd {
        ChangelogCommand::Show { id } => {
            let e = entries.iter().find(|e| &e.id == id).ok_or_else(|| crate::verbs::rollback::RollbackError::NoEntry(id.clone()))?;
            p.out(&to_json(e)?)?;
        }
        ChangelogCommand::List { since: since_arg, object } => {
            let cutoff = since_arg.as_deref().map(|t| since(t, jiff::Timestamp::now())).transpose()?;
            let rows: Vec<serde_json::Value> = entries
                .iter()
                .filter(|e| cutoff.is_none_or(|c| e.timestamp.parse::<jiff::Timestamp>().is_ok_and(|t| t >= c)))
                .filter(|e| object.as_deref().is_none_or(|o| matches_object(e, o)))
                .map(|e| {
                    let op = if e.dry_run { format!("{} (dry run)", op_name(e)) } else { op_name(e) };
                    json!({"cells": [e.id, e.timestamp, e.user, op, object_of(e), e.result]})
                })
                .collect();
            if rows.is_empty() {
                p.err_line("No change-log entries.");
                return Ok(());
            }
            let columns: Vec<_> = ["Id", "Time", "User", "Operation", "Object", "Result"].iter().map(|c| json!({"name": c, "type": "string"})).collect();
            let t: Table = serde_json::from_value(json!({"columnDefinitions": columns, "rows": rows})).unwrap_or_default();
            p.out(&table::render(&t, TableOptions::default()))?;
        }
    }
    Ok(())
}

fn op_name(e: &Entry) -> String {
    serde_json::to_value(e.operation).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::changelog::Operation;

    fn entry(kind: &str, ns: Option<&str>, name: &str) -> Entry {
        Entry {
            id: "1".into(),
            timestamp: "2026-11-30T08:00:00Z".into(),
            plugin: "myops".into(),
            user: "admin".into(),
            context: None,
            server: "s".into(),
            api_version: "v1".into(),
            kind: kind.into(),
            namespace: ns.map(str::to_string),
            name: name.into(),
            uid: None,
            operation: Operation::Patch,
            patch_type: None,
            patch: None,
            dry_run: false,
            before: None,
            resource_version_after: None,
            result: "success".into(),
            duration_seconds: 0.1,
        }
    }

    #[test]
    fn object_filters_accept_name_kind_and_namespace_forms() {
        let e = entry("Pod", Some("shop"), "web-1");
        assert_eq!(object_of(&e), "pod/shop/web-1");
        for f in ["web-1", "pod/web-1", "pods/web-1", "Pod/web-1", "shop/web-1"] {
            assert!(matches_object(&e, f), "{f}");
        }
        for f in ["web-2", "deployment/web-1", "other/web-1"] {
            assert!(!matches_object(&e, f), "{f}");
        }
    }

    #[test]
    fn since_takes_a_duration_or_a_timestamp() {
        let now: jiff::Timestamp = "2026-11-30T10:00:00Z".parse().unwrap();
        assert_eq!(since("1h", now).unwrap().to_string(), "2026-11-30T09:00:00Z");
        assert_eq!(since("2026-11-30T08:00:00Z", now).unwrap().to_string(), "2026-11-30T08:00:00Z");
        assert!(since("yesterday", now).is_err());
    }
}
