//! Totals → Prometheus text exposition format (version 0.0.4).
//!
//! The `prometheus` crate's live `CounterVec`/`HistogramVec` only count forward from zero in
//! this process; a histogram cannot be set from stored totals. So the families are built as
//! `prometheus::proto::MetricFamily` values straight from the [`State`] and rendered by the
//! crate's `TextEncoder`, which owns the escaping and the `_bucket`/`_sum`/`_count`/`+Inf`
//! layout. Only setters are used on the proto types, so the code compiles with and without
//! the crate's `protobuf` feature.
//!
//! Labels are written in name order (`plugin`, `resource`, `status`, `verb`), as the crate's
//! own `Registry` does; series are ordered by label values.

use prometheus::TextEncoder;
use prometheus::proto;

use super::Status;
use super::state::{BUCKETS, OpKey, State};
use crate::config::model::MetricFamily;

const HELP_OPS_TOTAL: &str =
    "Operations run by kubectl-myops, by plugin, verb, resource and outcome status.";
const HELP_OPS_ERRORS_TOTAL: &str = "Operations that did not succeed (status other than success).";
const HELP_OPS_DURATION: &str = "Wall-clock duration of one operation in seconds.";

/// Renders the totals of the requested `families` in the Prometheus text format
/// (`text/plain; version=0.0.4`), with `# HELP` and `# TYPE` lines.
///
/// - `ops_total` (counter): every series.
/// - `ops_errors_total` (counter): series whose `status` is not `success`.
/// - `ops_duration_seconds` (histogram, buckets [`BUCKETS`] seconds): every series.
///
/// Families are emitted in that fixed order whatever the order (or repetition) in `families`.
/// A family without series is left out (the text format has no empty family), and the
/// `crd_*` families are not recorded yet, so they render nothing. The result is empty when
/// nothing is left — a caller must not `PUT` an empty body, which deletes the group.
///
/// # Example
/// ```
/// # use myops::metrics::{encode, Observation, State, Status};
/// # use myops::config::model::MetricFamily;
/// let mut state = State::default();
/// state.observe("myops", &Observation { verb: "get".into(), resource: "pods".into(), status: Status::Success, duration_seconds: 0.2 });
/// let text = encode(&state, &[MetricFamily::OpsTotal]);
/// assert!(text.contains("ops_total{plugin=\"myops\",resource=\"pods\",status=\"success\",verb=\"get\"} 1\n"));
/// ```
pub fn encode(state: &State, families: &[MetricFamily]) -> String {
    let wanted = |f: MetricFamily| families.contains(&f);
    let mut out = Vec::new();
    if wanted(MetricFamily::OpsTotal) {
        out.extend(counter(
            state,
            MetricFamily::OpsTotal.name(),
            HELP_OPS_TOTAL,
            |_| true,
        ));
    }
    if wanted(MetricFamily::OpsErrorsTotal) {
        let is_error = |k: &OpKey| k.status != Status::Success;
        out.extend(counter(
            state,
            MetricFamily::OpsErrorsTotal.name(),
            HELP_OPS_ERRORS_TOTAL,
            is_error,
        ));
    }
    if wanted(MetricFamily::OpsDurationSeconds) {
        out.extend(histogram(state));
    }
    // The encoder fails only on a family without metrics or without a name, and writing to a
    // String cannot fail; both are excluded above. Were it ever to fail, an empty body means
    // "nothing to push", which `finish` never sends, so no pushed data is destroyed.
    TextEncoder::new()
        .encode_to_string(&out)
        .unwrap_or_default()
}

fn labels(k: &OpKey) -> Vec<proto::LabelPair> {
    [
        ("plugin", k.plugin.as_str()),
        ("resource", k.resource.as_str()),
        ("status", k.status.as_str()),
        ("verb", k.verb.as_str()),
    ]
    .into_iter()
    .map(|(name, value)| {
        let mut pair = proto::LabelPair::default();
        pair.set_name(name.to_string());
        pair.set_value(value.to_string());
        pair
    })
    .collect()
}

fn family(
    name: &str,
    help: &str,
    kind: proto::MetricType,
    metrics: Vec<proto::Metric>,
) -> Option<proto::MetricFamily> {
    if metrics.is_empty() {
        return None;
    }
    let mut mf = proto::MetricFamily::default();
    mf.set_name(name.to_string());
    mf.set_help(help.to_string());
    mf.set_field_type(kind);
    mf.set_metric(metrics);
    Some(mf)
}

fn counter(
    state: &State,
    name: &str,
    help: &str,
    keep: impl Fn(&OpKey) -> bool,
) -> Option<proto::MetricFamily> {
    let metrics = state
        .ops
        .iter()
        .filter(|(k, _)| keep(k))
        .map(|(k, t)| {
            let mut c = proto::Counter::default();
            // u64 → f64 is exact below 2^53 operations.
            c.set_value(t.count as f64);
            let mut m = proto::Metric::default();
            m.set_label(labels(k));
            m.set_counter(c);
            m
        })
        .collect();
    family(name, help, proto::MetricType::COUNTER, metrics)
}

fn histogram(state: &State) -> Option<proto::MetricFamily> {
    let metrics = state
        .ops
        .iter()
        .map(|(k, t)| {
            let buckets = BUCKETS
                .iter()
                .zip(t.buckets.iter())
                .map(|(bound, count)| {
                    let mut b = proto::Bucket::default();
                    b.set_upper_bound(*bound);
                    b.set_cumulative_count(*count);
                    b
                })
                .collect();
            let mut h = proto::Histogram::default();
            h.set_sample_count(t.count);
            h.set_sample_sum(t.sum_seconds);
            h.set_bucket(buckets);
            let mut m = proto::Metric::default();
            m.set_label(labels(k));
            m.set_histogram(h);
            m
        })
        .collect();
    family(
        MetricFamily::OpsDurationSeconds.name(),
        HELP_OPS_DURATION,
        proto::MetricType::HISTOGRAM,
        metrics,
    )
}
