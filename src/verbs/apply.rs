//! `apply -f FILE|DIR|- [-R]`: manifests server-side applied through the guarded path, one
//! journaled change per object (docs/changing.md, "apply").
//!
//! Per input (a file, a directory's files in name order, stdin), in two passes over its text,
//! each reading one document at a time ([`crate::crds::documents`]), so a file of ten
//! thousand objects is never held parsed:
//! 1. **check**: every document is an object with apiVersion, kind and name, without a
//!    client-side apply's annotation ([`check`]), and its kind is served — or defined by a
//!    CustomResourceDefinition earlier in the manifests. One bad document fails the file,
//!    `file:line:column`, before anything in it is sent (exit 2);
//! 2. **apply**: each object through [`Session::apply`] — the boundary of plugin.yaml verb
//!    `apply`, SelfSubjectAccessReviews for `create` and `patch` (and `get`, the
//!    before-state; asked once per type and namespace when allowed for all names), the
//!    reconciler warning, field policies on a server-side dry run, the write-ahead journal —
//!    printing kubectl's line (`configmap/c1 serverside-applied`) as each lands.
//!    A custom resource whose CRD the same manifests define waits until discovery serves it
//!    (the CRD is then Established). Consecutive objects of one type that its grant covers
//!    for every name and no field policy judges go in batches ([`batch`]): the same
//!    guarantees, with the journal's fsyncs shared and the requests in flight together.
//!
//! As kubectl, a failed object does not stop the others; the exit code is the most severe
//! failure's. A change log that cannot be written stops everything before the next request.

mod batch;
mod check;
mod sources;
mod words;

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::cli::{ApplyArgs, DryRun};
use crate::cluster::{ApiError, ResolvedType};
use crate::config::Verb;
use crate::crds::LoadError;
use crate::crds::documents::{Document, Limits, each_document, utf8};
use crate::guard::{ApplyRequest, Grant, GuardError, ObjectRef, Session};
use crate::output::Printer;
use crate::settings::Settings;
use crate::verbs::{Outcome, VerbError};

use check::{Defines, Head};
use sources::Input;
use words::{conflict, result_line, server_sentence, unknown_kind};

/// How many documents one manifest file may hold: far more than the 10,000 a large bundle
/// has, few enough that the check pass's heads stay small.
const LIMITS: Limits = Limits {
    documents: 100_000,
    advice: "split it into several files",
};

/// More objects than this get a progress line on a terminal.
pub const PROGRESS_ABOVE: usize = 20;

/// How long a custom resource waits for discovery to serve the kind its CRD (in the same
/// manifests, applied just before) defines.
const CRD_WAIT: Duration = Duration::from_secs(60);

/// Runs `apply`: refuses what is never done (a client-side apply, `--prune`, kubectl's
/// refusal of `--dry-run=client`, a forced apply plugin.yaml does not allow), lists the inputs, opens the session (plugin.yaml verb `apply`,
/// the change log proven writable), then checks and applies each input.
///
/// Errors in the [`Outcome`]: usage (2: bad files, refused flags), denied (3), conflict (5),
/// failures (1).
pub async fn run(s: &Settings, args: &ApplyArgs, p: &mut Printer<'_>) -> Outcome {
    if let Err(e) = refuse(s, args) {
        return Outcome::early(e);
    }
    let inputs = match sources::inputs(&args.filenames, args.recursive) {
        Ok(i) => i,
        Err(e) => return Outcome::early(VerbError::Usage(e)),
    };
    let session = match Session::open(s, p, Verb::Apply).await {
        Ok(x) => x,
        Err(e) => return Outcome::early(e),
    };
    let mut run = Run::new(&session, s, args, p);
    for input in &inputs {
        run.input(input, p).await;
        if run.stop {
            break;
        }
    }
    run.finish(p)
}

