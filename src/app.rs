//! The program: parse argv, resolve settings, run one verb, record its metrics, map the
//! outcome to an exit code. `main.rs` only calls [`main`].

use std::io::Write;
use std::time::Instant;

use crate::cli::{Cli, Command, ConfigCommand, CrdsCommand};
use crate::exit::ExitStatus;
use crate::metrics::{self, Observation};
use crate::output::Printer;
use crate::settings::{Env, Settings};
use crate::verbs::{self, VerbError};

pub use crate::cli::one_line_usage_error;

/// Runs the CLI with the process's argv and environment; returns the exit code.
pub fn main() -> u8 {
    // The detached metrics pusher a command started (not a clap command: in no help).
    if std::env::args_os()
        .nth(1)
        .is_some_and(|a| a == metrics::background::PUSHER_ARG)
    {
        return metrics::background::pusher_main();
    }
    let cli = match crate::cli::help::try_parse() {
        Ok(c) => c,
        Err(e) => {
            // Usage errors echo the offending argument: print them through the same
            // scrub/escape/cap as every other stderr line (a `--token=…` typo must not echo
            // the token, an escape sequence must not reach the terminal).
            if e.use_stderr() {
                let mut err = std::io::stderr().lock();
                let _ = writeln!(
                    err,
                    "{}",
                    crate::output::for_terminal(&one_line_usage_error(&e.render().to_string()))
                );
            } else {
                let _ = e.print();
            }
            // clap: 0 for --help/--version, 2 for usage errors (our contract's 2 as well).
            return if e.use_stderr() {
                ExitStatus::Usage.code()
            } else {
                ExitStatus::Success.code()
            };
        }
    };
    // An object the API server stores may nest up to `decode::MAX_DEPTH` levels, and
    // printing, judging or journaling it recurses as deep: the command runs on a thread whose
    // stack has room for that (printing a 9,990-level object as `-o json` overflowed the
    // 8 MiB main stack). Only the pages it touches are ever committed.
    let command = std::thread::Builder::new()
        .name("main".into())
        .stack_size(crate::base::decode::STACK_BYTES)
        .spawn(move || command_main(cli));
    match command {
        // A panic was reported by the panic hook; 101 is what Rust exits with after one.
        Ok(thread) => thread.join().unwrap_or(101),
        Err(e) => {
            eprintln!("error: cannot start the command's thread: {e}");
            ExitStatus::Failure.code()
        }
    }
}

/// Runs the parsed command on a current-thread runtime; returns the exit code.
fn command_main(cli: Cli) -> u8 {
    let rt = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return ExitStatus::Failure.code();
        }
    };
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    // The MCP server speaks its protocol on stdout through tokio, which writes through
    // `std::io::stdout()` on a blocking thread: holding its lock here would block every answer.
    let mut out: Box<dyn Write> = if matches!(cli.command, crate::cli::Command::Mcp(_)) {
        Box::new(std::io::sink())
    } else {
        Box::new(std::io::BufWriter::new(stdout.lock()))
    };
    let mut err = stderr.lock();
    let code = rt.block_on(run(cli, Env::from_process(), &mut out, &mut err));
    let _ = out.flush();
    // A credential plugin that never answered still occupies a blocking thread: do not wait
    // for it (the deadline already reported it).
    rt.shutdown_background();
    code.code()
}

