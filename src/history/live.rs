//! Reading the live object of a journaled change, through the guarded path: the one I/O
//! edge `changelog diff` (an entry without an after-state) and `drift` share.
//!
//! It is a read, so it takes the `get` verb: the plugin.yaml boundary for `get` on the
//! entry's resource, then a SelfSubjectAccessReview for `get` on the named object, then the
//! GET itself ([`Session::read`], which also remembers a Secret's values for the scrubber).
//! [`type_name`] names a journaled object's type as the TYPE argument that resolves it.

use serde_json::Value;

use crate::changelog::Entry;
use crate::cluster::ApiError;
use crate::config::Verb;
use crate::guard::{GuardError, ObjectRef, Session};

/// What the read of a journaled object found.
#[derive(Debug, Clone, PartialEq)]
pub enum Live {
    /// The object as the server returned it (not redacted: the caller redacts before
    /// anything is compared, printed or journaled).
    Found(Value),
    /// The server answered 404: the object was deleted since.
    Gone,
    /// The review allowed the read but the server answered 403.
    Forbidden,
}

/// Reads the object `e` changed (its journaled type, namespace and name) in `session`'s
/// cluster, after the boundary and the SelfSubjectAccessReview for `get`.
///
/// # Errors
/// The TYPE no longer resolves (exit 2), a refusal by plugin.yaml or RBAC (exit 3), a request
/// that fails or times out (exit 1). A deleted object is [`Live::Gone`], not an error.
pub async fn read_journaled(
    session: &Session<'_>,
    e: &Entry,
) -> Result<(ObjectRef, Live), GuardError> {
    let obj = session
        .object(&type_name(e), &e.name, e.namespace.clone())
        .await?;
    let grant = session
        .authorize(Verb::Get, &obj.t, false, &[obj.access("get", None)])
        .await?;
    let live = match session.read(&grant, &obj).await {
        Ok(Some(v)) => Live::Found(v),
        Ok(None) => Live::Forbidden,
        Err(ApiError::Server { code: 404, .. }) => Live::Gone,
        Err(other) => return Err(other.into()),
    };
    Ok((obj, live))
}

/// The TYPE that resolves exactly the journaled type of `e` (`Kind.version.group`, or the
/// kind alone for the core group).
pub fn type_name(e: &Entry) -> String {
    match e.api_version.split_once('/') {
        Some((group, version)) => format!("{}.{version}.{group}", e.kind),
        None => e.kind.clone(),
    }
}
