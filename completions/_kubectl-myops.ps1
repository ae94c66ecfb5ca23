
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'kubectl-myops' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'kubectl-myops'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'kubectl-myops' {
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (overrides KUBECONFIG)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--contexts', '--contexts', [CompletionResultType]::ParameterName, 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, rollout restart, rollout undo. See docs/fleet.md')
            [CompletionResult]::new('--max-parallel', '--max-parallel', [CompletionResultType]::ParameterName, 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl''s discovery)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a CA certificate file for the API server')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation (default: the server URL''s host)')
            [CompletionResult]::new('--as-user-extra', '--as-user-extra', [CompletionResultType]::ParameterName, 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Username for basic authentication to the API server')
            [CompletionResult]::new('--password', '--password', [CompletionResultType]::ParameterName, 'Password for basic authentication to the API server')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)')
            [CompletionResult]::new('--pushgateway', '--pushgateway', [CompletionResultType]::ParameterName, 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig and merge the results (as --contexts)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('get', 'get', [CompletionResultType]::ParameterValue, 'Display one or many resources, after a SelfSubjectAccessReview')
            [CompletionResult]::new('patch', 'patch', [CompletionResultType]::ParameterValue, 'Update fields of one object, after a SelfSubjectAccessReview; every attempt is journaled')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete objects, after a SelfSubjectAccessReview; each object''s whole state is journaled first, so `undelete` can create it again')
            [CompletionResult]::new('rollout', 'rollout', [CompletionResultType]::ParameterValue, 'Manage the rollout of Deployments, StatefulSets and DaemonSets: restart, undo (both journaled and reversible), history, status')
            [CompletionResult]::new('undelete', 'undelete', [CompletionResultType]::ParameterValue, 'Create a deleted object again from its journaled before-state')
            [CompletionResult]::new('rollback', 'rollback', [CompletionResultType]::ParameterValue, 'Undo a journaled change: restore the fields it touched from its before-state')
            [CompletionResult]::new('drift', 'drift', [CompletionResultType]::ParameterValue, 'Objects changed since the change log last changed them: the fields and who owns them now')
            [CompletionResult]::new('changelog', 'changelog', [CompletionResultType]::ParameterValue, 'The change log of every mutation attempt')
            [CompletionResult]::new('crds', 'crds', [CompletionResultType]::ParameterValue, 'Register CustomResourceDefinitions from a directory on the cluster')
            [CompletionResult]::new('metrics', 'metrics', [CompletionResultType]::ParameterValue, 'The local cumulative metric totals: show, push now, reset')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Inspect and check plugin.yaml')
            [CompletionResult]::new('auth', 'auth', [CompletionResultType]::ParameterValue, 'What RBAC lets the caller do: `can-i VERB TYPE [NAME]`, `can-i --list`, `matrix`, `whoami`')
            [CompletionResult]::new('version', 'version', [CompletionResultType]::ParameterValue, 'Print the plugin version, git commit and the kube-rs / Kubernetes API versions it targets')
            [CompletionResult]::new('completion', 'completion', [CompletionResultType]::ParameterValue, 'Print a shell completion script for kubectl-myops (bash, zsh, fish or powershell)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-myops;get' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: table, wide, json, yaml, kyaml, name, jsonpath=TEMPLATE, jsonpath-file=PATH, jsonpath-as-json=TEMPLATE, custom-columns=HEADER:PATH[,…] or custom-columns-file=PATH')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: table, wide, json, yaml, kyaml, name, jsonpath=TEMPLATE, jsonpath-file=PATH, jsonpath-as-json=TEMPLATE, custom-columns=HEADER:PATH[,…] or custom-columns-file=PATH')
            [CompletionResult]::new('--allow-missing-template-keys', '--allow-missing-template-keys', [CompletionResultType]::ParameterName, 'With a jsonpath output: a key missing from an object prints nothing instead of failing (kubectl''s default, true)')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Label selector, e.g. `app=web,tier!=cache`')
            [CompletionResult]::new('--selector', '--selector', [CompletionResultType]::ParameterName, 'Label selector, e.g. `app=web,tier!=cache`')
            [CompletionResult]::new('--field-selector', '--field-selector', [CompletionResultType]::ParameterName, 'Field selector, e.g. `status.phase=Running`')
            [CompletionResult]::new('--chunk-size', '--chunk-size', [CompletionResultType]::ParameterName, 'Objects per list page (0 = no paging)')
            [CompletionResult]::new('-L', '-L ', [CompletionResultType]::ParameterName, 'Label keys shown as columns of the table (repeatable, or comma-separated), as kubectl''s `-L`: the header is the key''s last `/` segment upper-cased')
            [CompletionResult]::new('--label-columns', '--label-columns', [CompletionResultType]::ParameterName, 'Label keys shown as columns of the table (repeatable, or comma-separated), as kubectl''s `-L`: the header is the key''s last `/` segment upper-cased')
            [CompletionResult]::new('--sort-by', '--sort-by', [CompletionResultType]::ParameterName, 'Sort the objects by a JSONPath expression, e.g. `.metadata.name` or `{.status.startTime}` (numbers numerically, strings in natural order, objects without the field first)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (overrides KUBECONFIG)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--contexts', '--contexts', [CompletionResultType]::ParameterName, 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, rollout restart, rollout undo. See docs/fleet.md')
            [CompletionResult]::new('--max-parallel', '--max-parallel', [CompletionResultType]::ParameterName, 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl''s discovery)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a CA certificate file for the API server')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation (default: the server URL''s host)')
            [CompletionResult]::new('--as-user-extra', '--as-user-extra', [CompletionResultType]::ParameterName, 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Username for basic authentication to the API server')
            [CompletionResult]::new('--password', '--password', [CompletionResultType]::ParameterName, 'Password for basic authentication to the API server')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)')
            [CompletionResult]::new('--pushgateway', '--pushgateway', [CompletionResultType]::ParameterName, 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'List across all namespaces (needs scope `cluster` in plugin.yaml)')
            [CompletionResult]::new('--all-namespaces', '--all-namespaces', [CompletionResultType]::ParameterName, 'List across all namespaces (needs scope `cluster` in plugin.yaml)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Omit the table header')
            [CompletionResult]::new('--show-labels', '--show-labels', [CompletionResultType]::ParameterName, 'Add a LABELS column to the table')
            [CompletionResult]::new('--ignore-not-found', '--ignore-not-found', [CompletionResultType]::ParameterName, 'A missing named object is not an error (exit 0)')
            [CompletionResult]::new('--show-kind', '--show-kind', [CompletionResultType]::ParameterName, 'Prefix names with `kind.group/` in the table''s NAME column')
            [CompletionResult]::new('--show-managed-fields', '--show-managed-fields', [CompletionResultType]::ParameterName, 'Keep `metadata.managedFields` in `-o json|yaml` (dropped by default, as kubectl)')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'After listing/getting the requested object, watch for changes')
            [CompletionResult]::new('--watch', '--watch', [CompletionResultType]::ParameterName, 'After listing/getting the requested object, watch for changes')
            [CompletionResult]::new('--watch-only', '--watch-only', [CompletionResultType]::ParameterName, 'Watch for changes to the requested object(s), without listing/getting first')
            [CompletionResult]::new('--output-watch-events', '--output-watch-events', [CompletionResultType]::ParameterName, 'Output watch event objects when --watch or --watch-only is used. Existing objects are output as initial ADDED events')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig and merge the results (as --contexts)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'kubectl-myops;patch' {
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Patch type')
            [CompletionResult]::new('-p', '-p', [CompletionResultType]::ParameterName, 'The patch, as JSON or YAML')
            [CompletionResult]::new('--patch', '--patch', [CompletionResultType]::ParameterName, 'The patch, as JSON or YAML')
            [CompletionResult]::new('--patch-file', '--patch-file', [CompletionResultType]::ParameterName, 'A file holding the patch (JSON or YAML)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Dry run: none (default), server, or client; a bare --dry-run is client (deprecated, as in kubectl)')
            [CompletionResult]::new('--subresource', '--subresource', [CompletionResultType]::ParameterName, 'Patch a subresource (status or scale)')
            [CompletionResult]::new('--field-manager', '--field-manager', [CompletionResultType]::ParameterName, 'Field manager recorded by the server (at most 128 bytes, printable; empty = the default)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Print the patched object instead of the one-line result: json, yaml, name, jsonpath=TEMPLATE, jsonpath-file=PATH or jsonpath-as-json=TEMPLATE')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Print the patched object instead of the one-line result: json, yaml, name, jsonpath=TEMPLATE, jsonpath-file=PATH or jsonpath-as-json=TEMPLATE')
            [CompletionResult]::new('--canary', '--canary', [CompletionResultType]::ParameterName, 'With --contexts/--all-contexts: how many contexts the first (canary) wave patches; the rest follow only if every one of them succeeded. (default 1)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (overrides KUBECONFIG)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--contexts', '--contexts', [CompletionResultType]::ParameterName, 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, rollout restart, rollout undo. See docs/fleet.md')
            [CompletionResult]::new('--max-parallel', '--max-parallel', [CompletionResultType]::ParameterName, 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl''s discovery)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a CA certificate file for the API server')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation (default: the server URL''s host)')
            [CompletionResult]::new('--as-user-extra', '--as-user-extra', [CompletionResultType]::ParameterName, 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Username for basic authentication to the API server')
            [CompletionResult]::new('--password', '--password', [CompletionResultType]::ParameterName, 'Password for basic authentication to the API server')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)')
            [CompletionResult]::new('--pushgateway', '--pushgateway', [CompletionResultType]::ParameterName, 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--diff', '--diff', [CompletionResultType]::ParameterName, 'Show the change by field path (always on with --dry-run)')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig and merge the results (as --contexts)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'kubectl-myops;delete' {
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Label selector, e.g. `app=web,tier!=cache`')
            [CompletionResult]::new('--selector', '--selector', [CompletionResultType]::ParameterName, 'Label selector, e.g. `app=web,tier!=cache`')
            [CompletionResult]::new('--field-selector', '--field-selector', [CompletionResultType]::ParameterName, 'Field selector, e.g. `metadata.name=web`')
            [CompletionResult]::new('--cascade', '--cascade', [CompletionResultType]::ParameterName, 'How dependents are deleted: background (default), foreground or orphan (the `propagationPolicy` of the DELETE)')
            [CompletionResult]::new('--grace-period', '--grace-period', [CompletionResultType]::ParameterName, 'Seconds the object is given to terminate gracefully (-1: the type''s default; 0 only with --force in kubectl, here as 1 with --now)')
            [CompletionResult]::new('--wait', '--wait', [CompletionResultType]::ParameterName, 'Wait until the objects are gone (finalizers cleared) before returning (default true)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'How long --wait waits: seconds or a Go duration (0s: as kubectl, a week)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Dry run: none (default), server (the preview, nothing deleted), or client; a bare --dry-run is client (deprecated, as in kubectl)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, '`name`: print `TYPE.GROUP/NAME` of each deleted object instead of the sentence')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, '`name`: print `TYPE.GROUP/NAME` of each deleted object instead of the sentence')
            [CompletionResult]::new('--canary', '--canary', [CompletionResultType]::ParameterName, 'With --contexts/--all-contexts: how many contexts the first (canary) wave deletes in; the rest follow only if every one of them succeeded. (default 1)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (overrides KUBECONFIG)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--contexts', '--contexts', [CompletionResultType]::ParameterName, 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, rollout restart, rollout undo. See docs/fleet.md')
            [CompletionResult]::new('--max-parallel', '--max-parallel', [CompletionResultType]::ParameterName, 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl''s discovery)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a CA certificate file for the API server')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation (default: the server URL''s host)')
            [CompletionResult]::new('--as-user-extra', '--as-user-extra', [CompletionResultType]::ParameterName, 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Username for basic authentication to the API server')
            [CompletionResult]::new('--password', '--password', [CompletionResultType]::ParameterName, 'Password for basic authentication to the API server')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)')
            [CompletionResult]::new('--pushgateway', '--pushgateway', [CompletionResultType]::ParameterName, 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Delete every object of TYPE in the namespace (or across namespaces with -A)')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'With -l, --field-selector or --all: across all namespaces (needs scope `cluster`)')
            [CompletionResult]::new('--all-namespaces', '--all-namespaces', [CompletionResultType]::ParameterName, 'With -l, --field-selector or --all: across all namespaces (needs scope `cluster`)')
            [CompletionResult]::new('--now', '--now', [CompletionResultType]::ParameterName, 'Signal the object to terminate at once (grace period 1)')
            [CompletionResult]::new('--ignore-not-found', '--ignore-not-found', [CompletionResultType]::ParameterName, 'A named object that does not exist is not an error (exit 0)')
            [CompletionResult]::new('--unrecoverable', '--unrecoverable', [CompletionResultType]::ParameterName, 'Delete a namespace or CRD whose objects exceed plugin.yaml `changelog.snapshotLimit` without journaling them: they cannot be undeleted')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig and merge the results (as --contexts)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'kubectl-myops;rollout' {
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (overrides KUBECONFIG)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--contexts', '--contexts', [CompletionResultType]::ParameterName, 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, rollout restart, rollout undo. See docs/fleet.md')
            [CompletionResult]::new('--max-parallel', '--max-parallel', [CompletionResultType]::ParameterName, 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl''s discovery)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a CA certificate file for the API server')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation (default: the server URL''s host)')
            [CompletionResult]::new('--as-user-extra', '--as-user-extra', [CompletionResultType]::ParameterName, 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Username for basic authentication to the API server')
            [CompletionResult]::new('--password', '--password', [CompletionResultType]::ParameterName, 'Password for basic authentication to the API server')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)')
            [CompletionResult]::new('--pushgateway', '--pushgateway', [CompletionResultType]::ParameterName, 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig and merge the results (as --contexts)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('restart', 'restart', [CompletionResultType]::ParameterValue, 'Restart the pods of a rollout: the pod template gets the annotation `kubectl.kubernetes.io/restartedAt` (journaled; `rollback ID` undoes it)')
            [CompletionResult]::new('undo', 'undo', [CompletionResultType]::ParameterValue, 'Roll back to a previous revision (journaled; `rollback ID` undoes the undo)')
            [CompletionResult]::new('history', 'history', [CompletionResultType]::ParameterValue, 'The revisions of a rollout, or one revision''s pod template (read-only)')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'The status of a rollout, followed until it is done unless --watch=false (read-only)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-myops;rollout;restart' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, '`name`: print `TYPE.GROUP/NAME` of each restarted object instead of the sentence')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, '`name`: print `TYPE.GROUP/NAME` of each restarted object instead of the sentence')
            [CompletionResult]::new('--field-manager', '--field-manager', [CompletionResultType]::ParameterName, 'Field manager recorded by the server (at most 128 bytes, printable; empty = the default)')
            [CompletionResult]::new('--canary', '--canary', [CompletionResultType]::ParameterName, 'With --contexts/--all-contexts: how many contexts the first (canary) wave restarts in; the rest follow only if every one of them succeeded. (default 1)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (overrides KUBECONFIG)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--contexts', '--contexts', [CompletionResultType]::ParameterName, 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, rollout restart, rollout undo. See docs/fleet.md')
            [CompletionResult]::new('--max-parallel', '--max-parallel', [CompletionResultType]::ParameterName, 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl''s discovery)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a CA certificate file for the API server')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation (default: the server URL''s host)')
            [CompletionResult]::new('--as-user-extra', '--as-user-extra', [CompletionResultType]::ParameterName, 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Username for basic authentication to the API server')
            [CompletionResult]::new('--password', '--password', [CompletionResultType]::ParameterName, 'Password for basic authentication to the API server')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)')
            [CompletionResult]::new('--pushgateway', '--pushgateway', [CompletionResultType]::ParameterName, 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig and merge the results (as --contexts)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'kubectl-myops;rollout;undo' {
            [CompletionResult]::new('--to-revision', '--to-revision', [CompletionResultType]::ParameterName, 'The revision to roll back to; 0 (the default) is the one before the current')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Dry run: none (default), server, or client (prints the pod template it would roll back to); a bare --dry-run is client (deprecated, as in kubectl)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, '`name`: print `TYPE.GROUP/NAME` of each object instead of the sentence')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, '`name`: print `TYPE.GROUP/NAME` of each object instead of the sentence')
            [CompletionResult]::new('--field-manager', '--field-manager', [CompletionResultType]::ParameterName, 'Field manager recorded by the server (at most 128 bytes, printable; empty = the default)')
            [CompletionResult]::new('--canary', '--canary', [CompletionResultType]::ParameterName, 'With --contexts/--all-contexts: how many contexts the first (canary) wave rolls back in; the rest follow only if every one of them succeeded. (default 1)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (overrides KUBECONFIG)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--contexts', '--contexts', [CompletionResultType]::ParameterName, 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, rollout restart, rollout undo. See docs/fleet.md')
            [CompletionResult]::new('--max-parallel', '--max-parallel', [CompletionResultType]::ParameterName, 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl''s discovery)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a CA certificate file for the API server')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation (default: the server URL''s host)')
            [CompletionResult]::new('--as-user-extra', '--as-user-extra', [CompletionResultType]::ParameterName, 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Username for basic authentication to the API server')
            [CompletionResult]::new('--password', '--password', [CompletionResultType]::ParameterName, 'Password for basic authentication to the API server')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)')
            [CompletionResult]::new('--pushgateway', '--pushgateway', [CompletionResultType]::ParameterName, 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig and merge the results (as --contexts)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'kubectl-myops;rollout;history' {
            [CompletionResult]::new('--revision', '--revision', [CompletionResultType]::ParameterName, 'Show the pod template of this revision')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (overrides KUBECONFIG)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--contexts', '--contexts', [CompletionResultType]::ParameterName, 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, rollout restart, rollout undo. See docs/fleet.md')
            [CompletionResult]::new('--max-parallel', '--max-parallel', [CompletionResultType]::ParameterName, 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl''s discovery)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a CA certificate file for the API server')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation (default: the server URL''s host)')
            [CompletionResult]::new('--as-user-extra', '--as-user-extra', [CompletionResultType]::ParameterName, 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Username for basic authentication to the API server')
            [CompletionResult]::new('--password', '--password', [CompletionResultType]::ParameterName, 'Password for basic authentication to the API server')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)')
            [CompletionResult]::new('--pushgateway', '--pushgateway', [CompletionResultType]::ParameterName, 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig and merge the results (as --contexts)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'kubectl-myops;rollout;status' {
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'Follow the status until the rollout is done (default true; --watch=false prints it once)')
            [CompletionResult]::new('--watch', '--watch', [CompletionResultType]::ParameterName, 'Follow the status until the rollout is done (default true; --watch=false prints it once)')
            [CompletionResult]::new('--revision', '--revision', [CompletionResultType]::ParameterName, 'Pin to a revision (Deployments): a different running revision is an error')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'How long to follow the status: seconds or a Go duration (0s, the default: no limit)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (overrides KUBECONFIG)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--contexts', '--contexts', [CompletionResultType]::ParameterName, 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, rollout restart, rollout undo. See docs/fleet.md')
            [CompletionResult]::new('--max-parallel', '--max-parallel', [CompletionResultType]::ParameterName, 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl''s discovery)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a CA certificate file for the API server')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation (default: the server URL''s host)')
            [CompletionResult]::new('--as-user-extra', '--as-user-extra', [CompletionResultType]::ParameterName, 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Username for basic authentication to the API server')
            [CompletionResult]::new('--password', '--password', [CompletionResultType]::ParameterName, 'Password for basic authentication to the API server')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)')
            [CompletionResult]::new('--pushgateway', '--pushgateway', [CompletionResultType]::ParameterName, 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig and merge the results (as --contexts)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'kubectl-myops;rollout;help' {
            [CompletionResult]::new('restart', 'restart', [CompletionResultType]::ParameterValue, 'Restart the pods of a rollout: the pod template gets the annotation `kubectl.kubernetes.io/restartedAt` (journaled; `rollback ID` undoes it)')
            [CompletionResult]::new('undo', 'undo', [CompletionResultType]::ParameterValue, 'Roll back to a previous revision (journaled; `rollback ID` undoes the undo)')
            [CompletionResult]::new('history', 'history', [CompletionResultType]::ParameterValue, 'The revisions of a rollout, or one revision''s pod template (read-only)')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'The status of a rollout, followed until it is done unless --watch=false (read-only)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-myops;rollout;help;restart' {
            break
        }
        'kubectl-myops;rollout;help;undo' {
            break
        }
        'kubectl-myops;rollout;help;history' {
            break
        }
        'kubectl-myops;rollout;help;status' {
            break
        }
        'kubectl-myops;rollout;help;help' {
            break
        }
        'kubectl-myops;undelete' {
            [CompletionResult]::new('--entry', '--entry', [CompletionResultType]::ParameterName, 'The delete entry to undo (`changelog list --operation delete`)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Dry run: none (default), server, or client. A bare --dry-run is client (deprecated, as in kubectl)')
            [CompletionResult]::new('--field-manager', '--field-manager', [CompletionResultType]::ParameterName, 'Field manager recorded by the server (at most 128 bytes, printable; empty = the default)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (overrides KUBECONFIG)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--contexts', '--contexts', [CompletionResultType]::ParameterName, 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, rollout restart, rollout undo. See docs/fleet.md')
            [CompletionResult]::new('--max-parallel', '--max-parallel', [CompletionResultType]::ParameterName, 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl''s discovery)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a CA certificate file for the API server')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation (default: the server URL''s host)')
            [CompletionResult]::new('--as-user-extra', '--as-user-extra', [CompletionResultType]::ParameterName, 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Username for basic authentication to the API server')
            [CompletionResult]::new('--password', '--password', [CompletionResultType]::ParameterName, 'Password for basic authentication to the API server')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)')
            [CompletionResult]::new('--pushgateway', '--pushgateway', [CompletionResultType]::ParameterName, 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Create it even if a reconciler (Flux, Argo CD, Helm, kapp) manages it')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig and merge the results (as --contexts)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'kubectl-myops;rollback' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Roll back every change of one invocation (the `session` of its change-log entries, e.g. a patch fanned out over several contexts), each in the context it was made in, newest first, with the same conflict rules as `rollback ID`')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Dry run: none (default), server, or client; shows the diff. A bare --dry-run is client (deprecated, as in kubectl)')
            [CompletionResult]::new('--field-manager', '--field-manager', [CompletionResultType]::ParameterName, 'Field manager recorded by the server (at most 128 bytes, printable; empty = the default)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (overrides KUBECONFIG)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--contexts', '--contexts', [CompletionResultType]::ParameterName, 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, rollout restart, rollout undo. See docs/fleet.md')
            [CompletionResult]::new('--max-parallel', '--max-parallel', [CompletionResultType]::ParameterName, 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl''s discovery)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a CA certificate file for the API server')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation (default: the server URL''s host)')
            [CompletionResult]::new('--as-user-extra', '--as-user-extra', [CompletionResultType]::ParameterName, 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Username for basic authentication to the API server')
            [CompletionResult]::new('--password', '--password', [CompletionResultType]::ParameterName, 'Password for basic authentication to the API server')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)')
            [CompletionResult]::new('--pushgateway', '--pushgateway', [CompletionResultType]::ParameterName, 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Restore even if someone changed the object since (skips the resourceVersion guard), or a reconciler (Flux, Argo CD, Helm, kapp, kubectl apply) manages it; the owner is recorded in the rollback''s change-log entry')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig and merge the results (as --contexts)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'kubectl-myops;drift' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: `json` prints the whole report, unchanged objects included')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: `json` prints the whole report, unchanged objects included')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (overrides KUBECONFIG)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--contexts', '--contexts', [CompletionResultType]::ParameterName, 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, rollout restart, rollout undo. See docs/fleet.md')
            [CompletionResult]::new('--max-parallel', '--max-parallel', [CompletionResultType]::ParameterName, 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl''s discovery)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a CA certificate file for the API server')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation (default: the server URL''s host)')
            [CompletionResult]::new('--as-user-extra', '--as-user-extra', [CompletionResultType]::ParameterName, 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Username for basic authentication to the API server')
            [CompletionResult]::new('--password', '--password', [CompletionResultType]::ParameterName, 'Password for basic authentication to the API server')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)')
            [CompletionResult]::new('--pushgateway', '--pushgateway', [CompletionResultType]::ParameterName, 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'Objects in every namespace (each is still read by name in its own namespace), not only the current one and cluster-scoped ones')
            [CompletionResult]::new('--all-namespaces', '--all-namespaces', [CompletionResultType]::ParameterName, 'Objects in every namespace (each is still read by name in its own namespace), not only the current one and cluster-scoped ones')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig and merge the results (as --contexts)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'kubectl-myops;changelog' {
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (overrides KUBECONFIG)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--contexts', '--contexts', [CompletionResultType]::ParameterName, 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, rollout restart, rollout undo. See docs/fleet.md')
            [CompletionResult]::new('--max-parallel', '--max-parallel', [CompletionResultType]::ParameterName, 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl''s discovery)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a CA certificate file for the API server')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation (default: the server URL''s host)')
            [CompletionResult]::new('--as-user-extra', '--as-user-extra', [CompletionResultType]::ParameterName, 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Username for basic authentication to the API server')
            [CompletionResult]::new('--password', '--password', [CompletionResultType]::ParameterName, 'Password for basic authentication to the API server')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)')
            [CompletionResult]::new('--pushgateway', '--pushgateway', [CompletionResultType]::ParameterName, 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig and merge the results (as --contexts)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'One line per entry: id, time, user, operation, object, result')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'One change as a field-level diff, before → after (Secret values masked)')
            [CompletionResult]::new('why', 'why', [CompletionResultType]::ParameterValue, 'Which journaled changes touched a field of an object, newest first')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'One entry, as pretty JSON')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Check the hash chain across the retained files: exit 0 when it holds, 1 naming the first break')
            [CompletionResult]::new('reconcile', 'reconcile', [CompletionResultType]::ParameterValue, 'Find the real outcome of entries whose outcome is unknown (an intent without an outcome record) by reading the live object, and record it; never rolls back or retries')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-myops;changelog;list' {
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only entries newer than this: a duration (`1h`, `30m`) or an RFC 3339 time')
            [CompletionResult]::new('--object', '--object', [CompletionResultType]::ParameterName, 'Only entries for this object: NAME, TYPE/NAME or NAMESPACE/NAME (kind or plural, any case)')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Only the entries of one invocation (its session id, as `rollback --session` takes)')
            [CompletionResult]::new('--operation', '--operation', [CompletionResultType]::ParameterName, 'Only entries of this operation')
            [CompletionResult]::new('--result', '--result', [CompletionResultType]::ParameterName, 'Only entries with this result: success, failure (denied or an error) or unknown (an intent without an outcome; `pending` means the same)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Print the entries (the last record of every id) as json (an array) or yaml instead of a table')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Print the entries (the last record of every id) as json (an array) or yaml instead of a table')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (overrides KUBECONFIG)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--contexts', '--contexts', [CompletionResultType]::ParameterName, 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, rollout restart, rollout undo. See docs/fleet.md')
            [CompletionResult]::new('--max-parallel', '--max-parallel', [CompletionResultType]::ParameterName, 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl''s discovery)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a CA certificate file for the API server')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation (default: the server URL''s host)')
            [CompletionResult]::new('--as-user-extra', '--as-user-extra', [CompletionResultType]::ParameterName, 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Username for basic authentication to the API server')
            [CompletionResult]::new('--password', '--password', [CompletionResultType]::ParameterName, 'Password for basic authentication to the API server')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)')
            [CompletionResult]::new('--pushgateway', '--pushgateway', [CompletionResultType]::ParameterName, 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--invalid', '--invalid', [CompletionResultType]::ParameterName, 'List the lines that are not valid entries (torn, not UTF-8, not JSON) instead: line number and reason')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig and merge the results (as --contexts)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'kubectl-myops;changelog;diff' {
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (overrides KUBECONFIG)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--contexts', '--contexts', [CompletionResultType]::ParameterName, 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, rollout restart, rollout undo. See docs/fleet.md')
            [CompletionResult]::new('--max-parallel', '--max-parallel', [CompletionResultType]::ParameterName, 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl''s discovery)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a CA certificate file for the API server')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation (default: the server URL''s host)')
            [CompletionResult]::new('--as-user-extra', '--as-user-extra', [CompletionResultType]::ParameterName, 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Username for basic authentication to the API server')
            [CompletionResult]::new('--password', '--password', [CompletionResultType]::ParameterName, 'Password for basic authentication to the API server')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)')
            [CompletionResult]::new('--pushgateway', '--pushgateway', [CompletionResultType]::ParameterName, 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig and merge the results (as --contexts)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'kubectl-myops;changelog;why' {
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (overrides KUBECONFIG)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--contexts', '--contexts', [CompletionResultType]::ParameterName, 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, rollout restart, rollout undo. See docs/fleet.md')
            [CompletionResult]::new('--max-parallel', '--max-parallel', [CompletionResultType]::ParameterName, 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl''s discovery)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a CA certificate file for the API server')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation (default: the server URL''s host)')
            [CompletionResult]::new('--as-user-extra', '--as-user-extra', [CompletionResultType]::ParameterName, 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Username for basic authentication to the API server')
            [CompletionResult]::new('--password', '--password', [CompletionResultType]::ParameterName, 'Password for basic authentication to the API server')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)')
            [CompletionResult]::new('--pushgateway', '--pushgateway', [CompletionResultType]::ParameterName, 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig and merge the results (as --contexts)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'kubectl-myops;changelog;show' {
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (overrides KUBECONFIG)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--contexts', '--contexts', [CompletionResultType]::ParameterName, 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, rollout restart, rollout undo. See docs/fleet.md')
            [CompletionResult]::new('--max-parallel', '--max-parallel', [CompletionResultType]::ParameterName, 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl''s discovery)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a CA certificate file for the API server')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation (default: the server URL''s host)')
            [CompletionResult]::new('--as-user-extra', '--as-user-extra', [CompletionResultType]::ParameterName, 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Username for basic authentication to the API server')
            [CompletionResult]::new('--password', '--password', [CompletionResultType]::ParameterName, 'Password for basic authentication to the API server')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)')
            [CompletionResult]::new('--pushgateway', '--pushgateway', [CompletionResultType]::ParameterName, 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig and merge the results (as --contexts)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'kubectl-myops;changelog;verify' {
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (overrides KUBECONFIG)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--contexts', '--contexts', [CompletionResultType]::ParameterName, 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, rollout restart, rollout undo. See docs/fleet.md')
            [CompletionResult]::new('--max-parallel', '--max-parallel', [CompletionResultType]::ParameterName, 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl''s discovery)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a CA certificate file for the API server')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation (default: the server URL''s host)')
            [CompletionResult]::new('--as-user-extra', '--as-user-extra', [CompletionResultType]::ParameterName, 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Username for basic authentication to the API server')
            [CompletionResult]::new('--password', '--password', [CompletionResultType]::ParameterName, 'Password for basic authentication to the API server')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)')
            [CompletionResult]::new('--pushgateway', '--pushgateway', [CompletionResultType]::ParameterName, 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig and merge the results (as --contexts)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'kubectl-myops;changelog;reconcile' {
            [CompletionResult]::new('--outcome', '--outcome', [CompletionResultType]::ParameterName, 'Record the outcome you decided (after checking the object) for entry ID, which the live object could not decide; the object is not read. Only with an ID')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (overrides KUBECONFIG)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--contexts', '--contexts', [CompletionResultType]::ParameterName, 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, rollout restart, rollout undo. See docs/fleet.md')
            [CompletionResult]::new('--max-parallel', '--max-parallel', [CompletionResultType]::ParameterName, 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl''s discovery)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a CA certificate file for the API server')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation (default: the server URL''s host)')
            [CompletionResult]::new('--as-user-extra', '--as-user-extra', [CompletionResultType]::ParameterName, 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Username for basic authentication to the API server')
            [CompletionResult]::new('--password', '--password', [CompletionResultType]::ParameterName, 'Password for basic authentication to the API server')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)')
            [CompletionResult]::new('--pushgateway', '--pushgateway', [CompletionResultType]::ParameterName, 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig and merge the results (as --contexts)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'kubectl-myops;changelog;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'One line per entry: id, time, user, operation, object, result')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'One change as a field-level diff, before → after (Secret values masked)')
            [CompletionResult]::new('why', 'why', [CompletionResultType]::ParameterValue, 'Which journaled changes touched a field of an object, newest first')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'One entry, as pretty JSON')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Check the hash chain across the retained files: exit 0 when it holds, 1 naming the first break')
            [CompletionResult]::new('reconcile', 'reconcile', [CompletionResultType]::ParameterValue, 'Find the real outcome of entries whose outcome is unknown (an intent without an outcome record) by reading the live object, and record it; never rolls back or retries')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-myops;changelog;help;list' {
            break
        }
        'kubectl-myops;changelog;help;diff' {
            break
        }
        'kubectl-myops;changelog;help;why' {
            break
        }
        'kubectl-myops;changelog;help;show' {
            break
        }
        'kubectl-myops;changelog;help;verify' {
            break
        }
        'kubectl-myops;changelog;help;reconcile' {
            break
        }
        'kubectl-myops;changelog;help;help' {
            break
        }
        'kubectl-myops;crds' {
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (overrides KUBECONFIG)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--contexts', '--contexts', [CompletionResultType]::ParameterName, 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, rollout restart, rollout undo. See docs/fleet.md')
            [CompletionResult]::new('--max-parallel', '--max-parallel', [CompletionResultType]::ParameterName, 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl''s discovery)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a CA certificate file for the API server')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation (default: the server URL''s host)')
            [CompletionResult]::new('--as-user-extra', '--as-user-extra', [CompletionResultType]::ParameterName, 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Username for basic authentication to the API server')
            [CompletionResult]::new('--password', '--password', [CompletionResultType]::ParameterName, 'Password for basic authentication to the API server')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)')
            [CompletionResult]::new('--pushgateway', '--pushgateway', [CompletionResultType]::ParameterName, 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig and merge the results (as --contexts)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('sync', 'sync', [CompletionResultType]::ParameterValue, 'Server-side apply every CRD in DIR once and wait until each is Established and served')
            [CompletionResult]::new('watch', 'watch', [CompletionResultType]::ParameterValue, 'Hot-load: register every CRD in DIR, then follow the directory until SIGINT/SIGTERM')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'What the directory holds and what the cluster has, side by side')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-myops;crds;sync' {
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'How long to wait for each CRD to become Established and discoverable')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (overrides KUBECONFIG)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--contexts', '--contexts', [CompletionResultType]::ParameterName, 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, rollout restart, rollout undo. See docs/fleet.md')
            [CompletionResult]::new('--max-parallel', '--max-parallel', [CompletionResultType]::ParameterName, 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl''s discovery)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a CA certificate file for the API server')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation (default: the server URL''s host)')
            [CompletionResult]::new('--as-user-extra', '--as-user-extra', [CompletionResultType]::ParameterName, 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Username for basic authentication to the API server')
            [CompletionResult]::new('--password', '--password', [CompletionResultType]::ParameterName, 'Password for basic authentication to the API server')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)')
            [CompletionResult]::new('--pushgateway', '--pushgateway', [CompletionResultType]::ParameterName, 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig and merge the results (as --contexts)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'kubectl-myops;crds;watch' {
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'How long to wait for each CRD to become Established and discoverable')
            [CompletionResult]::new('--log-format', '--log-format', [CompletionResultType]::ParameterName, 'Log line format')
            [CompletionResult]::new('--lease-namespace', '--lease-namespace', [CompletionResultType]::ParameterName, 'Namespace of the Lease (default: the namespace in effect — -n, else the context''s; in a pod, its service account''s)')
            [CompletionResult]::new('--lease-name', '--lease-name', [CompletionResultType]::ParameterName, 'Name of the Lease')
            [CompletionResult]::new('--lease-duration', '--lease-duration', [CompletionResultType]::ParameterName, 'How long followers wait without seeing the Lease renewed before taking over (whole seconds; client-go''s default)')
            [CompletionResult]::new('--renew-deadline', '--renew-deadline', [CompletionResultType]::ParameterName, 'How long the leader keeps trying to renew before it stops applying (client-go''s default)')
            [CompletionResult]::new('--retry-period', '--retry-period', [CompletionResultType]::ParameterName, 'Time between two attempts to acquire or renew the Lease (client-go''s default)')
            [CompletionResult]::new('--metrics-addr', '--metrics-addr', [CompletionResultType]::ParameterName, 'Serve /metrics, /healthz and /readyz on HOST:PORT (e.g. :9100 or 127.0.0.1:0); the totals are then scraped, not pushed to the Pushgateway')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (overrides KUBECONFIG)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--contexts', '--contexts', [CompletionResultType]::ParameterName, 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, rollout restart, rollout undo. See docs/fleet.md')
            [CompletionResult]::new('--max-parallel', '--max-parallel', [CompletionResultType]::ParameterName, 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl''s discovery)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a CA certificate file for the API server')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation (default: the server URL''s host)')
            [CompletionResult]::new('--as-user-extra', '--as-user-extra', [CompletionResultType]::ParameterName, 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Username for basic authentication to the API server')
            [CompletionResult]::new('--password', '--password', [CompletionResultType]::ParameterName, 'Password for basic authentication to the API server')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)')
            [CompletionResult]::new('--pushgateway', '--pushgateway', [CompletionResultType]::ParameterName, 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--prune', '--prune', [CompletionResultType]::ParameterName, 'Delete a CRD from the cluster when its file is removed (only CRDs this tool applied; deleting a CRD deletes all its custom resources)')
            [CompletionResult]::new('--force-conflicts', '--force-conflicts', [CompletionResultType]::ParameterName, 'Take over fields another field manager owns instead of reporting the conflict')
            [CompletionResult]::new('--leader-elect', '--leader-elect', [CompletionResultType]::ParameterName, 'Run as one of several replicas: only the holder of a coordination.k8s.io/v1 Lease applies; the others watch the directory and take over when the Lease expires (client-go leader election)')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig and merge the results (as --contexts)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'kubectl-myops;crds;list' {
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (overrides KUBECONFIG)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--contexts', '--contexts', [CompletionResultType]::ParameterName, 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, rollout restart, rollout undo. See docs/fleet.md')
            [CompletionResult]::new('--max-parallel', '--max-parallel', [CompletionResultType]::ParameterName, 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl''s discovery)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a CA certificate file for the API server')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation (default: the server URL''s host)')
            [CompletionResult]::new('--as-user-extra', '--as-user-extra', [CompletionResultType]::ParameterName, 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Username for basic authentication to the API server')
            [CompletionResult]::new('--password', '--password', [CompletionResultType]::ParameterName, 'Password for basic authentication to the API server')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)')
            [CompletionResult]::new('--pushgateway', '--pushgateway', [CompletionResultType]::ParameterName, 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig and merge the results (as --contexts)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'kubectl-myops;crds;help' {
            [CompletionResult]::new('sync', 'sync', [CompletionResultType]::ParameterValue, 'Server-side apply every CRD in DIR once and wait until each is Established and served')
            [CompletionResult]::new('watch', 'watch', [CompletionResultType]::ParameterValue, 'Hot-load: register every CRD in DIR, then follow the directory until SIGINT/SIGTERM')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'What the directory holds and what the cluster has, side by side')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-myops;crds;help;sync' {
            break
        }
        'kubectl-myops;crds;help;watch' {
            break
        }
        'kubectl-myops;crds;help;list' {
            break
        }
        'kubectl-myops;crds;help;help' {
            break
        }
        'kubectl-myops;metrics' {
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (overrides KUBECONFIG)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--contexts', '--contexts', [CompletionResultType]::ParameterName, 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, rollout restart, rollout undo. See docs/fleet.md')
            [CompletionResult]::new('--max-parallel', '--max-parallel', [CompletionResultType]::ParameterName, 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl''s discovery)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a CA certificate file for the API server')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation (default: the server URL''s host)')
            [CompletionResult]::new('--as-user-extra', '--as-user-extra', [CompletionResultType]::ParameterName, 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Username for basic authentication to the API server')
            [CompletionResult]::new('--password', '--password', [CompletionResultType]::ParameterName, 'Password for basic authentication to the API server')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)')
            [CompletionResult]::new('--pushgateway', '--pushgateway', [CompletionResultType]::ParameterName, 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig and merge the results (as --contexts)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print the local totals (MYOPS_HOME/metrics-state.json)')
            [CompletionResult]::new('push', 'push', [CompletionResultType]::ParameterValue, 'Push the local totals to the Pushgateway now')
            [CompletionResult]::new('reset', 'reset', [CompletionResultType]::ParameterValue, 'Delete the local totals and this MYOPS_HOME''s group on the Pushgateway (asks unless --yes)')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete this MYOPS_HOME''s group on the Pushgateway; keep the local totals')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-myops;metrics;show' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (overrides KUBECONFIG)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--contexts', '--contexts', [CompletionResultType]::ParameterName, 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, rollout restart, rollout undo. See docs/fleet.md')
            [CompletionResult]::new('--max-parallel', '--max-parallel', [CompletionResultType]::ParameterName, 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl''s discovery)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a CA certificate file for the API server')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation (default: the server URL''s host)')
            [CompletionResult]::new('--as-user-extra', '--as-user-extra', [CompletionResultType]::ParameterName, 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Username for basic authentication to the API server')
            [CompletionResult]::new('--password', '--password', [CompletionResultType]::ParameterName, 'Password for basic authentication to the API server')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)')
            [CompletionResult]::new('--pushgateway', '--pushgateway', [CompletionResultType]::ParameterName, 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig and merge the results (as --contexts)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'kubectl-myops;metrics;push' {
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (overrides KUBECONFIG)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--contexts', '--contexts', [CompletionResultType]::ParameterName, 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, rollout restart, rollout undo. See docs/fleet.md')
            [CompletionResult]::new('--max-parallel', '--max-parallel', [CompletionResultType]::ParameterName, 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl''s discovery)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a CA certificate file for the API server')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation (default: the server URL''s host)')
            [CompletionResult]::new('--as-user-extra', '--as-user-extra', [CompletionResultType]::ParameterName, 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Username for basic authentication to the API server')
            [CompletionResult]::new('--password', '--password', [CompletionResultType]::ParameterName, 'Password for basic authentication to the API server')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)')
            [CompletionResult]::new('--pushgateway', '--pushgateway', [CompletionResultType]::ParameterName, 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig and merge the results (as --contexts)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'kubectl-myops;metrics;reset' {
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (overrides KUBECONFIG)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--contexts', '--contexts', [CompletionResultType]::ParameterName, 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, rollout restart, rollout undo. See docs/fleet.md')
            [CompletionResult]::new('--max-parallel', '--max-parallel', [CompletionResultType]::ParameterName, 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl''s discovery)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a CA certificate file for the API server')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation (default: the server URL''s host)')
            [CompletionResult]::new('--as-user-extra', '--as-user-extra', [CompletionResultType]::ParameterName, 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Username for basic authentication to the API server')
            [CompletionResult]::new('--password', '--password', [CompletionResultType]::ParameterName, 'Password for basic authentication to the API server')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)')
            [CompletionResult]::new('--pushgateway', '--pushgateway', [CompletionResultType]::ParameterName, 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig and merge the results (as --contexts)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'kubectl-myops;metrics;delete' {
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (overrides KUBECONFIG)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--contexts', '--contexts', [CompletionResultType]::ParameterName, 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, rollout restart, rollout undo. See docs/fleet.md')
            [CompletionResult]::new('--max-parallel', '--max-parallel', [CompletionResultType]::ParameterName, 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl''s discovery)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a CA certificate file for the API server')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation (default: the server URL''s host)')
            [CompletionResult]::new('--as-user-extra', '--as-user-extra', [CompletionResultType]::ParameterName, 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Username for basic authentication to the API server')
            [CompletionResult]::new('--password', '--password', [CompletionResultType]::ParameterName, 'Password for basic authentication to the API server')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)')
            [CompletionResult]::new('--pushgateway', '--pushgateway', [CompletionResultType]::ParameterName, 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig and merge the results (as --contexts)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'kubectl-myops;metrics;help' {
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print the local totals (MYOPS_HOME/metrics-state.json)')
            [CompletionResult]::new('push', 'push', [CompletionResultType]::ParameterValue, 'Push the local totals to the Pushgateway now')
            [CompletionResult]::new('reset', 'reset', [CompletionResultType]::ParameterValue, 'Delete the local totals and this MYOPS_HOME''s group on the Pushgateway (asks unless --yes)')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete this MYOPS_HOME''s group on the Pushgateway; keep the local totals')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-myops;metrics;help;show' {
            break
        }
        'kubectl-myops;metrics;help;push' {
            break
        }
        'kubectl-myops;metrics;help;reset' {
            break
        }
        'kubectl-myops;metrics;help;delete' {
            break
        }
        'kubectl-myops;metrics;help;help' {
            break
        }
        'kubectl-myops;config' {
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (overrides KUBECONFIG)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--contexts', '--contexts', [CompletionResultType]::ParameterName, 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, rollout restart, rollout undo. See docs/fleet.md')
            [CompletionResult]::new('--max-parallel', '--max-parallel', [CompletionResultType]::ParameterName, 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl''s discovery)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a CA certificate file for the API server')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation (default: the server URL''s host)')
            [CompletionResult]::new('--as-user-extra', '--as-user-extra', [CompletionResultType]::ParameterName, 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Username for basic authentication to the API server')
            [CompletionResult]::new('--password', '--password', [CompletionResultType]::ParameterName, 'Password for basic authentication to the API server')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)')
            [CompletionResult]::new('--pushgateway', '--pushgateway', [CompletionResultType]::ParameterName, 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig and merge the results (as --contexts)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('schema', 'schema', [CompletionResultType]::ParameterValue, 'Print the JSON Schema of plugin.yaml')
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Check a plugin.yaml (default: the one the lookup order finds) and print what it allows')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-myops;config;schema' {
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (overrides KUBECONFIG)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--contexts', '--contexts', [CompletionResultType]::ParameterName, 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, rollout restart, rollout undo. See docs/fleet.md')
            [CompletionResult]::new('--max-parallel', '--max-parallel', [CompletionResultType]::ParameterName, 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl''s discovery)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a CA certificate file for the API server')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation (default: the server URL''s host)')
            [CompletionResult]::new('--as-user-extra', '--as-user-extra', [CompletionResultType]::ParameterName, 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Username for basic authentication to the API server')
            [CompletionResult]::new('--password', '--password', [CompletionResultType]::ParameterName, 'Password for basic authentication to the API server')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)')
            [CompletionResult]::new('--pushgateway', '--pushgateway', [CompletionResultType]::ParameterName, 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig and merge the results (as --contexts)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'kubectl-myops;config;validate' {
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (overrides KUBECONFIG)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--contexts', '--contexts', [CompletionResultType]::ParameterName, 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, rollout restart, rollout undo. See docs/fleet.md')
            [CompletionResult]::new('--max-parallel', '--max-parallel', [CompletionResultType]::ParameterName, 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl''s discovery)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a CA certificate file for the API server')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation (default: the server URL''s host)')
            [CompletionResult]::new('--as-user-extra', '--as-user-extra', [CompletionResultType]::ParameterName, 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Username for basic authentication to the API server')
            [CompletionResult]::new('--password', '--password', [CompletionResultType]::ParameterName, 'Password for basic authentication to the API server')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)')
            [CompletionResult]::new('--pushgateway', '--pushgateway', [CompletionResultType]::ParameterName, 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig and merge the results (as --contexts)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'kubectl-myops;config;help' {
            [CompletionResult]::new('schema', 'schema', [CompletionResultType]::ParameterValue, 'Print the JSON Schema of plugin.yaml')
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Check a plugin.yaml (default: the one the lookup order finds) and print what it allows')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-myops;config;help;schema' {
            break
        }
        'kubectl-myops;config;help;validate' {
            break
        }
        'kubectl-myops;config;help;help' {
            break
        }
        'kubectl-myops;auth' {
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (overrides KUBECONFIG)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--contexts', '--contexts', [CompletionResultType]::ParameterName, 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, rollout restart, rollout undo. See docs/fleet.md')
            [CompletionResult]::new('--max-parallel', '--max-parallel', [CompletionResultType]::ParameterName, 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl''s discovery)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a CA certificate file for the API server')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation (default: the server URL''s host)')
            [CompletionResult]::new('--as-user-extra', '--as-user-extra', [CompletionResultType]::ParameterName, 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Username for basic authentication to the API server')
            [CompletionResult]::new('--password', '--password', [CompletionResultType]::ParameterName, 'Password for basic authentication to the API server')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)')
            [CompletionResult]::new('--pushgateway', '--pushgateway', [CompletionResultType]::ParameterName, 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig and merge the results (as --contexts)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('can-i', 'can-i', [CompletionResultType]::ParameterValue, 'Check whether an action is allowed: prints `yes` or `no[ - REASON]`; exit 0 yes, 3 no')
            [CompletionResult]::new('matrix', 'matrix', [CompletionResultType]::ParameterValue, 'A table of plugin.yaml resources × the RBAC verbs of the plugin''s verbs for the caller')
            [CompletionResult]::new('whoami', 'whoami', [CompletionResultType]::ParameterValue, 'Who the API server says you are (SelfSubjectReview), as `kubectl auth whoami`')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-myops;auth;can-i' {
            [CompletionResult]::new('--subresource', '--subresource', [CompletionResultType]::ParameterName, 'A subresource, e.g. `status`, `scale`, `log`')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (overrides KUBECONFIG)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--contexts', '--contexts', [CompletionResultType]::ParameterName, 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, rollout restart, rollout undo. See docs/fleet.md')
            [CompletionResult]::new('--max-parallel', '--max-parallel', [CompletionResultType]::ParameterName, 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl''s discovery)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a CA certificate file for the API server')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation (default: the server URL''s host)')
            [CompletionResult]::new('--as-user-extra', '--as-user-extra', [CompletionResultType]::ParameterName, 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Username for basic authentication to the API server')
            [CompletionResult]::new('--password', '--password', [CompletionResultType]::ParameterName, 'Password for basic authentication to the API server')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)')
            [CompletionResult]::new('--pushgateway', '--pushgateway', [CompletionResultType]::ParameterName, 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'Ask for all namespaces (cluster-wide)')
            [CompletionResult]::new('--all-namespaces', '--all-namespaces', [CompletionResultType]::ParameterName, 'Ask for all namespaces (cluster-wide)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No output, only the exit code')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No output, only the exit code')
            [CompletionResult]::new('--list', '--list', [CompletionResultType]::ParameterName, 'Print the rules you have in the namespace that plugin.yaml lets this plugin use')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'With --list: omit the table header (without --list: a usage error, as kubectl)')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig and merge the results (as --contexts)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'kubectl-myops;auth;matrix' {
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (overrides KUBECONFIG)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--contexts', '--contexts', [CompletionResultType]::ParameterName, 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, rollout restart, rollout undo. See docs/fleet.md')
            [CompletionResult]::new('--max-parallel', '--max-parallel', [CompletionResultType]::ParameterName, 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl''s discovery)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a CA certificate file for the API server')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation (default: the server URL''s host)')
            [CompletionResult]::new('--as-user-extra', '--as-user-extra', [CompletionResultType]::ParameterName, 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Username for basic authentication to the API server')
            [CompletionResult]::new('--password', '--password', [CompletionResultType]::ParameterName, 'Password for basic authentication to the API server')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)')
            [CompletionResult]::new('--pushgateway', '--pushgateway', [CompletionResultType]::ParameterName, 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'Ask for all namespaces (cluster-wide)')
            [CompletionResult]::new('--all-namespaces', '--all-namespaces', [CompletionResultType]::ParameterName, 'Ask for all namespaces (cluster-wide)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Omit the table header')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig and merge the results (as --contexts)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'kubectl-myops;auth;whoami' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format: json or yaml (default: an ATTRIBUTE/VALUE table)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format: json or yaml (default: an ATTRIBUTE/VALUE table)')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (overrides KUBECONFIG)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--contexts', '--contexts', [CompletionResultType]::ParameterName, 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, rollout restart, rollout undo. See docs/fleet.md')
            [CompletionResult]::new('--max-parallel', '--max-parallel', [CompletionResultType]::ParameterName, 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl''s discovery)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a CA certificate file for the API server')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation (default: the server URL''s host)')
            [CompletionResult]::new('--as-user-extra', '--as-user-extra', [CompletionResultType]::ParameterName, 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Username for basic authentication to the API server')
            [CompletionResult]::new('--password', '--password', [CompletionResultType]::ParameterName, 'Password for basic authentication to the API server')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)')
            [CompletionResult]::new('--pushgateway', '--pushgateway', [CompletionResultType]::ParameterName, 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig and merge the results (as --contexts)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'kubectl-myops;auth;help' {
            [CompletionResult]::new('can-i', 'can-i', [CompletionResultType]::ParameterValue, 'Check whether an action is allowed: prints `yes` or `no[ - REASON]`; exit 0 yes, 3 no')
            [CompletionResult]::new('matrix', 'matrix', [CompletionResultType]::ParameterValue, 'A table of plugin.yaml resources × the RBAC verbs of the plugin''s verbs for the caller')
            [CompletionResult]::new('whoami', 'whoami', [CompletionResultType]::ParameterValue, 'Who the API server says you are (SelfSubjectReview), as `kubectl auth whoami`')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-myops;auth;help;can-i' {
            break
        }
        'kubectl-myops;auth;help;matrix' {
            break
        }
        'kubectl-myops;auth;help;whoami' {
            break
        }
        'kubectl-myops;auth;help;help' {
            break
        }
        'kubectl-myops;version' {
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (overrides KUBECONFIG)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--contexts', '--contexts', [CompletionResultType]::ParameterName, 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, rollout restart, rollout undo. See docs/fleet.md')
            [CompletionResult]::new('--max-parallel', '--max-parallel', [CompletionResultType]::ParameterName, 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl''s discovery)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a CA certificate file for the API server')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation (default: the server URL''s host)')
            [CompletionResult]::new('--as-user-extra', '--as-user-extra', [CompletionResultType]::ParameterName, 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Username for basic authentication to the API server')
            [CompletionResult]::new('--password', '--password', [CompletionResultType]::ParameterName, 'Password for basic authentication to the API server')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)')
            [CompletionResult]::new('--pushgateway', '--pushgateway', [CompletionResultType]::ParameterName, 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig and merge the results (as --contexts)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            break
        }
        'kubectl-myops;completion' {
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file (overrides KUBECONFIG)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The kubeconfig context to use')
            [CompletionResult]::new('--contexts', '--contexts', [CompletionResultType]::ParameterName, 'Run in each of these kubeconfig contexts and merge the results (comma-separated; an entry with `*` is a glob over the context names, e.g. `prod-*`): get, patch, auth can-i, auth matrix, crds sync, delete, rollout restart, rollout undo. See docs/fleet.md')
            [CompletionResult]::new('--max-parallel', '--max-parallel', [CompletionResultType]::ParameterName, 'With --contexts/--all-contexts: how many contexts are worked on at once (default 32)')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Namespace for this request (default: the context''s namespace, else `default`)')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'User to impersonate')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Group to impersonate (repeatable)')
            [CompletionResult]::new('--as-uid', '--as-uid', [CompletionResultType]::ParameterName, 'UID to impersonate')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Time to wait for one server request: seconds or a Go duration, e.g. `5`, `5s`, `1m30s` (0 = the defaults: 32s per request, as kubectl''s discovery)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The address of the Kubernetes API server')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token for authentication to the API server')
            [CompletionResult]::new('--certificate-authority', '--certificate-authority', [CompletionResultType]::ParameterName, 'Path to a CA certificate file for the API server')
            [CompletionResult]::new('--client-certificate', '--client-certificate', [CompletionResultType]::ParameterName, 'Path to a client certificate file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--client-key', '--client-key', [CompletionResultType]::ParameterName, 'Path to a client key file for TLS (replaces the kubeconfig user''s)')
            [CompletionResult]::new('--tls-server-name', '--tls-server-name', [CompletionResultType]::ParameterName, 'Server name to use for server certificate validation (default: the server URL''s host)')
            [CompletionResult]::new('--as-user-extra', '--as-user-extra', [CompletionResultType]::ParameterName, 'User extra to impersonate, KEY=VALUE (repeatable; repeat a key for several values)')
            [CompletionResult]::new('--username', '--username', [CompletionResultType]::ParameterName, 'Username for basic authentication to the API server')
            [CompletionResult]::new('--password', '--password', [CompletionResultType]::ParameterName, 'Password for basic authentication to the API server')
            [CompletionResult]::new('--kuberc', '--kuberc', [CompletionResultType]::ParameterName, 'Path to the kuberc file (kubectl 1.35+ preferences; only its credential plugin policy is used). Default: $KUBERC, else ~/.kube/kuberc; KUBERC=off disables it')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'plugin.yaml to use (default lookup: $MYOPS_CONFIG, ~/.kube/plugins/myops/plugin.yaml, next to the executable, built-in)')
            [CompletionResult]::new('--pushgateway', '--pushgateway', [CompletionResultType]::ParameterName, 'Pushgateway URL (overrides plugin.yaml; env MYOPS_PUSHGATEWAY)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log level, as kubectl''s `-v N` / `--v=N` (klog levels 0–10): above 0, the request trace and debug lines go to stderr; `-v` alone is level 1')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Run in every context of the kubeconfig and merge the results (as --contexts)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'kubectl-myops;help' {
            [CompletionResult]::new('get', 'get', [CompletionResultType]::ParameterValue, 'Display one or many resources, after a SelfSubjectAccessReview')
            [CompletionResult]::new('patch', 'patch', [CompletionResultType]::ParameterValue, 'Update fields of one object, after a SelfSubjectAccessReview; every attempt is journaled')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete objects, after a SelfSubjectAccessReview; each object''s whole state is journaled first, so `undelete` can create it again')
            [CompletionResult]::new('rollout', 'rollout', [CompletionResultType]::ParameterValue, 'Manage the rollout of Deployments, StatefulSets and DaemonSets: restart, undo (both journaled and reversible), history, status')
            [CompletionResult]::new('undelete', 'undelete', [CompletionResultType]::ParameterValue, 'Create a deleted object again from its journaled before-state')
            [CompletionResult]::new('rollback', 'rollback', [CompletionResultType]::ParameterValue, 'Undo a journaled change: restore the fields it touched from its before-state')
            [CompletionResult]::new('drift', 'drift', [CompletionResultType]::ParameterValue, 'Objects changed since the change log last changed them: the fields and who owns them now')
            [CompletionResult]::new('changelog', 'changelog', [CompletionResultType]::ParameterValue, 'The change log of every mutation attempt')
            [CompletionResult]::new('crds', 'crds', [CompletionResultType]::ParameterValue, 'Register CustomResourceDefinitions from a directory on the cluster')
            [CompletionResult]::new('metrics', 'metrics', [CompletionResultType]::ParameterValue, 'The local cumulative metric totals: show, push now, reset')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Inspect and check plugin.yaml')
            [CompletionResult]::new('auth', 'auth', [CompletionResultType]::ParameterValue, 'What RBAC lets the caller do: `can-i VERB TYPE [NAME]`, `can-i --list`, `matrix`, `whoami`')
            [CompletionResult]::new('version', 'version', [CompletionResultType]::ParameterValue, 'Print the plugin version, git commit and the kube-rs / Kubernetes API versions it targets')
            [CompletionResult]::new('completion', 'completion', [CompletionResultType]::ParameterValue, 'Print a shell completion script for kubectl-myops (bash, zsh, fish or powershell)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-myops;help;get' {
            break
        }
        'kubectl-myops;help;patch' {
            break
        }
        'kubectl-myops;help;delete' {
            break
        }
        'kubectl-myops;help;rollout' {
            [CompletionResult]::new('restart', 'restart', [CompletionResultType]::ParameterValue, 'Restart the pods of a rollout: the pod template gets the annotation `kubectl.kubernetes.io/restartedAt` (journaled; `rollback ID` undoes it)')
            [CompletionResult]::new('undo', 'undo', [CompletionResultType]::ParameterValue, 'Roll back to a previous revision (journaled; `rollback ID` undoes the undo)')
            [CompletionResult]::new('history', 'history', [CompletionResultType]::ParameterValue, 'The revisions of a rollout, or one revision''s pod template (read-only)')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'The status of a rollout, followed until it is done unless --watch=false (read-only)')
            break
        }
        'kubectl-myops;help;rollout;restart' {
            break
        }
        'kubectl-myops;help;rollout;undo' {
            break
        }
        'kubectl-myops;help;rollout;history' {
            break
        }
        'kubectl-myops;help;rollout;status' {
            break
        }
        'kubectl-myops;help;undelete' {
            break
        }
        'kubectl-myops;help;rollback' {
            break
        }
        'kubectl-myops;help;drift' {
            break
        }
        'kubectl-myops;help;changelog' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'One line per entry: id, time, user, operation, object, result')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'One change as a field-level diff, before → after (Secret values masked)')
            [CompletionResult]::new('why', 'why', [CompletionResultType]::ParameterValue, 'Which journaled changes touched a field of an object, newest first')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'One entry, as pretty JSON')
            [CompletionResult]::new('verify', 'verify', [CompletionResultType]::ParameterValue, 'Check the hash chain across the retained files: exit 0 when it holds, 1 naming the first break')
            [CompletionResult]::new('reconcile', 'reconcile', [CompletionResultType]::ParameterValue, 'Find the real outcome of entries whose outcome is unknown (an intent without an outcome record) by reading the live object, and record it; never rolls back or retries')
            break
        }
        'kubectl-myops;help;changelog;list' {
            break
        }
        'kubectl-myops;help;changelog;diff' {
            break
        }
        'kubectl-myops;help;changelog;why' {
            break
        }
        'kubectl-myops;help;changelog;show' {
            break
        }
        'kubectl-myops;help;changelog;verify' {
            break
        }
        'kubectl-myops;help;changelog;reconcile' {
            break
        }
        'kubectl-myops;help;crds' {
            [CompletionResult]::new('sync', 'sync', [CompletionResultType]::ParameterValue, 'Server-side apply every CRD in DIR once and wait until each is Established and served')
            [CompletionResult]::new('watch', 'watch', [CompletionResultType]::ParameterValue, 'Hot-load: register every CRD in DIR, then follow the directory until SIGINT/SIGTERM')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'What the directory holds and what the cluster has, side by side')
            break
        }
        'kubectl-myops;help;crds;sync' {
            break
        }
        'kubectl-myops;help;crds;watch' {
            break
        }
        'kubectl-myops;help;crds;list' {
            break
        }
        'kubectl-myops;help;metrics' {
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print the local totals (MYOPS_HOME/metrics-state.json)')
            [CompletionResult]::new('push', 'push', [CompletionResultType]::ParameterValue, 'Push the local totals to the Pushgateway now')
            [CompletionResult]::new('reset', 'reset', [CompletionResultType]::ParameterValue, 'Delete the local totals and this MYOPS_HOME''s group on the Pushgateway (asks unless --yes)')
            [CompletionResult]::new('delete', 'delete', [CompletionResultType]::ParameterValue, 'Delete this MYOPS_HOME''s group on the Pushgateway; keep the local totals')
            break
        }
        'kubectl-myops;help;metrics;show' {
            break
        }
        'kubectl-myops;help;metrics;push' {
            break
        }
        'kubectl-myops;help;metrics;reset' {
            break
        }
        'kubectl-myops;help;metrics;delete' {
            break
        }
        'kubectl-myops;help;config' {
            [CompletionResult]::new('schema', 'schema', [CompletionResultType]::ParameterValue, 'Print the JSON Schema of plugin.yaml')
            [CompletionResult]::new('validate', 'validate', [CompletionResultType]::ParameterValue, 'Check a plugin.yaml (default: the one the lookup order finds) and print what it allows')
            break
        }
        'kubectl-myops;help;config;schema' {
            break
        }
        'kubectl-myops;help;config;validate' {
            break
        }
        'kubectl-myops;help;auth' {
            [CompletionResult]::new('can-i', 'can-i', [CompletionResultType]::ParameterValue, 'Check whether an action is allowed: prints `yes` or `no[ - REASON]`; exit 0 yes, 3 no')
            [CompletionResult]::new('matrix', 'matrix', [CompletionResultType]::ParameterValue, 'A table of plugin.yaml resources × the RBAC verbs of the plugin''s verbs for the caller')
            [CompletionResult]::new('whoami', 'whoami', [CompletionResultType]::ParameterValue, 'Who the API server says you are (SelfSubjectReview), as `kubectl auth whoami`')
            break
        }
        'kubectl-myops;help;auth;can-i' {
            break
        }
        'kubectl-myops;help;auth;matrix' {
            break
        }
        'kubectl-myops;help;auth;whoami' {
            break
        }
        'kubectl-myops;help;version' {
            break
        }
        'kubectl-myops;help;completion' {
            break
        }
        'kubectl-myops;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
