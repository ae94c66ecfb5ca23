//! `get -w`: the watch stream on the guarded path.
//!
//! The shape is kubectl's (`k8s.io/kubectl/pkg/cmd/get/get.go`, `func watch`): list first
//! (its `resourceVersion` is where the watch starts, so no change between the list and the
//! watch is lost), then follow `?watch=true&resourceVersion=…`. As a server-side Table when
//! the output is a table (kubectl's `Accept: application/json;as=Table;v=v1;g=meta.k8s.io`),
//! else whole objects. Unlike kubectl — whose `UntilWithoutRetry` stops at the first end of
//! the stream — a stream that ends (the server's `timeoutSeconds`, a dropped connection) is
//! opened again from the last resourceVersion seen, so nothing is printed twice; BOOKMARK
//! events (`allowWatchBookmarks=true`) move that resourceVersion and print nothing.
//!
//! "too old resource version" — HTTP 410 Gone on opening, or an ERROR event with code 410
//! (Status reason `Expired`/`Gone`; Kubernetes API concepts, "Efficient detection of
//! changes") — re-lists and resumes from the new list: what changed in between comes out as
//! events computed by [`diff`] (new objects ADDED, a changed `resourceVersion` MODIFIED,
//! objects gone DELETED), so nothing is lost or printed twice.
//!
//! A server that stops answering (stopped or restarting kube-apiserver, its etcd down:
//! [`ApiError::is_transient`]) does not end the watch: [`Watch::next`] reports
//! the outage once ([`Progress::Lost`]), tries again with the backoff of [`super::outage`]
//! (client-go's reflector's, capped at 8 s), and reports [`Progress::Resumed`] when
//! the server answers; the watch goes on from the last resourceVersion (or re-lists on 410),
//! so nothing is lost or printed twice. kubectl's `get -w` ends instead.
//!
//! Every request goes through the [`Session`] under a [`Grant`]: [`Watch::start`] needs one,
//! and the caller gets one only from [`Session::authorize`] (plugin.yaml boundary, then the
//! SelfSubjectAccessReviews for `list` and `watch`).

use std::collections::BTreeMap;
use std::pin::Pin;
use std::time::Duration;

use futures::{Stream, StreamExt};
use kube::api::{ListParams, WatchParams};
use kube::core::WatchEvent;
use serde_json::Value;

use super::outage::Outage;
use super::{Grant, Session};
use crate::cluster::ApiError;
use crate::cluster::table::{Column, Row, Table, as_table_request};

/// The server-side bound of one watch request, in seconds. kube-core refuses 295 s and more
/// (`WatchParams::validate`); kube-rs's own watcher uses 290 s. When it passes the server
/// ends the stream normally and [`Watch::next`] opens a new one.
pub const WATCH_TIMEOUT_SECONDS: u32 = 290;

/// How long a stream may stay silent before it is considered dead and opened again: the
/// server's bound plus 30 s (a half-open connection must not stall the watch forever).
pub const STALL: Duration = Duration::from_secs(WATCH_TIMEOUT_SECONDS as u64 + 30);

/// What [`Watch::next`] has to tell.
#[derive(Debug)]
pub enum Progress {
    /// Changes, in the server's order.
    Events(Vec<Event>),
    /// The server stopped answering (the first failure of an outage, told once); the watch
    /// keeps trying.
    Lost(ApiError),
    /// The server answers again after an outage that lasted this long; the watch goes on
    /// from where it was (changes meanwhile come with the following calls).
    Resumed(Duration),
}

/// Test hook, read once by [`Watch::start`] in debug builds only (the build the tests run; a
/// release never reads it): when set, the first watch starts from this
/// resourceVersion instead of the list's, so a test can make the server answer 410 ("too
/// old resource version", e.g. with `1`) and check the re-list path on a real cluster.
/// Only the starting point moves; the listed state and the output are unchanged.
pub const START_RV_ENV: &str = "MYOPS_TEST_WATCH_RESOURCE_VERSION";

/// The kind of one change, as kubectl prints it in the EVENT column and in `"type"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventType {
    /// The object appeared (or, for the initial list with `--output-watch-events`, exists).
    Added,
    /// The object changed.
    Modified,
    /// The object is gone (or left the selector).
    Deleted,
}

