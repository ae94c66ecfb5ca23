//! The protection question, asked on the controlling terminal (`/dev/tty`), never on stdin:
//! `apply -f -` keeps its stdin, and a pipe cannot answer for a person.
//!
//! The terminal stays as the user has it (canonical mode, echo, signal keys): the answer is a
//! line the terminal's own editing produced, Ctrl-C ends the command as it ends kubectl
//! (SIGINT, exit 130) before anything was sent, and a kill or hang-up at the question leaves no
//! terminal mode to restore. A terminal that reaches end of file (Ctrl-D on an empty line) or
//! fails is [`Answer::Closed`]: no answer, no change. Keys typed before the question is shown
//! are discarded: the answer is to what it shows.

use std::fs::File;
use std::io::{Read, Write};

use rustix::termios::{self, QueueSelector};

/// The longest answer kept: a context name is at most a few hundred bytes.
const MAX_ANSWER: usize = 1024;

/// What the person at the terminal answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// A line (without its end).
    Line(String),
    /// The terminal reached end of file or failed before an answer.
    Closed,
}

/// The controlling terminal, opened for the question.
pub struct Terminal {
    tty: File,
}

impl Terminal {
    /// Opens the controlling terminal; `None` when the process has none (run headless: a CI
    /// job, a pipe, `setsid`) or is not in its foreground process group (`cmd &`,
    /// `timeout cmd`), in which case protection is fail-closed.
    pub fn open() -> Option<Terminal> {
        let tty = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open("/dev/tty")
            .ok()?;
        // A process in the background of its terminal (`cmd &`, `timeout cmd`) would be
        // stopped by SIGTTIN at the first key read: no one can answer it, so it is headless.
        let foreground =
            termios::tcgetpgrp(&tty).is_ok_and(|pgrp| pgrp == rustix::process::getpgrp());
        foreground.then_some(Terminal { tty })
    }

    /// Writes `text` to the terminal as it is (the caller escapes what came from elsewhere).
    ///
    /// # Errors
    /// The write's I/O error (the terminal closed).
    pub fn say(&mut self, text: &str) -> std::io::Result<()> {
        self.tty.write_all(text.as_bytes())?;
        self.tty.flush()
    }

    /// Discards the keys typed so far, writes `prompt` (the whole question) and reads one line
    /// (at most [`MAX_ANSWER`] bytes of it are kept).
    pub fn ask(&mut self, prompt: &str) -> Answer {
        let _ = termios::tcflush(&self.tty, QueueSelector::IFlush);
        if self.say(prompt).is_err() {
            return Answer::Closed;
        }
        let mut line: Vec<u8> = Vec::new();
        let mut buf = [0u8; 256];
        loop {
            let n = match self.tty.read(&mut buf) {
                Ok(0) | Err(_) => return Answer::Closed,
                Ok(n) => n,
            };
            let chunk = &buf[..n];
            let end = chunk.iter().position(|b| *b == b'\n');
            let take = &chunk[..end.unwrap_or(n)];
            line.extend(take.iter().take(MAX_ANSWER.saturating_sub(line.len())));
            if end.is_some() {
                let text = String::from_utf8_lossy(&line);
                return Answer::Line(text.trim_end_matches('\r').to_string());
            }
        }
    }
}
