//! Reading a partial command line (pure, no I/O): which command the words name, which flags
//! carry which values, and what the last word is — a subcommand, a flag, a flag's value or
//! the n-th positional argument.
//!
//! The walk uses the clap definitions themselves ([`crate::cli::Cli`] after
//! [`clap::Command::build`], so global flags are known on every subcommand): a flag added
//! to `cli.rs` completes without a change here. clap cannot parse an unfinished line (a
//! missing required argument is an error), hence this small walker.

use clap::{Arg, Command};

/// What the word under the cursor is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Word {
    /// A subcommand name of the current command (it has subcommands and no positional yet).
    Subcommand,
    /// A flag name (`-…` or `--…`).
    Flag,
    /// The value of the flag with clap id `id`; `prefix` is what the word starts with before
    /// the value (`--output=` in `--output=ya`, `-o` in `-oya`, else empty).
    FlagValue {
        /// The clap id of the flag (the field name in `cli.rs`, e.g. `namespace`, `output`).
        id: String,
        /// Text before the value inside the word.
        prefix: String,
    },
    /// Positional argument number `index` (0-based) of the current command.
    Positional {
        /// 0-based position among the command's positionals.
        index: usize,
    },
}

/// A partial command line, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The subcommand path, e.g. `["auth", "can-i"]` (empty at the top level).
    pub path: Vec<String>,
    /// The positional arguments of the innermost command before the cursor.
    pub positionals: Vec<String>,
    /// Every flag before the cursor: clap id and value (`""` for a flag without a value).
    pub flags: Vec<(String, String)>,
    /// The global flags as typed (`--context`, `alice`, `-nshop`, …), to be parsed by clap
    /// into [`crate::cli::GlobalArgs`].
    pub global_words: Vec<String>,
    /// The word under the cursor, as typed (may be empty).
    pub current: String,
    /// What that word is.
    pub word: Word,
}

impl Line {
    /// The value of flag `id`, the last one given.
    pub fn flag(&self, id: &str) -> Option<&str> {
        self.flags
            .iter()
            .rev()
            .find(|(k, _)| k == id)
            .map(|(_, v)| v.as_str())
    }

    /// The path as one string, e.g. `auth can-i`.
    pub fn command(&self) -> String {
        self.path.join(" ")
    }
}

/// Finds the long flag `name` (without `--`) of `cmd`, aliases included.
fn long<'a>(cmd: &'a Command, name: &str) -> Option<&'a Arg> {
    cmd.get_arguments().find(|a| {
        a.get_long() == Some(name) || a.get_all_aliases().is_some_and(|v| v.contains(&name))
    })
}

/// Finds the short flag `c` of `cmd`.
fn short(cmd: &Command, c: char) -> Option<&Arg> {
    cmd.get_arguments().find(|a| {
        a.get_short() == Some(c) || a.get_all_short_aliases().is_some_and(|v| v.contains(&c))
    })
}

/// Whether `a` takes its value from the next word when given without `=` (not a switch, not a
/// counter, not `require_equals` like `--dry-run[=MODE]`).
fn takes_next(a: &Arg) -> bool {
    a.get_action().takes_values()
        && !a.is_require_equals_set()
        && a.get_num_args().is_none_or(|r| r.min_values() > 0)
}

