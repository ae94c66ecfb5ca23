//! `-o custom-columns=HEADER:PATH,…` and `-o custom-columns-file=FILE`, as kubectl prints
//! them (`k8s.io/kubectl/pkg/cmd/get/customcolumn.go`, v0.36.3): one header line, one row per
//! object (per item of a list), cells joined by `,` when a path yields several values,
//! `<none>` when it yields none, aligned by Go's `text/tabwriter` with kubectl's settings
//! (`k8s.io/cli-runtime/pkg/printers/tabwriter.go`: minimum cell width 6, padding 3, spaces).

use serde_json::Value;

use super::jsonpath::{JsonPathError, Template, go_sprint};

/// A custom-columns spec that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ColumnsError {
    /// Bad spec text (usage error, exit 2); the message is kubectl's, plus what to do.
    #[error("{0}")]
    Spec(String),
    /// A column's path is not valid JSONPath (exit 2).
    #[error(transparent)]
    Path(#[from] JsonPathError),
}

/// One column: its header and its JSONPath template.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    /// The header text.
    pub header: String,
    /// The path, normalised to `{.…}` by [`relaxed`].
    pub template: Template,
}

/// customcolumn.go `RelaxedJSONPathExpression`: `a.b`, `.a.b`, `{a.b}` and `{.a.b}` all mean
/// `{.a.b}`; the empty path stays empty.
///
/// # Errors
/// [`ColumnsError::Spec`] for a path with unbalanced or nested braces.
pub fn relaxed(path: &str) -> Result<String, ColumnsError> {
    if path.is_empty() {
        return Ok(String::new());
    }
    let no_braces = |s: &str| !s.is_empty() && !s.contains(['{', '}']);
    let inner = path
        .strip_prefix('{')
        .and_then(|p| p.strip_suffix('}'))
        .map(|p| p.strip_prefix('.').unwrap_or(p))
        .filter(|p| no_braces(p))
        .or_else(|| Some(path.strip_prefix('.').unwrap_or(path)).filter(|p| no_braces(p)));
    match inner {
        Some(f) => Ok(format!("{{.{f}}}")),
        None => Err(ColumnsError::Spec(format!(
            "unexpected path string {path:?}, expected a 'name1.name2' or '.name1.name2' or '{{name1.name2}}' or '{{.name1.name2}}'; fix the column path"
        ))),
    }
}

fn column(header: &str, path: &str) -> Result<Column, ColumnsError> {
    Ok(Column {
        header: header.to_string(),
        template: Template::parse(&relaxed(path)?)?,
    })
}

/// Parses `-o custom-columns=` text (`HEADER:PATH` pairs separated by `,`; the first `:`
/// splits, as `strings.SplitN(…, 2)`).
///
/// # Errors
/// [`ColumnsError`] for an empty spec, a pair without `:`, or a bad path.
pub fn parse_spec(spec: &str) -> Result<Vec<Column>, ColumnsError> {
    if spec.is_empty() {
        return Err(ColumnsError::Spec(
            "custom-columns format specified but no custom columns given; pass -o custom-columns=HEADER:PATH[,HEADER:PATH…]".into(),
        ));
    }
    spec.split(',')
        .map(|part| match part.split_once(':') {
            Some((h, p)) => column(h, p),
            None => Err(ColumnsError::Spec(format!(
                "unexpected custom-columns spec: {part}, expected <header>:<json-path-expr>"
            ))),
        })
        .collect()
}

/// Parses a `-o custom-columns-file=` file: a line of whitespace-separated headers, then a
/// line of as many whitespace-separated paths (customcolumn.go
/// `NewCustomColumnsPrinterFromTemplate`).
///
/// # Errors
/// [`ColumnsError`] for a missing line, a count mismatch or a bad path.
pub fn parse_file(text: &str) -> Result<Vec<Column>, ColumnsError> {
    let mut lines = text.lines();
    let expected = "Expected format is one line of space separated headers, one line of space separated column specs.";
    let headers: Vec<&str> = lines
        .next()
        .ok_or_else(|| {
            ColumnsError::Spec(format!("invalid template, missing header line. {expected}"))
        })?
        .split_whitespace()
        .collect();
    let specs: Vec<&str> = lines
        .next()
        .ok_or_else(|| {
            ColumnsError::Spec(format!("invalid template, missing spec line. {expected}"))
        })?
        .split_whitespace()
        .collect();
    if headers.len() != specs.len() {
        return Err(ColumnsError::Spec(format!(
            "number of headers ({}) and field specifications ({}) don't match; give one path per header",
            headers.len(),
            specs.len()
        )));
    }
    headers
        .iter()
        .zip(&specs)
        .map(|(h, p)| column(h, p))
        .collect()
}

