//! A persistent cache of aggregated discovery, revalidated on every run (docs/performance.md).
//!
//! kubectl keeps discovery in `~/.kube/cache/discovery/<host_port>/` and trusts it for ten
//! minutes, so a CRD registered a moment ago is "not found" until the cache expires or
//! `kubectl api-resources` refreshes it. Here the cache never decides on its own: each run
//! still asks `/api` and `/apis`, with `If-None-Match` carrying the ETag the apiserver sent
//! last time (RFC 9110 §13.1.2). The apiserver answers `304 Not Modified` with no body when
//! nothing changed (k8s.io/apiserver/pkg/endpoints/discovery/aggregated/etag.go), and the
//! new document the moment a CRD is served — never stale, and the body is transferred only
//! when it changed.
//!
//! Files: `<MYOPS_HOME>/cache/discovery/<server key>/{api,apis}.json`, mode 0600 in a 0700
//! directory, written atomically ([`crate::base::fsutil::write_atomic`]). An entry is used only if
//! it is a regular file (not a symbolic link), private to the user, at most
//! [`MAX_ENTRY_BYTES`], valid JSON of the expected shape and recorded for the same server
//! URL; anything else — corrupt, torn, planted, another server's — is ignored (the request
//! goes without `If-None-Match`) and rewritten from the answer.

use std::path::{Path, PathBuf};

use kube::Client;
use kube::core::discovery::v2::{ACCEPT_AGGREGATED_DISCOVERY_V2, APIGroupDiscoveryList};
use kube::core::response::Status;
use serde::{Deserialize, Serialize};

use super::discovery::TypeIndex;

/// Aggregated discovery shared by the sessions of one invocation, per API server URL: a
/// fan-out over contexts ([`crate::fleet`]) with several contexts on one server revalidates
/// and parses the documents once for all of them (discovery is the same for every user of a
/// server: RBAC does not filter it, and the on-disk cache is per server already, as
/// kubectl's is). Each server's index is fetched by the first session that needs it while
/// the others wait for it; a failed fetch is not kept (every waiting session then tries
/// itself, all at once, so one context's bad credentials never become another's error). The
/// caller bounds its whole call — the wait and its own try — by its own deadline
/// (`Session::index`), so a dead server costs each context one timeout, in parallel. Within
/// one process only: every invocation still asks the server ([`fetch`]).
#[derive(Debug, Default)]
pub struct SharedIndex {
    servers: std::sync::Mutex<std::collections::HashMap<String, std::sync::Arc<Slot>>>,
}

/// One server's index and the state of its first fetch.
#[derive(Debug, Default)]
struct Slot {
    index: tokio::sync::OnceCell<std::sync::Arc<TypeIndex>>,
    /// Held by the session making the first fetch; the others wait for it.
    first: tokio::sync::Mutex<()>,
    /// The first fetch failed: every session fetches on its own, at once.
    failed: std::sync::atomic::AtomicBool,
}

impl SharedIndex {
    /// The index of `server`: the one fetched already in this invocation, else `fetch`'s
    /// (kept for the other sessions when it succeeds). Shared, not copied: 40 contexts on two
    /// servers cloned (and dropped) a whole index each — a fifth of a fan-out's client CPU.
    ///
    /// # Errors
    /// `fetch`'s error (not kept).
    pub async fn get_or_fetch<E, F>(
        &self,
        server: &str,
        fetch: F,
    ) -> Result<std::sync::Arc<TypeIndex>, E>
    where
        F: AsyncFnOnce() -> Result<TypeIndex, E>,
    {
        use std::sync::atomic::Ordering;
        let slot = {
            let mut servers = self
                .servers
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            servers.entry(server.to_string()).or_default().clone()
        };
        if let Some(index) = slot.index.get() {
            return Ok(index.clone());
        }
        if !slot.failed.load(Ordering::SeqCst) {
            let first = match slot.first.try_lock() {
                Ok(guard) => Some(guard),
                Err(_) => {
                    // Another session is fetching: wait for its answer once.
                    drop(slot.first.lock().await);
                    None
                }
            };
            if let Some(_first) = first {
                return match fetch().await {
                    Ok(index) => Ok(slot.index.get_or_init(async || index.into()).await.clone()),
                    Err(e) => {
                        slot.failed.store(true, Ordering::SeqCst);
                        Err(e)
                    }
                };
            }
            if let Some(index) = slot.index.get() {
                return Ok(index.clone());
            }
        }
        // The first fetch failed (a server that does not answer, or that session's bad
        // credentials): each session tries on its own and in parallel, so N contexts on a dead
        // server take one timeout, not N timeouts one after another.
        let index = std::sync::Arc::new(fetch().await?);
        let _ = slot.index.set(index.clone());
        Ok(index)
    }
}

/// The largest cache entry read (16 MiB); the `/apis` document of a cluster with a few
/// hundred CRDs is well under 1 MiB.
pub const MAX_ENTRY_BYTES: u64 = 16 << 20;

