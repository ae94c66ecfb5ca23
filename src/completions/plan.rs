//! What to offer for a read command line (pure): the candidates known from the clap
//! definitions alone — subcommands, flags, enumerated values such as `-o` — and, for the
//! rest, which lookup is needed (contexts, namespaces, resource types, object names, change
//! log ids). [`super::sources`] does the lookups; keeping the decision here makes it
//! unit-testable without a cluster.

use clap::{Arg, Command, ValueHint};

use super::directive;
use super::reply::Candidate;
use super::words::{Line, Word, command_at};
use crate::config::Verb;

/// RBAC verbs offered for `auth can-i VERB`: the list `auth can-i` itself knows.
pub use crate::guard::authz::KNOWN_VERBS as RBAC_VERBS;

/// A lookup the candidates need beyond the clap definitions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Need {
    /// Nothing to look up.
    Nothing,
    /// kubeconfig context names.
    Contexts,
    /// kubeconfig cluster names.
    Clusters,
    /// kubeconfig user names.
    Users,
    /// Namespaces (the server's, and those the kubeconfig's contexts name).
    Namespaces,
    /// Resource types; with `Some(verb)` only those the plugin.yaml boundary (plus the CRD
    /// registry) allows for that verb, with `None` every served type (`auth can-i`).
    Types {
        /// The plugin verb the type is for.
        verb: Option<Verb>,
    },
    /// Names of objects of `type_name` (as typed: `pods`, `deploy`, `bj.example.com`).
    Names {
        /// TYPE as typed.
        type_name: String,
        /// The plugin verb the names are for (`patch` also needs `get` to list them).
        verb: Verb,
        /// Names already on the line.
        exclude: Vec<String>,
    },
    /// Change-log entry ids, newest first.
    ChangelogIds,
}

/// What to offer: fixed candidates, a lookup, and the shell directive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// Candidates known without a lookup (full words, prefix included).
    pub candidates: Vec<Candidate>,
    /// The lookup for the rest.
    pub need: Need,
    /// Text every looked-up value is prefixed with to form the word (`--namespace=`, `pods/`, `pods,`).
    pub prefix: String,
    /// The cobra ShellCompDirective.
    pub directive: u32,
}

impl Plan {
    fn fixed(candidates: Vec<Candidate>, directive: u32) -> Plan {
        Plan {
            candidates,
            need: Need::Nothing,
            prefix: String::new(),
            directive,
        }
    }

    fn need(need: Need, prefix: impl Into<String>, directive: u32) -> Plan {
        Plan {
            candidates: Vec::new(),
            need,
            prefix: prefix.into(),
            directive,
        }
    }
}

/// The first line of a help text, without a trailing period.
fn summary(help: Option<String>) -> Option<String> {
    help.and_then(|h| {
        h.lines()
            .next()
            .map(|l| l.trim().trim_end_matches('.').to_string())
    })
    .filter(|h| !h.is_empty())
}

fn flag_candidates(cmd: &Command) -> Vec<Candidate> {
    let mut out = Vec::new();
    for a in cmd
        .get_arguments()
        .filter(|a| !a.is_positional() && !a.is_hide_set())
    {
        let help = summary(a.get_help().map(|h| h.to_string()));
        if let Some(l) = a.get_long() {
            out.push(Candidate::new(format!("--{l}"), help.clone()));
        }
        if let Some(s) = a.get_short() {
            out.push(Candidate::new(format!("-{s}"), help));
        }
    }
    out
}

fn possible_values(a: &Arg, prefix: &str) -> Vec<Candidate> {
    a.get_possible_values()
        .iter()
        .filter(|v| !v.is_hide_set())
        .map(|v| {
            Candidate::new(
                format!("{prefix}{}", v.get_name()),
                summary(v.get_help().map(|h| h.to_string())),
            )
        })
        .collect()
}

/// Files or directories for a path-valued argument, nothing for the others.
fn by_hint(a: Option<&Arg>) -> Plan {
    match a.map(Arg::get_value_hint) {
        Some(ValueHint::DirPath) => Plan::fixed(Vec::new(), directive::FILTER_DIRS),
        Some(ValueHint::AnyPath | ValueHint::FilePath) => {
            Plan::fixed(Vec::new(), directive::DEFAULT)
        }
        _ => Plan::fixed(Vec::new(), directive::NO_FILE_COMP),
    }
}