/// Runs one parsed command against `env`, printing to `out`/`err`.
pub async fn run(mut cli: Cli, env: Env, out: &mut dyn Write, err: &mut dyn Write) -> ExitStatus {
    let started = Instant::now();
    let mut p = Printer::new(out, err);
    // A template file `-o` names is part of the flags: a bad one is a usage error like a bad
    // inline template, before anything else is checked.
    // The request deadline bounds a template file that is a FIFO; a bad --request-timeout is
    // reported by the settings below.
    let deadline = crate::base::deadline::of(
        cli.global
            .request_timeout
            .as_deref()
            .and_then(|t| crate::settings::request_timeout(t).ok().flatten()),
    );
    if let Err(e) = crate::settings::load_template_files(&mut cli.command, deadline) {
        p.err_line(&format!("error: {e}"));
        return ExitStatus::Usage;
    }
    // The MCP server fixes its contexts itself (`--contexts` names those an agent may use),
    // so it is not a fan-out.
    if let Command::Mcp(args) = &cli.command {
        return mcp(&cli.global, args, &env, &mut p).await;
    }
    if crate::fleet::commands::wanted(&cli.global)
        && let Err(e) = crate::fleet::commands::applies(&cli.global, &cli.command)
    {
        p.err_line(&format!("error: {e}"));
        return ExitStatus::Usage;
    }
    // `config schema` and `config validate PATH` must work even when the active plugin.yaml is broken.
    match &cli.command {
        Command::Config(ConfigCommand::Schema) => {
            return finish_plain(verbs::config_cmd::schema(&mut p), &mut p);
        }
        Command::Config(ConfigCommand::Validate { path: Some(path) }) => {
            // The settings only find the kubeconfig its protect: warnings compare with and the
            // deadline of a FIFO PATH; an active plugin.yaml that does not load only leaves
            // those warnings out (and the deadline at its default).
            let settings = crate::settings::Settings::resolve(&cli.global, &env).ok();
            let contexts = settings.as_ref().and_then(kubeconfig_contexts);
            return finish_plain(
                verbs::config_cmd::validate(
                    settings.as_ref(),
                    Some(path),
                    contexts.as_deref(),
                    &mut p,
                ),
                &mut p,
            );
        }
        Command::Version => return finish_plain(verbs::version::run(&mut p), &mut p),
        Command::Completion { shell } => {
            let r = crate::completions::print_script(*shell, &mut p).map_err(Into::into);
            return finish_plain(r, &mut p);
        }
        _ => {}
    }
    if let Some(w) = cli.command.dry_run_warning() {
        p.err_line(&format!("warning: {w}"));
    }
    let settings = match Settings::resolve(&cli.global, &env) {
        Ok(mut s) => {
            s.kube.command = cli.command_path.clone();
            s
        }
        Err(e) => {
            p.err_line(&format!("error: {e}"));
            return ExitStatus::Usage;
        }
    };
    if crate::fleet::commands::wanted(&cli.global) {
        return crate::fleet::commands::run_command(
            &cli.global,
            &cli.command,
            &settings,
            &env,
            &mut p,
        )
        .await;
    }
    if cli.global.max_parallel.is_some() {
        p.err_line("error: --max-parallel applies with --contexts or --all-contexts only");
        return ExitStatus::Usage;
    }
    if let Command::Patch(crate::cli::PatchArgs {
        canary: Some(_), ..
    })
    | Command::Delete(crate::cli::DeleteArgs {
        canary: Some(_), ..
    })
    | Command::Scale(crate::cli::ScaleArgs {
        canary: Some(_), ..
    })
    | Command::Label(crate::cli::LabelArgs {
        canary: Some(_), ..
    })
    | Command::Apply(crate::cli::ApplyArgs {
        canary: Some(_), ..
    })
    | Command::Annotate(crate::cli::LabelArgs {
        canary: Some(_), ..
    }) = &cli.command
    {
        p.err_line("error: --canary applies with --contexts or --all-contexts only (one context is one wave)");
        return ExitStatus::Usage;
    }
    if let Command::Rollout(r) = &cli.command
        && r.canary().is_some()
    {
        p.err_line("error: --canary applies with --contexts or --all-contexts only (one context is one wave)");
        return ExitStatus::Usage;
    }
    let status = dispatch(&cli.command, &settings, started, &mut p).await;
    // A TYPE two API groups serve was resolved by kubectl's priority: say which was used.
    for note in crate::cluster::discovery::take_notes() {
        p.err_line(&format!("warning: {note}"));
    }
    status
}

/// Runs one command that needs the resolved settings, and maps its outcome to an exit code.
async fn dispatch(
    command: &Command,
    settings: &Settings,
    started: Instant,
    p: &mut Printer<'_>,
) -> ExitStatus {
    match command {
        Command::Get(args) => {
            let outcome = verbs::get::run(settings, args, p).await;
            observe(settings, "get", outcome, started, p).await
        }
        Command::Patch(args) => {
            let outcome = verbs::patch::run(settings, args, p).await;
            observe(settings, "patch", outcome, started, p).await
        }
        Command::Edit(args) => {
            let outcome = verbs::edit::run(settings, args, p).await;
            observe(settings, "edit", outcome, started, p).await
        }
        Command::Delete(args) => {
            let outcome = verbs::delete::run(settings, args, p).await;
            observe(settings, "delete", outcome, started, p).await
        }
        Command::Scale(args) => {
            let outcome = verbs::scale::run(settings, args, p).await;
            observe(settings, "scale", outcome, started, p).await
        }
        Command::Label(args) => {
            let outcome = verbs::label::run(settings, args, verbs::label::Meta::Labels, p).await;
            observe(settings, "label", outcome, started, p).await
        }
        Command::Annotate(args) => {
            let outcome =
                verbs::label::run(settings, args, verbs::label::Meta::Annotations, p).await;
            observe(settings, "annotate", outcome, started, p).await
        }
        Command::Rollout(cmd) => {
            let outcome = verbs::rollout::run(settings, cmd, p).await;
            observe(settings, "rollout", outcome, started, p).await
        }
        Command::Apply(args) => {
            let outcome = verbs::apply::run(settings, args, p).await;
            observe(settings, "apply", outcome, started, p).await
        }
        Command::Undelete(args) => {
            let outcome = verbs::undelete::run(settings, args, p).await;
            observe(settings, "undelete", outcome, started, p).await
        }
        Command::Rollback(args) => {
            let outcome = match args.session {
                Some(_) => crate::fleet::rollback::run(settings, args, p).await,
                None => verbs::rollback::run(settings, args, p).await,
            };
            observe(settings, "rollback", outcome, started, p).await
        }
        // Drift found is exit 6 after the report: an answer, not an error to report.
        Command::Drift(args) => match verbs::drift::run(settings, args, p).await {
            Ok(answer) => match report(&Ok(()), p) {
                ExitStatus::Success => answer,
                failed => failed,
            },
            Err(e) => report(&Err(e), p),
        },
        Command::Changelog(cmd) => {
            let r = verbs::changelog_cmd::run(settings, cmd, p).await;
            report(&r, p)
        }
        Command::Crds(CrdsCommand::Sync(args)) => {
            let r = verbs::crds_sync::run(settings, args, p).await;
            report(&r, p)
        }
        Command::Crds(CrdsCommand::Watch(args)) => {
            let r = verbs::crds_watch::run(settings, args, p).await;
            report(&r, p)
        }
        Command::Metrics(cmd) => {
            let r = verbs::metrics_cmd::run(settings, cmd, p).await;
            report(&r, p)
        }
        Command::Protect(cmd) => {
            let r = verbs::protect::run(settings, cmd, p).await;
            report(&r, p)
        }
        Command::Policies(cmd) => {
            let r = verbs::policies::run(settings, cmd, p).await;
            report(&r, p)
        }
        Command::Crds(CrdsCommand::List(args)) => {
            let r = verbs::crds_list::run(settings, args, p).await;
            report(&r, p)
        }
        // `auth can-i` answering "no" is exit 3 after its answer: not an error to report.
        Command::Auth(cmd) => match verbs::auth::run(settings, cmd, p).await {
            Ok(answer) => match report(&Ok(()), p) {
                ExitStatus::Success => answer,
                failed => failed,
            },
            Err(e) => report(&Err(e), p),
        },
        Command::Config(ConfigCommand::Validate { path: None }) => {
            let contexts = kubeconfig_contexts(settings);
            let r = verbs::config_cmd::validate(Some(settings), None, contexts.as_deref(), p);
            finish_plain(r, p)
        }
        Command::Config(ConfigCommand::Schema)
        | Command::Mcp(_)
        | Command::Config(ConfigCommand::Validate { .. })
        | Command::Version
        | Command::Completion { .. } => ExitStatus::Success,
    }
}

