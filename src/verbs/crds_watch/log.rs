//! The watcher's log: one line per event and outcome, as text or JSON.

use serde_json::json;

use crate::output::Printer;

/// One line per event and outcome, as text or JSON.
pub(super) struct Log {
    /// The change log's records go to stdout (plugin.yaml `changelog.stdout`, on in a
    /// cluster): text lines then go to stderr, so stdout holds JSON lines only.
    pub(super) records: bool,
    /// `--log-format json`.
    pub(super) json: bool,
    /// `-v`: debug lines are written only when it is above 0.
    pub(super) verbose: u8,
}

impl Log {
    /// Writes one line: `error` and `warning` go to stderr as text (every text line, when
    /// records go to stdout), everything else (and every line as JSON, with `fields` merged
    /// in) to stdout, flushed at once.
    pub(super) fn emit(
        &self,
        p: &mut Printer<'_>,
        level: &str,
        event: &str,
        text: &str,
        fields: serde_json::Value,
    ) {
        if level == "debug" && self.verbose == 0 {
            return;
        }
        if !self.json && (self.records || matches!(level, "error" | "warning")) {
            let prefix = if level == "error" { "error: " } else { "" };
            p.err_line(&format!("{prefix}{text}"));
            return;
        }
        let line = if self.json {
            let mut obj = json!({"time": crate::changelog::now_rfc3339(), "level": level, "event": event, "message": text});
            if let (Some(o), Some(f)) = (obj.as_object_mut(), fields.as_object()) {
                o.extend(f.clone());
            }
            obj.to_string()
        } else {
            // A text line carries values the cluster wrote (a Lease's holder, a server's
            // answer): control characters escaped and the line capped, as on stderr.
            let text = crate::output::for_terminal(text);
            if level == "error" {
                format!("error: {text}")
            } else {
                text
            }
        };
        let _ = p.out(&format!("{line}\n"));
        let _ = p.flush();
    }
}
