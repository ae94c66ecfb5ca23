//! The template files `-o jsonpath-file=` and `-o custom-columns-file=` name, read once after
//! parsing and before any verb runs, so a bad file is a usage error (exit 2) before any
//! request, reported as the `-o` parser reports a bad inline template.

use super::SettingsError;
use crate::cli::{Command, output_value_error};
use crate::output::format::{
    MAX_TEMPLATE_FILE_BYTES, ObjectFormat, OutputFormat, TemplateFile, TemplateFormat,
};

/// Replaces a template file named by the command's `-o` ([`TemplateFormat::File`]) with the
/// template it holds. Commands without one are left as they are.
///
/// # Errors
/// [`SettingsError::TemplateFile`] when the file cannot be read, is over
/// [`MAX_TEMPLATE_FILE_BYTES`], is not UTF-8 or holds no valid template — or, for `patch`,
/// holds custom columns (kubectl patch has no such printer): a usage error, exit 2.
pub fn load_template_files(command: &mut Command) -> Result<(), SettingsError> {
    match command {
        Command::Get(a) => {
            if let OutputFormat::Template(TemplateFormat::File(f)) = &a.output {
                a.output = OutputFormat::Template(load(f)?);
            }
        }
        Command::Patch(a) => {
            if let Some(ObjectFormat::Template(TemplateFormat::File(f))) = &a.output {
                let f = f.clone();
                let format = ObjectFormat::template(load(&f)?).map_err(|e| error(&f, &e))?;
                a.output = Some(format);
            }
        }
        _ => {}
    }
    Ok(())
}

fn load(f: &TemplateFile) -> Result<TemplateFormat, SettingsError> {
    read_template_file(&f.path)
        .and_then(|text| f.parse(&text))
        .map_err(|reason| error(f, &reason))
}

fn error(f: &TemplateFile, reason: &str) -> SettingsError {
    SettingsError::TemplateFile(output_value_error(&f.flag, reason))
}

/// The text of the template file at `path`: at most [`MAX_TEMPLATE_FILE_BYTES`], UTF-8.
fn read_template_file(path: &str) -> Result<String, String> {
    use std::io::Read;
    let mut buf = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_TEMPLATE_FILE_BYTES + 1).read_to_end(&mut buf))
        .map_err(|e| {
            format!("error reading {path}: {e}; give the path of a readable template file")
        })?;
    if buf.len() as u64 > MAX_TEMPLATE_FILE_BYTES {
        return Err(format!(
            "{path} is larger than {MAX_TEMPLATE_FILE_BYTES} bytes; a template file holds the template only"
        ));
    }
    String::from_utf8(buf)
        .map_err(|_| format!("{path} is not UTF-8 text; save the template as UTF-8"))
}
