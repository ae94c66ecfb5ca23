//! The cluster mirror's sender (docs/team.md, "The cluster mirror"): every complete record a
//! session keeps goes through [`Session::keep`], which appends it (the journal also queues
//! its line, `changelog::outbox`) and then sends the queue — the one place the guarantee
//! lives, whichever verb made the record.
//!
//! What is sent: queued lines of this session's server whose `user` is the identity this
//! session authenticates as (the API server's view; the ValidatingAdmissionPolicy of
//! `deploy/changelog/` refuses a record claiming another user), oldest first, each as the
//! objects of `changelog::mirror::objects` (parts first, the head last), one create each
//! under the call deadline. An `AlreadyExists` for a name means that record is mirrored
//! already (another process sent it, or an earlier send whose answer was lost) only when the
//! object there is the same copy (`changelog::mirror::same_copy`): another writer can take the
//! name first, and then the line stays queued with a warning naming him — never "mirrored".
//! Sending stops at the first failure, so the order is kept (a taken name does not stop it:
//! it never clears by itself); lines of other servers or users stay queued until a command
//! there sends them.
//!
//! Any failure is one `warning:` line per session saying the record is queued, why and what
//! to do — never a failed command, never another exit code: the record is in the local
//! journal and in the queue, and the next command on this server sends it. The mirror's
//! writes are the tool's own bookkeeping, like its Lease writes: no SelfSubjectAccessReview,
//! not journaled.

use std::sync::Mutex;

use kube::api::{Api, DynamicObject, PostParams};

mod prune;

pub use prune::{PAGE, Pruned};

use super::{GuardError, Session};
use crate::changelog::{ChangelogError, Entry, mirror, outbox};
use crate::cluster::ApiError;

/// How long a session leaves the mirror alone after a failed send: one warning per
/// command, not one per record (a namespace delete keeps hundreds of snapshot records),
/// while a long-running `crds watch` tries again after an outage.
pub const RETRY_AFTER: std::time::Duration = std::time::Duration::from_secs(30);

/// What a session remembers about the mirror: when a send last failed (then it is not
/// tried again for [`RETRY_AFTER`]), and whether records also go to stdout.
#[derive(Debug, Default)]
pub struct Trail {
    stopped: Mutex<Option<std::time::Instant>>,
    stdout: std::sync::atomic::AtomicBool,
}

/// What one send of the queue did.
#[derive(Debug, Default)]
pub struct Flushed {
    /// The head objects created (or found mirrored already), in order.
    pub sent: Vec<String>,
    /// Queue lines left for this server and user (not sent because of `failure`).
    pub left: usize,
    /// Queue lines left for other servers or users.
    pub others: usize,
    /// Why sending stopped, with what to do; `None` when everything of this server was sent.
    pub failure: Option<String>,
    /// The `warning:` line about queue lines that are never sent (torn or edited): one
    /// line however many.
    pub rejected: Vec<String>,
    /// The queue could not be read (then nothing was sent and nothing is counted).
    pub unread: bool,
    /// The `warning:` lines about records whose object name another writer holds with
    /// other content: they stay queued, and an admin must look.
    pub taken: Vec<String>,
}

/// Why one queued line was not mirrored.
enum NotSent {
    /// A failure that stops sending (the server, RBAC, the network), with what to do.
    Failed(String),
    /// The `warning:` line about a name another writer holds with other content.
    Taken(String),
}

