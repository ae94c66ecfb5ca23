//! Protected contexts and namespaces (pure): which changes need a deliberate yes, declared in
//! plugin.yaml `protect:` (docs/protection.md) and judged here.
//!
//! A rule names where it holds — `contexts` (globs over kubeconfig context names) and/or
//! `servers` (globs over API server URLs, so a renamed context stays protected), optionally
//! `namespaces` (absent = every namespace and cluster-scoped objects) and `verbs` (absent =
//! every mutating verb) — and what it asks: `confirm` (a `y`), `type-name` (the context's
//! name typed back) or `block` (refused whatever the flags). Globs are the policies' globs
//! ([`crate::rules::policy::glob_match`]): `*` matches any run of characters and every other
//! character is itself, so a context named `gke_[prod]?` is matched by exactly that text.
//!
//! Overlapping rules: the strictest wins — `block` over `type-name` over `confirm`; a reason
//! is required when any matching rule requires one; the longest lift allowed is the shortest
//! `maxLift` of the matching rules ([`protection`]).
//!
//! A Namespace object is judged as being in itself: a rule over `namespaces: [prod]` protects
//! `delete namespace prod`, which would otherwise, as a cluster-scoped object, escape it. A
//! CustomResourceDefinition is judged in every namespace: deleting it deletes its custom
//! resources wherever they are. A change is judged by its verb and by what its request does
//! ([`Scope::effect`]): a rollback that deletes is a delete to a rule over `delete`.

use std::time::Duration;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::rules::policy::glob_match;

/// What a protected scope asks before a change, weakest first (the order is the strictness
/// [`protection`] takes the maximum of).
#[derive(
    Debug,
    Clone,
    Copy,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Deserialize,
    Serialize,
    JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum ProtectMode {
    /// A `y` on the terminal (headless: `--yes`).
    #[default]
    Confirm,
    /// The context's name typed on the terminal (headless: `--confirm-context NAME`).
    TypeName,
    /// Refused, exit 3, whatever the flags; a lift cannot lift it.
    Block,
}

impl ProtectMode {
    /// The mode as plugin.yaml writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            ProtectMode::Confirm => "confirm",
            ProtectMode::TypeName => "type-name",
            ProtectMode::Block => "block",
        }
    }
}

/// A mutating verb a rule may name in `verbs` (the change log's operation names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ProtectVerb {
    /// `patch`.
    Patch,
    /// `rollback`.
    Rollback,
    /// `delete`.
    Delete,
    /// `undelete`.
    Undelete,
    /// `apply`.
    Apply,
    /// `scale`.
    Scale,
    /// `label`.
    Label,
    /// `annotate`.
    Annotate,
    /// `edit`.
    Edit,
    /// `rollout restart|undo|pause|resume`.
    Rollout,
    /// A CRD applied by `crds sync|watch`.
    CrdApply,
    /// A CRD pruned by `crds watch --prune`.
    CrdPrune,
}

impl ProtectVerb {
    /// The verb as plugin.yaml writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            ProtectVerb::Patch => "patch",
            ProtectVerb::Rollback => "rollback",
            ProtectVerb::Delete => "delete",
            ProtectVerb::Undelete => "undelete",
            ProtectVerb::Apply => "apply",
            ProtectVerb::Scale => "scale",
            ProtectVerb::Label => "label",
            ProtectVerb::Annotate => "annotate",
            ProtectVerb::Edit => "edit",
            ProtectVerb::Rollout => "rollout",
            ProtectVerb::CrdApply => "crd-apply",
            ProtectVerb::CrdPrune => "crd-prune",
        }
    }
}

/// The longest lift a rule allows when it sets no `maxLift`: one hour.
pub const DEFAULT_MAX_LIFT: Duration = Duration::from_secs(3600);

fn default_max_lift() -> Duration {
    DEFAULT_MAX_LIFT
}

