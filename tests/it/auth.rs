//! `auth can-i` and `auth matrix` against the real cluster, as admin, alice, bob and `--as`.

use crate::fixture::{Myops, Namespace, Run};

/// The rows of a matrix, each split into `columns` cells (the last, BOUNDARY, may hold spaces).
fn matrix_rows(r: &Run, columns: usize) -> Vec<Vec<String>> {
    r.stdout
        .lines()
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let mut cells: Vec<String> =
                words[..columns - 1].iter().map(|w| w.to_string()).collect();
            cells.push(words[columns - 1..].join(" "));
            cells
        })
        .collect()
}

fn row<'a>(rows: &'a [Vec<String>], resource: &str) -> &'a [String] {
    rows.iter()
        .find(|r| r[0] == resource)
        .unwrap_or_else(|| panic!("no row {resource} in {rows:?}"))
}

#[test]
fn alice_can_i_answers_from_her_role() {
    let ns = Namespace::new("auth-alice");
    ns.grant("alice", "get,list", "pods");
    let m = Myops::standard(&ns.0);
    let ask = |args: &[&str]| {
        let mut a = vec!["auth", "can-i"];
        a.extend_from_slice(args);
        a.extend_from_slice(&["-n", &ns.0, "--context", "alice"]);
        m.run(&a)
    };

    let r = ask(&["list", "pods"]);
    assert_eq!(
        (r.code, r.stdout.as_str(), r.stderr.as_str()),
        (0, "yes\n", ""),
        "{r:?}"
    );
    let r = ask(&["get", "pod/web-1"]);
    assert_eq!((r.code, r.stdout.as_str()), (0, "yes\n"), "{r:?}");
    let r = ask(&["get", "po", "web-1"]);
    assert_eq!((r.code, r.stdout.as_str()), (0, "yes\n"), "{r:?}");

    for verb in ["patch", "watch", "delete"] {
        let r = ask(&[verb, "pods"]);
        assert_eq!(r.code, 3, "{verb}: {r:?}");
        assert!(r.stdout.starts_with("no"), "{verb}: {r:?}");
        assert_eq!(r.stdout.lines().count(), 1, "{verb}: {r:?}");
        assert_eq!(r.stderr, "", "an answer is not an error: {r:?}");
    }

    let r = ask(&["list", "pods", "-q"]);
    assert_eq!((r.code, r.stdout.as_str()), (0, ""), "{r:?}");
    let r = ask(&["patch", "pods", "-q"]);
    assert_eq!((r.code, r.stdout.as_str()), (3, ""), "{r:?}");
    // Cluster-wide is another question: her Role is in one namespace.
    let r = ask(&["list", "pods", "-A"]);
    assert_eq!(r.code, 3, "{r:?}");
    // The status subresource is not covered by a rule on pods.
    let r = ask(&["get", "pods", "--subresource", "status"]);
    assert_eq!(r.code, 3, "{r:?}");
}

#[test]
fn bob_is_told_no_and_as_bob_from_admin_gets_his_answer() {
    let ns = Namespace::new("auth-bob");
    let m = Myops::standard(&ns.0);
    let bob = m.run(&[
        "auth",
        "can-i",
        "list",
        "pods",
        "-n",
        &ns.0,
        "--context",
        "bob",
    ]);
    assert_eq!(bob.code, 3, "{bob:?}");
    assert!(bob.stdout.starts_with("no"), "{bob:?}");
    let as_bob = m.run(&["auth", "can-i", "list", "pods", "-n", &ns.0, "--as", "bob"]);
    assert_eq!(
        (as_bob.code, &as_bob.stdout),
        (bob.code, &bob.stdout),
        "{as_bob:?}"
    );
    let admin = m.run(&["auth", "can-i", "list", "pods", "-n", &ns.0]);
    assert_eq!(
        (admin.code, admin.stdout.as_str()),
        (0, "yes\n"),
        "{admin:?}"
    );
}

#[test]
fn can_i_with_an_unknown_type_is_exit_2() {
    let ns = Namespace::new("auth-unknown");
    let m = Myops::standard(&ns.0);
    let r = m.run(&["auth", "can-i", "list", "nosuchkinds", "-n", &ns.0]);
    assert_eq!((r.code, r.stdout.as_str()), (2, ""), "{r:?}");
    assert!(
        r.stderr
            .contains("doesn't have a resource type \"nosuchkinds\""),
        "{r:?}"
    );
    let r = m.run(&["auth", "can-i", "get", "pods/a", "b", "-n", &ns.0]);
    assert_eq!(r.code, 2, "{r:?}");
}

