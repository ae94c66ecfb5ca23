//! `undelete`: a deleted object created again from the change log (docs/delete.md).

use crate::cli::UndeleteArgs;
use crate::output::Printer;
use crate::settings::Settings;
use crate::verbs::{Outcome, VerbError};

/// Runs `undelete`.
pub async fn run(_s: &Settings, _args: &UndeleteArgs, _p: &mut Printer<'_>) -> Outcome {
    Outcome::early(VerbError::Usage("undelete is not built yet".into()))
}
