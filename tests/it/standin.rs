//! Stand-in servers on 127.0.0.1 for the faults a real API server cannot produce
//! (issue 9): a reverse proxy that talks to the real test apiserver under its own (admin)
//! credentials and drops every `Impersonate-*` header, as Rancher- or Omni-style proxies do;
//! the same proxy told to accept some requests and never answer them; and a listener that
//! accepts connections and never answers anything.
//!
//! Why plain threads and a hand-written HTTP/1.1 reader: the crate's tokio has no `net`
//! feature of its own and the tests must not change Cargo.toml; the crate's own HTTP stack
//! (hyper-util's client over hyper-rustls, as the Pushgateway client uses it) does the upstream
//! HTTPS on a small runtime per downstream connection, because a pooled connection belongs to
//! the runtime that opened it.
//!
//! Every request the proxy receives is recorded ([`Proxy::requests`]) with its headers as the
//! client sent them, so a test can say exactly what reached the server through it.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;

use crate::fixture::cluster;

/// The real API server as the admin context of `target/testcluster/kubeconfig` reaches it.
pub struct Upstream {
    /// `https://127.0.0.1:<port>`.
    pub server: String,
    /// The `certificate-authority-data` value (base64 PEM), for kubeconfigs the tests write.
    pub ca_data: String,
    ca_pem: Vec<u8>,
    token: String,
}

/// Reads the admin cluster entry and token from the test cluster's kubeconfig.
pub fn upstream() -> &'static Upstream {
    static UP: OnceLock<Upstream> = OnceLock::new();
    UP.get_or_init(|| {
        use base64::Engine;
        let path = &cluster().kubeconfig;
        let text = std::fs::read_to_string(path).unwrap();
        let kc: serde_json::Value = serde_saphyr::from_str(&text).expect("kubeconfig is YAML");
        let admin_user = kc["contexts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["name"] == "admin")
            .expect("an admin context")["context"]["user"]
            .clone();
        let token = kc["users"]
            .as_array()
            .unwrap()
            .iter()
            .find(|u| u["name"] == admin_user)
            .expect("the admin user")["user"]["token"]
            .as_str()
            .expect("the admin user has a token")
            .to_string();
        let cl = &kc["clusters"][0]["cluster"];
        let ca_data = cl["certificate-authority-data"]
            .as_str()
            .unwrap()
            .to_string();
        let ca_pem = base64::engine::general_purpose::STANDARD
            .decode(&ca_data)
            .unwrap();
        Upstream {
            server: cl["server"]
                .as_str()
                .unwrap()
                .trim_end_matches('/')
                .to_string(),
            ca_data,
            ca_pem,
            token,
        }
    })
}

/// What the proxy may do besides forwarding.
#[derive(Debug, Default, Clone)]
pub struct Options {
    /// Requests whose path (with query) contains one of these are accepted and never
    /// answered; the connection is held open until the client gives up or the proxy stops.
    pub stall_paths: Vec<&'static str>,
    /// Requests with one of these methods (`PATCH`) are answered, without forwarding, with
    /// the API server's own 504 — [`GATEWAY_TIMEOUT`], no `Retry-After` — as it answers a
    /// request its etcd does not answer in time (the request "may still be processing").
    pub gateway_timeout: Vec<&'static str>,
}

/// The API server's answer to a request whose storage did not answer within the request's
/// timeout, byte for byte as the chaos cluster's kube-apiserver sent it with etcd stopped.
pub const GATEWAY_TIMEOUT: &str = r#"{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Timeout: request did not complete within the allotted timeout","reason":"Timeout","details":{},"code":504}"#;

/// One request as the proxy received it (before dropping `Impersonate-*`).
#[derive(Debug, Clone)]
pub struct Seen {
    pub method: String,
    /// Path and query, e.g. `/api/v1/namespaces/x/pods?limit=500`.
    pub path: String,
    /// Header names in lowercase, values as sent.
    pub headers: Vec<(String, String)>,
    /// Whether the proxy stalled it instead of forwarding.
    pub stalled: bool,
    /// Whether the proxy answered it 504 itself ([`Options::gateway_timeout`]).
    pub timed_out: bool,
}

impl Seen {
    pub fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Accepted connections and the stop flag, shared by the accept loop and [`Drop`].
struct Listening {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    conns: Arc<Mutex<Vec<TcpStream>>>,
    accept: Option<JoinHandle<()>>,
}

impl Listening {
    /// Binds a free port and runs `serve` on a thread per accepted connection.
    fn start(serve: impl Fn(TcpStream) + Send + Sync + 'static) -> Listening {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let conns = Arc::new(Mutex::new(Vec::new()));
        let serve = Arc::new(serve);
        let accept = {
            let (stop, conns) = (stop.clone(), conns.clone());
            std::thread::spawn(move || {
                for stream in listener.incoming() {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let Ok(stream) = stream else { continue };
                    if let Ok(c) = stream.try_clone() {
                        conns.lock().unwrap().push(c);
                    }
                    let serve = serve.clone();
                    std::thread::spawn(move || serve(stream));
                }
            })
        };
        Listening {
            addr,
            stop,
            conns,
            accept: Some(accept),
        }
    }
}

impl Drop for Listening {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop, then end every connection (their threads see EOF or an error).
        let _ = TcpStream::connect(self.addr);
        if let Some(t) = self.accept.take() {
            let _ = t.join();
        }
        for c in self.conns.lock().unwrap().drain(..) {
            let _ = c.shutdown(std::net::Shutdown::Both);
        }
    }
}

