//! plugin.yaml `policies:` as ValidatingAdmissionPolicies (admissionregistration.k8s.io/v1,
//! GA since Kubernetes 1.30): the same rules, enforced by the API server for every client
//! (Kubernetes docs, "Validating Admission Policy").
//!
//! One policy and one binding per rule, so a refusal names its rule, a rule's binding can
//! move from `Warn` to `Deny` on its own, and each binding has a CEL budget of its own
//! (10,000,000 per binding and request). What is written, and why:
//! - `matchConstraints.resourceRules`: the rule's resource (`plural.group` → that group;
//!   `plural` alone → every group, narrowed by a match condition to the groups the client
//!   reads a bare plural in: core, no dot, `*.k8s.io` — [`super::builtin_group`]); `*` →
//!   every resource. `operations: [UPDATE]`, and `DELETE` when the rule has `delete: deny`.
//!   Subresources are not matched (`status`, `scale`): the client judges writes of the
//!   object itself.
//! - `matchConditions`: the namespace globs and `exempt:` as CEL. Globs cannot be a
//!   namespaceSelector (a label selector matches whole values only); the client reads the
//!   object's own `metadata.namespace`, so the condition does too (a Namespace object has
//!   none, as it has none for the client).
//! - `validations`: one per `deny` path ([`super::cel::unchanged`]) and one for `delete:
//!   deny`; `messageExpression` names the rule, the path and the object, never a value.
//! - `failurePolicy: Fail`: a policy that cannot be evaluated refuses, as the client does
//!   when it cannot judge.

use serde_json::{Value, json};

use super::cel::{check, estimate_cost, string_literal, unchanged};
use super::pattern::parse_pattern;
use super::rule::{DeletePolicy, PolicyRule};

/// The label every exported object carries (Kubernetes recommended labels).
pub const MANAGED_BY: (&str, &str) = ("app.kubernetes.io/managed-by", "kubectl-myops");

/// The label naming the plugin (plugin.yaml `name`) whose rules an object mirrors, so
/// `policies apply` finds the ones it wrote earlier and no other plugin's.
pub const PLUGIN_LABEL: &str = "app.kubernetes.io/instance";

/// The annotation naming the rule an object mirrors (`policies[0] (secrets)`).
pub const RULE_ANNOTATION: &str = "myops.io/rule";

/// The per-call CEL cost limit of the API server (k8s.io/apiserver pkg/apis/cel/config.go
/// `PerCallLimit`): an expression that costs more fails, and the policy refuses.
pub const PER_CALL_LIMIT: u64 = 1_000_000;

/// The runtime CEL budget of one binding and request (`RuntimeCELCostBudget`, same file).
pub const PER_BINDING_BUDGET: u64 = 10_000_000;

/// What a binding does with a refusal (`spec.validationActions`; Kubernetes docs,
/// "Validation actions"): `Deny` refuses the request, `Warn` lets it through with a
/// warning the client shows, `Audit` records it in the audit log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Action {
    /// Refuse the request (HTTP 403 with the message).
    #[value(name = "Deny")]
    Deny,
    /// Let it through with a warning (kubectl prints `Warning: …`).
    #[value(name = "Warn")]
    Warn,
    /// Let it through and add the refusal to the audit event.
    #[value(name = "Audit")]
    Audit,
}

impl Action {
    fn name(self) -> &'static str {
        match self {
            Action::Deny => "Deny",
            Action::Warn => "Warn",
            Action::Audit => "Audit",
        }
    }
}

/// One rule as a policy and its binding, with the estimated cost of its CEL.
#[derive(Debug, Clone, PartialEq)]
pub struct Exported {
    /// The rule's index in `policies`.
    pub index: usize,
    /// The name of both objects.
    pub name: String,
    /// The ValidatingAdmissionPolicy.
    pub policy: Value,
    /// The ValidatingAdmissionPolicyBinding.
    pub binding: Value,
    /// The most expensive single expression's estimated cost ([`estimate_cost`]).
    pub max_call_cost: u64,
    /// The estimated cost of all of the policy's expressions together, for one request.
    pub total_cost: u64,
}

