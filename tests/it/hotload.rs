//! Hot-load without waiting where nothing more is coming (issue 31): a CRD file closed after
//! one write, or renamed into place, is applied at once and exactly once; a file written in
//! several writes with pauses is applied once, with its final content, never half of it; and
//! `get` resolves a kind the moment it is Established, through the group's own discovery
//! when aggregated discovery does not list it yet. Correctness only: no timings asserted.

use std::io::Write;
use std::time::Duration;

use serde_json::Value;

use crate::crd_watcher::{Watcher, crd, watched_dir};
use crate::fixture::{Myops, Namespace, kubectl, kubectl_apply};

const SLOW: Duration = Duration::from_secs(60);

/// Drops a sentinel CRD file (`plural`, a new one each call) and waits until it is
/// registered: every line of the batches before it has been logged by then. Returns every
/// line seen so far.
fn settle(w: &mut Watcher, dir: &std::path::Path, g: &str, plural: &str) -> Vec<Value> {
    let kind = format!("S{plural}");
    std::fs::write(dir.join(format!("{plural}.yaml")), crd(g, plural, &kind)).unwrap();
    w.expect("registered", &format!("{plural}.{g}"), SLOW);
    while let Ok(v) = w.lines.try_recv() {
        w.seen.push(v);
    }
    w.seen.clone()
}

/// Deletes the CRDs `plurals` of group `g` (CRDs are cluster-wide: a kind left behind makes
/// other tests' bare names ambiguous).
fn forget(g: &str, plurals: &[&str]) {
    let names: Vec<String> = plurals.iter().map(|p| format!("crd/{p}.{g}")).collect();
    let mut args = vec!["delete", "--wait=false", "--ignore-not-found"];
    args.extend(names.iter().map(String::as_str));
    kubectl(&args);
}

/// The lines of `event` about CRD `name`.
fn count(lines: &[Value], event: &str, name: &str) -> usize {
    lines
        .iter()
        .filter(|v| v["event"] == event && v["crd"] == name)
        .count()
}

