//! `config schema` and `config validate [PATH]`.

use std::path::Path;

use crate::config::{self, ConfigSource, PluginConfig};
use crate::output::Printer;
use crate::settings::Settings;
use crate::verbs::VerbError;

/// Prints the JSON Schema of plugin.yaml.
///
/// # Errors
/// [`VerbError::Output`] when stdout fails.
pub fn schema(p: &mut Printer<'_>) -> Result<(), VerbError> {
    let mut s = config::schema_json();
    if !s.ends_with('\n') {
        s.push('\n');
    }
    p.out(&s)?;
    Ok(())
}

/// Validates `path` (or the file the lookup order finds, already loaded in `settings`) and
/// prints a summary of what it allows, then warnings about rules that never apply;
/// `protect:` contexts are compared with `contexts`, the context names of the kubeconfig in
/// use (`None`: none could be read, and that warning is left out — a broken kubeconfig is
/// another command's error).
///
/// # Errors
/// [`VerbError::Config`] (exit 2) with file:line:column when the file is invalid.
pub fn validate(
    settings: Option<&Settings>,
    path: Option<&Path>,
    contexts: Option<&[String]>,
    p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    let (cfg, origin): (PluginConfig, String) = match (path, settings) {
        (Some(path), _) => (
            config::load_named(
                path,
                crate::base::deadline::of(settings.and_then(|s| s.kube.request_timeout)),
            )?,
            path.display().to_string(),
        ),
        (None, Some(s)) => (s.plugin.clone(), describe(&s.config_source)),
        (None, None) => (config::builtin(), "built-in default".into()),
    };
    p.out(&format!(
        "{origin}: valid\n  name: {}\n  verbs: {}\n  resources: {}\n  scopes: {}\n  metrics: {}\n  pushgateway: {}\n  changelog: rotated at {} or when its first record is {} old ({} rotated files kept); snapshots of a namespace or CRD delete up to {}\n",
        cfg.name,
        cfg.verbs.iter().map(|v| v.as_str()).collect::<Vec<_>>().join(", "),
        cfg.resources.join(", "),
        cfg.scopes.iter().map(|s| format!("{s:?}").to_lowercase()).collect::<Vec<_>>().join(", "),
        cfg.metrics.iter().map(|m| m.name()).collect::<Vec<_>>().join(", "),
        // With the settings in effect, show where pushes really go (flag and env override the file).
        match settings.filter(|_| path.is_none()).map(|s| s.push_target.as_ref()) {
            Some(Some(t)) => format!("{} (in effect)", crate::metrics::redact_url(&t.url)),
            Some(None) => "(none: metrics stay local)".to_string(),
            None => cfg.pushgateway.as_ref().map(|g| g.url.clone()).unwrap_or_else(|| "(none: metrics stay local)".into()),
        },
        config::model::byte_size::format(cfg.changelog.max_size),
        config::model::age_string::format(cfg.changelog.max_age),
        crate::changelog::retention::ROTATED_FILES,
        config::model::byte_size::format(cfg.changelog.snapshot_limit),
    ))?;
    // Shown only when on, as `apply:` below: the default line stays what it always was.
    if cfg.changelog.events {
        p.out("  events: each change is also an Event on the object (changelog.events)\n")?;
    }
    if let Some(m) = &cfg.changelog.mirror {
        p.out(&format!(
            "  mirror: every complete record is also a ChangeRecord in namespace {} of the cluster it changed (changelog.mirror; docs/team.md)\n",
            m.namespace
        ))?;
    }
    match cfg.changelog.stdout {
        Some(true) => p.out("  stdout: crds watch writes every complete record to stdout as a JSON line (changelog.stdout)\n")?,
        Some(false) => p.out("  stdout: off, also in a cluster (changelog.stdout)\n")?,
        None => {}
    }
    p.out(&policies_summary(&cfg))?;
    // Shown only when set: the default (forced applies refused) is what every other
    // plugin.yaml has, and its line would only repeat it.
    if cfg.apply.force_conflicts {
        p.out("  apply: --force-conflicts allowed (an apply may take fields over from their other managers)\n")?;
    }
    p.out(&protect_summary(&cfg))?;
    for w in crate::rules::policy::lint(&cfg.resources, &cfg.policies) {
        p.err_line(&format!("warning: {w}"));
    }
    // The same rules as the API server would hold them (`policies export|apply`): whole-cluster
    // rules without `exempt:`, CEL over the API server's cost limits.
    let rules = crate::rules::policy::admission::with_plurals(&cfg.policies, &cfg.resources);
    for w in crate::rules::policy::admission::lint(&cfg.name, &rules) {
        p.err_line(&format!("warning: {w}"));
    }
    let allowed: Vec<&str> = cfg.verbs.iter().map(|v| v.as_str()).collect();
    for w in crate::rules::protect::lint(&cfg.protect, &allowed, contexts) {
        p.err_line(&format!("warning: {w}"));
    }
    Ok(())
}

