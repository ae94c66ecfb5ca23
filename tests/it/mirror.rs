//! The cluster mirror's writer on the real cluster (docs/team.md, "The cluster mirror"):
//! every complete record becomes a ChangeRecord created by the user who made it; whatever
//! the mirror cannot take stays queued, is warned about once and sent by the next command,
//! in order; the queue's faults; the size split; the admins' prune.

use std::path::PathBuf;

use serde_json::Value;

use crate::fixture::{Myops, Namespace, Run, kubectl, kubectl_at, kubectl_stdin};

#[path = "mirror_taken.rs"]
mod taken;

/// A plugin.yaml that may get and patch ConfigMaps and mirrors to `mirror_ns`.
fn plugin(mirror_ns: &str) -> String {
    crate::fixture::changelog_mirror_installed();
    format!(
        "name: myops\nverbs: [get, patch]\nresources: [configmaps]\nscopes: [namespace]\nchangelog:\n  mirror:\n    namespace: {mirror_ns}\n"
    )
}

/// Lets `user` get and patch ConfigMaps in `ns`.
fn may_patch(ns: &Namespace, user: &str) {
    ns.grant(user, "get,patch", "configmaps");
}

/// Binds the ClusterRole myops-changerecord-writer to `user` in `ns`.
fn may_mirror(ns: &str, user: &str) {
    crate::fixture::changelog_mirror_installed();
    kubectl(&[
        "create",
        "rolebinding",
        &format!("mirror-{user}"),
        "-n",
        ns,
        "--clusterrole=myops-changerecord-writer",
        &format!("--user={user}"),
    ]);
}

fn configmap(ns: &str, name: &str) {
    kubectl(&[
        "create",
        "configmap",
        name,
        "-n",
        ns,
        "--from-literal=color=blue",
    ]);
}

fn home(m: &Myops) -> PathBuf {
    m.dir.path().join("myops")
}

