//! Leader election on a `coordination.k8s.io/v1` Lease, the pure core: client-go's
//! `tools/leaderelection/leaderelection.go` (`tryAcquireOrRenew`, `release`, `isLeaseValid`)
//! as functions of (what this candidate observed, what the server holds, the local clock,
//! the identity) → the request to send. The requests themselves are sent by
//! [`super::lease`]; `crds watch --leader-elect` drives both.
//!
//! The rules, as client-go has them:
//! - A Lease is *valid* while `observed_at + leaseDurationSeconds > now`, where `observed_at`
//!   is the **local monotonic** time at which this process first saw the record in its
//!   current form — never the holder's `renewTime`, which was written with another machine's
//!   clock. Clock skew between machines therefore never shortens a lease; only a difference
//!   in clock *rates* could.
//! - A candidate takes the Lease when nobody holds it (`holderIdentity` empty — a released
//!   Lease), when it is not valid any more, or when it already holds it; otherwise it
//!   follows the holder.
//! - Taking over increments `leaseTransitions` and sets `acquireTime`; a renewal keeps both.
//! - Every write is fenced by `metadata.resourceVersion` (a replace, never a patch): when two
//!   candidates race for an expired Lease, the server accepts the first replace and answers
//!   409 Conflict to the second, which then follows the winner.
//! - The leader renews every retry period; if no renewal succeeds within the renew deadline
//!   (measured from the start of the last successful round), it is no longer the leader
//!   ([`Elector::leading_until`]). The renew deadline is shorter than the lease duration, so
//!   a leader stops before any other candidate can consider the Lease expired: the
//!   difference (5 s with the defaults) is the margin for an apply already on the wire.
//! - Release (client-go `ReleaseOnCancel`) writes an empty holder with
//!   `leaseDurationSeconds: 1`, so a follower takes over at its next round.
//!
//! Why not a crate: `kube-leader-election` 0.44 needs kube 4 (a second kube in the tree);
//! `kube-lease-manager` 0.13 fits kube 5 but measures expiry as the holder's `renewTime` plus
//! the duration against the local wall clock (clock skew between nodes shortens or lengthens
//! every lease), renews with unfenced strategic-merge patches, has no renew deadline (a
//! leader whose renewals fail keeps believing it leads until a request errors), and cannot
//! put its requests under this tool's deadlines; it would also add `rand` 0.10 to the tree.

use std::time::{Duration, Instant};

use jiff::Timestamp;
use k8s_openapi::api::coordination::v1::LeaseSpec;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::MicroTime;

/// client-go's `LeaseDuration` default (kube-controller-manager's
/// `--leader-elect-lease-duration`): how long followers wait without seeing the record change
/// before they take over.
pub const LEASE_DURATION: Duration = Duration::from_secs(15);
/// client-go's `RenewDeadline` default: how long the leader keeps trying to renew before it
/// stops leading.
pub const RENEW_DEADLINE: Duration = Duration::from_secs(10);
/// client-go's `RetryPeriod` default: the time between two attempts to acquire or renew.
pub const RETRY_PERIOD: Duration = Duration::from_secs(2);
/// client-go's `JitterFactor`: the renew deadline must exceed `JITTER_FACTOR × retry period`
/// (the check in `NewLeaderElector`).
pub const JITTER_FACTOR: f64 = 1.2;

/// A timing that client-go's `NewLeaderElector` would refuse (exit 2 for the flags).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TimingError {
    /// `leaseDurationSeconds` is an integer number of seconds.
    #[error(
        "--lease-duration must be a whole number of seconds from 1s to 2147483647s (the Lease stores leaseDurationSeconds, a 32-bit integer), got {0:?}"
    )]
    LeaseNotWholeSeconds(Duration),
    /// A zero retry period or renew deadline.
    #[error("--retry-period and --renew-deadline must be greater than zero")]
    Zero,
    /// The leader must stop before followers may take over.
    #[error(
        "--lease-duration ({lease:?}) must be greater than --renew-deadline ({renew:?}), so a leader stops before another may take over"
    )]
    RenewNotShorter {
        /// The lease duration.
        lease: Duration,
        /// The renew deadline.
        renew: Duration,
    },
    /// The leader must get more than one renewal attempt per deadline.
    #[error(
        "--renew-deadline ({renew:?}) must be greater than {JITTER_FACTOR} × --retry-period ({retry:?}), as client-go requires"
    )]
    RetryTooLong {
        /// The renew deadline.
        renew: Duration,
        /// The retry period.
        retry: Duration,
    },
}

