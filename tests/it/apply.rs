//! `apply -f` against the real API server: kubectl 1.36's output (`kubectl apply
//! --server-side` on a twin namespace is the oracle), the journal (created/updated, the
//! before-state), conflicts with another field manager, `--force-conflicts` bounded by
//! plugin.yaml, rollback of a create and of an update restoring the object exactly, and the
//! bad inputs: an empty file, 10,000 documents, an unknown kind, a CRD and its resource in
//! one file, a FIFO, a closed stdin, an unwritable journal, a field policy.

use std::io::Write;
use std::path::PathBuf;
use std::process::Stdio;

use serde_json::Value;

use crate::fixture::{
    Myops, Namespace, Run, audit_mark, audit_since, cluster, kubectl, root, text_of,
};

/// apply (and get, patch for rollback) on ConfigMaps and Deployments, both scopes.
const PLUGIN: &str = "name: myops\nverbs: [get, patch, delete, apply]\nresources: [configmaps, deployments, customresourcedefinitions]\nscopes: [namespace, cluster]\n";

fn myops() -> Myops {
    Myops::new(PLUGIN)
}

/// A manifest file `name` in the test's directory.
fn manifest(m: &Myops, name: &str, text: &str) -> PathBuf {
    let p = m.dir.path().join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn cm(ns: &str, name: &str, data: &str) -> String {
    format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}\n  namespace: {ns}\ndata:\n{data}"
    )
}

/// The real kubectl's run of `args` as admin (exit code and output, never panics).
fn oracle(args: &[&str]) -> Run {
    let out = std::process::Command::new(root().join("target/testbin/kubectl"))
        .args(args)
        .env("KUBECONFIG", &cluster().kubeconfig)
        .env("HOME", std::env::temp_dir().join("myops-test-kubectl-home"))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: text_of(&out.stdout),
        stderr: text_of(&out.stderr),
    }
}

/// The object as admin sees it (JSON), or `None` when it does not exist.
fn live(ns: &str, kind: &str, name: &str) -> Option<Value> {
    let r = oracle(&[
        "get",
        kind,
        name,
        "-n",
        ns,
        "-o",
        "json",
        "--show-managed-fields",
    ]);
    (r.code == 0).then(|| serde_json::from_str(&r.stdout).unwrap())
}

/// The object's content without what the server keeps (for "equals the before-state").
fn content(v: &Value) -> Value {
    let mut v = v.clone();
    if let Some(m) = v.get_mut("metadata").and_then(Value::as_object_mut) {
        for k in ["resourceVersion", "managedFields", "generation"] {
            m.remove(k);
        }
    }
    v
}

/// Mutating requests (create/patch/update/delete) the audit log saw since `mark` in `ns`.
fn mutations(mark: u64, ns: &str) -> Vec<Value> {
    audit_since(mark)
        .into_iter()
        .filter(|e| {
            matches!(
                e["verb"].as_str(),
                Some("create" | "patch" | "update" | "delete")
            ) && e.pointer("/objectRef/namespace").and_then(Value::as_str) == Some(ns)
                && e.pointer("/objectRef/resource").and_then(Value::as_str) == Some("configmaps")
        })
        .collect()
}

/// The apply records of the change log (the last record of each entry).
fn applies(m: &Myops) -> Vec<Value> {
    m.latest_records()
        .into_iter()
        .filter(|r| r["operation"] == "apply")
        .collect()
}

