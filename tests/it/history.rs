//! Readable history (issue 15 part 3) against the real API server: `changelog diff` of a
//! ConfigMap, a Deployment and a Secret (masked) from the journaled after-state, and from
//! the live object for an entry without one (saying which); `changelog list -o json|yaml`
//! with the user, operation, result, session and context filters; `changelog why` newest
//! first.

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::fixture::{
    Myops, Namespace, audit_mark, audit_since, create_deployment, kubectl, kubectl_merge_patch,
};

fn myops() -> Myops {
    Myops::new(
        "name: myops\nverbs: [get, patch]\nresources: [configmaps, secrets, deployments]\nscopes: [namespace]\nmetrics: [ops_total]\n",
    )
}

fn log_path(m: &Myops) -> std::path::PathBuf {
    m.dir.path().join("myops/changelog.jsonl")
}

/// `changelog list -o json`, parsed.
fn listed(m: &Myops, extra: &[&str]) -> Vec<Value> {
    let mut args = vec!["changelog", "list", "-o", "json"];
    args.extend_from_slice(extra);
    let r = m.run(&args);
    assert_eq!(r.code, 0, "{r:?}");
    serde_json::from_str::<Vec<Value>>(&r.stdout).unwrap_or_else(|e| panic!("{e}: {r:?}"))
}

fn patch(m: &Myops, ns: &str, what: &[&str], body: &str) {
    let r = m.merge_patch(ns, what[0], what[1], body);
    assert_eq!(r.code, 0, "{r:?}");
}

/// ConfigMap `web` with `color: blue`, `size: m`.
fn web_configmap(ns: &str) {
    kubectl(&[
        "create",
        "configmap",
        "web",
        "-n",
        ns,
        "--from-literal=color=blue",
        "--from-literal=size=m",
    ]);
}

/// Drops `after` from every record: an entry as written before after-states were journaled.
fn forget_after_states(m: &Myops) {
    let text = std::fs::read_to_string(log_path(m)).unwrap();
    let lines: String = text
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            v.as_object_mut().unwrap().remove("after");
            format!("{v}\n")
        })
        .collect();
    std::fs::write(log_path(m), lines).unwrap();
}

