//! `metrics show|push|reset|delete`: the local cumulative totals and this state directory's
//! group on the Pushgateway (docs/design.md, "Metrics"; docs/metrics.md).

use std::io::IsTerminal;

use serde_json::json;

use crate::cli::{MetricsCommand, MetricsFormat};
use crate::metrics::{self, State};
use crate::output::table::OwnTable;
use crate::output::{Printer, to_json};
use crate::settings::Settings;
use crate::verbs::VerbError;

/// Runs a `metrics` subcommand.
///
/// # Errors
/// [`VerbError::Io`] when the state cannot be read or written, or the push fails (exit 1);
/// [`VerbError::Usage`] when `reset` would need a confirmation nobody can give, or `push` /
/// `delete` have no Pushgateway configured.
pub async fn run(s: &Settings, cmd: &MetricsCommand, p: &mut Printer<'_>) -> Result<(), VerbError> {
    let state = |s: &Settings| metrics::load(&s.home).map_err(VerbError::io);
    match cmd {
        MetricsCommand::Show { output } => {
            let st = state(s)?;
            match output {
                MetricsFormat::Json => p.out(&to_json(&as_json(&st))?)?,
                MetricsFormat::Table if st.is_empty() => {
                    p.err_line(&format!("No metrics recorded yet in {}.", s.home.display()))
                }
                MetricsFormat::Table => p.out(&as_table(&st).render(false))?,
            }
        }
        MetricsCommand::Push => {
            let target = configured(s)?;
            let st = state(s)?;
            if st.is_empty() {
                p.err_line("Nothing to push: no metrics recorded yet.");
                return Ok(());
            }
            let st = metrics::load_with_id(&s.home).map_err(VerbError::io)?;
            let Some(group) = metrics::group_target(target, &st) else {
                return Err(VerbError::io(format!(
                    "the metrics state in {} has no state id; run any command again",
                    s.home.display()
                )));
            };
            metrics::push(&group, metrics::encode(&st, &s.plugin.metrics))
                .await
                .map_err(|e| {
                    VerbError::io(format!(
                        "push to {} failed: {e}",
                        metrics::redact_url(&group.url)
                    ))
                })?;
            for w in metrics::settle_group(&s.home, &group, st.pushed_group.as_deref()).await {
                p.err_line(&w);
            }
            p.out(&format!("pushed to {}\n", metrics::redact_url(&group.url)))?;
        }
        MetricsCommand::Delete => {
            let target = configured(s)?;
            let deleted = metrics::delete_groups(&s.home, target)
                .await
                .map_err(VerbError::io)?;
            if deleted.is_empty() {
                p.err_line(&format!(
                    "Nothing to delete: no metrics recorded yet in {}.",
                    s.home.display()
                ));
            }
            for url in deleted {
                p.out(&format!("deleted the Pushgateway group {url}\n"))?;
            }
        }
        MetricsCommand::Reset { yes } => {
            if !yes {
                if !std::io::stdin().is_terminal() {
                    return Err(VerbError::Usage(
                        "metrics reset deletes the local totals; pass --yes to confirm".into(),
                    ));
                }
                p.err_line(&format!(
                    "Delete the metric totals in {}? [y/N]",
                    s.home.display()
                ));
                let mut answer = String::new();
                let _ = std::io::stdin().read_line(&mut answer);
                if !matches!(answer.trim(), "y" | "Y" | "yes") {
                    p.err_line("Not reset.");
                    return Ok(());
                }
            }
            metrics::reset(&s.home).map_err(VerbError::io)?;
            p.out("metrics reset\n")?;
            if let Some(target) = &s.push_target {
                let deleted = metrics::delete_groups(&s.home, target)
                    .await
                    .map_err(|e| {
                        VerbError::io(format!(
                            "the local totals were reset, but {e}; run `kubectl myops metrics delete` once the Pushgateway is reachable"
                        ))
                    })?;
                for url in deleted {
                    p.out(&format!("deleted the Pushgateway group {url}\n"))?;
                }
            }
        }
    }
    Ok(())
}

