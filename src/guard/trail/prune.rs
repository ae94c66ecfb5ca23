//! `changelog mirror prune`: the mirror's retention, for admins. Users may only create
//! ChangeRecords (append-only RBAC, `deploy/changelog/rbac.yaml`); deleting needs the
//! ClusterRole `myops-changerecord-admin`, and the server's 403 says so (exit 3). The local
//! change logs are never touched: they keep every record.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use kube::api::{DeleteParams, ListParams};

use super::super::{GuardError, Session};
use crate::changelog::mirror::LABEL_PART_OF;
use crate::cluster::ApiError;

/// How many objects one list request asks for (the API server's paging: `limit` and
/// `continue`), so memory stays bounded by names, never by records.
pub const PAGE: u32 = 500;

/// What a prune deleted (or, as a dry run, would delete).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Pruned {
    /// The head objects deleted, oldest listing order.
    pub records: Vec<String>,
    /// How many part objects were deleted with them (or left behind by a head gone before).
    pub parts: usize,
}

/// One listed object, reduced to what a prune needs.
struct Listed {
    name: String,
    old: bool,
    part_of: Option<String>,
}

impl Session<'_> {
    /// Deletes the mirror's records created more than `older_than` ago — each head first (a
    /// reader never finds a head without its parts), then its parts — and parts older than
    /// that whose head is gone. Listed in pages of [`PAGE`]. With `dry_run`, every delete is
    /// a server-side dry run (`dryRun=All`): nothing is deleted.
    ///
    /// # Errors
    /// [`GuardError::Usage`] without `changelog.mirror`; a SelfSubjectAccessReview that says
    /// no to `delete` of ChangeRecords in the namespace, naming the ClusterRole that allows
    /// it (exit 3, nothing listed or deleted); the list's or a delete's [`ApiError`] (a 403
    /// names the ClusterRole too).
    pub async fn prune_mirror(
        &self,
        older_than: Duration,
        dry_run: bool,
    ) -> Result<Pruned, GuardError> {
        let ns = self.mirror_namespace().map(str::to_string).ok_or_else(|| {
            GuardError::Usage(
                "plugin.yaml sets no changelog.mirror.namespace, so there is no mirror to prune; set it (docs/team.md)".into(),
            )
        })?;
        // Asked before anything is listed, so a user who may not prune hears so even when
        // nothing is old enough to delete.
        let req = crate::guard::authz::AccessRequest {
            verb: "delete".into(),
            group: crate::changelog::mirror::GROUP.into(),
            resource: crate::changelog::mirror::PLURAL.into(),
            subresource: None,
            namespace: Some(ns.clone()),
            name: None,
        };
        if let Err(reason) = self.decide(&req).await? {
            let reason = format!(
                "{}; pruning the mirror needs the ClusterRole myops-changerecord-admin bound in this namespace (deploy/changelog/rbac.yaml)",
                if reason.is_empty() {
                    "no RBAC rule allows it"
                } else {
                    &reason
                }
            );
            return Err(self.denial(&req, reason).await.into());
        }
        let cutoff = jiff::Timestamp::now()
            .checked_sub(jiff::SignedDuration::try_from(older_than).unwrap_or_default())
            .unwrap_or(jiff::Timestamp::MIN);
        let listed = self.list_records(&ns, cutoff).await?;
        let heads: HashSet<&str> = listed
            .iter()
            .filter(|l| l.part_of.is_none())
            .map(|l| l.name.as_str())
            .collect();
        let mut parts_of: HashMap<&str, Vec<&str>> = HashMap::new();
        for l in &listed {
            if let Some(h) = &l.part_of {
                parts_of.entry(h.as_str()).or_default().push(&l.name);
            }
        }
        let api = self.change_records(&ns);
        let dp = DeleteParams {
            dry_run,
            ..DeleteParams::default()
        };
        let mut out = Pruned::default();
        let delete = async |name: &str| -> Result<(), GuardError> {
            match self
                .call("the ChangeRecord delete", api.delete(name, &dp))
                .await
            {
                Ok(_) | Err(ApiError::Server { code: 404, .. }) => Ok(()),
                Err(e) => Err(admin_needed(e, &ns).into()),
            }
        };
        for l in listed.iter().filter(|l| l.old && l.part_of.is_none()) {
            delete(&l.name).await?;
            out.records.push(l.name.clone());
            for part in parts_of.get(l.name.as_str()).into_iter().flatten() {
                delete(part).await?;
                out.parts += 1;
            }
        }
        for l in &listed {
            if l.old
                && let Some(h) = &l.part_of
                && !heads.contains(h.as_str())
            {
                delete(&l.name).await?;
                out.parts += 1;
            }
        }
        Ok(out)
    }

    /// Every ChangeRecord of `ns`, paged, reduced to its name, whether it was created
    /// before `cutoff`, and the head it is a part of.
    async fn list_records(
        &self,
        ns: &str,
        cutoff: jiff::Timestamp,
    ) -> Result<Vec<Listed>, GuardError> {
        let api = self.change_records(ns);
        let mut out = Vec::new();
        let mut token: Option<String> = None;
        loop {
            let mut lp = ListParams::default().limit(PAGE);
            if let Some(t) = &token {
                lp = lp.continue_token(t);
            }
            let page = self
                .call("the ChangeRecord list", api.list_metadata(&lp))
                .await
                .map_err(|e| admin_needed(e, ns))?;
            for o in page.items {
                let created = o
                    .metadata
                    .creation_timestamp
                    .as_ref()
                    .map(|t| t.0)
                    .unwrap_or(jiff::Timestamp::MAX);
                let labels = o.metadata.labels.unwrap_or_default();
                out.push(Listed {
                    name: o.metadata.name.unwrap_or_default(),
                    old: created < cutoff,
                    part_of: labels.get(LABEL_PART_OF).cloned(),
                });
            }
            token = page.metadata.continue_.filter(|t| !t.is_empty());
            if token.is_none() {
                return Ok(out);
            }
        }
    }
}

/// A 403 (or a 404 of the resource) said with what to do: the ClusterRole that allows a
/// prune, or the CRD to install.
fn admin_needed(e: ApiError, ns: &str) -> ApiError {
    match e {
        ApiError::Server {
            code: 403,
            reason,
            message,
        } => ApiError::Server {
            code: 403,
            reason,
            message: format!(
                "{message}; pruning the mirror needs the ClusterRole myops-changerecord-admin bound in namespace {ns} (deploy/changelog/rbac.yaml)"
            ),
        },
        other => other,
    }
}