/// Reads `words` (the plugin's arguments, the last one being the word under the cursor, as
/// kubectl passes them) against `root`, which must be built ([`Command::build`]).
pub fn read(root: &Command, words: &[String]) -> Line {
    let (current, before) = match words.split_last() {
        Some((cur, before)) => (cur.clone(), before),
        None => (String::new(), &[][..]),
    };
    let mut cmd = root;
    let mut line = Line {
        path: Vec::new(),
        positionals: Vec::new(),
        flags: Vec::new(),
        global_words: Vec::new(),
        current: String::new(),
        word: Word::Subcommand,
    };
    // A flag whose value is the next word.
    let mut pending: Option<&Arg> = None;
    let mut only_positionals = false;
    for w in before {
        if let Some(a) = pending.take() {
            line.flags.push((a.get_id().to_string(), w.clone()));
            if a.is_global_set() {
                line.global_words.push(w.clone());
            }
            continue;
        }
        if only_positionals || w == "-" || !w.starts_with('-') {
            match cmd.find_subcommand(w) {
                Some(sub) if !only_positionals && line.positionals.is_empty() => {
                    line.path.push(sub.get_name().to_string());
                    cmd = sub;
                }
                _ => line.positionals.push(w.clone()),
            }
            continue;
        }
        if w == "--" {
            only_positionals = true;
            continue;
        }
        let found = if let Some(rest) = w.strip_prefix("--") {
            let (name, value) = match rest.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (rest, None),
            };
            long(cmd, name).map(|a| (a, value.map(str::to_string)))
        } else {
            // `-n shop`, `-nshop`, `-n=shop`, `-Ao`, `-vv`: switches until one takes a value.
            let mut found = None;
            for (i, c) in w.char_indices().skip(1) {
                let Some(a) = short(cmd, c) else { break };
                if a.get_action().takes_values() {
                    let rest = &w[i + c.len_utf8()..];
                    let rest = rest.strip_prefix('=').unwrap_or(rest);
                    found = Some((a, (!rest.is_empty()).then(|| rest.to_string())));
                    break;
                }
                line.flags.push((a.get_id().to_string(), String::new()));
            }
            found
        };
        if let Some((a, value)) = found {
            if a.is_global_set() {
                line.global_words.push(w.clone());
            }
            match value {
                Some(v) => line.flags.push((a.get_id().to_string(), v)),
                None if takes_next(a) => pending = Some(a),
                None => line.flags.push((a.get_id().to_string(), String::new())),
            }
        } else if w.starts_with("--") {
            // An unknown long flag: record it, so `-A`-like checks see nothing wrong.
            line.flags
                .push((w.trim_start_matches('-').to_string(), String::new()));
        }
    }
    line.word = if let Some(a) = pending {
        Word::FlagValue {
            id: a.get_id().to_string(),
            prefix: String::new(),
        }
    } else if only_positionals || !current.starts_with('-') {
        let has_subs = cmd.get_subcommands().next().is_some();
        if has_subs && line.positionals.is_empty() && !only_positionals {
            Word::Subcommand
        } else {
            Word::Positional {
                index: line.positionals.len(),
            }
        }
    } else if let Some((name, _)) = current.strip_prefix("--").and_then(|r| r.split_once('=')) {
        match long(cmd, name) {
            Some(a) => Word::FlagValue {
                id: a.get_id().to_string(),
                prefix: format!("--{name}="),
            },
            None => Word::Flag,
        }
    } else if !current.starts_with("--") && current.chars().count() > 2 {
        // `-oya`: the value of a short flag glued to it.
        let c = current.chars().nth(1).unwrap_or('-');
        let eq = if current[1 + c.len_utf8()..].starts_with('=') {
            "="
        } else {
            ""
        };
        match short(cmd, c).filter(|a| a.get_action().takes_values()) {
            Some(a) => Word::FlagValue {
                id: a.get_id().to_string(),
                prefix: format!("-{c}{eq}"),
            },
            None => Word::Flag,
        }
    } else {
        Word::Flag
    };
    line.current = current;
    line
}

