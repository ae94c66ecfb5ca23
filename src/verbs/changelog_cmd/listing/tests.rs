use serde_json::json;

use super::*;
use crate::changelog::{Operation, PENDING};
use crate::output::to_json;
use crate::verbs::changelog_cmd::table::MAX_CELL;
use crate::verbs::changelog_cmd::{list_table, select};

/// A record of id `n` in the log written by [`write_log`].
fn record(n: usize, result: &str) -> Entry {
    let name = match n % 7 {
        0 => format!("名前-{n}"),
        1 => format!("web\u{1b}[31m-{n}"),
        _ => format!("web-{n}"),
    };
    Entry {
        id: format!("{n:x}-1-0"),
        session: format!("s{}", n % 3),
        timestamp: format!("2026-11-30T08:{:02}:00Z", n % 60),
        context: (!n.is_multiple_of(4)).then(|| format!("ctx-{}", n % 4)),
        kind: if n.is_multiple_of(2) {
            "ConfigMap"
        } else {
            "Pod"
        }
        .into(),
        namespace: (!n.is_multiple_of(5)).then(|| "shop".to_string()),
        name,
        operation: if n.is_multiple_of(3) {
            Operation::Patch
        } else {
            Operation::Apply
        },
        dry_run: n.is_multiple_of(11),
        reason: (n.is_multiple_of(13)).then(|| format!("ticket {n}\nsecond line")),
        before: Some(json!({"metadata": {"name": n}, "data": {"k": "v".repeat(n % 50)}})),
        after: (result != PENDING).then(|| json!({"data": {"k": "w"}})),
        result: result.into(),
        ..crate::changelog::sample_entry("x")
    }
}

/// A log over three files (two rotated): ids whose intent and outcome are in different
/// files, intents without outcomes, bad lines, and the widest cell in the last batch.
fn write_log(home: &std::path::Path, ids: usize) {
    let mut files: [Vec<u8>; 3] = Default::default();
    for n in 0..ids {
        let file = n * 3 / ids;
        let line = |e: &Entry| format!("{}\n", serde_json::to_string(e).unwrap());
        files[file].extend(line(&record(n, PENDING)).as_bytes());
        if n % 10 != 9 {
            let mut done = record(
                n,
                if n.is_multiple_of(6) {
                    "denied"
                } else {
                    "success"
                },
            );
            if n + 1 == ids {
                done.name = "w".repeat(700);
            }
            files[(file + usize::from(n.is_multiple_of(5))).min(2)].extend(line(&done).as_bytes());
        }
        if n.is_multiple_of(997) {
            files[file].extend(b"not json\n{\"id\":\"torn");
            files[file].push(b'\n');
        }
    }
    files[2].extend(b"{\"id\":\"last-torn\"");
    for (name, bytes) in ["changelog.jsonl.2", "changelog.jsonl.1", "changelog.jsonl"]
        .iter()
        .zip(files)
    {
        std::fs::write(home.join(name), bytes).unwrap();
    }
}

/// What the whole-log path printed (stdout, stderr) for these arguments: `read_all`, then
/// `select` and `list_table` / `to_json` / `to_yaml`, as `changelog list` did before it
/// streamed.
fn whole(home: &std::path::Path, ctx: Option<&str>, a: &ListArgs<'_>) -> (String, String) {
    let (entries, invalid) = changelog::read_all(home).unwrap();
    let mut err = String::new();
    if a.invalid {
        return (invalid_table(&invalid).render(false), err);
    }
    if !invalid.is_empty() {
        err = format!(
            "{}\n",
            crate::output::for_terminal(&changelog::skipped_warning(
                invalid.len(),
                &changelog::path(home)
            ))
        );
    }
    let f = ListFilter {
        cutoff: None,
        object: a.object,
        session: a.session,
        context: ctx,
        user: None,
        operation: a.operation,
        result: a.result,
        actor: None,
    };
    let selected = select(entries, &f);
    let out = match a.output {
        Some(ListFormat::Json) => to_json(&selected).unwrap(),
        Some(ListFormat::Yaml) => to_yaml(&selected).unwrap(),
        None if selected.is_empty() => {
            err.push_str("No change-log entries.\n");
            String::new()
        }
        None => list_table(&selected).render(false),
    };
    (out, err)
}

