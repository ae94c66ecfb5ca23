//! Fuzz target bodies (issue 10): each takes arbitrary bytes, feeds them to one parser of
//! untrusted input and checks what must hold for *every* input, beyond "does not panic":
//! an error is one bounded message. Compiled into the AFL++ binaries (fuzz/targets/) and
//! into the integration tests, which replay every kept input of `tests/fuzz/<target>/`.

use std::path::Path;

use myops::cli::PatchType;

/// The longest error message any parser may produce, in bytes: a message names the
/// problem, it does not echo the input (a 5 MB value must not come back whole).
pub const MAX_MESSAGE: usize = 8 * 1024;

fn check_message(target: &str, msg: &str) {
    assert!(
        msg.len() <= MAX_MESSAGE,
        "{target}: a {}-byte error message",
        msg.len()
    );
}

/// plugin.yaml: `config::parse` (strict, with file:line:column diagnostics); a file that
/// parses goes on through what `config validate` says of its `protect:` rules — every line
/// of the summary and every warning one line of printable text.
pub fn plugin_yaml(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match myops::config::parse(text, Path::new("plugin.yaml")) {
        Err(e) => check_message("plugin_yaml", &e.to_string()),
        Ok(c) => {
            let contexts = ["admin".to_string(), "prod-eu".to_string()];
            let warnings =
                myops::rules::protect::lint(&c.protect, &["get", "patch"], Some(&contexts));
            for line in warnings
                .iter()
                .map(String::as_str)
                .chain(myops::verbs::config_cmd::protect_summary(&c).lines())
            {
                check_message("plugin_yaml", line);
                assert!(
                    !line.chars().any(char::is_control),
                    "plugin_yaml: a control character in {line:?}"
                );
            }
        }
    }
}

/// kubeconfig: `cluster::client::parse_kubeconfig`; its error is one line and quotes no
/// part of the file (kube's parse errors quote lines, which hold tokens).
pub fn kubeconfig(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Err(e) = myops::cluster::client::parse_kubeconfig(text, "kubeconfig") {
        let msg = e.to_string();
        check_message("kubeconfig", &msg);
        assert_eq!(msg.lines().count(), 1, "kubeconfig: {msg}");
    }
}

/// The CRD loader: `crds::loader::parse_bytes` (bytes → UTF-8 → multi-document YAML → v1
/// CRDs), the function every CRD file goes through.
pub fn crd_loader(data: &[u8]) {
    match myops::crds::loader::parse_bytes(data, Path::new("x.yaml")) {
        Ok(crds) => assert!(!crds.is_empty(), "crd_loader: Ok with no CRD"),
        Err(e) => {
            assert!(e.line >= 1 && e.column >= 1, "crd_loader: position {e:?}");
            check_message("crd_loader", &e.to_string());
        }
    }
}

/// `patch -p`: `verbs::patch::parse_patch` for every patch type.
pub fn patch(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for t in [PatchType::Json, PatchType::Merge, PatchType::Strategic] {
        match myops::verbs::patch::parse_patch(text, "-p", t) {
            Ok(v) => assert!(v.is_object() || v.is_array(), "patch: {v}"),
            Err(e) => check_message("patch", &e.to_string()),
        }
    }
}

/// The change-log reader: `changelog::parse` never fails whole; every line is an entry or
/// one counted invalid line.
pub fn journal(data: &[u8]) {
    let (entries, invalid) = myops::changelog::parse(data);
    let lines = data.split(|b| *b == b'\n').count();
    assert!(
        entries.len() + invalid.len() <= lines,
        "journal: {} entries + {} invalid from {lines} lines",
        entries.len(),
        invalid.len()
    );
}

/// `-o jsonpath=TEMPLATE` (issue 11): `output::jsonpath::Template::parse`, then `render`
/// against a small pod-like list with every JSON type; a template error or an execution error
/// is one bounded message.
pub fn jsonpath(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let object = serde_json::json!({
        "kind": "List", "apiVersion": "v1",
        "items": [
            {"metadata": {"name": "a", "labels": {"app": "web", "x.y/z": "1"}},
             "spec": {"replicas": 3, "ratio": 0.5, "on": true, "none": null,
                      "containers": [{"name": "c", "ports": [{"port": 80}, {"port": 443}]}]}},
            {"metadata": {"name": "b"}, "spec": {"replicas": -1, "containers": []}}
        ]
    });
    match myops::output::jsonpath::Template::parse(text) {
        Ok(t) => {
            if let Err(e) = t.render(&object, Default::default()) {
                check_message("jsonpath", &e.to_string());
            }
        }
        Err(e) => check_message("jsonpath", &e.to_string()),
    }
}
