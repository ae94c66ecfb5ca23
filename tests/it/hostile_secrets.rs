//! Bad-input cases, class 1 of issue 10: secrets on an output channel. A credential planted
//! in a kubeconfig, an exec plugin's output, a server URL or a Secret must not be printed,
//! journaled, recorded in the metrics state or pushed.

use crate::hostile::{Case, run_cases};

/// A kubeconfig whose user runs `sh -c SCRIPT` as its exec credential plugin.
fn exec_kubeconfig(script: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Config\nclusters: [{{name: c, cluster: {{server: \"{}\", insecure-skip-tls-verify: true}}}}]\nusers: [{{name: u, user: {{exec: {{apiVersion: client.authentication.k8s.io/v1, command: sh, args: [\"-c\", {}], interactiveMode: Never}}}}}}]\ncontexts: [{{name: x, context: {{cluster: c, user: u}}}}]\ncurrent-context: x\n",
        crate::hostile::server(),
        serde_json::to_string(script).unwrap()
    )
}

fn with_kubeconfig(case: Case, kubeconfig: String) -> Case {
    case.setup(move |m| {
        let p = m.dir.path().join("kubeconfig");
        std::fs::write(&p, &kubeconfig).unwrap();
        m.set_env("KUBECONFIG", &p.display().to_string());
    })
}

#[test]
fn secrets_never_reach_an_output_channel() {
    let canary = crate::hostile::CANARY;
    let cred = format!(
        "{{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\",\"status\":{{\"token\":\"{canary}\"}}}}"
    );
    let cases = vec![
        with_kubeconfig(
            Case::new("exec_plugin_prints_a_token_then_fails", 1)
                .args(&["get", "pods", "-n", "default"])
                .stderr_has("credential plugin"),
            exec_kubeconfig(&format!("echo '{cred}'; exit 1")),
        ),
        with_kubeconfig(
            Case::new("exec_plugin_prints_truncated_json_with_a_token", 1)
                .args(&["get", "pods", "-n", "default"])
                .stderr_has("credential plugin"),
            exec_kubeconfig(&format!("echo '{}'", &cred[..cred.len() - 2])),
        ),
    ];
    run_cases("secrets", cases);
}
