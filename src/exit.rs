//! Process exit codes, the contract of ARCHITECTURE §2 ("Exit codes").
//!
//! Every error type in the crate maps to one [`ExitStatus`]; the process code is
//! produced in one place (`main`), never by `process::exit` elsewhere.

/// The documented exit codes of `kubectl-myops`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitStatus {
    /// 0: success (an empty list is success).
    Success,
    /// 1: runtime failure (server error, network, timeout).
    Failure,
    /// 2: usage or configuration error (bad flags, invalid plugin.yaml, unknown TYPE).
    Usage,
    /// 3: denied by the plugin.yaml boundary or by RBAC (SelfSubjectAccessReview or a 403).
    Denied,
    /// 4: a named object does not exist.
    NotFound,
    /// 5: conflict (optimistic concurrency, server-side apply field conflict).
    Conflict,
}

impl ExitStatus {
    /// The numeric process exit code.
    pub fn code(self) -> u8 {
        match self {
            ExitStatus::Success => 0,
            ExitStatus::Failure => 1,
            ExitStatus::Usage => 2,
            ExitStatus::Denied => 3,
            ExitStatus::NotFound => 4,
            ExitStatus::Conflict => 5,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_match_the_architecture_table() {
        let all = [
            ExitStatus::Success,
            ExitStatus::Failure,
            ExitStatus::Usage,
            ExitStatus::Denied,
            ExitStatus::NotFound,
            ExitStatus::Conflict,
        ];
        let codes: Vec<u8> = all.iter().map(|s| s.code()).collect();
        assert_eq!(codes, vec![0, 1, 2, 3, 4, 5]);
    }
}
