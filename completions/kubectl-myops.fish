# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_kubectl_myops_global_optspecs
    string join \n kubeconfig= context= contexts= all-contexts max-parallel= cluster= user= n/namespace= as= as-group= as-uid= request-timeout= s/server= token= insecure-skip-tls-verify certificate-authority= client-certificate= client-key= tls-server-name= as-user-extra= username= password= kuberc= config= pushgateway= v/v= h/help V/version
end

function __fish_kubectl_myops_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_kubectl_myops_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_kubectl_myops_using_subcommand
    set -l cmd (__fish_kubectl_myops_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -l kubeconfig -d 'Path to the kubeconfig file (overrides KUBECONFIG)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -l contexts -d 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart, rollout undo. See docs/fleet.md' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -l max-parallel -d 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -s n -l namespace -d 'Namespace for this request (default: the context\'s namespace, else `default`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -l as -d 'User to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -l as-uid -d 'UID to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -l request-timeout -d 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl\'s discovery)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -s s -l server -d 'The address of the Kubernetes API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -l certificate-authority -d 'Path to a CA certificate file for the API server' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -l client-certificate -d 'Path to a client certificate file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -l client-key -d 'Path to a client key file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -l tls-server-name -d 'Server name to use for server certificate validation (default: the server URL\'s host)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -l as-user-extra -d 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -l username -d 'Username for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -l password -d 'Password for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -l kuberc -d 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -l config -d 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -l pushgateway -d 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -s v -l v -l verbose -d 'Log level, as kubectl\'s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -l all-contexts -d 'Run in every context of the kubeconfig and merge the results (as --contexts)'
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -s h -l help -d 'Print help'
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -s V -l version -d 'Print version'
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -f -a "get" -d 'Display one or many resources, after a SelfSubjectAccessReview'
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -f -a "patch" -d 'Update fields of one object, after a SelfSubjectAccessReview; every attempt is journaled'
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -f -a "apply" -d 'Server-side apply manifests (files, directories, stdin); each object\'s change is journaled, so `rollback` can undo it'
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -f -a "delete" -d 'Delete objects, after a SelfSubjectAccessReview; each object\'s whole state is journaled first, so `undelete` can create it again'
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -f -a "edit" -d 'Edit one object in your editor; the change is sent as a patch, journaled, reversible'
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -f -a "scale" -d 'Set a new size for objects through their scale subresource; each change is journaled and can be rolled back'
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -f -a "label" -d 'Update the labels of objects; each change is journaled and can be rolled back'
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -f -a "annotate" -d 'Update the annotations of objects; each change is journaled and can be rolled back'
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -f -a "rollout" -d 'Manage the rollout of Deployments, StatefulSets and DaemonSets: restart, undo (both journaled and reversible), history, status'
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -f -a "undelete" -d 'Create a deleted object again from its journaled before-state'
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -f -a "rollback" -d 'Undo a journaled change: restore the fields it touched from its before-state'
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -f -a "drift" -d 'Objects changed since the change log last changed them: the fields and who owns them now'
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -f -a "changelog" -d 'The change log of every mutation attempt'
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -f -a "crds" -d 'Register CustomResourceDefinitions from a directory on the cluster'
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -f -a "metrics" -d 'The local cumulative metric totals: show, push now, reset'
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -f -a "config" -d 'Inspect and check plugin.yaml'
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -f -a "auth" -d 'What RBAC lets the caller do: `can-i VERB TYPE [NAME]`, `can-i --list`, `matrix`, `whoami`'
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -f -a "version" -d 'Print the plugin version, git commit and the kube-rs / Kubernetes API versions it targets'
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -f -a "completion" -d 'Print a shell completion script for kubectl-myops (bash, zsh, fish or powershell)'
complete -c kubectl-myops -n "__fish_kubectl_myops_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -s o -l output -d 'Output format: table, wide, json, yaml, kyaml, name, jsonpath=TEMPLATE, jsonpath-file=PATH, jsonpath-as-json=TEMPLATE, custom-columns=HEADER:PATH[,…] or custom-columns-file=PATH' -r -f -a "table\t'Server-side Table, printer columns with priority 0'
wide\t'Server-side Table with every printer column'
json\t'JSON (a `List` for collections)'
yaml\t'YAML (a `List` for collections)'
kyaml\t'KYAML, kubectl 1.34+ (a `List` for collections)'
name\t'`kind.group/name` per object'"
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -l allow-missing-template-keys -d 'With a jsonpath output: a key missing from an object prints nothing instead of failing (kubectl\'s default, true)' -r -f -a "true\t''
false\t''"
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -s l -l selector -d 'Label selector, e.g. `app=web,tier!=cache`' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -l field-selector -d 'Field selector, e.g. `status.phase=Running`' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -l chunk-size -d 'Objects per list page (0 = no paging)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -s L -l label-columns -d 'Label keys shown as columns of the table (repeatable, or comma-separated), as kubectl\'s `-L`: the header is the key\'s last `/` segment upper-cased' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -l sort-by -d 'Sort the objects by a JSONPath expression, e.g. `.metadata.name` or `{.status.startTime}` (numbers numerically, strings in natural order, objects without the field first)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -l kubeconfig -d 'Path to the kubeconfig file (overrides KUBECONFIG)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -l contexts -d 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart, rollout undo. See docs/fleet.md' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -l max-parallel -d 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -s n -l namespace -d 'Namespace for this request (default: the context\'s namespace, else `default`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -l as -d 'User to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -l as-uid -d 'UID to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -l request-timeout -d 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl\'s discovery)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -s s -l server -d 'The address of the Kubernetes API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -l certificate-authority -d 'Path to a CA certificate file for the API server' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -l client-certificate -d 'Path to a client certificate file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -l client-key -d 'Path to a client key file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -l tls-server-name -d 'Server name to use for server certificate validation (default: the server URL\'s host)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -l as-user-extra -d 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -l username -d 'Username for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -l password -d 'Password for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -l kuberc -d 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -l config -d 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -l pushgateway -d 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -s v -l v -l verbose -d 'Log level, as kubectl\'s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -s A -l all-namespaces -d 'List across all namespaces (needs scope `cluster` in plugin.yaml)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -l no-headers -d 'Omit the table header'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -l show-labels -d 'Add a LABELS column to the table'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -l ignore-not-found -d 'A missing named object is not an error (exit 0)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -l show-kind -d 'Prefix names with `kind.group/` in the table\'s NAME column'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -l show-managed-fields -d 'Keep `metadata.managedFields` in `-o json|yaml` (dropped by default, as kubectl)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -s w -l watch -d 'After listing/getting the requested object, watch for changes'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -l watch-only -d 'Watch for changes to the requested object(s), without listing/getting first'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -l output-watch-events -d 'Output watch event objects when --watch or --watch-only is used. Existing objects are output as initial ADDED events'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -l all-contexts -d 'Run in every context of the kubeconfig and merge the results (as --contexts)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand get" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand patch" -l type -d 'Patch type' -r -f -a "strategic\t'Strategic merge patch (built-in types only)'
merge\t'JSON merge patch (RFC 7386)'
json\t'JSON patch (RFC 6902)'"
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand patch" -s p -l patch -d 'The patch, as JSON or YAML' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand patch" -l patch-file -d 'A file holding the patch (JSON or YAML)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand patch" -l dry-run -d 'Dry run: none (default), server, or client; a bare --dry-run is client (deprecated, as in kubectl)' -r -f -a "none\t'Really change the object'
server\t'The server computes and validates the change, and stores nothing'
client\t'Computed locally from the current object'"
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand patch" -l subresource -d 'Patch a subresource (status or scale)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand patch" -l field-manager -d 'Field manager recorded by the server (at most 128 bytes, printable; empty = the default)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand patch" -s o -l output -d 'Print the patched object instead of the one-line result: json, yaml, name, jsonpath=TEMPLATE, jsonpath-file=PATH or jsonpath-as-json=TEMPLATE' -r -f -a "json\t'JSON'
yaml\t'YAML'
kyaml\t'KYAML, kubectl 1.34+'
name\t'`kind.group/name`'"
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand patch" -l canary -d 'With --contexts/--all-contexts: how many contexts the first (canary) wave patches; the rest follow only if every one of them succeeded. (default 1)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand patch" -l kubeconfig -d 'Path to the kubeconfig file (overrides KUBECONFIG)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand patch" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand patch" -l contexts -d 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart, rollout undo. See docs/fleet.md' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand patch" -l max-parallel -d 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand patch" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand patch" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand patch" -s n -l namespace -d 'Namespace for this request (default: the context\'s namespace, else `default`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand patch" -l as -d 'User to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand patch" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand patch" -l as-uid -d 'UID to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand patch" -l request-timeout -d 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl\'s discovery)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand patch" -s s -l server -d 'The address of the Kubernetes API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand patch" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand patch" -l certificate-authority -d 'Path to a CA certificate file for the API server' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand patch" -l client-certificate -d 'Path to a client certificate file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand patch" -l client-key -d 'Path to a client key file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand patch" -l tls-server-name -d 'Server name to use for server certificate validation (default: the server URL\'s host)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand patch" -l as-user-extra -d 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand patch" -l username -d 'Username for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand patch" -l password -d 'Password for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand patch" -l kuberc -d 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand patch" -l config -d 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand patch" -l pushgateway -d 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand patch" -s v -l v -l verbose -d 'Log level, as kubectl\'s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand patch" -l diff -d 'Show the change by field path (always on with --dry-run)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand patch" -l all-contexts -d 'Run in every context of the kubeconfig and merge the results (as --contexts)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand patch" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand patch" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand apply" -s f -l filename -d 'A manifest file (YAML or JSON, several documents allowed), a directory of them (*.yaml, *.yml, *.json), or `-` for stdin; repeatable' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand apply" -l server-side -d 'Always true: every apply is a server-side apply. `--server-side=false` (a client-side apply) is refused' -r -f -a "true\t''
false\t''"
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand apply" -l field-manager -d 'Field manager recorded by the server (at most 128 bytes, printable; empty = the default)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand apply" -l dry-run -d 'Dry run: none (default) or server; client is refused, as kubectl refuses it with --server-side (a client cannot compute what the server would merge)' -r -f -a "none\t'Really change the object'
server\t'The server computes and validates the change, and stores nothing'
client\t'Computed locally from the current object'"
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand apply" -s o -l output -d '`name`: print `TYPE.GROUP/NAME` of each applied object instead of the sentence' -r -f -a "name\t''"
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand apply" -l canary -d 'With --contexts/--all-contexts: how many contexts the first (canary) wave applies in; the rest follow only if every one of them succeeded. (default 1)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand apply" -l kubeconfig -d 'Path to the kubeconfig file (overrides KUBECONFIG)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand apply" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand apply" -l contexts -d 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart, rollout undo. See docs/fleet.md' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand apply" -l max-parallel -d 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand apply" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand apply" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand apply" -s n -l namespace -d 'Namespace for this request (default: the context\'s namespace, else `default`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand apply" -l as -d 'User to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand apply" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand apply" -l as-uid -d 'UID to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand apply" -l request-timeout -d 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl\'s discovery)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand apply" -s s -l server -d 'The address of the Kubernetes API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand apply" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand apply" -l certificate-authority -d 'Path to a CA certificate file for the API server' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand apply" -l client-certificate -d 'Path to a client certificate file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand apply" -l client-key -d 'Path to a client key file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand apply" -l tls-server-name -d 'Server name to use for server certificate validation (default: the server URL\'s host)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand apply" -l as-user-extra -d 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand apply" -l username -d 'Username for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand apply" -l password -d 'Password for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand apply" -l kuberc -d 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand apply" -l config -d 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand apply" -l pushgateway -d 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand apply" -s v -l v -l verbose -d 'Log level, as kubectl\'s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand apply" -s R -l recursive -d 'Read the directories given with -f recursively'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand apply" -l force-conflicts -d 'Take over fields that other managers own; only when plugin.yaml sets `apply.forceConflicts: true`'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand apply" -l prune -d 'Not supported: pruning deletes every object of a label or apply set that the files no longer hold, which no single journaled change describes; refused (exit 2)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand apply" -l all-contexts -d 'Run in every context of the kubeconfig and merge the results (as --contexts)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand apply" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand apply" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand delete" -s l -l selector -d 'Label selector, e.g. `app=web,tier!=cache`' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand delete" -l field-selector -d 'Field selector, e.g. `metadata.name=web`' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand delete" -l cascade -d 'How dependents are deleted: background (default), foreground or orphan (the `propagationPolicy` of the DELETE)' -r -f -a "background\t'Delete the object now; the garbage collector deletes its dependents after'
foreground\t'Delete the dependents first; the object goes after them'
orphan\t'Leave the dependents, without their owner reference'"
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand delete" -l grace-period -d 'Seconds the object is given to terminate gracefully (-1: the type\'s default; 0 only with --force in kubectl, here as 1 with --now)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand delete" -l wait -d 'Wait until the objects are gone (finalizers cleared) before returning (default true)' -r -f -a "true\t''
false\t''"
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand delete" -l timeout -d 'How long --wait waits: seconds or a Go duration (0s: as kubectl, a week)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand delete" -l dry-run -d 'Dry run: none (default), server (the preview, nothing deleted), or client; a bare --dry-run is client (deprecated, as in kubectl)' -r -f -a "none\t'Really change the object'
server\t'The server computes and validates the change, and stores nothing'
client\t'Computed locally from the current object'"
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand delete" -s o -l output -d '`name`: print `TYPE.GROUP/NAME` of each deleted object instead of the sentence' -r -f -a "name\t''"
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand delete" -l canary -d 'With --contexts/--all-contexts: how many contexts the first (canary) wave deletes in; the rest follow only if every one of them succeeded. (default 1)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand delete" -l kubeconfig -d 'Path to the kubeconfig file (overrides KUBECONFIG)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand delete" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand delete" -l contexts -d 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart, rollout undo. See docs/fleet.md' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand delete" -l max-parallel -d 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand delete" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand delete" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand delete" -s n -l namespace -d 'Namespace for this request (default: the context\'s namespace, else `default`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand delete" -l as -d 'User to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand delete" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand delete" -l as-uid -d 'UID to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand delete" -l request-timeout -d 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl\'s discovery)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand delete" -s s -l server -d 'The address of the Kubernetes API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand delete" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand delete" -l certificate-authority -d 'Path to a CA certificate file for the API server' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand delete" -l client-certificate -d 'Path to a client certificate file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand delete" -l client-key -d 'Path to a client key file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand delete" -l tls-server-name -d 'Server name to use for server certificate validation (default: the server URL\'s host)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand delete" -l as-user-extra -d 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand delete" -l username -d 'Username for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand delete" -l password -d 'Password for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand delete" -l kuberc -d 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand delete" -l config -d 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand delete" -l pushgateway -d 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand delete" -s v -l v -l verbose -d 'Log level, as kubectl\'s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand delete" -l all -d 'Delete every object of TYPE in the namespace (or across namespaces with -A)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand delete" -s A -l all-namespaces -d 'With -l, --field-selector or --all: across all namespaces (needs scope `cluster`)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand delete" -l now -d 'Signal the object to terminate at once (grace period 1)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand delete" -l ignore-not-found -d 'A named object that does not exist is not an error (exit 0)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand delete" -l unrecoverable -d 'Delete a namespace or CRD whose objects exceed plugin.yaml `changelog.snapshotLimit` without journaling them: they cannot be undeleted'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand delete" -l all-contexts -d 'Run in every context of the kubeconfig and merge the results (as --contexts)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand delete" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand delete" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand edit" -s o -l output -d 'The format the editor shows (yaml by default, with kubectl\'s header comment; json without one); given, the edited object is also printed in it instead of `TYPE/NAME edited`, as kubectl does' -r -f -a "yaml\t'YAML under kubectl\'s header comment'
json\t'JSON, without a header (a comment is not JSON)'"
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand edit" -l field-manager -d 'Field manager recorded by the server (at most 128 bytes, printable; empty = the default)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand edit" -l kubeconfig -d 'Path to the kubeconfig file (overrides KUBECONFIG)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand edit" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand edit" -l contexts -d 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart, rollout undo. See docs/fleet.md' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand edit" -l max-parallel -d 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand edit" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand edit" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand edit" -s n -l namespace -d 'Namespace for this request (default: the context\'s namespace, else `default`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand edit" -l as -d 'User to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand edit" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand edit" -l as-uid -d 'UID to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand edit" -l request-timeout -d 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl\'s discovery)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand edit" -s s -l server -d 'The address of the Kubernetes API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand edit" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand edit" -l certificate-authority -d 'Path to a CA certificate file for the API server' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand edit" -l client-certificate -d 'Path to a client certificate file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand edit" -l client-key -d 'Path to a client key file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand edit" -l tls-server-name -d 'Server name to use for server certificate validation (default: the server URL\'s host)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand edit" -l as-user-extra -d 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand edit" -l username -d 'Username for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand edit" -l password -d 'Password for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand edit" -l kuberc -d 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand edit" -l config -d 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand edit" -l pushgateway -d 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand edit" -s v -l v -l verbose -d 'Log level, as kubectl\'s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand edit" -l output-patch -d 'Print the patch sent (`Patch: {...}`), as kubectl\'s --output-patch'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand edit" -l all-contexts -d 'Run in every context of the kubeconfig and merge the results (as --contexts)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand edit" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand edit" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand scale" -l replicas -d 'The new desired number of replicas (0 or more)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand scale" -l current-replicas -d 'Precondition: the current size must be this (-1, the default: no condition)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand scale" -l resource-version -d 'Precondition: the object\'s resourceVersion must be this (one object only)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand scale" -s l -l selector -d 'Label selector, e.g. `app=web,tier!=cache`' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand scale" -l timeout -d 'How long to wait until the object has the new number of replicas (status): seconds or a Go duration; 0 (the default) does not wait' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand scale" -l dry-run -d 'Dry run: none (default), server, or client; a bare --dry-run is client (deprecated, as in kubectl)' -r -f -a "none\t'Really change the object'
server\t'The server computes and validates the change, and stores nothing'
client\t'Computed locally from the current object'"
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand scale" -s o -l output -d '`name`: print `TYPE.GROUP/NAME` of each scaled object instead of the sentence' -r -f -a "name\t''"
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand scale" -l field-manager -d 'Field manager recorded by the server (at most 128 bytes, printable; empty = the default)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand scale" -l canary -d 'With --contexts/--all-contexts: how many contexts the first (canary) wave scales in; the rest follow only if every one of them succeeded. (default 1)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand scale" -l kubeconfig -d 'Path to the kubeconfig file (overrides KUBECONFIG)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand scale" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand scale" -l contexts -d 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart, rollout undo. See docs/fleet.md' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand scale" -l max-parallel -d 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand scale" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand scale" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand scale" -s n -l namespace -d 'Namespace for this request (default: the context\'s namespace, else `default`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand scale" -l as -d 'User to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand scale" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand scale" -l as-uid -d 'UID to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand scale" -l request-timeout -d 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl\'s discovery)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand scale" -s s -l server -d 'The address of the Kubernetes API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand scale" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand scale" -l certificate-authority -d 'Path to a CA certificate file for the API server' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand scale" -l client-certificate -d 'Path to a client certificate file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand scale" -l client-key -d 'Path to a client key file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand scale" -l tls-server-name -d 'Server name to use for server certificate validation (default: the server URL\'s host)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand scale" -l as-user-extra -d 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand scale" -l username -d 'Username for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand scale" -l password -d 'Password for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand scale" -l kuberc -d 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand scale" -l config -d 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand scale" -l pushgateway -d 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand scale" -s v -l v -l verbose -d 'Log level, as kubectl\'s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand scale" -l all -d 'Scale every object of TYPE in the namespace'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand scale" -l all-contexts -d 'Run in every context of the kubeconfig and merge the results (as --contexts)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand scale" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand scale" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand label" -l resource-version -d 'Precondition: the object\'s resourceVersion must be this (one object only)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand label" -s l -l selector -d 'Label selector, e.g. `app=web,tier!=cache`' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand label" -l field-selector -d 'Field selector, e.g. `metadata.name=web`' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand label" -l dry-run -d 'Dry run: none (default), server, or client; a bare --dry-run is client (deprecated, as in kubectl)' -r -f -a "none\t'Really change the object'
server\t'The server computes and validates the change, and stores nothing'
client\t'Computed locally from the current object'"
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand label" -s o -l output -d '`name`: print `TYPE.GROUP/NAME` of each object instead of the sentence' -r -f -a "name\t''"
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand label" -l field-manager -d 'Field manager recorded by the server (at most 128 bytes, printable; empty = the default)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand label" -l canary -d 'With --contexts/--all-contexts: how many contexts the first (canary) wave changes; the rest follow only if every one of them succeeded. (default 1)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand label" -l kubeconfig -d 'Path to the kubeconfig file (overrides KUBECONFIG)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand label" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand label" -l contexts -d 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart, rollout undo. See docs/fleet.md' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand label" -l max-parallel -d 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand label" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand label" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand label" -s n -l namespace -d 'Namespace for this request (default: the context\'s namespace, else `default`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand label" -l as -d 'User to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand label" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand label" -l as-uid -d 'UID to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand label" -l request-timeout -d 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl\'s discovery)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand label" -s s -l server -d 'The address of the Kubernetes API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand label" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand label" -l certificate-authority -d 'Path to a CA certificate file for the API server' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand label" -l client-certificate -d 'Path to a client certificate file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand label" -l client-key -d 'Path to a client key file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand label" -l tls-server-name -d 'Server name to use for server certificate validation (default: the server URL\'s host)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand label" -l as-user-extra -d 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand label" -l username -d 'Username for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand label" -l password -d 'Password for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand label" -l kuberc -d 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand label" -l config -d 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand label" -l pushgateway -d 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand label" -s v -l v -l verbose -d 'Log level, as kubectl\'s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand label" -l overwrite -d 'Allow changing a key that already has another value (otherwise refused)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand label" -l list -d 'Print the keys and values of each object (after the changes given, which are not sent)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand label" -l all -d 'Every object of TYPE in the namespace (or across namespaces with -A)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand label" -s A -l all-namespaces -d 'With -l, --field-selector or --all: across all namespaces (needs scope `cluster`)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand label" -l all-contexts -d 'Run in every context of the kubeconfig and merge the results (as --contexts)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand label" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand label" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand annotate" -l resource-version -d 'Precondition: the object\'s resourceVersion must be this (one object only)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand annotate" -s l -l selector -d 'Label selector, e.g. `app=web,tier!=cache`' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand annotate" -l field-selector -d 'Field selector, e.g. `metadata.name=web`' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand annotate" -l dry-run -d 'Dry run: none (default), server, or client; a bare --dry-run is client (deprecated, as in kubectl)' -r -f -a "none\t'Really change the object'
server\t'The server computes and validates the change, and stores nothing'
client\t'Computed locally from the current object'"
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand annotate" -s o -l output -d '`name`: print `TYPE.GROUP/NAME` of each object instead of the sentence' -r -f -a "name\t''"
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand annotate" -l field-manager -d 'Field manager recorded by the server (at most 128 bytes, printable; empty = the default)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand annotate" -l canary -d 'With --contexts/--all-contexts: how many contexts the first (canary) wave changes; the rest follow only if every one of them succeeded. (default 1)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand annotate" -l kubeconfig -d 'Path to the kubeconfig file (overrides KUBECONFIG)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand annotate" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand annotate" -l contexts -d 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart, rollout undo. See docs/fleet.md' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand annotate" -l max-parallel -d 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand annotate" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand annotate" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand annotate" -s n -l namespace -d 'Namespace for this request (default: the context\'s namespace, else `default`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand annotate" -l as -d 'User to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand annotate" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand annotate" -l as-uid -d 'UID to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand annotate" -l request-timeout -d 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl\'s discovery)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand annotate" -s s -l server -d 'The address of the Kubernetes API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand annotate" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand annotate" -l certificate-authority -d 'Path to a CA certificate file for the API server' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand annotate" -l client-certificate -d 'Path to a client certificate file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand annotate" -l client-key -d 'Path to a client key file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand annotate" -l tls-server-name -d 'Server name to use for server certificate validation (default: the server URL\'s host)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand annotate" -l as-user-extra -d 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand annotate" -l username -d 'Username for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand annotate" -l password -d 'Password for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand annotate" -l kuberc -d 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand annotate" -l config -d 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand annotate" -l pushgateway -d 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand annotate" -s v -l v -l verbose -d 'Log level, as kubectl\'s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand annotate" -l overwrite -d 'Allow changing a key that already has another value (otherwise refused)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand annotate" -l list -d 'Print the keys and values of each object (after the changes given, which are not sent)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand annotate" -l all -d 'Every object of TYPE in the namespace (or across namespaces with -A)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand annotate" -s A -l all-namespaces -d 'With -l, --field-selector or --all: across all namespaces (needs scope `cluster`)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand annotate" -l all-contexts -d 'Run in every context of the kubeconfig and merge the results (as --contexts)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand annotate" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand annotate" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and not __fish_seen_subcommand_from restart undo history status help" -l kubeconfig -d 'Path to the kubeconfig file (overrides KUBECONFIG)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and not __fish_seen_subcommand_from restart undo history status help" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and not __fish_seen_subcommand_from restart undo history status help" -l contexts -d 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart, rollout undo. See docs/fleet.md' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and not __fish_seen_subcommand_from restart undo history status help" -l max-parallel -d 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and not __fish_seen_subcommand_from restart undo history status help" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and not __fish_seen_subcommand_from restart undo history status help" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and not __fish_seen_subcommand_from restart undo history status help" -s n -l namespace -d 'Namespace for this request (default: the context\'s namespace, else `default`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and not __fish_seen_subcommand_from restart undo history status help" -l as -d 'User to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and not __fish_seen_subcommand_from restart undo history status help" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and not __fish_seen_subcommand_from restart undo history status help" -l as-uid -d 'UID to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and not __fish_seen_subcommand_from restart undo history status help" -l request-timeout -d 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl\'s discovery)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and not __fish_seen_subcommand_from restart undo history status help" -s s -l server -d 'The address of the Kubernetes API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and not __fish_seen_subcommand_from restart undo history status help" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and not __fish_seen_subcommand_from restart undo history status help" -l certificate-authority -d 'Path to a CA certificate file for the API server' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and not __fish_seen_subcommand_from restart undo history status help" -l client-certificate -d 'Path to a client certificate file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and not __fish_seen_subcommand_from restart undo history status help" -l client-key -d 'Path to a client key file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and not __fish_seen_subcommand_from restart undo history status help" -l tls-server-name -d 'Server name to use for server certificate validation (default: the server URL\'s host)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and not __fish_seen_subcommand_from restart undo history status help" -l as-user-extra -d 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and not __fish_seen_subcommand_from restart undo history status help" -l username -d 'Username for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and not __fish_seen_subcommand_from restart undo history status help" -l password -d 'Password for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and not __fish_seen_subcommand_from restart undo history status help" -l kuberc -d 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and not __fish_seen_subcommand_from restart undo history status help" -l config -d 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and not __fish_seen_subcommand_from restart undo history status help" -l pushgateway -d 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and not __fish_seen_subcommand_from restart undo history status help" -s v -l v -l verbose -d 'Log level, as kubectl\'s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and not __fish_seen_subcommand_from restart undo history status help" -l all-contexts -d 'Run in every context of the kubeconfig and merge the results (as --contexts)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and not __fish_seen_subcommand_from restart undo history status help" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and not __fish_seen_subcommand_from restart undo history status help" -s h -l help -d 'Print help'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and not __fish_seen_subcommand_from restart undo history status help" -f -a "restart" -d 'Restart the pods of a rollout: the pod template gets the annotation `kubectl.kubernetes.io/restartedAt` (journaled; `rollback ID` undoes it)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and not __fish_seen_subcommand_from restart undo history status help" -f -a "undo" -d 'Roll back to a previous revision (journaled; `rollback ID` undoes the undo)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and not __fish_seen_subcommand_from restart undo history status help" -f -a "history" -d 'The revisions of a rollout, or one revision\'s pod template (read-only)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and not __fish_seen_subcommand_from restart undo history status help" -f -a "status" -d 'The status of a rollout, followed until it is done unless --watch=false (read-only)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and not __fish_seen_subcommand_from restart undo history status help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from restart" -s o -l output -d '`name`: print `TYPE.GROUP/NAME` of each restarted object instead of the sentence' -r -f -a "name\t''"
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from restart" -l field-manager -d 'Field manager recorded by the server (at most 128 bytes, printable; empty = the default)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from restart" -l canary -d 'With --contexts/--all-contexts: how many contexts the first (canary) wave restarts in; the rest follow only if every one of them succeeded. (default 1)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from restart" -l kubeconfig -d 'Path to the kubeconfig file (overrides KUBECONFIG)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from restart" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from restart" -l contexts -d 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart, rollout undo. See docs/fleet.md' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from restart" -l max-parallel -d 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from restart" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from restart" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from restart" -s n -l namespace -d 'Namespace for this request (default: the context\'s namespace, else `default`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from restart" -l as -d 'User to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from restart" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from restart" -l as-uid -d 'UID to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from restart" -l request-timeout -d 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl\'s discovery)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from restart" -s s -l server -d 'The address of the Kubernetes API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from restart" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from restart" -l certificate-authority -d 'Path to a CA certificate file for the API server' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from restart" -l client-certificate -d 'Path to a client certificate file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from restart" -l client-key -d 'Path to a client key file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from restart" -l tls-server-name -d 'Server name to use for server certificate validation (default: the server URL\'s host)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from restart" -l as-user-extra -d 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from restart" -l username -d 'Username for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from restart" -l password -d 'Password for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from restart" -l kuberc -d 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from restart" -l config -d 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from restart" -l pushgateway -d 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from restart" -s v -l v -l verbose -d 'Log level, as kubectl\'s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from restart" -l all-contexts -d 'Run in every context of the kubeconfig and merge the results (as --contexts)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from restart" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from restart" -s h -l help -d 'Print help'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from undo" -l to-revision -d 'The revision to roll back to; 0 (the default) is the one before the current' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from undo" -l dry-run -d 'Dry run: none (default), server, or client (prints the pod template it would roll back to); a bare --dry-run is client (deprecated, as in kubectl)' -r -f -a "none\t'Really change the object'
server\t'The server computes and validates the change, and stores nothing'
client\t'Computed locally from the current object'"
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from undo" -s o -l output -d '`name`: print `TYPE.GROUP/NAME` of each object instead of the sentence' -r -f -a "name\t''"
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from undo" -l field-manager -d 'Field manager recorded by the server (at most 128 bytes, printable; empty = the default)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from undo" -l canary -d 'With --contexts/--all-contexts: how many contexts the first (canary) wave rolls back in; the rest follow only if every one of them succeeded. (default 1)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from undo" -l kubeconfig -d 'Path to the kubeconfig file (overrides KUBECONFIG)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from undo" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from undo" -l contexts -d 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart, rollout undo. See docs/fleet.md' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from undo" -l max-parallel -d 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from undo" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from undo" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from undo" -s n -l namespace -d 'Namespace for this request (default: the context\'s namespace, else `default`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from undo" -l as -d 'User to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from undo" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from undo" -l as-uid -d 'UID to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from undo" -l request-timeout -d 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl\'s discovery)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from undo" -s s -l server -d 'The address of the Kubernetes API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from undo" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from undo" -l certificate-authority -d 'Path to a CA certificate file for the API server' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from undo" -l client-certificate -d 'Path to a client certificate file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from undo" -l client-key -d 'Path to a client key file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from undo" -l tls-server-name -d 'Server name to use for server certificate validation (default: the server URL\'s host)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from undo" -l as-user-extra -d 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from undo" -l username -d 'Username for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from undo" -l password -d 'Password for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from undo" -l kuberc -d 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from undo" -l config -d 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from undo" -l pushgateway -d 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from undo" -s v -l v -l verbose -d 'Log level, as kubectl\'s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from undo" -l all-contexts -d 'Run in every context of the kubeconfig and merge the results (as --contexts)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from undo" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from undo" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from history" -l revision -d 'Show the pod template of this revision' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from history" -l kubeconfig -d 'Path to the kubeconfig file (overrides KUBECONFIG)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from history" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from history" -l contexts -d 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart, rollout undo. See docs/fleet.md' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from history" -l max-parallel -d 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from history" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from history" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from history" -s n -l namespace -d 'Namespace for this request (default: the context\'s namespace, else `default`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from history" -l as -d 'User to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from history" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from history" -l as-uid -d 'UID to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from history" -l request-timeout -d 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl\'s discovery)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from history" -s s -l server -d 'The address of the Kubernetes API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from history" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from history" -l certificate-authority -d 'Path to a CA certificate file for the API server' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from history" -l client-certificate -d 'Path to a client certificate file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from history" -l client-key -d 'Path to a client key file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from history" -l tls-server-name -d 'Server name to use for server certificate validation (default: the server URL\'s host)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from history" -l as-user-extra -d 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from history" -l username -d 'Username for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from history" -l password -d 'Password for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from history" -l kuberc -d 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from history" -l config -d 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from history" -l pushgateway -d 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from history" -s v -l v -l verbose -d 'Log level, as kubectl\'s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from history" -l all-contexts -d 'Run in every context of the kubeconfig and merge the results (as --contexts)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from history" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from history" -s h -l help -d 'Print help'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from status" -s w -l watch -d 'Follow the status until the rollout is done (default true; --watch=false prints it once)' -r -f -a "true\t''
false\t''"
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from status" -l revision -d 'Pin to a revision (Deployments): a different running revision is an error' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from status" -l timeout -d 'How long to follow the status: seconds or a Go duration (0s, the default: no limit)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from status" -l kubeconfig -d 'Path to the kubeconfig file (overrides KUBECONFIG)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from status" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from status" -l contexts -d 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart, rollout undo. See docs/fleet.md' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from status" -l max-parallel -d 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from status" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from status" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from status" -s n -l namespace -d 'Namespace for this request (default: the context\'s namespace, else `default`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from status" -l as -d 'User to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from status" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from status" -l as-uid -d 'UID to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from status" -l request-timeout -d 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl\'s discovery)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from status" -s s -l server -d 'The address of the Kubernetes API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from status" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from status" -l certificate-authority -d 'Path to a CA certificate file for the API server' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from status" -l client-certificate -d 'Path to a client certificate file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from status" -l client-key -d 'Path to a client key file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from status" -l tls-server-name -d 'Server name to use for server certificate validation (default: the server URL\'s host)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from status" -l as-user-extra -d 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from status" -l username -d 'Username for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from status" -l password -d 'Password for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from status" -l kuberc -d 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from status" -l config -d 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from status" -l pushgateway -d 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from status" -s v -l v -l verbose -d 'Log level, as kubectl\'s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from status" -l all-contexts -d 'Run in every context of the kubeconfig and merge the results (as --contexts)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from status" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from help" -f -a "restart" -d 'Restart the pods of a rollout: the pod template gets the annotation `kubectl.kubernetes.io/restartedAt` (journaled; `rollback ID` undoes it)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from help" -f -a "undo" -d 'Roll back to a previous revision (journaled; `rollback ID` undoes the undo)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from help" -f -a "history" -d 'The revisions of a rollout, or one revision\'s pod template (read-only)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from help" -f -a "status" -d 'The status of a rollout, followed until it is done unless --watch=false (read-only)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollout; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand undelete" -l entry -d 'The delete entry to undo (`changelog list --operation delete`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand undelete" -l dry-run -d 'Dry run: none (default), server, or client. A bare --dry-run is client (deprecated, as in kubectl)' -r -f -a "none\t'Really change the object'
server\t'The server computes and validates the change, and stores nothing'
client\t'Computed locally from the current object'"
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand undelete" -l field-manager -d 'Field manager recorded by the server (at most 128 bytes, printable; empty = the default)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand undelete" -l kubeconfig -d 'Path to the kubeconfig file (overrides KUBECONFIG)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand undelete" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand undelete" -l contexts -d 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart, rollout undo. See docs/fleet.md' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand undelete" -l max-parallel -d 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand undelete" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand undelete" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand undelete" -s n -l namespace -d 'Namespace for this request (default: the context\'s namespace, else `default`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand undelete" -l as -d 'User to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand undelete" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand undelete" -l as-uid -d 'UID to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand undelete" -l request-timeout -d 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl\'s discovery)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand undelete" -s s -l server -d 'The address of the Kubernetes API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand undelete" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand undelete" -l certificate-authority -d 'Path to a CA certificate file for the API server' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand undelete" -l client-certificate -d 'Path to a client certificate file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand undelete" -l client-key -d 'Path to a client key file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand undelete" -l tls-server-name -d 'Server name to use for server certificate validation (default: the server URL\'s host)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand undelete" -l as-user-extra -d 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand undelete" -l username -d 'Username for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand undelete" -l password -d 'Password for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand undelete" -l kuberc -d 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand undelete" -l config -d 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand undelete" -l pushgateway -d 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand undelete" -s v -l v -l verbose -d 'Log level, as kubectl\'s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand undelete" -l force -d 'Create it even if a reconciler (Flux, Argo CD, Helm, kapp) manages it'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand undelete" -l all-contexts -d 'Run in every context of the kubeconfig and merge the results (as --contexts)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand undelete" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand undelete" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollback" -l session -d 'Roll back every change of one invocation (the `session` of its change-log entries, e.g. a patch fanned out over several contexts), each in the context it was made in, newest first, with the same conflict rules as `rollback ID`' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollback" -l dry-run -d 'Dry run: none (default), server, or client; shows the diff. A bare --dry-run is client (deprecated, as in kubectl)' -r -f -a "none\t'Really change the object'
server\t'The server computes and validates the change, and stores nothing'
client\t'Computed locally from the current object'"
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollback" -l field-manager -d 'Field manager recorded by the server (at most 128 bytes, printable; empty = the default)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollback" -l kubeconfig -d 'Path to the kubeconfig file (overrides KUBECONFIG)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollback" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollback" -l contexts -d 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart, rollout undo. See docs/fleet.md' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollback" -l max-parallel -d 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollback" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollback" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollback" -s n -l namespace -d 'Namespace for this request (default: the context\'s namespace, else `default`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollback" -l as -d 'User to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollback" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollback" -l as-uid -d 'UID to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollback" -l request-timeout -d 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl\'s discovery)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollback" -s s -l server -d 'The address of the Kubernetes API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollback" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollback" -l certificate-authority -d 'Path to a CA certificate file for the API server' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollback" -l client-certificate -d 'Path to a client certificate file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollback" -l client-key -d 'Path to a client key file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollback" -l tls-server-name -d 'Server name to use for server certificate validation (default: the server URL\'s host)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollback" -l as-user-extra -d 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollback" -l username -d 'Username for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollback" -l password -d 'Password for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollback" -l kuberc -d 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollback" -l config -d 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollback" -l pushgateway -d 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollback" -s v -l v -l verbose -d 'Log level, as kubectl\'s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollback" -l force -d 'Restore even if someone changed the object since (skips the resourceVersion guard), or a reconciler (Flux, Argo CD, Helm, kapp, kubectl apply) manages it; the owner is recorded in the rollback\'s change-log entry'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollback" -l all-contexts -d 'Run in every context of the kubeconfig and merge the results (as --contexts)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollback" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand rollback" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand drift" -s o -l output -d 'Output format: `json` prints the whole report, unchanged objects included' -r -f -a "json\t'One JSON document (`kind: DriftReport`, schema in docs/policies.md)'"
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand drift" -l kubeconfig -d 'Path to the kubeconfig file (overrides KUBECONFIG)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand drift" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand drift" -l contexts -d 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart, rollout undo. See docs/fleet.md' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand drift" -l max-parallel -d 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand drift" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand drift" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand drift" -s n -l namespace -d 'Namespace for this request (default: the context\'s namespace, else `default`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand drift" -l as -d 'User to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand drift" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand drift" -l as-uid -d 'UID to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand drift" -l request-timeout -d 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl\'s discovery)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand drift" -s s -l server -d 'The address of the Kubernetes API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand drift" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand drift" -l certificate-authority -d 'Path to a CA certificate file for the API server' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand drift" -l client-certificate -d 'Path to a client certificate file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand drift" -l client-key -d 'Path to a client key file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand drift" -l tls-server-name -d 'Server name to use for server certificate validation (default: the server URL\'s host)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand drift" -l as-user-extra -d 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand drift" -l username -d 'Username for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand drift" -l password -d 'Password for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand drift" -l kuberc -d 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand drift" -l config -d 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand drift" -l pushgateway -d 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand drift" -s v -l v -l verbose -d 'Log level, as kubectl\'s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand drift" -s A -l all-namespaces -d 'Objects in every namespace (each is still read by name in its own namespace), not only the current one and cluster-scoped ones'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand drift" -l all-contexts -d 'Run in every context of the kubeconfig and merge the results (as --contexts)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand drift" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand drift" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and not __fish_seen_subcommand_from list diff why show verify reconcile help" -l kubeconfig -d 'Path to the kubeconfig file (overrides KUBECONFIG)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and not __fish_seen_subcommand_from list diff why show verify reconcile help" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and not __fish_seen_subcommand_from list diff why show verify reconcile help" -l contexts -d 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart, rollout undo. See docs/fleet.md' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and not __fish_seen_subcommand_from list diff why show verify reconcile help" -l max-parallel -d 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and not __fish_seen_subcommand_from list diff why show verify reconcile help" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and not __fish_seen_subcommand_from list diff why show verify reconcile help" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and not __fish_seen_subcommand_from list diff why show verify reconcile help" -s n -l namespace -d 'Namespace for this request (default: the context\'s namespace, else `default`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and not __fish_seen_subcommand_from list diff why show verify reconcile help" -l as -d 'User to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and not __fish_seen_subcommand_from list diff why show verify reconcile help" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and not __fish_seen_subcommand_from list diff why show verify reconcile help" -l as-uid -d 'UID to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and not __fish_seen_subcommand_from list diff why show verify reconcile help" -l request-timeout -d 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl\'s discovery)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and not __fish_seen_subcommand_from list diff why show verify reconcile help" -s s -l server -d 'The address of the Kubernetes API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and not __fish_seen_subcommand_from list diff why show verify reconcile help" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and not __fish_seen_subcommand_from list diff why show verify reconcile help" -l certificate-authority -d 'Path to a CA certificate file for the API server' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and not __fish_seen_subcommand_from list diff why show verify reconcile help" -l client-certificate -d 'Path to a client certificate file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and not __fish_seen_subcommand_from list diff why show verify reconcile help" -l client-key -d 'Path to a client key file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and not __fish_seen_subcommand_from list diff why show verify reconcile help" -l tls-server-name -d 'Server name to use for server certificate validation (default: the server URL\'s host)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and not __fish_seen_subcommand_from list diff why show verify reconcile help" -l as-user-extra -d 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and not __fish_seen_subcommand_from list diff why show verify reconcile help" -l username -d 'Username for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and not __fish_seen_subcommand_from list diff why show verify reconcile help" -l password -d 'Password for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and not __fish_seen_subcommand_from list diff why show verify reconcile help" -l kuberc -d 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and not __fish_seen_subcommand_from list diff why show verify reconcile help" -l config -d 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and not __fish_seen_subcommand_from list diff why show verify reconcile help" -l pushgateway -d 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and not __fish_seen_subcommand_from list diff why show verify reconcile help" -s v -l v -l verbose -d 'Log level, as kubectl\'s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and not __fish_seen_subcommand_from list diff why show verify reconcile help" -l all-contexts -d 'Run in every context of the kubeconfig and merge the results (as --contexts)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and not __fish_seen_subcommand_from list diff why show verify reconcile help" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and not __fish_seen_subcommand_from list diff why show verify reconcile help" -s h -l help -d 'Print help'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and not __fish_seen_subcommand_from list diff why show verify reconcile help" -f -a "list" -d 'One line per entry: id, time, user, operation, object, result'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and not __fish_seen_subcommand_from list diff why show verify reconcile help" -f -a "diff" -d 'One change as a field-level diff, before → after (Secret values masked)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and not __fish_seen_subcommand_from list diff why show verify reconcile help" -f -a "why" -d 'Which journaled changes touched a field of an object, newest first'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and not __fish_seen_subcommand_from list diff why show verify reconcile help" -f -a "show" -d 'One entry, as pretty JSON'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and not __fish_seen_subcommand_from list diff why show verify reconcile help" -f -a "verify" -d 'Check the hash chain across the retained files: exit 0 when it holds, 1 naming the first break'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and not __fish_seen_subcommand_from list diff why show verify reconcile help" -f -a "reconcile" -d 'Find the real outcome of entries whose outcome is unknown (an intent without an outcome record) by reading the live object, and record it; never rolls back or retries'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and not __fish_seen_subcommand_from list diff why show verify reconcile help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from list" -l since -d 'Only entries newer than this: a duration (`1h`, `30m`) or an RFC 3339 time' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from list" -l object -d 'Only entries for this object: NAME, TYPE/NAME or NAMESPACE/NAME (kind or plural, any case)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from list" -l session -d 'Only the entries of one invocation (its session id, as `rollback --session` takes)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from list" -l operation -d 'Only entries of this operation' -r -f -a "patch\t''
rollback\t''
crd-apply\t''
crd-prune\t''
delete\t''
undelete\t''
apply\t''
scale\t''
label\t''
annotate\t''
rollout\t''"
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from list" -l result -d 'Only entries with this result: success, failure (denied or an error) or unknown (an intent without an outcome; `pending` means the same)' -r -f -a "success\t'The change was made'
failure\t'Refused (denied) or failed: changed nothing'
unknown\t'An intent without an outcome record: may or may not have been made'"
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from list" -s o -l output -d 'Print the entries (the last record of every id) as json (an array) or yaml instead of a table' -r -f -a "json\t'A JSON array of entries'
yaml\t'A YAML list of entries'"
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from list" -l kubeconfig -d 'Path to the kubeconfig file (overrides KUBECONFIG)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from list" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from list" -l contexts -d 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart, rollout undo. See docs/fleet.md' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from list" -l max-parallel -d 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from list" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from list" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from list" -s n -l namespace -d 'Namespace for this request (default: the context\'s namespace, else `default`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from list" -l as -d 'User to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from list" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from list" -l as-uid -d 'UID to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from list" -l request-timeout -d 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl\'s discovery)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from list" -s s -l server -d 'The address of the Kubernetes API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from list" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from list" -l certificate-authority -d 'Path to a CA certificate file for the API server' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from list" -l client-certificate -d 'Path to a client certificate file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from list" -l client-key -d 'Path to a client key file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from list" -l tls-server-name -d 'Server name to use for server certificate validation (default: the server URL\'s host)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from list" -l as-user-extra -d 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from list" -l username -d 'Username for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from list" -l password -d 'Password for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from list" -l kuberc -d 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from list" -l config -d 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from list" -l pushgateway -d 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from list" -s v -l v -l verbose -d 'Log level, as kubectl\'s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from list" -l invalid -d 'List the lines that are not valid entries (torn, not UTF-8, not JSON) instead: line number and reason'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from list" -l all-contexts -d 'Run in every context of the kubeconfig and merge the results (as --contexts)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from list" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from diff" -l kubeconfig -d 'Path to the kubeconfig file (overrides KUBECONFIG)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from diff" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from diff" -l contexts -d 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart, rollout undo. See docs/fleet.md' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from diff" -l max-parallel -d 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from diff" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from diff" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from diff" -s n -l namespace -d 'Namespace for this request (default: the context\'s namespace, else `default`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from diff" -l as -d 'User to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from diff" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from diff" -l as-uid -d 'UID to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from diff" -l request-timeout -d 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl\'s discovery)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from diff" -s s -l server -d 'The address of the Kubernetes API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from diff" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from diff" -l certificate-authority -d 'Path to a CA certificate file for the API server' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from diff" -l client-certificate -d 'Path to a client certificate file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from diff" -l client-key -d 'Path to a client key file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from diff" -l tls-server-name -d 'Server name to use for server certificate validation (default: the server URL\'s host)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from diff" -l as-user-extra -d 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from diff" -l username -d 'Username for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from diff" -l password -d 'Password for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from diff" -l kuberc -d 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from diff" -l config -d 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from diff" -l pushgateway -d 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from diff" -s v -l v -l verbose -d 'Log level, as kubectl\'s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from diff" -l all-contexts -d 'Run in every context of the kubeconfig and merge the results (as --contexts)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from diff" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from diff" -s h -l help -d 'Print help'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from why" -l kubeconfig -d 'Path to the kubeconfig file (overrides KUBECONFIG)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from why" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from why" -l contexts -d 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart, rollout undo. See docs/fleet.md' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from why" -l max-parallel -d 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from why" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from why" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from why" -s n -l namespace -d 'Namespace for this request (default: the context\'s namespace, else `default`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from why" -l as -d 'User to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from why" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from why" -l as-uid -d 'UID to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from why" -l request-timeout -d 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl\'s discovery)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from why" -s s -l server -d 'The address of the Kubernetes API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from why" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from why" -l certificate-authority -d 'Path to a CA certificate file for the API server' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from why" -l client-certificate -d 'Path to a client certificate file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from why" -l client-key -d 'Path to a client key file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from why" -l tls-server-name -d 'Server name to use for server certificate validation (default: the server URL\'s host)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from why" -l as-user-extra -d 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from why" -l username -d 'Username for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from why" -l password -d 'Password for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from why" -l kuberc -d 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from why" -l config -d 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from why" -l pushgateway -d 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from why" -s v -l v -l verbose -d 'Log level, as kubectl\'s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from why" -l all-contexts -d 'Run in every context of the kubeconfig and merge the results (as --contexts)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from why" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from why" -s h -l help -d 'Print help'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from show" -l kubeconfig -d 'Path to the kubeconfig file (overrides KUBECONFIG)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from show" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from show" -l contexts -d 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart, rollout undo. See docs/fleet.md' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from show" -l max-parallel -d 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from show" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from show" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from show" -s n -l namespace -d 'Namespace for this request (default: the context\'s namespace, else `default`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from show" -l as -d 'User to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from show" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from show" -l as-uid -d 'UID to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from show" -l request-timeout -d 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl\'s discovery)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from show" -s s -l server -d 'The address of the Kubernetes API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from show" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from show" -l certificate-authority -d 'Path to a CA certificate file for the API server' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from show" -l client-certificate -d 'Path to a client certificate file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from show" -l client-key -d 'Path to a client key file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from show" -l tls-server-name -d 'Server name to use for server certificate validation (default: the server URL\'s host)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from show" -l as-user-extra -d 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from show" -l username -d 'Username for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from show" -l password -d 'Password for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from show" -l kuberc -d 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from show" -l config -d 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from show" -l pushgateway -d 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from show" -s v -l v -l verbose -d 'Log level, as kubectl\'s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from show" -l all-contexts -d 'Run in every context of the kubeconfig and merge the results (as --contexts)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from show" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from verify" -l kubeconfig -d 'Path to the kubeconfig file (overrides KUBECONFIG)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from verify" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from verify" -l contexts -d 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart, rollout undo. See docs/fleet.md' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from verify" -l max-parallel -d 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from verify" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from verify" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from verify" -s n -l namespace -d 'Namespace for this request (default: the context\'s namespace, else `default`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from verify" -l as -d 'User to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from verify" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from verify" -l as-uid -d 'UID to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from verify" -l request-timeout -d 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl\'s discovery)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from verify" -s s -l server -d 'The address of the Kubernetes API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from verify" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from verify" -l certificate-authority -d 'Path to a CA certificate file for the API server' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from verify" -l client-certificate -d 'Path to a client certificate file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from verify" -l client-key -d 'Path to a client key file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from verify" -l tls-server-name -d 'Server name to use for server certificate validation (default: the server URL\'s host)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from verify" -l as-user-extra -d 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from verify" -l username -d 'Username for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from verify" -l password -d 'Password for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from verify" -l kuberc -d 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from verify" -l config -d 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from verify" -l pushgateway -d 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from verify" -s v -l v -l verbose -d 'Log level, as kubectl\'s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from verify" -l all-contexts -d 'Run in every context of the kubeconfig and merge the results (as --contexts)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from verify" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from verify" -s h -l help -d 'Print help'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from reconcile" -l outcome -d 'Record the outcome you decided (after checking the object) for entry ID, which the live object could not decide; the object is not read. Only with an ID' -r -f -a "applied\t'The patch was applied: recorded as `success`'
not-applied\t'The patch was not applied: recorded as `not applied`'"
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from reconcile" -l kubeconfig -d 'Path to the kubeconfig file (overrides KUBECONFIG)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from reconcile" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from reconcile" -l contexts -d 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart, rollout undo. See docs/fleet.md' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from reconcile" -l max-parallel -d 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from reconcile" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from reconcile" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from reconcile" -s n -l namespace -d 'Namespace for this request (default: the context\'s namespace, else `default`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from reconcile" -l as -d 'User to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from reconcile" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from reconcile" -l as-uid -d 'UID to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from reconcile" -l request-timeout -d 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl\'s discovery)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from reconcile" -s s -l server -d 'The address of the Kubernetes API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from reconcile" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from reconcile" -l certificate-authority -d 'Path to a CA certificate file for the API server' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from reconcile" -l client-certificate -d 'Path to a client certificate file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from reconcile" -l client-key -d 'Path to a client key file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from reconcile" -l tls-server-name -d 'Server name to use for server certificate validation (default: the server URL\'s host)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from reconcile" -l as-user-extra -d 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from reconcile" -l username -d 'Username for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from reconcile" -l password -d 'Password for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from reconcile" -l kuberc -d 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from reconcile" -l config -d 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from reconcile" -l pushgateway -d 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from reconcile" -s v -l v -l verbose -d 'Log level, as kubectl\'s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from reconcile" -l all-contexts -d 'Run in every context of the kubeconfig and merge the results (as --contexts)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from reconcile" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from reconcile" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from help" -f -a "list" -d 'One line per entry: id, time, user, operation, object, result'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from help" -f -a "diff" -d 'One change as a field-level diff, before → after (Secret values masked)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from help" -f -a "why" -d 'Which journaled changes touched a field of an object, newest first'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from help" -f -a "show" -d 'One entry, as pretty JSON'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from help" -f -a "verify" -d 'Check the hash chain across the retained files: exit 0 when it holds, 1 naming the first break'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from help" -f -a "reconcile" -d 'Find the real outcome of entries whose outcome is unknown (an intent without an outcome record) by reading the live object, and record it; never rolls back or retries'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand changelog; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and not __fish_seen_subcommand_from sync watch list help" -l kubeconfig -d 'Path to the kubeconfig file (overrides KUBECONFIG)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and not __fish_seen_subcommand_from sync watch list help" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and not __fish_seen_subcommand_from sync watch list help" -l contexts -d 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart, rollout undo. See docs/fleet.md' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and not __fish_seen_subcommand_from sync watch list help" -l max-parallel -d 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and not __fish_seen_subcommand_from sync watch list help" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and not __fish_seen_subcommand_from sync watch list help" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and not __fish_seen_subcommand_from sync watch list help" -s n -l namespace -d 'Namespace for this request (default: the context\'s namespace, else `default`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and not __fish_seen_subcommand_from sync watch list help" -l as -d 'User to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and not __fish_seen_subcommand_from sync watch list help" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and not __fish_seen_subcommand_from sync watch list help" -l as-uid -d 'UID to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and not __fish_seen_subcommand_from sync watch list help" -l request-timeout -d 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl\'s discovery)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and not __fish_seen_subcommand_from sync watch list help" -s s -l server -d 'The address of the Kubernetes API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and not __fish_seen_subcommand_from sync watch list help" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and not __fish_seen_subcommand_from sync watch list help" -l certificate-authority -d 'Path to a CA certificate file for the API server' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and not __fish_seen_subcommand_from sync watch list help" -l client-certificate -d 'Path to a client certificate file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and not __fish_seen_subcommand_from sync watch list help" -l client-key -d 'Path to a client key file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and not __fish_seen_subcommand_from sync watch list help" -l tls-server-name -d 'Server name to use for server certificate validation (default: the server URL\'s host)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and not __fish_seen_subcommand_from sync watch list help" -l as-user-extra -d 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and not __fish_seen_subcommand_from sync watch list help" -l username -d 'Username for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and not __fish_seen_subcommand_from sync watch list help" -l password -d 'Password for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and not __fish_seen_subcommand_from sync watch list help" -l kuberc -d 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and not __fish_seen_subcommand_from sync watch list help" -l config -d 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and not __fish_seen_subcommand_from sync watch list help" -l pushgateway -d 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and not __fish_seen_subcommand_from sync watch list help" -s v -l v -l verbose -d 'Log level, as kubectl\'s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and not __fish_seen_subcommand_from sync watch list help" -l all-contexts -d 'Run in every context of the kubeconfig and merge the results (as --contexts)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and not __fish_seen_subcommand_from sync watch list help" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and not __fish_seen_subcommand_from sync watch list help" -s h -l help -d 'Print help'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and not __fish_seen_subcommand_from sync watch list help" -f -a "sync" -d 'Server-side apply every CRD in DIR once and wait until each is Established and served'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and not __fish_seen_subcommand_from sync watch list help" -f -a "watch" -d 'Hot-load: register every CRD in DIR, then follow the directory until SIGINT/SIGTERM'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and not __fish_seen_subcommand_from sync watch list help" -f -a "list" -d 'What the directory holds and what the cluster has, side by side'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and not __fish_seen_subcommand_from sync watch list help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from sync" -l timeout -d 'How long to wait for each CRD to become Established and discoverable' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from sync" -l kubeconfig -d 'Path to the kubeconfig file (overrides KUBECONFIG)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from sync" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from sync" -l contexts -d 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart, rollout undo. See docs/fleet.md' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from sync" -l max-parallel -d 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from sync" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from sync" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from sync" -s n -l namespace -d 'Namespace for this request (default: the context\'s namespace, else `default`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from sync" -l as -d 'User to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from sync" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from sync" -l as-uid -d 'UID to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from sync" -l request-timeout -d 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl\'s discovery)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from sync" -s s -l server -d 'The address of the Kubernetes API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from sync" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from sync" -l certificate-authority -d 'Path to a CA certificate file for the API server' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from sync" -l client-certificate -d 'Path to a client certificate file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from sync" -l client-key -d 'Path to a client key file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from sync" -l tls-server-name -d 'Server name to use for server certificate validation (default: the server URL\'s host)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from sync" -l as-user-extra -d 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from sync" -l username -d 'Username for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from sync" -l password -d 'Password for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from sync" -l kuberc -d 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from sync" -l config -d 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from sync" -l pushgateway -d 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from sync" -s v -l v -l verbose -d 'Log level, as kubectl\'s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from sync" -l all-contexts -d 'Run in every context of the kubeconfig and merge the results (as --contexts)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from sync" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from sync" -s h -l help -d 'Print help'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from watch" -l timeout -d 'How long to wait for each CRD to become Established and discoverable' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from watch" -l log-format -d 'Log line format' -r -f -a "text\t'One human-readable line per event and outcome'
json\t'One JSON object per line'"
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from watch" -l lease-namespace -d 'Namespace of the Lease (default: the namespace in effect — -n, else the context\'s; in a pod, its service account\'s)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from watch" -l lease-name -d 'Name of the Lease' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from watch" -l lease-duration -d 'How long followers wait without seeing the Lease renewed before taking over (whole seconds; client-go\'s default)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from watch" -l renew-deadline -d 'How long the leader keeps trying to renew before it stops applying (client-go\'s default)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from watch" -l retry-period -d 'Time between two attempts to acquire or renew the Lease (client-go\'s default)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from watch" -l metrics-addr -d 'Serve /metrics, /healthz and /readyz on HOST:PORT (e.g. :9100 or 127.0.0.1:0); the totals are then scraped, not pushed to the Pushgateway' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from watch" -l kubeconfig -d 'Path to the kubeconfig file (overrides KUBECONFIG)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from watch" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from watch" -l contexts -d 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart, rollout undo. See docs/fleet.md' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from watch" -l max-parallel -d 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from watch" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from watch" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from watch" -s n -l namespace -d 'Namespace for this request (default: the context\'s namespace, else `default`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from watch" -l as -d 'User to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from watch" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from watch" -l as-uid -d 'UID to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from watch" -l request-timeout -d 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl\'s discovery)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from watch" -s s -l server -d 'The address of the Kubernetes API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from watch" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from watch" -l certificate-authority -d 'Path to a CA certificate file for the API server' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from watch" -l client-certificate -d 'Path to a client certificate file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from watch" -l client-key -d 'Path to a client key file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from watch" -l tls-server-name -d 'Server name to use for server certificate validation (default: the server URL\'s host)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from watch" -l as-user-extra -d 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from watch" -l username -d 'Username for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from watch" -l password -d 'Password for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from watch" -l kuberc -d 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from watch" -l config -d 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from watch" -l pushgateway -d 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from watch" -s v -l v -l verbose -d 'Log level, as kubectl\'s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from watch" -l prune -d 'Delete a CRD from the cluster when its file is removed (only CRDs this tool applied; deleting a CRD deletes all its custom resources)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from watch" -l force-conflicts -d 'Take over fields another field manager owns instead of reporting the conflict'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from watch" -l leader-elect -d 'Run as one of several replicas: only the holder of a coordination.k8s.io/v1 Lease applies; the others watch the directory and take over when the Lease expires (client-go leader election)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from watch" -l all-contexts -d 'Run in every context of the kubeconfig and merge the results (as --contexts)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from watch" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from watch" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from list" -l kubeconfig -d 'Path to the kubeconfig file (overrides KUBECONFIG)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from list" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from list" -l contexts -d 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart, rollout undo. See docs/fleet.md' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from list" -l max-parallel -d 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from list" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from list" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from list" -s n -l namespace -d 'Namespace for this request (default: the context\'s namespace, else `default`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from list" -l as -d 'User to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from list" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from list" -l as-uid -d 'UID to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from list" -l request-timeout -d 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl\'s discovery)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from list" -s s -l server -d 'The address of the Kubernetes API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from list" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from list" -l certificate-authority -d 'Path to a CA certificate file for the API server' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from list" -l client-certificate -d 'Path to a client certificate file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from list" -l client-key -d 'Path to a client key file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from list" -l tls-server-name -d 'Server name to use for server certificate validation (default: the server URL\'s host)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from list" -l as-user-extra -d 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from list" -l username -d 'Username for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from list" -l password -d 'Password for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from list" -l kuberc -d 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from list" -l config -d 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from list" -l pushgateway -d 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from list" -s v -l v -l verbose -d 'Log level, as kubectl\'s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from list" -l all-contexts -d 'Run in every context of the kubeconfig and merge the results (as --contexts)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from list" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from help" -f -a "sync" -d 'Server-side apply every CRD in DIR once and wait until each is Established and served'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from help" -f -a "watch" -d 'Hot-load: register every CRD in DIR, then follow the directory until SIGINT/SIGTERM'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from help" -f -a "list" -d 'What the directory holds and what the cluster has, side by side'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand crds; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and not __fish_seen_subcommand_from show push reset delete help" -l kubeconfig -d 'Path to the kubeconfig file (overrides KUBECONFIG)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and not __fish_seen_subcommand_from show push reset delete help" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and not __fish_seen_subcommand_from show push reset delete help" -l contexts -d 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart, rollout undo. See docs/fleet.md' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and not __fish_seen_subcommand_from show push reset delete help" -l max-parallel -d 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and not __fish_seen_subcommand_from show push reset delete help" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and not __fish_seen_subcommand_from show push reset delete help" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and not __fish_seen_subcommand_from show push reset delete help" -s n -l namespace -d 'Namespace for this request (default: the context\'s namespace, else `default`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and not __fish_seen_subcommand_from show push reset delete help" -l as -d 'User to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and not __fish_seen_subcommand_from show push reset delete help" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and not __fish_seen_subcommand_from show push reset delete help" -l as-uid -d 'UID to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and not __fish_seen_subcommand_from show push reset delete help" -l request-timeout -d 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl\'s discovery)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and not __fish_seen_subcommand_from show push reset delete help" -s s -l server -d 'The address of the Kubernetes API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and not __fish_seen_subcommand_from show push reset delete help" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and not __fish_seen_subcommand_from show push reset delete help" -l certificate-authority -d 'Path to a CA certificate file for the API server' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and not __fish_seen_subcommand_from show push reset delete help" -l client-certificate -d 'Path to a client certificate file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and not __fish_seen_subcommand_from show push reset delete help" -l client-key -d 'Path to a client key file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and not __fish_seen_subcommand_from show push reset delete help" -l tls-server-name -d 'Server name to use for server certificate validation (default: the server URL\'s host)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and not __fish_seen_subcommand_from show push reset delete help" -l as-user-extra -d 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and not __fish_seen_subcommand_from show push reset delete help" -l username -d 'Username for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and not __fish_seen_subcommand_from show push reset delete help" -l password -d 'Password for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and not __fish_seen_subcommand_from show push reset delete help" -l kuberc -d 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and not __fish_seen_subcommand_from show push reset delete help" -l config -d 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and not __fish_seen_subcommand_from show push reset delete help" -l pushgateway -d 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and not __fish_seen_subcommand_from show push reset delete help" -s v -l v -l verbose -d 'Log level, as kubectl\'s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and not __fish_seen_subcommand_from show push reset delete help" -l all-contexts -d 'Run in every context of the kubeconfig and merge the results (as --contexts)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and not __fish_seen_subcommand_from show push reset delete help" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and not __fish_seen_subcommand_from show push reset delete help" -s h -l help -d 'Print help'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and not __fish_seen_subcommand_from show push reset delete help" -f -a "show" -d 'Print the local totals (MYOPS_HOME/metrics-state.json)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and not __fish_seen_subcommand_from show push reset delete help" -f -a "push" -d 'Push the local totals to the Pushgateway now'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and not __fish_seen_subcommand_from show push reset delete help" -f -a "reset" -d 'Delete the local totals and this MYOPS_HOME\'s group on the Pushgateway (asks unless --yes)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and not __fish_seen_subcommand_from show push reset delete help" -f -a "delete" -d 'Delete this MYOPS_HOME\'s group on the Pushgateway; keep the local totals'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and not __fish_seen_subcommand_from show push reset delete help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from show" -s o -l output -d 'Output format' -r -f -a "table\t'A table'
json\t'JSON'"
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from show" -l kubeconfig -d 'Path to the kubeconfig file (overrides KUBECONFIG)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from show" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from show" -l contexts -d 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart, rollout undo. See docs/fleet.md' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from show" -l max-parallel -d 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from show" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from show" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from show" -s n -l namespace -d 'Namespace for this request (default: the context\'s namespace, else `default`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from show" -l as -d 'User to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from show" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from show" -l as-uid -d 'UID to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from show" -l request-timeout -d 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl\'s discovery)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from show" -s s -l server -d 'The address of the Kubernetes API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from show" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from show" -l certificate-authority -d 'Path to a CA certificate file for the API server' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from show" -l client-certificate -d 'Path to a client certificate file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from show" -l client-key -d 'Path to a client key file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from show" -l tls-server-name -d 'Server name to use for server certificate validation (default: the server URL\'s host)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from show" -l as-user-extra -d 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from show" -l username -d 'Username for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from show" -l password -d 'Password for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from show" -l kuberc -d 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from show" -l config -d 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from show" -l pushgateway -d 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from show" -s v -l v -l verbose -d 'Log level, as kubectl\'s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from show" -l all-contexts -d 'Run in every context of the kubeconfig and merge the results (as --contexts)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from show" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from push" -l kubeconfig -d 'Path to the kubeconfig file (overrides KUBECONFIG)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from push" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from push" -l contexts -d 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart, rollout undo. See docs/fleet.md' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from push" -l max-parallel -d 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from push" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from push" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from push" -s n -l namespace -d 'Namespace for this request (default: the context\'s namespace, else `default`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from push" -l as -d 'User to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from push" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from push" -l as-uid -d 'UID to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from push" -l request-timeout -d 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl\'s discovery)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from push" -s s -l server -d 'The address of the Kubernetes API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from push" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from push" -l certificate-authority -d 'Path to a CA certificate file for the API server' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from push" -l client-certificate -d 'Path to a client certificate file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from push" -l client-key -d 'Path to a client key file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from push" -l tls-server-name -d 'Server name to use for server certificate validation (default: the server URL\'s host)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from push" -l as-user-extra -d 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from push" -l username -d 'Username for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from push" -l password -d 'Password for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from push" -l kuberc -d 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from push" -l config -d 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from push" -l pushgateway -d 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from push" -s v -l v -l verbose -d 'Log level, as kubectl\'s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from push" -l all-contexts -d 'Run in every context of the kubeconfig and merge the results (as --contexts)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from push" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from push" -s h -l help -d 'Print help'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from reset" -l kubeconfig -d 'Path to the kubeconfig file (overrides KUBECONFIG)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from reset" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from reset" -l contexts -d 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart, rollout undo. See docs/fleet.md' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from reset" -l max-parallel -d 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from reset" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from reset" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from reset" -s n -l namespace -d 'Namespace for this request (default: the context\'s namespace, else `default`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from reset" -l as -d 'User to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from reset" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from reset" -l as-uid -d 'UID to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from reset" -l request-timeout -d 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl\'s discovery)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from reset" -s s -l server -d 'The address of the Kubernetes API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from reset" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from reset" -l certificate-authority -d 'Path to a CA certificate file for the API server' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from reset" -l client-certificate -d 'Path to a client certificate file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from reset" -l client-key -d 'Path to a client key file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from reset" -l tls-server-name -d 'Server name to use for server certificate validation (default: the server URL\'s host)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from reset" -l as-user-extra -d 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from reset" -l username -d 'Username for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from reset" -l password -d 'Password for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from reset" -l kuberc -d 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from reset" -l config -d 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from reset" -l pushgateway -d 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from reset" -s v -l v -l verbose -d 'Log level, as kubectl\'s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from reset" -l yes -d 'Do not ask'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from reset" -l all-contexts -d 'Run in every context of the kubeconfig and merge the results (as --contexts)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from reset" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from reset" -s h -l help -d 'Print help'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from delete" -l kubeconfig -d 'Path to the kubeconfig file (overrides KUBECONFIG)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from delete" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from delete" -l contexts -d 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart, rollout undo. See docs/fleet.md' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from delete" -l max-parallel -d 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from delete" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from delete" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from delete" -s n -l namespace -d 'Namespace for this request (default: the context\'s namespace, else `default`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from delete" -l as -d 'User to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from delete" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from delete" -l as-uid -d 'UID to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from delete" -l request-timeout -d 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl\'s discovery)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from delete" -s s -l server -d 'The address of the Kubernetes API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from delete" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from delete" -l certificate-authority -d 'Path to a CA certificate file for the API server' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from delete" -l client-certificate -d 'Path to a client certificate file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from delete" -l client-key -d 'Path to a client key file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from delete" -l tls-server-name -d 'Server name to use for server certificate validation (default: the server URL\'s host)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from delete" -l as-user-extra -d 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from delete" -l username -d 'Username for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from delete" -l password -d 'Password for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from delete" -l kuberc -d 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from delete" -l config -d 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from delete" -l pushgateway -d 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from delete" -s v -l v -l verbose -d 'Log level, as kubectl\'s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from delete" -l all-contexts -d 'Run in every context of the kubeconfig and merge the results (as --contexts)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from delete" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from delete" -s h -l help -d 'Print help'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from help" -f -a "show" -d 'Print the local totals (MYOPS_HOME/metrics-state.json)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from help" -f -a "push" -d 'Push the local totals to the Pushgateway now'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from help" -f -a "reset" -d 'Delete the local totals and this MYOPS_HOME\'s group on the Pushgateway (asks unless --yes)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from help" -f -a "delete" -d 'Delete this MYOPS_HOME\'s group on the Pushgateway; keep the local totals'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand metrics; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and not __fish_seen_subcommand_from schema validate help" -l kubeconfig -d 'Path to the kubeconfig file (overrides KUBECONFIG)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and not __fish_seen_subcommand_from schema validate help" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and not __fish_seen_subcommand_from schema validate help" -l contexts -d 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart, rollout undo. See docs/fleet.md' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and not __fish_seen_subcommand_from schema validate help" -l max-parallel -d 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and not __fish_seen_subcommand_from schema validate help" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and not __fish_seen_subcommand_from schema validate help" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and not __fish_seen_subcommand_from schema validate help" -s n -l namespace -d 'Namespace for this request (default: the context\'s namespace, else `default`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and not __fish_seen_subcommand_from schema validate help" -l as -d 'User to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and not __fish_seen_subcommand_from schema validate help" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and not __fish_seen_subcommand_from schema validate help" -l as-uid -d 'UID to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and not __fish_seen_subcommand_from schema validate help" -l request-timeout -d 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl\'s discovery)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and not __fish_seen_subcommand_from schema validate help" -s s -l server -d 'The address of the Kubernetes API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and not __fish_seen_subcommand_from schema validate help" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and not __fish_seen_subcommand_from schema validate help" -l certificate-authority -d 'Path to a CA certificate file for the API server' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and not __fish_seen_subcommand_from schema validate help" -l client-certificate -d 'Path to a client certificate file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and not __fish_seen_subcommand_from schema validate help" -l client-key -d 'Path to a client key file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and not __fish_seen_subcommand_from schema validate help" -l tls-server-name -d 'Server name to use for server certificate validation (default: the server URL\'s host)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and not __fish_seen_subcommand_from schema validate help" -l as-user-extra -d 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and not __fish_seen_subcommand_from schema validate help" -l username -d 'Username for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and not __fish_seen_subcommand_from schema validate help" -l password -d 'Password for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and not __fish_seen_subcommand_from schema validate help" -l kuberc -d 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and not __fish_seen_subcommand_from schema validate help" -l config -d 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and not __fish_seen_subcommand_from schema validate help" -l pushgateway -d 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and not __fish_seen_subcommand_from schema validate help" -s v -l v -l verbose -d 'Log level, as kubectl\'s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and not __fish_seen_subcommand_from schema validate help" -l all-contexts -d 'Run in every context of the kubeconfig and merge the results (as --contexts)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and not __fish_seen_subcommand_from schema validate help" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and not __fish_seen_subcommand_from schema validate help" -s h -l help -d 'Print help'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and not __fish_seen_subcommand_from schema validate help" -f -a "schema" -d 'Print the JSON Schema of plugin.yaml'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and not __fish_seen_subcommand_from schema validate help" -f -a "validate" -d 'Check a plugin.yaml (default: the one the lookup order finds) and print what it allows'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and not __fish_seen_subcommand_from schema validate help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from schema" -l kubeconfig -d 'Path to the kubeconfig file (overrides KUBECONFIG)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from schema" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from schema" -l contexts -d 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart, rollout undo. See docs/fleet.md' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from schema" -l max-parallel -d 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from schema" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from schema" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from schema" -s n -l namespace -d 'Namespace for this request (default: the context\'s namespace, else `default`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from schema" -l as -d 'User to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from schema" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from schema" -l as-uid -d 'UID to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from schema" -l request-timeout -d 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl\'s discovery)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from schema" -s s -l server -d 'The address of the Kubernetes API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from schema" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from schema" -l certificate-authority -d 'Path to a CA certificate file for the API server' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from schema" -l client-certificate -d 'Path to a client certificate file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from schema" -l client-key -d 'Path to a client key file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from schema" -l tls-server-name -d 'Server name to use for server certificate validation (default: the server URL\'s host)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from schema" -l as-user-extra -d 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from schema" -l username -d 'Username for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from schema" -l password -d 'Password for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from schema" -l kuberc -d 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from schema" -l config -d 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from schema" -l pushgateway -d 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from schema" -s v -l v -l verbose -d 'Log level, as kubectl\'s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from schema" -l all-contexts -d 'Run in every context of the kubeconfig and merge the results (as --contexts)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from schema" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from schema" -s h -l help -d 'Print help'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from validate" -l kubeconfig -d 'Path to the kubeconfig file (overrides KUBECONFIG)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from validate" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from validate" -l contexts -d 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart, rollout undo. See docs/fleet.md' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from validate" -l max-parallel -d 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from validate" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from validate" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from validate" -s n -l namespace -d 'Namespace for this request (default: the context\'s namespace, else `default`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from validate" -l as -d 'User to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from validate" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from validate" -l as-uid -d 'UID to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from validate" -l request-timeout -d 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl\'s discovery)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from validate" -s s -l server -d 'The address of the Kubernetes API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from validate" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from validate" -l certificate-authority -d 'Path to a CA certificate file for the API server' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from validate" -l client-certificate -d 'Path to a client certificate file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from validate" -l client-key -d 'Path to a client key file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from validate" -l tls-server-name -d 'Server name to use for server certificate validation (default: the server URL\'s host)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from validate" -l as-user-extra -d 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from validate" -l username -d 'Username for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from validate" -l password -d 'Password for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from validate" -l kuberc -d 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from validate" -l config -d 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from validate" -l pushgateway -d 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from validate" -s v -l v -l verbose -d 'Log level, as kubectl\'s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from validate" -l all-contexts -d 'Run in every context of the kubeconfig and merge the results (as --contexts)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from validate" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from validate" -s h -l help -d 'Print help'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "schema" -d 'Print the JSON Schema of plugin.yaml'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "validate" -d 'Check a plugin.yaml (default: the one the lookup order finds) and print what it allows'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and not __fish_seen_subcommand_from can-i matrix whoami help" -l kubeconfig -d 'Path to the kubeconfig file (overrides KUBECONFIG)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and not __fish_seen_subcommand_from can-i matrix whoami help" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and not __fish_seen_subcommand_from can-i matrix whoami help" -l contexts -d 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart, rollout undo. See docs/fleet.md' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and not __fish_seen_subcommand_from can-i matrix whoami help" -l max-parallel -d 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and not __fish_seen_subcommand_from can-i matrix whoami help" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and not __fish_seen_subcommand_from can-i matrix whoami help" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and not __fish_seen_subcommand_from can-i matrix whoami help" -s n -l namespace -d 'Namespace for this request (default: the context\'s namespace, else `default`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and not __fish_seen_subcommand_from can-i matrix whoami help" -l as -d 'User to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and not __fish_seen_subcommand_from can-i matrix whoami help" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and not __fish_seen_subcommand_from can-i matrix whoami help" -l as-uid -d 'UID to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and not __fish_seen_subcommand_from can-i matrix whoami help" -l request-timeout -d 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl\'s discovery)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and not __fish_seen_subcommand_from can-i matrix whoami help" -s s -l server -d 'The address of the Kubernetes API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and not __fish_seen_subcommand_from can-i matrix whoami help" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and not __fish_seen_subcommand_from can-i matrix whoami help" -l certificate-authority -d 'Path to a CA certificate file for the API server' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and not __fish_seen_subcommand_from can-i matrix whoami help" -l client-certificate -d 'Path to a client certificate file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and not __fish_seen_subcommand_from can-i matrix whoami help" -l client-key -d 'Path to a client key file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and not __fish_seen_subcommand_from can-i matrix whoami help" -l tls-server-name -d 'Server name to use for server certificate validation (default: the server URL\'s host)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and not __fish_seen_subcommand_from can-i matrix whoami help" -l as-user-extra -d 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and not __fish_seen_subcommand_from can-i matrix whoami help" -l username -d 'Username for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and not __fish_seen_subcommand_from can-i matrix whoami help" -l password -d 'Password for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and not __fish_seen_subcommand_from can-i matrix whoami help" -l kuberc -d 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and not __fish_seen_subcommand_from can-i matrix whoami help" -l config -d 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and not __fish_seen_subcommand_from can-i matrix whoami help" -l pushgateway -d 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and not __fish_seen_subcommand_from can-i matrix whoami help" -s v -l v -l verbose -d 'Log level, as kubectl\'s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and not __fish_seen_subcommand_from can-i matrix whoami help" -l all-contexts -d 'Run in every context of the kubeconfig and merge the results (as --contexts)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and not __fish_seen_subcommand_from can-i matrix whoami help" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and not __fish_seen_subcommand_from can-i matrix whoami help" -s h -l help -d 'Print help'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and not __fish_seen_subcommand_from can-i matrix whoami help" -f -a "can-i" -d 'Check whether an action is allowed: prints `yes` or `no[ - REASON]`; exit 0 yes, 3 no'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and not __fish_seen_subcommand_from can-i matrix whoami help" -f -a "matrix" -d 'A table of plugin.yaml resources × the RBAC verbs of the plugin\'s verbs for the caller'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and not __fish_seen_subcommand_from can-i matrix whoami help" -f -a "whoami" -d 'Who the API server says you are (SelfSubjectReview), as `kubectl auth whoami`'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and not __fish_seen_subcommand_from can-i matrix whoami help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from can-i" -l subresource -d 'A subresource, e.g. `status`, `scale`, `log`' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from can-i" -l kubeconfig -d 'Path to the kubeconfig file (overrides KUBECONFIG)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from can-i" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from can-i" -l contexts -d 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart, rollout undo. See docs/fleet.md' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from can-i" -l max-parallel -d 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from can-i" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from can-i" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from can-i" -s n -l namespace -d 'Namespace for this request (default: the context\'s namespace, else `default`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from can-i" -l as -d 'User to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from can-i" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from can-i" -l as-uid -d 'UID to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from can-i" -l request-timeout -d 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl\'s discovery)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from can-i" -s s -l server -d 'The address of the Kubernetes API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from can-i" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from can-i" -l certificate-authority -d 'Path to a CA certificate file for the API server' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from can-i" -l client-certificate -d 'Path to a client certificate file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from can-i" -l client-key -d 'Path to a client key file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from can-i" -l tls-server-name -d 'Server name to use for server certificate validation (default: the server URL\'s host)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from can-i" -l as-user-extra -d 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from can-i" -l username -d 'Username for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from can-i" -l password -d 'Password for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from can-i" -l kuberc -d 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from can-i" -l config -d 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from can-i" -l pushgateway -d 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from can-i" -s v -l v -l verbose -d 'Log level, as kubectl\'s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from can-i" -s A -l all-namespaces -d 'Ask for all namespaces (cluster-wide)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from can-i" -s q -l quiet -d 'No output, only the exit code'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from can-i" -l list -d 'Print the rules you have in the namespace that plugin.yaml lets this plugin use'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from can-i" -l no-headers -d 'With --list: omit the table header (without --list: a usage error, as kubectl)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from can-i" -l all-contexts -d 'Run in every context of the kubeconfig and merge the results (as --contexts)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from can-i" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from can-i" -s h -l help -d 'Print help'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from matrix" -l kubeconfig -d 'Path to the kubeconfig file (overrides KUBECONFIG)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from matrix" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from matrix" -l contexts -d 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart, rollout undo. See docs/fleet.md' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from matrix" -l max-parallel -d 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from matrix" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from matrix" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from matrix" -s n -l namespace -d 'Namespace for this request (default: the context\'s namespace, else `default`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from matrix" -l as -d 'User to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from matrix" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from matrix" -l as-uid -d 'UID to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from matrix" -l request-timeout -d 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl\'s discovery)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from matrix" -s s -l server -d 'The address of the Kubernetes API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from matrix" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from matrix" -l certificate-authority -d 'Path to a CA certificate file for the API server' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from matrix" -l client-certificate -d 'Path to a client certificate file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from matrix" -l client-key -d 'Path to a client key file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from matrix" -l tls-server-name -d 'Server name to use for server certificate validation (default: the server URL\'s host)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from matrix" -l as-user-extra -d 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from matrix" -l username -d 'Username for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from matrix" -l password -d 'Password for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from matrix" -l kuberc -d 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from matrix" -l config -d 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from matrix" -l pushgateway -d 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from matrix" -s v -l v -l verbose -d 'Log level, as kubectl\'s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from matrix" -s A -l all-namespaces -d 'Ask for all namespaces (cluster-wide)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from matrix" -l no-headers -d 'Omit the table header'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from matrix" -l all-contexts -d 'Run in every context of the kubeconfig and merge the results (as --contexts)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from matrix" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from matrix" -s h -l help -d 'Print help'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from whoami" -s o -l output -d 'Output format: json or yaml (default: an ATTRIBUTE/VALUE table)' -r -f -a "json\t'The SelfSubjectReview as JSON (kubectl\'s field order, 4-space indent)'
yaml\t'The SelfSubjectReview as YAML (sorted keys, as kubectl)'"
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from whoami" -l kubeconfig -d 'Path to the kubeconfig file (overrides KUBECONFIG)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from whoami" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from whoami" -l contexts -d 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart, rollout undo. See docs/fleet.md' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from whoami" -l max-parallel -d 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from whoami" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from whoami" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from whoami" -s n -l namespace -d 'Namespace for this request (default: the context\'s namespace, else `default`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from whoami" -l as -d 'User to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from whoami" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from whoami" -l as-uid -d 'UID to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from whoami" -l request-timeout -d 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl\'s discovery)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from whoami" -s s -l server -d 'The address of the Kubernetes API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from whoami" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from whoami" -l certificate-authority -d 'Path to a CA certificate file for the API server' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from whoami" -l client-certificate -d 'Path to a client certificate file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from whoami" -l client-key -d 'Path to a client key file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from whoami" -l tls-server-name -d 'Server name to use for server certificate validation (default: the server URL\'s host)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from whoami" -l as-user-extra -d 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from whoami" -l username -d 'Username for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from whoami" -l password -d 'Password for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from whoami" -l kuberc -d 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from whoami" -l config -d 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from whoami" -l pushgateway -d 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from whoami" -s v -l v -l verbose -d 'Log level, as kubectl\'s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from whoami" -l all-contexts -d 'Run in every context of the kubeconfig and merge the results (as --contexts)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from whoami" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from whoami" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "can-i" -d 'Check whether an action is allowed: prints `yes` or `no[ - REASON]`; exit 0 yes, 3 no'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "matrix" -d 'A table of plugin.yaml resources × the RBAC verbs of the plugin\'s verbs for the caller'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "whoami" -d 'Who the API server says you are (SelfSubjectReview), as `kubectl auth whoami`'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand version" -l kubeconfig -d 'Path to the kubeconfig file (overrides KUBECONFIG)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand version" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand version" -l contexts -d 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart, rollout undo. See docs/fleet.md' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand version" -l max-parallel -d 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand version" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand version" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand version" -s n -l namespace -d 'Namespace for this request (default: the context\'s namespace, else `default`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand version" -l as -d 'User to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand version" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand version" -l as-uid -d 'UID to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand version" -l request-timeout -d 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl\'s discovery)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand version" -s s -l server -d 'The address of the Kubernetes API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand version" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand version" -l certificate-authority -d 'Path to a CA certificate file for the API server' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand version" -l client-certificate -d 'Path to a client certificate file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand version" -l client-key -d 'Path to a client key file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand version" -l tls-server-name -d 'Server name to use for server certificate validation (default: the server URL\'s host)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand version" -l as-user-extra -d 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand version" -l username -d 'Username for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand version" -l password -d 'Password for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand version" -l kuberc -d 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand version" -l config -d 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand version" -l pushgateway -d 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand version" -s v -l v -l verbose -d 'Log level, as kubectl\'s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand version" -l all-contexts -d 'Run in every context of the kubeconfig and merge the results (as --contexts)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand version" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand version" -s h -l help -d 'Print help'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand completion" -l kubeconfig -d 'Path to the kubeconfig file (overrides KUBECONFIG)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand completion" -l context -d 'The kubeconfig context to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand completion" -l contexts -d 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, scale, label, annotate, rollout restart, rollout undo. See docs/fleet.md' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand completion" -l max-parallel -d 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand completion" -l cluster -d 'The kubeconfig cluster to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand completion" -l user -d 'The kubeconfig user to use' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand completion" -s n -l namespace -d 'Namespace for this request (default: the context\'s namespace, else `default`)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand completion" -l as -d 'User to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand completion" -l as-group -d 'Group to impersonate (repeatable)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand completion" -l as-uid -d 'UID to impersonate' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand completion" -l request-timeout -d 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl\'s discovery)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand completion" -s s -l server -d 'The address of the Kubernetes API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand completion" -l token -d 'Bearer token for authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand completion" -l certificate-authority -d 'Path to a CA certificate file for the API server' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand completion" -l client-certificate -d 'Path to a client certificate file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand completion" -l client-key -d 'Path to a client key file for TLS (replaces the kubeconfig user\'s)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand completion" -l tls-server-name -d 'Server name to use for server certificate validation (default: the server URL\'s host)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand completion" -l as-user-extra -d 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand completion" -l username -d 'Username for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand completion" -l password -d 'Password for basic authentication to the API server' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand completion" -l kuberc -d 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand completion" -l config -d 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)' -r -F
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand completion" -l pushgateway -d 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand completion" -s v -l v -l verbose -d 'Log level, as kubectl\'s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1' -r
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand completion" -l all-contexts -d 'Run in every context of the kubeconfig and merge the results (as --contexts)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand completion" -l insecure-skip-tls-verify -d 'Do not verify the server\'s certificate (insecure)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand completion" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand help; and not __fish_seen_subcommand_from get patch apply delete edit scale label annotate rollout undelete rollback drift changelog crds metrics config auth version completion help" -f -a "get" -d 'Display one or many resources, after a SelfSubjectAccessReview'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand help; and not __fish_seen_subcommand_from get patch apply delete edit scale label annotate rollout undelete rollback drift changelog crds metrics config auth version completion help" -f -a "patch" -d 'Update fields of one object, after a SelfSubjectAccessReview; every attempt is journaled'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand help; and not __fish_seen_subcommand_from get patch apply delete edit scale label annotate rollout undelete rollback drift changelog crds metrics config auth version completion help" -f -a "apply" -d 'Server-side apply manifests (files, directories, stdin); each object\'s change is journaled, so `rollback` can undo it'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand help; and not __fish_seen_subcommand_from get patch apply delete edit scale label annotate rollout undelete rollback drift changelog crds metrics config auth version completion help" -f -a "delete" -d 'Delete objects, after a SelfSubjectAccessReview; each object\'s whole state is journaled first, so `undelete` can create it again'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand help; and not __fish_seen_subcommand_from get patch apply delete edit scale label annotate rollout undelete rollback drift changelog crds metrics config auth version completion help" -f -a "edit" -d 'Edit one object in your editor; the change is sent as a patch, journaled, reversible'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand help; and not __fish_seen_subcommand_from get patch apply delete edit scale label annotate rollout undelete rollback drift changelog crds metrics config auth version completion help" -f -a "scale" -d 'Set a new size for objects through their scale subresource; each change is journaled and can be rolled back'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand help; and not __fish_seen_subcommand_from get patch apply delete edit scale label annotate rollout undelete rollback drift changelog crds metrics config auth version completion help" -f -a "label" -d 'Update the labels of objects; each change is journaled and can be rolled back'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand help; and not __fish_seen_subcommand_from get patch apply delete edit scale label annotate rollout undelete rollback drift changelog crds metrics config auth version completion help" -f -a "annotate" -d 'Update the annotations of objects; each change is journaled and can be rolled back'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand help; and not __fish_seen_subcommand_from get patch apply delete edit scale label annotate rollout undelete rollback drift changelog crds metrics config auth version completion help" -f -a "rollout" -d 'Manage the rollout of Deployments, StatefulSets and DaemonSets: restart, undo (both journaled and reversible), history, status'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand help; and not __fish_seen_subcommand_from get patch apply delete edit scale label annotate rollout undelete rollback drift changelog crds metrics config auth version completion help" -f -a "undelete" -d 'Create a deleted object again from its journaled before-state'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand help; and not __fish_seen_subcommand_from get patch apply delete edit scale label annotate rollout undelete rollback drift changelog crds metrics config auth version completion help" -f -a "rollback" -d 'Undo a journaled change: restore the fields it touched from its before-state'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand help; and not __fish_seen_subcommand_from get patch apply delete edit scale label annotate rollout undelete rollback drift changelog crds metrics config auth version completion help" -f -a "drift" -d 'Objects changed since the change log last changed them: the fields and who owns them now'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand help; and not __fish_seen_subcommand_from get patch apply delete edit scale label annotate rollout undelete rollback drift changelog crds metrics config auth version completion help" -f -a "changelog" -d 'The change log of every mutation attempt'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand help; and not __fish_seen_subcommand_from get patch apply delete edit scale label annotate rollout undelete rollback drift changelog crds metrics config auth version completion help" -f -a "crds" -d 'Register CustomResourceDefinitions from a directory on the cluster'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand help; and not __fish_seen_subcommand_from get patch apply delete edit scale label annotate rollout undelete rollback drift changelog crds metrics config auth version completion help" -f -a "metrics" -d 'The local cumulative metric totals: show, push now, reset'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand help; and not __fish_seen_subcommand_from get patch apply delete edit scale label annotate rollout undelete rollback drift changelog crds metrics config auth version completion help" -f -a "config" -d 'Inspect and check plugin.yaml'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand help; and not __fish_seen_subcommand_from get patch apply delete edit scale label annotate rollout undelete rollback drift changelog crds metrics config auth version completion help" -f -a "auth" -d 'What RBAC lets the caller do: `can-i VERB TYPE [NAME]`, `can-i --list`, `matrix`, `whoami`'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand help; and not __fish_seen_subcommand_from get patch apply delete edit scale label annotate rollout undelete rollback drift changelog crds metrics config auth version completion help" -f -a "version" -d 'Print the plugin version, git commit and the kube-rs / Kubernetes API versions it targets'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand help; and not __fish_seen_subcommand_from get patch apply delete edit scale label annotate rollout undelete rollback drift changelog crds metrics config auth version completion help" -f -a "completion" -d 'Print a shell completion script for kubectl-myops (bash, zsh, fish or powershell)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand help; and not __fish_seen_subcommand_from get patch apply delete edit scale label annotate rollout undelete rollback drift changelog crds metrics config auth version completion help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand help; and __fish_seen_subcommand_from rollout" -f -a "restart" -d 'Restart the pods of a rollout: the pod template gets the annotation `kubectl.kubernetes.io/restartedAt` (journaled; `rollback ID` undoes it)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand help; and __fish_seen_subcommand_from rollout" -f -a "undo" -d 'Roll back to a previous revision (journaled; `rollback ID` undoes the undo)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand help; and __fish_seen_subcommand_from rollout" -f -a "history" -d 'The revisions of a rollout, or one revision\'s pod template (read-only)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand help; and __fish_seen_subcommand_from rollout" -f -a "status" -d 'The status of a rollout, followed until it is done unless --watch=false (read-only)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand help; and __fish_seen_subcommand_from changelog" -f -a "list" -d 'One line per entry: id, time, user, operation, object, result'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand help; and __fish_seen_subcommand_from changelog" -f -a "diff" -d 'One change as a field-level diff, before → after (Secret values masked)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand help; and __fish_seen_subcommand_from changelog" -f -a "why" -d 'Which journaled changes touched a field of an object, newest first'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand help; and __fish_seen_subcommand_from changelog" -f -a "show" -d 'One entry, as pretty JSON'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand help; and __fish_seen_subcommand_from changelog" -f -a "verify" -d 'Check the hash chain across the retained files: exit 0 when it holds, 1 naming the first break'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand help; and __fish_seen_subcommand_from changelog" -f -a "reconcile" -d 'Find the real outcome of entries whose outcome is unknown (an intent without an outcome record) by reading the live object, and record it; never rolls back or retries'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand help; and __fish_seen_subcommand_from crds" -f -a "sync" -d 'Server-side apply every CRD in DIR once and wait until each is Established and served'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand help; and __fish_seen_subcommand_from crds" -f -a "watch" -d 'Hot-load: register every CRD in DIR, then follow the directory until SIGINT/SIGTERM'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand help; and __fish_seen_subcommand_from crds" -f -a "list" -d 'What the directory holds and what the cluster has, side by side'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand help; and __fish_seen_subcommand_from metrics" -f -a "show" -d 'Print the local totals (MYOPS_HOME/metrics-state.json)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand help; and __fish_seen_subcommand_from metrics" -f -a "push" -d 'Push the local totals to the Pushgateway now'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand help; and __fish_seen_subcommand_from metrics" -f -a "reset" -d 'Delete the local totals and this MYOPS_HOME\'s group on the Pushgateway (asks unless --yes)'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand help; and __fish_seen_subcommand_from metrics" -f -a "delete" -d 'Delete this MYOPS_HOME\'s group on the Pushgateway; keep the local totals'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "schema" -d 'Print the JSON Schema of plugin.yaml'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "validate" -d 'Check a plugin.yaml (default: the one the lookup order finds) and print what it allows'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand help; and __fish_seen_subcommand_from auth" -f -a "can-i" -d 'Check whether an action is allowed: prints `yes` or `no[ - REASON]`; exit 0 yes, 3 no'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand help; and __fish_seen_subcommand_from auth" -f -a "matrix" -d 'A table of plugin.yaml resources × the RBAC verbs of the plugin\'s verbs for the caller'
complete -c kubectl-myops -n "__fish_kubectl_myops_using_subcommand help; and __fish_seen_subcommand_from auth" -f -a "whoami" -d 'Who the API server says you are (SelfSubjectReview), as `kubectl auth whoami`'
