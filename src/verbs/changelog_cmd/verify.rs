//! `changelog verify`: walks the retained log files oldest first as one hash
//! chain ([`crate::changelog::chain::verify`], pure) and prints one summary line, or fails
//! (exit 1) with one sentence naming the first break — file, line, id and what is wrong.
//! A bad line is a break here, not a line skipped: whoever asks for verification wants to
//! know about every irregularity, starting with the first.

use crate::changelog::{self, chain};
use crate::output::Printer;
use crate::settings::Settings;
use crate::verbs::VerbError;

/// Runs `changelog verify`.
///
/// # Errors
/// [`VerbError::ChainBroken`] (exit 1) naming the first break and how many follow;
/// [`VerbError::Io`] (exit 1) when a log file cannot be read at all.
pub fn run(s: &Settings, p: &mut Printer<'_>) -> Result<(), VerbError> {
    let summary = changelog::verify_log(&s.home)
        .map_err(VerbError::io)?
        .map_err(|b| VerbError::ChainBroken(broken(&b.first, b.more)))?;
    if summary.records == 0 {
        p.err_line("No change-log records: nothing to verify.");
        return Ok(());
    }
    p.out(&format!("{}\n", summary_line(&summary)))?;
    for note in notes(&summary) {
        p.err_line(&note);
    }
    Ok(())
}

/// The line `verify` prints when the chain holds (pure): records, files, last hash.
pub fn summary_line(s: &chain::Summary) -> String {
    let hashed = s.records - s.unchained;
    if hashed == 0 {
        return format!(
            "ok: nothing chained yet: the {} record(s) in {} were written before records were chained; the chain starts with the next change",
            s.records,
            s.files.join(", ")
        );
    }
    format!(
        "ok: the chain holds: {hashed} chained record(s) in {} file(s) ({}); last hash {}",
        s.files.len(),
        s.files.join(", "),
        s.last
    )
}

/// The `note:` lines for what holds but deserves a word (pure): records older than the
/// chain, a file left by an interrupted rotation, a head record behind the last record.
pub fn notes(s: &chain::Summary) -> Vec<String> {
    let mut out = Vec::new();
    if s.unchained > 0 && s.unchained < s.records {
        out.push(format!(
            "note: the first {} record(s) were written before records were chained (no hash) and are not covered",
            s.unchained
        ));
    }
    if let Some(f) = &s.leftover {
        out.push(format!(
            "note: {f} was skipped: a rotation stopped after recording it as deleted (its last hash is the chain's base); it can be removed"
        ));
    }
    if s.head_lags {
        out.push("note: changelog.head names an earlier record than the last one: a command stopped between appending a record and updating it (nothing is missing); the next append updates it".into());
    }
    out
}

/// The error sentence for a broken chain (pure).
pub fn broken(first: &chain::Break, more: usize) -> String {
    let more = match more {
        0 => String::new(),
        n => format!(" ({n} more break(s) after it)"),
    };
    format!(
        "the change log's hash chain is broken: {first}{more}; keep the files as they are and compare them with a backup or a last hash kept outside MYOPS_HOME"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(records: usize, unchained: usize) -> chain::Summary {
        chain::Summary {
            records,
            unchained,
            files: vec!["changelog.jsonl.1".into(), "changelog.jsonl".into()],
            last: "ab".repeat(32),
            leftover: None,
            head_lags: false,
        }
    }

    #[test]
    fn the_summary_names_records_files_and_the_last_hash_or_says_nothing_is_chained_yet() {
        assert_eq!(
            summary_line(&summary(5, 2)),
            format!(
                "ok: the chain holds: 3 chained record(s) in 2 file(s) (changelog.jsonl.1, changelog.jsonl); last hash {}",
                "ab".repeat(32)
            )
        );
        assert_eq!(
            notes(&summary(5, 2)),
            [
                "note: the first 2 record(s) were written before records were chained (no hash) and are not covered"
            ]
        );
        assert_eq!(
            summary_line(&summary(2, 2)),
            "ok: nothing chained yet: the 2 record(s) in changelog.jsonl.1, changelog.jsonl were written before records were chained; the chain starts with the next change"
        );
        assert!(notes(&summary(2, 2)).is_empty());
    }
}
