//! Aggregated discovery and TYPE resolution, as kubectl's RESTMapper does it.
//!
//! One `/api` and one `/apis` request with the aggregated-discovery media type
//! (KEP-3352, `apidiscovery.k8s.io/v2`, GA in Kubernetes 1.30) give every served
//! resource with its short names, singular name and categories. They are made on every run,
//! revalidating the documents cached by [`super::discovery_cache`] with their ETags, so a CRD
//! registered by another process is visible at once (kube-rs' per-group `Discovery::run()`
//! is slower and fails whole if one group is down).

use k8s_openapi::apimachinery::pkg::apis::meta::v1::APIResourceList;
use kube::core::discovery::v2::{APIGroupDiscovery, APIGroupDiscoveryList};
use kube::discovery::ApiResource;

use crate::exit::ExitStatus;

/// A resource type as discovery reports it (one group/version/resource).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedType {
    /// Group, version, kind and plural of the resource (kube's type-erased resource).
    pub api: ApiResource,
    /// Whether the resource is namespaced.
    pub namespaced: bool,
    /// Singular name (lowercase kind when the server does not say).
    pub singular: String,
    /// Short names, e.g. `po` for pods.
    pub short_names: Vec<String>,
    /// Categories, e.g. `all`.
    pub categories: Vec<String>,
    /// Verbs the resource supports.
    pub verbs: Vec<String>,
    /// Whether this version is the group's preferred version.
    pub preferred: bool,
    /// The subresources discovery lists for it (`status`, `scale`, …).
    pub subresources: Vec<String>,
}

impl ResolvedType {
    /// `plural` for the core group, `plural.group` otherwise: the name used in plugin.yaml,
    /// metric labels and messages (kubectl's "group/resource" string form).
    pub fn group_resource(&self) -> String {
        if self.api.group.is_empty() {
            self.api.plural.clone()
        } else {
            format!("{}.{}", self.api.plural, self.api.group)
        }
    }

    /// Whether discovery lists subresource `name` (`status`, `scale`) for this type.
    pub fn has_subresource(&self, name: &str) -> bool {
        self.subresources.iter().any(|s| s == name)
    }

    /// `kind` for the core group, `kind.group` otherwise, lowercased: the prefix of `-o name`.
    pub fn name_prefix(&self) -> String {
        let kind = self.api.kind.to_lowercase();
        if self.api.group.is_empty() {
            kind
        } else {
            format!("{kind}.{}", self.api.group)
        }
    }
}

/// Every resource type the server serves, in discovery order (preferred versions first).
#[derive(Debug, Clone, Default)]
pub struct TypeIndex {
    types: Vec<ResolvedType>,
}

/// Why TYPE did not resolve to exactly one resource. The TYPE is echoed as typed but escaped
/// and capped ([`crate::base::echo::quoted`]): raw terminal escape sequences in TYPE must never
/// reach the terminal (docs/security.md).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResolveError {
    /// No served resource matches.
    #[error(
        "the server doesn't have a resource type {}; list the served types with `kubectl api-resources`",
        crate::base::echo::quoted(.0)
    )]
    Unknown(String),
}

impl ResolveError {
    /// A usage error (exit 2).
    pub fn exit_status(&self) -> ExitStatus {
        ExitStatus::Usage
    }
}

impl TypeIndex {
    /// Builds the index from the core (`/api`) and group (`/apis`) aggregated discovery documents.
    /// Subresources are not types and are left out.
    pub fn from_discovery(core: APIGroupDiscoveryList, groups: APIGroupDiscoveryList) -> TypeIndex {
        let mut types = Vec::new();
        for g in core.items.into_iter().chain(groups.items) {
            push_group(&mut types, g);
        }
        TypeIndex { types }
    }

    /// All types, in discovery order.
    pub fn types(&self) -> &[ResolvedType] {
        &self.types
    }

    /// Whether any type of API group `group` is in the index.
    pub fn has_group(&self, group: &str) -> bool {
        self.types.iter().any(|t| t.api.group == group)
    }

    /// Adds API group `group` from its per-group discovery documents: the
    /// `APIResourceList` of each version it serves, the preferred version first (the
    /// `/apis/GROUP/VERSION` answers; k8s.io/apimachinery `metav1.APIResourceList`).
    /// Subresources (`widgets/status`) are listed with their resource, as aggregated
    /// discovery lists them. A group already in the index is left as it is.
    pub fn add_group(&mut self, group: &str, lists: Vec<APIResourceList>) {
        if group.is_empty() || self.has_group(group) {
            return;
        }
        for (i, list) in lists.into_iter().enumerate() {
            let version = list
                .group_version
                .rsplit_once('/')
                .map_or(list.group_version.as_str(), |(_, v)| v)
                .to_string();
            let subresources = |plural: &str| -> Vec<String> {
                list.resources
                    .iter()
                    .filter_map(|r| r.name.strip_prefix(plural)?.strip_prefix('/'))
                    .map(String::from)
                    .collect()
            };
            for r in list.resources.iter().filter(|r| !r.name.contains('/')) {
                self.types.push(ResolvedType {
                    api: ApiResource {
                        group: group.to_string(),
                        version: version.clone(),
                        api_version: format!("{group}/{version}"),
                        kind: r.kind.clone(),
                        plural: r.name.clone(),
                    },
                    namespaced: r.namespaced,
                    singular: Some(r.singular_name.clone())
                        .filter(|s| !s.is_empty())
                        .unwrap_or_else(|| r.kind.to_lowercase()),
                    short_names: r.short_names.clone().unwrap_or_default(),
                    categories: r.categories.clone().unwrap_or_default(),
                    verbs: r.verbs.clone(),
                    preferred: i == 0,
                    subresources: subresources(&r.name),
                });
            }
        }
    }

