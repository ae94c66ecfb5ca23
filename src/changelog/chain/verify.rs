//! Verifying the chain ([`verify`], pure): walking the retained files as one chain against
//! `changelog.head`, and naming the first place where it does not hold.

use serde_json::{Map, Value};

use super::head::{Head, HeadRead};
use super::seal::{GENESIS, hash_of, legacy_digest};
use super::tip::{Tip, tip_in};
use crate::changelog::judge_lean;
use crate::changelog::parse::lines;

/// Where a record is: the file's name and the 1-based line number, and its id when known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    /// File name (`changelog.jsonl`, `changelog.jsonl.1`, …).
    pub file: String,
    /// 1-based line number in that file.
    pub line: usize,
    /// The record's id (for an invalid line, the id its text starts with, if any).
    pub id: Option<String>,
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.id {
            Some(id) => write!(f, "{} line {} (id {id})", self.file, self.line),
            None => write!(f, "{} line {} (no readable id)", self.file, self.line),
        }
    }
}

/// What is wrong where the chain breaks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// The line is not a valid record (torn, not UTF-8, not JSON, wrong shape).
    Invalid(String),
    /// The record's content does not match its `hash`: it was edited.
    Edited,
    /// The record's `prev` is not the hash of the record before it.
    Unlinked {
        /// The record's `prev` (escaped, capped).
        prev: String,
        /// The record it should chain to, or `None` for the first record of the chain.
        after: Option<Place>,
        /// The hash it should have as `prev`.
        expected: String,
    },
    /// A record without `hash` after the chain started.
    Unhashed,
    /// `changelog.head` names a last hash that no record has: records were removed from the
    /// end (or the head file was replaced).
    Truncated {
        /// The hash `changelog.head` names (escaped, capped).
        head: String,
    },
    /// `changelog.head` is missing although the log holds chained records.
    NoHead,
    /// `changelog.head` cannot be read as a head record.
    BadHead(String),
}

/// The first place where the chain does not hold, and what is wrong there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Break {
    /// Where; for a head problem, the last record (or `None` for an empty log).
    pub place: Option<Place>,
    /// What.
    pub problem: Problem,
}

/// The first 16 characters of a hash and `…`, escaped, for sentences (the full last hash
/// is what `verify` prints when the chain holds).
fn short(h: &str) -> String {
    let head: String = h.chars().take(16).collect();
    let more = if h.chars().count() > 16 { "…" } else { "" };
    format!("{}{more}", crate::base::echo::escaped(&head))
}

impl std::fmt::Display for Break {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let at = self
            .place
            .as_ref()
            .map_or("the empty log".to_string(), ToString::to_string);
        match &self.problem {
            Problem::Invalid(why) => write!(
                f,
                "{at} is not a valid record ({why}): a torn append, or an edit"
            ),
            Problem::Edited => write!(
                f,
                "{at} does not match its hash: the record was edited after it was written"
            ),
            Problem::Unlinked {
                prev,
                after: Some(p),
                expected,
            } => write!(
                f,
                "{at} does not chain to the record before it, {p}: its prev is {}, that record's hash is {}, so a record was removed, inserted or moved here",
                short(prev),
                short(expected)
            ),
            Problem::Unlinked {
                prev,
                after: None,
                expected,
            } => {
                let what = if expected == GENESIS {
                    "the genesis value (64 zeros)".to_string()
                } else {
                    format!(
                        "{}, the last hash of the file rotation deleted (changelog.head base)",
                        short(expected)
                    )
                };
                write!(
                    f,
                    "{at} starts the chain but its prev is {}, not {what}: records were removed from the start, or this one was inserted",
                    short(prev)
                )
            }
            Problem::Unhashed => write!(
                f,
                "{at} has no hash although records before it do: it was inserted or edited"
            ),
            Problem::Truncated { head } => write!(
                f,
                "the chain ends at {at}, but changelog.head says the last record appended has hash {}, which no record has: records were removed from the end (or changelog.head was replaced)",
                short(head)
            ),
            Problem::NoHead => write!(
                f,
                "the chain ends at {at}, but changelog.head is missing: it was deleted, so whether records were removed from the end cannot be told"
            ),
            Problem::BadHead(why) => write!(f, "the chain ends at {at}, but {why}"),
        }
    }
}

/// What `changelog verify` found when the chain holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    /// Valid records read, hashed or not.
    pub records: usize,
    /// Records before the chain started (older records, which have no `hash`).
    pub unchained: usize,
    /// The files walked, oldest first.
    pub files: Vec<String>,
    /// The last record's hash ([`GENESIS`] when no record is hashed).
    pub last: String,
    /// A file skipped because it ends at `base`: rotation was interrupted after recording
    /// the new base and before deleting it.
    pub leftover: Option<String>,
    /// `changelog.head` names an earlier record than the last: a crash came between an
    /// append and its head update (nothing is missing).
    pub head_lags: bool,
}

