//! Third bad-input pass: the Pushgateway groups (`metrics delete`, `metrics reset`, the old
//! group deleted when the grouping key changes) against a gateway that answers 400 or 500
//! with huge bodies, redirects to another host, never answers, or sends an endless body —
//! with the basic-auth password planted as the canary.

use std::path::Path;
use std::time::Duration;

use crate::fixture::{Myops, Run, cluster};
use crate::hostile::{CANARY, Case, run_cases};
use crate::hostile_round3::{Answer, Standin, closed_url, home_of, no_raw_escape};
use crate::standin::Blackhole;

/// A plugin.yaml pushing to `url` with basic auth (password from `pw`).
fn plugin_to(url: &str, pw: &Path) -> String {
    format!(
        "name: myops\nverbs: [get]\nresources: [pods, namespaces]\nscopes: [namespace, cluster]\nmetrics: [ops_total]\npushgateway:\n  url: {url}\n  job: hostile-round3-groups\n  instance: hostile\n  timeout: 1s\n  basicAuth: {{username: ops, passwordFile: {}}}\n",
        pw.display()
    )
}

/// A version-1 state with one series and a state id, and `pushed` as its last group.
fn state(pushed: Option<&str>) -> String {
    let b = vec!["1"; 13].join(",");
    let group = pushed
        .map(|g| format!(",\"pushedGroup\":{}", serde_json::to_string(g).unwrap()))
        .unwrap_or_default();
    format!(
        r#"{{"version":1,"ops":[{{"plugin":"myops","verb":"get","resource":"pods","status":"success","count":1,"sum":0.1,"buckets":[{b}]}}],"stateId":"0123456789ab"{group}}}"#
    )
}

fn with_state(text: String) -> impl Fn(&mut Myops) + Send + Sync + 'static {
    move |m: &mut Myops| {
        let home = home_of(m);
        std::fs::create_dir_all(&home).unwrap();
        std::fs::write(home.join("metrics-state.json"), &text).unwrap();
    }
}

/// The local totals still count the planted series (`metrics delete` keeps them).
fn totals_kept(m: &Myops, _r: &Run) -> Result<(), String> {
    let text = std::fs::read_to_string(home_of(m).join("metrics-state.json"))
        .map_err(|e| e.to_string())?;
    if text.contains("\"count\":1") {
        Ok(())
    } else {
        Err(format!("the local totals changed: {text}"))
    }
}

fn short_stderr(_m: &Myops, r: &Run) -> Result<(), String> {
    if r.stderr.len() > 4096 {
        Err(format!("{} bytes on stderr", r.stderr.len()))
    } else {
        no_raw_escape(_m, r)
    }
}

fn group_case(name: &str, exit: i32, verb: &str, url: &str, pw: &Path) -> Case {
    Case::new(name, exit)
        .args(&["metrics", verb])
        .plugin(&plugin_to(url, pw))
        .setup(with_state(state(None)))
        .deadline(Duration::from_secs(15))
}

#[test]
fn hostile_round3_pushgateway_groups_fail_cleanly() {
    let secrets = tempfile::tempdir().unwrap();
    let pw = secrets.path().join("pw");
    std::fs::write(&pw, CANARY).unwrap();
    let g500 = Standin::start(Answer::Status(500, 50 << 20));
    let g400 = Standin::start(Answer::Status(400, 3000));
    let g404 = Standin::start(Answer::Status(404, 10));
    let elsewhere = Standin::start(Answer::Status(202, 0));
    let redirect = Standin::start(Answer::RedirectTo(format!(
        "{}/metrics/job/x",
        elsewhere.url
    )));
    let endless = Standin::start(Answer::Endless);
    let hole = Blackhole::start();
    let closed = closed_url();
    let cases = vec![
        group_case(
            "metrics_delete_gateway_500_with_a_50_mb_body_floods_stderr",
            1,
            "delete",
            &g500.url,
            &pw,
        )
        .stderr_has("HTTP 500")
        .after(|m, r| {
            short_stderr(m, r)?;
            totals_kept(m, r)
        }),
        group_case(
            "metrics_delete_gateway_400_reports_success",
            1,
            "delete",
            &g400.url,
            &pw,
        )
        .stderr_has("HTTP 400")
        .after(|m, r| {
            short_stderr(m, r)?;
            totals_kept(m, r)
        }),
        group_case(
            "metrics_delete_gateway_404_is_taken_as_deleted",
            1,
            "delete",
            &g404.url,
            &pw,
        )
        .stderr_has("HTTP 404")
        .after(totals_kept),
        group_case(
            "metrics_reset_gateway_500_keeps_the_totals_silently",
            1,
            "reset",
            &g500.url,
            &pw,
        )
        .args(&["metrics", "reset", "--yes"])
        .stderr_has("metrics delete")
        .after(short_stderr),
        group_case(
            "metrics_delete_redirect_to_another_host_follows_with_the_password",
            1,
            "delete",
            &redirect.url,
            &pw,
        )
        .stderr_has("HTTP 302"),
        group_case(
            "metrics_delete_to_a_blackhole_hangs",
            1,
            "delete",
            &hole.url,
            &pw,
        )
        .stderr_has("no answer within"),
        group_case(
            "metrics_delete_to_a_closed_port_clears_the_group_anyway",
            1,
            "delete",
            &closed,
            &pw,
        )
        .after(totals_kept),
        group_case(
            "metrics_push_to_an_endless_200_body_hangs",
            0,
            "push",
            &endless.url,
            &pw,
        ),
        group_case(
            "metrics_reset_to_a_redirect_loop_clears_nothing",
            1,
            "reset",
            &redirect.url,
            &pw,
        )
        .args(&["metrics", "reset", "--yes"])
        .stderr_has("HTTP 302"),
        Case::new("old_group_delete_answering_500_fails_the_command", 0)
            .args(&["get", "namespaces", "default"])
            .plugin(&plugin_to(&cluster().pushgateway, &pw))
            .setup(with_state(state(Some(&format!(
                "{}/metrics/job/old/instance/x/state_id/0123456789ab",
                g500.url
            )))))
            .stderr_has("curl -X DELETE")
            .after(short_stderr),
        Case::new("old_group_with_the_canary_as_userinfo_is_printed", 0)
            .args(&["get", "namespaces", "default"])
            .plugin(&plugin_to(&cluster().pushgateway, &pw))
            .setup(with_state(state(Some(&format!(
                "{}/metrics/job/old",
                closed.replace("http://", &format!("http://ops:{CANARY}@"))
            )))))
            .stderr_has("deleting their old group"),
        Case::new(
            "old_group_of_garbage_with_escape_sequences_reaches_the_terminal",
            0,
        )
        .args(&["get", "namespaces", "default"])
        .plugin(&plugin_to(&cluster().pushgateway, &pw))
        .setup(with_state(state(Some(
            "not a url \u{1b}]0;pwned\u{7}\u{1b}[2J",
        ))))
        .after(no_raw_escape),
        Case::new(
            "metrics_delete_with_an_old_group_on_another_host_sends_it_the_password",
            0,
        )
        .args(&["metrics", "delete"])
        .plugin(&plugin_to(&cluster().pushgateway, &pw))
        .setup(with_state(state(Some(&format!(
            "{}/metrics/job/old",
            elsewhere.url
        ))))),
    ];
    run_cases("round3-groups", cases);
    for s in elsewhere.seen() {
        assert!(
            !s.to_ascii_lowercase().contains("authorization"),
            "the password went to another host: {s}"
        );
    }
    drop((
        g500, g400, g404, redirect, elsewhere, endless, hole, secrets,
    ));
}
