//! The house rules a newcomer relies on, checked by reading the tree: no source file over
//! 600 lines, and comments, help text and docs that say why in the present tense instead of
//! pointing at the issue tracker (history belongs in commit messages).

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn files(dir: &Path, ext: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, ext, out);
        } else if ext.is_empty() || p.extension().is_some_and(|x| ext.iter().any(|e| x == *e)) {
            out.push(p);
        }
    }
}

/// The largest source file a reader has to hold in their head.
const MAX_SOURCE_LINES: usize = 600;

#[test]
fn no_source_file_is_over_600_lines() {
    let mut rs = Vec::new();
    files(&root().join("src"), &["rs"], &mut rs);
    let mut big: Vec<String> = rs
        .iter()
        .filter_map(|f| {
            let n = std::fs::read_to_string(f).unwrap().lines().count();
            (n > MAX_SOURCE_LINES)
                .then(|| format!("{} ({n})", f.strip_prefix(root()).unwrap().display()))
        })
        .collect();
    big.sort();
    assert!(
        big.is_empty(),
        "source files over {MAX_SOURCE_LINES} lines (split them by concern): {big:?}"
    );
}

/// Every `issue N` (any case) in `text`, as `LINE: text`.
fn issue_citations(text: &str) -> Vec<String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| {
            let l = l.to_ascii_lowercase();
            l.match_indices("issue").any(|(i, _)| {
                let rest = &l[i + "issue".len()..];
                let rest = rest.strip_prefix('s').unwrap_or(rest);
                rest.strip_prefix(' ')
                    .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
            })
        })
        .map(|(n, l)| format!("{}: {}", n + 1, l.trim()))
        .collect()
}

#[test]
fn the_citation_finder_finds_issue_numbers_and_nothing_else() {
    assert_eq!(
        issue_citations("a\n// since Issue 15 the after"),
        ["2: // since Issue 15 the after"]
    );
    assert_eq!(issue_citations("(issues 9 and 10)").len(), 1);
    assert!(issue_citations("an issue with 3 parts; kubernetes/kubernetes#69980").is_empty());
}

#[test]
fn no_issue_numbers_in_code_help_or_docs() {
    let r = root();
    let mut all = Vec::new();
    files(&r.join("src"), &["rs"], &mut all);
    // The generated help: man/ is rendered from the clap definitions (a unit test keeps them equal).
    files(&r.join("man"), &[], &mut all);
    files(&r.join("docs"), &["md"], &mut all);
    all.push(r.join("README.md"));
    all.push(r.join("CONTRIBUTING.md"));
    let mut found = Vec::new();
    for f in all.iter().filter(|f| f.exists()) {
        let text = std::fs::read_to_string(f).unwrap();
        for c in issue_citations(&text) {
            found.push(format!("{}:{c}", f.strip_prefix(&r).unwrap().display()));
        }
    }
    assert!(
        found.is_empty(),
        "{} line(s) cite the issue tracker; say why in the present tense instead (history goes in commit messages):\n{}",
        found.len(),
        found.join("\n")
    );
}
