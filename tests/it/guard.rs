//! The guarded path under every verb (issue 9), tried as a hostile user would: a change log
//! that cannot be written, a kill between request and outcome, concurrent writers, a proxy
//! that drops `Impersonate-*`, servers and credential plugins that never answer. Each test
//! is named after the failure it reproduces; where the claim is "nothing was sent", the
//! apiserver audit log (or the stand-in's own record) is the proof.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::fixture::{
    Myops, Namespace, Run, audit_mark, audit_since, cluster, kubectl, kubectl_at, text_of,
};
use crate::standin::{Blackhole, Options, Proxy, upstream};

/// get and patch on ConfigMaps (objects with no controller and a plain `data` map), pods and
/// CRDs; no Pushgateway, so nothing is pushed.
const PLUGIN: &str = "name: myops\nverbs: [get, patch]\nresources: [pods, configmaps, customresourcedefinitions]\nscopes: [namespace, cluster]\n";

fn myops() -> Myops {
    Myops::new(PLUGIN)
}

/// The default MYOPS_HOME of `m`.
fn home(m: &Myops) -> PathBuf {
    m.dir.path().join("myops")
}

fn configmap(ns: &Namespace, name: &str, value: &str) {
    kubectl(&[
        "create",
        "configmap",
        name,
        "-n",
        &ns.0,
        &format!("--from-literal=k={value}"),
    ]);
}

/// `data.k` of a ConfigMap, read with the real kubectl as admin.
fn value_of(ns: &Namespace, name: &str) -> String {
    kubectl(&[
        "get",
        "configmap",
        name,
        "-n",
        &ns.0,
        "-o",
        "jsonpath={.data.k}",
    ])
}