/// How [`export`] may be made to write a wrong policy: the test seam `policies verify` is
/// proved with (a generator that forgets the `allow` paths). Never set outside tests.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Fault {
    /// Leave every rule's `allow` paths out of its CEL.
    pub ignore_allow: bool,
}

/// The policies and bindings for `rules` of plugin `plugin`, with `actions` on every
/// binding.
///
/// # Errors
/// A sentence naming the rule: a path that does not parse (plugin.yaml validation refuses
/// those first), `Deny` together with `Warn` (the API server refuses that pair), or CEL the
/// local check rejects (a bug of the generator, reported rather than printed).
pub fn export(
    plugin: &str,
    rules: &[PolicyRule],
    actions: &[Action],
    fault: Fault,
) -> Result<Vec<Exported>, String> {
    if actions.contains(&Action::Deny) && actions.contains(&Action::Warn) {
        return Err(
            "--actions Deny and Warn together are refused by the API server (a denied request has nothing to warn about); use Deny, or Warn,Audit".into(),
        );
    }
    let mut actions: Vec<&str> = actions.iter().map(|a| a.name()).collect();
    actions.dedup();
    rules
        .iter()
        .enumerate()
        .map(|(index, rule)| one(plugin, index, rule, &actions, fault))
        .collect()
}

/// What `config validate` and `policies export` say about a rule whose CEL may cost more than
/// the API server allows (the estimate: [`crate::rules::policy::cel::estimate_cost`]).
pub fn cost_warnings(e: &Exported) -> Vec<String> {
    use super::cel::ASSUMED_ITEMS;
    let rule = format!("policies[{}]", e.index);
    let mut out = Vec::new();
    if e.max_call_cost > PER_CALL_LIMIT {
        out.push(format!(
            "{rule}: its CEL may cost up to {} per evaluation with {ASSUMED_ITEMS} items in each list or map it iterates, over the API server's per-call limit of {PER_CALL_LIMIT}: an update of such an object is refused (failurePolicy Fail); a literal path or fewer `*` segments costs less",
            e.max_call_cost
        ));
    } else if e.total_cost > PER_BINDING_BUDGET {
        out.push(format!(
            "{rule}: its CEL together may cost up to {} per request, over the API server's budget of {PER_BINDING_BUDGET} per binding; split the rule's deny paths into several rules",
            e.total_cost
        ));
    }
    out
}

/// The warning for a `resource: "*"` rule without `exempt:` (pure): exported, it binds every
/// client on the API server, the cluster's own controllers too, which write annotations,
/// labels and finalizers and delete (`policies export`, `policies apply` and `config
/// validate` all say it).
pub fn whole_cluster_warning(index: usize, rule: &PolicyRule) -> Option<String> {
    (rule.resource == "*" && rule.exempt.is_empty()).then(|| {
        format!(
            "policies[{index}] (*) binds every client on the API server, the cluster's own controllers too (they write annotations, labels and finalizers, and delete); exempt them with exempt: groups: [system:serviceaccounts:kube-system] and users: [system:kube-controller-manager, system:kube-scheduler]"
        )
    })
}

/// What `policies export|apply` say about a `delete: deny` rule (other than on `*` or
/// `namespaces`) that exempts nobody: on the API server it refuses the namespace controller,
/// which deletes a namespace's objects one by one, so a deleted namespace holding such an
/// object stays Terminating (seen on the test cluster). Not a `config validate` warning: a
/// plugin.yaml that is never exported binds only this client, where it does not.
pub fn controller_warning(index: usize, rule: &PolicyRule) -> Option<String> {
    (rule.delete == DeletePolicy::Deny
        && rule.exempt.is_empty()
        && rule.resource != "*"
        && rule.resource != "namespaces")
        .then(|| {
            format!(
                "policies[{index}] ({}) with delete: deny refuses the cluster's controllers on the API server too: a namespace holding such an object stays Terminating when deleted (the namespace controller is refused); exempt them with exempt: users: [system:kube-controller-manager] and groups: [system:serviceaccounts:kube-system]",
                rule.resource
            )
        })
}