/// The Pushgateway target, or the usage error saying how to configure one.
fn configured(s: &Settings) -> Result<&metrics::PushTarget, VerbError> {
    s.push_target.as_ref().ok_or_else(|| {
        VerbError::Usage(
            "no Pushgateway configured: set pushgateway.url in plugin.yaml, MYOPS_PUSHGATEWAY or --pushgateway".into(),
        )
    })
}

/// The totals as JSON (pure).
pub fn as_json(st: &State) -> serde_json::Value {
    let ops: Vec<_> = st
        .ops
        .iter()
        .map(|(k, t)| json!({"plugin": k.plugin, "verb": k.verb, "resource": k.resource, "status": k.status.as_str(), "count": t.count, "sumSeconds": t.sum_seconds}))
        .collect();
    let loads: Vec<_> = st
        .crd_loads
        .iter()
        .map(|(k, n)| json!({"plugin": k.plugin, "result": k.result.as_str(), "count": n}))
        .collect();
    json!({"ops": ops, "crdLoads": loads})
}

/// A label value from the state file as a table cell: control characters escaped (`\u{1b}`),
/// since the file is anyone's to edit and the table goes to a terminal.
fn printable(label: &str) -> String {
    crate::base::echo::escaped(label)
}

/// The totals as a table (pure): one row per series, mean duration in seconds.
pub fn as_table(st: &State) -> OwnTable {
    let mean = |t: &metrics::OpTotals| {
        if t.count == 0 {
            0.0
        } else {
            t.sum_seconds / t.count as f64
        }
    };
    let mut table = OwnTable::new(["Verb", "Resource", "Status", "Count", "Mean-Seconds"]);
    for (k, t) in &st.ops {
        table.row([
            printable(&k.verb),
            printable(&k.resource),
            k.status.as_str().to_string(),
            t.count.to_string(),
            format!("{:.3}", mean(t)),
        ]);
    }
    for (k, n) in &st.crd_loads {
        let m = st
            .crd_load_durations
            .get(&k.plugin)
            .map(mean)
            .unwrap_or(0.0);
        table.row([
            "crd-load".to_string(),
            "customresourcedefinitions".to_string(),
            k.result.as_str().to_string(),
            n.to_string(),
            format!("{m:.3}"),
        ]);
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::{Observation, Status};

    #[test]
    fn escape_sequences_in_state_labels_never_reach_the_terminal() {
        let mut st = State::default();
        st.observe(
            "myops",
            &Observation {
                verb: "get".into(),
                resource: "pods\u{1b}[2J".into(),
                status: Status::Success,
                duration_seconds: 0.1,
                client: "cli",
            },
        );
        let out = as_table(&st).render(false);
        assert!(!out.contains('\u{1b}'), "{out}");
        assert!(out.contains("pods\\u{1b}[2J"), "{out}");
    }

    #[test]
    fn show_with_myops_home_a_file_is_an_error_naming_the_path_not_an_empty_table() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home-is-a-file");
        std::fs::write(&home, "x").unwrap();
        let e = metrics::load(&home).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "MYOPS_HOME {} is a regular file, not a directory; point MYOPS_HOME at a directory (default ~/.kube/myops) or move that away",
                home.display()
            )
        );
        assert_eq!(e.exit_status(), crate::exit::ExitStatus::Failure);
    }

    #[test]
    fn table_and_json_show_the_recorded_totals() {
        let home = tempfile::tempdir().unwrap();
        for (status, d) in [
            (Status::Success, 0.25),
            (Status::Success, 0.75),
            (Status::Denied, 0.5),
        ] {
            let obs = Observation {
                verb: "get".into(),
                resource: "pods".into(),
                status,
                duration_seconds: d,
                client: "cli",
            };
            metrics::record(home.path(), "myops", &obs).unwrap();
        }
        let st = metrics::load(home.path()).unwrap();
        let out = as_table(&st).render(false);
        assert_eq!(
            out,
            "VERB   RESOURCE   STATUS    COUNT   MEAN-SECONDS\nget    pods       success   2       0.500\nget    pods       denied    1       0.500\n"
        );
        let v = as_json(&st);
        assert_eq!(v["ops"][0]["count"], 2);
        assert_eq!(v["ops"][0]["sumSeconds"], 1.0);
    }
}
