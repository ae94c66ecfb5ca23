//! [`Session::apply_batch`]: many server-side applies as one write-ahead step — the same
//! guarantees as [`Session::apply`] for each object, with the journal's group commit
//! ([`crate::changelog::Journal::append_all`]) and the requests in flight together:
//!
//! 1. the before-states are read, [`IN_FLIGHT`] at a time (a read that fails or is
//!    forbidden is that object's complete record and error, as for one apply);
//! 2. the intents of every object read are appended in one step and one fsync — when that
//!    fails, none of their requests is sent;
//! 3. the applies are sent, [`IN_FLIGHT`] at a time, each under the call deadline;
//! 4. the outcomes are appended in one step.
//!
//! Only for objects no field policy covers (a policy needs its own dry run and verdict per
//! object, [`Session::apply`]) and under a grant that covers their type for every name.

use std::time::Instant;

use futures::StreamExt;
use kube::api::DynamicObject;
use serde_json::Value;

use super::apply::{Applied, ApplyRequest};
use super::patch::remember_patch_secrets;
use super::{ObjectRef, outcome_text};
use crate::changelog::{self, Operation};
use crate::cli::DryRun;
use crate::cluster::ApiError;
use crate::guard::GuardError;
use crate::guard::change::{Params, Request};
use crate::guard::session::{Grant, Session};

/// Requests in flight at once in a batch: enough to hide the round trip, few enough that a
/// server under load is not flooded by one command.
pub const IN_FLIGHT: usize = 8;

/// One object of a batch: where it goes and the manifest's object.
pub type Item<'a> = (ObjectRef, &'a Value);

/// An object read, waiting for its apply.
struct Ready<'a> {
    index: usize,
    before: Option<Value>,
    intent: changelog::Entry,
    req: ApplyRequest<'a>,
}

