//! kubectl-myops: the guarded kubectl.
//!
//! Every command passes the plugin.yaml boundary and a SelfSubjectAccessReview before it
//! touches an object, every change is journaled write-ahead and can be undone, CRDs dropped
//! into a directory are hot-loaded, and per-operation metrics are pushed to a Pushgateway.
//! The design is docs/design.md; the modules form the layers it declares, bottom first:
//! [`base`] and [`exit`]; [`rules`]; [`config`], [`changelog`], [`crds`]; [`cluster`];
//! [`output`]; [`metrics`]; [`cli`]; [`settings`]; [`guard`] (the guarded path, with the
//! mutation model); [`history`], [`completions`]; [`verbs`] (one `run` per command);
//! [`fleet`], [`mcp`]; [`app`], [`manpages`].
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod app;
pub mod base;
pub mod changelog;
pub mod cli;
pub mod cluster;
pub mod completions;
pub mod config;
pub mod crds;
pub mod exit;
pub mod fleet;
pub mod guard;
pub mod history;
pub mod manpages;
pub mod mcp;
pub mod metrics;
pub mod output;
pub mod rules;
pub mod settings;
pub mod verbs;
