//! Field-path policies (issue 16): which fields of which objects a patch may not change,
//! declared in plugin.yaml `policies:` and judged here, purely.
//!
//! A rule names a resource (`plural`, `plural.group` or `*`), optionally namespaces (globs
//! where `*` matches any run of characters), `deny` paths, optional `allow` paths that narrow
//! the deny, and the message shown on refusal. Paths are JSON Pointers (RFC 6901: `~1` is
//! `/`, `~0` is `~`, so `/metadata/annotations/example.com~1owner` names the annotation
//! `example.com/owner`) in which a segment that is exactly `*` matches any one segment (a map
//! key or a list index) and a trailing `/**` anything below.
//!
//! What "changes a path" means (the semantics every caller gets from [`denied_changes`]):
//! - A change **at or below** a matched path changes it: `deny: [/spec/replicas]` refuses a
//!   change of `/spec/replicas`, and `deny: [/data/*]` refuses a change of `/data/x` (and of
//!   anything under it). `/x/**` matches everything strictly below `/x`, not `/x` itself —
//!   adding an empty `/x` changes nothing below it.
//! - A change **above** a matched path (replacing the whole `/data` map, removing
//!   `/metadata/annotations`, a list shrinking) is judged by the matched fields beneath it:
//!   the before- and after-values of each such field are compared, and the change is refused
//!   if any of them differs. Replacing a parent is therefore never a way around a rule, and
//!   a parent replaced with an equal value for every denied field is not refused.
//! - An `allow` path narrows the rule's `deny`: a change at or below an allowed path is not
//!   refused by that rule. A change above an allowed path inside a denied one is split into
//!   its children, so only what the allow does not cover is judged.
//! - List items are compared by index (the server's answer keeps the list order), so a
//!   reorder of a list under a denied path reads as a change of the items that moved.
//!
//! The changed paths come from [`crate::diff::operations`] of the before-state and the
//! object as the server would store it (a server-side dry run, issue 16), which leaves the
//! server's bookkeeping (`resourceVersion`, `managedFields`, `generation`) out.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One field-path policy rule of plugin.yaml `policies:`, e.g.
/// `{resource: secrets, deny: ["/data/*"], message: "Secrets change through the vault sync"}`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PolicyRule {
    /// The resource type: `plural` (core and well-known groups), `plural.group`, or `*` for
    /// every type.
    pub resource: String,
    /// Namespace globs (`*` matches any run of characters, e.g. `team-*`); absent = every
    /// namespace and cluster-scoped objects. A rule with namespaces never covers a
    /// cluster-scoped object.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub namespaces: Vec<String>,
    /// JSON Pointers (RFC 6901; `~1` for `/` in a key) of fields that may not change; a
    /// segment `*` matches one segment (a key or a list index), a trailing `/**` anything
    /// below. A change at or below a denied path is refused, and a change above one is
    /// refused when a denied field beneath it changes.
    pub deny: Vec<String>,
    /// Paths inside the deny that may change after all (same syntax).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allow: Vec<String>,
    /// Shown on refusal after the rule and the path, e.g. "Secrets change through the vault
    /// sync".
    pub message: String,
}

/// One segment of a path pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Seg {
    /// `*`: any one segment.
    Any,
    /// A literal segment (unescaped).
    Key(String),
}

/// A parsed `deny`/`allow` path: its segments and whether it ended in `/**`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathPattern {
    segs: Vec<Seg>,
    below: bool,
}

/// Parses one pattern (`/data/*`, `/metadata/annotations/example.com~1owner`, `/spec/**`).
///
/// # Errors
/// A sentence saying what to write instead: a path that does not start with `/`, a `~` not
/// followed by `0` or `1` (RFC 6901 §3), `**` anywhere but the last segment, or a `*` inside
/// a segment (a `*` matches whole segments only).
pub fn parse_pattern(text: &str) -> Result<PathPattern, String> {
    let quoted = crate::echo::quoted(text);
    let Some(rest) = text.strip_prefix('/') else {
        return Err(format!(
            "path {quoted} is not a JSON Pointer: start it with /, e.g. /data/* or /spec/**"
        ));
    };
    let raw: Vec<&str> = rest.split('/').collect();
    let mut segs = Vec::new();
    let mut below = false;
    for (i, token) in raw.iter().enumerate() {
        match *token {
            "**" if i + 1 == raw.len() => below = true,
            "**" => {
                return Err(format!(
                    "path {quoted}: `**` may only be the last segment (`/x/**` is everything below /x); use `*` for one segment"
                ));
            }
            "*" => segs.push(Seg::Any),
            t if t.contains('*') => {
                return Err(format!(
                    "path {quoted}: `*` matches a whole segment only; write it alone between slashes, e.g. /data/*"
                ));
            }
            t => segs.push(Seg::Key(unescape(t).ok_or_else(|| {
                format!(
                    "path {quoted}: a `~` must be followed by 0 (for ~) or 1 (for /), as RFC 6901 says; write a / inside a key as ~1"
                )
            })?)),
        }
    }
    Ok(PathPattern { segs, below })
}

/// An RFC 6901 reference token unescaped (`~1` → `/`, `~0` → `~`); `None` for any other `~`.
fn unescape(token: &str) -> Option<String> {
    let mut out = String::with_capacity(token.len());
    let mut chars = token.chars();
    while let Some(c) = chars.next() {
        if c == '~' {
            match chars.next() {
                Some('0') => out.push('~'),
                Some('1') => out.push('/'),
                _ => return None,
            }
        } else {
            out.push(c);
        }
    }
    Some(out)
}

/// A concrete pointer (as [`crate::diff::operations`] writes them) split into unescaped
/// segments; `""` is the whole document (no segments).
pub fn split_pointer(pointer: &str) -> Vec<String> {
    pointer
        .split('/')
        .skip(1)
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect()
}