#[test]
fn apply_creates_then_updates_then_changes_nothing_and_journals_each() {
    let ns = Namespace::new("apply-cycle");
    let m = myops();
    let f = manifest(&m, "c1.yaml", &cm(&ns.0, "c1", "  a: \"1\"\n"));
    let f = f.to_str().unwrap();
    let r = m.run(&["apply", "-f", f]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "configmap/c1 serverside-applied\n"),
        "{r:?}"
    );
    let obj = live(&ns.0, "configmap", "c1").unwrap();
    let managers: Vec<&str> = obj["metadata"]["managedFields"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["manager"].as_str())
        .collect();
    assert_eq!(managers, vec!["kubectl-myops"], "{obj:#}");
    let created = applies(&m).pop().unwrap();
    assert_eq!(created["result"], "success", "{created:#}");
    assert!(
        created["before"].is_null(),
        "nothing before a create: {created:#}"
    );
    assert_eq!(created["after"]["metadata"]["uid"], obj["metadata"]["uid"]);
    assert_eq!(created["patchType"], "apply");

    std::fs::write(f, cm(&ns.0, "c1", "  a: \"2\"\n  b: \"3\"\n")).unwrap();
    let r = m.run(&["apply", "-f", f]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "configmap/c1 serverside-applied\n"),
        "{r:?}"
    );
    let updated = applies(&m).pop().unwrap();
    assert_eq!(updated["before"]["data"]["a"], "1", "{updated:#}");
    assert_eq!(updated["after"]["data"]["b"], "3", "{updated:#}");

    // kubectl 1.36 says `serverside-applied` for an apply that changes nothing too; the
    // change log tells: the resourceVersion after is the before-state's.
    let r = m.run(&["apply", "-f", f]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "configmap/c1 serverside-applied\n"),
        "{r:?}"
    );
    let same = applies(&m).pop().unwrap();
    assert_eq!(
        same["resourceVersionAfter"], same["before"]["metadata"]["resourceVersion"],
        "{same:#}"
    );
    assert_eq!(applies(&m).len(), 3, "every attempt is journaled");
    // --dry-run=server changes nothing and says so.
    std::fs::write(f, cm(&ns.0, "c1", "  a: \"9\"\n")).unwrap();
    let r = m.run(&["apply", "-f", f, "--dry-run=server"]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "configmap/c1 serverside-applied (server dry run)\n"),
        "{r:?}"
    );
    assert_eq!(live(&ns.0, "configmap", "c1").unwrap()["data"]["a"], "2");
    assert_eq!(applies(&m).pop().unwrap()["dryRun"], true);
}

/// The command lines compared with `kubectl apply --server-side --field-manager
/// kubectl-myops` on a twin namespace: stdout and exit code byte for byte.
#[test]
fn apply_output_and_exit_codes_match_kubectl_on_a_twin_namespace() {
    let ours = Namespace::new("apply-parity-a");
    let theirs = Namespace::new("apply-parity-b");
    let m = Myops::new(&format!("{PLUGIN}apply:\n  forceConflicts: true\n"));
    let two = |ns: &str, v: &str| {
        format!(
            "{}---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: {ns}\nspec:\n  replicas: 1\n  selector: {{matchLabels: {{app: web}}}}\n  template:\n    metadata: {{labels: {{app: web}}}}\n    spec: {{containers: [{{name: c, image: \"registry.invalid/web:{v}\"}}]}}\n",
            cm(ns, "c1", &format!("  v: \"{v}\"\n"))
        )
    };
    let steps: &[(&str, &[&str])] = &[
        ("1", &[]),
        ("1", &[]),
        ("2", &["--dry-run=server"]),
        ("2", &["-o", "name"]),
        ("2", &[]),
        ("3", &["--force-conflicts"]),
    ];
    let mut compared = Vec::new();
    for (v, extra) in steps {
        let fo = manifest(&m, "ours.yaml", &two(&ours.0, v));
        let ft = manifest(&m, "theirs.yaml", &two(&theirs.0, v));
        let mut a = vec!["apply", "-f", fo.to_str().unwrap()];
        a.extend_from_slice(extra);
        let mut k = vec![
            "apply",
            "--server-side",
            "--field-manager",
            "kubectl-myops",
            "-f",
            ft.to_str().unwrap(),
        ];
        k.extend_from_slice(extra);
        let r = m.run(&a);
        let o = oracle(&k);
        assert_eq!(
            (r.code, r.stdout.replace(&ours.0, "NS")),
            (o.code, o.stdout.replace(&theirs.0, "NS")),
            "apply {extra:?} (v{v}):\nours {r:?}\nkubectl {o:?}"
        );
        compared.push(format!(
            "{extra:?} → {}",
            o.stdout.trim().replace('\n', " | ")
        ));
    }
    assert_eq!(compared.len(), steps.len(), "{compared:#?}");
    // The list of what was compared (`cargo test apply_output -- --nocapture`).
    for line in &compared {
        println!("apply -f FILE {line}");
    }
}

