//! What a session has answered for plugin.yaml `protect:` so far ([`crate::guard::protect`]):
//! one answer per command, kept with the session it belongs to.

use std::collections::{BTreeMap, BTreeSet};

use crate::rules::protect::Lift;

/// How a question at the terminal was refused, kept so the rest of the command is refused
/// the same way without asking again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Not yes.
    Declined,
    /// The terminal closed.
    Closed,
}

/// The rules answered (by index in `protect:`) and how, the rules refused, the lifts read
/// once, the notes printed, and the objects the command goes on to change.
#[derive(Debug, Default)]
pub struct Answered {
    /// Rules answered yes in this session, each for the namespace the question named (the
    /// judged namespace; `None` for a cluster-scoped object).
    pub rules: BTreeSet<(usize, Option<String>)>,
    /// How (the journal's `protection` text).
    pub how: Option<String>,
    /// The objects (`kind.group/name`) an answer at the terminal covers: those its question
    /// named; `None` when a flag answered for the whole command.
    pub covered: Option<BTreeSet<String>>,
    /// Rules refused at the terminal, and how.
    pub refused: BTreeMap<usize, Refusal>,
    /// The stored lifts, read at the first protected change.
    pub lifts: Option<Vec<Lift>>,
    /// Notes already printed (each once per session).
    pub noted: BTreeSet<String>,
    /// The objects the command goes on to change (`kind/name`), named by a question.
    pub plan: Vec<String>,
}
