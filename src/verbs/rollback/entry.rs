//! One entry rolled back: its last record found and judged ([`find_entry`]: the inverse of
//! the mutation model, [`inverse_of`], refused before anything is sent when it cannot be
//! exact), its object resolved, and its inverse run ([`roll_back_entry`]).

use crate::changelog::{self, Entry};
use crate::cli::RollbackArgs;
use crate::guard::Session;
use crate::guard::change::{Inverse, inverse_of};
use crate::output::Printer;
use crate::verbs::{RollbackError, VerbError};

/// The last record of entry `id` among `entries`, if it can be rolled back exactly (pure):
/// refused (exit 2, before anything is sent) when its records disagree (an edited log) or
/// its inverse cannot be exact ([`inverse_of`]: it changed nothing, has no before-state or
/// patch, or changed a Secret's data, which the change log never stores); an unknown id is
/// exit 4.
///
/// # Errors
/// [`RollbackError::NoEntry`] (the id escaped and capped) or [`RollbackError::NotRestorable`].
pub fn find_entry(entries: &[Entry], id: &str) -> Result<Entry, VerbError> {
    judge(entries, id).map(|(entry, _)| entry)
}

/// [`find_entry`] with the entry's inverse.
///
/// # Errors
/// As [`find_entry`].
pub fn judge(entries: &[Entry], id: &str) -> Result<(Entry, Inverse), VerbError> {
    let records: Vec<&Entry> = entries.iter().filter(|e| e.id == id).collect();
    let entry = (*records
        .last()
        .ok_or_else(|| RollbackError::NoEntry(crate::base::echo::capped(id, 64)))?)
    .clone();
    let refuse = |why: String| RollbackError::NotRestorable {
        id: entry.id.clone(),
        why,
    };
    if changelog::ambiguous(&records) {
        return Err(refuse(format!(
            "its {} records name different objects or operations (the change log was edited or holds copied lines), so what to restore is not clear; check `kubectl myops changelog show {}` and restore by hand",
            records.len(),
            entry.id
        ))
        .into());
    }
    match inverse_of(&entry) {
        Ok(inverse) => Ok((entry, inverse)),
        Err(why) => Err(refuse(why).into()),
    }
}

/// Resolves the entry's object in `session` and runs the entry's inverse; returns the
/// resource (`plural.group`, once resolved) and how it ended. `rerun` (part of
/// `rollback --session`, which may be run again after a partial failure): fields that
/// already hold their earlier values are "nothing to roll back" rather than a conflict.
pub async fn roll_back_entry(
    session: &Session<'_>,
    entry: &Entry,
    args: &RollbackArgs,
    rerun: bool,
    p: &mut Printer<'_>,
) -> (Option<String>, Result<(), VerbError>) {
    // `Kind.version.group` resolves exactly the journaled type; a core kind alone resolves to core.
    let obj = match session
        .object(
            &crate::history::type_name(entry),
            &entry.name,
            entry.namespace.clone(),
        )
        .await
    {
        Ok(o) => o,
        Err(e) => return (None, Err(e.into())),
    };
    // The record's kind must be the kind its type resolves to (`Secret`, not `secrets`):
    // every refusal that depends on the kind (a Secret's values) reads the record's.
    if obj.t.api.kind != entry.kind || obj.t.api.api_version != entry.api_version {
        let e = RollbackError::NotRestorable {
            id: entry.id.clone(),
            why: format!(
                "its record names kind {} ({}), which is not the kind its type resolves to ({} {}), so the change log was edited; restore by hand (nothing was sent)",
                crate::base::echo::quoted(&entry.kind),
                crate::base::echo::capped(&entry.api_version, 100),
                obj.t.api.api_version,
                obj.t.api.kind
            ),
        };
        return (Some(obj.t.group_resource()), Err(e.into()));
    }
    let inverse = match inverse_of(entry) {
        Ok(i) => i,
        Err(why) => {
            let e = RollbackError::NotRestorable {
                id: entry.id.clone(),
                why,
            };
            return (Some(obj.t.group_resource()), Err(e.into()));
        }
    };
    let run = super::undo::Run {
        session,
        obj: &obj,
        entry,
        args,
    };
    let result = match inverse {
        Inverse::Restore {
            before,
            touched,
            rv_after,
        } => {
            let restore = super::restore::Restore {
                before: &before,
                touched: &touched,
                rv_after: rv_after.as_deref(),
            };
            super::restore::restore(&run, &restore, rerun, p).await
        }
        Inverse::Create { .. } => super::recreate::create_again(&run, p).await,
        Inverse::Delete { uid, rv_after } => {
            super::recreate::delete_created(&run, uid.as_deref(), rv_after.as_deref(), p).await
        }
    };
    (Some(obj.t.group_resource()), result)
}
