//! The plugin.yaml model: the plugin's declared boundary (docs/configuration.md).
//!
//! Parsing is strict: every struct denies unknown fields so a typo is an error with a
//! location, never a silently ignored setting.

use std::path::PathBuf;
use std::time::Duration;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub use super::options::{ApplyConfig, McpConfig};

/// The parsed plugin.yaml.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PluginConfig {
    /// Plugin name; the value of the `plugin` label on every metric.
    pub name: String,
    /// Verbs this plugin may run at all.
    pub verbs: Vec<Verb>,
    /// Resource types it may touch, as `plural` (core and well-known groups) or
    /// `plural.group`. CRDs registered from the CRD directory are added at run time.
    pub resources: Vec<String>,
    /// `namespace` allows namespaced types in one namespace; `cluster` allows
    /// cluster-scoped types and `-A`.
    pub scopes: Vec<Scope>,
    /// Metric families pushed to the Pushgateway; an unknown name is a config error.
    #[serde(default)]
    pub metrics: Vec<MetricFamily>,
    /// Directory watched for CRD files (`~` is expanded); default `~/.kube/plugins/crds`.
    #[serde(default)]
    pub crd_dir: Option<PathBuf>,
    /// Where metrics are pushed; absent = metrics are recorded locally only.
    #[serde(default)]
    pub pushgateway: Option<PushgatewayConfig>,
    /// When the change log is rotated; absent = the defaults (10 MiB, 90 days).
    #[serde(default)]
    pub changelog: ChangelogConfig,
    /// Field-path policies: fields a `patch` or `rollback` may not change, judged on the
    /// object as the server would store it, and objects that may not be deleted
    /// (`delete: deny`) (docs/policies.md); absent = none.
    #[serde(default)]
    pub policies: Vec<PolicyRule>,
    /// What `apply` may do beyond a plain server-side apply; absent = nothing more.
    #[serde(default, skip_serializing_if = "ApplyConfig::is_default")]
    pub apply: ApplyConfig,
    /// Protected contexts and namespaces: where a change needs a deliberate yes
    /// (docs/protection.md); absent = none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub protect: Vec<ProtectRule>,
    /// Whether a `--reason` is also written as the `kubernetes.io/change-cause` annotation of
    /// the workloads a change patches (docs/protection.md); default false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub change_cause: bool,
    /// What `kubectl myops mcp` may show an agent (docs/agents.md); absent = the defaults.
    #[serde(default, skip_serializing_if = "McpConfig::is_default")]
    pub mcp: McpConfig,
}

/// One `protect:` rule of plugin.yaml; the type lives with its matching rules.
pub use crate::rules::protect::ProtectRule;

/// One field-path policy rule (docs/policies.md); the type lives with its matching rules.
pub use crate::rules::policy::PolicyRule;

/// Change-log retention (docs/changelog.md): `changelog.jsonl` is rotated to
/// `changelog.jsonl.1` (five rotated files are kept) before an append that would make it
/// larger than `maxSize`, or once its first record is older than `maxAge`.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ChangelogConfig {
    /// Largest size of the active log file: `10MiB` (default), `512KiB`, `1GiB` or a number
    /// of bytes; more than 0.
    #[serde(default = "default_max_size", with = "byte_size")]
    #[schemars(with = "String")]
    pub max_size: u64,
    /// Oldest first record of the active log file: `90d` (default), `12h`, `30m`; more than 0.
    #[serde(default = "default_max_age", with = "age_string")]
    #[schemars(with = "String")]
    pub max_age: Duration,
    /// Largest serialized size of the objects a namespace or CRD delete journals first (its
    /// snapshots, so that undelete can create them again): `64MiB` (default), same syntax as
    /// `maxSize`; above it the delete is refused unless `--unrecoverable` is given.
    #[serde(default = "default_snapshot_limit", with = "byte_size")]
    #[schemars(with = "String")]
    pub snapshot_limit: u64,
    /// The cluster mirror of the change log (docs/team.md): every complete record is also
    /// written as a `ChangeRecord` in this namespace of the cluster it changed. Absent: no
    /// mirror.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mirror: Option<MirrorConfig>,
    /// Whether each change the server made through this tool is also an events.k8s.io/v1
    /// Event regarding the object (`kubectl events`, `kubectl describe` show it; reason
    /// `MyopsPatched`, `MyopsDeleted`, …): `false` (default) or `true`. An Event the caller may
    /// not create is a warning, never a failed command (docs/changelog.md).
    #[serde(default)]
    pub events: bool,
    /// Whether `crds watch` also writes every complete record to stdout as one JSON line
    /// (the sealed line, for the cluster's log pipeline; docs/team.md). Absent: on when its
    /// client came from the pod's service account (in-cluster), off otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stdout: Option<bool>,
}

