//! `label` and `annotate`: kubectl's two commands as one implementation on the mutation
//! model, parameterised by the metadata map they change ([`Meta`]).
//!
//! Order: kubectl's argument rules (`pkg/cmd/label/label.go`, `pkg/cmd/annotate/annotate.go`
//! `Complete`/`Validate`, the shared selection [`crate::guard::selection`]) and the pairs
//! ([`pairs::parse`]) → session (plugin.yaml verb `label` or `annotate`, the change log proven
//! writable) → the objects (a `list` review for `-l`/`--all`) → per object: the boundary and
//! the `patch` review, the read (the before-state; the change is computed from it, as kubectl
//! computes it from the object it GETs), the server's key and size rules and kubectl's
//! overwrite refusal (before anything is sent), then the merge patch of the keys that change
//! through [`Session::patch`] (field policies, write-ahead journal, operation `label` or
//! `annotate`, the reconciler warning) → kubectl's line. `--list` reads only: it prints the
//! keys after the changes given, and sends nothing (kubectl computes them locally then too).
//!
//! Nothing to change (every key already has its value) sends nothing and journals nothing:
//! `label` says `not labeled`, `annotate` `annotated`, as kubectl prints them.

pub mod pairs;

use serde_json::Value;

use crate::changelog::Operation;
use crate::cli::{DryRun, LabelArgs, PatchType};
use crate::config::Verb;
use crate::guard::{ObjectRef, PatchRequest, ReconcilerPolicy, SelectArgs, Selection, Session};
use crate::output::Printer;
use crate::settings::Settings;
use crate::verbs::{Outcome, VerbError};

pub use pairs::Meta;

/// The arguments after kubectl's rules (pure).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prepared {
    /// The object arguments (before the pairs).
    pub resources: Vec<String>,
    /// What is selected.
    pub selection: Selection,
    /// The changes.
    pub pairs: pairs::Pairs,
}

/// Applies kubectl's rules (pure), in its order and words.
///
/// # Errors
/// The usage message.
pub fn prepare(meta: Meta, a: &LabelArgs) -> Result<Prepared, String> {
    let (resources, pair_args) = pairs::split(&a.args, meta)?;
    let parsed = pairs::parse(meta, &pair_args)?;
    if a.list && a.output.is_some() {
        return Err("--list and --output may not be specified together".into());
    }
    if a.all && a.selector.is_some() {
        return Err("cannot set --all and --selector at the same time".into());
    }
    if a.all && a.field_selector.is_some() {
        return Err("cannot set --all and --field-selector at the same time".into());
    }
    if resources.is_empty() {
        return Err(
            "one or more resources must be specified as <resource> <name> or <resource>/<name>"
                .into(),
        );
    }
    if parsed.set.is_empty() && parsed.remove.is_empty() && !a.list {
        return Err(format!("at least one {} update is required", meta.noun()));
    }
    let selection = crate::guard::selection(&select_args(a, &resources))?;
    Ok(Prepared {
        resources,
        selection,
        pairs: parsed,
    })
}

fn select_args<'a>(a: &'a LabelArgs, resources: &'a [String]) -> SelectArgs<'a> {
    SelectArgs {
        args: resources,
        selector: a.selector.as_deref(),
        field_selector: a.field_selector.as_deref(),
        all: a.all,
        all_selects: false,
        all_namespaces: a.all_namespaces,
    }
}

/// The plugin.yaml verb and journal operation of `meta`'s command.
fn verb_of(meta: Meta) -> (Verb, Operation) {
    match meta {
        Meta::Labels => (Verb::Label, Operation::Label),
        Meta::Annotations => (Verb::Annotate, Operation::Annotate),
    }
}

/// Runs `label` (`meta` = [`Meta::Labels`]) or `annotate` ([`Meta::Annotations`]).
///
/// Errors in the [`Outcome`]: usage (2: bad pairs, a key or value the server refuses, a key
/// that has another value without `--overwrite`), denied (3: plugin.yaml, RBAC, a field
/// policy), not found (4), conflict (5: `--resource-version` not the object's), any other
/// failure (1). With several objects every one is tried; the exit status is the last
/// failure's.
pub async fn run(s: &Settings, a: &LabelArgs, meta: Meta, p: &mut Printer<'_>) -> Outcome {
    let prepared = match prepare(meta, a) {
        Ok(x) => x,
        Err(e) => return Outcome::early(VerbError::Usage(e)),
    };
    let (verb, _) = verb_of(meta);
    let session = match Session::open(s, p, verb).await {
        Ok(x) => x,
        Err(e) => return Outcome::early(e),
    };
    let objects = match session
        .gather(
            verb,
            &prepared.selection,
            &select_args(a, &prepared.resources),
        )
        .await
    {
        Ok(o) => o,
        Err(e) => return Outcome::early(e),
    };
    let resource = objects.first().map(|o| o.t.group_resource());
    let single = prepared.selection.single();
    if !single && a.resource_version.is_some() {
        return Outcome {
            resource,
            result: Err(VerbError::Usage(
                "--resource-version may only be used with a single resource".into(),
            )),
        };
    }
    let mut last: Option<VerbError> = None;
    for obj in &objects {
        if let Err(e) = change_one(&session, obj, a, meta, &prepared.pairs, single, p).await
            && let Some(prev) = last.replace(e)
        {
            report(&prev, p);
        }
    }
    Outcome {
        resource,
        result: last.map_or(Ok(()), Err),
    }
}

/// Prints a failure of one object as the app prints the last one.
fn report(e: &VerbError, p: &mut Printer<'_>) {
    match e {
        VerbError::Api(_) | VerbError::Invalid(_) => p.err_line(&e.to_string()),
        _ => p.err_line(&format!("error: {e}")),
    }
}