/// The impersonation-dropping reverse proxy: `http://127.0.0.1:<port>` in front of the real
/// apiserver. Stops when dropped.
pub struct Proxy {
    /// `http://127.0.0.1:<port>`.
    pub url: String,
    seen: Arc<Mutex<Vec<Seen>>>,
    _listening: Listening,
}

impl Proxy {
    /// Forwards everything.
    pub fn start() -> Proxy {
        Proxy::with(Options::default())
    }

    pub fn with(options: Options) -> Proxy {
        let up = upstream();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let listening = {
            let seen = seen.clone();
            Listening::start(move |s| serve(s, up, &options, &seen))
        };
        Proxy {
            url: format!("http://{}", listening.addr),
            seen,
            _listening: listening,
        }
    }

    /// Every request received so far, in order.
    pub fn requests(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }

    /// Writes `dir/proxy-kubeconfig` whose cluster is this proxy and whose token means nothing
    /// (the proxy authenticates upstream with its own). Contexts: `proxy` (current; user
    /// `anyone`) and `proxy-as-joe` (user `joe-by-config`, impersonating `joe` through the
    /// kubeconfig's `as:`).
    pub fn kubeconfig(&self, dir: &Path) -> PathBuf {
        let path = dir.join("proxy-kubeconfig");
        std::fs::write(
            &path,
            format!(
                "apiVersion: v1\nkind: Config\ncurrent-context: proxy\n\
                 clusters:\n- name: proxy\n  cluster: {{server: '{}'}}\n\
                 contexts:\n- name: proxy\n  context: {{cluster: proxy, user: anyone, namespace: default}}\n\
                 - name: proxy-as-joe\n  context: {{cluster: proxy, user: joe-by-config, namespace: default}}\n\
                 users:\n- name: anyone\n  user: {{token: not-a-real-token}}\n\
                 - name: joe-by-config\n  user: {{token: not-a-real-token, as: joe}}\n",
                self.url
            ),
        )
        .unwrap();
        path
    }
}

/// A listener on 127.0.0.1 that accepts TCP connections and never answers. Stops when dropped.
pub struct Blackhole {
    /// `http://127.0.0.1:<port>`.
    pub url: String,
    _listening: Listening,
}

impl Blackhole {
    pub fn start() -> Blackhole {
        // Hold the connection: read (and ignore) until the client closes it or we stop.
        let listening = Listening::start(|mut s| {
            let mut buf = [0u8; 4096];
            while matches!(s.read(&mut buf), Ok(n) if n > 0) {}
        });
        Blackhole {
            url: format!("http://{}", listening.addr),
            _listening: listening,
        }
    }
}

/// A request read off the wire.
struct Request {
    method: String,
    path: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
    close: bool,
}

/// Reads one HTTP/1.1 request; `Ok(None)` at a clean end of the connection.
fn read_request(r: &mut impl BufRead) -> std::io::Result<Option<Request>> {
    let bad = |m: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, m.to_string());
    let mut line = String::new();
    if r.read_line(&mut line)? == 0 {
        return Ok(None);
    }
    let mut parts = line.split_whitespace();
    let (Some(method), Some(path), Some(version)) = (parts.next(), parts.next(), parts.next())
    else {
        return Err(bad("bad request line"));
    };
    let (method, path) = (method.to_string(), path.to_string());
    let mut close = version == "HTTP/1.0";
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        if r.read_line(&mut h)? == 0 {
            return Err(bad("eof in headers"));
        }
        let h = h.trim_end_matches(['\r', '\n']);
        if h.is_empty() {
            break;
        }
        let (k, v) = h.split_once(':').ok_or_else(|| bad("bad header"))?;
        headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
    }
    let get = |name: &str| {
        headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.to_ascii_lowercase())
    };
    if let Some(c) = get("connection") {
        close = c.contains("close");
    }
    let mut body = Vec::new();
    if get("transfer-encoding").is_some_and(|t| t.contains("chunked")) {
        loop {
            let mut size = String::new();
            r.read_line(&mut size)?;
            let size = usize::from_str_radix(size.trim().split(';').next().unwrap_or(""), 16)
                .map_err(|_| bad("bad chunk size"))?;
            let mut chunk = vec![0; size + 2];
            r.read_exact(&mut chunk)?;
            if size == 0 {
                // The CRLF after the last chunk was just read (no trailers are sent to us).
                break;
            }
            body.extend_from_slice(&chunk[..size]);
        }
    } else if let Some(n) = get("content-length") {
        let n: usize = n.trim().parse().map_err(|_| bad("bad content-length"))?;
        body.resize(n, 0);
        r.read_exact(&mut body)?;
    }
    Ok(Some(Request {
        method,
        path,
        headers,
        body,
        close,
    }))
}