/// One `protect:` rule of plugin.yaml (docs/protection.md).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ProtectRule {
    /// Globs over kubeconfig context names.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(inner(length(min = 1)))]
    pub contexts: Vec<String>,
    /// Globs over API server URLs (`https://prod.example.com:6443`, `https://*.prod.example.com*`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub servers: Vec<String>,
    /// Globs over namespaces; absent = every namespace and cluster-scoped objects.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1), inner(length(min = 1)))]
    pub namespaces: Option<Vec<String>>,
    /// The verbs it protects; absent = every mutating verb.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1))]
    pub verbs: Option<Vec<ProtectVerb>>,
    /// What it asks; default `confirm`.
    #[serde(default)]
    pub mode: ProtectMode,
    /// Whether a change needs `--reason`.
    #[serde(default)]
    pub require_reason: bool,
    /// Shown with every question and refusal (why the scope is protected).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1))]
    pub message: Option<String>,
    /// The longest `protect lift` allowed in its scope: `1h` (default), `15m`, `2h`; more
    /// than 0.
    #[serde(
        default = "default_max_lift",
        with = "crate::rules::protect::duration_text"
    )]
    #[schemars(with = "String", regex(pattern = r"^([0-9]+[hms])+$"))]
    pub max_lift: Duration,
}

/// Where one change is made: what [`protection`] judges.
#[derive(Debug, Clone, Copy)]
pub struct Scope<'a> {
    /// The kubeconfig context, if any (an in-cluster configuration has none).
    pub context: Option<&'a str>,
    /// The API server URL.
    pub server: &'a str,
    /// The object's namespace; `None` for a cluster-scoped object (a Namespace object passes
    /// its own name: see the module doc).
    pub namespace: Option<&'a str>,
    /// The change.
    pub verb: ProtectVerb,
    /// What the request itself does when `verb` names something else: `delete` for a
    /// rollback that deletes (the undo of a create or an apply that created), `undelete` for
    /// one that creates — a rule over `delete` stops a delete however it is asked for.
    pub effect: Option<ProtectVerb>,
    /// The change reaches into every namespace (a CustomResourceDefinition: its apply changes
    /// and its delete deletes the custom resources of every namespace), so a rule's
    /// `namespaces` do not narrow it.
    pub every_namespace: bool,
}

impl<'a> Scope<'a> {
    /// The scope of a change to the object `kind` `namespace`/`name` (see the module doc: a
    /// Namespace is judged in itself, a CustomResourceDefinition in every namespace).
    pub fn of_object(
        context: Option<&'a str>,
        server: &'a str,
        (kind, namespace, name): (&str, Option<&'a str>, &'a str),
        verb: ProtectVerb,
        effect: Option<ProtectVerb>,
    ) -> Scope<'a> {
        Scope {
            context,
            server,
            namespace: judged_namespace(kind, namespace, name),
            verb,
            effect,
            every_namespace: kind == "CustomResourceDefinition",
        }
    }
}

/// What the matching rules of a change ask, combined (strictest wins).
#[derive(Debug, Clone, PartialEq)]
pub struct Protected {
    /// The strictest mode of the matching rules.
    pub mode: ProtectMode,
    /// Whether any matching rule requires a reason.
    pub require_reason: bool,
    /// The indices of the matching rules in `protect:` (0-based), in order.
    pub rules: Vec<usize>,
    /// Their messages, in order, without repeats.
    pub messages: Vec<String>,
    /// The longest lift allowed: the shortest `maxLift` of the matching rules.
    pub max_lift: Duration,
}

impl ProtectRule {
    /// Whether the rule holds for `scope`: its context or server matches, and its
    /// `namespaces` and `verbs` (when given) admit the change.
    pub fn matches(&self, scope: &Scope<'_>) -> bool {
        self.holds_for(scope.context, scope.server)
            && (scope.every_namespace
                || self.namespaces.as_ref().is_none_or(|globs| {
                    scope
                        .namespace
                        .is_some_and(|ns| globs.iter().any(|g| glob_match(g, ns)))
                }))
            && self.verbs.as_ref().is_none_or(|verbs| {
                verbs.contains(&scope.verb) || scope.effect.is_some_and(|e| verbs.contains(&e))
            })
    }

    /// Whether the rule is about this context or server (whatever the namespace and verb).
    /// Servers are compared in their [`canonical_server`] form, so another spelling of the
    /// same URL (`:443` left out, a leading zero in the port, upper case, a trailing `/` or
    /// query) is the same server; a glob with `*` is matched against that form.
    pub fn holds_for(&self, context: Option<&str>, server: &str) -> bool {
        let server = canonical_server(server);
        context.is_some_and(|c| self.contexts.iter().any(|g| glob_match(g, c)))
            || self.servers.iter().any(|g| {
                if g.contains('*') {
                    glob_match(&g.to_ascii_lowercase(), &server)
                } else {
                    canonical_server(g) == server
                }
            })
    }
}

