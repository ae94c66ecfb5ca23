//! The API server's `Audit-Id` of a request, captured for the change log.
//!
//! The API server answers every request with an `Audit-Id` response header: the id of the
//! request's audit event (`k8s.io/apiserver/pkg/endpoints/filters/audit_init.go`,
//! `WithAuditInit`, echoes the id a client sent or the one it made). An outcome record that
//! keeps it points at its audit event (docs/changelog.md, "Attribution").
//!
//! How: [`record`] runs in the client's service stack ([`super::connector`]) on every
//! response and writes the id into a task-local slot when one is in scope; [`capturing`]
//! puts a fresh slot in scope around one future. kube-rs's client hands each request to a
//! buffer worker task, but the response future comes back to the caller and is polled in the
//! caller's task, so the slot the caller scoped is the one the response writes. A future run
//! outside [`capturing`] writes nothing; an answer that never came (a lost connection, a
//! deadline) leaves the slot empty.

use std::cell::RefCell;
use std::future::Future;

tokio::task_local! {
    /// The first `Audit-Id` answered inside the current [`capturing`] scope.
    static AUDIT_ID: RefCell<Option<String>>;
}

/// The response header the API server names the request's audit event in.
pub const AUDIT_ID_HEADER: &str = "audit-id";

/// Runs `fut` with a fresh slot in scope and returns its output with the `Audit-Id` of the
/// first response answered while it ran (`None` when no answer came or it had no such
/// header). The first one: a create followed by the write of its status (one change-log
/// entry) is named by its main request, the create.
pub async fn capturing<F: Future>(fut: F) -> (F::Output, Option<String>) {
    AUDIT_ID
        .scope(RefCell::new(None), async move {
            let out = fut.await;
            let id = AUDIT_ID.with(|slot| slot.borrow_mut().take());
            (out, id)
        })
        .await
}

/// Notes `response`'s `Audit-Id` in the slot in scope, if any and not yet set (called by the
/// client's service stack for every response; cheap when no slot is in scope).
pub fn record<B>(response: http::Response<B>) -> http::Response<B> {
    let _ = AUDIT_ID.try_with(|slot| {
        let mut slot = slot.borrow_mut();
        if slot.is_none() {
            *slot = audit_id(response.headers());
        }
    });
    response
}

/// The `Audit-Id` of `headers` when it is a plain, short token (pure): a value that is not
/// visible ASCII or is longer than 128 bytes is no id the API server made (it makes UUIDs),
/// so it is not journaled.
pub fn audit_id(headers: &http::HeaderMap) -> Option<String> {
    let v = headers.get(AUDIT_ID_HEADER)?.to_str().ok()?.trim();
    (!v.is_empty() && v.len() <= 128 && v.bytes().all(|b| b.is_ascii_graphic()))
        .then(|| v.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(id: Option<&str>) -> http::Response<()> {
        let mut r = http::Response::new(());
        if let Some(id) = id {
            r.headers_mut()
                .insert(AUDIT_ID_HEADER, http::HeaderValue::from_str(id).unwrap());
        }
        r
    }

    #[tokio::test]
    async fn the_first_answer_in_scope_names_the_entry_and_nothing_leaks_out_of_it() {
        let (_, id) = capturing(async {
            record(answer(Some("6f1c-create")));
            record(answer(Some("77aa-status")));
        })
        .await;
        assert_eq!(id.as_deref(), Some("6f1c-create"));
        // Outside any scope: nothing to write, no panic.
        record(answer(Some("stray")));
        let (_, none) = capturing(async {}).await;
        assert_eq!(none, None);
        let (_, bad) = capturing(async {
            record(answer(Some("has space")));
        })
        .await;
        assert_eq!(bad, None);
    }

    #[tokio::test]
    async fn concurrent_scopes_keep_their_own_ids() {
        use futures::StreamExt;
        let ids: Vec<Option<String>> = futures::stream::iter(0..4)
            .map(|i| async move {
                tokio::task::yield_now().await;
                capturing(async move {
                    tokio::task::yield_now().await;
                    record(answer(Some(&format!("id-{i}"))));
                })
                .await
                .1
            })
            .buffered(4)
            .collect()
            .await;
        assert_eq!(
            ids,
            (0..4).map(|i| Some(format!("id-{i}"))).collect::<Vec<_>>()
        );
    }
}
