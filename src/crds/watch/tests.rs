//! Unit tests of the hot-load planner: snapshots of a directory and the actions planned from
//! them, and reading a mounted ConfigMap while the kubelet updates it.

use super::*;
use crate::crds::loader::parse_crds;

fn crd_text(plural: &str) -> String {
    format!(
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {{name: {plural}.example.com}}\nspec:\n  group: example.com\n  scope: Namespaced\n  names: {{plural: {plural}, kind: K{plural}}}\n  versions: [{{name: v1, served: true, storage: true, schema: {{openAPIV3Schema: {{type: object}}}}}}]\n"
    )
}

fn snap(files: &[(&str, &str)]) -> Snapshot {
    files
        .iter()
        .map(|(f, text)| {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            text.hash(&mut h);
            (
                PathBuf::from(f),
                FileSnapshot {
                    hash: h.finish(),
                    parsed: parse_crds(text, Path::new(f)),
                },
            )
        })
        .collect()
}

fn summary(actions: &[Action]) -> Vec<String> {
    actions
        .iter()
        .map(|a| match a {
            Action::Apply(c) => format!("apply {}", c.name),
            Action::Invalid(e) => format!("invalid {}", e.file.display()),
            Action::Duplicate { file, name, owner } => format!(
                "duplicate {name} in {} (owner {})",
                file.display(),
                owner.display()
            ),
            Action::Unregister { name, file } => {
                format!("unregister {name} ({})", file.display())
            }
        })
        .collect()
}

/// The kubelet's AtomicWriter (`pkg/volume/util/atomic_writer.go`, Kubernetes 1.30
/// `Write`), step by step with its step numbers, so a test can look at the directory
/// between any two steps: files 0644 in a 0755 timestamped directory, `..data_tmp`
/// renamed over `..data`, key links `name -> ..data/name`.
struct AtomicWriter {
    dir: PathBuf,
    n: u32,
}

impl AtomicWriter {
    fn write(&mut self, payload: &[(&str, &str)], mut after_step: impl FnMut(u32)) {
        use std::os::unix::fs::{PermissionsExt, symlink};
        let data = self.dir.join("..data");
        // (2) the current generation; (3) the keys it has that the payload lacks.
        let old = std::fs::read_link(&data).ok();
        let to_remove: Vec<String> = old
            .as_ref()
            .map(|o| {
                std::fs::read_dir(self.dir.join(o))
                    .unwrap()
                    .map(|e| e.unwrap().file_name().into_string().unwrap())
                    .filter(|n| !payload.iter().any(|(k, _)| k == n))
                    .collect()
            })
            .unwrap_or_default();
        // (5) os.MkdirTemp(dir, "..2006_01_02_15_04_05.") then chmod 0755.
        self.n += 1;
        let ts = format!(
            "..{}.{:09}",
            jiff::Timestamp::now().strftime("%Y_%m_%d_%H_%M_%S"),
            1_000_000 + self.n
        );
        let ts_dir = self.dir.join(&ts);
        std::fs::create_dir(&ts_dir).unwrap();
        std::fs::set_permissions(&ts_dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        // (6) the payload, mode 0644 (the ConfigMap volume's defaultMode).
        for (k, v) in payload {
            let f = ts_dir.join(k);
            std::fs::write(&f, v).unwrap();
            std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o644)).unwrap();
        }
        after_step(6);
        // (8) ..data_tmp -> the new generation.
        symlink(&ts, self.dir.join("..data_tmp")).unwrap();
        after_step(8);
        // (9) the atomic step.
        std::fs::rename(self.dir.join("..data_tmp"), &data).unwrap();
        after_step(9);
        // (10) links for new keys.
        for (k, _) in payload {
            let link = self.dir.join(k);
            if std::fs::read_link(&link).is_err() {
                symlink(Path::new("..data").join(k), &link).unwrap();
            }
        }
        after_step(10);
        // (11) links of removed keys.
        for k in &to_remove {
            std::fs::remove_file(self.dir.join(k)).unwrap();
        }
        after_step(11);
        // (12) the old generation.
        if let Some(o) = old {
            std::fs::remove_dir_all(self.dir.join(o)).unwrap();
        }
        after_step(12);
    }
}