impl EventType {
    /// `ADDED`, `MODIFIED` or `DELETED` (`k8s.io/apimachinery/pkg/watch`).
    pub fn as_str(self) -> &'static str {
        match self {
            EventType::Added => "ADDED",
            EventType::Modified => "MODIFIED",
            EventType::Deleted => "DELETED",
        }
    }
}

/// One object as the watch sees it: a Table row (table output; `row.object` holds the
/// object's metadata, or the object with `includeObject=Object`) or the whole object.
#[derive(Debug, Clone)]
pub enum Item {
    /// A server-side Table row.
    Row(Row),
    /// A whole object (JSON as the server sent it).
    Object(Value),
}

impl Item {
    fn metadata(&self) -> Option<&Value> {
        match self {
            Item::Row(r) => r.object.get("metadata"),
            Item::Object(o) => o.get("metadata"),
        }
    }

    fn meta_str(&self, key: &str) -> String {
        self.metadata()
            .and_then(|m| m.get(key))
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    }

    /// `(namespace, name)`: the identity of the object across events.
    pub fn key(&self) -> (String, String) {
        (self.meta_str("namespace"), self.meta_str("name"))
    }

    /// `metadata.resourceVersion` (empty when absent).
    pub fn resource_version(&self) -> String {
        self.meta_str("resourceVersion")
    }
}

/// One change to print.
#[derive(Debug, Clone)]
pub struct Event {
    /// What happened.
    pub kind: EventType,
    /// The object (its state after the change; for DELETED, its last state).
    pub item: Item,
}

/// What to watch: built by the verb, sent by [`Watch`].
#[derive(Debug, Clone)]
pub struct WatchRequest {
    /// The collection URL, e.g. `/api/v1/namespaces/ns/configmaps`.
    pub url: String,
    /// Label and field selectors and the list page size (`limit`).
    pub lp: ListParams,
    /// Ask for server-side Tables (table output) instead of objects.
    pub table: bool,
    /// `includeObject=` of Table requests: `Metadata`, or `Object` when rows need whole
    /// objects.
    pub include_object: &'static str,
}

type EventStream = Pin<Box<dyn Stream<Item = Result<WatchEvent<Value>, kube::Error>> + Send>>;

/// A running watch: the objects known so far, the resourceVersion reached, the open stream.
pub struct Watch<'a> {
    session: &'a Session<'a>,
    grant: &'a Grant,
    req: WatchRequest,
    columns: Vec<Column>,
    rv: String,
    known: BTreeMap<(String, String), Item>,
    stream: Option<EventStream>,
    relists: u32,
    /// Set while the server does not answer.
    outage: Option<Outage>,
    /// Changes found by a re-list that ended an outage, returned by the next call.
    pending: Vec<Event>,
}

impl<'a> Watch<'a> {
    /// Lists the collection (paged by `lp.limit`) and returns the watch positioned at the
    /// list's resourceVersion, with the listed objects (printed by the caller unless
    /// `--watch-only`).
    ///
    /// # Errors
    /// The list request's error (a 403 is exit 3, a timeout exit 1).
    pub async fn start(
        session: &'a Session<'a>,
        grant: &'a Grant,
        req: WatchRequest,
    ) -> Result<(Watch<'a>, Vec<Item>), ApiError> {
        let mut w = Watch {
            session,
            grant,
            req,
            columns: Vec::new(),
            rv: String::new(),
            known: BTreeMap::new(),
            stream: None,
            relists: 0,
            outage: None,
            pending: Vec::new(),
        };
        let items = w.list().await?;
        w.known = items.iter().map(|i| (i.key(), i.clone())).collect();
        #[cfg(debug_assertions)]
        if let Some(rv) = std::env::var(START_RV_ENV).ok().filter(|v| !v.is_empty()) {
            w.rv = rv;
        }
        Ok((w, items))
    }

    /// The Table's column definitions (empty for object output, or until the server sent
    /// a Table that has them).
    pub fn columns(&self) -> &[Column] {
        &self.columns
    }

    /// How many times the watch had to re-list after a 410 (for traces and tests).
    pub fn relists(&self) -> u32 {
        self.relists
    }

