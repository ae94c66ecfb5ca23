//! Helpers of the third bad-input pass (`hostile_round3_*.rs`): the newer features — field
//! policies, drift, `changelog reconcile|verify`, `--contexts` fan-out, `crds watch
//! --leader-elect` and its metrics endpoint, kuberc, and the Pushgateway groups — attacked
//! the way the first two passes attacked patch and the change log. Each case is named after
//! the failure it reproduces and runs through [`crate::hostile::run_cases`] where it fits.
//!
//! A stand-in server here only produces what a real one cannot: an answer with any status
//! and a huge body, a redirect to another host, a connection that never answers.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::fixture::{Myops, Run, kubectl};
use crate::hostile::server;

pub fn mkfifo(p: &Path) {
    let ok = std::process::Command::new("mkfifo")
        .arg(p)
        .status()
        .expect("mkfifo runs")
        .success();
    assert!(ok, "mkfifo {}", p.display());
}

/// The MYOPS_HOME a case runs with.
pub fn home_of(m: &Myops) -> PathBuf {
    PathBuf::from(
        &m.env
            .iter()
            .find(|(k, _)| k == "MYOPS_HOME")
            .expect("MYOPS_HOME is set")
            .1,
    )
}

/// A loopback URL nobody listens on.
pub fn closed_url() -> String {
    format!("http://127.0.0.1:{}", crate::fixture::free_port())
}

/// `data.k` of ConfigMap `name` in `ns`, as the admin reads it.
pub fn cm_value(ns: &str, name: &str) -> String {
    kubectl(&[
        "get",
        "configmap",
        name,
        "-n",
        ns,
        "-o",
        "jsonpath={.data.k}",
    ])
}

/// An `after` check: ConfigMap `name` in `ns` still holds `data.k = want`.
pub fn cm_is(
    ns: &str,
    name: &str,
    want: &str,
) -> impl Fn(&Myops, &Run) -> Result<(), String> + Send + Sync + 'static {
    let (ns, name, want) = (ns.to_string(), name.to_string(), want.to_string());
    move |_m, _r| {
        let now = cm_value(&ns, &name);
        if now == want {
            Ok(())
        } else {
            Err(format!("configmap {name} holds {now:?}, want {want:?}"))
        }
    }
}

/// An `after` check: no raw ESC on stdout or stderr (every echoed value escaped).
pub fn no_raw_escape(_m: &Myops, r: &Run) -> Result<(), String> {
    if r.stderr.contains('\u{1b}') || r.stdout.contains('\u{1b}') {
        Err("a raw ESC reached the terminal".into())
    } else {
        Ok(())
    }
}

/// Creates ConfigMap `name` with `data.k = v` in `ns` as the admin.
pub fn configmap(ns: &str, name: &str, v: &str) {
    kubectl(&[
        "create",
        "configmap",
        name,
        "-n",
        ns,
        &format!("--from-literal=k={v}"),
    ]);
}

/// The test cluster's first API server and its CA (base64), for kubeconfigs a case writes.
pub fn ca_data() -> String {
    crate::standin::upstream().ca_data.clone()
}

/// A kubeconfig cluster entry (flow YAML) for `url`, trusting the test cluster's CA.
pub fn cluster_entry(name: &str, url: &str) -> String {
    format!(
        "- {{name: {name}, cluster: {{server: \"{url}\", certificate-authority-data: {}}}}}\n",
        ca_data()
    )
}