/// kubectl's `printers.EscapeTerminal`.
fn escape_terminal(s: &str) -> String {
    s.replace('\u{1b}', "^[").replace('\r', "\\r")
}

/// The cells of one object.
fn row(obj: &Value, columns: &[Column]) -> Result<Vec<String>, JsonPathError> {
    columns
        .iter()
        .map(|c| {
            let groups = c.template.find_results(obj, true)?;
            let mut cells: Vec<String> = Vec::new();
            if groups.first().is_none_or(Vec::is_empty) {
                cells.push("<none>".into());
            }
            for v in groups.iter().flatten() {
                cells.push(escape_terminal(&go_sprint(v)));
            }
            Ok(cells.join(","))
        })
        .collect()
}

/// Renders `doc` (one object, or a list whose `items` are printed one per row).
///
/// # Errors
/// [`JsonPathError::Execute`] when a path does not fit an object (an index out of bounds).
pub fn render(doc: &Value, columns: &[Column], no_headers: bool) -> Result<String, JsonPathError> {
    Ok(tabwriter(&lines(doc, columns, no_headers)?))
}

/// The cells [`render`] lays out (header first unless `no_headers`), for printers that lay
/// them out themselves (`get -w`, widths remembered across events).
///
/// # Errors
/// As [`render`].
pub fn lines(
    doc: &Value,
    columns: &[Column],
    no_headers: bool,
) -> Result<Vec<Vec<String>>, JsonPathError> {
    let mut lines: Vec<Vec<String>> = Vec::new();
    if !no_headers {
        lines.push(columns.iter().map(|c| c.header.clone()).collect());
    }
    match doc.get("items").and_then(Value::as_array) {
        Some(items) => {
            for it in items {
                lines.push(row(it, columns)?);
            }
        }
        None => lines.push(row(doc, columns)?),
    }
    Ok(lines)
}

/// Go's `text/tabwriter` as kubectl configures it (minimum width 6, padding 3, spaces), over
/// rows of cells: the cells are joined by tabs and the rows by newlines, then laid out as
/// tabwriter does — so a newline inside a value ends the line and the column block there,
/// exactly as in kubectl's output.
pub fn tabwriter(rows: &[Vec<String>]) -> String {
    layout(rows, None)
}

/// [`tabwriter`] with kubectl's `RememberWidths` (github.com/liggitt/tabwriter, the fork
/// kubectl's `printers.GetNewTabWriter` uses): each column is at least as wide as it was in
/// earlier calls with the same `remembered` widths, which this call widens where needed —
/// how `get -w` keeps rows printed one flush at a time aligned with the table above them.
pub fn tabwriter_remembering(rows: &[Vec<String>], remembered: &mut Vec<usize>) -> String {
    layout(rows, Some(remembered))
}

fn layout(rows: &[Vec<String>], mut remembered: Option<&mut Vec<usize>>) -> String {
    let mut text = String::new();
    for r in rows {
        text.push_str(&r.join("\t"));
        text.push('\n');
    }
    let lines: Vec<Vec<&str>> = text
        .strip_suffix('\n')
        .unwrap_or(&text)
        .split('\n')
        .map(|l| l.split('\t').collect())
        .collect();
    let mut out = String::new();
    let mut widths = Vec::new();
    format_block(
        &lines,
        0,
        lines.len(),
        &mut widths,
        &mut remembered,
        &mut out,
    );
    out
}

const MIN_WIDTH: usize = 6;
const PADDING: usize = 3;

/// tabwriter.go `format`: lines `line0..line1`, columns `widths.len()` onwards.
fn format_block(
    lines: &[Vec<&str>],
    mut line0: usize,
    line1: usize,
    widths: &mut Vec<usize>,
    remembered: &mut Option<&mut Vec<usize>>,
    out: &mut String,
) {
    let column = widths.len();
    let mut this = line0;
    while this < line1 {
        if column + 1 >= lines[this].len() {
            this += 1;
            continue;
        }
        write_lines(lines, line0, this, widths, out);
        line0 = this;
        let mut width = MIN_WIDTH;
        while this < line1 && column + 1 < lines[this].len() {
            width = width.max(lines[this][column].chars().count() + PADDING);
            this += 1;
        }
        if let Some(max) = remembered.as_deref_mut() {
            // liggitt/tabwriter `format`, RememberWidths branch.
            if max.len() < widths.len() {
                let from = max.len();
                max.extend_from_slice(&widths[from..]);
            }
            match max.get(column).copied() {
                None => max.push(width),
                Some(m) if m > width => width = m,
                Some(_) => max[column] = width,
            }
        }
        widths.push(width);
        format_block(lines, line0, this, widths, remembered, out);
        widths.pop();
        line0 = this;
    }
    write_lines(lines, line0, line1, widths, out);
}

