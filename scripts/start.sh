#!/usr/bin/env bash
# `npm start`: Node 24 and the dev dependencies (setup.sh), the pinned n8n (n8n-host/install.sh,
# a few minutes the first time), then scripts/start.js until Ctrl-C. Arguments go to start.js.
set -euo pipefail
here="$(dirname "${BASH_SOURCE[0]}")"
bash "$here/setup.sh"
source "$here/node24.sh"
cd "$repo_root"
bash n8n-host/install.sh
# exec: Ctrl-C and SIGTERM go straight to start.js, which stops what it started and exits 0.
exec node scripts/start.js "$@"
