//! Help texts: the sections clap prints after the options (kubectl's style: what the
//! command does that the flags do not say, then `Examples:`, each a `#` comment and a real
//! command line).

pub use super::parse::{command_for, try_parse, usage_name};

/// Top-level help, after the options: the exit codes, then examples.
pub const ROOT_HELP: &str =
    "Exit codes: 0 ok, 1 runtime failure, 2 usage/config error, 3 denied, 4 not found, 5 conflict,
6 drift found (drift only).

Examples:
  # What may I do here? Then list pods behind the plugin.yaml boundary
  kubectl myops auth can-i --list
  kubectl myops get pods

  # Change an object; every attempt is journaled, and can be undone
  kubectl myops patch deployment web -p '{\"spec\":{\"replicas\":3}}'
  kubectl myops changelog list --since 1h

  # Register the CRDs of a directory
  kubectl myops crds sync ./crds";

/// `rollback` help: what is restored, the conflict rule, examples.
pub const ROLLBACK_HELP: &str =
    "Only the fields the change touched are restored, from the entry's before-state, guarded by the
object's resourceVersion: if someone changed the object since, the rollback is refused (exit 5)
naming the last writer, unless --force. An object a reconciler owns (Flux, Argo CD, Helm, kapp,
kubectl apply: read from its labels and annotations) is refused too (exit 5), naming the owner:
its next sync would undo the rollback; --force rolls it back anyway and journals the owner. A
field-path policy of plugin.yaml (`policies:`) that denies a field the rollback would change
refuses it (exit 3, nothing sent; --force does not override it). A rollback is journaled like
any change.

Examples:
  # What the change did, field by field
  kubectl myops changelog diff 1a22bb68db7-364e

  # Find the change, look at the undo first, then undo it
  kubectl myops changelog list --object deployment/web
  kubectl myops rollback 1a22bb68db7-364e --dry-run=server
  kubectl myops rollback 1a22bb68db7-364e

  # Restore even though someone changed the object since, or Argo CD/Flux/Helm owns it
  kubectl myops rollback 1a22bb68db7-364e --force

  # Undo every change of one fanned-out patch, each in its own context (newest first)
  kubectl myops rollback --session 1a22bb68d00-2f1c";

/// `changelog` help (the group).
pub const CHANGELOG_HELP: &str =
    "The change log is MYOPS_HOME/changelog.jsonl: one line per mutation attempt, written before
the request is sent (its outcome follows when known).

Examples:
  # The last hour's changes to one object
  kubectl myops changelog list --since 1h --object deployment/shop/web

  # Every change of one invocation (a fanned-out patch), then one entry in full
  kubectl myops changelog list --session 1a22bb68d00-2f1c
  kubectl myops changelog show 1a22bb68db7-364e";

/// `drift` help.
pub const DRIFT_HELP: &str =
    "Compares every object the change log last changed (a patch or rollback that succeeded,
not a dry run, on this API server) with the live object, read through plugin.yaml (verb get)
and a SelfSubjectAccessReview. The same resourceVersion as our change left: no drift. Otherwise
the changed fields, and the managers that own them now (metadata.managedFields). Secret values
are never shown.

Exit status: 0 nothing drifted, 6 drift found (a changed, deleted or re-created object), or the
error's code (1 runtime, 2 usage, 3 denied, ...) when some object could not be checked.

Examples:
  # Everything we changed in the current namespace (and cluster-scoped objects)
  kubectl myops drift

  # Two ConfigMaps, in every namespace, as JSON for a script
  kubectl myops drift configmap web api -A -o json

  # In a script: 0 as we left it, 6 drifted, anything else could not tell
  kubectl myops drift -A -o json >drift.json; echo $?";

/// `changelog list` help.
pub const CHANGELOG_LIST_HELP: &str = "Examples:
  # Everything, oldest first
  kubectl myops changelog list

  # Changes of the last 30 minutes to deployment web (any namespace)
  kubectl myops changelog list --since 30m --object deployment/web

  # The entries of one invocation (the session id `rollback --session` takes)
  kubectl myops changelog list --session 1a22bb68d00-2f1c

  # Failed patches of user alice (the user the API server saw), as JSON
  kubectl myops changelog list --user alice --operation patch --result failure -o json

  # The changes made in one kubeconfig context, as YAML
  kubectl myops changelog list --context prod -o yaml

  # Lines that are not valid entries (a torn write), with their line numbers
  kubectl myops changelog list --invalid

  # Everyone's changes from the cluster mirror (plugin.yaml changelog.mirror), last hour,
  # to configmaps named web; USER is who created the record, as the API server saw it
  kubectl myops changelog list --from-cluster --since 1h configmaps web";

