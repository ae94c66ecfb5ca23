//! The baselines of `drift` read from the change log in bounded memory: one walk over the
//! retained files without the object states ([`changelog::judge_lean`]), keeping per id only
//! what [`super::baselines`] asks of its last record, then the one record per object (and
//! server) that is its baseline read again whole. Memory grows with the ids and the objects
//! journaled, not with their before- and after-states.

use std::collections::{BTreeMap, HashMap, HashSet};

use super::{Baseline, group_of};
use crate::changelog::stream::{Loc, LogStream};
use crate::changelog::{self, ChangelogError, Entry, object_of};

/// An object's identity across versions: group, kind, namespace, name.
type Key = (String, String, Option<String>, String);

/// What the drift baselines need of an id's last record.
struct Last {
    /// The id.
    id: Box<str>,
    /// The API server the record was made against.
    server: Box<str>,
    /// The object.
    key: Key,
    /// `Some(true)` for a success, `Some(false)` for an unknown outcome, `None` otherwise
    /// (and for a dry run or an operation that patches no fields: never a baseline).
    counts: Option<bool>,
    /// Where the record is, to read it whole.
    loc: Loc,
}

/// What [`scan`] found.
#[derive(Debug, Default)]
pub struct Scan {
    /// Per API server, the baselines [`super::baselines`] gives for it, in its order.
    pub baselines: BTreeMap<String, Vec<Baseline>>,
    /// Every id in the log (the mirror's teammates are the others).
    pub ours: HashSet<String>,
    /// How many lines are not valid records.
    pub invalid: usize,
}

impl Scan {
    /// The baselines of the records made against `server` (pure): what
    /// [`super::baselines`] answers for the whole log and `server`.
    pub fn take(&mut self, server: &str) -> Vec<Baseline> {
        self.baselines.remove(server).unwrap_or_default()
    }
}

/// Walks the log in `home` once without the object states, then reads each baseline whole
/// (under the same shared lock).
///
/// # Errors
/// As [`changelog::read_all`].
pub fn scan(home: &std::path::Path) -> Result<Scan, ChangelogError> {
    let mut stream = LogStream::open(home)?;
    let mut slots: HashMap<Box<str>, usize> = HashMap::new();
    let mut last: Vec<Last> = Vec::new();
    let mut out = Scan::default();
    while let Some(line) = stream.next_line()? {
        let Ok(e) = changelog::judge_lean(line.raw, line.unterminated) else {
            out.invalid += 1;
            continue;
        };
        let counts = (!e.dry_run && e.operation.patches_fields())
            .then(|| {
                if e.result == changelog::SUCCESS {
                    Some(true)
                } else {
                    e.outcome_unknown().then_some(false)
                }
            })
            .flatten();
        let l = Last {
            id: e.id.clone().into_boxed_str(),
            server: e.server.into_boxed_str(),
            key: (
                group_of(&e.api_version).to_string(),
                e.kind,
                e.namespace,
                e.name,
            ),
            counts,
            loc: line.loc,
        };
        match slots.get(e.id.as_str()) {
            Some(&i) => last[i] = l,
            None => {
                slots.insert(e.id.into_boxed_str(), last.len());
                last.push(l);
            }
        }
    }
    out.ours = slots.into_keys().map(String::from).collect();
    // As `baselines`: per object, the last success in first-seen order of the ids, and the
    // id of a later record of it whose outcome is unknown.
    let mut chosen: BTreeMap<(&str, &Key), (Loc, Option<&str>)> = BTreeMap::new();
    for l in &last {
        match l.counts {
            Some(true) => {
                chosen.insert((&l.server, &l.key), (l.loc, None));
            }
            Some(false) => {
                if let Some(c) = chosen.get_mut(&(&*l.server, &l.key)) {
                    c.1 = Some(&l.id);
                }
            }
            None => {}
        }
    }
    for ((server, _), (loc, unknown_after)) in chosen {
        let raw = stream.read_at(loc)?;
        let entry = reread(&raw, &stream, loc)?;
        out.baselines
            .entry(server.to_string())
            .or_default()
            .push(Baseline {
                entry,
                unknown_after: unknown_after.map(str::to_string),
            });
    }
    for v in out.baselines.values_mut() {
        v.sort_by_key(|b| object_of(&b.entry));
    }
    Ok(out)
}

/// The record read again at `loc`, whole.
fn reread(raw: &[u8], stream: &LogStream, loc: Loc) -> Result<Entry, ChangelogError> {
    changelog::judge(raw, false).map_err(|why| ChangelogError::Read {
        path: std::path::PathBuf::from(stream.name(loc.file)),
        why: format!("it changed while it was read ({why}); run the command again"),
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::changelog::{Operation, PENDING, sample_entry};

    #[test]
    fn the_streamed_baselines_are_the_whole_log_baselines_of_each_server() {
        let d = tempfile::tempdir().unwrap();
        let mut files: [Vec<u8>; 2] = Default::default();
        let mut all = Vec::new();
        for n in 0..600usize {
            let e = Entry {
                id: format!("{:x}-1-0", n % 450),
                server: format!("https://s{}", n % 2),
                api_version: if n.is_multiple_of(3) { "apps/v1" } else { "v1" }.into(),
                kind: if n.is_multiple_of(3) {
                    "Deployment"
                } else {
                    "ConfigMap"
                }
                .into(),
                namespace: (!n.is_multiple_of(4)).then(|| "shop".into()),
                name: format!("o{}", n % 17),
                operation: [Operation::Patch, Operation::Scale, Operation::Apply][n % 3],
                dry_run: n.is_multiple_of(19),
                result: [
                    changelog::SUCCESS,
                    PENDING,
                    "denied",
                    changelog::SUCCESS,
                    PENDING,
                ][n % 5]
                    .into(),
                after: Some(json!({"n": n, "data": {"k": "v"}})),
                ..sample_entry("x")
            };
            files[n * 2 / 600]
                .extend(format!("{}\n", serde_json::to_string(&e).unwrap()).as_bytes());
            all.push(e);
        }
        files[0].extend(b"not json\n");
        std::fs::write(d.path().join("changelog.jsonl.1"), &files[0]).unwrap();
        std::fs::write(d.path().join("changelog.jsonl"), &files[1]).unwrap();
        let mut s = scan(d.path()).unwrap();
        assert_eq!(s.invalid, 1);
        assert_eq!(s.ours.len(), 450);
        for server in ["https://s0", "https://s1", "https://none"] {
            let whole = super::super::baselines(all.clone(), server);
            assert!(server == "https://none" || whole.len() > 10, "{server}");
            assert!(whole.iter().any(|b| b.unknown_after.is_some()) || server == "https://none");
            assert_eq!(s.take(server), whole, "{server}");
        }
    }
}
