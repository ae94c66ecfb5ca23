//! Integration tests of plugin.yaml `protect:` (docs/protection.md) against the real API
//! server: every mutating verb refused headless in a protected namespace with nothing changed
//! and one complete refusal record, and let through by the flag that answers the rule; the
//! question under a real pseudo-terminal (`script(1)`): `y`, `n`, the wrong and the right
//! context name, Ctrl-C (exit 130) and a terminal that closes mid-question; `block` over
//! `--yes`, `requireReason`, a rollback of an entry journaled before the rule existed.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::fixture::{Myops, Namespace, Run, create_deployment, kubectl, text_of};

/// Every verb, on configmaps, deployments and CRDs, with a rule protecting `ns` in the
/// context `admin` (the test kubeconfig's current one) in `mode`.
fn myops(ns: &str, rule_extra: &str) -> Myops {
    Myops::new(&format!(
        "name: myops\nverbs: [get, patch, delete, apply, scale, label, annotate, edit, rollout]\nresources: [configmaps, deployments, customresourcedefinitions]\nscopes: [namespace, cluster]\nprotect:\n  - contexts: [admin]\n    namespaces: [{ns}]\n    message: the shop's production namespace\n{rule_extra}  - contexts: [admin]\n    verbs: [crd-apply, crd-prune]\n"
    ))
}

fn configmap(ns: &str, name: &str) -> Value {
    serde_json::from_str(&kubectl(&[
        "get",
        "configmap",
        name,
        "-n",
        ns,
        "-o",
        "json",
    ]))
    .unwrap()
}

/// A second rule over `ns` in the context `admin`, with `lines` (YAML, indented by 4).
fn rule_for(ns: &str, lines: &str) -> String {
    format!("  - contexts: [admin]\n    namespaces: [{ns}]\n{lines}")
}

/// `kubectl create configmap NAME --from-literal=a=1` in `ns`.
fn create_configmap(ns: &str, name: &str) {
    kubectl(&["create", "configmap", name, "-n", ns, "--from-literal=a=1"]);
}

fn last_record(m: &Myops) -> Value {
    m.records().pop().expect("a record")
}

/// A unique CRD for `crds sync`, in a directory of the test's.
fn crd_dir(m: &Myops, plural: &str) -> String {
    let dir = m.dir.path().join("crds");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join(format!("{plural}.yaml")),
        format!(
            "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: {plural}.protect.example.com\nspec:\n  group: protect.example.com\n  scope: Namespaced\n  names: {{plural: {plural}, singular: {s}, kind: {k}}}\n  versions:\n    - name: v1\n      served: true\n      storage: true\n      schema:\n        openAPIV3Schema: {{type: object, x-kubernetes-preserve-unknown-fields: true}}\n",
            s = plural.trim_end_matches('s'),
            k = "ProtectGuard",
        ),
    )
    .unwrap();
    dir.display().to_string()
}

