//! Running clap over argv: the name the usage lines show, and clap's errors as one line.
//!
//! Usage lines: run by kubectl as a plugin (`kubectl myops …`), the program is still
//! `kubectl-myops` in argv[0], so clap would print `Usage: kubectl-myops get …`, which is not
//! what the user typed. kubectl 1.37+ sets `KUBECTL_PATH` (the kubectl executable) in every
//! plugin's environment (`k8s.io/kubectl/pkg/cmd/plugin.go`, `pluginEnvironment`, kubernetes
//! PR 138694); kubectl 1.36 sets nothing (it `exec`s the plugin with its own environment, the
//! process keeps no trace of kubectl), so there the shell's `_` is read instead: bash and zsh
//! put the path of the command they run in `_`, which a plugin started by `kubectl myops` in
//! such a shell inherits (`…/kubectl`). [`usage_name`] reads both.

use std::ffi::OsStr;

/// The name usage lines start with: `kubectl myops` when kubectl ran the plugin — the
/// environment's `KUBECTL_PATH` is set, or its `_` names an executable called `kubectl` (see
/// the module doc) — else the binary's own name, `kubectl-myops` (run directly).
pub fn usage_name(kubectl_path: Option<&OsStr>, underscore: Option<&OsStr>) -> &'static str {
    let by_shell = underscore
        .and_then(|u| std::path::Path::new(u).file_name())
        .is_some_and(|n| n == "kubectl");
    match kubectl_path {
        Some(p) if !p.is_empty() => "kubectl myops",
        _ if by_shell => "kubectl myops",
        _ => super::BIN,
    }
}

/// The whole command tree with usage lines named `name` ([`usage_name`]; clap derives every
/// subcommand's usage from the root's `bin_name`).
pub fn command_for(name: &str) -> clap::Command {
    use clap::CommandFactory;
    super::Cli::command().bin_name(name.to_string())
}

/// Parses the process's argv with usage lines named for how it was run ([`usage_name`] of
/// the environment's `KUBECTL_PATH` and `_`); the one place that reads them.
///
/// # Errors
/// clap's error for bad arguments, and its early exits (`--help`, `--version`), for the
/// caller to print.
pub fn try_parse() -> Result<super::Cli, clap::Error> {
    use clap::FromArgMatches;
    let path = std::env::var_os("KUBECTL_PATH");
    let underscore = std::env::var_os("_");
    let name = usage_name(path.as_deref(), underscore.as_deref());
    let matches = command_for(name).try_get_matches()?;
    let mut cli = super::Cli::from_arg_matches(&matches)?;
    cli.command_path = command_path(&matches);
    Ok(cli)
}

/// The names of the subcommands clap matched, outermost first, joined by spaces (`patch`,
/// `crds watch`, `changelog show`): the command path kubectl sends as `Kubectl-Command`
/// (KEP-859, `k8s.io/kubectl/pkg/cmd/cmd.go`: the command path only — never arguments or
/// flag values, which may hold secrets). An alias reads as the subcommand's own name (clap
/// records the name, not what was typed). `None` without a subcommand.
pub fn command_path(matches: &clap::ArgMatches) -> Option<String> {
    let mut names = Vec::new();
    let mut at = matches;
    while let Some((name, sub)) = at.subcommand() {
        names.push(name.to_string());
        at = sub;
    }
    (!names.is_empty()).then(|| names.join(" "))
}

/// clap's usage error (several lines: the error, a blank line, `tip:` lines, `Usage:`, "For
/// more information…") as one line: `error: …; tip; usage: …` — every error of this tool is
/// one sentence on one line (docs/design.md, "Exit codes"), and a script reading stderr sees
/// it whole.
pub fn one_line_usage_error(rendered: &str) -> String {
    let parts: Vec<String> = rendered
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("For more information"))
        .map(|l| {
            l.strip_prefix("tip: ")
                .map(str::to_string)
                .or_else(|| l.strip_prefix("Usage: ").map(|u| format!("usage: {u}")))
                .unwrap_or_else(|| l.to_string())
        })
        .collect();
    if parts.is_empty() {
        return "error: invalid arguments; see --help".into();
    }
    let mut line = parts[0].clone();
    for p in &parts[1..] {
        line.push_str(if line.ends_with(':') { " " } else { "; " });
        line.push_str(p);
    }
    line
}

