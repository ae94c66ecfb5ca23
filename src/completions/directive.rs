//! cobra's ShellCompDirective values (`github.com/spf13/cobra`, `completions.go`), bit flags.

/// Let the shell do its default (file completion) after the candidates.
pub const DEFAULT: u32 = 0;
/// An error occurred; ignore the candidates.
pub const ERROR: u32 = 1;
/// No space after a single candidate.
pub const NO_SPACE: u32 = 2;
/// No file completion, even with no candidates.
pub const NO_FILE_COMP: u32 = 4;
/// The candidates are file extensions to filter file completion by.
pub const FILTER_FILE_EXT: u32 = 8;
/// Complete directory names only.
pub const FILTER_DIRS: u32 = 16;
/// Keep the candidates' order.
pub const KEEP_ORDER: u32 = 32;
