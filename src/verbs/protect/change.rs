//! `protect lift DURATION` and `protect end`: the lifts file rewritten under its lock, each
//! journaled write-ahead (the intent before the file is replaced, the outcome after).

use serde_json::json;

use super::plan::{NoLift, lift_limit, reasons_required, with_lift, without_lifts};
use super::{ProtectError, in_namespace};
use crate::base::echo::capped;
use crate::base::fsutil;
use crate::changelog::{self, Entry, MYOPS_API_VERSION, Operation, PROTECTION_LIFT};
use crate::guard::mutation::Intent;
use crate::guard::protect::lifts;
use crate::guard::{Purpose, Session};
use crate::output::Printer;
use crate::rules::protect::{Lift, duration_text};
use crate::settings::Settings;
use crate::verbs::VerbError;

/// The namespace `-n` names, if given: a lift without one is of the whole context (the
/// context's default namespace is not a choice the user made).
fn namespace(s: &Settings) -> Option<&str> {
    s.kube.namespace.as_deref().filter(|ns| !ns.is_empty())
}

/// The session of a lift or an end: the change log proven writable first, then the
/// kubeconfig context and server (nothing sent), and the context it is of.
async fn open<'s>(
    s: &'s Settings,
    p: &mut Printer<'_>,
) -> Result<(Session<'s>, String), VerbError> {
    let session = Session::open(s, p, Purpose::Record).await?;
    let context = session
        .context()
        .map(str::to_string)
        .ok_or(ProtectError::NoContext)?;
    Ok((session, context))
}

/// The intent record of a lift or an end of `context` (`namespace`), with `patch` saying
/// what it did.
async fn intent(
    session: &Session<'_>,
    operation: Operation,
    context: &str,
    namespace: Option<&str>,
    patch: serde_json::Value,
) -> Entry {
    session
        .intent(Intent {
            operation,
            api_version: MYOPS_API_VERSION,
            kind: PROTECTION_LIFT,
            namespace,
            name: context,
            patch_type: None,
            patch: Some(patch),
            dry_run: false,
            before: None,
        })
        .await
}

/// Journals `entry` write-ahead around `write`: the intent, then `write` (the lifts file
/// replaced), then the outcome — `success`, or the write's error (then returned).
async fn journaled(
    session: &Session<'_>,
    s: &Settings,
    entry: Entry,
    write: impl FnOnce() -> std::io::Result<()>,
) -> Result<(), VerbError> {
    session
        .journal_complete(entry.clone(), changelog::PENDING.to_string())
        .await?;
    match write() {
        Ok(()) => Ok(session
            .journal_complete(entry, changelog::SUCCESS.to_string())
            .await?),
        Err(e) => {
            session
                .journal_complete(entry, format!("error: {e}"))
                .await?;
            Err(ProtectError::Lifts {
                path: lifts::path(&s.home).display().to_string(),
                source: e,
            }
            .into())
        }
    }
}