/// Segments joined back into an RFC 6901 pointer (`~` → `~0`, `/` → `~1`).
pub fn join_pointer(segs: &[String]) -> String {
    segs.iter()
        .map(|s| format!("/{}", s.replace('~', "~0").replace('/', "~1")))
        .collect()
}

impl PathPattern {
    fn seg_matches(seg: &Seg, token: &str) -> bool {
        match seg {
            Seg::Any => true,
            Seg::Key(k) => k == token,
        }
    }

    /// Whether the first `path.len()` segments of the pattern accept `path` (a prefix test).
    fn prefix_accepts(&self, path: &[String]) -> bool {
        self.segs
            .iter()
            .zip(path)
            .all(|(s, t)| Self::seg_matches(s, t))
    }

    /// Whether `path` is at or below a path this pattern matches (`/**`: strictly below).
    pub fn covers(&self, path: &[String]) -> bool {
        let min = self.segs.len() + usize::from(self.below);
        path.len() >= min && self.prefix_accepts(path)
    }

    /// Whether something this pattern matches lies strictly below `path`.
    pub fn lies_below(&self, path: &[String]) -> bool {
        let min = self.segs.len() + usize::from(self.below);
        path.len() < min && self.prefix_accepts(path)
    }

    /// Whether everything this pattern matches is server bookkeeping that the structured
    /// diff leaves out (`/metadata/resourceVersion`, `/metadata/managedFields`,
    /// `/metadata/generation`, [`crate::diff::operations`]), so a deny of it never refuses.
    pub fn is_bookkeeping(&self) -> bool {
        matches!(self.segs.as_slice(), [Seg::Key(m), Seg::Key(f), ..]
            if m == "metadata" && matches!(f.as_str(), "resourceVersion" | "managedFields" | "generation"))
    }

    /// Whether this pattern is under a Secret's `stringData`, which the API server never
    /// stores: it merges it into `data` on write (core/v1 Secret API reference: "stringData
    /// … is never output when reading from the API"), so neither the before-state nor the
    /// dry run's answer has it, and a deny of it never refuses.
    pub fn is_write_only_secret_field(&self) -> bool {
        matches!(self.segs.first(), Some(Seg::Key(f)) if f == "stringData")
    }

    /// Whether some path is matched (at or below) by both patterns.
    pub fn overlaps(&self, other: &PathPattern) -> bool {
        self.segs
            .iter()
            .zip(&other.segs)
            .all(|(a, b)| match (a, b) {
                (Seg::Key(x), Seg::Key(y)) => x == y,
                _ => true,
            })
    }

    /// Whether every path `inner` matches (at or below) is also matched by `self`.
    pub fn contains(&self, inner: &PathPattern) -> bool {
        let min_self = self.segs.len() + usize::from(self.below);
        let min_inner = inner.segs.len() + usize::from(inner.below);
        min_inner >= min_self
            && self.segs.iter().zip(&inner.segs).all(|(a, b)| match (a, b) {
                (Seg::Any, _) => true,
                (Seg::Key(x), Seg::Key(y)) => x == y,
                (Seg::Key(_), Seg::Any) => false,
            })
            // `/x/**` inside `/x/*` or `/x/a`: the segment after /x is any, never one key.
            && (self.segs.len() <= inner.segs.len()
                || matches!(self.segs[inner.segs.len()], Seg::Any))
    }
}

/// A rule with its paths parsed.
#[derive(Debug, Clone)]
pub struct Compiled {
    /// Its index in `policies` (how messages name it: `policies[0]`).
    pub index: usize,
    /// The rule as written.
    pub rule: PolicyRule,
    deny: Vec<PathPattern>,
    allow: Vec<PathPattern>,
}

impl Compiled {
    /// Parses the paths of rule `index`.
    ///
    /// # Errors
    /// The first bad path, as [`parse_pattern`] words it.
    pub fn new(index: usize, rule: &PolicyRule) -> Result<Compiled, String> {
        let parse = |v: &[String]| -> Result<Vec<PathPattern>, String> {
            v.iter().map(|p| parse_pattern(p)).collect()
        };
        Ok(Compiled {
            index,
            rule: rule.clone(),
            deny: parse(&rule.deny)?,
            allow: parse(&rule.allow)?,
        })
    }

    /// `policies[0] (secrets)`: how messages name the rule.
    pub fn name(&self) -> String {
        format!("policies[{}] ({})", self.index, self.rule.resource)
    }
}

/// The API groups whose types plugin.yaml may name by plural alone: the core group, the
/// groups without a dot (`apps`, `batch`) and `*.k8s.io` — the same rule as the boundary
/// ([`crate::authz::check_boundary`]), so a CRD's plural never stands for it.
pub fn builtin_group(group: &str) -> bool {
    group.is_empty() || !group.contains('.') || group.ends_with(".k8s.io")
}

/// Whether a plugin.yaml resource entry (`plural` or `plural.group`) names the type with
/// `plural` in `group`: `plural.group` always, `plural` alone for [`builtin_group`]s.
pub fn entry_names(entry: &str, plural: &str, group: &str) -> bool {
    if group.is_empty() {
        return entry == plural;
    }
    entry
        .strip_prefix(plural)
        .and_then(|r| r.strip_prefix('.'))
        .is_some_and(|g| g == group)
        || (builtin_group(group) && entry == plural)
}