impl Session<'_> {
    /// Server-side applies `items` under `grant` (see the module doc): one result per item,
    /// in order.
    ///
    /// # Errors
    /// The outer error when the intents cannot be journaled ([`GuardError::Journal`]: nothing
    /// of the batch was sent) or the outcomes cannot ([`GuardError::Unjournaled`]: sent,
    /// outcome unknown in the log); per item, as [`Session::apply`].
    pub async fn apply_batch(
        &self,
        grant: &Grant,
        items: &[Item<'_>],
        template: &ApplyRequest<'_>,
    ) -> Result<Vec<Result<Applied, GuardError>>, GuardError> {
        let dry = template.dry_run != DryRun::None;
        let reads: Vec<Result<Option<Value>, ApiError>> = futures::stream::iter(items)
            .map(|(obj, _)| self.read(grant, obj))
            .buffered(IN_FLIGHT)
            .collect()
            .await;
        let mut results: Vec<Option<Result<Applied, GuardError>>> =
            items.iter().map(|_| None).collect();
        // `--reason` as each workload's change cause, before any intent is built.
        let caused: Vec<Option<Value>> = items
            .iter()
            .map(|(obj, body)| {
                let change = ApplyRequest { body, ..*template }.as_change();
                match self.with_change_cause(&change, &obj.t.api.kind) {
                    Some(crate::guard::Change::Apply { body, .. }) => Some(body),
                    _ => None,
                }
            })
            .collect();
        let mut ready: Vec<Ready<'_>> = Vec::new();
        for (index, ((obj, body), read)) in items.iter().zip(reads).enumerate() {
            let body = caused[index].as_ref().unwrap_or(body);
            let req = ApplyRequest { body, ..*template };
            let change = req.as_change();
            let before = match read {
                Ok(Some(v)) => Some(v),
                Err(ApiError::Server { code: 404, .. }) => None,
                Ok(None) => {
                    let e = self
                        .denial(
                            &obj.access("get", None),
                            "the read of the object was forbidden".into(),
                        )
                        .await;
                    let entry = self
                        .intent(change.intent(Operation::Apply, obj, dry, None))
                        .await;
                    self.journal_complete(entry, "denied".into()).await?;
                    results[index] = Some(Err(e.into()));
                    continue;
                }
                Err(e) => {
                    let entry = self
                        .intent(change.intent(Operation::Apply, obj, dry, None))
                        .await;
                    self.journal_complete(entry, outcome_text(&e)).await?;
                    results[index] = Some(Err(e.into()));
                    continue;
                }
            };
            remember_patch_secrets(&obj.t.api.kind, body);
            let mut intent = self
                .intent(change.intent(Operation::Apply, obj, dry, before.as_ref()))
                .await;
            intent.reconciler = before.as_ref().and_then(crate::rules::reconciler::detect);
            ready.push(Ready {
                index,
                before,
                intent,
                req,
            });
        }
        let ready = self.admit_batch(grant, items, ready, &mut results).await?;
        let journal = self.journal()?;
        let intents: Vec<changelog::Entry> = ready.iter().map(|r| r.intent.clone()).collect();
        journal.append_all(&intents).map_err(GuardError::Journal)?;
        let started = Instant::now();
        let answers = self.send_batch(grant, items, &ready).await;
        let elapsed = started.elapsed().as_secs_f64();
        let mut outcomes = Vec::with_capacity(ready.len());
        let mut settled = Vec::with_capacity(ready.len());
        for (r, (answer, audit_id)) in ready.into_iter().zip(answers) {
            let (obj, _) = &items[r.index];
            let change = r.req.as_change();
            let (record, answer) = super::settle(
                &r.intent,
                answer,
                |v| change.outcome(&obj.t.api.kind, r.before.as_ref(), v).into(),
                elapsed,
                audit_id,
            );
            outcomes.push(record);
            settled.push((r, answer));
        }
        self.keep(&outcomes, GuardError::Unjournaled).await?;
        futures::stream::iter(&outcomes)
            .for_each_concurrent(IN_FLIGHT, |record| self.emit_event(record))
            .await;
        for (r, answer) in settled {
            results[r.index] = Some(answer.map(|after| Applied {
                reconciler: r.intent.reconciler.clone(),
                before: r.before,
                after,
            }));
        }
        Ok(results
            .into_iter()
            .map(|r| {
                r.unwrap_or_else(|| {
                    Err(GuardError::Usage(
                        "internal: an object of the batch has no result".into(),
                    ))
                })
            })
            .collect())
    }

    /// The items of `ready` that plugin.yaml `protect:` admits ([`Session::admit`]: the first
    /// that needs an answer asks, the rest of the batch shares it), their intents carrying how;
    /// a refused item's result is its refusal (journaled), and it is not sent.
    ///
    /// # Errors
    /// [`GuardError::Journal`] when a refusal cannot be journaled.
    async fn admit_batch<'b>(
        &self,
        grant: &Grant,
        items: &[Item<'_>],
        ready: Vec<Ready<'b>>,
        results: &mut [Option<Result<Applied, GuardError>>],
    ) -> Result<Vec<Ready<'b>>, GuardError> {
        self.plan_changes(ready.iter().map(|r| items[r.index].0.display()));
        let mut admitted = Vec::with_capacity(ready.len());
        for mut r in ready {
            let (obj, _) = &items[r.index];
            let change = r.req.as_change();
            let dry_run = async {
                let api = self
                    .api_for(grant, obj, &change)
                    .map_err(|e| kube::Error::Service(e.to_string().into()))?;
                let (Request::Patch { patch, .. }, Params::Patch(pp)) = change
                    .request(r.req.field_manager, true)
                    .map_err(|e| kube::Error::Service(e.into()))?
                else {
                    return Ok(Value::Null);
                };
                let answer: DynamicObject = api.patch(&obj.name, &pp, &patch).await?;
                Ok(serde_json::to_value(answer).unwrap_or_default())
            };
            match self
                .admit(r.intent.clone(), r.before.as_ref(), dry_run)
                .await
            {
                Ok(a) => {
                    r.intent = a.into_entry();
                    admitted.push(r);
                }
                Err(e @ GuardError::Journal(_)) => return Err(e),
                Err(e) => results[r.index] = Some(Err(e)),
            }
        }
        Ok(admitted)
    }

    /// The applies of `ready`, [`IN_FLIGHT`] at a time, each built from `grant`; the
    /// server's answers in order, each with the `Audit-Id` captured while it ran
    /// ([`crate::cluster::audit`]; [`super::settle`] drops it when the answer was lost).
    async fn send_batch(
        &self,
        grant: &Grant,
        items: &[Item<'_>],
        ready: &[Ready<'_>],
    ) -> Vec<(Result<Value, GuardError>, Option<String>)> {
        futures::stream::iter(ready)
            .map(|r| {
                crate::cluster::audit::capturing(async move {
                    let (obj, _) = &items[r.index];
                    let change = r.req.as_change();
                    let api = self.api_for(grant, obj, &change)?;
                    let (Request::Patch { patch, .. }, Params::Patch(pp)) = change
                        .request(r.req.field_manager, r.req.dry_run == DryRun::Server)
                        .map_err(GuardError::Usage)?
                    else {
                        return Err(GuardError::Usage(
                            "internal: an apply builds a PATCH".into(),
                        ));
                    };
                    let answer: DynamicObject = self
                        .call("the server-side apply", api.patch(&obj.name, &pp, &patch))
                        .await?;
                    Ok(serde_json::to_value(answer).unwrap_or(Value::Null))
                })
            })
            .map(|answered| async move {
                let (answer, audit_id) = answered.await;
                let lost = matches!(&answer, Err(GuardError::Api(e)) if e.may_have_applied());
                (answer, audit_id.filter(|_| !lost))
            })
            .buffered(IN_FLIGHT)
            .collect()
            .await
    }
}