fn configmap_dir() -> (tempfile::TempDir, AtomicWriter) {
    use std::os::unix::fs::PermissionsExt;
    let d = tempfile::tempdir().unwrap();
    std::fs::set_permissions(d.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let w = AtomicWriter {
        dir: d.path().to_path_buf(),
        n: 0,
    };
    (d, w)
}

fn names(snap: &Snapshot) -> Vec<String> {
    snap.keys()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect()
}

#[test]
fn a_configmap_update_is_one_change_at_the_atomic_rename_whatever_the_step_scanned() {
    let (d, mut w) = configmap_dir();
    let (a1, b1, c1) = (crd_text("as"), crd_text("bs"), crd_text("cs"));
    let a2 = a1.replace("scope: Namespaced", "scope: Cluster");
    w.write(&[("a.yaml", &a1), ("b.yaml", &b1)], |_| {});
    assert!(crate::crds::check_dir_mode(d.path()).is_ok());
    let mut st = WatchState::default();
    let first = scan(d.path()).unwrap();
    assert_eq!(
        names(&first),
        ["a.yaml", "b.yaml"],
        "..data, ..<timestamp> are not files"
    );
    assert_eq!(
        summary(&st.plan(&first)),
        ["apply as.example.com", "apply bs.example.com"]
    );
    // Update: a changes, b is removed, c is added. Scan and plan after every step.
    let mut seen: Vec<(u32, Vec<String>)> = Vec::new();
    w.write(&[("a.yaml", &a2), ("c.yaml", &c1)], |step| {
        let snap = scan(d.path()).unwrap();
        let acts = summary(&st.plan(&snap));
        if !acts.is_empty() {
            seen.push((step, acts));
        }
    });
    let file = |n: &str| d.path().join(n).display().to_string();
    assert_eq!(
        seen,
        [(
            9,
            vec![
                format!("unregister bs.example.com ({})", file("b.yaml")),
                "apply as.example.com".to_string(),
                "apply cs.example.com".to_string(),
            ]
        )],
        "one change, at the rename of ..data_tmp, with the new contents; no error, no second apply"
    );
    let a = scan(d.path()).unwrap();
    let applied = a[&d.path().join("a.yaml")].parsed.as_ref().unwrap();
    assert_eq!(applied[0].scope, "Cluster");
}

#[test]
fn the_old_generation_deleted_while_it_is_read_costs_a_reread_not_a_removal() {
    let (d, mut w) = configmap_dir();
    let (a1, b1) = (crd_text("as"), crd_text("bs"));
    let a2 = a1.replace("scope: Namespaced", "scope: Cluster");
    w.write(&[("a.yaml", &a1), ("b.yaml", &b1)], |_| {});
    let mut st = WatchState::default();
    st.plan(&scan(d.path()).unwrap());
    // Listed generation 1, then a whole update (old directory deleted) before reading.
    let mut once = true;
    let snap = scan_with(d.path(), || {
        if std::mem::take(&mut once) {
            w.write(&[("a.yaml", &a2), ("b.yaml", &b1)], |_| {});
        }
    })
    .unwrap();
    assert_eq!(names(&snap), ["a.yaml", "b.yaml"]);
    assert_eq!(summary(&st.plan(&snap)), ["apply as.example.com"]);
    // Swapped but the old generation still there: still the new contents only.
    let a3 = a1.replace("plural: as", "plural: as, singular: a");
    let mut once = true;
    let snap = scan_with(d.path(), || {
        if std::mem::take(&mut once) {
            w.write(&[("a.yaml", &a3), ("b.yaml", &b1)], |step| {
                assert!(step <= 12)
            });
        }
    })
    .unwrap();
    let c = snap[&d.path().join("a.yaml")].parsed.as_ref().unwrap();
    assert_eq!(c[0].body.pointer("/spec/names/singular").unwrap(), "a");
}

#[test]
fn a_configmap_that_changes_during_every_read_is_an_interrupted_scan_not_a_guess() {
    let (d, mut w) = configmap_dir();
    let a1 = crd_text("as");
    w.write(&[("a.yaml", &a1)], |_| {});
    let e = scan_with(d.path(), || w.write(&[("a.yaml", &a1)], |_| {})).unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::Interrupted);
    assert!(e.to_string().contains("..data link moved"), "{e}");
}

#[test]
fn a_key_removed_from_the_configmap_is_an_unregistration() {
    let (d, mut w) = configmap_dir();
    let (a1, b1) = (crd_text("as"), crd_text("bs"));
    w.write(&[("a.yaml", &a1), ("b.yaml", &b1)], |_| {});
    let mut st = WatchState::default();
    st.plan(&scan(d.path()).unwrap());
    w.write(&[("a.yaml", &a1)], |_| {});
    let snap = scan(d.path()).unwrap();
    assert_eq!(names(&snap), ["a.yaml"]);
    assert_eq!(
        summary(&st.plan(&snap)),
        [format!(
            "unregister bs.example.com ({})",
            d.path().join("b.yaml").display()
        )]
    );
    assert!(!d.path().join("b.yaml").exists());
}

#[test]
fn new_changed_unchanged_and_removed_files() {
    let mut st = WatchState::default();
    let a = crd_text("as");
    let b = crd_text("bs");
    assert_eq!(
        summary(&st.plan(&snap(&[("a.yaml", &a), ("b.yaml", &b)]))),
        ["apply as.example.com", "apply bs.example.com"]
    );
    // Same content again (a repeated or spurious event): nothing to do.
    assert!(st.plan(&snap(&[("a.yaml", &a), ("b.yaml", &b)])).is_empty());
    // b changes, a is removed.
    let b2 = b.replace("scope: Namespaced", "scope: Cluster");
    assert_eq!(
        summary(&st.plan(&snap(&[("b.yaml", &b2)]))),
        ["unregister as.example.com (a.yaml)", "apply bs.example.com"]
    );
}

