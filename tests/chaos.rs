//! The fault-injection suite: the guarded path's claims — every mutation
//! journaled, nothing lost, nothing hangs — checked while the world breaks mid-operation
//! (kill -9, a stopped kube-apiserver or etcd, a full disk, a stalled Pushgateway, many
//! writers at once), on a real cluster of its own.
//!
//! Not part of `cargo test` (`test = false` in Cargo.toml): some scenarios stop the
//! cluster's processes, so `scripts/chaos` runs this binary alone against a cluster it starts
//! in `target/chaoscluster` (`MYOPS_TESTCLUSTER`), one test at a time, and prints each
//! scenario's [`report::Tally`] line.

// A test here is one scenario or one table of cases, read top to bottom; the 120-line limit
// on functions (clippy.toml) is for the code under test.
#![allow(clippy::too_many_lines)]

#[allow(dead_code)]
#[path = "it/fixture.rs"]
mod fixture;

#[path = "chaos/report.rs"]
mod report;

#[path = "chaos/control.rs"]
mod control;

#[path = "chaos/etcd_stopped.rs"]
mod etcd_stopped;

#[path = "chaos/kill9.rs"]
mod kill9;

#[path = "chaos/delete_midbatch.rs"]
mod delete_midbatch;

#[path = "chaos/disk_full.rs"]
mod disk_full;

#[path = "chaos/pushgateway.rs"]
mod pushgateway;

#[path = "chaos/concurrency.rs"]
mod concurrency;

#[allow(dead_code)]
#[path = "it/watching.rs"]
mod watching;

#[allow(dead_code)]
#[path = "it/crd_watcher.rs"]
mod crd_watcher;

#[path = "chaos/apiserver_restart.rs"]
mod apiserver_restart;
