#!/bin/sh
# kubectl_complete-myops (shim): kubectl runs `kubectl_complete-<plugin>` from PATH to complete
# `kubectl myops …` (k8s.io/kubectl/pkg/cmd/plugin/plugin_completion.go). Copy this file, named
# kubectl_complete-myops, into a directory of your own on PATH (~/.local/bin), never into krew's
# bin directory: krew 0.4.x refuses every command ("krew home outdated") when that directory holds
# a file while no plugin is installed (sigs.k8s.io/krew internal/receiptsmigration).
#
# It runs the real helper shipped next to the kubectl-myops found on PATH, so it follows
# `kubectl krew upgrade myops`, and after `kubectl krew uninstall myops` it completes nothing and
# exits 0 (delete it then if you like: it breaks nothing by staying).
exe=$(command -v kubectl-myops) || exit 0
real=$(dirname "$(readlink -f "$exe")")/kubectl_complete-myops
# Never run ourselves (a copy placed next to kubectl-myops itself).
[ "$(readlink -f "$real")" = "$(readlink -f "$0")" ] && exit 0
[ -x "$real" ] || exit 0
exec "$real" "$@"