#[test]
fn can_i_yes_notes_what_plugin_yaml_would_refuse() {
    let ns = Namespace::new("auth-note");
    let m = Myops::standard(&ns.0);
    let r = m.run(&["auth", "can-i", "list", "configmaps", "-n", &ns.0]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (
            0,
            "yes (outside plugin.yaml: configmaps not in resources)\n"
        ),
        "{r:?}"
    );
    // No plugin verb creates, so there is nothing to note.
    let r = m.run(&["auth", "can-i", "create", "configmaps", "-n", &ns.0]);
    assert_eq!((r.code, r.stdout.as_str()), (0, "yes\n"), "{r:?}");

    let m = Myops::new("name: myops\nverbs: [get]\nresources: [pods]\nscopes: [namespace]\n");
    let r = m.run(&["auth", "can-i", "list", "pods", "-A"]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (
            0,
            "yes (outside plugin.yaml: --all-namespaces needs scope cluster)\n"
        ),
        "{r:?}"
    );
    let r = m.run(&["auth", "can-i", "patch", "pods", "-n", &ns.0]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "yes (outside plugin.yaml: verb patch not in verbs)\n"),
        "{r:?}"
    );
}

#[test]
fn matrix_for_alice_shows_her_role_cell_by_cell() {
    let ns = Namespace::new("auth-matrix");
    ns.grant("alice", "get,list", "pods");
    let m = Myops::standard(&ns.0);
    let r = m.run(&["auth", "matrix", "-n", &ns.0, "--context", "alice"]);
    assert_eq!((r.code, r.stderr.as_str()), (0, ""), "{r:?}");
    let rows = matrix_rows(&r, 6);
    assert_eq!(
        rows[0],
        ["RESOURCE", "GET", "LIST", "WATCH", "PATCH", "BOUNDARY"],
        "{r:?}"
    );
    assert_eq!(row(&rows, "pods"), ["pods", "yes", "yes", "no", "no", "ok"]);
    assert_eq!(
        row(&rows, "deployments.apps"),
        ["deployments.apps", "no", "no", "no", "no", "ok"]
    );
    assert_eq!(
        rows.len(),
        5,
        "a header and one row per plugin.yaml resource: {r:?}"
    );

    // -A asks cluster-wide, where her namespaced Role does not reach.
    let r = m.run(&["auth", "matrix", "-A", "--context", "alice"]);
    assert_eq!(r.code, 0, "{r:?}");
    let rows = matrix_rows(&r, 6);
    assert_eq!(row(&rows, "pods"), ["pods", "no", "no", "no", "no", "ok"]);

    // --as alice from admin gives the same table.
    let as_alice = m.run(&["auth", "matrix", "-n", &ns.0, "--as", "alice"]);
    let alice = m.run(&["auth", "matrix", "-n", &ns.0, "--context", "alice"]);
    assert_eq!(as_alice.stdout, alice.stdout, "{as_alice:?}");
}

#[test]
fn matrix_columns_follow_plugin_verbs_and_mark_boundary_and_unserved_types() {
    let ns = Namespace::new("auth-matrix-boundary");
    let m = Myops::new(
        "name: myops\nverbs: [get]\nresources: [pods, namespaces, widgets.nosuch.example]\nscopes: [namespace]\n",
    );
    let r = m.run(&["auth", "matrix", "-n", &ns.0]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stderr.contains("\"widgets.nosuch.example\""),
        "a warning names the unserved type: {r:?}"
    );
    let rows = matrix_rows(&r, 5);
    assert_eq!(
        rows,
        [
            ["RESOURCE", "GET", "LIST", "WATCH", "BOUNDARY"],
            ["pods", "yes", "yes", "yes", "ok"],
            [
                "namespaces",
                "yes",
                "yes",
                "yes",
                "cluster-scoped namespaces needs scope cluster"
            ],
            ["widgets.nosuch.example", "?", "?", "?", "?"],
        ],
        "{r:?}"
    );
    let r = m.run(&["auth", "matrix", "-A", "--no-headers"]);
    assert_eq!(r.code, 0, "{r:?}");
    let rows = matrix_rows(&r, 5);
    assert_eq!(
        row(&rows, "pods"),
        [
            "pods",
            "yes",
            "yes",
            "yes",
            "--all-namespaces needs scope cluster"
        ]
    );
}
