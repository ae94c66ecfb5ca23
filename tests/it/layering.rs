//! The layering of `src/`, checked by reading the source (docs/design.md "Layers").
//! Every `crate::…`, `super::…` and `self::…` path a file names is an edge to the module
//! file it names (grouped imports `super::{a, b::C}` are followed into each branch):
//! - no file in `src/verbs/` imports another verb's files (a verb's own sub-files are fine);
//! - no import cycle between files in `src/`;
//! - every top-level module sits in one layer of the order declared in docs/design.md, and no
//!   file imports a module of a higher layer;
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

/// The segments of an identifier path starting at `text` (`a::b::c`), and the rest of the text
/// after it; a `{…}` group at the end is returned as its comma-separated branches.
fn path_at(text: &str) -> (Vec<String>, Vec<String>) {
    let mut segs = Vec::new();
    let mut cur = text;
    loop {
        if let Some(group) = cur.strip_prefix('{') {
            return (segs, branches(group));
        }
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
    (segs, Vec::new())
}

/// The top-level comma-separated branches of a use group whose `{` was just consumed.
fn branches(text: &str) -> Vec<String> {
    let mut depth = 0usize;
    let mut out = vec![String::new()];
    for c in text.chars() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(String::new());
                continue;
            }
            _ => {}
        }
        out.last_mut().unwrap().push(c);
    }
    out.into_iter()
        .map(|b| b.split_whitespace().collect::<String>())
        .filter(|b| !b.is_empty())
        .collect()
}

/// Every module path (absolute, from the crate root) named in the code of module `m` through
/// `crate::`, `super::` or `self::`, grouped imports expanded.
fn module_paths(m: &str, text: &str) -> Vec<Vec<String>> {
    let here: Vec<String> = if m == "crate" {
        Vec::new()
    } else {
        m.split("::").map(str::to_string).collect()
    };
    let mut out = Vec::new();
    for (i, _) in text.match_indices("::") {
        let before = &text[..i];
        let word_start = before
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(0, |j| j + 1);
        let word = &before[word_start..];
        // Only the first segment of a path: `a::super::b` is not a thing, `x::crate` neither.
        if before[..word_start].ends_with("::") {
            continue;
        }
        let mut base = match word {
            "crate" => Vec::new(),
            "self" => here.clone(),
            "super" => here[..here.len().saturating_sub(1)].to_vec(),
            _ => continue,
        };
        let (mut segs, groups) = path_at(&text[i + 2..]);
        while segs.first().is_some_and(|s| s == "super") {
            segs.remove(0);
            base.pop();
        }
        base.extend(segs);
        if groups.is_empty() {
            out.push(base.clone());
        }
        for g in groups {
            let (more, _) = path_at(&g);
            let mut p = base.clone();
            p.extend(more.into_iter().filter(|s| s != "self"));
            out.push(p);
        }
    }
    out
}

