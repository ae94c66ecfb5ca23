//! Arguments of `mcp`: the Model Context Protocol server over stdio (docs/agents.md).

use clap::Args;

/// Arguments of `mcp`. The cluster is fixed at start by the global `--context`/`--contexts`
/// (default: the kubeconfig's current context, read once): a tool call may name one of those
/// contexts, never another.
#[derive(Debug, Clone, Args)]
pub struct McpArgs {
    /// List and serve only the read tools (get, can_i, changelog_list, changelog_show, drift).
    #[arg(long)]
    pub read_only: bool,
    /// How long a mutation's confirmation token stays valid after its preview: seconds or a
    /// Go duration (`90`, `2m`), at least 1 s and at most 1 h.
    #[arg(long, value_name = "DURATION", default_value = "2m")]
    pub confirm_within: String,
    /// How many tool calls run at once; a call beyond them waits for a free slot (1–32).
    #[arg(long, value_name = "N", default_value = "4", value_parser = clap::value_parser!(u8).range(1..=32))]
    pub max_concurrent: u8,
}

/// `mcp --help` examples.
pub const MCP_HELP: &str =
    "Every tool call runs the same guarded command a person runs (plugin.yaml boundary,
SelfSubjectAccessReview, field policies, protect: rules, the change log); a mutating tool
first answers with its server-side dry run, a diff and a one-time confirmation token, and
changes the cluster only when called again with that token.

Examples:
  # Serve a client (Claude Desktop, VS Code, an agent) on the current context
  kubectl myops mcp

  # Only reads, in one context and namespace
  kubectl myops mcp --read-only --context staging -n shop

  # Two contexts the agent may choose between
  kubectl myops mcp --contexts staging,prod --confirm-within 1m

See docs/agents.md for a client configuration and a transcript.";