/// One cached discovery document with the validator the server sent for it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// The API server URL the document came from (an entry of another server is ignored).
    pub server: String,
    /// The `ETag` response header, quotes included, as it is sent back in `If-None-Match`.
    pub etag: String,
    /// The aggregated discovery document.
    pub document: APIGroupDiscoveryList,
}

/// The cache directory of one API server (pure): `<home>/cache/discovery/<key>`, where the
/// key is the URL's host and port with every character that is not ASCII alphanumeric,
/// `.` or `-` replaced by `_` (kubectl's `computeDiscoverCacheDir` turns `127.0.0.1:6443`
/// into `127.0.0.1_6443`), and the URL path (a server behind a path prefix) appended the
/// same way, so two servers never share a directory and no key can leave the cache.
pub fn dir_for(home: &Path, server: &str) -> PathBuf {
    let rest = server
        .split_once("://")
        .map(|(_, r)| r)
        .unwrap_or(server)
        .trim_end_matches('/');
    let key: String = rest
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    // "." and ".." are the only all-dot names that could escape; an underscore keeps them in.
    let key = if key.chars().all(|c| c == '.') {
        format!("_{key}")
    } else {
        key
    };
    home.join("cache").join("discovery").join(key)
}

/// Decodes an entry (pure): `None` for anything that is not a valid entry of `server`.
pub fn decode(bytes: &[u8], server: &str) -> Option<Entry> {
    let e: Entry = serde_json::from_slice(bytes).ok()?;
    (e.server == server && !e.etag.is_empty()).then_some(e)
}

/// Reads the entry at `path` when it may be trusted (see the module docs); `None` otherwise.
fn read_entry(path: &Path, server: &str) -> Option<Entry> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    if !meta.file_type().is_file() {
        return None;
    }
    let (bytes, mode) = crate::base::fsutil::read_regular_with_mode(path, MAX_ENTRY_BYTES).ok()?;
    if mode & 0o077 != 0 {
        return None;
    }
    decode(&bytes, server)
}

/// Fetches one aggregated discovery document (`/api` or `/apis`), revalidating the cached
/// one in `dir` (when given) with `If-None-Match`, and updates the cache when the server
/// sent a new document with an ETag. A cache that cannot be written is only a lost
/// optimisation: the fresh document is returned anyway.
///
/// # Errors
/// The kube error of the request (transport, a non-2xx status as [`kube::Error::Api`], a
/// body that is not a discovery document).
async fn document(
    client: &Client,
    server: &str,
    dir: Option<&Path>,
    endpoint: &str,
) -> Result<APIGroupDiscoveryList, kube::Error> {
    let path = dir.map(|d| d.join(format!("{}.json", endpoint.trim_start_matches('/'))));
    let cached = path.as_deref().and_then(|p| read_entry(p, server));
    let mut req =
        http::Request::get(endpoint).header(http::header::ACCEPT, ACCEPT_AGGREGATED_DISCOVERY_V2);
    if let Some(c) = &cached {
        req = req.header(http::header::IF_NONE_MATCH, &c.etag);
    }
    let req = req
        .body(kube::client::Body::empty())
        .map_err(kube::Error::HttpError)?;
    let res = client.send(req).await?;
    let status = res.status();
    if status == http::StatusCode::NOT_MODIFIED
        && let Some(c) = cached
    {
        return Ok(c.document);
    }
    let etag = res
        .headers()
        .get(http::header::ETAG)
        .and_then(|v| v.to_str().ok())
        .map(String::from);
    let bytes = res.into_body().collect_bytes().await?;
    if !status.is_success() {
        let text = String::from_utf8_lossy(&bytes);
        let st = serde_json::from_str::<Status>(&text).unwrap_or_else(|_| {
            Status::failure(text.trim(), "Failed to parse error data").with_code(status.as_u16())
        });
        return Err(kube::Error::Api(st.boxed()));
    }
    let document: APIGroupDiscoveryList =
        serde_json::from_slice(&bytes).map_err(kube::Error::SerdeError)?;
    if let (Some(path), Some(etag)) = (path, etag) {
        let entry = Entry {
            server: server.to_string(),
            etag,
            document,
        };
        if let Ok(bytes) = serde_json::to_vec(&entry) {
            let _ = crate::base::fsutil::write_atomic(&path, &bytes);
        }
        return Ok(entry.document);
    }
    Ok(document)
}

/// Aggregated discovery (`/api`, then `/apis`, on one connection) through the cache in
/// `dir` (`None`: no cache), as a [`TypeIndex`]. One after the other, not in parallel: sent
/// together, the HTTP/1.1 client opens a second connection and pays a second TLS handshake
/// — measured on this project's machine (fresh client each time, median of 30 interleaved
/// runs; docs/performance.md): 16.9 ms sequential, 23.5 ms in parallel.
///
/// # Errors
/// The kube error of either request.
pub async fn fetch(
    client: &Client,
    server: &str,
    dir: Option<&Path>,
) -> Result<TypeIndex, kube::Error> {
    let core = document(client, server, dir, "/api").await?;
    let groups = document(client, server, dir, "/apis").await?;
    Ok(TypeIndex::from_discovery(core, groups))
}

