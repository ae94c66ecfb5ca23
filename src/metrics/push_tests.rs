//! Unit tests of the HTTP push: errors, redaction of credentials, the request sent (a local
//! listener on 127.0.0.1, no gateway).

use std::time::Duration;

use super::*;
use crate::exit::ExitStatus;
use crate::metrics::{MAX_BODY_CHARS, push_url, redact_url};

#[test]
fn long_gateway_answers_are_cut() {
    let body = format!("  {}  \n", "x".repeat(5000));
    let cut = trim_body(&body);
    assert_eq!(
        cut,
        format!("{}… (5000 characters)", "x".repeat(MAX_BODY_CHARS))
    );
    assert_eq!(trim_body(" short \n"), "short");
}

#[test]
fn a_gateway_answer_is_one_escaped_line_without_the_credentials() {
    let t = PushTarget {
        url: "http://gw:9091".into(),
        timeout: Duration::from_secs(1),
        basic_auth: Some(("me".into(), "s3cret".into())),
        bearer_token: Some("t0ken".into()),
        ca_pem: None,
    };
    let echoed = "bad auth s3cret \u{1b}[2J header Basic bWU6czNjcmV0 bearer t0ken\nline2";
    t.register_secrets();
    let body = trim_body(&crate::base::redact::scrub(echoed));
    assert_eq!(
        body,
        "bad auth *** \\u{1b}[2J header Basic *** bearer ***\\nline2"
    );
}

#[test]
fn debug_and_messages_hide_the_password() {
    let t = PushTarget {
        url: "http://gw:9091".into(),
        timeout: Duration::from_secs(1),
        basic_auth: Some(("me".into(), "s3cret".into())),
        bearer_token: None,
        ca_pem: None,
    };
    assert!(!format!("{t:?}").contains("s3cret"));
    assert_eq!(
        redact_url("http://me:s3cret@gw:9091/metrics/job/j"),
        "http://gw:9091/metrics/job/j"
    );
    assert_eq!(
        redact_url("http://gw:9091/metrics/job/j"),
        "http://gw:9091/metrics/job/j"
    );
}

#[tokio::test]
async fn a_refused_connection_is_a_send_error() {
    // Bind then drop a listener to get a local port nobody listens on.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port());
    let port = port.expect("a free local port");
    let t = PushTarget {
        url: push_url(&format!("http://127.0.0.1:{port}"), "j", "i"),
        timeout: Duration::from_secs(2),
        basic_auth: None,
        bearer_token: None,
        ca_pem: None,
    };
    let err = push(&t, "x 1\n".into()).await.expect_err("nothing listens");
    assert!(matches!(err, PushError::Send { .. }), "{err:?}");
    assert!(err.to_string().to_lowercase().contains("refused"), "{err}");
}

#[tokio::test]
async fn a_url_without_scheme_is_a_configuration_error() {
    let t = PushTarget {
        url: "127.0.0.1:9091/metrics/job/j".into(),
        timeout: Duration::from_secs(1),
        basic_auth: None,
        bearer_token: None,
        ca_pem: None,
    };
    let err = push(&t, "x 1\n".into())
        .await
        .expect_err("not a usable URL");
    assert_eq!(err.exit_status(), ExitStatus::Usage, "{err:?}");
}

fn local(url: String) -> PushTarget {
    PushTarget {
        url,
        timeout: Duration::from_secs(2),
        basic_auth: None,
        bearer_token: None,
        ca_pem: None,
    }
}

/// One connection on a local port answered with `answer`; gives the port and the request
/// the client sent.
fn answer_once(answer: Vec<u8>) -> (u16, std::thread::JoinHandle<String>) {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a local port");
    let port = listener.local_addr().expect("bound").port();
    let server = std::thread::spawn(move || {
        let (mut conn, _) = listener.accept().expect("the client connects");
        let mut request = Vec::new();
        let mut buf = [0u8; 4096];
        while !request.windows(4).any(|w| w == b"\r\n\r\n") {
            match conn.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => request.extend_from_slice(&buf[..n]),
            }
        }
        let _ = conn.write_all(&answer);
        String::from_utf8_lossy(&request).into_owned()
    });
    (port, server)
}

#[tokio::test]
async fn a_refused_connection_reads_as_the_os_error() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free local port");
    let err = push(&local(format!("http://127.0.0.1:{port}/m")), "x 1\n".into())
        .await
        .expect_err("nothing listens");
    assert_eq!(
        err.to_string(),
        "Connection refused (os error 111); check that the Pushgateway is running and reachable"
    );
}