#[test]
fn a_conflict_with_another_manager_is_exit_5_naming_the_fields_as_kubectl_does() {
    let ns = Namespace::new("apply-conflict");
    let m = myops();
    let other = manifest(&m, "other.yaml", &cm(&ns.0, "c1", "  a: \"1\"\n"));
    let r = oracle(&[
        "apply",
        "--server-side",
        "--field-manager",
        "other",
        "-f",
        other.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    let mine = manifest(&m, "mine.yaml", &cm(&ns.0, "c1", "  a: \"2\"\n"));
    let r = m.run(&["apply", "-f", mine.to_str().unwrap()]);
    assert_eq!(r.code, 5, "{r:?}");
    assert_eq!(r.stdout, "", "{r:?}");
    let k = oracle(&[
        "apply",
        "--server-side",
        "--field-manager",
        "kubectl-myops",
        "-f",
        mine.to_str().unwrap(),
    ]);
    let first = |s: &str| s.lines().next().unwrap_or("").to_string();
    assert_eq!(
        first(&r.stderr),
        first(&k.stderr),
        "ours {r:?}\nkubectl {k:?}"
    );
    assert!(
        r.stderr
            .starts_with("error: Apply failed with 1 conflict: conflict with \"other\""),
        "{r:?}"
    );
    assert!(r.stderr.contains(".data.a"), "{r:?}");
    assert!(r.stderr.contains("apply.forceConflicts: true"), "{r:?}");
    assert_eq!(live(&ns.0, "configmap", "c1").unwrap()["data"]["a"], "1");
    let rec = applies(&m).pop().unwrap();
    assert!(
        rec["result"].as_str().unwrap().contains("conflict"),
        "{rec:#}"
    );
}

#[test]
fn force_conflicts_is_refused_unless_plugin_yaml_allows_it() {
    let ns = Namespace::new("apply-force");
    let m = myops();
    let other = manifest(&m, "other.yaml", &cm(&ns.0, "c1", "  a: \"1\"\n"));
    assert_eq!(
        oracle(&[
            "apply",
            "--server-side",
            "--field-manager",
            "other",
            "-f",
            other.to_str().unwrap()
        ])
        .code,
        0
    );
    let mine = manifest(&m, "mine.yaml", &cm(&ns.0, "c1", "  a: \"2\"\n"));
    let mark = audit_mark();
    let r = m.run(&["apply", "-f", mine.to_str().unwrap(), "--force-conflicts"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr
            .contains("--force-conflicts is not allowed by plugin.yaml"),
        "{r:?}"
    );
    assert!(mutations(mark, &ns.0).is_empty(), "nothing sent");
    assert!(
        m.records().is_empty(),
        "refused before the session: {:?}",
        m.records()
    );

    let allowed = Myops::new(&format!("{PLUGIN}apply:\n  forceConflicts: true\n"));
    let r = allowed.run(&["apply", "-f", mine.to_str().unwrap(), "--force-conflicts"]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "configmap/c1 serverside-applied\n"),
        "{r:?}"
    );
    assert_eq!(live(&ns.0, "configmap", "c1").unwrap()["data"]["a"], "2");
}

#[test]
fn rollback_of_an_apply_deletes_what_it_created_and_restores_an_update_exactly() {
    let ns = Namespace::new("apply-rollback");
    let m = myops();
    // A create is undone by a delete of exactly that object.
    let f = manifest(&m, "new.yaml", &cm(&ns.0, "fresh", "  a: \"1\"\n"));
    assert_eq!(m.run(&["apply", "-f", f.to_str().unwrap()]).code, 0);
    let id = applies(&m).pop().unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let r = m.run(&["rollback", &id]);
    assert_eq!(r.code, 0, "{r:?}");
    for _ in 0..50 {
        if live(&ns.0, "configmap", "fresh").is_none() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(
        live(&ns.0, "configmap", "fresh").is_none(),
        "the created object is gone"
    );

    // An update is undone by restoring exactly the fields it changed (ours: an object the
    // apply does not own would be a conflict, tested above).
    let v1 = manifest(
        &m,
        "old-v1.yaml",
        &format!(
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: old\n  namespace: {}\n  labels: {{team: x}}\ndata:\n  a: \"1\"\n  keep: k\n",
            ns.0
        ),
    );
    assert_eq!(m.run(&["apply", "-f", v1.to_str().unwrap()]).code, 0);
    let before = live(&ns.0, "configmap", "old").unwrap();
    // v2 drops `keep` (a field the apply owned goes), changes `a` and a label, adds the rest.
    let f = manifest(
        &m,
        "old.yaml",
        &format!(
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: old\n  namespace: {}\n  labels: {{team: blue, extra: \"1\"}}\ndata:\n  a: \"2\"\n  b: \"3\"\n",
            ns.0
        ),
    );
    let r = m.run(&["apply", "-f", f.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{r:?}");
    let id = applies(&m).pop().unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    // The rollback is guarded: a field the apply changed, changed again since, refuses it
    // (exit 5, nothing sent); put back to what the apply left, the rollback goes on.
    let patch = |v: &str| {
        kubectl(&[
            "patch",
            "configmap",
            "old",
            "-n",
            &ns.0,
            "--type",
            "merge",
            "-p",
            &format!("{{\"data\":{{\"a\":\"{v}\"}}}}"),
        ])
    };
    patch("9");
    let r = m.run(&["rollback", &id]);
    assert_eq!(r.code, 5, "{r:?}");
    assert_eq!(live(&ns.0, "configmap", "old").unwrap()["data"]["a"], "9");
    patch("2");
    let r = m.run(&["rollback", &id]);
    assert_eq!(r.code, 0, "{r:?}");
    let after = live(&ns.0, "configmap", "old").unwrap();
    assert_eq!(
        content(&after)["data"],
        content(&before)["data"],
        "{after:#}"
    );
    assert_eq!(
        content(&after)["metadata"]["labels"],
        content(&before)["metadata"]["labels"],
        "{after:#}"
    );
    assert_eq!(after["metadata"]["uid"], before["metadata"]["uid"]);
}

#[test]
fn rollback_of_a_forced_takeover_restores_the_before_state() {
    let ns = Namespace::new("apply-rollback-exact");
    let m = Myops::new(&format!("{PLUGIN}apply:\n  forceConflicts: true\n"));
    kubectl(&[
        "create",
        "configmap",
        "c",
        "-n",
        &ns.0,
        "--from-literal=a=1",
    ]);
    let before = live(&ns.0, "configmap", "c").unwrap();
    let f = manifest(&m, "c.yaml", &cm(&ns.0, "c", "  a: \"5\"\n  z: \"6\"\n"));
    let r = m.run(&["apply", "-f", f.to_str().unwrap(), "--force-conflicts"]);
    assert_eq!(r.code, 0, "{r:?}");
    let id = applies(&m).pop().unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let r = m.run(&["rollback", &id]);
    assert_eq!(r.code, 0, "{r:?}");
    let after = live(&ns.0, "configmap", "c").unwrap();
    let mut want = content(&before);
    let mut got = content(&after);
    // The annotations map the restore may leave empty is the only difference allowed.
    for v in [&mut want, &mut got] {
        if v["metadata"]["annotations"] == serde_json::json!({}) {
            v["metadata"].as_object_mut().unwrap().remove("annotations");
        }
    }
    assert_eq!(got, want, "fields equal the before-state");
}

#[test]
fn bad_files_are_refused_whole_with_their_location_and_nothing_sent() {
    let ns = Namespace::new("apply-bad");
    let m = myops();
    let mark = audit_mark();
    let empty = manifest(&m, "empty.yaml", "");
    let r = m.run(&["apply", "-f", empty.to_str().unwrap()]);
    assert_eq!(r.code, 2, "{r:?}");
    assert_eq!(r.stderr, "error: no objects passed to apply\n", "{r:?}");
    // A good object first, then a kind nobody serves: the file fails before the first is sent.
    let unknown = manifest(
        &m,
        "unknown.yaml",
        &format!(
            "{}---\napiVersion: example.invalid/v1\nkind: Nope\nmetadata:\n  name: x\n",
            cm(&ns.0, "first", "  a: \"1\"\n")
        ),
    );
    let r = m.run(&["apply", "-f", unknown.to_str().unwrap()]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr.starts_with(&format!(
            "error: {}:9:1: no kind \"Nope\"",
            unknown.display()
        )),
        "{r:?}"
    );
    let bad_yaml = manifest(
        &m,
        "bad.yaml",
        &format!("{}---\nkind: [\n", cm(&ns.0, "first", "  a: \"1\"\n")),
    );
    let r = m.run(&["apply", "-f", bad_yaml.to_str().unwrap()]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("bad.yaml:"), "{r:?}");
    assert!(r.stderr.contains("invalid YAML"), "{r:?}");
    let csa = manifest(
        &m,
        "csa.yaml",
        &format!(
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: first\n  namespace: {}\n  annotations:\n    kubectl.kubernetes.io/last-applied-configuration: \"{{}}\"\n",
            ns.0
        ),
    );
    let r = m.run(&["apply", "-f", csa.to_str().unwrap()]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("client-side kubectl apply"), "{r:?}");
    for (flags, says) in [
        (&["--server-side=false"][..], "client-side apply"),
        (&["--prune"][..], "--prune is not supported"),
        (
            &["--dry-run=client"][..],
            "error: --dry-run=client doesn't work with --server-side (did you mean --dry-run=server instead?)\n",
        ),
    ] {
        let mut a = vec!["apply", "-f", unknown.to_str().unwrap()];
        a.extend_from_slice(flags);
        let r = m.run(&a);
        assert_eq!(r.code, 2, "{r:?}");
        assert!(r.stderr.contains(says), "{r:?}");
    }
    assert!(
        live(&ns.0, "configmap", "first").is_none(),
        "nothing of a bad file is sent"
    );
    assert!(
        mutations(mark, &ns.0).is_empty(),
        "{:?}",
        mutations(mark, &ns.0)
    );
}

#[test]
fn ten_thousand_documents_are_checked_in_bounded_memory_without_a_progress_line_off_a_terminal() {
    let ns = Namespace::new("apply-10k");
    let m = myops();
    let mut text = String::new();
    for i in 0..10_000 {
        text.push_str(&cm(&ns.0, &format!("c{i}"), "  a: \"1\"\n"));
        text.push_str("---\n");
    }
    // The last document is bad: the whole file is refused, located, nothing sent.
    text.push_str("apiVersion: v1\nkind: ConfigMap\nmetadata: {}\n");
    let f = manifest(&m, "big.yaml", &text);
    let line = text.lines().count() - 2;
    let out = m
        .command(&[])
        .args(["apply", "-f", f.to_str().unwrap()])
        .output()
        .unwrap();
    let time = std::process::Command::new("/usr/bin/time")
        .args(["-f", "maxrss=%M"])
        .arg(env!("CARGO_BIN_EXE_kubectl-myops"))
        .args(["apply", "-f", f.to_str().unwrap()])
        .env_clear()
        .envs(m.env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = text_of(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.starts_with(&format!(
            "error: {}:{line}:1: the ConfigMap has no metadata.name",
            f.display()
        )),
        "{stderr}"
    );
    assert!(
        !stderr.contains("apply: "),
        "no progress line off a terminal: {stderr}"
    );
    let rss_kb: u64 = text_of(&time.stderr)
        .lines()
        .find_map(|l| l.strip_prefix("maxrss="))
        .and_then(|n| n.trim().parse().ok())
        .expect("/usr/bin/time reports the peak");
    // The file is 1 MB; parsed whole it would be tens of MB. One document at a time, the
    // process stays near its baseline.
    assert!(rss_kb < 80_000, "peak RSS {rss_kb} KiB");
    assert!(live(&ns.0, "configmap", "c0").is_none());
}

#[test]
fn a_crd_and_its_resource_in_one_file_apply_in_order_and_the_wrong_order_is_explained() {
    let suffix = std::process::id();
    let group = format!("apply{suffix}.example.com");
    let ns = Namespace::new("apply-crd");
    let m = Myops::new(&format!(
        "name: myops\nverbs: [get, patch, delete, apply]\nresources: [customresourcedefinitions, gizmos.{group}]\nscopes: [namespace, cluster]\n"
    ));
    let crd = format!(
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: gizmos.{group}\nspec:\n  group: {group}\n  scope: Namespaced\n  names: {{plural: gizmos, singular: gizmo, kind: Gizmo}}\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema: {{type: object, x-kubernetes-preserve-unknown-fields: true}}\n"
    );
    let cr = format!(
        "apiVersion: {group}/v1\nkind: Gizmo\nmetadata:\n  name: g1\n  namespace: {}\nspec: {{size: 1}}\n",
        ns.0
    );
    let wrong = manifest(&m, "wrong.yaml", &format!("{cr}---\n{crd}"));
    let r = m.run(&["apply", "-f", wrong.to_str().unwrap()]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr.contains("comes later in this file (line 8)"),
        "{r:?}"
    );
    let right = manifest(&m, "right.yaml", &format!("{crd}---\n{cr}"));
    let r = m.run(&["apply", "-f", right.to_str().unwrap()]);
    let _ = oracle(&["delete", "crd", &format!("gizmos.{group}"), "--wait=false"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        r.stdout,
        format!(
            "customresourcedefinition.apiextensions.k8s.io/gizmos.{group} serverside-applied\ngizmo.{group}/g1 serverside-applied\n"
        )
    );
}

#[test]
fn a_fifo_or_a_closed_stdin_is_an_error_not_a_hang() {
    let m = myops();
    let fifo = m.dir.path().join("m.yaml");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let started = std::time::Instant::now();
    // A FIFO named with -f is read once (`-f <(…)`); with no writer the deadline ends the wait.
    let r = m.run(&[
        "apply",
        "-f",
        fifo.to_str().unwrap(),
        "--request-timeout",
        "1s",
    ]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr
            .contains("nothing wrote to it and closed it within 1s"),
        "{r:?}"
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
    let closed = std::process::Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" apply -f - <&-")
        .arg(env!("CARGO_BIN_EXE_kubectl-myops"))
        .env_clear()
        .envs(m.env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .output()
        .unwrap();
    // A closed stdin is /dev/null to a Rust program (std reopens fds 0-2 at start), so it
    // reads as empty: kubectl's sentence for no input, exit 2, at once.
    let stderr = text_of(&closed.stderr);
    assert_eq!(closed.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr, "error: no objects passed to apply\n");
}

#[test]
fn stdin_is_read_once_and_applied() {
    let ns = Namespace::new("apply-stdin");
    let m = myops();
    let mut child = m
        .command(&["apply", "-f", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(cm(&ns.0, "from-stdin", "  a: \"1\"\n").as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        text_of(&out.stdout),
        "configmap/from-stdin serverside-applied\n",
        "{}",
        text_of(&out.stderr)
    );
}

#[test]
fn an_unwritable_journal_or_a_denying_field_policy_sends_nothing() {
    let ns = Namespace::new("apply-refused");
    let mut m = myops();
    let blue = manifest(&m, "blue.yaml", &cm(&ns.0, "c", "  color: blue\n"));
    assert_eq!(m.run(&["apply", "-f", blue.to_str().unwrap()]).code, 0);
    let f = manifest(&m, "c.yaml", &cm(&ns.0, "c", "  color: red\n"));
    let mark = audit_mark();
    let file_home = m.dir.path().join("home-is-a-file");
    std::fs::write(&file_home, "not a directory\n").unwrap();
    m.set_env("MYOPS_HOME", &file_home.display().to_string());
    let r = m.run(&["apply", "-f", f.to_str().unwrap()]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("nothing was sent"), "{r:?}");
    assert!(
        mutations(mark, &ns.0).is_empty(),
        "{:?}",
        mutations(mark, &ns.0)
    );

    let policed = Myops::new(&format!(
        "{PLUGIN}policies:\n- resource: configmaps\n  deny: [/data/color]\n  message: colors are set in git\n"
    ));
    let r = policed.run(&["apply", "-f", f.to_str().unwrap()]);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(r.stderr.contains("colors are set in git"), "{r:?}");
    assert!(r.stderr.contains("/data/color"), "{r:?}");
    assert_eq!(
        live(&ns.0, "configmap", "c").unwrap()["data"]["color"],
        "blue"
    );
    let rec = applies(&policed).pop().unwrap();
    assert!(
        rec["result"]
            .as_str()
            .unwrap()
            .starts_with("denied by field policy"),
        "{rec:#}"
    );
    // Only the server-side dry run reached the server.
    let real: Vec<Value> = mutations(mark, &ns.0)
        .into_iter()
        .filter(|e| !e["requestURI"].as_str().unwrap_or("").contains("dryRun"))
        .collect();
    assert!(real.is_empty(), "{real:?}");
}

#[test]
fn an_object_a_reconciler_owns_is_applied_with_a_warning_and_the_owner_journaled() {
    let ns = Namespace::new("apply-reconciler");
    let m = myops();
    let owned = format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: {}\n  annotations:\n    argocd.argoproj.io/tracking-id: \"shop:/ConfigMap:{}/c\"\ndata:\n  a: \"{{v}}\"\n",
        ns.0, ns.0
    );
    let f = manifest(&m, "c.yaml", &owned.replace("{v}", "1"));
    let r = m.run(&["apply", "-f", f.to_str().unwrap()]);
    assert_eq!(
        (r.code, r.stderr.as_str()),
        (0, ""),
        "a create has no owner yet: {r:?}"
    );
    std::fs::write(&f, owned.replace("{v}", "2")).unwrap();
    let r = m.run(&["apply", "-f", f.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        r.stderr,
        "warning: configmap/c is managed by Argo CD application 'shop' (annotation argocd.argoproj.io/tracking-id), which will revert this change at its next sync; make the lasting change in the Git repository it syncs from\n"
    );
    let rec = applies(&m).pop().unwrap();
    assert_eq!(rec["reconciler"]["name"], "shop", "{rec:#}");
}

#[test]
fn apply_over_two_contexts_goes_in_canary_waves_and_refuses_stdin() {
    use crate::fleet::{TwoNamespaces, kubectl_in};
    let ns = TwoNamespaces::new("apply-fleet");
    let m = myops();
    let f = manifest(&m, "w.yaml", &cm(&ns.0, "w", "  k: v\n"));
    let r = m.run(&[
        "apply",
        "-f",
        f.to_str().unwrap(),
        "--contexts",
        "admin,admin-2",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        r.stdout,
        "admin\tconfigmap/w serverside-applied\nadmin-2\tconfigmap/w serverside-applied\n"
    );
    assert!(
        r.stderr.contains("kubectl myops rollback --session "),
        "{r:?}"
    );
    for ctx in ["admin", "admin-2"] {
        assert_eq!(
            kubectl_in(
                ctx,
                &[
                    "get",
                    "configmap",
                    "w",
                    "-n",
                    &ns.0,
                    "-o",
                    "jsonpath={.data.k}"
                ]
            ),
            "v"
        );
    }
    let r = m.run(&["apply", "-f", "-", "--contexts", "admin,admin-2"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("reads stdin once"), "{r:?}");
}

#[test]
fn a_directory_applies_its_files_in_name_order_and_subdirectories_only_with_r() {
    let ns = Namespace::new("apply-dir");
    let m = myops();
    let dir = m.dir.path().join("manifests");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("b.yaml"), cm(&ns.0, "b", "  k: v\n")).unwrap();
    std::fs::write(
        dir.join("a.json"),
        format!(
            r#"{{"apiVersion":"v1","kind":"ConfigMap","metadata":{{"name":"a","namespace":"{}"}},"data":{{"k":"v"}}}}"#,
            ns.0
        ),
    )
    .unwrap();
    std::fs::write(dir.join("notes.txt"), "not a manifest").unwrap();
    std::fs::write(dir.join("sub/c.yml"), cm(&ns.0, "c", "  k: v\n")).unwrap();
    let d = dir.to_str().unwrap();
    let r = m.run(&["apply", "-f", d, "-o", "name"]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "configmap/a\nconfigmap/b\n"),
        "{r:?}"
    );
    let r = m.run(&["apply", "-f", d, "-R"]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (
            0,
            "configmap/a serverside-applied\nconfigmap/b serverside-applied\nconfigmap/c serverside-applied\n"
        ),
        "{r:?}"
    );
}

#[test]
fn one_object_refused_does_not_stop_the_others_and_the_worst_exit_code_wins() {
    let ns = Namespace::new("apply-partial");
    let m = myops();
    let other = manifest(&m, "other.yaml", &cm(&ns.0, "taken", "  a: \"1\"\n"));
    let r = oracle(&[
        "apply",
        "--server-side",
        "--field-manager",
        "other",
        "-f",
        other.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    let f = manifest(
        &m,
        "three.yaml",
        &format!(
            "{}---\n{}---\n{}",
            cm(&ns.0, "first", "  a: \"1\"\n"),
            cm(&ns.0, "taken", "  a: \"2\"\n"),
            cm(&ns.0, "last", "  a: \"1\"\n")
        ),
    );
    let r = m.run(&["apply", "-f", f.to_str().unwrap()]);
    assert_eq!(r.code, 5, "{r:?}");
    assert_eq!(
        r.stdout,
        "configmap/first serverside-applied\nconfigmap/last serverside-applied\n"
    );
    assert!(
        r.stderr.starts_with("error: Apply failed with 1 conflict"),
        "{r:?}"
    );
    // -n names another namespace than the object's: kubectl's refusal, the file not sent.
    let r = m.run(&["apply", "-f", f.to_str().unwrap(), "-n", "default"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr.contains(&format!(
            "the namespace from the provided object \"{}\" does not match the namespace \"default\". You must pass '--namespace={}' to perform this operation.",
            ns.0, ns.0
        )),
        "{r:?}"
    );
}

#[test]
fn a_large_apply_on_a_terminal_shows_a_progress_line_cleared_before_each_result() {
    let ns = Namespace::new("apply-progress");
    let m = myops();
    let text: String = (0..25)
        .map(|i| format!("{}---\n", cm(&ns.0, &format!("p{i:02}"), "  k: v\n")))
        .collect();
    let f = manifest(&m, "many.yaml", &text);
    let line = format!(
        "{} apply -f {}",
        env!("CARGO_BIN_EXE_kubectl-myops"),
        f.display()
    );
    let out = std::process::Command::new("script")
        .args(["-qefc", &line, "/dev/null"])
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("TERM", "dumb")
        .envs(m.env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .stdin(Stdio::null())
        .output()
        .expect("script runs");
    let text = text_of(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text:?}");
    assert!(text.starts_with("\rapply: 0/25 objects\x1b[K"), "{text:?}");
    assert!(text.contains("\rapply: 25/25 objects\x1b[K"), "{text:?}");
    assert_eq!(
        text.matches(" serverside-applied\r\n").count(),
        25,
        "{text:?}"
    );
    // Each result line starts on a cleared line, never after the progress text.
    for (at, _) in text.match_indices("configmap/p") {
        let before = &text[..at];
        assert!(
            before.ends_with("\r\x1b[K") || before.ends_with('\n') || before.is_empty(),
            "a result printed over the progress line at {at}: {text:?}"
        );
    }
}

#[test]
fn a_secret_applied_never_reaches_the_change_log_and_its_update_has_no_inverse() {
    let ns = Namespace::new("apply-secret");
    let m = Myops::new(
        "name: myops\nverbs: [get, patch, apply]\nresources: [secrets]\nscopes: [namespace]\n",
    );
    let canary = "c4n4ryS3cr3tV4lue";
    let secret = |v: &str| {
        format!(
            "apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n  namespace: {}\nstringData:\n  password: {v}\n",
            ns.0
        )
    };
    let f = manifest(&m, "s.yaml", &secret(canary));
    let r = m.run(&["apply", "-f", f.to_str().unwrap()]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "secret/s serverside-applied\n"),
        "{r:?}"
    );
    std::fs::write(&f, secret(&format!("{canary}2"))).unwrap();
    let r = m.run(&["apply", "-f", f.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{r:?}");
    let log = std::fs::read_to_string(m.dir.path().join("myops/changelog.jsonl")).unwrap();
    assert!(!log.contains(canary), "a Secret value in the change log");
    use base64::Engine as _;
    let encoded = base64::engine::general_purpose::STANDARD.encode(canary);
    assert!(
        !log.contains(&encoded[..16]),
        "an encoded Secret value in the change log"
    );
    let id = applies(&m).pop().unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let r = m.run(&["rollback", &id]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("never stores Secret values"), "{r:?}");
}

#[test]
fn rbac_that_denies_the_apply_is_exit_3_journaled_and_nothing_sent() {
    let ns = Namespace::new("apply-rbac");
    let m = myops();
    // get only: the create and patch reviews say no.
    ns.grant("alice", "get,list", "configmaps");
    let f = manifest(&m, "c.yaml", &cm(&ns.0, "c", "  a: \"1\"\n"));
    let mark = audit_mark();
    let r = m.run(&["apply", "-f", f.to_str().unwrap(), "--context", "alice"]);
    assert_eq!(r.code, 3, "{r:?}");
    assert_eq!(r.stdout, "", "{r:?}");
    assert!(r.stderr.contains("alice"), "{r:?}");
    assert_eq!(applies(&m).pop().unwrap()["result"], "denied");
    assert!(live(&ns.0, "configmap", "c").is_none());
    assert!(
        mutations(mark, &ns.0).is_empty(),
        "{:?}",
        mutations(mark, &ns.0)
    );
}