/// plugin.yaml `changelog.mirror` (docs/team.md).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct MirrorConfig {
    /// The namespace that holds the `ChangeRecord`s (a DNS label, RFC 1123); the CRD and
    /// RBAC of `deploy/changelog/` must be installed.
    pub namespace: String,
}

impl Default for ChangelogConfig {
    fn default() -> ChangelogConfig {
        ChangelogConfig {
            max_size: default_max_size(),
            max_age: default_max_age(),
            snapshot_limit: default_snapshot_limit(),
            mirror: None,
            events: false,
            stdout: None,
        }
    }
}

fn default_snapshot_limit() -> u64 {
    64 * 1024 * 1024
}

fn default_max_size() -> u64 {
    10 * 1024 * 1024
}

fn default_max_age() -> Duration {
    Duration::from_secs(90 * 24 * 3600)
}

/// Sizes as `10MiB`, `512KiB`, `1GiB` or a plain number of bytes (binary units, as
/// Kubernetes quantities `Ki`/`Mi`/`Gi`, which are accepted too).
pub mod byte_size {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    /// Parses a size into bytes.
    ///
    /// # Errors
    /// A message naming the accepted forms when the text is not such a size, is 0, or does
    /// not fit in 64 bits.
    pub fn parse(text: &str) -> Result<u64, String> {
        let t = text.trim();
        let bad = || {
            format!(
                "invalid size {}: use a whole number of bytes more than 0 or one with KiB, MiB or GiB, e.g. 10MiB",
                crate::base::echo::quoted(text)
            )
        };
        let (num, mult) = [
            ("KiB", 1u64 << 10),
            ("MiB", 1 << 20),
            ("GiB", 1 << 30),
            ("Ki", 1 << 10),
            ("Mi", 1 << 20),
            ("Gi", 1 << 30),
        ]
        .iter()
        .find_map(|(unit, m)| t.strip_suffix(unit).map(|n| (n, *m)))
        .unwrap_or((t, 1));
        let n: u64 = num.trim().parse().map_err(|_| bad())?;
        n.checked_mul(mult).filter(|b| *b > 0).ok_or_else(bad)
    }

    /// serde deserializer for a size (a string or a number).
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        let s = String::deserialize(d)?;
        parse(&s).map_err(D::Error::custom)
    }

    /// A size in the largest binary unit that divides it: `10MiB`, `512KiB`, `1000`.
    pub fn format(bytes: u64) -> String {
        for (unit, m) in [("GiB", 1u64 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)] {
            if bytes >= m && bytes.is_multiple_of(m) {
                return format!("{}{unit}", bytes / m);
            }
        }
        bytes.to_string()
    }

    /// serde serializer writing [`format`].
    pub fn serialize<S: Serializer>(v: &u64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format(*v))
    }
}

/// Ages as `90d`, `12h`, `30m`, `45s` (days added to [`duration_string`]'s forms).
pub mod age_string {
    use std::time::Duration;

    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    /// Parses an age.
    ///
    /// # Errors
    /// A message naming the accepted forms when the text is not such a duration, is 0, or
    /// is a bare number (no unit).
    pub fn parse(text: &str) -> Result<Duration, String> {
        let bad = || {
            format!(
                "invalid age {}: use a duration more than 0 with d, h, m or s, e.g. 90d",
                crate::base::echo::quoted(text)
            )
        };
        let t = text.trim();
        // A bare number would be seconds (duration_string's rule for timeouts), and `maxAge:
        // 90` beside a documented default of `90d` reads as days: ask for the unit instead.
        if t.ends_with(|c: char| c.is_ascii_digit()) {
            return Err(format!(
                "age {} has no unit: write it with d, h, m or s, e.g. {t}d for {t} days",
                crate::base::echo::quoted(text)
            ));
        }
        let d = match t.strip_suffix('d') {
            Some(days) => days
                .trim()
                .parse::<u64>()
                .ok()
                .and_then(|n| n.checked_mul(24 * 3600))
                .map(Duration::from_secs)
                .ok_or_else(bad)?,
            None => super::duration_string::parse(t).map_err(|_| bad())?,
        };
        if d.is_zero() {
            return Err(bad());
        }
        Ok(d)
    }

