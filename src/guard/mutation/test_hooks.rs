//! The debug build's test hooks of the write-ahead path (compiled into debug builds only:
//! the tests run the debug binary; a release never contains them).

/// The tests' hold between the read of an object and the request that depends on it,
/// compiled into debug builds only: with `MYOPS_TEST_PAUSE=POINT` (`before-delete`: between
/// a delete's read and its DELETE; `before-restore`: between a rollback's read and its
/// restoring patch) the process creates the file named by `MYOPS_TEST_PAUSE_MARKER` and
/// waits (at most 60 s) until a test removes it, so the test can write to the object in
/// between; once per process. A release build never contains it.
pub fn test_hold(point: &str) {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::{Duration, Instant};
    // Once per process: a retried request (a rollback tried again) is not held again.
    static HELD: AtomicBool = AtomicBool::new(false);
    if std::env::var("MYOPS_TEST_PAUSE").ok().as_deref() != Some(point)
        || HELD.swap(true, Ordering::SeqCst)
    {
        return;
    }
    let Some(marker) = std::env::var_os("MYOPS_TEST_PAUSE_MARKER") else {
        return;
    };
    if std::fs::write(&marker, point).is_err() {
        return;
    }
    let end = Instant::now() + Duration::from_secs(60);
    // A blocking wait on purpose: nothing else of this process may run in between.
    while std::path::Path::new(&marker).exists() && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The fault-injection suite's pause points, compiled into debug builds only
/// (`cfg(debug_assertions)`: the tests run the debug binary; a release never contains this).
/// With `MYOPS_TEST_PAUSE=after-intent` the process stops right after the intent record is
/// fsynced and before the request is sent; with `after-send`, right after the server
/// answered and before the outcome record is written. It then creates the file named by
/// `MYOPS_TEST_PAUSE_MARKER` (if set) and sleeps, so a test can `kill -9` it at a known
/// point of the write-ahead protocol (tests/chaos/kill9.rs). `MYOPS_TEST_FAULT` loses a
/// mutating request's answer ([`test_pause::faulted`]).
pub mod test_pause {
    /// Pauses at `point` when `MYOPS_TEST_PAUSE` names it; otherwise returns at once.
    pub fn at(point: &str) {
        if std::env::var("MYOPS_TEST_PAUSE").ok().as_deref() != Some(point) {
            return;
        }
        if let Some(marker) = std::env::var_os("MYOPS_TEST_PAUSE_MARKER") {
            let _ = std::fs::write(marker, point);
        }
        // A blocking sleep on purpose: the whole process stands still until it is killed.
        std::thread::sleep(std::time::Duration::from_secs(600));
    }

    /// The mutating request `call` under the fault `MYOPS_TEST_FAULT` names, so a test can
    /// lose an answer at will on a real cluster: `lose-answer` sends it and then fails as if
    /// the answer never came (the server made the change); `drop-request` never sends it and
    /// fails the same way (the server made nothing). Either failure is a passed deadline,
    /// whose request may or may not have reached the server. Without the variable, `call`.
    pub async fn faulted<T>(
        server: &str,
        what: &str,
        call: impl std::future::Future<Output = Result<T, crate::cluster::ApiError>>,
    ) -> Result<T, crate::cluster::ApiError> {
        let lost = || crate::cluster::ApiError::Timeout {
            server: server.to_string(),
            what: what.to_string(),
            after: std::time::Duration::ZERO,
        };
        match std::env::var("MYOPS_TEST_FAULT").ok().as_deref() {
            Some("drop-request") => Err(lost()),
            Some("lose-answer") => call.await.and_then(|_| Err(lost())),
            _ => call.await,
        }
    }
}