/// Lease duration, renew deadline and retry period, validated as client-go's
/// `NewLeaderElector` does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timing {
    lease_duration: Duration,
    renew_deadline: Duration,
    retry_period: Duration,
}

impl Default for Timing {
    /// client-go's defaults: 15 s, 10 s, 2 s.
    fn default() -> Timing {
        Timing {
            lease_duration: LEASE_DURATION,
            renew_deadline: RENEW_DEADLINE,
            retry_period: RETRY_PERIOD,
        }
    }
}

impl Timing {
    /// Validates the three durations.
    ///
    /// # Errors
    /// [`TimingError`] when the lease duration is not whole seconds (≥ 1 s), a value is zero,
    /// the lease duration does not exceed the renew deadline, or the renew deadline does not
    /// exceed 1.2 × the retry period.
    pub fn new(
        lease_duration: Duration,
        renew_deadline: Duration,
        retry_period: Duration,
    ) -> Result<Timing, TimingError> {
        if lease_duration.subsec_nanos() != 0
            || lease_duration.as_secs() == 0
            || i32::try_from(lease_duration.as_secs()).is_err()
        {
            return Err(TimingError::LeaseNotWholeSeconds(lease_duration));
        }
        if renew_deadline.is_zero() || retry_period.is_zero() {
            return Err(TimingError::Zero);
        }
        if lease_duration <= renew_deadline {
            return Err(TimingError::RenewNotShorter {
                lease: lease_duration,
                renew: renew_deadline,
            });
        }
        if renew_deadline.as_secs_f64() <= JITTER_FACTOR * retry_period.as_secs_f64() {
            return Err(TimingError::RetryTooLong {
                renew: renew_deadline,
                retry: retry_period,
            });
        }
        Ok(Timing {
            lease_duration,
            renew_deadline,
            retry_period,
        })
    }

    /// The lease duration.
    pub fn lease_duration(&self) -> Duration {
        self.lease_duration
    }

    /// The renew deadline.
    pub fn renew_deadline(&self) -> Duration {
        self.renew_deadline
    }

    /// The retry period.
    pub fn retry_period(&self) -> Duration {
        self.retry_period
    }
}

/// client-go's `LeaderElectionRecord`: the Lease spec fields leader election reads and
/// writes. An empty `holder` means nobody holds the Lease.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Record {
    /// `holderIdentity` (empty: free).
    pub holder: String,
    /// `leaseDurationSeconds`.
    pub lease_duration_seconds: i32,
    /// `acquireTime`.
    pub acquire_time: Option<Timestamp>,
    /// `renewTime`.
    pub renew_time: Option<Timestamp>,
    /// `leaseTransitions`.
    pub transitions: i32,
}

impl Record {
    /// The record of a Lease spec (absent fields: empty holder, 0 seconds, 0 transitions).
    pub fn from_spec(spec: Option<&LeaseSpec>) -> Record {
        let Some(s) = spec else {
            return Record::default();
        };
        Record {
            holder: s.holder_identity.clone().unwrap_or_default(),
            lease_duration_seconds: s.lease_duration_seconds.unwrap_or(0),
            acquire_time: s.acquire_time.as_ref().map(|t| t.0),
            renew_time: s.renew_time.as_ref().map(|t| t.0),
            transitions: s.lease_transitions.unwrap_or(0),
        }
    }

    /// The Lease spec to write (client-go's `LeaseSpecFromLeaderElectionRecord`: an empty
    /// holder is written as an empty string, as client-go does).
    pub fn to_spec(&self) -> LeaseSpec {
        LeaseSpec {
            holder_identity: Some(self.holder.clone()),
            lease_duration_seconds: Some(self.lease_duration_seconds),
            acquire_time: self.acquire_time.map(MicroTime),
            renew_time: self.renew_time.map(MicroTime),
            lease_transitions: Some(self.transitions),
            ..LeaseSpec::default()
        }
    }
}

