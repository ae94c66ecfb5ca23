//! `edit` against the real API server: parity with kubectl (the same script editor on twin
//! objects), the bad inputs of issue 27 (each with nothing sent), and `rollback` of an edit.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::fixture::{Myops, Namespace, cluster, create_secret, kubectl, root, text_of};

const PLUGIN: &str = "name: myops\nverbs: [get, patch, edit]\nresources: [configmaps, secrets, deployments]\nscopes: [namespace]\n";

/// An executable shell script `name` in `dir` with `body` (the file is `$1`).
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// The oracle kubectl run with `KUBE_EDITOR=editor`: (exit code, stdout, stderr).
fn kubectl_edit(editor: &Path, args: &[&str]) -> (i32, String, String) {
    kubectl_edit_seen(editor, args, "/dev/null")
}

/// [`kubectl_edit`] with `SEEN` (where a script editor copies the buffer it was given).
fn kubectl_edit_seen(editor: &Path, args: &[&str], seen: &str) -> (i32, String, String) {
    // kubectl's kept copies go under its test home, not the shared /tmp.
    let tmp = std::env::temp_dir().join("myops-test-kubectl-home/tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let out = Command::new(root().join("target/testbin/kubectl"))
        .env("SEEN", seen)
        .env("TMPDIR", &tmp)
        .arg("edit")
        .args(args)
        .env("KUBECONFIG", &cluster().kubeconfig)
        .env("HOME", std::env::temp_dir().join("myops-test-kubectl-home"))
        .env("KUBE_EDITOR", editor)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        text_of(&out.stdout),
        text_of(&out.stderr),
    )
}

/// `kubectl-myops edit ARGS` with `KUBE_EDITOR=editor`.
fn myops_edit(m: &mut Myops, editor: &Path, args: &[&str]) -> (i32, String, String) {
    m.set_env("KUBE_EDITOR", &editor.display().to_string());
    // The editor's private directory and the copies kept after a failed edit go to this
    // test's own temporary directory.
    let tmp = m.dir.path().join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    m.set_env("TMPDIR", &tmp.display().to_string());
    let mut all = vec!["edit"];
    all.extend_from_slice(args);
    let r = m.run(&all);
    (r.code, r.stdout, r.stderr)
}

fn configmap(ns: &str, name: &str, value: &str) {
    kubectl(&[
        "create",
        "configmap",
        name,
        "-n",
        ns,
        &format!("--from-literal=a={value}"),
    ]);
}

fn object(ns: &str, kind: &str, name: &str) -> Value {
    serde_json::from_str(&kubectl(&["get", kind, name, "-n", ns, "-o", "json"])).unwrap()
}