#[test]
fn a_file_whose_apply_found_no_server_is_applied_again_once_and_a_removed_one_unregisters() {
    let mut st = WatchState::default();
    let a = crd_text("as");
    let b = crd_text("bs");
    let both = snap(&[("a.yaml", &a), ("b.yaml", &b)]);
    st.plan(&both);
    // The server did not answer b's apply: the unchanged file is planned again, once.
    st.retry(Path::new("b.yaml"));
    assert!(st.has_retries());
    assert_eq!(summary(&st.plan(&both)), ["apply bs.example.com"]);
    assert!(!st.has_retries());
    assert!(st.plan(&both).is_empty());
    // A file removed while it waits is unregistered, not applied.
    st.retry(Path::new("a.yaml"));
    assert_eq!(
        summary(&st.plan(&snap(&[("b.yaml", &b)]))),
        ["unregister as.example.com (a.yaml)"]
    );
    // A file never seen is not invented.
    st.retry(Path::new("c.yaml"));
    assert!(!st.has_retries());
}

#[test]
fn an_invalid_version_keeps_the_earlier_good_crds_until_fixed() {
    let mut st = WatchState::default();
    let a = crd_text("as");
    st.plan(&snap(&[("a.yaml", &a)]));
    let half = &a[..a.len() / 2];
    assert_eq!(
        summary(&st.plan(&snap(&[("a.yaml", half)]))),
        ["invalid a.yaml"]
    );
    assert_eq!(
        st.owners().get("as.example.com"),
        Some(&PathBuf::from("a.yaml"))
    );
    assert_eq!(
        summary(&st.plan(&snap(&[("a.yaml", &a)]))),
        ["apply as.example.com"]
    );
}

#[test]
fn the_same_crd_in_two_files_applies_once_and_the_survivor_takes_over() {
    let mut st = WatchState::default();
    let a = crd_text("as");
    let acts = st.plan(&snap(&[("1.yaml", &a), ("2.yaml", &a)]));
    assert_eq!(
        summary(&acts),
        [
            "apply as.example.com",
            "duplicate as.example.com in 2.yaml (owner 1.yaml)"
        ]
    );
    // The survivor takes over: re-applied, never unregistered (with --prune that would
    // delete the CRD and its custom resources).
    let acts = st.plan(&snap(&[("2.yaml", &a)]));
    assert_eq!(summary(&acts), ["apply as.example.com"]);
    assert_eq!(
        st.owners().get("as.example.com"),
        Some(&PathBuf::from("2.yaml"))
    );
}

#[test]
fn removing_one_of_two_duplicate_files_touches_no_other_crd() {
    let mut st = WatchState::default();
    let (a, b, d) = (crd_text("as"), crd_text("bs"), crd_text("ds"));
    st.plan(&snap(&[
        ("a.yaml", &a),
        ("b.yaml", &b),
        ("d1.yaml", &d),
        ("d2.yaml", &d),
    ]));
    let acts = st.plan(&snap(&[("a.yaml", &a), ("b.yaml", &b), ("d2.yaml", &d)]));
    assert_eq!(summary(&acts), ["apply ds.example.com"]);
    assert_eq!(st.owners().len(), 3);
}

#[test]
fn a_rename_within_the_directory_never_unregisters_the_crd() {
    let mut st = WatchState::default();
    let a = crd_text("as");
    st.plan(&snap(&[("a.yaml", &a)]));
    assert_eq!(
        summary(&st.plan(&snap(&[("renamed.yaml", &a)]))),
        ["apply as.example.com"]
    );
    assert_eq!(
        st.owners().get("as.example.com"),
        Some(&PathBuf::from("renamed.yaml"))
    );
}

#[test]
fn a_file_that_drops_one_of_its_crds_unregisters_only_that_one() {
    let mut st = WatchState::default();
    let both = format!("{}---\n{}", crd_text("as"), crd_text("bs"));
    st.plan(&snap(&[("m.yaml", &both)]));
    let acts = st.plan(&snap(&[("m.yaml", &crd_text("bs"))]));
    assert_eq!(
        summary(&acts),
        ["unregister as.example.com (m.yaml)", "apply bs.example.com"]
    );
}

#[test]
fn the_directory_vanishing_unregisters_everything_and_its_return_reapplies() {
    let mut st = WatchState::default();
    let a = crd_text("as");
    st.plan(&snap(&[("d/a.yaml", &a)]));
    assert_eq!(
        summary(&st.plan(&Snapshot::new())),
        ["unregister as.example.com (d/a.yaml)"]
    );
    assert_eq!(
        summary(&st.plan(&snap(&[("d/a.yaml", &a)]))),
        ["apply as.example.com"]
    );
}