impl Session<'_> {
    /// The mirror namespace (plugin.yaml `changelog.mirror.namespace`), when configured.
    pub fn mirror_namespace(&self) -> Option<&str> {
        self.settings()
            .plugin
            .changelog
            .mirror
            .as_ref()
            .map(|m| m.namespace.as_str())
    }

    /// The `ChangeRecord` API of the mirror namespace.
    pub(crate) fn change_records(&self, namespace: &str) -> Api<DynamicObject> {
        Api::namespaced_with(self.client().clone(), namespace, &mirror::api_resource())
    }

    /// Appends complete records — one, or a group in one step — and then sends the mirror
    /// queue ([`Session::mirror_after_append`]). Every complete record of a session is kept
    /// through here. `lost` maps a journal failure (`GuardError::Journal`, or
    /// `GuardError::Unjournaled` after a request was sent).
    ///
    /// # Errors
    /// The journal's failure, mapped by `lost`; the mirror never fails it.
    pub(crate) async fn keep(
        &self,
        records: &[Entry],
        lost: fn(ChangelogError) -> GuardError,
    ) -> Result<(), GuardError> {
        let lines = self.journal()?.append_sealed(records).map_err(lost)?;
        if self
            .trail()
            .stdout
            .load(std::sync::atomic::Ordering::Relaxed)
        {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            for (record, line) in records.iter().zip(&lines) {
                if record.result != crate::changelog::PENDING {
                    let _ = writeln!(out, "{line}");
                }
            }
            let _ = out.flush();
        }
        self.mirror_after_append().await;
        Ok(())
    }

    /// Makes this session also write every complete record it keeps to stdout, one sealed
    /// JSON line each (`crds watch` in a cluster: its MYOPS_HOME is an emptyDir, and the
    /// cluster's log pipeline collects stdout). The caller keeps its own stdout JSON.
    pub fn records_to_stdout(&self, on: bool) {
        self.trail()
            .stdout
            .store(on, std::sync::atomic::Ordering::Relaxed);
    }

    /// Sends the queue after a record was kept, printing one `warning:` line (to stderr)
    /// for a failure — once per session, after which it is not tried again here — and one
    /// per rejected queue line. Does nothing without `changelog.mirror`.
    pub(crate) async fn mirror_after_append(&self) {
        let resting = self
            .trail_stopped()
            .is_some_and(|at| at.elapsed() < RETRY_AFTER);
        if self.mirror_namespace().is_none() || resting {
            return;
        }
        let flushed = self.send_queue(Some(outbox::AUTO_CAP)).await;
        for w in flushed.rejected.iter().chain(&flushed.taken) {
            eprintln!("{}", crate::output::for_terminal(w));
        }
        if !flushed.taken.is_empty() && flushed.failure.is_none() {
            *self.trail_stopped() = Some(std::time::Instant::now());
        }
        if let Some(why) = &flushed.failure {
            *self.trail_stopped() = Some(std::time::Instant::now());
            let count = if flushed.unread {
                String::new()
            } else {
                format!(" ({} queued for this server and user)", flushed.left)
            };
            let line = format!(
                "warning: the change log's record is kept locally and queued for the cluster mirror{count}: {why}"
            );
            eprintln!("{}", crate::output::for_terminal(&line));
        }
    }

    fn trail_stopped(&self) -> std::sync::MutexGuard<'_, Option<std::time::Instant>> {
        self.trail()
            .stopped
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Sends the queued lines of this server and user, oldest first, and settles the queue
    /// (sent lines removed, torn or edited ones moved to `mirror-rejected.jsonl`). A
    /// failure is in [`Flushed::failure`], never an error: the lines stay queued.
    pub async fn push_mirror(&self) -> Flushed {
        self.send_queue(None).await
    }

    /// [`Session::push_mirror`] reading a queue of at most `cap` bytes (`None`: any size).
    async fn send_queue(&self, cap: Option<u64>) -> Flushed {
        let mut out = Flushed::default();
        let Some(ns) = self.mirror_namespace().map(str::to_string) else {
            out.failure = Some("plugin.yaml sets no changelog.mirror.namespace; set it to the namespace that holds the ChangeRecords (docs/team.md)".into());
            return out;
        };
        let home = self.settings().home.clone();
        let (queued, rejected) = match outbox::pending(&home, cap) {
            Ok(q) => q,
            Err(e) => {
                out.unread = true;
                out.failure = Some(e.to_string());
                return out;
            }
        };
        out.rejected = rejected.warning(&home).into_iter().collect();
        let user = if queued.iter().any(|q| q.server == self.server()) {
            self.user().await
        } else {
            String::new()
        };
        let (mine, others): (Vec<_>, Vec<_>) = queued
            .into_iter()
            .partition(|q| q.server == self.server() && q.user == user);
        out.others = others.len();
        let mut sent_lines = Vec::new();
        if !mine.is_empty() {
            match outbox::journal_id(&home) {
                Ok(journal) => {
                    for q in &mine {
                        match self.send_line(&q.line, &journal, &ns).await {
                            Ok(name) => {
                                out.sent.push(name);
                                sent_lines.push(q.line.clone());
                            }
                            Err(NotSent::Taken(warning)) => out.taken.push(warning),
                            Err(NotSent::Failed(why)) => {
                                out.failure = Some(why);
                                break;
                            }
                        }
                    }
                }
                Err(e) => out.failure = Some(e.to_string()),
            }
        }
        out.left = mine.len() - sent_lines.len();
        if (!sent_lines.is_empty() || rejected.count > 0)
            && let Err(e) = outbox::settle(&home, &sent_lines)
        {
            out.failure.get_or_insert(e.to_string());
        }
        out
    }

    /// Creates the objects of one queued line, parts first; `Ok` with the head's name when
    /// every object exists now (created, or there already as the same copy: read back and
    /// compared on `AlreadyExists`).
    async fn send_line(&self, line: &str, journal: &str, ns: &str) -> Result<String, NotSent> {
        let failed = |e: String| NotSent::Failed(e);
        let objects = mirror::objects(line, journal, ns).map_err(|e| failed(e.to_string()))?;
        let api = self.change_records(ns);
        let mut name = String::new();
        for obj in objects {
            name = obj
                .pointer("/metadata/name")
                .and_then(|v| v.as_str())
                .unwrap_or_default()
                .to_string();
            let dynamic: DynamicObject =
                serde_json::from_value(obj.clone()).map_err(|e| failed(e.to_string()))?;
            let created = self
                .call(
                    "the ChangeRecord create",
                    test_fault(api.create(&PostParams::default(), &dynamic)),
                )
                .await;
            match created {
                Ok(_) => {}
                Err(ApiError::Server { code: 409, .. }) => {
                    let there = self
                        .call("the ChangeRecord read", api.get(&name))
                        .await
                        .map_err(|e| failed(why_not_mirrored(&e, ns, self.server())))?;
                    let there = serde_json::to_value(&there).unwrap_or_default();
                    if !mirror::same_copy(&obj, &there) {
                        return Err(NotSent::Taken(name_taken(&name, ns, &there)));
                    }
                }
                Err(e) => return Err(failed(why_not_mirrored(&e, ns, self.server()))),
            }
        }
        Ok(name)
    }
}

