//! `changelog verify --against-cluster`: the local log checked against this workstation's
//! records in the cluster mirror, which the workstation cannot rewrite (users may only
//! create ChangeRecords: deploy/changelog/rbac.yaml).
//!
//! Every mirrored record of this MYOPS_HOME's journal (`myops.io/journal` =
//! [`changelog::journal_id`]) must be unedited ([`crate::changelog::mirror::read_back`]'s
//! problems: an admin who may update it edited it) and still be in the local retained log
//! with the same hash. A mirrored hash missing locally means the local log was changed after
//! the record was mirrored: *truncated* when the record is newer than the local log's last
//! record, *rewritten or reordered* when it falls in the middle (rewriting or moving a
//! record changes its hash and every hash after it). A record older than the oldest retained
//! record is *rotated away* and not checked — unless the local chain starts from nothing
//! (its first record's `prev` is the genesis value), which rotation never leaves: then the
//! log was *deleted and started again*. Memory: a set of the local hashes, the mirror
//! streamed page by page.

use std::collections::HashSet;

use serde_json::Value;

use crate::changelog::{self, chain};
use crate::guard::team::{MirrorError, MirrorReader, Which};
use crate::guard::{GuardError, Purpose, Session};
use crate::output::Printer;
use crate::settings::Settings;
use crate::verbs::VerbError;

/// How many failures are named one per line; the rest are counted.
const NAMED: usize = 20;

/// The local log as the check needs it: its hashes and the time span of its records.
#[derive(Debug, Default)]
pub struct Local {
    /// The hash of every chained record.
    pub hashes: HashSet<String>,
    /// The first retained record's timestamp.
    pub first: Option<String>,
    /// The last record's timestamp.
    pub last: Option<String>,
    /// The ids with a complete (outcome) record.
    pub complete: HashSet<String>,
    /// Whether the first chained record's `prev` is [`chain::GENESIS`]: the chain starts from
    /// nothing, so no rotation ever deleted older records and none can be "rotated away".
    pub from_genesis: bool,
}

impl Local {
    /// The local log's hashes and span from its retained files (pure; bad lines skipped:
    /// `changelog verify` names those).
    pub fn of(files: &chain::LogFiles) -> Local {
        let mut l = Local::default();
        for (_, bytes) in files {
            for line in bytes.split(|b| *b == b'\n') {
                let Ok(v) = serde_json::from_slice::<Value>(line) else {
                    continue;
                };
                let ts = v
                    .get("timestamp")
                    .and_then(Value::as_str)
                    .map(str::to_string);
                if l.first.is_none() {
                    l.first.clone_from(&ts);
                }
                if ts.is_some() {
                    l.last = ts;
                }
                if let Some(h) = v.get("hash").and_then(Value::as_str) {
                    if l.hashes.is_empty() {
                        l.from_genesis =
                            v.get("prev").and_then(Value::as_str) == Some(chain::GENESIS);
                    }
                    l.hashes.insert(h.to_string());
                }
                let id = v.get("id").and_then(Value::as_str);
                let result = v.get("result").and_then(Value::as_str);
                if let (Some(id), Some(r)) = (id, result)
                    && r != changelog::PENDING
                {
                    l.complete.insert(id.to_string());
                }
            }
        }
        l
    }

    /// What a mirrored record (entry `id`, its `hash` and `timestamp`) says about the local
    /// log (pure). Missing locally: *rewritten* when the log still has a complete record of
    /// that id (with another hash), *truncated* when it has none and the record is not older
    /// than the log's last record (an intent of the same time may be left), else *rewritten*
    /// (removed from the middle); older than the first retained record: rotated away.
    pub fn judge(&self, id: &str, hash: &str, timestamp: &str) -> Verdict {
        if self.hashes.contains(hash) {
            return Verdict::Present;
        }
        if self.first.as_deref().is_some_and(|f| timestamp < f) {
            // A chain that starts from nothing lost nothing to rotation: the log was
            // deleted and started again (the hostile review's wiped log passed as rotated).
            return if self.from_genesis || self.first.is_none() {
                Verdict::Restarted
            } else {
                Verdict::RotatedAway
            };
        }
        if self.complete.contains(id) {
            return Verdict::Rewritten;
        }
        if self.last.as_deref().is_none_or(|l| timestamp >= l) {
            return Verdict::Truncated;
        }
        Verdict::Rewritten
    }
}

