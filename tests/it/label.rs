//! Integration tests of `label` and `annotate` against the real API server: kubectl 1.36's
//! output for each form (the oracle is the real kubectl, run on twin ConfigMaps), the journal
//! entry and its rollback restoring the object exactly, and the bad inputs refused before
//! anything is sent: invalid keys (a prefix that is no DNS subdomain, a name part over 63
//! bytes), a value with a newline, annotations over 256 KiB, a change log that cannot be
//! written, a field policy denying the key.

use serde_json::Value;

use crate::fixture::{Myops, Namespace, Run, audit_mark, audit_since, cluster, kubectl, text_of};

/// get, label and annotate on ConfigMaps.
const PLUGIN: &str = "name: myops\nverbs: [get, patch, label, annotate]\nresources: [configmaps]\nscopes: [namespace]\n";

fn myops() -> Myops {
    Myops::new(PLUGIN)
}

/// The real kubectl's run of `args`.
fn oracle(args: &[&str]) -> Run {
    let out = std::process::Command::new(crate::fixture::root().join("target/testbin/kubectl"))
        .args(args)
        .env("KUBECONFIG", &cluster().kubeconfig)
        .output()
        .unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: text_of(&out.stdout),
        stderr: text_of(&out.stderr),
    }
}

/// kubectl's exit status 1 as this tool documents it: usage (and what the server would
/// refuse, refused before sending) 2, not found 4.
fn documented(kubectl: &Run, ours: &Run) -> bool {
    match (kubectl.code, ours.code) {
        (a, b) if a == b => true,
        (1, 2) => kubectl.stderr.starts_with("error: ") || kubectl.stderr.contains(" is invalid: "),
        (1, 4) => kubectl.stderr.contains("(NotFound)"),
        _ => false,
    }
}

/// Whether an audit event is a request of kubectl-myops (its User-Agent), not of a
/// controller or of the test's own kubectl.
fn by_us(e: &Value) -> bool {
    e["userAgent"]
        .as_str()
        .is_some_and(|a| a.starts_with("kubectl-myops/"))
}

