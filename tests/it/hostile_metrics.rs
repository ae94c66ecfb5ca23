//! Bad-input cases, classes 6 and 7 of issue 10: the metrics side. MYOPS_HOME in every odd
//! state (a file, a FIFO, a device, a dangling link, read-only), the state file corrupt,
//! truncated, not UTF-8, a FIFO, huge, with numbers it cannot hold, a counter at 2⁶⁴−1 that
//! is then incremented; and a Pushgateway that is down, a blackhole, slow, answers 400, 401,
//! 500, 503, redirects to itself or speaks no HTTP — with the basic-auth password (from a
//! passwordFile) planted as the canary.
//!
//! The contract (ARCHITECTURE §6): a failed push or an unusable state is a warning for a verb,
//! never a different exit code; `metrics show|push|reset` report it as their error (exit 1:
//! the local state could not be used, as for the change log); nothing hangs past the push
//! timeout; the state is never corrupted by arithmetic.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::fixture::{Myops, Namespace, Run, cluster, free_port};
use crate::hostile::{CANARY, Case, run_cases};
use crate::standin::Blackhole;

/// How a stand-in gateway answers every request.
#[derive(Clone, Copy)]
enum Answer {
    /// This status, with the request's headers (the Authorization header included) and the
    /// decoded basic-auth credentials echoed in the body, as a careless proxy would.
    Status(u16),
    /// `307` to the very same URL, forever.
    RedirectToItself,
    /// `200` after this long (longer than the push timeout).
    Slow(Duration),
    /// Bytes that are not HTTP.
    Garbage,
}

/// A stand-in Pushgateway on 127.0.0.1; stops when dropped.
struct Gateway {
    url: String,
    stop: Arc<AtomicBool>,
    addr: std::net::SocketAddr,
}

impl Gateway {
    fn start(answer: Answer) -> Gateway {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let stopping = stop.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stopping.load(Ordering::SeqCst) {
                    break;
                }
                if let Ok(s) = stream {
                    std::thread::spawn(move || serve(s, answer));
                }
            }
        });
        Gateway {
            url: format!("http://{addr}"),
            stop,
            addr,
        }
    }
}

impl Drop for Gateway {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(self.addr);
    }
}

/// Reads one request (headers and a Content-Length body) and answers it, then closes.
fn serve(stream: TcpStream, answer: Answer) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let mut r = BufReader::new(stream.try_clone().unwrap());
    let mut head = Vec::new();
    let mut line = String::new();
    let mut path = String::new();
    let mut length = 0usize;
    loop {
        line.clear();
        if r.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let l = line.trim_end().to_string();
        if l.is_empty() {
            break;
        }
        if path.is_empty() {
            path = l.split(' ').nth(1).unwrap_or("/").to_string();
        }
        if let Some(v) = l.to_ascii_lowercase().strip_prefix("content-length:") {
            length = v.trim().parse().unwrap_or(0);
        }
        head.push(l);
    }
    let mut body = vec![0; length];
    let _ = r.read_exact(&mut body);
    let mut w = stream;
    let reply = match answer {
        Answer::Status(code) => {
            use base64::Engine;
            let decoded: Vec<String> = head
                .iter()
                .filter_map(|h| h.split_once("Basic ").map(|(_, b)| b.to_string()))
                .filter_map(|b| base64::engine::general_purpose::STANDARD.decode(b).ok())
                .map(|b| String::from_utf8_lossy(&b).into_owned())
                .collect();
            let text = format!(
                "rejected \u{1b}[2J{}\nyou sent: {}\ncredentials: {}\n",
                "x".repeat(2000),
                head.join("\n"),
                decoded.join(",")
            );
            format!(
                "HTTP/1.1 {code} Nope\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}",
                text.len()
            )
        }
        Answer::RedirectToItself => format!(
            "HTTP/1.1 307 Temporary Redirect\r\nLocation: {path}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        ),
        Answer::Slow(d) => {
            std::thread::sleep(d);
            "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".to_string()
        }
        Answer::Garbage => "\u{1b}[2J SSH-2.0-OpenSSH_9.6\r\n\r\n".to_string(),
    };
    let _ = w.write_all(reply.as_bytes());
    let _ = w.flush();
}