/// What `config validate` says about `rules` as ValidatingAdmissionPolicies of plugin
/// `plugin` (pure): per rule, [`whole_cluster_warning`] and [`cost_warnings`], or why the rule
/// cannot be exported (a path that does not parse is plugin.yaml validation's error first;
/// CEL the local check rejects is a bug of the generator). One sentence each, in rule order.
pub fn lint(plugin: &str, rules: &[PolicyRule]) -> Vec<String> {
    let mut out = Vec::new();
    for (index, rule) in rules.iter().enumerate() {
        out.extend(whole_cluster_warning(index, rule));
        match one(plugin, index, rule, &["Deny"], Fault::default()) {
            Ok(e) => out.extend(cost_warnings(&e)),
            Err(e) => out.push(format!(
                "{e}: `policies export` and `policies apply` refuse this rule"
            )),
        }
    }
    out
}

/// The objects an earlier `policies apply` of this plugin wrote that the export no longer
/// holds (pure): every name in `listed` (the objects of one type labelled [`MANAGED_BY`] and
/// [`PLUGIN_LABEL`] = the plugin) that no [`Exported`] is named, sorted, so a rule removed from
/// plugin.yaml (or the rules renumbered) leaves no policy behind.
pub fn stale(exported: &[Exported], listed: &[String]) -> Vec<String> {
    let mut out: Vec<String> = listed
        .iter()
        .filter(|n| !exported.iter().any(|e| &e.name == *n))
        .cloned()
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The label selector of the objects [`export`] writes for plugin `plugin`:
/// `app.kubernetes.io/managed-by=kubectl-myops,app.kubernetes.io/instance=PLUGIN` (plugin.yaml
/// validation keeps `name` a valid label value).
pub fn selector(plugin: &str) -> String {
    format!("{}={},{PLUGIN_LABEL}={plugin}", MANAGED_BY.0, MANAGED_BY.1)
}

/// `rules` with a resource written in the singular (`configmap`, `deployment.apps`) replaced by
/// the plural of plugin.yaml `resources` it stands for ([`super::lint`] names the same one):
/// the client matches a rule to the lowercased kind too (`scope::applies`), but a policy's
/// resource rule matches plurals only, so exported as written it would match nothing.
pub fn with_plurals(rules: &[PolicyRule], resources: &[String]) -> Vec<PolicyRule> {
    rules
        .iter()
        .map(|r| {
            let mut r = r.clone();
            if let Some(plural) = super::lint::plural_in_resources(&r, resources) {
                r.resource = plural.clone();
            }
            r
        })
        .collect()
}

/// The most `*` segments a deny path may have: the CEL nests one comprehension per `*`, and
/// beyond eight the parser's recursion (here and on the API server) and the cost go past any
/// limit.
pub const MAX_WILDCARDS: usize = 8;

/// The most segments a deny or allow path may have: the CEL nests one member or `has()`
/// test per segment, and a few dozen deep the parser's recursion overflows the stack (the
/// process aborts). No Kubernetes field is nested this deep.
pub const MAX_SEGMENTS: usize = 32;

/// The objects for rule `index`.
fn one(
    plugin: &str,
    index: usize,
    rule: &PolicyRule,
    actions: &[&str],
    fault: Fault,
) -> Result<Exported, String> {
    let title = format!("policies[{index}] ({})", rule.resource);
    let name = object_name(plugin, index, &rule.resource);
    let message = one_line(&rule.message);
    let allow = if fault.ignore_allow {
        Vec::new()
    } else {
        rule.allow
            .iter()
            .map(|p| parse_pattern(p))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("{title}: {e}"))?
    };
    let deletes = rule.delete == DeletePolicy::Deny;
    let guard = if deletes {
        "request.operation != 'UPDATE' || "
    } else {
        ""
    };
    let mut validations = Vec::new();
    for raw in rule.deny.iter().chain(&rule.allow) {
        let segments = raw.split('/').count().saturating_sub(1);
        if segments > MAX_SEGMENTS {
            return Err(format!(
                "{title}: {} has {segments} segments; the CEL of a path deeper than {MAX_SEGMENTS} is too deep to compile: shorten the path or deny a parent with /**",
                crate::base::echo::capped(raw, 64)
            ));
        }
        let wildcards = raw.split('/').filter(|s| *s == "*" || *s == "**").count();
        if wildcards > MAX_WILDCARDS {
            return Err(format!(
                "{title}: {} has {wildcards} `*` segments; the CEL of more than {MAX_WILDCARDS} nested ones is too deep to compile and its cost is over any limit: name some of the segments",
                crate::base::echo::quoted(raw)
            ));
        }
    }
    for raw in &rule.deny {
        let pattern = parse_pattern(raw).map_err(|e| format!("{title}: {e}"))?;
        // A validation's message must be one line (the API server refuses a line break).
        let path = one_line(raw);
        let sentence = format!("denied by plugin.yaml {title}: the change would modify {path}");
        validations.push(validation(
            format!("{guard}{}", unchanged(&pattern, &allow)),
            &format!("{sentence} of "),
            &sentence,
            &message,
        ));
    }
    if deletes {
        let sentence = format!("denied by plugin.yaml {title}: the rule forbids deleting");
        validations.push(validation(
            "request.operation != 'DELETE'".into(),
            &format!("{sentence} "),
            &format!("{sentence} it"),
            &message,
        ));
    }
    let conditions = match_conditions(rule);
    let mut max_call_cost = 0;
    let mut total_cost: u64 = 0;
    let expressions = validations
        .iter()
        .flat_map(|v| [&v["expression"], &v["messageExpression"]])
        .chain(conditions.iter().map(|c| &c["expression"]));
    for e in expressions {
        let text = e.as_str().unwrap_or_default();
        check(text).map_err(|err| format!("{title}: {err} (a bug: please report it)"))?;
        let cost = estimate_cost(text).unwrap_or(u64::MAX);
        max_call_cost = max_call_cost.max(cost);
        total_cost = total_cost.saturating_add(cost);
    }
    let mut operations = vec!["UPDATE"];
    if deletes {
        operations.push("DELETE");
    }
    let metadata = json!({
        "name": name,
        "labels": {MANAGED_BY.0: MANAGED_BY.1, PLUGIN_LABEL: plugin},
        "annotations": {RULE_ANNOTATION: title},
    });
    let mut spec = json!({
        "failurePolicy": "Fail",
        "matchConstraints": {"resourceRules": [resource_rule(&rule.resource, &operations)]},
        "validations": validations,
    });
    if !conditions.is_empty() {
        spec["matchConditions"] = Value::Array(conditions);
    }
    Ok(Exported {
        index,
        name: name.clone(),
        policy: json!({
            "apiVersion": "admissionregistration.k8s.io/v1",
            "kind": "ValidatingAdmissionPolicy",
            "metadata": metadata,
            "spec": spec,
        }),
        binding: json!({
            "apiVersion": "admissionregistration.k8s.io/v1",
            "kind": "ValidatingAdmissionPolicyBinding",
            "metadata": metadata,
            "spec": {"policyName": name, "validationActions": actions},
        }),
        max_call_cost,
        total_cost,
    })
}

