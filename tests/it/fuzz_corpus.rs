//! Replays every kept fuzz input (`tests/fuzz/<target>/`, seeds plus what `scripts/fuzz`
//! found and kept, crashes included once fixed) through the same target bodies the AFL++
//! binaries run (fuzz/src/targets.rs): a crash found by fuzzing stays fixed.

#[path = "../../fuzz/src/targets.rs"]
mod targets;

use crate::fixture::root;

fn replay(target: &str, body: fn(&[u8])) {
    let dir = root().join("tests/fuzz").join(target);
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let p = e.unwrap().path();
        let bytes = std::fs::read(&p).unwrap();
        let r = std::panic::catch_unwind(|| body(&bytes));
        assert!(r.is_ok(), "{target}: {} fails", p.display());
        n += 1;
    }
    assert!(n > 0, "{target}: no kept inputs in {}", dir.display());
}

#[test]
fn kept_plugin_yaml_inputs_parse_without_panic() {
    replay("plugin_yaml", targets::plugin_yaml);
}

#[test]
fn kept_kubeconfig_inputs_parse_to_one_line_errors() {
    replay("kubeconfig", targets::kubeconfig);
}

#[test]
fn kept_crd_files_load_without_panic() {
    replay("crd_loader", targets::crd_loader);
}

#[test]
fn kept_patches_parse_without_panic() {
    replay("patch", targets::patch);
}

#[test]
fn kept_journals_read_line_by_line() {
    replay("journal", targets::journal);
}

#[test]
fn kept_jsonpath_templates_parse_and_render_without_panic() {
    replay("jsonpath", targets::jsonpath);
}
