//! `patch`: authorized, previewed, journaled — all by the guarded path ([`crate::guard`]).
//!
//! Order (issue 4 and 9, ARCHITECTURE §4, §7): change log proven writable → plugin.yaml
//! boundary → SelfSubjectAccessReview for `patch` (with the subresource) → read the object
//! (the before-state; a forbidden read lets the patch go on without it) → intent record →
//! send the patch (or compute it locally for `--dry-run=client`) → outcome record → print
//! `<kind>.<group>/<name> patched` like kubectl. Every attempt — success, failure, dry run,
//! denial — is journaled. This file only parses the patch and prints the result.

use serde_json::Value;

use crate::authz::check_verb;
use crate::changelog::Operation;
use crate::cli::{PatchArgs, PatchType};
use crate::config::Verb;
use crate::guard::{Mode, ObjectRef, PatchRequest, Session, Target, parse_target};
use crate::output::Printer;
use crate::output::objects::print_result;
use crate::settings::Settings;
use crate::verbs::{Outcome, VerbError};

/// Parses a patch written as JSON or YAML (pure). A JSON patch must be a list of RFC 6902
/// operations; merge and strategic patches must be objects.
///
/// # Errors
/// [`VerbError::Usage`] with `origin:line:column` for text that is neither JSON nor YAML,
/// or a body of the wrong shape for `patch_type`.
pub fn parse_patch(text: &str, origin: &str, patch_type: PatchType) -> Result<Value, VerbError> {
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(json_err) => match serde_saphyr::from_str::<Value>(text) {
            Ok(v) if !text.trim_start().starts_with(['{', '[']) => v,
            Ok(_) | Err(_) => {
                // Text that looks like JSON gets the JSON parser's location; anything else YAML's.
                let (line, column, msg) = if text.trim_start().starts_with(['{', '[']) {
                    (
                        json_err.line() as u64,
                        json_err.column() as u64,
                        json_err.to_string(),
                    )
                } else {
                    let e = serde_saphyr::from_str::<Value>(text).err();
                    let loc = e
                        .as_ref()
                        .and_then(|e| e.location())
                        .map(|l| (l.line(), l.column()))
                        .unwrap_or((1, 1));
                    (
                        loc.0,
                        loc.1,
                        e.map(|e| e.to_string().lines().next().unwrap_or("").to_string())
                            .unwrap_or_default(),
                    )
                };
                return Err(VerbError::Usage(format!(
                    "{origin}:{line}:{column}: the patch is neither valid JSON nor YAML: {msg}"
                )));
            }
        },
    };
    match (patch_type, &value) {
        (PatchType::Json, Value::Array(_)) => {
            serde_json::from_value::<json_patch::Patch>(value.clone()).map_err(|e| {
                VerbError::Usage(format!("{origin}: not a JSON patch (RFC 6902): {e}; write a list of {{\"op\", \"path\", \"value\"}} operations"))
            })?;
        }
        (PatchType::Json, _) => {
            return Err(VerbError::Usage(format!(
                "{origin}: a JSON patch (--type json) is a list of operations, e.g. [{{\"op\":\"replace\",\"path\":\"/spec/replicas\",\"value\":3}}]"
            )));
        }
        (_, Value::Object(_)) => {}
        _ => {
            return Err(VerbError::Usage(format!(
                "{origin}: a merge or strategic patch is an object, e.g. {{\"spec\":{{\"replicas\":3}}}}"
            )));
        }
    }
    Ok(value)
}

