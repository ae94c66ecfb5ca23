//! Printing the events of `get -w` as kubectl does: table rows through a tab writer that
//! remembers its widths, objects one document per event, `--output-watch-events` wrapping
//! each in its event type.

use serde_json::Value;

use crate::cli::{GetArgs, OutputFormat};
use crate::cluster::ResolvedType;
use crate::cluster::table::{self, Table};
use crate::guard::watch::{Event, Item};
use crate::output::Printer;
use crate::output::custom_columns::tabwriter_remembering;
use crate::output::objects::{kubectl_json, kubectl_yaml, render_template, sort_keys};
use crate::output::server_table::{self, TableOptions};
use crate::verbs::VerbError;

/// The printing state of one watch: tab-writer widths remembered across events (kubectl's
/// `printers.GetNewTabWriter`, RememberWidths) and whether anything was printed (the table
/// header and the YAML `---` separator come once).
pub(super) struct WatchPrinter<'a> {
    t: &'a ResolvedType,
    args: &'a GetArgs,
    widths: Vec<usize>,
    started: bool,
}

impl<'a> WatchPrinter<'a> {
    /// A printer for the watch of `t`, nothing printed yet.
    pub(super) fn new(t: &'a ResolvedType, args: &'a GetArgs) -> Self {
        WatchPrinter {
            t,
            args,
            widths: Vec::new(),
            started: false,
        }
    }

    /// The type watched.
    pub(super) fn resource(&self) -> &'a ResolvedType {
        self.t
    }

    /// Prints `events` (table rows with `columns`, or objects) in the format of `-o`.
    pub(super) fn print(
        &mut self,
        p: &mut Printer<'_>,
        columns: &[table::Column],
        events: Vec<Event>,
    ) -> Result<(), VerbError> {
        if events.is_empty() {
            return Ok(());
        }
        if matches!(self.args.output, OutputFormat::Table | OutputFormat::Wide) {
            return self.print_rows(p, columns, events);
        }
        let keep = self.args.output_watch_events
            || self.args.show_managed_fields
            || matches!(self.args.output, OutputFormat::Template(_));
        for e in events {
            let Item::Object(o) = e.item else { continue };
            let obj = crate::output::objects::with_type_meta_keeping(o, self.t, keep);
            let kind = Value::String(e.kind.as_str().to_string());
            let text = self.object_text(obj, kind)?;
            self.started = true;
            p.out(&text)?;
        }
        Ok(())
    }

    /// `-o table|wide`: the rows of `events`, the header once, an EVENT column with
    /// `--output-watch-events`.
    fn print_rows(
        &mut self,
        p: &mut Printer<'_>,
        columns: &[table::Column],
        events: Vec<Event>,
    ) -> Result<(), VerbError> {
        let args = self.args;
        // cli-runtime `formattedEventType`: padded to 8 ("ADDED   ").
        let kinds: Vec<String> = events
            .iter()
            .map(|e| format!("{:<8}", e.kind.as_str()))
            .collect();
        let rows = events
            .into_iter()
            .filter_map(|e| match e.item {
                Item::Row(r) => Some(r),
                Item::Object(_) => None,
            })
            .collect();
        let tb = Table {
            column_definitions: columns.to_vec(),
            rows,
            ..Table::default()
        };
        let header = !args.no_headers && !self.started;
        let opts = TableOptions {
            wide: args.output == OutputFormat::Wide,
            with_namespace: args.all_namespaces && self.t.namespaced,
            show_labels: args.show_labels,
            no_headers: !header,
            label_columns: args.label_columns.clone(),
            kind_prefix: args.show_kind.then(|| self.t.name_prefix()),
        };
        let mut lines = server_table::lines(&tb, &opts);
        if args.output_watch_events {
            let skip = usize::from(header);
            if header {
                lines[0].insert(0, "EVENT".into());
            }
            for (l, k) in lines.iter_mut().skip(skip).zip(&kinds) {
                l.insert(0, k.clone());
            }
        }
        self.started = true;
        let text = tabwriter_remembering(&lines, &mut self.widths);
        p.out(&text)?;
        Ok(())
    }

    /// The text of one object event (`kind` its event type) in the format of `-o`.
    fn object_text(&mut self, obj: Value, kind: Value) -> Result<String, VerbError> {
        let args = self.args;
        let with_events = args.output_watch_events;
        let wrapped = |obj: Value| {
            if with_events {
                serde_json::json!({"type": kind, "object": obj})
            } else {
                obj
            }
        };
        Ok(match &args.output {
            OutputFormat::Name => {
                let n = obj
                    .pointer("/metadata/name")
                    .and_then(Value::as_str)
                    .unwrap_or("");
                format!("{}/{n}\n", self.t.name_prefix())
            }
            OutputFormat::Json if with_events => watch_event_json(&kind, obj)?,
            OutputFormat::Json => kubectl_json(&obj)?,
            OutputFormat::KYaml => crate::output::kyaml::to_string(&wrapped(sort_keys(obj))),
            OutputFormat::Template(crate::cli::TemplateFormat::CustomColumns(cols)) => {
                let lines = crate::output::custom_columns::lines(
                    &wrapped(obj),
                    cols,
                    args.no_headers || self.started,
                )
                .map_err(VerbError::io)?;
                tabwriter_remembering(&lines, &mut self.widths)
            }
            OutputFormat::Template(f) => render_template(
                f,
                &wrapped(obj),
                args.no_headers || self.started,
                args.allow_missing_template_keys,
            )
            .map_err(VerbError::io)?,
            _ => {
                let doc = if with_events {
                    serde_json::json!({"object": obj, "type": kind})
                } else {
                    obj
                };
                let yaml = kubectl_yaml(&sort_keys(doc))?;
                if self.started {
                    format!("---\n{yaml}")
                } else {
                    yaml
                }
            }
        })
    }
}

/// One watch event as kubectl's JSON printer encodes a WatchEvent with Go's json.Encoder:
/// one compact line, `type` first. The HTML-safe escapes are applied to the whole line: `<`,
/// `>`, `&`, U+2028 and U+2029 occur only in strings.
fn watch_event_json(kind: &Value, obj: Value) -> Result<String, VerbError> {
    let line = format!(
        "{{\"type\":{kind},\"object\":{}}}\n",
        serde_json::to_string(&sort_keys(obj)).map_err(VerbError::io)?
    );
    Ok(line
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029"))
}