/// Log files as [`verify`] walks them: name and bytes, oldest first.
pub type LogFiles = Vec<(String, Vec<u8>)>;

/// The first break [`verify`] found and how many more follow it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Broken {
    /// The first break.
    pub first: Break,
    /// How many breaks follow it.
    pub more: usize,
}

/// The result of [`verify`]: the summary, or the first break.
pub type Verdict = Result<Summary, Box<Broken>>;

/// Walks `files` (name and bytes, oldest first) as one chain against `head` (pure): every
/// line must be a valid record, every hashed record must match its hash and chain to the
/// one before it (the first to `head.base`, or [`GENESIS`] without a head), and the last hash
/// must be `head.head` (or an earlier record's, see [`Summary::head_lags`]). The same walk as
/// the streamed one of `changelog verify` ([`Walk`]), over bytes in memory.
pub fn verify(files: &[(String, Vec<u8>)], head: HeadRead) -> Verdict {
    let base = match &head {
        Ok(Some(h)) => h.base.clone(),
        _ => GENESIS.to_string(),
    };
    let (files, leftover) = without_leftover(files, &base);
    let mut walk = Walk::new(&head);
    for (i, (name, bytes)) in files.iter().enumerate() {
        for (line, raw, unterminated) in lines(bytes) {
            let start = raw.as_ptr() as usize - bytes.as_ptr() as usize;
            walk.line(name, i, line, raw, unterminated, start, &mut |file, end| {
                let b = &files[file].1;
                legacy_digest(&b[..end.unwrap_or(b.len())])
            });
        }
    }
    walk.finish(
        head,
        files.iter().map(|(n, _)| n.clone()).collect(),
        leftover,
    )
}

/// `files` without its oldest file when that one ends at `base` (not [`GENESIS`]): a
/// rotation interrupted after recording the new base and before deleting the file. Returns
/// the files to walk and the name of the one passed over.
fn without_leftover<'f>(
    files: &'f [(String, Vec<u8>)],
    base: &str,
) -> (&'f [(String, Vec<u8>)], Option<String>) {
    if let [first, rest @ ..] = files
        && !rest.is_empty()
        && is_leftover(&tip_in(&first.1, true), base)
    {
        return (rest, Some(first.0.clone()));
    }
    (files, None)
}

/// Whether the oldest of several files, whose last record is `tip`, is left over from an
/// interrupted rotation: it ends at `base`, and `base` is not [`GENESIS`].
pub fn is_leftover(tip: &Tip, base: &str) -> bool {
    base != GENESIS && *tip == Tip::Hashed(base.to_string())
}

/// The digest of the records before the chain ([`legacy_digest`]): of file `file` (an index
/// of the files walked) up to byte `end`, or whole for `None`.
pub type LegacyDigest<'d> = dyn FnMut(usize, Option<usize>) -> String + 'd;

/// A walk along the chain, fed one line at a time, oldest first; it holds no line and no
/// file, only the last hash and place and the first break (a log at its retention bound
/// is walked in constant memory).
pub struct Walk {
    /// The `prev` the first hashed record must have when no record precedes it.
    base: String,
    /// The last hash `changelog.head` names, if it was read.
    head: Option<String>,
    /// Whether a hashed record with the head's hash was read (before the last).
    head_seen: bool,
    /// The first break, in log order.
    first: Option<Break>,
    /// How many breaks were found.
    breaks: usize,
    /// The last hashed record: its hash and place.
    last: Option<(String, Place)>,
    /// The last valid record, hashed or not.
    last_place: Option<Place>,
    /// Valid records read.
    records: usize,
    /// Valid records before the chain started.
    unchained: usize,
    /// The file (index) holding the last record before the chain ([`legacy_digest`]).
    legacy: Option<usize>,
}

impl Walk {
    /// A walk against `changelog.head` as read (its base is where the chain starts).
    pub fn new(head: &HeadRead) -> Walk {
        let head = match head {
            Ok(h) => h.as_ref(),
            Err(_) => None,
        };
        Walk {
            base: head.map_or(GENESIS.to_string(), |h| h.base.clone()),
            head: head.map(|h| h.head.clone()),
            head_seen: false,
            first: None,
            breaks: 0,
            last: None,
            last_place: None,
            records: 0,
            unchained: 0,
            legacy: None,
        }
    }

    /// Records a break; only the first is kept, the others are counted.
    fn push(&mut self, b: Break) {
        self.breaks += 1;
        self.first.get_or_insert(b);
    }

