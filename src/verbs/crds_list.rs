//! `crds list`: the CRD directory and the cluster side by side — which file defines which
//! CRD, its versions, whether the cluster has it Established, and whether this tool manages it.
//! Listing the cluster's CRDs goes through the guarded path like any `get`: the plugin.yaml
//! boundary (`get` on customresourcedefinitions at cluster scope) and a SelfSubjectAccessReview.

use std::collections::BTreeMap;

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::ListParams;
use kube::core::ObjectList;

use crate::cli::CrdsListArgs;
use crate::config::Verb;
use crate::crds::load_dir;
use crate::guard::authz::AccessRequest;
use crate::guard::{FIELD_MANAGER, Session, crd_type};
use crate::output::Printer;
use crate::output::table::OwnTable;
use crate::settings::Settings;
use crate::verbs::VerbError;

/// One row of the listing (pure data, built by [`rows`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// The file (`-` for CRDs only on the cluster, `file: error` for bad files).
    pub file: String,
    /// CRD name.
    pub name: String,
    /// Served versions (from the file, else the cluster).
    pub versions: String,
    /// `True`/`False` from the cluster's Established condition, `-` when absent.
    pub established: String,
    /// `yes` when the field manager `kubectl-myops` manages it on the cluster.
    pub managed: String,
}

/// A file name and its CRDs as (name, versions), or the error location.
pub type FileCrds = (String, Result<Vec<(String, String)>, String>);

/// What the cluster has, per CRD name: (versions, Established, managed by us).
pub type ClusterCrds = BTreeMap<String, (String, String, bool)>;

/// Builds the rows (pure): every CRD of every file, then CRDs this tool manages that no
/// file defines any more.
pub fn rows(files: &[FileCrds], cluster: &ClusterCrds) -> Vec<Row> {
    let mut out = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for (file, r) in files {
        match r {
            Err(e) => out.push(Row {
                file: file.clone(),
                name: format!("<invalid: {e}>"),
                versions: "-".into(),
                established: "-".into(),
                managed: "-".into(),
            }),
            Ok(crds) => {
                for (name, versions) in crds {
                    seen.insert(name.clone());
                    let on = cluster.get(name);
                    out.push(Row {
                        file: file.clone(),
                        name: name.clone(),
                        versions: versions.clone(),
                        established: on.map(|c| c.1.clone()).unwrap_or_else(|| "-".into()),
                        managed: on
                            .map(|c| if c.2 { "yes" } else { "no" })
                            .unwrap_or("-")
                            .into(),
                    });
                }
            }
        }
    }
    for (name, (versions, established, ours)) in cluster {
        if *ours && !seen.contains(name) {
            out.push(Row {
                file: "-".into(),
                name: name.clone(),
                versions: versions.clone(),
                established: established.clone(),
                managed: "yes".into(),
            });
        }
    }
    out
}

/// Runs `crds list`. A file that cannot be loaded (invalid YAML, not a CRD, or not a regular
/// file at all: a FIFO, a directory named `x.yaml`, a dangling link — none of them is opened
/// in a way that can block) is a row `<invalid: line:column>` and one `warning:` line on
/// stderr saying what is wrong; the listing still succeeds.
///
/// # Errors
/// [`VerbError`] when the directory cannot be read or the cluster cannot be listed.
pub async fn run(s: &Settings, args: &CrdsListArgs, p: &mut Printer<'_>) -> Result<(), VerbError> {
    let dir = s.crd_dir(args.dir.as_deref());
    if args.dir.is_some() && !dir.is_dir() {
        let what = if dir.exists() {
            "is not a directory"
        } else {
            "does not exist"
        };
        return Err(VerbError::Usage(format!(
            "CRD directory {} {what}",
            dir.display()
        )));
    }
    let files: Vec<FileCrds> = match load_dir(&dir) {
        Ok(f) => f
            .into_iter()
            .map(|(path, r)| {
                let name = path
                    .file_name()
                    .map(|n| crate::base::echo::escaped(&n.to_string_lossy()))
                    .unwrap_or_default();
                if let Err(e) = &r {
                    p.err_line(&format!("warning: {e}"));
                }
                (
                    name,
                    r.map(|crds| {
                        crds.into_iter()
                            .map(|c| (c.name, c.versions.join(",")))
                            .collect()
                    })
                    .map_err(|e| format!("{}:{}", e.line, e.column)),
                )
            })
            .collect(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => {
            return Err(VerbError::io(format!(
                "cannot read CRD directory {}: {e}",
                dir.display()
            )));
        }
    };
    let session = Session::open(s, p, Verb::Get).await?;
    let crd = crd_type();
    let ask = AccessRequest {
        verb: "list".into(),
        group: crd.api.group.clone(),
        resource: crd.api.plural.clone(),
        subresource: None,
        namespace: None,
        name: None,
    };
    let grant = session.authorize(Verb::Get, &crd, false, &[ask]).await?;
    let request =
        kube::core::Request::new("/apis/apiextensions.k8s.io/v1/customresourcedefinitions")
            .list(&ListParams::default())
            .map_err(|e| VerbError::Usage(format!("cannot build the list request: {e}")))?;
    let list: ObjectList<CustomResourceDefinition> = session.send(&grant, request).await?;
    let on_cluster: ClusterCrds = list
        .items
        .into_iter()
        .map(|c| {
            let name = c.metadata.name.clone().unwrap_or_default();
            let versions: Vec<String> = c
                .spec
                .versions
                .iter()
                .filter(|v| v.served)
                .map(|v| v.name.clone())
                .collect();
            let established = c
                .status
                .as_ref()
                .and_then(|st| st.conditions.as_ref())
                .and_then(|cs| cs.iter().find(|x| x.type_ == "Established"))
                .map(|x| x.status.clone())
                .unwrap_or_else(|| "Unknown".into());
            let ours = c
                .metadata
                .managed_fields
                .iter()
                .flatten()
                .any(|m| m.manager.as_deref() == Some(FIELD_MANAGER));
            (name, (versions.join(","), established, ours))
        })
        .collect();
    let rows = rows(&files, &on_cluster);
    if rows.is_empty() {
        p.err_line(&format!(
            "No CRDs in {} and none managed by kubectl-myops on the cluster.",
            dir.display()
        ));
        return Ok(());
    }
    let mut t = OwnTable::new(["File", "Name", "Versions", "Established", "Managed"]);
    for r in &rows {
        t.row([&r.file, &r.name, &r.versions, &r.established, &r.managed]);
    }
    p.out(&t.render(false))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_pair_files_with_the_cluster_and_add_orphans_we_manage() {
        let files = vec![
            (
                "a.yaml".to_string(),
                Ok(vec![("as.x.io".to_string(), "v1".to_string())]),
            ),
            ("bad.yaml".to_string(), Err("3:1".to_string())),
        ];
        let mut cluster = ClusterCrds::new();
        cluster.insert("as.x.io".into(), ("v1".into(), "True".into(), true));
        cluster.insert("old.x.io".into(), ("v1".into(), "True".into(), true));
        cluster.insert("theirs.x.io".into(), ("v1".into(), "True".into(), false));
        let r = rows(&files, &cluster);
        let flat: Vec<String> = r
            .iter()
            .map(|r| {
                format!(
                    "{} {} {} {} {}",
                    r.file, r.name, r.versions, r.established, r.managed
                )
            })
            .collect();
        assert_eq!(
            flat,
            [
                "a.yaml as.x.io v1 True yes",
                "bad.yaml <invalid: 3:1> - - -",
                "- old.x.io v1 True yes"
            ]
        );
    }
}
