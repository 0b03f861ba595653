#!/usr/bin/env bash
# `npm start`: Node 24 and the dev dependencies (setup.sh), then scripts/start.js until Ctrl-C, which
# installs the pinned n8n when it is missing (n8n-host/install.sh, a few minutes the first time).
# Arguments go to start.js.
set -euo pipefail
# The banner's "Ready in" counts from here, so set-up and installs are in it.
export SOUND_SEARCH_START_MS="${SOUND_SEARCH_START_MS:-$(date +%s%3N)}"
here="$(dirname "${BASH_SOURCE[0]}")"
# setup.sh is silent for minutes on a fresh clone: a line every 15 s says it is not hung. Beside it,
# so that setup.sh keeps the foreground (Ctrl-C reaches npm); nothing when setup is a quick no-op.
progress() {
  local started=$SECONDS
  while true; do
    for _ in $(seq 15); do sleep 1; done
    echo "      ... installing Node.js 24 and the dev dependencies (first start only): $((SECONDS - started)) s so far, $(du -sm "$here/../node_modules" 2>/dev/null | cut -f1 || echo 0) MB unpacked" >&2
  done
}
progress &
progress_pid=$!
trap 'kill "$progress_pid" 2>/dev/null || true' EXIT
bash "$here/setup.sh"
kill "$progress_pid" 2>/dev/null || true
trap - EXIT
source "$here/node24.sh"
cd "$repo_root"
# exec: Ctrl-C and SIGTERM go straight to start.js, which stops what it started and exits 0.
exec node scripts/start.js "$@"
