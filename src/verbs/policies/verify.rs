//! `policies apply`: to be written.

use crate::cli::PoliciesVerifyArgs;
use crate::output::Printer;
use crate::settings::Settings;
use crate::verbs::VerbError;

/// Probes the policies.
///
/// # Errors
/// Not written yet.
pub async fn run(
    _settings: &Settings,
    _args: &PoliciesVerifyArgs,
    _p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    Err(VerbError::Usage(
        "policies verify is not written yet".into(),
    ))
}
