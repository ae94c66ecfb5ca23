# Shared paths and pinned versions for the project scripts. Sourced, not run.
# shellcheck shell=bash
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TESTBIN="$ROOT/target/testbin"
# The test cluster's state directory; MYOPS_TESTCLUSTER names another (scripts/chaos runs its
# own cluster there, so stopping its apiserver never disturbs the test cluster).
TESTCLUSTER="${MYOPS_TESTCLUSTER:-$ROOT/target/testcluster}"
K8S_MOD="$ROOT/tests/cluster/k8s"
ETCD_MOD="$ROOT/tests/cluster/etcd"
export GOTOOLCHAIN=local CGO_ENABLED=0
export GOFLAGS="${GOFLAGS:-} -mod=readonly"

# Pinned versions, read from the Go modules (go.mod is the single source of truth).
modver() { (cd "$1" && go list -m -f '{{.Version}}' "$2"); }
# Cargo tools scripts/setup installs (cargo install --locked): the license/ban/source checks of
# scripts/test, the release SBOM and the embedded dependency list of scripts/package.
CARGO_DENY_VERSION=0.20.2
CARGO_CYCLONEDX_VERSION=0.5.9
CARGO_AUDITABLE_VERSION=0.7.7
# cargo_installed CRATE VERSION: whether `cargo install` put that version in cargo's bin directory
# (the tools' own --version is no help: cargo-auditable's prints cargo's).
cargo_installed() { cargo install --list 2>/dev/null | grep -qx "$1 v$2:"; }

log() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }
