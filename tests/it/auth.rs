//! `auth can-i`, `auth can-i --list`, `auth matrix` and `auth whoami` against the real
//! cluster, as admin, alice, bob and `--as`, compared with the real kubectl where they agree.

use std::time::{Duration, Instant};

use crate::fixture::{
    Myops, Namespace, Run, cluster, free_port, kubectl, kubectl_apply, kubectl_at, text_of,
};
use crate::flags::real_kubectl;

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

#[test]
fn matrix_shows_what_protect_rules_ask_for_each_row_here() {
    let ns = Namespace::new("auth-matrix-protect");
    let m = Myops::new(&format!(
        "name: myops\nverbs: [get, patch, delete]\nresources: [pods, configmaps, namespaces]\nscopes: [namespace, cluster]\nprotect:\n\
         - {{contexts: [admin], namespaces: [{ns}], verbs: [delete], mode: block}}\n\
         - {{contexts: [alice], mode: type-name}}\n\
         - {{servers: [\"https://127.0.0.1:*\"], verbs: [patch], mode: confirm}}\n",
        ns = ns.0
    ));
    let r = m.run(&["auth", "matrix", "-n", &ns.0]);
    assert_eq!((r.code, r.stderr.as_str()), (0, ""), "{r:?}");
    let rows = matrix_rows(&r, 8);
    assert_eq!(
        rows,
        [
            [
                "RESOURCE",
                "GET",
                "LIST",
                "WATCH",
                "PATCH",
                "DELETE",
                "PROTECTED",
                "BOUNDARY"
            ],
            ["pods", "yes", "yes", "yes", "yes", "yes", "block", "ok"],
            [
                "configmaps",
                "yes",
                "yes",
                "yes",
                "yes",
                "yes",
                "block",
                "ok"
            ],
            // The Namespace object of the namespace is judged in itself.
            [
                "namespaces",
                "yes",
                "yes",
                "yes",
                "yes",
                "yes",
                "block",
                "ok"
            ],
        ],
        "{r:?}"
    );
    // Elsewhere only the server rule's patch question holds.
    let r = m.run(&["auth", "matrix", "-n", "default", "--no-headers"]);
    assert_eq!(r.code, 0, "{r:?}");
    let rows = matrix_rows(&r, 8);
    assert_eq!(row(&rows, "pods")[6], "confirm", "{r:?}");
    assert_eq!(row(&rows, "namespaces")[6], "confirm", "{r:?}");
    // -A: some namespace is the protected one.
    let r = m.run(&["auth", "matrix", "-A", "--no-headers"]);
    assert_eq!(row(&matrix_rows(&r, 8), "pods")[6], "block", "{r:?}");
    // As alice every change is typed, and on the second server only patches are asked.
    let r = m.run(&[
        "auth",
        "matrix",
        "-n",
        &ns.0,
        "--context",
        "alice",
        "--no-headers",
    ]);
    let rows = matrix_rows(&r, 8);
    assert_eq!(
        row(&rows, "pods"),
        ["pods", "no", "no", "no", "no", "no", "type-name", "ok"],
        "{r:?}"
    );
    let r = m.run(&[
        "auth",
        "matrix",
        "-n",
        &ns.0,
        "--context",
        "admin-2",
        "--no-headers",
    ]);
    assert_eq!(
        row(&matrix_rows(&r, 8), "configmaps")[6],
        "confirm",
        "{r:?}"
    );
    // Without a change the plugin may make, nothing is protected.
    let get_only = Myops::new(
        "name: myops\nverbs: [get]\nresources: [pods]\nscopes: [namespace]\nprotect:\n- {contexts: [admin]}\n",
    );
    let r = get_only.run(&["auth", "matrix", "-n", &ns.0]);
    assert_eq!(
        matrix_rows(&r, 6),
        [
            ["RESOURCE", "GET", "LIST", "WATCH", "PROTECTED", "BOUNDARY"],
            ["pods", "yes", "yes", "yes", "-", "ok"],
        ],
        "{r:?}"
    );
}

/// The real kubectl's (exit code, stdout) for `args`, as the test cluster's admin kubeconfig.
fn real(args: &[&str]) -> (i32, String) {
    let out = kubectl_at(&cluster().kubeconfig, args);
    (out.status.code().unwrap_or(-1), text_of(&out.stdout))
}