/// Headers that belong to one hop, or that the proxy sets itself.
fn dropped(name: &str) -> bool {
    name.starts_with("impersonate-")
        || name.starts_with("proxy-")
        || matches!(
            name,
            "authorization"
                | "host"
                | "connection"
                | "keep-alive"
                | "te"
                | "trailer"
                | "transfer-encoding"
                | "upgrade"
                | "content-length"
                // Ask upstream for an identity body: it is passed back as it comes.
                | "accept-encoding"
        )
}

fn serve(stream: TcpStream, up: &Upstream, options: &Options, seen: &Mutex<Vec<Seen>>) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let client = upstream_client(&up.ca_pem);
    let Ok(read_half) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(read_half);
    let mut writer = stream;
    while let Ok(Some(req)) = read_request(&mut reader) {
        let stalled = options.stall_paths.iter().any(|p| req.path.contains(p));
        let timed_out = options.gateway_timeout.contains(&req.method.as_str());
        seen.lock().unwrap().push(Seen {
            method: req.method.clone(),
            path: req.path.clone(),
            headers: req.headers.clone(),
            stalled,
            timed_out,
        });
        if stalled {
            // Accepted, never answered: wait for the client to hang up (or the proxy to stop).
            let mut buf = [0u8; 4096];
            while matches!(reader.read(&mut buf), Ok(n) if n > 0) {}
            return;
        }
        let (status, headers, body) = if timed_out {
            let json = ("content-type".to_string(), "application/json".to_string());
            (504, vec![json], GATEWAY_TIMEOUT.as_bytes().to_vec())
        } else {
            rt.block_on(forward(&client, up, &req))
        };
        let reason = http::StatusCode::from_u16(status)
            .ok()
            .and_then(|s| s.canonical_reason())
            .unwrap_or("");
        let mut head = format!("HTTP/1.1 {status} {reason}\r\n");
        for (k, v) in headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        head.push_str(&format!("content-length: {}\r\n", body.len()));
        if req.close {
            head.push_str("connection: close\r\n");
        }
        head.push_str("\r\n");
        if writer.write_all(head.as_bytes()).is_err()
            || writer.write_all(&body).is_err()
            || writer.flush().is_err()
            || req.close
        {
            return;
        }
    }
}

/// The HTTPS client to the real apiserver: HTTP/1.1, trusting only the test cluster's CA.
type UpstreamClient = hyper_util::client::legacy::Client<
    hyper_rustls::HttpsConnector<hyper_util::client::legacy::connect::HttpConnector>,
    kube::client::Body,
>;

fn upstream_client(ca_pem: &[u8]) -> UpstreamClient {
    use rustls::pki_types::CertificateDer;
    use rustls::pki_types::pem::PemObject as _;
    let mut roots = rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_slice_iter(ca_pem) {
        roots.add(cert.unwrap()).unwrap();
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let tls = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let connector = hyper_rustls::HttpsConnectorBuilder::new()
        .with_tls_config(tls)
        .https_only()
        .enable_http1()
        .build();
    hyper_util::client::legacy::Builder::new(hyper_util::rt::TokioExecutor::new()).build(connector)
}

/// Sends `req` to the real apiserver as admin, without any `Impersonate-*` header.
async fn forward(
    client: &UpstreamClient,
    up: &Upstream,
    req: &Request,
) -> (u16, Vec<(String, String)>, Vec<u8>) {
    use http_body_util::BodyExt as _;
    let fail = |e: String| {
        (
            502,
            vec![("content-type".into(), "text/plain".into())],
            format!("stand-in proxy: upstream failed: {e}").into_bytes(),
        )
    };
    let Ok(method) = http::Method::from_bytes(req.method.as_bytes()) else {
        return (400, vec![], b"bad method".to_vec());
    };
    let mut b = http::Request::builder()
        .method(method)
        .uri(format!("{}{}", up.server, req.path))
        .header(http::header::AUTHORIZATION, format!("Bearer {}", up.token));
    for (k, v) in req.headers.iter().filter(|(k, _)| !dropped(k)) {
        b = b.header(k.as_str(), v.as_str());
    }
    let request = match b.body(kube::client::Body::from(req.body.clone())) {
        Ok(r) => r,
        Err(e) => return fail(e.to_string()),
    };
    match client.request(request).await {
        Ok(resp) => {
            let status = resp.status().as_u16();
            let headers = resp
                .headers()
                .iter()
                .filter(|(k, _)| !dropped(k.as_str()))
                .filter_map(|(k, v)| Some((k.to_string(), v.to_str().ok()?.to_string())))
                .collect();
            match resp.into_body().collect().await {
                Ok(body) => (status, headers, body.to_bytes().to_vec()),
                Err(e) => (502, vec![], format!("stand-in proxy: {e}").into_bytes()),
            }
        }
        Err(e) => fail(e.to_string()),
    }
}
