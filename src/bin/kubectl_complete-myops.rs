//! `kubectl_complete-myops`: kubectl's plugin-completion helper for `kubectl myops <TAB>`.
//! kubectl runs it from PATH with the plugin's arguments, the word under the cursor last; it
//! prints one candidate per line and a final `:<directive>` line (see `myops::completions`).
use std::process::ExitCode;

fn main() -> ExitCode {
    ExitCode::from(myops::completions::helper_main())
}
