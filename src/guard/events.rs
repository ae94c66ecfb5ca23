//! Events on the object (plugin.yaml `changelog.events: true`): every change the server made
//! through the guarded path is also an events.k8s.io/v1 Event regarding the object, so
//! `kubectl events` and `kubectl describe` show the team who changed it, with the change-log
//! entry id (docs/changelog.md, "Events on the object").
//!
//! One place: [`Session::emit_event`] is called right after an outcome record of a sent
//! request is appended ([`Session::journaled_with`] and [`Session::apply_batch`], which every
//! mutating verb goes through), so no verb can forget it. It is best-effort and after the
//! journal: the change is made and recorded either way, so an Event the caller may not create
//! (403), or any other failure, is one `warning:` line on stderr — never an error and never a
//! changed exit code. No SelfSubjectAccessReview is asked first: the create itself answers.
//!
//! The Event is built as client-go's events recorder builds one
//! (`k8s.io/client-go/tools/events/event_recorder.go`, `makeEvent`): name
//! `<object name>.<unique hex>`, in the object's namespace or `default` for a cluster-scoped
//! object, `eventTime` now, `reportingController`/`reportingInstance` set (events.k8s.io/v1
//! requires both: `k8s.io/kubernetes/pkg/apis/core/validation/events.go`,
//! `ValidateEventCreate`, which also limits the note to 1 KiB and `reportingInstance`,
//! `action` and `reason` to 128 characters).

use std::sync::atomic::{AtomicU64, Ordering};

use k8s_openapi::api::core::v1::ObjectReference;
use k8s_openapi::api::events::v1::Event;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{MicroTime, ObjectMeta};
use kube::Api;
use kube::api::PostParams;
use serde_json::Value;

use super::session::Session;
use crate::changelog::{Entry, Operation};
use crate::cluster::ApiError;

/// The Event's `reportingController` (a qualified name, as the API server requires).
pub const REPORTING_CONTROLLER: &str = "kubectl-myops";

/// The most bytes of an Event's `note` the API server accepts (`NoteLengthLimit`, 1 KiB).
pub const NOTE_LIMIT: usize = 1024;

/// The most characters of `reportingInstance` (`ReportingInstanceLengthLimit`).
pub const INSTANCE_LIMIT: usize = 128;

/// The most characters of an object name (a DNS subdomain, RFC 1123).
const NAME_LIMIT: usize = 253;

/// The Event `reason` of a change of `operation` (pure; the one place the names are): `None`
/// for the lifts of protection, which change local state, not an object of the cluster.
pub fn reason_of(operation: Operation) -> Option<&'static str> {
    Some(match operation {
        Operation::Patch => "MyopsPatched",
        Operation::Delete => "MyopsDeleted",
        Operation::Apply => "MyopsApplied",
        Operation::Scale => "MyopsScaled",
        Operation::Label => "MyopsLabeled",
        Operation::Annotate => "MyopsAnnotated",
        Operation::Edit => "MyopsEdited",
        Operation::Rollout => "MyopsRolledOut",
        Operation::Rollback => "MyopsRolledBack",
        Operation::Undelete => "MyopsUndeleted",
        Operation::CrdApply => "MyopsCRDApplied",
        Operation::CrdPrune => "MyopsCRDPruned",
        Operation::ProtectLift | Operation::ProtectEnd => return None,
    })
}

/// Whether `record` (an outcome record) gets an Event (pure): the server made the change
/// (`success`, or a delete it accepted: `deleting`), it was no dry run, it is no snapshot of
/// an object that went with its container, and it changed an object of the cluster.
pub fn wanted(record: &Entry) -> bool {
    record.succeeded()
        && !record.dry_run
        && record.parent.is_none()
        && reason_of(record.operation).is_some()
}

/// The Event's `note`: who (the API server's view of the user), the change-log entry and the
/// `--reason`, through the process-wide scrubber as every journaled string is
/// ([`crate::base::redact::scrub`]: a token pasted into a reason is not published), cut to
/// [`NOTE_LIMIT`] bytes on a character boundary.
pub fn note_of(record: &Entry) -> String {
    let mut note = format!(
        "by {} with kubectl-myops, change-log entry {}",
        record.user, record.id
    );
    if let Some(r) = &record.reason {
        note.push_str("; reason: ");
        note.push_str(r);
    }
    // Control and invisible characters escaped: `kubectl events` and `describe` print the
    // note raw to every teammate's terminal (the hostile review's ESC sequences in a reason).
    let note = crate::base::echo::escaped(&crate::base::redact::scrub(&note));
    cut(&note, NOTE_LIMIT).to_string()
}

/// `s` cut to at most `max` bytes, on a character boundary (pure).
fn cut(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// `reportingInstance`: `kubectl-myops-<host>`, cut to [`INSTANCE_LIMIT`] (pure apart from
/// reading the host name).
pub fn reporting_instance() -> String {
    let host = gethostname::gethostname()
        .into_string()
        .ok()
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "unknown".to_string());
    cut(&format!("{REPORTING_CONTROLLER}-{host}"), INSTANCE_LIMIT).to_string()
}

