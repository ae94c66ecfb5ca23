//! The layering of `src/` (issue 9, ../shared/STYLE.md "Where a guarantee lives"), checked by
//! reading the source: every `crate::…` path a file names is an edge to the module it names.
//! - no file in `src/verbs/` imports another file in `src/verbs/` (only `verbs/mod.rs`);
//! - no import cycle between files in `src/`;
//! - verbs reach the cluster only through the guarded path: no kube client, `Api`,
//!   `connect` or journal writer in `src/verbs/`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// `src/verbs/get.rs` → `verbs::get`, `src/guard/mod.rs` → `guard`, `src/lib.rs` → `crate`.
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let parts: Vec<String> = rel
        .iter()
        .map(|c| c.to_string_lossy().into_owned())
        .collect();
    let parts: Vec<&str> = parts
        .iter()
        .map(String::as_str)
        .filter(|p| *p != "mod")
        .collect();
    match parts.as_slice() {
        ["lib"] | ["main"] => "crate".into(),
        _ => parts.join("::"),
    }
}

/// The code of a file without comments and without its `#[cfg(test)] mod tests` (tests may
/// reach anywhere; a doc link is not an import).
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(i) => &text[..i],
        None => text,
    };
    text.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every `crate::a::b` path named in `text` (identifier segments only).
fn crate_paths(text: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        let mut segs = Vec::new();
        let mut cur = rest;
        loop {
            let end = cur
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(cur.len());
            if end == 0 {
                break;
            }
            segs.push(cur[..end].to_string());
            match cur[end..].strip_prefix("::") {
                Some(next) => cur = next,
                None => break,
            }
        }
        out.push(segs);
    }
    out
}

fn graph() -> (BTreeMap<String, BTreeSet<String>>, BTreeMap<String, String>) {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let modules: BTreeMap<String, PathBuf> = files
        .iter()
        .map(|f| (module_of(&src, f), f.clone()))
        .collect();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut texts = BTreeMap::new();
    for (m, f) in &modules {
        let text = std::fs::read_to_string(f).unwrap();
        let code = code(&text);
        for path in crate_paths(&code) {
            // The longest prefix that is a module file.
            let target = (1..=path.len())
                .rev()
                .map(|n| path[..n].join("::"))
                .find(|p| modules.contains_key(p));
            if let Some(t) = target
                && t != *m
            {
                edges.entry(m.clone()).or_default().insert(t);
            }
        }
        edges.entry(m.clone()).or_default();
        texts.insert(m.clone(), code);
    }
    (edges, texts)
}

#[test]
fn no_verb_file_imports_another_verb_file() {
    let (edges, _) = graph();
    let bad: Vec<String> = edges
        .iter()
        .filter(|(m, _)| m.starts_with("verbs::"))
        .flat_map(|(m, to)| {
            to.iter()
                .filter(|t| t.starts_with("verbs::"))
                .map(move |t| format!("{m} → {t}"))
        })
        .collect();
    assert!(bad.is_empty(), "verb files import each other: {bad:?}");
}

/// The first import cycle in `edges`, as a path that starts and ends at one module.
fn find_cycle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    // Depth-first search with colours (1 on the stack, 2 done).
    fn visit(
        n: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(n.to_string(), 1);
        stack.push(n.to_string());
        for t in edges.get(n).into_iter().flatten() {
            match state.get(t.as_str()).copied().unwrap_or(0) {
                1 => {
                    let i = stack.iter().position(|s| s == t).unwrap();
                    let mut cycle = stack[i..].to_vec();
                    cycle.push(t.clone());
                    return Some(cycle);
                }
                0 => {
                    if let Some(c) = visit(t, edges, state, stack) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(n.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    edges.keys().find_map(|n| {
        if state.get(n.as_str()).copied().unwrap_or(0) == 0 {
            visit(n, edges, &mut state, &mut Vec::new())
        } else {
            None
        }
    })
}

#[test]
fn the_cycle_finder_finds_the_nine_file_cycle_shape_of_issue_9() {
    let e = |pairs: &[(&str, &str)]| {
        let mut m: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (a, b) in pairs {
            m.entry(a.to_string()).or_default().insert(b.to_string());
            m.entry(b.to_string()).or_default();
        }
        m
    };
    let cyclic = e(&[
        ("cli", "completions"),
        ("completions", "verbs::changelog_cmd"),
        ("verbs::changelog_cmd", "verbs"),
        ("verbs", "verbs::rollback"),
        ("verbs::rollback", "verbs"),
        ("app", "cli"),
    ]);
    assert_eq!(
        find_cycle(&cyclic).unwrap().join(" → "),
        "verbs → verbs::rollback → verbs"
    );
    assert_eq!(find_cycle(&e(&[("a", "b"), ("b", "c"), ("a", "c")])), None);
}

#[test]
fn src_has_no_import_cycle() {
    let (edges, _) = graph();
    if let Some(c) = find_cycle(&edges) {
        panic!("import cycle in src/: {}", c.join(" → "));
    }
    // The bottom of the stack imports nothing that a command is built from.
    for low in ["cli", "settings", "config", "exit"] {
        let up: Vec<&String> = edges[low]
            .iter()
            .filter(|t| {
                ["verbs", "guard", "app", "completions", "crds"]
                    .iter()
                    .any(|h| t.starts_with(h))
            })
            .collect();
        assert!(up.is_empty(), "{low} imports a higher layer: {up:?}");
    }
}

#[test]
fn verbs_reach_the_cluster_only_through_the_guarded_path() {
    let (edges, texts) = graph();
    for (m, code) in texts.iter().filter(|(m, _)| m.starts_with("verbs")) {
        for forbidden in [
            "kube::Client",
            "kube::Api",
            "use kube::{",
            "connect(",
            ".client()",
            "Journal::open",
            "Api::<",
            "Api<",
        ] {
            assert!(
                !code.contains(forbidden),
                "{m} uses {forbidden:?}: reach the cluster through crate::guard"
            );
        }
        assert!(
            !edges[m].contains("cluster::client"),
            "{m} imports cluster::client"
        );
    }
}