    /// The next changes, in the server's order; waits as long as it takes (the caller races
    /// it against signals and `--request-timeout`; cancelling it loses nothing). A stream the
    /// server ended is opened again from the last resourceVersion; a 410 re-lists and
    /// returns what changed. A server that does not answer ([`ApiError::is_transient`]) is
    /// [`Progress::Lost`] once, then tried again with backoff until [`Progress::Resumed`].
    ///
    /// # Errors
    /// A request that fails otherwise (403 exit 3, other statuses exit 1), or an ERROR event
    /// that is not transient and not 410.
    pub async fn next(&mut self) -> Result<Progress, ApiError> {
        loop {
            if !self.pending.is_empty() {
                return Ok(Progress::Events(std::mem::take(&mut self.pending)));
            }
            let Some(stream) = self.stream.as_mut() else {
                if let Some(o) = self.outage.as_mut() {
                    tokio::time::sleep(o.next_wait()).await;
                }
                let reopened = match self.open().await {
                    Ok(s) => {
                        self.stream = Some(s);
                        Ok(Vec::new())
                    }
                    Err(e) if e.code() == Some(410) => self.relist().await,
                    Err(e) => Err(e),
                };
                match reopened {
                    Ok(events) => {
                        self.pending = events;
                        if let Some(o) = self.outage.take() {
                            return Ok(Progress::Resumed(o.lasted()));
                        }
                    }
                    Err(e) => {
                        if let Some(lost) = self.failed(e)? {
                            return Ok(lost);
                        }
                    }
                }
                continue;
            };
            let got = match tokio::time::timeout(STALL, stream.next()).await {
                Ok(Some(got)) => got,
                // Ended by the server (timeoutSeconds, or it stopped) or silent too long:
                // open a new one.
                Ok(None) | Err(_) => {
                    self.stream = None;
                    continue;
                }
            };
            let (kind, object) = match got {
                Ok(WatchEvent::Added(o)) => (EventType::Added, o),
                Ok(WatchEvent::Modified(o)) => (EventType::Modified, o),
                Ok(WatchEvent::Deleted(o)) => (EventType::Deleted, o),
                Ok(WatchEvent::Bookmark(b)) => {
                    if !b.metadata.resource_version.is_empty() {
                        self.rv = b.metadata.resource_version;
                    }
                    continue;
                }
                Ok(WatchEvent::Error(status)) => {
                    self.stream = None;
                    let e = ApiError::Server {
                        code: status.code,
                        reason: status.reason,
                        message: status.message,
                    };
                    self.after_stream_error(e).await?;
                    continue;
                }
                Err(e) => {
                    self.stream = None;
                    let e = ApiError::from_kube(e, self.session.server());
                    self.after_stream_error(e).await?;
                    continue;
                }
            };
            let items = self.items_of(object)?;
            let mut events = Vec::with_capacity(items.len());
            for item in items {
                let rv = item.resource_version();
                if !rv.is_empty() {
                    self.rv = rv;
                }
                match kind {
                    EventType::Deleted => {
                        self.known.remove(&item.key());
                    }
                    _ => {
                        // The state already printed (a watch started before the list's
                        // resourceVersion replays it): nothing changed, print nothing.
                        if self.known.get(&item.key()).is_some_and(|k| {
                            !k.resource_version().is_empty()
                                && k.resource_version() == item.resource_version()
                        }) {
                            continue;
                        }
                        self.known.insert(item.key(), item.clone());
                    }
                }
                events.push(Event { kind, item });
            }
            if !events.is_empty() {
                return Ok(Progress::Events(events));
            }
        }
    }

    /// After the open stream failed (it is already dropped): a 410 re-lists (its changes
    /// are returned by the next call; a re-list the server does not answer is left to the
    /// reopen, which reports the outage), a transient failure reopens, anything else ends
    /// the watch.
    async fn after_stream_error(&mut self, e: ApiError) -> Result<(), ApiError> {
        if e.code() == Some(410) {
            match self.relist().await {
                Ok(events) => self.pending = events,
                Err(e) if e.is_transient() => {}
                Err(e) => return Err(e),
            }
            return Ok(());
        }
        if e.is_transient() {
            return Ok(());
        }
        Err(e)
    }

