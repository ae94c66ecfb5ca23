//! The cluster mirror's reader: `ChangeRecord`s of plugin.yaml `changelog.mirror.namespace`
//! listed page by page and read back into records ([`crate::changelog::mirror::read_back`]),
//! for the team's view (`changelog list --from-cluster`, a teammate's entry in `changelog
//! show|diff` and `rollback`, `drift`) and `changelog verify --against-cluster`.
//!
//! Paged and bounded: one list request asks for at most [`PAGE`] heads
//! (`labelSelector=myops.io/role=record`, `limit`, `continue`, as `kubectl get --chunk-size`
//! does), each page is handed to the caller record by record and dropped before the next is
//! asked for, so memory holds one page plus what the caller keeps (a summary per entry, or a
//! hash). A split record's parts are listed only for that head (`myops.io/part-of=NAME`).
//!
//! The gate: the mirror is the tool's own data, like its leader-election Leases
//! ([`super::lease`]), not objects a user asked to read, so plugin.yaml `resources`/`verbs`
//! (which bound what the tool does *for* the user) do not apply to it; RBAC decides, and its
//! refusal is answered as one typed sentence ([`MirrorError::Denied`], exit 3) naming the
//! ClusterRole to bind. No SelfSubjectAccessReview is asked first: the list itself is the
//! question, and a refused list changes nothing.

use kube::Api;
use kube::api::{ApiResource, DynamicObject, ListParams};
use serde_json::Value;

use super::deadline::bounded;
use super::session::Session;
use crate::changelog::mirror::{self, MirrorFormatError, Mirrored};
use crate::cluster::ApiError;
use crate::exit::ExitStatus;

/// How many heads one list request asks for (`limit`): kubectl's `--chunk-size` default.
pub const PAGE: u32 = 500;

/// Why the mirror cannot be read, each one sentence saying what to do.
#[derive(Debug, thiserror::Error)]
pub enum MirrorError {
    /// plugin.yaml has no `changelog.mirror`.
    #[error(
        "the cluster mirror is not configured: set changelog.mirror.namespace in plugin.yaml (`kubectl myops config validate` names the file in use) and install deploy/changelog on the cluster (docs/team.md)"
    )]
    NotConfigured,
    /// The mirror namespace does not exist.
    #[error(
        "the mirror namespace {0} does not exist on this cluster; create it (kubectl create namespace {0}) or fix changelog.mirror.namespace in plugin.yaml"
    )]
    NamespaceMissing(String),
    /// The server does not serve `changerecords.myops.io` (404 on the resource).
    #[error(
        "the ChangeRecord resource (changerecords.myops.io) is not installed on this cluster; an admin installs it with kubectl apply -f deploy/changelog/"
    )]
    NotInstalled,
    /// RBAC refused the list (403).
    #[error(
        "{user} may not list changerecords.myops.io in namespace {namespace}; ask an admin to bind the ClusterRole myops-changerecord-writer there (deploy/changelog/rbac.yaml)"
    )]
    Denied {
        /// The user as the server named it (or `you`).
        user: String,
        /// The mirror namespace.
        namespace: String,
    },
    /// Any other failure of a request (transport, timeout, server error).
    #[error(transparent)]
    Api(#[from] ApiError),
}

impl MirrorError {
    /// The documented exit code: not configured is a usage error (2), denied 3, the rest 1.
    pub fn exit_status(&self) -> ExitStatus {
        match self {
            MirrorError::NotConfigured => ExitStatus::Usage,
            MirrorError::Denied { .. } => ExitStatus::Denied,
            MirrorError::Api(e) => e.exit_status(),
            MirrorError::NamespaceMissing(_) | MirrorError::NotInstalled => ExitStatus::Failure,
        }
    }
}

/// Which heads to list: every record, one entry id's or one journal's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Which {
    /// Every record of the namespace.
    All,
    /// The records of one entry id (`myops.io/entry`).
    Entry(String),
    /// The records of one workstation journal (`myops.io/journal`).
    Journal(String),
}

