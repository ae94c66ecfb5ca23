//! plugin.yaml `protect:` for a fan-out (docs/protection.md, "Fleet"): before each wave (the
//! canary wave first), the contexts of the wave that a rule protects for the command's verb
//! are named in one question on the terminal; a yes answers them for that wave's sessions
//! ([`crate::settings::ProtectAnswers::answered`]). Contexts answered already — by `--yes`,
//! `--confirm-context` or a lift in force — are not asked about, and `block` is left to the
//! sessions, which refuse it. Without a terminal nothing is asked: each session refuses as
//! it does headless, naming the flag. The sessions of a fan-out never ask themselves
//! (several questions at once on one terminal would be unreadable).

use crate::base::echo;
use crate::guard::protect::terminal::{Answer, Terminal};
use crate::guard::protect::{ProtectError, lifts};
use crate::rules::protect::{ProtectMode, ProtectVerb, Scope, protection};
use crate::settings::{Settings, WaveAnswer};

/// The protect verb of a fan-out's command (`patch`, `delete`, `apply`, `scale`, `label`,
/// `annotate`, `rollout restart|undo`), as its waves are reported.
pub fn verb_of(waved: &str) -> Option<ProtectVerb> {
    Some(match waved {
        "patch" => ProtectVerb::Patch,
        "delete" => ProtectVerb::Delete,
        "apply" => ProtectVerb::Apply,
        "scale" => ProtectVerb::Scale,
        "label" => ProtectVerb::Label,
        "annotate" => ProtectVerb::Annotate,
        "rollout restart" | "rollout undo" => ProtectVerb::Rollout,
        _ => return None,
    })
}

/// One protected context of a wave, as the question names it.
#[derive(Debug, Clone, PartialEq)]
pub struct Protected {
    /// The context.
    pub context: String,
    /// Its API server URL.
    pub server: String,
    /// The namespace the command works in there.
    pub namespace: String,
    /// The strictest mode of its rules.
    pub mode: ProtectMode,
    /// `protect[0], protect[2]`.
    pub rules: String,
    /// The same rules, as indices into `protect:`.
    pub indices: Vec<usize>,
    /// Their messages (escaped), `; `-joined, or empty.
    pub message: String,
}

/// The `contexts` of a wave that need an answer for `verb` (see the module doc), their
/// servers and namespaces read from the fan-out's `kubeconfig`.
pub fn needing_answer(
    contexts: &[String],
    kubeconfig: Option<&kube::config::Kubeconfig>,
    base: &Settings,
    verb: ProtectVerb,
) -> Vec<Protected> {
    let rules = &base.plugin.protect;
    if rules.is_empty() {
        return Vec::new();
    }
    let (stored, _) = lifts::load(&base.home);
    let now = jiff::Timestamp::now();
    let answers = &base.protect;
    contexts
        .iter()
        .filter_map(|context| {
            let (server, namespace) = where_is(kubeconfig, base, context);
            let scope = Scope {
                context: Some(context),
                server: &server,
                namespace: Some(&namespace),
                verb,
                effect: None,
                every_namespace: false,
            };
            let p = protection(rules, &scope)?;
            let answered = p.mode == ProtectMode::Block
                || (p.require_reason && answers.reason.is_none())
                || answers.confirm_context.iter().any(|c| c == context)
                || (answers.yes && p.mode == ProtectMode::Confirm)
                || stored
                    .iter()
                    .any(|l| l.covers(&scope) && l.in_force(now, p.max_lift).unwrap_or(false));
            (!answered).then(|| Protected {
                context: context.clone(),
                server,
                namespace,
                mode: p.mode,
                rules: p
                    .rules
                    .iter()
                    .map(|i| format!("protect[{i}]"))
                    .collect::<Vec<_>>()
                    .join(", "),
                indices: p.rules.clone(),
                message: p
                    .messages
                    .iter()
                    .map(|m| echo::escaped(m))
                    .collect::<Vec<_>>()
                    .join("; "),
            })
        })
        .collect()
}