/// Runs `patch` through the guarded path: the change log is proven writable before anything
/// is sent, the boundary and a SelfSubjectAccessReview for `patch` (with the subresource) are
/// passed (a refusal is journaled), the before-state is read, then the patch is sent between
/// its intent and outcome records.
///
/// Errors in the [`Outcome`]: usage (2: bad patch, strategic merge on a custom resource, a
/// failed JSON patch test), denied (3), not found (4), conflict (5), failures (1).
pub async fn run(s: &Settings, args: &PatchArgs, p: &mut Printer<'_>) -> Outcome {
    let (target, body) = match prepare(args) {
        Ok(x) => x,
        Err(e) => return Outcome::early(e),
    };
    if let Err(e) = check_verb(&s.plugin, Verb::Patch) {
        return Outcome::early(e);
    }
    let session = match Session::open(s, p, Mode::Mutate).await {
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
    let result = patch_object(&session, &obj, args, &body, p).await;
    Outcome::on(obj.t.group_resource(), result)
}

/// Parses the arguments: exactly one object, one patch source, a known subresource (pure
/// apart from reading `--patch-file`).
fn prepare(args: &PatchArgs) -> Result<(Target, Value), VerbError> {
    let target = parse_target(&args.args).map_err(VerbError::Usage)?;
    if target.names.len() != 1 {
        return Err(VerbError::Usage(
            "patch needs exactly one object: TYPE NAME or TYPE/NAME".into(),
        ));
    }
    let (text, origin) = match (&args.patch, &args.patch_file) {
        (Some(t), None) => (t.clone(), "--patch".to_string()),
        (None, Some(f)) => (
            std::fs::read_to_string(f).map_err(|e| {
                VerbError::Usage(format!("cannot read --patch-file {}: {e}", f.display()))
            })?,
            f.display().to_string(),
        ),
        _ => {
            return Err(VerbError::Usage(
                "give the patch with -p/--patch or --patch-file (one of them)".into(),
            ));
        }
    };
    if let Some(sr) = &args.subresource
        && !matches!(sr.as_str(), "status" | "scale")
    {
        return Err(VerbError::Usage(format!(
            "--subresource {sr:?}: patch supports status and scale"
        )));
    }
    let body = parse_patch(&text, &origin, args.patch_type)?;
    Ok((target, body))
}

async fn patch_object(
    session: &Session<'_>,
    obj: &ObjectRef,
    args: &PatchArgs,
    body: &Value,
    p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    let req = PatchRequest {
        operation: Operation::Patch,
        patch_type: args.patch_type,
        body,
        dry_run: args.dry_run,
        subresource: args.subresource.as_deref(),
        field_manager: &args.field_manager,
    };
    let grant = session
        .authorize_change(obj, args.subresource.as_deref(), req.intent(obj, None))
        .await?;
    let before = match session.read(&grant, obj).await {
        Ok(b) => b,
        Err(e) => {
            // A failed read is an attempt too: journaled as one record.
            let entry = session.intent(req.intent(obj, None)).await;
            session.journal_complete(entry, e.to_string())?;
            return Err(e.into());
        }
    };
    let after = session.patch(&grant, obj, &req, before.as_ref()).await?;
    print_result(
        p,
        &obj.t,
        &obj.display(),
        "patched",
        before.as_ref(),
        &after,
        args.dry_run,
        args.diff,
        args.output,
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patches_parse_from_json_or_yaml_and_bad_text_has_a_location() {
        assert_eq!(
            parse_patch(r#"{"spec":{"replicas":3}}"#, "-p", PatchType::Merge).unwrap()["spec"]["replicas"],
            3
        );
        assert_eq!(
            parse_patch("spec:\n  replicas: 3\n", "-p", PatchType::Strategic).unwrap()["spec"]["replicas"],
            3
        );
        let e = parse_patch("{\"spec\": {\"replicas\": }}", "-p", PatchType::Merge)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("-p:1:23: the patch is neither valid JSON nor YAML"),
            "{e}"
        );
        let e = parse_patch("spec:\n  replicas: [3\n", "p.yaml", PatchType::Merge)
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("p.yaml:"), "{e}");
        let e = parse_patch(r#"{"spec":{}}"#, "-p", PatchType::Json)
            .unwrap_err()
            .to_string();
        assert!(e.contains("a JSON patch (--type json) is a list"), "{e}");
        let e = parse_patch(
            r#"[{"op":"frobnicate","path":"/a"}]"#,
            "-p",
            PatchType::Json,
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("not a JSON patch"), "{e}");
        let e = parse_patch("[1, 2]", "-p", PatchType::Merge)
            .unwrap_err()
            .to_string();
        assert!(e.contains("is an object"), "{e}");
    }
}
