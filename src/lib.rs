//! kubectl-myops: the guarded kubectl.
//!
//! `get` and `patch` behind a plugin.yaml boundary and a SelfSubjectAccessReview gate,
//! CRD hot-loading, and cumulative per-operation metrics pushed to a Pushgateway.
//! The design and contracts are in ARCHITECTURE.md; this crate follows its layout:
//! clap types in [`cli`], resolved once into an immutable [`settings::Settings`], one
//! `run` function per verb in [`verbs`], exit codes in [`exit`].
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod app;
pub mod authz;
pub mod changelog;
pub mod cli;
pub mod cluster;
pub mod completions;
pub mod config;
pub mod crds;
pub mod diff;
pub mod drift;
pub mod echo;
pub mod exit;
pub mod fleet;
pub mod fsutil;
pub mod guard;
pub mod history;
pub mod manpages;
pub mod metrics;
pub mod output;
pub mod policy;
pub mod reconciler;
pub mod redact;
pub mod settings;
pub mod validate;
pub mod verbs;
