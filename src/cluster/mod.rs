//! The edge to the Kubernetes API server: client construction, discovery and type
//! resolution, and the mapping of API errors to our exit codes.

pub mod audit;
pub mod client;
pub mod connector;
pub mod discovery;
pub mod discovery_cache;
pub mod errors;
pub mod exec_plugin;
pub mod in_cluster;
pub mod kuberc;
pub mod options;
pub mod params;
mod pem;
pub mod proxy;
pub mod table;
pub mod tunnel;

pub use client::{Cluster, ClusterError, connect};
pub use discovery::{ResolveError, ResolvedType, TypeIndex};
pub use errors::ApiError;
pub use options::KubeOptions;
pub use params::{DryRun, PatchType};
