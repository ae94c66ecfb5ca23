//! Proxies, through the real tinyproxy `scripts/cluster up` starts (MYOPS_TEST_PROXY, its log
//! in MYOPS_TEST_PROXY_LOG), with the real kubectl as the oracle.
//!
//! Go (and so kubectl) never sends a request for `localhost` or a loopback IP through a proxy
//! from the environment (golang.org/x/net/http/httpproxy `useProxy`), so the tests that must
//! go through the proxy name the API server by a spelling of 127.0.0.1 that is not an IP
//! literal to Go or to Rust but that the proxy's resolver (glibc `inet_aton`) turns into
//! 127.0.0.1: `127.1`, `127.0.1`, `2130706433`. The certificate is checked against its
//! `kubernetes` SAN (`tls-server-name`). Each test uses its own spelling, so the CONNECT
//! lines it counts in the shared log are its own.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use super::fixture::{Myops, Run, cluster, root, text_of};

/// The proxy URL and its log file, from the test cluster's env file.
fn proxy() -> (String, PathBuf) {
    cluster();
    let var = super::fixture::cluster_var;
    (
        var("MYOPS_TEST_PROXY"),
        PathBuf::from(var("MYOPS_TEST_PROXY_LOG")),
    )
}

/// The API server's port (from the cluster's kubeconfig).
fn api_port() -> String {
    let kc = std::fs::read_to_string(&cluster().kubeconfig).unwrap();
    let at = kc.find("https://127.0.0.1:").unwrap() + "https://127.0.0.1:".len();
    kc[at..].chars().take_while(char::is_ascii_digit).collect()
}

/// The cluster's kubeconfig with the server named `host`, checked against the `kubernetes`
/// SAN, and `extra` (e.g. `proxy-url: '…', `) in the cluster entry; written under `dir`.
fn kubeconfig(dir: &Path, host: &str, extra: &str) -> PathBuf {
    let kc = std::fs::read_to_string(&cluster().kubeconfig).unwrap();
    let from = "{server: 'https://127.0.0.1:";
    assert!(kc.contains(from), "the cluster kubeconfig changed shape");
    let text = kc.replace(
        from,
        &format!("{{tls-server-name: kubernetes, {extra}server: 'https://{host}:"),
    );
    let path = dir.join(format!("kubeconfig-{host}"));
    std::fs::write(&path, text).unwrap();
    path
}

/// How many `CONNECT host:port` requests the proxy has logged.
fn connects(log: &Path, host: &str) -> usize {
    let needle = format!("CONNECT {host}:{} ", api_port());
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .filter(|l| l.contains(&needle))
        .count()
}

/// A kubectl-myops with a get-only boundary and no Pushgateway.
fn myops() -> Myops {
    Myops::new(
        "name: myops\nverbs: [get]\nresources: [pods, namespaces]\nscopes: [namespace, cluster]\nmetrics: [ops_total]\n",
    )
}

/// Runs `get pods -n default` through kubectl-myops with `kubeconfig` and `env`.
fn myops_get(m: &Myops, kubeconfig: &Path, env: &[(&str, &str)]) -> Run {
    let out = m
        .command(&["get", "pods", "-n", "default"])
        .env("KUBECONFIG", kubeconfig)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: text_of(&out.stdout),
        stderr: text_of(&out.stderr),
    }
}

/// The real kubectl's exit code and stderr for `get pods -n default` with exactly `env`.
fn kubectl_get(kubeconfig: &Path, env: &[(&str, &str)]) -> (i32, String) {
    let out = Command::new(root().join("target/testbin/kubectl"))
        .args(["get", "pods", "-n", "default"])
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("KUBECONFIG", kubeconfig)
        .env("HOME", std::env::temp_dir().join("myops-test-kubectl-home"))
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (out.status.code().unwrap_or(-1), text_of(&out.stderr))
}

