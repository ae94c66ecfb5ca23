//! The prune of `policies apply`: the policies and bindings an earlier apply of this plugin
//! wrote for rules that are gone, found by their labels, gated with the applies, deleted
//! through the guarded path after them.

use crate::changelog::Operation;
use crate::cli::DryRun;
use crate::cluster::ResolvedType;
use crate::config::Verb;
use crate::guard::delete::identity;
use crate::guard::{Change, Grant, GuardError, ObjectRef, Sent, Session};
use crate::output::Printer;
use crate::output::objects::result_line;
use crate::rules::policy::admission::{self, Exported, MANAGED_BY, PLUGIN_LABEL};
use crate::verbs::VerbError;

/// The objects of `types` (in that order: bindings before their policies, so a policy is
/// never left bound while it goes) labelled as written by plugin `plugin` that `exported` no
/// longer names ([`admission::stale`]).
///
/// # Errors
/// The boundary of plugin.yaml verb `apply` or the `list` review refused (exit 3), the
/// list's failure (1).
pub(super) async fn find(
    session: &Session<'_>,
    types: &[&ResolvedType],
    exported: &[Exported],
    plugin: &str,
) -> Result<Vec<ObjectRef>, GuardError> {
    let selector = admission::selector(plugin);
    let mut out = Vec::new();
    for t in types {
        let listed: Vec<String> = session
            .select(Verb::Apply, t, false, Some(&selector), None)
            .await?
            .into_iter()
            .map(|o| o.name)
            .collect();
        out.extend(
            admission::stale(exported, &listed)
                .into_iter()
                .map(|name| ObjectRef {
                    t: (*t).clone(),
                    namespace: None,
                    name,
                }),
        );
    }
    Ok(out)
}

/// The delete a prune sends, without the preconditions the read adds.
fn probe() -> Change {
    Change::Delete {
        uid: None,
        resource_version: None,
        propagation: None,
        grace_period: None,
        unrecoverable: false,
    }
}

/// The grant of every delete of `stale`, before anything is sent: the boundary of
/// plugin.yaml verb `delete` and the `delete` review, a refusal journaled.
///
/// # Errors
/// The first refusal (exit 3) or review failure; nothing was sent.
pub(super) async fn gate(
    session: &Session<'_>,
    stale: &[ObjectRef],
    dry_run: DryRun,
) -> Result<Vec<Grant>, GuardError> {
    let change = probe();
    let dry = dry_run != DryRun::None;
    let mut out = Vec::with_capacity(stale.len());
    for obj in stale {
        let intent = change.intent(Operation::Delete, obj, dry, None);
        out.push(session.authorize_change(obj, &change, intent).await?);
    }
    Ok(out)
}

/// Deletes each of `stale` under its grant: the before-state read (a `get` review), then the
/// delete with its uid and resourceVersion as preconditions, journaled as `delete`; kubectl's
/// `… pruned` line for each. An object that lost this plugin's labels since it was listed, or
/// is gone, is left alone.
///
/// # Errors
/// The most severe failure (each other one printed); a change log that cannot be written, or
/// a `protect:` rule not answered yes, stops the prune.
pub(super) async fn run(
    session: &Session<'_>,
    stale: Vec<ObjectRef>,
    grants: Vec<Grant>,
    dry_run: DryRun,
    p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    let mut failures = super::Failures::default();
    let plugin = session.settings().plugin.name.clone();
    for (obj, mut grant) in stale.into_iter().zip(grants) {
        match one(session, &obj, &mut grant, dry_run, &plugin).await {
            Ok(true) => {
                let line = result_line(&obj.display(), "pruned", true, dry_run);
                p.out(&format!("{line}\n"))?;
            }
            Ok(false) => {}
            Err(e) => {
                let stop = super::stops(&e);
                failures.fail(e.into(), p);
                if stop {
                    break;
                }
            }
        }
    }
    match failures.failed {
        None => Ok(()),
        Some(_) => Err(failures.finish()),
    }
}

/// Prunes one object: `Ok(false)` when it is gone or no longer this plugin's.
async fn one(
    session: &Session<'_>,
    obj: &ObjectRef,
    grant: &mut Grant,
    dry_run: DryRun,
    plugin: &str,
) -> Result<bool, GuardError> {
    let dry = dry_run != DryRun::None;
    let change = probe();
    let intent = change.intent(Operation::Delete, obj, dry, None);
    let before = match session.before_state_if_present(grant, obj, intent).await {
        Ok(Some(b)) => b,
        Ok(None) => {
            return Err(GuardError::Usage(format!(
                "{} cannot be read, so its state cannot be journaled before the prune; ask for get on {} (nothing was sent)",
                obj.display(),
                obj.t.group_resource()
            )));
        }
        Err(GuardError::Api(crate::cluster::ApiError::Server { code: 404, .. })) => {
            return Ok(false);
        }
        Err(e) => return Err(e),
    };
    let label = |k: &str| {
        before
            .pointer("/metadata/labels")
            .and_then(|l| l.get(k))
            .and_then(serde_json::Value::as_str)
            .map(str::to_string)
    };
    if label(MANAGED_BY.0).as_deref() != Some(MANAGED_BY.1)
        || label(PLUGIN_LABEL).as_deref() != Some(plugin)
    {
        return Ok(false);
    }
    let (uid, resource_version) = identity(&before);
    let change = Change::Delete {
        uid,
        resource_version,
        propagation: None,
        grace_period: None,
        unrecoverable: false,
    };
    let sent = Sent {
        operation: Operation::Delete,
        change: &change,
        before: Some(&before),
        dry_run,
        field_manager: super::FIELD_MANAGER,
        id: None,
    };
    session.send_change(grant, obj, sent).await?;
    Ok(true)
}