/// Shell-style glob with `*` only (any run of characters, also none).
pub fn glob_match(pattern: &str, text: &str) -> bool {
    let (p, t): (Vec<char>, Vec<char>) = (pattern.chars().collect(), text.chars().collect());
    let (mut pi, mut ti, mut star, mut mark) = (0, 0, None, 0);
    while ti < t.len() {
        if pi < p.len() && p[pi] != '*' && p[pi] == t[ti] {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some(pi);
            mark = ti;
            pi += 1;
        } else if let Some(s) = star {
            pi = s + 1;
            mark += 1;
            ti = mark;
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|c| *c == '*')
}

/// Whether `rule` is about the object with `plural` and `kind` in `group`, in `namespace`
/// (`None` for a cluster-scoped object, which a rule with `namespaces` never covers).
///
/// The rule's resource is matched against the plural and also against the lowercased kind
/// (the singular name kubectl accepts: `configmap`, `deployment.apps`): a guard must fail
/// closed, and a rule written in the singular would otherwise never apply and let every
/// change through while `config validate` called it valid (found by a new-user pass,
/// issue 16).
pub fn applies(
    rule: &PolicyRule,
    plural: &str,
    kind: &str,
    group: &str,
    namespace: Option<&str>,
) -> bool {
    (rule.resource == "*"
        || entry_names(&rule.resource, plural, group)
        || entry_names(&rule.resource, &kind.to_ascii_lowercase(), group))
        && (rule.namespaces.is_empty()
            || namespace.is_some_and(|ns| rule.namespaces.iter().any(|g| glob_match(g, ns))))
}

/// The rules of `policies` that apply to the object (file order), compiled.
///
/// # Errors
/// A bad path (plugin.yaml validation refuses those, so only a programming error).
pub fn matching(
    policies: &[PolicyRule],
    plural: &str,
    kind: &str,
    group: &str,
    namespace: Option<&str>,
) -> Result<Vec<Compiled>, String> {
    policies
        .iter()
        .enumerate()
        .filter(|(_, r)| applies(r, plural, kind, group, namespace))
        .map(|(i, r)| Compiled::new(i, r))
        .collect()
}

/// A denied change: the first rule (file order) that refuses, and the denied paths it found.
#[derive(Debug, Clone, PartialEq)]
pub struct Violation {
    /// Index of the rule in `policies`.
    pub index: usize,
    /// The rule's resource as written.
    pub resource: String,
    /// The rule's message.
    pub message: String,
    /// The denied paths that would change, as RFC 6901 pointers (at least one).
    pub paths: Vec<String>,
}

impl Violation {
    /// `/data/a` or `/data/a (and 2 more: /data/b, /data/c)`: paths only, never values.
    pub fn paths_text(&self) -> String {
        match self.paths.split_first() {
            Some((first, [])) => first.clone(),
            Some((first, rest)) => {
                let shown: Vec<&str> = rest.iter().take(5).map(String::as_str).collect();
                let more = if rest.len() > 5 { ", …" } else { "" };
                format!(
                    "{first} (and {} more: {}{more})",
                    rest.len(),
                    shown.join(", ")
                )
            }
            None => String::new(),
        }
    }
}

/// The first rule of `rules` (in order) that refuses the change from `before` to `after`,
/// with the denied paths it changes — `None` when no rule refuses. `changed` are the
/// pointers the structured diff of the two names ([`crate::diff::operations`], bookkeeping
/// left out); the module comment says what "changes a path" means.
pub fn denied_changes(
    rules: &[Compiled],
    changed: &[String],
    before: &Value,
    after: &Value,
) -> Option<Violation> {
    let changed: Vec<Vec<String>> = changed.iter().map(|p| split_pointer(p)).collect();
    rules.iter().find_map(|rule| {
        let mut paths = Vec::new();
        for p in &changed {
            judge(rule, p.clone(), before, after, &mut paths);
        }
        (!paths.is_empty()).then(|| Violation {
            index: rule.index,
            resource: rule.rule.resource.clone(),
            message: rule.rule.message.clone(),
            paths: paths.iter().map(|p| join_pointer(p)).collect(),
        })
    })
}

/// The value at `path` (segments) in `doc`.
fn at<'a>(doc: &'a Value, path: &[String]) -> Option<&'a Value> {
    path.iter().try_fold(doc, |v, seg| match v {
        Value::Object(m) => m.get(seg),
        Value::Array(a) => seg.parse::<usize>().ok().and_then(|i| a.get(i)),
        _ => None,
    })
}

/// The child segments of the values at `path` in either document (map keys, list indexes).
fn children(before: Option<&Value>, after: Option<&Value>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for v in [before, after].into_iter().flatten() {
        let keys: Vec<String> = match v {
            Value::Object(m) => m.keys().cloned().collect(),
            Value::Array(a) => (0..a.len()).map(|i| i.to_string()).collect(),
            _ => Vec::new(),
        };
        for k in keys {
            if !out.contains(&k) {
                out.push(k);
            }
        }
    }
    out
}

/// Adds to `out` the denied paths at or below `path` whose value differs between the two
/// documents, by `rule` (see the module comment).
fn judge(
    rule: &Compiled,
    path: Vec<String>,
    before: &Value,
    after: &Value,
    out: &mut Vec<Vec<String>>,
) {
    let (b, a) = (at(before, &path), at(after, &path));
    if b == a || rule.allow.iter().any(|al| al.covers(&path)) {
        return;
    }
    let denied = rule.deny.iter().any(|d| d.covers(&path));
    let allow_below = rule.allow.iter().any(|al| al.lies_below(&path));
    let deny_below = rule.deny.iter().any(|d| d.lies_below(&path));
    // Split into children only where both sides are maps or lists of one kind (or absent):
    // a value replaced by a scalar, or a map by a list, changes the path itself.
    let shape = |v: Option<&Value>| match v {
        None => 0,
        Some(Value::Object(_)) => 1,
        Some(Value::Array(_)) => 2,
        Some(_) => 3,
    };
    let (sb, sa) = (shape(b), shape(a));
    let splittable = sb != 3 && sa != 3 && (sb == 0 || sa == 0 || sb == sa);
    if denied && !(allow_below && splittable) {
        if !out.contains(&path) {
            out.push(path);
        }
    } else if (denied && allow_below) || deny_below {
        for k in children(b, a) {
            let mut child = path.clone();
            child.push(k);
            judge(rule, child, before, after, out);
        }
    }
}