#[test]
fn https_proxy_in_the_environment_no_longer_fails_every_command() {
    // Before: "configured proxy … requires the disabled feature kube/http-proxy", exit 1.
    let (url, _) = proxy();
    let m = myops();
    let run = myops_get(&m, &cluster().kubeconfig, &[("HTTPS_PROXY", &url)]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(!run.stderr.contains("disabled feature"), "{run:?}");
    assert_eq!(
        kubectl_get(&cluster().kubeconfig, &[("HTTPS_PROXY", &url)]).0,
        0
    );
}

#[test]
fn https_proxy_carries_the_requests_as_connect_through_the_real_proxy() {
    let (url, log) = proxy();
    let m = myops();
    let kc = kubeconfig(m.dir.path(), "127.1", "");
    for var in ["HTTPS_PROXY", "https_proxy"] {
        let before = connects(&log, "127.1");
        let run = myops_get(&m, &kc, &[(var, &url)]);
        assert_eq!(run.code, 0, "{var}: {run:?}");
        assert!(
            connects(&log, "127.1") > before,
            "{var}: no CONNECT 127.1 in {}",
            log.display()
        );
    }
    let before = connects(&log, "127.1");
    let (code, err) = kubectl_get(&kc, &[("HTTPS_PROXY", &url)]);
    assert_eq!(code, 0, "kubectl: {err}");
    assert!(
        connects(&log, "127.1") > before,
        "kubectl went around the proxy"
    );
}

#[test]
fn no_proxy_covering_the_server_goes_around_the_proxy() {
    let (url, log) = proxy();
    let m = myops();
    // The server as 127.0.0.1 (kubectl's case too): NO_PROXY lists it.
    let before = connects(&log, "127.0.0.1");
    let env = [("HTTPS_PROXY", url.as_str()), ("NO_PROXY", "127.0.0.1")];
    let run = myops_get(&m, &cluster().kubeconfig, &env);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(kubectl_get(&cluster().kubeconfig, &env).0, 0);
    assert_eq!(
        connects(&log, "127.0.0.1"),
        before,
        "a CONNECT despite NO_PROXY"
    );
    // A name the proxy would resolve, excluded by a domain-suffix entry ("0.1" matches
    // "127.0.1" as Go's domainMatch does); lowercase no_proxy with a blank entry.
    let kc = kubeconfig(m.dir.path(), "127.0.1", "");
    let before = connects(&log, "127.0.1");
    let env = [
        ("https_proxy", url.as_str()),
        ("no_proxy", "example.com, ,0.1"),
    ];
    let run = myops_get(&m, &kc, &env);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        connects(&log, "127.0.1"),
        before,
        "a CONNECT despite no_proxy"
    );
    // Without no_proxy the same name goes through the proxy.
    let run = myops_get(&m, &kc, &[("https_proxy", url.as_str())]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(connects(&log, "127.0.1") > before);
}

#[test]
fn kubeconfig_proxy_url_goes_through_the_proxy_even_for_loopback_and_no_proxy() {
    let (url, log) = proxy();
    let m = myops();
    let kc = kubeconfig(m.dir.path(), "2130706433", &format!("proxy-url: '{url}', "));
    // proxy-url wins over the environment, NO_PROXY included (client-go http.ProxyURL).
    let env = [("HTTPS_PROXY", "http://127.0.0.1:1"), ("NO_PROXY", "*")];
    let before = connects(&log, "2130706433");
    let run = myops_get(&m, &kc, &env);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        connects(&log, "2130706433") > before,
        "no CONNECT via proxy-url"
    );
    let before = connects(&log, "2130706433");
    let (code, err) = kubectl_get(&kc, &env);
    assert_eq!(code, 0, "kubectl: {err}");
    assert!(connects(&log, "2130706433") > before);
}

