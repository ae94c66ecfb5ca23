//! `changelog.head`, the side record of the chain's ends, read and replaced atomically.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// `changelog.head` as [`read_head`] gives it.
pub type HeadRead = Result<Option<Head>, String>;

/// The side record of the chain's ends, `MYOPS_HOME/changelog.head`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Head {
    /// The hash of the last record appended.
    pub head: String,
    /// The `prev` the oldest retained record must have: `GENESIS`, or after rotation
    /// deleted the oldest file, that file's last hash.
    pub base: String,
}

/// `MYOPS_HOME/changelog.head`.
pub fn head_path(home: &Path) -> PathBuf {
    home.join("changelog.head")
}

/// Reads `changelog.head`: `Ok(None)` when it does not exist, `Err` naming why it cannot be
/// used (unreadable, not the expected JSON) — a reason, never its content.
pub fn read_head(home: &Path) -> HeadRead {
    let path = head_path(home);
    match crate::base::fsutil::read_regular(&path, 4096) {
        Ok(bytes) => serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|_| format!("{} is not a head record", path.display())),
        Err(e) if matches!(e.problem, crate::base::fsutil::Unreadable::Missing) => Ok(None),
        Err(e) => Err(e.to_string()),
    }
}

/// Replaces `changelog.head` atomically ([`crate::base::fsutil::write_atomic`]); the caller holds
/// the writers' lock.
///
/// # Errors
/// The I/O error of writing, syncing or renaming.
pub fn write_head(home: &Path, head: &Head) -> std::io::Result<()> {
    crate::base::fsutil::write_atomic(&head_path(home), &head_text(head)?)
}

/// [`write_head`] in two halves ([`crate::base::fsutil::stage_atomic`]): the new head written
/// to its temporary file, to be synced beside the log's new lines and renamed over
/// `changelog.head` only when both are on disk. The caller holds the writers' lock.
///
/// # Errors
/// The I/O error of writing the temporary file.
pub fn stage_head(home: &Path, head: &Head) -> std::io::Result<crate::base::fsutil::Staged> {
    crate::base::fsutil::stage_atomic(&head_path(home), &head_text(head)?)
}

/// The bytes of `changelog.head` for `head`: one JSON line.
fn head_text(head: &Head) -> std::io::Result<Vec<u8>> {
    let mut text = serde_json::to_vec(head).map_err(std::io::Error::other)?;
    text.push(b'\n');
    Ok(text)
}
