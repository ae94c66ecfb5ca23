//! A teammate's entry: the second source of an entry id after the local change log, for
//! `changelog show|diff ID` and `rollback ID` (the one place they all take it from).
//!
//! When ID is not in the local journal and plugin.yaml `changelog.mirror` is configured, the
//! entry is read from the cluster mirror ([`crate::guard::team::MirrorReader::entry`]: the
//! latest complete record of that id). Its origin is said on stderr — which object, who
//! created it (the API server's view, `spec.createdBy`) and when — and what is wrong with it
//! ([`Origin::problems`]): `show` and `diff` print such a record with a warning, `rollback`
//! refuses it.

use crate::changelog::Entry;
use crate::guard::team::MirrorReader;
use crate::guard::{GuardError, Purpose, Session};
use crate::output::Printer;
use crate::settings::Settings;

/// Where a mirrored entry came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    /// The ChangeRecord's name.
    pub name: String,
    /// The mirror namespace.
    pub namespace: String,
    /// `spec.createdBy`: who created the record, as the API server saw it.
    pub created_by: String,
    /// When it was created in the mirror (`metadata.creationTimestamp`), else the record's
    /// timestamp.
    pub created: String,
    /// When the change was made (the record's `timestamp`).
    pub changed: String,
    /// What is wrong with it ([`crate::changelog::mirror::Mirrored::problems`]).
    pub problems: Vec<String>,
}

impl Origin {
    /// The stderr line naming the source (pure).
    pub fn note(&self, id: &str) -> String {
        format!(
            "note: entry {} is not in the local change log; it is from the cluster mirror (changerecord {} in namespace {}), written by {} for a change at {} (mirrored at {})",
            crate::base::echo::capped(id, 64),
            self.name,
            self.namespace,
            crate::base::echo::capped(&self.created_by, 200),
            crate::base::echo::capped(&self.changed, 64),
            self.created
        )
    }

    /// The problems in one phrase (pure), `;`-separated.
    pub fn problem(&self) -> String {
        self.problems.join("; ")
    }
}

/// `entries` (the local change log's) with entry `id` from the mirror appended when the log
/// has no record of it and plugin.yaml configures a mirror; the origin when it came from
/// there (its note printed on stderr, and a `warning:` for a record with problems).
/// Without a mirror, or when the log has the id, `entries` come back as they are.
///
/// # Errors
/// The session cannot be opened or the mirror cannot be read ([`GuardError::Mirror`]).
pub async fn with_mirrored(
    s: &Settings,
    p: &mut Printer<'_>,
    mut entries: Vec<Entry>,
    id: &str,
) -> Result<(Vec<Entry>, Option<Origin>), GuardError> {
    if s.plugin.changelog.mirror.is_none() || entries.iter().any(|e| e.id == id) {
        return Ok((entries, None));
    }
    let session = Session::open(s, p, Purpose::Read).await?;
    let mut reader = MirrorReader::new(&session)?;
    let Some(m) = reader.entry(id).await? else {
        return Ok((entries, None));
    };
    let origin = Origin {
        name: m.name.clone(),
        namespace: reader.namespace().to_string(),
        created_by: m.created_by.clone(),
        created: m
            .created
            .clone()
            .unwrap_or_else(|| m.entry.timestamp.clone()),
        problems: m.problems.clone(),
        changed: m.entry.timestamp.clone(),
    };
    p.err_line(&origin.note(id));
    if !origin.problems.is_empty() {
        p.err_line(&format!(
            "warning: changerecord {}: {}; do not trust it",
            origin.name,
            origin.problem()
        ));
    }
    entries.push(m.entry);
    Ok((entries, Some(origin)))
}
