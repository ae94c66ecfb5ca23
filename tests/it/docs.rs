//! The documentation a newcomer follows, checked by reading the tree (no cluster): every
//! relative link in README.md, CONTRIBUTING.md and docs/*.md points at a file of the
//! repository that exists — and, with `#anchor`, at a heading of that file — and the README
//! stays short enough to read in one sitting (the detail lives in docs/).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// README.md, CONTRIBUTING.md and every `docs/*.md`, in a stable order.
fn documents() -> Vec<PathBuf> {
    let r = root();
    let mut docs: Vec<PathBuf> = std::fs::read_dir(r.join("docs"))
        .map(|rd| {
            rd.map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|x| x == "md"))
                .collect()
        })
        .unwrap_or_default();
    docs.sort();
    let mut all = vec![r.join("README.md"), r.join("CONTRIBUTING.md")];
    all.extend(docs);
    all
}

/// The lines of `text` outside fenced code blocks (a fenced line becomes empty, so line
/// structure is kept).
fn outside_fences(text: &str) -> Vec<&str> {
    let mut fenced = false;
    text.lines()
        .map(|line| {
            if line.trim_start().starts_with("```") {
                fenced = !fenced;
                ""
            } else if fenced {
                ""
            } else {
                line
            }
        })
        .collect()
}

/// `text` without its fenced code blocks and inline code spans: a link shown in an example
/// is not a link.
fn prose(text: &str) -> String {
    outside_fences(text)
        .into_iter()
        .map(without_code_spans)
        .collect::<Vec<_>>()
        .join("\n")
}

/// `line` with every inline code span (a run of N backticks up to the next run of N) removed.
fn without_code_spans(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(i) = rest.find('`') {
        out.push_str(&rest[..i]);
        let after = &rest[i..];
        let n = after.len() - after.trim_start_matches('`').len();
        let ticks = &after[..n];
        let body = &after[n..];
        match body.find(ticks) {
            Some(j) => rest = &body[j + n..],
            // An unmatched run is literal text.
            None => {
                out.push_str(ticks);
                rest = body;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Every inline link target in `text`: what stands between `](` and the next `)`.
fn link_targets(text: &str) -> Vec<String> {
    let prose = prose(text);
    let mut out = Vec::new();
    let mut rest = prose.as_str();
    while let Some(i) = rest.find("](") {
        rest = &rest[i + 2..];
        let Some(end) = rest.find(')') else { break };
        out.push(rest[..end].trim().to_string());
        rest = &rest[end..];
    }
    out
}

/// A target this test checks: not a URL with a scheme (`https:`, `mailto:`, …).
fn is_relative(target: &str) -> bool {
    let scheme = target
        .split_once(':')
        .is_some_and(|(s, _)| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric()));
    !target.is_empty() && !scheme
}

/// GitHub's anchor for a heading: lowercased, every character that is not a letter, a digit,
/// `-` or `_` dropped, each space a `-` (github-slugger, which github.com uses).
fn slug(heading: &str) -> String {
    heading
        .trim()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .flat_map(char::to_lowercase)
        .collect()
}

/// The anchors of every heading of `text` (outside code blocks); a repeated heading gets
/// `-1`, `-2`, … as on GitHub.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    for line in outside_fences(text) {
        let hashes = line.len() - line.trim_start_matches('#').len();
        let Some(title) = line[hashes..].strip_prefix(' ') else {
            continue;
        };
        if !(1..=6).contains(&hashes) {
            continue;
        }
        let base = slug(title);
        let mut s = base.clone();
        let mut n = 0;
        while seen.contains(&s) {
            n += 1;
            s = format!("{base}-{n}");
        }
        seen.insert(s);
    }
    seen
}

/// Why the relative link `target` in `doc` does not resolve, if it does not.
fn broken(doc: &Path, target: &str) -> Option<String> {
    let (path, anchor) = match target.split_once('#') {
        Some((p, a)) => (p, Some(a)),
        None => (target, None),
    };
    let file = if path.is_empty() {
        doc.to_path_buf()
    } else {
        doc.parent().unwrap().join(path)
    };
    let Ok(real) = file.canonicalize() else {
        return Some(format!("{} does not exist", file.display()));
    };
    if !real.starts_with(root().canonicalize().unwrap()) {
        return Some(format!(
            "{} is outside the repository (a clone does not have it)",
            real.display()
        ));
    }
    let anchor = anchor?;
    if real.extension().is_none_or(|x| x != "md") {
        return None;
    }
    let text = std::fs::read_to_string(&real).unwrap();
    (!anchors(&text).contains(anchor)).then(|| {
        format!(
            "{} has no heading whose anchor is #{anchor}",
            real.display()
        )
    })
}

#[test]
fn every_relative_link_in_readme_and_docs_resolves() {
    let r = root();
    let mut bad = Vec::new();
    let mut checked = 0;
    for doc in documents() {
        let Ok(text) = std::fs::read_to_string(&doc) else {
            bad.push(format!("{} is missing", doc.display()));
            continue;
        };
        for target in link_targets(&text).iter().filter(|t| is_relative(t)) {
            checked += 1;
            if let Some(why) = broken(&doc, target) {
                let name = doc.strip_prefix(&r).unwrap().display();
                bad.push(format!("{name}: ({target}): {why}"));
            }
        }
    }
    assert!(
        checked > 0,
        "no relative link found: the link finder is broken"
    );
    assert!(
        bad.is_empty(),
        "{} broken relative link(s):\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// The longest README a newcomer reads before the docs/ pages.
const MAX_README_LINES: usize = 300;

#[test]
fn readme_is_at_most_300_lines() {
    let text = std::fs::read_to_string(root().join("README.md")).unwrap();
    let n = text.lines().count();
    assert!(
        n <= MAX_README_LINES,
        "README.md has {n} lines, more than {MAX_README_LINES}: move the detail to a page under docs/ and link it"
    );
}

#[test]
fn the_link_finder_and_the_slugs_read_markdown_as_github_does() {
    let text = "# plugin.yaml — the boundary\n\
                see [a](docs/a.md#x) and [`b`](b.md)\n\
                `[not](a-link.md)` and\n\
                ```\n[nor](this.md)\n```\n\
                ## Leader election (`crds watch --leader-elect`, `--metrics-addr`)\n\
                ## Leader election (`crds watch --leader-elect`, `--metrics-addr`)\n";
    assert_eq!(link_targets(text), ["docs/a.md#x", "b.md"]);
    let a = anchors(text);
    assert!(a.contains("pluginyaml--the-boundary"), "{a:?}");
    assert!(a.contains("leader-election-crds-watch---leader-elect---metrics-addr"));
    assert!(a.contains("leader-election-crds-watch---leader-elect---metrics-addr-1"));
    assert!(is_relative("../plugin.yaml") && is_relative("#exit-codes"));
    assert!(!is_relative("https://example.com") && !is_relative("mailto:a@b.c"));
}
