//! Arguments of `rollout restart|undo|history|status` (kubectl's forms and flags,
//! `k8s.io/kubectl/pkg/cmd/rollout/`), for Deployments, StatefulSets and DaemonSets.

use clap::{Args, Subcommand};

use super::values::{
    DEFAULT_FIELD_MANAGER, DRY_RUN_BARE, DryRunFlag, DryRunParser, FieldManagerParser,
};

/// `rollout` subcommands.
#[derive(Debug, Clone, Subcommand)]
pub enum RolloutCommand {
    /// Restart the pods of a rollout: the pod template gets the annotation
    /// `kubectl.kubernetes.io/restartedAt` (journaled; `rollback ID` undoes it).
    #[command(after_help = RESTART_HELP)]
    Restart(RolloutRestartArgs),
    /// Roll back to a previous revision (journaled; `rollback ID` undoes the undo).
    #[command(after_help = UNDO_HELP)]
    Undo(RolloutUndoArgs),
    /// The revisions of a rollout, or one revision's pod template (read-only).
    #[command(after_help = HISTORY_HELP)]
    History(RolloutHistoryArgs),
    /// The status of a rollout, followed until it is done unless --watch=false (read-only).
    #[command(after_help = STATUS_HELP)]
    Status(RolloutStatusArgs),
}

impl RolloutCommand {
    /// The subcommand's name (`restart`, `undo`, `history`, `status`).
    pub fn name(&self) -> &'static str {
        match self {
            RolloutCommand::Restart(_) => "restart",
            RolloutCommand::Undo(_) => "undo",
            RolloutCommand::History(_) => "history",
            RolloutCommand::Status(_) => "status",
        }
    }

    /// `--canary`, for the commands that change objects.
    pub fn canary(&self) -> Option<u16> {
        match self {
            RolloutCommand::Restart(a) => a.canary,
            RolloutCommand::Undo(a) => a.canary,
            RolloutCommand::History(_) | RolloutCommand::Status(_) => None,
        }
    }
}

/// Arguments of `rollout restart`.
#[derive(Debug, Clone, Args)]
pub struct RolloutRestartArgs {
    /// TYPE NAME… or TYPE/NAME… (deployments, statefulsets, daemonsets).
    #[arg(required = true, value_name = "TYPE[/NAME]")]
    pub args: Vec<String>,
    /// `name`: print `TYPE.GROUP/NAME` of each restarted object instead of the sentence.
    #[arg(short = 'o', long, value_parser = ["name"])]
    pub output: Option<String>,
    /// Field manager recorded by the server (at most 128 bytes, printable; empty = the default).
    #[arg(long, default_value = DEFAULT_FIELD_MANAGER, value_parser = FieldManagerParser)]
    pub field_manager: String,
    /// With --contexts/--all-contexts: how many contexts the first (canary) wave restarts in;
    /// the rest follow only if every one of them succeeded. (default 1)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub canary: Option<u16>,
}

/// Arguments of `rollout undo`.
#[derive(Debug, Clone, Args)]
pub struct RolloutUndoArgs {
    /// TYPE NAME… or TYPE/NAME… (deployments, statefulsets, daemonsets).
    #[arg(required = true, value_name = "TYPE[/NAME]")]
    pub args: Vec<String>,
    /// The revision to roll back to; 0 (the default) is the one before the current.
    #[arg(
        long,
        default_value_t = 0,
        allow_negative_numbers = true,
        value_name = "N"
    )]
    pub to_revision: i64,
    /// Dry run: none (default), server, or client (prints the pod template it would roll
    /// back to); a bare --dry-run is client (deprecated, as in kubectl).
    #[arg(long, default_value = "none", num_args = 0..=1, default_missing_value = DRY_RUN_BARE, require_equals = true, value_parser = DryRunParser)]
    pub dry_run: DryRunFlag,
    /// `name`: print `TYPE.GROUP/NAME` of each object instead of the sentence.
    #[arg(short = 'o', long, value_parser = ["name"])]
    pub output: Option<String>,
    /// Field manager recorded by the server (at most 128 bytes, printable; empty = the default).
    #[arg(long, default_value = DEFAULT_FIELD_MANAGER, value_parser = FieldManagerParser)]
    pub field_manager: String,
    /// With --contexts/--all-contexts: how many contexts the first (canary) wave rolls back
    /// in; the rest follow only if every one of them succeeded. (default 1)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub canary: Option<u16>,
}