/// Runs `protect lift DURATION`.
///
/// # Errors
/// [`ProtectError`]: a bad DURATION, one longer than the rules allow, nothing to lift, no
/// `--reason` where a rule requires one (2), only `block` rules (3), no context (2), the file not written (1); the session's errors.
pub async fn lift(s: &Settings, duration: &str, p: &mut Printer<'_>) -> Result<(), VerbError> {
    let asked = duration_text::parse(duration).map_err(ProtectError::Duration)?;
    let ns = namespace(s);
    let (session, context) = open(s, p).await?;
    let server = session.server().to_string();
    let max = lift_limit(&s.plugin.protect, Some(&context), &server, ns).map_err(|e| match e {
        NoLift::NoRule => ProtectError::NothingToLift {
            context: capped(&context, 200),
            ns: in_namespace(ns),
            server: capped(&server, 200),
        },
        NoLift::OnlyBlock(rules) => ProtectError::OnlyBlock {
            context: capped(&context, 200),
            ns: in_namespace(ns),
            rules: rules
                .iter()
                .map(|i| format!("protect[{i}]"))
                .collect::<Vec<_>>()
                .join(", "),
        },
    })?;
    if asked > max {
        return Err(ProtectError::TooLong {
            asked: duration_text::format(asked),
            max: duration_text::format(max),
            context: capped(&context, 200),
        }
        .into());
    }
    let needs_reason = reasons_required(&s.plugin.protect, Some(&context), &server, ns);
    if !needs_reason.is_empty() && s.protect.reason.is_none() {
        return Err(ProtectError::ReasonRequired {
            context: capped(&context, 200),
            ns: in_namespace(ns),
            rules: needs_reason
                .iter()
                .map(|i| format!("protect[{i}]"))
                .collect::<Vec<_>>()
                .join(", "),
        }
        .into());
    }
    let lock_path = lifts::lock_path(&s.home);
    let _lock = fsutil::lock_exclusive(&lock_path).map_err(|e| ProtectError::Lifts {
        path: lock_path.display().to_string(),
        source: e,
    })?;
    let (stored, warnings) = lifts::load(&s.home);
    for w in &warnings {
        p.err_line(w);
    }
    // Whole seconds: the lift is shown and compared as people read times.
    let now = jiff::Timestamp::now();
    let granted = jiff::Timestamp::from_second(now.as_second()).unwrap_or(now);
    let until = granted
        .checked_add(jiff::SignedDuration::try_from(asked).unwrap_or(jiff::SignedDuration::ZERO))
        .unwrap_or(granted);
    let entry = intent(
        &session,
        Operation::ProtectLift,
        &context,
        ns,
        json!({"duration": duration_text::format(asked), "until": until.to_string()}),
    )
    .await;
    let new = Lift {
        id: entry.id.clone(),
        context: context.clone(),
        server,
        namespace: ns.map(str::to_string),
        granted,
        until,
        reason: s.protect.reason.clone(),
    };
    let id = entry.id.clone();
    journaled(&session, s, entry, || {
        lifts::save(&s.home, &with_lift(stored, new, granted))
    })
    .await?;
    p.out(&format!(
        "protection of context {}{} lifted until {until} ({}): lift {id}\n",
        capped(&context, 200),
        in_namespace(ns),
        duration_text::format(asked),
    ))?;
    Ok(())
}

/// Runs `protect end`.
///
/// # Errors
/// [`ProtectError`]: no lift to end (4), no context (2), the file not written (1); the
/// session's errors.
pub async fn end(s: &Settings, p: &mut Printer<'_>) -> Result<(), VerbError> {
    let ns = namespace(s);
    let (session, context) = open(s, p).await?;
    let lock_path = lifts::lock_path(&s.home);
    let _lock = fsutil::lock_exclusive(&lock_path).map_err(|e| ProtectError::Lifts {
        path: lock_path.display().to_string(),
        source: e,
    })?;
    let (stored, warnings) = lifts::load(&s.home);
    for w in &warnings {
        p.err_line(w);
    }
    let (kept, ended) = without_lifts(stored, &context, ns, jiff::Timestamp::now());
    if ended.is_empty() {
        return Err(ProtectError::NoLift {
            context: capped(&context, 200),
            ns: in_namespace(ns),
        }
        .into());
    }
    let ids: Vec<&str> = ended.iter().map(|l| l.id.as_str()).collect();
    let entry = intent(
        &session,
        Operation::ProtectEnd,
        &context,
        ns,
        json!({"ended": ids}),
    )
    .await;
    journaled(&session, s, entry, || lifts::save(&s.home, &kept)).await?;
    for l in &ended {
        p.out(&format!(
            "lift {} of context {}{} ended\n",
            l.id,
            capped(&context, 200),
            in_namespace(l.namespace.as_deref())
        ))?;
    }
    Ok(())
}
