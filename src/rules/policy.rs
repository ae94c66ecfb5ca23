//! Field-path policies: which fields of which objects a patch may not change,
//! declared in plugin.yaml `policies:` and judged here, purely.
//!
//! A rule names a resource (`plural`, `plural.group` or `*`), optionally namespaces (globs
//! where `*` matches any run of characters), `deny` paths, optional `allow` paths that narrow
//! the deny, and the message shown on refusal. Paths are JSON Pointers (RFC 6901: `~1` is
//! `/`, `~0` is `~`, so `/metadata/annotations/example.com~1owner` names the annotation
//! `example.com/owner`) in which a segment that is exactly `*` matches any one segment (a map
//! key or a list index) and a trailing `/**` anything below.
//!
//! What "changes a path" means (the semantics every caller gets from [`denied_changes`]):
//! - A change **at or below** a matched path changes it: `deny: [/spec/replicas]` refuses a
//!   change of `/spec/replicas`, and `deny: [/data/*]` refuses a change of `/data/x` (and of
//!   anything under it). `/x/**` matches everything strictly below `/x`, not `/x` itself —
//!   adding an empty `/x` changes nothing below it.
//! - A change **above** a matched path (replacing the whole `/data` map, removing
//!   `/metadata/annotations`, a list shrinking) is judged by the matched fields beneath it:
//!   the before- and after-values of each such field are compared, and the change is refused
//!   if any of them differs. Replacing a parent is therefore never a way around a rule, and
//!   a parent replaced with an equal value for every denied field is not refused.
//! - An `allow` path narrows the rule's `deny`: a change at or below an allowed path is not
//!   refused by that rule. A change above an allowed path inside a denied one is split into
//!   its children, so only what the allow does not cover is judged.
//! - List items are compared by index (the server's answer keeps the list order), so a
//!   reorder of a list under a denied path reads as a change of the items that moved.
//!
//! Deleting is a question of its own: a rule with `delete: deny` refuses every delete of an
//! object it covers ([`forbids_delete`]); its `deny` paths judge patches only (why:
//! [`PolicyRule`]).
//!
//! The changed paths come from [`crate::rules::diff::operations`] of the before-state and the
//! object as the server would store it (a server-side dry run), which leaves the
//! server's bookkeeping (`resourceVersion`, `managedFields`, `generation`) out.
//!
//! The parts, each re-exported here: `rule` is the rule as plugin.yaml writes it, `pattern`
//! parses and matches its paths, `scope` says which rules apply to an object, `judge` finds
//! the denied changes, and `lint` is what `config validate` reports about the rules.

pub mod admission;
pub mod cel;
#[cfg(test)]
mod cel_tests;
mod judge;
mod lint;
mod pattern;
pub mod probe;
mod rule;
mod scope;
#[cfg(test)]
mod tests;

pub use judge::{Violation, denied_changes, forbids_delete};
pub use lint::{OVERLAP_BUDGET, lint};
pub use pattern::{PathPattern, join_pointer, parse_pattern, split_pointer};
pub use rule::{DeletePolicy, Exempt, PolicyRule};
pub use scope::{Compiled, applies, builtin_group, entry_names, glob_match, matching};
