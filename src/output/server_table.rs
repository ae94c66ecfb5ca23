//! Server-side printing, the rendering: the rows of a `meta.k8s.io/v1` Table
//! ([`crate::cluster::table`]) as kubectl prints them.
//!
//! The server supplies the columns (kubectl `pkg/cmd/get`, KEP-2316 server-side
//! printing), which is how CRD `additionalPrinterColumns` show with no per-type code. Columns with
//! `priority > 0` appear only with `-o wide`. Cells print as kubectl's table printer prints
//! them (`k8s.io/cli-runtime/pkg/printers/tableprinter.go` `printRows`): strings as the
//! server formatted them (the server already turns CRD `date` columns into ages), cut at
//! the first line break with `...`, ESC and CR escaped (`^[`, `\r`); `null` (a CRD column
//! whose path is missing) as an empty cell; other values as Go's `fmt.Sprint`.

use serde_json::Value;

use crate::cluster::table::{Column, Table};

/// How to render a table.
#[derive(Debug, Clone, Default)]
pub struct TableOptions {
    /// Show priority > 0 columns.
    pub wide: bool,
    /// Prepend a NAMESPACE column (for `-A`).
    pub with_namespace: bool,
    /// Append a LABELS column.
    pub show_labels: bool,
    /// Omit the header line.
    pub no_headers: bool,
    /// `-L/--label-columns`: one column per label key, after the server's columns, headed
    /// by the key's last `/` segment upper-cased, empty when the object lacks the label.
    pub label_columns: Vec<String>,
    /// `--show-kind` (or several types): `kind.group` put before the name in the `name`
    /// column, as `pod/web` (kubectl `printRows`).
    pub kind_prefix: Option<String>,
}

/// Renders rows as kubectl's table printer does: the NAMESPACE column for `-A`, the
/// server's columns (upper-case headers; `priority > 0` only when wide), the `-L` label
/// columns, LABELS for `--show-labels`, laid out by
/// [`crate::output::custom_columns::tabwriter`] (kubectl's tab writer, byte for byte).
pub fn render(table: &Table, opts: TableOptions) -> String {
    crate::output::custom_columns::tabwriter(&lines(table, &opts))
}

/// The cells [`render`] lays out, line by line (the header line first unless
/// `opts.no_headers`): for printers that lay them out themselves, as `get -w` does with
/// widths remembered across events.
pub fn lines(table: &Table, opts: &TableOptions) -> Vec<Vec<String>> {
    let shown: Vec<(usize, &Column)> = table
        .column_definitions
        .iter()
        .enumerate()
        .filter(|(_, c)| opts.wide || c.priority == 0)
        .collect();
    let mut lines: Vec<Vec<String>> = Vec::new();
    if !opts.no_headers {
        let mut h: Vec<String> = Vec::new();
        if opts.with_namespace {
            h.push("NAMESPACE".into());
        }
        h.extend(shown.iter().map(|(_, c)| c.name.to_uppercase()));
        h.extend(
            opts.label_columns
                .iter()
                .map(|l| l.rsplit('/').next().unwrap_or(l).to_uppercase()),
        );
        if opts.show_labels {
            h.push("LABELS".into());
        }
        lines.push(h);
    }
    for row in &table.rows {
        let mut l: Vec<String> = Vec::new();
        if opts.with_namespace {
            l.push(
                row.object
                    .pointer("/metadata/namespace")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
            );
        }
        for (i, c) in &shown {
            let mut text = cell(row.cells.get(*i).unwrap_or(&Value::Null));
            if let Some(kind) = &opts.kind_prefix
                && c.format == "name"
            {
                text = format!("{kind}/{text}");
            }
            l.push(text);
        }
        for key in &opts.label_columns {
            l.push(
                row.object
                    .pointer("/metadata/labels")
                    .and_then(|m| m.get(key))
                    .and_then(Value::as_str)
                    .map(escape)
                    .unwrap_or_default(),
            );
        }
        if opts.show_labels {
            l.push(escape(&labels(&row.object)));
        }
        lines.push(l);
    }
    lines
}

/// kubectl's `printers.EscapeTerminal`: ESC as `^[`, CR as `\r`.
fn escape(s: &str) -> String {
    s.replace('\u{1b}', "^[").replace('\r', "\\r")
}