/// One API group's per-group discovery: `/apis/GROUP`, then `/apis/GROUP/VERSION` for each
/// version it serves, the preferred one first. `None` when the server does not serve the group
/// (404). [`crate::guard::Session::index_for`] asks it for a qualified TYPE that aggregated
/// discovery does not list: the group of a CRD registered a moment ago is served here as soon
/// as the CRD is Established, while aggregated discovery may list it later.
///
/// # Errors
/// The kube error of a request (other than the group's 404).
pub async fn fetch_group(
    client: &Client,
    group: &str,
) -> Result<Option<Vec<k8s_openapi::apimachinery::pkg::apis::meta::v1::APIResourceList>>, kube::Error>
{
    use k8s_openapi::apimachinery::pkg::apis::meta::v1::{APIGroup, APIResourceList};
    let get = |path: String| {
        http::Request::get(path)
            .header(http::header::ACCEPT, "application/json")
            .body(Vec::new())
            .map_err(kube::Error::HttpError)
    };
    let g: APIGroup = match client.request(get(format!("/apis/{group}"))?).await {
        Ok(g) => g,
        Err(kube::Error::Api(s)) if s.code == 404 => return Ok(None),
        Err(e) => return Err(e),
    };
    let preferred = g.preferred_version.map(|v| v.version);
    let mut versions: Vec<String> = g.versions.into_iter().map(|v| v.version).collect();
    if let Some(p) = preferred
        && let Some(i) = versions.iter().position(|v| *v == p)
    {
        let v = versions.remove(i);
        versions.insert(0, v);
    }
    let mut lists = Vec::new();
    for v in versions {
        match client
            .request::<APIResourceList>(get(format!("/apis/{group}/{v}"))?)
            .await
        {
            Ok(l) => lists.push(l),
            Err(kube::Error::Api(s)) if s.code == 404 => {}
            Err(e) => return Err(e),
        }
    }
    Ok(Some(lists))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_gets_a_directory_of_its_own_that_stays_inside_the_cache() {
        let home = Path::new("/h");
        assert_eq!(
            dir_for(home, "https://127.0.0.1:6443"),
            Path::new("/h/cache/discovery/127.0.0.1_6443")
        );
        assert_eq!(
            dir_for(home, "https://example.com/k8s/clusters/c-1/"),
            Path::new("/h/cache/discovery/example.com_k8s_clusters_c-1")
        );
        assert_ne!(dir_for(home, "https://a:1/x"), dir_for(home, "https://a:1"));
        for hostile in [
            "https://..",
            "https://.",
            "https://../../etc",
            "..",
            "https://a/../../b",
        ] {
            let d = dir_for(home, hostile);
            assert_eq!(
                d.parent(),
                Some(Path::new("/h/cache/discovery")),
                "{hostile}"
            );
            let last = d.file_name().unwrap().to_str().unwrap();
            assert!(
                last != "." && last != ".." && !last.contains('/'),
                "{hostile}: {last}"
            );
        }
    }

    #[test]
    fn only_a_valid_entry_of_the_same_server_is_used() {
        let entry = Entry {
            server: "https://a:1".into(),
            etag: "\"abc\"".into(),
            document: serde_json::from_value(serde_json::json!({"items": []})).unwrap(),
        };
        let bytes = serde_json::to_vec(&entry).unwrap();
        assert_eq!(decode(&bytes, "https://a:1"), Some(entry.clone()));
        assert_eq!(decode(&bytes, "https://b:1"), None);
        assert_eq!(decode(&bytes[..bytes.len() / 2], "https://a:1"), None);
        assert_eq!(decode(b"\xff\xfe", "https://a:1"), None);
        assert_eq!(decode(b"{}", "https://a:1"), None);
        let no_etag = Entry {
            etag: String::new(),
            ..entry
        };
        assert_eq!(
            decode(&serde_json::to_vec(&no_etag).unwrap(), "https://a:1"),
            None
        );
    }

    #[tokio::test]
    async fn a_shared_index_is_fetched_once_per_server_and_a_failed_fetch_is_not_kept() {
        let shared = SharedIndex::default();
        let calls = std::cell::Cell::new(0);
        let fetch = async || {
            calls.set(calls.get() + 1);
            Ok::<_, String>(TypeIndex::default())
        };
        // Three sessions on one server at once: one fetch, the others wait for it.
        let (a, b, c) = tokio::join!(
            shared.get_or_fetch("https://one", fetch),
            shared.get_or_fetch("https://one", fetch),
            shared.get_or_fetch("https://one", fetch),
        );
        assert!(a.is_ok() && b.is_ok() && c.is_ok());
        assert_eq!(calls.get(), 1);
        shared.get_or_fetch("https://two", fetch).await.unwrap();
        assert_eq!(calls.get(), 2, "another server fetches its own");
        // A failure (one context's bad credentials) is that session's only.
        let failed = shared
            .get_or_fetch("https://three", async || {
                Err::<TypeIndex, _>("401".to_string())
            })
            .await;
        assert_eq!(failed.unwrap_err(), "401");
        shared.get_or_fetch("https://three", fetch).await.unwrap();
        assert_eq!(calls.get(), 3);
    }
}
