//! Waiting out a server that stops answering: the long-running commands — `get -w`
//! ([`super::watch`]) and `crds watch` — keep running through a stopped or restarting
//! kube-apiserver (or its etcd down: [`crate::cluster::ApiError::is_transient`]), tell the
//! outage once, and try again with one backoff, kept here so both wait alike.

use std::time::{Duration, Instant};

/// The first wait before trying again: client-go's reflector backoff
/// (`k8s.io/client-go/tools/cache/reflector.go`, `NewReflectorWithOptions`:
/// `NewExponentialBackoffManager(800ms, 30s, 2m, 2.0, 1.0, …)`), doubling each time.
pub const RETRY_FIRST: Duration = Duration::from_millis(800);

/// The longest wait between two tries (client-go's is 30 s): a command at a terminal goes on
/// within 8 s of the server answering again.
pub const RETRY_MAX: Duration = Duration::from_secs(8);

/// One outage in progress: since when, and the wait before the next try.
#[derive(Debug, Clone, Copy)]
pub struct Outage {
    since: Instant,
    backoff: Duration,
}

impl Outage {
    /// An outage that began now (its first failure).
    pub fn begin() -> Outage {
        Outage {
            since: Instant::now(),
            backoff: RETRY_FIRST,
        }
    }

    /// The wait before the next try: [`RETRY_FIRST`], then doubled each time up to
    /// [`RETRY_MAX`].
    pub fn next_wait(&mut self) -> Duration {
        let wait = self.backoff;
        self.backoff = (self.backoff * 2).min(RETRY_MAX);
        wait
    }

    /// How long it has lasted.
    pub fn lasted(&self) -> Duration {
        self.since.elapsed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_doubles_from_800ms_and_stops_at_8s() {
        let mut o = Outage::begin();
        let waits: Vec<u128> = (0..6).map(|_| o.next_wait().as_millis()).collect();
        assert_eq!(waits, [800, 1600, 3200, 6400, 8000, 8000]);
    }
}