/// `changelog diff` help: where the after-state comes from.
pub const CHANGELOG_DIFF_HELP: &str =
    "The before-state is journaled with every change, and the after-state with its outcome
record. For an entry without an after-state (an older record) the live object is read (get, in
the entry's context) and the first line says so: exact when its resourceVersion is still the
one the change produced, otherwise `before → now`. Secret values are never stored: a changed one
reads \"*** (before)\" → \"*** (after)\", as in kubectl diff.

Examples:
  # What entry 18f2a7c1e4b-3a1c-0 changed, field by field
  kubectl myops changelog diff 18f2a7c1e4b-3a1c-0";

/// `changelog why` help.
pub const CHANGELOG_WHY_HELP: &str =
    "Lists the journaled changes (patches and rollbacks that succeeded, or whose outcome is
unknown; not dry runs or failures) whose patch wrote the field, a field under it, or a
field above it, newest first, with the field's change when the entry holds its after-state.

Examples:
  # Who changed the replicas of deployment web in namespace shop
  kubectl myops changelog why deployment/shop/web spec.replicas

  # A ConfigMap key, as a JSON Pointer
  kubectl myops changelog why configmap/web /data/color

  # A label whose key holds dots and a slash
  kubectl myops changelog why deployment/web 'metadata.labels[\"app.kubernetes.io/name\"]'";

/// `changelog show` help.
pub const CHANGELOG_SHOW_HELP: &str =
    "An ID not in the local change log is read from the cluster mirror when plugin.yaml sets
