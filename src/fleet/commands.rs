//! The commands a fan-out runs (`get`, `patch`, `delete`, `apply`, `auth can-i`, `auth matrix`,
//! `crds sync`): which verb each context runs, how its outputs merge, and what is printed
//! after — the merged output, each context's stderr lines marked with it, one summary line
//! per failed context, for `patch`, `delete`, `scale`, `label` and `annotate` (the commands
//! that change something, in canary waves) the contexts not attempted and how to roll back; then the metrics,
//! one observation per context and one push. `app` calls [`run_command`] when `--contexts`
//! or `--all-contexts` is given.

use crate::cli::{
    AuthCommand, Command, CrdsCommand, DryRun, GlobalArgs, ObjectFormat, OutputFormat,
    TemplateFormat,
};
use crate::exit::ExitStatus;
use crate::metrics::{self, Observation};
use crate::output::Printer;
use crate::output::objects::render_template;
use crate::settings::{Env, Settings};
use crate::verbs::{self, Outcome, VerbError};

use super::{Captured, ContextRun, Done, Fleet, Shape};

/// Where the fan-out flags apply, for the usage error of any other command.
pub const APPLIES_TO: &str = "get, patch, delete, apply, scale, label, annotate, rollout restart, rollout undo, auth can-i, auth matrix and crds sync";

/// Whether `g` asks for a fan-out (`--contexts` or `--all-contexts`).
pub fn wanted(g: &GlobalArgs) -> bool {
    g.all_contexts || !g.contexts.is_empty()
}

/// The sentence of a verb's failure, as `app` prints it after `error: ` (a server error is
/// printed bare by kubectl, so it is kept whole here too).
pub fn message_of(e: &VerbError) -> String {
    e.to_string()
}

/// The [`Done`] of a counted verb's [`Outcome`].
pub fn done_of(o: Outcome) -> Done {
    match o.result {
        Ok(()) => Done {
            status: ExitStatus::Success,
            message: None,
            resource: o.resource,
        },
        Err(e) => Done {
            status: e.exit_status(),
            message: Some(message_of(&e)).filter(|_| {
                !matches!(e, VerbError::Output(crate::output::OutputError::BrokenPipe))
            }),
            resource: o.resource,
        },
    }
}

fn done_of_result(r: Result<(), VerbError>) -> Done {
    done_of(Outcome {
        resource: None,
        result: r,
    })
}