/// What the streamed `changelog list` prints.
fn streamed(home: &std::path::Path, ctx: Option<&str>, a: &ListArgs<'_>) -> (String, String) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let mut p = Printer::new(&mut out, &mut err);
    list(home, ctx, None, a, &mut p).unwrap();
    (
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

fn args() -> ListArgs<'static> {
    ListArgs {
        since: None,
        object: None,
        session: None,
        operation: None,
        result: None,
        actor: None,
        output: None,
        invalid: false,
    }
}

#[test]
fn the_streamed_list_prints_byte_for_byte_what_the_whole_log_list_printed() {
    let d = tempfile::tempdir().unwrap();
    write_log(d.path(), 4500);
    let cases: Vec<(Option<&str>, ListArgs<'static>)> = vec![
        (None, args()),
        (
            None,
            ListArgs {
                output: Some(ListFormat::Json),
                ..args()
            },
        ),
        (
            None,
            ListArgs {
                output: Some(ListFormat::Yaml),
                session: Some("s1"),
                ..args()
            },
        ),
        (
            Some("ctx-2"),
            ListArgs {
                result: Some(ResultFilter::Unknown),
                ..args()
            },
        ),
        (
            None,
            ListArgs {
                object: Some("configmap/shop/web-2"),
                operation: Some("apply"),
                ..args()
            },
        ),
        // No reason among the listed rows: no REASON column.
        (
            None,
            ListArgs {
                session: Some("s2"),
                result: Some(ResultFilter::Failure),
                ..args()
            },
        ),
        (
            None,
            ListArgs {
                object: Some("nothing"),
                ..args()
            },
        ),
        (
            None,
            ListArgs {
                object: Some("nothing"),
                output: Some(ListFormat::Json),
                ..args()
            },
        ),
        (
            None,
            ListArgs {
                object: Some("nothing"),
                output: Some(ListFormat::Yaml),
                ..args()
            },
        ),
        (
            None,
            ListArgs {
                invalid: true,
                ..args()
            },
        ),
    ];
    for (i, (ctx, a)) in cases.iter().enumerate() {
        let (want, got) = (whole(d.path(), *ctx, a), streamed(d.path(), *ctx, a));
        assert!(want == got, "case {i}: the outputs differ");
        assert!(!(want.0.is_empty() && want.1.is_empty()), "case {i}");
    }
    // Only rotated files (the active one not written yet): their bad lines name their file.
    std::fs::remove_file(d.path().join("changelog.jsonl")).unwrap();
    for a in [
        args(),
        ListArgs {
            invalid: true,
            ..args()
        },
    ] {
        assert!(whole(d.path(), None, &a) == streamed(d.path(), None, &a));
    }
    write_log(d.path(), 4500);
    let (table, _) = streamed(d.path(), None, &args());
    assert!(table.lines().count() > 2 * BATCH, "more than two batches");
    assert!(table.contains("REASON"));
}

#[test]
fn the_streamed_list_keeps_no_object_state() {
    // What is kept per id is the row's text and a place in the file, never the record: the
    // memory of a listing grows with the printed cells, not with the objects journaled.
    let d = tempfile::tempdir().unwrap();
    write_log(d.path(), 300);
    let mut stream = LogStream::open(d.path()).unwrap();
    let walked = walk(&mut stream, &ListFilter::default(), true, "changelog.jsonl").unwrap();
    let rows: Vec<&Row> = walked.rows.iter().flatten().collect();
    assert_eq!(rows.len(), 300);
    let widest = rows.iter().map(|r| r.cells.len()).max().unwrap();
    assert!(widest <= 8 * (MAX_CELL + 30), "{widest}");
    assert!(rows.iter().all(|r| !r.cells.contains("metadata")));
    assert_eq!(std::mem::size_of::<Row>(), 40);
}

/// stdout that, when written to, checks whether a writer could take the log's lock now.
struct LockProbe {
    lock: std::path::PathBuf,
    writes: usize,
    locked_out: usize,
}

impl std::io::Write for LockProbe {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open(&self.lock)
            .unwrap();
        self.writes += 1;
        if f.try_lock().is_err() {
            self.locked_out += 1;
        }
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_listing_printing_into_a_slow_pipe_does_not_hold_back_the_writers() {
    let d = tempfile::tempdir().unwrap();
    write_log(d.path(), 300);
    let lock = d.path().join("changelog.lock");
    std::fs::write(&lock, "").unwrap();
    for output in [None, Some(ListFormat::Json), Some(ListFormat::Yaml)] {
        let mut out = LockProbe {
            lock: lock.clone(),
            writes: 0,
            locked_out: 0,
        };
        let mut err = Vec::new();
        let mut p = Printer::new(&mut out, &mut err);
        let a = ListArgs { output, ..args() };
        list(d.path(), None, None, &a, &mut p).unwrap();
        assert!(out.writes > 0);
        assert_eq!(
            out.locked_out, 0,
            "{output:?}: the lock was held while printing"
        );
    }
}
