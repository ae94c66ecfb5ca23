//! `policies apply [--actions …] [--dry-run=server]`: the exported ValidatingAdmissionPolicies
//! and bindings server-side applied through the guarded path, then the ones an earlier apply
//! of this plugin wrote for rules that are gone deleted (docs/policies.md, "Enforced by the
//! API server").
//!
//! Order, each step before any later request:
//! 1. the objects ([`super::objects`]: the rules' CEL checked locally, cost warnings);
//! 2. the session (plugin.yaml verb `apply`, the change log proven writable);
//! 3. the gate of every apply, before any is sent: `create`, `patch` and `get` for each
//!    object ([`Session::authorize_apply`]); a refusal is journaled and stops the command
//!    with nothing sent (exit 3), so a plugin allowed policies but not bindings never leaves
//!    a policy without its binding;
//! 4. the prune list: the policies and bindings labelled `app.kubernetes.io/managed-by:
//!    kubectl-myops` and `app.kubernetes.io/instance: <plugin name>` that the export no
//!    longer names ([`prune::find`]: the boundary of `apply` and a `list` review per type),
//!    and the gate of each delete (plugin.yaml verb `delete` — a boundary that lets a plugin
//!    delete lets it put back what it deleted — and the `delete` review, a refusal journaled),
//!    still before anything is sent;
//! 5. per rule, its policy and then its binding ([`Session::apply`]: before-state, field
//!    policies, `protect:`, the write-ahead journal), kubectl's line for each
//!    (`validatingadmissionpolicy.admissionregistration.k8s.io/NAME serverside-applied`). A
//!    binding names its policy by name, and the server accepts one whose policy is missing
//!    (it then does nothing), so the policy goes first and a rule whose policy failed keeps
//!    its binding as it was;
//! 6. the prune, only when every apply succeeded: each object deleted with the uid and
//!    resourceVersion just read as preconditions, journaled as a `delete` (`undelete` and
//!    `rollback` put it back), bindings before policies, kubectl's `… pruned` line.
//!
//! The field manager is `apply`'s, `kubectl-myops` ([`FIELD_MANAGER`]), the one `rollback`
//! and `undelete` write with too. Server-side apply still counts their update (an object put
//! back from its before-state, every field owned) as another manager than an apply, and
//! `spec.matchConstraints` is atomic, so the server's defaults in it would make the next
//! apply a conflict of this tool with itself: an object whose every field this manager wrote
//! is applied with force ([`only_ours`]). A field another writer set (a plain `kubectl apply
//! --server-side` of `policies export`'s output) is a conflict (exit 5), not a silent
//! overwrite.
//!
//! `--dry-run=server` sends every apply and delete with `dryRun=All`: the API server compiles
//! and type-checks the CEL (an expression it cannot compile is 422, exit 2) and stores
//! nothing. As kubectl, a failed rule does not stop the others; the exit code is the most
//! severe failure's. A change log that cannot be written, or a `protect:` rule not answered
//! yes, stops everything before the next request.

mod prune;

use serde_json::Value;

use crate::cli::{DryRun, PoliciesApplyArgs};
use crate::cluster::{ApiError, ResolvedType};
use crate::config::Verb;
use crate::guard::authz::AccessRequest;
use crate::guard::mutation::apply::server_sentence;
use crate::guard::{ApplyRequest, Grant, GuardError, ObjectRef, Session};
use crate::output::Printer;
use crate::output::objects::result_line;
use crate::rules::policy::admission::Exported;
use crate::settings::Settings;
use crate::verbs::VerbError;

/// The field manager of every object `policies apply` writes: `apply`'s (see the module doc
/// for why).
pub const FIELD_MANAGER: &str = crate::cli::DEFAULT_FIELD_MANAGER;

/// The policies' type, as plugin.yaml `resources` may name it.
pub const POLICY_TYPE: &str = "validatingadmissionpolicies.admissionregistration.k8s.io";

/// The bindings' type, as plugin.yaml `resources` may name it.
pub const BINDING_TYPE: &str = "validatingadmissionpolicybindings.admissionregistration.k8s.io";

/// One object to apply: which rule it mirrors, where it goes, its body.
struct Item<'a> {
    /// The rule's index in `policies`.
    index: usize,
    /// `policy` or `binding`.
    is_policy: bool,
    obj: ObjectRef,
    body: &'a Value,
}

