//! One-time confirmation tokens: a mutation is made only by a second call that names the
//! preview it confirms (pure apart from the random token).
//!
//! A token is 128 random bits (ring's `SystemRandom`, the OS generator), good for one call,
//! for one tool with exactly the arguments it previewed, until it expires. Redeeming it
//! removes it whatever follows, so a token never confirms twice — not even after a failed
//! change.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use serde_json::Value;

/// The most previews kept waiting for their confirmation; the oldest is dropped past it,
/// so a client that previews without end cannot grow the server without bound.
pub const MAX_PENDING: usize = 256;

/// What a preview found, kept for its confirmation.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Facts {
    /// The context it runs in.
    pub context: Option<String>,
    /// The object's resourceVersion the preview read (`None`: it did not exist, or nothing
    /// was read — a rollback or undelete names no object).
    pub resource_version: Option<String>,
    /// Where and as what verbs the dry run's journal entries change objects (a rollback's or
    /// undelete's objects, each as its request changes it), each once: what the `protect:`
    /// rules of the confirmation are judged on.
    pub judged: Vec<Judged>,
    /// What the change does, in one line, for the person asked to confirm it.
    pub description: String,
}

/// One place a change is judged by `protect:`: a namespace (`None`: cluster-scoped, or the
/// server's default) and the verbs a rule names to cover it there.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Judged {
    /// The namespace.
    pub namespace: Option<String>,
    /// The entry's operation, and what its request does when that is something else: a
    /// rollback that deletes is also a `delete`, one that creates an `undelete`
    /// (`guard::protect::verb::effect_of`, which the command judges by).
    pub verbs: Vec<String>,
}

/// A preview waiting for its confirmation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pending {
    /// The tool.
    pub tool: String,
    /// The call's arguments without `confirm`, canonical (keys sorted).
    pub arguments: String,
    /// What the preview found.
    pub facts: Facts,
    issued: Instant,
}

/// Why a token does not confirm a call (kind `invalid`, exit 2: nothing was sent).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    /// Never issued, already used, or dropped.
    #[error(
        "the confirmation token is unknown or was already used (a token confirms one call); call the tool again without `confirm` to preview the change anew"
    )]
    Unknown,
    /// Issued longer ago than the expiry.
    #[error(
        "the confirmation token expired {late_seconds}s ago (tokens are good for {ttl_seconds}s); call the tool again without `confirm` to preview the change anew"
    )]
    Expired {
        /// Seconds past the expiry.
        late_seconds: u64,
        /// The expiry.
        ttl_seconds: u64,
    },
    /// Issued for another tool or other arguments.
    #[error(
        "the confirmation token was issued for {previewed}, not for these arguments; a token confirms exactly the previewed change — preview this one first"
    )]
    Mismatch {
        /// What the token previewed (the tool).
        previewed: String,
    },
}

/// The previews waiting for confirmation.
#[derive(Debug, Default)]
pub struct Tokens {
    pending: HashMap<String, Pending>,
    ttl: Duration,
}

/// The canonical text of a call's arguments without `confirm` (keys sorted at every level,
/// as `serde_json::Value`'s ordered maps print them once sorted).
pub fn canonical(arguments: &Value) -> String {
    fn sorted(v: &Value) -> Value {
        match v {
            Value::Object(m) => {
                let mut keys: Vec<&String> = m.keys().collect();
                keys.sort();
                Value::Object(
                    keys.into_iter()
                        .map(|k| (k.clone(), sorted(&m[k])))
                        .collect(),
                )
            }
            Value::Array(a) => Value::Array(a.iter().map(sorted).collect()),
            other => other.clone(),
        }
    }
    let mut args = arguments.clone();
    if let Value::Object(m) = &mut args {
        m.shift_remove("confirm");
    }
    sorted(&args).to_string()
}

impl Tokens {
    /// A store whose tokens expire `ttl` after their preview.
    pub fn new(ttl: Duration) -> Tokens {
        Tokens {
            pending: HashMap::new(),
            ttl,
        }
    }

    /// How long a token stays good.
    pub fn ttl(&self) -> Duration {
        self.ttl
    }