#[test]
fn diff_of_a_configmap_a_deployment_and_a_secret_from_the_journal_with_secret_values_masked() {
    let ns = Namespace::new("history-diff");
    let m = myops();
    web_configmap(&ns.0);
    create_deployment(&ns.0, "api");
    kubectl(&[
        "create",
        "secret",
        "generic",
        "db",
        "-n",
        &ns.0,
        "--from-literal=password=hunter2-old",
        "--from-literal=user=app",
    ]);
    patch(
        &m,
        &ns.0,
        &["configmap", "web"],
        r#"{"data":{"color":"green","size":null,"tier":"front"}}"#,
    );
    let r = m.run(&[
        "patch",
        "deployment",
        "api",
        "-n",
        &ns.0,
        "-p",
        r#"{"spec":{"replicas":3,"template":{"spec":{"containers":[{"name":"api","image":"registry.invalid/api:2"}]}}}}"#,
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    patch(
        &m,
        &ns.0,
        &["secret", "db"],
        r#"{"stringData":{"password":"hunter2-new"},"metadata":{"labels":{"rotated":"yes"}}}"#,
    );
    let entries = listed(&m, &[]);
    let ids: Vec<String> = entries
        .iter()
        .map(|e| e["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(ids.len(), 3);
    let rv = |i: usize| {
        entries[i]["resourceVersionAfter"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let source = |i: usize| {
        format!(
            "before: journaled with the change; after: journaled with the outcome (resourceVersion {})\n",
            rv(i)
        )
    };

    let r = m.run(&["changelog", "diff", &ids[0]]);
    assert_eq!(r.code, 0, "{r:?}");
    let (head, rest) = r.stdout.split_once('\n').unwrap();
    assert!(
        head.starts_with(&format!(
            "entry {}: patch configmap/{}/web by admin at ",
            ids[0], ns.0
        )) && head.ends_with(" (success)"),
        "{r:?}"
    );
    let mut lines: Vec<&str> = rest.lines().skip(1).collect();
    lines.sort();
    assert_eq!(
        lines,
        [
            "  + data.tier: \"front\"",
            "  - data.size (was \"m\")",
            "  data.color: \"blue\" → \"green\"",
        ],
        "{r:?}"
    );
    assert!(rest.starts_with(&source(0)), "{r:?}");

    let r = m.run(&["changelog", "diff", &ids[1]]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        r.stdout.lines().skip(1).collect::<Vec<_>>().join("\n") + "\n",
        format!(
            "{}  spec.replicas: 2 → 3\n  spec.template.spec.containers[0].image: \"registry.invalid/api:1\" → \"registry.invalid/api:2\"\n",
            source(1)
        ),
        "{r:?}"
    );

    let r = m.run(&["changelog", "diff", &ids[2]]);
    assert_eq!(r.code, 0, "{r:?}");
    let mut lines: Vec<&str> = r.stdout.lines().skip(2).collect();
    lines.sort();
    assert_eq!(
        lines,
        [
            "  + metadata.labels: {\"rotated\":\"yes\"}",
            "  data.password: \"*** (before)\" → \"*** (after)\"",
        ],
        "{r:?}"
    );
    // The user key did not change: not listed. No value anywhere, printed or journaled.
    let log = std::fs::read_to_string(log_path(&m)).unwrap();
    for secret in ["hunter2", "aHVudGVyMi1vbGQ", "aHVudGVyMi1uZXc", "YXBw"] {
        assert!(!r.stdout.contains(secret), "{secret} printed: {r:?}");
        assert!(!log.contains(secret), "{secret} journaled");
    }
    let secret_entry = &listed(&m, &["--object", "secret/db"])[0];
    assert_eq!(
        secret_entry["after"]["data"]["password"],
        "<redacted> (changed)"
    );
    assert_eq!(secret_entry["after"]["data"]["user"], "<redacted>");

    // Unknown id: exit 4.
    assert_eq!(m.run(&["changelog", "diff", "no-such-id"]).code, 4);
}

#[test]
fn diff_of_an_entry_without_an_after_state_reads_the_live_object_and_says_so() {
    let ns = Namespace::new("history-live");
    let m = myops();
    kubectl(&[
        "create",
        "configmap",
        "web",
        "-n",
        &ns.0,
        "--from-literal=color=blue",
    ]);
    kubectl(&[
        "create",
        "secret",
        "generic",
        "db",
        "-n",
        &ns.0,
        "--from-literal=password=hunter2-old",
    ]);
    patch(
        &m,
        &ns.0,
        &["configmap", "web"],
        r#"{"data":{"color":"green"}}"#,
    );
    patch(
        &m,
        &ns.0,
        &["secret", "db"],
        r#"{"stringData":{"password":"hunter2-new","token":"t0k3n-new"}}"#,
    );
    forget_after_states(&m);
    let entries = listed(&m, &[]);
    let (cm, secret) = (
        entries[0]["id"].as_str().unwrap().to_string(),
        entries[1]["id"].as_str().unwrap().to_string(),
    );
    let rv = entries[0]["resourceVersionAfter"]
        .as_str()
        .unwrap()
        .to_string();

    // Nobody wrote since: the live object is the after-state.
    let r = m.run(&["changelog", "diff", &cm]);
    assert_eq!(r.code, 0, "{r:?}");
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(
        lines[1..],
        [
            format!("before: journaled with the change; after: not journaled (an entry older than after-states); read from the cluster now — resourceVersion {rv} is still the one this change produced").as_str(),
            "  data.color: \"blue\" → \"green\"",
        ],
        "{r:?}"
    );

    // Someone changes it: before → now, said plainly.
    kubectl(&[
        "patch",
        "configmap",
        "web",
        "-n",
        &ns.0,
        "--type",
        "merge",
        "-p",
        r#"{"data":{"color":"red"}}"#,
    ]);
    let now = kubectl(&[
        "get",
        "configmap",
        "web",
        "-n",
        &ns.0,
        "-o",
        "jsonpath={.metadata.resourceVersion}",
    ]);
    let r = m.run(&["changelog", "diff", &cm]);
    assert_eq!(r.code, 0, "{r:?}");
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(
        lines[1..],
        [
            format!("before: journaled with the change; after: not journaled (an entry older than after-states), and the object changed since (resourceVersion {rv} after this change, {now} now): showing before → now").as_str(),
            "  data.color: \"blue\" → \"red\"",
        ],
        "{r:?}"
    );

    // A Secret read live: values never printed; the new key shows, the changed one cannot.
    let r = m.run(&["changelog", "diff", &secret]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout.contains("\nnote: Secret values are not journaled"),
        "{r:?}"
    );
    assert!(r.stdout.contains("  + data.token: \"***\"\n"), "{r:?}");
    for s in ["hunter2", "t0k3n", "dDBrM24", "aHVudGVy"] {
        assert!(!r.stdout.contains(s), "{s}: {r:?}");
    }

    // The object deleted: exit 4, saying what is unknown.
    kubectl(&["delete", "configmap", "web", "-n", &ns.0]);
    let r = m.run(&["changelog", "diff", &cm]);
    assert_eq!(r.code, 4, "{r:?}");
    assert!(
        r.stderr
            .contains("no longer exists, so what it changed to is unknown"),
        "{r:?}"
    );
}

#[test]
fn list_as_json_and_yaml_is_filtered_by_user_operation_result_session_and_context() {
    let ns = Namespace::new("history-list");
    ns.grant("alice", "get,patch", "configmaps");
    let m = myops();
    kubectl(&[
        "create",
        "configmap",
        "web",
        "-n",
        &ns.0,
        "--from-literal=color=blue",
    ]);
    patch(
        &m,
        &ns.0,
        &["configmap", "web"],
        r#"{"data":{"color":"green"}}"#,
    );
    let r = m.merge_patch_as(
        "alice",
        &ns.0,
        "configmap",
        "web",
        r#"{"data":{"color":"red"}}"#,
    );
    assert_eq!(r.code, 0, "{r:?}");
    let r = m.merge_patch_as(
        "bob",
        &ns.0,
        "configmap",
        "web",
        r#"{"data":{"color":"black"}}"#,
    );
    assert_eq!(r.code, 3, "{r:?}");
    let all = listed(&m, &[]);
    assert_eq!(all.len(), 3, "one entry per id: {all:?}");
    let rb = m.run(&["rollback", all[1]["id"].as_str().unwrap()]);
    assert_eq!(rb.code, 0, "{rb:?}");

    let users = |v: Vec<Value>| -> Vec<(String, String)> {
        v.iter()
            .map(|e| {
                (
                    e["user"].as_str().unwrap().to_string(),
                    e["operation"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    let s = |a: &str, b: &str| (a.to_string(), b.to_string());
    assert_eq!(
        users(listed(&m, &[])),
        [
            s("admin", "patch"),
            s("alice", "patch"),
            s("bob", "patch"),
            s("admin", "rollback")
        ]
    );
    assert_eq!(
        users(listed(&m, &["--user", "alice"])),
        [s("alice", "patch")]
    );
    assert_eq!(
        users(listed(&m, &["--operation", "rollback"])),
        [s("admin", "rollback")]
    );
    let failed = listed(&m, &["--result", "failure"]);
    assert_eq!(users(failed.clone()), [s("bob", "patch")]);
    assert_eq!(failed[0]["result"], "denied");
    assert_eq!(listed(&m, &["--result", "success"]).len(), 3);
    assert!(listed(&m, &["--result", "unknown"]).is_empty());
    assert_eq!(
        users(listed(&m, &["--context", "alice"])),
        [s("alice", "patch")]
    );
    let session = all[0]["session"].as_str().unwrap();
    assert_eq!(
        users(listed(&m, &["--session", session])),
        [s("admin", "patch")]
    );
    assert_eq!(
        users(listed(
            &m,
            &[
                "--user",
                "admin",
                "--operation",
                "patch",
                "--result",
                "success"
            ]
        )),
        [s("admin", "patch")]
    );
    // Each element is the entry's complete last record (before, after and all).
    let first = &listed(&m, &[])[0];
    assert_eq!(first["before"]["data"]["color"], "blue");
    assert_eq!(first["after"]["data"]["color"], "green");

    // YAML: the same list.
    let r = m.run(&["changelog", "list", "-o", "yaml", "--user", "alice"]);
    assert_eq!(r.code, 0, "{r:?}");
    let y: Vec<Value> = serde_saphyr::from_str(&r.stdout).unwrap();
    assert_eq!(users(y), [s("alice", "patch")]);

    // Nothing matches: an empty array, still valid JSON.
    let r = m.run(&["changelog", "list", "-o", "json", "--user", "nobody"]);
    assert_eq!((r.code, r.stdout.as_str()), (0, "[]\n"), "{r:?}");
    // A bad --result is a usage error.
    assert_eq!(m.run(&["changelog", "list", "--result", "maybe"]).code, 2);
}

#[test]
fn why_lists_both_patches_of_a_field_newest_first() {
    let ns = Namespace::new("history-why");
    let m = myops();
    web_configmap(&ns.0);
    patch(
        &m,
        &ns.0,
        &["configmap", "web"],
        r#"{"data":{"color":"green"}}"#,
    );
    patch(&m, &ns.0, &["configmap", "web"], r#"{"data":{"size":"l"}}"#);
    patch(
        &m,
        &ns.0,
        &["configmap", "web"],
        r#"{"data":{"color":"red"}}"#,
    );
    let ids: Vec<String> = listed(&m, &[])
        .iter()
        .map(|e| e["id"].as_str().unwrap().to_string())
        .collect();
    let object = format!("configmap/{}/web", ns.0);
    for field in [".data.color", "data.color", "/data/color"] {
        let r = m.run(&["changelog", "why", &object, field]);
        assert_eq!(r.code, 0, "{r:?}");
        let rows: Vec<Vec<&str>> = r
            .stdout
            .lines()
            .map(|l| {
                l.split("   ")
                    .map(str::trim)
                    .filter(|c| !c.is_empty())
                    .collect()
            })
            .collect();
        assert_eq!(
            rows[0],
            ["ID", "TIME", "USER", "OPERATION", "OBJECT", "CHANGE"]
        );
        assert_eq!(rows.len(), 3, "{r:?}");
        assert_eq!(rows[1][0], ids[2], "newest first");
        assert_eq!(rows[1][5], "data.color: \"green\" → \"red\"");
        assert_eq!(rows[2][0], ids[0]);
        assert_eq!(rows[2][5], "data.color: \"blue\" → \"green\"");
    }
    // The parent field finds all three.
    let r = m.run(&["changelog", "why", "web", ".data"]);
    assert_eq!(r.stdout.lines().count(), 4, "{r:?}");
    // An untouched field: nothing, said on stderr, exit 0.
    let r = m.run(&["changelog", "why", &object, "metadata.labels"]);
    assert_eq!((r.code, r.stdout.as_str()), (0, ""), "{r:?}");
    assert!(
        r.stderr
            .contains("No journaled change touched metadata.labels"),
        "{r:?}"
    );
    // A field path that is neither form: exit 2.
    let r = m.run(&["changelog", "why", &object, "data..color"]);
    assert_eq!(r.code, 2, "{r:?}");
}

/// Waits (up to 30 s) until the deployment controller has written the status of Deployment
/// `name`: `observedGeneration/replicas` reads `want`.
fn settled(ns: &str, name: &str, want: &str) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let now = kubectl(&[
            "get",
            "deployment",
            name,
            "-n",
            ns,
            "-o",
            "jsonpath={.status.observedGeneration}/{.status.replicas}",
        ]);
        if now == want {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "deployment {name}: status {now}, not {want}, after 30 s"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_scale_subresource_patch_journals_the_deployment_as_after_state_and_diff_shows_the_change() {
    let ns = Namespace::new("history-scale");
    let m = myops();
    create_deployment(&ns.0, "api");
    // The before-state holds the controller's status of the 2 replicas.
    settled(&ns.0, "api", "1/2");
    let r = m.run(&[
        "patch",
        "deployment",
        "api",
        "-n",
        &ns.0,
        "--subresource",
        "scale",
        "--type",
        "merge",
        "-p",
        r#"{"spec":{"replicas":3}}"#,
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    let e = &listed(&m, &[])[0];
    // The after-state is the Deployment as stored (not the Scale the server answered): the
    // before-state with the new replicas and the resourceVersion after.
    assert_eq!(e["after"]["kind"], "Deployment", "{e}");
    assert_eq!(e["after"]["spec"]["replicas"], 3, "{e}");
    assert_eq!(
        e["after"]["metadata"]["resourceVersion"], e["resourceVersionAfter"],
        "{e}"
    );
    // The deployment controller (scripts/cluster runs one) answers the new replica count with
    // a status write; the diff is this change's own, from the journal alone.
    settled(&ns.0, "api", "2/3");
    let r = m.run(&["changelog", "diff", e["id"].as_str().unwrap()]);
    assert_eq!(r.code, 0, "{r:?}");
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(
        lines[1],
        format!(
            "before: journaled with the change; after: journaled with the outcome (resourceVersion {})",
            e["resourceVersionAfter"].as_str().unwrap()
        ),
        "{r:?}"
    );
    assert_eq!(lines[2..], ["  spec.replicas: 2 → 3"], "{r:?}");
}

#[test]
fn diff_without_a_before_state_or_with_a_moved_context_says_why_and_reads_nothing() {
    let ns = Namespace::new("history-edges");
    // alice may patch but not read: the patch goes on without a before-state.
    ns.grant("alice", "patch", "configmaps");
    let m = myops();
    web_configmap(&ns.0);
    let r = m.merge_patch_as(
        "alice",
        &ns.0,
        "configmap",
        "web",
        r#"{"data":{"color":"green"}}"#,
    );
    assert_eq!(r.code, 0, "{r:?}");
    patch(
        &m,
        &ns.0,
        &["configmap", "web"],
        r#"{"data":{"color":"red"}}"#,
    );
    let ids: Vec<String> = listed(&m, &[])
        .iter()
        .map(|e| e["id"].as_str().unwrap().to_string())
        .collect();
    let r = m.run(&["changelog", "diff", &ids[0]]);
    assert_eq!(r.code, 2, "{r:?}");
    assert_eq!(
        r.stderr.trim_end(),
        format!(
            "error: entry {} has no before-state (the object did not exist yet, or could not be read, when the change was made), so there is nothing to compare; `kubectl myops changelog show {}` shows its patch",
            ids[0], ids[0]
        )
    );
    let r = m.run(&["changelog", "why", "web", ".data.color"]);
    assert!(
        r.stdout
            .contains("no before-state journaled (the object could not be read)"),
        "{r:?}"
    );

    // An older entry (no after-state) made on a server its context no longer points at.
    forget_after_states(&m);
    let text = std::fs::read_to_string(log_path(&m)).unwrap();
    let server = listed(&m, &[])[1]["server"].as_str().unwrap().to_string();
    std::fs::write(log_path(&m), text.replace(&server, "https://127.0.0.1:1")).unwrap();
    let r = m.run(&["changelog", "diff", &ids[1]]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr.contains(&format!(
            "has no after-state journaled and its context now points at {server}, not https://127.0.0.1:1 where the change was made; nothing was read"
        )),
        "{r:?}"
    );
}

/// Found in the hostile pass over issue 15 (helper H): a patch that wrote a Secret's
/// `stringData.token` changed `data.token` (the server merges write-only stringData into
/// data), yet `why … data.token` said no change touched it and `why … stringData.token` said
/// "no change (the value it wrote was already there)". Both name the change now, masked.
#[test]
fn why_of_a_secret_key_written_through_string_data_found_no_change() {
    let ns = Namespace::new("history-why-stringdata");
    let m = myops();
    kubectl(&[
        "create",
        "secret",
        "generic",
        "db",
        "-n",
        &ns.0,
        "--from-literal=token=Wh1tePlum9",
    ]);
    patch(
        &m,
        &ns.0,
        &["secret", "db"],
        r#"{"stringData":{"token":"Bl4ckPlum7"}}"#,
    );
    let id = listed(&m, &[])[0]["id"].as_str().unwrap().to_string();
    let object = format!("secret/{}/db", ns.0);
    for field in [
        "data.token",
        "stringData.token",
        "/stringData/token",
        ".data",
    ] {
        let r = m.run(&["changelog", "why", &object, field]);
        assert_eq!(r.code, 0, "{field}: {r:?}");
        let rows: Vec<&str> = r.stdout.lines().collect();
        assert_eq!(rows.len(), 2, "{field}: {r:?}");
        assert!(rows[1].starts_with(&id), "{field}: {r:?}");
        assert!(
            rows[1].ends_with("data.token: \"*** (before)\" → \"*** (after)\""),
            "{field}: {r:?}"
        );
        for secret in [
            "Wh1tePlum9",
            "Bl4ckPlum7",
            "V2gxdGVQbHVtOQ",
            "Qmw0Y2tQbHVtNw",
        ] {
            assert!(
                !r.stdout.contains(secret) && !r.stderr.contains(secret),
                "{r:?}"
            );
        }
    }
    // A key the patch did not write is still untouched.
    let r = m.run(&["changelog", "why", &object, "data.other"]);
    assert_eq!((r.code, r.stdout.as_str()), (0, ""), "{r:?}");
}

/// Found in the hostile pass over issue 15 (helper H): a JSON Pointer with a `~` that is not
/// `~0` or `~1` (RFC 6901 §3) was taken as a field and answered "No journaled change
/// touched /~2"; it is a usage error (exit 2) that says how to escape.
#[test]
fn why_with_an_invalid_json_pointer_escape_answered_no_change() {
    let m = myops();
    for field in ["/~2", "/data/a~", "/metadata/labels/x~/y"] {
        let r = m.run(&["changelog", "why", "configmap/x/web", field]);
        assert_eq!(r.code, 2, "{field}: {r:?}");
        assert!(r.stderr.contains("~0 (for ~) or ~1 (for /)"), "{r:?}");
        assert_eq!(r.stdout, "", "{r:?}");
    }
}

/// Found in the hostile pass over issue 15 (helper H): `rollback` wrote a before-state that
/// had been edited in the log (`"color":"blue"` → `"evil"`) into the ConfigMap, even though
/// `changelog verify` named the record as edited. An entry whose records the chain
/// contradicts — edited, or edited with its own hash recomputed (the next record's `prev`
/// gives it away) — is now refused (exit 2, nothing sent, `--force` included); a torn line
/// elsewhere in the log does not block an intact entry.
#[test]
fn rollback_wrote_an_edited_before_state_into_the_cluster() {
    use myops::changelog::chain::hash_of;
    let ns = Namespace::new("history-rollback-edited");
    let m = myops();
    web_configmap(&ns.0);
    for body in [r#"{"data":{"color":"green"}}"#, r#"{"data":{"size":"l"}}"#] {
        patch(&m, &ns.0, &["configmap", "web"], body);
    }
    let ids: Vec<String> = listed(&m, &[])
        .iter()
        .map(|e| e["id"].as_str().unwrap().to_string())
        .collect();
    let original = std::fs::read_to_string(log_path(&m)).unwrap();
    let data = || {
        kubectl(&[
            "get",
            "configmap",
            "web",
            "-n",
            &ns.0,
            "-o",
            "jsonpath={.data}",
        ])
    };
    let before = data();
    // The outcome record of the first entry (line 2) with its before-state edited; `rehash`
    // recomputes its hash as an attacker who knows the canonical form would.
    let edited = |rehash: bool| -> String {
        let mut lines: Vec<String> = original.lines().map(str::to_string).collect();
        let mut v: serde_json::Map<String, Value> = serde_json::from_str(&lines[1]).unwrap();
        v["before"]["data"]["color"] = Value::from("evil");
        if rehash {
            let h = hash_of(&v);
            v.insert("hash".into(), Value::from(h));
        }
        lines[1] = Value::Object(v).to_string();
        lines.join("\n") + "\n"
    };
    for (log, why) in [
        (edited(false), "does not match its hash"),
        (edited(true), "does not chain to it"),
    ] {
        std::fs::write(log_path(&m), log).unwrap();
        let r = m.run(&["rollback", &ids[0], "--force"]);
        assert_eq!(r.code, 2, "{r:?}");
        assert!(
            r.stderr
                .contains("the change log's hash chain contradicts it")
                && r.stderr.contains(why),
            "{r:?}"
        );
        assert_eq!(data(), before, "nothing was sent");
        let v = m.run(&["changelog", "verify"]);
        assert_eq!(v.code, 1, "verify agrees: {v:?}");
    }
    // An intact entry rolls back although a torn line follows it.
    std::fs::write(log_path(&m), format!("{original}{{\"id\":\"torn")).unwrap();
    let r = m.run(&["rollback", &ids[1]]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(data().contains(r#""size":"m""#), "{r:?}");
}

/// Found in the hostile pass over issue 15 (helper H): `changelog list --since
/// 99999999999999h` printed jiff's "parameter 'Unix timestamp seconds' is not in the
/// required range …"; it is one sentence saying what to do, exit 2.
#[test]
fn list_since_far_back_printed_jiffs_range_message() {
    let m = myops();
    let r = m.run(&["changelog", "list", "--since", "99999999999999h"]);
    assert_eq!((r.code, r.stdout.as_str()), (2, ""), "{r:?}");
    assert!(
        r.stderr
            .contains("reaches back further than any time can be written")
            && !r.stderr.contains("parameter"),
        "{r:?}"
    );
}

/// Regression (new-user pass): an entry `changelog reconcile` could not decide — killed after
/// the server applied it, then someone else rewrote the field — exited 5 on every later run,
/// so a cron job failed forever and the entry could never be closed. `--outcome` records the
/// decision of a person (one ID only; the object is not read), chained like every record;
/// then the entry is decided: reconcile has nothing to do (exit 0), drift no longer notes it,
/// and rollback treats it as a success whose object changed since (exit 5, then --force).
#[test]
fn an_undecidable_entry_failed_reconcile_forever_until_decided_by_hand() {
    let ns = Namespace::new("reconcile-by-hand");
    let n = ns.0.as_str();
    let m = myops();
    web_configmap(n);
    patch(
        &m,
        n,
        &["configmap", "web"],
        r#"{"data":{"color":"green"}}"#,
    );
    let id = m.killed_at(
        "after-send",
        &[
            "patch",
            "configmap",
            "web",
            "-n",
            n,
            "--type",
            "merge",
            "-p",
            r#"{"data":{"color":"red"}}"#,
        ],
    );
    kubectl_merge_patch(n, "configmap", "web", r#"{"data":{"color":"theirs"}}"#);
    let record_by_hand =
        format!("`kubectl myops changelog reconcile {id} --outcome applied|not-applied`");
    for _ in 0..2 {
        let r = m.run(&["changelog", "reconcile"]);
        assert_eq!(r.code, 5, "{r:?}");
        assert!(
            r.stderr
                .contains(&format!("{id}: outcome still unknown — the live object"))
                && r.stderr.contains(&record_by_hand),
            "{r:?}"
        );
    }
    let r = m.run(&["drift", "-n", n]);
    assert_eq!(r.code, 6, "drift found (color is theirs): {r:?}");
    assert!(
        r.stderr.contains(&format!(
            "a later change of ours, entry {id}, has no outcome record (outcome unknown): it may be what changed the object; `kubectl myops changelog reconcile {id}` finds and records its outcome"
        )),
        "{r:?}"
    );
    let lines = m.records().len();
    // Refused without an ID or with another word; nothing recorded.
    let r = m.run(&["changelog", "reconcile", "--outcome", "applied"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("--outcome"), "{r:?}");
    let r = m.run(&["changelog", "reconcile", &id, "--outcome", "maybe"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.stderr.contains("not-applied"), "{r:?}");
    assert_eq!(m.records().len(), lines);

    let mark = audit_mark();
    let r = m.run(&["changelog", "reconcile", &id, "--outcome", "applied"]);
    assert_eq!(r.code, 0, "{r:?}");
    let records = m.records();
    assert_eq!(records.len(), lines + 1, "one outcome record appended");
    let rec = records.last().unwrap();
    let user = rec["user"].as_str().unwrap();
    let why = format!(
        "decided by hand by {user} (changelog reconcile --outcome); the object was not read"
    );
    assert_eq!(
        r.stdout,
        format!("{id}: applied — {why}; outcome recorded\n")
    );
    assert_eq!(rec["id"], id.as_str());
    assert_eq!(rec["result"], "success");
    assert!(
        rec["reconciled"]
            .as_str()
            .unwrap()
            .ends_with(&format!(": {why}")),
        "{rec:#}"
    );
    assert_eq!(rec.get("after"), None, "{rec:#}");
    assert_eq!(rec["resourceVersionAfter"], Value::Null, "{rec:#}");
    let touched: Vec<Value> = audit_since(mark)
        .into_iter()
        .filter(|e| {
            e.pointer("/objectRef/resource") == Some(&Value::from("configmaps"))
                && e.pointer("/objectRef/namespace") == Some(&Value::from(n))
        })
        .collect();
    assert!(
        touched.is_empty(),
        "the object was neither read nor written: {touched:#?}"
    );

    let v = m.run(&["changelog", "verify"]);
    assert_eq!(v.code, 0, "the chain holds after the record by hand: {v:?}");
    let r = m.run(&["changelog", "reconcile"]);
    assert_eq!(r.code, 0, "nothing left undecided: {r:?}");
    assert!(
        r.stderr
            .contains("No change-log entries with an unknown outcome."),
        "{r:?}"
    );
    let r = m.run(&["changelog", "reconcile", &id, "--outcome", "not-applied"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        r.stdout,
        format!("{id}: nothing to reconcile (its outcome is recorded: success)\n")
    );
    assert_eq!(
        m.records().len(),
        lines + 1,
        "a recorded outcome is never overwritten"
    );
    let listed = listed(&m, &["--result", "unknown"]);
    assert!(listed.is_empty(), "{listed:#?}");
    let r = m.run(&["drift", "-n", n]);
    assert!(!r.stderr.contains("outcome unknown"), "{r:?}");

    // Decided applied, without the object as it was after: changed since, unless --force.
    let r = m.run(&["rollback", &id]);
    assert_eq!(r.code, 5, "{r:?}");
    assert!(
        r.stderr.contains(&format!("changed since entry {id}")),
        "{r:?}"
    );
    let r = m.run(&["rollback", &id, "--force"]);
    assert_eq!(r.code, 0, "{r:?}");
    let color = kubectl(&[
        "get",
        "configmap",
        "web",
        "-n",
        n,
        "-o",
        "jsonpath={.data.color}",
    ]);
    assert_eq!(color, "green", "restored to the entry's before-state");
}
