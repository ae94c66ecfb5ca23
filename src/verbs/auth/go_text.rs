//! Text as kubectl's Go printers write it (`%v` of a string slice, `text/tabwriter`): shared
//! by `can-i --list` and `whoami`.

/// A string slice as Go's `%v` prints it: `[a b c]`.
pub fn go_list(items: &[String]) -> String {
    format!("[{}]", items.join(" "))
}

/// Lines laid out as kubectl's `printers.GetNewTabWriter` (Go `text/tabwriter`, minwidth 6,
/// padding 3, pad ' '): every cell but a line's last is padded to its column's width
/// (the widest cell + 3, at least 6; widths in characters); the last cell is written as is.
pub fn go_tabwriter(lines: &[Vec<String>]) -> String {
    crate::output::go_tab(lines)
}