/// The flags that are never honoured, refused before anything is read or sent (pure).
///
/// # Errors
/// [`VerbError::Usage`] saying why.
fn refuse(s: &Settings, args: &ApplyArgs) -> Result<(), VerbError> {
    if !args.server_side {
        return Err(VerbError::Usage("--server-side=false asks for a client-side apply, which kubectl myops does not make: it computes the change on the client from the kubectl.kubernetes.io/last-applied-configuration annotation, so the server cannot say who owns which field and another writer's changes are overwritten unseen; every apply here is server-side (drop the flag)".into()));
    }
    if args.prune {
        return Err(VerbError::Usage("--prune is not supported: it deletes every object of a label selector or apply set that the files no longer hold, found by a list at apply time, which no journaled change describes and `rollback` cannot undo exactly; delete those objects with `kubectl myops delete` (journaled, undeletable) instead".into()));
    }
    if args.dry_run.strategy == DryRun::Client {
        // kubectl's own refusal (k8s.io/kubectl pkg/cmd/apply/apply.go): a client cannot
        // compute what a server-side apply would merge.
        return Err(VerbError::Usage("--dry-run=client doesn't work with --server-side (did you mean --dry-run=server instead?)".into()));
    }
    if args.force_conflicts && !s.plugin.apply.force_conflicts {
        return Err(VerbError::Usage("--force-conflicts is not allowed by plugin.yaml: a forced apply takes fields over from their other managers and overwrites what they set; set `apply: {forceConflicts: true}` in plugin.yaml to allow it (nothing was sent)".into()));
    }
    Ok(())
}

/// A type in a namespace: group, plural, namespace (`None`: cluster-scoped).
type TypeKey = (String, String, Option<String>);

/// One `apply` invocation's state across its inputs.
struct Run<'a> {
    session: &'a Session<'a>,
    args: &'a ApplyArgs,
    /// `-n`, when given (an object in another namespace is then refused, as kubectl does).
    namespace_flag: Option<String>,
    /// CRDs the manifests define, in order (their kinds may be served only once applied).
    defines: Vec<Defines>,
    /// The grant of a whole type in a namespace (`None`: not allowed for all names, so
    /// each object is reviewed by name).
    grants: Vec<(TypeKey, Option<Grant>)>,
    /// Objects found by the check pass, over all inputs.
    total: usize,
    /// Objects attempted.
    done: usize,
    /// The most severe failure (returned), the others printed when they happen.
    failed: Option<VerbError>,
    /// The metric `resource`: the first object's `plural.group`.
    resource: Option<String>,
    /// The change log cannot be written: nothing more is sent.
    stop: bool,
    /// Draw a progress line (stderr is a terminal, not a fan-out).
    terminal: bool,
    /// Whether a progress line is on the screen, and when it was drawn.
    drawn: Option<Instant>,
}

