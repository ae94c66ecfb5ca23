//! Objects applied as batches ([`crate::guard::Session::apply_batch`]: the journal's group
//! commit, requests in flight together): consecutive objects of one type and namespace that
//! the type's grant covers for every name and no field policy judges, up to [`BATCH`] at a
//! time, printed in order as the batch lands.

use serde_json::Value;

use super::{Run, TypeKey};
use crate::cluster::ResolvedType;
use crate::guard::{ApplyRequest, Grant, ObjectRef};
use crate::output::Printer;
use crate::verbs::VerbError;

/// Most objects in one batch: two group commits (intents, outcomes) per this many objects.
pub const BATCH: usize = 64;

/// The objects gathered for the next batch, all of one type and namespace.
#[derive(Default)]
pub struct Batch {
    key: Option<TypeKey>,
    grant: Option<Grant>,
    items: Vec<(ObjectRef, Value)>,
}

impl Run<'_> {
    /// Adds the object `value` of type `t` to `batch` when it may join (see the module doc),
    /// flushing first when the batch is full or of another type; otherwise hands it back to
    /// be applied alone.
    pub(super) async fn join(
        &mut self,
        batch: &mut Batch,
        t: ResolvedType,
        value: Value,
        p: &mut Printer<'_>,
    ) -> Option<(Option<ResolvedType>, Value)> {
        let obj = self.object_of(t, &value);
        let policed = crate::rules::policy::matching(
            &self.session.settings().plugin.policies,
            &obj.t.api.plural,
            &obj.t.api.kind,
            &obj.t.api.group,
            obj.namespace.as_deref(),
        )
        .map_or(true, |rules| !rules.is_empty());
        let req = self.template(&value);
        let grant = match policed {
            true => None,
            false => self.type_grant(&obj, &req).await,
        };
        let Some(grant) = grant else {
            return Some((Some(obj.t), value));
        };
        let key = (
            obj.t.api.group.clone(),
            obj.t.api.plural.clone(),
            obj.namespace.clone(),
        );
        if batch.key.as_ref().is_some_and(|k| *k != key) || batch.items.len() >= BATCH {
            self.flush(batch, p).await;
        }
        batch.key = Some(key);
        batch.grant = Some(grant);
        batch.items.push((obj, value));
        if batch.items.len() >= BATCH {
            self.flush(batch, p).await;
        }
        None
    }

    /// Applies the gathered objects as one batch and prints each result in order.
    pub(super) async fn flush(&mut self, batch: &mut Batch, p: &mut Printer<'_>) {
        let items = std::mem::take(&mut batch.items);
        let (Some(grant), false) = (batch.grant.take(), items.is_empty()) else {
            return;
        };
        batch.key = None;
        let null = Value::Null;
        let template = self.template(&null);
        let refs: Vec<(ObjectRef, &Value)> = items.iter().map(|(o, v)| (o.clone(), v)).collect();
        let results = match self.session.apply_batch(&grant, &refs, &template).await {
            Ok(r) => r,
            Err(e) => {
                let e = self.guard_error(e);
                self.done += items.len();
                return self.fail(e, p);
            }
        };
        for ((obj, _), result) in items.iter().zip(results) {
            self.done += 1;
            let printed: Result<(), VerbError> = match result {
                Ok(applied) => self.print_applied(obj, &applied, p),
                Err(e) => Err(self.guard_error(e)),
            };
            if let Err(e) = printed {
                self.fail(e, p);
            }
        }
        self.redraw(p);
    }

    /// The apply every object of this run is sent with, for `body`.
    fn template<'v>(&self, body: &'v Value) -> ApplyRequest<'v>
    where
        Self: 'v,
    {
        ApplyRequest {
            body,
            dry_run: self.args.dry_run.strategy,
            field_manager: &self.args.field_manager,
            force: self.args.force_conflicts,
        }
    }
}
