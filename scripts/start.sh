#!/usr/bin/env bash
# `npm start`: Node 24 and the dev dependencies (setup.sh), then scripts/start.js until Ctrl-C, which
# installs the pinned n8n when it is missing (n8n-host/install.sh, a few minutes the first time;
# an installed n8n is never installed again). Arguments go to start.js.
set -euo pipefail
# The banner's "Ready in" counts from here, so set-up and installs are in it.
export SOUND_SEARCH_START_MS="${SOUND_SEARCH_START_MS:-$(date +%s%3N)}"
here="$(dirname "${BASH_SOURCE[0]}")"
bash "$here/setup.sh"
source "$here/node24.sh"
cd "$repo_root"
# exec: Ctrl-C and SIGTERM go straight to start.js, which stops what it started and exits 0.
exec node scripts/start.js "$@"