/// tabwriter.go `writeLines`: cells in a known column padded to its width, the rest as is.
fn write_lines(lines: &[Vec<&str>], from: usize, to: usize, widths: &[usize], out: &mut String) {
    for line in &lines[from..to] {
        for (j, c) in line.iter().enumerate() {
            out.push_str(c);
            if j < widths.len() {
                let pad = widths[j].saturating_sub(c.chars().count());
                out.extend(std::iter::repeat_n(' ', pad));
            }
        }
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn relaxed_paths_normalise_as_kubectl() {
        assert_eq!(relaxed("metadata.name").unwrap(), "{.metadata.name}");
        assert_eq!(relaxed(".metadata.name").unwrap(), "{.metadata.name}");
        assert_eq!(relaxed("{.metadata.name}").unwrap(), "{.metadata.name}");
        assert_eq!(relaxed("{metadata.name}").unwrap(), "{.metadata.name}");
        assert!(relaxed("{.a").is_err());
    }

    #[test]
    fn list_rows_are_aligned_with_none_and_go_maps() {
        let cols =
            parse_spec("NAME:.metadata.name,LBL:.metadata.labels,X:.nope,I:.spec.c[*].i").unwrap();
        let doc = json!({"kind": "List", "items": [
            {"metadata": {"name": "db", "labels": {"app": "db"}}, "spec": {"c": [{"i": "x/q:1"}]}},
            {"metadata": {"name": "web-1", "labels": {"tier": "fe", "app": "web"}}, "spec": {"c": [{"i": "a"}, {"i": "b"}]}}
        ]});
        assert_eq!(
            render(&doc, &cols, false).unwrap(),
            "NAME    LBL                    X        I\n\
             db      map[app:db]            <none>   x/q:1\n\
             web-1   map[app:web tier:fe]   <none>   a,b\n"
        );
        assert_eq!(render(&doc, &cols[..1], true).unwrap(), "db\nweb-1\n");
    }

    #[test]
    fn narrow_columns_are_six_wide_and_the_first_colon_splits() {
        let cols = parse_spec("A:b:c,B:.x").unwrap();
        assert_eq!(cols[0].header, "A");
        assert_eq!(
            render(&json!({"x": 1}), &cols, false).unwrap(),
            "A        B\n<none>   1\n"
        );
        let cols = parse_spec("A:.x,B:.x").unwrap();
        assert_eq!(
            render(&json!({"x": 1}), &cols, false).unwrap(),
            "A     B\n1     1\n"
        );
    }

    #[test]
    fn a_newline_inside_a_value_ends_the_column_block_as_go_tabwriter_does() {
        let rows = vec![
            vec!["DATA".to_string(), "N".to_string()],
            vec!["map[m:line1\nline2 n:1]".to_string(), "1".to_string()],
        ];
        assert_eq!(tabwriter(&rows), "DATA   N\nmap[m:line1\nline2 n:1]   1\n");
    }

    #[test]
    fn remembered_widths_pad_later_rows_like_kubectl_get_watch() {
        let cells = |r: &[&str]| r.iter().map(|c| c.to_string()).collect::<Vec<_>>();
        let mut widths = Vec::new();
        let first = tabwriter_remembering(
            &[cells(&["NAME", "DATA", "AGE"]), cells(&["a", "1", "0s"])],
            &mut widths,
        );
        assert_eq!(first, "NAME   DATA   AGE\na      1      0s\n");
        let wider = tabwriter_remembering(
            &[cells(&["a-much-longer-name-here", "1", "0s"])],
            &mut widths,
        );
        assert_eq!(wider, "a-much-longer-name-here   1      0s\n");
        let narrow = tabwriter_remembering(&[cells(&["a", "1", "2s"])], &mut widths);
        assert_eq!(narrow, "a                         1      2s\n");
        assert_eq!(widths, [26, 7]);
    }

    #[test]
    fn bad_specs_and_files_are_refused() {
        assert!(parse_spec("").is_err());
        assert!(
            parse_spec("NAME")
                .unwrap_err()
                .to_string()
                .contains("expected <header>:<json-path-expr>")
        );
        assert!(parse_spec("N:{.a").is_err());
        assert!(parse_file("A B\n.x\n").is_err());
        assert!(parse_file("A\n").is_err());
        let cols = parse_file("NAME  KIND\n.metadata.name {.kind}\n").unwrap();
        assert_eq!(cols.len(), 2);
        assert_eq!(cols[1].header, "KIND");
    }
}