    /// Issues a token for `pending` previewed `now`; drops expired previews, and the oldest
    /// past [`MAX_PENDING`].
    pub fn issue(&mut self, tool: &str, arguments: &Value, facts: Facts, now: Instant) -> String {
        let ttl = self.ttl;
        self.pending
            .retain(|_, p| now.saturating_duration_since(p.issued) <= ttl);
        while self.pending.len() >= MAX_PENDING {
            let oldest = self
                .pending
                .iter()
                .min_by_key(|(_, p)| p.issued)
                .map(|(k, _)| k.clone());
            match oldest {
                Some(k) => self.pending.remove(&k),
                None => break,
            };
        }
        let token = random_token();
        self.pending.insert(
            token.clone(),
            Pending {
                tool: tool.to_string(),
                arguments: canonical(arguments),
                facts,
                issued: now,
            },
        );
        token
    }

    /// Redeems `token` for a call of `tool` with `arguments` at `now`: removed whatever the
    /// answer (one use), and returned when it confirms exactly this call in time.
    ///
    /// # Errors
    /// [`TokenError`]: unknown or used, expired, or issued for another call.
    pub fn redeem(
        &mut self,
        token: &str,
        tool: &str,
        arguments: &Value,
        now: Instant,
    ) -> Result<Pending, TokenError> {
        let p = self.pending.remove(token).ok_or(TokenError::Unknown)?;
        let age = now.saturating_duration_since(p.issued);
        if age > self.ttl {
            return Err(TokenError::Expired {
                late_seconds: (age - self.ttl).as_secs(),
                ttl_seconds: self.ttl.as_secs(),
            });
        }
        if p.tool != tool || p.arguments != canonical(arguments) {
            return Err(TokenError::Mismatch {
                previewed: format!("a `{}` call", p.tool),
            });
        }
        Ok(p)
    }
}

/// 128 random bits as 32 hex digits, from the OS generator; a token is a capability, so
/// there is no fallback to anything guessable (the process stops instead — it cannot
/// confirm safely).
fn random_token() -> String {
    use ring::rand::SecureRandom;
    let mut b = [0u8; 16];
    if ring::rand::SystemRandom::new().fill(&mut b).is_err() {
        // A system without a random source cannot hand out capabilities.
        std::process::abort();
    }
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_token_confirms_once_and_only_its_own_arguments() {
        let t0 = Instant::now();
        let mut t = Tokens::new(Duration::from_secs(60));
        let args = json!({"type": "configmaps", "name": "c1", "patch": {"data": {"k": "v"}}});
        let facts = Facts {
            context: Some("admin".into()),
            resource_version: Some("7".into()),
            ..Facts::default()
        };
        let token = t.issue("patch", &args, facts, t0);
        assert_eq!(token.len(), 32);
        let mut with_confirm = args.clone();
        with_confirm["confirm"] = json!(token);
        let p = t.redeem(&token, "patch", &with_confirm, t0).unwrap();
        assert_eq!(p.facts.resource_version.as_deref(), Some("7"));
        assert_eq!(
            t.redeem(&token, "patch", &with_confirm, t0),
            Err(TokenError::Unknown)
        );
        let token = t.issue("patch", &args, Facts::default(), t0);
        let other = json!({"type": "configmaps", "name": "c2", "patch": {"data": {"k": "v"}}});
        assert!(matches!(
            t.redeem(&token, "patch", &other, t0),
            Err(TokenError::Mismatch { .. })
        ));
        // A mismatch used the token up.
        assert_eq!(
            t.redeem(&token, "patch", &args, t0),
            Err(TokenError::Unknown)
        );
    }

    #[test]
    fn a_token_past_its_expiry_is_refused() {
        let t0 = Instant::now();
        let mut t = Tokens::new(Duration::from_secs(2));
        let token = t.issue("delete", &json!({}), Facts::default(), t0);
        assert_eq!(
            t.redeem(&token, "delete", &json!({}), t0 + Duration::from_secs(5)),
            Err(TokenError::Expired {
                late_seconds: 3,
                ttl_seconds: 2
            })
        );
    }

    #[test]
    fn key_order_does_not_change_the_arguments_a_token_confirms() {
        assert_eq!(
            canonical(&json!({"b": 1, "a": {"d": 2, "c": 3}, "confirm": "x"})),
            r#"{"a":{"c":3,"d":2},"b":1}"#
        );
    }

    #[test]
    fn previews_never_pile_up_past_the_cap() {
        let t0 = Instant::now();
        let mut t = Tokens::new(Duration::from_secs(60));
        for i in 0..(MAX_PENDING + 10) {
            t.issue(
                "patch",
                &json!({"i": i}),
                Facts::default(),
                t0 + Duration::from_millis(i as u64),
            );
        }
        assert_eq!(t.pending.len(), MAX_PENDING);
    }
}