/// The admin token of the test cluster (for kubeconfigs a case writes).
pub fn admin_token() -> String {
    let text = std::fs::read_to_string(&crate::fixture::cluster().kubeconfig).unwrap();
    let kc: serde_json::Value = serde_saphyr::from_str(&text).unwrap();
    let user = kc["contexts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "admin")
        .unwrap()["context"]["user"]
        .clone();
    kc["users"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["name"] == user)
        .unwrap()["user"]["token"]
        .as_str()
        .unwrap()
        .to_string()
}

/// Writes `dir/kubeconfig` with one context per `(name, url)` (admin's token, namespace
/// `ns`), the first current, and points KUBECONFIG at it.
pub fn fleet_kubeconfig(m: &mut Myops, ns: &str, contexts: &[(String, String)]) {
    let mut clusters = String::new();
    let mut ctxs = String::new();
    for (i, (name, url)) in contexts.iter().enumerate() {
        clusters.push_str(&cluster_entry(&format!("c{i}"), url));
        ctxs.push_str(&format!(
            "- {{name: {}, context: {{cluster: c{i}, user: u, namespace: {ns}}}}}\n",
            serde_json::to_string(name).unwrap()
        ));
    }
    let text = format!(
        "apiVersion: v1\nkind: Config\nclusters:\n{clusters}users:\n- {{name: u, user: {{token: {}}}}}\ncontexts:\n{ctxs}current-context: {}\n",
        admin_token(),
        serde_json::to_string(&contexts[0].0).unwrap()
    );
    let p = m.dir.path().join("kubeconfig");
    std::fs::write(&p, text).unwrap();
    m.set_env("KUBECONFIG", &p.display().to_string());
}

/// The real API server's URL (the admin context's).
pub fn live() -> String {
    server()
}

/// How a stand-in HTTP server answers every request.
#[derive(Clone)]
pub enum Answer {
    /// This status with a body of this many bytes (ESC and the request's headers first).
    Status(u16, usize),
    /// `302` to this URL.
    RedirectTo(String),
    /// `200` and a body that never ends (chunks until the client goes away).
    Endless,
}

/// A stand-in HTTP/1.1 server on 127.0.0.1 recording every request's head; stops when dropped.
pub struct Standin {
    pub url: String,
    seen: Arc<Mutex<Vec<String>>>,
    stop: Arc<AtomicBool>,
    addr: std::net::SocketAddr,
}

impl Standin {
    pub fn start(answer: Answer) -> Standin {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let seen = Arc::new(Mutex::new(Vec::new()));
        let (stopping, log) = (stop.clone(), seen.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stopping.load(Ordering::SeqCst) {
                    break;
                }
                if let Ok(s) = stream {
                    let (answer, log) = (answer.clone(), log.clone());
                    std::thread::spawn(move || answer_one(s, &answer, &log));
                }
            }
        });
        Standin {
            url: format!("http://{addr}"),
            seen,
            stop,
            addr,
        }
    }

    /// The heads of the requests received so far.
    pub fn seen(&self) -> Vec<String> {
        self.seen.lock().unwrap().clone()
    }
}

impl Drop for Standin {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(self.addr);
    }
}

fn answer_one(stream: TcpStream, answer: &Answer, log: &Mutex<Vec<String>>) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let mut r = BufReader::new(stream.try_clone().unwrap());
    let mut head = Vec::new();
    let mut length = 0usize;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let l = line.trim_end().to_string();
        if l.is_empty() {
            break;
        }
        if let Some(v) = l.to_ascii_lowercase().strip_prefix("content-length:") {
            length = v.trim().parse().unwrap_or(0);
        }
        head.push(l);
    }
    let mut body = vec![0; length];
    let _ = r.read_exact(&mut body);
    log.lock().unwrap().push(head.join("\n"));
    let mut w = stream;
    match answer {
        Answer::Status(code, n) => {
            // Streamed: the head and the echo first, then `x` up to `n` bytes.
            let text = format!("\u{1b}[2J{}\n", head.join("\n")).into_bytes();
            let total = text.len().max(*n);
            let _ = write!(
                w,
                "HTTP/1.1 {code} Nope\r\nContent-Type: text/plain\r\nContent-Length: {total}\r\nConnection: close\r\n\r\n"
            );
            let _ = w.write_all(&text);
            let chunk = [b'x'; 65536];
            let mut left = total - text.len();
            while left > 0 {
                let k = left.min(chunk.len());
                if w.write_all(&chunk[..k]).is_err() {
                    break;
                }
                left -= k;
            }
        }
        Answer::RedirectTo(url) => {
            let _ = write!(
                w,
                "HTTP/1.1 302 Found\r\nLocation: {url}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            );
        }
        Answer::Endless => {
            let _ = w.write_all(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
            let chunk = format!("{:x}\r\n{}\r\n", 65536, "y".repeat(65536));
            for _ in 0..100_000 {
                if w.write_all(chunk.as_bytes()).is_err() {
                    break;
                }
            }
        }
    }
    let _ = w.flush();
}
