//! `delete`: kubectl's delete on the guarded path (docs/delete.md).

use crate::cli::DeleteArgs;
use crate::output::Printer;
use crate::settings::Settings;
use crate::verbs::{Outcome, VerbError};

/// Runs `delete`.
pub async fn run(_s: &Settings, _args: &DeleteArgs, _p: &mut Printer<'_>) -> Outcome {
    Outcome::early(VerbError::Usage("delete is not built yet".into()))
}
