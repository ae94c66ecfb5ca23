//! Integration tests against the real test cluster (`scripts/cluster up`): etcd,
//! kube-apiserver and a Pushgateway built and installed by `scripts/setup`.
//! One test binary, one module per concern (ripgrep's layout).

// A test here is one scenario or one table of cases, read top to bottom; the 120-line limit
// on functions (clippy.toml) is for the code under test.
#![allow(clippy::too_many_lines)]

#[path = "it/fixture.rs"]
mod fixture;

#[path = "it/apply.rs"]
mod apply;
#[path = "it/attribution.rs"]
mod attribution;
#[path = "it/auth.rs"]
mod auth;
#[path = "it/changelog_chain.rs"]
mod changelog_chain;
#[path = "it/completion.rs"]
mod completion;
#[path = "it/config.rs"]
mod config;
#[path = "it/crd_watcher.rs"]
mod crd_watcher;
#[path = "it/crds.rs"]
mod crds;
#[path = "it/credentials.rs"]
mod credentials;
#[path = "it/delete.rs"]
mod delete;
#[path = "it/delete_dependents.rs"]
mod delete_dependents;
#[path = "it/delete_fleet.rs"]
mod delete_fleet;
#[path = "it/delete_outcome.rs"]
mod delete_outcome;
#[path = "it/discovery_cache.rs"]
mod discovery_cache;
#[path = "it/docs.rs"]
mod docs;
#[path = "it/drift.rs"]
mod drift;
#[path = "it/edit.rs"]
mod edit;
#[path = "it/flags.rs"]
mod flags;
#[path = "it/fleet.rs"]
mod fleet;
#[path = "it/fuzz_corpus.rs"]
mod fuzz_corpus;
#[path = "it/get.rs"]
mod get;
#[path = "it/get_several.rs"]
mod get_several;
#[path = "it/get_watch.rs"]
mod get_watch;
#[path = "it/guard.rs"]
mod guard;
#[path = "it/history.rs"]
mod history;
#[path = "it/hostile.rs"]
mod hostile;
#[path = "it/hostile_files.rs"]
mod hostile_files;
#[path = "it/hostile_flags.rs"]
mod hostile_flags;
#[path = "it/hostile_journal.rs"]
mod hostile_journal;
#[path = "it/hostile_metrics.rs"]
mod hostile_metrics;
#[path = "it/hostile_regressions.rs"]
mod hostile_regressions;
#[path = "it/hostile_round3.rs"]
mod hostile_round3;
#[path = "it/hostile_round3_changelog.rs"]
mod hostile_round3_changelog;
#[path = "it/hostile_round3_deep.rs"]
mod hostile_round3_deep;
#[path = "it/hostile_round3_fleet.rs"]
mod hostile_round3_fleet;
#[path = "it/hostile_round3_groups.rs"]
mod hostile_round3_groups;
#[path = "it/hostile_round3_kuberc.rs"]
mod hostile_round3_kuberc;
#[path = "it/hostile_round3_leader.rs"]
mod hostile_round3_leader;
#[path = "it/hostile_round3_policies.rs"]
mod hostile_round3_policies;
#[path = "it/hostile_secrets.rs"]
mod hostile_secrets;
#[path = "it/hotload.rs"]
mod hotload;
#[path = "it/house.rs"]
mod house;
#[path = "it/in_cluster.rs"]
mod in_cluster;
#[path = "it/inverse.rs"]
mod inverse;
#[path = "it/jsonpath.rs"]
mod jsonpath;
#[path = "it/label.rs"]
mod label;
#[path = "it/layering.rs"]
mod layering;
#[path = "it/leader.rs"]
mod leader;
#[path = "it/long_tails.rs"]
mod long_tails;
#[path = "it/mcp.rs"]
mod mcp;
#[path = "it/mcp_elicit.rs"]
mod mcp_elicit;
#[path = "it/mcp_hostile.rs"]
mod mcp_hostile;
#[path = "it/metrics.rs"]
mod metrics;
#[path = "it/metrics_background.rs"]
mod metrics_background;
#[path = "it/mirror.rs"]
mod mirror;
#[path = "it/mirror_in_cluster.rs"]
mod mirror_in_cluster;
#[path = "it/named_files.rs"]
mod named_files;
#[path = "it/output.rs"]
mod output;
#[path = "it/packaging.rs"]
mod packaging;
#[path = "it/parity.rs"]
mod parity;
#[path = "it/patch.rs"]
mod patch;
#[path = "it/policies_apply.rs"]
mod policies_apply;
#[path = "it/policies_kubectl.rs"]
mod policies_kubectl;
#[path = "it/policies_verify.rs"]
mod policies_verify;
#[path = "it/policy.rs"]
mod policy;
#[path = "it/progress_help.rs"]
mod progress_help;
#[path = "it/prometheus.rs"]
mod prometheus;
#[path = "it/protect.rs"]
mod protect;
#[path = "it/protect_lift.rs"]
mod protect_lift;
#[path = "it/protect_reason.rs"]
mod protect_reason;
#[path = "it/proxy.rs"]
mod proxy;
#[path = "it/push_tls.rs"]
mod push_tls;
#[path = "it/reconciler.rs"]
mod reconciler;
#[path = "it/rollout.rs"]
mod rollout;
#[path = "it/rollout_guard.rs"]
mod rollout_guard;
#[path = "it/scale.rs"]
mod scale;
#[path = "it/standin.rs"]
mod standin;
#[path = "it/stream_fleet.rs"]
mod stream_fleet;
#[path = "it/team.rs"]
mod team;
#[path = "it/undelete.rs"]
mod undelete;
#[path = "it/undelete_status.rs"]
mod undelete_status;
#[path = "it/watch.rs"]
mod watch;
#[path = "it/watching.rs"]
mod watching;