/// `patch configmap NAME -n NS --type merge -p {"data":{"k":VALUE}}` as the arguments.
fn patch_args(ns: &Namespace, name: &str, value: &str) -> Vec<String> {
    [
        "patch",
        "configmap",
        name,
        "-n",
        &ns.0,
        "--type",
        "merge",
        "-p",
        &format!(r#"{{"data":{{"k":"{value}"}}}}"#),
    ]
    .map(String::from)
    .to_vec()
}

fn run(m: &Myops, args: &[String]) -> Run {
    m.run(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

/// Every line of a change log, each of which must be JSON.
fn journal_at(home: &Path) -> Vec<Value> {
    let path = home.join("changelog.jsonl");
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    text.lines()
        .map(|l| {
            serde_json::from_str(l)
                .unwrap_or_else(|e| panic!("{}: a line is not JSON ({e}): {l}", path.display()))
        })
        .collect()
}

/// The id of the last record in the change log of `m`.
fn last_id(m: &Myops) -> String {
    let entries = journal_at(&home(m));
    let last = entries.last().expect("the change log has a record");
    last["id"]
        .as_str()
        .unwrap_or_else(|| panic!("a record without an id: {last}"))
        .to_string()
}

/// Rewrites the log without the outcome records of `id`: what a kill between the request
/// and the outcome append leaves behind.
fn drop_outcome(home: &Path, id: &str) {
    let path = home.join("changelog.jsonl");
    let text = std::fs::read_to_string(&path).unwrap();
    let kept: Vec<&str> = text
        .lines()
        .filter(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            v["id"] != id || v["result"] == "pending"
        })
        .collect();
    assert!(
        kept.len() < text.lines().count(),
        "no outcome record of {id} to remove in {text}"
    );
    std::fs::write(&path, kept.join("\n") + "\n").unwrap();
}

/// Mutating requests (create, update, patch, delete) on one object in the audit log since `mark`.
fn mutations_since(mark: u64, resource: &str, namespace: Option<&str>, name: &str) -> Vec<Value> {
    audit_since(mark)
        .into_iter()
        .filter(|e| {
            matches!(
                e["verb"].as_str(),
                Some("create" | "update" | "patch" | "delete")
            ) && e.pointer("/objectRef/resource").and_then(Value::as_str) == Some(resource)
                && e.pointer("/objectRef/namespace").and_then(Value::as_str) == namespace
                && e.pointer("/objectRef/name").and_then(Value::as_str) == Some(name)
        })
        .collect()
}

/// Polls the audit log (it is written as requests complete) for up to 10 s.
fn eventually(mark: u64, what: &str, matches: impl Fn(&Value) -> bool) -> Vec<Value> {
    let end = Instant::now() + Duration::from_secs(10);
    loop {
        let found: Vec<Value> = audit_since(mark).into_iter().filter(&matches).collect();
        if !found.is_empty() || Instant::now() > end {
            assert!(!found.is_empty(), "the audit log has no {what}");
            return found;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// The refusal of a mutation whose change log cannot be written (ARCHITECTURE §7).
fn assert_refused_for_the_journal(r: &Run, log: &Path) {
    assert_eq!(
        r.code, 1,
        "exit 1 when the change log cannot be written: {r:?}"
    );
    for part in [
        "cannot write the change log",
        &log.display().to_string(),
        "nothing was sent",
    ] {
        assert!(r.stderr.contains(part), "stderr lacks {part:?}: {r:?}");
    }
}

#[test]
fn patch_refuses_before_sending_when_the_journal_is_not_writable() {
    let ns = Namespace::new("journal-patch");
    configmap(&ns, "cfg", "v1");
    let mut m = myops();
    // (a) MYOPS_HOME is a regular file; (b) the log itself is a directory. (Tests run as
    // root, so a read-only mode would not stop a write.)
    let file_home = m.dir.path().join("home-is-a-file");
    std::fs::write(&file_home, "not a directory\n").unwrap();
    let dir_home = m.dir.path().join("log-is-a-directory");
    std::fs::create_dir_all(dir_home.join("changelog.jsonl")).unwrap();
    let mark = audit_mark();
    for bad in [&file_home, &dir_home] {
        m.set_env("MYOPS_HOME", &bad.display().to_string());
        let r = run(&m, &patch_args(&ns, "cfg", "v2"));
        assert_eq!(value_of(&ns, "cfg"), "v1", "the ConfigMap changed: {r:?}");
        let sent = mutations_since(mark, "configmaps", Some(&ns.0), "cfg");
        assert!(
            sent.is_empty(),
            "a mutation reached the server: {sent:?}\n{r:?}"
        );
        assert_refused_for_the_journal(&r, &bad.join("changelog.jsonl"));
    }

    // The audit query can see the patch when the log is writable.
    let good = home(&m);
    m.set_env("MYOPS_HOME", &good.display().to_string());
    let r = run(&m, &patch_args(&ns, "cfg", "v2"));
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(value_of(&ns, "cfg"), "v2");
    eventually(mark, "patch of the ConfigMap after the control run", |e| {
        e["verb"] == "patch"
            && e.pointer("/objectRef/namespace").and_then(Value::as_str) == Some(&ns.0)
            && e.pointer("/objectRef/name").and_then(Value::as_str) == Some("cfg")
    });
}

/// Copies the files of a MYOPS_HOME (it has no subdirectories).
fn copy_home(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for f in std::fs::read_dir(from).unwrap() {
        let f = f.unwrap();
        if f.file_type().unwrap().is_file() {
            std::fs::copy(f.path(), to.join(f.file_name())).unwrap();
        }
    }
}

#[test]
fn rollback_refuses_before_sending_when_the_journal_is_not_writable() {
    let ns = Namespace::new("journal-rollback");
    configmap(&ns, "cfg", "v1");
    let mut m = myops();
    let r = run(&m, &patch_args(&ns, "cfg", "v2"));
    assert_eq!(r.code, 0, "{r:?}");
    let id = last_id(&m);
    // A copy of the home whose log is readable (rollback must read the entry) but whose lock
    // cannot be taken, so nothing can be appended.
    let copy = m.dir.path().join("copy");
    copy_home(&home(&m), &copy);
    let _ = std::fs::remove_file(copy.join("changelog.lock"));
    std::fs::create_dir(copy.join("changelog.lock")).unwrap();
    m.set_env("MYOPS_HOME", &copy.display().to_string());
    let mark = audit_mark();
    let r = m.run(&["rollback", &id]);
    assert_eq!(
        value_of(&ns, "cfg"),
        "v2",
        "the rollback was applied: {r:?}"
    );
    let sent = mutations_since(mark, "configmaps", Some(&ns.0), "cfg");
    assert!(
        sent.is_empty(),
        "a mutation reached the server: {sent:?}\n{r:?}"
    );
    assert_refused_for_the_journal(&r, &copy.join("changelog.jsonl"));
}

#[test]
fn crds_sync_refuses_before_sending_when_the_journal_is_not_writable() {
    let suffix = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos()
        % 1_000_000_000;
    let group = format!("g{suffix}.guard.example.com");
    let name = format!("widgets.{group}");
    let mut m = myops();
    let dir = m.dir.path().join("crds");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(
        dir.join("widgets.yaml"),
        format!(
            "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: {name}\nspec:\n  group: {group}\n  scope: Namespaced\n  names: {{plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}}\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        x-kubernetes-preserve-unknown-fields: true\n"
        ),
    )
    .unwrap();
    // (a) MYOPS_HOME is a regular file; (b) the log is a directory, while the CRD registry
    // beside it can be written.
    let file_home = m.dir.path().join("home-is-a-file");
    std::fs::write(&file_home, "not a directory\n").unwrap();
    let dir_home = m.dir.path().join("log-is-a-directory");
    std::fs::create_dir_all(dir_home.join("changelog.jsonl")).unwrap();
    for bad in [&file_home, &dir_home] {
        m.set_env("MYOPS_HOME", &bad.display().to_string());
        let mark = audit_mark();
        let r = m.run(&["crds", "sync", dir.to_str().unwrap()]);
        let on_cluster = kubectl(&["get", "crd", &name, "--ignore-not-found", "-o", "name"]);
        if !on_cluster.is_empty() {
            let _ = kubectl_at(
                &cluster().kubeconfig,
                &["delete", "crd", &name, "--wait=true"],
            );
        }
        assert_eq!(on_cluster, "", "the CRD was created: {r:?}");
        let sent = mutations_since(mark, "customresourcedefinitions", None, &name);
        assert!(
            sent.is_empty(),
            "a mutation reached the server: {sent:?}\n{r:?}"
        );
        assert_refused_for_the_journal(&r, &bad.join("changelog.jsonl"));
    }
}

#[test]
fn write_ahead_intent_then_outcome_share_one_id_and_session() {
    let ns = Namespace::new("write-ahead");
    configmap(&ns, "cfg", "v1");
    let m = myops();
    let mark = audit_mark();
    let r = run(&m, &patch_args(&ns, "cfg", "v2"));
    assert_eq!(r.code, 0, "{r:?}");
    let lines = journal_at(&home(&m));
    assert_eq!(
        lines.len(),
        2,
        "an intent and an outcome record: {lines:#?}"
    );
    let (intent, outcome) = (&lines[0], &lines[1]);
    let id = intent["id"].as_str().unwrap_or_default();
    assert!(!id.is_empty(), "the intent has an id: {intent}");
    assert_eq!(
        outcome["id"], id,
        "one id for intent and outcome: {lines:#?}"
    );
    assert_eq!(intent["result"], "pending", "{intent}");
    assert_eq!(outcome["result"], "success", "{outcome}");
    assert!(
        outcome["resourceVersionAfter"]
            .as_str()
            .is_some_and(|v| !v.is_empty()),
        "{outcome}"
    );
    assert!(outcome["durationSeconds"].is_number(), "{outcome}");
    let session = intent["session"].as_str().unwrap_or_default();
    assert!(!session.is_empty(), "the intent has a session: {intent}");
    assert_eq!(outcome["session"], session, "{lines:#?}");
    // The intent holds everything known before the request (ARCHITECTURE §7).
    for field in [
        "id",
        "session",
        "timestamp",
        "plugin",
        "user",
        "context",
        "server",
        "apiVersion",
        "kind",
        "namespace",
        "name",
        "uid",
        "operation",
        "patchType",
        "patch",
        "dryRun",
        "before",
    ] {
        assert!(
            intent.get(field).is_some_and(|v| !v.is_null()),
            "the intent lacks {field}: {intent}"
        );
    }
    assert_eq!(intent["before"]["data"]["k"], "v1", "{intent}");
    assert_eq!(intent["user"], "admin");
    assert_eq!(intent["operation"], "patch");
    // The outcome stands alone: every field of the intent, with the same value except the
    // outcome's own fields and its place in the hash chain (issue 15: the outcome chains to
    // the intent).
    assert_eq!(outcome["prev"], intent["hash"]);
    for (field, value) in intent.as_object().unwrap() {
        let Some(got) = outcome.get(field) else {
            panic!("the outcome record lacks {field}: {outcome}")
        };
        if !matches!(
            field.as_str(),
            "result" | "resourceVersionAfter" | "durationSeconds" | "timestamp" | "prev" | "hash"
        ) {
            assert_eq!(got, value, "{field} differs between intent and outcome");
        }
    }
    // The session joins the journal to the apiserver's audit log (User-Agent).
    eventually(
        mark,
        &format!("patch of the ConfigMap with session {session} in its userAgent"),
        |e| {
            e["verb"] == "patch"
                && e.pointer("/objectRef/namespace").and_then(Value::as_str) == Some(&ns.0)
                && e.pointer("/objectRef/name").and_then(Value::as_str) == Some("cfg")
                && e["userAgent"].as_str().is_some_and(|a| a.contains(session))
        },
    );
}

#[test]
fn outcome_unknown_is_shown_and_rollback_never_assumes_success() {
    let ns = Namespace::new("outcome-unknown");
    configmap(&ns, "took", "v1");
    configmap(&ns, "never", "v1");
    let m = myops();

    // The patch took effect, then the process died before writing the outcome.
    let r = run(&m, &patch_args(&ns, "took", "v2"));
    assert_eq!(r.code, 0, "{r:?}");
    let id = last_id(&m);
    drop_outcome(&home(&m), &id);
    let list = m.run(&["changelog", "list"]);
    assert_eq!(list.code, 0, "{list:?}");
    let row = list.stdout.lines().find(|l| l.contains(&id));
    assert!(
        row.is_some_and(|l| l.contains("outcome unknown")),
        "changelog list does not show {id} as outcome unknown: {list:?}"
    );
    let r = m.run(&["rollback", &id]);
    assert_eq!(
        r.code, 5,
        "a rollback of an unknown outcome that did take effect: {r:?}"
    );
    for part in ["outcome unknown", "--force"] {
        assert!(r.stderr.contains(part), "stderr lacks {part:?}: {r:?}");
    }
    assert_eq!(value_of(&ns, "took"), "v2");
    let r = m.run(&["rollback", &id, "--force"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        value_of(&ns, "took"),
        "v1",
        "--force restores the before-state"
    );

    // The request never took effect: the live object is the before-state.
    let r = run(&m, &patch_args(&ns, "never", "v2"));
    assert_eq!(r.code, 0, "{r:?}");
    let id = last_id(&m);
    drop_outcome(&home(&m), &id);
    kubectl(&[
        "patch",
        "configmap",
        "never",
        "-n",
        &ns.0,
        "--type",
        "merge",
        "-p",
        r#"{"data":{"k":"v1"}}"#,
    ]);
    let r = m.run(&["rollback", &id]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("nothing to roll back"), "{r:?}");
    assert_eq!(value_of(&ns, "never"), "v1");
}

#[test]
fn concurrent_ids_are_unique() {
    let ns = Namespace::new("concurrent-ids");
    let names: Vec<String> = (0..20).map(|i| format!("cfg-{i}")).collect();
    for n in &names {
        configmap(&ns, n, "v1");
    }
    let m = myops();
    let children: Vec<_> = names
        .iter()
        .map(|n| {
            let args = patch_args(&ns, n, "v2");
            m.command(&args.iter().map(String::as_str).collect::<Vec<_>>())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for c in children {
        let out = c.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "a patch failed: {}",
            text_of(&out.stderr)
        );
    }
    let entries = journal_at(&home(&m));
    assert_eq!(
        entries.len(),
        40,
        "a pending and an outcome record per patch: {entries:#?}"
    );
    let mut ids: Vec<&str> = entries.iter().map(|e| e["id"].as_str().unwrap()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 20, "20 distinct ids: {ids:?}");
    for id in ids {
        let mut results: Vec<&str> = entries
            .iter()
            .filter(|e| e["id"] == id)
            .map(|e| e["result"].as_str().unwrap_or_default())
            .collect();
        results.sort();
        assert_eq!(results, ["pending", "success"], "records of {id}");
    }
}

#[test]
fn the_stand_in_proxy_drops_impersonation_and_answers_as_admin() {
    // The stand-in itself, seen by the real kubectl: whatever it asks to be, it is admin.
    let proxy = Proxy::start();
    let dir = tempfile::tempdir().unwrap();
    let kc = proxy.kubeconfig(dir.path());
    let out = kubectl_at(&kc, &["auth", "whoami", "--as", "joe", "-o", "json"]);
    assert!(out.status.success(), "{}", text_of(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["status"]["userInfo"]["username"], "admin", "{v}");
    let asked = proxy.requests();
    assert!(
        asked
            .iter()
            .any(|s| s.header("impersonate-user") == Some("joe")),
        "kubectl sent Impersonate-User through the proxy: {asked:?}"
    );
}

#[test]
fn impersonation_dropped_by_a_proxy_is_refused_before_any_other_request() {
    let ns = Namespace::new("proxy-as");
    configmap(&ns, "cfg", "v1");
    let proxy = Proxy::start();
    let mut m = myops();
    let kc = proxy.kubeconfig(m.dir.path());
    m.set_env("KUBECONFIG", &kc.display().to_string());

    // Control: without impersonation the proxy is a working way to the server.
    let r = m.run(&["get", "pods", "-n", &ns.0]);
    assert_eq!(r.code, 0, "get through the stand-in proxy: {r:?}");

    let patch = patch_args(&ns, "cfg", "v2");
    let patch: Vec<&str> = patch.iter().map(String::as_str).collect();
    let cases: [(&str, Vec<&str>); 5] = [
        (
            "auth can-i --as joe",
            vec!["auth", "can-i", "get", "pods", "-n", &ns.0, "--as", "joe"],
        ),
        (
            "get --as joe",
            vec!["get", "pods", "-n", &ns.0, "--as", "joe"],
        ),
        ("patch --as joe", [&patch[..], &["--as", "joe"]].concat()),
        (
            "get, kubeconfig as: joe",
            vec!["get", "pods", "-n", &ns.0, "--context", "proxy-as-joe"],
        ),
        (
            "patch, kubeconfig as: joe",
            [&patch[..], &["--context", "proxy-as-joe"]].concat(),
        ),
    ];
    for (case, args) in cases {
        let before = proxy.requests().len();
        let mark = audit_mark();
        let r = m.run(&args);
        assert_eq!(r.code, 3, "{case}: {r:?}");
        for part in [
            "impersonation was not applied",
            "\"joe\"",
            "\"admin\"",
            "Impersonate-*",
        ] {
            assert!(
                r.stderr.contains(part),
                "{case}: stderr lacks {part:?}: {r:?}"
            );
        }
        let sent = proxy.requests().split_off(before);
        assert!(
            !sent.is_empty() && sent.iter().all(|s| s.path.contains("/selfsubjectreviews")),
            "{case}: only SelfSubjectReviews may pass before the identity is verified, sent: {:#?}",
            sent.iter()
                .map(|s| format!("{} {}", s.method, s.path))
                .collect::<Vec<_>>()
        );
        // The same, seen by the apiserver: join on the session the requests carried.
        let session = sent[0]
            .header("kubectl-session")
            .unwrap_or_else(|| panic!("{case}: no Kubectl-Session header sent: {sent:#?}"));
        let seen: Vec<Value> = eventually(
            mark,
            &format!("{case}: request of session {session}"),
            |e| e["userAgent"].as_str().is_some_and(|a| a.contains(session)),
        );
        let other: Vec<&Value> = seen
            .iter()
            .filter(|e| {
                e.pointer("/objectRef/resource").and_then(Value::as_str)
                    != Some("selfsubjectreviews")
            })
            .collect();
        assert!(
            other.is_empty(),
            "{case}: the server saw more than the identity check: {other:#?}"
        );
        assert_eq!(value_of(&ns, "cfg"), "v1", "{case}: the ConfigMap changed");
    }

    // Directly (no proxy), impersonation is applied and the answer is alice's: no bindings.
    m.set_env("KUBECONFIG", &cluster().kubeconfig.display().to_string());
    let r = m.run(&[
        "auth", "can-i", "list", "pods", "-n", &ns.0, "--as", "alice",
    ]);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(r.stdout.starts_with("no"), "{r:?}");
    assert!(!r.stderr.contains("impersonation"), "{r:?}");
}

/// Runs the binary with stdout and stderr in files (a hung exec plugin would hold pipes
/// open), killing it after `limit`; returns the run and how long it took.
fn run_bounded(m: &Myops, args: &[&str], limit: Duration) -> (Run, Duration) {
    let out = tempfile::NamedTempFile::new().unwrap();
    let err = tempfile::NamedTempFile::new().unwrap();
    let mut child = m
        .command(args)
        .stdout(out.reopen().unwrap())
        .stderr(err.reopen().unwrap())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let (code, killed) = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break (status.code().unwrap_or(-1), false);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break (-1, true);
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let took = start.elapsed();
    let mut stderr = std::fs::read_to_string(err.path()).unwrap_or_default();
    if killed {
        stderr.push_str(&format!("[test: still running after {limit:?}, killed]"));
    }
    let run = Run {
        code,
        stdout: std::fs::read_to_string(out.path()).unwrap_or_default(),
        stderr,
    };
    (run, took)
}

/// Exit 1 within 10 s naming the 2 s deadline.
fn assert_timed_out(r: &Run, took: Duration) {
    assert!(took < Duration::from_secs(10), "took {took:?}: {r:?}");
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains("did not answer") && r.stderr.contains("within 2s"),
        "{r:?}"
    );
}

#[test]
fn a_discovery_request_that_is_never_answered_times_out() {
    let hole = Blackhole::start();
    let mut m = myops();
    let missing = m.dir.path().join("no-such-kubeconfig");
    m.set_env("KUBECONFIG", &missing.display().to_string());
    for timeout in ["2s", "2"] {
        let (r, took) = run_bounded(
            &m,
            &[
                "get",
                "pods",
                "--server",
                &hole.url,
                "--token",
                "x",
                "--request-timeout",
                timeout,
            ],
            Duration::from_secs(30),
        );
        assert_timed_out(&r, took);
    }
}

#[test]
fn a_review_that_stalls_times_out() {
    let ns = Namespace::new("review-stalls");
    let proxy = Proxy::with(Options {
        stall_paths: vec!["selfsubjectaccessreviews"],
        ..Options::default()
    });
    let mut m = myops();
    let kc = proxy.kubeconfig(m.dir.path());
    m.set_env("KUBECONFIG", &kc.display().to_string());
    let (r, took) = run_bounded(
        &m,
        &["get", "pods", "-n", &ns.0, "--request-timeout", "2s"],
        Duration::from_secs(30),
    );
    assert_timed_out(&r, took);
    assert!(r.stderr.contains("SelfSubjectAccessReview"), "{r:?}");
    assert!(
        proxy.requests().iter().any(|s| s.stalled),
        "the review never reached the stand-in: {:#?}",
        proxy.requests()
    );
}

/// Regression (issue 17, the chaos suite's etcd-stopped scenario): kube-client's default
/// retry policy sent a request answered 503 or 504 again, up to 15 times within
/// milliseconds. The API server's 504 means the PATCH "may still be processing", so one
/// patch — journaled as one attempt — reached the server 16 times. Now only a 429/5xx with
/// `Retry-After` is sent again (client-go's rule); the 504 is the outcome, exit 1.
#[test]
fn regression_a_patch_answered_504_was_sent_16_times() {
    let ns = Namespace::new("patch-504");
    configmap(&ns, "cfg", "v1");
    let proxy = Proxy::with(Options {
        gateway_timeout: vec!["PATCH"],
        ..Options::default()
    });
    let mut m = myops();
    let kc = proxy.kubeconfig(m.dir.path());
    m.set_env("KUBECONFIG", &kc.display().to_string());
    let r = run(&m, &patch_args(&ns, "cfg", "v2"));
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr
            .contains("Timeout: request did not complete within the allotted timeout"),
        "{r:?}"
    );
    let patches: Vec<(String, bool)> = proxy
        .requests()
        .iter()
        .filter(|s| s.method == "PATCH")
        .map(|s| (s.path.clone(), s.timed_out))
        .collect();
    assert_eq!(patches.len(), 1, "PATCH requests sent: {patches:#?}");
    assert!(patches[0].1, "the stand-in answered it 504: {patches:#?}");
    // One attempt, journaled with the server's answer — which says the PATCH may still
    // complete — as an unknown outcome, for `changelog reconcile` to decide.
    let journal = journal_at(&home(&m));
    let last = journal.last().expect("the attempt is journaled");
    assert!(
        last["result"]
            .as_str()
            .is_some_and(|r| r.starts_with("outcome unknown: Timeout (504)")),
        "{last:#}"
    );
    assert!(
        r.stderr.contains("the outcome of change-log entry"),
        "{r:?}"
    );
    assert_eq!(value_of(&ns, "cfg"), "v1");
}

#[test]
fn an_exec_credential_plugin_that_hangs_times_out() {
    let up = upstream();
    let mut m = myops();
    let kc = m.dir.path().join("exec-kubeconfig");
    std::fs::write(
        &kc,
        format!(
            "apiVersion: v1\nkind: Config\ncurrent-context: hang\nclusters:\n- name: test\n  cluster: {{server: '{}', certificate-authority-data: '{}'}}\ncontexts:\n- name: hang\n  context: {{cluster: test, user: hang, namespace: default}}\nusers:\n- name: hang\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: /bin/sleep\n      args: ['60']\n      interactiveMode: Never\n",
            up.server, up.ca_data
        ),
    )
    .unwrap();
    m.set_env("KUBECONFIG", &kc.display().to_string());
    let (r, took) = run_bounded(
        &m,
        &["get", "pods", "--request-timeout", "2s"],
        Duration::from_secs(30),
    );
    assert_timed_out(&r, took);
    let lower = r.stderr.to_lowercase();
    assert!(
        lower.contains("credential plugin") || lower.contains("/bin/sleep"),
        "stderr does not name the credential plugin: {r:?}"
    );
}

#[test]
fn rollback_is_counted_as_rollback_in_metrics() {
    let ns = Namespace::new("metrics-rollback");
    configmap(&ns, "cfg", "v1");
    let m = myops();
    let r = run(&m, &patch_args(&ns, "cfg", "v2"));
    assert_eq!(r.code, 0, "{r:?}");
    let r = m.run(&["rollback", &last_id(&m)]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(value_of(&ns, "cfg"), "v1");
    let r = m.run(&["metrics", "show", "-o", "json"]);
    assert_eq!(r.code, 0, "{r:?}");
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    let count = |verb: &str| -> f64 {
        v["ops"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|o| o["verb"] == verb)
            .map(|o| o["count"].as_f64().unwrap_or(0.0))
            .fold(0.0, |a, b| a + b)
    };
    assert_eq!((count("patch"), count("rollback")), (1.0, 1.0), "{v:#}");
}

#[test]
fn crds_list_passes_the_gate() {
    let m = myops();
    let dir = root_crds();
    let mark = audit_mark();
    let r = m.run(&["crds", "list", &dir, "--context", "alice"]);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(
        r.stderr.contains("forbidden") && r.stderr.contains("\"alice\""),
        "{r:?}"
    );
    let listed: Vec<Value> = audit_since(mark)
        .into_iter()
        .filter(|e| {
            e.pointer("/user/username").and_then(Value::as_str) == Some("alice")
                && e.pointer("/objectRef/resource").and_then(Value::as_str)
                    == Some("customresourcedefinitions")
                && matches!(e["verb"].as_str(), Some("list" | "get" | "watch"))
        })
        .collect();
    assert!(
        listed.is_empty(),
        "a CRD read by alice reached the server: {listed:#?}"
    );
    // Control: admin may list.
    let r = m.run(&["crds", "list", &dir]);
    assert_eq!(r.code, 0, "{r:?}");
}

/// The repository's own CRD directory (read only; `crds list` compares it with the cluster).
fn root_crds() -> String {
    crate::fixture::root().join("crds").display().to_string()
}
