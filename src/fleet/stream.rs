//! The in-order release of a fan-out `get`'s output: each context's part of the merged
//! output printed as soon as that context and every context before it are done
//! ([`super::run::run_releasing`]), instead of holding every context's output until the
//! slowest answers. The bytes are those of the held merge ([`super::merge`]) whatever the
//! order the contexts finish in: `-o name` lines are per context already, and a `-o
//! json|yaml` `List` is printed by [`ListWriter`] (its opening with the first item, its
//! closing at the end), which prints byte for byte what the whole `List` prints.
//!
//! Tables (`table`, `wide`: columns aligned across contexts need every cell first),
//! templates (JSONPath, custom columns: applied to the whole merged `List`), `-o kyaml`
//! and `--sort-by` keep the held path (docs/fleet.md, docs/performance.md).

use crate::cli::{GetArgs, OutputFormat};
use crate::exit::ExitStatus;
use crate::output::objects::{ListFormat, ListWriter};
use crate::output::{OutputError, Printer};

use super::{Captured, ContextRun, Shape};

/// How the released contexts are printed.
#[derive(Debug)]
enum Mode {
    /// `-o name`: each context's lines, prefixed by it.
    Lines,
    /// `-o json|yaml`: the items of one merged `List`.
    List(ListWriter, Shape),
}

/// The printer of a streamed fan-out `get`: [`Release::context`] for each context in
/// selection order, then [`Release::finish`].
#[derive(Debug)]
pub struct Release {
    mode: Mode,
    /// The status of the first failure to encode or write (nothing more is written after
    /// it: a closed pipe stays closed, a half-encoded item is not followed by more).
    failed: Option<ExitStatus>,
}

impl Release {
    /// The streamed printer for a fan-out `get` with `args`, or `None` when its output
    /// needs every context first (tables, templates, `-o kyaml`, `--sort-by`).
    pub fn for_get(args: &GetArgs) -> Option<Release> {
        Release::for_output(&args.output, args.sort_by.is_some())
    }

    /// The streamed printer for output format `output` (`sorted`: `--sort-by` given), or
    /// `None` when it needs every context first.
    pub fn for_output(output: &OutputFormat, sorted: bool) -> Option<Release> {
        if sorted {
            return None;
        }
        let mode = match output {
            OutputFormat::Name => Mode::Lines,
            OutputFormat::Json => Mode::List(ListWriter::new(ListFormat::Json), Shape::Json),
            OutputFormat::Yaml => Mode::List(ListWriter::new(ListFormat::Yaml), Shape::Yaml),
            _ => return None,
        };
        Some(Release { mode, failed: None })
    }

    /// Prints the part of the merged output of context run `r` (nothing for a context not
    /// attempted), taking its captured stdout. A failure to encode or write is printed once
    /// as `error: …` (not for a closed pipe, as the held path) and ends the output.
    pub fn context(&mut self, r: &mut ContextRun, p: &mut Printer<'_>) {
        if self.failed.is_some() || r.done.is_none() {
            return;
        }
        let chunks = std::mem::take(&mut r.chunks);
        let one = Captured {
            context: &r.context,
            chunks: &chunks,
        };
        let text = match &mut self.mode {
            Mode::Lines => super::merge(&[one], Shape::Cells),
            Mode::List(w, shape) => list_items(w, one, *shape),
        };
        let written = text.and_then(|t| {
            if t.is_empty() {
                return Ok(());
            }
            p.out(&t)?;
            p.flush()
        });
        self.check(written, p);
    }

    /// Prints the end of the output (a `List`'s closing lines, or the whole empty `List`);
    /// returns the status of the first failure to encode or write ([`ExitStatus::Success`]
    /// when none), which joins the contexts' statuses.
    pub fn finish(mut self, p: &mut Printer<'_>) -> ExitStatus {
        if self.failed.is_none()
            && let Mode::List(w, _) = std::mem::replace(&mut self.mode, Mode::Lines)
        {
            let written = p.out(&w.finish()).and_then(|()| p.flush());
            self.check(written, p);
        }
        self.failed.unwrap_or(ExitStatus::Success)
    }

    fn check(&mut self, written: Result<(), OutputError>, p: &mut Printer<'_>) {
        if let Err(e) = written {
            if !matches!(e, OutputError::BrokenPipe) {
                p.err_line(&format!("error: {e}"));
            }
            self.failed = Some(e.exit_status());
        }
    }
}

/// The text of one context's items in the merged `List`, each annotated with the context.
fn list_items(w: &mut ListWriter, c: Captured<'_>, shape: Shape) -> Result<String, OutputError> {
    let text = super::text_of(&c);
    let mut out = String::new();
    for item in super::items_of(&text, shape)? {
        out.push_str(&w.item(&super::annotated(item, c.context))?);
    }
    Ok(out)
}
