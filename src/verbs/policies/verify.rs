//! `policies verify`: proves on the cluster that the exported ValidatingAdmissionPolicies and
//! this client's judge agree (docs/policies.md, "Proving parity: policies verify").
//!
//! For each rule: its policy and binding must be on the cluster ([`installed`]; missing is
//! exit 1, outdated is exit 1 and still probed), an object of its resource is found
//! ([`object`]), and every probe change of [`crate::rules::policy::probe::probes`] is judged
//! twice — by the client judge on the patch applied locally, and by the API server as a
//! server-side dry run ([`crate::guard::probe`]) with the policies in force. Both refuse or
//! both allow, else it is a disagreement (exit 1). A probe the server answers otherwise (422,
//! 409, an RBAC 403) proves nothing and is listed as "could not probe"; a rule without any
//! agreed probe is "not probed" (exit 1: nothing was proved for it). The summary table goes
//! to stdout, every disagreement and probe that could not be judged to stderr.
//!
//! A policy just created takes a moment to be enforced (the API server loads and compiles it
//! asynchronously), so a disagreeing probe is asked again every half second while verify has
//! run for less than [`SETTLE`].

mod installed;
mod object;

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::cli::PoliciesVerifyArgs;
use crate::config::Verb;
use crate::guard::probe::{ProbeAnswer, ProbeRequest};
use crate::guard::{Grant, ObjectRef, Purpose, Session};
use crate::output::Printer;
use crate::output::table::align;
use crate::rules::policy::admission::{self, Action, Exported, Fault};
use crate::rules::policy::probe::{self, Probe, Verdict, agree, refusing, verdict};
use crate::rules::policy::{Compiled, DeletePolicy, matching};
use crate::settings::Settings;
use crate::verbs::VerbError;

use installed::Installed;

/// How long after it starts verify asks a disagreeing probe again: a policy created a moment
/// before is not enforced yet (the API server's policy informer and CEL compilation).
const SETTLE: Duration = Duration::from_secs(10);

/// What one probe showed.
enum Outcome {
    /// Both judges gave the same verdict.
    Agreed,
    /// The sentence says how they differ.
    Disagreed(String),
    /// The server's answer proves nothing (the sentence says why).
    Unknown(String),
}

/// One rule's result.
struct RuleResult {
    probes: usize,
    agreed: usize,
    object: String,
    /// `None`: probed; else why not.
    not_probed: Option<String>,
}