/// `text` on one line (pure): each line break (`\r\n`, `\n`, `\r`) a space. The API server
/// refuses a validation `message` with a line break as invalid (422, "must not contain line
/// breaks"), and shows the static `message` instead of a `messageExpression` result with one
/// (Kubernetes API reference, ValidatingAdmissionPolicy `Validation.message` and
/// `messageExpression`), while a plugin.yaml `message` may be a YAML block of several lines.
pub fn one_line(text: &str) -> String {
    text.replace("\r\n", " ").replace(['\n', '\r'], " ")
}

/// One validation: `expression`, and a refusal that reads `{before_object}{object}: {message}`
/// (`messageExpression`, the object named by [`OBJECT_NAME`]) or, where that cannot be
/// evaluated, `{sentence}: {message}` (`message`). `reason: Forbidden` makes it HTTP 403.
fn validation(expression: String, before_object: &str, sentence: &str, message: &str) -> Value {
    json!({
        "expression": expression,
        "messageExpression": format!(
            "{} + {} + {}",
            string_literal(before_object),
            OBJECT_NAME,
            string_literal(&format!(": {message}"))
        ),
        "message": format!("{sentence}: {message}"),
        "reason": "Forbidden",
    })
}

/// How a message names the object: `secrets team-shop/db` (the namespace only when it has
/// one). On DELETE `object` is null; the request carries the name either way.
const OBJECT_NAME: &str = "request.resource.resource + ' ' + (request.namespace == '' ? '' : request.namespace + '/') + request.name";

