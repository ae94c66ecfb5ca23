//! A mirror object name taken by another writer (docs/team.md, "Queue faults"): an
//! `AlreadyExists` is "already mirrored" only when the object there is the same copy.

use super::{configmap, heads_in, home, may_mirror, may_patch, patch_as, plugin, queue};
use crate::fixture::{Myops, Namespace, kubectl_at};

#[test]
fn a_head_name_taken_by_another_writer_is_not_taken_as_mirrored() {
    let ns = Namespace::new("mirror-taken");
    may_patch(&ns, "alice");
    may_mirror(&ns.0, "alice");
    may_mirror(&ns.0, "bob");
    configmap(&ns.0, "web");
    let mut alice = Myops::new(&plugin(&ns.0));
    alice.set_env("MYOPS_TEST_MIRROR", "down");
    super::ok(&patch_as(&alice, "alice", &ns.0, "web", "green"));
    alice.env.retain(|(k, _)| k != "MYOPS_TEST_MIRROR");
    let line = queue(&alice).pop().unwrap();
    // bob creates her record's head name first, with his own content.
    let id = std::fs::read_to_string(home(&alice).join("journal-id")).unwrap();
    let mut head = myops::changelog::mirror::objects(&line, id.trim(), &ns.0)
        .unwrap()
        .pop()
        .unwrap();
    let name = head["metadata"]["name"].as_str().unwrap().to_string();
    head["spec"]["createdBy"] = "bob".into();
    let path = alice.dir.path().join("squat.json");
    std::fs::write(&path, head.to_string()).unwrap();
    let kc = crate::fixture::cluster().kubeconfig.clone();
    let out = kubectl_at(
        &kc,
        &["--context", "bob", "create", "-f", path.to_str().unwrap()],
    );
    assert!(out.status.success(), "{out:?}");
    let r = alice.run(&["--context", "alice", "changelog", "mirror", "push"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(!r.stdout.contains("mirrored"), "{r:?}");
    let warnings: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| l.starts_with("warning:"))
        .collect();
    assert_eq!(
        warnings,
        vec![format!(
            "warning: ChangeRecord {name} in namespace {} already exists with other content, created by bob: the name is taken, so this record could not be mirrored; it stays queued and in the local journal, and an admin must look at that object",
            ns.0
        )],
        "{r:?}"
    );
    assert!(r.stderr.contains("0 record(s) sent to "), "{r:?}");
    assert!(r.stderr.contains(", 1 left queued"), "{r:?}");
    assert_eq!(queue(&alice), vec![line]);
    let heads = heads_in(&ns.0);
    assert_eq!(heads.len(), 1);
    assert_eq!(heads[0]["spec"]["createdBy"], "bob");
}