changelog.mirror (a teammate's entry; stderr names who created it); so do `changelog diff ID`
and `rollback ID`, which journals the rollback as yours and refuses a mirrored record that
was edited or claims another user (exit 2).

Examples:
  # One entry with its before-state and patch, as JSON
  kubectl myops changelog show 1a22bb68db7-364e";

/// `changelog reconcile` help: how the outcome is decided.
pub const CHANGELOG_RECONCILE_HELP: &str =
    "A command killed between journaling its intent and its outcome leaves an entry listed as
`outcome unknown`. reconcile reads the object (in the entry's context) and compares it with
the intent's before-state and patch: applied (every touched field holds the patch's value),
not applied (the resourceVersion did not move, or every touched field still holds its
before-state), or undecidable (then nothing is recorded; exit 5, on every run). A decided
outcome is appended as the entry's outcome record, `reconciled` saying what was seen. Nothing
is sent to the object.

An entry the object cannot decide is closed by hand: check the object, then
`--outcome applied` or `--outcome not-applied` (one ID only) appends the same outcome record,
`reconciled` naming you (the user the API server sees) as who decided. The object is not read,
so the record has no after-state: a rollback of an entry decided applied by hand finds the
object changed since and needs --force.

Examples:
  # Reconcile every entry whose outcome is unknown
  kubectl myops changelog reconcile
  # One entry
  kubectl myops changelog reconcile 19ad2c4e1f0-3a7c-0
  # Record the outcome you found by hand for an entry reconcile could not decide
  kubectl myops changelog reconcile 19ad2c4e1f0-3a7c-0 --outcome not-applied";

/// `changelog verify` help: what is checked and what it cannot tell.
pub const CHANGELOG_VERIFY_HELP: &str =
    "Every record carries `prev` and `hash` (SHA-256 of its RFC 8785 canonical form);
changelog.head records the last hash. Exit 0 prints the number of records, the files and
the last hash (keep it elsewhere: a log rewritten whole, hashes and all, is only caught by
comparing with a hash kept outside MYOPS_HOME). Exit 1 names the first break: file, line,
id and what is wrong (edited, removed/inserted/moved, torn or invalid line, truncated end).

Examples:
  # Check the change log and the rotated files
  kubectl myops changelog verify
  # Check another home's log
  MYOPS_HOME=/backup/myops kubectl myops changelog verify
  # Check the log against this workstation's records in the cluster mirror, which it cannot
  # rewrite: each must still be in the log with its hash (rewritten or truncated: exit 1)
  kubectl myops changelog verify --against-cluster";

/// `crds` help (the group).
pub const CRDS_HELP: &str =
    "Registering a CRD is a server-side apply (field manager kubectl-myops): plugin.yaml must
allow verb `patch` on customresourcedefinitions at scope `cluster`, and RBAC `create` and
`patch` on them.

Examples:
  # Register once, see where things stand, or follow the directory
  kubectl myops crds sync ./crds
  kubectl myops crds list ./crds
  kubectl myops crds watch ./crds";

/// `crds sync` help: what is printed when.
pub const CRDS_SYNC_HELP: &str =
    "Each file's result is printed as it lands: `registered` lines on stdout once a CRD is
Established and served by discovery, errors on stderr (file:line:column). On a terminal a
progress line counts the CRDs of large directories, and a wait longer than a second says what
it waits for. A bad file does not stop the others (exit 2 at the end).

Examples:
  # Register every CRD of the default directory (plugin.yaml crdDir, else ~/.kube/plugins/crds)
  kubectl myops crds sync

  # A directory, waiting at most a minute for each CRD
  kubectl myops crds sync ./crds --timeout 1m

  # The same CRDs on every production cluster
  kubectl myops crds sync ./crds --contexts 'prod-*'";

/// `crds list` help.
pub const CRDS_LIST_HELP: &str =
    "FILE `-` marks CRDs this tool manages on the cluster that no file in DIR defines.

Examples:
  # Files of ./crds next to what the cluster has
  kubectl myops crds list ./crds

  # The default directory, on another context
  kubectl myops crds list --context staging";

/// `metrics` help (the group).
pub const METRICS_HELP: &str =
    "Every command adds to cumulative totals in MYOPS_HOME/metrics-state.json and pushes them
to the Pushgateway when one is configured (plugin.yaml, --pushgateway, MYOPS_PUSHGATEWAY).

Examples:
  kubectl myops metrics show
  kubectl myops metrics push --pushgateway http://pushgateway:9091
  kubectl myops metrics reset --yes";

/// `metrics show` help.
pub const METRICS_SHOW_HELP: &str = "Examples:
  # The totals as a table, or as JSON for a script
  kubectl myops metrics show
  kubectl myops metrics show -o json";

/// `metrics push` help.
pub const METRICS_PUSH_HELP: &str = "Examples:
  # Push now (e.g. after the gateway was down), to the configured gateway or another
  kubectl myops metrics push
  kubectl myops metrics push --pushgateway http://pushgateway:9091";

/// `metrics reset` help.
pub const METRICS_RESET_HELP: &str = "Examples:
  # Start counting from zero (asks first)
  kubectl myops metrics reset

  # In a script
  kubectl myops metrics reset --yes";

/// `metrics delete` help.
pub const METRICS_DELETE_HELP: &str = "Examples:
  # Remove this MYOPS_HOME's group from the Pushgateway, keeping the local totals
  kubectl myops metrics delete";

/// `config` help (the group).
pub const CONFIG_HELP: &str =
    "plugin.yaml lookup: --config, $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the
executable, built-in.

Examples:
  kubectl myops config validate
  kubectl myops config schema > plugin.schema.json";

/// `config schema` help.
pub const CONFIG_SCHEMA_HELP: &str = "Examples:
  # The JSON Schema, for an editor's YAML language server
  kubectl myops config schema > ~/.kube/plugins/myops/plugin.schema.json";

/// `config validate` help.
pub const CONFIG_VALIDATE_HELP: &str =
    "Field-path policies (`policies:`) are listed one per rule; a rule that can never refuse
(its resource not in `resources`, an `allow` under no `deny`, …) or two rules whose deny paths
overlap are warned about on stderr (exit 0).

Examples:
  # The plugin.yaml in effect, and what it allows
  kubectl myops config validate

  # A file before installing it
  kubectl myops config validate ./plugin.yaml";

/// `auth` help (the group).
pub const AUTH_HELP: &str = "Examples:
  kubectl myops auth can-i patch deployments -n web
  kubectl myops auth matrix -n web
  kubectl myops auth whoami";

/// `auth whoami` help.
pub const WHOAMI_HELP: &str = "Examples:
  # Who am I on this context?
  kubectl myops auth whoami

  # Who would I be, impersonating bob in group devs? As YAML
  kubectl myops auth whoami --as bob --as-group devs -o yaml";

/// `version` help.
pub const VERSION_HELP: &str = "Examples:
  kubectl myops version";

/// `get` help: examples.
pub const GET_EXAMPLES: &str = "Examples:
  # List pods in the current namespace as a table (server-side columns)
  kubectl myops get pods

  # One deployment as YAML, in namespace web
  kubectl myops get deployment/frontend -n web -o yaml

  # Custom resources by short name, filtered by label
  kubectl myops get bj -l team=storage

  # Names only, across all namespaces (plugin.yaml needs scope `cluster`)
  kubectl myops get pods -A -o name";

/// `patch` help: how field-path policies act on a patch, then examples.
pub const PATCH_EXAMPLES: &str = "A field-path policy of plugin.yaml (`policies:`) that denies a field the patch would change
refuses it (exit 3, nothing sent). With a rule on the object the patch is first sent as a
server-side dry run and the change it shows is judged; the dry run and the real patch both carry
the before-state's resourceVersion, so a write in between is a 409 (exit 5).

Examples:
  # Scale a deployment with a strategic merge patch (the default, as in kubectl)
  kubectl myops patch deployment web -p '{\"spec\":{\"replicas\":3}}'

  # A custom resource needs a merge or JSON patch; show the change first
  kubectl myops patch backupjob/nightly --type merge -p 'spec: {retentionDays: 30}' --dry-run=server

  # A JSON patch (RFC 6902) with a test that guards it
  kubectl myops patch deploy web --type json -p '[{\"op\":\"test\",\"path\":\"/spec/replicas\",\"value\":3},{\"op\":\"replace\",\"path\":\"/spec/replicas\",\"value\":4}]'

  # The status subresource, from a file
  kubectl myops patch bj nightly --type merge --subresource status --patch-file status.yaml";

/// `crds watch` help: the files, removal and `--prune`, examples.
pub const WATCH_HELP: &str =
    "Files: *.yaml and *.yml, one or more apiextensions.k8s.io/v1 CRDs each. A new or changed
file is applied with server-side apply (field manager kubectl-myops) and usable by `get` as
soon as it is reported registered. A bad file is reported and skipped; the others stay.

Removing a file unregisters its CRDs locally; they stay on the cluster. With --prune they are
deleted from the cluster — but only CRDs this tool applied. DELETING A CRD DELETES EVERY CUSTOM
RESOURCE OF IT, cluster-wide, at once.

Examples:
  # Follow the default directory (plugin.yaml crdDir, else ~/.kube/plugins/crds)
  kubectl myops crds watch

  # Follow ./crds, machine-readable log lines
  kubectl myops crds watch ./crds --log-format json

  # Three replicas on one directory: only the Lease holder applies, the others stand by;
  # Prometheus scrapes each on :9100 (/metrics, /healthz, /readyz)
  kubectl myops crds watch /etc/crds --leader-elect --lease-namespace crd-loader --metrics-addr :9100";

/// `auth can-i` help: what VERB, TYPE and `--list` mean, examples.
pub const CAN_I_HELP: &str =
    "VERB is an RBAC verb (get, list, watch, create, update, patch, delete, …). TYPE resolves
like `get` (an unknown TYPE is exit 2); a TYPE outside the core group is named as
plural.group on stderr. `impersonate users|groups|uids|userextras[/KEY]` asks about
impersonation (users and groups in the core group, uids and userextras in
authentication.k8s.io), never a custom resource of that name. A NONRESOURCEURL starts with
`/` (`can-i get /healthz`). A review that could not be made is exit 1, never a `no`.
`--list` prints the caller's rules in the namespace (SelfSubjectRulesReview) that plugin.yaml
lets this plugin use; one stderr line says when rules were hidden. The answer is RBAC's alone, as kubectl's; when RBAC
says yes but plugin.yaml would refuse the plugin verb behind it (get for get/list/watch, patch
for patch), the line says `yes (outside plugin.yaml: …)`. A cluster-scoped TYPE is asked at
cluster scope.

Examples:
  # Can I list pods in namespace web?
  kubectl myops auth can-i list pods -n web

  # Can bob patch the deployment frontend? (needs impersonation rights)
  kubectl myops auth can-i patch deployment/frontend --as bob

  # The scale subresource, anywhere; exit code only
  kubectl myops auth can-i patch deployments --subresource scale -A -q

  # May I impersonate the user bob? May I read /healthz? What may I do here?
  kubectl myops auth can-i impersonate users/bob
  kubectl myops auth can-i get /healthz
  kubectl myops auth can-i --list -n web";

/// `auth matrix` help: the rows and columns, examples.
pub const MATRIX_HELP: &str =
    "Rows: plugin.yaml `resources` (and CRDs registered by `crds sync`); `?` when the
server does not serve the type. Columns: get, list, watch for the plugin verb get; patch for
patch; POLICIES (only when plugin.yaml has `policies:`) names the field-path policy rules on
the type, e.g. policies[0,2], or `-`; PROTECTED (only when plugin.yaml has `protect:`) is the
strictest mode a change of the type would be asked here (confirm, type-name, block) or `-`;
BOUNDARY is `ok` or why plugin.yaml refuses the row.

Examples:
  # What may I do in namespace web?
  kubectl myops auth matrix -n web

  # What may bob do cluster-wide?
  kubectl myops auth matrix -A --as bob";

/// Help for `completion`: where each script goes, and the kubectl helper.
pub const COMPLETION_HELP: &str = "Loading the script:
  bash        source <(kubectl-myops completion bash)      # e.g. in ~/.bashrc
  zsh         kubectl-myops completion zsh > \"${fpath[1]}/_kubectl-myops\"
  fish        kubectl-myops completion fish > ~/.config/fish/completions/kubectl-myops.fish
  powershell  kubectl-myops completion powershell | Out-String | Invoke-Expression

These complete `kubectl-myops …`. For `kubectl myops …`, kubectl's own completion (`kubectl
completion bash`, …) runs `kubectl_complete-myops` from PATH, which completes subcommands,
flags, -o values, contexts, namespaces, resource types and object names (asking the cluster
for at most 1s, env MYOPS_COMPLETION_TIMEOUT). krew links only kubectl-myops; link the helper
next to it once (again after `kubectl krew upgrade myops`):
  d=\"${KREW_ROOT:-$HOME/.krew}/bin\"
  ln -sf \"$(dirname \"$(readlink -f \"$d/kubectl-myops\")\")/kubectl_complete-myops\" \"$d/\"

Examples:
  # Load bash completion for kubectl-myops in this shell
  source <(kubectl-myops completion bash)

  # Install zsh completion
  kubectl-myops completion zsh > \"${fpath[1]}/_kubectl-myops\"";

#[cfg(test)]
mod tests {
    use super::*;

    /// Every command and subcommand, by its full name (`kubectl-myops crds sync`).
    fn walk(cmd: &clap::Command, prefix: &str, out: &mut Vec<(String, clap::Command)>) {
        let name = if prefix.is_empty() {
            cmd.get_name().to_string()
        } else {
            format!("{prefix} {}", cmd.get_name())
        };
        out.push((name.clone(), cmd.clone()));
        for sub in cmd.get_subcommands() {
            walk(sub, &name, out);
        }
    }

    #[test]
    fn every_command_and_subcommand_has_examples_in_its_help() {
        let mut all = Vec::new();
        walk(&command_for(crate::cli::BIN), "", &mut all);
        // The root, 10 commands, and the subcommands of changelog, crds, metrics, config, auth.
        assert!(all.len() >= 25, "only {} commands walked", all.len());
        let missing: Vec<&str> = all
            .iter()
            .filter(|(_, c)| {
                let after = c
                    .get_after_help()
                    .map(|s| s.to_string())
                    .unwrap_or_default();
                let section = after.starts_with("Examples:\n") || after.contains("\nExamples:\n");
                let line = after.contains("\n  kubectl");
                !(section && line)
            })
            .map(|(n, _)| n.as_str())
            .collect();
        assert!(
            missing.is_empty(),
            "no Examples section with a command line: {missing:?}"
        );
    }
}
