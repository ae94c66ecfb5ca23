//! Arguments of `crds`: registering CustomResourceDefinitions from a directory.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::help;
use crate::output::format::LogFormat;

/// `crds` subcommands.
#[derive(Debug, Subcommand)]
pub enum CrdsCommand {
    /// Server-side apply every CRD in DIR once and wait until each is Established and served.
    #[command(after_help = help::CRDS_SYNC_HELP)]
    Sync(CrdsSyncArgs),
    /// Hot-load: register every CRD in DIR, then follow the directory until SIGINT/SIGTERM.
    #[command(after_help = help::WATCH_HELP)]
    Watch(CrdsWatchArgs),
    /// What the directory holds and what the cluster has, side by side.
    #[command(after_help = help::CRDS_LIST_HELP)]
    List(CrdsListArgs),
}

/// Arguments of `crds watch`.
#[derive(Debug, Args)]
pub struct CrdsWatchArgs {
    /// Directory of CRD YAML files (default: plugin.yaml crdDir, else ~/.kube/plugins/crds).
    pub dir: Option<PathBuf>,
    /// Delete a CRD from the cluster when its file is removed (only CRDs this tool applied;
    /// deleting a CRD deletes all its custom resources).
    #[arg(long)]
    pub prune: bool,
    /// Take over fields another field manager owns instead of reporting the conflict.
    #[arg(long)]
    pub force_conflicts: bool,
    /// How long to wait for each CRD to become Established and discoverable.
    #[arg(long, default_value = "30s", value_name = "DURATION")]
    pub timeout: String,
    /// Log line format.
    #[arg(long, value_enum, default_value = "text")]
    pub log_format: LogFormat,
    /// Run as one of several replicas: only the holder of a coordination.k8s.io/v1 Lease
    /// applies; the others watch the directory and take over when the Lease expires
    /// (client-go leader election).
    #[arg(long)]
    pub leader_elect: bool,
    /// Namespace of the Lease (default: the namespace in effect — -n, else the context's;
    /// in a pod, its service account's).
    #[arg(long, requires = "leader_elect", value_name = "NAMESPACE")]
    pub lease_namespace: Option<String>,
    /// Name of the Lease.
    #[arg(
        long,
        requires = "leader_elect",
        default_value = "kubectl-myops-crd-loader",
        value_name = "NAME"
    )]
    pub lease_name: String,
    /// How long followers wait without seeing the Lease renewed before taking over (whole
    /// seconds; client-go's default).
    #[arg(
        long,
        requires = "leader_elect",
        default_value = "15s",
        value_name = "DURATION"
    )]
    pub lease_duration: String,
    /// How long the leader keeps trying to renew before it stops applying (client-go's
    /// default).
    #[arg(
        long,
        requires = "leader_elect",
        default_value = "10s",
        value_name = "DURATION"
    )]
    pub renew_deadline: String,
    /// Time between two attempts to acquire or renew the Lease (client-go's default).
    #[arg(
        long,
        requires = "leader_elect",
        default_value = "2s",
        value_name = "DURATION"
    )]
    pub retry_period: String,
    /// Serve /metrics, /healthz and /readyz on HOST:PORT (e.g. :9100 or 127.0.0.1:0); the
    /// totals are then scraped, not pushed to the Pushgateway.
    #[arg(long, value_name = "HOST:PORT")]
    pub metrics_addr: Option<String>,
}

/// Arguments of `crds list`.
#[derive(Debug, Args)]
pub struct CrdsListArgs {
    /// Directory of CRD YAML files (default: plugin.yaml crdDir, else ~/.kube/plugins/crds).
    pub dir: Option<PathBuf>,
}

/// Arguments of `crds sync`.
#[derive(Debug, Args)]
pub struct CrdsSyncArgs {
    /// Directory of CRD YAML files (default: plugin.yaml crdDir, else ~/.kube/plugins/crds).
    pub dir: Option<PathBuf>,
    /// Take over fields another field manager owns instead of reporting the conflict (as
    /// `crds watch --force-conflicts` and `kubectl apply --server-side --force-conflicts`).
    #[arg(long)]
    pub force_conflicts: bool,
    /// How long to wait for each CRD to become Established and discoverable.
    #[arg(long, default_value = "30s", value_name = "DURATION")]
    pub timeout: String,
}
