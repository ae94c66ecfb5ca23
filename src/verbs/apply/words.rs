//! What `apply` says (pure): kubectl's result line, kubectl's conflict advice, why a kind
//! cannot be applied.

use crate::cli::DryRun;
pub use crate::guard::mutation::apply::server_sentence;

use super::check::Head;

/// kubectl's result line of a server-side apply (k8s.io/kubectl `pkg/cmd/apply/apply.go`, the
/// printer's operation `serverside-applied`): the same whether or not the object changed —
/// kubectl 1.36 prints `serverside-applied` for an apply that changed nothing too (the change
/// log tells them apart: its resourceVersion after equals the before-state's) — with the
/// server dry run's suffix (pure).
pub fn result_line(display: &str, dry_run: DryRun) -> String {
    let suffix = match dry_run {
        DryRun::Server => " (server dry run)",
        DryRun::None | DryRun::Client => "",
    };
    format!("{display} serverside-applied{suffix}")
}

/// The message of a field conflict as kubectl prints it (k8s.io/kubectl
/// `pkg/cmd/apply/apply.go`, the conflict advice): the server's sentence naming each field
/// and its manager, then what to do — here `--force-conflicts` only where plugin.yaml allows
/// it (pure).
pub fn conflict(server_message: &str) -> String {
    format!(
        "{server_message}
Please review the fields above--they currently have other managers. Here
are the ways you can resolve this warning:
* If you intend to manage all of these fields, please re-run the apply
  command with the `--force-conflicts` flag (plugin.yaml must allow it:
  apply.forceConflicts: true).
* If you do not intend to manage all of the fields, please edit your
  manifest to remove references to the fields that should keep their
  current managers.
* You may co-own fields by updating your manifest to match the existing
  value; in this case, you'll become the manager if the other manager(s)
  stop managing the field (remove it from their configuration).
See https://kubernetes.io/docs/reference/using-api/server-side-apply/#conflicts"
    )
}

/// Why `h`'s kind cannot be applied: not served, and defined by no CRD before it — or by
/// one later in the file, at line `later` (pure).
pub fn unknown_kind(h: &Head, later: Option<u64>) -> String {
    let what = format!(
        "no kind {} is served in apiVersion {} by this server",
        crate::base::echo::quoted(&h.kind),
        crate::base::echo::quoted(&h.api_version)
    );
    match later {
        Some(line) => format!(
            "{what}; its CustomResourceDefinition comes later in this file (line {line}): put the CRD before its resources, and they are applied once it is Established (nothing in this file was sent)"
        ),
        None => format!(
            "{what}; install its CustomResourceDefinition first (or put it earlier in the manifests), or fix apiVersion and kind (nothing in this file was sent)"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_lines_are_kubectls_words() {
        assert_eq!(
            result_line("deployment.apps/web", DryRun::None),
            "deployment.apps/web serverside-applied"
        );
        assert_eq!(
            result_line("configmap/c1", DryRun::Server),
            "configmap/c1 serverside-applied (server dry run)"
        );
    }

    #[test]
    fn a_conflict_keeps_the_servers_fields_and_managers_first() {
        let m = conflict("Apply failed with 1 conflict: conflict with \"other\": .data.a");
        assert!(m.starts_with(
            "Apply failed with 1 conflict: conflict with \"other\": .data.a\nPlease review"
        ));
        assert!(m.contains("apply.forceConflicts: true"));
    }
}
