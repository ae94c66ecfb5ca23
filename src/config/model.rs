//! The plugin.yaml model: the plugin's declared boundary (ARCHITECTURE §3).
//!
//! Parsing is strict: every struct denies unknown fields so a typo is an error with a
//! location, never a silently ignored setting.

use std::path::PathBuf;
use std::time::Duration;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

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
}

/// A verb of this plugin (the commands that touch cluster objects).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Verb {
    /// Read objects (`get` or `list` in RBAC terms).
    Get,
    /// Change objects (`patch` in RBAC terms).
    Patch,
}

impl Verb {
    /// The verb as written in plugin.yaml and on metrics.
    pub fn as_str(self) -> &'static str {
        match self {
            Verb::Get => "get",
            Verb::Patch => "patch",
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

/// The metric families this plugin knows (ARCHITECTURE §6).
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
                    format!("duration {text:?} is too large: use at most a few seconds, e.g. 1s")
                })
            }
            _ => Err(format!(
                "invalid duration {text:?}: use a number with ms, s, m or h, e.g. 1s or 500ms"
            )),
        }
    }

    /// serde deserializer for a duration string.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        let s = String::deserialize(d)?;
        parse(&s).map_err(D::Error::custom)
    }

    /// serde serializer writing milliseconds, e.g. `1000ms`.
    pub fn serialize<S: Serializer>(v: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{}ms", v.as_millis()))
    }
}