fn object(ns: &str, name: &str) -> Value {
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

fn configmaps(ns: &str) {
    for n in ["c1", "c2"] {
        kubectl(&["create", "configmap", n, "-n", ns, "--from-literal=k=v"]);
    }
    kubectl(&["label", "configmap", "c2", "app=x", "-n", ns]);
}

#[test]
fn each_form_prints_what_kubectl_prints_on_a_twin() {
    let ours_ns = Namespace::new("label-parity-a");
    let theirs_ns = Namespace::new("label-parity-b");
    let m = myops();
    for ns in [&ours_ns.0, &theirs_ns.0] {
        configmaps(ns);
    }
    let long_name = format!("{}=v", "n".repeat(64));
    let long_value = format!("k={}", "v".repeat(64));
    let long_prefix = format!("{}/n=v", "p".repeat(254));
    // One key per object where kubectl lists (its order is Go's map order).
    let cases: Vec<Vec<&str>> = vec![
        vec!["label", "configmap", "c1", "tier=web"],
        vec!["label", "configmap", "c1", "tier=api"],
        vec!["label", "configmap", "c1", "tier=api", "--overwrite"],
        vec!["label", "configmap", "c1", "tier=api"],
        vec!["label", "configmap", "c1", "--list"],
        vec!["label", "configmap", "c1", "tier-"],
        vec!["label", "configmap", "c1", "tier-"],
        vec!["label", "cm/c1", "team=a", "--dry-run=server"],
        vec!["label", "cm/c1", "team=a", "--dry-run=client"],
        vec!["label", "cm", "c1", "team=a", "-o", "name"],
        vec!["label", "cm", "c1", "team=b", "other=c", "team-"],
        vec!["label", "cm", "c1", "team-", "other=c"],
        vec!["label", "cm", "-l", "app=x", "env=prod"],
        vec!["label", "cm", "--all", "scope=all", "--dry-run=server"],
        vec!["label", "cm", "c1", "a=b=c"],
        vec!["label", "cm", "c1", "v=a b"],
        vec!["label", "cm", "c1", long_value.as_str()],
        vec!["label", "cm", "c1", "k=v", "c2"],
        vec!["label", "cm", "c1"],
        vec!["label", "cm", "c1", "k=v", "k-"],
        vec!["label", "cm", "--all", "-l", "app=x", "k=v"],
        vec!["label", "cm", "c1", "c2", "k=v", "--resource-version=1"],
        vec!["label", "cm", "c1", "--list", "-o", "name"],
        vec!["label", "cm", "nothere", "k=v"],
        vec!["label", "cm", "k=v"],
        vec!["label", "cm", "c1", "bad_key!=v"],
        vec!["label", "cm", "c1", long_name.as_str()],
        vec!["label", "cm", "c1", long_prefix.as_str()],
        vec!["annotate", "configmap", "c1", "note=hello"],
        vec!["annotate", "configmap", "c1", "note=bye"],
        vec!["annotate", "configmap", "c1", "note=bye", "--overwrite"],
        vec!["annotate", "configmap", "c1", "--list"],
        vec!["annotate", "configmap", "c1", "note-"],
        vec![
            "annotate",
            "cm/c1",
            "multi=line1\nline2",
            "--dry-run=server",
        ],
        vec!["annotate", "cm", "c1", "x=1", "-o", "name"],
        vec!["annotate", "cm", "c1", "bad"],
        vec!["annotate", "cm", "c1", "x=1", "x-"],
        vec!["annotate", "cm", "c1", "Bad Key=v"],
    ];
    let mut compared = Vec::new();
    for case in cases {
        let mut theirs_args = case.clone();
        theirs_args.extend(["-n", theirs_ns.0.as_str()]);
        let mut ours_args = case.clone();
        ours_args.extend(["-n", ours_ns.0.as_str()]);
        let theirs = oracle(&theirs_args);
        let ours = m.run(&ours_args);
        let ours_out = ours.stdout.replace(&ours_ns.0, &theirs_ns.0);
        let ours_err = ours.stderr.replace(&ours_ns.0, &theirs_ns.0);
        assert_eq!(
            ours_out, theirs.stdout,
            "stdout of {case:?}: {ours:?} / {theirs:?}"
        );
        assert_eq!(
            ours_err, theirs.stderr,
            "stderr of {case:?}: {ours:?} / {theirs:?}"
        );
        assert!(
            documented(&theirs, &ours),
            "exit of {case:?}: ours {} kubectl {}",
            ours.code,
            theirs.code
        );
        for n in ["c1", "c2"] {
            let (a, b) = (object(&ours_ns.0, n), object(&theirs_ns.0, n));
            assert_eq!(
                a["metadata"]["labels"], b["metadata"]["labels"],
                "{n} labels after {case:?}"
            );
            assert_eq!(
                a["metadata"]["annotations"], b["metadata"]["annotations"],
                "{n} annotations after {case:?}"
            );
        }
        compared.push((case.join(" "), theirs.code, ours.code));
    }
    assert_eq!(compared.len(), 38);
    // The parity table (`cargo test … -- --nocapture` shows it): command, kubectl's exit, ours.
    for (line, theirs, ours) in &compared {
        eprintln!("parity\t{theirs}\t{ours}\tkubectl {}", line.escape_debug());
    }
}

#[test]
fn a_label_and_an_annotation_are_journaled_and_rollback_restores_them_exactly() {
    let ns = Namespace::new("label-rollback");
    configmaps(&ns.0);
    kubectl(&[
        "label",
        "configmap",
        "c1",
        "keep=1",
        "tier=old",
        "-n",
        &ns.0,
    ]);
    let m = myops();
    let before = object(&ns.0, "c1");
    let r = m.run(&[
        "label",
        "cm",
        "c1",
        "tier=new",
        "added=yes",
        "keep-",
        "--overwrite",
        "-n",
        &ns.0,
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stdout, "configmap/c1 modified\n");
    let entry = m.latest_records().pop().unwrap();
    assert_eq!(entry["operation"], "label");
    assert_eq!(entry["patchType"], "merge");
    assert_eq!(
        entry["patch"],
        serde_json::json!({"metadata": {"labels": {"tier": "new", "added": "yes", "keep": null}}})
    );
    let id = entry["id"].as_str().unwrap().to_string();
    let r = m.run(&["rollback", &id]);
    assert_eq!(r.code, 0, "{r:?}");
    let now = object(&ns.0, "c1");
    assert_eq!(now["metadata"]["labels"], before["metadata"]["labels"]);
    assert_eq!(now["data"], before["data"]);
    let last = m.latest_records().pop().unwrap();
    assert_eq!(last["operation"], "rollback");
    assert_eq!(last["result"], "success");
    assert_eq!(
        last["patch"][0]["op"], "test",
        "the resourceVersion test held"
    );

    let before = object(&ns.0, "c2");
    let r = m.run(&["annotate", "cm", "c2", "note=line1\nline2", "-n", &ns.0]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stdout, "configmap/c2 annotated\n");
    assert_eq!(
        object(&ns.0, "c2")["metadata"]["annotations"]["note"],
        "line1\nline2"
    );
    let entry = m.latest_records().pop().unwrap();
    assert_eq!(entry["operation"], "annotate");
    let r = m.run(&["rollback", entry["id"].as_str().unwrap()]);
    assert_eq!(r.code, 0, "{r:?}");
    let now = object(&ns.0, "c2");
    assert_eq!(
        now["metadata"]["annotations"],
        before["metadata"]["annotations"]
    );
    assert_eq!(now["metadata"]["labels"], before["metadata"]["labels"]);
}

#[test]
fn invalid_keys_values_and_sizes_are_refused_before_anything_is_sent() {
    let ns = Namespace::new("label-bad");
    configmaps(&ns.0);
    let m = myops();
    let mark = audit_mark();
    // One argument is at most 128 KiB (Linux MAX_ARG_STRLEN): three make the total too long.
    let third = "x".repeat(100 * 1000);
    let (a, b, c) = (
        format!("a={third}"),
        format!("b={third}"),
        format!("c={third}"),
    );
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["label", "cm", "c1", "Bad.Prefix/x=1"],
            "prefix part a lowercase RFC 1123 subdomain",
        ),
        (
            vec!["label", "cm", "c1", "a/b/c=1"],
            "a valid label key must consist of",
        ),
        (
            vec!["label", "cm", "c1", "k=a\nb"],
            "invalid label value: \"k=a\\nb\"",
        ),
        (
            vec!["annotate", "cm", "c1", "/x=1"],
            "prefix part must be non-empty",
        ),
        (
            vec!["annotate", "cm", "c1", a.as_str(), b.as_str(), c.as_str()],
            "The ConfigMap \"c1\" is invalid: metadata.annotations: Too long: may not be more than 262144 bytes",
        ),
    ];
    for (case, want) in cases {
        let mut args = case.clone();
        args.extend(["-n", ns.0.as_str()]);
        let r = m.run(&args);
        assert_eq!(r.code, 2, "{case:?}: {r:?}");
        assert!(r.stderr.contains(want), "{case:?}: {r:?}");
    }
    let writes: Vec<Value> = audit_since(mark)
        .into_iter()
        .filter(|e| e["objectRef"]["namespace"] == ns.0.as_str() && by_us(e))
        .filter(|e| !matches!(e["verb"].as_str(), Some("get" | "list" | "watch")))
        .collect();
    assert!(writes.is_empty(), "nothing was written: {writes:#?}");
    assert!(
        m.latest_records().is_empty(),
        "nothing journaled: {:#?}",
        m.latest_records()
    );
}

