//! Arguments of `policies`: plugin.yaml `policies:` as ValidatingAdmissionPolicies the API
//! server enforces for every client (docs/policies.md, "Enforced by the API server").

use clap::{Args, Subcommand, ValueEnum};

use super::values::{DRY_RUN_BARE, DryRunFlag, DryRunParser};

pub use crate::rules::policy::admission::Action;

/// `policies` subcommands.
#[derive(Debug, Subcommand)]
pub enum PoliciesCommand {
    /// Print a ValidatingAdmissionPolicy and a binding for each plugin.yaml `policies:` rule.
    #[command(after_help = EXPORT_HELP)]
    Export(PoliciesExportArgs),
    /// Server-side apply the exported policies and bindings (journaled, reversible with
    /// rollback), and delete the ones an earlier apply wrote for rules that are gone.
    #[command(after_help = APPLY_HELP)]
    Apply(PoliciesApplyArgs),
    /// Judge probe changes of every rule both here and by the API server with the policies in
    /// force; any disagreement is listed (exit 1).
    #[command(after_help = VERIFY_HELP)]
    Verify(PoliciesVerifyArgs),
}

/// Output formats of `policies export`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PoliciesFormat {
    /// YAML documents separated by `---`, ready for `kubectl apply -f -`.
    Yaml,
    /// One `v1 List`.
    Json,
}

/// Arguments of `policies export`.
#[derive(Debug, Args)]
pub struct PoliciesExportArgs {
    /// Output format.
    #[arg(short = 'o', long, value_enum, default_value = "yaml")]
    pub output: PoliciesFormat,
    /// What every binding does with a refusal: `Deny`, or `Warn` and/or `Audit` to roll out
    /// (comma-separated; Deny and Warn together are refused by the API server).
    #[arg(long, value_enum, value_delimiter = ',', default_value = "Deny")]
    pub actions: Vec<Action>,
}

/// Arguments of `policies apply`.
#[derive(Debug, Args)]
pub struct PoliciesApplyArgs {
    /// What every binding does with a refusal (as for `export`).
    #[arg(long, value_enum, value_delimiter = ',', default_value = "Deny")]
    pub actions: Vec<Action>,
    /// Dry run: none (default) or server (sent with dryRun=All: the API server checks and
    /// compiles the policies, nothing is stored); client is refused, as for `apply`.
    #[arg(long, default_value = "none", num_args = 0..=1, default_missing_value = DRY_RUN_BARE, require_equals = true, value_parser = DryRunParser)]
    pub dry_run: DryRunFlag,
}

/// Arguments of `policies verify`.
#[derive(Debug, Args)]
pub struct PoliciesVerifyArgs {
    /// The actions the bindings on the cluster have (as for `export`): with Deny a refusal
    /// is a 403, with Warn (no Deny) a warning; Audit alone cannot be verified.
    #[arg(long, value_enum, value_delimiter = ',', default_value = "Deny")]
    pub actions: Vec<Action>,
}

/// `policies` help.
pub const POLICIES_HELP: &str =
    "plugin.yaml `policies:` bind the changes sent through kubectl-myops; exported as
ValidatingAdmissionPolicies they bind every client at the API server.

Examples:
  # Roll out: warn first, then deny, and prove both judges agree
  kubectl myops policies apply --actions Warn,Audit
  kubectl myops policies verify
  kubectl myops policies apply";

/// `policies export` help.
const EXPORT_HELP: &str =
    "Nothing is sent to the API server. The CEL of every rule is parsed and checked locally
first; a rule whose estimated CEL cost is over the API server's limits is named on stderr.

Examples:
  # Review, then apply with plain kubectl
  kubectl myops policies export > policies.yaml
  kubectl myops policies export --actions Warn,Audit | kubectl apply -f -";

/// `policies apply` help.
const APPLY_HELP: &str =
    "Needs plugin.yaml to allow the apply verb on validatingadmissionpolicies and
validatingadmissionpolicybindings (resource names with .admissionregistration.k8s.io), and
RBAC to allow it.

Examples:
  kubectl myops policies apply --dry-run=server
  kubectl myops policies apply --actions Warn,Audit";

/// `policies verify` help.
const VERIFY_HELP: &str =
    "Each probe is a change generated from a rule (under each denied path, beside it, to its
parent, to an allowed exception, a delete for delete: deny) on the first object of the
rule's resource in the current namespace (or a namespace the rule names), sent as a
server-side dry run: nothing is stored, nothing is journaled. Needs plugin.yaml to allow get
on validatingadmissionpolicies and their bindings (cluster scope), and get and patch (delete
for delete: deny) on the rules' resources. Exit 1 on a disagreement, a missing or outdated
policy, or a rule with nothing to probe.

Examples:
  kubectl myops policies verify -n team-a
  kubectl myops policies verify --actions Warn,Audit";