impl Which {
    /// The label selector (pure): the role always, and the entry or journal label.
    pub fn selector(&self) -> String {
        let role = format!("{}=record", mirror::LABEL_ROLE);
        match self {
            Which::All => role,
            Which::Entry(id) => {
                format!("{role},{}={}", mirror::LABEL_ENTRY, mirror::label_value(id))
            }
            Which::Journal(j) => format!(
                "{role},{}={}",
                mirror::LABEL_JOURNAL,
                mirror::label_value(j)
            ),
        }
    }
}

/// The mirror of one cluster, read through a session's client.
pub struct MirrorReader<'a> {
    session: &'a Session<'a>,
    api: Api<DynamicObject>,
    namespace: String,
    /// How many list requests were sent (heads and parts), for the caller's summary.
    pub requests: usize,
}

/// The API resource of `changerecords.myops.io/v1` (pure).
pub fn resource() -> ApiResource {
    mirror::api_resource()
}

impl<'a> MirrorReader<'a> {
    /// The reader of the session's cluster, for plugin.yaml `changelog.mirror`.
    ///
    /// # Errors
    /// [`MirrorError::NotConfigured`] when plugin.yaml has no mirror.
    pub fn new(session: &'a Session<'a>) -> Result<MirrorReader<'a>, MirrorError> {
        let namespace = session
            .settings()
            .plugin
            .changelog
            .mirror
            .as_ref()
            .map(|m| m.namespace.clone())
            .ok_or(MirrorError::NotConfigured)?;
        Ok(MirrorReader {
            session,
            api: Api::namespaced_with(session.client().clone(), &namespace, &resource()),
            namespace,
            requests: 0,
        })
    }

    /// The mirror namespace.
    pub fn namespace(&self) -> &str {
        &self.namespace
    }

    /// Lists the heads `which` selects, page by page ([`PAGE`] a request), and hands each
    /// one, read back, to `each` (a split head with its parts); an object that cannot be
    /// read back at all is handed over as its [`MirrorFormatError`]. Returns how many heads
    /// were seen. `each` returning `false` stops the listing.
    ///
    /// # Errors
    /// [`MirrorError`]: the CRD not installed, the list denied, the namespace missing (found
    /// when nothing was listed), or a failed request.
    pub async fn each(
        &mut self,
        which: &Which,
        mut each: impl FnMut(Result<Mirrored, MirrorFormatError>) -> bool,
    ) -> Result<usize, MirrorError> {
        let selector = which.selector();
        let mut token: Option<String> = None;
        let mut seen = 0;
        loop {
            let mut lp = ListParams::default().labels(&selector).limit(PAGE);
            if let Some(t) = &token {
                lp = lp.continue_token(t);
            }
            let page = self.list(&lp).await?;
            token = page.metadata.continue_.clone().filter(|t| !t.is_empty());
            for obj in page.items {
                seen += 1;
                let head = serde_json::to_value(&obj).unwrap_or(Value::Null);
                drop(obj);
                let parts = if head.pointer("/spec/parts").is_some() {
                    self.parts(&head).await?
                } else {
                    Vec::new()
                };
                if !each(mirror::read_back(&head, &parts)) {
                    return Ok(seen);
                }
            }
            if token.is_none() {
                break;
            }
        }
        if seen == 0 {
            self.check_namespace().await?;
        }
        Ok(seen)
    }

    /// The complete record of entry `id` that takes precedence ([`precedence`]: one without
    /// problems first, then the latest):
    /// `None` when the mirror holds none. Objects that cannot be read back are skipped.
    ///
    /// # Errors
    /// As [`MirrorReader::each`].
    pub async fn entry(&mut self, id: &str) -> Result<Option<Mirrored>, MirrorError> {
        let mut best: Option<Mirrored> = None;
        // Who else holds a record of this id: an id is one workstation's, so records of it
        // by several creators or journals are a conflict, never settled by a claimed time
        // (the hostile review's teammate who took over another's entry id).
        let mut holders: Vec<(String, String, String)> = Vec::new();
        self.each(&Which::Entry(id.to_string()), |m| {
            if let Ok(m) = m.filter_id(id) {
                if m.problems.is_empty() {
                    holders.push((
                        m.name.clone(),
                        m.created_by.clone(),
                        m.chain.journal.clone(),
                    ));
                }
                let later = best.as_ref().is_none_or(|b| {
                    mirror::precedence(&m.problems, &m.entry.timestamp, m.created.as_deref())
                        >= mirror::precedence(&b.problems, &b.entry.timestamp, b.created.as_deref())
                });
                if later {
                    best = Some(m);
                }
            }
            true
        })
        .await?;
        if let Some(b) = best.as_mut() {
            for (name, by, journal) in &holders {
                if *by != b.created_by || *journal != b.chain.journal {
                    b.problems.push(format!(
                        "entry id {} is also held by changerecord {name} (created by {}, journal {}): the mirror cannot tell which is the change",
                        crate::base::echo::capped(id, 64),
                        crate::base::echo::capped(by, 200),
                        crate::base::echo::capped(journal, 64)
                    ));
                }
            }
        }
        Ok(best)
    }

    /// One list request, its errors typed.
    async fn list(
        &mut self,
        lp: &ListParams,
    ) -> Result<kube::api::ObjectList<DynamicObject>, MirrorError> {
        self.requests += 1;
        let got = bounded(
            self.session.server(),
            "the list of the cluster mirror",
            self.session.call_deadline(),
            self.api.list(lp),
        )
        .await;
        match got {
            Ok(l) => Ok(l),
            Err(ApiError::Server { code: 404, .. }) => Err(MirrorError::NotInstalled),
            Err(ApiError::Server { code: 403, .. }) => Err(MirrorError::Denied {
                user: self.session.user().await,
                namespace: self.namespace.clone(),
            }),
            Err(e) => Err(e.into()),
        }
    }

    /// The parts of a split head, listed by `myops.io/part-of` (paged as well).
    async fn parts(&mut self, head: &Value) -> Result<Vec<Value>, MirrorError> {
        let name = head
            .pointer("/metadata/name")
            .and_then(Value::as_str)
            .unwrap_or("");
        let selector = format!("{}={}", mirror::LABEL_PART_OF, mirror::label_value(name));
        let mut out = Vec::new();
        let mut token: Option<String> = None;
        loop {
            let mut lp = ListParams::default().labels(&selector).limit(PAGE);
            if let Some(t) = &token {
                lp = lp.continue_token(t);
            }
            let page = self.list(&lp).await?;
            token = page.metadata.continue_.clone().filter(|t| !t.is_empty());
            out.extend(
                page.items
                    .iter()
                    .filter_map(|o| serde_json::to_value(o).ok())
                    .filter(mirror::is_part),
            );
            if token.is_none() {
                return Ok(out);
            }
        }
    }

    /// After an empty listing: whether the namespace exists (a list in a missing namespace
    /// answers an empty list). A namespace the user may not read is taken to exist.
    async fn check_namespace(&self) -> Result<(), MirrorError> {
        let api: Api<k8s_openapi::api::core::v1::Namespace> =
            Api::all(self.session.client().clone());
        let got = bounded(
            self.session.server(),
            "the read of the mirror namespace",
            self.session.call_deadline(),
            api.get_opt(&self.namespace),
        )
        .await;
        match got {
            Ok(None) => Err(MirrorError::NamespaceMissing(self.namespace.clone())),
            Ok(Some(_)) | Err(ApiError::Server { code: 403, .. }) => Ok(()),
            Err(e) => Err(e.into()),
        }
    }
}

/// Keeps only a record whose entry id is exactly `id` (a label value is a reduced id).
trait FilterId: Sized {
    fn filter_id(self, id: &str) -> Result<Mirrored, ()>;
}

impl FilterId for Result<Mirrored, MirrorFormatError> {
    fn filter_id(self, id: &str) -> Result<Mirrored, ()> {
        match self {
            Ok(m) if m.entry.id == id => Ok(m),
            _ => Err(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_selector_lists_heads_only_with_the_entry_or_journal_label() {
        assert_eq!(Which::All.selector(), "myops.io/role=record");
        assert_eq!(
            Which::Entry("1a2b-3".into()).selector(),
            "myops.io/role=record,myops.io/entry=1a2b-3"
        );
        assert_eq!(
            Which::Journal("j1".into()).selector(),
            "myops.io/role=record,myops.io/journal=j1"
        );
    }
}