#[test]
fn a_file_written_in_one_write_and_closed_is_applied_once_without_waiting_for_quiet() {
    let ns = Namespace::new("hotload-close");
    let m = Myops::standard(&ns.0);
    let dir = watched_dir(&m);
    let g = format!("{}.hotload.example.com", ns.0);
    let mut w = Watcher::start(&m, &dir, &[]);
    std::fs::write(dir.join("hlwidgets.yaml"), crd(&g, "hlwidgets", "HlWidget")).unwrap();
    w.expect("registered", &format!("hlwidgets.{g}"), SLOW);
    let lines = settle(&mut w, &dir, &g, "hlsentinels");
    assert_eq!(
        count(&lines, "applied", &format!("hlwidgets.{g}")),
        1,
        "{lines:#?}"
    );
    // The burst that carried it was handled at once, on the close after writing.
    let events: Vec<&Value> = lines.iter().filter(|v| v["event"] == "events").collect();
    assert!(
        events.first().is_some_and(|v| v["atOnce"] == true),
        "{events:#?}"
    );
    let r = m.run(&["get", &format!("hlwidgets.{g}"), "-n", &ns.0, "-o", "name"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(w.stop(), 0);
    forget(&g, &["hlwidgets", "hlsentinels"]);
}

#[test]
fn an_editor_save_through_a_temp_file_and_a_rename_is_one_apply_of_the_new_content() {
    let ns = Namespace::new("hotload-rename");
    let m = Myops::standard(&ns.0);
    let dir = watched_dir(&m);
    let g = format!("{}.hotload.example.com", ns.0);
    let name = format!("hlgizmos.{g}");
    let mut w = Watcher::start(&m, &dir, &[]);
    std::fs::write(dir.join("hlgizmos.yaml"), crd(&g, "hlgizmos", "HlGizmo")).unwrap();
    w.expect("registered", &name, SLOW);

    // The new version, saved as an editor does: a hidden temp file renamed over the file,
    // with the old one kept as a backup first (vim's `hlgizmos.yaml~`), then the backup removed.
    let new = crd(&g, "hlgizmos", "HlGizmo")
        .replace("kind: HlGizmo}", "kind: HlGizmo, shortNames: [hlgzm]}");
    assert_ne!(new, crd(&g, "hlgizmos", "HlGizmo"));
    std::fs::write(dir.join(".hlgizmos.yaml.swp"), &new).unwrap();
    std::fs::rename(dir.join("hlgizmos.yaml"), dir.join("hlgizmos.yaml~")).unwrap();
    std::fs::rename(dir.join(".hlgizmos.yaml.swp"), dir.join("hlgizmos.yaml")).unwrap();
    std::fs::remove_file(dir.join("hlgizmos.yaml~")).unwrap();
    w.expect("registered", &name, SLOW);
    let lines = settle(&mut w, &dir, &g, "hlsentinels");
    assert_eq!(
        count(&lines, "applied", &name),
        2,
        "first load + the save: {lines:#?}"
    );
    assert_eq!(count(&lines, "unregistered", &name), 0, "{lines:#?}");
    let short = kubectl(&[
        "get",
        "crd",
        &name,
        "-o",
        "jsonpath={.spec.names.shortNames}",
    ]);
    assert_eq!(short.trim(), r#"["hlgzm"]"#);
    assert_eq!(w.stop(), 0);
    forget(&g, &["hlgizmos", "hlsentinels"]);
}

#[test]
fn regression_a_file_written_in_pauses_is_applied_once_with_its_final_content_never_torn() {
    let ns = Namespace::new("hotload-torn");
    let m = Myops::standard(&ns.0);
    let dir = watched_dir(&m);
    let g = format!("{}.hotload.example.com", ns.0);
    let name = format!("hlsprockets.{g}");
    let mut w = Watcher::start(&m, &dir, &[]);
    // The first reconcile (which reads the directory without waiting for any event) is over
    // once a first file is registered.
    settle(&mut w, &dir, &g, "hlfirsts");
    // Cut mid-line, with pauses far longer than the debounce and no close in between: each
    // prefix alone is torn YAML (reported `invalid` when it was read half-written).
    let text = crd(&g, "hlsprockets", "HlSprocket");
    let cuts = [0, text.len() / 3 + 1, 2 * text.len() / 3 + 1, text.len()];
    {
        let mut f = std::fs::File::create(dir.join("hlsprockets.yaml")).unwrap();
        for pair in cuts.windows(2) {
            f.write_all(&text.as_bytes()[pair[0]..pair[1]]).unwrap();
            f.flush().unwrap();
            std::thread::sleep(Duration::from_millis(300));
        }
    }
    w.expect("registered", &name, SLOW);
    let lines = settle(&mut w, &dir, &g, "hlsentinels");
    let invalid: Vec<&Value> = lines.iter().filter(|v| v["event"] == "invalid").collect();
    assert!(
        invalid.is_empty(),
        "a half-written file was read: {lines:#?}"
    );
    assert_eq!(count(&lines, "applied", &name), 1, "{lines:#?}");
    let r = m.run(&[
        "get",
        &format!("hlsprockets.{g}"),
        "-n",
        &ns.0,
        "-o",
        "name",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(w.stop(), 0);
    forget(&g, &["hlsprockets", "hlfirsts", "hlsentinels"]);
}

#[test]
fn get_resolves_a_kind_registered_a_moment_ago_and_an_unknown_kind_fails_as_before() {
    let ns = Namespace::new("hotload-get");
    let g = format!("{}.hotload.example.com", ns.0);
    // plugin.yaml names the new type itself: the boundary is not what is tested here.
    let m = Myops::new(&format!(
        "name: myops\nverbs: [get]\nresources: [hldoohickeys.{g}, nosuchkinds.{g}, nosuchkinds.nosuch.example.com]\nscopes: [namespace, cluster]\n"
    ));
    kubectl_apply(&crd(&g, "hldoohickeys", "HlDoohickey"));
    kubectl(&[
        "wait",
        "--for=condition=Established",
        &format!("crd/hldoohickeys.{g}"),
        "--timeout=30s",
    ]);
    // At once after Established, by every qualified form.
    for t in [
        format!("hldoohickeys.{g}"),
        format!("hldoohickeys.v1.{g}"),
        format!("HlDoohickey.{g}"),
    ] {
        let r = m.run(&["get", &t, "-n", &ns.0, "-o", "name"]);
        assert_eq!(r.code, 0, "{t}: {r:?}");
        assert_eq!(r.stdout, "", "{t}: {r:?}");
    }
    // A group the server does not serve: the same error and exit code as without the look
    // at per-group discovery.
    for t in [
        format!("nosuchkinds.{g}"),
        "nosuchkinds.nosuch.example.com".to_string(),
        "nosuchkinds.v1.nosuch.example.com".to_string(),
    ] {
        let r = m.run(&["get", &t, "-n", &ns.0]);
        assert_eq!(r.code, 2, "{t}: {r:?}");
        assert_eq!(
            r.stderr.trim(),
            format!(
                "error: the server doesn't have a resource type \"{t}\"; list the served types with `kubectl api-resources`"
            ),
            "{r:?}"
        );
    }
    forget(&g, &["hldoohickeys"]);
}