/// TYPE, `TYPE/NAME` or `TYPE,TYPE` at the TYPE position.
fn type_word(current: &str, verb: Option<Verb>) -> Plan {
    if let Some((t, _)) = current.split_once('/') {
        return Plan::need(
            Need::Names {
                type_name: t.to_string(),
                verb: verb.unwrap_or(Verb::Get),
                exclude: Vec::new(),
            },
            format!("{t}/"),
            directive::NO_FILE_COMP,
        );
    }
    let prefix = current.rfind(',').map(|i| &current[..=i]).unwrap_or("");
    Plan::need(Need::Types { verb }, prefix, directive::NO_FILE_COMP)
}

/// NAME after TYPE (`type_at` is TYPE's position); `more_targets`: `get`'s `TYPE/NAME…` form.
fn name_word(line: &Line, type_at: usize, index: usize, verb: Verb, more_targets: bool) -> Plan {
    let Some(t) = line.positionals.get(type_at) else {
        return Plan::fixed(Vec::new(), directive::NO_FILE_COMP);
    };
    if t.contains('/') {
        return if more_targets {
            type_word(&line.current, Some(verb))
        } else {
            Plan::fixed(Vec::new(), directive::NO_FILE_COMP)
        };
    }
    if t.contains(',') || (matches!(verb, Verb::Patch | Verb::Edit) && index > type_at + 1) {
        return Plan::fixed(Vec::new(), directive::NO_FILE_COMP);
    }
    let exclude = line.positionals[type_at + 1..].to_vec();
    Plan::need(
        Need::Names {
            type_name: t.clone(),
            verb,
            exclude,
        },
        "",
        directive::NO_FILE_COMP,
    )
}

