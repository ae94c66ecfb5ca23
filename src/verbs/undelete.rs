//! `undelete`: a deleted object created again from the change log (docs/delete.md).
//!
//! `undelete TYPE NAME` (or `TYPE/NAME`, `-n`) undoes the latest delete entry of that object
//! made on the server the context points at; `undelete --entry ID` a named one, refused (exit
//! 2, nothing sent) when the context points at another server than the entry's. What is
//! created, what is refused and how a namespace's or CRD's objects follow is
//! [`crate::history::undelete`]'s, shared with `rollback ID` of a delete entry. The session is
//! opened for plugin.yaml verb `delete`, which bounds undelete
//! ([`crate::guard::change::plugin_verb`]).

use crate::changelog::{self, Entry};
use crate::cli::UndeleteArgs;
use crate::config::Verb;
use crate::guard::Session;
use crate::history::undelete::{Log, UndeleteError, Undo, latest_delete, read_log};
use crate::output::Printer;
use crate::settings::Settings;
use crate::verbs::{Outcome, VerbError};

/// Runs `undelete`.
///
/// Errors in the [`Outcome`]: [`UndeleteError`] (4 no entry, 2 cannot be undone, 5 exists
/// again or namespace Terminating, 1 incomplete), refusals (3), API errors.
pub async fn run(s: &Settings, args: &UndeleteArgs, p: &mut Printer<'_>) -> Outcome {
    let log = match read_log(&s.home) {
        Ok(l) => l,
        Err(e) => return Outcome::early(VerbError::io(e)),
    };
    if log.invalid > 0 {
        p.err_line(&format!(
            "warning: {} line(s) of {} are not valid change-log entries and were skipped; `kubectl myops changelog list --invalid` lists them",
            log.invalid,
            changelog::path(&s.home).display()
        ));
    }
    let (session, entry) = match open(s, args, &log, p).await {
        Ok(x) => x,
        Err(e) => return Outcome::early(e),
    };
    let undo = Undo {
        session: &session,
        entries: &log.entries,
        latest: &log.latest,
        contradicted: &log.contradicted,
        dry_run: args.dry_run.strategy,
        field_manager: &args.field_manager,
        force: args.force,
    };
    let resource = undo
        .resolve(&entry)
        .await
        .ok()
        .map(|o| o.t.group_resource());
    let result = undo.undelete(&entry, p).await.map_err(VerbError::from);
    Outcome { resource, result }
}

/// The session (plugin.yaml verb `delete`) and the entry to undo: `--entry ID` (its last
/// record; the context must point at the entry's server), or the latest delete of TYPE NAME
/// on the server the context points at.
async fn open<'s>(
    s: &'s Settings,
    args: &UndeleteArgs,
    log: &Log,
    p: &mut Printer<'_>,
) -> Result<(Session<'s>, Entry), VerbError> {
    if let Some(id) = &args.entry {
        let entry = by_id(log, id)?;
        let (session, moved) =
            Session::open_for_entry(s, p, Verb::Delete, None, &entry.server).await?;
        if let Some(moved) = moved {
            return Err(UndeleteError::Refused {
                id: entry.id.clone(),
                why: format!(
                    "it was made on {}, but the context points at {}; nothing was sent — undelete it with --context naming a context of that server",
                    crate::base::echo::capped(&moved.then, 200),
                    crate::base::echo::capped(&moved.now, 200)
                ),
            }
            .into());
        }
        return Ok((session, entry));
    }
    let target = crate::guard::parse_target(&args.args).map_err(VerbError::Usage)?;
    let [name] = target.names.as_slice() else {
        return Err(VerbError::Usage(
            "undelete takes one object: TYPE NAME or TYPE/NAME (or --entry ID)".into(),
        ));
    };
    let session = Session::open(s, p, Verb::Delete).await?;
    let obj = session.object(&target.type_name, name, None).await?;
    let found = latest_delete(
        &log.latest,
        session.server(),
        &obj.t.api.api_version,
        &obj.t.api.kind,
        obj.namespace.as_deref(),
        &obj.name,
    )
    .cloned();
    match found {
        Some(entry) => Ok((session, entry)),
        None => Err(UndeleteError::NoDelete {
            what: obj.display(),
            server: session.server().to_string(),
        }
        .into()),
    }
}

/// The last record of entry `id`, refused when its records disagree (an edited log).
fn by_id(log: &Log, id: &str) -> Result<Entry, VerbError> {
    let records: Vec<&Entry> = log.entries.iter().filter(|e| e.id == id).collect();
    let Some(last) = records.last() else {
        return Err(UndeleteError::NoEntry(crate::base::echo::capped(id, 64)).into());
    };
    if changelog::ambiguous(&records) {
        return Err(UndeleteError::Refused {
            id: last.id.clone(),
            why: format!(
                "its {} records name different objects or operations (the change log was edited or holds copied lines); check `kubectl myops changelog show {}` and restore by hand",
                records.len(),
                last.id
            ),
        }
        .into());
    }
    Ok((*last).clone())
}
