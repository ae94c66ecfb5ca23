//! What a tool call answers (pure): a structured result, or a structured error an agent can
//! act on — its `kind`, the exit code the command line gives, and the command's own
//! sentence.

use serde::Serialize;
use serde_json::{Value, json};

use super::run::{MAX_STDOUT_BYTES, Ran};

/// The kinds of failure an agent tells apart, from the documented exit codes
/// (docs/design.md, "Exit codes") and, for a refusal by plugin.yaml `protect:`, its sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// Refused by plugin.yaml, RBAC or a field policy (exit 3).
    Denied,
    /// Refused by a plugin.yaml `protect:` rule: a person must confirm (exit 3).
    Protected,
    /// The object or entry does not exist (exit 4).
    NotFound,
    /// Changed since it was read, or a precondition that does not hold (exit 5).
    Conflict,
    /// Bad arguments, or a change the API server refuses as invalid (exit 2).
    Invalid,
    /// Anything else: the API server unreachable, a local failure (exit 1).
    Runtime,
}

/// A tool's failure: what `kind`, the exit code the command line gives, and one sentence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolError {
    /// What kind of failure.
    pub kind: Kind,
    /// The exit code `kubectl myops` gives for it.
    pub exit_code: i32,
    /// The command's own sentence (escaped and capped by it; control characters never reach
    /// the agent).
    pub message: String,
}

impl ToolError {
    /// A failure found before anything ran.
    pub fn new(kind: Kind, message: impl Into<String>) -> ToolError {
        let exit_code = match kind {
            Kind::Denied | Kind::Protected => 3,
            Kind::NotFound => 4,
            Kind::Conflict => 5,
            Kind::Invalid => 2,
            Kind::Runtime => 1,
        };
        ToolError {
            kind,
            exit_code,
            message: message.into(),
        }
    }

    /// The failure a child's exit code and stderr tell.
    ///
    /// A command that reports several failures (`rollback --session`, `undelete` of a List)
    /// ends with a sentence naming the lines above it: those lines join the message, and a
    /// `protect:` refusal among them makes the kind `protected`.
    pub fn of(ran: &Ran) -> ToolError {
        let mut message = sentence(&ran.stderr);
        if message.contains("named above") {
            let above: Vec<&str> = ran
                .stderr
                .lines()
                .filter_map(|l| l.strip_prefix("error: "))
                .filter(|l| *l != message)
                .collect();
            if !above.is_empty() {
                message = crate::base::echo::capped(
                    &format!("{message} — {}", above.join("; ")),
                    MAX_MESSAGE_CHARS,
                );
            }
        }
        // Only the patch tool names /dev/stdin (its `patch` argument goes there, never a
        // path of the agent's): the sentence names the argument instead.
        if let Some(rest) = message.strip_prefix("/dev/stdin: ") {
            message = format!("the `patch` argument: {rest}");
        }
        let kind = match ran.code {
            2 => Kind::Invalid,
            3 if message.contains("protect[") => Kind::Protected,
            3 => Kind::Denied,
            4 => Kind::NotFound,
            5 => Kind::Conflict,
            _ => Kind::Runtime,
        };
        ToolError {
            kind,
            exit_code: ran.code,
            message,
        }
    }

    /// The error as the tool result's JSON.
    pub fn to_json(&self) -> Value {
        json!({"error": self})
    }
}

/// The longest error message of several failures, in characters (a session of many
/// entries is summed up, never pasted whole).
const MAX_MESSAGE_CHARS: usize = 4000;

/// The command's failure sentence from its stderr (pure): its last `error:` line without the
/// prefix, else its last line (the API server's own sentence is printed bare, as kubectl
/// prints it).
pub fn sentence(stderr: &str) -> String {
    let lines: Vec<&str> = stderr.lines().filter(|l| !l.trim().is_empty()).collect();
    lines
        .iter()
        .rev()
        .find_map(|l| l.strip_prefix("error: "))
        .or_else(|| lines.last().copied())
        .unwrap_or("the command failed without saying why")
        .to_string()
}

/// The `warning:` lines of a child's stderr (pure), for the result.
pub fn warnings(stderr: &str) -> Vec<String> {
    stderr
        .lines()
        .filter_map(|l| l.strip_prefix("warning: "))
        .map(str::to_string)
        .collect()
}

/// A successful child's stdout as the result (pure): its JSON when it printed JSON, else
/// the text.
///
/// # Errors
/// A runtime [`ToolError`] when the output went past [`MAX_STDOUT_BYTES`].
pub fn output(ran: &Ran) -> Result<Value, ToolError> {
    if ran.truncated {
        return Err(ToolError::new(
            Kind::Runtime,
            format!(
                "the answer is larger than {} MiB; narrow it with a name, a selector or a namespace",
                MAX_STDOUT_BYTES / (1024 * 1024)
            ),
        ));
    }
    Ok(serde_json::from_str::<Value>(&ran.stdout)
        .unwrap_or_else(|_| Value::String(ran.stdout.clone())))
}

/// Masks every Secret value in `v` (pure): a Secret's `data` and `stringData` values, and
/// its `last-applied-configuration` annotation (a copy of them), in an object, a `List`'s
/// items or a fan-out's per-context results — the change log's redaction
/// ([`crate::changelog::redact`]), applied wherever a Secret appears.
pub fn redact_secrets(v: Value) -> Value {
    match v {
        Value::Object(mut m) => {
            for (_, child) in m.iter_mut() {
                if child.is_object() || child.is_array() {
                    *child = redact_secrets(child.take());
                }
            }
            crate::changelog::redact(Value::Object(m))
        }
        Value::Array(a) => Value::Array(a.into_iter().map(redact_secrets).collect()),
        other => other,
    }
}