/// Decides what to offer for `line` (read against `root`, which must be built).
pub fn plan(root: &Command, line: &Line) -> Plan {
    let cmd = command_at(root, &line.path);
    match &line.word {
        Word::Subcommand => {
            let subs = cmd
                .get_subcommands()
                .filter(|s| !s.is_hide_set())
                .map(|s| {
                    Candidate::new(s.get_name(), summary(s.get_about().map(|a| a.to_string())))
                })
                .collect();
            Plan::fixed(subs, directive::NO_FILE_COMP)
        }
        Word::Flag => Plan::fixed(flag_candidates(cmd), directive::NO_FILE_COMP),
        Word::FlagValue { id, prefix } => {
            let arg = cmd.get_arguments().find(|a| a.get_id() == id.as_str());
            let values = arg.map(|a| possible_values(a, prefix)).unwrap_or_default();
            if !values.is_empty() {
                return Plan::fixed(values, directive::NO_FILE_COMP);
            }
            let need = match id.as_str() {
                // `--contexts` completes one name (the first of the list).
                "context" | "contexts" => Need::Contexts,
                "cluster" => Need::Clusters,
                "user" => Need::Users,
                "namespace" => Need::Namespaces,
                _ => return by_hint(arg),
            };
            Plan::need(need, prefix.clone(), directive::NO_FILE_COMP)
        }
        Word::Positional { index } => {
            let index = *index;
            match (line.command().as_str(), index) {
                ("get", 0) => type_word(&line.current, Some(Verb::Get)),
                ("get", _) if line.flag("all_namespaces").is_some() => {
                    // Names are not retrieved across all namespaces (get refuses it).
                    Plan::fixed(Vec::new(), directive::NO_FILE_COMP)
                }
                ("get", i) => name_word(line, 0, i, Verb::Get, true),
                // `drift` reads (verb get): types and names as `get TYPE NAME…` offers them.
                ("drift", 0) => type_word(&line.current, Some(Verb::Get)),
                ("drift", _) if line.flag("all_namespaces").is_some() => {
                    Plan::fixed(Vec::new(), directive::NO_FILE_COMP)
                }
                ("drift", i) => name_word(line, 0, i, Verb::Get, false),
                ("patch", 0) => type_word(&line.current, Some(Verb::Patch)),
                ("patch", i) => name_word(line, 0, i, Verb::Patch, false),
                // `edit`: one object, TYPE NAME or TYPE/NAME, as `patch`.
                ("edit", 0) => type_word(&line.current, Some(Verb::Edit)),
                ("edit", i) => name_word(line, 0, i, Verb::Edit, false),
                // `delete` takes several names or TYPE/NAME targets, none with a selector,
                // --all or -A (kubectl refuses names with them).
                ("delete", 0) => type_word(&line.current, Some(Verb::Delete)),
                ("delete", _)
                    if ["all_namespaces", "all", "selector", "field_selector"]
                        .iter()
                        .any(|f| line.flag(f).is_some()) =>
                {
                    Plan::fixed(Vec::new(), directive::NO_FILE_COMP)
                }
                ("delete", i) => name_word(line, 0, i, Verb::Delete, true),
                // `scale`, `label` and `annotate` select as `delete` does: several names or
                // TYPE/NAME targets, none with a selector or --all (label's pairs follow the
                // names and are the user's to type).
                ("scale", 0) => type_word(&line.current, Some(Verb::Scale)),
                ("label", 0) => type_word(&line.current, Some(Verb::Label)),
                ("annotate", 0) => type_word(&line.current, Some(Verb::Annotate)),
                ("scale" | "label" | "annotate", _)
                    if ["all_namespaces", "all", "selector", "field_selector"]
                        .iter()
                        .any(|f| line.flag(f).is_some()) =>
                {
                    Plan::fixed(Vec::new(), directive::NO_FILE_COMP)
                }
                ("scale", i) => name_word(line, 0, i, Verb::Scale, true),
                ("label", i) => name_word(line, 0, i, Verb::Label, true),
                ("annotate", i) => name_word(line, 0, i, Verb::Annotate, true),
                // kubectl's `validArgs` of every `rollout` subcommand, then names of that type.
                ("rollout restart" | "rollout undo" | "rollout history" | "rollout status", 0)
                    if !line.current.contains('/') =>
                {
                    Plan::fixed(
                        ["deployment", "daemonset", "statefulset"]
                            .iter()
                            .map(|t| Candidate::new(*t, None))
                            .collect(),
                        directive::NO_FILE_COMP,
                    )
                }
                ("rollout restart" | "rollout undo" | "rollout history" | "rollout status", 0) => {
                    type_word(&line.current, Some(Verb::Rollout))
                }
                ("rollout restart" | "rollout undo" | "rollout history" | "rollout status", i) => {
                    name_word(line, 0, i, Verb::Rollout, true)
                }
                ("auth can-i", 0) => Plan::fixed(
                    RBAC_VERBS
                        .iter()
                        .map(|v| Candidate::new(*v, None))
                        .collect(),
                    directive::NO_FILE_COMP,
                ),
                ("auth can-i", 1) => type_word(&line.current, None),
                ("auth can-i", i) => name_word(line, 1, i, Verb::Get, false),
                ("rollback" | "changelog show" | "changelog reconcile", 0) => Plan::need(
                    Need::ChangelogIds,
                    "",
                    directive::NO_FILE_COMP | directive::KEEP_ORDER,
                ),
                ("crds sync" | "crds watch" | "crds list", 0) => {
                    Plan::fixed(Vec::new(), directive::FILTER_DIRS)
                }
                // File extensions for the shell's file completion; not filtered by the word.
                ("config validate", 0) => Plan::fixed(
                    vec![Candidate::new("yaml", None), Candidate::new("yml", None)],
                    directive::FILTER_FILE_EXT,
                ),
                _ => {
                    let arg = cmd.get_positionals().nth(index);
                    let values = arg.map(|a| possible_values(a, "")).unwrap_or_default();
                    if values.is_empty() {
                        by_hint(arg)
                    } else {
                        Plan::fixed(values, directive::NO_FILE_COMP)
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::completions::words::read;
    use clap::CommandFactory;

    fn plan_of(line: &str) -> Plan {
        let mut root = crate::cli::Cli::command();
        root.build();
        let words: Vec<String> = line.split(' ').map(str::to_string).collect();
        plan(&root, &read(&root, &words))
    }

    fn values(p: &Plan) -> Vec<&str> {
        p.candidates.iter().map(|c| c.value.as_str()).collect()
    }

    #[test]
    fn rollout_offers_kubectls_three_types_then_their_names() {
        assert_eq!(
            values(&plan_of("rollout undo ")),
            ["deployment", "daemonset", "statefulset"]
        );
        assert_eq!(
            plan_of("rollout restart deployment ").need,
            Need::Names {
                type_name: "deployment".into(),
                verb: Verb::Rollout,
                exclude: vec![],
            }
        );
        assert!(values(&plan_of("rollout ")).contains(&"history"));
    }

    #[test]
    fn subcommands_with_their_summary() {
        let p = plan_of("");
        let v = values(&p);
        for want in [
            "get",
            "patch",
            "rollback",
            "changelog",
            "crds",
            "metrics",
            "config",
            "auth",
            "completion",
            "version",
        ] {
            assert!(v.contains(&want), "{want} missing from {v:?}");
        }
        let get = p.candidates.iter().find(|c| c.value == "get").unwrap();
        assert_eq!(
            get.description.as_deref(),
            Some("Display one or many resources, after a SelfSubjectAccessReview")
        );
        assert_eq!(p.directive, directive::NO_FILE_COMP);
        assert_eq!(p.need, Need::Nothing);
        assert_eq!(values(&plan_of("crds ")), ["sync", "watch", "list", "help"]);
    }

    #[test]
    fn flags_of_the_command_including_global_ones() {
        let v: Vec<String> = values(&plan_of("get pods -"))
            .into_iter()
            .map(String::from)
            .collect();
        for want in [
            "--output",
            "-o",
            "--selector",
            "-A",
            "--namespace",
            "-n",
            "--context",
            "--kubeconfig",
            "--as",
        ] {
            assert!(v.iter().any(|x| x == want), "{want} missing from {v:?}");
        }
        assert!(!v.iter().any(|x| x == "--patch"), "{v:?}");
    }

    #[test]
    fn enumerated_values_in_every_spelling() {
        assert_eq!(
            values(&plan_of("get pods -o ")),
            ["table", "wide", "json", "yaml", "kyaml", "name"]
        );
        assert_eq!(
            values(&plan_of("get pods --output=")),
            [
                "--output=table",
                "--output=wide",
                "--output=json",
                "--output=yaml",
                "--output=kyaml",
                "--output=name"
            ]
        );
        assert_eq!(values(&plan_of("get pods -oj"))[2], "-ojson");
        assert_eq!(
            values(&plan_of("patch x y --type ")),
            ["strategic", "merge", "json"]
        );
        assert_eq!(
            values(&plan_of("patch x y --dry-run=")),
            ["--dry-run=none", "--dry-run=server", "--dry-run=client"]
        );
        assert_eq!(
            values(&plan_of("completion ")),
            ["bash", "zsh", "fish", "powershell"]
        );
        assert_eq!(values(&plan_of("metrics show -o ")), ["table", "json"]);
    }

    #[test]
    fn lookups_for_contexts_namespaces_types_and_names() {
        assert_eq!(plan_of("--context ").need, Need::Contexts);
        assert_eq!(plan_of("get pods --user ").need, Need::Users);
        let p = plan_of("get -n=");
        assert_eq!((p.need, p.prefix.as_str()), (Need::Namespaces, "-n="));
        let p = plan_of("get --namespace=");
        assert_eq!(
            (p.need, p.prefix.as_str()),
            (Need::Namespaces, "--namespace=")
        );
        assert_eq!(
            plan_of("get ").need,
            Need::Types {
                verb: Some(Verb::Get)
            }
        );
        assert_eq!(
            plan_of("patch de").need,
            Need::Types {
                verb: Some(Verb::Patch)
            }
        );
        assert_eq!(plan_of("auth can-i list ").need, Need::Types { verb: None });
        let p = plan_of("get pods,dep");
        assert_eq!(
            (p.need, p.prefix.as_str()),
            (
                Need::Types {
                    verb: Some(Verb::Get)
                },
                "pods,"
            )
        );
        let names = |t: &str, verb, ex: &[&str]| Need::Names {
            type_name: t.into(),
            verb,
            exclude: ex.iter().map(|s| s.to_string()).collect(),
        };
        assert_eq!(plan_of("get pods ").need, names("pods", Verb::Get, &[]));
        assert_eq!(
            plan_of("-n shop get po web-1 w").need,
            names("po", Verb::Get, &["web-1"])
        );
        let p = plan_of("get deploy/w");
        assert_eq!(
            (p.need, p.prefix.as_str()),
            (names("deploy", Verb::Get, &[]), "deploy/")
        );
        assert_eq!(plan_of("get pod/a pod/").need, names("pod", Verb::Get, &[]));
        assert_eq!(
            plan_of("patch deploy ").need,
            names("deploy", Verb::Patch, &[])
        );
        assert_eq!(plan_of("patch deploy web ").need, Need::Nothing);
        assert_eq!(plan_of("patch deploy/web ").need, Need::Nothing);
        // `edit`: one object, types and names under the `edit` verb's boundary.
        assert_eq!(
            plan_of("edit con").need,
            Need::Types {
                verb: Some(Verb::Edit)
            }
        );
        assert_eq!(plan_of("edit cm ").need, names("cm", Verb::Edit, &[]));
        let p = plan_of("edit cm/c");
        assert_eq!(
            (p.need, p.prefix.as_str()),
            (names("cm", Verb::Edit, &[]), "cm/")
        );
        assert_eq!(plan_of("edit cm c1 ").need, Need::Nothing);
        assert_eq!(
            plan_of("auth can-i patch deploy ").need,
            names("deploy", Verb::Get, &[])
        );
        assert_eq!(plan_of("get pods -A ").need, Need::Nothing);
        assert_eq!(
            plan_of("delete de").need,
            Need::Types {
                verb: Some(Verb::Delete)
            }
        );
        assert_eq!(
            plan_of("delete cm a ").need,
            names("cm", Verb::Delete, &["a"])
        );
        assert_eq!(
            plan_of("delete cm/a cm/").need,
            names("cm", Verb::Delete, &[])
        );
        assert_eq!(plan_of("delete cm -l app=x ").need, Need::Nothing);
        assert_eq!(plan_of("delete cm --all ").need, Need::Nothing);
        assert_eq!(plan_of("rollback ").need, Need::ChangelogIds);
        assert_eq!(plan_of("changelog show ").need, Need::ChangelogIds);
    }

    #[test]
    fn scale_label_and_annotate_complete_their_types_and_names() {
        for (cmd, verb) in [
            ("scale", Verb::Scale),
            ("label", Verb::Label),
            ("annotate", Verb::Annotate),
        ] {
            assert_eq!(
                plan_of(&format!("{cmd} de")).need,
                Need::Types { verb: Some(verb) }
            );
            assert_eq!(
                plan_of(&format!("{cmd} deploy a ")).need,
                Need::Names {
                    type_name: "deploy".into(),
                    verb,
                    exclude: vec!["a".into()],
                }
            );
            assert_eq!(
                plan_of(&format!("{cmd} deploy -l app=x ")).need,
                Need::Nothing
            );
        }
    }

    #[test]
    fn paths_are_left_to_the_shell() {
        assert_eq!(plan_of("crds watch ").directive, directive::FILTER_DIRS);
        assert_eq!(plan_of("--kubeconfig ").directive, directive::DEFAULT);
        assert_eq!(
            plan_of("patch x y --patch-file ").directive,
            directive::DEFAULT
        );
        let p = plan_of("config validate ");
        assert_eq!(
            (values(&p), p.directive),
            (vec!["yaml", "yml"], directive::FILTER_FILE_EXT)
        );
        assert_eq!(plan_of("get -l ").directive, directive::NO_FILE_COMP);
        assert_eq!(plan_of("apply -f ").directive, directive::DEFAULT);
        assert_eq!(plan_of("apply --filename ").directive, directive::DEFAULT);
        assert_eq!(values(&plan_of("auth can-i ")), RBAC_VERBS);
    }
}
