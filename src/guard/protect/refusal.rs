//! Why protection refused a change ([`ProtectError`]): one sentence each, naming the rule and
//! what to do, and the `result` of its record in the change log.

/// Why protection refused a change; nothing was sent (exit 3).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProtectError {
    /// A `block` rule holds.
    #[error(
        "{what} is blocked by plugin.yaml {rules}{message}; a block is not lifted by --yes, --confirm-context or `protect lift`: change plugin.yaml to allow it (nothing was sent)"
    )]
    Blocked {
        /// `scale deployment.apps/web in namespace shop of context "prod"`.
        what: String,
        /// `protect[0]`.
        rules: String,
        /// `: why` or empty.
        message: String,
    },
    /// A rule requires `--reason` and none was given.
    #[error(
        "{what} is protected by plugin.yaml {rules}, which requires a reason: pass --reason TEXT saying why (nothing was sent)"
    )]
    NoReason {
        /// As in [`ProtectError::Blocked`].
        what: String,
        /// `protect[0]`.
        rules: String,
    },
    /// `--confirm-context` names another context.
    #[error(
        "{what} is protected by plugin.yaml {rules}, and --confirm-context names {given}, not the context {context}; nothing was sent"
    )]
    WrongContext {
        /// As in [`ProtectError::Blocked`].
        what: String,
        /// `protect[0]`.
        rules: String,
        /// The names given, quoted.
        given: String,
        /// The context, quoted.
        context: String,
    },
    /// `--confirm-context` names another context than the one a change goes to, where no
    /// rule holds: the command was meant for somewhere else.
    #[error(
        "--confirm-context names {given}, but {what}: the command was meant for another context; nothing was sent"
    )]
    NotThisContext {
        /// As in [`ProtectError::Blocked`].
        what: String,
        /// The names given, quoted.
        given: String,
    },
    /// No terminal to ask on and no flag that answers.
    #[error(
        "{what} is protected by plugin.yaml {rules} ({mode}){message}, and there is no terminal to ask on: pass {flag} to go on (nothing was sent)"
    )]
    Headless {
        /// As in [`ProtectError::Blocked`].
        what: String,
        /// `protect[0]`.
        rules: String,
        /// `confirm` or `type-name`.
        mode: &'static str,
        /// `: why` or empty.
        message: String,
        /// `--yes` or `--confirm-context NAME`.
        flag: String,
    },
    /// The person at the terminal did not say yes.
    #[error("{what} was not confirmed at the terminal; nothing was sent")]
    Declined {
        /// As in [`ProtectError::Blocked`].
        what: String,
    },
    /// The terminal closed before an answer.
    #[error("the terminal closed before the question about {what} was answered; nothing was sent")]
    Closed {
        /// As in [`ProtectError::Blocked`].
        what: String,
    },
}

impl ProtectError {
    /// The `result` of the refusal's record in the change log.
    pub fn result(&self) -> &'static str {
        match self {
            ProtectError::Blocked { .. } => "refused by protect: block",
            ProtectError::NoReason { .. } => "refused by protect: no reason given",
            ProtectError::WrongContext { .. } | ProtectError::NotThisContext { .. } => {
                "refused by protect: --confirm-context names another context"
            }
            ProtectError::Headless { .. } => "refused by protect: no terminal to ask on",
            ProtectError::Declined { .. } => "refused by protect: not confirmed",
            ProtectError::Closed { .. } => "refused by protect: the terminal closed",
        }
    }
}