/// A temp file path in stderr (kubectl's or ours) replaced by `PATH`.
fn mask_paths(s: &str) -> String {
    s.lines()
        .map(|l| match l.find("stored to \"") {
            Some(i) => format!("{}stored to \"PATH\"", &l[..i]),
            None => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The buffer an editor saw without the lines that differ between twin objects.
fn comparable(buffer: &str) -> String {
    buffer
        .lines()
        .filter(|l| {
            ![
                "  creationTimestamp:",
                "  namespace:",
                "  resourceVersion:",
                "  uid:",
            ]
            .iter()
            .any(|p| l.starts_with(p))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn edit_entries(m: &Myops) -> Vec<Value> {
    m.latest_records()
        .into_iter()
        .filter(|e| e["operation"] == "edit")
        .collect()
}

#[test]
fn edit_matches_kubectl_on_twin_objects_with_the_same_script_editor() {
    let (ours, theirs) = (Namespace::new("edit-ours"), Namespace::new("edit-theirs"));
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().display().to_string();
    let mut m = Myops::new(PLUGIN);
    // Each case: an editor body (the seen buffer is copied to $SEEN), the expected exit code.
    let cases: &[(&str, &str, i32)] = &[
        (
            "change_a_value",
            r#"sed -i 's/^  a: "1"$/  a: "2"/' "$1""#,
            0,
        ),
        ("no_change", "true", 0),
        ("editor_fails", "exit 3", 1),
        ("rename", "sed -i 's/^  name: c1$/  name: c9/' \"$1\"", 1),
        (
            "change_kind",
            "sed -i 's/^kind: ConfigMap$/kind: Secret/' \"$1\"",
            1,
        ),
        (
            "invalid_label_then_unchanged",
            r#"n=$(cat "$SEEN.n" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "$SEEN.n"; [ $n = 1 ] && sed -i 's/^  name: c1$/  name: c1\n  labels:\n    "bad key!": x/' "$1"; exit 0"#,
            1,
        ),
        (
            "bad_yaml_then_unchanged",
            r#"n=$(cat "$SEEN.n" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "$SEEN.n"; [ $n = 1 ] && echo 'data: [unclosed' >> "$1"; exit 0"#,
            1,
        ),
        (
            "add_a_label",
            r#"sed -i 's/^  name: c1$/  name: c1\n  labels:\n    tier: front/' "$1""#,
            0,
        ),
    ];
    let mut compared = Vec::new();
    for (i, (case, body, code)) in cases.iter().enumerate() {
        let name = "c1";
        for ns in [&ours.0, &theirs.0] {
            let _ = kubectl(&["delete", "configmap", name, "-n", ns, "--ignore-not-found"]);
            configmap(ns, name, "1");
        }
        let seen = |who: &str| format!("{d}/seen-{i}-{who}");
        // One editor for both (its path is in kubectl's message): it copies what it was
        // given first to $SEEN.
        let ed = script(
            dir.path(),
            &format!("ed-{i}.sh"),
            &format!("[ -e \"$SEEN\" ] || cp \"$1\" \"$SEEN\"\n{body}"),
        );
        let k = kubectl_edit_seen(
            &ed,
            &[&format!("configmap/{name}"), "-n", &theirs.0],
            &seen("kubectl"),
        );
        m.set_env("SEEN", &seen("myops"));
        let o = myops_edit(&mut m, &ed, &["configmap", name, "-n", &ours.0]);
        assert_eq!(k.0, *code, "{case}: kubectl {k:?}");
        assert_eq!((o.0, &o.1), (k.0, &k.1), "{case}: ours {o:?} kubectl {k:?}");
        assert_eq!(mask_paths(&o.2), mask_paths(&k.2), "{case}: stderr");
        let (sk, so) = (
            std::fs::read_to_string(seen("kubectl")).unwrap(),
            std::fs::read_to_string(seen("myops")).unwrap(),
        );
        assert_eq!(
            comparable(&so),
            comparable(&sk),
            "{case}: the buffer the editor saw"
        );
        let (a, b) = (object(&ours.0, "cm", name), object(&theirs.0, "cm", name));
        assert_eq!(a["data"], b["data"], "{case}");
        assert_eq!(a["metadata"]["labels"], b["metadata"]["labels"], "{case}");
        compared.push(format!("edit configmap/{name} [{case}] -> exit {code}"));
    }
    eprintln!("compared with kubectl:\n{}", compared.join("\n"));
}

#[test]
fn rollback_of_an_edit_restores_the_object_exactly() {
    let ns = Namespace::new("edit-rollback");
    configmap(&ns.0, "c1", "1");
    kubectl(&["label", "configmap", "c1", "-n", &ns.0, "keep=yes"]);
    let before = object(&ns.0, "cm", "c1");
    let dir = tempfile::tempdir().unwrap();
    let ed = script(
        dir.path(),
        "ed.sh",
        r#"sed -i 's/^  a: "1"$/  a: "2"\n  b: "new"/; s/^    keep: "yes"$/    keep: "no"/' "$1""#,
    );
    let mut m = Myops::new(PLUGIN);
    let r = myops_edit(&mut m, &ed, &["cm", "c1", "-n", &ns.0]);
    assert_eq!((r.0, r.1.as_str()), (0, "configmap/c1 edited\n"), "{r:?}");
    let mid = object(&ns.0, "cm", "c1");
    assert_eq!(mid["data"], serde_json::json!({"a": "2", "b": "new"}));
    let entries = edit_entries(&m);
    assert_eq!(entries.len(), 1, "one journal entry per edit: {entries:#?}");
    let e = &entries[0];
    assert_eq!(e["result"], "success");
    assert_eq!(
        e["resourceVersionAfter"], mid["metadata"]["resourceVersion"],
        "{e:#}"
    );
    let id = e["id"].as_str().unwrap();
    let r = m.run(&["rollback", id]);
    assert_eq!(r.code, 0, "{r:?}");
    let after = object(&ns.0, "cm", "c1");
    assert_eq!(after["data"], before["data"]);
    assert_eq!(after["metadata"]["labels"], before["metadata"]["labels"]);
    assert_ne!(
        after["metadata"]["resourceVersion"], mid["metadata"]["resourceVersion"],
        "the restore is a new write"
    );
    let metrics = m.run(&["metrics", "show", "-o", "json"]);
    assert!(
        metrics.stdout.contains("\"edit\""),
        "edit is counted: {metrics:?}"
    );
    // Someone else changing a field the edit touched: the rollback's resourceVersion guard
    // holds (exit 5) and their value stays.
    let r = myops_edit(&mut m, &ed, &["cm", "c1", "-n", &ns.0]);
    assert_eq!(r.0, 0, "{r:?}");
    let id = edit_entries(&m).last().unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    kubectl(&[
        "patch",
        "configmap",
        "c1",
        "-n",
        &ns.0,
        "--type",
        "merge",
        "-p",
        r#"{"data":{"a":"3"}}"#,
    ]);
    let r = m.run(&["rollback", &id]);
    assert_eq!(r.code, 5, "a changed object is a conflict: {r:?}");
    assert_eq!(object(&ns.0, "cm", "c1")["data"]["a"], "3");
}

#[test]
fn a_write_while_the_editor_is_open_is_a_conflict_and_nothing_is_overwritten() {
    let ns = Namespace::new("edit-conflict");
    configmap(&ns.0, "c1", "1");
    let dir = tempfile::tempdir().unwrap();
    let k = root().join("target/testbin/kubectl");
    let ed = script(
        dir.path(),
        "ed.sh",
        &format!(
            "KUBECONFIG={} HOME={} {} -n {} label cm c1 meanwhile=1 >/dev/null\nsed -i 's/^  a: \"1\"$/  a: \"2\"/' \"$1\"",
            cluster().kubeconfig.display(),
            std::env::temp_dir()
                .join("myops-test-kubectl-home")
                .display(),
            k.display(),
            ns.0
        ),
    );
    let mut m = Myops::new(PLUGIN);
    let r = myops_edit(&mut m, &ed, &["cm", "c1", "-n", &ns.0]);
    assert_eq!(r.0, 5, "{r:?}");
    assert!(
        r.2.contains("A copy of your changes has been stored to"),
        "{r:?}"
    );
    // The copy is private, holds the edit, and the editor's directory is gone.
    let kept: Vec<_> = std::fs::read_dir(m.dir.path().join("tmp"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(kept.len(), 1, "only the kept copy is left: {kept:?}");
    assert_eq!(
        std::fs::metadata(&kept[0]).unwrap().permissions().mode() & 0o777,
        0o600
    );
    assert!(
        std::fs::read_to_string(&kept[0])
            .unwrap()
            .contains("  a: \"2\"")
    );
    let now = object(&ns.0, "cm", "c1");
    assert_eq!(now["data"]["a"], "1");
    assert_eq!(now["metadata"]["labels"]["meanwhile"], "1");
}

#[test]
fn edit_bad_inputs_send_nothing() {
    let ns = Namespace::new("edit-bad");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().display().to_string();
    // (case, editor body, exit code, stderr must contain)
    let cases: &[(&str, String, i32, &str)] = &[
        (
            "nonzero",
            "exit 1".into(),
            1,
            "error: there was a problem with the editor",
        ),
        (
            "missing",
            String::new(),
            1,
            "error: unable to launch the editor",
        ),
        (
            "emptied",
            ": > \"$1\"".into(),
            0,
            "Edit cancelled, saved file was empty.\n",
        ),
        (
            "untouched",
            "true".into(),
            0,
            "Edit cancelled, no changes made.\n",
        ),
        (
            "huge",
            "head -c 52428800 /dev/zero | tr '\\0' 'a' >> \"$1\"".into(),
            2,
            "bytes, more than the API server accepts in one request",
        ),
        (
            "renamed",
            "sed -i 's/^  name: c1$/  name: other/' \"$1\"".into(),
            1,
            "error: At least one of apiVersion, kind and name was changed",
        ),
        (
            "bad_yaml",
            format!(
                "n=$(cat {d}/count 2>/dev/null || echo 0); n=$((n+1)); echo $n > {d}/count; cp \"$1\" {d}/pass$n; [ $n = 1 ] && echo 'data: [unclosed' >> \"$1\"; exit 0"
            ),
            1,
            "error: Edit cancelled, no valid changes were saved.",
        ),
    ];
    let mut m = Myops::new(PLUGIN);
    for (case, body, code, want) in cases {
        let _ = kubectl(&[
            "delete",
            "configmap",
            "c1",
            "-n",
            &ns.0,
            "--ignore-not-found",
        ]);
        configmap(&ns.0, "c1", "1");
        let rv = object(&ns.0, "cm", "c1")["metadata"]["resourceVersion"].clone();
        let ed = if *case == "missing" {
            dir.path().join("no-such-editor")
        } else {
            script(dir.path(), &format!("{case}.sh"), body)
        };
        let r = myops_edit(&mut m, &ed, &["cm", "c1", "-n", &ns.0]);
        assert_eq!(r.0, *code, "{case}: {r:?}");
        assert!(r.2.contains(want), "{case}: {r:?}");
        assert_eq!(r.1, "", "{case}");
        let now = object(&ns.0, "cm", "c1");
        assert_eq!(
            now["metadata"]["resourceVersion"], rv,
            "{case}: nothing sent"
        );
        assert!(edit_entries(&m).is_empty(), "{case}: nothing journaled");
    }
    // The invalid YAML was re-opened with the error as a comment at the top.
    let second = std::fs::read_to_string(dir.path().join("pass2")).unwrap();
    assert!(
        second.contains(
            "#\n# configmaps \"c1\" was not valid:\n# * The edited file had a syntax error: line"
        ),
        "{second}"
    );
    assert!(second.ends_with("data: [unclosed\n"), "{second}");
}

#[test]
fn an_unwritable_journal_stops_edit_before_the_editor_starts() {
    let ns = Namespace::new("edit-journal");
    configmap(&ns.0, "c1", "1");
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("started");
    let ed = script(dir.path(), "ed.sh", &format!("touch {}", marker.display()));
    let mut m = Myops::new(PLUGIN);
    let home = m.dir.path().join("myops");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::set_permissions(&home, std::fs::Permissions::from_mode(0o700)).unwrap();
    std::fs::create_dir(home.join("changelog.lock")).unwrap();
    let r = myops_edit(&mut m, &ed, &["cm", "c1", "-n", &ns.0]);
    assert_ne!(r.0, 0, "{r:?}");
    assert!(r.2.contains("change log"), "{r:?}");
    assert!(!marker.exists(), "the editor never started");
    assert_eq!(object(&ns.0, "cm", "c1")["data"]["a"], "1");
}

#[test]
fn a_field_policy_denying_the_edit_exits_3_and_changes_nothing() {
    let ns = Namespace::new("edit-policy");
    configmap(&ns.0, "c1", "1");
    let rv = object(&ns.0, "cm", "c1")["metadata"]["resourceVersion"].clone();
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().display().to_string();
    let ed = script(
        dir.path(),
        "ed.sh",
        &format!(
            "n=$(cat {d}/count 2>/dev/null || echo 0); n=$((n+1)); echo $n > {d}/count; cp \"$1\" {d}/pass$n\nsed -i 's/^  a: \"1\"$/  a: \"2\"/' \"$1\""
        ),
    );
    let mut m = Myops::new(&format!(
        "{PLUGIN}policies:\n- resource: configmaps\n  deny: [/data/a]\n  message: a is set in git\n"
    ));
    let r = myops_edit(&mut m, &ed, &["cm", "c1", "-n", &ns.0]);
    assert_eq!(r.0, 3, "{r:?}");
    assert!(r.2.contains("a is set in git"), "{r:?}");
    assert!(
        r.2.contains("A copy of your changes has been stored to"),
        "{r:?}"
    );
    let second = std::fs::read_to_string(dir.path().join("pass2")).unwrap();
    assert!(
        second.contains("# error: ") || second.contains("a is set in git"),
        "{second}"
    );
    let now = object(&ns.0, "cm", "c1");
    assert_eq!(now["metadata"]["resourceVersion"], rv, "nothing changed");
}

#[test]
fn editing_a_secret_never_puts_its_values_in_the_journal() {
    let ns = Namespace::new("edit-secret");
    create_secret(&ns.0, "s1", &["pw=edSecretV4lue1"]);
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().display().to_string();
    // The new value, base64 of "edSecretV4lue2".
    let ed = |who: &str| {
        script(
            dir.path(),
            &format!("ed-{who}.sh"),
            &format!(
                "cp \"$1\" {d}/seen-{who}\nsed -i 's/^  pw: .*$/  pw: ZWRTZWNyZXRWNGx1ZTI=/' \"$1\""
            ),
        )
    };
    let twin = Namespace::new("edit-secret-twin");
    create_secret(&twin.0, "s1", &["pw=edSecretV4lue1"]);
    let k = kubectl_edit(&ed("kubectl"), &["secret", "s1", "-n", &twin.0]);
    let mut m = Myops::new(PLUGIN);
    let r = myops_edit(&mut m, &ed("myops"), &["secret", "s1", "-n", &ns.0]);
    assert_eq!((r.0, r.1.as_str()), (k.0, k.1.as_str()), "{r:?} {k:?}");
    let seen = |who: &str| comparable(&std::fs::read_to_string(format!("{d}/seen-{who}")).unwrap());
    assert_eq!(
        seen("myops"),
        seen("kubectl"),
        "the editor sees what kubectl shows"
    );
    assert_eq!(
        object(&ns.0, "secret", "s1")["data"]["pw"],
        "ZWRTZWNyZXRWNGx1ZTI="
    );
    let journal = std::fs::read_to_string(m.dir.path().join("myops/changelog.jsonl")).unwrap();
    for secret in [
        "ZWRTZWNyZXRWNGx1ZTE=",
        "ZWRTZWNyZXRWNGx1ZTI=",
        "edSecretV4lue",
    ] {
        assert!(!journal.contains(secret), "{secret} in the journal");
    }
    assert_eq!(edit_entries(&m).len(), 1);
}

#[test]
fn edit_refuses_contexts_before_anything_runs() {
    let m = Myops::new(PLUGIN);
    let r = m.run(&["edit", "cm", "c1", "--contexts", "admin,admin-2"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr.contains("edit does not take --contexts or --all-contexts: one editor session edits one object in one cluster"),
        "{r:?}"
    );
}

#[test]
fn edit_as_json_shows_what_kubectl_shows_and_sends_the_change() {
    let (ours, theirs) = (
        Namespace::new("edit-json"),
        Namespace::new("edit-json-twin"),
    );
    configmap(&ours.0, "c1", "1");
    configmap(&theirs.0, "c1", "1");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().display().to_string();
    let ed = script(
        dir.path(),
        "ed.sh",
        r#"cp "$1" "$SEEN"
sed -i 's/"a": "1"/"a": "2"/' "$1""#,
    );
    let k = kubectl_edit_seen(
        &ed,
        &["cm", "c1", "-n", &theirs.0, "-o", "json"],
        &format!("{d}/k"),
    );
    let mut m = Myops::new(PLUGIN);
    m.set_env("SEEN", &format!("{d}/o"));
    let o = myops_edit(&mut m, &ed, &["cm", "c1", "-n", &ours.0, "-o", "json"]);
    assert_eq!((o.0, &o.2), (k.0, &k.2));
    // Both print the edited object as JSON (kubectl's -o applies to the result too).
    let printed = |out: &str| {
        let mut v: Value = serde_json::from_str(out).unwrap();
        let meta = v["metadata"].as_object_mut().unwrap();
        for k in [
            "creationTimestamp",
            "namespace",
            "resourceVersion",
            "uid",
            "managedFields",
        ] {
            meta.remove(k);
        }
        v
    };
    assert_eq!(printed(&o.1), printed(&k.1));
    let strip = |f: &str| {
        std::fs::read_to_string(format!("{d}/{f}"))
            .unwrap()
            .lines()
            .filter(|l| {
                ![
                    "\"creationTimestamp\"",
                    "\"namespace\"",
                    "\"resourceVersion\"",
                    "\"uid\"",
                ]
                .iter()
                .any(|k| l.trim_start().starts_with(k))
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip("o"), strip("k"), "the JSON buffer, without a header");
    assert_eq!(object(&ours.0, "cm", "c1")["data"]["a"], "2");
}

#[test]
fn editing_an_object_a_reconciler_owns_warns_once_and_goes_on() {
    let ns = Namespace::new("edit-owned");
    configmap(&ns.0, "c1", "1");
    kubectl(&[
        "label",
        "configmap",
        "c1",
        "-n",
        &ns.0,
        "kustomize.toolkit.fluxcd.io/name=apps",
        "kustomize.toolkit.fluxcd.io/namespace=flux-system",
    ]);
    let dir = tempfile::tempdir().unwrap();
    let ed = script(
        dir.path(),
        "ed.sh",
        r#"sed -i 's/^  a: "1"$/  a: "2"/' "$1""#,
    );
    let mut m = Myops::new(PLUGIN);
    let r = myops_edit(&mut m, &ed, &["cm", "c1", "-n", &ns.0]);
    assert_eq!((r.0, r.1.as_str()), (0, "configmap/c1 edited\n"), "{r:?}");
    assert_eq!(r.2.lines().count(), 1, "{r:?}");
    assert!(
        r.2.starts_with("warning: configmap/c1 is managed by Flux")
            && r.2.contains("label kustomize.toolkit.fluxcd.io/name"),
        "{r:?}"
    );
    let e = edit_entries(&m);
    assert_eq!(e.len(), 1);
    assert!(
        !e[0]["reconciler"].is_null(),
        "the owner is journaled: {:#}",
        e[0]
    );
    assert_eq!(object(&ns.0, "cm", "c1")["data"]["a"], "2");
}

#[test]
fn editing_a_deployment_matches_kubectl_and_rolls_back() {
    let (ours, theirs) = (
        Namespace::new("edit-deploy"),
        Namespace::new("edit-deploy-twin"),
    );
    crate::fixture::create_deployment(&ours.0, "web");
    crate::fixture::create_deployment(&theirs.0, "web");
    let dir = tempfile::tempdir().unwrap();
    // A scalar, a list item's field and a new map entry in the pod template.
    let ed = script(
        dir.path(),
        "ed.sh",
        r#"sed -i '/^spec:/,/^status:/ s/^  replicas: .*$/  replicas: 3/; s/^      - image: \(.*\)$/      - image: \1-edited/; s/^        app: web$/        app: web\n        tier: front/' "$1""#,
    );
    let before = object(&ours.0, "deploy", "web");
    let k = kubectl_edit(&ed, &["deployment", "web", "-n", &theirs.0]);
    let mut m = Myops::new(PLUGIN);
    let o = myops_edit(&mut m, &ed, &["deployment", "web", "-n", &ours.0]);
    assert_eq!(o, k);
    assert_eq!(o.1, "deployment.apps/web edited\n");
    let (a, b) = (
        object(&ours.0, "deploy", "web"),
        object(&theirs.0, "deploy", "web"),
    );
    assert_eq!(a["spec"], b["spec"], "the same object results");
    assert_eq!(a["spec"]["replicas"], 3);
    let id = edit_entries(&m)[0]["id"].as_str().unwrap().to_string();
    let r = m.run(&["rollback", &id]);
    assert_eq!(r.code, 0, "{r:?}");
    let after = object(&ours.0, "deploy", "web");
    assert_eq!(
        after["spec"], before["spec"],
        "the rollback restores the spec exactly"
    );
}