    /// The resource types of category `name` (e.g. `all`), each in its group's preferred
    /// version, in discovery order, each group/resource once — kubectl's category expander
    /// (k8s.io/client-go/restmapper/category_expansion.go: categories from discovery, matched
    /// exactly; cli-runtime's builder then maps each `plural.group` to its preferred version
    /// and drops repeats). Empty when no served type has the category.
    pub fn category(&self, name: &str) -> Vec<ResolvedType> {
        let mut seen: Vec<(String, String)> = Vec::new();
        let mut out = Vec::new();
        for t in self
            .types
            .iter()
            .filter(|t| t.categories.iter().any(|c| c == name))
        {
            let key = (t.api.group.clone(), t.api.plural.clone());
            if seen.contains(&key) {
                continue;
            }
            let preferred = self
                .types
                .iter()
                .find(|o| o.preferred && o.api.group == key.0 && o.api.plural == key.1)
                .unwrap_or(t);
            out.push(preferred.clone());
            seen.push(key);
        }
        out
    }

    /// Resolves TYPE as kubectl does: `plural.version.group`, `plural.group` (or
    /// `kind.group`, `singular.group`), then plural, singular, short name or kind,
    /// case-insensitively. Matches in a group's preferred version win; a name that still
    /// matches several groups resolves to the first group in discovery order, as kubectl's
    /// priority picks it, and the choice is noted ([`take_notes`]).
    ///
    /// # Errors
    /// [`ResolveError::Unknown`] when nothing matches.
    pub fn resolve(&self, input: &str) -> Result<&ResolvedType, ResolveError> {
        let want = input.to_lowercase();
        // plural.version.group and name.group forms (only when TYPE has a dot: a fan-out
        // resolves TYPE once per context, and formatting every candidate name of every type
        // costs a third of its client CPU).
        let qualified: Vec<&ResolvedType> = if want.contains('.') {
            self.types
                .iter()
                .filter(|t| qualified_match(t, &want))
                .collect()
        } else {
            Vec::new()
        };
        if let Some(r) = pick(input, qualified) {
            return r;
        }
        // Bare names: plural, singular, short name, kind. kubectl prefers exact plural/singular
        // matches over short names and kinds; so do we.
        for key in [
            |t: &ResolvedType, w: &str| {
                t.api.plural.eq_ignore_ascii_case(w) || t.singular.eq_ignore_ascii_case(w)
            },
            |t: &ResolvedType, w: &str| t.short_names.iter().any(|s| s.eq_ignore_ascii_case(w)),
            |t: &ResolvedType, w: &str| t.api.kind.eq_ignore_ascii_case(w),
        ] {
            let matches: Vec<&ResolvedType> = self.types.iter().filter(|t| key(t, &want)).collect();
            if let Some(r) = pick(input, prefer_core(matches)) {
                return r;
            }
        }
        Err(ResolveError::Unknown(input.to_string()))
    }
}

/// The API groups a qualified TYPE can name, to look at per-group discovery when aggregated
/// discovery does not list it (yet): `NAME.GROUP` names GROUP, and `NAME.VERSION.GROUP` names
/// GROUP too when VERSION is a Kubernetes version (`v1`, `v2beta1`). Only names that are a
/// valid API group (a lowercase DNS subdomain: they go into a URL path); empty for a bare
/// TYPE.
pub fn groups_named_by(input: &str) -> Vec<String> {
    let want = input.to_lowercase();
    let mut out = Vec::new();
    let Some((_, rest)) = want.split_once('.') else {
        return out;
    };
    out.push(rest.to_string());
    if let Some((version, group)) = rest.split_once('.')
        && is_version(version)
    {
        out.push(group.to_string());
    }
    out.retain(|g| is_group_name(g));
    out
}

/// `v1`, `v1alpha1`, `v2beta3`: a Kubernetes API version (k8s.io/apimachinery version
/// priority rules).
fn is_version(v: &str) -> bool {
    let Some(rest) = v.strip_prefix('v') else {
        return false;
    };
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    if digits == 0 || rest.starts_with('0') {
        return false;
    }
    let tail = &rest[digits..];
    tail.is_empty()
        || ["alpha", "beta"].iter().any(|pre| {
            tail.strip_prefix(pre).is_some_and(|n| {
                !n.is_empty() && !n.starts_with('0') && n.chars().all(|c| c.is_ascii_digit())
            })
        })
}