/// A Lease as read from the server: its record and `metadata.resourceVersion`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seen {
    /// The record.
    pub record: Record,
    /// The resourceVersion every replace is fenced by.
    pub resource_version: String,
}

/// The request a round sends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// No Lease exists: create it, held by this candidate.
    Create(Record),
    /// Replace the Lease as of `resource_version` (409 Conflict when someone wrote since).
    Replace {
        /// What to write.
        record: Record,
        /// The fence.
        resource_version: String,
    },
    /// Another candidate holds a valid Lease: send nothing, follow it.
    Follow {
        /// Its identity.
        holder: String,
    },
}

/// One candidate's view of the election (client-go's `LeaderElector` without its I/O).
#[derive(Debug, Clone)]
pub struct Elector {
    identity: String,
    timing: Timing,
    observed: Option<Seen>,
    observed_at: Option<Instant>,
    renewed_at: Option<Instant>,
}

impl Elector {
    /// A candidate named `identity` (unique per process: see
    /// [`super::lease::identity`]) with `timing`.
    pub fn new(identity: impl Into<String>, timing: Timing) -> Elector {
        Elector {
            identity: identity.into(),
            timing,
            observed: None,
            observed_at: None,
            renewed_at: None,
        }
    }

    /// This candidate's identity (`holderIdentity` when it leads).
    pub fn identity(&self) -> &str {
        &self.identity
    }

    /// The timing.
    pub fn timing(&self) -> Timing {
        self.timing
    }

    /// The holder as last observed (empty: nobody), if the Lease was seen at all.
    pub fn observed_holder(&self) -> Option<&str> {
        self.observed.as_ref().map(|s| s.record.holder.as_str())
    }

    /// client-go `IsLeader`: the observed record names this candidate.
    pub fn is_leader(&self) -> bool {
        self.observed_holder() == Some(self.identity.as_str())
    }

    /// client-go `isLeaseValid`: the observed record is younger (on the local clock) than its
    /// `leaseDurationSeconds`.
    pub fn lease_valid(&self, now: Instant) -> bool {
        match (&self.observed, self.observed_at) {
            (Some(s), Some(at)) => {
                let secs = u64::try_from(s.record.lease_duration_seconds).unwrap_or(0);
                at + Duration::from_secs(secs) > now
            }
            _ => false,
        }
    }

    /// Until when this candidate may act as the leader: the start of its last successful
    /// acquire or renew round plus the renew deadline; `None` when it is not the leader.
    /// Check it (against the local monotonic clock) right before every guarded action.
    pub fn leading_until(&self) -> Option<Instant> {
        if self.is_leader() {
            self.renewed_at.map(|t| t + self.timing.renew_deadline)
        } else {
            None
        }
    }

    /// Whether this candidate leads at `now` ([`Elector::leading_until`] not yet reached).
    pub fn leading_at(&self, now: Instant) -> bool {
        self.leading_until().is_some_and(|t| now < t)
    }

    /// client-go's fast path (step 1 of `tryAcquireOrRenew`): a leader whose lease is valid
    /// renews with the record it wrote last, without reading the Lease first. `None` when the
    /// slow path (read, [`Elector::observe`], [`Elector::decide`]) is needed.
    pub fn fast_path(&self, now: Instant, wall: Timestamp) -> Option<Step> {
        if !(self.is_leader() && self.lease_valid(now)) {
            return None;
        }
        let seen = self.observed.as_ref()?;
        Some(Step::Replace {
            record: self.renewal(&seen.record, wall),
            resource_version: seen.resource_version.clone(),
        })
    }

    /// Takes in what the server holds (`None`: no Lease). A record that differs from the one
    /// observed before restarts the local expiry clock at `now` (client-go compares the raw
    /// record; the resourceVersion alone — a label change — does not count).
    pub fn observe(&mut self, lease: Option<Seen>, now: Instant) {
        match lease {
            None => {
                self.observed = None;
                self.observed_at = None;
            }
            Some(seen) => {
                let changed = self.observed.as_ref().map(|s| &s.record) != Some(&seen.record);
                if changed {
                    self.observed_at = Some(now);
                }
                self.observed = Some(seen);
            }
        }
    }