/// Runs the MCP server (`kubectl myops mcp`) until its client closes stdin: the settings
/// are resolved once to check plugin.yaml and find the kubeconfig's current context, which
/// the server then fixes for every tool call.
async fn mcp(
    global: &crate::cli::GlobalArgs,
    args: &crate::cli::McpArgs,
    env: &Env,
    p: &mut Printer<'_>,
) -> ExitStatus {
    let settings = match Settings::resolve(global, env) {
        Ok(s) => s,
        Err(e) => {
            p.err_line(&format!("error: {e}"));
            return ExitStatus::Usage;
        }
    };
    let current = crate::cluster::client::load_kubeconfig(&settings.kube)
        .ok()
        .flatten()
        .and_then(|k| k.current_context);
    match crate::mcp::serve(&settings, global, args, current).await {
        Ok(()) => ExitStatus::Success,
        Err(e) => {
            p.err_line(&format!("error: {e}"));
            e.exit_status()
        }
    }
}

/// The context names of the kubeconfig `s` points at (`--kubeconfig`, `$KUBECONFIG`,
/// `~/.kube/config`, merged as kubectl does), for the `protect:` warnings of `config
/// validate`; `None` when there is none or it cannot be read. Read here, at the edge, because
/// verbs reach kubeconfig and cluster only through the guarded path.
fn kubeconfig_contexts(s: &crate::settings::Settings) -> Option<Vec<String>> {
    let kc = crate::cluster::client::load_kubeconfig(&s.kube).ok()??;
    Some(kc.contexts.into_iter().map(|c| c.name).collect())
}

/// Reports a verb's outcome, then records it as one `ops_*` observation and pushes the totals;
/// metric trouble is a warning, never a different exit code.
async fn observe(
    settings: &Settings,
    verb: &str,
    outcome: verbs::Outcome,
    started: Instant,
    p: &mut Printer<'_>,
) -> ExitStatus {
    let status = report(&outcome.result, p);
    let obs = Observation {
        verb: verb.into(),
        resource: outcome.resource.unwrap_or_else(|| "unknown".into()),
        status: metrics::Status::for_exit(status),
        duration_seconds: started.elapsed().as_secs_f64(),
        client: crate::metrics::client_label(settings.actor.as_deref()),
    };
    let s = settings;
    for w in metrics::finish(
        &s.home,
        &s.plugin.name,
        std::slice::from_ref(&obs),
        &s.plugin.metrics,
        s.push_target.as_ref(),
    )
    .await
    {
        p.err_line(&w);
    }
    status
}

fn finish_plain(r: Result<(), VerbError>, p: &mut Printer<'_>) -> ExitStatus {
    report(&r, p)
}

/// Prints a failure as one `error: …` line (kubectl prints server errors bare) and returns
/// the exit status.
fn report(r: &Result<(), VerbError>, p: &mut Printer<'_>) -> ExitStatus {
    if let Err(e) = p.flush() {
        return e.exit_status();
    }
    match r {
        Ok(()) => ExitStatus::Success,
        Err(VerbError::Output(o)) => o.exit_status(),
        Err(e) => {
            p.err_line(&e.line());
            e.exit_status()
        }
    }
}
