//! `patch`: authorized, previewed, journaled — all by the guarded path ([`crate::guard`]).
//!
//! Order (docs/design.md, "The guarded path"): plugin.yaml `verbs` and the change log proven
//! writable (both at [`Session::open`]) → plugin.yaml boundary → SelfSubjectAccessReview for
//! `patch` (with the subresource) → a `get` review, then the read of the object (the
//! before-state; a refused or forbidden read lets the patch go on without it) → intent record →
//! send the patch (or compute it locally for `--dry-run=client`) → outcome record → print
//! `<kind>.<group>/<name> patched` like kubectl. Every attempt — success, failure, dry run,
//! denial — is journaled. This file only parses the patch and prints the result, and the
//! one-line warning when the object is owned by a reconciler that will revert the change
//! (detected and journaled by the guarded path).

use serde_json::Value;

use crate::changelog::Operation;
use crate::cli::{PatchArgs, PatchType};
use crate::config::Verb;
use crate::guard::{ObjectRef, PatchRequest, ReconcilerPolicy, Session, Target, parse_target};
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
                    "{origin}:{line}:{column}: the patch is neither valid JSON nor YAML: {}",
                    parser_message(&msg)
                )));
            }
        },
    };
    match (patch_type, &value) {
        (PatchType::Json, Value::Array(ops)) => {
            check_json_patch(ops).map_err(|why| {
                VerbError::Usage(format!("{origin}: not a JSON patch (RFC 6902): {why}"))
            })?;
            serde_json::from_value::<json_patch::Patch>(value.clone()).map_err(|e| {
                VerbError::Usage(format!("{origin}: not a JSON patch (RFC 6902): {}; write a list of {{\"op\", \"path\", \"value\"}} operations", tame(&e.to_string())))
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
    let (target, body) = match prepare(args, crate::base::deadline::of(s.kube.request_timeout)) {
        Ok(x) => x,
        Err(e) => return Outcome::early(e),
    };
    let session = match Session::open(s, p, Verb::Patch).await {
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

/// The largest patch sent, in bytes: kube-apiserver's default `--max-request-body-bytes`
/// (3 MiB, k8s.io/apiserver `MaxRequestBodyBytes`); a larger body is refused by the server.
pub const MAX_PATCH_BYTES: usize = 3 * 1024 * 1024;

/// Reads `--patch-file`, a file the user named ([`crate::base::fsutil::read_named`]): a
/// regular file (links followed) or a FIFO (`--patch-file <(…)`, read once, its writer done
/// within `deadline`) of at most [`MAX_PATCH_BYTES`], UTF-8. A device or directory is refused
/// before it is opened; the size cap bounds the read.
///
/// # Errors
/// [`VerbError::Usage`] naming the file (escaped and capped) and what is wrong.
fn read_patch_file(
    f: &std::path::Path,
    deadline: std::time::Duration,
) -> Result<String, VerbError> {
    use crate::base::fsutil::Unreadable;
    let name = crate::base::echo::quoted(&f.display().to_string());
    let bad = |why: String| VerbError::Usage(format!("cannot read --patch-file {name}: {why}"));
    let (bytes, _) = crate::base::fsutil::read_named(f, MAX_PATCH_BYTES as u64, deadline).map_err(
        |e| match e.problem {
            Unreadable::TooLarge { size, .. } => bad(format!(
                "it is {size} bytes, more than the API server accepts in one request ({MAX_PATCH_BYTES} bytes)"
            )),
            other => bad(other.to_string()),
        },
    )?;
    String::from_utf8(bytes).map_err(|e| {
        bad(format!(
            "it is not UTF-8 text (invalid byte at offset {}); save the patch as UTF-8 JSON or YAML",
            e.utf8_error().valid_up_to()
        ))
    })
}

/// A parser's message made safe to print: control characters escaped, at most 200
/// characters (a YAML or serde message may quote the input, which may be anything).
fn tame(msg: &str) -> String {
    let mut out: String = msg
        .chars()
        .take(200)
        .flat_map(|c| {
            let esc: Vec<char> = if c.is_control() {
                c.escape_debug().collect()
            } else {
                vec![c]
            };
            esc
        })
        .collect();
    if msg.chars().nth(200).is_some() {
        out.push('…');
    }
    out
}

/// A JSON or YAML parser's message without what could quote the patch: the YAML parser's
/// repeated `error: line L column C:` prefix (the location is printed already) is dropped and
/// a duplicate-key message loses the key (a patch may carry Secret data, whose keys and values
/// are nobody's business on stderr); then [`tame`]d.
fn parser_message(msg: &str) -> String {
    let mut m = msg;
    if let Some(rest) = m.strip_prefix("error: line ")
        && let Some(i) = rest.find(": ")
    {
        m = &rest[i + 2..];
    }
    if m.starts_with("duplicate mapping key") {
        return "a mapping has the same key twice".into();
    }
    tame(m)
}

/// Whether an unknown JSON patch `op` may be echoed: a short word (letters, `-`, `_`; at most
/// 16) is a typo of an op and naming it finds the typo at once; anything else — digits, long
/// strings — may be a value pasted into the wrong field (a token), and is not shown.
fn is_word(op: &str) -> bool {
    !op.is_empty()
        && op.len() <= 16
        && op
            .chars()
            .all(|c| c.is_ascii_alphabetic() || c == '-' || c == '_')
}

/// The shape of an RFC 6902 patch, checked without echoing any of its values: every
/// operation an object with a known `op`, a string `path`, a `value` for add, replace and
/// test, a string `from` for move and copy.
///
/// # Errors
/// Which operation (counted from 1) is wrong and how.
fn check_json_patch(ops: &[Value]) -> Result<(), String> {
    for (i, op) in ops.iter().enumerate() {
        let n = i + 1;
        let Some(o) = op.as_object() else {
            return Err(format!("operation {n} is not an object"));
        };
        let kind = match o.get("op") {
            Some(Value::String(k))
                if matches!(
                    k.as_str(),
                    "add" | "remove" | "replace" | "move" | "copy" | "test"
                ) =>
            {
                k.as_str()
            }
            got => {
                // The op is named (escaped and capped) so a typo is found at once; it is a
                // keyword, not a value of the object being patched.
                let got = match got {
                    None => "has no \"op\"".to_string(),
                    Some(Value::String(k)) if is_word(k) => {
                        format!("has \"op\": {}", crate::base::echo::quoted(k))
                    }
                    Some(Value::String(k)) => format!(
                        "has an unknown \"op\" of {} characters, not shown",
                        k.chars().count()
                    ),
                    Some(_) => "has an \"op\" that is not a string".to_string(),
                };
                return Err(format!(
                    "operation {n} {got}; use one of add, remove, replace, move, copy or test"
                ));
            }
        };
        if !o.get("path").is_some_and(Value::is_string) {
            return Err(format!("operation {n} ({kind}) needs a string \"path\""));
        }
        if matches!(kind, "add" | "replace" | "test") && !o.contains_key("value") {
            return Err(format!("operation {n} ({kind}) needs a \"value\""));
        }
        if matches!(kind, "move" | "copy") && !o.get("from").is_some_and(Value::is_string) {
            return Err(format!("operation {n} ({kind}) needs a string \"from\""));
        }
    }
    Ok(())
}

/// Parses the arguments: exactly one object, one patch source, a known subresource (pure
/// apart from reading `--patch-file`).
fn prepare(args: &PatchArgs, deadline: std::time::Duration) -> Result<(Target, Value), VerbError> {
    let target = parse_target(&args.args).map_err(VerbError::Usage)?;
    if target.names.len() != 1 {
        return Err(VerbError::Usage(
            "patch needs exactly one object: TYPE NAME or TYPE/NAME".into(),
        ));
    }
    let (text, origin) = match (&args.patch, &args.patch_file) {
        (Some(t), None) => (t.clone(), "--patch".to_string()),
        (None, Some(f)) => (
            read_patch_file(f, deadline)?,
            crate::base::echo::bare(&f.display().to_string()),
        ),
        _ => {
            return Err(VerbError::Usage(
                "give the patch with -p/--patch or --patch-file (one of them)".into(),
            ));
        }
    };
    if text.len() > MAX_PATCH_BYTES {
        return Err(VerbError::Usage(format!(
            "{origin}: the patch is {} bytes, more than the API server accepts in one request ({MAX_PATCH_BYTES} bytes, kube-apiserver --max-request-body-bytes default); patch fewer fields at once",
            text.len()
        )));
    }
    if let Some(sr) = &args.subresource
        && !matches!(sr.as_str(), "status" | "scale")
    {
        return Err(VerbError::Usage(format!(
            "--subresource {}: patch supports status and scale",
            crate::base::echo::quoted(sr)
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
        dry_run: args.dry_run.strategy,
        subresource: args.subresource.as_deref(),
        field_manager: &args.field_manager,
        reconciler: ReconcilerPolicy::Warn,
    };
    let mut grant = session
        .authorize_change(obj, &req.as_change(), req.intent(obj, None))
        .await?;
    let before = session
        .before_state(&mut grant, obj, req.intent(obj, None))
        .await?;
    let patched = session.patch(&grant, obj, &req, before.as_ref()).await?;
    // An owner that will revert the change: one line, the patch went on.
    if let Some(owner) = &patched.reconciler {
        p.err_line(&owner.patch_warning(&obj.display()));
    }
    let after = patched.after;
    print_result(
        p,
        &obj.t,
        &obj.display(),
        "patched",
        before.as_ref(),
        &after,
        args.dry_run.strategy,
        args.diff,
        args.output.clone(),
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const CANARY: &str = "c4n4ryS3cr3t";

    #[test]
    fn bad_patches_never_quote_their_values_in_the_message() {
        let bad = [
            // The op is named (a keyword, not a value of the object); the value never is.
            (
                format!(r#"[{{"op":"frob","path":"/a","value":"{CANARY}"}}]"#),
                PatchType::Json,
            ),
            (
                format!(r#"[{{"op":"add","path":"/a","valu":"{CANARY}"}}]"#),
                PatchType::Json,
            ),
            (format!("{CANARY}: 1\n{CANARY}: 2\n"), PatchType::Merge),
            (format!("stringData: {{pw: {CANARY}"), PatchType::Merge),
            (
                format!(r#"{{"stringData":{{"pw":"{CANARY}"}}"#),
                PatchType::Merge,
            ),
            (format!("a: *{CANARY}"), PatchType::Merge),
        ];
        for (text, t) in bad {
            let e = parse_patch(&text, "--patch", t).unwrap_err().to_string();
            assert!(!e.contains(CANARY), "{text}: {e}");
            assert!(e.starts_with("--patch"), "{e}");
        }
        let e = parse_patch("a: 1\na: 2\n", "-p", PatchType::Merge)
            .unwrap_err()
            .to_string();
        assert!(e.ends_with("a mapping has the same key twice"), "{e}");
    }

    #[test]
    fn a_patch_file_fifo_without_a_writer_times_out_and_a_too_large_one_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("patch.fifo");
        if std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success())
        {
            let e = read_patch_file(&fifo, std::time::Duration::from_millis(50))
                .unwrap_err()
                .to_string();
            assert!(
                e.contains("nothing wrote to it and closed it within"),
                "{e}"
            );
        }
        let big = dir.path().join("big.json");
        std::fs::File::create(&big)
            .unwrap()
            .set_len(MAX_PATCH_BYTES as u64 + 1)
            .unwrap();
        let e = read_patch_file(&big, std::time::Duration::from_secs(1))
            .unwrap_err()
            .to_string();
        assert!(e.contains("3145729 bytes"), "{e}");
        let bin = dir.path().join("bin.json");
        std::fs::write(&bin, b"{\"a\": \"\xff\"}").unwrap();
        let e = read_patch_file(&bin, std::time::Duration::from_secs(1))
            .unwrap_err()
            .to_string();
        assert!(e.contains("not UTF-8"), "{e}");
    }

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
        assert!(
            e.contains("operation 1 has \"op\": \"frobnicate\"; use one of add, remove"),
            "{e}"
        );
        let e = parse_patch("[1, 2]", "-p", PatchType::Merge)
            .unwrap_err()
            .to_string();
        assert!(e.contains("is an object"), "{e}");
    }
}
