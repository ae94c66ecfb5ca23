//! `auth can-i`, `auth matrix` and `auth whoami`: what RBAC lets the caller do, asked through
//! the very gate the verbs pass ([`Session::decide`](crate::guard::Session::decide), the
//! decision behind [`Session::authorize`](crate::guard::Session::authorize)), so the answer is
//! the one `get`/`patch` would get — same SelfSubjectAccessReview body, same namespace rule,
//! same `--as`/`--as-group` impersonation.
//!
//! `can-i` follows kubectl (`pkg/cmd/auth/cani.go`): `VERB TYPE [NAME]` or `VERB TYPE/NAME`,
//! `-A` asks cluster-wide, `--subresource`, `-q`; it prints `yes`, or `no` (`no - <reason>`
//! when the server gives one). It is purely RBAC, like kubectl's. Two deliberate differences:
//! - exit 3 on `no` (our "denied" code; kubectl exits 1), and an unknown TYPE is exit 2
//!   (kubectl only warns and asks anyway);
//! - a cluster-scoped TYPE is asked at cluster scope, without the namespace, because that
//!   is the request the verbs make (kubectl sends the namespace and warns).
//!
//! When RBAC says yes but plugin.yaml would refuse the plugin verb that makes that request
//! (`get` for get/list/watch, `patch` for patch), the line says so:
//! `yes (outside plugin.yaml: configmaps not in resources)`. Other RBAC verbs (create,
//! delete, …) have no plugin verb and get no note.
//!
//! Also as kubectl: `can-i impersonate users|groups|uids|userextras[/KEY]` asks about the
//! impersonation resources the API server's impersonation filter checks (users, groups in the
//! core group; uids, userextras/KEY in `authentication.k8s.io`,
//! <https://kubernetes.io/docs/reference/access-authn-authz/authentication/#user-impersonation>)
//! at cluster scope, never a custom resource that happens to have that plural; a NONRESOURCEURL
//! (`can-i get /healthz`) is a review with `nonResourceAttributes`; a TYPE outside the core group
//! is named as `plural.group` on stderr. A review that could not be made (transport error, the
//! review itself forbidden) is exit 1 with that sentence, never a "no" — `-q` included.
//!
//! `can-i --list` prints the SelfSubjectRulesReview of the namespace like kubectl (rules broken
//! down, compacted and sorted as `k8s.io/kubectl/pkg/util/rbac`, laid out by Go's tabwriter),
//! keeping only what plugin.yaml lets this plugin do (wildcards narrowed to the boundary's
//! types and verbs); one stderr line counts the rules hidden. `whoami` prints the
//! SelfSubjectReview as kubectl's `pkg/cmd/auth/whoami.go` does (table, `-o json|yaml`).
//!
//! `matrix` asks every plugin.yaml resource (plus CRDs registered by `crds sync`) × every RBAC
//! verb of the plugin's verbs, concurrently (at most 8 reviews in flight), and adds a BOUNDARY
//! column: `ok` or why plugin.yaml refuses the row, and a PROTECTED column when plugin.yaml
//! has `protect:` rules: what a change of the row's type would be asked here.
//!
//! One file per subcommand (`can_i`, `list` for `can-i --list`, `matrix`, `whoami`); `boundary`
//! maps plugin verbs to RBAC verbs and words plugin.yaml's refusals, `go_text` writes text as
//! kubectl's Go printers do.

mod boundary;
mod can_i;
mod go_text;
mod list;
mod matrix;
mod whoami;

pub use boundary::{boundary_reason, matrix_entries, matrix_verbs, plugin_verb, rbac_verbs};
pub use can_i::{
    CanITarget, MAX_URL_BYTES, NON_RESOURCE_VERBS, answer_line, check_verb_text, classify_can_i,
    impersonation_resource, parse_can_i_target, resolved_note,
};
pub use go_text::{go_list, go_tabwriter};
pub use list::{
    BoundaryType, Rule, breakdown, combine_resource_group, compact_and_sort, filter_rules,
    hidden_note, rules_cells, rules_of, rules_table,
};
pub use matrix::{MatrixPlace, MatrixRow, matrix_table, policies_cell, protected_cell};
pub use whoami::{sorted_keys, whoami_table, whoami_value};

use crate::cli::AuthCommand;
use crate::exit::ExitStatus;
use crate::output::Printer;
use crate::settings::Settings;
use crate::verbs::VerbError;

/// Runs `auth can-i`, `auth matrix` or `auth whoami`. The `Ok` value is the exit status:
/// `can-i` answers [`ExitStatus::Denied`] (3) for "no" after printing the answer, which is not
/// a failure to report.
///
/// # Errors
/// [`VerbError`]: bad arguments or unknown TYPE (2), review or API failures (1).
pub async fn run(
    s: &Settings,
    cmd: &AuthCommand,
    p: &mut Printer<'_>,
) -> Result<ExitStatus, VerbError> {
    match cmd {
        AuthCommand::CanI(a) if a.list => list::can_i_list(s, a, p)
            .await
            .map(|()| ExitStatus::Success),
        AuthCommand::CanI(a) => can_i::can_i(s, a, p).await,
        AuthCommand::Matrix(a) => matrix::matrix(s, a, p).await.map(|()| ExitStatus::Success),
        AuthCommand::Whoami(a) => whoami::whoami(s, a, p).await.map(|()| ExitStatus::Success),
    }
}

#[cfg(test)]
mod tests;
