//! What goes with a namespace or a CRD when it is deleted: the objects in the namespace (every
//! namespaced type discovery lists, those the caller may list) or the custom resources of the
//! CRD, journaled first as snapshot records so that undelete can create them again, bounded
//! by plugin.yaml `changelog.snapshotLimit`.

use kube::api::{Api, DynamicObject, ListParams};
use serde_json::Value;

use crate::changelog::{self, Operation};
use crate::cluster::{ApiError, ResolvedType};
use crate::guard::authz::AccessRequest;
use crate::guard::{GuardError, Session};

/// The objects that go with a container, as listed.
#[derive(Debug, Clone, Default)]
pub struct Contents {
    /// The objects (apiVersion and kind set), per type in discovery order.
    pub objects: Vec<Value>,
    /// Types the caller may not list (`plural.group`): not listable, not journaled.
    pub not_listable: Vec<String>,
    /// Events found and left out of the snapshots (core and events.k8s.io).
    pub events: usize,
}

impl Contents {
    /// The serialized size of the snapshots, in bytes (what `snapshotLimit` bounds).
    pub fn size(&self) -> u64 {
        self.objects
            .iter()
            .map(|o| serde_json::to_vec(o).map_or(0, |v| v.len() as u64))
            .sum()
    }

    /// How many objects of each `kind.group` (in first-seen order).
    pub fn counts(&self) -> Vec<(String, usize)> {
        let mut out: Vec<(String, usize)> = Vec::new();
        for o in &self.objects {
            let kind = o.get("kind").and_then(Value::as_str).unwrap_or("");
            let group = o
                .get("apiVersion")
                .and_then(Value::as_str)
                .and_then(|a| a.split_once('/').map(|(g, _)| g))
                .unwrap_or("");
            let key = if group.is_empty() {
                kind.to_lowercase()
            } else {
                format!("{}.{group}", kind.to_lowercase())
            };
            match out.iter_mut().find(|(k, _)| *k == key) {
                Some((_, n)) => *n += 1,
                None => out.push((key, 1)),
            }
        }
        out
    }
}

/// Above this many namespaces, [`Session::objects_in`] lists each type in every namespace at
/// once rather than namespace by namespace.
pub const PER_NAMESPACE: usize = 4;

/// Whether a type is an Event (core or events.k8s.io): not snapshotted.
fn is_event(t: &ResolvedType) -> bool {
    t.api.kind == "Event" && (t.api.group.is_empty() || t.api.group == "events.k8s.io")
}

