//! The template files `-o jsonpath-file=` and `-o custom-columns-file=` name, read once after
//! parsing and before any verb runs, so a bad file is a usage error (exit 2) before any
//! request, reported as the `-o` parser reports a bad inline template.

use super::SettingsError;
use crate::cli::{Command, output_value_error};
use crate::output::format::{
    MAX_TEMPLATE_FILE_BYTES, ObjectFormat, OutputFormat, TemplateFile, TemplateFormat,
};

/// Replaces a template file named by the command's `-o` ([`TemplateFormat::File`]) with the
/// template it holds. Commands without one are left as they are. The file is named by the user,
/// so it may be a FIFO (`-o jsonpath-file=<(…)`), read once, its writer done within `deadline`
/// ([`crate::base::fsutil::read_named`]).
///
/// # Errors
/// [`SettingsError::TemplateFile`] when the file cannot be read, is over
/// [`MAX_TEMPLATE_FILE_BYTES`], is not UTF-8 or holds no valid template — or, for `patch`,
/// holds custom columns (kubectl patch has no such printer): a usage error, exit 2.
pub fn load_template_files(
    command: &mut Command,
    deadline: std::time::Duration,
) -> Result<(), SettingsError> {
    match command {
        Command::Get(a) => {
            if let OutputFormat::Template(TemplateFormat::File(f)) = &a.output {
                a.output = OutputFormat::Template(load(f, deadline)?);
            }
        }
        Command::Patch(a) => {
            if let Some(ObjectFormat::Template(TemplateFormat::File(f))) = &a.output {
                let f = f.clone();
                let format =
                    ObjectFormat::template(load(&f, deadline)?).map_err(|e| error(&f, &e))?;
                a.output = Some(format);
            }
        }
        _ => {}
    }
    Ok(())
}

fn load(f: &TemplateFile, deadline: std::time::Duration) -> Result<TemplateFormat, SettingsError> {
    read_template_file(&f.path, deadline)
        .and_then(|text| f.parse(&text))
        .map_err(|reason| error(f, &reason))
}

fn error(f: &TemplateFile, reason: &str) -> SettingsError {
    SettingsError::TemplateFile(output_value_error(&f.flag, reason))
}

/// The text of the template file at `path`: a regular file or a FIFO (never a device, which
/// could block or never end), at most [`MAX_TEMPLATE_FILE_BYTES`], UTF-8.
fn read_template_file(path: &str, deadline: std::time::Duration) -> Result<String, String> {
    use crate::base::fsutil::Unreadable;
    let (buf, _) =
        crate::base::fsutil::read_named(std::path::Path::new(path), MAX_TEMPLATE_FILE_BYTES, deadline)
            .map_err(|e| match e.problem {
                Unreadable::TooLarge { .. } => format!(
                    "{path} is larger than {MAX_TEMPLATE_FILE_BYTES} bytes; a template file holds the template only"
                ),
                other => format!("error reading {path}: {other}"),
            })?;
    String::from_utf8(buf)
        .map_err(|_| format!("{path} is not UTF-8 text; save the template as UTF-8"))
}
