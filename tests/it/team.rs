//! The team's view (issue 30): `changelog list --from-cluster`, a teammate's entry shown, diffed
//! and rolled back from the cluster mirror, and `changelog verify --against-cluster`.
//!
//! The mirror's writer (`guard::trail`) mirrors each record as it is made; [`mirror_home`]
//! also mirrors a MYOPS_HOME's complete records itself, with the pure object format
//! (`myops::changelog::mirror::objects`), created by `kubectl create` as the user who wrote
//! them (the ValidatingAdmissionPolicy of deploy/changelog/ lets a user create only records
//! with `spec.createdBy` their own name) — an object the writer created already is
//! `AlreadyExists`, which is the same record (names are per record) and accepted.

use std::collections::HashSet;

use serde_json::{Value, json};

use crate::fixture::{Myops, Namespace, audit_mark, audit_since, kubectl, kubectl_stdin, text_of};
use myops::changelog::mirror::objects;

/// plugin.yaml: get and patch on ConfigMaps, the mirror in `mirror_ns` (none when `None`).
fn myops(mirror_ns: Option<&str>) -> Myops {
    crate::fixture::changelog_mirror_installed();
    let mirror = mirror_ns
        .map(|ns| format!("changelog:\n  mirror:\n    namespace: {ns}\n"))
        .unwrap_or_default();
    Myops::new(&format!(
        "name: myops\nverbs: [get, patch]\nresources: [configmaps]\nscopes: [namespace]\nmetrics: [ops_total]\n{mirror}"
    ))
}

/// A mirror namespace in which alice and bob may write (ClusterRole
/// myops-changerecord-writer bound there).
fn mirror_namespace(test: &str) -> Namespace {
    crate::fixture::changelog_mirror_installed();
    let ns = Namespace::new(test);
    for user in ["alice", "bob"] {
        kubectl(&[
            "create",
            "rolebinding",
            &format!("{user}-changerecords"),
            "-n",
            &ns.0,
            "--clusterrole=myops-changerecord-writer",
            &format!("--user={user}"),
        ]);
    }
    ns
}

/// An app namespace with ConfigMap `web` (`k=v1`); alice and bob may get and patch it.
fn app_namespace(test: &str) -> Namespace {
    let ns = Namespace::new(test);
    kubectl(&[
        "create",
        "configmap",
        "web",
        "-n",
        &ns.0,
        "--from-literal=k=v1",
    ]);
    ns.grant("alice", "get,patch", "configmaps");
    ns.grant("bob", "get,patch", "configmaps");
    ns
}

/// The complete (outcome) records of `m`'s change log, as lines.
fn complete_lines(m: &Myops) -> Vec<String> {
    let text = std::fs::read_to_string(m.dir.path().join("myops/changelog.jsonl")).unwrap();
    text.lines()
        .filter(|l| serde_json::from_str::<Value>(l).is_ok_and(|v| v["result"] != "pending"))
        .map(str::to_string)
        .collect()
}

/// Creates `objs` in the mirror namespace as `context`, as one `kubectl create` of a List.
fn create_as(context: &str, objs: Vec<Value>) {
    let list = json!({"apiVersion": "v1", "kind": "List", "items": objs});
    let out = kubectl_stdin(
        &["--context", context, "create", "-f", "-", "-o", "name"],
        &list.to_string(),
    );
    let err = text_of(&out.stderr);
    let only_existing = err
        .lines()
        .filter(|l| !l.trim().is_empty())
        .all(|l| l.contains("(AlreadyExists)"));
    assert!(
        out.status.success() || only_existing,
        "create as {context}: {err}"
    );
}

/// Mirrors every complete record of `m` as `context` into `ns` under a journal id of its
/// own, written to MYOPS_HOME/journal-id as the mirror's writer does; returns the id.
fn mirror_home(m: &Myops, context: &str, ns: &str) -> String {
    let path = m.dir.path().join("myops/journal-id");
    let journal = std::fs::read_to_string(&path).unwrap_or_else(|_| {
        // 16 lowercase hex, as the writer makes it.
        let id = format!(
            "{:016x}",
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos() as u64
        );
        std::fs::write(&path, format!("{id}\n")).unwrap();
        id
    });
    let journal = journal.trim().to_string();
    let objs: Vec<Value> = complete_lines(m)
        .iter()
        .flat_map(|l| objects(l, &journal, ns).unwrap())
        .collect();
    create_as(context, objs);
    journal
}