/// The server and namespace of `context` in the fan-out's kubeconfig (`--server` and `-n`
/// win, as in the sessions; `default` when the context names no namespace).
fn where_is(
    kc: Option<&kube::config::Kubeconfig>,
    base: &Settings,
    context: &str,
) -> (String, String) {
    let named = kc
        .and_then(|kc| kc.contexts.iter().find(|c| c.name == context))
        .and_then(|c| c.context.as_ref());
    let server = base.kube.server.clone().or_else(|| {
        let cluster = named.map(|c| c.cluster.as_str())?;
        kc?.clusters
            .iter()
            .find(|c| c.name == cluster)
            .and_then(|c| c.cluster.as_ref())
            .and_then(|c| c.server.clone())
    });
    let namespace = base
        .kube
        .namespace
        .clone()
        .or_else(|| named.and_then(|c| c.namespace.clone()))
        .unwrap_or_else(|| "default".to_string());
    (server.unwrap_or_default(), namespace)
}

/// Asks about the contexts `protected` of wave `wave` of `waves` (1-based) on the terminal,
/// showing how the `earlier` waves' contexts ended and the `--reason`: what it answered (each
/// context for its namespace and rules) on a yes, nothing when there is no terminal (the
/// sessions then refuse headless).
///
/// # Errors
/// [`ProtectError::Declined`] or [`ProtectError::Closed`]:
/// the wave, and every wave after it, is not attempted.
pub fn ask(
    protected: &[Protected],
    verb: ProtectVerb,
    (wave, waves): (usize, usize),
    earlier: &[String],
    reason: Option<&str>,
) -> Result<Vec<WaveAnswer>, ProtectError> {
    if protected.is_empty() {
        return Ok(Vec::new());
    }
    let Some(mut tty) = Terminal::open() else {
        return Ok(Vec::new());
    };
    let names: Vec<String> = protected
        .iter()
        .map(|p| echo::escaped(&p.context))
        .collect();
    let what = format!("{} in the contexts {}", verb.as_str(), names.join(", "));
    let canary = if wave == 1 && waves > 1 {
        " (canary)"
    } else {
        ""
    };
    let mut text = format!(
        "PROTECTED  {} in {} protected context(s) of wave {wave} of {waves}{canary}:\n",
        verb.as_str(),
        protected.len()
    );
    for p in protected {
        text.push_str(&format!(
            "  {}  {}  namespace {}  {} ({})\n",
            echo::escaped(&p.context),
            echo::escaped(&p.server),
            echo::quoted(&p.namespace),
            p.rules,
            p.mode.as_str()
        ));
        if !p.message.is_empty() {
            text.push_str(&format!("    {}\n", p.message));
        }
    }
    if let Some(r) = reason {
        text.push_str(&format!("  reason: {}\n", echo::escaped(r)));
    }
    if !earlier.is_empty() {
        text.push_str(&format!("  earlier waves: {}\n", earlier.join(", ")));
    }
    text.push_str(
        "  (each context's own objects are not previewed here: `--dry-run=server` shows them)\n",
    );
    let typed: Vec<&str> = protected
        .iter()
        .filter(|p| p.mode == ProtectMode::TypeName)
        .map(|p| p.context.as_str())
        .collect();
    text.push_str(&if typed.is_empty() {
        "Go on in these contexts? [y/N]: ".to_string()
    } else {
        format!(
            "Type the names of the contexts {} (space-separated) to go on: ",
            typed
                .iter()
                .map(|c| echo::quoted(c))
                .collect::<Vec<_>>()
                .join(" ")
        )
    });
    match tty.ask(&text) {
        Answer::Line(a) if accepts(&a, &typed) => Ok(protected
            .iter()
            .map(|p| WaveAnswer {
                context: p.context.clone(),
                namespace: p.namespace.clone(),
                rules: p.indices.clone(),
            })
            .collect()),
        Answer::Line(_) => Err(ProtectError::Declined { what }),
        Answer::Closed => Err(ProtectError::Closed { what }),
    }
}

/// Whether `answer` answers a wave whose `typed` contexts must be typed (pure): every one of
/// them among the answer's words, or `y`/`yes` when there are none.
pub fn accepts(answer: &str, typed: &[&str]) -> bool {
    if typed.is_empty() {
        return matches!(answer.trim().to_ascii_lowercase().as_str(), "y" | "yes");
    }
    let words: Vec<&str> = answer.split([' ', ',']).filter(|w| !w.is_empty()).collect();
    typed.iter().all(|t| words.contains(t))
}