    /// The slow path (steps 2–4 of `tryAcquireOrRenew`) after [`Elector::observe`]: create a
    /// missing Lease; follow a holder whose lease is valid; otherwise replace — a renewal
    /// keeping `acquireTime` and `leaseTransitions` when this candidate holds it, a takeover
    /// (transitions + 1, `acquireTime` now) when the Lease is free or expired.
    pub fn decide(&self, now: Instant, wall: Timestamp) -> Step {
        let Some(seen) = &self.observed else {
            return Step::Create(self.fresh(0, wall));
        };
        let old = &seen.record;
        if !old.holder.is_empty() && self.lease_valid(now) && !self.is_leader() {
            return Step::Follow {
                holder: old.holder.clone(),
            };
        }
        let record = if self.is_leader() {
            self.renewal(old, wall)
        } else {
            self.fresh(old.transitions.saturating_add(1), wall)
        };
        Step::Replace {
            record,
            resource_version: seen.resource_version.clone(),
        }
    }

    /// A create or replace succeeded: the server holds `written` at `resource_version`.
    /// `round_started` is when the round began (before its first request): the renew
    /// deadline counts from there, so the leader's own view never outlasts what the
    /// followers can see.
    pub fn written(
        &mut self,
        written: Record,
        resource_version: String,
        round_started: Instant,
        now: Instant,
    ) {
        self.observed = Some(Seen {
            record: written,
            resource_version,
        });
        self.observed_at = Some(now);
        self.renewed_at = Some(round_started);
    }

    /// client-go `release`: the leader writes an empty holder with `leaseDurationSeconds: 1`
    /// (and the transitions count kept), so a follower may take over at its next round.
    /// `None` when this candidate does not hold the Lease (nothing to release).
    pub fn release(&self, wall: Timestamp) -> Option<Step> {
        if !self.is_leader() {
            return None;
        }
        let seen = self.observed.as_ref()?;
        Some(Step::Replace {
            record: Record {
                holder: String::new(),
                lease_duration_seconds: 1,
                acquire_time: Some(wall),
                renew_time: Some(wall),
                transitions: seen.record.transitions,
            },
            resource_version: seen.resource_version.clone(),
        })
    }

    /// The release was written: this candidate no longer leads.
    pub fn released(&mut self) {
        self.observed = None;
        self.observed_at = None;
        self.renewed_at = None;
    }

    /// When the next round should start after one that ended at `now`: one retry period
    /// later, but a follower wakes no later than the moment the observed lease expires, so
    /// a takeover after a leader's crash comes within lease duration + retry period of its
    /// last renewal being observed (client-go adds jitter instead; replaces are fenced, so
    /// simultaneous candidates are safe without it).
    pub fn next_round(&self, now: Instant) -> Instant {
        let retry = now + self.timing.retry_period;
        if self.is_leader() {
            return retry;
        }
        match (&self.observed, self.observed_at) {
            (Some(s), Some(at)) if !s.record.holder.is_empty() => {
                let secs = u64::try_from(s.record.lease_duration_seconds).unwrap_or(0);
                // A millisecond after expiry: `lease_valid` is strict.
                let expiry = at + Duration::from_secs(secs) + Duration::from_millis(1);
                retry.min(expiry.max(now))
            }
            _ => retry,
        }
    }

    /// A record naming this candidate, acquired now.
    fn fresh(&self, transitions: i32, wall: Timestamp) -> Record {
        Record {
            holder: self.identity.clone(),
            lease_duration_seconds: self.lease_seconds(),
            acquire_time: Some(wall),
            renew_time: Some(wall),
            transitions,
        }
    }

    /// `old` renewed now by this candidate (acquire time and transitions kept).
    fn renewal(&self, old: &Record, wall: Timestamp) -> Record {
        Record {
            holder: self.identity.clone(),
            lease_duration_seconds: self.lease_seconds(),
            acquire_time: old.acquire_time.or(Some(wall)),
            renew_time: Some(wall),
            transitions: old.transitions,
        }
    }

    fn lease_seconds(&self) -> i32 {
        i32::try_from(self.timing.lease_duration.as_secs()).unwrap_or(i32::MAX)
    }
}

#[cfg(test)]
mod tests;
