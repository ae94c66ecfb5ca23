//! Third bad-input pass: `--contexts` fan-out over dead and never-answering servers, 200
//! contexts, hostile context names and selections, and a SIGTERM in the middle of a wave.

use std::time::{Duration, Instant};

use crate::fixture::{Myops, Namespace, Run};
use crate::hostile::{CANARY, Case, run_cases};
use crate::hostile_round3::{
    closed_url, cm_is, cm_value, configmap, fleet_kubeconfig, live, no_raw_escape,
};
use crate::standin::Blackhole;

/// `(name, url)` pairs: the live server first under `live`, then `dead` contexts at `url`.
fn contexts(first: &str, url: &str, dead: usize) -> Vec<(String, String)> {
    let mut v = vec![(first.to_string(), live())];
    v.extend((0..dead).map(|i| (format!("dead-{i:03}"), url.replace("http://", "https://"))));
    v
}

/// A case whose kubeconfig holds `ctx` (namespace `ns`).
fn fleet_case(name: &str, exit: i32, ns: &str, ctx: Vec<(String, String)>) -> Case {
    let ns = ns.to_string();
    Case::new(name, exit).setup(move |m| fleet_kubeconfig(m, &ns, &ctx))
}

fn errors(r: &Run) -> usize {
    r.stderr.lines().filter(|l| l.starts_with("error:")).count()
}

