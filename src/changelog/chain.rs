//! The hash chain that makes the change log tamper-evident.
//!
//! Every record carries `prev` — the `hash` of the record appended before it, or
//! [`GENESIS`] (64 zeros) for the first record of the chain — and `hash`: the SHA-256, in
//! lowercase hex, of the record's canonical form ([`super::canonical`], RFC 8785 JCS) with the
//! `hash` member removed (so `prev` is covered). On disk `hash` is the last member of the
//! line; the other members keep their usual order. Editing a record changes its hash;
//! removing, inserting or moving one breaks the next record's `prev`.
//!
//! The end of the chain is also recorded beside the log, in `changelog.head` (`{"head":
//! HASH, "base": HASH}`, written atomically under the writers' lock after each append): a
//! prefix of a valid chain is itself a valid chain, so without it removing the last records
//! would go unnoticed. `base` is the `prev` the oldest retained record must have: [`GENESIS`]
//! until rotation deletes the oldest file, then that file's last hash.
//!
//! What this does not do: the chain has no secret, so someone who can write the log can
//! rewrite it whole, recomputing every hash, and `changelog.head` with it. It makes edits
//! *evident* to whoever kept an earlier last hash (`changelog verify` prints it: copy it into
//! a ticket or another system), it does not prevent them.
//!
//! Records written before the chain existed have no `hash`: the chain starts at the first
//! hashed record (whose `prev` is `base`); an unhashed record after a hashed one is a break.
//! Lines that are not valid records are breaks too (the line parser says why); the writer
//! chains over them, so one bad line is one break.
//!
//! Everything here is pure except [`read_head`], [`write_head`] and [`file_tip`]. One
//! concern per file: sealing a record (`chain/seal.rs`), the chain's tip in the log
//! (`chain/tip.rs`), `changelog.head` (`chain/head.rs`) and verification (`chain/verify.rs`).

mod head;
mod seal;
mod tip;
mod verify;

pub use head::{Head, HeadRead, head_path, read_head, stage_head, write_head};
pub use seal::{GENESIS, hash_of, legacy_digest, seal};
pub use tip::{Tip, file_tip, tip_in};
pub use verify::{
    Break, Broken, LegacyDigest, LogFiles, Place, Problem, Summary, Verdict, Walk, is_leftover,
    verify,
};

#[cfg(test)]
mod tests;
