//! Request parameters the command line chooses: whether the API server stores a change
//! (`dryRun=All`) and the content type of a patch.

use clap::ValueEnum;

/// Patch types (kubectl's names), each sent as its own content type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PatchType {
    /// Strategic merge patch (built-in types only).
    Strategic,
    /// JSON merge patch (RFC 7386).
    Merge,
    /// JSON patch (RFC 6902).
    Json,
}

/// `--dry-run` values (kubectl's names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DryRun {
    /// Really change the object.
    None,
    /// The server computes and validates the change, and stores nothing.
    Server,
    /// Computed locally from the current object (merge and json patches only).
    Client,
}
