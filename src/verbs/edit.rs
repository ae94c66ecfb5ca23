//! `edit`: the object opened in the user's editor, the difference sent as a patch — through
//! the guarded path, journaled as operation `edit`, reversible with `rollback`.
//!
//! Order: plugin.yaml `verbs` (`edit`) and the change log proven writable (both at
//! [`Session::open`], so the editor is never started when the change could not be journaled)
//! → plugin.yaml boundary and a SelfSubjectAccessReview for `patch` (the API verb the edit
//! really uses) → a `get` review and the read of the object (the before-state the buffer
//! shows) → the editor round ([`editor`], [`buffer`]) → the JSON merge patch of the
//! difference, pinned to the before-state's resourceVersion (a write in between is a 409,
//! exit 5) → [`Session::patch`]: field policies on a server-side dry run, intent record,
//! request, outcome record → `configmap/c1 edited`.
//!
//! Like kubectl (`pkg/cmd/util/editor/editoptions.go`), a save the server finds invalid (or
//! that does not parse) re-opens the file with the reasons as comments at the top; a
//! field-policy refusal does too. When the file comes back unchanged after such a failure,
//! the edit gives up, keeping a copy ("A copy of your changes has been stored to …").
//!
//! The patch is a JSON merge patch for every type, where kubectl sends a strategic merge
//! patch for built-in types: the merge patch replaces a list whole with the list as edited,
//! which is the edited object exactly; under the resourceVersion precondition the result is
//! the same, and the journal's inverse is computed the same way for every type.

pub mod buffer;
pub mod editor;

use serde_json::Value;

use crate::changelog::Operation;
use crate::cli::{DryRun, EditArgs, EditFormat, ObjectFormat, PatchType};
use crate::cluster::ApiError;
use crate::config::Verb;
use crate::guard::mutation::patch::with_precondition;
use crate::guard::{GuardError, ObjectRef, PatchRequest, ReconcilerPolicy, Session, parse_target};
use crate::output::Printer;
use crate::output::objects::print_result;
use crate::settings::Settings;
use crate::verbs::{Outcome, VerbError};
use buffer::Reason;
use editor::{Editor, Workspace};

/// Runs `edit TYPE NAME` (or `TYPE/NAME`).
///
/// Errors in the [`Outcome`]: usage (2: not exactly one object, an edited file too large),
/// denied (3: boundary, RBAC, a field policy), not found (4), conflict (5: the object changed
/// while it was being edited), failures (1: the editor failed, the file changed the name,
/// kind or apiVersion, a save that stayed invalid).
pub async fn run(s: &Settings, args: &EditArgs, p: &mut Printer<'_>) -> Outcome {
    let target = match parse_target(&args.args) {
        Ok(t) if t.names.len() == 1 => t,
        Ok(_) => {
            return Outcome::early(VerbError::Usage(
                "edit needs exactly one object: TYPE NAME or TYPE/NAME (one editor session per object)".into(),
            ));
        }
        Err(e) => return Outcome::early(VerbError::Usage(e)),
    };
    let session = match Session::open(s, p, Verb::Edit).await {
        Ok(x) => x,
        Err(e) => return Outcome::early(e),
    };
    let obj = match session
        .object(&target.type_name, &target.names[0], None)
        .await
    {
        Ok(o) => o,
        Err(e) => return Outcome::early(e),
    };
    let result = edit_object(&session, &obj, args, p).await;
    Outcome::on(obj.t.group_resource(), result)
}

/// What one save led to.
enum Saved {
    /// Done (edited, skipped or cancelled).
    Done,
    /// Re-open the file with these reasons; `err` is what the command ends with if the
    /// next save is unchanged.
    Retry {
        reasons: Vec<Reason>,
        err: VerbError,
    },
}

async fn edit_object(
    session: &Session<'_>,
    obj: &ObjectRef,
    args: &EditArgs,
    p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    let json = args.output == Some(EditFormat::Json);
    let empty = Value::Object(Default::default());
    let probe = request(&empty, &args.field_manager);
    let mut grant = session
        .authorize_change(obj, &probe.as_change(), probe.intent(obj, None))
        .await?;
    let before = session
        .before_state(&mut grant, obj, probe.intent(obj, None))
        .await?
        .ok_or_else(|| {
            VerbError::Usage(format!(
                "edit shows the object in an editor, and reading {} is forbidden; ask a cluster admin for get on it, or use patch",
                obj.display()
            ))
        })?;
    // A change protection refuses anyway is refused before the editor opens.
    session
        .refuse_early(probe.intent(obj, Some(&before)))
        .await?;
    let editor = Editor::from_env(
        std::env::var("KUBE_EDITOR").ok().as_deref(),
        std::env::var("EDITOR").ok().as_deref(),
        std::env::var("SHELL").ok().as_deref(),
    );
    let ws = Workspace::new(json).map_err(VerbError::io)?;
    let original = buffer::render(&before, json, &[]).map_err(VerbError::io)?;
    let mut text = original.clone();
    // After a failed save: what was saved, and the error to end with if nothing changes.
    let mut failed: Option<(String, VerbError)> = None;
    loop {
        let edited = match ws.round(&editor, &text) {
            Ok(t) => t,
            Err(e) => {
                if let Some((prev, _)) = &failed {
                    keep_copy(&ws, prev, p);
                }
                return Err(match e {
                    editor::EditorError::TooLarge(_) => VerbError::Usage(e.to_string()),
                    other => VerbError::io(other),
                });
            }
        };
        if let Some((prev, err)) = failed.take() {
            if buffer::strip_comments(&prev) == buffer::strip_comments(&edited) {
                keep_copy(&ws, &edited, p);
                return Err(match err {
                    e @ VerbError::Guard(_) => e,
                    _ => VerbError::io("Edit cancelled, no valid changes were saved."),
                });
            }
        } else if buffer::strip_comments(&original) == buffer::strip_comments(&edited) {
            p.err_line("Edit cancelled, no changes made.");
            return Ok(());
        }
        if !buffer::has_content(&edited) {
            p.err_line("Edit cancelled, saved file was empty.");
            return Ok(());
        }
        match save(session, &grant, obj, args, &before, &edited, p).await {
            Ok(Saved::Done) => return Ok(()),
            Ok(Saved::Retry { reasons, err }) => {
                text = buffer::header(&reasons) + &buffer::strip_comments(&edited);
                if json {
                    text = buffer::strip_comments(&edited);
                }
                failed = Some((edited, err));
            }
            Err(e) => {
                keep_copy(&ws, &edited, p);
                return Err(e);
            }
        }
    }
}

