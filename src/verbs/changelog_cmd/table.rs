//! What `changelog list` and `changelog show` print: the list table, the `--invalid` table,
//! and the warnings of `show`.

use crate::base::echo::capped as display_capped;
use crate::changelog::{Entry, InvalidLine, object_of};
use crate::output::table::OwnTable;

/// What `changelog list` prints in RESULT for an id whose last record is its intent.
pub const OUTCOME_UNKNOWN: &str = "outcome unknown";

/// The `changelog list --invalid` table (pure): line number and reason of each bad line.
pub fn invalid_table(invalid: &[InvalidLine]) -> OwnTable {
    let mut t = OwnTable::new(["Line", "Reason"]);
    for i in invalid {
        let line = match &i.file {
            Some(file) => format!("{file}:{}", i.line),
            None => i.line.to_string(),
        };
        t.row([line, i.reason.clone()]);
    }
    t
}

/// The stderr line `changelog show` adds for an id whose records name different objects
/// (an edited or copied log): it shows the last one, which `rollback` refuses to act on.
pub fn ambiguous_warning(e: &Entry, records: usize) -> String {
    format!(
        "warning: entry {} has {records} records that name different objects or operations (the change log was edited or holds copied lines); this is the last one, and rollback refuses the id",
        e.id
    )
}

/// The widest cell `changelog list` prints, in characters: a namespace and name of 253
/// each fit; a longer one (an edited log) is cut, like every echoed input. Every change-log
/// table (`list`, `list --from-cluster`, `why`) cuts its cells at this width.
pub const MAX_CELL: usize = 600;

/// The `changelog list` table of `entries` (pure; [`select`] chooses them). RESULT is the
/// record's result, or [`OUTCOME_UNKNOWN`] for an intent with no outcome. A last REASON
/// column (the `--reason` of each change, empty where none was given) is added when any
/// listed entry has one, so a log without reasons lists as it always has. Cells are escaped
/// and capped ([`crate::base::echo::capped`]).
pub fn list_table(entries: &[Entry]) -> OwnTable {
    let reasons = any_reason(entries);
    let mut headers = vec![
        "Id",
        "Time",
        "User",
        "Context",
        "Operation",
        "Object",
        "Result",
    ];
    if reasons {
        headers.push("Reason");
    }
    let mut t = OwnTable::new(headers);
    for e in entries {
        t.row(list_cells(e));
    }
    t
}

/// The cells of `e`'s row in [`list_table`], escaped and capped at [`MAX_CELL`] characters
/// (the REASON cell last: a table without that column drops it).
pub fn list_cells(e: &Entry) -> [String; 8] {
    let (op, result) = op_and_result(e);
    [
        e.id.clone(),
        e.timestamp.clone(),
        // A change an agent made reads `USER via mcp:CLIENT/VERSION`.
        match &e.actor {
            Some(a) => format!("{} via {a}", e.user),
            None => e.user.clone(),
        },
        e.context.clone().unwrap_or_default(),
        op,
        object_of(e),
        result,
        e.reason.clone().unwrap_or_default(),
    ]
    .map(|cell| display_capped(&cell, MAX_CELL))
}

/// Whether any of `entries` was given a `--reason` (then `changelog list` and `changelog why`
/// add a REASON column).
pub fn any_reason(entries: &[Entry]) -> bool {
    entries.iter().any(|e| e.reason.is_some())
}

/// The stderr line `changelog show` adds for an id whose outcome is unknown (pure): its last
/// record is its intent, or an outcome whose answer was lost ([`crate::changelog::LOST`]).
pub fn no_outcome_warning(e: &Entry) -> String {
    if e.result != crate::changelog::PENDING {
        return format!(
            "warning: the answer to entry {} was lost after its request was sent ({}), so {} may or may not have been changed; `kubectl myops changelog reconcile {}` reads it and records what happened",
            e.id,
            crate::base::echo::capped(&e.result, 300),
            object_of(e),
            e.id
        );
    }
    format!(
        "warning: entry {} has no outcome record: the command stopped after journaling its intent, so {} may or may not have been changed; `kubectl myops changelog reconcile {}` reads it and records what happened",
        e.id,
        object_of(e),
        e.id
    )
}

/// The operation's name as journaled (`patch`, `crd-apply`, …).
pub fn op_name(e: &Entry) -> String {
    serde_json::to_value(e.operation)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// The OPERATION and RESULT cells of an entry (pure), as every change-log table shows them:
/// `(dry run)` after a dry run's operation, `outcome unknown` for an intent alone.
pub fn op_and_result(e: &Entry) -> (String, String) {
    let op = if e.dry_run {
        format!("{} (dry run)", op_name(e))
    } else {
        op_name(e)
    };
    let result = if e.outcome_unknown() {
        OUTCOME_UNKNOWN.to_string()
    } else {
        e.result.clone()
    };
    (op, result)
}