    /// Walks one line: line `line` of file `name` (index `file` of the files walked), which
    /// starts at byte `start` of it. `digest` gives the [`legacy_digest`] of a file's start
    /// when the chain begins after records without hashes.
    #[allow(clippy::too_many_arguments)]
    pub fn line(
        &mut self,
        name: &str,
        file: usize,
        line: usize,
        raw: &[u8],
        unterminated: bool,
        start: usize,
        digest: &mut LegacyDigest<'_>,
    ) {
        let place = |id: Option<String>| Place {
            file: name.to_string(),
            line,
            id,
        };
        let entry = match judge_lean(raw, unterminated) {
            Ok(e) => e,
            Err(why) => {
                self.push(Break {
                    place: Some(place(sniff_id(raw))),
                    problem: Problem::Invalid(why),
                });
                return;
            }
        };
        let here = place(Some(entry.id));
        self.records += 1;
        self.last_place = Some(here.clone());
        let Ok(map) = crate::base::decode::from_slice::<Map<String, Value>>(raw) else {
            return; // judged valid, so it is an object; never reached
        };
        let Some(hash) = map.get("hash").and_then(Value::as_str) else {
            if self.last.is_some() {
                self.push(Break {
                    place: Some(here),
                    problem: Problem::Unhashed,
                });
            } else {
                self.unchained += 1;
                self.legacy = Some(file);
            }
            return;
        };
        let legacy_end = (self.legacy == Some(file)).then_some(start);
        self.hashed(&map, hash, here, legacy_end, digest);
    }

    /// Checks one hashed record at `here`: its content against `hash`, its `prev` against
    /// the record before it. `legacy_end` is where the record starts in its file when the
    /// records before the chain are in that same file (the digest covers only those).
    fn hashed(
        &mut self,
        map: &Map<String, Value>,
        hash: &str,
        here: Place,
        legacy_end: Option<usize>,
        digest: &mut LegacyDigest<'_>,
    ) {
        if hash_of(map) != hash {
            self.push(Break {
                place: Some(here.clone()),
                problem: Problem::Edited,
            });
        }
        let prev = map.get("prev").and_then(Value::as_str).unwrap_or("");
        let (expected, after) = match (&self.last, self.legacy) {
            (Some((h, p)), _) => (h.clone(), Some(p.clone())),
            (None, Some(file)) => (digest(file, legacy_end), None),
            (None, None) => (self.base.clone(), None),
        };
        if prev != expected {
            self.push(Break {
                place: Some(here.clone()),
                problem: Problem::Unlinked {
                    prev: crate::base::echo::capped(prev, 80),
                    after,
                    expected,
                },
            });
        }
        if self.head.as_deref() == Some(hash) {
            self.head_seen = true;
        }
        self.last = Some((hash.to_string(), here));
    }

    /// Ends the walk: checks the end of the chain against `changelog.head` (as read when
    /// the walk began) and gives the verdict over `files` (the names walked) and the
    /// `leftover` file passed over.
    pub fn finish(
        mut self,
        head: HeadRead,
        files: Vec<String>,
        leftover: Option<String>,
    ) -> Verdict {
        let (head, head_error) = match head {
            Ok(h) => (h, None),
            Err(e) => (None, Some(e)),
        };
        let head_lags = self.check_head(head.as_ref(), head_error);
        if let Some(first) = self.first {
            return Err(Box::new(Broken {
                first,
                more: self.breaks - 1,
            }));
        }
        Ok(Summary {
            records: self.records,
            unchained: self.unchained,
            files,
            last: self.last.map_or(GENESIS.to_string(), |(h, _)| h),
            leftover,
            head_lags,
        })
    }

    /// Checks the end of the chain against `changelog.head` (or why it could not be read);
    /// returns whether the head names an earlier record than the last ([`Summary::head_lags`]).
    fn check_head(&mut self, head: Option<&Head>, head_error: Option<String>) -> bool {
        let end = self
            .last
            .as_ref()
            .map(|(_, p)| p.clone())
            .or(self.last_place.clone());
        let truncated = |h: &Head| Problem::Truncated {
            head: crate::base::echo::capped(&h.head, 80),
        };
        let problem = match (head, &self.last, head_error) {
            (_, _, Some(why)) => Problem::BadHead(why),
            (None, Some(_), None) => Problem::NoHead,
            (Some(h), Some((tip, _)), None) if &h.head != tip => {
                if self.head_seen {
                    return true;
                }
                truncated(h)
            }
            (Some(h), None, None) if h.head != GENESIS && h.head != h.base => truncated(h),
            _ => return false,
        };
        self.push(Break {
            place: end,
            problem,
        });
        false
    }
}

/// The id an invalid line's text starts with (`{"id":"…"`), when it is a plausible id —
/// so a torn record is named; nothing else of the line is ever quoted.
fn sniff_id(raw: &[u8]) -> Option<String> {
    let rest = raw.strip_prefix(b"{\"id\":\"")?;
    let end = rest.iter().position(|b| *b == b'"')?;
    let id = &rest[..end];
    (!id.is_empty() && id.len() <= 64 && id.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'-'))
        .then(|| String::from_utf8_lossy(id).into_owned())
}