/// One mirrored record against the local log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Its hash is a local record's.
    Present,
    /// Older than the oldest retained record: not checked.
    RotatedAway,
    /// Newer than the local log's last record, and missing: the log was truncated.
    Truncated,
    /// Within the local log's span, and missing: rewritten or reordered.
    Rewritten,
    /// Older than the local log's first record while the local chain starts from nothing
    /// (no rotation): the log was deleted and started again.
    Restarted,
}

/// Runs `changelog verify --against-cluster`.
///
/// # Errors
/// [`VerbError::ChainBroken`] (exit 1) naming the records that do not match; the mirror's
/// errors ([`MirrorError`]); the log cannot be read (exit 1).
pub async fn run(s: &Settings, p: &mut Printer<'_>) -> Result<(), VerbError> {
    if s.plugin.changelog.mirror.is_none() {
        return Err(GuardError::from(MirrorError::NotConfigured).into());
    }
    let (files, _) = changelog::read_files(&s.home).map_err(VerbError::io)?;
    let local = Local::of(&files);
    drop(files);
    let Some(journal) = changelog::journal_id(&s.home).map_err(VerbError::io)? else {
        if local.hashes.is_empty() {
            p.err_line("No change-log records and no journal id: nothing to verify.");
            return Ok(());
        }
        return Err(VerbError::ChainBroken(format!(
            "{} has no journal id ({}): nothing of this log was mirrored yet, or the file was removed; the local log cannot be checked against the cluster",
            s.home.display(),
            changelog::JOURNAL_ID_FILE
        )));
    };
    let session = Session::open(s, p, Purpose::Read).await?;
    let mut reader = MirrorReader::new(&session).map_err(GuardError::from)?;
    let (mut present, mut rotated, mut bad) = (0usize, 0usize, 0usize);
    let mut lines: Vec<String> = Vec::new();
    let name = |lines: &mut Vec<String>, bad: &mut usize, line: String| {
        *bad += 1;
        if lines.len() < NAMED {
            lines.push(line);
        }
    };
    reader
        .each(&Which::Journal(journal.clone()), |m| {
            match m {
                Err(e) => name(&mut lines, &mut bad, format!("{e}")),
                Ok(m) => {
                    if !m.problems.is_empty() {
                        name(
                            &mut lines,
                            &mut bad,
                            format!(
                                "changerecord {} (entry {}): {}",
                                m.name,
                                m.entry.id,
                                m.problems.join("; ")
                            ),
                        );
                        return true;
                    }
                    match local.judge(&m.entry.id, &m.chain.hash, &m.entry.timestamp) {
                        Verdict::Present => present += 1,
                        Verdict::RotatedAway => rotated += 1,
                        v => {
                            let what = match v {
                                Verdict::Truncated => "the local log was truncated: it comes after the local log's last complete record",
                                Verdict::Restarted => "the local log was deleted and started again: it is older than the local log's first record, and the local chain starts from nothing (no rotation removed it)",
                                _ => "the local log was rewritten or reordered: it falls within the local log, whose records around it now hash differently",
                            };
                            name(
                                &mut lines,
                                &mut bad,
                                format!(
                                    "changerecord {} (entry {}, {}, hash {}) is not in the local log: {what}",
                                    m.name,
                                    m.entry.id,
                                    m.entry.timestamp,
                                    &m.chain.hash.get(..12).unwrap_or(&m.chain.hash)
                                ),
                            );
                        }
                    }
                }
            }
            true
        })
        .await
        .map_err(GuardError::from)?;
    let rotated_note = match rotated {
        0 => String::new(),
        n => format!("; {n} older than the retained log (rotated away, not checked)"),
    };
    if bad > 0 {
        for l in &lines {
            p.err_line(&format!("mismatch: {l}"));
        }
        let more = bad.saturating_sub(lines.len());
        let more = if more > 0 {
            format!(" ({more} more not named)")
        } else {
            String::new()
        };
        return Err(VerbError::ChainBroken(format!(
            "the local change log does not match its cluster mirror: {bad} of {} mirrored record(s) of journal {journal} in namespace {} fail{more}{rotated_note}; keep the files as they are and compare them with the mirror (kubectl get changerecords -n {} -l myops.io/journal={journal})",
            present + rotated + bad,
            reader.namespace(),
            reader.namespace()
        )));
    }
    if present + rotated == 0 {
        p.err_line(&format!(
            "No records of journal {journal} in the cluster mirror (namespace {}): nothing to verify.",
            reader.namespace()
        ));
        return Ok(());
    }
    p.out(&format!(
        "ok: the cluster mirror anchors the local log: {present} mirrored record(s) of journal {journal} in namespace {} are in the local log, unedited{rotated_note}\n",
        reader.namespace()
    ))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(lines: &[(&str, &str)]) -> chain::LogFiles {
        let text: String = lines
            .iter()
            .map(|(ts, h)| {
                format!(
                    "{{\"id\":\"{h}\",\"result\":\"success\",\"timestamp\":\"{ts}\",\"hash\":\"{h}\"}}\n"
                )
            })
            .collect();
        vec![("changelog.jsonl".into(), text.into_bytes())]
    }

    #[test]
    fn a_missing_hash_is_truncation_after_the_last_record_and_a_rewrite_within() {
        let l = Local::of(&files(&[
            ("2026-12-05T01:00:00Z", "a"),
            ("2026-12-05T02:00:00Z", "b"),
        ]));
        assert_eq!(l.judge("a", "a", "2026-12-05T01:00:00Z"), Verdict::Present);
        assert_eq!(
            l.judge("x", "x", "2026-12-05T00:00:00Z"),
            Verdict::RotatedAway
        );
        assert_eq!(
            l.judge("x", "x", "2026-12-05T01:30:00Z"),
            Verdict::Rewritten
        );
        // The id is there with another hash: rewritten, even at the end.
        assert_eq!(
            l.judge("b", "x", "2026-12-05T02:00:00Z"),
            Verdict::Rewritten
        );
        assert_eq!(
            l.judge("x", "x", "2026-12-05T02:00:00Z"),
            Verdict::Truncated
        );
        assert_eq!(
            l.judge("x", "x", "2026-12-05T03:00:00Z"),
            Verdict::Truncated
        );
        assert_eq!(
            Local::of(&Vec::new()).judge("x", "x", "t"),
            Verdict::Truncated
        );
    }

    #[test]
    fn a_wiped_log_started_again_is_not_taken_for_rotation() {
        let text = format!(
            "{{\"id\":\"n\",\"result\":\"success\",\"timestamp\":\"2026-12-05T02:00:00Z\",\"prev\":\"{}\",\"hash\":\"n\"}}\n",
            chain::GENESIS
        );
        let l = Local::of(&vec![("changelog.jsonl".into(), text.into_bytes())]);
        assert!(l.from_genesis);
        assert_eq!(
            l.judge("o", "o", "2026-12-05T01:00:00Z"),
            Verdict::Restarted
        );
        let rotated = Local::of(&files(&[("2026-12-05T02:00:00Z", "n")]));
        assert_eq!(
            rotated.judge("o", "o", "2026-12-05T01:00:00Z"),
            Verdict::RotatedAway
        );
    }
}