/// An API server URL as `scheme://host:port` (pure): scheme and host in lower case, the port
/// always written (443 for https, 80 for http) and without leading zeros, an IPv4-mapped IPv6
/// address as the IPv4 address, userinfo, path, query and fragment left out — what decides
/// which server a request reaches. Text that is not such a URL comes back in lower case.
/// Two names for one address (`localhost`, `127.0.0.1`) stay two: name each in `servers:`.
pub fn canonical_server(url: &str) -> String {
    let lower = url.trim().to_ascii_lowercase();
    let Ok(uri) = lower.parse::<http::Uri>() else {
        return lower;
    };
    let (Some(scheme), Some(host)) = (uri.scheme_str(), uri.host()) else {
        return lower;
    };
    let port = uri.port_u16().unwrap_or(match scheme {
        "http" => 80,
        _ => 443,
    });
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    let host = match bare.parse::<std::net::Ipv6Addr>() {
        Ok(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => format!("[{v6}]"),
        },
        Err(_) => host.to_string(),
    };
    format!("{scheme}://{host}:{port}")
}

/// The namespace a change to an object is judged in: its own, or — for a Namespace
/// object — its name (see the module doc).
pub fn judged_namespace<'a>(
    kind: &str,
    namespace: Option<&'a str>,
    name: &'a str,
) -> Option<&'a str> {
    match (kind, namespace) {
        ("Namespace", None) => Some(name),
        (_, ns) => ns,
    }
}

/// What the `rules` that hold for `scope` ask, combined (strictest wins); `None` when no
/// rule holds.
pub fn protection(rules: &[ProtectRule], scope: &Scope<'_>) -> Option<Protected> {
    let mut out: Option<Protected> = None;
    for (i, r) in rules.iter().enumerate().filter(|(_, r)| r.matches(scope)) {
        let p = out.get_or_insert_with(|| Protected {
            mode: r.mode,
            require_reason: false,
            rules: Vec::new(),
            messages: Vec::new(),
            max_lift: r.max_lift,
        });
        p.mode = p.mode.max(r.mode);
        p.require_reason |= r.require_reason;
        p.rules.push(i);
        p.max_lift = p.max_lift.min(r.max_lift);
        if let Some(m) = &r.message
            && !p.messages.contains(m)
        {
            p.messages.push(m.clone());
        }
    }
    out
}

/// `maxLift` as text: `1h`, `15m`, `90s`, `1h30m` (Go's duration syntax without fractions,
/// as `--request-timeout`), more than 0.
pub mod duration_text {
    use std::time::Duration;

    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    /// Parses a lift duration: `1h`, `15m`, `90s`, `1h30m`, `2h`; more than 0 and at most
    /// 30 days (a lift is an unlock for a task, not a setting).
    ///
    /// # Errors
    /// A message naming the accepted forms.
    pub fn parse(text: &str) -> Result<Duration, String> {
        let bad = || {
            format!(
                "invalid duration {}: use a duration more than 0 and at most 30 days with h, m or s, e.g. 15m or 1h30m",
                crate::base::echo::quoted(text)
            )
        };
        let t = text.trim();
        if t.is_empty() {
            return Err(bad());
        }
        let mut total: u64 = 0;
        let mut digits = String::new();
        for c in t.chars() {
            if c.is_ascii_digit() {
                digits.push(c);
                continue;
            }
            let unit = match c {
                'h' => 3600,
                'm' => 60,
                's' => 1,
                _ => return Err(bad()),
            };
            let n: u64 = digits.parse().map_err(|_| bad())?;
            digits.clear();
            total = n
                .checked_mul(unit)
                .and_then(|s| total.checked_add(s))
                .ok_or_else(bad)?;
        }
        if !digits.is_empty() || total == 0 || total > 30 * 24 * 3600 {
            return Err(bad());
        }
        Ok(Duration::from_secs(total))
    }

