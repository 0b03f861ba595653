#!/usr/bin/env bash
# Runs one test layer (a project of jest.config.js) with Node 24: `npm run test:<layer>`, extra
# arguments go to jest. Two files at a time for the engine layer (they mostly wait on the real
# clock; at three, beside the checks, a later run's refusals rose past their bound, 3 Dec) and the
# real-n8n layers (each n8n takes about 1 GB and a core while it starts), one for queue mode (five
# processes) and release.
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
layer="${1:?usage: scripts/layer.sh <unit|engine|reference-service|release|e2e|queue|editor|commands|nightly|mutation> [jest args]}"
shift
source "$here/node24.sh"
cd "$repo_root"
# stryker.config.mjs runs the unit and engine layers against each mutant. The local install only:
# a bare `npx stryker` would fetch an unrelated old package "stryker".
[ "$layer" = mutation ] && exec npx --no-install stryker run "$@"
case "$layer" in
  # N8N_LINE=1.x npm run test:e2e: one line only.
  e2e) if [ -n "${N8N_LINE:-}" ]; then projects=("e2e n8n $N8N_LINE"); else projects=("e2e n8n 2.x" "e2e n8n 1.x"); fi ;;
  *) projects=("$layer") ;;
esac
case "$layer" in
  queue | release) set -- -w 1 "$@" ;;
  engine | e2e | editor | commands | nightly) set -- -w 2 "$@" ;;
esac
[ "$layer" = editor ] && bash "$here/ensure-chromium.sh"
# Arguments first: --selectProjects takes every word after it as a project name (a test path too).
exec npx jest "$@" --selectProjects "${projects[@]}"