/// The change log's lines as written, byte for byte.
fn journal_lines(m: &Myops) -> Vec<String> {
    std::fs::read_to_string(home(m).join("changelog.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

/// The complete records' lines (not intents).
fn complete_lines(m: &Myops) -> Vec<String> {
    journal_lines(m)
        .into_iter()
        .filter(|l| serde_json::from_str::<Value>(l).unwrap()["result"] != "pending")
        .collect()
}

fn queue(m: &Myops) -> Vec<String> {
    std::fs::read_to_string(home(m).join("mirror-queue.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

/// The ChangeRecords of `ns` (heads and parts), sorted by resourceVersion (creation order:
/// records are never updated).
fn records_in(ns: &str) -> Vec<Value> {
    let text = kubectl(&["get", "changerecords.myops.io", "-n", ns, "-o", "json"]);
    let mut items = serde_json::from_str::<Value>(&text).unwrap()["items"]
        .as_array()
        .unwrap()
        .clone();
    items.sort_by_key(|o| {
        o["metadata"]["resourceVersion"]
            .as_str()
            .unwrap()
            .parse::<u64>()
            .unwrap()
    });
    items
}

fn heads_in(ns: &str) -> Vec<Value> {
    records_in(ns)
        .into_iter()
        .filter(|o| o["metadata"]["labels"]["myops.io/role"] == "record")
        .collect()
}

fn patch_as(m: &Myops, context: &str, ns: &str, name: &str, color: &str) -> Run {
    m.merge_patch_as(
        context,
        ns,
        "configmap",
        name,
        &format!("{{\"data\":{{\"color\":\"{color}\"}}}}"),
    )
}

fn ok(r: &Run) {
    assert_eq!(r.code, 0, "{r:?}");
}

#[test]
fn a_patch_by_alice_is_mirrored_byte_for_byte_as_created_by_alice() {
    let ns = Namespace::new("mirror-alice");
    may_patch(&ns, "alice");
    may_mirror(&ns.0, "alice");
    configmap(&ns.0, "web");
    let m = Myops::new(&plugin(&ns.0));
    let r = patch_as(&m, "alice", &ns.0, "web", "green");
    ok(&r);
    assert!(!r.stderr.contains("warning"), "{r:?}");
    assert_eq!(
        r.stdout, "configmap/web patched\n",
        "no record on stdout here"
    );
    let heads = heads_in(&ns.0);
    let lines = complete_lines(&m);
    assert_eq!((heads.len(), lines.len()), (1, 1), "{heads:#?}");
    let head = &heads[0];
    assert_eq!(head["spec"]["record"].as_str().unwrap(), lines[0]);
    assert_eq!(head["spec"]["createdBy"], "alice");
    let record: Value = serde_json::from_str(&lines[0]).unwrap();
    assert_eq!(record["user"], "alice");
    let journal_id = std::fs::read_to_string(home(&m).join("journal-id")).unwrap();
    assert_eq!(head["spec"]["chain"]["journal"], journal_id.trim());
    assert_eq!(
        head["metadata"]["labels"]["myops.io/journal"],
        journal_id.trim()
    );
    assert_eq!(head["spec"]["chain"]["hash"], record["hash"]);
    assert_eq!(
        queue(&m),
        Vec::<String>::new(),
        "sent lines leave the queue"
    );
}

#[test]
fn the_mirror_namespace_missing_queues_with_a_warning_and_the_next_command_sends_both_in_order() {
    // An admin: a user bound only in the mirror namespace cannot tell it is missing (RBAC
    // answers 403 first).
    let ns = Namespace::new("mirror-late");
    configmap(&ns.0, "web");
    let trail = format!("{}-trail", ns.0);
    let m = Myops::new(&plugin(&trail));
    let r = patch_as(&m, "admin", &ns.0, "web", "green");
    ok(&r);
    assert!(
        r.stderr.contains(&format!(
            "warning: the change log's record is kept locally and queued for the cluster mirror (1 queued for this server and user): the mirror namespace {trail} does not exist on "
        )),
        "{r:?}"
    );
    assert!(r.stderr.contains("kubectl create namespace"), "{r:?}");
    assert_eq!(queue(&m).len(), 1);
    let trail_ns = Namespace(trail.clone());
    kubectl(&["create", "namespace", &trail]);
    let r = patch_as(&m, "admin", &ns.0, "web", "red");
    ok(&r);
    assert!(!r.stderr.contains("warning"), "{r:?}");
    let heads = heads_in(&trail_ns.0);
    let lines = complete_lines(&m);
    assert_eq!(lines.len(), 2);
    let mirrored: Vec<&str> = heads
        .iter()
        .map(|h| h["spec"]["record"].as_str().unwrap())
        .collect();
    assert_eq!(mirrored, lines, "the older record first");
    assert!(queue(&m).is_empty());
}

#[test]
fn the_crd_not_installed_queues_the_record_with_a_warning_and_exit_0() {
    // The second API server has no ChangeRecord CRD.
    let name = format!("mirror-nocrd-{}", std::process::id());
    let kc = crate::fixture::cluster().kubeconfig.clone();
    let create = kubectl_at(
        &kc,
        &[
            "--context",
            "admin-2",
            "create",
            "configmap",
            &name,
            "-n",
            "default",
            "--from-literal=color=blue",
        ],
    );
    assert!(create.status.success(), "{create:?}");
    let m = Myops::new(&plugin("team-trail"));
    let r = patch_as(&m, "admin-2", "default", &name, "green");
    let _ = kubectl_at(
        &kc,
        &[
            "--context",
            "admin-2",
            "delete",
            "configmap",
            &name,
            "-n",
            "default",
        ],
    );
    ok(&r);
    assert!(
        r.stderr.contains(
            "queued for the cluster mirror (1 queued for this server and user): the ChangeRecord CRD is not installed on "
        ),
        "{r:?}"
    );
    assert!(
        r.stderr.contains("kubectl apply -f deploy/changelog/"),
        "{r:?}"
    );
    assert_eq!(queue(&m), complete_lines(&m));
}

#[test]
fn a_create_denied_by_rbac_queues_the_record_and_the_exit_code_stays_0() {
    let ns = Namespace::new("mirror-denied");
    may_patch(&ns, "bob");
    configmap(&ns.0, "web");
    let m = Myops::new(&plugin(&ns.0));
    let r = patch_as(&m, "bob", &ns.0, "web", "green");
    ok(&r);
    assert!(
        r.stderr.contains(
            "queued for the cluster mirror (1 queued for this server and user): the server refused the ChangeRecord"
        ),
        "{r:?}"
    );
    assert!(
        r.stderr.contains(
            "the ClusterRole myops-changerecord-writer is bound to this user in namespace"
        ),
        "{r:?}"
    );
    assert_eq!(r.stderr.matches("warning:").count(), 1, "{r:?}");
    assert_eq!(queue(&m).len(), 1);
    assert!(heads_in(&ns.0).is_empty());
    // `mirror push` says what stays queued, exit 1.
    let r = m.run(&["--context", "bob", "changelog", "mirror", "push"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stderr.contains("0 record(s) sent to "), "{r:?}");
    assert!(r.stderr.contains(", 1 left queued"), "{r:?}");
    // Granted, the queue goes out.
    may_mirror(&ns.0, "bob");
    let r = m.run(&["--context", "bob", "changelog", "mirror", "push"]);
    ok(&r);
    assert_eq!(heads_in(&ns.0).len(), 1);
    assert!(r.stdout.starts_with("changerecord/"), "{r:?}");
    assert!(r.stdout.ends_with(" mirrored\n"), "{r:?}");
}

#[test]
fn the_server_down_while_the_change_is_made_queues_it_and_the_next_command_sends_it_first() {
    let ns = Namespace::new("mirror-down");
    may_patch(&ns, "alice");
    may_mirror(&ns.0, "alice");
    configmap(&ns.0, "web");
    let mut m = Myops::new(&plugin(&ns.0));
    m.set_env("MYOPS_TEST_MIRROR", "down");
    let r = patch_as(&m, "alice", &ns.0, "web", "green");
    ok(&r);
    assert!(r.stderr.contains("cannot reach the API server"), "{r:?}");
    assert!(
        r.stderr.contains("(1 queued for this server and user)"),
        "{r:?}"
    );
    assert!(heads_in(&ns.0).is_empty());
    m.env.retain(|(k, _)| k != "MYOPS_TEST_MIRROR");
    ok(&patch_as(&m, "alice", &ns.0, "web", "red"));
    let mirrored: Vec<String> = heads_in(&ns.0)
        .iter()
        .map(|h| h["spec"]["record"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(mirrored, complete_lines(&m));
}

#[test]
fn a_torn_queue_line_and_an_edited_one_are_rejected_and_the_rest_is_sent() {
    let ns = Namespace::new("mirror-torn");
    may_patch(&ns, "alice");
    may_mirror(&ns.0, "alice");
    configmap(&ns.0, "web");
    let mut m = Myops::new(&plugin(&ns.0));
    m.set_env("MYOPS_TEST_MIRROR", "down");
    for color in ["a", "b", "c"] {
        ok(&patch_as(&m, "alice", &ns.0, "web", color));
    }
    m.env.retain(|(k, _)| k != "MYOPS_TEST_MIRROR");
    let lines = queue(&m);
    assert_eq!(lines.len(), 3);
    let edited = lines[1].replacen("\"color\":\"b\"", "\"color\":\"x\"", 1);
    assert_ne!(edited, lines[1]);
    let torn = &lines[2][..60];
    std::fs::write(
        home(&m).join("mirror-queue.jsonl"),
        format!("{}\n{edited}\n{}\n{torn}", lines[0], lines[2]),
    )
    .unwrap();
    let r = m.run(&["--context", "alice", "changelog", "mirror", "push"]);
    ok(&r);
    assert!(
        r.stderr.contains("warning: 2 line(s) of the mirror queue ")
            && r.stderr.contains(
                " are never sent (line 2: edited: its hash does not match its content; line 4: torn: it does not end with a newline); they were moved to "
            ),
        "{r:?}"
    );
    assert_eq!(r.stderr.matches("warning:").count(), 1, "one line: {r:?}");
    assert!(!r.stderr.contains(torn), "never the content: {r:?}");
    let mirrored: Vec<String> = heads_in(&ns.0)
        .iter()
        .map(|h| h["spec"]["record"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(mirrored, vec![lines[0].clone(), lines[2].clone()]);
    assert!(queue(&m).is_empty());
    let rejected = std::fs::read_to_string(home(&m).join("mirror-rejected.jsonl")).unwrap();
    assert_eq!(rejected, format!("{edited}\n{torn}\n"));
}

#[test]
fn two_workstations_mirroring_at_once_leave_every_record_once() {
    let ns = Namespace::new("mirror-two");
    for user in ["alice", "bob"] {
        may_patch(&ns, user);
        may_mirror(&ns.0, user);
        configmap(&ns.0, user);
    }
    let homes: Vec<(&str, Myops)> = ["alice", "bob"]
        .into_iter()
        .map(|u| (u, Myops::new(&plugin(&ns.0))))
        .collect();
    let name = ns.0.as_str();
    std::thread::scope(|s| {
        for (user, m) in &homes {
            s.spawn(move || {
                for i in 0..4 {
                    ok(&patch_as(m, user, name, user, &format!("c{i}")));
                }
            });
        }
    });
    let heads = heads_in(&ns.0);
    let mut mirrored: Vec<String> = heads
        .iter()
        .map(|h| h["spec"]["record"].as_str().unwrap().to_string())
        .collect();
    let mut expected: Vec<String> = homes.iter().flat_map(|(_, m)| complete_lines(m)).collect();
    mirrored.sort();
    expected.sort();
    assert_eq!(expected.len(), 8);
    assert_eq!(mirrored, expected, "each record once");
    for (user, m) in &homes {
        let id = std::fs::read_to_string(home(m).join("journal-id")).unwrap();
        let mine = heads
            .iter()
            .filter(|h| h["spec"]["chain"]["journal"] == id.trim())
            .count();
        assert_eq!(mine, 4, "{user}");
        assert!(queue(m).is_empty(), "{user}");
    }
}

/// A ConfigMap holding about 900 KiB: its patch's record (before and after) is over 1.5 MiB.
fn big_configmap(ns: &str, name: &str) {
    let blob: String = (0..900 * 1024)
        .map(|i| char::from(b'a' + (i % 26) as u8))
        .collect();
    let cm = serde_json::json!({
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": name, "namespace": ns},
        "data": {"blob": blob},
    });
    let out = kubectl_stdin(&["create", "-f", "-"], &cm.to_string());
    assert!(out.status.success(), "{out:?}");
}

#[test]
fn a_record_over_1_5_mib_is_mirrored_as_parts_read_back_equal_and_pruned_by_an_admin_only() {
    let ns = Namespace::new("mirror-big");
    may_patch(&ns, "alice");
    may_mirror(&ns.0, "alice");
    big_configmap(&ns.0, "big");
    let m = Myops::new(&plugin(&ns.0));
    ok(&m.merge_patch_as(
        "alice",
        &ns.0,
        "configmap",
        "big",
        r#"{"metadata":{"labels":{"size":"large"}}}"#,
    ));
    let line = complete_lines(&m).pop().unwrap();
    assert!(line.len() > 1536 * 1024, "{}", line.len());
    let all = records_in(&ns.0);
    let (parts, heads): (Vec<Value>, Vec<Value>) = all
        .into_iter()
        .partition(|o| o["metadata"]["labels"]["myops.io/role"] == "part");
    assert_eq!((heads.len(), parts.len()), (1, 2));
    assert_eq!(heads[0]["spec"]["parts"], 2);
    let back = myops::changelog::mirror::read_back(&heads[0], &parts).unwrap();
    assert_eq!(back.line, line);
    assert_eq!(back.problems, Vec::<String>::new());
    assert_eq!(back.created_by, "alice");

    // Prune: alice may only create (exit 3 naming the ClusterRole); an admin deletes.
    std::thread::sleep(std::time::Duration::from_secs(2));
    let r = m.run(&[
        "--context",
        "alice",
        "changelog",
        "mirror",
        "prune",
        "--older-than",
        "1s",
    ]);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(r.stderr.contains("myops-changerecord-admin"), "{r:?}");
    let admin = Myops::new(&plugin(&ns.0));
    let args = ["changelog", "mirror", "prune", "--older-than", "1s"];
    let r = admin.run(&[&args[..], &["--dry-run=server"]].concat());
    ok(&r);
    let name = heads[0]["metadata"]["name"].as_str().unwrap();
    assert_eq!(
        r.stdout,
        format!("changerecord/{name} deleted (server dry run)\n")
    );
    assert_eq!(records_in(&ns.0).len(), 3, "a dry run deletes nothing");
    let r = admin.run(&args);
    ok(&r);
    assert_eq!(r.stdout, format!("changerecord/{name} deleted\n"));
    assert!(
        r.stderr
            .contains("1 record(s) and 2 part(s) older than 1s deleted from namespace"),
        "{r:?}"
    );
    assert!(records_in(&ns.0).is_empty());
    assert_eq!(complete_lines(&m).len(), 1, "the local journal keeps it");
    let r = admin.run(&["changelog", "mirror", "prune", "--older-than", "90"]);
    assert_eq!(r.code, 2, "{r:?}");
}

#[test]
fn a_record_claiming_another_user_is_never_sent_and_the_admission_policy_refuses_it() {
    let ns = Namespace::new("mirror-claim");
    may_patch(&ns, "alice");
    may_mirror(&ns.0, "bob");
    configmap(&ns.0, "web");
    // alice may not mirror: her record stays queued.
    let alice = Myops::new(&plugin(&ns.0));
    ok(&patch_as(&alice, "alice", &ns.0, "web", "green"));
    let line = queue(&alice).pop().unwrap();
    // Her queued line in bob's home: bob's commands never send it.
    let bob = Myops::new(&plugin(&ns.0));
    std::fs::create_dir_all(home(&bob)).unwrap();
    std::fs::write(home(&bob).join("mirror-queue.jsonl"), format!("{line}\n")).unwrap();
    let r = bob.run(&["--context", "bob", "changelog", "mirror", "push"]);
    ok(&r);
    assert!(
        r.stderr.contains("0 record(s) sent to ",)
            && r.stderr.contains(
                ", 0 left queued; 1 queued for other servers or users, sent by a command there"
            ),
        "{r:?}"
    );
    assert_eq!(queue(&bob), vec![line.clone()]);
    assert!(heads_in(&ns.0).is_empty());
    // Sent by hand, the API server refuses it: createdBy must be who creates it.
    let objects = myops::changelog::mirror::objects(&line, "0123456789abcdef", &ns.0).unwrap();
    let head = objects.last().unwrap().to_string();
    let kc = crate::fixture::cluster().kubeconfig.clone();
    let path = bob.dir.path().join("claim.json");
    std::fs::write(&path, &head).unwrap();
    let out = kubectl_at(
        &kc,
        &["--context", "bob", "create", "-f", path.to_str().unwrap()],
    );
    assert!(!out.status.success());
    let err = crate::fixture::text_of(&out.stderr);
    assert!(
        err.contains("spec.createdBy must be the user creating the record (bob)"),
        "{err}"
    );
}

#[test]
fn prune_lists_in_pages_of_500_and_deletes_every_old_record() {
    let ns = Namespace::new("mirror-pages");
    let items: Vec<Value> = (0..520)
        .map(|i| {
            serde_json::json!({
                "apiVersion": "myops.io/v1", "kind": "ChangeRecord",
                "metadata": {"name": format!("r-{i:04}"), "namespace": ns.0,
                             "labels": {"myops.io/role": "record"}},
                "spec": {"createdBy": "admin"},
            })
        })
        .collect();
    let list = serde_json::json!({"apiVersion": "v1", "kind": "List", "items": items});
    let out = kubectl_stdin(&["create", "-f", "-"], &list.to_string());
    assert!(out.status.success(), "{out:?}");
    std::thread::sleep(std::time::Duration::from_secs(2));
    let admin = Myops::new(&plugin(&ns.0));
    let mark = crate::fixture::audit_mark();
    let r = admin.run(&["changelog", "mirror", "prune", "--older-than", "1s"]);
    ok(&r);
    assert_eq!(r.stdout.lines().count(), 520, "{}", r.stderr);
    assert!(
        r.stdout.starts_with("changerecord/r-0000 deleted\n"),
        "{r:?}"
    );
    assert!(records_in(&ns.0).is_empty());
    let lists: Vec<String> = crate::fixture::audit_since(mark)
        .into_iter()
        .filter(|e| {
            e["verb"] == "list"
                && e["objectRef"]["resource"] == "changerecords"
                && e["objectRef"]["namespace"] == ns.0.as_str()
                && e["stage"] == "ResponseComplete"
                && e["userAgent"].as_str().is_some_and(|a| a.contains("myops"))
        })
        .map(|e| e["requestURI"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(lists.len(), 2, "{lists:#?}");
    assert!(lists.iter().all(|u| u.contains("limit=500")), "{lists:#?}");
    assert!(lists[1].contains("continue="), "{lists:#?}");
}

#[test]
fn a_queue_that_is_not_a_regular_file_refuses_the_change_before_anything_is_sent() {
    let ns = Namespace::new("mirror-fifo");
    configmap(&ns.0, "web");
    let m = Myops::new(&plugin(&ns.0));
    std::fs::create_dir_all(home(&m).join("mirror-queue.jsonl")).unwrap();
    let r = patch_as(&m, "admin", &ns.0, "web", "green");
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr
            .contains("mirror-queue.jsonl: it is a directory, not a regular file")
            && r.stderr.contains("nothing was sent to the cluster"),
        "{r:?}"
    );
    let color = kubectl(&[
        "get",
        "configmap",
        "web",
        "-n",
        &ns.0,
        "-o",
        "jsonpath={.data.color}",
    ]);
    assert_eq!(color, "blue");
    assert!(journal_lines(&m).is_empty());
}

#[test]
fn a_queue_that_is_a_symbolic_link_refuses_the_change_and_push_prints_no_count_before_its_error() {
    let ns = Namespace::new("mirror-link");
    configmap(&ns.0, "web");
    let m = Myops::new(&plugin(&ns.0));
    std::fs::create_dir_all(home(&m)).unwrap();
    let elsewhere = m.dir.path().join("elsewhere.jsonl");
    std::fs::write(&elsewhere, "").unwrap();
    std::os::unix::fs::symlink(&elsewhere, home(&m).join("mirror-queue.jsonl")).unwrap();
    let r = patch_as(&m, "admin", &ns.0, "web", "green");
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stderr.contains("cannot use the mirror queue ")
            && r.stderr
                .contains("mirror-queue.jsonl: it is a symbolic link")
            && r.stderr.contains("nothing was sent to the cluster"),
        "{r:?}"
    );
    assert!(!r.stderr.contains("a new log is started"), "{r:?}");
    assert!(journal_lines(&m).is_empty());
    let r = m.run(&["--context", "admin", "changelog", "mirror", "push"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(!r.stderr.contains("record(s) sent"), "{r:?}");
    assert!(r.stderr.contains("it is a symbolic link"), "{r:?}");
    assert_eq!(std::fs::read_to_string(&elsewhere).unwrap(), "");
}