/// Arguments of `rollout history`.
#[derive(Debug, Clone, Args)]
pub struct RolloutHistoryArgs {
    /// TYPE NAME… or TYPE/NAME… (deployments, statefulsets, daemonsets).
    #[arg(required = true, value_name = "TYPE[/NAME]")]
    pub args: Vec<String>,
    /// Show the pod template of this revision.
    #[arg(
        long,
        default_value_t = 0,
        allow_negative_numbers = true,
        value_name = "N"
    )]
    pub revision: i64,
}

/// Arguments of `rollout status`.
#[derive(Debug, Clone, Args)]
pub struct RolloutStatusArgs {
    /// TYPE NAME or TYPE/NAME (deployments, statefulsets, daemonsets).
    #[arg(required = true, value_name = "TYPE[/NAME]")]
    pub args: Vec<String>,
    /// Follow the status until the rollout is done (default true; --watch=false prints it once).
    #[arg(short = 'w', long, default_value_t = true, num_args = 0..=1, default_missing_value = "true", require_equals = true, action = clap::ArgAction::Set)]
    pub watch: bool,
    /// Pin to a revision (Deployments): a different running revision is an error.
    #[arg(
        long,
        default_value_t = 0,
        allow_negative_numbers = true,
        value_name = "N"
    )]
    pub revision: i64,
    /// How long to follow the status: seconds or a Go duration (0s, the default: no limit).
    #[arg(long, default_value = "0s", value_name = "DURATION")]
    pub timeout: String,
}

/// `rollout --help` (the group).
pub const ROLLOUT_HELP: &str =
    "Deployments, StatefulSets and DaemonSets, as kubectl does it. restart and undo are changes:
plugin.yaml verb `rollout`, reviewed, judged by field policies, journaled, undone by
`kubectl myops rollback ID`. history and status only read.

Examples:
  kubectl myops rollout restart deployment/web
  kubectl myops rollout history deployment/web
  kubectl myops rollout undo deployment/web --to-revision 2
  kubectl myops rollout status deployment/web --timeout 5m";

/// `rollout restart --help`.
pub const RESTART_HELP: &str =
    "The restart is kubectl's: a strategic merge patch setting the pod template annotation
kubectl.kubernetes.io/restartedAt to the time now (RFC 3339), so the controller replaces the
pods. It is reviewed as `patch` on the object, judged by plugin.yaml field policies, journaled
before it is sent; `kubectl myops rollback ID` removes the annotation again.

Examples:
  kubectl myops rollout restart deployment/web
  kubectl myops rollout restart deployment web api -n shop
  kubectl myops rollout restart daemonset/node-agent --contexts 'prod-*' --canary 2";

/// `rollout undo --help`.
pub const UNDO_HELP: &str =
    "The revision comes from the Deployment's ReplicaSets (annotation deployment.kubernetes.io/revision)
or the StatefulSet's or DaemonSet's ControllerRevisions, and is sent as kubectl sends it: a JSON
patch of spec.template and the annotations (Deployments) or the revision's strategic merge patch.
Reviewed as `list` of replicasets or controllerrevisions and `patch` of the object. The journal
keeps the before-state, so `kubectl myops rollback ID` undoes the undo; kubectl's last-applied
annotation is not updated (use apply with the earlier file for objects managed by apply).

Examples:
  kubectl myops rollout undo deployment/web
  kubectl myops rollout undo statefulset/db --to-revision 3
  kubectl myops rollout undo deployment/web --dry-run=server";

/// `rollout history --help`.
pub const HISTORY_HELP: &str = "Examples:
  kubectl myops rollout history deployment/web
  kubectl myops rollout history daemonset/node-agent --revision 2";

/// `rollout status --help`.
pub const STATUS_HELP: &str =
    "Exit codes: 0 when the rollout is done (or --watch=false printed the status), 1 when it
failed (a Deployment past its progress deadline) or --timeout passed.

Examples:
  kubectl myops rollout status deployment/web
  kubectl myops rollout status statefulset/db --watch=false
  kubectl myops rollout status deployment/web --timeout 2m";
