//! Waiting for a CRD just applied to be `Established` with its names accepted: the apply's
//! answer, then a watch on that one CRD (see [`Applier::wait_established`]).

use std::time::{Duration, Instant};

use futures::StreamExt;
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{WatchEvent, WatchParams};

use super::{ANNOUNCE_WAIT_AFTER, Applier, ApplyError, WaitNotices};

/// How long after a watch of a CRD that ended early (see `Applier::wait_established`) it is
/// read and watched again: a server that ends every watch at once is not asked in a loop.
const REWATCH_AFTER: Duration = Duration::from_millis(50);

impl Applier<'_> {
    /// Waits until `Established` and `NamesAccepted` are `True`, from the apply's `answer` on:
    /// the apiextensions controllers set both some 10–40 ms after the apply (more on a loaded
    /// server), and a watch on this one CRD from the answer's resourceVersion hears of it as it
    /// happens, where a poll added up to its interval (kube-rs `await_condition` waits the same
    /// way). A watch that ends or fails early (410 Gone, a cut connection, a read timeout) is
    /// followed by one read and a new watch, [`REWATCH_AFTER`] later. Once the wait has lasted
    /// [`ANNOUNCE_WAIT_AFTER`], says so on `notices` (once).
    ///
    /// # Errors
    /// [`ApplyError::NamesRejected`] at once on `NamesAccepted=False`, [`ApplyError::Wait`]
    /// when the read fails, [`ApplyError::NotReady`] after the timeout.
    pub(super) async fn wait_established(
        &self,
        name: &str,
        answer: CustomResourceDefinition,
        started: Instant,
        notices: Option<&WaitNotices>,
    ) -> Result<(), ApplyError> {
        let deadline = started + self.timeout;
        let mut seen = Readiness::check(name, &answer).map_err(|e| *e)?;
        let mut rv = answer.metadata.resource_version.clone().unwrap_or_default();
        let mut announced = false;
        loop {
            if seen.ready() {
                return Ok(());
            }
            let announce = async {
                tokio::time::sleep_until((started + ANNOUNCE_WAIT_AFTER).into()).await;
            };
            tokio::select! {
                followed = self.follow(name, &rv, deadline) => {
                    if followed?.is_some() {
                        return Ok(());
                    }
                }
                () = announce, if !announced => {
                    announced = true;
                    if let Some(n) = notices {
                        let _ = n.send(format!("CRD {name} to be {}", seen.awaited()));
                    }
                    continue;
                }
                () = tokio::time::sleep_until(deadline.into()) => {}
            }
            if Instant::now() >= deadline {
                return Err(ApplyError::NotReady {
                    name: name.into(),
                    what: seen.missing().into(),
                    seconds: started.elapsed().as_secs_f64(),
                });
            }
            tokio::time::sleep(REWATCH_AFTER).await;
            let crd = self
                .session
                .call("the read of the CRD", self.api.get(name))
                .await
                .map_err(|source| ApplyError::Wait {
                    name: name.into(),
                    source,
                })?;
            seen = Readiness::check(name, &crd).map_err(|e| *e)?;
            rv = crd.metadata.resource_version.unwrap_or_default();
        }
    }

    /// Follows the CRD `name` with a watch from `rv` until it is ready (`Some(())`), or the
    /// watch ends, fails or reaches `deadline` (`None`: the caller reads it again).
    ///
    /// # Errors
    /// [`ApplyError::NamesRejected`] when the watch shows `NamesAccepted=False`.
    async fn follow(
        &self,
        name: &str,
        rv: &str,
        deadline: Instant,
    ) -> Result<Option<()>, ApplyError> {
        let left = deadline.saturating_duration_since(Instant::now()).as_secs();
        let wp = WatchParams::default()
            .fields(&format!("metadata.name={name}"))
            .timeout(u32::try_from(left.clamp(1, 290)).unwrap_or(290));
        let Ok(stream) = self
            .session
            .call("the watch of the CRD", self.api.watch(&wp, rv))
            .await
        else {
            return Ok(None);
        };
        let mut stream = std::pin::pin!(stream);
        while let Some(Ok(ev)) = stream.next().await {
            match ev {
                WatchEvent::Added(c) | WatchEvent::Modified(c) => {
                    if Readiness::check(name, &c).map_err(|e| *e)?.ready() {
                        return Ok(Some(()));
                    }
                }
                WatchEvent::Bookmark(_) => {}
                WatchEvent::Deleted(_) | WatchEvent::Error(_) => return Ok(None),
            }
        }
        Ok(None)
    }
}

/// What the CRD's conditions say: `Established` and `NamesAccepted`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Readiness {
    established: bool,
    names: bool,
    /// `NamesAccepted=False`: its reason and message.
    rejected: Option<String>,
}

impl Readiness {
    /// The conditions of `crd` (pure).
    fn of(crd: &CustomResourceDefinition) -> Readiness {
        let conds: &[_] = crd
            .status
            .as_ref()
            .and_then(|s| s.conditions.as_deref())
            .unwrap_or_default();
        let is_true = |t: &str| conds.iter().any(|c| c.type_ == t && c.status == "True");
        Readiness {
            established: is_true("Established"),
            names: is_true("NamesAccepted"),
            rejected: conds
                .iter()
                .find(|c| c.type_ == "NamesAccepted" && c.status == "False")
                .map(|c| {
                    format!(
                        "{}: {}",
                        c.reason.as_deref().unwrap_or("NamesNotAccepted"),
                        c.message.as_deref().unwrap_or("")
                    )
                }),
        }
    }

    /// Whether `crd` is ready (pure).
    ///
    /// # Errors
    /// [`ApplyError::NamesRejected`] on `NamesAccepted=False`: the server's decision (a name
    /// clash), not a delay, so it is told at once.
    fn check(name: &str, crd: &CustomResourceDefinition) -> Result<Readiness, Box<ApplyError>> {
        let r = Readiness::of(crd);
        match r.rejected {
            Some(reason) => Err(Box::new(ApplyError::NamesRejected {
                name: name.into(),
                reason,
            })),
            None => Ok(r),
        }
    }

    fn ready(&self) -> bool {
        self.established && self.names
    }

    /// What a wait notice says is awaited.
    fn awaited(&self) -> &'static str {
        if self.names {
            "Established"
        } else {
            "Established with its names accepted"
        }
    }

    /// What a timeout says is missing.
    fn missing(&self) -> &'static str {
        if self.names {
            "Established"
        } else {
            "NamesAccepted (another CRD may use its names)"
        }
    }
}