/// Runs `policies apply` (see the module doc for the order).
///
/// # Errors
/// Usage (2: no rules, refused flags, a policy the API server finds invalid), denied (3:
/// plugin.yaml, RBAC, `protect:`, a field policy), conflict (5: another field manager), a
/// failure (1: the server, the change log).
pub async fn run(
    settings: &Settings,
    args: &PoliciesApplyArgs,
    p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    if args.dry_run.strategy == DryRun::Client {
        // kubectl's refusal for a server-side apply (k8s.io/kubectl pkg/cmd/apply/apply.go).
        return Err(VerbError::Usage(
            "--dry-run=client doesn't work with --server-side (did you mean --dry-run=server instead?)".into(),
        ));
    }
    let exported = super::objects(settings, &args.actions, p)?;
    let session = Session::open(settings, p, Verb::Apply).await?;
    let policy_t = session.resolve(POLICY_TYPE).await?;
    let binding_t = session.resolve(BINDING_TYPE).await?;
    let items = items(&exported, &policy_t, &binding_t);
    let dry_run = args.dry_run.strategy;
    let grants = gate(&session, &items, dry_run).await?;
    let stale = prune::find(
        &session,
        &[&binding_t, &policy_t],
        &exported,
        &settings.plugin.name,
    )
    .await?;
    session.plan_changes(
        items
            .iter()
            .map(|i| i.obj.display())
            .chain(stale.iter().map(ObjectRef::display)),
    );
    let prune_grants = prune::gate(&session, &stale, dry_run).await?;
    let mut run = Failures::default();
    let mut failed_rule: Option<usize> = None;
    for (item, grant) in items.iter().zip(&grants) {
        if failed_rule == Some(item.index) {
            continue;
        }
        // A read error here is left to the apply, which reads again and journals it.
        let live = session.read(grant, &item.obj).await.ok().flatten();
        let req = ApplyRequest {
            body: item.body,
            dry_run,
            field_manager: FIELD_MANAGER,
            force: live.as_ref().is_some_and(only_ours),
        };
        match session.apply(grant, &item.obj, &req).await {
            Ok(applied) => {
                if let Some(owner) = &applied.reconciler {
                    p.err_line(&owner.patch_warning(&item.obj.display()));
                }
                let line = result_line(&item.obj.display(), "serverside-applied", true, dry_run);
                p.out(&format!("{line}\n"))?;
            }
            Err(e) => {
                let stop = stops(&e);
                run.fail(failure(item, &exported, e), p);
                if stop {
                    return Err(run.finish());
                }
                failed_rule = Some(item.index);
            }
        }
    }
    if run.failed.is_some() {
        if !stale.is_empty() {
            p.err_line(&format!(
                "warning: nothing was pruned ({} object{} of removed rules kept) because an apply failed; fix it and apply again",
                stale.len(),
                if stale.len() == 1 { "" } else { "s" }
            ));
        }
        return Err(run.finish());
    }
    prune::run(&session, stale, prune_grants, dry_run, p).await
}

/// The objects in the order they are applied: each rule's policy, then its binding.
fn items<'a>(
    exported: &'a [Exported],
    policy_t: &ResolvedType,
    binding_t: &ResolvedType,
) -> Vec<Item<'a>> {
    let of = |t: &ResolvedType, name: &str| ObjectRef {
        t: t.clone(),
        namespace: None,
        name: name.to_string(),
    };
    exported
        .iter()
        .flat_map(|e| {
            [
                Item {
                    index: e.index,
                    is_policy: true,
                    obj: of(policy_t, &e.name),
                    body: &e.policy,
                },
                Item {
                    index: e.index,
                    is_policy: false,
                    obj: of(binding_t, &e.name),
                    body: &e.binding,
                },
            ]
        })
        .collect()
}

/// The grant of every apply, before any is sent: asked once per type for every name
/// (`create`, `patch`, `get` without a name, as `apply` asks), else per object with the
/// refusal journaled ([`Session::authorize_apply`]).
///
/// # Errors
/// The first refusal (exit 3) or review failure; nothing was sent.
async fn gate(
    session: &Session<'_>,
    items: &[Item<'_>],
    dry_run: DryRun,
) -> Result<Vec<Grant>, GuardError> {
    let mut by_type: Vec<(String, Option<Grant>)> = Vec::new();
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        let req = ApplyRequest {
            body: item.body,
            dry_run,
            field_manager: FIELD_MANAGER,
            force: false,
        };
        let key = item.obj.t.group_resource();
        let whole = match by_type.iter().find(|(k, _)| *k == key) {
            Some((_, g)) => g.clone(),
            None => {
                let mut reviews = req.as_change().reviews_of_any(&item.obj);
                reviews.push(AccessRequest {
                    name: None,
                    ..item.obj.access("get", None)
                });
                let g = session
                    .authorize(Verb::Apply, &item.obj.t, false, &reviews)
                    .await
                    .ok();
                by_type.push((key, g.clone()));
                g
            }
        };
        let grant = match whole {
            Some(g) => g,
            None => session.authorize_apply(&item.obj, &req).await?,
        };
        out.push(grant);
    }
    Ok(out)
}

/// Whether a failed change ends the whole run, with nothing more sent: a change log that
/// cannot be written, or a `protect:` rule that was not answered yes (the answer covers the
/// command, not one object).
fn stops(e: &GuardError) -> bool {
    matches!(
        e,
        GuardError::Journal(_) | GuardError::Unjournaled(_) | GuardError::Protected(_)
    )
}

