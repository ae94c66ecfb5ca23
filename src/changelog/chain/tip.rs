//! The chain's tip in the log: the hash the next record chains to, read from the end.

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use serde_json::Value;

use crate::changelog::parse::{judge, lines};

/// What the end of some log bytes says the chain continues from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tip {
    /// The last valid record carries this hash.
    Hashed(String),
    /// The last valid record has no hash (written before the chain existed): a new chain
    /// starts after it.
    Legacy,
    /// No valid record in these bytes.
    None,
}

/// The [`Tip`] of `bytes` (pure), judging lines from the end; invalid lines are passed over.
/// When `from_start` is false the bytes are the tail of a file and the first (partial) line
/// is ignored: [`Tip::None`] then means "read further back".
pub fn tip_in(bytes: &[u8], from_start: bool) -> Tip {
    let bytes = if from_start {
        bytes
    } else {
        match bytes.iter().position(|b| *b == b'\n') {
            Some(i) => &bytes[i + 1..],
            None => return Tip::None,
        }
    };
    let all: Vec<_> = lines(bytes).collect();
    for (_, raw, unterminated) in all.into_iter().rev() {
        if judge(raw, unterminated).is_err() {
            continue;
        }
        return match record_hash(raw) {
            Some(h) => Tip::Hashed(h),
            None => Tip::Legacy,
        };
    }
    Tip::None
}

/// The `hash` member of a (valid) record line, if it has a string one.
fn record_hash(raw: &[u8]) -> Option<String> {
    let v: Value = crate::base::decode::from_slice(raw).ok()?;
    v.get("hash")?.as_str().map(str::to_string)
}

/// The [`Tip`] of the file at `path`, reading from its end in growing chunks (64 KiB, then
/// doubling), so appending costs a read of the last record, not of the whole log. A missing
/// file is [`Tip::None`].
///
/// # Errors
/// The I/O error of opening, seeking or reading; a path that is not a regular file.
pub fn file_tip(path: &Path) -> std::io::Result<Tip> {
    // Never open what is not a regular file (a FIFO would block).
    match std::fs::metadata(path) {
        Ok(m) if !m.is_file() => {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("{} is not a regular file; move it away", path.display()),
            ));
        }
        _ => {}
    }
    let mut f = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Tip::None),
        Err(e) => return Err(e),
    };
    let len = f.metadata()?.len();
    let mut window: u64 = 64 * 1024;
    loop {
        let start = len.saturating_sub(window);
        f.seek(SeekFrom::Start(start))?;
        let mut buf = Vec::with_capacity((len - start) as usize);
        (&mut f).take(len - start).read_to_end(&mut buf)?;
        match tip_in(&buf, start == 0) {
            Tip::None if start > 0 => window = window.saturating_mul(2),
            tip => return Ok(tip),
        }
    }
}