/// The Event's name (pure): `<object name>.<suffix hex>` as client-go names them, the object
/// name made a DNS subdomain (characters other than `a-z`, `0-9`, `-`, `.` become `-`: an
/// RBAC name like `system:viewer` may hold `:`) and cut so the whole is at most 253.
pub fn event_name(object: &str, suffix: u64) -> String {
    let hex = format!("{suffix:x}");
    let clean: String = object
        .chars()
        .map(|c| match c {
            'a'..='z' | '0'..='9' | '-' | '.' => c,
            'A'..='Z' => c.to_ascii_lowercase(),
            _ => '-',
        })
        .collect();
    let room = NAME_LIMIT - hex.len() - 1;
    let base = cut(&clean, room).trim_matches(|c| c == '-' || c == '.');
    let base = if base.is_empty() { "object" } else { base };
    format!("{base}.{hex}")
}

/// A suffix unique in this process and unlikely to repeat across processes: nanoseconds since
/// the epoch (client-go's `t.UnixNano()`) plus a counter.
fn unique_suffix() -> u64 {
    static SEQ: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or_default();
    nanos.wrapping_add(SEQ.fetch_add(1, Ordering::Relaxed))
}

/// The Event for `record` (pure apart from the clock and host name): regarding the object
/// (its uid: the before-state's, for a create the one the answer gave), in its namespace or
/// `default`.
pub fn event_for(record: &Entry) -> Option<Event> {
    let reason = reason_of(record.operation)?;
    let uid = record.uid.clone().or_else(|| {
        record
            .after
            .as_ref()
            .and_then(|a| a.pointer("/metadata/uid"))
            .and_then(Value::as_str)
            .map(str::to_string)
    });
    let action = serde_json::to_value(record.operation)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_else(|| reason.to_string());
    Some(Event {
        metadata: ObjectMeta {
            name: Some(event_name(&record.name, unique_suffix())),
            namespace: Some(
                record
                    .namespace
                    .clone()
                    .unwrap_or_else(|| "default".to_string()),
            ),
            ..Default::default()
        },
        event_time: Some(MicroTime(jiff::Timestamp::now())),
        reporting_controller: Some(REPORTING_CONTROLLER.to_string()),
        reporting_instance: Some(reporting_instance()),
        action: Some(action),
        reason: Some(reason.to_string()),
        type_: Some("Normal".to_string()),
        note: Some(note_of(record)),
        regarding: Some(ObjectReference {
            api_version: Some(record.api_version.clone()),
            kind: Some(record.kind.clone()),
            namespace: record.namespace.clone(),
            name: Some(record.name.clone()),
            uid,
            ..Default::default()
        }),
        ..Default::default()
    })
}

/// The `warning:` line for an Event that was not recorded (pure): the change was made and
/// journaled; why the Event was not, with the RBAC it needs when the server said 403.
pub fn warning(record: &Entry, namespace: &str, e: &ApiError) -> String {
    let why = match e {
        ApiError::Server { code: 403, .. } => format!(
            "RBAC: the caller may not create events.k8s.io/events in namespace {}",
            crate::base::echo::quoted(namespace)
        ),
        other => crate::base::echo::capped(&other.to_string(), 400),
    };
    format!(
        "warning: the change to {}/{} was made and journaled (entry {}), but its Event was not recorded: {why}",
        record.kind.to_lowercase(),
        crate::base::echo::escaped(&record.name),
        crate::base::echo::escaped(&record.id),
    )
}