/// Whether every field of `live` (its `managedFields` outside subresources) was written by
/// this tool's field manager (pure). Then the apply is forced: server-side apply counts an
/// update by `kubectl-myops` (a `rollback` or `undelete` putting the object back) as another
/// manager than an apply by it, and `spec.matchConstraints` is atomic, so the server's
/// defaults in it would be a conflict of this tool with itself. A field any other writer set
/// stays a conflict (exit 5).
pub fn only_ours(live: &Value) -> bool {
    live.pointer("/metadata/managedFields")
        .and_then(Value::as_array)
        .is_some_and(|fields| {
            fields
                .iter()
                .filter(|f| f.get("subresource").is_none_or(|s| s.as_str() == Some("")))
                .all(|f| f.get("manager").and_then(Value::as_str) == Some(FIELD_MANAGER))
        })
}

/// A failed apply as the verb reports it: a policy the API server finds invalid (its CEL did
/// not compile or type-check: 422) with what that means and that the binding was not
/// applied; a policy that failed otherwise names its skipped binding too.
fn failure(item: &Item<'_>, exported: &[Exported], e: GuardError) -> VerbError {
    let title = exported
        .iter()
        .find(|x| x.index == item.index)
        .and_then(|x| x.policy.pointer("/metadata/annotations"))
        .and_then(|a| a.get(crate::rules::policy::admission::RULE_ANNOTATION))
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    match e {
        GuardError::Api(ApiError::Server {
            code: 422, message, ..
        }) if item.is_policy => VerbError::Invalid(invalid_policy(&message, &title)),
        GuardError::Api(ApiError::Server {
            code: 409, message, ..
        }) if message.starts_with("Apply failed") => VerbError::Conflict(format!(
            "{}\n{} of plugin.yaml {title} has fields another field manager set to other values (a `kubectl apply` of `policies export`?); delete it with `kubectl myops delete` (journaled) and apply again",
            server_sentence(&message),
            item.obj.display()
        )),
        other => other.into(),
    }
}

/// What the API server's refusal of a policy as invalid means (pure): the server's sentence as
/// kubectl prints it (a CEL compile or type-check error, a field it does not accept), then
/// that the rule's binding was not applied and why this is a bug to report — the policy is
/// generated from the rule and its CEL checked locally first, so the generator missed a rule
/// of the server.
pub fn invalid_policy(server_message: &str, title: &str) -> String {
    format!(
        "{server_message}\nerror: the API server did not accept the ValidatingAdmissionPolicy written for plugin.yaml {title}, so its binding was not applied either; the policy is generated from the rule and its CEL checked locally first, so this is a bug of kubectl-myops: please report it with the rule and the message above"
    )
}

/// The most severe failure of a run (returned), the others printed when they happen.
#[derive(Default)]
struct Failures {
    failed: Option<VerbError>,
}

impl Failures {
    /// Keeps the most severe failure to return; prints the other now.
    fn fail(&mut self, e: VerbError, p: &mut Printer<'_>) {
        if let Some(print) = VerbError::keep_worse(&mut self.failed, e) {
            p.err_line(&print.line());
        }
    }

    /// The failure to return (a run with none is not finished this way).
    fn finish(self) -> VerbError {
        self.failed
            .unwrap_or_else(|| VerbError::Usage("internal: no failure".into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_object_every_field_of_which_this_tool_wrote_is_forced() {
        let with = |fields: Value| serde_json::json!({"metadata": {"managedFields": fields}});
        let entry = |manager: &str, operation: &str| serde_json::json!({"manager": manager, "operation": operation, "fieldsType": "FieldsV1"});
        assert!(only_ours(&with(serde_json::json!([
            entry("kubectl-myops", "Update"),
            entry("kubectl-myops", "Apply")
        ]))));
        let mut status = entry("kube-apiserver", "Update");
        status["subresource"] = "status".into();
        assert!(only_ours(&with(serde_json::json!([
            entry("kubectl-myops", "Update"),
            status
        ]))));
        assert!(!only_ours(&with(serde_json::json!([
            entry("kubectl-myops", "Update"),
            entry("kubectl", "Apply")
        ]))));
        assert!(!only_ours(&serde_json::json!({"metadata": {}})));
    }

    #[test]
    fn an_invalid_policy_keeps_the_servers_sentence_first_and_names_the_rule() {
        let m = invalid_policy(
            "The ValidatingAdmissionPolicy \"p\" is invalid: spec.validations[0].expression: Invalid value: \"x(\": compilation failed",
            "policies[2] (configmaps)",
        );
        let mut lines = m.lines();
        assert!(
            lines
                .next()
                .unwrap()
                .starts_with("The ValidatingAdmissionPolicy \"p\" is invalid: ")
        );
        let second = lines.next().unwrap();
        assert!(second.starts_with("error: the API server did not accept the ValidatingAdmissionPolicy written for plugin.yaml policies[2] (configmaps), so its binding was not applied either"), "{second}");
        assert_eq!(lines.next(), None);
    }
}
