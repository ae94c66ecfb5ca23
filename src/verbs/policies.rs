//! `policies export|apply|verify`: plugin.yaml `policies:` as ValidatingAdmissionPolicies the
//! API server enforces for every client (docs/policies.md, "Enforced by the API server"). The
//! objects come from [`crate::rules::policy::admission::export`]; `export` prints them (no
//! request), `apply` sends them through the guarded path, `verify` proves on the cluster that
//! the policies and this client's judge agree.
//!
//! Exit codes: no `policies:` rules, `--actions Deny,Warn`, a rule the exported policy cannot
//! hold (more than `admission::MAX_WILDCARDS` `*` segments) are usage errors (2).

mod apply;
mod verify;

use crate::cli::{PoliciesCommand, PoliciesExportArgs, PoliciesFormat};
use crate::output::Printer;
use crate::rules::policy::admission::{self, Action, Exported, Fault};
use crate::settings::Settings;
use crate::verbs::VerbError;

/// Runs one `policies` subcommand.
///
/// # Errors
/// What the subcommand reports (see the module's exit codes).
pub async fn run(
    settings: &Settings,
    cmd: &PoliciesCommand,
    p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    match cmd {
        PoliciesCommand::Export(args) => export(settings, args, p),
        PoliciesCommand::Apply(args) => apply::run(settings, args, p).await,
        PoliciesCommand::Verify(args) => verify::run(settings, args, p).await,
    }
}

/// The exported objects of plugin.yaml's rules, cost warnings printed to stderr.
///
/// # Errors
/// No rules or a refused `--actions` (usage, 2); CEL the local check rejects (1).
pub(crate) fn objects(
    settings: &Settings,
    actions: &[Action],
    p: &mut Printer<'_>,
) -> Result<Vec<Exported>, VerbError> {
    let plugin = &settings.plugin;
    if plugin.policies.is_empty() {
        return Err(VerbError::Usage(
            "plugin.yaml has no policies: rules, so there is nothing to export; add one (docs/policies.md)".into(),
        ));
    }
    if actions.contains(&Action::Deny) && actions.contains(&Action::Warn) {
        return Err(VerbError::Usage(
            "--actions Deny and Warn together are refused by the API server (a denied request has nothing to warn about); use Deny, or Warn,Audit".into(),
        ));
    }
    let rules = admission::with_plurals(&plugin.policies, &plugin.resources);
    let exported =
        admission::export(&plugin.name, &rules, actions, fault()).map_err(VerbError::Usage)?;
    for (rule, e) in rules.iter().zip(&exported) {
        let wide = admission::whole_cluster_warning(e.index, rule)
            .into_iter()
            .chain(admission::controller_warning(e.index, rule));
        for w in wide.chain(admission::cost_warnings(e)) {
            p.err_line(&format!("warning: {w}"));
        }
    }
    Ok(exported)
}

/// The generator fault the tests set (`MYOPS_TEST_POLICY_FAULT=ignore-allow`, debug builds
/// only) to prove that `verify` reports a wrong policy; a release never reads it.
fn fault() -> Fault {
    #[cfg(debug_assertions)]
    {
        Fault {
            ignore_allow: std::env::var("MYOPS_TEST_POLICY_FAULT").as_deref() == Ok("ignore-allow"),
        }
    }
    #[cfg(not(debug_assertions))]
    {
        Fault::default()
    }
}

/// `policies export`: the objects as YAML documents or one `v1 List`; nothing is sent.
fn export(
    settings: &Settings,
    args: &PoliciesExportArgs,
    p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    let exported = objects(settings, &args.actions, p)?;
    let items: Vec<&serde_json::Value> = exported
        .iter()
        .flat_map(|e| [&e.policy, &e.binding])
        .collect();
    let text = match args.output {
        PoliciesFormat::Json => crate::output::objects::kubectl_json(&serde_json::json!({
            "apiVersion": "v1",
            "kind": "List",
            "metadata": {"resourceVersion": ""},
            "items": items,
        }))?,
        PoliciesFormat::Yaml => {
            let docs: Result<Vec<String>, _> = items
                .iter()
                .map(|v| crate::output::objects::kubectl_yaml(v))
                .collect();
            docs?.join("---\n")
        }
    };
    p.out(&text)?;
    Ok(())
}