/// The message of a bad `-o` value, worded as clap's own usage error (`invalid value 'V' for
/// '--output <OUTPUT>': REASON`), the value escaped and capped: what the `-o` parser reports,
/// and what [`crate::settings::load_template_files`] reports for a template file.
pub fn output_value_error(value: &str, reason: &str) -> String {
    crate::base::echo::capped(
        &format!(
            "invalid value '{}' for '--output <OUTPUT>': {reason}",
            crate::base::echo::capped(value, 100)
        ),
        2000,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_path_names_the_subcommands_never_their_arguments() {
        let path = |argv: &[&str]| {
            let m = command_for("kubectl-myops")
                .try_get_matches_from(argv)
                .unwrap();
            command_path(&m)
        };
        assert_eq!(
            path(&[
                "kubectl-myops",
                "patch",
                "cm/x",
                "-p",
                "{\"data\":{\"password\":\"s3cret\"}}",
                "--token",
                "t0k"
            ])
            .as_deref(),
            Some("patch")
        );
        assert_eq!(
            path(&["kubectl-myops", "changelog", "show", "abc"]).as_deref(),
            Some("changelog show")
        );
        assert_eq!(
            path(&["kubectl-myops", "-n", "x", "crds", "watch", "dir"]).as_deref(),
            Some("crds watch")
        );
    }

    #[test]
    fn a_clap_usage_error_block_becomes_one_line() {
        let block = "error: unexpected argument '--bogus' found\n\n  tip: to pass '--bogus' as a value, use '-- --bogus'\n\nUsage: kubectl-myops get <TYPE[/NAME]>...\n\nFor more information, try '--help'.\n";
        assert_eq!(
            one_line_usage_error(block),
            "error: unexpected argument '--bogus' found; to pass '--bogus' as a value, use '-- --bogus'; usage: kubectl-myops get <TYPE[/NAME]>..."
        );
        let missing = "error: the following required arguments were not provided:\n  <TYPE[/NAME]>...\n\nUsage: kubectl-myops get <TYPE[/NAME]>...\n";
        assert_eq!(
            one_line_usage_error(missing),
            "error: the following required arguments were not provided: <TYPE[/NAME]>...; usage: kubectl-myops get <TYPE[/NAME]>..."
        );
        assert_eq!(
            one_line_usage_error(""),
            "error: invalid arguments; see --help"
        );
    }

    #[test]
    fn usage_lines_read_kubectl_myops_when_kubectl_runs_the_plugin() {
        let o = |s: &'static str| Some(OsStr::new(s));
        assert_eq!(usage_name(None, None), "kubectl-myops");
        assert_eq!(usage_name(o(""), None), "kubectl-myops");
        assert_eq!(
            usage_name(o("/usr/local/bin/kubectl"), None),
            "kubectl myops"
        );
        assert_eq!(usage_name(None, o("/usr/bin/kubectl")), "kubectl myops");
        assert_eq!(
            usage_name(None, o("/opt/bin/kubectl-myops")),
            "kubectl-myops"
        );
        assert_eq!(
            usage_name(None, o("/usr/bin/kubectl.real")),
            "kubectl-myops"
        );
        let help = command_for("kubectl myops")
            .try_get_matches_from(["kubectl-myops", "crds", "sync", "--help"])
            .expect_err("--help is an early exit")
            .render()
            .to_string();
        assert!(
            help.contains("Usage: kubectl myops crds sync [OPTIONS] [DIR]"),
            "{help}"
        );
        let mut direct = command_for(crate::cli::BIN);
        let usage = direct.render_usage().to_string();
        assert!(
            usage.starts_with("Usage: kubectl-myops [OPTIONS] <COMMAND>"),
            "{usage}"
        );
    }
}