/// Core (API group `""`) resources that no other built-in group serves, so `plural.group`
/// with a built-in group never names them (`secrets.apps`); `events`, also served by
/// `events.k8s.io`, is not listed (the core/v1 API, `k8s.io/api/core/v1`).
const CORE_ONLY: &[&str] = &[
    "pods",
    "services",
    "configmaps",
    "secrets",
    "serviceaccounts",
    "persistentvolumeclaims",
    "persistentvolumes",
    "nodes",
    "namespaces",
    "endpoints",
    "limitranges",
    "resourcequotas",
    "replicationcontrollers",
    "podtemplates",
];

/// Cluster-scoped built-in resources (a rule with `namespaces` never covers them). Only
/// the well-known ones; others are not knowable without a cluster.
const CLUSTER_SCOPED: &[&str] = &[
    "namespaces",
    "nodes",
    "persistentvolumes",
    "customresourcedefinitions",
    "clusterroles",
    "clusterrolebindings",
    "storageclasses",
    "priorityclasses",
    "apiservices",
    "mutatingwebhookconfigurations",
    "validatingwebhookconfigurations",
    "certificatesigningrequests",
    "ingressclasses",
    "runtimeclasses",
    "csidrivers",
    "csinodes",
    "volumeattachments",
];

/// How many comparisons of two deny paths [`lint`] makes to find overlapping rules before
/// it stops and says so (a few tenths of a second; realistic files need thousands).
pub const OVERLAP_BUDGET: usize = 2_000_000;

/// What `config validate` reports about `policies` (pure): unreachable rules (a resource
/// not in `resources`, `namespaces` on a well-known cluster-scoped type, an `allow` that
/// overlaps no `deny`, a `deny` that an `allow` of the same rule covers entirely, a `deny` of
/// server bookkeeping the diff leaves out) and
/// overlapping rules (two rules on the same resource whose deny paths overlap: the first in
/// file order is the one that refuses and names its message; each later rule once, with the
/// first earlier rule it overlaps, within [`OVERLAP_BUDGET`] comparisons). One sentence each.
pub fn lint(resources: &[String], policies: &[PolicyRule]) -> Vec<String> {
    let mut out = Vec::new();
    let compiled: Vec<Option<Compiled>> = policies
        .iter()
        .enumerate()
        .map(|(i, r)| Compiled::new(i, r).ok())
        .collect();
    let mut budget = OVERLAP_BUDGET;
    for (i, r) in policies.iter().enumerate() {
        let name = format!("policies[{i}] ({})", r.resource);
        // A rule in the singular (`configmap`) applies ([`applies`] matches the lowercased
        // kind too), but the file should say what `resources` says.
        let plural_of = (r.resource != "*")
            .then(|| {
                let (name, group) = r.resource.split_once('.').unwrap_or((&r.resource, ""));
                resources.iter().find(|e| {
                    let (p, g) = e.split_once('.').unwrap_or((e, ""));
                    g == group && p != name && p.starts_with(name) && p.len() <= name.len() + 2
                })
            })
            .flatten();
        if let Some(plural) = plural_of {
            out.push(format!(
                "{name} names a singular: the rule applies to {plural} (kubectl's singular names are matched too), but write {plural} as `resources` does"
            ));
        } else if r.resource != "*" && !resources.iter().any(|e| same_resource(e, &r.resource)) {
            let crd = r
                .resource
                .split_once('.')
                .is_some_and(|(_, g)| !builtin_group(g));
            out.push(format!(
                "{name} is unreachable: {} is not in `resources`{}; add it there or remove the rule",
                r.resource,
                if crd { " (unless `crds sync` registers its CRD)" } else { "" }
            ));
        }
        let plural = r.resource.split('.').next().unwrap_or_default();
        if let Some((_, group)) = r.resource.split_once('.')
            && builtin_group(group)
            && CORE_ONLY.contains(&plural)
        {
            out.push(format!(
                "{name} is unreachable: {plural} is a core type (API group \"\", not {group}), so the rule never applies to it; write {plural}"
            ));
        }
        if !r.namespaces.is_empty() && CLUSTER_SCOPED.contains(&plural) {
            out.push(format!(
                "{name} is unreachable: {} is cluster-scoped, and a rule with `namespaces` covers only namespaced objects; remove `namespaces`",
                r.resource
            ));
        }
        let Some(c) = &compiled[i] else { continue };
        // The allow × deny checks below count against the same budget as the overlaps.
        let cross = 2 * c.allow.len() * c.deny.len();
        let allow_checked = cross <= budget;
        if allow_checked {
            budget -= cross;
        } else {
            out.push(format!(
                "{name}: its {} allow and {} deny paths were not checked against each other ({OVERLAP_BUDGET} comparisons at most): shorten the lists",
                c.allow.len(),
                c.deny.len()
            ));
        }
        for (k, al) in c.allow.iter().enumerate().filter(|_| allow_checked) {
            if !c.deny.iter().any(|d| d.overlaps(al)) {
                out.push(format!(
                    "{name}: allow {} is under no deny path of the rule, so it changes nothing; remove it or fix the path",
                    r.allow[k]
                ));
            }
        }
        for (k, d) in c.deny.iter().enumerate() {
            if allow_checked && let Some(j) = c.allow.iter().position(|al| al.contains(d)) {
                out.push(format!(
                    "{name}: deny {} never refuses: allow {} covers all of it",
                    r.deny[k], r.allow[j]
                ));
            }
            if matches!(d.segs.first(), Some(Seg::Key(k)) if k.is_empty()) {
                out.push(format!(
                    "{name}: deny {} never refuses: it names a top-level field with an empty name (RFC 6901), not the whole object; write /** for every field",
                    r.deny[k]
                ));
            }
            if d.is_write_only_secret_field() && entry_names(&r.resource, "secrets", "") {
                out.push(format!(
                    "{name}: deny {} never refuses: the API server stores stringData in data and never returns it, so a change through stringData shows under /data; deny /data{} instead",
                    r.deny[k],
                    r.deny[k].strip_prefix("/stringData").unwrap_or_default()
                ));
            }
            if d.is_bookkeeping() {
                out.push(format!(
                    "{name}: deny {} never refuses: the server changes it on every write, so the diff leaves it out",
                    r.deny[k]
                ));
            }
        }
    }
    // Each later rule is reported once, with the first earlier rule it overlaps (the one
    // whose message it loses to), and the comparisons are counted: a plugin.yaml of
    // thousands of rules or paths (1 MiB allows ~20 000) would otherwise take minutes and
    // print millions of lines (3 000 copies of one rule: 4.5 million warnings, 112 s).
    'rules: for j in 1..policies.len() {
        for i in 0..j {
            let (a, b) = (&policies[i], &policies[j]);
            let (Some(ca), Some(cb)) = (&compiled[i], &compiled[j]) else {
                continue;
            };
            let cost = 1 + ca.deny.len() * cb.deny.len();
            if cost > budget {
                out.push(format!(
                    "policies: overlaps were checked only up to policies[{j}] ({OVERLAP_BUDGET} comparisons of deny paths; the file has {} rules): merge rules or shorten their deny lists",
                    policies.len()
                ));
                break 'rules;
            }
            budget -= cost;
            let same =
                a.resource == "*" || b.resource == "*" || same_resource(&a.resource, &b.resource);
            if !same || !namespaces_meet(&a.namespaces, &b.namespaces) {
                continue;
            }
            let pair = ca.deny.iter().enumerate().find_map(|(x, da)| {
                cb.deny
                    .iter()
                    .position(|db| da.overlaps(db))
                    .map(|y| (x, y))
            });
            if let Some((x, y)) = pair {
                out.push(format!(
                    "policies[{i}] ({}) and policies[{j}] ({}) overlap: deny {} and deny {} can match the same field, and only policies[{i}]'s message is shown for it; merge them or narrow one",
                    a.resource, b.resource, a.deny[x], b.deny[y]
                ));
                continue 'rules;
            }
        }
    }
    out
}