    /// serde deserializer for an age.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        let s = String::deserialize(d)?;
        parse(&s).map_err(D::Error::custom)
    }

    /// An age in the largest unit that divides it: `90d`, `12h`, `30m`, `45s`, `1500ms`.
    pub fn format(d: Duration) -> String {
        let ms = d.as_millis();
        for (unit, m) in [
            ("d", 86_400_000u128),
            ("h", 3_600_000),
            ("m", 60_000),
            ("s", 1000),
        ] {
            if ms >= m && ms.is_multiple_of(m) {
                return format!("{}{unit}", ms / m);
            }
        }
        format!("{ms}ms")
    }

    /// serde serializer writing [`format`].
    pub fn serialize<S: Serializer>(v: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format(*v))
    }
}

/// A verb of this plugin (the commands that touch cluster objects).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Verb {
    /// Read objects (`get` or `list` in RBAC terms).
    Get,
    /// Change objects (`patch` in RBAC terms; `rollback`, `crds sync|watch` too).
    Patch,
    /// Delete objects (`delete` in RBAC terms), and create them again from the change log
    /// (`undelete`, `rollback` of a delete).
    Delete,
    /// Server-side apply of manifests (`create` and `patch` in RBAC terms).
    Apply,
    /// Set the replicas of an object through its `scale` subresource (`patch` on `scale`).
    Scale,
    /// Add, change or remove labels (`patch`).
    Label,
    /// Add, change or remove annotations (`patch`).
    Annotate,
    /// Edit an object in an editor and send the difference (`patch`).
    Edit,
    /// `rollout restart|undo` (`patch`); `rollout history|status` only read.
    Rollout,
}

impl Verb {
    /// The verb as written in plugin.yaml and on metrics.
    pub fn as_str(self) -> &'static str {
        match self {
            Verb::Get => "get",
            Verb::Patch => "patch",
            Verb::Delete => "delete",
            Verb::Apply => "apply",
            Verb::Scale => "scale",
            Verb::Label => "label",
            Verb::Annotate => "annotate",
            Verb::Edit => "edit",
            Verb::Rollout => "rollout",
        }
    }
}

/// A scope a plugin may act in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    /// Namespaced resources, one namespace at a time.
    Namespace,
    /// Cluster-scoped resources and `--all-namespaces`.
    Cluster,
}

/// The metric families this plugin knows (docs/design.md, "Metrics").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MetricFamily {
    /// Counter `ops_total{plugin,verb,resource,status}`.
    OpsTotal,
    /// Counter `ops_errors_total{plugin,verb,resource,status}` (status != success).
    OpsErrorsTotal,
    /// Histogram `ops_duration_seconds{plugin,verb,resource,status}`.
    OpsDurationSeconds,
    /// Counter `crd_loads_total{plugin,result}`.
    CrdLoadsTotal,
    /// Histogram `crd_load_duration_seconds{plugin}`.
    CrdLoadDurationSeconds,
}

impl MetricFamily {
    /// The Prometheus family name.
    pub fn name(self) -> &'static str {
        match self {
            MetricFamily::OpsTotal => "ops_total",
            MetricFamily::OpsErrorsTotal => "ops_errors_total",
            MetricFamily::OpsDurationSeconds => "ops_duration_seconds",
            MetricFamily::CrdLoadsTotal => "crd_loads_total",
            MetricFamily::CrdLoadDurationSeconds => "crd_load_duration_seconds",
        }
    }
}

