//! Totals → Prometheus text exposition format (version 0.0.4).
//!
//! The `prometheus` crate's live `CounterVec`/`HistogramVec` only count forward from zero in
//! this process; a histogram cannot be set from stored totals. So the families are built as
//! `prometheus::proto::MetricFamily` values straight from the [`State`] and rendered by the
//! crate's `TextEncoder`, which owns the escaping and the `_bucket`/`_sum`/`_count`/`+Inf`
//! layout. Only setters are used on the proto types, so the code compiles with and without
//! the crate's `protobuf` feature.
//!
//! Labels are written in name order (`plugin`, `resource`, `status`, `verb`; `plugin`,
//! `result`), as the crate's own `Registry` does; series are ordered by label values.

use prometheus::TextEncoder;
use prometheus::proto;

use super::Status;
use super::totals::{BUCKETS, OpKey, OpTotals, State};
use crate::config::model::MetricFamily;

const HELP_OPS_TOTAL: &str =
    "Operations run by kubectl-myops, by plugin, verb, resource and outcome status.";
const HELP_OPS_ERRORS_TOTAL: &str = "Operations that did not succeed (status other than success).";
const HELP_OPS_DURATION: &str = "Wall-clock duration of one operation in seconds.";
const HELP_CRD_LOADS_TOTAL: &str = "CRD hot-load attempts by kubectl-myops, by plugin and result.";
const HELP_CRD_LOAD_DURATION: &str = "Wall-clock duration of one CRD hot-load attempt in seconds.";

/// Renders the totals of the requested `families` in the Prometheus text format
/// (`text/plain; version=0.0.4`), with `# HELP` and `# TYPE` lines.
///
/// - `ops_total` (counter): every series.
/// - `ops_errors_total` (counter): series whose `status` is not `success`.
/// - `ops_duration_seconds` (histogram, buckets [`BUCKETS`] seconds): every series.
/// - `crd_loads_total` (counter, labels `plugin`, `result`): every series.
/// - `crd_load_duration_seconds` (histogram, label `plugin`, buckets [`BUCKETS`] seconds):
///   every series.
///
/// Families are emitted in that fixed order whatever the order (or repetition) in `families`.
/// A family without series is left out (the text format has no empty family). The result is
/// empty when nothing is left — a caller must not `PUT` an empty body, which deletes the
/// group.
///
/// # Example
/// ```
/// # use myops::metrics::{encode, Observation, State, Status};
/// # use myops::config::model::MetricFamily;
/// let mut state = State::default();
/// state.observe("myops", &Observation { verb: "get".into(), resource: "pods".into(), status: Status::Success, duration_seconds: 0.2, client: "cli" });
/// let text = encode(&state, &[MetricFamily::OpsTotal]);
/// assert!(text.contains("ops_total{plugin=\"myops\",resource=\"pods\",status=\"success\",verb=\"get\"} 1\n"));
/// ```
pub fn encode(state: &State, families: &[MetricFamily]) -> String {
    let wanted = |f: MetricFamily| families.contains(&f);
    let mut out = Vec::new();
    if wanted(MetricFamily::OpsTotal) {
        let series = state.ops.iter().map(|(k, t)| (op_labels(k), t.count));
        out.extend(counter(
            MetricFamily::OpsTotal.name(),
            HELP_OPS_TOTAL,
            series,
        ));
    }
    if wanted(MetricFamily::OpsErrorsTotal) {
        let series = state
            .ops
            .iter()
            .filter(|(k, _)| k.status != Status::Success)
            .map(|(k, t)| (op_labels(k), t.count));
        out.extend(counter(
            MetricFamily::OpsErrorsTotal.name(),
            HELP_OPS_ERRORS_TOTAL,
            series,
        ));
    }
    if wanted(MetricFamily::OpsDurationSeconds) {
        let series = state.ops.iter().map(|(k, t)| (op_labels(k), t));
        out.extend(histogram(
            MetricFamily::OpsDurationSeconds.name(),
            HELP_OPS_DURATION,
            series,
        ));
    }
    if wanted(MetricFamily::CrdLoadsTotal) {
        let series = state.crd_loads.iter().map(|(k, count)| {
            let labels = labels(&[("plugin", &k.plugin), ("result", k.result.as_str())]);
            (labels, *count)
        });
        out.extend(counter(
            MetricFamily::CrdLoadsTotal.name(),
            HELP_CRD_LOADS_TOTAL,
            series,
        ));
    }
    if wanted(MetricFamily::CrdLoadDurationSeconds) {
        let series = state
            .crd_load_durations
            .iter()
            .map(|(plugin, t)| (labels(&[("plugin", plugin)]), t));
        out.extend(histogram(
            MetricFamily::CrdLoadDurationSeconds.name(),
            HELP_CRD_LOAD_DURATION,
            series,
        ));
    }
    // The encoder fails only on a family without metrics or without a name, and writing to a
    // String cannot fail; both are excluded above. Were it ever to fail, an empty body means
    // "nothing to push", which `finish` never sends, so no pushed data is destroyed.
    TextEncoder::new()
        .encode_to_string(&out)
        .unwrap_or_default()
}

/// The label pairs of an `ops_*` series, in name order.
fn op_labels(k: &OpKey) -> Vec<proto::LabelPair> {
    labels(&[
        ("client", &k.client),
        ("plugin", &k.plugin),
        ("resource", &k.resource),
        ("status", k.status.as_str()),
        ("verb", &k.verb),
    ])
}

/// Label pairs in the given order (callers pass them in name order).
fn labels(pairs: &[(&str, &str)]) -> Vec<proto::LabelPair> {
    pairs
        .iter()
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

/// A counter family from `(labels, count)` series; `None` without series.
fn counter(
    name: &str,
    help: &str,
    series: impl Iterator<Item = (Vec<proto::LabelPair>, u64)>,
) -> Option<proto::MetricFamily> {
    let metrics = series
        .map(|(labels, count)| {
            let mut c = proto::Counter::default();
            // u64 → f64 is exact below 2^53 events.
            c.set_value(count as f64);
            let mut m = proto::Metric::default();
            m.set_label(labels);
            m.set_counter(c);
            m
        })
        .collect();
    family(name, help, proto::MetricType::COUNTER, metrics)
}

/// A histogram family (buckets [`BUCKETS`]) from `(labels, totals)` series; `None` without
/// series.
fn histogram<'a>(
    name: &str,
    help: &str,
    series: impl Iterator<Item = (Vec<proto::LabelPair>, &'a OpTotals)>,
) -> Option<proto::MetricFamily> {
    let metrics = series
        .map(|(labels, t)| {
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
            m.set_label(labels);
            m.set_histogram(h);
            m
        })
        .collect();
    family(name, help, proto::MetricType::HISTOGRAM, metrics)
}
