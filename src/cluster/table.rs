//! Server-side printing: the `meta.k8s.io/v1` Table request and its rendering.
//!
//! kubectl asks for a Table (`Accept: application/json;as=Table;v=v1;g=meta.k8s.io`) so the
//! server supplies the columns, which is how CRD `additionalPrinterColumns` show with no
//! per-type code (kubectl `pkg/cmd/get`, KEP-2316 server-side printing). Columns with
//! `priority > 0` appear only with `-o wide`. Cells print as the server formatted them
//! (the server already turns CRD `date` columns into ages), `null` as `<none>`.

use serde::Deserialize;
use serde_json::Value;

/// The Accept header kubectl sends for tables, with a plain JSON fallback.
pub const TABLE_ACCEPT: &str = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";

/// A `meta.k8s.io/v1` Table (the fields we use).
#[derive(Debug, Clone, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct Table {
    /// Column definitions, in display order.
    #[serde(default)]
    pub column_definitions: Vec<Column>,
    /// Rows; `cells` line up with `column_definitions`.
    #[serde(default)]
    pub rows: Vec<Row>,
    /// List metadata (`continue` token for paging).
    #[serde(default)]
    pub metadata: TableMeta,
}

/// List metadata of a Table.
#[derive(Debug, Clone, Deserialize, Default)]
pub struct TableMeta {
    /// Token for the next page, empty on the last.
    #[serde(default, rename = "continue")]
    pub continue_token: Option<String>,
}

/// One column definition.
#[derive(Debug, Clone, Deserialize)]
pub struct Column {
    /// Header text.
    pub name: String,
    /// OpenAPI type: `string`, `integer`, `number`, `boolean`, `date`.
    #[serde(rename = "type", default)]
    pub kind: String,
    /// 0 = always shown; > 0 only in wide output.
    #[serde(default)]
    pub priority: i32,
}

/// One row.
#[derive(Debug, Clone, Deserialize)]
pub struct Row {
    /// Cell values.
    #[serde(default)]
    pub cells: Vec<Value>,
    /// The object's metadata (`includeObject=Metadata`): a PartialObjectMetadata.
    #[serde(default)]
    pub object: Value,
}

/// How to render a table.
#[derive(Debug, Clone, Copy, Default)]
pub struct TableOptions {
    /// Show priority > 0 columns.
    pub wide: bool,
    /// Prepend a NAMESPACE column (for `-A`).
    pub with_namespace: bool,
    /// Append a LABELS column.
    pub show_labels: bool,
    /// Omit the header line.
    pub no_headers: bool,
}

/// Renders rows like kubectl's tab writer: upper-case headers, then the columns laid out by
/// [`crate::output::table::align`] (left-aligned, three spaces apart, no trailing spaces),
/// the one layout our own tables use too.
pub fn render(table: &Table, opts: TableOptions) -> String {
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
        for (i, _) in &shown {
            l.push(cell(row.cells.get(*i).unwrap_or(&Value::Null)));
        }
        if opts.show_labels {
            l.push(labels(&row.object));
        }
        lines.push(l);
    }
    crate::output::table::align(&lines)
}

fn cell(v: &Value) -> String {
    match v {
        Value::Null => "<none>".into(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
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
    fn renders_priority_zero_columns_with_ages_like_kubectl() {
        let out = render(&table(), TableOptions::default());
        assert_eq!(
            out,
            "NAME               SCHEDULE    AGE\nnightly            0 2 * * *   5m\nweekly-long-name   <none>      2d\n"
        );
    }

    #[test]
    fn wide_namespace_labels_and_no_headers() {
        let opts = TableOptions {
            wide: true,
            with_namespace: true,
            show_labels: true,
            no_headers: true,
        };
        let out = render(&table(), opts);
        assert_eq!(
            out,
            "ns1   nightly            0 2 * * *   pvc-a   5m   a=1,b=2\nns2   weekly-long-name   <none>      pvc-b   2d   <none>\n"
        );
    }
}