    /// The duration as `1h30m`, `15m`, `90s` (what [`parse`] reads back).
    pub fn format(d: Duration) -> String {
        let s = d.as_secs();
        let (h, m, s) = (s / 3600, s % 3600 / 60, s % 60);
        let mut out = String::new();
        if h > 0 {
            out.push_str(&format!("{h}h"));
        }
        if m > 0 {
            out.push_str(&format!("{m}m"));
        }
        if s > 0 || out.is_empty() {
            out.push_str(&format!("{s}s"));
        }
        out
    }

    /// serde: deserialize.
    ///
    /// # Errors
    /// As [`parse`].
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        parse(&String::deserialize(d)?).map_err(D::Error::custom)
    }

    /// serde: serialize.
    ///
    /// # Errors
    /// Never, beyond the serializer's own.
    pub fn serialize<S: Serializer>(v: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format(*v))
    }
}

mod lint;
#[cfg(test)]
mod tests;

pub use lint::{ALL_VERBS, SHADOW_BUDGET, glob_covers, lint, plugin_verb, rule_verbs, shadows};

/// A lift of protection (`protect lift DURATION`): for one context on one server (and one
/// namespace, or all), from `granted` until `until`. Stored in `MYOPS_HOME/protect/lifts.json`
/// (mode 0600) and journaled; never lifts `block`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Lift {
    /// The change-log entry id that journaled it.
    pub id: String,
    /// The kubeconfig context it lifts.
    pub context: String,
    /// The API server URL of that context when it was lifted (a context pointed at another
    /// server since is not lifted).
    pub server: String,
    /// The namespace it lifts; `None` = every namespace of the context.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// When it was granted (RFC 3339).
    pub granted: jiff::Timestamp,
    /// When it ends (RFC 3339).
    pub until: jiff::Timestamp,
    /// Why (`--reason`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// Why a stored lift is not honoured although its scope matches (each a warning naming the
/// lift: it was edited, or the clock is wrong).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LiftProblem {
    /// `until` is further from `granted` (or from now) than the rules' `maxLift` allows.
    #[error(
        "the lift of context {context} ends at {until}, later than its rules' maxLift of {max} allows, so it is ignored; end it with `kubectl myops protect end` and lift again"
    )]
    TooLong {
        /// The context.
        context: String,
        /// Its end.
        until: jiff::Timestamp,
        /// The rules' maxLift, as text.
        max: String,
    },
    /// `granted` is in the future: the clock went backwards, or the file was edited.
    #[error(
        "the lift of context {context} was granted at {granted}, after the clock's now ({now}), so it is ignored; check the clock, then lift again"
    )]
    ClockBehind {
        /// The context.
        context: String,
        /// When it says it was granted.
        granted: jiff::Timestamp,
        /// The clock's now.
        now: jiff::Timestamp,
    },
}

impl Lift {
    /// Whether the lift is about `scope` (its context, its server, and its namespace when
    /// it names one).
    pub fn covers(&self, scope: &Scope<'_>) -> bool {
        scope.context == Some(self.context.as_str())
            && canonical_server(scope.server) == canonical_server(&self.server)
            && self
                .namespace
                .as_deref()
                .is_none_or(|ns| scope.namespace == Some(ns))
    }

    /// Whether the lift is in force at `now` for rules allowing at most `max_lift`:
    /// `Ok(true)` when it is, `Ok(false)` when it has ended, and the problem when it cannot
    /// be honoured (granted in the future, or longer than `max_lift` from its grant or from
    /// now): a lift is only ever trusted as far as the rules allow today.
    ///
    /// # Errors
    /// [`LiftProblem`], to be warned about; the lift is then not in force.
    pub fn in_force(&self, now: jiff::Timestamp, max_lift: Duration) -> Result<bool, LiftProblem> {
        if self.granted > now {
            return Err(LiftProblem::ClockBehind {
                context: self.context.clone(),
                granted: self.granted,
                now,
            });
        }
        let max = jiff::SignedDuration::try_from(max_lift).unwrap_or(jiff::SignedDuration::MAX);
        let limit = |from: jiff::Timestamp| from.checked_add(max).unwrap_or(jiff::Timestamp::MAX);
        if self.until > limit(self.granted) || self.until > limit(now) {
            return Err(LiftProblem::TooLong {
                context: self.context.clone(),
                until: self.until,
                max: duration_text::format(max_lift),
            });
        }
        Ok(now < self.until)
    }
}