/// Deletes the cluster-scoped objects a test created, even when it fails.
struct Cleanup(Vec<(&'static str, String)>);

impl Drop for Cleanup {
    fn drop(&mut self) {
        for (kind, name) in &self.0 {
            let _ = kubectl_at(
                &cluster().kubeconfig,
                &["delete", kind, name, "--wait=false", "--ignore-not-found"],
            );
        }
    }
}

fn suffix() -> u32 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos()
        % 1_000_000
}

#[test]
fn impersonate_users_asks_about_impersonation_even_with_a_crd_named_users() {
    let n = suffix();
    let group = format!("imp{n}.example.com");
    let crd = format!("users.{group}");
    let user = format!("carol-{n}");
    let role = format!("myops-test-impersonate-{n}");
    let _cleanup = Cleanup(vec![
        ("customresourcedefinition", crd.clone()),
        ("clusterrolebinding", role.clone()),
        ("clusterrole", role.clone()),
    ]);
    kubectl_apply(&format!(
        "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {{name: {crd}}}
spec:
  group: {group}
  scope: Namespaced
  names: {{plural: users, singular: user, kind: User}}
  versions:
  - name: v1
    served: true
    storage: true
    schema: {{openAPIV3Schema: {{type: object, x-kubernetes-preserve-unknown-fields: true}}}}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {{name: {role}}}
rules:
- apiGroups: [\"\"]
  resources: [users]
  resourceNames: [bob]
  verbs: [impersonate]
- apiGroups: [authentication.k8s.io]
  resources: [userextras/scopes]
  resourceNames: [view]
  verbs: [impersonate]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {{name: {role}}}
roleRef: {{apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: {role}}}
subjects:
- {{apiGroup: rbac.authorization.k8s.io, kind: User, name: {user}}}
"
    ));
    crate::fixture::wait_established(&[crd.as_str()]);
    let m = Myops::standard("auth-impersonate");
    let ask = |args: &[&str]| {
        let mut a = vec!["auth", "can-i"];
        a.extend_from_slice(args);
        a.extend_from_slice(&["--as", &user]);
        m.run(&a)
    };
    // Until discovery serves the CRD, `get users` is an unknown type; then it is the CRD, and
    // the note names its group.
    let deadline = Instant::now() + Duration::from_secs(30);
    let r = loop {
        let r = ask(&["get", "users"]);
        if r.code != 2 || Instant::now() > deadline {
            break r;
        }
        std::thread::sleep(Duration::from_millis(300));
    };
    assert_eq!((r.code, r.stdout.as_str()), (3, "no\n"), "{r:?}");
    assert!(r.stderr.contains(&format!("is users.{group}")), "{r:?}");

    // impersonate users is the core-group impersonation resource, not the CRD.
    let r = ask(&["impersonate", "users/bob"]);
    assert_eq!(
        (r.code, r.stdout.as_str(), r.stderr.as_str()),
        (0, "yes\n", ""),
        "{r:?}"
    );
    let r = ask(&["impersonate", "users", "bob"]);
    assert_eq!((r.code, r.stdout.as_str()), (0, "yes\n"), "{r:?}");
    let r = ask(&["impersonate", "users/alice"]);
    assert_eq!((r.code, r.stdout.as_str()), (3, "no\n"), "{r:?}");
    let r = ask(&["impersonate", "users", "-q"]);
    assert_eq!((r.code, r.stdout.as_str()), (3, ""), "{r:?}");
    let r = ask(&["impersonate", "groups/bob"]);
    assert_eq!(r.code, 3, "{r:?}");
    // userextras/KEY is the extra key; the NAME is its value (authentication.k8s.io).
    let r = ask(&["impersonate", "userextras/scopes", "view"]);
    assert_eq!((r.code, r.stdout.as_str()), (0, "yes\n"), "{r:?}");
    assert!(
        r.stderr.contains("userextras.authentication.k8s.io"),
        "{r:?}"
    );
    let r = ask(&["impersonate", "userextras/scopes", "edit"]);
    assert_eq!((r.code, r.stdout.as_str()), (3, "no\n"), "{r:?}");
    let r = ask(&["impersonate", "uids"]);
    assert_eq!((r.code, r.stdout.as_str()), (3, "no\n"), "{r:?}");
    assert!(r.stderr.contains("uids.authentication.k8s.io"), "{r:?}");

    // The real kubectl resolves `users` to the CRD here and says no: an intended difference.
    let (code, out) = real(&["auth", "can-i", "impersonate", "users/bob", "--as", &user]);
    assert_eq!((code, out.as_str()), (1, "no\n"));
}

#[test]
fn non_resource_urls_are_asked_as_kubectl_asks_them() {
    let m = Myops::standard("auth-nonresource");
    for (args, code) in [
        (
            vec!["auth", "can-i", "get", "/healthz", "--context", "bob"],
            0,
        ),
        (
            vec!["auth", "can-i", "get", "/version", "--context", "alice"],
            0,
        ),
        (
            vec!["auth", "can-i", "post", "/healthz", "--context", "bob"],
            3,
        ),
        (
            vec!["auth", "can-i", "get", "/metrics", "--context", "bob"],
            3,
        ),
        (vec!["auth", "can-i", "get", "/metrics"], 0),
    ] {
        let r = m.run(&args);
        let (kcode, kout) = real(&args);
        assert_eq!(r.code, code, "{args:?}: {r:?}");
        assert_eq!(r.stdout, kout, "stdout as kubectl's: {args:?}: {r:?}");
        assert_eq!(kcode, if code == 0 { 0 } else { 1 }, "{args:?}");
    }
    for args in [
        vec!["auth", "can-i", "get", "/healthz", "pods"],
        vec!["auth", "can-i", "get", "/healthz", "--subresource", "log"],
    ] {
        let r = m.run(&args);
        assert_eq!((r.code, r.stdout.as_str()), (2, ""), "{args:?}: {r:?}");
    }
}

#[test]
fn a_review_that_could_not_be_made_is_exit_1_never_no_even_with_q() {
    let m = Myops::standard("auth-unmade");
    let dead = format!("https://127.0.0.1:{}", free_port());
    for args in [
        vec![
            "auth",
            "can-i",
            "get",
            "/healthz",
            "-s",
            &dead,
            "--insecure-skip-tls-verify",
        ],
        vec![
            "auth",
            "can-i",
            "get",
            "/healthz",
            "-q",
            "-s",
            &dead,
            "--insecure-skip-tls-verify",
        ],
        vec![
            "auth",
            "can-i",
            "list",
            "pods",
            "-q",
            "-s",
            &dead,
            "--insecure-skip-tls-verify",
        ],
        vec![
            "auth",
            "can-i",
            "impersonate",
            "users",
            "-q",
            "-s",
            &dead,
            "--insecure-skip-tls-verify",
        ],
        // The anonymous user may not create reviews at all.
        vec![
            "auth",
            "can-i",
            "list",
            "pods",
            "-q",
            "--as",
            "system:anonymous",
        ],
        vec![
            "auth",
            "can-i",
            "get",
            "/healthz",
            "--as",
            "system:anonymous",
        ],
        vec!["auth", "can-i", "--list", "--as", "system:anonymous"],
        vec!["auth", "whoami", "--as", "system:anonymous"],
    ] {
        let r = m.run(&args);
        assert_eq!((r.code, r.stdout.as_str()), (1, ""), "{args:?}: {r:?}");
        assert_eq!(r.stderr.lines().count(), 1, "one sentence: {args:?}: {r:?}");
        assert!(r.stderr.starts_with("error: "), "{args:?}: {r:?}");
    }
}

#[test]
fn can_i_list_shows_only_the_rules_plugin_yaml_lets_the_plugin_use() {
    let ns = Namespace::new("auth-list");
    ns.grant("alice", "get,list,delete", "pods");
    ns.grant("alice", "get", "configmaps");
    let m = Myops::standard(&ns.0);
    let r = m.run(&["auth", "can-i", "--list", "-n", &ns.0, "--context", "alice"]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (
            0,
            "Resources   Non-Resource URLs   Resource Names   Verbs\n\
             pods        []                  []               [get list]\n"
        ),
        "{r:?}"
    );
    assert_eq!(r.stderr.lines().count(), 1, "{r:?}");
    assert!(
        r.stderr.contains("outside plugin.yaml") && r.stderr.contains("not shown"),
        "{r:?}"
    );
    // kubectl shows the same rule, with the verb plugin.yaml has no use for.
    let (code, out) = real(&["auth", "can-i", "--list", "-n", &ns.0, "--context", "alice"]);
    assert_eq!(code, 0);
    assert!(
        out.lines()
            .any(|l| l.starts_with("pods ") && l.ends_with("[get list delete]")),
        "{out}"
    );

    let r = m.run(&[
        "auth",
        "can-i",
        "--list",
        "--no-headers",
        "-n",
        &ns.0,
        "--as",
        "alice",
    ]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, "pods   []    []    [get list]\n"),
        "{r:?}"
    );
    // Another namespace: nothing of the plugin's.
    let r = m.run(&[
        "auth",
        "can-i",
        "--list",
        "-n",
        "default",
        "--context",
        "alice",
    ]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (
            0,
            "Resources   Non-Resource URLs   Resource Names   Verbs\n"
        ),
        "{r:?}"
    );
    // Admin's wildcard is narrowed to the boundary's types and verbs.
    let r = m.run(&["auth", "can-i", "--list", "-n", &ns.0]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout
            .lines()
            .any(|l| l.starts_with("pods ") && l.ends_with("[get list watch patch]")),
        "{r:?}"
    );
    assert!(!r.stdout.contains('*'), "{r:?}");

    for args in [
        vec!["auth", "can-i", "--list", "pods"],
        vec!["auth", "can-i", "--list", "-q"],
        vec!["auth", "can-i", "--list", "-A"],
        vec!["auth", "can-i", "list", "pods", "--no-headers"],
    ] {
        let r = m.run(&args);
        assert_eq!((r.code, r.stdout.as_str()), (2, ""), "{args:?}: {r:?}");
    }
}

/// `out` with the line holding `creationTimestamp` dropped (the server stamps each review).
fn without_timestamp(out: &str) -> String {
    out.lines()
        .filter(|l| !l.contains("creationTimestamp"))
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn whoami_prints_what_kubectl_prints() {
    let m = Myops::standard("auth-whoami");
    for args in [
        vec!["auth", "whoami"],
        vec!["auth", "whoami", "--context", "alice"],
        vec!["auth", "whoami", "--context", "bob", "-o", "json"],
        vec!["auth", "whoami", "--context", "alice", "-o", "yaml"],
        vec![
            "auth",
            "whoami",
            "--as",
            "bob",
            "--as-group",
            "g1",
            "--as-group",
            "g2",
            "--as-uid",
            "u1",
        ],
        vec![
            "auth",
            "whoami",
            "--as",
            "bob",
            "--as-group",
            "g1",
            "-o",
            "json",
        ],
    ] {
        let r = m.run(&args);
        let (code, out) = real(&args);
        assert_eq!((r.code, code), (0, 0), "{args:?}: {r:?}");
        assert_eq!(
            without_timestamp(&r.stdout),
            without_timestamp(&out),
            "{args:?}: {r:?}"
        );
        assert_eq!(r.stderr, "", "{args:?}");
    }
    let r = m.run(&["auth", "whoami", "--context", "alice"]);
    assert_eq!(
        r.stdout,
        "ATTRIBUTE   VALUE\nUsername    alice\nUID         uid-alice\nGroups      [system:authenticated]\n"
    );
    let r = m.run(&["auth", "whoami", "-o", "wide"]);
    assert_eq!((r.code, r.stdout.as_str()), (2, ""), "{r:?}");
}

#[test]
fn can_i_sign_or_approve_signers_was_exit_2_doesnt_have_a_resource_type() {
    let ns = Namespace::new("auth-signers");
    let signer = format!("example.com/{}", ns.0);
    let role = format!("myops-test-{}", ns.0);
    kubectl_apply(&format!(
        "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {{name: {role}}}\nrules:\n- apiGroups: [certificates.k8s.io]\n  resources: [signers]\n  resourceNames: ['{signer}']\n  verbs: [approve]\n---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {{name: {role}}}\nroleRef: {{apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: {role}}}\nsubjects:\n- {{apiGroup: rbac.authorization.k8s.io, kind: User, name: alice}}\n"
    ));
    let m = Myops::standard(&ns.0);
    let warning = "Warning: the server doesn't have a resource type 'signers' in group 'certificates.k8s.io'\n";
    let ask = |context: &str, verb: &str, target: &str| {
        let r = m.run(&["auth", "can-i", verb, target, "--context", context]);
        (r.code, r.stdout, r.stderr)
    };
    let typed = format!("signers.certificates.k8s.io/{signer}");
    // The admin may do anything: yes, with kubectl's warning, as kubectl answers.
    for verb in ["sign", "approve"] {
        assert_eq!(
            ask("admin", verb, "signers.certificates.k8s.io"),
            (0, "yes\n".into(), warning.into())
        );
        let theirs = real_kubectl(&[], &["auth", "can-i", verb, "signers.certificates.k8s.io"]);
        assert_eq!(
            (theirs.code, theirs.stdout.as_str()),
            (0, "yes\n"),
            "{theirs:?}"
        );
        assert!(theirs.stderr.contains(warning.trim_end()), "{theirs:?}");
    }
    // alice may approve for this one signer (the name holds a `/`), nothing else.
    assert_eq!(
        ask("alice", "approve", &typed),
        (0, "yes\n".into(), warning.into())
    );
    assert_eq!(ask("alice", "sign", &typed).0, 3);
    assert_eq!(
        ask(
            "alice",
            "approve",
            "signers.certificates.k8s.io/example.com/other"
        )
        .0,
        3
    );
    assert_eq!(ask("bob", "approve", &typed).0, 3);
    // kubectl asks about a resource "signers.certificates.k8s.io" in the core group, which no
    // rule for signers matches: it tells alice "no" where the API server would let her approve.
    let theirs = real_kubectl(
        &[],
        &["auth", "can-i", "approve", &typed, "--context", "alice"],
    );
    assert_eq!(
        (theirs.code, theirs.stdout.as_str()),
        (1, "no\n"),
        "{theirs:?}"
    );
    kubectl(&["delete", "clusterrolebinding,clusterrole", &role]);
}
