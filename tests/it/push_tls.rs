//! Pushing to a real Pushgateway served over TLS with a private CA (exporter-toolkit's
//! `--web.config.file`), as a gateway behind TLS would be in production.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::fixture::{Myops, Namespace, free_port};

fn openssl(dir: &std::path::Path, args: &[&str]) {
    let out = Command::new("openssl")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("openssl runs");
    assert!(
        out.status.success(),
        "openssl {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn pushes_to_a_tls_pushgateway_trust_only_the_configured_ca() {
    let ns = Namespace::new("push-tls");
    ns.pod("web-1");
    let d = tempfile::tempdir().unwrap();
    let p = d.path();
    openssl(
        p,
        &[
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            "ca.key",
            "-out",
            "ca.crt",
            "-days",
            "1",
            "-subj",
            "/CN=myops-test-ca",
        ],
    );
    openssl(
        p,
        &[
            "req",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            "gw.key",
            "-out",
            "gw.csr",
            "-subj",
            "/CN=127.0.0.1",
        ],
    );
    std::fs::write(p.join("san.ext"), "subjectAltName=IP:127.0.0.1\n").unwrap();
    openssl(
        p,
        &[
            "x509",
            "-req",
            "-in",
            "gw.csr",
            "-CA",
            "ca.crt",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-out",
            "gw.crt",
            "-days",
            "1",
            "-extfile",
            "san.ext",
        ],
    );
    std::fs::write(
        p.join("web.yml"),
        "tls_server_config:\n  cert_file: gw.crt\n  key_file: gw.key\n",
    )
    .unwrap();
    let port = free_port();
    let mut gw = Command::new("prometheus-pushgateway")
        .args([
            "--web.listen-address",
            &format!("127.0.0.1:{port}"),
            "--web.config.file",
            "web.yml",
            "--persistence.file=",
        ])
        .current_dir(p)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("prometheus-pushgateway runs");
    let url = format!("https://127.0.0.1:{port}");
    let ca = p.join("ca.crt").display().to_string();
    let curl = |path: &str| {
        Command::new("curl")
            .args(["-sf", "--cacert", &ca, &format!("{url}{path}")])
            .output()
            .unwrap()
    };
    let end = Instant::now() + Duration::from_secs(20);
    while !curl("/-/ready").status.success() {
        assert!(Instant::now() < end, "TLS pushgateway did not start");
        std::thread::sleep(Duration::from_millis(100));
    }

    let plugin = |ca_line: &str| {
        format!(
            "name: myops\nverbs: [get]\nresources: [pods]\nscopes: [namespace]\nmetrics: [ops_total]\npushgateway: {{url: '{url}', job: tlstest, instance: one{ca_line}}}\n"
        )
    };
    // Without the CA the gateway's certificate is not trusted: one warning, exit 0.
    let m = Myops::new(&plugin(""));
    let r = m.run(&["get", "pods", "-n", &ns.0]);
    assert_eq!(r.code, 0, "{r:?}");
    let warnings: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| l.starts_with("warning:"))
        .collect();
    assert_eq!(warnings.len(), 1, "{r:?}");
    assert!(
        warnings[0].to_lowercase().contains("certificate") || warnings[0].contains("UnknownIssuer"),
        "{r:?}"
    );

    // With caFile the push goes through, and carries the earlier run too.
    let mut m2 = Myops::new(&plugin(&format!(", caFile: '{ca}'")));
    m2.set_env(
        "MYOPS_HOME",
        &m.dir.path().join("myops").display().to_string(),
    );
    m2.set_env("MYOPS_PUSHGATEWAY_TOKEN", "t0ken");
    let r = m2.run(&["get", "pods", "-n", &ns.0]);
    assert_eq!((r.code, r.stderr.as_str()), (0, ""), "{r:?}");
    let text = String::from_utf8(curl("/metrics").stdout).unwrap();
    let line = text
        .lines()
        .find(|l| l.starts_with("ops_total{") && l.contains("job=\"tlstest\""))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(line.ends_with(" 2"), "{line}");
    let _ = gw.kill();
    let _ = gw.wait();
}