/// One cell as kubectl's `printRows` writes it.
fn cell(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => match s.find(['\u{c}', '\n', '\r']) {
            Some(i) => format!("{}...", escape(&s[..i])),
            None => escape(s),
        },
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        // Go prints maps and slices with fmt.Sprint; no server sends them in a Table cell.
        other => escape(&other.to_string()),
    }
}

fn labels(object: &Value) -> String {
    let Some(map) = object
        .pointer("/metadata/labels")
        .and_then(Value::as_object)
    else {
        return "<none>".into();
    };
    if map.is_empty() {
        return "<none>".into();
    }
    let mut pairs: Vec<String> = map
        .iter()
        .map(|(k, v)| format!("{k}={}", v.as_str().unwrap_or("")))
        .collect();
    pairs.sort();
    pairs.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::table::Row;

    fn table() -> Table {
        serde_json::from_value(serde_json::json!({
            "kind": "Table", "apiVersion": "meta.k8s.io/v1", "metadata": {},
            "columnDefinitions": [
                {"name": "Name", "type": "string", "priority": 0},
                {"name": "Schedule", "type": "string", "priority": 0},
                {"name": "Target", "type": "string", "priority": 1},
                {"name": "Age", "type": "date", "priority": 0}
            ],
            "rows": [
                {"cells": ["nightly", "0 2 * * *", "pvc-a", "5m"],
                 "object": {"metadata": {"name": "nightly", "namespace": "ns1", "labels": {"b": "2", "a": "1"}}}},
                {"cells": ["weekly-long-name", null, "pvc-b", "2d"],
                 "object": {"metadata": {"name": "weekly-long-name", "namespace": "ns2"}}}
            ]
        }))
        .unwrap()
    }

    #[test]
    fn a_row_kept_for_printing_only_prints_the_same_with_every_option() {
        let mut t = table();
        t.rows[0].object["metadata"]["managedFields"] =
            serde_json::json!([{"manager": "kubectl", "fieldsV1": {"f:data": {}}}]);
        t.rows[0].object["metadata"]["annotations"] = serde_json::json!({"big": "x".repeat(1000)});
        let mut slim = t.clone();
        slim.rows.iter_mut().for_each(Row::keep_printed_only);
        assert_eq!(
            slim.rows[0].object,
            serde_json::json!({"metadata": {"namespace": "ns1", "labels": {"b": "2", "a": "1"}}})
        );
        let opts = TableOptions {
            wide: true,
            with_namespace: true,
            show_labels: true,
            label_columns: vec!["a".into()],
            ..TableOptions::default()
        };
        assert_eq!(render(&slim, opts.clone()), render(&t, opts));
    }

    #[test]
    fn a_null_cell_is_empty_as_kubectl_prints_a_crd_column_whose_path_is_missing() {
        let out = render(&table(), TableOptions::default());
        assert_eq!(
            out,
            "NAME               SCHEDULE    AGE\nnightly            0 2 * * *   5m\nweekly-long-name               2d\n"
        );
    }

    #[test]
    fn label_columns_kind_prefix_and_cells_cut_at_line_breaks() {
        let mut t = table();
        t.column_definitions[0].format = "name".into();
        t.rows[0].cells[1] = Value::String("a\nb\u{1b}".into());
        let opts = TableOptions {
            label_columns: vec!["a".into(), "example.com/zz".into()],
            kind_prefix: Some("backupjob.example.com".into()),
            ..TableOptions::default()
        };
        assert_eq!(
            render(&t, opts),
            "NAME                                     SCHEDULE   AGE   A     ZZ\n\
             backupjob.example.com/nightly            a...       5m    1     \n\
             backupjob.example.com/weekly-long-name              2d          \n"
        );
    }

    #[test]
    fn wide_namespace_labels_and_no_headers() {
        let opts = TableOptions {
            wide: true,
            with_namespace: true,
            show_labels: true,
            no_headers: true,
            ..TableOptions::default()
        };
        let out = render(&table(), opts);
        assert_eq!(
            out,
            "ns1   nightly            0 2 * * *   pvc-a   5m    a=1,b=2\nns2   weekly-long-name               pvc-b   2d    <none>\n"
        );
    }
}