/// The `protect:` lines of `config validate` (pure): nothing without rules, else one line
/// per rule —
/// `[0] contexts prod-*; servers https://prod:6443 — namespaces (all); verbs delete,
/// undelete; mode block; requireReason false; maxLift 1h — "why"` — then `changeCause` when
/// set. Every value the user wrote is escaped ([`crate::base::echo`]).
pub fn protect_summary(cfg: &PluginConfig) -> String {
    use crate::base::echo;
    // Shown only when set, as `apply:`: a plugin.yaml without rules keeps the summary it had.
    let mut out = if cfg.protect.is_empty() {
        String::new()
    } else {
        format!(
            "  protect: {} rule{} (a change where one matches is asked for or refused; the strictest wins: block > type-name > confirm)\n",
            cfg.protect.len(),
            if cfg.protect.len() == 1 { "" } else { "s" },
        )
    };
    let list = |globs: &[String]| {
        globs
            .iter()
            .map(|g| echo::bare(g))
            .collect::<Vec<_>>()
            .join(", ")
    };
    for (i, r) in cfg.protect.iter().enumerate() {
        let mut place = Vec::new();
        if !r.contexts.is_empty() {
            place.push(format!("contexts {}", list(&r.contexts)));
        }
        if !r.servers.is_empty() {
            place.push(format!("servers {}", list(&r.servers)));
        }
        let namespaces = r
            .namespaces
            .as_deref()
            .map_or_else(|| "(all, and cluster-scoped)".to_string(), list);
        let verbs = r.verbs.as_ref().map_or_else(
            || "(all mutating)".to_string(),
            |v| v.iter().map(|v| v.as_str()).collect::<Vec<_>>().join(", "),
        );
        let message = r
            .message
            .as_ref()
            .map_or_else(String::new, |m| format!(" — {}", echo::quoted(m)));
        out.push_str(&echo::capped(
            &format!(
                "    [{i}] {} — namespaces {namespaces}; verbs {verbs}; mode {}; requireReason {}; maxLift {}{message}",
                place.join("; "),
                r.mode.as_str(),
                r.require_reason,
                crate::rules::protect::duration_text::format(r.max_lift),
            ),
            1000,
        ));
        out.push('\n');
    }
    if cfg.change_cause {
        out.push_str("  changeCause: a --reason is also written as the kubernetes.io/change-cause annotation of the workloads a change patches\n");
    }
    out
}

/// The `policies:` lines of `config validate` (pure): `(none)`, or one line per rule —
/// `[0] secrets: deny /data/* — "Secrets change through the vault sync"`, with the
/// namespaces and allow paths when set, and `delete denied` for a rule with `delete: deny`
/// (`[1] namespaces: delete denied — "…"`).
pub fn policies_summary(cfg: &PluginConfig) -> String {
    if cfg.policies.is_empty() {
        return "  policies: (none)\n".to_string();
    }
    let deletes = cfg
        .policies
        .iter()
        .any(|r| r.delete == crate::rules::policy::DeletePolicy::Deny);
    let mut out = format!(
        "  policies: {} rule{} (a patch or rollback changing a denied field is refused{}, exit 3)\n",
        cfg.policies.len(),
        if cfg.policies.len() == 1 { "" } else { "s" },
        if deletes {
            ", and so is a delete a rule forbids"
        } else {
            ""
        }
    );
    for (i, r) in cfg.policies.iter().enumerate() {
        let ns = if r.namespaces.is_empty() {
            String::new()
        } else {
            format!(" in {}", r.namespaces.join(", "))
        };
        let allow = if r.allow.is_empty() {
            String::new()
        } else {
            format!("; allow {}", r.allow.join(", "))
        };
        let mut what = Vec::new();
        if !r.deny.is_empty() {
            what.push(format!("deny {}{allow}", r.deny.join(", ")));
        }
        if r.delete == crate::rules::policy::DeletePolicy::Deny {
            what.push("delete denied".to_string());
        }
        out.push_str(&crate::base::echo::capped(
            &format!(
                "    [{i}] {}{ns}: {} — {}",
                r.resource,
                what.join("; "),
                crate::base::echo::quoted(&r.message)
            ),
            1000,
        ));
        out.push('\n');
    }
    out
}

/// Names a config source for messages.
pub fn describe(src: &ConfigSource) -> String {
    match src {
        ConfigSource::Flag(p)
        | ConfigSource::Env(p)
        | ConfigSource::UserFile(p)
        | ConfigSource::NextToExecutable(p) => p.display().to_string(),
        ConfigSource::Builtin => "built-in default".into(),
    }
}