    /// A request of the watch failed: an error that is not transient ends the watch; the
    /// first transient one starts an outage and is returned to be told; later ones are
    /// silent (the next try waits the backoff).
    fn failed(&mut self, e: ApiError) -> Result<Option<Progress>, ApiError> {
        if !e.is_transient() {
            return Err(e);
        }
        if self.outage.is_some() {
            return Ok(None);
        }
        self.outage = Some(Outage::begin());
        Ok(Some(Progress::Lost(e)))
    }

    /// The items of one event's object: the rows of a Table (remembering its columns the
    /// first time), else the object.
    fn items_of(&mut self, mut object: Value) -> Result<Vec<Item>, ApiError> {
        if !self.req.table {
            return Ok(vec![Item::Object(object)]);
        }
        // After the first event the server sends `"columnDefinitions": null` (kubectl then
        // reuses the last columns: cli-runtime `tableprinter.go`).
        if let Some(m) = object.as_object_mut() {
            m.retain(|_, v| !v.is_null());
        }
        let t: Table = serde_json::from_value(object).map_err(|e| self.bad_table(e))?;
        if self.columns.is_empty() && !t.column_definitions.is_empty() {
            self.columns = t.column_definitions;
        }
        Ok(t.rows.into_iter().map(Item::Row).collect())
    }

    /// A Table the server sent that does not decode (a server bug or an API change): exit 1,
    /// never a silently skipped change.
    fn bad_table(&self, e: serde_json::Error) -> ApiError {
        ApiError::Server {
            code: 500,
            reason: "InternalError".into(),
            message: format!(
                "the server's Table for {} could not be read ({e}); run the same get without -o table (e.g. -o name) and report this",
                self.req.url
            ),
        }
    }

    /// Lists anew after a 410 and returns the changes against what was known.
    async fn relist(&mut self) -> Result<Vec<Event>, ApiError> {
        self.relists += 1;
        let listed = self.list().await?;
        let (events, known) = diff(&self.known, listed);
        self.known = known;
        Ok(events)
    }

    /// One full list (all pages); sets the columns and the resourceVersion to start from.
    async fn list(&mut self) -> Result<Vec<Item>, ApiError> {
        let mut lp = self.req.lp.clone();
        let mut items = Vec::new();
        let mut list_rv: Option<String> = None;
        loop {
            let req = self.table_request(
                kube::core::Request::new(&self.req.url)
                    .list(&lp)
                    .map_err(|e| unbuildable(&self.req.url, e))?,
            )?;
            let page: Value = self.session.send(self.grant, req).await?;
            let rv = page
                .pointer("/metadata/resourceVersion")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            let next = page
                .pointer("/metadata/continue")
                .and_then(Value::as_str)
                .filter(|c| !c.is_empty())
                .map(str::to_string);
            if list_rv.is_none() {
                list_rv = Some(rv);
            }
            if self.req.table {
                let t: Table = serde_json::from_value(page).map_err(|e| self.bad_table(e))?;
                if !t.column_definitions.is_empty() {
                    self.columns = t.column_definitions;
                }
                items.extend(t.rows.into_iter().map(Item::Row));
            } else if let Some(Value::Array(a)) = page.get("items") {
                items.extend(a.iter().cloned().map(Item::Object));
            }
            match next {
                Some(c) => lp.continue_token = Some(c),
                None => {
                    // The first page's resourceVersion is the list's snapshot.
                    self.rv = list_rv.unwrap_or_default();
                    return Ok(items);
                }
            }
        }
    }

    /// Adds the Table Accept header and `includeObject` when the output is a table.
    fn table_request(
        &self,
        req: http::Request<Vec<u8>>,
    ) -> Result<http::Request<Vec<u8>>, ApiError> {
        if !self.req.table {
            return Ok(req);
        }
        as_table_request(req, self.req.include_object)
    }