#[test]
fn an_unwritable_change_log_labels_nothing() {
    let ns = Namespace::new("label-nolog");
    configmaps(&ns.0);
    let mut m = myops();
    let bad = m.dir.path().join("log-is-a-directory");
    std::fs::create_dir_all(bad.join("changelog.jsonl")).unwrap();
    m.set_env("MYOPS_HOME", &bad.display().to_string());
    let mark = audit_mark();
    for verb in ["label", "annotate"] {
        let r = m.run(&[verb, "cm", "c1", "k=v", "-n", &ns.0]);
        assert_eq!(r.code, 1, "{r:?}");
        assert!(r.stderr.contains("nothing was sent"), "{r:?}");
    }
    assert!(
        audit_since(mark)
            .iter()
            .all(|e| e["objectRef"]["namespace"] != ns.0.as_str() || !by_us(e)),
        "no request about the object"
    );
    let now = object(&ns.0, "c1");
    assert!(now["metadata"]["labels"].get("k").is_none());
    assert!(now["metadata"].get("annotations").is_none());
}

#[test]
fn a_field_policy_denying_the_key_refuses_and_changes_nothing() {
    let ns = Namespace::new("label-policy");
    configmaps(&ns.0);
    let m = Myops::new(&format!(
        "{PLUGIN}policies:\n- resource: configmaps\n  deny: [/metadata/labels/team, /metadata/annotations/owner]\n  message: ownership is set in git\n"
    ));
    let r = m.run(&["label", "cm", "c1", "team=a", "-n", &ns.0]);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(
        r.stderr
            .contains("the label would change /metadata/labels/team"),
        "{r:?}"
    );
    let r = m.run(&["annotate", "cm", "c1", "owner=me", "-n", &ns.0]);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(r.stderr.contains("ownership is set in git"), "{r:?}");
    let now = object(&ns.0, "c1");
    assert!(now["metadata"]["labels"].get("team").is_none(), "{now:#}");
    assert!(now["metadata"].get("annotations").is_none(), "{now:#}");
    // An allowed key still goes through.
    let r = m.run(&["label", "cm", "c1", "tier=web", "-n", &ns.0]);
    assert_eq!(r.code, 0, "{r:?}");
    let records = m.latest_records();
    assert_eq!(records.len(), 3);
    assert!(
        records[0]["result"]
            .as_str()
            .unwrap()
            .starts_with("denied by field policy"),
        "{records:#?}"
    );
}

