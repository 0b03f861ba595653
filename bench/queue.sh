#!/usr/bin/env bash
# Issue 50's queue-mode measurement in one command (docs/running-at-scale.md): installs what it
# needs (Node 24, the dev dependencies, the pinned n8n, Redis and PostgreSQL from Debian's
# packages), then runs bench/queue.js with the arguments given (`--repeat 3`, `--keywords 100`,
# `--tarball FILE`).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bash "$here/../scripts/setup.sh"
# shellcheck source=../scripts/node24.sh
source "$here/../scripts/node24.sh"
bash "$repo_root/n8n-host/install.sh"
bash "$repo_root/scripts/queue-env.sh" install >/dev/null
cd "$repo_root"
exec node bench/queue.js "$@"