/// The editor `edit` runs: sets data.a to `edited`.
fn editor(m: &Myops) -> String {
    use std::os::unix::fs::PermissionsExt;
    let path = m.dir.path().join("editor.sh");
    std::fs::write(
        &path,
        "#!/bin/sh\nsed -i 's/^  a: .*/  a: edited/' \"$1\"\n",
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.display().to_string()
}

#[test]
fn every_mutating_verb_is_refused_headless_in_a_protected_namespace_and_goes_on_with_yes() {
    let ns = Namespace::new("protect-verbs");
    let mut m = myops(&ns.0, "");
    m.set_env("KUBE_EDITOR", &editor(&m));
    let tmp = m.dir.path().join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    m.set_env("TMPDIR", &tmp.display().to_string());
    create_configmap(&ns.0, "c");
    create_configmap(&ns.0, "gone");
    create_deployment(&ns.0, "web");
    let manifest = m.dir.path().join("cm.yaml");
    std::fs::write(
        &manifest,
        format!("apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: c, namespace: {}}}\ndata: {{b: applied}}\n", ns.0),
    )
    .unwrap();
    let crds = crd_dir(&m, "protectguards");
    let n = ns.0.as_str();
    let merge = r#"{"data":{"a":"patched"}}"#;
    // The verbs whose object exists from the start; undelete and rollback follow below.
    let table: Vec<(&str, Vec<&str>)> = vec![
        ("apply", vec!["apply", "-f", manifest.to_str().unwrap()]),
        (
            "patch",
            vec![
                "patch",
                "configmap",
                "c",
                "-n",
                n,
                "--type",
                "merge",
                "-p",
                merge,
            ],
        ),
        (
            "label",
            vec!["label", "configmap", "c", "-n", n, "tier=web"],
        ),
        (
            "annotate",
            vec!["annotate", "configmap", "c", "-n", n, "owner=shop"],
        ),
        (
            "scale",
            vec!["scale", "deployment", "web", "-n", n, "--replicas", "3"],
        ),
        ("edit", vec!["edit", "configmap", "c", "-n", n]),
        (
            "rollout",
            vec!["rollout", "restart", "deployment/web", "-n", n],
        ),
        ("delete", vec!["delete", "configmap", "gone", "-n", n]),
        ("crd-apply", vec!["crds", "sync", crds.as_str()]),
    ];
    for (verb, args) in &table {
        let before = m.records().len();
        let r = m.run(args);
        assert_eq!(r.code, 3, "{verb} headless must be refused: {r:?}");
        assert!(
            r.stderr.contains("is protected by plugin.yaml protect[")
                && r.stderr
                    .contains("there is no terminal to ask on: pass --yes")
                && r.stderr.contains("nothing was sent"),
            "{verb}: {r:?}"
        );
        let records = m.records();
        assert_eq!(
            records.len(),
            before + 1,
            "{verb}: one complete record: {records:?}"
        );
        let rec = &records[before];
        assert_eq!(
            rec["result"], "refused by protect: no terminal to ask on",
            "{verb}"
        );
        assert_eq!(rec["operation"], *verb, "{verb}");
    }
    // Nothing changed.
    let c = configmap(n, "c");
    assert_eq!(c["data"]["a"], "1");
    assert!(c["metadata"].get("labels").is_none(), "{c}");
    assert!(c["metadata"].get("annotations").is_none(), "{c}");
    kubectl(&["get", "configmap", "gone", "-n", n]);
    let replicas = kubectl(&[
        "get",
        "deployment",
        "web",
        "-n",
        n,
        "-o",
        "jsonpath={.spec.replicas}",
    ]);
    assert_eq!(replicas.trim(), "2");
    let crd = Command::new(crate::fixture::root().join("target/testbin/kubectl"))
        .args(["get", "crd", "protectguards.protect.example.com"])
        .env("KUBECONFIG", &crate::fixture::cluster().kubeconfig)
        .output()
        .unwrap();
    assert!(!crd.status.success(), "the CRD must not be registered");

    // With the flag that answers the rule, each goes on and journals how.
    for (verb, args) in &table {
        let mut with_yes = args.clone();
        with_yes.push("--yes");
        let r = m.run(&with_yes);
        assert_eq!(r.code, 0, "{verb} --yes: {r:?}");
        assert!(r.stderr.contains("going on: --yes"), "{verb}: {r:?}");
        let rec = m
            .records()
            .into_iter()
            .rev()
            .find(|e| e["operation"] == *verb && e["result"] != "pending")
            .unwrap();
        assert_eq!(rec["protection"], "--yes", "{verb}: {rec}");
        assert_eq!(rec["result"], "success", "{verb}: {rec}");
    }
    let c = configmap(n, "c");
    assert_eq!(c["data"]["a"], "edited", "apply, patch, then edit: {c}");
    assert_eq!(c["metadata"]["labels"]["tier"], "web");

    // undelete and rollback of what was journaled: refused headless, then let through.
    let deleted = m
        .records()
        .into_iter()
        .find(|e| e["operation"] == "delete" && e["result"] == "success")
        .unwrap();
    let r = m.run(&["undelete", "configmap", "gone", "-n", n]);
    assert_eq!(r.code, 3, "{r:?}");
    assert_eq!(
        last_record(&m)["result"],
        "refused by protect: no terminal to ask on"
    );
    let r = m.run(&[
        "undelete",
        "--entry",
        deleted["id"].as_str().unwrap(),
        "--yes",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    kubectl(&["get", "configmap", "gone", "-n", n]);
    let label = m
        .records()
        .into_iter()
        .find(|e| e["operation"] == "label" && e["result"] == "success")
        .unwrap();
    let id = label["id"].as_str().unwrap().to_string();
    let r = m.run(&["rollback", &id]);
    assert_eq!(r.code, 3, "{r:?}");
    assert_eq!(last_record(&m)["operation"], "rollback");
    assert_eq!(configmap(n, "c")["metadata"]["labels"]["tier"], "web");
    let r = m.run(&["rollback", &id, "--yes"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        configmap(n, "c")["metadata"]
            .get("labels")
            .is_none_or(|l| l.get("tier").is_none())
    );
    kubectl(&[
        "delete",
        "crd",
        "protectguards.protect.example.com",
        "--wait=false",
    ]);
}

#[test]
fn block_is_never_overridden_by_yes_confirm_context_or_a_terminal() {
    let ns = Namespace::new("protect-block");
    let m = myops(
        &ns.0,
        &format!(
            "  - contexts: ['adm*']\n    namespaces: [{}]\n    verbs: [delete]\n    mode: block\n    message: never by hand\n",
            ns.0
        ),
    );
    create_configmap(&ns.0, "c");
    for extra in [vec!["--yes"], vec!["--confirm-context", "admin"], vec![]] {
        let mut args = vec!["delete", "configmap", "c", "-n", ns.0.as_str()];
        args.extend(extra.iter().copied());
        let r = m.run(&args);
        assert_eq!(r.code, 3, "{args:?}: {r:?}");
        assert!(
            r.stderr
                .contains("is blocked by plugin.yaml protect[1]: never by hand")
                && r.stderr.contains("a block is not lifted by --yes"),
            "{r:?}"
        );
        assert_eq!(last_record(&m)["result"], "refused by protect: block");
    }
    let r = pty(&m, &["delete", "configmap", "c", "-n", &ns.0], None, b"");
    assert_eq!(r.code, 3, "no question is asked in block mode: {r:?}");
    assert!(!r.stdout.contains("Go on?"), "{r:?}");
    kubectl(&["get", "configmap", "c", "-n", &ns.0]);
    // The rule protects only deletes: a label is asked about as confirm.
    let r = m.run(&["label", "configmap", "c", "-n", &ns.0, "a=b", "--yes"]);
    assert_eq!(r.code, 0, "{r:?}");
}

#[test]
fn confirm_context_naming_another_context_is_refused_and_the_right_one_answers_type_name() {
    let ns = Namespace::new("protect-name");
    let m = myops(&ns.0, &rule_for(&ns.0, "    mode: type-name\n"));
    create_configmap(&ns.0, "c");
    let r = m.run(&["label", "configmap", "c", "-n", &ns.0, "x=1", "--yes"]);
    assert_eq!(r.code, 3, "--yes does not answer type-name: {r:?}");
    assert!(
        r.stderr
            .contains("pass --confirm-context \"admin\" to go on"),
        "{r:?}"
    );
    let r = m.run(&[
        "label",
        "configmap",
        "c",
        "-n",
        &ns.0,
        "x=1",
        "--confirm-context",
        "bob",
    ]);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(
        r.stderr
            .contains("--confirm-context names \"bob\", not the context \"admin\""),
        "{r:?}"
    );
    assert!(configmap(&ns.0, "c")["metadata"].get("labels").is_none());
    let r = m.run(&[
        "label",
        "configmap",
        "c",
        "-n",
        &ns.0,
        "x=1",
        "--confirm-context",
        "admin",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(last_record(&m)["protection"], "--confirm-context");
}

#[test]
fn require_reason_refuses_without_one_and_journals_the_reason_given() {
    let ns = Namespace::new("protect-reason");
    let m = myops(&ns.0, &rule_for(&ns.0, "    requireReason: true\n"));
    create_configmap(&ns.0, "c");
    for reason in [vec![], vec!["--reason", "  "]] {
        let mut args = vec![
            "label",
            "configmap",
            "c",
            "-n",
            ns.0.as_str(),
            "x=1",
            "--yes",
        ];
        args.extend(reason.iter().copied());
        let r = m.run(&args);
        assert_eq!(r.code, 3, "{r:?}");
        assert!(
            r.stderr.contains("requires a reason: pass --reason TEXT"),
            "{r:?}"
        );
        assert_eq!(
            last_record(&m)["result"],
            "refused by protect: no reason given"
        );
    }
    let r = m.run(&[
        "label",
        "configmap",
        "c",
        "-n",
        &ns.0,
        "x=1",
        "--yes",
        "--reason",
        "INC-42 cache flush",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    let rec = last_record(&m);
    assert_eq!(rec["reason"], "INC-42 cache flush");
    assert_eq!(rec["protection"], "--yes");
}

#[test]
fn a_rollback_of_an_entry_journaled_before_the_rule_existed_is_protected() {
    let ns = Namespace::new("protect-older");
    let open = Myops::new(
        "name: myops\nverbs: [get, patch, label]\nresources: [configmaps]\nscopes: [namespace]\n",
    );
    create_configmap(&ns.0, "c");
    let r = open.run(&["label", "configmap", "c", "-n", &ns.0, "x=1"]);
    assert_eq!(r.code, 0, "{r:?}");
    let id = last_record(&open)["id"].as_str().unwrap().to_string();
    // The same MYOPS_HOME, now with a rule.
    std::fs::write(
        open.dir.path().join("plugin.yaml"),
        format!("name: myops\nverbs: [get, patch, label]\nresources: [configmaps]\nscopes: [namespace]\nprotect:\n  - contexts: [admin]\n    namespaces: [{}]\n", ns.0),
    )
    .unwrap();
    let r = open.run(&["rollback", &id]);
    assert_eq!(r.code, 3, "{r:?}");
    assert_eq!(configmap(&ns.0, "c")["metadata"]["labels"]["x"], "1");
    let r = open.run(&["rollback", &id, "--yes"]);
    assert_eq!(r.code, 0, "{r:?}");
}

/// Runs `args` under a real pseudo-terminal (`script -qec`), waits for `prompt` (when given)
/// to appear on it, then types `keys`; how it ended, the terminal's text as stdout.
fn pty(m: &Myops, args: &[&str], prompt: Option<&str>, keys: &[u8]) -> Run {
    pty_with(m, args, prompt, |stdin, _| {
        stdin.write_all(keys).unwrap();
        stdin.flush().unwrap();
    })
}

fn pty_with(
    m: &Myops,
    args: &[&str],
    prompt: Option<&str>,
    then: impl FnOnce(&mut std::process::ChildStdin, &mut dyn FnMut(&str)),
) -> Run {
    let quote = |a: &str| format!("'{}'", a.replace('\'', r"'\''"));
    let line: Vec<String> = std::iter::once(env!("CARGO_BIN_EXE_kubectl-myops"))
        .chain(args.iter().copied())
        .map(quote)
        .collect();
    let mut c = Command::new("script");
    c.args(["-qec", &line.join(" "), "/dev/null"])
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("TERM", "dumb")
        .envs(m.env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    crate::fixture::detach_from_terminal(&mut c);
    let mut child = c.spawn().expect("script(1) runs");
    let mut stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel::<Vec<u8>>();
    let reader = std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = stdout.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let mut seen = Vec::new();
    // Waits until the terminal shows `prompt` once more than it has so far.
    let mut wait_for = |prompt: &str| {
        let end = Instant::now() + Duration::from_secs(60);
        let shown = text_of(&seen).matches(prompt).count() + 1;
        while text_of(&seen).matches(prompt).count() < shown {
            assert!(
                Instant::now() < end,
                "no prompt {prompt:?} in {:?}",
                text_of(&seen)
            );
            if let Ok(chunk) = rx.recv_timeout(Duration::from_millis(100)) {
                seen.extend(chunk);
            }
        }
    };
    if let Some(prompt) = prompt {
        wait_for(prompt);
    }
    let mut stdin = child.stdin.take().unwrap();
    then(&mut stdin, &mut wait_for);
    let status = wait_bounded(&mut child, Duration::from_secs(60));
    drop(stdin);
    reader.join().unwrap();
    seen.extend(rx.try_iter().flatten());
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    Run {
        code: status,
        stdout: text_of(&seen),
        stderr,
    }
}

/// The exit code of `child`, killed after `limit` (-1 then, or when a signal ended it).
fn wait_bounded(child: &mut std::process::Child, limit: Duration) -> i32 {
    let end = Instant::now() + limit;
    loop {
        if let Some(s) = child.try_wait().unwrap() {
            return s.code().unwrap_or(-1);
        }
        if Instant::now() > end {
            let _ = child.kill();
            let _ = child.wait();
            return -1;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn the_question_on_a_terminal_shows_the_dry_run_and_takes_y_and_refuses_n() {
    let ns = Namespace::new("protect-pty");
    let m = myops(&ns.0, "");
    create_configmap(&ns.0, "c");
    let args = [
        "label",
        "configmap",
        "c",
        "-n",
        ns.0.as_str(),
        "tier=web",
        "--reason",
        "move to tiers",
    ];
    let r = pty(&m, &args, Some("Go on? [y/N]: "), b"n\r");
    assert_eq!(r.code, 3, "{r:?}");
    assert!(
        r.stdout.contains(&format!(
            "PROTECTED  label configmap/c in namespace \"{}\" of context \"admin\"",
            ns.0
        )),
        "{r:?}"
    );
    assert!(
        r.stdout
            .contains("rule:      protect[0] (confirm): the shop's production namespace"),
        "{r:?}"
    );
    assert!(r.stdout.contains("user:      admin"), "{r:?}");
    assert!(r.stdout.contains("reason:    move to tiers"), "{r:?}");
    assert!(
        r.stdout
            .contains("preview (server dry run):\r\n    + metadata.labels: {\"tier\":\"web\"}\r\n"),
        "{r:?}"
    );
    assert!(
        r.stdout
            .contains("was not confirmed at the terminal; nothing was sent"),
        "{r:?}"
    );
    assert!(configmap(&ns.0, "c")["metadata"].get("labels").is_none());
    assert_eq!(
        last_record(&m)["result"],
        "refused by protect: not confirmed"
    );

    let r = pty(&m, &args, Some("Go on? [y/N]: "), b"y\r");
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(configmap(&ns.0, "c")["metadata"]["labels"]["tier"], "web");
    let rec = last_record(&m);
    assert_eq!(rec["protection"], "confirmed on the terminal");
    assert_eq!(rec["result"], "success");
}

#[test]
fn type_name_on_a_terminal_refuses_the_wrong_name_and_takes_the_right_one() {
    let ns = Namespace::new("protect-typename");
    let m = myops(&ns.0, &rule_for(&ns.0, "    mode: type-name\n"));
    create_deployment(&ns.0, "web");
    let args = [
        "scale",
        "deployment",
        "web",
        "-n",
        ns.0.as_str(),
        "--replicas",
        "4",
    ];
    let prompt = "Type the context name \"admin\" to go on: ";
    let r = pty(&m, &args, Some(prompt), b"adminn\x7f\x7fx\r");
    assert_eq!(r.code, 3, "admix is not admin: {r:?}");
    assert!(
        r.stdout.contains("spec.replicas: 2 → 4"),
        "the preview: {r:?}"
    );
    let r = pty(&m, &args, Some(prompt), b"y\r");
    assert_eq!(r.code, 3, "y is not the context name: {r:?}");
    let replicas = || {
        kubectl(&[
            "get",
            "deployment",
            "web",
            "-n",
            &ns.0,
            "-o",
            "jsonpath={.spec.replicas}",
        ])
    };
    assert_eq!(replicas().trim(), "2");
    let r = pty(&m, &args, Some(prompt), b"admi\x7fin\r");
    assert_eq!(r.code, 0, "backspace edits the answer: {r:?}");
    assert_eq!(replicas().trim(), "4");
}

#[test]
fn ctrl_c_at_the_question_exits_130_and_a_terminal_that_closes_changes_nothing() {
    let ns = Namespace::new("protect-ctrlc");
    let m = myops(&ns.0, "");
    create_configmap(&ns.0, "c");
    let args = ["annotate", "configmap", "c", "-n", ns.0.as_str(), "x=1"];
    let r = pty(&m, &args, Some("Go on? [y/N]: "), b"\x03");
    assert_eq!(r.code, 130, "SIGINT ends it as it ends kubectl: {r:?}");
    assert!(
        m.records().is_empty(),
        "nothing was attempted, nothing journaled"
    );
    assert!(
        configmap(&ns.0, "c")["metadata"]
            .get("annotations")
            .is_none()
    );
    let before = m.records().len();
    // Ctrl-D on an empty line: the terminal's end of file.
    let r = pty(&m, &args, Some("Go on? [y/N]: "), b"\x04");
    assert_eq!(r.code, 3, "{r:?}");
    assert!(
        r.stdout.contains("the terminal closed before the question"),
        "{r:?}"
    );
    assert_eq!(m.records().len(), before + 1);
    // The terminal goes away mid-question: script(1) killed, the pty hung up.
    let before = m.records().len();
    let r = pty_with(&m, &args, Some("Go on? [y/N]: "), |_, _| {
        let _ = Command::new("pkill")
            .args(["-KILL", "-f", &format!("script -qec .*{}", ns.0)])
            .status();
    });
    assert_ne!(r.code, 0, "{r:?}");
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        configmap(&ns.0, "c")["metadata"]
            .get("annotations")
            .is_none()
    );
    let records = m.records();
    assert!(
        records[before..]
            .iter()
            .all(|e| e["result"] != "success" && e["result"] != "pending"),
        "{records:?}"
    );
}

#[test]
fn a_fan_out_asks_once_per_wave_canary_first_and_is_refused_headless() {
    use crate::fleet::{TwoNamespaces, kubectl_in};
    let ns = TwoNamespaces::new("protect-fleet");
    ns.configmap_w();
    let m = Myops::new(
        "name: myops\nverbs: [get, patch, label]\nresources: [configmaps]\nscopes: [namespace]\nprotect:\n  - contexts: [admin, admin-2]\n  - contexts: [admin-2]\n    mode: type-name\n",
    );
    let label = |context: &str| {
        kubectl_in(
            context,
            &[
                "get",
                "configmap",
                "w",
                "-n",
                &ns.0,
                "-o",
                "jsonpath={.metadata.labels.x}",
            ],
        )
    };
    let args = [
        "label",
        "configmap",
        "w",
        "-n",
        ns.0.as_str(),
        "x=1",
        "--contexts",
        "admin,admin-2",
    ];
    let r = m.run(&args);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(
        r.stderr
            .contains("there is no terminal to ask on: pass --yes"),
        "{r:?}"
    );
    assert_eq!(
        (label("admin"), label("admin-2")),
        (String::new(), String::new())
    );
    // Declined at the canary wave: no context changes.
    let r = pty(&m, &args, Some("Go on in these contexts? [y/N]: "), b"n\r");
    assert_eq!(r.code, 3, "{r:?}");
    assert!(
        r.stdout
            .contains("PROTECTED  label in 1 protected context(s) of wave 1 of 2 (canary):"),
        "{r:?}"
    );
    assert!(r.stdout.contains("  admin  https://"), "{r:?}");
    assert_eq!(
        (label("admin"), label("admin-2")),
        (String::new(), String::new())
    );
    // y for the canary wave, then the second wave's context typed: one question each.
    let r = pty_with(
        &m,
        &args,
        Some("Go on in these contexts? [y/N]: "),
        |stdin, wait_for| {
            stdin.write_all(b"y\r").unwrap();
            stdin.flush().unwrap();
            wait_for("(space-separated) to go on: ");
            stdin.write_all(b"admin-2\r").unwrap();
            stdin.flush().unwrap();
        },
    );
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("of wave 2 of 2:"), "{r:?}");
    assert!(
        r.stdout.contains(
            "Type the names of the contexts \"admin-2\" (space-separated) to go on: admin-2"
        ),
        "{r:?}"
    );
    assert_eq!(r.stdout.matches("PROTECTED").count(), 2, "{r:?}");
    assert_eq!(
        (label("admin"), label("admin-2")),
        ("1".to_string(), "1".to_string())
    );
    let answered: Vec<Value> = m
        .records()
        .into_iter()
        .filter(|e| e["result"] == "success")
        .collect();
    assert_eq!(answered.len(), 2, "{answered:?}");
    assert!(
        answered
            .iter()
            .all(|e| e["protection"] == "answered for the fan-out wave")
    );
}

#[test]
fn one_answer_covers_every_object_a_selector_picks_and_the_question_names_them() {
    let ns = Namespace::new("protect-many");
    let m = myops(&ns.0, "");
    for name in ["a", "b", "c"] {
        create_configmap(&ns.0, name);
        kubectl(&["label", "configmap", name, "-n", &ns.0, "app=shop"]);
    }
    let args = ["delete", "configmap", "-l", "app=shop", "-n", ns.0.as_str()];
    let left = || {
        kubectl(&[
            "get",
            "configmaps",
            "-l",
            "app=shop",
            "-n",
            &ns.0,
            "-o",
            "name",
        ])
    };
    let r = pty(&m, &args, Some("Go on? [y/N]: "), b"n\r");
    assert_eq!(r.code, 3, "{r:?}");
    assert!(r.stdout.contains("objects:   3 in all: configmap/a, configmap/b, configmap/c (the first is previewed; one answer covers them all)"), "{r:?}");
    assert_eq!(r.stdout.matches("Go on?").count(), 1, "asked once: {r:?}");
    assert_eq!(left().lines().count(), 3, "nothing deleted");
    let r = pty(&m, &args, Some("Go on? [y/N]: "), b"y\r");
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stdout.matches("Go on?").count(), 1, "asked once: {r:?}");
    assert_eq!(left(), "", "all three deleted");
}

#[test]
fn keys_typed_before_the_question_is_shown_do_not_answer_it() {
    let ns = Namespace::new("protect-ahead");
    let m = myops(&ns.0, "");
    create_configmap(&ns.0, "c");
    let args = ["label", "configmap", "c", "-n", ns.0.as_str(), "x=1"];
    let r = pty_with(&m, &args, None, |stdin, wait_for| {
        stdin.write_all(b"y\r").unwrap();
        stdin.flush().unwrap();
        wait_for("Go on? [y/N]: ");
        stdin.write_all(b"n\r").unwrap();
        stdin.flush().unwrap();
    });
    assert_eq!(
        r.code, 3,
        "the y typed ahead was discarded, the n answered: {r:?}"
    );
    assert!(configmap(&ns.0, "c")["metadata"].get("labels").is_none());
}

#[test]
fn change_cause_carries_the_reason_of_a_workload_patch_and_its_rollback_removes_it() {
    let ns = Namespace::new("protect-cause");
    let m = Myops::new(
        "name: myops\nverbs: [get, patch, rollout]\nresources: [deployments, configmaps]\nscopes: [namespace]\nchangeCause: true\n",
    );
    create_deployment(&ns.0, "web");
    create_configmap(&ns.0, "c");
    let cause = || {
        kubectl(&[
            "get",
            "deployment",
            "web",
            "-n",
            &ns.0,
            "-o",
            r"jsonpath={.metadata.annotations.kubernetes\.io/change-cause}",
        ])
    };
    let r = m.run(&[
        "patch",
        "deployment",
        "web",
        "-n",
        &ns.0,
        "--type",
        "merge",
        "-p",
        r#"{"spec":{"minReadySeconds":5}}"#,
        "--reason",
        "INC-7 slow starts",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(cause(), "INC-7 slow starts");
    let entry = last_record(&m);
    assert_eq!(entry["reason"], "INC-7 slow starts");
    assert_eq!(
        entry["patch"]["metadata"]["annotations"]["kubernetes.io/change-cause"],
        "INC-7 slow starts",
        "the journal holds what was sent: {entry}"
    );
    let r = m.run(&[
        "rollout",
        "restart",
        "deployment/web",
        "-n",
        &ns.0,
        "--reason",
        "INC-8 stuck pods",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(cause(), "INC-8 stuck pods");
    // A ConfigMap is no workload: sent as written.
    let r = m.run(&[
        "patch",
        "configmap",
        "c",
        "-n",
        &ns.0,
        "--type",
        "merge",
        "-p",
        r#"{"data":{"a":"2"}}"#,
        "--reason",
        "why",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        configmap(&ns.0, "c")["metadata"]
            .get("annotations")
            .is_none()
    );
    // The rollback of the restart puts the earlier cause back.
    let id = last_record(&m);
    let restart = m
        .records()
        .into_iter()
        .rev()
        .find(|e| e["operation"] == "rollout" && e["result"] == "success")
        .unwrap();
    let r = m.run(&["rollback", restart["id"].as_str().unwrap()]);
    assert_eq!(r.code, 0, "{r:?} ({id})");
    assert_eq!(cause(), "INC-7 slow starts");
}

#[test]
fn a_lift_lets_changes_through_headless_until_it_expires_and_never_lifts_block() {
    let ns = Namespace::new("protect-lift-expiry");
    let m = myops(
        &ns.0,
        &rule_for(&ns.0, "    verbs: [delete]\n    mode: block\n"),
    );
    create_configmap(&ns.0, "c");
    let r = m.run(&["protect", "lift", "3s", "-n", &ns.0, "--reason", "INC-9"]);
    assert_eq!(r.code, 0, "{r:?}");
    let lift_id = last_record(&m)["id"].as_str().unwrap().to_string();
    let r = m.run(&["label", "configmap", "c", "-n", &ns.0, "x=1"]);
    assert_eq!(r.code, 0, "a lift in force answers confirm: {r:?}");
    assert!(
        r.stderr.contains(&format!("(lift {lift_id})")),
        "the change names the lift: {r:?}"
    );
    let protection = last_record(&m)["protection"].as_str().unwrap().to_string();
    assert!(
        protection.starts_with("lifted until ")
            && protection.ends_with(&format!("(lift {lift_id})")),
        "{protection}"
    );
    let r = m.run(&["delete", "configmap", "c", "-n", &ns.0]);
    assert_eq!(r.code, 3, "a lift never lifts block: {r:?}");
    std::thread::sleep(Duration::from_secs(4));
    let r = m.run(&["label", "configmap", "c", "-n", &ns.0, "y=1"]);
    assert_eq!(r.code, 3, "the lift expired: {r:?}");
    assert!(r.stderr.contains("there is no terminal to ask on"), "{r:?}");
    assert!(
        configmap(&ns.0, "c")["metadata"]["labels"]
            .get("y")
            .is_none()
    );
}

#[test]
fn a_lift_in_a_file_others_may_write_does_not_let_a_change_through() {
    use std::os::unix::fs::PermissionsExt;
    let ns = Namespace::new("protect-lift-tamper");
    let m = myops(&ns.0, "");
    create_configmap(&ns.0, "c");
    let r = m.run(&["protect", "lift", "10m", "-n", &ns.0]);
    assert_eq!(r.code, 0, "{r:?}");
    let file = m.dir.path().join("myops/protect/lifts.json");
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o666)).unwrap();
    let r = m.run(&["label", "configmap", "c", "-n", &ns.0, "x=1"]);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(
        r.stderr
            .contains("can be written by others (mode 666), so its lifts are ignored"),
        "{r:?}"
    );
    // Edited to end far in the future: more than maxLift from now, ignored with a warning.
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    let mut lifts: Value = serde_json::from_str(&text).unwrap();
    lifts[0]["until"] = "2099-01-01T00:00:00Z".into();
    std::fs::write(&file, lifts.to_string()).unwrap();
    let r = m.run(&["label", "configmap", "c", "-n", &ns.0, "x=1"]);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(
        r.stderr
            .contains("later than its rules' maxLift of 1h allows, so it is ignored"),
        "{r:?}"
    );
    assert!(configmap(&ns.0, "c")["metadata"].get("labels").is_none());
}

#[test]
fn a_rollback_that_deletes_was_not_stopped_by_a_block_on_delete() {
    let ns = Namespace::new("protect-rb-delete");
    let m = myops(
        &ns.0,
        &rule_for(&ns.0, "    verbs: [delete]\n    mode: block\n"),
    );
    let manifest = m.dir.path().join("cm.yaml");
    std::fs::write(
        &manifest,
        format!("apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: made, namespace: {}}}\ndata: {{a: b}}\n", ns.0),
    )
    .unwrap();
    let r = m.run(&["apply", "-f", manifest.to_str().unwrap(), "--yes"]);
    assert_eq!(r.code, 0, "{r:?}");
    let id = last_record(&m)["id"].as_str().unwrap().to_string();
    // The undo of a create deletes: a rule over delete stops it, whatever the flags.
    let r = m.run(&["rollback", &id, "--yes"]);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(
        r.stderr.contains("is blocked by plugin.yaml protect[1]"),
        "{r:?}"
    );
    assert_eq!(last_record(&m)["result"], "refused by protect: block");
    configmap(&ns.0, "made");
}

#[test]
fn a_lift_for_one_namespace_let_a_delete_across_namespaces_through() {
    let a = Namespace::new("protect-lift-a");
    let b = Namespace::new("protect-lift-b");
    let m = Myops::new(&format!(
        "name: myops\nverbs: [get, patch, delete]\nresources: [configmaps]\nscopes: [namespace, cluster]\nprotect:\n  - contexts: [admin]\n    namespaces: [{}, {}]\n",
        a.0, b.0
    ));
    for ns in [&a.0, &b.0] {
        create_configmap(ns, "victim");
        kubectl(&["label", "configmap", "victim", "-n", ns, "victim=lift"]);
    }
    let r = m.run(&["protect", "lift", "10m", "-n", &a.0]);
    assert_eq!(r.code, 0, "{r:?}");
    let r = m.run(&["delete", "configmap", "-A", "-l", "victim=lift"]);
    assert_eq!(r.code, 3, "the lift covers its own namespace only: {r:?}");
    let left = kubectl(&[
        "get",
        "configmaps",
        "-A",
        "-l",
        "victim=lift",
        "-o",
        "jsonpath={.items[*].metadata.namespace}",
    ]);
    assert_eq!(left.trim(), b.0, "deleted where lifted, kept where not");
    let refused = m
        .records()
        .into_iter()
        .rev()
        .find(|e| e["namespace"] == b.0.as_str())
        .unwrap();
    assert_eq!(
        refused["result"],
        "refused by protect: no terminal to ask on"
    );
}

#[test]
fn another_spelling_of_the_server_url_dodged_a_servers_block() {
    let ns = Namespace::new("protect-server-spelling");
    create_configmap(&ns.0, "c");
    let server = kubectl(&[
        "config",
        "view",
        "--minify",
        "--context",
        "admin",
        "-o",
        "jsonpath={.clusters[0].cluster.server}",
    ]);
    let (host, port) = server.trim().rsplit_once(':').unwrap();
    let m = Myops::new(&format!(
        "name: myops\nverbs: [get, patch, label]\nresources: [configmaps]\nscopes: [namespace]\nprotect:\n  - servers: ['{}/']\n    mode: block\n",
        server.trim()
    ));
    for spelling in [
        server.trim().to_string(),
        format!("{host}:0{port}"),
        format!("{}/?", server.trim()),
        server.trim().to_uppercase().replace("HTTPS", "https"),
    ] {
        let r = m.run(&[
            "label",
            "configmap",
            "c",
            "-n",
            &ns.0,
            "x=1",
            "--server",
            &spelling,
        ]);
        assert_eq!(r.code, 3, "{spelling}: {r:?}");
    }
    assert!(configmap(&ns.0, "c")["metadata"].get("labels").is_none());
}

#[test]
fn one_answer_at_the_terminal_covered_objects_its_question_never_named() {
    let ns = Namespace::new("protect-unnamed");
    let m = myops(&ns.0, "");
    let manifest = m.dir.path().join("mixed.yaml");
    std::fs::write(
        &manifest,
        format!("apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: cm1, namespace: {n}}}\ndata: {{a: b}}\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: unseen, namespace: {n}}}\nspec:\n  selector: {{matchLabels: {{app: unseen}}}}\n  template:\n    metadata: {{labels: {{app: unseen}}}}\n    spec: {{containers: [{{name: c, image: registry.invalid/unseen:1}}]}}\n", n = ns.0),
    )
    .unwrap();
    let r = pty_with(
        &m,
        &["apply", "-f", manifest.to_str().unwrap()],
        Some("Go on? [y/N]: "),
        |stdin, wait_for| {
            stdin.write_all(b"y\r").unwrap();
            stdin.flush().unwrap();
            wait_for("Go on? [y/N]: ");
            stdin.write_all(b"n\r").unwrap();
            stdin.flush().unwrap();
        },
    );
    assert_eq!(r.code, 3, "{r:?}");
    assert_eq!(
        r.stdout.matches("Go on? [y/N]: ").count(),
        2,
        "a second question for the object the first did not name: {r:?}"
    );
    assert!(
        r.stdout.contains("PROTECTED  apply deployment.apps/unseen"),
        "{r:?}"
    );
    configmap(&ns.0, "cm1");
    let deployments = kubectl(&["get", "deployments", "-n", &ns.0, "-o", "name"]);
    assert_eq!(deployments, "", "the deployment was refused");
}

#[test]
fn confirm_context_naming_another_context_was_ignored_where_no_rule_holds() {
    let ns = Namespace::new("protect-elsewhere");
    let m = myops("no-such-namespace", "");
    create_configmap(&ns.0, "c");
    let r = m.run(&[
        "label",
        "configmap",
        "c",
        "-n",
        &ns.0,
        "x=1",
        "--confirm-context",
        "prod",
    ]);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(
        r.stderr
            .contains("--confirm-context names \"prod\", but label configmap/c"),
        "{r:?}"
    );
    assert!(
        r.stderr
            .contains("the command was meant for another context"),
        "{r:?}"
    );
    assert!(configmap(&ns.0, "c")["metadata"].get("labels").is_none());
    let r = m.run(&[
        "label",
        "configmap",
        "c",
        "-n",
        &ns.0,
        "x=1",
        "--confirm-context",
        "admin",
    ]);
    assert_eq!(r.code, 0, "naming this context is fine: {r:?}");
    let r = m.run(&[
        "label",
        "configmap",
        "c",
        "-n",
        &ns.0,
        "y=1",
        "--dry-run=server",
        "--confirm-context",
        "prod",
    ]);
    assert_eq!(r.code, 0, "a dry run sends nothing: {r:?}");
}

#[test]
fn a_refused_namespace_delete_journaled_its_objects_as_snapshots_first() {
    let ns = Namespace::new("protect-ns-delete");
    let m = Myops::new(&format!(
        "name: myops\nverbs: [get, delete]\nresources: [configmaps, namespaces]\nscopes: [namespace, cluster]\nprotect:\n  - contexts: [admin]\n    namespaces: [{}]\n",
        ns.0
    ));
    create_configmap(&ns.0, "a");
    create_configmap(&ns.0, "b");
    let r = m.run(&["delete", "namespace", &ns.0]);
    assert_eq!(r.code, 3, "{r:?}");
    let records = m.records();
    assert_eq!(records.len(), 1, "one record, no snapshots: {records:?}");
    assert_eq!(records[0]["kind"], "Namespace");
    assert_eq!(
        records[0]["result"],
        "refused by protect: no terminal to ask on"
    );
    configmap(&ns.0, "a");
}

#[test]
fn a_headless_edit_opened_the_editor_before_protection_refused_it() {
    let ns = Namespace::new("protect-edit-early");
    let mut m = myops(&ns.0, "");
    let marker = m.dir.path().join("editor-ran");
    let editor = m.dir.path().join("editor.sh");
    std::fs::write(&editor, format!("#!/bin/sh\ntouch {}\n", marker.display())).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&editor, std::fs::Permissions::from_mode(0o755)).unwrap();
    m.set_env("KUBE_EDITOR", &editor.display().to_string());
    create_configmap(&ns.0, "c");
    let r = m.run(&["edit", "configmap", "c", "-n", &ns.0]);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(!marker.exists(), "the editor never opened");
    assert_eq!(m.records().len(), 1);
}