impl<'a> Run<'a> {
    fn new(
        session: &'a Session<'a>,
        s: &Settings,
        args: &'a ApplyArgs,
        p: &Printer<'_>,
    ) -> Run<'a> {
        Run {
            session,
            args,
            namespace_flag: s.kube.namespace.clone().filter(|n| !n.is_empty()),
            defines: Vec::new(),
            grants: Vec::new(),
            total: 0,
            done: 0,
            failed: None,
            resource: None,
            stop: false,
            terminal: s.stderr_is_terminal && !p.is_capturing(),
            drawn: None,
        }
    }

    /// Checks, then applies, one input.
    async fn input(&mut self, input: &Input, p: &mut Printer<'_>) {
        let path = input.path();
        let deadline = crate::base::deadline::of(self.session.settings().kube.request_timeout);
        let text: Arc<str> = match sources::read(input, deadline).and_then(|bytes| {
            utf8(&bytes, &path)?;
            Ok(String::from_utf8(bytes).unwrap_or_default())
        }) {
            Ok(t) => Arc::from(t),
            Err(e) => return self.fail(VerbError::Usage(e.to_string()), p),
        };
        let types = match self.check(&text, &path).await {
            Ok(t) => t,
            Err(e) => return self.fail(e, p),
        };
        if types.is_empty() {
            return;
        }
        self.total += types.len();
        self.send_all(text, path, types, p).await;
    }

    /// The check pass over `text`: each object's type (`None`: defined by a CRD of the
    /// manifests, resolved once it is applied), or the file's first bad document.
    async fn check(
        &mut self,
        text: &str,
        path: &std::path::Path,
    ) -> Result<Vec<Option<ResolvedType>>, VerbError> {
        let mut heads: Vec<Head> = Vec::new();
        let mut defines_at: Vec<(usize, Defines)> = Vec::new();
        let mut bad: Option<LoadError> = None;
        let located = |line, column, message| LoadError {
            file: path.to_path_buf(),
            line,
            column,
            message,
        };
        each_document(text, path, LIMITS, |doc| {
            for obj in check::objects(doc) {
                match check::check(&obj) {
                    Ok(h) => {
                        if let Some(d) = check::defines(&obj.value) {
                            defines_at.push((heads.len(), d));
                        }
                        heads.push(h);
                    }
                    Err(m) => {
                        bad = Some(located(obj.line, obj.column, m));
                        return ControlFlow::Break(());
                    }
                }
            }
            ControlFlow::Continue(())
        })
        .map_err(|e| VerbError::Usage(e.to_string()))?;
        if let Some(e) = bad {
            return Err(VerbError::Usage(e.to_string()));
        }
        let index = self.session.index().await.map_err(VerbError::Api)?;
        let mut types = Vec::with_capacity(heads.len());
        for (i, h) in heads.iter().enumerate() {
            let served = index
                .types()
                .iter()
                .find(|t| t.api.api_version == h.api_version && t.api.kind == h.kind);
            let t = match served {
                Some(t) => Some(t.clone()),
                None => {
                    let earlier = defines_at
                        .iter()
                        .any(|(at, d)| *at < i && d.serves(&h.api_version, &h.kind))
                        || self
                            .defines
                            .iter()
                            .any(|d| d.serves(&h.api_version, &h.kind));
                    if !earlier {
                        let later = defines_at
                            .iter()
                            .find(|(at, d)| *at > i && d.serves(&h.api_version, &h.kind));
                        return Err(VerbError::Usage(
                            located(
                                h.line,
                                h.column,
                                unknown_kind(h, later.map(|(at, _)| heads[*at].line)),
                            )
                            .to_string(),
                        ));
                    }
                    None
                }
            };
            if let (Some(t), Some(ns), Some(flag)) = (&t, &h.namespace, &self.namespace_flag)
                && t.namespaced
                && ns != flag
            {
                return Err(VerbError::Usage(located(h.line, h.column, format!(
                    "the namespace from the provided object {} does not match the namespace {}. You must pass '--namespace={}' to perform this operation.",
                    crate::base::echo::quoted(ns),
                    crate::base::echo::quoted(flag),
                    crate::base::echo::bare(ns)
                )).to_string()));
            }
            types.push(t);
        }
        self.defines.extend(defines_at.into_iter().map(|(_, d)| d));
        Ok(types)
    }

    /// The apply pass: the documents read again, one at a time on a blocking thread, each
    /// object applied in order.
    async fn send_all(
        &mut self,
        text: Arc<str>,
        path: PathBuf,
        types: Vec<Option<ResolvedType>>,
        p: &mut Printer<'_>,
    ) {
        let (tx, mut rx) = tokio::sync::mpsc::channel::<Document>(64);
        let reader = tokio::task::spawn_blocking(move || {
            let _ = each_document(&text, &path, LIMITS, |doc| {
                for obj in check::objects(doc) {
                    if tx.blocking_send(obj).is_err() {
                        return ControlFlow::Break(());
                    }
                }
                ControlFlow::Continue(())
            });
        });
        let mut types = types.into_iter();
        let mut batch = batch::Batch::default();
        while let Some(doc) = rx.recv().await {
            let Some(t) = types.next() else { break };
            // An object of a served type that its type's grant covers and no field policy
            // judges joins the batch; anything else goes alone, after the batch so far.
            let joined = match t {
                Some(t) => self.join(&mut batch, t, doc.value, p).await,
                None => Some((None, doc.value)),
            };
            if let Some((t, value)) = joined {
                self.flush(&mut batch, p).await;
                if self.stop {
                    break;
                }
                let result = self.one(t, &value, p).await;
                self.done += 1;
                if let Err(e) = result {
                    self.fail(e, p);
                }
            }
            if self.stop {
                break;
            }
            self.redraw(p);
        }
        if !self.stop {
            self.flush(&mut batch, p).await;
        }
        drop(rx);
        let _ = reader.await;
    }

    /// Applies one object and prints its line.
    async fn one(
        &mut self,
        t: Option<ResolvedType>,
        value: &Value,
        p: &mut Printer<'_>,
    ) -> Result<(), VerbError> {
        let text = |ptr: &str| value.pointer(ptr).and_then(Value::as_str).unwrap_or("");
        let t = match t {
            Some(t) => t,
            None => self.wait_served(text("/apiVersion"), text("/kind")).await?,
        };
        let obj = self.object_of(t, value);
        let req = ApplyRequest {
            body: value,
            dry_run: self.args.dry_run.strategy,
            field_manager: &self.args.field_manager,
            force: self.args.force_conflicts,
        };
        let grant = match self.type_grant(&obj, &req).await {
            Some(g) => g,
            None => self
                .session
                .authorize_apply(&obj, &req)
                .await
                .map_err(|e| self.guard_error(e))?,
        };
        let applied = self
            .session
            .apply(&grant, &obj, &req)
            .await
            .map_err(|e| self.guard_error(e))?;
        self.print_applied(&obj, &applied, p)
    }

    /// The reconciler warning, then kubectl's line for one applied object.
    fn print_applied(
        &mut self,
        obj: &ObjectRef,
        applied: &crate::guard::Applied,
        p: &mut Printer<'_>,
    ) -> Result<(), VerbError> {
        self.clear(p);
        if let Some(owner) = &applied.reconciler {
            p.err_line(&owner.patch_warning(&obj.display()));
        }
        let line = match self.args.output.as_deref() {
            Some("name") => obj.display(),
            _ => result_line(&obj.display(), self.args.dry_run.strategy),
        };
        p.out(&format!("{line}\n"))?;
        Ok(())
    }

    /// The object `value` names, of type `t`, in its namespace (the manifest's, else the
    /// session's); the first one names the metric `resource`.
    fn object_of(&mut self, t: ResolvedType, value: &Value) -> ObjectRef {
        let text = |ptr: &str| value.pointer(ptr).and_then(Value::as_str).unwrap_or("");
        let namespace = t.namespaced.then(|| {
            Some(text("/metadata/namespace"))
                .filter(|n| !n.is_empty())
                .unwrap_or(self.session.namespace())
                .to_string()
        });
        let obj = ObjectRef {
            t,
            namespace,
            name: text("/metadata/name").to_string(),
        };
        if self.resource.is_none() {
            self.resource = Some(obj.t.group_resource());
        }
        obj
    }

    /// A grant for every object of `obj`'s type in its namespace, asked once (create,
    /// patch and get without a name); `None` when not allowed for all names, and then each
    /// object is reviewed by name (and a refusal journaled for it).
    async fn type_grant(&mut self, obj: &ObjectRef, req: &ApplyRequest<'_>) -> Option<Grant> {
        let key = (
            obj.t.api.group.clone(),
            obj.t.api.plural.clone(),
            obj.namespace.clone(),
        );
        if let Some((_, g)) = self.grants.iter().find(|(k, _)| *k == key) {
            return g.clone();
        }
        let mut reviews = req.as_change().reviews_of_any(obj);
        reviews.push(crate::guard::authz::AccessRequest {
            name: None,
            ..obj.access("get", None)
        });
        let grant = self
            .session
            .authorize(Verb::Apply, &obj.t, false, &reviews)
            .await
            .ok();
        self.grants.push((key, grant.clone()));
        grant
    }

    /// Polls aggregated discovery until it serves `api_version` `kind` — a kind a CRD of the
    /// manifests defines, applied just before (served means Established) — for at most
    /// [`CRD_WAIT`].
    ///
    /// # Errors
    /// [`VerbError::Usage`] when it is not served in time (the CRD failed, or was a dry run),
    /// a failed discovery request.
    async fn wait_served(&self, api_version: &str, kind: &str) -> Result<ResolvedType, VerbError> {
        let started = Instant::now();
        loop {
            let index = self.session.fetch_index().await.map_err(VerbError::Api)?;
            if let Some(t) = index
                .types()
                .iter()
                .find(|t| t.api.api_version == api_version && t.api.kind == kind)
            {
                return Ok(t.clone());
            }
            if started.elapsed() > CRD_WAIT || self.args.dry_run.strategy != DryRun::None {
                return Err(VerbError::Usage(format!(
                    "{} {} is defined by a CustomResourceDefinition of these manifests, which is not served{}; apply the CRD first and check `kubectl get crd` for its conditions",
                    crate::base::echo::bare(kind),
                    crate::base::echo::bare(api_version),
                    if self.args.dry_run.strategy == DryRun::None {
                        format!(" after {}s", CRD_WAIT.as_secs())
                    } else {
                        " (a dry run applies no CRD)".to_string()
                    }
                )));
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// A guarded-path error as the verb's: a field conflict of the apply in kubectl's words
    /// (exit 5); a change log that cannot be written stops the run.
    fn guard_error(&mut self, e: GuardError) -> VerbError {
        if matches!(e, GuardError::Journal(_) | GuardError::Unjournaled(_)) {
            self.stop = true;
        }
        match e {
            GuardError::Api(ApiError::Server {
                code: 409, message, ..
            }) if message.starts_with("Apply failed") => {
                VerbError::Conflict(conflict(server_sentence(&message)))
            }
            other => other.into(),
        }
    }

    /// Keeps the most severe failure to return; prints the other now.
    fn fail(&mut self, e: VerbError, p: &mut Printer<'_>) {
        self.clear(p);
        if let Some(e) = VerbError::keep_worse(&mut self.failed, e) {
            match e {
                VerbError::Api(ApiError::Server { .. }) => p.err_line(&e.to_string()),
                e => p.err_line(&format!("error: {e}")),
            }
        }
    }

    /// Clears the progress line before a line is printed.
    fn clear(&mut self, p: &mut Printer<'_>) {
        if self.drawn.take().is_some() {
            p.progress(None);
        }
    }

    /// Draws the progress line (at most ten times a second) on a terminal, for a large run.
    fn redraw(&mut self, p: &mut Printer<'_>) {
        if !self.terminal || self.total <= PROGRESS_ABOVE {
            return;
        }
        if self
            .drawn
            .is_some_and(|at| at.elapsed() < Duration::from_millis(100))
        {
            return;
        }
        let _ = p.flush();
        p.progress(Some(&format!(
            "apply: {}/{} objects",
            self.done, self.total
        )));
        self.drawn = Some(Instant::now());
    }

    /// The outcome: the most severe failure, or "no objects" when the inputs held none.
    fn finish(mut self, p: &mut Printer<'_>) -> Outcome {
        self.clear(p);
        let result = match self.failed {
            Some(e) => Err(e),
            None if self.total == 0 => Err(VerbError::Usage("no objects passed to apply".into())),
            None => Ok(()),
        };
        Outcome {
            resource: self.resource,
            result,
        }
    }
}
