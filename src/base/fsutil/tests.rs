//! The file helpers on real files: atomic writes, private modes, shared and exclusive
//! locks, and what reading a FIFO, a socket, a device, a link or an oversize file says.

use super::*;
use std::fs::{self, File};
use std::io;
use std::path::Path;

#[test]
fn free_bytes_is_counted_where_the_file_system_has_a_size() {
    let d = tempfile::tempdir().unwrap();
    assert!(free_bytes(d.path()).unwrap().is_some_and(|b| b > 0));
    // procfs reports no blocks: "not counted", never "full".
    assert_eq!(free_bytes(Path::new("/proc")).unwrap(), None);
    assert!(free_bytes(&d.path().join("missing")).is_err());
}

#[test]
fn write_atomic_replaces_content_and_leaves_no_temp_file() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("sub").join("state.json");
    write_atomic(&p, b"one").unwrap();
    write_atomic(&p, b"two").unwrap();
    assert_eq!(fs::read_to_string(&p).unwrap(), "two");
    let names: Vec<String> = fs::read_dir(p.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names, vec!["state.json".to_string()]);
}

#[test]
fn a_staged_replacement_leaves_the_target_as_it_was_until_it_is_committed() {
    let d = tempfile::tempdir().unwrap();
    let target = d.path().join("head");
    fs::write(&target, b"old").unwrap();
    let staged = stage_atomic(&target, b"new").unwrap();
    assert_eq!(fs::read(&target).unwrap(), b"old");
    staged.sync().unwrap();
    assert_eq!(fs::read(&target).unwrap(), b"old");
    staged.commit().unwrap();
    assert_eq!(fs::read(&target).unwrap(), b"new");
    assert!(!temp_path(&target).exists());
    // Given up: the target keeps its content and no temporary file stays behind.
    stage_atomic(&target, b"newer").unwrap().abandon();
    assert_eq!(fs::read(&target).unwrap(), b"new");
    assert!(!temp_path(&target).exists());
}

#[test]
fn the_temp_file_is_hidden_beside_the_target() {
    let p = Path::new("/home/me/.myops/metrics-state.json");
    assert_eq!(
        temp_path(p),
        Path::new("/home/me/.myops/.metrics-state.json.tmp")
    );
}

#[test]
fn a_stale_temp_file_is_reused_and_renamed_away() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("state.json");
    fs::write(
        temp_path(&p),
        b"left by a crash, longer than the new content",
    )
    .unwrap();
    write_atomic(&p, b"new").unwrap();
    assert_eq!(fs::read_to_string(&p).unwrap(), "new");
    assert!(!temp_path(&p).exists());
}

#[cfg(unix)]
#[test]
fn files_and_directories_are_private() {
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let d = tempfile::tempdir().unwrap();
    let home = d.path().join("a").join("home");
    let p = home.join("state.json");
    write_atomic(&p, b"x").unwrap();
    let lock_path = d.path().join("b").join("state.lock");
    drop(lock_exclusive(&lock_path).unwrap());
    assert_eq!(mode(&p), 0o600);
    assert_eq!(mode(&lock_path), 0o600);
    for dir in [d.path().join("a"), home, d.path().join("b")] {
        assert_eq!(mode(&dir), 0o700, "{}", dir.display());
    }
}

/// A FIFO at `p` (mkfifo(1): the crate forbids the `unsafe` libc call).
fn mkfifo(p: &Path) {
    let ok = std::process::Command::new("mkfifo")
        .arg(p)
        .status()
        .unwrap();
    assert!(ok.success());
}

fn problem(p: &Path, cap: u64) -> String {
    let e = read_regular(p, cap).unwrap_err();
    let shown = e.to_string();
    assert!(
        shown.starts_with(&format!("cannot read {}: ", p.display())),
        "{shown}"
    );
    assert!(!shown.contains('\n'), "{shown}");
    e.problem.to_string()
}

#[cfg(unix)]
#[test]
fn a_fifo_is_refused_at_once_instead_of_blocking_until_a_writer_comes() {
    let d = tempfile::tempdir().unwrap();
    let fifo = d.path().join("crd.yaml");
    mkfifo(&fifo);
    let link = d.path().join("link.yaml");
    std::os::unix::fs::symlink(&fifo, &link).unwrap();
    let start = std::time::Instant::now();
    for p in [&fifo, &link] {
        assert_eq!(
            problem(p, 10),
            "it is a FIFO (named pipe), not a regular file; replace it with a regular file"
        );
        let e = read_regular(p, 10).unwrap_err();
        assert!(matches!(e.problem, Unreadable::NotRegular(FileKind::Fifo)));
    }
    assert!(start.elapsed() < std::time::Duration::from_secs(1));
}