/// Probes the policies.
///
/// # Errors
/// Usage (2): no rules, `--actions` without Deny or Warn. Gate (3) and API errors reading the
/// policies. A disagreement, a missing or outdated policy or a rule not probed: 1, after the
/// summary.
pub async fn run(
    settings: &Settings,
    args: &PoliciesVerifyArgs,
    p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    let plugin = &settings.plugin;
    if plugin.policies.is_empty() {
        return Err(VerbError::Usage(
            "plugin.yaml has no policies: rules, so there is nothing to verify; add one (docs/policies.md)".into(),
        ));
    }
    if !args.actions.contains(&Action::Deny) && !args.actions.contains(&Action::Warn) {
        return Err(VerbError::Usage(
            "--actions Audit alone shows nothing to a client, so verify cannot see a refusal; verify bindings with Deny or Warn".into(),
        ));
    }
    // Always the generator without the test fault: verify compares the cluster with what a
    // correct export writes.
    let exported = admission::export(
        &plugin.name,
        &admission::with_plurals(&plugin.policies, &plugin.resources),
        &args.actions,
        Fault::default(),
    )
    .map_err(VerbError::Usage)?;
    let exact = !args.actions.contains(&Action::Deny);
    let session = Session::open(settings, p, Purpose::Read).await?;
    let on_cluster = installed::read(&session).await?;
    let names: Vec<(usize, String)> = exported.iter().map(|e| (e.index, e.name.clone())).collect();
    let start = Instant::now();
    let mut rows = vec![
        ["RULE", "POLICY", "OBJECT", "PROBES", "AGREED", "RESULT"]
            .map(str::to_string)
            .to_vec(),
    ];
    let mut problems: Vec<String> = Vec::new();
    let mut failed = 0usize;
    for e in &exported {
        let rule = &plugin.policies[e.index];
        let title = format!("policies[{}] ({})", e.index, rule.resource);
        let state = on_cluster.check(e);
        let exempt = if rule.exempt.is_empty() {
            None
        } else {
            exempt_user(&session, rule).await?
        };
        let result = match &state {
            _ if exempt.is_some() => RuleResult {
                probes: 0,
                agreed: 0,
                object: "-".into(),
                not_probed: exempt,
            },
            Installed::Missing(why) => RuleResult {
                probes: 0,
                agreed: 0,
                object: "-".into(),
                not_probed: Some(format!(
                    "{why}; apply the policies first (policies apply, or policies export | kubectl apply -f -)"
                )),
            },
            _ => {
                let ctx = Ctx {
                    session: &session,
                    names: &names,
                    exact,
                    start,
                };
                probe_rule(&ctx, settings, e, &mut problems, &title).await?
            }
        };
        let outcome = match (&state, &result.not_probed) {
            (_, Some(why)) => format!("not probed: {why}"),
            (Installed::Outdated(why), None) if result.agreed == result.probes => {
                format!("outdated: {why}")
            }
            (Installed::Outdated(why), None) => format!(
                "outdated: {why}; {} disagreed or could not probe",
                result.probes - result.agreed
            ),
            (_, None) if result.agreed == result.probes => "agreed".into(),
            (_, None) => format!(
                "{} disagreed or could not probe",
                result.probes - result.agreed
            ),
        };
        if !matches!(state, Installed::Current) || result.not_probed.is_some() {
            failed += 1;
        }
        rows.push(vec![
            title,
            e.name.clone(),
            result.object,
            result.probes.to_string(),
            result.agreed.to_string(),
            outcome,
        ]);
    }
    p.out(&align(&rows))?;
    // The table first, then the lines that explain it (stdout is buffered).
    p.flush()?;
    let disagreements = problems
        .iter()
        .filter(|l| l.starts_with("disagreement"))
        .count();
    // On stderr, through the one scrubber (a server message may quote a value; the CEL of
    // an evaluation error is long).
    for line in &problems {
        p.err_line(line);
    }
    if disagreements > 0 || failed > 0 {
        return Err(VerbError::io(format!(
            "policies verify: {disagreements} disagreement(s) between this client's judge and the API server, {failed} rule(s) whose policy is missing or outdated or that were not probed; the API server does not enforce what plugin.yaml says — export and apply the policies again, and report a disagreement that stays"
        )));
    }
    Ok(())
}

/// Why rule `rule` cannot be probed as the user the API server sees: its `exempt:` lets
/// them through, so its policy refuses nothing they send (`None`: it binds them).
///
/// # Errors
/// The SelfSubjectReview that cannot be made (exit 1).
async fn exempt_user(
    session: &Session<'_>,
    rule: &crate::rules::policy::PolicyRule,
) -> Result<Option<String>, VerbError> {
    let review = session
        .self_review()
        .await
        .map_err(|e| VerbError::Gate(Box::new(e)))?;
    let info = review.status.as_ref().and_then(|s| s.user_info.as_ref());
    let user = info.and_then(|u| u.username.clone()).unwrap_or_default();
    let groups = info.and_then(|u| u.groups.clone()).unwrap_or_default();
    Ok(probe::exempts(rule, &user, &groups).then(|| {
        format!(
            "the user {user:?} is exempt from it (exempt:), so its policy lets every change of theirs through; run verify as a user the rule binds (--as USER)"
        )
    }))
}

/// What every rule's probing shares.
struct Ctx<'a, 's> {
    session: &'a Session<'s>,
    names: &'a [(usize, String)],
    exact: bool,
    start: Instant,
}

