//! `get -w`, `--watch-only` and `--output-watch-events`: the flags checked as kubectl checks
//! them, the gate for `list` and `watch`, then the list and every change until stopped.

use kube::Resource;
use kube::api::{DynamicObject, ListParams};
use tokio::signal::unix::{Signal, SignalKind, signal};

use super::watch_print::WatchPrinter;
use crate::cli::{GetArgs, OutputFormat};
use crate::cluster::{ApiError, ResolvedType};
use crate::config::Verb;
use crate::guard::authz::AccessRequest;
use crate::guard::watch::{Event, EventType, Progress, Watch, WatchRequest};
use crate::guard::{Grant, Session};
use crate::output::Printer;
use crate::verbs::VerbError;

/// The watch flags as kubectl checks them (`get.go` `Validate` and `watch`), before any
/// request: `--output-watch-events` needs `-w` or `--watch-only`, and a watch follows one
/// type and at most one name (`types` and `names` as planned).
///
/// # Errors
/// A usage sentence (exit 2; kubectl exits 1 for these, an intended difference: they are
/// bad input).
pub(super) fn check_watch_flags(
    args: &GetArgs,
    types: usize,
    names: usize,
) -> Result<(), VerbError> {
    let watching = args.watch || args.watch_only;
    if args.output_watch_events && !watching {
        return Err(VerbError::Usage(
            "--output-watch-events option can only be used with --watch or --watch-only; add -w"
                .into(),
        ));
    }
    if watching && types > 1 {
        return Err(VerbError::Usage(
            "you may only specify a single resource type with --watch; watch one type at a time"
                .into(),
        ));
    }
    if watching && names > 1 {
        return Err(VerbError::Usage(
            "you may only watch a single resource or type of resource at a time; name one object, or none to watch them all"
                .into(),
        ));
    }
    Ok(())
}

/// `get -w` / `--watch-only` on one type, as kubectl's `watch` (`k8s.io/kubectl/pkg/cmd/get/
/// get.go`): gate (plugin.yaml, then SelfSubjectAccessReviews for `list` and `watch` — on
/// the name when one is given), list, print the list unless `--watch-only`, then print every
/// change as it comes until SIGINT/SIGTERM or `--request-timeout` (the whole watch, as
/// client-go's timeout bounds kubectl's; 0 or unset = until stopped). Both ends return
/// `Ok` (exit 0; kubectl exits 1 on a signal — an intended difference, the normal end of
/// the command runs: output flushed, one metrics operation recorded).
///
/// A name is watched as kubectl does (`fieldSelector=metadata.name=NAME`); a name that does
/// not exist is exit 4 (`--ignore-not-found`: exit 0, nothing watched). Tables go through
/// kubectl's tab writer with widths remembered across events; `--output-watch-events` adds
/// an EVENT column, or wraps objects as `{"type":…,"object":…}` (compact JSON, as kubectl).
/// The stream itself — re-watch on a normal end, BOOKMARKs, re-list on 410, waiting out a
/// server that stops answering — is [`crate::guard::watch::Watch`]; such an outage is one
/// warning on stderr and one line when the watch goes on (kubectl's watch ends instead).
///
/// # Errors
/// Usage (2) from [`check_watch_flags`], denied (3), not found (4), API failures (1).
pub(super) async fn watch_and_print(
    session: &Session<'_>,
    t: &ResolvedType,
    names: &[String],
    args: &GetArgs,
    p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    check_watch_flags(args, 1, names.len())?;
    if args.sort_by.is_some() {
        p.err_line(if args.watch {
            "warning: --watch requested, --sort-by will be ignored for watch events received"
        } else {
            "warning: --watch-only requested, --sort-by will be ignored"
        });
    }
    let namespace = session.namespace_for(t, args.all_namespaces);
    let name = names.first();
    let grant = authorize_watch(session, t, namespace.as_ref(), name, args, p).await?;
    let req = watch_request(t, namespace.as_deref(), name, args);
    // Installed before the first request: from here on SIGINT/SIGTERM end the watch
    // cleanly instead of killing the process.
    let mut stop = Stop {
        int: signal(SignalKind::interrupt())
            .map_err(|e| VerbError::io(format!("cannot handle SIGINT: {e}")))?,
        term: signal(SignalKind::terminate())
            .map_err(|e| VerbError::io(format!("cannot handle SIGTERM: {e}")))?,
        deadline: session
            .settings()
            .kube
            .request_timeout
            .filter(|d| !d.is_zero())
            .map(|d| tokio::time::Instant::now() + d),
    };
    let (mut w, listed) = Watch::start(session, &grant, req).await?;
    if let Some(n) = name
        && listed.is_empty()
    {
        if args.ignore_not_found {
            return Ok(());
        }
        return Err(ApiError::Server {
            code: 404,
            reason: "NotFound".into(),
            message: format!("{} \"{n}\" not found", t.group_resource()),
        }
        .into());
    }
    let mut out = WatchPrinter::new(t, args);
    if !args.watch_only {
        let initial: Vec<_> = listed
            .into_iter()
            .map(|item| Event {
                kind: EventType::Added,
                item,
            })
            .collect();
        out.print(p, w.columns(), initial)?;
    }
    p.flush()?;
    follow(&mut w, &mut out, &mut stop, session.settings().verbose, p).await?;
    p.flush()?;
    Ok(())
}