/// Whether `g` is a lowercase DNS subdomain (RFC 1123) of at most 253 characters: what an
/// API group name is, and safe in a URL path.
fn is_group_name(g: &str) -> bool {
    g.len() <= 253
        && g.split('.').all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && label
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                && !label.starts_with('-')
                && !label.ends_with('-')
        })
}

/// Whether `want` (lowercase) names `t` as `NAME.GROUP` or `NAME.VERSION.GROUP`, NAME being
/// its plural, singular, kind or a short name (any case); core-group types have no such form.
fn qualified_match(t: &ResolvedType, want: &str) -> bool {
    if t.api.group.is_empty() {
        return false;
    }
    let Some(rest) = want
        .strip_suffix(t.api.group.as_str())
        .and_then(|r| r.strip_suffix('.'))
    else {
        return false;
    };
    let is_name = |n: &str| {
        let lower_eq = |s: &str| n.chars().eq(s.chars().flat_map(char::to_lowercase));
        lower_eq(&t.api.plural)
            || lower_eq(&t.singular)
            || lower_eq(&t.api.kind)
            || t.short_names.iter().any(|s| lower_eq(s))
    };
    is_name(rest)
        || rest
            .strip_suffix(t.api.version.as_str())
            .and_then(|r| r.strip_suffix('.'))
            .is_some_and(is_name)
}

/// Picks one type from `matches` (in discovery order): `None` when empty, else the match in
/// its group's preferred version. When several groups match, the first group in discovery
/// order wins, as kubectl's `PriorityRESTMapper` picks it: `NewDiscoveryRESTMapper` ranks
/// the groups in the server's discovery order, each group's preferred version first
/// (client-go `restmapper/discovery.go`, `restmapper/priority.go` `ResourceFor`; the server
/// orders groups by their APIService priority, CRD groups by name). The choice is noted for
/// stderr ([`take_notes`]).
fn pick<'a>(
    input: &str,
    matches: Vec<&'a ResolvedType>,
) -> Option<Result<&'a ResolvedType, ResolveError>> {
    let first = matches.first()?;
    let group = first.api.group.clone();
    let mut others: Vec<String> = matches
        .iter()
        .filter(|t| t.api.group != group)
        .map(|t| t.group_resource())
        .collect();
    others.dedup();
    let in_group: Vec<&&ResolvedType> = matches.iter().filter(|t| t.api.group == group).collect();
    let chosen = in_group
        .iter()
        .find(|t| t.preferred)
        .unwrap_or(&in_group[0]);
    if !others.is_empty() {
        note(format!(
            "resource type {} is served by {} and {}; using {}, the first in the server's discovery order as kubectl picks it; name another as plural.group",
            crate::base::echo::quoted(input),
            chosen.group_resource(),
            others.join(", "),
            chosen.group_resource()
        ));
    }
    Some(Ok(*chosen))
}

/// The choices [`pick`] made among several groups, to say once on stderr.
static NOTES: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

fn note(text: String) {
    let mut n = NOTES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if !n.contains(&text) {
        n.push(text);
    }
}

/// The choices TYPE resolution made among several API groups serving one name since the
/// last call (each once), e.g. `resource type "widgets" is served by widgets.a.io and
/// widgets.b.io; using widgets.a.io, …`; the program prints them as warnings.
pub fn take_notes() -> Vec<String> {
    std::mem::take(
        &mut *NOTES
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner),
    )
}

/// kubectl resolves a bare name that exists in the core group and elsewhere (e.g. `events`
/// in `""` and `events.k8s.io`) to the core group; keep only core matches when there are any.
fn prefer_core(matches: Vec<&ResolvedType>) -> Vec<&ResolvedType> {
    if matches.iter().any(|t| t.api.group.is_empty()) {
        matches
            .into_iter()
            .filter(|t| t.api.group.is_empty())
            .collect()
    } else {
        matches
    }
}

fn push_group(types: &mut Vec<ResolvedType>, g: APIGroupDiscovery) {
    let group = g.metadata.and_then(|m| m.name).unwrap_or_default();
    for (i, v) in g.versions.into_iter().enumerate() {
        let version = v.version.unwrap_or_default();
        for r in v.resources {
            let Some(plural) = r.resource else { continue };
            if plural.contains('/') {
                continue;
            }
            let kind = r.response_kind.and_then(|k| k.kind).unwrap_or_default();
            let api_version = if group.is_empty() {
                version.clone()
            } else {
                format!("{group}/{version}")
            };
            types.push(ResolvedType {
                singular: r
                    .singular_resource
                    .filter(|s| !s.is_empty())
                    .unwrap_or_else(|| kind.to_lowercase()),
                api: ApiResource {
                    group: group.clone(),
                    version: version.clone(),
                    api_version,
                    kind,
                    plural,
                },
                namespaced: r.scope.as_deref() == Some("Namespaced"),
                short_names: r.short_names,
                categories: r.categories,
                verbs: r.verbs,
                preferred: i == 0,
                subresources: r
                    .subresources
                    .into_iter()
                    .filter_map(|s| s.subresource)
                    .collect(),
            });
        }
    }
}

#[cfg(test)]
#[path = "discovery_tests.rs"]
mod tests;