fn graph() -> (BTreeMap<String, BTreeSet<String>>, BTreeMap<String, String>) {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    // src/bin/ and src/main.rs are crates of their own (binaries over the library).
    files.retain(|f| !f.starts_with(src.join("bin")) && !f.ends_with("main.rs"));
    let modules: BTreeMap<String, PathBuf> = files
        .iter()
        .map(|f| (module_of(&src, f), f.clone()))
        .collect();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut texts = BTreeMap::new();
    for (m, f) in &modules {
        let text = std::fs::read_to_string(f).unwrap();
        let code = code(&text);
        for path in module_paths(m, &code) {
            // The longest prefix that is a module file (none: the crate root).
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

/// `verbs::auth::matrix` → `auth`: the verb a file of `src/verbs/` belongs to.
fn verb_of(m: &str) -> &str {
    m.split("::").nth(1).unwrap_or("")
}

#[test]
fn no_verb_file_imports_another_verb_file() {
    let (edges, _) = graph();
    let bad: Vec<String> = edges
        .iter()
        .filter(|(m, _)| m.starts_with("verbs::"))
        .flat_map(|(m, to)| {
            to.iter()
                .filter(|t| t.starts_with("verbs::") && verb_of(t) != verb_of(m))
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

/// Every import cycle of `edges`, each as a path that starts and ends at one module: found one
/// at a time, the edge that closes each removed before looking for the next.
fn all_cycles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let mut edges = edges.clone();
    let mut out = Vec::new();
    while let Some(c) = find_cycle(&edges) {
        out.push(c.join(" → "));
        let (a, b) = (&c[c.len() - 2], &c[c.len() - 1]);
        edges.get_mut(a).unwrap().remove(b);
    }
    out
}

#[test]
fn src_has_no_import_cycle() {
    let (edges, _) = graph();
    let cycles = all_cycles(&edges);
    assert!(
        cycles.is_empty(),
        "import cycles in src/:\n{}",
        cycles.join("\n")
    );
}

/// The layer order docs/design.md declares: its one ```` ```layers ```` block, one layer per
/// line, bottom first (`1: exit base`), as top-level module → layer number.
fn declared_layers() -> BTreeMap<String, usize> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/design.md");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (the design doc declares the layers)",
            path.display()
        )
    });
    let block = text
        .split("```layers\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("docs/design.md has a ```layers block");
    let mut layers = BTreeMap::new();
    for line in block.lines().filter(|l| !l.trim().is_empty()) {
        let (n, modules) = line.split_once(':').expect("a layer line is `N: module …`");
        let n: usize = n.trim().parse().expect("a layer number");
        for m in modules.split_whitespace() {
            assert!(
                layers.insert(m.to_string(), n).is_none(),
                "{m} is declared in two layers"
            );
        }
    }
    layers
}

/// The edges of `edges` that break `layers`: into a higher layer, or from or to a top-level
/// module no layer declares (the crate root, `crate`, is above every layer).
fn layer_violations(
    edges: &BTreeMap<String, BTreeSet<String>>,
    layers: &BTreeMap<String, usize>,
) -> Vec<String> {
    let top = |m: &str| m.split("::").next().unwrap_or(m).to_string();
    let mut bad = BTreeSet::new();
    for (from, tos) in edges.iter().filter(|(m, _)| *m != "crate") {
        let Some(&lf) = layers.get(&top(from)) else {
            bad.insert(format!("{from} is in no layer of docs/design.md"));
            continue;
        };
        for to in tos.iter().filter(|t| *t != "crate") {
            match layers.get(&top(to)) {
                None => {
                    bad.insert(format!("{to} is in no layer of docs/design.md"));
                }
                Some(&lt) if lt > lf => {
                    bad.insert(format!(
                        "{from} (layer {lf}) → {to} (layer {lt}): an import into a higher layer"
                    ));
                }
                Some(_) => {}
            }
        }
    }
    bad.into_iter().collect()
}

#[test]
fn the_layer_check_finds_upward_imports_and_undeclared_modules() {
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    edges
        .entry("cluster::client".into())
        .or_default()
        .insert("settings".into());
    edges
        .entry("settings".into())
        .or_default()
        .insert("cluster::in_cluster".into());
    edges.entry("echo".into()).or_default();
    let layers: BTreeMap<String, usize> =
        [("cluster".to_string(), 4), ("settings".to_string(), 8)].into();
    assert_eq!(
        layer_violations(&edges, &layers),
        [
            "cluster::client (layer 4) → settings (layer 8): an import into a higher layer",
            "echo is in no layer of docs/design.md",
        ]
    );
}

#[test]
fn the_path_reader_follows_super_self_and_groups() {
    let paths = module_paths(
        "guard::session",
        "use super::{GuardError, deadline::{Deadlines, bounded}};\nuse self::x::Y;\nlet a = crate::cli::DryRun::None; b::super::c",
    );
    let joined: Vec<String> = paths.iter().map(|p| p.join("::")).collect();
    assert_eq!(
        joined,
        [
            "guard::GuardError",
            "guard::deadline",
            "guard::session::x::Y",
            "cli::DryRun::None"
        ]
    );
}

#[test]
fn every_module_sits_in_a_declared_layer_and_imports_only_downward() {
    let (edges, _) = graph();
    let bad = layer_violations(&edges, &declared_layers());
    assert!(
        bad.is_empty(),
        "{} layering violation(s) (docs/design.md \"Layers\"):\n{}",
        bad.len(),
        bad.join("\n")
    );
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
