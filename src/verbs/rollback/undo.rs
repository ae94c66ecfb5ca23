//! What every inverse of one entry works with ([`Run`]), and the steps they share: the
//! live object read as the before-state, the check that it is still the entry's object,
//! and the refusal of an object someone changed since.

use serde_json::Value;

use crate::changelog::Entry;
use crate::cli::RollbackArgs;
use crate::cluster::ApiError;
use crate::guard::change::restore::last_writer;
use crate::guard::{Grant, GuardError, ObjectRef, Session};
use crate::verbs::{RollbackError, VerbError};

/// What every inverse of one entry works with.
pub struct Run<'a> {
    /// The session (opened for `patch`).
    pub session: &'a Session<'a>,
    /// The entry's object, resolved.
    pub obj: &'a ObjectRef,
    /// The entry (its last record).
    pub entry: &'a Entry,
    /// The command's arguments.
    pub args: &'a RollbackArgs,
}

impl Run<'_> {
    /// The live object, read as a change's before-state ([`crate::guard::Session::before_state`]:
    /// a failed read is journaled); `None` when reading it is not allowed.
    ///
    /// # Errors
    /// [`RollbackError::Gone`] (exit 4) when the server answers 404; other failures.
    pub(super) async fn live(
        &self,
        grant: &mut Grant,
        intent: crate::guard::mutation::Intent<'_>,
    ) -> Result<Option<Value>, VerbError> {
        self.session
            .before_state(grant, self.obj, intent)
            .await
            .map_err(|e| match e {
                GuardError::Api(ApiError::Server { code: 404, .. }) => {
                    VerbError::from(RollbackError::Gone {
                        object: self.obj.display(),
                        id: self.entry.id.clone(),
                    })
                }
                other => other.into(),
            })
    }

    /// Refuses a live object that is not the entry's (deleted and created again under the
    /// same name: another uid) — not even with `--force`, which overrides concurrent edits
    /// of the same object, not identity.
    ///
    /// # Errors
    /// [`RollbackError::Replaced`] (exit 4).
    pub(super) fn same_object(&self, current: &Value, uid: Option<&str>) -> Result<(), VerbError> {
        let live_uid = current.pointer("/metadata/uid").and_then(Value::as_str);
        if let (Some(then), Some(now)) = (uid, live_uid)
            && then != now
        {
            return Err(RollbackError::Replaced {
                object: self.obj.display(),
                id: self.entry.id.clone(),
                then: then.to_string(),
                now: now.to_string(),
            }
            .into());
        }
        Ok(())
    }

    /// The refusal of an object changed since the entry, naming its last writer.
    pub(super) fn changed(&self, current: &Value, before: &Value) -> RollbackError {
        RollbackError::Changed {
            object: self.obj.display(),
            id: self.entry.id.clone(),
            // Not journaled: an outcome decided by hand (`changelog reconcile --outcome`),
            // which reads no object, or an older record.
            then: self
                .entry
                .resource_version_after
                .clone()
                .unwrap_or_else(|| "not journaled".into()),
            now: current
                .pointer("/metadata/resourceVersion")
                .and_then(Value::as_str)
                .unwrap_or("?")
                .to_string(),
            writer: last_writer(
                current,
                before,
                &self.entry.timestamp,
                &self.args.field_manager,
            ),
        }
    }
}