/// The Pushgateway target.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PushgatewayConfig {
    /// Base URL, e.g. `http://127.0.0.1:9091`.
    pub url: String,
    /// The `job` grouping label; default `kubectl-myops`.
    #[serde(default = "default_job")]
    pub job: String,
    /// The `instance` grouping label; default: the host name.
    #[serde(default)]
    pub instance: Option<String>,
    /// Connect + request timeout, as a duration string (`1s`, `500ms`); default 1 s.
    #[serde(default = "default_timeout", with = "duration_string")]
    #[schemars(with = "String")]
    pub timeout: Duration,
    /// HTTP basic auth; the password is read from a file, never written inline.
    #[serde(default)]
    pub basic_auth: Option<BasicAuth>,
    /// File whose content (trailing newline trimmed) is a bearer token for the gateway
    /// (`$MYOPS_PUSHGATEWAY_TOKEN` is used when this is not set).
    #[serde(default)]
    pub bearer_token_file: Option<PathBuf>,
    /// PEM file of the CA that signed an `https://` gateway's certificate.
    #[serde(default)]
    pub ca_file: Option<PathBuf>,
}

/// Basic-auth credentials for the Pushgateway.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct BasicAuth {
    /// User name.
    pub username: String,
    /// File whose content (trailing newline trimmed) is the password.
    pub password_file: PathBuf,
}

fn default_job() -> String {
    "kubectl-myops".to_string()
}

fn default_timeout() -> Duration {
    Duration::from_secs(1)
}

/// Parses and prints durations as `1s`, `500ms`, `2m`, `1.5s` (the kubectl `--request-timeout` style).
pub mod duration_string {
    use std::time::Duration;

    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    /// Parses `N[ms|s|m|h]` (a bare number is seconds) into a [`Duration`].
    ///
    /// # Errors
    /// A message naming the accepted forms when the text is not such a duration.
    pub fn parse(text: &str) -> Result<Duration, String> {
        let t = text.trim();
        let (num, mult) = if let Some(n) = t.strip_suffix("ms") {
            (n, 0.001)
        } else if let Some(n) = t.strip_suffix('s') {
            (n, 1.0)
        } else if let Some(n) = t.strip_suffix('m') {
            (n, 60.0)
        } else if let Some(n) = t.strip_suffix('h') {
            (n, 3600.0)
        } else {
            (t, 1.0)
        };
        // try_from_secs_f64, not from_secs_f64: the latter panics on values too large for a
        // Duration (e.g. `1e300h`), and parsing user input must never panic.
        match num.trim().parse::<f64>() {
            Ok(v) if v.is_finite() && v >= 0.0 => {
                Duration::try_from_secs_f64(v * mult).map_err(|_| {
                    format!(
                        "duration {} is too large: use at most a few seconds, e.g. 1s",
                        crate::base::echo::quoted(text)
                    )
                })
            }
            _ => Err(format!(
                "invalid duration {}: use a number with ms, s, m or h, e.g. 1s or 500ms",
                crate::base::echo::quoted(text)
            )),
        }
    }

    /// Parses a `--request-timeout` value as client-go does (`k8s.io/client-go/rest`
    /// `RESTClientFor` via `clientcmd`: a plain integer is seconds, anything else Go's
    /// `time.ParseDuration`): `30`, `5s`, `1m30s`, `1.5h`, `250ms`, `10us`. `0` means no
    /// limit of our own (the caller applies its defaults).
    ///
    /// # Errors
    /// A message naming the accepted forms for anything else (a negative value, an unknown
    /// unit, a value too large for a duration).
    pub fn parse_go(text: &str) -> Result<Duration, String> {
        let bad = || {
            format!(
                "invalid duration {}: use seconds (e.g. 30) or a Go duration such as 5s or 1m30s",
                crate::base::echo::quoted(text)
            )
        };
        let t = text.trim();
        if let Ok(secs) = t.parse::<u64>() {
            return Ok(Duration::from_secs(secs));
        }
        if t.is_empty() || t.starts_with('-') {
            return Err(bad());
        }
        let t = t.strip_prefix('+').unwrap_or(t);
        if t == "0" {
            return Ok(Duration::ZERO);
        }
        let mut total = 0f64;
        let mut rest = t;
        while !rest.is_empty() {
            let num_len = rest
                .find(|c: char| !(c.is_ascii_digit() || c == '.'))
                .ok_or_else(bad)?;
            let (num, after) = rest.split_at(num_len);
            let value: f64 = num.parse().map_err(|_| bad())?;
            let unit_len = after
                .find(|c: char| c.is_ascii_digit() || c == '.')
                .unwrap_or(after.len());
            let (unit, next) = after.split_at(unit_len);
            let scale = match unit {
                "ns" => 1e-9,
                "us" | "µs" | "μs" => 1e-6,
                "ms" => 1e-3,
                "s" => 1.0,
                "m" => 60.0,
                "h" => 3600.0,
                _ => return Err(bad()),
            };
            total += value * scale;
            rest = next;
        }
        Duration::try_from_secs_f64(total).map_err(|_| bad())
    }

