//! `protect status`: the rules that hold for the current context and server (HERE: whether
//! their `namespaces` admit the namespace in effect), the lifts of that context in force, and
//! the lifts not honoured, with why.

use serde::Serialize;

use super::plan::{Judged, admits, holding, judge};
use crate::base::echo::capped;
use crate::cli::ProtectFormat;
use crate::guard::protect::lifts;
use crate::guard::{Purpose, Session};
use crate::output::table::OwnTable;
use crate::output::{Printer, to_json};
use crate::rules::protect::{Lift, ProtectRule, duration_text};
use crate::settings::Settings;
use crate::verbs::VerbError;

/// The widest cell, in characters (as `changelog list`).
const MAX_CELL: usize = 600;

/// What `protect status -o json` prints.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Status<'a> {
    /// The kubeconfig context, if any.
    pub context: Option<&'a str>,
    /// The API server URL (without userinfo).
    pub server: &'a str,
    /// The namespace in effect: `-n`, else the context's, else `default`.
    pub namespace: &'a str,
    /// The rules that hold for the context or server, whatever their namespaces and verbs.
    pub rules: Vec<Held<'a>>,
    /// The lifts of this context in force.
    pub lifts: Vec<&'a Lift>,
    /// The lifts of this context not honoured, with why.
    pub ignored: Vec<Ignored<'a>>,
    /// Why the lifts file itself is not trusted, if it is not.
    pub warnings: Vec<String>,
}

/// One rule that holds, with its place in `protect:`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Held<'a> {
    /// Its index in `protect:` (0-based: `protect[0]`, as every protection message names it).
    pub index: usize,
    /// Whether its `namespaces` (when given) admit the namespace in effect.
    pub in_namespace: bool,
    /// The rule as plugin.yaml writes it.
    #[serde(flatten)]
    pub spec: &'a ProtectRule,
}

/// A stored lift that is not honoured.
#[derive(Debug, Serialize)]
pub struct Ignored<'a> {
    /// The lift.
    pub lift: &'a Lift,
    /// Why it is ignored (one sentence).
    pub warning: String,
}

/// Runs `protect status` (nothing sent: see the module doc of [`super`]).
///
/// # Errors
/// The session's configuration errors; output errors.
pub async fn run(
    s: &Settings,
    format: ProtectFormat,
    p: &mut Printer<'_>,
) -> Result<(), VerbError> {
    let session = Session::open(s, p, Purpose::Read).await?;
    let (context, server) = (session.context(), session.server());
    let (stored, warnings) = lifts::load(&s.home);
    let now = jiff::Timestamp::now();
    let mut in_force = Vec::new();
    let mut ignored = Vec::new();
    for l in stored
        .iter()
        .filter(|l| Some(l.context.as_str()) == context)
    {
        match judge(l, &s.plugin.protect, &l.context, server, now) {
            Judged::InForce => in_force.push(l),
            Judged::Ended => {}
            Judged::Ignored(warning) => ignored.push(Ignored { lift: l, warning }),
        }
    }
    let namespace = session.namespace();
    let status = Status {
        context,
        server,
        namespace,
        rules: holding(&s.plugin.protect, context, server)
            .into_iter()
            .map(|(i, spec)| Held {
                index: i,
                in_namespace: admits(spec, Some(namespace)),
                spec,
            })
            .collect(),
        lifts: in_force,
        ignored,
        warnings,
    };
    for w in &status.warnings {
        p.err_line(w);
    }
    match format {
        ProtectFormat::Json => p.out(&to_json(&status)?)?,
        ProtectFormat::Table => print_tables(&status, p)?,
    }
    for i in &status.ignored {
        p.err_line(&format!("warning: {}", i.warning));
    }
    Ok(())
}

/// The text form: the context and server, the rules table, the lifts table.
fn print_tables(st: &Status<'_>, p: &mut Printer<'_>) -> Result<(), VerbError> {
    let ctx = st.context.map_or("<none>".to_string(), |c| capped(c, 200));
    p.out(&format!(
        "Context:   {ctx}\nServer:    {}\nNamespace: {}\n",
        capped(st.server, 200),
        capped(st.namespace, 200)
    ))?;
    if st.rules.is_empty() {
        p.out(
            "Protection: none (no plugin.yaml protect: rule holds for this context or server)\n",
        )?;
    } else {
        let mut t = OwnTable::new([
            "Rule",
            "Mode",
            "Here",
            "Namespaces",
            "Verbs",
            "Reason",
            "Max-Lift",
            "Message",
        ]);
        for h in &st.rules {
            let r = h.spec;
            let list = |v: Option<Vec<String>>| v.map_or("*".to_string(), |v| v.join(","));
            t.row(
                [
                    format!("protect[{}]", h.index),
                    r.mode.as_str().to_string(),
                    if h.in_namespace { "yes" } else { "no" }.to_string(),
                    list(r.namespaces.clone()),
                    list(
                        r.verbs
                            .as_ref()
                            .map(|v| v.iter().map(|v| v.as_str().to_string()).collect()),
                    ),
                    if r.require_reason {
                        "required"
                    } else {
                        "optional"
                    }
                    .to_string(),
                    duration_text::format(r.max_lift),
                    r.message.clone().unwrap_or_default(),
                ]
                .map(|c| capped(&c, MAX_CELL)),
            );
        }
        p.out("\n")?;
        p.out(&t.render(false))?;
    }
    if st.lifts.is_empty() {
        p.out("\nLifts: none in force\n")?;
        return Ok(());
    }
    let mut t = OwnTable::new(["Lift", "Namespace", "Until", "Reason"]);
    for l in &st.lifts {
        t.row(
            [
                l.id.clone(),
                l.namespace.clone().unwrap_or_else(|| "*".into()),
                l.until.to_string(),
                l.reason.clone().unwrap_or_default(),
            ]
            .map(|c| capped(&c, MAX_CELL)),
        );
    }
    p.out("\n")?;
    p.out(&t.render(false))?;
    Ok(())
}