/// kubectl's line for one object (pure): `configmap/c1 labeled`, with ` (dry run)` or
/// ` (server dry run)`; with `-o name`, `configmap/c1` (cli-runtime's `NamePrinter`).
pub fn line(display: &str, message: &str, dry_run: DryRun, name_only: bool) -> String {
    if name_only {
        return format!("{display}\n");
    }
    let dry = match dry_run {
        DryRun::None => "",
        DryRun::Client => " (dry run)",
        DryRun::Server => " (server dry run)",
    };
    format!("{display} {message}{dry}\n")
}

/// Changes (or lists) one object: reviews, the read, the checks, the journaled patch, the
/// line.
async fn change_one(
    session: &Session<'_>,
    obj: &ObjectRef,
    a: &LabelArgs,
    meta: Meta,
    pairs: &pairs::Pairs,
    single: bool,
    p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    let (_, operation) = verb_of(meta);
    let empty = Value::Object(Default::default());
    let probe = request(a, operation, &empty);
    let mut grant = if a.list {
        session
            .authorize(verb_of(meta).0, &obj.t, false, &[obj.access("get", None)])
            .await?
    } else {
        session
            .authorize_change(obj, &probe.as_change(), probe.intent(obj, None))
            .await?
    };
    let before = session
        .before_state(&mut grant, obj, probe.intent(obj, None))
        .await?
        .ok_or_else(|| {
            VerbError::Usage(format!(
                "{} cannot be read, so which {} it has is not known; ask for get on {} (nothing was sent)",
                obj.display(),
                meta.field(),
                obj.t.group_resource()
            ))
        })?;
    let planned = pairs::plan(
        meta,
        &before,
        pairs,
        a.overwrite,
        a.resource_version.as_deref(),
    )
    .map_err(VerbError::Usage)?;
    pairs::check_keys(meta, &obj.t.api.kind, &obj.name, pairs, &planned.after)
        .map_err(VerbError::Invalid)?;
    if a.list {
        let header = (!single).then_some((
            obj.t.api.kind.as_str(),
            obj.t.api.group.as_str(),
            obj.name.as_str(),
        ));
        p.out(&pairs::listing(meta, &planned.after, header))?;
        return Ok(());
    }
    if meta == Meta::Labels && a.dry_run.strategy != DryRun::Client {
        for k in &planned.missing {
            p.out(&format!("label {} not found.\n", quoted_go(k)))?;
        }
    }
    if let Some(body) = &planned.body {
        let req = request(a, operation, body);
        let patched = session.patch(&grant, obj, &req, Some(&before)).await?;
        if let Some(owner) = &patched.reconciler {
            p.err_line(&owner.patch_warning(&obj.display()));
        }
    }
    p.out(&line(
        &obj.display(),
        planned.message,
        a.dry_run.strategy,
        a.output.is_some(),
    ))?;
    Ok(())
}

/// A key as Go's `%q` prints it ([`pairs::quoted`]).
fn quoted_go(k: &str) -> String {
    pairs::quoted(k)
}

/// The merge patch request of `operation` with `body`.
fn request<'a>(a: &'a LabelArgs, operation: Operation, body: &'a Value) -> PatchRequest<'a> {
    PatchRequest {
        operation,
        patch_type: PatchType::Merge,
        body,
        dry_run: a.dry_run.strategy,
        subresource: None,
        field_manager: &a.field_manager,
        reconciler: ReconcilerPolicy::Warn,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(cmd: &str, line: &[&str]) -> LabelArgs {
        let mut argv = vec!["kubectl-myops", cmd];
        argv.extend_from_slice(line);
        match <crate::cli::Cli as clap::Parser>::try_parse_from(argv)
            .unwrap()
            .command
        {
            crate::cli::Command::Label(a) | crate::cli::Command::Annotate(a) => a,
            _ => unreachable!(),
        }
    }

    #[test]
    fn kubectls_argument_rules_in_its_order() {
        let e = |cmd: &str, meta: Meta, line: &[&str]| prepare(meta, &args(cmd, line)).unwrap_err();
        assert_eq!(
            e("label", Meta::Labels, &["cm", "a"]),
            "at least one label update is required"
        );
        assert_eq!(
            e("annotate", Meta::Annotations, &["cm", "a"]),
            "at least one annotation update is required"
        );
        assert_eq!(
            e("label", Meta::Labels, &["cm", "--all", "-l", "a=b", "k=v"]),
            "cannot set --all and --selector at the same time"
        );
        assert_eq!(
            e("label", Meta::Labels, &["k=v"]),
            "one or more resources must be specified as <resource> <name> or <resource>/<name>"
        );
        assert_eq!(
            e("label", Meta::Labels, &["cm", "a", "--list", "-o", "name"]),
            "--list and --output may not be specified together"
        );
        assert_eq!(
            e("label", Meta::Labels, &["cm", "k=v"]),
            "resource(s) were provided, but no name was specified"
        );
        let ok = prepare(Meta::Labels, &args("label", &["cm/a", "k=v"])).unwrap();
        assert!(ok.selection.single());
        assert!(prepare(Meta::Labels, &args("label", &["cm", "a", "--list"])).is_ok());
    }

    #[test]
    fn lines_are_kubectls() {
        assert_eq!(
            line("configmap/c1", "labeled", DryRun::None, false),
            "configmap/c1 labeled\n"
        );
        assert_eq!(
            line("configmap/c1", "annotated", DryRun::Server, false),
            "configmap/c1 annotated (server dry run)\n"
        );
        assert_eq!(
            line("configmap/c1", "not labeled", DryRun::Client, true),
            "configmap/c1\n"
        );
    }
}