impl Session<'_> {
    /// Creates the Event of `record` when plugin.yaml `changelog.events` is on and the record
    /// wants one ([`wanted`]), under the call deadline; a failure is one `warning:` line on
    /// stderr ([`warning`]), never an error (see the module doc).
    pub(crate) async fn emit_event(&self, record: &Entry) {
        if !self.settings().plugin.changelog.events || !wanted(record) {
            return;
        }
        let Some(event) = event_for(record) else {
            return;
        };
        let ns = event.metadata.namespace.clone().unwrap_or_default();
        let api: Api<Event> = Api::namespaced(self.client().clone(), &ns);
        if let Err(e) = self
            .call("the Event", api.create(&PostParams::default(), &event))
            .await
        {
            let mut line = warning(record, &ns, &e);
            // In a fan-out over contexts (whose sessions never ask on the terminal) the line
            // names its context, as the fan-out's own lines do.
            if let (false, Some(c)) = (self.settings().protect.terminal, record.context.as_deref())
            {
                line = line.replacen(
                    "warning: ",
                    &format!("warning: context {}: ", crate::base::echo::escaped(c)),
                    1,
                );
            }
            eprintln!("{}", crate::output::for_terminal(&line));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(op: Operation, result: &str) -> Entry {
        let mut e: Entry = serde_json::from_value(serde_json::json!({
            "id": "19a-1f-0", "session": "s", "timestamp": "2026-12-05T00:00:00Z",
            "plugin": "myops", "user": "alice", "context": "alice",
            "server": "https://127.0.0.1:6443", "apiVersion": "v1", "kind": "ConfigMap",
            "namespace": "team", "name": "app", "uid": "u-1", "operation": "patch",
            "patchType": "merge", "patch": null, "dryRun": false, "before": null,
            "resourceVersionAfter": "7", "result": result, "durationSeconds": 0.1
        }))
        .unwrap();
        e.operation = op;
        e
    }

    #[test]
    fn only_changes_the_server_made_to_objects_get_an_event() {
        assert!(wanted(&record(Operation::Patch, "success")));
        assert!(wanted(&record(Operation::Delete, "deleting")));
        assert!(!wanted(&record(Operation::Patch, "denied")));
        assert!(!wanted(&record(Operation::Patch, "outcome unknown: reset")));
        assert!(!wanted(&record(Operation::ProtectLift, "success")));
        let mut dry = record(Operation::Patch, "success");
        dry.dry_run = true;
        assert!(!wanted(&dry));
        let mut snapshot = record(Operation::Delete, "snapshot");
        assert!(!wanted(&snapshot));
        snapshot.result = "success".into();
        snapshot.parent = Some("ns-delete".into());
        assert!(!wanted(&snapshot));
    }

    #[test]
    fn every_operation_on_the_cluster_has_its_reason() {
        assert_eq!(reason_of(Operation::Rollback), Some("MyopsRolledBack"));
        assert_eq!(reason_of(Operation::CrdPrune), Some("MyopsCRDPruned"));
        assert_eq!(reason_of(Operation::ProtectEnd), None);
        let ev = event_for(&record(Operation::Rollout, "success")).unwrap();
        assert_eq!(ev.action.as_deref(), Some("rollout"));
        assert_eq!(ev.reason.as_deref(), Some("MyopsRolledOut"));
        assert_eq!(ev.metadata.namespace.as_deref(), Some("team"));
        let r = ev.regarding.unwrap();
        assert_eq!(r.uid.as_deref(), Some("u-1"));
        let mut cluster_scoped = record(Operation::CrdApply, "success");
        cluster_scoped.namespace = None;
        let ev = event_for(&cluster_scoped).unwrap();
        assert_eq!(ev.metadata.namespace.as_deref(), Some("default"));
        assert_eq!(ev.regarding.unwrap().namespace, None);
    }

    #[test]
    fn a_long_reason_is_cut_to_one_kib_on_a_character_boundary() {
        let mut e = record(Operation::Patch, "success");
        e.reason = Some("é".repeat(1000));
        let note = note_of(&e);
        assert!(note.len() <= NOTE_LIMIT && note.len() > NOTE_LIMIT - 2);
        assert!(
            note.starts_with("by alice with kubectl-myops, change-log entry 19a-1f-0; reason: é")
        );
        e.reason = Some("pasted Authorization: Bearer abcdefghijklmnop123".into());
        assert!(
            !note_of(&e).contains("abcdefghijklmnop123"),
            "{}",
            note_of(&e)
        );
        e.reason = None;
        assert_eq!(
            note_of(&e),
            "by alice with kubectl-myops, change-log entry 19a-1f-0"
        );
    }

    #[test]
    fn terminal_control_sequences_in_a_reason_reach_the_note_escaped() {
        let mut e = record(Operation::Patch, "success");
        e.reason = Some("line1\nline2\r\u{1b}[31mRED\u{7}".into());
        let note = note_of(&e);
        assert!(
            note.ends_with("reason: line1\\nline2\\r\\u{1b}[31mRED\\u{7}"),
            "{note}"
        );
        assert!(!note.chars().any(char::is_control), "{note:?}");
    }

    #[test]
    fn event_names_are_dns_subdomains_of_at_most_253() {
        assert_eq!(event_name("app", 0xabc), "app.abc");
        assert_eq!(event_name("system:Viewer", 1), "system-viewer.1");
        let long = event_name(&"a".repeat(300), u64::MAX);
        assert_eq!(long.len(), 253);
        assert!(long.ends_with(".ffffffffffffffff"));
        assert_eq!(event_name("::", 2), "object.2");
        assert!(reporting_instance().len() <= INSTANCE_LIMIT);
    }

    #[test]
    fn a_forbidden_event_names_the_rbac_it_needs() {
        let e = ApiError::Server {
            code: 403,
            reason: "Forbidden".into(),
            message: "events.events.k8s.io is forbidden".into(),
        };
        assert_eq!(
            warning(&record(Operation::Patch, "success"), "team", &e),
            "warning: the change to configmap/app was made and journaled (entry 19a-1f-0), but its Event was not recorded: RBAC: the caller may not create events.k8s.io/events in namespace \"team\""
        );
    }
}