#[tokio::test]
async fn an_ftp_url_is_a_configuration_error() {
    let err = push(&local("ftp://127.0.0.1:21/m".into()), "x 1\n".into())
        .await
        .expect_err("not http");
    assert_eq!(err.exit_status(), ExitStatus::Usage, "{err:?}");
    assert_eq!(
        err.to_string(),
        "invalid Pushgateway URL: the URL must start with http:// or https:// and name a host; fix pushgateway.url in plugin.yaml or MYOPS_PUSHGATEWAY"
    );
}

#[test]
fn userinfo_in_the_url_becomes_decoded_credentials_and_leaves_the_host() {
    let (uri, auth) =
        parse_url("http://us%40er:p%3As@127.0.0.1:9091/metrics/job/j").expect("a usable URL");
    assert_eq!(uri.to_string(), "http://127.0.0.1:9091/metrics/job/j");
    assert_eq!(auth, Some(("us@er".into(), Some("p:s".into()))));
    let (_, none) = parse_url("https://gw/metrics").expect("a usable URL");
    assert_eq!(none, None);
}

#[tokio::test]
async fn a_bearer_token_with_a_line_break_is_a_configuration_error_that_does_not_echo_it() {
    let mut t = local("http://127.0.0.1:9/m".into());
    t.bearer_token = Some("t0k\nen".into());
    let err = push(&t, "x 1\n".into()).await.expect_err("not a header");
    assert_eq!(err.exit_status(), ExitStatus::Usage, "{err:?}");
    assert!(!err.to_string().contains("t0k"), "{err}");
    assert!(
        err.to_string()
            .ends_with("fix the file pushgateway.bearerTokenFile names in plugin.yaml"),
        "{err}"
    );
}

#[tokio::test]
async fn a_ca_file_that_is_not_a_certificate_is_a_client_error() {
    let mut t = local("https://127.0.0.1:9/m".into());
    t.ca_pem = Some(b"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n".to_vec());
    let err = push(&t, "x 1\n".into()).await.expect_err("no usable CA");
    assert!(matches!(err, PushError::Client { .. }), "{err:?}");
    assert!(
        err.to_string()
            .starts_with("cannot set up the HTTP client: "),
        "{err}"
    );
}

#[tokio::test]
async fn a_redirect_is_reported_not_followed_and_the_request_is_http_1_1_with_credentials() {
    let (port, server) = answer_once(
        b"HTTP/1.1 307 Temporary Redirect\r\nlocation: http://127.0.0.1:9/elsewhere\r\ncontent-length: 4\r\n\r\nmove"
            .to_vec(),
    );
    let mut t = local(format!("http://127.0.0.1:{port}/metrics/job/j"));
    t.basic_auth = Some(("me".into(), "s3cret".into()));
    t.bearer_token = Some("t0ken".into());
    let err = push(&t, "x 1\n".into()).await.expect_err("a 307");
    assert_eq!(err.to_string(), "the Pushgateway answered HTTP 307: move");
    let request = server.join().expect("the server thread").to_lowercase();
    assert!(
        request.starts_with("put /metrics/job/j http/1.1\r\n"),
        "{request}"
    );
    assert!(
        request.contains("\r\nauthorization: basic bwu6cznjcmv0\r\n"),
        "{request}"
    );
    assert!(
        request.contains("\r\nauthorization: bearer t0ken\r\n"),
        "{request}"
    );
    assert!(request.contains("\r\ncontent-length: 4\r\n"), "{request}");
}

#[tokio::test]
async fn a_gateway_answering_a_huge_error_body_is_read_only_up_to_the_cap() {
    let huge = "y".repeat(4 * MAX_ANSWER_BYTES);
    let (port, server) = answer_once(
        format!(
            "HTTP/1.1 500 Internal Server Error\r\ncontent-length: {}\r\n\r\n{huge}",
            huge.len()
        )
        .into_bytes(),
    );
    let err = push(&local(format!("http://127.0.0.1:{port}/m")), "x 1\n".into())
        .await
        .expect_err("a 500");
    let PushError::Status { code, body } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(*code, 500);
    assert!(
        body.ends_with(&format!("… ({} characters)", MAX_ANSWER_BYTES)),
        "{body}"
    );
    drop(server);
}