/// The warning about a record whose object name `name` another writer holds with other
/// content (pure): the object, who created it (`spec.createdBy`, echoed), that the record
/// stays queued and in the local journal, and that an admin must look.
pub fn name_taken(name: &str, ns: &str, there: &serde_json::Value) -> String {
    let by = there
        .pointer("/spec/createdBy")
        .and_then(|v| v.as_str())
        .unwrap_or("an unknown user");
    format!(
        "warning: ChangeRecord {name} in namespace {ns} already exists with other content, created by {}: the name is taken, so this record could not be mirrored; it stays queued and in the local journal, and an admin must look at that object",
        crate::base::echo::bare(by)
    )
}

/// Why a create of the mirror failed and what to do, as the warning says it (pure): the
/// namespace missing (a 404 naming namespaces), the CRD not installed (any other 404: the
/// resource is not served), the create refused (403: RBAC, or the admission policy), else
/// the error itself; each ends saying when it is sent.
pub fn why_not_mirrored(e: &ApiError, ns: &str, server: &str) -> String {
    let next =
        "the next command on this server sends it, or run `kubectl myops changelog mirror push`";
    match e {
        ApiError::Server {
            code: 404, message, ..
        } if message.contains("namespaces") => format!(
            "the mirror namespace {ns} does not exist on {server}; create it (`kubectl create namespace {ns}`), then {next}"
        ),
        ApiError::Server { code: 404, .. } => format!(
            "the ChangeRecord CRD is not installed on {server}; install deploy/changelog/ (`kubectl apply -f deploy/changelog/`), then {next}"
        ),
        ApiError::Server {
            code: 403, message, ..
        } => format!(
            "the server refused the ChangeRecord ({message}); check that deploy/changelog/ is installed on {server} (RBAC answers before a missing CRD shows), that namespace {ns} exists, and that the ClusterRole myops-changerecord-writer is bound to this user in namespace {ns} (deploy/changelog/rbac.yaml), then {next}"
        ),
        other => format!("{other}; {next}"),
    }
}

/// The mirror's create, or — in debug builds with `MYOPS_TEST_MIRROR=down` — a request that
/// never reaches the server (a refused connection), so a test can take the API server away
/// from the mirror alone while the change itself is made. A release never contains it.
#[cfg(debug_assertions)]
async fn test_fault<T>(
    call: impl std::future::Future<Output = Result<T, kube::Error>>,
) -> Result<T, kube::Error> {
    if std::env::var("MYOPS_TEST_MIRROR").ok().as_deref() == Some("down") {
        return Err(kube::Error::Service(
            std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "connection refused").into(),
        ));
    }
    call.await
}

/// The mirror's create (release builds have no test seam).
#[cfg(not(debug_assertions))]
async fn test_fault<T>(
    call: impl std::future::Future<Output = Result<T, kube::Error>>,
) -> Result<T, kube::Error> {
    call.await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn server(code: u16, message: &str) -> ApiError {
        ApiError::Server {
            code,
            reason: "x".into(),
            message: message.into(),
        }
    }

    #[test]
    fn each_failure_says_why_and_what_to_do() {
        let s = "https://k:6443";
        let w = why_not_mirrored(&server(404, "namespaces \"trail\" not found"), "trail", s);
        assert!(w.starts_with("the mirror namespace trail does not exist on https://k:6443; create it (`kubectl create namespace trail`)"), "{w}");
        let w = why_not_mirrored(
            &server(404, "the server could not find the requested resource"),
            "trail",
            s,
        );
        assert!(
            w.starts_with(
                "the ChangeRecord CRD is not installed on https://k:6443; install deploy/changelog/"
            ),
            "{w}"
        );
        let w = why_not_mirrored(&server(403, "forbidden"), "trail", s);
        assert!(
            w.contains(
                "check that deploy/changelog/ is installed on https://k:6443 (RBAC answers before a missing CRD shows), that namespace trail exists, and that the ClusterRole myops-changerecord-writer is bound to this user in namespace trail"
            ),
            "{w}"
        );
        let t = ApiError::Timeout {
            server: s.into(),
            what: "the ChangeRecord create".into(),
            after: std::time::Duration::from_secs(32),
        };
        let w = why_not_mirrored(&t, "trail", s);
        assert!(
            w.starts_with(
                "the API server https://k:6443 did not answer the ChangeRecord create within"
            ),
            "{w}"
        );
        assert!(
            w.ends_with("or run `kubectl myops changelog mirror push`"),
            "{w}"
        );
    }
}