/// Probes rule `e` on its object, adding a line to `problems` for every probe that did not
/// agree.
async fn probe_rule(
    ctx: &Ctx<'_, '_>,
    settings: &Settings,
    e: &Exported,
    problems: &mut Vec<String>,
    title: &str,
) -> Result<RuleResult, VerbError> {
    let rule = &settings.plugin.policies[e.index];
    let (obj, before) = match object::find(ctx.session, rule).await? {
        Ok(found) => found,
        Err(why) => {
            return Ok(RuleResult {
                probes: 0,
                agreed: 0,
                object: "-".into(),
                not_probed: Some(why),
            });
        }
    };
    let shown = obj.display();
    let rules = matching(
        &settings.plugin.policies,
        &obj.t.api.plural,
        &obj.t.api.kind,
        &obj.t.api.group,
        obj.namespace.as_deref(),
    )
    .map_err(VerbError::Usage)?;
    let probes = probe::probes(rule, &obj.t.api.kind, &before);
    let mut agreed = 0;
    let mut unknown = 0;
    let mut grants: [Option<Result<Grant, String>>; 2] = [None, None];
    for pr in &probes {
        let verb = if pr.patch.is_some() {
            Verb::Patch
        } else {
            Verb::Delete
        };
        let slot = usize::from(pr.patch.is_none());
        if grants[slot].is_none() {
            let rbac = if slot == 0 { "patch" } else { "delete" };
            grants[slot] = Some(
                ctx.session
                    .authorize(verb, &obj.t, false, &[obj.access(rbac, None)])
                    .await
                    .map_err(|e| e.to_string()),
            );
        }
        let grant = match grants[slot].as_ref() {
            Some(Ok(g)) => g,
            Some(Err(why)) => {
                unknown += 1;
                problems.push(format!(
                    "could not probe: {title} on {shown}, {}: {why}",
                    pr.what
                ));
                continue;
            }
            None => continue,
        };
        match judge(ctx, grant, &obj, &before, &rules, pr).await? {
            Outcome::Agreed => agreed += 1,
            Outcome::Disagreed(why) => {
                problems.push(format!(
                    "disagreement: {title} on {shown}, {}: {why}",
                    pr.what
                ));
            }
            Outcome::Unknown(why) => {
                unknown += 1;
                problems.push(format!(
                    "could not probe: {title} on {shown}, {}: {why}",
                    pr.what
                ));
            }
        }
    }
    let not_probed = if probes.is_empty() {
        Some(format!("no probe reaches a denied path of {shown}"))
    } else if agreed == 0 && unknown == probes.len() {
        Some("no probe could be judged by the API server (see the lines below)".into())
    } else {
        None
    };
    Ok(RuleResult {
        probes: probes.len(),
        agreed,
        object: shown,
        not_probed,
    })
}

/// The two verdicts on one probe, the server asked again while a disagreement may be a
/// policy not enforced yet ([`SETTLE`]).
async fn judge(
    ctx: &Ctx<'_, '_>,
    grant: &Grant,
    obj: &ObjectRef,
    before: &Value,
    rules: &[Compiled],
    pr: &Probe,
) -> Result<Outcome, VerbError> {
    let client: Vec<usize> = match &pr.patch {
        Some(patch) => match probe::apply(before, patch) {
            Ok(after) => refusing(rules, before, &after),
            Err(e) => {
                return Ok(Outcome::Unknown(format!(
                    "the probe does not apply here: {e}"
                )));
            }
        },
        None => rules
            .iter()
            .filter(|r| r.rule.delete == DeletePolicy::Deny)
            .map(|r| r.index)
            .collect(),
    };
    let uid = before["metadata"]["uid"].as_str();
    loop {
        let req = match &pr.patch {
            Some(patch) => ProbeRequest::Patch(patch),
            None => ProbeRequest::Delete(uid),
        };
        let answer = ctx.session.probe(grant, obj, req).await?;
        let server = verdict(answer.code, &answer.message, &answer.warnings, ctx.names);
        if agree(&client, &server, ctx.exact) {
            return Ok(Outcome::Agreed);
        }
        if let Verdict::Unknown(why) = &server {
            return Ok(Outcome::Unknown(why.clone()));
        }
        if ctx.start.elapsed() < SETTLE {
            tokio::time::sleep(Duration::from_millis(500)).await;
            continue;
        }
        return Ok(settled_disagreement(
            &client, &server, before, rules, &answer,
        ));
    }
}

/// A disagreement that stayed, unless the server allowed a change it did not keep (a field
/// it drops or resets): the judge finds nothing refused in the object it answered with, so
/// the probe proves nothing.
fn settled_disagreement(
    client: &[usize],
    server: &Verdict,
    before: &Value,
    rules: &[Compiled],
    answer: &ProbeAnswer,
) -> Outcome {
    if let (Verdict::Allowed, Some(stored)) = (server, &answer.object)
        && refusing(rules, before, stored).is_empty()
    {
        return Outcome::Unknown(
            "the API server allowed it but did not keep the change (a field it drops or resets)"
                .into(),
        );
    }
    let rules_text = |v: &[usize]| -> String {
        v.iter()
            .map(|i| format!("policies[{i}]"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let ours = if client.is_empty() {
        "plugin.yaml allows it".to_string()
    } else {
        format!("plugin.yaml refuses it ({})", rules_text(client))
    };
    let theirs = match server {
        Verdict::Allowed => "the API server allows it".to_string(),
        Verdict::Refused(by) => format!("the API server refuses it ({})", rules_text(by)),
        Verdict::Unknown(why) => why.clone(),
    };
    Outcome::Disagreed(format!("{ours}, {theirs}"))
}