#[test]
fn a_proxy_that_is_down_is_exit_1_naming_it_without_its_password() {
    let m = myops();
    let kc = kubeconfig(m.dir.path(), "127.1", "");
    let port = super::fixture::free_port();
    let down = format!("http://proxyuser:s3cr3t-pw@127.0.0.1:{port}");
    let run = myops_get(&m, &kc, &[("HTTPS_PROXY", &down)]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(run.stderr.trim_end().lines().count(), 1, "{run:?}");
    assert!(
        run.stderr
            .contains(&format!("through the proxy http://127.0.0.1:{port}:"))
            && run.stderr.contains("HTTPS_PROXY/NO_PROXY"),
        "{run:?}"
    );
    assert!(
        !run.stderr.contains("s3cr3t") && !run.stderr.contains("proxyuser"),
        "{run:?}"
    );
    assert_eq!(kubectl_get(&kc, &[("HTTPS_PROXY", &down)]).0, 1);
}

#[test]
fn a_connect_proxy_that_never_answers_was_blamed_on_the_api_server_at_the_wrong_time() {
    // A stand-in proxy: the kernel accepts the connection into the backlog, nobody ever
    // reads the CONNECT or answers it.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let proxy = format!("http://127.0.0.1:{}", silent.local_addr().unwrap().port());
    let m = myops();
    let kc = kubeconfig(m.dir.path(), "127.1", "");
    let server = format!("https://127.1:{}", api_port());
    let said = |after: &str| {
        format!(
            "error: the proxy {proxy} did not open a tunnel to the API server {server} for the discovery request within {after} (the request deadline); check that the proxy is up and answers CONNECT, fix HTTPS_PROXY/NO_PROXY or the cluster's proxy-url in the kubeconfig, or raise --request-timeout\n"
        )
    };
    let run = |extra: &[&str]| {
        let started = std::time::Instant::now();
        let out = m
            .command(&[&["get", "pods", "-n", "default"][..], extra].concat())
            .env("KUBECONFIG", &kc)
            .env("HTTPS_PROXY", &proxy)
            .output()
            .unwrap();
        (Run::from(out), started.elapsed())
    };
    let (r, took) = run(&["--request-timeout", "2s"]);
    assert_eq!((r.code, r.stderr.clone()), (1, said("2s")), "{r:?}");
    assert!(took < std::time::Duration::from_secs(5), "{took:?}");
    // The default deadline: the wait ends when the message says it does (kube-rs's own
    // 30 s connect timeout used to end it at 30 s while the message said 32 s).
    let (r, took) = run(&[]);
    assert_eq!((r.code, r.stderr.clone()), (1, said("32s")), "{r:?}");
    assert!(
        took >= std::time::Duration::from_secs(32) && took < std::time::Duration::from_secs(36),
        "{took:?}"
    );
    // (kubectl fails too, after retrying discovery five times: `Unable to connect to the
    // server: net/http: request canceled while waiting for connection`, naming no proxy.)
}

#[test]
fn a_kubeconfig_proxy_url_with_an_unsupported_scheme_is_a_usage_error() {
    let m = myops();
    let kc = kubeconfig(
        m.dir.path(),
        "127.1",
        "proxy-url: 'ftp://u:s3cr3t@127.0.0.1:21', ",
    );
    let run = myops_get(&m, &kc, &[]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr.contains("\"ftp\"") && !run.stderr.contains("s3cr3t"),
        "{run:?}"
    );
    // kubectl refuses it as well ("unsupported scheme").
    assert_ne!(kubectl_get(&kc, &[]).0, 0);
}

#[test]
fn a_no_proxy_kube_rs_cannot_parse_is_read_the_go_way_like_kubectl() {
    // kube-rs refuses an empty entry (trailing comma) and `*.example.com` and failed the
    // whole configuration; kubectl skips or understands them.
    let (url, log) = proxy();
    let m = myops();
    let no_proxy = "*.example.com,10.0.0.0/8,";
    let env = [("HTTPS_PROXY", url.as_str()), ("NO_PROXY", no_proxy)];
    let run = myops_get(&m, &cluster().kubeconfig, &env);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(kubectl_get(&cluster().kubeconfig, &env).0, 0);
    // The server is not excluded by it: still through the proxy, CA and token intact.
    let kc = kubeconfig(m.dir.path(), "0177.0.0.1", "");
    let before = connects(&log, "0177.0.0.1");
    let run = myops_get(&m, &kc, &env);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        connects(&log, "0177.0.0.1") > before,
        "no CONNECT 0177.0.0.1"
    );
}

#[test]
fn the_metrics_push_goes_through_http_proxy_from_the_environment() {
    // A regression of issue 12's own HTTP client for the push: reqwest had honoured HTTP_PROXY.
    // The gateway is named `127.0.0.01` (not an IP literal to Rust or Go; glibc reads 127.0.0.1)
    // so the proxy rules send it through the proxy; the API server stays on 127.0.0.1 (direct).
    let (proxy_url, log) = proxy();
    let gateway = cluster().pushgateway.clone();
    let port = gateway.rsplit(':').next().unwrap().trim_end_matches('/');
    let job = format!("proxied-push-{}", std::process::id());
    let mut m = Myops::new(&format!(
        "name: myops\nverbs: [get]\nresources: [pods]\nscopes: [namespace]\nmetrics: [ops_total]\npushgateway:\n  url: http://127.0.0.01:{port}\n  job: {job}\n  instance: test\n  timeout: 5s\n"
    ));
    m.set_env("HTTP_PROXY", &proxy_url);
    let needle = format!("CONNECT 127.0.0.01:{port} ");
    let before = std::fs::read_to_string(&log)
        .unwrap_or_default()
        .matches(&needle)
        .count();
    let r = m.run(&["get", "pods", "-n", "default"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(!r.stderr.contains("warning"), "{r:?}");
    let after = std::fs::read_to_string(&log)
        .unwrap_or_default()
        .matches(&needle)
        .count();
    assert_eq!(
        after,
        before + 1,
        "one CONNECT for the push in {}",
        log.display()
    );
    let text = crate::metrics::scrape(&gateway);
    assert!(
        text.lines()
            .any(|l| l.starts_with("ops_total{") && l.contains(&format!("job=\"{job}\""))),
        "{text}"
    );
}