/// Whether two plugin.yaml resource entries can name the same type (`deployments` and
/// `deployments.apps`, or equal text).
fn same_resource(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    let split = |s: &str| {
        s.split_once('.')
            .map(|(p, g)| (p.to_string(), g.to_string()))
    };
    match (split(a), split(b)) {
        (Some((p, g)), None) => p == b && builtin_group(&g),
        (None, Some((p, g))) => p == a && builtin_group(&g),
        _ => false,
    }
}

/// Whether two `namespaces` lists can both cover one namespace (an empty list covers all;
/// globs are compared as text unless one holds a `*`, which counts as meeting).
fn namespaces_meet(a: &[String], b: &[String]) -> bool {
    a.is_empty()
        || b.is_empty()
        || a.iter().any(|x| {
            b.iter().any(|y| {
                x == y || glob_match(x, y) || glob_match(y, x) || x.contains('*') && y.contains('*')
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rule(resource: &str, deny: &[&str], allow: &[&str]) -> PolicyRule {
        PolicyRule {
            resource: resource.into(),
            namespaces: Vec::new(),
            deny: deny.iter().map(|s| s.to_string()).collect(),
            allow: allow.iter().map(|s| s.to_string()).collect(),
            message: format!("no ({resource})"),
        }
    }

    /// The pointers the project's structured diff names (what the guarded path passes).
    fn changed(before: &Value, after: &Value) -> Vec<String> {
        crate::diff::operations(before, after)
            .iter()
            .map(|op| crate::diff::path_of(op).to_string())
            .collect()
    }

    fn denied(rules: &[Compiled], before: &Value, after: &Value) -> Option<Violation> {
        denied_changes(rules, &changed(before, after), before, after)
    }

    fn check(deny: &[&str], allow: &[&str], before: Value, after: Value) -> Vec<String> {
        let c = Compiled::new(0, &rule("secrets", deny, allow)).unwrap();
        denied(&[c], &before, &after)
            .map(|v| v.paths)
            .unwrap_or_default()
    }

    fn segs(p: &str) -> Vec<String> {
        split_pointer(p)
    }

    #[test]
    fn patterns_parse_with_rfc6901_escapes_and_refuse_what_they_cannot_mean() {
        let p = parse_pattern("/metadata/annotations/example.com~1owner").unwrap();
        assert!(p.covers(&segs("/metadata/annotations/example.com~1owner")));
        assert!(!p.covers(&segs("/metadata/annotations/example.com")));
        let tilde = parse_pattern("/data/a~0b").unwrap();
        assert!(tilde.covers(&["data".into(), "a~b".into()]));
        // ~01 is `~1` literally (RFC 6901 §4: unescape ~1 first would give `/`).
        assert!(
            parse_pattern("/data/~01")
                .unwrap()
                .covers(&["data".into(), "~1".into()])
        );
        for (bad, want) in [
            ("data/*", "start it with /"),
            ("", "start it with /"),
            ("/data/~2", "must be followed by 0"),
            ("/data/a~", "must be followed by 0"),
            ("/spec/**/image", "may only be the last segment"),
            ("/data/pass*", "whole segment only"),
        ] {
            let e = parse_pattern(bad).unwrap_err();
            assert!(e.contains(want), "{bad}: {e}");
        }
        assert_eq!(
            join_pointer(&["metadata".into(), "a/b~c".into()]),
            "/metadata/a~1b~0c"
        );
    }

    #[test]
    fn star_is_one_segment_and_double_star_is_anything_strictly_below() {
        let one = parse_pattern("/spec/template/spec/containers/*/image").unwrap();
        assert!(one.covers(&segs("/spec/template/spec/containers/0/image")));
        assert!(one.covers(&segs("/spec/template/spec/containers/3/image")));
        assert!(!one.covers(&segs("/spec/template/spec/containers/0/name")));
        assert!(!one.covers(&segs("/spec/template/spec/containers/0")));
        assert!(one.lies_below(&segs("/spec/template/spec/containers/0")));
        assert!(one.lies_below(&segs("/spec")));
        assert!(!one.lies_below(&segs("/metadata")));
        let deep = parse_pattern("/data/**").unwrap();
        assert!(!deep.covers(&segs("/data")), "** is strictly below");
        assert!(deep.covers(&segs("/data/a")));
        assert!(deep.covers(&segs("/data/a/b/c")));
        assert!(deep.lies_below(&segs("/data")));
        let field = parse_pattern("/spec/replicas").unwrap();
        assert!(field.covers(&segs("/spec/replicas")));
        assert!(!field.covers(&segs("/spec/replicasx")));
        let all = parse_pattern("/**").unwrap();
        assert!(all.covers(&segs("/x")) && !all.covers(&[]));
    }

    #[test]
    fn a_changed_key_is_denied_and_an_unlisted_field_is_not() {
        let before =
            json!({"metadata": {"labels": {"a": "1"}}, "data": {"pw": "b2xk", "u": "eA=="}});
        let mut after = before.clone();
        after["data"]["pw"] = json!("bmV3");
        assert_eq!(
            check(&["/data/*"], &[], before.clone(), after),
            ["/data/pw"]
        );
        let mut label = before.clone();
        label["metadata"]["labels"]["a"] = json!("2");
        assert!(check(&["/data/*"], &[], before.clone(), label).is_empty());
        let mut added = before.clone();
        added["data"]["new"] = json!("eA==");
        assert_eq!(
            check(&["/data/*"], &[], before.clone(), added),
            ["/data/new"]
        );
        let mut removed = before.clone();
        removed["data"].as_object_mut().unwrap().remove("u");
        assert_eq!(check(&["/data/*"], &[], before, removed), ["/data/u"]);
    }

    #[test]
    fn a_change_above_a_denied_path_is_judged_by_the_denied_fields_beneath_it() {
        // Regression (issue 16 design): replacing or removing the whole map must not be a
        // way around `/data/*`.
        let before = json!({"data": {"pw": "b2xk", "u": "eA=="}});
        assert_eq!(
            check(&["/data/*"], &[], before.clone(), json!({})),
            ["/data/pw", "/data/u"]
        );
        assert_eq!(
            check(&["/data/*"], &[], json!({}), before.clone()),
            ["/data/pw", "/data/u"]
        );
        // A type change at the parent (the diff names /data only).
        assert_eq!(
            check(&["/data/*"], &[], before.clone(), json!({"data": "x"})),
            ["/data/pw", "/data/u"]
        );
        // The same values under a replaced parent: nothing denied changed.
        let c = Compiled::new(0, &rule("s", &["/data/pw"], &[])).unwrap();
        assert_eq!(
            denied(&[c], &before, &json!({"data": {"pw": "b2xk"}})),
            None
        );
        // A list item removed whole: its image changed.
        let d = json!({"spec": {"containers": [{"name": "a", "image": "x"}, {"name": "b", "image": "y"}]}});
        let shrunk = json!({"spec": {"containers": [{"name": "a", "image": "x"}]}});
        assert_eq!(
            check(&["/spec/containers/*/image"], &[], d.clone(), shrunk),
            ["/spec/containers/1/image"]
        );
        let renamed = json!({"spec": {"containers": [{"name": "a", "image": "x"}, {"name": "c", "image": "y"}]}});
        assert!(check(&["/spec/containers/*/image"], &[], d, renamed).is_empty());
    }

    #[test]
    fn removing_several_items_from_the_end_of_a_list_judges_each_removed_item() {
        // Regression: the diff named [a, b, c] → [a] as `remove /1` twice, so only b was
        // judged and c's denied securityContext went unseen (a merge patch replacing the
        // containers list removed it while a JSON patch removing it was refused).
        let before = json!({"spec": {"containers": [{"name": "a"}, {"name": "b"},
            {"name": "c", "securityContext": {"privileged": false}}]}});
        let after = json!({"spec": {"containers": [{"name": "a"}]}});
        assert_eq!(
            check(
                &["/spec/containers/*/securityContext/**"],
                &[],
                before,
                after
            ),
            ["/spec/containers/2/securityContext/privileged"]
        );
    }

    #[test]
    fn allow_narrows_deny_also_when_the_change_is_above_both() {
        let deny = ["/metadata/annotations/**"];
        let allow = ["/metadata/annotations/team"];
        let before = json!({"metadata": {"annotations": {"team": "a", "example.com/owner": "ci"}}});
        let mut team = before.clone();
        team["metadata"]["annotations"]["team"] = json!("b");
        assert!(check(&deny, &allow, before.clone(), team).is_empty());
        let mut owner = before.clone();
        owner["metadata"]["annotations"]["example.com/owner"] = json!("me");
        assert_eq!(
            check(&deny, &allow, before.clone(), owner),
            ["/metadata/annotations/example.com~1owner"]
        );
        // All annotations removed at once: the allowed key is fine, the other is not.
        assert_eq!(
            check(&deny, &allow, before.clone(), json!({"metadata": {}})),
            ["/metadata/annotations/example.com~1owner"]
        );
        // Annotations added where there were none, only the allowed key: allowed.
        assert!(
            check(
                &deny,
                &allow,
                json!({"metadata": {}}),
                json!({"metadata": {"annotations": {"team": "x"}}})
            )
            .is_empty()
        );
        // An allow with a star.
        let allow_star = ["/metadata/annotations/*"];
        assert!(check(&deny, &allow_star, before.clone(), json!({"metadata": {}})).is_empty());
        // A deny on a field and an allow below it: a scalar replacing the map is denied.
        assert_eq!(
            check(
                &["/spec"],
                &["/spec/replicas"],
                json!({"spec": {"replicas": 1}}),
                json!({"spec": 5})
            ),
            ["/spec"]
        );
        assert!(
            check(
                &["/spec"],
                &["/spec/replicas"],
                json!({"spec": {"replicas": 1}}),
                json!({"spec": {"replicas": 2}})
            )
            .is_empty()
        );
    }

    #[test]
    fn bookkeeping_never_counts_and_the_first_refusing_rule_is_named() {
        let before = json!({"metadata": {"resourceVersion": "1", "generation": 1, "managedFields": []}, "spec": {"replicas": 1}});
        let after = json!({"metadata": {"resourceVersion": "2", "generation": 2, "managedFields": [{"manager": "x"}]}, "spec": {"replicas": 1}});
        assert!(check(&["/metadata/**"], &[], before.clone(), after).is_empty());
        let rules = [
            Compiled::new(0, &rule("deployments", &["/spec/paused"], &[])).unwrap(),
            Compiled::new(3, &rule("*", &["/spec/**"], &[])).unwrap(),
            Compiled::new(4, &rule("deployments", &["/spec/replicas"], &[])).unwrap(),
        ];
        let mut changed = before.clone();
        changed["spec"]["replicas"] = json!(2);
        let v = denied(&rules, &before, &changed).unwrap();
        assert_eq!(
            (
                v.index,
                v.resource.as_str(),
                v.message.as_str(),
                v.paths_text()
            ),
            (3, "*", "no (*)", "/spec/replicas".to_string())
        );
        let many = Violation {
            paths: (0..8).map(|i| format!("/data/k{i}")).collect(),
            ..v
        };
        assert_eq!(
            many.paths_text(),
            "/data/k0 (and 7 more: /data/k1, /data/k2, /data/k3, /data/k4, /data/k5, …)"
        );
    }

    /// Regression (issue 16, new-user pass): `resource: configmap` never applied — the
    /// object is matched by its plural — so a patch of the denied field went through with
    /// exit 0 while `config validate` called the file valid.
    #[test]
    fn a_rule_naming_the_singular_never_applied_and_let_every_change_through() {
        assert_eq!(
            lint(
                &["configmaps".into()],
                &[rule("configmap", &["/data/**"], &[])]
            ),
            vec![
                "policies[0] (configmap) names a singular: the rule applies to configmaps (kubectl's singular names are matched too), but write configmaps as `resources` does"
            ]
        );
        let mut r = rule("configmap", &["/data/**"], &[]);
        assert!(applies(&r, "configmaps", "ConfigMap", "", Some("a")));
        assert!(!applies(&r, "secrets", "Secret", "", Some("a")));
        r.resource = "deployment.apps".into();
        assert!(applies(&r, "deployments", "Deployment", "apps", Some("a")));
        r.resource = "widget.example.com".into();
        assert!(applies(&r, "widgets", "Widget", "example.com", None));
        assert!(!applies(&r, "widgets", "Widget", "other.example.com", None));
    }

    #[test]
    fn rules_match_resource_names_and_namespace_globs() {
        let mut r = rule("deployments", &["/spec/**"], &[]);
        assert!(applies(&r, "deployments", "Deployment", "apps", Some("a")));
        assert!(
            !applies(&r, "deployments", "Deployment", "example.com", Some("a")),
            "a CRD plural alone never names it"
        );
        r.resource = "deployments.apps".into();
        assert!(applies(&r, "deployments", "Deployment", "apps", Some("a")));
        assert!(!applies(
            &r,
            "statefulsets",
            "StatefulSet",
            "apps",
            Some("a")
        ));
        r.resource = "widgets.example.com".into();
        assert!(applies(&r, "widgets", "Widget", "example.com", None));
        r.resource = "*".into();
        r.namespaces = vec!["team-*".into(), "prod".into()];
        assert!(applies(&r, "pods", "Pod", "", Some("team-a")));
        assert!(applies(&r, "pods", "Pod", "", Some("prod")));
        assert!(!applies(&r, "pods", "Pod", "", Some("prod-2")));
        assert!(
            !applies(&r, "namespaces", "Namespace", "", None),
            "namespaces cover only namespaced objects"
        );
        assert!(entry_names("pods", "pods", ""));
        assert!(!entry_names("pods.", "pods", ""));
        assert!(entry_names(
            "ingresses.networking.k8s.io",
            "ingresses",
            "networking.k8s.io"
        ));
        for (p, t, want) in [
            ("*", "", true),
            ("a*b", "ab", true),
            ("a*b", "axxb", true),
            ("a*b", "axxbc", false),
            ("*-prod", "eu-prod", true),
            ("t-*-*", "t-a-b", true),
            ("t-*-*", "t-a", false),
            ("", "", true),
            ("x", "", false),
        ] {
            assert_eq!(glob_match(p, t), want, "{p} {t}");
        }
    }

    #[test]
    fn a_core_type_named_with_a_group_is_reported_as_unreachable() {
        // Regression: `secrets.apps` validated as reachable (the lint took `secrets` in
        // `resources` for the same type) and never applied to a Secret: a silent fail-open.
        let res = vec!["secrets".to_string(), "events".to_string()];
        assert_eq!(
            lint(
                &res,
                &[
                    rule("secrets.apps", &["/data/*"], &[]),
                    rule("events.events.k8s.io", &["/note"], &[]),
                ]
            ),
            [
                "policies[0] (secrets.apps) is unreachable: secrets is a core type (API group \"\", not apps), so the rule never applies to it; write secrets"
            ]
        );
    }

    #[test]
    fn a_deny_under_secret_string_data_is_reported_as_never_refusing() {
        // Regression: `deny: [/stringData/**]` on secrets validated without a word and never
        // refused — the server stores stringData in data, so a stringData patch went through.
        let res = vec!["secrets".to_string(), "widgets.example.com".to_string()];
        assert_eq!(
            lint(
                &res,
                &[
                    rule("secrets", &["/stringData/**", "/data/x"], &[]),
                    rule("widgets.example.com", &["/stringData/x"], &[]),
                    rule("widgets.example.com", &["/"], &[]),
                ]
            ),
            [
                "policies[0] (secrets): deny /stringData/** never refuses: the API server stores stringData in data and never returns it, so a change through stringData shows under /data; deny /data/** instead",
                "policies[2] (widgets.example.com): deny / never refuses: it names a top-level field with an empty name (RFC 6901), not the whole object; write /** for every field",
            ]
        );
    }

    #[test]
    fn thousands_of_overlapping_rules_give_one_warning_each_and_the_comparisons_are_bounded() {
        // Regression: 3 000 copies of one rule (a 147 KB plugin.yaml) printed 4.5 million
        // overlap warnings in 112 s and 1.5 GB; two rules of 40 000 paths took 79 s.
        let res = vec!["secrets".to_string()];
        let copies: Vec<PolicyRule> = (0..3000).map(|_| rule("*", &["/data/*"], &[])).collect();
        let started = std::time::Instant::now();
        let got = lint(&res, &copies);
        assert_eq!(got.len(), 2999);
        assert!(got[2998].starts_with("policies[0] (*) and policies[2999] (*) overlap"));
        let paths =
            |p: &str| -> Vec<String> { (0..40_000).map(|i| format!("/{p}/k{i}")).collect() };
        let long = |p: &str| PolicyRule {
            deny: paths(p),
            ..rule("secrets", &[], &[])
        };
        let got = lint(&res, &[long("a"), long("b")]);
        assert_eq!(
            got,
            [
                "policies: overlaps were checked only up to policies[1] (2000000 comparisons of deny paths; the file has 2 rules): merge rules or shorten their deny lists"
            ]
        );
        let both = PolicyRule {
            allow: paths("b"),
            ..long("a")
        };
        assert_eq!(
            lint(&res, &[both]),
            [
                "policies[0] (secrets): its 40000 allow and 40000 deny paths were not checked against each other (2000000 comparisons at most): shorten the lists"
            ]
        );
        assert!(
            started.elapsed() < std::time::Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
    }

    #[test]
    fn lint_reports_unreachable_and_overlapping_rules() {
        let res: Vec<String> = ["secrets", "deployments.apps", "namespaces"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let mut ns_rule = rule("namespaces", &["/metadata/labels/*"], &[]);
        ns_rule.namespaces = vec!["team-*".into()];
        let policies = vec![
            rule("secrets", &["/data/*"], &[]),
            rule(
                "deployments",
                &["/spec/template/spec/containers/*/image"],
                &["/spec/replicas"],
            ),
            rule("widgets.example.com", &["/spec/size"], &[]),
            ns_rule,
            rule("secrets", &["/data/password"], &[]),
            rule("configmaps", &["/data/x"], &["/data"]),
            rule("*", &["/metadata/annotations/**"], &[]),
        ];
        let got = lint(&res, &policies);
        assert_eq!(
            got,
            [
                "policies[1] (deployments): allow /spec/replicas is under no deny path of the rule, so it changes nothing; remove it or fix the path",
                "policies[2] (widgets.example.com) is unreachable: widgets.example.com is not in `resources` (unless `crds sync` registers its CRD); add it there or remove the rule",
                "policies[3] (namespaces) is unreachable: namespaces is cluster-scoped, and a rule with `namespaces` covers only namespaced objects; remove `namespaces`",
                "policies[5] (configmaps) is unreachable: configmaps is not in `resources`; add it there or remove the rule",
                "policies[5] (configmaps): deny /data/x never refuses: allow /data covers all of it",
                "policies[0] (secrets) and policies[4] (secrets) overlap: deny /data/* and deny /data/password can match the same field, and only policies[0]'s message is shown for it; merge them or narrow one",
            ]
        );
        assert_eq!(
            lint(
                &res,
                &[rule(
                    "secrets",
                    &["/metadata/managedFields/**", "/metadata/labels"],
                    &[]
                )]
            ),
            [
                "policies[0] (secrets): deny /metadata/managedFields/** never refuses: the server changes it on every write, so the diff leaves it out"
            ]
        );
        // Different namespaces or disjoint paths do not overlap.
        let mut a = rule("secrets", &["/data/*"], &[]);
        a.namespaces = vec!["a".into()];
        let mut b = rule("secrets", &["/data/*"], &[]);
        b.namespaces = vec!["b".into()];
        let c = rule("secrets", &["/metadata/labels/x"], &[]);
        assert!(lint(&res, &[a, b, c]).is_empty());
        assert!(
            parse_pattern("/x/*")
                .unwrap()
                .contains(&parse_pattern("/x/**").unwrap())
        );
        assert!(
            !parse_pattern("/x/a")
                .unwrap()
                .contains(&parse_pattern("/x/**").unwrap())
        );
        assert!(
            parse_pattern("/x")
                .unwrap()
                .contains(&parse_pattern("/x/**").unwrap())
        );
        assert!(
            !parse_pattern("/x/**")
                .unwrap()
                .contains(&parse_pattern("/x").unwrap())
        );
    }
}