/// `myops-policies-0-secrets`: the plugin, the rule's index and its resource, as a DNS
/// subdomain (RFC 1123: lowercase letters, digits, `-` and `.`), `*` written `all`.
pub fn object_name(plugin: &str, index: usize, resource: &str) -> String {
    let clean = |s: &str| -> String {
        let mapped: String = s
            .to_ascii_lowercase()
            .chars()
            .map(|c| match c {
                'a'..='z' | '0'..='9' | '-' | '.' => c,
                _ => '-',
            })
            .collect();
        mapped.trim_matches(['-', '.']).to_string()
    };
    let resource = if resource == "*" {
        "all".to_string()
    } else {
        clean(resource)
    };
    let mut plugin = clean(plugin);
    if plugin.is_empty() {
        plugin = "myops".into();
    }
    let mut name = format!("{plugin}-policies-{index}-{resource}");
    name.truncate(253);
    name.trim_end_matches(['-', '.']).to_string()
}

/// The resource rule for a plugin.yaml resource entry.
fn resource_rule(resource: &str, operations: &[&str]) -> Value {
    let (groups, resources) = if resource == "*" {
        (vec!["*".to_string()], vec!["*".to_string()])
    } else if let Some((plural, group)) = resource.split_once('.') {
        (vec![group.to_string()], vec![plural.to_string()])
    } else {
        (vec!["*".to_string()], vec![resource.to_string()])
    };
    json!({
        "apiGroups": groups,
        "apiVersions": ["*"],
        "resources": resources,
        "operations": operations,
    })
}

/// The match conditions of a rule: built-in groups for a bare plural, the namespace globs,
/// the exemptions. Each is true when the rule applies.
fn match_conditions(rule: &PolicyRule) -> Vec<Value> {
    let mut out = Vec::new();
    if rule.resource != "*" && !rule.resource.contains('.') {
        out.push(json!({
            "name": "built-in-group",
            "expression": "request.resource.group == '' || !request.resource.group.contains('.') || request.resource.group.endsWith('.k8s.io')",
        }));
    }
    if !rule.namespaces.is_empty() {
        let ns =
            "(request.operation == 'DELETE' ? oldObject : object).?metadata.?namespace.orValue('')";
        let any: Vec<String> = rule.namespaces.iter().map(|g| glob(ns, g)).collect();
        out.push(json!({
            "name": "namespaces",
            "expression": format!("{ns} != '' && ({})", any.join(" || ")),
        }));
    }
    let mut exempt: Vec<String> = rule
        .exempt
        .users
        .iter()
        .map(|u| glob("request.userInfo.username", u))
        .collect();
    exempt.extend(
        rule.exempt
            .groups
            .iter()
            .map(|g| format!("request.userInfo.groups.exists(g, {})", glob("g", g))),
    );
    if !exempt.is_empty() {
        out.push(json!({
            "name": "not-exempt",
            "expression": format!("!({})", exempt.join(" || ")),
        }));
    }
    out
}

/// A `*`-only glob over the string `subject` as CEL: `==` without a `*`, `startsWith` /
/// `endsWith` for one at an end, else `matches` with an anchored RE2 expression.
fn glob(subject: &str, pattern: &str) -> String {
    let stars = pattern.matches('*').count();
    match stars {
        0 => format!("{subject} == {}", string_literal(pattern)),
        1 if pattern.ends_with('*') => format!(
            "{subject}.startsWith({})",
            string_literal(&pattern[..pattern.len() - 1])
        ),
        1 if pattern.starts_with('*') => {
            format!("{subject}.endsWith({})", string_literal(&pattern[1..]))
        }
        _ => {
            let parts: Vec<String> = pattern.split('*').map(regex_escape).collect();
            format!(
                "{subject}.matches({})",
                string_literal(&format!("^{}$", parts.join(".*")))
            )
        }
    }
}

/// `text` with RE2's metacharacters escaped.
fn regex_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if "\\.+*?()|[]{}^$".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
#[path = "admission_tests.rs"]
mod tests;
