//! Man pages generated from the clap definitions with `clap_mangen` (clap's own generator):
//! one page in section 1 per command and subcommand, `kubectl-myops.1`,
//! `kubectl-myops-crds-sync.1`, …, as `git` and `cargo` name the pages of their subcommands.
//! The pages are kept in the repository's `man/` directory, like `completions/`: regenerated
//! with `scripts/package --man` (which runs `examples/man-pages.rs`, calling [`write_all`]),
//! compared with what [`pages`] renders by a unit test, and shipped in the release archive.
//!
//! The synopsis reads `kubectl myops …` (the way a krew-installed plugin is run, and how the
//! examples are written); the file names keep the binary's name, since `man` looks pages up
//! by file name. The pages carry no date, so the same CLI always renders the same bytes.

use std::path::{Path, PathBuf};

/// The repository directory that holds the generated pages.
pub const DIR: &str = "man";

/// Every page: its file name (`kubectl-myops-crds-sync.1`) and its roff text, the root first,
/// then each command before its subcommands, in definition order. Hidden commands and
/// clap's `help` subcommand get no page.
pub fn pages() -> Vec<(String, Vec<u8>)> {
    let mut cmd = crate::cli::help::command_for("kubectl myops").disable_help_subcommand(true);
    cmd.build();
    let mut out = Vec::new();
    collect(&cmd, &mut out);
    out
}

fn collect(cmd: &clap::Command, out: &mut Vec<(String, Vec<u8>)>) {
    let man = clap_mangen::Man::new(cmd.clone());
    let mut roff = Vec::new();
    // Writing into a Vec cannot fail.
    let _ = man.render(&mut roff);
    out.push((man.get_filename(), roff));
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        collect(sub, out);
    }
}

/// Writes [`pages`] into `dir` (created if missing) and removes any other `*.1` file there
/// (a page of a command the CLI does not have). Returns the paths written.
///
/// # Errors
/// The I/O error of the directory or of a file, for the caller to report.
pub fn write_all(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let pages = pages();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.ends_with(".1") && !pages.iter().any(|(n, _)| n == name) {
            std::fs::remove_file(&path)?;
        }
    }
    let mut written = Vec::new();
    for (name, roff) in pages {
        let path = dir.join(name);
        std::fs::write(&path, roff)?;
        written.push(path);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_page_per_command_named_after_its_path() {
        let names: Vec<String> = pages().into_iter().map(|(n, _)| n).collect();
        for want in [
            "kubectl-myops.1",
            "kubectl-myops-get.1",
            "kubectl-myops-rollback.1",
            "kubectl-myops-changelog-list.1",
            "kubectl-myops-crds-sync.1",
            "kubectl-myops-auth-can-i.1",
            "kubectl-myops-metrics-reset.1",
        ] {
            assert!(names.iter().any(|n| n == want), "{want} missing: {names:?}");
        }
        assert!(!names.iter().any(|n| n.contains("help")), "{names:?}");
    }

    #[test]
    fn a_page_has_the_synopsis_options_and_examples_of_its_command() {
        let (_, roff) = pages()
            .into_iter()
            .find(|(n, _)| n == "kubectl-myops-crds-sync.1")
            .unwrap();
        let text = String::from_utf8(roff).unwrap();
        assert!(text.starts_with(".ie \\n(.g .ds Aq \\(aq"), "{text}");
        assert!(text.contains(".TH kubectl-myops-crds-sync 1"), "{text}");
        assert!(text.contains("kubectl myops crds sync"), "{text}");
        assert!(text.contains("\\-\\-timeout"), "{text}");
        assert!(text.contains("Examples:"), "{text}");
    }

    /// The committed `man/` is what the current CLI renders (regenerate with
    /// `scripts/package --man`), with no page left over from a removed command.
    #[test]
    fn man_dir_holds_the_current_generated_pages() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(DIR);
        let pages = pages();
        for (name, roff) in &pages {
            let have = std::fs::read(dir.join(name)).unwrap_or_default();
            assert!(
                have == *roff,
                "man/{name} is stale (or missing): regenerate man/ with `scripts/package --man`"
            );
        }
        let extra: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| !pages.iter().any(|(p, _)| p == n))
            .collect();
        assert!(
            extra.is_empty(),
            "man/ has pages of no command: {extra:?}; regenerate with `scripts/package --man`"
        );
    }
}