#[test]
fn the_same_labels_on_many_objects_by_selector_are_one_entry_each() {
    let ns = Namespace::new("label-many");
    for i in 0..5 {
        kubectl(&[
            "create",
            "configmap",
            &format!("m{i}"),
            "-n",
            &ns.0,
            "--from-literal=k=v",
        ]);
    }
    kubectl(&[
        "label",
        "configmap",
        "m0",
        "m1",
        "m2",
        "m3",
        "m4",
        "batch=1",
        "-n",
        &ns.0,
    ]);
    let m = myops();
    let r = m.run(&["label", "cm", "-l", "batch=1", "wave=2", "-n", &ns.0]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stdout.lines().count(), 5, "{r:?}");
    let records = m.latest_records();
    assert_eq!(records.len(), 5);
    assert!(records.iter().all(|e| e["operation"] == "label"));
    let r = m.run(&["label", "cm", "-l", "batch=1", "--list", "-n", &ns.0]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout.starts_with("Listing labels for ConfigMap./"),
        "{r:?}"
    );
    assert!(r.stdout.contains(" wave=2\n"), "{r:?}");
}

#[test]
fn a_label_over_two_contexts_runs_in_waves_and_rollback_session_undoes_both() {
    use crate::fleet::{TwoNamespaces, kubectl_in};
    let ns = TwoNamespaces::new("label-fleet");
    ns.configmap_w();
    let m = myops();
    let r = m.run(&[
        "label",
        "cm",
        "w",
        "tier=web",
        "-n",
        &ns.0,
        "--contexts",
        "admin,admin-2",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        r.stdout,
        "admin\tconfigmap/w labeled\nadmin-2\tconfigmap/w labeled\n"
    );
    let label = |ctx: &str| {
        kubectl_in(
            ctx,
            &[
                "get",
                "cm",
                "w",
                "-n",
                &ns.0,
                "-o",
                "jsonpath={.metadata.labels.tier}",
            ],
        )
    };
    assert_eq!(
        (label("admin"), label("admin-2")),
        ("web".into(), "web".into())
    );
    let hint = "to undo the changes of this invocation: kubectl myops rollback --session ";
    let session = r
        .stderr
        .lines()
        .find_map(|l| l.strip_prefix(hint))
        .unwrap_or_else(|| panic!("no rollback hint: {r:?}"))
        .to_string();
    let r = m.run(&["rollback", "--session", &session]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        (label("admin"), label("admin-2")),
        (String::new(), String::new())
    );
}

#[test]
fn an_object_argo_cd_tracks_is_labeled_with_the_reconcilers_warning_journaled() {
    let ns = Namespace::new("label-argo");
    configmaps(&ns.0);
    kubectl(&[
        "annotate",
        "configmap",
        "c1",
        "argocd.argoproj.io/tracking-id=shop:/ConfigMap:x/c1",
        "-n",
        &ns.0,
    ]);
    let m = myops();
    let r = m.run(&["label", "cm", "c1", "tier=web", "-n", &ns.0]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stdout, "configmap/c1 labeled\n");
    assert!(
        r.stderr
            .starts_with("warning: configmap/c1 is managed by Argo CD"),
        "{r:?}"
    );
    let entry = m.latest_records().pop().unwrap();
    assert_eq!(entry["operation"], "label");
    assert_eq!(
        entry["reconciler"]["marker"],
        "annotation argocd.argoproj.io/tracking-id"
    );
}
