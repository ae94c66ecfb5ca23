//! The URL of a group on the Pushgateway: the grouping key in the gateway's path form, the
//! `state_id` pair of one state directory, and origin comparison for credentials.
//!
//! Pushgateway API reference: <https://github.com/prometheus/pushgateway/blob/master/README.md#api>.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

/// The push URL of a group: `<base>/metrics/job/<job>/instance/<instance>`.
///
/// Trailing `/` of `base` are dropped. A grouping value that is empty or contains anything
/// other than ASCII letters, digits, `-`, `.`, `_` and `~` (in particular `/`, which the
/// gateway would read as a path separator) is written in the gateway's base64 form:
/// the label name gets the suffix `@base64` and the value is RFC 4648 URL-safe base64 without
/// padding; the empty value is written as `=` ("a single `=` is required to encode an empty
/// label value"). Rule source: the Pushgateway README, section "URL",
/// <https://github.com/prometheus/pushgateway/blob/master/README.md#url>. (An empty `job` is
/// still rejected by the gateway; plugin.yaml defaults it to `kubectl-myops`.)
///
/// # Example
/// ```
/// # use myops::metrics::push_url;
/// assert_eq!(
///     push_url("http://127.0.0.1:9091/", "kubectl-myops", "node-1"),
///     "http://127.0.0.1:9091/metrics/job/kubectl-myops/instance/node-1"
/// );
/// assert_eq!(
///     push_url("http://gw:9091", "batch/nightly", ""),
///     "http://gw:9091/metrics/job@base64/YmF0Y2gvbmlnaHRseQ/instance@base64/="
/// );
/// ```
pub fn push_url(base: &str, job: &str, instance: &str) -> String {
    format!(
        "{}/metrics/{}/{}",
        base.trim_end_matches('/'),
        grouping("job", job),
        grouping("instance", instance)
    )
}

/// The grouping label that makes each MYOPS_HOME's group its own: `state_id`.
///
/// Two users (or two MYOPS_HOMEs) on one host share `job` and `instance`; without a third
/// grouping label each push would replace the other's totals. Aggregate it away
/// like `instance`: `sum without (instance, state_id) (ops_total)`.
pub const STATE_ID_LABEL: &str = "state_id";

/// The URL of the group of one state directory: `group_url` (as built by [`push_url`]) with
/// the grouping pair `/state_id/<id>` appended, in the gateway's `@base64` form when `id`
/// needs it (same rule as [`push_url`]).
///
/// # Example
/// ```
/// # use myops::metrics::{push_url, state_group_url};
/// assert_eq!(
///     state_group_url(&push_url("http://gw:9091", "kubectl-myops", "node-1"), "3f9c2a71b0de"),
///     "http://gw:9091/metrics/job/kubectl-myops/instance/node-1/state_id/3f9c2a71b0de"
/// );
/// ```
pub fn state_group_url(group_url: &str, id: &str) -> String {
    format!("{group_url}/{}", grouping(STATE_ID_LABEL, id))
}

/// One `name/value` path pair of the grouping key.
fn grouping(name: &str, value: &str) -> String {
    let plain = !value.is_empty()
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~".contains(&b));
    if plain {
        format!("{name}/{value}")
    } else if value.is_empty() {
        format!("{name}@base64/=")
    } else {
        format!("{name}@base64/{}", URL_SAFE_NO_PAD.encode(value))
    }
}

/// Whether two URLs name the same origin: scheme and host:port equal, ignoring case and any
/// `user:password@` (RFC 6454 §4 with the port as written). Credentials for one gateway are
/// only ever sent to the same origin: an old group on another gateway is deleted without them.
pub fn same_origin(a: &str, b: &str) -> bool {
    fn origin(url: &str) -> Option<(String, String)> {
        let (scheme, rest) = url.split_once("://")?;
        let authority = rest.split(['/', '?', '#']).next()?;
        let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
        Some((scheme.to_ascii_lowercase(), host.to_ascii_lowercase()))
    }
    matches!((origin(a), origin(b)), (Some(x), Some(y)) if x == y)
}

/// The URL with any `user:password@` removed, for messages
/// ([`crate::base::redact::url_without_userinfo`]).
pub fn redact_url(url: &str) -> String {
    crate::base::redact::url_without_userinfo(url)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_values_stay_readable() {
        assert_eq!(
            push_url(
                "http://127.0.0.1:9091",
                "kubectl-myops",
                "node-1.example.com"
            ),
            "http://127.0.0.1:9091/metrics/job/kubectl-myops/instance/node-1.example.com"
        );
    }

    #[test]
    fn trailing_slashes_of_the_base_are_dropped() {
        assert_eq!(
            push_url("http://gw:9091//", "j", "i"),
            "http://gw:9091/metrics/job/j/instance/i"
        );
        assert_eq!(
            push_url("https://gw/prefix/", "j", "i"),
            "https://gw/prefix/metrics/job/j/instance/i"
        );
    }

    #[test]
    fn a_slash_uses_base64_like_the_readme_example() {
        // README: path="/var/tmp" → path@base64/L3Zhci90bXA
        assert_eq!(grouping("path", "/var/tmp"), "path@base64/L3Zhci90bXA");
        assert_eq!(
            push_url("http://gw:9091", "a/b", "i"),
            "http://gw:9091/metrics/job@base64/YS9i/instance/i"
        );
    }

    #[test]
    fn an_empty_value_is_a_single_equals_sign() {
        assert_eq!(
            push_url("http://gw:9091", "j", ""),
            "http://gw:9091/metrics/job/j/instance@base64/="
        );
    }

    #[test]
    fn other_special_characters_use_url_safe_base64() {
        // README: name="Προμηθεύς" → name@base64/zqDPgc6_zrzOt864zrXPjc-C (URL-safe alphabet).
        assert_eq!(
            grouping("name", "Προμηθεύς"),
            "name@base64/zqDPgc6_zrzOt864zrXPjc-C"
        );
        assert_eq!(
            grouping("instance", "my host?"),
            "instance@base64/bXkgaG9zdD8"
        );
    }

    #[test]
    fn the_state_id_is_a_third_grouping_pair_in_base64_when_needed() {
        let group = push_url("http://gw:9091", "j", "i");
        assert_eq!(
            state_group_url(&group, "3f9c2a71b0de"),
            "http://gw:9091/metrics/job/j/instance/i/state_id/3f9c2a71b0de"
        );
        assert_eq!(
            state_group_url(&group, "a/b"),
            "http://gw:9091/metrics/job/j/instance/i/state_id@base64/YS9i"
        );
    }

    #[test]
    fn same_origin_compares_scheme_host_and_port_only() {
        assert!(same_origin(
            "http://GW:9091/metrics/job/a",
            "http://me:pw@gw:9091/metrics/job/b/instance/c"
        ));
        assert!(!same_origin("http://gw:9091/m", "https://gw:9091/m"));
        assert!(!same_origin("http://gw:9091/m", "http://gw:9092/m"));
        assert!(!same_origin("http://gw/m", "http://gw.evil/m"));
        assert!(!same_origin("gw:9091", "gw:9091"));
    }
}