/// A plugin.yaml pushing to `url` with basic auth (user `ops`, password from `pw_file`).
fn plugin_to(url: &str, pw_file: &Path) -> String {
    format!(
        "name: myops\nverbs: [get, patch]\nresources: [pods, configmaps, secrets, namespaces, customresourcedefinitions]\nscopes: [namespace, cluster]\nmetrics: [ops_total, ops_errors_total, ops_duration_seconds, crd_loads_total, crd_load_duration_seconds]\npushgateway:\n  url: {url}\n  job: hostile-metrics-standin\n  instance: hostile\n  timeout: 1s\n  basicAuth: {{username: ops, passwordFile: {}}}\n",
        pw_file.display()
    )
}

/// The MYOPS_HOME a case runs with.
fn home_of(m: &Myops) -> PathBuf {
    PathBuf::from(
        &m.env
            .iter()
            .find(|(k, _)| k == "MYOPS_HOME")
            .expect("MYOPS_HOME is set")
            .1,
    )
}

fn state_file(m: &Myops) -> PathBuf {
    home_of(m).join("metrics-state.json")
}

/// A version-1 state with one `get pods success` series of plugin `myops` at `count`, every
/// bucket full, and a state id (as every file this build writes has).
fn state_at(count: &str, sum: &str) -> String {
    let b = vec![count; 13].join(",");
    format!(
        r#"{{"version":1,"ops":[{{"plugin":"myops","verb":"get","resource":"pods","status":"success","count":{count},"sum":{sum},"buckets":[{b}]}}],"stateId":"0123456789ab"}}"#
    )
}

/// Writes `bytes` as the state file (creating MYOPS_HOME 0700).
fn with_state(bytes: Vec<u8>) -> impl Fn(&mut Myops) + Send + Sync + 'static {
    move |m: &mut Myops| {
        let home = home_of(m);
        std::fs::create_dir_all(&home).unwrap();
        std::fs::write(home.join("metrics-state.json"), &bytes).unwrap();
    }
}

fn mkfifo(p: &Path) {
    let ok = std::process::Command::new("mkfifo")
        .arg(p)
        .status()
        .expect("mkfifo runs")
        .success();
    assert!(ok, "mkfifo {}", p.display());
}

/// The state file is byte for byte what the setup wrote: nothing half-applied.
fn state_unchanged(bytes: Vec<u8>) -> impl Fn(&Myops, &Run) -> Result<(), String> + Send + Sync {
    move |m: &Myops, _r: &Run| match std::fs::read(state_file(m)) {
        Ok(now) if now == bytes => Ok(()),
        Ok(_) => Err("the state file changed".into()),
        Err(e) => Err(format!("the state file is gone: {e}")),
    }
}

/// Exactly one `warning:` line, and no raw ESC on stderr.
fn warns_once(run: &Run) -> Result<(), String> {
    let warnings = run.stderr.matches("warning:").count();
    if run.stderr.contains('\u{1b}') {
        return Err("a raw ESC on stderr".into());
    }
    if warnings == 1 {
        Ok(())
    } else {
        Err(format!("{warnings} warnings, want one"))
    }
}

/// A `get` that must exit 0 and say `warning:` once about the metrics (a later `.after`
/// replaces this check, so those call [`warns_once`] themselves).
fn get_warns(name: &str, ns: &str, needle: &str) -> Case {
    Case::new(name, 0)
        .args(&["get", "pods", "-n", ns])
        .stderr_has("warning: metrics")
        .stderr_has(needle)
        .after(|_m: &Myops, run: &Run| warns_once(run))
}

/// The totals on disk count one more `get pods` for the cluster: no sample lost.
fn recorded_once(m: &Myops, _r: &Run) -> Result<(), String> {
    let text = std::fs::read_to_string(state_file(m)).map_err(|e| e.to_string())?;
    if text.contains("\"count\":1,") {
        Ok(())
    } else {
        Err(format!("the run is not in the state: {text}"))
    }
}

