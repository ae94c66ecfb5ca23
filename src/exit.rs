//! Process exit codes, the contract of docs/design.md, "Exit codes".
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
    /// 6: `drift` found objects changed since the change log last changed them — an answer,
    /// not an error. 6 is the first code the contract leaves free: `kubectl diff` says
    /// "differences" with 1 and `terraform plan -detailed-exitcode` with 2, which are our
    /// runtime and usage errors. Any error wins over it ([`ExitStatus::severity`]): a script
    /// must never read "drift" when some object could not be checked.
    Drift,
}

impl ExitStatus {
    /// How severe a failure is when several outcomes make one exit code (a fan-out over
    /// contexts, a session rollback): 0 for success, then 6 (drift found: an answer, below
    /// every error), 4 (a named object missing), 2 (bad
    /// input or a configuration that needs fixing), 5 (a conflict: someone else changed the
    /// object), 3 (refused by plugin.yaml or RBAC), and 1 highest: a runtime failure leaves
    /// the outcome unknown, which a user must look at before anything else.
    pub fn severity(self) -> u8 {
        match self {
            ExitStatus::Success => 0,
            ExitStatus::Drift => 1,
            ExitStatus::NotFound => 2,
            ExitStatus::Usage => 3,
            ExitStatus::Conflict => 4,
            ExitStatus::Denied => 5,
            ExitStatus::Failure => 6,
        }
    }

    /// The most severe of `statuses` by [`ExitStatus::severity`]; `Success` when empty.
    pub fn most_severe(statuses: impl IntoIterator<Item = ExitStatus>) -> ExitStatus {
        statuses
            .into_iter()
            .max_by_key(|s| s.severity())
            .unwrap_or(ExitStatus::Success)
    }

    /// The numeric process exit code.
    pub fn code(self) -> u8 {
        match self {
            ExitStatus::Success => 0,
            ExitStatus::Failure => 1,
            ExitStatus::Usage => 2,
            ExitStatus::Denied => 3,
            ExitStatus::NotFound => 4,
            ExitStatus::Conflict => 5,
            ExitStatus::Drift => 6,
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
            ExitStatus::Drift,
        ];
        let codes: Vec<u8> = all.iter().map(|s| s.code()).collect();
        assert_eq!(codes, vec![0, 1, 2, 3, 4, 5, 6]);
    }

    #[test]
    fn the_most_severe_of_several_outcomes_orders_failure_over_denied_over_conflict() {
        use ExitStatus::*;
        assert_eq!(ExitStatus::most_severe([]), Success);
        assert_eq!(ExitStatus::most_severe([Success, NotFound]), NotFound);
        assert_eq!(ExitStatus::most_severe([NotFound, Usage, Success]), Usage);
        assert_eq!(
            ExitStatus::most_severe([Conflict, Usage, NotFound]),
            Conflict
        );
        assert_eq!(ExitStatus::most_severe([Conflict, Denied]), Denied);
        assert_eq!(ExitStatus::most_severe([Denied, Failure, Success]), Failure);
        assert_eq!(ExitStatus::most_severe([Drift, Success]), Drift);
        assert_eq!(
            ExitStatus::most_severe([Drift, NotFound]),
            NotFound,
            "an error wins"
        );
    }
}