/// The arguments and subcommands of the command at `path` under `root`.
pub fn command_at<'a>(root: &'a Command, path: &[String]) -> &'a Command {
    path.iter()
        .fold(root, |c, name| c.find_subcommand(name).unwrap_or(c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    fn words(line: &str) -> Line {
        let mut root = crate::cli::Cli::command();
        root.build();
        let mut w: Vec<String> = line.split(' ').map(str::to_string).collect();
        if line.is_empty() {
            w = vec![String::new()];
        }
        read(&root, &w)
    }

    #[test]
    fn the_first_word_is_a_subcommand() {
        let l = words("");
        assert_eq!(l.word, Word::Subcommand);
        assert!(l.path.is_empty());
        let l = words("g");
        assert_eq!((l.word, l.current.as_str()), (Word::Subcommand, "g"));
    }

    #[test]
    fn subcommands_then_positionals() {
        let l = words("get ");
        assert_eq!(l.path, ["get"]);
        assert_eq!(l.word, Word::Positional { index: 0 });
        let l = words("get pods we");
        assert_eq!(l.positionals, ["pods"]);
        assert_eq!(l.word, Word::Positional { index: 1 });
        assert_eq!(l.current, "we");
        let l = words("auth can-i list ");
        assert_eq!(l.path, ["auth", "can-i"]);
        assert_eq!(l.word, Word::Positional { index: 1 });
        let l = words("crds ");
        assert_eq!(l.word, Word::Subcommand);
    }

    #[test]
    fn global_flags_anywhere_with_their_values() {
        let l = words("-n shop --context=alice get --kubeconfig /k pods ");
        assert_eq!(l.path, ["get"]);
        assert_eq!(l.positionals, ["pods"]);
        assert_eq!(l.flag("namespace"), Some("shop"));
        assert_eq!(l.flag("context"), Some("alice"));
        assert_eq!(l.flag("kubeconfig"), Some("/k"));
        assert_eq!(
            l.global_words,
            ["-n", "shop", "--context=alice", "--kubeconfig", "/k"]
        );
        let l = words("get -nshop -A pods ");
        assert_eq!(l.flag("namespace"), Some("shop"));
        assert_eq!(l.flag("all_namespaces"), Some(""));
        assert_eq!(l.positionals, ["pods"]);
    }

    #[test]
    fn flag_values() {
        let l = words("get pods -o ");
        assert_eq!(
            l.word,
            Word::FlagValue {
                id: "output".into(),
                prefix: String::new()
            }
        );
        let l = words("get pods --output=ya");
        assert_eq!(
            l.word,
            Word::FlagValue {
                id: "output".into(),
                prefix: "--output=".into()
            }
        );
        let l = words("get pods -oya");
        assert_eq!(
            l.word,
            Word::FlagValue {
                id: "output".into(),
                prefix: "-o".into()
            }
        );
        let l = words("--context ");
        assert_eq!(
            l.word,
            Word::FlagValue {
                id: "context".into(),
                prefix: String::new()
            }
        );
        let l = words("get -n ");
        assert_eq!(
            l.word,
            Word::FlagValue {
                id: "namespace".into(),
                prefix: String::new()
            }
        );
    }

    #[test]
    fn optional_value_flags_and_switches_do_not_eat_the_next_word() {
        // `--dry-run` takes its value only with `=`; `-A`, `-v` take none.
        let l = words("patch --dry-run deploy ");
        assert_eq!(l.positionals, ["deploy"]);
        assert_eq!(l.word, Word::Positional { index: 1 });
        let l = words("-vv get -A ");
        assert_eq!(l.word, Word::Positional { index: 0 });
        let l = words("patch deploy web --dry-run=");
        assert_eq!(
            l.word,
            Word::FlagValue {
                id: "dry_run".into(),
                prefix: "--dry-run=".into()
            }
        );
    }

    #[test]
    fn flags_and_double_dash() {
        assert_eq!(words("get --").word, Word::Flag);
        assert_eq!(words("get -").word, Word::Flag);
        assert_eq!(words("-").word, Word::Flag);
        let l = words("get -- -x");
        assert_eq!(l.word, Word::Positional { index: 0 });
    }

    #[test]
    fn command_at_walks_the_path() {
        let mut root = crate::cli::Cli::command();
        root.build();
        assert_eq!(
            command_at(&root, &["auth".into(), "can-i".into()]).get_name(),
            "can-i"
        );
        assert_eq!(command_at(&root, &[]).get_name(), "kubectl-myops");
    }
}