#[test]
fn metrics_state_and_pushgateway_faults_are_warnings_or_one_error_never_a_hang() {
    let ns = Namespace::new("hostile-metrics");
    ns.pod("web-1");
    let n = ns.0.clone();
    let secrets = tempfile::tempdir().unwrap();
    let pw = secrets.path().join("gateway-password");
    std::fs::write(&pw, format!("{CANARY}\n")).unwrap();
    let closed = format!("http://127.0.0.1:{}", free_port());
    let blackhole = Blackhole::start();
    let gateways: Vec<(u16, Gateway)> = [400, 401, 500, 503]
        .into_iter()
        .map(|c| (c, Gateway::start(Answer::Status(c))))
        .collect();
    let redirect = Gateway::start(Answer::RedirectToItself);
    let slow = Gateway::start(Answer::Slow(Duration::from_secs(4)));
    let garbage = Gateway::start(Answer::Garbage);
    let short = Duration::from_secs(15);

    let max = u64::MAX.to_string();
    let at_max = state_at(&max, "1.0").into_bytes();
    let valid = state_at("3", "0.75").into_bytes();
    let mut cases = vec![
        // ---- MYOPS_HOME is not a directory ----
        Case::new(
            "metrics_show_with_myops_home_a_file_said_no_metrics_recorded",
            1,
        )
        .args(&["metrics", "show"])
        .stderr_has("is a regular file, not a directory")
        .stderr_has("point MYOPS_HOME at a directory")
        .setup(|m| {
            let f = m.dir.path().join("home-file");
            std::fs::write(&f, "x").unwrap();
            m.set_env("MYOPS_HOME", &f.display().to_string());
        }),
        Case::new("metrics_show_with_myops_home_a_fifo", 1)
            .args(&["metrics", "show"])
            .stderr_has("is a FIFO (named pipe), not a directory")
            .deadline(short)
            .setup(|m| {
                let f = m.dir.path().join("home-fifo");
                mkfifo(&f);
                m.set_env("MYOPS_HOME", &f.display().to_string());
            }),
        Case::new("metrics_show_with_myops_home_dev_null", 1)
            .args(&["metrics", "show", "-o", "json"])
            .stderr_has("MYOPS_HOME /dev/null is a character device")
            .setup(|m| m.set_env("MYOPS_HOME", "/dev/null")),
        Case::new("metrics_show_with_myops_home_a_dangling_symlink", 1)
            .args(&["metrics", "show"])
            .stderr_has("is a dangling symbolic link to")
            .setup(|m| {
                let l = m.dir.path().join("home-link");
                std::os::unix::fs::symlink(m.dir.path().join("gone"), &l).unwrap();
                m.set_env("MYOPS_HOME", &l.display().to_string());
            }),
        Case::new("metrics_reset_with_myops_home_a_file", 1)
            .args(&["metrics", "reset", "--yes"])
            .stderr_has("is a regular file, not a directory")
            .setup(|m| {
                let f = m.dir.path().join("home-file");
                std::fs::write(&f, "x").unwrap();
                m.set_env("MYOPS_HOME", &f.display().to_string());
            })
            .after(|m, _| {
                match std::fs::read_to_string(m.dir.path().join("home-file")).as_deref() {
                    Ok("x") => Ok(()),
                    other => Err(format!("the file MYOPS_HOME names was touched: {other:?}")),
                }
            }),
        Case::new("metrics_push_with_myops_home_a_file", 1)
            .args(&["metrics", "push"])
            .stderr_has("is a regular file, not a directory")
            .setup(|m| {
                let f = m.dir.path().join("home-file");
                std::fs::write(&f, "x").unwrap();
                m.set_env("MYOPS_HOME", &f.display().to_string());
            }),
        // The CRD registry under the same MYOPS_HOME warns too: two warnings, one each.
        Case::new("get_with_myops_home_a_file_warns_and_exits_0", 0)
            .args(&["get", "pods", "-n", &n])
            .stderr_has("warning: metrics not recorded: MYOPS_HOME")
            .stderr_has("is a regular file, not a directory")
            .setup(|m| {
                let f = m.dir.path().join("home-file");
                std::fs::write(&f, "x").unwrap();
                m.set_env("MYOPS_HOME", &f.display().to_string());
            }),
        Case::new("get_with_a_read_only_myops_home_still_exits_0", 0)
            .args(&["get", "pods", "-n", &n])
            .setup(|m| {
                use std::os::unix::fs::PermissionsExt;
                let home = home_of(m);
                std::fs::create_dir_all(&home).unwrap();
                std::fs::set_permissions(&home, std::fs::Permissions::from_mode(0o500)).unwrap();
            })
            .after(|m, _| {
                use std::os::unix::fs::PermissionsExt;
                let _ =
                    std::fs::set_permissions(home_of(m), std::fs::Permissions::from_mode(0o700));
                Ok(())
            }),
        // ---- the state file ----
        Case::new("metrics_show_with_a_state_file_not_utf8", 1)
            .args(&["metrics", "show"])
            .stderr_has("is corrupt (not UTF-8 text")
            .stderr_has("metrics reset")
            .setup(with_state(b"{\"version\":1,\xff\xfe}".to_vec())),
        Case::new("metrics_show_with_a_truncated_state_file", 1)
            .args(&["metrics", "show"])
            .stderr_has("is corrupt (EOF while parsing")
            .setup(with_state(br#"{"version":1,"ops":[{"plu"#.to_vec())),
        Case::new("metrics_show_with_an_empty_state_file", 1)
            .args(&["metrics", "show"])
            .stderr_has("is corrupt")
            .setup(with_state(Vec::new())),
        Case::new("metrics_show_with_a_count_of_1e30", 1)
            .args(&["metrics", "show"])
            .stderr_has("is corrupt")
            .setup(with_state(state_at("1e30", "1.0").into_bytes())),
        Case::new("metrics_show_with_a_count_above_u64_max", 1)
            .args(&["metrics", "show"])
            .stderr_has("is corrupt")
            .setup(with_state(
                state_at("18446744073709551616", "1.0").into_bytes(),
            )),
        Case::new("metrics_show_with_a_negative_count", 1)
            .args(&["metrics", "show"])
            .stderr_has("is corrupt")
            .setup(with_state(state_at("-1", "1.0").into_bytes())),
        Case::new("metrics_show_with_a_nan_sum", 1)
            .args(&["metrics", "show"])
            .stderr_has("is corrupt")
            .setup(with_state(state_at("1", "NaN").into_bytes())),
        Case::new("metrics_show_with_an_infinite_sum", 1)
            .args(&["metrics", "show"])
            .stderr_has("is corrupt")
            .setup(with_state(state_at("1", "1e999").into_bytes())),
        Case::new("metrics_show_with_another_format_version", 1)
            .args(&["metrics", "show"])
            .stderr_has("has format version 99")
            .setup(with_state(br#"{"version":99}"#.to_vec())),
        Case::new("metrics_show_with_a_state_file_that_is_a_fifo_hung", 1)
            .args(&["metrics", "show"])
            .stderr_has("FIFO")
            .deadline(short)
            .setup(|m| {
                let home = home_of(m);
                std::fs::create_dir_all(&home).unwrap();
                mkfifo(&home.join("metrics-state.json"));
            }),
        Case::new("metrics_show_with_a_state_file_that_is_a_directory", 1)
            .args(&["metrics", "show"])
            .stderr_has("directory")
            .setup(|m| std::fs::create_dir_all(state_file(m)).unwrap()),
        Case::new("metrics_show_with_a_17_mb_state_file", 1)
            .args(&["metrics", "show"])
            .stderr_has("over the 16777216-byte limit")
            .setup(|m| {
                let home = home_of(m);
                std::fs::create_dir_all(&home).unwrap();
                let f = std::fs::File::create(home.join("metrics-state.json")).unwrap();
                f.set_len(17 * 1024 * 1024).unwrap();
            }),
        Case::new("metrics_show_with_escape_sequences_in_state_labels", 0)
            .args(&["metrics", "show"])
            .setup(with_state(
                state_at("2", "0.5")
                    .replace("\"pods\"", "\"po\\u001b[2J\\u001b]0;x\\u0007ds\"")
                    .into_bytes(),
            ))
            .after(|_m, run| {
                if run.stdout.contains(['\u{1b}', '\u{7}']) {
                    Err("a raw escape sequence on stdout".into())
                } else if !run.stdout.contains("po\\u{1b}[2J") {
                    Err(format!("the label is not shown escaped: {}", run.stdout))
                } else {
                    Ok(())
                }
            }),
        Case::new("metrics_show_with_escape_sequences_in_a_corrupt_state", 1)
            .args(&["metrics", "show"])
            .stderr_has("is corrupt")
            .setup(with_state(
                state_at("1", "0.5")
                    .replace("success", "\u{1b}[2J\u{1b}]0;pwned\u{7}")
                    .into_bytes(),
            ))
            .after(|_m, run| {
                if run.stderr.contains(['\u{1b}', '\u{7}']) {
                    Err("a raw escape sequence on stderr".into())
                } else {
                    Ok(())
                }
            }),
        get_warns(
            "get_with_a_corrupt_state_warns_exits_0_and_leaves_it_alone",
            &n,
            "is corrupt",
        )
        .setup(with_state(br#"{"version":1,"ops":[{"plu"#.to_vec()))
        .after({
            let unchanged = state_unchanged(br#"{"version":1,"ops":[{"plu"#.to_vec());
            move |m, r| {
                warns_once(r)?;
                unchanged(m, r)
            }
        }),
        Case::new("metrics_push_with_a_corrupt_state", 1)
            .args(&["metrics", "push"])
            .stderr_has("is corrupt")
            .setup(with_state(b"\xff".to_vec())),
        // ---- arithmetic (class 7) ----
        Case::new("counter_at_u64_max_then_incremented_wrapped_to_zero", 0)
            .args(&["get", "pods", "-n", &n])
            .setup(with_state(at_max.clone()))
            .after(move |m, run| {
                if run.stderr.contains("warning") {
                    return Err(format!("a warning: {}", run.stderr));
                }
                let text = std::fs::read_to_string(state_file(m)).map_err(|e| e.to_string())?;
                if !text.contains(&format!("\"count\":{}", u64::MAX)) {
                    return Err(format!("the counter moved off u64::MAX: {text}"));
                }
                let show = m.run(&["metrics", "show", "-o", "json"]);
                if show.code != 0 || !show.stdout.contains(&u64::MAX.to_string()) {
                    return Err(format!("metrics show after it: {show:?}"));
                }
                Ok(())
            }),
        // ---- the Pushgateway ----
        get_warns(
            "pushgateway_down_closed_port",
            &n,
            "check that the Pushgateway is running",
        )
        .plugin(&plugin_to(&closed, &pw))
        .after(|m, r| {
            warns_once(r)?;
            recorded_once(m, r)
        }),
        get_warns("pushgateway_blackhole", &n, "no answer within 1000 ms")
            .plugin(&plugin_to(&blackhole.url, &pw))
            .deadline(short)
            .after(|m, r| {
                warns_once(r)?;
                recorded_once(m, r)
            }),
        get_warns("pushgateway_slow", &n, "no answer within 1000 ms")
            .plugin(&plugin_to(&slow.url, &pw))
            .deadline(short),
        get_warns(
            "pushgateway_redirect_loop",
            &n,
            "the Pushgateway answered HTTP 307",
        )
        .plugin(&plugin_to(&redirect.url, &pw)),
        get_warns("pushgateway_speaks_no_http", &n, "failed").plugin(&plugin_to(&garbage.url, &pw)),
        Case::new("plugin_yaml_pushgateway_url_with_the_canary_as_password", 2)
            .args(&["get", "pods", "-n", &n])
            .stderr_has("pushgateway.url must not hold a user name or password")
            .plugin(&plugin_to(
                &closed.replace("http://", &format!("http://ops:{CANARY}@")),
                &pw,
            )),
        Case::new("plugin_yaml_pushgateway_url_that_is_not_a_url", 2)
            .args(&["get", "pods", "-n", &n])
            .stderr_has("pushgateway.url")
            .plugin(&plugin_to("not a url", &pw)),
        // A URL with a password, or none at all, is a configuration error (exit 2) wherever
        // it comes from, as in plugin.yaml; the password is never echoed.
        Case::new(
            "myops_pushgateway_env_with_the_canary_as_userinfo_password",
            2,
        )
        .args(&["get", "pods", "-n", &n])
        .stderr_has("$MYOPS_PUSHGATEWAY must not hold a user name or password")
        .setup({
            let url = closed.replace("http://", &format!("http://ops:{CANARY}@"));
            move |m| m.set_env("MYOPS_PUSHGATEWAY", &url)
        }),
        Case::new("myops_pushgateway_env_that_is_not_a_url", 2)
            .args(&["get", "pods", "-n", &n])
            .stderr_has("$MYOPS_PUSHGATEWAY \"not a url \\u{1b}[2J\" must start with http://")
            .setup(|m| m.set_env("MYOPS_PUSHGATEWAY", "not a url \u{1b}[2J")),
        Case::new("pushgateway_flag_with_the_canary_as_userinfo_password", 2)
            .args_owned(vec![
                "get".into(),
                "pods".into(),
                "-n".into(),
                n.clone(),
                "--pushgateway".into(),
                closed.replace("http://", &format!("http://ops:{CANARY}@")),
            ])
            .stderr_has("--pushgateway must not hold a user name or password"),
        Case::new("pushgateway_password_file_missing", 2)
            .args(&["get", "pods", "-n", &n])
            .stderr_has("cannot read the Pushgateway password file")
            .plugin(&plugin_to(&closed, &secrets.path().join("missing"))),
        Case::new("metrics_push_to_a_closed_port", 1)
            .args(&["metrics", "push"])
            .stderr_has("push to")
            .plugin(&plugin_to(&closed, &pw))
            .setup(with_state(valid.clone()))
            .after(state_unchanged(valid.clone())),
        Case::new("metrics_push_to_a_blackhole", 1)
            .args(&["metrics", "push"])
            .stderr_has("no answer within 1000 ms")
            .plugin(&plugin_to(&blackhole.url, &pw))
            .deadline(short)
            .setup(with_state(valid.clone())),
        Case::new("metrics_push_to_a_redirect_loop", 1)
            .args(&["metrics", "push"])
            .stderr_has("HTTP 307")
            .plugin(&plugin_to(&redirect.url, &pw))
            .setup(with_state(valid.clone())),
        // A push of the real totals with the canary as the password: the real gateway
        // accepts it (it checks no credentials) and must not hold it afterwards.
        Case::new("pushgateway_basic_auth_password_is_the_canary", 0)
            .args(&["get", "pods", "-n", &n])
            .plugin(&plugin_to(&cluster().pushgateway, &pw))
            .after(|_m, run| {
                if run.stderr.contains("warning") {
                    Err(format!("the push failed: {}", run.stderr))
                } else {
                    Ok(())
                }
            }),
    ];
    for (code, gw) in &gateways {
        cases.push(
            get_warns(
                &format!("pushgateway_answers_{code}_echoing_the_credentials"),
                &n,
                &format!("the Pushgateway answered HTTP {code}"),
            )
            .plugin(&plugin_to(&gw.url, &pw))
            .after(|m, run| {
                warns_once(run)?;
                recorded_once(m, run)?;
                let line = run
                    .stderr
                    .lines()
                    .find(|l| l.starts_with("warning: metrics push"))
                    .unwrap_or_default();
                // The gateway's answer is kept up to 1,200 characters (a real HTTP 400 reason
                // for a histogram is about 1,100), plus the URL and our advice.
                if line.chars().count() > 2500 {
                    return Err(format!("a {}-character warning", line.chars().count()));
                }
                Ok(())
            }),
        );
        cases.push(
            Case::new(&format!("metrics_push_to_a_gateway_answering_{code}"), 1)
                .args(&["metrics", "push"])
                .stderr_has(&format!("HTTP {code}"))
                .plugin(&plugin_to(&gw.url, &pw))
                .setup(with_state(valid.clone())),
        );
    }
    run_cases("metrics", cases);
    drop((gateways, redirect, slow, garbage, blackhole, ns));
}
