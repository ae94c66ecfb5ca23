//! The delete machinery every verb that deletes shares (`delete`, and what undelete, MCP and
//! fleet need): waiting until a deleted object is gone (listing the objects a selector or
//! `--all` names is [`crate::guard::select`], shared with the other verbs that select) (kubectl's `--wait`,
//! `k8s.io/kubectl/pkg/cmd/delete/delete.go` `waitForDeletion`).

use std::time::{Duration, Instant};

use kube::api::{Api, DynamicObject};
use serde_json::Value;

use crate::cluster::ApiError;
use crate::guard::{ObjectRef, Session};

/// How often [`Session::wait_gone`] reads the object again: kubectl's wait polls its watch
/// events; a read every half second bounds the extra wait after the object is gone.
pub const WAIT_POLL: Duration = Duration::from_millis(500);

/// kubectl's `--timeout=0` for a delete's wait: a week (`delete.go`, `effectiveTimeout`).
pub const WAIT_FOREVER: Duration = Duration::from_secs(7 * 24 * 3600);

/// What a wait for a deleted object ended with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Gone {
    /// The object is gone (404, or another object of the same name: another uid).
    Yes,
    /// Still there when the timeout passed, with these finalizers.
    TimedOut {
        /// `metadata.finalizers` of the object as last read.
        finalizers: Vec<String>,
    },
}

impl Session<'_> {
    /// Waits until `obj`, deleted while its uid was `uid`, is gone: read every [`WAIT_POLL`]
    /// until the server answers 404 or with another uid, for at most `timeout`.
    ///
    /// # Errors
    /// A read that fails otherwise than with 404.
    pub async fn wait_gone(
        &self,
        obj: &ObjectRef,
        uid: Option<&str>,
        timeout: Duration,
    ) -> Result<Gone, ApiError> {
        let api: Api<DynamicObject> = match &obj.namespace {
            Some(ns) => Api::namespaced_with(self.client().clone(), ns, &obj.t.api),
            None => Api::all_with(self.client().clone(), &obj.t.api),
        };
        let deadline = Instant::now() + timeout;
        loop {
            let finalizers = match self
                .call("the wait for the delete", api.get(&obj.name))
                .await
            {
                Err(ApiError::Server { code: 404, .. }) => return Ok(Gone::Yes),
                Err(e) => return Err(e),
                Ok(o) if uid.is_some() && o.metadata.uid.as_deref() != uid => {
                    return Ok(Gone::Yes);
                }
                Ok(o) => o.metadata.finalizers.unwrap_or_default(),
            };
            let now = Instant::now();
            if now >= deadline {
                return Ok(Gone::TimedOut { finalizers });
            }
            tokio::time::sleep(WAIT_POLL.min(deadline - now)).await;
        }
    }
}

/// The uid and resourceVersion of an object as read (pure).
pub fn identity(before: &Value) -> (Option<String>, Option<String>) {
    let get = |p: &str| {
        before
            .pointer(p)
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    (get("/metadata/uid"), get("/metadata/resourceVersion"))
}

pub mod contents;
pub mod dependents;