fn cm_value(ns: &str) -> String {
    kubectl(&[
        "get",
        "configmap",
        "web",
        "-n",
        ns,
        "-o",
        "jsonpath={.data.k}",
    ])
}

/// The id of the last entry of `m`.
fn last_id(m: &Myops) -> String {
    m.latest_records().last().unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn alices_patch_is_listed_shown_diffed_and_rolled_back_by_bob_from_the_mirror() {
    let mirror = mirror_namespace("team-view");
    let app = app_namespace("team-view-app");
    let alice = myops(Some(&mirror.0));
    // config validate says the mirror is on (the fresh-user review could not tell).
    let v = alice.run(&["config", "validate"]);
    assert!(
        v.stdout.contains(&format!(
            "\n  mirror: every complete record is also a ChangeRecord in namespace {} of the cluster it changed (changelog.mirror; docs/team.md)\n",
            mirror.0
        )),
        "{v:?}"
    );
    let r = alice.merge_patch_as(
        "alice",
        &app.0,
        "configmap",
        "web",
        r#"{"data":{"k":"v2"}}"#,
    );
    assert_eq!(r.code, 0, "{r:?}");
    let id = last_id(&alice);
    mirror_home(&alice, "alice", &mirror.0);

    let bob = myops(Some(&mirror.0));
    let r = bob.run(&["--context", "bob", "changelog", "list", "--from-cluster"]);
    assert_eq!(r.code, 0, "{r:?}");
    let row = r
        .stdout
        .lines()
        .find(|l| l.starts_with(&id))
        .unwrap_or_else(|| {
            panic!("{id} listed: {}", r.stdout);
        });
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(
        &cells[2..],
        [
            "alice",
            "patch",
            &format!("configmap/{}/web", app.0),
            "success"
        ],
        "{}",
        r.stdout
    );
    assert!(r.stdout.starts_with("ID "), "{}", r.stdout);
    // --by selects by creator, TYPE NAME by object. --user stays kubectl's credential flag:
    // bob lists alice's records as bob (the fresh-user review found --user both switching
    // the credentials to alice's and filtering).
    let r = bob.run(&[
        "--context",
        "bob",
        "changelog",
        "list",
        "--from-cluster",
        "--by",
        "bob",
    ]);
    assert!(!r.stdout.contains(&id), "{r:?}");
    let r = bob.run(&[
        "--context",
        "bob",
        "changelog",
        "list",
        "--from-cluster",
        "--by",
        "alice",
    ]);
    assert!(r.stdout.contains(&id), "{r:?}");
    let r = bob.run(&[
        "--context",
        "bob",
        "changelog",
        "list",
        "--from-cluster",
        "configmaps",
        "web",
        "-o",
        "json",
    ]);
    let listed: Vec<Value> = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(listed.len(), 1, "{listed:#?}");
    // A short name, as kubectl users type it (the fresh-user review: `cm web` matched nothing).
    let r = bob.run(&[
        "--context",
        "bob",
        "changelog",
        "list",
        "--from-cluster",
        "cm",
        "web",
    ]);
    assert!(r.stdout.contains(&id), "{r:?}");
    assert_eq!(listed[0]["mirror"]["createdBy"], "alice");
    assert_eq!(listed[0].get("before"), None, "summaries only");

    let r = bob.run(&["--context", "bob", "changelog", "show", &id]);
    assert_eq!(r.code, 0, "{r:?}");
    let shown: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(shown["id"], id.as_str());
    assert_eq!(shown["before"]["data"]["k"], "v1");
    assert!(
        r.stderr.contains("from the cluster mirror")
            && r.stderr.contains("written by alice for a change at"),
        "{}",
        r.stderr
    );
    let r = bob.run(&["--context", "bob", "changelog", "diff", &id]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout.contains("v1") && r.stdout.contains("v2"),
        "{}",
        r.stdout
    );

    let r = bob.run(&["--context", "bob", "rollback", &id]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(cm_value(&app.0), "v1");
    // Journaled as bob's: a rollback entry in bob's change log.
    let mine = bob.latest_records();
    let last = mine.last().unwrap();
    assert_eq!(last["operation"], "rollback", "{last:#}");
    assert_eq!(last["user"], "bob", "{last:#}");
    assert_eq!(last["result"], "success", "{last:#}");
    assert!(
        alice
            .latest_records()
            .iter()
            .all(|e| e["operation"] != "rollback")
    );

    // alice's untouched log is anchored by the mirror.
    let r = alice.run(&[
        "--context",
        "alice",
        "changelog",
        "verify",
        "--against-cluster",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout.starts_with("ok: the chain holds")
            && r.stdout.lines().any(|l| l
                .starts_with("ok: the cluster mirror anchors the local log: 1 mirrored record(s)")),
        "{}",
        r.stdout
    );

    // An admin edits the mirrored record: verify names it, rollback refuses it.
    let name = kubectl(&[
        "get",
        "changerecords",
        "-n",
        &mirror.0,
        "-l",
        &format!("myops.io/entry={id}"),
        "-o",
        "jsonpath={.items[0].metadata.name}",
    ]);
    let line = kubectl(&[
        "get",
        "changerecord",
        &name,
        "-n",
        &mirror.0,
        "-o",
        "jsonpath={.spec.record}",
    ]);
    let edited = line.replace("\"k\":\"v1\"", "\"k\":\"v0\"");
    assert_ne!(edited, line);
    kubectl(&[
        "patch",
        "changerecord",
        &name,
        "-n",
        &mirror.0,
        "--type",
        "merge",
        "-p",
        &json!({"spec": {"record": edited}}).to_string(),
    ]);
    let r = alice.run(&[
        "--context",
        "alice",
        "changelog",
        "verify",
        "--against-cluster",
    ]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains(&format!(
            "changerecord {name} (entry {id}): its record was edited"
        )),
        "{}",
        r.stderr
    );
    let bob2 = myops(Some(&mirror.0));
    let r = bob2.run(&["--context", "bob", "rollback", &id]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr
            .contains("cannot be trusted: its record was edited"),
        "{}",
        r.stderr
    );
    assert!(
        bob2.records().is_empty(),
        "nothing journaled: {:#?}",
        bob2.records()
    );
    let r = bob2.run(&["--context", "bob", "changelog", "show", &id]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stderr.contains(&format!(
            "warning: changerecord {name}: its record was edited"
        )),
        "{}",
        r.stderr
    );
}

/// Re-seals `records` as one chain from GENESIS into `m`'s change log, with its
/// changelog.head, as a writer with the account would: the local chain then holds.
fn reseal(m: &Myops, records: &[Value]) {
    use myops::changelog::chain::{GENESIS, Head, seal, write_head};
    let mut prev = GENESIS.to_string();
    let mut out = String::new();
    for v in records {
        let (line, hash) = seal(v.clone(), &prev).unwrap();
        out.push_str(std::str::from_utf8(&line).unwrap());
        out.push('\n');
        prev = hash;
    }
    let home = m.dir.path().join("myops");
    std::fs::write(home.join("changelog.jsonl"), out).unwrap();
    let head = Head {
        head: prev,
        base: GENESIS.into(),
    };
    write_head(&home, &head).unwrap();
}

#[test]
fn a_rewritten_or_truncated_local_journal_fails_verify_against_the_cluster() {
    let mirror = mirror_namespace("team-anchor");
    let app = app_namespace("team-anchor-app");
    let alice = myops(Some(&mirror.0));
    for v in ["v2", "v3"] {
        let body = format!(r#"{{"data":{{"k":"{v}"}}}}"#);
        let r = alice.merge_patch_as("alice", &app.0, "configmap", "web", &body);
        assert_eq!(r.code, 0, "{r:?}");
    }
    let ids: Vec<String> = alice
        .latest_records()
        .iter()
        .map(|e| e["id"].as_str().unwrap().to_string())
        .collect();
    mirror_home(&alice, "alice", &mirror.0);
    let verify = || {
        alice.run(&[
            "--context",
            "alice",
            "changelog",
            "verify",
            "--against-cluster",
        ])
    };
    let r = verify();
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("2 mirrored record(s)"), "{}", r.stdout);

    // Rewritten: the first patch's outcome says v9, and the chain is computed again, so the
    // local chain verifies — only the mirror can tell.
    let log = alice.dir.path().join("myops/changelog.jsonl");
    let original = std::fs::read_to_string(&log).unwrap();
    let mut records: Vec<Value> = original
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    records[1]["after"]["data"]["k"] = json!("v9");
    reseal(&alice, &records);
    let r = alice.run(&["changelog", "verify"]);
    assert_eq!(r.code, 0, "the local chain holds: {r:?}");
    let r = verify();
    assert_eq!(r.code, 1, "{r:?}");
    for id in &ids {
        assert!(
            r.stderr.contains(&format!("(entry {id}, "))
                && r.stderr.contains("rewritten or reordered"),
            "{id}: {}",
            r.stderr
        );
    }
    assert!(
        r.stderr.contains("2 of 2 mirrored record(s)"),
        "{}",
        r.stderr
    );

    // Truncated: the last record (the second patch's outcome) cut off.
    let kept: Vec<&str> = original.lines().collect();
    std::fs::write(&log, kept[..kept.len() - 1].join("\n") + "\n").unwrap();
    let r = verify();
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains(&format!("(entry {}, ", ids[1]))
            && r.stderr.contains("the local log was truncated"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("1 of 2 mirrored record(s)"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_record_claiming_another_user_is_listed_as_its_creator_and_refused() {
    let mirror = mirror_namespace("team-claim");
    let app = app_namespace("team-claim-app");
    // Without the mirror in her plugin.yaml, so the writer does not send her genuine record.
    let alice = myops(None);
    let r = alice.merge_patch_as(
        "alice",
        &app.0,
        "configmap",
        "web",
        r#"{"data":{"k":"v2"}}"#,
    );
    assert_eq!(r.code, 0, "{r:?}");
    let id = last_id(&alice);
    // admin creates alice's line: the policy lets admin create only createdBy admin.
    let line = complete_lines(&alice).pop().unwrap();
    let mut objs = objects(&line, "forged", &mirror.0).unwrap();
    let refused = kubectl_stdin(&["create", "-f", "-"], &objs[0].to_string());
    assert!(
        !refused.status.success(),
        "the policy refused createdBy alice from admin"
    );
    assert!(
        text_of(&refused.stderr)
            .contains("spec.createdBy must be the user creating the record (admin)"),
        "{}",
        text_of(&refused.stderr)
    );
    objs[0]["spec"]["createdBy"] = json!("admin");
    create_as("admin", objs);

    let bob = myops(Some(&mirror.0));
    let r = bob.run(&["--context", "bob", "changelog", "list", "--from-cluster"]);
    assert_eq!(r.code, 0, "{r:?}");
    let row = r.stdout.lines().find(|l| l.starts_with(&id)).unwrap();
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(cells[2], "admin", "{row}");
    assert!(
        row.ends_with("! the record claims user alice but was created by admin"),
        "{row}"
    );
    assert!(
        r.stdout.lines().next().unwrap().ends_with("PROBLEM"),
        "{}",
        r.stdout
    );
    let r = bob.run(&["--context", "bob", "rollback", &id]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr
            .contains("the record claims user alice but was created by admin"),
        "{}",
        r.stderr
    );
    assert_eq!(cm_value(&app.0), "v2");
}

#[test]
fn ten_thousand_mirrored_records_list_in_pages() {
    let mirror = Namespace::new("team-10k");
    let app = app_namespace("team-10k-app");
    let admin = myops(Some(&mirror.0));
    let r = admin.merge_patch(&app.0, "configmap", "web", r#"{"data":{"k":"v2"}}"#);
    assert_eq!(r.code, 0, "{r:?}");
    let template: Value = serde_json::from_str(&complete_lines(&admin).pop().unwrap()).unwrap();
    let base = template["id"].as_str().unwrap().to_string();
    let mut prev = myops::changelog::chain::GENESIS.to_string();
    let mut batches: Vec<Vec<Value>> = vec![Vec::new(); 8];
    const N: usize = 10_000;
    for i in 0..N {
        let mut v = template.clone();
        v["id"] = json!(format!("{base}-{i:x}"));
        let (line, hash) = myops::changelog::chain::seal(v, &prev).unwrap();
        prev = hash;
        let objs = objects(std::str::from_utf8(&line).unwrap(), "big", &mirror.0).unwrap();
        batches[i % 8].extend(objs);
    }
    std::thread::scope(|s| {
        for b in batches {
            s.spawn(move || create_as("admin", b));
        }
    });
    let mark = audit_mark();
    let r = admin.run(&["changelog", "list", "--from-cluster", "-o", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let listed: Vec<Value> = serde_json::from_str(&r.stdout).unwrap();
    let ids: HashSet<&str> = listed.iter().map(|e| e["id"].as_str().unwrap()).collect();
    // The 10,000 made here, and the patch's own record, which the writer mirrored.
    assert_eq!(ids.len(), N + 1);
    let lists: Vec<Value> = audit_since(mark)
        .into_iter()
        .filter(|e| {
            e["verb"] == "list"
                && e["stage"] == "ResponseComplete"
                && e.pointer("/objectRef/resource") == Some(&json!("changerecords"))
                && e.pointer("/objectRef/namespace") == Some(&json!(mirror.0))
        })
        .collect();
    assert_eq!(
        lists.len(),
        (N + 1).div_ceil(500),
        "one list request per 500 records"
    );
    assert!(
        lists
            .iter()
            .all(|e| e["requestURI"].as_str().unwrap().contains("limit=500")),
        "{lists:#?}"
    );
    let r = admin.run(&["changelog", "list", "--from-cluster", "--limit", "3"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stdout.lines().count(),
        4,
        "a header and 3 rows: {}",
        r.stdout
    );
}

#[test]
fn the_cluster_view_without_a_mirror_namespace_crd_or_binding_says_what_to_do() {
    let none = myops(None);
    for args in [
        &["changelog", "list", "--from-cluster"][..],
        &["changelog", "verify", "--against-cluster"],
    ] {
        let r = none.run(args);
        assert_eq!(r.code, 2, "{args:?}: {r:?}");
        assert!(r.stderr.contains("the cluster mirror is not configured: set changelog.mirror.namespace in plugin.yaml"), "{}", r.stderr);
    }
    let missing = myops(Some("t-team-no-such-namespace"));
    let r = missing.run(&["changelog", "list", "--from-cluster"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr
            .contains("the mirror namespace t-team-no-such-namespace does not exist"),
        "{}",
        r.stderr
    );
    // The second server has no ChangeRecord CRD.
    let r = missing.run(&[
        "--context",
        "admin-2",
        "changelog",
        "list",
        "--from-cluster",
    ]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr
            .contains("changerecords.myops.io) is not installed on this cluster"),
        "{}",
        r.stderr
    );
    // Without the writer's binding, the list is denied (exit 3).
    let ns = Namespace::new("team-unbound");
    let unbound = myops(Some(&ns.0));
    let r = unbound.run(&["--context", "bob", "changelog", "list", "--from-cluster"]);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(
        r.stderr
            .contains("bob may not list changerecords.myops.io in namespace"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr.contains("myops-changerecord-writer"),
        "{}",
        r.stderr
    );
}

#[test]
fn drift_names_the_teammate_whose_mirrored_entry_changed_the_field_last() {
    let mirror = mirror_namespace("team-drift");
    let app = app_namespace("team-drift-app");
    let alice = myops(Some(&mirror.0));
    let r = alice.merge_patch_as(
        "alice",
        &app.0,
        "configmap",
        "web",
        r#"{"data":{"k":"v2"}}"#,
    );
    assert_eq!(r.code, 0, "{r:?}");
    mirror_home(&alice, "alice", &mirror.0);
    let bob = myops(Some(&mirror.0));
    let r = bob.merge_patch_as("bob", &app.0, "configmap", "web", r#"{"data":{"k":"v3"}}"#);
    assert_eq!(r.code, 0, "{r:?}");
    let bobs = last_id(&bob);
    mirror_home(&bob, "bob", &mirror.0);

    let r = alice.run(&[
        "--context",
        "alice",
        "drift",
        "configmap",
        "-n",
        &app.0,
        "-o",
        "json",
    ]);
    assert_eq!(r.code, 6, "{r:?}");
    let report: Value = serde_json::from_str(&r.stdout).unwrap();
    let field = &report["objects"][0]["fields"][0];
    assert_eq!(field["field"], "data.k", "{report:#}");
    assert_eq!(field["changedBy"]["entry"], bobs.as_str(), "{report:#}");
    assert_eq!(field["changedBy"]["user"], "bob", "{report:#}");
    assert!(
        r.stderr
            .contains(&format!("data.k was last changed by bob's entry {bobs}")),
        "{}",
        r.stderr
    );
    // The mirror unreadable (here: a namespace alice may not list) is a warning; drift
    // still answers.
    let lost = myops(Some("t-team-drift-no-such-namespace"));
    std::fs::copy(alice.dir.path().join("myops/changelog.jsonl"), {
        std::fs::create_dir_all(lost.dir.path().join("myops")).unwrap();
        lost.dir.path().join("myops/changelog.jsonl")
    })
    .unwrap();
    let r = lost.run(&["--context", "alice", "drift", "configmap", "-n", &app.0]);
    assert_eq!(r.code, 6, "{r:?}");
    assert!(
        r.stderr.contains("warning: the cluster mirror could not be read, so drift does not name teammates' changes: alice may not list changerecords.myops.io in namespace t-team-drift-no-such-namespace"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_split_record_is_read_back_from_its_parts() {
    let mirror = mirror_namespace("team-split");
    let app = app_namespace("team-split-app");
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a");
    std::fs::write(&a, "x".repeat(400 * 1024)).unwrap();
    let from = format!("--from-file=a={}", a.display());
    kubectl(&["create", "configmap", "big", "-n", &app.0, &from]);
    let alice = myops(Some(&mirror.0));
    let patch = dir.path().join("patch.json");
    std::fs::write(
        &patch,
        json!({"data": {"b": "y".repeat(400 * 1024)}}).to_string(),
    )
    .unwrap();
    let r = alice.run(&[
        "--context",
        "alice",
        "patch",
        "configmap",
        "big",
        "-n",
        &app.0,
        "--type",
        "merge",
        "--patch-file",
        &patch.display().to_string(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let id = last_id(&alice);
    assert!(complete_lines(&alice).last().unwrap().len() > 1024 * 1024);
    mirror_home(&alice, "alice", &mirror.0);
    let parts = kubectl(&[
        "get",
        "changerecords",
        "-n",
        &mirror.0,
        "-l",
        "myops.io/role=part",
        "-o",
        "name",
    ]);
    assert_eq!(parts.lines().count(), 2, "{parts}");

    let bob = myops(Some(&mirror.0));
    let r = bob.run(&["--context", "bob", "changelog", "show", &id]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let shown: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        shown["after"]["data"]["b"].as_str().unwrap().len(),
        400 * 1024
    );
    assert!(!r.stderr.contains("warning"), "{}", r.stderr);
    let r = bob.run(&["--context", "bob", "changelog", "list", "--from-cluster"]);
    assert_eq!(
        r.stdout.lines().count(),
        2,
        "one record, not its parts: {}",
        r.stdout
    );
}

#[test]
fn a_forged_copy_of_a_record_does_not_shadow_the_genuine_one() {
    let mirror = mirror_namespace("team-shadow");
    let app = app_namespace("team-shadow-app");
    let alice = myops(Some(&mirror.0));
    let r = alice.merge_patch_as(
        "alice",
        &app.0,
        "configmap",
        "web",
        r#"{"data":{"k":"v2"}}"#,
    );
    assert_eq!(r.code, 0, "{r:?}");
    let id = last_id(&alice);
    // An admin creates a copy of alice's record under another name, created later: it
    // claims alice and its name does not match its hash.
    let line = complete_lines(&alice).pop().unwrap();
    let mut objs = objects(&line, "forged", &mirror.0).unwrap();
    objs[0]["spec"]["createdBy"] = json!("admin");
    objs[0]["metadata"]["name"] = json!(format!("{id}-aaaaaaaaaaaa"));
    create_as("admin", objs);

    let bob = myops(Some(&mirror.0));
    let r = bob.run(&[
        "--context",
        "bob",
        "changelog",
        "list",
        "--from-cluster",
        "--by",
        "alice",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    let row = r
        .stdout
        .lines()
        .find(|l| l.starts_with(&id))
        .unwrap_or_default();
    assert_eq!(row.split_whitespace().nth(2), Some("alice"), "{}", r.stdout);
    let r = bob.run(&["--context", "bob", "changelog", "list", "--from-cluster"]);
    let rows: Vec<&str> = r.stdout.lines().filter(|l| l.starts_with(&id)).collect();
    assert_eq!(
        rows.len(),
        2,
        "the genuine row and the flagged copy: {}",
        r.stdout
    );
    assert!(
        rows.iter()
            .any(|l| l.contains("! the record claims user alice but was created by admin")),
        "{}",
        r.stdout
    );
    let r = bob.run(&["--context", "bob", "changelog", "show", &id]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        !r.stderr.contains("warning:"),
        "the genuine record is shown: {}",
        r.stderr
    );
    assert!(r.stderr.contains("written by alice"), "{}", r.stderr);
}

#[test]
fn a_teammates_clean_record_under_anothers_entry_id_is_a_conflict_not_a_takeover() {
    let mirror = mirror_namespace("team-hijack");
    let app = app_namespace("team-hijack-app");
    let alice = myops(Some(&mirror.0));
    let r = alice.merge_patch_as(
        "alice",
        &app.0,
        "configmap",
        "web",
        r#"{"data":{"k":"v2"}}"#,
    );
    assert_eq!(r.code, 0, "{r:?}");
    let id = last_id(&alice);
    // bob writes a record of his own under alice's entry id, later and with another
    // before-state, sealed and created as bob: nothing in it is inconsistent by itself.
    let line = complete_lines(&alice).pop().unwrap();
    let mut record: Value = serde_json::from_str(&line).unwrap();
    record["user"] = json!("bob");
    record["timestamp"] = json!("2999-01-01T00:00:00Z");
    record["before"]["data"]["k"] = json!("EVIL");
    let (sealed, _) =
        myops::changelog::chain::seal(record, myops::changelog::chain::GENESIS).unwrap();
    let objs = objects(
        std::str::from_utf8(&sealed).unwrap(),
        "00000000000000bb",
        &mirror.0,
    )
    .unwrap();
    create_as("bob", objs);

    let admin = myops(Some(&mirror.0));
    let r = admin.run(&["--context", "admin", "changelog", "list", "--from-cluster"]);
    let rows: Vec<&str> = r.stdout.lines().filter(|l| l.starts_with(&id)).collect();
    assert_eq!(rows.len(), 2, "both creators' rows: {}", r.stdout);
    assert!(
        rows.iter()
            .all(|l| l.contains("also held by another creator")),
        "{}",
        r.stdout
    );
    let r = admin.run(&["--context", "admin", "rollback", &id]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr.contains("is also held by changerecord"),
        "{}",
        r.stderr
    );
    assert_eq!(cm_value(&app.0), "v2", "nothing was sent");
}

#[test]
fn a_log_deleted_and_started_again_fails_verify_against_the_cluster() {
    let mirror = mirror_namespace("team-wiped");
    let app = app_namespace("team-wiped-app");
    let alice = myops(Some(&mirror.0));
    for v in ["v2", "v3"] {
        let patch = format!(r#"{{"data":{{"k":"{v}"}}}}"#);
        let r = alice.merge_patch_as("alice", &app.0, "configmap", "web", &patch);
        assert_eq!(r.code, 0, "{r:?}");
    }
    let home = alice.dir.path().join("myops");
    std::fs::remove_file(home.join("changelog.jsonl")).unwrap();
    std::fs::remove_file(home.join("changelog.head")).unwrap();
    let r = alice.merge_patch_as(
        "alice",
        &app.0,
        "configmap",
        "web",
        r#"{"data":{"k":"v4"}}"#,
    );
    assert_eq!(r.code, 0, "{r:?}");
    let r = alice.run(&[
        "--context",
        "alice",
        "changelog",
        "verify",
        "--against-cluster",
    ]);
    assert_eq!(r.code, 1, "a wiped log passed as rotated: {r:?}");
    assert!(
        r.stderr.contains("deleted and started again"),
        "{}",
        r.stderr
    );
}