/// The patch request of an edit with `body`.
fn request<'a>(body: &'a Value, field_manager: &'a str) -> PatchRequest<'a> {
    PatchRequest {
        operation: Operation::Edit,
        patch_type: PatchType::Merge,
        body,
        dry_run: DryRun::None,
        subresource: None,
        field_manager,
        reconciler: ReconcilerPolicy::Warn,
    }
}

/// One save: parse, check, patch. `Ok(Retry)` for what kubectl re-opens the file for.
async fn save(
    session: &Session<'_>,
    grant: &crate::guard::Grant,
    obj: &ObjectRef,
    args: &EditArgs,
    before: &Value,
    edited: &str,
    p: &mut Printer<'_>,
) -> Result<Saved, VerbError> {
    let gr = obj.t.group_resource();
    let name = crate::base::echo::quoted(&obj.name);
    let invalid = |other: Vec<String>| Reason {
        head: format!("{gr} {name} was not valid"),
        other,
    };
    let parsed = match buffer::parse(edited) {
        Ok(v) => v,
        Err(why) => {
            p.err_line(&format!("error: {gr} {name} is invalid"));
            return Ok(Saved::Retry {
                reasons: vec![invalid(vec![why])],
                err: VerbError::io("Edit cancelled, no valid changes were saved."),
            });
        }
    };
    buffer::check_identity(before, &parsed).map_err(VerbError::io)?;
    let Some(diff) = buffer::merge_patch(before, &parsed) else {
        p.out(&format!("{} skipped\n", obj.display()))?;
        return Ok(Saved::Done);
    };
    let rv = before
        .pointer("/metadata/resourceVersion")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let body = with_precondition(PatchType::Merge, &diff, rv);
    if args.output_patch {
        p.out(&format!(
            "Patch: {}\n",
            serde_json::to_string(&diff).unwrap_or_default()
        ))?;
    }
    let req = request(&body, &args.field_manager);
    match session.patch(grant, obj, &req, Some(before)).await {
        Ok(patched) => {
            if let Some(owner) = &patched.reconciler {
                p.err_line(&owner.patch_warning(&obj.display()));
            }
            print_result(
                p,
                &obj.t,
                &obj.display(),
                "edited",
                Some(before),
                &patched.after,
                DryRun::None,
                false,
                args.output.map(|f| match f {
                    EditFormat::Json => ObjectFormat::Json,
                    EditFormat::Yaml => ObjectFormat::Yaml,
                }),
            )?;
            Ok(Saved::Done)
        }
        Err(GuardError::Api(ApiError::Server {
            code: 422, message, ..
        })) => {
            p.err_line(&format!("error: {gr} {name} is invalid"));
            Ok(Saved::Retry {
                reasons: vec![invalid(vec![message])],
                err: VerbError::io("Edit cancelled, no valid changes were saved."),
            })
        }
        Err(e @ (GuardError::Policy { .. } | GuardError::PolicyUnchecked { .. })) => {
            p.err_line(&format!("error: {e}"));
            Ok(Saved::Retry {
                reasons: vec![Reason {
                    head: e.to_string(),
                    other: vec![],
                }],
                err: VerbError::Guard(Box::new(e)),
            })
        }
        Err(e) => Err(e.into()),
    }
}

/// Keeps the edited text and says where, as kubectl does when an edit ends in an error.
fn keep_copy(ws: &Workspace, text: &str, p: &mut Printer<'_>) {
    match ws.keep(text) {
        Ok(path) => p.err_line(&format!(
            "A copy of your changes has been stored to {}",
            crate::base::echo::quoted(&path.display().to_string())
        )),
        Err(e) => p.err_line(&format!(
            "warning: your changes could not be kept in a temporary file: {}",
            crate::base::echo::bare(&e)
        )),
    }
}