    /// Opens one watch stream from the current resourceVersion; only the answer's headers
    /// are bounded by the call deadline (the stream itself lasts as long as the watch).
    async fn open(&self) -> Result<EventStream, ApiError> {
        let wp = WatchParams {
            label_selector: self.req.lp.label_selector.clone(),
            field_selector: self.req.lp.field_selector.clone(),
            timeout: Some(WATCH_TIMEOUT_SECONDS),
            bookmarks: true,
            ..WatchParams::default()
        };
        let req = self.table_request(
            kube::core::Request::new(&self.req.url)
                .watch(&wp, &self.rv)
                .map_err(|e| unbuildable(&self.req.url, e))?,
        )?;
        let client = self.session.client();
        let stream = self
            .session
            .call("the watch request", client.request_events::<Value>(req))
            .await?;
        Ok(Box::pin(stream))
    }
}

/// A request that could not be built was never sent: the input's fault (exit 2).
fn unbuildable(url: &str, e: kube::core::request::Error) -> ApiError {
    ApiError::Server {
        code: 400,
        reason: "BadRequest".into(),
        message: format!(
            "the watch request for {url} could not be built ({e}) and was not sent; shorten the names or selectors"
        ),
    }
}

/// What changed between the objects `known` and a fresh list (pure): objects not known
/// before are ADDED, known objects whose resourceVersion differs are MODIFIED (unchanged
/// ones print nothing), known objects missing from the list are DELETED with their last
/// known state — listed order first, then deletions in key order. Returns the events and
/// the new known state (the list).
pub fn diff(
    known: &BTreeMap<(String, String), Item>,
    listed: Vec<Item>,
) -> (Vec<Event>, BTreeMap<(String, String), Item>) {
    let mut events = Vec::new();
    let mut now = BTreeMap::new();
    for item in listed {
        let key = item.key();
        match known.get(&key) {
            None => events.push(Event {
                kind: EventType::Added,
                item: item.clone(),
            }),
            Some(old) if old.resource_version() != item.resource_version() => events.push(Event {
                kind: EventType::Modified,
                item: item.clone(),
            }),
            Some(_) => {}
        }
        now.insert(key, item);
    }
    for (key, old) in known {
        if !now.contains_key(key) {
            events.push(Event {
                kind: EventType::Deleted,
                item: old.clone(),
            });
        }
    }
    (events, now)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn obj(name: &str, rv: &str) -> Item {
        Item::Object(json!({"metadata": {"name": name, "namespace": "ns", "resourceVersion": rv}}))
    }

    fn summary(events: &[Event]) -> Vec<(String, String)> {
        events
            .iter()
            .map(|e| (e.kind.as_str().to_string(), e.item.key().1))
            .collect()
    }

    #[test]
    fn a_relist_after_410_prints_only_what_changed_since_the_last_printed_state() {
        let known: BTreeMap<_, _> = [obj("same", "5"), obj("changed", "6"), obj("gone", "7")]
            .into_iter()
            .map(|i| (i.key(), i))
            .collect();
        let (events, now) = diff(
            &known,
            vec![obj("changed", "9"), obj("new", "10"), obj("same", "5")],
        );
        assert_eq!(
            summary(&events),
            [
                ("MODIFIED".to_string(), "changed".to_string()),
                ("ADDED".to_string(), "new".to_string()),
                ("DELETED".to_string(), "gone".to_string()),
            ]
        );
        assert_eq!(events[2].item.resource_version(), "7");
        assert_eq!(
            now.keys().map(|k| k.1.as_str()).collect::<Vec<_>>(),
            ["changed", "new", "same"]
        );
    }

    #[test]
    fn a_relist_with_nothing_changed_prints_nothing() {
        let known: BTreeMap<_, _> = [obj("a", "1")].into_iter().map(|i| (i.key(), i)).collect();
        let (events, _) = diff(&known, vec![obj("a", "1")]);
        assert!(events.is_empty());
    }

    #[test]
    fn table_rows_are_keyed_by_the_metadata_the_server_puts_in_them() {
        let row: Row = serde_json::from_value(json!({
            "cells": ["web", "1"],
            "object": {"metadata": {"name": "web", "namespace": "ns1", "resourceVersion": "42"}}
        }))
        .unwrap();
        let item = Item::Row(row);
        assert_eq!(item.key(), ("ns1".to_string(), "web".to_string()));
        assert_eq!(item.resource_version(), "42");
    }
}
