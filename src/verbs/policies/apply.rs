//! `policies apply`: to be written.

use crate::cli::PoliciesApplyArgs;
use crate::output::Printer;
use crate::settings::Settings;
use crate::verbs::VerbError;

/// Server-side applies the exported objects.
///
/// # Errors
/// Not written yet.
pub async fn run(
    _settings: &Settings,
    _args: &PoliciesApplyArgs,
    _p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    Err(VerbError::Usage("policies apply is not written yet".into()))
}
