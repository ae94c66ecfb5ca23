//! Unit tests of the CRD loader: directory modes and mounts, parsing and its located errors,
//! every kind of directory entry, and that no input panics.

use super::dir::on_read_only_mount;
use super::*;
use std::os::unix::fs::PermissionsExt;

#[test]
fn group_or_world_writable_directories_are_refused_like_ssh_keys() {
    let d = tempfile::tempdir().unwrap();
    std::fs::set_permissions(d.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    assert!(check_dir_mode(d.path()).is_ok());
    for mode in [0o775, 0o757, 0o777] {
        std::fs::set_permissions(d.path(), std::fs::Permissions::from_mode(mode)).unwrap();
        let e = check_dir_mode(d.path()).unwrap_err();
        assert!(
            e.contains(&format!("mode {mode:o}")) && e.to_string().contains("chmod go-w"),
            "{e}"
        );
    }
    assert!(check_dir_mode(&d.path().join("missing")).is_ok());
}

#[test]
fn a_writable_directory_on_a_read_only_mount_like_a_configmap_volume_is_accepted() {
    // A pod's mountinfo: the ConfigMap volume (mode 0777 emptyDir) bind-mounted read-only,
    // a writable emptyDir beside it, a mount point with a space.
    let info = "\
1 0 0:1 / / rw,relatime - overlay overlay rw
2 1 0:2 /pods/x/volumes/kubernetes.io~configmap/crds /etc/myops/crds ro,relatime - ext4 /dev/sda1 rw
3 1 0:3 /pods/x/volumes/kubernetes.io~empty-dir/home /var/lib/myops rw,relatime - ext4 /dev/sda1 rw
4 1 0:4 / /mnt/with\\040space ro - tmpfs tmpfs ro
5 1 0:5 / /etc/myops/crds/sub rw - tmpfs tmpfs rw
";
    let ro = |p: &str| read_only_in_mountinfo(info, Path::new(p));
    assert!(ro("/etc/myops/crds"));
    assert!(ro("/etc/myops/crds/..data"));
    assert!(
        !ro("/etc/myops/crdsx"),
        "a sibling whose name only starts the same"
    );
    assert!(!ro("/etc/myops/crds/sub"), "a writable mount on top of it");
    assert!(!ro("/var/lib/myops"));
    assert!(!ro("/tmp"));
    assert!(ro("/mnt/with space/d"));
    assert!(!read_only_in_mountinfo("", Path::new("/etc")));
    // This test's own temporary directory is on a writable mount: 0777 is still refused.
    let d = tempfile::tempdir().unwrap();
    std::fs::set_permissions(d.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    assert!(!on_read_only_mount(d.path()));
    assert!(check_dir_mode(d.path()).is_err());
}

const CRD: &str = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: backupjobs.example.com\n  creationTimestamp: null\nspec:\n  group: example.com\n  scope: Namespaced\n  names: {plural: backupjobs, singular: backupjob, kind: BackupJob}\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema: {openAPIV3Schema: {type: object}}\nstatus:\n  acceptedNames: {kind: ''}\n";

fn p(text: &str) -> Result<Vec<LoadedCrd>, LoadError> {
    parse_crds(text, Path::new("x.yaml"))
}

#[test]
fn parses_a_crd_and_strips_status_and_server_fields() {
    let crds = p(CRD).unwrap();
    assert_eq!(crds.len(), 1);
    let c = &crds[0];
    assert_eq!(
        (c.name.as_str(), c.kind.as_str(), c.scope.as_str()),
        ("backupjobs.example.com", "BackupJob", "Namespaced")
    );
    assert_eq!(c.versions, vec!["v1"]);
    assert_eq!(c.storage_version, "v1");
    assert!(c.body.get("status").is_none());
    assert!(c.body.pointer("/metadata/creationTimestamp").is_none());
    assert_eq!(c.line, 1);
}

#[test]
fn multi_document_files_report_each_crd_and_skip_empty_documents() {
    let two = format!("---\n{CRD}---\n{}", CRD.replace("backupjob", "restorejob"));
    let crds = p(&two).unwrap();
    assert_eq!(
        crds.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(),
        ["backupjobs.example.com", "restorejobs.example.com"]
    );
    assert_eq!(crds[1].line, 19);
}

#[test]
fn v1beta1_non_crd_and_bad_name_are_located_errors() {
    let e = p(&CRD.replace(
        "apiextensions.k8s.io/v1\n",
        "apiextensions.k8s.io/v1beta1\n",
    ))
    .unwrap_err();
    assert!(
        e.message.contains("v1beta1") && e.message.contains("1.22"),
        "{e}"
    );
    let with_cr =
        format!("{CRD}---\napiVersion: example.com/v1\nkind: BackupJob\nmetadata: {{name: a}}\n");
    let e = p(&with_cr).unwrap_err();
    assert_eq!((e.line, e.column), (18, 1), "{e}");
    assert!(
        e.to_string().starts_with(
            "x.yaml:18:1: a BackupJob (example.com/v1) is not a CustomResourceDefinition"
        ),
        "{e}"
    );
    let e = p(&CRD.replace("name: backupjobs.example.com", "name: wrong.example.com")).unwrap_err();
    assert!(
        e.message
            .contains("must be <plural>.<group> = \"backupjobs.example.com\""),
        "{e}"
    );
}

#[test]
fn yaml_bombs_deep_nesting_and_duplicate_keys_are_located_errors() {
    let laughs = "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\nh: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\ni: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]\n";
    let start = std::time::Instant::now();
    let e = p(laughs).unwrap_err();
    assert!(
        e.message
            .starts_with("invalid YAML: it expands to more than 250000 nodes (a YAML bomb"),
        "{e}"
    );
    let flow = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(p(&flow).unwrap_err().message.starts_with("invalid YAML: "));
    let block: String = (0..5_000)
        .map(|i| format!("{}k:\n", " ".repeat(i)))
        .collect();
    let seq: String = "- ".repeat(50_000) + "x\n";
    for deep in [block, seq] {
        let e = p(&deep).unwrap_err();
        assert!(
            e.message
                .starts_with("invalid YAML: it nests deeper than 64 levels"),
            "{e}"
        );
    }
    assert!(start.elapsed() < std::time::Duration::from_secs(10));
    let dup = CRD.replace(
        "kind: CustomResourceDefinition\n",
        "kind: CustomResourceDefinition\nkind: Secret\n",
    );
    let e = p(&dup).unwrap_err();
    assert_eq!(e.line, 3, "{e}");
    assert!(e.message.contains("duplicate"), "{e}");
}

#[test]
fn a_100000_character_name_or_kind_is_refused_capped_and_escaped() {
    let plural = "b".repeat(100_000);
    let long = CRD.replace("backupjobs", &plural);
    let e = p(&long).unwrap_err();
    assert!(e.message.len() < 400, "{} bytes", e.message.len());
    assert!(
        e.message
            .contains("(100012 characters) is 100012 characters long"),
        "{e}"
    );
    let e = p(&CRD.replace(
        "kind: CustomResourceDefinition",
        "kind: \"Evil\\e[2J\\u0007\"",
    ))
    .unwrap_err();
    assert_eq!(
        e.message,
        "a Evil\\u{1b}[2J\\u{7} (apiextensions.k8s.io/v1) is not a CustomResourceDefinition; keep only CRDs in the CRD directory"
    );
    let e = p(&CRD
        .replace("group: example.com", "group: \"Example.com\"")
        .replace("backupjobs.example.com", "backupjobs.Example.com"))
    .unwrap_err();
    assert!(e.message.contains("must be a DNS subdomain"), "{e}");
}

#[test]
fn a_secret_in_the_crd_directory_is_refused_without_quoting_its_data() {
    let secret = "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata:\n  password: c2VjcmV0VmFsdWU=\nstringData: {token: \"verySecretToken\"}\n";
    let e = p(secret).unwrap_err();
    assert_eq!(
        e.to_string(),
        "x.yaml:1:1: a Secret (v1) is not a CustomResourceDefinition; keep only CRDs in the CRD directory"
    );
    let broken = "apiVersion: v1\nkind: Secret\nstringData:\n  token: verySecretToken: [\n";
    let e = p(broken).unwrap_err();
    assert!(!e.to_string().contains("verySecretToken"), "{e}");
}

#[test]
fn non_utf8_files_are_located_at_the_first_bad_byte() {
    let e = parse_bytes(b"apiVersion: v1\nkind: \xffx\n", Path::new("x.yaml")).unwrap_err();
    assert_eq!(
        e.to_string(),
        "x.yaml:2:7: the file is not UTF-8 text: save it as UTF-8"
    );
}

#[test]
fn every_kind_of_entry_named_yaml_is_listed_and_reported_not_skipped() {
    use std::os::unix::fs::symlink;
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    std::fs::write(dir.join("a-good.yaml"), CRD).unwrap();
    assert!(
        std::process::Command::new("mkfifo")
            .arg(dir.join("fifo.yaml"))
            .status()
            .unwrap()
            .success()
    );
    symlink(dir.join("fifo.yaml"), dir.join("link-to-fifo.yml")).unwrap();
    symlink("gone.yaml", dir.join("dangling.yaml")).unwrap();
    symlink(dir.join("loop2.yaml"), dir.join("loop1.yaml")).unwrap();
    symlink(dir.join("loop1.yaml"), dir.join("loop2.yaml")).unwrap();
    std::fs::create_dir(dir.join("subdir.yaml")).unwrap();
    let _sock = std::os::unix::net::UnixListener::bind(dir.join("sock.yaml")).unwrap();
    symlink("/dev/zero", dir.join("zero.yaml")).unwrap();
    std::fs::File::create(dir.join("huge.yaml"))
        .unwrap()
        .set_len(MAX_FILE_BYTES + 1)
        .unwrap();
    let ww = dir.join("world.yaml");
    std::fs::write(&ww, CRD).unwrap();
    std::fs::set_permissions(&ww, std::fs::Permissions::from_mode(0o666)).unwrap();
    std::fs::write(dir.join(".hidden.yaml"), "x").unwrap();
    std::fs::write(dir.join("notes.txt"), "x").unwrap();
    let start = std::time::Instant::now();
    let loads = load_dir(dir).unwrap();
    assert!(start.elapsed() < std::time::Duration::from_secs(2));
    let got: Vec<(String, String)> = loads
        .iter()
        .map(|(f, r)| {
            (
                f.file_name().unwrap().to_string_lossy().into_owned(),
                match r {
                    Ok(c) => format!("ok {}", c.len()),
                    Err(e) => e.message.clone(),
                },
            )
        })
        .collect();
    let want = [
        ("a-good.yaml", "ok 1".to_string()),
        ("dangling.yaml", "not loaded: it is a dangling symbolic link to gone.yaml; fix the link or remove it".into()),
        ("fifo.yaml", "not loaded: it is a FIFO (named pipe), not a regular file; replace it with a regular file".into()),
        ("huge.yaml", format!("not loaded: it is too large: {} bytes, over the {MAX_FILE_BYTES}-byte limit; a file this size is not what this tool reads, check that the path is the right file", MAX_FILE_BYTES + 1)),
        ("link-to-fifo.yml", "not loaded: it is a FIFO (named pipe), not a regular file; replace it with a regular file".into()),
        ("loop1.yaml", "not loaded: it is a symbolic link loop; fix the link or remove it".into()),
        ("loop2.yaml", "not loaded: it is a symbolic link loop; fix the link or remove it".into()),
        ("sock.yaml", "not loaded: it is a socket, not a regular file; replace it with a regular file".into()),
        ("subdir.yaml", "not loaded: it is a directory, not a regular file; replace it with a regular file".into()),
        ("world.yaml", format!("refusing a world-writable file (mode 666); run `chmod o-w {}`", ww.display())),
        ("zero.yaml", "not loaded: it is a character device, not a regular file; replace it with a regular file".into()),
    ];
    let want: Vec<(String, String)> = want.into_iter().map(|(a, b)| (a.to_string(), b)).collect();
    assert_eq!(got, want);
    // The watcher's scan sees the same, and a second scan fingerprints them the same.
    let snap = crate::crds::watch::scan(dir).unwrap();
    assert_eq!(snap.len(), 11);
    let again = crate::crds::watch::scan(dir).unwrap();
    assert!(snap.iter().zip(&again).all(|(a, b)| a.1.hash == b.1.hash));
}

#[test]
fn the_public_corpus_still_loads() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/crds");
    let Ok(loads) = load_dir(&corpus) else { return };
    for (f, r) in loads {
        assert!(r.is_ok(), "{}: {:?}", f.display(), r.err());
    }
}

#[test]
fn every_prefix_and_byte_flip_of_a_crd_is_crds_or_one_short_error_never_a_panic() {
    let two = CRD;
    let mut texts: Vec<String> = (0..=two.len())
        .filter(|i| two.is_char_boundary(*i))
        .map(|i| two[..i].to_string())
        .collect();
    for (i, b) in two.bytes().enumerate() {
        for flip in [
            b'\0', b':', b'&', b'*', b'[', b'"', b'\t', b'-', b'\n', b'!',
        ] {
            if b != flip {
                let mut bytes = two.as_bytes().to_vec();
                bytes[i] = flip;
                texts.push(String::from_utf8(bytes).unwrap());
            }
        }
    }
    for text in &texts {
        if let Err(e) = p(text) {
            let shown = e.to_string();
            assert!(e.line >= 1 && e.column >= 1, "{shown}");
            assert!(!shown.contains('\n') && shown.len() < 600, "{shown}");
        }
    }
}

#[test]
fn broken_yaml_and_empty_files_are_errors_not_panics() {
    let e = p("apiVersion: v1\nkind: [\n").unwrap_err();
    assert!(e.message.starts_with("invalid YAML"), "{e}");
    assert!(e.line >= 2, "{e}");
    assert_eq!(
        p("").unwrap_err().message,
        "no CustomResourceDefinition in this file"
    );
    assert!(p("\u{0}\u{1}garbage: [").is_err());
}