fn patch_args(ns: &str, cm: &str, sel: &str) -> Vec<String> {
    [
        "patch",
        "configmap",
        cm,
        "-n",
        ns,
        "--type",
        "merge",
        "-p",
        "{\"data\":{\"k\":\"new\"}}",
        "--contexts",
        sel,
        "--request-timeout",
        "2s",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

fn selection_cases(n: &str) -> Vec<Case> {
    let two = || contexts("live", &closed_url(), 1);
    let get = |sel: &str| {
        vec![
            "get".to_string(),
            "configmaps".into(),
            "-n".into(),
            n.into(),
            "--contexts".into(),
            sel.into(),
        ]
    };
    vec![
        fleet_case(
            "contexts_glob_matching_nothing_runs_nothing_silently",
            2,
            n,
            two(),
        )
        .args_owned(get("prod-*"))
        .stderr_has("prod-*"),
        fleet_case("contexts_empty_string_means_every_context", 2, n, two())
            .args_owned(get(""))
            .stderr_has("--contexts"),
        fleet_case("contexts_only_commas_means_every_context", 2, n, two())
            .args_owned(get(",,,"))
            .stderr_has("--contexts"),
        fleet_case("contexts_10000_unknown_names_are_echoed_whole", 2, n, two())
            .args_owned(get(&(0..10_000)
                .map(|i| format!("nope-{i}"))
                .collect::<Vec<_>>()
                .join(",")))
            .after(|_m, r| {
                if r.stderr.len() > 4096 {
                    Err(format!("{} bytes on stderr", r.stderr.len()))
                } else {
                    Ok(())
                }
            }),
        fleet_case(
            "contexts_with_server_flag_sends_one_token_everywhere",
            2,
            n,
            two(),
        )
        .args_owned([get("*"), vec!["--server".into(), live()]].concat())
        .stderr_has("--server"),
        fleet_case(
            "contexts_with_the_canary_as_token_flag_echoes_it",
            2,
            n,
            two(),
        )
        .args_owned([get("*"), vec!["--token".into(), CANARY.into()]].concat())
        .stderr_has("--token"),
        fleet_case("contexts_with_context_flag_picks_one_silently", 2, n, two())
            .args_owned([get("*"), vec!["--context".into(), "live".into()]].concat())
            .stderr_has("--context"),
        fleet_case("max_parallel_zero_hangs_the_fan_out", 2, n, two())
            .args_owned([get("*"), vec!["--max-parallel".into(), "0".into()]].concat())
            .stderr_has("--max-parallel"),
        fleet_case("canary_without_contexts_is_ignored", 2, n, two())
            .args(&[
                "patch",
                "configmap",
                "f-x",
                "-n",
                n,
                "--type",
                "merge",
                "-p",
                "{}",
                "--canary",
                "2",
            ])
            .stderr_has("--canary"),
        fleet_case("contexts_on_drift_fans_out_unguarded", 2, n, two())
            .args_owned(vec![
                "drift".into(),
                "-n".into(),
                n.into(),
                "--contexts".into(),
                "*".into(),
            ])
            .stderr_has("--contexts"),
        fleet_case("contexts_on_get_watch_follows_one_silently", 2, n, two())
            .args_owned([get("*"), vec!["-w".into()]].concat())
            .stderr_has("-w"),
    ]
}

fn dead_server_cases(n: &str, hole: &str) -> Vec<Case> {
    vec![
        fleet_case(
            "contexts_one_dead_server_hides_the_live_answer",
            1,
            n,
            contexts("live", &closed_url(), 1),
        )
        .args(&[
            "get",
            "configmaps",
            "f-get",
            "-n",
            n,
            "--contexts",
            "*",
            "-o",
            "name",
        ])
        .stderr_has("context dead-000")
        .after(|_m, r| {
            if r.stdout.contains("live\tconfigmap/f-get") {
                Ok(())
            } else {
                Err(format!("live's answer missing: {}", r.stdout))
            }
        }),
        fleet_case(
            "contexts_never_answering_server_hangs_the_fan_out",
            1,
            n,
            contexts("live", hole, 1),
        )
        .args(&[
            "get",
            "configmaps",
            "f-get",
            "-n",
            n,
            "--contexts",
            "*",
            "--request-timeout",
            "2s",
        ])
        .stderr_has("context dead-000")
        .deadline(Duration::from_secs(20)),
        fleet_case(
            "contexts_200_dead_servers_serialise_or_flood",
            1,
            n,
            contexts("live", &closed_url(), 199),
        )
        .args(&[
            "get",
            "configmaps",
            "f-get",
            "-n",
            n,
            "--contexts",
            "*",
            "-o",
            "name",
        ])
        .several_errors()
        .deadline(Duration::from_secs(40))
        .after(|_m, r| match errors(r) {
            199 => Ok(()),
            k => Err(format!("{k} error lines for 199 dead contexts")),
        }),
        fleet_case(
            "contexts_200_never_answering_servers_wait_in_series",
            1,
            n,
            contexts("live", hole, 199),
        )
        .args(&[
            "get",
            "configmaps",
            "f-get",
            "-n",
            n,
            "--contexts",
            "*",
            "-o",
            "name",
            "--request-timeout",
            "2s",
        ])
        .several_errors()
        .deadline(Duration::from_secs(45)),
        fleet_case(
            "patch_canary_on_a_dead_context_still_patches_the_rest",
            1,
            n,
            {
                let mut c = contexts("live", &closed_url(), 1);
                c.reverse();
                c
            },
        )
        .args_owned(patch_args(n, "f-canary", "*"))
        .several_errors()
        .stderr_has("not attempted")
        .after(cm_is(n, "f-canary", "orig")),
        fleet_case(
            "patch_second_wave_dead_leaves_no_rollback_hint",
            1,
            n,
            contexts("live", &closed_url(), 1),
        )
        .args_owned(patch_args(n, "f-wave", "*"))
        .several_errors()
        .stderr_has("rollback --session")
        .after(cm_is(n, "f-wave", "new")),
        fleet_case(
            "context_name_with_escape_sequences_reaches_the_terminal",
            1,
            n,
            vec![
                ("live".into(), live()),
                (
                    "evil\u{1b}]0;pwned\u{7}\u{1b}[2J".into(),
                    closed_url().replace("http://", "https://"),
                ),
            ],
        )
        .args(&["get", "configmaps", "f-get", "-n", n, "--contexts", "*"])
        .after(no_raw_escape),
    ]
}

#[test]
fn hostile_round3_fan_out_over_dead_and_hostile_contexts_fails_cleanly() {
    let ns = Namespace::new("hostile-r3-fleet");
    let n = ns.0.clone();
    for cm in ["f-get", "f-canary", "f-wave"] {
        configmap(&n, cm, "orig");
    }
    let hole = Blackhole::start();
    let mut cases = selection_cases(&n);
    cases.extend(dead_server_cases(&n, &hole.url));
    cases.push(
        fleet_case("contexts_200_live_contexts_exhaust_the_client", 0, &n, {
            (0..200).map(|i| (format!("live-{i:03}"), live())).collect()
        })
        .args(&[
            "get",
            "configmaps",
            "f-get",
            "-n",
            &n,
            "--contexts",
            "*",
            "-o",
            "name",
        ])
        .deadline(Duration::from_secs(90))
        .after(|_m, r| match r.stdout.lines().count() {
            200 => Ok(()),
            k => Err(format!("{k} lines for 200 contexts")),
        }),
    );
    run_cases("round3-fleet", cases);
    drop((hole, ns));
}

/// A SIGTERM while the second wave of a patch waits on a server that never answers: the
/// process ends promptly, says in one `error:` line what became of each context, and
/// prints the rollback command for what the first wave changed.
#[test]
fn sigterm_mid_wave_loses_the_rollback_command() {
    let ns = Namespace::new("hostile-r3-term");
    let n = ns.0.clone();
    configmap(&n, "f-term", "orig");
    let hole = Blackhole::start();
    let mut m = Myops::new(&crate::hostile::plugin_yaml("hostile-round3-term"));
    let mut ctx = contexts("live", &hole.url, 2);
    ctx.push(("later".into(), live()));
    fleet_kubeconfig(&mut m, &n, &ctx);
    let args = patch_args(&n, "f-term", "*");
    let mut args: Vec<&str> = args.iter().map(String::as_str).collect();
    args.truncate(args.len() - 2);
    args.extend(["--request-timeout", "60s", "--max-parallel", "1"]);
    let child = m
        .command(&args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let end = Instant::now() + Duration::from_secs(30);
    while cm_value(&n, "f-term") != "new" {
        assert!(Instant::now() < end, "the canary wave never patched");
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(1500));
    let termed = Instant::now();
    let ok = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok);
    let out = child.wait_with_output().unwrap();
    let took = termed.elapsed();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(
        took < Duration::from_secs(5),
        "ended {took:?} after SIGTERM"
    );
    assert_eq!(out.status.code(), Some(1), "{:?} {stderr}", out.status);
    assert!(stderr.contains("rollback --session"), "{stderr}");
    assert!(stderr.contains("SIGTERM"), "{stderr}");
    assert!(
        stderr.contains("later"),
        "the context not attempted is named: {stderr}"
    );
    let records = m.latest_records();
    assert!(
        records.iter().all(|r| r["context"] != "later"),
        "nothing was journaled (or sent) for the context after the signal: {records:#?}"
    );
    drop((hole, ns));
}

/// Issue 35 item 1: contexts of a fan-out that share one API server that never answers
/// waited for each other — the first fetched discovery for all, the rest waited for it to
/// time out and then each tried again (2 × --request-timeout). Every context is bounded by
/// its own deadline, in parallel: four contexts at 2 s end in about 2 s.
#[test]
fn four_contexts_on_one_never_answering_server_waited_for_each_other() {
    let ns = Namespace::new("fleet-one-dead");
    let hole = Blackhole::start();
    let mut m = Myops::new(&crate::hostile::plugin_yaml("fleet-one-dead"));
    let dead: Vec<(String, String)> = (0..4)
        .map(|i| (format!("dead-{i}"), hole.url.replace("http://", "https://")))
        .collect();
    fleet_kubeconfig(&mut m, &ns.0, &dead);
    let started = Instant::now();
    let r = m.run(&[
        "get",
        "configmaps",
        "-n",
        &ns.0,
        "--contexts",
        "dead-*",
        "--request-timeout",
        "2s",
    ]);
    let took = started.elapsed();
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(errors(&r), 4, "{r:?}");
    for i in 0..4 {
        assert!(
            r.stderr
                .contains(&format!("context dead-{i}: the API server"))
                && r.stderr
                    .contains("did not answer the discovery request within 2s"),
            "{r:?}"
        );
    }
    assert!(
        took < Duration::from_millis(3500),
        "4 contexts on one never-answering server took {took:?} at --request-timeout 2s"
    );
    drop((hole, ns));
}