impl Session<'_> {
    /// Lists `t` in `namespace` (every namespace when `None`), with apiVersion and kind set
    /// on each item (list items lack them). `Ok(None)` when a `list` review says no or the
    /// server answers 403; no objects when it answers 404 (the type is gone).
    async fn list_all(
        &self,
        t: &ResolvedType,
        namespace: Option<&str>,
    ) -> Result<Option<Vec<Value>>, GuardError> {
        let review = AccessRequest {
            verb: "list".into(),
            group: t.api.group.clone(),
            resource: t.api.plural.clone(),
            subresource: None,
            namespace: namespace.map(str::to_string),
            name: None,
        };
        if self.decide(&review).await?.is_err() {
            return Ok(None);
        }
        let api: Api<DynamicObject> = match namespace {
            Some(ns) => Api::namespaced_with(self.client().clone(), ns, &t.api),
            None => Api::all_with(self.client().clone(), &t.api),
        };
        match self
            .call("the list of the contents", api.list(&ListParams::default()))
            .await
        {
            Ok(list) => Ok(Some(
                list.items
                    .into_iter()
                    .filter_map(|o| {
                        let mut v = serde_json::to_value(o).ok()?;
                        v["apiVersion"] = Value::from(t.api.api_version.clone());
                        v["kind"] = Value::from(t.api.kind.clone());
                        crate::base::redact::remember_secret_values(&t.api.kind, &v);
                        Some(v)
                    })
                    .collect(),
            )),
            Err(ApiError::Server { code: 403, .. }) => Ok(None),
            // The type went away after discovery listed it (its CRD was deleted): the server
            // serves no objects of it any more, so there are none to journal or preview.
            Err(ApiError::Server { code: 404, .. }) => Ok(Some(Vec::new())),
            Err(e) => Err(e.into()),
        }
    }

    /// The objects in namespace `ns`: every namespaced type of discovery's preferred
    /// versions that can be listed and deleted, Events counted and left out.
    ///
    /// # Errors
    /// Discovery or a list that fails otherwise than with 403.
    pub async fn contents_of_namespace(&self, ns: &str) -> Result<Contents, GuardError> {
        self.contents_in(Some(ns)).await
    }

    /// The objects that may own or be owned by objects of `namespaces` (for the dependents a
    /// delete takes with it, [`super::dependents`]): [`Session::contents_of_namespace`] of each,
    /// or — above [`PER_NAMESPACE`] namespaces — of every namespace at once (one list per
    /// type instead of one per type and namespace). Types the caller may not list are left
    /// out, as the contents lister leaves them.
    ///
    /// # Errors
    /// Discovery or a list that fails otherwise than with 403.
    pub async fn objects_in(&self, namespaces: &[String]) -> Result<Vec<Value>, GuardError> {
        if namespaces.len() > PER_NAMESPACE {
            return Ok(self.contents_in(None).await?.objects);
        }
        let mut out = Vec::new();
        for ns in namespaces {
            out.extend(self.contents_in(Some(ns)).await?.objects);
        }
        Ok(out)
    }

    /// [`Session::contents_of_namespace`] of `ns`, or of every namespace when `None`.
    async fn contents_in(&self, ns: Option<&str>) -> Result<Contents, GuardError> {
        let types: Vec<ResolvedType> = self
            .index()
            .await?
            .types()
            .iter()
            .filter(|t| t.namespaced && t.preferred)
            .filter(|t| {
                t.verbs.iter().any(|v| v == "list") && t.verbs.iter().any(|v| v == "delete")
            })
            .cloned()
            .collect();
        let mut out = Contents::default();
        for t in types {
            match self.list_all(&t, ns).await? {
                None => out.not_listable.push(t.group_resource()),
                Some(items) if is_event(&t) => out.events += items.len(),
                Some(items) => out.objects.extend(items),
            }
        }
        Ok(out)
    }

    /// The custom resources of the CRD `crd` (its before-state), in every namespace, of its
    /// storage version.
    ///
    /// # Errors
    /// A list that fails otherwise than with 403.
    pub async fn contents_of_crd(&self, crd: &Value) -> Result<Contents, GuardError> {
        let group = crd
            .pointer("/spec/group")
            .and_then(Value::as_str)
            .unwrap_or("");
        let plural = crd
            .pointer("/spec/names/plural")
            .and_then(Value::as_str)
            .unwrap_or("");
        let mut out = Contents::default();
        let Ok(t) = self.resolve(&format!("{plural}.{group}")).await else {
            return Ok(out); // not served (no version served): nothing to list
        };
        match self.list_all(&t, None).await? {
            None => out.not_listable.push(t.group_resource()),
            Some(items) => out.objects = items,
        }
        Ok(out)
    }

    /// Journals each object of `contents` as one complete snapshot record whose parent is
    /// `parent` (the container's delete entry id): operation `delete`, patchType `delete`, no
    /// patch, result [`changelog::SNAPSHOT`].
    ///
    /// # Errors
    /// [`GuardError::Journal`] (then nothing was sent).
    pub async fn journal_snapshots(
        &self,
        parent: &str,
        contents: &Contents,
        dry_run: bool,
    ) -> Result<(), GuardError> {
        for o in &contents.objects {
            let meta = |k: &str| {
                o.pointer(&format!("/metadata/{k}"))
                    .and_then(Value::as_str)
                    .map(str::to_string)
            };
            let api_version = o.get("apiVersion").and_then(Value::as_str).unwrap_or("");
            let kind = o.get("kind").and_then(Value::as_str).unwrap_or("");
            let name = meta("name").unwrap_or_default();
            let ns = meta("namespace");
            let mut e = self
                .intent(crate::guard::change::Intent {
                    operation: Operation::Delete,
                    api_version,
                    kind,
                    namespace: ns.as_deref(),
                    name: &name,
                    patch_type: Some(crate::guard::change::DELETE),
                    patch: None,
                    dry_run,
                    before: Some(o.clone()),
                })
                .await;
            e.parent = Some(parent.to_string());
            self.journal_complete(e, changelog::SNAPSHOT.to_string())
                .await?;
        }
        Ok(())
    }
}
