//! The protection question, asked on the controlling terminal (`/dev/tty`), never on stdin:
//! `apply -f -` keeps its stdin, and a pipe cannot answer for a person.
//!
//! The answer is read a key at a time with the terminal's echo and signal keys off (restored
//! before returning), so Ctrl-C at the question is seen here — an answer of its own
//! ([`Answer::Interrupted`]: nothing was sent, the command exits 130 as kubectl does when
//! interrupted) — rather than a signal that could land between the question and the request.
//! A terminal that hangs up or reaches end of file is [`Answer::Closed`]: no answer, no change.
//! Keys typed before the question is shown are discarded: the answer is to what it shows.

use std::fs::File;
use std::io::{Read, Write};

use rustix::termios::{self, LocalModes, OptionalActions, QueueSelector, SpecialCodeIndex};

/// The longest answer kept: a context name is at most a few hundred bytes.
const MAX_ANSWER: usize = 1024;

/// What the person at the terminal answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// A line (without its end).
    Line(String),
    /// Ctrl-C.
    Interrupted,
    /// The terminal closed (hang-up, end of file, Ctrl-D on an empty line) before an answer.
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

    /// Writes `prompt` (the whole question) and reads one answer, a key at a time: Enter ends it, Backspace and
    /// Ctrl-U edit it, Ctrl-C interrupts, Ctrl-D on an empty line or a closed terminal is
    /// [`Answer::Closed`]. The terminal's modes are restored before returning.
    pub fn ask(&mut self, prompt: &str) -> Answer {
        // The keys are taken over before the prompt is shown: a Ctrl-C typed as soon as it
        // appears is an answer here, never a signal.
        let saved = termios::tcgetattr(&self.tty).ok();
        if let Some(saved) = &saved {
            let mut raw = saved.clone();
            raw.local_modes
                .remove(LocalModes::ICANON | LocalModes::ECHO | LocalModes::ISIG);
            raw.special_codes[SpecialCodeIndex::VMIN] = 1;
            raw.special_codes[SpecialCodeIndex::VTIME] = 0;
            let _ = termios::tcsetattr(&self.tty, OptionalActions::Now, &raw);
            // Keys typed before the question was shown do not answer it: a yes must be
            // given to what the preview shows.
            let _ = termios::tcflush(&self.tty, QueueSelector::IFlush);
        }
        let answer = match self.say(prompt) {
            Ok(()) => self.read_answer(saved.is_some()),
            Err(_) => Answer::Closed,
        };
        if let Some(saved) = &saved {
            let _ = termios::tcsetattr(&self.tty, OptionalActions::Now, saved);
        }
        let _ = self.say("\n");
        answer
    }

    /// Reads keys until an answer; `echo` when the terminal's own echo is off.
    fn read_answer(&mut self, echo: bool) -> Answer {
        let mut line: Vec<u8> = Vec::new();
        let mut byte = [0u8; 1];
        loop {
            match self.tty.read(&mut byte) {
                Ok(0) | Err(_) => return Answer::Closed,
                Ok(_) => {}
            }
            match byte[0] {
                0x03 => return Answer::Interrupted,
                0x04 if line.is_empty() => return Answer::Closed,
                b'\r' | b'\n' => return Answer::Line(String::from_utf8_lossy(&line).into_owned()),
                0x7f | 0x08 => {
                    let erased = line.pop().is_some();
                    if erased && echo {
                        let _ = self.say("\u{8} \u{8}");
                    }
                }
                0x15 => {
                    if echo {
                        let _ = self.say(&"\u{8} \u{8}".repeat(line.len()));
                    }
                    line.clear();
                }
                b if b >= 0x20 && line.len() < MAX_ANSWER => {
                    line.push(b);
                    if echo {
                        let _ = self.tty.write_all(&[b]);
                        let _ = self.tty.flush();
                    }
                }
                _ => {}
            }
        }
    }
}