/// The fields that change with every write, left out of a preview's diff (pure).
fn comparable(mut v: Value) -> Value {
    if let Some(m) = v.get_mut("metadata").and_then(Value::as_object_mut) {
        for f in ["resourceVersion", "managedFields", "generation"] {
            m.remove(f);
        }
    }
    v
}

/// What a change would do, as RFC 6902 operations from `before` to `after` (pure; Secret
/// values masked in both first, a changed one reading `<redacted> (changed)`), e.g.
/// `[{"op":"replace","path":"/data/k","value":"v2"}]`.
pub fn diff(before: Option<&Value>, after: Option<&Value>) -> Value {
    let kind = after
        .or(before)
        .and_then(|o| o.get("kind"))
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let b = before
        .cloned()
        .map(|b| comparable(crate::changelog::redact_as(&kind, b)));
    let a = after
        .cloned()
        .map(|a| comparable(crate::changelog::redact_after(&kind, before, a)));
    match (b, a) {
        (Some(b), Some(a)) => serde_json::to_value(json_patch::diff(&b, &a)).unwrap_or(Value::Null),
        (None, Some(a)) => json!([{"op": "add", "path": "", "value": a}]),
        (Some(_), None) => json!([{"op": "remove", "path": ""}]),
        (None, None) => json!([]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ran(code: i32, stderr: &str) -> Ran {
        Ran {
            code,
            stdout: String::new(),
            stderr: stderr.into(),
            truncated: false,
        }
    }

    #[test]
    fn an_exit_code_and_its_sentence_become_the_errors_kind() {
        let e = ToolError::of(&ran(
            3,
            "warning: x\nerror: bob may not get configmaps in namespace \"shop\"\n",
        ));
        assert_eq!(e.kind, Kind::Denied);
        assert_eq!(e.exit_code, 3);
        assert_eq!(
            e.message,
            "bob may not get configmaps in namespace \"shop\""
        );
        let e = ToolError::of(&ran(
            3,
            "error: scale deployment.apps/web in namespace \"shop\" of context \"admin\" is protected by plugin.yaml protect[0] (confirm): x\n",
        ));
        assert_eq!(e.kind, Kind::Protected);
        let e = ToolError::of(&ran(
            4,
            "Error from server (NotFound): configmaps \"nope\" not found\n",
        ));
        assert_eq!(e.kind, Kind::NotFound);
        assert_eq!(
            e.message,
            "Error from server (NotFound): configmaps \"nope\" not found"
        );
        assert_eq!(ToolError::of(&ran(5, "error: c")).kind, Kind::Conflict);
        // A session's rollback: the per-entry lines are the reason, the last names them.
        let e = ToolError::of(&ran(
            3,
            "error: context admin: entry 1a-0: patch configmap/c1 in namespace \"prod\" of context \"admin\" is protected by plugin.yaml protect[0] (confirm)\nerror: 1 of 1 change(s) of session s1 were not rolled back (each is named above; 0 rolled back or already as before)\n",
        ));
        assert_eq!(e.kind, Kind::Protected);
        assert!(
            e.message.starts_with("1 of 1 change(s) of session s1")
                && e.message.ends_with("protect[0] (confirm)"),
            "{}",
            e.message
        );
        assert_eq!(ToolError::of(&ran(2, "error: c")).kind, Kind::Invalid);
        assert_eq!(
            ToolError::of(&ran(2, "error: /dev/stdin: a JSON patch is a list\n")).message,
            "the `patch` argument: a JSON patch is a list"
        );
        assert_eq!(ToolError::of(&ran(1, "")).kind, Kind::Runtime);
    }

    #[test]
    fn a_secret_in_a_list_or_a_fan_out_never_shows_its_values() {
        let v = json!({"kind": "List", "items": [
            {"kind": "Secret", "metadata": {"name": "s", "annotations": {"kubectl.kubernetes.io/last-applied-configuration": "{\"data\":{\"p\":\"c2VjcmV0\"}}"}}, "data": {"p": "c2VjcmV0"}, "stringData": {"q": "secret"}},
            {"kind": "ConfigMap", "data": {"k": "v"}}
        ]});
        let r = redact_secrets(v);
        assert_eq!(r["items"][0]["data"]["p"], "<redacted>");
        assert_eq!(r["items"][0]["stringData"]["q"], "<redacted>");
        assert_eq!(r["items"][0]["metadata"]["annotations"], json!({}));
        assert_eq!(r["items"][1]["data"]["k"], "v");
        assert!(!r.to_string().contains("c2VjcmV0"));
    }

    #[test]
    fn a_previews_diff_names_the_changed_fields_and_masks_secret_values() {
        let before = json!({"kind": "ConfigMap", "metadata": {"name": "c", "resourceVersion": "1"}, "data": {"k": "v1"}});
        let after = json!({"kind": "ConfigMap", "metadata": {"name": "c", "resourceVersion": "1"}, "data": {"k": "v2"}});
        assert_eq!(
            diff(Some(&before), Some(&after)),
            json!([{"op": "replace", "path": "/data/k", "value": "v2"}])
        );
        let before = json!({"kind": "Secret", "metadata": {"name": "s"}, "data": {"p": "b2xk"}});
        let after = json!({"kind": "Secret", "metadata": {"name": "s"}, "data": {"p": "bmV3"}});
        let d = diff(Some(&before), Some(&after));
        assert_eq!(
            d,
            json!([{"op": "replace", "path": "/data/p", "value": "<redacted> (changed)"}])
        );
        assert_eq!(
            diff(Some(&before), None),
            json!([{"op": "remove", "path": ""}])
        );
    }
}
