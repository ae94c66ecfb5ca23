//! Arguments of `changelog mirror` (docs/team.md, "The cluster mirror").

use clap::{Subcommand, ValueEnum};

/// `changelog mirror` subcommands: the queue of records for the cluster mirror, and its
/// retention.
#[derive(Debug, Clone, Subcommand)]
pub enum MirrorCommand {
    /// Send the queued records of the current context's server and user to the cluster
    /// mirror now; exit 1 when a record stays queued because of an error.
    #[command(after_help = MIRROR_PUSH_HELP)]
    Push,
    /// Delete the mirror's ChangeRecords older than a duration (admins: it needs the
    /// ClusterRole myops-changerecord-admin). The local change logs keep every record.
    #[command(after_help = MIRROR_PRUNE_HELP)]
    Prune {
        /// Delete records created more than this long ago: `90d`, `12h`, `30m`.
        #[arg(long, value_name = "DURATION")]
        older_than: String,
        /// `server`: send the deletes as server-side dry runs (nothing is deleted); `none`
        /// (default): delete.
        #[arg(long, value_enum, default_value = "none", value_name = "STRATEGY")]
        dry_run: PruneDryRun,
    },
}

/// `changelog mirror prune --dry-run` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PruneDryRun {
    /// Delete.
    None,
    /// Ask the server what it would delete (`dryRun=All`); nothing is deleted.
    Server,
}

/// `changelog mirror --help`'s examples.
pub(super) const MIRROR_HELP: &str =
    "With plugin.yaml changelog.mirror.namespace set, every complete record is also a
ChangeRecord in that namespace (docs/team.md).

Examples:
  # Send what is queued for the current context
  kubectl myops changelog mirror push
  # Delete mirrored records older than a year (admins)
  kubectl myops changelog mirror prune --older-than 365d";

const MIRROR_PUSH_HELP: &str =
    "Every complete record is queued in MYOPS_HOME/mirror-queue.jsonl and sent by the command
that made it; a record the cluster did not take (the server down, the namespace or the CRD
missing, create denied) stays queued and is sent by the next command on that server, or by
this one. Records of other servers or users stay queued for a command there.

Examples:
  # Send what is queued for the current context
  kubectl myops changelog mirror push";

const MIRROR_PRUNE_HELP: &str =
    "Deletes ChangeRecords (a head with its parts) in plugin.yaml changelog.mirror.namespace
whose creationTimestamp is older than DURATION, listing 500 at a time. Users may only create
records (append-only RBAC); deleting needs the ClusterRole myops-changerecord-admin (a 403 is
exit 3). The local change logs are not touched: they keep every record.

Examples:
  # What would be deleted
  kubectl myops changelog mirror prune --older-than 90d --dry-run=server
  # Delete records older than a year
  kubectl myops changelog mirror prune --older-than 365d";