    /// serde deserializer for a duration string.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        let s = String::deserialize(d)?;
        parse(&s).map_err(D::Error::custom)
    }

    /// Formats a duration as Go's `time.Duration.String` does for the values users give:
    /// `500ms`, `2s`, `1.5s`, `1m30s`, `1h0m0s` (messages quote `--request-timeout` back in
    /// the syntax it was written in).
    pub fn format(d: Duration) -> String {
        let ms = d.as_millis();
        if ms < 1000 {
            return format!("{ms}ms");
        }
        let secs = d.as_secs();
        let frac = d.subsec_millis();
        let s = if frac == 0 {
            format!("{}s", secs % 60)
        } else {
            let t = format!("{}.{frac:03}", secs % 60);
            format!("{}s", t.trim_end_matches('0'))
        };
        match (secs / 3600, (secs % 3600) / 60) {
            (0, 0) => s,
            (0, m) => format!("{m}m{s}"),
            (h, m) => format!("{h}h{m}m{s}"),
        }
    }

    /// serde serializer writing milliseconds, e.g. `1000ms`.
    pub fn serialize<S: Serializer>(v: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{}ms", v.as_millis()))
    }
}

#[cfg(test)]
mod tests {
    use super::duration_string::{format, parse_go};
    use std::time::Duration;

    #[test]
    fn request_timeout_takes_seconds_or_go_durations_like_client_go() {
        assert_eq!(parse_go("30"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_go("0"), Ok(Duration::ZERO));
        assert_eq!(parse_go("5s"), Ok(Duration::from_secs(5)));
        assert_eq!(parse_go("1m30s"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_go("1.5h"), Ok(Duration::from_secs(5400)));
        assert_eq!(parse_go("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_go("1h2m3s4ms"), Ok(Duration::from_millis(3_723_004)));
        for bad in [
            "",
            "-1s",
            "5x",
            "s",
            "1e3s",
            "1..5s",
            "9999999999999999999999h",
        ] {
            assert!(parse_go(bad).is_err(), "{bad:?} must be refused");
        }
    }

    #[test]
    fn changelog_sizes_and_ages_parse_with_units_and_refuse_zero() {
        use super::{age_string, byte_size};
        assert_eq!(byte_size::parse("10MiB"), Ok(10 << 20));
        assert_eq!(byte_size::parse("512KiB"), Ok(512 << 10));
        assert_eq!(byte_size::parse("2Gi"), Ok(2 << 30));
        assert_eq!(byte_size::parse("4096"), Ok(4096));
        for bad in ["0", "0MiB", "-1", "1.5MiB", "10MB", "", "99999999999999GiB"] {
            assert!(byte_size::parse(bad).is_err(), "{bad:?} must be refused");
        }
        assert_eq!(
            age_string::parse("90d"),
            Ok(Duration::from_secs(90 * 86400))
        );
        assert_eq!(age_string::parse("12h"), Ok(Duration::from_secs(12 * 3600)));
        assert_eq!(age_string::parse("30m"), Ok(Duration::from_secs(1800)));
        for bad in ["0d", "0s", "d", "1y", "-1d", "90", "1.5"] {
            assert!(age_string::parse(bad).is_err(), "{bad:?} must be refused");
        }
        assert_eq!(byte_size::format(10 << 20), "10MiB");
        assert_eq!(byte_size::format(1000), "1000");
        assert_eq!(age_string::format(Duration::from_secs(90 * 86400)), "90d");
        assert_eq!(age_string::format(Duration::from_secs(90)), "90s");
    }

    #[test]
    fn durations_print_as_go_does() {
        assert_eq!(format(Duration::from_millis(500)), "500ms");
        assert_eq!(format(Duration::from_secs(2)), "2s");
        assert_eq!(format(Duration::from_millis(1500)), "1.5s");
        assert_eq!(format(Duration::from_secs(90)), "1m30s");
        assert_eq!(format(Duration::from_secs(32)), "32s");
        assert_eq!(format(Duration::from_secs(3600)), "1h0m0s");
    }
}
