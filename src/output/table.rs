//! Our own tables (`changelog list`, `metrics show`, `crds list`, `auth matrix`) and the one
//! column layout every table we print goes through, server-side Tables included.
//!
//! Printing is chosen apart from fetching (kubectl `pkg/cmd/get`): a verb that makes its own
//! rows fills an [`OwnTable`] with plain strings, instead of faking a `meta.k8s.io/v1` Table
//! through JSON only to have it rendered. [`crate::output::server_table::render`] picks the
//! columns and cells of a server Table and hands them to the same [`align`], so both kinds
//! of table look alike and are laid out by one function.
//!
//! The layout follows kubectl's printers (`k8s.io/cli-runtime/pkg/printers/tablewriter.go`:
//! a Go `text/tabwriter` with padding 3 and the pad character `' '`, left-aligned): server
//! Tables byte for byte through [`crate::output::custom_columns::tabwriter`] (Go's
//! `text/tabwriter`, shared with `-o custom-columns`); our own tables through [`align`], with the
//! deliberate differences noted there.

/// Lays out lines of cells in columns, as kubectl's tab writer does (pure).
///
/// The rules, each pinned by a unit test below:
/// - a column is as wide as its widest cell, measured in terminal columns (a CJK character
///   counts two), and at least 1 wide (an all-empty column still takes 1 + 3 spaces);
/// - cells are left-aligned and every column is followed by 3 spaces (kubectl's
///   `tabwriterPadding = 3`); there are no separator characters;
/// - trailing whitespace is trimmed from every line, so the last column carries no padding
///   (tabwriter never pads the last cell of a line);
/// - a line shorter than the widest line gets blank cells; a cell containing `\n` spans
///   several output lines, with the other columns blank on the continuation lines;
/// - every line ends with `\n`; no lines give the empty string.
///
/// The difference from kubectl: its tab writer also has `tabwriterMinWidth = 6` (a column
/// including its padding is at least 6 wide), which we do not apply, so a column whose
/// widest cell is 1 or 2 wide is narrower than kubectl would print it. Kept because every
/// table this tool has printed so far is laid out this way, and scripts cutting columns by
/// position must not see the output move.
///
/// The layout engine is comfy-table with no borders and no terminal detection (its `tty`
/// feature is off, so the result never depends on the terminal width).
///
/// # Examples
/// ```
/// use myops::output::table::align;
/// let lines = vec![
///     vec!["NAME".to_string(), "AGE".to_string()],
///     vec!["web".to_string(), "5m".to_string()],
/// ];
/// assert_eq!(align(&lines), "NAME   AGE\nweb    5m\n");
/// ```
pub fn align(lines: &[Vec<String>]) -> String {
    let mut t = comfy_table::Table::new();
    t.load_style(comfy_table::presets::NOTHING);
    for l in lines {
        t.add_row(l);
    }
    for col in t.column_iter_mut() {
        col.set_padding((0, 3));
    }
    let mut out = String::new();
    for line in t.lines() {
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// A table whose rows this tool makes itself: a header and rows of plain strings, rendered
/// by [`align`] like kubectl prints a table.
///
/// Every row has exactly as many cells as the header: [`OwnTable::row`] pads a short row
/// with empty cells and drops cells past the last column, so building a table never fails
/// or panics (a wrong cell count is a programming error, and shows as a blank or missing
/// cell rather than a crash).
///
/// # Examples
/// ```
/// use myops::output::table::OwnTable;
/// let mut t = OwnTable::new(["Verb", "Count"]);
/// t.row(["get", "2"]).row(["patch", "10"]);
/// assert_eq!(t.render(false), "VERB    COUNT\nget     2\npatch   10\n");
/// assert_eq!(t.render(true), "get     2\npatch   10\n");
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OwnTable {
    headers: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl OwnTable {
    /// A table with these column headers and no rows. Headers are upper-cased, as kubectl
    /// prints column names (`Mean-Seconds` prints `MEAN-SECONDS`); pass them as they should
    /// read.
    pub fn new<I, S>(headers: I) -> OwnTable
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        OwnTable {
            headers: headers
                .into_iter()
                .map(|h| h.into().to_uppercase())
                .collect(),
            rows: Vec::new(),
        }
    }

    /// Appends a row, padded with empty cells or cut to the number of columns. Returns the
    /// table, so calls chain.
    pub fn row<I, S>(&mut self, cells: I) -> &mut OwnTable
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut r: Vec<String> = cells
            .into_iter()
            .take(self.headers.len())
            .map(Into::into)
            .collect();
        r.resize(self.headers.len(), String::new());
        self.rows.push(r);
        self
    }

    /// The column headers, upper-cased.
    pub fn headers(&self) -> &[String] {
        &self.headers
    }

    /// The rows, each exactly as long as [`OwnTable::headers`].
    pub fn rows(&self) -> &[Vec<String>] {
        &self.rows
    }

    /// Whether the table has no rows (a verb then prints a "nothing to show" line on stderr
    /// instead of a lone header, as kubectl's "No resources found").
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The text to print: the header line (unless `no_headers`, kubectl's `--no-headers`)
    /// and one line per row, laid out by [`align`].
    pub fn render(&self, no_headers: bool) -> String {
        let mut lines: Vec<Vec<String>> = Vec::with_capacity(self.rows.len() + 1);
        if !no_headers {
            lines.push(self.headers.clone());
        }
        lines.extend(self.rows.iter().cloned());
        align(&lines)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(rows: &[&[&str]]) -> Vec<Vec<String>> {
        rows.iter()
            .map(|r| r.iter().map(|c| c.to_string()).collect())
            .collect()
    }

    #[test]
    fn columns_are_as_wide_as_their_widest_cell_plus_three_spaces_and_lines_are_trimmed() {
        let out = align(&lines(&[
            &["NAME", "SCHEDULE", "AGE"],
            &["weekly-long-name", "0 2 * * *", "5m"],
            &["a", "", "2d"],
        ]));
        assert_eq!(
            out,
            "NAME               SCHEDULE    AGE\nweekly-long-name   0 2 * * *   5m\na                              2d\n"
        );
    }

    #[test]
    fn narrow_and_empty_columns_have_no_minimum_width_beyond_one() {
        // kubectl's minwidth 6 would print "ID    X"; we keep the layout printed so far.
        assert_eq!(
            align(&lines(&[&["ID", "X"], &["1", "y"]])),
            "ID   X\n1    y\n"
        );
        assert_eq!(align(&lines(&[&["", "B"], &["", "c"]])), "    B\n    c\n");
    }

    #[test]
    fn wide_characters_count_two_columns() {
        assert_eq!(
            align(&lines(&[&["名前", "X"], &["ab", "y"]])),
            "名前   X\nab     y\n"
        );
    }

    #[test]
    fn short_lines_get_blank_cells_and_newlines_span_lines() {
        assert_eq!(align(&lines(&[&["A", "B", "C"], &["x"]])), "A   B   C\nx\n");
        assert_eq!(
            align(&lines(&[&["A", "B"], &["one\ntwo", "z"]])),
            "A     B\none   z\ntwo\n"
        );
    }

    #[test]
    fn no_lines_print_nothing() {
        assert_eq!(align(&[]), "");
        assert_eq!(OwnTable::new(["A"]).render(true), "");
        assert_eq!(OwnTable::new(["a", "Bc"]).render(false), "A   BC\n");
    }

    #[test]
    fn rows_are_padded_or_cut_to_the_header() {
        let mut t = OwnTable::new(["Id", "Result"]);
        t.row(["1"]).row(["2", "ok", "surplus"]);
        assert_eq!(
            t.rows(),
            [
                vec!["1".to_string(), String::new()],
                vec!["2".to_string(), "ok".to_string()]
            ]
        );
        assert_eq!(t.render(false), "ID   RESULT\n1\n2    ok\n");
        assert!(!t.is_empty());
    }

    #[test]
    fn renders_like_a_server_table_with_the_same_cells() {
        use crate::cluster::table::Table;
        use crate::output::server_table::{TableOptions, render};
        let rows = [
            [
                "a-very-long-id",
                "2026-11-30T08:00:00Z",
                "",
                "patch (dry run)",
            ],
            ["2", "t", "admin", "名前"],
        ];
        let mut own = OwnTable::new(["Id", "Time", "User", "Operation"]);
        for r in &rows {
            own.row(*r);
        }
        let columns = ["Id", "Time", "User", "Operation"]
            .map(|n| serde_json::json!({"name": n, "type": "string"}));
        let cells = rows.map(|r| serde_json::json!({"cells": r}));
        let server: Table = serde_json::from_value(
            serde_json::json!({"columnDefinitions": columns, "rows": cells}),
        )
        .unwrap();
        assert_eq!(own.render(false), render(&server, TableOptions::default()));
        let no_headers = TableOptions {
            no_headers: true,
            ..TableOptions::default()
        };
        assert_eq!(own.render(true), render(&server, no_headers));
        assert_eq!(
            own.render(false),
            "ID               TIME                   USER    OPERATION\n\
             a-very-long-id   2026-11-30T08:00:00Z           patch (dry run)\n\
             2                t                      admin   名前\n"
        );
    }
}