#[cfg(unix)]
#[test]
fn sockets_devices_and_directories_are_named_not_read() {
    let d = tempfile::tempdir().unwrap();
    let sock = d.path().join("s.yaml");
    let _listener = std::os::unix::net::UnixListener::bind(&sock).unwrap();
    assert!(problem(&sock, 10).starts_with("it is a socket, not a regular file"));
    assert!(problem(Path::new("/dev/zero"), 10).starts_with("it is a character device"));
    assert!(problem(Path::new("/dev/null"), 10).starts_with("it is a character device"));
    assert!(problem(d.path(), 10).starts_with("it is a directory, not a regular file"));
    let e: io::Error = read_regular(d.path(), 10).unwrap_err().into();
    assert_eq!(e.kind(), io::ErrorKind::IsADirectory);
}

#[cfg(unix)]
#[test]
fn dangling_links_loops_and_missing_files_say_which() {
    let d = tempfile::tempdir().unwrap();
    let dangling = d.path().join("dangling.yaml");
    std::os::unix::fs::symlink("nowhere.yaml", &dangling).unwrap();
    assert_eq!(
        problem(&dangling, 10),
        "it is a dangling symbolic link to nowhere.yaml; fix the link or remove it"
    );
    let (a, b) = (d.path().join("a.yaml"), d.path().join("b.yaml"));
    std::os::unix::fs::symlink(&b, &a).unwrap();
    std::os::unix::fs::symlink(&a, &b).unwrap();
    assert_eq!(
        problem(&a, 10),
        "it is a symbolic link loop; fix the link or remove it"
    );
    assert_eq!(
        problem(&d.path().join("missing"), 10),
        "it does not exist; create it or fix the path"
    );
    let e: io::Error = read_regular(&dangling, 10).unwrap_err().into();
    assert_eq!(e.kind(), io::ErrorKind::NotFound);
}

#[test]
fn the_cap_is_inclusive_and_an_oversize_file_names_both_sizes() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("f");
    fs::write(&p, b"0123456789").unwrap();
    assert_eq!(read_regular(&p, 10).unwrap(), b"0123456789");
    assert_eq!(
        problem(&p, 9),
        "it is too large: 10 bytes, over the 9-byte limit; a file this size is not what this tool reads, check that the path is the right file"
    );
    // A sparse file of 1 GiB is refused from its size, without reading it.
    let big = d.path().join("big");
    File::create(&big).unwrap().set_len(1 << 30).unwrap();
    let start = std::time::Instant::now();
    assert!(
        problem(&big, 1 << 20)
            .starts_with("it is too large: 1073741824 bytes, over the 1048576-byte limit")
    );
    assert!(start.elapsed() < std::time::Duration::from_secs(1));
}

#[cfg(unix)]
#[test]
fn the_mode_is_the_mode_of_the_file_read_through_a_link() {
    use std::os::unix::fs::PermissionsExt;
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("plugin.yaml");
    fs::write(&p, b"x").unwrap();
    fs::set_permissions(&p, fs::Permissions::from_mode(0o664)).unwrap();
    let link = d.path().join("link");
    std::os::unix::fs::symlink(&p, &link).unwrap();
    assert_eq!(
        read_regular_with_mode(&link, 1).unwrap(),
        (b"x".to_vec(), 0o664)
    );
}

#[test]
fn lock_shared_permits_two_holders_and_excludes_a_writer() {
    let d = tempfile::tempdir().unwrap();
    let lock_path = d.path().join("state.lock");
    let first = lock_shared(&lock_path).unwrap();
    let second = lock_shared(&lock_path).unwrap();
    let writer = File::open(&lock_path).unwrap();
    assert!(
        writer.try_lock().is_err(),
        "no exclusive lock while shared holders remain"
    );
    drop((first, second));
    writer.try_lock().unwrap();
    assert!(
        File::open(&lock_path).unwrap().try_lock_shared().is_err(),
        "no shared lock while a writer holds it"
    );
}