/// Passes the gate for a watch: plugin.yaml, then SelfSubjectAccessReviews for `list` and
/// `watch` (on `name` when one is given); `-v` says so.
async fn authorize_watch(
    session: &Session<'_>,
    t: &ResolvedType,
    namespace: Option<&String>,
    name: Option<&String>,
    args: &GetArgs,
    p: &mut Printer<'_>,
) -> Result<Grant, VerbError> {
    let ask = |verb: &str| AccessRequest {
        verb: verb.into(),
        group: t.api.group.clone(),
        resource: t.api.plural.clone(),
        subresource: None,
        namespace: namespace.cloned(),
        name: name.cloned(),
    };
    let grant = session
        .authorize(
            Verb::Get,
            t,
            args.all_namespaces,
            &[ask("list"), ask("watch")],
        )
        .await?;
    if session.settings().verbose > 0 {
        p.err_line(&format!(
            "I SelfSubjectAccessReview: list, watch {}{} allowed",
            t.group_resource(),
            name.map(|n| format!("/{n}")).unwrap_or_default()
        ));
    }
    Ok(grant)
}

/// The list-then-watch request: the selectors of `get`, a name as
/// `fieldSelector=metadata.name=NAME` (as kubectl), Table rows for `-o table|wide`.
fn watch_request(
    t: &ResolvedType,
    namespace: Option<&str>,
    name: Option<&String>,
    args: &GetArgs,
) -> WatchRequest {
    let field_selector = match (name, &args.field_selector) {
        (Some(n), Some(f)) => Some(format!("metadata.name={n},{f}")),
        (Some(n), None) => Some(format!("metadata.name={n}")),
        (None, f) => f.clone(),
    };
    let table = matches!(args.output, OutputFormat::Table | OutputFormat::Wide);
    WatchRequest {
        url: DynamicObject::url_path(&t.api, namespace),
        lp: ListParams {
            label_selector: args.selector.clone(),
            field_selector,
            limit: (args.chunk_size > 0).then_some(args.chunk_size),
            ..ListParams::default()
        },
        table,
        include_object: "Metadata",
    }
}

/// What ends a watch: SIGINT, SIGTERM, or the `--request-timeout` deadline.
struct Stop {
    int: Signal,
    term: Signal,
    deadline: Option<tokio::time::Instant>,
}

/// Prints every change as it comes until `stop`; an outage of the API server is one warning
/// on stderr and one line when the watch goes on, the output staying the changes. `-v`
/// (`verbose`) tells each re-list after a 410.
async fn follow(
    w: &mut Watch<'_>,
    out: &mut WatchPrinter<'_>,
    stop: &mut Stop,
    verbose: u8,
    p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    let t = out.resource();
    let deadline = stop.deadline;
    let mut relists = 0;
    loop {
        let until_deadline = async {
            match deadline {
                Some(d) => tokio::time::sleep_until(d).await,
                None => std::future::pending::<()>().await,
            }
        };
        tokio::select! {
            _ = stop.int.recv() => break,
            _ = stop.term.recv() => break,
            () = until_deadline => break,
            got = w.next() => {
                let events = match got? {
                    Progress::Events(events) => events,
                    // The outage once, and its end: on stderr, the output stays the changes.
                    Progress::Lost(e) => {
                        p.flush()?;
                        p.err_line(&format!(
                            "warning: the watch of {} is interrupted: {e}; it goes on from where it was when the server answers again",
                            t.group_resource()
                        ));
                        continue;
                    }
                    Progress::Resumed(down) => {
                        p.err_line(&format!(
                            "the watch of {} goes on: the API server answers again after {:.1}s",
                            t.group_resource(),
                            down.as_secs_f64()
                        ));
                        continue;
                    }
                };
                if verbose > 0 && w.relists() != relists {
                    relists = w.relists();
                    p.err_line(&format!(
                        "I watch of {} re-listed after 410 (too old resource version), {} time(s) so far",
                        t.group_resource(),
                        relists
                    ));
                }
                out.print(p, w.columns(), events)?;
                p.flush()?;
            }
        }
    }
    Ok(())
}