/// What to run in each context and how to merge it.
enum Plan<'c> {
    Get {
        args: crate::cli::GetArgs,
        shape: Shape,
        template: Option<TemplateFormat>,
    },
    Patch {
        args: crate::cli::PatchArgs,
        shape: Shape,
        template: Option<TemplateFormat>,
    },
    /// `delete` in waves, as `patch`: its lines (kubectl's sentence or `-o name`) are
    /// prefixed by the context.
    Delete(&'c crate::cli::DeleteArgs),
    /// `scale` in waves, as `delete`: its lines prefixed by the context.
    Scale(&'c crate::cli::ScaleArgs),
    /// `label` or `annotate` in waves, as `delete`.
    Label(&'c crate::cli::LabelArgs, verbs::label::Meta),
    /// `rollout restart|undo` in waves, as `delete`: kubectl's lines, prefixed by the context.
    Rollout(&'c crate::cli::RolloutCommand),
    /// `apply` in waves, as `delete`: its lines (kubectl's `serverside-applied` or `-o
    /// name`) are prefixed by the context.
    Apply(&'c crate::cli::ApplyArgs),
    Auth(&'c AuthCommand),
    CrdsSync(&'c crate::cli::CrdsSyncArgs),
}

/// Whether a fan-out applies to `cmd`: `get` (without `-w`), `patch`, `delete`, `apply`,
/// `auth can-i`, `auth matrix`, `crds sync`.
///
/// # Errors
/// The usage error (exit 2) that names where the flags apply, before anything else runs.
pub fn applies(g: &GlobalArgs, cmd: &Command) -> Result<(), String> {
    let pinned = pinning_flags(g);
    if !pinned.is_empty() {
        return Err(format!(
            "{} {} one server or identity for every context; with --contexts or --all-contexts each context uses its own cluster and user from the kubeconfig — drop {}, or use --context for one context",
            pinned.join(", "),
            if pinned.len() == 1 { "pins" } else { "pin" },
            if pinned.len() == 1 { "it" } else { "them" }
        ));
    }
    plan(cmd).map(|_| ())
}

/// The connection flags given in `g` that would replace every context's own server or
/// credentials (pure): in a fan-out `--server` would send each context's token to one
/// server, `--user`/`--token` one identity to every server — refused (exit 2) rather than
/// applied to all contexts. `-n`, `--as*`, `--request-timeout`, `--kubeconfig` and
/// `--insecure-skip-tls-verify` apply to each context as they do to one.
pub fn pinning_flags(g: &GlobalArgs) -> Vec<&'static str> {
    [
        ("--server", g.server.is_some()),
        ("--cluster", g.cluster.is_some()),
        ("--user", g.user.is_some()),
        ("--token", g.token.is_some()),
        ("--username", g.username.is_some()),
        ("--password", g.password.is_some()),
        ("--certificate-authority", g.certificate_authority.is_some()),
        ("--client-certificate", g.client_certificate.is_some()),
        ("--client-key", g.client_key.is_some()),
        ("--tls-server-name", g.tls_server_name.is_some()),
    ]
    .into_iter()
    .filter_map(|(flag, given)| given.then_some(flag))
    .collect()
}

/// The plan for `cmd`, or the usage error that refuses it (exit 2, before any request).
fn plan(cmd: &Command) -> Result<Plan<'_>, String> {
    match cmd {
        Command::Get(a) => {
            if a.watch || a.watch_only {
                return Err("get -w/--watch-only follows one context; with --contexts or --all-contexts drop -w, or run one watch per context with --context".into());
            }
            let mut args = a.clone();
            let (shape, template) = match &a.output {
                OutputFormat::Table | OutputFormat::Wide | OutputFormat::Name => {
                    (Shape::Cells, None)
                }
                OutputFormat::Json => (Shape::Json, None),
                OutputFormat::Yaml => (Shape::Yaml, None),
                OutputFormat::KYaml => (Shape::KYaml, None),
                OutputFormat::Template(t) => {
                    args.output = OutputFormat::Json;
                    (Shape::Json, Some(with_context_column(t)?))
                }
            };
            Ok(Plan::Get {
                args,
                shape,
                template,
            })
        }
        Command::Patch(a) => {
            let mut args = a.clone();
            let (shape, template) = match &a.output {
                None | Some(ObjectFormat::Name) => (Shape::Cells, None),
                Some(ObjectFormat::Json) => (Shape::Json, None),
                Some(ObjectFormat::Yaml) => (Shape::Yaml, None),
                Some(ObjectFormat::KYaml) => (Shape::KYaml, None),
                Some(ObjectFormat::Template(t)) => {
                    args.output = Some(ObjectFormat::Json);
                    (Shape::Json, Some(t.clone()))
                }
            };
            Ok(Plan::Patch {
                args,
                shape,
                template,
            })
        }
        Command::Delete(a) => Ok(Plan::Delete(a)),
        Command::Scale(a) => Ok(Plan::Scale(a)),
        Command::Label(a) => Ok(Plan::Label(a, verbs::label::Meta::Labels)),
        Command::Annotate(a) => Ok(Plan::Label(a, verbs::label::Meta::Annotations)),
        Command::Rollout(
            r @ (crate::cli::RolloutCommand::Restart(_) | crate::cli::RolloutCommand::Undo(_)),
        ) => Ok(Plan::Rollout(r)),
        Command::Apply(a) => {
            if a.filenames.iter().any(|f| {
                f.as_os_str() == "-"
                    || f.as_os_str() == "/dev/stdin"
                    || f.as_os_str() == "/dev/fd/0"
            }) {
                return Err("apply -f - reads stdin once, and every context needs the manifests; with --contexts or --all-contexts save them to a file and give -f FILE".into());
            }
            Ok(Plan::Apply(a))
        }
        Command::Auth(a @ (AuthCommand::CanI(_) | AuthCommand::Matrix(_))) => Ok(Plan::Auth(a)),
        Command::Crds(CrdsCommand::Sync(a)) => Ok(Plan::CrdsSync(a)),
        // One editor session edits one object as read from one cluster: the same buffer
        // cannot be the edit of another cluster's object (its resourceVersion, uid, fields).
        Command::Edit(_) => Err("edit does not take --contexts or --all-contexts: one editor session edits one object in one cluster; use --context NAME, or patch --contexts for the same change everywhere".into()),
        _ => Err(format!(
            "--contexts and --all-contexts apply to {APPLIES_TO} only; use --context NAME for this command"
        )),
    }
}

/// A template for the merged `List`: custom columns get a leading `CONTEXT` column (read
/// from the item's [`super::CONTEXT_ANNOTATION`]); a JSONPath template sees the merged
/// `List` as it is.
fn with_context_column(t: &TemplateFormat) -> Result<TemplateFormat, String> {
    match t {
        TemplateFormat::CustomColumns(cols) => {
            let path = format!("{{.metadata.annotations['{}']}}", super::CONTEXT_ANNOTATION);
            let template = crate::output::jsonpath::Template::parse(&path)
                .map_err(|e| format!("internal: the CONTEXT column: {e}"))?;
            let mut all = vec![crate::output::custom_columns::Column {
                header: "CONTEXT".into(),
                template,
            }];
            all.extend(cols.iter().cloned());
            Ok(TemplateFormat::CustomColumns(all))
        }
        other => Ok(other.clone()),
    }
}

/// Runs `cli.command` in every selected context and prints the merged result; returns the
/// most severe exit status of the contexts ([`ExitStatus::most_severe`]).
pub async fn run_command(
    global: &GlobalArgs,
    command: &Command,
    settings: &Settings,
    env: &Env,
    p: &mut Printer<'_>,
) -> ExitStatus {
    let plan = match plan(command) {
        Ok(x) => x,
        Err(e) => {
            p.err_line(&format!("error: {e}"));
            return ExitStatus::Usage;
        }
    };
    let kubeconfig = match crate::cluster::client::load_kubeconfig(&settings.kube) {
        Ok(kc) => kc,
        Err(e) => {
            p.err_line(&format!("error: {e}"));
            return e.exit_status();
        }
    };
    let known: Vec<String> = kubeconfig
        .iter()
        .flat_map(|kc| kc.contexts.iter().map(|c| c.name.clone()))
        .collect();
    let contexts = match super::select(&global.contexts, global.all_contexts, &known) {
        Ok(c) => c,
        Err(e) => {
            p.err_line(&format!("error: {e}"));
            return ExitStatus::Usage;
        }
    };
    let fleet = Fleet {
        contexts,
        max_parallel: global
            .max_parallel
            .map_or(super::DEFAULT_MAX_PARALLEL, usize::from),
        session_id: crate::changelog::new_session_id(),
        progress: env.stderr_is_terminal,
        kubeconfig,
        protect: waved(&plan)
            .filter(|(_, dry_run)| *dry_run == DryRun::None)
            .and_then(|(verb, _)| super::protect::verb_of(verb)),
    };
    let all: Vec<std::ops::Range<usize>> = std::iter::once(0..fleet.contexts.len()).collect();
    // `get -o name|json|yaml`: each context printed once it and those before it are done.
    let mut streamed = None;
    let (runs, shape, template, verb) =
        match &plan {
            Plan::Get {
                args,
                shape,
                template,
            } => {
                let runs;
                (runs, streamed) = run_get(&fleet, settings, &all, (args, template), p).await;
                (runs, *shape, template.as_ref(), Some("get"))
            }
            Plan::Patch {
                args,
                shape,
                template,
            } => {
                let waves = super::waves(fleet.contexts.len(), args.canary.map_or(1, usize::from));
                let runs = super::run(&fleet, settings, &waves, true, p, async |s, cp| {
                    done_of(verbs::patch::run(s, args, cp).await)
                })
                .await;
                (runs, *shape, template.as_ref(), Some("patch"))
            }
            Plan::Delete(_)
            | Plan::Apply(_)
            | Plan::Scale(_)
            | Plan::Label(..)
            | Plan::Rollout(_) => {
                let waves = super::waves(fleet.contexts.len(), canary_of(&plan));
                let runs = super::run(&fleet, settings, &waves, true, p, async |s, cp| {
                    done_of(run_waved(&plan, s, cp).await)
                })
                .await;
                (runs, Shape::Cells, None, metric_verb(&plan))
            }
            Plan::Auth(cmd) => {
                let runs = super::run(&fleet, settings, &all, false, p, async |s, cp| {
                    match verbs::auth::run(s, cmd, cp).await {
                        Ok(ExitStatus::Success) => done_of_result(Ok(())),
                        Ok(other) => Done {
                            status: other,
                            message: Some("the answer is no".into()),
                            resource: None,
                        },
                        Err(e) => done_of_result(Err(e)),
                    }
                })
                .await;
                (runs, Shape::Cells, None, None)
            }
            Plan::CrdsSync(args) => {
                let runs = super::run(&fleet, settings, &all, false, p, async |s, cp| {
                    done_of_result(verbs::crds_sync::run(s, args, cp).await)
                })
                .await;
                (runs, Shape::Cells, None, None)
            }
        };
    let mut status = match streamed {
        Some(rel) => rel.finish(p),
        None => print_merged(&runs, shape, template, global_no_headers(&plan), p),
    };
    status = ExitStatus::most_severe(
        [status].into_iter().chain(
            runs.iter()
                .filter_map(|r| r.done.as_ref().map(|d| d.status)),
        ),
    );
    if super::run::interrupted() {
        status = ExitStatus::most_severe([status, ExitStatus::Failure]);
    }
    report_contexts(&runs, p);
    if let Some((verb, dry_run)) = waved(&plan) {
        report_waves(verb, &runs, &fleet.session_id, dry_run, p);
    }
    if let Some(verb) = verb {
        observe(settings, verb, &runs, p).await;
    }
    status
}

/// Runs `get` in every context: with an output that can go out context by context
/// ([`super::stream::Release`]) each context is printed in order as soon as it and those
/// before it are done, and the release is returned to be finished; else everything is held
/// (a `template` is applied to the whole merged List: `args.output` is then the `json` its
/// contexts print, and still held).
async fn run_get(
    fleet: &Fleet,
    settings: &Settings,
    all: &[std::ops::Range<usize>],
    (args, template): (&crate::cli::GetArgs, &Option<TemplateFormat>),
    p: &mut Printer<'_>,
) -> (Vec<ContextRun>, Option<super::stream::Release>) {
    let one =
        async |s: &Settings, cp: &mut Printer<'_>| done_of(verbs::get::run(s, args, cp).await);
    let mut streamed = template
        .is_none()
        .then(|| super::stream::Release::for_get(args))
        .flatten();
    let runs = match &mut streamed {
        Some(rel) => {
            let release = &mut |r: &mut ContextRun, p: &mut Printer<'_>| rel.context(r, p);
            super::run::run_releasing(fleet, settings, all, false, p, one, release).await
        }
        None => super::run(fleet, settings, all, false, p, one).await,
    };
    (runs, streamed)
}

/// The first wave's size (`--canary`, default 1) of a command that runs in waves.
fn canary_of(plan: &Plan<'_>) -> usize {
    let canary = match plan {
        Plan::Patch { args, .. } => args.canary,
        Plan::Delete(args) => args.canary,
        Plan::Scale(args) => args.canary,
        Plan::Label(args, _) => args.canary,
        Plan::Rollout(cmd) => cmd.canary(),
        Plan::Apply(args) => args.canary,
        _ => None,
    };
    canary.map_or(1, usize::from)
}

/// Runs `delete`, `apply`, `scale`, `label`, `annotate` or `rollout restart|undo` (the
/// commands that print kubectl's lines, prefixed by the context) in one context.
async fn run_waved(plan: &Plan<'_>, s: &Settings, p: &mut Printer<'_>) -> Outcome {
    match plan {
        Plan::Delete(args) => verbs::delete::run(s, args, p).await,
        Plan::Apply(args) => verbs::apply::run(s, args, p).await,
        Plan::Scale(args) => verbs::scale::run(s, args, p).await,
        Plan::Label(args, meta) => verbs::label::run(s, args, *meta, p).await,
        Plan::Rollout(cmd) => verbs::rollout::run(s, cmd, p).await,
        _ => Outcome::early(VerbError::Usage(
            "internal: not a command that runs in waves".into(),
        )),
    }
}

/// The metrics `verb` label of a command that runs in waves (`rollout` for both of its
/// changing subcommands, as a single-context run records it).
fn metric_verb(plan: &Plan<'_>) -> Option<&'static str> {
    match plan {
        Plan::Rollout(_) => Some("rollout"),
        _ => waved(plan).map(|(v, _)| v),
    }
}

/// The command that ran in canary waves, and its dry run (`None` for the commands that only
/// read): what [`report_waves`] reports.
fn waved(plan: &Plan<'_>) -> Option<(&'static str, DryRun)> {
    match plan {
        Plan::Patch { args, .. } => Some(("patch", args.dry_run.strategy)),
        Plan::Delete(args) => Some(("delete", args.dry_run.strategy)),
        Plan::Apply(args) => Some(("apply", args.dry_run.strategy)),
        Plan::Scale(args) => Some(("scale", args.dry_run.strategy)),
        // `--list` only reads: nothing to roll back, as after a dry run.
        Plan::Label(args, meta) if args.list => Some((meta.verb(), DryRun::Server)),
        Plan::Label(args, meta) => Some((meta.verb(), args.dry_run.strategy)),
        Plan::Rollout(crate::cli::RolloutCommand::Undo(a)) => {
            Some(("rollout undo", a.dry_run.strategy))
        }
        Plan::Rollout(_) => Some(("rollout restart", DryRun::None)),
        _ => None,
    }
}

fn global_no_headers(plan: &Plan<'_>) -> bool {
    match plan {
        Plan::Get { args, .. } => args.no_headers,
        _ => false,
    }
}

/// Prints the merged stdout of the contexts that ran; a failure to write or encode is the
/// returned status (it joins the aggregate).
fn print_merged(
    runs: &[ContextRun],
    shape: Shape,
    template: Option<&TemplateFormat>,
    no_headers: bool,
    p: &mut Printer<'_>,
) -> ExitStatus {
    let captured = Captured::of_attempted(runs);
    // A template is rendered on the merged List when some context answered (kubectl renders
    // an empty List too: `{.items}` is `[]`, custom columns print their header); when every
    // context failed there is nothing to render, as kubectl prints nothing after an error.
    let answered = runs.iter().any(|r| {
        r.done
            .as_ref()
            .is_some_and(|d| d.status == ExitStatus::Success)
    });
    let text = match template {
        Some(t) => super::merged_list(&captured, shape).and_then(|doc| {
            if !answered {
                return Ok(String::new());
            }
            render_template(t, &doc, no_headers, true)
                .map_err(|e| crate::output::OutputError::Encode(e.to_string()))
        }),
        None => super::merge(&captured, shape),
    };
    let written = text.and_then(|t| {
        p.out(&t)?;
        p.flush()
    });
    match written {
        Ok(()) => ExitStatus::Success,
        Err(e) => {
            if !matches!(e, crate::output::OutputError::BrokenPipe) {
                p.err_line(&format!("error: {e}"));
            }
            e.exit_status()
        }
    }
}

/// Each context's stderr lines, marked with it ([`super::stderr_line`]), in selection order;
/// then one summary line per failed context.
fn report_contexts(runs: &[ContextRun], p: &mut Printer<'_>) {
    for r in runs {
        for line in String::from_utf8_lossy(&r.stderr).lines() {
            p.err_line(&super::stderr_line(&r.context, line));
        }
    }
    for r in runs {
        if let Some(d) = &r.done
            && d.status != ExitStatus::Success
        {
            let why = d.message.as_deref().unwrap_or("failed");
            p.err_line(&format!(
                "error: context {}: {why} (exit {})",
                r.context,
                d.status.code()
            ));
        }
    }
}

/// After a fan-out of `verb` in waves (`patch`, `delete`): the contexts not attempted (after
/// a failure), and the rollback command when anything was changed (also after a full
/// success: the session id is what `rollback --session` needs, and it is printed nowhere
/// else; for a delete that rollback is an undelete of every object of the session).
fn report_waves(
    verb: &str,
    runs: &[ContextRun],
    session: &str,
    dry_run: DryRun,
    p: &mut Printer<'_>,
) {
    let skipped: Vec<&str> = runs
        .iter()
        .filter(|r| r.done.is_none())
        .map(|r| r.context.as_str())
        .collect();
    if !skipped.is_empty() {
        let why = if super::run::interrupted() {
            "by SIGTERM"
        } else {
            "after a failure"
        };
        p.err_line(&format!(
            "error: {verb} stopped {why}; not attempted (nothing was sent): {}",
            skipped.join(", ")
        ));
    }
    // A patch changes one object: only a context that succeeded changed it. A delete (apply,
    // scale, label, annotate, rollout) of several objects that failed part-way may have
    // changed some of them (the journal says which), so every context it ran in counts but
    // those refused before anything was sent (denied: exit 3, usage: exit 2).
    let changed = runs.iter().any(|r| {
        r.done.as_ref().is_some_and(|d| {
            d.status == ExitStatus::Success
                || (verb != "patch" && !matches!(d.status, ExitStatus::Denied | ExitStatus::Usage))
        })
    });
    if changed && dry_run == DryRun::None {
        p.err_line(&format!(
            "to undo the changes of this invocation: kubectl myops rollback --session {session}"
        ));
    }
}

/// One `ops_*` observation per context that ran, recorded together and pushed once.
async fn observe(s: &Settings, verb: &str, runs: &[ContextRun], p: &mut Printer<'_>) {
    let obs: Vec<Observation> = runs
        .iter()
        .filter_map(|r| {
            r.done.as_ref().map(|d| Observation {
                verb: verb.into(),
                resource: d.resource.clone().unwrap_or_else(|| "unknown".into()),
                status: metrics::Status::for_exit(d.status),
                duration_seconds: r.seconds,
                client: metrics::client_label(s.actor.as_deref()),
            })
        })
        .collect();
    for w in metrics::finish(
        &s.home,
        &s.plugin.name,
        &obs,
        &s.plugin.metrics,
        s.push_target.as_ref(),
    )
    .await
    {
        p.err_line(&w);
    }
}
