//! The small plugin.yaml sections that switch one behaviour on: `apply:` and `mcp:`
//! (docs/configuration.md).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// `apply:` in plugin.yaml (docs/configuration.md): whether `apply --force-conflicts` may
/// take fields over from their other managers. Off by default: a forced apply silently
/// overwrites what another manager (a controller, a person's `kubectl apply`, a GitOps tool)
/// set, which is the one server-side apply decision a guard should not leave to a flag
/// (Kubernetes docs, "Server-Side Apply", "Conflicts").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ApplyConfig {
    /// Allow `apply --force-conflicts`; default false (the flag is refused, exit 2).
    #[serde(default)]
    pub force_conflicts: bool,
}

impl ApplyConfig {
    /// Whether nothing is set (the section is then left out when plugin.yaml is printed).
    pub fn is_default(&self) -> bool {
        *self == ApplyConfig::default()
    }
}

/// `mcp:` in plugin.yaml (docs/agents.md).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct McpConfig {
    /// Whether the `get` tool shows Secret values to the agent; default false: a Secret's
    /// `data`/`stringData` values read `<redacted>` (what a model reads may reach its
    /// provider, its logs and its next prompt). Diffs and the change log mask them always.
    #[serde(default)]
    pub show_secret_values: bool,
}

impl McpConfig {
    /// Whether nothing is set (the section is then left out when plugin.yaml is printed).
    pub fn is_default(&self) -> bool {
        *self == McpConfig::default()
    }
}
